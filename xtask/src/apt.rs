//! Debian packages a task needs and the machine lacks, installed with apt-get (as root, or
//! through sudo), as `.ci/run` installs pip: the tasks install what they need themselves.

use std::process::Command;

/// Whether `program` is an executable file in a directory of `PATH`.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Installs Debian's `package` (`why` says which task needs it); on a machine without
/// apt-get, or when the install fails, the error ends with `hint`.
pub fn install(package: &str, why: &str, hint: &str) -> Result<(), String> {
    if !on_path("apt-get") {
        return Err(hint.to_owned());
    }
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let apt = |args: &[&str]| {
        let mut cmd = match root_user {
            true => Command::new("apt-get"),
            false => {
                let mut sudo = Command::new("sudo");
                sudo.arg("apt-get");
                sudo
            }
        };
        cmd.args(args);
        cmd
    };
    let step = crate::workspace::step;
    step(
        "",
        &format!("apt-get update (for {package})"),
        &mut apt(&["update", "-qq"]),
    )
    .and_then(|()| {
        step(
            "",
            &format!("installing Debian's {package}, which {why}"),
            &mut apt(&["install", "-y", "-qq", package]),
        )
    })
    .map_err(|e| format!("{e}\n{hint}"))
}

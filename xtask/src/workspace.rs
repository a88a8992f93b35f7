//! Where the workspace and its target directory are, and which programs the tasks run: found
//! one way for every task.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

/// The variable naming the Python interpreter that runs pip and creates venvs.
pub const PYTHON_VAR: &str = "PYTHON";

/// The workspace root: the parent of the xtask crate.
pub fn root() -> PathBuf {
    // `cargo run` sets CARGO_MANIFEST_DIR for the process too; read that first, because cargo
    // does not rebuild the xtask when its checkout moves, and the path compiled in would then
    // name a directory that is gone (every task failed as "cannot run cargo").
    let xtask = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    xtask.parent().unwrap_or(&xtask).to_path_buf()
}

/// The workspace's target directory, honouring `CARGO_TARGET_DIR` as the harness does.
#[cfg(feature = "full")]
pub fn target_dir() -> PathBuf {
    let value = std::env::var_os(schema::workspace::TARGET_DIR_VAR);
    schema::workspace::target_dir(&root(), value.as_deref())
}

/// The Python interpreter (`$PYTHON`, default python3).
pub fn python() -> String {
    std::env::var(PYTHON_VAR).unwrap_or_else(|_| "python3".to_string())
}

/// The cargo that runs this task (`$CARGO`, set by `cargo run`; default cargo).
pub fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Runs `cmd` after printing `prefix` and `what`: the one way a task runs a setup step (an
/// install, a venv, a build). The error names `what` and how the command ended.
pub fn step(prefix: &str, what: &str, cmd: &mut Command) -> Result<(), String> {
    eprintln!("{prefix}{what}");
    match cmd.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{what} failed ({s})")),
        Err(e) => Err(format!("{what}: cannot run {:?}: {e}", cmd.get_program())),
    }
}

//! `cargo xtask deep`: the deep suite's findings, from the `deep` crate; this module only finds
//! the paths, runs the suite and prints.

use deep::index as tree;
use deep::names::{self, Chosen};
use deep::{findings, runs};
use std::error::Error;
use std::path::Path;

/// Runs `cargo xtask deep [--backends a,b] [--no-wait]`. Every backend is checked before
/// anything runs; then the tree is held to the end (`deep::runs`): a second run waits, or stops
/// with `--no-wait`, and the findings replace the last ones whole, once every backend has run.
pub fn main(root: &Path, args: &crate::cli::Deep) -> Result<(), Box<dyn Error>> {
    let target = crate::workspace::target_dir();
    let out = tree::default_dir(&target);
    let busy = deep::WhenBusy::no_wait(args.no_wait);
    if args.render_only {
        let lock = runs::lock(&out, "cargo xtask deep --render-only", busy, &crate::say)?;
        findings::render_again(root, &lock)?;
        eprintln!("wrote {}/findings.{{md,html}}", out.display());
        return Ok(());
    }
    let chosen = names::check(&args.backend_values(), |n| ready(&target, n))?;
    // The tree's directory, not a report directory: each suite run locks its own report
    // directory (`deep/reports/backend-<label>`), which this process must not hold.
    let lock = runs::lock(&out, "cargo xtask deep", busy, &crate::say)?;
    let all = runs::findings(
        root,
        &lock,
        &chosen,
        |c| run_suite(root, &target, c).map_err(|e| deep::Error::Tree(e.to_string())),
        &crate::say,
    )?;
    print!("{}", deep::findings::render::summary(&all));
    eprintln!("wrote {}/findings.{{json,md,html}}", out.display());
    Ok(())
}

/// Runs the deep suite on a backend in this process and returns its report, which it also
/// leaves in the report directory of its label (`deep/reports/backend-<label>`).
fn run_suite(
    root: &Path,
    target: &Path,
    chosen: &Chosen,
) -> Result<harness::report::Report, Box<dyn Error>> {
    let during = chosen
        .configuration
        .as_ref()
        .map_or(String::new(), |c| format!(" in configuration {c}"));
    eprintln!("deep: running the deep cases on {}{during}", chosen.label);
    let configuration = chosen.configuration.as_deref();
    Ok(
        crate::suite_run::configured(root, &chosen.value, configuration)?
            .source(deep::source(&tree::default_dir(target)))
            .report_dir(chosen.report_dir(target))
            .run()?,
    )
}

/// Whether shipped backend `name` is set up under `target`, as `cargo xtask backends list`
/// says it.
pub fn ready(target: &Path, name: &str) -> Result<(), String> {
    match crate::backends::is_set_up(target, name) {
        true => Ok(()),
        false => Err(format!(
            "{} (`cargo xtask backends list` shows every backend's state)",
            crate::backends::status(target, name)
        )),
    }
}

//! `cargo xtask deep`: the deep suite's findings, from the `deep` crate; this module only finds
//! the paths, runs the suite and prints.

use deep::findings::{self, Findings};
use deep::names::{self, Chosen};
use harness::deep::{self as tree, CaseEntry};
use std::collections::BTreeMap;
use std::error::Error;
use std::path::Path;

/// Runs `cargo xtask deep [--backends a,b]`. Every backend is checked before anything runs;
/// the findings and reproducers are written beside the old ones and replace them only once
/// every backend has run, so a failed run leaves the last good outputs in place.
pub fn main(root: &Path, args: &crate::cli::Deep) -> Result<(), Box<dyn Error>> {
    let target = crate::workspace::target_dir();
    let out = tree::default_dir(&target);
    if args.render_only {
        return findings::render_again(root, &out);
    }
    let chosen = names::check(&args.backend_values(), |n| ready(&target, n))?;
    let index =
        tree::read_index(&target).map_err(|e| format!("{e}; run `{}`", tree::REGENERATE))?;
    let by_case: BTreeMap<&str, &CaseEntry> =
        index.cases.iter().map(|c| (c.case.as_str(), c)).collect();
    let mut runs = Vec::new();
    let mut all = Vec::new();
    for chosen in &chosen {
        let report = run_suite(root, &target, chosen)?;
        let dir = chosen.report_dir(&target);
        let (run, found) = findings::of_run(&out, &by_case, &chosen.label, &report, &dir)?;
        runs.push(run);
        all.extend(found);
    }
    let all: Findings = findings::publish(root, &out, &by_case, all, runs, &index.content_sha256)?;
    print!("{}", deep::render::summary(&all));
    eprintln!("wrote {}/findings.{{json,md,html}}", out.display());
    Ok(())
}

/// Runs the deep suite on a backend and returns its report, read from the report directory
/// of its label (`deep/reports/backend-<label>`).
fn run_suite(
    root: &Path,
    target: &Path,
    chosen: &Chosen,
) -> Result<harness::report::Report, Box<dyn Error>> {
    let dir = chosen.report_dir(target);
    eprintln!("deep: running the deep cases on {}", chosen.label);
    crate::suite_run::run(
        root,
        &dir,
        &chosen.value,
        &chosen.label,
        "deep/",
        &[("ONNX_CONFORMANCE_SUITE", "deep")],
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

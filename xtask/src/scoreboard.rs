//! `cargo xtask scoreboard`: the official suite on several backends, one after the other, and
//! one side-by-side report of their outcomes (`target/onnx-conformance/scoreboard.*`, the
//! `reports` crate's). `cargo xtask scoreboard --diff OLD`: what moved since an older
//! scoreboard, backend by backend.

use harness::report::ReportDir;
use reports::diff;
use reports::scoreboard::{self, NotSetUp, Scoreboard};
use std::error::Error;
use std::path::Path;

/// Runs the task with the options after `scoreboard`.
pub fn main(root: &Path, args: &crate::cli::Scoreboard) -> Result<(), Box<dyn Error>> {
    let target = crate::workspace::target_dir();
    if let Some(old) = &args.diff {
        let latest = || scoreboard::latest(&ReportDir::root(&target));
        let new = args.new.clone().unwrap_or_else(latest);
        let (text, regressions) = scoreboard::diff_files(old, &new, args.max_rows)?;
        print!("{text}");
        return Ok(diff::judge(regressions, args.fail_on_regression)?);
    }
    let mut not_set_up = Vec::new();
    let asked = args.backend_values();
    let names: Vec<String> = if asked.is_empty() {
        let (ready, missing): (Vec<&str>, Vec<&str>) = harness::backend::SHIPPED
            .iter()
            .map(|s| s.name)
            .partition(|n| crate::backends::is_set_up(&target, n));
        not_set_up = missing
            .into_iter()
            .map(|n| NotSetUp {
                name: n.to_string(),
                status: crate::backends::status(&target, n),
            })
            .collect();
        ready.into_iter().map(String::from).collect()
    } else {
        // Checked before anything runs, as `deep` checks its own: a label or a shipped name
        // that is set up, each once.
        deep::names::check(&asked, |n| crate::deep::ready(&target, n))?
            .into_iter()
            .map(|c| c.value)
            .collect()
    };
    // One scoreboard run at a time: its backends' runs share `scoreboard/`, and each reads
    // back the report its own run left there.
    let runs_dir = ReportDir::root(&target).join("scoreboard");
    let _runs = crate::report::lock(&runs_dir, "cargo xtask scoreboard")?;
    let data_lock =
        schema::hash::lock_sha256(root).map_err(|e| format!("cannot read the lock file: {e}"))?;
    let mut board = Scoreboard {
        data_lock,
        backends: Vec::new(),
        not_set_up,
    };
    for value in &names {
        // A worker runs as `worker:<label>=<command line>`; its label names its column.
        let name = &harness::backend::backend_name(value)?;
        // Its own directory: the backend's reports (a full run, own cases included) stay as
        // they are.
        let report_dir = ReportDir::scoreboard(&target, name);
        eprintln!(
            "scoreboard: running the official cases on {name} (reports in {})",
            report_dir.path().display()
        );
        let mut suite = crate::suite_run::suite(root, value)?
            .filters(["onnx-".to_string()])
            .report_dir(report_dir.path());
        let list = harness::backend::list_path(root, name);
        if list.is_file() {
            suite = suite.known_failures(list);
        }
        let report = suite.run()?;
        let report_path = report_dir.json();
        board
            .backends
            .push(scoreboard::run_of(report, name, &report_path)?);
    }
    let out = ReportDir::root(&target);
    // The board goes beside native's reports: wait for a native run writing there.
    let _out = crate::report::lock(&out, "cargo xtask scoreboard")?;
    scoreboard::write(&out, &board)?;
    print!("{}", scoreboard::summary(&board));
    eprintln!("wrote {}/scoreboard.{{json,md,html}}", out.display());
    Ok(())
}

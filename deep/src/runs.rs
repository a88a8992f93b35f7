//! A findings run over the deep tree: the tree held, checked against its index, run on each
//! backend, each run's failures grouped, the findings published.

use crate::findings::{self, Finding, Findings, RunSummary};
use crate::index::{self as tree, CaseEntry};
use crate::integrity;
use crate::names::Chosen;
use crate::Error;
use harness::known::Outcome;
use harness::report::{Report, ReportDir};
use schema::files::{DirLock, WhenBusy};
use std::collections::BTreeMap;
use std::path::Path;

/// Takes the lock of the deep tree at `dir` for `purpose`. Every task that reads or writes the
/// tree or its findings holds it (`cargo xtask deep`, `deep-cases`, `deep-audit`), so that no
/// run reads a tree half rewritten and no two runs mix their findings. Busy, it says through `say`
/// who holds it and waits ([`WhenBusy::Wait`]), or stops naming the directory and the holder.
pub fn lock(
    dir: &Path,
    purpose: &str,
    busy: WhenBusy,
    say: &dyn Fn(&str),
) -> Result<DirLock, Error> {
    let on_wait = |holder: &str| {
        say(&format!(
            "{}: in use by {holder}; waiting for it",
            dir.display()
        ))
    };
    DirLock::acquire(dir, purpose, busy, on_wait).map_err(|e| match e {
        schema::files::Error::Busy { dir, holder } => format!(
            "{}: in use by another run ({holder}); this one does not wait (--no-wait): run it \
             again once that one is done",
            dir.display()
        )
        .into(),
        e => e.into(),
    })
}

/// Runs each backend of `chosen` on the tree `lock` holds (`run_suite` runs one and returns its
/// report, which it leaves in the label's report directory, `reports/backend-<label>`), groups
/// each run's failures into findings and publishes them ([`findings::publish`]). The tree is
/// checked against its index ([`integrity::verify`]) before the first backend runs and again
/// after each, before its failures are judged: a changed file stops the task as a setup
/// problem, never a finding nor a pass, and the last findings stay.
pub fn findings(
    root: &Path,
    lock: &DirLock,
    chosen: &[Chosen],
    mut run_suite: impl FnMut(&Chosen) -> Result<Report, Error>,
    say: &dyn Fn(&str),
) -> Result<Findings, Error> {
    let out = lock.dir();
    let index = tree::read_index_at(out).map_err(|e| format!("{e}; run `{}`", tree::REGENERATE))?;
    integrity::verify(out, &index).map_err(|e| format!("{e}; nothing was run"))?;
    let by_case: BTreeMap<&str, &CaseEntry> =
        index.cases.iter().map(|c| (c.case.as_str(), c)).collect();
    let mut runs = Vec::new();
    let mut all = Vec::new();
    for chosen in chosen {
        // The default configuration first; its hello says which others the backend has, and
        // each runs in turn, judged before the next run reuses the report directory.
        let mut judge = |c: &Chosen| -> Result<(RunSummary, Vec<Finding>, Vec<String>), Error> {
            let report = run_suite(c)?;
            // The files this run read, and its findings are about to.
            integrity::verify(out, &index).map_err(|e| {
                format!(
                    "after the run of {}: {e}; no findings were written",
                    c.label
                )
            })?;
            let configuration = report.run.as_ref().and_then(|r| r.configuration.clone());
            if let Some(asked) = &c.configuration {
                if configuration.as_ref().map(|k| &k.active) != Some(asked) {
                    return Err(format!(
                        "backend {}: asked for configuration {asked:?}, its report says {:?}",
                        c.label,
                        configuration.map(|k| k.active)
                    )
                    .into());
                }
            }
            let failed = report.trials.iter().filter(|t| t.outcome != Outcome::Pass);
            let during = configuration
                .as_ref()
                .map_or(String::new(), |k| format!(" ({})", k.active));
            say(&format!(
                "deep: {}{during}: {} of {} trials did not pass; grouping",
                c.label,
                failed.count(),
                report.trials.len()
            ));
            let dir = ReportDir::deep(out, &c.label).into_path();
            let (mut run, found) = findings::of_run(out, &by_case, &c.label, &report, &dir)?;
            run.backend_value = Some(c.value.clone());
            let others = configuration.map_or(Vec::new(), |k| {
                k.declared.into_iter().filter(|d| *d != k.active).collect()
            });
            Ok((run, found, others))
        };
        let (run, mut found, others) = judge(chosen)?;
        runs.push(run);
        if chosen.configuration.is_none() {
            for other in others {
                let c = Chosen {
                    configuration: Some(other),
                    ..chosen.clone()
                };
                let (run, more, _) = judge(&c)?;
                runs.push(run);
                found = findings::merge_configurations(found, more);
            }
        }
        all.extend(found);
    }
    findings::publish(root, lock, &by_case, all, runs, &index.content_sha256)
}

#[cfg(test)]
mod tests;

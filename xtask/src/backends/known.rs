//! `cargo xtask backends known-failures NAME`: a backend's known-failures list from its last
//! run, for a person to review before committing it.

use harness::known::Outcome;
use harness::known::{KnownFailure, KnownFailures, Match};
use harness::report::{self, TrialRecord};
use std::error::Error;
use std::path::{Path, PathBuf};

/// Writes `tests/known-failures/NAME.json` from the backend's report.
pub fn run(
    root: &Path,
    target: &Path,
    name: &str,
    report: Option<&Path>,
) -> Result<(), Box<dyn Error>> {
    let report_path = match report {
        Some(path) => path.to_path_buf(),
        None => default_report(target, name),
    };
    if name == "native" {
        return Err(
            "the native list is tests/known-failures.json, kept by hand: it should \
                    hold upstream-data entries only"
                .into(),
        );
    }
    let report = report::load(&report_path)?;
    if report.backend.name != name {
        return Err(format!(
            "{} is a run of backend {:?}, not {name:?}",
            report_path.display(),
            report.backend.name
        )
        .into());
    }
    let out = root
        .join("tests/known-failures")
        .join(format!("{name}.json"));
    let old = if out.exists() {
        KnownFailures::load(&out)?
    } else {
        KnownFailures {
            format: 1,
            entries: Vec::new(),
        }
    };
    let root_text = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let list = refresh(&old, &report.trials, &root_text.display().to_string());
    std::fs::create_dir_all(out.parent().unwrap_or(root))?;
    let json = serde_json::to_string_pretty(&list)? + "\n";
    std::fs::write(&out, json)?;
    let new = list.entries.len()
        - list
            .entries
            .iter()
            .filter(|e| old.entries.iter().any(|o| o.pattern == e.pattern))
            .count();
    eprintln!(
        "wrote {} ({} entries, {new} new: review their reason before committing)",
        out.display(),
        list.entries.len()
    );
    Ok(())
}

fn default_report(target: &Path, name: &str) -> PathBuf {
    let sub = harness::backend::report_subdir(name);
    target
        .join("onnx-conformance")
        .join(sub)
        .join("report.json")
}

/// One entry per trial that did not pass: an old entry that still selects it keeps its
/// reason; a new one gets the failure kind and the first message line that names no path of
/// this machine (so the entry holds on another checkout).
pub fn refresh(old: &KnownFailures, trials: &[TrialRecord], root: &str) -> KnownFailures {
    let entries = trials
        .iter()
        // Setup checks (no release) are about the run, not the runtime: never listed.
        .filter(|t| t.release.is_some())
        .filter(|t| matches!(t.outcome, Outcome::Fail | Outcome::KnownFailure))
        .map(|t| {
            if let Some(e) = old
                .entries
                .iter()
                .find(|e| e.how.selects(&e.pattern, &t.name))
            {
                if e.failure_kind.is_none() || e.failure_kind == t.failure_kind {
                    return e.clone();
                }
            }
            let kind = t.failure_kind.map_or("failure", |k| k.label());
            let line = evidence(t.message.as_deref().unwrap_or(""), root);
            KnownFailure {
                pattern: t.name.clone(),
                how: Match::Exact,
                kind: kind.to_string(),
                reason: format!("REVIEW: {line}"),
                expect: if line.is_empty() {
                    Vec::new()
                } else {
                    vec![line]
                },
                failure_kind: t.failure_kind,
            }
        })
        .collect::<Vec<_>>();
    let mut seen = std::collections::BTreeSet::new();
    KnownFailures {
        format: 1,
        entries: entries
            .into_iter()
            .filter(|e| seen.insert(e.pattern.clone()))
            .collect(),
    }
}

/// The first line of `message` that is evidence on any machine: not a path of this checkout,
/// not the known-failure preamble or the rerun hint; at most 160 characters.
fn evidence(message: &str, root: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.contains(root) && !l.starts_with("rerun:"))
        .find(|l| !l.starts_with("known failure ("))
        .map(|l| l.chars().take(160).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use harness::backend::FailureKind;

    fn trial(
        name: &str,
        outcome: Outcome,
        kind: Option<FailureKind>,
        message: &str,
    ) -> TrialRecord {
        TrialRecord {
            name: name.into(),
            release: (!name.starts_with("settings/")).then(|| "1.22.0".into()),
            case: None,
            op_type: None,
            op_version: None,
            opset: None,
            inputs: Vec::new(),
            outputs: Vec::new(),
            outcome,
            rule: "exact".into(),
            rtol: None,
            atol: None,
            duration_ms: 0.0,
            message: Some(message.into()),
            backend: Default::default(),
            failure_kind: kind,
        }
    }

    #[test]
    fn entries_carry_kind_and_machine_independent_evidence() {
        let trials = [
            trial("a", Outcome::Pass, None, ""),
            trial(
                "b",
                Outcome::Fail,
                Some(FailureKind::Mismatch),
                "/home/me/repo/onnx-backend-data/x/test_data_set_0:\noutput 0 (\"y\"): 3 of 12 elements differ\nrerun: cargo test",
            ),
            trial("c", Outcome::Fail, Some(FailureKind::Unsupported), "backend rt: unsupported (refused at load): no kernel"),
            trial("settings/known-failures-stale", Outcome::Fail, Some(FailureKind::Error), "stale"),
        ];
        let list = refresh(&KnownFailures::default(), &trials, "/home/me/repo");
        let got: Vec<(&str, &str, &[String], Option<FailureKind>)> = list
            .entries
            .iter()
            .map(|e| {
                (
                    e.pattern.as_str(),
                    e.kind.as_str(),
                    &e.expect[..],
                    e.failure_kind,
                )
            })
            .collect();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, "b");
        assert_eq!(got[0].1, "mismatch");
        assert_eq!(got[0].2, ["output 0 (\"y\"): 3 of 12 elements differ"]);
        assert_eq!(
            got[1],
            (
                "c",
                "unsupported",
                &["backend rt: unsupported (refused at load): no kernel".to_string()][..],
                Some(FailureKind::Unsupported)
            )
        );
    }

    #[test]
    fn reviewed_entries_keep_their_reason_until_the_kind_changes() {
        let mut old = refresh(
            &KnownFailures::default(),
            &[trial(
                "b",
                Outcome::Fail,
                Some(FailureKind::Unsupported),
                "no kernel",
            )],
            "/r",
        );
        old.entries[0].reason = "onnxruntime has no FLOAT4E2M1 kernel".into();
        let again = refresh(
            &old,
            &[trial(
                "b",
                Outcome::KnownFailure,
                Some(FailureKind::Unsupported),
                "known failure (unsupported): x\nno kernel",
            )],
            "/r",
        );
        assert_eq!(
            again.entries[0].reason,
            "onnxruntime has no FLOAT4E2M1 kernel"
        );
        let changed = refresh(
            &old,
            &[trial(
                "b",
                Outcome::Fail,
                Some(FailureKind::Crash),
                "crash: the worker exited",
            )],
            "/r",
        );
        assert!(changed.entries[0].reason.starts_with("REVIEW: "));
        assert_eq!(changed.entries[0].failure_kind, Some(FailureKind::Crash));
        // A trial that passes now drops out of the list.
        assert!(
            refresh(&old, &[trial("b", Outcome::UnexpectedPass, None, "")], "/r")
                .entries
                .is_empty()
        );
    }
}

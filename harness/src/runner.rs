//! The conformance binary's main: settings from the environment, one libtest-mimic trial per
//! case, then the reports and the per-opset summary after the libtest summary.

use crate::backend::{self, BackendHandle, Selected};
use crate::discover::{discover, Spec, SpecKind};
use crate::error::Error;
use crate::known::{KnownFailures, Tolerances};
use crate::report::{self, nextest, Report, TrialRecord};
use crate::trials::{self, Context};
use libtest_mimic::{Arguments, Completion, FormatSetting, Trial};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Environment variable selecting strict (bit-exact) comparison.
pub const STRICT_VAR: &str = "ONNX_CONFORMANCE_STRICT";
/// Environment variable naming another tree of cases to run instead of the official data.
pub const DATA_VAR: &str = "ONNX_BACKEND_DATA";

/// Runs the suite for the workspace at `workspace` with the process's arguments, on the
/// backend that `ONNX_CONFORMANCE_BACKEND` names.
pub fn main(workspace: &Path) -> ExitCode {
    run_main(workspace, None)
}

/// Runs the suite on a backend of the caller's, in-process: how a Rust runtime judges
/// itself from a `harness = false` test of its own. `workspace` holds `onnx-backend-data/`
/// (or set `ONNX_BACKEND_DATA`); `known_failures` is the runtime's own list, if any. Reports
/// go to `target/onnx-conformance/backend-<name>/`.
pub fn main_with_backend(
    workspace: &Path,
    backend: BackendHandle,
    known_failures: Option<PathBuf>,
) -> ExitCode {
    let name = backend.info().name;
    let selected = Selected {
        backend,
        known_failures,
        report_subdir: format!("backend-{name}"),
    };
    run_main(workspace, Some(selected))
}

fn run_main(workspace: &Path, backend: Option<Selected>) -> ExitCode {
    let args = Arguments::from_args();
    let (ctx, specs) = prepare_with(workspace, &|key| std::env::var_os(key), backend);
    let records: Arc<Mutex<Vec<TrialRecord>>> = Arc::default();
    let ctx = Arc::new(ctx);
    let trials = specs
        .into_iter()
        .map(|spec| libtest_trial(spec, Arc::clone(&ctx), Arc::clone(&records)))
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    if args.list {
        return conclusion.exit_code();
    }
    let mut trials = std::mem::take(&mut *records.lock().unwrap_or_else(|p| p.into_inner()));
    trials.sort_by(|a, b| a.name.cmp(&b.name));
    let data = match &ctx.data_override {
        Some(dir) => dir.clone(),
        None => workspace.join(crate::index::DATA_DIR),
    };
    let report = Report {
        format: 1,
        strict: ctx.strict,
        data: data.display().to_string(),
        backend: ctx.backend.info(),
        trials,
    };
    let run_id = std::env::var(nextest::RUN_ID_VAR).ok();
    let written = match nextest::run_id(run_id.as_deref()) {
        // One process per trial: each appends its record; `cargo xtask report --nextest`
        // assembles the reports, since any file written here would hold one trial only.
        Some(id) => append_for_nextest(&ctx.out_dir, &id, report),
        None => write_reports(&ctx.out_dir, &report, &args),
    };
    match written {
        Ok(()) => conclusion.exit_code(),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes the three reports and, unless libtest prints JSON, the per-opset table.
fn write_reports(out_dir: &Path, report: &Report, args: &Arguments) -> Result<(), Error> {
    let written = report::write_all(out_dir, report);
    if !matches!(args.format, Some(FormatSetting::Json)) {
        print!("{}", report::summary_table(report));
        println!("reports: {}/report.{{json,md,html}}", out_dir.display());
    }
    written
}

/// Appends this process's trial records to the nextest run's JSONL file.
fn append_for_nextest(out_dir: &Path, run_id: &str, report: Report) -> Result<(), Error> {
    let lines: Vec<nextest::Line> = report
        .trials
        .into_iter()
        .map(|trial| nextest::Line {
            strict: report.strict,
            data: report.data.clone(),
            trial,
        })
        .collect();
    nextest::append(&nextest::run_file(out_dir, run_id), &lines)
}

/// Wraps one spec as a libtest trial that records its result. A known failure shows as
/// ignored (with its kind), so the libtest summary counts it neither as passed nor failed.
fn libtest_trial(spec: Spec, ctx: Arc<Context>, records: Arc<Mutex<Vec<TrialRecord>>>) -> Trial {
    let name = spec.name.clone();
    Trial::ignorable_test(name, move || {
        let rec = trials::run(&ctx, &spec);
        let (outcome, message) = (rec.outcome, rec.message.clone());
        records.lock().unwrap_or_else(|p| p.into_inner()).push(rec);
        match outcome {
            crate::known::Outcome::Pass => Ok(Completion::Completed),
            crate::known::Outcome::KnownFailure => {
                let first = message
                    .as_deref()
                    .and_then(|m| m.lines().next())
                    .unwrap_or("");
                let kind = first.split(':').next().unwrap_or("known failure");
                Ok(Completion::ignored_with(kind))
            }
            _ => Err(message.unwrap_or_else(|| "failed".into()).into()),
        }
    })
}

/// The shared context and the trial list, from the workspace and the environment `env`.
/// Problems with the settings or the lists become failing trials, never a panic.
pub fn prepare(
    workspace: &Path,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> (Context, Vec<Spec>) {
    prepare_with(workspace, env, None)
}

/// As [`prepare`], with the backend given instead of chosen from the environment.
fn prepare_with(
    workspace: &Path,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
    given: Option<Selected>,
) -> (Context, Vec<Spec>) {
    let mut problems: Vec<Spec> = Vec::new();
    let mut problem = |name: &str, msg: String| {
        problems.push(Spec {
            name: name.to_string(),
            kind: SpecKind::Guard(msg),
        })
    };
    let strict = match env(STRICT_VAR).as_deref().and_then(|v| v.to_str()) {
        None | Some("" | "0") => false,
        Some("1") => true,
        Some(other) => {
            problem(
                "settings/strict",
                format!("{STRICT_VAR}={other:?}: use 1 (strict) or 0"),
            );
            false
        }
    };
    let data_override = env(DATA_VAR)
        .filter(|v| !v.is_empty())
        .map(|v| workspace.join(PathBuf::from(v)));
    let tests = workspace.join("tests");
    let target = match env("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => workspace.join(PathBuf::from(dir)),
        _ => workspace.join("target"),
    };
    let chosen = match given {
        Some(selected) => Ok(selected),
        None => backend::select(workspace, &target, env),
    };
    let selected = chosen.unwrap_or_else(|e| {
        problem("settings/backend", e);
        Selected {
            backend: BackendHandle::default(),
            known_failures: None,
            report_subdir: "backend-unavailable".into(),
        }
    });
    // The native list must exist; another backend's list is empty until one is written.
    let known = match &selected.known_failures {
        Some(path) if path.exists() || selected.report_subdir.is_empty() => {
            KnownFailures::load(path).unwrap_or_else(|e| {
                problem("settings/known-failures", e.to_string());
                KnownFailures::default()
            })
        }
        _ => KnownFailures::default(),
    };
    let tolerances = Tolerances::load(&tests.join("tolerances.json")).unwrap_or_else(|e| {
        problem("settings/tolerances", e.to_string());
        Tolerances::default()
    });
    let mut specs = discover(workspace, data_override.as_deref());
    if data_override.is_none() && specs.iter().all(|s| matches!(s.kind, SpecKind::Case(_))) {
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        let stale: Vec<String> = known
            .unmatched(&names)
            .iter()
            .map(|e| format!("{:?}", e.pattern))
            .collect();
        if !stale.is_empty() {
            let list = selected
                .known_failures
                .as_deref()
                .and_then(|p| p.strip_prefix(workspace).ok())
                .map_or_else(
                    || "the known-failures list".into(),
                    |p| p.display().to_string(),
                );
            let msg = format!(
                "{list} has entries that match no trial (remove or fix them): {}",
                stale.join(", ")
            );
            problem("settings/known-failures-stale", msg);
        }
    }
    specs.extend(problems);
    let ctx = Context {
        strict,
        known,
        tolerances,
        out_dir: match selected.report_subdir.as_str() {
            "" => target.join("onnx-conformance"),
            sub => target.join("onnx-conformance").join(sub),
        },
        data_override,
        backend: selected.backend,
    };
    (ctx, specs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::tests::{instance, scratch, write_index, write_lock};
    use std::ffi::OsString;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |key| {
            pairs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn settings_come_from_the_environment() {
        let ws = scratch("prepare");
        let (ctx, specs) = prepare(&ws, &env_of(&[]));
        assert!(!ctx.strict && ctx.data_override.is_none());
        assert_eq!(ctx.out_dir, ws.join("target/onnx-conformance"));
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, [crate::discover::MISSING_TRIAL]);
        let vars = [
            (STRICT_VAR, "1"),
            (DATA_VAR, "mine"),
            ("CARGO_TARGET_DIR", "/t"),
        ];
        let (ctx, specs) = prepare(&ws, &env_of(&vars));
        assert!(ctx.strict);
        assert_eq!(ctx.data_override, Some(ws.join("mine")));
        assert_eq!(ctx.out_dir, Path::new("/t/onnx-conformance"));
        assert_eq!(specs[0].name, "custom/missing");
        let (_, specs) = prepare(&ws, &env_of(&[(STRICT_VAR, "yes")]));
        assert!(specs.iter().any(|s| s.name == "settings/strict"));
    }

    #[test]
    fn bad_lists_and_stale_entries_are_failing_trials() {
        let ws = scratch("prepare-lists");
        std::fs::create_dir_all(ws.join("tests")).expect("dir");
        std::fs::write(ws.join("tests/tolerances.json"), "[]").expect("write");
        let (_, specs) = prepare(&ws, &env_of(&[]));
        assert!(specs.iter().any(|s| s.name == "settings/tolerances"));
        let known = r#"{"format":1,"entries":[{"pattern":"gone","match":"exact","kind":"k","reason":"r"}]}"#;
        std::fs::write(ws.join("tests/known-failures.json"), known).expect("write");
        std::fs::create_dir_all(ws.join("tests/cases/test_a")).expect("dir");
        std::fs::write(ws.join("tests/cases/test_a/model.onnx"), b"").expect("write");
        let stale = |specs: &[Spec]| {
            specs
                .iter()
                .any(|s| s.name == "settings/known-failures-stale")
        };
        // Checked only against the full official list, never against another tree.
        assert!(!stale(
            &prepare(&ws, &env_of(&[(DATA_VAR, "tests/cases")])).1
        ));
        write_index(&ws, vec![instance("1.22.0", "test_a", 25)]);
        write_lock(&ws, "1.22.0", &["test_a"]);
        assert!(stale(&prepare(&ws, &env_of(&[])).1));
        let known = known.replace("\"gone\"", "\"onnx-1.22.0/opset25/test_a\"");
        std::fs::write(ws.join("tests/known-failures.json"), known).expect("write");
        assert!(!stale(&prepare(&ws, &env_of(&[])).1));
    }
}

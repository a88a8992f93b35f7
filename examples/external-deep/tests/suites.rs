//! A runtime of another repository, judged in-process through the libraries alone: the
//! official suite, then the deep suite (its tree written here, run, and grouped into
//! findings). No `cargo xtask` and no subprocess of onnx-conformance runs. Run it with
//! `cargo test --test suites`; the official data comes from `cargo xtask fetch-tests` of the
//! checkout this example lives in (point `Suite::new` at your own copy).

use deep::findings;
use deep::{DirLock, WhenBusy};
use harness::backend::{
    Backend, BackendFailure, BackendHandle, BackendInfo, FailureKind, ModelFile, Prepared,
};
use harness::known::Outcome;
use harness::report::Report;
use harness::runner::Suite;
use harness::vocab::{AttrValue, DataType, Tensor};
use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The toy runtime: Cast from FLOAT to DOUBLE, and a refusal of everything else.
struct ToyCast;

impl Backend for ToyCast {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "toy-cast".into(),
            runtime: "external-deep".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }

    fn prepare<'a>(
        &'a self,
        file: ModelFile<'a>,
    ) -> Result<Box<dyn Prepared + 'a>, BackendFailure> {
        let graph = &file.model.graph;
        let to_double = AttrValue::Int(i64::from(DataType::Double.code()));
        let supported = match &graph.nodes[..] {
            [node] => {
                node.op_type == "Cast"
                    && node
                        .attributes
                        .iter()
                        .any(|a| a.name == "to" && a.value == to_double)
                    && graph
                        .inputs
                        .iter()
                        .all(|i| i.dtype == Some(DataType::Float))
            }
            _ => false,
        };
        match supported {
            true => Ok(Box::new(Widen)),
            false => Err(BackendFailure::new(
                FailureKind::Unsupported,
                "toy-cast: only Cast from FLOAT to DOUBLE",
            )),
        }
    }
}

/// A loaded FLOAT-to-DOUBLE Cast.
struct Widen;

impl Prepared for Widen {
    fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, BackendFailure> {
        let error = |msg: String| BackendFailure::new(FailureKind::Error, msg);
        let [input] = inputs else {
            return Err(error(format!("toy-cast: {} inputs", inputs.len())));
        };
        let values = input
            .as_slice::<f32>()
            .ok_or_else(|| error(format!("toy-cast: input is {}", input.dtype())))?;
        let widened: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
        let out = Tensor::from_vec(input.shape().to_vec(), widened)
            .map_err(|e| error(format!("toy-cast: {e}")))?;
        Ok(vec![out])
    }
}

fn backend() -> BackendHandle {
    BackendHandle(Arc::new(ToyCast))
}

/// A suite over the checkout's official data (and lock), on the toy runtime.
fn suite(here: &Path) -> Suite {
    Suite::new(here, "../../onnx-backend-data", backend())
        .lock_file("../../onnx-backend-data.lock.json")
}

/// Trials that did not pass, by outcome, and the failed setup checks (trials of no release).
fn tally(report: &Report) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut by = BTreeMap::new();
    for t in &report.trials {
        let key = match (t.outcome, t.failure_kind) {
            (Outcome::Pass, _) => "pass".to_string(),
            (_, Some(kind)) => kind.label().to_string(),
            (o, None) => format!("{o:?}"),
        };
        *by.entry(key).or_insert(0) += 1;
    }
    let broken = report
        .trials
        .iter()
        .filter(|t| t.release.is_none() && t.outcome != Outcome::Pass)
        .map(|t| format!("{}: {}", t.name, t.message.as_deref().unwrap_or("")))
        .collect();
    (by, broken)
}

fn run() -> Result<(), Box<dyn Error>> {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map_or_else(|| here.join("target"), |t| here.join(t));

    // 1. The official suite, in-process.
    let official = suite(&here).run()?;
    let (counts, broken) = tally(&official);
    println!("official: {counts:?}");
    if !broken.is_empty() {
        return Err(format!("official: setup checks failed: {broken:?}").into());
    }
    let widened = official
        .trials
        .iter()
        .filter(|t| t.case.as_deref() == Some("test_cast_FLOAT_to_DOUBLE"))
        .collect::<Vec<_>>();
    if widened.is_empty() || widened.iter().any(|t| t.outcome != Outcome::Pass) {
        return Err("official: every FLOAT-to-DOUBLE Cast should pass on toy-cast".into());
    }

    // 2. The deep tree, written by the deep crate (expected values from the implementation).
    let tree = target.join("deep-tree");
    // Held while the tree is written, run and its findings written: another process using the
    // tree waits, and a second run of this test mixes nothing.
    let lock = DirLock::acquire(&tree, "external-deep", WhenBusy::Wait, |holder| {
        eprintln!("{}: in use by {holder}; waiting", tree.display())
    })?;
    let written = deep::write(&lock)?;
    println!(
        "deep: wrote {} cases, content sha256 {}",
        written.cases, written.content_sha256
    );

    // 3. The deep suite on the toy runtime: the tree as the run's source.
    let report = suite(&here).source(deep::source(&tree)).run()?;
    let (counts, broken) = tally(&report);
    println!("deep: {counts:?}");
    if !broken.is_empty() {
        return Err(format!("deep: setup checks failed: {broken:?}").into());
    }

    // 4. Its findings, from that run's report, written beside the tree.
    let index = deep::index::read_index_at(&tree)?;
    let by_case = index.cases.iter().map(|c| (c.case.as_str(), c)).collect();
    let name = report.backend.name.clone();
    // From the run's report and failure dumps (under its report directory): nothing runs
    // again.
    let reports = harness::report::ReportDir::deep(&tree, &name).into_path();
    let (summary, found) = findings::of_run(&tree, &by_case, &name, &report, &reports)?;
    deep::integrity::verify(&tree, &index)?;
    let all = findings::publish(
        &deep::sources_root(),
        &lock,
        &by_case,
        found,
        vec![summary],
        &index.content_sha256,
    )?;
    print!("{}", findings::render::summary(&all));
    if all.findings.is_empty() || !tree.join("findings.json").is_file() {
        return Err("deep: a runtime that refuses most cases should have findings".into());
    }
    println!("findings: {}", tree.join("findings.html").display());
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

//! Fixtures shared by the xtask's tests: the one place test helpers live, so that no module
//! exports its test module to another.

pub mod repo;
#[cfg(feature = "full")]
pub mod report;

use crate::cli::Cli;
use clap::Parser;

/// Parses `args` (without the program name) as `cargo xtask` would: the binary's own name
/// comes first, as cargo runs it.
pub fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("target/debug/xtask").chain(args.iter().copied()))
}

/// A trial record of `name` with `outcome` and empty facts, for tests to fill in.
#[cfg(feature = "full")]
pub fn record(name: &str, outcome: harness::known::Outcome) -> harness::report::TrialRecord {
    harness::report::TrialRecord {
        name: name.into(),
        release: None,
        case: None,
        op_type: None,
        op_version: None,
        opset: None,
        inputs: Vec::new(),
        outputs: Vec::new(),
        outcome,
        rule: "onnx-default".into(),
        rtol: None,
        atol: None,
        duration_ms: 0.0,
        message: None,
        backend: Default::default(),
        failure_kind: None,
    }
}

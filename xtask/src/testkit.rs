//! Fixtures shared by the xtask's tests: the one place test helpers live, so that no module
//! exports its test module to another.

pub mod repo;

use crate::cli::Cli;
use clap::Parser;

/// Parses `args` (without the program name) as `cargo xtask` would: the binary's own name
/// comes first, as cargo runs it.
pub fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("target/debug/xtask").chain(args.iter().copied()))
}

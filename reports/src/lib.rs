//! Reading and comparing the reports of conformance runs, apart from running them: what moved
//! between two runs of a backend ([`diff`], [`report_diff`]), several backends side by side
//! ([`scoreboard`]), and which type pairs the official data, our own cases and the format
//! sweeps exercise ([`coverage`]). The xtask's `report --diff`, `scoreboard` and `coverage`
//! parse their flags, call these and print.
#![forbid(unsafe_code)]

pub use error::Error;

pub mod coverage;
pub mod diff;
pub mod error;
pub mod report_diff;
pub mod scoreboard;
#[cfg(test)]
mod testkit;

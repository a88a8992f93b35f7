//! Reads ONNX backend node-test cases, runs them against a backend (by default this
//! repository's implementation, in-process, with the `native` feature), compares, reports.
//! What the spec allows (types, attributes, operator versions) comes from the `vocab` crate,
//! never from the backend.
//!
//! The public surface: [`backend`] (the seam a runtime implements), [`case`] and [`read`]
//! (what a case is and how it is read), [`runner`] (the conformance binary's main, also for a
//! runtime's own test), [`report`] and [`known`] (records, reports and known-failure lists),
//! [`write`] (the TensorProto writer, the inverse of [`read`]), [`worker_check`] (a worker run
//! step by step over chosen cases, for its author), [`expected_error`] (cases that must be
//! refused), [`source`] (which cases a run judges).
#![forbid(unsafe_code)]

pub mod backend;
pub mod case;
pub mod expected_error;
pub mod known;
pub mod outcome;
pub mod read;
pub mod refresh;
pub mod report;
pub mod runner;
pub mod source;
pub mod worker_check;
pub mod worker_skeleton;
pub mod write;

mod codes;
pub(crate) mod compare;
pub(crate) mod diag;
pub(crate) mod discover;
mod error;
#[cfg(feature = "native")]
pub(crate) mod exec;
pub(crate) mod lockcheck;
pub(crate) mod npy;
pub(crate) mod origin;
pub(crate) mod packing;
pub(crate) mod provenance;
pub(crate) mod settings;
#[cfg(test)]
pub(crate) mod testkit;
pub(crate) mod trials;
pub(crate) mod worker;

#[cfg(feature = "fuzzing")]
pub mod fuzzing;

pub use diag::{read_dumped_output, Dumped};
pub use error::Error;
/// The index, lock and onnx.proto formats live in their own crate, shared with the fetch.
pub use schema::{index, proto};
/// The shared vocabulary (data types, tensors, attributes, operator versions), re-exported so
/// that an in-process backend needs only this crate.
pub use vocab;

/// sha256 of the code that decides a case's bytes and what it computes ([`read`], [`write`]
/// and the executor), tests aside, taken when this crate was built (build.rs): a crate whose
/// files are written and read by it (the deep tree) records it to tell a stale file.
pub const CASE_CODE_SHA256: &str = env!("SOURCES_SHA256");

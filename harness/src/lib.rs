//! Reads ONNX backend node-test cases, runs them against a backend (by default this
//! repository's implementation, in-process), compares, reports. What the spec allows (types,
//! attributes, operator versions) comes from the `vocab` crate, never from the backend.
#![forbid(unsafe_code)]

pub mod backend;
pub mod case;
pub mod compare;
pub mod deep;
pub mod diag;
pub mod discover;
pub mod error;
pub mod exec;
pub mod known;
pub mod lockcheck;
pub mod npy;
pub mod origin;
pub mod provenance;
pub mod read;
pub mod report;
pub mod runner;
pub mod settings;
#[cfg(test)]
pub(crate) mod testkit;
pub mod trials;
pub mod worker;

pub use error::Error;
/// The index, lock and onnx.proto formats live in their own crate, shared with the fetch.
pub use schema::{index, proto};
/// The shared vocabulary (data types, tensors, attributes, operator versions), re-exported so
/// that an in-process backend needs only this crate.
pub use vocab;

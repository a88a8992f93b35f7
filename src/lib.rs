//! Cast, CastLike and Concat for every ONNX operator version, bit-exact, on typed tensors.
//!
//! This crate does no I/O: reading ONNX files is the harness's job. Its vocabulary (data
//! types, tensors, attributes, the operator-version table) is the `vocab` crate's.

pub mod error;
pub mod formats;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod ops;
mod prefetch;
pub mod self_check;
mod stream;
#[cfg(test)]
pub(crate) mod testkit;
pub mod tuning;

pub use error::Error;

/// The lock of the official data this version is judged on (`onnx-backend-data.lock.json`,
/// beside this crate's manifest, where `cargo xtask fetch-tests` keeps it): compiled in here, by
/// the crate whose directory holds it, for the installed `onnx-conformance` command.
pub const DATA_LOCK: &str = include_str!("../onnx-backend-data.lock.json");
// The shared vocabulary, re-exported so that callers of this crate need only this crate.
pub use vocab::{dtype, tensor};
pub use vocab::{for_each_dtype, with_storage};
pub use vocab::{DataType, Element, Storage, Tensor, TypeKind, TypedField};

/// sha256 of this crate's sources, tests aside, taken when it was built (build.rs): a crate
/// whose files hold what this code computes (the deep tree) records it to tell a stale file.
pub const SOURCES_SHA256: &str = env!("SOURCES_SHA256");

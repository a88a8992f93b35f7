//! Reads ONNX backend node-test cases, runs them against `onnx_conformance`, compares, reports.
#![forbid(unsafe_code)]

pub mod case;
pub mod compare;
pub mod diag;
pub mod discover;
pub mod error;
pub mod exec;
pub mod index;
pub mod known;
pub mod npy;
pub mod proto;
pub mod read;
pub mod report;
pub mod runner;
#[cfg(test)]
mod testdir;
pub mod trials;

pub use error::Error;

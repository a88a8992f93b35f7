//! Reads ONNX backend node-test cases, runs them against `onnx_conformance`, compares, reports.

pub mod case;
pub mod compare;
pub mod error;
pub mod exec;
pub mod index;
pub mod proto;
pub mod read;

pub use error::Error;

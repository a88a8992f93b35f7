//! Reads ONNX backend node-test cases, runs them against `onnx_conformance`, compares, reports.

pub mod case;
pub mod proto;

//! Cast, CastLike and Concat for every ONNX operator version, bit-exact, on typed tensors.
//!
//! This crate does no I/O: reading ONNX files is the harness's job.

pub mod dtype;
pub mod error;
pub mod formats;
pub mod ops;
mod stream;
pub mod tensor;
#[cfg(test)]
pub(crate) mod testkit;
pub mod tuning;

pub use dtype::{DataType, Element, Storage, TypedField};
pub use error::Error;
pub use tensor::Tensor;

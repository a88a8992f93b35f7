//! Tensors written as plain `TensorProto`s (values in `raw_data`, sub-byte types packed,
//! strings in `string_data`): the inverse of [`crate::read`], used for worker inputs and by
//! `cargo xtask own-cases`.

pub use crate::worker::encode::{tensor_proto, write_tensor};

//! Tensors as the TensorProto a worker reads: `raw_data` little-endian with sub-byte types
//! packed, strings in `string_data`, dims and `data_type` as given. No historical encoding
//! trap (bf16 stored as UINT16, int32_data, typed fields) ever reaches a worker.

use crate::error::Error;
use crate::proto::TensorProto;
use crate::read::ToCode;
use prost::Message;
use std::path::Path;
use vocab::{with_storage, Storage, Tensor};

/// Little-endian bytes of `codes` at `bits` bits each; below a byte, the even (lower) index
/// takes the low bits, as ONNX packs INT4, FLOAT4E2M1 and INT2.
fn pack(codes: impl Iterator<Item = u128>, bits: u32, count: usize) -> Vec<u8> {
    if bits >= 8 {
        let width = (bits / 8) as usize;
        let mut out = Vec::with_capacity(count * width);
        codes.for_each(|c| out.extend_from_slice(&c.to_le_bytes()[..width]));
        return out;
    }
    let per_byte = (8 / bits) as usize;
    let mut out = vec![0u8; count.div_ceil(per_byte)];
    for (i, c) in codes.enumerate() {
        let shift = (i % per_byte) as u32 * bits;
        out[i / per_byte] |= ((c as u8) & ((1u8 << bits) - 1)) << shift;
    }
    out
}

/// `tensor` as a TensorProto named `name`.
pub fn tensor_proto(name: &str, tensor: &Tensor) -> TensorProto {
    let dtype = tensor.dtype();
    let mut tp = TensorProto {
        name: name.into(),
        dims: tensor.shape().iter().map(|&d| d as i64).collect(),
        data_type: dtype.code(),
        ..Default::default()
    };
    match tensor.storage() {
        Storage::String(v) => tp.string_data = v.iter().map(|s| s.as_bytes().to_vec()).collect(),
        storage => {
            let codes = with_storage!(storage, v => v.iter().filter_map(ToCode::to_code).collect::<Vec<u128>>());
            tp.raw_data = Some(pack(codes.into_iter(), dtype.bit_width(), tensor.len()));
        }
    }
    tp
}

/// Writes `tensor` as a serialized TensorProto named `name` to `path`.
pub fn write_tensor(path: &Path, name: &str, tensor: &Tensor) -> Result<(), Error> {
    let bytes = tensor_proto(name, tensor).encode_to_vec();
    std::fs::write(path, bytes)
        .map_err(|e| Error::at(path, format!("cannot write the tensor: {e}")))
}

#[cfg(test)]
mod tests;

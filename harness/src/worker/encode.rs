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
mod tests {
    use super::*;
    use crate::read::decode_tensor;
    use vocab::DataType;

    /// `n` codes of `bits` bits spread over the whole range (bool: 0 and 1).
    fn spread(dtype: DataType, n: usize) -> Vec<u128> {
        let bits = dtype.bit_width();
        (1..=n as u128)
            .map(|i| match dtype {
                DataType::Bool => i % 2,
                _ => i.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835) >> (128 - bits),
            })
            .collect()
    }

    /// Packs codes one bit at a time: a second, deliberately naive packer.
    fn naive_raw(codes: &[u128], bits: u32) -> Vec<u8> {
        let mut out = vec![0u8; (codes.len() * bits as usize).div_ceil(8)];
        for (i, &c) in codes.iter().enumerate() {
            for b in 0..bits as usize {
                let bit = i * bits as usize + b;
                out[bit / 8] |= (((c >> b) & 1) as u8) << (bit % 8);
            }
        }
        out
    }

    #[test]
    fn every_type_round_trips_through_the_reader_with_the_naive_packing() {
        for &dtype in DataType::ALL {
            for n in [0usize, 1, 3, 8] {
                let shape = [n];
                let source = if dtype == DataType::String {
                    let strings = (0..n).map(|i| format!("s{i}")).collect();
                    let tp = TensorProto {
                        dims: vec![n as i64],
                        data_type: dtype.code(),
                        string_data: (0..n).map(|i| format!("s{i}").into_bytes()).collect(),
                        ..Default::default()
                    };
                    assert_eq!(
                        decode_tensor(&tp, Some(dtype)).unwrap().storage(),
                        &Storage::String(strings)
                    );
                    decode_tensor(&tp, Some(dtype)).unwrap()
                } else {
                    let codes = spread(dtype, n);
                    let tp = TensorProto {
                        dims: vec![n as i64],
                        data_type: dtype.code(),
                        raw_data: Some(naive_raw(&codes, dtype.bit_width())),
                        ..Default::default()
                    };
                    decode_tensor(&tp, Some(dtype)).unwrap()
                };
                let written = tensor_proto("x", &source);
                assert_eq!(written.data_type, dtype.code(), "{dtype}");
                assert_eq!(written.dims, vec![n as i64]);
                if dtype != DataType::String {
                    assert_eq!(
                        written.raw_data.as_deref(),
                        Some(&naive_raw(&spread(dtype, n), dtype.bit_width())[..]),
                        "{dtype} x{n}"
                    );
                }
                // Compared by re-encoding, since a NaN element is not equal to itself.
                let back = decode_tensor(&written, Some(dtype)).unwrap();
                assert_eq!(back.shape(), &shape[..]);
                assert_eq!(tensor_proto("x", &back), written, "{dtype} x{n}");
            }
        }
    }
}

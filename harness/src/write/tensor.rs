//! Tensors as TensorProtos. [`tensor_proto`] writes what `numpy_helper.from_array` makes:
//! `dims` (unpacked on the wire), `data_type`, `name`, then `raw_data` little-endian with the
//! sub-byte types packed (one bit stream, lowest index in the lowest bits: [`crate::packing`]),
//! present even when empty; strings in
//! `string_data`. No historical encoding trap (bf16 stored as UINT16, int32_data masking)
//! ever reaches a worker. [`proto`] and [`encode`] write the deep suite's encoding variants.

use super::{wire, Encoding};
use crate::codes::ToCode;
use crate::error::Error;
use crate::packing::{self, straddles};
use crate::proto::TensorProto;
use prost::Message;
use std::path::Path;
use vocab::{with_storage, DataType, Storage, Tensor, TypeKind};

/// Little-endian bytes of `codes` at `bits` bits each; below a byte, one bit stream with the
/// lower index in the lower bits, as ONNX packs INT4, FLOAT4E2M1, INT2 and the float6 types.
fn pack(codes: impl ExactSizeIterator<Item = u128>, bits: u32, count: usize) -> Vec<u8> {
    if bits >= 8 {
        let width = (bits / 8) as usize;
        let mut out = Vec::with_capacity(count * width);
        push_bytes(&mut out, codes, width);
        return out;
    }
    packing::pack(codes, bits, count)
}

/// Appends `codes` to `out` as `width`-byte little-endian values: the room made first, then
/// one fixed-size store per element, so that the loop has no capacity check or run-time length
/// in it (millions of elements in a chunk of a large run).
fn push_bytes(out: &mut Vec<u8>, codes: impl ExactSizeIterator<Item = u128>, width: usize) {
    fn each<const N: usize>(
        out: &mut Vec<u8>,
        codes: impl ExactSizeIterator<Item = u128>,
        bytes: impl Fn(u128) -> [u8; N],
    ) {
        let start = out.len();
        out.resize(start + codes.len() * N, 0);
        for (to, c) in out[start..].chunks_exact_mut(N).zip(codes) {
            to.copy_from_slice(&bytes(c));
        }
    }
    match width {
        1 => out.extend(codes.map(|c| c as u8)),
        2 => each(out, codes, |c| (c as u16).to_le_bytes()),
        4 => each(out, codes, |c| (c as u32).to_le_bytes()),
        8 => each(out, codes, |c| (c as u64).to_le_bytes()),
        _ => codes.for_each(|c| out.extend_from_slice(&c.to_le_bytes()[..width])),
    }
}

/// The element codes of a non-string tensor.
fn codes(tensor: &Tensor) -> Vec<u128> {
    with_storage!(tensor.storage(), v => v.iter().filter_map(ToCode::to_code).collect())
}

/// `tensor` as a TensorProto named `name`, as onnx writes it ([`Encoding::Onnx`]).
pub fn tensor_proto(name: &str, tensor: &Tensor) -> TensorProto {
    proto(name, tensor, Encoding::Onnx)
}

/// `tensor` as a TensorProto named `name` in `encoding`. [`Encoding::PackedDims`] differs
/// from onnx only on the wire ([`encode`]), so its message is onnx's.
pub fn proto(name: &str, tensor: &Tensor, encoding: Encoding) -> TensorProto {
    let dtype = tensor.dtype();
    let mut tp = TensorProto {
        name: name.into(),
        dims: tensor.shape().iter().map(|&d| d as i64).collect(),
        data_type: dtype.code(),
        ..Default::default()
    };
    if let Storage::String(v) = tensor.storage() {
        tp.string_data = v.iter().map(|s| s.as_bytes().to_vec()).collect();
        return tp;
    }
    match encoding {
        Encoding::TypedFields => typed(&mut tp, dtype, &codes(tensor)),
        Encoding::ZeroOmitted if tensor.is_empty() => {}
        // Straight from the elements: a chunk of a large run is millions of them.
        _ => {
            let (bits, len) = (dtype.bit_width(), tensor.len());
            tp.raw_data = Some(with_storage!(tensor.storage(), v => {
                // Not a string (returned above): every element has a code.
                pack(v.iter().map(|x| x.to_code().unwrap_or_default()), bits, len)
            }))
        }
    }
    tp
}

/// Fills the typed field of `dtype` with `codes` (docs/semantics.md §5.3), as
/// `helper.make_tensor` does: FLOAT and COMPLEX64 in `float_data`, DOUBLE and COMPLEX128 in
/// `double_data`, INT64 in `int64_data`, UINT32 and UINT64 in `uint64_data`, every other type
/// in `int32_data`: signed integers sign-extended, 16-, 8- and 6-bit floats as their bits
/// (one code per entry), and the 4- and 2-bit types one packed byte per entry.
fn typed(tp: &mut TensorProto, dtype: DataType, codes: &[u128]) {
    let bits = dtype.bit_width();
    match (dtype.kind(), bits) {
        (TypeKind::Float, 32) => {
            tp.float_data = codes.iter().map(|&c| f32::from_bits(c as u32)).collect()
        }
        (TypeKind::Complex, 64) => {
            tp.float_data = codes
                .iter()
                .flat_map(|&c| [c as u32, (c >> 32) as u32])
                .map(f32::from_bits)
                .collect()
        }
        (TypeKind::Float, 64) => {
            tp.double_data = codes.iter().map(|&c| f64::from_bits(c as u64)).collect()
        }
        (TypeKind::Complex, _) => {
            tp.double_data = codes
                .iter()
                .flat_map(|&c| [c as u64, (c >> 64) as u64])
                .map(f64::from_bits)
                .collect()
        }
        (TypeKind::Signed, 64) => tp.int64_data = codes.iter().map(|&c| c as u64 as i64).collect(),
        (TypeKind::Unsigned, 32 | 64) => tp.uint64_data = codes.iter().map(|&c| c as u64).collect(),
        (TypeKind::Signed, 32) => tp.int32_data = codes.iter().map(|&c| c as u32 as i32).collect(),
        (TypeKind::Signed, 16) => {
            tp.int32_data = codes.iter().map(|&c| i32::from(c as u16 as i16)).collect()
        }
        (TypeKind::Signed, 8) => {
            tp.int32_data = codes.iter().map(|&c| i32::from(c as u8 as i8)).collect()
        }
        // The float6 types too: their codes straddle bytes, so onnx.proto keeps one per entry.
        (kind, _) if matches!(bits, 8 | 16) || kind == TypeKind::Bool || straddles(bits) => {
            tp.int32_data = codes.iter().map(|&c| c as i32).collect()
        }
        _ => {
            tp.int32_data = pack(codes.iter().copied(), bits, codes.len())
                .into_iter()
                .map(i32::from)
                .collect()
        }
    }
}

/// `tensor` named `name` as the bytes of a serialized TensorProto in `encoding`.
pub fn encode(name: &str, tensor: &Tensor, encoding: Encoding) -> Vec<u8> {
    let bytes = proto(name, tensor, encoding).encode_to_vec();
    match encoding {
        Encoding::PackedDims => wire::pack_dims(&bytes),
        _ => bytes,
    }
}

/// `raw_data` of at least this many bytes starts at a multiple of [`ALIGN`] in a worker's
/// input file, so that a worker can map the file and hand the runtime the elements where they
/// lie, aligned as its own tensors are, instead of reading them into its memory. Smaller ones
/// are written exactly as [`encode`] writes them.
pub(crate) const ALIGNED_FROM: u64 = 1 << 20;

/// Bytes of elements a worker's input is streamed in: one write each. At 64 KiB a chunk of
/// 64 MiB took 1024 writes and the system calls showed (4.6 GB/s against 7.1 at 1 MiB).
pub(crate) const STREAM_BLOCK: usize = 1 << 20;

/// The alignment of a large input's `raw_data` in its file.
pub(crate) const ALIGN: usize = 64;

/// Appends to the encoded `head` a `doc_string` (field 12) of spaces so long that the
/// `raw_data` key and length that follow end at a multiple of [`ALIGN`]. Readers ignore the
/// text (prost, which the harness reads with, does not even keep it).
fn pad_to_align(head: &mut Vec<u8>, raw_len: u64) {
    let varint_len = |v: u64| prost::encoding::encoded_len_varint(v);
    // What follows the padding field: the raw_data key, then its length.
    let after = 1 + varint_len(raw_len);
    let end = head.len() + after;
    // The padding field is its key, a one-byte length (below 128) and the spaces.
    let mut field = (ALIGN - end % ALIGN) % ALIGN;
    if field < 2 {
        field += ALIGN;
    }
    head.push(12 << 3 | 2);
    head.push((field - 2) as u8);
    head.resize(head.len() + field - 2, b' ');
}

/// Writes `tensor` as a serialized TensorProto named `name` to `path`, as onnx writes it
/// (aside, then renamed into place: a reader never finds it cut short).
pub fn write_tensor(path: &Path, name: &str, tensor: &Tensor) -> Result<(), Error> {
    let bytes = encode(name, tensor, Encoding::Onnx);
    Ok(schema::files::write_atomic(path, &bytes)?)
}

/// [`write_tensor`] for a file that lives as long as one data set and is read by one reader
/// after it is written (a worker's input): no flush to the disk, and written in place over
/// the file already there ([`schema::files::overwrite_with`]), whose blocks a large run reuses
/// chunk after chunk. The bytes are those of [`encode`] (`raw_data` last, as prost orders the
/// fields), streamed from the elements: a chunk of a large run is tens of megabytes, which the
/// message would hold twice over; from [`ALIGNED_FROM`] bytes of `raw_data` on, a padding
/// `doc_string` before it puts it at a multiple of [`ALIGN`] (docs/worker-protocol.md).
pub fn write_transient_tensor(path: &Path, name: &str, tensor: &Tensor) -> Result<(), Error> {
    let bits = tensor.dtype().bit_width();
    if matches!(tensor.storage(), Storage::String(_))
        || !bits.is_multiple_of(8)
        || tensor.is_empty()
    {
        let bytes = encode(name, tensor, Encoding::Onnx);
        return Ok(schema::files::overwrite_with(path, |w| {
            w.write_all(&bytes)
        })?);
    }
    let width = (bits / 8) as usize;
    let mut head = TensorProto {
        name: name.into(),
        dims: tensor.shape().iter().map(|&d| d as i64).collect(),
        data_type: tensor.dtype().code(),
        ..Default::default()
    }
    .encode_to_vec();
    let raw_len = (tensor.len() * width) as u64;
    if raw_len >= ALIGNED_FROM {
        pad_to_align(&mut head, raw_len);
    }
    // Field 9 (raw_data), wire type 2: its key, then its length.
    head.push(9 << 3 | 2);
    prost::encoding::encode_varint(raw_len, &mut head);
    Ok(schema::files::overwrite_with(path, |w| {
        w.write_all(&head)?;
        let mut block = Vec::with_capacity(STREAM_BLOCK);
        with_storage!(tensor.storage(), v => {
            for part in v.chunks(STREAM_BLOCK / width) {
                block.clear();
                // Strings, the one type without a code, never come here.
                let codes = part.iter().map(|x| x.to_code().unwrap_or_default());
                push_bytes(&mut block, codes, width);
                w.write_all(&block)?;
            }
        });
        Ok(())
    })?)
}

#[cfg(test)]
mod tests;

//! The one protobuf writer: tensors (`tensor`), attributes (`attribute`) and models (`model`),
//! for the worker inputs, our own cases (`cases`) and the deep tree (`deep`). The inverse of
//! [`crate::read`].
//!
//! [`Encoding::Onnx`] writes every file as `onnx.save` writes the same content built with
//! `onnx.helper` and `numpy_helper.from_array`, byte for byte (docs/semantics.md §5.1): fields
//! in number order, `dims` unpacked, values in `raw_data` (strings in `string_data`), an
//! attribute's `type` and value written even when zero, a domain written as `""`. The other
//! encodings are the deep suite's encoding variants: the same content in other valid
//! protobuf, for the loaders that accept only onnx's form.

pub mod attribute;
pub mod model;
pub mod tensor;
mod wire;

#[cfg(test)]
pub(crate) use tensor::ALIGNED_FROM;
pub use tensor::{tensor_proto, write_tensor, write_transient_tensor};

/// How a tensor or model is put on the wire. Every encoding means the same tensors and
/// attributes; only [`Encoding::Onnx`] is what onnx writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// As `onnx.save` writes it.
    Onnx,
    /// `dims` packed into one length-delimited field (proto3's default), the rest as onnx.
    PackedDims,
    /// Zero values left out where leaving them out means the same: an attribute's `i`, `f`
    /// or `s` when 0 or empty (proto2's default; `saturate=0`, `axis=0` keep their `type`),
    /// the opset domain `""`, and `raw_data` of a tensor of no elements.
    ZeroOmitted,
    /// Values in the typed fields (`float_data`, `int32_data`, `int64_data`, `double_data`,
    /// `uint64_data`; docs/semantics.md §5.3) rather than `raw_data`, as `helper.make_tensor`
    /// writes them.
    TypedFields,
}

impl Encoding {
    /// The variants other than [`Encoding::Onnx`].
    pub const VARIANTS: [Encoding; 3] = [
        Encoding::PackedDims,
        Encoding::ZeroOmitted,
        Encoding::TypedFields,
    ];

    /// The name in case names and the deep index's `shape` (`encoding-<name>`).
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Onnx => "onnx",
            Encoding::PackedDims => "packed-dims",
            Encoding::ZeroOmitted => "zero-omitted",
            Encoding::TypedFields => "typed-fields",
        }
    }
}

#[cfg(test)]
mod tests;

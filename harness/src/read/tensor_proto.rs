//! TensorProto to [`Tensor`]: header checks (location, dims, data type against the graph's
//! declared type), then the payload decoded by the one generic decoder.

use super::element::decode_storage;
use super::payload::select;
use crate::error::Error;
use crate::proto::TensorProto;
use vocab::{DataType, Storage, Tensor};

/// Largest element count the reader accepts; real test tensors are tiny, so anything larger is
/// a corrupt header, refused before any allocation.
pub const MAX_ELEMENTS: usize = 1 << 31;

/// Decodes `tp` as a tensor of the declared element type (the file's own `data_type` when
/// `declared` is `None`). The error names the tensor but no file; callers add the path.
pub fn decode_tensor(tp: &TensorProto, declared: Option<DataType>) -> Result<Tensor, Error> {
    decode_tensor_in(tp, tp.raw_data.as_deref(), declared, None)
}

/// [`decode_tensor`] with `raw_data` given apart from the message (a slice of the file it was
/// read from, never copied) and the elements decoded into `spare`'s memory when it is storage
/// of the tensor's type.
pub(crate) fn decode_tensor_in(
    tp: &TensorProto,
    raw: Option<&[u8]>,
    declared: Option<DataType>,
    spare: Option<Storage>,
) -> Result<Tensor, Error> {
    let label = tensor_label(tp);
    let context = |message: String| Error::msg(format!("{label}: {message}"));
    check_location(tp).map_err(context)?;
    let dtype =
        element_type(tp.data_type, declared).map_err(|e| context(e.message().to_string()))?;
    let shape = shape_of(&tp.dims).map_err(context)?;
    let count = shape.iter().product();
    let context =
        |message: String| Error::msg(format!("{label} ({dtype}, dims {:?}): {message}", tp.dims));
    let payload = select(tp, raw, dtype, count).map_err(context)?;
    let storage = decode_storage(&payload, dtype, count, spare).map_err(context)?;
    Tensor::new(shape, storage).map_err(|e| context(e.to_string()))
}

/// How error messages name the tensor: by its name in the file, if it has one.
fn tensor_label(tp: &TensorProto) -> String {
    if tp.name.is_empty() {
        "unnamed tensor".to_string()
    } else {
        format!("tensor '{}'", tp.name)
    }
}

/// Rejects what the reader does not support: segments and data held in another file.
fn check_location(tp: &TensorProto) -> Result<(), String> {
    if let Some(seg) = &tp.segment {
        return Err(format!(
            "is a segment (begin {}, end {}) of a larger tensor, which is not supported",
            seg.begin, seg.end
        ));
    }
    if tp.data_location == 1 || !tp.external_data.is_empty() {
        let location = tp.external_data.iter().find(|e| e.key == "location");
        return Err(match location {
            Some(entry) => format!(
                "uses external data (location '{}'), which is not supported",
                entry.value
            ),
            None => "uses external data (no location key), which is not supported".to_string(),
        });
    }
    if tp.data_location != 0 {
        return Err(format!("has unknown data_location {}", tp.data_location));
    }
    Ok(())
}

/// The element type to decode with: the declared one, checked against the file's `data_type`.
/// The only mismatch allowed is UINT16 in the file for a declared BFLOAT16, because onnx
/// 1.8.1 to 1.18.0 wrote bfloat16 tensors that way; the bits are the same width. The error
/// names no tensor and no file; callers add them.
pub fn element_type(code: i32, declared: Option<DataType>) -> Result<DataType, Error> {
    let file = DataType::from_code(code).ok_or_else(|| match code {
        0 => Error::msg("data_type is 0 (UNDEFINED)"),
        _ => Error::msg(format!("unknown data_type {code}")),
    })?;
    match declared {
        None => Ok(file),
        Some(d) if d == file => Ok(d),
        Some(DataType::Bfloat16) if file == DataType::Uint16 => Ok(DataType::Bfloat16),
        Some(d) => Err(Error::msg(format!(
            "data_type is {file} but the graph declares {d}; only UINT16 data for a declared \
             BFLOAT16 is accepted"
        ))),
    }
}

/// The dims as a shape, refusing negative dims and dims whose product (zeros left out, so the
/// answer does not depend on their order) overflows or exceeds [`MAX_ELEMENTS`].
fn shape_of(dims: &[i64]) -> Result<Vec<usize>, String> {
    let shape = dims
        .iter()
        .map(|&d| {
            usize::try_from(d).map_err(|_| match d {
                d if d < 0 => format!("dims {dims:?} contain negative {d}"),
                _ => format!("dims {dims:?} contain {d}, too large for this machine"),
            })
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let nonzero = shape
        .iter()
        .filter(|&&d| d != 0)
        .try_fold(1usize, |acc, &d| acc.checked_mul(d));
    match nonzero {
        Some(n) if n <= MAX_ELEMENTS => Ok(shape),
        _ => Err(format!(
            "dims {dims:?} give more than {MAX_ELEMENTS} elements (2^31), refused as corrupt"
        )),
    }
}

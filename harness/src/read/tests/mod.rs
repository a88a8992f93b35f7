//! Tests of the reader: TensorProto decoding, whole cases, refused headers, spec vectors and
//! mangled files.

mod bad_tensor;
mod case;
mod differing;
mod float6;
#[cfg(feature = "native")]
mod mangle;
mod spec_vector;
mod tensor;

use super::decode_tensor;
use crate::proto::TensorProto;
use prost::Message;
use vocab::{DataType, Tensor};

/// A TensorProto header with no payload.
fn header(dtype: DataType, dims: &[i64]) -> TensorProto {
    TensorProto {
        dims: dims.to_vec(),
        data_type: dtype.code(),
        name: "t".into(),
        ..Default::default()
    }
}

/// Encodes and decodes on the wire first, so the prost path (packed fields, 10-byte negative
/// varints) is exercised too.
fn decode(tp: &TensorProto, declared: Option<DataType>) -> Result<Tensor, String> {
    let wire = TensorProto::decode(tp.encode_to_vec().as_slice()).map_err(|e| e.to_string())?;
    decode_tensor(&wire, declared).map_err(|e| e.to_string())
}

/// The reader's message for `tp`, failing if it decodes.
fn error_of(tp: &TensorProto, declared: Option<DataType>) -> String {
    match decode(tp, declared) {
        Ok(t) => panic!("expected an error, decoded {t:?}"),
        Err(e) => e,
    }
}

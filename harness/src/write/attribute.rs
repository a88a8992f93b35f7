//! Attributes as AttributeProtos, as `helper.make_attribute` writes them: `name`, the one
//! value field (written even when 0 or empty: `axis=0` is `18 00`), then `type`. The
//! AttributeProto.type codes come from [`TYPES`], the one table the reader uses too.

use super::{tensor, Encoding};
use crate::proto::AttributeProto;
use vocab::{AttrValue, Attribute};

/// AttributeProto.AttributeType: (code, name), as in `onnx.proto`.
pub const TYPES: &[(i32, &str)] = &[
    (UNDEFINED, "UNDEFINED"),
    (FLOAT, "FLOAT"),
    (INT, "INT"),
    (STRING, "STRING"),
    (TENSOR, "TENSOR"),
    (5, "GRAPH"),
    (FLOATS, "FLOATS"),
    (INTS, "INTS"),
    (STRINGS, "STRINGS"),
    (9, "TENSORS"),
    (10, "GRAPHS"),
    (11, "SPARSE_TENSOR"),
    (12, "SPARSE_TENSORS"),
    (13, "TYPE_PROTO"),
    (14, "TYPE_PROTOS"),
];

/// UNDEFINED: old writers leave the type out; the field that is set decides.
pub const UNDEFINED: i32 = 0;
/// FLOAT, in `f`.
pub const FLOAT: i32 = 1;
/// INT, in `i`.
pub const INT: i32 = 2;
/// STRING, in `s`.
pub const STRING: i32 = 3;
/// TENSOR, in `t`.
pub const TENSOR: i32 = 4;
/// FLOATS, in `floats`.
pub const FLOATS: i32 = 6;
/// INTS, in `ints`.
pub const INTS: i32 = 7;
/// STRINGS, in `strings`.
pub const STRINGS: i32 = 8;

/// The AttributeProto.type code of `value`, looked up in [`TYPES`] by its type name (an
/// [`AttrValue::Other`] carries its code).
pub fn type_code(value: &AttrValue) -> i32 {
    if let AttrValue::Other(code) = value {
        return *code;
    }
    let name = value.type_name();
    TYPES
        .iter()
        .find(|(_, n)| *n == name)
        .map_or(UNDEFINED, |(c, _)| *c)
}

/// `a` as onnx writes it.
pub fn proto(a: &Attribute) -> AttributeProto {
    proto_in(a, Encoding::Onnx)
}

/// `a` in `encoding`: [`Encoding::ZeroOmitted`] leaves out a scalar value that is 0 or
/// empty (its `type` stays, so it still reads as that value); a tensor value is written in
/// `encoding`.
pub fn proto_in(a: &Attribute, encoding: Encoding) -> AttributeProto {
    let omit = encoding == Encoding::ZeroOmitted;
    let mut p = AttributeProto {
        name: a.name.clone(),
        r#type: type_code(&a.value),
        ..Default::default()
    };
    match &a.value {
        AttrValue::Float(f) => p.f = (!omit || f.to_bits() != 0).then_some(*f),
        AttrValue::Int(i) => p.i = (!omit || *i != 0).then_some(*i),
        AttrValue::String(s) => p.s = (!omit || !s.is_empty()).then(|| s.clone()),
        AttrValue::Floats(v) => p.floats = v.clone(),
        AttrValue::Ints(v) => p.ints = v.clone(),
        AttrValue::Strings(v) => p.strings = v.clone(),
        AttrValue::Tensor(t) => p.t = Some(tensor::proto(&a.name, t, encoding)),
        AttrValue::Other(_) => {}
    }
    p
}

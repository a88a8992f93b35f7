//! Attributes as AttributeProtos, as `helper.make_attribute` writes them: `name`, the one
//! value field (written even when 0 or empty: `axis=0` is `18 00`), then `type`. The
//! AttributeProto.type codes come from [`TYPES`], the one table the reader uses too.

use super::{tensor, Encoding};
use crate::proto::AttributeProto;
use vocab::{AttrValue, Attribute};

// The type codes live with the other codes the reader shares (`crate::codes`).
pub use crate::codes::{FLOAT, FLOATS, INT, INTS, STRING, STRINGS, TENSOR, TYPES, UNDEFINED};

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

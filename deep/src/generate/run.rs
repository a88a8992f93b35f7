//! The implementation as the generator's oracle: every expected value, and the decoding of
//! codes into values that the value sets filter on, come from `onnx_conformance::ops::run`.

use harness::read::{tensor_codes, tensor_from_codes};
use onnx_conformance::ops;
use vocab::{AttrValue, Attribute, DataType, OpKind, OpVersion, Storage, Tensor};

/// The newest Cast, which decodes every type the table has.
fn newest_cast() -> OpVersion {
    vocab::version::versions_of(OpKind::Cast)
        .last()
        .map(|s| s.version())
        .expect("the table has Cast")
}

/// An INT attribute.
pub(crate) fn int_attr(name: &str, value: i64) -> Attribute {
    Attribute {
        name: name.into(),
        value: AttrValue::Int(value),
    }
}

/// The value of each code of `dtype` (a floating type or E8M0), exactly, as f64.
pub(crate) fn decode(dtype: DataType, codes: &[u128]) -> Vec<f64> {
    let input = tensor_from_codes(dtype, vec![codes.len()], codes).expect("codes of a type");
    let out = cast(
        newest_cast(),
        &[int_attr("to", DataType::Double.code().into())],
        &input,
    );
    out.as_slice::<f64>().expect("DOUBLE output").to_vec()
}

/// The codes of `values` rounded to nearest into `dtype` (f32, f16 or bf16), by our Cast.
pub(crate) fn encode_nearest(dtype: DataType, values: &[f64]) -> Vec<u128> {
    let input = Tensor::from_vec(vec![values.len()], values.to_vec()).expect("a vector");
    let out = cast(
        newest_cast(),
        &[int_attr("to", dtype.code().into())],
        &input,
    );
    tensor_codes(&out).expect("a numeric type")
}

/// The codes of `codes` of `from` cast to `to` by the newest Cast (its default attributes).
pub(crate) fn cast_codes(from: DataType, to: DataType, codes: &[u128]) -> Vec<u128> {
    let input = tensor_from_codes(from, vec![codes.len()], codes).expect("codes of a type");
    let out = cast(newest_cast(), &[int_attr("to", to.code().into())], &input);
    tensor_codes(&out).expect("a numeric type")
}

/// Our text of each element of `input` (Cast to STRING).
pub(crate) fn text(input: &Tensor) -> Vec<String> {
    let out = cast(
        newest_cast(),
        &[int_attr("to", DataType::String.code().into())],
        input,
    );
    match out.storage() {
        Storage::String(v) => v.clone(),
        _ => unreachable!("Cast to STRING gives strings"),
    }
}

fn cast(version: OpVersion, attrs: &[Attribute], input: &Tensor) -> Tensor {
    let mut out = ops::run(version, attrs, &[input]).expect("Cast of an allowed type");
    out.remove(0)
}

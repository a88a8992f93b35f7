//! The own cases: what each one runs and the outputs the spec's rules give for it.

use half::{bf16, f16};
use harness::expected_error::ExpectedError;
use harness::write::Encoding;
use vocab::{AttrValue, Attribute, DataType, Element, Tensor};

/// One case: a single node, its inputs and the expected outputs.
pub(super) struct Spec {
    pub(super) name: String,
    pub(super) opset: i64,
    /// The model's IR version: 3 (the first with opset imports) unless the case needs a type
    /// added later (the float6 types came with IR 14).
    pub(super) ir_version: i64,
    pub(super) op: &'static str,
    pub(super) attrs: Vec<Attribute>,
    pub(super) inputs: Vec<Tensor>,
    pub(super) outputs: Vec<Tensor>,
    /// How the inputs and the outputs are written: as onnx writes them, or in the typed fields.
    pub(super) encodings: [Encoding; 2],
    /// For a case that must be refused: the bytes that replace `input_0.pb`, if any, and what
    /// the refusal must say.
    pub(super) bad: Option<(Option<Vec<u8>>, ExpectedError)>,
}

impl Spec {
    /// A case written as onnx writes it, at IR version 3.
    pub(super) fn new(
        name: impl Into<String>,
        opset: i64,
        op: &'static str,
        attrs: Vec<Attribute>,
        inputs: Vec<Tensor>,
        outputs: Vec<Tensor>,
    ) -> Spec {
        Spec {
            name: name.into(),
            opset,
            ir_version: 3,
            op,
            attrs,
            inputs,
            outputs,
            encodings: [Encoding::Onnx; 2],
            bad: None,
        }
    }
}

/// A tensor of a case. The specs are written here, so a count that does not fit the shape is
/// a bug of this file, found by `cargo xtask own-cases` and its tests.
fn t<V: Element>(shape: &[usize], values: Vec<V>) -> Tensor {
    Tensor::from_vec(shape.to_vec(), values).expect("an own case's values fill its shape")
}

/// The 2x4 tensor every Cast case converts.
fn grid<V: Element>(values: Vec<V>) -> Tensor {
    t(&[2, 4], values)
}

pub(super) fn attr_int(name: &str, i: i64) -> Attribute {
    Attribute {
        name: name.into(),
        value: AttrValue::Int(i),
    }
}

fn attr_str(name: &str, s: &str) -> Attribute {
    Attribute {
        name: name.into(),
        value: AttrValue::String(s.as_bytes().to_vec()),
    }
}

/// Applies `f` to every element, keeping the shape: the rule under test, spelled plainly.
fn map<A: Copy, B>(v: &[A], f: impl Fn(A) -> B) -> Vec<B> {
    v.iter().map(|&x| f(x)).collect()
}

/// Concatenation by the definition: output element at multi-index `idx` comes from the input
/// whose range along `axis` contains `idx[axis]`. Index arithmetic, not block copies.
fn concat_reference<V: Clone>(inputs: &[(&[usize], &[V])], axis: usize) -> (Vec<usize>, Vec<V>) {
    let mut shape = inputs[0].0.to_vec();
    shape[axis] = inputs.iter().map(|(s, _)| s[axis]).sum();
    let total: usize = shape.iter().product();
    let mut out = Vec::with_capacity(total);
    for flat in 0..total {
        let mut idx = vec![0; shape.len()];
        let mut rest = flat;
        for d in (0..shape.len()).rev() {
            idx[d] = rest % shape[d];
            rest /= shape[d];
        }
        let mut along = idx[axis];
        for (s, data) in inputs {
            if along < s[axis] {
                let mut src = idx.clone();
                src[axis] = along;
                let off = src
                    .iter()
                    .zip(s.iter())
                    .fold(0, |acc, (&i, &n)| acc * n + i);
                out.push(data[off].clone());
                break;
            }
            along -= s[axis];
        }
    }
    (shape, out)
}

pub(super) fn cast_specs() -> Vec<Spec> {
    let floats = vec![0.0f32, 1.5, -1.5, 2.9, -2.9, 1000.25, -0.0, 7.99];
    // Out-of-range float -> int is undefined by the spec, so these stay within UINT8.
    let unsigned_floats = vec![0.0f32, 1.5, 254.9, 2.9, 255.5, 100.25, 0.0, 7.99];
    let i16s = vec![200i16, -200, 127, 128, -129, 0, i16::MAX, i16::MIN];
    let i32s = vec![0i32, 1, -1, 7, 16_777_217, -16_777_217, i32::MAX, i32::MIN];
    let i64s = vec![0i64, 65_535, 65_536, -1, 70_000, i64::MIN, i64::MAX, 123];
    let u64s = vec![
        0u64,
        1,
        u64::MAX,
        1 << 63,
        (1 << 24) + 1,
        9_007_199_254_740_993,
        42,
        7,
    ];
    let doubles = vec![
        0.1f64,
        -0.1,
        1e39,
        -1e39,
        3.4028235e38,
        1e-46,
        0.5,
        16_777_217.0,
    ];
    let bools = vec![true, false, true, true, false, false, true, false];
    let cast = |name: &str, opset, to: Attribute, input: Tensor, output: Tensor| {
        Spec::new(name, opset, "Cast", vec![to], vec![input], vec![output])
    };
    vec![
        // Cast-1: `to` is the type's name as a STRING; float -> int truncates toward zero.
        cast(
            "test_cast1_FLOAT_to_INT32",
            1,
            attr_str("to", "INT32"),
            grid(floats.clone()),
            grid(map(&floats, |x| x.trunc() as i32)),
        ),
        cast(
            "test_cast1_FLOAT_to_DOUBLE",
            1,
            attr_str("to", "DOUBLE"),
            grid(floats.clone()),
            grid(map(&floats, f64::from)),
        ),
        cast(
            "test_cast1_DOUBLE_to_FLOAT",
            5,
            attr_str("to", "FLOAT"),
            grid(doubles.clone()),
            grid(map(&doubles, |x| x as f32)),
        ),
        cast(
            "test_cast1_FLOAT_to_FLOAT16",
            1,
            attr_str("to", "FLOAT16"),
            grid(floats.clone()),
            grid(map(&floats, f16::from_f32)),
        ),
        // int -> int keeps the low bits (the Cast-13 text's own example: 200 i16 -> -56 i8).
        cast(
            "test_cast1_INT16_to_INT8",
            1,
            attr_str("to", "INT8"),
            grid(i16s.clone()),
            grid(map(&i16s, |x| x as i8)),
        ),
        cast(
            "test_cast1_INT32_to_BOOL",
            1,
            attr_str("to", "BOOL"),
            grid(i32s.clone()),
            grid(map(&i32s, |x| x != 0)),
        ),
        cast(
            "test_cast1_BOOL_to_FLOAT",
            1,
            attr_str("to", "FLOAT"),
            grid(bools.clone()),
            grid(map(&bools, |b| if b { 1.0f32 } else { 0.0 })),
        ),
        cast(
            "test_cast6_INT64_to_UINT16",
            6,
            attr_int("to", DataType::Uint16.code().into()),
            grid(i64s.clone()),
            grid(map(&i64s, |x| x as u16)),
        ),
        // int -> float rounds once, to nearest even (16777217 is a tie in f32).
        cast(
            "test_cast13_INT32_to_FLOAT",
            13,
            attr_int("to", DataType::Float.code().into()),
            grid(i32s.clone()),
            grid(map(&i32s, |x| x as f32)),
        ),
        cast(
            "test_cast13_UINT64_to_FLOAT",
            13,
            attr_int("to", DataType::Float.code().into()),
            grid(u64s.clone()),
            grid(map(&u64s, |x| x as f32)),
        ),
        cast(
            "test_cast13_UINT64_to_DOUBLE",
            13,
            attr_int("to", DataType::Double.code().into()),
            grid(u64s.clone()),
            grid(map(&u64s, |x| x as f64)),
        ),
        cast(
            "test_cast13_FLOAT_to_UINT8",
            13,
            attr_int("to", DataType::Uint8.code().into()),
            grid(unsigned_floats.clone()),
            grid(map(&unsigned_floats, |x| x.trunc() as u8)),
        ),
        cast(
            "test_cast13_BOOL_to_INT64",
            13,
            attr_int("to", DataType::Int64.code().into()),
            grid(bools.clone()),
            grid(map(&bools, i64::from)),
        ),
    ]
}

fn concat_spec<V: Element>(
    name: &'static str,
    opset: i64,
    axis: Option<i64>,
    inputs: &[(&[usize], Vec<V>)],
) -> Spec {
    let rank = inputs[0].0.len() as i64;
    // Concat-1 defaults to axis 1; negative axes count from the end (Concat-11 and later).
    let a = axis.unwrap_or(1);
    let a = if a < 0 { a + rank } else { a } as usize;
    let views: Vec<(&[usize], &[V])> = inputs.iter().map(|(s, v)| (*s, v.as_slice())).collect();
    let (shape, out) = concat_reference(&views, a);
    Spec::new(
        name,
        opset,
        "Concat",
        axis.map(|a| attr_int("axis", a)).into_iter().collect(),
        inputs.iter().map(|(s, v)| t(s, v.clone())).collect(),
        vec![t(&shape, out)],
    )
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|s| s.to_string()).collect()
}

pub(super) fn concat_specs() -> Vec<Spec> {
    let f = |n: usize, start: f32| (0..n).map(|i| start + i as f32).collect::<Vec<_>>();
    let h = |n: usize| {
        (0..n)
            .map(|i| f16::from_f32(i as f32 * 0.5))
            .collect::<Vec<_>>()
    };
    vec![
        concat_spec(
            "test_concat1_default_axis_FLOAT",
            1,
            None,
            &[(&[2, 2], f(4, 1.0)), (&[2, 3], f(6, 10.0))],
        ),
        concat_spec(
            "test_concat1_axis_0_DOUBLE",
            1,
            Some(0),
            &[
                (&[1, 3], vec![1.0f64, 2.0, 3.0]),
                (&[2, 3], vec![-1.0, -2.0, -3.0, 0.25, 0.5, 0.75]),
            ],
        ),
        concat_spec(
            "test_concat1_three_inputs_FLOAT16",
            3,
            None,
            &[(&[2, 1, 2], h(4)), (&[2, 2, 2], h(8)), (&[2, 3, 2], h(12))],
        ),
        concat_spec(
            "test_concat4_axis_0_STRING",
            4,
            Some(0),
            &[
                (&[2], strings(&["a", "bc"])),
                (&[3], strings(&["", "déf", "g h"])),
            ],
        ),
        concat_spec(
            "test_concat11_negative_axis_BOOL",
            11,
            Some(-1),
            &[
                (&[2, 1], vec![true, false]),
                (&[2, 2], vec![false, true, true, false]),
            ],
        ),
        concat_spec(
            "test_concat11_empty_input_INT64",
            11,
            Some(0),
            &[
                (&[0, 3], Vec::<i64>::new()),
                (&[2, 3], vec![1, -2, 3, i64::MIN, 5, i64::MAX]),
            ],
        ),
        concat_spec(
            "test_concat13_axis_1_BFLOAT16",
            13,
            Some(1),
            &[
                (
                    &[1, 2],
                    vec![bf16::from_bits(0x3F80), bf16::from_bits(0xC000)],
                ),
                (&[1, 1], vec![bf16::from_bits(0x7FC0)]),
            ],
        ),
        concat_spec(
            "test_concat13_single_input_UINT8",
            13,
            Some(0),
            &[(&[3], vec![1u8, 2, 255])],
        ),
    ]
}

#[cfg(test)]
mod tests;

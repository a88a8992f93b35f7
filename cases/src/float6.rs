//! The float6 own cases (Cast-28, docs/semantics.md §3.12 and §5.3): every pair with
//! FLOAT6E2M3 or FLOAT6E3M2 on either side, in both directions, with every other type Cast-28
//! allows; the storage forms (packed `raw_data` ending in padding, `int32_data`); and the bad
//! inputs the reader must refuse. Expected values come from the value tables and the
//! search-in-a-table rounding of [`tables`], never from the kernels.

mod bad;
mod sources;
mod tables;

use super::specs::{attr_int, Spec};
use half::{bf16, f16};
use harness::read::tensor_from_codes;
use harness::write::Encoding;
use sources::{source, TEXTS};
use tables::{Layout, Special};
use vocab::{DataType, OpVersion, Tensor, TypeKind};

pub(super) use bad::bad_specs;

/// The float6 types.
const FLOAT6: [DataType; 2] = [DataType::Float6E2M3, DataType::Float6E3M2];

/// The values of a float6 type by magnitude code.
fn table(f6: DataType) -> Vec<f64> {
    match f6 {
        DataType::Float6E2M3 => tables::e2m3(),
        _ => tables::e3m2(),
    }
}

/// The value of a float6 code, from its table, and whether its sign is set.
fn decode(f6: DataType, code: u128) -> (f64, bool) {
    let v = table(f6)[(code & 0x1F) as usize];
    let negative = code & 0x20 != 0;
    (if negative { -v } else { v }, negative)
}

/// The layout of the other small floats (docs/semantics.md §3.1).
fn layout(t: DataType) -> Option<Layout> {
    let l = |exp, man, bias, special| {
        Some(Layout {
            exp,
            man,
            bias,
            special,
        })
    };
    match t {
        DataType::Float8E4M3FN => l(4, 3, 7, Special::AllOnes),
        DataType::Float8E4M3FNUZ => l(4, 3, 8, Special::Fnuz),
        DataType::Float8E5M2 => l(5, 2, 15, Special::Ieee),
        DataType::Float8E5M2FNUZ => l(5, 2, 16, Special::Fnuz),
        DataType::Float4E2M1 => l(2, 1, 1, Special::None),
        _ => None,
    }
}

/// The types Cast-28 allows.
fn cast28_types() -> Vec<DataType> {
    let version = OpVersion::resolve("Cast", 28).expect("Cast-28 is in the version table");
    version.spec().types.iter().collect()
}

/// A 1-D tensor of `dtype` from codes.
fn codes(dtype: DataType, codes: &[u128]) -> Tensor {
    tensor_from_codes(dtype, vec![codes.len()], codes).expect("codes of the type")
}

fn vector<V: vocab::Element>(values: Vec<V>) -> Tensor {
    Tensor::from_vec(vec![values.len()], values).expect("a vector")
}

/// The Cast-28 case `from` -> `to` over `input`, expecting `output`.
fn cast28(name: String, to: DataType, input: Tensor, output: Tensor) -> Spec {
    let mut spec = Spec::new(
        name,
        28,
        "Cast",
        vec![attr_int("to", to.code().into())],
        vec![input],
        vec![output],
    );
    // onnx's version table: opset 28 came with IR 14, the first that has the float6 types.
    spec.ir_version = 14;
    spec
}

fn name(from: DataType, to: DataType) -> String {
    format!("test_cast28_{}_to_{}", from.name(), to.name())
}

/// Every case of a well-formed float6 pair, and the storage variants.
pub(super) fn specs() -> Vec<Spec> {
    let mut out = Vec::new();
    for f6 in FLOAT6 {
        for to in cast28_types() {
            out.push(from_float6(f6, to, &all_codes()));
        }
        for from in cast28_types().into_iter().filter(|t| !FLOAT6.contains(t)) {
            out.push(into_float6(from, f6));
        }
    }
    out.extend(storage_variants());
    out
}

/// Every code of a float6 type.
fn all_codes() -> Vec<u128> {
    (0..64).collect()
}

/// A float6 value as `to` holds it: `None` where the page leaves the result undefined
/// (docs/semantics.md §3.11) or the text is not fixed.
fn float6_into(f6: DataType, code: u128, to: DataType) -> Option<Expected> {
    let (v, negative) = decode(f6, code);
    let int = |x: f64| -> Option<Expected> {
        let (lo, hi) = range(to);
        let i = x as i128;
        ((lo..=hi).contains(&i)).then(|| Expected::Code(i as u128 & mask(to)))
    };
    match to {
        t if FLOAT6.contains(&t) => Some(Expected::Code(tables::to_float6(&table(t), v, negative))),
        DataType::Float => Some(Expected::F32(v as f32)),
        DataType::Double => Some(Expected::F64(v)),
        DataType::Float16 => Some(Expected::F16(f16::from_f64(v))),
        DataType::Bfloat16 => Some(Expected::Bf16(bf16::from_f64(v))),
        DataType::Float8E8M0 => (v > 0.0).then(|| Expected::Code(e8m0_up(v))),
        t if layout(t).is_some() => Some(Expected::Code(tables::to_layout(layout(t)?, v))),
        DataType::Bool => Some(Expected::Code(u128::from(v != 0.0))),
        DataType::String => text(f6, v).map(Expected::Text),
        // INT4, UINT4, INT2, UINT2: round half to even (§3.8); wider integers truncate (§3.10).
        t if t.bit_width() <= 4 => int(v.round_ties_even()),
        _ => int(v.trunc()),
    }
}

/// An expected element.
enum Expected {
    Code(u128),
    F32(f32),
    F64(f64),
    F16(f16),
    Bf16(bf16),
    Text(String),
}

/// The range of an integer type.
fn range(t: DataType) -> (i128, i128) {
    let w = t.bit_width();
    match t.kind() {
        TypeKind::Signed => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
        _ => (0, (1i128 << w) - 1),
    }
}

fn mask(t: DataType) -> u128 {
    (1u128 << t.bit_width()) - 1
}

/// FLOAT8E8M0 under the default `round_mode` up: the smallest power of two not below `v`.
fn e8m0_up(v: f64) -> u128 {
    let mut k = -127i32;
    while 2f64.powi(k) < v {
        k += 1;
    }
    (k + 127) as u128
}

/// The text of a float6 value into STRING, where the spec fixes it (docs/semantics.md §3.11):
/// not an integer, magnitude in [1e-3, 1e7), and the shortest decimal that reads back as the
/// same code is the value itself, so that printing in any precision gives the same text.
fn text(f6: DataType, v: f64) -> Option<String> {
    if v.fract() == 0.0 || !(1e-3..1e7).contains(&v.abs()) {
        return None;
    }
    let t = table(f6);
    let code = tables::to_float6(&t, v, v < 0.0);
    let shortest = (0..17)
        .filter_map(|digits| format!("{v:.digits$e}").parse::<f64>().ok())
        .find(|&d| tables::to_float6(&t, d, d < 0.0) == code)?;
    (shortest == v).then(|| format!("{v}"))
}

/// The case `f6` -> `to` over those of `input` whose result is defined.
fn from_float6(f6: DataType, to: DataType, input: &[u128]) -> Spec {
    let (inputs, expected): (Vec<u128>, Vec<Expected>) = input
        .iter()
        .filter_map(|&c| Some((c, float6_into(f6, c, to)?)))
        .unzip();
    cast28(name(f6, to), to, codes(f6, &inputs), output(to, expected))
}

/// The expected tensor of `to`; every element is of the variant `to` takes.
fn output(to: DataType, expected: Vec<Expected>) -> Tensor {
    macro_rules! each {
        ($variant:ident) => {
            vector(
                expected
                    .into_iter()
                    .filter_map(|e| match e {
                        Expected::$variant(x) => Some(x),
                        _ => None,
                    })
                    .collect(),
            )
        };
    }
    match to {
        DataType::Float => each!(F32),
        DataType::Double => each!(F64),
        DataType::Float16 => each!(F16),
        DataType::Bfloat16 => each!(Bf16),
        DataType::String => each!(Text),
        _ => {
            let c: Vec<u128> = expected
                .into_iter()
                .filter_map(|e| match e {
                    Expected::Code(c) => Some(c),
                    _ => None,
                })
                .collect();
            codes(to, &c)
        }
    }
}

/// The case `from` -> `f6`.
fn into_float6(from: DataType, f6: DataType) -> Spec {
    let t = table(f6);
    let (input, expected) = match source(from, &t) {
        Some(elements) => {
            let c: Vec<u128> = elements.iter().map(|e| e.0).collect();
            let e: Vec<u128> = elements
                .iter()
                .map(|&(_, v, n)| tables::to_float6(&t, v, n))
                .collect();
            (codes(from, &c), e)
        }
        None => {
            let texts: Vec<String> = TEXTS.iter().map(|s| s.to_string()).collect();
            let e = TEXTS
                .iter()
                .map(|s| {
                    let v: f64 = s.parse().expect("a number");
                    tables::to_float6(&t, v, v.is_sign_negative())
                })
                .collect();
            (vector(texts), e)
        }
    };
    cast28(name(from, f6), f6, input, codes(f6, &expected))
}

/// The storage forms: float6 inputs of 5, 6 and 7 elements (2, 4 and 6 padding bits in the
/// last byte of `raw_data`), a float6 input and a float6 output in `int32_data`, and
/// `saturate=0`, which changes nothing for a float6 target.
fn storage_variants() -> Vec<Spec> {
    let mut out = Vec::new();
    for n in [5u128, 6, 7] {
        let input: Vec<u128> = (0..n).map(|k| 0x3F - k * 9).collect();
        let mut spec = from_float6(DataType::Float6E3M2, DataType::Float, &input);
        spec.name = format!("test_cast28_FLOAT6E3M2_to_FLOAT_{n}_elements_padding");
        out.push(spec);
    }
    let mut spec = from_float6(DataType::Float6E2M3, DataType::Float, &all_codes());
    spec.name = "test_cast28_FLOAT6E2M3_to_FLOAT_int32_data".into();
    spec.encodings = [Encoding::TypedFields, Encoding::Onnx];
    out.push(spec);
    let mut spec = into_float6(DataType::Float, DataType::Float6E3M2);
    spec.name = "test_cast28_FLOAT_to_FLOAT6E3M2_int32_data".into();
    spec.encodings = [Encoding::Onnx, Encoding::TypedFields];
    out.push(spec);
    for f6 in FLOAT6 {
        let mut spec = into_float6(DataType::Float, f6);
        spec.name = format!("test_cast28_FLOAT_to_{}_saturate_0", f6.name());
        spec.attrs.push(attr_int("saturate", 0));
        out.push(spec);
    }
    out
}

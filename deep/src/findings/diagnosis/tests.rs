//! Each behaviour of the library is recognised from actual bits computed by hand (from the
//! rules of docs/semantics.md), never by the code under test.

use super::*;
use harness::case::{Graph, Model, Node, ValueInfo};

fn attr_int(name: &str, v: i64) -> Attribute {
    int_attr(name, v)
}

fn attr_str(name: &str, v: &str) -> Attribute {
    Attribute {
        name: name.into(),
        value: AttrValue::String(v.as_bytes().to_vec()),
    }
}

fn vi(name: &str, t: DataType, n: usize) -> ValueInfo {
    ValueInfo {
        name: name.into(),
        dtype: Some(t),
        shape: Some(vec![Some(n)]),
    }
}

/// A model of Cast nodes through `types` (source first) at `opset`, the last one with `attrs`.
fn model(opset: i64, types: &[DataType], attrs: &[Attribute], n: usize) -> Model {
    let mut nodes = Vec::new();
    for k in 1..types.len() {
        let mut a = vec![attr_int("to", types[k].code().into())];
        if k + 1 == types.len() {
            a.extend(attrs.iter().cloned());
        }
        nodes.push(Node {
            op_type: "Cast".into(),
            domain: String::new(),
            inputs: vec![format!("v{}", k - 1)],
            outputs: vec![if k + 1 == types.len() {
                "out".into()
            } else {
                format!("v{k}")
            }],
            attributes: a,
        });
    }
    Model {
        ir_version: 10,
        producer: String::new(),
        opset,
        graph: Graph {
            name: "g".into(),
            nodes,
            inputs: vec![vi("v0", types[0], n)],
            outputs: vec![vi("out", *types.last().unwrap(), n)],
            initializers: Vec::new(),
        },
    }
}

fn codes(t: DataType, c: &[u128]) -> Tensor {
    tensor_from_codes(t, vec![c.len()], c).unwrap()
}

/// The diagnosis of every element where `actual` differs from `expected`.
fn check(m: &Model, input: Tensor, expected: Tensor, actual: Tensor) -> Vec<Option<Behaviour>> {
    let fed = [input.clone()];
    let s = Subject {
        model: m,
        fed: &fed,
        input: Some(&input),
        expected: &expected,
        actual: &actual,
        encoding: Encoding::Onnx,
    };
    let e = tensor_codes(&expected).unwrap();
    let a = tensor_codes(&actual).unwrap();
    let differ: Vec<usize> = (0..e.len()).filter(|&i| e[i] != a[i]).collect();
    assert!(!differ.is_empty());
    diagnose(&s, &differ)
}

use DataType as T;

#[test]
fn double_rounding_through_float() {
    // DOUBLE 1 + 2^-11 + 2^-40 -> FLOAT16: once, 0x3C01 (above the tie); through FLOAT the
    // value becomes the tie 1 + 2^-11, which goes to even, 0x3C00.
    let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    let input = Tensor::from_vec(vec![1], vec![x]).unwrap();
    let m = model(25, &[T::Double, T::Float16], &[], 1);
    let got = check(
        &m,
        input,
        codes(T::Float16, &[0x3C01]),
        codes(T::Float16, &[0x3C00]),
    );
    assert_eq!(got, [Some(Behaviour::RoundedTwiceThroughFloat)]);
}

#[test]
fn half_away_from_zero_and_truncation_into_int4() {
    // 0.5 -> 0 and 2.5 -> 2 to even; away from zero 1 and 3. 1.75 -> 2; truncated 1.
    let input = Tensor::from_vec(vec![3], vec![0.5f32, 2.5, 1.75]).unwrap();
    let m = model(21, &[T::Float, T::Int4], &[], 3);
    let expected = codes(T::Int4, &[0, 2, 2]);
    let got = check(
        &m,
        input.clone(),
        expected.clone(),
        codes(T::Int4, &[1, 3, 2]),
    );
    assert_eq!(got, [Some(Behaviour::HalfAwayFromZero); 2]);
    let got = check(&m, input, expected, codes(T::Int4, &[0, 2, 1]));
    assert_eq!(got, [Some(Behaviour::Truncation)]);
}

#[test]
fn truncation_and_ties_into_a_float_target() {
    // FLOAT 1 + 2^-11 + 2^-20 -> FLOAT16 rounds up to 0x3C01; truncated, 0x3C00. The tie
    // 1 + 3·2^-11 goes to even 0x3C02; away from zero it would be 0x3C02 too, so use the tie
    // 1 + 2^-11, even 0x3C00, away 0x3C01.
    let input = Tensor::from_vec(
        vec![2],
        vec![
            1.0f32 + 2f32.powi(-11) + 2f32.powi(-20),
            1.0 + 2f32.powi(-11),
        ],
    )
    .unwrap();
    let m = model(25, &[T::Float, T::Float16], &[], 2);
    let expected = codes(T::Float16, &[0x3C01, 0x3C00]);
    let got = check(
        &m,
        input.clone(),
        expected.clone(),
        codes(T::Float16, &[0x3C00, 0x3C00]),
    );
    assert_eq!(got, [Some(Behaviour::Truncation)]);
    let got = check(&m, input, expected, codes(T::Float16, &[0x3C01, 0x3C01]));
    assert_eq!(got, [Some(Behaviour::HalfAwayFromZero)]);
}

#[test]
fn attributes_ignored_or_not_applied() {
    // E8M0 of 3.0: down 2 (0x80), up 4 (0x81).
    let input = Tensor::from_vec(vec![1], vec![3.0f32]).unwrap();
    let m = model(
        24,
        &[T::Float, T::Float8E8M0],
        &[attr_str("round_mode", "down")],
        1,
    );
    let got = check(
        &m,
        input,
        codes(T::Float8E8M0, &[0x80]),
        codes(T::Float8E8M0, &[0x81]),
    );
    assert_eq!(got, [Some(Behaviour::RoundModeIgnored)]);
    // 480 into E4M3FN: NaN 0x7F without saturation, 448 (0x7E) with it.
    let input = Tensor::from_vec(vec![1], vec![480.0f32]).unwrap();
    let m = model(
        19,
        &[T::Float, T::Float8E4M3FN],
        &[attr_int("saturate", 0)],
        1,
    );
    let got = check(
        &m,
        input.clone(),
        codes(T::Float8E4M3FN, &[0x7F]),
        codes(T::Float8E4M3FN, &[0x7E]),
    );
    assert_eq!(got, [Some(Behaviour::SaturateIgnored)]);
    let m = model(19, &[T::Float, T::Float8E4M3FN], &[], 1);
    let got = check(
        &m,
        input,
        codes(T::Float8E4M3FN, &[0x7E]),
        codes(T::Float8E4M3FN, &[0x7F]),
    );
    assert_eq!(got, [Some(Behaviour::SaturationIgnored)]);
}

#[test]
fn the_other_side_of_the_version_24_switch() {
    // 0x3EF5EEB0 -> BFLOAT16: 0x3EF5 truncated (<= 23), 0x3EF6 rounded (>= 24), §3.2.
    let input = codes(T::Float, &[0x3EF5_EEB0]);
    let m = model(24, &[T::Float, T::Bfloat16], &[], 1);
    let got = check(
        &m,
        input.clone(),
        codes(T::Bfloat16, &[0x3EF6]),
        codes(T::Bfloat16, &[0x3EF5]),
    );
    assert_eq!(got, [Some(Behaviour::EarlierVersionRules)]);
    let m = model(23, &[T::Float, T::Bfloat16], &[], 1);
    let got = check(
        &m,
        input,
        codes(T::Bfloat16, &[0x3EF5]),
        codes(T::Bfloat16, &[0x3EF6]),
    );
    assert_eq!(got, [Some(Behaviour::LaterVersionRules)]);
}

#[test]
fn a_folded_chain_and_a_dropped_nan_sign() {
    // FLOAT 70000 -> FLOAT16 is +Inf, back to FLOAT +Inf; folded, 70000 stays.
    let input = Tensor::from_vec(vec![1], vec![70000.0f32]).unwrap();
    let m = model(13, &[T::Float, T::Float16, T::Float], &[], 1);
    let got = check(
        &m,
        input,
        codes(T::Float, &[0x7F80_0000]),
        codes(T::Float, &[0x4788_B800]),
    );
    assert_eq!(got, [Some(Behaviour::ChainMiddleSkipped)]);
    // -NaN -> FLOAT4E2M1 at 24 is 0x0, +NaN 0x8 (§3.2).
    let input = codes(T::Float, &[0xFFC0_0000]);
    let m = model(24, &[T::Float, T::Float4E2M1], &[], 1);
    let got = check(
        &m,
        input,
        codes(T::Float4E2M1, &[0x0]),
        codes(T::Float4E2M1, &[0x8]),
    );
    assert_eq!(got, [Some(Behaviour::NanSignDropped)]);
}

#[test]
fn bits_no_behaviour_gives_stay_undiagnosed() {
    let input = Tensor::from_vec(vec![1], vec![1.5f32]).unwrap();
    let m = model(25, &[T::Float, T::Float16], &[], 1);
    let got = check(
        &m,
        input,
        codes(T::Float16, &[0x3E00]),
        codes(T::Float16, &[0x1234]),
    );
    assert_eq!(got, [None]);
}

#[test]
fn bool_from_bits_and_overflow_to_nan() {
    // E4M3FN -0 (0x80) is false; testing the bits gives true.
    let input = codes(T::Float8E4M3FN, &[0x80, 0x38]);
    let m = model(19, &[T::Float8E4M3FN, T::Bool], &[], 2);
    let got = check(&m, input, codes(T::Bool, &[0, 1]), codes(T::Bool, &[1, 1]));
    assert_eq!(got, [Some(Behaviour::BoolFromBits)]);
    // FLOAT16 61440 into E5M2 without saturation rounds up past the largest value: +Inf
    // (0x7C); NaN (0x7F) instead.
    let input = codes(T::Float16, &[0x7B80]);
    let m = model(
        19,
        &[T::Float16, T::Float8E5M2],
        &[attr_int("saturate", 0)],
        1,
    );
    let got = check(
        &m,
        input,
        codes(T::Float8E5M2, &[0x7C]),
        codes(T::Float8E5M2, &[0x7F]),
    );
    assert_eq!(got, [Some(Behaviour::OverflowToNan)]);
}

#[test]
fn the_behaviour_that_explains_most_of_a_case_wins() {
    // Cast-24 DOUBLE -> BFLOAT16. 1 + 2^-8 + 2^-30 rounds once to 0x3F81; through FLOAT it is
    // the tie 1 + 2^-8, which goes to even, 0x3F80, and truncation gives 0x3F80 as well.
    // 1 + 2^-7 + 2^-8 - 2^-30 rounds once to 0x3F81; through FLOAT it is the tie
    // 1 + 2^-7 + 2^-8, whose even neighbour is 0x3F82, while truncation keeps 0x3F81.
    let input = Tensor::from_vec(
        vec![2],
        vec![
            1.0 + 2f64.powi(-8) + 2f64.powi(-30),
            1.0 + 2f64.powi(-7) + 2f64.powi(-8) - 2f64.powi(-30),
        ],
    )
    .unwrap();
    let m = model(24, &[T::Double, T::Bfloat16], &[], 2);
    let expected = codes(T::Bfloat16, &[0x3F81, 0x3F81]);
    // Rounding twice explains both elements; the rules before 24 only the first.
    let got = check(
        &m,
        input.clone(),
        expected.clone(),
        codes(T::Bfloat16, &[0x3F80, 0x3F82]),
    );
    assert_eq!(got, [Some(Behaviour::RoundedTwiceThroughFloat); 2]);
    // Where both explain the same elements, the earlier in the library names them.
    let got = check(
        &m,
        input.clone(),
        expected.clone(),
        codes(T::Bfloat16, &[0x3F80, 0x3F81]),
    );
    assert_eq!(got, [Some(Behaviour::RoundedTwiceThroughFloat)]);
    // 1 + 2^-8 + 2^-9 is a FLOAT value above the tie: rounded once or twice 0x3F81, truncated
    // (the rules before 24) 0x3F80; truncation of the DOUBLE gives it too, but comes later.
    let input = Tensor::from_vec(vec![1], vec![1.0 + 2f64.powi(-8) + 2f64.powi(-9)]).unwrap();
    let m = model(24, &[T::Double, T::Bfloat16], &[], 1);
    let got = check(
        &m,
        input,
        codes(T::Bfloat16, &[0x3F81]),
        codes(T::Bfloat16, &[0x3F80]),
    );
    assert_eq!(got, [Some(Behaviour::EarlierVersionRules)]);
}

#[test]
fn subnormals_flushed_on_input_or_output() {
    // FLOAT 0x00020000 (2^-132, subnormal) -> DOUBLE is 2^-132 exactly; flushed on input, +0.
    let input = codes(T::Float, &[0x0002_0000, 0x3F80_0000]);
    let m = model(13, &[T::Float, T::Double], &[], 2);
    let expected = Tensor::from_vec(vec![2], vec![2f64.powi(-132), 1.0]).unwrap();
    let actual = Tensor::from_vec(vec![2], vec![0.0f64, 1.0]).unwrap();
    let got = check(&m, input, expected, actual);
    assert_eq!(got, [Some(Behaviour::SubnormalsFlushed)]);
    // FLOAT 2^-132 -> BFLOAT16 at 24 is the subnormal 0x0002 (2 · 2^-133); flushed on output,
    // 0x0000; and -2^-132 gives -0 (0x8000).
    let input = codes(T::Float, &[0x0002_0000, 0x8002_0000]);
    let m = model(24, &[T::Float, T::Bfloat16], &[], 2);
    let got = check(
        &m,
        input,
        codes(T::Bfloat16, &[0x0002, 0x8002]),
        codes(T::Bfloat16, &[0x0000, 0x8000]),
    );
    assert_eq!(got, [Some(Behaviour::SubnormalsFlushed); 2]);
}

/// A model of one Concat along axis 0 of `n` FLOAT16 inputs of one element each.
fn concat_model(t: DataType, n: usize) -> Model {
    let names: Vec<String> = (0..n).map(|k| format!("v{k}")).collect();
    Model {
        ir_version: 10,
        producer: String::new(),
        opset: 13,
        graph: Graph {
            name: "g".into(),
            nodes: vec![Node {
                op_type: "Concat".into(),
                domain: String::new(),
                inputs: names.clone(),
                outputs: vec!["out".into()],
                attributes: vec![attr_int("axis", 0)],
            }],
            inputs: names.iter().map(|v| vi(v, t, 1)).collect(),
            outputs: vec![vi("out", t, n)],
            initializers: Vec::new(),
        },
    }
}

/// The diagnosis of elements `differing` of a Concat model fed `fed`.
fn diagnose_concat(
    m: &Model,
    fed: &[Tensor],
    expected: &Tensor,
    actual: &Tensor,
    differing: &[usize],
) -> Vec<Option<Behaviour>> {
    let s = Subject {
        model: m,
        fed,
        input: None,
        expected,
        actual,
        encoding: Encoding::Onnx,
    };
    diagnose(&s, differing)
}

#[test]
fn concat_losing_the_sign_of_negative_zero() {
    // FLOAT16 −0 is 0x8000, +0 0x0000; 1.0 is 0x3C00 and stays.
    let m = concat_model(T::Float16, 3);
    let fed: Vec<Tensor> = [0x8000, 0x3C00, 0x8000]
        .iter()
        .map(|&c| codes(T::Float16, &[c]))
        .collect();
    let expected = codes(T::Float16, &[0x8000, 0x3C00, 0x8000]);
    let actual = codes(T::Float16, &[0x0000, 0x3C00, 0x0000]);
    assert_eq!(
        diagnose_concat(&m, &fed, &expected, &actual, &[0, 2]),
        [Some(Behaviour::ConcatNegativeZeroLost); 2]
    );
}

#[test]
fn sixty_four_bit_integers_narrowed_through_int32() {
    // DOUBLE 2^31 -> INT64 2147483648 (0x80000000); clamped into INT32 it is 2147483647
    // (0x7FFFFFFF). FLOAT 2^31 wrapped is −2^31, sign-extended 0xFFFFFFFF80000000. DOUBLE
    // −2^40 wrapped is 0; made "integer indefinite", −2^31.
    let m = model(13, &[T::Double, T::Int64], &[], 3);
    let input = Tensor::from_vec(
        vec![3],
        vec![2f64.powi(31), 2f64.powi(31), -(2f64.powi(40))],
    )
    .unwrap();
    let expected = codes(T::Int64, &[0x8000_0000, 0x8000_0000, 0xFFFF_FF00_0000_0000]);
    let actual = codes(
        T::Int64,
        &[0x7FFF_FFFF, 0xFFFF_FFFF_8000_0000, 0xFFFF_FFFF_8000_0000],
    );
    let got = check(&m, input, expected, actual);
    assert_eq!(got, [Some(Behaviour::NarrowedThroughInt32); 3]);
}

#[test]
fn nan_into_bool_as_false() {
    // FLOAT NaN (0x7FC00000) -> BOOL is true (not ±0); 2.0 -> true stays.
    let m = model(13, &[T::Float, T::Bool], &[], 2);
    let input = Tensor::from_vec(vec![2], vec![f32::NAN, 2.0]).unwrap();
    let got = check(&m, input, codes(T::Bool, &[1, 1]), codes(T::Bool, &[0, 1]));
    assert_eq!(got, [Some(Behaviour::NanToFalse)]);
}

#[test]
fn float16_bit_patterns_read_as_numbers() {
    // A FLOAT16 initializer in int32_data: the entry 0x3C00 (1.0) read as the number 15360,
    // which FLOAT16 holds exactly (0x7380: 2^13 · 1.875), cast to FLOAT 15360.0 (0x46700000).
    // 0x7C00 (+Inf) read as 31744 = 2^14 · 1.9375, 0x77C0, FLOAT 0x46F80000.
    let mut m = model(19, &[T::Float16, T::Float], &[], 2);
    let input = codes(T::Float16, &[0x3C00, 0x7C00]);
    m.graph.inputs.clear();
    m.graph.initializers.push(("v0".into(), input.clone()));
    let expected = codes(T::Float, &[0x3F80_0000, 0x7F80_0000]);
    let actual = codes(T::Float, &[0x4670_0000, 0x46F8_0000]);
    let mut s = Subject {
        model: &m,
        fed: &[],
        input: Some(&input),
        expected: &expected,
        actual: &actual,
        encoding: Encoding::TypedFields,
    };
    assert_eq!(
        diagnose(&s, &[0, 1]),
        [Some(Behaviour::TypedFieldsReadAsNumbers); 2]
    );
    // The same bits in a model written with raw_data cannot come from that reading.
    s.encoding = Encoding::Onnx;
    assert_eq!(diagnose(&s, &[0, 1]), [None, None]);
}

#[test]
fn a_sixty_four_bit_input_narrowed_through_int32_and_double_concat_through_float() {
    // INT64 3000000000 -> FLOAT is 3e9 (0x4F32D05E); clamped into INT32 first it is
    // 2147483647, whose FLOAT is 2^31 (0x4F000000).
    let m = model(13, &[T::Int64, T::Float], &[], 1);
    let input = Tensor::from_vec(vec![1], vec![3_000_000_000i64]).unwrap();
    let got = check(
        &m,
        input,
        codes(T::Float, &[0x4F32_D05E]),
        codes(T::Float, &[0x4F00_0000]),
    );
    assert_eq!(got, [Some(Behaviour::NarrowedThroughInt32)]);
    // DOUBLE 1 + 2^-52 (0x3FF0000000000001) copied by Concat as 1.0 (0x3FF0...0): held as
    // FLOAT on the way.
    let m = concat_model(T::Double, 1);
    let fed = [codes(T::Double, &[0x3FF0_0000_0000_0001])];
    let expected = codes(T::Double, &[0x3FF0_0000_0000_0001]);
    let actual = codes(T::Double, &[0x3FF0_0000_0000_0000]);
    assert_eq!(
        diagnose_concat(&m, &fed, &expected, &actual, &[0]),
        [Some(Behaviour::RoundedTwiceThroughFloat)]
    );
}

#[test]
fn nan_to_inf_and_the_range_checked_before_rounding() {
    // FLOAT -> FLOAT16: a NaN (0x7F800001) must stay NaN (0x7E00 here), given +Inf (0x7C00).
    // 65504.00390625 (0x477FE001) rounds down to 65504 (0x7BFF); checked against the range
    // first it is +Inf. 2^-14 - 2^-38 (0x387FFFFF) rounds up to the smallest normal (0x0400);
    // checked first it is +0.
    let m = model(13, &[T::Float, T::Float16], &[], 3);
    let input = codes(T::Float, &[0x7F80_0001, 0x477F_E001, 0x387F_FFFF]);
    let got = check(
        &m,
        input,
        codes(T::Float16, &[0x7E00, 0x7BFF, 0x0400]),
        codes(T::Float16, &[0x7C00, 0x7C00, 0x0000]),
    );
    assert_eq!(
        got,
        [
            Some(Behaviour::NanToInf),
            Some(Behaviour::RangeBeforeRounding),
            Some(Behaviour::RangeBeforeRounding)
        ]
    );
}

#[test]
fn concat_flushing_subnormals_to_a_signed_or_a_positive_zero() {
    // FLOAT16 subnormals 0x0001 and 0x8001 copied as +0 (0x0000) and, in another runtime, as
    // the zero of their sign (0x8000); 0x3C00 (1.0) copied as it is.
    let m = concat_model(T::Float16, 3);
    let fed: Vec<Tensor> = [0x0001, 0x8001, 0x3C00]
        .iter()
        .map(|&c| codes(T::Float16, &[c]))
        .collect();
    let expected = codes(T::Float16, &[0x0001, 0x8001, 0x3C00]);
    for flushed in [[0x0000, 0x0000, 0x3C00], [0x0000, 0x8000, 0x3C00]] {
        let actual = codes(T::Float16, &flushed);
        assert_eq!(
            diagnose_concat(&m, &fed, &expected, &actual, &[0, 1]),
            [Some(Behaviour::SubnormalsFlushed); 2]
        );
    }
}

//! Cast and CastLike rejections through `ops::run`, and the string rules (docs/semantics.md §3.9).

use super::{run_op, tensor};
use crate::dtype::DataType;
use crate::error::Error;
use crate::formats::{Complex64, F8E4M3FN, I2};
use crate::ops::{AttrValue, Attribute, OpKind};
use crate::tensor::Tensor;
use crate::testkit::spec_vectors::{FLOAT_TO_STRING, STRING_TO_FLOAT};
use half::bf16;

fn to(t: DataType) -> Vec<Attribute> {
    vec![Attribute {
        name: "to".into(),
        value: AttrValue::Int(i64::from(t.code())),
    }]
}

fn strings(values: &[&str]) -> Tensor {
    tensor(
        &[values.len()],
        values.iter().map(|s| s.to_string()).collect(),
    )
}

fn cast_ok(since: u32, target: DataType, input: &Tensor) -> Tensor {
    run_op(OpKind::Cast, since, &to(target), &[input]).expect("cast succeeds")
}

#[test]
fn rejects_input_types_the_version_does_not_allow() {
    let f8 = tensor(&[1], vec![F8E4M3FN::from_bits(0)]);
    let e = run_op(OpKind::Cast, 13, &to(DataType::Float), &[&f8]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Cast-13 does not allow FLOAT8E4M3FN as input 0 (allowed from Cast-19)"
    );
    let s = strings(&["1"]);
    let e = run_op(OpKind::Cast, 6, &to(DataType::Float), &[&s]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TypeNotAllowed {
                allowed_from: Some(9),
                ..
            }
        ),
        "{e}"
    );
    let c = tensor(&[1], vec![Complex64::default()]);
    let e = run_op(OpKind::Cast, 25, &to(DataType::Float), &[&c]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TypeNotAllowed {
                allowed_from: None,
                ..
            }
        ),
        "{e}"
    );
    let i2 = tensor(&[1], vec![I2::from_bits(1)]);
    let e = run_op(OpKind::Cast, 24, &to(DataType::Float), &[&i2]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TypeNotAllowed {
                allowed_from: Some(25),
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn castlike_rejects_types_the_version_does_not_allow() {
    let x = tensor(&[1], vec![1f32]);
    let like = tensor(&[0], Vec::<F8E4M3FN>::new());
    let e = run_op(OpKind::CastLike, 15, &[], &[&x, &like]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "CastLike-15 does not allow FLOAT8E4M3FN as input 1 (target_type) (allowed from CastLike-19)"
    );
    let bf = tensor(&[1], vec![bf16::ONE]);
    let ok = run_op(OpKind::CastLike, 15, &[], &[&bf, &x]);
    assert!(ok.is_ok(), "CastLike-15 allows BFLOAT16");
    let c = tensor(&[1], vec![Complex64::default()]);
    let e = run_op(OpKind::CastLike, 25, &[], &[&c, &x]).unwrap_err();
    assert!(matches!(e, Error::TypeNotAllowed { .. }), "{e}");
}

#[test]
fn rejects_wrong_input_counts() {
    let x = tensor(&[1], vec![1f32]);
    let e = run_op(OpKind::Cast, 13, &to(DataType::Int8), &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Cast-13 takes exactly 1 input but the node has 0"
    );
    let e = run_op(OpKind::Cast, 13, &to(DataType::Int8), &[&x, &x]).unwrap_err();
    assert!(matches!(e, Error::InputCount { found: 2, .. }), "{e}");
    let e = run_op(OpKind::CastLike, 19, &[], &[&x]).unwrap_err();
    assert!(matches!(e, Error::InputCount { found: 1, .. }), "{e}");
}

#[test]
fn rejects_unparsable_strings_naming_the_element() {
    let s = strings(&["1.5", "one", "2"]);
    let e = run_op(OpKind::Cast, 13, &to(DataType::Float), &[&s]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Cast-13 cannot parse string element 1 (\"one\") as a FLOAT number"
    );
    for bad in ["", "1.5.2", "0x10", "--1"] {
        let s = strings(&[bad]);
        let e = run_op(OpKind::Cast, 21, &to(DataType::Int32), &[&s]).unwrap_err();
        assert!(
            matches!(e, Error::ParseString { index: 0, .. }),
            "{bad:?}: {e}"
        );
    }
}

#[test]
fn strings_to_float_3_9() {
    let s = strings(&STRING_TO_FLOAT.map(|(text, _)| text));
    let out = cast_ok(13, DataType::Float, &s);
    let bits: Vec<u32> = out
        .as_slice::<f32>()
        .expect("f32")
        .iter()
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(bits, STRING_TO_FLOAT.map(|(_, bits)| bits).to_vec());
    let s = strings(&["nan", "inf", "-Inf", "1e3", " 2.5 ", "-1.25E-1"]);
    let out = cast_ok(9, DataType::Double, &s);
    let v = out.as_slice::<f64>().expect("f64");
    assert!(v[0].is_nan());
    assert_eq!(
        &v[1..],
        &[f64::INFINITY, f64::NEG_INFINITY, 1000.0, 2.5, -0.125]
    );
}

#[test]
fn strings_next_to_f32_ties_round_once() {
    // 2^-24 = 0.000000059604644775390625 exactly, so 1 + 2^-24 is the midpoint between 1
    // (0x3F800000) and 1 + 2^-23 (0x3F800001), and 1 + 3·2^-24 the midpoint between
    // 0x3F800001 and 0x3F800002. 2^128 - 2^103 is the midpoint between f32::MAX
    // (0x7F7FFFFF, 2^128 - 2^104) and 2^128, which rounds to +Inf. A string a hair off a
    // midpoint must round to the near side. Through f64 first, the hair (far below half an
    // f64 ulp) is lost, the f64 is the midpoint itself, and the tie then goes to even:
    // the wrong side in every "off" row below.
    let cases = [
        ("1.000000059604644775390625000001", 0x3F80_0001), // via f64: 0x3F800000
        ("-1.000000059604644775390625000001", 0xBF80_0001),
        ("1.000000059604644775390625", 0x3F80_0000), // the tie itself: to even
        ("1.000000059604644775390624999999", 0x3F80_0000),
        ("1.000000178813934326171874999999", 0x3F80_0001), // via f64: 0x3F800002
        ("1.000000178813934326171875", 0x3F80_0002),       // the tie: to even
        ("340282356779733661637539395458142568447.9", 0x7F7F_FFFF), // via f64: +Inf
        ("340282356779733661637539395458142568448", 0x7F80_0000), // the tie: to even (Inf)
    ];
    let s = strings(&cases.map(|(text, _)| text));
    for since in [9, 13, 25] {
        let out = cast_ok(since, DataType::Float, &s);
        let bits: Vec<u32> = out
            .as_slice::<f32>()
            .expect("f32")
            .iter()
            .map(|x| x.to_bits())
            .collect();
        assert_eq!(bits, cases.map(|(_, b)| b).to_vec(), "Cast-{since}");
    }
}

#[test]
fn strings_to_other_floats_go_through_f64_first() {
    // The documented rule for targets other than FLOAT: parse as f64, then round into the
    // target (numpy's way), even for an integer literal. N = 2^60 + 2^52 + 1 is just above the
    // BFLOAT16 midpoint 2^60 + 2^52 between 2^60 (0x5D80) and 2^60 + 2^53 (0x5D81). The f64
    // nearest N is the midpoint itself (f64 spacing there is 2^8), which Cast-24's
    // round-half-even sends to 0x5D80; rounding N once would give 0x5D81.
    let s = strings(&["1157425104234217473"]);
    for since in [24, 25] {
        let out = cast_ok(since, DataType::Bfloat16, &s);
        assert_eq!(
            out.as_slice::<bf16>().map(|v| v[0].to_bits()),
            Some(0x5D80),
            "Cast-{since}"
        );
    }
}

#[test]
fn strings_to_integers_and_bool() {
    let s = strings(&["200", "-1", "3.9", "1e2", "99999999999999999999"]);
    let out = cast_ok(13, DataType::Uint8, &s);
    // 99999999999999999999 mod 256 = 255 (it is 0x56BC75E2D630FFFFF).
    assert_eq!(out.as_slice::<u8>(), Some(&[200u8, 255, 3, 100, 255][..]));
    let s = strings(&["9007199254740993"]);
    let out = cast_ok(13, DataType::Int64, &s);
    assert_eq!(out.as_slice::<i64>(), Some(&[9_007_199_254_740_993i64][..]));
    let s = strings(&["0", "1", "True", "false", "NaN", "-0.0"]);
    let out = cast_ok(13, DataType::Bool, &s);
    assert_eq!(
        out.as_slice::<bool>(),
        Some(&[false, true, true, false, true, false][..])
    );
}

#[test]
fn float_to_string_3_9() {
    let input = tensor(
        &[4],
        FLOAT_TO_STRING.map(|(b, _)| f32::from_bits(b)).to_vec(),
    );
    let out = cast_ok(13, DataType::String, &input);
    let want = FLOAT_TO_STRING.map(|(_, text)| text);
    assert_eq!(out.as_slice::<String>().expect("strings"), want.as_slice());
    let special = tensor(&[4], vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0]);
    let out = cast_ok(13, DataType::String, &special);
    assert_eq!(
        out.as_slice::<String>().expect("strings"),
        ["NaN", "INF", "-INF", "-0"].as_slice()
    );
    // The non-finite strings parse back (string → float → string is stable).
    let again = cast_ok(13, DataType::Float, &out);
    let text = cast_ok(13, DataType::String, &again);
    assert_eq!(text, out);
}

#[test]
fn double_to_string_3_9() {
    let input = tensor(
        &[6],
        vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1e-5, 0.1],
    );
    let out = cast_ok(13, DataType::String, &input);
    assert_eq!(
        out.as_slice::<String>().expect("strings"),
        ["NaN", "INF", "-INF", "-0", "0.00001", "0.1"].as_slice()
    );
}

#[test]
fn small_floats_to_string_use_the_source_precision() {
    let input = tensor(
        &[3],
        vec![half::f16::from_f32(0.1), half::f16::MAX, half::f16::ONE],
    );
    let out = cast_ok(13, DataType::String, &input);
    assert_eq!(
        out.as_slice::<String>().expect("strings"),
        ["0.1", "65500", "1"].as_slice()
    );
    let input = tensor(&[2], vec![bf16::from_f32(0.1), bf16::from_f32(-3.0)]);
    let out = cast_ok(13, DataType::String, &input);
    assert_eq!(
        out.as_slice::<String>().expect("strings"),
        ["0.1", "-3"].as_slice()
    );
    let ints = tensor(&[2], vec![-5i64, i64::MAX]);
    let out = cast_ok(13, DataType::String, &ints);
    assert_eq!(
        out.as_slice::<String>().expect("strings"),
        ["-5", "9223372036854775807"].as_slice()
    );
}

#[test]
fn string_to_string_is_the_identity() {
    let s = strings(&["abc", "", "0.5"]);
    assert_eq!(cast_ok(9, DataType::String, &s), s);
}

/// Every code of every small float: the text is "NaN" or an infinity token, or a decimal
/// that parses and rounds back (to nearest) to the same value of the source format.
#[test]
fn small_float_text_round_trips_for_every_code() {
    use crate::formats::{CastRules, Exact, FloatFormat, Generation, RoundMode};
    use crate::formats::{F4E2M1, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0};
    use crate::ops::cast_string::small_float_text;
    const NEAREST: CastRules = CastRules {
        saturate: false,
        round_mode: RoundMode::Nearest,
        generation: Generation::From24,
    };
    fn check<T: FloatFormat + PartialEq + std::fmt::Debug>(
        name: &str,
        codes: impl Iterator<Item = T>,
    ) {
        let mut checked = 0;
        for x in codes {
            let text = small_float_text(x);
            match x.to_exact(&NEAREST) {
                Exact::Nan { .. } => assert_eq!(text, "NaN", "{name} {x:?}"),
                Exact::Inf { negative } => {
                    assert_eq!(text, if negative { "-INF" } else { "INF" }, "{name} {x:?}")
                }
                Exact::Finite { .. } => {
                    let y: f64 = text
                        .parse()
                        .unwrap_or_else(|e| panic!("{name} {x:?}: {text:?}: {e}"));
                    let back = T::from_exact(&y.to_exact(&NEAREST), &NEAREST);
                    assert_eq!(back, x, "{name} {x:?}: {text:?} does not round back");
                    checked += 1;
                }
            }
        }
        assert!(checked > 0, "{name}: no finite value checked");
    }
    check("FLOAT16", (0..=u16::MAX).map(half::f16::from_bits));
    check("BFLOAT16", (0..=u16::MAX).map(bf16::from_bits));
    check("FLOAT8E4M3FN", (0..=u8::MAX).map(F8E4M3FN::from_bits));
    check("FLOAT8E4M3FNUZ", (0..=u8::MAX).map(F8E4M3FNUZ::from_bits));
    check("FLOAT8E5M2", (0..=u8::MAX).map(F8E5M2::from_bits));
    check("FLOAT8E5M2FNUZ", (0..=u8::MAX).map(F8E5M2FNUZ::from_bits));
    check("FLOAT8E8M0", (0..=u8::MAX).map(F8E8M0::from_bits));
    check("FLOAT4E2M1", (0..16).map(F4E2M1::from_bits));
}

/// E8M0 → STRING prints the shortest decimal that reads back under `nearest` without
/// saturation (docs/semantics.md §3.7): for 2^127 that is 1.7e38, as 2e38 lies above
/// E8M0_MAX and reads back as NaN; for 2^-127, 6e-39 lies above E8M0_MIN and reads back.
#[test]
fn e8m0_text_stays_inside_the_e8m0_range() {
    use crate::formats::F8E8M0;
    let input = tensor(
        &[4],
        [0x00, 0x7F, 0x80, 0xFE].map(F8E8M0::from_bits).to_vec(),
    );
    let out = cast_ok(24, DataType::String, &input);
    let zeros = |n: usize| "0".repeat(n);
    let want = [
        format!("0.{}6", zeros(38)),
        "1".to_owned(),
        "2".to_owned(),
        format!("17{}", zeros(37)),
    ];
    assert_eq!(out, tensor(&[4], want.to_vec()));
}

//! Cast-28 to and from FLOAT6E2M3 and FLOAT6E3M2 against the vectors of docs/semantics.md §3.12:
//! saturation whatever `saturate` says, the NaN codes, signed zeros, DOUBLE, INT64 and STRING
//! rounded once from the exact value, and float6 sources into every Cast-28 type.

use super::{cast, code_tensor, codes, row, run_op, tensor};
use crate::dtype::DataType;
use crate::ops::{OpKind, OpVersion};
use crate::testkit::int;
use crate::testkit::spec_vectors::{
    hex, F6_DOUBLE_PROBES, F6_INT64, F6_ROW, F6_ROW_CODES, F6_STRINGS,
};

const FLOAT6: [DataType; 2] = [DataType::Float6E2M3, DataType::Float6E3M2];

/// The expected codes of one float6 type from a (FLOAT6E2M3, FLOAT6E3M2) pair.
fn pick<T: Copy>(to: DataType, pair: (T, T)) -> T {
    match to {
        DataType::Float6E2M3 => pair.0,
        _ => pair.1,
    }
}

#[test]
fn float_row_saturates_whatever_saturate_says() {
    for to in FLOAT6 {
        let want: Vec<u8> = hex(pick(to, F6_ROW_CODES));
        for flag in [1, 0] {
            let out = cast(28, to, &[int("saturate", flag)], &row(&F6_ROW));
            assert_eq!(codes(&out), want, "FLOAT -> {to} saturate={flag}");
        }
        // round_mode applies to FLOAT8E8M0 targets only.
        let attrs = [crate::testkit::text("round_mode", "down")];
        assert_eq!(codes(&cast(28, to, &attrs, &row(&F6_ROW))), want, "{to}");
    }
}

#[test]
fn double_is_rounded_once_from_the_exact_value() {
    for (to, bits, ours, reference) in F6_DOUBLE_PROBES {
        let input = tensor(&[1], vec![f64::from_bits(bits)]);
        let out = cast(28, to, &[], &input);
        assert_eq!(codes(&out), [ours], "{bits:#018x} -> {to}");
        // Each probe really separates the two roads: through FLOAT it gives the other code.
        let single = tensor(&[1], vec![f64::from_bits(bits) as f32]);
        assert_eq!(codes(&cast(28, to, &[], &single)), [reference], "{bits:#x}");
        assert_ne!(ours, reference);
    }
}

#[test]
fn int64_and_string_are_rounded_once() {
    for to in FLOAT6 {
        let values: Vec<i64> = F6_INT64.iter().map(|r| r.0).collect();
        let want: Vec<u8> = F6_INT64.iter().map(|r| pick(to, (r.1, r.2))).collect();
        let out = cast(28, to, &[], &tensor(&[values.len()], values));
        assert_eq!(codes(&out), want, "INT64 -> {to}");
        let texts: Vec<String> = F6_STRINGS.iter().map(|r| r.0.to_owned()).collect();
        let want: Vec<u8> = F6_STRINGS.iter().map(|r| pick(to, (r.1, r.2))).collect();
        let out = cast(28, to, &[], &tensor(&[texts.len()], texts));
        assert_eq!(codes(&out), want, "STRING -> {to}");
    }
}

#[test]
fn every_code_goes_into_every_cast_28_type_and_back_exactly() {
    let cast_28 = OpVersion::of(OpKind::Cast, 28).expect("Cast-28").spec();
    let all: Vec<u8> = (0..64).collect();
    for from in FLOAT6 {
        let input = code_tensor(from, &all);
        for to in cast_28.types.iter() {
            let attrs = [int("to", i64::from(to.code()))];
            let out = run_op(OpKind::Cast, 28, &attrs, &[&input]);
            let out = out.unwrap_or_else(|e| panic!("{from} -> {to}: {e}"));
            assert_eq!(
                (out.dtype(), out.shape()),
                (to, &[64][..]),
                "{from} -> {to}"
            );
        }
        // Upcasting is exact: FLOAT, DOUBLE and FLOAT16 hold every value, and back is the identity.
        for wide in [DataType::Float, DataType::Double, DataType::Float16] {
            let there = cast(28, wide, &[], &input);
            let back = cast(28, from, &[], &there);
            assert_eq!(codes(&back), all, "{from} -> {wide} -> {from}");
        }
        // Into the other float6 type: -0 keeps its sign.
        let other = if from == FLOAT6[0] {
            FLOAT6[1]
        } else {
            FLOAT6[0]
        };
        let out = cast(28, other, &[], &code_tensor(from, &[0x20]));
        assert_eq!(codes(&out), [0x20], "{from} -0 -> {other}");
    }
}

#[test]
fn float6_is_refused_before_cast_28() {
    for to in FLOAT6 {
        let attrs = [int("to", i64::from(to.code()))];
        let e = run_op(OpKind::Cast, 25, &attrs, &[&row(&[1.0])]);
        assert!(e.is_err(), "Cast-25 -> {to}");
        let e = run_op(OpKind::Cast, 25, &[int("to", 1)], &[&code_tensor(to, &[1])]);
        assert!(e.is_err(), "Cast-25 {to} -> FLOAT");
    }
}

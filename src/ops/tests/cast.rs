//! Cast and CastLike: IEEE floats, integers, bool, shapes and CastLike's target (docs/semantics.md §3.6, §3.10).

use super::{cast, codes, map, row, run_op, tensor};
use crate::dtype::DataType;
use crate::formats::F8E4M3FN;
use crate::ops::OpKind;
use crate::testkit::spec_vectors::{F16_EXAMPLE_EXPECTED, F16_EXAMPLE_INPUT};
use crate::testkit::{int, text};
use half::f16;

#[test]
fn ieee_floats_among_themselves_3_6() {
    let input = row(&F16_EXAMPLE_INPUT);
    let out = cast(6, DataType::Float16, &[], &input);
    assert_eq!(map(&out, f16::to_bits), F16_EXAMPLE_EXPECTED.to_vec());
    let out = cast(6, DataType::Double, &[], &input);
    assert_eq!(
        map(&out, f64::to_bits)[0],
        f64::from(F16_EXAMPLE_INPUT[0]).to_bits()
    );
    // f64 → f16 rounds once from f64: 1 + 2^-11 + 2^-40 is just above the tie between
    // 1 and 1 + 2^-10, so it rounds up; through f32 it would become the tie and go to 1.
    let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    let out = cast(13, DataType::Float16, &[], &tensor(&[1], vec![x]));
    assert_eq!(map(&out, f16::to_bits), vec![0x3C01]);
    // Negative NaN keeps its sign (Rust `as` may not).
    let neg_nan = tensor(&[1], vec![f64::from_bits(0xFFF8_0000_0000_0000)]);
    let out = cast(13, DataType::Float, &[], &neg_nan);
    assert_eq!(map(&out, f32::to_bits), vec![0xFFC0_0000]);
    let big = tensor(&[1], vec![1e300f64]);
    assert_eq!(
        map(&cast(6, DataType::Float, &[], &big), f32::to_bits),
        vec![0x7F80_0000]
    );
}

#[test]
fn integers_keep_the_low_bits() {
    let out = cast(13, DataType::Int8, &[], &tensor(&[1], vec![200i16]));
    assert_eq!(out.as_slice::<i8>(), Some(&[-56i8][..]));
    let out = cast(
        13,
        DataType::Uint8,
        &[],
        &tensor(&[2], vec![-1i64, 256 + 7]),
    );
    assert_eq!(out.as_slice::<u8>(), Some(&[255u8, 7][..]));
    let out = cast(13, DataType::Int64, &[], &tensor(&[1], vec![u64::MAX]));
    assert_eq!(out.as_slice::<i64>(), Some(&[-1i64][..]));
    let out = cast(13, DataType::Uint32, &[], &tensor(&[1], vec![-2i32]));
    assert_eq!(out.as_slice::<u32>(), Some(&[u32::MAX - 1][..]));
}

#[test]
fn floats_to_integers_truncate_toward_zero_then_wrap() {
    let input = row(&[
        -1.7,
        2.9,
        -0.5,
        300.5,
        f32::NAN,
        f32::INFINITY,
        -129.0,
        1e30,
    ]);
    let out = cast(13, DataType::Int32, &[], &input);
    assert_eq!(&out.as_slice::<i32>().expect("i32")[..4], &[-1, 2, 0, 300]);
    let out = cast(13, DataType::Uint8, &[], &input);
    // 300 mod 256 = 44; NaN and Inf give 0; -129 wraps to 127; 1e30 is a multiple of 2^8.
    assert_eq!(
        out.as_slice::<u8>(),
        Some(&[255u8, 2, 0, 44, 0, 0, 127, 0][..])
    );
}

#[test]
fn integers_to_floats_round_once() {
    let input = tensor(&[2], vec![(1i64 << 53) + 1, i64::MIN]);
    let out = cast(13, DataType::Double, &[], &input);
    assert_eq!(
        out.as_slice::<f64>(),
        Some(&[9_007_199_254_740_992.0, -(2f64.powi(63))][..])
    );
    let out = cast(13, DataType::Float, &[], &tensor(&[1], vec![u64::MAX]));
    assert_eq!(map(&out, f32::to_bits), vec![0x5F80_0000]);
    let out = cast(
        13,
        DataType::Float16,
        &[],
        &tensor(&[2], vec![65519i32, 65520]),
    );
    assert_eq!(map(&out, f16::to_bits), vec![0x7BFF, 0x7C00]);
}

#[test]
fn bool_rules() {
    let input = row(&[0.0, -0.0, 0.5, f32::NAN, f32::NEG_INFINITY, 1e-45]);
    let out = cast(13, DataType::Bool, &[], &input);
    assert_eq!(
        out.as_slice::<bool>(),
        Some(&[false, false, true, true, true, true][..])
    );
    let out = cast(13, DataType::Bool, &[], &tensor(&[3], vec![0i8, -3, 1]));
    assert_eq!(out.as_slice::<bool>(), Some(&[false, true, true][..]));
    let flags = tensor(&[2], vec![true, false]);
    let out = cast(13, DataType::Float, &[], &flags);
    assert_eq!(out.as_slice::<f32>(), Some(&[1.0f32, 0.0][..]));
    let out = cast(13, DataType::Int64, &[], &flags);
    assert_eq!(out.as_slice::<i64>(), Some(&[1i64, 0][..]));
    let out = cast(13, DataType::String, &[], &flags);
    assert_eq!(
        out.as_slice::<String>(),
        Some(&["1".to_owned(), "0".to_owned()][..])
    );
}

#[test]
fn shape_is_kept_and_empty_tensors_work() {
    let input = tensor(&[2, 0, 3], Vec::<f32>::new());
    let out = cast(25, DataType::Float8E4M3FN, &[], &input);
    assert_eq!(out.shape(), &[2, 0, 3]);
    assert_eq!(out.dtype(), DataType::Float8E4M3FN);
    assert!(out.is_empty());
    assert_eq!(out.len(), 0);
    let scalar = tensor(&[], vec![2.5f64]);
    let out = cast(6, DataType::Int16, &[], &scalar);
    assert_eq!(out.shape(), &[] as &[usize]);
    // A scalar has one element.
    assert!(!out.is_empty());
    assert_eq!(out.len(), 1);
    assert_eq!(out.as_slice::<i16>(), Some(&[2i16][..]));
}

#[test]
fn cast_1_takes_a_type_name() {
    let out = run_op(OpKind::Cast, 1, &[text("to", "INT32")], &[&row(&[3.7])]).expect("ok");
    assert_eq!(out.as_slice::<i32>(), Some(&[3i32][..]));
}

#[test]
fn castlike_takes_the_type_of_input_1() {
    let like = tensor(&[1], vec![f16::ZERO]);
    let out = run_op(OpKind::CastLike, 15, &[], &[&row(&[0.1, 2.0]), &like]).expect("ok");
    assert_eq!(out.shape(), &[2]);
    assert_eq!(map(&out, f16::to_bits), vec![0x2E66, 0x4000]);
    let like = tensor(&[0], Vec::<F8E4M3FN>::new());
    let out = run_op(
        OpKind::CastLike,
        19,
        &[int("saturate", 0)],
        &[&row(&[1e6]), &like],
    );
    assert_eq!(codes(&out.expect("ok")), vec![0x7F]);
}

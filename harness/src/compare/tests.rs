//! The negative gate: the comparator must reject a perturbed value of every dtype class, a
//! dtype, shape or output-count mismatch, and NaN or infinity confusion, in both modes.

use super::*;
use half::{bf16, f16};
use vocab::elements::{
    Complex128, Complex64, F4E2M1, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0, I2, I4, U2, U4,
};

const BOTH: [Rule; 2] = [Rule::ONNX_DEFAULT, Rule::Strict];

fn tensor<T: Element>(values: Vec<T>) -> Tensor {
    let n = values.len();
    Tensor::from_vec(vec![n], values).expect("test tensor")
}

/// `values` match themselves; with element `at` replaced they differ in exactly that element.
fn gate<T: Element>(values: Vec<T>, at: usize, replacement: T) {
    let expected = tensor(values.clone());
    let mut changed = values;
    changed[at] = replacement;
    let actual = tensor(changed);
    for rule in BOTH {
        let same = compare_outputs(
            std::slice::from_ref(&expected),
            std::slice::from_ref(&expected),
            rule,
        );
        assert!(same.is_empty(), "{:?} {rule:?}: {same:?}", T::DTYPE);
        let found = compare_outputs(
            std::slice::from_ref(&expected),
            std::slice::from_ref(&actual),
            rule,
        );
        match found.as_slice() {
            [Mismatch::Values { index: 0, diff }] => {
                assert_eq!(diff.differing, 1, "{:?} {rule:?}", T::DTYPE);
                assert_eq!(diff.first[0].flat, at);
                assert_ne!(diff.first[0].expected_hex, diff.first[0].actual_hex);
            }
            other => panic!(
                "{:?} {rule:?}: perturbation not caught: {other:?}",
                T::DTYPE
            ),
        }
    }
}

#[test]
fn rejects_perturbed_bool_and_integers() {
    gate(vec![true, false, true], 1, true);
    gate(vec![0u8, 1, 255], 2, 254);
    gate(vec![0i8, -1, 127], 1, 1);
    gate(vec![0u16, 1, 65535], 0, 1);
    gate(vec![0i16, -1, 5], 2, 4);
    gate(vec![0u32, 1, u32::MAX], 2, 0);
    gate(vec![0i32, -1, i32::MIN], 2, i32::MAX);
    gate(vec![0u64, 1, u64::MAX], 2, u64::MAX - 1);
    gate(vec![0i64, -1, i64::MIN], 1, 1);
}

#[test]
fn rejects_perturbed_sub_byte_integers_and_e8m0() {
    gate(
        vec![U4::from_bits(0), U4::from_bits(15)],
        1,
        U4::from_bits(14),
    );
    gate(
        vec![I4::from_bits(8), I4::from_bits(7)],
        0,
        I4::from_bits(9),
    );
    gate(
        vec![U2::from_bits(0), U2::from_bits(3)],
        1,
        U2::from_bits(2),
    );
    gate(
        vec![I2::from_bits(2), I2::from_bits(1)],
        0,
        I2::from_bits(3),
    );
    gate(
        vec![F8E8M0::from_bits(0x7F), F8E8M0::from_bits(0x80)],
        1,
        F8E8M0::from_bits(0x81),
    );
}

#[test]
fn rejects_perturbed_strings() {
    let s = |x: &str| x.to_string();
    gate(vec![s("0.9767611"), s("a")], 0, s("0.976761"));
    gate(vec![s(""), s("b")], 0, s(" "));
}

#[test]
fn rejects_perturbed_wide_floats() {
    // Each change is well outside rtol 1e-3: one f16 ulp at 1.0 (2^-10) would be within it.
    gate(
        vec![f16::from_f32(1.0), f16::from_f32(-2.0)],
        0,
        f16::from_f32(1.5),
    );
    gate(
        vec![bf16::from_f32(1.0), bf16::from_f32(-2.0)],
        1,
        bf16::from_f32(-2.5),
    );
    gate(vec![1.0f32, 0.25, -3.5], 1, 0.2503);
    gate(vec![1.0f64, 0.25, -3.5], 2, -3.6);
}

#[test]
fn rejects_one_ulp_of_every_small_float() {
    // One ulp at 1.0 is 1/8, 1/4 or 1/2 in these formats: far outside the tolerance.
    gate(
        vec![F8E4M3FN::from_bits(0x38), F8E4M3FN::from_bits(0x00)],
        0,
        F8E4M3FN::from_bits(0x39),
    );
    gate(
        vec![F8E4M3FNUZ::from_bits(0x40), F8E4M3FNUZ::from_bits(0x00)],
        0,
        F8E4M3FNUZ::from_bits(0x41),
    );
    gate(
        vec![F8E5M2::from_bits(0x3C), F8E5M2::from_bits(0x00)],
        0,
        F8E5M2::from_bits(0x3D),
    );
    gate(
        vec![F8E5M2FNUZ::from_bits(0x40), F8E5M2FNUZ::from_bits(0x00)],
        0,
        F8E5M2FNUZ::from_bits(0x41),
    );
    gate(
        vec![F4E2M1::from_bits(0x2), F4E2M1::from_bits(0x7)],
        0,
        F4E2M1::from_bits(0x3),
    );
    // The smallest subnormal against zero.
    gate(
        vec![F8E4M3FN::from_bits(0x01)],
        0,
        F8E4M3FN::from_bits(0x00),
    );
}

#[test]
fn rejects_perturbed_complex_parts() {
    let c = |re, im| Complex64 { re, im };
    gate(vec![c(1.0, 2.0), c(0.0, -1.0)], 1, c(0.0, -1.5));
    let z = |re, im| Complex128 { re, im };
    gate(vec![z(1.0, 2.0), z(0.0, -1.0)], 0, z(1.1, 2.0));
}

#[test]
fn rejects_dtype_shape_and_count_mismatches() {
    let f = tensor(vec![1.0f32, 2.0]);
    let d = tensor(vec![1.0f64, 2.0]);
    let reshaped = Tensor::from_vec(vec![2, 1], vec![1.0f32, 2.0]).expect("tensor");
    for rule in BOTH {
        let found = compare_outputs(std::slice::from_ref(&f), std::slice::from_ref(&d), rule);
        assert!(matches!(
            found.as_slice(),
            [Mismatch::DType {
                index: 0,
                expected: DataType::Float,
                actual: DataType::Double
            }]
        ));
        let found = compare_outputs(
            std::slice::from_ref(&f),
            std::slice::from_ref(&reshaped),
            rule,
        );
        assert!(matches!(
            found.as_slice(),
            [Mismatch::Shape { index: 0, .. }]
        ));
        let found = compare_outputs(std::slice::from_ref(&f), &[f.clone(), f.clone()], rule);
        assert!(matches!(
            found.as_slice(),
            [Mismatch::OutputCount {
                expected: 1,
                actual: 2
            }]
        ));
        assert!(!compare_outputs(std::slice::from_ref(&f), &[], rule).is_empty());
    }
}

#[test]
fn nan_and_infinity_rules() {
    let nan = f32::from_bits(0x7FC0_0000);
    let other_nan = f32::from_bits(0xFFC0_0001);
    for rule in BOTH {
        assert!(compare_outputs(&[tensor(vec![nan])], &[tensor(vec![other_nan])], rule).is_empty());
        assert!(!compare_outputs(&[tensor(vec![nan])], &[tensor(vec![0.0f32])], rule).is_empty());
        assert!(!compare_outputs(&[tensor(vec![1.0f32])], &[tensor(vec![nan])], rule).is_empty());
        let inf = [tensor(vec![f32::INFINITY])];
        assert!(!compare_outputs(&inf, &[tensor(vec![f32::NEG_INFINITY])], rule).is_empty());
        assert!(!compare_outputs(&inf, &[tensor(vec![f32::MAX])], rule).is_empty());
        let e5m2 = |b| tensor(vec![F8E5M2::from_bits(b)]);
        assert!(!compare_outputs(&[e5m2(0x7C)], &[e5m2(0xFC)], rule).is_empty());
        assert!(compare_outputs(&[e5m2(0x7E)], &[e5m2(0xFF)], rule).is_empty());
        let fnuz = |b| tensor(vec![F8E4M3FNUZ::from_bits(b)]);
        assert!(!compare_outputs(&[fnuz(0x80)], &[fnuz(0x00)], rule).is_empty());
    }
}

#[test]
fn default_mode_tolerates_what_strict_mode_does_not() {
    let one = [tensor(vec![1.0f32])];
    let ulp = [tensor(vec![f32::from_bits(1.0f32.to_bits() + 1)])];
    let within = [tensor(vec![1.0009f32])];
    let outside = [tensor(vec![1.0011f32])];
    let neg_zero = [tensor(vec![-0.0f32])];
    assert!(compare_outputs(&one, &ulp, Rule::ONNX_DEFAULT).is_empty());
    assert!(compare_outputs(&one, &within, Rule::ONNX_DEFAULT).is_empty());
    assert!(!compare_outputs(&one, &outside, Rule::ONNX_DEFAULT).is_empty());
    assert!(compare_outputs(&[tensor(vec![0.0f32])], &neg_zero, Rule::ONNX_DEFAULT).is_empty());
    assert!(!compare_outputs(&one, &ulp, Rule::Strict).is_empty());
    assert!(!compare_outputs(&one, &within, Rule::Strict).is_empty());
    assert!(!compare_outputs(&[tensor(vec![0.0f32])], &neg_zero, Rule::Strict).is_empty());
    // atol alone admits tiny absolute differences around zero.
    let tiny = [tensor(vec![5e-8f64])];
    assert!(compare_outputs(&[tensor(vec![0.0f64])], &tiny, Rule::ONNX_DEFAULT).is_empty());
}

#[test]
fn value_diff_counts_caps_and_measures() {
    let expected = tensor((0..20).map(|i| i as f32).collect());
    let actual = tensor((0..20).map(|i| i as f32 + 0.5).collect());
    let found = compare_outputs(&[expected], &[actual], Rule::ONNX_DEFAULT);
    let [Mismatch::Values { diff, .. }] = found.as_slice() else {
        panic!("expected a value mismatch: {found:?}");
    };
    assert_eq!((diff.total, diff.differing), (20, 20));
    assert_eq!(diff.first.len(), SHOWN_MISMATCHES);
    assert_eq!(diff.first[3].expected, "3.0");
    assert_eq!(diff.first[3].actual_hex, "0x40600000");
    assert_eq!(diff.max_abs, Some(0.5));
    assert_eq!(diff.max_rel, Some(f64::INFINITY));
    // Only NaN/infinity mismatches: no finite error to measure.
    let found = compare_outputs(
        &[tensor(vec![f32::NAN, 2.0])],
        &[tensor(vec![f32::INFINITY, 2.0])],
        Rule::ONNX_DEFAULT,
    );
    let [Mismatch::Values { diff, .. }] = found.as_slice() else {
        panic!("expected a value mismatch: {found:?}");
    };
    assert_eq!((diff.max_abs, diff.max_rel), (None, None));
}

#[test]
fn multi_index_is_row_major() {
    assert_eq!(multi_index(&[2, 3, 4], 0), vec![0, 0, 0]);
    assert_eq!(multi_index(&[2, 3, 4], 23), vec![1, 2, 3]);
    assert_eq!(multi_index(&[2, 3, 4], 13), vec![1, 0, 1]);
    assert_eq!(multi_index(&[], 0), Vec::<usize>::new());
}

//! Concat: spec vectors, the concat-then-slice-back property, and every rejection.

use super::{run_op, tensor};
use crate::dtype::{DataType, Element};
use crate::error::Error;
use crate::formats::Complex64;
use crate::ops::{AttrValue, Attribute, OpKind};
use crate::tensor::{element_count, Tensor};
use half::bf16;

fn axis(a: i64) -> Vec<Attribute> {
    vec![Attribute {
        name: "axis".into(),
        value: AttrValue::Int(a),
    }]
}

fn concat(since: u32, a: i64, inputs: &[&Tensor]) -> Result<Tensor, Error> {
    run_op(OpKind::Concat, since, &axis(a), inputs)
}

/// Elements of `t` whose index along `axis` is in `start..start + len`, found by visiting
/// every multi-index (a slow reference that shares nothing with the block copy).
fn slice_axis<T: Element>(t: &Tensor, axis: usize, start: usize, len: usize) -> Vec<T> {
    let values = t.as_slice::<T>().expect("typed");
    let shape = t.shape();
    let mut out = Vec::new();
    for (flat, v) in values.iter().enumerate() {
        let mut rest = flat;
        let mut coord = 0;
        for d in (0..shape.len()).rev() {
            if d == axis {
                coord = rest % shape[d];
            }
            rest /= shape[d];
        }
        if (start..start + len).contains(&coord) {
            out.push(v.clone());
        }
    }
    out
}

/// Concatenates, checks the output shape, and slices every input back out of the result.
fn check_round_trip<T: Element + PartialEq>(since: u32, a: i64, inputs: &[Tensor]) {
    let refs: Vec<&Tensor> = inputs.iter().collect();
    let out = concat(since, a, &refs).expect("concat succeeds");
    let rank = inputs[0].shape().len();
    let ax = if a < 0 { a + rank as i64 } else { a } as usize;
    let mut want_shape = inputs[0].shape().to_vec();
    want_shape[ax] = inputs.iter().map(|t| t.shape()[ax]).sum();
    assert_eq!(out.shape(), want_shape.as_slice());
    assert_eq!(out.dtype(), T::DTYPE);
    let mut start = 0;
    for t in inputs {
        let n = t.shape()[ax];
        let back = slice_axis::<T>(&out, ax, start, n);
        assert_eq!(
            back.as_slice(),
            t.as_slice::<T>().expect("typed"),
            "axis {a}"
        );
        start += n;
    }
}

/// A tensor of `shape` whose elements are `make(i)` for i = 0.. (distinct per `seed`).
fn filled<T: Element>(shape: &[usize], seed: usize, make: fn(usize) -> T) -> Tensor {
    let n = element_count(shape).expect("small");
    tensor(shape, (0..n).map(|i| make(seed * 1000 + i)).collect())
}

/// Runs the round trip for element type `T` over several shapes, axes and input counts.
fn round_trips<T: Element + PartialEq>(since: u32, make: fn(usize) -> T) {
    let cases: &[(&[&[usize]], i64)] = &[
        (&[&[2], &[3]], 0),
        (&[&[4]], 0),
        (&[&[2, 3], &[1, 3], &[4, 3]], 0),
        (&[&[2, 3], &[2, 1], &[2, 2]], 1),
        (&[&[2, 3], &[2, 5]], -1),
        (&[&[2, 3], &[2, 0], &[2, 2]], 1),
        (&[&[0, 3], &[0, 3]], 0),
        (&[&[2, 0, 3], &[2, 0, 3]], 2),
        (&[&[2, 2, 2], &[2, 3, 2]], -2),
        (
            &[&[1, 2, 3, 2], &[1, 2, 3, 1], &[1, 2, 3, 4], &[1, 2, 3, 2]],
            3,
        ),
        (&[&[3, 1, 2], &[2, 1, 2]], -3),
    ];
    for (shapes, a) in cases {
        let inputs: Vec<Tensor> = shapes
            .iter()
            .enumerate()
            .map(|(k, s)| filled(s, k, make))
            .collect();
        check_round_trip::<T>(since, *a, &inputs);
    }
}

#[test]
fn round_trip_over_types_shapes_and_axes() {
    round_trips::<f32>(13, |i| i as f32);
    round_trips::<i64>(11, |i| -(i as i64));
    round_trips::<u8>(13, |i| i as u8);
    round_trips::<String>(13, |i| format!("s{i}"));
    round_trips::<bool>(11, |i| i % 3 == 0);
    round_trips::<Complex64>(13, |i| Complex64 {
        re: i as f32,
        im: -(i as f32),
    });
    round_trips::<bf16>(13, |i| bf16::from_f32(i as f32));
    round_trips::<half::f16>(11, |i| half::f16::from_f32(i as f32));
}

#[test]
fn spec_vectors() {
    let a = tensor(&[2, 2], vec![1f32, 2., 3., 4.]);
    let b = tensor(&[2, 2], vec![5f32, 6., 7., 8.]);
    for (ax, since) in [(1, 4), (-1, 11), (-1, 13)] {
        let out = concat(since, ax, &[&a, &b]).expect("ok");
        assert_eq!(out.shape(), &[2, 4]);
        assert_eq!(
            out.as_slice::<f32>(),
            Some(&[1f32, 2., 5., 6., 3., 4., 7., 8.][..])
        );
    }
    let out = concat(4, 0, &[&a, &b]).expect("ok");
    assert_eq!(out.shape(), &[4, 2]);
    assert_eq!(
        out.as_slice::<f32>(),
        Some(&[1f32, 2., 3., 4., 5., 6., 7., 8.][..])
    );
    // Concat-1: axis defaults to 1.
    let out = run_op(OpKind::Concat, 1, &[], &[&a, &b]).expect("ok");
    assert_eq!(out.shape(), &[2, 4]);
    let single = concat(13, 0, &[&a]).expect("ok");
    assert_eq!(single, a);
}

#[test]
fn rejects_no_inputs() {
    let e = concat(13, 0, &[]).unwrap_err();
    assert!(matches!(e, Error::InputCount { found: 0, .. }), "{e}");
}

#[test]
fn rejects_rank_0() {
    let s = tensor::<f32>(&[], vec![1.0]);
    let e = concat(13, 0, &[&s, &s]).unwrap_err();
    assert!(matches!(e, Error::Rank { found: 0, .. }), "{e}");
    assert!(e.to_string().contains("Concat-13"), "{e}");
}

#[test]
fn rejects_axis_out_of_range() {
    let a = tensor(&[2, 2], vec![0f32; 4]);
    for (since, bad) in [
        (13, 2),
        (13, -3),
        (11, 7),
        (4, 2),
        (4, -1),
        (1, -1),
        (13, i64::MIN),
    ] {
        let e = concat(since, bad, &[&a, &a]).unwrap_err();
        assert!(
            matches!(e, Error::AxisOutOfRange { axis, rank: 2, .. } if axis == bad),
            "{e}"
        );
    }
    let e = concat(4, -1, &[&a, &a]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Concat-4 axis -1 is out of range for rank 2 (negative axes are allowed from Concat-11)"
    );
    let e = concat(13, 2, &[&a]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Concat-13 axis 2 is out of range for rank 2 (allowed: -2 to 1)"
    );
}

#[test]
fn rejects_rank_mismatch() {
    let a = tensor(&[2, 2], vec![0f32; 4]);
    let b = tensor(&[4], vec![0f32; 4]);
    let e = concat(13, 0, &[&a, &a, &b]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Rank {
                input: 2,
                expected: Some(2),
                found: 1,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn rejects_non_axis_dim_mismatch_naming_input_dim_and_sizes() {
    let a = tensor(&[2, 3], vec![0f32; 6]);
    let b = tensor(&[2, 4], vec![0f32; 8]);
    let e = concat(13, 0, &[&a, &b]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Concat-13 input 1 has size 4 in dimension 1 but input 0 has 3; only the axis dimension may differ"
    );
    // Empty inputs must still agree off the axis.
    let c = tensor(&[0, 3], Vec::<f32>::new());
    let d = tensor(&[0, 2], Vec::<f32>::new());
    assert!(matches!(
        concat(13, 0, &[&c, &d]),
        Err(Error::DimMismatch { dim: 1, .. })
    ));
}

#[test]
fn rejects_mixed_types() {
    let a = tensor(&[2], vec![0f32; 2]);
    let b = tensor(&[2], vec![0f64; 2]);
    let e = concat(13, 0, &[&a, &b]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InputTypeMismatch {
                input: 1,
                expected: DataType::Float,
                found: DataType::Double,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn rejects_types_the_version_does_not_allow() {
    let bf = tensor(&[1], vec![bf16::ONE]);
    let e = concat(11, 0, &[&bf]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Concat-11 does not allow BFLOAT16 as input 0 (allowed from Concat-13)"
    );
    let s = tensor(&[1], vec![String::from("x")]);
    let e = concat(1, 0, &[&s]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TypeNotAllowed {
                allowed_from: Some(4),
                ..
            }
        ),
        "{e}"
    );
    let f8 = tensor(&[1], vec![crate::formats::F8E4M3FN::from_bits(0)]);
    let e = concat(13, 0, &[&f8]).unwrap_err();
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
}

#[test]
fn rejects_missing_axis_from_version_4() {
    let a = tensor(&[2], vec![0f32; 2]);
    let e = run_op(OpKind::Concat, 4, &[], &[&a]).unwrap_err();
    assert!(
        matches!(e, Error::MissingAttribute { name: "axis", .. }),
        "{e}"
    );
}

#[test]
fn rejects_output_shape_overflow() {
    let big = usize::MAX / 2 + 1;
    let a = tensor(&[big, 0], Vec::<f32>::new());
    let e = concat(13, 0, &[&a, &a]).unwrap_err();
    assert!(
        matches!(e, Error::Vocab(vocab::Error::ShapeOverflow { .. })),
        "{e}"
    );
}

/// Outputs of 16 MiB and more are written with streaming stores; odd block lengths exercise
/// their unaligned heads and tails.
#[test]
fn large_outputs_round_trip_through_streaming_stores() {
    let f = [
        filled(&[1024, 2045], 1, |i| i as f32),
        filled(&[1024, 2051], 2, |i| i as f32),
    ];
    check_round_trip::<f32>(13, 1, &f);
    let b = [
        filled(&[4096, 2047], 1, |i| (i * 7 % 251) as u8),
        filled(&[4096, 2049], 2, |i| (i * 13 % 241) as u8),
    ];
    check_round_trip::<u8>(13, -1, &b);
}

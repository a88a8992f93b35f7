//! Every operator version against every type (pair): the node runs exactly when the version's
//! table row allows the types, and otherwise fails with an error, never a panic.

use super::{row, run_op, tensor};
use crate::dtype::{DataType, Storage};
use crate::formats::{Complex128, Complex64};
use crate::ops::{AttrValue, Attribute, OpKind, VERSIONS};
use crate::tensor::Tensor;

/// Special and ordinary values, for building one sample tensor of each type.
const SAMPLES: [f32; 10] = [
    0.0,
    -0.0,
    1.5,
    -2.5,
    300.75,
    -1e6,
    1e-7,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
];

/// A [2, 5] tensor of type `t`: the samples cast with Cast-28 where it can, else built by hand.
fn sample(t: DataType) -> Tensor {
    let values = row(&SAMPLES);
    match t {
        DataType::String => tensor(
            &[2, 5],
            [
                "0", "-1.5", "NaN", "INF", "-inf", "1e3", "7", "0.1", "-0", "255",
            ]
            .map(String::from)
            .to_vec(),
        ),
        DataType::Complex64 => tensor(&[2, 5], vec![Complex64::default(); 10]),
        DataType::Complex128 => tensor(&[2, 5], vec![Complex128::default(); 10]),
        _ => {
            let to = Attribute {
                name: "to".into(),
                value: AttrValue::Int(i64::from(t.code())),
            };
            let out = run_op(OpKind::Cast, 28, &[to], &[&values]).expect("sample cast");
            let (_, storage) = out.into_parts();
            Tensor::new(vec![2, 5], storage).expect("same element count")
        }
    }
}

#[test]
fn cast_runs_exactly_the_type_pairs_each_version_allows() {
    let samples: Vec<Tensor> = DataType::ALL.iter().map(|&t| sample(t)).collect();
    for spec in VERSIONS
        .iter()
        .filter(|s| s.version().op() != OpKind::Concat)
    {
        let v = spec.version();
        for input in &samples {
            for &target in DataType::ALL {
                let result = if v.op() == OpKind::Cast {
                    let to = if v.since() == 1 {
                        AttrValue::String(target.name().as_bytes().to_vec())
                    } else {
                        AttrValue::Int(i64::from(target.code()))
                    };
                    let attrs = [Attribute {
                        name: "to".into(),
                        value: to,
                    }];
                    run_op(v.op(), v.since(), &attrs, &[input])
                } else {
                    let like = Tensor::new(vec![0], Storage::empty(target)).expect("empty");
                    run_op(v.op(), v.since(), &[], &[input, &like])
                };
                let allowed = spec.types.contains(input.dtype()) && spec.types.contains(target);
                let what = format!("{v} {} -> {target}", input.dtype());
                match result {
                    Ok(out) => {
                        assert!(allowed, "{what} ran but is not allowed");
                        assert_eq!(out.dtype(), target, "{what}");
                        assert_eq!(out.shape(), input.shape(), "{what}");
                    }
                    // Every string sample parses, so only a type check may reject.
                    Err(e) => assert!(!allowed, "{what} is allowed but failed: {e}"),
                }
            }
        }
    }
}

#[test]
fn concat_runs_exactly_the_types_each_version_allows() {
    for spec in VERSIONS
        .iter()
        .filter(|s| s.version().op() == OpKind::Concat)
    {
        let v = spec.version();
        for &t in DataType::ALL {
            let x = sample(t);
            let axis = [Attribute {
                name: "axis".into(),
                value: AttrValue::Int(1),
            }];
            let result = run_op(v.op(), v.since(), &axis, &[&x, &x, &x]);
            match result {
                Ok(out) => {
                    assert!(spec.types.contains(t), "{v} ran on {t}");
                    assert_eq!(out.shape(), &[2, 15]);
                    assert_eq!(out.dtype(), t);
                }
                Err(e) => assert!(!spec.types.contains(t), "{v} failed on {t}: {e}"),
            }
        }
    }
}

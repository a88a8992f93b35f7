//! Unit tests of the operators through `ops::run`, with expected values from the spec.

mod cast;
mod cast_errors;
mod cast_float6;
mod cast_small;
mod concat;
mod fast;
mod matrix;
mod no_panic;
mod rules_read;

use crate::dtype::{DataType, Element};
use crate::error::Error;
use crate::formats::{F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0};
use crate::ops::{run, Attribute, OpKind};
use crate::tensor::Tensor;
use crate::testkit::{int, version};

/// Runs `op`-`since` and returns its single output.
fn run_op(
    op: OpKind,
    since: u32,
    attrs: &[Attribute],
    inputs: &[&Tensor],
) -> Result<Tensor, Error> {
    let mut out = run(version(op, since), attrs, inputs)?;
    assert_eq!(out.len(), 1, "one output");
    Ok(out.remove(0))
}

/// A tensor from a shape and values; panics only on a bad test fixture.
fn tensor<T: Element>(shape: &[usize], values: Vec<T>) -> Tensor {
    Tensor::from_vec(shape.to_vec(), values).expect("fixture shape matches values")
}

/// Cast-`since` of `input` to `to`, with `extra` attributes.
fn cast(since: u32, to: DataType, extra: &[Attribute], input: &Tensor) -> Tensor {
    let mut attrs = vec![int("to", i64::from(to.code()))];
    attrs.extend_from_slice(extra);
    run_op(OpKind::Cast, since, &attrs, &[input]).expect("cast succeeds")
}

/// The elements of `t` mapped through `f` (for reading codes and bits).
fn map<T: Element + Copy, U>(t: &Tensor, f: fn(T) -> U) -> Vec<U> {
    t.as_slice::<T>()
        .expect("output has the expected type")
        .iter()
        .map(|&x| f(x))
        .collect()
}

fn row(values: &[f32]) -> Tensor {
    tensor(&[values.len()], values.to_vec())
}

fn codes(t: &Tensor) -> Vec<u8> {
    match t.dtype() {
        DataType::Float8E4M3FN => map(t, F8E4M3FN::to_bits),
        DataType::Float8E4M3FNUZ => map(t, F8E4M3FNUZ::to_bits),
        DataType::Float8E5M2 => map(t, F8E5M2::to_bits),
        DataType::Float8E5M2FNUZ => map(t, F8E5M2FNUZ::to_bits),
        DataType::Float8E8M0 => map(t, F8E8M0::to_bits),
        DataType::Float4E2M1 => map(t, F4E2M1::to_bits),
        DataType::Float6E2M3 => map(t, F6E2M3::to_bits),
        DataType::Float6E3M2 => map(t, F6E3M2::to_bits),
        other => panic!("not a code type: {other}"),
    }
}

/// A 1-d tensor of codes of a float8/float6/float4 type.
fn code_tensor(t: DataType, c: &[u8]) -> Tensor {
    let n = [c.len()];
    match t {
        DataType::Float8E4M3FN => tensor(&n, c.iter().map(|&b| F8E4M3FN::from_bits(b)).collect()),
        DataType::Float8E4M3FNUZ => {
            tensor(&n, c.iter().map(|&b| F8E4M3FNUZ::from_bits(b)).collect())
        }
        DataType::Float8E5M2 => tensor(&n, c.iter().map(|&b| F8E5M2::from_bits(b)).collect()),
        DataType::Float8E5M2FNUZ => {
            tensor(&n, c.iter().map(|&b| F8E5M2FNUZ::from_bits(b)).collect())
        }
        DataType::Float8E8M0 => tensor(&n, c.iter().map(|&b| F8E8M0::from_bits(b)).collect()),
        DataType::Float4E2M1 => tensor(&n, c.iter().map(|&b| F4E2M1::from_bits(b)).collect()),
        DataType::Float6E2M3 => tensor(&n, c.iter().map(|&b| F6E2M3::from_bits(b)).collect()),
        DataType::Float6E3M2 => tensor(&n, c.iter().map(|&b| F6E3M2::from_bits(b)).collect()),
        other => panic!("not a code type: {other}"),
    }
}

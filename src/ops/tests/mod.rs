//! Unit tests of the operators through `ops::run`, with expected values from the spec.

mod cast;
mod cast_errors;
mod concat;

use crate::dtype::Element;
use crate::error::Error;
use crate::ops::{run, Attribute, OpKind, OpVersion};
use crate::tensor::Tensor;

/// Runs `op`-`since` and returns its single output.
fn run_op(
    op: OpKind,
    since: u32,
    attrs: &[Attribute],
    inputs: &[&Tensor],
) -> Result<Tensor, Error> {
    let mut out = run(OpVersion { op, since }, attrs, inputs)?;
    assert_eq!(out.len(), 1, "one output");
    Ok(out.remove(0))
}

/// A tensor from a shape and values; panics only on a bad test fixture.
fn tensor<T: Element>(shape: &[usize], values: Vec<T>) -> Tensor {
    Tensor::from_vec(shape.to_vec(), values).expect("fixture shape matches values")
}

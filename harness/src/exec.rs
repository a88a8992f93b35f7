//! Running a model's graph with `onnx_conformance::ops`.

use crate::case::Model;
use crate::error::Error;
use onnx_conformance::Tensor;

/// Binds `inputs` to the graph inputs by position, runs every node in order, and returns the
/// graph outputs in declared order. Extra graph inputs that no node uses are accepted.
pub fn run_graph(model: &Model, inputs: &[Tensor]) -> Result<Vec<Tensor>, Error> {
    let _ = (model, inputs);
    Err(Error::msg("graph execution not implemented yet"))
}

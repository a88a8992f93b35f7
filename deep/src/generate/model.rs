//! One deep case as files in the node-test layout: `model.onnx` and `test_data_set_0/` with
//! `input_K.pb` and `output_K.pb`, written by the harness's writer (`harness::write`) in the
//! case's encoding, the expected outputs computed by running the model our reader reads from
//! those bytes, fed the tensors it reads from the input files, with our implementation.

use harness::case::{Model, Node, ValueInfo};
use harness::write::{model as write_model, tensor as write_tensor, Encoding};
use schema::layout;
use vocab::{DataType, Tensor};

/// A case's files: path relative to the case directory, bytes.
pub(crate) type Files = Vec<(String, Vec<u8>)>;

/// A graph to write: nodes in order, fed inputs, initializers, declared outputs.
pub(crate) struct Graph {
    /// The model opset.
    pub opset: i64,
    /// The nodes, in order.
    pub nodes: Vec<Node>,
    /// Graph inputs fed by the data set, in order.
    pub inputs: Vec<(String, Tensor)>,
    /// Initializers (not fed).
    pub initializers: Vec<(String, Tensor)>,
    /// Graph outputs: name, type and shape.
    pub outputs: Vec<(String, DataType, Vec<usize>)>,
    /// How the model, its tensors and the fed inputs are encoded (the expected outputs are
    /// always written as onnx writes them).
    pub encoding: Encoding,
}

/// A file of the case's one data set, relative to the case directory.
fn in_set(file: String) -> String {
    format!("{}/{file}", layout::data_set_name(0))
}

/// The IR version of the official models at `opset` (onnx's version table): the oldest that
/// knows the opset's types, so that older runtimes load the model.
pub(crate) fn ir_version(opset: i64) -> i64 {
    match opset {
        ..=8 => 3,
        9 => 4,
        10 => 5,
        11 => 6,
        12..=14 => 7,
        15..=18 => 8,
        19..=20 => 9,
        21..=22 => 10,
        23 => 11,
        24 => 12,
        25..=27 => 13,
        _ => 14,
    }
}

/// The model of `graph`, named `name`, for the harness's model writer.
pub(crate) fn model(name: &str, graph: &Graph) -> Model {
    let declared = |(n, t): &(String, Tensor)| ValueInfo::tensor(n, t.dtype(), t.shape());
    let mut inputs: Vec<ValueInfo> = graph.inputs.iter().map(declared).collect();
    // Before IR 4 every initializer must also be a graph input.
    if ir_version(graph.opset) < 4 {
        inputs.extend(graph.initializers.iter().map(declared));
    }
    Model {
        ir_version: ir_version(graph.opset),
        producer: "onnx-conformance deep-cases".into(),
        opset: graph.opset,
        graph: harness::case::Graph {
            name: name.into(),
            nodes: graph.nodes.clone(),
            inputs,
            outputs: graph
                .outputs
                .iter()
                .map(|(n, d, dims)| ValueInfo::tensor(n, *d, dims))
                .collect(),
            initializers: graph.initializers.clone(),
        },
    }
}

/// The files of case `name` (relative to the case directory) with the expected outputs our
/// implementation gives, or why it could not run.
pub(crate) fn files(name: &str, graph: &Graph) -> Result<Files, String> {
    let bytes = write_model::encode(&model(name, graph), graph.encoding);
    // Read back as a runtime would: the encoding variants must mean the same model.
    let parsed =
        harness::read::model_from_bytes(&bytes).map_err(|e| format!("{name}: {}", e.message()))?;
    let mut files = vec![(layout::MODEL.to_string(), bytes)];
    let mut fed = Vec::new();
    for (k, (n, t)) in graph.inputs.iter().enumerate() {
        let pb = write_tensor::encode(n, t, graph.encoding);
        let read = harness::read::tensor_from_bytes(&pb, Some(t.dtype()))
            .map_err(|e| format!("{name}: input {k}: {}", e.message()))?;
        fed.push(read);
        files.push((in_set(layout::input_name(k)), pb));
    }
    let native = harness::backend::Native;
    let file = harness::backend::ModelFile {
        path: std::path::Path::new(layout::MODEL),
        model: &parsed,
    };
    let run = |native: &harness::backend::Native| -> Result<Vec<Tensor>, String> {
        use harness::backend::Backend;
        let prepared = native.prepare(file).map_err(|e| e.message)?;
        prepared.run(&fed).map_err(|e| e.message)
    };
    let outputs =
        run(&native).map_err(|e| format!("{name}: our implementation refuses the case: {e}"))?;
    for (k, ((n, dtype, shape), t)) in graph.outputs.iter().zip(&outputs).enumerate() {
        if t.dtype() != *dtype || t.shape() != shape.as_slice() {
            return Err(format!(
                "{name}: output {k} is {:?} {:?}, declared {dtype:?} {shape:?}",
                t.dtype(),
                t.shape()
            ));
        }
        files.push((
            in_set(layout::output_name(k)),
            write_tensor::encode(n, t, Encoding::Onnx),
        ));
    }
    Ok(files)
}

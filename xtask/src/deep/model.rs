//! One deep case as files in the node-test layout: `model.onnx` and `test_data_set_0/` with
//! `input_K.pb` and `output_K.pb`. Tensors are written by the harness's TensorProto writer,
//! the expected outputs computed by running the model with our implementation.

use harness::proto::{
    AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, ValueInfoProto,
};
use harness::write::tensor_proto;
use prost::Message;
use vocab::{AttrValue, Attribute, DataType, Tensor};

/// A node: op_type, inputs, outputs, attributes.
pub(super) type Node = (String, Vec<String>, Vec<String>, Vec<Attribute>);
/// A case's files: path relative to the case directory, bytes.
pub(super) type Files = Vec<(String, Vec<u8>)>;

/// A graph to write: nodes in order, fed inputs, initializers, declared outputs.
pub(super) struct Graph {
    /// The model opset.
    pub opset: i64,
    /// The nodes, each (op_type, inputs, outputs, attributes).
    pub nodes: Vec<Node>,
    /// Graph inputs fed by the data set, in order.
    pub inputs: Vec<(String, Tensor)>,
    /// Initializers (not fed).
    pub initializers: Vec<(String, Tensor)>,
    /// Graph outputs: name, type and shape.
    pub outputs: Vec<(String, DataType, Vec<usize>)>,
}

/// The IR version of the official models at `opset` (onnx's version table): the oldest that
/// knows the opset's types, so that older runtimes load the model.
pub(super) fn ir_version(opset: i64) -> i64 {
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

fn attribute(a: &Attribute) -> AttributeProto {
    let mut p = AttributeProto {
        name: a.name.clone(),
        ..Default::default()
    };
    match &a.value {
        AttrValue::Int(i) => (p.i, p.r#type) = (*i, 2),
        AttrValue::String(s) => (p.s, p.r#type) = (s.clone(), 3),
        AttrValue::Tensor(t) => (p.t, p.r#type) = (Some(tensor_proto("value", t)), 4),
        other => unreachable!("the deep cases set no {other:?} attribute"),
    }
    p
}

fn value_info(name: &str, dtype: DataType, shape: &[usize]) -> ValueInfoProto {
    let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    ValueInfoProto::tensor(name, dtype.code(), &dims)
}

/// The model of `graph`, named `name`.
pub(super) fn model(name: &str, graph: &Graph) -> ModelProto {
    let mut inputs: Vec<ValueInfoProto> = graph
        .inputs
        .iter()
        .map(|(n, t)| value_info(n, t.dtype(), t.shape()))
        .collect();
    // Before IR 4 every initializer must also be a graph input.
    if ir_version(graph.opset) < 4 {
        inputs.extend(
            graph
                .initializers
                .iter()
                .map(|(n, t)| value_info(n, t.dtype(), t.shape())),
        );
    }
    let graph_proto = GraphProto {
        name: name.into(),
        node: graph
            .nodes
            .iter()
            .map(|(op, ins, outs, attrs)| NodeProto {
                input: ins.clone(),
                output: outs.clone(),
                op_type: op.clone(),
                attribute: attrs.iter().map(attribute).collect(),
                ..Default::default()
            })
            .collect(),
        initializer: graph
            .initializers
            .iter()
            .map(|(n, t)| tensor_proto(n, t))
            .collect(),
        input: inputs,
        output: graph
            .outputs
            .iter()
            .map(|(n, d, s)| value_info(n, *d, s))
            .collect(),
    };
    ModelProto {
        ir_version: ir_version(graph.opset),
        producer_name: "onnx-conformance deep-cases".into(),
        graph: Some(graph_proto),
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: graph.opset,
        }],
        ..Default::default()
    }
}

/// The files of case `name` (relative to the case directory) with the expected outputs our
/// implementation gives, or why it could not run.
pub(super) fn files(name: &str, graph: &Graph) -> Result<Files, String> {
    let mp = model(name, graph);
    let bytes = mp.encode_to_vec();
    let parsed = harness::read::convert_model(mp).map_err(|e| format!("{name}: {}", e.message))?;
    let fed: Vec<Tensor> = graph.inputs.iter().map(|(_, t)| t.clone()).collect();
    let native = harness::backend::Native;
    let file = harness::backend::ModelFile {
        path: std::path::Path::new("model.onnx"),
        model: &parsed,
    };
    let run = |native: &harness::backend::Native| -> Result<Vec<Tensor>, String> {
        use harness::backend::Backend;
        let prepared = native.prepare(file).map_err(|e| e.message)?;
        prepared.run(&fed).map_err(|e| e.message)
    };
    let outputs =
        run(&native).map_err(|e| format!("{name}: our implementation refuses the case: {e}"))?;
    let mut files = vec![("model.onnx".to_string(), bytes)];
    for (k, (n, t)) in graph.inputs.iter().enumerate() {
        files.push((
            format!("test_data_set_0/input_{k}.pb"),
            tensor_proto(n, t).encode_to_vec(),
        ));
    }
    for (k, ((n, dtype, shape), t)) in graph.outputs.iter().zip(&outputs).enumerate() {
        if t.dtype() != *dtype || t.shape() != shape.as_slice() {
            return Err(format!(
                "{name}: output {k} is {:?} {:?}, declared {dtype:?} {shape:?}",
                t.dtype(),
                t.shape()
            ));
        }
        files.push((
            format!("test_data_set_0/output_{k}.pb"),
            tensor_proto(n, t).encode_to_vec(),
        ));
    }
    Ok(files)
}

//! Encoding an own case as ONNX protobuf: the model with its value infos, and the tensors.

use schema::proto::{GraphProto, ModelProto, NodeProto, OperatorSetIdProto, ValueInfoProto};
use vocab::Tensor;

use super::specs::Spec;

/// A tensor's data, as the test data sets hold it: the harness's TensorProto writer (the one
/// that writes a worker's inputs), so the own cases and the workers agree on every type.
pub(super) use harness::write::tensor_proto;

fn value_info(name: &str, t: &Tensor) -> ValueInfoProto {
    let dims: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
    ValueInfoProto::tensor(name, t.dtype().code(), &dims)
}

pub(super) fn model(spec: &Spec) -> ModelProto {
    let in_names: Vec<String> = (0..spec.inputs.len()).map(|i| format!("x{i}")).collect();
    let out_names: Vec<String> = (0..spec.outputs.len()).map(|i| format!("y{i}")).collect();
    let graph = GraphProto {
        name: spec.name.into(),
        node: vec![NodeProto {
            input: in_names.clone(),
            output: out_names.clone(),
            op_type: spec.op.into(),
            attribute: spec.attrs.clone(),
            ..Default::default()
        }],
        input: in_names
            .iter()
            .zip(&spec.inputs)
            .map(|(n, t)| value_info(n, t))
            .collect(),
        output: out_names
            .iter()
            .zip(&spec.outputs)
            .map(|(n, t)| value_info(n, t))
            .collect(),
        ..Default::default()
    };
    ModelProto {
        ir_version: 3,
        producer_name: "onnx-conformance own-cases".into(),
        graph: Some(graph),
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: spec.opset,
        }],
        ..Default::default()
    }
}

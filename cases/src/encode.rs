//! An own case as the harness's model writer takes it (`harness::write::model`): one node,
//! inputs `x0, x1, ...` and outputs `y0, ...` with their value infos.

use harness::case::{Graph, Model, Node, ValueInfo};

use super::specs::Spec;

pub(super) fn model(spec: &Spec) -> Model {
    let in_names: Vec<String> = (0..spec.inputs.len()).map(|i| format!("x{i}")).collect();
    let out_names: Vec<String> = (0..spec.outputs.len()).map(|i| format!("y{i}")).collect();
    let declared = |names: &[String], tensors: &[vocab::Tensor]| {
        names
            .iter()
            .zip(tensors)
            .map(|(n, t)| ValueInfo::tensor(n, t.dtype(), t.shape()))
            .collect()
    };
    Model {
        ir_version: spec.ir_version,
        producer: "onnx-conformance own-cases".into(),
        opset: spec.opset,
        graph: Graph {
            name: spec.name.clone(),
            nodes: vec![Node {
                op_type: spec.op.into(),
                domain: String::new(),
                inputs: in_names.clone(),
                outputs: out_names.clone(),
                attributes: spec.attrs.clone(),
            }],
            inputs: declared(&in_names, &spec.inputs),
            outputs: declared(&out_names, &spec.outputs),
            initializers: Vec::new(),
        },
    }
}

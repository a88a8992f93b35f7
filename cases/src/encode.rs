//! An own case as the harness's model writer takes it (`harness::write::model`): one node,
//! inputs `x0, x1, ...` and outputs `y0, ...` with their value infos.

use harness::write::model::{Model, Node};

use super::specs::Spec;

pub(super) fn model(spec: &Spec) -> Model {
    let in_names: Vec<String> = (0..spec.inputs.len()).map(|i| format!("x{i}")).collect();
    let out_names: Vec<String> = (0..spec.outputs.len()).map(|i| format!("y{i}")).collect();
    let declared = |names: &[String], tensors: &[vocab::Tensor]| {
        names
            .iter()
            .zip(tensors)
            .map(|(n, t)| (n.clone(), t.dtype(), t.shape().to_vec()))
            .collect()
    };
    Model {
        name: spec.name.clone(),
        ir_version: spec.ir_version,
        producer: "onnx-conformance own-cases".into(),
        opset: spec.opset,
        nodes: vec![Node {
            op_type: spec.op.into(),
            inputs: in_names.clone(),
            outputs: out_names.clone(),
            attributes: spec.attrs.clone(),
        }],
        inputs: declared(&in_names, &spec.inputs),
        initializers: Vec::new(),
        outputs: declared(&out_names, &spec.outputs),
    }
}

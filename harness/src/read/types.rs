//! The types a model declares against what its operator versions allow: a graph input or
//! output that a node reads or writes must have a type the node's version lists (onnx's
//! checker refuses such a model too, with its full check). Without this, a FLOAT6E2M3 input of
//! a Cast-25 node would reach each backend, and the answer would depend on how each refuses.

use crate::case::{Model, Node, ValueInfo};
use crate::error::Error;
use crate::read::is_default_domain;
use vocab::{DataType, OpKind, OpVersion};

/// Checks every node of the default domain whose operator the version table knows: each
/// declared graph input it reads and graph output it writes must be of a type its version
/// allows. Other nodes (and unknown operators or opsets) are left to the backend.
pub fn check_declared_types(model: &Model) -> Result<(), Error> {
    let graph = &model.graph;
    for (index, node) in graph.nodes.iter().enumerate() {
        if !is_default_domain(&node.domain) || OpKind::from_name(&node.op_type).is_none() {
            continue;
        }
        let Ok(version) = OpVersion::resolve(&node.op_type, model.opset) else {
            continue;
        };
        let mut values = declared(&node.inputs, &graph.inputs, "reads graph input");
        values.extend(declared(
            &node.outputs,
            &graph.outputs,
            "writes graph output",
        ));
        for (role, value, dtype) in values {
            let spec = version.spec();
            if spec.types.contains(dtype) {
                continue;
            }
            return Err(refusal(model, index, node, version, role, value, dtype));
        }
    }
    Ok(())
}

/// The declared graph values among `names`, each with `role` and its type.
fn declared<'a>(
    names: &[String],
    values: &'a [ValueInfo],
    role: &'static str,
) -> Vec<(&'static str, &'a ValueInfo, DataType)> {
    names
        .iter()
        .filter_map(|n| values.iter().find(|v| !n.is_empty() && v.name == *n))
        .filter_map(|v| Some((role, v, v.dtype?)))
        .collect()
}

fn refusal(
    model: &Model,
    index: usize,
    node: &Node,
    version: OpVersion,
    role: &str,
    value: &ValueInfo,
    dtype: DataType,
) -> Error {
    let (op, since) = (version.op(), version.since());
    let later = match vocab::version::type_allowed_from(op, since, dtype) {
        Some(v) => format!("{}-{v} and later allow it", node.op_type),
        None => format!("no version of {} allows it", node.op_type),
    };
    Error::msg(format!(
        "node {index} ({}) {role} '{}' of type {dtype}, which {}-{since} (opset \
         {}) does not allow ({later}); onnx's checker (full check) refuses the model too",
        node.op_type, value.name, node.op_type, model.opset
    ))
}

#[cfg(test)]
mod tests;

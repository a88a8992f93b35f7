//! Running a model's graph with `onnx_conformance::ops`.

use crate::case::{Model, Node};
use crate::error::Error;
use crate::read::is_default_domain;
use onnx_conformance::ops::{self, OpVersion};
use onnx_conformance::Tensor;
use std::borrow::Cow;
use std::collections::HashMap;

/// Binds `inputs` to the graph inputs by position, runs every node in order, and returns the
/// graph outputs in declared order. Extra graph inputs that no node uses are accepted.
pub fn run_graph(model: &Model, inputs: &[Tensor]) -> Result<Vec<Tensor>, Error> {
    let graph = &model.graph;
    if inputs.len() > graph.inputs.len() {
        return Err(Error::msg(format!(
            "{} inputs given, but the graph declares {}",
            inputs.len(),
            graph.inputs.len()
        )));
    }
    // Initializers first, so that a fed graph input of the same name overrides its default.
    let mut values: HashMap<&str, Cow<'_, Tensor>> = graph
        .initializers
        .iter()
        .map(|(name, t)| (name.as_str(), Cow::Borrowed(t)))
        .collect();
    for (vi, t) in graph.inputs.iter().zip(inputs) {
        values.insert(&vi.name, Cow::Borrowed(t));
    }
    for (index, node) in graph.nodes.iter().enumerate() {
        let produced = run_node(node, index, model.opset, &values)?;
        for (name, t) in node.outputs.iter().zip(produced) {
            if !name.is_empty() {
                values.insert(name, Cow::Owned(t));
            }
        }
    }
    graph
        .outputs
        .iter()
        .map(|vi| {
            values
                .get(vi.name.as_str())
                .map(|t| t.as_ref().clone())
                .ok_or_else(|| {
                    Error::msg(format!(
                        "graph output '{}' is not produced by any node or input",
                        vi.name
                    ))
                })
        })
        .collect()
}

/// Runs one node on the values bound so far; returns exactly one tensor per declared output.
fn run_node(
    node: &Node,
    index: usize,
    opset: i64,
    values: &HashMap<&str, Cow<'_, Tensor>>,
) -> Result<Vec<Tensor>, Error> {
    let label = format!("node {index} ({})", node.op_type);
    if !is_default_domain(&node.domain) {
        return Err(Error::msg(format!(
            "{label}: domain '{}' is not supported, only the default domain",
            node.domain
        )));
    }
    // A trailing empty name is an omitted optional input; an interior one cannot be passed on.
    let used = node
        .inputs
        .iter()
        .rposition(|n| !n.is_empty())
        .map_or(0, |p| p + 1);
    let args = node.inputs[..used]
        .iter()
        .enumerate()
        .map(|(k, name)| match values.get(name.as_str()) {
            Some(t) => Ok(t.as_ref()),
            None if name.is_empty() => Err(Error::msg(format!(
                "{label}: input {k} is omitted, which is not supported before a later input"
            ))),
            None => Err(Error::msg(format!(
                "{label}: input {k} '{name}' has no value (not a graph input, initializer or \
                 earlier node output)"
            ))),
        })
        .collect::<Result<Vec<&Tensor>, Error>>()?;
    let version = OpVersion::resolve(&node.op_type, opset)
        .map_err(|e| Error::msg(format!("{label} at opset {opset}: {e}")))?;
    let outputs = ops::run(version, &node.attributes, &args)
        .map_err(|e| Error::msg(format!("{label}: {e}")))?;
    if outputs.len() != node.outputs.len() {
        return Err(Error::msg(format!(
            "{label}: the operator returned {} outputs, but the node names {} ({})",
            outputs.len(),
            node.outputs.len(),
            node.outputs.join(", ")
        )));
    }
    Ok(outputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{Graph, ValueInfo};
    use onnx_conformance::DataType;

    fn value(name: &str) -> ValueInfo {
        ValueInfo {
            name: name.into(),
            dtype: Some(DataType::Float),
            shape: None,
        }
    }

    fn node(op_type: &str, domain: &str, inputs: &[&str], outputs: &[&str]) -> Node {
        Node {
            op_type: op_type.into(),
            domain: domain.into(),
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            outputs: outputs.iter().map(|s| s.to_string()).collect(),
            attributes: Vec::new(),
        }
    }

    fn model(nodes: Vec<Node>, inputs: &[&str], outputs: &[&str]) -> Model {
        Model {
            ir_version: 8,
            opset: 13,
            graph: Graph {
                name: "g".into(),
                nodes,
                inputs: inputs.iter().map(|n| value(n)).collect(),
                outputs: outputs.iter().map(|n| value(n)).collect(),
                initializers: vec![("w".into(), tensor(9.0))],
            },
        }
    }

    fn tensor(v: f32) -> Tensor {
        Tensor::from_vec(vec![1], vec![v]).unwrap()
    }

    fn error(model: &Model, inputs: &[Tensor]) -> String {
        match run_graph(model, inputs) {
            Ok(out) => panic!("expected an error, got {out:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn outputs_come_from_inputs_and_initializers_in_declared_order() {
        let m = model(Vec::new(), &["a", "b"], &["w", "b", "a"]);
        let out = run_graph(&m, &[tensor(1.0), tensor(2.0)]).unwrap();
        assert_eq!(out, [tensor(9.0), tensor(2.0), tensor(1.0)]);
        // A fed graph input overrides the initializer of the same name.
        let m = model(Vec::new(), &["w"], &["w"]);
        assert_eq!(run_graph(&m, &[tensor(4.0)]).unwrap(), [tensor(4.0)]);
    }

    #[test]
    fn unbound_values_and_bad_counts_name_the_node() {
        let m = model(
            vec![node("Cast", "", &["a", "nope"], &["y"])],
            &["a"],
            &["y"],
        );
        let e = error(&m, &[tensor(1.0)]);
        assert!(
            e.contains("node 0 (Cast): input 1 'nope' has no value"),
            "{e}"
        );
        let m = model(
            vec![node("Concat", "", &["a", "", "a"], &["y"])],
            &["a"],
            &["y"],
        );
        let e = error(&m, &[tensor(1.0)]);
        assert!(e.contains("node 0 (Concat): input 1 is omitted"), "{e}");
        let m = model(Vec::new(), &["a"], &["y"]);
        let e = error(&m, &[tensor(1.0)]);
        assert!(e.contains("graph output 'y' is not produced"), "{e}");
        let e = error(&m, &[tensor(1.0), tensor(2.0)]);
        assert!(
            e.contains("2 inputs given, but the graph declares 1"),
            "{e}"
        );
    }

    #[test]
    fn foreign_domains_and_unknown_operators_are_errors() {
        let m = model(
            vec![node("Cast", "com.example", &["a"], &["y"])],
            &["a"],
            &["y"],
        );
        let e = error(&m, &[tensor(1.0)]);
        assert!(
            e.contains("node 0 (Cast): domain 'com.example' is not supported"),
            "{e}"
        );
        let m = model(
            vec![node("NoSuchOp", "ai.onnx", &["a"], &["y"])],
            &["a"],
            &["y"],
        );
        let e = error(&m, &[tensor(1.0)]);
        assert!(e.contains("node 0 (NoSuchOp) at opset 13: "), "{e}");
    }
}

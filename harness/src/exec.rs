//! Running a model's graph node by node with an in-process operator implementation (the
//! native backend passes the implementation's `ops::run`).

use crate::case::{Model, Node};
use crate::error::Error;
use crate::read::is_default_domain;
use std::borrow::Cow;
use std::collections::HashMap;
use vocab::{Attribute, OpVersion, Tensor};

/// Runs one node of a resolved operator version: attributes and inputs in, outputs or a
/// message out.
pub type RunOp<'a> = &'a dyn Fn(OpVersion, &[Attribute], &[&Tensor]) -> Result<Vec<Tensor>, String>;

/// The elements a graph run may create (node outputs plus copies of the graph outputs) when its
/// inputs and initializers hold few: a few nodes that reuse one name can otherwise ask for
/// exponentially more memory than the files describe (each `Concat(x, x)` doubles).
pub const MIN_RUN_ELEMENTS: usize = 1 << 24;

/// A run may create this many times the elements of its inputs and initializers, if that is
/// more than [`MIN_RUN_ELEMENTS`].
pub const RUN_ELEMENTS_PER_FED: usize = 16;

/// The elements a run of a graph fed `fed` elements may create.
pub fn run_budget(fed: usize) -> usize {
    fed.saturating_mul(RUN_ELEMENTS_PER_FED)
        .max(MIN_RUN_ELEMENTS)
}

/// Counts the elements a run creates against [`run_budget`], refusing before allocating.
struct Budget {
    fed: usize,
    limit: usize,
    used: usize,
}

impl Budget {
    /// Takes `count` elements for `what`, or fails naming the limit.
    fn take(&mut self, count: usize, what: &str) -> Result<(), Error> {
        match self.used.checked_add(count) {
            Some(total) if total <= self.limit => {
                self.used = total;
                Ok(())
            }
            _ => Err(Error::msg(format!(
                "{what} would bring the elements this run creates to more than {} ({} times the \
                 {} elements of the inputs and initializers, at least 2^24); refused before \
                 allocating",
                self.limit, RUN_ELEMENTS_PER_FED, self.fed
            ))),
        }
    }
}

/// Binds `inputs` to the graph inputs by position, runs every node in order, and returns the
/// graph outputs in declared order. Extra graph inputs that no node uses are accepted. A run
/// that would create more elements than [`run_budget`] allows is an error. `run_op` runs each
/// node.
pub fn run_graph(
    model: &Model,
    inputs: &[Tensor],
    run_op: RunOp<'_>,
) -> Result<Vec<Tensor>, Error> {
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
    let fed = (graph.initializers.iter().map(|(_, t)| t))
        .chain(inputs)
        .fold(0usize, |n, t| n.saturating_add(t.len()));
    let mut budget = Budget {
        fed,
        limit: run_budget(fed),
        used: 0,
    };
    for (index, node) in graph.nodes.iter().enumerate() {
        let produced = run_node(node, index, model.opset, &values, &mut budget, run_op)?;
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
            let t = values.get(vi.name.as_str()).ok_or_else(|| {
                Error::msg(format!(
                    "graph output '{}' is not produced by any node or input",
                    vi.name
                ))
            })?;
            budget.take(t.len(), &format!("copying graph output '{}'", vi.name))?;
            Ok(t.as_ref().clone())
        })
        .collect()
}

/// Runs one node on the values bound so far; returns exactly one tensor per declared output.
fn run_node(
    node: &Node,
    index: usize,
    opset: i64,
    values: &HashMap<&str, Cow<'_, Tensor>>,
    budget: &mut Budget,
    run_op: RunOp<'_>,
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
    // No operator here creates more elements than its inputs hold together.
    let bound = args.iter().fold(0usize, |n, t| n.saturating_add(t.len()));
    budget.take(bound, &label)?;
    let version = OpVersion::resolve(&node.op_type, opset)
        .map_err(|e| Error::msg(format!("{label} at opset {opset}: {e}")))?;
    let outputs = run_op(version, &node.attributes, &args)
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
    use crate::backend::native::run_graph;
    use crate::case::{Graph, ValueInfo};
    use vocab::{AttrValue, DataType};

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

    /// `x0 = a`, then `x{i+1} = Concat(x{i}, x{i}, axis 0)` for `doublings` nodes.
    fn doubling(doublings: usize) -> Model {
        let nodes = (0..doublings)
            .map(|i| {
                let x = format!("x{i}");
                let mut n = node("Concat", "", &[&x, &x], &[&format!("x{}", i + 1)]);
                n.attributes.push(Attribute {
                    name: "axis".into(),
                    value: AttrValue::Int(0),
                });
                n
            })
            .collect();
        let out = format!("x{doublings}");
        model(nodes, &["x0"], &[&out])
    }

    #[test]
    fn a_run_creating_more_than_its_budget_is_refused_before_allocating() {
        assert_eq!(run_budget(0), MIN_RUN_ELEMENTS);
        assert_eq!(run_budget(1 << 30), 1 << 34);
        assert_eq!(run_budget(usize::MAX), usize::MAX);
        // 2 fed elements (input and initializer): node i asks for 2^(i+1) more, 2^(i+2) - 2
        // in all up to it, so nodes 0..=22 fit 2^24 and node 23 does not. 40 doublings would
        // be 2^40 floats.
        let m = doubling(40);
        let e = error(&m, &[tensor(1.0)]);
        assert!(e.contains("node 23 (Concat) would bring"), "{e}");
        assert!(e.contains("16 times the 2 elements"), "{e}");
        assert!(e.contains("refused before allocating"), "{e}");
        let out = run_graph(&doubling(10), &[tensor(1.0)]).unwrap();
        assert_eq!(out[0].len(), 1024);
    }

    #[test]
    fn copies_of_graph_outputs_count_against_the_budget() {
        // The doublings created 2^21 - 2 elements, so 14 copies of the 2^20 of x20 fit in
        // 2^24 and a 15th does not.
        let mut m = doubling(20);
        m.graph.outputs = (0..16).map(|_| value("x20")).collect();
        let e = error(&m, &[tensor(1.0)]);
        assert!(e.contains("copying graph output 'x20' would bring"), "{e}");
        m.graph.outputs.truncate(14);
        assert_eq!(run_graph(&m, &[tensor(1.0)]).unwrap().len(), 14);
    }
}

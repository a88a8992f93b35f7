//! Running a model's graph node by node with an in-process operator implementation (the
//! native backend passes the implementation's `ops::run`). [`Plan::new`] is the one place
//! that checks each node's domain and resolves its operator version.

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

/// A model checked for running: every node in the default domain, with its operator version
/// resolved at the model's opset.
#[derive(Debug)]
pub struct Plan<'m> {
    model: &'m Model,
    /// Per node, its operator version; `None` for a Constant, which needs no kernel.
    versions: Vec<Option<OpVersion>>,
}

impl<'m> Plan<'m> {
    /// Checks every node of `model`; an operator of another domain, or one the version table
    /// does not have at the model's opset, is an error naming the node.
    pub fn new(model: &'m Model) -> Result<Plan<'m>, Error> {
        let opset = model.opset;
        let versions = model
            .graph
            .nodes
            .iter()
            .enumerate()
            .map(|(index, node)| {
                let label = format!("node {index} ({})", node.op_type);
                if is_constant(node) {
                    return Ok(None);
                }
                if !is_default_domain(&node.domain) {
                    return Err(Error::msg(format!(
                        "{label}: domain '{}' is not supported, only the default domain",
                        node.domain
                    )));
                }
                OpVersion::resolve(&node.op_type, opset)
                    .map(Some)
                    .map_err(|e| Error::msg(format!("{label} at opset {opset}: {e}")))
            })
            .collect::<Result<_, _>>()?;
        Ok(Plan { model, versions })
    }

    /// Binds `inputs` to the graph inputs by position, runs every node in order, and returns
    /// the graph outputs in declared order. Extra graph inputs that no node uses are accepted.
    /// A run that would create more elements than [`run_budget`] allows is an error. `run_op`
    /// runs each node.
    pub fn run(&self, inputs: &[Tensor], run_op: RunOp<'_>) -> Result<Vec<Tensor>, Error> {
        run_graph(self.model, &self.versions, inputs, run_op)
    }
}

fn run_graph(
    model: &Model,
    versions: &[Option<OpVersion>],
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
    for (index, (node, &version)) in graph.nodes.iter().zip(versions).enumerate() {
        let produced = run_node(node, index, version, &values, &mut budget, run_op)?;
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

/// The op_type of a node that holds its output as the attribute `value`: a graph's constant,
/// which an evaluator needs no kernel for (runtimes fold it, the constant-folding path).
pub const CONSTANT: &str = "Constant";

/// Whether `node` is a `Constant` of the default domain, which [`Plan::run`] evaluates itself.
pub fn is_constant(node: &Node) -> bool {
    node.op_type == CONSTANT && is_default_domain(&node.domain)
}

/// The tensor of a `Constant` node's `value` attribute (the only form evaluated here).
fn constant_value(node: &Node, label: &str) -> Result<Vec<Tensor>, Error> {
    let value = node.attributes.iter().find(|a| a.name == "value");
    match value.map(|a| &a.value) {
        Some(vocab::AttrValue::Tensor(t)) if node.outputs.len() == 1 => Ok(vec![t.clone()]),
        _ => Err(Error::msg(format!(
            "{label}: only a Constant with one output and a tensor attribute 'value' is supported"
        ))),
    }
}

/// Runs one node on the values bound so far; returns exactly one tensor per declared output.
fn run_node(
    node: &Node,
    index: usize,
    version: Option<OpVersion>,
    values: &HashMap<&str, Cow<'_, Tensor>>,
    budget: &mut Budget,
    run_op: RunOp<'_>,
) -> Result<Vec<Tensor>, Error> {
    let label = format!("node {index} ({})", node.op_type);
    let Some(version) = version else {
        let out = constant_value(node, &label)?;
        budget.take(out[0].len(), &label)?;
        return Ok(out);
    };
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
mod tests;

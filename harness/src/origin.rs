//! Where an output element came from, for the mismatch lines of a failing trial: the input
//! element at the same index for the element-wise Cast and CastLike, and the input and index
//! an element of Concat was copied from.

use crate::case::Graph;
use crate::compare::elem::Compared;
use crate::compare::multi_index;
use vocab::AttrValue;
use vocab::{with_storage, Tensor};

/// How the output elements of a graph map to its input elements.
pub enum Origins<'a> {
    /// Output element k comes from element k of this input (Cast, CastLike).
    Elementwise(&'a Tensor),
    /// The output is the concatenation of these named inputs along `axis`.
    Concat {
        /// The inputs, in the node's order, with their graph names.
        inputs: Vec<(&'a str, &'a Tensor)>,
        /// The axis, non-negative.
        axis: usize,
    },
    /// Not known (another operator, or a graph of several nodes).
    Unknown,
}

impl<'a> Origins<'a> {
    /// The origins for a graph whose operator under test is `op_type`, run on `inputs`
    /// (bound to the graph's declared inputs by position).
    pub fn of(op_type: Option<&str>, graph: &'a Graph, inputs: &'a [Tensor]) -> Origins<'a> {
        match op_type {
            // CastLike's second input only names the type; an expanded CastLike still reads
            // its values from the first input.
            Some("Cast" | "CastLike") => inputs
                .first()
                .map_or(Origins::Unknown, Origins::Elementwise),
            Some("Concat") => concat(graph, inputs).unwrap_or(Origins::Unknown),
            _ => Origins::Unknown,
        }
    }

    /// `input <value> (<hex>)` or `from input K ("name") [i, j]: <value> (<hex>)` for element
    /// `flat` of output `output`, when known.
    pub fn describe(&self, output: usize, out_shape: &[usize], flat: usize) -> Option<String> {
        if output != 0 {
            return None;
        }
        match self {
            Origins::Elementwise(input) if input.len() == out_shape.iter().product::<usize>() => {
                Some(format!("input {}", element(input, flat)?))
            }
            Origins::Concat { inputs, axis } => {
                let mut index = multi_index(out_shape, flat);
                let at = index.get_mut(*axis)?;
                for (k, (name, input)) in inputs.iter().enumerate() {
                    let extent = *input.shape().get(*axis)?;
                    if *at < extent {
                        let within = flat_index(input.shape(), &index)?;
                        let shown = join(&index);
                        let value = element(input, within)?;
                        return Some(format!("from input {k} ({name:?}) [{shown}]: {value}"));
                    }
                    *at -= extent;
                }
                None
            }
            _ => None,
        }
    }
}

/// The Concat node's inputs and axis, when the graph is one Concat node over graph inputs.
fn concat<'a>(graph: &'a Graph, inputs: &'a [Tensor]) -> Option<Origins<'a>> {
    let [node] = graph.nodes.as_slice() else {
        return None;
    };
    if node.op_type != "Concat" {
        return None;
    }
    let axis = match node.attributes.iter().find(|a| a.name == "axis") {
        Some(a) => match a.value {
            AttrValue::Int(v) => v,
            _ => return None,
        },
        // Concat-1's default.
        None => 1,
    };
    let bound: Vec<(&str, &Tensor)> = node
        .inputs
        .iter()
        .map(|name| {
            let k = graph.inputs.iter().position(|v| &v.name == name)?;
            Some((name.as_str(), inputs.get(k)?))
        })
        .collect::<Option<_>>()?;
    let rank = bound.first()?.1.shape().len() as i64;
    let axis = if axis < 0 { axis + rank } else { axis };
    let axis = usize::try_from(axis).ok().filter(|&a| (a as i64) < rank)?;
    Some(Origins::Concat {
        inputs: bound,
        axis,
    })
}

/// Element `flat` of `t` in decimal and hex, as the mismatch lines spell values.
fn element(t: &Tensor, flat: usize) -> Option<String> {
    with_storage!(t.storage(), s => s.get(flat).map(|v| format!("{} ({})", v.decimal(), v.hex())))
}

/// The row-major flat index of `index` in `shape`, if inside.
fn flat_index(shape: &[usize], index: &[usize]) -> Option<usize> {
    if shape.len() != index.len() || index.iter().zip(shape).any(|(i, d)| i >= d) {
        return None;
    }
    Some(index.iter().zip(shape).fold(0, |acc, (i, d)| acc * d + i))
}

fn join(index: &[usize]) -> String {
    let parts: Vec<String> = index.iter().map(usize::to_string).collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests;

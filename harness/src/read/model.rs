//! ModelProto to [`Model`]: the default-domain opset, the graph's nodes with decoded
//! attributes, declared inputs and outputs, and initializers.

use super::tensor_proto::decode_tensor;
use crate::case::{Graph, Model, Node, ValueInfo};
use crate::codes as attribute;
use crate::error::Error;
use crate::proto::{AttributeProto, GraphProto, ModelProto, NodeProto, ValueInfoProto};
use vocab::DataType;
use vocab::{AttrValue, Attribute};

/// Converts a decoded ModelProto. Errors name the part concerned but no file.
pub fn convert_model(mp: ModelProto) -> Result<Model, Error> {
    let opset = default_opset(&mp)?;
    let graph = mp.graph.ok_or_else(|| Error::msg("model has no graph"))?;
    Ok(Model {
        ir_version: mp.ir_version,
        producer: mp.producer_name,
        opset,
        graph: convert_graph(graph)?,
    })
}

pub use schema::is_default_domain;

/// The opset imported for the default domain (`""`, absent, or `"ai.onnx"`).
fn default_opset(mp: &ModelProto) -> Result<i64, Error> {
    schema::default_opset(mp).map_err(|e| Error::msg(e.to_string()))
}

fn convert_graph(gp: GraphProto) -> Result<Graph, Error> {
    let nodes = gp
        .node
        .into_iter()
        .enumerate()
        .map(|(i, n)| convert_node(n, i))
        .collect::<Result<_, _>>()?;
    let inputs = value_infos(&gp.input, "input")?;
    let outputs = value_infos(&gp.output, "output")?;
    let initializers = gp
        .initializer
        .iter()
        .map(|tp| {
            let t = decode_tensor(tp, None).map_err(|e| prefix("initializer", e))?;
            Ok((tp.name.clone(), t))
        })
        .collect::<Result<_, Error>>()?;
    Ok(Graph {
        name: gp.name,
        nodes,
        inputs,
        outputs,
        initializers,
    })
}

fn prefix(what: &str, e: Error) -> Error {
    let message = format!("{what} {}", e.message());
    match e {
        Error::Case { path, .. } => Error::Case { path, message },
        _ => Error::msg(message),
    }
}

fn convert_node(np: NodeProto, index: usize) -> Result<Node, Error> {
    let attributes = np
        .attribute
        .into_iter()
        .map(convert_attribute)
        .collect::<Result<_, String>>()
        .map_err(|m| Error::msg(format!("node {index} ({}): {m}", np.op_type)))?;
    Ok(Node {
        op_type: np.op_type,
        domain: np.domain.unwrap_or_default(),
        inputs: np.input,
        outputs: np.output,
        attributes,
    })
}

/// Converts one attribute by its declared type; old writers may leave the type UNDEFINED, and
/// then the field that holds a value decides.
fn convert_attribute(ap: AttributeProto) -> Result<Attribute, String> {
    let name = ap.name.clone();
    if !ap.ref_attr_name.is_empty() {
        return Err(format!(
            "attribute '{name}' refers to function attribute '{}', which is only valid inside a function",
            ap.ref_attr_name
        ));
    }
    let kind = if ap.r#type == attribute::UNDEFINED {
        inferred_type(&ap)
    } else {
        ap.r#type
    };
    let value = match kind {
        attribute::FLOAT => AttrValue::Float(ap.f()),
        attribute::INT => AttrValue::Int(ap.i()),
        attribute::STRING => AttrValue::String(ap.s.unwrap_or_default()),
        attribute::TENSOR => {
            let tp =
                ap.t.ok_or_else(|| format!("attribute '{name}' has type TENSOR but no tensor"))?;
            let t = decode_tensor(&tp, None)
                .map_err(|e| format!("attribute '{name}': {}", e.message()))?;
            AttrValue::Tensor(t)
        }
        attribute::FLOATS => AttrValue::Floats(ap.floats),
        attribute::INTS => AttrValue::Ints(ap.ints),
        attribute::STRINGS => AttrValue::Strings(ap.strings),
        other => AttrValue::Other(other),
    };
    Ok(Attribute { name, value })
}

/// The AttributeProto.type code an UNDEFINED-typed attribute must have, from its set field.
/// Zero scalars cannot be told apart on the wire, so a bare attribute counts as INT 0.
fn inferred_type(ap: &AttributeProto) -> i32 {
    if ap.t.is_some() {
        attribute::TENSOR
    } else if !ap.floats.is_empty() {
        attribute::FLOATS
    } else if !ap.ints.is_empty() {
        attribute::INTS
    } else if !ap.strings.is_empty() {
        attribute::STRINGS
    } else if !ap.s().is_empty() {
        attribute::STRING
    } else if ap.f() != 0.0 {
        attribute::FLOAT
    } else {
        attribute::INT
    }
}

fn value_infos(list: &[ValueInfoProto], role: &str) -> Result<Vec<ValueInfo>, Error> {
    list.iter()
        .enumerate()
        .map(|(k, vi)| {
            value_info(vi).map_err(|m| Error::msg(format!("graph {role} {k} '{}': {m}", vi.name)))
        })
        .collect()
}

/// A declared value: elem_type 0 or a non-tensor type leaves the dtype unknown; an unknown
/// code is an error, since the data of that position could not be decoded.
fn value_info(vi: &ValueInfoProto) -> Result<ValueInfo, String> {
    let tensor = vi.r#type.as_ref().and_then(|t| t.tensor_type.as_ref());
    let dtype = match tensor.map(|t| t.elem_type) {
        None | Some(0) => None,
        Some(code) => Some(
            DataType::from_code(code)
                .ok_or_else(|| format!("declares unknown elem_type {code}"))?,
        ),
    };
    let shape = match tensor.and_then(|t| t.shape.as_ref()) {
        None => None,
        Some(s) => Some(
            s.dim
                .iter()
                .map(|d| match d.dim_value {
                    Some(v) => usize::try_from(v)
                        .map(Some)
                        .map_err(|_| format!("declares dim {v}")),
                    None => Ok(None),
                })
                .collect::<Result<_, String>>()?,
        ),
    };
    Ok(ValueInfo {
        name: vi.name.clone(),
        dtype,
        shape,
    })
}

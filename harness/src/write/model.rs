//! Models as ModelProtos, as `helper.make_model(make_graph(...), opset_imports=[make_opsetid
//! ("", opset)], ir_version=..., producer_name=...)` writes them: `ir_version`,
//! `producer_name`, the graph (`node`, `name`, `initializer`, `input`, `output`) and one
//! opset import with the domain written as `""`. Nodes are `helper.make_node`'s (`input`,
//! `output`, `op_type`, the attributes sorted by name, no name or domain); declared values
//! are `make_tensor_value_info`'s (every dim a `dim_value`, a scalar an empty shape).

use super::{attribute, tensor, wire, Encoding};
use crate::proto::{GraphProto, ModelProto, NodeProto, OperatorSetIdProto, ValueInfoProto};
use prost::Message;
use vocab::{Attribute, DataType, Tensor};

/// One node.
#[derive(Clone, Debug)]
pub struct Node {
    /// The operator, as in `Cast`.
    pub op_type: String,
    /// The values it reads.
    pub inputs: Vec<String>,
    /// The values it writes.
    pub outputs: Vec<String>,
    /// Its attributes, in any order (written sorted by name).
    pub attributes: Vec<Attribute>,
}

/// A declared graph input or output: name, element type, shape.
pub type Declared = (String, DataType, Vec<usize>);

/// A model of one graph in the default domain.
#[derive(Clone, Debug)]
pub struct Model {
    /// The graph's name.
    pub name: String,
    /// ModelProto.ir_version.
    pub ir_version: i64,
    /// ModelProto.producer_name.
    pub producer: String,
    /// The version of the default-domain opset imported.
    pub opset: i64,
    /// The nodes, in order.
    pub nodes: Vec<Node>,
    /// The declared graph inputs.
    pub inputs: Vec<Declared>,
    /// Initializers, written as tensors in the graph.
    pub initializers: Vec<(String, Tensor)>,
    /// The declared graph outputs.
    pub outputs: Vec<Declared>,
}

/// A tensor-typed ValueInfoProto with every dim a `dim_value`.
pub fn value_info(name: &str, dtype: DataType, shape: &[usize]) -> ValueInfoProto {
    let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    ValueInfoProto::tensor(name, dtype.code(), &dims)
}

fn node(n: &Node, encoding: Encoding) -> NodeProto {
    let mut attributes: Vec<&Attribute> = n.attributes.iter().collect();
    attributes.sort_by(|a, b| a.name.cmp(&b.name));
    NodeProto {
        input: n.inputs.clone(),
        output: n.outputs.clone(),
        op_type: n.op_type.clone(),
        attribute: attributes
            .into_iter()
            .map(|a| attribute::proto_in(a, encoding))
            .collect(),
        ..Default::default()
    }
}

/// `model` as a ModelProto in `encoding` ([`Encoding::ZeroOmitted`] leaves the opset domain
/// out; tensors and attributes are written in `encoding`). [`Encoding::PackedDims`] differs
/// from onnx only on the wire ([`encode`]).
pub fn proto(model: &Model, encoding: Encoding) -> ModelProto {
    let declared = |list: &[Declared]| -> Vec<ValueInfoProto> {
        list.iter().map(|(n, d, s)| value_info(n, *d, s)).collect()
    };
    let graph = GraphProto {
        node: model.nodes.iter().map(|n| node(n, encoding)).collect(),
        name: model.name.clone(),
        initializer: model
            .initializers
            .iter()
            .map(|(n, t)| tensor::proto(n, t, encoding))
            .collect(),
        input: declared(&model.inputs),
        output: declared(&model.outputs),
    };
    ModelProto {
        ir_version: model.ir_version,
        producer_name: model.producer.clone(),
        graph: Some(graph),
        opset_import: vec![OperatorSetIdProto {
            domain: (encoding != Encoding::ZeroOmitted).then(String::new),
            version: model.opset,
        }],
        ..Default::default()
    }
}

/// `model` as the bytes of a `model.onnx` in `encoding`.
pub fn encode(model: &Model, encoding: Encoding) -> Vec<u8> {
    let bytes = proto(model, encoding).encode_to_vec();
    match encoding {
        Encoding::PackedDims => wire::pack_dims_in_model(&bytes),
        _ => bytes,
    }
}

//! Models as ModelProtos, as `helper.make_model(make_graph(...), opset_imports=[make_opsetid
//! ("", opset)], ir_version=..., producer_name=...)` writes them: `ir_version`,
//! `producer_name`, the graph (`node`, `name`, `initializer`, `input`, `output`) and one
//! opset import with the domain written as `""`. Nodes are `helper.make_node`'s (`input`,
//! `output`, `op_type`, the attributes sorted by name, no name or domain); declared values
//! are `make_tensor_value_info`'s (every dim a `dim_value`, a scalar an empty shape).

use super::{attribute, tensor, wire, Encoding};
use crate::case::{Model, Node, ValueInfo};
use crate::proto::{
    Dimension, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorShapeProto,
    TensorTypeProto, TypeProto, ValueInfoProto,
};
use prost::Message;
use vocab::{Attribute, DataType};

/// A tensor-typed ValueInfoProto with every dim a `dim_value`.
pub fn value_info(name: &str, dtype: DataType, shape: &[usize]) -> ValueInfoProto {
    let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    ValueInfoProto::tensor(name, dtype.code(), &dims)
}

/// A declared value as `make_tensor_value_info` writes it: an undeclared element type as 0, an
/// unknown dim as an empty Dimension.
fn declared(vi: &ValueInfo) -> ValueInfoProto {
    let dim = |d: &Option<usize>| Dimension {
        dim_value: d.map(|d| d as i64),
        dim_param: None,
    };
    ValueInfoProto {
        name: vi.name.clone(),
        r#type: Some(TypeProto {
            tensor_type: Some(TensorTypeProto {
                elem_type: vi.dtype.map_or(0, DataType::code),
                shape: vi.shape.as_ref().map(|dims| TensorShapeProto {
                    dim: dims.iter().map(dim).collect(),
                }),
            }),
        }),
    }
}

fn node(n: &Node, encoding: Encoding) -> NodeProto {
    let mut attributes: Vec<&Attribute> = n.attributes.iter().collect();
    attributes.sort_by(|a, b| a.name.cmp(&b.name));
    NodeProto {
        input: n.inputs.clone(),
        output: n.outputs.clone(),
        op_type: n.op_type.clone(),
        domain: (!n.domain.is_empty()).then(|| n.domain.clone()),
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
    let g = &model.graph;
    let graph = GraphProto {
        node: g.nodes.iter().map(|n| node(n, encoding)).collect(),
        name: g.name.clone(),
        initializer: g
            .initializers
            .iter()
            .map(|(n, t)| tensor::proto(n, t, encoding))
            .collect(),
        input: g.inputs.iter().map(declared).collect(),
        output: g.outputs.iter().map(declared).collect(),
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

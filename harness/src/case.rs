//! A test case as read from disk: the model's graph and its data sets, with declared types applied.

use std::path::PathBuf;
use vocab::Attribute;
use vocab::{DataType, Tensor};

/// One case directory: `model.onnx` plus `test_data_set_N/`.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case directory.
    pub dir: PathBuf,
    /// The directory name, as in `test_cast_FLOAT_to_FLOAT16`.
    pub name: String,
    /// The model.
    pub model: Model,
    /// The data sets, in `test_data_set_N` order.
    pub data_sets: Vec<DataSet>,
}

/// What the harness needs of a `model.onnx`.
#[derive(Clone, Debug)]
pub struct Model {
    /// ModelProto.ir_version.
    pub ir_version: i64,
    /// ModelProto.producer_name.
    pub producer: String,
    /// The opset imported for the default domain (`""` or `"ai.onnx"`).
    pub opset: i64,
    /// The main graph.
    pub graph: Graph,
}

/// A graph: nodes in topological order plus declared inputs and outputs.
#[derive(Clone, Debug)]
pub struct Graph {
    /// GraphProto.name.
    pub name: String,
    /// The nodes, in file order.
    pub nodes: Vec<Node>,
    /// Declared inputs, in order; data-set inputs bind to these by position.
    pub inputs: Vec<ValueInfo>,
    /// Declared outputs, in order; data-set outputs bind to these by position.
    pub outputs: Vec<ValueInfo>,
    /// Initializers, by name.
    pub initializers: Vec<(String, Tensor)>,
}

/// One node.
#[derive(Clone, Debug)]
pub struct Node {
    /// NodeProto.op_type.
    pub op_type: String,
    /// NodeProto.domain (`""` when absent).
    pub domain: String,
    /// Input value names (an empty name is an omitted optional input).
    pub inputs: Vec<String>,
    /// Output value names.
    pub outputs: Vec<String>,
    /// Attributes, decoded.
    pub attributes: Vec<Attribute>,
}

/// A declared graph input or output.
#[derive(Clone, Debug)]
pub struct ValueInfo {
    /// The value name.
    pub name: String,
    /// The declared element type, if the type is a tensor type with a known elem_type.
    pub dtype: Option<DataType>,
    /// The declared dims: `Some(n)` for dim_value, `None` for symbolic or missing; `None`
    /// overall when no shape is declared.
    pub shape: Option<Vec<Option<usize>>>,
}

/// One `test_data_set_N` directory, tensors decoded with the graph's declared types.
#[derive(Clone, Debug)]
pub struct DataSet {
    /// The directory.
    pub dir: PathBuf,
    /// `input_K.pb`, K = 0.., bound to `graph.inputs[K]`.
    pub inputs: Vec<Tensor>,
    /// `output_K.pb`, K = 0.., bound to `graph.outputs[K]`.
    pub outputs: Vec<Tensor>,
}

impl Node {
    /// A node of the default domain.
    pub fn new(
        op_type: &str,
        inputs: &[&str],
        outputs: &[&str],
        attributes: Vec<Attribute>,
    ) -> Node {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        Node {
            op_type: op_type.into(),
            domain: String::new(),
            inputs: names(inputs),
            outputs: names(outputs),
            attributes,
        }
    }
}

impl ValueInfo {
    /// A tensor of `dtype` with every dim known.
    pub fn tensor(name: &str, dtype: DataType, dims: &[usize]) -> ValueInfo {
        ValueInfo {
            name: name.into(),
            dtype: Some(dtype),
            shape: Some(dims.iter().map(|&d| Some(d)).collect()),
        }
    }
}

//! The subset of the ONNX protobuf schema the harness reads, as hand-written prost messages.
//!
//! Field numbers (the `tag`s) are those of `onnx/onnx.proto`. Fields we never read are left
//! out; prost skips unknown fields, so newer files still decode. `int32`/`int64` fields are
//! plain varints.
//!
//! Encoded with prost, these messages give the bytes `onnx.save` gives for the same content
//! (docs/semantics.md §5.1): fields in number order; `dims`, `floats` and `ints` unpacked, as
//! proto2 writes a repeated scalar not marked `[packed = true]` (the typed data fields are
//! marked, and stay packed); and the proto2 fields onnx sets to a zero or empty value
//! (`AttributeProto.i`, `f`, `s`; a domain `""`) are `Option`s, written whenever set.
//! Decoding accepts either form of every repeated scalar, as protobuf requires.

/// ModelProto: the top-level container of a `model.onnx`. Model-local functions (field 25,
/// none in the official cases) are left out like every unread field: a node that calls one
/// names an operator or domain the executor rejects.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ModelProto {
    /// The IR version the file was written with.
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// The tool that wrote the model.
    #[prost(string, tag = "2")]
    pub producer_name: String,
    /// That tool's version.
    #[prost(string, tag = "3")]
    pub producer_version: String,
    /// The graph the model runs.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// The operator sets the model imports.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
}

/// OperatorSetIdProto: a (domain, version) import.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OperatorSetIdProto {
    /// The operator domain; `""`, absent or `"ai.onnx"` is the default domain (onnx writes
    /// `""`).
    #[prost(string, optional, tag = "1")]
    pub domain: Option<String>,
    /// The version of that domain's operator set.
    #[prost(int64, tag = "2")]
    pub version: i64,
}

/// GraphProto: nodes plus declared inputs and outputs.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphProto {
    /// The nodes, in an order where each reads only values defined before it.
    #[prost(message, repeated, tag = "1")]
    pub node: Vec<NodeProto>,
    /// The graph's name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// Constant tensors bound to names.
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
    /// The graph's inputs, with their declared types.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// The graph's outputs, with their declared types.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
}

/// NodeProto: one operator application.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeProto {
    /// The names of the values the node reads, in operand order; `""` skips an optional one.
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    /// The names of the values the node writes.
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    /// The node's name, for messages only.
    #[prost(string, tag = "3")]
    pub name: String,
    /// The operator's name, such as `Cast`.
    #[prost(string, tag = "4")]
    pub op_type: String,
    /// The node's attributes.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
    /// The operator domain; empty or absent means the default domain.
    #[prost(string, optional, tag = "7")]
    pub domain: Option<String>,
}

/// AttributeProto: a named attribute value; `r#type` says which field holds it.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributeProto {
    /// The attribute's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// The value of a FLOAT attribute (absent reads as 0).
    #[prost(float, optional, tag = "2")]
    pub f: Option<f32>,
    /// The value of an INT attribute (absent reads as 0; onnx writes `axis=0` as `18 00`).
    #[prost(int64, optional, tag = "3")]
    pub i: Option<i64>,
    /// The bytes of a STRING attribute (absent reads as empty).
    #[prost(bytes = "vec", optional, tag = "4")]
    pub s: Option<Vec<u8>>,
    /// The value of a TENSOR attribute.
    #[prost(message, optional, tag = "5")]
    pub t: Option<TensorProto>,
    /// The values of a FLOATS attribute (unpacked, as proto2 writes them).
    #[prost(float, repeated, packed = "false", tag = "7")]
    pub floats: Vec<f32>,
    /// The values of an INTS attribute (unpacked, as proto2 writes them).
    #[prost(int64, repeated, packed = "false", tag = "8")]
    pub ints: Vec<i64>,
    /// The values of a STRINGS attribute.
    #[prost(bytes = "vec", repeated, tag = "9")]
    pub strings: Vec<Vec<u8>>,
    /// Which field holds the value: AttributeProto.AttributeType (0 UNDEFINED, 1 FLOAT, 2 INT,
    /// 3 STRING, 4 TENSOR, 6 FLOATS, 7 INTS, 8 STRINGS, ...).
    #[prost(int32, tag = "20")]
    pub r#type: i32,
    /// A reference to a function attribute (not valid in a graph).
    #[prost(string, tag = "21")]
    pub ref_attr_name: String,
}

/// ValueInfoProto: a name with its declared type.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValueInfoProto {
    /// The value's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Its declared type, if any.
    #[prost(message, optional, tag = "2")]
    pub r#type: Option<TypeProto>,
}

impl ValueInfoProto {
    /// A tensor-typed value with every dim given as a number (as test cases declare them).
    pub fn tensor(name: &str, elem_type: i32, dims: &[i64]) -> ValueInfoProto {
        let dim = dims
            .iter()
            .map(|&d| Dimension {
                dim_value: Some(d),
                dim_param: None,
            })
            .collect();
        ValueInfoProto {
            name: name.into(),
            r#type: Some(TypeProto {
                tensor_type: Some(TensorTypeProto {
                    elem_type,
                    shape: Some(TensorShapeProto { dim }),
                }),
            }),
        }
    }
}

/// TypeProto: only the tensor case is read; others leave `tensor_type` empty.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TypeProto {
    /// The tensor case of the type (absent for sequences, maps and the like).
    #[prost(message, optional, tag = "1")]
    pub tensor_type: Option<TensorTypeProto>,
}

/// TypeProto.Tensor: element type and optional shape.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorTypeProto {
    /// The element type, a TensorProto.DataType code.
    #[prost(int32, tag = "1")]
    pub elem_type: i32,
    /// The declared shape; absent when the rank is unknown.
    #[prost(message, optional, tag = "2")]
    pub shape: Option<TensorShapeProto>,
}

/// TensorShapeProto: a list of dimensions.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorShapeProto {
    /// One entry per axis, outermost first.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<Dimension>,
}

/// TensorShapeProto.Dimension: a number, a symbolic name, or neither.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Dimension {
    /// A fixed size.
    #[prost(int64, optional, tag = "1")]
    pub dim_value: Option<i64>,
    /// A symbolic size, such as `N`.
    #[prost(string, optional, tag = "2")]
    pub dim_param: Option<String>,
}

/// TensorProto: a serialized tensor (input_N.pb / output_N.pb, initializers, attributes).
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorProto {
    /// The shape, outermost axis first; empty for a scalar. Unpacked, one `08 xx` per
    /// dimension, as onnx writes it (readers accept the packed form too).
    #[prost(int64, repeated, packed = "false", tag = "1")]
    pub dims: Vec<i64>,
    /// The element type, a TensorProto.DataType code.
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// A slice of a larger tensor; we reject tensors that set it.
    #[prost(message, optional, tag = "3")]
    pub segment: Option<Segment>,
    /// FLOAT values, and COMPLEX64 as (real, imaginary) pairs.
    #[prost(float, repeated, tag = "4")]
    pub float_data: Vec<f32>,
    /// INT32 values, and those of the narrower integer, bool and small-float types (floats as
    /// their bits).
    #[prost(int32, repeated, tag = "5")]
    pub int32_data: Vec<i32>,
    /// STRING values, one byte string per element.
    #[prost(bytes = "vec", repeated, tag = "6")]
    pub string_data: Vec<Vec<u8>>,
    /// INT64 values.
    #[prost(int64, repeated, tag = "7")]
    pub int64_data: Vec<i64>,
    /// The tensor's name: the value it binds in a test data set.
    #[prost(string, tag = "8")]
    pub name: String,
    /// Little-endian packed values; wins over the typed fields when present.
    #[prost(bytes = "vec", optional, tag = "9")]
    pub raw_data: Option<Vec<u8>>,
    /// DOUBLE values, and COMPLEX128 as (real, imaginary) pairs.
    #[prost(double, repeated, tag = "10")]
    pub double_data: Vec<f64>,
    /// UINT32 and UINT64 values.
    #[prost(uint64, repeated, tag = "11")]
    pub uint64_data: Vec<u64>,
    /// Key/value pairs locating data in another file.
    #[prost(message, repeated, tag = "13")]
    pub external_data: Vec<StringStringEntryProto>,
    /// Where the data is: 0 DEFAULT (in this message), 1 EXTERNAL (`external_data`).
    #[prost(int32, tag = "14")]
    pub data_location: i32,
}

/// TensorProto.Segment.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Segment {
    /// Where the slice starts in the whole tensor.
    #[prost(int64, tag = "1")]
    pub begin: i64,
    /// Where it ends.
    #[prost(int64, tag = "2")]
    pub end: i64,
}

/// StringStringEntryProto: a key/value pair.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StringStringEntryProto {
    /// The key (for external data: `location`, `offset`, `length`, ...).
    #[prost(string, tag = "1")]
    pub key: String,
    /// The value.
    #[prost(string, tag = "2")]
    pub value: String,
}

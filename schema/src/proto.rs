//! The subset of the ONNX protobuf schema the harness reads, as hand-written prost messages.
//!
//! Field numbers are those of `onnx/onnx.proto`. Fields we never read are left out; prost
//! skips unknown fields, so newer files still decode. `int32`/`int64` fields are plain varints.

/// ModelProto: the top-level container of a `model.onnx`. Model-local functions (field 25,
/// none in the official cases) are left out like every unread field: a node that calls one
/// names an operator or domain the executor rejects.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ModelProto {
    /// Field 1.
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// Field 2.
    #[prost(string, tag = "2")]
    pub producer_name: String,
    /// Field 3.
    #[prost(string, tag = "3")]
    pub producer_version: String,
    /// Field 7.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// Field 8: the operator sets the model imports.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
}

/// OperatorSetIdProto: a (domain, version) import.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OperatorSetIdProto {
    /// Field 1; `""` or `"ai.onnx"` is the default domain.
    #[prost(string, tag = "1")]
    pub domain: String,
    /// Field 2.
    #[prost(int64, tag = "2")]
    pub version: i64,
}

/// GraphProto: nodes plus declared inputs and outputs.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphProto {
    /// Field 1.
    #[prost(message, repeated, tag = "1")]
    pub node: Vec<NodeProto>,
    /// Field 2.
    #[prost(string, tag = "2")]
    pub name: String,
    /// Field 5: constant tensors bound to names.
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
    /// Field 11.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// Field 12.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
}

/// NodeProto: one operator application.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeProto {
    /// Field 1.
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    /// Field 2.
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    /// Field 3.
    #[prost(string, tag = "3")]
    pub name: String,
    /// Field 4.
    #[prost(string, tag = "4")]
    pub op_type: String,
    /// Field 5.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
    /// Field 7; absent means the default domain.
    #[prost(string, tag = "7")]
    pub domain: String,
}

/// AttributeProto: a named attribute value; `r#type` says which field holds it.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributeProto {
    /// Field 1.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Field 2.
    #[prost(float, tag = "2")]
    pub f: f32,
    /// Field 3.
    #[prost(int64, tag = "3")]
    pub i: i64,
    /// Field 4.
    #[prost(bytes = "vec", tag = "4")]
    pub s: Vec<u8>,
    /// Field 5.
    #[prost(message, optional, tag = "5")]
    pub t: Option<TensorProto>,
    /// Field 7.
    #[prost(float, repeated, tag = "7")]
    pub floats: Vec<f32>,
    /// Field 8.
    #[prost(int64, repeated, tag = "8")]
    pub ints: Vec<i64>,
    /// Field 9.
    #[prost(bytes = "vec", repeated, tag = "9")]
    pub strings: Vec<Vec<u8>>,
    /// Field 20: AttributeProto.AttributeType (0 UNDEFINED, 1 FLOAT, 2 INT, 3 STRING, 4 TENSOR,
    /// 6 FLOATS, 7 INTS, 8 STRINGS, ...).
    #[prost(int32, tag = "20")]
    pub r#type: i32,
    /// Field 21: a reference to a function attribute (not valid in a graph).
    #[prost(string, tag = "21")]
    pub ref_attr_name: String,
}

/// ValueInfoProto: a name with its declared type.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValueInfoProto {
    /// Field 1.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Field 2.
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
    /// Field 1.
    #[prost(message, optional, tag = "1")]
    pub tensor_type: Option<TensorTypeProto>,
}

/// TypeProto.Tensor: element type and optional shape.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorTypeProto {
    /// Field 1: a TensorProto.DataType code.
    #[prost(int32, tag = "1")]
    pub elem_type: i32,
    /// Field 2.
    #[prost(message, optional, tag = "2")]
    pub shape: Option<TensorShapeProto>,
}

/// TensorShapeProto: a list of dimensions.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorShapeProto {
    /// Field 1.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<Dimension>,
}

/// TensorShapeProto.Dimension: a number, a symbolic name, or neither.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Dimension {
    /// Field 1.
    #[prost(int64, optional, tag = "1")]
    pub dim_value: Option<i64>,
    /// Field 2.
    #[prost(string, optional, tag = "2")]
    pub dim_param: Option<String>,
}

/// TensorProto: a serialized tensor (input_N.pb / output_N.pb, initializers, attributes).
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorProto {
    /// Field 1.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// Field 2: a TensorProto.DataType code.
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// Field 3: a slice of a larger tensor; we reject tensors that set it.
    #[prost(message, optional, tag = "3")]
    pub segment: Option<Segment>,
    /// Field 4.
    #[prost(float, repeated, tag = "4")]
    pub float_data: Vec<f32>,
    /// Field 5.
    #[prost(int32, repeated, tag = "5")]
    pub int32_data: Vec<i32>,
    /// Field 6.
    #[prost(bytes = "vec", repeated, tag = "6")]
    pub string_data: Vec<Vec<u8>>,
    /// Field 7.
    #[prost(int64, repeated, tag = "7")]
    pub int64_data: Vec<i64>,
    /// Field 8.
    #[prost(string, tag = "8")]
    pub name: String,
    /// Field 9: little-endian packed values; wins over the typed fields when present.
    #[prost(bytes = "vec", optional, tag = "9")]
    pub raw_data: Option<Vec<u8>>,
    /// Field 10.
    #[prost(double, repeated, tag = "10")]
    pub double_data: Vec<f64>,
    /// Field 11.
    #[prost(uint64, repeated, tag = "11")]
    pub uint64_data: Vec<u64>,
    /// Field 13: key/value pairs locating data in another file.
    #[prost(message, repeated, tag = "13")]
    pub external_data: Vec<StringStringEntryProto>,
    /// Field 14: 0 DEFAULT, 1 EXTERNAL.
    #[prost(int32, tag = "14")]
    pub data_location: i32,
}

/// TensorProto.Segment.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Segment {
    /// Field 1.
    #[prost(int64, tag = "1")]
    pub begin: i64,
    /// Field 2.
    #[prost(int64, tag = "2")]
    pub end: i64,
}

/// StringStringEntryProto: a key/value pair.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StringStringEntryProto {
    /// Field 1.
    #[prost(string, tag = "1")]
    pub key: String,
    /// Field 2.
    #[prost(string, tag = "2")]
    pub value: String,
}

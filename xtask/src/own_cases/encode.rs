//! Encoding an own case as ONNX protobuf: typed values, tensors, value infos and the model.

use half::{bf16, f16};
use schema::proto::{
    GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorProto, ValueInfoProto,
};

use super::specs::Spec;
use vocab::DataType;

/// The values of one test tensor, typed.
#[derive(Clone, Debug)]
pub(super) enum Values {
    F32(Vec<f32>),
    F64(Vec<f64>),
    F16(Vec<f16>),
    Bf16(Vec<bf16>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U64(Vec<u64>),
    Bool(Vec<bool>),
    Str(Vec<&'static str>),
}

impl Values {
    /// The element type, whose row in the type table gives the TensorProto.DataType code.
    fn dtype(&self) -> DataType {
        match self {
            Values::F32(_) => DataType::Float,
            Values::U8(_) => DataType::Uint8,
            Values::I8(_) => DataType::Int8,
            Values::U16(_) => DataType::Uint16,
            Values::I16(_) => DataType::Int16,
            Values::I32(_) => DataType::Int32,
            Values::I64(_) => DataType::Int64,
            Values::Str(_) => DataType::String,
            Values::Bool(_) => DataType::Bool,
            Values::F16(_) => DataType::Float16,
            Values::F64(_) => DataType::Double,
            Values::U64(_) => DataType::Uint64,
            Values::Bf16(_) => DataType::Bfloat16,
        }
    }

    /// Little-endian raw_data, or `None` for strings (which never use raw_data).
    fn raw(&self) -> Option<Vec<u8>> {
        fn le<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
            v.iter().flat_map(|&x| f(x)).collect()
        }
        Some(match self {
            Values::F32(v) => le(v, f32::to_le_bytes),
            Values::F64(v) => le(v, f64::to_le_bytes),
            Values::F16(v) => le(v, |x: f16| x.to_bits().to_le_bytes()),
            Values::Bf16(v) => le(v, |x: bf16| x.to_bits().to_le_bytes()),
            Values::I8(v) => le(v, i8::to_le_bytes),
            Values::I16(v) => le(v, i16::to_le_bytes),
            Values::I32(v) => le(v, i32::to_le_bytes),
            Values::I64(v) => le(v, i64::to_le_bytes),
            Values::U8(v) => v.clone(),
            Values::U16(v) => le(v, u16::to_le_bytes),
            Values::U64(v) => le(v, u64::to_le_bytes),
            Values::Bool(v) => v.iter().map(|&b| b as u8).collect(),
            Values::Str(_) => return None,
        })
    }
}

/// A tensor of a case: shape plus values.
#[derive(Clone, Debug)]
pub(super) struct T {
    pub(super) shape: Vec<usize>,
    pub(super) values: Values,
}

pub(super) fn t(shape: &[usize], values: Values) -> T {
    T {
        shape: shape.to_vec(),
        values,
    }
}

pub(super) fn tensor_proto(name: &str, t: &T) -> TensorProto {
    let string_data = match &t.values {
        Values::Str(v) => v.iter().map(|s| s.as_bytes().to_vec()).collect(),
        _ => Vec::new(),
    };
    TensorProto {
        name: name.into(),
        dims: t.shape.iter().map(|&d| d as i64).collect(),
        data_type: t.values.dtype().code(),
        raw_data: t.values.raw(),
        string_data,
        ..Default::default()
    }
}

fn value_info(name: &str, t: &T) -> ValueInfoProto {
    let dims: Vec<i64> = t.shape.iter().map(|&d| d as i64).collect();
    ValueInfoProto::tensor(name, t.values.dtype().code(), &dims)
}

pub(super) fn model(spec: &Spec) -> ModelProto {
    let in_names: Vec<String> = (0..spec.inputs.len()).map(|i| format!("x{i}")).collect();
    let out_names: Vec<String> = (0..spec.outputs.len()).map(|i| format!("y{i}")).collect();
    let graph = GraphProto {
        name: spec.name.into(),
        node: vec![NodeProto {
            input: in_names.clone(),
            output: out_names.clone(),
            op_type: spec.op.into(),
            attribute: spec.attrs.clone(),
            ..Default::default()
        }],
        input: in_names
            .iter()
            .zip(&spec.inputs)
            .map(|(n, t)| value_info(n, t))
            .collect(),
        output: out_names
            .iter()
            .zip(&spec.outputs)
            .map(|(n, t)| value_info(n, t))
            .collect(),
        ..Default::default()
    };
    ModelProto {
        ir_version: 3,
        producer_name: "onnx-conformance own-cases".into(),
        graph: Some(graph),
        opset_import: vec![OperatorSetIdProto {
            domain: String::new(),
            version: spec.opset,
        }],
        ..Default::default()
    }
}

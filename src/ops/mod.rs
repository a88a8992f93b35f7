//! Operator versions and the entry point that runs one node: Cast, CastLike, Concat.

use crate::error::Error;
use crate::tensor::Tensor;

/// An attribute value as a node carries it.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// FLOAT.
    Float(f32),
    /// INT.
    Int(i64),
    /// STRING (bytes; ONNX does not promise UTF-8).
    String(Vec<u8>),
    /// FLOATS.
    Floats(Vec<f32>),
    /// INTS.
    Ints(Vec<i64>),
    /// STRINGS.
    Strings(Vec<Vec<u8>>),
    /// TENSOR.
    Tensor(Tensor),
    /// Any other attribute type (GRAPH, SPARSE_TENSOR, ...), by its AttributeProto.type code.
    Other(i32),
}

/// A named attribute.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The attribute's name, as in `to` or `axis`.
    pub name: String,
    /// Its value.
    pub value: AttrValue,
}

/// The operators this crate implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpKind {
    /// Cast.
    Cast,
    /// CastLike.
    CastLike,
    /// Concat.
    Concat,
}

/// An operator at the version (since-version) in effect for some model opset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpVersion {
    /// Which operator.
    pub op: OpKind,
    /// The operator's since-version, as in Cast-19.
    pub since: u32,
}

impl OpVersion {
    /// The version of `op_type` (default domain) in effect at `opset`: the largest
    /// since-version not above it.
    pub fn resolve(op_type: &str, opset: i64) -> Result<OpVersion, Error> {
        let _ = (op_type, opset);
        Err(Error::NotImplemented("operator version resolution"))
    }
}

/// Runs one node of `version` on `inputs` (in node-input order) and returns its outputs.
pub fn run(
    version: OpVersion,
    attrs: &[Attribute],
    inputs: &[&Tensor],
) -> Result<Vec<Tensor>, Error> {
    let _ = (version, attrs, inputs);
    Err(Error::NotImplemented("operators"))
}

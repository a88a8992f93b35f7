//! Operator versions and the entry point that runs one node: Cast, CastLike, Concat.

pub mod attrs;
mod block_copy;
mod cast;
mod cast_string;
mod concat;
mod fast;
pub mod types;
pub mod version;

#[cfg(test)]
mod tests;

use crate::dtype::DataType;
use crate::error::Error;
use crate::formats::{CastRules, Generation};
use crate::tensor::Tensor;
use std::fmt;
use version::VersionSpec;

pub use cast::cast;
pub use version::{coverage_markdown, VERSIONS};

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
        version::resolve(op_type, opset)
    }

    /// This version's row of the version table (allowed types and attributes).
    pub fn spec(self) -> Result<&'static VersionSpec, Error> {
        version::spec_of(self)
    }
}

impl OpKind {
    /// The operator for an ONNX op_type (case-sensitive, default domain).
    pub fn from_name(op_type: &str) -> Option<OpKind> {
        match op_type {
            "Cast" => Some(OpKind::Cast),
            "CastLike" => Some(OpKind::CastLike),
            "Concat" => Some(OpKind::Concat),
            _ => None,
        }
    }

    /// The ONNX op_type.
    pub const fn name(self) -> &'static str {
        match self {
            OpKind::Cast => "Cast",
            OpKind::CastLike => "CastLike",
            OpKind::Concat => "Concat",
        }
    }
}

impl fmt::Display for OpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for OpVersion {
    /// As in `Cast-19`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.op, self.since)
    }
}

/// Runs one node of `version` on `inputs` (in node-input order) and returns its outputs.
pub fn run(
    version: OpVersion,
    attrs: &[Attribute],
    inputs: &[&Tensor],
) -> Result<Vec<Tensor>, Error> {
    let spec = version.spec()?;
    let resolved = attrs::resolve(spec, attrs)?;
    let out = match version.op {
        OpKind::Cast => {
            let [input] = exact_inputs(version, inputs, "exactly 1 input")?;
            check_type(spec, input.dtype(), "input 0")?;
            let to = resolved.to.ok_or(Error::MissingAttribute {
                op: version,
                name: "to",
            })?;
            cast(version, input, to, &rules(version, &resolved))?
        }
        OpKind::CastLike => {
            // Only the type of `target_type` matters; its values and shape are ignored.
            let [input, like] = exact_inputs(version, inputs, "exactly 2 inputs")?;
            check_type(spec, input.dtype(), "input 0")?;
            check_type(spec, like.dtype(), "input 1 (target_type)")?;
            // `round_mode` applies as in Cast (see `cast`'s module docs on the expansion).
            cast(version, input, like.dtype(), &rules(version, &resolved))?
        }
        OpKind::Concat => {
            let axis = resolved.axis.ok_or(Error::MissingAttribute {
                op: version,
                name: "axis",
            })?;
            concat::concat(spec, axis, inputs)?
        }
    };
    Ok(vec![out])
}

/// The conversion rules of a Cast/CastLike node.
fn rules(version: OpVersion, resolved: &attrs::Resolved) -> CastRules {
    CastRules {
        saturate: resolved.saturate,
        round_mode: resolved.round_mode,
        generation: Generation::of_version(version.since),
    }
}

/// The inputs as an array of exactly `N`, or an error naming the version.
fn exact_inputs<'a, const N: usize>(
    op: OpVersion,
    inputs: &[&'a Tensor],
    expected: &'static str,
) -> Result<[&'a Tensor; N], Error> {
    <[&Tensor; N]>::try_from(inputs).map_err(|_| Error::InputCount {
        op,
        expected,
        found: inputs.len(),
    })
}

/// Rejects `dtype` in `role` (such as `input 0`) if the version does not allow it.
pub(crate) fn check_type(spec: &VersionSpec, dtype: DataType, role: &str) -> Result<(), Error> {
    if spec.types.contains(dtype) {
        return Ok(());
    }
    let op = spec.version;
    Err(Error::TypeNotAllowed {
        op,
        dtype,
        role: role.to_owned(),
        allowed_from: version::type_allowed_from(op.op, op.since, dtype),
    })
}

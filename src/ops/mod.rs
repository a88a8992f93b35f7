//! The entry point that runs one node, attribute resolution and the kernels: Cast, CastLike,
//! Concat. The version table they follow is the `vocab` crate's, re-exported here.

pub mod attrs;
mod block_copy;
pub(crate) mod cast;
mod cast_string;
mod concat;
pub(crate) mod fast;

#[cfg(test)]
mod tests;

use crate::dtype::DataType;
use crate::error::Error;
use crate::formats::{CastRules, Generation, RoundMode};
use crate::tensor::Tensor;
use attrs::Resolved;
use version::VersionSpec;

// The operator vocabulary is the `vocab` crate's; re-exported for callers of `run`.
pub use vocab::{types, version};
pub use vocab::{AttrValue, Attribute, OpKind, OpVersion, VERSIONS};

/// Runs one node of `version` on `inputs` (in node-input order) and returns its outputs.
pub fn run(
    version: OpVersion,
    attrs: &[Attribute],
    inputs: &[&Tensor],
) -> Result<Vec<Tensor>, Error> {
    let spec = version.spec();
    let out = match attrs::resolve(spec, attrs)? {
        Resolved::Cast(a) => {
            let [input] = exact_inputs(version, inputs, "exactly 1 input")?;
            check_type(spec, input.dtype(), "input 0")?;
            let rules = rules(version, a.saturate, a.round_mode);
            cast::cast(version, input, a.to, &rules)?
        }
        Resolved::CastLike(a) => {
            // Only the type of `target_type` matters; its values and shape are ignored.
            let [input, like] = exact_inputs(version, inputs, "exactly 2 inputs")?;
            check_type(spec, input.dtype(), "input 0")?;
            check_type(spec, like.dtype(), "input 1 (target_type)")?;
            // `round_mode` applies as in Cast (see `cast`'s module docs on the expansion).
            let rules = rules(version, a.saturate, a.round_mode);
            cast::cast(version, input, like.dtype(), &rules)?
        }
        Resolved::Concat(a) => concat::concat(spec, a.axis, inputs)?,
    };
    Ok(vec![out])
}

/// The conversion rules of a Cast/CastLike node.
fn rules(version: OpVersion, saturate: bool, round_mode: RoundMode) -> CastRules {
    CastRules {
        saturate,
        round_mode,
        generation: Generation::of_version(version.since()),
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
    let op = spec.version();
    Err(Error::TypeNotAllowed {
        op,
        dtype,
        role: role.to_owned(),
        allowed_from: version::type_allowed_from(op.op(), op.since(), dtype),
    })
}

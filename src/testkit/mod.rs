//! Test-only fixtures shared by the tests of more than one module: the crate's one place for
//! them, so that no test module reaches into another's `tests`.

pub(crate) mod spec_vectors;

use crate::formats::{CastRules, Generation, RoundMode};
use crate::ops::{AttrValue, Attribute, OpKind, OpVersion};

/// The version `op`-`since` of the table; panics only on a bad test fixture.
pub(crate) fn version(op: OpKind, since: u32) -> OpVersion {
    OpVersion::of(op, since).unwrap_or_else(|| panic!("{op}-{since} is not in the table"))
}

/// An integer attribute `name` = `i`.
pub(crate) fn int(name: &str, i: i64) -> Attribute {
    Attribute {
        name: name.into(),
        value: AttrValue::Int(i),
    }
}

/// A string attribute `name` = `s`.
pub(crate) fn text(name: &str, s: &str) -> Attribute {
    Attribute {
        name: name.into(),
        value: AttrValue::String(s.as_bytes().to_vec()),
    }
}

/// Every combination of the rules that matter to the fast paths, for the fast-versus-exact
/// tests in `formats::fast` and in `ops`.
pub(crate) fn all_rules() -> Vec<CastRules> {
    let mut v = Vec::new();
    for saturate in [true, false] {
        for generation in [Generation::Before24, Generation::From24] {
            v.push(CastRules {
                saturate,
                round_mode: RoundMode::Up,
                generation,
            });
        }
    }
    v
}

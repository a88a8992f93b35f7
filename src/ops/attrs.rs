//! Attribute validation: checks a node's attributes against its version's table row and
//! resolves them, defaults applied, into one typed struct per operator.

use super::version::{attr_allowed_from, AttrDefault, AttrKind, AttrSpec, VersionSpec};
use super::{AttrValue, Attribute, OpKind};
use crate::dtype::DataType;
use crate::error::Error;
use crate::formats::RoundMode;
use std::borrow::Cow;

/// Cast's attributes, defaults applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastAttrs {
    /// The target type.
    pub to: DataType,
    /// `saturate` (on where the version predates it).
    pub saturate: bool,
    /// `round_mode` (up where the version predates it).
    pub round_mode: RoundMode,
}

/// CastLike's attributes, defaults applied (the target is the second input's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastLikeAttrs {
    /// `saturate` (on where the version predates it).
    pub saturate: bool,
    /// `round_mode` (up where the version predates it).
    pub round_mode: RoundMode,
}

/// Concat's attributes, defaults applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConcatAttrs {
    /// The axis as given (normalised against the rank by Concat itself, which knows it).
    pub axis: i64,
}

/// A node's attributes after validation, as the node's operator takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A Cast node's.
    Cast(CastAttrs),
    /// A CastLike node's.
    CastLike(CastLikeAttrs),
    /// A Concat node's.
    Concat(ConcatAttrs),
}

/// Validates `attrs` against `spec` and resolves them. Every rejection names the operator
/// version and the attribute. Names are checked first (duplicates, attributes the version
/// lacks, in node order), then each attribute the operator reads.
pub fn resolve(spec: &VersionSpec, attrs: &[Attribute]) -> Result<Resolved, Error> {
    let op = spec.version();
    for (i, attr) in attrs.iter().enumerate() {
        if attrs[..i].iter().any(|a| a.name == attr.name) {
            return Err(Error::DuplicateAttribute {
                op,
                name: attr.name.clone(),
            });
        }
        if !spec.attrs.iter().any(|a| a.name == attr.name) {
            return Err(Error::UnknownAttribute {
                op,
                name: attr.name.clone(),
                allowed_from: attr_allowed_from(op.op(), op.since(), &attr.name),
            });
        }
    }
    let given = Given { spec, attrs };
    Ok(match op.op() {
        OpKind::Cast => Resolved::Cast(CastAttrs {
            to: given.target()?,
            saturate: given.saturate()?,
            round_mode: given.round_mode()?,
        }),
        OpKind::CastLike => Resolved::CastLike(CastLikeAttrs {
            saturate: given.saturate()?,
            round_mode: given.round_mode()?,
        }),
        OpKind::Concat => Resolved::Concat(ConcatAttrs {
            axis: given.axis()?,
        }),
    })
}

/// A node's attributes (names already checked) with the row that defines them.
struct Given<'a> {
    spec: &'a VersionSpec,
    attrs: &'a [Attribute],
}

impl Given<'_> {
    /// The node's value of `name`, else the version's default; `None` if the version does not
    /// define the attribute. A required attribute that is absent is an error.
    fn value(&self, name: &'static str) -> Result<Option<(&AttrSpec, Cow<'_, AttrValue>)>, Error> {
        let Some(a) = self.spec.attrs.iter().find(|a| a.name == name) else {
            return Ok(None);
        };
        if let Some(given) = self.attrs.iter().find(|g| g.name == name) {
            return Ok(Some((a, Cow::Borrowed(&given.value))));
        }
        let default = match a.default {
            AttrDefault::Required => {
                return Err(Error::MissingAttribute {
                    op: self.spec.version(),
                    name,
                })
            }
            AttrDefault::Int(i) => AttrValue::Int(i),
            AttrDefault::Str(s) => AttrValue::String(s.as_bytes().to_vec()),
        };
        Ok(Some((a, Cow::Owned(default))))
    }

    /// The value of `name`, which every version of the operator defines; absent is an error.
    fn required(&self, name: &'static str) -> Result<(&AttrSpec, Cow<'_, AttrValue>), Error> {
        self.value(name)?.ok_or(Error::MissingAttribute {
            op: self.spec.version(),
            name,
        })
    }

    /// Cast's `to`, by name (Cast-1) or by code, allowed by the version.
    fn target(&self) -> Result<DataType, Error> {
        let (a, value) = self.required("to")?;
        let t = match (a.kind, value.as_ref()) {
            (AttrKind::TypeName, AttrValue::String(s)) => {
                let name = std::str::from_utf8(s).ok();
                name.and_then(DataType::from_name).ok_or_else(|| {
                    self.bad(
                        a,
                        quoted(s),
                        "a TensorProto.DataType name such as \"FLOAT\"".into(),
                    )
                })?
            }
            (AttrKind::TypeCode, AttrValue::Int(i)) => i32::try_from(*i)
                .ok()
                .and_then(DataType::from_code)
                .ok_or_else(|| self.bad(a, i.to_string(), expected_code()))?,
            (_, found) => return Err(self.wrong_type(a, found)),
        };
        super::check_type(self.spec, t, "target type")?;
        Ok(t)
    }

    /// `saturate`; on where the version predates it.
    fn saturate(&self) -> Result<bool, Error> {
        match self.value("saturate")? {
            None => Ok(true),
            Some((a, value)) => match value.as_ref() {
                AttrValue::Int(i @ (0 | 1)) => Ok(*i == 1),
                AttrValue::Int(i) => Err(self.bad(a, i.to_string(), "0 or 1".into())),
                found => Err(self.wrong_type(a, found)),
            },
        }
    }

    /// `round_mode`; up where the version predates it.
    fn round_mode(&self) -> Result<RoundMode, Error> {
        match self.value("round_mode")? {
            None => Ok(RoundMode::Up),
            Some((a, value)) => match value.as_ref() {
                AttrValue::String(s) => RoundMode::from_bytes(s).ok_or_else(|| {
                    self.bad(a, quoted(s), "\"up\", \"down\" or \"nearest\"".into())
                }),
                found => Err(self.wrong_type(a, found)),
            },
        }
    }

    /// Concat's `axis`. The range check needs the rank, so it happens in Concat itself.
    fn axis(&self) -> Result<i64, Error> {
        let (a, value) = self.required("axis")?;
        match value.as_ref() {
            AttrValue::Int(i) => Ok(*i),
            found => Err(self.wrong_type(a, found)),
        }
    }

    /// A value outside what the version accepts.
    fn bad(&self, a: &AttrSpec, value: String, expected: String) -> Error {
        Error::AttributeValue {
            op: self.spec.version(),
            name: a.name,
            value,
            expected,
        }
    }

    /// A value of the wrong AttributeProto type.
    fn wrong_type(&self, a: &AttrSpec, found: &AttrValue) -> Error {
        Error::AttributeType {
            op: self.spec.version(),
            name: a.name.to_owned(),
            expected: a.kind.proto_type(),
            found: found.type_name(),
        }
    }
}

/// What a `to` code must be: one of the data-type table's codes.
fn expected_code() -> String {
    let all = DataType::ALL;
    let (first, last) = (all[0].code(), all[all.len() - 1].code());
    format!("a TensorProto.DataType code, {first} to {last}")
}

/// A byte string for an error message: lossy UTF-8, quoted, cut to 40 characters.
fn quoted(s: &[u8]) -> String {
    let text: String = String::from_utf8_lossy(s).chars().take(40).collect();
    format!("{text:?}")
}

#[cfg(test)]
mod tests;

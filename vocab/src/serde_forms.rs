//! The serde forms of the vocabulary: each type as the string ONNX spells it (`Cast`,
//! `Cast-19`, `FLOAT16`), so that every file the project writes keeps the names people read
//! in the operator pages, and reading one back accepts only names the tables hold.

use crate::dtype::DataType;
use crate::op::{OpKind, OpVersion};

/// Implements `Serialize` and `Deserialize` for a type written as one string: `text(&value)`
/// writes it (anything `Display`), `parse(&str) -> Option<Self>` reads it back, and a string
/// `parse` refuses is an error saying `refusal(&text)`. For every type the project's files
/// spell as text (here, and the deep suite's index and findings).
#[macro_export]
macro_rules! serde_as_text {
    ($ty:ty, text: $text:expr, parse: $parse:expr, refusal: $refusal:expr $(,)?) => {
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(&($text)(self))
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let text = <String as ::serde::Deserialize>::deserialize(d)?;
                ($parse)(text.as_str()).ok_or_else(|| {
                    <D::Error as ::serde::de::Error>::custom(($refusal)(text.as_str()))
                })
            }
        }
    };
}

serde_as_text!(OpKind,
    text: |k: &OpKind| k.name(),
    parse: OpKind::from_name,
    refusal: |name: &str| format!("unknown operator {name:?}"),
);

serde_as_text!(OpVersion,
    text: ToString::to_string,
    parse: OpVersion::parse,
    refusal: |label: &str| format!("no operator version {label:?} in the table"),
);

serde_as_text!(DataType,
    text: |t: &DataType| t.name(),
    parse: DataType::from_name,
    refusal: |name: &str| format!("unknown data type {name:?}"),
);

#[cfg(test)]
mod tests;

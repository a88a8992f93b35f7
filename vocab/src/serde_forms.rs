//! The serde forms of the vocabulary: each type as the string ONNX spells it (`Cast`,
//! `Cast-19`, `FLOAT16`), so that every file the project writes keeps the names people read
//! in the operator pages, and reading one back accepts only names the tables hold.

use crate::dtype::DataType;
use crate::op::{OpKind, OpVersion};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl Serialize for OpKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for OpKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OpKind, D::Error> {
        let name = String::deserialize(d)?;
        OpKind::from_name(&name)
            .ok_or_else(|| D::Error::custom(format!("unknown operator {name:?}")))
    }
}

impl Serialize for OpVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for OpVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OpVersion, D::Error> {
        let label = String::deserialize(d)?;
        OpVersion::parse(&label)
            .ok_or_else(|| D::Error::custom(format!("no operator version {label:?} in the table")))
    }
}

impl Serialize for DataType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for DataType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DataType, D::Error> {
        let name = String::deserialize(d)?;
        DataType::from_name(&name)
            .ok_or_else(|| D::Error::custom(format!("unknown data type {name:?}")))
    }
}

#[cfg(test)]
mod tests;

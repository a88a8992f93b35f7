//! Sets of element types, as the operator pages list them per version (a bit set over enum codes).

use crate::dtype::DataType;
use DataType::*;

/// A set of data types, one bit per TensorProto.DataType code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TypeSet(u32);

impl TypeSet {
    /// The empty set.
    pub const EMPTY: TypeSet = TypeSet(0);

    /// The set holding exactly `types`.
    pub const fn of(types: &[DataType]) -> TypeSet {
        TypeSet::EMPTY.with(types)
    }

    /// This set plus `types`.
    pub const fn with(self, types: &[DataType]) -> TypeSet {
        let mut bits = self.0;
        let mut i = 0;
        while i < types.len() {
            bits |= 1 << types[i].code();
            i += 1;
        }
        TypeSet(bits)
    }

    /// Whether `t` is in the set.
    pub const fn contains(self, t: DataType) -> bool {
        self.0 & (1 << t.code()) != 0
    }

    /// The members, in enum-code order.
    pub fn iter(self) -> impl Iterator<Item = DataType> {
        DataType::ALL
            .iter()
            .copied()
            .filter(move |&t| self.contains(t))
    }

    /// The members' ONNX names joined with ", ", for documentation tables.
    pub fn names(self) -> std::string::String {
        self.iter()
            .map(DataType::name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Cast-1 and Cast-6: the numeric types plus bool ("no string casts yet").
pub const CAST_1: TypeSet = TypeSet::of(&[
    Float16, Float, Double, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Bool,
]);
/// Cast-9: adds STRING.
pub const CAST_9: TypeSet = CAST_1.with(&[String]);
/// Cast-13 (and CastLike-15): adds BFLOAT16.
pub const CAST_13: TypeSet = CAST_9.with(&[Bfloat16]);
/// Cast-19: adds the four float8 types.
pub const CAST_19: TypeSet =
    CAST_13.with(&[Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ]);
/// Cast-21: adds UINT4 and INT4.
pub const CAST_21: TypeSet = CAST_19.with(&[Uint4, Int4]);
/// Cast-23: adds FLOAT4E2M1.
pub const CAST_23: TypeSet = CAST_21.with(&[Float4E2M1]);
/// Cast-24: adds FLOAT8E8M0.
pub const CAST_24: TypeSet = CAST_23.with(&[Float8E8M0]);
/// Cast-25: adds UINT2 and INT2. Complex types are never allowed by Cast.
pub const CAST_25: TypeSet = CAST_24.with(&[Uint2, Int2]);
/// Cast-28 (onnx 1.23): adds FLOAT6E2M3 and FLOAT6E3M2. CastLike got no version 28: onnx
/// 1.23's schema of CastLike at opset 28 is still CastLike-25, without the float6 types.
pub const CAST_28: TypeSet = CAST_25.with(&[Float6E2M3, Float6E3M2]);

/// Concat-1: the three IEEE float types only.
pub const CONCAT_1: TypeSet = TypeSet::of(&[Float16, Float, Double]);
/// Concat-4 and Concat-11: all numeric types, string, bool and complex (not bfloat16).
pub const CONCAT_4: TypeSet = CONCAT_1.with(&[
    Uint8, Uint16, Uint32, Uint64, Int8, Int16, Int32, Int64, String, Bool, Complex64, Complex128,
]);
/// Concat-13: adds BFLOAT16 (float8 and the sub-byte types are not allowed).
pub const CONCAT_13: TypeSet = CONCAT_4.with(&[Bfloat16]);

#[cfg(test)]
mod tests;

//! The one table of ONNX data types, and everything derived from it.

use crate::elements::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};
use half::{bf16, f16};

/// Where a TensorProto keeps the values of a type when `raw_data` is absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypedField {
    /// `float_data` (field 4): f32, or (re, im) pairs for COMPLEX64.
    FloatData,
    /// `int32_data` (field 5): one entry per element, or per packed byte for sub-byte types.
    Int32Data,
    /// `string_data` (field 6).
    StringData,
    /// `int64_data` (field 7).
    Int64Data,
    /// `double_data` (field 10): f64, or pairs for COMPLEX128.
    DoubleData,
    /// `uint64_data` (field 11): UINT32 and UINT64.
    Uint64Data,
}

/// Calls `$callback!` with the whole data-type table, one row per type:
/// `(Variant, enum code, "ONNX NAME", Rust element type, bit width, TypedField, TypeKind,
/// "short name")`. STRING has bit width 0 (variable length).
#[macro_export]
macro_rules! for_each_dtype {
    ($callback:ident) => {
        $callback! {
            (Float, 1, "FLOAT", f32, 32, FloatData, Float, "f32"),
            (Uint8, 2, "UINT8", u8, 8, Int32Data, Unsigned, "u8"),
            (Int8, 3, "INT8", i8, 8, Int32Data, Signed, "i8"),
            (Uint16, 4, "UINT16", u16, 16, Int32Data, Unsigned, "u16"),
            (Int16, 5, "INT16", i16, 16, Int32Data, Signed, "i16"),
            (Int32, 6, "INT32", i32, 32, Int32Data, Signed, "i32"),
            (Int64, 7, "INT64", i64, 64, Int64Data, Signed, "i64"),
            (String, 8, "STRING", String, 0, StringData, String, "str"),
            (Bool, 9, "BOOL", bool, 8, Int32Data, Bool, "bool"),
            (Float16, 10, "FLOAT16", f16, 16, Int32Data, Float, "f16"),
            (Double, 11, "DOUBLE", f64, 64, DoubleData, Float, "f64"),
            (Uint32, 12, "UINT32", u32, 32, Uint64Data, Unsigned, "u32"),
            (Uint64, 13, "UINT64", u64, 64, Uint64Data, Unsigned, "u64"),
            (Complex64, 14, "COMPLEX64", Complex64, 64, FloatData, Complex, "c64"),
            (Complex128, 15, "COMPLEX128", Complex128, 128, DoubleData, Complex, "c128"),
            (Bfloat16, 16, "BFLOAT16", bf16, 16, Int32Data, Float, "bf16"),
            (Float8E4M3FN, 17, "FLOAT8E4M3FN", F8E4M3FN, 8, Int32Data, Float, "e4m3"),
            (Float8E4M3FNUZ, 18, "FLOAT8E4M3FNUZ", F8E4M3FNUZ, 8, Int32Data, Float, "e4m3z"),
            (Float8E5M2, 19, "FLOAT8E5M2", F8E5M2, 8, Int32Data, Float, "e5m2"),
            (Float8E5M2FNUZ, 20, "FLOAT8E5M2FNUZ", F8E5M2FNUZ, 8, Int32Data, Float, "e5m2z"),
            (Uint4, 21, "UINT4", U4, 4, Int32Data, Unsigned, "u4"),
            (Int4, 22, "INT4", I4, 4, Int32Data, Signed, "i4"),
            (Float4E2M1, 23, "FLOAT4E2M1", F4E2M1, 4, Int32Data, Float, "e2m1"),
            (Float8E8M0, 24, "FLOAT8E8M0", F8E8M0, 8, Int32Data, PowerOfTwo, "e8m0"),
            (Uint2, 25, "UINT2", U2, 2, Int32Data, Unsigned, "u2"),
            (Int2, 26, "INT2", I2, 2, Int32Data, Signed, "i2"),
            (Float6E2M3, 27, "FLOAT6E2M3", F6E2M3, 6, Int32Data, Float, "e2m3"),
            (Float6E3M2, 28, "FLOAT6E3M2", F6E3M2, 6, Int32Data, Float, "e3m2"),
        }
    };
}

/// What kind of number (or not) a data type holds: the categories every user of the table
/// derives from it instead of listing types by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeKind {
    /// A binary floating-point format with a sign and a mantissa (FLOAT ... FLOAT4E2M1, the
    /// float6 types).
    Float,
    /// FLOAT8E8M0: an unsigned power of two, 2^(code-127), with no mantissa.
    PowerOfTwo,
    /// A two's-complement integer.
    Signed,
    /// An unsigned integer.
    Unsigned,
    /// BOOL.
    Bool,
    /// STRING.
    String,
    /// A pair of floats (real, imaginary).
    Complex,
}

impl TypeKind {
    /// Whether the kind is an integer, signed or unsigned.
    pub const fn is_integer(self) -> bool {
        matches!(self, TypeKind::Signed | TypeKind::Unsigned)
    }

    /// Whether outputs of this kind are always compared bit for bit, never within a tolerance.
    /// FLOAT8E8M0 is: a power of two has no mantissa to be close in. Every kind is named, so
    /// a new one must be decided here.
    pub const fn is_exact(self) -> bool {
        match self {
            TypeKind::Float | TypeKind::Complex => false,
            TypeKind::PowerOfTwo
            | TypeKind::Signed
            | TypeKind::Unsigned
            | TypeKind::Bool
            | TypeKind::String => true,
        }
    }
}

macro_rules! define_dtypes {
    ($((
        $variant:ident, $code:literal, $name:literal, $ty:ty, $bits:literal, $field:ident,
        $kind:ident, $short:literal
    )),* $(,)?) => {
        /// An ONNX tensor element type (TensorProto.DataType), UNDEFINED excluded.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum DataType {
            $(
                #[doc = concat!("`", $name, "` (", stringify!($code), ")")]
                $variant,
            )*
        }

        impl DataType {
            /// Every data type, in enum-code order.
            pub const ALL: &'static [DataType] = &[$(DataType::$variant),*];

            /// The TensorProto.DataType code.
            pub const fn code(self) -> i32 {
                match self { $(DataType::$variant => $code),* }
            }

            /// The type for a TensorProto.DataType code, if it is one we know.
            pub const fn from_code(code: i32) -> Option<DataType> {
                match code { $($code => Some(DataType::$variant),)* _ => None }
            }

            /// The ONNX spelling, as in `FLOAT8E4M3FN`.
            pub const fn name(self) -> &'static str {
                match self { $(DataType::$variant => $name),* }
            }

            /// The type for an ONNX spelling such as `"FLOAT16"` (as Cast-1's `to` uses).
            pub fn from_name(name: &str) -> Option<DataType> {
                match name { $($name => Some(DataType::$variant),)* _ => None }
            }

            /// Bits per element; 0 for STRING.
            pub const fn bit_width(self) -> u32 {
                match self { $(DataType::$variant => $bits),* }
            }

            /// The TensorProto field holding values when `raw_data` is absent.
            pub const fn typed_field(self) -> TypedField {
                match self { $(DataType::$variant => TypedField::$field),* }
            }

            /// The kind of value the type holds.
            pub const fn kind(self) -> TypeKind {
                match self { $(DataType::$variant => TypeKind::$kind),* }
            }

            /// A short name for tables, as in `e4m3` or `u8`.
            pub const fn short_name(self) -> &'static str {
                match self { $(DataType::$variant => $short),* }
            }
        }

        /// Typed element storage of a tensor: one `Vec` variant per data type.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Storage {
            $(
                #[doc = concat!("`", $name, "` elements")]
                $variant(Vec<$ty>),
            )*
        }

        impl Storage {
            /// The element type held.
            pub fn dtype(&self) -> DataType {
                match self { $(Storage::$variant(_) => DataType::$variant),* }
            }

            /// Number of elements held.
            pub fn len(&self) -> usize {
                match self { $(Storage::$variant(v) => v.len()),* }
            }

            /// Whether no element is held.
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// An empty storage of the given type.
            pub fn empty(dtype: DataType) -> Storage {
                match dtype { $(DataType::$variant => Storage::$variant(Vec::new())),* }
            }
        }

        $(
            impl Element for $ty {
                const DTYPE: DataType = DataType::$variant;
                fn into_storage(values: Vec<Self>) -> Storage {
                    Storage::$variant(values)
                }
                fn slice(storage: &Storage) -> Option<&[Self]> {
                    match storage { Storage::$variant(v) => Some(v), _ => None }
                }
            }
        )*
    };
}

for_each_dtype!(define_dtypes);

/// A Rust type that is the element type of exactly one ONNX data type.
pub trait Element: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// The ONNX data type whose elements are `Self`.
    const DTYPE: DataType;
    /// Wraps a vector of elements as storage.
    fn into_storage(values: Vec<Self>) -> Storage;
    /// The elements, if `storage` holds this type.
    fn slice(storage: &Storage) -> Option<&[Self]>;
}

/// Evaluates `$body` with `$v` bound to the typed `Vec` inside a [`Storage`] (any variant),
/// so one generic function serves every type. The match is exhaustive, so a type added to the
/// table without an arm here fails to compile.
#[macro_export]
macro_rules! with_storage {
    ($storage:expr, $v:ident => $body:expr) => {
        match $storage {
            $crate::Storage::Float($v) => $body,
            $crate::Storage::Uint8($v) => $body,
            $crate::Storage::Int8($v) => $body,
            $crate::Storage::Uint16($v) => $body,
            $crate::Storage::Int16($v) => $body,
            $crate::Storage::Int32($v) => $body,
            $crate::Storage::Int64($v) => $body,
            $crate::Storage::String($v) => $body,
            $crate::Storage::Bool($v) => $body,
            $crate::Storage::Float16($v) => $body,
            $crate::Storage::Double($v) => $body,
            $crate::Storage::Uint32($v) => $body,
            $crate::Storage::Uint64($v) => $body,
            $crate::Storage::Complex64($v) => $body,
            $crate::Storage::Complex128($v) => $body,
            $crate::Storage::Bfloat16($v) => $body,
            $crate::Storage::Float8E4M3FN($v) => $body,
            $crate::Storage::Float8E4M3FNUZ($v) => $body,
            $crate::Storage::Float8E5M2($v) => $body,
            $crate::Storage::Float8E5M2FNUZ($v) => $body,
            $crate::Storage::Uint4($v) => $body,
            $crate::Storage::Int4($v) => $body,
            $crate::Storage::Float4E2M1($v) => $body,
            $crate::Storage::Float8E8M0($v) => $body,
            $crate::Storage::Uint2($v) => $body,
            $crate::Storage::Int2($v) => $body,
            $crate::Storage::Float6E2M3($v) => $body,
            $crate::Storage::Float6E3M2($v) => $body,
        }
    };
}

impl std::fmt::Display for DataType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;

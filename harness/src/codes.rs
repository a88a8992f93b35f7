//! The codes the reader and the writer share, so that neither imports the other: the
//! AttributeProto.type codes, and each element's bits as `raw_data` stores them.

use half::{bf16, f16};
use vocab::elements::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};

/// AttributeProto.AttributeType: (code, name), as in `onnx.proto`.
pub const TYPES: &[(i32, &str)] = &[
    (UNDEFINED, "UNDEFINED"),
    (FLOAT, "FLOAT"),
    (INT, "INT"),
    (STRING, "STRING"),
    (TENSOR, "TENSOR"),
    (5, "GRAPH"),
    (FLOATS, "FLOATS"),
    (INTS, "INTS"),
    (STRINGS, "STRINGS"),
    (9, "TENSORS"),
    (10, "GRAPHS"),
    (11, "SPARSE_TENSOR"),
    (12, "SPARSE_TENSORS"),
    (13, "TYPE_PROTO"),
    (14, "TYPE_PROTOS"),
];

/// UNDEFINED: old writers leave the type out; the field that is set decides.
pub const UNDEFINED: i32 = 0;
/// FLOAT, in `f`.
pub const FLOAT: i32 = 1;
/// INT, in `i`.
pub const INT: i32 = 2;
/// STRING, in `s`.
pub const STRING: i32 = 3;
/// TENSOR, in `t`.
pub const TENSOR: i32 = 4;
/// FLOATS, in `floats`.
pub const FLOATS: i32 = 6;
/// INTS, in `ints`.
pub const INTS: i32 = 7;
/// STRINGS, in `strings`.
pub const STRINGS: i32 = 8;

/// The inverse of the reader's `FromCode`, for writing tensors: an element as the unsigned integer of
/// its bit width that `raw_data` stores.
pub(crate) trait ToCode {
    /// The element's bits; `None` for strings, which have no fixed width.
    fn to_code(&self) -> Option<u128>;
}

macro_rules! to_code {
    ($($ty:ty => |$v:ident| $e:expr;)*) => {$(
        impl ToCode for $ty {
            fn to_code(&self) -> Option<u128> {
                let $v = *self;
                Some($e)
            }
        }
    )*};
}

to_code! {
    f32 => |v| v.to_bits().into();
    f64 => |v| v.to_bits().into();
    f16 => |v| v.to_bits().into();
    bf16 => |v| v.to_bits().into();
    u8 => |v| v.into();
    u16 => |v| v.into();
    u32 => |v| v.into();
    u64 => |v| v.into();
    i8 => |v| (v as u8).into();
    i16 => |v| (v as u16).into();
    i32 => |v| (v as u32).into();
    i64 => |v| (v as u64).into();
    bool => |v| v.into();
    F8E4M3FN => |v| v.to_bits().into();
    F8E4M3FNUZ => |v| v.to_bits().into();
    F8E5M2 => |v| v.to_bits().into();
    F8E5M2FNUZ => |v| v.to_bits().into();
    F8E8M0 => |v| v.to_bits().into();
    F4E2M1 => |v| v.to_bits().into();
    F6E2M3 => |v| v.to_bits().into();
    F6E3M2 => |v| v.to_bits().into();
    U4 => |v| v.to_bits().into();
    I4 => |v| v.to_bits().into();
    U2 => |v| v.to_bits().into();
    I2 => |v| v.to_bits().into();
    Complex64 => |v| u128::from(v.re.to_bits()) | u128::from(v.im.to_bits()) << 32;
    Complex128 => |v| u128::from(v.re.to_bits()) | u128::from(v.im.to_bits()) << 64;
}

impl ToCode for String {
    fn to_code(&self) -> Option<u128> {
        None
    }
}

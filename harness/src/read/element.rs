//! Element codes: every non-string element as an unsigned integer of its bit width, and the
//! one generic decoder that turns a checked TensorProto payload into typed storage.

use super::payload::Payload;
use half::{bf16, f16};
use vocab::elements::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};
use vocab::{for_each_dtype, DataType, Element, Storage};

/// A non-string element built from its code: the little-endian bits it occupies in `raw_data`
/// (for complex types, the real part in the low half).
pub(crate) trait FromCode: Element {
    /// The element whose bit pattern is the low `bit_width` bits of `code`.
    fn from_code(code: u128) -> Self;
}

// Truncating `as` casts are the point here: `code` holds exactly the element's bits.
macro_rules! from_code {
    ($($ty:ty => |$c:ident| $e:expr;)*) => {$(
        impl FromCode for $ty {
            fn from_code($c: u128) -> Self {
                $e
            }
        }
    )*};
}

from_code! {
    f32 => |c| f32::from_bits(c as u32);
    f64 => |c| f64::from_bits(c as u64);
    f16 => |c| f16::from_bits(c as u16);
    bf16 => |c| bf16::from_bits(c as u16);
    u8 => |c| c as u8;
    u16 => |c| c as u16;
    u32 => |c| c as u32;
    u64 => |c| c as u64;
    i8 => |c| c as u8 as i8;
    i16 => |c| c as u16 as i16;
    i32 => |c| c as u32 as i32;
    i64 => |c| c as u64 as i64;
    // Any non-zero byte is true, as numpy's bool view of the byte would be.
    bool => |c| c as u8 != 0;
    F8E4M3FN => |c| F8E4M3FN::from_bits(c as u8);
    F8E4M3FNUZ => |c| F8E4M3FNUZ::from_bits(c as u8);
    F8E5M2 => |c| F8E5M2::from_bits(c as u8);
    F8E5M2FNUZ => |c| F8E5M2FNUZ::from_bits(c as u8);
    F8E8M0 => |c| F8E8M0::from_bits(c as u8);
    F4E2M1 => |c| F4E2M1::from_bits(c as u8);
    F6E2M3 => |c| F6E2M3::from_bits(c as u8);
    F6E3M2 => |c| F6E3M2::from_bits(c as u8);
    U4 => |c| U4::from_bits(c as u8);
    I4 => |c| I4::from_bits(c as u8);
    U2 => |c| U2::from_bits(c as u8);
    I2 => |c| I2::from_bits(c as u8);
    Complex64 => |c| Complex64 { re: f32::from_bits(c as u32), im: f32::from_bits((c >> 32) as u32) };
    Complex128 => |c| Complex128 { re: f64::from_bits(c as u64), im: f64::from_bits((c >> 64) as u64) };
}

/// Decoding a checked payload into elements of one type.
pub(crate) trait Decode: Element + Sized {
    /// The `count` elements of `payload`, whose length was already checked against `count`,
    /// in `spare`'s memory (cleared first): a large run decodes chunk after chunk into one
    /// buffer instead of fresh memory each time.
    fn decode(
        payload: &Payload<'_>,
        dtype: DataType,
        count: usize,
        spare: Vec<Self>,
    ) -> Result<Vec<Self>, String>;
}

impl<T: FromCode> Decode for T {
    fn decode(
        payload: &Payload<'_>,
        dtype: DataType,
        count: usize,
        mut values: Vec<T>,
    ) -> Result<Vec<T>, String> {
        values.clear();
        if let Payload::Raw(bytes) = *payload {
            if extend_le(&mut values, bytes, dtype.bit_width()) {
                return Ok(values);
            }
        }
        values.reserve(count);
        payload.for_each_code(dtype.bit_width(), count, |code| {
            values.push(T::from_code(code))
        })?;
        Ok(values)
    }
}

/// Appends the elements of whole-byte little-endian `bytes` to `values` and says true, or
/// says false for a width it leaves to the general decoder. One pass over exactly sized
/// elements, which the compiler turns into plain loads: the general decoder joins each
/// element from its bytes one at a time, several nanoseconds an element.
fn extend_le<T: FromCode>(values: &mut Vec<T>, bytes: &[u8], bits: u32) -> bool {
    fn each<const N: usize, T: FromCode>(
        values: &mut Vec<T>,
        bytes: &[u8],
        code: impl Fn([u8; N]) -> u128,
    ) {
        let elements = bytes.chunks_exact(N);
        values.extend(elements.map(|c| T::from_code(code(c.try_into().expect("N bytes")))));
    }
    match bits {
        8 => each::<1, T>(values, bytes, |b| u128::from(b[0])),
        16 => each::<2, T>(values, bytes, |b| u128::from(u16::from_le_bytes(b))),
        32 => each::<4, T>(values, bytes, |b| u128::from(u32::from_le_bytes(b))),
        64 => each::<8, T>(values, bytes, |b| u128::from(u64::from_le_bytes(b))),
        128 => each::<16, T>(values, bytes, u128::from_le_bytes),
        _ => return false,
    }
    true
}

impl Decode for String {
    fn decode(
        payload: &Payload<'_>,
        _: DataType,
        _: usize,
        _: Vec<String>,
    ) -> Result<Vec<String>, String> {
        payload.strings()
    }
}

macro_rules! define_decode_storage {
    ($((
        $variant:ident, $code:literal, $name:literal, $ty:ty, $bits:literal, $field:ident,
        $kind:ident, $short:literal
    )),* $(,)?) => {
        /// The `count` elements of `payload` as storage of `dtype`, in `spare`'s memory when
        /// it is storage of that type.
        pub(crate) fn decode_storage(
            payload: &Payload<'_>,
            dtype: DataType,
            count: usize,
            spare: Option<Storage>,
        ) -> Result<Storage, String> {
            match dtype {
                $(DataType::$variant => {
                    let spare = match spare {
                        Some(Storage::$variant(v)) => v,
                        _ => Vec::new(),
                    };
                    <$ty as Decode>::decode(payload, dtype, count, spare).map(Storage::$variant)
                })*
            }
        }
    };
}

for_each_dtype!(define_decode_storage);

macro_rules! define_storage_from_codes {
    ($((
        $variant:ident, $code:literal, $name:literal, $ty:ty, $bits:literal, $field:ident,
        $kind:ident, $short:literal
    )),* $(,)?) => {
        /// Storage of `dtype` whose elements have the bit patterns `codes`; `None` for STRING,
        /// whose elements have no code.
        pub(crate) fn storage_from_codes(dtype: DataType, codes: &[u128]) -> Option<Storage> {
            codes_storage!(dtype, codes, $($variant: $ty),*)
        }
    };
}

/// The match of [`storage_from_codes`]: STRING is the one type without [`FromCode`].
macro_rules! codes_storage {
    ($dtype:expr, $codes:expr, $($variant:ident: $ty:ty),*) => {
        match $dtype {
            $(DataType::$variant => codes_storage!(@one $variant, $ty, $codes),)*
        }
    };
    (@one String, $ty:ty, $codes:expr) => { None };
    (@one $variant:ident, $ty:ty, $codes:expr) => {
        Some(Storage::$variant($codes.iter().map(|&c| <$ty as FromCode>::from_code(c)).collect()))
    };
}

for_each_dtype!(define_storage_from_codes);

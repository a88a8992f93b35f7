//! Cast and CastLike: one generic path. Every source element is decoded to an exact value
//! ([`Exact`]) and encoded into the target, so each conversion rounds once; strings and bool
//! have their own rules. The dispatch over targets is generated from the data-type table.
//!
//! Choices where the spec is silent (the official data never tests them):
//! * float → integer (8 to 64 bits): truncate toward zero, then keep the low bits, the same
//!   "discard high bits" rule as integer → integer; NaN and ±Inf give 0. (numpy's result is
//!   platform-dependent there.) Sub-byte integer targets follow the format layer's rule:
//!   clamp before version 24, wrap from 24.
//! * Integer → INT4/UINT4 also clamps before version 24, as the reference clipped every source.
//! * bool → string is "1"/"0", like bool → number; see [`cast_string`] for the string rules.
//! * CastLike ignores `round_mode` (always "up"): its function body does not forward it and the
//!   reference CastLike ignores it, so CastLike and its expanded form agree.

use super::cast_string;
use super::OpVersion;
use crate::dtype::{DataType, Element, Storage};
use crate::error::Error;
use crate::formats::{
    CastRules, Complex128, Complex64, Exact, FloatFormat, F4E2M1, F8E4M3FN, F8E4M3FNUZ, F8E5M2,
    F8E5M2FNUZ, F8E8M0, I2, I4, U2, U4,
};
use crate::tensor::Tensor;
use crate::with_storage;
use half::{bf16, f16};

/// Casts `input` to `to` under `rules` (saturate, round_mode, and the version-24 switch).
/// `op` is only used to name the operator in errors; version checks are the caller's job.
pub fn cast(
    op: OpVersion,
    input: &Tensor,
    to: DataType,
    rules: &CastRules,
) -> Result<Tensor, Error> {
    let storage = match (input.storage(), to) {
        (Storage::String(v), DataType::String) => Storage::String(v.clone()),
        (source, DataType::String) => {
            Storage::String(with_storage!(source, v => to_text_all(op, v)?))
        }
        (Storage::String(v), _) => {
            let exact = cast_string::parse_all(op, v, to, rules)?;
            encode_all(op, to, &exact, rules)?
        }
        // The hot pairs have fast paths that give the same bits (see `fast`).
        (source, _) => match super::fast::cast(&crate::tuning::current()?, source, to, rules) {
            Some(fast) => fast,
            None => generic(op, source, to, rules)?,
        },
    };
    Tensor::new(input.shape().to_vec(), storage)
}

/// The generic numeric path: decode every element exactly, encode it into `to`. It is also
/// the reference the fast paths are tested against.
pub(super) fn generic(
    op: OpVersion,
    source: &Storage,
    to: DataType,
    rules: &CastRules,
) -> Result<Storage, Error> {
    with_storage!(source, v => generic_from(op, v, to, rules))
}

/// Elements the generic path decodes at a time: an [`Exact`] takes 32 bytes, so a whole
/// tensor's worth would take 512 MiB for 16M elements; a chunk stays in the L2 cache.
const CHUNK: usize = 4096;

/// `v` decoded and encoded into `T`, one chunk of exact values at a time.
fn convert_chunked<S: CastElem, T: CastElem>(
    op: OpVersion,
    v: &[S],
    rules: &CastRules,
) -> Result<Vec<T>, Error> {
    let mut out = Vec::with_capacity(v.len());
    let mut exact = Vec::with_capacity(CHUNK.min(v.len()));
    for chunk in v.chunks(CHUNK) {
        exact.clear();
        for x in chunk {
            exact.push(
                x.decode(rules)
                    .ok_or_else(|| no_cast(op, S::DTYPE, "input 0"))?,
            );
        }
        for e in &exact {
            out.push(T::encode(e, rules).ok_or_else(|| no_cast(op, T::DTYPE, "target type"))?);
        }
    }
    Ok(out)
}

/// An element type as Cast sees it. Methods return `None` where the type takes no part in
/// numeric casts (strings go through [`cast_string`], complex types are never allowed).
pub(crate) trait CastElem: Element {
    /// The exact value.
    fn decode(&self, rules: &CastRules) -> Option<Exact>;
    /// The value of this type that `v` converts to.
    fn encode(v: &Exact, rules: &CastRules) -> Option<Self>;
    /// The string form (number to string).
    fn to_text(&self) -> Option<String>;
}

/// Float → integer: truncate toward zero, then keep the low bits of the two's-complement
/// result (the "discard high bits" rule integers use). NaN and ±Inf give 0. Integer sources
/// are exact integers, so this is plain wrap-around for them.
fn trunc_wrapping(v: &Exact) -> u128 {
    let Exact::Finite {
        negative,
        mant,
        exp,
    } = *v
    else {
        return 0;
    };
    let magnitude = match exp {
        // At 2^128 and above every low bit is zero.
        128.. => 0,
        0..=127 => mant.wrapping_shl(exp.unsigned_abs()),
        -127..=-1 => mant >> exp.unsigned_abs(),
        _ => 0,
    };
    if negative {
        magnitude.wrapping_neg()
    } else {
        magnitude
    }
}

macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl CastElem for $t {
            fn decode(&self, _: &CastRules) -> Option<Exact> {
                Some(Exact::from_i128(i128::from(*self)))
            }
            fn encode(v: &Exact, _: &CastRules) -> Option<Self> {
                // `as` from u128 keeps the low bits, which is the rule.
                Some(trunc_wrapping(v) as $t)
            }
            fn to_text(&self) -> Option<String> {
                Some(self.to_string())
            }
        }
    )*};
}
int_elem!(u8, i8, u16, i16, u32, i32, u64, i64);

macro_rules! float_elem {
    ($($t:ty => $text:path),* $(,)?) => {$(
        impl CastElem for $t {
            fn decode(&self, rules: &CastRules) -> Option<Exact> {
                Some(self.to_exact(rules))
            }
            fn encode(v: &Exact, rules: &CastRules) -> Option<Self> {
                Some(<$t as FloatFormat>::from_exact(v, rules))
            }
            fn to_text(&self) -> Option<String> {
                Some($text(*self))
            }
        }
    )*};
}
float_elem!(
    f32 => cast_string::f32_text,
    f64 => cast_string::f64_text,
    f16 => cast_string::small_float_text,
    bf16 => cast_string::small_float_text,
    F8E4M3FN => cast_string::small_float_text,
    F8E4M3FNUZ => cast_string::small_float_text,
    F8E5M2 => cast_string::small_float_text,
    F8E5M2FNUZ => cast_string::small_float_text,
    F8E8M0 => cast_string::small_float_text,
    F4E2M1 => cast_string::small_float_text,
);

macro_rules! subbyte_elem {
    ($($t:ident => $value:ident),*) => {$(
        impl CastElem for $t {
            fn decode(&self, _: &CastRules) -> Option<Exact> {
                Some(Exact::from_i128(i128::from(self.$value())))
            }
            // Float → INT4/UINT4 clamps up to version 23 and wraps from 24 (spec §3.2); the
            // format layer owns that rule, for integer sources too (the reference clipped
            // every source before 24).
            fn encode(v: &Exact, rules: &CastRules) -> Option<Self> {
                Some($t::from_exact(v, rules))
            }
            fn to_text(&self) -> Option<String> {
                Some(self.$value().to_string())
            }
        }
    )*};
}
subbyte_elem!(I4 => get, I2 => get, U4 => to_bits, U2 => to_bits);

impl CastElem for bool {
    fn decode(&self, _: &CastRules) -> Option<Exact> {
        Some(Exact::from_i128(i128::from(*self)))
    }
    /// Nonzero is true; NaN, being nonzero, is true; ±0 is false.
    fn encode(v: &Exact, _: &CastRules) -> Option<Self> {
        Some(!v.is_zero())
    }
    /// "1" / "0", matching bool → number.
    fn to_text(&self) -> Option<String> {
        Some(if *self { "1" } else { "0" }.to_owned())
    }
}

impl CastElem for String {
    fn decode(&self, _: &CastRules) -> Option<Exact> {
        None
    }
    fn encode(_: &Exact, _: &CastRules) -> Option<Self> {
        None
    }
    fn to_text(&self) -> Option<String> {
        Some(self.clone())
    }
}

macro_rules! no_cast_elem {
    ($($t:ty),*) => {$(
        impl CastElem for $t {
            fn decode(&self, _: &CastRules) -> Option<Exact> {
                None
            }
            fn encode(_: &Exact, _: &CastRules) -> Option<Self> {
                None
            }
            fn to_text(&self) -> Option<String> {
                None
            }
        }
    )*};
}
no_cast_elem!(Complex64, Complex128);

/// The error for a type Cast cannot convert (only reachable by bypassing the version check).
fn no_cast(op: OpVersion, dtype: DataType, role: &str) -> Error {
    Error::TypeNotAllowed {
        op,
        dtype,
        role: role.to_owned(),
        allowed_from: None,
    }
}

fn encode_slice<T: CastElem>(
    op: OpVersion,
    v: &[Exact],
    rules: &CastRules,
) -> Result<Vec<T>, Error> {
    v.iter()
        .map(|x| T::encode(x, rules).ok_or_else(|| no_cast(op, T::DTYPE, "target type")))
        .collect()
}

fn to_text_all<T: CastElem>(op: OpVersion, v: &[T]) -> Result<Vec<String>, Error> {
    v.iter()
        .map(|x| x.to_text().ok_or_else(|| no_cast(op, T::DTYPE, "input 0")))
        .collect()
}

macro_rules! define_encode_all {
    ($(($variant:ident, $code:literal, $name:literal, $ty:ty, $bits:literal, $field:ident)),* $(,)?) => {
        /// Encodes exact values into a storage of type `to`.
        fn encode_all(
            op: OpVersion,
            to: DataType,
            v: &[Exact],
            rules: &CastRules,
        ) -> Result<Storage, Error> {
            Ok(match to {
                $(DataType::$variant => Storage::$variant(encode_slice::<$ty>(op, v, rules)?),)*
            })
        }
    };
}
crate::for_each_dtype!(define_encode_all);

macro_rules! define_generic_from {
    ($(($variant:ident, $code:literal, $name:literal, $ty:ty, $bits:literal, $field:ident)),* $(,)?) => {
        /// Source elements cast to a storage of type `to` by the generic path.
        fn generic_from<S: CastElem>(
            op: OpVersion,
            v: &[S],
            to: DataType,
            rules: &CastRules,
        ) -> Result<Storage, Error> {
            Ok(match to {
                $(DataType::$variant => Storage::$variant(convert_chunked::<S, $ty>(op, v, rules)?),)*
            })
        }
    };
}
crate::for_each_dtype!(define_generic_from);

//! Fast paths for the hot Cast pairs, tried before the generic exact path. Each returns what
//! the generic path would, bit for bit (tests: `formats/fast/tests.rs` for the element
//! kernels at every SIMD level, `ops/tests/fast.rs` for this dispatch); `None` leaves a pair
//! to the generic path. `fast_pairs()` in `ops/tests/fast.rs` lists the pairs served here, and
//! a test holds the dispatch to exactly that list, so a lost arm fails a test instead of only
//! costing speed.

use crate::dtype::{DataType, Storage};
use crate::formats::fast as f;
use crate::formats::CastRules;
use crate::formats::{F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, I4, U4};
use crate::ops::cast::rules_read;
use crate::tuning::Exec;

/// f32, FLOAT16 or BFLOAT16 `v` encoded into a float8 format (FLOAT8E8M0 included),
/// FLOAT4E2M1 or a float6 format, or `None` for any other target.
fn narrow<S: f::Wide>(x: &Exec, v: &[S], to: DataType, rules: &CastRules) -> Option<Storage> {
    use DataType as D;
    Some(match to {
        D::Float8E4M3FN => Storage::Float8E4M3FN(f::wide_to_narrow::<_, F8E4M3FN>(x, v, rules)),
        D::Float8E4M3FNUZ => {
            Storage::Float8E4M3FNUZ(f::wide_to_narrow::<_, F8E4M3FNUZ>(x, v, rules))
        }
        D::Float8E5M2 => Storage::Float8E5M2(f::wide_to_narrow::<_, F8E5M2>(x, v, rules)),
        D::Float8E5M2FNUZ => {
            Storage::Float8E5M2FNUZ(f::wide_to_narrow::<_, F8E5M2FNUZ>(x, v, rules))
        }
        D::Float4E2M1 => Storage::Float4E2M1(f::wide_to_narrow::<_, F4E2M1>(x, v, rules)),
        D::Float6E2M3 => Storage::Float6E2M3(f::wide_to_narrow::<_, F6E2M3>(x, v, rules)),
        D::Float6E3M2 => Storage::Float6E3M2(f::wide_to_narrow::<_, F6E3M2>(x, v, rules)),
        D::Float8E8M0 => Storage::Float8E8M0(f::wide_to_e8m0(x, v, rules)),
        _ => return None,
    })
}

/// `source` cast to `to` by a fast path, run as `exec` says, or `None` when the pair has none.
/// The kernels see the rules through [`rules_read`], as the generic path does, so that rule
/// sets differing only in what the generic path does not read give both the same call.
pub(crate) fn cast(
    exec: &Exec,
    source: &Storage,
    to: DataType,
    rules: &CastRules,
) -> Option<Storage> {
    let rules = rules.keeping(rules_read(source.dtype(), to));
    cast_as_given(exec, source, to, &rules)
}

/// [`cast`] on the rules exactly as given: what a test holds [`rules_read`] to.
pub(crate) fn cast_as_given(
    exec: &Exec,
    source: &Storage,
    to: DataType,
    rules: &CastRules,
) -> Option<Storage> {
    use DataType as D;
    use Storage as S;
    let x = exec;
    Some(match (source, to) {
        (S::Float(v), D::Bfloat16) => S::Bfloat16(f::f32_to_bf16(x, v, rules)),
        (S::Float(v), D::Double) => S::Double(f::f32_to_f64(x, v)),
        (S::Float(v), D::Int4) => S::Int4(f::f32_to_i4(x, v, rules)),
        (S::Float(v), D::Uint4) => S::Uint4(f::f32_to_u4(x, v, rules)),
        (S::Float(v), D::Float16) => S::Float16(f::f32_to_f16(x, v, rules)),
        (S::Float(v), _) => narrow(x, v, to, rules)?,
        (S::Float16(v), D::Float) => S::Float(f::f16_to_f32(x, v)),
        (S::Float16(v), D::Float16) => S::Float16(f::f16_to_f16(x, v, rules)),
        (S::Float16(v), _) => narrow(x, v, to, rules)?,
        (S::Bfloat16(v), D::Float) => S::Float(f::bf16_to_f32(x, v)),
        (S::Bfloat16(v), _) => narrow(x, v, to, rules)?,
        (S::Double(v), D::Float) => S::Float(f::f64_to_f32(x, v)),
        (S::Float8E4M3FN(v), D::Float) => S::Float(f::narrow_to_f32(x, v, rules)),
        (S::Float8E4M3FNUZ(v), D::Float) => S::Float(f::narrow_to_f32(x, v, rules)),
        (S::Float8E5M2(v), D::Float) => S::Float(f::narrow_to_f32(x, v, rules)),
        (S::Float8E5M2FNUZ(v), D::Float) => S::Float(f::narrow_to_f32(x, v, rules)),
        (S::Float4E2M1(v), D::Float) => S::Float(f::narrow_to_f32(x, v, rules)),
        (S::Float6E2M3(v), D::Float) => S::Float(f::narrow_to_f32(x, v, rules)),
        (S::Float6E3M2(v), D::Float) => S::Float(f::narrow_to_f32(x, v, rules)),
        (S::Float8E8M0(v), D::Float) => S::Float(f::e8m0_to_f32(x, v, rules)),
        (S::Int4(v), D::Float) => S::Float(f::convert(x, v, |i: I4| f32::from(i.get()))),
        (S::Uint4(v), D::Float) => S::Float(f::convert(x, v, |u: U4| f32::from(u.to_bits()))),
        (S::Uint8(v), _) => from_int(x, v, to)?,
        (S::Int8(v), _) => from_int(x, v, to)?,
        (S::Uint16(v), _) => from_int(x, v, to)?,
        (S::Int16(v), _) => from_int(x, v, to)?,
        (S::Int32(v), _) => from_int(x, v, to)?,
        (S::Int64(v), _) => from_int(x, v, to)?,
        (S::Uint32(v), _) => from_int(x, v, to)?,
        (S::Uint64(v), _) => from_int(x, v, to)?,
        _ => return None,
    })
}

/// Integer sources: the exact path's rules (integer targets keep the low bits, float targets
/// round half to even) are exactly Rust's `as` for these pairs.
trait AsPrim: Copy + Sync {
    fn u8(self) -> u8;
    fn i8(self) -> i8;
    fn u16(self) -> u16;
    fn i16(self) -> i16;
    fn u32(self) -> u32;
    fn i32(self) -> i32;
    fn u64(self) -> u64;
    fn i64(self) -> i64;
    fn f32(self) -> f32;
    fn f64(self) -> f64;
}

macro_rules! as_prim {
    ($($t:ty),*) => {$(
        impl AsPrim for $t {
            fn u8(self) -> u8 { self as u8 }
            fn i8(self) -> i8 { self as i8 }
            fn u16(self) -> u16 { self as u16 }
            fn i16(self) -> i16 { self as i16 }
            fn u32(self) -> u32 { self as u32 }
            fn i32(self) -> i32 { self as i32 }
            fn u64(self) -> u64 { self as u64 }
            fn i64(self) -> i64 { self as i64 }
            fn f32(self) -> f32 { self as f32 }
            fn f64(self) -> f64 { self as f64 }
        }
    )*};
}
as_prim!(u8, i8, u16, i16, u32, i32, u64, i64);

/// An integer slice cast to an integer or float type by `as`; `None` for other targets.
fn from_int<S: AsPrim>(x: &Exec, v: &[S], to: DataType) -> Option<Storage> {
    use DataType as D;
    Some(match to {
        D::Uint8 => Storage::Uint8(f::convert(x, v, S::u8)),
        D::Int8 => Storage::Int8(f::convert(x, v, S::i8)),
        D::Uint16 => Storage::Uint16(f::convert(x, v, S::u16)),
        D::Int16 => Storage::Int16(f::convert(x, v, S::i16)),
        D::Uint32 => Storage::Uint32(f::convert(x, v, S::u32)),
        D::Int32 => Storage::Int32(f::convert(x, v, S::i32)),
        D::Uint64 => Storage::Uint64(f::convert(x, v, S::u64)),
        D::Int64 => Storage::Int64(f::convert(x, v, S::i64)),
        D::Float => Storage::Float(f::convert(x, v, S::f32)),
        D::Double => Storage::Double(f::convert(x, v, S::f64)),
        _ => return None,
    })
}

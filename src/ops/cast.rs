//! Cast and CastLike: one generic path. Every source element is decoded to an exact value
//! ([`Exact`]) and encoded into the target, so each conversion rounds once; strings and bool
//! have their own rules. The dispatch over targets is generated from the data-type table.
//!
//! Choices where the spec is silent (the official data never tests them):
//! * a cast to the same type is the identity, bit for bit, whatever `saturate` says (so
//!   FLOAT8E5M2 ±Inf stays ±Inf, and NaN codes stay as they are).
//! * float → integer (8 to 64 bits): truncate toward zero, then keep the low bits, the same
//!   "discard high bits" rule as integer → integer; NaN and ±Inf give 0. (numpy's result is
//!   platform-dependent there.) Float → INT4/UINT4 follows the format layer's rule: clamp
//!   before version 24 (the data shows it), wrap from 24.
//! * Integer, bool and string sources → INT4/UINT4/INT2/UINT2 keep the low bits at every
//!   version: 4- and 2-bit integers are integers, and the Cast page's integer → integer rule
//!   is "discard the high bits" (INT16 15 → INT4 −1, INT4 −1 → UINT4 15). The ≤ 23 clamp is
//!   evidence for floating sources only; no official case has an integer source there.
//! * bool → string is "1"/"0", like bool → number; see [`cast_string`] for the string rules.
//! * CastLike-24/25 apply `round_mode` to FLOAT8E8M0 targets as Cast does, as the CastLike
//!   page documents. Its expanded function body (`Cast<to, saturate>`) does not forward
//!   `round_mode`; that is a defect of the expansion, not the documented behaviour. No official
//!   case casts to FLOAT8E8M0 with CastLike, so the two never disagree in the data.

use super::cast_string;
use super::OpVersion;
use crate::dtype::{DataType, Element, Storage};
use crate::error::Error;
use crate::formats::{
    CastRules, Complex128, Complex64, Exact, FloatFormat, Generation, RulesRead, SubByteInt,
    F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0, I2, I4, U2, U4,
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
        // A cast to the same type returns its input, bit for bit (docs/semantics.md §3.10):
        // NaN codes and payloads included.
        (source, to) if input.dtype() == to => source.clone(),
        (source, DataType::String) => {
            Storage::String(with_storage!(source, v => to_text_all(op, v)?))
        }
        (Storage::String(v), _) => {
            let exact = cast_string::parse_all(op, v, to, rules)?;
            encode_all(op, to, &exact, rules, Source::NotFloating)?
        }
        // The hot pairs have fast paths that give the same bits (see `fast`).
        (source, _) => match super::fast::cast(&crate::tuning::current()?, source, to, rules) {
            Some(fast) => fast,
            None => generic(op, source, to, rules)?,
        },
    };
    Ok(Tensor::new(input.shape().to_vec(), storage)?)
}

/// The generic numeric path: decode every element exactly, encode it into `to`. It is also
/// the reference the fast paths are tested against. It sees the rules through
/// [`rules_read`], as the fast paths do, so that rule sets differing only in what neither
/// reads give both the same call.
pub(crate) fn generic(
    op: OpVersion,
    source: &Storage,
    to: DataType,
    rules: &CastRules,
) -> Result<Storage, Error> {
    let rules = rules.keeping(rules_read(source.dtype(), to));
    generic_as_given(op, source, to, &rules)
}

/// [`generic`] on the rules exactly as given: what a test holds [`rules_read`] to.
pub(crate) fn generic_as_given(
    op: OpVersion,
    source: &Storage,
    to: DataType,
    rules: &CastRules,
) -> Result<Storage, Error> {
    let mut out = [Storage::empty(to)];
    with_storage!(source, v => convert_chunked(op, v, &[*rules], &mut out))?;
    let [out] = out;
    Ok(out)
}

/// [`generic`] from one source into several targets, each `(to, rules)`, giving the same
/// outputs as a call of [`generic`] per target, in order. Each chunk of the source is decoded
/// once per generation, not once per target: the self-check casts each source into up to 30
/// targets, and decoding took a fifth of its time.
pub(crate) fn generic_each(
    op: OpVersion,
    source: &Storage,
    targets: &[(DataType, CastRules)],
) -> Result<Vec<Storage>, Error> {
    let from = source.dtype();
    let rules: Vec<CastRules> = targets
        .iter()
        .map(|(to, rules)| rules.keeping(rules_read(from, *to)))
        .collect();
    let mut out: Vec<Storage> = targets.iter().map(|&(to, _)| Storage::empty(to)).collect();
    with_storage!(source, v => convert_chunked(op, v, &rules, &mut out))?;
    Ok(out)
}

/// The parts of the rules the generic path reads casting a `from` element to `to`, from the
/// code that reads them:
/// * `saturate`: only [`FormatRow::encode`](crate::formats)'s overflow code for the float8
///   targets (IEEE targets always overflow to Inf, FLOAT4E2M1 and float6 always to the largest
///   value) and FLOAT8E8M0's range ends; integer, INT4/UINT4 and bool targets never.
/// * the generation: the decoder of the FNUZ float8 sources (the sign of the NaN code 0x80);
///   the NaN codes of FLOAT8E5M2, FLOAT4E2M1 and float6 targets; BFLOAT16's truncation before
///   24; the clamp of a floating source into INT4/UINT4 before 24. IEEE, FLOAT8E4M3FN, FNUZ
///   and FLOAT8E8M0 encoders, every other decoder and every integer or bool target do not.
/// * `round_mode`: FLOAT8E8M0 targets only.
///
/// STRING and the complex types on either side read everything (their rules live elsewhere).
/// A test holds the generic path and the fast paths to this on every numeric pair, every rule
/// set and a broad sample of codes (`ops/tests/fast.rs`).
pub(crate) fn rules_read(from: DataType, to: DataType) -> RulesRead {
    use DataType as D;
    let numeric = |t: DataType| !matches!(t, D::String | D::Complex64 | D::Complex128);
    if !numeric(from) || !numeric(to) {
        return RulesRead::ALL;
    }
    let floating = matches!(
        from,
        D::Float
            | D::Double
            | D::Float16
            | D::Bfloat16
            | D::Float8E4M3FN
            | D::Float8E4M3FNUZ
            | D::Float8E5M2
            | D::Float8E5M2FNUZ
            | D::Float8E8M0
            | D::Float4E2M1
            | D::Float6E2M3
            | D::Float6E3M2
    );
    RulesRead {
        saturate: matches!(
            to,
            D::Float8E4M3FN | D::Float8E4M3FNUZ | D::Float8E5M2 | D::Float8E5M2FNUZ | D::Float8E8M0
        ),
        generation: matches!(from, D::Float8E4M3FNUZ | D::Float8E5M2FNUZ)
            || matches!(
                to,
                D::Bfloat16 | D::Float8E5M2 | D::Float4E2M1 | D::Float6E2M3 | D::Float6E3M2
            )
            || (floating && matches!(to, D::Int4 | D::Uint4)),
        round_mode: to == D::Float8E8M0,
    }
}

/// Elements the generic path decodes at a time: an [`Exact`] takes 32 bytes, so a whole
/// tensor's worth would take 512 MiB for 16M elements; a chunk of 32 KiB stays in the L1
/// cache and below the allocator's mapping threshold (at 4096, 128 KiB, calls mapped fresh
/// pages: 18% of the self-check's time on FLOAT -> FLOAT8E4M3FN went to page faults).
const CHUNK: usize = 1024;

/// `v` decoded and encoded into each of `out` (empty storages of the target types) under the
/// rules of the same index, one chunk of exact values at a time; a chunk is decoded once per
/// generation, the one part of the rules a decoder reads ([`CastElem::decode`]).
///
/// The halves are functions of their own, generic over one type each, and never inlined:
/// written as one loop over both types they were compiled for every pair (784 copies, an eighth
/// of the crate's machine code); apart, each is compiled once per type, and a call per chunk of
/// [`CHUNK`] elements costs nothing measurable.
fn convert_chunked<S: CastElem>(
    op: OpVersion,
    v: &[S],
    rules: &[CastRules],
    out: &mut [Storage],
) -> Result<(), Error> {
    for out in out.iter_mut() {
        with_storage!(out, out => out.reserve_exact(v.len()));
    }
    let mut generations: Vec<Generation> = Vec::new();
    for r in rules {
        if !generations.contains(&r.generation) {
            generations.push(r.generation);
        }
    }
    let mut exact = Vec::with_capacity(CHUNK.min(v.len()));
    for chunk in v.chunks(CHUNK) {
        for &generation in &generations {
            decode_chunk(op, chunk, generation, &mut exact)?;
            for (r, out) in rules.iter().zip(out.iter_mut()) {
                if r.generation == generation {
                    with_storage!(out, out => encode_chunk(op, &exact, r, S::SOURCE, out))?;
                }
            }
        }
    }
    Ok(())
}

/// `chunk` decoded exactly into `exact`, which is cleared first.
#[inline(never)]
fn decode_chunk<S: CastElem>(
    op: OpVersion,
    chunk: &[S],
    generation: Generation,
    exact: &mut Vec<Exact>,
) -> Result<(), Error> {
    exact.clear();
    for x in chunk {
        exact.push(
            x.decode(generation)
                .ok_or_else(|| no_cast(op, S::DTYPE, "input 0"))?,
        );
    }
    Ok(())
}

/// Each of `exact`, from a source of kind `from`, encoded into `T` and appended to `out`.
#[inline(never)]
fn encode_chunk<T: CastElem>(
    op: OpVersion,
    exact: &[Exact],
    rules: &CastRules,
    from: Source,
    out: &mut Vec<T>,
) -> Result<(), Error> {
    for e in exact {
        out.push(T::encode(e, rules, from).ok_or_else(|| no_cast(op, T::DTYPE, "target type"))?);
    }
    Ok(())
}

/// Whether a source type is floating-point: the one fact about the source that an encoder
/// needs (INT4/UINT4 clamp a floating source before Cast-24 and keep the low bits of any other).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// FLOAT, DOUBLE, FLOAT16, BFLOAT16, float8, float4, E8M0.
    Floating,
    /// Integers, bool and strings.
    NotFloating,
}

/// An element type as Cast sees it. Methods return `None` where the type takes no part in
/// numeric casts (strings go through [`cast_string`], complex types are never allowed).
pub(crate) trait CastElem: Element {
    /// Whether this type, as a source, is floating-point.
    const SOURCE: Source;
    /// The exact value. Only the generation of the rules can change it (the sign of the FNUZ
    /// NaN), so that a source decoded once serves every target and rule set of a generation.
    fn decode(&self, generation: Generation) -> Option<Exact>;
    /// The value of this type that `v`, decoded from a source of kind `from`, converts to.
    fn encode(v: &Exact, rules: &CastRules, from: Source) -> Option<Self>;
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
        0..=127 => mant.wrapping_shl(exp.unsigned_abs()),
        -127..=-1 => mant >> exp.unsigned_abs(),
        // From 2^128 up every low bit is zero; below 2^-127 a u128 significand is < 1.
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
            const SOURCE: Source = Source::NotFloating;
            #[inline(always)]
            fn decode(&self, _: Generation) -> Option<Exact> {
                Some(Exact::from_i128(i128::from(*self)))
            }
            #[inline(always)]
            fn encode(v: &Exact, _: &CastRules, _: Source) -> Option<Self> {
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
            const SOURCE: Source = Source::Floating;
            #[inline(always)]
            fn decode(&self, generation: Generation) -> Option<Exact> {
                // A decoder reads no other part of the rules (`FloatFormat::to_exact`).
                let rules = CastRules {
                    generation,
                    ..CastRules::default()
                };
                Some(self.to_exact(&rules))
            }
            #[inline(always)]
            fn encode(v: &Exact, rules: &CastRules, _: Source) -> Option<Self> {
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
    F6E2M3 => cast_string::small_float_text,
    F6E3M2 => cast_string::small_float_text,
);

macro_rules! subbyte_elem {
    ($($t:ident => $value:ident),*) => {$(
        impl CastElem for $t {
            const SOURCE: Source = Source::NotFloating;
            fn decode(&self, _: Generation) -> Option<Exact> {
                Some(Exact::from_i128(i128::from(self.$value())))
            }
            // Float → INT4/UINT4 clamps up to version 23 and wraps from 24 (docs/semantics.md §3.2); the
            // format layer owns that rule. Every other source keeps the low bits, as
            // integer → integer does at every version.
            fn encode(v: &Exact, rules: &CastRules, from: Source) -> Option<Self> {
                Some(match from {
                    Source::Floating => $t::from_exact(v, rules),
                    Source::NotFloating => $t::from_exact_wrapping(v),
                })
            }
            fn to_text(&self) -> Option<String> {
                Some(self.$value().to_string())
            }
        }
    )*};
}
subbyte_elem!(I4 => get, I2 => get, U4 => to_bits, U2 => to_bits);

impl CastElem for bool {
    const SOURCE: Source = Source::NotFloating;
    fn decode(&self, _: Generation) -> Option<Exact> {
        Some(Exact::from_i128(i128::from(*self)))
    }
    /// Nonzero is true; NaN, being nonzero, is true; ±0 is false.
    fn encode(v: &Exact, _: &CastRules, _: Source) -> Option<Self> {
        Some(!v.is_zero())
    }
    /// "1" / "0", matching bool → number.
    fn to_text(&self) -> Option<String> {
        Some(if *self { "1" } else { "0" }.to_owned())
    }
}

/// Types outside the numeric path: [`cast`] handles STRING on either side before it (parsing
/// and formatting need the other side's type), and no version allows the complex types.
macro_rules! no_cast_elem {
    ($($t:ty),*) => {$(
        impl CastElem for $t {
            const SOURCE: Source = Source::NotFloating;
            fn decode(&self, _: Generation) -> Option<Exact> {
                None
            }
            fn encode(_: &Exact, _: &CastRules, _: Source) -> Option<Self> {
                None
            }
            fn to_text(&self) -> Option<String> {
                None
            }
        }
    )*};
}
no_cast_elem!(String, Complex64, Complex128);

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
    from: Source,
) -> Result<Vec<T>, Error> {
    v.iter()
        .map(|x| T::encode(x, rules, from).ok_or_else(|| no_cast(op, T::DTYPE, "target type")))
        .collect()
}

fn to_text_all<T: CastElem>(op: OpVersion, v: &[T]) -> Result<Vec<String>, Error> {
    v.iter()
        .map(|x| x.to_text().ok_or_else(|| no_cast(op, T::DTYPE, "input 0")))
        .collect()
}

macro_rules! define_encode_all {
    ($((
        $variant:ident, $code:literal, $name:literal, $ty:ty, $bits:literal, $field:ident,
        $kind:ident, $short:literal
    )),* $(,)?) => {
        /// Encodes exact values into a storage of type `to`.
        fn encode_all(
            op: OpVersion,
            to: DataType,
            v: &[Exact],
            rules: &CastRules,
            from: Source,
        ) -> Result<Storage, Error> {
            Ok(match to {
                $(DataType::$variant => Storage::$variant(encode_slice::<$ty>(op, v, rules, from)?),)*
            })
        }
    };
}
crate::for_each_dtype!(define_encode_all);

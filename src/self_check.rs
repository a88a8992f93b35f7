//! The fast Cast paths held to the exact path over every code of a source type, a chunk of
//! codes at a time, at any SIMD level the CPU has: the check behind `onnx-conformance
//! self-check`, which runs it over all 2^32 codes of the 32-bit sources.
//!
//! Public because the fast paths are crate-private and the command that drives the check (its
//! threads, its progress, its rates) lives in another crate; nothing here is a second
//! implementation: the fast side is the dispatch Cast uses ([`crate::ops::fast`]), the exact
//! side the generic path every fast path is tested against ([`crate::ops::cast::generic`]).
//! Not an API for runtimes.

use crate::dtype::{DataType, Storage};
use crate::formats::{
    CastRules, Generation, RoundMode, RulesRead, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ,
    F8E5M2, F8E5M2FNUZ, F8E8M0, I2, I4, U2, U4,
};
use crate::ops::cast::rules_read;
use crate::ops::{OpKind, OpVersion};
use crate::tuning::{Exec, SimdLevel};
use half::{bf16, f16};
use std::fmt;

/// One conversion the check runs: a source type, a target type and the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    /// The source type.
    pub from: DataType,
    /// The target type.
    pub to: DataType,
    /// saturate, round_mode and the version-24 switch; the parts neither path reads for the
    /// pair (`read`) at their defaults.
    pub rules: CastRules,
    /// The parts of the rules the pair reads (the generic path's [`rules_read`]).
    pub read: RulesRead,
    /// How many rule sets of the full product this case stands for: those that differ only
    /// in parts the pair does not read, which both paths reset before they run.
    pub rule_sets: usize,
}

impl Case {
    /// The case of `from` -> `to` under `rules`, standing for itself alone.
    pub fn new(from: DataType, to: DataType, rules: CastRules) -> Case {
        let read = rules_read(from, to);
        Case {
            from,
            to,
            rules: rules.keeping(read),
            read,
            rule_sets: 1,
        }
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (r, read) = (&self.rules, &self.read);
        write!(f, "{} -> {} (", self.from.name(), self.to.name())?;
        match read.saturate {
            true => write!(f, "saturate {}", r.saturate)?,
            false => write!(f, "saturate unread")?,
        }
        match read.generation {
            true => write!(f, ", {:?}", r.generation)?,
            false => write!(f, ", generation unread")?,
        }
        // round_mode is read by FLOAT8E8M0 targets only, and named only there.
        if read.round_mode {
            write!(f, ", round_mode {:?}", r.round_mode)?;
        }
        write!(f, ")")
    }
}

/// Every rule set the check runs `to` under: each saturate with each generation, and for
/// FLOAT8E8M0, the one target that reads it, each round_mode too.
fn rule_sets(to: DataType) -> Vec<CastRules> {
    let modes: &[RoundMode] = match to {
        DataType::Float8E8M0 => &[RoundMode::Up, RoundMode::Down, RoundMode::Nearest],
        _ => &[RoundMode::Up],
    };
    let mut v = Vec::new();
    for saturate in [true, false] {
        for generation in [Generation::Before24, Generation::From24] {
            v.extend(modes.iter().map(|&round_mode| CastRules {
                saturate,
                round_mode,
                generation,
            }));
        }
    }
    v
}

/// Every case with a fast path whose source has at most 32 bits (so that every code can be
/// run), in type order, under every rule set of [`rule_sets`], except that rule sets which
/// differ only in parts the pair does not read ([`rules_read`]) are one case. That merge
/// weakens nothing: the fast dispatch and the generic path both reset those parts to their
/// defaults before they run (and a test holds the reset to change no output of either), so the
/// merged rule sets give both paths the very same call. Found by asking the dispatch with empty
/// storages, so a pair added to it is checked without a list to keep.
pub fn cases() -> Vec<Case> {
    let exec = Exec::single(SimdLevel::Baseline);
    let mut v: Vec<Case> = Vec::new();
    for &from in DataType::ALL {
        if source(from, 0, 0).is_none() {
            continue;
        }
        let empty = Storage::empty(from);
        for &to in DataType::ALL {
            let read = rules_read(from, to);
            for rules in rule_sets(to) {
                if crate::ops::fast::cast(&exec, &empty, to, &rules).is_none() {
                    continue;
                }
                let rules = rules.keeping(read);
                let same = |c: &&mut Case| c.from == from && c.to == to && c.rules == rules;
                match v.iter_mut().find(same) {
                    Some(c) => c.rule_sets += 1,
                    None => v.push(Case {
                        from,
                        to,
                        rules,
                        read,
                        rule_sets: 1,
                    }),
                }
            }
        }
    }
    v
}

/// How many codes `from` has (2^bits, u64::MAX for a 64-bit type), which is how many
/// elements the check of a case runs.
pub fn code_count(from: DataType) -> u64 {
    1u64.checked_shl(from.bit_width()).unwrap_or(u64::MAX)
}

/// A fast output that differs from the exact path's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The conversion.
    pub case: Case,
    /// The SIMD level the fast path ran at.
    pub level: SimdLevel,
    /// The source element's bits.
    pub input: u64,
    /// The fast path's output bits ([`bits`]).
    pub fast: u64,
    /// The exact path's output bits.
    pub exact: u64,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {}: input {:#x}, fast {:#x}, exact {:#x}",
            self.case,
            self.level.name(),
            self.input,
            self.fast,
            self.exact
        )
    }
}

/// What one chunk of one case gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// How many (element, level) outputs differ from the exact path's.
    pub differing: u64,
    /// The first few of them ([`MAX_REPORTED`] per chunk and level).
    pub mismatches: Vec<Mismatch>,
}

/// Mismatches listed per chunk and level; the rest are only counted.
pub const MAX_REPORTED: usize = 8;

/// Runs `case` on the codes `first .. first + len` (cut at the source's code count) by its
/// fast path at each of `levels` (levels the CPU lacks run the best one it has), on this
/// thread, and compares every output with the exact path's, bit for bit. One thread and
/// ordinary stores per call: the caller splits the codes over threads, and the thread split
/// and streaming stores, which only move where an element is written, have their own tests.
/// An error says why the case cannot be checked: no fast path, a source type [`cases`] never
/// gives, or the exact path's own refusal.
pub fn check(case: &Case, first: u64, len: u64, levels: &[SimdLevel]) -> Result<Checked, String> {
    check_with(case, first, len, levels, &|exec, source| {
        crate::ops::fast::cast(exec, source, case.to, &case.rules)
    })
}

/// [`check`] of each of `cases` on the same codes, in order: the source codes are made, and
/// the exact path decodes them, once for all the cases of one source type, not once per case
/// (the FLOAT source has 30 cases).
pub fn check_each(
    cases: &[Case],
    first: u64,
    len: u64,
    levels: &[SimdLevel],
) -> Vec<Result<Checked, String>> {
    check_each_with(cases, first, len, levels, &|case, exec, source| {
        crate::ops::fast::cast(exec, source, case.to, &case.rules)
    })
}

/// [`check`] with the fast side given, so that a test can plant a wrong output.
fn check_with(
    case: &Case,
    first: u64,
    len: u64,
    levels: &[SimdLevel],
    fast: &dyn Fn(&Exec, &Storage) -> Option<Storage>,
) -> Result<Checked, String> {
    let each = check_each_with(
        std::slice::from_ref(case),
        first,
        len,
        levels,
        &|_, e, s| fast(e, s),
    );
    each.into_iter()
        .next()
        .unwrap_or_else(|| Err(format!("{case}: not checked")))
}

/// [`check_each`] with the fast side given.
fn check_each_with(
    cases: &[Case],
    first: u64,
    len: u64,
    levels: &[SimdLevel],
    fast: &dyn Fn(&Case, &Exec, &Storage) -> Option<Storage>,
) -> Vec<Result<Checked, String>> {
    let mut results: Vec<Option<Result<Checked, String>>> = vec![None; cases.len()];
    for (i, case) in cases.iter().enumerate() {
        if results[i].is_some() {
            continue;
        }
        let of_source: Vec<usize> = (i..cases.len())
            .filter(|&j| cases[j].from == case.from)
            .collect();
        let of: Vec<&Case> = of_source.iter().map(|&j| &cases[j]).collect();
        let checked = check_source(&of, first, len, levels, fast);
        for (j, r) in of_source.into_iter().zip(checked) {
            results[j] = Some(r);
        }
    }
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("not checked".to_owned())))
        .collect()
}

/// [`check_each_with`] for cases that share a source type.
fn check_source(
    cases: &[&Case],
    first: u64,
    len: u64,
    levels: &[SimdLevel],
    fast: &dyn Fn(&Case, &Exec, &Storage) -> Option<Storage>,
) -> Vec<Result<Checked, String>> {
    let each_fails = |why: &dyn Fn(&Case) -> String| -> Vec<Result<Checked, String>> {
        cases.iter().map(|c| Err(why(c))).collect()
    };
    let Some(&&Case { from, .. }) = cases.first() else {
        return Vec::new();
    };
    let end = first.saturating_add(len).min(code_count(from));
    let Some(src) = source(from, first, end.saturating_sub(first)) else {
        return each_fails(&|c| format!("{c}: the check runs no {} source", from.name()));
    };
    // The version only names the operator in an error; the rules are the cases'.
    let op = match OpVersion::resolve(OpKind::Cast.name(), 28) {
        Ok(op) => op,
        Err(e) => return each_fails(&|_| e.to_string()),
    };
    let targets: Vec<(DataType, CastRules)> = cases.iter().map(|c| (c.to, c.rules)).collect();
    match crate::ops::cast::generic_each(op, &src, &targets) {
        Ok(exact) => cases
            .iter()
            .zip(&exact)
            .map(|(&case, exact)| compare(case, &src, exact, first, levels, fast))
            .collect(),
        Err(e) => each_fails(&|c| format!("{c}: the exact path: {e}")),
    }
}

/// `case`'s fast path on `src` at each of `levels`, held to `exact`, the exact path's output.
fn compare(
    case: &Case,
    src: &Storage,
    exact: &Storage,
    first: u64,
    levels: &[SimdLevel],
    fast: &dyn Fn(&Case, &Exec, &Storage) -> Option<Storage>,
) -> Result<Checked, String> {
    let no_bits = || format!("{case}: no bits for the target");
    let mut out = Checked::default();
    for &level in levels {
        let exec = Exec::single(level.min(SimdLevel::detected()));
        let got = fast(case, &exec, src).ok_or_else(|| format!("{case}: no fast path"))?;
        if got.len() != exact.len() {
            let (g, e) = (got.len(), exact.len());
            return Err(format!("{case} at {}: {g} outputs for {e}", level.name()));
        }
        let differ = differing(&got, exact).ok_or_else(no_bits)?;
        if differ.is_empty() {
            continue;
        }
        // The bits of both sides, only for a chunk that differs.
        let (got, exact) = (bits(&got), bits(exact));
        let (got, exact) = got.zip(exact).ok_or_else(no_bits)?;
        let mut listed = 0;
        for i in differ {
            out.differing += 1;
            if listed < MAX_REPORTED {
                listed += 1;
                out.mismatches.push(Mismatch {
                    case: *case,
                    level,
                    input: first + i as u64,
                    fast: got[i],
                    exact: exact[i],
                });
            }
        }
    }
    Ok(out)
}

/// The source elements with codes `first .. first + len` (which must fit the type), or `None`
/// for a type the check does not run (wider than 32 bits, or not a number: bool, and the 2-bit
/// types, which it never ran).
fn source(from: DataType, first: u64, len: u64) -> Option<Storage> {
    use DataType as D;
    if from.bit_width() > 32 || matches!(from, D::Bool | D::Int2 | D::Uint2) {
        return None;
    }
    storage_of_codes(from, first..first + len)
}

/// Elements of `dtype` with the bit patterns `codes`, each cut to the type's width (its code is
/// its low bits: `as` keeps exactly those; a bool is the low bit), or `None` for the types
/// without numeric codes (strings, complex).
pub(crate) fn storage_of_codes(
    dtype: DataType,
    codes: impl Iterator<Item = u64>,
) -> Option<Storage> {
    use DataType as D;
    let c = codes;
    Some(match dtype {
        D::Float => Storage::Float(c.map(|b| f32::from_bits(b as u32)).collect()),
        D::Double => Storage::Double(c.map(f64::from_bits).collect()),
        D::Float16 => Storage::Float16(c.map(|b| f16::from_bits(b as u16)).collect()),
        D::Bfloat16 => Storage::Bfloat16(c.map(|b| bf16::from_bits(b as u16)).collect()),
        D::Float8E4M3FN => Storage::Float8E4M3FN(c.map(|b| F8E4M3FN::from_bits(b as u8)).collect()),
        D::Float8E4M3FNUZ => {
            Storage::Float8E4M3FNUZ(c.map(|b| F8E4M3FNUZ::from_bits(b as u8)).collect())
        }
        D::Float8E5M2 => Storage::Float8E5M2(c.map(|b| F8E5M2::from_bits(b as u8)).collect()),
        D::Float8E5M2FNUZ => {
            Storage::Float8E5M2FNUZ(c.map(|b| F8E5M2FNUZ::from_bits(b as u8)).collect())
        }
        D::Float8E8M0 => Storage::Float8E8M0(c.map(|b| F8E8M0::from_bits(b as u8)).collect()),
        D::Float4E2M1 => Storage::Float4E2M1(c.map(|b| F4E2M1::from_bits(b as u8)).collect()),
        D::Float6E2M3 => Storage::Float6E2M3(c.map(|b| F6E2M3::from_bits(b as u8)).collect()),
        D::Float6E3M2 => Storage::Float6E3M2(c.map(|b| F6E3M2::from_bits(b as u8)).collect()),
        D::Int4 => Storage::Int4(c.map(|b| I4::from_bits(b as u8)).collect()),
        D::Uint4 => Storage::Uint4(c.map(|b| U4::from_bits(b as u8)).collect()),
        D::Int2 => Storage::Int2(c.map(|b| I2::from_bits(b as u8)).collect()),
        D::Uint2 => Storage::Uint2(c.map(|b| U2::from_bits(b as u8)).collect()),
        D::Bool => Storage::Bool(c.map(|b| b & 1 == 1).collect()),
        D::Uint8 => Storage::Uint8(c.map(|b| b as u8).collect()),
        D::Int8 => Storage::Int8(c.map(|b| b as i8).collect()),
        D::Uint16 => Storage::Uint16(c.map(|b| b as u16).collect()),
        D::Int16 => Storage::Int16(c.map(|b| b as i16).collect()),
        D::Uint32 => Storage::Uint32(c.map(|b| b as u32).collect()),
        D::Int32 => Storage::Int32(c.map(|b| b as i32).collect()),
        D::Uint64 => Storage::Uint64(c.collect()),
        D::Int64 => Storage::Int64(c.map(|b| b as i64).collect()),
        _ => return None,
    })
}

/// The indices where two storages of one type hold different bits (as [`bits`] reads them:
/// floats by bit pattern, so NaN payloads and the sign of zero count), without building the
/// bits of every element; `None` for differing types or a type [`bits`] does not read.
fn differing(a: &Storage, b: &Storage) -> Option<Vec<usize>> {
    fn by<T: Copy, B: PartialEq>(x: &[T], y: &[T], f: impl Fn(T) -> B) -> Vec<usize> {
        // A pass without a branch per element first (the compiler vectorises it): nearly
        // every chunk is equal throughout.
        if !x
            .iter()
            .zip(y)
            .fold(false, |d, (&p, &q)| d | (f(p) != f(q)))
        {
            return Vec::new();
        }
        let pairs = x.iter().zip(y).enumerate();
        pairs
            .filter(|(_, (&p, &q))| f(p) != f(q))
            .map(|(i, _)| i)
            .collect()
    }
    use Storage as S;
    Some(match (a, b) {
        (S::Float(x), S::Float(y)) => by(x, y, f32::to_bits),
        (S::Double(x), S::Double(y)) => by(x, y, f64::to_bits),
        (S::Float16(x), S::Float16(y)) => by(x, y, f16::to_bits),
        (S::Bfloat16(x), S::Bfloat16(y)) => by(x, y, bf16::to_bits),
        (S::Float8E4M3FN(x), S::Float8E4M3FN(y)) => by(x, y, F8E4M3FN::to_bits),
        (S::Float8E4M3FNUZ(x), S::Float8E4M3FNUZ(y)) => by(x, y, F8E4M3FNUZ::to_bits),
        (S::Float8E5M2(x), S::Float8E5M2(y)) => by(x, y, F8E5M2::to_bits),
        (S::Float8E5M2FNUZ(x), S::Float8E5M2FNUZ(y)) => by(x, y, F8E5M2FNUZ::to_bits),
        (S::Float8E8M0(x), S::Float8E8M0(y)) => by(x, y, F8E8M0::to_bits),
        (S::Float4E2M1(x), S::Float4E2M1(y)) => by(x, y, F4E2M1::to_bits),
        (S::Float6E2M3(x), S::Float6E2M3(y)) => by(x, y, F6E2M3::to_bits),
        (S::Float6E3M2(x), S::Float6E3M2(y)) => by(x, y, F6E3M2::to_bits),
        (S::Int4(x), S::Int4(y)) => by(x, y, I4::get),
        (S::Uint4(x), S::Uint4(y)) => by(x, y, U4::to_bits),
        (S::Uint8(x), S::Uint8(y)) => by(x, y, u8::from),
        (S::Int8(x), S::Int8(y)) => by(x, y, i8::from),
        (S::Uint16(x), S::Uint16(y)) => by(x, y, u16::from),
        (S::Int16(x), S::Int16(y)) => by(x, y, i16::from),
        (S::Uint32(x), S::Uint32(y)) => by(x, y, u32::from),
        (S::Int32(x), S::Int32(y)) => by(x, y, i32::from),
        (S::Uint64(x), S::Uint64(y)) => by(x, y, u64::from),
        (S::Int64(x), S::Int64(y)) => by(x, y, i64::from),
        _ => return None,
    })
}

/// Every element's bits, zero-extended: floats by bit pattern (NaN payloads and signs count),
/// integers as two's complement in their width, INT4 as the byte it is stored as (its value
/// sign-extended, so that a kernel writing the bare nibble differs), the other newtypes by
/// their code; `None` for the types no fast path writes.
pub fn bits(s: &Storage) -> Option<Vec<u64>> {
    fn map<T: Copy>(v: &[T], f: impl Fn(T) -> u64) -> Vec<u64> {
        v.iter().map(|&x| f(x)).collect()
    }
    Some(match s {
        Storage::Float(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Double(v) => map(v, f64::to_bits),
        Storage::Float16(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Bfloat16(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Float8E4M3FN(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Float8E4M3FNUZ(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Float8E5M2(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Float8E5M2FNUZ(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Float8E8M0(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Float4E2M1(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Float6E2M3(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Float6E3M2(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Int4(v) => map(v, |x| u64::from(x.get() as u8)),
        Storage::Uint4(v) => map(v, |x| u64::from(x.to_bits())),
        Storage::Uint8(v) => map(v, u64::from),
        Storage::Int8(v) => map(v, |x| u64::from(x as u8)),
        Storage::Uint16(v) => map(v, u64::from),
        Storage::Int16(v) => map(v, |x| u64::from(x as u16)),
        Storage::Uint32(v) => map(v, u64::from),
        Storage::Int32(v) => map(v, |x| u64::from(x as u32)),
        Storage::Uint64(v) => v.clone(),
        Storage::Int64(v) => map(v, |x| x as u64),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;

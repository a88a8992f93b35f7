//! The narrowing encoder for 16-bit sources with one rounding for every finite lane, normal
//! or subnormal in the target, driven by a table per source exponent.
//!
//! `narrow.rs`'s 16-bit-lane kernels round the target's normal values in 16-bit lanes but
//! widen its subnormal values to f32 for the addition that rounds them: conversions, twice as
//! many registers, packs and a permutation back, paid for every register that holds one such
//! lane (with inputs around the float6 ranges, nearly all do). Here the rounding is
//! `(a + add + odd) >> shift` for every lane, with `shift` and `add` looked up (`vpermw`) by
//! the source exponent: for a target normal value the constant shift and rebias of
//! `narrow.rs`; for a target subnormal value a longer shift, the implicit bit restored and the
//! exponent taken off in the same addition. Variable 16-bit shifts and 16-bit permutations
//! are AVX-512BW (`encode_v4`). At AVX2 (`encode_v3`) the same entries are looked up by
//! `vpshufb` from eight of them, indexed by the exponent's height above `e0 - 7` (`e0` the
//! source exponent of the target's smallest normal; see [`Heights16`]), and the shifts are
//! products' high halves (`vpmulhuw`).
//!
//! Both kernels also take f32 sources, whose lanes they round to bf16 by round-to-odd first,
//! in their own registers (`odd16.rs` says why that gives the f32's own codes), and then
//! encode by bf16's table.
//!
//! The specials take fewer operations than `narrow.rs`'s selects, through a rule the table
//! checks ([`Table16::new`] is `None` where it does not hold, and `narrow.rs` runs): the
//! negative codes, NaN included, are the positive ones with the sign bit flipped. So the sign
//! goes in by one exclusive or per 64 codes (32 at AVX2), after the NaN lanes took +NaN's
//! code.

use super::super::codec::Specials;
use super::encode::{Narrow, Target, Wide};
use super::narrow::{lanes16_fit, same_exponent, shortcuts_hold};

#[cfg(target_arch = "x86_64")]
use super::encode::WideFrom;
#[cfg(target_arch = "x86_64")]
use super::kernel::{blocks, store};
#[cfg(target_arch = "x86_64")]
use super::narrow::unpack_order;
#[cfg(target_arch = "x86_64")]
use super::odd16;
#[cfg(target_arch = "x86_64")]
use crate::formats::float::TableFormat;
use crate::tuning::simd_fn;
#[cfg(target_arch = "x86_64")]
use half::bf16;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;
#[cfg(target_arch = "x86_64")]
use std::hint::black_box;
#[cfg(target_arch = "x86_64")]
use std::mem::MaybeUninit;

/// The table: an entry per source exponent (or per exponent in a 32-wide window of it), and
/// the constants of the specials, as 16-bit lane values.
#[derive(Clone, Debug)]
#[cfg_attr(
    all(not(target_arch = "x86_64"), not(test)),
    expect(dead_code, reason = "read by the x86-64 kernel and the tests only")
)]
pub(super) struct Table16 {
    /// The source's mantissa bits: where its exponent field starts.
    mant: u32,
    /// Subtracted (saturating) from the magnitude before its exponent is the index: the
    /// exponent that index 0 stands for, in place. Zero when the exponent is the index.
    base: u16,
    /// Whether the index is clamped to 31: the exponent field is wider than the table.
    clamp: bool,
    /// `S`'s biased exponent of `T`'s smallest normal: from it on, every entry is the same.
    e0: u16,
    /// Per index, how many bits are rounded away; 15 with a zero addend (a magnitude shifted
    /// by 15 is 0) where every value rounds to zero.
    shift: [u16; 32],
    /// Per index, the addend before the shift (wrapping): round half to even, the exponent
    /// taken off, and for subnormal results the implicit bit put back.
    add: [u16; 32],
    /// The overflow code: magnitudes are clamped to it.
    over: u16,
    /// Source magnitudes above it are NaN.
    inf: u16,
    /// +NaN's code.
    nan: u16,
    /// The target's sign bit.
    sign: u16,
    /// How far bit 7 of a byte moves down to the target's sign bit.
    sign_down: u32,
}

impl Table16 {
    /// The table of `S` to `T` under the rules `n` was made for, or `None` where this encoder
    /// does not give the exact path's codes or `narrow.rs` does with less work.
    pub(super) fn new<S: Wide, T: Target>(n: &Narrow) -> Option<Table16> {
        let (s, t) = (S::ROW, T::ROW);
        let flipped = n.nan.1 == n.nan.0 ^ n.sign && n.overflow.0 < n.sign;
        // The FNUZ formats have no -0: a zero would need its own select.
        let signed_zero = t.specials != Specials::Fnuz;
        // Sharing the exponent, `narrow.rs` rounds every lane with one constant shift.
        let fit = lanes16_fit::<S, T>() && !same_exponent::<S, T>();
        if !(fit && flipped && signed_zero && shortcuts_hold::<T>(n)) {
            return None;
        }
        let (ms, mt) = (s.mant_bits as i32, t.mant_bits as i32);
        // `S`'s biased exponent of `T`'s smallest normal.
        let e0 = 1 - t.bias + s.bias;
        let clamp = s.exp_bits > 5;
        // Windowed, index 0 takes every exponent up to one whose values all round to zero
        // (below half the smallest subnormal); index 31 every one from there on, all normal.
        let base = if clamp { (e0 - mt - 2).max(0) } else { 0 };
        // Index 31 must be a normal exponent; and from `e0 = 2` on, a normal lane loses at
        // least 2^M (the rebias) before its rounding addend, so every sum stays below 2^15.
        if base + 31 < e0 || e0 < 2 {
            return None;
        }
        // A one-byte target: its sign bit is in the byte.
        let sign_down = sign_down::<T>()?;
        let mut table = Table16 {
            mant: ms as u32,
            base: (base << ms) as u16,
            clamp,
            e0: e0 as u16,
            shift: [15; 32],
            add: [0; 32],
            over: n.overflow.0 as u16,
            inf: (((1 << s.exp_bits) - 1) << ms) as u16,
            nan: n.nan.0 as u16,
            sign: n.sign as u16,
            sign_down,
        };
        for (i, (shift, add)) in table.shift.iter_mut().zip(&mut table.add).enumerate() {
            let e = base + i as i32;
            // Every value of an exponent `mt + 2` or more below `e0` is below half the smallest
            // subnormal (and so rounds to zero): the zero entry. Above it, `sh` is at most
            // `ms + 1`, a count below 16.
            if e0 - e >= mt + 2 {
                continue;
            }
            let sh = (ms - mt) + (e0 - e).max(0);
            // What the lane's bits are less than the significand to round: the exponent
            // above `e0 - 1` for a normal result (the rebias), all of it but the implicit bit
            // for a subnormal one. Exponent 0 (a subnormal source) has no implicit bit.
            let adj = (e.clamp(1, e0) - 1) << ms;
            // The parity bit is read from the lane's bits, not from the significand: for
            // shifts from the mantissa width on they differ by a constant per exponent.
            let parity = |x: i32| (x >> sh) & 1;
            let correction = if e >= 1 && sh >= ms {
                parity(1 << ms) - parity(e << ms)
            } else {
                0
            };
            *shift = sh as u16;
            *add = (((1 << (sh - 1)) - 1) - adj + correction) as u16;
        }
        Some(table)
    }

    /// The index of the magnitude `a`'s entry.
    fn index(&self, a: u16) -> usize {
        let i = a.saturating_sub(self.base) >> self.mant;
        usize::from(if self.clamp { i.min(31) } else { i })
    }

    /// The code of the source bits `h`, as the vector kernel computes it.
    #[cfg(test)]
    pub(super) fn code(&self, h: u16) -> u16 {
        let a = h & 0x7FFF;
        let i = self.index(a);
        // As `vpsravw`, on values below 2^15.
        let shr = |x: u16, c: u16| ((x as i16) >> c) as u16;
        let odd = shr(a, self.shift[i]) & 1;
        let c = shr(a.wrapping_add(self.add[i]).wrapping_add(odd), self.shift[i]);
        let c = if a > self.inf {
            self.nan
        } else {
            c.min(self.over)
        };
        self.signed(h, c)
    }

    /// The code of the source bits `h` from its magnitude's code `c`: the sign by the kernels'
    /// route, a signed saturating pack keeping it in bit 7.
    #[cfg(test)]
    fn signed(&self, h: u16, c: u16) -> u16 {
        let byte = (h as i16).clamp(-128, 127) as u8;
        c ^ ((u16::from(byte) >> self.sign_down) & self.sign)
    }

    /// The same entries by height (below), for `encode_v3`; `None` where one height would
    /// stand for two different entries, height 0 for a nonzero one, or an entry's shift is no
    /// multiplier's.
    pub(super) fn by_height(&self) -> Option<Heights16> {
        let floor = self.e0.checked_sub(HIGHEST)?;
        let mut entries = [None; HIGHEST as usize + 1];
        for e in 0..=self.inf >> self.mant {
            let i = self.index(e << self.mant);
            let entry = match (self.shift[i], self.add[i]) {
                // The zero entry: a product by 0 is 0 too, and 0 is what `vpshufb` reads at
                // height 0 (below).
                (15, 0) => (0, 0),
                // `vpmulhuw` by 2^(16 - shift): counts 1 to 15 (2^16 is no 16-bit multiplier).
                (shift @ 1..=15, add) => (1u16 << (16 - shift), add),
                _ => return None,
            };
            let z = e.saturating_sub(floor).min(HIGHEST);
            if *entries[usize::from(z)].get_or_insert(entry) != entry {
                return None;
            }
        }
        if entries[0] != Some((0, 0)) {
            return None;
        }
        let mut heights = Heights16 {
            floor: floor << self.mant,
            mul: [0; 16],
            add: [0; 16],
        };
        // Each entry's bytes where the bytes of `z * SPREAD` read them: `z` and `16 - z`
        // (mod 16), all apart but height 0's, both 0.
        for (z, entry) in (0..).zip(entries) {
            let (mul, add) = entry?;
            let [lo, hi] = (z * SPREAD).to_le_bytes().map(|i| usize::from(i & 15));
            for (table, v) in [(&mut heights.mul, mul), (&mut heights.add, add)] {
                [table[lo], table[hi]] = v.to_le_bytes();
            }
        }
        Some(heights)
    }
}

/// The mantissa width of the 16-bit lanes the kernels encode from an `S` source: its own, or
/// bf16's for an f32 source, which they round to bf16 first (`odd16.rs`).
#[cfg(target_arch = "x86_64")]
fn lane_mant<S: Wide>() -> u32 {
    match S::FROM {
        WideFrom::F32 => <bf16 as TableFormat>::ROW.mant_bits,
        WideFrom::F16 | WideFrom::Bf16 => S::ROW.mant_bits,
    }
}

/// How far bit 7 of a byte moves down to `T`'s sign bit; `None` for a format wider than a byte.
fn sign_down<T: Target>() -> Option<u32> {
    7u32.checked_sub(T::ROW.exp_bits + T::ROW.mant_bits)
}

/// The highest height [`Heights16`] tells apart, that of every normal exponent; height 0 stands
/// for every exponent from `HIGHEST` below `e0` down, which must have the zero entry (every
/// one from `mt + 2` below on, at most 5, has).
const HIGHEST: u16 = 7;

/// The product of a height `z` (at most 7) whose bytes are `z` and `15 z`, `vpshufb`'s indices
/// of the two bytes of the 16-bit entry stored at `z` and `16 - z` (mod 16): all apart for
/// heights 1 to 7, and bit 7 (which reads 0) clear.
const SPREAD: u16 = 0x0F01;

/// `encode_v3`'s table: [`Table16`]'s entries by height, how many exponents the source's is
/// above `e0 - HIGHEST` (0 at or below it, [`HIGHEST`] for every normal exponent). AVX2 has
/// neither variable 16-bit shifts nor 16-bit permutations; but an 8-entry table of 16-bit
/// values is one `vpshufb` (per 128-bit half), and a right shift by `s` of a 16-bit lane is the
/// high half of its product by `2^(16 - s)` (`vpmulhuw`). Only the height tells the entries
/// apart: for a normal lane they are one constant, for a subnormal one they depend on the
/// exponent through its distance from `e0` ([`Table16::by_height`] checks that, entry by
/// entry).
#[derive(Clone, Debug)]
#[cfg_attr(
    all(not(target_arch = "x86_64"), not(test)),
    expect(dead_code, reason = "read by the x86-64 kernel and the tests only")
)]
pub(super) struct Heights16 {
    /// `S`'s exponent `e0 - HIGHEST`, in place: subtracted from the magnitude (saturating),
    /// shifted down by the mantissa width and clamped to [`HIGHEST`], the height.
    floor: u16,
    /// `vpshufb`'s table of the multipliers `2^(16 - shift)` (0 for the zero entry), whose
    /// products' high halves are the shifts; laid out as [`SPREAD`] reads it.
    mul: [u8; 16],
    /// The addends, laid out the same.
    add: [u8; 16],
}

impl Heights16 {
    /// The code of the source bits `h`, as `encode_v3` computes it from these entries and the
    /// specials' constants of `t`, the table they were made from.
    #[cfg(test)]
    pub(super) fn code(&self, t: &Table16, h: u16) -> u16 {
        let a = h & 0x7FFF;
        let i = (a.saturating_sub(self.floor) >> t.mant).min(HIGHEST) * SPREAD;
        // As `vpshufb`: a byte with bit 7 set reads 0, any other its low four bits' byte.
        let look = |table: &[u8; 16]| {
            let byte = |x: u16| match x & 0x80 {
                0 => table[usize::from(x & 15)],
                _ => 0,
            };
            u16::from_le_bytes([byte(i & 0xFF), byte(i >> 8)])
        };
        let (mul, add) = (look(&self.mul), look(&self.add));
        // As `vpmulhuw`.
        let shr = |x: u16| ((u32::from(x) * u32::from(mul)) >> 16) as u16;
        let odd = shr(a) & 1;
        let c = shr(a.wrapping_add(add).wrapping_add(odd));
        // NaN by flipping the bits that make the overflow code +NaN's: the kernel relies on
        // NaN lanes having rounded above the overflow code, which this checks too.
        let nan = if a > t.inf { t.nan ^ t.over } else { 0 };
        t.signed(h, c.min(t.over) ^ nan)
    }
}

simd_fn! { avx512:
/// Encodes `src` into `T` by `table` (made for the rules `scalar` follows, which encodes the
/// heads and tails): 32 lanes per register, 64 codes per aligned 64-byte store.
///
/// An f32 source is first rounded to bf16 by round-to-odd, in registers (`odd16.rs` says why
/// that gives the f32's own codes), and `table` is then bf16's: one loop rather than a staging
/// pass and an encoding pass, so the reads of the source overlap all the arithmetic. On the
/// Intel Xeon family 6 model 207 it encodes f32 about 1.4 times as fast as the f32-lane
/// kernel in cache, and at 16M elements and 2 threads reaches memory speed where that one did
/// not (docs/performance.md).
pub(super) fn encode_v4<S: Wide, T: Target>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    table: &Table16,
    scalar: impl Fn(S) -> T + Copy,
    stream: bool,
) {
    const { assert!(size_of::<T>() == 1) };
    // Not `const` assertions: the kernel is compiled for every source.
    assert_eq!(table.mant, lane_mant::<S>(), "a table made for another source");
    // The f32 bits of the sticky test, the bit it sets, and `vpermt2w`'s indices of the upper
    // halves of two registers of f32, in order.
    let (low, sticky) = (_mm512_set1_epi32(0xFFFF), _mm512_set1_epi32(0x1_0000));
    let upper = {
        let mut i = [0i16; 32];
        for (k, v) in (0..).zip(&mut i) {
            *v = 2 * k + 1;
        }
        // SAFETY: 32 i16, the 64 bytes of one unaligned load.
        unsafe { _mm512_loadu_si512(i.as_ptr().cast()) }
    };
    // 64 elements from `p` as 16-bit lanes in order: loaded, or rounded from f32 to odd.
    // Loops over arrays, not `map`: LLVM left `map`'s closures out of line, a call per register.
    // SAFETY (of each call): `p` is valid for reading 64 elements.
    let words = |p: *const S| -> [__m512i; 2] {
        let mut h = [_mm512_setzero_si512(); 2];
        match S::FROM {
            WideFrom::F32 => {
                let mut x = [_mm512_setzero_si512(); 4];
                for (k, v) in x.iter_mut().enumerate() {
                    // SAFETY: the call's contract; 16 f32 at 16k, below 64.
                    let f = unsafe { _mm512_loadu_si512(p.add(16 * k).cast()) };
                    *v = _mm512_mask_or_epi32(f, _mm512_test_epi32_mask(f, low), f, sticky);
                }
                for (k, v) in h.iter_mut().enumerate() {
                    *v = _mm512_permutex2var_epi16(x[2 * k], upper, x[2 * k + 1]);
                }
            }
            WideFrom::F16 | WideFrom::Bf16 => {
                for (k, v) in h.iter_mut().enumerate() {
                    // SAFETY: the call's contract; 32 two-byte elements at 32k, below 64.
                    *v = unsafe { _mm512_loadu_si512(p.add(32 * k).cast()) };
                }
            }
        }
        h
    };
    // SAFETY: each array is 32 u16, the 64 bytes of one unaligned load.
    let (shifts, adds) = unsafe {
        (
            _mm512_loadu_si512(table.shift.as_ptr().cast()),
            _mm512_loadu_si512(table.add.as_ptr().cast()),
        )
    };
    let w = |v: u16| _mm512_set1_epi16(v as i16);
    // Opaque: seeing the magnitudes non-negative or only the low bit of the parity shift used,
    // LLVM makes that arithmetic shift a logical one behind a clamp of its counts, an
    // operation more per register.
    let (abs, one) = (w(black_box(0x7FFF)), w(black_box(1)));
    let (base, top) = (w(table.base), w(31));
    let (over, inf, nan) = (w(table.over), w(table.inf), w(table.nan));
    let sign = _mm512_set1_epi8(table.sign as i8);
    let mant = _mm_cvtsi32_si128(table.mant as i32);
    let sign_down = _mm_cvtsi32_si128(table.sign_down as i32);
    // Known from the source, so that each instance computes one index, not both and a select.
    let clamp = match S::FROM {
        WideFrom::F16 => false,
        WideFrom::F32 | WideFrom::Bf16 => true,
    };
    assert_eq!(clamp, table.clamp, "a table made for another source");
    let move_sign = table.sign_down > 0;
    // The pack interleaves 64-bit chunks of its two registers; `order` undoes it.
    let order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    let codes = |h: __m512i| {
        let a = _mm512_and_si512(h, abs);
        // `vpermw` reads the low five bits of each index: unclamped, the exponent is at most
        // five bits wide.
        let i = match clamp {
            true => _mm512_min_epu16(_mm512_srl_epi16(_mm512_subs_epu16(a, base), mant), top),
            false => _mm512_srl_epi16(a, mant),
        };
        let shift = _mm512_permutexvar_epi16(i, shifts);
        // Arithmetic shifts: every value shifted is below 2^15 (the magnitude, and the sum that
        // rounds it), so they are the logical ones; `_mm512_srlv_epi16` would cost a compare
        // per register, LLVM guarding counts from 16 on, which the table never holds.
        let odd = _mm512_and_si512(_mm512_srav_epi16(a, shift), one);
        let sum = _mm512_add_epi16(_mm512_add_epi16(a, _mm512_permutexvar_epi16(i, adds)), odd);
        let c = _mm512_min_epu16(_mm512_srav_epi16(sum, shift), over);
        _mm512_mask_mov_epi16(c, _mm512_cmpgt_epu16_mask(a, inf), nan)
    };
    blocks::<_, _, 64, 64>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 64 elements (what `words` reads); `d` is 64 aligned bytes (T is
        // one byte). Every code is one `T::from_code` builds (the tests hold each
        // to the scalar encoder), and the one-byte formats are plain bytes.
        unsafe {
            // One call site, so that the encoder is inlined.
            let h = words(s.as_ptr());
            let mut n = [_mm512_setzero_si512(); 2];
            for (v, &h) in n.iter_mut().zip(&h) {
                *v = codes(h);
            }
            let c = _mm512_packus_epi16(n[0], n[1]);
            // The sign once per 64 codes: the signed saturating pack puts each lane's sign in
            // bit 7 of its byte, in the order of the codes' pack; a 16-bit shift moves it down
            // within the byte (what crosses from the next byte is above the sign bit).
            let signs = _mm512_packs_epi16(h[0], h[1]);
            let signs = match move_sign {
                true => _mm512_srl_epi16(signs, sign_down),
                false => signs,
            };
            // c ^ (signs & the target's sign bit).
            let v = _mm512_ternarylogic_epi32::<0x78>(c, signs, sign);
            let v = _mm512_permutexvar_epi64(order, v);
            store(d, v, stream);
        }
    });
}
}

simd_fn! { avx2:
/// Encodes `src` into `T` by `table` (made for the rules `scalar` follows, which encodes the
/// heads and tails): `encode_v4`'s arithmetic with `table`'s lookups and multipliers (made
/// from `t` by [`Table16::by_height`]) for its permutations and shifts, and `t`'s constants
/// for the specials; 16 lanes per register, 32 codes per aligned 32-byte store. An f32 source
/// is rounded to bf16 by round-to-odd in registers first, as in `encode_v4`.
pub(super) fn encode_v3<S: Wide, T: Target>(
    src: &[S],
    dst: &mut [MaybeUninit<T>],
    t: &Table16,
    table: &Heights16,
    scalar: impl Fn(S) -> T + Copy,
    stream: bool,
) {
    const { assert!(size_of::<T>() == 1) };
    // The source's and target's constants, not the table's copies, so that the shifts take
    // immediate counts.
    let down = sign_down::<T>().unwrap_or(0);
    assert!(
        t.mant == lane_mant::<S>() && t.sign_down == down,
        "a table made for other formats"
    );
    let mant = _mm_cvtsi32_si128(lane_mant::<S>() as i32);
    let (sign_down, move_sign) = (_mm_cvtsi32_si128(down as i32), down > 0);
    // SAFETY: each array is 16 bytes, one unaligned load.
    let (muls, adds) = unsafe {
        (
            _mm_loadu_si128(table.mul.as_ptr().cast()),
            _mm_loadu_si128(table.add.as_ptr().cast()),
        )
    };
    // `vpshufb` looks up within each 128-bit half: the table in both.
    let (muls, adds) = (
        _mm256_broadcastsi128_si256(muls),
        _mm256_broadcastsi128_si256(adds),
    );
    let w = |v: u16| _mm256_set1_epi16(v as i16);
    let (abs, one) = (w(0x7FFF), w(1));
    let (floor, highest, spread) = (w(table.floor), w(HIGHEST), w(SPREAD));
    let inf = w(t.inf);
    let b = |v: u16| _mm256_set1_epi8(v as i8);
    let (over, flip, sign) = (b(t.over), b(t.nan ^ t.over), b(t.sign));
    // 32 elements from `p` as 16-bit lanes: loaded in order, or rounded from f32 to odd (as
    // `odd16.rs`'s staging does) and packed, which leaves them in the order the packs make.
    // SAFETY (of each call): `p` is valid for reading 32 elements.
    let words = |p: *const S| -> [__m256i; 2] {
        let mut h = [_mm256_setzero_si256(); 2];
        match S::FROM {
            WideFrom::F32 => {
                let mut x = [_mm256_setzero_si256(); 4];
                for (k, v) in x.iter_mut().enumerate() {
                    // SAFETY: the call's contract; 8 f32 at 8k, below 32.
                    let f = unsafe { _mm256_loadu_si256(p.add(8 * k).cast()) };
                    *v = odd16::round_to_odd_v3(f);
                }
                for (k, v) in h.iter_mut().enumerate() {
                    // Exact: every lane is below 2^16.
                    *v = _mm256_packus_epi32(x[2 * k], x[2 * k + 1]);
                }
            }
            WideFrom::F16 | WideFrom::Bf16 => {
                for (k, v) in h.iter_mut().enumerate() {
                    // SAFETY: the call's contract; 16 two-byte elements at 16k, below 32.
                    *v = unsafe { _mm256_loadu_si256(p.add(16 * k).cast()) };
                }
            }
        }
        h
    };
    // An f32 source's codes come out of two rounds of packs, as in `narrow.rs`'s f32 kernel.
    let undo_f32 = {
        let o = unpack_order::<8>();
        _mm256_setr_epi32(o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7])
    };
    // The magnitude's code, not yet clamped, and the NaN lanes.
    let codes = |h: __m256i| {
        let a = _mm256_and_si256(h, abs);
        let z = _mm256_min_epu16(_mm256_srl_epi16(_mm256_subs_epu16(a, floor), mant), highest);
        let i = _mm256_mullo_epi16(z, spread);
        let mul = _mm256_shuffle_epi8(muls, i);
        let odd = _mm256_and_si256(_mm256_mulhi_epu16(a, mul), one);
        let sum = _mm256_add_epi16(_mm256_add_epi16(a, _mm256_shuffle_epi8(adds, i)), odd);
        // Signed comparison: `a` has no sign bit.
        (_mm256_mulhi_epu16(sum, mul), _mm256_cmpgt_epi16(a, inf))
    };
    blocks::<_, _, 32, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 32 two-byte elements (unaligned loads of 16 each); `d` is 32 aligned
        // bytes (T is one byte). Every code is one `T::from_code` builds (the tests hold each
        // to the scalar encoder), and the one-byte formats are plain bytes.
        unsafe {
            // One call site, so that the encoder is inlined.
            let h = words(s.as_ptr());
            let mut n = [(_mm256_setzero_si256(), _mm256_setzero_si256()); 2];
            for (v, &h) in n.iter_mut().zip(&h) {
                *v = codes(h);
            }
            // Clamped as bytes: the pack saturates to 255, above every overflow code.
            let c = _mm256_min_epu8(_mm256_packus_epi16(n[0].0, n[1].0), over);
            // A NaN lane rounds above the overflow code (`Heights16::code` checks it), so `c` is
            // that code there: the bits that make it +NaN's flip it (none where they are one).
            let nan = _mm256_packs_epi16(n[0].1, n[1].1);
            let c = _mm256_xor_si256(c, _mm256_and_si256(nan, flip));
            // The sign once per 32 codes, as in `encode_v4`.
            let signs = _mm256_packs_epi16(h[0], h[1]);
            let signs = match move_sign {
                true => _mm256_srl_epi16(signs, sign_down),
                false => signs,
            };
            let v = _mm256_xor_si256(c, _mm256_and_si256(signs, sign));
            // The packs interleave the 128-bit halves (an f32 source's twice); the permutation
            // restores their order.
            let v = match S::FROM {
                WideFrom::F32 => _mm256_permutevar8x32_epi32(v, undo_f32),
                WideFrom::F16 | WideFrom::Bf16 => _mm256_permute4x64_epi64::<0b11_01_10_00>(v),
            };
            store(d, v, stream);
        }
    });
}
}

//! The widening to f32 of the formats of at most 64 codes (FLOAT6E2M3, FLOAT6E3M2,
//! FLOAT4E2M1) by table lookups in vector registers.
//!
//! Every value of these formats is exactly a bfloat16: the f32 the exact path gives for each
//! code has its low 16 bits zero ([`Halves::new`] checks it for every code, and is `None`
//! where it does not hold, as for the float8 formats' 256 codes, which [`super::map`]'s
//! scalar decoder keeps). So a decode is a lookup of the upper 16 bits, built once per call
//! from [`Widen::decode`] itself, which alone decides the values.
//!
//! At AVX-512 (`decode_v4`) the 64 halves are two registers of 32 words, and one `vpermt2w`
//! looks up 32 codes at once, sign included. At AVX2 (`decode_v3`) the only table lookup is
//! `vpshufb`: 16 bytes per 128-bit lane. So the halves are split into two byte planes (high
//! and low byte), each looked up for the magnitude (32 entries: two `vpshufb`, the second
//! indexed so that it reads 0 below entry 16 and holding the difference of the two halves);
//! the sign goes into the high byte arithmetically (the negative codes decode to the positive
//! ones with the f32 sign bit set, which [`Halves::new`] checks too). Unpacks then interleave
//! the planes into words and the words, with zero, into dwords.

use super::encode::{Target, Widen};
use super::kernel::by_level;
use super::map::{fill, Mode};
use crate::tuning::{simd_fn, SimdLevel};
use std::mem::MaybeUninit;

#[cfg(target_arch = "x86_64")]
use super::kernel::{blocks, store};
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// The upper halves of the f32 bits of every code of one format under one set of rules, and
/// the same values as `decode_v3`'s byte planes.
#[derive(Clone, Debug)]
#[cfg_attr(
    all(not(target_arch = "x86_64"), not(test)),
    expect(dead_code, reason = "read by the x86-64 kernels and the tests only")
)]
pub(super) struct Halves {
    /// The upper half of every code's f32 bits, by code (by its low six bits for `vpermt2w`).
    all: [u16; 64],
    /// The code's sign bit.
    sign: u8,
    /// The code's bits below the sign: the magnitude, the index of the byte planes.
    body: u8,
    /// Whether the magnitudes take more than 16 entries: the byte planes' second lookup.
    wide: bool,
    /// The low byte of the upper half, magnitudes 0 to 15, for `vpshufb`.
    lo: [u8; 16],
    /// The low byte of magnitudes 16 to 31, each exclusive-ored with that of magnitude 16
    /// less: the second lookup reads 0 below magnitude 16, and above it cancels the first
    /// one's byte (which `vpshufb` takes from the index's low four bits alone).
    lo_up: [u8; 16],
    /// The high byte (sign bit clear), laid out as `lo`.
    hi: [u8; 16],
    /// The high byte, laid out as `lo_up`.
    hi_up: [u8; 16],
}

impl Halves {
    /// The halves of `T` under the rules `w` was made for, or `None` where `T` has more than
    /// 64 codes, or some code's f32 has low bits, or a negative code does not decode to its
    /// positive code's value with the sign bit set.
    pub(super) fn new<T: Target>(w: &Widen<T>) -> Option<Halves> {
        let row = T::ROW;
        let bits = 1 + row.exp_bits + row.mant_bits;
        // One byte per element, read as such by the kernels.
        if size_of::<T>() != 1 || bits > 6 {
            return None;
        }
        let sign = 1u32 << (bits - 1);
        let mut all = [0u16; 64];
        for c in 0..sign {
            let (pos, neg) = (w.decode(c), w.decode(c | sign));
            if pos & 0x8000_FFFF != 0 || neg != pos | 0x8000_0000 {
                return None;
            }
            all[c as usize] = (pos >> 16) as u16;
            all[(c | sign) as usize] = (neg >> 16) as u16;
        }
        // Past the format's codes, each index repeats its code bits' entry: `decode_v4` reads
        // six bits of every byte, and `T::code` ignores the ones above the code's.
        let codes = 2 * sign as usize;
        for i in codes..64 {
            all[i] = all[i % codes];
        }
        // Magnitudes past the format's are never looked up: `body` masks them off.
        let magnitude = |c: usize, k: usize| match c < sign as usize {
            true => all[c].to_le_bytes()[k],
            false => 0,
        };
        let plane = |k: usize| std::array::from_fn(|i| magnitude(i, k));
        let up = |k: usize| std::array::from_fn(|i| magnitude(i + 16, k) ^ magnitude(i, k));
        Some(Halves {
            all,
            sign: sign as u8,
            body: (sign - 1) as u8,
            wide: sign > 16,
            lo: plane(0),
            lo_up: up(0),
            hi: plane(1),
            hi_up: up(1),
        })
    }

    /// The f32 bits of the code byte `x` as `decode_v3` computes them: the bits above the
    /// code's are ignored, as `T::code` ignores them.
    #[cfg(test)]
    pub(super) fn decode_v3_model(&self, x: u8) -> u32 {
        // As `vpshufb`: bit 7 of the index reads 0, else its low four bits pick the byte.
        let look = |table: &[u8; 16], i: u8| match i & 0x80 {
            0 => table[usize::from(i & 15)],
            _ => 0,
        };
        let m = x & self.body;
        let j = m.wrapping_sub(16);
        let plane = |low: &[u8; 16], up: &[u8; 16]| match self.wide {
            true => look(low, m) ^ look(up, j),
            false => look(low, m),
        };
        let sign = (x & self.sign).wrapping_mul(0x80 / self.sign);
        let hi = plane(&self.hi, &self.hi_up) | sign;
        u32::from(u16::from_le_bytes([plane(&self.lo, &self.lo_up), hi])) << 16
    }

    /// The f32 bits of the code byte `x` as `decode_v4` computes them.
    #[cfg(test)]
    pub(super) fn decode_v4_model(&self, x: u8) -> u32 {
        // `vpermt2w` reads the index's low six bits.
        u32::from(self.all[usize::from(x & 63)]) << 16
    }
}

/// Decodes `src` into `dst` by `halves` (made for the rules `scalar` follows, which decodes
/// the heads and tails, and whole calls below AVX2 or without `halves`).
pub(super) fn decode<T: Target>(
    mode: Mode,
    src: &[T],
    dst: &mut [MaybeUninit<f32>],
    halves: Option<&Halves>,
    scalar: impl Fn(T) -> f32 + Copy,
) {
    let level = mode.level.min(SimdLevel::detected());
    by_level!((level, halves) => {
        x86_64 {
            // SAFETY: the level is at most what the CPU has; the function needs only its
            // features.
            (SimdLevel::Avx512, Some(h)) => unsafe { decode_v4(src, dst, h, scalar, mode.stream) },
            // SAFETY: as above.
            (SimdLevel::Avx2, Some(h)) => unsafe { decode_v3(src, dst, h, scalar, mode.stream) },
        }
        portable (level, _) => fill(mode.at(level), src, dst, scalar),
    })
}

simd_fn! { avx2:
/// Decodes `src` by `h`'s byte planes: 32 codes per block, four aligned 32-byte stores.
fn decode_v3<T: Target>(
    src: &[T],
    dst: &mut [MaybeUninit<f32>],
    h: &Halves,
    scalar: impl Fn(T) -> f32 + Copy,
    stream: bool,
) {
    const { assert!(size_of::<T>() == 1) };
    // SAFETY: each plane is 16 bytes, one unaligned load.
    let [lo, lo_up, hi, hi_up] = [&h.lo, &h.lo_up, &h.hi, &h.hi_up]
        .map(|t| unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) });
    let b = |v: u8| _mm256_set1_epi8(v as i8);
    let (body, sign, sixteen) = (b(h.body), b(h.sign), b(16));
    // Moves the sign bit to bit 7 of its byte: a product rather than a shift, whose count
    // would come from a register (`vpsllw` by an xmm count is a uop more). Nothing crosses
    // into the next byte: the sign byte times the factor is 0x80 at most.
    let up_to_bit7 = _mm256_set1_epi16(i16::from(0x80 / h.sign));
    let wide = h.wide;
    // The unpacks below work within 128-bit lanes: the first takes bytes 0-7 of each, the
    // second words 0-3 of that. Permuting the codes' dwords as [0 2 4 6 | 1 3 5 7] puts codes
    // 0-3, 4-7, ... in the lanes of the dword registers in memory order.
    let order = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    let zero = _mm256_setzero_si256();
    blocks::<_, _, 32, 32>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 32 one-byte elements (one unaligned load); `d` is 32 f32 from a
        // 32-byte boundary, the four stores. Every value is an f32 (any bits are).
        unsafe {
            let x = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(s.as_ptr().cast()), order);
            // The magnitude, bit 7 clear: `vpshufb` reads its low four bits. 16 less, it has
            // bit 7 set (reads 0) below 16.
            let m = _mm256_and_si256(x, body);
            let j = _mm256_sub_epi8(m, sixteen);
            let plane = |low, up| match wide {
                true => _mm256_xor_si256(_mm256_shuffle_epi8(low, m), _mm256_shuffle_epi8(up, j)),
                false => _mm256_shuffle_epi8(low, m),
            };
            let signs = _mm256_mullo_epi16(_mm256_and_si256(x, sign), up_to_bit7);
            let (l, u) = (plane(lo, lo_up), _mm256_or_si256(plane(hi, hi_up), signs));
            let w = [_mm256_unpacklo_epi8(l, u), _mm256_unpackhi_epi8(l, u)];
            for (k, w) in w.into_iter().enumerate() {
                // Zero below each word: the word is the upper half of its dword.
                let d = d.get_unchecked_mut(16 * k..);
                store(d, _mm256_unpacklo_epi16(zero, w), stream);
                store(&mut d[8..], _mm256_unpackhi_epi16(zero, w), stream);
            }
        }
    });
}
}

simd_fn! { avx512:
/// Decodes `src` by `h`'s 64 halves: 16 codes per lookup (into the upper word of each dword),
/// 64 codes per block, four aligned 64-byte stores.
fn decode_v4<T: Target>(
    src: &[T],
    dst: &mut [MaybeUninit<f32>],
    h: &Halves,
    scalar: impl Fn(T) -> f32 + Copy,
    stream: bool,
) {
    const { assert!(size_of::<T>() == 1) };
    // SAFETY: `all` is 64 u16, two unaligned 64-byte loads.
    let (low, high) = unsafe {
        let p = h.all.as_ptr();
        (_mm512_loadu_si512(p.cast()), _mm512_loadu_si512(p.add(32).cast()))
    };
    // Byte 4k + 2 of each 128-bit lane L takes code 4L + k of the 16 broadcast to every lane
    // (the upper word of dword k is then the index of `vpermt2w`); the other bytes take code
    // 0 and are never read as indices (their words' results are zeroed).
    let spread: [i32; 16] = std::array::from_fn(|n| (n as i32) << 16);
    // SAFETY: 16 i32, one unaligned 64-byte load.
    let spread = unsafe { _mm512_loadu_si512(spread.as_ptr().cast()) };
    blocks::<_, _, 64, 64>(src, dst, scalar, |s, d| {
        // SAFETY: `s` holds 64 one-byte elements (four unaligned 16-byte loads); `d` is 64 f32
        // from a 64-byte boundary, the four stores. Every value is an f32 (any bits are).
        unsafe {
            for k in 0..4 {
                // A broadcast from memory is a load alone, no shuffle.
                let x = _mm512_broadcast_i32x4(_mm_loadu_si128(s.as_ptr().add(16 * k).cast()));
                let i = _mm512_shuffle_epi8(x, spread);
                // The even words (the dwords' lower halves) are zeroed; `vpermt2w` reads the
                // low six bits of the odd ones, the codes.
                let v = _mm512_maskz_permutex2var_epi16(0xAAAA_AAAA, low, i, high);
                store(d.get_unchecked_mut(16 * k..), v, stream);
            }
        }
    });
}
}

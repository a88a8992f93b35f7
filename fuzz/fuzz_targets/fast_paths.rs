//! Differential: every fast Cast path against the exact path, on random bits. A structured
//! input picks a fast pair (the dispatch's own list, float6 included), the rules (saturate,
//! round mode, the version-24 switch), the SIMD cap, threads, whether stores stream, a source
//! offset, an allocation that moves the output, and the element bits; the fast path must give
//! the exact path's bits. A finding is any difference (NaN payloads and signs included) or a
//! panic.
#![no_main]

use arbitrary::Arbitrary;
use half::{bf16, f16};
use libfuzzer_sys::fuzz_target;
use onnx_conformance::formats::{
    CastRules, Generation, RoundMode, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2,
    F8E5M2FNUZ, F8E8M0, I4, U4,
};
use onnx_conformance::fuzzing::{exact_cast, fast_cast, fast_pairs, Run};
use onnx_conformance::tuning::SimdLevel;
use onnx_conformance::{with_storage, DataType, Storage};

/// Caps the elements of one call: well above the vector kernels' 64-element blocks and the
/// 64-element thread pieces, small enough for thousands of calls a second.
const MAX_ELEMENTS: usize = 1 << 12;

#[derive(Arbitrary, Debug)]
struct Input {
    /// Index into the fast pairs (modulo their count).
    pair: u16,
    saturate: bool,
    round_mode: u8,
    from24: bool,
    /// The SIMD cap: baseline, AVX2 or AVX-512 (a level the CPU lacks runs the best it has).
    level: u8,
    /// 1 to 4 threads.
    threads: u8,
    /// Streaming stores always, or never.
    stream: bool,
    /// Elements dropped at the front of the source: moves the source against its alignment.
    offset: u8,
    /// Bytes held allocated across the call: moves where the allocator puts the output
    /// (16-byte steps under glibc), so that the kernels' aligned heads and tails vary.
    spacer: u8,
    /// Elements in the source (before the offset), up to [`MAX_ELEMENTS`].
    len: u16,
    /// Seeds the noise XORed into the elements, so that a short input still gives many values.
    seed: u64,
    /// How many low bits of each element the noise may flip (0: none, the bits as given).
    noise: u8,
    /// The element bits, cut into elements of the source's width (little-endian) and repeated
    /// up to `len`.
    bits: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let rules = CastRules {
        saturate: input.saturate,
        round_mode: match input.round_mode % 3 {
            0 => RoundMode::Up,
            1 => RoundMode::Down,
            _ => RoundMode::Nearest,
        },
        generation: match input.from24 {
            true => Generation::From24,
            false => Generation::Before24,
        },
    };
    let pairs = fast_pairs(&rules);
    assert!(!pairs.is_empty(), "the dispatch lists no fast pair");
    let (from, to) = pairs[usize::from(input.pair) % pairs.len()];
    let Some(source) = storage(from, &elements(&input, from)) else {
        return;
    };
    let run = Run {
        level: [SimdLevel::Baseline, SimdLevel::Avx2, SimdLevel::Avx512]
            [usize::from(input.level % 3)],
        threads: usize::from(input.threads % 4) + 1,
        stream: input.stream,
    };
    let spacer = std::hint::black_box(vec![0u8; usize::from(input.spacer)]);
    let fast = fast_cast(&source, to, &rules, run);
    drop(spacer);
    let fast = fast.unwrap_or_else(|| panic!("{from} -> {to} is listed but has no fast path"));
    let exact = exact_cast(&source, to, &rules).expect("the exact path casts every fast pair");
    let (got, want) = (bits(&fast), bits(&exact));
    assert_eq!(got.len(), want.len(), "{from} -> {to}: output lengths differ");
    if let Some(i) = got.iter().zip(&want).position(|(g, w)| g != w) {
        panic!(
            "{from} -> {to} {rules:?} {run:?}: element {i} of {}: source {}, fast {}, exact {}",
            got.len(),
            bits(&source)[i],
            got[i],
            want[i],
        );
    }
});

/// `len` elements of `from`'s width: `bits` cut into elements and repeated (zeros if none),
/// each XORed with `noise` low bits of an xorshift stream seeded by `seed`, less the leading
/// `offset`.
fn elements(input: &Input, from: DataType) -> Vec<u64> {
    let width = (from.bit_width() as usize).div_ceil(8);
    let base: Vec<u64> = input
        .bits
        .chunks_exact(width)
        .map(|c| c.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b)))
        .collect();
    let flips = u32::from(input.noise) % (8 * width as u32 + 1);
    let mask = u64::MAX.checked_shr(64 - flips).unwrap_or(0);
    let mut state = input.seed | 1;
    let len = usize::from(input.len).min(MAX_ELEMENTS);
    (0..len)
        .map(|i| {
            // xorshift64: a cheap stream, different for every seed.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            base.get(i % base.len().max(1)).copied().unwrap_or(0) ^ (state & mask)
        })
        .skip(usize::from(input.offset))
        .collect()
}

/// A storage of `dtype` whose elements have the bits `codes` (the low bits of each), for the
/// source types of the fast paths; `None` for the others or when `codes` is empty.
fn storage(dtype: DataType, codes: &[u64]) -> Option<Storage> {
    use DataType as D;
    fn of<T>(c: &[u64], f: impl Fn(u64) -> T) -> Vec<T> {
        c.iter().map(|&b| f(b)).collect()
    }
    if codes.is_empty() {
        return None;
    }
    let c = codes;
    Some(match dtype {
        D::Float => Storage::Float(of(c, |b| f32::from_bits(b as u32))),
        D::Double => Storage::Double(of(c, f64::from_bits)),
        D::Float16 => Storage::Float16(of(c, |b| f16::from_bits(b as u16))),
        D::Bfloat16 => Storage::Bfloat16(of(c, |b| bf16::from_bits(b as u16))),
        D::Float8E4M3FN => Storage::Float8E4M3FN(of(c, |b| F8E4M3FN::from_bits(b as u8))),
        D::Float8E4M3FNUZ => Storage::Float8E4M3FNUZ(of(c, |b| F8E4M3FNUZ::from_bits(b as u8))),
        D::Float8E5M2 => Storage::Float8E5M2(of(c, |b| F8E5M2::from_bits(b as u8))),
        D::Float8E5M2FNUZ => Storage::Float8E5M2FNUZ(of(c, |b| F8E5M2FNUZ::from_bits(b as u8))),
        D::Float8E8M0 => Storage::Float8E8M0(of(c, |b| F8E8M0::from_bits(b as u8))),
        D::Float4E2M1 => Storage::Float4E2M1(of(c, |b| F4E2M1::from_bits(b as u8))),
        D::Float6E2M3 => Storage::Float6E2M3(of(c, |b| F6E2M3::from_bits(b as u8))),
        D::Float6E3M2 => Storage::Float6E3M2(of(c, |b| F6E3M2::from_bits(b as u8))),
        D::Int4 => Storage::Int4(of(c, |b| I4::from_bits(b as u8))),
        D::Uint4 => Storage::Uint4(of(c, |b| U4::from_bits(b as u8))),
        D::Uint8 => Storage::Uint8(of(c, |b| b as u8)),
        D::Int8 => Storage::Int8(of(c, |b| b as i8)),
        D::Uint16 => Storage::Uint16(of(c, |b| b as u16)),
        D::Int16 => Storage::Int16(of(c, |b| b as i16)),
        D::Uint32 => Storage::Uint32(of(c, |b| b as u32)),
        D::Int32 => Storage::Int32(of(c, |b| b as i32)),
        D::Uint64 => Storage::Uint64(c.to_vec()),
        D::Int64 => Storage::Int64(of(c, |b| b as i64)),
        _ => return None,
    })
}

/// Every element's bits as text: hex bits for the IEEE floats (so NaN payloads and signs
/// count), the Debug form (the code) for everything else.
fn bits(s: &Storage) -> Vec<String> {
    fn hex<T: Copy, B: std::fmt::LowerHex>(v: &[T], f: fn(T) -> B) -> Vec<String> {
        v.iter().map(|&x| format!("{:#x}", f(x))).collect()
    }
    match s {
        Storage::Float(v) => hex(v, f32::to_bits),
        Storage::Double(v) => hex(v, f64::to_bits),
        Storage::Float16(v) => hex(v, f16::to_bits),
        Storage::Bfloat16(v) => hex(v, bf16::to_bits),
        other => with_storage!(other, v => v.iter().map(|x| format!("{x:?}")).collect()),
    }
}

//! The fast Cast paths against the generic exact path, through the storage-level dispatch:
//! every source type with a fast path, every target, every rule combination, inputs that
//! cover every 8- and 16-bit code and the rounding boundaries of f32 and f64.

use crate::dtype::{DataType, Storage};
use crate::formats::{CastRules, Generation, RoundMode};
use crate::formats::{F4E2M1, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, I4, U4};
use crate::ops::{cast::generic, fast, OpKind, OpVersion};
use half::{bf16, f16};
use test_rng::XorShift64;

/// Bit patterns: all 16-bit values, then a spread of wider ones (edges, powers of two and
/// their neighbours, halves of every rounding position) so that every source sees them.
fn patterns() -> Vec<u64> {
    let mut v: Vec<u64> = (0..=0xFFFF).collect();
    for shift in 0..64 {
        let p = 1u64 << shift;
        v.extend([p, p - 1, p + 1, p | (p >> 1), !p, !(p - 1), (p - 1) << 1]);
    }
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    for _ in 0..1 << 16 {
        let r = rng.next_u64();
        v.push(r);
        v.push(r & 0xFFFF_FFFF);
    }
    v
}

/// One storage of every source type that has fast paths, built from the patterns.
fn sources() -> Vec<Storage> {
    let p = patterns();
    let to_f32 = |&b: &u64| f32::from_bits((b ^ (b >> 32)) as u32);
    let f32s: Vec<f32> = (0..=u32::from(u16::MAX))
        .map(|b| f32::from_bits(b << 16 | 0x8000))
        .chain(p.iter().map(to_f32))
        .chain((-400..=400).map(|k| k as f32 / 8.0))
        .collect();
    vec![
        Storage::Float(f32s.clone()),
        Storage::Double(
            p.iter()
                .map(|&b| f64::from_bits(b))
                .chain(f32s.iter().map(|&x| f64::from(x)))
                .collect(),
        ),
        Storage::Float16(p.iter().map(|&b| f16::from_bits(b as u16)).collect()),
        Storage::Bfloat16(p.iter().map(|&b| bf16::from_bits(b as u16)).collect()),
        Storage::Float8E4M3FN(p.iter().map(|&b| F8E4M3FN::from_bits(b as u8)).collect()),
        Storage::Float8E4M3FNUZ(p.iter().map(|&b| F8E4M3FNUZ::from_bits(b as u8)).collect()),
        Storage::Float8E5M2(p.iter().map(|&b| F8E5M2::from_bits(b as u8)).collect()),
        Storage::Float8E5M2FNUZ(p.iter().map(|&b| F8E5M2FNUZ::from_bits(b as u8)).collect()),
        Storage::Float4E2M1(p.iter().map(|&b| F4E2M1::from_bits(b as u8)).collect()),
        Storage::Int4(p.iter().map(|&b| I4::from_bits(b as u8)).collect()),
        Storage::Uint4(p.iter().map(|&b| U4::from_bits(b as u8)).collect()),
        Storage::Uint8(p.iter().map(|&b| b as u8).collect()),
        Storage::Int8(p.iter().map(|&b| b as i8).collect()),
        Storage::Uint16(p.iter().map(|&b| b as u16).collect()),
        Storage::Int16(p.iter().map(|&b| b as i16).collect()),
        Storage::Uint32(p.iter().map(|&b| b as u32).collect()),
        Storage::Int32(p.iter().map(|&b| b as i32).collect()),
        Storage::Uint64(p.clone()),
        Storage::Int64(p.iter().map(|&b| b as i64).collect()),
    ]
}

/// Where two storages differ: floats compared by bit pattern (so NaN payloads and signs
/// count), every other type by its Debug form (the code for bit newtypes).
fn first_difference(a: &Storage, b: &Storage) -> Option<String> {
    fn hex<T: Copy, B: std::fmt::LowerHex>(v: &[T], bits: fn(T) -> B) -> Vec<String> {
        v.iter().map(|&x| format!("{:#x}", bits(x))).collect()
    }
    let bits = |s: &Storage| -> Vec<String> {
        match s {
            Storage::Float(v) => hex(v, f32::to_bits),
            Storage::Double(v) => hex(v, f64::to_bits),
            Storage::Float16(v) => hex(v, f16::to_bits),
            Storage::Bfloat16(v) => hex(v, bf16::to_bits),
            other => crate::with_storage!(other, v => v.iter().map(|x| format!("{x:?}")).collect()),
        }
    };
    let (x, y) = (bits(a), bits(b));
    let count = x.iter().zip(&y).filter(|(p, q)| p != q).count();
    let i = x.iter().zip(&y).position(|(p, q)| p != q)?;
    Some(format!(
        "{count} differ; first at {i}: fast {} vs generic {}",
        x[i], y[i]
    ))
}

#[test]
fn every_fast_pair_matches_the_generic_path() {
    let op = OpVersion {
        op: OpKind::Cast,
        since: 25,
    };
    let mut pairs = 0;
    for source in sources() {
        for &to in DataType::ALL {
            for saturate in [true, false] {
                for generation in [Generation::Before24, Generation::From24] {
                    let rules = CastRules {
                        saturate,
                        round_mode: RoundMode::Up,
                        generation,
                    };
                    let Some(fast) = fast::cast(&source, to, &rules) else {
                        continue;
                    };
                    pairs += 1;
                    let want = generic(op, &source, to, &rules).expect("generic path casts");
                    assert_eq!(fast.dtype(), to);
                    assert_eq!(fast.len(), want.len());
                    // Floats: compare bit patterns, so NaN payloads and signs count.
                    if let Some(d) = first_difference(&fast, &want) {
                        panic!("{} -> {to} {rules:?}: {d}", source.dtype());
                    }
                }
            }
        }
    }
    // 19 sources; guards against the dispatch silently losing its pairs.
    assert!(pairs > 300, "only {pairs} fast pairs exercised");
}

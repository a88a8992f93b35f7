//! The fast Cast paths against the generic exact path, through the storage-level dispatch:
//! every source type with a fast path, every target, every rule combination, inputs that
//! cover every 8- and 16-bit code and the rounding boundaries of f32 and f64.

use crate::dtype::{DataType, Storage};
use crate::formats::CastRules;
use crate::formats::{
    F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0, I4, U4,
};
use crate::ops::{cast::generic, fast, OpKind};
use crate::testkit::all_rules;
use crate::tuning::{Exec, SimdLevel};
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
    storages(&p, f32s)
}

/// One storage of every source type that has fast paths: the f32s as given, every other type
/// from the bit patterns `p` (the f64s followed by the f32s widened).
fn storages(p: &[u64], f32s: Vec<f32>) -> Vec<Storage> {
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
        Storage::Float6E2M3(p.iter().map(|&b| F6E2M3::from_bits(b as u8)).collect()),
        Storage::Float6E3M2(p.iter().map(|&b| F6E3M2::from_bits(b as u8)).collect()),
        Storage::Float8E8M0(p.iter().map(|&b| F8E8M0::from_bits(b as u8)).collect()),
        Storage::Int4(p.iter().map(|&b| I4::from_bits(b as u8)).collect()),
        Storage::Uint4(p.iter().map(|&b| U4::from_bits(b as u8)).collect()),
        Storage::Uint8(p.iter().map(|&b| b as u8).collect()),
        Storage::Int8(p.iter().map(|&b| b as i8).collect()),
        Storage::Uint16(p.iter().map(|&b| b as u16).collect()),
        Storage::Int16(p.iter().map(|&b| b as i16).collect()),
        Storage::Uint32(p.iter().map(|&b| b as u32).collect()),
        Storage::Int32(p.iter().map(|&b| b as i32).collect()),
        Storage::Uint64(p.to_vec()),
        Storage::Int64(p.iter().map(|&b| b as i64).collect()),
    ]
}

/// Whether two storages hold the same bits: floats by bit pattern (so NaN payloads and signs
/// count), every other type by `==`, which is exact for integers and bit newtypes. Cheap, so
/// that [`first_difference`] formats only what differs.
pub(super) fn same_bits(a: &Storage, b: &Storage) -> bool {
    fn eq<T: Copy, B: PartialEq>(x: &[T], y: &[T], bits: fn(T) -> B) -> bool {
        x.len() == y.len() && x.iter().zip(y).all(|(&p, &q)| bits(p) == bits(q))
    }
    match (a, b) {
        (Storage::Float(x), Storage::Float(y)) => eq(x, y, f32::to_bits),
        (Storage::Double(x), Storage::Double(y)) => eq(x, y, f64::to_bits),
        (Storage::Float16(x), Storage::Float16(y)) => eq(x, y, f16::to_bits),
        (Storage::Bfloat16(x), Storage::Bfloat16(y)) => eq(x, y, bf16::to_bits),
        _ => a == b,
    }
}

/// Where two storages differ: floats compared by bit pattern (so NaN payloads and signs
/// count), every other type by its Debug form (the code for bit newtypes).
pub(super) fn first_difference(a: &Storage, b: &Storage) -> Option<String> {
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

/// Every way to run the fast paths this CPU allows: each supported SIMD level on one
/// thread, and the best level on 2 and 7 threads in small pieces.
fn execs() -> Vec<Exec> {
    let mut v: Vec<Exec> = SimdLevel::supported().map(Exec::single).collect();
    for threads in [2, 7] {
        v.push(Exec {
            level: SimdLevel::detected(),
            threads,
            min_per_thread: 4096,
            stream_min_bytes: usize::MAX,
        });
    }
    // Every level again with streaming stores, and split over threads.
    let streaming = v.iter().map(|&e| Exec {
        stream_min_bytes: 0,
        ..e
    });
    v.extend(streaming.collect::<Vec<_>>());
    v
}

/// Every fast pair from the sources `which` picks, at every [`execs`] entry, against the
/// generic path. Returns how many (pair, rules) combinations it checked.
fn check_sources(which: impl Fn(DataType) -> bool) -> usize {
    let op = crate::testkit::version(OpKind::Cast, 25);
    let one = Exec::single(SimdLevel::Baseline);
    let mut pairs = 0;
    for source in sources().into_iter().filter(|s| which(s.dtype())) {
        for &to in DataType::ALL {
            for rules in all_rules() {
                if fast::cast(&one, &source, to, &rules).is_none() {
                    continue;
                }
                pairs += 1;
                let want = generic(op, &source, to, &rules).expect("generic path casts");
                for exec in execs() {
                    let got = fast::cast(&exec, &source, to, &rules).expect("a fast pair");
                    assert_eq!(got.dtype(), to);
                    assert_eq!(got.len(), want.len());
                    // Floats: compare bit patterns, so NaN payloads and signs count.
                    if !same_bits(&got, &want) {
                        let d = first_difference(&got, &want).unwrap_or_default();
                        panic!("{} -> {to} {rules:?} {exec:?}: {d}", source.dtype());
                    }
                }
            }
        }
    }
    pairs
}

// Split by source, so that the test runner spreads the work over the cores.
#[test]
fn fast_pairs_from_float_match_the_generic_path() {
    assert_eq!(check_sources(|t| t == DataType::Float), 13 * 4);
}

#[test]
fn fast_pairs_from_double_and_16_bit_floats_match_the_generic_path() {
    use DataType as D;
    let n = check_sources(|t| matches!(t, D::Double | D::Float16 | D::Bfloat16));
    // DOUBLE: FLOAT. FLOAT16: FLOAT, FLOAT16, five float8, FLOAT4E2M1 and two float6.
    // BFLOAT16: FLOAT, five float8, FLOAT4E2M1 and two float6.
    assert_eq!(n, (1 + 10 + 9) * 4);
}

#[test]
fn fast_pairs_from_narrow_formats_match_the_generic_path() {
    // The float8 formats (FLOAT8E8M0 included), float6, float4, INT4 and UINT4.
    let narrow = |t: DataType| t.bit_width() <= 8 && !is_integer(t);
    assert_eq!(check_sources(narrow), 10 * 4);
}

#[test]
fn fast_pairs_from_integers_match_the_generic_path() {
    assert_eq!(check_sources(is_integer), 8 * 10 * 4);
}

/// The 8- to 64-bit integer types.
fn is_integer(t: DataType) -> bool {
    t.kind().is_integer() && t.bit_width() >= 8
}

/// The dispatch serves exactly the listed pairs, under every rule combination: a lost match
/// arm (which would only cost speed, the generic path giving the same bits) fails here.
#[test]
fn the_dispatch_serves_exactly_the_listed_pairs() {
    let listed = fast_pairs();
    let exec = Exec::single(SimdLevel::Baseline);
    let mut served = 0;
    for &from in DataType::ALL {
        let source = Storage::empty(from);
        for &to in DataType::ALL {
            for rules in all_rules() {
                let fast = fast::cast(&exec, &source, to, &rules).is_some();
                assert_eq!(
                    fast,
                    listed.contains(&(from, to)),
                    "{from} -> {to} {rules:?}"
                );
                served += usize::from(fast);
            }
        }
    }
    // 13 pairs from FLOAT, 10 from FLOAT16, 8 from BFLOAT16 to narrow formats, 12 other
    // sources to FLOAT, and 8 integer sources to 10 targets: 123 pairs, each under 4 rule
    // combinations.
    assert_eq!(listed.len(), 123);
    assert_eq!(served, 123 * 4);
}

/// The same bits at 1, 2, 3 and 7 threads, for lengths around the piece boundaries (pieces
/// are multiples of 64 elements here) and around the 32- and 64-element blocks of the vector
/// encoders.
#[test]
fn cast_output_does_not_depend_on_the_thread_count() {
    let rules = CastRules::default();
    let mut rng = XorShift64(7);
    let lengths = [
        1, 63, 64, 65, 127, 128, 129, 255, 256, 257, 447, 448, 449, 1000, 4099,
    ];
    for len in lengths {
        let bits: Vec<u64> = (0..len).map(|_| rng.next_u64()).collect();
        let f32s: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b as u32)).collect();
        let sources = [
            Storage::Float(f32s),
            Storage::Float16(bits.iter().map(|&b| f16::from_bits(b as u16)).collect()),
            Storage::Bfloat16(bits.iter().map(|&b| bf16::from_bits(b as u16)).collect()),
            Storage::Uint8(bits.iter().map(|&b| b as u8).collect()),
        ];
        let targets = [
            DataType::Float16,
            DataType::Bfloat16,
            DataType::Float8E5M2,
            DataType::Float4E2M1,
            DataType::Float8E8M0,
            DataType::Float,
            DataType::Int64,
        ];
        for source in &sources {
            for to in targets {
                let one = Exec::single(SimdLevel::detected());
                let Some(want) = fast::cast(&one, source, to, &rules) else {
                    continue;
                };
                for (threads, stream_min_bytes) in [(2, 0), (3, usize::MAX), (7, 0)] {
                    let exec = Exec {
                        threads,
                        min_per_thread: 64,
                        stream_min_bytes,
                        ..one
                    };
                    let got = fast::cast(&exec, source, to, &rules).expect("a fast pair");
                    if !same_bits(&got, &want) {
                        let d = first_difference(&got, &want).unwrap_or_default();
                        panic!(
                            "{} -> {to}, {len} elements, {threads} threads: {d}",
                            source.dtype()
                        );
                    }
                }
            }
        }
    }
}

/// Every fast pair, under every rule combination, writes every element of its output and
/// gives the generic path's bits, on a small input that Miri can run (`cargo xtask
/// cross-check` runs it on aarch64 and s390x, where only the portable paths exist): a kernel
/// whose code a cfg removed on some target leaves its output uninitialised, which Miri
/// reports (so did `f32_to_bf16_rne` on aarch64, once). Natively it checks the head, one
/// vector block and the tail of each hardware kernel at the best level.
#[test]
fn every_fast_pair_writes_its_whole_output_on_every_target() {
    let op = crate::testkit::version(OpKind::Cast, 25);
    // Signed zeros, the smallest subnormals, one, ties of bf16 and f16, the largest finite
    // values, infinities and NaNs of f32 and f16 (in the low half), then a spread; 72
    // elements natively, so that every kernel has a head, a whole block and a tail; under
    // Miri (portable paths only) the edges and 4 more, to keep it to minutes.
    let edges = [
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x3F80_0000,
        0x3F80_8000,
        0x3F81_8000,
        0x3F80_1000,
        0x477F_E000,
        0x477F_F000,
        0x7F7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0001,
        0xFFC0_0000,
        0x7C00_3C00,
        0xFC00_7E01,
        0x0001_8001,
        0xC0D0_0000,
        0x4130_0000,
    ];
    let mut rng = XorShift64(19);
    let p: Vec<u64> = edges
        .into_iter()
        .chain((0..if cfg!(miri) { 4 } else { 52 }).map(|_| rng.next_u64() as u32 as u64))
        .collect();
    let f32s = p.iter().map(|&b| f32::from_bits(b as u32)).collect();
    let exec = Exec::single(SimdLevel::detected());
    let mut pairs = 0;
    for source in storages(&p, f32s) {
        for &to in DataType::ALL {
            for rules in all_rules() {
                let Some(got) = fast::cast(&exec, &source, to, &rules) else {
                    continue;
                };
                pairs += 1;
                let want = generic(op, &source, to, &rules).expect("generic path casts");
                assert_eq!(got.dtype(), to);
                if !same_bits(&got, &want) {
                    let d = first_difference(&got, &want).unwrap_or_default();
                    panic!("{} -> {to} {rules:?}: {d}", source.dtype());
                }
            }
        }
    }
    assert_eq!(pairs, 123 * 4);
}

/// The comparison the tests above rely on tells differing bits apart, NaN payloads included.
#[test]
fn same_bits_sees_every_difference() {
    let nan = |b| Storage::Float(vec![f32::from_bits(b)]);
    assert!(same_bits(&nan(0x7FC0_0000), &nan(0x7FC0_0000)));
    assert!(!same_bits(&nan(0x7FC0_0000), &nan(0x7FC0_0001)));
    assert!(!same_bits(&nan(0x7FC0_0000), &nan(0xFFC0_0000)));
    assert!(!same_bits(
        &Storage::Float8E5M2(vec![F8E5M2::from_bits(1)]),
        &Storage::Float8E5M2(vec![F8E5M2::from_bits(2)])
    ));
    assert!(!same_bits(
        &Storage::Uint8(vec![1]),
        &Storage::Uint8(vec![1, 1])
    ));
}

/// The integer types the fast paths take as a source, and as a target of an integer source.
const INTEGERS: [DataType; 8] = [
    DataType::Uint8,
    DataType::Int8,
    DataType::Uint16,
    DataType::Int16,
    DataType::Uint32,
    DataType::Int32,
    DataType::Uint64,
    DataType::Int64,
];

/// The narrow float formats with an encoder from f32 and from f16 (FLOAT16 from f16: the NaN
/// codes); from bf16 all but FLOAT16.
const NARROW: [DataType; 8] = [
    DataType::Float16,
    DataType::Float8E4M3FN,
    DataType::Float8E4M3FNUZ,
    DataType::Float8E5M2,
    DataType::Float8E5M2FNUZ,
    DataType::Float4E2M1,
    DataType::Float6E2M3,
    DataType::Float6E3M2,
];

/// Every (source, target) pair [`fast::cast`] serves, under every rule combination: the float pairs,
/// then every integer source to every integer type, FLOAT and DOUBLE.
fn fast_pairs() -> Vec<(DataType, DataType)> {
    use DataType as D;
    let mut v = vec![
        (D::Float, D::Bfloat16),
        (D::Float, D::Double),
        (D::Float, D::Int4),
        (D::Float, D::Uint4),
        (D::Float, D::Float8E8M0),
        (D::Float8E8M0, D::Float),
        (D::Float16, D::Float),
        (D::Bfloat16, D::Float),
        (D::Double, D::Float),
        (D::Int4, D::Float),
        (D::Uint4, D::Float),
    ];
    v.extend(NARROW.iter().map(|&t| (D::Float, t)));
    v.extend(NARROW.iter().map(|&t| (D::Float16, t)));
    v.extend(NARROW[1..].iter().map(|&t| (D::Bfloat16, t)));
    v.extend([D::Float16, D::Bfloat16].map(|s| (s, D::Float8E8M0)));
    v.extend(NARROW[1..].iter().map(|&s| (s, D::Float)));
    for s in INTEGERS {
        v.extend(
            INTEGERS
                .iter()
                .chain(&[D::Float, D::Double])
                .map(|&t| (s, t)),
        );
    }
    v
}

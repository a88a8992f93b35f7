//! The fast paths against the exact path: every 16-bit source code, every f32 exponent with
//! mantissas at, beside and between every rounding position, random bits, all NaN kinds; at
//! every SIMD level the CPU has (hardware conversions included) and split over threads.

use super::super::exact::{CastRules, Generation, RoundMode};
use super::super::float::TableFormat;
use super::super::{
    cast_float, FloatFormat, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
};
use super::super::{SubByteInt, I4, U4};
use super::map::{self, Mode};
use super::*;
use crate::stream::{self, NoPadding};
use crate::testkit::all_rules;
use crate::tuning::SimdLevel;
use std::mem::MaybeUninit;
use test_rng::XorShift64;

/// Every way to run a fast path this CPU allows: each supported SIMD level on one thread,
/// and the best level split over 3 threads in small pieces (so the piece edges fall inside
/// the vector bodies and tails of the hardware kernels); each with ordinary and with
/// streaming stores.
fn execs() -> Vec<Exec> {
    let mut v: Vec<Exec> = SimdLevel::supported().map(Exec::single).collect();
    v.push(Exec {
        level: SimdLevel::detected(),
        threads: 3,
        min_per_thread: 1000,
        stream_min_bytes: usize::MAX,
    });
    let streaming = v.iter().map(|&e| Exec {
        stream_min_bytes: 0,
        ..e
    });
    v.extend(streaming.collect::<Vec<_>>());
    v
}

/// Runs `fast` under every [`execs`] entry and compares each result with `want`.
fn compare_all(what: &str, inputs: &[u64], want: &[u64], fast: impl Fn(&Exec) -> Vec<u64>) {
    for exec in execs() {
        compare(&format!("{what} {exec:?}"), inputs, &fast(&exec), want);
    }
}

/// Collects mismatches and fails with the first few, in hex.
fn compare(what: &str, inputs: &[u64], got: &[u64], want: &[u64]) {
    let bad: Vec<String> = (0..inputs.len())
        .filter(|&i| got[i] != want[i])
        .take(8)
        .map(|i| {
            format!(
                "input {:#x}: fast {:#x}, exact {:#x}",
                inputs[i], got[i], want[i]
            )
        })
        .collect();
    let count = (0..inputs.len()).filter(|&i| got[i] != want[i]).count();
    assert!(
        bad.is_empty(),
        "{what}: {count} of {} differ\n{}",
        inputs.len(),
        bad.join("\n")
    );
}

/// f32 bit patterns: every sign and exponent, with mantissas holding each possible rounding
/// position at exactly half, one below and one above it, zero and all ones below it, under
/// several kept-bit patterns; then 2^20 random patterns and assorted NaNs.
fn f32_inputs() -> Vec<u32> {
    let mut v = Vec::new();
    for sign in [0u32, 1 << 31] {
        for exp in 0..=255u32 {
            for shift in 1..=23u32 {
                let half = 1u32 << (shift - 1);
                let lows = [0, 1, half - 1, half, half + 1, (1 << shift) - 1];
                for hi in [0u32, 1, 2, 3, 0x7F_FFFF] {
                    for low in lows {
                        let mant = ((hi << shift) | low) & 0x7F_FFFF;
                        v.push(sign | (exp << 23) | mant);
                    }
                }
            }
        }
    }
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    for _ in 0..1 << 20 {
        v.push((rng.next_u64() >> 32) as u32);
    }
    v.extend([
        0x7FC0_0000,
        0xFFC0_0000,
        0x7F80_0001,
        0xFF80_0001,
        0x7FFF_FFFF,
        0xFFFF_FFFF,
    ]);
    v
}

fn as_u64<T: Copy>(v: &[T], f: impl Fn(T) -> u64) -> Vec<u64> {
    v.iter().map(|&x| f(x)).collect()
}

fn check_narrow_from_f32<T: Target>(name: &str) {
    let bits = f32_inputs();
    let src: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let inputs = as_u64(&bits, u64::from);
    for rules in all_rules() {
        let want = as_u64(&src, |x| cast_float::<f32, T>(x, &rules).code());
        compare_all(&format!("f32 -> {name} {rules:?}"), &inputs, &want, |x| {
            as_u64(&wide_to_narrow::<f32, T>(x, &src, &rules), |t| t.code())
        });
    }
}

// One test per format, so that the test runner spreads them over the cores.
#[test]
fn f32_to_f16_hardware_and_scalar() {
    let bits = f32_inputs();
    let src: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let inputs = as_u64(&bits, u64::from);
    for rules in all_rules() {
        let want = as_u64(&src, |x| {
            u64::from(cast_float::<f32, f16>(x, &rules).to_bits())
        });
        compare_all(&format!("f32 -> FLOAT16 {rules:?}"), &inputs, &want, |x| {
            as_u64(&f32_to_f16(x, &src, &rules), |t| u64::from(t.to_bits()))
        });
    }
}

#[test]
fn f32_to_e4m3fn() {
    check_narrow_from_f32::<F8E4M3FN>("FLOAT8E4M3FN");
}

#[test]
fn f32_to_e4m3fnuz() {
    check_narrow_from_f32::<F8E4M3FNUZ>("FLOAT8E4M3FNUZ");
}

#[test]
fn f32_to_e5m2() {
    check_narrow_from_f32::<F8E5M2>("FLOAT8E5M2");
}

#[test]
fn f32_to_e5m2fnuz() {
    check_narrow_from_f32::<F8E5M2FNUZ>("FLOAT8E5M2FNUZ");
}

#[test]
fn f32_to_f4e2m1() {
    check_narrow_from_f32::<F4E2M1>("FLOAT4E2M1");
}

#[test]
fn f32_to_f6e2m3() {
    check_narrow_from_f32::<F6E2M3>("FLOAT6E2M3");
}

#[test]
fn f32_to_f6e3m2() {
    check_narrow_from_f32::<F6E3M2>("FLOAT6E3M2");
}

#[test]
fn f32_to_bf16_both_generations() {
    let bits = f32_inputs();
    let src: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let inputs = as_u64(&bits, u64::from);
    for rules in all_rules() {
        let want = as_u64(&src, |x| {
            u64::from(cast_float::<f32, bf16>(x, &rules).to_bits())
        });
        compare_all(&format!("f32 -> BFLOAT16 {rules:?}"), &inputs, &want, |x| {
            as_u64(&f32_to_bf16(x, &src, &rules), |t| u64::from(t.to_bits()))
        });
    }
}

/// Every code of the 16-bit source `S`, as the values the tests compare.
/// Every code of the 16-bit source `S` twice: in order, then scrambled (code `i * 40503` mod
/// 2^16, a permutation), so that neighbouring lanes of a vector also hold unrelated values: in
/// order, a block of lanes holds neighbouring codes, which mostly round alike, and a kernel
/// that mixed up its lanes could pass.
fn every_code<S: TableFormat>() -> (Vec<S>, Vec<u64>) {
    let codes = 0..=u64::from(u16::MAX);
    let scrambled = codes.clone().map(|i| (i * 40503) & 0xFFFF);
    let src: Vec<S> = codes.chain(scrambled).map(S::from_code).collect();
    let inputs = as_u64(&src, S::code);
    (src, inputs)
}

fn check_narrow_from_16_bits<S: Wide + FloatFormat + TableFormat, T: Target>(name: &str) {
    let (src, inputs) = every_code::<S>();
    for rules in all_rules() {
        let want = as_u64(&src, |h| cast_float::<S, T>(h, &rules).code());
        compare_all(&format!("{name} {rules:?}"), &inputs, &want, |x| {
            as_u64(&wide_to_narrow::<S, T>(x, &src, &rules), |t| t.code())
        });
    }
}

#[test]
fn every_f16_code_to_every_float8_and_float4() {
    check_narrow_from_16_bits::<f16, F8E4M3FN>("f16 -> FLOAT8E4M3FN");
    check_narrow_from_16_bits::<f16, F8E4M3FNUZ>("f16 -> FLOAT8E4M3FNUZ");
    check_narrow_from_16_bits::<f16, F8E5M2>("f16 -> FLOAT8E5M2");
    check_narrow_from_16_bits::<f16, F8E5M2FNUZ>("f16 -> FLOAT8E5M2FNUZ");
    check_narrow_from_16_bits::<f16, F4E2M1>("f16 -> FLOAT4E2M1");
    check_narrow_from_16_bits::<f16, F6E2M3>("f16 -> FLOAT6E2M3");
    check_narrow_from_16_bits::<f16, F6E3M2>("f16 -> FLOAT6E3M2");
}

#[test]
fn every_bf16_code_to_every_float8_and_float4() {
    check_narrow_from_16_bits::<bf16, F8E4M3FN>("bf16 -> FLOAT8E4M3FN");
    check_narrow_from_16_bits::<bf16, F8E4M3FNUZ>("bf16 -> FLOAT8E4M3FNUZ");
    check_narrow_from_16_bits::<bf16, F8E5M2>("bf16 -> FLOAT8E5M2");
    check_narrow_from_16_bits::<bf16, F8E5M2FNUZ>("bf16 -> FLOAT8E5M2FNUZ");
    check_narrow_from_16_bits::<bf16, F4E2M1>("bf16 -> FLOAT4E2M1");
    check_narrow_from_16_bits::<bf16, F6E2M3>("bf16 -> FLOAT6E2M3");
    check_narrow_from_16_bits::<bf16, F6E3M2>("bf16 -> FLOAT6E3M2");
}

#[test]
fn every_f16_code_to_f16() {
    let (src, inputs) = every_code::<f16>();
    for rules in all_rules() {
        let want = as_u64(&src, |h| cast_float::<f16, f16>(h, &rules).code());
        compare_all(&format!("f16 -> FLOAT16 {rules:?}"), &inputs, &want, |x| {
            as_u64(&f16_to_f16(x, &src, &rules), |t| t.code())
        });
    }
}

#[test]
fn every_f16_and_bf16_code_to_f32() {
    let rules = CastRules::default();
    let codes: Vec<u64> = (0..=u64::from(u16::MAX)).collect();
    let halves: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    let want = as_u64(&halves, |h| {
        u64::from(cast_float::<f16, f32>(h, &rules).to_bits())
    });
    compare_all("f16 -> f32", &codes, &want, |x| {
        as_u64(&f16_to_f32(x, &halves), |x| u64::from(x.to_bits()))
    });
    let brains: Vec<bf16> = (0..=u16::MAX).map(bf16::from_bits).collect();
    let want = as_u64(&brains, |h| {
        u64::from(cast_float::<bf16, f32>(h, &rules).to_bits())
    });
    compare_all("bf16 -> f32", &codes, &want, |x| {
        as_u64(&bf16_to_f32(x, &brains), |x| u64::from(x.to_bits()))
    });
}

/// f64 patterns around every f32 rounding boundary class, including the subnormal range and
/// overflow, plus random bits and NaNs with payloads.
fn f64_inputs() -> Vec<u64> {
    let mut v = Vec::new();
    for sign in [0u64, 1 << 63] {
        // Biased f64 exponents from below the f32 subnormals to above f32::MAX.
        for exp in 1023 - 160..=1023 + 130u64 {
            for shift in 1..=52u32 {
                let half = 1u64 << (shift - 1);
                for hi in [0u64, 1, 2, 3, 0xF_FFFF_FFFF_FFFF] {
                    for low in [0, 1, half - 1, half, half + 1, (1 << shift) - 1] {
                        let mant = ((hi << shift) | low) & 0xF_FFFF_FFFF_FFFF;
                        v.push(sign | (exp << 52) | mant);
                    }
                }
            }
        }
    }
    let mut rng = XorShift64(0x9e37_79b9_7f4a_7c15);
    for _ in 0..1 << 18 {
        v.push(rng.next_u64());
    }
    v.extend([
        0x7FF8_0000_0000_0000,
        0xFFF0_0000_0000_0001,
        0x7FF0_0000_0000_0000,
        0,
    ]);
    v
}

#[test]
fn f64_to_f32_and_back() {
    let rules = CastRules::default();
    let inputs = f64_inputs();
    let src: Vec<f64> = inputs.iter().map(|&b| f64::from_bits(b)).collect();
    let want = as_u64(&src, |x| {
        u64::from(cast_float::<f64, f32>(x, &rules).to_bits())
    });
    compare_all("f64 -> f32", &inputs, &want, |x| {
        as_u64(&f64_to_f32(x, &src), |x| u64::from(x.to_bits()))
    });
    let bits = f32_inputs();
    let singles: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let want = as_u64(&singles, |x| cast_float::<f32, f64>(x, &rules).to_bits());
    compare_all("f32 -> f64", &as_u64(&bits, u64::from), &want, |x| {
        as_u64(&f32_to_f64(x, &singles), f64::to_bits)
    });
}

/// The one byte a one-byte element is stored as.
fn raw_byte<T: crate::stream::NoPadding>(t: T) -> u8 {
    const { assert!(size_of::<T>() == 1) };
    // SAFETY: `T` is one byte with no padding (`NoPadding`), so its byte is initialised.
    unsafe { std::mem::transmute_copy(&t) }
}

#[test]
fn f32_to_int4_and_uint4() {
    let mut bits = f32_inputs();
    // Every quarter from -40 to 40 and the halves one ulp either side.
    for k in -160..=160 {
        let x = k as f32 / 4.0;
        bits.extend([x.to_bits(), x.to_bits() + 1, x.to_bits().wrapping_sub(1)]);
    }
    let src: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let inputs = as_u64(&bits, u64::from);
    for rules in all_rules() {
        // Whole bytes, not codes: a vector kernel writes the byte the element holds, and an
        // INT4 holds its value sign-extended (an unextended nibble has the right code but is
        // another, invalid, element).
        let want = as_u64(&src, |x| {
            u64::from(raw_byte(I4::from_exact(&x.to_exact(&rules), &rules)))
        });
        compare_all(&format!("f32 -> INT4 {rules:?}"), &inputs, &want, |x| {
            as_u64(&f32_to_i4(x, &src, &rules), |t| u64::from(raw_byte(t)))
        });
        let want = as_u64(&src, |x| {
            u64::from(raw_byte(U4::from_exact(&x.to_exact(&rules), &rules)))
        });
        compare_all(&format!("f32 -> UINT4 {rules:?}"), &inputs, &want, |x| {
            as_u64(&f32_to_u4(x, &src, &rules), |t| u64::from(raw_byte(t)))
        });
    }
}

fn check_widen<T: Target>(name: &str) {
    let src: Vec<T> = (0..=255).map(T::from_code).collect();
    let inputs: Vec<u64> = (0..=255).collect();
    for rules in all_rules() {
        let want = as_u64(&src, |c| {
            u64::from(cast_float::<T, f32>(c, &rules).to_bits())
        });
        compare_all(&format!("{name} -> f32 {rules:?}"), &inputs, &want, |x| {
            as_u64(&narrow_to_f32(x, &src, &rules), |x| u64::from(x.to_bits()))
        });
    }
}

#[test]
fn every_float8_and_float4_code_to_f32() {
    check_widen::<F8E4M3FN>("FLOAT8E4M3FN");
    check_widen::<F8E4M3FNUZ>("FLOAT8E4M3FNUZ");
    check_widen::<F8E5M2>("FLOAT8E5M2");
    check_widen::<F8E5M2FNUZ>("FLOAT8E5M2FNUZ");
    check_widen::<F4E2M1>("FLOAT4E2M1");
    check_widen::<F6E2M3>("FLOAT6E2M3");
    check_widen::<F6E3M2>("FLOAT6E3M2");
}

/// Every value of the formats of at most 64 codes is a bfloat16 (the f32 the scalar decoder
/// gives has its low 16 bits zero), and a negative code's value is its positive code's with
/// the sign bit set: so `widen64.rs` has its tables for FLOAT6E2M3, FLOAT6E3M2 and FLOAT4E2M1
/// under every rule set, and the arithmetic of both its kernels gives the scalar decoder's
/// bits for every byte; the float8 formats, with 256 codes, have none.
#[test]
fn the_widening_tables_hold_the_scalar_decoders_values() {
    fn check<T: Target>(rules: &CastRules) {
        let w = Widen::<T>::new(rules);
        let name = std::any::type_name::<T>();
        let h = widen64::Halves::new(&w);
        if T::ROW.exp_bits + T::ROW.mant_bits > 5 {
            assert!(h.is_none(), "{name} {rules:?}");
            return;
        }
        let sign = 1u32 << (T::ROW.exp_bits + T::ROW.mant_bits);
        for c in 0..2 * sign {
            let (pos, neg) = (w.decode(c & (sign - 1)), w.decode(c | sign));
            assert_eq!(w.decode(c) & 0xFFFF, 0, "{name} code {c:#x} {rules:?}");
            assert_eq!(neg, pos | 0x8000_0000, "{name} code {c:#x} {rules:?}");
        }
        let h = h.unwrap_or_else(|| panic!("no tables for {name} {rules:?}"));
        for x in 0..=255u8 {
            let want = w.decode(T::from_code(u64::from(x)).code() as u32);
            let what = format!("{name} byte {x:#x} {rules:?}");
            assert_eq!(h.decode_v3_model(x), want, "v3 {what}");
            assert_eq!(h.decode_v4_model(x), want, "v4 {what}");
        }
    }
    for rules in all_rules() {
        check::<F6E2M3>(&rules);
        check::<F6E3M2>(&rules);
        check::<F4E2M1>(&rules);
        check::<F8E4M3FN>(&rules);
        check::<F8E4M3FNUZ>(&rules);
        check::<F8E5M2>(&rules);
        check::<F8E5M2FNUZ>(&rules);
    }
}

/// `widen64.rs`'s kernels at every level, with and without streaming, at every output offset
/// within a line and source offset, so that heads, vector blocks and tails each hold every
/// code; under every rule set.
#[test]
fn the_widening_kernels_decode_every_code_at_every_alignment() {
    fn check<T: Target>(rules: &CastRules) {
        let w = Widen::<T>::new(rules);
        let h = widen64::Halves::new(&w);
        assert!(h.is_some(), "{}", std::any::type_name::<T>());
        let scalar = move |c: T| f32::from_bits(w.decode(c.code() as u32));
        // Every code in scrambled order, many times over, an odd length.
        let src: Vec<T> = (0..1001u64)
            .map(|i| T::from_code(i * 37 + i / 64))
            .collect();
        let want = as_u64(&src, |c| {
            u64::from(cast_float::<T, f32>(c, rules).to_bits())
        });
        let kernel = |l, s: &[T], d: &mut [_]| widen64::decode(l, s, d, h.as_ref(), scalar);
        let name = std::any::type_name::<T>().rsplit("::").next().unwrap_or("");
        let what = format!("{name} -> f32 {rules:?}");
        at_every_alignment(&what, &src, &want, kernel, |x: f32| u64::from(x.to_bits()));
    }
    for rules in all_rules() {
        check::<F6E2M3>(&rules);
        check::<F6E3M2>(&rules);
        check::<F4E2M1>(&rules);
    }
}

/// Runs a hardware kernel at every SIMD level on `src` written into every output alignment
/// (0 to 63 elements past an allocation), the source shifted too, and holds each run to `want`:
/// the vector bodies start at the first aligned output element, so each offset moves the
/// scalar head, the body and the tail over different elements.
fn at_every_alignment<S: Copy, D: Copy>(
    what: &str,
    src: &[S],
    want: &[u64],
    kernel: impl Fn(Mode, &[S], &mut [MaybeUninit<D>]),
    code: impl Fn(D) -> u64,
) {
    let inputs: Vec<u64> = (0..src.len() as u64).collect();
    let modes =
        SimdLevel::supported().flat_map(|level| [false, true].map(|stream| Mode { level, stream }));
    for mode in modes {
        for offset in 0..64 {
            let shift = offset % 5;
            let (src, want) = (&src[shift..], &want[shift..]);
            let mut buf = vec![MaybeUninit::<D>::uninit(); src.len() + offset];
            let dst = &mut buf[offset..];
            kernel(mode, src, dst);
            // SAFETY: the kernel writes its whole output (its contract).
            let got: Vec<u64> = dst
                .iter()
                .map(|d| code(unsafe { d.assume_init() }))
                .collect();
            let name = format!("{what} {mode:?} output offset {offset}");
            compare(&name, &inputs[shift..], &got, want);
        }
    }
}

/// A few thousand f32 inputs with every kind of special among them (NaNs of both signs,
/// infinities, subnormals, halfway cases), so that every vector and every tail holds some.
fn mixed_f32() -> Vec<f32> {
    let all = f32_inputs();
    let step = all.len() / 3000;
    let mut v: Vec<u32> = all.iter().step_by(step).copied().collect();
    v.extend(all.iter().rev().take(8));
    for (i, b) in [
        0x7FC0_1234,
        0xFF80_0001,
        0x0000_0001,
        0x8040_0000,
        0x3880_1000,
    ]
    .into_iter()
    .enumerate()
    {
        v.insert(17 * i + 3, b);
    }
    v.into_iter().map(f32::from_bits).collect()
}

/// The narrow encoder takes ±Inf down its finite path (`Narrow::encode`): that is right only
/// while the exact path gives ±Inf the code of a finite value too large for the format, in
/// every format and under every rule set it is used with (BFLOAT16 from Cast-24 only).
#[test]
fn infinity_is_finite_overflow_under_every_rule_set() {
    fn check<T: Target>(rules: &CastRules) {
        for sign in [1.0f32, -1.0] {
            let inf = cast_float::<f32, T>(sign * f32::INFINITY, rules).code();
            let overflow = cast_float::<f32, T>(sign * f32::MAX, rules).code();
            assert_eq!(
                inf,
                overflow,
                "{} {sign} {rules:?}",
                std::any::type_name::<T>()
            );
        }
    }
    for rules in all_rules() {
        check::<f16>(&rules);
        check::<F8E4M3FN>(&rules);
        check::<F8E4M3FNUZ>(&rules);
        check::<F8E5M2>(&rules);
        check::<F8E5M2FNUZ>(&rules);
        check::<F4E2M1>(&rules);
        check::<F6E2M3>(&rules);
        check::<F6E3M2>(&rules);
        if rules.generation == Generation::From24 {
            check::<bf16>(&rules);
        }
    }
}

/// The f16 and bf16 vector kernels round the bits as IEEE does and patch only the NaN lanes,
/// so the exact path's other specials must be IEEE ones under every rule set; no kernel checks
/// it at run time. A float8 format's are not, so the check can fail.
#[test]
fn bf16_and_f16_specials_are_ieee_under_every_rule_set() {
    for rules in all_rules() {
        assert!(Narrow::new::<bf16>(&rules).ieee_specials(), "{rules:?}");
        assert!(Narrow::new::<f16>(&rules).ieee_specials(), "{rules:?}");
        assert!(
            !Narrow::new::<F8E4M3FN>(&rules).ieee_specials(),
            "{rules:?}"
        );
    }
}

#[test]
fn hardware_kernels_at_every_output_alignment() {
    let src = mixed_f32();
    for rules in all_rules() {
        let n = Narrow::new::<f16>(&rules);
        let scalar = move |x: f32| f16::from_bits(n.encode(x.to_bits()) as u16);
        let want = as_u64(&src, |x| {
            u64::from(cast_float::<f32, f16>(x, &rules).to_bits())
        });
        let kernel = |l, s: &[f32], d: &mut [_]| hw::f32_to_f16(l, s, d, scalar);
        let what = format!("f32 -> FLOAT16 {rules:?}");
        at_every_alignment(&what, &src, &want, kernel, |h: f16| u64::from(h.to_bits()));
    }
    let rne = all_rules()
        .into_iter()
        .filter(|r| r.generation == Generation::From24);
    for rules in rne {
        let n = Narrow::new::<bf16>(&rules);
        let scalar = move |x: f32| bf16::from_bits(n.encode(x.to_bits()) as u16);
        let want = as_u64(&src, |x| {
            u64::from(cast_float::<f32, bf16>(x, &rules).to_bits())
        });
        let kernel = |l, s: &[f32], d: &mut [_]| hw::f32_to_bf16_rne(l, s, d, scalar);
        let what = format!("f32 -> BFLOAT16 rne {rules:?}");
        at_every_alignment(&what, &src, &want, kernel, |h: bf16| u64::from(h.to_bits()));
    }
    let rules = CastRules::default();
    let halves: Vec<f16> = (0..4000u16)
        .map(|i| f16::from_bits(i.wrapping_mul(16411)))
        .collect();
    let want = as_u64(&halves, |h| {
        u64::from(cast_float::<f16, f32>(h, &rules).to_bits())
    });
    let kernel = |l, s: &[f16], d: &mut [_]| hw::f16_to_f32(l, s, d, widen_f16);
    at_every_alignment("f16 -> f32", &halves, &want, kernel, |x: f32| {
        u64::from(x.to_bits())
    });
    let bf16s: Vec<bf16> = halves
        .iter()
        .map(|h| bf16::from_bits(h.to_bits()))
        .collect();
    for rules in all_rules() {
        narrow_at_every_alignment::<f32, F8E4M3FN>(&src, &rules);
        narrow_at_every_alignment::<f32, F8E5M2FNUZ>(&src, &rules);
        narrow_at_every_alignment::<f16, F8E5M2>(&halves, &rules);
        narrow_at_every_alignment::<f16, F8E4M3FN>(&halves, &rules);
        narrow_at_every_alignment::<f16, F8E5M2FNUZ>(&halves, &rules);
        narrow_at_every_alignment::<bf16, F4E2M1>(&bf16s, &rules);
        narrow_at_every_alignment::<bf16, F8E4M3FNUZ>(&bf16s, &rules);
        narrow_at_every_alignment::<f32, F6E2M3>(&src, &rules);
        narrow_at_every_alignment::<f16, F6E3M2>(&halves, &rules);
        narrow_at_every_alignment::<bf16, F6E2M3>(&bf16s, &rules);
    }
}

/// The vector float8 / float4 encoder from `S` to `T` at every output alignment.
fn narrow_at_every_alignment<S: Wide + FloatFormat, T: Target>(src: &[S], rules: &CastRules) {
    let n = Narrow::new::<T>(rules);
    let scalar = move |x: S| T::from_code(u64::from(n.encode(x.f32_bits())));
    let want = as_u64(src, |x| cast_float::<S, T>(x, rules).code());
    let kernel = |l, s: &[S], d: &mut [_]| narrow::encode(l, s, d, &n, scalar);
    let name = |t: &str| t.rsplit("::").next().unwrap_or(t).to_owned();
    let (from, to) = (
        name(std::any::type_name::<S>()),
        name(std::any::type_name::<T>()),
    );
    let what = format!("{from} -> {to} {rules:?}");
    at_every_alignment(&what, src, &want, kernel, T::code);
}

/// Every rule combination with each `round_mode`: only FLOAT8E8M0 reads it.
fn every_round_mode() -> Vec<CastRules> {
    let modes = [RoundMode::Up, RoundMode::Down, RoundMode::Nearest];
    all_rules()
        .into_iter()
        .flat_map(|r| modes.map(|round_mode| CastRules { round_mode, ..r }))
        .collect()
}

#[test]
fn f32_to_e8m0_under_every_round_mode() {
    let bits = f32_inputs();
    let src: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let inputs = as_u64(&bits, u64::from);
    let rules_seen = every_round_mode();
    assert_eq!(rules_seen.len(), 12);
    for rules in rules_seen {
        let want = as_u64(&src, |x| {
            u64::from(cast_float::<f32, F8E8M0>(x, &rules).to_bits())
        });
        compare_all(
            &format!("f32 -> FLOAT8E8M0 {rules:?}"),
            &inputs,
            &want,
            |x| as_u64(&wide_to_e8m0(x, &src, &rules), |c| u64::from(c.to_bits())),
        );
    }
}

fn check_e8m0_from_16_bits<S: Wide + FloatFormat + TableFormat>(name: &str) {
    let (src, inputs) = every_code::<S>();
    for rules in every_round_mode() {
        let want = as_u64(&src, |h| {
            u64::from(cast_float::<S, F8E8M0>(h, &rules).to_bits())
        });
        compare_all(&format!("{name} {rules:?}"), &inputs, &want, |x| {
            as_u64(&wide_to_e8m0(x, &src, &rules), |c| u64::from(c.to_bits()))
        });
    }
}

#[test]
fn every_f16_and_bf16_code_to_e8m0_under_every_round_mode() {
    check_e8m0_from_16_bits::<f16>("f16 -> FLOAT8E8M0");
    check_e8m0_from_16_bits::<bf16>("bf16 -> FLOAT8E8M0");
}

#[test]
fn every_e8m0_code_to_f32() {
    // Every code many times over, so that vector bodies and streamed lines hold each.
    let src: Vec<F8E8M0> = (0..64 * 256).map(|i| F8E8M0::from_bits(i as u8)).collect();
    let inputs = as_u64(&src, |c| u64::from(c.to_bits()));
    for rules in every_round_mode() {
        let want = as_u64(&src, |c| {
            u64::from(cast_float::<F8E8M0, f32>(c, &rules).to_bits())
        });
        compare_all(
            &format!("FLOAT8E8M0 -> f32 {rules:?}"),
            &inputs,
            &want,
            |x| as_u64(&e8m0_to_f32(x, &src, &rules), |v| u64::from(v.to_bits())),
        );
    }
}

/// `run` streams exactly when the whole output has `stream_min_bytes` or more, and hands the
/// same decision to every piece when it splits over threads.
#[test]
fn streaming_starts_at_the_threshold() {
    let src: Vec<u32> = (0..4096).collect();
    // (elements, threads, threshold in bytes, streams): four bytes an element.
    let runs = [
        (15, 1, 64, false),
        (16, 1, 64, true),
        (4095, 3, 16384, false),
        (4096, 3, 16384, true),
    ];
    for (len, threads, stream_min_bytes, want) in runs {
        let exec = Exec {
            level: SimdLevel::Baseline,
            threads,
            min_per_thread: 64,
            stream_min_bytes,
        };
        let seen = std::sync::Mutex::new(Vec::new());
        // SAFETY: the kernel writes its whole piece (fill_plain runs over all of it).
        let out = unsafe {
            map::run(&exec, &src[..len], &|mode: Mode, s: &[u32], d: &mut [_]| {
                seen.lock().unwrap().push(mode.stream);
                map::fill_plain(s, d, |x| x);
            })
        };
        assert_eq!(out, src[..len], "{len} x {threads}");
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.len(), threads, "{len} x {threads}: pieces");
        assert!(
            seen.iter().all(|&s| s == want),
            "{len} x {threads}: {seen:?}"
        );
    }
}

/// The line-streaming loop at every output offset within a line and at lengths around the
/// line boundaries, for each element size a fast path writes (1, 2, 4 and 8 bytes), at every
/// level: heads, streamed lines and tails must together write each element once, in place.
/// Small enough for Miri, which checks every streamed address, its alignment and the
/// initialisation of the output at the baseline level (docs/fuzzing.md).
#[test]
fn streamed_lines_at_every_offset_and_length() {
    fn check<D: NoPadding + PartialEq + std::fmt::Debug>(f: impl Fn(u32) -> D + Copy) {
        let src: Vec<u32> = (0..150u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        for level in SimdLevel::supported() {
            let mode = Mode {
                level,
                stream: true,
            };
            for offset in 0..64 / size_of::<D>() {
                for len in [0, 1, 63, 64, 65, 127, 129, 150 - offset] {
                    let mut buf = vec![MaybeUninit::<D>::uninit(); offset + len];
                    let dst = &mut buf[offset..];
                    map::fill(mode, &src[..len], dst, f);
                    stream::fence();
                    for (i, d) in dst.iter().enumerate() {
                        // SAFETY: `fill` writes every element of its output.
                        let got = unsafe { d.assume_init_read() };
                        assert_eq!(got, f(src[i]), "{mode:?} offset {offset} len {len} at {i}");
                    }
                }
            }
        }
    }
    check(|x| x as u8);
    check(|x| x as u16);
    check(|x| x.rotate_left(7));
    check(|x| u64::from(x) * 3);
}

/// The vector encoders run only where their shortcuts hold (`narrow::shortcuts_hold`); they
/// must hold for every format under every rule set, or the vector kernels would go untested
/// and unused.
#[test]
fn the_vector_encoders_serve_every_format_and_rule_set() {
    fn check<T: Target>() {
        for rules in all_rules() {
            let n = Narrow::new::<T>(&rules);
            assert!(
                narrow::shortcuts_hold::<T>(&n),
                "{} {rules:?}: {n:?}",
                std::any::type_name::<T>()
            );
        }
    }
    check::<F8E4M3FN>();
    check::<F8E4M3FNUZ>();
    check::<F8E5M2>();
    check::<F8E5M2FNUZ>();
    check::<F4E2M1>();
    check::<F6E2M3>();
    check::<F6E3M2>();
    // The 16-bit-lane kernels serve every 16-bit source whose normals reach the target's
    // smallest normal: all but FLOAT16 -> FLOAT8E5M2FNUZ (2^-15 is an f16 subnormal).
    assert!(narrow::lanes16_fit::<f16, F8E4M3FN>());
    assert!(narrow::lanes16_fit::<f16, F8E4M3FNUZ>());
    assert!(narrow::lanes16_fit::<f16, F8E5M2>());
    assert!(!narrow::lanes16_fit::<f16, F8E5M2FNUZ>());
    assert!(narrow::lanes16_fit::<f16, F4E2M1>());
    assert!(narrow::lanes16_fit::<bf16, F8E4M3FN>());
    assert!(narrow::lanes16_fit::<bf16, F8E4M3FNUZ>());
    assert!(narrow::lanes16_fit::<bf16, F8E5M2>());
    assert!(narrow::lanes16_fit::<bf16, F8E5M2FNUZ>());
    assert!(narrow::lanes16_fit::<bf16, F4E2M1>());
    assert!(narrow::lanes16_fit::<f16, F6E2M3>());
    assert!(narrow::lanes16_fit::<f16, F6E3M2>());
    assert!(narrow::lanes16_fit::<bf16, F6E2M3>());
    assert!(narrow::lanes16_fit::<bf16, F6E3M2>());
    assert!(!narrow::lanes16_fit::<f32, F8E5M2>());
    // Only a pair that shares exponent field and bias skips the f32 path for its subnormals.
    #[cfg(target_arch = "x86_64")]
    {
        assert!(narrow::same_exponent::<f16, F8E5M2>());
        assert!(!narrow::same_exponent::<f16, F8E4M3FN>());
        assert!(!narrow::same_exponent::<bf16, F8E5M2>());
    }
}

/// Codes the vector kernels' shortcuts cannot give (an overflow code that is neither the
/// largest magnitude nor the next, a negative overflow code without the sign, the other -0)
/// send the call to the scalar encoder, which then gives them at every level and alignment.
#[test]
fn codes_the_shortcuts_cannot_give_go_to_the_scalar_encoder() {
    fn check<T: Target>() {
        let src = mixed_f32();
        for rules in all_rules() {
            let n = Narrow::new::<T>(&rules);
            let variants = [
                Narrow {
                    overflow: (n.max - 1, (n.max - 1) | n.sign),
                    ..n
                },
                Narrow {
                    overflow: (n.overflow.0, n.overflow.0 & !n.sign),
                    ..n
                },
                Narrow {
                    neg_zero: n.neg_zero ^ n.sign,
                    ..n
                },
            ];
            for v in variants {
                assert!(!narrow::shortcuts_hold::<T>(&v), "{v:?}");
                let scalar = move |x: f32| T::from_code(u64::from(v.encode(x.to_bits())));
                let want = as_u64(&src, |x| u64::from(v.encode(x.to_bits())));
                let kernel = |l, s: &[f32], d: &mut [_]| narrow::encode(l, s, d, &v, scalar);
                let what = format!("{v:?} {rules:?}");
                at_every_alignment(&what, &src, &want, kernel, T::code);
            }
        }
    }
    check::<F8E4M3FN>();
    check::<F8E4M3FNUZ>();
}

/// The permutation after the packs is one: every dword of the packed register lands once.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_unpack_order_is_a_permutation() {
    fn check<const N: usize>() {
        let mut order = narrow::unpack_order::<N>().map(|i| i as usize);
        order.sort_unstable();
        assert!(order.iter().copied().eq(0..N), "{order:?}");
    }
    check::<8>();
    check::<16>();
}

/// The table encoders' arithmetic (`Table16::code` and `Heights16::code`, the AVX-512 and AVX2
/// kernels lane for lane, on every target) gives the exact path's code for every 16-bit source
/// code, wherever it has a table; every table has its table by height. The hardware kernels
/// themselves run in `every_f16_code_to_every_float8_and_float4` and its bf16 twin at the
/// AVX-512 and AVX2 levels, for the pairs and rules that have a table.
#[test]
fn the_table_encoder_matches_the_exact_path_for_every_16_bit_code() {
    fn check<S: Wide + FloatFormat + TableFormat, T: Target>(want_table: bool) {
        let name = format!(
            "{} -> {}",
            std::any::type_name::<S>(),
            std::any::type_name::<T>()
        );
        for rules in all_rules() {
            let n = Narrow::new::<T>(&rules);
            let table = table16::Table16::new::<S, T>(&n);
            // Cast-24 and later (Cast-28 has float6); before it, a format's NaN codes may not
            // differ by the sign bit alone.
            if rules.generation == Generation::From24 {
                assert_eq!(table.is_some(), want_table, "{name} {rules:?}: {n:?}");
            }
            let Some(table) = table else { continue };
            let Some(heights) = table.by_height() else {
                panic!("{name} {rules:?}: no table by height");
            };
            // Under Miri, a sample (every exponent, a spread of mantissas): the full set takes
            // hours there.
            let step = if cfg!(miri) { 97 } else { 1 };
            let bad: Vec<String> = (0..=u16::MAX)
                .step_by(step)
                .filter_map(|h| {
                    let want = cast_float::<S, T>(S::from_code(u64::from(h)), &rules).code();
                    let [t, d] = [table.code(h), heights.code(&table, h)].map(u64::from);
                    (t != want || d != want)
                        .then(|| format!("{h:#06x}: {t:#x}, by height {d:#x}, exact {want:#x}"))
                })
                .take(8)
                .collect();
            assert!(bad.is_empty(), "{name} {rules:?}:\n{}", bad.join("\n"));
        }
    }
    check::<f16, F6E2M3>(true);
    check::<f16, F6E3M2>(true);
    check::<bf16, F6E2M3>(true);
    check::<bf16, F6E3M2>(true);
    check::<f16, F8E4M3FN>(true);
    check::<bf16, F8E4M3FN>(true);
    check::<bf16, F8E5M2>(true);
    check::<f16, F4E2M1>(true);
    check::<bf16, F4E2M1>(true);
    // Sharing the exponent, `narrow.rs` needs no table; FNUZ has no -0.
    check::<f16, F8E5M2>(false);
    check::<f16, F8E4M3FNUZ>(false);
    check::<bf16, F8E5M2FNUZ>(false);
}

/// f32 bit patterns that would catch f32 -> bf16 -> `T` rounding twice where `T` rounds once
/// (`odd16.rs`): every non-negative `T` value and every midpoint between neighbours (past the
/// largest too, where overflow is decided), each exactly, one f32 ulp to either side, and with
/// bits only in the 16 that bf16 drops, added or taken away; then f32 subnormals, zeros,
/// infinities, NaNs with payload bits only in the low 16, and the largest f32. Both signs.
fn double_rounding_f32<T: Target>() -> Vec<u32> {
    let rules = CastRules::default();
    let n = Narrow::new::<T>(&rules);
    let value = |c: u32| cast_float::<T, f32>(T::from_code(u64::from(c)), &rules);
    let mut points: Vec<f32> = (0..=n.max).map(value).collect();
    // Past the largest: the next values of its binade and the midpoints between them.
    let ulp = points[points.len() - 1] - points[points.len() - 2];
    let top = points[points.len() - 1];
    points.extend((1..=4).map(|k| top + k as f32 * ulp));
    // Midpoints: exact in f32, which has far more bits than any `T`.
    let midpoints: Vec<f32> = points.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
    points.extend(midpoints);
    let mut v = Vec::new();
    for p in points {
        let b = p.to_bits();
        // The 16 dropped bits: the lowest, the highest, all, and the one below the highest.
        for low in [0u32, 1, 0x7FFF, 0x8000, 0xFFFF] {
            v.extend([b.wrapping_add(low), b.wrapping_sub(low)]);
            // One bf16 ulp over, with the same low bits.
            v.extend([
                (b + 0x1_0000).wrapping_add(low),
                (b + 0x1_0000).wrapping_sub(low),
            ]);
        }
    }
    v.extend([
        0x0000_0001,
        0x0000_FFFF,
        0x0001_0000,
        0x0040_0000,
        0x007F_FFFF,
        0x0080_0000,
        0x0000_0000,
        0x7F80_0000,
        0x7F80_0001,
        0x7F80_FFFF,
        0x7F80_8000,
        0x7FC0_0000,
        0x7F7F_FFFF,
        0x7F7F_0001,
    ]);
    // Both signs; drop anything a `b - low` underflowed to or past +Inf into (never the
    // point: every point is a finite non-negative f32).
    let positive: Vec<u32> = v.into_iter().filter(|&b| b <= 0x7FFF_FFFF).collect();
    positive
        .iter()
        .copied()
        .chain(positive.iter().map(|&b| b | 0x8000_0000))
        .collect()
}

/// f32 -> `T` through bf16 rounded to odd gives the exact path's codes on the inputs of
/// [`double_rounding_f32`], at every level and thread split, under every rule set with every
/// `round_mode`; and the route is taken where the CPU has a level for it.
fn check_double_rounding<T: Target>(name: &str) {
    let bits = double_rounding_f32::<T>();
    let src: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
    let inputs = as_u64(&bits, u64::from);
    for rules in every_round_mode() {
        let n = Narrow::new::<T>(&rules);
        let taken = SimdLevel::supported().filter(|&l| odd16::route::<f32, T>(l, &n).is_some());
        if SimdLevel::detected() >= SimdLevel::Avx2 {
            assert!(
                taken.count() > 0,
                "f32 -> {name} {rules:?}: no level takes bf16"
            );
        }
        let want = as_u64(&src, |x| cast_float::<f32, T>(x, &rules).code());
        compare_all(&format!("f32 -> {name} {rules:?}"), &inputs, &want, |x| {
            as_u64(&wide_to_narrow::<f32, T>(x, &src, &rules), |t| t.code())
        });
    }
}

#[test]
fn f32_through_bf16_rounded_to_odd_rounds_once() {
    check_double_rounding::<F8E4M3FN>("FLOAT8E4M3FN");
    check_double_rounding::<F8E4M3FNUZ>("FLOAT8E4M3FNUZ");
    check_double_rounding::<F8E5M2>("FLOAT8E5M2");
    check_double_rounding::<F8E5M2FNUZ>("FLOAT8E5M2FNUZ");
    check_double_rounding::<F4E2M1>("FLOAT4E2M1");
    check_double_rounding::<F6E2M3>("FLOAT6E2M3");
    check_double_rounding::<F6E3M2>("FLOAT6E3M2");
}

/// Which way an f32 source goes through bf16 at each level, under every rule set: fused into
/// the table kernels wherever `table16.rs` serves the target, which is every one-byte target
/// but the FNUZ ones (no -0) and the formats without NaN under the rules before Cast-24 (their
/// NaN codes are not each other with the sign flipped: FLOAT4E2M1's is +6 for both,
/// docs/semantics.md §3.2; Cast-28's float6 never runs under those rules); for those, staged at
/// AVX2 and not at all at AVX-512 (their f32-lane kernel); never below AVX2 or from a 16-bit
/// source. A route lost only costs speed, which no value test sees; this is what does.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_f32_route_through_bf16_is_fused_wherever_the_table_serves() {
    use odd16::Route;
    fn check<T: Target>(name: &str, no_table: impl Fn(&CastRules) -> bool) {
        for rules in every_round_mode() {
            let n = Narrow::new::<T>(&rules);
            let staged = no_table(&rules);
            let kind = |level| match odd16::route::<f32, T>(level, &n) {
                None => "none",
                Some(Route::Fused512(_)) => "fused512",
                Some(Route::Fused256(..)) => "fused256",
                Some(Route::Staged) => "staged",
            };
            let want = match staged {
                false => ["none", "fused256", "fused512"],
                true => ["none", "staged", "none"],
            };
            let levels = [SimdLevel::Baseline, SimdLevel::Avx2, SimdLevel::Avx512];
            assert_eq!(levels.map(kind), want, "f32 -> {name} {rules:?}");
            for level in levels {
                assert!(odd16::route::<f16, T>(level, &n).is_none(), "f16 -> {name}");
                assert!(
                    odd16::route::<bf16, T>(level, &n).is_none(),
                    "bf16 -> {name}"
                );
            }
        }
    }
    let never = |_: &CastRules| false;
    let always = |_: &CastRules| true;
    check::<F8E4M3FN>("FLOAT8E4M3FN", never);
    check::<F8E5M2>("FLOAT8E5M2", never);
    let before24 = |r: &CastRules| r.generation == Generation::Before24;
    check::<F4E2M1>("FLOAT4E2M1", before24);
    check::<F6E2M3>("FLOAT6E2M3", before24);
    check::<F6E3M2>("FLOAT6E3M2", before24);
    check::<F8E4M3FNUZ>("FLOAT8E4M3FNUZ", always);
    check::<F8E5M2FNUZ>("FLOAT8E5M2FNUZ", always);
}

/// Round-to-odd itself: the top 16 bits, the lowest set where a dropped bit is.
#[test]
fn round_to_odd_keeps_a_sticky_bit() {
    for (bits, want) in [
        (0x3F80_0000u32, 0x3F80u16),
        (0x3F80_0001, 0x3F81),
        (0x3F80_8000, 0x3F81),
        (0x3F81_FFFF, 0x3F81),
        (0x3F82_0000, 0x3F82),
        (0x7F80_0001, 0x7F81),
        (0xFF80_0000, 0xFF80),
        (0x0000_0001, 0x0001),
        (0x8000_0000, 0x8000),
    ] {
        assert_eq!(odd16::round_to_odd(bits), want, "{bits:#010x}");
    }
}

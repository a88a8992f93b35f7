//! Midpoints between adjacent values of each target, one source ulp either side, and
//! random f32/f64 samples, against the reference (and, for f64 -> f32, by construction).

use super::reference::{f32_val, f64_val, Dy, Val};
use super::sweep::check_e8m0;
use super::{rules, targets, Bits, Checked, Failures, FloatFormat, Target};
use crate::dtype::DataType;
use crate::formats::sweeps::{E8M0_BOUNDARIES, MIDPOINTS};
use test_rng::XorShift64;

/// Source bits of a non-negative dyadic value in f32 and f64, when exactly representable.
fn source_bits(d: Dy) -> (Option<u64>, u64) {
    let x = d.to_f64();
    let single = x as f32;
    let f32_bits = (f64::from(single) == x).then(|| u64::from(single.to_bits()));
    (f32_bits, x.to_bits())
}

/// Checks the kernel on source code `bits` of `S`, whose reference value is `v`.
fn check<S: Bits>(t: &Target, bits: u64, v: Val, f: &mut Failures) {
    for saturate in [false, true] {
        let r = rules(saturate, true);
        let got = (t.kernel)(&S::of(bits).to_exact(&r), &r) as u32;
        let want = t.reference.encode(v, saturate, true);
        f.check(got == want, || {
            format!(
                "{bits:#x} -> {} sat={saturate}: got {got:#x}, want {want:#x}",
                t.dtype
            )
        });
    }
}

/// The neighbours of a positive source code (one ulp below, itself, one ulp above) and
/// their negations; `sign` is the source's sign bit.
fn around(bits: u64, sign: u64) -> impl Iterator<Item = u64> {
    [bits - 1, bits, bits + 1]
        .into_iter()
        .flat_map(move |b| [b, b | sign])
}

#[test]
fn midpoints_of_every_target_from_f32_and_f64() {
    let mut f = Failures::default();
    let mut checked = Checked::default();
    for t in targets() {
        let values = &t.reference.values;
        let (top, top_code) = values[values.len() - 1];
        let ulp = Dy::new(1, top.m.ilog2() as i32 + top.e - t.reference.mbits as i32);
        let next = [(top.add(ulp), top_code + 1)];
        let pairs = values.windows(2).map(|w| (w[0], w[1]));
        for ((lo, lo_code), (hi, hi_code)) in pairs.chain([(values[values.len() - 1], next[0])]) {
            let twice = lo.add(hi);
            let mid = Dy::new(twice.m, twice.e - 1);
            // Self-check of the reference, by construction: below, at and above the midpoint.
            let tie = if lo_code % 2 == 0 { lo_code } else { hi_code };
            let (f32_bits, f64_bits) = source_bits(mid);
            let below = f64_val(f64_bits - 1);
            let above = f64_val(f64_bits + 1);
            let nearest = |v: Val| match v {
                Val::Num(false, d) => t.reference.nearest(d).unwrap_or(hi_code),
                _ => u32::MAX,
            };
            f.check(
                nearest(below) == lo_code
                    && nearest(above) == hi_code
                    && nearest(f64_val(f64_bits)) == tie,
                || {
                    format!(
                        "reference self-check failed at {} midpoint {mid:?}",
                        t.dtype
                    )
                },
            );
            for b in around(f64_bits, 1 << 63) {
                check::<f64>(&t, b, f64_val(b), &mut f);
            }
            checked.add(DataType::Double, t.dtype);
            if let Some(b32) = f32_bits {
                for b in around(b32, 1 << 31) {
                    check::<f32>(&t, b, f32_val(b as u32), &mut f);
                }
                checked.add(DataType::Float, t.dtype);
            }
        }
    }
    f.assert_none("midpoints");
    checked.assert_is(&MIDPOINTS);
}

#[test]
fn random_f32_and_f64_into_every_target() {
    let mut f = Failures::default();
    let mut rng = XorShift64(0x9E37_79B9_7F4A_7C15);
    let targets = targets();
    for _ in 0..20_000 {
        let b32 = rng.next_u64() & 0xFFFF_FFFF;
        // f64 samples concentrated near the small formats' range: exponents 1023 +- 160.
        let r = rng.next_u64();
        let b64 = (r & 0x800F_FFFF_FFFF_FFFF) | ((1023 - 160 + (r >> 52 & 0x7FF) % 320) << 52);
        for t in &targets {
            check::<f32>(t, b32, f32_val(b32 as u32), &mut f);
            check::<f64>(t, b64, f64_val(b64), &mut f);
        }
    }
    f.assert_none("random samples");
}

/// f64 -> f32 around midpoints of adjacent f32 values, sampled over all f32 codes.
#[test]
fn f64_to_f32_midpoints() {
    let mut f = Failures::default();
    let r = rules(true, true);
    let codes = (0u32..64)
        .chain((0..0x7F80_0000u32).step_by(4093))
        .chain(0x007F_FFC0..0x0080_0040)
        .chain(0x7F7F_FFC0..0x7F80_0000);
    for c in codes {
        let lo = f64::from(f32::from_bits(c));
        let hi = if c + 1 == 0x7F80_0000 {
            2f64.powi(128)
        } else {
            f64::from(f32::from_bits(c + 1))
        };
        let mid = (lo + hi) / 2.0;
        let tie = if c % 2 == 0 { c } else { c + 1 };
        for (bits, want) in [
            (mid.to_bits() - 1, c),
            (mid.to_bits(), tie),
            (mid.to_bits() + 1, c + 1),
        ] {
            for sign in [0, 1u64 << 63] {
                let got = f32::from_exact(&f64::from_bits(bits | sign).to_exact(&r), &r).to_bits();
                let want = want | ((sign >> 32) as u32);
                f.check(got == want, || {
                    format!(
                        "f64 {:#018x} -> f32 {got:#010x}, want {want:#010x}",
                        bits | sign
                    )
                });
            }
        }
    }
    f.assert_none("f64 -> f32 midpoints");
}

/// E8M0 around every power of two and every 1.5 * 2^k, one f32 ulp either side, and f64
/// inputs a relative 2^-30 off them, which rounding to f32 first would move onto them.
#[test]
fn e8m0_boundaries() {
    let mut f = Failures::default();
    let mut inputs: Vec<f64> = Vec::new();
    for k in -149..=127 {
        for base in [2f64.powi(k), 1.5 * 2f64.powi(k)] {
            let b = (base as f32).to_bits();
            for n in [b - 1, b, b + 1] {
                inputs.push(f64::from(f32::from_bits(n)));
            }
            inputs.push(base * (1.0 + 2f64.powi(-30)));
            inputs.push(base * (1.0 - 2f64.powi(-30)));
        }
    }
    inputs.extend([
        0.0,
        -0.0,
        f64::MAX,
        -f64::MAX,
        f64::INFINITY,
        f64::NAN,
        -2.0,
        f64::from(f32::MAX),
    ]);
    for x in inputs {
        // Reference: docs/semantics.md §3.7 on the f64's own value (no rounding to f32 first).
        let v = f64_val(x.to_bits());
        check_e8m0("DOUBLE", x.to_bits(), x, v, &mut f);
    }
    f.assert_none("e8m0 boundaries");
    let mut checked = Checked::default();
    checked.add(DataType::Double, DataType::Float8E8M0);
    checked.assert_is(&E8M0_BOUNDARIES);
}

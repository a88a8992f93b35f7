//! Integers to floats near powers of two, the `Exact` integer roundings, and the sub-byte
//! integer rules, against host arithmetic and the reference.

use super::reference::{self, Dy, Val};
use super::{bf16, f16};
use super::{rules, Checked, Exact, Failures, FloatFormat};
use crate::dtype::DataType;
use crate::formats::sweeps::SUBBYTE_INTEGERS;
use crate::formats::{SubByteInt, I2, I4, U2, U4};

/// Integers around 2^k for every k < 128: midpoints for 8-, 11- and 24-bit significands and
/// one either side of them.
fn near_powers_of_two() -> Vec<u128> {
    let mut out = Vec::new();
    for k in 0..128u32 {
        let p = 1u128 << k;
        for bits in [8u32, 11, 24, 53] {
            let half_ulp = if k >= bits { 1u128 << (k - bits) } else { 0 };
            for a in 0..4u128 {
                for d in [-1i128, 0, 1] {
                    out.push((p + a * half_ulp).wrapping_add_signed(d));
                }
            }
            // Just below 2^k the ulp is half as large: midpoint at 2^k - ulp/4.
            out.push(p.wrapping_sub(half_ulp / 2));
            out.push(p.wrapping_sub(half_ulp / 2).wrapping_add(1));
            out.push(p.wrapping_sub(half_ulp / 2).wrapping_sub(1));
        }
    }
    out.push(u128::MAX);
    out
}

#[test]
fn integers_round_once_into_floats() {
    let (ref16, refb16) = (reference::f16(), reference::bf16());
    let mut f = Failures::default();
    let r = rules(true, true);
    for v in near_powers_of_two() {
        for negative in [false, true] {
            let exact = if negative {
                match i128::try_from(v) {
                    Ok(i) => Exact::from_i128(-i),
                    Err(_) => continue,
                }
            } else {
                Exact::from_u128(v)
            };
            // Integers have no -0: the sign only shows on non-zero values.
            let negative = negative && v != 0;
            let val = Val::Num(negative, Dy::new(v, 0));
            let sign32 = u32::from(negative) << 31;
            // The host's integer-to-float casts round to nearest even: an independent reference.
            let want32 = (v as f32).to_bits() | sign32;
            let got32 = f32::from_exact(&exact, &r).to_bits();
            f.check(got32 == want32, || {
                format!("{negative} {v} -> f32 {got32:#x}, want {want32:#x}")
            });
            let want64 = (v as f64).to_bits() | u64::from(sign32) << 32;
            let got64 = f64::from_exact(&exact, &r).to_bits();
            f.check(got64 == want64, || {
                format!("{negative} {v} -> f64 {got64:#x}, want {want64:#x}")
            });
            let got16 = u32::from(f16::from_exact(&exact, &r).to_bits());
            let want16 = ref16.encode(val, true, true);
            f.check(got16 == want16, || {
                format!("{negative} {v} -> f16 {got16:#x}, want {want16:#x}")
            });
            let gotb = u32::from(bf16::from_exact(&exact, &r).to_bits());
            let wantb = refb16.encode(val, true, true);
            f.check(gotb == wantb, || {
                format!("{negative} {v} -> bf16 {gotb:#x}, want {wantb:#x}")
            });
        }
    }
    f.assert_none("integers to floats");
}

/// `check(input, expected)` for the integer roundings of `Exact`.
#[test]
fn exact_integer_roundings() {
    let r = rules(true, true);
    let x = |v: f64| v.to_exact(&r);
    let cases: [(f64, Option<i128>, Option<i128>); 16] = [
        (0.5, Some(0), Some(0)),
        (1.5, Some(1), Some(2)),
        (2.5, Some(2), Some(2)),
        (-1.5, Some(-1), Some(-2)),
        (-2.5, Some(-2), Some(-2)),
        (-0.5, Some(0), Some(0)),
        (2.499_999_999, Some(2), Some(2)),
        (2.500_000_001, Some(2), Some(3)),
        (1e-300, Some(0), Some(0)),
        (
            1e30,
            Some(1_000_000_000_000_000_019_884_624_838_656),
            Some(1_000_000_000_000_000_019_884_624_838_656),
        ),
        (1e40, Some(i128::MAX), Some(i128::MAX)),
        (-1e40, Some(i128::MIN), Some(i128::MIN)),
        (
            -170_141_183_460_469_231_731_687_303_715_884_105_728.0,
            Some(i128::MIN),
            Some(i128::MIN),
        ),
        (f64::NAN, None, None),
        (f64::INFINITY, None, None),
        (-0.0, Some(0), Some(0)),
    ];
    for (input, trunc, rne) in cases {
        assert_eq!(x(input).trunc_to_i128(), trunc, "trunc {input:e}");
        assert_eq!(x(input).round_half_even_to_i128(), rne, "rne {input:e}");
    }
    assert_eq!(x(-1.0).round_half_even_wrapping(), Some(u128::MAX));
    assert_eq!(x(2f64.powi(130)).round_half_even_wrapping(), Some(0));
    assert_eq!(
        x(-(2f64.powi(127))).round_half_even_wrapping(),
        Some(1 << 127)
    );
    assert_eq!(x(f64::NEG_INFINITY).round_half_even_wrapping(), None);
    assert!(
        x(-0.0).is_zero() && x(0.0).is_zero() && !x(1e-300).is_zero() && !x(f64::NAN).is_zero()
    );
    assert_eq!(Exact::from_i128(i128::MIN).trunc_to_i128(), Some(i128::MIN));
    assert_eq!(Exact::from_u128(u128::MAX).trunc_to_i128(), Some(i128::MAX));
}

/// Every f16 value: the Exact roundings against the host's `trunc` and `round_ties_even`.
#[test]
fn exact_roundings_of_every_f16() {
    let r = rules(true, true);
    let mut f = Failures::default();
    for bits in 0..=u16::MAX {
        let h = f16::from_bits(bits);
        let (e, x) = (h.to_exact(&r), h.to_f64());
        let finite = x.is_finite();
        let (wt, wr) = (
            finite.then(|| x.trunc() as i128),
            finite.then(|| x.round_ties_even() as i128),
        );
        f.check(
            e.trunc_to_i128() == wt && e.round_half_even_to_i128() == wr,
            || format!("f16 {bits:#06x}"),
        );
    }
    f.assert_none("Exact roundings of f16");
}

/// The sub-byte rule of docs/semantics.md §3.2/§3.8 on f64: Cast <= 23 clamps then rounds half to even
/// (NaN -> 0); Cast-24 and later (and 2-bit types) round half to even then wrap
/// (NaN, Inf -> 0). Returns the code.
fn subbyte_reference(x: f64, bits: u32, signed: bool, wrap: bool) -> u8 {
    let (min, max) = if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    };
    let v = if x.is_nan() || (wrap && x.is_infinite()) {
        0
    } else if wrap {
        x.round_ties_even() as i64
    } else {
        x.clamp(min as f64, max as f64).round_ties_even() as i64
    };
    v.rem_euclid(1 << bits) as u8
}

#[test]
fn subbyte_integers_from_every_f16() {
    let mut checked = Checked::default();
    for t in [
        DataType::Int4,
        DataType::Uint4,
        DataType::Int2,
        DataType::Uint2,
    ] {
        checked.add(DataType::Float16, t);
    }
    checked.assert_is(&SUBBYTE_INTEGERS);
    let mut f = Failures::default();
    for from24 in [false, true] {
        let r = rules(true, from24);
        for bits in 0..=u16::MAX {
            let h = f16::from_bits(bits);
            let (e, x) = (h.to_exact(&r), h.to_f64());
            let got = [
                I4::from_exact(&e, &r).to_bits(),
                U4::from_exact(&e, &r).to_bits(),
                I2::from_exact(&e, &r).to_bits(),
                U2::from_exact(&e, &r).to_bits(),
            ];
            let want = [
                subbyte_reference(x, 4, true, from24),
                subbyte_reference(x, 4, false, from24),
                subbyte_reference(x, 2, true, true),
                subbyte_reference(x, 2, false, true),
            ];
            f.check(got == want, || {
                format!("f16 {bits:#06x} gen24={from24}: got {got:?}, want {want:?}")
            });
        }
    }
    for v in -300i128..300 {
        let got = [
            I4::wrapping_from_i128(v).to_bits(),
            U4::wrapping_from_i128(v).to_bits(),
            I2::wrapping_from_i128(v).to_bits(),
            U2::wrapping_from_i128(v).to_bits(),
        ];
        let want = [
            v.rem_euclid(16) as u8,
            v.rem_euclid(16) as u8,
            v.rem_euclid(4) as u8,
            v.rem_euclid(4) as u8,
        ];
        f.check(got == want, || {
            format!("wrap {v}: got {got:?}, want {want:?}")
        });
    }
    f.assert_none("sub-byte integers");
}

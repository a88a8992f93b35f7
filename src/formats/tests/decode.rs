//! Decoding every code of every 8-bit and smaller format (float6 included), to f32, f64, f16 and bf16.

use super::reference::{self, f32_bits_exact, RefFormat, Val};
use super::{bf16, f16, FloatFormat};
use super::{rules, Bits, Checked, Failures};
use super::{F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0};
use crate::dtype::DataType;
use crate::formats::sweeps::DECODE_EVERY_CODE;
use crate::formats::{I2, I4, U2, U4};

/// The targets `check_code` decodes into.
const DECODE_TARGETS: [DataType; 4] = [
    DataType::Float,
    DataType::Double,
    DataType::Float16,
    DataType::Bfloat16,
];

/// Checks the kernel's decoding of code `c` of `S` against the reference value `v`.
fn check_code<S: Bits>(
    c: u32,
    v: Val,
    from24: bool,
    ref16: &RefFormat,
    refb16: &RefFormat,
    f: &mut Failures,
) {
    let r = rules(true, from24);
    let exact = S::of(u64::from(c)).to_exact(&r);
    let got32 = f32::from_exact(&exact, &r).to_bits();
    let want32 = f32_bits_exact(v);
    f.check(got32 == want32, || {
        format!("code {c:#04x} gen24={from24} -> f32 {got32:#010x}, want {want32:#010x}")
    });
    let got64 = f64::from_exact(&exact, &r).to_bits();
    let want64 = match v {
        Val::Nan(s) => u64::from(s) << 63 | 0x7FF8_0000_0000_0000,
        Val::Inf(s) => u64::from(s) << 63 | 0x7FF0_0000_0000_0000,
        Val::Num(s, d) => u64::from(s) << 63 | d.to_f64().to_bits(),
    };
    f.check(got64 == want64, || {
        format!("code {c:#04x} gen24={from24} -> f64 {got64:#018x}, want {want64:#018x}")
    });
    let got16 = u32::from(f16::from_exact(&exact, &r).to_bits());
    let want16 = ref16.encode(v, true, from24);
    f.check(got16 == want16, || {
        format!("code {c:#04x} gen24={from24} -> f16 {got16:#06x}, want {want16:#06x}")
    });
    // Every value here fits bf16's 8-bit significand, so truncation (<= 23) and RNE agree.
    let gotb = u32::from(bf16::from_exact(&exact, &r).to_bits());
    let wantb = refb16.encode(v, true, from24);
    f.check(gotb == wantb, || {
        format!("code {c:#04x} gen24={from24} -> bf16 {gotb:#06x}, want {wantb:#06x}")
    });
}

fn decode_all<S: Bits>(target: RefFormat, source: DataType) -> Checked {
    let (ref16, refb16) = (reference::f16(), reference::bf16());
    let mut f = Failures::default();
    let codes = 1u32 << (target.ebits + target.mbits + 1);
    for from24 in [false, true] {
        for c in 0..codes {
            check_code::<S>(c, target.decode(c, from24), from24, &ref16, &refb16, &mut f);
        }
    }
    f.assert_none(source.name());
    decoded(source)
}

fn decode_e8m0() -> Checked {
    let (ref16, refb16) = (reference::f16(), reference::bf16());
    let mut f = Failures::default();
    for from24 in [false, true] {
        for c in 0..256 {
            check_code::<F8E8M0>(
                c,
                reference::e8m0_decode(c),
                from24,
                &ref16,
                &refb16,
                &mut f,
            );
        }
    }
    f.assert_none("FLOAT8E8M0");
    decoded(DataType::Float8E8M0)
}

/// The pairs `check_code` checks for `source`.
fn decoded(source: DataType) -> Checked {
    let mut checked = Checked::default();
    for t in DECODE_TARGETS {
        checked.add(source, t);
    }
    checked
}

/// The decode sweep of one listed source type.
fn decode_source(source: DataType) -> Checked {
    use DataType::*;
    match source {
        Float8E4M3FN => decode_all::<F8E4M3FN>(reference::e4m3fn(), source),
        Float8E4M3FNUZ => decode_all::<F8E4M3FNUZ>(reference::e4m3fnuz(), source),
        Float8E5M2 => decode_all::<F8E5M2>(reference::e5m2(), source),
        Float8E5M2FNUZ => decode_all::<F8E5M2FNUZ>(reference::e5m2fnuz(), source),
        Float4E2M1 => decode_all::<F4E2M1>(reference::e2m1(), source),
        Float6E2M3 => decode_all::<F6E2M3>(reference::e2m3(), source),
        Float6E3M2 => decode_all::<F6E3M2>(reference::e3m2(), source),
        Float8E8M0 => decode_e8m0(),
        other => panic!("no decode sweep for listed source {other}"),
    }
}

/// Every code of every format in the shared list, decoded to f32, f64, f16 and bf16.
#[test]
fn decode_every_code_of_every_listed_format() {
    let mut checked = Checked::default();
    for &source in DECODE_EVERY_CODE.sources {
        checked.extend(decode_source(source));
    }
    checked.assert_is(&DECODE_EVERY_CODE);
}

#[test]
fn decode_every_subbyte_integer_code() {
    for c in 0u8..16 {
        let signed = if c >= 8 {
            i16::from(c) - 16
        } else {
            i16::from(c)
        };
        assert_eq!(
            i16::from(I4::from_bits(c).get()),
            signed,
            "INT4 code {c:#x}"
        );
        assert_eq!(U4::from_bits(c).to_bits(), c, "UINT4 code {c:#x}");
    }
    for c in 0u8..4 {
        let signed = if c >= 2 {
            i16::from(c) - 4
        } else {
            i16::from(c)
        };
        assert_eq!(
            i16::from(I2::from_bits(c).get()),
            signed,
            "INT2 code {c:#x}"
        );
        assert_eq!(U2::from_bits(c).to_bits(), c, "UINT2 code {c:#x}");
    }
}

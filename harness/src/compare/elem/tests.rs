//! Unit tests of the comparison's own small-float decoder and shortest decimals.

use super::*;

// Independent spot values from docs/semantics.md §3.1.
#[test]
fn decodes_format_extremes() {
    let check = |f: &MiniFloat, code: u32, want: f64| {
        let got = f.decode(code);
        assert!(
            got == want || (got.is_nan() && want.is_nan()),
            "{f:?} {code:#x}: {got} != {want}"
        );
    };
    check(&E4M3FN, 0x7E, 448.0);
    check(&E4M3FN, 0x01, 2f64.powi(-9));
    check(&E4M3FN, 0x7F, f64::NAN);
    check(&E4M3FN, 0xFF, f64::NAN);
    check(&E4M3FN, 0x80, -0.0);
    check(&E4M3FNUZ, 0x7F, 240.0);
    check(&E4M3FNUZ, 0x01, 2f64.powi(-10));
    check(&E4M3FNUZ, 0x80, f64::NAN);
    check(&E5M2, 0x7B, 57344.0);
    check(&E5M2, 0x01, 2f64.powi(-16));
    check(&E5M2, 0x7C, f64::INFINITY);
    check(&E5M2, 0xFC, f64::NEG_INFINITY);
    check(&E5M2, 0x7D, f64::NAN);
    check(&E5M2FNUZ, 0x7F, 57344.0);
    check(&E5M2FNUZ, 0x01, 2f64.powi(-17));
    check(&E5M2FNUZ, 0x80, f64::NAN);
    check(&FLOAT16, 0x7BFF, 65504.0);
    check(&FLOAT16, 0x0001, 2f64.powi(-24));
    check(&BFLOAT16, 0x0001, 2f64.powi(-133));
    let e2m1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
    for (code, &v) in e2m1.iter().enumerate() {
        check(&E2M1, code as u32, v);
        check(&E2M1, code as u32 | 8, -v);
    }
}

/// The float6 types against the OCP MX spec's value tables, written out binade by binade:
/// every code, both signs, no NaN and no infinity.
#[test]
fn decodes_every_float6_code() {
    let mut e2m3: Vec<f64> = (0..8).map(|k| f64::from(k) / 8.0).collect();
    e2m3.extend((0..8).map(|k| 1.0 + f64::from(k) / 8.0));
    e2m3.extend((0..8).map(|k| 2.0 + f64::from(k) / 4.0));
    e2m3.extend((0..8).map(|k| 4.0 + f64::from(k) / 2.0));
    let mut e3m2: Vec<f64> = (0..4).map(|k| f64::from(k) / 16.0).collect();
    for binade in [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0] {
        e3m2.extend((0..4).map(|k| binade * (1.0 + f64::from(k) / 4.0)));
    }
    for (layout, table) in [(&E2M3, &e2m3), (&E3M2, &e3m2)] {
        for (code, &v) in table.iter().enumerate() {
            assert_eq!(
                layout.decode(code as u32).to_bits(),
                v.to_bits(),
                "{layout:?} {code:#x}"
            );
            assert_eq!(layout.decode(code as u32 | 0x20).to_bits(), (-v).to_bits());
        }
    }
    assert_eq!((e2m3[31], e3m2[31]), (7.5, 28.0));
}

#[test]
fn small_floats_print_their_own_shortest_decimal() {
    assert_eq!(FLOAT16.shortest(0x30cf), "0.1503");
    assert_eq!(FLOAT16.shortest(0x3c00), "1.0");
    assert_eq!(FLOAT16.shortest(0xfbff), "-65500.0");
    assert_eq!(FLOAT16.shortest(0x0001), "6e-8");
    assert_eq!(FLOAT16.shortest(0x8000), "-0.0");
    assert_eq!(FLOAT16.shortest(0x7c00), "inf");
    assert_eq!(BFLOAT16.shortest(0x3e1a), "0.15");
    assert_eq!(E4M3FN.shortest(0x7e), "450.0");
    assert_eq!(F8E4M3FN::from_bits(0x7e).decimal(), "448.0");
    assert_eq!(f16::from_bits(0x30cf).decimal(), "0.1503");
    assert_eq!(bf16::from_bits(0x3e1a).decimal(), "0.15");
}

// The shortest spelling reads back as the same code, for every 16-bit code: f16 through
// the half crate's parser, bf16 through f32 (bf16 is the top half of an f32).
#[test]
fn shortest_decimals_round_trip() {
    for code in 0..=u16::MAX {
        let text = FLOAT16.shortest(u32::from(code));
        let back: f16 = text.parse().expect("f16 parses");
        let same =
            back.to_bits() == code || (back.is_nan() && FLOAT16.decode(code.into()).is_nan());
        assert!(same, "f16 {code:#06x}: {text}");
        let text = BFLOAT16.shortest(u32::from(code));
        let back: bf16 = text.parse().expect("bf16 parses");
        let same =
            back.to_bits() == code || (back.is_nan() && BFLOAT16.decode(code.into()).is_nan());
        assert!(same, "bf16 {code:#06x}: {text}");
    }
}

// Every f16 and bf16 code against the widening of a different implementation.
#[test]
fn decodes_every_16_bit_code_like_half() {
    for code in 0..=u16::MAX {
        let ours = FLOAT16.decode(u32::from(code));
        let theirs = f16::from_bits(code).to_f64();
        assert!(ours.to_bits() == theirs.to_bits() || (ours.is_nan() && theirs.is_nan()));
        let ours = BFLOAT16.decode(u32::from(code));
        let theirs = f64::from(f32::from_bits(u32::from(code) << 16));
        assert!(ours.to_bits() == theirs.to_bits() || (ours.is_nan() && theirs.is_nan()));
    }
}

//! The E8M0, FLOAT4E2M1 and 4-/2-bit integer vectors of the spec note (§3.2, §3.7, §3.8).

use super::{check, hex, rules, CastRules, FloatFormat, RoundMode};
use super::{f16, F4E2M1, F8E8M0};
use crate::formats::{I2, I4, U2, U4};

#[test]
fn e8m0_vectors() {
    let codes = hex("00 7C 7D 7E 80 80 81 82");
    let r = CastRules {
        saturate: true,
        round_mode: RoundMode::Up,
        generation: super::Generation::From24,
    };
    check::<f32, F8E8M0>(
        "FLOAT -> E8M0",
        &r,
        &[0.0, 0.124, 0.25, 0.5, 1.1, 2.0, 4.0, 8.0],
        &codes,
    );
    let h = hex("0000 2FF0 3400 3800 3C66 4000 4400 4800")
        .into_iter()
        .map(|b| f16::from_bits(b as u16))
        .collect::<Vec<_>>();
    check::<f16, F8E8M0>("FLOAT16 -> E8M0", &r, &h, &codes);
    // §3.7 rules: the sign is ignored, -0 is 0x00, NaN and Inf give 0xFF, a subnormal rounds up to 0x01.
    for saturate in [false, true] {
        let r = CastRules { saturate, ..r };
        check::<f32, F8E8M0>(
            "E8M0 specials",
            &r,
            &[
                -2.0,
                -0.0,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::from_bits(1),
            ],
            &hex("80 00 FF FF FF 01"),
        );
    }
    let dec = |c: u8| F8E8M0::from_bits(c);
    check::<F8E8M0, f32>(
        "E8M0 -> FLOAT",
        &r,
        &[dec(0x00), dec(0x7C), dec(0xFF)],
        &[0x0040_0000, 0x3E00_0000, 0x7FC0_0000],
    );
    check::<F8E8M0, f16>(
        "E8M0 -> FLOAT16",
        &r,
        &[
            dec(0x00),
            dec(102),
            dec(103),
            dec(142),
            dec(143),
            dec(0x7C),
            dec(0xFF),
        ],
        &[0x0000, 0x0000, 0x0001, 0x7800, 0x7C00, 0x3000, 0x7E00],
    );
}

#[test]
fn float4_vectors() {
    let (inf, nan) = (f32::INFINITY, f32::NAN);
    let input = [
        0.48, 0.25, 1.05, -3.5, -8.0, 9.0, 1e6, 1e-7, nan, inf, inf, -inf, -4.0, 0.01, -0.0,
    ];
    for (from24, nan_code) in [(false, "7"), (true, "8")] {
        for saturate in [false, true] {
            let row = format!("1 0 2 E F 7 7 0 {nan_code} 7 7 F E 0 8");
            check::<f32, F4E2M1>(
                "FLOAT -> FLOAT4E2M1",
                &rules(saturate, from24),
                &input,
                &hex(&row),
            );
        }
        let back: Vec<F4E2M1> = hex("1 0 2 E F 7 7 0 7 7 7 F E 0 8")
            .into_iter()
            .map(|c| F4E2M1::from_bits(c as u8))
            .collect();
        let want = [
            0.5f32, 0.0, 1.0, -4.0, -6.0, 6.0, 6.0, 0.0, 6.0, 6.0, 6.0, -6.0, -4.0, 0.0, -0.0,
        ]
        .map(|v| u64::from(v.to_bits()));
        check::<F4E2M1, f32>("FLOAT4E2M1 -> FLOAT", &rules(true, from24), &back, &want);
    }
    // -NaN from Cast-24 on gives +0 (the sign flips, as for +NaN -> 0x8).
    check::<f32, F4E2M1>("FLOAT4E2M1 -NaN", &rules(true, true), &[-nan], &[0x0]);
}

/// The low nibbles of packed bytes, low nibble first.
fn nibbles(bytes: &str) -> Vec<u8> {
    hex(bytes)
        .into_iter()
        .flat_map(|b| [(b & 0xF) as u8, (b >> 4) as u8])
        .collect()
}

#[test]
fn int4_and_int2_vectors() {
    let inputs: Vec<f32> = (-9..=15).map(|v| v as f32).collect();
    // Cast-21 INT4 output of 1.17.0 (§4.1), and the Cast-24+ INT4 bytes of §3.8; last nibble is padding.
    let before = nibbles("88 a9 cb ed 0f 21 43 65 77 77 77 77 07");
    let after = nibbles("87 a9 cb ed 0f 21 43 65 87 a9 cb ed 0f");
    for (from24, want) in [(false, before), (true, after)] {
        let r = rules(true, from24);
        let got: Vec<u8> = inputs
            .iter()
            .map(|&x| I4::from_exact(&x.to_exact(&r), &r).to_bits())
            .collect();
        assert_eq!(got, want[..25], "FLOAT -> INT4 gen24={from24}");
    }
    // §3.2 evidence: (input, INT4 <= 23, INT4 >= 24, UINT4 <= 23, UINT4 >= 24), as values.
    let rows: [(f32, i8, i8, u8, u8); 5] = [
        (-9.0, -8, 7, 0, 7),
        (8.0, 7, -8, 8, 8),
        (15.0, 7, -1, 15, 15),
        (-1.0, -1, -1, 0, 15),
        (2.5, 2, 2, 2, 2),
    ];
    for (x, i_before, i_after, u_before, u_after) in rows {
        for (from24, i, u) in [(false, i_before, u_before), (true, i_after, u_after)] {
            let r = rules(true, from24);
            let e = x.to_exact(&r);
            assert_eq!(
                (
                    I4::from_exact(&e, &r).get(),
                    U4::from_exact(&e, &r).to_bits()
                ),
                (i, u),
                "{x} gen24={from24}"
            );
        }
    }
    let r = rules(true, true);
    let two: Vec<(i8, u8)> = (-3..=3)
        .map(|v| (v as f32).to_exact(&r))
        .map(|e| {
            (
                I2::from_exact(&e, &r).get(),
                U2::from_exact(&e, &r).to_bits(),
            )
        })
        .collect();
    assert_eq!(
        two,
        [(1, 1), (-2, 2), (-1, 3), (0, 0), (1, 1), (-2, 2), (-1, 3)],
        "INT2/UINT2 from -3..=3"
    );
}

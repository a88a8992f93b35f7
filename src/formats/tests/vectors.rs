//! The concrete vectors of the spec note (§3.2, §3.5-§3.8), as `check(input, expected)` data.

use super::{bf16, f16, F4E2M1, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0};
use super::{rules, Bits, CastRules, FloatFormat, RoundMode};
use crate::formats::{cast_float, I2, I4, U2, U4};

/// Casts every input of `S` to `T` and compares the codes with `expected`.
fn check<S: Bits, T: Bits>(what: &str, r: &CastRules, inputs: &[S], expected: &[u64]) {
    assert_eq!(inputs.len(), expected.len(), "{what}: table lengths");
    let got: Vec<u64> = inputs
        .iter()
        .map(|&x| cast_float::<S, T>(x, r).bits())
        .collect();
    let diff: Vec<String> = got
        .iter()
        .zip(expected)
        .enumerate()
        .filter(|(_, (g, e))| g != e)
        .map(|(i, (g, e))| format!("[{i}] got {g:#x} want {e:#x}"))
        .collect();
    assert!(
        diff.is_empty(),
        "{what} {r:?}: {} differ: {}",
        diff.len(),
        diff.join(", ")
    );
}

/// Parses a row of hex codes such as `"2f 2f 30"`.
fn hex(row: &str) -> Vec<u64> {
    row.split_whitespace()
        .map(|h| u64::from_str_radix(h, 16).expect("test table holds hex"))
        .collect()
}

/// The float32 input row of §3.5.
fn f8_row_f32() -> Vec<f32> {
    let (inf, nan) = (f32::INFINITY, f32::NAN);
    vec![
        0.478_925_47,
        0.480_336_67,
        0.499_684_87,
        0.819_105_45,
        0.470_312_48,
        0.722_903_8,
        1e6,
        1e-7,
        nan,
        inf,
        inf,
        -inf,
        -1e-7,
        1e-7,
        -1e6,
    ]
}

/// The same row in FLOAT16 bits (§3.5).
fn f8_row_f16() -> Vec<f16> {
    hex("37AA 37AF 37FF 3A8E 3786 39C9 7C00 0002 7E00 7C00 7C00 FC00 8002 0002 FC00")
        .into_iter()
        .map(|b| f16::from_bits(b as u16))
        .collect()
}

/// §3.5 for one float8 type: saturating row, non-saturating tail (after the first six
/// codes), in both generations; `nan` replaces the E5M2 NaN code per generation.
fn float8_rows<T: Bits>(name: &str, sat: &str, nosat_tail: &str, e5m2_nan: Option<(u64, u64)>) {
    for from24 in [false, true] {
        for (saturate, row) in [
            (true, hex(sat)),
            (false, [hex(sat)[..6].to_vec(), hex(nosat_tail)].concat()),
        ] {
            let mut row = row;
            if let Some((before, after)) = e5m2_nan {
                row[8] = if from24 { after } else { before };
            }
            let r = rules(saturate, from24);
            check::<f32, T>(&format!("FLOAT -> {name}"), &r, &f8_row_f32(), &row);
            check::<f16, T>(&format!("FLOAT16 -> {name}"), &r, &f8_row_f16(), &row);
        }
    }
}

#[test]
fn float8_vectors() {
    float8_rows::<F8E4M3FN>(
        "FLOAT8E4M3FN",
        "2f 2f 30 35 2f 34 7e 00 7f 7e 7e fe 80 00 fe",
        "7f 00 7f 7f 7f ff 80 00 ff",
        None,
    );
    float8_rows::<F8E4M3FNUZ>(
        "FLOAT8E4M3FNUZ",
        "37 37 38 3d 37 3c 7f 00 80 7f 7f ff 00 00 ff",
        "80 00 80 80 80 80 00 00 80",
        None,
    );
    float8_rows::<F8E5M2>(
        "FLOAT8E5M2",
        "38 38 38 3b 38 3a 7b 00 7e 7b 7b fb 80 00 fb",
        "7c 00 7e 7c 7c fc 80 00 fc",
        Some((0x7f, 0x7e)),
    );
    float8_rows::<F8E5M2FNUZ>(
        "FLOAT8E5M2FNUZ",
        "3c 3c 3c 3f 3c 3e 7f 00 80 7f 7f ff 00 00 ff",
        "80 00 80 80 80 80 00 00 80",
        None,
    );
}

#[test]
fn float8_decoding_vectors() {
    for from24 in [false, true] {
        let r = rules(true, from24);
        check::<F8E4M3FN, f32>(
            "E4M3FN",
            &r,
            &[
                F8E4M3FN::from_bits(0x7E),
                F8E4M3FN::from_bits(0x80),
                F8E4M3FN::from_bits(0x7F),
            ],
            &[0x43E0_0000, 0x8000_0000, 0x7FC0_0000],
        );
        check::<F8E4M3FN, f16>(
            "E4M3FN",
            &r,
            &[
                F8E4M3FN::from_bits(0x7E),
                F8E4M3FN::from_bits(0x80),
                F8E4M3FN::from_bits(0x7F),
            ],
            &[0x5F00, 0x8000, 0x7E00],
        );
        check::<F8E4M3FNUZ, f32>(
            "E4M3FNUZ",
            &r,
            &[F8E4M3FNUZ::from_bits(0x7F)],
            &[0x4370_0000],
        );
        check::<F8E4M3FNUZ, f16>("E4M3FNUZ", &r, &[F8E4M3FNUZ::from_bits(0x7F)], &[0x5B80]);
        check::<F8E5M2, f32>(
            "E5M2",
            &r,
            &[
                F8E5M2::from_bits(0x7B),
                F8E5M2::from_bits(0x7E),
                F8E5M2::from_bits(0x7F),
            ],
            &[0x4760_0000, 0x7FC0_0000, 0x7FC0_0000],
        );
        check::<F8E5M2, f16>(
            "E5M2",
            &r,
            &[
                F8E5M2::from_bits(0x7B),
                F8E5M2::from_bits(0x7E),
                F8E5M2::from_bits(0x7F),
            ],
            &[0x7B00, 0x7E00, 0x7E00],
        );
        check::<F8E5M2FNUZ, f32>(
            "E5M2FNUZ",
            &r,
            &[F8E5M2FNUZ::from_bits(0xFF)],
            &[0xC760_0000],
        );
        check::<F8E5M2FNUZ, f16>("E5M2FNUZ", &r, &[F8E5M2FNUZ::from_bits(0xFF)], &[0xFB00]);
        // §3.2: the FNUZ NaN decodes to +qNaN up to Cast-23 and to -qNaN from Cast-24.
        let (n32, n16) = if from24 {
            (0xFFC0_0000, 0xFE00)
        } else {
            (0x7FC0_0000, 0x7E00)
        };
        check::<F8E4M3FNUZ, f32>("E4M3FNUZ NaN", &r, &[F8E4M3FNUZ::from_bits(0x80)], &[n32]);
        check::<F8E5M2FNUZ, f32>("E5M2FNUZ NaN", &r, &[F8E5M2FNUZ::from_bits(0x80)], &[n32]);
        check::<F8E4M3FNUZ, f16>("E4M3FNUZ NaN", &r, &[F8E4M3FNUZ::from_bits(0x80)], &[n16]);
        check::<F8E5M2FNUZ, f16>("E5M2FNUZ NaN", &r, &[F8E5M2FNUZ::from_bits(0x80)], &[n16]);
    }
}

#[test]
fn bfloat16_vectors() {
    let input: Vec<f32> = [
        0x3EF5_35B8u32,
        0x3EF5_EEB0,
        0x3EFF_D6B2,
        0x3F51_B0E5,
        0x3EF0_CCCC,
        0x3F51_040C,
        0x3E57_EED1,
        0x3F39_1039,
        0x7FC0_0000,
        0x7F80_0000,
        0x7F80_0000,
        0xFF80_0000,
    ]
    .into_iter()
    .map(f32::from_bits)
    .collect();
    check::<f32, bf16>(
        "FLOAT -> BFLOAT16 (<= 23)",
        &rules(true, false),
        &input,
        &hex("3EF5 3EF5 3EFF 3F51 3EF0 3F51 3E57 3F39 7FC0 7F80 7F80 FF80"),
    );
    check::<f32, bf16>(
        "FLOAT -> BFLOAT16 (>= 24)",
        &rules(true, true),
        &input,
        &hex("3EF5 3EF6 3F00 3F52 3EF1 3F51 3E58 3F39 7FC0 7F80 7F80 FF80"),
    );
    for from24 in [false, true] {
        let r = rules(true, from24);
        let back: Vec<bf16> = hex("3EF5 7FC0 FFC0 FF80")
            .into_iter()
            .map(|b| bf16::from_bits(b as u16))
            .collect();
        check::<bf16, f32>(
            "BFLOAT16 -> FLOAT",
            &r,
            &back,
            &[0x3EF5_0000, 0x7FC0_0000, 0xFFC0_0000, 0xFF80_0000],
        );
        let x = [
            f32::from_bits(0x3F51_040C),
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(0xFFC0_0001),
        ];
        check::<f32, f16>(
            "FLOAT -> FLOAT16",
            &r,
            &x,
            &[0x3A88, 0x7E00, 0x7C00, 0xFC00, 0xFE00],
        );
        check::<f64, f32>(
            "DOUBLE -> FLOAT NaN sign",
            &r,
            &[
                f64::from_bits(0xFFF8_0000_0000_0000),
                f64::from_bits(0x7FF0_0000_0000_0001),
            ],
            &[0xFFC0_0000, 0x7FC0_0000],
        );
        check::<f32, bf16>(
            "FLOAT -> BFLOAT16 NaN sign",
            &r,
            &[f32::from_bits(0xFF80_0001)],
            &[0xFFC0],
        );
    }
}

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

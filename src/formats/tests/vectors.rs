//! The float8 and 16-bit vectors of the spec note (§3.5, §3.6), as `check(input, expected)` data.

use super::{bf16, f16, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ};
use super::{check, hex, rules, Bits};

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
    // Cast <= 23 from a non-f32 source: round to f32 first, then keep the top 16 bits. Just
    // below 0x3EF60000 by a quarter f32 ulp rounds up to it in f32, so truncation gives 3EF6;
    // 0x3EF5FFFF plus a quarter ulp stays at 0x3EF5FFFF and truncates to 3EF5.
    let ulp = f64::from(f32::from_bits(0x3EF6_0000)) - f64::from(f32::from_bits(0x3EF5_FFFF));
    let near = [
        f64::from(f32::from_bits(0x3EF6_0000)) - ulp / 4.0,
        f64::from(f32::from_bits(0x3EF5_FFFF)) + ulp / 4.0,
    ];
    check::<f64, bf16>(
        "DOUBLE -> BFLOAT16 (<= 23)",
        &rules(true, false),
        &near,
        &[0x3EF6, 0x3EF5],
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

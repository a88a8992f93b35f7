//! Cast to and from the small formats (float8, E8M0, float4, int4, int2) and BFLOAT16,
//! against the spec's vectors (§3.2–§3.8), on both sides of the version-24 switch.

use super::{cast, code_tensor, codes, hex, int, map, row, run_op, tensor, text};
use crate::dtype::DataType;
use crate::formats::{F8E8M0, I2, I4, U2, U4};
use crate::ops::OpKind;
use half::{bf16, f16};

/// §3.5 input row.
const F8_ROW: [f32; 15] = [
    0.478_925_47,
    0.480_336_67,
    0.499_684_87,
    0.819_105_45,
    0.470_312_48,
    0.722_903_8,
    1e6,
    1e-7,
    f32::NAN,
    f32::INFINITY,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -1e-7,
    1e-7,
    -1e6,
];
/// §3.5 FLOAT16 input row.
const F8_ROW_F16: [u16; 15] = [
    0x37AA, 0x37AF, 0x37FF, 0x3A8E, 0x3786, 0x39C9, 0x7C00, 0x0002, 0x7E00, 0x7C00, 0x7C00, 0xFC00,
    0x8002, 0x0002, 0xFC00,
];

/// (target, saturate=1 codes, saturate=0 codes) at version 24+.
fn float8_table() -> [(DataType, Vec<u8>, Vec<u8>); 4] {
    let head = "2f 2f 30 35 2f 34";
    let head_uz = "37 37 38 3d 37 3c";
    let head52 = "38 38 38 3b 38 3a";
    let head52uz = "3c 3c 3c 3f 3c 3e";
    [
        (
            DataType::Float8E4M3FN,
            hex(&format!("{head} 7e 00 7f 7e 7e fe 80 00 fe")),
            hex(&format!("{head} 7f 00 7f 7f 7f ff 80 00 ff")),
        ),
        (
            DataType::Float8E4M3FNUZ,
            hex(&format!("{head_uz} 7f 00 80 7f 7f ff 00 00 ff")),
            hex(&format!("{head_uz} 80 00 80 80 80 80 00 00 80")),
        ),
        (
            DataType::Float8E5M2,
            hex(&format!("{head52} 7b 00 7e 7b 7b fb 80 00 fb")),
            hex(&format!("{head52} 7c 00 7e 7c 7c fc 80 00 fc")),
        ),
        (
            DataType::Float8E5M2FNUZ,
            hex(&format!("{head52uz} 7f 00 80 7f 7f ff 00 00 ff")),
            hex(&format!("{head52uz} 80 00 80 80 80 80 00 00 80")),
        ),
    ]
}

#[test]
fn float8_encoding_matches_spec_3_5_at_every_version() {
    let f32_in = row(&F8_ROW);
    let f16_in = tensor(&[15], F8_ROW_F16.map(f16::from_bits).to_vec());
    for since in [19, 21, 23, 24, 25] {
        for (to, sat, nosat) in float8_table() {
            for (input, kind) in [(&f32_in, "f32"), (&f16_in, "f16")] {
                for (flag, want) in [(1, &sat), (0, &nosat)] {
                    let mut want = want.clone();
                    // The E5M2 NaN code is 0x7F up to version 23 (§3.2).
                    if to == DataType::Float8E5M2 && since <= 23 {
                        want[8] = 0x7F;
                    }
                    let out = cast(since, to, &[int("saturate", flag)], input);
                    assert_eq!(codes(&out), want, "Cast-{since} {kind} -> {to} sat={flag}");
                }
            }
        }
    }
}

#[test]
fn float8_decoding_matches_spec_3_5() {
    let cases: [(DataType, u8, u32, u16); 5] = [
        (DataType::Float8E4M3FN, 0x7E, 0x43E0_0000, 0x5F00),
        (DataType::Float8E4M3FN, 0x80, 0x8000_0000, 0x8000),
        (DataType::Float8E4M3FNUZ, 0x7F, 0x4370_0000, 0x5B80),
        (DataType::Float8E5M2, 0x7B, 0x4760_0000, 0x7B00),
        (DataType::Float8E5M2FNUZ, 0xFF, 0xC760_0000, 0xFB00),
    ];
    for (from, code, want32, want16) in cases {
        let input = code_tensor(from, &[code]);
        let out = cast(19, DataType::Float, &[], &input);
        assert_eq!(map(&out, f32::to_bits), vec![want32], "{from} {code:#x}");
        let out = cast(25, DataType::Float16, &[], &input);
        assert_eq!(map(&out, f16::to_bits), vec![want16], "{from} {code:#x}");
    }
}

#[test]
fn nan_codes_decode_per_version_3_4() {
    for (from, code) in [
        (DataType::Float8E4M3FN, 0x7F),
        (DataType::Float8E5M2, 0x7E),
        (DataType::Float8E5M2, 0x7F),
        (DataType::Float8E8M0, 0xFF),
    ] {
        let input = code_tensor(from, &[code]);
        let since = if from == DataType::Float8E8M0 { 24 } else { 19 };
        let out = cast(since, DataType::Float, &[], &input);
        assert_eq!(map(&out, f32::to_bits), vec![0x7FC0_0000], "{from}");
        let out = cast(25, DataType::Float16, &[], &input);
        assert_eq!(map(&out, f16::to_bits), vec![0x7E00], "{from}");
    }
    for from in [DataType::Float8E4M3FNUZ, DataType::Float8E5M2FNUZ] {
        let input = code_tensor(from, &[0x80]);
        for (since, want32, want16) in [(23, 0x7FC0_0000, 0x7E00), (24, 0xFFC0_0000, 0xFE00)] {
            let out = cast(since, DataType::Float, &[], &input);
            assert_eq!(map(&out, f32::to_bits), vec![want32], "{from} Cast-{since}");
            let out = cast(since, DataType::Float16, &[], &input);
            assert_eq!(map(&out, f16::to_bits), vec![want16], "{from} Cast-{since}");
        }
    }
}

#[test]
fn bfloat16_truncates_before_24_and_rounds_from_24() {
    let bits = [
        0x3EF5_EEB0,
        0x3EFF_D6B2,
        0x3F51_B0E5,
        0x7FC0_0000,
        0x7F80_0000,
        0xFF80_0000,
    ];
    let input = tensor(&[6], bits.map(f32::from_bits).to_vec());
    for since in [13, 19, 21, 23] {
        let out = cast(since, DataType::Bfloat16, &[], &input);
        let want = vec![0x3EF5, 0x3EFF, 0x3F51, 0x7FC0, 0x7F80, 0xFF80];
        assert_eq!(map(&out, bf16::to_bits), want, "Cast-{since}");
    }
    for since in [24, 25] {
        let out = cast(since, DataType::Bfloat16, &[], &input);
        let want = vec![0x3EF6, 0x3F00, 0x3F52, 0x7FC0, 0x7F80, 0xFF80];
        assert_eq!(map(&out, bf16::to_bits), want, "Cast-{since}");
    }
    let back = cast(
        13,
        DataType::Float,
        &[],
        &tensor(&[1], vec![bf16::from_bits(0x3EF5)]),
    );
    assert_eq!(map(&back, f32::to_bits), vec![0x3EF5_0000]);
}

#[test]
fn e8m0_up_saturate_matches_spec_3_7() {
    let values = [0.0f32, 0.124, 0.25, 0.5, 1.1, 2.0, 4.0, 8.0];
    let want = hex("00 7c 7d 7e 80 80 81 82");
    let attrs = [int("saturate", 1), text("round_mode", "up")];
    for since in [24, 25] {
        let out = cast(since, DataType::Float8E8M0, &attrs, &row(&values));
        assert_eq!(codes(&out), want, "Cast-{since} f32");
        let mut f16s: Vec<f16> = values.iter().map(|&v| f16::from_f32(v)).collect();
        f16s[1] = f16::from_bits(0x2FF0);
        let out = cast(since, DataType::Float8E8M0, &attrs, &tensor(&[8], f16s));
        assert_eq!(codes(&out), want, "Cast-{since} f16");
    }
}

#[test]
fn e8m0_round_modes_and_saturation_follow_the_reference_rules() {
    // §3.7 steps: up adds one when any fraction bit is set; down never; nearest from 1.5·2^e.
    let values = [1.1f32, 1.5, 1.25, 3.0, -2.0, f32::INFINITY, f32::NAN, 0.0];
    let cases = [
        ("up", "80 80 80 81 80 ff ff 00"),
        ("down", "7f 7f 7f 80 80 ff ff 00"),
        ("nearest", "7f 80 7f 81 80 ff ff 00"),
    ];
    for (mode, want) in cases {
        let out = cast(
            25,
            DataType::Float8E8M0,
            &[text("round_mode", mode)],
            &row(&values),
        );
        assert_eq!(codes(&out), hex(want), "{mode}");
    }
    // Largest finite f32 rounds up past 2^127: held at 0xFE when saturating, NaN otherwise.
    let top = row(&[f32::MAX]);
    let sat = cast(24, DataType::Float8E8M0, &[], &top);
    assert_eq!(codes(&sat), vec![0xFE]);
    let nosat = cast(24, DataType::Float8E8M0, &[int("saturate", 0)], &top);
    assert_eq!(codes(&nosat), vec![0xFF]);
    // Decoding: 0x00 is 2^-127 (an f32 subnormal, 0 in f16); 0x7C is 0.125.
    let input = code_tensor(DataType::Float8E8M0, &[0x00, 0x7C]);
    let out = cast(24, DataType::Float, &[], &input);
    assert_eq!(map(&out, f32::to_bits), vec![0x0040_0000, 0x3E00_0000]);
    let out = cast(24, DataType::Float16, &[], &input);
    assert_eq!(map(&out, f16::to_bits), vec![0x0000, 0x3000]);
}

#[test]
fn castlike_ignores_round_mode() {
    let input = row(&[1.1]);
    let like = tensor(&[0], Vec::<F8E8M0>::new());
    let attrs = [text("round_mode", "down")];
    let out = run_op(OpKind::CastLike, 24, &attrs, &[&input, &like]).expect("ok");
    assert_eq!(
        codes(&out),
        vec![0x80],
        "rounded up despite round_mode=down"
    );
}

#[test]
fn int4_clamps_before_24_and_wraps_from_24() {
    let values: Vec<f32> = (-9..=15).map(|i| i as f32).collect();
    let input = tensor(&[5, 5], values.clone());
    for since in [21, 23, 24, 25] {
        let signed = map(&cast(since, DataType::Int4, &[], &input), I4::get);
        let unsigned = map(&cast(since, DataType::Uint4, &[], &input), U4::to_bits);
        for (k, &v) in values.iter().enumerate() {
            let i = v as i32;
            let (ws, wu) = if since <= 23 {
                (i.clamp(-8, 7), i.clamp(0, 15))
            } else {
                ((i + 8).rem_euclid(16) - 8, i.rem_euclid(16))
            };
            assert_eq!(i32::from(signed[k]), ws, "Cast-{since} {v} -> INT4");
            assert_eq!(i32::from(unsigned[k]), wu, "Cast-{since} {v} -> UINT4");
        }
    }
}

#[test]
fn int2_wraps_3_2() {
    let input = tensor(&[7, 1], (-3..=3).map(|i| i as f32).collect());
    let out = cast(25, DataType::Int2, &[], &input);
    assert_eq!(map(&out, I2::get), vec![1, -2, -1, 0, 1, -2, -1]);
    let out = cast(25, DataType::Uint2, &[], &input);
    assert_eq!(map(&out, U2::to_bits), vec![1, 2, 3, 0, 1, 2, 3]);
}

#[test]
fn int4_to_int8_sign_extends_3_8() {
    let packed = hex("87 a9 cb ed 0f 21 43 65 87 a9 cb ed 0f");
    let nibbles: Vec<u8> = packed.iter().flat_map(|&b| [b & 0x0F, b >> 4]).collect();
    let input = tensor(
        &[nibbles.len()],
        nibbles.iter().map(|&n| I4::from_bits(n)).collect(),
    );
    let out = cast(25, DataType::Int8, &[], &input);
    let want: Vec<i8> = nibbles.iter().map(|&n| ((n << 4) as i8) >> 4).collect();
    assert_eq!(out.as_slice::<i8>(), Some(want.as_slice()));
    assert_eq!(&map(&out, |x: i8| x as u8)[..4], &[0x07, 0xF8, 0xF9, 0xFA]);
    let input = tensor(&[2], vec![U4::from_bits(15), U4::from_bits(8)]);
    assert_eq!(
        map(&cast(21, DataType::Uint8, &[], &input), |x: u8| x),
        vec![15, 8]
    );
}

#[test]
fn float4_matches_spec_3_8() {
    let values = [
        0.48,
        0.25,
        1.05,
        -3.5,
        -8.0,
        9.0,
        1e6,
        1e-7,
        f32::NAN,
        f32::INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -4.0,
        0.01,
        -0.0,
    ];
    let want = hex("1 0 2 e f 7 7 0 8 7 7 f e 0 8");
    for since in [23, 24, 25] {
        let out = cast(since, DataType::Float4E2M1, &[], &row(&values));
        let mut want = want.clone();
        if since == 23 {
            want[8] = 0x7;
        }
        assert_eq!(codes(&out), want, "Cast-{since}");
    }
    let input = code_tensor(DataType::Float4E2M1, &hex("1 0 2 e f 7 8"));
    let out = cast(24, DataType::Float, &[], &input);
    assert_eq!(
        map(&out, f32::to_bits),
        [0.5f32, 0.0, 1.0, -4.0, -6.0, 6.0, -0.0]
            .map(f32::to_bits)
            .to_vec()
    );
}

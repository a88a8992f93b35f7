//! Cast to and from the small formats (float8, E8M0, float4, int4, int2) and BFLOAT16,
//! against the vectors of docs/semantics.md (§3.2–§3.8), on both sides of the version-24 switch.

use super::{cast, code_tensor, codes, map, row, run_op, tensor};
use crate::dtype::DataType;
use crate::formats::{F8E8M0, I2, I4, U2, U4};
use crate::ops::OpKind;
use crate::testkit::spec_vectors::{
    float4_decoded, float4_expected, float8_expected, fnuz_nan_decoded, hex, int2_inputs,
    int4_inputs, nibbles, BF16_INPUT, BF16_ROUNDED, BF16_TRUNCATED, E8M0_CODES, E8M0_COLUMNS,
    E8M0_DECIMALS, E8M0_DECODE, E8M0_INPUT, E8M0_INPUT_F16, E8M0_INTEGERS, E8M0_SPECIALS,
    E8M0_SPECIALS_F64, F4_ROW, F8_DECODE, F8_ROW, F8_ROW_F16, FLOAT8_CODES, FNUZ_NAN,
    INT2_EXPECTED, INT4_BYTES_FROM_24, NAN_DECODE, QNAN_F16, QNAN_F32, UINT2_EXPECTED,
};
use crate::testkit::{int, text};
use half::{bf16, f16};

#[test]
fn float8_encoding_matches_spec_3_5_at_every_version() {
    let f32_in = row(&F8_ROW);
    let f16_in = tensor(&[15], F8_ROW_F16.map(f16::from_bits).to_vec());
    for since in [19, 21, 23, 24, 25] {
        for codes_row in &FLOAT8_CODES {
            let to = codes_row.dtype;
            for (input, kind) in [(&f32_in, "f32"), (&f16_in, "f16")] {
                for flag in [1, 0] {
                    let want = float8_expected(codes_row, flag == 1, since >= 24);
                    let out = cast(since, to, &[int("saturate", flag)], input);
                    assert_eq!(codes(&out), want, "Cast-{since} {kind} -> {to} sat={flag}");
                }
            }
        }
    }
}

#[test]
fn float8_decoding_matches_spec_3_5() {
    for (from, code, want32, want16) in F8_DECODE {
        let input = code_tensor(from, &[code]);
        let out = cast(19, DataType::Float, &[], &input);
        assert_eq!(map(&out, f32::to_bits), vec![want32], "{from} {code:#x}");
        let out = cast(25, DataType::Float16, &[], &input);
        assert_eq!(map(&out, f16::to_bits), vec![want16], "{from} {code:#x}");
    }
}

#[test]
fn nan_codes_decode_per_version_3_4() {
    for (from, code) in NAN_DECODE {
        let input = code_tensor(from, &[code]);
        let since = if from == DataType::Float8E8M0 { 24 } else { 19 };
        let out = cast(since, DataType::Float, &[], &input);
        assert_eq!(map(&out, f32::to_bits), vec![QNAN_F32], "{from}");
        let out = cast(25, DataType::Float16, &[], &input);
        assert_eq!(map(&out, f16::to_bits), vec![QNAN_F16], "{from}");
    }
    for from in [DataType::Float8E4M3FNUZ, DataType::Float8E5M2FNUZ] {
        let input = code_tensor(from, &[FNUZ_NAN]);
        for since in [23, 24] {
            let (want32, want16) = fnuz_nan_decoded(since >= 24);
            let out = cast(since, DataType::Float, &[], &input);
            assert_eq!(map(&out, f32::to_bits), vec![want32], "{from} Cast-{since}");
            let out = cast(since, DataType::Float16, &[], &input);
            assert_eq!(map(&out, f16::to_bits), vec![want16], "{from} Cast-{since}");
        }
    }
}

#[test]
fn bfloat16_truncates_before_24_and_rounds_from_24() {
    // The docs/semantics.md §3.2 evidence entries of the §3.6 row (where the two rules differ), and NaN, ±Inf.
    let pick = [1, 2, 3, 8, 9, 11];
    let input = tensor(&[6], pick.map(|i| f32::from_bits(BF16_INPUT[i])).to_vec());
    let (truncated, rounded) = (hex::<u16>(BF16_TRUNCATED), hex::<u16>(BF16_ROUNDED));
    for since in [13, 19, 21, 23] {
        let out = cast(since, DataType::Bfloat16, &[], &input);
        let want = pick.map(|i| truncated[i]).to_vec();
        assert_eq!(map(&out, bf16::to_bits), want, "Cast-{since}");
    }
    for since in [24, 25] {
        let out = cast(since, DataType::Bfloat16, &[], &input);
        let want = pick.map(|i| rounded[i]).to_vec();
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
    let want: Vec<u8> = hex(E8M0_CODES);
    let attrs = [int("saturate", 1), text("round_mode", "up")];
    for since in [24, 25] {
        let out = cast(since, DataType::Float8E8M0, &attrs, &row(&E8M0_INPUT));
        assert_eq!(codes(&out), want, "Cast-{since} f32");
        let f16s = E8M0_INPUT_F16.map(f16::from_bits).to_vec();
        let out = cast(since, DataType::Float8E8M0, &attrs, &tensor(&[8], f16s));
        assert_eq!(codes(&out), want, "Cast-{since} f16");
    }
}

#[test]
fn e8m0_round_modes_and_saturation_follow_the_page() {
    // docs/semantics.md §3.7: up takes the next power of two unless x is one; down never; nearest
    // from 1.5·2^e on. Under saturation (the default) Inf is 0xFE and 0 is 0x00.
    let values = [1.1f32, 1.5, 1.25, 3.0, -2.0, f32::INFINITY, f32::NAN, 0.0];
    let cases = [
        ("up", "80 80 80 81 80 fe ff 00"),
        ("down", "7f 7f 7f 80 80 fe ff 00"),
        ("nearest", "7f 80 7f 81 80 fe ff 00"),
    ];
    for (mode, want) in cases {
        let out = cast(
            25,
            DataType::Float8E8M0,
            &[text("round_mode", mode)],
            &row(&values),
        );
        assert_eq!(codes(&out), hex::<u8>(want), "{mode}");
    }
    // Largest finite f32 rounds up past 2^127: held at 0xFE when saturating, NaN otherwise.
    let top = row(&[f32::MAX]);
    let sat = cast(24, DataType::Float8E8M0, &[], &top);
    assert_eq!(codes(&sat), vec![0xFE]);
    let nosat = cast(24, DataType::Float8E8M0, &[int("saturate", 0)], &top);
    assert_eq!(codes(&nosat), vec![0xFF]);
    // Decoding: 0x00 is 2^-127 (an f32 subnormal, 0 in f16); 0x7C is 0.125.
    let input = code_tensor(DataType::Float8E8M0, &E8M0_DECODE.map(|d| d.0));
    let out = cast(24, DataType::Float, &[], &input);
    assert_eq!(map(&out, f32::to_bits), E8M0_DECODE.map(|d| d.1).to_vec());
    let out = cast(24, DataType::Float16, &[], &input);
    assert_eq!(map(&out, f16::to_bits), E8M0_DECODE.map(|d| d.2).to_vec());
}

/// docs/semantics.md §3.7 for a finite f32, written on the value rather than on the bits: past
/// 2^127 saturation gives 0xFE and no saturation NaN (0xFF); below 2^-127 (0 included) 0x00 or
/// NaN. In between, with 2^k <= |x| < 2^(k+1), `up` takes 2^(k+1) unless |x| is 2^k, `down`
/// takes 2^k, `nearest` takes 2^(k+1) from 1.5·2^k on (ties up). The sign is ignored.
fn e8m0_reference(x: f32, mode: &str, saturate: bool) -> u8 {
    let a = f64::from(x.abs());
    let outside = |end: u8| if saturate { end } else { 0xFF };
    if a > 2f64.powi(127) {
        return outside(0xFE);
    }
    if a < 2f64.powi(-127) {
        return outside(0x00);
    }
    let mut k = -127;
    while 2f64.powi(k + 1) <= a {
        k += 1;
    }
    let low = 2f64.powi(k);
    let round_up = match mode {
        "up" => a != low,
        "down" => false,
        "nearest" => a >= 1.5 * low,
        other => panic!("no round_mode {other}"),
    };
    (k + 127 + i32::from(round_up)) as u8
}

#[test]
fn e8m0_specials_follow_the_page_in_cast_and_castlike() {
    // docs/semantics.md §3.7 table, FLOAT, DOUBLE and STRING sources, at both E8M0 versions.
    let f32s: Vec<f32> = E8M0_SPECIALS.iter().map(|r| f32::from_bits(r.0)).collect();
    let f64s: Vec<f64> = E8M0_SPECIALS_F64
        .iter()
        .map(|r| f64::from_bits(r.0))
        .collect();
    let n64 = f64s.len();
    // Strings parse to f64, then take the DOUBLE path: 0, Inf, -Inf, NaN, 1e-39 (below 2^-127),
    // 1e39 (Inf in f32), 1.5.
    let strings: Vec<String> = ["0", "INF", "-inf", "NaN", "1e-39", "1e39", "1.5"]
        .map(String::from)
        .to_vec();
    let string_rows = [
        0x0000_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x0000_0001,
        0x7F80_0000,
        0xBFC0_0000,
    ];
    let like = tensor(&[0], Vec::<F8E8M0>::new());
    for since in [24, 25] {
        for (col, (mode, saturate)) in E8M0_COLUMNS.into_iter().enumerate() {
            let attrs = [
                text("round_mode", mode),
                int("saturate", i64::from(saturate)),
            ];
            let what = format!("-{since} round_mode={mode} saturate={saturate}");
            let want: Vec<u8> = E8M0_SPECIALS.iter().map(|r| r.1[col]).collect();
            let out = cast(since, DataType::Float8E8M0, &attrs, &row(&f32s));
            assert_eq!(codes(&out), want, "Cast{what} FLOAT");
            let out = run_op(OpKind::CastLike, since, &attrs, &[&row(&f32s), &like]);
            assert_eq!(codes(&out.expect("castlike")), want, "CastLike{what} FLOAT");
            let want: Vec<u8> = E8M0_SPECIALS_F64.iter().map(|r| r.1[col]).collect();
            let input = tensor(&[n64], f64s.clone());
            let out = cast(since, DataType::Float8E8M0, &attrs, &input);
            assert_eq!(codes(&out), want, "Cast{what} DOUBLE");
            let code_of = |bits: u32| {
                let found = E8M0_SPECIALS.iter().find(|r| r.0 == bits);
                found.expect("string row in the table").1[col]
            };
            // 1e-39 sits below 2^-127 like the smallest subnormal; +-1.5 encode alike.
            let want: Vec<u8> = string_rows.iter().map(|&b| code_of(b)).collect();
            let input = tensor(&[strings.len()], strings.clone());
            let out = cast(since, DataType::Float8E8M0, &attrs, &input);
            assert_eq!(codes(&out), want, "Cast{what} STRING");
        }
    }
}

#[test]
fn e8m0_encodes_the_exact_value_of_integers_and_decimal_strings() {
    // docs/semantics.md §3.7 step 1: no rounding to FLOAT first. INT32 2^31 - 1 under `down`
    // is 2^30 (0x9D), under `up` 2^31 (0x9E).
    for since in [24, 25] {
        for (col, (mode, saturate)) in E8M0_COLUMNS.into_iter().enumerate() {
            let attrs = [
                text("round_mode", mode),
                int("saturate", i64::from(saturate)),
            ];
            let what = format!("Cast-{since} round_mode={mode} saturate={saturate}");
            let rows = |fits: &dyn Fn(i128) -> bool| -> (Vec<i128>, Vec<u8>) {
                E8M0_INTEGERS
                    .iter()
                    .filter(|r| fits(r.0))
                    .map(|r| (r.0, r.1[col]))
                    .unzip()
            };
            let (v, want) = rows(&|v| i32::try_from(v).is_ok());
            assert_eq!(v.len(), 4);
            let input = tensor(&[v.len()], v.iter().map(|&x| x as i32).collect());
            let out = cast(since, DataType::Float8E8M0, &attrs, &input);
            assert_eq!(codes(&out), want, "{what} INT32");
            let (v, want) = rows(&|v| i64::try_from(v).is_ok());
            let input = tensor(&[v.len()], v.iter().map(|&x| x as i64).collect());
            let out = cast(since, DataType::Float8E8M0, &attrs, &input);
            assert_eq!(codes(&out), want, "{what} INT64");
            let (v, want) = rows(&|v| u64::try_from(v).is_ok());
            assert_eq!(v.len(), 7);
            let input = tensor(&[v.len()], v.iter().map(|&x| x as u64).collect());
            let out = cast(since, DataType::Float8E8M0, &attrs, &input);
            assert_eq!(codes(&out), want, "{what} UINT64");
            // A string's decimal decides, also where its nearest DOUBLE is a decision point:
            // every integer's text gives the integer's code.
            let (v, mut want) = rows(&|_| true);
            let mut strings: Vec<String> = v.iter().map(i128::to_string).collect();
            for (text, codes) in E8M0_DECIMALS {
                strings.push(text.into());
                want.push(codes[col]);
            }
            let input = tensor(&[strings.len()], strings);
            let out = cast(since, DataType::Float8E8M0, &attrs, &input);
            assert_eq!(codes(&out), want, "{what} STRING");
        }
    }
}

#[test]
fn e8m0_reads_every_decimal_spelling_exactly() {
    // Under `up` a value exactly 2^k keeps code k + 127; a hair above takes the next one,
    // however the decimal is spelled (docs/semantics.md §3.7 step 1).
    let cases = [
        ("0.5", 0x7E),
        (".5", 0x7E),
        ("+.50", 0x7E),
        ("5e-1", 0x7E),
        ("50E-2", 0x7E),
        ("0.50000000000000000001", 0x7F),
        ("5.0000000000000000001e-1", 0x7F),
        ("2.", 0x80),
        ("-2", 0x80),
        ("2.0000000000000000000000001e0", 0x81),
        ("0.000000000000000000002e21", 0x80),
        ("1.99999999999999999999", 0x80),
    ];
    let input = tensor(
        &[cases.len()],
        cases.iter().map(|c| c.0.to_string()).collect(),
    );
    let out = cast(
        25,
        DataType::Float8E8M0,
        &[text("round_mode", "up")],
        &input,
    );
    let want: Vec<u8> = cases.iter().map(|c| c.1).collect();
    assert_eq!(codes(&out), want);
}

#[test]
fn castlike_applies_round_mode_to_e8m0_as_cast_does() {
    // The CastLike page documents round_mode for E8M0 targets; the expanded function body
    // dropping it is a defect of the expansion.
    let values = [
        1.1f32,
        1.5,
        1.25,
        3.0,
        0.75,
        2.0,
        -2.0,
        -6.5,
        1.499_999_9,
        1.2e-38,
        2.5e-38,
        1.7e38,
        f32::MAX,
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e-45,
        5e-39,
        f32::from_bits(0x0040_0000),
        f32::from_bits(0x0050_0000),
        f32::from_bits(0x0060_0000),
        f32::from_bits(0x7F00_0000),
        f32::from_bits(0x7F00_0001),
    ];
    let like = tensor(&[0], Vec::<F8E8M0>::new());
    for since in [24, 25] {
        for mode in ["up", "down", "nearest"] {
            for saturate in [1, 0] {
                let attrs = [text("round_mode", mode), int("saturate", saturate)];
                let want: Vec<u8> = values
                    .iter()
                    .map(|&x| e8m0_reference(x, mode, saturate == 1))
                    .collect();
                let what = format!("-{since} round_mode={mode} saturate={saturate}");
                let out = run_op(OpKind::CastLike, since, &attrs, &[&row(&values), &like]);
                assert_eq!(codes(&out.expect("castlike")), want, "CastLike{what}");
                let out = cast(since, DataType::Float8E8M0, &attrs, &row(&values));
                assert_eq!(codes(&out), want, "Cast{what}");
            }
        }
    }
    // The three modes give three codes for 1.5 and 1.1 (docs/semantics.md §3.7 step 6).
    let input = row(&[1.1, 1.5]);
    for (mode, want) in [
        ("up", [0x80, 0x80]),
        ("down", [0x7F, 0x7F]),
        ("nearest", [0x7F, 0x80]),
    ] {
        let attrs = [text("round_mode", mode)];
        let out = run_op(OpKind::CastLike, 25, &attrs, &[&input, &like]).expect("castlike");
        assert_eq!(codes(&out), want.to_vec(), "{mode}");
    }
}

#[test]
fn int4_clamps_before_24_and_wraps_from_24() {
    let values = int4_inputs();
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

/// The Cast page's integer → integer rule (Cast-13 and later), for a `bits`-wide target:
/// keep the low bits and reinterpret them, two's complement when `signed`.
fn low_bits(v: i128, bits: u32, signed: bool) -> i32 {
    let m = 1i128 << bits;
    let u = v.rem_euclid(m);
    (if signed && u >= m / 2 { u - m } else { u }) as i32
}

#[test]
fn integer_sources_keep_the_low_bits_into_subbyte_integers_at_every_version() {
    // Issue 8's examples first: INT16 15 -> INT4 -1, INT32 -1 -> UINT4 15. All fit in i16.
    let values: [i128; 10] = [15, -1, 8, -9, 16, 7, -8, 100, -32768, 32767];
    let sources = [
        tensor(&[10], values.map(|v| v as i16).to_vec()),
        tensor(&[10], values.map(|v| v as i32).to_vec()),
        tensor(&[10], values.map(|v| v as i64).to_vec()),
    ];
    for since in [21, 23, 24, 25] {
        for input in &sources {
            let from = input.dtype();
            let signed = map(&cast(since, DataType::Int4, &[], input), I4::get);
            let unsigned = map(&cast(since, DataType::Uint4, &[], input), U4::to_bits);
            for (k, &v) in values.iter().enumerate() {
                assert_eq!(
                    i32::from(signed[k]),
                    low_bits(v, 4, true),
                    "Cast-{since} {from} {v} -> INT4"
                );
                assert_eq!(
                    i32::from(unsigned[k]),
                    low_bits(v, 4, false),
                    "Cast-{since} {from} {v} -> UINT4"
                );
            }
        }
        // Unsigned sources: UINT8 200 keeps 0x8 (INT4 -8, UINT4 8); UINT64 max keeps 0xF.
        let input = tensor(&[3], vec![200u8, 255, 15]);
        assert_eq!(
            map(&cast(since, DataType::Int4, &[], &input), I4::get),
            vec![-8, -1, -1]
        );
        let input = tensor(&[2], vec![u64::MAX, 1 << 63]);
        assert_eq!(
            map(&cast(since, DataType::Uint4, &[], &input), U4::to_bits),
            vec![15, 0]
        );
        // Between the sub-byte types: INT4 -1 -> UINT4 15, UINT4 8 -> INT4 -8.
        let input = tensor(&[2], vec![I4::from_bits(0xF), I4::from_bits(0x8)]);
        assert_eq!(
            map(&cast(since, DataType::Uint4, &[], &input), U4::to_bits),
            vec![15, 8]
        );
        let input = tensor(&[2], vec![U4::from_bits(8), U4::from_bits(15)]);
        assert_eq!(
            map(&cast(since, DataType::Int4, &[], &input), I4::get),
            vec![-8, -1]
        );
        // A STRING integer literal is taken as that integer.
        let input = tensor(&[2], vec!["15".to_owned(), "-1".to_owned()]);
        assert_eq!(
            map(&cast(since, DataType::Int4, &[], &input), I4::get),
            vec![-1, -1]
        );
        assert_eq!(
            map(&cast(since, DataType::Uint4, &[], &input), U4::to_bits),
            vec![15, 15]
        );
        // BOOL is 0/1 on every rule; true -> 1.
        let input = tensor(&[2], vec![true, false]);
        assert_eq!(
            map(&cast(since, DataType::Int4, &[], &input), I4::get),
            vec![1, 0]
        );
    }
    // CastLike follows the same rule before 24.
    let input = tensor(&[2], vec![15i16, -1]);
    let like = tensor(&[0], Vec::<U4>::new());
    let out = run_op(OpKind::CastLike, 21, &[], &[&input, &like]).expect("castlike");
    assert_eq!(map(&out, U4::to_bits), vec![15, 15]);
    // INT2/UINT2 (Cast-25 only) on the same rule.
    let out = cast(25, DataType::Int2, &[], &sources[0]);
    let want: Vec<i32> = values.iter().map(|&v| low_bits(v, 2, true)).collect();
    assert_eq!(map(&out, |x: I2| i32::from(x.get())), want);
    let out = cast(25, DataType::Uint2, &[], &sources[1]);
    let want: Vec<i32> = values.iter().map(|&v| low_bits(v, 2, false)).collect();
    assert_eq!(map(&out, |x: U2| i32::from(x.to_bits())), want);
}

#[test]
fn floating_sources_still_clamp_into_int4_before_24() {
    // docs/semantics.md §3.2: the ≤ 23 data clamps floating sources (15.0 -> 7, -1.0 -> UINT4 0), f16 too.
    let input = tensor(&[2], vec![f16::from_f32(15.0), f16::from_f32(-1.0)]);
    for since in [21, 23] {
        assert_eq!(
            map(&cast(since, DataType::Int4, &[], &input), I4::get),
            vec![7, -1]
        );
        assert_eq!(
            map(&cast(since, DataType::Uint4, &[], &input), U4::to_bits),
            vec![15, 0]
        );
    }
    let input = tensor(&[2], vec![15.0f64, -9.0]);
    assert_eq!(
        map(&cast(23, DataType::Int4, &[], &input), I4::get),
        vec![7, -8]
    );
}

#[test]
fn int2_wraps_3_2() {
    let input = tensor(&[7, 1], int2_inputs());
    let out = cast(25, DataType::Int2, &[], &input);
    assert_eq!(map(&out, I2::get), INT2_EXPECTED.to_vec());
    let out = cast(25, DataType::Uint2, &[], &input);
    assert_eq!(map(&out, U2::to_bits), UINT2_EXPECTED.to_vec());
}

#[test]
fn int4_to_int8_sign_extends_3_8() {
    let nibbles = nibbles(INT4_BYTES_FROM_24);
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
    for since in [23, 24, 25] {
        let out = cast(since, DataType::Float4E2M1, &[], &row(&F4_ROW));
        assert_eq!(codes(&out), float4_expected(since >= 24), "Cast-{since}");
    }
    // The six codes before the overflow entries, and 0x8 (-0) from the end of the row.
    let pick = [0, 1, 2, 3, 4, 5, 14];
    let (codes_24, values_24) = (float4_expected(true), float4_decoded(true));
    let input = code_tensor(DataType::Float4E2M1, &pick.map(|i| codes_24[i]));
    let out = cast(24, DataType::Float, &[], &input);
    assert_eq!(
        map(&out, f32::to_bits),
        pick.map(|i| values_24[i].to_bits()).to_vec()
    );
}

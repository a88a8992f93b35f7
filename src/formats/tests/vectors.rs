//! The float8 and 16-bit vectors of docs/semantics.md (§3.5, §3.6), as `check(input, expected)` data.

use super::{bf16, f16, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ};
use super::{check, rules, Bits};
use crate::dtype::DataType;
use crate::testkit::spec_vectors::{float8_expected, Float8Codes};
use crate::testkit::spec_vectors::{
    fnuz_nan_decoded, hex, BF16_INPUT, BF16_ROUNDED, BF16_TRUNCATED, F16_EXAMPLE_EXPECTED,
    F16_EXAMPLE_INPUT, F8_DECODE, F8_ROW, F8_ROW_F16, FLOAT8_CODES, FNUZ_NAN, NAN_DECODE, QNAN_F16,
    QNAN_F32,
};

/// The docs/semantics.md §3.5 row for one float8 type, from f32 and f16, saturate on and off, in both
/// generations.
fn float8_rows<T: Bits>(codes: &Float8Codes) {
    let name = codes.dtype;
    let f16_row = F8_ROW_F16.map(f16::from_bits);
    for from24 in [false, true] {
        for saturate in [true, false] {
            let row: Vec<u64> = float8_expected(codes, saturate, from24)
                .into_iter()
                .map(u64::from)
                .collect();
            let r = rules(saturate, from24);
            check::<f32, T>(&format!("FLOAT -> {name}"), &r, &F8_ROW, &row);
            check::<f16, T>(&format!("FLOAT16 -> {name}"), &r, &f16_row, &row);
        }
    }
}

#[test]
fn float8_vectors() {
    for codes in &FLOAT8_CODES {
        match codes.dtype {
            DataType::Float8E4M3FN => float8_rows::<F8E4M3FN>(codes),
            DataType::Float8E4M3FNUZ => float8_rows::<F8E4M3FNUZ>(codes),
            DataType::Float8E5M2 => float8_rows::<F8E5M2>(codes),
            DataType::Float8E5M2FNUZ => float8_rows::<F8E5M2FNUZ>(codes),
            other => panic!("not a float8 row: {other}"),
        }
    }
}

/// Decodes the docs/semantics.md §3.5 decoding rows of `dtype`, then its §3.4 NaN codes, to f32 and f16.
fn decode_rows<T: Bits>(dtype: DataType, from24: bool) {
    let mut codes = Vec::new();
    let (mut want32, mut want16) = (Vec::new(), Vec::new());
    for &(t, code, bits32, bits16) in &F8_DECODE {
        if t == dtype {
            codes.push(T::of(code.into()));
            want32.push(u64::from(bits32));
            want16.push(u64::from(bits16));
        }
    }
    for &(t, code) in &NAN_DECODE {
        if t == dtype {
            codes.push(T::of(code.into()));
            want32.push(u64::from(QNAN_F32));
            want16.push(u64::from(QNAN_F16));
        }
    }
    let r = rules(true, from24);
    check::<T, f32>(&format!("{dtype}"), &r, &codes, &want32);
    check::<T, f16>(&format!("{dtype}"), &r, &codes, &want16);
}

#[test]
fn float8_decoding_vectors() {
    for from24 in [false, true] {
        decode_rows::<F8E4M3FN>(DataType::Float8E4M3FN, from24);
        decode_rows::<F8E4M3FNUZ>(DataType::Float8E4M3FNUZ, from24);
        decode_rows::<F8E5M2>(DataType::Float8E5M2, from24);
        decode_rows::<F8E5M2FNUZ>(DataType::Float8E5M2FNUZ, from24);
        // docs/semantics.md §3.2: the FNUZ NaN decodes to +qNaN up to Cast-23 and to -qNaN from Cast-24.
        let r = rules(true, from24);
        let (n32, n16) = fnuz_nan_decoded(from24);
        let (n32, n16) = (u64::from(n32), u64::from(n16));
        let (e4, e5) = (
            F8E4M3FNUZ::from_bits(FNUZ_NAN),
            F8E5M2FNUZ::from_bits(FNUZ_NAN),
        );
        check::<F8E4M3FNUZ, f32>("E4M3FNUZ NaN", &r, &[e4], &[n32]);
        check::<F8E5M2FNUZ, f32>("E5M2FNUZ NaN", &r, &[e5], &[n32]);
        check::<F8E4M3FNUZ, f16>("E4M3FNUZ NaN", &r, &[e4], &[n16]);
        check::<F8E5M2FNUZ, f16>("E5M2FNUZ NaN", &r, &[e5], &[n16]);
    }
}

#[test]
fn bfloat16_vectors() {
    let input = BF16_INPUT.map(f32::from_bits);
    check::<f32, bf16>(
        "FLOAT -> BFLOAT16 (<= 23)",
        &rules(true, false),
        &input,
        &hex::<u64>(BF16_TRUNCATED),
    );
    check::<f32, bf16>(
        "FLOAT -> BFLOAT16 (>= 24)",
        &rules(true, true),
        &input,
        &hex::<u64>(BF16_ROUNDED),
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
            .map(bf16::from_bits)
            .collect();
        check::<bf16, f32>(
            "BFLOAT16 -> FLOAT",
            &r,
            &back,
            &[0x3EF5_0000, 0x7FC0_0000, 0xFFC0_0000, 0xFF80_0000],
        );
        // The docs/semantics.md §3.6 example, plus a negative NaN whose sign must survive.
        let x: Vec<f32> = [&F16_EXAMPLE_INPUT[..], &[f32::from_bits(0xFFC0_0001)]].concat();
        let want: Vec<u64> = F16_EXAMPLE_EXPECTED
            .into_iter()
            .chain([0xFE00])
            .map(u64::from)
            .collect();
        check::<f32, f16>("FLOAT -> FLOAT16", &r, &x, &want);
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

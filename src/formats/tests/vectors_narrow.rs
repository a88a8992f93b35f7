//! The E8M0, FLOAT4E2M1 and 4-/2-bit integer vectors of docs/semantics.md (§3.2, §3.7, §3.8).

use super::{check, rules, CastRules, FloatFormat, RoundMode};
use super::{f16, F4E2M1, F8E8M0};
use crate::formats::{SubByteInt, I2, I4, U2, U4};
use crate::testkit::spec_vectors::{
    float4_decoded, float4_expected, hex, int2_inputs, int4_inputs, nibbles, round_mode,
    E8M0_CODES, E8M0_COLUMNS, E8M0_DECODE, E8M0_INPUT, E8M0_INPUT_F16, E8M0_SPECIALS,
    E8M0_SPECIALS_F64, F4_ROW, INT2_EXPECTED, INT4_BYTES_BEFORE_24, INT4_BYTES_FROM_24, QNAN_F16,
    QNAN_F32, UINT2_EXPECTED,
};

#[test]
fn e8m0_vectors() {
    let codes = hex(E8M0_CODES);
    let r = CastRules {
        saturate: true,
        round_mode: RoundMode::Up,
        generation: super::Generation::From24,
    };
    check::<f32, F8E8M0>("FLOAT -> E8M0", &r, &E8M0_INPUT, &codes);
    let h = E8M0_INPUT_F16.map(f16::from_bits);
    check::<f16, F8E8M0>("FLOAT16 -> E8M0", &r, &h, &codes);
    // docs/semantics.md §3.7 specials and range ends under every round_mode and saturate.
    for (col, (mode, saturate)) in E8M0_COLUMNS.into_iter().enumerate() {
        let r = CastRules {
            saturate,
            round_mode: round_mode(mode),
            ..r
        };
        let what = format!("E8M0 specials {mode} saturate={saturate}");
        let (inputs, want): (Vec<f32>, Vec<u64>) = E8M0_SPECIALS
            .iter()
            .map(|&(bits, codes)| (f32::from_bits(bits), u64::from(codes[col])))
            .unzip();
        check::<f32, F8E8M0>(&format!("FLOAT {what}"), &r, &inputs, &want);
        let (inputs, want): (Vec<f64>, Vec<u64>) = E8M0_SPECIALS_F64
            .iter()
            .map(|&(bits, codes)| (f64::from_bits(bits), u64::from(codes[col])))
            .unzip();
        check::<f64, F8E8M0>(&format!("DOUBLE {what}"), &r, &inputs, &want);
        // FLOAT16 holds only some rows exactly: +-0, +-Inf, the NaNs and -1.5.
        let (inputs, want): (Vec<f16>, Vec<u64>) = E8M0_SPECIALS
            .iter()
            .map(|&(bits, codes)| (f32::from_bits(bits), u64::from(codes[col])))
            .filter(|(x, _)| x.is_nan() || f32::from(f16::from_f32(*x)) == *x)
            .map(|(x, c)| (f16::from_f32(x), c))
            .unzip();
        assert_eq!(inputs.len(), 7, "{what}: f16 rows");
        check::<f16, F8E8M0>(&format!("FLOAT16 {what}"), &r, &inputs, &want);
    }
    let dec = |c: u8| F8E8M0::from_bits(c);
    let ([zero, eighth], nan) = (E8M0_DECODE, 0xFF);
    check::<F8E8M0, f32>(
        "E8M0 -> FLOAT",
        &r,
        &[dec(zero.0), dec(eighth.0), dec(nan)],
        &[zero.1, eighth.1, QNAN_F32].map(u64::from),
    );
    // docs/semantics.md §3.7: f16 decoding rounds, so the codes around the f16 range edges are checked too.
    check::<F8E8M0, f16>(
        "E8M0 -> FLOAT16",
        &r,
        &[
            dec(zero.0),
            dec(102),
            dec(103),
            dec(142),
            dec(143),
            dec(eighth.0),
            dec(nan),
        ],
        &[zero.2, 0x0000, 0x0001, 0x7800, 0x7C00, eighth.2, QNAN_F16].map(u64::from),
    );
}

#[test]
fn float4_vectors() {
    for from24 in [false, true] {
        let row: Vec<u64> = float4_expected(from24).into_iter().map(u64::from).collect();
        for saturate in [false, true] {
            check::<f32, F4E2M1>(
                "FLOAT -> FLOAT4E2M1",
                &rules(saturate, from24),
                &F4_ROW,
                &row,
            );
        }
        // Decodes the codes of version 23 (NaN slot 0x7 -> 6) in both generations: decoding
        // does not depend on the version.
        let back: Vec<F4E2M1> = float4_expected(false)
            .into_iter()
            .map(F4E2M1::from_bits)
            .collect();
        let want: Vec<u64> = float4_decoded(false)
            .into_iter()
            .map(|v| u64::from(v.to_bits()))
            .collect();
        check::<F4E2M1, f32>("FLOAT4E2M1 -> FLOAT", &rules(true, from24), &back, &want);
    }
    // -NaN from Cast-24 on gives +0 (the sign flips, as for +NaN -> 0x8).
    check::<f32, F4E2M1>("FLOAT4E2M1 -NaN", &rules(true, true), &[-f32::NAN], &[0x0]);
}

#[test]
fn int4_and_int2_vectors() {
    let inputs = int4_inputs();
    // Cast-21 INT4 output of 1.17.0 (docs/semantics.md §4.1), and the Cast-24+ INT4 bytes of §3.8; last nibble is padding.
    let before = nibbles(INT4_BYTES_BEFORE_24);
    let after = nibbles(INT4_BYTES_FROM_24);
    for (from24, want) in [(false, before), (true, after)] {
        let r = rules(true, from24);
        let got: Vec<u8> = inputs
            .iter()
            .map(|&x| I4::from_exact(&x.to_exact(&r), &r).to_bits())
            .collect();
        assert_eq!(got, want[..25], "FLOAT -> INT4 gen24={from24}");
    }
    // docs/semantics.md §3.2 evidence: (input, INT4 <= 23, INT4 >= 24, UINT4 <= 23, UINT4 >= 24), as values.
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
    let two: Vec<(i8, u8)> = int2_inputs()
        .into_iter()
        .map(|v| v.to_exact(&r))
        .map(|e| {
            (
                I2::from_exact(&e, &r).get(),
                U2::from_exact(&e, &r).to_bits(),
            )
        })
        .collect();
    let want: Vec<(i8, u8)> = INT2_EXPECTED.into_iter().zip(UINT2_EXPECTED).collect();
    assert_eq!(two, want, "INT2/UINT2 from -3..=3");
}

//! The concrete test vectors of docs/semantics.md, each written once.
//!
//! Both the format-layer tests (`formats::tests`) and the operator tests (`ops::tests`) read
//! these, so a vector copied wrongly from docs/semantics.md fails in both layers or in neither,
//! and a correction is made in one place. Code rows are kept as hex strings, as that page prints
//! them.

use crate::dtype::DataType;
use crate::formats::RoundMode;

/// Parses a row of hex codes such as `"2f 2f 30"` into any integer type wide enough.
pub(crate) fn hex<T: TryFrom<u64>>(row: &str) -> Vec<T> {
    row.split_whitespace()
        .map(|h| u64::from_str_radix(h, 16).expect("test table holds hex"))
        .map(|v| T::try_from(v).ok().expect("hex code fits the type"))
        .collect()
}

/// Canonical quiet NaN as FLOAT bits, what every NaN code decodes to (docs/semantics.md §3.4).
pub(crate) const QNAN_F32: u32 = 0x7FC0_0000;

/// Canonical quiet NaN as FLOAT16 bits (docs/semantics.md §3.4).
pub(crate) const QNAN_F16: u16 = 0x7E00;

/// docs/semantics.md §3.5 input row, as FLOAT.
pub(crate) const F8_ROW: [f32; 15] = [
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

/// docs/semantics.md §3.5 input row as FLOAT16 bits (1e6 is already +Inf there, 1e-7 the subnormal 0x0002).
pub(crate) const F8_ROW_F16: [u16; 15] = [
    0x37AA, 0x37AF, 0x37FF, 0x3A8E, 0x3786, 0x39C9, 0x7C00, 0x0002, 0x7E00, 0x7C00, 0x7C00, 0xFC00,
    0x8002, 0x0002, 0xFC00,
];

/// Position of the NaN input in the docs/semantics.md §3.5 and §3.8 rows, whose code depends on the version.
pub(crate) const NAN_SLOT: usize = 8;

/// The expected float8 codes of one docs/semantics.md §3.5 table row, at version 24 and later.
pub(crate) struct Float8Codes {
    /// The target type.
    pub dtype: DataType,
    /// All 15 codes with saturate=1.
    pub saturate: &'static str,
    /// The codes with saturate=0 after the first six, which docs/semantics.md elides as `…`
    /// because they equal the saturate=1 ones.
    pub no_saturate_tail: &'static str,
}

/// docs/semantics.md §3.5: the four float8 rows for saturate on and off.
pub(crate) const FLOAT8_CODES: [Float8Codes; 4] = [
    Float8Codes {
        dtype: DataType::Float8E4M3FN,
        saturate: "2f 2f 30 35 2f 34 7e 00 7f 7e 7e fe 80 00 fe",
        no_saturate_tail: "7f 00 7f 7f 7f ff 80 00 ff",
    },
    Float8Codes {
        dtype: DataType::Float8E4M3FNUZ,
        saturate: "37 37 38 3d 37 3c 7f 00 80 7f 7f ff 00 00 ff",
        no_saturate_tail: "80 00 80 80 80 80 00 00 80",
    },
    Float8Codes {
        dtype: DataType::Float8E5M2,
        saturate: "38 38 38 3b 38 3a 7b 00 7e 7b 7b fb 80 00 fb",
        no_saturate_tail: "7c 00 7e 7c 7c fc 80 00 fc",
    },
    Float8Codes {
        dtype: DataType::Float8E5M2FNUZ,
        saturate: "3c 3c 3c 3f 3c 3e 7f 00 80 7f 7f ff 00 00 ff",
        no_saturate_tail: "80 00 80 80 80 80 00 00 80",
    },
];

/// The E5M2 NaN code per generation (docs/semantics.md §3.2): 0x7F up to version 23, 0x7E from 24.
pub(crate) fn e5m2_nan(from24: bool) -> u8 {
    if from24 {
        0x7E
    } else {
        0x7F
    }
}

/// docs/semantics.md §3.5: the 15 expected codes of `row`, with the E5M2 NaN code of the generation.
pub(crate) fn float8_expected(row: &Float8Codes, saturate: bool, from24: bool) -> Vec<u8> {
    let full: Vec<u8> = hex(row.saturate);
    let mut codes = if saturate {
        full
    } else {
        [&full[..6], &hex(row.no_saturate_tail)].concat()
    };
    if row.dtype == DataType::Float8E5M2 {
        codes[NAN_SLOT] = e5m2_nan(from24);
    }
    codes
}

/// docs/semantics.md §3.5 decoding table: (type, code, FLOAT bits, FLOAT16 bits).
pub(crate) const F8_DECODE: [(DataType, u8, u32, u16); 5] = [
    (DataType::Float8E4M3FN, 0x7E, 0x43E0_0000, 0x5F00),
    (DataType::Float8E4M3FN, 0x80, 0x8000_0000, 0x8000),
    (DataType::Float8E4M3FNUZ, 0x7F, 0x4370_0000, 0x5B80),
    (DataType::Float8E5M2, 0x7B, 0x4760_0000, 0x7B00),
    (DataType::Float8E5M2FNUZ, 0xFF, 0xC760_0000, 0xFB00),
];

/// docs/semantics.md §3.4: NaN codes that decode to [`QNAN_F32`] / [`QNAN_F16`] in every version.
pub(crate) const NAN_DECODE: [(DataType, u8); 4] = [
    (DataType::Float8E4M3FN, 0x7F),
    (DataType::Float8E5M2, 0x7E),
    (DataType::Float8E5M2, 0x7F),
    (DataType::Float8E8M0, 0xFF),
];

/// The FNUZ NaN code, 0x80 in both FNUZ types (docs/semantics.md §3.4).
pub(crate) const FNUZ_NAN: u8 = 0x80;

/// docs/semantics.md §3.2: [`FNUZ_NAN`] decoded to (FLOAT bits, FLOAT16 bits): +qNaN up to 23, −qNaN from 24.
pub(crate) fn fnuz_nan_decoded(from24: bool) -> (u32, u16) {
    if from24 {
        (0xFFC0_0000, 0xFE00)
    } else {
        (QNAN_F32, QNAN_F16)
    }
}

/// docs/semantics.md §3.6 FLOAT → BFLOAT16 input row, as FLOAT bits.
pub(crate) const BF16_INPUT: [u32; 12] = [
    0x3EF5_35B8,
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
];

/// docs/semantics.md §3.6 expected BFLOAT16 bits up to version 23 (truncation).
pub(crate) const BF16_TRUNCATED: &str =
    "3EF5 3EF5 3EFF 3F51 3EF0 3F51 3E57 3F39 7FC0 7F80 7F80 FF80";

/// docs/semantics.md §3.6 expected BFLOAT16 bits from version 24 (round to nearest even).
pub(crate) const BF16_ROUNDED: &str = "3EF5 3EF6 3F00 3F52 3EF1 3F51 3E58 3F39 7FC0 7F80 7F80 FF80";

/// docs/semantics.md §3.6 FLOAT → FLOAT16 example inputs (0.816468, NaN, +Inf, −Inf).
pub(crate) const F16_EXAMPLE_INPUT: [f32; 4] = [
    f32::from_bits(0x3F51_040C),
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
];

/// docs/semantics.md §3.6 FLOAT16 bits expected for [`F16_EXAMPLE_INPUT`].
pub(crate) const F16_EXAMPLE_EXPECTED: [u16; 4] = [0x3A88, 0x7E00, 0x7C00, 0xFC00];

/// docs/semantics.md §3.7 E8M0 test inputs (up, saturate), as FLOAT.
pub(crate) const E8M0_INPUT: [f32; 8] = [0.0, 0.124, 0.25, 0.5, 1.1, 2.0, 4.0, 8.0];

/// docs/semantics.md §3.7 the same inputs as FLOAT16 bits (0.124 is 0x2FF0 there).
pub(crate) const E8M0_INPUT_F16: [u16; 8] = [
    0x0000, 0x2FF0, 0x3400, 0x3800, 0x3C66, 0x4000, 0x4400, 0x4800,
];

/// docs/semantics.md §3.7 expected E8M0 codes for both input rows.
pub(crate) const E8M0_CODES: &str = "00 7C 7D 7E 80 80 81 82";

/// docs/semantics.md §3.7: the order of the six E8M0 rule columns below, (round_mode, saturate).
pub(crate) const E8M0_COLUMNS: [(&str, bool); 6] = [
    ("up", true),
    ("up", false),
    ("down", true),
    ("down", false),
    ("nearest", true),
    ("nearest", false),
];

/// The `round_mode` of an [`E8M0_COLUMNS`] name.
pub(crate) fn round_mode(name: &str) -> RoundMode {
    match name {
        "up" => RoundMode::Up,
        "down" => RoundMode::Down,
        "nearest" => RoundMode::Nearest,
        other => panic!("no round_mode {other}"),
    }
}

/// docs/semantics.md §3.7 table of specials and range ends: FLOAT bits, then the code under each
/// of [`E8M0_COLUMNS`]. The "up, saturate" and "nearest, no saturation" columns are the Cast-24
/// page's table; the other four follow its rule (saturate decides outside [2^-127, 2^127],
/// round_mode inside); the negative rows are this project's (sign ignored; the page leaves
/// them unspecified).
pub(crate) const E8M0_SPECIALS: [(u32, [u8; 6]); 24] = [
    // 0 and -0: below E8M0_MIN.
    (0x0000_0000, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    (0x8000_0000, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    // 0 < x < 2^-127: the smallest f32 subnormal, 2^-128, and the f32 just below 2^-127.
    (0x0000_0001, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    (0x0020_0000, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    (0x003F_FFFF, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    (0x803F_FFFF, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    // 2^-127 (E8M0_MIN, an f32 subnormal) and the subnormals above it, by their value.
    (0x0040_0000, [0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
    (0x0040_0001, [0x01, 0x01, 0x00, 0x00, 0x00, 0x00]),
    (0x0050_0000, [0x01, 0x01, 0x00, 0x00, 0x00, 0x00]),
    (0x005F_FFFF, [0x01, 0x01, 0x00, 0x00, 0x00, 0x00]),
    (0x0060_0000, [0x01, 0x01, 0x00, 0x00, 0x01, 0x01]),
    (0x007F_FFFF, [0x01, 0x01, 0x00, 0x00, 0x01, 0x01]),
    // 2^-126, the smallest f32 normal.
    (0x0080_0000, [0x01, 0x01, 0x01, 0x01, 0x01, 0x01]),
    // 2^127 (E8M0_MAX) and 1.25 * 2^126 below it.
    (0x7F00_0000, [0xFE, 0xFE, 0xFE, 0xFE, 0xFE, 0xFE]),
    (0x7EA0_0000, [0xFE, 0xFE, 0xFD, 0xFD, 0xFD, 0xFD]),
    // x > 2^127: one f32 ulp above, 1.25 * 2^127, 1.5 * 2^127, f32::MAX.
    (0x7F00_0001, [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF]),
    (0x7F20_0000, [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF]),
    (0x7F40_0000, [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF]),
    (0x7F7F_FFFF, [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF]),
    // Inf and -Inf.
    (0x7F80_0000, [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF]),
    (0xFF80_0000, [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF]),
    // NaN of either sign.
    (0x7FC0_0000, [0xFF; 6]),
    (0xFFC0_0001, [0xFF; 6]),
    // A negative in range: -1.5 encodes as 1.5.
    (0xBFC0_0000, [0x80, 0x80, 0x7F, 0x7F, 0x80, 0x80]),
];

/// docs/semantics.md §3.7 step 1: a DOUBLE is encoded by its own value, never rounded to
/// FLOAT first: (f64 bits, codes under [`E8M0_COLUMNS`]).
pub(crate) const E8M0_SPECIALS_F64: [(u64, [u8; 6]); 9] = [
    // 1e-300 and 1e300: below 2^-127 and above 2^127.
    (0x01A5_6E1F_C2F8_F359, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    (0x7E37_E43C_8800_759C, [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF]),
    // 2^-127 * (1 - 2^-41) and 2^127 * (1 + 2^-40): outside the range, although rounding to
    // FLOAT would land on its ends.
    (0x37FF_FFFF_FFFF_F000, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    (0x47E0_0000_0000_1000, [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF]),
    // 2^127 and 2^-127 themselves.
    (0x47E0_0000_0000_0000, [0xFE; 6]),
    (0x3800_0000_0000_0000, [0x00; 6]),
    // 1 + 2^-40: above 1, so up takes 2 (0x80); FLOAT would round it to 1 (0x7F everywhere).
    (0x3FF0_0000_0000_1000, [0x80, 0x80, 0x7F, 0x7F, 0x7F, 0x7F]),
    // 1.5 - 2^-40: below the nearest tie; FLOAT would round it onto 1.5 (0x80).
    (0x3FF7_FFFF_FFFF_F000, [0x80, 0x80, 0x7F, 0x7F, 0x7F, 0x7F]),
    // -(2^-126 * (1 + 2^-40)): the sign ignored, just above 2^-126 (code 0x01).
    (0xB810_0000_0000_1000, [0x02, 0x02, 0x01, 0x01, 0x01, 0x01]),
];

/// docs/semantics.md §3.7 step 1: integers are encoded by their exact value: (value, codes
/// under [`E8M0_COLUMNS`]). 2^31 - 1 lies in [2^30, 2^31), so `down` gives 2^30 (code 157 =
/// 0x9D) where rounding to FLOAT first would give 2^31.
pub(crate) const E8M0_INTEGERS: [(i128, [u8; 6]); 7] = [
    (0, [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF]),
    (1, [0x7F; 6]),
    (3, [0x81, 0x81, 0x80, 0x80, 0x81, 0x81]),
    (2_147_483_647, [0x9E, 0x9E, 0x9D, 0x9D, 0x9E, 0x9E]),
    // 2^53 + 1, which FLOAT would round to 2^53 (0xB4 in every mode).
    (9_007_199_254_740_993, [0xB5, 0xB5, 0xB4, 0xB4, 0xB4, 0xB4]),
    (
        9_223_372_036_854_775_807,
        [0xBE, 0xBE, 0xBD, 0xBD, 0xBE, 0xBE],
    ),
    (
        18_446_744_073_709_551_615,
        [0xBF, 0xBF, 0xBE, 0xBE, 0xBF, 0xBF],
    ),
];

/// docs/semantics.md §3.7 step 1: STRING inputs whose nearest f64 is a decision point of
/// E8M0 (a power of two, 1.5·2^k, E8M0_MAX, E8M0_MIN) while the decimal is not; the decimal
/// decides: (text, codes under [`E8M0_COLUMNS`]).
pub(crate) const E8M0_DECIMALS: [(&str, [u8; 6]); 8] = [
    // Read as 1.0; the decimal is above 1, so up gives 2.
    ("1.00000000000000000001", [0x80, 0x80, 0x7F, 0x7F, 0x7F, 0x7F]),
    // Read as 1.0; the decimal is below 1, in [0.5, 1) and past 0.75.
    ("0.99999999999999999999", [0x7F, 0x7F, 0x7E, 0x7E, 0x7F, 0x7F]),
    // Read as 1.5; the decimal is below the nearest tie.
    ("1.49999999999999999999", [0x80, 0x80, 0x7F, 0x7F, 0x7F, 0x7F]),
    // 2^127 + 1 is read as 2^127 but lies above E8M0_MAX; 2^127 itself is in range.
    (
        "170141183460469231731687303715884105729",
        [0xFE, 0xFF, 0xFE, 0xFF, 0xFE, 0xFF],
    ),
    ("170141183460469231731687303715884105728", [0xFE; 6]),
    // 2^-127 exactly, and a decimal just below it that is read as 2^-127.
    (
        "5.8774717541114375398436826861112283890933277838604376075437585313920862972736358642578125E-39",
        [0x00; 6],
    ),
    (
        "5.8774717541114375398436826861112283890933277838604376075437585313920862972736358642578124E-39",
        [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF],
    ),
    // 2^53 + 1 is read as 2^53.
    ("9007199254740993", [0xB5, 0xB5, 0xB4, 0xB4, 0xB4, 0xB4]),
];

/// docs/semantics.md §3.7 decoding: (code, FLOAT bits, FLOAT16 bits); 0x00 is 2^-127, an f32 subnormal.
pub(crate) const E8M0_DECODE: [(u8, u32, u16); 2] =
    [(0x00, 0x0040_0000, 0x0000), (0x7C, 0x3E00_0000, 0x3000)];

/// docs/semantics.md §3.8 FLOAT → FLOAT4E2M1 input row.
pub(crate) const F4_ROW: [f32; 15] = [
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

/// docs/semantics.md §3.8 expected FLOAT4E2M1 codes for [`F4_ROW`]; the NaN code is 0x7 up to 23, 0x8 from 24.
pub(crate) fn float4_expected(from24: bool) -> Vec<u8> {
    let mut codes: Vec<u8> = hex("1 0 2 E F 7 7 0 8 7 7 F E 0 8");
    if !from24 {
        codes[NAN_SLOT] = 0x7;
    }
    codes
}

/// docs/semantics.md §3.8 [`float4_expected`] decoded back to FLOAT: the NaN slot is 6 up to 23, −0 from 24.
pub(crate) fn float4_decoded(from24: bool) -> Vec<f32> {
    let mut values = vec![
        0.5f32, 0.0, 1.0, -4.0, -6.0, 6.0, 6.0, 0.0, -0.0, 6.0, 6.0, -6.0, -4.0, 0.0, -0.0,
    ];
    if !from24 {
        values[NAN_SLOT] = 6.0;
    }
    values
}

/// docs/semantics.md §3.8 FLOAT → INT4/UINT4 inputs: the integers −9 … 15.
pub(crate) fn int4_inputs() -> Vec<f32> {
    (-9..=15).map(|v| v as f32).collect()
}

/// docs/semantics.md §4.1 packed INT4 bytes for [`int4_inputs`] at Cast-21 (1.17.0 form); the last nibble is padding.
pub(crate) const INT4_BYTES_BEFORE_24: &str = "88 a9 cb ed 0f 21 43 65 77 77 77 77 07";

/// docs/semantics.md §3.8 packed INT4 bytes for [`int4_inputs`] from Cast-24; the last nibble is padding.
pub(crate) const INT4_BYTES_FROM_24: &str = "87 a9 cb ed 0f 21 43 65 87 a9 cb ed 0f";

/// Nibbles of packed bytes, low nibble first, as packed INT4 data stores them (docs/semantics.md §3.8).
pub(crate) fn nibbles(bytes: &str) -> Vec<u8> {
    hex::<u8>(bytes)
        .into_iter()
        .flat_map(|b| [b & 0xF, b >> 4])
        .collect()
}

/// docs/semantics.md §3.2 FLOAT → INT2/UINT2 inputs: the integers −3 … 3.
pub(crate) fn int2_inputs() -> Vec<f32> {
    (-3..=3).map(|v| v as f32).collect()
}

/// docs/semantics.md §3.2 expected INT2 values for [`int2_inputs`] (they wrap).
pub(crate) const INT2_EXPECTED: [i8; 7] = [1, -2, -1, 0, 1, -2, -1];

/// docs/semantics.md §3.2 expected UINT2 codes for [`int2_inputs`].
pub(crate) const UINT2_EXPECTED: [u8; 7] = [1, 2, 3, 0, 1, 2, 3];

/// docs/semantics.md §3.9 string → FLOAT test pairs and special tokens, with the expected FLOAT bits.
pub(crate) const STRING_TO_FLOAT: [(&str, u32); 7] = [
    ("0.47892547", 0x3EF5_35B8),
    ("0.816468", 0x3F51_040C),
    ("0.7229038", 0x3F39_1039),
    ("NaN", 0x7FC0_0000),
    ("INF", 0x7F80_0000),
    ("+INF", 0x7F80_0000),
    ("-INF", 0xFF80_0000),
];

/// docs/semantics.md §3.9 FLOAT bits → string test pairs (shortest round-tripping decimal).
pub(crate) const FLOAT_TO_STRING: [(u32, &str); 4] = [
    (0x3F7A_0D04, "0.9767611"),
    (0x3D20_8361, "0.039187793"),
    (0x3D83_5FC3, "0.064147495"),
    (0x3DF6_299D, "0.12019656"),
];

/// docs/semantics.md §3.12 FLOAT → float6 input row: specials, overflow, signed zeros, ties.
pub(crate) const F6_ROW: [f32; 12] = [
    f32::NAN,
    -f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1e9,
    -1e9,
    -0.0,
    0.0,
    7.75,
    1.0625,
    0.0625,
    15.0,
];

/// docs/semantics.md §3.12 expected codes for [`F6_ROW`], saturate on or off alike:
/// (FLOAT6E2M3, FLOAT6E3M2).
pub(crate) const F6_ROW_CODES: (&str, &str) = (
    "20 00 1F 3F 1F 3F 20 00 1F 08 00 1F",
    "20 00 1F 3F 1F 3F 20 00 18 0C 01 1C",
);

/// docs/semantics.md §3.12 DOUBLE inputs (as bits) whose one rounding from the exact value
/// differs from rounding through FLOAT first, as onnx's reference does: (target, input bits,
/// our code, the reference's code).
pub(crate) const F6_DOUBLE_PROBES: [(DataType, u64, u8, u8); 6] = [
    (DataType::Float6E2M3, 0x3FF1_0000_0000_1000, 0x09, 0x08),
    (DataType::Float6E2M3, 0xBFF1_0000_0000_1000, 0x29, 0x28),
    (DataType::Float6E2M3, 0x401D_0000_0010_0000, 0x1F, 0x1E),
    (DataType::Float6E2M3, 0x3FB0_0000_0000_0001, 0x01, 0x00),
    (DataType::Float6E3M2, 0x3FF2_0000_0000_1000, 0x0D, 0x0C),
    (DataType::Float6E3M2, 0xC02A_0000_0000_0200, 0x3B, 0x3A),
];

/// docs/semantics.md §3.12 STRING → float6: (text, FLOAT6E2M3 code, FLOAT6E3M2 code). The
/// first decimal's nearest f64 is 1.0625, a FLOAT6E2M3 tie that the decimal breaks upwards.
pub(crate) const F6_STRINGS: [(&str, u8, u8); 5] = [
    ("1.06250000000000000001", 0x09, 0x0C),
    ("1.06249999999999999999", 0x08, 0x0C),
    ("-1.12500000000000000001", 0x29, 0x2D),
    ("NaN", 0x20, 0x20),
    ("-INF", 0x3F, 0x3F),
];

/// docs/semantics.md §3.12 64-bit integers into float6: (value, FLOAT6E2M3, FLOAT6E3M2).
pub(crate) const F6_INT64: [(i64, u8, u8); 5] = [
    (15, 0x1F, 0x1C),
    (-15, 0x3F, 0x3C),
    (9, 0x1F, 0x18),
    (3, 0x14, 0x12),
    (i64::MIN, 0x3F, 0x3F),
];

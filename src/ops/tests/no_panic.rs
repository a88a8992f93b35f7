//! Randomized no-panic proof for `ops::run`: every operator version, random attribute lists,
//! input counts, types, shapes and element values (NaN payloads, infinities, subnormals, odd
//! strings). Each call must return `Ok` or `Err`; a panic is reported with the input that
//! caused it. Deterministic: a fixed-seed xorshift generator, no dependency.

use crate::dtype::{DataType, Storage};
use crate::formats::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};
use crate::ops::{run, AttrValue, Attribute, OpKind, OpVersion, VERSIONS};
use crate::tensor::Tensor;
use half::{bf16, f16};
use std::panic::{catch_unwind, AssertUnwindSafe};
use test_rng::XorShift64Star as Rng;

/// Calls per operator version; with 19 versions this is several thousand calls in all.
const ROUNDS: usize = 1500;

/// Element types that can be drawn at random, with special values over-represented.
trait Random: Sized {
    fn random(rng: &mut Rng) -> Self;
}

/// f32 codes worth hitting: signed zeros, subnormal edges, NaN payloads of both signs and
/// quiet/signalling kinds, infinities, and the edges of the small formats (f16 max, float8
/// max values, float4 max).
#[rustfmt::skip]
const F32_SPECIAL: [u32; 18] = [
    0x0000_0000, 0x8000_0000, 0x0000_0001, 0x807F_FFFF, 0x0080_0000, 0x7F7F_FFFF, 0xFF7F_FFFF,
    0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0xFFC0_0001, 0x7F80_0001, 0xFFBF_FFFF, 0x477F_E000,
    0x43E0_0000, 0x4760_0000, 0x40C0_0000, 0x3F80_0000,
];

/// f64 codes worth hitting, in the same spirit.
#[rustfmt::skip]
const F64_SPECIAL: [u64; 12] = [
    0x0000_0000_0000_0000, 0x8000_0000_0000_0000, 0x0000_0000_0000_0001, 0x800F_FFFF_FFFF_FFFF,
    0x7FEF_FFFF_FFFF_FFFF, 0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000, 0x7FF8_0000_0000_0000,
    0xFFF8_0000_0000_0001, 0x7FF0_0000_0000_0001, 0x47EF_FFFF_E000_0000, 0x36A0_0000_0000_0000,
];

impl Random for f32 {
    fn random(rng: &mut Rng) -> Self {
        match rng.below(4) {
            0 => f32::from_bits(*rng.pick(&F32_SPECIAL)),
            1 => f32::from_bits(rng.next_u64() as u32),
            // Small integers and halves, near rounding ties of the narrow formats.
            2 => (rng.below(2001) as f32 - 1000.0) / 2.0,
            _ => f32::from_bits(rng.pick(&F32_SPECIAL).wrapping_add(rng.below(3) as u32)),
        }
    }
}

impl Random for f64 {
    fn random(rng: &mut Rng) -> Self {
        match rng.below(4) {
            0 => f64::from_bits(*rng.pick(&F64_SPECIAL)),
            1 => f64::from_bits(rng.next_u64()),
            2 => f64::from(f32::random(rng)),
            _ => (rng.below(1 << 20) as f64 - 524288.0) / 64.0,
        }
    }
}

macro_rules! random_from_bits {
    ($($t:ty => |$b:ident| $make:expr),* $(,)?) => {$(
        impl Random for $t {
            fn random(rng: &mut Rng) -> Self {
                let $b = rng.next_u64();
                $make
            }
        }
    )*};
}

random_from_bits!(
    u8 => |b| b as u8,
    i8 => |b| b as i8,
    u16 => |b| b as u16,
    i16 => |b| b as i16,
    u32 => |b| b as u32,
    i32 => |b| b as i32,
    u64 => |b| b,
    i64 => |b| b as i64,
    bool => |b| b & 1 == 1,
    f16 => |b| f16::from_bits(b as u16),
    bf16 => |b| bf16::from_bits(b as u16),
    F8E4M3FN => |b| F8E4M3FN::from_bits(b as u8),
    F8E4M3FNUZ => |b| F8E4M3FNUZ::from_bits(b as u8),
    F8E5M2 => |b| F8E5M2::from_bits(b as u8),
    F8E5M2FNUZ => |b| F8E5M2FNUZ::from_bits(b as u8),
    F8E8M0 => |b| F8E8M0::from_bits(b as u8),
    F4E2M1 => |b| F4E2M1::from_bits(b as u8),
    F6E2M3 => |b| F6E2M3::from_bits(b as u8),
    F6E3M2 => |b| F6E3M2::from_bits(b as u8),
    U4 => |b| U4::from_bits(b as u8),
    I4 => |b| I4::from_bits(b as u8),
    U2 => |b| U2::from_bits(b as u8),
    I2 => |b| I2::from_bits(b as u8),
);

impl Random for Complex64 {
    fn random(rng: &mut Rng) -> Self {
        Complex64 {
            re: f32::random(rng),
            im: f32::random(rng),
        }
    }
}

impl Random for Complex128 {
    fn random(rng: &mut Rng) -> Self {
        Complex128 {
            re: f64::random(rng),
            im: f64::random(rng),
        }
    }
}

/// Strings a parser might trip on: odd spellings of the specials, out-of-range and
/// malformed numbers, non-ASCII digits and spaces, control characters.
#[rustfmt::skip]
const ODD_STRINGS: &[&str] = &[
    "", " ", "0", "-0", "+0", "1e309", "-1e309", "1e-400", "NaN", "nan", "-NaN", "+nan", "INF",
    "+INF", "-inf", "Infinity", "-infinity", "infinit", "1_000", "0x10", "1e", "e5", ".", "-.5",
    "+.5e-3", "5.", "\u{661}\u{662}", "\u{1d7d9}", "\u{0}", "\u{feff}1", "1\u{a0}", "\t7\n",
    "999999999999999999999999999999999999999999", "-170141183460469231731687303715884105729",
    "340282366920938463463374607431768211456", "true", "FALSE", "tRuE ", "\u{1f600}", "--1",
    "1e+", "1.5e999999999999999999", "0.0000000000000000000000000000000000000000000001401298",
    "65504", "65520", "448", "464", "57344", "6", "-7", "7.5", "1e38", "3.4028236e38",
];

impl Random for String {
    fn random(rng: &mut Rng) -> Self {
        match rng.below(4) {
            0 | 1 => (*rng.pick(ODD_STRINGS)).to_owned(),
            2 => f64::random(rng).to_string(),
            // Random code points, some outside ASCII.
            _ => (0..rng.below(6))
                .filter_map(|_| char::from_u32(rng.next_u64() as u32 % 0x3_0000))
                .collect(),
        }
    }
}

macro_rules! define_random_storage {
    ($((
        $variant:ident, $code:literal, $name:literal, $ty:ty, $bits:literal, $field:ident,
        $kind:ident, $short:literal
    )),* $(,)?) => {
        /// `n` random elements of type `dtype`.
        fn random_storage(rng: &mut Rng, dtype: DataType, n: usize) -> Storage {
            match dtype {
                $(DataType::$variant => {
                    Storage::$variant((0..n).map(|_| <$ty>::random(rng)).collect())
                })*
            }
        }
    };
}
crate::for_each_dtype!(define_random_storage);

/// A random shape of rank 0 to 4 with few elements; sometimes a zero dim beside a huge one.
fn random_shape(rng: &mut Rng) -> Vec<usize> {
    let rank = rng.below(5);
    let mut shape: Vec<usize> = (0..rank).map(|_| rng.below(4)).collect();
    if rank > 0 && rng.chance(5) {
        let huge = *rng.pick(&[usize::MAX, 1 << 40, usize::MAX / 2 + 1]);
        let i = rng.below(rank);
        shape[i] = huge;
    }
    shape
}

/// A random tensor of `dtype` and `shape`; a shape whose element count overflows or is
/// large falls back to a small one (the tensor type itself rejects those).
fn random_tensor(rng: &mut Rng, dtype: DataType, shape: Vec<usize>) -> Tensor {
    let n = crate::tensor::element_count(&shape).filter(|&n| n <= 64);
    let (shape, n) = match n {
        Some(n) => (shape, n),
        None => (vec![2], 2),
    };
    let storage = random_storage(rng, dtype, n);
    Tensor::new(shape, storage).expect("shape matches the element count")
}

/// A random attribute value: the right kind with odd values, or the wrong kind.
fn random_value(rng: &mut Rng) -> AttrValue {
    let ints = [
        0,
        1,
        -1,
        2,
        8,
        17,
        24,
        26,
        27,
        i64::MIN,
        i64::MAX,
        1 << 32,
        -(1 << 40),
    ];
    let names = [
        "FLOAT",
        "STRING",
        "BFLOAT16",
        "FLOAT8E8M0",
        "UINT2",
        "up",
        "down",
        "nearest",
        "",
        "UP",
        "float",
        "FLOAT ",
        "\u{0}",
    ];
    match rng.below(9) {
        0 | 1 => AttrValue::Int(*rng.pick(&ints)),
        2 => AttrValue::Int(rng.below(60) as i64 - 30),
        3 => AttrValue::String(rng.pick(&names).as_bytes().to_vec()),
        4 => AttrValue::String(vec![0xFF, 0xFE, rng.next_u64() as u8]),
        5 => AttrValue::Float(f32::random(rng)),
        6 => AttrValue::Ints(vec![rng.next_u64() as i64; rng.below(3)]),
        7 => {
            let dtype = *rng.pick(DataType::ALL);
            AttrValue::Tensor(random_tensor(rng, dtype, vec![1]))
        }
        _ => match rng.below(3) {
            0 => AttrValue::Floats(vec![f32::NAN]),
            1 => AttrValue::Strings(vec![b"to".to_vec()]),
            _ => AttrValue::Other(rng.next_u64() as i32),
        },
    }
}

/// What the generator knows of one operator version.
struct Version {
    version: OpVersion,
    /// The types its table row allows.
    types: Vec<DataType>,
    /// The attribute names it defines.
    attrs: Vec<&'static str>,
}

/// A type the version allows (mostly).
fn random_dtype(rng: &mut Rng, allowed: &[DataType]) -> DataType {
    if allowed.is_empty() || rng.chance(20) {
        *rng.pick(DataType::ALL)
    } else {
        *rng.pick(allowed)
    }
}

/// A plausible value for a named attribute of `version`, so that calls reach the kernels.
fn plausible_value(rng: &mut Rng, v: &Version, name: &str) -> AttrValue {
    match name {
        "to" if v.version.since() == 1 => {
            AttrValue::String(random_dtype(rng, &v.types).name().as_bytes().to_vec())
        }
        "to" if rng.chance(10) => AttrValue::Int(rng.below(30) as i64 - 1),
        "to" => AttrValue::Int(i64::from(random_dtype(rng, &v.types).code())),
        "saturate" => AttrValue::Int(rng.below(2) as i64),
        "round_mode" => AttrValue::String(rng.pick(&["up", "down", "nearest"]).as_bytes().to_vec()),
        "axis" => AttrValue::Int(rng.below(9) as i64 - 4),
        _ => random_value(rng),
    }
}

/// An attribute list: the version's own attributes with plausible values, half of the time
/// with random edits (drop, duplicate, rename, re-type, add a stranger).
fn random_attrs(rng: &mut Rng, v: &Version) -> Vec<Attribute> {
    let mut attrs: Vec<Attribute> = v
        .attrs
        .iter()
        .map(|&name| Attribute {
            name: name.to_owned(),
            value: plausible_value(rng, v, name),
        })
        .collect();
    let all_names = [
        "to",
        "saturate",
        "round_mode",
        "axis",
        "keepdims",
        "",
        "To",
        "to\u{0}",
    ];
    let edits = if rng.chance(50) { 0 } else { 1 + rng.below(2) };
    for _ in 0..edits {
        let i = rng.below(attrs.len() + 1);
        match rng.below(5) {
            0 if i < attrs.len() => drop(attrs.remove(i)),
            1 if i < attrs.len() => attrs.push(attrs[i].clone()),
            2 if i < attrs.len() => attrs[i].value = random_value(rng),
            3 if i < attrs.len() => attrs[i].name = (*rng.pick(&all_names)).to_owned(),
            _ => attrs.push(Attribute {
                name: (*rng.pick(&all_names)).to_owned(),
                value: random_value(rng),
            }),
        }
    }
    attrs
}

/// Random inputs: usually the count and (for Concat) the shapes the operator wants, so that
/// calls reach the kernels; sometimes anything.
fn random_inputs(rng: &mut Rng, v: &Version) -> Vec<Tensor> {
    let count = match v.version.op() {
        _ if rng.chance(15) => rng.below(6),
        OpKind::Cast => 1,
        OpKind::CastLike => 2,
        OpKind::Concat => 1 + rng.below(4),
    };
    let dtype = random_dtype(rng, &v.types);
    let base = random_shape(rng);
    (0..count)
        .map(|_| {
            let t = match v.version.op() {
                OpKind::Concat if rng.chance(90) => dtype,
                _ => random_dtype(rng, &v.types),
            };
            let mut shape = if rng.chance(70) {
                base.clone()
            } else {
                random_shape(rng)
            };
            if !shape.is_empty() && rng.chance(50) {
                let axis = rng.below(shape.len());
                shape[axis] = rng.below(4);
            }
            random_tensor(rng, t, shape)
        })
        .collect()
}

/// One call: whether it returned `Ok`, or a description of its inputs if it panicked.
fn call(version: OpVersion, attrs: &[Attribute], inputs: &[Tensor]) -> Result<bool, String> {
    let refs: Vec<&Tensor> = inputs.iter().collect();
    catch_unwind(AssertUnwindSafe(|| run(version, attrs, &refs).is_ok()))
        .map_err(|_| format!("{version} panicked; attrs {attrs:?}; inputs {inputs:?}"))
}

#[test]
fn run_never_panics_on_random_nodes() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let versions: Vec<Version> = VERSIONS
        .iter()
        .map(|s| Version {
            version: s.version(),
            types: s.types.iter().collect(),
            attrs: s.attrs.iter().map(|a| a.name).collect(),
        })
        .collect();
    let mut panics = Vec::new();
    let (mut ok, mut calls) = (0usize, 0usize);
    for _ in 0..ROUNDS {
        for v in &versions {
            let attrs = random_attrs(&mut rng, v);
            let inputs = random_inputs(&mut rng, v);
            calls += 1;
            match call(v.version, &attrs, &inputs) {
                Ok(succeeded) => ok += usize::from(succeeded),
                Err(report) => panics.push(report),
            }
        }
        if panics.len() >= 3 {
            break;
        }
    }
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
    // The generator must reach the kernels, not only the argument checks.
    assert!(ok * 4 >= calls, "only {ok} of {calls} calls succeeded");
}

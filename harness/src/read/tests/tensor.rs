//! Tests of TensorProto decoding: every data type through raw_data and its typed field, the
//! packing and masking rules, spec vectors, and every refused header.

use super::super::decode_tensor;
use super::{decode, error_of, header};
use crate::proto::TensorProto;
use half::{bf16, f16};
use prost::Message;
use vocab::elements::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};
use vocab::{with_storage, DataType, Storage, TypedField};

/// An element's bits, written as plainly as possible and independently of the reader.
trait Bits {
    fn bits(&self) -> u128;
}

macro_rules! bits {
    ($($ty:ty => |$v:ident| $e:expr;)*) => {$(
        impl Bits for $ty {
            fn bits(&self) -> u128 {
                let $v = *self;
                $e
            }
        }
    )*};
}

bits! {
    f32 => |v| v.to_bits().into();
    f64 => |v| v.to_bits().into();
    f16 => |v| v.to_bits().into();
    bf16 => |v| v.to_bits().into();
    u8 => |v| v.into();
    u16 => |v| v.into();
    u32 => |v| v.into();
    u64 => |v| v.into();
    i8 => |v| u128::from(v.to_le_bytes()[0]);
    i16 => |v| u16::from_le_bytes(v.to_le_bytes()).into();
    i32 => |v| u32::from_le_bytes(v.to_le_bytes()).into();
    i64 => |v| u64::from_le_bytes(v.to_le_bytes()).into();
    bool => |v| u128::from(v);
    F8E4M3FN => |v| v.to_bits().into();
    F8E4M3FNUZ => |v| v.to_bits().into();
    F8E5M2 => |v| v.to_bits().into();
    F8E5M2FNUZ => |v| v.to_bits().into();
    F8E8M0 => |v| v.to_bits().into();
    F4E2M1 => |v| v.to_bits().into();
    F6E2M3 => |v| v.to_bits().into();
    F6E3M2 => |v| v.to_bits().into();
    U4 => |v| v.to_bits().into();
    I4 => |v| v.to_bits().into();
    U2 => |v| v.to_bits().into();
    I2 => |v| v.to_bits().into();
    Complex64 => |v| u128::from(v.re.to_bits()) | u128::from(v.im.to_bits()) << 32;
    Complex128 => |v| u128::from(v.re.to_bits()) | u128::from(v.im.to_bits()) << 64;
}

impl Bits for String {
    fn bits(&self) -> u128 {
        unreachable!("strings have no bits")
    }
}

fn codes_of(storage: &Storage) -> Vec<u128> {
    with_storage!(storage, v => v.iter().map(Bits::bits).collect())
}

/// `n` distinct-looking codes of `bits` bits with the top bit set in some (bool: 0 or 1).
fn sample_codes(dtype: DataType, n: usize) -> Vec<u128> {
    let bits = dtype.bit_width();
    (0..n as u128)
        .map(|i| match dtype {
            DataType::Bool => i % 2,
            _ => {
                let spread = (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);
                spread >> (128 - bits)
            }
        })
        .collect()
}

/// Little-endian raw bytes of `codes`, packing sub-byte elements from the low bits up.
fn raw_bytes(codes: &[u128], bits: u32) -> Vec<u8> {
    let total_bits = codes.len() * bits as usize;
    let mut out = vec![0u8; total_bits.div_ceil(8)];
    for (i, &c) in codes.iter().enumerate() {
        for b in 0..bits as usize {
            let bit = i * bits as usize + b;
            out[bit / 8] |= (((c >> b) & 1) as u8) << (bit % 8);
        }
    }
    out
}

/// Fills the typed field of `dtype` with `codes` the way writers do: packed bytes as
/// sign-extended int32 (as onnx 1.16.2 did), INT8/INT16 sign-extended, complex as pairs.
fn fill_typed(tp: &mut TensorProto, dtype: DataType, codes: &[u128]) {
    let bits = dtype.bit_width();
    match dtype.typed_field() {
        TypedField::FloatData => {
            let words = codes
                .iter()
                .flat_map(|&c| (0..bits / 32).map(move |k| c >> (32 * k)));
            tp.float_data = words.map(|w| f32::from_bits(w as u32)).collect();
        }
        TypedField::DoubleData => {
            let words = codes
                .iter()
                .flat_map(|&c| (0..bits / 64).map(move |k| c >> (64 * k)));
            tp.double_data = words.map(|w| f64::from_bits(w as u64)).collect();
        }
        // The 4- and 2-bit types pack bytes; the float6 types keep one code per entry.
        TypedField::Int32Data if bits < 8 && 8 % bits == 0 => {
            let packed = raw_bytes(codes, bits);
            tp.int32_data = packed.iter().map(|&b| i32::from(b as i8)).collect();
        }
        TypedField::Int32Data => {
            tp.int32_data = codes
                .iter()
                .map(|&c| match dtype {
                    DataType::Int8 => i32::from(c as u8 as i8),
                    DataType::Int16 => i32::from(c as u16 as i16),
                    _ => c as u32 as i32,
                })
                .collect();
        }
        TypedField::Int64Data => tp.int64_data = codes.iter().map(|&c| c as i64).collect(),
        TypedField::Uint64Data => tp.uint64_data = codes.iter().map(|&c| c as u64).collect(),
        TypedField::StringData => unreachable!("strings are tested separately"),
    }
}

fn numeric_types() -> impl Iterator<Item = DataType> {
    DataType::ALL
        .iter()
        .copied()
        .filter(|&d| d != DataType::String)
}

#[test]
fn every_numeric_type_from_raw_data() {
    for dtype in numeric_types() {
        for n in [0usize, 1, 5, 7, 8] {
            let codes = sample_codes(dtype, n);
            let mut tp = header(dtype, &[n as i64]);
            tp.raw_data = Some(raw_bytes(&codes, dtype.bit_width()));
            let t = decode(&tp, Some(dtype)).unwrap_or_else(|e| panic!("{dtype} n={n}: {e}"));
            assert_eq!(t.dtype(), dtype);
            assert_eq!(t.shape(), &[n]);
            assert_eq!(codes_of(t.storage()), codes, "{dtype} n={n}");
        }
    }
}

#[test]
fn every_numeric_type_from_its_typed_field() {
    for dtype in numeric_types() {
        for n in [1usize, 3, 6, 7] {
            let codes = sample_codes(dtype, n);
            let mut tp = header(dtype, &[n as i64, 1]);
            fill_typed(&mut tp, dtype, &codes);
            let t = decode(&tp, None).unwrap_or_else(|e| panic!("{dtype} n={n}: {e}"));
            assert_eq!((t.dtype(), t.shape()), (dtype, &[n, 1][..]));
            assert_eq!(codes_of(t.storage()), codes, "{dtype} n={n}");
        }
    }
}

#[test]
fn raw_data_wins_over_the_typed_field() {
    let mut tp = header(DataType::Float, &[1]);
    tp.raw_data = Some(1.5f32.to_le_bytes().to_vec());
    tp.float_data = vec![7.0];
    let t = decode(&tp, None).unwrap();
    assert_eq!(t.as_slice::<f32>(), Some(&[1.5f32][..]));
}

#[test]
fn scalar_and_empty_tensors() {
    let mut scalar = header(DataType::Int64, &[]);
    scalar.int64_data = vec![-3];
    let t = decode(&scalar, None).unwrap();
    assert_eq!(
        (t.shape(), t.as_slice::<i64>()),
        (&[][..], Some(&[-3i64][..]))
    );
    // 1.19.1+ CastLike `like` inputs: dims [0] and no data field at all.
    let t = decode(&header(DataType::Bfloat16, &[0]), None).unwrap();
    assert_eq!(
        (t.shape(), t.len(), t.dtype()),
        (&[0][..], 0, DataType::Bfloat16)
    );
    let t = decode(&header(DataType::String, &[2, 0]), None).unwrap();
    assert_eq!((t.shape(), t.len()), (&[2, 0][..], 0));
}

#[test]
fn int32_data_is_masked_to_the_element_width() {
    let mut tp = header(DataType::Int8, &[2]);
    tp.int32_data = vec![-8, 127];
    assert_eq!(
        decode(&tp, None).unwrap().as_slice::<i8>(),
        Some(&[-8i8, 127][..])
    );
    let mut tp = header(DataType::Float16, &[1]);
    tp.int32_data = vec![64512];
    let t = decode(&tp, None).unwrap();
    assert_eq!(t.as_slice::<f16>(), Some(&[f16::NEG_INFINITY][..]));
    let mut tp = header(DataType::Uint16, &[1]);
    tp.int32_data = vec![65535];
    assert_eq!(
        decode(&tp, None).unwrap().as_slice::<u16>(),
        Some(&[u16::MAX][..])
    );
}

#[test]
fn unsigned_32_and_64_come_from_uint64_data() {
    let mut tp = header(DataType::Uint32, &[2]);
    tp.uint64_data = vec![u64::from(u32::MAX), 7];
    assert_eq!(
        decode(&tp, None).unwrap().as_slice::<u32>(),
        Some(&[u32::MAX, 7][..])
    );
    let mut tp = header(DataType::Uint64, &[1]);
    tp.uint64_data = vec![u64::MAX];
    assert_eq!(
        decode(&tp, None).unwrap().as_slice::<u64>(),
        Some(&[u64::MAX][..])
    );
    let mut tp = header(DataType::Uint32, &[1]);
    tp.int32_data = vec![1];
    let e = error_of(&tp, None);
    assert!(
        e.contains("must be in uint64_data") && e.contains("int32_data"),
        "{e}"
    );
}

#[test]
fn complex_values_are_pairs() {
    let mut tp = header(DataType::Complex64, &[2]);
    tp.float_data = vec![1.0, 2.0, 3.0, -4.0];
    let t = decode(&tp, None).unwrap();
    let expected = [
        Complex64 { re: 1.0, im: 2.0 },
        Complex64 { re: 3.0, im: -4.0 },
    ];
    assert_eq!(t.as_slice::<Complex64>(), Some(&expected[..]));
    let mut tp = header(DataType::Complex128, &[1]);
    tp.raw_data = Some([0.5f64.to_le_bytes(), (-2.0f64).to_le_bytes()].concat());
    let t = decode(&tp, None).unwrap();
    assert_eq!(
        t.as_slice::<Complex128>(),
        Some(&[Complex128 { re: 0.5, im: -2.0 }][..])
    );
}

#[test]
fn strings_are_utf8_entries() {
    let mut tp = header(DataType::String, &[2]);
    tp.string_data = vec![b"0.9767611".to_vec(), "\u{e9}".as_bytes().to_vec()];
    let t = decode(&tp, None).unwrap();
    let expected = ["0.9767611".to_string(), "\u{e9}".to_string()];
    assert_eq!(t.as_slice::<String>(), Some(&expected[..]));
}

/// Old writers may emit repeated scalars unpacked; both wire forms must decode.
#[test]
fn unpacked_repeated_fields_decode() {
    // dims=2 (unpacked), data_type=INT32, int32_data 1 and -1 as two unpacked varints.
    let mut wire = vec![0x08, 0x02, 0x10, 0x06, 0x28, 0x01, 0x28];
    wire.extend([0xff; 9]);
    wire.push(0x01);
    let tp = TensorProto::decode(wire.as_slice()).unwrap();
    let t = decode_tensor(&tp, None).unwrap();
    assert_eq!(t.as_slice::<i32>(), Some(&[1, -1][..]));
}

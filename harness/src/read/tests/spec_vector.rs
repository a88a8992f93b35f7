//! TensorProto decoding checked against the byte vectors quoted in docs/semantics.md (sections 3
//! and 4): INT4 in both 1.16.2 and 1.17.0 forms, FLOAT4E2M1, 2-bit, float8, bfloat16 as UINT16.

use super::{decode, error_of, header};
use half::bf16;
use vocab::elements::{F4E2M1, F8E4M3FN, I2, I4, U2};
use vocab::{DataType, Tensor};

fn int4_values(t: &Tensor) -> Vec<i8> {
    t.as_slice::<I4>()
        .unwrap()
        .iter()
        .map(|v| v.get())
        .collect()
}

/// Spec 4.1: the INT4 bytes of test_cast_FLOAT_to_INT4 as 1.16.2 (sign-extended) and 1.17.0
/// (unsigned) wrote them decode to the same 25 values.
#[test]
fn int4_negative_int32_entries_of_onnx_1_16_2() {
    let expected: [i8; 25] = [
        -8, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    ];
    let old = [-120, -87, -53, -19, 15, 33, 67, 101, 119, 119, 119, 119, 7];
    let new = [136, 169, 203, 237, 15, 33, 67, 101, 119, 119, 119, 119, 7];
    for entries in [old, new] {
        let mut tp = header(DataType::Int4, &[5, 5]);
        tp.int32_data = entries.to_vec();
        assert_eq!(int4_values(&decode(&tp, None).unwrap()), expected);
    }
}

/// Spec 3.8: INT4 raw `87 a9 cb ed 0f 21 43 65 87 a9 cb ed 0f` is the INT8 row 07 f8 f9 ...
#[test]
fn int4_raw_bytes_of_the_spec() {
    let mut tp = header(DataType::Int4, &[25]);
    tp.raw_data = Some(vec![
        0x87, 0xa9, 0xcb, 0xed, 0x0f, 0x21, 0x43, 0x65, 0x87, 0xa9, 0xcb, 0xed, 0x0f,
    ]);
    let head: Vec<i8> = [
        0x07u8, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff, 0x00, 0x01,
    ]
    .iter()
    .map(|&b| b as i8)
    .collect();
    let values = int4_values(&decode(&tp, None).unwrap());
    assert_eq!(&values[..11], &head[..]);
    assert_eq!((values[16], values[17], values[24]), (7, -8, -1));
}

/// Spec 3.8: FLOAT4E2M1 codes `1 0 2 E F 7 7 0 8 7 7 F E 0 8` packed, and the 1.18.0 int32_data
/// of the opset-23 row (NaN slot 7).
#[test]
fn float4_packing_of_the_spec() {
    let codes = |t: &Tensor| -> Vec<u8> {
        t.as_slice::<F4E2M1>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect()
    };
    let mut tp = header(DataType::Float4E2M1, &[3, 5]);
    tp.raw_data = Some(vec![0x01, 0xe2, 0x7f, 0x07, 0x78, 0xf7, 0x0e, 0x08]);
    let row = [1, 0, 2, 0xE, 0xF, 7, 7, 0, 8, 7, 7, 0xF, 0xE, 0, 8];
    assert_eq!(codes(&decode(&tp, None).unwrap()), row);
    let mut tp = header(DataType::Float4E2M1, &[3, 5]);
    tp.int32_data = vec![1, 226, 127, 7, 119, 247, 14, 8];
    let mut row23 = row;
    row23[8] = 7;
    assert_eq!(codes(&decode(&tp, None).unwrap()), row23);
}

#[test]
fn two_bit_elements_fill_a_byte_from_bit_0() {
    let mut tp = header(DataType::Uint2, &[5]);
    tp.raw_data = Some(vec![0b11_10_01_00, 0b0000_0010]);
    let t = decode(&tp, None).unwrap();
    let v: Vec<u8> = t
        .as_slice::<U2>()
        .unwrap()
        .iter()
        .map(|v| v.to_bits())
        .collect();
    assert_eq!(v, [0, 1, 2, 3, 2]);
    let mut tp = header(DataType::Int2, &[5]);
    tp.int32_data = vec![0b11_10_01_00, 0b10];
    let t = decode(&tp, None).unwrap();
    let v: Vec<i8> = t
        .as_slice::<I2>()
        .unwrap()
        .iter()
        .map(|v| v.get())
        .collect();
    assert_eq!(v, [0, 1, -2, -1, -2]);
}

/// Spec 3.5: the saturating E4M3FN row as 1.14.1-1.18.0 stored it (int32_data).
#[test]
fn float8_codes_of_the_spec() {
    let row = [
        0x2f, 0x2f, 0x30, 0x35, 0x2f, 0x34, 0x7e, 0x00, 0x7f, 0x7e, 0x7e, 0xfe, 0x80, 0x00, 0xfe,
    ];
    let mut tp = header(DataType::Float8E4M3FN, &[3, 5]);
    tp.int32_data = row.to_vec();
    let t = decode(&tp, None).unwrap();
    let got: Vec<i32> = t
        .as_slice::<F8E4M3FN>()
        .unwrap()
        .iter()
        .map(|v| v.to_bits().into())
        .collect();
    assert_eq!(got, row);
}

/// Spec 4.3: 1.8.1-1.18.0 store bfloat16 as UINT16; the declared BFLOAT16 wins.
#[test]
fn uint16_data_is_read_as_declared_bfloat16() {
    let mut tp = header(DataType::Uint16, &[2]);
    tp.raw_data = Some(vec![0xf5, 0x3e, 0x80, 0xff]);
    let t = decode(&tp, Some(DataType::Bfloat16)).unwrap();
    let bits: Vec<u16> = t
        .as_slice::<bf16>()
        .unwrap()
        .iter()
        .map(|v| v.to_bits())
        .collect();
    assert_eq!(bits, [0x3ef5, 0xff80]);
    // The reverse is not a documented writer quirk.
    let mut tp = header(DataType::Bfloat16, &[1]);
    tp.raw_data = Some(vec![0, 0]);
    let e = error_of(&tp, Some(DataType::Uint16));
    assert!(
        e.contains("data_type is BFLOAT16 but the graph declares UINT16"),
        "{e}"
    );
}

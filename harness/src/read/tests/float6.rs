//! Float6 storage (docs/semantics.md §5.3): `raw_data` four codes in three bytes with zero
//! padding, `int32_data` one code per entry with bits 6-31 zero. The accepted bytes are those
//! onnx 1.23.2 wrote for the same values (`numpy_helper.from_array` and `helper.make_tensor`
//! on FLOAT6E2M3 [0.5, -7.5, 1.0, 0.125, 3.0], codes 4, 63, 8, 1, 20); every refusal is one
//! onnx's checker makes too, except the long `raw_data`, which every type refuses.

use super::{decode, error_of, header};
use crate::read::tensor_codes;
use vocab::DataType;

const CODES: [u128; 5] = [4, 63, 8, 1, 20];

fn codes_of(tp: &crate::proto::TensorProto) -> Vec<u128> {
    let t = decode(tp, None).expect("decodes");
    assert_eq!(t.dtype(), DataType::Float6E2M3);
    tensor_codes(&t).expect("codes")
}

#[test]
fn raw_data_and_int32_data_as_onnx_writes_them() {
    let mut tp = header(DataType::Float6E2M3, &[5]);
    tp.raw_data = Some(vec![0xc4, 0x8f, 0x04, 0x14]);
    assert_eq!(codes_of(&tp), CODES);
    let mut tp = header(DataType::Float6E2M3, &[5]);
    tp.int32_data = vec![4, 63, 8, 1, 20];
    assert_eq!(codes_of(&tp), CODES);
}

#[test]
fn non_zero_padding_is_refused_naming_the_bits() {
    // Five codes take bits 0-29; bits 30-31 of the last byte are padding.
    let mut tp = header(DataType::Float6E2M3, &[5]);
    tp.raw_data = Some(vec![0xc4, 0x8f, 0x04, 0x54]);
    let e = error_of(&tp, None);
    assert!(e.starts_with("tensor 't' (FLOAT6E2M3, dims [5]): raw_data's padding bits are not zero: bits 6-7 of its last byte (0x54)"), "{e}");
    assert!(e.contains("hold 0x1"), "{e}");
    // A whole group has no padding, and the 4-bit types' padding is not checked.
    let mut tp = header(DataType::Float6E3M2, &[4]);
    tp.raw_data = Some(vec![0xff; 3]);
    assert_eq!(codes_of_any(&tp), [0x3f; 4]);
    let mut tp = header(DataType::Int4, &[1]);
    tp.raw_data = Some(vec![0xf1]);
    assert_eq!(codes_of_any(&tp), [1]);
}

fn codes_of_any(tp: &crate::proto::TensorProto) -> Vec<u128> {
    tensor_codes(&decode(tp, None).expect("decodes")).expect("codes")
}

#[test]
fn raw_data_of_any_other_length_is_refused() {
    for (len, word) in [(3, "3 bytes"), (5, "5 bytes")] {
        let mut tp = header(DataType::Float6E2M3, &[5]);
        tp.raw_data = Some(vec![0; len]);
        let e = error_of(&tp, None);
        assert!(
            e.contains(&format!(
                "raw_data holds {word}, but 5 FLOAT6E2M3 elements need exactly 4"
            )),
            "{e}"
        );
    }
}

#[test]
fn int32_data_entries_outside_bits_0_to_5_are_refused_not_masked() {
    for (entry, shown) in [
        (64, "64 (0x40)"),
        (-1, "-1 (0xffffffff)"),
        (0x100, "256 (0x100)"),
    ] {
        let mut tp = header(DataType::Float6E3M2, &[3]);
        tp.int32_data = vec![1, entry, 2];
        let e = error_of(&tp, None);
        assert!(
            e.contains(&format!(
                "int32_data entry 1 is {shown}, not a FLOAT6E3M2 code"
            )),
            "{e}"
        );
        assert!(e.contains("bits 6-31 zero"), "{e}");
    }
    let mut tp = header(DataType::Float6E3M2, &[3]);
    tp.int32_data = vec![1, 2];
    let e = error_of(&tp, None);
    assert!(
        e.contains("int32_data holds 2 entries, but 3 FLOAT6E3M2 elements need exactly 3"),
        "{e}"
    );
    assert!(!e.contains("packed bytes"), "{e}");
}

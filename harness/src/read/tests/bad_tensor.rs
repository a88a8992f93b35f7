//! TensorProto headers and payloads the reader must refuse, each with a message naming the
//! tensor and the problem.

use super::{error_of, header};
use crate::proto::{Segment, StringStringEntryProto, TensorProto};
use vocab::DataType;

/// The corrupt 1.4.1 string data: dims [3, 4] but three 32-byte pointer values.
#[test]
fn corrupt_strings_of_onnx_1_4_1() {
    let mut tp = header(DataType::String, &[3, 4]);
    tp.string_data = (0..3u8).map(|i| [0xf0, 0xce, 0x97, i].repeat(8)).collect();
    let e = error_of(&tp, Some(DataType::String));
    assert!(e.contains("declare 12 elements"), "{e}");
    assert!(e.contains("holds 3 entries"), "{e}");
    assert!(e.contains("entries 0, 1, 2 are not UTF-8"), "{e}");
    let mut tp = header(DataType::String, &[2]);
    tp.string_data = vec![b"ok".to_vec(), vec![0xff, 0xfe]];
    let e = error_of(&tp, None);
    assert!(
        e.contains("string_data entry 1 is not UTF-8 (2 bytes: ff fe)"),
        "{e}"
    );
    let mut tp = header(DataType::String, &[1]);
    tp.raw_data = Some(b"x".to_vec());
    assert!(error_of(&tp, None).contains("strings must be in string_data"));
}

#[test]
fn bad_headers_are_refused() {
    let check = |tp: TensorProto, declared: Option<DataType>, needle: &str| {
        let e = error_of(&tp, declared);
        assert!(e.contains(needle), "expected {needle:?} in {e:?}");
        assert!(e.starts_with("tensor 't'"), "{e}");
    };
    check(
        header(DataType::Float, &[2, -1]),
        None,
        "contain negative -1",
    );
    check(
        header(DataType::Float, &[i64::MAX, 4]),
        None,
        "more than 2147483648 elements",
    );
    check(
        header(DataType::Uint8, &[1 << 16, 1 << 16]),
        None,
        "refused as corrupt",
    );
    check(
        header(DataType::Uint8, &[0, i64::MAX, 2]),
        None,
        "refused as corrupt",
    );
    check(
        header(DataType::Float, &[3]),
        None,
        "need 3 elements but the tensor holds no data",
    );
    let mut tp = header(DataType::Float, &[1]);
    tp.data_type = 99;
    check(tp.clone(), None, "unknown data_type 99");
    tp.data_type = 0;
    check(tp, None, "data_type is 0 (UNDEFINED)");
    check(
        header(DataType::Float16, &[0]),
        Some(DataType::Float),
        "data_type is FLOAT16 but the graph declares FLOAT",
    );
    let mut tp = header(DataType::Float, &[1]);
    tp.raw_data = Some(vec![0; 3]);
    check(
        tp,
        None,
        "raw_data holds 3 bytes, but 1 FLOAT elements need exactly 4",
    );
    let mut tp = header(DataType::Int4, &[3]);
    tp.raw_data = Some(vec![0; 1]);
    check(
        tp,
        None,
        "raw_data holds 1 bytes, but 3 INT4 elements need exactly 2",
    );
    let mut tp = header(DataType::Uint4, &[3]);
    tp.int32_data = vec![0; 3];
    check(
        tp,
        None,
        "int32_data holds 3 entries, but 3 UINT4 elements need exactly 2 packed bytes",
    );
    let mut tp = header(DataType::Complex64, &[2]);
    tp.float_data = vec![0.0; 2];
    check(
        tp,
        None,
        "float_data holds 2 entries, but 2 COMPLEX64 elements need exactly 4",
    );
    let mut tp = header(DataType::Float, &[2]);
    tp.int32_data = vec![1, 2];
    check(
        tp,
        None,
        "FLOAT values must be in float_data but the tensor has 2 entries in int32_data",
    );
}

#[test]
fn segments_and_external_data_are_refused() {
    let check = |tp: TensorProto, needle: &str| {
        let e = error_of(&tp, None);
        assert!(e.contains(needle), "expected {needle:?} in {e:?}");
    };
    let mut tp = header(DataType::Float, &[1]);
    tp.segment = Some(Segment { begin: 0, end: 1 });
    check(
        tp,
        "is a segment (begin 0, end 1) of a larger tensor, which is not supported",
    );
    let mut tp = header(DataType::Float, &[1]);
    tp.data_location = 1;
    tp.external_data = vec![StringStringEntryProto {
        key: "location".into(),
        value: "weights.bin".into(),
    }];
    check(
        tp.clone(),
        "uses external data (location 'weights.bin'), which is not supported",
    );
    tp.external_data.clear();
    check(tp.clone(), "uses external data (no location key)");
    tp.data_location = 7;
    check(tp, "unknown data_location 7");
}

/// The limit is 2^31 elements per tensor, and up to it a header is only believed as far as its
/// payload backs it: both are checked before the elements are allocated.
#[test]
fn the_element_limit_is_two_to_the_31_and_the_payload_must_back_the_dims() {
    let e = error_of(&header(DataType::Uint2, &[(1 << 31) + 1]), None);
    assert!(e.contains("more than 2147483648 elements (2^31)"), "{e}");
    let e = error_of(&header(DataType::Bool, &[1 << 16, 0, 1 << 16, 2]), None);
    assert!(e.contains("more than 2147483648 elements"), "{e}");
    // Exactly 2^31 passes the dims check and is then refused for its 4-byte payload, not
    // allocated (2^31 COMPLEX128 elements would be 32 GiB).
    let mut tp = header(DataType::Complex128, &[1 << 31]);
    tp.double_data = vec![0.0; 2];
    let e = error_of(&tp, None);
    assert!(
        e.contains("double_data holds 2 entries, but 2147483648 COMPLEX128 elements need exactly 4294967296"),
        "{e}"
    );
    let mut tp = header(DataType::String, &[1 << 15, 1 << 16]);
    tp.string_data = vec![Vec::new(); 3];
    let e = error_of(&tp, None);
    assert!(
        e.contains("declare 2147483648 elements but string_data holds 3"),
        "{e}"
    );
}

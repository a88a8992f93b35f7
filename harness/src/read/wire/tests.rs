//! The cut around `raw_data`: exact on well-formed messages, refused where it cannot vouch.

use super::split_raw_data;
use crate::proto::TensorProto;
use prost::Message;

fn tensor(raw: Option<Vec<u8>>) -> TensorProto {
    TensorProto {
        dims: vec![3, 1],
        data_type: 1,
        name: "a name".into(),
        raw_data: raw,
        // Field 10, after raw_data on the wire.
        double_data: vec![0.5, -2.0],
        ..Default::default()
    }
}

#[test]
fn the_cut_gives_the_payload_and_the_other_fields_whole() {
    for raw in [
        vec![],
        vec![7u8; 12],
        (0..=255u8).cycle().take(70_000).collect(),
    ] {
        let tp = tensor(Some(raw.clone()));
        let bytes = tp.encode_to_vec();
        let cut = split_raw_data(&bytes).expect("one raw_data");
        assert_eq!(cut.raw, raw.as_slice());
        let rest = [cut.head, cut.tail].concat();
        let decoded = TensorProto::decode(rest.as_slice()).expect("the rest decodes");
        assert_eq!(decoded, tensor(None));
        assert!(!cut.tail.is_empty(), "double_data follows raw_data");
    }
}

#[test]
fn no_cut_without_exactly_one_raw_data_or_on_bad_bytes() {
    assert_eq!(split_raw_data(&tensor(None).encode_to_vec()), None);
    let once = tensor(Some(vec![1, 2, 3, 4])).encode_to_vec();
    // raw_data twice: protobuf keeps the last, which the ordinary decoder applies.
    let twice = [once.as_slice(), &[9 << 3 | 2, 1, 5]].concat();
    assert_eq!(split_raw_data(&twice), None);
    // Cut short inside raw_data, a group's wire type, an endless varint.
    assert_eq!(split_raw_data(&once[..once.len() - 30]), None);
    assert_eq!(
        split_raw_data(&[once.as_slice(), &[3 << 3 | 3]].concat()),
        None
    );
    assert_eq!(split_raw_data(&[0x80; 11]), None);
    assert_eq!(split_raw_data(&[]), None);
}

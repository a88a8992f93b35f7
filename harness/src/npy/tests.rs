//! Unit tests of the `.npy` dumps.

use super::*;
use crate::testkit::scratch;

fn header_and_len(path: &Path) -> (String, usize) {
    let bytes = std::fs::read(path).expect("npy file");
    let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let header = String::from_utf8_lossy(&bytes[10..10 + header_len]).into_owned();
    (header, bytes.len() - 10 - header_len)
}

#[test]
fn writes_native_and_stand_in_types() {
    let dir_tmp = scratch("npy");
    let dir = dir_tmp.path();
    let path = dir.join("a.npy");
    let t = Tensor::from_vec(vec![2, 3], vec![1.5f32; 6]).expect("tensor");
    assert_eq!(write(&path, &t).expect("write"), None);
    let (header, len) = header_and_len(&path);
    assert!(
        header.contains("'<f4'") && header.contains("(2, 3, )"),
        "{header}"
    );
    assert_eq!(len, 24);
    let t = Tensor::from_vec(vec![3], vec![F8E5M2::from_bits(0x7C); 3]).expect("tensor");
    assert!(write(&path, &t).expect("write").is_some());
    let (header, len) = header_and_len(&path);
    assert!(header.contains("'|u1'"), "{header}");
    assert_eq!(len, 3);
    let t = Tensor::from_vec(vec![2], vec!["ab".to_string(), "c".into()]).expect("tensor");
    assert!(write(&path, &t).expect("write").is_some());
    let (header, len) = header_and_len(&path);
    assert!(header.contains("'|S2'"), "{header}");
    assert_eq!(len, 4);
    let t = Tensor::from_vec(vec![], vec![Complex64 { re: 1.0, im: 2.0 }]).expect("tensor");
    write(&path, &t).expect("write");
    assert!(header_and_len(&path).0.contains("(2, )"));
}

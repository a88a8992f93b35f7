//! Unit tests of the TensorProto writer for worker inputs.

use super::*;
use crate::read::decode_tensor;
use vocab::DataType;

/// `n` codes spread over the type's range.
fn spread(dtype: DataType, n: usize) -> Vec<u128> {
    crate::testkit::spread_codes(dtype, n)
}

/// Packs codes one bit at a time: a second, deliberately naive packer.
fn naive_raw(codes: &[u128], bits: u32) -> Vec<u8> {
    let mut out = vec![0u8; (codes.len() * bits as usize).div_ceil(8)];
    for (i, &c) in codes.iter().enumerate() {
        for b in 0..bits as usize {
            let bit = i * bits as usize + b;
            out[bit / 8] |= (((c >> b) & 1) as u8) << (bit % 8);
        }
    }
    out
}

#[test]
fn every_type_round_trips_through_the_reader_with_the_naive_packing() {
    for &dtype in DataType::ALL {
        for n in [0usize, 1, 3, 8] {
            let shape = [n];
            let source = if dtype == DataType::String {
                let strings = (0..n).map(|i| format!("s{i}")).collect();
                let tp = TensorProto {
                    dims: vec![n as i64],
                    data_type: dtype.code(),
                    string_data: (0..n).map(|i| format!("s{i}").into_bytes()).collect(),
                    ..Default::default()
                };
                assert_eq!(
                    decode_tensor(&tp, Some(dtype)).unwrap().storage(),
                    &Storage::String(strings)
                );
                decode_tensor(&tp, Some(dtype)).unwrap()
            } else {
                let codes = spread(dtype, n);
                let tp = TensorProto {
                    dims: vec![n as i64],
                    data_type: dtype.code(),
                    raw_data: Some(naive_raw(&codes, dtype.bit_width())),
                    ..Default::default()
                };
                decode_tensor(&tp, Some(dtype)).unwrap()
            };
            let written = tensor_proto("x", &source);
            assert_eq!(written.data_type, dtype.code(), "{dtype}");
            assert_eq!(written.dims, vec![n as i64]);
            if dtype != DataType::String {
                assert_eq!(
                    written.raw_data.as_deref(),
                    Some(&naive_raw(&spread(dtype, n), dtype.bit_width())[..]),
                    "{dtype} x{n}"
                );
            }
            // Compared by re-encoding, since a NaN element is not equal to itself.
            let back = decode_tensor(&written, Some(dtype)).unwrap();
            assert_eq!(back.shape(), &shape[..]);
            assert_eq!(tensor_proto("x", &back), written, "{dtype} x{n}");
        }
    }
}

/// A worker's input file, streamed from the elements, holds exactly the bytes `encode`
/// gives, for every type and for lengths up to just below where large inputs are aligned, each
/// written over the one before in the same file, longer and shorter.
#[test]
fn a_transient_tensor_file_is_the_encoded_message() {
    let dir = tempfile::tempdir().unwrap();
    for &dtype in DataType::ALL {
        if dtype == DataType::String {
            continue;
        }
        let width = (dtype.bit_width() as usize).div_ceil(8);
        for n in [(super::ALIGNED_FROM as usize - 1) / width, 0, 5, 1] {
            let codes = spread(dtype, n);
            let t = crate::read::tensor_from_codes(dtype, vec![n], &codes).unwrap();
            let path = dir.path().join("input_0.pb");
            write_transient_tensor(&path, "input", &t).unwrap();
            assert_eq!(
                std::fs::read(&path).unwrap(),
                encode("input", &t, Encoding::Onnx),
                "{dtype} x{n}"
            );
        }
    }
}

/// A large worker input puts its `raw_data` at a multiple of 64 bytes, whatever the length of
/// its name, and still reads back as the same tensor; one byte less is written as `encode`
/// writes it.
#[test]
fn a_large_transient_tensor_has_its_raw_data_aligned() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input_0.pb");
    let bytes = super::ALIGNED_FROM as usize;
    let big = Tensor::from_vec(vec![bytes], (0..bytes).map(|i| i as u8).collect()).unwrap();
    // Past one streaming block, cut inside an element's bytes nowhere.
    let n = super::STREAM_BLOCK / 4 + 3;
    let floats = Tensor::from_vec(vec![n], (0..n).map(|i| i as f32).collect()).unwrap();
    for len in 0..=super::ALIGN + 2 {
        let name = "n".repeat(len);
        for t in [&big, &floats]
            .into_iter()
            .take(if len < 3 { 2 } else { 1 })
        {
            write_transient_tensor(&path, &name, t).unwrap();
            let file = std::fs::read(&path).unwrap();
            let raw = t.len() * (t.dtype().bit_width() as usize / 8);
            assert_eq!((file.len() - raw) % super::ALIGN, 0, "name of {len}");
            if len < 3 {
                assert_eq!(&crate::read::read_tensor(&path, None).unwrap(), t);
            }
        }
    }
    let small = Tensor::from_vec(vec![bytes - 1], vec![7u8; bytes - 1]).unwrap();
    write_transient_tensor(&path, "x", &small).unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        encode("x", &small, Encoding::Onnx)
    );
}

//! Randomized no-panic proof for the reader: real-looking encoded TensorProtos and ModelProtos
//! (our own cases under `tests/cases`, and a tensor of every data type through `raw_data` and
//! through its typed field) are truncated, bit-flipped, given injected or duplicated fields,
//! and then decoded, converted, run and compared. Each step must return a value or an error; a
//! panic is reported with the bytes that caused it. Deterministic: fixed-seed xorshift.

use super::super::{convert_model, decode_tensor, tensor_from_bytes, tensor_from_bytes_reusing};
use super::header;
use crate::backend::native::run_graph;
use crate::compare::{compare_outputs, Rule};
use crate::diag::describe;
use crate::proto::{ModelProto, TensorProto};
use prost::Message;
use std::panic::{catch_unwind, AssertUnwindSafe};
use test_rng::XorShift64Star as Rng;
use vocab::{DataType, Tensor, TypedField};

/// Mutants per seed.
const MUTANTS: usize = 300;

/// The encoded model, input tensors and expected output of one of our own cases.
type OwnCase = (&'static [u8], &'static [&'static [u8]], &'static [u8]);

macro_rules! own_case {
    ($dir:literal, [$($input:literal),*], $output:literal) => {
        (
            include_bytes!(concat!("../../../../tests/cases/", $dir, "/model.onnx")) as &[u8],
            &[$(include_bytes!(concat!(
                "../../../../tests/cases/", $dir, "/test_data_set_0/", $input
            )) as &[u8]),*] as &[&[u8]],
            include_bytes!(concat!("../../../../tests/cases/", $dir, "/test_data_set_0/", $output))
                as &[u8],
        )
    };
}

/// Some of our own cases: (model, inputs, expected output), covering Cast-1's string `to`,
/// Concat of strings, bfloat16 and an empty input.
const OWN_CASES: [OwnCase; 5] = [
    own_case!("test_cast1_FLOAT_to_FLOAT16", ["input_0.pb"], "output_0.pb"),
    own_case!(
        "test_cast13_UINT64_to_DOUBLE",
        ["input_0.pb"],
        "output_0.pb"
    ),
    own_case!(
        "test_concat4_axis_0_STRING",
        ["input_0.pb", "input_1.pb"],
        "output_0.pb"
    ),
    own_case!(
        "test_concat13_axis_1_BFLOAT16",
        ["input_0.pb", "input_1.pb"],
        "output_0.pb"
    ),
    own_case!(
        "test_concat11_empty_input_INT64",
        ["input_0.pb", "input_1.pb"],
        "output_0.pb"
    ),
];

/// A [5]-element tensor of every type twice: in `raw_data` (strings: `string_data`) and in the
/// type's typed field (sub-byte types packed two or four to an entry).
fn tensor_seeds(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for &t in DataType::ALL {
        let n = 5usize;
        let bytes = (n * t.bit_width() as usize).div_ceil(8);
        let mut raw = header(t, &[n as i64]);
        let mut typed = raw.clone();
        match t.typed_field() {
            TypedField::StringData => {
                raw.string_data = vec![b"1.5".to_vec(), b"-INF".to_vec(), vec![0xC3, 0xA9]];
                raw.dims = vec![3];
                typed.string_data = vec![vec![0xFF]; 5];
            }
            field => {
                raw.raw_data = Some((0..bytes).map(|_| rng.next_u64() as u8).collect());
                let entries = match t {
                    DataType::Complex64 | DataType::Complex128 => 2 * n,
                    _ if t.bit_width() < 8 => bytes,
                    _ => n,
                };
                let v = rng.next_u64();
                match field {
                    TypedField::FloatData => typed.float_data = vec![f32::NAN; entries],
                    TypedField::Int32Data => typed.int32_data = vec![v as i32; entries],
                    TypedField::Int64Data => typed.int64_data = vec![v as i64; entries],
                    TypedField::DoubleData => typed.double_data = vec![-0.0; entries],
                    TypedField::Uint64Data => typed.uint64_data = vec![v; entries],
                    TypedField::StringData => {}
                }
            }
        }
        seeds.push(raw.encode_to_vec());
        seeds.push(typed.encode_to_vec());
    }
    seeds
}

/// Appends a random field: a field number the ONNX messages use (or not), any wire type,
/// and a payload that may claim more bytes than follow.
fn push_field(rng: &mut Rng, out: &mut Vec<u8>) {
    let field = 1 + rng.below(24) as u64;
    let wire = [0u64, 1, 2, 5][rng.below(4)];
    push_varint(out, field << 3 | wire);
    match wire {
        0 => push_varint(out, [0, 1, u64::MAX, rng.next_u64(), 1 << 31][rng.below(5)]),
        1 => out.extend_from_slice(&rng.next_u64().to_le_bytes()),
        5 => out.extend_from_slice(&(rng.next_u64() as u32).to_le_bytes()),
        _ => {
            let len = rng.below(12);
            push_varint(
                out,
                if rng.below(8) == 0 {
                    1 << 40
                } else {
                    len as u64
                },
            );
            out.extend((0..len).map(|_| rng.next_u64() as u8));
        }
    }
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// One to three mutations: bit flips, truncation, an injected field (at the end, where a
/// field boundary is certain, or anywhere), a duplicated byte range (repeats fields, which
/// protobuf merges or appends).
fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = bytes.len();
        match rng.below(6) {
            0 | 1 if len > 0 => {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
            2 if len > 0 => bytes.truncate(rng.below(len)),
            3 => push_field(rng, &mut bytes),
            4 => {
                let mut field = Vec::new();
                push_field(rng, &mut field);
                let at = rng.below(len + 1);
                bytes.splice(at..at, field);
            }
            _ if len > 0 => {
                let start = rng.below(len);
                let end = start + rng.below(len - start + 1);
                let copy = bytes[start..end].to_vec();
                if rng.below(2) == 0 {
                    bytes.extend(copy);
                } else {
                    bytes.splice(start..start, copy);
                }
            }
            _ => {}
        }
    }
    bytes
}

/// Decodes a mangled tensor as its own type and as a declared one.
fn decode_mangled_tensor(bytes: &[u8], declared: DataType) {
    if let Ok(tp) = TensorProto::decode(bytes) {
        let _ = decode_tensor(&tp, None);
        let _ = decode_tensor(&tp, Some(declared));
        let _ = decode_tensor(&tp, Some(DataType::Bfloat16));
    }
}

/// Converts a mangled model and, if that works, runs it on `inputs` and compares the outputs
/// with `expected` under both rules, describing any mismatch.
fn run_mangled_model(bytes: &[u8], inputs: &[Tensor], expected: &[Tensor]) {
    let Ok(mp) = ModelProto::decode(bytes) else {
        return;
    };
    let Ok(model) = convert_model(mp) else {
        return;
    };
    for n in [inputs.len(), inputs.len().saturating_sub(1)] {
        if let Ok(actual) = run_graph(&model, &inputs[..n]) {
            for rule in [Rule::ONNX_DEFAULT, Rule::Strict] {
                let mismatches = compare_outputs(expected, &actual, rule);
                let names = vec!["out".to_owned(); mismatches.len()];
                let _ = describe(&mismatches, &names, "rule");
            }
        }
    }
}

/// Runs `f`, turning a panic into a report naming `what` and the bytes.
fn no_panic(what: &str, bytes: &[u8], f: impl FnOnce()) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| format!("{what} panicked on bytes {bytes:02x?}"))
}

/// Fails with the count and the first three reports, if any input panicked.
fn assert_no_panics(panics: &[String]) {
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics[..panics.len().min(3)].join("\n")
    );
}

fn decode_seed(bytes: &[u8]) -> Tensor {
    let tp = TensorProto::decode(bytes).expect("own case tensor decodes");
    decode_tensor(&tp, None).expect("own case tensor is valid")
}

/// The tensor seeds and every tensor of [`OWN_CASES`], encoded.
fn all_tensor_seeds(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut seeds = tensor_seeds(rng);
    for (_, inputs, output) in OWN_CASES {
        seeds.extend(inputs.iter().chain([&output]).map(|b| b.to_vec()));
    }
    seeds
}

/// Every truncation and every single-bit flip of `seed`, then [`MUTANTS`] random mutants.
fn tensor_mutants(rng: &mut Rng, seed: &[u8]) -> Vec<Vec<u8>> {
    let flips = (0..seed.len() * 8).map(|bit| {
        let mut bytes = seed.to_vec();
        bytes[bit / 8] ^= 1 << (bit % 8);
        bytes
    });
    (0..seed.len())
        .map(|n| seed[..n].to_vec())
        .chain(flips)
        .chain((0..MUTANTS).map(|_| mutate(rng, seed)))
        .collect()
}

#[test]
fn mangled_tensors_never_panic() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut panics = Vec::new();
    for seed in &all_tensor_seeds(&mut rng) {
        for bytes in tensor_mutants(&mut rng, seed) {
            let declared = DataType::ALL[rng.below(DataType::ALL.len())];
            let report = no_panic("decode_tensor", &bytes, || {
                decode_mangled_tensor(&bytes, declared)
            });
            panics.extend(report.err());
        }
    }
    assert_no_panics(&panics);
}

#[test]
fn mangled_models_never_panic() {
    let mut rng = Rng(0xFEED_FACE_CAFE_BEEF);
    let mut panics = Vec::new();
    for (model, inputs, output) in OWN_CASES {
        let inputs: Vec<Tensor> = inputs.iter().map(|b| decode_seed(b)).collect();
        let expected = [decode_seed(output)];
        // The unmangled case must run and match, or the mutants would test little.
        let mp = ModelProto::decode(model).expect("own model decodes");
        let actual = run_graph(&convert_model(mp).expect("own model converts"), &inputs);
        assert_eq!(
            actual
                .as_ref()
                .map(|a| compare_outputs(&expected, a, Rule::Strict).len()),
            Ok(0)
        );
        let mutants = (0..model.len())
            .map(|n| model[..n].to_vec())
            .chain((0..MUTANTS * 4).map(|_| mutate(&mut rng, model)));
        for bytes in mutants {
            let report = no_panic("model conversion or run", &bytes, || {
                run_mangled_model(&bytes, &inputs, &expected)
            });
            panics.extend(report.err());
        }
    }
    assert_no_panics(&panics);
}

/// The reader that decodes `raw_data` where it lies (and into spare memory) gives what the
/// plain reader gives on every mangled tensor, the same tensor or an error naming the same
/// field: its cut around `raw_data` must never change what the bytes mean.
#[test]
fn the_reusing_reader_agrees_with_the_plain_one_on_mangled_tensors() {
    let mut rng = Rng(0x0FED_CBA9_8765_4321);
    let (mut compared, mut cut) = (0, 0);
    for seed in &all_tensor_seeds(&mut rng) {
        let mut mutants = tensor_mutants(&mut rng, seed);
        mutants.push(seed.clone());
        for bytes in mutants {
            for declared in [None, Some(DataType::ALL[rng.below(DataType::ALL.len())])] {
                let plain = tensor_from_bytes(&bytes, declared).map_err(|e| e.to_string());
                // Spare storage of the tensor's own type when there is one, else of another.
                let spare = plain.as_ref().ok().map(|t| t.storage().clone());
                let reusing =
                    tensor_from_bytes_reusing(&bytes, declared, spare).map_err(|e| e.to_string());
                // prost may word a broken field's reason differently on the cut buffer (its
                // end is nearer): the field named, and everything before it, must agree.
                let named = |r: &Result<Tensor, String>| match r {
                    // By bits: NaN != NaN, and a payload must agree too.
                    Ok(t) => Ok((
                        t.dtype(),
                        t.shape().to_vec(),
                        crate::read::tensor_codes(t).ok_or_else(|| format!("{t:?}")),
                    )),
                    Err(e) => Err(e
                        .rsplit_once(": ")
                        .map_or(e.clone(), |(at, _)| at.to_owned())),
                };
                assert_eq!(
                    named(&plain),
                    named(&reusing),
                    "bytes {bytes:02x?}, declared {declared:?}"
                );
                compared += 1;
                cut += usize::from(super::super::wire::split_raw_data(&bytes).is_some());
            }
        }
    }
    // The cut itself ran on a good share of them, not only the fallback.
    assert!(
        cut * 4 > compared,
        "{cut} of {compared} cut around raw_data"
    );
}

//! Tests of the writer. Expected bytes are composed here from the protobuf wire rules
//! (docs/semantics.md §5.1: a key is `number << 3 | wire type`, varints little-endian base
//! 128, negative int64 as ten bytes), never taken from the writer; the official files are
//! re-encoded byte for byte; every encoding variant reads back as the same tensors and model.

use super::*;
use crate::case::{Graph, Model, Node, ValueInfo};
use crate::read::{model_from_bytes, tensor_codes, tensor_from_bytes, tensor_from_codes};
use vocab::{AttrValue, Attribute, DataType, Tensor};

fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let low = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(low);
            return out;
        }
        out.push(low | 0x80);
    }
}

fn key(number: u32, wire: u8) -> Vec<u8> {
    varint(u64::from(number << 3 | u32::from(wire)))
}

/// A varint field (wire type 0); a negative value is its 64-bit two's complement.
fn int(number: u32, v: i64) -> Vec<u8> {
    [key(number, 0), varint(v as u64)].concat()
}

/// A length-delimited field (wire type 2).
fn len(number: u32, payload: &[u8]) -> Vec<u8> {
    [
        key(number, 2),
        varint(payload.len() as u64),
        payload.to_vec(),
    ]
    .concat()
}

/// A packed repeated varint field.
fn packed(number: u32, values: &[i64]) -> Vec<u8> {
    let body: Vec<u8> = values.iter().flat_map(|&v| varint(v as u64)).collect();
    len(number, &body)
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn floats(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), v.to_vec()).expect("values fill the shape")
}

fn onnx_bytes(name: &str, t: &Tensor) -> Vec<u8> {
    tensor::encode(name, t, Encoding::Onnx)
}

fn int_attr(name: &str, i: i64) -> Attribute {
    Attribute {
        name: name.into(),
        value: AttrValue::Int(i),
    }
}

fn attr_bytes(a: &Attribute, encoding: Encoding) -> Vec<u8> {
    use prost::Message;
    attribute::proto_in(a, encoding).encode_to_vec()
}

#[test]
fn dims_are_unpacked_one_varint_each_before_type_name_and_raw_data() {
    let t = floats(&[3, 4], &[1.5; 12]);
    let expected = [
        int(1, 3),
        int(1, 4),
        int(2, 1),
        len(8, b"x"),
        len(9, &f32s(&[1.5; 12])),
    ]
    .concat();
    assert_eq!(onnx_bytes("x", &t), expected);
    // The bytes of the issue: `08 03 08 04`, where proto3's packed form is `0a 02 03 04`.
    assert_eq!(onnx_bytes("x", &t)[..4], [0x08, 0x03, 0x08, 0x04]);
}

#[test]
fn a_zero_dimension_is_a_varint_0_and_an_empty_tensor_keeps_an_empty_raw_data() {
    let t = floats(&[2, 0, 3], &[]);
    let expected = [
        int(1, 2),
        int(1, 0),
        int(1, 3),
        int(2, 1),
        len(8, b"x"),
        len(9, &[]),
    ]
    .concat();
    assert_eq!(onnx_bytes("x", &t), expected);
    assert!(onnx_bytes("x", &t).ends_with(&[0x4a, 0x00]));
}

#[test]
fn a_scalar_has_no_dims_and_strings_go_to_string_data() {
    assert_eq!(
        onnx_bytes("s", &floats(&[], &[3.0])),
        [int(2, 1), len(8, b"s"), len(9, &f32s(&[3.0]))].concat()
    );
    let t = Tensor::from_vec(vec![2], vec!["a".to_string(), "bc".to_string()]).expect("strings");
    assert_eq!(
        onnx_bytes("x", &t),
        [
            int(1, 2),
            int(2, 8),
            len(6, b"a"),
            len(6, b"bc"),
            len(8, b"x")
        ]
        .concat()
    );
}

#[test]
fn sub_byte_types_pack_the_even_index_into_the_low_bits() {
    let t = tensor_from_codes(DataType::Int4, vec![3], &[1, 0xe, 3]).expect("int4");
    assert_eq!(
        onnx_bytes("x", &t),
        [int(1, 3), int(2, 22), len(8, b"x"), len(9, &[0xe1, 0x03])].concat()
    );
}

/// FLOAT6E2M3 [0.5, -7.5, 1.0, 0.125, 3.0] (codes 4, 63, 8, 1, 20): four codes in three bytes
/// by onnx.proto's formula (`byte0 = x0 | (x1 & 3) << 6` = 0xc4, `byte1 = x1 >> 2 | (x2 & 0xF)
/// << 4` = 0x8f, `byte2 = x2 >> 4 | x3 << 2` = 0x04, then x4 = 0x14 with zero padding), and
/// one code per `int32_data` entry; onnx 1.23.2's `numpy_helper.from_array` and
/// `helper.make_tensor` wrote these same bytes (`0805101b4201784a04c48f0414`,
/// `0805101b2a05043f080114420178`).
#[test]
fn float6_packs_four_codes_in_three_bytes_and_types_one_per_entry() {
    let t = tensor_from_codes(DataType::Float6E2M3, vec![5], &[4, 63, 8, 1, 20]).expect("float6");
    assert_eq!(
        onnx_bytes("x", &t),
        [
            int(1, 5),
            int(2, 27),
            len(8, b"x"),
            len(9, &[0xc4, 0x8f, 0x04, 0x14])
        ]
        .concat()
    );
    assert_eq!(
        tensor::encode("x", &t, Encoding::TypedFields),
        [
            int(1, 5),
            int(2, 27),
            packed(5, &[4, 63, 8, 1, 20]),
            len(8, b"x")
        ]
        .concat()
    );
}

#[test]
fn int_attributes_are_written_even_when_zero() {
    for name in ["axis", "saturate"] {
        let expected = [len(1, name.as_bytes()), int(3, 0), int(20, 2)].concat();
        assert_eq!(attr_bytes(&int_attr(name, 0), Encoding::Onnx), expected);
    }
    assert_eq!(
        attr_bytes(&int_attr("axis", 0), Encoding::Onnx),
        [0x0a, 4, b'a', b'x', b'i', b's', 0x18, 0x00, 0xa0, 0x01, 0x02]
    );
    // A negative INT is ten bytes.
    let minus_one = attr_bytes(&int_attr("axis", -1), Encoding::Onnx);
    assert_eq!(
        minus_one,
        [len(1, b"axis"), int(3, -1), int(20, 2)].concat()
    );
    assert_eq!(minus_one.len(), 6 + 1 + 10 + 3);
}

#[test]
fn other_attribute_types_write_their_field_and_type() {
    let a = |name: &str, value| Attribute {
        name: name.into(),
        value,
    };
    let cases: Vec<(Attribute, Vec<u8>)> = vec![
        (
            a("to", AttrValue::String(b"INT32".to_vec())),
            [len(1, b"to"), len(4, b"INT32"), int(20, 3)].concat(),
        ),
        (
            a("s", AttrValue::String(Vec::new())),
            [len(1, b"s"), len(4, b""), int(20, 3)].concat(),
        ),
        (
            a("f", AttrValue::Float(0.0)),
            [len(1, b"f"), key(2, 5), vec![0; 4], int(20, 1)].concat(),
        ),
        (
            a("ints", AttrValue::Ints(vec![1, 0])),
            [len(1, b"ints"), int(8, 1), int(8, 0), int(20, 7)].concat(),
        ),
        (
            a("floats", AttrValue::Floats(vec![0.0])),
            [len(1, b"floats"), key(7, 5), vec![0; 4], int(20, 6)].concat(),
        ),
        (
            a("value", AttrValue::Tensor(floats(&[1], &[1.0]))),
            [
                len(1, b"value"),
                len(5, &onnx_bytes("value", &floats(&[1], &[1.0]))),
                int(20, 4),
            ]
            .concat(),
        ),
    ];
    for (attr, expected) in cases {
        assert_eq!(attr_bytes(&attr, Encoding::Onnx), expected, "{attr:?}");
    }
}

#[test]
fn attribute_type_codes_follow_onnx_proto() {
    let names = [
        "UNDEFINED",
        "FLOAT",
        "INT",
        "STRING",
        "TENSOR",
        "GRAPH",
        "FLOATS",
        "INTS",
        "STRINGS",
        "TENSORS",
        "GRAPHS",
        "SPARSE_TENSOR",
        "SPARSE_TENSORS",
        "TYPE_PROTO",
        "TYPE_PROTOS",
    ];
    let table: Vec<(i32, &str)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (i as i32, *n))
        .collect();
    assert_eq!(attribute::TYPES, table.as_slice());
    let values = [
        (AttrValue::Float(1.0), 1),
        (AttrValue::Int(1), 2),
        (AttrValue::String(b"a".to_vec()), 3),
        (AttrValue::Tensor(floats(&[1], &[1.0])), 4),
        (AttrValue::Floats(vec![1.0]), 6),
        (AttrValue::Ints(vec![1]), 7),
        (AttrValue::Strings(vec![b"a".to_vec()]), 8),
        (AttrValue::Other(11), 11),
    ];
    for (v, code) in values {
        assert_eq!(attribute::type_code(&v), code, "{v:?}");
    }
}

/// A Concat of a fed input and an initializer, with `axis=0`, and a Cast whose attributes are
/// given out of name order.
fn sample_model() -> Model {
    Model {
        ir_version: 9,
        producer: "p".into(),
        opset: 19,
        graph: Graph {
            name: "g".into(),
            nodes: vec![
                Node::new("Concat", &["a", "c"], &["m"], vec![int_attr("axis", 0)]),
                Node::new(
                    "Cast",
                    &["m"],
                    &["o"],
                    vec![int_attr("to", 17), int_attr("saturate", 0)],
                ),
            ],
            inputs: vec![ValueInfo::tensor("a", DataType::Float, &[1])],
            initializers: vec![("c".into(), floats(&[1], &[2.0]))],
            outputs: vec![ValueInfo::tensor("o", DataType::Float8E4M3FN, &[2])],
        },
    }
}

/// A ValueInfoProto of a FLOAT8E4M3FN or FLOAT tensor as make_tensor_value_info writes it.
fn value_info_bytes(name: &str, elem: i64, dims: &[i64]) -> Vec<u8> {
    let shape: Vec<u8> = dims.iter().flat_map(|&d| len(1, &int(1, d))).collect();
    let tensor_type = [int(1, elem), len(2, &shape)].concat();
    [len(1, name.as_bytes()), len(2, &len(1, &tensor_type))].concat()
}

#[test]
fn a_model_is_written_in_field_order_with_sorted_attributes_and_the_domain_as_empty_string() {
    let concat = [
        len(1, b"a"),
        len(1, b"c"),
        len(2, b"m"),
        len(4, b"Concat"),
        len(5, &[len(1, b"axis"), int(3, 0), int(20, 2)].concat()),
    ]
    .concat();
    let cast = [
        len(1, b"m"),
        len(2, b"o"),
        len(4, b"Cast"),
        len(5, &[len(1, b"saturate"), int(3, 0), int(20, 2)].concat()),
        len(5, &[len(1, b"to"), int(3, 17), int(20, 2)].concat()),
    ]
    .concat();
    let graph = [
        len(1, &concat),
        len(1, &cast),
        len(2, b"g"),
        len(5, &onnx_bytes("c", &floats(&[1], &[2.0]))),
        len(11, &value_info_bytes("a", 1, &[1])),
        len(12, &value_info_bytes("o", 17, &[2])),
    ]
    .concat();
    let expected = [
        int(1, 9),
        len(2, b"p"),
        len(7, &graph),
        len(8, &[len(1, b""), int(2, 19)].concat()),
    ]
    .concat();
    assert_eq!(model::encode(&sample_model(), Encoding::Onnx), expected);
}

#[test]
fn a_scalar_is_declared_with_an_empty_shape() {
    use prost::Message;
    let vi = model::value_info("x", DataType::Float, &[]);
    assert_eq!(
        vi.encode_to_vec(),
        [
            len(1, b"x"),
            len(2, &len(1, &[int(1, 1), len(2, &[])].concat()))
        ]
        .concat()
    );
}

#[test]
fn typed_fields_are_written_as_make_tensor_writes_them() {
    let head = |dims: &[i64], dtype: i64| -> Vec<u8> {
        let mut v: Vec<u8> = dims.iter().flat_map(|&d| int(1, d)).collect();
        v.extend(int(2, dtype));
        v
    };
    let t = |dtype, codes: &[u128]| {
        tensor_from_codes(dtype, vec![codes.len()], codes).expect("codes of the type")
    };
    let cases: Vec<(Tensor, Vec<u8>)> = vec![
        (
            floats(&[2], &[1.0, 2.0]),
            [head(&[2], 1), len(4, &f32s(&[1.0, 2.0])), len(8, b"x")].concat(),
        ),
        (
            // FLOAT16 1.0 and 2.0 as their bits: 0x3c00 = 15360, 0x4000 = 16384.
            t(DataType::Float16, &[0x3c00, 0x4000]),
            [head(&[2], 10), packed(5, &[0x3c00, 0x4000]), len(8, b"x")].concat(),
        ),
        (
            // INT8 -1 is sign-extended: a ten-byte varint.
            t(DataType::Int8, &[0xff, 2]),
            [head(&[2], 3), packed(5, &[-1, 2]), len(8, b"x")].concat(),
        ),
        (
            // INT4 1, -2, 3: one packed byte per entry, unsigned (0xe1 = 225).
            t(DataType::Int4, &[1, 0xe, 3]),
            [head(&[3], 22), packed(5, &[0xe1, 0x03]), len(8, b"x")].concat(),
        ),
        (
            t(DataType::Uint32, &[1, 0xffff_ffff]),
            [head(&[2], 12), len(8, b"x"), packed(11, &[1, 0xffff_ffff])].concat(),
        ),
        (
            t(DataType::Int64, &[1, u128::from(u64::MAX)]),
            [head(&[2], 7), packed(7, &[1, -1]), len(8, b"x")].concat(),
        ),
        (
            t(DataType::Double, &[u128::from(1.0f64.to_bits())]),
            [head(&[1], 11), len(8, b"x"), len(10, &1.0f64.to_le_bytes())].concat(),
        ),
        (
            t(DataType::Bool, &[1, 0]),
            [head(&[2], 9), packed(5, &[1, 0]), len(8, b"x")].concat(),
        ),
    ];
    for (tensor, expected) in cases {
        assert_eq!(
            tensor::encode("x", &tensor, Encoding::TypedFields),
            expected,
            "{:?}",
            tensor.dtype()
        );
    }
}

#[test]
fn packed_dims_variant_packs_only_the_dims() {
    let t = floats(&[3, 4], &[1.5; 12]);
    let expected = [
        packed(1, &[3, 4]),
        int(2, 1),
        len(8, b"x"),
        len(9, &f32s(&[1.5; 12])),
    ]
    .concat();
    assert_eq!(tensor::encode("x", &t, Encoding::PackedDims), expected);
    assert_eq!(
        tensor::encode("x", &t, Encoding::PackedDims)[..4],
        [0x0a, 0x02, 0x03, 0x04]
    );
    // A scalar has no dims to pack.
    let s = floats(&[], &[1.0]);
    assert_eq!(
        tensor::encode("x", &s, Encoding::PackedDims),
        onnx_bytes("x", &s)
    );
}

#[test]
fn packed_dims_variant_packs_initializers_and_constant_tensors_in_a_model() {
    let mut m = sample_model();
    m.graph.initializers[0].1 = floats(&[1, 1], &[2.0]);
    m.graph
        .nodes
        .insert(0, constant("k", floats(&[1, 2], &[1.0, 2.0])));
    let onnx = model::encode(&m, Encoding::Onnx);
    let packed_bytes = model::encode(&m, Encoding::PackedDims);
    let unpacked_init = onnx_bytes("c", &floats(&[1, 1], &[2.0]));
    let packed_init = tensor::encode("c", &floats(&[1, 1], &[2.0]), Encoding::PackedDims);
    let constant = floats(&[1, 2], &[1.0, 2.0]);
    let has = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
    assert!(has(&onnx, &unpacked_init) && !has(&packed_bytes, &unpacked_init));
    assert!(has(&packed_bytes, &packed_init));
    assert!(has(
        &packed_bytes,
        &tensor::encode("value", &constant, Encoding::PackedDims)
    ));
    assert!(!has(&packed_bytes, &onnx_bytes("value", &constant)));
    // Nothing else changes: two one-byte dims take four bytes either way.
    assert_eq!(onnx.len(), packed_bytes.len());
}

#[test]
fn zero_omitted_variant_leaves_out_only_values_that_read_the_same() {
    assert_eq!(
        attr_bytes(&int_attr("saturate", 0), Encoding::ZeroOmitted),
        [len(1, b"saturate"), int(20, 2)].concat()
    );
    // Nonzero values stay.
    assert_eq!(
        attr_bytes(&int_attr("to", 17), Encoding::ZeroOmitted),
        attr_bytes(&int_attr("to", 17), Encoding::Onnx)
    );
    let minus_zero = Attribute {
        name: "f".into(),
        value: AttrValue::Float(-0.0),
    };
    assert_eq!(
        attr_bytes(&minus_zero, Encoding::ZeroOmitted),
        attr_bytes(&minus_zero, Encoding::Onnx)
    );
    // No raw_data for a tensor of no elements; one with elements keeps it.
    let empty = floats(&[2, 0], &[]);
    assert_eq!(
        tensor::encode("x", &empty, Encoding::ZeroOmitted),
        [int(1, 2), int(1, 0), int(2, 1), len(8, b"x")].concat()
    );
    let one = floats(&[1], &[0.0]);
    assert_eq!(
        tensor::encode("x", &one, Encoding::ZeroOmitted),
        onnx_bytes("x", &one)
    );
    // The opset import without its domain.
    let bytes = model::encode(&sample_model(), Encoding::ZeroOmitted);
    assert!(bytes.ends_with(&len(8, &int(2, 19))));
}

/// A Constant node writing `value` to `output`.
fn constant(output: &str, value: Tensor) -> Node {
    let value = Attribute {
        name: "value".into(),
        value: AttrValue::Tensor(value),
    };
    Node::new("Constant", &[], &[output], vec![value])
}

/// `n` codes spread over the type's range.
fn spread(dtype: DataType, n: usize) -> Vec<u128> {
    crate::testkit::spread_codes(dtype, n)
}

fn sample(dtype: DataType, shape: &[usize]) -> Tensor {
    let n = shape.iter().product();
    match dtype {
        DataType::String => Tensor::from_vec(
            shape.to_vec(),
            (0..n).map(|i| format!("s{i}")).collect::<Vec<_>>(),
        )
        .expect("strings"),
        _ => tensor_from_codes(dtype, shape.to_vec(), &spread(dtype, n)).expect("codes"),
    }
}

#[test]
fn every_encoding_reads_back_as_the_same_tensor() {
    for &dtype in DataType::ALL {
        for shape in [&[][..], &[0], &[1], &[3], &[2, 4], &[3, 0, 2]] {
            let t = sample(dtype, shape);
            for encoding in Encoding::VARIANTS {
                let bytes = tensor::encode("x", &t, encoding);
                let back = tensor_from_bytes(&bytes, Some(dtype))
                    .unwrap_or_else(|e| panic!("{dtype} {shape:?} {encoding:?}: {}", e.message()));
                assert_eq!(back.shape(), shape, "{dtype} {encoding:?}");
                assert_eq!(back.dtype(), dtype);
                // By codes, since a NaN element is not equal to itself.
                assert_eq!(
                    tensor_codes(&back),
                    tensor_codes(&t),
                    "{dtype} {encoding:?}"
                );
                assert_eq!(back.len(), t.len());
                if dtype == DataType::String {
                    assert_eq!(back.storage(), t.storage());
                }
            }
        }
    }
}

#[test]
fn every_encoding_reads_back_as_the_same_model() {
    let mut m = sample_model();
    m.graph
        .nodes
        .insert(0, constant("k", sample(DataType::Float16, &[2, 2])));
    m.graph
        .initializers
        .push(("e".into(), sample(DataType::Int4, &[0])));
    let onnx = model_from_bytes(&model::encode(&m, Encoding::Onnx)).expect("reads");
    for encoding in Encoding::VARIANTS {
        let back = model_from_bytes(&model::encode(&m, encoding)).expect("reads");
        assert_eq!(format!("{back:?}"), format!("{onnx:?}"), "{encoding:?}");
    }
    assert_eq!(onnx.opset, 19);
    assert_eq!(onnx.graph.initializers.len(), 2);
}

/// The official data (`cargo xtask fetch-tests`), re-encoded byte for byte: every tensor file
/// of every release, and every model from 1.12.0 on that is not `_expanded`. What the writer
/// cannot say is left out, and why: models before 1.12.0 import the opset without a domain
/// (we write `""`), `_expanded` models write the node's domain `""` and their attributes out
/// of name order (we write neither). A tensor file is re-encoded in the form it has: values in
/// `raw_data` or strings ([`Encoding::Onnx`]), in the typed fields (1.14.1 to 1.18.0,
/// [`Encoding::TypedFields`]), or no data field for no elements (the CastLike `like` inputs
/// from 1.19.1, [`Encoding::ZeroOmitted`]); 1.16.2's negative INT4 `int32_data` entries
/// (`make_tensor` writes each packed byte unsigned) are counted apart.
#[test]
fn official_files_reencode_byte_for_byte() {
    use crate::proto::TensorProto;
    use prost::Message;
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../onnx-backend-data");
    assert!(
        data.join("index.json").is_file(),
        "the official data is missing at {}; run `cargo xtask fetch-tests`",
        data.display()
    );
    let (mut tensors, mut models, mut negative_int4) = (0, 0, 0);
    let mut refused = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    // Hidden entries are not release data: the wheel cache, and the venvs of
    // `fetch-tests --generate`, whose onnx ships other operators' test files.
    let walk = walkdir::WalkDir::new(&data).sort_by_file_name().into_iter();
    let visible =
        walk.filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in visible {
        let entry = entry.expect("listable");
        let path = entry.path();
        let rel = path
            .strip_prefix(&data)
            .unwrap_or(path)
            .display()
            .to_string();
        let bytes = || std::fs::read(path).expect("readable");
        if rel.ends_with(".pb") {
            let bytes = bytes();
            let tp = TensorProto::decode(bytes.as_slice()).expect("a TensorProto");
            // The data defects our reader refuses (docs/semantics.md §4.3; two files of 1.4.1, whose
            // STRING tensors hold fewer entries than their dims) have no tensor.
            let Ok(t) = tensor_from_bytes(&bytes, None) else {
                refused.push(rel);
                continue;
            };
            let typed = !tp.float_data.is_empty()
                || !tp.int32_data.is_empty()
                || !tp.int64_data.is_empty()
                || !tp.double_data.is_empty()
                || !tp.uint64_data.is_empty();
            let encoding = if tp.raw_data.is_some() || !tp.string_data.is_empty() {
                Encoding::Onnx
            } else if typed {
                Encoding::TypedFields
            } else {
                Encoding::ZeroOmitted
            };
            if tp.data_type == 22 && tp.int32_data.iter().any(|&v| v < 0) {
                negative_int4 += 1;
                continue;
            }
            assert_eq!(tensor::encode(&tp.name, &t, encoding), bytes, "{rel}");
            seen.insert(format!("{:?} {encoding:?}", t.dtype()));
            tensors += 1;
        } else if rel.ends_with("model.onnx") && !rel.contains("_expanded") {
            let release = rel.split('/').next().unwrap_or_default();
            let version: Vec<u32> = release
                .trim_start_matches("onnx-")
                .split('.')
                .filter_map(|p| p.parse().ok())
                .collect();
            if version < vec![1, 12] {
                continue;
            }
            let bytes = bytes();
            // The model as read (its producer included) is what the writer takes.
            let read = model_from_bytes(&bytes).expect("reads");
            assert_eq!(model::encode(&read, Encoding::Onnx), bytes, "{rel}");
            models += 1;
        }
    }
    // The sweep saw the data: every release's tensors and models, and the tensor forms that
    // matter (FLOAT16, BFLOAT16, float8, INT4, STRING in raw or typed form).
    assert!(
        tensors > 3500 && models > 900,
        "{tensors} tensors, {models} models"
    );
    for want in [
        (DataType::Float16, Encoding::Onnx),
        (DataType::Bfloat16, Encoding::Onnx),
        (DataType::Float8E4M3FN, Encoding::Onnx),
        (DataType::Float8E5M2FNUZ, Encoding::TypedFields),
        (DataType::Float16, Encoding::TypedFields),
        (DataType::Int4, Encoding::Onnx),
        (DataType::Uint4, Encoding::TypedFields),
        (DataType::Float4E2M1, Encoding::Onnx),
        (DataType::String, Encoding::Onnx),
        (DataType::Float, Encoding::ZeroOmitted),
    ] {
        let want = format!("{:?} {:?}", want.0, want.1);
        assert!(seen.contains(&want), "no official {want} file");
    }
    assert!(
        negative_int4 <= 5,
        "{negative_int4} INT4 files with negative entries"
    );
    assert!(refused.len() <= 2, "{refused:?}");
}

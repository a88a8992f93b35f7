//! Tests of case loading: model conversion, binding by position with declared types, and the
//! refusal of malformed case directories, each error naming the file.

use super::super::{load_case, read_model, read_tensor};
use super::header;
use crate::case::Case;
use crate::proto::{
    AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorProto,
    ValueInfoProto,
};
use half::bf16;
use prost::Message;
use std::path::{Path, PathBuf};
use vocab::AttrValue;
use vocab::DataType;

/// A case directory named `<tag>` with an empty `test_data_set_0`, inside a temporary
/// directory that is removed when the returned guard is dropped.
fn temp_case(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::Builder::new()
        .prefix("harness-read")
        .tempdir()
        .expect("temp dir");
    let dir = root.path().join(tag);
    std::fs::create_dir_all(dir.join("test_data_set_0")).unwrap();
    (root, dir)
}

fn value(name: &str, dtype: DataType, dims: &[i64]) -> ValueInfoProto {
    ValueInfoProto::tensor(name, dtype.code(), dims)
}

/// A CastLike model as the official data writes it: inputs `input` (FLOAT) and `like`
/// (BFLOAT16, declared [3, 4]), one node, one output.
fn castlike_model(domain: &str) -> ModelProto {
    let node = NodeProto {
        input: vec!["input".into(), "like".into()],
        output: vec!["output".into()],
        op_type: "CastLike".into(),
        attribute: vec![
            AttributeProto {
                name: "saturate".into(),
                i: Some(1),
                r#type: 2,
                ..Default::default()
            },
            // Old writers may leave the type UNDEFINED; the set field decides.
            AttributeProto {
                name: "axes".into(),
                ints: vec![0, -1],
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    ModelProto {
        ir_version: 8,
        opset_import: vec![OperatorSetIdProto {
            domain: Some(domain.into()),
            version: 15,
        }],
        graph: Some(GraphProto {
            node: vec![node],
            name: "test_castlike".into(),
            input: vec![
                value("input", DataType::Float, &[1]),
                value("like", DataType::Bfloat16, &[1]),
            ],
            output: vec![value("output", DataType::Bfloat16, &[1])],
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn write(path: &Path, message: &impl Message) {
    std::fs::write(path, message.encode_to_vec()).unwrap();
}

/// Writes a castlike case whose tensors are named `x`/`y` and whose bf16 is stored as UINT16.
fn write_castlike_case(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let (root, dir) = temp_case(tag);
    write(&dir.join("model.onnx"), &castlike_model("ai.onnx"));
    let set = dir.join("test_data_set_0");
    let mut x = header(DataType::Float, &[1]);
    x.name = "x".into();
    x.raw_data = Some(1.0f32.to_le_bytes().to_vec());
    write(&set.join("input_0.pb"), &x);
    let mut like = header(DataType::Uint16, &[1]);
    like.raw_data = Some(vec![0x80, 0x3f]);
    write(&set.join("input_1.pb"), &like);
    let mut y = header(DataType::Uint16, &[1]);
    y.name = "y".into();
    y.raw_data = Some(vec![0x80, 0x3f]);
    write(&set.join("output_0.pb"), &y);
    (root, dir)
}

fn load_error(dir: &Path) -> String {
    match load_case(dir) {
        Ok(case) => panic!("expected an error, loaded {}", case.name),
        Err(e) => e.to_string(),
    }
}

#[test]
fn loads_a_castlike_case_by_position_and_declared_type() {
    let (_root, dir) = write_castlike_case("test_castlike_FLOAT_to_BFLOAT16");
    let case: Case = load_case(&dir).unwrap();
    assert_eq!(case.name, "test_castlike_FLOAT_to_BFLOAT16");
    assert_eq!((case.model.opset, case.model.ir_version), (15, 8));
    let graph = &case.model.graph;
    assert_eq!(graph.inputs[1].dtype, Some(DataType::Bfloat16));
    assert_eq!(graph.inputs[1].shape, Some(vec![Some(1)]));
    let node = &graph.nodes[0];
    assert_eq!(
        (node.op_type.as_str(), node.domain.as_str()),
        ("CastLike", "")
    );
    assert_eq!(node.attributes[0].value, AttrValue::Int(1));
    assert_eq!(node.attributes[1].value, AttrValue::Ints(vec![0, -1]));
    let set = &case.data_sets[0];
    assert_eq!(set.inputs[0].as_slice::<f32>(), Some(&[1.0f32][..]));
    // Declared [3, 4] but the data is [1]: declared shapes are never enforced on data.
    assert_eq!(set.inputs[1].shape(), &[1]);
    assert_eq!(set.inputs[1].as_slice::<bf16>(), Some(&[bf16::ONE][..]));
    assert_eq!(set.outputs[0].as_slice::<bf16>(), Some(&[bf16::ONE][..]));
}

#[test]
fn default_domain_opset_is_required() {
    let (_root, dir) = temp_case("no_default_opset");
    let mut model = castlike_model("com.example");
    write(&dir.join("model.onnx"), &model);
    let e = load_error(&dir);
    assert!(
        e.contains("model.onnx: model imports no opset for the default domain"),
        "{e}"
    );
    model.opset_import.push(OperatorSetIdProto {
        domain: Some(String::new()),
        version: 13,
    });
    write(&dir.join("model.onnx"), &model);
    assert_eq!(read_model(&dir.join("model.onnx")).unwrap().opset, 13);
    model.graph = None;
    write(&dir.join("model.onnx"), &model);
    assert!(load_error(&dir).contains("model has no graph"));
}

#[test]
fn corrupt_and_truncated_files_name_the_file() {
    let (_root, dir) = write_castlike_case("corrupt");
    let model = dir.join("model.onnx");
    let bytes = std::fs::read(&model).unwrap();
    std::fs::write(&model, &bytes[..bytes.len() - 3]).unwrap();
    let e = load_error(&dir);
    assert!(e.contains("model.onnx: not a valid ModelProto"), "{e}");
    let input = dir.join("test_data_set_0").join("input_0.pb");
    std::fs::write(&input, [0x0a, 0xff, 0xff]).unwrap();
    let e = read_tensor(&input, None).unwrap_err().to_string();
    assert!(e.contains("input_0.pb: not a valid TensorProto"), "{e}");
    let e = read_tensor(&dir.join("nope.pb"), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("nope.pb: cannot read"), "{e}");
}

#[test]
fn tensor_errors_name_the_file() {
    let (_root, dir) = write_castlike_case("bad_tensor");
    let mut bad = header(DataType::Float16, &[1]);
    bad.raw_data = Some(vec![0, 0]);
    let input = dir.join("test_data_set_0").join("input_0.pb");
    write(&input, &bad);
    let e = load_error(&dir);
    assert!(e.starts_with(&input.display().to_string()), "{e}");
    assert!(
        e.contains("data_type is FLOAT16 but the graph declares FLOAT"),
        "{e}"
    );
}

#[test]
fn missing_files_and_gaps_are_errors() {
    let (_root, dir) = write_castlike_case("missing_output");
    let set = dir.join("test_data_set_0");
    std::fs::remove_file(set.join("output_0.pb")).unwrap();
    let e = load_error(&dir);
    assert!(
        e.contains("output_0.pb: file missing for graph output 0 'output'"),
        "{e}"
    );

    let (_root, dir) = write_castlike_case("gap");
    let set = dir.join("test_data_set_0");
    std::fs::rename(set.join("input_1.pb"), set.join("input_2.pb")).unwrap();
    let e = load_error(&dir);
    assert!(e.contains("input_1.pb: file missing, although"), "{e}");
    assert!(e.contains("input_2.pb exists"), "{e}");

    let (_root, dir) = write_castlike_case("extra_input");
    let set = dir.join("test_data_set_0");
    std::fs::copy(set.join("input_1.pb"), set.join("input_2.pb")).unwrap();
    let e = load_error(&dir);
    assert!(
        e.contains("input_2.pb: no graph input at position 2"),
        "{e}"
    );

    let (_root, dir) = write_castlike_case("stray");
    std::fs::write(dir.join("test_data_set_0").join("input_01.pb"), b"").unwrap();
    assert!(load_error(&dir).contains("input_01.pb: unexpected .pb file"));

    let (_root, dir) = write_castlike_case("no_sets");
    std::fs::remove_dir_all(dir.join("test_data_set_0")).unwrap();
    assert!(load_error(&dir).contains("case has no test_data_set_N directory"));
}

/// Data that contradicts the graph's declared input shape (onnx 1.12.0 to 1.14.1 CastLike
/// declare `like` as [3, 4] and hold [1]) is refused, naming the file and the input.
#[test]
fn input_data_must_have_the_declared_shape() {
    let (_root, dir) = write_castlike_case("test_castlike_shape");
    let mut model = castlike_model("ai.onnx");
    if let Some(graph) = model.graph.as_mut() {
        graph.input[1] = value("like", DataType::Bfloat16, &[3, 4]);
    }
    write(&dir.join("model.onnx"), &model);
    let e = load_error(&dir);
    assert!(
        e.contains("input_1.pb")
            && e.contains("graph input 1 'like' declares shape [3, 4], the data holds [1]"),
        "{e}"
    );
}

#[test]
fn data_sets_are_in_numeric_order() {
    let (_root, dir) = write_castlike_case("sets");
    for n in [2, 10] {
        let to = dir.join(format!("test_data_set_{n}"));
        std::fs::create_dir_all(&to).unwrap();
        for f in ["input_0.pb", "input_1.pb", "output_0.pb"] {
            std::fs::copy(dir.join("test_data_set_0").join(f), to.join(f)).unwrap();
        }
    }
    let case = load_case(&dir).unwrap();
    let names: Vec<_> = case
        .data_sets
        .iter()
        .map(|d| d.dir.file_name().unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        ["test_data_set_0", "test_data_set_2", "test_data_set_10"]
    );
}

#[test]
fn bad_declarations_and_attributes_are_errors() {
    let (_root, dir) = temp_case("bad_decl");
    let mut model = castlike_model("");
    let graph = model.graph.as_mut().unwrap();
    graph.input[1] = value("like", DataType::Float, &[-2]);
    write(&dir.join("model.onnx"), &model);
    assert!(load_error(&dir).contains("graph input 1 'like': declares dim -2"));

    let graph = model.graph.as_mut().unwrap();
    graph.input[1] = value("like", DataType::Float, &[1]);
    if let Some(t) = graph.output[0]
        .r#type
        .as_mut()
        .and_then(|t| t.tensor_type.as_mut())
    {
        t.elem_type = 40;
    }
    write(&dir.join("model.onnx"), &model);
    assert!(load_error(&dir).contains("graph output 0 'output': declares unknown elem_type 40"));

    let mut model = castlike_model("");
    let node = &mut model.graph.as_mut().unwrap().node[0];
    node.attribute[0].ref_attr_name = "outer".into();
    write(&dir.join("model.onnx"), &model);
    let e = load_error(&dir);
    assert!(
        e.contains("node 0 (CastLike): attribute 'saturate' refers to function attribute 'outer'"),
        "{e}"
    );

    let mut model = castlike_model("");
    let node = &mut model.graph.as_mut().unwrap().node[0];
    node.attribute[0] = AttributeProto {
        name: "value".into(),
        r#type: 4,
        t: Some(TensorProto {
            data_type: 99,
            ..Default::default()
        }),
        ..Default::default()
    };
    write(&dir.join("model.onnx"), &model);
    let e = load_error(&dir);
    assert!(
        e.contains("attribute 'value': unnamed tensor: unknown data_type 99"),
        "{e}"
    );
}

//! Declared types against the version table, on models built here.

use super::*;
use crate::case::Graph;
use vocab::{AttrValue, Attribute, DataType};

fn value(name: &str, dtype: DataType) -> ValueInfo {
    ValueInfo {
        name: name.into(),
        dtype: Some(dtype),
        shape: Some(vec![Some(2)]),
    }
}

/// A one-node Cast model at `opset`, from `from` to `to`.
fn cast(opset: i64, from: DataType, to: DataType) -> Model {
    Model {
        ir_version: 14,
        producer: String::new(),
        opset,
        graph: Graph {
            name: "g".into(),
            nodes: vec![Node {
                op_type: "Cast".into(),
                domain: String::new(),
                inputs: vec!["x".into()],
                outputs: vec!["y".into()],
                attributes: vec![Attribute {
                    name: "to".into(),
                    value: AttrValue::Int(to.code().into()),
                }],
            }],
            inputs: vec![value("x", from)],
            outputs: vec![value("y", to)],
            initializers: Vec::new(),
        },
    }
}

#[test]
fn a_type_the_version_allows_passes() {
    assert_eq!(
        check_declared_types(&cast(13, DataType::Bfloat16, DataType::Float)),
        Ok(())
    );
    assert_eq!(
        check_declared_types(&cast(9, DataType::String, DataType::Float)),
        Ok(())
    );
}

#[test]
fn an_input_type_from_a_later_version_is_refused_naming_node_value_and_versions() {
    let e = check_declared_types(&cast(9, DataType::Bfloat16, DataType::Float)).unwrap_err();
    assert_eq!(
        e.message(),
        "node 0 (Cast) reads graph input 'x' of type BFLOAT16, which Cast-9 (opset 9) does not \
         allow (Cast-13 and later allow it); onnx's checker (full check) refuses the model too"
    );
}

#[test]
fn an_output_type_is_checked_too() {
    let e = check_declared_types(&cast(6, DataType::Float, DataType::String)).unwrap_err();
    assert!(
        e.message()
            .contains("writes graph output 'y' of type STRING, which Cast-6"),
        "{}",
        e.message()
    );
}

#[test]
fn unknown_operators_domains_and_opsets_are_left_to_the_backend() {
    let mut m = cast(9, DataType::Bfloat16, DataType::Float);
    m.graph.nodes[0].domain = "com.example".into();
    assert_eq!(check_declared_types(&m), Ok(()));
    let mut m = cast(9, DataType::Bfloat16, DataType::Float);
    m.graph.nodes[0].op_type = "Relu".into();
    assert_eq!(check_declared_types(&m), Ok(()));
    assert_eq!(
        check_declared_types(&cast(99, DataType::Bfloat16, DataType::Float)),
        Ok(())
    );
}

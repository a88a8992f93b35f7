//! Unit tests of running a graph node by node: bindings, counts and refused nodes.

use super::*;
use crate::backend::native::run_graph;
use crate::case::{Graph, ValueInfo};
use vocab::{AttrValue, DataType};

fn value(name: &str) -> ValueInfo {
    ValueInfo {
        name: name.into(),
        dtype: Some(DataType::Float),
        shape: None,
    }
}

fn node(op_type: &str, domain: &str, inputs: &[&str], outputs: &[&str]) -> Node {
    Node {
        op_type: op_type.into(),
        domain: domain.into(),
        inputs: inputs.iter().map(|s| s.to_string()).collect(),
        outputs: outputs.iter().map(|s| s.to_string()).collect(),
        attributes: Vec::new(),
    }
}

fn model(nodes: Vec<Node>, inputs: &[&str], outputs: &[&str]) -> Model {
    Model {
        ir_version: 8,
        producer: String::new(),
        opset: 13,
        graph: Graph {
            name: "g".into(),
            nodes,
            inputs: inputs.iter().map(|n| value(n)).collect(),
            outputs: outputs.iter().map(|n| value(n)).collect(),
            initializers: vec![("w".into(), tensor(9.0))],
        },
    }
}

fn tensor(v: f32) -> Tensor {
    Tensor::from_vec(vec![1], vec![v]).unwrap()
}

fn error(model: &Model, inputs: &[Tensor]) -> String {
    match run_graph(model, inputs) {
        Ok(out) => panic!("expected an error, got {out:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn outputs_come_from_inputs_and_initializers_in_declared_order() {
    let m = model(Vec::new(), &["a", "b"], &["w", "b", "a"]);
    let out = run_graph(&m, &[tensor(1.0), tensor(2.0)]).unwrap();
    assert_eq!(out, [tensor(9.0), tensor(2.0), tensor(1.0)]);
    // A fed graph input overrides the initializer of the same name.
    let m = model(Vec::new(), &["w"], &["w"]);
    assert_eq!(run_graph(&m, &[tensor(4.0)]).unwrap(), [tensor(4.0)]);
}

#[test]
fn unbound_values_and_bad_counts_name_the_node() {
    let m = model(
        vec![node("Cast", "", &["a", "nope"], &["y"])],
        &["a"],
        &["y"],
    );
    let e = error(&m, &[tensor(1.0)]);
    assert!(
        e.contains("node 0 (Cast): input 1 'nope' has no value"),
        "{e}"
    );
    let m = model(
        vec![node("Concat", "", &["a", "", "a"], &["y"])],
        &["a"],
        &["y"],
    );
    let e = error(&m, &[tensor(1.0)]);
    assert!(e.contains("node 0 (Concat): input 1 is omitted"), "{e}");
    let m = model(Vec::new(), &["a"], &["y"]);
    let e = error(&m, &[tensor(1.0)]);
    assert!(e.contains("graph output 'y' is not produced"), "{e}");
    let e = error(&m, &[tensor(1.0), tensor(2.0)]);
    assert!(
        e.contains("2 inputs given, but the graph declares 1"),
        "{e}"
    );
}

#[test]
fn foreign_domains_and_unknown_operators_are_errors() {
    let m = model(
        vec![node("Cast", "com.example", &["a"], &["y"])],
        &["a"],
        &["y"],
    );
    let e = error(&m, &[tensor(1.0)]);
    assert!(
        e.contains("node 0 (Cast): domain 'com.example' is not supported"),
        "{e}"
    );
    let m = model(
        vec![node("NoSuchOp", "ai.onnx", &["a"], &["y"])],
        &["a"],
        &["y"],
    );
    let e = error(&m, &[tensor(1.0)]);
    assert!(e.contains("node 0 (NoSuchOp) at opset 13: "), "{e}");
}

/// `x0 = a`, then `x{i+1} = Concat(x{i}, x{i}, axis 0)` for `doublings` nodes.
fn doubling(doublings: usize) -> Model {
    let nodes = (0..doublings)
        .map(|i| {
            let x = format!("x{i}");
            let mut n = node("Concat", "", &[&x, &x], &[&format!("x{}", i + 1)]);
            n.attributes.push(Attribute {
                name: "axis".into(),
                value: AttrValue::Int(0),
            });
            n
        })
        .collect();
    let out = format!("x{doublings}");
    model(nodes, &["x0"], &[&out])
}

#[test]
fn a_run_creating_more_than_its_budget_is_refused_before_allocating() {
    assert_eq!(run_budget(0), MIN_RUN_ELEMENTS);
    assert_eq!(run_budget(1 << 30), 1 << 34);
    assert_eq!(run_budget(usize::MAX), usize::MAX);
    // 2 fed elements (input and initializer): node i asks for 2^(i+1) more, 2^(i+2) - 2
    // in all up to it, so nodes 0..=22 fit 2^24 and node 23 does not. 40 doublings would
    // be 2^40 floats.
    let m = doubling(40);
    let e = error(&m, &[tensor(1.0)]);
    assert!(e.contains("node 23 (Concat) would bring"), "{e}");
    assert!(e.contains("16 times the 2 elements"), "{e}");
    assert!(e.contains("refused before allocating"), "{e}");
    let out = run_graph(&doubling(10), &[tensor(1.0)]).unwrap();
    assert_eq!(out[0].len(), 1024);
}

#[test]
fn copies_of_graph_outputs_count_against_the_budget() {
    // The doublings created 2^21 - 2 elements, so 14 copies of the 2^20 of x20 fit in
    // 2^24 and a 15th does not.
    let mut m = doubling(20);
    m.graph.outputs = (0..16).map(|_| value("x20")).collect();
    let e = error(&m, &[tensor(1.0)]);
    assert!(e.contains("copying graph output 'x20' would bring"), "{e}");
    m.graph.outputs.truncate(14);
    assert_eq!(run_graph(&m, &[tensor(1.0)]).unwrap().len(), 14);
}

#[test]
fn a_constant_node_gives_its_value_and_needs_one_output_and_a_tensor() {
    let mut c = node("Constant", "", &[], &["k"]);
    c.attributes.push(vocab::Attribute {
        name: "value".into(),
        value: AttrValue::Tensor(tensor(5.0)),
    });
    let m = model(vec![c.clone()], &[], &["k"]);
    assert_eq!(run_graph(&m, &[]).unwrap(), [tensor(5.0)]);
    assert!(is_constant(&c));
    let mut other_domain = c.clone();
    other_domain.domain = "com.example".into();
    assert!(!is_constant(&other_domain));
    let mut no_value = node("Constant", "", &[], &["k"]);
    no_value.attributes.push(vocab::Attribute {
        name: "value".into(),
        value: AttrValue::Int(3),
    });
    let m = model(vec![no_value], &[], &["k"]);
    assert!(error(&m, &[]).contains("tensor attribute 'value'"));
}

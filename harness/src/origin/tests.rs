//! Unit tests of tracing an output element back to its input element.

use super::*;
use crate::case::{Node, ValueInfo};
use vocab::Attribute;

fn graph(op: &str, inputs: &[&str], axis: Option<i64>) -> Graph {
    let value = |n: &&str| ValueInfo {
        name: n.to_string(),
        dtype: None,
        shape: None,
    };
    Graph {
        name: "g".into(),
        nodes: vec![Node {
            op_type: op.into(),
            domain: String::new(),
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            outputs: vec!["out".into()],
            attributes: axis
                .map(|v| Attribute {
                    name: "axis".into(),
                    value: AttrValue::Int(v),
                })
                .into_iter()
                .collect(),
        }],
        inputs: inputs.iter().map(value).collect(),
        outputs: vec![],
        initializers: vec![],
    }
}

#[test]
fn cast_elements_come_from_the_same_index() {
    let input = [Tensor::from_vec(vec![2], vec![0.15f32, -2.5]).expect("tensor")];
    let g = graph("Cast", &["x"], None);
    let o = Origins::of(Some("Cast"), &g, &input);
    assert_eq!(
        o.describe(0, &[2], 1).as_deref(),
        Some("input -2.5 (0xc0200000)")
    );
    assert_eq!(
        o.describe(0, &[2], 0).as_deref(),
        Some("input 0.15 (0x3e19999a)")
    );
    assert_eq!(o.describe(0, &[3], 0), None, "shapes that do not line up");
    assert_eq!(o.describe(1, &[2], 0), None);
}

#[test]
fn concat_elements_name_their_input_and_index() {
    let a = Tensor::from_vec(vec![2, 1], vec![1i64, 2]).expect("tensor");
    let b = Tensor::from_vec(vec![2, 2], vec![3i64, 4, 5, 6]).expect("tensor");
    let inputs = [a, b];
    for axis in [Some(1), Some(-1), None] {
        let g = graph("Concat", &["a", "b"], axis);
        let o = Origins::of(Some("Concat"), &g, &inputs);
        // Output [[1, 3, 4], [2, 5, 6]]: flat 5 is [1, 2], element [1, 1] of b.
        let got = o.describe(0, &[2, 3], 5);
        assert_eq!(
            got.as_deref(),
            Some("from input 1 (\"b\") [1, 1]: 6 (0x0000000000000006)")
        );
        let got = o.describe(0, &[2, 3], 3);
        assert_eq!(
            got.as_deref(),
            Some("from input 0 (\"a\") [1, 0]: 2 (0x0000000000000002)")
        );
    }
    let g = graph("Concat", &["a", "b"], Some(5));
    assert!(matches!(
        Origins::of(Some("Concat"), &g, &inputs),
        Origins::Unknown
    ));
}

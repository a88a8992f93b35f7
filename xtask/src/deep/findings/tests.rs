use super::*;

fn entry(op: &str, version: u32, from: &str, to: &str, case: &str) -> CaseEntry {
    CaseEntry {
        case: case.into(),
        op: op.into(),
        version,
        opset: version.into(),
        from: from.into(),
        to: to.into(),
        attributes: vec!["saturate=0".into()],
        shape: "values".into(),
        classes: Vec::new(),
    }
}

fn bits(b: &str) -> Value {
    Value {
        bits: b.into(),
        decoded: b.into(),
    }
}

fn example(index: usize, actual: &str) -> Example {
    Example {
        index,
        input: bits("0x00"),
        expected: bits("0x01"),
        actual: bits(actual),
    }
}

fn judged(class: &str, elements: usize, examples: Vec<Example>) -> Judged {
    Judged {
        class: class.into(),
        elements,
        examples,
        refusal: None,
    }
}

/// Groups `(entry, judged)` pairs of backend `b` into findings, in class order.
fn group(b: &str, items: Vec<(CaseEntry, Judged)>) -> Vec<Finding> {
    let mut classes = Classes::new();
    for (e, j) in items {
        absorb(&mut classes, b, "1.0", &e, j);
    }
    classes.into_values().collect()
}

#[test]
fn one_class_holds_every_case_of_its_op_types_attributes_and_input_class() {
    let f = group(
        "ort",
        vec![
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("tie", 4, vec![example(1, "0x7c")]),
            ),
            (
                entry("Cast", 21, "FLOAT", "FLOAT8E5M2", "b"),
                judged("tie", 2, vec![example(7, "0x7d")]),
            ),
        ],
    );
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].op_versions, [19, 21]);
    assert_eq!(f[0].cases, ["a", "b"]);
    assert_eq!(f[0].elements, 6);
    assert_eq!(f[0].verdict, "disagrees");
    // The first case with examples gives the class its examples.
    assert_eq!(f[0].examples, [example(1, "0x7c")]);
}

#[test]
fn different_input_classes_and_types_stay_apart() {
    let f = group(
        "ort",
        vec![
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("tie", 1, vec![example(1, "0x7c")]),
            ),
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("nan", 1, vec![example(2, "0x7f")]),
            ),
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E4M3FN", "c"),
                judged("tie", 1, vec![example(1, "0x7c")]),
            ),
        ],
    );
    let classes: Vec<(&str, &str)> = f
        .iter()
        .map(|f| (f.to.as_str(), f.input_class.as_str()))
        .collect();
    assert_eq!(
        classes,
        [
            ("FLOAT8E4M3FN", "tie"),
            ("FLOAT8E5M2", "nan"),
            ("FLOAT8E5M2", "tie")
        ]
    );
}

#[test]
fn a_class_keeps_at_most_three_examples() {
    let many = (0..5).map(|i| example(i, "0x02")).collect();
    let f = group(
        "ort",
        vec![
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("tie", 5, many),
            ),
            (
                entry("Cast", 21, "FLOAT", "FLOAT8E5M2", "b"),
                judged("tie", 5, vec![example(9, "0x03")]),
            ),
        ],
    );
    assert_eq!(f[0].examples.len(), MAX_EXAMPLES);
    assert_eq!(MAX_EXAMPLES, 3);
    assert_eq!(f[0].elements, 10);
}

#[test]
fn cases_that_did_not_run_are_classes_with_their_kind_and_message() {
    let refused = |kind: FailureKind, msg: &str| Judged {
        class: kind.label().into(),
        elements: 0,
        examples: Vec::new(),
        refusal: Some((kind, msg.into())),
    };
    let f = group(
        "ort",
        vec![
            (
                entry("Cast", 1, "FLOAT", "INT32", "a"),
                refused(FailureKind::Unsupported, "no kernel"),
            ),
            (
                entry("Cast", 6, "FLOAT", "INT32", "b"),
                refused(FailureKind::Unsupported, "other"),
            ),
            (
                entry("Cast", 6, "FLOAT", "INT32", "c"),
                refused(FailureKind::Crash, "signal 11"),
            ),
            (
                entry("Cast", 6, "FLOAT", "INT32", "d"),
                refused(FailureKind::Error, "bad model"),
            ),
        ],
    );
    let got: Vec<(&str, &str, Option<&str>, usize)> = f
        .iter()
        .map(|f| {
            (
                f.input_class.as_str(),
                f.verdict.as_str(),
                f.message.as_deref(),
                f.cases.len(),
            )
        })
        .collect();
    let label = |k: FailureKind| k.label();
    let mut want = vec![
        (
            label(FailureKind::Unsupported),
            label(FailureKind::Unsupported),
            Some("no kernel"),
            2,
        ),
        (
            label(FailureKind::Crash),
            label(FailureKind::Crash),
            Some("signal 11"),
            1,
        ),
        (
            label(FailureKind::Error),
            label(FailureKind::Error),
            Some("bad model"),
            1,
        ),
    ];
    want.sort();
    assert_eq!(got, want);
    assert!(f.iter().all(|f| f.verdict != "disagrees"));
}

#[test]
fn a_class_never_spans_the_version_24_rule_switch() {
    for op in ["Cast", "CastLike"] {
        let f = group(
            "ort",
            [21, 23, 24, 25]
                .into_iter()
                .map(|v| {
                    (
                        entry(op, v, "FLOAT", "BFLOAT16", &format!("{op}{v}")),
                        judged("tie", 1, vec![example(v as usize, "0x3ef5")]),
                    )
                })
                .collect(),
        );
        let versions: Vec<&[u32]> = f.iter().map(|f| f.op_versions.as_slice()).collect();
        assert_eq!(versions, [&[21, 23][..], &[24, 25][..]], "{op}");
        // Each era's class shows its own first version's example.
        assert_eq!(f[1].examples[0].index, 24, "{op}");
    }
    let f = group(
        "ort",
        [4, 11, 13]
            .into_iter()
            .map(|v| {
                (
                    entry("Concat", v, "FLOAT", "FLOAT", "c"),
                    judged("empty", 1, vec![example(0, "0x00")]),
                )
            })
            .collect(),
    );
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].op_versions, [4, 11, 13]);
}

/// One class of `tie` FLOAT → FLOAT8E5M2 per backend, with the given actual bits.
fn across(backends: &[(&str, &str)]) -> Vec<Finding> {
    let mut all = Vec::new();
    for (b, actual) in backends {
        all.extend(group(
            b,
            vec![(
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("tie", 1, vec![example(3, actual)]),
            )],
        ));
    }
    mark_suspects(&mut all);
    all
}

fn verdicts(f: &[Finding]) -> Vec<&str> {
    f.iter().map(|f| f.verdict.as_str()).collect()
}

#[test]
fn two_backends_agreeing_against_us_make_a_suspect() {
    let f = across(&[("onnxruntime", "0x7c"), ("reference", "0x7c")]);
    assert_eq!(verdicts(&f), ["suspect", "suspect"]);
}

#[test]
fn one_backend_alone_is_not_a_suspect() {
    let f = across(&[("onnxruntime", "0x7c")]);
    assert_eq!(verdicts(&f), ["disagrees"]);
    // Native's agreement does not count: it is ours.
    let f = across(&[("onnxruntime", "0x7c"), ("native", "0x7c")]);
    assert_eq!(verdicts(&f), ["disagrees", "disagrees"]);
}

#[test]
fn two_backends_that_disagree_with_each_other_are_not_suspects() {
    let f = across(&[("onnxruntime", "0x7c"), ("reference", "0x7d")]);
    assert_eq!(verdicts(&f), ["disagrees", "disagrees"]);
}

#[test]
fn classes_of_one_backend_in_two_eras_are_not_suspects() {
    let mut f = group(
        "onnxruntime",
        [23, 24]
            .into_iter()
            .map(|v| {
                (
                    entry("Cast", v, "FLOAT", "BFLOAT16", "a"),
                    judged("tie", 1, vec![example(3, "0x3ef5")]),
                )
            })
            .collect(),
    );
    assert_eq!(f.len(), 2);
    mark_suspects(&mut f);
    assert_eq!(verdicts(&f), ["disagrees", "disagrees"]);
}

#[test]
fn classes_of_two_eras_do_not_make_each_other_suspects() {
    let mut f = group(
        "onnxruntime",
        vec![(
            entry("Cast", 23, "FLOAT", "BFLOAT16", "a"),
            judged("tie", 1, vec![example(3, "0x3ef5")]),
        )],
    );
    f.extend(group(
        "reference",
        vec![(
            entry("Cast", 24, "FLOAT", "BFLOAT16", "b"),
            judged("tie", 1, vec![example(3, "0x3ef5")]),
        )],
    ));
    mark_suspects(&mut f);
    assert_eq!(verdicts(&f), ["disagrees", "disagrees"]);
}

#[test]
fn a_reproducer_keeps_the_examples_elements() {
    let e = entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a");
    let ex = [example(5, "0x01"), example(9, "0x02")];
    assert_eq!(reproducer_elements(&e, &ex, 100), [5, 9]);
}

#[test]
fn a_refused_case_reproducer_keeps_a_few_elements_one_per_input_class() {
    let mut e = entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a");
    let range = |class: &str, start, end| harness::deep::ClassRange {
        class: class.into(),
        start,
        end,
        authority: harness::deep::Authority::Page,
        citation: harness::deep::Citation {
            section: "§3.3".into(),
            rule: String::new(),
            source: String::new(),
        },
    };
    e.classes = vec![
        range("zero", 0, 2),
        range("tie", 2, 40_000),
        range("nan", 40_000, 65_536),
    ];
    assert_eq!(reproducer_elements(&e, &[], 65_536), [0, 2, 40_000]);
    e.classes = (0..100)
        .map(|k| range("tie", k * 10, k * 10 + 10))
        .collect();
    let idx = reproducer_elements(&e, &[], 1000);
    assert_eq!(idx.len(), REFUSED_ELEMENTS);
    assert_eq!(
        idx,
        (0..REFUSED_ELEMENTS).map(|k| k * 10).collect::<Vec<_>>()
    );
    e.classes.clear();
    assert_eq!(reproducer_elements(&e, &[], 1000), [0]);
    assert_eq!(reproducer_elements(&e, &[], 0), Vec::<usize>::new());
}

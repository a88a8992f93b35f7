//! Unit tests of the deep tree's discovery guards.

use super::*;

use crate::testkit::deep_workspace as workspace;

fn guard_name(specs: &[Spec]) -> Option<&str> {
    match specs {
        [Spec {
            name,
            kind: SpecKind::Guard(msg),
        }] => {
            assert!(msg.contains(REGENERATE), "{msg}");
            Some(name.as_str())
        }
        _ => None,
    }
}

#[test]
fn a_missing_bad_or_stale_tree_is_one_guard_naming_the_command() {
    let ws = workspace();
    let target = ws.path().join("target");
    let root = default_dir(&target);
    let now = fingerprint(ws.path()).unwrap();
    let discover = |_: &Path, _: &Path| discover(&root, &now);
    assert_eq!(
        guard_name(&discover(ws.path(), &target)),
        Some("deep/missing")
    );
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join(INDEX_FILE), "{").unwrap();
    assert_eq!(
        guard_name(&discover(ws.path(), &target)),
        Some("deep/index")
    );
    let entry = CaseEntry {
        case: "cast19_FLOAT_to_INT8".into(),
        op: vocab::OpKind::Cast,
        version: 19,
        opset: 19,
        from: vocab::DataType::Float,
        to: vocab::DataType::Int8,
        attributes: Vec::new(),
        shape: crate::deep::CaseShape::Values,
        classes: vec![ClassRange {
            class: InputClass::Tie,
            start: 0,
            end: 2,
            authority: Authority::Page,
            citation: Citation {
                section: Section::OtherNumeric,
                rule: "truncation".into(),
                source: String::new(),
            },
        }],
    };
    let mut index = Index {
        format: FORMAT,
        fingerprint: "not these sources".into(),
        content_sha256: String::new(),
        cases: vec![entry],
        files: Default::default(),
    };
    let write = |index: &Index| {
        std::fs::write(root.join(INDEX_FILE), serde_json::to_string(index).unwrap()).unwrap()
    };
    write(&index);
    assert_eq!(
        guard_name(&discover(ws.path(), &target)),
        Some("deep/stale")
    );
    // The fingerprint of these (empty) sources makes the tree current: one trial per case.
    index.fingerprint = now.clone();
    write(&index);
    let specs = discover(ws.path(), &target);
    assert_eq!(specs.len(), 1);
    assert_eq!(specs[0].name, "deep/opset19/cast19_FLOAT_to_INT8");
    assert_eq!(index.cases[0].class_of(1), Some(InputClass::Tie));
    assert_eq!(index.cases[0].class_of(2), None);
    index.format = FORMAT + 1;
    write(&index);
    assert_eq!(
        guard_name(&discover(ws.path(), &target)),
        Some("deep/stale")
    );
}

#[test]
fn the_fingerprint_follows_the_sources_but_not_their_tests() {
    let ws = workspace();
    let src = ws.path().join("src");
    std::fs::create_dir_all(src.join("ops")).unwrap();
    std::fs::write(src.join("lib.rs"), "a").unwrap();
    let first = fingerprint(ws.path()).unwrap();
    std::fs::remove_dir_all(ws.path().join("vocab")).unwrap();
    assert!(
        fingerprint(ws.path()).is_err(),
        "a missing source is an error"
    );
    std::fs::create_dir_all(ws.path().join("vocab/src")).unwrap();
    std::fs::write(src.join("ops").join("tests.rs"), "test").unwrap();
    assert_eq!(fingerprint(ws.path()).unwrap(), first);
    std::fs::write(src.join("lib.rs"), "b").unwrap();
    assert_ne!(fingerprint(ws.path()).unwrap(), first);
}

#[test]
fn the_findings_code_leaves_the_fingerprint_alone_and_the_generator_does_not() {
    let ws = workspace();
    let deep = ws.path().join("deep/src");
    let before = fingerprint(ws.path()).unwrap();
    for excluded in [
        "findings.rs",
        "diagnosis.rs",
        "render.rs",
        "findings/group.rs",
        "integrity.rs",
        "runs.rs",
    ] {
        let path = deep.join(excluded);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "// changed").unwrap();
    }
    assert_eq!(fingerprint(ws.path()).unwrap(), before);
    for counted in ["values.rs", "new_generator_file.rs"] {
        std::fs::write(deep.join(counted), "// changed").unwrap();
        let now = fingerprint(ws.path()).unwrap();
        assert_ne!(now, before, "{counted}");
    }
}

/// The guard of the typed citations: each section's heading (or numbered item) is in
/// docs/semantics.md with the number and title the constant gives.
#[test]
fn semantics_sections_exist() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/semantics.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let heading = |number: &str| -> Option<(usize, &str)> {
        text.lines().enumerate().find_map(|(at, line)| {
            let title = line.strip_prefix("##")?.trim_start_matches('#').trim();
            let rest = title.strip_prefix(number)?;
            let rest = rest.strip_prefix('.').unwrap_or(rest);
            rest.starts_with(' ').then(|| (at, rest.trim_start()))
        })
    };
    for section in Section::ALL {
        let number = section.label().trim_start_matches('§');
        assert_eq!(Section::from_label(section.label()), Some(section));
        match section.item_of() {
            None => {
                let found = heading(number).map(|(_, title)| title);
                assert!(
                    found.is_some_and(|t| t.starts_with(section.title())),
                    "{section}: docs/semantics.md has heading {found:?}, the constant says {:?}",
                    section.title()
                );
            }
            Some((parent, item)) => {
                assert_eq!(number, format!("{parent}.{item}"), "{section:?}");
                let (at, _) = heading(parent).unwrap_or_else(|| panic!("{section}: no §{parent}"));
                let body = text
                    .lines()
                    .skip(at + 1)
                    .take_while(|l| !l.starts_with("## "));
                let want = format!("{item}. {}", section.title());
                assert!(
                    body.into_iter().any(|l| l.starts_with(&want)),
                    "{section}: §{parent} has no item {want:?}"
                );
            }
        }
    }
}

#[test]
fn every_case_shape_reads_back_as_written_and_others_are_refused() {
    let mut shapes = vec![
        CaseShape::Values,
        CaseShape::Scalar,
        CaseShape::ZeroDim,
        CaseShape::Initializer,
        CaseShape::Constant,
        CaseShape::ChainThrough(vocab::DataType::Float16),
        CaseShape::Inputs(2),
        CaseShape::EmptyInput,
    ];
    for encoding in crate::write::Encoding::VARIANTS {
        for initializer in [false, true] {
            shapes.push(CaseShape::Encoded {
                encoding,
                initializer,
            });
        }
    }
    for shape in shapes {
        let json = serde_json::to_string(&shape).unwrap();
        assert_eq!(
            serde_json::from_str::<CaseShape>(&json).unwrap(),
            shape,
            "{json}"
        );
    }
    assert_eq!(
        CaseShape::parse("encoding-packed-dims-initializer").map(|s| s.to_string()),
        Some("encoding-packed-dims-initializer".into())
    );
    for bad in [
        "",
        "value",
        "chain-through-FLOAT7",
        "encoding-onnx",
        "02-inputs",
        "x-inputs",
    ] {
        assert_eq!(CaseShape::parse(bad), None, "{bad}");
    }
}

#[test]
fn case_attributes_read_back_as_written_and_others_are_refused() {
    for text in [
        "saturate=0",
        "saturate=1",
        "round_mode=up",
        "round_mode=nearest",
        "axis=-3",
        "axis=0",
    ] {
        let a = CaseAttribute::parse(text).unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{text}\""));
    }
    for bad in [
        "saturate=2",
        "round_mode=Up",
        "axis=+1",
        "axis=01",
        "to=1",
        "axis",
    ] {
        assert_eq!(CaseAttribute::parse(bad), None, "{bad}");
    }
}

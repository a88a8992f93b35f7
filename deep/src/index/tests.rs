//! The index's vocabulary: each text form reads back as written, and the cited sections are
//! docs/semantics.md's.

use super::*;

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
        CaseShape::SignedZeros(6),
        CaseShape::Placed(1027),
    ];
    for encoding in Encoding::VARIANTS {
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

use super::*;

#[test]
fn codes_and_names_round_trip() {
    assert_eq!(DataType::ALL.len(), 28);
    for (i, &t) in DataType::ALL.iter().enumerate() {
        assert_eq!(t.code(), i as i32 + 1);
        assert_eq!(DataType::from_code(t.code()), Some(t));
        assert_eq!(DataType::from_name(t.name()), Some(t));
        assert_eq!(Storage::empty(t).dtype(), t);
    }
    assert_eq!(DataType::from_code(0), None);
    assert_eq!(DataType::from_code(29), None);
}

#[test]
fn short_names_are_unique() {
    let mut short: Vec<&str> = DataType::ALL.iter().map(|t| t.short_name()).collect();
    short.sort();
    short.dedup();
    assert_eq!(short.len(), DataType::ALL.len());
}

/// The kind column against the ONNX names, read independently of it: a row with the
/// wrong kind would change which types are compared exactly or parsed as integers.
#[test]
fn kinds_agree_with_the_onnx_names() {
    for &t in DataType::ALL {
        let name = t.name();
        let want = if name.starts_with("COMPLEX") {
            TypeKind::Complex
        } else if name == "FLOAT8E8M0" {
            TypeKind::PowerOfTwo
        } else if name.starts_with("FLOAT") || name == "DOUBLE" || name == "BFLOAT16" {
            TypeKind::Float
        } else if name.starts_with("UINT") {
            TypeKind::Unsigned
        } else if name.starts_with("INT") {
            TypeKind::Signed
        } else if name == "BOOL" {
            TypeKind::Bool
        } else {
            assert_eq!(name, "STRING");
            TypeKind::String
        };
        assert_eq!(t.kind(), want, "{name}");
    }
    let exact: Vec<&str> = DataType::ALL
        .iter()
        .filter(|t| !t.kind().is_exact())
        .map(|t| t.short_name())
        .collect();
    assert_eq!(
        exact,
        [
            "f32", "f16", "f64", "c64", "c128", "bf16", "e4m3", "e4m3z", "e5m2", "e5m2z", "e2m1",
            "e2m3", "e3m2"
        ]
    );
}

use super::*;

fn since(op: &str, opset: i64) -> u32 {
    resolve(op, opset).map(OpVersion::since).unwrap_or(0)
}

#[test]
fn resolves_the_largest_since_version_not_above_the_opset() {
    let cast = [
        (1, 1),
        (5, 1),
        (6, 6),
        (8, 6),
        (9, 9),
        (12, 9),
        (13, 13),
        (18, 13),
    ];
    for (opset, want) in cast {
        assert_eq!(since("Cast", opset), want, "opset {opset}");
    }
    let cast = [
        (19, 19),
        (20, 19),
        (21, 21),
        (22, 21),
        (23, 23),
        (24, 24),
        (25, 25),
    ];
    for (opset, want) in cast {
        assert_eq!(since("Cast", opset), want, "opset {opset}");
    }
    assert_eq!(since("Cast", 27), 25);
    let like = [
        (15, 15),
        (18, 15),
        (19, 19),
        (21, 21),
        (23, 23),
        (24, 24),
        (26, 25),
    ];
    for (opset, want) in like {
        assert_eq!(since("CastLike", opset), want, "opset {opset}");
    }
    let concat = [
        (1, 1),
        (3, 1),
        (4, 4),
        (10, 4),
        (11, 11),
        (12, 11),
        (13, 13),
        (25, 13),
    ];
    for (opset, want) in concat {
        assert_eq!(since("Concat", opset), want, "opset {opset}");
    }
}

#[test]
fn resolve_rejects_unknown_operators_and_low_opsets() {
    let err = resolve("Relu", 13).unwrap_err();
    assert!(matches!(err, Error::UnknownOperator { first: None, .. }));
    assert!(err.to_string().contains("Relu") && err.to_string().contains("13"));
    let err = resolve("CastLike", 14).unwrap_err();
    assert!(matches!(
        err,
        Error::UnknownOperator {
            first: Some(15),
            ..
        }
    ));
    assert!(err.to_string().contains("CastLike-15"), "{err}");
    assert!(resolve("Cast", 0).is_err());
    assert!(resolve("Concat", -3).is_err());
    assert!(resolve("cast", 13).is_err(), "op_type is case-sensitive");
}

#[test]
fn resolution_stops_at_the_newest_known_opset() {
    assert_eq!(since("Cast", 27), 25);
    assert_eq!(since("Cast", 28), 28);
    assert_eq!(since("CastLike", 28), 25);
    assert_eq!(since("Concat", 28), 13);
    for op in ["Cast", "CastLike", "Concat"] {
        let err = resolve(op, NEWEST_KNOWN_OPSET + 1).unwrap_err();
        assert!(
            matches!(err, Error::OpsetTooNew { newest: 28, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("opset 29"), "{err}");
    }
}

#[test]
fn only_table_rows_are_versions() {
    assert_eq!(OpVersion::of(OpKind::Cast, 7), None);
    assert_eq!(OpVersion::of(OpKind::CastLike, 1), None);
    assert_eq!(OpVersion::all().count(), VERSIONS.len());
    for s in VERSIONS {
        let v = s.version();
        assert!(std::ptr::eq(v.spec(), s), "{v}");
        assert_eq!((v.op(), v.since()), (s.op, s.since));
        assert_eq!(OpVersion::of(s.op, s.since), Some(v));
    }
}

#[test]
fn table_order_is_operator_then_since_version() {
    // OpVersion derives its order from the row index; this keeps it the (op, since) order.
    for pair in VERSIONS.windows(2) {
        assert!((pair[0].op, pair[0].since) < (pair[1].op, pair[1].since));
        assert!(pair[0].version < pair[1].version);
    }
}

#[test]
fn allowed_from_finds_the_first_later_version() {
    use DataType::*;
    assert_eq!(type_allowed_from(OpKind::Cast, 13, Float8E4M3FN), Some(19));
    assert_eq!(type_allowed_from(OpKind::Cast, 25, Complex64), None);
    assert_eq!(type_allowed_from(OpKind::Concat, 11, Bfloat16), Some(13));
    assert_eq!(attr_allowed_from(OpKind::Cast, 13, "saturate"), Some(19));
    assert_eq!(
        attr_allowed_from(OpKind::CastLike, 23, "round_mode"),
        Some(24)
    );
    assert_eq!(attr_allowed_from(OpKind::CastLike, 15, "to"), None);
    // "After": a version that already has the attribute or type, exactly at the version
    // that introduced it, names the next version that has it, never itself.
    assert_eq!(attr_allowed_from(OpKind::Cast, 19, "saturate"), Some(21));
    assert_eq!(attr_allowed_from(OpKind::Cast, 18, "saturate"), Some(19));
    assert_eq!(attr_allowed_from(OpKind::Cast, 24, "round_mode"), Some(25));
    assert_eq!(attr_allowed_from(OpKind::CastLike, 25, "round_mode"), None);
    assert_eq!(type_allowed_from(OpKind::Cast, 19, Float8E4M3FN), Some(21));
    assert_eq!(type_allowed_from(OpKind::Cast, 25, Int2), Some(28));
}

#[test]
fn cast_28_is_cast_25_plus_the_float6_types_and_castlike_has_none() {
    use DataType::{Float6E2M3, Float6E3M2};
    let types = |op, since| OpVersion::of(op, since).map(|v| v.spec().types);
    let cast_25 = types(Cast, 25).expect("Cast-25");
    let cast_28 = types(Cast, 28).expect("Cast-28");
    assert_eq!(cast_28, cast_25.with(&[Float6E2M3, Float6E3M2]));
    assert!(!cast_25.contains(Float6E2M3) && !cast_25.contains(Float6E3M2));
    // onnx 1.23's CastLike at opset 28 is still CastLike-25: no CastLike allows float6.
    assert_eq!(resolve("CastLike", 28).map(|v| v.spec().since()), Ok(25));
    for s in versions_of(CastLike) {
        assert!(!s.types.contains(Float6E2M3) && !s.types.contains(Float6E3M2));
    }
}

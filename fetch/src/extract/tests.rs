use super::*;

fn ops() -> Vec<String> {
    vec!["test_cast".into(), "test_concat".into()]
}

#[test]
fn selected_entries_map_into_node() {
    let t = |n: &str| target_of(n, &ops());
    let p = "onnx/backend/test/data/node/";
    assert_eq!(
        t(&format!("{p}test_cast_a/model.onnx")),
        Ok(Some("node/test_cast_a/model.onnx".into()))
    );
    assert_eq!(
        t(&format!("{p}test_castlike_a/test_data_set_0/input_0.pb")),
        Ok(Some(
            "node/test_castlike_a/test_data_set_0/input_0.pb".into()
        ))
    );
    assert_eq!(t(&format!("{p}test_cast_a/")), Ok(None));
    assert_eq!(t(&format!("{p}test_add/model.onnx")), Ok(None));
    assert_eq!(t("onnx/__init__.py"), Ok(None));
    assert_eq!(
        t(&format!(
            "onnx/backend/test/data/pytorch-converted/{}",
            "test_cast/x"
        )),
        Ok(None)
    );
}

#[test]
fn entries_escaping_the_target_are_rejected() {
    let p = "onnx/backend/test/data/node/";
    for evil in [
        format!("{p}test_cast_x/../../../../evil"),
        format!("{p}test_cast_x/a/../../b"),
        format!("{p}test_cast_x//etc/passwd"),
        format!("{p}test_cast_x/./model.onnx"),
        format!("{p}test_cast_x\\..\\..\\evil"),
        format!("{p}test_cast_x/C:/evil"),
    ] {
        let e = target_of(&evil, &ops());
        assert!(e.is_err(), "{evil} accepted: {e:?}");
    }
    // `test_concat..` is a legal (if odd) directory name; `..` inside a name is not a
    // parent reference, and the rest of its path is checked like any other.
    assert_eq!(
        target_of(&format!("{p}test_concat../evil"), &ops()),
        Ok(Some("node/test_concat../evil".into()))
    );
    // Absolute names never match the relative prefix, so nothing is extracted for them.
    assert_eq!(
        target_of(&format!("/{p}test_cast_x/model.onnx"), &ops()),
        Ok(None)
    );
}

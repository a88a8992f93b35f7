use super::*;

#[test]
fn network_failures_are_told_apart_from_missing_releases() {
    let net = "WARNING: Retrying (Retry(total=4)) after connection broken by \
               'NewConnectionError(...: Failed to establish a new connection')\n\
               ERROR: Could not find a version that satisfies the requirement onnx==1.2.3";
    assert!(is_network_error(net));
    assert!(network_line(net).contains("NewConnectionError"));
    let missing = "ERROR: Could not find a version that satisfies the requirement \
                   onnx==9.9.9 (from versions: none)\nERROR: No matching distribution found";
    assert!(!is_network_error(missing));
    assert_eq!(last_line(missing), "ERROR: No matching distribution found");
}

#[test]
fn a_missing_interpreter_names_itself_and_the_alternatives() {
    let e = check("/nonexistent/python3").expect_err("no such interpreter");
    assert!(e.message.contains("/nonexistent/python3"), "{e}");
    assert!(e.hint.as_deref().unwrap_or("").contains("--offline"), "{e}");
}

#[test]
fn the_cache_is_searched_by_locked_name_then_by_release() {
    let dir = tempfile::tempdir().expect("temp dir");
    let whl = dir
        .path()
        .join("onnx-1.2.3-cp36-cp36m-manylinux1_x86_64.whl");
    fs::write(&whl, b"x").expect("write");
    assert_eq!(cached(dir.path(), "1.2.3", None), Some(whl.clone()));
    assert_eq!(cached(dir.path(), "1.2.30", None), None);
    assert_eq!(cached(dir.path(), "1.2.3", Some("other.whl")), None);
}

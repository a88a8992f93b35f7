use super::*;

/// A target directory whose venv has a python and the packages `modules`.
fn target_with(modules: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let venv = python_venv(dir.path());
    std::fs::create_dir_all(venv.join("bin")).unwrap();
    std::fs::write(venv.join("bin/python"), "").unwrap();
    for m in modules {
        let package = venv.join("lib/python3.11/site-packages").join(m);
        std::fs::create_dir_all(&package).unwrap();
        std::fs::write(package.join("__init__.py"), "").unwrap();
    }
    dir
}

#[test]
fn a_python_backend_is_ready_only_when_the_venv_has_its_package() {
    let target = target_with(&["onnxruntime", "onnx"]);
    assert!(status(target.path(), "onnxruntime").starts_with("ready"));
    assert!(status(target.path(), "reference").starts_with("ready"));
    assert_eq!(
        status(target.path(), "openvino"),
        "not set up (openvino is not in the venv): cargo xtask backends setup openvino"
    );
    let target = target_with(&["openvino"]);
    assert!(status(target.path(), "openvino").starts_with("ready"));
    assert!(status(target.path(), "onnxruntime").starts_with("not set up"));
}

#[test]
fn no_venv_is_not_set_up() {
    let target = tempfile::tempdir().unwrap();
    for name in ["onnxruntime", "reference", "openvino"] {
        assert_eq!(
            status(target.path(), name),
            format!("not set up: cargo xtask backends setup {name}")
        );
    }
}

/// A linked runtime is ready once setup has built the conformance binary with its feature
/// (the stamp it writes last), and says how to set it up before.
#[test]
fn a_linked_runtime_is_ready_once_its_build_succeeded() {
    let target = tempfile::tempdir().unwrap();
    for name in ["rten", "candle"] {
        assert_eq!(
            status(target.path(), name),
            format!("not set up: cargo xtask backends setup {name}")
        );
        let stamp = Shipped::find(name).unwrap().needs(target.path()).unwrap();
        std::fs::create_dir_all(stamp.parent().unwrap()).unwrap();
        std::fs::write(&stamp, "").unwrap();
        assert!(status(target.path(), name).starts_with("ready"));
    }
}

use super::*;

/// Without the venv, the task says which command makes it.
#[test]
fn a_missing_venv_names_the_setup_command() {
    let dir = tempfile::tempdir().unwrap();
    let e = interpreter(dir.path()).unwrap_err().to_string();
    assert!(e.contains("cargo xtask backends setup reference"), "{e}");
}

/// A venv without onnx is refused the same way, naming the package.
#[test]
fn a_venv_without_onnx_names_the_package() {
    let dir = tempfile::tempdir().unwrap();
    let venv = harness::backend::python_venv(dir.path());
    std::fs::create_dir_all(venv.join("bin")).unwrap();
    std::fs::write(venv.join("bin").join("python"), "").unwrap();
    let e = interpreter(dir.path()).unwrap_err().to_string();
    assert!(e.contains("lacks onnx"), "{e}");
    assert!(e.contains("cargo xtask backends setup reference"), "{e}");
}

/// The script the task runs is in the repository.
#[test]
fn the_script_exists() {
    assert!(crate::workspace::root().join(SCRIPT).is_file());
}

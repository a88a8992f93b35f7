use super::*;

#[test]
fn a_module_and_an_optional_class_are_parsed_and_named() {
    let b = OnnxBackend::parse("onnx-backend:onnxruntime.backend")
        .expect("the prefix")
        .expect("valid");
    assert_eq!(b.module, "onnxruntime.backend");
    assert_eq!(b.class, None);
    assert_eq!(b.name(), "onnx-backend:onnxruntime.backend");
    assert_eq!(b.label(), "onnx-backend.onnxruntime.backend");
    let b = OnnxBackend::parse("onnx-backend:my_rt.api:My_Backend")
        .expect("the prefix")
        .expect("valid");
    assert_eq!(b.class.as_deref(), Some("My_Backend"));
    assert_eq!(b.name(), "onnx-backend:my_rt.api:My_Backend");
    assert_eq!(b.label(), "onnx-backend.my-rt.api.my-backend");
    assert!(OnnxBackend::parse("worker:x=y").is_none());
}

#[test]
fn a_name_that_is_no_python_module_or_class_is_refused_saying_how_to_write_it() {
    for bad in [
        "onnx-backend:",
        "onnx-backend:no such",
        "onnx-backend:a..b",
        "onnx-backend:1abc",
        "onnx-backend:a.b:",
        "onnx-backend:a.b:C.D",
        "onnx-backend:a/../../etc",
    ] {
        let e = OnnxBackend::parse(bad)
            .expect("the prefix")
            .expect_err(bad)
            .to_string();
        assert!(e.contains("onnx-backend:MODULE[:CLASS]"), "{bad}: {e}");
    }
}

#[test]
fn the_worker_runs_the_compiled_in_adapter_with_the_python_given() {
    let dir = crate::testkit::scratch("onnx-backend-scripts");
    let b = OnnxBackend::parse("onnx-backend:my_rt:Backend")
        .expect("the prefix")
        .expect("valid");
    let spec = b
        .worker(
            Path::new("/usr/bin/python3"),
            dir.path(),
            Duration::from_secs(5),
        )
        .expect("written");
    assert_eq!(spec.argv[0], "/usr/bin/python3");
    assert!(
        spec.argv[1].ends_with("onnx_backend_worker.py"),
        "{:?}",
        spec.argv
    );
    assert!(Path::new(&spec.argv[1]).is_file());
    assert_eq!(spec.argv[2], "my_rt:Backend");
}

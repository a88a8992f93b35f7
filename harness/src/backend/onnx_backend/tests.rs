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
        let e = OnnxBackend::parse(bad).expect("the prefix").expect_err(bad);
        assert!(e.contains("onnx-backend:MODULE[:CLASS]"), "{bad}: {e}");
    }
}

#[test]
fn the_adapter_is_written_from_this_binary_and_rewritten_only_when_it_differs() {
    let dir = crate::testkit::scratch("onnx-backend-scripts");
    let b = OnnxBackend::parse("onnx-backend:onnxruntime.backend")
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
    assert_eq!(spec.argv[2], "onnxruntime.backend");
    let script = PathBuf::from(&spec.argv[1]);
    assert_eq!(
        std::fs::read_to_string(&script).expect("the adapter"),
        SCRIPTS[1].1
    );
    let beside = script.with_file_name("worker_loop.py");
    assert_eq!(
        std::fs::read_to_string(&beside).expect("the loop"),
        SCRIPTS[0].1
    );
    // A damaged copy is replaced on the next start.
    std::fs::write(&script, "damaged").expect("write");
    b.worker(Path::new("python3"), dir.path(), Duration::from_secs(5))
        .expect("written again");
    assert_eq!(
        std::fs::read_to_string(&script).expect("the adapter"),
        SCRIPTS[1].1
    );
}

use super::*;

#[test]
fn every_script_is_written_whole_from_this_binary_and_a_damaged_copy_is_replaced() {
    let dir = crate::testkit::scratch("python-scripts");
    let adapter = script(dir.path(), "onnx_backend_worker.py").expect("written");
    let beside = adapter.parent().expect("a directory");
    for (name, text) in SCRIPTS {
        let held = std::fs::read_to_string(beside.join(name)).expect(name);
        assert_eq!(held, text, "{name}");
    }
    std::fs::write(beside.join("worker_loop.py"), "damaged").expect("write");
    let again = script(dir.path(), "reference_worker.py").expect("written again");
    assert_eq!(again.parent(), Some(beside));
    assert_eq!(
        std::fs::read_to_string(beside.join("worker_loop.py")).expect("loop"),
        SCRIPTS[0].1
    );
}

#[test]
fn a_script_that_is_not_compiled_in_is_an_error_naming_it() {
    let dir = crate::testkit::scratch("python-missing");
    let e = script(dir.path(), "my_worker.py").expect_err("not compiled in");
    assert!(e.to_string().contains("my_worker.py"), "{e}");
}

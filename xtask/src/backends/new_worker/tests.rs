use super::*;

#[test]
fn the_skeleton_is_written_with_its_name_and_never_overwritten() {
    let root = tempfile::tempdir().unwrap();
    let path = write(root.path(), "myrt", None).unwrap();
    assert_eq!(path, root.path().join("backends/workers/myrt_worker.py"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("{{"), "a placeholder is left:\n{text}");
    assert!(text.contains("RUNTIME = \"myrt\""));
    assert!(text.contains("written by `cargo xtask backends new-worker myrt`"));
    assert!(
        text.contains("\"../../harness/python\""),
        "worker_loop is found beside it:\n{text}"
    );
    assert!(text.contains("# TODO: your runtime"));

    std::fs::write(&path, "mine").unwrap();
    let refused = write(root.path(), "myrt", None).unwrap_err();
    assert!(refused.contains("is not overwritten"), "{refused}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
}

#[test]
fn out_places_it_and_finds_worker_loop_from_there() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("a/b/rt_worker.py");
    let path = write(root.path(), "rt", Some(&out)).unwrap();
    assert_eq!(path, out);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"../../harness/python\""), "{text}");

    let elsewhere = tempfile::tempdir().unwrap();
    let out = elsewhere.path().join("rt_worker.py");
    write(root.path(), "rt", Some(&out)).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let absolute = root.path().join("harness/python");
    assert!(
        text.contains(&format!("\"{}\"", absolute.display())),
        "{text}"
    );

    let not_py = write(root.path(), "rt", Some(&root.path().join("rt.txt"))).unwrap_err();
    assert!(not_py.contains("does not end in .py"), "{not_py}");
}

#[test]
fn a_bad_name_is_refused_before_anything_is_written() {
    let root = tempfile::tempdir().unwrap();
    for bad in ["", "MyRt", "-rt", "my rt", "a/b", "onnxruntime", "data"] {
        let why = write(root.path(), bad, None).unwrap_err();
        assert!(why.starts_with("new-worker: "), "{bad:?}: {why}");
    }
    assert!(!root.path().join("backends").exists());
}

use super::*;

// What the skeleton holds, where the loop is found from and which names are refused are the
// harness's (`harness::worker_skeleton`'s tests); here, only what the task adds.
#[test]
fn the_task_writes_under_backends_workers_and_finds_the_loop_in_the_checkout() {
    let root = tempfile::tempdir().unwrap();
    let path = write(root.path(), "myrt", None).unwrap();
    assert_eq!(path, root.path().join("backends/workers/myrt_worker.py"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("written by `cargo xtask backends new-worker myrt`"));
    assert!(text.contains("\"../../harness/python\""), "{text}");
    assert!(!root.path().join("backends/workers/worker_loop.py").exists());
    let refused = write(root.path(), "myrt", None).unwrap_err();
    assert!(refused.starts_with("new-worker: ") && refused.contains("is not overwritten"));
    let bad = write(root.path(), "MyRt", None).unwrap_err();
    assert!(bad.starts_with("new-worker: "), "{bad}");
}

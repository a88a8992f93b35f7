use super::*;

const WORDS: Words<'static> = Words {
    written_by: "onnx-conformance worker new myrt",
    check: "onnx-conformance worker check 'python3 myrt_worker.py'",
};

#[test]
fn the_skeleton_is_written_with_its_loop_beside_it_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("myrt_worker.py");
    let written = write("myrt", &out, &LoopAt::Beside, &WORDS).unwrap();
    let beside = dir.path().join("worker_loop.py");
    assert_eq!(
        written,
        Written {
            worker: out.clone(),
            worker_loop: Some(beside.clone())
        }
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("{{"), "a placeholder is left:\n{text}");
    assert!(text.contains("RUNTIME = \"myrt\""));
    assert!(text.contains("written by `onnx-conformance worker new myrt`"));
    assert!(text.contains("`onnx-conformance worker check 'python3 myrt_worker.py'`"));
    assert!(text.contains("abspath(__file__)), \".\"))"), "{text}");
    assert!(text.contains("# TODO: your runtime"));
    assert_eq!(
        std::fs::read_to_string(&beside).unwrap(),
        crate::backend::python::worker_loop()
    );

    // A second worker beside the first shares the loop already there.
    let other = dir.path().join("other_worker.py");
    let second = write("other", &other, &LoopAt::Beside, &WORDS).unwrap();
    assert_eq!(second.worker_loop, None);

    std::fs::write(&out, "mine").unwrap();
    let refused = write("myrt", &out, &LoopAt::Beside, &WORDS)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("is not overwritten"), "{refused}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
}

#[test]
fn a_loop_beside_that_differs_is_kept_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("worker_loop.py"), "old").unwrap();
    let out = dir.path().join("rt_worker.py");
    let refused = write("rt", &out, &LoopAt::Beside, &WORDS)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("not this version's protocol loop"),
        "{refused}"
    );
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("worker_loop.py")).unwrap(),
        "old"
    );
}

#[test]
fn a_loop_directory_is_relative_inside_the_root_and_absolute_outside() {
    let root = tempfile::tempdir().unwrap();
    let at = LoopAt::Dir {
        dir: root.path().join("harness/python"),
        root: root.path().to_path_buf(),
    };
    let out = root.path().join("a/b/rt_worker.py");
    let written = write("rt", &out, &at, &WORDS).unwrap();
    assert_eq!(written.worker_loop, None);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("\"../../harness/python\""), "{text}");
    assert!(!root.path().join("a/b/worker_loop.py").exists());

    let elsewhere = tempfile::tempdir().unwrap();
    let out = elsewhere.path().join("rt_worker.py");
    write("rt", &out, &at, &WORDS).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let absolute = root.path().join("harness/python");
    assert!(
        text.contains(&format!("\"{}\"", absolute.display())),
        "{text}"
    );
}

#[test]
fn a_bad_name_or_file_name_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    for bad in ["", "MyRt", "-rt", "my rt", "a/b", "onnxruntime", "data"] {
        let out = dir.path().join("w").join("x_worker.py");
        assert!(
            write(bad, &out, &LoopAt::Beside, &WORDS).is_err(),
            "{bad:?}"
        );
    }
    let not_py = write("rt", &dir.path().join("w/rt.txt"), &LoopAt::Beside, &WORDS)
        .unwrap_err()
        .to_string();
    assert!(not_py.contains("does not end in .py"), "{not_py}");
    assert!(!dir.path().join("w").exists());
}

#[test]
fn command_words_are_quoted_only_when_needed() {
    assert_eq!(quoted("/usr/bin/python3"), "/usr/bin/python3");
    assert_eq!(quoted("/a b/w.py"), "'/a b/w.py'");
    assert_eq!(quoted("a$b"), "'a$b'");
}

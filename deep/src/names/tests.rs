use super::*;

fn values(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn all_ready(_: &str) -> Result<(), String> {
    Ok(())
}

#[test]
fn shipped_names_and_worker_labels_are_accepted() {
    let chosen = check(
        &values(&["onnxruntime", "worker:myrt=python3 w.py --x a,b", "native"]),
        all_ready,
    )
    .expect("valid");
    let labels: Vec<&str> = chosen.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["onnxruntime", "myrt", "native"]);
    assert_eq!(chosen[1].value, "worker:myrt=python3 w.py --x a,b");
}

#[test]
fn a_misspelt_name_is_refused_naming_the_list_command() {
    let e = check(&values(&["onnxruntime", "onnxrutime"]), all_ready).expect_err("misspelt");
    assert!(e.contains("onnxrutime"), "{e}");
    assert!(e.contains("cargo xtask backends list"), "{e}");
}

#[test]
fn a_shipped_backend_that_is_not_set_up_is_refused_with_its_reason() {
    let not_set_up = |n: &str| match n {
        "tract" => Err("not set up: cargo xtask backends setup tract".to_string()),
        _ => Ok(()),
    };
    let e = check(&values(&["native", "tract"]), not_set_up).expect_err("tract");
    assert!(e.contains("cargo xtask backends setup tract"), "{e}");
    assert!(check(&values(&["native"]), not_set_up).is_ok());
}

#[test]
fn bad_workers_and_repeated_labels_are_refused() {
    for bad in [
        "worker:python3 w.py",             // no label
        "worker:My RT=python3 w.py",       // not a label
        "worker:onnxruntime=python3 w.py", // a shipped name
        "worker:myrt=",                    // no command
    ] {
        assert!(check(&values(&[bad]), all_ready).is_err(), "{bad}");
    }
    let e = check(&values(&["worker:a=x", "worker:a=y"]), all_ready).expect_err("twice");
    assert!(e.contains("twice"), "{e}");
}

#[test]
fn a_worker_reports_and_reproduces_under_its_label() {
    let chosen = check(&values(&["worker:myrt=python3 w.py"]), all_ready).expect("valid");
    let target = Path::new("/t");
    assert_eq!(
        chosen[0].report_dir(target),
        Path::new("/t/onnx-conformance/deep/reports/backend-myrt")
    );
    let ort = check(&values(&["onnxruntime"]), all_ready).expect("valid");
    assert_eq!(
        ort[0].report_dir(target),
        Path::new("/t/onnx-conformance/deep/reports/backend-onnxruntime")
    );
    let native = check(&values(&["native"]), all_ready).expect("valid");
    assert_eq!(
        native[0].report_dir(target),
        Path::new("/t/onnx-conformance/deep/reports/native")
    );
}

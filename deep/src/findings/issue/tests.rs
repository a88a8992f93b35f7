use super::*;
use crate::findings::diagnosis::Behaviour;
use crate::findings::finding::Inherited;
use crate::testkit::{all, diagnosed, finding};

#[test]
fn every_script_is_at_most_twenty_lines_of_valid_python_or_shell() {
    for backend in [
        "onnxruntime",
        "reference",
        "openvino",
        "onnx-backend",
        "myrt",
    ] {
        let how = How {
            label: backend.to_string(),
            value: Some(format!("worker:{backend}=python3 my worker.py")),
            configuration: Some("unoptimized-all-threads".into()),
        };
        let s = script(&how);
        let (lang, code) = s.split_once('\n').unwrap();
        assert!(
            code.lines().count() <= MAX_SCRIPT_LINES,
            "{backend}: {} lines",
            code.lines().count()
        );
        if lang == "python" {
            // Parsed by Python itself, so a quoting slip in the Rust text shows here.
            let out = std::process::Command::new("python3")
                .args(["-c", "import ast, sys; ast.parse(sys.stdin.read())"])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn()
                .and_then(|mut p| {
                    use std::io::Write;
                    p.stdin.take().unwrap().write_all(code.as_bytes())?;
                    p.wait()
                })
                .expect("python3 on PATH");
            assert!(out.success(), "{backend}: not valid Python:\n{code}");
        } else {
            assert_eq!(lang, "sh");
            // The command as the run was given it, quoted for the shell, in its configuration.
            assert!(
                code.contains("--backend 'worker:myrt=python3 my worker.py' custom/"),
                "{code}"
            );
            assert!(
                code.contains("--configuration unoptimized-all-threads"),
                "{code}"
            );
        }
    }
}

#[test]
fn a_bug_gets_a_body_with_its_rule_its_smallest_input_and_its_reproducer() {
    let mut f = diagnosed(
        finding("onnxruntime", "FLOAT", "FLOAT8E4M3FN", Verdict::Disagrees),
        Behaviour::SaturateIgnored,
    );
    f.reproducer = "onnxruntime/cast19_FLOAT_to_FLOAT8E4M3FN_saturate0__tie".into();
    let refused = finding("onnxruntime", "FLOAT", "FLOAT4E2M1", Verdict::Unsupported);
    let mut found = all(&["onnxruntime"], vec![f, refused]);
    let bodies = write_all(&mut found);
    assert_eq!(bodies.len(), 1, "only the bug gets a body");
    let (path, text) = &bodies[0];
    assert_eq!(path, "onnxruntime/issue-01-saturate-ignored.md");
    let bug = found
        .causes
        .iter()
        .find(|c| c.verdict == Verdict::Disagrees)
        .unwrap();
    assert_eq!(&bug.issue, path);
    assert!(found
        .causes
        .iter()
        .filter(|c| c.verdict != Verdict::Disagrees)
        .all(|c| c.issue.is_empty()));
    assert!(text.starts_with("# onnxruntime "), "{text}");
    assert!(text.contains("saturate=0 is ignored"), "{text}");
    // The fixture's rule and its example's bits, expected and actual.
    assert!(text.contains("**The rule.** into FLOAT8E4M3FN the value rounds once"));
    assert!(text.contains("`0x3f900000` (1.125)"), "{text}");
    assert!(
        text.contains("expected `0x3c` (1.0), actual `0x3d` (1.25)"),
        "{text}"
    );
    assert!(text.contains("`onnxruntime/cast19_FLOAT_to_FLOAT8E4M3FN_saturate0__tie`"));
    assert!(text.contains("ort.InferenceSession"));
}

#[test]
fn a_defect_inherited_from_onnx_is_one_body_addressed_to_onnx() {
    let mk = |b: &str| {
        let mut f = diagnosed(
            finding(b, "FLOAT", "FLOAT8E8M0", Verdict::Disagrees),
            Behaviour::RoundModeIgnored,
        );
        f.op = vocab::OpKind::CastLike;
        f
    };
    let mut found = all(
        &["onnxruntime", "reference"],
        vec![mk("onnxruntime"), mk("reference")],
    );
    for c in &mut found.causes {
        c.inherited = Some(Inherited {
            from: "onnx".into(),
            text: "CastLike's body drops round_mode".into(),
        });
    }
    let bodies = write_all(&mut found);
    assert_eq!(bodies.len(), 1);
    assert_eq!(bodies[0].0, "onnx/issue-01-round-mode-ignored.md");
    assert!(bodies[0].1.starts_with("# onnx: round_mode is ignored"));
    assert!(found.causes.iter().all(|c| c.issue == bodies[0].0));
}

#[test]
fn an_onnxruntime_script_sets_the_configuration_its_cause_shows_in() {
    let how = |c: Option<&str>| How {
        label: "onnxruntime".into(),
        value: Some("onnxruntime".into()),
        configuration: c.map(String::from),
    };
    let default = script(&how(None));
    assert!(default.contains("ORT_ENABLE_ALL") && default.contains("intra_op_num_threads = 1"));
    let other = script(&how(Some("unoptimized-all-threads")));
    assert!(other.contains("ORT_DISABLE_ALL") && other.contains("intra_op_num_threads = 0"));
}

use super::*;
use crate::testkit::{all, finding};
use std::path::PathBuf;

fn refusals() -> Vec<Finding> {
    vec![
        finding("onnxruntime", "FLOAT", "FLOAT4E2M1", Verdict::Unsupported),
        finding("onnxruntime", "DOUBLE", "FLOAT4E2M1", Verdict::Unsupported),
        finding("onnxruntime", "FLOAT4E2M1", "FLOAT16", Verdict::Unsupported),
        finding("onnxruntime", "FLOAT", "INT2", Verdict::Unsupported),
        finding("onnxruntime", "FLOAT", "FLOAT4E2M1", Verdict::Error),
        finding("myrt", "FLOAT", "FLOAT4E2M1", Verdict::Unsupported),
    ]
}

fn case(op: &str, version: u32, from: &str, to: &str) -> CaseEntry {
    CaseEntry {
        case: format!("{}{version}_{from}_to_{to}", op.to_lowercase()),
        op: vocab::OpKind::from_name(op).unwrap(),
        version,
        opset: version.into(),
        from: vocab::DataType::from_name(from).unwrap(),
        to: vocab::DataType::from_name(to).unwrap(),
        attributes: Vec::new(),
        shape: crate::index::CaseShape::Values,
        classes: Vec::new(),
        period: None,
    }
}

/// A tree where FLOAT, DOUBLE and FLOAT16 are in many cases and the small types in few, and
/// every case of the refusals above (Cast-19).
fn tree() -> Vec<CaseEntry> {
    let mut t = Vec::new();
    for v in [19, 21, 23, 24, 25] {
        for (from, to) in [
            ("FLOAT", "DOUBLE"),
            ("DOUBLE", "FLOAT"),
            ("FLOAT", "FLOAT16"),
            ("FLOAT16", "DOUBLE"),
            ("FLOAT", "INT8"),
            ("FLOAT", "FLOAT4E2M1"),
            ("DOUBLE", "FLOAT4E2M1"),
            ("FLOAT4E2M1", "FLOAT16"),
            ("FLOAT", "INT2"),
            ("INT16", "FLOAT"),
        ] {
            t.push(case("Cast", v, from, to));
        }
    }
    for (from, to) in [("FLOAT", "DOUBLE"), ("INT16", "FLOAT")] {
        t.push(case("Cast", 1, from, to));
    }
    t
}

fn index(t: &[CaseEntry]) -> BTreeMap<&str, &CaseEntry> {
    t.iter().map(|c| (c.case.as_str(), c)).collect()
}

#[test]
fn refusals_share_one_reproducer_per_backend_verdict_and_type() {
    let mut f = refusals();
    // Cast-1 refused for every pair: blamed on the version, not on a type.
    f.push(finding(
        "onnxruntime",
        "FLOAT",
        "DOUBLE",
        Verdict::Unsupported,
    ));
    f.push(finding(
        "onnxruntime",
        "INT16",
        "FLOAT",
        Verdict::Unsupported,
    ));
    for g in &mut f[6..] {
        g.op_versions = vec![1];
        g.cases = vec![format!("cast1_{}_to_{}", g.from, g.to)];
    }
    for g in &mut f[..6] {
        g.cases = vec![format!("cast19_{}_to_{}", g.from, g.to)];
    }
    let t = tree();
    let p = plan(&f, &index(&t));
    let rels: Vec<&str> = p.iter().map(|p| p.rel.as_str()).collect();
    assert_eq!(
        rels,
        [
            "onnxruntime/unsupported__FLOAT4E2M1",
            "onnxruntime/unsupported__INT2",
            "onnxruntime/error__FLOAT4E2M1",
            "myrt/unsupported__FLOAT4E2M1",
            "onnxruntime/unsupported__Cast-1",
        ]
    );
    assert_eq!(p[0].members, [0, 1, 2]);
    assert_eq!(p[4].members, [6, 7]);
    assert_eq!(p[0].refused_type.as_deref(), Some("FLOAT4E2M1"));
}

#[test]
fn classes_that_ran_get_their_own_reproducer_under_their_backend_label() {
    let mut a = finding("myrt", "FLOAT", "FLOAT16", Verdict::Disagrees);
    let mut b = a.clone();
    b.verdict = Verdict::DiffersFromReading;
    a.input_class = crate::findings::FindingClass::Input(crate::index::InputClass::Tie);
    b.input_class = crate::findings::FindingClass::Input(crate::index::InputClass::Tie);
    let c = finding("myrt", "DOUBLE", "FLOAT16", Verdict::Disagrees);
    let p = plan(&[a, b, c], &BTreeMap::new());
    let rels: Vec<&str> = p.iter().map(|p| p.rel.as_str()).collect();
    assert_eq!(
        rels,
        [
            "myrt/cast19_FLOAT_to_FLOAT16__tie",
            "myrt/cast19_FLOAT_to_FLOAT16__tie-2",
            "myrt/cast19_DOUBLE_to_FLOAT16__tie",
        ]
    );
    assert!(p
        .iter()
        .all(|p| p.refused_type.is_none() && p.members.len() == 1));
}

#[test]
fn the_readme_says_what_the_finding_is_and_how_to_run_it() {
    let f = finding("onnxruntime", "FLOAT", "FLOAT8E4M3FN", Verdict::Disagrees);
    let p = &plan(std::slice::from_ref(&f), &BTreeMap::new())[0];
    let text = readme(p, &[&f], &Links::default());
    assert!(text.starts_with("# onnxruntime 1.0: Cast-19,21 FLOAT → FLOAT8E4M3FN"));
    assert!(text.contains("disagrees (page)"));
    assert!(text.contains("into FLOAT8E4M3FN the value rounds once, to nearest even"));
    assert!(text.contains("| 0 | 7 | `0x3f900000` (1.125) | `0x3c` (1.0) | `0x3d` (1.25) |"));
    assert!(text.contains("python run.py --runtime reference"));
    assert!(text.contains("[source](https://github.com/onnx/onnx/"));
    // No link to itself.
    assert!(!text.contains("README.md)"));
    // docs/semantics.md from findings/<backend>/<name>/, three levels below findings.html.
    let real = Links::of(
        &crate::testkit::root(),
        &crate::testkit::root().join("target/onnx-conformance/deep"),
    );
    let text = readme(p, &[&f], &real);
    assert!(
        text.contains(
            "[§3.3](../../../../../../docs/semantics.md#33-rounding-into-a-narrower-float-format)"
        ),
        "{text}"
    );
    let f = refusals();
    let t = tree();
    let p = &plan(&f, &index(&t))[0];
    let members: Vec<&Finding> = p.members.iter().map(|&i| &f[i]).collect();
    let text = readme(p, &members, &Links::default());
    assert!(text.starts_with("# onnxruntime 1.0: refuses FLOAT4E2M1"));
    assert!(text.contains("3 class(es) share this reproducer"));
    assert!(text.contains("- Cast-19,21 DOUBLE → FLOAT4E2M1: FLOAT4E2M1 is not supported"));
}

#[test]
fn run_py_decodes_every_small_type_itself() {
    // No ml_dtypes: the script carries its own table of docs/semantics.md §3.1.
    assert!(!RUN_PY.contains("import ml_dtypes"));
    for name in [
        "FLOAT8E4M3FNUZ",
        "FLOAT4E2M1",
        "FLOAT6E3M2",
        "FLOAT8E8M0",
        "INT2",
        "--runtime",
    ] {
        assert!(RUN_PY.contains(name), "{name}");
    }
}

/// A real deep case written to `dir`, with its index entry.
fn write_case(dir: &Path, name: &str) -> CaseEntry {
    let plans = crate::generate::plan::plans();
    let (name, plan) = plans
        .iter()
        .find(|(n, _)| n == name)
        .expect("the case is planned");
    let (entry, graph) = crate::generate::plan::build(name, plan);
    for (rel, bytes) in crate::generate::model::files(name, &graph).unwrap() {
        let p = dir.join(name).join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    entry
}

#[test]
fn write_all_writes_each_reproducer_with_run_py_and_readme_and_points_the_findings_at_them() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = tmp.path().join("cases");
    let name = crate::generate::plan::plans()
        .into_iter()
        .map(|(n, _)| n)
        .find(|n| n.starts_with("cast19_FLOAT_to_FLOAT16"))
        .expect("a Cast-19 FLOAT to FLOAT16 case");
    let entry = write_case(&cases, &name);
    let by_case: BTreeMap<&str, &CaseEntry> = [(entry.case.as_str(), &entry)].into();
    let mut ran = finding("worker-x", "FLOAT", "FLOAT16", Verdict::Disagrees);
    ran.examples[0].index = 1;
    let mut findings = vec![
        ran,
        finding("worker-x", "FLOAT", "FLOAT16", Verdict::Unsupported),
        finding("worker-x", "DOUBLE", "FLOAT16", Verdict::Unsupported),
    ];
    for f in &mut findings {
        f.source_case = entry.case.clone();
    }
    let out = tmp.path().join("findings");
    write_all(&out, &cases, &by_case, &mut findings, &Links::default()).unwrap();
    let rels: Vec<&str> = findings.iter().map(|f| f.reproducer.as_str()).collect();
    let tie = format!("worker-x/{}__tie", entry.case);
    assert_eq!(
        rels,
        [
            tie.as_str(),
            "worker-x/unsupported__FLOAT16",
            "worker-x/unsupported__FLOAT16"
        ]
    );
    for rel in [tie.as_str(), "worker-x/unsupported__FLOAT16"] {
        let dir: PathBuf = out.join(rel);
        for file in [
            "model.onnx",
            "run.py",
            "README.md",
            "test_data_set_0/input_0.pb",
            "test_data_set_0/output_0.pb",
        ] {
            assert!(dir.join(file).is_file(), "{rel}/{file}");
        }
        assert_eq!(std::fs::read_to_string(dir.join("run.py")).unwrap(), RUN_PY);
    }
    // The cut case holds the example's element only.
    let cut = harness::read::load_case(&out.join(&tie)).unwrap();
    assert_eq!(cut.data_sets[0].outputs[0].len(), 1);
    let a = all(&["worker-x"], findings);
    assert!(crate::findings::render::markdown(&a, &Links::default())
        .contains("(findings/worker-x/unsupported__FLOAT16/README.md)"));
}

#[test]
fn outputs_are_replaced_only_after_a_successful_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path();
    let cases = out.join(crate::index::CASES_DIR);
    let name = crate::generate::plan::plans()
        .into_iter()
        .map(|(n, _)| n)
        .find(|n| n.starts_with("cast19_FLOAT_to_FLOAT16"))
        .expect("a Cast-19 FLOAT to FLOAT16 case");
    let entry = write_case(&cases, &name);
    let by_case: BTreeMap<&str, &CaseEntry> = [(entry.case.as_str(), &entry)].into();
    // The last good outputs.
    std::fs::create_dir_all(out.join("findings/onnxruntime/old")).unwrap();
    std::fs::write(out.join("findings.json"), "old").unwrap();
    let listing = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = walkdir::WalkDir::new(dir)
            .into_iter()
            .flatten()
            .map(|e| e.path().strip_prefix(dir).unwrap().display().to_string())
            .filter(|p| !p.starts_with("cases"))
            .collect();
        v.sort();
        v
    };
    let lock =
        schema::files::DirLock::acquire(out, "this test", schema::files::WhenBusy::Stop, |_| {})
            .unwrap();
    let before = listing(out);
    // A finding whose case is not in the tree: the run fails, nothing changes.
    let mut lost = finding("myrt", "FLOAT", "FLOAT16", Verdict::Disagrees);
    lost.source_case = "no_such_case".into();
    let root = crate::testkit::root();
    let failed = crate::findings::publish(&root, &lock, &by_case, vec![lost], Vec::new(), "ab");
    assert!(failed.is_err());
    assert_eq!(listing(out), before);
    assert_eq!(
        std::fs::read_to_string(out.join("findings.json")).unwrap(),
        "old"
    );
    // A good run replaces them all.
    let mut f = finding("myrt", "FLOAT", "FLOAT16", Verdict::Disagrees);
    f.source_case = entry.case.clone();
    f.examples[0].index = 1;
    let all = crate::findings::publish(&root, &lock, &by_case, vec![f], Vec::new(), "ab").unwrap();
    assert_eq!(
        all.findings[0].reproducer,
        format!("myrt/{}__tie", entry.case)
    );
    assert!(!out.join("findings/onnxruntime").exists());
    assert!(out
        .join("findings")
        .join(&all.findings[0].reproducer)
        .join("run.py")
        .is_file());
    for file in ["findings.json", "findings.md", "findings.html"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    assert!(std::fs::read_to_string(out.join("findings.json"))
        .unwrap()
        .contains("\"reproducer\": \"myrt/"));
    assert!(!listing(out).iter().any(|p| p.starts_with("findings.new")));
}

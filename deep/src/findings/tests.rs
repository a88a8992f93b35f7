use super::diagnosis::Behaviour;
use super::group::{absorb, causes, Classes, Judged, MAX_EXAMPLES};
use super::judge::{judge, never_ran, value};
use super::reproducer::{reproducer_elements, REFUSED_ELEMENTS};
use super::*;
use crate::index::{Authority, CaseAttribute, CaseEntry, CaseShape, Citation, InputClass, Section};
use harness::backend::FailureKind;
use harness::known::Outcome;
use harness::report::{self, TrialRecord};
use schema::files::DirLock;
use std::collections::BTreeMap;
use std::path::Path;
use vocab::{DataType, OpKind};

fn entry(op: &str, version: u32, from: &str, to: &str, case: &str) -> CaseEntry {
    CaseEntry {
        case: case.into(),
        op: OpKind::from_name(op).unwrap(),
        version,
        opset: version.into(),
        from: DataType::from_name(from).unwrap(),
        to: DataType::from_name(to).unwrap(),
        attributes: vec![CaseAttribute::Saturate(false)],
        shape: CaseShape::Values,
        classes: Vec::new(),
        period: None,
    }
}

fn bits(b: &str) -> Value {
    Value {
        bits: b.into(),
        decoded: b.into(),
    }
}

fn example(index: usize, actual: &str) -> Example {
    Example {
        index,
        input: bits("0x00"),
        expected: bits("0x01"),
        actual: bits(actual),
        source: None,
    }
}

fn citation(section: Section) -> Citation {
    Citation {
        section,
        rule: "rounds to nearest even".into(),
        source: String::new(),
    }
}

fn judged(class: &str, elements: usize, examples: Vec<Example>) -> Judged {
    judged_as(class, Authority::Page, None, elements, examples)
}

fn judged_as(
    class: &str,
    authority: Authority,
    diagnosis: Option<Behaviour>,
    elements: usize,
    examples: Vec<Example>,
) -> Judged {
    Judged {
        class: FindingClass::parse(class).unwrap(),
        authority: Some((authority, citation(Section::NarrowerFloat))),
        diagnosis,
        elements,
        examples,
        refusal: None,
    }
}

/// Groups `(entry, judged)` pairs of backend `b` into findings, in class order.
fn group(b: &str, items: Vec<(CaseEntry, Judged)>) -> Vec<Finding> {
    let mut classes = Classes::new();
    for (e, j) in items {
        absorb(&mut classes, b, "1.0", &e, j);
    }
    classes.into_values().collect()
}

#[test]
fn one_class_holds_every_case_of_its_op_types_attributes_and_input_class() {
    let f = group(
        "ort",
        vec![
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("tie", 4, vec![example(1, "0x7c")]),
            ),
            (
                entry("Cast", 21, "FLOAT", "FLOAT8E5M2", "b"),
                judged("tie", 2, vec![example(7, "0x7d")]),
            ),
        ],
    );
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].op_versions, [19, 21]);
    assert_eq!(f[0].cases, ["a", "b"]);
    assert_eq!(f[0].elements, 6);
    assert_eq!(f[0].verdict, Verdict::Disagrees);
    // The first case with examples gives the class its examples.
    assert_eq!(f[0].examples, [example(1, "0x7c")]);
}

#[test]
fn different_input_classes_and_types_stay_apart() {
    let f = group(
        "ort",
        vec![
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("tie", 1, vec![example(1, "0x7c")]),
            ),
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("nan", 1, vec![example(2, "0x7f")]),
            ),
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E4M3FN", "c"),
                judged("tie", 1, vec![example(1, "0x7c")]),
            ),
        ],
    );
    let classes: Vec<(&str, String)> = f
        .iter()
        .map(|f| (f.to.name(), f.input_class.to_string()))
        .collect();
    assert_eq!(
        classes,
        [
            ("FLOAT8E4M3FN", "tie".to_string()),
            ("FLOAT8E5M2", "nan".to_string()),
            ("FLOAT8E5M2", "tie".to_string())
        ]
    );
}

#[test]
fn a_class_keeps_at_most_three_examples() {
    let many = (0..5).map(|i| example(i, "0x02")).collect();
    let f = group(
        "ort",
        vec![
            (
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged("tie", 5, many),
            ),
            (
                entry("Cast", 21, "FLOAT", "FLOAT8E5M2", "b"),
                judged("tie", 5, vec![example(9, "0x03")]),
            ),
        ],
    );
    assert_eq!(f[0].examples.len(), MAX_EXAMPLES);
    assert_eq!(MAX_EXAMPLES, 3);
    assert_eq!(f[0].elements, 10);
}

#[test]
fn cases_that_did_not_run_are_classes_with_their_kind_and_message() {
    let refused = |kind: FailureKind, msg: &str| Judged {
        class: FindingClass::Failure(kind),
        authority: None,
        diagnosis: None,
        elements: 0,
        examples: Vec::new(),
        refusal: Some((kind, msg.into())),
    };
    let f = group(
        "ort",
        vec![
            (
                entry("Cast", 1, "FLOAT", "INT32", "a"),
                refused(FailureKind::Unsupported, "no kernel"),
            ),
            (
                entry("Cast", 6, "FLOAT", "INT32", "b"),
                refused(FailureKind::Unsupported, "other"),
            ),
            (
                entry("Cast", 6, "FLOAT", "INT32", "c"),
                refused(FailureKind::Crash, "signal 11"),
            ),
            (
                entry("Cast", 6, "FLOAT", "INT32", "d"),
                refused(FailureKind::Error, "bad model"),
            ),
        ],
    );
    let got: Vec<(String, &str, Option<&str>, usize)> = f
        .iter()
        .map(|f| {
            (
                f.input_class.to_string(),
                f.verdict.label(),
                f.message.as_deref(),
                f.cases.len(),
            )
        })
        .collect();
    let label = |k: FailureKind| k.label().to_string();
    let mut want = vec![
        (
            label(FailureKind::Unsupported),
            "unsupported",
            Some("no kernel"),
            2,
        ),
        (label(FailureKind::Crash), "crash", Some("signal 11"), 1),
        (label(FailureKind::Error), "error", Some("bad model"), 1),
    ];
    want.sort();
    assert_eq!(got, want);
    assert!(f.iter().all(|f| f.verdict != Verdict::Disagrees));
    assert!(f.iter().all(|f| f.authority.is_none()));
}

#[test]
fn a_class_never_spans_the_version_24_rule_switch() {
    for op in ["Cast", "CastLike"] {
        let f = group(
            "ort",
            [21, 23, 24, 25]
                .into_iter()
                .map(|v| {
                    (
                        entry(op, v, "FLOAT", "BFLOAT16", &format!("{op}{v}")),
                        judged("tie", 1, vec![example(v as usize, "0x3ef5")]),
                    )
                })
                .collect(),
        );
        let versions: Vec<&[u32]> = f.iter().map(|f| f.op_versions.as_slice()).collect();
        assert_eq!(versions, [&[21, 23][..], &[24, 25][..]], "{op}");
        // Each era's class shows its own first version's example.
        assert_eq!(f[1].examples[0].index, 24, "{op}");
    }
    let f = group(
        "ort",
        [4, 11, 13]
            .into_iter()
            .map(|v| {
                (
                    entry("Concat", v, "FLOAT", "FLOAT", "c"),
                    judged("empty-input", 1, vec![example(0, "0x00")]),
                )
            })
            .collect(),
    );
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].op_versions, [4, 11, 13]);
}

#[test]
fn the_verdict_follows_the_authority_and_only_page_and_ieee_disagree() {
    for (authority, verdict) in [
        (Authority::Page, Verdict::Disagrees),
        (Authority::Ieee, Verdict::Disagrees),
        (Authority::Data, Verdict::DiffersFromData),
        (Authority::Reading, Verdict::DiffersFromReading),
    ] {
        let f = group(
            "ort",
            vec![(
                entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a"),
                judged_as("tie", authority, None, 1, vec![example(3, "0x7c")]),
            )],
        );
        assert_eq!(f[0].verdict, verdict, "{authority:?}");
        assert_eq!(f[0].authority, Some(authority));
        assert_eq!(f[0].section, Section::NarrowerFloat);
    }
}

#[test]
fn a_class_splits_by_authority_and_by_diagnosis() {
    let e = entry("Cast", 24, "DOUBLE", "FLOAT16", "a");
    let f = group(
        "ort",
        vec![
            (
                e.clone(),
                judged_as(
                    "near-tie",
                    Authority::Ieee,
                    Some(Behaviour::RoundedTwiceThroughFloat),
                    3,
                    vec![example(1, "0x01")],
                ),
            ),
            (
                e.clone(),
                judged_as(
                    "near-tie",
                    Authority::Ieee,
                    None,
                    1,
                    vec![example(2, "0x02")],
                ),
            ),
            (
                e,
                judged_as(
                    "near-tie",
                    Authority::Reading,
                    None,
                    1,
                    vec![example(4, "0x02")],
                ),
            ),
        ],
    );
    assert_eq!(f.len(), 3);
    let d: Vec<_> = f
        .iter()
        .map(|f| {
            (
                f.authority,
                f.diagnosis.as_ref().map(|d| d.behaviour),
                f.elements,
            )
        })
        .collect();
    assert!(d.contains(&(
        Some(Authority::Ieee),
        Some(Behaviour::RoundedTwiceThroughFloat),
        3
    )));
    assert!(d.contains(&(Some(Authority::Ieee), None, 1)));
    assert!(d.contains(&(Some(Authority::Reading), None, 1)));
}

#[test]
fn causes_group_findings_by_diagnosis_bugs_first() {
    let mut all = group(
        "ort",
        vec![
            (
                entry("Cast", 24, "DOUBLE", "FLOAT16", "a"),
                judged_as(
                    "near-tie",
                    Authority::Ieee,
                    Some(Behaviour::RoundedTwiceThroughFloat),
                    3,
                    vec![example(1, "0x01")],
                ),
            ),
            (
                entry("Cast", 24, "INT64", "BFLOAT16", "b"),
                judged_as(
                    "double-rounding",
                    Authority::Ieee,
                    Some(Behaviour::RoundedTwiceThroughFloat),
                    2,
                    vec![example(1, "0x01")],
                ),
            ),
            (
                entry("Cast", 13, "FLOAT", "BFLOAT16", "c"),
                judged_as(
                    "near-exact",
                    Authority::Data,
                    Some(Behaviour::LaterVersionRules),
                    5,
                    vec![example(1, "0x01")],
                ),
            ),
        ],
    );
    // A second backend's findings do not change the first one's verdicts or causes.
    let alone = causes(&all);
    all.extend(group(
        "reference",
        vec![(
            entry("Cast", 24, "DOUBLE", "FLOAT16", "a"),
            judged_as(
                "near-tie",
                Authority::Ieee,
                Some(Behaviour::RoundedTwiceThroughFloat),
                3,
                vec![example(1, "0x01")],
            ),
        )],
    ));
    let both = causes(&all);
    assert_eq!(alone.len(), 2);
    assert_eq!(both[..2], alone[..]);
    let first = &both[0];
    assert_eq!(first.authority, Some(Authority::Ieee));
    assert_eq!(first.diagnosis, Some(Behaviour::RoundedTwiceThroughFloat));
    assert_eq!(first.elements, 5);
    assert_eq!(first.pairs, ["DOUBLE→FLOAT16", "INT64→BFLOAT16"]);
    assert_eq!(first.versions, ["Cast-24"]);
    assert_eq!(both[1].verdict, Verdict::DiffersFromData);
    assert_eq!(both[2].backend, "reference");
}

#[test]
fn a_reproducer_keeps_the_examples_elements() {
    let e = entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a");
    let ex = [example(5, "0x01"), example(9, "0x02")];
    assert_eq!(reproducer_elements(&e, &ex, 100), [5, 9]);
}

#[test]
fn a_refused_case_reproducer_keeps_a_few_elements_one_per_input_class() {
    let mut e = entry("Cast", 19, "FLOAT", "FLOAT8E5M2", "a");
    let range = |class: &str, start, end| crate::index::ClassRange {
        class: InputClass::from_label(class).unwrap(),
        start,
        end,
        authority: crate::index::Authority::Page,
        citation: crate::index::Citation {
            section: Section::NarrowerFloat,
            rule: String::new(),
            source: String::new(),
        },
    };
    e.classes = vec![
        range("zero", 0, 2),
        range("tie", 2, 40_000),
        range("nan", 40_000, 65_536),
    ];
    assert_eq!(reproducer_elements(&e, &[], 65_536), [0, 2, 40_000]);
    e.classes = (0..100)
        .map(|k| range("tie", k * 10, k * 10 + 10))
        .collect();
    let idx = reproducer_elements(&e, &[], 1000);
    assert_eq!(idx.len(), REFUSED_ELEMENTS);
    assert_eq!(
        idx,
        (0..REFUSED_ELEMENTS).map(|k| k * 10).collect::<Vec<_>>()
    );
    e.classes.clear();
    assert_eq!(reproducer_elements(&e, &[], 1000), [0]);
    assert_eq!(reproducer_elements(&e, &[], 0), Vec::<usize>::new());
}

#[test]
fn a_backend_that_crashed_on_every_case_is_a_setup_error_not_findings() {
    use harness::report::TrialRecord;
    let trial = TrialRecord::official_for_test;
    let crash = |c: &str| {
        trial(
            c,
            "Cast-25",
            ("FLOAT", "FLOAT16"),
            Outcome::Fail,
            Some(FailureKind::Crash),
        )
    };
    let all = vec![crash("a"), crash("b")];
    assert_eq!(never_ran(&all).as_deref(), Some("crash: details"));
    let mut some = all.clone();
    some.push(trial(
        "c",
        "Cast-25",
        ("FLOAT", "FLOAT16"),
        Outcome::Pass,
        None,
    ));
    assert_eq!(never_ran(&some), None);
    assert_eq!(never_ran(&[]), None);
}

#[test]
fn finding_classes_read_back_as_written() {
    for text in [
        "tie",
        "nan-payload",
        "other",
        "scalar",
        "chain-through-FLOAT16",
        "type-or-shape",
        "crash",
        "unsupported",
    ] {
        let class = FindingClass::parse(text).unwrap();
        assert_eq!(
            serde_json::to_string(&class).unwrap(),
            format!("\"{text}\"")
        );
    }
    assert_eq!(FindingClass::parse("nothing"), None);
    assert!(FindingClass::parse("nan")
        .is_some_and(|c| matches!(c, FindingClass::Input(i) if i.is_nan())));
}

/// A deep case written under a scratch directory: its entry, its directory and its data set.
fn written_case(
    scratch: &Path,
    name: &str,
) -> (CaseEntry, std::path::PathBuf, harness::case::DataSet) {
    let plans = crate::generate::plan::plans();
    let (_, plan) = plans
        .iter()
        .find(|(n, _)| n == name)
        .expect("a planned case");
    let (entry, graph) = crate::generate::plan::build(name, plan);
    let dir = scratch.join(name);
    for (rel, bytes) in crate::generate::model::files(name, &graph).unwrap() {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let case = harness::read::load_case(&dir).unwrap();
    (entry, dir, case.data_sets.into_iter().next().unwrap())
}

/// Case `entry` (written in `dir`) judged as a mismatch whose run dumped `actual` under
/// `scratch/failures/<case>`.
fn judge_dumped(
    scratch: &Path,
    dir: &Path,
    entry: &CaseEntry,
    actual: &vocab::Tensor,
) -> Vec<Judged> {
    let dumps = scratch.join("failures").join(&entry.case);
    std::fs::create_dir_all(&dumps).unwrap();
    harness::write::write_tensor(&schema::layout::dumped_actual(&dumps, 0), "y", actual).unwrap();
    judge(dir, &dumps, entry, &mismatch(&entry.case)).unwrap()
}

fn mismatch(case: &str) -> TrialRecord {
    TrialRecord::official_for_test(
        case,
        "Cast-19",
        ("FLOAT", "FLOAT8E4M3FN"),
        Outcome::Fail,
        Some(FailureKind::Mismatch),
    )
}

/// A mismatch is judged from the output its run dumped (here written by hand), never by
/// running the case again: `judge` takes no backend.
#[test]
fn a_mismatch_is_judged_from_its_dump_without_running_again() {
    let scratch = tempfile::tempdir().unwrap();
    let name = "cast19_FLOAT_to_FLOAT8E4M3FN_saturate0";
    let (entry, dir, ds) = written_case(scratch.path(), name);
    let expected = &ds.outputs[0];
    let mut codes = harness::read::tensor_codes(expected).unwrap();
    codes[0] ^= 1;
    let actual =
        harness::read::tensor_from_codes(expected.dtype(), expected.shape().to_vec(), &codes)
            .unwrap();
    let judged = judge_dumped(scratch.path(), &dir, &entry, &actual);
    assert_eq!(judged.iter().map(|j| j.elements).sum::<usize>(), 1);
    let example = &judged[0].examples[0];
    assert_eq!(example.index, 0);
    assert_eq!(example.actual, value(&actual, &codes, 0));
    assert!(judged.iter().all(|j| j.refusal.is_none()));
}

/// A mismatch whose dump is missing is an error naming the trial and the file, not a silent
/// skip; a trial that produced no outputs is judged by its record's kind and the backend's
/// words (the message's first line, before the harness's `in`/`rerun:` lines).
#[test]
fn a_mismatch_without_a_dump_is_judged_by_its_message_and_a_refusal_by_the_first_line() {
    let scratch = tempfile::tempdir().unwrap();
    let name = "cast19_FLOAT_to_FLOAT8E4M3FN_saturate0";
    let (entry, dir, _) = written_case(scratch.path(), name);
    let dumps = scratch.path().join("failures").join(name);
    // A BOOL output of 2 has no dump (no BOOL value holds it): the run's message is the
    // finding, and judging goes on (rten's DOUBLE -> BOOL once ended the whole step here).
    let t = mismatch(name).with_message(
        "output 0 (\"output\"): element 3 is 2, which is no BOOL value\nrerun: cargo test",
    );
    let judged = judge(&dir, &dumps, &entry, &t).expect("judged, not an error");
    assert_eq!(
        judged[0].refusal,
        Some((
            FailureKind::Mismatch,
            "output 0 (\"output\"): element 3 is 2, which is no BOOL value".into()
        ))
    );
    assert_eq!(
        judged[0].class,
        FindingClass::Failure(FailureKind::Mismatch)
    );
    // A truncated dump is judged the same way.
    std::fs::create_dir_all(&dumps).unwrap();
    std::fs::write(schema::layout::dumped_actual(&dumps, 0), [0x08]).unwrap();
    let judged = judge(&dir, &dumps, &entry, &t).expect("judged, not an error");
    assert_eq!(
        judged[0].class,
        FindingClass::Failure(FailureKind::Mismatch)
    );
    std::fs::remove_dir_all(&dumps).unwrap();
    let refused = TrialRecord::official_for_test(
        name,
        "Cast-19",
        ("FLOAT", "FLOAT8E4M3FN"),
        Outcome::Fail,
        Some(FailureKind::Unsupported),
    )
    .with_message("no kernel for Cast\nin somewhere\nrerun: cargo test");
    let judged = judge(&dir, &dumps, &entry, &refused).unwrap();
    assert_eq!(
        judged[0].refusal,
        Some((FailureKind::Unsupported, "no kernel for Cast".into()))
    );
    assert_eq!(
        judged[0].class,
        FindingClass::Failure(FailureKind::Unsupported)
    );
}

/// The findings of run `run` ("a" or "b") of backend `myrt` on the case `entry`: each run its
/// own classes (a bug for one, a refusal for the other), so that its pages and reproducers
/// tell which run wrote them.
fn findings_of_run(run: &str, entry: &CaseEntry) -> (Vec<Finding>, Vec<RunSummary>, String) {
    let verdict = match run {
        "a" => Verdict::Disagrees,
        _ => Verdict::Unsupported,
    };
    let mut f = crate::testkit::finding("myrt", "FLOAT", "FLOAT8E4M3FN", verdict);
    f.runtime_version = format!("run-{run}");
    f.source_case = entry.case.clone();
    if let Some(e) = f.examples.first_mut() {
        e.index = 1;
    }
    let summary = RunSummary {
        backend: "myrt".into(),
        runtime_version: format!("run-{run}"),
        trials: 1,
        failed: 1,
        filters: Vec::new(),
        configuration: None,
        backend_value: None,
    };
    (vec![f], vec![summary], run.repeat(64))
}

/// Which run wrote the findings under `out`, after checking that they are whole and all of
/// that run: findings.json reads, findings.md and findings.html are its rendering, the
/// reproducers on disk are exactly those it names, and nothing staged is left.
fn whole_findings_of_one_run(root: &Path, out: &Path) -> String {
    let json = std::fs::read_to_string(out.join("findings.json")).unwrap();
    let all: Findings = serde_json::from_str(&json).expect("findings.json is whole");
    let run = all.tree_sha256[..1].to_string();
    assert_eq!(all.tree_sha256, run.repeat(64));
    assert!(all
        .runs
        .iter()
        .all(|r| r.runtime_version == format!("run-{run}")));
    let links = crate::findings::render::Links::of(root, out);
    let md = std::fs::read_to_string(out.join("findings.md")).unwrap();
    assert!(
        md == crate::findings::render::markdown(&all, &links),
        "findings.md of another run"
    );
    let html = std::fs::read_to_string(out.join("findings.html")).unwrap();
    assert!(
        html == crate::findings::render::html(&all, &links),
        "findings.html of another run"
    );
    let named: std::collections::BTreeSet<String> =
        all.findings.iter().map(|f| f.reproducer.clone()).collect();
    let listed = |dirs: bool| -> std::collections::BTreeSet<String> {
        walkdir::WalkDir::new(out.join("findings"))
            .min_depth(2)
            .max_depth(2)
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_dir() == dirs)
            .map(|e| {
                let rel = e.path().strip_prefix(out.join("findings")).unwrap();
                rel.to_string_lossy().replace('\\', "/")
            })
            .collect()
    };
    assert_eq!(listed(true), named, "reproducers of another run");
    let issues: std::collections::BTreeSet<String> = all
        .causes
        .iter()
        .filter(|c| !c.issue.is_empty())
        .map(|c| c.issue.clone())
        .collect();
    assert_eq!(listed(false), issues, "issue bodies of another run");
    for rel in &named {
        for file in ["run.py", "README.md", "model.onnx"] {
            assert!(
                out.join("findings").join(rel).join(file).is_file(),
                "{rel}/{file}"
            );
        }
    }
    let left: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("findings.new") || n.starts_with(schema::files::TEMP_PREFIX))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    run
}

/// Two deep runs of one label at once (two threads, each holding the tree's lock as `cargo
/// xtask deep` does, then publishing), ten rounds: both succeed every round, and the findings
/// on disk are whole and every file of them is of one run, the one that published last.
#[test]
fn two_runs_at_once_leave_the_findings_whole_and_of_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path();
    let name = "cast19_FLOAT_to_FLOAT8E4M3FN_saturate0";
    let (entry, _, _) = written_case(&out.join(crate::index::CASES_DIR), name);
    let by_case: BTreeMap<&str, &CaseEntry> = [(entry.case.as_str(), &entry)].into();
    let root = crate::testkit::root();
    let links = crate::findings::render::Links::of(&root, out);
    let page = |run: &str| {
        let (found, _, _) = findings_of_run(run, &entry);
        crate::findings::render::markdown(&crate::testkit::all(&["myrt"], found), &links)
    };
    assert_ne!(
        page("a"),
        page("b"),
        "the two runs' pages must tell them apart"
    );
    for round in 0..10 {
        let last = std::sync::Mutex::new(String::new());
        std::thread::scope(|s| {
            let runs = ["a", "b"].map(|run| {
                let (by_case, entry, root, last) = (&by_case, &entry, &root, &last);
                s.spawn(move || {
                    let lock = DirLock::acquire(
                        out,
                        &format!("run {run}"),
                        schema::files::WhenBusy::Wait,
                        |_| {},
                    )
                    .map_err(|e| e.to_string())?;
                    let (found, runs, sha) = findings_of_run(run, entry);
                    publish(root, &lock, by_case, found, runs, &sha).map_err(|e| e.to_string())?;
                    *last.lock().unwrap() = run.to_string();
                    Ok::<(), String>(())
                })
            });
            for (run, h) in ["a", "b"].iter().zip(runs) {
                h.join()
                    .unwrap()
                    .unwrap_or_else(|e| panic!("round {round}: run {run}: {e}"));
            }
        });
        let run = whole_findings_of_one_run(&root, out);
        assert_eq!(run, *last.lock().unwrap(), "round {round}");
    }
}

/// Mismatches none of which left a dump where findings look: the dumps are looked for in the
/// wrong directory (not this run's), and judging the run by its messages alone would pass off
/// wrong findings: an error naming the directory. One dump among them is enough to go on.
#[test]
fn mismatches_none_of_which_left_a_dump_are_an_error_naming_the_directory() {
    let scratch = tempfile::tempdir().unwrap();
    let name = "cast19_FLOAT_to_FLOAT8E4M3FN_saturate0";
    let (entry, _, _) = written_case(scratch.path(), name);
    let by_case: BTreeMap<&str, &CaseEntry> = [(entry.case.as_str(), &entry)].into();
    let t = mismatch(name);
    let report: report::Report = serde_json::from_value(serde_json::json!({
        "format": report::FORMAT,
        "strict": true,
        "data": "",
        "backend": {"name": "myrt", "runtime": "myrt", "version": "1"},
        "trials": [t.clone()],
    }))
    .unwrap();
    let elsewhere = scratch.path().join("another-run");
    let e = of_run(scratch.path(), &by_case, "myrt", &report, &elsewhere)
        .expect_err("an error")
        .to_string();
    assert!(e.contains("none of its 1 mismatches left a dump"), "{e}");
    assert!(e.contains("another-run"), "{e}");
    std::fs::create_dir_all(harness::report::failure_dir(&elsewhere, &t.name)).unwrap();
    let judged = of_run(scratch.path(), &by_case, "myrt", &report, &elsewhere);
    assert!(judged.is_ok(), "{:?}", judged.err().map(|e| e.to_string()));
}

/// A cause is one defect: findings no behaviour explains group per operator, pair family and
/// case shape (two unrelated bugs of one runtime, a loader's and Concat's, stay apart, and
/// the cause says it is a guess); a diagnosed behaviour seen only when the model is written
/// in another encoding is a cause of its own (the loader's); one the plain models show too is
/// the kernel's, one cause.
#[test]
fn a_cause_holds_one_trigger_and_a_guess_says_so() {
    let shaped = |op, from: &str, to: &str, case: &str, shape: &str| {
        let mut e = entry(op, 24, from, to, case);
        e.shape = CaseShape::parse(shape).unwrap();
        e
    };
    let undiagnosed =
        |class: &str| judged_as(class, Authority::Page, None, 2, vec![example(1, "0x01")]);
    let twice = |class: &str| {
        let b = Some(Behaviour::RoundedTwiceThroughFloat);
        judged_as(class, Authority::Ieee, b, 1, vec![example(1, "0x01")])
    };
    let all = group(
        "myrt",
        vec![
            (
                shaped(
                    "Cast",
                    "FLOAT16",
                    "FLOAT",
                    "a",
                    "encoding-typed-fields-initializer",
                ),
                undiagnosed("encoding-typed-fields-initializer"),
            ),
            (
                shaped(
                    "Cast",
                    "BFLOAT16",
                    "DOUBLE",
                    "b",
                    "encoding-typed-fields-initializer",
                ),
                undiagnosed("encoding-typed-fields-initializer"),
            ),
            (
                shaped("Concat", "FLOAT", "FLOAT", "c", "6-inputs"),
                undiagnosed("6-inputs"),
            ),
            (
                entry("Cast", 24, "DOUBLE", "FLOAT16", "d"),
                twice("near-tie"),
            ),
            (
                entry("Cast", 24, "DOUBLE", "FLOAT16", "e"),
                twice("double-rounding"),
            ),
            (
                shaped("Cast", "DOUBLE", "FLOAT16", "f", "encoding-packed-dims"),
                twice("encoding-packed-dims"),
            ),
            (
                shaped("CastLike", "DOUBLE", "FLOAT", "g", "encoding-zero-omitted"),
                judged_as(
                    "encoding-zero-omitted",
                    Authority::Page,
                    Some(Behaviour::SaturateIgnored),
                    1,
                    vec![example(1, "0x01")],
                ),
            ),
        ],
    );
    let found = causes(&all);
    let summary: Vec<(Option<Behaviour>, Vec<&str>)> = found
        .iter()
        .map(|c| (c.diagnosis, c.pairs.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(found.len(), 4, "{summary:?}");
    // Both 16-bit floats read from typed fields: one family, one shape, one guess.
    let typed = found
        .iter()
        .find(|c| c.pairs.contains(&"FLOAT16→FLOAT".to_string()))
        .unwrap();
    assert_eq!(typed.pairs, ["BFLOAT16→DOUBLE", "FLOAT16→FLOAT"]);
    assert!(typed.text.contains("a guess"), "{}", typed.text);
    assert!(typed.text.contains("encoding-typed-fields-initializer"));
    let concat = found.iter().find(|c| c.pairs == ["FLOAT→FLOAT"]).unwrap();
    assert!(
        concat.text.contains("Concat floating→floating 6-inputs"),
        "{}",
        concat.text
    );
    // The kernel's double rounding, in two input classes and in a packed-dims model, is one
    // cause; a behaviour seen only in a zero-omitted model is the loader's.
    let kernel: Vec<&Cause> = found
        .iter()
        .filter(|c| c.diagnosis == Some(Behaviour::RoundedTwiceThroughFloat))
        .collect();
    assert_eq!(kernel.len(), 1);
    assert_eq!(kernel[0].findings.len(), 3);
    let loader = found
        .iter()
        .find(|c| c.diagnosis == Some(Behaviour::SaturateIgnored))
        .unwrap();
    let written = "(when the model is written as zero-omitted)";
    assert!(loader.text.ends_with(written), "{}", loader.text);
}

/// Concat's examples name the input and the index an element came from, and a −0 made +0
/// is diagnosed whatever input it sits in.
#[test]
fn a_concat_example_names_its_input_and_index() {
    let scratch = tempfile::tempdir().unwrap();
    let name = "concat13_signed-zeros_FLOAT16_rank1_axis0_n6";
    let (entry, dir, ds) = written_case(scratch.path(), name);
    assert_eq!(entry.shape, CaseShape::SignedZeros(6));
    let expected = &ds.outputs[0];
    // Six inputs of 1 to 6 elements (21 in all), every other element of the output −0
    // (FLOAT16 0x8000); the runtime gives +0 (0x0000) there.
    assert_eq!(expected.shape(), &[21]);
    let want = harness::read::tensor_codes(expected).unwrap();
    let zeros = want.iter().filter(|&&c| c == 0x8000).count();
    // The 11 even positions, and any −0 of the type's value set at an odd one.
    assert!(zeros >= 11);
    let codes: Vec<u128> = want
        .iter()
        .map(|&c| if c == 0x8000 { 0 } else { c })
        .collect();
    let actual = harness::read::tensor_from_codes(DataType::Float16, vec![21], &codes).unwrap();
    let judged = judge_dumped(scratch.path(), &dir, &entry, &actual);
    assert_eq!(judged.len(), 1);
    assert_eq!(judged[0].elements, zeros);
    assert_eq!(judged[0].diagnosis, Some(Behaviour::ConcatNegativeZeroLost));
    // value0 holds output element 0, value1 elements 1-2, value2 3-5, value3 6-9, value4
    // 10-14, value5 15-20.
    let starts = [0, 1, 3, 6, 10, 15];
    for e in &judged[0].examples {
        let k = starts.iter().rposition(|&s| s <= e.index).unwrap();
        let want = format!("value{k}[{}]", e.index - starts[k]);
        assert_eq!(e.source.as_deref(), Some(want.as_str()));
    }
    assert_eq!(judged[0].examples[1].source.as_deref(), Some("value1[1]"));
    assert!(judged[0].examples.iter().all(|e| e.input.bits == "0x8000"));
}

/// The same class in two configurations is one finding naming both; a class of one only
/// names that one.
#[test]
fn configurations_merge_by_class() {
    let tagged = |to: &str, c: &str| {
        let mut f = crate::testkit::finding("myrt", "FLOAT", to, Verdict::Disagrees);
        f.configurations = vec![c.to_string()];
        f
    };
    let merged = super::merge_configurations(
        vec![tagged("FLOAT8E4M3FN", "a")],
        vec![tagged("FLOAT8E4M3FN", "b"), tagged("FLOAT8E5M2", "b")],
    );
    assert_eq!(merged.len(), 2);
    assert_eq!(merged[0].configurations, ["a", "b"]);
    assert_eq!(merged[1].configurations, ["b"]);
}

/// A backend that returns values no BOOL holds (rten's FLOAT -> BOOL gives -1 and 2) leaves no
/// dump; its message says so, and that is a bug of the page's rule, diagnosed, in a cause per
/// target type. A message about something else stays the message.
#[test]
fn values_outside_the_target_type_are_a_page_finding_per_target() {
    let scratch = tempfile::tempdir().unwrap();
    let name = "cast13_FLOAT_to_BOOL";
    let (entry, dir, _) = written_case(scratch.path(), name);
    let dumps = scratch.path().join("failures").join(name);
    // As backends/inproc words it for a runtime that holds BOOL as INT32.
    let t = mismatch(name).with_message(
        "rten: output 0 `output` is declared BOOL, which rten holds as INT32, but 2 of its 50 \
         values are no BOOL value ([19] -1, [22] 2): the runtime did not compute a BOOL result",
    );
    let judged = judge(&dir, &dumps, &entry, &t).unwrap();
    assert_eq!(judged[0].diagnosis, Some(Behaviour::NotOfTheTargetType));
    assert_eq!(judged[0].authority.as_ref().unwrap().0, Authority::Page);
    let mut classes = Classes::new();
    for j in judged {
        absorb(&mut classes, "rten", "0.27", &entry, j);
    }
    let (float16, f16_dir, _) = written_case(scratch.path(), "cast13_FLOAT_to_FLOAT16");
    let t16 = mismatch("cast13_FLOAT_to_FLOAT16").with_message(
        "rten: output 0 `output` is declared FLOAT16, which rten holds as FLOAT, but 12 of its \
         12 values are no FLOAT16 value ([0] 0.548813)",
    );
    for j in judge(&f16_dir, &dumps, &float16, &t16).unwrap() {
        absorb(&mut classes, "rten", "0.27", &float16, j);
    }
    let found: Vec<Finding> = classes.into_values().collect();
    assert!(found.iter().all(|f| f.verdict == Verdict::Disagrees));
    let c = causes(&found);
    assert_eq!(c.len(), 2, "one cause per target type");
    assert!(c.iter().any(|c| c.text.ends_with("(into BOOL)")));
    // A message about another type is no such finding.
    let other = mismatch(name).with_message("element 3 is 2, which is no INT8 value");
    let judged = judge(&dir, &dumps, &entry, &other).unwrap();
    assert_eq!(judged[0].diagnosis, None);
    assert_eq!(
        judged[0].class,
        FindingClass::Failure(FailureKind::Mismatch)
    );
}

/// A Constant node's value is the case's input: its examples show it (not `-`), so the
/// behaviours that read the input can explain a folded constant.
#[test]
fn a_constant_cases_input_is_its_constant_value() {
    let scratch = tempfile::tempdir().unwrap();
    let name = "cast19_constant_FLOAT_to_FLOAT16";
    let (entry, dir, ds) = written_case(scratch.path(), name);
    assert!(ds.inputs.is_empty(), "a constant case feeds nothing");
    let expected = &ds.outputs[0];
    let mut codes = harness::read::tensor_codes(expected).unwrap();
    codes[0] ^= 1;
    let actual =
        harness::read::tensor_from_codes(expected.dtype(), expected.shape().to_vec(), &codes)
            .unwrap();
    let judged = judge_dumped(scratch.path(), &dir, &entry, &actual);
    let example = &judged[0].examples[0];
    let case = harness::read::load_case(&dir).unwrap();
    let constant = case.model.graph.nodes[0]
        .attributes
        .iter()
        .find_map(|a| match &a.value {
            vocab::AttrValue::Tensor(t) => Some(t.clone()),
            _ => None,
        });
    let first = harness::read::tensor_codes(&constant.unwrap()).unwrap()[0];
    assert_eq!(example.input.bits, format!("0x{first:08x}"));
}

//! The installed command as a user meets it: started from an empty directory with no
//! checkout on its path, its home holding the data this workspace fetched.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EXE: &str = env!("CARGO_BIN_EXE_onnx-conformance");

/// The data `cargo xtask fetch-tests` fetched into this workspace.
fn fetched_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../onnx-backend-data")
}

/// An empty working directory and a home whose data is the workspace's fetched data.
fn user() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let cwd = tmp.path().join("work");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&cwd).expect("cwd");
    std::fs::create_dir_all(&home).expect("home");
    let data = fetched_data()
        .canonicalize()
        .expect("run `cargo xtask fetch-tests` first");
    std::os::unix::fs::symlink(data, home.join("onnx-backend-data")).expect("link the data");
    (tmp, cwd, home)
}

fn run(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(EXE)
        .current_dir(cwd)
        .arg("--home")
        .arg(home)
        .args(args)
        .env_remove("ONNX_CONFORMANCE_HOME")
        .env_remove("ONNX_CONFORMANCE_BACKEND")
        .env_remove("ONNX_CONFORMANCE_STRICT")
        .output()
        .expect("the command starts")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_native_suite_runs_green_from_an_empty_directory_with_reports_under_out() {
    let (_tmp, cwd, home) = user();
    let out = run(&cwd, &home, &["run", "--quiet", "--strict"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("all        1773   1759"), "{said}");
    let reports = cwd.join("onnx-conformance-report");
    for f in [
        "report.json",
        "report.md",
        "report.html",
        "report.junit.xml",
    ] {
        assert!(reports.join(f).is_file(), "{f}: {said}");
    }
    let json = std::fs::read_to_string(reports.join("report.json")).expect("report");
    assert!(json.contains("\"strict\": true"), "strict was asked for");
    // A failing case's rerun line is this command's, not cargo's (the data problems fail).
    assert!(
        json.contains("rerun: onnx-conformance run --backend native --strict --out onnx-conformance-report 'onnx-1."),
        "{json:.2000}"
    );
    // The own cases came from the binary into the home, not from a checkout.
    assert!(home.join("own-cases").is_dir());
    assert!(json.contains("own/opset28/test_cast28_FLOAT_to_FLOAT6E2M3"));
}

#[test]
fn one_filter_selects_the_cases_and_the_run_says_it_is_partial() {
    let (_tmp, cwd, home) = user();
    let out = run(&cwd, &home, &["run", "opset13/", "--out", "r"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("onnx-1.8.1/opset13/test_cast_FLOAT_to_BFLOAT16"),
        "{said}"
    );
    assert!(said.contains("179 passed"), "{said}");
    assert!(!said.contains("opset19/"), "{said}");
    let json = std::fs::read_to_string(cwd.join("r/report.json")).expect("report");
    assert!(json.contains("\"complete\": false"), "{json:.400}");
}

#[test]
fn several_filters_select_the_cases_any_of_them_names() {
    let (_tmp, cwd, home) = user();
    let out = run(
        &cwd,
        &home,
        &[
            "run", "-q", "--jobs", "1", "opset6/", "opset7/", "--out", "r",
        ],
    );
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let json = std::fs::read_to_string(cwd.join("r/report.json")).expect("report");
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    let names: Vec<&str> = report["trials"]
        .as_array()
        .expect("trials")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.iter().any(|n| n.contains("/opset6/")), "{names:?}");
    assert!(names.iter().any(|n| n.contains("/opset7/")), "{names:?}");
    assert!(names
        .iter()
        .all(|n| n.contains("/opset6/") || n.contains("/opset7/")));
    assert_eq!(
        report["run"]["filters"],
        serde_json::json!(["opset6/", "opset7/"])
    );
}

#[test]
fn bad_input_is_an_error_naming_what_is_wrong_and_runs_nothing() {
    let (tmp, cwd, home) = user();
    let cases: [(&[&str], &str); 7] = [
        (
            &["run", "--backend", "nosuch"],
            "\"nosuch\" is not a backend",
        ),
        (
            &["run", "--backend", "onnx-backend:no such"],
            "is not a Python module name",
        ),
        (
            &["run", "--known", "missing.json"],
            "missing.json: no such file",
        ),
        (&["run", "--timeout", "0"], "--timeout 0"),
        (&["run", "--jobs", "0"], "--jobs"),
        (&["run", "opset77/"], "no case matches opset77/"),
        (&["fetch", "--update-lock"], "lock is compiled in"),
    ];
    for (args, says) in cases {
        let out = run(&cwd, &home, args);
        let said = text(&out);
        assert!(!out.status.success(), "{args:?}: {said}");
        assert!(said.contains(says), "{args:?}: {said}");
        assert!(
            !cwd.join("onnx-conformance-report").exists(),
            "{args:?} wrote reports"
        );
    }
    // --out inside the home.
    let inside = home.join("reports");
    let out = run(
        &cwd,
        &home,
        &["run", "--out", &inside.display().to_string()],
    );
    assert!(!out.status.success());
    assert!(text(&out).contains("inside the home"), "{}", text(&out));
    // A home that is a file, and a home with no data.
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "x").expect("file");
    let out = run(&cwd, &file, &["run"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("is a file, not a directory"),
        "{}",
        text(&out)
    );
    let empty = tmp.path().join("empty-home");
    let out = run(&cwd, &empty, &["run"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("run `onnx-conformance fetch` first"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_python_backend_that_cannot_start_names_the_python() {
    let (_tmp, cwd, home) = user();
    let out = run(
        &cwd,
        &home,
        &[
            "--python",
            "/nonexistent/python3",
            "run",
            "--backend",
            "reference",
        ],
    );
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("/nonexistent/python3"), "{said}");
    assert!(!cwd.join("onnx-conformance-report").exists());
}

#[test]
fn a_list_is_written_from_a_whole_run_and_refused_from_a_partial_one() {
    let (_tmp, cwd, home) = user();
    let out = run(
        &cwd,
        &home,
        &["run", "--quiet", "opset13/", "--out", "part"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let known = [
        "known-failures",
        "--backend",
        "native",
        "--known",
        "mine.json",
    ];
    let refused = run(
        &cwd,
        &home,
        &[&known[..], &["--report", "part/report.json"]].concat(),
    );
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("a partial run"),
        "{}",
        text(&refused)
    );
    assert!(!cwd.join("mine.json").exists());

    let out = run(&cwd, &home, &["run", "--quiet"]);
    assert!(out.status.success(), "{}", text(&out));
    let written = run(&cwd, &home, &known);
    assert!(written.status.success(), "{}", text(&written));
    let list = std::fs::read_to_string(cwd.join("mine.json")).expect("the list");
    assert!(list.contains("\"entries\": []"), "{list}");
    // The list it wrote is one the next run takes.
    let out = run(&cwd, &home, &["run", "--quiet", "--known", "mine.json"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn a_scoreboard_runs_each_backend_in_process_and_writes_one_board() {
    let (_tmp, cwd, home) = user();
    let out = run(
        &cwd,
        &home,
        &["scoreboard", "--backend", "native", "--out", "board"],
    );
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let json = std::fs::read_to_string(cwd.join("board/scoreboard.json")).expect("board");
    let board: serde_json::Value = serde_json::from_str(&json).expect("json");
    let column = &board["backends"][0];
    assert_eq!(column["name"], "native", "{json:.300}");
    let trials = column["trials"].as_array().expect("trials");
    assert!(trials.len() > 1600, "{}", trials.len());
    assert!(trials
        .iter()
        .all(|t| t["name"].as_str().is_some_and(|n| n.starts_with("onnx-"))));
    assert!(cwd.join("board/native/report.json").is_file());
    let bad = run(
        &cwd,
        &home,
        &["scoreboard", "--backend", "native", "--known", "native"],
    );
    assert!(!bad.status.success());
    assert!(text(&bad).contains("write NAME=FILE"), "{}", text(&bad));
}

#[test]
fn a_run_killed_half_way_is_resumed_where_it_stopped() {
    let (_tmp, cwd, home) = user();
    // A whole run's journal goes with its reports.
    let out = run(&cwd, &home, &["run", "-q", "--out", "r", "opset7/"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!cwd.join("r/journal.jsonl").exists());
    // A journal of an interrupted run: its header and one finished case.
    let first = run(
        &cwd,
        &home,
        &["run", "-q", "--out", "k", "--list", "opset7/"],
    );
    assert!(first.status.success());
    let out = run(&cwd, &home, &["run", "-q", "--out", "k", "opset7/"]);
    assert!(out.status.success());
    let report = std::fs::read_to_string(cwd.join("k/report.json")).expect("report");
    let report: serde_json::Value = serde_json::from_str(&report).expect("json");
    let total = report["trials"].as_array().expect("trials").len();
    let one = report["trials"][0].clone();
    let header = serde_json::json!({
        "backend": "native (onnx-conformance 0.1.0)",
        "strict": false,
        "data": report["data"],
        "filters": ["opset7/"],
        "known_failures": null,
    });
    std::fs::write(cwd.join("k/journal.jsonl"), format!("{header}\n{one}\n")).expect("journal");
    let out = run(&cwd, &home, &["run", "--out", "k", "--resume", "opset7/"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "resuming: 1 cases ran before the last run stopped; running the other {}",
            total - 1
        )),
        "{said}"
    );
    assert!(!cwd.join("k/journal.jsonl").exists());
    // Resuming with another mode is refused, naming the journal.
    std::fs::write(cwd.join("k/journal.jsonl"), format!("{header}\n{one}\n")).expect("journal");
    let out = run(
        &cwd,
        &home,
        &["run", "--out", "k", "--resume", "--strict", "opset7/"],
    );
    assert!(!out.status.success());
    assert!(
        text(&out).contains("journal.jsonl: the journal is of another run"),
        "{}",
        text(&out)
    );
}

/// The deep suite from the installed command: the tree written into the home from this binary,
/// run in-process, findings written beside it. Native agrees with every value (the tree's
/// expected values are its own), so the page says so; a second call reuses the tree.
#[test]
fn findings_write_the_deep_tree_into_the_home_and_judge_a_backend() {
    let (_tmp, cwd, home) = user();
    let out = run(&cwd, &home, &["findings", "--backend", "native"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("writing the deep tree"), "{said}");
    assert!(
        said.contains("native 0.1.0 agrees with every expected value of the"),
        "{said}"
    );
    let json = std::fs::read_to_string(home.join("deep/findings.json")).expect("findings");
    let findings: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(findings["findings"].as_array().map(Vec::len), Some(0));
    let again = run(&cwd, &home, &["findings", "--backend", "native"]);
    assert!(again.status.success());
    assert!(
        !text(&again).contains("writing the deep tree"),
        "{}",
        text(&again)
    );
    let bad = run(
        &cwd,
        &home,
        &["findings", "--backend", "native", "--backend", "native"],
    );
    assert!(!bad.status.success());
    assert!(text(&bad).contains("asked for twice"), "{}", text(&bad));

    // Filtered: the findings cover the cases run, and say so.
    let all_trials = findings["runs"][0]["trials"].as_u64().expect("trials");
    let some = run(
        &cwd,
        &home,
        &[
            "findings",
            "--backend",
            "native",
            "--jobs",
            "1",
            "opset13/",
            "opset24/",
        ],
    );
    let said = text(&some);
    assert!(some.status.success(), "{said}");
    let scope = "(only the cases matching opset13/ or opset24/)";
    assert!(said.contains(scope), "{said}");
    let json = std::fs::read_to_string(home.join("deep/findings.json")).expect("findings");
    let filtered: serde_json::Value = serde_json::from_str(&json).expect("json");
    let run0 = &filtered["runs"][0];
    assert_eq!(run0["filters"], serde_json::json!(["opset13/", "opset24/"]));
    let trials = run0["trials"].as_u64().expect("trials");
    assert!(
        trials > 0 && trials < all_trials,
        "{trials} of {all_trials}"
    );
    let md = std::fs::read_to_string(home.join("deep/findings.md")).expect("md");
    assert!(md.contains(scope), "{md}");

    // A filter that selects nothing is a typo: an error, and the findings stay.
    let typo = run(
        &cwd,
        &home,
        &["findings", "--backend", "native", "opset99/"],
    );
    assert!(!typo.status.success());
    assert!(
        text(&typo).contains("no case matches opset99/"),
        "{}",
        text(&typo)
    );
    let kept = std::fs::read_to_string(home.join("deep/findings.json")).expect("kept");
    assert_eq!(kept, json);
}

#[test]
fn worker_new_writes_a_skeleton_and_its_loop_and_never_overwrites() {
    let (_tmp, cwd, home) = user();
    let out = run(&cwd, &home, &["worker", "new", "myrt"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let worker = std::fs::read_to_string(cwd.join("myrt_worker.py")).expect("the skeleton");
    assert!(worker.contains("RUNTIME = \"myrt\""), "{worker}");
    assert!(worker.contains("written by `onnx-conformance worker new myrt`"));
    let beside = std::fs::read_to_string(cwd.join("worker_loop.py")).expect("the loop");
    assert!(beside.contains("def serve("), "{beside}");
    // What to type next names the file written.
    let path = cwd.join("myrt_worker.py").display().to_string();
    assert!(
        said.contains(&format!("onnx-conformance worker check 'python3 {path}'")),
        "{said}"
    );
    assert!(
        said.contains(&format!("run --backend 'worker:myrt=python3 {path}'")),
        "{said}"
    );

    std::fs::write(cwd.join("myrt_worker.py"), "mine").expect("edit");
    let again = run(&cwd, &home, &["worker", "new", "myrt"]);
    assert!(!again.status.success());
    assert!(
        text(&again).contains("is not overwritten"),
        "{}",
        text(&again)
    );
    assert_eq!(
        std::fs::read_to_string(cwd.join("myrt_worker.py")).unwrap(),
        "mine"
    );

    let placed = run(
        &cwd,
        &home,
        &["worker", "new", "rt2", "--out", "sub/rt2_worker.py"],
    );
    assert!(placed.status.success(), "{}", text(&placed));
    assert!(cwd.join("sub/worker_loop.py").is_file());

    for bad in ["MyRt", "onnxruntime", "a/b"] {
        let refused = run(&cwd, &home, &["worker", "new", bad]);
        assert!(!refused.status.success(), "{bad}");
        assert!(
            text(&refused).starts_with("error: worker new: "),
            "{}",
            text(&refused)
        );
    }
}

#[test]
fn vectors_export_prints_the_seed_and_check_exits_by_what_it_found() {
    // The vectors need no fetched data: an empty home.
    let tmp = tempfile::tempdir().expect("tmp");
    let (cwd, home) = (tmp.path().join("work"), tmp.path().join("home"));
    std::fs::create_dir_all(&cwd).expect("cwd");
    std::fs::create_dir_all(&home).expect("home");
    let out = run(
        &cwd,
        &home,
        &[
            "vectors",
            "export",
            "--level",
            "2",
            "--sample",
            "500",
            "--op",
            "Cast",
            "--version",
            "28",
            "--from",
            "UINT32",
            "--to",
            "FLOAT16",
            "--out",
            "v",
        ],
    );
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("vectors: seed "), "{said}");
    assert!(said.contains("wrote 2 files"), "{said}");
    let dir = cwd.join("v");
    let values = std::fs::read_to_string(dir.join("cast28_UINT32_to_FLOAT16.txt")).unwrap();
    // Our own outputs as observed: clean, exit 0.
    let same: String = values
        .lines()
        .map(|l| match l.starts_with('#') {
            true => format!("{l}\n"),
            false => format!("{l} {}\n", l.split(' ').nth(1).unwrap()),
        })
        .collect();
    std::fs::write(cwd.join("same.txt"), &same).unwrap();
    let out = run(&cwd, &home, &["vectors", "check", "same.txt"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(" 0 mismatches"), "{}", text(&out));
    // UINT32 1 (FLOAT16 0x3c00) observed as 0x3c01: exit 1, the line named.
    let planted = same.replacen(
        "00000001 3c00 page/range-edge 3c00",
        "00000001 3c00 page/range-edge 3c01",
        1,
    );
    assert_ne!(planted, same, "the file holds UINT32 1");
    std::fs::write(cwd.join("planted.txt"), planted).unwrap();
    let out = run(&cwd, &home, &["vectors", "check", "planted.txt"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("1 mismatches"), "{}", text(&out));
    // A line cut short: exit 2, file and line named.
    std::fs::write(cwd.join("bad.txt"), format!("{same}00000001\n")).unwrap();
    let out = run(&cwd, &home, &["vectors", "check", "bad.txt"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let lines = same.lines().count() + 1;
    assert!(
        text(&out).contains(&format!("bad.txt:{lines}: 1 columns")),
        "{}",
        text(&out)
    );
    // A bad shard is refused before anything is written.
    let out = run(&cwd, &home, &["vectors", "export", "--shard", "5/4"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--shard"), "{}", text(&out));
}

#[test]
fn self_check_runs_a_slice_and_reports_its_rate_beside_memcpy() {
    let tmp = tempfile::tempdir().expect("tmp");
    let home = tmp.path().join("home");
    let args = [
        "self-check",
        "--from",
        "FLOAT",
        "--to",
        "FLOAT4E2M1",
        "--codes",
        "70000",
        "--chunk",
        "4096",
    ];
    let out = run(tmp.path(), &home, &args);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    // Four rule sets (saturate x the version-24 generation) of 70000 codes, the last chunk cut
    // short; FLOAT4E2M1 reads no saturate, so its two pairs of sets run once each, and both
    // cases run on each chunk of the one source.
    assert!(
        said.contains("2 cases (4 rule sets), 140000 elements, 18 chunks"),
        "{said}"
    );
    assert!(
        said.contains("rule sets merged, as neither path reads saturate: FLOAT -> FLOAT4E2M1"),
        "{said}"
    );
    assert!(
        said.contains("elements/s") && said.contains("memcpy on"),
        "{said}"
    );
    assert!(said.contains("passed"), "{said}");
    let out = run(tmp.path(), &home, &["self-check", "--to", "FLOAT99"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("unknown type FLOAT99"),
        "{}",
        text(&out)
    );
}

use super::*;
use crate::testkit::parse;
use clap::error::ErrorKind;
use clap::CommandFactory;

/// Every command line of every task and subcommand, as the words after `cargo xtask`.
fn every_command() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut p = path.clone();
            p.push(sub.get_name().to_string());
            walk(sub, p, out);
        }
    }
    let mut out = Vec::new();
    walk(&Cli::command(), Vec::new(), &mut out);
    out
}

fn words(path: &[String], extra: &str) -> Vec<String> {
    path.iter().cloned().chain([extra.to_string()]).collect()
}

fn error_of(args: &[&str]) -> clap::Error {
    parse(args).expect_err(&format!("{args:?} must be refused"))
}

#[test]
fn the_parser_is_consistent() {
    Cli::command().debug_assert();
}

/// check-worker needs its command; its timeout is a number.
#[test]
fn check_worker_takes_a_command_and_a_timeout() {
    let e = error_of(&["backends", "check-worker"]);
    assert_eq!(e.kind(), clap::error::ErrorKind::MissingRequiredArgument);
    let e = error_of(&["backends", "check-worker", "w", "--timeout", "soon"]);
    assert!(e.to_string().contains("--timeout"), "{e}");
    let cli = parse(&["backends", "check-worker", "python3 w.py", "--timeout", "2"]).expect("ok");
    let Task::Backends(b) = cli.task else {
        panic!("backends")
    };
    assert!(matches!(
        b.command,
        BackendsCommand::CheckWorker { ref command, timeout, data: None }
            if command == "python3 w.py" && timeout == 2.0
    ));
}

/// new-worker needs its name; --out is optional.
#[test]
fn new_worker_takes_a_name_and_an_out_path() {
    let e = error_of(&["backends", "new-worker"]);
    assert_eq!(e.kind(), clap::error::ErrorKind::MissingRequiredArgument);
    let cli = parse(&["backends", "new-worker", "myrt", "--out", "w.py"]).expect("ok");
    let Task::Backends(b) = cli.task else {
        panic!("backends")
    };
    assert!(matches!(
        b.command,
        BackendsCommand::NewWorker { ref name, out: Some(ref out) }
            if name == "myrt" && out == std::path::Path::new("w.py")
    ));
}

#[test]
fn every_command_answers_help() {
    let commands = every_command();
    // The root, twelve tasks, backends' seven subcommands.
    assert_eq!(commands.len(), 20, "{commands:?}");
    for path in commands {
        for flag in ["--help", "-h"] {
            let args = words(&path, flag);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            // An Err of kind DisplayHelp is how clap answers: main prints it and exits 0
            // before any task runs, so help writes nothing.
            let e = error_of(&args);
            assert_eq!(e.kind(), ErrorKind::DisplayHelp, "{args:?}: {e}");
            assert!(
                e.to_string().contains("Usage: cargo xtask"),
                "{args:?}: {e}"
            );
        }
    }
}

#[test]
fn unknown_flags_are_named() {
    for path in every_command() {
        let args = words(&path, "--bogus-flag");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let e = error_of(&args);
        assert_eq!(e.kind(), ErrorKind::UnknownArgument, "{args:?}: {e}");
        assert!(e.to_string().contains("--bogus-flag"), "{args:?}: {e}");
    }
    let e = error_of(&["fetch-test"]);
    assert_eq!(e.kind(), ErrorKind::InvalidSubcommand, "{e}");
    assert!(
        e.to_string().contains("fetch-tests"),
        "suggests the task: {e}"
    );
}

/// The fetch and the cross-check run in the light build (they only need cargo, rustup and
/// the fetch's crates); every other task needs the full one.
#[test]
fn only_the_fetch_and_the_cross_check_run_without_full() {
    for path in every_command().into_iter().filter(|p| p.len() == 1) {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let args = match args[0] {
            "backends" => vec!["backends", "list"],
            _ => args,
        };
        let task = parse(&args).expect("parses").task;
        let light = matches!(args[0], "fetch-tests" | "cross-check");
        assert_eq!(task.needs_full(), !light, "{args:?}");
    }
}

/// The spellings the README, docs/ and .ci/run use keep working.
#[test]
fn documented_command_lines_parse() {
    let fetch = |args: &[&str]| match parse(&[&["fetch-tests"], args].concat()).map(|c| c.task) {
        Ok(Task::FetchTests(o)) => o,
        other => panic!("{args:?}: {other:?}"),
    };
    let o = fetch(&[
        "--release",
        "1.22.0",
        "--release=1.2.3",
        "--offline",
        "--update-lock",
    ]);
    assert_eq!(o.releases, ["1.22.0", "1.2.3"]);
    assert!(o.offline && o.update_lock && !o.verify);
    let o = fetch(&["--ops", "test_add,test_sub", "--verify", "--from", "x.whl"]);
    assert_eq!(o.extra_ops, ["test_add", "test_sub"]);
    assert_eq!(o.from, Some(PathBuf::from("x.whl")));
    assert!(o.verify);
    assert_eq!(fetch(&["--generate=1.22.0"]).generate, ["1.22.0"]);
    assert_eq!(fetch(&[]), FetchTests::default());

    match parse(&[
        "bench-compare",
        "--repeat",
        "3",
        "--simd",
        "avx2",
        "--json",
        "o.json",
    ])
    .map(|c| c.task)
    {
        Ok(Task::BenchCompare(b)) => {
            assert_eq!((b.repeat, b.simd.as_str(), b.filter), (3, "avx2", None));
            assert_eq!(b.json, Some(PathBuf::from("o.json")));
        }
        other => panic!("{other:?}"),
    }
    match parse(&["bench-compare", "--fresh-pages", "cast"]).map(|c| c.task) {
        Ok(Task::BenchCompare(b)) => {
            assert_eq!((b.repeat, b.simd.as_str()), (5, "native"));
            assert!(b.fresh_pages && b.filter.as_deref() == Some("cast"));
        }
        other => panic!("{other:?}"),
    }
    match parse(&["coverage", "--check", "--report", "r.json"]).map(|c| c.task) {
        Ok(Task::Coverage(c)) => assert!(c.check && c.report == Some(PathBuf::from("r.json"))),
        other => panic!("{other:?}"),
    }
    match parse(&["own-cases", "--check"]).map(|c| c.task) {
        Ok(Task::OwnCases(o)) => assert!(o.check),
        other => panic!("{other:?}"),
    }
    let report = |args: &[&str]| match parse(&[&["report"], args].concat()).map(|c| c.task) {
        Ok(Task::Report(r)) => (r.json, r.nextest),
        other => panic!("{args:?}: {other:?}"),
    };
    assert_eq!(report(&[]), (None, None));
    assert_eq!(report(&["r.json"]), (Some(PathBuf::from("r.json")), None));
    assert_eq!(report(&["--nextest"]), (None, Some("latest".into())));
    assert_eq!(report(&["--nextest", "42"]), (None, Some("42".into())));
    match parse(&["scoreboard", "--backends", "native,onnxruntime"]).map(|c| c.task) {
        Ok(Task::Scoreboard(s)) => assert_eq!(s.backend_values(), ["native", "onnxruntime"]),
        other => panic!("{other:?}"),
    }
    let backends = |args: &[&str]| match parse(&[&["backends"], args].concat()).map(|c| c.task) {
        Ok(Task::Backends(b)) => b.command,
        other => panic!("{args:?}: {other:?}"),
    };
    assert!(matches!(backends(&["list"]), BackendsCommand::List));
    assert!(matches!(backends(&["setup"]), BackendsCommand::Setup { names } if names.is_empty()));
    assert!(matches!(
        backends(&["setup", "onnxruntime", "tract"]),
        BackendsCommand::Setup { names } if names == ["onnxruntime", "tract"]
    ));
    assert!(matches!(
        backends(&["known-failures", "tract", "--report", "f.json", "--output", "o.json"]),
        BackendsCommand::KnownFailures { name, report, output, merge: false }
            if name == "tract" && report == Some(PathBuf::from("f.json"))
                && output == Some(PathBuf::from("o.json"))
    ));
    assert!(matches!(
        backends(&["known-failures", "tract", "--merge"]),
        BackendsCommand::KnownFailures { merge: true, .. }
    ));
    assert!(parse(&["fuzz", "ops", "--seconds", "1800"]).is_ok());
    assert!(parse(&["fuzz", "--smoke", "tensor"]).is_ok());
    assert!(parse(&["fuzz", "--write-seeds"]).is_ok());
}

/// A bad value is refused with the flag (or argument) it was given to, before any task runs.
#[test]
fn bad_values_name_their_flag() {
    for (args, named) in [
        (&["fetch-tests", "--release"][..], "--release"),
        (&["fetch-tests", "--release", "../x"], "--release"),
        (&["fetch-tests", "--ops", "cast"], "--ops"),
        (&["fetch-tests", "--ops", "test_a/../b"], "--ops"),
        (&["fetch-tests", "--offline=yes"], "--offline"),
        (
            &["fetch-tests", "--generate", "1.23.0", "--offline"],
            "--generate",
        ),
        (
            &["fetch-tests", "--generate", "1.23.0", "--release", "1.2.3"],
            "--generate",
        ),
        (&["fuzz", "nope"], "nope"),
        (&["fuzz", "--seconds"], "--seconds"),
        (&["fuzz", "--seconds", "0"], "--seconds"),
        (&["fuzz", "--seconds", "x"], "--seconds"),
        (&["fuzz", "--smoke", "--seconds", "5"], "--seconds"),
        (&["fuzz", "ops", "tensor"], "tensor"),
        (&["bench-compare", "--repeat", "0"], "--repeat"),
        (&["bench-compare", "--simd", "sse"], "--simd"),
        (&["coverage", "--report"], "--report"),
        (&["report", "r.json", "--nextest"], "--nextest"),
        (&["report", "a.json", "b.json"], "b.json"),
        (&["backends", "known-failures"], "<NAME>"),
        (&["backends", "list", "extra"], "extra"),
        (&["own-cases", "--check=yes"], "--check"),
    ] {
        let e = error_of(args);
        assert!(e.to_string().contains(named), "{args:?}: {e}");
    }
}

#[test]
fn from_takes_one_release() {
    let o = match parse(&["fetch-tests", "--from", "a.whl", "--release", "1.2.3"]) {
        Ok(Cli {
            task: Task::FetchTests(o),
        }) => o,
        other => panic!("{other:?}"),
    };
    assert!(fetch::check_options(&o).is_ok());
    let two = FetchTests {
        releases: vec!["1.2.3".into(), "1.3.0".into()],
        ..o
    };
    let e = fetch::check_options(&two).expect_err("two releases with --from");
    assert!(e.to_string().contains("--from"), "{e}");
    assert!(e.hint.is_some(), "{e}");
}

fn deep_backends(args: &[&str]) -> Vec<String> {
    match parse(&[&["deep"], args].concat()).map(|c| c.task) {
        Ok(Task::Deep(d)) => d.backend_values(),
        other => panic!("{args:?}: {other:?}"),
    }
}

#[test]
fn deep_backends_split_on_commas_but_a_worker_keeps_its_command_line_whole() {
    assert_eq!(deep_backends(&[]), ["onnxruntime"]);
    assert_eq!(
        deep_backends(&["--backends", "native,onnxruntime"]),
        ["native", "onnxruntime"]
    );
    // A worker's command line may hold commas: the item runs to the end of its value.
    assert_eq!(
        deep_backends(&[
            "--backends",
            "onnxruntime,worker:myrt=python3 w.py --ep a,b"
        ]),
        ["onnxruntime", "worker:myrt=python3 w.py --ep a,b"]
    );
    // The flag repeats, so a worker need not come last.
    assert_eq!(
        deep_backends(&[
            "--backends",
            "worker:a=run --x 1,2",
            "--backends",
            "reference, native,"
        ]),
        ["worker:a=run --x 1,2", "reference", "native"]
    );
}

/// The scoreboard reads `--backends` as `deep` does: a worker's command line keeps its
/// commas, and the flag repeats.
#[test]
fn scoreboard_backends_keep_a_worker_command_line_whole() {
    let board = |args: &[&str]| match parse(&[&["scoreboard"], args].concat()).map(|c| c.task) {
        Ok(Task::Scoreboard(s)) => s.backend_values(),
        other => panic!("{args:?}: {other:?}"),
    };
    assert!(board(&[]).is_empty());
    assert_eq!(
        board(&["--backends", "native,worker:myrt=python3 w.py --ep a,b"]),
        ["native", "worker:myrt=python3 w.py --ep a,b"]
    );
    assert_eq!(
        board(&[
            "--backends",
            "worker:a=run --x 1,2",
            "--backends",
            "reference,"
        ]),
        ["worker:a=run --x 1,2", "reference"]
    );
}

/// deep-audit's options: --self-test audits its own cases, so --case and --json do not go
/// with it; at least one worker.
#[test]
fn deep_audit_options() {
    let Task::DeepAudit(a) = parse(&["deep-audit"]).unwrap().task else {
        panic!("deep-audit parses as DeepAudit");
    };
    assert!(a.tree.is_none() && a.json.is_none() && !a.self_test);
    assert_eq!(a.workers, 2);
    for bad in [
        &["deep-audit", "--self-test", "--case", "x"][..],
        &["deep-audit", "--self-test", "--json", "x"],
        &["deep-audit", "--workers", "0"],
    ] {
        error_of(bad);
    }
    let Task::DeepAudit(a) = parse(&["deep-audit", "--case", "a", "--case", "b"])
        .unwrap()
        .task
    else {
        panic!("deep-audit parses as DeepAudit");
    };
    assert_eq!(a.cases, ["a", "b"]);
    error_of(&["deep-audit", "--strict-encoding"]);
}

#[test]
fn report_diff_flags_need_diff() {
    for flag in [
        &["--backend", "x"][..],
        &["--fail-on-regression"],
        &["--any-backend"],
        &["--new", "f"],
    ] {
        let words: Vec<&str> = std::iter::once("report")
            .chain(flag.iter().copied())
            .collect();
        assert!(parse(&words).is_err(), "{words:?} accepted");
    }
}

use super::*;

fn parse(list: &[&str]) -> Options {
    let cli = crate::testkit::parse(&[&["fuzz"], list].concat()).expect("valid");
    match cli.task {
        crate::cli::Task::Fuzz(f) => Options::from(&f),
        other => panic!("{other:?}"),
    }
}

#[test]
fn arguments_pick_targets_and_duration() {
    let all = parse(&[]);
    assert_eq!(
        (all.targets, all.seconds),
        (TARGETS.to_vec(), DEFAULT_SECONDS)
    );
    let smoke = parse(&["--smoke"]);
    assert_eq!((smoke.targets, smoke.seconds), (TARGETS.to_vec(), 30));
    let one = parse(&["ops", "--seconds", "1800"]);
    assert_eq!((one.targets, one.seconds), (vec!["ops"], 1800));
    let one = parse(&["--smoke", "tensor"]);
    assert_eq!((one.targets, one.seconds), (vec!["tensor"], 30));
    assert!(parse(&["--write-seeds"]).write_seeds);
}

#[test]
fn missing_tools_are_named_with_how_to_install_them() {
    let no_nightly = check_tools(&|_| false).unwrap_err();
    assert!(
        no_nightly.contains("nightly toolchain is missing"),
        "{no_nightly}"
    );
    assert!(no_nightly.contains("rustup toolchain install nightly"));
    let no_fuzz = check_tools(&|cmd| !cmd.contains(&"fuzz")).unwrap_err();
    assert!(no_fuzz.contains("cargo-fuzz is missing"), "{no_fuzz}");
    assert!(no_fuzz.contains("cargo install --locked cargo-fuzz"));
    assert_eq!(check_tools(&|_| true), Ok(()));
}

#[test]
fn libfuzzer_figures_are_read_from_its_output() {
    let mut stats = Stats::default();
    for line in [
        "#2 INITED cov: 10 ft: 12 corp: 1/1b exec/s: 0 rss: 30Mb",
        "#1048576 pulse  cov: 2315 ft: 9000 corp: 812/96Kb lim: 4096 exec/s: 3495",
        "Done 1234567 runs in 1801 second(s)",
        "stat::number_of_executed_units: 1234567",
        "stat::peak_rss_mb: 80",
    ] {
        stats.read_line(line);
    }
    assert_eq!(
        (stats.execs, stats.cov, stats.features, stats.corpus),
        (Some(1234567), Some(2315), Some(9000), Some(812))
    );
    assert_eq!(stats.seconds, Some(1801));
}

/// The verdict of a run whose output was `lines`, exiting with `success`.
fn verdict_of(success: bool, lines: &[&str]) -> (Verdict, Stats) {
    let mut stats = Stats::default();
    for line in lines {
        stats.read_line(line);
    }
    stats.clean = success;
    (Verdict::of(success, &stats), stats)
}

#[test]
fn a_build_failure_is_not_a_finding() {
    let (verdict, stats) = verdict_of(
        false,
        &[
            "   Compiling onnx-conformance-fuzz v0.0.0 (/w/fuzz)",
            "error[E0063]: missing field `known_failures` in initializer of `Report`",
            "error: could not compile `onnx-conformance-fuzz` (bin \"trial\") due to 1 previous error",
            "Error: failed to build fuzz script: ASAN_OPTIONS=\"detect_odr_violation=0\" \"cargo\" \"build\"",
        ],
    );
    assert_eq!(verdict, Verdict::BuildFailed);
    assert!(stats.before_start[1].contains("missing field `known_failures`"));
    assert_eq!(stats.build_output_tail(2), &stats.before_start[2..]);
    assert_eq!(stats.build_output_tail(60), &stats.before_start[..]);
    assert_eq!(stats.artifact, None);
    assert!(stats.to_string().starts_with("BUILD FAILED"), "{stats}");
}

#[test]
fn a_finding_names_the_test_unit_libfuzzer_wrote() {
    let start = [
        "    Finished `release` profile [optimized + debuginfo] target(s) in 0.10s",
        "INFO: Running with entropic power schedule (0xFF, 100).",
        "INFO: Seed: 1234",
        "#2 INITED cov: 10 ft: 12 corp: 1/1b exec/s: 0 rss: 30Mb",
    ];
    let crash = [
        "==1== ERROR: libFuzzer: deadly signal",
        "artifact_prefix='/w/fuzz/artifacts/trial/'; Test unit written to /w/fuzz/artifacts/trial/crash-da39a3ee",
    ];
    let (verdict, stats) = verdict_of(false, &[&start[..], &crash[..]].concat());
    assert_eq!(
        verdict,
        Verdict::Finding(Some("/w/fuzz/artifacts/trial/crash-da39a3ee".into()))
    );
    assert_eq!(
        stats.before_start.len(),
        1,
        "only cargo's line: {:?}",
        stats.before_start
    );
    assert!(stats.to_string().starts_with("FINDING"), "{stats}");
    // Started, failed, no test unit named: still a finding, not a build failure.
    assert_eq!(verdict_of(false, &start).0, Verdict::Finding(None));
    // libFuzzer's start is what tells them apart, whatever cargo printed before it.
    let mut seed_only = start.to_vec();
    seed_only.remove(1);
    assert_eq!(verdict_of(false, &seed_only).0, Verdict::Finding(None));
    let (clean, stats) = verdict_of(
        true,
        &[&start[..], &["Done 10 runs in 1 second(s)"]].concat(),
    );
    assert_eq!(clean, Verdict::Clean);
    assert!(stats.to_string().starts_with("clean"), "{stats}");
}

#[test]
fn only_fast_paths_runs_without_the_leak_check() {
    for target in TARGETS {
        let want = (target == "fast_paths").then_some("-detect_leaks=0");
        assert_eq!(super::leak_flag(target), want, "{target}");
    }
}

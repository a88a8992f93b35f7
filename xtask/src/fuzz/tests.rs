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

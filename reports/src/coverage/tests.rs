//! Tests of the coverage tables on hand-made trials and on the real version table.

use super::measure::{exercised, support};
use super::*;
use harness::known::Outcome;
use harness::report::JSON_FILE;
use harness::report::{RuleName, TrialRecord};
use vocab::OpVersion;

fn trial(release: &str, version: &str, io: (&[&str], &[&str]), outcome: Outcome) -> TrialRecord {
    let mut t = TrialRecord::for_test(format!("{release}/x"), outcome)
        .with_release(release)
        .with_op(version)
        .with_types(io.0, io.1)
        .with_rule(RuleName::Exact, None, None);
    t.case = Some("x".to_owned());
    t
}

#[test]
fn matrices_list_every_type_once_floats_first_wider_first() {
    let order: Vec<&str> = matrix_order().iter().map(|t| t.short_name()).collect();
    let want = [
        "f64", "f32", "f16", "bf16", "e4m3", "e4m3z", "e5m2", "e5m2z", "e8m0", "e2m3", "e3m2",
        "e2m1", "i64", "i32", "i16", "i8", "i4", "i2", "u64", "u32", "u16", "u8", "u4", "u2",
        "bool", "str", "c128", "c64",
    ];
    assert_eq!(order, want);
}

#[test]
fn splice_replaces_only_between_the_markers() {
    let text = format!("a\n{START}\nold\n{END}\nb\n");
    assert_eq!(
        splice(&text, "new\n").as_deref(),
        Some(format!("a\n{START}\nnew\n{END}\nb\n").as_str())
    );
    assert_eq!(splice("no markers", "x"), None);
    assert_eq!(splice(&format!("{END} {START}"), "x"), None);
}

#[test]
fn exercised_counts_passing_trials_by_origin() {
    use Outcome::*;
    let trials = [
        trial("1.22.0", "Cast-25", (&["FLOAT"], &["INT4"]), Pass),
        trial("1.21.0", "Cast-25", (&["FLOAT"], &["INT4"]), Pass),
        trial("1.21.0", "Cast-25", (&["FLOAT"], &["INT2"]), Fail),
        trial("own", "Cast-25", (&["BOOL"], &["INT64"]), Pass),
        trial("custom", "Cast-25", (&["BOOL"], &["INT8"]), Pass),
        trial(
            "1.23.0-generated",
            "Cast-28",
            (&["FLOAT"], &["UINT8"]),
            Pass,
        ),
        trial(
            "1.22.0",
            "CastLike-25",
            (&["FLOAT", "UINT8"], &["UINT8"]),
            Pass,
        ),
        trial("1.22.0", "Concat-13", (&["BOOL", "BOOL"], &["BOOL"]), Pass),
        trial("1.22.0", "Concat-13", (&["?"], &["BOOL"]), Pass),
    ];
    let got = exercised(&trials);
    let v = |op, since| OpVersion::of(op, since).expect("in the table");
    let cast = &got[&v(OpKind::Cast, 25)];
    let pairs: Vec<_> = cast.official.iter().collect();
    assert_eq!(pairs, [(&(DataType::Float, DataType::Int4), &2)]);
    let own: Vec<_> = cast.own.keys().collect();
    assert_eq!(own, [&(DataType::Bool, DataType::Int64)]);
    assert!(
        !got.contains_key(&v(OpKind::Cast, 28)),
        "generated cases are not official data"
    );
    let like = &got[&v(OpKind::CastLike, 25)].official;
    assert!(like.contains_key(&(DataType::Float, DataType::Uint8)));
    let concat = &got[&v(OpKind::Concat, 13)].official;
    assert_eq!(concat.len(), 1);
    assert!(concat.contains_key(&(DataType::Bool, DataType::Bool)));
}

#[test]
fn every_allowed_pair_of_every_version_runs() {
    for spec in VERSIONS {
        let v = support(spec);
        assert!(
            v.rejected.is_empty(),
            "{}: {:?}",
            spec.version(),
            v.rejected
        );
        let n = spec.types.iter().count();
        let want = if spec.version().op() == OpKind::Concat {
            n
        } else {
            n * n
        };
        assert_eq!(v.allowed.len(), want, "{}", spec.version());
        assert_eq!(v.supported, v.allowed);
    }
}

#[test]
fn exhaustive_pairs_follow_the_version_24_switch() {
    let at = |since| {
        let spec = VERSIONS
            .iter()
            .find(|s| s.version().op() == OpKind::Cast && s.version().since() == since)
            .expect("version in table");
        exhaustive(OpKind::Cast, since, &support(spec).allowed)
    };
    let midpoint = (DataType::Float, DataType::Float8E4M3FN);
    let decode = (DataType::Float8E4M3FN, DataType::Float);
    assert!(at(23).contains(&decode) && !at(23).contains(&midpoint));
    assert!(at(24).contains(&decode) && at(24).contains(&midpoint));
    assert!(at(13).iter().all(|&(s, t)| s == DataType::Float16
        || s == DataType::Bfloat16
        || t == DataType::Float16
        || t == DataType::Bfloat16));
}

#[test]
fn tables_have_a_row_per_version() {
    let coverage: Vec<_> = VERSIONS.iter().map(support).collect();
    let summary = render::summary(&coverage);
    let rows = summary
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| operator"));
    assert_eq!(rows.count(), VERSIONS.len());
    assert!(
        summary.contains("| Cast-19 | 18: as Cast-13 + FLOAT8E4M3FN"),
        "{summary}"
    );
    let details = render::details(&coverage);
    for spec in VERSIONS
        .iter()
        .filter(|s| s.version().op() != OpKind::Concat)
    {
        assert!(details.contains(&format!("\n## {}\n", spec.version())));
    }
    assert!(details.contains("| **Concat-13** |"));
    assert!(!details.contains("| !") && !details.contains("rejected**"));
}

/// A report of the native backend with no trials and no run provenance.
fn empty_report() -> harness::report::Report {
    harness::report::Report {
        format: harness::report::FORMAT,
        strict: false,
        data: "d".to_owned(),
        run: None,
        backend: Default::default(),
        known_failures: None,
        trials: vec![],
    }
}

#[test]
fn only_a_complete_official_run_is_counted() {
    use harness::report::{RunInfo, Runner, Source};
    let mut report = empty_report();
    let err = complete_official(&report).expect_err("no provenance");
    assert!(
        err.contains("older harness") && err.contains("cargo test"),
        "{err}"
    );
    let mut run = RunInfo {
        started: "2026-11-23T20:00:00Z".to_owned(),
        commit: None,
        data_lock_sha256: None,
        source: Source::Official,
        deep_tree: None,
        runner: Runner::Libtest,
        filters: vec!["opset19".to_owned()],
        listed: 10,
        ran: 3,
        complete: false,
        configuration: None,
    };
    report.run = Some(run.clone());
    let err = complete_official(&report).expect_err("filtered");
    assert!(
        err.contains("filter opset19") && err.contains("3 of 10 listed"),
        "{err}"
    );
    assert!(err.contains("with no filter after `--` and without ONNX_BACKEND_DATA"));
    run.filters.clear();
    run.ran = 10;
    run.source = Source::Custom;
    run.judge_complete(true);
    report.run = Some(run.clone());
    assert!(complete_official(&report)
        .expect_err("custom")
        .contains("ONNX_BACKEND_DATA"));
    run.source = Source::Deep;
    run.judge_complete(true);
    assert!(!run.complete, "a deep run is never complete");
    // Even a report that claims to be complete is refused when it ran a deep tree.
    run.complete = true;
    report.run = Some(run.clone());
    assert!(complete_official(&report)
        .expect_err("deep")
        .contains("deep tree"));
    run.source = Source::Official;
    run.judge_complete(true);
    report.run = Some(run);
    assert_eq!(complete_official(&report), Ok(()));
    report.backend.name = "onnxruntime".to_owned();
    assert!(complete_official(&report)
        .expect_err("another backend")
        .contains("a run of backend onnxruntime"));
}

#[test]
fn the_task_refuses_a_filtered_report_before_writing_anything() {
    let dir = tempfile::tempdir().expect("tempdir");
    let report = empty_report();
    let json = dir.path().join(JSON_FILE);
    std::fs::write(&json, serde_json::to_string(&report).expect("json")).expect("write");
    std::fs::write(dir.path().join("README.md"), "x").expect("readme");
    let err = update(dir.path(), &json, false)
        .expect_err("refused")
        .to_string();
    assert!(err.contains("complete run"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("README.md"))
            .ok()
            .as_deref(),
        Some("x")
    );
    assert!(!dir.path().join("docs").exists());
}

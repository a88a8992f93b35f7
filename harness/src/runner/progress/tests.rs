use super::*;

#[test]
fn the_line_says_how_many_of_how_many_and_the_time_left_at_the_pace_so_far() {
    let d = Duration::from_secs;
    assert_eq!(line(0, 1773, d(3)), "progress: 0 of 1773 cases in 3 s");
    assert_eq!(
        line(400, 1200, d(40)),
        "progress: 400 of 1200 cases in 40 s; about 1 min 20 s left"
    );
    assert_eq!(
        line(10, 8444, d(600)),
        "progress: 10 of 8444 cases in 10 min 0 s; about 140 h 34 min left"
    );
    assert_eq!(line(5, 5, d(9)), "progress: 5 of 5 cases in 9 s");
}

#[test]
fn the_estimate_is_the_last_runs_time_for_these_cases_over_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["a", "b", "c", "d"];
    assert_eq!(estimate(dir.path(), &names, 2), None, "no report yet");
    let report = r#"{"trials": [
        {"name": "a", "duration_ms": 1000.0, "outcome": "pass"},
        {"name": "b", "duration_ms": 3000.0, "outcome": "pass"},
        {"name": "x", "duration_ms": 90000.0, "outcome": "pass"}
    ]}"#;
    std::fs::write(dir.path().join(JSON_FILE), report).unwrap();
    // a and b took 4 s; c and d, unknown, at their pace 4 s more; on two threads 4 s.
    assert_eq!(
        estimate(dir.path(), &names, 2),
        Some(Duration::from_secs(4))
    );
    assert_eq!(
        estimate(dir.path(), &names[..1], 1),
        Some(Duration::from_secs(1))
    );
    assert_eq!(
        estimate(dir.path(), &["y"], 1),
        None,
        "none of them ran there"
    );
    std::fs::write(dir.path().join(JSON_FILE), "{not json").unwrap();
    assert_eq!(estimate(dir.path(), &names, 2), None);
    assert_eq!(
        opening(1773, Duration::from_secs(370)),
        "progress: 1773 cases to run; about 6 min 10 s at the pace of the last run here"
    );
}

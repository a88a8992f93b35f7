use super::*;
use crate::outcome::Outcome;

fn header() -> Header {
    Header {
        backend: "myrt (myrt 1.0)".into(),
        strict: false,
        data: "/data".into(),
        filters: vec![],
        known_failures: Some(("list.json".into(), "ab".into())),
    }
}

fn record(name: &str) -> TrialRecord {
    TrialRecord::for_test(name, Outcome::Pass)
}

#[test]
fn a_resumed_journal_gives_back_its_records_and_keeps_them() {
    let dir = crate::testkit::scratch("journal");
    let (j, earlier) = Journal::open(dir.path(), &header(), false).expect("opened");
    assert!(earlier.is_empty());
    j.record(&record("own/opset13/a"));
    j.record(&record("own/opset13/b"));
    drop(j);
    let (j, earlier) = Journal::open(dir.path(), &header(), true).expect("resumed");
    let names: Vec<&str> = earlier.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["own/opset13/a", "own/opset13/b"]);
    j.record(&record("own/opset13/c"));
    drop(j);
    // Kept across a second interruption, then gone once finished.
    let (j, earlier) = Journal::open(dir.path(), &header(), true).expect("resumed again");
    assert_eq!(earlier.len(), 3);
    j.finish();
    assert!(!dir.path().join(FILE).exists());
    // Without --resume the journal starts anew.
    let (j, _) = Journal::open(dir.path(), &header(), false).expect("opened");
    j.record(&record("own/opset13/a"));
    drop(j);
    let (_, earlier) = Journal::open(dir.path(), &header(), false).expect("anew");
    assert!(earlier.is_empty());
}

#[test]
fn a_journal_of_another_run_is_refused_and_a_cut_last_line_dropped() {
    let dir = crate::testkit::scratch("journal-other");
    let (j, _) = Journal::open(dir.path(), &header(), false).expect("opened");
    j.record(&record("own/opset13/a"));
    drop(j);
    let mut strict = header();
    strict.strict = true;
    let e = Journal::open(dir.path(), &strict, true)
        .err()
        .expect("another run");
    assert!(e.to_string().contains("journal.jsonl"), "{e}");
    assert!(e.to_string().contains("another run"), "{e}");
    // A run killed while writing a line: that trial had not finished.
    let path = dir.path().join(FILE);
    let mut text = std::fs::read_to_string(&path).expect("journal");
    text.push_str("{\"name\": \"own/opset13/b\", \"outc");
    std::fs::write(&path, text).expect("cut");
    let (_, earlier) = Journal::open(dir.path(), &header(), true).expect("resumed");
    assert_eq!(earlier.len(), 1);
    // Anything else that is no record is an error naming the line.
    let mut text = std::fs::read_to_string(&path).expect("journal");
    text.push_str("not json\n{}\n");
    std::fs::write(&path, text).expect("bad");
    let e = Journal::open(dir.path(), &header(), true)
        .err()
        .expect("bad line");
    assert!(e.to_string().contains("line 3"), "{e}");
}

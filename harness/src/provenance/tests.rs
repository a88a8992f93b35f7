//! Unit tests of the run's provenance record.

use super::*;
use crate::index::LOCK_FILE;

#[test]
fn times_are_utc_calendar_dates() {
    assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
    // 2000-02-29 (a leap day of a century leap year), 12:34:56.
    assert_eq!(rfc3339(951_827_696), "2000-02-29T12:34:56Z");
    assert_eq!(rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
}

#[test]
fn hashes_and_commits_without_failing() {
    let dir_tmp = tempfile::Builder::new()
        .prefix("provenance")
        .tempdir()
        .expect("temp dir");
    let dir = dir_tmp.path();
    assert_eq!(lock_hash(&dir.join(LOCK_FILE)), None);
    std::fs::write(dir.join(LOCK_FILE), b"abc").expect("write");
    assert_eq!(
        lock_hash(&dir.join(LOCK_FILE)).as_deref().map(|h| &h[..8]),
        Some("ba7816bf")
    );
    // Not a repository (the temp dir is outside any checkout): no commit, no error.
    assert_eq!(git_commit(&dir.join("nowhere")), None);
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(&*dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    // Where git is installed: a clean checkout gives its hash, a changed one says so.
    if git(&["init", "-q"]) && git(&["add", "."]) && git(&["commit", "-qm", "x"]) {
        let clean = git_commit(dir).expect("a commit");
        assert_eq!(clean.len(), 40, "{clean}");
        std::fs::write(dir.join(LOCK_FILE), b"abd").expect("write");
        assert_eq!(git_commit(dir), Some(format!("{clean}-dirty")));
    }
}

#[test]
fn complete_needs_everything() {
    let mut info = RunInfo {
        started: now(),
        commit: None,
        data_lock_sha256: None,
        source: Source::Official,
        deep_tree: None,
        runner: Runner::Libtest,
        filters: vec![],
        listed: 3,
        ran: 3,
        complete: false,
        configuration: None,
    };
    info.judge_complete(true);
    assert!(info.complete);
    info.judge_complete(false);
    assert!(!info.complete);
    info.filters = vec!["opset19".into()];
    info.judge_complete(true);
    assert!(!info.complete && info.summary().contains("filter opset19"));
    info.filters.clear();
    info.ran = 2;
    info.judge_complete(true);
    assert!(!info.complete);
    info.ran = 3;
    info.source = Source::Custom;
    info.judge_complete(true);
    assert!(!info.complete);
}

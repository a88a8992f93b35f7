//! End-to-end tests of a fetch on small wheels the tests build themselves (no network, no pip).

use super::install::STAMP_FILE;
use super::*;
use crate::testkit::{entries, wheel, Setup, NODE, REL};
use prost::Message;
use schema::hash::sha256_hex;
use std::fs;

#[test]
fn a_recorded_fetch_extracts_selected_cases_and_indexes_them() {
    let s = Setup::new().locked();
    let dir = s.release_dir();
    assert_eq!(
        fs::read(dir.join("node/test_cast_a/test_data_set_0/input_0.pb")).ok(),
        Some(b"input v1".to_vec())
    );
    assert!(dir.join("node/test_concat_b/model.onnx").is_file());
    assert!(
        !dir.join("node/test_add_c").exists(),
        "unselected operator extracted"
    );

    let lock = lock::load(&s.paths.lock).expect("load").expect("written");
    let e = &lock.releases[0];
    assert_eq!(e.wheel, format!("onnx-{REL}-py3-none-any.whl"));
    assert_eq!(e.sha256, lock::sha256_file(&s.wheel_path()).expect("hash"));
    assert_eq!(e.files.len(), 3);
    assert_eq!(
        e.files["node/test_cast_a/test_data_set_0/input_0.pb"],
        sha256_hex(b"input v1")
    );

    let index = index_file::build(&s.paths.data).expect("index");
    let got: Vec<(&str, &str, i64, &str)> = index
        .instances
        .iter()
        .map(|i| (i.case.as_str(), i.op_type.as_str(), i.opset, i.dir.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("test_cast_a", "Cast", 13, "onnx-9.0.0/node/test_cast_a"),
            (
                "test_concat_b",
                "Concat",
                11,
                "onnx-9.0.0/node/test_concat_b"
            ),
        ]
    );
    let on_disk = fs::read_to_string(s.paths.data.join("index.json")).expect("index.json");
    assert_eq!(
        serde_json::from_str::<schema::index::Index>(&on_disk).ok(),
        Some(index)
    );
}

#[test]
fn a_second_run_changes_nothing_even_without_the_wheel() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    // Without the wheel a re-extraction would fail offline: success proves it was a no-op.
    fs::remove_file(s.wheel_path()).expect("remove wheel");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("no-op run");
    s.run(Options {
        offline: true,
        verify: true,
        ..Options::default()
    })
    .expect("verified run");
    assert_eq!(s.snapshot(), before);
}

#[test]
fn a_damaged_tree_is_re_extracted() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    let input = s
        .release_dir()
        .join("node/test_cast_a/test_data_set_0/input_0.pb");
    // Same size, other bytes: only --verify can see it.
    fs::write(&input, b"input XX").expect("tamper");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("cheap check");
    assert_eq!(fs::read(&input).ok(), Some(b"input XX".to_vec()));
    s.run(Options {
        offline: true,
        verify: true,
        ..Options::default()
    })
    .expect("repair");
    assert_eq!(s.snapshot(), before);
    // A missing file is seen by the cheap check.
    fs::remove_file(&input).expect("remove");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("repair");
    assert_eq!(s.snapshot(), before);
}

#[test]
fn offline_without_wheels_lists_what_is_missing() {
    let s = Setup::new();
    fs::remove_file(s.wheel_path()).expect("remove wheel");
    let opts = Options {
        releases: vec![REL.into(), "9.1.0".into()],
        offline: true,
        update_lock: true,
        ..Options::default()
    };
    let e = run(&opts, &s.paths).expect_err("nothing cached");
    assert!(
        e.message.contains("--offline") && e.message.contains("9.0.0, 9.1.0"),
        "{e}"
    );
    assert!(e.hint.as_deref().unwrap_or("").contains("--from"), "{e}");
    assert!(!s.paths.lock.exists(), "a failed run wrote the lock");
}

#[test]
fn a_wheel_that_differs_from_the_lock_is_refused_and_the_old_tree_kept() {
    let s = Setup::new().locked();
    fs::remove_dir_all(s.release_dir().join("node/test_concat_b")).expect("damage tree");
    let before = s.snapshot();
    wheel(&s.wheel_path(), &entries(b"input v2"));
    let e = s
        .run(Options {
            offline: true,
            ..Options::default()
        })
        .expect_err("hash mismatch");
    let sha = lock::sha256_file(&s.wheel_path()).expect("hash");
    assert!(
        e.message.contains(&sha) && e.message.contains("lock pins"),
        "{e}"
    );
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
}

#[test]
fn a_file_that_differs_from_the_lock_is_refused_and_the_old_tree_kept() {
    let s = Setup::new().locked();
    fs::remove_dir_all(s.release_dir().join("node/test_concat_b")).expect("damage tree");
    let before = s.snapshot();
    // A new wheel whose hash the lock accepts (as if re-published) but whose files differ.
    wheel(&s.wheel_path(), &entries(b"input v2"));
    let mut lock = lock::load(&s.paths.lock).expect("load").expect("lock");
    lock.releases[0].sha256 = lock::sha256_file(&s.wheel_path()).expect("hash");
    lock::save(&s.paths.lock, &lock).expect("save");
    let e = s
        .run(Options {
            offline: true,
            ..Options::default()
        })
        .expect_err("file mismatch");
    let (old, new) = (sha256_hex(b"input v1"), sha256_hex(b"input v2"));
    assert!(
        e.message.contains("test_cast_a/test_data_set_0/input_0.pb"),
        "{e}"
    );
    assert!(e.message.contains(&old) && e.message.contains(&new), "{e}");
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
}

#[test]
fn a_failure_mid_extract_leaves_the_old_tree() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    // Good entries first, then an entry escaping the target: extraction stops half-way.
    let mut evil = entries(b"input v2");
    evil.push((
        format!("{NODE}test_cast_x/../../../../evil"),
        b"pwned".to_vec(),
    ));
    wheel(&s.wheel_path(), &evil);
    let e = s
        .run(Options {
            offline: true,
            update_lock: true,
            ..Options::default()
        })
        .expect_err("zip-slip");
    assert!(e.message.contains("unsafe path component `..`"), "{e}");
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
    assert!(!s.dir.path().join("evil").exists() && !s.paths.data.join("evil").exists());
}

#[test]
fn a_truncated_wheel_is_reported_as_damaged() {
    let s = Setup::new();
    let bytes = fs::read(s.wheel_path()).expect("read");
    fs::write(s.wheel_path(), &bytes[..bytes.len() / 2]).expect("truncate");
    let e = s
        .run(Options {
            offline: true,
            update_lock: true,
            ..Options::default()
        })
        .expect_err("damaged");
    assert!(
        e.message.contains("damaged") && e.message.contains(&s.wheel_path().display().to_string()),
        "{e}"
    );
    assert!(!s.release_dir().exists() && s.leftovers().is_empty());
}

#[test]
fn leftovers_of_a_killed_run_are_cleaned_up() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    // Killed between the two renames: the old tree is aside, a complete new one is pending.
    let old = s.paths.data.join(format!(".old-onnx-{REL}-4000000"));
    fs::rename(s.release_dir(), &old).expect("move aside");
    let tmp = s.paths.data.join(format!(".tmp-onnx-{REL}-4000000"));
    fs::create_dir_all(tmp.join("node/test_cast_a")).expect("partial tmp");
    fs::remove_file(s.wheel_path()).expect("no wheel: the tree must come back by rename");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("cleanup run");
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
}

#[test]
fn from_takes_a_wheel_or_a_checkout_and_names_the_release() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    let from_wheel = Options {
        from: Some(s.wheel_path()),
        ..Options::default()
    };
    run(&from_wheel, &s.paths).expect("release from the wheel name");
    assert_eq!(s.snapshot(), before);

    let checkout = s.dir.path().join("onnx-src");
    for (name, bytes) in entries(b"input v1") {
        if let Some(rel) = name.strip_prefix(NODE).filter(|n| !n.ends_with('/')) {
            let p = checkout.join(NODE).join(rel);
            fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            fs::write(p, bytes).expect("write");
        }
    }
    let opts = Options {
        from: Some(checkout.clone()),
        ..Options::default()
    };
    let e = run(&opts, &s.paths).expect_err("no VERSION_NUMBER");
    assert!(e.hint.as_deref() == Some("add --release V"), "{e}");
    fs::write(checkout.join("VERSION_NUMBER"), format!("{REL}\n")).expect("version");
    run(&opts, &s.paths).expect("checkout matches the lock");
    let stamp = s.release_dir().join(STAMP_FILE);
    assert!(fs::read_to_string(stamp)
        .expect("stamp")
        .contains("onnx-src"));
    let files = |s: &Setup| {
        s.snapshot()
            .into_iter()
            .filter(|(k, _)| !k.ends_with(STAMP_FILE))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        files(&s),
        before
            .into_iter()
            .filter(|(k, _)| !k.ends_with(STAMP_FILE))
            .collect::<Vec<_>>()
    );

    let wrong = Options {
        releases: vec!["9.9.9".into()],
        from: Some(s.wheel_path()),
        ..Options::default()
    };
    assert!(run(&wrong, &s.paths)
        .expect_err("mismatch")
        .message
        .contains("holds onnx 9.0.0"));
}

#[test]
fn releases_missing_from_the_lock_are_named() {
    let s = Setup::new().locked();
    let opts = Options {
        releases: vec!["9.1.0".into()],
        offline: true,
        ..Options::default()
    };
    let e = run(&opts, &s.paths).expect_err("unlocked");
    assert!(
        e.message.contains("not in the lock file: onnx 9.1.0"),
        "{e}"
    );
}

#[test]
fn the_index_lists_every_release_on_disk_in_version_order() {
    let s = Setup::new();
    for (release, case, op, opset) in [
        ("10.0.0", "test_concat_z", "Concat", 13),
        ("9.0.0-generated", "test_cast_b", "Cast", 25),
        ("9.0.0", "test_cast_b", "Cast", 19),
        ("9.0.0", "test_castlike_a", "CastLike", 21),
    ] {
        let dir = s.paths.data.join(format!("onnx-{release}/node/{case}"));
        fs::create_dir_all(&dir).expect("mkdir");
        fs::write(dir.join("model.onnx"), crate::testkit::model(op, opset)).expect("model");
    }
    // Hidden directories (temporary, venvs, cache) are not releases.
    fs::create_dir_all(s.paths.data.join(".tmp-onnx-9.9.9-1/node/test_cast_q")).expect("mkdir");
    let index = index_file::build(&s.paths.data).expect("index");
    let got: Vec<String> = index
        .instances
        .iter()
        .map(|i| format!("{} {} {} {}", i.release, i.case, i.op_type, i.opset))
        .collect();
    assert_eq!(
        got,
        [
            "9.0.0 test_cast_b Cast 19",
            "9.0.0 test_castlike_a CastLike 21",
            "9.0.0-generated test_cast_b Cast 25",
            "10.0.0 test_concat_z Concat 13",
        ]
    );
    let bad = s
        .paths
        .data
        .join("onnx-10.0.0/node/test_concat_z/model.onnx");
    fs::write(&bad, b"\xff\xff").expect("corrupt");
    let e = index_file::build(&s.paths.data).expect_err("corrupt model");
    assert!(e.message.contains("test_concat_z/model.onnx"), "{e}");
    // The opset rule is the test runner's: one default-domain import, "" or "ai.onnx".
    let mut two = schema::proto::ModelProto::decode(crate::testkit::model("Concat", 13).as_slice())
        .expect("decode");
    two.opset_import.push(schema::proto::OperatorSetIdProto {
        domain: Some("ai.onnx".into()),
        version: 11,
    });
    fs::write(&bad, two.encode_to_vec()).expect("two default imports");
    let e = index_file::build(&s.paths.data).expect_err("ambiguous opset");
    assert!(e.message.contains("at opsets 13 and 11"), "{e}");
}

/// The case directories installed for [`REL`].
fn cases(s: &Setup) -> Vec<String> {
    let mut found: Vec<String> = fs::read_dir(s.release_dir().join("node"))
        .expect("list")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    found.sort();
    found
}

#[test]
fn ops_adds_cases_beside_the_locked_ones_which_stay_verified() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    let lock_before = fs::read(&s.paths.lock).expect("lock");
    let add = Options {
        offline: true,
        extra_ops: vec!["test_add".into()],
        ..Options::default()
    };
    s.run(add.clone()).expect("extra prefix");
    assert_eq!(cases(&s), ["test_add_c", "test_cast_a", "test_concat_b"]);
    let index = index_file::build(&s.paths.data).expect("index");
    assert_eq!(index.instances.len(), 3);
    assert_eq!(fs::read(&s.paths.lock).ok(), Some(lock_before));
    // A second identical run is the cheap no-op, with or without re-hashing.
    fs::rename(s.wheel_path(), s.dir.path().join("aside.whl")).expect("hide wheel");
    s.run(add.clone()).expect("no-op");
    s.run(Options {
        verify: true,
        ..add.clone()
    })
    .expect("verified no-op");
    fs::rename(s.dir.path().join("aside.whl"), s.wheel_path()).expect("restore wheel");

    // The locked cases are still checked file by file when extras come along: a checkout
    // (no wheel hash to stop it earlier) whose cast input differs from the lock is refused.
    let checkout = s.dir.path().join("onnx-src");
    for (name, bytes) in entries(b"input v2") {
        if let Some(rel) = name.strip_prefix(NODE).filter(|n| !n.ends_with('/')) {
            let p = checkout.join(NODE).join(rel);
            fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            fs::write(p, bytes).expect("write");
        }
    }
    let e = s
        .run(Options {
            from: Some(checkout),
            ..add
        })
        .expect_err("a locked file differs");
    assert!(
        e.message.contains("test_cast_a/test_data_set_0/input_0.pb"),
        "{e}"
    );

    // Without --ops the extra cases go again and the tree is as the lock alone makes it.
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("back to the lock's prefixes");
    assert_eq!(cases(&s), ["test_cast_a", "test_concat_b"]);
    assert_eq!(s.snapshot(), before);
}

#[test]
fn a_killed_download_leaves_nothing_behind_after_the_next_run() {
    let s = Setup::new().locked();
    // pid_max is at most 2^22 on Linux, so this process cannot exist.
    let stage = s.paths.cache().join(".download-4000000");
    fs::create_dir_all(&stage).expect("stage");
    fs::write(stage.join("onnx-9.0.0-py3-none-any.whl"), b"half a wheel").expect("partial");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("run");
    assert!(
        !stage.exists(),
        "the staging directory of a dead download is left"
    );
    assert!(s.wheel_path().is_file(), "the cached wheel was removed");
}

#[test]
fn counts_of_one_are_singular() {
    let totals = Totals {
        cases: 1,
        files: 1,
        bytes: 1,
        downloaded: 0,
        extracted: 1,
    };
    let line = totals.summary(1, 1, Instant::now());
    assert!(
        line.starts_with("fetch-tests: 1 release, 1 case, 1 file, 1 B (0 downloaded, 1 extracted); index.json lists 1 case;"),
        "{line}"
    );
    assert_eq!(plural(2, "release"), "2 releases");
    assert_eq!(plural(0, "case"), "0 cases");
}

/// A full disk (ENOSPC on Linux) gets the hint; any other I/O error does not.
#[test]
fn a_full_disk_gets_the_free_space_hint() {
    let path = std::path::Path::new("x");
    let full = Error::io(
        "write",
        path,
        std::io::Error::from(std::io::ErrorKind::StorageFull),
    );
    assert!(full.to_string().contains("free some disk space"), "{full}");
    let other = Error::io(
        "write",
        path,
        std::io::Error::from(std::io::ErrorKind::NotFound),
    );
    assert!(!other.to_string().contains("hint"), "{other}");
    // The same for a state file written aside (index.json, a stamp, the lock file), whose
    // error is schema::files': it names the path and keeps the hint.
    let dir = tempfile::tempdir().expect("dir");
    let in_the_way = dir.path().join("index.json");
    fs::create_dir_all(in_the_way.join("x")).expect("mkdir");
    let schema_err = schema::files::write_atomic(&in_the_way, b"{}").expect_err("a directory");
    let e = Error::from(schema_err);
    assert!(
        e.message.contains(&in_the_way.display().to_string()) && e.hint.is_none(),
        "{e}"
    );
    let full = Error::from(schema::files::Error::Io {
        op: "write",
        path: in_the_way.clone(),
        source: std::io::Error::from(std::io::ErrorKind::StorageFull),
    });
    assert!(full.to_string().contains("free some disk space"), "{full}");
    if cfg!(target_os = "linux") {
        let enospc = Error::io("write", path, std::io::Error::from_raw_os_error(28));
        assert!(
            enospc.to_string().contains("free some disk space"),
            "{enospc}"
        );
    }
}

/// The lock with `path`'s sha256 of [`REL`] replaced by that of `bytes`.
fn relock_file(s: &Setup, path: &str, bytes: &[u8]) {
    let mut lock = lock::load(&s.paths.lock).expect("load").expect("lock");
    let e = &mut lock.releases[0];
    *e.files.get_mut(path).expect("locked file") = sha256_hex(bytes);
    lock::save(&s.paths.lock, &lock).expect("save");
}

#[test]
fn a_changed_lock_entry_is_checked_against_the_files_it_names() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    let input = "node/test_cast_a/test_data_set_0/input_0.pb";
    relock_file(&s, input, b"input v9");
    let e = s
        .run(Options {
            offline: true,
            ..Options::default()
        })
        .expect_err("the files differ from the changed lock");
    let (disk, locked) = (sha256_hex(b"input v1"), sha256_hex(b"input v9"));
    assert!(e.message.contains(input), "{e}");
    assert!(
        e.message.contains(&disk) && e.message.contains(&locked),
        "{e}"
    );
    // The refusal is --verify's, word for word.
    let verify = s
        .run(Options {
            offline: true,
            verify: true,
            ..Options::default()
        })
        .expect_err("--verify refuses too");
    assert_eq!(e, verify);
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
}

#[test]
fn a_stamp_without_the_lock_entry_re_hashes_once_then_the_cheap_check_returns() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    let stamp_path = s.release_dir().join(STAMP_FILE);
    let stamp = install::read_stamp(&s.release_dir()).expect("stamp");
    let lock = lock::load(&s.paths.lock).expect("load").expect("lock");
    let digest = lock::entry_sha256(&lock.releases[0]).expect("digest");
    assert_eq!(stamp.lock_entry_sha256, digest);
    // A stamp written before the field existed, and a same-size change the sizes cannot see.
    let mut old: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&stamp_path).expect("read")).expect("json");
    old.as_object_mut()
        .expect("object")
        .remove("lock_entry_sha256");
    fs::write(&stamp_path, old.to_string()).expect("old stamp");
    let input = s
        .release_dir()
        .join("node/test_cast_a/test_data_set_0/input_0.pb");
    fs::write(&input, b"input XX").expect("tamper");
    let offline = || Options {
        offline: true,
        ..Options::default()
    };
    s.run(offline()).expect("re-hashed and repaired");
    assert_eq!(s.snapshot(), before);

    // A lock entry changed in a way the files still match: re-hashed, then stamped anew.
    let mut lock = lock;
    lock.releases[0].wheel = format!("onnx-{REL}-py3-none-any.renamed.whl");
    lock::save(&s.paths.lock, &lock).expect("save");
    s.run(offline()).expect("the files match the changed entry");
    let stamp = install::read_stamp(&s.release_dir()).expect("stamp");
    assert_eq!(
        stamp.lock_entry_sha256,
        lock::entry_sha256(&lock.releases[0]).expect("digest")
    );
    // From now on the cheap check again: sizes only, no re-hash.
    fs::write(&input, b"input XX").expect("tamper");
    s.run(offline()).expect("cheap check");
    assert_eq!(fs::read(&input).ok(), Some(b"input XX".to_vec()));
}

#[test]
fn a_second_fetch_into_the_same_data_directory_waits_or_stops() {
    use schema::files::{DirLock, WhenBusy};
    let s = Setup::new().locked();
    let before = s.snapshot();
    let held =
        DirLock::acquire(&s.paths.data, "the test's fetch", WhenBusy::Stop, |_| {}).expect("lock");
    // Without the lock file a re-fetch would change the tree: any write would show.
    let input = s
        .release_dir()
        .join("node/test_cast_a/test_data_set_0/input_0.pb");
    fs::remove_file(&input).expect("remove");
    let e = s
        .run(Options {
            offline: true,
            no_wait: true,
            ..Options::default()
        })
        .expect_err("busy");
    let data = s.paths.data.display().to_string();
    assert!(
        e.message.contains(&data) && e.message.contains("the test's fetch"),
        "{e}"
    );
    assert!(!input.exists(), "a fetch ran beside the holder");

    // Waiting: the second fetch is told who holds the directory, and runs once it is free.
    let (told, heard) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        let waiting = scope.spawn(|| {
            let opts = Options {
                releases: vec![REL.into()],
                offline: true,
                ..Options::default()
            };
            run_waiting(&opts, &s.paths, move |holder| {
                told.send(holder.to_string()).expect("send");
            })
        });
        let holder = heard.recv().expect("the fetch waits");
        assert!(holder.contains("the test's fetch"), "{holder}");
        assert!(!input.exists(), "a fetch ran beside the holder");
        drop(held);
        waiting
            .join()
            .expect("join")
            .expect("the fetch after the holder");
    });
    assert_eq!(s.snapshot(), before);
}

#[test]
fn a_failed_write_of_the_index_names_it_and_leaves_no_temporary_file() {
    let s = Setup::new().locked();
    let index = s.paths.data.join("index.json");
    fs::remove_file(&index).expect("remove");
    // A directory in its place: the rename into place fails.
    fs::create_dir_all(index.join("in-the-way")).expect("mkdir");
    let names = |s: &Setup| {
        let mut v: Vec<String> = fs::read_dir(&s.paths.data)
            .expect("list")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        v.sort();
        v
    };
    let before = names(&s);
    let e = s
        .run(Options {
            offline: true,
            ..Options::default()
        })
        .expect_err("index.json is a directory");
    assert!(e.message.contains(&index.display().to_string()), "{e}");
    assert_eq!(names(&s), before);
}

#[test]
fn files_of_a_write_killed_half_way_are_removed_by_the_next_run() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    // What a fetch killed inside `write_atomic` leaves: the index, and a stamp rewritten
    // after its lock entry changed. pid_max is at most 2^22 on Linux: this one is gone.
    let dead = format!("{}4000000", schema::files::TEMP_PREFIX);
    let index = s.paths.data.join(format!("{dead}-0-index.json"));
    let stamp = s.release_dir().join(format!("{dead}-1-{STAMP_FILE}"));
    fs::write(&index, b"{\"format\":").expect("half an index");
    fs::write(&stamp, b"{").expect("half a stamp");
    // A name a user chose is never touched.
    let mine = s.paths.data.join("notes.txt");
    fs::write(&mine, b"mine").expect("user file");
    s.run(Options {
        offline: true,
        ..Options::default()
    })
    .expect("run");
    assert!(!index.exists() && !stamp.exists());
    fs::remove_file(&mine).expect("the user's file is kept");
    assert_eq!(s.snapshot(), before);
}

#[test]
fn a_release_listed_twice_in_the_lock_is_refused_naming_the_file_and_release() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    // Two locks merged by hand: the release twice, the second with another hash.
    let mut lock = lock::load(&s.paths.lock).expect("load").expect("lock");
    let mut other = lock.releases[0].clone();
    other.sha256 = sha256_hex(b"another wheel");
    lock.releases.push(other);
    let text = serde_json::to_string_pretty(&lock).expect("json");
    fs::write(&s.paths.lock, text).expect("write");
    let e = s
        .run(Options {
            offline: true,
            ..Options::default()
        })
        .expect_err("a release twice");
    assert!(
        e.message.contains(&s.paths.lock.display().to_string())
            && e.message.contains(&format!("onnx {REL} is listed twice")),
        "{e}"
    );
    assert_eq!(s.snapshot(), before);
}

#[test]
fn a_file_where_the_data_directory_should_be_is_an_error_naming_it() {
    let s = Setup::new();
    fs::remove_dir_all(&s.paths.data).expect("remove");
    fs::write(&s.paths.data, b"the user's file").expect("a file in the way");
    let e = s
        .run(Options {
            offline: true,
            update_lock: true,
            ..Options::default()
        })
        .expect_err("not a directory");
    let data = s.paths.data.display().to_string();
    assert!(
        e.message.contains(&data) && e.message.contains("not a directory"),
        "{e}"
    );
    assert_eq!(
        crate::main(
            &Options {
                releases: vec![REL.into()],
                offline: true,
                ..Options::default()
            },
            &s.paths
        ),
        std::process::ExitCode::FAILURE
    );
    assert_eq!(
        fs::read(&s.paths.data).ok(),
        Some(b"the user's file".to_vec())
    );
    assert!(!s.paths.lock.exists());
}

/// Whether this process can write into a read-only directory (root can): then permission
/// tests prove nothing.
fn ignores_permissions(dir: &std::path::Path) -> bool {
    let probe = dir.join(".probe");
    let wrote = fs::write(&probe, b"").is_ok();
    let _ = fs::remove_file(&probe);
    wrote
}

#[cfg(unix)]
#[test]
fn a_read_only_data_directory_is_an_error_naming_it_and_changes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let s = Setup::new().locked();
    // A file gone: the release must be extracted again, which needs writing.
    fs::remove_file(s.release_dir().join("node/test_concat_b/model.onnx")).expect("remove");
    let before = s.snapshot();
    let mode = |p: &std::path::Path, m: u32| {
        fs::set_permissions(p, fs::Permissions::from_mode(m)).expect("chmod")
    };
    mode(&s.paths.data, 0o555);
    if ignores_permissions(&s.paths.data) {
        mode(&s.paths.data, 0o755);
        eprintln!("skipped: this process ignores permissions (root)");
        return;
    }
    let result = s.run(Options {
        offline: true,
        ..Options::default()
    });
    mode(&s.paths.data, 0o755);
    let e = result.expect_err("read-only");
    assert!(
        e.message.contains(&s.paths.data.display().to_string()),
        "{e}"
    );
    assert_eq!(s.snapshot(), before);
    assert!(s.leftovers().is_empty());
}

#[test]
fn a_write_that_fails_half_way_names_the_file_and_keeps_the_earlier_data() {
    let s = Setup::new().locked();
    let before = s.snapshot();
    let lock_before = fs::read(&s.paths.lock).expect("lock");
    // After the good entries, one whose directory would be a file already written: the
    // write fails as it would on a full disk, after part of the release is extracted.
    let mut entries = entries(b"input v2");
    entries.push((
        format!("{NODE}test_cast_a/model.onnx/inner.pb"),
        b"x".to_vec(),
    ));
    wheel(&s.wheel_path(), &entries);
    let e = s
        .run(Options {
            offline: true,
            update_lock: true,
            ..Options::default()
        })
        .expect_err("cannot write");
    assert!(
        e.message.contains(&s.paths.data.display().to_string())
            && e.message.contains("test_cast_a/model.onnx"),
        "{e}"
    );
    assert_eq!(s.snapshot(), before);
    assert_eq!(fs::read(&s.paths.lock).ok(), Some(lock_before));
    assert!(s.leftovers().is_empty());
}

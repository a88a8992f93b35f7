use super::*;
use std::sync::mpsc;
use std::time::Duration;

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(TEMP_PREFIX))
        .collect()
}

#[test]
fn write_atomic_replaces_the_file_and_leaves_no_temporary() {
    let dir = scratch();
    let path = dir.path().join("report.json");
    std::fs::write(&path, b"old").unwrap();
    let inode_before = std::fs::metadata(&path).unwrap();
    write_atomic(&path, b"new contents").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new contents");
    assert!(leftovers(dir.path()).is_empty());
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // A new file renamed over the old one: a reader holding the old one keeps it whole.
        let after = std::fs::metadata(&path).unwrap();
        assert_ne!(inode_before.ino(), after.ino());
    }
    let _ = inode_before;
}

#[test]
fn write_atomic_into_a_missing_directory_names_the_path() {
    let dir = scratch();
    let path = dir.path().join("missing").join("report.json");
    let e = write_atomic(&path, b"x").unwrap_err();
    assert!(e.to_string().contains("missing"), "{e}");
    assert!(matches!(e, Error::Io { op: "create", .. }), "{e:?}");
}

#[test]
fn a_staged_set_changes_nothing_until_committed_and_nothing_when_dropped() {
    let dir = scratch();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.md");
    std::fs::write(&a, b"old a").unwrap();
    let mut set = Staged::new();
    set.add(&a, b"new a").unwrap();
    set.add(&b, b"new b").unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), b"old a");
    assert!(!b.exists());
    drop(set);
    assert_eq!(std::fs::read(&a).unwrap(), b"old a");
    assert!(!b.exists());
    assert!(leftovers(dir.path()).is_empty());

    let mut set = Staged::new();
    set.add(&a, b"new a").unwrap();
    set.add(&b, b"new b").unwrap();
    set.commit().unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), b"new a");
    assert_eq!(std::fs::read(&b).unwrap(), b"new b");
    assert!(leftovers(dir.path()).is_empty());
}

#[test]
fn a_held_lock_stops_a_second_taker_naming_the_directory_and_the_holder() {
    let dir = scratch();
    let held = DirLock::acquire(dir.path(), "the first run", WhenBusy::Stop, |_| {}).unwrap();
    let e = DirLock::acquire(dir.path(), "the second run", WhenBusy::Stop, |_| {}).unwrap_err();
    let text = e.to_string();
    assert!(text.contains(&dir.path().display().to_string()), "{text}");
    assert!(text.contains("the first run"), "{text}");
    assert!(
        text.contains(&format!("process {}", std::process::id())),
        "{text}"
    );
    drop(held);
    DirLock::acquire(dir.path(), "the third run", WhenBusy::Stop, |_| {}).unwrap();
}

#[test]
fn a_waiting_taker_is_told_who_holds_the_lock_and_gets_it_when_released() {
    let dir = scratch();
    let held = DirLock::acquire(dir.path(), "the first run", WhenBusy::Stop, |_| {}).unwrap();
    let (told_tx, told_rx) = mpsc::channel();
    let (got_tx, got_rx) = mpsc::channel();
    let path = dir.path().to_path_buf();
    let waiter = std::thread::spawn(move || {
        let lock = DirLock::acquire(&path, "the second run", WhenBusy::Wait, |holder| {
            told_tx.send(holder.to_string()).unwrap();
        })
        .unwrap();
        got_tx.send(()).unwrap();
        drop(lock);
    });
    let holder = told_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(holder.contains("the first run"), "{holder}");
    assert!(got_rx.recv_timeout(Duration::from_millis(200)).is_err());
    drop(held);
    got_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    waiter.join().unwrap();
}

#[test]
fn a_temporary_file_names_its_writer() {
    let tmp = temp_sibling(Path::new("dir/index.json"));
    let name = tmp.file_name().unwrap().to_str().unwrap();
    assert_eq!(temp_owner(name), Some(std::process::id()));
    assert_eq!(temp_owner("index.json"), None);
    assert_eq!(temp_owner(&format!("{TEMP_PREFIX}x-0-index.json")), None);
}

#[test]
fn replace_puts_the_new_file_in_place_and_leaves_no_temporary() {
    let dir = scratch();
    let path = dir.path().join("output_0.pb");
    std::fs::write(&path, b"old").unwrap();
    replace(&path, b"new").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
    assert!(leftovers(dir.path()).is_empty());
    let e = replace(&dir.path().join("missing/x.pb"), b"x").unwrap_err();
    assert!(e.to_string().contains("missing"), "{e}");
}

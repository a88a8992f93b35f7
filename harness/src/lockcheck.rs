//! When an official trial fails, its case files are hashed against the lock file: the cheap
//! check of `cargo xtask fetch-tests` compares sizes only, so a same-size bit flip on disk
//! would otherwise read like a bug of the implementation.

use crate::discover::CaseSpec;
use crate::index::{Lock, LOCK_FILE};
use crate::provenance::sha256_hex;
use std::collections::BTreeMap;
use std::path::Path;

/// How many differing files the note names.
const SHOWN: usize = 5;

/// A note saying which of the case's files differ from the lock at `lock_path`, or `None`
/// when they all match, or when the release is not locked (generated cases) or the lock or
/// the case directory cannot be read (other checks report those).
pub fn check(lock_path: &Path, case: &CaseSpec) -> Option<String> {
    if !case.dir.is_dir() {
        return None;
    }
    let lock: Lock = serde_json::from_str(&std::fs::read_to_string(lock_path).ok()?).ok()?;
    let release = lock.releases.iter().find(|r| r.release == case.release)?;
    let prefix = format!("node/{}/", case.case);
    let mut locked: BTreeMap<&str, &str> = release
        .files
        .iter()
        .filter_map(|(path, hash)| Some((path.strip_prefix(&prefix)?, hash.as_str())))
        .collect();
    let mut problems = Vec::new();
    for entry in walkdir::WalkDir::new(&case.dir).sort_by_file_name() {
        let Ok(entry) = entry else {
            problems.push("a file that cannot be listed".to_string());
            continue;
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry.path().strip_prefix(&case.dir).unwrap_or(entry.path());
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let rel = rel.join("/");
        let hash = std::fs::read(entry.path()).map(|b| sha256_hex(&b));
        match (locked.remove(rel.as_str()), hash) {
            (None, _) => problems.push(format!("{rel} (not in the lock)")),
            (Some(_), Err(e)) => problems.push(format!("{rel} (cannot read: {e})")),
            (Some(want), Ok(got)) if want != got => {
                problems.push(format!("{rel} (sha256 {got}, the lock says {want})"))
            }
            (Some(_), Ok(_)) => {}
        }
    }
    problems.extend(locked.keys().map(|rel| format!("{rel} (missing)")));
    if problems.is_empty() {
        return None;
    }
    let more = match problems.len() > SHOWN {
        true => format!(" and {} more", problems.len() - SHOWN),
        false => String::new(),
    };
    problems.truncate(SHOWN);
    Some(format!(
        "the data on disk is damaged, so this failure may not be the implementation's: \
         {} differs from {LOCK_FILE} in {}{more}; run `cargo xtask fetch-tests --verify` to \
         re-check and repair the data",
        case.dir.display(),
        problems.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::LockedRelease;
    use std::path::PathBuf;

    /// A copy of a real own case as release `9.9.9` of a locked tree, and its lock.
    fn locked_copy(root: &Path) -> (PathBuf, CaseSpec) {
        let own =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/test_cast1_FLOAT_to_INT32");
        let dir = root.join("onnx-9.9.9/node/test_cast1_FLOAT_to_INT32");
        let mut files = BTreeMap::new();
        for entry in walkdir::WalkDir::new(&own) {
            let entry = entry.expect("list the own case");
            let rel = entry.path().strip_prefix(&own).expect("inside");
            let to = dir.join(rel);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).expect("dir");
                continue;
            }
            let bytes = std::fs::read(entry.path()).expect("read");
            std::fs::write(&to, &bytes).expect("copy");
            let key = format!("node/test_cast1_FLOAT_to_INT32/{}", rel.display());
            files.insert(key, sha256_hex(&bytes));
        }
        let lock = Lock {
            format: 1,
            ops: vec!["test_cast".into()],
            releases: vec![LockedRelease {
                release: "9.9.9".into(),
                wheel: "w".into(),
                sha256: "0".into(),
                files,
            }],
        };
        let lock_path = root.join(LOCK_FILE);
        let text = serde_json::to_string(&lock).expect("json");
        std::fs::write(&lock_path, text).expect("lock");
        let spec = CaseSpec {
            dir,
            release: "9.9.9".into(),
            case: "test_cast1_FLOAT_to_INT32".into(),
            op_type: Some("Cast".into()),
            opset: Some(1),
            indexed: true,
        };
        (lock_path, spec)
    }

    #[test]
    fn a_same_size_bit_flip_is_named_with_the_verify_hint() {
        let root_tmp = tempfile::Builder::new()
            .prefix("lockcheck")
            .tempdir()
            .expect("temp dir");
        let root = root_tmp.path();
        let (lock, spec) = locked_copy(root);
        assert_eq!(check(&lock, &spec), None, "an intact copy matches");
        let pb = spec.dir.join("test_data_set_0/output_0.pb");
        let mut bytes = std::fs::read(&pb).expect("read");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&pb, &bytes).expect("flip");
        let note = check(&lock, &spec).expect("a note");
        assert!(
            note.contains("test_data_set_0/output_0.pb (sha256 "),
            "{note}"
        );
        assert!(note.contains("cargo xtask fetch-tests --verify"), "{note}");
        std::fs::remove_file(spec.dir.join("test_data_set_0/input_0.pb")).expect("rm");
        std::fs::write(spec.dir.join("extra.pb"), b"x").expect("extra");
        let note = check(&lock, &spec).expect("a note");
        assert!(
            note.contains("test_data_set_0/input_0.pb (missing)"),
            "{note}"
        );
        assert!(note.contains("extra.pb (not in the lock)"), "{note}");
    }

    #[test]
    fn a_damaged_official_trial_says_so_and_an_unlocked_one_does_not() {
        use crate::discover::{Spec, SpecKind};
        use crate::trials::{run, Context};
        let root_tmp = tempfile::Builder::new()
            .prefix("lockcheck-trial")
            .tempdir()
            .expect("temp dir");
        let root = root_tmp.path();
        let (lock, spec) = locked_copy(root);
        let pb = spec.dir.join("test_data_set_0/output_0.pb");
        let mut bytes = std::fs::read(&pb).expect("read");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&pb, &bytes).expect("flip");
        let trial = Spec {
            name: "onnx-9.9.9/opset1/test_cast1_FLOAT_to_INT32".into(),
            kind: SpecKind::Case(spec.clone()),
        };
        let mut ctx = Context {
            out_dir: root.join("out"),
            lock_file: Some(lock),
            ..Context::default()
        };
        let msg = run(&ctx, &trial).message.unwrap_or_default();
        assert!(msg.starts_with("the data on disk is damaged"), "{msg}");
        assert!(
            msg.contains("elements differ"),
            "the comparison still shows: {msg}"
        );
        ctx.lock_file = None;
        let msg = run(&ctx, &trial).message.unwrap_or_default();
        assert!(!msg.contains("damaged"), "{msg}");
    }
}

use super::*;

#[test]
fn network_failures_are_told_apart_from_missing_releases() {
    let net = "WARNING: Retrying (Retry(total=4)) after connection broken by \
               'NewConnectionError(...: Failed to establish a new connection')\n\
               ERROR: Could not find a version that satisfies the requirement onnx==1.2.3";
    assert!(is_network_error(net));
    assert!(network_line(net).contains("NewConnectionError"));
    let missing = "ERROR: Could not find a version that satisfies the requirement \
                   onnx==9.9.9 (from versions: none)\nERROR: No matching distribution found";
    assert!(!is_network_error(missing));
    assert_eq!(last_line(missing), "ERROR: No matching distribution found");
}

#[test]
fn a_missing_interpreter_names_itself_and_the_alternatives() {
    let e = check("/nonexistent/python3").expect_err("no such interpreter");
    assert!(e.message.contains("/nonexistent/python3"), "{e}");
    assert!(e.hint.as_deref().unwrap_or("").contains("--offline"), "{e}");
}

#[test]
fn the_cache_is_searched_by_locked_name_then_by_release() {
    let dir = tempfile::tempdir().expect("temp dir");
    let whl = dir
        .path()
        .join("onnx-1.2.3-cp36-cp36m-manylinux1_x86_64.whl");
    fs::write(&whl, b"x").expect("write");
    assert_eq!(cached(dir.path(), "1.2.3", None), Some(whl.clone()));
    assert_eq!(cached(dir.path(), "1.2.30", None), None);
    assert_eq!(cached(dir.path(), "1.2.3", Some("other.whl")), None);
}

/// A stand-in for `python -m pip download`: it writes `onnx-<release>-py3-none-any.whl` into
/// the `-d` directory once at least one other download is running beside it (or gives up
/// after 10 s, saying it ran alone), and knows no release 9.9.9.
const FAKE_PIP: &str = r#"#!/bin/sh
FAKE_PIP_DIR="@DIR@"
dir=""; rel=""; prev=""
for a in "$@"; do
  case "$a" in onnx==*) rel="${a#onnx==}";; esac
  [ "$prev" = "-d" ] && dir="$a"
  prev="$a"
done
if [ "$rel" = "9.9.9" ]; then
  echo "ERROR: No matching distribution found for onnx==9.9.9" >&2; exit 1
fi
running="$FAKE_PIP_DIR/running"
mkdir -p "$running"; touch "$running/$rel"
i=0
while [ "$(ls "$running" | wc -l)" -lt 2 ] && [ -z "$(ls "$FAKE_PIP_DIR/done" 2>/dev/null)" ]; do
  i=$((i+1)); [ $i -gt 200 ] && { echo "ran alone" >&2; exit 1; }
  sleep 0.05
done
mkdir -p "$FAKE_PIP_DIR/done"; touch "$FAKE_PIP_DIR/done/$rel"
rm -f "$running/$rel"
touch "$dir/onnx-$rel-py3-none-any.whl"
"#;

#[test]
fn downloads_run_side_by_side_and_each_failure_names_its_release() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let python = dir.path().join("python");
    let script = FAKE_PIP.replace("@DIR@", &dir.path().to_string_lossy());
    fs::write(&python, script).expect("write the fake pip");
    fs::set_permissions(&python, fs::Permissions::from_mode(0o755)).expect("chmod");
    let cache = dir.path().join("cache");
    fs::create_dir_all(&cache).expect("cache");
    let releases = ["1.2.3", "9.9.9", "1.3.0", "1.4.1"];
    let seen = std::sync::Mutex::new(Vec::new());
    let results = download_all(
        python.to_str().expect("utf-8"),
        &releases,
        &cache,
        &|r, _| {
            seen.lock().expect("lock").push(r.to_owned());
        },
    );
    assert_eq!(results.len(), releases.len());
    for (release, r) in releases.iter().zip(&results) {
        match (*release, r) {
            ("9.9.9", Err(e)) => assert!(e.message.contains("onnx 9.9.9"), "{e}"),
            (_, Ok(w)) => {
                assert!(w.is_file(), "{}", w.display());
                assert!(w.starts_with(&cache));
                assert!(w.to_string_lossy().contains(release));
            }
            (_, r) => panic!("onnx {release}: unexpected {r:?}"),
        }
    }
    let mut seen = seen.into_inner().expect("lock");
    seen.sort();
    assert_eq!(seen, ["1.2.3", "1.3.0", "1.4.1", "9.9.9"]);
    let stages: Vec<_> = fs::read_dir(&cache)
        .expect("list")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".download-"))
        .collect();
    assert!(stages.is_empty(), "staging directories left behind");
}

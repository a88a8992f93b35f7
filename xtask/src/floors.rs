//! Guards on which crate may use which (ARCHITECTURE.md, "Floors"): a crate depends only on
//! crates of a lower floor, nothing depends on the xtask, and no crate names a file of another
//! (the xtask's chores aside). Read from the manifests and sources, so that a new dependency is
//! judged before it is built. And the xtask stays under its size bound.

use crate::testkit::repo::{root, tracked_files};
use std::path::{Component, Path, PathBuf};

/// Every crate of the repository (its directory, relative to the root) and its floor.
const FLOORS: &[(&str, u8)] = &[
    ("source-hash", 0),
    ("vocab", 1),
    ("schema", 1),
    ("test-rng", 1),
    ("", 2),
    ("harness", 3),
    ("fetch", 3),
    ("cases", 4),
    ("deep", 4),
    ("reports", 4),
    ("backends/inproc", 4),
    ("cli", 5),
    ("xtask", 5),
    ("fuzz", 5),
    ("examples/external-runtime", 5),
    ("examples/external-deep", 5),
    ("backends/tract-worker", 5),
];

/// The root crate's tests (`tests/onnx_backend.rs`, the benches) judge the kernels with the
/// suite: its dev-dependencies may reach above it, and are checked only against the xtask.
const DEV_ABOVE: &str = "";

/// The path dependencies of the manifest `text` of the crate at `dir`: (section, directory).
fn path_dependencies(dir: &Path, text: &str) -> Vec<(String, PathBuf)> {
    let mut section = String::new();
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.to_string();
            continue;
        }
        let dependencies = section.ends_with("dependencies");
        let Some(at) = line.find("path = \"").filter(|_| dependencies) else {
            continue;
        };
        let rest = &line[at + "path = \"".len()..];
        let path = &rest[..rest.find('"').unwrap_or(rest.len())];
        found.push((section.clone(), normalise(&dir.join(path))));
    }
    found
}

/// `path` with its `..` and `.` resolved, without touching the file system.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn floor_of(dir: &str) -> Option<u8> {
    FLOORS.iter().find(|(d, _)| *d == dir).map(|&(_, f)| f)
}

/// Every dependency that breaks the floors, as a sentence.
fn violations(crates: &[(&str, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (dir, text) in crates {
        let Some(floor) = floor_of(dir) else {
            out.push(format!(
                "{dir}: a crate with no floor in FLOORS (and ARCHITECTURE.md)"
            ));
            continue;
        };
        for (section, dep) in path_dependencies(Path::new(dir), text) {
            let dep = dep.to_string_lossy().replace('\\', "/");
            let shown = if dep.is_empty() {
                "the root crate"
            } else {
                &dep
            };
            let Some(dep_floor) = floor_of(&dep) else {
                out.push(format!("{dir}: [{section}] {shown} is no crate of FLOORS"));
                continue;
            };
            let dev = section.ends_with("dev-dependencies") && *dir == DEV_ABOVE;
            if dep == "xtask" || (dep_floor >= floor && !dev) {
                out.push(format!(
                    "{dir} (floor {floor}): [{section}] {shown} (floor {dep_floor}) is not below it"
                ));
            }
        }
    }
    out
}

#[test]
fn floors_hold() {
    let root = root();
    let crates: Vec<(&str, String)> = FLOORS
        .iter()
        .map(|&(dir, _)| {
            let manifest = root.join(dir).join("Cargo.toml");
            let text = std::fs::read_to_string(&manifest)
                .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
            (dir, text)
        })
        .collect();
    let bad = violations(&crates);
    assert!(
        bad.is_empty(),
        "ARCHITECTURE.md, Floors:\n{}",
        bad.join("\n")
    );
}

#[test]
fn a_dependency_on_a_crate_above_is_refused() {
    let harness = "[dependencies]\nx = { path = \"../reports\" }\n[dev-dependencies]\n\
                   y = { path = \"../test-rng\" }\n";
    let root = "[dependencies]\nv = { path = \"vocab\" }\n[dev-dependencies]\n\
                h = { path = \"harness\" }\nx = { path = \"xtask\" }\n";
    let cases = "[dependencies]\nd = { path = \"../deep\", package = \"d\" }\n";
    let bad = violations(&[
        ("harness", harness.into()),
        ("", root.into()),
        ("cases", cases.into()),
    ]);
    assert_eq!(
        bad,
        [
            "harness (floor 3): [dependencies] reports (floor 4) is not below it",
            " (floor 2): [dev-dependencies] xtask (floor 5) is not below it",
            "cases (floor 4): [dependencies] deep (floor 4) is not below it",
        ]
    );
}

/// No crate names a file of another: such a path works only in a checkout, and is a
/// dependency no manifest shows.
#[test]
fn no_crate_names_a_file_of_another() {
    let (root, mut offenders) = (root(), Vec::new());
    let files = tracked_files(&root);
    let rust = |f: &&PathBuf| f.extension().is_some_and(|e| e == "rs");
    for file in files.iter().filter(rust) {
        let rel = file.strip_prefix(&root).unwrap_or(file).to_string_lossy();
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let found = paths_into_other_crates(&rel.replace('\\', "/"), &text);
        offenders.extend(found.into_iter().map(|p| format!("{rel} names {p}")));
    }
    assert!(files.len() > 100, "only {} files tracked", files.len());
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

/// The paths in `text`, of file `rel`, into another crate's directory: its `src`, `tests/`,
/// `build.rs` or manifest by name, or any `../<crate>`. The xtask's chores run in a checkout
/// and may; the root crate's files are named as each crate names its own, so go unseen.
fn paths_into_other_crates(rel: &str, text: &str) -> Vec<String> {
    let inside = |f: &&(&str, u8)| rel.starts_with(&format!("{}/", f.0));
    let own = FLOORS.iter().find(inside).map_or("", |f| f.0);
    let mut needles = Vec::new();
    for (dir, _) in FLOORS.iter().filter(|f| f.0 != own && !f.0.is_empty()) {
        for file in ["src", "tests/", "build.rs", "Cargo.toml"] {
            needles.extend([format!("\"{dir}/{file}"), format!("/{dir}/{file}")]);
        }
        needles.extend([format!("../{dir}\""), format!("../{dir}/")]);
    }
    needles.retain(|n| own != "xtask" && text.contains(n.as_str()));
    needles
}

#[test]
fn a_path_into_another_crate_is_found_and_a_trial_name_is_not() {
    let text = r#"("deep/src/x.rs", "deep/opset13/c", "src/lib.rs", "../../xtask")"#;
    let found = paths_into_other_crates("harness/src/a.rs", text);
    assert_eq!(found, ["\"deep/src", "../xtask\""]);
    assert!(paths_into_other_crates("deep/build.rs", r#""deep/src", "../deep/""#).is_empty());
    assert!(paths_into_other_crates("xtask/src/a.rs", text).is_empty());
}

/// The xtask's size bound: above it, product logic has crept back in (ARCHITECTURE.md, the
/// `xtask/` entry).
const XTASK_MAX_LINES: usize = 4000;

#[test]
fn the_xtask_stays_a_set_of_thin_commands() {
    let dir = root().join("xtask/src");
    let lines: usize = walkdir::WalkDir::new(&dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| std::fs::read_to_string(e.path()).map_or(0, |t| t.lines().count()))
        .sum();
    assert!(
        lines <= XTASK_MAX_LINES,
        "xtask/src holds {lines} lines of Rust, at most {XTASK_MAX_LINES}: move the logic into a \
         library crate and leave the task its command line and printing"
    );
}

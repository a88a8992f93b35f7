//! Guards on the repository's own text: it must explain itself. Every bit-level rule is cited as
//! `docs/semantics.md §N.M`; no tracked file may point at a note outside the repository (a fresh
//! clone could not check it), every cited section must exist, and every repository path that
//! README.md, ARCHITECTURE.md and docs/*.md write in backticks must exist.

use crate::testkit::repo::{root, tracked_files};
use std::collections::BTreeSet;
use std::path::Path;

/// Byte strings that point outside the repository, split in two so this file does not match.
const FORBIDDEN: [[&str; 2]; 3] = [
    ["../sha", "red"],
    ["sha", "red/spec"],
    ["onnx-cast-", "concat.md"],
];

/// How a citation of the semantics page starts.
const CITATION: &str = "semantics.md §";

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Section numbers (`3`, `3.2`) that `docs/semantics.md` defines as headings.
fn sections(page: &str) -> Vec<String> {
    page.lines()
        .filter_map(|line| line.strip_prefix("## ").or(line.strip_prefix("### ")))
        .filter_map(|title| title.split_whitespace().next())
        .map(|number| number.trim_end_matches('.').to_string())
        .collect()
}

/// The section numbers cited in `text`; a placeholder such as `§N.M` (no digits) is no citation.
fn citations(text: &str) -> Vec<String> {
    text.match_indices(CITATION)
        .map(|(at, _)| {
            let rest = &text[at + CITATION.len()..];
            let number: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            number.trim_end_matches('.').to_string()
        })
        .filter(|number| !number.is_empty())
        .collect()
}

#[test]
fn no_tracked_file_points_outside_the_repository() {
    let root = root();
    let files = tracked_files(&root);
    let mut offenders = Vec::new();
    let mut read = 0;
    for file in &files {
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        read += 1;
        for [a, b] in FORBIDDEN {
            if contains(&bytes, format!("{a}{b}").as_bytes()) {
                offenders.push(format!("{} contains {a}{b}", file.display()));
            }
        }
    }
    // A listing that found almost nothing would make the guard pass without looking.
    assert!(
        read > 100,
        "only {read} files scanned under {}",
        root.display()
    );
    assert!(
        offenders.is_empty(),
        "cite docs/semantics.md instead:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn every_cited_section_exists() {
    let root = root();
    let page = std::fs::read_to_string(root.join("docs/semantics.md"))
        .expect("docs/semantics.md is part of the repository");
    let defined = sections(&page);
    for number in ["0", "3", "3.2", "3.10", "8"] {
        assert!(
            defined.iter().any(|d| d == number),
            "§{number} heading not found"
        );
    }
    let mut cited = 0;
    let mut missing = Vec::new();
    for file in tracked_files(&root) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for number in citations(&text) {
            cited += 1;
            if !defined.contains(&number) {
                missing.push(format!("{}: §{number}", file.display()));
            }
        }
    }
    assert!(cited > 50, "only {cited} citations found");
    assert!(
        missing.is_empty(),
        "cited sections missing from docs/semantics.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn citations_and_sections_parse() {
    assert_eq!(
        citations("see docs/semantics.md §3.2, docs/semantics.md §N.M and docs/semantics.md §6."),
        ["3.2", "6"]
    );
    assert_eq!(
        sections("# t\n## 3. Conversions\n### 3.10 Other\n#### x"),
        ["3", "3.10"]
    );
}

/// Paths in the checked pages that name files of other repositories or examples, not files of
/// this one, with why.
const ELSEWHERE: [(&str, &str); 5] = [
    (
        "src/model/onnx_loader.rs",
        "rten's repository (docs/backends.md: where rten declares its narrowing)",
    ),
    (
        "tests/external/iree-test-suites/onnx_ops/onnx_ops_cpu_llvm_sync.json",
        "iree-org/iree (docs/backends.md: IREE's own expected failures)",
    ),
    (
        "docs/Operators.md",
        "onnx's repository (docs/semantics.md's sources)",
    ),
    (
        "docs/Changelog.md",
        "onnx's repository (docs/semantics.md's sources)",
    ),
    (
        "tests/known-failures/myrt.json",
        "docs/backends.md: the list of an example worker label",
    ),
];

/// The backticked spans of a Markdown page, fenced code blocks left out, that look like
/// repository paths: no white space, a `/`, a last component with an extension or a trailing
/// `/`, no URL, no placeholder (`<`, `*`, `{`), and a first component that is one of
/// `top` (the repository's top-level directories). The last rule leaves out paths relative to
/// a crate's `src/` (`formats/fast/map.rs` in a sentence about `src/`), other repositories'
/// paths (`onnx/backend/base.py`) and generated ones (`target/`, which is never tracked).
fn path_spans(page: &str, top: &BTreeSet<String>) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, span) in line.split('`').enumerate() {
            if i % 2 == 0 || !looks_like_a_path(span) {
                continue;
            }
            let first = span.split('/').next().unwrap_or_default();
            if top.contains(first) {
                found.push(span.to_string());
            }
        }
    }
    found
}

/// Whether a backticked span looks like a path (see [`path_spans`]).
fn looks_like_a_path(span: &str) -> bool {
    if span.is_empty()
        || span.chars().any(char::is_whitespace)
        || !span.contains('/')
        || span.contains("://")
        || span.contains(['<', '*', '{'])
        || span.starts_with("target/")
    {
        return false;
    }
    let last = span.rsplit('/').next().unwrap_or_default();
    let extension = last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && !ext.is_empty() && ext.chars().all(|c| c.is_ascii_alphanumeric())
    });
    span.ends_with('/') || extension
}

/// The top-level directories of the tracked files, as `harness` or `.cargo`.
fn top_level_dirs(root: &Path, files: &[std::path::PathBuf]) -> BTreeSet<String> {
    files
        .iter()
        .filter_map(|f| f.strip_prefix(root).ok())
        .filter(|rel| rel.components().count() > 1)
        .filter_map(|rel| rel.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn every_backticked_repository_path_exists() {
    let root = root();
    let files = tracked_files(&root);
    let top = top_level_dirs(&root, &files);
    assert!(
        ["src", "harness", "xtask", "docs"]
            .iter()
            .all(|d| top.contains(*d)),
        "top-level directories: {top:?}"
    );
    let mut pages: Vec<std::path::PathBuf> = files
        .iter()
        .filter(|f| {
            let rel = f.strip_prefix(&root).unwrap_or(f);
            rel == Path::new("README.md")
                || rel == Path::new("ARCHITECTURE.md")
                || (rel.parent() == Some(Path::new("docs"))
                    && rel.extension().is_some_and(|e| e == "md"))
        })
        .cloned()
        .collect();
    pages.sort();
    assert!(pages.len() > 10, "only {} pages: {pages:?}", pages.len());
    let mut checked = 0;
    let mut missing = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("a tracked page reads");
        for path in path_spans(&text, &top) {
            if ELSEWHERE.iter().any(|(p, _)| *p == path) {
                continue;
            }
            checked += 1;
            if !root.join(&path).exists() {
                missing.push(format!(
                    "{}: `{path}`",
                    page.strip_prefix(&root).unwrap_or(page).display()
                ));
            }
        }
    }
    // A parser that found almost nothing would make the guard pass without looking.
    assert!(checked > 100, "only {checked} paths checked");
    assert!(
        missing.is_empty(),
        "backticked paths that do not exist in the repository (fix the page, or list a path \
         of another repository in ELSEWHERE with why):\n{}",
        missing.join("\n")
    );
}

#[test]
fn path_spans_are_repository_paths_only() {
    let top: BTreeSet<String> = ["src", "harness", "docs", ".ci"].map(String::from).into();
    let page = "\
`harness/src/report/` and `src/ops/concat.rs`, `.ci/run` (no extension), `docs/a.md`.
`formats/fast/map.rs` (relative), `onnx/backend/base.py`, `target/debug/x.rs`,
`harness/src/read*`, `docs/<page>.md`, `src/{a,b}.rs`, `https://x.org/a/b.md`,
`cargo test --workspace`, `src/lib` (no extension), `src/.md`, `Cargo.toml`.
```sh
cat `docs/in-a-fence.md`
```
`docs/after-the-fence.md`
";
    assert_eq!(
        path_spans(page, &top),
        [
            "harness/src/report/",
            "src/ops/concat.rs",
            "docs/a.md",
            "docs/after-the-fence.md"
        ]
    );
}

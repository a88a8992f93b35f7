//! Guards on the repository's own text: it must explain itself. Every bit-level rule is cited as
//! `docs/semantics.md §N.M`; no tracked file may point at a note outside the repository (a fresh
//! clone could not check it), and every cited section must exist.

use crate::testkit::repo::{root, tracked_files};

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

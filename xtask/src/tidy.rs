//! Guards on the shape of the source: ARCHITECTURE.md's test-placement rule. A module's unit
//! tests sit in a file of their own (`#[cfg(test)] mod tests;` and `<module>/tests.rs`), so
//! an inline test module is refused wherever it appears in a tracked `.rs` file.

use crate::testkit::repo::{root, tracked_files};

/// What a refused line is told.
const RULE: &str = "unit tests go in a file of their own: end the module with \
                    `#[cfg(test)] mod tests;` and put them in `<module>/tests.rs` \
                    (ARCHITECTURE.md, Invariants)";

/// `mod NAME {` after an optional visibility, with the name it declares.
fn inline_module(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for visibility in ["pub(crate) ", "pub(super) ", "pub "] {
        if let Some(after) = rest.strip_prefix(visibility) {
            rest = after;
            break;
        }
    }
    let rest = rest.strip_prefix("mod ")?;
    let name_len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(name_len);
    (!name.is_empty() && after.trim_start().starts_with('{')).then_some(name)
}

/// The 1-based line numbers of `source` that open an inline test module: any inline
/// `mod tests`, and any inline module whose attributes include `#[cfg(test)]`.
fn inline_test_modules(source: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut under_cfg_test = false;
    for (index, line) in source.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with("#[") {
            under_cfg_test |= trimmed.starts_with("#[cfg(test)]");
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        if let Some(name) = inline_module(line) {
            if name == "tests" || under_cfg_test {
                found.push(index + 1);
            }
        }
        under_cfg_test = false;
    }
    found
}

#[test]
fn no_tracked_source_has_an_inline_test_module() {
    let root = root();
    let mut scanned = 0;
    let mut offenders = Vec::new();
    for file in tracked_files(&root) {
        if file.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let Ok(source) = std::fs::read_to_string(&file) else {
            continue;
        };
        scanned += 1;
        let shown = file.strip_prefix(&root).unwrap_or(&file).display();
        for line in inline_test_modules(&source) {
            offenders.push(format!("{shown}:{line}: inline test module"));
        }
    }
    // A listing that found almost nothing would make the guard pass without looking.
    assert!(scanned > 100, "only {scanned} .rs files scanned");
    assert!(offenders.is_empty(), "{RULE}:\n{}", offenders.join("\n"));
}

#[test]
fn the_checker_finds_planted_inline_test_modules() {
    // Written with `concat!` so that this file holds no line the guard refuses.
    let planted = concat!(
        "fn f() {}\n",
        "\n",
        "#[cfg(test)]\n",
        "mod tests",
        " {\n",
        "    use super::*;\n",
        "}\n",
        "#[cfg(test)]\n",
        "#[allow(dead_code)]\n",
        "pub(crate) mod checks",
        " {}\n",
        "pub mod tests",
        "{ }\n",
    );
    assert_eq!(inline_test_modules(planted), [4, 9, 10]);
}

#[test]
fn the_checker_accepts_test_files_and_other_modules() {
    let fine = concat!(
        "#[cfg(test)]\n",
        "mod tests;\n",
        "mod inner",
        " {\n",
        "}\n",
        "#[cfg(feature = \"full\")]\n",
        "mod report;\n",
        "// mod tests",
        " { in a comment\n",
        "fn module_tests() {}\n",
    );
    assert_eq!(inline_test_modules(fine), Vec::<usize>::new());
}

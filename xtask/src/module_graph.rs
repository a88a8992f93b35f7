//! Guard: the child modules of each directory in `LAYERED` (a crate's root, or a module's
//! directory) import each other in layers, never in a circle, so that each can be read and
//! moved alone. Imports are the `crate::` paths to a sibling, and a direct child's `super::`
//! ones, outside comments and tests; a re-export is an import.

use crate::testkit::repo::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The module directories whose child modules must form no circle: the directory, its module
/// path (empty for a crate's root) and the fewest children it holds (fewer means the scan
/// looks in the wrong place).
const LAYERED: [(&str, &str, usize); 4] = [
    ("harness/src", "", 10),
    ("deep/src", "", 6),
    ("deep/src/findings", "findings", 6),
    ("deep/src/generate", "generate", 6),
];

/// Each child module of the module `module` whose directory is `src` (a crate's root when
/// `module` is empty) and the children of the same parent it imports.
fn imports(src: &Path, module: &str) -> Graph {
    let own = match module {
        "" => "crate::".to_string(),
        m => format!("crate::{m}::"),
    };
    let mut graph = Graph::new();
    for entry in walkdir::WalkDir::new(src).into_iter().flatten() {
        let rel = entry.path().strip_prefix(src).expect("below src");
        let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let test = ["tests.rs", "testkit.rs", "for_test.rs"].contains(&name)
            || rel.components().any(|c| c.as_os_str() == "tests");
        if !name.ends_with(".rs") || test {
            continue;
        }
        let top = rel.components().next().expect("a component").as_os_str();
        let child = top.to_string_lossy().trim_end_matches(".rs").to_string();
        let depth = rel.components().count();
        let roots: &[&str] = match depth == 1 || (depth == 2 && name == "mod.rs") {
            true => &[&own, "super::"],
            false => &[&own],
        };
        let text = std::fs::read_to_string(entry.path()).expect("readable source");
        let edges = graph.entry(child.clone()).or_default();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for root in roots {
                for (at, _) in line.match_indices(root) {
                    edges.extend(targets(&line[at + root.len()..]).filter(|t| *t != child));
                }
            }
        }
    }
    graph
}

/// The modules a path after `crate::` names: `report::X` names `report`; a group
/// `{known, report::X}`, each of its items.
fn targets(rest: &str) -> impl Iterator<Item = String> + '_ {
    let items: Vec<&str> = match rest.strip_prefix('{') {
        Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
        None => vec![rest],
    };
    items
        .into_iter()
        .map(|s| {
            let ident = |c: &char| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_';
            s.trim_start().chars().take_while(ident).collect::<String>()
        })
        .filter(|t| !t.is_empty() && t != "self")
}

/// A circle of `graph`, as the modules along it, if there is one (depth first).
fn circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        g: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == at) {
            return Some(path[start..].to_vec());
        }
        if !done.insert(at.to_string()) {
            return None;
        }
        path.push(at.to_string());
        let found = g
            .get(at)
            .into_iter()
            .flatten()
            .find_map(|n| visit(n, g, path, done));
        path.pop();
        found
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

#[test]
fn library_modules_import_each_other_in_layers() {
    for (src, module, fewest) in LAYERED {
        let graph = imports(&root().join(src), module);
        assert!(
            graph.len() >= fewest,
            "{src}: only {} modules found",
            graph.len()
        );
        if let Some(found) = circle(&graph) {
            panic!(
                "{src}: modules import each other in a circle: {}",
                found.join(" -> ")
            );
        }
    }
}

#[test]
fn a_circle_is_found_and_layers_are_not() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g = Graph::new();
        edges
            .iter()
            .for_each(|(a, b)| _ = g.entry(a.to_string()).or_default().insert(b.to_string()));
        g
    };
    assert_eq!(
        circle(&graph(&[("run", "rep"), ("rep", "out"), ("run", "out")])),
        None
    );
    let ring = circle(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("x", "a")])).expect("a ring");
    assert_eq!(ring, ["a", "b", "c"]);
    assert_eq!(
        targets("{known, report::X, self}; x").collect::<Vec<_>>(),
        ["known", "report"]
    );
}

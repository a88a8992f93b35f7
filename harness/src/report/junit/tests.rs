//! The JUnit file read back by a strict XML 1.0 parser (roxmltree: it refuses what is not
//! well-formed, characters XML forbids included), on a report with every outcome and failure
//! kind and messages full of markup and control characters.

use super::*;
use crate::outcome::{BackendInfo, FailureKind};
use crate::provenance::{RunInfo, Runner, Source};
use crate::report::FORMAT;
use crate::testkit::record;

/// Markup, quotes, whitespace an attribute would normalise, `]]>`, non-ASCII, and characters
/// XML 1.0 forbids (NUL, ESC, U+FFFF), as a runtime's stderr can hold them.
const HOSTILE: &str =
    "bad <dtype> & \"shape\" 'x' ]]> é😀\tcol\r\nline 2 \u{0}nul \u{1b}[31mred\u{1b}[0m \u{ffff}";

/// [`HOSTILE`] as the file must carry it: written by hand from the XML 1.0 `Char` rule, each
/// forbidden character spelled out.
const HOSTILE_READ: &str =
    "bad <dtype> & \"shape\" 'x' ]]> é😀\tcol\r\nline 2 \\u{0}nul \\u{1b}[31mred\\u{1b}[0m \\u{ffff}";

fn failing(case: &str, kind: FailureKind, message: &str) -> TrialRecord {
    record("1.22.0", 25, case, "Cast", Outcome::Fail)
        .with_kind(Some(kind))
        .with_message(message)
}

/// Every outcome, every failure kind, a setup check, and a hostile case name and message.
fn every_outcome() -> Report {
    let mut trials = vec![record("1.22.0", 25, "test_cast_ok", "Cast", Outcome::Pass)];
    for kind in FailureKind::ALL {
        trials.push(failing(
            &format!("test_cast_{kind}"),
            kind,
            &format!("{kind} happened\nsecond line"),
        ));
    }
    trials.push(failing("test_cast_<A&B>", FailureKind::Error, HOSTILE));
    let mut known = record(
        "1.4.1",
        9,
        "test_cast_FLOAT_to_STRING",
        "Cast",
        Outcome::KnownFailure,
    );
    known.message = Some("known failure (mismatch): corrupt strings\nthe details".into());
    trials.push(known);
    let mut data = record(
        "1.4.1",
        9,
        "test_cast_STRING_to_FLOAT",
        "Cast",
        Outcome::DataProblem,
    );
    data.message = Some("upstream data problem: corrupt strings".into());
    trials.push(data);
    let mut predates = record(
        "1.22.0",
        25,
        "test_cast_BFLOAT16_to_FLOAT",
        "Cast",
        Outcome::Predates,
    );
    predates.failure_kind = Some(FailureKind::Predates);
    predates.message = Some(
        "runtime predates the case, as listed (older runtime): IR 13 at most\n\
         backend old: runtime predates opset 25 (it supports at most 24)"
            .into(),
    );
    trials.push(predates);
    let mut unexpected = record("own", 13, "test_mine", "Concat", Outcome::UnexpectedPass);
    unexpected.message = Some("unexpectedly passed, remove it".into());
    trials.push(unexpected);
    let mut guard = record("x", 1, "y", "Cast", Outcome::Fail);
    guard.name = "onnx-backend-data/incomplete".into();
    (guard.release, guard.case, guard.opset) = (None, None, None);
    guard.failure_kind = None;
    guard.message = Some("the data is incomplete".into());
    trials.push(guard);
    Report {
        format: FORMAT,
        strict: false,
        data: "/d".into(),
        backend: BackendInfo {
            name: "worker:my <rt>".into(),
            runtime: "rt".into(),
            version: "1.2 \"beta\"\n\tbuild 7".into(),
        },
        run: Some(RunInfo {
            started: "2026-11-24T21:00:00Z".into(),
            commit: Some("abc123".into()),
            data_lock_sha256: Some("feedbeef".into()),
            source: Source::Official,
            deep_tree: None,
            runner: Runner::Libtest,
            filters: vec![],
            listed: 10,
            ran: 10,
            complete: true,
            configuration: None,
        }),
        known_failures: None,
        trials,
    }
}

fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, tag: &str) -> Option<roxmltree::Node<'a, 'i>> {
    node.children().find(|n| n.has_tag_name(tag))
}

fn count_attr(node: roxmltree::Node<'_, '_>, name: &str) -> usize {
    node.attribute(name)
        .unwrap_or_else(|| panic!("{name} missing"))
        .parse()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_parser_refuses_what_xml_forbids() {
    // The structural test below is only as strict as its parser: it must refuse a raw control
    // character and unescaped markup.
    for bad in [
        "<a>\u{1}</a>",
        "<a x=\"\u{1b}\"/>",
        "<a>&</a>",
        "<a x=\"<\"/>",
    ] {
        assert!(roxmltree::Document::parse(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn every_trial_is_a_testcase_with_its_outcome() {
    let mut report = every_outcome();
    report.trials[0].duration_ms = 1500.0;
    let xml = render(&report);
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let root = doc.root_element();
    assert!(root.has_tag_name("testsuites"), "{xml}");
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    assert_eq!(suites.len(), 1, "{xml}");
    let suite = suites[0];
    assert!(suite.has_tag_name("testsuite"));
    assert_eq!(
        suite.attribute("name"),
        Some("onnx-conformance worker:my <rt>")
    );
    let cases: Vec<_> = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), report.trials.len());

    // Counts on both levels agree with the elements: 6 kinds + hostile + unexpected + guard
    // fail; the known failure, the data problem and the listed predated case are skipped.
    let failures = cases
        .iter()
        .filter(|c| child(**c, "failure").is_some())
        .count();
    let skipped = cases
        .iter()
        .filter(|c| child(**c, "skipped").is_some())
        .count();
    assert_eq!((failures, skipped), (9, 3));
    for node in [root, suite] {
        // Seconds: the 1.5 s trial and nine of 0.1 ms.
        assert_eq!(node.attribute("time"), Some("1.501"));
        assert_eq!(count_attr(node, "tests"), cases.len());
        assert_eq!(count_attr(node, "failures"), failures);
        assert_eq!(count_attr(node, "skipped"), skipped);
        assert_eq!(count_attr(node, "errors"), 0);
    }

    let props: Vec<(&str, &str)> = child(suite, "properties")
        .expect("properties")
        .children()
        .filter(|n| n.is_element())
        .map(|p| (p.attribute("name").unwrap(), p.attribute("value").unwrap()))
        .collect();
    for want in [
        ("backend.name", "worker:my <rt>"),
        ("backend.version", "1.2 \"beta\"\n\tbuild 7"),
        ("data_lock_sha256", "feedbeef"),
        ("commit", "abc123"),
    ] {
        assert!(props.contains(&want), "{want:?} not in {props:?}");
    }

    let at = |class: &str, name: &str| {
        *cases
            .iter()
            .find(|c| c.attribute("classname") == Some(class) && c.attribute("name") == Some(name))
            .unwrap_or_else(|| panic!("no testcase {class} {name}\n{xml}"))
    };
    let ok = at("onnx-1.22.0/opset25", "test_cast_ok");
    assert_eq!(ok.attribute("time"), Some("1.500000"));
    assert_eq!(ok.children().filter(|n| n.is_element()).count(), 0);
    for kind in FailureKind::ALL {
        let failure = child(
            at("onnx-1.22.0/opset25", &format!("test_cast_{kind}")),
            "failure",
        )
        .unwrap_or_else(|| panic!("{kind}: no failure"));
        assert_eq!(failure.attribute("type"), Some(kind.label()));
        assert_eq!(
            failure.attribute("message"),
            Some(&*format!("{kind} happened"))
        );
        assert_eq!(
            failure.text(),
            Some(&*format!("{kind} happened\nsecond line"))
        );
    }

    // Text stays readable in the file: quotes, tabs and line feeds as they are.
    assert!(
        xml.contains("&amp; \"shape\" 'x' ]]&gt; é😀\tcol&#13;\nline 2"),
        "{xml}"
    );
    assert!(
        xml.contains("mismatch happened\nsecond line</failure>"),
        "{xml}"
    );

    let hostile = child(at("onnx-1.22.0/opset25", "test_cast_<A&B>"), "failure").expect("failure");
    assert_eq!(hostile.text(), Some(HOSTILE_READ), "{xml}");
    // The first line, without its CR LF; the tab kept (a character reference in the file).
    let first_line = "bad <dtype> & \"shape\" 'x' ]]> é😀\tcol";
    assert_eq!(hostile.attribute("message"), Some(first_line));

    let known = child(
        at("onnx-1.4.1/opset9", "test_cast_FLOAT_to_STRING"),
        "skipped",
    )
    .expect("skipped");
    assert_eq!(
        known.attribute("message"),
        Some("known failure (mismatch): corrupt strings")
    );
    assert_eq!(
        known.text(),
        Some("known failure (mismatch): corrupt strings\nthe details")
    );

    // A case the runtime predates, as its list expects: skipped, like a known failure.
    let predates = at("onnx-1.22.0/opset25", "test_cast_BFLOAT16_to_FLOAT");
    assert!(child(predates, "failure").is_none(), "{xml}");
    let skipped = child(predates, "skipped").expect("skipped");
    assert_eq!(
        skipped.attribute("message"),
        Some("runtime predates the case, as listed (older runtime): IR 13 at most")
    );

    let unexpected = child(at("onnx-own/opset13", "test_mine"), "failure").expect("failure");
    assert_eq!(unexpected.attribute("type"), Some("unexpected-pass"));

    let guard = child(at("setup", "onnx-backend-data/incomplete"), "failure").expect("failure");
    assert_eq!(guard.attribute("type"), Some("fail"));
    assert_eq!(guard.text(), Some("the data is incomplete"));
}

#[test]
fn a_long_first_line_is_cut_in_the_attribute_only() {
    let long = "é".repeat(MESSAGE_ATTR_CHARS + 5);
    let mut report = every_outcome();
    report.trials = vec![failing("test_cast_long", FailureKind::Mismatch, &long)];
    let xml = render(&report);
    let doc = roxmltree::Document::parse(&xml).expect("parse");
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    let cut = failure.attribute("message").unwrap();
    assert_eq!(cut.chars().count(), MESSAGE_ATTR_CHARS + 1);
    assert!(cut.ends_with('…'));
    assert_eq!(failure.text(), Some(&*long));
}

#[test]
fn xml_char_follows_the_xml_1_0_char_production() {
    // Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
    for ok in [
        '\t',
        '\n',
        '\r',
        ' ',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFD}',
        '\u{10000}',
        '\u{10FFFF}',
    ] {
        assert!(xml_char(ok), "{:x}", u32::from(ok));
    }
    for bad in [
        '\u{0}', '\u{8}', '\u{B}', '\u{C}', '\u{E}', '\u{1F}', '\u{FFFE}', '\u{FFFF}',
    ] {
        assert!(!xml_char(bad), "{:x}", u32::from(bad));
    }
}

//! Report rendering on a small hand-made set of trial records.

use super::*;
use crate::report::JSON_FILE;
use crate::testkit::{record, scratch};

fn sample() -> Report {
    let mut trials = vec![
        record(
            "1.14.1",
            19,
            "test_castlike_A_to_B",
            "CastLike",
            Outcome::Pass,
        ),
        record(
            "1.14.1",
            19,
            "test_castlike_A_to_B_expanded",
            "CastLike",
            Outcome::Fail,
        ),
        record("1.15.0", 19, "test_cast_C", "Cast", Outcome::Pass),
        record(
            "1.4.1",
            9,
            "test_cast_FLOAT_to_STRING",
            "Cast",
            Outcome::KnownFailure,
        ),
        record("1.12.0", 13, "test_cast_C", "Cast", Outcome::Pass),
    ];
    let mut guard = record("x", 1, "y", "Cast", Outcome::Fail);
    guard.name = "onnx-backend-data/incomplete".into();
    (
        guard.release,
        guard.case,
        guard.op_type,
        guard.op_version,
        guard.opset,
    ) = (None, None, None, None, None);
    trials.push(guard);
    Report {
        format: FORMAT,
        strict: false,
        data: "/d".into(),
        run: None,
        backend: Default::default(),
        known_failures: None,
        trials,
    }
}

#[test]
fn markdown_tables_count_by_opset_release_and_version() {
    let md = md::render(&sample());
    assert!(
        md.contains("- trials: 6 total, 3 passed, 2 failed, 1 known failures"),
        "{md}"
    );
    assert!(
        md.contains("| opset19 | CastLike | 2 | 1 | 1 | 0 |"),
        "{md}"
    );
    assert!(md.contains("| opset9 | Cast | 1 | 0 | 0 | 1 |"));
    assert!(md.contains("| - | - | 1 | 0 | 1 | 0 |"));
    // Releases sort as versions: 1.4.1 before 1.12.0.
    let (a, b) = (md.find("| 1.4.1 |"), md.find("| 1.12.0 |"));
    assert!(a.is_some() && a < b, "{md}");
    assert!(md.contains("| Cast-13 | 2 | 1 | 0 | 1 |"), "{md}");
    assert!(md.contains("## Failures (2)"));
    assert!(md.contains("- `onnx-1.14.1/opset19/test_castlike_A_to_B_expanded` (fail): output 0"));
    assert!(md.contains("## Known failures (1)"));
}

#[test]
fn html_folds_expanded_twins_and_colours_the_worst_outcome() {
    let html = html::render(&sample());
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("src="));
    assert!(!html.contains("test_castlike_A_to_B_expanded</td>"));
    let row = html
        .find("<td class=\"name\">test_castlike_A_to_B</td>")
        .expect("folded row");
    let rest = &html[row..];
    let fail_cell = rest.find("class=\"c fail\"").expect("fail cell");
    assert!(fail_cell < rest.find("</tr>").unwrap_or(0));
    // The failing cell links to the failing trial's message block.
    let target = "t-onnx-1.14.1-opset19-test_castlike_A_to_B_expanded";
    assert!(
        rest.contains(&format!("<a href=\"#{target}\">1/2</a></td>")),
        "{rest}"
    );
    assert!(html.contains(&format!("id=\"{target}\"")));
    assert!(html.contains("class=\"c known\""));
    assert!(html.contains("&lt;differ&gt;"));
    assert!(html.contains("<h2>Run checks</h2>"));
    assert!(
        html.contains("<h2 id=\"failures\">Failures (1)</h2>"),
        "{html}"
    );
    assert!(html.contains("<h2 id=\"known-failures\">Known failures (1)</h2>"));
    assert!(
        html.contains("<a href=\"#failures\">2 failed</a>"),
        "{html}"
    );
    let header = ">9</th><th title=\"model opset 13\">13</th><th title=\"model opset 19\">19</th>";
    assert!(html.contains(header), "{html}");
}

#[test]
fn html_has_a_legend_operator_sections_and_totals() {
    let html = html::render(&sample());
    for class in ["pass", "known", "fail", "none"] {
        assert!(
            html.contains(&format!("<span class=\"key {class}\">")),
            "{class}"
        );
    }
    let cast = html.find("<tr class=\"sec\"><th colspan=\"5\">Cast</th></tr>");
    let castlike = html.find("<tr class=\"sec\"><th colspan=\"5\">CastLike</th></tr>");
    assert!(cast.is_some() && cast < castlike, "{html}");
    // Row test_cast_C: opset 13 and 19 pass, so the row total is 2/2.
    let row = html.find(">test_cast_C</td>").expect("row");
    let end = row + html[row..].find("</tr>").expect("row end");
    let total = "<td class=\"c all pass\" title=\"test_cast_C: 2 trials, 2 passed, 0 failed, \
                 0 known failures\">2/2</td>";
    assert!(html[row..end].ends_with(total), "{}", &html[row..end]);
    // Bottom row: every case trial, worst outcome fail, linked to the failure and naming the
    // trials that did not pass.
    let bottom = "<td class=\"c all fail\" title=\"all trials: 5 trials, 3 passed, 1 failed, 1 known \
                  failures\nonnx-1.14.1/opset19/test_castlike_A_to_B_expanded: fail\n\
                  onnx-1.4.1/opset9/test_cast_FLOAT_to_STRING: known-failure\">\
                  <a href=\"#t-onnx-1.14.1-opset19-test_castlike_A_to_B_expanded\">3/5</a></td></tr></table>";
    assert!(html.contains(bottom), "{html}");
    // The opset 9 column total links to the known failure.
    assert!(
        html.contains("<a href=\"#t-onnx-1.4.1-opset9-test_cast_FLOAT_to_STRING\">0/1</a>"),
        "{html}"
    );
}

#[test]
fn html_offers_failing_rows_only_without_scripts() {
    let html = html::render(&sample());
    assert!(!html.contains("<script"));
    assert!(html.contains("<input type=\"checkbox\" id=\"failing-only\">"));
    assert!(html.contains("#failing-only:checked~table tr.ok{display:none}"));
    // A passing row hides, a failing one stays; the Cast section keeps its known failure.
    assert!(html.contains("<tr class=\"ok\"><td class=\"name\">test_cast_C</td>"));
    assert!(html.contains("<tr><td class=\"name\">test_castlike_A_to_B</td>"));
    assert!(html.contains("<tr class=\"sec\"><th colspan=\"5\">Cast</th>"));
}

#[test]
fn tooltips_say_when_they_cut_a_message() {
    let mut report = sample();
    let long = (0..6)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    report.trials[1].message = Some(long);
    let html = html::render(&report);
    assert!(html.contains("line 3 …"), "{html}");
    assert!(!html.contains("line 4 …"));
    report.trials[1].message = Some("x".repeat(1000));
    let html = html::render(&report);
    assert!(html.contains(&format!("{} …", "x".repeat(400))));
}

#[test]
fn reports_show_how_the_run_was_made() {
    use crate::provenance::{RunInfo, Runner, Source};
    let mut report = sample();
    let md = md::render(&report);
    assert!(
        md.contains("- run: how the run was made is not recorded"),
        "{md}"
    );
    report.run = Some(RunInfo {
        started: "2026-11-23T20:00:00Z".into(),
        commit: Some("0123456789abcdef".into()),
        data_lock_sha256: Some("fedcba9876543210".into()),
        source: Source::Official,
        deep_tree: None,
        runner: Runner::Libtest,
        filters: vec!["opset19".into()],
        listed: 1475,
        ran: 140,
        complete: false,
        configuration: None,
    });
    let want = "started 2026-11-23T20:00:00Z, commit 0123456789ab, data lock fedcba987654, \
                data official, filter opset19, 140 of 1475 listed trials ran, not complete";
    assert!(md::render(&report).contains(&format!("- run: {want}")));
    assert!(html::render(&report).contains(&format!("<p class=\"run\">Run: {want}.</p>")));
}

#[test]
fn html_tooltips_list_releases_in_version_order() {
    let mut report = sample();
    report
        .trials
        .push(record("1.9.0", 13, "test_cast_C", "Cast", Outcome::Pass));
    let html = html::render(&report);
    let older = html
        .find("onnx-1.9.0/opset13/test_cast_C: pass")
        .expect("1.9.0");
    let newer = html
        .find("onnx-1.12.0/opset13/test_cast_C: pass")
        .expect("1.12.0");
    assert!(older < newer);
}

#[test]
fn summary_table_lists_each_opset_and_the_total() {
    let row = |label: &str, counts: [usize; 5]| {
        let [total, pass, fail, known, unsupported] = counts;
        format!(
            "\n{label:<8} {total:>6} {pass:>6} {fail:>6} {known:>6} {unsupported:>11}     0        0\n"
        )
    };
    let mut report = sample();
    let text = summary_table(&report);
    assert!(text.contains(&row("9", [1, 0, 0, 1, 0])), "{text}");
    assert!(text.contains(&row("19", [3, 2, 1, 0, 0])), "{text}");
    assert!(text.contains(&row("all", [6, 3, 2, 1, 0])), "{text}");
    // A refusal at load still fails, and is also counted apart.
    let mut refused = record("1.22.0", 19, "test_cast_Z", "Cast", Outcome::Fail);
    refused.failure_kind = Some(crate::outcome::FailureKind::Unsupported);
    report.trials.push(refused);
    let text = summary_table(&report);
    assert!(text.contains(&row("19", [4, 2, 2, 0, 1])), "{text}");
    assert!(
        md::render(&report).contains("1 of the failures and known failures are refusals at load")
    );
}

#[test]
fn reports_round_trip_through_json() {
    let dir_tmp = scratch("report");
    let dir = dir_tmp.path();
    let report = sample();
    write_all(dir, &report).expect("write reports");
    assert_eq!(load(&dir.join(JSON_FILE)).expect("load"), report);
    for file in RENDERED {
        assert!(dir.join(file).is_file(), "{file} not written");
    }
    let junit = std::fs::read_to_string(dir.join("report.junit.xml")).expect("junit");
    assert_eq!(junit, junit::render(&report));
    let text = std::fs::read_to_string(dir.join(JSON_FILE)).expect("json");
    assert!(text.contains("\"outcome\": \"known-failure\""), "{text}");
}

#[test]
fn releases_sort_as_versions_with_other_trees_last() {
    let mut report = sample();
    report
        .trials
        .push(record("own", 13, "test_mine", "Cast", Outcome::Pass));
    let md = md::render(&report);
    let at = |s: &str| md.find(s).unwrap_or(usize::MAX);
    assert!(at("| 1.4.1 |") < at("| 1.12.0 |"));
    assert!(at("| 1.15.0 |") < at("| own |"));
    assert!(at("| own |") < at("| (run checks) |") && at("| (run checks) |") < usize::MAX);
}

#[test]
fn html_keeps_other_trees_apart_after_official_groups() {
    let mut report = sample();
    report
        .trials
        .push(record("own", 13, "test_cast_C", "Cast", Outcome::Pass));
    let html = html::render(&report);
    let official = html.find(">test_cast_C</td>").unwrap_or(usize::MAX);
    let own = html.find(">own/test_cast_C</td>").unwrap_or(usize::MAX);
    assert!(official < own && own < usize::MAX, "{html}");
}

#[test]
fn html_escape_covers_text_and_both_attribute_quotes() {
    assert_eq!(
        page::escape(r#"a<b>&"c"'d'é"#),
        "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;é"
    );
    assert_eq!(page::escape("&amp;"), "&amp;amp;");
}

/// Both reports are titled with the runtime and version judged, and the HTML legend and the
/// Markdown header name the known-failures list the run used.
#[test]
fn reports_name_the_backend_and_the_list() {
    let mut report = sample();
    report.backend = BackendInfo {
        name: "onnxruntime".into(),
        runtime: "onnxruntime".into(),
        version: "1.32.0".into(),
    };
    report.known_failures = Some("tests/known-failures/onnxruntime.json".into());
    let html = html::render(&report);
    assert!(html.contains("<title>ONNX conformance: onnxruntime 1.32.0</title>"));
    assert!(html.contains("<h1>ONNX conformance: onnxruntime 1.32.0</h1>"));
    assert!(html.contains("listed in <code>tests/known-failures/onnxruntime.json</code>"));
    assert!(!html.contains("tests/known-failures.json"));
    let md = md::render(&report);
    assert!(
        md.starts_with("# ONNX conformance: onnxruntime 1.32.0\n"),
        "{md}"
    );
    assert!(md.contains("- known failures: `tests/known-failures/onnxruntime.json`"));

    report.backend.name = "worker:mine".into();
    report.known_failures = None;
    assert_eq!(
        title(&report),
        "ONNX conformance: onnxruntime 1.32.0 (backend worker:mine)"
    );
    assert!(html::render(&report).contains("this run had no known-failures list"));
    assert!(md::render(&report).contains("- known failures: no list"));
    report.backend = BackendInfo::default();
    assert_eq!(title(&report), "ONNX conformance");
}

/// The scoreboard's runs report apart from each backend's own reports (native's included), so
/// that a scoreboard never overwrites them.
#[test]
fn scoreboard_runs_report_apart_from_the_backends_own() {
    let target = Path::new("/t");
    for name in ["native", "onnxruntime", "myrt"] {
        let own = ReportDir::of(target, name);
        let board = ReportDir::scoreboard(target, name);
        assert!(board.path().starts_with("/t/onnx-conformance/scoreboard"));
        assert_ne!(own.path(), board.path(), "{name}");
        assert!(!board.path().starts_with(own.path()) || name == "native");
    }
    assert_eq!(
        ReportDir::scoreboard(target, "myrt").path(),
        Path::new("/t/onnx-conformance/scoreboard/backend-myrt")
    );
}

/// A case the runtime predates, as its list expects, is counted apart from failures and known
/// failures in every rendering: the console table, report.md and report.html.
#[test]
fn a_predated_case_is_counted_apart_in_every_report() {
    let mut report = sample();
    let mut old = record("1.22.0", 25, "test_cast_D", "Cast", Outcome::Predates);
    old.failure_kind = Some(crate::outcome::FailureKind::Predates);
    old.message = Some(
        "runtime predates the case, as listed (older runtime): why\nbackend x: runtime \
         predates opset 25 (it supports at most 24)"
            .into(),
    );
    report.trials.push(old);
    let table = summary_table(&report);
    assert!(table.contains(" predates\n"), "{table}");
    assert!(
        table.contains("\n25            1      0      0      0           0     0        1\n"),
        "{table}"
    );
    assert!(
        table.contains("\nall           7      3      2      1           0     0        1\n"),
        "{table}"
    );
    let md = md::render(&report);
    assert!(
        md.contains("7 total, 3 passed, 2 failed, 1 known failures, 0 upstream data problems, 1 the runtime predates"),
        "{md}"
    );
    assert!(md.contains("| data problem | predates |"), "{md}");
    assert!(
        md.contains("| opset25 | Cast | 1 | 0 | 0 | 0 | 0 | 0 | 1 |"),
        "{md}"
    );
    assert!(md.contains("## Cases the runtime predates (1)"), "{md}");
    assert!(
        md.contains("- `onnx-1.22.0/opset25/test_cast_D` (predates): runtime predates the case")
    );
    let html = html::render(&report);
    assert!(html.contains("<td class=\"c predates\""), "{html}");
    assert!(html.contains("<span class=\"key predates\">"), "{html}");
    assert!(
        html.contains("<h2 id=\"cases-the-runtime-predates\">Cases the runtime predates (1)"),
        "{html}"
    );
    assert!(
        html.contains(
            "<a href=\"#cases-the-runtime-predates\">1 the runtime predates (not run)</a>"
        ),
        "{html}"
    );
    assert!(html.contains("<div class=\"trial predates\""), "{html}");
}

#[test]
fn the_page_shell_escapes_its_title_and_closes_what_it_opens() {
    let open = super::page::html_open("a <b> & \"c\"", "p{margin:0}");
    assert!(open.starts_with("<!DOCTYPE html>\n<html lang=\"en\"><head>"));
    assert!(open.contains("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>"));
    assert!(open.contains("<style>p{margin:0}</style></head><body>"));
    assert_eq!(super::page::HTML_CLOSE, "</body></html>\n");
}

#[test]
fn a_report_that_records_a_trial_twice_is_refused_naming_it() {
    let dir = scratch("twice");
    let path = dir.path().join(JSON_FILE);
    let mut report = sample();
    let mut again = report.trials[0].clone();
    again.outcome = Outcome::Fail;
    report.trials.push(again);
    std::fs::write(&path, serde_json::to_string(&report).unwrap()).unwrap();
    let e = load(&path).expect_err("a trial twice");
    assert!(e.to_string().contains("test_castlike_A_to_B"), "{e}");
    assert!(e.to_string().contains("twice"), "{e}");
}

#[test]
fn failure_dirs_are_nested_and_safe() {
    let out = Path::new("/o");
    assert_eq!(
        failure_dir(out, "onnx-1.22.0/opset25/test_cast_A"),
        Path::new("/o/failures/onnx-1.22.0/opset25/test_cast_A")
    );
    assert_eq!(
        failure_dir(out, "custom/../x y"),
        Path::new("/o/failures/custom/_/x_y")
    );
}

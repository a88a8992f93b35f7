use super::*;
use crate::findings::diagnosis::Behaviour;
use crate::testkit::{all, diagnosed, finding};

fn sample() -> Findings {
    all(
        &["onnxruntime", "myrt"],
        vec![
            diagnosed(
                finding("onnxruntime", "DOUBLE", "FLOAT16", Verdict::Disagrees),
                Behaviour::RoundedTwiceThroughFloat,
            ),
            finding(
                "onnxruntime",
                "FLOAT",
                "FLOAT8E4M3FN",
                Verdict::DiffersFromData,
            ),
            finding("onnxruntime", "FLOAT", "FLOAT4E2M1", Verdict::Unsupported),
            finding("myrt", "FLOAT", "INT4", Verdict::DiffersFromReading),
            finding("myrt", "FLOAT", "FLOAT8E4M3FN", Verdict::DiffersFromData),
        ],
    )
}

fn links() -> Links {
    Links {
        semantics: Some("../../../docs/semantics.md".into()),
        anchors: anchors(
            "# T\n## 3. Conversions\n### 3.3 Rounding into a narrower float format\n## 6. Concat\n",
        ),
    }
}

#[test]
fn anchors_are_github_style() {
    let a = anchors(
        "## 3. Conversions\n### 3.3 Rounding into a narrower float format\n\
         ### 3.9 Strings (Cast-9 and later; official data at opsets 10–23)\n## Sources\n",
    );
    assert_eq!(a["3"], "3-conversions");
    assert_eq!(a["3.3"], "33-rounding-into-a-narrower-float-format");
    assert_eq!(
        a["3.9"],
        "39-strings-cast-9-and-later-official-data-at-opsets-1023"
    );
    assert_eq!(a.len(), 3);
    let l = links();
    assert_eq!(
        l.section("§3.3", 0).as_deref(),
        Some("../../../docs/semantics.md#33-rounding-into-a-narrower-float-format")
    );
    assert_eq!(
        l.section("§6", 2).as_deref(),
        Some("../../../../../docs/semantics.md#6-concat")
    );
    assert_eq!(l.section("§9.9", 0), None);
    assert_eq!(Links::default().section("§3.3", 0), None);
}

#[test]
fn the_semantics_link_is_relative_to_the_findings_directory() {
    assert_eq!(
        relative(
            Path::new("/w/target/onnx-conformance/deep"),
            Path::new("/w/docs/semantics.md")
        )
        .as_deref(),
        Some("../../../docs/semantics.md")
    );
    assert_eq!(
        relative(
            Path::new("/elsewhere/t/deep"),
            Path::new("/w/docs/semantics.md")
        )
        .as_deref(),
        Some("../../../w/docs/semantics.md")
    );
}

#[test]
fn the_markdown_opens_with_the_counts_bugs_first_then_the_causes() {
    let md = markdown(&sample(), &links());
    let counts = md.find("## Counts").expect("counts");
    let causes = md.find("## Causes").expect("causes");
    assert!(counts < causes);
    let table = &md[counts..causes];
    assert!(table.contains("| backend | authority | verdict | classes | elements |"));
    let bug = table
        .find("| onnxruntime | page | disagrees | 1 | 4 |")
        .expect("bug row");
    let data = table
        .find("| onnxruntime | data | differs-from-data | 1 | 4 |")
        .expect("data");
    let refused = table
        .find("| onnxruntime | none | unsupported | 1 | 0 |")
        .expect("refused");
    assert!(bug < data && data < refused, "{table}");
    assert!(table.contains("myrt 1.0 has no bugs here"), "{table}");
    assert!(
        table.contains("onnxruntime 1.0 has bugs here: 1 classes"),
        "{table}"
    );
    // Causes: the bug first, with its diagnosis, its rule, its elements and its links.
    let first = md[causes..]
        .find("### ")
        .map(|i| &md[causes + i..])
        .unwrap();
    assert!(first.starts_with("### disagrees · onnxruntime · page: the source is rounded"));
    assert!(md.contains(
        "into FLOAT8E4M3FN the value rounds once, to nearest even. Input `0x3f900000` (1.125): \
         expected `0x3c` (1.0), actual `0x3d` (1.25) (4 elements)"
    ));
    assert!(
        md.contains("[§3.3](../../../docs/semantics.md#33-rounding-into-a-narrower-float-format)")
    );
    assert!(
        md.contains("[source](https://github.com/onnx/onnx/blob/main/docs/Changelog.md#Cast-19)")
    );
    assert!(md.contains("data: test_cast_FLOAT_to_FLOAT8E4M3FN (1.16.2, 1.17.0)"));
    assert!(md.contains("Diagnosis: `rounded-twice-through-float`"));
    assert!(md.contains("[reproducer](findings/cast19_DOUBLE_to_FLOAT16/README.md)"));
    assert!(md.contains("Message: FLOAT4E2M1 is not supported"));
    assert!(
        md.contains("· unsupported** — unsupported. Message"),
        "{md}"
    );
}

#[test]
fn the_page_has_the_counts_table_filters_and_collapsed_causes() {
    let page = html(&sample(), &links());
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.ends_with("</body></html>\n"));
    // The bugs come first, one line each linking its cause (the issue body once written).
    let bugs = page.find("<table class=bugs>").expect("bugs");
    let counts = page.find("<table class=counts>").expect("counts");
    let filters = page.find("<form id=filters>").expect("filters");
    assert!(bugs < counts && counts < filters);
    assert!(page[bugs..counts].contains("<a href=\"#cause-0\">onnxruntime"));
    for name in ["backend", "authority", "verdict", "type"] {
        assert!(page.contains(&format!("<select data-f={name}>")), "{name}");
    }
    assert!(page.contains("<option>FLOAT4E2M1</option>"));
    assert!(page.contains("<option>myrt</option>"));
    // Self-contained: no external script, style or font.
    assert!(!page.contains("<script src") && !page.contains("<link"));
    assert!(page.contains("<script>"));
    // Every cause is a closed <details> (unsupported included), bugs first.
    assert!(!page.contains("<details class=cause open"));
    let bug = page.find(
        "<details class=cause id=cause-0 data-total=1><summary><span class=\"v v-disagrees\">",
    );
    let refused = page.find("v-unsupported\">unsupported</span> <b>onnxruntime</b>");
    assert!(bug.unwrap() < refused.unwrap());
    assert!(page.contains("data-from=\"FLOAT\" data-to=\"FLOAT4E2M1\""));
    assert!(page.contains("myrt 1.0 has no bugs here"));
    assert!(page.contains("<a href=\"findings/cast19_DOUBLE_to_FLOAT16/README.md\">reproducer</a>"));
}

#[test]
fn a_source_in_words_is_data_only_for_data() {
    let mut f = finding("onnxruntime", "DOUBLE", "FLOAT16", Verdict::Disagrees);
    f.authority = Some(Authority::Ieee);
    if let Some(c) = f.citation.as_mut() {
        c.source = "IEEE 754-2019 §5.4.2".into();
    }
    let md = markdown(&all(&["onnxruntime"], vec![f]), &Links::default());
    assert!(md.contains(", source: IEEE 754-2019 §5.4.2"), "{md}");
    assert!(!md.contains("data: IEEE"));
}

#[test]
fn text_is_escaped() {
    let mut f = finding("onnxruntime", "STRING", "FLOAT", Verdict::Error);
    f.message = Some("bad <input> | & co".into());
    let a = all(&["onnxruntime"], vec![f]);
    let page = html(&a, &Links::default());
    assert!(page.contains("bad &lt;input&gt; | &amp; co"));
    let md = markdown(&a, &Links::default());
    assert!(md.contains("bad &lt;input> \\| & co"), "{md}");
    assert!(md.contains("docs/semantics.md §3.3"));
}

#[test]
fn a_backend_without_findings_agrees() {
    let a = all(&["native"], Vec::new());
    assert!(summary(&a).contains("native 1.0 agrees with every expected value of the 100 trials"));
}

#[test]
fn versions_are_listed_per_operator_in_order() {
    let v: Vec<String> = [
        "Cast-24",
        "Cast-13",
        "CastLike-19",
        "Cast-6",
        "CastLike-15",
        "Cast-24",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(version_list(&v), "Cast-6,13,24; CastLike-15,19");
}

/// A CastLike that ignores round_mode on a runtime whose own Cast honours it is onnx's defect
/// (its CastLike function body drops round_mode): a cause of its own, listed once under the
/// defects of onnx with the runtimes that inherit it, and not counted among the runtime's
/// bugs. A runtime whose own Cast ignores round_mode too keeps it as its own.
#[test]
fn castlike_ignoring_round_mode_is_onnxs_defect_when_the_runtimes_cast_honours_it() {
    let castlike = |backend: &str, verdict: Verdict| {
        let mut f = finding(backend, "FLOAT", "FLOAT8E8M0", verdict);
        f.op = vocab::OpKind::CastLike;
        f.op_versions = vec![24, 25];
        diagnosed(f, Behaviour::RoundModeIgnored)
    };
    let mut own_cast = finding("myrt", "FLOAT", "FLOAT8E8M0", Verdict::Disagrees);
    own_cast.op_versions = vec![24, 25];
    let own_cast = diagnosed(own_cast, Behaviour::RoundModeIgnored);
    let findings = all(
        &["onnxruntime", "myrt"],
        vec![
            castlike("onnxruntime", Verdict::Disagrees),
            castlike("onnxruntime", Verdict::DiffersFromReading),
            diagnosed(
                finding("onnxruntime", "DOUBLE", "FLOAT16", Verdict::Disagrees),
                Behaviour::RoundedTwiceThroughFloat,
            ),
            castlike("myrt", Verdict::Disagrees),
            own_cast,
        ],
    );
    let inherited: Vec<(&str, usize)> = findings
        .causes
        .iter()
        .filter(|c| c.inherited.is_some())
        .map(|c| (c.backend.as_str(), c.findings.len()))
        .collect();
    assert_eq!(inherited, [("onnxruntime", 1), ("onnxruntime", 1)]);
    let md = markdown(&findings, &links());
    assert_eq!(md.matches("## Defects of onnx").count(), 1, "{md}");
    // Once per backend, whatever the verdicts of its classes.
    assert!(md.contains("inherited by onnxruntime (2 classes);"), "{md}");
    assert!(
        md.contains("`saturate = @saturate`, and no `round_mode`"),
        "{md}"
    );
    assert!(md.contains("onnxruntime (inherited from onnx)"), "{md}");
    let sentences = sentences(&findings);
    assert!(
        sentences[0].contains("has bugs here: 1 classes"),
        "{}",
        sentences[0]
    );
    assert!(sentences[0].contains("2 classes (8 elements) are onnx's own defect"));
    assert!(
        sentences[1].contains("has bugs here: 2 classes"),
        "{}",
        sentences[1]
    );
    assert!(!sentences[1].contains("onnx's own"), "{}", sentences[1]);
    let html = html(&findings, &links());
    assert!(html.contains("<h2>Defects of onnx</h2>"));
}

#[test]
fn a_filtered_run_says_which_cases_its_findings_cover() {
    let mut a = sample();
    a.runs[1].filters = vec!["opset13/".into(), "opset24/".into()];
    let scope = "(only the cases matching opset13/ or opset24/)";
    let md = markdown(&a, &links());
    assert!(md.contains(&format!("did not pass) {scope}")), "{md}");
    assert!(html(&a, &links()).contains(scope));
    assert!(summary(&a).contains(&format!("myrt: 100 trials {scope}")));
    // A whole run says nothing of the kind, in any of the three.
    assert_eq!(md.matches("only the cases").count(), 1);
}

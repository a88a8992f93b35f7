//! findings.md, findings.html and the console summary of a findings run, written to read
//! like a bug report: counts by backend, authority and verdict first (bugs first), a sentence
//! per backend, then the causes, each with its findings, one line each.

use super::finding::{Cause, Finding, Findings, Inherited, Value, Verdict};
use crate::index::Authority;
use harness::report::page::{escape, md_cell as cell, md_text};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Component, Path};

/// Where the page's links to docs/semantics.md go: the file relative to the findings
/// directory, and the GitHub-style anchor of each section's heading.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links {
    /// docs/semantics.md relative to the directory findings.html is in (`/`-separated).
    semantics: Option<String>,
    /// Section number (`3.3`) to heading anchor.
    anchors: BTreeMap<String, String>,
}

impl Links {
    /// The links of pages written to `out`, read from `root`'s docs/semantics.md; none when it
    /// cannot be read.
    pub fn of(root: &Path, out: &Path) -> Links {
        let doc = root.join("docs").join("semantics.md");
        let Ok(text) = std::fs::read_to_string(&doc) else {
            return Links::default();
        };
        let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        Links {
            semantics: relative(&abs(out), &abs(&doc)),
            anchors: anchors(&text),
        }
    }

    /// A link to section `section` (`§3.3`) from a page `depth` directories below the findings
    /// directory; `None` when the section or the file is unknown.
    pub fn section(&self, section: &str, depth: usize) -> Option<String> {
        let file = self.semantics.as_ref()?;
        let number = section.trim_start_matches('§');
        let anchor = self.anchors.get(number)?;
        Some(format!("{}{file}#{anchor}", "../".repeat(depth)))
    }
}

/// `to` relative to directory `from`, `/`-separated; `None` across drives or prefixes.
fn relative(from: &Path, to: &Path) -> Option<String> {
    let a: Vec<Component<'_>> = from.components().collect();
    let b: Vec<Component<'_>> = to.components().collect();
    if a.first() != b.first() {
        return None;
    }
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Some(parts.join("/"))
}

/// The GitHub-style anchors of the numbered headings of a Markdown text, by number: `## 6.
/// Concat` is `6` → `6-concat`, `### 3.3 Rounding into …` is `3.3` → `33-rounding-into-…`.
pub fn anchors(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(title) = line.strip_prefix("##").map(|t| t.trim_start_matches('#')) else {
            continue;
        };
        let title = title.trim();
        let number: String = title
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let number = number.trim_end_matches('.');
        if number.is_empty() {
            continue;
        }
        out.entry(number.to_string())
            .or_insert_with(|| github_anchor(title));
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, spaces to hyphens, every character
/// but letters, digits, `-` and `_` dropped.
pub fn github_anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// `Cast-19,21`.
pub fn versions(f: &Finding) -> String {
    let mut sorted = f.op_versions.clone();
    sorted.sort_unstable();
    let v: Vec<String> = sorted.iter().map(u32::to_string).collect();
    format!("{}-{}", f.op, v.join(","))
}

/// An example's input as Markdown, with the input and index it came from when known
/// (`0x8000` (-0.0) from `value2[1]`).
pub fn input_md(e: &crate::findings::Example) -> String {
    let from = e
        .source
        .as_deref()
        .map_or(String::new(), |s| format!(" from `{s}`"));
    format!("{}{from}", value_md(&e.input))
}

/// A value as Markdown: bits in code, then the decoded value.
pub fn value_md(v: &Value) -> String {
    if v.bits == v.decoded {
        return format!("`{}`", cell(&v.bits));
    }
    format!("`{}` ({})", cell(&v.bits), md_text(&v.decoded))
}

fn value_html(v: &Value) -> String {
    if v.bits == v.decoded {
        return format!("<code>{}</code>", escape(&v.bits));
    }
    format!(
        "<code>{}</code>&nbsp;({})",
        escape(&v.bits),
        escape(&v.decoded)
    )
}

/// An authority's name; `none` for a class that did not run.
fn authority_label(a: Option<Authority>) -> &'static str {
    a.map_or("none", Authority::label)
}

/// What a verdict means, in words.
fn meaning(v: Verdict) -> &'static str {
    match v {
        Verdict::Disagrees => "a bug: differs from a value the operator page or IEEE 754 fixes",
        Verdict::DiffersFromData => "differs from a value only the official data fixes",
        Verdict::DiffersFromReading => {
            "differs from our reading where neither the page nor the data decides"
        }
        Verdict::TypeOrShape => "the output had another type or shape",
        Verdict::Unsupported => "the runtime refused the case",
        Verdict::Error => "the runtime failed to load or run the case",
        Verdict::Crash => "the runtime process died",
        Verdict::Timeout => "the runtime did not answer in time",
    }
}

/// A reproducer link's text: `reproducer`, or for a refusal the shared reproducer's name
/// (`reproducer unsupported__FLOAT4E2M1`), which says what the runtime refuses.
fn reproducer_text(f: &Finding) -> String {
    match f.verdict.is_refusal() {
        true => format!(
            "reproducer {}",
            f.reproducer.rsplit('/').next().unwrap_or(&f.reproducer)
        ),
        false => "reproducer".into(),
    }
}

/// How a citation's source that is not a link is introduced: `data` names the official cases
/// and releases; any other is a reference in words.
fn source_label(f: &Finding) -> &'static str {
    match f.authority {
        Some(Authority::Data) => "data",
        _ => "source",
    }
}

fn is_url(s: &str) -> bool {
    s.starts_with("https://") || s.starts_with("http://")
}

/// The attributes and input class of a finding, as a label.
fn what(f: &Finding) -> String {
    let mut s = format!("{} {} → {}", versions(f), f.from, f.to);
    if !f.attributes.is_empty() {
        let text: Vec<String> = f.attributes.iter().map(ToString::to_string).collect();
        let _ = write!(s, " {}", text.join(" "));
    }
    let _ = write!(s, " · {}", f.input_class);
    s
}

/// One finding as a Markdown line (without the list marker): where, the rule, the first
/// element, the citation, the diagnosis and the reproducer. `depth` is how far below the
/// findings directory the page is.
pub fn finding_md(f: &Finding, links: &Links, depth: usize) -> String {
    let mut s = format!("**{}**", md_text(&what(f)));
    match f.authority {
        Some(a) => {
            let _ = write!(s, " — {} ({})", f.verdict.label(), a.label());
        }
        None => {
            let _ = write!(s, " — {}", f.verdict.label());
        }
    }
    if let Some(c) = &f.citation {
        let _ = write!(s, ": {}", md_text(&c.rule));
    }
    match f.examples.first() {
        Some(e) => {
            let _ = write!(
                s,
                ". Input {}: expected {}, actual {}",
                input_md(e),
                value_md(&e.expected),
                value_md(&e.actual)
            );
            if f.elements > 1 {
                let _ = write!(s, " ({} elements)", f.elements);
            }
        }
        None => {
            if let Some(m) = &f.message {
                let _ = write!(s, ". Message: {}", md_text(m));
            }
        }
    }
    let section = f.citation.as_ref().map_or(f.section, |c| c.section).label();
    s.push_str(". ");
    match links.section(section, depth) {
        Some(href) => {
            let _ = write!(s, "[{section}]({href})");
        }
        None => {
            let _ = write!(s, "docs/semantics.md {section}");
        }
    }
    if let Some(c) = f.citation.as_ref().filter(|c| !c.source.is_empty()) {
        match is_url(&c.source) {
            true => {
                let _ = write!(s, ", [source]({})", c.source);
            }
            false => {
                let _ = write!(s, ", {}: {}", source_label(f), md_text(&c.source));
            }
        }
    }
    if let Some(d) = &f.diagnosis {
        let _ = write!(s, ". Diagnosis: `{}`", d.behaviour.label());
    }
    if !f.reproducer.is_empty() {
        let _ = write!(
            s,
            ". [{}]({}findings/{}/README.md)",
            reproducer_text(f),
            "../".repeat(depth),
            f.reproducer
        );
    }
    s
}

fn finding_html(f: &Finding, links: &Links) -> String {
    let mut s = format!("<div><span class=what>{}</span>", escape(&what(f)));
    if let Some(c) = &f.citation {
        let _ = write!(s, " — <span class=rule>{}</span>", escape(&c.rule));
    }
    s.push_str("</div><div class=l2>");
    match f.examples.first() {
        Some(e) => {
            let _ = write!(
                s,
                "<span class=el>input {}{} · expected {} · actual <b>{}</b>",
                value_html(&e.input),
                e.source.as_deref().map_or(String::new(), |s| format!(
                    " from <code>{}</code>",
                    escape(s)
                )),
                value_html(&e.expected),
                value_html(&e.actual)
            );
            if f.elements > 1 {
                let _ = write!(s, " · {} elements", f.elements);
            }
            s.push_str("</span>");
        }
        None => {
            if let Some(m) = &f.message {
                let _ = write!(s, "<span class=msg>{}</span>", escape(m));
            }
        }
    }
    s.push_str(" <span class=refs>· ");
    let section = f.citation.as_ref().map_or(f.section, |c| c.section).label();
    match links.section(section, 0) {
        Some(href) => {
            let _ = write!(s, "<a href=\"{}\">{}</a>", escape(&href), escape(section));
        }
        None => s.push_str(&escape(section)),
    }
    if let Some(c) = f.citation.as_ref().filter(|c| !c.source.is_empty()) {
        match is_url(&c.source) {
            true => {
                let _ = write!(s, " · <a href=\"{}\">source</a>", escape(&c.source));
            }
            false => {
                let _ = write!(s, " · {}: {}", source_label(f), escape(&c.source));
            }
        }
    }
    if let Some(d) = &f.diagnosis {
        let _ = write!(
            s,
            " · <span class=diag title=\"{}\">diagnosis: {}</span>",
            escape(&d.text),
            d.behaviour.label()
        );
    }
    if !f.reproducer.is_empty() {
        let _ = write!(
            s,
            " · <a href=\"findings/{}/README.md\">{}</a>",
            escape(&f.reproducer),
            escape(&reproducer_text(f))
        );
    }
    s.push_str("</span></div>");
    s
}

/// One row of the counts: backend, authority, verdict, classes, elements.
struct Count {
    backend: String,
    authority: Option<Authority>,
    verdict: Verdict,
    classes: usize,
    elements: usize,
}

/// Classes and elements by backend × authority × verdict, bugs first (verdict order), then
/// backend in run order, then authority.
fn counts(all: &Findings) -> Vec<Count> {
    let order = |b: &str| all.runs.iter().position(|r| r.backend == b).unwrap_or(0);
    let mut map: BTreeMap<(Verdict, usize, u8), Count> = BTreeMap::new();
    for f in &all.findings {
        let key = (
            f.verdict,
            order(&f.backend),
            f.authority.map_or(u8::MAX, |a| a as u8),
        );
        let c = map.entry(key).or_insert_with(|| Count {
            backend: f.backend.clone(),
            authority: f.authority,
            verdict: f.verdict,
            classes: 0,
            elements: 0,
        });
        c.classes += 1;
        c.elements += f.elements;
    }
    map.into_values().collect()
}

/// A sentence per backend: its bugs, or that it has none here.
fn sentences(all: &Findings) -> Vec<String> {
    let mut out = Vec::new();
    let onnxs: Vec<usize> = all
        .causes
        .iter()
        .filter(|c| c.inherited.is_some())
        .flat_map(|c| c.findings.iter().copied())
        .collect();
    for (k, run) in all.runs.iter().enumerate() {
        // One sentence per backend, however many configurations it ran in.
        if all.runs[..k].iter().any(|r| r.backend == run.backend) {
            continue;
        }
        // onnx's own defects are not the runtime's bugs: counted apart.
        type Indexed<'a> = Vec<(usize, &'a Finding)>;
        let (inherited, mine): (Indexed<'_>, Indexed<'_>) = all
            .findings
            .iter()
            .enumerate()
            .filter(|(_, f)| f.backend == run.backend)
            .partition(|(i, _)| onnxs.contains(i));
        let mine: Vec<&Finding> = mine.into_iter().map(|(_, f)| f).collect();
        let n = |v: Verdict| mine.iter().filter(|f| f.verdict == v).count();
        let elements = |v: Verdict| {
            mine.iter()
                .filter(|f| f.verdict == v)
                .map(|f| f.elements)
                .sum::<usize>()
        };
        let (bugs, data, reading) = (
            n(Verdict::Disagrees),
            n(Verdict::DiffersFromData),
            n(Verdict::DiffersFromReading),
        );
        let refused = mine.iter().filter(|f| f.verdict.is_refusal()).count();
        let shape = n(Verdict::TypeOrShape);
        let name = format!("{} {}", run.backend, run.runtime_version);
        let mut s = if mine.is_empty() {
            format!(
                "{name} agrees with every expected value of the {} trials.",
                run.trials
            )
        } else if bugs > 0 {
            format!(
                "{name} has bugs here: {bugs} classes ({} elements) differ from values the \
                 operator page or IEEE 754 fixes.",
                elements(Verdict::Disagrees)
            )
        } else if data + reading > 0 {
            format!(
                "{name} has no bugs here: its differences are only from values the official \
                 data fixes ({data} classes) or our reading fixes ({reading} classes)."
            )
        } else {
            format!("{name} has no bugs here: no element it computed differs.")
        };
        if bugs > 0 && data + reading > 0 {
            let _ = write!(
                s,
                " Besides, {data} classes differ from the data's values and {reading} from our \
                 reading (not bugs)."
            );
        }
        if shape > 0 {
            let _ = write!(s, " {shape} classes gave another output type or shape.");
        }
        if refused > 0 {
            let _ = write!(
                s,
                " It did not run {refused} classes (refused, failed or died)."
            );
        }
        if !inherited.is_empty() {
            let elements: usize = inherited.iter().map(|(_, f)| f.elements).sum();
            let _ = write!(
                s,
                " {} classes ({elements} elements) are onnx's own defect, which it inherits by \
                 running onnx's function body (see Defects of onnx).",
                inherited.len()
            );
        }
        out.push(s);
    }
    out
}

/// The causes in page order: bugs first (by verdict), the findings' order otherwise.
fn ordered_causes(all: &Findings) -> Vec<&Cause> {
    let mut c: Vec<&Cause> = all.causes.iter().collect();
    c.sort_by_key(|c| c.verdict);
    c
}

fn cause_title(c: &Cause) -> String {
    let from = match &c.inherited {
        Some(i) => format!(" (inherited from {})", i.from),
        None => String::new(),
    };
    format!(
        "{} · {}{from} · {}: {}",
        c.verdict.label(),
        c.backend,
        authority_label(c.authority),
        c.text
    )
}

/// onnx's own defects, once each, with the backends that inherit them and their classes.
fn upstream(all: &Findings) -> Vec<(&Inherited, Vec<(&str, usize)>)> {
    let mut out: Vec<(&Inherited, Vec<(&str, usize)>)> = Vec::new();
    for c in &all.causes {
        let Some(i) = &c.inherited else { continue };
        let at = match out.iter().position(|(j, _)| *j == i) {
            Some(at) => at,
            None => {
                out.push((i, Vec::new()));
                out.len() - 1
            }
        };
        let by = &mut out[at].1;
        match by.iter_mut().find(|(b, _)| *b == c.backend) {
            Some((_, n)) => *n += c.findings.len(),
            None => by.push((c.backend.as_str(), c.findings.len())),
        }
    }
    out
}

/// "inherited by onnxruntime (202 classes), ..."
fn inheritors(by: &[(&str, usize)]) -> String {
    let each: Vec<String> = by
        .iter()
        .map(|(b, n)| format!("{b} ({n} classes)"))
        .collect();
    format!("inherited by {}", each.join(", "))
}

/// Pairs shown in a cause's one-line summary; the rest are counted.
const SHORT_PAIRS: usize = 8;

/// Operator versions as `Cast-13,19,24; CastLike-15`: per operator, sorted.
pub fn version_list(versions: &[String]) -> String {
    let mut by_op: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for v in versions {
        let (op, n) = v.rsplit_once('-').unwrap_or((v, "0"));
        by_op.entry(op).or_default().push(n.parse().unwrap_or(0));
    }
    by_op
        .into_iter()
        .map(|(op, mut n)| {
            n.sort_unstable();
            n.dedup();
            let n: Vec<String> = n.iter().map(u32::to_string).collect();
            format!("{op}-{}", n.join(","))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A cause's counts, pairs (the first [`SHORT_PAIRS`] when `short`) and versions.
fn cause_detail(c: &Cause, short: bool) -> String {
    let pairs = match short && c.pairs.len() > SHORT_PAIRS {
        true => format!(
            "{} and {} more",
            c.pairs[..SHORT_PAIRS].join(", "),
            c.pairs.len() - SHORT_PAIRS
        ),
        false => c.pairs.join(", "),
    };
    let configurations = match c.configurations.is_empty() {
        true => String::new(),
        false => format!("; in {}", c.configurations.join(", ")),
    };
    format!(
        "{} classes, {} elements; {} pairs: {pairs}; versions {}{configurations}",
        c.findings.len(),
        c.elements,
        c.pairs.len(),
        version_list(&c.versions)
    )
}

/// What the authorities and verdicts mean, under the counts.
const LEGEND: &str = "Authority: page (the operator page fixes the value), ieee (IEEE 754 \
fixes it), data (only the official test data fixes it), reading (neither; docs/semantics.md \
records our reading). Only page and ieee differences are bugs (disagrees); differs-from-data \
and differs-from-reading are not. unsupported, error, crash and timeout: the case did not run.";

/// findings.md: the counts, a sentence per backend, then each cause with its findings.
pub fn markdown(all: &Findings, links: &Links) -> String {
    let mut s = String::from("# Deep suite findings\n\n");
    let runs: Vec<String> = all
        .runs
        .iter()
        .map(|r| {
            format!(
                "{} {}{} ({} trials, {} did not pass){}",
                r.backend,
                r.runtime_version,
                r.configuration
                    .as_ref()
                    .map_or(String::new(), |c| format!(" in {c}")),
                r.trials,
                r.failed,
                r.scope()
            )
        })
        .collect();
    let _ = writeln!(
        s,
        "Tree sha256 `{}`. Backends: {}.\n",
        all.tree_sha256,
        md_text(&runs.join("; "))
    );
    s.push_str("## Bugs\n\n");
    for (_, c) in bugs(all) {
        let issue = match c.issue.is_empty() {
            true => String::new(),
            false => format!(" [Issue body](findings/{}).", c.issue),
        };
        let _ = writeln!(
            s,
            "- {} ({}; {} classes, {} elements).{issue}",
            md_text(&bug_title(c, &all.findings)),
            authority_label(c.authority),
            c.findings.len(),
            c.elements
        );
    }
    s.push_str("\n## Counts\n\n| backend | authority | verdict | classes | elements |\n");
    s.push_str("|---|---|---|---:|---:|\n");
    for c in counts(all) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            md_text(&c.backend),
            authority_label(c.authority),
            c.verdict.label(),
            c.classes,
            c.elements
        );
    }
    s.push('\n');
    for line in sentences(all) {
        let _ = writeln!(s, "- {}", md_text(&line));
    }
    let _ = writeln!(s, "\n{LEGEND}");
    let upstream = upstream(all);
    if !upstream.is_empty() {
        s.push_str("\n## Defects of onnx\n\n");
        for (i, by) in &upstream {
            let _ = writeln!(
                s,
                "- **{}**: {} ({}; the causes below marked inherited).",
                md_text(&i.from),
                md_text(&i.text),
                md_text(&inheritors(by))
            );
        }
    }
    s.push_str("\n## Causes\n\n");
    for c in ordered_causes(all) {
        let _ = writeln!(
            s,
            "### {}\n\n{} ({}).{}\n",
            md_text(&cause_title(c)),
            md_text(&cause_detail(c, false)),
            meaning(c.verdict),
            match c.issue.is_empty() {
                true => String::new(),
                false => format!(" [Issue body](findings/{}).", c.issue),
            }
        );
        for &i in &c.findings {
            if let Some(f) = all.findings.get(i) {
                let _ = writeln!(s, "- {}", finding_md(f, links, 0));
            }
        }
        s.push('\n');
    }
    s
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;max-width:1360px;margin:0 auto;\
padding:0 16px;overflow-wrap:anywhere}h1{margin:12px 0 4px}h2{margin:18px 0 6px}\
.meta{color:#555}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;\
text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}\
table.bugs td,table.bugs th{white-space:nowrap;overflow-wrap:normal}table.bugs td:nth-child(3)\
{white-space:normal}\
code{font:12px ui-monospace,monospace;background:#f4f4f4;padding:0 2px;white-space:normal}\
.v{display:inline-block;border-radius:3px;padding:0 5px;font-size:12px;color:#fff;\
background:#777}.v-disagrees{background:#c62828}.v-differs-from-data{background:#ef6c00}\
.v-differs-from-reading{background:#8d6e63}.v-unsupported{background:#9e9e9e}\
.v-error,.v-crash,.v-timeout,.v-type-or-shape{background:#5c6bc0}\
ul.sentences li{margin:2px 0}details.cause{border:1px solid #ddd;border-radius:4px;\
margin:6px 0;padding:4px 8px}details.cause>summary{cursor:pointer}\
.detail{color:#555;font-size:13px;margin-left:18px}ul.findings{margin:6px 0;padding-left:18px}\
ul.findings li{margin:6px 0}.l2{margin-left:12px}.what{font-weight:600}\
.legend{color:#444;font-size:13px;max-width:1000px}.msg{font-family:ui-monospace,monospace;\
font-size:12px}.rule{font-style:italic}.refs{color:#555}\
.diag{color:#2e7d32}#filters{position:sticky;top:0;background:#fff;padding:6px 0;\
border-bottom:1px solid #ddd;display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center}\
#filters label{white-space:nowrap}";

const SCRIPT: &str = "(function(){\
var f=document.getElementById('filters');\
function val(k){return f.querySelector('[data-f='+k+']').value}\
function apply(){\
var b=val('backend'),a=val('authority'),v=val('verdict'),t=val('type'),shown=0;\
document.querySelectorAll('details.cause').forEach(function(c){\
var n=0;c.querySelectorAll('li.finding').forEach(function(li){\
var d=li.dataset,ok=(!b||d.backend===b)&&(!a||d.authority===a)&&(!v||d.verdict===v)\
&&(!t||d.from===t||d.to===t);li.hidden=!ok;if(ok)n++});\
c.hidden=n===0;c.querySelector('.shown').textContent=n===c.dataset.total*1?'':' ('+n+' shown)';\
shown+=n});\
document.getElementById('shown').textContent=shown+' classes shown';}\
f.addEventListener('change',apply);apply();})();";

fn select(name: &str, values: &[String]) -> String {
    let mut s = format!("<label>{name} <select data-f={name}><option value=\"\">all</option>");
    for v in values {
        let _ = write!(s, "<option>{}</option>", escape(v));
    }
    s.push_str("</select></label>");
    s
}

/// The title of bug `c` (its issue body's): the runtime, what it does wrong, and where.
pub fn bug_title(c: &Cause, findings: &[Finding]) -> String {
    let first = c.findings.first().and_then(|&i| findings.get(i));
    let runtime = match (&c.inherited, first) {
        (Some(i), _) => i.from.clone(),
        (None, Some(f)) => format!("{} {}", c.backend, f.runtime_version)
            .trim()
            .to_string(),
        (None, None) => c.backend.clone(),
    };
    let what = match (&c.diagnosis, &c.trigger) {
        (None, Some(t)) => format!("values no known behaviour explains, {t}"),
        (Some(_), Some(t)) => format!("{} ({t})", first_clause(&c.text)),
        _ => first_clause(&c.text).to_string(),
    };
    let pairs = match c.pairs.len() {
        0 => String::new(),
        1 => format!(" ({})", c.pairs[0]),
        n => format!(" ({} and {} more pairs)", c.pairs[0], n - 1),
    };
    format!("{runtime}: {what}{pairs}")
}

/// `text` up to its first colon: the behaviour without its explanation.
fn first_clause(text: &str) -> &str {
    text.split(": ")
        .next()
        .unwrap_or(text)
        .trim_end_matches('.')
}

/// The causes that are bugs, in page order, each with its index among the page's causes.
fn bugs(all: &Findings) -> Vec<(usize, &Cause)> {
    ordered_causes(all)
        .into_iter()
        .enumerate()
        .filter(|(_, c)| c.verdict == Verdict::Disagrees)
        .collect()
}

/// findings.html: a self-contained page (inline style and script), the bugs first, one line
/// each with its issue body, then the counts and every cause.
pub fn html(all: &Findings, links: &Links) -> String {
    let mut s = harness::report::page::html_open("Deep suite findings", STYLE);
    let _ = write!(
        s,
        "<h1>Deep suite findings</h1><p class=meta>Tree sha256 <code>{}</code>.",
        escape(&all.tree_sha256)
    );
    for r in &all.runs {
        let _ = write!(
            s,
            " {} {}{}: {} trials, {} did not pass{}.",
            escape(&r.backend),
            escape(&r.runtime_version),
            r.configuration
                .as_ref()
                .map_or(String::new(), |c| format!(" in {}", escape(c))),
            r.trials,
            r.failed,
            escape(&r.scope())
        );
    }
    s.push_str(
        "</p><h2>Bugs</h2><table class=bugs><tr><th>backend</th><th>authority</th><th>bug</th>\
         <th>classes</th><th>elements</th><th></th></tr>",
    );
    for (k, c) in bugs(all) {
        let issue = match c.issue.is_empty() {
            true => String::new(),
            false => format!("<a href=\"findings/{}\">issue body</a>", escape(&c.issue)),
        };
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td><a href=\"#cause-{k}\">{}</a></td><td class=n>{}</td>\
             <td class=n>{}</td><td>{issue}</td></tr>",
            escape(&match &c.inherited {
                Some(i) => format!("{} (via {})", i.from, c.backend),
                None => c.backend.clone(),
            }),
            authority_label(c.authority),
            escape(&bug_title(c, &all.findings)),
            c.findings.len(),
            c.elements
        );
    }
    s.push_str(
        "</table><h2>Counts</h2><table class=counts><tr><th>backend</th><th>authority</th>\
         <th>verdict</th><th>classes</th><th>elements</th></tr>",
    );
    for c in counts(all) {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td><span class=\"v v-{v}\">{v}</span></td>\
             <td class=n>{}</td><td class=n>{}</td></tr>",
            escape(&c.backend),
            authority_label(c.authority),
            c.classes,
            c.elements,
            v = c.verdict.label()
        );
    }
    s.push_str("</table><ul class=sentences>");
    for line in sentences(all) {
        let _ = write!(s, "<li>{}</li>", escape(&line));
    }
    let _ = write!(s, "</ul><p class=legend>{}</p>", escape(LEGEND));
    let mut backends: Vec<String> = all.runs.iter().map(|r| r.backend.clone()).collect();
    backends.dedup();
    let authorities: Vec<String> = Authority::ALL
        .iter()
        .map(|a| a.label().to_string())
        .chain(["none".to_string()])
        .collect();
    let mut verdicts: Vec<Verdict> = all.findings.iter().map(|f| f.verdict).collect();
    verdicts.sort();
    verdicts.dedup();
    let verdicts: Vec<String> = verdicts.iter().map(|v| v.label().to_string()).collect();
    let mut types: Vec<String> = all
        .findings
        .iter()
        .flat_map(|f| [f.from.name().to_string(), f.to.name().to_string()])
        .collect();
    types.sort();
    types.dedup();
    let upstream = upstream(all);
    if !upstream.is_empty() {
        s.push_str("<h2>Defects of onnx</h2><ul class=sentences>");
        for (i, by) in &upstream {
            let _ = write!(
                s,
                "<li><b>{}</b>: {} ({}; the causes below marked inherited)</li>",
                escape(&i.from),
                escape(&i.text),
                escape(&inheritors(by))
            );
        }
        s.push_str("</ul>");
    }
    let _ = write!(
        s,
        "<h2>Causes</h2><form id=filters>{}{}{}{}<span id=shown></span></form>",
        select("backend", &backends),
        select("authority", &authorities),
        select("verdict", &verdicts),
        select("type", &types)
    );
    for (k, c) in ordered_causes(all).into_iter().enumerate() {
        let _ = write!(
            s,
            "<details class=cause id=cause-{k} data-total={}><summary><span class=\"v v-{v}\">{v}</span> \
             <b>{}</b> · {} · {}{}<span class=shown></span><div class=detail>{}</div></summary>",
            c.findings.len(),
            escape(&match &c.inherited {
                Some(i) => format!("{} (inherited from {})", c.backend, i.from),
                None => c.backend.clone(),
            }),
            authority_label(c.authority),
            escape(&c.text),
            match c.issue.is_empty() {
                true => String::new(),
                false => format!(
                    " · <a class=issue href=\"findings/{}\">issue body</a>",
                    escape(&c.issue)
                ),
            },
            escape(&cause_detail(c, true)),
            v = c.verdict.label()
        );
        if c.pairs.len() > SHORT_PAIRS {
            let _ = write!(
                s,
                "<p class=detail>All pairs: {}</p>",
                escape(&c.pairs.join(", "))
            );
        }
        s.push_str("<ul class=findings>");
        for &i in &c.findings {
            let Some(f) = all.findings.get(i) else {
                continue;
            };
            let _ = write!(
                s,
                "<li class=finding data-backend=\"{}\" data-authority={} data-verdict={} \
                 data-from=\"{}\" data-to=\"{}\">{}</li>",
                escape(&f.backend),
                authority_label(f.authority),
                f.verdict.label(),
                escape(f.from.name()),
                escape(f.to.name()),
                finding_html(f, links)
            );
        }
        s.push_str("</ul></details>");
    }
    let _ = write!(
        s,
        "<script>{SCRIPT}</script>{}",
        harness::report::page::HTML_CLOSE
    );
    s
}

/// The console summary: classes and elements per backend and verdict, and the sentences.
pub fn summary(all: &Findings) -> String {
    let mut s = String::new();
    for c in counts(all) {
        let _ = writeln!(
            s,
            "{:14} {:8} {:21} {:6} classes {:8} elements",
            c.backend,
            authority_label(c.authority),
            c.verdict.label(),
            c.classes,
            c.elements
        );
    }
    for line in sentences(all) {
        let _ = writeln!(s, "{line}");
    }
    for r in all.runs.iter().filter(|r| !r.filters.is_empty()) {
        let _ = writeln!(s, "{}: {} trials{}", r.backend, r.trials, r.scope());
    }
    s
}

#[cfg(test)]
mod tests;

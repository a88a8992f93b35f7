//! An issue body per cause that is a bug, ready to paste into the runtime's tracker: a title,
//! one paragraph, the rule with its link, the smallest input with expected and actual value in
//! bits and decoded, and a reproducer of at most 20 lines in the runtime's own Python API where
//! the backend has one, run beside the cause's node-test directory (its reproducer).

use super::finding::{Cause, Example, Finding, Findings, RunSummary, Verdict};
use super::render::{bug_title as title, input_md, value_md};
use std::fmt::Write as _;

/// The most lines a reproducer script may have.
#[cfg(test)]
const MAX_SCRIPT_LINES: usize = 20;

/// The file name of cause `k`'s body (`k` counts a backend's causes from 1) under the
/// backend's findings directory.
fn file_name(k: usize, c: &Cause) -> String {
    let what = c.diagnosis.map_or("undiagnosed", |d| d.label());
    format!("issue-{k:02}-{what}.md")
}

/// Whether cause `c` gets a body: a bug (`disagrees`).
fn has_body(c: &Cause) -> bool {
    c.verdict == Verdict::Disagrees
}

/// Every body of `all`, as (path under the findings directory, text), and each cause's path
/// set in `all` (`Cause::issue`). A defect inherited from onnx gets its body once, under
/// `onnx/`, addressed to onnx.
pub fn write_all(all: &mut Findings) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for i in 0..all.causes.len() {
        let c = &all.causes[i];
        if !has_body(c) {
            continue;
        }
        let owner = match &c.inherited {
            Some(inh) => inh.from.clone(),
            None => c.backend.clone(),
        };
        let k = counts.entry(owner.clone()).or_default();
        let inherited_again =
            c.inherited.is_some() && out.iter().any(|(p, _)| p.starts_with(&format!("{owner}/")));
        let path = match inherited_again {
            // Reported once: every runtime that inherits it points to the one body.
            true => out
                .iter()
                .find(|(p, _)| p.starts_with(&format!("{owner}/")))
                .map(|(p, _)| p.clone())
                .unwrap_or_default(),
            false => {
                *k += 1;
                let path = format!("{owner}/{}", file_name(*k, c));
                let how = How::of(c, &all.runs);
                out.push((path.clone(), body(c, &all.findings, &how)));
                path
            }
        };
        all.causes[i].issue = path;
    }
    out
}

/// The body of cause `c`.
fn body(c: &Cause, findings: &[Finding], how: &How) -> String {
    let mine: Vec<&Finding> = c.findings.iter().filter_map(|&i| findings.get(i)).collect();
    let mut s = format!("# {}\n\n", title(c, findings));
    let mut versions = c.versions.clone();
    // `Cast-9` before `Cast-19`: by operator, then version number.
    versions.sort_by_key(|v| {
        let (op, n) = v.rsplit_once('-').unwrap_or((v, ""));
        (op.to_string(), n.parse::<u32>().unwrap_or(0))
    });
    let who = match &c.inherited {
        Some(i) => format!("{} Every runtime that runs that body shows it.", i.text),
        None => {
            let version = mine.first().map_or("", |f| f.runtime_version.as_str());
            format!("{} {version}:", c.backend)
        }
    };
    let _ = write!(
        s,
        "{who} {} At {}; {}, {} in all, over {}.",
        sentence(&c.text),
        versions.join(", "),
        count(mine.len(), "class of inputs", "classes of inputs"),
        count(c.elements, "element", "elements"),
        c.pairs.join(", ")
    );
    if !c.configurations.is_empty() {
        let _ = write!(
            s,
            " Seen in the configurations {}.",
            c.configurations.join(", ")
        );
    }
    s.push_str("\n\n");
    if let Some(cit) = mine.iter().find_map(|f| f.citation.as_ref()) {
        let _ = writeln!(s, "**The rule.** {}. Source: {}.\n", cit.rule, cit.source);
    }
    let shown = smallest(&mine);
    match shown {
        Some((f, e)) => {
            let attrs: Vec<String> = f.attributes.iter().map(ToString::to_string).collect();
            let _ = writeln!(
                s,
                "**Smallest input.** {}-{} {} → {}{}: input {}; expected {}, actual {}.\n",
                f.op,
                f.op_versions.first().copied().unwrap_or_default(),
                f.from,
                f.to,
                match attrs.is_empty() {
                    true => String::new(),
                    false => format!(" ({})", attrs.join(", ")),
                },
                input_md(e),
                value_md(&e.expected),
                value_md(&e.actual)
            );
        }
        None => {
            if let Some(m) = mine.iter().find_map(|f| f.message.as_deref()) {
                let _ = writeln!(s, "**What the runtime says.** `{m}`\n");
            }
        }
    }
    // The reproducer of the finding the input above is from.
    let dir = shown
        .map(|(f, _)| f)
        .or(mine.first().copied())
        .map_or("", |f| f.reproducer.as_str());
    let through = match &c.inherited {
        Some(_) => format!(" (shown through {}, which runs that body)", c.backend),
        None => String::new(),
    };
    let _ = writeln!(
        s,
        "**Reproducer**{through}. The directory `{dir}` (attach it: `model.onnx` and \
         `test_data_set_0/` with the inputs and the expected `output_0.pb`); run this in it:\n"
    );
    let _ = writeln!(s, "```{}\n```\n", script(how));
    s.push_str(
        "Found by the deep suite of onnx-conformance; every expected value carries its \
         authority, and the rule above is the one that fixes it.\n",
    );
    s
}

/// `n` and the noun for it: `1 element`, `2 elements`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `text` as a sentence: capitalised, with a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
    let end = if text.ends_with('.') { "" } else { "." };
    format!("{}{}{end}", first.unwrap_or_default(), chars.as_str())
}

/// The finding and example to show: among the examples of the cause's findings, one whose
/// input is known, shortest to read.
fn smallest<'f>(mine: &[&'f Finding]) -> Option<(&'f Finding, &'f Example)> {
    mine.iter()
        .flat_map(|f| f.examples.iter().map(move |e| (*f, e)))
        // An element whose input is known (not a constant's `-`) first, then the shortest.
        .min_by_key(|(_, e)| {
            let unknown = e.input.bits == "-";
            (unknown, e.input.decoded.len() + e.expected.decoded.len())
        })
}

/// How a cause's reproducer runs its runtime again: the backend's label, how it was asked
/// for, and the configuration to run in when the cause does not show in the default one.
pub struct How {
    /// The backend's label.
    pub label: String,
    /// `onnxruntime`, `worker:<label>=<command line>`, ...; `None` when not recorded.
    pub value: Option<String>,
    /// The configuration the cause shows in, when its backend's default is not one of them.
    pub configuration: Option<String>,
}

impl How {
    /// For cause `c`, from the runs of its backend (the first one is its default
    /// configuration's).
    fn of(c: &Cause, runs: &[RunSummary]) -> How {
        let first = runs.iter().find(|r| r.backend == c.backend);
        let default = first.and_then(|r| r.configuration.as_ref());
        let configuration = match default {
            Some(d) if !c.configurations.contains(d) => c.configurations.first().cloned(),
            _ => None,
        };
        How {
            label: c.backend.clone(),
            value: first.and_then(|r| r.backend_value.clone()),
            configuration,
        }
    }
}

/// The onnxruntime session options of one of its worker's configurations.
fn ort_options(configuration: Option<&str>) -> String {
    let c = configuration.unwrap_or("optimized-1-thread");
    let level = match c.starts_with("unoptimized") {
        true => "ORT_DISABLE_ALL",
        false => "ORT_ENABLE_ALL",
    };
    let threads = if c.ends_with("all-threads") { 0 } else { 1 };
    format!(
        "o = ort.SessionOptions()  # configuration {c}\n\
         o.graph_optimization_level = ort.GraphOptimizationLevel.{level}\n\
         o.intra_op_num_threads = {threads}\n"
    )
}

/// A script of at most 20 lines that runs the reproducer directory on the runtime through its
/// own Python API, printing expected and actual bits; for a runtime the project reaches only
/// through a worker or in-process, the command that runs the directory.
pub fn script(how: &How) -> String {
    let load = "import onnx\nfrom onnx import numpy_helper as nh\n\
                m = onnx.load(\"model.onnx\")\n\
                ins = [onnx.load_tensor(f\"test_data_set_0/input_{k}.pb\") for k in range(len(m.graph.input))]\n\
                want = onnx.load_tensor(\"test_data_set_0/output_0.pb\")\n";
    let show = "print(\"expected\", nh.from_array(nh.to_array(want)).raw_data.hex())\n\
                print(\"actual  \", got.hex())";
    let configuration = how.configuration.as_deref();
    match how.label.as_str() {
        "onnxruntime" => format!(
            "python\n{load}import ctypes, onnxruntime as ort\n\
             feeds = {{}}\n\
             for i, t in zip(m.graph.input, ins):\n\
             \x20   v = ort.OrtValue.ortvalue_from_shape_and_type(list(t.dims), t.data_type)\n\
             \x20   raw = t.raw_data or nh.from_array(nh.to_array(t)).raw_data\n\
             \x20   ctypes.memmove(v.data_ptr(), raw, len(raw))\n\
             \x20   feeds[i.name] = v\n\
             {}\
             s = ort.InferenceSession(\"model.onnx\", o, providers=[\"CPUExecutionProvider\"])\n\
             y = s.run_with_ort_values([m.graph.output[0].name], feeds)[0]\n\
             got = ctypes.string_at(y.data_ptr(), y.tensor_size_in_bytes())\n{show}",
            ort_options(configuration)
        ),
        "reference" => format!(
            "python\n{load}from onnx.reference import ReferenceEvaluator\n\
             feeds = {{i.name: nh.to_array(t) for i, t in zip(m.graph.input, ins)}}\n\
             got = nh.from_array(ReferenceEvaluator(m).run(None, feeds)[0]).raw_data\n{show}"
        ),
        "openvino" => format!(
            "python\n{load}import openvino as ov\n\
             core = ov.Core()\n\
             {}\
             compiled = core.compile_model(\"model.onnx\", \"CPU\")\n\
             got = nh.from_array(compiled([nh.to_array(t) for t in ins])[0]).raw_data\n{show}",
            match configuration {
                Some("default-precision") => "",
                _ => "core.set_property(\"CPU\", {\"INFERENCE_PRECISION_HINT\": \"f32\"})\n",
            }
        ),
        "onnx-backend" => format!(
            "python\n{load}import importlib\n\
             backend = importlib.import_module(\"your_runtime.backend\")  # as given to --backend onnx-backend:\n\
             rep = backend.prepare(m, \"CPU\")\n\
             got = nh.from_array(rep.run([nh.to_array(t) for t in ins])[0]).raw_data\n{show}"
        ),
        label => {
            let value = how
                .value
                .clone()
                .unwrap_or_else(|| format!("worker:{label}=<its command>"));
            let configuration =
                configuration.map_or(String::new(), |c| format!(" --configuration {c}"));
            format!(
                "sh\n# {label} runs through onnx-conformance; in this directory, with the command \
                 installed (cargo install ... onnx-conformance-cli):\n\
                 ONNX_BACKEND_DATA=\"$PWD\" onnx-conformance run --strict{configuration} \\\n\
                 \x20 --out \"${{TMPDIR:-/tmp}}/{label}-reproducer\" \\\n\
                 \x20 --backend {} custom/",
                shlex::try_quote(&value).map_or(value.clone(), |q| q.into_owned())
            )
        }
    }
}

#[cfg(test)]
mod tests;

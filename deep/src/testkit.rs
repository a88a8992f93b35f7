//! Findings of the deep suite built by hand, for the renderer's and the reproducers' tests.

use crate::findings::{
    Diagnosis, Example, Finding, FindingClass, Findings, RunSummary, Value, Verdict,
};
use crate::index::{Authority, Citation, Section};

/// A value whose bits and decoded form are given.
pub fn value(bits: &str, decoded: &str) -> Value {
    Value {
        bits: bits.into(),
        decoded: decoded.into(),
    }
}

/// A finding of `backend` for `from` → `to` with `verdict`: a class that ran (one example,
/// a citation of §3.3) for the verdicts of an authority, a refusal with a message otherwise.
pub fn finding(backend: &str, from: &str, to: &str, verdict: Verdict) -> Finding {
    let authority = match verdict {
        Verdict::Disagrees => Some(Authority::Page),
        Verdict::DiffersFromData => Some(Authority::Data),
        Verdict::DiffersFromReading => Some(Authority::Reading),
        _ => None,
    };
    let ran = authority.is_some();
    Finding {
        backend: backend.into(),
        runtime_version: "1.0".into(),
        op: vocab::OpKind::Cast,
        op_versions: vec![19, 21],
        from: vocab::DataType::from_name(from).expect("a type name"),
        to: vocab::DataType::from_name(to).expect("a type name"),
        attributes: vec![crate::index::CaseAttribute::Saturate(false)],
        input_class: FindingClass::parse(if ran { "tie" } else { verdict.label() })
            .expect("a finding class"),
        elements: usize::from(ran) * 4,
        cases: vec![format!("cast19_{from}_to_{to}")],
        examples: match ran {
            true => vec![Example {
                index: 7,
                input: value("0x3f900000", "1.125"),
                expected: value("0x3c", "1.0"),
                actual: value("0x3d", "1.25"),
                source: None,
            }],
            false => Vec::new(),
        },
        authority,
        citation: authority.map(|a| Citation {
            section: Section::NarrowerFloat,
            rule: "into FLOAT8E4M3FN the value rounds once, to nearest even".into(),
            source: match a {
                Authority::Data => "test_cast_FLOAT_to_FLOAT8E4M3FN (1.16.2, 1.17.0)".into(),
                _ => "https://github.com/onnx/onnx/blob/main/docs/Changelog.md#Cast-19".into(),
            },
        }),
        diagnosis: None,
        section: Section::NarrowerFloat,
        reproducer: format!("cast19_{from}_to_{to}"),
        source_case: format!("cast19_{from}_to_{to}"),
        verdict,
        message: (!ran).then(|| format!("{to} is not supported")),
        configurations: Vec::new(),
    }
}

/// A finding diagnosed with `behaviour`.
pub fn diagnosed(mut f: Finding, behaviour: crate::findings::diagnosis::Behaviour) -> Finding {
    f.diagnosis = Some(Diagnosis {
        behaviour,
        text: behaviour.text().into(),
    });
    f
}

/// `findings` of the backends in `runs`, grouped into causes as `cargo xtask deep` does.
pub fn all(runs: &[&str], findings: Vec<Finding>) -> Findings {
    Findings {
        tree_sha256: "ab".repeat(32),
        runs: runs
            .iter()
            .map(|b| RunSummary {
                backend: b.to_string(),
                runtime_version: "1.0".into(),
                trials: 100,
                failed: findings.iter().filter(|f| f.backend == *b).count(),
                filters: Vec::new(),
                configuration: None,
                backend_value: None,
            })
            .collect(),
        causes: crate::findings::causes_of(&findings),
        findings,
    }
}

/// The workspace this crate sits in (docs/semantics.md is read from it).
pub fn root() -> std::path::PathBuf {
    let deep = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    deep.parent().unwrap_or(deep).to_path_buf()
}

/// The planned cases `names` written as a tree under `out` as [`crate::write`] writes the
/// whole one (files, per-file hashes, index) by the sources `fingerprint`; returns its index.
pub fn small_tree(out: &std::path::Path, names: &[&str], fingerprint: &str) -> crate::index::Index {
    let plans = crate::generate::plan::plans();
    let generated = names
        .iter()
        .map(|name| {
            let (name, plan) = plans
                .iter()
                .find(|(n, _)| n == name)
                .expect("a planned case");
            let (entry, graph) = crate::generate::plan::build(name, plan);
            crate::hashed(
                entry,
                crate::generate::model::files(name, &graph).expect("its files"),
            )
        })
        .collect();
    crate::store(out, fingerprint.into(), generated).expect("the tree is written");
    crate::index::read_index_at(out).expect("its index")
}

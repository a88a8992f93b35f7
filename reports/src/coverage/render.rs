//! The coverage Markdown: the README summary (one row per operator version) and the detailed
//! `docs/coverage.md` (a source × target matrix per version).

use super::measure::{Pair, VersionCoverage};
use super::{matrix_order, pair_name};
use onnx_conformance::formats::sweeps::SWEEPS;
use onnx_conformance::formats::Generation;
use std::collections::BTreeMap;
use std::fmt::Write;
use vocab::version::{AttrDefault, AttrKind, AttrSpec};
use vocab::DataType;
use vocab::OpKind;

/// The README section: the summary table and its legend.
pub fn summary(coverage: &[VersionCoverage]) -> String {
    let mut out = String::from(
        "| operator version | types allowed | pairs supported / allowed | official data: pairs (trials) | own cases: pairs (trials) | exhaustive tests: pairs | attributes |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for (i, v) in coverage.iter().enumerate() {
        let previous = i
            .checked_sub(1)
            .and_then(|p| coverage.get(p))
            .filter(|p| p.version().op() == v.version().op());
        let exhaustive = match v.version().op() {
            OpKind::Concat => "—".to_owned(),
            _ => v.exhaustive.len().to_string(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} / {} | {} | {} | {} | {} |",
            v.version(),
            types_cell(v, previous),
            v.supported.len(),
            v.allowed.len(),
            counted(&v.official),
            counted(&v.own),
            exhaustive,
            attributes(v.spec.attrs),
        );
    }
    out.push_str(LEGEND);
    out
}

const LEGEND: &str = "
- **types allowed**: the operator page's type list for that version, as the implementation's
  version table (`vocab/src/version.rs`) holds it; \"as X + ...\" names the types added since X.
- **pairs**: (input type, target type) for Cast (`to`) and CastLike (the type of
  `target_type`); for Concat, the one type T.
- **supported** is measured, not claimed: `cargo xtask coverage` runs every allowed pair
  through `ops::run` on a small tensor (zeros, fractions, NaN, infinities) and checks the
  output's type and shape. Any rejected pair is listed in `docs/coverage.md`.
- **official data** and **own cases**: distinct pairs among the passing trials of the last
  conformance run (`target/onnx-conformance/report.json`), from the official releases and from
  `tests/cases`; in parentheses the number of trials.
- **exhaustive tests**: pairs that a sweep of the format tests checks against the slow
  reference for every source value, every code, or every rounding boundary of the target, on
  the version's side of the version-24 switch. The list of sweeps (`src/formats/sweeps.rs`)
  is the one the tests assert they run. Concat has property tests, no sweeps.
- Per-pair matrices: [`docs/coverage.md`](docs/coverage.md). Refresh both after a full
  conformance run with `cargo xtask coverage`; `cargo xtask coverage --check` fails if either
  is stale.
";

/// "12: FLOAT, ..." for an operator's first version, "14: as Cast-9 + BFLOAT16" after it.
fn types_cell(v: &VersionCoverage, previous: Option<&VersionCoverage>) -> String {
    let types = v.spec.types;
    let count = types.iter().count();
    let Some(p) = previous else {
        return format!("{count}: {}", types.names());
    };
    let added: Vec<&str> = types
        .iter()
        .filter(|&t| !p.spec.types.contains(t))
        .map(DataType::name)
        .collect();
    match added.is_empty() {
        true => format!("{count}: as {}", p.version()),
        false => format!("{count}: as {} + {}", p.version(), added.join(", ")),
    }
}

/// "27 (180)": distinct pairs and trials; "0" when none.
fn counted(pairs: &BTreeMap<Pair, usize>) -> String {
    match pairs.values().sum::<usize>() {
        0 => "0".to_owned(),
        trials => format!("{} ({trials})", pairs.len()),
    }
}

/// The version's attributes, as in "`to` INT (type code), required; `saturate` INT, 1".
fn attributes(attrs: &[AttrSpec]) -> String {
    if attrs.is_empty() {
        return "none".to_owned();
    }
    let one = |a: &AttrSpec| {
        let what = match a.kind {
            AttrKind::TypeName => " (type name)",
            AttrKind::TypeCode => " (type code)",
            AttrKind::Axis { negative: true } => " (may be negative)",
            AttrKind::Axis { negative: false } => " (not negative)",
            AttrKind::Flag | AttrKind::RoundMode => "",
        };
        let default = match a.default {
            AttrDefault::Required => "required".to_owned(),
            AttrDefault::Int(i) => format!("default {i}"),
            AttrDefault::Str(s) => format!("default {s}"),
        };
        format!("`{}` {}{what}, {default}", a.name, a.kind.proto_type())
    };
    attrs.iter().map(one).collect::<Vec<_>>().join("; ")
}

/// The cell of a pair: `O` official, `c` own case, `x` exhaustive, `·` supported only,
/// `!` allowed but rejected, blank when not allowed.
fn cell(v: &VersionCoverage, pair: Pair) -> String {
    if !v.allowed.contains(&pair) {
        return String::new();
    }
    let mut s = String::new();
    if !v.supported.contains(&pair) {
        s.push('!');
    }
    for (on, letter) in [
        (v.official.contains_key(&pair), 'O'),
        (v.own.contains_key(&pair), 'c'),
        (v.exhaustive.contains(&pair), 'x'),
    ] {
        if on {
            s.push(letter);
        }
    }
    if s.is_empty() {
        s.push('·');
    }
    s
}

/// The short name of a type in matrix headers.
fn abbr(t: DataType) -> &'static str {
    t.short_name()
}

/// `types` in matrix order.
fn ordered(types: impl Fn(DataType) -> bool) -> Vec<DataType> {
    matrix_order().into_iter().filter(|&t| types(t)).collect()
}

/// The whole `docs/coverage.md`.
pub fn details(coverage: &[VersionCoverage]) -> String {
    let mut out = String::from(DETAILS_HEAD);
    out.push_str("\n| short | type |\n|---|---|\n");
    for t in matrix_order() {
        let _ = writeln!(out, "| {} | {t} |", abbr(t));
    }
    out.push_str(
        "\n## Exhaustive sweeps\n\n`src/formats/sweeps.rs`; each sweep's test asserts that \
         it checks exactly these pairs.\n\n| test | what | sources | targets | versions |\n|---|---|---|---|---|\n",
    );
    for s in SWEEPS {
        let names = |ts: &[DataType]| ts.iter().map(|&t| abbr(t)).collect::<Vec<_>>().join(", ");
        let versions = match s.generations {
            [Generation::From24] => "24 and later",
            _ => "all",
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {versions} |",
            s.test,
            s.what,
            names(s.sources),
            names(s.targets)
        );
    }
    for v in coverage
        .iter()
        .filter(|v| v.version().op() != OpKind::Concat)
    {
        cast_section(&mut out, v);
    }
    concat_section(&mut out, coverage);
    out
}

const DETAILS_HEAD: &str = "# Type-pair coverage per operator version

Generated by `cargo xtask coverage` (do not edit); the summary is in the README's Coverage
section, whose legend explains the sources. Cells:

- `O`: exercised by a passing official trial;
- `c`: exercised by a passing trial of our own cases (`tests/cases`);
- `x`: checked by an exhaustive sweep of the format tests;
- `·`: supported (runs through `ops::run`), exercised by none of the above;
- `!`: allowed by the version but rejected by `ops::run` (a bug);
- blank: not allowed by the version.

Cast and CastLike: rows are the input type, columns the target type; only the version's
types are shown. Concat: one row per version, one column per type.
";

/// One Cast or CastLike version: its numbers, any rejected pair, and its matrix.
fn cast_section(out: &mut String, v: &VersionCoverage) {
    let _ = writeln!(out, "\n## {}\n", v.version());
    let _ = writeln!(
        out,
        "{} of {} pairs supported; official data {}, own cases {}, exhaustive {}. Attributes: {}.",
        v.supported.len(),
        v.allowed.len(),
        v.official.len(),
        v.own.len(),
        v.exhaustive.len(),
        attributes(v.spec.attrs)
    );
    rejected_list(out, v);
    let types = ordered(|t| v.spec.types.contains(t));
    let header: Vec<&str> = types.iter().map(|&t| abbr(t)).collect();
    let _ = writeln!(out, "\n| from \\ to | {} |", header.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(types.len()));
    for &s in &types {
        let cells: Vec<String> = types.iter().map(|&t| cell(v, (s, t))).collect();
        let _ = writeln!(out, "| **{}** | {} |", abbr(s), cells.join(" | "));
    }
}

/// Concat: one row per version over every type some Concat version allows.
fn concat_section(out: &mut String, coverage: &[VersionCoverage]) {
    let concat: Vec<&VersionCoverage> = coverage
        .iter()
        .filter(|v| v.version().op() == OpKind::Concat)
        .collect();
    let types = ordered(|t| concat.iter().any(|v| v.spec.types.contains(t)));
    let header: Vec<&str> = types.iter().map(|&t| abbr(t)).collect();
    out.push_str("\n## Concat\n\n");
    for v in &concat {
        let _ = writeln!(
            out,
            "- {}: {} of {} types supported; official data {}, own cases {}. Attributes: {}.",
            v.version(),
            v.supported.len(),
            v.allowed.len(),
            v.official.len(),
            v.own.len(),
            attributes(v.spec.attrs)
        );
        rejected_list(out, v);
    }
    let _ = writeln!(out, "\n| version | {} |", header.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(types.len()));
    for v in &concat {
        let cells: Vec<String> = types.iter().map(|&t| cell(v, (t, t))).collect();
        let _ = writeln!(out, "| **{}** | {} |", v.version(), cells.join(" | "));
    }
}

/// The allowed pairs `ops::run` rejected, with the error (expected to be none).
fn rejected_list(out: &mut String, v: &VersionCoverage) {
    for (pair, error) in &v.rejected {
        let _ = writeln!(out, "\n- **rejected**: {}: {error}", pair_name(*pair));
    }
}

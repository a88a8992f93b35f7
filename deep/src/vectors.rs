//! Test vectors (docs/vectors.md): the deep suite's answers as plain text that any converter
//! can be judged by, with no ONNX model involved. [`export`] writes one file per operator
//! version, pair and attributes, lines `input expected authority/class`, at a level from the
//! deep tree's values to every code of a 32-bit source, split into shards if asked; [`check`]
//! reads the same lines with an `observed` column and groups and diagnoses the mismatches as
//! the findings do.
//!
//! Layers, lowest first: units (what a file is); elements (its inputs, tags and expected
//! values, from the generator); line (the text); export; check; through (a level run through
//! a runtime, [`run`], and shards' findings merged, [`merge`]).

mod check;
mod elements;
mod export;
mod line;
mod through;
mod units;

pub use check::{check, render, Group, Report};
pub use export::{export, plan, Planned, Summary, SUMS};
pub use through::{
    merge, merge_timings, publish, read, render as render_run, run, RunFindings, RunGroup, Runs,
    Timing, Timings, UnitResult,
};
pub use units::{Filter, Level, Options, Shard, DEFAULT_SAMPLE};

#[cfg(test)]
mod tests;

//! A level through a runtime (`onnx-conformance vectors run`): each file's candidates fed to
//! a backend as one-node Cast models, in chunks of at most the elements the backend takes,
//! each chunk's outputs compared with ours bit for bit (any NaN matching any NaN in a floating
//! target), and the mismatches grouped and diagnosed as `vectors check` groups them.
//!
//! Every code of a 32-bit source is 2^32 elements a file; classing one costs microseconds,
//! comparing one nanoseconds. So a chunk is compared whole, and only its mismatches are
//! classed and diagnosed, at most [`JUDGED_PER_BLOCK`] per aligned block of [`BLOCK`]
//! candidates: the rest are counted (`unjudged`), never dropped. The budget depends on the
//! candidate's index alone, and an exhaustive shard is a run of whole blocks, so shards
//! merged ([`merge`]) give the unsharded findings exactly.

use super::check::{diagnose, pair_label};
use super::elements::{expected_tensor, Classifier, Items, Source, Tag};
use super::export::item;
use super::units::{self, Options, Part, Shard, Unit};
use crate::findings::diagnosis::Behaviour;
use crate::findings::Verdict;
use crate::generate::model;
use crate::generate::run as codes;
use crate::generate::values::{self, Val};
use crate::index::{Authority, InputClass};
use crate::Error;
use harness::backend::{Backend, ModelFile};
use harness::read::{codes_at, differing_codes_kept, tensor_from_codes};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;
use vocab::{DataType, Storage, Tensor, TypeKind};

/// Candidates per budget block of an exhaustive file.
pub const BLOCK: u64 = 1 << 16;

/// Mismatches classed and diagnosed per block; the others are counted.
pub const JUDGED_PER_BLOCK: u64 = 64;

/// Inputs a group lists: all of them when it holds at most this many.
pub const LISTED: usize = 16;

/// Elements per chunk when the backend declares no `max_elements`.
pub const DEFAULT_CHUNK: u64 = 1 << 20;

/// The findings file's format.
const FORMAT: u32 = 1;

/// What a run (or shards merged) found: deterministic, so that shards merged equal the
/// unsharded run byte for byte. How long it took is in [`Timing`], apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFindings {
    /// The format of this file.
    pub format: u32,
    /// The backend, as the run named it.
    pub backend: String,
    /// The runtime and its version, as the backend says.
    pub runtime: String,
    /// The configuration it ran in, when it declares several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
    /// What was run: level, filters, sample and seed.
    pub selection: String,
    /// The shard, `K/N` (`1/1` for a whole run and for all shards merged).
    pub shard: String,
    /// Each file's counts, in the export's order.
    pub units: Vec<UnitResult>,
    /// The mismatches grouped, in file, authority, class and diagnosis order.
    pub groups: Vec<RunGroup>,
}

/// One file of the level: its candidates in this shard and what became of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitResult {
    /// The vector file's name (`vectors export` writes the same file).
    pub file: String,
    /// The operator version, pair and attributes.
    pub pair: String,
    /// Candidates fed.
    pub candidates: u64,
    /// Outputs that differ from ours.
    pub mismatches: u64,
    /// Of those, at inputs whose result the spec leaves undefined: not judged.
    pub undefined: u64,
    /// Of those, beyond the budget of a block: counted, not classed.
    pub unjudged: u64,
    /// Why the runtime gave no outputs (the rest of the file was not fed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// An exhaustive file's judged-or-counted mismatches (undefined inputs left out) as runs
    /// of consecutive input codes: where a defect lives, in a few lines.
    #[serde(default, skip_serializing_if = "Runs::is_empty")]
    pub runs: Runs,
}

/// Runs of consecutive codes, kept in bounded memory whatever their number: the first
/// [`RUNS`], the last, and how many in all. Built code by code in increasing order, and
/// shards' runs appended in shard order give the whole's exactly (a run cut by a shard
/// boundary joins again).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Runs {
    /// The first runs, each `[first, last]` inclusive.
    pub first: Vec<[u64; 2]>,
    /// The last run.
    pub last: Option<[u64; 2]>,
    /// How many runs in all.
    pub count: u64,
}

/// Runs a file's findings list.
pub const RUNS: usize = 32;

impl Runs {
    /// Whether there is no run.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Adds codes `a..=b`, all above every code added before.
    fn push(&mut self, a: u64, b: u64) {
        match &mut self.last {
            Some(l) if l[1] + 1 == a => {
                l[1] = b;
                // The last run is also the list's last while the list holds every run.
                if self.count as usize <= RUNS {
                    if let Some(f) = self.first.last_mut() {
                        f[1] = b;
                    }
                }
            }
            _ => {
                self.count += 1;
                self.last = Some([a, b]);
                if self.first.len() < RUNS {
                    self.first.push([a, b]);
                }
            }
        }
    }

    /// Adds the runs of a later part (a shard's).
    fn append(&mut self, o: &Runs) {
        let Some(last) = o.last else {
            return;
        };
        for &[a, b] in &o.first {
            self.push(a, b);
        }
        let hidden = o.count - o.first.len() as u64;
        if hidden > 0 {
            self.count += hidden;
            self.last = Some(last);
        }
    }
}

/// Mismatches of one file, authority, class and diagnosis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunGroup {
    /// The vector file the elements are of.
    pub file: String,
    /// The operator version, pair and attributes.
    pub pair: String,
    /// What fixes the expected values.
    pub authority: Authority,
    /// What a difference from them says of the runtime.
    pub verdict: Verdict,
    /// The input class.
    pub class: InputClass,
    /// The known wrong behaviour that reproduces the observed bits, if one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<Behaviour>,
    /// Elements.
    pub elements: u64,
    /// The first [`LISTED`] in candidate order: input, expected, observed.
    pub inputs: Vec<[String; 3]>,
}

/// Where a run's time went, per file and in all: the harness's parts beside the runtime's.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Elements fed.
    pub elements: u64,
    /// Data sets (chunks) sent.
    #[serde(default)]
    pub chunks: u64,
    /// Seconds making the inputs.
    pub generate: f64,
    /// Seconds computing our outputs.
    pub expected: f64,
    /// Seconds of the backend calls, whole (files, pipes and the runtime).
    pub backend: f64,
    /// Of those, the runtime's own, as it says (a worker's `run_seconds`; an in-process
    /// backend's whole call); `None` when it does not.
    pub runtime: Option<f64>,
    /// Seconds comparing outputs.
    pub compare: f64,
    /// Seconds classing and diagnosing mismatches.
    pub judge: f64,
}

impl Timing {
    /// The harness's own seconds: everything but the runtime's (the whole backend call when
    /// the runtime's part is unknown).
    pub fn harness(&self) -> f64 {
        self.generate + self.expected + self.backend - self.runtime.unwrap_or(0.0)
            + self.compare
            + self.judge
    }

    /// Nothing yet, the runtime's part known (zero): what a sum starts from.
    fn zero() -> Timing {
        Timing {
            runtime: Some(0.0),
            ..Timing::default()
        }
    }

    /// Adds `o`; the runtime's part stays known only while every part says it.
    fn add(&mut self, o: &Timing) {
        self.runtime = self.runtime.zip(o.runtime).map(|(a, b)| a + b);
        self.elements += o.elements;
        self.chunks += o.chunks;
        self.generate += o.generate;
        self.expected += o.expected;
        self.backend += o.backend;
        self.compare += o.compare;
        self.judge += o.judge;
    }
}

/// A run's timing: per file, then the total.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// Per file, by name.
    pub units: BTreeMap<String, Timing>,
    /// All files.
    pub total: Timing,
}

impl Timings {
    /// No file yet, the total at [`Timing::zero`]: what a run or a merge adds to.
    fn zero() -> Timings {
        Timings {
            units: BTreeMap::new(),
            total: Timing::zero(),
        }
    }
}

/// Runs the files `opts` selects through `backend`, writing its models under `work` (which
/// must exist); progress through `say`.
pub fn run(
    backend: &dyn Backend,
    backend_name: &str,
    opts: &Options,
    work: &Path,
    say: &mut dyn FnMut(&str),
) -> Result<(RunFindings, Timings), Error> {
    let limits = backend.limits();
    let newest = limits
        .default_opset()
        .map(|o| u32::try_from(o).unwrap_or(u32::MAX));
    let all = units::units(opts.level, &opts.filter, newest);
    if all.is_empty() {
        return Err("no file matches the filters (at the opsets the runtime takes)".into());
    }
    let chunk = limits.max_elements.unwrap_or(DEFAULT_CHUNK).max(1);
    let info = backend.info();
    // Our outputs of a chunk are one call; one thread leaves the other cores to the runtime.
    onnx_conformance::tuning::set_threads(1);
    let mut found = RunFindings {
        format: FORMAT,
        backend: backend_name.to_string(),
        runtime: format!("{} {}", info.runtime, info.version),
        configuration: backend.configuration().map(|c| c.active),
        selection: selection(opts),
        shard: format!("{}/{}", opts.shard.index, opts.shard.count),
        units: Vec::new(),
        groups: Vec::new(),
    };
    let mut groups = Groups::new();
    let mut timings = Timings::zero();
    for unit in &all {
        let (result, timing) = run_unit(backend, unit, opts, chunk, work, &mut groups)?;
        if result.candidates == 0 {
            say(&format!(
                "vectors run: {}: shard {}/{} holds no candidate of this file (an exhaustive \
                 shard is whole blocks of {BLOCK}: use at most {} shards)",
                result.pair,
                opts.shard.index,
                opts.shard.count,
                (1u64 << unit.from.bit_width()) / BLOCK
            ));
        }
        say(&format!(
            "vectors run: {}: {} candidates in {} chunks, {} mismatches{}; {:.1} s, runtime {}",
            result.pair,
            result.candidates,
            timing.chunks,
            result.mismatches,
            result
                .failure
                .as_ref()
                .map_or(String::new(), |f| format!(", stopped: {f}")),
            timing.harness() + timing.runtime.unwrap_or(0.0),
            timing
                .runtime
                .map_or("unknown".to_string(), |r| format!("{r:.1} s")),
        ));
        timings.total.add(&timing);
        timings.units.insert(result.file.clone(), timing);
        found.units.push(result);
    }
    found.groups = groups.into_values().collect();
    Ok((found, timings))
}

/// The candidates `[start, end)` of a unit in `shard`: an exhaustive file's shard is whole
/// blocks, so that the budget of a block is spent in one shard.
fn shard_range(unit: &Unit, shard: Shard, total: u64) -> (u64, u64) {
    if unit.part == Part::Exhaustive {
        let (a, b) = shard.range(total.div_ceil(BLOCK));
        ((a * BLOCK).min(total), (b * BLOCK).min(total))
    } else {
        shard.range(total)
    }
}

/// Groups by file, authority, class and diagnosis: each file's elements come in candidate
/// order, within one run and across shards, so the first [`LISTED`] are the same either way.
type Groups = BTreeMap<(String, Authority, InputClass, Option<Behaviour>), RunGroup>;

fn run_unit(
    backend: &dyn Backend,
    unit: &Unit,
    opts: &Options,
    chunk: u64,
    work: &Path,
    groups: &mut Groups,
) -> Result<(UnitResult, Timing), Error> {
    let source = Source::new(unit, opts.seed, opts.sample);
    let (start, end) = shard_range(unit, opts.shard, source.total());
    let mut result = UnitResult {
        file: unit.file_name(),
        pair: pair_label(unit),
        candidates: end - start,
        mismatches: 0,
        undefined: 0,
        unjudged: 0,
        failure: None,
        runs: Runs::default(),
    };
    let mut timing = Timing::zero();
    let classifier = Classifier::new(unit);
    let mut budget = Budget::default();
    // One model per chunk length, loaded once: its file names the unit and the length.
    let mut loaded: Option<(usize, harness::case::Model, std::path::PathBuf)> = None;
    let mut spare = None;
    let mut spare_ours = None;
    let mut at = start;
    while at < end {
        let upto = (at + chunk).min(end);
        let t = Instant::now();
        let (x, tags) = match unit.part {
            Part::Exhaustive => (every_code(unit.from, at, upto, spare.take())?, None),
            _ => {
                let (c, _) = source.chunk(at, upto);
                (c.inputs.tensor(unit.from)?, Some(c.tags))
            }
        };
        timing.generate += t.elapsed().as_secs_f64();
        let n = x.len();
        if n == 0 {
            at = upto;
            continue;
        }
        let t = Instant::now();
        let ours = expected_in_parts(unit, &x, spare_ours.take())?;
        timing.expected += t.elapsed().as_secs_f64();
        let t = Instant::now();
        // The model is an input too: its time is the harness's.
        if loaded.as_ref().is_none_or(|(len, _, _)| *len != n) {
            let graph = unit.graph(x.clone());
            let m = model::model("vectors", &graph);
            let stem = result.file.trim_end_matches(".txt");
            let path = work.join(format!("{stem}-{n}.onnx"));
            let bytes = harness::write::model::encode(&m, harness::write::Encoding::Onnx);
            std::fs::write(&path, bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            loaded = Some((n, m, path));
        }
        timing.generate += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (_, m, path) = loaded.as_ref().expect("set above");
        let fed = match unit.spec.op() {
            vocab::OpKind::CastLike => vec![x, crate::generate::plan::like(unit.to)],
            _ => vec![x],
        };
        let answer = backend
            .prepare(ModelFile { path, model: m })
            .and_then(|p| p.run_timed(&fed));
        timing.backend += t.elapsed().as_secs_f64();
        let (mut outputs, runtime) = match answer {
            Ok(a) => a,
            Err(f) => {
                result.failure = Some(format!("{}: {}", f.kind.label(), f.message));
                break;
            }
        };
        timing.runtime = timing.runtime.zip(runtime).map(|(a, b)| a + b);
        timing.elements += n as u64;
        timing.chunks += 1;
        let t = Instant::now();
        let theirs = outputs.swap_remove(0);
        // Every code of a source feeds inputs the spec leaves undefined (a negative value into
        // FLOAT8E8M0: half of them): counted, never judged, and set apart as they are found,
        // before anything costs more than a look at the input.
        let differ = match tags {
            Some(_) => differing_codes_kept(&ours, &theirs, |_| true),
            None => differing_codes_kept(&ours, &theirs, |i| defined_at(&fed[0], unit.to, i)),
        };
        let Some((bad, undefined)) = differ else {
            result.failure = Some(format!(
                "the output is {} of shape {:?}, not {} of shape [{n}]",
                theirs.dtype().name(),
                theirs.shape(),
                unit.to.name()
            ));
            break;
        };
        result.mismatches += undefined;
        result.undefined += undefined;
        let bad = not_both_nan(unit.to, &ours, &theirs, bad);
        timing.compare += t.elapsed().as_secs_f64();
        if !bad.is_empty() {
            let t = Instant::now();
            let x = &fed[0];
            judge(
                unit,
                &classifier,
                Mismatches {
                    first: at,
                    bad: &bad,
                    inputs: x,
                    ours: &ours,
                    theirs: &theirs,
                    tags: tags.as_deref(),
                },
                &mut budget,
                &mut result,
                groups,
            )?;
            timing.judge += t.elapsed().as_secs_f64();
        }
        spare = fed.into_iter().next().map(|x| x.into_parts().1);
        backend.recycle(vec![theirs]);
        spare_ours = Some(ours.into_parts().1);
        at = upto;
    }
    let _ = loaded.map(|(_, _, path)| std::fs::remove_file(path));
    Ok((result, timing))
}

/// Our outputs for `x`, computed [`PART`] elements at a time and gathered in `spare`'s memory
/// (an earlier chunk's outputs): a chunk's outputs in fresh memory, tens of megabytes, cost
/// more in page faults than computing them (2 ns an element into FLOAT16), where a part's
/// outputs are small enough for the allocator to hand the same memory back part after part.
pub(super) fn expected_in_parts(
    unit: &Unit,
    x: &Tensor,
    spare: Option<Storage>,
) -> Result<Tensor, String> {
    if x.len() <= PART {
        return expected_tensor(unit, x);
    }
    let mut all = match spare {
        Some(s) if s.dtype() == unit.to => s,
        _ => Storage::empty(unit.to),
    };
    vocab::with_storage!(&mut all, v => v.clear());
    vocab::with_storage!(x.storage(), v => {
        for part in v.chunks(PART) {
            let input = Tensor::from_vec(vec![part.len()], part.to_vec())
                .map_err(|e| e.to_string())?;
            let ours = expected_tensor(unit, &input)?.into_parts().1;
            vocab::with_storage!(&mut all, into => {
                let from = vocab::Element::slice(&ours)
                    .ok_or_else(|| format!("{}: our output is not {}", unit.file_name(), unit.to))?;
                into.extend_from_slice(from);
            });
        }
    });
    Tensor::new(vec![x.len()], all).map_err(|e| e.to_string())
}

/// Elements of a chunk our outputs are computed for at a time ([`expected_in_parts`]).
pub(super) const PART: usize = 1 << 20;

/// Every code `[start, end)` of a 32-bit source, as a tensor, in the storage of an earlier
/// chunk when there is one: fresh memory of tens of megabytes costs more in page faults than
/// filling it.
pub(super) fn every_code(
    from: DataType,
    start: u64,
    end: u64,
    spare: Option<Storage>,
) -> Result<Tensor, String> {
    fn fill<T>(spare: Option<Vec<T>>, codes: impl Iterator<Item = T>) -> Vec<T> {
        let mut v = spare.unwrap_or_default();
        v.clear();
        v.extend(codes);
        v
    }
    let n = (end - start) as usize;
    let storage = match (from, spare) {
        (DataType::Float, s) => Storage::Float(fill(
            match s {
                Some(Storage::Float(v)) => Some(v),
                _ => None,
            },
            (start..end).map(|c| f32::from_bits(c as u32)),
        )),
        (DataType::Int32, s) => Storage::Int32(fill(
            match s {
                Some(Storage::Int32(v)) => Some(v),
                _ => None,
            },
            (start..end).map(|c| c as u32 as i32),
        )),
        (DataType::Uint32, s) => Storage::Uint32(fill(
            match s {
                Some(Storage::Uint32(v)) => Some(v),
                _ => None,
            },
            (start..end).map(|c| c as u32),
        )),
        _ => {
            let codes: Vec<u128> = (start..end).map(u128::from).collect();
            return tensor_from_codes(from, vec![n], &codes).map_err(|e| e.to_string());
        }
    };
    Tensor::new(vec![n], storage).map_err(|e| e.to_string())
}

/// Whether the spec defines the result of element `i` of the 32-bit source `x` into `to`
/// (docs/semantics.md §3.11), by the generator's own rule, read straight from the tensor.
fn defined_at(x: &Tensor, to: DataType, i: usize) -> bool {
    let v = match x.storage() {
        Storage::Float(v) => Val::Float(f64::from(v[i])),
        Storage::Int32(v) => Val::Int(i128::from(v[i])),
        Storage::Uint32(v) => Val::Int(i128::from(v[i])),
        _ => return true,
    };
    values::defined(v, to)
}

/// `bad` without the indices where both outputs are NaN in a floating target.
fn not_both_nan(to: DataType, a: &Tensor, b: &Tensor, bad: Vec<usize>) -> Vec<usize> {
    if to.kind() != TypeKind::Float || bad.is_empty() {
        return bad;
    }
    let (Some(x), Some(y)) = (codes_at(a, &bad), codes_at(b, &bad)) else {
        return bad;
    };
    let (x, y) = (codes::decode(to, &x), codes::decode(to, &y));
    bad.into_iter()
        .enumerate()
        .filter(|&(k, _)| !(x[k].is_nan() && y[k].is_nan()))
        .map(|(_, i)| i)
        .collect()
}

/// The elements at `at` of `t`.
fn items_at(t: &Tensor, at: &[usize]) -> Items {
    match t.storage() {
        Storage::String(s) => Items::Strings(at.iter().map(|&i| s[i].clone()).collect()),
        _ => Items::Codes(codes_at(t, at).expect("a numeric tensor")),
    }
}

/// The block being judged and how many of its mismatches were.
#[derive(Default)]
struct Budget {
    block: Option<u64>,
    spent: u64,
}

impl Budget {
    /// Whether the mismatch at candidate `index` is judged.
    fn take(&mut self, index: u64) -> bool {
        let block = index / BLOCK;
        if self.block != Some(block) {
            (self.block, self.spent) = (Some(block), 0);
        }
        self.spent += 1;
        self.spent <= JUDGED_PER_BLOCK
    }
}

/// A chunk's mismatches: indices into the chunk, whose first candidate is `first`.
struct Mismatches<'a> {
    first: u64,
    bad: &'a [usize],
    inputs: &'a Tensor,
    ours: &'a Tensor,
    theirs: &'a Tensor,
    tags: Option<&'a [Tag]>,
}

fn judge(
    unit: &Unit,
    classifier: &Classifier,
    m: Mismatches<'_>,
    budget: &mut Budget,
    result: &mut UnitResult,
    groups: &mut Groups,
) -> Result<(), Error> {
    result.mismatches += m.bad.len() as u64;
    let mut keep = Vec::new();
    match m.tags {
        // A value set or a sample holds defined inputs only, each tagged; it is small enough
        // to judge whole.
        Some(_) => keep.extend_from_slice(m.bad),
        // Every code: the inputs are defined ones (the others were counted apart).
        None => {
            for &i in m.bad {
                let code = m.first + i as u64;
                result.runs.push(code, code);
                if budget.take(code) {
                    keep.push(i);
                } else {
                    result.unjudged += 1;
                }
            }
        }
    }
    if keep.is_empty() {
        return Ok(());
    }
    let (inputs, expected, observed) = (
        items_at(m.inputs, &keep),
        items_at(m.ours, &keep),
        items_at(m.theirs, &keep),
    );
    let tags: Vec<Tag> = match m.tags {
        Some(t) => keep.iter().map(|&i| t[i]).collect(),
        None => classifier.tags(&inputs),
    };
    let causes = diagnose(unit, &inputs, &expected, &observed)?;
    for (k, tag) in tags.iter().enumerate() {
        let g = groups
            .entry((result.file.clone(), tag.authority, tag.class, causes[k]))
            .or_insert_with(|| RunGroup {
                file: result.file.clone(),
                pair: result.pair.clone(),
                authority: tag.authority,
                verdict: Verdict::of(tag.authority),
                class: tag.class,
                diagnosis: causes[k],
                elements: 0,
                inputs: Vec::new(),
            });
        g.elements += 1;
        if g.inputs.len() < LISTED {
            g.inputs.push([
                item(&inputs, unit.from, k),
                item(&expected, unit.to, k),
                item(&observed, unit.to, k),
            ]);
        }
    }
    Ok(())
}

/// What a run selected, in words: the level, the filters, the sample and the seed.
fn selection(opts: &Options) -> String {
    let f = &opts.filter;
    let mut s = format!(
        "level {}",
        match opts.level {
            units::Level::One => "1",
            units::Level::Two => "2",
            units::Level::Exhaustive => "exhaustive",
        }
    );
    if let Some(op) = f.op {
        s.push_str(&format!(" --op {op}"));
    }
    if let Some(v) = f.version {
        s.push_str(&format!(" --version {v}"));
    }
    if let Some(t) = f.from {
        s.push_str(&format!(" --from {}", t.name()));
    }
    if let Some(t) = f.to {
        s.push_str(&format!(" --to {}", t.name()));
    }
    if opts.level == units::Level::Two {
        s.push_str(&format!(" --sample {} --seed {}", opts.sample, opts.seed));
    }
    s
}

/// Merges the findings of shards `parts` (any order) into the whole run's: every shard
/// `1..N` of one run exactly once, each of the same backend, runtime, configuration and
/// selection, else an error naming what differs or what is missing.
pub fn merge(parts: Vec<RunFindings>) -> Result<RunFindings, Error> {
    let mut numbered = Vec::new();
    for p in parts {
        let shard = Shard::parse(&p.shard).map_err(|e| format!("a shard's findings: {e}"))?;
        numbered.push((shard, p));
    }
    numbered.sort_by_key(|(s, _)| s.index);
    let Some((first, head)) = numbered.first() else {
        return Err("no findings to merge".into());
    };
    let count = first.count;
    let same = |p: &RunFindings| {
        (
            p.format,
            &p.backend,
            &p.runtime,
            &p.configuration,
            &p.selection,
        ) == (
            head.format,
            &head.backend,
            &head.runtime,
            &head.configuration,
            &head.selection,
        )
    };
    for (k, (s, p)) in numbered.iter().enumerate() {
        if s.count != count || !same(p) {
            let run = |p: &RunFindings, s: &Shard| {
                format!(
                    "shard {}/{}: backend {}, {}{}, {}",
                    s.index,
                    s.count,
                    p.backend,
                    p.runtime,
                    p.configuration
                        .as_ref()
                        .map_or(String::new(), |c| format!(" in configuration {c}")),
                    p.selection
                )
            };
            return Err(format!(
                "two runs, not shards of one: {}; {}",
                run(head, first),
                run(p, s)
            )
            .into());
        }
        if s.index != k as u64 + 1 {
            let missing = if s.index > k as u64 + 1 {
                format!("shard {}/{count} is missing", k + 1)
            } else {
                format!("shard {}/{count} is given twice", s.index)
            };
            return Err(missing.into());
        }
    }
    if numbered.len() as u64 != count {
        return Err(format!("shard {}/{count} is missing", numbered.len() + 1).into());
    }
    let mut units: Vec<UnitResult> = Vec::new();
    let mut groups = Groups::new();
    for (_, p) in &numbered {
        for u in &p.units {
            match units.iter_mut().find(|m| m.file == u.file) {
                Some(m) => {
                    m.candidates += u.candidates;
                    m.mismatches += u.mismatches;
                    m.undefined += u.undefined;
                    m.unjudged += u.unjudged;
                    if m.failure.is_none() {
                        m.failure.clone_from(&u.failure);
                    }
                    m.runs.append(&u.runs);
                }
                None => units.push(u.clone()),
            }
        }
        for g in &p.groups {
            let key = (g.file.clone(), g.authority, g.class, g.diagnosis);
            match groups.get_mut(&key) {
                Some(m) => {
                    m.elements += g.elements;
                    let room = LISTED.saturating_sub(m.inputs.len());
                    m.inputs.extend(g.inputs.iter().take(room).cloned());
                }
                None => {
                    groups.insert(key, g.clone());
                }
            }
        }
    }
    let (_, head) = numbered.swap_remove(0);
    Ok(RunFindings {
        shard: "1/1".into(),
        units,
        groups: groups.into_values().collect(),
        ..head
    })
}

/// Merges shards' timings: per file and in all, summed.
pub fn merge_timings(parts: &[Timings]) -> Timings {
    let mut out = Timings::zero();
    for p in parts {
        for (name, t) in &p.units {
            out.units
                .entry(name.clone())
                .or_insert_with(Timing::zero)
                .add(t);
        }
        out.total.add(&p.total);
    }
    out
}

/// The findings as a Markdown page: the run, each file's counts, each group with its inputs
/// (all of them when few).
pub fn render(f: &RunFindings) -> String {
    let mut out = format!(
        "# vectors run: {} ({}{})\n\n{}, shard {}\n\n",
        f.backend,
        f.runtime,
        f.configuration
            .as_ref()
            .map_or(String::new(), |c| format!(", configuration {c}")),
        f.selection,
        f.shard
    );
    let mismatches: u64 = f.units.iter().map(|u| u.mismatches).sum();
    let candidates: u64 = f.units.iter().map(|u| u.candidates).sum();
    out.push_str(&format!(
        "{} files, {candidates} candidates, {mismatches} mismatches in {} groups\n\n",
        f.units.len(),
        f.groups.len()
    ));
    out.push_str(
        "| file | candidates | mismatches | undefined (not judged) | unjudged (over budget) | stopped |\n|---|---|---|---|---|---|\n",
    );
    for u in &f.units {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            u.pair,
            u.candidates,
            u.mismatches,
            u.undefined,
            u.unjudged,
            u.failure.as_deref().unwrap_or("")
        ));
    }
    for u in f.units.iter().filter(|u| !u.runs.is_empty()) {
        out.push_str(&format!(
            "\n{}: the mismatching inputs are {} run{} of consecutive codes: {}\n",
            u.pair,
            u.runs.count,
            if u.runs.count == 1 { "" } else { "s" },
            runs_text(u)
        ));
    }
    let mut last = "";
    for g in &f.groups {
        if g.file != last {
            out.push_str(&format!("\n## {} ({})\n\n", g.pair, g.file));
            last = &g.file;
        }
        let cause = g
            .diagnosis
            .map_or("no known behaviour reproduces it".to_string(), |b| {
                format!("{}: {}", b.label(), b.text())
            });
        let budgeted = f.units.iter().any(|u| u.file == g.file && u.unjudged > 0);
        out.push_str(&format!(
            "- {} ({}) {}: {} elements{}; {cause}\n",
            g.verdict.label(),
            g.authority.label(),
            g.class,
            g.elements,
            if budgeted {
                " judged (the file's other mismatches are counted `unjudged` above)"
            } else {
                ""
            }
        ));
        let shown = if g.elements as usize <= LISTED {
            "every input"
        } else {
            "the first inputs"
        };
        out.push_str(&format!("  {shown} (input expected observed):"));
        for [i, e, o] in &g.inputs {
            out.push_str(&format!(" `{i} {e} {o}`"));
        }
        out.push('\n');
    }
    out
}

/// The files a run (or a merge) writes into its directory.
const FINDINGS_FILE: &str = "findings.json";
const TIMING_FILE: &str = "timing.json";
const PAGE_FILE: &str = "findings.md";

/// Writes `found` and `timings` into `out` (created if missing): findings.json, timing.json
/// and findings.md, each written aside and all renamed into place together.
pub fn publish(out: &Path, found: &RunFindings, timings: &Timings) -> Result<(), Error> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut staged = schema::files::Staged::new();
    staged.add(&out.join(FINDINGS_FILE), json(found).as_bytes())?;
    staged.add(&out.join(TIMING_FILE), json(timings).as_bytes())?;
    staged.add(&out.join(PAGE_FILE), render(found).as_bytes())?;
    staged.commit()?;
    Ok(())
}

/// `v` as pretty JSON with a final newline.
fn json<T: Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("plain data serializes");
    s.push('\n');
    s
}

/// Reads the findings and timing a run wrote into `dir`; an error names the file.
pub fn read(dir: &Path) -> Result<(RunFindings, Timings), Error> {
    fn load<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "cannot read {}: {e} (a directory `vectors run --out` wrote)",
                path.display()
            )
        })?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()).into())
    }
    Ok((
        load(&dir.join(FINDINGS_FILE))?,
        load(&dir.join(TIMING_FILE))?,
    ))
}

/// A file's runs as input codes, `43f00000-43f7ffff`, the last after an ellipsis when not all
/// are listed.
fn runs_text(u: &UnitResult) -> String {
    let run = |[a, b]: [u64; 2]| match a == b {
        true => format!("{a:08x}"),
        false => format!("{a:08x}-{b:08x}"),
    };
    let mut parts: Vec<String> = u.runs.first.iter().map(|r| run(*r)).collect();
    if u.runs.count > u.runs.first.len() as u64 {
        parts.push("...".into());
        parts.extend(u.runs.last.map(run));
    }
    parts.join(", ")
}

#[cfg(test)]
impl Runs {
    /// The runs of `codes` (increasing), built as a run builds them.
    pub(crate) fn of(codes: &[u64]) -> Runs {
        let mut r = Runs::default();
        for &c in codes {
            r.push(c, c);
        }
        r
    }

    /// `parts` appended in order.
    pub(crate) fn joined(parts: &[Runs]) -> Runs {
        let mut r = Runs::default();
        for p in parts {
            r.append(p);
        }
        r
    }
}

//! With the `fuzzing` feature only: the fast Cast paths and the exact path, apart, for the
//! `fast_paths` fuzz target (`fuzz/`), which holds one to the other on random bits. Nothing
//! here is a second implementation: each function calls the one the operators use. Not an API
//! for runtimes.

use crate::dtype::{DataType, Storage};
use crate::error::Error;
use crate::formats::CastRules;
use crate::ops::{OpKind, OpVersion};
use crate::tuning::{Exec, SimdLevel};

/// How one fast call runs: what [`crate::tuning`]'s settings choose, with pieces of 64
/// elements so that small inputs are split over threads too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The SIMD cap (a level the CPU lacks runs the best one it has).
    pub level: SimdLevel,
    /// Threads, at least 1.
    pub threads: usize,
    /// Streaming stores for every output (else none).
    pub stream: bool,
}

impl Run {
    /// The kernels' settings for this run.
    fn exec(self) -> Exec {
        Exec {
            level: self.level.min(SimdLevel::detected()),
            threads: self.threads.max(1),
            min_per_thread: 64,
            stream_min_bytes: if self.stream { 0 } else { usize::MAX },
        }
    }
}

/// Every (source, target) pair a fast path serves under `rules`, found by asking the dispatch
/// with empty storages, so that a pair added to the dispatch is fuzzed without a list to keep.
pub fn fast_pairs(rules: &CastRules) -> Vec<(DataType, DataType)> {
    let exec = Run {
        level: SimdLevel::Baseline,
        threads: 1,
        stream: false,
    }
    .exec();
    let mut pairs = Vec::new();
    for &from in DataType::ALL {
        let source = Storage::empty(from);
        for &to in DataType::ALL {
            if crate::ops::fast::cast(&exec, &source, to, rules).is_some() {
                pairs.push((from, to));
            }
        }
    }
    pairs
}

/// `source` cast to `to` by its fast path, run as `run` says; `None` when the pair has none.
pub fn fast_cast(source: &Storage, to: DataType, rules: &CastRules, run: Run) -> Option<Storage> {
    crate::ops::fast::cast(&run.exec(), source, to, rules)
}

/// `source` cast to `to` by the exact path (decode exactly, round once), the reference every
/// fast path is held to.
pub fn exact_cast(source: &Storage, to: DataType, rules: &CastRules) -> Result<Storage, Error> {
    // The version only names the operator in an error; the version checks are the caller's.
    let op = OpVersion::resolve(OpKind::Cast.name(), 28)?;
    crate::ops::cast::generic(op, source, to, rules)
}

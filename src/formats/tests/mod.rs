//! Tests of the number formats against the vectors of docs/semantics.md and a slow independent reference.

mod decode;
mod integers;
mod midpoints;
mod reference;
mod sweep;
mod vectors;
mod vectors_narrow;

use super::{
    cast_float, CastRules, Exact, FloatFormat, Generation, RoundMode, F4E2M1, F6E2M3, F6E3M2,
    F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0,
};
use crate::dtype::DataType;
use crate::formats::sweeps::{self, Sweep};
use half::{bf16, f16};
use reference::RefFormat;
use std::collections::BTreeSet;

/// Rules with the given saturate flag and generation, rounding `up`.
fn rules(saturate: bool, from24: bool) -> CastRules {
    CastRules {
        saturate,
        round_mode: RoundMode::Up,
        generation: if from24 {
            Generation::From24
        } else {
            Generation::Before24
        },
    }
}

/// Uniform access to the code of every kernel float type (test only).
trait Bits: FloatFormat {
    fn bits(self) -> u64;
    fn of(bits: u64) -> Self;
}

macro_rules! bits {
    ($($t:ty: $repr:ty),*) => {$(
        impl Bits for $t {
            fn bits(self) -> u64 {
                u64::from(self.to_bits())
            }
            fn of(bits: u64) -> Self {
                <$t>::from_bits(bits as $repr)
            }
        }
    )*};
}
bits!(f32: u32, f64: u64, f16: u16, bf16: u16, F8E4M3FN: u8, F8E4M3FNUZ: u8, F8E5M2: u8,
      F8E5M2FNUZ: u8, F8E8M0: u8, F4E2M1: u8, F6E2M3: u8, F6E3M2: u8);

/// The kernel's code for `v` in format `T`.
fn enc<T: Bits>(v: &Exact, r: &CastRules) -> u64 {
    T::from_exact(v, r).bits()
}

/// A target format: its type, its reference table and the kernel encoder.
struct Target {
    dtype: DataType,
    reference: RefFormat,
    kernel: fn(&Exact, &CastRules) -> u64,
}

/// Every small and IEEE target that the generic reference covers.
fn targets() -> Vec<Target> {
    vec![
        Target {
            dtype: DataType::Float8E4M3FN,
            reference: reference::e4m3fn(),
            kernel: enc::<F8E4M3FN>,
        },
        Target {
            dtype: DataType::Float8E4M3FNUZ,
            reference: reference::e4m3fnuz(),
            kernel: enc::<F8E4M3FNUZ>,
        },
        Target {
            dtype: DataType::Float8E5M2,
            reference: reference::e5m2(),
            kernel: enc::<F8E5M2>,
        },
        Target {
            dtype: DataType::Float8E5M2FNUZ,
            reference: reference::e5m2fnuz(),
            kernel: enc::<F8E5M2FNUZ>,
        },
        Target {
            dtype: DataType::Float4E2M1,
            reference: reference::e2m1(),
            kernel: enc::<F4E2M1>,
        },
        Target {
            dtype: DataType::Float6E2M3,
            reference: reference::e2m3(),
            kernel: enc::<F6E2M3>,
        },
        Target {
            dtype: DataType::Float6E3M2,
            reference: reference::e3m2(),
            kernel: enc::<F6E3M2>,
        },
        Target {
            dtype: DataType::Float16,
            reference: reference::f16(),
            kernel: enc::<f16>,
        },
        Target {
            dtype: DataType::Bfloat16,
            reference: reference::bf16(),
            kernel: enc::<bf16>,
        },
    ]
}

/// Collects mismatches and fails with the first few and the count.
#[derive(Default)]
struct Failures {
    count: usize,
    checked: usize,
    first: Vec<String>,
}

impl Failures {
    fn check(&mut self, ok: bool, describe: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok {
            self.count += 1;
            if self.first.len() < 12 {
                self.first.push(describe());
            }
        }
    }

    fn assert_none(&self, what: &str) {
        assert!(self.checked > 0, "{what}: nothing was checked");
        assert!(
            self.count == 0,
            "{what}: {} of {} differ, first:\n{}",
            self.count,
            self.checked,
            self.first.join("\n")
        );
    }
}

/// The (source, target) pairs a sweep checked, to hold against its entry in the shared list
/// [`sweeps`] (so that the list cannot claim more, or less, than the tests check).
#[derive(Default)]
struct Checked(BTreeSet<(DataType, DataType)>);

impl Checked {
    fn add(&mut self, source: DataType, target: DataType) {
        self.0.insert((source, target));
    }

    fn extend(&mut self, other: Checked) {
        self.0.extend(other.0);
    }

    /// Asserts that exactly the pairs of `sweep` were checked.
    fn assert_is(&self, sweep: &Sweep) {
        let listed: BTreeSet<_> = sweep.pairs().collect();
        assert_eq!(
            self.0, listed,
            "{}: checked pairs differ from the list",
            sweep.test
        );
    }
}

/// Casts every input of `S` to `T` and compares the codes with `expected`.
fn check<S: Bits, T: Bits>(what: &str, r: &CastRules, inputs: &[S], expected: &[u64]) {
    assert_eq!(inputs.len(), expected.len(), "{what}: table lengths");
    let got: Vec<u64> = inputs
        .iter()
        .map(|&x| cast_float::<S, T>(x, r).bits())
        .collect();
    let diff: Vec<String> = got
        .iter()
        .zip(expected)
        .enumerate()
        .filter(|(_, (g, e))| g != e)
        .map(|(i, (g, e))| format!("[{i}] got {g:#x} want {e:#x}"))
        .collect();
    assert!(
        diff.is_empty(),
        "{what} {r:?}: {} differ: {}",
        diff.len(),
        diff.join(", ")
    );
}

/// Each listed sweep names a `#[test]` that still exists and holds its pairs against a list
/// entry: a renamed or deleted sweep test would otherwise keep its row in the coverage tables.
#[test]
fn every_listed_sweep_names_a_test_that_asserts_it() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/formats/tests");
    let mut seen = BTreeSet::new();
    for sweep in sweeps::SWEEPS {
        let t = sweep.test;
        assert!(seen.insert(t), "{t}: listed twice");
        let (file, name) = t
            .split_once(": ")
            .unwrap_or_else(|| panic!("{t}: not `file.rs: function`"));
        let text = std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("{t}: cannot read {file}: {e}"));
        let body = text
            .split_once(&format!("#[test]\nfn {name}() {{\n"))
            .and_then(|(_, rest)| rest.split_once("\n}\n"))
            .map(|(body, _)| body)
            .unwrap_or_else(|| panic!("{t}: no `#[test] fn {name}()` in {file}"));
        assert!(
            body.contains(".assert_is(&"),
            "{t}: the test does not assert its pairs against the list"
        );
    }
}

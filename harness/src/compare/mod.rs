//! Comparing a run's outputs with the expected ones: count, dtype, shape, then element values.
//!
//! The default rule is the ONNX backend runner's: exact for bool, integers, sub-byte integers,
//! FLOAT8E8M0 and strings; `|a - e| <= atol + rtol * |e|` for floating types decoded exactly,
//! NaN equal to NaN, infinities equal only with the same sign. Strict mode wants the same bits,
//! except that any NaN matches any NaN of the same type.

pub mod elem;

#[cfg(test)]
mod tests;

use elem::{Compared, View};
use vocab::{with_storage, DataType, Element, Tensor};

/// How element values are compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// `|a - e| <= atol + rtol * |e|` on floating values; other types exact.
    Allclose {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
    },
    /// Same bits everywhere; any NaN matches any NaN of the same type.
    Strict,
}

impl Rule {
    /// The ONNX backend runner's default tolerance.
    pub const ONNX_DEFAULT: Rule = Rule::Allclose {
        rtol: 1e-3,
        atol: 1e-7,
    };

    /// Whether element `actual` is acceptable for `expected` under this rule.
    pub fn accepts(&self, expected: View<'_>, actual: View<'_>) -> bool {
        match (expected, actual) {
            (View::Int(e), View::Int(a)) => e == a,
            (View::Bytes(e), View::Bytes(a)) => e == a,
            (View::Float { value: e, bits: eb }, View::Float { value: a, bits: ab }) => {
                self.float_ok((e, eb), (a, ab))
            }
            (View::Complex(e), View::Complex(a)) => {
                self.float_ok(e[0], a[0]) && self.float_ok(e[1], a[1])
            }
            // Different kinds cannot happen for tensors of the same dtype.
            _ => false,
        }
    }

    fn float_ok(&self, (e, eb): (f64, u64), (a, ab): (f64, u64)) -> bool {
        if e.is_nan() || a.is_nan() {
            return e.is_nan() && a.is_nan();
        }
        match *self {
            Rule::Strict => eb == ab,
            Rule::Allclose { rtol, atol } => {
                if e.is_infinite() || a.is_infinite() {
                    e == a
                } else {
                    (a - e).abs() <= atol + rtol * e.abs()
                }
            }
        }
    }
}

/// Whether `dtype` is always compared exactly (no tolerance): everything but the floating and
/// complex kinds of the data-type table. FLOAT8E8M0 counts as exact.
pub fn is_exact_type(dtype: DataType) -> bool {
    dtype.kind().is_exact()
}

/// Why an output (or the set of outputs) does not match.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// The run produced a different number of outputs.
    OutputCount {
        /// Outputs expected.
        expected: usize,
        /// Outputs produced.
        actual: usize,
    },
    /// Output `index` has another element type.
    DType {
        /// Which output.
        index: usize,
        /// The expected type.
        expected: DataType,
        /// The produced type.
        actual: DataType,
    },
    /// Output `index` has another shape.
    Shape {
        /// Which output.
        index: usize,
        /// The expected shape.
        expected: Vec<usize>,
        /// The produced shape.
        actual: Vec<usize>,
    },
    /// Output `index` has elements that differ.
    Values {
        /// Which output.
        index: usize,
        /// What differs.
        diff: ValueDiff,
    },
}

/// The element differences of one output.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueDiff {
    /// The element type.
    pub dtype: DataType,
    /// The shape both sides share.
    pub shape: Vec<usize>,
    /// Number of elements.
    pub total: usize,
    /// Number of elements the rule rejects.
    pub differing: usize,
    /// The first differing elements, in row-major order.
    pub first: Vec<ElemDiff>,
    /// Largest |a - e| over the differing elements where both sides are finite numbers.
    pub max_abs: Option<f64>,
    /// Largest |a - e| / |e| over the same elements (infinite when e is 0 and a is not).
    pub max_rel: Option<f64>,
    /// Differing elements where either side is NaN.
    pub nan: usize,
    /// Differing elements where either side is infinite (and neither is NaN).
    pub inf: usize,
}

/// One differing element.
#[derive(Clone, Debug, PartialEq)]
pub struct ElemDiff {
    /// Row-major flat index.
    pub flat: usize,
    /// The expected value in decimal.
    pub expected: String,
    /// The expected bits in hex.
    pub expected_hex: String,
    /// The produced value in decimal.
    pub actual: String,
    /// The produced bits in hex.
    pub actual_hex: String,
}

/// How many differing elements a [`ValueDiff`] spells out.
pub const SHOWN_MISMATCHES: usize = 10;

/// Compares every output; an empty result means the outputs match under `rule`.
pub fn compare_outputs(expected: &[Tensor], actual: &[Tensor], rule: Rule) -> Vec<Mismatch> {
    if expected.len() != actual.len() {
        return vec![Mismatch::OutputCount {
            expected: expected.len(),
            actual: actual.len(),
        }];
    }
    expected
        .iter()
        .zip(actual)
        .enumerate()
        .filter_map(|(index, (e, a))| compare_tensor(index, e, a, rule))
        .collect()
}

/// Compares output `index`; `None` when it matches.
pub fn compare_tensor(
    index: usize,
    expected: &Tensor,
    actual: &Tensor,
    rule: Rule,
) -> Option<Mismatch> {
    if expected.dtype() != actual.dtype() {
        return Some(Mismatch::DType {
            index,
            expected: expected.dtype(),
            actual: actual.dtype(),
        });
    }
    if expected.shape() != actual.shape() {
        return Some(Mismatch::Shape {
            index,
            expected: expected.shape().to_vec(),
            actual: actual.shape().to_vec(),
        });
    }
    let diff = with_storage!(expected.storage(), e => diff_values(e, actual, rule))?;
    Some(Mismatch::Values {
        index,
        diff: ValueDiff {
            shape: expected.shape().to_vec(),
            ..diff
        },
    })
}

/// Element differences between `expected` and `actual` (same dtype and shape), if any.
fn diff_values<T: Element + Compared>(
    expected: &[T],
    actual: &Tensor,
    rule: Rule,
) -> Option<ValueDiff> {
    let Some(actual) = actual.as_slice::<T>() else {
        // Unreachable after the dtype check; still reported rather than passed.
        return Some(ValueDiff::empty(T::DTYPE, expected.len(), expected.len()));
    };
    let mut diff = ValueDiff::empty(T::DTYPE, expected.len(), 0);
    let mut errors = ErrorStats::default();
    for (flat, (e, a)) in expected.iter().zip(actual).enumerate() {
        let (ev, av) = (e.view(), a.view());
        if rule.accepts(ev, av) {
            continue;
        }
        errors.add(ev, av);
        diff.differing += 1;
        if diff.first.len() < SHOWN_MISMATCHES {
            diff.first.push(ElemDiff {
                flat,
                expected: e.decimal(),
                expected_hex: e.hex(),
                actual: a.decimal(),
                actual_hex: a.hex(),
            });
        }
    }
    if diff.differing == 0 {
        return None;
    }
    diff.max_abs = errors.max_abs;
    diff.max_rel = errors.max_rel;
    diff.nan = errors.nan;
    diff.inf = errors.inf;
    Some(diff)
}

impl ValueDiff {
    fn empty(dtype: DataType, total: usize, differing: usize) -> ValueDiff {
        ValueDiff {
            dtype,
            shape: Vec::new(),
            total,
            differing,
            first: Vec::new(),
            max_abs: None,
            max_rel: None,
            nan: 0,
            inf: 0,
        }
    }
}

/// Running maxima of absolute and relative error over differing finite numeric pairs, and
/// counts of the differing pairs that involve NaN or an infinity.
#[derive(Default)]
struct ErrorStats {
    max_abs: Option<f64>,
    max_rel: Option<f64>,
    nan: usize,
    inf: usize,
}

impl ErrorStats {
    fn add(&mut self, expected: View<'_>, actual: View<'_>) {
        let pairs: Vec<(f64, f64)> = match (expected, actual) {
            (View::Int(e), View::Int(a)) => vec![(e as f64, a as f64)],
            (View::Float { value: e, .. }, View::Float { value: a, .. }) => vec![(e, a)],
            (View::Complex(e), View::Complex(a)) => vec![(e[0].0, a[0].0), (e[1].0, a[1].0)],
            _ => return,
        };
        if pairs.iter().any(|(e, a)| e.is_nan() || a.is_nan()) {
            self.nan += 1;
        } else if pairs
            .iter()
            .any(|(e, a)| e.is_infinite() || a.is_infinite())
        {
            self.inf += 1;
        } else {
            pairs.into_iter().for_each(|(e, a)| self.pair(e, a));
        }
    }

    fn pair(&mut self, e: f64, a: f64) {
        let abs = (a - e).abs();
        let rel = if abs == 0.0 {
            0.0
        } else if e == 0.0 {
            f64::INFINITY
        } else {
            abs / e.abs()
        };
        self.max_abs = Some(self.max_abs.map_or(abs, |m| m.max(abs)));
        self.max_rel = Some(self.max_rel.map_or(rel, |m| m.max(rel)));
    }
}

/// The row-major multi-index of flat index `flat` in `shape`.
pub fn multi_index(shape: &[usize], mut flat: usize) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (slot, &dim) in index.iter_mut().zip(shape).rev() {
        if dim > 0 {
            *slot = flat % dim;
            flat /= dim;
        }
    }
    index
}

//! The source values of the cases into a float6 type: for a wide float source, every value and
//! midpoint of the target and one unit in the last place either side, overflow, infinities and
//! NaN (for DOUBLE also the double-rounding probes of docs/semantics.md §3.12); every code of a
//! narrow source; integers around the target's range; texts.

use super::tables::Special;
use super::{layout, mask, range};
use half::{bf16, f16};
use vocab::DataType;

/// The points a wide floating source is tried at, for a float6 target of values `t`: every
/// value and every midpoint, the overflow edge, the ties at and below the smallest subnormal,
/// zero; both signs.
fn points(t: &[f64]) -> Vec<f64> {
    let mut p: Vec<f64> = t
        .windows(2)
        .flat_map(|w| [w[0], (w[0] + w[1]) / 2.0])
        .collect();
    let (below, max) = (t[t.len() - 2], t[t.len() - 1]);
    let gap = max - below;
    p.extend([
        max,
        max + gap / 2.0,
        max + gap,
        max * 2.0,
        1e9,
        t[1] / 2.0,
        t[1] / 4.0,
    ]);
    p.iter().flat_map(|&x| [x, -x]).collect()
}

/// A wide floating type's code for `x` (any nearby code serves: the expected value is taken
/// from the code), its NaN codes, and the value of a code with its sign.
struct Wide {
    bits: u32,
    code: fn(f64) -> u128,
    value: fn(u128) -> f64,
}

fn wide(t: DataType) -> Option<Wide> {
    Some(match t {
        DataType::Float => Wide {
            bits: 32,
            code: |x| u128::from((x as f32).to_bits()),
            value: |c| f64::from(f32::from_bits(c as u32)),
        },
        DataType::Double => Wide {
            bits: 64,
            code: |x| u128::from(x.to_bits()),
            value: |c| f64::from_bits(c as u64),
        },
        DataType::Float16 => Wide {
            bits: 16,
            code: |x| u128::from(f16::from_f64(x).to_bits()),
            value: |c| f16::from_bits(c as u16).to_f64(),
        },
        DataType::Bfloat16 => Wide {
            bits: 16,
            code: |x| u128::from(bf16::from_f64(x).to_bits()),
            value: |c| bf16::from_bits(c as u16).to_f64(),
        },
        _ => return None,
    })
}

/// The source codes of a wide floating type for a float6 target: each point, one unit in the
/// last place either side of it, ±Inf and NaN of both signs; for DOUBLE also the values 2^-40
/// of a binade off each midpoint, which a round through FLOAT would move onto it.
fn wide_codes(from: DataType, w: &Wide, t: &[f64]) -> Vec<u128> {
    let sign = 1u128 << (w.bits - 1);
    let pts = points(t);
    let mut out = Vec::new();
    for &x in &pts {
        let c = (w.code)(x);
        out.push(c);
        if c & !sign > 0 {
            out.push(c - 1);
        }
        out.push(c + 1);
    }
    if from == DataType::Double {
        for w in t.windows(2) {
            let mid = (w[0] + w[1]) / 2.0;
            let d = 2f64.powi(mid.log2().floor() as i32 - 40);
            for x in [mid + d, mid - d, -(mid + d), -(mid - d)] {
                out.push(u128::from(x.to_bits()));
            }
        }
    }
    let inf = (w.code)(f64::INFINITY);
    // A quiet NaN: the exponent all ones and the mantissa's top bit, just below the exponent's
    // lowest bit.
    let quiet = inf | (inf & inf.wrapping_neg()) >> 1;
    out.extend([inf, inf | sign, quiet, quiet | sign]);
    out.sort_unstable();
    out.dedup();
    out
}

/// The source elements of `from` for a float6 target of values `t`, each with its value and
/// sign: `None` for STRING, whose inputs are texts.
pub(super) fn source(from: DataType, t: &[f64]) -> Option<Vec<(u128, f64, bool)>> {
    if let Some(w) = wide(from) {
        let sign = 1u128 << (w.bits - 1);
        let codes = wide_codes(from, &w, t);
        return Some(
            codes
                .into_iter()
                .map(|c| (c, (w.value)(c), c & sign != 0))
                .collect(),
        );
    }
    if let Some(l) = layout(from) {
        // Every code; the FNUZ NaN (0x80) is left out, since its sign is a codec question
        // (docs/semantics.md §3.2) and not what these cases are about.
        let all = 0..1u128 << (l.magnitude_bits() + 1);
        let kept = all.filter(|&c| !(l.special == Special::Fnuz && c == 0x80));
        return Some(
            kept.map(|c| {
                let (v, n) = l.decode(c);
                (c, v, n)
            })
            .collect(),
        );
    }
    if from == DataType::Float8E8M0 {
        // Every power of two; NaN (0xFF) is left out as above.
        return Some(
            (0..255u128)
                .map(|c| (c, 2f64.powi(c as i32 - 127), false))
                .collect(),
        );
    }
    if from == DataType::Bool {
        return Some(vec![(0, 0.0, false), (1, 1.0, false)]);
    }
    if from == DataType::String {
        return None;
    }
    let (lo, hi) = range(from);
    let mut values: Vec<i128> = if from.bit_width() <= 4 {
        (lo..=hi).collect()
    } else {
        (-40..=40)
            .chain([lo, lo + 1, hi - 1, hi, 1000, -1000])
            .collect()
    };
    values.retain(|v| (lo..=hi).contains(v));
    values.sort_unstable();
    values.dedup();
    Some(
        values
            .into_iter()
            .map(|v| (v as u128 & mask(from), v as f64, v < 0))
            .collect(),
    )
}

/// Texts into a float6 type: numbers away from any tie, ties, overflow, and the spellings of
/// NaN and infinity (docs/semantics.md §3.9).
pub(super) const TEXTS: &[&str] = &[
    "0", "-0", "0.5", "-1.25", "0.3", "7", "-15", "18", "29", "-1000", "1e-9", "NaN", "INF",
    "-INF", "+INF",
];

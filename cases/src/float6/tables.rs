//! The small float formats as tables of their values, and rounding by search in a table: the
//! float6 own cases' expected values, written apart from the kernels' arithmetic encoder
//! (`src/formats/codec.rs`). The float6 tables are the OCP MX spec's, binade by binade; the
//! other formats' values come from their layout (docs/semantics.md §3.1).

/// The 32 non-negative values of FLOAT6E2M3 by code: subnormals 0.125 apart, then the binades
/// of 1, 2 and 4, eight values each.
pub(super) fn e2m3() -> Vec<f64> {
    let mut v = Vec::new();
    for (start, step) in [(0.0, 0.125), (1.0, 0.125), (2.0, 0.25), (4.0, 0.5)] {
        v.extend((0..8).map(|k| start + step * f64::from(k)));
    }
    v
}

/// The 32 non-negative values of FLOAT6E3M2 by code: subnormals 0.0625 apart, then the seven
/// binades from 0.25 to 16, four values each.
pub(super) fn e3m2() -> Vec<f64> {
    let mut v: Vec<f64> = (0..4).map(|k| 0.0625 * f64::from(k)).collect();
    let mut start = 0.25;
    for _ in 0..7 {
        v.extend((0..4).map(|k| start + start / 4.0 * f64::from(k)));
        start *= 2.0;
    }
    v
}

/// Which codes of a layout are not finite.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Special {
    /// Every code is a number (FLOAT4E2M1).
    None,
    /// Exponent all ones: infinity (mantissa 0) or NaN (FLOAT8E5M2).
    Ieee,
    /// Only all ones is NaN (FLOAT8E4M3FN).
    AllOnes,
    /// Only the sign bit alone (0x80) is NaN; no -0 (the FNUZ types).
    Fnuz,
}

/// A small float layout.
#[derive(Clone, Copy)]
pub(super) struct Layout {
    pub(super) exp: u32,
    pub(super) man: u32,
    pub(super) bias: i32,
    pub(super) special: Special,
}

impl Layout {
    /// Bits below the sign.
    pub(super) fn magnitude_bits(self) -> u32 {
        self.exp + self.man
    }

    /// The value of each magnitude code (sign clear), NaN or infinity where the layout says.
    pub(super) fn magnitudes(self) -> Vec<f64> {
        let top = (1u32 << self.exp) - 1;
        (0..1u32 << self.magnitude_bits())
            .map(|c| {
                let (e, m) = (c >> self.man, c & ((1 << self.man) - 1));
                match self.special {
                    Special::Ieee if e == top && m == 0 => return f64::INFINITY,
                    Special::Ieee if e == top => return f64::NAN,
                    Special::AllOnes if c == (1 << self.magnitude_bits()) - 1 => return f64::NAN,
                    _ => {}
                }
                let scale = |k: i32| 2f64.powi(k);
                match e {
                    0 => f64::from(m) * scale(1 - self.bias - self.man as i32),
                    _ => {
                        f64::from((1 << self.man) + m)
                            * scale(e as i32 - self.bias - self.man as i32)
                    }
                }
            })
            .collect()
    }

    /// The value of `code` and whether its sign is set.
    pub(super) fn decode(self, code: u128) -> (f64, bool) {
        let sign = 1u128 << self.magnitude_bits();
        let negative = code & sign != 0;
        if self.special == Special::Fnuz && code == sign {
            return (f64::NAN, false);
        }
        let v = self.magnitudes()[(code & (sign - 1)) as usize];
        (if negative { -v } else { v }, negative)
    }
}

/// The code in `table` (values ascending by code, finite ones first) nearest to `a` >= 0, a
/// tie to the even code; at or past the largest finite value, that value (saturation).
pub(super) fn nearest(table: &[f64], a: f64) -> u128 {
    let finite: Vec<f64> = table
        .iter()
        .copied()
        .take_while(|v| v.is_finite())
        .collect();
    let last = finite.len() - 1;
    if a >= finite[last] {
        return last as u128;
    }
    // The largest value not above `a`, and the next one.
    let k = finite.iter().rposition(|&v| v <= a).unwrap_or(0);
    let (below, above) = (a - finite[k], finite[k + 1] - a);
    let pick = if below < above || (below == above && k % 2 == 0) {
        k
    } else {
        k + 1
    };
    pick as u128
}

/// `x` into a float6 type of values `table`: NaN is 0x20 for a positive NaN and 0x00 for a
/// negative one (docs/semantics.md §3.12), every other value keeps its sign and rounds to
/// nearest even, saturating.
pub(super) fn to_float6(table: &[f64], x: f64, negative: bool) -> u128 {
    if x.is_nan() {
        return if negative { 0x00 } else { 0x20 };
    }
    u128::from(negative) << 5 | nearest(table, x.abs())
}

/// A finite `x` into `layout` (a float8 type or FLOAT4E2M1), rounding to nearest even and
/// saturating; the FNUZ types have no -0.
pub(super) fn to_layout(layout: Layout, x: f64) -> u128 {
    let mag = nearest(&layout.magnitudes(), x.abs());
    if layout.special == Special::Fnuz && mag == 0 {
        return 0;
    }
    u128::from(x.is_sign_negative()) << layout.magnitude_bits() | mag
}

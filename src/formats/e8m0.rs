//! FLOAT8E8M0 (Cast-24 and later): decoding, and encoding with `round_mode` and `saturate` as
//! the Cast-24 page's table says (docs/semantics.md §3.7).

use super::exact::{CastRules, Exact, RoundMode};
use super::float::FloatFormat;
use super::F8E8M0;

/// The NaN code.
const NAN: u8 = 0xFF;
/// The largest code, 2^127 (E8M0_MAX).
const MAX: u8 = 0xFE;
/// The smallest code, 2^-127 (E8M0_MIN); E8M0 has no zero.
const MIN: u8 = 0x00;
/// floor(log2) of E8M0_MAX, the top of the range that rounds rather than saturates.
const MAX_EXP: i64 = 127;
/// floor(log2) of E8M0_MIN, the bottom of that range.
const MIN_EXP: i64 = -127;

impl FloatFormat for F8E8M0 {
    fn to_exact(self, _rules: &CastRules) -> Exact {
        match self.to_bits() {
            NAN => Exact::Nan { negative: false },
            c => Exact::Finite {
                negative: false,
                mant: 1,
                exp: i32::from(c) - 127,
            },
        }
    }

    /// The exact value of the source (f64 and integers included, and for a string the f64
    /// it parses to, moved off a decision point towards the decimal by `cast_string`; no
    /// rounding to f32 first), with its sign ignored (the page leaves it open). Then the
    /// page's table: outside [E8M0_MIN, E8M0_MAX] (0 and Inf included) `saturate` clamps to
    /// the nearer end or gives NaN; inside, `round_mode` picks the power of two
    /// (docs/semantics.md §3.7).
    fn from_exact(v: &Exact, rules: &CastRules) -> Self {
        let out_of_range = |clamped: u8| if rules.saturate { clamped } else { NAN };
        let code = match *v {
            Exact::Nan { .. } => NAN,
            Exact::Inf { .. } => out_of_range(MAX),
            Exact::Finite { mant: 0, .. } => out_of_range(MIN),
            Exact::Finite { mant, exp, .. } => {
                // |x| = mant * 2^exp with 2^k <= |x| < 2^(k+1).
                let top = 127 - mant.leading_zeros();
                let k = i64::from(top) + i64::from(exp);
                // The bits below the leading one.
                let below = mant & !(1u128 << top);
                if k > MAX_EXP || (k == MAX_EXP && below != 0) {
                    out_of_range(MAX)
                } else if k < MIN_EXP {
                    out_of_range(MIN)
                } else {
                    let up = match rules.round_mode {
                        RoundMode::Up => below != 0,
                        RoundMode::Down => false,
                        // From 1.5 * 2^k on, ties up: the bit after the leading one.
                        RoundMode::Nearest => top > 0 && mant >> (top - 1) & 1 == 1,
                    };
                    // k + 127 is in [0, 254], and 254 only with below = 0: at most 0xFE.
                    (k - MIN_EXP + i64::from(up)) as u8
                }
            }
        };
        F8E8M0::from_bits(code)
    }
}

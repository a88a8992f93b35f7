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
/// The f32 bits of 2^127, the top of the range that rounds rather than saturates.
const F32_MAX_BITS: u32 = 0x7F00_0000;
/// The f32 bits of 2^-127 (an f32 subnormal), the bottom of that range.
const F32_MIN_BITS: u32 = 0x0040_0000;

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

    /// The value goes to f32 first (exact for f16 and bf16, half to even for f64, integers
    /// and strings), and its sign is ignored: the page leaves both open, and this is what the
    /// reference and onnxruntime do. Then the page's table: outside [E8M0_MIN, E8M0_MAX]
    /// (0 and Inf included) `saturate` clamps to the nearer end or gives NaN; inside,
    /// `round_mode` picks the power of two.
    fn from_exact(v: &Exact, rules: &CastRules) -> Self {
        let abs = f32::from_exact(v, rules).to_bits() & 0x7FFF_FFFF;
        let out_of_range = |clamped: u8| if rules.saturate { clamped } else { NAN };
        let code = if abs > 0x7F80_0000 {
            NAN
        } else if abs > F32_MAX_BITS {
            out_of_range(MAX)
        } else if abs < F32_MIN_BITS {
            out_of_range(MIN)
        } else {
            let (exp, frac) = (abs >> 23, abs & 0x7F_FFFF);
            // The bits below the leading one, left-aligned: an f32 subnormal in
            // [2^-127, 2^-126) has its leading one at bit 22 and sits at code 0.
            let below = if exp == 0 {
                (frac << 1) & 0x7F_FFFF
            } else {
                frac
            };
            let up = match rules.round_mode {
                RoundMode::Up => below != 0,
                RoundMode::Down => false,
                // From 1.5 * 2^k on, ties up.
                RoundMode::Nearest => below & 0x40_0000 != 0,
            };
            // In range, exp is at most 0xFE and only with below = 0, so this stays finite.
            (exp + u32::from(up)) as u8
        };
        F8E8M0::from_bits(code)
    }
}

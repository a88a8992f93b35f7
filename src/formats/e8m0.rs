//! FLOAT8E8M0 (Cast-24 and later): decoding, and encoding on float32 bits with `round_mode`
//! and `saturate` (docs/semantics.md §3.7).

use super::exact::{CastRules, Exact, RoundMode};
use super::float::FloatFormat;
use super::F8E8M0;

/// The NaN code, also produced for any NaN or infinity.
const NAN: u8 = 0xFF;

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

    /// Follows the reference: round the value to f32 (exact for f16, RNE for f64 and
    /// integers), then adjust the f32 exponent field; the sign is ignored.
    fn from_exact(v: &Exact, rules: &CastRules) -> Self {
        let bits = f32::from_exact(v, rules).to_bits();
        let exp = (bits >> 23) & 0xFF;
        let frac = bits & 0x7F_FFFF;
        if exp == 0xFF {
            // +-Inf and NaN, whatever saturate says.
            return F8E8M0::from_bits(NAN);
        }
        let round_up = match rules.round_mode {
            RoundMode::Up => frac != 0,
            RoundMode::Down => false,
            // Bit 22 set means at least 1.5 * 2^e for normals: round up, ties up. For f32
            // subnormals (exp = 0) the reference also needs bit 21 or any lower bit.
            RoundMode::Nearest => frac & 0x40_0000 != 0 && (frac & 0x3F_FFFF != 0 || exp > 0),
        };
        let code = match (round_up, exp, rules.saturate) {
            // Saturation keeps the largest finite code instead of stepping into NaN.
            (true, 0xFE, true) => 0xFE,
            (true, e, _) => e + 1,
            (false, e, _) => e,
        };
        F8E8M0::from_bits(code as u8)
    }
}

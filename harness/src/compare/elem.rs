//! How the comparator sees one element of each data type: a value, its bits, and its spelling.
//!
//! Small floats are decoded here by the formula of docs/semantics.md (§3.1), not by the
//! kernels' code, so that a bug in the implementation's decoder cannot hide a wrong answer.

use half::{bf16, f16};
use vocab::elements::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};

/// One element as the comparator sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum View<'a> {
    /// An exactly compared value: integers, bool, sub-byte integers, FLOAT8E8M0 codes.
    Int(i128),
    /// A floating value decoded exactly, with its bit pattern.
    Float {
        /// The exact value (every supported format fits f64 exactly).
        value: f64,
        /// The element's bits.
        bits: u64,
    },
    /// A complex value: (value, bits) of the real and imaginary parts.
    Complex([(f64, u64); 2]),
    /// A string's bytes, compared exactly.
    Bytes(&'a [u8]),
}

/// An element type the comparator understands.
pub trait Compared {
    /// The element as a comparable view.
    fn view(&self) -> View<'_>;
    /// The element's bits in hex, as in `0x3c00` (bytes for strings).
    fn hex(&self) -> String;
    /// The element's value in decimal.
    fn decimal(&self) -> String;
}

/// The layout of a small binary float format, as in docs/semantics.md §3.1.
#[derive(Clone, Copy, Debug)]
pub struct MiniFloat {
    /// Exponent bits.
    pub exp_bits: u32,
    /// Mantissa bits.
    pub man_bits: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Which codes are NaN or infinite.
    pub special: Special,
}

/// Which codes of a [`MiniFloat`] are not finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// IEEE: exponent all ones is infinity (mantissa 0) or NaN.
    Ieee,
    /// E4M3FN: only S.1111.111 is NaN; no infinity.
    AllOnesNan,
    /// FNUZ: only the negative-zero code 0x80 is NaN; no infinity, no -0.
    NegZeroNan,
    /// FLOAT4E2M1 and the float6 types: every code is finite.
    Finite,
}

/// FLOAT16 layout.
pub const FLOAT16: MiniFloat = MiniFloat::new(5, 10, 15, Special::Ieee);
/// BFLOAT16 layout.
pub const BFLOAT16: MiniFloat = MiniFloat::new(8, 7, 127, Special::Ieee);
/// FLOAT8E4M3FN layout.
pub const E4M3FN: MiniFloat = MiniFloat::new(4, 3, 7, Special::AllOnesNan);
/// FLOAT8E4M3FNUZ layout.
pub const E4M3FNUZ: MiniFloat = MiniFloat::new(4, 3, 8, Special::NegZeroNan);
/// FLOAT8E5M2 layout.
pub const E5M2: MiniFloat = MiniFloat::new(5, 2, 15, Special::Ieee);
/// FLOAT8E5M2FNUZ layout.
pub const E5M2FNUZ: MiniFloat = MiniFloat::new(5, 2, 16, Special::NegZeroNan);
/// FLOAT4E2M1 layout.
pub const E2M1: MiniFloat = MiniFloat::new(2, 1, 1, Special::Finite);
/// FLOAT6E2M3 layout.
pub const E2M3: MiniFloat = MiniFloat::new(2, 3, 1, Special::Finite);
/// FLOAT6E3M2 layout.
pub const E3M2: MiniFloat = MiniFloat::new(3, 2, 3, Special::Finite);

impl MiniFloat {
    const fn new(exp_bits: u32, man_bits: u32, bias: i32, special: Special) -> MiniFloat {
        MiniFloat {
            exp_bits,
            man_bits,
            bias,
            special,
        }
    }

    /// The exact value of `code` (low bits), NaN for NaN codes.
    pub fn decode(&self, code: u32) -> f64 {
        let m = self.man_bits;
        let exp_max = (1u32 << self.exp_bits) - 1;
        let sign_bit = 1u32 << (self.exp_bits + m);
        let negative = code & sign_bit != 0;
        let exp = (code >> m) & exp_max;
        let man = code & ((1u32 << m) - 1);
        match self.special {
            Special::Ieee if exp == exp_max && man == 0 => {
                return if negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
            }
            Special::Ieee if exp == exp_max => return f64::NAN,
            Special::AllOnesNan if exp == exp_max && man == (1 << m) - 1 => return f64::NAN,
            Special::NegZeroNan if code == sign_bit => return f64::NAN,
            _ => {}
        }
        // Normal: 2^(exp-bias) * (1 + man/2^M); subnormal: 2^(1-bias) * man/2^M.
        let (significand, exp2) = if exp == 0 {
            (man, 1 - self.bias - m as i32)
        } else {
            (man | (1 << m), exp as i32 - self.bias - m as i32)
        };
        let magnitude = f64::from(significand) * pow2(exp2);
        if negative {
            -magnitude
        } else {
            magnitude
        }
    }
}

impl MiniFloat {
    /// The shortest decimal that reads back as `code` in this format (not the longer
    /// spelling of the widened f64): FLOAT16 0x30cf is `0.1503`, not `0.1502685546875`.
    pub fn shortest(&self, code: u32) -> String {
        let value = self.decode(code);
        if !value.is_finite() || value == 0.0 {
            return fmt_f64(value);
        }
        let sign_bit = 1u32 << (self.exp_bits + self.man_bits);
        let magnitude = code & (sign_bit - 1);
        let x = value.abs();
        // Every decimal strictly nearer to x than half the gap to either neighbour reads
        // back as x. The largest finite code extends its gap upwards by the one below it.
        let below = self.decode(magnitude - 1);
        let above = match magnitude + 1 < sign_bit {
            true => self.decode(magnitude + 1),
            false => f64::NAN,
        };
        let above = if above.is_finite() {
            above
        } else {
            x + (x - below)
        };
        let (lo, hi) = (x - (x - below) / 2.0, x + (above - x) / 2.0);
        for digits in 0..17 {
            let Ok(d) = format!("{x:.digits$e}").parse::<f64>() else {
                break;
            };
            if lo < d && d < hi {
                return fmt_f64(d.copysign(value));
            }
        }
        fmt_f64(value)
    }
}

/// 2^k, built from its bits so it is exact; k must lie in f64's normal range.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

macro_rules! int_views {
    ($($ty:ty => $unsigned:ty, $digits:literal;)*) => {$(
        impl Compared for $ty {
            fn view(&self) -> View<'_> {
                View::Int(*self as i128)
            }
            fn hex(&self) -> String {
                format!("0x{:0w$x}", *self as $unsigned, w = $digits)
            }
            fn decimal(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

int_views! {
    u8 => u8, 2; i8 => u8, 2; u16 => u16, 4; i16 => u16, 4;
    u32 => u32, 8; i32 => u32, 8; u64 => u64, 16; i64 => u64, 16;
}

impl Compared for bool {
    fn view(&self) -> View<'_> {
        View::Int(i128::from(*self))
    }
    fn hex(&self) -> String {
        format!("0x{:02x}", u8::from(*self))
    }
    fn decimal(&self) -> String {
        self.to_string()
    }
}

macro_rules! subbyte_views {
    ($($ty:ty => $value:expr;)*) => {$(
        impl Compared for $ty {
            fn view(&self) -> View<'_> {
                View::Int(i128::from($value(*self)))
            }
            fn hex(&self) -> String {
                format!("0x{:x}", self.to_bits())
            }
            fn decimal(&self) -> String {
                $value(*self).to_string()
            }
        }
    )*};
}

subbyte_views! {
    U4 => |v: U4| v.to_bits() as i16;
    U2 => |v: U2| v.to_bits() as i16;
    I4 => |v: I4| v.get() as i16;
    I2 => |v: I2| v.get() as i16;
}

impl Compared for F8E8M0 {
    fn view(&self) -> View<'_> {
        // Exact by the rule: e8m0 codes are compared like integers.
        View::Int(i128::from(self.to_bits()))
    }
    fn hex(&self) -> String {
        format!("0x{:02x}", self.to_bits())
    }
    fn decimal(&self) -> String {
        match self.to_bits() {
            0xFF => "NaN".to_string(),
            c => format!("2^{}", i32::from(c) - 127),
        }
    }
}

fn float_view(value: f64, bits: u64) -> View<'static> {
    View::Float { value, bits }
}

macro_rules! minifloat_views {
    ($($ty:ty => $layout:expr, $digits:literal, $bits:expr;)*) => {$(
        impl Compared for $ty {
            fn view(&self) -> View<'_> {
                let bits: u32 = $bits(*self);
                float_view($layout.decode(bits), u64::from(bits))
            }
            fn hex(&self) -> String {
                let bits: u32 = $bits(*self);
                format!("0x{:0w$x}", bits, w = $digits)
            }
            fn decimal(&self) -> String {
                let bits: u32 = $bits(*self);
                // 16-bit formats print their shortest round-trip decimal, as f32 does. The
                // 8- and 4-bit formats print exact values: with 1 to 3 mantissa bits, the
                // shortest spelling would read as another number (450 for E4M3FN 448).
                match $digits {
                    4 => $layout.shortest(bits),
                    _ => fmt_f64($layout.decode(bits)),
                }
            }
        }
    )*};
}

minifloat_views! {
    f16 => FLOAT16, 4, |v: f16| u32::from(v.to_bits());
    bf16 => BFLOAT16, 4, |v: bf16| u32::from(v.to_bits());
    F8E4M3FN => E4M3FN, 2, |v: F8E4M3FN| u32::from(v.to_bits());
    F8E4M3FNUZ => E4M3FNUZ, 2, |v: F8E4M3FNUZ| u32::from(v.to_bits());
    F8E5M2 => E5M2, 2, |v: F8E5M2| u32::from(v.to_bits());
    F8E5M2FNUZ => E5M2FNUZ, 2, |v: F8E5M2FNUZ| u32::from(v.to_bits());
    F4E2M1 => E2M1, 1, |v: F4E2M1| u32::from(v.to_bits());
    F6E2M3 => E2M3, 2, |v: F6E2M3| u32::from(v.to_bits());
    F6E3M2 => E3M2, 2, |v: F6E3M2| u32::from(v.to_bits());
}

impl Compared for f32 {
    fn view(&self) -> View<'_> {
        float_view(f64::from(*self), u64::from(self.to_bits()))
    }
    fn hex(&self) -> String {
        format!("0x{:08x}", self.to_bits())
    }
    fn decimal(&self) -> String {
        // f32's own shortest round-trip spelling, not the longer f64 one.
        format!("{self:?}")
    }
}

impl Compared for f64 {
    fn view(&self) -> View<'_> {
        float_view(*self, self.to_bits())
    }
    fn hex(&self) -> String {
        format!("0x{:016x}", self.to_bits())
    }
    fn decimal(&self) -> String {
        fmt_f64(*self)
    }
}

impl Compared for Complex64 {
    fn view(&self) -> View<'_> {
        let part = |x: f32| (f64::from(x), u64::from(x.to_bits()));
        View::Complex([part(self.re), part(self.im)])
    }
    fn hex(&self) -> String {
        format!("(0x{:08x}, 0x{:08x})", self.re.to_bits(), self.im.to_bits())
    }
    fn decimal(&self) -> String {
        format!("({:?}, {:?})", self.re, self.im)
    }
}

impl Compared for Complex128 {
    fn view(&self) -> View<'_> {
        let part = |x: f64| (x, x.to_bits());
        View::Complex([part(self.re), part(self.im)])
    }
    fn hex(&self) -> String {
        format!(
            "(0x{:016x}, 0x{:016x})",
            self.re.to_bits(),
            self.im.to_bits()
        )
    }
    fn decimal(&self) -> String {
        format!("({}, {})", fmt_f64(self.re), fmt_f64(self.im))
    }
}

impl Compared for String {
    fn view(&self) -> View<'_> {
        View::Bytes(self.as_bytes())
    }
    fn hex(&self) -> String {
        const SHOWN: usize = 32;
        let mut out: String = self
            .as_bytes()
            .iter()
            .take(SHOWN)
            .map(|b| format!("{b:02x}"))
            .collect();
        if self.len() > SHOWN {
            out.push_str("..");
        }
        out
    }
    fn decimal(&self) -> String {
        format!("{self:?}")
    }
}

/// An f64 in its shortest round-trip spelling, `-0.0` and `NaN` included.
fn fmt_f64(x: f64) -> String {
    format!("{x:?}")
}

#[cfg(test)]
mod tests;

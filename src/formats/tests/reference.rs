//! A slow reference for the float formats, written apart from the kernel: it lists every code
//! of a target, decodes each by the docs/semantics.md §3.1 formula, sorts the values and picks the nearest by
//! exact comparison (ties to the even code), then applies the special-value tables of docs/semantics.md.

use std::cmp::Ordering;

/// A non-negative dyadic rational m * 2^e, kept with m odd (or m = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dy {
    pub m: u128,
    pub e: i32,
}

impl Dy {
    /// m * 2^e, normalised.
    pub fn new(mut m: u128, mut e: i32) -> Dy {
        if m == 0 {
            return Dy { m: 0, e: 0 };
        }
        while m.is_multiple_of(2) {
            m /= 2;
            e += 1;
        }
        Dy { m, e }
    }

    /// Position of the leading one bit: floor(log2(self)); None for zero.
    fn top(self) -> Option<i64> {
        if self.m == 0 {
            None
        } else {
            Some(i64::from(self.e) + i64::from(127 - self.m.leading_zeros()))
        }
    }

    /// Exact sum of two values whose exponents are close (adjacent format values).
    pub fn add(self, o: Dy) -> Dy {
        if self.m == 0 {
            return o;
        }
        if o.m == 0 {
            return self;
        }
        let e = self.e.min(o.e);
        let a = self.m << (self.e - e);
        let b = o.m << (o.e - e);
        Dy::new(a + b, e)
    }

    /// Exact comparison.
    pub fn cmp(self, o: Dy) -> Ordering {
        match (self.top(), o.top()) {
            (None, None) => Ordering::Equal,
            (None, _) => Ordering::Less,
            (_, None) => Ordering::Greater,
            (Some(a), Some(b)) if a != b => a.cmp(&b),
            _ => {
                // Same leading bit: align on the smaller exponent; both fit in 128 bits.
                let e = self.e.min(o.e);
                (self.m << (self.e - e)).cmp(&(o.m << (o.e - e)))
            }
        }
    }

    /// The value as f64, when it is exactly representable there.
    pub fn to_f64(self) -> f64 {
        let mut v = self.m as f64;
        let mut e = self.e;
        // Scale in steps so intermediate powers stay in range.
        while e > 0 {
            v *= 2.0;
            e -= 1;
        }
        while e < 0 {
            v /= 2.0;
            e += 1;
        }
        v
    }
}

/// A decoded value: NaN, infinity or a signed number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Nan(bool),
    Inf(bool),
    Num(bool, Dy),
}

/// How the tables of docs/semantics.md treat special values for a format (§3.1, §3.3 step 6, §3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ieee,
    E4M3FN,
    Fnuz,
    E5M2,
    /// FLOAT4E2M1 and the float6 types: every code finite.
    Finite,
}

/// One target format, with every finite non-negative value sorted.
pub struct RefFormat {
    pub ebits: u32,
    pub mbits: u32,
    pub bias: i32,
    pub kind: Kind,
    /// (value, code) of every finite non-negative code, ascending.
    pub values: Vec<(Dy, u32)>,
}

/// Whether a rule set is the Cast-24-and-later generation.
pub type From24 = bool;

impl RefFormat {
    /// Builds the table by decoding all codes.
    pub fn new(ebits: u32, mbits: u32, bias: i32, kind: Kind) -> RefFormat {
        let mut f = RefFormat {
            ebits,
            mbits,
            bias,
            kind,
            values: Vec::new(),
        };
        let positive_codes = 1u32 << (ebits + mbits);
        let mut values: Vec<(Dy, u32)> = (0..positive_codes)
            .filter_map(|c| match f.decode(c, false) {
                Val::Num(false, d) => Some((d, c)),
                _ => None,
            })
            .collect();
        values.sort_by(|a, b| a.0.cmp(b.0));
        f.values = values;
        f
    }

    pub fn sign_bit(&self) -> u32 {
        1 << (self.ebits + self.mbits)
    }

    /// Decodes by the formula of docs/semantics.md §3.1, with the special codes of the format's row.
    pub fn decode(&self, code: u32, from24: From24) -> Val {
        let s = code >> (self.ebits + self.mbits) & 1 == 1;
        let field = (code >> self.mbits) & ((1 << self.ebits) - 1);
        let mant = code & ((1 << self.mbits) - 1);
        let top_field = field == (1 << self.ebits) - 1;
        let all_mant = mant == (1 << self.mbits) - 1;
        match self.kind {
            Kind::Ieee | Kind::E5M2 if top_field => {
                return if mant == 0 { Val::Inf(s) } else { Val::Nan(s) };
            }
            Kind::E4M3FN if top_field && all_mant => return Val::Nan(s),
            Kind::Fnuz if s && field == 0 && mant == 0 => return Val::Nan(from24),
            _ => {}
        }
        // value = 2^(field - bias) * (1 + mant/2^M), or 2^(1 - bias) * mant/2^M.
        let d = if field == 0 {
            Dy::new(u128::from(mant), 1 - self.bias - self.mbits as i32)
        } else {
            let significand = (1u128 << self.mbits) + u128::from(mant);
            Dy::new(significand, field as i32 - self.bias - self.mbits as i32)
        };
        Val::Num(s, d)
    }

    /// The nearest finite code to `x` >= 0 (ties to the even code), or None when the nearest
    /// is the virtual code just above the largest finite value (overflow).
    pub fn nearest(&self, x: Dy) -> Option<u32> {
        // Index of the largest value <= x.
        let i = self
            .values
            .partition_point(|(v, _)| v.cmp(x) != Ordering::Greater)
            - 1;
        let (lo, lo_code) = self.values[i];
        if lo.cmp(x) == Ordering::Equal {
            return Some(lo_code);
        }
        let (hi, hi_code) = match self.values.get(i + 1) {
            Some(&(v, c)) => (v, Some(c)),
            // Past the largest finite value the next step is one ulp of the top binade.
            None => {
                let ulp = Dy::new(1, lo.top().unwrap_or(0) as i32 - self.mbits as i32);
                (lo.add(ulp), None)
            }
        };
        let twice_x = Dy::new(x.m, x.e + 1);
        let hi_even = match hi_code {
            Some(c) => c % 2 == 0,
            None => (lo_code + 1) % 2 == 0,
        };
        match twice_x.cmp(lo.add(hi)) {
            Ordering::Less => Some(lo_code),
            Ordering::Greater => hi_code,
            Ordering::Equal if hi_even => hi_code,
            Ordering::Equal => Some(lo_code),
        }
    }

    /// The largest finite code (positive).
    pub fn max_code(&self) -> u32 {
        self.values.last().map_or(0, |v| v.1)
    }

    /// Encodes a value per the spec tables: nearest, then the overflow, zero and NaN rules.
    pub fn encode(&self, v: Val, saturate: bool, from24: From24) -> u32 {
        let sign = |neg: bool| if neg { self.sign_bit() } else { 0 };
        let exp_ones = ((1 << self.ebits) - 1) << self.mbits;
        let overflow = |neg: bool| match (self.kind, saturate) {
            (Kind::Ieee, _) => sign(neg) | exp_ones,
            (Kind::Finite, _) | (_, true) => sign(neg) | self.max_code(),
            (Kind::E5M2, false) => sign(neg) | exp_ones,
            (Kind::E4M3FN, false) => sign(neg) | 0x7F,
            (Kind::Fnuz, false) => 0x80,
        };
        match v {
            Val::Nan(neg) => match self.kind {
                Kind::Ieee => sign(neg) | exp_ones | (1 << (self.mbits - 1)),
                Kind::E4M3FN => sign(neg) | 0x7F,
                Kind::Fnuz => 0x80,
                Kind::E5M2 if from24 => sign(neg) | 0x7E,
                Kind::E5M2 => sign(neg) | 0x7F,
                // ml_dtypes: +NaN -> -0, -NaN -> +0; Cast <= 23: the largest finite value.
                Kind::Finite if from24 => sign(!neg),
                Kind::Finite => self.max_code(),
            },
            Val::Inf(neg) => overflow(neg),
            Val::Num(neg, x) => match self.nearest(x) {
                None => overflow(neg),
                Some(0) if self.kind == Kind::Fnuz => 0,
                Some(c) => sign(neg) | c,
            },
        }
    }
}

/// The formats of docs/semantics.md §3.1 (E8M0 aside), built on demand.
pub fn f16() -> RefFormat {
    RefFormat::new(5, 10, 15, Kind::Ieee)
}
pub fn bf16() -> RefFormat {
    RefFormat::new(8, 7, 127, Kind::Ieee)
}
pub fn e4m3fn() -> RefFormat {
    RefFormat::new(4, 3, 7, Kind::E4M3FN)
}
pub fn e4m3fnuz() -> RefFormat {
    RefFormat::new(4, 3, 8, Kind::Fnuz)
}
pub fn e5m2() -> RefFormat {
    RefFormat::new(5, 2, 15, Kind::E5M2)
}
pub fn e5m2fnuz() -> RefFormat {
    RefFormat::new(5, 2, 16, Kind::Fnuz)
}
pub fn e2m1() -> RefFormat {
    RefFormat::new(2, 1, 1, Kind::Finite)
}
pub fn e2m3() -> RefFormat {
    RefFormat::new(2, 3, 1, Kind::Finite)
}
pub fn e3m2() -> RefFormat {
    RefFormat::new(3, 2, 3, Kind::Finite)
}

/// E8M0 by the Cast-24 page's table (docs/semantics.md §3.7), stated on values rather than
/// on f32 bits: `x` is the source's exact value (f64 and integers included, never rounded to
/// f32 first); its sign is ignored. Outside [2^-127, 2^127] `saturate` clamps to the nearer end, or else gives
/// NaN; inside, the code is floor(log2 |x|) + 127, plus one per `round_mode`.
pub fn e8m0_encode(x: Val, up: bool, down: bool, saturate: bool) -> u32 {
    let clamp = |end: u32| if saturate { end } else { 0xFF };
    let a = match x {
        Val::Nan(_) => return 0xFF,
        Val::Inf(_) => return clamp(0xFE),
        Val::Num(_, d) => d,
    };
    if a.cmp(Dy::new(1, 127)) == Ordering::Greater {
        return clamp(0xFE);
    }
    if a.cmp(Dy::new(1, -127)) == Ordering::Less {
        return clamp(0x00);
    }
    // floor(log2 a), in [-127, 127] here.
    let k = a.top().expect("a >= 2^-127") as i32;
    let step = if down {
        false
    } else if up {
        a != Dy::new(1, k)
    } else {
        // Ties (1.5 * 2^k) go up.
        a.cmp(Dy::new(3, k - 1)) != Ordering::Less
    };
    (k + 127) as u32 + u32::from(step)
}

/// E8M0 decoding: 2^(c-127), 0xFF is NaN.
pub fn e8m0_decode(c: u32) -> Val {
    if c == 0xFF {
        Val::Nan(false)
    } else {
        Val::Num(false, Dy::new(1, c as i32 - 127))
    }
}

/// Decodes IEEE f32 bits by formula (a source, not a target: no table needed).
pub fn f32_val(bits: u32) -> Val {
    ieee_val(u64::from(bits), 8, 23, 127)
}

/// Decodes IEEE f64 bits by formula.
pub fn f64_val(bits: u64) -> Val {
    ieee_val(bits, 11, 52, 1023)
}

/// Decodes an IEEE-style code with the given field widths and bias.
pub fn ieee_val(bits: u64, ebits: u32, mbits: u32, bias: i32) -> Val {
    let s = bits >> (ebits + mbits) & 1 == 1;
    let field = (bits >> mbits) & ((1 << ebits) - 1);
    let mant = bits & ((1 << mbits) - 1);
    if field == (1 << ebits) - 1 {
        return if mant == 0 { Val::Inf(s) } else { Val::Nan(s) };
    }
    let d = if field == 0 {
        Dy::new(u128::from(mant), 1 - bias - mbits as i32)
    } else {
        Dy::new(
            u128::from(mant | (1 << mbits)),
            field as i32 - bias - mbits as i32,
        )
    };
    Val::Num(s, d)
}

/// The f32 bits of a value exactly representable in f32 (NaN canonical, sign kept).
pub fn f32_bits_exact(v: Val) -> u32 {
    match v {
        Val::Nan(s) => u32::from(s) << 31 | 0x7FC0_0000,
        Val::Inf(s) => u32::from(s) << 31 | 0x7F80_0000,
        Val::Num(s, d) => u32::from(s) << 31 | (d.to_f64() as f32).to_bits(),
    }
}

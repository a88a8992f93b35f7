//! Exact values and the rules that parameterise a conversion (spec §3.2, §3.3).

/// Which generation of Cast/CastLike behaviour applies: since-version <= 23 or >= 24 (spec §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Generation {
    /// Cast/CastLike up to version 23: bf16 truncation, int4 clamp, old NaN codes.
    Before24,
    /// Cast/CastLike 24 and later: bf16 RNE, int4 wrap, new NaN codes.
    From24,
}

impl Generation {
    /// The generation of a Cast/CastLike since-version.
    pub const fn of_version(since: u32) -> Generation {
        if since >= 24 {
            Generation::From24
        } else {
            Generation::Before24
        }
    }
}

/// E8M0 rounding (Cast-24 `round_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundMode {
    /// Round toward +infinity (`"up"`, the default).
    Up,
    /// Round toward zero (`"down"`).
    Down,
    /// Round to nearest, ties up (`"nearest"`).
    Nearest,
}

/// Everything that parameterises a conversion besides the types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastRules {
    /// The `saturate` attribute (Cast-19 and later; default 1).
    pub saturate: bool,
    /// The `round_mode` attribute (Cast-24 and later; default "up").
    pub round_mode: RoundMode,
    /// Which side of the version-24 switch applies.
    pub generation: Generation,
}

impl Default for CastRules {
    /// The attribute defaults of the newest Cast: saturate on, round up, version 24+ behaviour.
    fn default() -> Self {
        CastRules {
            saturate: true,
            round_mode: RoundMode::Up,
            generation: Generation::From24,
        }
    }
}

/// A value decoded exactly: value = (-1)^negative * mant * 2^exp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exact {
    /// Not a number; the sign is kept because the data expects it in some places.
    Nan {
        /// Sign bit of the NaN.
        negative: bool,
    },
    /// An infinity.
    Inf {
        /// Whether this is -Inf.
        negative: bool,
    },
    /// A finite value (mant = 0 is a signed zero).
    Finite {
        /// Sign (kept for zeros too).
        negative: bool,
        /// Integer significand; not necessarily normalised.
        mant: u128,
        /// Power-of-two scale.
        exp: i32,
    },
}

impl Exact {
    /// A signed integer, exactly.
    pub fn from_i128(v: i128) -> Exact {
        todo!("{v}")
    }

    /// An unsigned integer, exactly.
    pub fn from_u128(v: u128) -> Exact {
        todo!("{v}")
    }

    /// Truncates toward zero to an integer, saturating at the i128 range; None for NaN/Inf.
    pub fn trunc_to_i128(&self) -> Option<i128> {
        todo!()
    }

    /// Rounds half to even to an integer, saturating at the i128 range; None for NaN/Inf.
    pub fn round_half_even_to_i128(&self) -> Option<i128> {
        todo!()
    }

    /// Rounds half to even and keeps the low 128 bits of the two's-complement result
    /// (the "discard high bits" rule); None for NaN/Inf.
    pub fn round_half_even_wrapping(&self) -> Option<u128> {
        todo!()
    }

    /// Whether this is +0 or -0.
    pub fn is_zero(&self) -> bool {
        todo!()
    }
}

//! The type pairs the format tests check exhaustively, in one list. Each sweep's test asserts
//! that it checks exactly its pairs, and `every_listed_sweep_names_a_test_that_asserts_it`
//! that each listed test exists. Public so that `cargo xtask coverage` reads the same list for
//! its tables; no kernel uses it.

use super::Generation;
use vocab::DataType;
use DataType::*;

/// One exhaustive sweep: every source type converted into every target type, for the values
/// `what` describes, against the slow reference in the format tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The test that runs the sweep: `file.rs: function`, the file under `src/formats/tests/`.
    pub test: &'static str,
    /// What is swept, for documentation tables.
    pub what: &'static str,
    /// The source types.
    pub sources: &'static [DataType],
    /// The target types (each source goes into each of them).
    pub targets: &'static [DataType],
    /// The Cast generations the sweep checks (docs/semantics.md §3.2's version-24 switch).
    pub generations: &'static [Generation],
}

impl Sweep {
    /// Every (source, target) pair of the sweep.
    pub fn pairs(&self) -> impl Iterator<Item = (DataType, DataType)> + '_ {
        self.sources
            .iter()
            .flat_map(move |&s| self.targets.iter().map(move |&t| (s, t)))
    }
}

const BOTH: &[Generation] = &[Generation::Before24, Generation::From24];
const FROM24: &[Generation] = &[Generation::From24];

/// The float formats the reference encodes, as targets of the value sweeps.
const SMALL_AND_HALF: &[DataType] = &[
    Float8E4M3FN,
    Float8E4M3FNUZ,
    Float8E5M2,
    Float8E5M2FNUZ,
    Float4E2M1,
    Float6E2M3,
    Float6E3M2,
    Float16,
    Bfloat16,
];

/// Every f16 and every bf16 code into every small float, f16, bf16, f32 and E8M0 (`sweep.rs`).
pub const ENCODE_EVERY_VALUE: Sweep = Sweep {
    test: "sweep.rs: encode_every_value_of_every_listed_source",
    what: "every value of the source, saturate on and off (E8M0: every round mode)",
    sources: &[Float16, Bfloat16],
    targets: &[
        Float8E4M3FN,
        Float8E4M3FNUZ,
        Float8E5M2,
        Float8E5M2FNUZ,
        Float4E2M1,
        Float6E2M3,
        Float6E3M2,
        Float16,
        Bfloat16,
        Float,
        Float8E8M0,
    ],
    generations: BOTH,
};

/// Every code of every 8-, 6- and 4-bit float format decoded to f32, f64, f16, bf16 (`decode.rs`).
pub const DECODE_EVERY_CODE: Sweep = Sweep {
    test: "decode.rs: decode_every_code_of_every_listed_format",
    what: "every code of the source",
    sources: &[
        Float8E4M3FN,
        Float8E4M3FNUZ,
        Float8E5M2,
        Float8E5M2FNUZ,
        Float4E2M1,
        Float6E2M3,
        Float6E3M2,
        Float8E8M0,
    ],
    targets: &[Float, Double, Float16, Bfloat16],
    generations: BOTH,
};

/// Every f16 code into the sub-byte integers (`integers.rs`).
pub const SUBBYTE_INTEGERS: Sweep = Sweep {
    test: "integers.rs: subbyte_integers_from_every_f16",
    what: "every value of the source",
    sources: &[Float16],
    targets: &[Int4, Uint4, Int2, Uint2],
    generations: BOTH,
};

/// Every midpoint between adjacent values of each target, and one source ulp either side,
/// from f32 (where exact) and f64 (`midpoints.rs`).
pub const MIDPOINTS: Sweep = Sweep {
    test: "midpoints.rs: midpoints_of_every_target_from_f32_and_f64",
    what: "every midpoint between adjacent target values, and one source ulp either side",
    sources: &[Float, Double],
    targets: SMALL_AND_HALF,
    generations: FROM24,
};

/// Every E8M0 rounding boundary (powers of two and 1.5 times them) in the f32 range, one f32
/// ulp either side, from f64 (`midpoints.rs`).
pub const E8M0_BOUNDARIES: Sweep = Sweep {
    test: "midpoints.rs: e8m0_boundaries",
    what: "every power of two and 1.5 times it, one ulp either side, every round mode",
    sources: &[Double],
    targets: &[Float8E8M0],
    generations: FROM24,
};

/// Every exhaustive sweep the format tests run.
pub const SWEEPS: &[Sweep] = &[
    ENCODE_EVERY_VALUE,
    DECODE_EVERY_CODE,
    SUBBYTE_INTEGERS,
    MIDPOINTS,
    E8M0_BOUNDARIES,
];

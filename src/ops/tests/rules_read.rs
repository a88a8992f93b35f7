//! [`rules_read`] holds for both paths: on every numeric pair, under every rule set, the
//! generic path and (where one serves the pair) the fast path at every SIMD level give the same
//! bits on the rules as given as on the rules with the unread parts reset. Both paths reset them
//! before they run, so that is what says the reset changes no output, and what lets the
//! self-check run the rule sets it merges once.

use super::fast::{first_difference, same_bits};
use crate::dtype::{DataType, Storage};
use crate::formats::{CastRules, Generation, RoundMode};
use crate::ops::cast::{generic, generic_as_given, generic_each, rules_read};
use crate::ops::fast::cast_as_given;
use crate::ops::OpKind;
use crate::tuning::{Exec, SimdLevel};
use test_rng::XorShift64;

/// Every rule set: each saturate, generation and round_mode.
fn every_rule_set() -> Vec<CastRules> {
    let mut v = Vec::new();
    for saturate in [true, false] {
        for generation in [Generation::Before24, Generation::From24] {
            for round_mode in [RoundMode::Up, RoundMode::Down, RoundMode::Nearest] {
                v.push(CastRules {
                    saturate,
                    round_mode,
                    generation,
                });
            }
        }
    }
    v
}

/// Codes of a `bits`-wide type: all of them up to 16 bits; above, every value of the top 16
/// bits (sign, exponent and the high mantissa of a float) with low bits at the rounding
/// points of every narrower format (zero, a tie, either side of it, all ones), and a spread.
fn codes(bits: u32) -> Vec<u64> {
    if bits <= 16 {
        return (0..1u64 << bits).collect();
    }
    let low = bits - 16;
    let lows = [
        0,
        1,
        1 << (low - 1),
        (1 << (low - 1)) - 1,
        (1 << (low - 1)) + 1,
        (1 << (low - 4)) | 1,
        (1 << low) - 1,
    ];
    let mut v: Vec<u64> = (0..1u64 << 16)
        .flat_map(|h| lows.map(|l| h << low | l))
        .collect();
    let mut rng = XorShift64(0x9E37_79B9_7F4A_7C15);
    v.extend((0..1 << 14).map(|_| rng.next_u64() >> (64 - bits)));
    v
}

/// A storage of `dtype` holding `codes` (each cut to the type's width), or `None` for the
/// types outside the numeric paths.
fn storage(dtype: DataType, codes: &[u64]) -> Option<Storage> {
    crate::self_check::storage_of_codes(dtype, codes.iter().copied())
}

/// Holds every numeric pair from the sources `which` picks to [`rules_read`]; returns how many
/// (pair, rule set) combinations differed from their reset form, and so were compared.
fn holds_for(which: impl Fn(DataType) -> bool) -> usize {
    let op = crate::testkit::version(OpKind::Cast, 25);
    let levels: Vec<Exec> = SimdLevel::supported().map(Exec::single).collect();
    let mut compared = 0;
    for &from in DataType::ALL.iter().filter(|&&t| which(t)) {
        let Some(source) = storage(from, &codes(from.bit_width())) else {
            continue;
        };
        for &to in DataType::ALL {
            let read = rules_read(from, to);
            let generic = |rules: &CastRules| generic_as_given(op, &source, to, rules).ok();
            // Each reset rule set's outputs, computed once: the generic path's, then the fast
            // path's at each level.
            let mut reset: Vec<(CastRules, Option<Storage>, Vec<Option<Storage>>)> = Vec::new();
            for rules in every_rule_set() {
                let kept = rules.keeping(read);
                if kept == rules {
                    continue;
                }
                if !reset.iter().any(|(r, ..)| *r == kept) {
                    let fast = levels.iter().map(|x| cast_as_given(x, &source, to, &kept));
                    reset.push((kept, generic(&kept), fast.collect()));
                }
                let (_, want, want_fast) = reset.iter().find(|(r, ..)| *r == kept).unwrap();
                compared += 1;
                let say = |path: &str, got: &Storage, want: &Storage| {
                    let d = first_difference(got, want).unwrap_or_default();
                    format!("{from} -> {to} {path}: {rules:?} against {kept:?}: {d}")
                };
                match (generic(&rules), want) {
                    (Some(got), Some(want)) => {
                        assert!(same_bits(&got, want), "{}", say("generic", &got, want));
                    }
                    (got, want) => assert_eq!(got.is_some(), want.is_some(), "{from} -> {to}"),
                }
                for (x, want) in levels.iter().zip(want_fast) {
                    match (cast_as_given(x, &source, to, &rules), want) {
                        (Some(got), Some(want)) => {
                            let path = format!("fast at {}", x.level.name());
                            assert!(same_bits(&got, want), "{}", say(&path, &got, want));
                        }
                        (got, want) => {
                            assert_eq!(got.is_some(), want.is_some(), "{from} -> {to} fast");
                        }
                    }
                }
            }
        }
    }
    compared
}

// Split by source width, so that the test runner spreads the work over the cores.
#[test]
fn the_unread_rules_change_no_output_from_narrow_sources() {
    assert!(holds_for(|t| t.bit_width() <= 8) > 0);
}

#[test]
fn the_unread_rules_change_no_output_from_16_bit_sources() {
    assert!(holds_for(|t| t.bit_width() == 16) > 0);
}

#[test]
fn the_unread_rules_change_no_output_from_32_bit_sources() {
    assert!(holds_for(|t| t.bit_width() == 32) > 0);
}

#[test]
fn the_unread_rules_change_no_output_from_64_bit_sources() {
    assert!(holds_for(|t| t.bit_width() == 64) > 0);
}

/// The merges the self-check relies on for its 32-bit sources, spelled out.
#[test]
fn the_rules_read_by_the_32_bit_sources_pairs() {
    use DataType as D;
    let read = |from, to| {
        let r = rules_read(from, to);
        (r.saturate, r.generation, r.round_mode)
    };
    for from in [D::Int32, D::Uint32] {
        for to in [D::Int8, D::Uint64, D::Float, D::Double] {
            assert_eq!(read(from, to), (false, false, false), "{from} -> {to}");
        }
    }
    assert_eq!(read(D::Float, D::Float16), (false, false, false));
    assert_eq!(read(D::Float, D::Double), (false, false, false));
    assert_eq!(read(D::Float, D::Bfloat16), (false, true, false));
    assert_eq!(read(D::Float, D::Int4), (false, true, false));
    assert_eq!(read(D::Float, D::Float8E4M3FN), (true, false, false));
    assert_eq!(read(D::Float, D::Float8E4M3FNUZ), (true, false, false));
    assert_eq!(read(D::Float, D::Float8E5M2), (true, true, false));
    assert_eq!(read(D::Float, D::Float4E2M1), (false, true, false));
    assert_eq!(read(D::Float, D::Float8E8M0), (true, false, true));
    assert_eq!(read(D::Float8E4M3FNUZ, D::Float), (false, true, false));
    assert_eq!(read(D::Float, D::String), (true, true, true));
}

/// The self-check's entry to the generic path, many targets on one decoding per generation,
/// gives each target what a call of its own gives: every numeric pair under every rule set, on
/// more than one chunk of the generic path where the source has the codes.
#[test]
fn generic_each_gives_each_target_what_its_own_call_gives() {
    let op = crate::testkit::version(OpKind::Cast, 25);
    for &from in DataType::ALL {
        if storage(from, &[]).is_none() {
            continue;
        }
        let all = codes(from.bit_width());
        let sample: Vec<u64> = all
            .iter()
            .step_by((all.len() / 2500).max(1))
            .copied()
            .collect();
        let Some(source) = storage(from, &sample) else {
            continue;
        };
        let (mut targets, mut want) = (Vec::new(), Vec::new());
        for &to in DataType::ALL {
            for rules in every_rule_set() {
                if let Ok(out) = generic(op, &source, to, &rules) {
                    targets.push((to, rules));
                    want.push(out);
                }
            }
        }
        let got = generic_each(op, &source, &targets).unwrap_or_else(|e| panic!("{from}: {e}"));
        assert_eq!(got.len(), want.len(), "{from}");
        for ((to, rules), (got, want)) in targets.iter().zip(got.iter().zip(&want)) {
            let d = first_difference(got, want).unwrap_or_default();
            assert!(same_bits(got, want), "{from} -> {to} {rules:?}: {d}");
        }
    }
}

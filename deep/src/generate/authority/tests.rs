use super::*;
use Authority::*;

fn step(op: OpKind, version: u32, from: DataType, to: DataType) -> Step {
    Step {
        op,
        version,
        from,
        to,
        saturate: true,
        round_mode: RoundMode::Up,
    }
}

fn cast(version: u32, from: DataType, to: DataType) -> Step {
    step(OpKind::Cast, version, from, to)
}

fn of(s: &Step, class: &str, v: Val) -> Authority {
    decide(s, InputClass::from_label(class).expect("a class"), v).0
}

use DataType as T;

#[test]
fn exactness_follows_the_format_table() {
    // 1 + 2^-10 is the FLOAT16 value after 1; 1 + 2^-11 is not a FLOAT16 value.
    assert!(holds_exactly(T::Float16, Val::Float(1.0 + 2f64.powi(-10))));
    assert!(!holds_exactly(T::Float16, Val::Float(1.0 + 2f64.powi(-11))));
    // The smallest subnormals: 2^-24 (FLOAT16), 2^-9 (E4M3FN), 0.5 (FLOAT4E2M1).
    assert!(holds_exactly(T::Float16, Val::Float(2f64.powi(-24))));
    assert!(!holds_exactly(T::Float16, Val::Float(2f64.powi(-25))));
    assert!(holds_exactly(T::Float8E4M3FN, Val::Float(2f64.powi(-9))));
    assert!(!holds_exactly(
        T::Float8E4M3FNUZ,
        Val::Float(2f64.powi(-11))
    ));
    assert!(holds_exactly(T::Float4E2M1, Val::Float(-1.5)));
    assert!(!holds_exactly(T::Float4E2M1, Val::Float(2.5)));
    // Range: 448 is E4M3FN's largest value, 480 lies beyond it.
    assert!(holds_exactly(T::Float8E4M3FN, Val::Float(448.0)));
    assert!(!holds_exactly(T::Float8E4M3FN, Val::Float(480.0)));
    // Integers: 2^24 + 1 needs 25 significant bits.
    assert!(holds_exactly(T::Float, Val::Int(1 << 24)));
    assert!(!holds_exactly(T::Float, Val::Int((1 << 24) + 1)));
    assert!(holds_exactly(T::Bfloat16, Val::Int(-256)));
    assert!(!holds_exactly(T::Bfloat16, Val::Int(257)));
    // E8M0 holds the powers of two 2^-127 .. 2^127 only.
    assert!(holds_exactly(T::Float8E8M0, Val::Float(2f64.powi(-127))));
    assert!(!holds_exactly(T::Float8E8M0, Val::Float(2f64.powi(-128))));
    assert!(!holds_exactly(T::Float8E8M0, Val::Float(3.0)));
    assert!(!holds_exactly(T::Float, Val::Float(f64::INFINITY)));
}

#[test]
fn widening_pairs_are_exact_for_every_value() {
    for (from, to) in [
        (T::Float16, T::Float),
        (T::Bfloat16, T::Double),
        (T::Float8E4M3FN, T::Float16),
        (T::Float8E5M2FNUZ, T::Float16),
        (T::Float4E2M1, T::Bfloat16),
        (T::Int8, T::Bfloat16),
        (T::Int16, T::Float),
        (T::Uint32, T::Double),
        (T::Float8E8M0, T::Float),
    ] {
        assert!(widens(from, to), "{from:?} -> {to:?}");
    }
    for (from, to) in [
        (T::Float16, T::Bfloat16),
        (T::Float, T::Float16),
        (T::Int32, T::Float),
        (T::Int64, T::Double),
        (T::Float8E8M0, T::Float16),
        (T::Float8E5M2FNUZ, T::Float8E5M2),
    ] {
        assert!(!widens(from, to), "{from:?} -> {to:?}");
    }
}

#[test]
fn bfloat16_before_24_is_data_for_float_and_reading_for_other_sources() {
    let near = Val::Float(1.0 + 2f64.powi(-9));
    assert_eq!(
        of(&cast(23, T::Float, T::Bfloat16), "near-exact", near),
        Data
    );
    assert_eq!(
        of(&cast(13, T::Double, T::Bfloat16), "near-exact", near),
        Reading
    );
    assert_eq!(
        of(
            &cast(13, T::Int64, T::Bfloat16),
            "precision-edge",
            Val::Int(257)
        ),
        Reading
    );
    // A value BFLOAT16 holds is exact whatever the rounding rule.
    assert_eq!(
        of(&cast(13, T::Double, T::Bfloat16), "exact", Val::Float(1.5)),
        Page
    );
    assert_eq!(
        of(&cast(24, T::Double, T::Bfloat16), "near-exact", near),
        Ieee
    );
}

#[test]
fn ieee_rounding_and_page_tables() {
    let off = Val::Float(1.0 + 2f64.powi(-11) + 2f64.powi(-40));
    assert_eq!(
        of(&cast(13, T::Double, T::Float16), "double-rounding", off),
        Ieee
    );
    assert_eq!(
        of(&cast(19, T::Double, T::Float8E4M3FN), "near-tie", off),
        Page
    );
    assert_eq!(
        of(
            &cast(21, T::Int32, T::Float),
            "precision-edge",
            Val::Int((1 << 24) + 1)
        ),
        Ieee
    );
    // Fractions into integers: truncation is IEEE's; into the 4-bit types, int4.md's.
    assert_eq!(
        of(&cast(13, T::Float, T::Int32), "fraction", Val::Float(2.5)),
        Ieee
    );
    assert_eq!(
        of(&cast(21, T::Float, T::Int4), "fraction", Val::Float(2.5)),
        Page
    );
    assert_eq!(
        of(&cast(21, T::Float, T::Int4), "fraction", Val::Float(3.0)),
        Page
    );
    assert_eq!(
        of(&cast(13, T::Int32, T::Int8), "wrap-edge", Val::Int(200)),
        Page
    );
    assert_eq!(
        of(&cast(13, T::Float, T::Bool), "nonzero", Val::Float(0.5)),
        Page
    );
}

#[test]
fn data_decides_where_it_departs_from_the_page() {
    let inf = Val::Float(f64::INFINITY);
    assert_eq!(of(&cast(19, T::Float, T::Float8E4M3FNUZ), "inf", inf), Data);
    assert_eq!(of(&cast(24, T::Float, T::Float8E4M3FNUZ), "inf", inf), Page);
    let mut nosat = cast(19, T::Float, T::Float8E4M3FNUZ);
    nosat.saturate = false;
    assert_eq!(of(&nosat, "inf", inf), Page);
    let nan = Val::Float(f64::NAN);
    assert_eq!(of(&cast(24, T::Float, T::Float4E2M1), "nan", nan), Data);
    assert_eq!(of(&cast(23, T::Float, T::Float4E2M1), "nan", nan), Page);
    assert_eq!(
        of(&cast(19, T::Float, T::String), "decimal", Val::Float(0.1)),
        Data
    );
    assert_eq!(
        of(&cast(19, T::Double, T::String), "decimal", Val::Float(0.1)),
        Reading
    );
}

#[test]
fn e8m0_page_columns_modes_and_ties() {
    let mode = |saturate, round_mode| Step {
        saturate,
        round_mode,
        ..cast(24, T::Float, T::Float8E8M0)
    };
    let zero = Val::Float(0.0);
    assert_eq!(of(&mode(true, RoundMode::Up), "zero", zero), Page);
    assert_eq!(of(&mode(false, RoundMode::Nearest), "zero", zero), Page);
    assert_eq!(of(&mode(true, RoundMode::Down), "zero", zero), Reading);
    assert_eq!(
        of(
            &mode(false, RoundMode::Up),
            "inf",
            Val::Float(f64::INFINITY)
        ),
        Reading
    );
    let tie = Val::Float(1.5 * 2f64.powi(-3));
    assert_eq!(of(&mode(true, RoundMode::Nearest), "tie", tie), Reading);
    assert_eq!(of(&mode(true, RoundMode::Up), "tie", tie), Page);
    assert_eq!(
        of(&mode(true, RoundMode::Down), "normal", Val::Float(3.5)),
        Page
    );
    assert_eq!(
        of(&mode(true, RoundMode::Down), "nan", Val::Float(f64::NAN)),
        Page
    );
}

#[test]
fn a_chain_step_is_exact_only_when_the_pair_widens() {
    assert_eq!(decide_any(&cast(13, T::Float16, T::Float)).0, Page);
    assert_eq!(decide_any(&cast(13, T::Bfloat16, T::Float)).0, Page);
    assert_eq!(decide_any(&cast(13, T::Int64, T::Float)).0, Ieee);
    assert_eq!(decide_any(&cast(13, T::Float, T::Bfloat16)).0, Data);
    assert_eq!(
        weaker(
            decide_any(&cast(13, T::Float, T::Bfloat16)),
            decide_any(&cast(13, T::Bfloat16, T::Float))
        )
        .0,
        Data
    );
}

#[test]
fn e5m2_infinity_into_itself_under_saturation_is_our_reading() {
    let s = cast(19, T::Float8E5M2, T::Float8E5M2);
    assert_eq!(of(&s, "inf", Val::Float(f64::INFINITY)), Reading);
    assert_eq!(of(&s, "normal", Val::Float(1.5)), Page);
    let nosat = Step {
        saturate: false,
        ..s
    };
    assert_eq!(of(&nosat, "inf", Val::Float(f64::INFINITY)), Page);
}

/// Into the float6 types (docs/semantics.md §3.12): a value they hold is the page's, rounding
/// within the range is IEEE's, saturation beyond it and NaN are our reading.
#[test]
fn float6_rounds_by_ieee_and_saturates_and_maps_nan_by_our_reading() {
    for (to, held, inside, beyond) in [
        (T::Float6E2M3, 7.5, 1.0625, 7.75),
        (T::Float6E3M2, 28.0, 18.0, 30.0),
    ] {
        for from in [T::Float, T::Double, T::Float16] {
            let s = cast(28, from, to);
            assert_eq!(of(&s, "exact", Val::Float(-held)), Page, "{to}");
            assert_eq!(of(&s, "tie", Val::Float(inside)), Ieee, "{to}");
            assert_eq!(of(&s, "above-max", Val::Float(beyond)), Reading, "{to}");
            assert_eq!(
                of(&s, "inf", Val::Float(f64::NEG_INFINITY)),
                Reading,
                "{to}"
            );
            assert_eq!(of(&s, "nan", Val::Float(f64::NAN)), Reading, "{to}");
        }
        assert_eq!(
            of(
                &cast(28, T::Int64, to),
                "range-edge",
                Val::Int(i64::MAX.into())
            ),
            Reading
        );
    }
    // 18, between FLOAT6E3M2's 16 and 20, rounds (to even, 16); FLOAT6E2M3 holds every
    // integer of its range.
    assert_eq!(
        of(&cast(28, T::Int64, T::Float6E3M2), "small", Val::Int(18)),
        Ieee
    );
    assert_eq!(
        of(&cast(28, T::Int64, T::Float6E2M3), "small", Val::Int(7)),
        Page
    );
    // From float6, every value of a wider float is exact.
    assert_eq!(
        of(
            &cast(28, T::Float6E3M2, T::Float16),
            "normal",
            Val::Float(-28.0)
        ),
        Page
    );
    assert!(holds_exactly(T::Float6E2M3, Val::Float(0.125)));
    assert!(!holds_exactly(T::Float6E2M3, Val::Float(0.0625)));
    assert!(holds_exactly(T::Float6E3M2, Val::Float(0.0625)));
}

/// Rounding once from a wide source's exact value is IEEE 754's rule into FLOAT16 (a
/// conversion between two of its formats) but only our reading into BFLOAT16 (none of its
/// formats, and the page fixes no path), on the values where the paths differ: DOUBLE
/// 1 + 2^-8 + 2^-30 and INT64 2155872257 lie just off a BFLOAT16 midpoint that rounding
/// through FLOAT lands on; DOUBLE 3.3961775292304597e38 just below BFLOAT16's overflow
/// threshold, which FLOAT rounds onto.
#[test]
fn double_rounding_into_bfloat16_is_our_reading_and_into_float16_ieee() {
    let off_tie = Val::Float(1.0 + 2f64.powi(-8) + 2f64.powi(-30));
    let near_overflow = Val::Float(3.3961775292304597e38);
    for version in [24, 25] {
        let s = cast(version, T::Double, T::Bfloat16);
        assert_eq!(of(&s, "double-rounding", off_tie), Reading);
        assert_eq!(of(&s, "above-max", near_overflow), Reading);
        for from in [T::Int64, T::Uint32, T::Uint64, T::Int32] {
            let s = cast(version, from, T::Bfloat16);
            assert_eq!(of(&s, "double-rounding", Val::Int(2_155_872_257)), Reading);
            // One value rounds, whatever the path: IEEE 754's rule.
            assert_eq!(of(&s, "tie", Val::Int(2_155_872_256)), Ieee, "{from}");
        }
        assert_eq!(of(&s, "tie", Val::Float(1.0 + 2f64.powi(-8))), Ieee);
        let s = cast(version, T::Double, T::Float16);
        assert_eq!(of(&s, "double-rounding", off_tie), Ieee);
    }
    // Up to 23 the version switch decides, not the path.
    let s = cast(23, T::Double, T::Bfloat16);
    assert_ne!(of(&s, "double-rounding", off_tie), Ieee);
}

/// The exact rounding the authority uses, against two roundings written elsewhere: Rust's
/// `as f32` (f64 to FLOAT) and the half crate's bf16::from_f32 (FLOAT to BFLOAT16), on random
/// bit patterns and every boundary exponent.
#[test]
fn nearest_rounds_as_rust_and_the_half_crate_do() {
    let mut rng = test_rng::XorShift64Star(0xB16);
    for _ in 0..200_000 {
        let d = f64::from_bits(rng.next_u64());
        if d.is_nan() {
            continue;
        }
        let want = d as f32;
        assert_eq!(
            nearest(T::Float, Val::Float(d)).map(f64::to_bits),
            Some(f64::from(want).to_bits()),
            "{d:e}"
        );
        let f = f32::from_bits(rng.next_u64() as u32);
        if f.is_nan() {
            continue;
        }
        let want = half::bf16::from_f32(f).to_f64();
        assert_eq!(
            nearest(T::Bfloat16, Val::Float(f64::from(f))).map(f64::to_bits),
            Some(want.to_bits()),
            "{f:e} ({:#x})",
            f.to_bits()
        );
    }
    for i in [
        0i128,
        1,
        -1,
        255,
        257,
        -257,
        (1 << 24) + 1,
        i64::MAX.into(),
        u64::MAX.into(),
    ] {
        assert_eq!(
            nearest(T::Float, Val::Int(i)).map(f64::to_bits),
            Some(f64::from(i as f32).to_bits()),
            "{i}"
        );
    }
}

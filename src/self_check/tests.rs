//! The self-check's entry point on slices of codes: every case passes at every level the CPU
//! has, and a wrong output planted in a fast result is reported with its bits.

use super::*;

/// Codes from every region of a 32-bit source (the low codes, where f32 subnormals and small
/// integers are; around 1.0; around the largest finite f32 and the NaNs and the top of the
/// integer range) and every code of a narrower one: a slice CI can afford.
fn slices(from: DataType) -> Vec<(u64, u64)> {
    match from.bit_width() {
        32 => vec![
            (0, 4096),
            (0x3F7F_F800, 4096),
            (0x7F7F_F800, 4096),
            (0xFF7F_F800, 4096),
            (0xFFFF_F000, 4096),
        ],
        _ => vec![(0, code_count(from))],
    }
}

#[test]
fn every_case_passes_on_slices_at_every_level() {
    let levels: Vec<SimdLevel> = SimdLevel::supported().collect();
    for case in cases() {
        for (first, len) in slices(case.from) {
            let checked = check(&case, first, len, &levels).unwrap_or_else(|e| panic!("{e}"));
            let listed: Vec<String> = checked.mismatches.iter().map(|m| m.to_string()).collect();
            assert_eq!(checked.differing, 0, "{}", listed.join("\n"));
        }
    }
}

#[test]
fn the_cases_are_every_fast_pair_under_every_rule_set() {
    let cases = cases();
    // (cases, rule sets they stand for)
    let count = |from, to| {
        let of = cases.iter().filter(|c| c.from == from && c.to == to);
        (of.clone().count(), of.map(|c| c.rule_sets).sum::<usize>())
    };
    use DataType as D;
    // Every rule set is covered; those differing only in parts the pair does not read are one.
    assert_eq!(count(D::Float, D::Float4E2M1), (2, 4));
    assert_eq!(count(D::Float, D::Float8E8M0), (6, 12));
    assert_eq!(count(D::Float, D::Float8E5M2), (4, 4));
    assert_eq!(count(D::Float, D::Float16), (1, 4));
    assert_eq!(count(D::Bfloat16, D::Float8E4M3FN), (2, 4));
    assert_eq!(count(D::Int32, D::Int8), (1, 4));
    assert_eq!(count(D::Uint32, D::Double), (1, 4));
    assert_eq!(count(D::Float4E2M1, D::Float), (1, 4));
    assert_eq!(count(D::Float8E4M3FNUZ, D::Float), (2, 4));
    // The 32-bit sources: 60 cases of FLOAT, 40 each of INT32 and UINT32 before the merge.
    let of = |from| cases.iter().filter(move |c: &&Case| c.from == from);
    assert_eq!(of(D::Float).count(), 30);
    assert_eq!(of(D::Float).map(|c| c.rule_sets).sum::<usize>(), 60);
    assert_eq!(of(D::Int32).count(), 10);
    assert_eq!(of(D::Uint32).map(|c| c.rule_sets).sum::<usize>(), 40);
    // Each case runs the rules with what the pair does not read at its default.
    assert!(cases.iter().all(|c| c.rules == c.rules.keeping(c.read)));
    // No fast path, or a source too wide to run every code of.
    assert_eq!(count(D::Float, D::Int32), (0, 0));
    assert_eq!(count(D::Double, D::Float), (0, 0));
    assert_eq!(count(D::Int64, D::Int8), (0, 0));
    // Every 32-bit source the issue names, and nothing wider.
    for from in [D::Float, D::Int32, D::Uint32] {
        assert!(cases.iter().any(|c| c.from == from), "{from:?}");
    }
    assert!(cases.iter().all(|c| c.from.bit_width() <= 32));
}

/// The fast path with the output at index `at` changed to another code of its type.
fn planted(case: Case, at: usize) -> impl Fn(&Exec, &Storage) -> Option<Storage> {
    move |exec, src| {
        let Storage::Float4E2M1(mut v) = crate::ops::fast::cast(exec, src, case.to, &case.rules)?
        else {
            panic!("{case}: not a FLOAT4E2M1 output");
        };
        v[at] = F4E2M1::from_bits(v[at].to_bits() ^ 1);
        Some(Storage::Float4E2M1(v))
    }
}

#[test]
fn a_wrong_output_is_reported_with_its_bits_and_level() {
    let case = Case::new(DataType::Float, DataType::Float4E2M1, CastRules::default());
    let levels: Vec<SimdLevel> = SimdLevel::supported().collect();
    // 1.0 is code 0x2 in FLOAT4E2M1; the planted output is 0x3.
    let first = 0x3F80_0000 - 100;
    let checked = check_with(&case, first, 1000, &levels, &planted(case, 100)).unwrap();
    assert_eq!(checked.differing, levels.len() as u64);
    for (m, &level) in checked.mismatches.iter().zip(&levels) {
        let want = Mismatch {
            case,
            level,
            input: 0x3F80_0000,
            fast: 0x3,
            exact: 0x2,
        };
        assert_eq!(*m, want);
        let line = m.to_string();
        assert!(
            line.contains("input 0x3f800000, fast 0x3, exact 0x2"),
            "{line}"
        );
        assert!(line.contains("FLOAT -> FLOAT4E2M1"), "{line}");
        assert!(line.contains(level.name()), "{line}");
    }
    // Unplanted, the same slice passes.
    assert_eq!(
        check(&case, first, 1000, &levels).unwrap(),
        Checked::default()
    );
}

#[test]
fn the_listed_mismatches_are_capped_and_the_rest_counted() {
    let case = Case::new(DataType::Float, DataType::Float4E2M1, CastRules::default());
    let every = |exec: &Exec, src: &Storage| {
        let Storage::Float4E2M1(v) = crate::ops::fast::cast(exec, src, case.to, &case.rules)?
        else {
            return None;
        };
        let v = v.iter().map(|c| F4E2M1::from_bits(c.to_bits() ^ 1));
        Some(Storage::Float4E2M1(v.collect()))
    };
    let checked = check_with(&case, 0, 100, &[SimdLevel::Baseline], &every).unwrap();
    assert_eq!(checked.differing, 100);
    assert_eq!(checked.mismatches.len(), MAX_REPORTED);
}

#[test]
fn a_case_without_a_fast_path_is_an_error() {
    let case = Case::new(DataType::Float, DataType::Int32, CastRules::default());
    assert!(check(&case, 0, 10, &[SimdLevel::Baseline]).is_err());
    let wide = Case::new(DataType::Double, DataType::Float, CastRules::default());
    assert!(check(&wide, 0, 10, &[SimdLevel::Baseline]).is_err());
}

/// The comparison sees every difference of bits: the sign of zero, NaN payloads, INT4 codes.
#[test]
fn differing_reads_bits_not_values() {
    let f = |v: &[u32]| Storage::Float(v.iter().map(|&b| f32::from_bits(b)).collect());
    let (a, b) = (f(&[0, 0x7FC0_0000, 1]), f(&[0x8000_0000, 0x7FC0_0001, 1]));
    assert_eq!(differing(&a, &b), Some(vec![0, 1]));
    assert_eq!(differing(&a, &a), Some(vec![]));
    let i4 = |v: &[u8]| Storage::Int4(v.iter().map(|&b| I4::from_bits(b)).collect());
    assert_eq!(differing(&i4(&[1, 15]), &i4(&[1, 7])), Some(vec![1]));
    assert_eq!(differing(&i4(&[1]), &f(&[1])), None);
}

//! Unit tests of the tuning settings: SIMD level and thread-count parsing, detected levels.

use super::*;

#[test]
fn simd_values_parse_and_bad_ones_name_the_variable() {
    assert_eq!(SimdLevel::parse("avx2"), Ok(SimdLevel::Avx2));
    assert_eq!(SimdLevel::parse("baseline"), Ok(SimdLevel::Baseline));
    assert_eq!(SimdLevel::parse("avx512"), Ok(SimdLevel::Avx512));
    assert_eq!(SimdLevel::parse("native"), Ok(SimdLevel::Avx512));
    for bad in ["AVX2", "sse", "", "avx2 "] {
        let e = SimdLevel::parse(bad).unwrap_err().to_string();
        assert!(e.contains(SIMD_VAR) && e.contains("avx2"), "{bad:?}: {e}");
    }
}

#[test]
fn thread_values_parse_and_bad_ones_name_the_variable() {
    assert_eq!(parse_threads("3"), Ok(3));
    for bad in ["0", "-1", "two", ""] {
        let e = parse_threads(bad).unwrap_err().to_string();
        assert!(e.contains(THREADS_VAR), "{bad:?}: {e}");
    }
}

/// The features of each level as the crate defines them (x86-64-v3 and v4 without the ones
/// every such CPU has anyway), written here apart from the table in `tuning.rs`.
const AVX2_LEVEL: [&str; 7] = ["avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "popcnt"];
const AVX512_LEVEL: [&str; 5] = ["avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl"];

/// For every combination of the features detection reads (all 2^13), the level is the
/// highest whose features are all present, and the BF16 kernels need AVX-512 and
/// AVX512-BF16: a CPU missing any one feature of a level never gets it.
#[test]
fn the_level_of_every_feature_combination() {
    let mut names = FEATURES.to_vec();
    names.sort_unstable();
    let mut spec = [&AVX2_LEVEL[..], &AVX512_LEVEL, &["avx512bf16"]].concat();
    spec.sort_unstable();
    assert_eq!(names, spec, "the features detection reads");
    let mut seen = [0; 3];
    for bits in 0..1u32 << FEATURES.len() {
        let has = |name: &&str| {
            let i = FEATURES
                .iter()
                .position(|f| f == name)
                .expect("a listed feature");
            bits & 1 << i != 0
        };
        let want = match (AVX2_LEVEL.iter().all(has), AVX512_LEVEL.iter().all(has)) {
            (true, true) => SimdLevel::Avx512,
            (true, false) => SimdLevel::Avx2,
            (false, _) => SimdLevel::Baseline,
        };
        let set = FeatureSet(bits);
        assert_eq!(level_for(set), want, "features {bits:#015b}");
        let bf16 = want == SimdLevel::Avx512 && has(&"avx512bf16");
        assert_eq!(bf16_for(set), bf16, "features {bits:#015b}");
        seen[want as usize] += 1;
    }
    // Every level is reached: 2^6 sets hold all 7 AVX2 features, 2 of them all 12.
    assert_eq!(seen, [8192 - 64, 64 - 2, 2]);
}

/// Bit `i` of a detected set is feature `i`.
#[test]
fn flags_become_bits_in_order() {
    assert_eq!(FeatureSet::from_flags(&[]), FeatureSet(0));
    assert_eq!(
        FeatureSet::from_flags(&[true, false, true]),
        FeatureSet(0b101)
    );
    assert_eq!(
        FeatureSet::from_flags(&[false, true, true, false]),
        FeatureSet(0b110)
    );
}

/// The detected level is the one the CPU's features give, asked here feature by feature.
#[cfg(target_arch = "x86_64")]
#[test]
fn detection_reads_the_cpu() {
    use std::arch::is_x86_feature_detected as has;
    let v3 = has!("avx2") && has!("bmi1") && has!("bmi2") && has!("f16c") && has!("fma");
    let v3 = v3 && has!("lzcnt") && has!("popcnt");
    let v4 = has!("avx512bw") && has!("avx512cd") && has!("avx512dq") && has!("avx512f");
    let v4 = v4 && has!("avx512vl");
    let want = match (v3, v4) {
        (true, true) => SimdLevel::Avx512,
        (true, false) => SimdLevel::Avx2,
        (false, _) => SimdLevel::Baseline,
    };
    assert_eq!(SimdLevel::detected(), want);
    let bf16 = want == SimdLevel::Avx512 && has!("avx512bf16");
    assert_eq!(has_avx512bf16(), bf16);
}

/// Outside x86-64 nothing is detected: the portable paths only.
#[cfg(not(target_arch = "x86_64"))]
#[test]
fn detection_finds_nothing_outside_x86_64() {
    assert_eq!(FeatureSet::detected(), FeatureSet(0));
    assert_eq!(SimdLevel::detected(), SimdLevel::Baseline);
    assert!(!has_avx512bf16());
}

#[test]
fn supported_levels_start_at_baseline_and_end_at_the_detected_one() {
    let levels: Vec<_> = SimdLevel::supported().collect();
    assert_eq!(levels.first(), Some(&SimdLevel::Baseline));
    assert_eq!(levels.last(), Some(&SimdLevel::detected()));
}

/// The streaming threshold setter reaches the next call's settings, its extremes included,
/// and `None` restores the default. Only this test sets it; it changes how kernels write,
/// never what, so tests running beside it are unaffected.
#[test]
fn stream_threshold_is_set_and_restored() {
    for (set, want) in [
        (Some(0), 0),
        (Some(5), 5),
        (Some(usize::MAX), usize::MAX),
        (None, crate::stream::STREAM_MIN_BYTES),
    ] {
        set_stream_min_bytes(set);
        assert_eq!(
            current().expect("settings").stream_min_bytes,
            want,
            "{set:?}"
        );
    }
}

/// Streaming starts at the threshold itself.
#[test]
fn streaming_starts_at_the_threshold() {
    let exec = Exec {
        level: SimdLevel::Baseline,
        threads: 3,
        min_per_thread: 7,
        stream_min_bytes: 64,
    };
    assert_eq!([63, 64, 65].map(|b| exec.streams(b)), [false, true, true]);
}

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

/// Streaming starts at the threshold itself; `never_streaming` keeps every other setting.
#[test]
fn streaming_starts_at_the_threshold_and_can_be_turned_off() {
    let exec = Exec {
        level: SimdLevel::Baseline,
        threads: 3,
        min_per_thread: 7,
        stream_min_bytes: 64,
    };
    assert_eq!([63, 64, 65].map(|b| exec.streams(b)), [false, true, true]);
    let off = exec.never_streaming();
    assert!(!off.streams(usize::MAX - 1));
    assert_eq!(
        off,
        Exec {
            stream_min_bytes: usize::MAX,
            ..exec
        }
    );
}

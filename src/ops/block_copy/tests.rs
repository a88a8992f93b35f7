//! Unit tests of `BlockCopy`: streaming appends equal plain ones.

use super::*;
use crate::formats::{Complex128, I4};

/// Streaming appends at every alignment and length give what `extend_from_slice` gives.
fn check<T: BlockCopy + Copy + PartialEq + std::fmt::Debug>(values: &[T]) {
    for prefix in 0..17 {
        for len in 0..=values.len().min(150) {
            let start = prefix.min(values.len());
            let mut streamed = values[..start].to_vec();
            streamed.reserve(1);
            T::append(&mut streamed, &values[..len], true);
            crate::stream::fence();
            let mut plain = values[..start].to_vec();
            plain.extend_from_slice(&values[..len]);
            assert_eq!(streamed, plain, "prefix {prefix}, len {len}");
            let mut written = vec![MaybeUninit::new(values[0]); len + prefix];
            T::write(&mut written[prefix..], &values[..len], true);
            crate::stream::fence();
            // SAFETY: every element was initialised by `vec!`.
            let written: Vec<T> = written.iter().map(|w| unsafe { w.assume_init() }).collect();
            assert_eq!(
                written[prefix..],
                plain[start..],
                "write: prefix {prefix}, len {len}"
            );
        }
    }
}

#[test]
fn streaming_appends_equal_plain_appends() {
    check(&(0..200u8).collect::<Vec<_>>());
    check(&(0..200).map(|i| i as f32 * 1.5 - 7.0).collect::<Vec<_>>());
    check(&(0..80).map(|i| i % 3 == 0).collect::<Vec<_>>());
    check(&(0..80).map(I4::from_bits).collect::<Vec<_>>());
    let complex: Vec<Complex128> = (0..80)
        .map(|i| Complex128 {
            re: f64::from(i),
            im: -f64::from(i),
        })
        .collect();
    check(&complex);
}

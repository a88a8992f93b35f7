use super::*;
use crate::tuning::SimdLevel;
use std::sync::Mutex;

/// Every element is visited once, in pieces aligned to ALIGN, whatever the thread count.
#[test]
fn pieces_cover_the_output_once() {
    for threads in [1, 2, 3, 7] {
        for len in [0, 1, 63, 64, 65, 127, 128, 129, 191, 192, 193, 1000, 4097] {
            let exec = Exec {
                level: SimdLevel::Baseline,
                threads,
                min_per_thread: 1,
                stream_min_bytes: usize::MAX,
            };
            let mut dst = vec![MaybeUninit::new(u32::MAX); len];
            let starts = Mutex::new(Vec::new());
            split(&exec, &mut dst, &|start, piece| {
                for (i, d) in piece.iter_mut().enumerate() {
                    d.write((start + i) as u32);
                }
                starts.lock().unwrap().push((start, piece.len()));
            });
            // SAFETY: every element was initialised by `vec!` above.
            let got: Vec<u32> = dst.iter().map(|d| unsafe { d.assume_init() }).collect();
            assert_eq!(got, (0..len as u32).collect::<Vec<_>>());
            let mut starts = starts.into_inner().unwrap();
            starts.sort_unstable();
            let pieces = starts.len();
            assert!(starts.len() <= threads, "{len} x {threads}: {starts:?}");
            let mut next = 0;
            for (s, l) in starts {
                assert_eq!((s, s % ALIGN), (next, 0), "{len} x {threads}");
                next += l;
            }
            assert_eq!(next, len);
            let split_expected = threads > 1 && len > ALIGN;
            assert_eq!(split_expected, pieces > 1, "{len} x {threads}");
        }
    }
}

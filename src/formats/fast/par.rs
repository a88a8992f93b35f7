//! One conversion split over threads: each thread writes one contiguous piece of the output,
//! and every element depends only on its own source element, so the bits cannot depend on the
//! thread count.
//!
//! Scoped threads (`std::thread::scope`) rather than a pool: no dependency, and a spawn costs
//! tens of microseconds, which [`crate::tuning::MIN_PER_THREAD`] keeps below a few percent of
//! the work it buys.

use crate::tuning::Exec;
use std::mem::MaybeUninit;

/// Pieces start at multiples of this many elements, so no two threads write one cache line.
const ALIGN: usize = 64;

/// The piece length for `len` elements under `exec`, or `None` when one thread does it all.
fn piece_len(len: usize, exec: &Exec) -> Option<usize> {
    let parts = exec.threads.min(len / exec.min_per_thread.max(1));
    (parts > 1).then(|| len.div_ceil(parts).next_multiple_of(ALIGN))
}

/// Whether [`split`] would use more than one thread for `len` elements.
pub(crate) fn splits(len: usize, exec: &Exec) -> bool {
    piece_len(len, exec).is_some()
}

/// Runs `work(start, piece)` over consecutive pieces of `dst` (`start` is the piece's index in
/// `dst`), on up to `exec.threads` threads; the calling thread takes the last piece.
pub(crate) fn split<D: Send>(
    exec: &Exec,
    dst: &mut [MaybeUninit<D>],
    work: &(impl Fn(usize, &mut [MaybeUninit<D>]) + Sync),
) {
    let Some(step) = piece_len(dst.len(), exec) else {
        return work(0, dst);
    };
    std::thread::scope(|s| {
        let (mut rest, mut start) = (dst, 0);
        while rest.len() > step {
            let (head, tail) = rest.split_at_mut(step);
            s.spawn(move || work(start, head));
            (rest, start) = (tail, start + step);
        }
        work(start, rest);
    });
}

#[cfg(test)]
mod tests {
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
}

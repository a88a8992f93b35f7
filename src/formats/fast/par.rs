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
///
/// `work` is a trait object, not a generic: the thread machinery behind `scope` and `spawn`
/// would otherwise be compiled again for every kernel (over a hundred copies, an eighth of the
/// crate's machine code), while a dynamic call per piece costs nothing measurable.
pub(crate) fn split<D: Send>(
    exec: &Exec,
    dst: &mut [MaybeUninit<D>],
    work: &(dyn Fn(usize, &mut [MaybeUninit<D>]) + Sync),
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
mod tests;

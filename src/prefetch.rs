//! Software prefetch for the kernels that read a source once, in order: Cast's fast paths and
//! Concat's streaming copies ask for their source [`DISTANCE`] bytes before they reach it.
//!
//! A hardware stream prefetcher that stops at page boundaries (Intel's L2 streamer does)
//! starts every 4 KiB page cold, so one core keeps too few reads in flight to approach the
//! rate that memcpy's `rep movsb` reaches by other means. Asking for the lines two pages early
//! closes that gap. Measured on an Intel Xeon (family 6 model 207, 2 vCPUs), 16M f32 to
//! FLOAT8E4M3FN at 2 threads: 0.36-0.40x memcpy without it, 0.76-1.26x with it; distances from
//! 4 to 16 KiB did about as well (docs/performance.md). A hint only: no value depends on it.

/// How far ahead of the element being converted the source is asked for, in bytes.
pub(crate) const DISTANCE: usize = 8 << 10;

/// Asks for the cache lines of `src[from..from + count]`, moved [`DISTANCE`] bytes ahead.
#[inline(always)]
pub(crate) fn ahead<S>(src: &[S], from: usize, count: usize) {
    // Wrapping: past the end of `src` the address is only hinted, never dereferenced.
    let start = src.as_ptr().wrapping_add(from).cast::<u8>();
    for offset in (0..count * size_of::<S>()).step_by(64) {
        line(start.wrapping_add(offset));
    }
}

/// Asks for the cache line [`DISTANCE`] bytes after `at`.
#[inline(always)]
pub(crate) fn line(at: *const u8) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: `prefetcht0` is SSE, part of the x86-64 baseline, and never faults,
        // whatever the address: a line that is not mapped is simply not fetched.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(DISTANCE).cast()) };
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    let _ = (at, DISTANCE);
}

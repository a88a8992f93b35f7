//! Streaming (non-temporal) stores for outputs larger than the caches.
//!
//! An operator output is written once and not read back soon. Ordinary stores first fetch
//! each output cache line (read for ownership) and then evict it again; non-temporal stores
//! write around the caches. On the 2-core EPYC this project is measured on, a standalone loop
//! gathering 8 inputs into 128 MiB in 4 KiB blocks ran at 32 GB/s with ordinary stores and
//! 47 GB/s with streaming stores (a memcpy of the same bytes: 42 GB/s, since glibc streams
//! large copies). In the benchmark, Concat of two [4096, 4096] f32 tensors went from 35-43 to
//! 54-59 GB/s.
//!
//! Only Concat uses it. Cast's fast paths were tried with conversion into L1-sized chunks
//! streamed out, and ran 10-20 % slower than converting straight into the output.

/// Output size in bytes from which operators stream their stores: half the last-level cache of
/// the machine above, so that outputs that could stay cached for the next operator still do.
pub(crate) const STREAM_MIN_BYTES: usize = 16 << 20;

/// Orders every streaming store made so far before any later store, so that another thread
/// that receives the output sees all of it. One fence per output: a fence per block drains the
/// write-combining buffers each time and made streaming slower than ordinary stores.
pub(crate) fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: sfence has no preconditions; SSE is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_sfence();
    }
}

/// Appends `src` with 16-byte non-temporal stores (SSE2, part of the x86-64 baseline); the
/// unaligned head and the tail are copied normally. The caller fences (see [`fence`]).
#[cfg(target_arch = "x86_64")]
pub(crate) fn append_streaming<T: Copy>(out: &mut Vec<T>, src: &[T]) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
    out.reserve(src.len());
    let (len, count, bytes) = (out.len(), src.len(), std::mem::size_of_val(src));
    // SAFETY: `reserve` made room for `count` more elements after `len`, so the destination
    // bytes are allocated, and they cannot overlap `src`, which is borrowed immutably. `T` is
    // `Copy` and none of the table's element types has padding, so every byte read is
    // initialised and a bitwise copy is exactly a clone. Streaming stores only go to
    // 16-byte-aligned addresses (`head` aligns them; if `align_offset` gives up, `head` covers
    // everything). All `bytes` bytes are written before `set_len`; this thread sees its own
    // streaming stores in program order, and the caller's `fence` publishes them to others.
    unsafe {
        let dst = out.as_mut_ptr().add(len).cast::<u8>();
        let from = src.as_ptr().cast::<u8>();
        let head = dst.align_offset(16).min(bytes);
        std::ptr::copy_nonoverlapping(from, dst, head);
        let mut i = head;
        // A whole cache line per iteration: one 16-byte store per loop trip left the loop
        // bound by its own instructions at about 20 GB/s.
        while i + 64 <= bytes {
            for k in [0, 16, 32, 48] {
                let chunk = _mm_loadu_si128(from.add(i + k).cast::<__m128i>());
                _mm_stream_si128(dst.add(i + k).cast::<__m128i>(), chunk);
            }
            i += 64;
        }
        while i + 16 <= bytes {
            let chunk = _mm_loadu_si128(from.add(i).cast::<__m128i>());
            _mm_stream_si128(dst.add(i).cast::<__m128i>(), chunk);
            i += 16;
        }
        std::ptr::copy_nonoverlapping(from.add(i), dst.add(i), bytes - i);
        out.set_len(len + count);
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn append_streaming<T: Copy>(out: &mut Vec<T>, src: &[T]) {
    out.extend_from_slice(src);
}

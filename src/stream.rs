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
//! Concat copies with it; Cast's fast paths convert each output line in registers and stream
//! the line out ([`store_line`], `formats/fast/map.rs`, and the hardware kernels' own
//! stores). An earlier try that converted into L1-sized chunks and streamed those out ran
//! 10-20 % slower than converting straight into the output.

/// Output size in bytes from which operators stream their stores: half the last-level cache of
/// the machine above, so that outputs that could stay cached for the next operator still do.
pub(crate) const STREAM_MIN_BYTES: usize = 16 << 20;

/// Orders every streaming store made so far before any later store, so that another thread
/// that receives the output sees all of it. One fence per output: a fence per block drains the
/// write-combining buffers each time and made streaming slower than ordinary stores.
pub(crate) fn fence() {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: sfence has no preconditions; SSE is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_sfence();
    }
    // Miri has no sfence; it treats streaming stores as plain stores, which a sequentially
    // consistent fence orders, so the copies themselves can still be checked under Miri.
    #[cfg(miri)]
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// Element types whose values are nothing but initialised bytes: `Copy`, with no padding, so
/// that copying a value's bytes is cloning it. [`append_streaming`] copies bytes, and a padding
/// byte would be an uninitialised read. Crate-private, so no other crate can implement it.
///
/// # Safety
///
/// Implement only for `Copy` types without padding bytes; [`no_padding!`] checks the size of
/// each against the bytes of its fields.
pub(crate) unsafe trait NoPadding: Copy {}

/// Implements [`NoPadding`] for each `type = bytes of its fields`, with a compile-time check
/// that the type's size is exactly those bytes (a larger size would be padding).
macro_rules! no_padding {
    ($($t:ty = $bytes:expr),* $(,)?) => {$(
        const _: () = assert!(std::mem::size_of::<$t>() == $bytes);
        // SAFETY: `$t` is `Copy` and its size is the sum of its fields' sizes (checked just
        // above), so it has no padding.
        unsafe impl NoPadding for $t {}
    )*};
}

use crate::formats::{
    Complex128, Complex64, F4E2M1, F6E2M3, F6E3M2, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0, I2, I4, U2, U4,
};
use half::{bf16, f16};

// The fixed-width element types of the dtype table: primitives, and newtypes over one byte or
// one u16; the complex types are two floats.
no_padding!(
    u8 = 1,
    i8 = 1,
    bool = 1,
    u16 = 2,
    i16 = 2,
    u32 = 4,
    i32 = 4,
    u64 = 8,
    i64 = 8,
    f32 = 4,
    f64 = 8,
    f16 = 2,
    bf16 = 2,
    F8E4M3FN = 1,
    F8E4M3FNUZ = 1,
    F8E5M2 = 1,
    F8E5M2FNUZ = 1,
    F8E8M0 = 1,
    F4E2M1 = 1,
    F6E2M3 = 1,
    F6E3M2 = 1,
    U4 = 1,
    I4 = 1,
    U2 = 1,
    I2 = 1,
    Complex64 = 2 * 4,
    Complex128 = 2 * 8,
);

/// Appends `src` with non-temporal stores (see [`stream_into`]). The caller fences (see
/// [`fence`]).
pub(crate) fn append_streaming<T: NoPadding>(out: &mut Vec<T>, src: &[T]) {
    out.reserve(src.len());
    let len = out.len();
    stream_into(&mut out.spare_capacity_mut()[..src.len()], src);
    // SAFETY: `reserve` made room for `src.len()` more elements, and `stream_into` initialised
    // all of them.
    unsafe { out.set_len(len + src.len()) }
}

/// Initialises `dst` with a copy of `src` (the shorter length) by 16-byte non-temporal stores
/// (SSE2, part of the x86-64 baseline); the unaligned head and the tail are copied normally.
/// The thread that streamed fences (see [`fence`]) before the output is shared.
#[cfg(target_arch = "x86_64")]
pub(crate) fn stream_into<T: NoPadding>(dst: &mut [std::mem::MaybeUninit<T>], src: &[T]) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128};
    let count = dst.len().min(src.len());
    let bytes = count * std::mem::size_of::<T>();
    // SAFETY: both ranges hold `count` elements, `bytes` bytes, and cannot overlap (one is
    // borrowed mutably, the other immutably). `T` is `NoPadding`: every byte read is
    // initialised and a bitwise copy is exactly a clone, and writing bytes into `MaybeUninit`
    // is always allowed. Streaming stores only go to 16-byte-aligned addresses (`head` aligns
    // them; if `align_offset` gives up, `head` covers everything). This thread sees its own
    // streaming stores in program order, and the caller's `fence` publishes them to others.
    unsafe {
        let to = dst.as_mut_ptr().cast::<u8>();
        let from = src.as_ptr().cast::<u8>();
        let head = to.align_offset(16).min(bytes);
        std::ptr::copy_nonoverlapping(from, to, head);
        let mut i = head;
        // A whole cache line per iteration: one 16-byte store per loop trip left the loop
        // bound by its own instructions at about 20 GB/s.
        while i + 64 <= bytes {
            crate::prefetch::line(from.add(i));
            for k in [0, 16, 32, 48] {
                let chunk = _mm_loadu_si128(from.add(i + k).cast::<__m128i>());
                store_16(to.add(i + k).cast::<__m128i>(), chunk);
            }
            i += 64;
        }
        while i + 16 <= bytes {
            let chunk = _mm_loadu_si128(from.add(i).cast::<__m128i>());
            store_16(to.add(i).cast::<__m128i>(), chunk);
            i += 16;
        }
        std::ptr::copy_nonoverlapping(from.add(i), to.add(i), bytes - i);
    }
}

/// Copies one 64-byte line from `src` to `dst` with four SSE2 non-temporal stores: the
/// baseline level's line store (the AVX levels store a line with their own wider forms, since
/// `movntdq` here is the legacy SSE encoding, which costs a state transition amid AVX code on
/// Intel cores). The thread that streamed fences (see [`fence`]) before the output is shared.
///
/// # Safety
///
/// `dst` must be valid for a 64-byte write and 64-byte aligned; `src` must be valid for a
/// 64-byte read of initialised bytes and 16-byte aligned; the two must not overlap.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn store_line(dst: *mut u8, src: *const u8) {
    use std::arch::x86_64::{__m128i, _mm_load_si128};
    for k in [0, 16, 32, 48] {
        // SAFETY: the caller's contract: both 16-byte pieces are inside their 64 bytes, and
        // both are 16-byte aligned.
        unsafe {
            let chunk = _mm_load_si128(src.add(k).cast::<__m128i>());
            store_16(dst.add(k).cast::<__m128i>(), chunk);
        }
    }
}

/// Copies one 64-byte line from `src` to `dst` (no streaming stores on this architecture).
///
/// # Safety
///
/// As for the x86-64 version.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) unsafe fn store_line(dst: *mut u8, src: *const u8) {
    // SAFETY: the caller's contract.
    unsafe { std::ptr::copy_nonoverlapping(src, dst, 64) }
}

/// One 16-byte non-temporal store. Miri cannot run the instruction (inline assembly), so under
/// Miri it is an ordinary aligned store, and Miri still checks the address and the alignment.
///
/// # Safety
///
/// `dst` must be valid for a 16-byte write and 16-byte aligned.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn store_16(dst: *mut std::arch::x86_64::__m128i, value: std::arch::x86_64::__m128i) {
    #[cfg(not(miri))]
    // SAFETY: the caller's contract; SSE2 is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_stream_si128(dst, value);
    }
    #[cfg(miri)]
    // SAFETY: the caller's contract.
    unsafe {
        dst.write(value);
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn stream_into<T: NoPadding>(dst: &mut [std::mem::MaybeUninit<T>], src: &[T]) {
    let n = dst.len().min(src.len());
    dst[..n].write_copy_of_slice(&src[..n]);
}

#[cfg(test)]
mod tests;

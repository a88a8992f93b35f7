//! The shapes every kernel shares: the choice of a compilation by SIMD level ([`by_level!`]),
//! the block driver of the hardware kernels ([`blocks`]: scalar head, aligned vector body,
//! scalar tail), and their aligned stores ([`store`]). Only `by_level!` exists outside x86-64.

#[cfg(target_arch = "x86_64")]
use std::mem::MaybeUninit;

/// Chooses a kernel by SIMD level:
///
/// ```ignore
/// by_level!(level => {
///     x86_64 { SimdLevel::Avx2 => unsafe { kernel_v3(..) }, }
///     portable level => fill(..),
/// })
/// ```
///
/// The `x86_64` arms exist on x86-64 only; the `portable` arm exists on every target and is
/// always last, so no cfg can remove the fallback: on any other architecture the `match`
/// is the portable arm alone, and one that does not cover every level does not compile.
macro_rules! by_level {
    ($on:expr => {
        x86_64 { $($pat:pat $(if $guard:expr)? => $hardware:expr,)+ }
        portable $last:pat => $portable:expr $(,)?
    }) => {
        match $on {
            $(#[cfg(target_arch = "x86_64")] $pat $(if $guard)? => $hardware,)+
            $last => $portable,
        }
    };
}
pub(super) use by_level;

/// Converts `src` into `dst` (the shorter length) a block of `STEP` elements at a time:
/// `scalar` for the head up to the first element of `dst` at an `ALIGN`-byte boundary,
/// `body(s, d)` for each whole block from there (`s` and `d` hold `STEP` elements, and `d`
/// starts at an `ALIGN`-byte boundary), `scalar` for the tail. A misaligned store of a whole
/// register crosses a cache line every time (zmm) or every other time (ymm), which costs more
/// than the conversion itself once the data is in cache. `body` must initialise all of `d`.
/// Inlined into each kernel, so the body is compiled for the kernel's level.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn blocks<S: Copy, D, const STEP: usize, const ALIGN: usize>(
    src: &[S],
    dst: &mut [MaybeUninit<D>],
    scalar: impl Fn(S) -> D + Copy,
    mut body: impl FnMut(&[S], &mut [MaybeUninit<D>]),
) {
    const { assert!(STEP > 0 && ALIGN.is_power_of_two()) };
    let len = src.len().min(dst.len());
    // In elements; if `align_offset` gives up, everything is head.
    let head = dst.as_ptr().align_offset(ALIGN).min(len);
    let end = head + (len - head) / STEP * STEP;
    super::map::fill_plain(&src[..head], &mut dst[..head], scalar);
    for i in (head..end).step_by(STEP) {
        // SAFETY: head <= i and i + STEP <= end <= len, the length of both.
        let (s, d) = unsafe {
            (
                src.get_unchecked(i..i + STEP),
                dst.get_unchecked_mut(i..i + STEP),
            )
        };
        crate::prefetch::ahead(src, i, STEP);
        body(s, d);
    }
    super::map::fill_plain(&src[end..len], &mut dst[end..len], scalar);
}

/// A vector register that a kernel stores whole.
#[cfg(target_arch = "x86_64")]
pub(super) trait Register: Copy {
    /// Stores `self` at `dst`, a non-temporal store if `stream`.
    ///
    /// # Safety
    /// `dst` must be valid for a write of `size_of::<Self>()` bytes and aligned to it, and
    /// the CPU must have the register's instructions (AVX2 for 32 bytes, AVX-512 for 64).
    unsafe fn put(self, dst: *mut u8, stream: bool);
}

#[cfg(target_arch = "x86_64")]
impl Register for std::arch::x86_64::__m256i {
    #[inline(always)]
    unsafe fn put(self, dst: *mut u8, stream: bool) {
        use std::arch::x86_64::{_mm256_store_si256, _mm256_stream_si256};
        // SAFETY: the caller's contract.
        unsafe {
            match stream {
                true => _mm256_stream_si256(dst.cast(), self),
                false => _mm256_store_si256(dst.cast(), self),
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Register for std::arch::x86_64::__m512i {
    #[inline(always)]
    unsafe fn put(self, dst: *mut u8, stream: bool) {
        use std::arch::x86_64::{_mm512_store_si512, _mm512_stream_si512};
        // SAFETY: the caller's contract.
        unsafe {
            match stream {
                true => _mm512_stream_si512(dst.cast(), self),
                false => _mm512_store_si512(dst.cast(), self),
            }
        }
    }
}

/// Stores `v` whole at the start of `d` (aligned, non-temporal if `stream`; the caller's piece
/// is fenced by `map::run`).
///
/// # Safety
/// `d` must hold at least `size_of::<V>()` bytes and start at a `size_of::<V>()`-byte
/// boundary ([`blocks`] gives such blocks), and the CPU must have `V`'s instructions.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) unsafe fn store<V: Register, D>(d: &mut [MaybeUninit<D>], v: V, stream: bool) {
    debug_assert!(size_of_val(d) >= size_of::<V>());
    // SAFETY: the caller's contract.
    unsafe { v.put(d.as_mut_ptr().cast(), stream) }
}

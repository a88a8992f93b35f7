//! Runs a slice conversion at a SIMD level and over threads. A scalar element function is
//! compiled again for AVX2 (x86-64-v3) and for AVX-512 (x86-64-v4), so the same code becomes
//! wide vector code where the CPU has it; hand-written kernels (`hw.rs`) plug in the same way.
//!
//! Outputs of [`Exec::stream_min_bytes`] and more are written with streaming stores (see
//! [`crate::stream`]): the element function fills one 64-byte line in registers, and the line
//! goes out with non-temporal stores, which skip the read-for-ownership of every output line.

use super::kernel::by_level;
use super::par;
use crate::stream::{self, NoPadding};
use crate::tuning::{simd_fn, Exec, SimdLevel};
use std::mem::MaybeUninit;

/// How a kernel writes one piece of output: the SIMD level (never above what the CPU has),
/// and whether its stores stream around the caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mode {
    /// The instruction-set level of the kernel.
    pub(crate) level: SimdLevel,
    /// Non-temporal stores for whole aligned lines (the output is larger than the caches).
    pub(crate) stream: bool,
}

impl Mode {
    /// The same stores at `level`: for a kernel's fallback to [`fill`] at a level it has no
    /// instructions for.
    pub(crate) fn at(self, level: SimdLevel) -> Mode {
        Mode {
            level,
            stream: self.stream,
        }
    }
}

/// `src` mapped through `f` into a new vector.
#[inline(always)]
pub(crate) fn map<S: Copy + Sync, D: NoPadding + Send>(
    exec: &Exec,
    src: &[S],
    f: impl Fn(S) -> D + Copy + Sync,
) -> Vec<D> {
    // SAFETY: `fill` writes every element of `dst` (its loops run over all of it).
    unsafe { run(exec, src, &|mode, s, d| fill(mode, s, d, f)) }
}

/// `src` converted by `kernel(mode, source piece, output piece)` into a new vector, split
/// over `exec.threads` threads. The level passed on is never above what the CPU has; the
/// stores stream when the whole output has `exec.stream_min_bytes` or more.
///
/// # Safety
/// `kernel` must initialise every element of the output piece it is given (a piece is as
/// long as its source piece).
pub(crate) unsafe fn run<S: Sync, D: Send>(
    exec: &Exec,
    src: &[S],
    kernel: &(impl Fn(Mode, &[S], &mut [MaybeUninit<D>]) + Sync),
) -> Vec<D> {
    let mode = Mode {
        level: exec.level.min(SimdLevel::detected()),
        stream: exec.streams(src.len().saturating_mul(size_of::<D>())),
    };
    let mut out = Vec::with_capacity(src.len());
    let spare = &mut out.spare_capacity_mut()[..src.len()];
    par::split(exec, spare, &|start, d| {
        kernel(mode, &src[start..start + d.len()], d);
        if mode.stream {
            // Each thread orders its own streaming stores; joining it publishes them.
            stream::fence();
        }
    });
    // SAFETY: the pieces of `split` cover the first src.len() elements, and the caller's
    // kernel initialised every element of each piece.
    unsafe { out.set_len(src.len()) };
    out
}

/// Writes `f(s)` for every `s` of `src` into `dst` (of the same length), with the loop
/// compiled for `mode.level` (or the best level below it that the CPU has), streaming whole
/// lines if `mode.stream`.
#[inline(always)]
pub(crate) fn fill<S: Copy, D: NoPadding>(
    mode: Mode,
    src: &[S],
    dst: &mut [MaybeUninit<D>],
    f: impl Fn(S) -> D + Copy,
) {
    by_level!((mode.level.min(SimdLevel::detected()), mode.stream) => {
        x86_64 {
            // SAFETY: the level is at most what the CPU has, and fill_v4 needs only its features.
            (SimdLevel::Avx512, false) => unsafe { fill_v4(src, dst, f) },
            // SAFETY: as above.
            (SimdLevel::Avx512, true) => unsafe { fill_lines_v4(src, dst, f) },
            // SAFETY: as above, for the AVX2 level.
            (SimdLevel::Avx2, false) => unsafe { fill_v3(src, dst, f) },
            // SAFETY: as above, for the AVX2 level.
            (SimdLevel::Avx2, true) => unsafe { fill_lines_v3(src, dst, f) },
        }
        portable (_, stream) => match stream {
            true => fill_lines_plain(src, dst, f),
            false => fill_plain(src, dst, f),
        },
    })
}

/// The loop itself, written out (not `collect`) so that it is inlined into, and vectorised
/// for, whichever version of `fill` calls it.
#[inline(always)]
pub(crate) fn fill_plain<S: Copy, D>(
    src: &[S],
    dst: &mut [MaybeUninit<D>],
    f: impl Fn(S) -> D + Copy,
) {
    for (d, &s) in dst.iter_mut().zip(src) {
        d.write(f(s));
    }
}

simd_fn! { avx2:
/// [`fill_plain`] compiled for the AVX2 level.
fn fill_v3<S: Copy, D>(src: &[S], dst: &mut [MaybeUninit<D>], f: impl Fn(S) -> D + Copy) {
    fill_plain(src, dst, f)
}
}

simd_fn! { avx512:
/// [`fill_plain`] compiled for the AVX-512 level.
fn fill_v4<S: Copy, D>(src: &[S], dst: &mut [MaybeUninit<D>], f: impl Fn(S) -> D + Copy) {
    fill_plain(src, dst, f)
}
}

/// One cache line of output, converted in registers before it is streamed out whole.
#[repr(C, align(64))]
struct Line([MaybeUninit<u8>; 64]);

/// Like [`fill_plain`], but every whole, aligned 64-byte line of `dst` is converted into a
/// [`Line`] first and handed to `store` (streaming stores); the unaligned head and the tail
/// are written normally. Inlined into each level's version, where the fixed-size inner loop
/// becomes a few vector instructions and the line never leaves the registers.
///
/// # Safety
/// `store(to, line)` must write the 64 bytes of `line` to `to`, which is valid for a 64-byte
/// write and 64-byte aligned.
#[inline(always)]
unsafe fn fill_lines<S: Copy, D: NoPadding>(
    src: &[S],
    dst: &mut [MaybeUninit<D>],
    f: impl Fn(S) -> D + Copy,
    store: impl Fn(*mut u8, &Line),
) {
    // Every fast path's output element tiles a line at its own alignment (1, 2, 4 or 8
    // bytes); anything else is a compile error rather than a quiet fallback.
    const {
        let size = size_of::<D>();
        assert!(size > 0 && 64 % size == 0 && align_of::<D>() == size);
    }
    let per_line = 64 / size_of::<D>();
    let len = src.len().min(dst.len());
    // In elements: `D`'s alignment is its size, so the pointer reaches a 64-byte boundary
    // after a whole number of elements (or `align_offset` gives up and everything is head).
    let head = dst.as_ptr().align_offset(64).min(len);
    let body = head + (len - head) / per_line * per_line;
    fill_plain(&src[..head], &mut dst[..head], f);
    let mut line = Line([MaybeUninit::uninit(); 64]);
    for i in (head..body).step_by(per_line) {
        // SAFETY: `Line` is 64 bytes aligned to 64, so it holds exactly `per_line` elements
        // of `D` at their alignment; `MaybeUninit<D>` may hold any bytes.
        let cells = unsafe {
            std::slice::from_raw_parts_mut(line.0.as_mut_ptr().cast::<MaybeUninit<D>>(), per_line)
        };
        crate::prefetch::ahead(src, i, per_line);
        fill_plain(&src[i..i + per_line], cells, f);
        // In bounds and aligned: i + per_line <= body <= len, and head..body starts at a
        // 64-byte boundary and advances by whole lines. All 64 bytes of the line were just
        // written, and `D: NoPadding`, so every byte is initialised.
        store(dst.as_mut_ptr().wrapping_add(i).cast(), &line);
    }
    fill_plain(&src[body..], &mut dst[body..], f);
}

/// The plain-x86-64 (SSE2) streaming version of [`fill`] (other architectures: ordinary
/// stores).
fn fill_lines_plain<S: Copy, D: NoPadding>(
    src: &[S],
    dst: &mut [MaybeUninit<D>],
    f: impl Fn(S) -> D + Copy,
) {
    // SAFETY: the closure writes the line to `to`, as `fill_lines` asks; `store_line`'s
    // contract is `fill_lines`'s promise about `to` plus the line's own 64 aligned bytes.
    unsafe {
        fill_lines(src, dst, f, |to, line| {
            stream::store_line(to, line.0.as_ptr().cast())
        })
    }
}

simd_fn! { avx2:
/// [`fill_lines`] compiled for the AVX2 level, each line stored by two 32-byte streaming stores.
fn fill_lines_v3<S: Copy, D: NoPadding>(
    src: &[S],
    dst: &mut [MaybeUninit<D>],
    f: impl Fn(S) -> D + Copy,
) {
    use std::arch::x86_64::{_mm256_load_si256, _mm256_stream_si256};
    // SAFETY: the closure writes the line to `to` (64 bytes, 64-byte aligned, as `fill_lines`
    // promises) with two aligned 32-byte streaming stores; `Line` is 64-byte aligned.
    unsafe {
        fill_lines(src, dst, f, |to, line| {
            let from = line.0.as_ptr();
            for k in [0, 32] {
                let v = _mm256_load_si256(from.add(k).cast());
                _mm256_stream_si256(to.add(k).cast(), v);
            }
        })
    }
}

}

simd_fn! { avx512:
/// [`fill_lines`] compiled for the AVX-512 level, each line stored by one 64-byte streaming store.
fn fill_lines_v4<S: Copy, D: NoPadding>(
    src: &[S],
    dst: &mut [MaybeUninit<D>],
    f: impl Fn(S) -> D + Copy,
) {
    use std::arch::x86_64::{_mm512_load_si512, _mm512_stream_si512};
    // SAFETY: the closure writes the line to `to` (64 bytes, 64-byte aligned, as `fill_lines`
    // promises) with one aligned 64-byte streaming store; `Line` is 64-byte aligned.
    unsafe {
        fill_lines(src, dst, f, |to, line| {
            let v = _mm512_load_si512(line.0.as_ptr().cast());
            _mm512_stream_si512(to.cast(), v);
        })
    }
}
}

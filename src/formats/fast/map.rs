//! Runs a slice conversion at a SIMD level and over threads. A scalar element function is
//! compiled again for AVX2 (x86-64-v3) and for AVX-512 (x86-64-v4), so the same code becomes
//! wide vector code where the CPU has it; hand-written kernels (`hw.rs`) plug in the same way.

use super::par;
use crate::tuning::{Exec, SimdLevel};
use std::mem::MaybeUninit;

/// `src` mapped through `f` into a new vector.
#[inline(always)]
pub(crate) fn map<S: Copy + Sync, D: Send>(
    exec: &Exec,
    src: &[S],
    f: impl Fn(S) -> D + Copy + Sync,
) -> Vec<D> {
    // SAFETY: `fill` writes every element of `dst` (its loop runs over all of it).
    unsafe { run(exec, src, &|level, s, d| fill(level, s, d, f)) }
}

/// `src` converted by `kernel(level, source piece, output piece)` into a new vector, split
/// over `exec.threads` threads. The level passed on is never above what the CPU has.
///
/// # Safety
/// `kernel` must initialise every element of the output piece it is given (a piece is as
/// long as its source piece).
pub(crate) unsafe fn run<S: Sync, D: Send>(
    exec: &Exec,
    src: &[S],
    kernel: &(impl Fn(SimdLevel, &[S], &mut [MaybeUninit<D>]) + Sync),
) -> Vec<D> {
    let level = exec.level.min(SimdLevel::detected());
    let mut out = Vec::with_capacity(src.len());
    let spare = &mut out.spare_capacity_mut()[..src.len()];
    par::split(exec, spare, &|start, d| {
        kernel(level, &src[start..start + d.len()], d)
    });
    // SAFETY: the pieces of `split` cover the first src.len() elements, and the caller's
    // kernel initialised every element of each piece.
    unsafe { out.set_len(src.len()) };
    out
}

/// Writes `f(s)` for every `s` of `src` into `dst` (of the same length), with the loop
/// compiled for `level` (or the best level below it that the CPU has).
#[inline(always)]
pub(crate) fn fill<S: Copy, D>(
    level: SimdLevel,
    src: &[S],
    dst: &mut [MaybeUninit<D>],
    f: impl Fn(S) -> D + Copy,
) {
    match level.min(SimdLevel::detected()) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is at most what the CPU has, and fill_v4 needs only its features.
        SimdLevel::Avx512 => unsafe { fill_v4(src, dst, f) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, for the AVX2 level.
        SimdLevel::Avx2 => unsafe { fill_v3(src, dst, f) },
        _ => fill_plain(src, dst, f),
    }
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

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt")]
fn fill_v3<S: Copy, D>(src: &[S], dst: &mut [MaybeUninit<D>], f: impl Fn(S) -> D + Copy) {
    fill_plain(src, dst, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
fn fill_v4<S: Copy, D>(src: &[S], dst: &mut [MaybeUninit<D>], f: impl Fn(S) -> D + Copy) {
    fill_plain(src, dst, f)
}

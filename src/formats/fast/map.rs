//! Applies an element function over a slice, compiled again for AVX2 (x86-64-v3) and for
//! AVX-512 (x86-64-v4) and chosen at run time, so the same scalar code becomes wide vector
//! code where the CPU has it.

/// `src` mapped through `f` into a new vector.
#[inline(always)]
pub(crate) fn map<S: Copy, D>(src: &[S], f: impl Fn(S) -> D + Copy) -> Vec<D> {
    #[cfg(target_arch = "x86_64")]
    if v4_available() {
        // SAFETY: map_v4 needs only the CPU features that v4_available has just detected.
        return unsafe { map_v4(src, f) };
    }
    #[cfg(target_arch = "x86_64")]
    if v3_available() {
        // SAFETY: map_v3 needs only the CPU features that v3_available has just detected.
        return unsafe { map_v3(src, f) };
    }
    map_plain(src, f)
}

/// The loop itself, written out (not `collect`) so that it is inlined into, and vectorised
/// for, whichever of `map`'s versions calls it.
#[inline(always)]
fn map_plain<S: Copy, D>(src: &[S], f: impl Fn(S) -> D + Copy) -> Vec<D> {
    let mut out = Vec::with_capacity(src.len());
    let spare = &mut out.spare_capacity_mut()[..src.len()];
    for (d, &s) in spare.iter_mut().zip(src) {
        d.write(f(s));
    }
    // SAFETY: the capacity is at least src.len() and the loop above initialised exactly the
    // first src.len() elements (the zip runs over all of `spare`, whose length is src.len()).
    unsafe { out.set_len(src.len()) };
    out
}

#[cfg(target_arch = "x86_64")]
fn v3_available() -> bool {
    use std::arch::is_x86_feature_detected as has;
    has!("avx2") && has!("fma") && has!("bmi1") && has!("bmi2") && has!("f16c")
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt")]
fn map_v3<S: Copy, D>(src: &[S], f: impl Fn(S) -> D + Copy) -> Vec<D> {
    map_plain(src, f)
}

#[cfg(target_arch = "x86_64")]
fn v4_available() -> bool {
    use std::arch::is_x86_feature_detected as has;
    v3_available() && has!("avx512f") && has!("avx512bw") && has!("avx512vl") && has!("avx512dq")
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,f16c,lzcnt,popcnt")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx512cd")]
fn map_v4<S: Copy, D>(src: &[S], f: impl Fn(S) -> D + Copy) -> Vec<D> {
    map_plain(src, f)
}

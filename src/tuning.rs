//! How the kernels run, never what they compute: the instruction-set level of the fast paths
//! and the number of threads Cast and Concat split large tensors over. Every setting gives
//! the same bits.
//!
//! Defaults: the best level the CPU has, and the machine's available parallelism. The
//! environment can cap them (read once, at the first kernel call):
//! * `ONNX_CONFORMANCE_SIMD` = `native` | `avx512` | `avx2` | `baseline`: the highest level
//!   used (a level above what the CPU has still gives what the CPU has);
//! * `ONNX_CONFORMANCE_THREADS` = a positive integer.
//!
//! A bad value makes every kernel call fail with [`Error::Setting`], so a mistyped cap can
//! never pass for a capped run. [`set_simd_cap`] and [`set_threads`] override the
//! environment.

use crate::error::Error;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// An instruction-set level of the fast paths, in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SimdLevel {
    /// Plain x86-64 (SSE2), or any other architecture: the scalar element functions.
    Baseline,
    /// x86-64-v3: AVX2, FMA, BMI1/2 and F16C (hardware f32 <-> f16).
    Avx2,
    /// x86-64-v4: AVX-512 F/BW/DQ/VL; with AVX512-BF16 also the hardware f32 -> bf16.
    Avx512,
}

/// The environment variable that caps the SIMD level.
pub const SIMD_VAR: &str = "ONNX_CONFORMANCE_SIMD";
/// The environment variable that sets the thread count.
pub const THREADS_VAR: &str = "ONNX_CONFORMANCE_THREADS";

impl SimdLevel {
    /// Every level, lowest first.
    pub const ALL: [SimdLevel; 3] = [SimdLevel::Baseline, SimdLevel::Avx2, SimdLevel::Avx512];

    /// The highest level this CPU supports.
    pub fn detected() -> SimdLevel {
        static DETECTED: OnceLock<SimdLevel> = OnceLock::new();
        *DETECTED.get_or_init(detect)
    }

    /// The levels this CPU supports, lowest first.
    pub fn supported() -> impl Iterator<Item = SimdLevel> {
        Self::ALL.into_iter().filter(|&l| l <= Self::detected())
    }

    /// The lowercase name the environment variable uses.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Baseline => "baseline",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
        }
    }

    /// The level for a value of `ONNX_CONFORMANCE_SIMD` (`native` is the highest).
    pub fn parse(value: &str) -> Result<SimdLevel, Error> {
        match value {
            "native" => Ok(SimdLevel::Avx512),
            _ => Self::ALL
                .into_iter()
                .find(|l| l.name() == value)
                .ok_or_else(|| Error::Setting {
                    name: SIMD_VAR,
                    value: value.to_owned(),
                    expected: "one of native, avx512, avx2, baseline",
                }),
        }
    }
}

/// Hands `$then!` the x86-64 features of each level, each list beyond the level below it:
/// `$then! { $args [AVX2 level] [AVX-512 level] [AVX512-BF16] }`. The one place they are
/// written: detection ([`FeatureSet::detect`], [`level_for`]) reads exactly these, and the
/// kernels are compiled with exactly these ([`simd_fn!`]), which is what every `SAFETY:`
/// comment on a call into a kernel relies on.
macro_rules! level_features {
    ($then:path { $($args:tt)* }) => {
        $then! { { $($args)* }
            ["avx2" "fma" "bmi1" "bmi2" "f16c" "lzcnt" "popcnt"]
            ["avx512f" "avx512bw" "avx512vl" "avx512dq" "avx512cd"]
            ["avx512bf16"]
        }
    };
}
pub(crate) use level_features;

/// Compiles one function for a level, on x86-64 only: `simd_fn! { avx2: fn ... }`, `avx512`
/// (the AVX2 level's features too) or `avx512bf16` (AVX-512's and AVX512-BF16). Call it only
/// at a level [`level_for`] gave for the CPU (and for `avx512bf16` when
/// [`has_avx512bf16`]), from a `by_level!` arm.
macro_rules! simd_fn {
    ($level:ident: $item:item) => {
        $crate::tuning::level_features! { $crate::tuning::simd_fn_with { $level $item } }
    };
}
pub(crate) use simd_fn;

/// [`simd_fn!`]'s second step, given the lists by [`level_features!`].
macro_rules! simd_fn_with {
    ({ avx2 $item:item } [$($v3:tt)*] [$($v4:tt)*] [$($bf:tt)*]) => {
        #[cfg(target_arch = "x86_64")]
        $(#[target_feature(enable = $v3)])*
        $item
    };
    ({ avx512 $item:item } [$($v3:tt)*] [$($v4:tt)*] [$($bf:tt)*]) => {
        #[cfg(target_arch = "x86_64")]
        $(#[target_feature(enable = $v3)])*
        $(#[target_feature(enable = $v4)])*
        $item
    };
    ({ avx512bf16 $item:item } [$($v3:tt)*] [$($v4:tt)*] [$($bf:tt)*]) => {
        #[cfg(target_arch = "x86_64")]
        $(#[target_feature(enable = $v3)])*
        $(#[target_feature(enable = $v4)])*
        $(#[target_feature(enable = $bf)])*
        $item
    };
}
pub(crate) use simd_fn_with;

/// A set of the x86-64 features that detection reads: bit `i` is the `i`-th feature of
/// [`level_features!`]'s lists, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FeatureSet(u32);

/// The feature table from the lists of [`level_features!`].
macro_rules! feature_table {
    ({} [$($v3:tt)*] [$($v4:tt)*] [$($bf:tt)*]) => {
        /// Every feature detection reads: the AVX2 level's, then AVX-512's, then AVX512-BF16.
        #[cfg(test)]
        pub(crate) const FEATURES: &[&str] = &[$($v3,)* $($v4,)* $($bf,)*];
        /// The AVX2 level's features.
        const AVX2_SET: FeatureSet = FeatureSet::first([$($v3),*].len(), 0);
        /// The features AVX-512 adds.
        const AVX512_SET: FeatureSet = FeatureSet::first([$($v4),*].len(), [$($v3),*].len());
        /// AVX512-BF16 (on top of the AVX-512 level).
        const BF16_SET: FeatureSet = FeatureSet::first(
            [$($bf),*].len(),
            [$($v3),*].len() + [$($v4),*].len(),
        );

        impl FeatureSet {
            /// The features of this CPU (none outside x86-64).
            fn detect() -> FeatureSet {
                #[cfg(target_arch = "x86_64")]
                use std::arch::is_x86_feature_detected as has;
                #[cfg(not(target_arch = "x86_64"))]
                macro_rules! has {
                    ($feature:tt) => {
                        false
                    };
                }
                FeatureSet::from_flags(&[$(has!($v3),)* $(has!($v4),)* $(has!($bf),)*])
            }
        }
    };
}
level_features! { feature_table {} }

impl FeatureSet {
    /// `count` features from bit `from` on.
    const fn first(count: usize, from: usize) -> FeatureSet {
        FeatureSet(((1 << count) - 1) << from)
    }

    /// The set whose bit `i` is `flags[i]`.
    fn from_flags(flags: &[bool]) -> FeatureSet {
        let bit = |(i, &has): (usize, &bool)| u32::from(has) << i;
        FeatureSet(flags.iter().enumerate().map(bit).sum())
    }

    /// Whether every feature of `other` is in this set.
    fn contains(self, other: FeatureSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// The features of this CPU, detected once.
    fn detected() -> FeatureSet {
        static DETECTED: OnceLock<FeatureSet> = OnceLock::new();
        *DETECTED.get_or_init(FeatureSet::detect)
    }
}

/// The highest level whose features are all in `features`: what a CPU with exactly those
/// features may run.
pub(crate) fn level_for(features: FeatureSet) -> SimdLevel {
    match (features.contains(AVX2_SET), features.contains(AVX512_SET)) {
        (true, true) => SimdLevel::Avx512,
        (true, false) => SimdLevel::Avx2,
        (false, _) => SimdLevel::Baseline,
    }
}

/// Whether a CPU with `features` may run the AVX512-BF16 kernels: the AVX-512 level and
/// AVX512-BF16 (not every AVX-512 CPU has it).
pub(crate) fn bf16_for(features: FeatureSet) -> bool {
    level_for(features) == SimdLevel::Avx512 && features.contains(BF16_SET)
}

fn detect() -> SimdLevel {
    level_for(FeatureSet::detected())
}

/// Whether this CPU may run the AVX512-BF16 kernels ([`bf16_for`]).
#[cfg_attr(
    all(not(target_arch = "x86_64"), not(test)),
    expect(dead_code, reason = "only the x86-64 kernels (and the tests) ask")
)]
pub(crate) fn has_avx512bf16() -> bool {
    bf16_for(FeatureSet::detected())
}

/// Parses a value of `ONNX_CONFORMANCE_THREADS`.
pub fn parse_threads(value: &str) -> Result<usize, Error> {
    match value.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Error::Setting {
            name: THREADS_VAR,
            value: value.to_owned(),
            expected: "a positive integer",
        }),
    }
}

/// 0 means "not set": the environment (or the default) applies.
static SIMD_CAP: AtomicUsize = AtomicUsize::new(0);
static THREADS: AtomicUsize = AtomicUsize::new(0);
/// The streaming threshold, when `STREAM_SET` says it is set (else the default applies).
static STREAM_MIN: AtomicUsize = AtomicUsize::new(0);
static STREAM_SET: AtomicBool = AtomicBool::new(false);

/// Caps the SIMD level of every later kernel call (overrides `ONNX_CONFORMANCE_SIMD`).
pub fn set_simd_cap(cap: SimdLevel) {
    SIMD_CAP.store(cap as usize + 1, Ordering::Relaxed);
}

/// Sets how many threads later Cast and Concat calls may use (overrides
/// `ONNX_CONFORMANCE_THREADS`). Pass 1 when the caller parallelises itself; 0 restores the
/// default, the available parallelism.
pub fn set_threads(threads: usize) {
    THREADS.store(threads, Ordering::Relaxed);
}

/// Sets the output size in bytes from which later Cast and Concat calls write with streaming
/// (non-temporal) stores; `None` restores the default (16 MiB). For benchmarks that
/// compare ordinary and streaming stores on one host: `Some(0)` always streams,
/// `Some(usize::MAX)` never does.
pub fn set_stream_min_bytes(bytes: Option<usize>) {
    STREAM_MIN.store(bytes.unwrap_or(0), Ordering::Relaxed);
    STREAM_SET.store(bytes.is_some(), Ordering::Relaxed);
}

/// How one kernel call runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exec {
    /// The SIMD level (never above what the CPU has).
    pub(crate) level: SimdLevel,
    /// Threads the call may use (at least 1).
    pub(crate) threads: usize,
    /// Elements below which a piece of work is not worth a thread of its own.
    pub(crate) min_per_thread: usize,
    /// Output bytes from which stores stream around the caches
    /// ([`crate::stream::STREAM_MIN_BYTES`]; tests lower it to reach the streaming code).
    pub(crate) stream_min_bytes: usize,
}

/// Elements per thread below which splitting costs more than it saves. Measured on the
/// 2-vCPU Zen 5 VM (loaded, so rough): a scoped spawn plus join costs about 21 us; one thread
/// converts 1M f32 in 68 us to f16 (hardware), 102 us to f64 and 144 us to float8 while the
/// data is cached. Splitting t us of work in two gains when t/2 + 21 < t, from about 40 us,
/// i.e. from 0.3-0.8M elements; with 512K per thread the spawn costs at most 30-60 % of the
/// half it saves at the smallest split size and a few percent from 4M elements up.
pub(crate) const MIN_PER_THREAD: usize = 1 << 19;

impl Exec {
    /// Whether an output of `bytes` bytes is written with streaming stores.
    pub(crate) fn streams(&self, bytes: usize) -> bool {
        bytes >= self.stream_min_bytes
    }

    /// One thread at `level`: the tests' setting, and the self-check's, which splits its
    /// work over threads itself.
    pub(crate) fn single(level: SimdLevel) -> Exec {
        Exec {
            level,
            threads: 1,
            min_per_thread: MIN_PER_THREAD,
            stream_min_bytes: crate::stream::STREAM_MIN_BYTES,
        }
    }
}

/// The environment's settings: (SIMD cap, threads), each `None` when unset.
type EnvSettings = Result<(Option<SimdLevel>, Option<usize>), Error>;

/// What the environment says, parsed once.
fn from_env() -> &'static EnvSettings {
    static ENV: OnceLock<EnvSettings> = OnceLock::new();
    ENV.get_or_init(|| {
        let read = |name| std::env::var(name).ok();
        let simd = read(SIMD_VAR).map(|v| SimdLevel::parse(&v)).transpose()?;
        let threads = read(THREADS_VAR).map(|v| parse_threads(&v)).transpose()?;
        Ok((simd, threads))
    })
}

/// The settings for the next kernel call: the setters, else the environment, else the defaults.
pub(crate) fn current() -> Result<Exec, Error> {
    let (env_simd, env_threads) = from_env().clone()?;
    let cap = match SIMD_CAP.load(Ordering::Relaxed) {
        0 => env_simd,
        n => SimdLevel::ALL.get(n - 1).copied(),
    };
    let level = cap.map_or(SimdLevel::detected(), |c| c.min(SimdLevel::detected()));
    let threads = match THREADS.load(Ordering::Relaxed) {
        0 => env_threads.unwrap_or_else(default_threads),
        n => n,
    };
    let stream_min_bytes = match STREAM_SET.load(Ordering::Relaxed) {
        true => STREAM_MIN.load(Ordering::Relaxed),
        false => crate::stream::STREAM_MIN_BYTES,
    };
    Ok(Exec {
        level,
        threads,
        min_per_thread: MIN_PER_THREAD,
        stream_min_bytes,
    })
}

/// The available parallelism, or 1 when it cannot be known.
fn default_threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[cfg(test)]
mod tests;

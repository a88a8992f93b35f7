//! Appending blocks of elements to Concat's output, with streaming stores (see
//! [`crate::stream`]) for plain-data types when the output is larger than the caches.

use crate::formats::{
    Complex128, Complex64, F4E2M1, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0, I2, I4, U2, U4,
};
use crate::stream::append_streaming;
use half::{bf16, f16};
use std::mem::MaybeUninit;

/// An element type whose blocks Concat can append.
pub(crate) trait BlockCopy: Sized + Clone + Send + Sync {
    /// Appends `src` to `out`, with non-temporal stores if `stream` and the type allows it.
    /// After the last streamed append, call [`crate::stream::fence`] before `out` is shared.
    fn append(out: &mut Vec<Self>, src: &[Self], stream: bool);
    /// Initialises `dst` with a copy of `src` (the same length), streaming as `append` does.
    /// The thread that streamed calls [`crate::stream::fence`] before the output is shared.
    fn write(dst: &mut [MaybeUninit<Self>], src: &[Self], stream: bool);
}

impl BlockCopy for String {
    fn append(out: &mut Vec<Self>, src: &[Self], _stream: bool) {
        out.extend_from_slice(src);
    }
    fn write(dst: &mut [MaybeUninit<Self>], src: &[Self], _stream: bool) {
        for (d, s) in dst.iter_mut().zip(src) {
            d.write(s.clone());
        }
    }
}

/// Every other element type is `Copy` plain data: streaming its bytes is what cloning does.
macro_rules! plain_data {
    ($($t:ty),* $(,)?) => {$(
        impl BlockCopy for $t {
            fn append(out: &mut Vec<Self>, src: &[Self], stream: bool) {
                match stream {
                    true => append_streaming(out, src),
                    false => out.extend_from_slice(src),
                }
            }
            fn write(dst: &mut [MaybeUninit<Self>], src: &[Self], stream: bool) {
                match stream {
                    true => stream_into(dst, src),
                    false => {
                        dst.write_copy_of_slice(src);
                    }
                }
            }
        }
    )*};
}

plain_data!(
    f32, u8, i8, u16, i16, i32, i64, bool, f16, f64, u32, u64, Complex64, Complex128, bf16,
    F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, U4, I4, F4E2M1, F8E8M0, U2, I2,
);

/// Copies `src` into `dst` (the same length) with 16-byte non-temporal stores, for Concat's
/// threads, which each fill a piece of one output (`append_streaming` appends to a `Vec`); the
/// unaligned head and the tail are copied normally. Only for the padding-free element types
/// of the table above.
#[cfg(target_arch = "x86_64")]
fn stream_into<T: Copy>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
    let count = dst.len().min(src.len());
    let bytes = count * std::mem::size_of::<T>();
    // SAFETY: both ranges hold `count` elements, `bytes` bytes, and cannot overlap (one is
    // borrowed mutably, the other immutably). `T` is `Copy` without padding, so every byte
    // read is initialised and the bitwise copy is a clone, and writing bytes into
    // `MaybeUninit` is always allowed. Streaming stores go only to 16-byte-aligned addresses
    // (`head` aligns them, or covers everything if `align_offset` gives up).
    unsafe {
        let to = dst.as_mut_ptr().cast::<u8>();
        let from = src.as_ptr().cast::<u8>();
        let head = to.align_offset(16).min(bytes);
        std::ptr::copy_nonoverlapping(from, to, head);
        let mut i = head;
        // A cache line per trip, as in `append_streaming`.
        while i + 64 <= bytes {
            for k in [0, 16, 32, 48] {
                let chunk = _mm_loadu_si128(from.add(i + k).cast::<__m128i>());
                _mm_stream_si128(to.add(i + k).cast::<__m128i>(), chunk);
            }
            i += 64;
        }
        while i + 16 <= bytes {
            let chunk = _mm_loadu_si128(from.add(i).cast::<__m128i>());
            _mm_stream_si128(to.add(i).cast::<__m128i>(), chunk);
            i += 16;
        }
        std::ptr::copy_nonoverlapping(from.add(i), to.add(i), bytes - i);
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn stream_into<T: Copy>(dst: &mut [MaybeUninit<T>], src: &[T]) {
    let n = dst.len().min(src.len());
    dst[..n].write_copy_of_slice(&src[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streaming appends at every alignment and length give what `extend_from_slice` gives.
    fn check<T: BlockCopy + Copy + PartialEq + std::fmt::Debug>(values: &[T]) {
        for prefix in 0..17 {
            for len in 0..=values.len().min(150) {
                let start = prefix.min(values.len());
                let mut streamed = values[..start].to_vec();
                streamed.reserve(1);
                T::append(&mut streamed, &values[..len], true);
                crate::stream::fence();
                let mut plain = values[..start].to_vec();
                plain.extend_from_slice(&values[..len]);
                assert_eq!(streamed, plain, "prefix {prefix}, len {len}");
                let mut written = vec![MaybeUninit::new(values[0]); len + prefix];
                T::write(&mut written[prefix..], &values[..len], true);
                crate::stream::fence();
                // SAFETY: every element was initialised by `vec!`.
                let written: Vec<T> = written.iter().map(|w| unsafe { w.assume_init() }).collect();
                assert_eq!(
                    written[prefix..],
                    plain[start..],
                    "write: prefix {prefix}, len {len}"
                );
            }
        }
    }

    #[test]
    fn streaming_appends_equal_plain_appends() {
        check(&(0..200u8).collect::<Vec<_>>());
        check(&(0..200).map(|i| i as f32 * 1.5 - 7.0).collect::<Vec<_>>());
        check(&(0..80).map(|i| i % 3 == 0).collect::<Vec<_>>());
        check(&(0..80).map(I4::from_bits).collect::<Vec<_>>());
        let complex: Vec<Complex128> = (0..80)
            .map(|i| Complex128 {
                re: f64::from(i),
                im: -f64::from(i),
            })
            .collect();
        check(&complex);
    }
}

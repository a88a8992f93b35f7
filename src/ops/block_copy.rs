//! Appending blocks of elements to Concat's output, with streaming stores (see
//! [`crate::stream`]) for plain-data types when the output is larger than the caches.

use crate::formats::{
    Complex128, Complex64, F4E2M1, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0, I2, I4, U2, U4,
};
use crate::stream::append_streaming;
use half::{bf16, f16};

/// An element type whose blocks Concat can append.
pub(crate) trait BlockCopy: Sized + Clone {
    /// Appends `src` to `out`, with non-temporal stores if `stream` and the type allows it.
    /// After the last streamed append, call [`crate::stream::fence`] before `out` is shared.
    fn append(out: &mut Vec<Self>, src: &[Self], stream: bool);
}

impl BlockCopy for String {
    fn append(out: &mut Vec<Self>, src: &[Self], _stream: bool) {
        out.extend_from_slice(src);
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
        }
    )*};
}

plain_data!(
    f32, u8, i8, u16, i16, i32, i64, bool, f16, f64, u32, u64, Complex64, Complex128, bf16,
    F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, U4, I4, F4E2M1, F8E8M0, U2, I2,
);

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

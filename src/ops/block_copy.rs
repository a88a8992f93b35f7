//! Appending blocks of elements to Concat's output, with streaming stores (see
//! [`crate::stream`]) for plain-data types when the output is larger than the caches.

use crate::stream::{append_streaming, stream_into, NoPadding};
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

/// Every other element type is plain data (`NoPadding`): streaming its bytes is what cloning
/// does.
impl<T: NoPadding + Send + Sync> BlockCopy for T {
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

#[cfg(test)]
mod tests;

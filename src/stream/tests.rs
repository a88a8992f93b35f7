//! Unit tests of the streaming writes: which types may stream.

use super::*;
use std::marker::PhantomData;

/// `Probe::<T>::NO_PADDING` is true exactly when `T: NoPadding`: the inherent constant
/// exists only under that bound, and the trait's constant is the fallback.
struct Probe<T>(PhantomData<T>);
trait Fallback {
    const NO_PADDING: bool = false;
}
impl<T> Fallback for Probe<T> {}
impl<T: NoPadding> Probe<T> {
    const NO_PADDING: bool = true;
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Padded {
    a: u8,
    b: u16,
}

#[test]
fn only_padding_free_types_may_be_streamed() {
    let table_types = [
        Probe::<Complex128>::NO_PADDING,
        Probe::<F4E2M1>::NO_PADDING,
        Probe::<bool>::NO_PADDING,
        Probe::<bf16>::NO_PADDING,
    ];
    assert_eq!(table_types, [true; 4]);
    // `Copy`, so the old bound accepted them, but they hold a padding byte.
    let padded = [Probe::<Padded>::NO_PADDING, Probe::<(u8, u32)>::NO_PADDING];
    assert_eq!(padded, [false; 2]);
}

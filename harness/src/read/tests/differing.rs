//! `differing_codes`: every index whose bits differ, across its equal-block shortcut.

use super::super::{differing_codes, differing_codes_kept};
use half::f16;
use vocab::Tensor;

#[test]
fn every_differing_index_is_found_by_bits_across_blocks() {
    let n = 3 * 4096 + 17;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut b = a.clone();
    // Block edges, the last element, a NaN payload and the sign of zero all count.
    let at = [0usize, 4095, 4096, 8191, 8192 + 5, n - 1];
    for &i in &at {
        b[i] = match i {
            0 => -0.0,
            4095 => f32::from_bits(0x7fc0_0001),
            _ => b[i] + 0.5,
        };
    }
    let (ta, tb) = (
        Tensor::from_vec(vec![n], a.clone()).unwrap(),
        Tensor::from_vec(vec![n], b).unwrap(),
    );
    assert_eq!(differing_codes(&ta, &tb), Some(at.to_vec()));
    // Split by a rule asked of the differing indices: kept in order, the others counted.
    let odd = |i: &usize| i % 2 == 1;
    let kept: Vec<usize> = at.iter().copied().filter(|i| !odd(i)).collect();
    let other = at.iter().filter(|i| odd(i)).count() as u64;
    assert_eq!(
        differing_codes_kept(&ta, &tb, |i| !odd(&i)),
        Some((kept, other))
    );
    assert_eq!(differing_codes(&ta, &ta), Some(vec![]));
    // The same NaN bits are equal.
    let nan = Tensor::from_vec(vec![2], vec![f32::NAN, 1.0]).unwrap();
    assert_eq!(differing_codes(&nan, &nan.clone()), Some(vec![]));
    // Another type or length is no comparison at all.
    let half = Tensor::from_vec(vec![n], vec![f16::ZERO; n]).unwrap();
    assert_eq!(differing_codes(&ta, &half), None);
    let short = Tensor::from_vec(vec![n - 1], a[..n - 1].to_vec()).unwrap();
    assert_eq!(differing_codes(&ta, &short), None);
}

use super::*;

#[test]
fn concat_reference_follows_the_definition() {
    let a = [1, 2, 3, 4];
    let b = [5, 6];
    let (shape, out) = concat_reference(&[(&[2, 2], &a), (&[2, 1], &b)], 1);
    assert_eq!(shape, vec![2, 3]);
    assert_eq!(out, vec![1, 2, 5, 3, 4, 6]);
    let (shape, out) = concat_reference(&[(&[2, 2], &a), (&[1, 2], &b)], 0);
    assert_eq!(shape, vec![3, 2]);
    assert_eq!(out, vec![1, 2, 3, 4, 5, 6]);
}

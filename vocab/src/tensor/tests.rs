use super::*;

#[test]
fn new_checks_element_count() {
    assert!(Tensor::from_vec(vec![2, 3], vec![0f32; 6]).is_ok());
    assert!(Tensor::from_vec(vec![], vec![1i64]).is_ok());
    let err = Tensor::from_vec(vec![2, 3], vec![0f32; 5]).unwrap_err();
    assert!(matches!(
        err,
        Error::ElementCount {
            expected: 6,
            found: 5,
            ..
        }
    ));
    let err = Tensor::from_vec(vec![usize::MAX, 3], Vec::<u8>::new()).unwrap_err();
    assert!(matches!(err, Error::ShapeOverflow { .. }));
}

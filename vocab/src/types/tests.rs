use super::*;

#[test]
fn sets_grow_as_the_pages_say() {
    assert_eq!(CAST_1.iter().count(), 12);
    assert!(!CAST_1.contains(String) && CAST_9.contains(String));
    assert!(!CAST_9.contains(Bfloat16) && CAST_13.contains(Bfloat16));
    assert_eq!(CAST_25.iter().count(), 24);
    for set in [
        CAST_1, CAST_9, CAST_13, CAST_19, CAST_21, CAST_23, CAST_24, CAST_25,
    ] {
        assert!(!set.contains(Complex64) && !set.contains(Complex128));
    }
    assert_eq!(CONCAT_4.iter().count(), 15);
    assert!(!CONCAT_4.contains(Bfloat16) && CONCAT_13.contains(Bfloat16));
    assert!(!CONCAT_13.contains(Float8E4M3FN) && !CONCAT_13.contains(Int4));
}

use super::*;

#[test]
fn releases_sort_numerically_with_suffix_last() {
    let mut v = vec![
        "1.10.2",
        "1.9.0",
        "1.22.0-generated",
        "1.22.0",
        "1.2.3",
        "zzz",
    ];
    v.sort_by(|a, b| release_cmp(a, b));
    assert_eq!(
        v,
        [
            "1.2.3",
            "1.9.0",
            "1.10.2",
            "1.22.0",
            "1.22.0-generated",
            "zzz"
        ]
    );
}

use super::*;
use schema::index::release_cmp;

#[test]
fn the_release_list_is_in_version_order() {
    let mut sorted = RELEASES.to_vec();
    sorted.sort_by(|a, b| release_cmp(a, b));
    assert_eq!(sorted, RELEASES);
}

#[test]
fn release_names_are_checked() {
    assert!(is_release("1.22.0"));
    assert!(!is_release("1.22.0/../x"));
    assert!(!is_release(""));
    assert!(!is_release("1..2"));
    assert_eq!(python_versions("1.6.0")[0], "3.6");
    assert_eq!(python_versions("1.12.0")[0], "3.8");
    assert_eq!(python_versions("1.13.1")[0], "3.11");
}

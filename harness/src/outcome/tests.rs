use super::*;

#[test]
fn a_trials_origin_follows_the_release_discovery_and_the_fetch_write() {
    assert_eq!(Origin::of(None), Origin::Guard);
    assert_eq!(Origin::of(Some("1.23.2")), Origin::Official);
    assert_eq!(Origin::of(Some("1.2.3")), Origin::Official);
    assert_eq!(Origin::of(Some("1.23.2-generated")), Origin::Generated);
    assert_eq!(Origin::of(Some("own")), Origin::Own);
    assert_eq!(Origin::of(Some("custom")), Origin::Custom);
    assert_eq!(Origin::of(Some("deep")), Origin::Deep);
}

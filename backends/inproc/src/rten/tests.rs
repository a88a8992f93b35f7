//! The rten backend's pin.

/// The version the backend reports is the one Cargo.toml pins.
#[test]
fn the_reported_version_is_the_pinned_one() {
    let manifest = include_str!("../../Cargo.toml");
    assert!(
        manifest.contains(&format!("rten = {{ version = \"={}\"", super::VERSION)),
        "Cargo.toml does not pin rten ={}",
        super::VERSION
    );
}

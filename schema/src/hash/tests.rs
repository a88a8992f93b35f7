use super::*;

/// The sha256 of "abc", from FIPS 180-2's examples.
const ABC: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

#[test]
fn every_form_gives_the_published_digest() {
    assert_eq!(sha256_hex(b"abc"), ABC);
    let mut pieces = Hasher::default();
    pieces.update(b"a");
    pieces.update(b"");
    pieces.update(b"bc");
    assert_eq!(pieces.finish(), ABC);
    assert_eq!(sha256_read(&mut &b"abc"[..]).expect("in memory"), ABC);
    // Longer than one read buffer, so the chunks are joined.
    let long = vec![7u8; (1 << 16) + 3];
    assert_eq!(
        sha256_read(&mut &long[..]).expect("in memory"),
        sha256_hex(&long)
    );
}

#[test]
fn the_lock_hash_reads_the_lock_file_at_the_root() {
    let dir = std::env::temp_dir().join(format!("schema-hash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert!(lock_sha256(&dir).is_err());
    std::fs::write(dir.join(LOCK_FILE), b"abc").expect("write");
    let got = lock_sha256(&dir);
    std::fs::remove_dir_all(&dir).expect("clean up");
    assert_eq!(got.expect("lock read"), ABC);
}

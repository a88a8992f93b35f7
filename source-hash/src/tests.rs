//! The hash against the standard's vectors, and the walk against a throw-away tree.

use super::*;

fn sha256(bytes: &[u8]) -> String {
    let mut sha = Sha256::default();
    sha.update(bytes);
    sha.finish()
}

/// FIPS 180-4's examples (and the empty message), whole and fed in uneven pieces, which
/// cross every block boundary and padding length.
#[test]
fn the_hash_gives_the_standards_digests() {
    let million = vec![b'a'; 1_000_000];
    let vectors: [(&[u8], &str); 4] = [
        (
            b"",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        ),
        (
            b"abc",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        ),
        (
            &million,
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
        ),
    ];
    for (message, digest) in vectors {
        assert_eq!(sha256(message), digest, "{} bytes", message.len());
        for piece in [1, 3, 55, 56, 63, 64, 65, 127] {
            let mut sha = Sha256::default();
            message.chunks(piece).for_each(|c| sha.update(c));
            assert_eq!(
                sha.finish(),
                digest,
                "{} bytes in pieces of {piece}",
                message.len()
            );
        }
    }
}

/// Writes `text` at `rel` under `root`.
fn put(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("dir");
    std::fs::write(path, text).expect("write");
}

/// The hash follows the code under the paths, new files included, and neither their tests,
/// the excluded files, other files, nor anything outside the paths.
#[test]
fn the_hash_follows_the_sources_but_not_their_tests_or_the_excluded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    put(root, "src/lib.rs", "a");
    put(root, "src/read/mod.rs", "b");
    put(root, "src/exec.rs", "c");
    let paths = ["src/read", "src/lib.rs"];
    let excluded = ["src/read/skip"];
    let hash = || hash(root, &paths, &excluded).expect("hashed");
    let first = hash();
    for unseen in [
        "src/read/tests.rs",
        "src/read/tests/more.rs",
        "src/read/testkit.rs",
        "src/read/skip.rs",
        "src/read/skip/deeper.rs",
        "src/read/notes.md",
        "src/exec.rs",
        "src/other.rs",
    ] {
        put(root, unseen, "changed");
        assert_eq!(hash(), first, "{unseen}");
    }
    for counted in ["src/lib.rs", "src/read/mod.rs", "src/read/new.rs"] {
        let before = hash();
        put(root, counted, "changed again");
        assert_ne!(hash(), before, "{counted}");
    }
    // A file moved keeps its bytes, but not its place: the hash names each file.
    let before = hash();
    std::fs::rename(
        root.join("src/read/new.rs"),
        root.join("src/read/renamed.rs"),
    )
    .expect("mv");
    assert_ne!(hash(), before);
}

#[test]
fn a_missing_path_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = hash(dir.path(), &["src/gone"], &[])
        .expect_err("nothing there")
        .to_string();
    assert!(err.contains("src/gone"), "{err}");
}

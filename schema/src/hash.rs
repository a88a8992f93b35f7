//! The lock file's one hash: sha256 as lowercase hex. The lock records it for a wheel and for
//! every extracted file; the fetch and the harness check files against it; a run's provenance
//! and the scoreboard name the lock itself by it.

use crate::index::LOCK_FILE;
use sha2::{Digest, Sha256};
use std::io::{self, Read};
use std::path::Path;

/// A sha256 fed piece by piece (a file hashed while it is written).
#[derive(Default)]
pub struct Hasher(Sha256);

impl Hasher {
    /// Adds `bytes` to what is hashed.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The hash of everything added, as lowercase hex.
    pub fn finish(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The sha256 of `bytes`, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let mut h = Hasher::default();
    h.update(bytes);
    h.finish()
}

/// The sha256 of everything `src` yields, read in chunks.
pub fn sha256_read(src: &mut dyn Read) -> io::Result<String> {
    let mut h = Hasher::default();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match src.read(&mut buf)? {
            0 => return Ok(h.finish()),
            n => h.update(&buf[..n]),
        }
    }
}

/// The sha256 of the lock file at the workspace root: which data a run or a scoreboard used.
pub fn lock_sha256(workspace: &Path) -> io::Result<String> {
    sha256_read(&mut std::fs::File::open(workspace.join(LOCK_FILE))?)
}

#[cfg(test)]
mod tests;

//! Test support: a directory under the system temp dir that is removed when dropped, so
//! tests leave nothing behind, even when they fail.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh, empty temporary directory, removed with its contents on drop.
pub(crate) struct TestDir(PathBuf);

impl TestDir {
    /// A new directory named `<prefix>-<pid>-<n>`, unique within and across test processes.
    pub(crate) fn new(prefix: &str) -> TestDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary test directory");
        TestDir(dir)
    }
}

impl Deref for TestDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        // Best effort: a directory that cannot be removed must not turn into a second panic.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::TestDir;

    #[test]
    fn removed_on_drop() {
        let dir = TestDir::new("harness-testdir");
        std::fs::create_dir_all(dir.join("a/b")).expect("nested dir");
        std::fs::write(dir.join("a/b/f"), b"x").expect("file");
        let path = dir.to_path_buf();
        let other = TestDir::new("harness-testdir");
        assert_ne!(*other, *path, "unique names");
        drop(dir);
        assert!(!path.exists());
    }
}

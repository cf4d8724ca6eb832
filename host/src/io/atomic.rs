//! Write-then-rename, so readers never see half a file.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    path.with_file_name(name)
}

/// Writes `bytes` to `path` atomically: a `.partial` sibling is written,
/// flushed to disk and renamed over `path`. On error the partial file is
/// removed and `path` is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// [`write_atomic`] with the content streamed by `fill` into the temporary
/// file, so that a large file is never held whole in memory (a snapshot's
/// field would otherwise be encoded into a fresh buffer of its size).
pub fn write_atomic_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut w = io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        fill(&mut w)?;
        let f = w.into_inner().map_err(io::IntoInnerError::into_error)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Pretty JSON of `value`, written atomically with a trailing newline.
pub fn write_json_atomic<S: serde::Serialize>(path: &Path, value: &S) -> io::Result<()> {
    let mut text = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
    text.push(b'\n');
    write_atomic(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_no_partial_file() {
        let dir = std::env::temp_dir().join(format!("fibril-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.bin");
        write_atomic(&path, b"hello").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"hello");
        assert!(!temp_path(&path).exists());
        // Replacing a file keeps the old contents until the new ones are complete.
        write_atomic(&path, b"world!").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"world!");
        // When the rename fails (a non-empty directory holds the final
        // name), the temporary file is removed and the target untouched.
        let blocked = dir.join("blocked");
        fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(write_atomic(&blocked, b"x").is_err());
        assert!(!temp_path(&blocked).exists(), "the partial file is removed");
        assert!(blocked.join("inside").is_dir(), "the target is untouched");
        fs::remove_dir_all(&dir).unwrap();
    }
}

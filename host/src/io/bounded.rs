//! Reading input files within a bound on their size.
//!
//! A path given on the command line or in a configuration file may name
//! anything: a device that never ends (`/dev/zero`), a sparse file of
//! gigabytes, a directory. Read whole before it is looked at, such a file
//! takes all the memory (the kernel's OOM killer ends the process) or
//! hangs the run. So an input is opened with [`open`], its magic and
//! header are read first ([`Input::read_prefix`]), and the rest only up
//! to what the header (or the kind of file) makes plausible
//! ([`Input::read_rest`]): refused before reading when the file system
//! says the file is longer, and never read more than one byte past the
//! bound where it does not know (devices and pipes report a length of 0
//! and read on).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use thiserror::Error;

use crate::memory::format_bytes;

/// The most bytes a field file (`.npy`, `.vti`: masks, labels, fibres) may
/// hold: the fibres of a 1024^3 grid with sheets in f64 (48 GiB) fit, and
/// no tissue larger than that runs in the memory of any GPU fibril drives.
pub const MAX_FIELD_BYTES: u64 = 64 << 30;

/// Why an input was not read.
#[derive(Debug, Error)]
pub enum BoundError {
    #[error("it is a directory, not a file; give the path of a file")]
    Directory,
    #[error(
        "it holds {} ({found} bytes), more than {what} can be ({} at most); check that the path names the \
         right file",
        format_bytes(*found),
        format_bytes(*limit)
    )]
    TooLarge { found: u64, limit: u64, what: String },
    #[error(
        "it reads on past {} without an end (a device or a pipe?), more than {what} can be; give a regular file",
        format_bytes(*limit)
    )]
    Endless { limit: u64, what: String },
}

impl From<BoundError> for io::Error {
    fn from(e: BoundError) -> Self {
        let kind = match e {
            BoundError::Directory => io::ErrorKind::IsADirectory,
            BoundError::TooLarge { .. } | BoundError::Endless { .. } => io::ErrorKind::FileTooLarge,
        };
        io::Error::new(kind, e)
    }
}

/// An input file being read, and its length where the file system knows it.
#[derive(Debug)]
pub struct Input {
    file: File,
    len: Option<u64>,
    read: u64,
}

/// Opens `path` for reading, refusing a directory.
pub fn open(path: &Path) -> io::Result<Input> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(BoundError::Directory.into());
    }
    Ok(Input { file, len: meta.is_file().then_some(meta.len()), read: 0 })
}

/// Reads `path` whole when it holds at most `limit` bytes; `what` names
/// the kind of file in the error ("a configuration file").
pub fn read(path: &Path, limit: u64, what: &str) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path)?.read_rest(&mut bytes, limit, what)?;
    Ok(bytes)
}

impl Input {
    /// The file's length for a regular file; `None` for devices and pipes,
    /// whose length the file system does not know.
    pub fn known_len(&self) -> Option<u64> {
        self.len
    }

    /// Appends up to `n` more bytes to `buf` (fewer at the end of the file).
    pub fn read_prefix(&mut self, buf: &mut Vec<u8>, n: usize) -> io::Result<()> {
        let got = (&mut self.file).take(n as u64).read_to_end(buf)?;
        self.read += got as u64;
        Ok(())
    }

    /// Appends the rest of the file to `buf`, refusing a file of more than
    /// `limit` bytes in all (those already read included): before reading
    /// when its length says so, else after reading at most one byte past
    /// the bound.
    pub fn read_rest(mut self, buf: &mut Vec<u8>, limit: u64, what: &str) -> io::Result<()> {
        if let Some(found) = self.len.filter(|&n| n > limit) {
            return Err(BoundError::TooLarge { found, limit, what: what.into() }.into());
        }
        let left = limit.saturating_sub(self.read).saturating_add(1);
        let got = (&mut self.file).take(left).read_to_end(buf)? as u64;
        self.read += got;
        if self.read > limit {
            return Err(match self.len {
                // A regular file that grew while it was read.
                Some(_) => BoundError::TooLarge { found: self.read, limit, what: what.into() },
                None => BoundError::Endless { limit, what: what.into() },
            }
            .into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("fibril-bounded-{}-{name}", std::process::id()))
    }

    #[test]
    fn a_file_within_the_bound_is_read_whole() {
        let path = scratch("small");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read(&path, 10, "a test file").unwrap(), b"0123456789");
        let mut input = open(&path).unwrap();
        assert_eq!(input.known_len(), Some(10));
        let mut buf = Vec::new();
        input.read_prefix(&mut buf, 4).unwrap();
        assert_eq!(buf, b"0123");
        input.read_rest(&mut buf, 10, "a test file").unwrap();
        assert_eq!(buf, b"0123456789");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_longer_file_is_refused_before_it_is_read_naming_the_bound() {
        let path = scratch("large");
        std::fs::write(&path, vec![7u8; 2048]).unwrap();
        let e = read(&path, 1024, "a test file").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        let text = e.to_string();
        assert!(text.contains("2048 bytes") && text.contains("1.00 KiB at most"), "{text}");
        assert!(text.contains("a test file"), "{text}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_device_that_never_ends_is_read_one_byte_past_the_bound_only() {
        let zero = Path::new("/dev/zero");
        if !zero.exists() {
            eprintln!("skipped: no /dev/zero on this system");
            return;
        }
        let mut input = open(zero).unwrap();
        assert_eq!(input.known_len(), None, "a device's length is unknown");
        let mut buf = Vec::new();
        input.read_prefix(&mut buf, 8).unwrap();
        assert_eq!(buf, [0; 8]);
        let e = input.read_rest(&mut buf, 1 << 16, "a test file").unwrap_err();
        assert!(e.to_string().contains("without an end"), "{e}");
        assert_eq!(buf.len(), (1 << 16) + 1, "one byte past the bound, no more");
    }

    #[test]
    fn a_directory_is_refused_as_such() {
        let e = read(&std::env::temp_dir(), 1 << 20, "a test file").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
        assert!(e.to_string().contains("is a directory"), "{e}");
    }
}

//! The output directory of a run, checked before any work starts.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

#[derive(Debug, Error)]
pub enum OutputDirError {
    #[error("cannot create output directory {path}: {source}; choose another with --out")]
    Create { path: PathBuf, source: io::Error },
    #[error("output directory {path} is not writable: {source}; choose another with --out")]
    NotWritable { path: PathBuf, source: io::Error },
    #[error("{path} exists and is not a directory; choose another with --out")]
    NotADirectory { path: PathBuf },
    #[error(
        "output directory {path} already holds {entries} entries (a previous run?); \
         choose an empty or new one with --out, or pass --overwrite to replace fibril's files there"
    )]
    NotEmpty { path: PathBuf, entries: usize },
}

/// A directory that has been created (if needed) and proven writable.
#[derive(Debug, Clone)]
pub struct OutputDir {
    path: PathBuf,
}

/// Files fibril writes into an output directory, which `--overwrite` may remove.
fn is_fibril_output(name: &str) -> bool {
    const NAMED: [&str; 7] = [
        "summary.json",
        "snapshots.json",
        "fields.pvd",
        "activation.npy",
        "activation.vti",
        "activation.png",
        "checkpoint.fibril",
    ];
    let numbered = |prefix: &str, ext: &str| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(ext))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    // Snapshots are named after the variables of a model, any model's.
    let variable_file = crate::models::MODELS.iter().flat_map(|m| m.variables).any(|v| {
        let prefix = format!("{}_", v.name);
        numbered(&prefix, ".npy") || numbered(&prefix, ".png")
    });
    NAMED.contains(&name) || name.ends_with(".partial") || variable_file || numbered("fields_", ".vti")
}

impl OutputDir {
    /// Creates `path` if missing and checks a file can be written there.
    /// An existing non-empty directory is refused unless `overwrite`, in
    /// which case fibril's own files in it are removed first (and nothing else).
    pub fn prepare(path: &Path, overwrite: bool) -> Result<Self, OutputDirError> {
        let path = path.to_path_buf();
        if path.exists() && !path.is_dir() {
            return Err(OutputDirError::NotADirectory { path });
        }
        fs::create_dir_all(&path).map_err(|source| OutputDirError::Create { path: path.clone(), source })?;
        let entries: Vec<_> = fs::read_dir(&path)
            .map_err(|source| OutputDirError::NotWritable { path: path.clone(), source })?
            .filter_map(Result::ok)
            .collect();
        if !entries.is_empty() {
            if !overwrite {
                return Err(OutputDirError::NotEmpty { path, entries: entries.len() });
            }
            for e in entries {
                if e.file_name().to_str().is_some_and(is_fibril_output) {
                    fs::remove_file(e.path())
                        .map_err(|source| OutputDirError::NotWritable { path: path.clone(), source })?;
                }
            }
        }
        let probe = path.join(".fibril-write-test");
        fs::write(&probe, b"ok")
            .and_then(|_| fs::remove_file(&probe))
            .map_err(|source| OutputDirError::NotWritable { path: path.clone(), source })?;
        Ok(Self { path })
    }

    /// Opens `path` to continue a run in it (`--resume`): created if
    /// missing and checked writable, but files already there are kept.
    pub fn reopen(path: &Path) -> Result<Self, OutputDirError> {
        let path = path.to_path_buf();
        if path.exists() && !path.is_dir() {
            return Err(OutputDirError::NotADirectory { path });
        }
        fs::create_dir_all(&path).map_err(|source| OutputDirError::Create { path: path.clone(), source })?;
        let probe = path.join(".fibril-write-test");
        fs::write(&probe, b"ok")
            .and_then(|_| fs::remove_file(&probe))
            .map_err(|source| OutputDirError::NotWritable { path: path.clone(), source })?;
        Ok(Self { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("fibril-outdir-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&p);
        p
    }

    #[test]
    fn creates_and_refuses_non_empty_without_overwrite() {
        let p = scratch("nonempty");
        OutputDir::prepare(&p, false).unwrap();
        fs::write(p.join("summary.json"), "{}").unwrap();
        fs::write(p.join("fields_000012.vti"), "").unwrap();
        fs::write(p.join("notes.txt"), "mine").unwrap();
        fs::write(p.join("U_final.png"), "mine").unwrap();
        assert!(matches!(OutputDir::prepare(&p, false), Err(OutputDirError::NotEmpty { entries: 4, .. })));
        // Reopening (to resume) keeps everything.
        OutputDir::reopen(&p).unwrap();
        assert!(p.join("summary.json").exists());
        OutputDir::prepare(&p, true).unwrap();
        assert!(!p.join("summary.json").exists(), "fibril's file removed");
        assert!(!p.join("fields_000012.vti").exists(), "fibril's file removed");
        assert!(p.join("notes.txt").exists(), "the user's file kept");
        assert!(p.join("U_final.png").exists(), "the user's file kept");
        fs::remove_dir_all(&p).unwrap();
    }

    #[test]
    fn refuses_a_file_in_the_way() {
        let p = scratch("file");
        fs::write(&p, "x").unwrap();
        assert!(matches!(OutputDir::prepare(&p, false), Err(OutputDirError::NotADirectory { .. })));
        fs::remove_file(&p).unwrap();
    }
}

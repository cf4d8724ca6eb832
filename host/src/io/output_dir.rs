//! The output directory of a run, checked before any work starts, and
//! held by one run at a time: a lock file (`.fibril-lock`, holding the
//! process id) is created with `O_EXCL` before the directory is examined
//! and removed when the run lets go of it. A lock left by a process that
//! no longer runs (a killed run) is taken over.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    #[error(
        "another fibril run (process {pid}) is writing into {path}; wait for it to end or choose another --out \
         (if no run uses the directory, delete {path}/{LOCK_FILE})"
    )]
    Locked { path: PathBuf, pid: String },
}

/// The lock file a run holds in its output directory.
pub const LOCK_FILE: &str = ".fibril-lock";

/// Removes the lock file when the last holder lets go.
#[derive(Debug)]
struct DirLock {
    file: PathBuf,
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.file);
    }
}

/// Whether process `pid` is running, where the system can say (`/proc`);
/// `true` where it cannot, so a lock is never taken from a live run. A
/// lock file without a process id counts as live too: its run may have
/// created it and not yet written its id.
fn process_alive(pid: &str) -> bool {
    let Ok(pid) = pid.trim().parse::<u32>() else { return true };
    if pid == std::process::id() {
        return true;
    }
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// Takes the lock of directory `path` (which exists).
fn lock(path: &Path) -> Result<DirLock, OutputDirError> {
    let file = path.join(LOCK_FILE);
    let not_writable = |source| OutputDirError::NotWritable { path: path.to_path_buf(), source };
    // Twice at most: once more after removing a stale lock.
    for _ in 0..2 {
        match fs::OpenOptions::new().write(true).create_new(true).open(&file) {
            Ok(mut f) => {
                write!(f, "{}", std::process::id()).map_err(not_writable)?;
                return Ok(DirLock { file });
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let pid = fs::read_to_string(&file).unwrap_or_default();
                if process_alive(&pid) {
                    return Err(OutputDirError::Locked {
                        path: path.to_path_buf(),
                        pid: pid.trim().to_string(),
                    });
                }
                eprintln!(
                    "fibril: {} holds the lock of process {}, which no longer runs (killed?); taking it over",
                    path.display(),
                    pid.trim()
                );
                fs::remove_file(&file).map_err(not_writable)?;
            }
            Err(e) => return Err(not_writable(e)),
        }
    }
    Err(OutputDirError::Locked { path: path.to_path_buf(), pid: "unknown".into() })
}

/// A directory that has been created (if needed), proven writable and
/// locked for this run (clones share the lock).
#[derive(Debug, Clone)]
pub struct OutputDir {
    path: PathBuf,
    _lock: Arc<DirLock>,
}

/// The file written and removed to prove a directory writable.
const PROBE_FILE: &str = ".fibril-write-test";

fn probe_writable(path: &Path) -> Result<(), OutputDirError> {
    let probe = path.join(PROBE_FILE);
    fs::write(&probe, b"ok")
        .and_then(|_| fs::remove_file(&probe))
        .map_err(|source| OutputDirError::NotWritable { path: path.to_path_buf(), source })
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
        // Lock first: a second run started into the same directory is told
        // so, rather than finding the first one's files.
        let lock = lock(&path)?;
        let entries: Vec<_> = fs::read_dir(&path)
            .map_err(|source| OutputDirError::NotWritable { path: path.clone(), source })?
            .filter_map(Result::ok)
            .filter(|e| e.file_name() != LOCK_FILE && e.file_name() != PROBE_FILE)
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
        probe_writable(&path)?;
        Ok(Self { path, _lock: Arc::new(lock) })
    }

    /// Opens `path` to continue a run in it (`--resume`): created if
    /// missing, locked and checked writable, but files already there are kept.
    pub fn reopen(path: &Path) -> Result<Self, OutputDirError> {
        let path = path.to_path_buf();
        if path.exists() && !path.is_dir() {
            return Err(OutputDirError::NotADirectory { path });
        }
        fs::create_dir_all(&path).map_err(|source| OutputDirError::Create { path: path.clone(), source })?;
        let lock = lock(&path)?;
        probe_writable(&path)?;
        Ok(Self { path, _lock: Arc::new(lock) })
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
    fn one_run_at_a_time_and_stale_locks_are_taken_over() {
        let p = scratch("lock");
        let first = OutputDir::prepare(&p, false).unwrap();
        assert!(p.join(LOCK_FILE).exists());
        // A second run into the same directory is refused while the first holds it.
        let e = OutputDir::prepare(&p, false).unwrap_err();
        assert!(matches!(e, OutputDirError::Locked { .. }), "{e}");
        assert!(e.to_string().contains(&std::process::id().to_string()), "{e}");
        assert!(matches!(OutputDir::reopen(&p), Err(OutputDirError::Locked { .. })));
        let clone = first.clone();
        drop(first);
        assert!(p.join(LOCK_FILE).exists(), "a clone still holds it");
        drop(clone);
        assert!(!p.join(LOCK_FILE).exists(), "released with the last holder");
        // The lock file does not make the directory non-empty.
        let again = OutputDir::prepare(&p, false).unwrap();
        drop(again);
        // A lock left by a process that no longer runs is taken over.
        fs::write(p.join(LOCK_FILE), "4000000000").unwrap();
        let taken = OutputDir::prepare(&p, false).unwrap();
        assert_eq!(fs::read_to_string(p.join(LOCK_FILE)).unwrap(), std::process::id().to_string());
        drop(taken);
        // A lock without a process id yet (its run between creating and
        // writing it) is not taken.
        fs::write(p.join(LOCK_FILE), "").unwrap();
        assert!(matches!(OutputDir::prepare(&p, false), Err(OutputDirError::Locked { .. })));
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

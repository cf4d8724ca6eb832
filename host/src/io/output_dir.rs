//! The output directory of a run, checked before any work starts, and
//! held by one run at a time: a lock file (`.fibril-lock`, holding the
//! process id) is created with `O_EXCL` before the directory is examined
//! and removed when the run lets go of it. A lock left by a process that
//! no longer runs (a killed run) is taken over.
//!
//! The directory owns the files of its run: every output asks it for the
//! path of each file it writes ([`OutputDir::file`]), which records the
//! name in the directory's record ([`super::manifest`]) before the file is
//! written. `--overwrite` removes exactly the files the record lists (and
//! nothing else), and a resumed run continues only in a directory of its
//! own run, told by the run identity the record and the checkpoint share.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use thiserror::Error;

use super::manifest::{MANIFEST_FILE, Manifest, ManifestError, ManifestWriter, RunId, remove_files};

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
         choose an empty or new one with --out, or pass --overwrite to replace fibril's files there{hint}"
    )]
    NotEmpty { path: PathBuf, entries: usize, hint: String },
    #[error(
        "output directory {path} holds the files of another run ({found}), and the checkpoint {checkpoint} \
         belongs to {ours}: a resumed run continues only in its own run's directory (or a new one); \
         choose a new --out, or pass --overwrite to replace that run's files in {path}"
    )]
    OtherRun { path: PathBuf, found: String, checkpoint: PathBuf, ours: String },
    #[error(
        "another fibril run (process {pid}) is writing into {path}; wait for it to end or choose another --out \
         (if no run uses the directory, delete {path}/{LOCK_FILE})"
    )]
    Locked { path: PathBuf, pid: String },
    #[error(transparent)]
    Manifest(#[from] ManifestError),
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
                // The lock is removed if its process id cannot be written
                // (a full disk): a lock without one would hold the
                // directory for ever.
                let lock = DirLock { file };
                write!(f, "{}", std::process::id()).map_err(not_writable)?;
                return Ok(lock);
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
/// locked for this run, with the record of the files it writes (clones
/// share the lock and the record).
#[derive(Debug, Clone)]
pub struct OutputDir {
    path: PathBuf,
    run: RunId,
    manifest: Arc<Mutex<ManifestWriter>>,
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

/// The checkpoint file a run writes into its directory.
pub const CHECKPOINT_FILE: &str = "checkpoint.fibril";

/// Files that fibril wrote into output directories before they kept a
/// record of them: what `--overwrite` removes from such a directory (a
/// directory with a record has exactly its record's files removed).
fn is_unrecorded_fibril_output(name: &str) -> bool {
    const NAMED: [&str; 15] = [
        "summary.json",
        "snapshots.json",
        "fields.pvd",
        "activation.npy",
        "activation.vti",
        "activation.png",
        "repolarisation.npy",
        "apd.npy",
        "apd.png",
        "tips.csv",
        "tips.png",
        "filaments.csv",
        "ecg.csv",
        "ecg.png",
        CHECKPOINT_FILE,
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
    let whole = name.strip_suffix(".partial").unwrap_or(name);
    NAMED.contains(&whole) || variable_file || numbered("fields_", ".vti") || whole != name
}

/// The names in directory `path`, but for the lock and the probe.
fn entries(path: &Path) -> Result<Vec<String>, OutputDirError> {
    let names = fs::read_dir(path)
        .map_err(|source| OutputDirError::NotWritable { path: path.to_path_buf(), source })?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != LOCK_FILE && n != PROBE_FILE)
        .collect();
    Ok(names)
}

/// The files of the run that wrote into `path` before: its record's, or
/// for a directory without one (an older fibril's), the names fibril used.
fn earlier_files(path: &Path, names: &[String]) -> Result<Vec<String>, OutputDirError> {
    Ok(match Manifest::read(path)? {
        Some(found) => found.files,
        None => names.iter().filter(|n| is_unrecorded_fibril_output(n)).cloned().collect(),
    })
}

/// Removes the earlier run's files from `path` and its record.
fn clear(path: &Path, names: &[String]) -> Result<(), OutputDirError> {
    let not_writable = |source| OutputDirError::NotWritable { path: path.to_path_buf(), source };
    remove_files(path, &earlier_files(path, names)?).map_err(not_writable)?;
    match fs::remove_file(path.join(MANIFEST_FILE)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(not_writable(e)),
        _ => Ok(()),
    }
}

/// What to add to "already holds files": where the run there stopped
/// before its end and left a checkpoint, that it can be continued.
fn unfinished_hint(path: &Path) -> String {
    let checkpoint = path.join(CHECKPOINT_FILE);
    if !checkpoint.is_file() {
        return String::new();
    }
    let completed = fs::File::open(path.join("summary.json")).ok().and_then(|f| {
        use std::io::Read;
        let mut text = String::new();
        f.take(1 << 24).read_to_string(&mut text).ok()?;
        let summary: serde_json::Value = serde_json::from_str(&text).ok()?;
        Some(summary.get("status")?.as_str()? == "completed")
    });
    if completed == Some(true) {
        return String::new();
    }
    format!(
        "; the run there stopped before its end and left a checkpoint: continue it with the same options \
         plus --resume {}",
        checkpoint.display()
    )
}

/// Where a resumed run comes from: its checkpoint and the run identity it
/// holds (`None` in checkpoints written before runs had one).
#[derive(Clone, Copy, Debug)]
pub struct ResumeFrom<'a> {
    pub checkpoint: &'a Path,
    pub run: Option<RunId>,
}

impl ResumeFrom<'_> {
    /// Whether the directory `path`, whose record (if any) names run
    /// `found`, holds this checkpoint's run: the identities agree, or the
    /// checkpoint is the directory's own checkpoint file.
    fn owns(&self, path: &Path, found: Option<RunId>) -> bool {
        if let (Some(ours), Some(theirs)) = (self.run, found) {
            return ours == theirs;
        }
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        same(self.checkpoint, &path.join(CHECKPOINT_FILE))
    }

    fn describe(&self) -> String {
        self.run.map_or("a run that recorded no identity".into(), |r| format!("run {r}"))
    }
}

/// Creates `path` if missing, then runs `open` on it; if that fails, a
/// directory created here is removed again (when it is empty), so a run
/// refused at this point leaves nothing behind.
fn in_dir(
    path: &Path,
    open: impl FnOnce() -> Result<OutputDir, OutputDirError>,
) -> Result<OutputDir, OutputDirError> {
    if path.exists() && !path.is_dir() {
        return Err(OutputDirError::NotADirectory { path: path.to_path_buf() });
    }
    let created = !path.exists();
    fs::create_dir_all(path).map_err(|source| OutputDirError::Create { path: path.to_path_buf(), source })?;
    let opened = open();
    if opened.is_err() && created {
        let _ = fs::remove_dir(path);
    }
    opened
}

impl OutputDir {
    /// Creates `path` if missing and checks a file can be written there,
    /// for a new run. An existing non-empty directory is refused unless
    /// `overwrite`, in which case the files of the run there are removed
    /// first (and nothing else).
    pub fn prepare(path: &Path, overwrite: bool) -> Result<Self, OutputDirError> {
        in_dir(path, || {
            // Lock first: a second run started into the same directory is
            // told so, rather than finding the first one's files.
            let lock = lock(path)?;
            let names = entries(path)?;
            if !names.is_empty() {
                if !overwrite {
                    return Err(OutputDirError::NotEmpty {
                        path: path.to_path_buf(),
                        entries: names.len(),
                        hint: unfinished_hint(path),
                    });
                }
                clear(path, &names)?;
            }
            Self::open(path, lock, None, RunId::fresh())
        })
    }

    /// Opens `path` to continue the run of a checkpoint in it
    /// (`--resume`): created if missing, locked and checked writable. A
    /// directory of the checkpoint's own run keeps its files (the resumed
    /// run writes on); an empty one becomes the run's; one holding another
    /// run's files is refused unless `overwrite`, which removes them.
    pub fn reopen(path: &Path, from: ResumeFrom<'_>, overwrite: bool) -> Result<Self, OutputDirError> {
        in_dir(path, || Self::reopen_locked(path, from, overwrite))
    }

    fn reopen_locked(path: &Path, from: ResumeFrom<'_>, overwrite: bool) -> Result<Self, OutputDirError> {
        let lock = lock(path)?;
        let names = entries(path)?;
        let found = Manifest::read(path)?;
        let run = from.run.unwrap_or_else(RunId::fresh);
        if names.is_empty() {
            return Self::open(path, lock, None, run);
        }
        if from.owns(path, found.as_ref().map(|m| m.run)) {
            // The directory's run goes on under the identity it has.
            return match found {
                Some(found) => {
                    let run = found.run;
                    Self::open(path, lock, Some(found), run)
                }
                None => {
                    // An older fibril's directory: its files are recorded
                    // now, so that a later --overwrite finds them.
                    let dir = Self::open(path, lock, None, run)?;
                    for name in names.iter().filter(|n| is_unrecorded_fibril_output(n)) {
                        dir.file(name.strip_suffix(".partial").unwrap_or(name)).map_err(|source| {
                            OutputDirError::NotWritable { path: path.to_path_buf(), source }
                        })?;
                    }
                    Ok(dir)
                }
            };
        }
        if !overwrite {
            let found = match &found {
                Some(m) => format!("run {}", m.run),
                None if names.iter().any(|n| is_unrecorded_fibril_output(n)) => {
                    "files of a fibril run that recorded no identity".into()
                }
                None => format!("{} entries not written by fibril", names.len()),
            };
            return Err(OutputDirError::OtherRun {
                path: path.to_path_buf(),
                found,
                checkpoint: from.checkpoint.to_path_buf(),
                ours: from.describe(),
            });
        }
        clear(path, &names)?;
        Self::open(path, lock, None, run)
    }

    /// Starts (or continues, with `found`) the record of run `run` in the
    /// locked directory `path`.
    fn open(path: &Path, lock: DirLock, found: Option<Manifest>, run: RunId) -> Result<Self, OutputDirError> {
        probe_writable(path)?;
        let not_writable = |source| OutputDirError::NotWritable { path: path.to_path_buf(), source };
        let manifest = match found {
            Some(found) => ManifestWriter::append(path, found),
            None => ManifestWriter::create(path, run),
        }
        .map_err(not_writable)?;
        Ok(Self {
            path: path.to_path_buf(),
            run,
            manifest: Arc::new(Mutex::new(manifest)),
            _lock: Arc::new(lock),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The identity of the run this directory holds (kept by checkpoints
    /// and `summary.json`).
    pub fn run_id(&self) -> RunId {
        self.run
    }

    /// The path of file `name` of this run, recorded as the run's before it
    /// is written (so `--overwrite` removes it, even if the run is killed
    /// while writing it). Every file a run writes here is named through
    /// this.
    pub fn file(&self, name: &str) -> io::Result<PathBuf> {
        self.manifest.lock().expect("the record is never poisoned").record(name)?;
        Ok(self.path.join(name))
    }

    /// The path of file `name` to read (a resumed run's index or traces),
    /// not recorded.
    pub fn existing(&self, name: &str) -> PathBuf {
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
        // The empty run's record, the two files fibril wrote, the user's two.
        assert!(matches!(OutputDir::prepare(&p, false), Err(OutputDirError::NotEmpty { entries: 5, .. })));
        fs::remove_file(p.join(MANIFEST_FILE)).unwrap();
        // Reopening its own directory (to resume) keeps everything.
        let own = ResumeFrom { checkpoint: &p.join(CHECKPOINT_FILE), run: None };
        fs::write(p.join(CHECKPOINT_FILE), "").unwrap();
        drop(OutputDir::reopen(&p, own, false).unwrap());
        assert!(p.join("summary.json").exists());
        // A directory without a record (an older fibril's): the names
        // fibril used go, the user's files stay.
        fs::remove_file(p.join(MANIFEST_FILE)).unwrap();
        let dir = OutputDir::prepare(&p, true).unwrap();
        assert!(!p.join("summary.json").exists(), "fibril's file removed");
        assert!(!p.join("fields_000012.vti").exists(), "fibril's file removed");
        assert!(p.join("notes.txt").exists(), "the user's file kept");
        assert!(p.join("U_final.png").exists(), "the user's file kept");
        // With a record, exactly the files it lists go.
        fs::write(dir.file("apd.npy").unwrap(), "x").unwrap();
        fs::write(dir.file("ecg.csv.partial").unwrap(), "x").unwrap();
        fs::write(p.join("tips.csv"), "the user's, under a name fibril also uses").unwrap();
        drop(dir);
        let dir = OutputDir::prepare(&p, true).unwrap();
        assert!(!p.join("apd.npy").exists() && !p.join("ecg.csv.partial").exists());
        assert!(p.join("tips.csv").exists(), "not the earlier run's: kept");
        assert_eq!(Manifest::read(&p).unwrap().unwrap(), Manifest { run: dir.run_id(), files: vec![] });
        drop(dir);
        fs::remove_dir_all(&p).unwrap();
    }

    #[test]
    fn a_resume_continues_only_in_its_own_runs_directory() {
        let p = scratch("resume");
        let first = OutputDir::prepare(&p, false).unwrap();
        let run = first.run_id();
        fs::write(first.file("U_000000.npy").unwrap(), "x").unwrap();
        drop(first);
        let elsewhere = p.with_extension("elsewhere.fibril");
        // The same run (by its identity) goes on under it, keeping its files.
        let ours = ResumeFrom { checkpoint: &elsewhere, run: Some(run) };
        let again = OutputDir::reopen(&p, ours, false).unwrap();
        assert_eq!(again.run_id(), run);
        fs::write(again.file("U_000001.npy").unwrap(), "x").unwrap();
        drop(again);
        let record = Manifest::read(&p).unwrap().unwrap();
        assert_eq!(record.files, ["U_000000.npy", "U_000001.npy"]);
        // Another run is refused, naming both, and nothing is touched.
        let theirs = ResumeFrom { checkpoint: &elsewhere, run: Some(RunId(7)) };
        let e = OutputDir::reopen(&p, theirs, false).unwrap_err();
        assert!(matches!(e, OutputDirError::OtherRun { .. }), "{e}");
        assert!(
            e.to_string().contains(&run.to_string()) && e.to_string().contains(&RunId(7).to_string()),
            "{e}"
        );
        assert!(p.join("U_000001.npy").exists());
        // So is a checkpoint without an identity from elsewhere.
        let unknown = ResumeFrom { checkpoint: &elsewhere, run: None };
        assert!(matches!(OutputDir::reopen(&p, unknown, false), Err(OutputDirError::OtherRun { .. })));
        // --overwrite replaces the other run's files.
        let taken = OutputDir::reopen(&p, theirs, true).unwrap();
        assert_eq!(taken.run_id(), RunId(7));
        assert!(!p.join("U_000000.npy").exists() && !p.join("U_000001.npy").exists());
        drop(taken);
        // A new, empty directory becomes the resumed run's.
        let fresh = p.with_extension("fresh");
        let _ = fs::remove_dir_all(&fresh);
        assert_eq!(OutputDir::reopen(&fresh, ours, false).unwrap().run_id(), run);
        fs::remove_dir_all(&p).unwrap();
        fs::remove_dir_all(&fresh).unwrap();
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
        let own = ResumeFrom { checkpoint: &p.join(CHECKPOINT_FILE), run: Some(first.run_id()) };
        assert!(matches!(OutputDir::reopen(&p, own, false), Err(OutputDirError::Locked { .. })));
        let clone = first.clone();
        drop(first);
        assert!(p.join(LOCK_FILE).exists(), "a clone still holds it");
        drop(clone);
        assert!(!p.join(LOCK_FILE).exists(), "released with the last holder");
        // The lock file does not make the directory non-empty (the record
        // of the run that wrote nothing does).
        fs::remove_file(p.join(MANIFEST_FILE)).unwrap();
        let again = OutputDir::prepare(&p, false).unwrap();
        drop(again);
        fs::remove_file(p.join(MANIFEST_FILE)).unwrap();
        // A lock left by a process that no longer runs is taken over.
        fs::write(p.join(LOCK_FILE), "4000000000").unwrap();
        let taken = OutputDir::prepare(&p, false).unwrap();
        assert_eq!(fs::read_to_string(p.join(LOCK_FILE)).unwrap(), std::process::id().to_string());
        fs::remove_file(p.join(MANIFEST_FILE)).unwrap();
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

    #[test]
    fn a_record_that_is_not_fibrils_removes_nothing() {
        let p = scratch("foreign-record");
        fs::create_dir_all(&p).unwrap();
        fs::write(p.join(MANIFEST_FILE), "fibril output directory 1\nrun 12\n").unwrap();
        fs::write(p.join("summary.json"), "{}").unwrap();
        let e = OutputDir::prepare(&p, true).unwrap_err();
        assert!(matches!(e, OutputDirError::Manifest(_)), "{e}");
        assert!(e.to_string().contains("--out"), "{e}");
        assert!(p.join(MANIFEST_FILE).exists() && p.join("summary.json").exists(), "nothing removed");
        fs::remove_dir_all(&p).unwrap();
    }
}

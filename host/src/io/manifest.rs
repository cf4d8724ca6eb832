//! The record an output directory keeps of its run: which run it belongs
//! to and every file that run wrote there, so that `--overwrite` removes
//! exactly those files (and nothing of the user's) and `--resume` can tell
//! its own run's directory from another's.
//!
//! The record is the text file `.fibril-run`, appended to as files are
//! named (one short line each, so a run of thousands of snapshots costs a
//! line per file, not a rewrite of a list):
//!
//! ```text
//! fibril output directory 1
//! run 5f0c3a9e1b7d4c2a8e6f0b1d3c5a7e9f
//! file summary.json
//! file U_000000.npy
//! ```
//!
//! A file is recorded before it is written, so a run killed in the middle
//! of a write leaves its name (and the `.partial` file beside it) listed.

use std::collections::BTreeSet;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The record's file name in the output directory.
pub const MANIFEST_FILE: &str = ".fibril-run";

const FIRST_LINE: &str = "fibril output directory 1";

/// The largest record read (a line per file: about 50 bytes each, so room
/// for a million files); a larger one is not fibril's.
const MAX_MANIFEST_BYTES: u64 = 64 << 20;

/// Which run a directory, a checkpoint and a summary belong to: 128
/// random bits, drawn when a run starts and kept by its resumptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RunId(pub u128);

impl RunId {
    /// A fresh identity. The standard library's hasher keys are drawn from
    /// the operating system's random source once per thread and stepped
    /// for each new hasher; mixed with the time and the process id, two
    /// runs started anywhere at any time get different identities.
    pub fn fresh() -> Self {
        use std::hash::{BuildHasher, Hasher};
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let half = |salt: u64| {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(nanos);
            h.write_u32(std::process::id());
            h.write_u64(salt);
            h.finish() as u128
        };
        RunId(half(0) << 64 | half(1))
    }

    /// Parses the 32 hex digits [`fmt::Display`] writes.
    pub fn parse(text: &str) -> Option<Self> {
        (text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u128::from_str_radix(text, 16).ok().map(RunId))
            .flatten()
    }
}

impl fmt::Display for RunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl serde::Serialize for RunId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Why a directory's record cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error(
        "{path} is not a record fibril wrote ({why}); it lists the files of the run in its directory: \
         remove that run's files and {MANIFEST_FILE} yourself, or choose another --out"
    )]
    Corrupt { path: PathBuf, why: String },
}

/// A file name that names a file inside the directory: no separators, no
/// `..`, nothing hidden that fibril does not write. A record that lists
/// any other name is not fibril's, and nothing it lists is removed.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !name.starts_with('.')
}

/// A directory's record as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    pub run: RunId,
    /// Every file the run named, in the order first named.
    pub files: Vec<String>,
}

impl Manifest {
    /// The record of directory `dir`, or `None` where it has none.
    pub fn read(dir: &Path) -> Result<Option<Self>, ManifestError> {
        let path = dir.join(MANIFEST_FILE);
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ManifestError::Io { path, source }),
        };
        let corrupt = |why: String| ManifestError::Corrupt { path: path.clone(), why };
        let mut text = String::new();
        use std::io::Read;
        let read = file.take(MAX_MANIFEST_BYTES + 1).read_to_string(&mut text);
        match read {
            Ok(n) if n as u64 > MAX_MANIFEST_BYTES => {
                return Err(corrupt(format!("larger than {} MiB", MAX_MANIFEST_BYTES >> 20)));
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::InvalidData => return Err(corrupt("not UTF-8 text".into())),
            Err(source) => return Err(ManifestError::Io { path: path.clone(), source }),
        }
        Self::parse(&text).map(Some).map_err(corrupt)
    }

    /// Parses the text of a record; `Err` says what is wrong. A last line
    /// without its newline (a run killed while appending it) is ignored.
    pub fn parse(text: &str) -> Result<Self, String> {
        let complete = match text.rfind('\n') {
            Some(end) => &text[..=end],
            None => "",
        };
        let mut lines = complete.lines().enumerate().map(|(i, l)| (i + 1, l));
        if lines.next().map(|(_, l)| l) != Some(FIRST_LINE) {
            return Err(format!("its first line is not {FIRST_LINE:?}"));
        }
        let run = match lines.next() {
            Some((_, l)) => {
                l.strip_prefix("run ").and_then(RunId::parse).ok_or("line 2 is not `run <32 hex digits>`")?
            }
            None => return Err("it names no run".into()),
        };
        let mut files = Vec::new();
        let mut seen = BTreeSet::new();
        for (n, line) in lines {
            let name = line.strip_prefix("file ").ok_or_else(|| format!("line {n} is not `file <name>`"))?;
            if !plain_name(name) {
                return Err(format!("line {n} names {name:?}, which is not a file of the directory"));
            }
            if seen.insert(name.to_string()) {
                files.push(name.to_string());
            }
        }
        Ok(Self { run, files })
    }
}

/// The open record of a directory a run writes into: names are appended
/// as the run's outputs ask for their paths.
#[derive(Debug)]
pub struct ManifestWriter {
    path: PathBuf,
    file: File,
    run: RunId,
    named: BTreeSet<String>,
}

impl ManifestWriter {
    /// Starts the record of `run` in `dir`, replacing any there.
    pub fn create(dir: &Path, run: RunId) -> io::Result<Self> {
        let path = dir.join(MANIFEST_FILE);
        let mut file = File::create(&path)?;
        writeln!(file, "{FIRST_LINE}\nrun {run}")?;
        Ok(Self { path, file, run, named: BTreeSet::new() })
    }

    /// Continues the record `found` of `dir` (a resumed run).
    pub fn append(dir: &Path, found: Manifest) -> io::Result<Self> {
        let path = dir.join(MANIFEST_FILE);
        // A line cut short by a killed run (which `read` ignored) is cut
        // off, so the next name starts on a line of its own.
        let text = fs::read(&path)?;
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |at| at + 1);
        if whole < text.len() {
            OpenOptions::new().write(true).open(&path)?.set_len(whole as u64)?;
        }
        let file = OpenOptions::new().append(true).open(&path)?;
        Ok(Self { path, file, run: found.run, named: found.files.into_iter().collect() })
    }

    pub fn run(&self) -> RunId {
        self.run
    }

    /// Records `name` (once), before the run writes it.
    pub fn record(&mut self, name: &str) -> io::Result<()> {
        assert!(plain_name(name), "fibril names its files plainly: {name:?}");
        if self.named.contains(name) {
            return Ok(());
        }
        writeln!(self.file, "file {name}")
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", self.path.display())))?;
        self.named.insert(name.to_string());
        Ok(())
    }
}

/// Removes the files `names` of `dir` and their `.partial` siblings (the
/// ones already gone are skipped).
pub fn remove_files(dir: &Path, names: &[String]) -> io::Result<()> {
    for name in names {
        for candidate in [name.clone(), format!("{name}.partial")] {
            match fs::remove_file(dir.join(&candidate)) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io::Error::new(e.kind(), format!("removing {candidate}: {e}"))),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_are_fresh_and_print_back() {
        let (a, b) = (RunId::fresh(), RunId::fresh());
        assert_ne!(a, b);
        assert_eq!(RunId::parse(&a.to_string()), Some(a));
        assert_eq!(a.to_string().len(), 32);
        assert_eq!(RunId::parse("xyz"), None);
        assert_eq!(RunId::parse(&"g".repeat(32)), None);
    }

    #[test]
    fn a_record_lists_each_file_once_and_survives_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("fibril-manifest-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let run = RunId::fresh();
        let mut w = ManifestWriter::create(&dir, run).unwrap();
        for name in ["summary.json", "U_000000.npy", "summary.json"] {
            w.record(name).unwrap();
        }
        drop(w);
        let found = Manifest::read(&dir).unwrap().unwrap();
        assert_eq!(found, Manifest { run, files: vec!["summary.json".into(), "U_000000.npy".into()] });
        // A line cut short by a killed run: ignored, and cut off before
        // the next name is recorded.
        let mut f = OpenOptions::new().append(true).open(dir.join(MANIFEST_FILE)).unwrap();
        f.write_all(b"file U_0000").unwrap();
        let found = Manifest::read(&dir).unwrap().unwrap();
        assert_eq!(found.files.len(), 2);
        let mut w = ManifestWriter::append(&dir, found).unwrap();
        w.record("U_000001.npy").unwrap();
        w.record("U_000000.npy").unwrap();
        let found = Manifest::read(&dir).unwrap().unwrap();
        assert_eq!(found.files, ["summary.json", "U_000000.npy", "U_000001.npy"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_record_naming_files_elsewhere_is_refused() {
        let run = RunId::fresh();
        let head = format!("{FIRST_LINE}\nrun {run}\n");
        assert!(Manifest::parse(&head).is_ok());
        for bad in ["file ../notes.txt\n", "file /etc/passwd\n", "file .bashrc\n", "file \n", "rm -rf\n"] {
            let e = Manifest::parse(&format!("{head}{bad}")).unwrap_err();
            assert!(e.contains("line 3"), "{bad:?}: {e}");
        }
        assert!(Manifest::parse("hello\n").unwrap_err().contains("first line"));
        assert!(Manifest::parse(&format!("{FIRST_LINE}\nrun 12\n")).unwrap_err().contains("line 2"));
        assert!(Manifest::parse(&format!("{FIRST_LINE}\n")).unwrap_err().contains("names no run"));
    }
}

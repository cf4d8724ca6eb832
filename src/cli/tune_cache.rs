//! `--kernel tune`'s choices, kept between runs.
//!
//! Tuning takes 4-13 s at 256^3 and 512^3 on an H100 and about a minute
//! at 1024^3 (docs/history/BENCHMARKS-2026.md, "`--kernel tune`"), and its answer
//! depends mostly on what this key names: this build's kernels, the GPUs
//! and their CUDA driver API, the model with its parameters and math, the
//! precision, the grid and the options that bound the search. So the
//! answer is kept in a small JSON file under that key, and a later run with
//! the same key takes it without timing anything (`--retune` times again
//! and replaces it). The key leaves out the starting state and the time
//! and space steps, which change no instruction of a step but can change
//! which kernel wins a short timing (Aliev-Panfilov's blocked pass runs
//! slower in the first hundreds of steps from the planar start than
//! later: README, "`--kernel`"); a user for whom that matters retunes.
//! Every kernel gives the same bits, so a kept choice can only cost speed,
//! never change a result: a cache that cannot be read is reported and
//! ignored (the next choice kept replaces it), one that cannot be written
//! is reported and the run goes on.
//!
//! The file is `FIBRIL_TUNE_CACHE` (`off` keeps none), else
//! `$XDG_CACHE_HOME/fibril/tune-cache-v1.json`, else
//! `$HOME/.cache/fibril/tune-cache-v1.json` (the layout's version in the
//! name, so that builds of another layout keep their own file). It holds
//! at most [`MAX_ENTRIES`] choices, the newest kept; an entry this build
//! cannot read (written by a build with other kernels) is kept as it is.
//! Writers take an exclusive lock on a `.lock` file beside it, so runs
//! that store at once (a job array) keep every choice; a writer that
//! cannot have the lock within [`LOCK_WAIT`] keeps nothing and says so,
//! so that a stalled holder (suspended, or on a slow shared file system)
//! never holds up a simulation.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use fibril_host::backend::KernelConfig;
use fibril_host::backend::gpu::DeviceInfo;
use fibril_host::io::write_json_atomic;
use serde::{Deserialize, Serialize};

use super::tuning::Tuning;

/// The variable that names the cache file, or `off`.
pub const ENV: &str = "FIBRIL_TUNE_CACHE";

/// The file's layout (also in its default name); a file of another format
/// is reported and replaced by the next choice kept.
const FORMAT: u32 = 1;

/// The most choices one file keeps (about a kilobyte each).
pub const MAX_ENTRIES: usize = 256;

/// The largest cache file read: [`MAX_ENTRIES`] choices of about a
/// kilobyte each, with room for entries of other builds; a larger file is
/// not a cache fibril wrote, and is reported and replaced unread.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// How long a writer waits for another's lock before it keeps nothing.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// What a tuning's answer depends on. Two runs with equal keys time the
/// same kernels on the same devices, so the second may take the first's
/// choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TuneKey {
    /// fibril's version and the fingerprint of its PTX: a rebuilt kernel
    /// may change which kernel is fastest.
    pub fibril: String,
    pub kernels: String,
    /// One per sub-domain's GPU, in order.
    pub devices: Vec<DeviceKey>,
    /// Sub-domain i's GPU as the first sub-domain on the same GPU
    /// ([`placement`]): two sub-domains sharing one GPU and two on two
    /// identical GPUs are other keys.
    pub placement: Vec<u32>,
    pub model: String,
    /// The model's parameter values in table order (the common case of a
    /// kernel depends on them), each as the hex of its bits ([`bits`]: a
    /// JSON number need not read back as the same f64), and its math mode
    /// (`fast`, `exact+tables`).
    pub parameters: Vec<String>,
    pub math: String,
    pub precision: String,
    /// nx, ny, nz.
    pub dims: [u32; 3],
    /// The options that bound the search or change how it times: block,
    /// z-chunk and steps per pass as given, graphs, programmatic edges,
    /// the exchange and its overlap, and whether maps are recorded.
    pub options: String,
}

/// A GPU as the key names it: the same product on the same driver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceKey {
    pub name: String,
    pub compute_capability: [i32; 2],
    pub multiprocessors: u32,
    pub total_bytes: u64,
    pub driver_version: i32,
}

impl From<&DeviceInfo> for DeviceKey {
    fn from(d: &DeviceInfo) -> Self {
        Self {
            name: d.name.clone(),
            compute_capability: [d.compute_capability.0, d.compute_capability.1],
            multiprocessors: d.multiprocessors,
            total_bytes: d.total_bytes,
            driver_version: d.driver_version,
        }
    }
}

/// One kept choice.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    key: TuneKey,
    kernel: KernelConfig,
    tuning: Tuning,
    /// When it was timed, seconds since 1970 (UTC).
    timed_at_unix_s: u64,
}

/// The file: its entries as JSON values, so that one this build cannot
/// read is kept as it is.
#[derive(Debug, Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    entries: Vec<Value>,
}

impl CacheFile {
    fn empty() -> Self {
        Self { format: FORMAT, entries: Vec::new() }
    }
}

/// Each of `ordinals` (sub-domain i's GPU) as the first index that holds
/// the same ordinal: `[0, 0]` for two sub-domains on one GPU, `[0, 1]` for
/// one on each of two, whichever GPUs they are.
pub fn placement(ordinals: &[usize]) -> Vec<u32> {
    ordinals.iter().map(|o| ordinals.iter().position(|p| p == o).unwrap_or_default() as u32).collect()
}

/// An f64 as the hex of its bits: exact through any JSON reader.
pub fn bits(x: f64) -> String {
    format!("{:016x}", x.to_bits())
}

/// A choice found in the cache.
#[derive(Debug, Clone)]
pub struct Hit {
    pub kernel: KernelConfig,
    pub tuning: Tuning,
    pub timed_at_unix_s: u64,
}

/// The cache file of this process's environment, or `None` when
/// `FIBRIL_TUNE_CACHE=off` or no home directory is known.
pub fn location() -> Option<PathBuf> {
    location_from(std::env::var_os(ENV), std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
}

/// [`location`] from the three variables' values (empty counts as unset).
fn location_from(named: Option<OsString>, xdg: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let set = |v: Option<OsString>| v.filter(|v| !v.is_empty());
    if let Some(named) = set(named) {
        return (named != "off").then(|| PathBuf::from(named));
    }
    let base = match (set(xdg), set(home)) {
        (Some(xdg), _) => PathBuf::from(xdg),
        (None, Some(home)) => Path::new(&home).join(".cache"),
        (None, None) => return None,
    };
    Some(base.join("fibril").join(format!("tune-cache-v{FORMAT}.json")))
}

/// The choice kept for `key` in `path`, if any. A missing file is no
/// choice; a file that cannot be read or parsed is an error whose text
/// says so (the caller reports it and tunes).
pub fn lookup(path: &Path, key: &TuneKey) -> Result<Option<Hit>, String> {
    let Some(file) = read(path)? else { return Ok(None) };
    let mut mine = file.entries.into_iter().rev().filter_map(|v| serde_json::from_value::<Entry>(v).ok());
    Ok(mine.find(|e| &e.key == key).map(|e| Hit {
        kernel: e.kernel,
        tuning: e.tuning,
        timed_at_unix_s: e.timed_at_unix_s,
    }))
}

/// Keeps `kernel` (found by `tuning`) for `key` in `path`, replacing an
/// earlier choice for the same key and dropping the oldest beyond
/// [`MAX_ENTRIES`]; a file that cannot be parsed is replaced. Under an
/// exclusive lock on `<path>.lock`, so that writers at once keep every
/// choice; written through `<path>.partial` and renamed
/// ([`write_json_atomic`]; only the lock holder writes it, so one name
/// serves, and what a writer that died left there is replaced at the next
/// store), so that a reader never sees half a file.
pub fn store(path: &Path, key: TuneKey, kernel: KernelConfig, tuning: &Tuning) -> io::Result<()> {
    if fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        return Err(not_a_file());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let _lock = lock_within(&sibling(path, ".lock"), LOCK_WAIT)?;
    let mut file = read(path).ok().flatten().unwrap_or_else(CacheFile::empty);
    let key_value = serde_json::to_value(&key).map_err(io::Error::other)?;
    file.entries.retain(|v| v.get("key") != Some(&key_value));
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let entry = Entry { key, kernel, tuning: tuning.clone(), timed_at_unix_s: now.as_secs() };
    file.entries.push(serde_json::to_value(entry).map_err(io::Error::other)?);
    let excess = file.entries.len().saturating_sub(MAX_ENTRIES);
    file.entries.drain(..excess);
    write_json_atomic(path, &file)
}

/// Why a path that names a directory or a device is no cache file
/// (nothing is read from it or written over it).
fn not_a_file() -> io::Error {
    io::Error::other("it is not a regular file (a directory or a device)")
}

/// The exclusive lock on `lock_path`, taken within `wait` (the file is
/// opened read-only where it is another user's: a lock needs no write).
fn lock_within(lock_path: &Path, wait: Duration) -> io::Result<fs::File> {
    let lock = match fs::OpenOptions::new().create(true).truncate(false).write(true).open(lock_path) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => fs::File::open(lock_path)?,
        opened => opened?,
    };
    let deadline = Instant::now() + wait;
    loop {
        match lock.try_lock() {
            Ok(()) => return Ok(lock),
            Err(fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(io::Error::other(format!(
                    "another process has held {} for over {} s",
                    lock_path.display(),
                    wait.as_secs()
                )));
            }
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

/// `path` with `suffix` added to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(suffix);
    path.with_file_name(name)
}

/// The file's choices; `None` when there is no file. A file of another
/// format is an error (the caller reports it; the next store replaces it).
fn read(path: &Path) -> Result<Option<CacheFile>, String> {
    let cannot = |e: io::Error| format!("the tune cache {} cannot be read: {e}", path.display());
    match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(cannot(e)),
        Ok(meta) if !meta.is_file() => {
            return Err(format!("{}; point {ENV} at a file, or set it to off", cannot(not_a_file())));
        }
        Ok(_) => {}
    }
    let bytes = match fibril_host::io::bounded::read(path, MAX_FILE_BYTES, "a tune cache") {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.kind() == io::ErrorKind::FileTooLarge => {
            return Err(format!("{}; it will be replaced", cannot(e)));
        }
        Err(e) => return Err(cannot(e)),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(format!(
            "the tune cache {} is not a cache fibril wrote (not UTF-8 text); it will be replaced",
            path.display()
        ));
    };
    #[derive(Deserialize)]
    struct Format {
        format: u32,
    }
    let bad = |e: serde_json::Error| {
        format!("the tune cache {} is not a cache fibril wrote ({e}); it will be replaced", path.display())
    };
    let format = serde_json::from_str::<Format>(&text).map_err(bad)?.format;
    if format != FORMAT {
        return Err(format!(
            "the tune cache {} has format {format}, this build writes {FORMAT}; it will be replaced",
            path.display()
        ));
    }
    serde_json::from_str(&text).map(Some).map_err(bad)
}

/// "2026-11-24 13:05 UTC" for seconds since 1970 (the civil calendar from
/// days since the epoch, H. Hinnant's `civil_from_days`).
pub fn utc_text(unix_s: u64) -> String {
    let (days, rest) = ((unix_s / 86_400) as i64, unix_s % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rest / 3_600, rest % 3_600 / 60)
}

#[cfg(test)]
mod tests {
    use fibril_host::backend::{BlockSize, KernelKind};

    use super::super::tuning::Timed;
    use super::*;

    fn key(nx: u32) -> TuneKey {
        TuneKey {
            fibril: "0.1.0".into(),
            kernels: "0123456789abcdef".into(),
            devices: vec![DeviceKey {
                name: "NVIDIA H100 80GB HBM3".into(),
                compute_capability: [9, 0],
                multiprocessors: 132,
                total_bytes: 85_000_000_000,
                driver_version: 13_000,
            }],
            placement: vec![0],
            model: "karma".into(),
            parameters: [1.0 / 3.0, 4.0, 0.1, 1.6666666666666665].map(bits).to_vec(),
            math: "fast".into(),
            precision: "f32".into(),
            dims: [nx, 256, 256],
            options: "graphs".into(),
        }
    }

    fn blocked(k: u32) -> KernelConfig {
        KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y: 30 })
            .with_steps_per_pass(k)
            .with_z_chunk(256)
    }

    fn tuning(chosen: KernelConfig) -> Tuning {
        Tuning {
            chosen: chosen.to_string(),
            rule: "columns 32x8 z4".into(),
            timings: vec![Timed { kernel: chosen.to_string(), steps_per_s: Some(15_317.0), skipped: None }],
            seconds: 2.5,
            from_cache: None,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fibril-tune-cache-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir.join("sub").join("tune-cache.json")
    }

    #[test]
    fn a_kept_choice_is_found_under_its_key_only() {
        let path = scratch("roundtrip");
        assert_eq!(lookup(&path, &key(256)).unwrap().map(|h| h.kernel), None, "no file: no choice");
        store(&path, key(256), blocked(4), &tuning(blocked(4))).unwrap();
        let hit = lookup(&path, &key(256)).unwrap().expect("kept");
        assert_eq!(hit.kernel, blocked(4));
        assert_eq!(hit.tuning.chosen, "blocked 32x30 k4 z256");
        assert_eq!(hit.tuning.timings[0].steps_per_s, Some(15_317.0));
        assert!(hit.timed_at_unix_s > 1_700_000_000);
        // Any field of the key that differs misses.
        assert!(lookup(&path, &key(128)).unwrap().is_none());
        let mut other = key(256);
        other.parameters[0] = bits(0.34);
        assert!(lookup(&path, &other).unwrap().is_none());
        let mut other = key(256);
        other.kernels = "fedcba9876543210".into();
        assert!(lookup(&path, &other).unwrap().is_none());
        let mut other = key(256);
        other.devices[0].driver_version = 12_080;
        assert!(lookup(&path, &other).unwrap().is_none());
        // A new choice for the same key replaces the old one.
        store(&path, key(256), blocked(3), &tuning(blocked(3))).unwrap();
        store(&path, key(128), blocked(2), &tuning(blocked(2))).unwrap();
        assert_eq!(lookup(&path, &key(256)).unwrap().unwrap().kernel, blocked(3));
        assert_eq!(lookup(&path, &key(128)).unwrap().unwrap().kernel, blocked(2));
        let file = read(&path).unwrap().unwrap();
        assert_eq!(file.entries.len(), 2);
        // No temporary file is left beside it.
        let mut names: Vec<_> =
            fs::read_dir(path.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        assert_eq!(names, ["tune-cache.json", "tune-cache.json.lock"]);
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn the_file_keeps_the_newest_choices_only() {
        let path = scratch("bounded");
        for nx in 0..(MAX_ENTRIES as u32 + 3) {
            store(&path, key(nx + 1), blocked(3), &tuning(blocked(3))).unwrap();
        }
        let file = read(&path).unwrap().unwrap();
        assert_eq!(file.entries.len(), MAX_ENTRIES);
        assert!(lookup(&path, &key(1)).unwrap().is_none(), "the oldest went");
        assert!(lookup(&path, &key(4)).unwrap().is_some());
        assert!(lookup(&path, &key(MAX_ENTRIES as u32 + 3)).unwrap().is_some());
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn a_damaged_file_is_reported_then_replaced() {
        let path = scratch("damaged");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "{\"format\": 1, \"entries\": [tru").unwrap();
        let why = lookup(&path, &key(256)).unwrap_err();
        assert!(why.contains("is not a cache fibril wrote") && why.contains("replaced"), "{why}");
        store(&path, key(256), blocked(4), &tuning(blocked(4))).unwrap();
        assert_eq!(lookup(&path, &key(256)).unwrap().unwrap().kernel, blocked(4));
        // Another format is reported and replaced too.
        fs::write(&path, "{\"format\": 99, \"whatever\": []}").unwrap();
        let why = lookup(&path, &key(256)).unwrap_err();
        assert!(why.contains("format 99") && why.contains("replaced"), "{why}");
        store(&path, key(256), blocked(2), &tuning(blocked(2))).unwrap();
        assert_eq!(lookup(&path, &key(256)).unwrap().unwrap().kernel, blocked(2));
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn a_directory_a_device_or_an_outsized_file_is_reported_never_read_whole() {
        // A directory: reported with the fix, and not written over.
        let dir = scratch("directory");
        fs::create_dir_all(&dir).unwrap();
        let why = lookup(&dir, &key(64)).unwrap_err();
        assert!(why.contains("not a regular file") && why.contains(ENV), "{why}");
        let e = store(&dir, key(64), blocked(2), &tuning(blocked(2))).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        assert!(dir.is_dir(), "left as it was");
        // A device that never ends: the same, without reading it.
        if Path::new("/dev/zero").exists() {
            let why = lookup(Path::new("/dev/zero"), &key(64)).unwrap_err();
            assert!(why.contains("not a regular file"), "{why}");
        }
        // A file far larger than any cache (sparse): refused by its length,
        // then replaced by the next choice kept.
        let path = scratch("outsized");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::File::create(&path).unwrap().set_len(4 * MAX_FILE_BYTES).unwrap();
        let why = lookup(&path, &key(64)).unwrap_err();
        assert!(why.contains("more than a tune cache can be") && why.contains("replaced"), "{why}");
        store(&path, key(64), blocked(2), &tuning(blocked(2))).unwrap();
        assert_eq!(lookup(&path, &key(64)).unwrap().unwrap().kernel, blocked(2));
        for p in [&dir, &path] {
            let _ = fs::remove_dir_all(p.parent().unwrap().parent().unwrap());
        }
    }

    #[test]
    fn entries_this_build_cannot_read_are_kept() {
        // A build with another kernel kind wrote the first entry.
        let path = scratch("foreign");
        store(&path, key(256), blocked(4), &tuning(blocked(4))).unwrap();
        let mut file: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        let mut foreign = file["entries"][0].clone();
        foreign["kernel"]["kind"] = "hexagons".into();
        foreign["key"]["dims"] = serde_json::json!([64, 64, 64]);
        file["entries"].as_array_mut().unwrap().insert(0, foreign.clone());
        fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
        assert_eq!(lookup(&path, &key(256)).unwrap().unwrap().kernel, blocked(4));
        assert!(lookup(&path, &key(64)).unwrap().is_none(), "its entry is not read");
        store(&path, key(128), blocked(3), &tuning(blocked(3))).unwrap();
        let kept = read(&path).unwrap().unwrap();
        assert_eq!(kept.entries.len(), 3);
        assert_eq!(kept.entries[0], foreign, "kept as it was");
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn writers_at_once_keep_every_choice() {
        let path = scratch("writers");
        std::thread::scope(|s| {
            for nx in 1..=8u32 {
                let path = &path;
                s.spawn(move || store(path, key(nx), blocked(2), &tuning(blocked(2))).unwrap());
            }
        });
        for nx in 1..=8u32 {
            assert!(lookup(&path, &key(nx)).unwrap().is_some(), "choice {nx} lost");
        }
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn placement_names_shared_gpus_by_their_first_sub_domain() {
        assert_eq!(placement(&[0]), [0]);
        assert_eq!(placement(&[0, 0]), [0, 0]);
        assert_eq!(placement(&[0, 1]), [0, 1]);
        assert_eq!(placement(&[2, 3]), [0, 1], "which GPUs is the devices' part");
        assert_eq!(placement(&[3, 5, 3, 5]), [0, 1, 0, 1]);
        // Two sub-domains on one H100 and one on each of two: other keys.
        let one = TuneKey { devices: vec![key(64).devices[0].clone(); 2], placement: vec![0, 0], ..key(64) };
        let two = TuneKey { placement: vec![0, 1], ..one.clone() };
        let path = scratch("placement");
        store(&path, one.clone(), blocked(2), &tuning(blocked(2))).unwrap();
        assert!(lookup(&path, &two).unwrap().is_none());
        assert!(lookup(&path, &one).unwrap().is_some());
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn parameters_are_kept_as_the_hex_of_their_bits() {
        // The file's contract: a parameter is a 16-digit hex string (a JSON
        // number need not read back as the same f64 in every reader), and
        // neighbours one unit in the last place apart are other keys.
        let path = scratch("bits");
        store(&path, key(64), blocked(2), &tuning(blocked(2))).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"3ffaaaaaaaaaaaaa\""), "1.6666666666666665 by its bits: {text}");
        let mut near = key(64);
        near.parameters[3] = bits(f64::from_bits(1.6666666666666665_f64.to_bits() + 1));
        assert!(lookup(&path, &near).unwrap().is_none());
        assert!(lookup(&path, &key(64)).unwrap().is_some());
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn a_lock_held_too_long_keeps_nothing_and_says_so() {
        let path = scratch("held");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let held = lock_within(&sibling(&path, ".lock"), LOCK_WAIT).unwrap();
        let why = lock_within(&sibling(&path, ".lock"), Duration::from_millis(60)).unwrap_err();
        assert!(why.to_string().contains("has held") && why.to_string().contains(".lock"), "{why}");
        drop(held);
        lock_within(&sibling(&path, ".lock"), Duration::from_millis(60)).expect("free again");
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn a_dead_writers_temporary_file_goes_at_the_next_store() {
        let path = scratch("leftover");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let leftover = sibling(&path, ".partial");
        let unrelated = path.with_file_name("tune-cache.json.notes");
        fs::write(&leftover, "{").unwrap();
        fs::write(&unrelated, "mine").unwrap();
        store(&path, key(64), blocked(2), &tuning(blocked(2))).unwrap();
        assert!(!leftover.exists(), "the leftover is removed");
        assert!(unrelated.exists(), "other files are left alone");
        let _ = fs::remove_dir_all(path.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn the_file_is_named_by_the_variable_then_xdg_then_home() {
        let os = |s: &str| Some(OsString::from(s));
        assert_eq!(location_from(os("/tmp/t.json"), os("/x"), os("/h")), Some(PathBuf::from("/tmp/t.json")));
        assert_eq!(location_from(os("off"), os("/x"), os("/h")), None);
        assert_eq!(
            location_from(None, os("/x"), os("/h")),
            Some(PathBuf::from("/x/fibril/tune-cache-v1.json"))
        );
        assert_eq!(
            location_from(os(""), os(""), os("/h")),
            Some(PathBuf::from("/h/.cache/fibril/tune-cache-v1.json"))
        );
        assert_eq!(location_from(None, None, None), None);
    }

    #[test]
    fn dates_are_the_civil_calendar_in_utc() {
        assert_eq!(utc_text(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00 UTC");
        // 2026-11-24 13:26:17 UTC.
        assert_eq!(utc_text(1_795_526_777), "2026-11-24 13:26 UTC");
    }
}

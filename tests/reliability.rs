//! Nothing lost: signals in bursts, resume in both precisions and into
//! another directory, the activation map carried through a resume, one
//! run per output directory, and files that are complete whenever they
//! carry their final name.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{fibril, fibril_words, ok, read_json, s};

fn scratch(name: &str) -> PathBuf {
    common::scratch("reliability", name)
}

/// The files of the last snapshot of a run directory, and its step.
fn last_snapshot(dir: &Path) -> (u64, Vec<Vec<u8>>) {
    let index = read_json(&dir.join("snapshots.json"));
    let last = index.as_array().unwrap().last().unwrap().clone();
    let files = last["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| std::fs::read(dir.join(f.as_str().unwrap())).unwrap());
    (last["step"].as_u64().unwrap(), files.collect())
}

/// The options every run of the signal test shares (16^3 Karma on the
/// CPU, 8,000 steps: about a second, so that signals land mid-run).
const LONG: &str = "--size 16 --steps 8000 --snapshot-every-ms 50 --checkpoint-every-ms 200 \
                    --check-every-steps 20 --activation-map --save all --backend cpu -q";

/// `fibril run` into `out` with the words of `options`, then `extra`.
fn run_into(out: &Path, options: &str, extra: &[&str]) -> Output {
    fibril_words(&format!("run {options}"), &[&["--out", s(out)][..], extra].concat())
}

fn run_long(out: &Path, extra: &[&str]) -> Output {
    run_into(out, LONG, extra)
}

/// The step of the latest snapshot a running run has indexed (0 before
/// its index exists).
fn progress(dir: &Path) -> u64 {
    std::fs::read_to_string(dir.join("snapshots.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|index| index.as_array()?.last()?["step"].as_u64())
        .unwrap_or(0)
}

/// A run is signalled once it has passed step `after`: `signal` sent
/// `times` times back to back (one shell, a millisecond apart, as `timeout`
/// and batch schedulers do). It must stop gracefully with a checkpoint and
/// a summary, and the resumed run must end with the bytes of `whole`.
/// Waiting on progress, not on a clock, keeps the moment the same on a
/// loaded machine.
fn interrupt_and_resume(whole: &Path, name: &str, signal: &str, times: usize, after: u64) {
    let out = scratch(name);
    let child = Command::new(env!("CARGO_BIN_EXE_fibril"))
        .args(["run", "--out", s(&out)])
        .args(LONG.split_whitespace())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fibril");
    let start = Instant::now();
    while !out.join("snapshots.json").exists() || progress(&out) < after {
        assert!(start.elapsed() < Duration::from_secs(120), "{name}: run did not reach step {after}");
        std::thread::sleep(Duration::from_millis(2));
    }
    let pid = child.id();
    let burst = vec![format!("kill -{signal} {pid}"); times].join("; ");
    assert!(Command::new("sh").args(["-c", &burst]).status().unwrap().success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{name}: {stderr}");
    assert!(!stderr.contains("without a final checkpoint"), "{name}: {stderr}");
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["status"], "interrupted", "{name}");
    let step = summary["step"].as_u64().unwrap();
    assert!(0 < step && step < 8_000, "{name}: stopped at {step}");
    assert_eq!(summary["checkpoint_steps"].as_array().unwrap().last().unwrap(), step, "{name}");
    // Resumed with the same options, it ends with the same bytes.
    ok(&run_long(&out, &["--resume", s(&out.join("checkpoint.fibril"))]));
    let (step_a, files_a) = last_snapshot(whole);
    let (step_b, files_b) = last_snapshot(&out);
    assert_eq!((step_a, step_b), (8_000, 8_000), "{name}");
    assert!(files_a == files_b, "{name}: the last snapshot differs after resuming at step {step}");
    assert!(
        std::fs::read(whole.join("activation.npy")).unwrap()
            == std::fs::read(out.join("activation.npy")).unwrap(),
        "{name}: the activation map differs"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn signals_in_bursts_stop_gracefully_and_resume_to_the_same_bits() {
    let whole = scratch("whole");
    ok(&run_long(&whole, &[]));
    // At the first snapshot, early, in the middle and late in the run.
    for (i, after) in [0, 1_000, 3_000, 5_000].into_iter().enumerate() {
        interrupt_and_resume(&whole, &format!("int2-{i}"), "INT", 2, after);
        interrupt_and_resume(&whole, &format!("term-{i}"), "TERM", 1, after);
    }
    interrupt_and_resume(&whole, "term2", "TERM", 2, 2_000);
    std::fs::remove_dir_all(&whole).unwrap();
}

/// A short study: Karma with a stimulus, snapshots, an activation map.
const STUDY: &str = "--nx 14 --ny 11 --nz 17 --snapshot-every-ms 1 --apd-map --save all --backend cpu -q";

/// The stimulus of [`STUDY`].
const STUDY_STIMULUS: &str = "{region = \"sphere\", center = [7, 5, 12], radius = 3, at_ms = 1.5}";

fn study(out: &Path, extra: &[&str]) -> Output {
    run_into(out, STUDY, &[&["--stimulus", STUDY_STIMULUS][..], extra].concat())
}

/// In f64 too; into a new directory the snapshots go on with their
/// numbers; without --activation-map the checkpoint's map carries on.
#[test]
fn resume_in_f64_into_another_directory_carries_the_map_and_the_numbering() {
    let whole = scratch("whole64");
    let first = scratch("first64");
    let second = scratch("second64");
    ok(&study(&whole, &["--steps", "80", "--precision", "f64"]));
    ok(&study(&first, &["--steps", "37", "--precision", "f64", "--checkpoint-every-ms", "0.5"]));
    // Resumed elsewhere and without asking for the map again.
    let without_map = STUDY.replace(" --apd-map", "");
    assert_ne!(without_map, STUDY);
    let checkpoint = first.join("checkpoint.fibril");
    let more =
        ["--steps", "80", "--precision", "f64", "--resume", s(&checkpoint), "--stimulus", STUDY_STIMULUS];
    let o = run_into(&second, &without_map, &more);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("carries activation, repolarisation and APD maps"));
    let (_, files_a) = last_snapshot(&whole);
    let (_, files_b) = last_snapshot(&second);
    assert!(files_a == files_b, "f64 state differs after resuming");
    for map in ["activation.npy", "repolarisation.npy", "apd.npy"] {
        assert!(
            std::fs::read(whole.join(map)).unwrap() == std::fs::read(second.join(map)).unwrap(),
            "the carried {map} differs"
        );
    }
    // The first run wrote snapshots 0..=37 at steps 0, 20 and 37; the
    // resumed one goes on at number 3 although its directory is new.
    let index = read_json(&second.join("snapshots.json"));
    let numbers: Vec<u64> = index.as_array().unwrap().iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(numbers, vec![3, 4, 5]);
    assert!(second.join("U_000003.npy").exists() && !second.join("U_000000.npy").exists());
    let summary = read_json(&second.join("summary.json"));
    assert!(summary["activation"].is_object(), "the summary records the carried map");
    for d in [&whole, &first, &second] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_second_run_into_the_same_directory_is_told_so() {
    let out = scratch("locked");
    let mut first = Command::new(env!("CARGO_BIN_EXE_fibril"))
        .args(["run", "--size", "32", "--steps", "100000", "--backend", "cpu", "-q", "--out", s(&out)])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    // The lock is created empty and then given the pid: wait for both.
    while std::fs::read_to_string(out.join(".fibril-lock")).map_or(true, |pid| pid.trim().is_empty()) {
        assert!(start.elapsed() < Duration::from_secs(30), "first run did not start");
        std::thread::sleep(Duration::from_millis(5));
    }
    let second =
        fibril(&["run", "--size", "8", "--steps", "5", "--backend", "cpu", "--out", s(&out), "--overwrite"]);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success());
    assert!(stderr.contains("another fibril run") && stderr.contains(&first.id().to_string()), "{stderr}");
    first.kill().unwrap();
    first.wait().unwrap();
    // A killed run's lock does not block the next run.
    ok(&run_into(&out, "--size 8 --steps 5 --backend cpu -q --overwrite", &[]));
    assert!(!out.join(".fibril-lock").exists(), "released at the end");
    std::fs::remove_dir_all(&out).unwrap();
}

/// Every file that has its final name is complete: a reader polls the
/// directory while a run writes large snapshots and parses every `.npy`
/// and `.vti` it sees. (Written in place instead of renamed, the reader
/// catches half-written files within the first few snapshots.)
#[test]
fn a_reader_never_sees_a_partial_file_under_its_final_name() {
    let out = scratch("atomic");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fibril"))
        .args(["run", "--size", "96", "--steps", "120", "--snapshot-every-ms", "0.25", "--format", "npy,vti"])
        .args(["--save", "all", "--backend", "cpu", "-q", "--out", s(&out)])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut checked = 0;
    loop {
        let done = child.try_wait().unwrap().is_some();
        if let Ok(entries) = std::fs::read_dir(&out) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                let path = e.path();
                let parsed = if name.ends_with(".npy") {
                    Some(fibril_host::io::npy::read(&path).map(|_| ()))
                } else if name.ends_with(".vti") {
                    Some(fibril_host::io::vti::read(&path).map(|_| ()))
                } else {
                    None
                };
                match parsed {
                    Some(Ok(())) => checked += 1,
                    // Removed between listing and reading: not a partial file.
                    Some(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Some(Err(e)) => panic!("{name} is incomplete under its final name: {e}"),
                    None => {}
                }
            }
        }
        if done {
            break;
        }
    }
    assert!(child.wait().unwrap().success());
    assert!(checked > 20, "the reader saw only {checked} files");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn os_errors_are_said_once() {
    let blocker = scratch("blocker");
    std::fs::write(&blocker, "a file").unwrap();
    let o = fibril(&["run", "--size", "8", "--backend", "cpu", "--out", s(&blocker.join("x"))]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");
    std::fs::remove_file(&blocker).unwrap();
}

/// A spiral (sheet) or a scroll (volume) of the paper's protocol, finding
/// tips or filaments every `every` ms, on the CPU.
fn singularities(out: &Path, grid: &[&str], every: &str, extra: &[&str]) -> Output {
    let mut args = vec!["run", "--out", s(out), "--protocol", "scroll", "--tips-every-ms", every];
    args.extend_from_slice(&["--backend", "cpu", "-q"]);
    args.extend_from_slice(grid);
    args.extend_from_slice(extra);
    fibril(&args)
}

/// The tip trace survives a resume: stopped between two samples (the
/// checkpoint keeps V at the last one) and resumed, the run writes the
/// tips.csv / filaments.csv of a run that never stopped, byte for byte.
#[test]
fn tips_and_filaments_carry_through_a_resume() {
    let sheet: &[&str] = &["--nx", "64", "--ny", "64", "--nz", "1"];
    let volume: &[&str] = &["--size", "32"];
    // 1 ms = 20 steps; the checkpoints fall at steps 3,010 and 837,
    // between samples.
    for (name, grid, every, split, end, file) in [
        ("sheet", sheet, "1", "3010", "6000", "tips.csv"),
        ("volume", volume, "2", "837", "1000", "filaments.csv"),
    ] {
        let whole = scratch(&format!("tips-whole-{name}"));
        let halves = scratch(&format!("tips-halves-{name}"));
        ok(&singularities(&whole, grid, every, &["--steps", end]));
        ok(&singularities(&halves, grid, every, &["--steps", split, "--checkpoint-every-ms", "1000"]));
        let checkpoint = halves.join("checkpoint.fibril");
        // Another interval would leave a gap or an overlap: refused.
        let o = singularities(&halves, grid, "0.9", &["--steps", end, "--resume", s(&checkpoint)]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains("pass the --tips-every-ms the run was started with"),
            "{err}"
        );
        ok(&singularities(&halves, grid, every, &["--steps", end, "--resume", s(&checkpoint)]));
        let trace = |d: &Path| std::fs::read_to_string(d.join(file)).unwrap();
        let (a, b) = (trace(&whole), trace(&halves));
        let rows = a.lines().count() - 1;
        assert!(rows > 20, "{name}: the test needs singularities ({rows} rows)");
        // Samples on both sides of the checkpoint.
        let t_split = split.parse::<f64>().unwrap() * 0.05;
        let times: Vec<f64> =
            a.lines().skip(1).map(|l| l.split(',').next().unwrap().parse().unwrap()).collect();
        assert!(times.iter().any(|&t| t < t_split) && times.iter().any(|&t| t > t_split), "{name}");
        assert!(a == b, "{name}: {file} differs after resuming");
        std::fs::remove_dir_all(&whole).unwrap();
        std::fs::remove_dir_all(&halves).unwrap();
    }
}

/// A checkpoint of a run that found no tips cannot start a tip trace.
#[test]
fn a_tip_trace_needs_a_checkpoint_with_a_tip_memory() {
    let out = scratch("tips-none");
    let grid: &[&str] = &["--nx", "16", "--ny", "16", "--nz", "1", "--backend", "cpu", "-q"];
    let mut args = vec!["run", "--out", s(&out), "--steps", "30", "--checkpoint-every-ms", "1"];
    args.extend_from_slice(grid);
    ok(&fibril(&args));
    let checkpoint = out.join("checkpoint.fibril");
    let mut args = vec!["run", "--steps", "60", "--tips-every-ms", "1", "--resume", s(&checkpoint)];
    args.extend_from_slice(grid);
    let o = fibril(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("holds no tip memory"), "{err}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// A checkpoint of a tissue run resumes on that tissue (the same bits as
/// a run that never stopped) and is refused on another one, naming it.
#[test]
fn a_tissue_checkpoint_resumes_on_its_own_tissue_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = root.join("configs/niederer.toml");
    let dir = scratch("tissue-resume");
    std::fs::create_dir_all(&dir).unwrap();
    let run = |out: &Path, config: &Path, extra: &[&str]| {
        let mut args = vec!["run", s(config), "--backend", "cpu", "-q", "--out", s(out), "--save", "all"];
        args.extend_from_slice(extra);
        fibril(&args)
    };
    let (whole, halves) = (dir.join("whole"), dir.join("halves"));
    ok(&run(&whole, &config, &["--steps", "120"]));
    ok(&run(&halves, &config, &["--steps", "50", "--checkpoint-every-ms", "1"]));
    let checkpoint = halves.join("checkpoint.fibril");
    // Another tissue: the same grid, other conductivities.
    let other = dir.join("other.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("sigma_i = [0.17, 0.019]"));
    std::fs::write(&other, text.replace("sigma_i = [0.17, 0.019]", "sigma_i = [0.17, 0.038]")).unwrap();
    let o = run(&halves, &other, &["--steps", "120", "--resume", s(&checkpoint)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("the tissue is tissue"), "{err}");
    assert!(err.contains("resume with the [tissue]"), "{err}");
    ok(&run(&halves, &config, &["--steps", "120", "--resume", s(&checkpoint)]));
    let (step_a, files_a) = last_snapshot(&whole);
    let (step_b, files_b) = last_snapshot(&halves);
    assert_eq!((step_a, step_b), (120, 120));
    assert!(files_a == files_b, "the resumed tissue run differs");
    std::fs::remove_dir_all(&dir).unwrap();
}

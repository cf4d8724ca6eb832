//! The output directory owns its run's files: `--overwrite` removes
//! exactly the earlier run's files, a resume refuses another run's
//! directory, every ending leaves a summary (a failed write included),
//! and the files name the model's units.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{fibril, fibril_words, ok, read_json, s, snapshot_steps, stderr};

fn scratch(name: &str) -> PathBuf {
    common::scratch("outdir", name)
}

fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

/// The names `files`, as [`names`] gives them.
fn set(files: &[&str]) -> BTreeSet<String> {
    files.iter().map(|f| f.to_string()).collect()
}

/// The bytes of every file in `dir`, by name.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names(dir).into_iter().map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap())).collect()
}

fn karma_run(out: &Path, ms: &str, extra: &[&str]) -> Output {
    let line = "run --backend cpu --size 16 --snapshot-every-ms 5 --checkpoint-every-ms 5";
    fibril_words(line, &[&["--duration-ms", ms, "--out", s(out)][..], extra].concat())
}

/// A spiral on an `n` x `n` sheet from the scroll protocol, with tips found
/// every 1 ms (and whatever `extra` adds), on the CPU.
fn spiral(out: &Path, n: &str, ms: &str, extra: &[&str]) -> Output {
    let mut args = vec!["run", "--backend", "cpu", "--nx", n, "--ny", n, "--nz", "1", "--protocol", "scroll"];
    args.extend(["--duration-ms", ms, "--tips-every-ms", "1", "--out", s(out)]);
    args.extend(extra);
    fibril(&args)
}

/// A small run into `out` with `--overwrite`.
fn small_overwrite(out: &Path) -> Output {
    fibril(&["run", "--backend", "cpu", "--size", "8", "--duration-ms", "2", "--out", s(out), "--overwrite"])
}

/// An electrode beside the sheets of these tests.
const ELECTRODE: &str = "{ name = \"V1\", position = [10.0, 10.0, 5.0] }";

#[test]
fn a_resume_into_another_runs_directory_is_refused_and_overwrite_replaces_that_run() {
    let dir = scratch("other-run");
    let (a, b) = (dir.join("A"), dir.join("B"));
    ok(&karma_run(&a, "10", &[]));
    ok(&karma_run(&b, "30", &["--param", "vstar=0.7"]));
    let before = contents(&b);
    let checkpoint = a.join("checkpoint.fibril");
    let o = karma_run(&b, "20", &["--resume", s(&checkpoint)]);
    assert!(!o.status.success(), "a resume into another run's directory must be refused");
    let e = stderr(&o);
    for needle in ["holds the files of another run", "--overwrite", "--out"] {
        assert!(e.contains(needle), "lacks {needle:?}: {e}");
    }
    assert!(contents(&b) == before, "the other run's files are untouched");
    // With --overwrite that run's files go, and the resumed run of A
    // continues there under A's identity.
    ok(&karma_run(&b, "20", &["--resume", s(&checkpoint), "--overwrite"]));
    let summary = read_json(&b.join("summary.json"));
    assert_eq!(summary["run_id"], read_json(&a.join("summary.json"))["run_id"]);
    assert_eq!(summary["steps"], 400);
    // A's numbering goes on (its checkpoint had written snapshots 0-2):
    // B's snapshots 5 and 6 of the other run are gone.
    let expected = [".fibril-run", "U_000003.npy", "U_000004.npy", "checkpoint.fibril", "snapshots.json"];
    assert_eq!(names(&b), set(&[&expected[..], &["summary.json"]].concat()));
    // The run's own directory resumes without --overwrite, as before.
    ok(&karma_run(&b, "30", &["--resume", s(&b.join("checkpoint.fibril"))]));
    assert_eq!(read_json(&b.join("summary.json"))["steps"], 600);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn overwrite_removes_exactly_the_earlier_runs_files() {
    let out = scratch("overwrite");
    // A sheet with every kind of output: maps, tips and their picture, the
    // pseudo-ECG and its plot, pictures and vti snapshots.
    let pictures = ["--snapshot-every-ms", "30", "--format", "npy,vti,png"];
    ok(&spiral(&out, "48", "60", &[&pictures[..], &["--apd-map", "--electrode", ELECTRODE]].concat()));
    let first = names(&out);
    for file in ["apd.npy", "repolarisation.npy", "tips.csv", "ecg.csv", "ecg.png", "fields.pvd"] {
        assert!(first.contains(file), "{file} written: {first:?}");
    }
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    std::fs::write(out.join("U_final.png"), "mine too").unwrap();
    ok(&small_overwrite(&out));
    let expected =
        [".fibril-run", "U_000000.npy", "snapshots.json", "summary.json", "notes.txt", "U_final.png"];
    assert_eq!(names(&out), set(&expected), "only the new run's files and the user's");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_directory_of_an_older_fibril_is_cleared_by_the_names_fibril_used() {
    let out = scratch("older");
    std::fs::create_dir_all(&out).unwrap();
    let theirs =
        ["summary.json", "U_000003.npy", "apd.npy", "tips.png", "ecg.csv", "filaments.csv", "x.npy.partial"];
    for f in theirs.iter().chain(&["notes.txt", "U_mine.npy"]) {
        std::fs::write(out.join(f), "x").unwrap();
    }
    ok(&small_overwrite(&out));
    let left = names(&out);
    for f in theirs {
        assert!(f == "summary.json" || !left.contains(f), "{f} removed: {left:?}");
    }
    assert!(left.contains("notes.txt") && left.contains("U_mine.npy"), "the user's files kept: {left:?}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_run_that_stopped_early_is_told_it_can_resume() {
    let out = scratch("unfinished");
    ok(&karma_run(&out, "10", &[]));
    // A run killed before its end leaves its checkpoint and no summary.
    std::fs::remove_file(out.join("summary.json")).unwrap();
    let o = karma_run(&out, "10", &[]);
    let e = stderr(&o);
    assert!(!o.status.success());
    assert!(
        e.contains("--overwrite") && e.contains(&format!("--resume {}", s(&out.join("checkpoint.fibril")))),
        "{e}"
    );
    // A completed run's directory is not offered for resuming.
    std::fs::remove_dir_all(&out).unwrap();
    ok(&karma_run(&out, "10", &[]));
    let e = stderr(&karma_run(&out, "10", &[]));
    assert!(e.contains("--overwrite") && !e.contains("--resume"), "{e}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// A snapshot that cannot be written (here: its temporary file is a link
/// to `/dev/full`, which refuses every write as a full disk does) ends the
/// run with an error, and summary.json still says how the run ended.
#[cfg(target_os = "linux")]
#[test]
fn a_write_error_ends_the_run_with_a_summary_that_says_so() {
    let out = scratch("full");
    std::fs::create_dir_all(&out).unwrap();
    // The record of an earlier run that wrote nothing: --overwrite removes
    // what it lists, so the link stays.
    let record = "fibril output directory 1\nrun 0123456789abcdef0123456789abcdef\n";
    std::fs::write(out.join(".fibril-run"), record).unwrap();
    std::os::unix::fs::symlink("/dev/full", out.join("U_000002.npy.partial")).unwrap();
    let o = karma_run(&out, "20", &["--overwrite"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("U_000002.npy") && e.contains("summary.json says status \"failed\""), "{e}");
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["status"], "failed");
    assert_eq!(summary["steps"], 200, "the step the run had reached");
    assert!(summary["error"].as_str().unwrap().contains("U_000002.npy"), "{summary}");
    let written: Vec<u64> =
        summary["snapshots"].as_array().unwrap().iter().map(|r| r["step"].as_u64().unwrap()).collect();
    assert_eq!(written, [0, 100], "the snapshots written before the error");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_model_in_its_own_units_labels_its_files_so() {
    let out = scratch("units");
    let o = spiral(&out, "64", "60", &["--model", "aliev_panfilov", "--electrode", ELECTRODE]);
    ok(&o);
    let first_line =
        |f: &str| std::fs::read_to_string(out.join(f)).unwrap().lines().next().unwrap().to_string();
    assert_eq!(first_line("tips.csv"), "t_tu,charge,x_su,y_su,z_su");
    assert_eq!(first_line("ecg.csv"), "t_tu,V1");
    // The final line gives the wall time and the stepping time its rates
    // divide by, in the model's time unit.
    let line = String::from_utf8_lossy(&o.stdout);
    assert!(line.contains("(60 t.u.)") && line.contains("of which stepping"), "{line}");
    assert!(line.contains("steps/s") && line.contains("while stepping"), "{line}");
    std::fs::remove_dir_all(&out).unwrap();
    // Karma: time read as ms, space in space units.
    ok(&spiral(&out, "32", "10", &["--s2-ms", "5"]));
    assert_eq!(first_line("tips.csv"), "t_ms,charge,x_su,y_su,z_su");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn thousands_of_snapshots_keep_an_index_of_every_file() {
    // The index is rewritten at a bounded share of the writing time; at
    // the end it lists every snapshot, in order.
    let out = scratch("many");
    ok(&fibril_words(
        "run --backend cpu --size 4 --steps 3000 --snapshot-every-ms 0.05 -q --out",
        &[s(&out)],
    ));
    assert_eq!(snapshot_steps(&out), (0..=3000).collect::<Vec<_>>());
    std::fs::remove_dir_all(&out).unwrap();
}

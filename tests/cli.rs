//! The command line: errors before any work starts, each naming the fix;
//! a complete run's files; NaN stops a run and keeps earlier snapshots.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{assert_refused, fibril, fibril_words, ok, read_json, s, snapshot_steps, u8_npy};

fn scratch(name: &str) -> PathBuf {
    common::scratch("cli", name)
}

#[test]
fn refuses_an_empty_axis() {
    let out = scratch("dim");
    assert_refused(&["run", "--nx", "0", "--out", out.to_str().unwrap()], &["nx = 0", "at least one cell"]);
    assert!(!out.exists(), "nothing created before the error");
}

#[test]
fn refuses_non_positive_steps() {
    assert_refused(&["run", "--dt", "0", "--backend", "cpu"], &["dt must be a positive number"]);
    assert_refused(&["run", "--dx=-0.5", "--backend", "cpu"], &["dx must be a positive number"]);
}

#[test]
fn refuses_an_unstable_step_and_says_which_would_work() {
    assert_refused(
        &["run", "--dt", "0.1", "--dx", "0.6", "--backend", "cpu"],
        &["unstable", "0.2778", "--dt 0.060000 or smaller", "--dx 0.774597 or larger"],
    );
}

#[test]
fn refuses_a_grid_too_large_for_memory() {
    // 40000^3 f32 cells need ~1.2 PB: more than any host or GPU has.
    let out = scratch("mem");
    assert_refused(
        &["run", "--size", "40000", "--backend", "cpu", "--out", out.to_str().unwrap()],
        &["not enough host memory", "--size"],
    );
    assert!(!out.exists());
}

#[test]
fn refuses_an_unwritable_output_directory() {
    let blocker = scratch("blocker");
    std::fs::write(&blocker, "a file").unwrap();
    let inside = blocker.join("out");
    assert_refused(
        &["run", "--size", "8", "--backend", "cpu", "--out", inside.to_str().unwrap()],
        &["cannot create output directory", "--out"],
    );
    assert_refused(
        &["run", "--size", "8", "--backend", "cpu", "--out", blocker.to_str().unwrap()],
        &["not a directory", "--out"],
    );
    std::fs::remove_file(&blocker).unwrap();
}

#[test]
fn refuses_a_non_empty_output_directory_without_overwrite() {
    let out = scratch("nonempty");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "mine").unwrap();
    assert_refused(
        &["run", "--size", "8", "--backend", "cpu", "--out", out.to_str().unwrap()],
        &["--overwrite"],
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn refuses_snapshot_interval_off_the_time_grid() {
    assert_refused(
        &["run", "--backend", "cpu", "--snapshot-every-ms", "0.12"],
        &["--snapshot-every-ms: 0.12 ms is not a whole number of time steps", "use 0.1 or 0.15"],
    );
}

#[test]
fn gpu_backend_without_a_gpu_is_an_error_that_says_why() {
    if fibril_host::backend::GpuDevice::open(0).is_ok() {
        eprintln!("skipped: a CUDA device is present, so --backend gpu is expected to work here");
        return;
    }
    assert_refused(
        &["run", "--backend", "gpu", "--size", "8"],
        &["--backend gpu needs a usable CUDA GPU", "--backend cpu"],
    );
}

#[test]
fn a_run_writes_snapshots_index_and_summary() {
    let out = scratch("run");
    let line = ok(&fibril_words(
        "run --nx 10 --ny 9 --nz 20 --duration-ms 2 --snapshot-every-ms 1 --save-v --backend cpu --out",
        &[s(&out)],
    ));
    assert!(
        line.contains("40 steps (2 ms) of karma on 10x9x20") && line.contains("cell-updates/s"),
        "{line}"
    );

    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["status"], "completed");
    assert_eq!(summary["steps"], 40);
    assert_eq!(summary["backend"], "cpu");
    assert_eq!(summary["domain"]["nz"], 20);
    assert!(summary["cell_updates_per_s"].as_f64().unwrap() > 0.0);
    assert!(summary["real_time_factor"].as_f64().unwrap() > 0.0);

    assert_eq!(snapshot_steps(&out), vec![0, 20, 40]);
    let u0 = fibril_host::io::npy::read(&out.join("U_000000.npy")).unwrap();
    assert_eq!(u0.shape, vec![20, 9, 10]);
    assert_eq!(u0.descr, "<f4");
    // Planar start: the first two z-slices (z <= 0.05 * 20) are excited.
    assert_eq!(u0.values[0], 3.0);
    assert_eq!(u0.values[2 * 90], 0.0);
    let v2 = fibril_host::io::npy::read(&out.join("v_000002.npy")).unwrap();
    assert!(v2.values.iter().all(|v| (0.0..=1.0).contains(v)));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn nan_stops_the_run_and_keeps_earlier_snapshots() {
    // At t = 1 ms a stimulus sets U = 1e30 in a box: the reaction term
    // overflows at the next step, U becomes infinite or NaN, and the run must
    // stop at the next check. Snapshots every 0.25 ms come before it.
    let out = scratch("nan");
    let o = fibril_words(
        "run --size 8 --steps 400 --snapshot-every-ms 0.25 --check-every-steps 5 --backend cpu --stimulus",
        &["{region = \"box\", x = [2, 4], value = 1e30, at_ms = 1}", "--out", s(&out)],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("NaN or infinite between step"), "{stderr}");
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["status"], "non_finite");
    let stop = summary["step"].as_u64().unwrap();
    assert!((21..=25).contains(&stop), "stopped at {stop}, the first check after the blow-up at step 21");
    // The snapshots before the blow-up are all listed, exist and are
    // complete; none is from after it.
    assert_eq!(snapshot_steps(&out), vec![0, 5, 10, 15, 20], "{stderr}");
    for r in read_json(&out.join("snapshots.json")).as_array().unwrap() {
        let f = out.join(r["files"][0].as_str().unwrap());
        assert!(fibril_host::io::npy::read(&f).unwrap().values.iter().all(|x| x.is_finite()));
    }
    assert!(
        std::fs::read_dir(&out)
            .unwrap()
            .all(|e| { !e.unwrap().file_name().to_string_lossy().ends_with(".partial") })
    );
    std::fs::remove_dir_all(&out).unwrap();
}

fn fibril_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fibril"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    // Variables of a launcher this test may itself run under.
    for k in ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"] {
        if !env.iter().any(|(e, _)| e == &k) {
            cmd.env_remove(k);
        }
    }
    cmd.output().expect("run fibril")
}

/// Extra options, launcher variables, and what the error must say.
type RankCase<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a [&'a str]);

#[test]
fn a_rank_of_a_multi_process_run_checks_its_options_before_any_work() {
    let out = scratch("rank");
    let o = out.to_str().unwrap();
    let cases: [RankCase; 5] = [
        (&["--rank", "0", "--world-size", "2", "--backend", "cpu"], &[], &["rank 0 of 2", "--backend gpu"]),
        (
            &["--backend", "gpu", "--exchange", "peer"],
            &[("SLURM_PROCID", "1"), ("SLURM_NTASKS", "2")],
            &["rank 1 of 2 (from SLURM_PROCID/SLURM_NTASKS)", "--exchange nccl"],
        ),
        (
            &["--exchange", "nccl", "--gpus", "2"],
            &[("OMPI_COMM_WORLD_RANK", "0"), ("OMPI_COMM_WORLD_SIZE", "2")],
            &["each process drives one GPU"],
        ),
        (&["--exchange", "nccl"], &[("PMI_RANK", "2"), ("PMI_SIZE", "2")], &["PMI_RANK", "2"]),
        (
            &["--exchange", "nccl", "--rank", "0", "--world-size", "2", "--rendezvous", "nohost"],
            &[],
            &["nohost"],
        ),
    ];
    for (extra, env, needles) in cases {
        let mut args = vec!["run", "--size", "16", "--steps", "2", "--out", o];
        args.extend_from_slice(extra);
        common::refused_as(&(&args, env), &fibril_env(&args, env), needles);
        assert!(!out.exists(), "nothing created before the error");
    }
    // --rank alone is a usage error.
    assert_refused(&["run", "--rank", "0"], &["--world-size"]);
}

#[test]
fn sheets_cables_and_single_cells_run_with_the_nz_ny_nx_convention() {
    for (dims, shape) in [
        (["40", "30", "1"], vec![1, 30, 40]),
        (["1", "1", "50"], vec![50, 1, 1]),
        (["60", "1", "1"], vec![1, 1, 60]),
        (["1", "1", "1"], vec![1, 1, 1]),
        (["2", "2", "2"], vec![2, 2, 2]),
    ] {
        let out = scratch(&format!("shape-{}", dims.join("x")));
        let o = fibril_words(
            "run --model fenton_karma --duration-ms 5 --format npy,vti,png --backend cpu -q",
            &["--nx", dims[0], "--ny", dims[1], "--nz", dims[2], "--out", s(&out)],
        );
        assert!(o.status.success(), "{dims:?}: {}", String::from_utf8_lossy(&o.stderr));
        let u = fibril_host::io::npy::read(&out.join("u_000000.npy")).unwrap();
        assert_eq!(u.shape, shape, "{dims:?}");
        assert!(out.join("u_000000.png").exists() && out.join("fields_000000.vti").exists());
        std::fs::remove_dir_all(&out).unwrap();
    }
    // The paper's kernels need three axes; the message names the one that works.
    assert_refused(
        &["run", "--nz", "1", "--size", "64", "--kernel", "csw", "--backend", "gpu"],
        &["--backend gpu needs a usable CUDA GPU"],
    );
}

#[test]
fn models_parameters_and_presets_are_checked_before_any_work() {
    let out = scratch("model-errors");
    let o = out.to_str().unwrap();
    assert_refused(&["run", "--model", "karmah", "--out", o], &["unknown model \"karmah\"", "karma, bocf"]);
    assert_refused(
        &["run", "--model", "bocf", "--param", "gamma=1", "--out", o],
        &["model bocf has no parameter \"gamma\"", "tau_fi", "fibril models bocf"],
    );
    assert_refused(
        &["run", "--model", "bocf", "--preset", "stable", "--out", o],
        &["epi, endo, m, pb, tnnp"],
    );
    assert_refused(
        &["run", "--param", "m=2.5", "--out", o],
        &["parameter m = 2.5 of model karma is out of range", "a whole number from 0 to 64"],
    );
    assert_refused(&["run", "--param", "gamma", "--out", o], &["--param takes NAME=VALUE"]);
    assert_refused(
        &["run", "--model", "diffusion", "--save-v", "--out", o],
        &["model diffusion has no variable v"],
    );
    assert_refused(&["run", "--save", "w", "--out", o], &["its variables are U, v"]);
    assert!(!out.exists(), "nothing created before the errors");
    // `fibril models` describes each model.
    let list = fibril(&["models"]);
    let text = String::from_utf8_lossy(&list.stdout);
    for name in ["karma", "bocf", "aliev_panfilov", "fenton_karma", "mitchell_schaeffer", "diffusion"] {
        assert!(text.contains(name), "{text}");
    }
    let one = String::from_utf8_lossy(&fibril(&["models", "bocf"]).stdout).to_string();
    assert!(one.contains("tau_fi") && one.contains("tnnp") && one.contains("dx = 0.25 mm"), "{one}");
}

#[test]
fn rate_tables_serve_the_ionic_models_and_are_refused_elsewhere() {
    assert_refused(
        &["run", "--model", "karma", "--rate-tables", "--backend", "cpu"],
        &[
            "model karma has no rate table",
            "beeler_reuter, luo_rudy_1991, ten_tusscher_2006",
            "drop --rate-tables",
        ],
    );
    // A Beeler-Reuter wave with and without the table: recorded as such,
    // close (the table is within 5e-5 of each function) but not equal.
    let runs = [false, true].map(|tables| {
        let out = scratch(if tables { "br-tables" } else { "br-exact" });
        let line = "run --model beeler_reuter --nx 40 --ny 8 --nz 1 --duration-ms 30 --init planar --save V";
        let table = if tables { &["--rate-tables"][..] } else { &[] };
        ok(&fibril_words(line, &[&["--backend", "cpu", "--out", s(&out)][..], table].concat()));
        let summary = read_json(&out.join("summary.json"));
        let v = fibril_host::io::npy::read(&out.join("V_000000.npy")).unwrap().values;
        std::fs::remove_dir_all(&out).unwrap();
        (summary["domain"]["model"]["math"].as_str().unwrap().to_string(), v)
    });
    assert_eq!((runs[0].0.as_str(), runs[1].0.as_str()), ("fast", "fast+tables"));
    let worst = runs[0].1.iter().zip(&runs[1].1).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(worst > 0.0 && worst < 0.5, "largest |dV| with and without the table: {worst} mV");
}

/// `--kernel tune` (and `--retune`) is accepted and kept in the
/// configuration a run prints; on the CPU, which has one kernel, nothing is
/// timed, nothing is kept in the tune cache and the summary says nothing of
/// a tuning (the GPU timing is checked on the device:
/// docs/history/BENCHMARKS-2026.md, "`--kernel tune`").
#[test]
fn tune_is_accepted_and_times_nothing_on_the_cpu() {
    let out = scratch("tune");
    let cache = scratch("tune-cache").join("tune-cache.json");
    let o = Command::new(env!("CARGO_BIN_EXE_fibril"))
        .args("run --backend cpu --size 8 --steps 4 --kernel tune --retune --out".split(' '))
        .arg(&out)
        .env("FIBRIL_TUNE_CACHE", &cache)
        .output()
        .expect("run fibril");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!cache.exists(), "nothing was tuned, so nothing is kept");
    assert!(o.status.success(), "{stderr}");
    assert!(!stderr.contains("--kernel tune timed"), "{stderr}");
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["method"], "cpu-reference");
    assert!(summary.get("kernel_tuning").is_none(), "{summary}");
    let config = fibril(&["run", "--kernel", "tune", "--print-config"]);
    let text = String::from_utf8_lossy(&config.stdout);
    assert!(config.status.success() && text.contains("kernel = \"tune\""), "{text}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// `--retune` only means something with `--kernel tune`: without it the
/// run and the benchmark are refused before any work, naming the fix.
#[test]
fn retune_needs_tune() {
    let out = scratch("retune");
    let mut args: Vec<&str> = "run --backend cpu --size 8 --steps 4 --retune --out".split(' ').collect();
    args.push(out.to_str().unwrap());
    assert_refused(&args, &["--retune", "add --kernel tune"]);
    assert!(!out.exists(), "a refused run leaves nothing");
    assert_refused(
        &["bench", "--backend", "cpu", "--size", "8", "--steps", "4", "--retune"],
        &["--retune", "add --kernel tune"],
    );
}

/// `bench --sweep` times every kernel itself; with `--kernel tune` it would
/// time the tuned kernel under each row's name, so the pair is refused
/// before any work.
#[test]
fn bench_sweep_refuses_tune() {
    assert_refused(
        &["bench", "--sweep", "--kernel", "tune", "--backend", "gpu"],
        &["--sweep", "drop --kernel tune"],
    );
}

/// The checkpoint a short Karma run on 8^3 cells writes (in `dir`).
fn a_checkpoint(dir: &Path) -> PathBuf {
    ok(&fibril_words("run --size 8 --steps 4 --checkpoint-every-ms 0.1 --backend cpu -q --out", &[s(dir)]));
    dir.join("checkpoint.fibril")
}

/// Configuration and checkpoint files are measured, and their magic and
/// header read, before they are read whole: a device that never ends, a
/// directory, a file far longer than it can be (sparse: its length costs
/// nothing on disk) are refused at once, naming the file and the bound.
#[test]
fn configuration_and_checkpoint_files_are_bounded_before_they_are_read() {
    let dir = scratch("bounded-inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    // Configuration files: at most 16 MiB.
    assert_refused(&["run", "/dev/zero", "--out", o], &["configuration file /dev/zero", "16.00 MiB"]);
    let d = dir.to_str().unwrap();
    assert_refused(&["run", d, "--out", o], &["configuration file", "is a directory"]);
    let long = dir.join("long.toml");
    std::fs::write(&long, "[grid]\nsize = 8\n").unwrap();
    std::fs::OpenOptions::new().write(true).open(&long).unwrap().set_len(1 << 40).unwrap();
    assert_refused(
        &["run", long.to_str().unwrap(), "--out", o],
        &["long.toml", "1.00 TiB", "more than a run configuration file can be (16.00 MiB at most)"],
    );
    // Checkpoints: the magic first, then exactly the length the header says.
    let checkpoint = a_checkpoint(&dir.join("first"));
    let resume = |path: &Path, needles: &[&str]| {
        let p = path.to_str().unwrap();
        let args = ["run", "--size", "8", "--steps", "8", "--backend", "cpu", "--resume", p, "--out", o];
        let started = std::time::Instant::now();
        assert_refused(&args, needles);
        assert!(started.elapsed().as_secs() < 20, "{p}: refused only after reading it");
    };
    resume(Path::new("/dev/zero"), &["/dev/zero is not a fibril checkpoint"]);
    resume(&dir, &["cannot read checkpoint", "is a directory"]);
    let bytes = std::fs::read(&checkpoint).unwrap();
    let tail = dir.join("tail.fibril");
    std::fs::write(&tail, &bytes).unwrap();
    std::fs::OpenOptions::new().write(true).open(&tail).unwrap().set_len(1 << 40).unwrap();
    let follow = format!(
        "{} bytes follow the {} its header announces",
        (1u64 << 40) - bytes.len() as u64,
        bytes.len()
    );
    resume(&tail, &["tail.fibril is corrupt", &follow]);
    let cut = dir.join("cut.fibril");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    resume(&cut, &["cut.fibril is truncated", &format!("its header announces {}", bytes.len())]);
    assert!(!out.exists(), "nothing created before the errors");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--sigma`, `--chi` and `--cm` set D = sigma/(chi Cm) in `run` and
/// `info` (the model's usual D fills a run's grid only where they do not),
/// and `--print-config` prints a configuration that runs again; with
/// `--diffusion` too they are refused.
#[test]
fn sigma_chi_and_cm_set_d_in_run_info_and_a_printed_configuration() {
    let dir = scratch("sigma");
    let out = dir.join("out");
    let monodomain = ["--model", "ten_tusscher_2006", "--sigma", "0.1334", "--chi", "140", "--cm", "1"];
    let mut args = vec!["run", "--size", "4", "--duration-ms", "0.1", "--backend", "cpu", "-q", "--out"];
    args.push(out.to_str().unwrap());
    args.extend(monodomain);
    ok(&fibril(&args));
    let summary = read_json(&out.join("summary.json"));
    let d = summary["domain"]["diffusion"].as_f64().unwrap();
    assert!((d - 0.1334 / 1.4).abs() < 1e-9, "D = {d}");
    // The printed configuration holds sigma, chi and cm, not D, and runs.
    let mut print = vec!["run", "--size", "4", "--duration-ms", "0.1", "--print-config"];
    print.extend(monodomain);
    let text = ok(&fibril(&print));
    assert!(text.contains("sigma = 0.1334"), "{text}");
    assert!(!text.contains("diffusion ="), "{text}");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("printed.toml");
    std::fs::write(&file, &text).unwrap();
    let again = dir.join("again");
    ok(&fibril(&["run", s(&file), "-q", "--backend", "cpu", "--out", s(&again)]));
    let d_again = read_json(&again.join("summary.json"))["domain"]["diffusion"].as_f64().unwrap();
    assert_eq!(d_again, d);
    // info takes them too.
    let mut info = vec!["info", "--size", "4", "--backend", "cpu"];
    info.extend(monodomain);
    let text = ok(&fibril(&info));
    assert!(!text.contains("would refuse"), "{text}");
    // Both ways of giving D: refused, naming the fix.
    let both_out = dir.join("both");
    let mut both = vec!["run", "--size", "4", "--backend", "cpu", "--diffusion", "0.1", "--out"];
    both.push(both_out.to_str().unwrap());
    both.extend(monodomain);
    assert_refused(&both, &["give either --diffusion or --sigma", "not both"]);
    assert!(!both_out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GPU options are checked the same way on the CPU as on a GPU: what a
/// GPU refuses is refused (before any work), and what a GPU takes is
/// noted in one line as doing nothing on the CPU.
#[test]
fn gpu_options_are_checked_on_the_cpu_as_on_a_gpu() {
    let out = scratch("gpu-options");
    let o = out.to_str().unwrap();
    let run = ["run", "--size", "8", "--duration-ms", "1", "--backend", "cpu", "-q", "--out", o];
    let with = |extra: &[&'static str]| [&run[..], extra].concat();
    assert_refused(
        &with(&["--steps-per-pass", "9", "--kernel", "tower", "--model", "bocf"]),
        &["--steps-per-pass 9 is not possible", "2, 3 or 4"],
    );
    assert_refused(
        &with(&["--kernel", "tower", "--model", "bocf"]),
        &["--kernel tower", "not for model bocf", "use --kernel naive"],
    );
    assert_refused(&with(&["--steps-per-pass", "3"]), &["--steps-per-pass 3 is not possible"]);
    assert_refused(&with(&["--kernel", "columns", "--nx", "10"]), &["--kernel columns", "nx = 8 or 12"]);
    assert!(!out.exists(), "nothing created before the errors");
    let o = fibril(&with(&["--kernel", "csw", "--block", "64x4", "--no-graphs"]));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("note: --kernel csw, --block 64x4, --no-graphs choose how a GPU steps the grid")
            && stderr.contains("do nothing on the CPU"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// An unstable step names the stable ones readably however far they are
/// from 1 (not as 0.000000), and a threshold that is no potential is
/// refused whether or not a map is asked for.
#[test]
fn stable_steps_are_suggested_readably_and_thresholds_checked_without_maps() {
    assert_refused(
        &["run", "--size", "8", "--diffusion", "1e5", "--backend", "cpu"],
        &["use --dt 5.9999e-7 or smaller", "--dx 173.205081 or larger"],
    );
    assert_refused(
        &["run", "--size", "8", "--activation-threshold", "nan", "--backend", "cpu"],
        &["--activation-threshold = NaN is not a potential"],
    );
    assert_refused(&["run", "--size", "8", "--dx", "1e30", "--backend", "cpu"], &["--dx = 1e30", "1000"]);
}

/// Relative paths in a configuration file are read from the file's
/// directory, wherever fibril is started; an error names the full path it
/// tried, and `--print-config` prints paths that work from anywhere.
#[test]
fn paths_in_a_configuration_file_are_read_from_its_directory() {
    let dir = scratch("config-paths");
    let beside = dir.join("case");
    std::fs::create_dir_all(&beside).unwrap();
    let labels: Vec<u8> = (0..6 * 6 * 6).map(|i| if i % 7 == 0 { 2 } else { 1 }).collect();
    std::fs::write(beside.join("heart.npy"), u8_npy(&[6, 6, 6], &labels)).unwrap();
    let corner: Vec<u8> = (0..6 * 6 * 6).map(|i| u8::from(i < 36)).collect();
    std::fs::write(beside.join("s1.npy"), u8_npy(&[6, 6, 6], &corner)).unwrap();
    let config = beside.join("heart.toml");
    std::fs::write(
        &config,
        "[run]\nduration_ms = 0.1\n[tissue]\nmask = \"heart.npy\"\n\
         [[stimulus]]\nregion = \"mask\"\nfile = \"s1.npy\"\nat_ms = 0.05\n",
    )
    .unwrap();
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let in_dir = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_fibril"))
            .args(args)
            .current_dir(&elsewhere)
            .output()
            .expect("run fibril")
    };
    let out = dir.join("out");
    let c = config.to_str().unwrap();
    ok(&in_dir(&["run", c, "--backend", "cpu", "-q", "--out", s(&out)]));
    // The printed configuration runs from yet another directory.
    let printed = in_dir(&["run", c, "--print-config"]);
    let text = String::from_utf8_lossy(&printed.stdout).to_string();
    let full = beside.join("heart.npy");
    assert!(text.contains(&format!("mask = \"{}\"", full.display())), "{text}");
    assert!(text.contains(&format!("file = \"{}\"", beside.join("s1.npy").display())), "{text}");
    let copy = elsewhere.join("printed.toml");
    std::fs::write(&copy, &text).unwrap();
    let again = dir.join("again");
    ok(&Command::new(env!("CARGO_BIN_EXE_fibril"))
        .args(["run", s(&copy), "--backend", "cpu", "-q", "--out", s(&again)])
        .current_dir(&dir)
        .output()
        .unwrap());
    // A missing file: the error names where it was looked for.
    std::fs::write(&config, "[tissue]\nmask = \"gone.npy\"\n").unwrap();
    let o = in_dir(&["run", c, "--backend", "cpu", "--out", dir.join("never").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && stderr.contains(&beside.join("gone.npy").display().to_string()),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `[[tissue.region]]` label no cell has is refused, listing the labels
/// the geometry has; a generator's bad size is refused by name.
#[test]
fn tissue_regions_and_generator_sizes_are_checked_by_name() {
    let dir = scratch("tissue-checks");
    std::fs::create_dir_all(&dir).unwrap();
    let labels: Vec<u8> = (0..4 * 4 * 4).map(|i| [0, 1, 3][i % 3]).collect();
    std::fs::write(dir.join("m.npy"), u8_npy(&[4, 4, 4], &labels)).unwrap();
    let config = dir.join("region.toml");
    std::fs::write(
        &config,
        "[tissue]\nmask = \"m.npy\"\n[[tissue.region]]\nlabel = 2\nd_fibre = 1.0\nd_cross = 0.5\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let refused =
        |file: &Path, needles| assert_refused(&["run", s(file), "--backend", "cpu", "--out", o], needles);
    refused(&config, &["[[tissue.region]] label = 2", "its labels are 1, 3"]);
    let shell = dir.join("shell.toml");
    std::fs::write(&shell, "[grid]\nsize = 12\n[tissue]\ngeometry = \"shell\"\nwall = -1\n").unwrap();
    refused(&shell, &["[tissue] wall = -1", "positive"]);
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `fibril bench` checks where its JSON goes and every GPU count of its
/// list before it times anything (it printed a result, then failed).
#[test]
fn bench_checks_json_and_gpus_before_any_work() {
    let dir = scratch("bench-first");
    std::fs::create_dir_all(&dir).unwrap();
    let bench =
        ["bench", "--size", "8", "--steps", "2", "--warmup", "0", "--repeats", "1", "--backend", "cpu"];
    let cases: [(&[&str], &[&str]); 3] = [
        (&["--json", "/nonexistent-dir/bench.json"], &["--json", "does not exist"]),
        (&["--json", dir.to_str().unwrap()], &["--json", "is a directory"]),
        (&["--gpus", "1,2"], &["--gpus", "--backend gpu"]),
    ];
    for (extra, needles) in cases {
        let args = [&bench[..], extra].concat();
        let o = fibril(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", common::stderr(&o));
        common::refused_as(&args, &o, needles);
        assert!(
            o.stdout.is_empty(),
            "{args:?} timed before refusing: {}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The help names the cell models in general, not one of them.
#[test]
fn the_help_speaks_of_cell_models() {
    let help = String::from_utf8_lossy(&fibril(&["--help"]).stdout).to_string();
    assert!(help.contains("cell models") && !help.contains("(Karma model)"), "{help}");
}

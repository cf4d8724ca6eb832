//! Bad values, one per row: every numeric option with NaN, infinity, a
//! negative number, zero where it means nothing, an absurd magnitude or
//! text; kernels a model or grid does not have; files that are no input
//! (a device that never ends, a directory, a truncated checkpoint); bad
//! tissue options. Each must be refused before any work, with status 1
//! (fibril's refusal) or 2 (the option parser's), a message naming the
//! option or key, and no output directory: never a panic (101), never a
//! signal (a process killed for its memory), never a run.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::u8_npy;

/// The arguments, split at white space (`{s}` stands for the scratch
/// directory), and what the message must say.
type Row = (&'static str, &'static str);

/// Values that hold spaces (TOML tables): the arguments one by one, and
/// what the message must say.
const SPACED: &[(&[&str], &str)] = &[
    (&["run", "--electrode", "{name = \"V1\", position = [nan, 0, 0]}"], "electrode \"V1\""),
    (&["run", "--stimulus", "{region = \"sphere\", center = [4, 4, 4], radius = -1, at_ms = 0}"], "radius"),
    (&["run", "--stimulus", "{region = \"box\", at_ms = nan}"], "at_ms"),
    (&["run", "--stimulus", "not toml"], "--stimulus"),
];

/// Options given as numbers, each with values it must refuse.
const NUMBERS: &[Row] = &[
    ("run --size abc", "--size"),
    ("run --size -1", "--size"),
    ("run --size 1e30", "--size"),
    ("run --size 4294967295", "use a smaller grid"),
    ("run --ny 0", "ny = 0"),
    ("run --nz nan", "--nz"),
    ("run --nx 5000000000", "--nx"),
    ("run --dx nan", "dx must be a positive number"),
    ("run --dx inf", "--dx = inf"),
    ("run --dx 0", "dx must be a positive number"),
    ("run --dx 1e30", "--dx = 1e30"),
    ("run --dx 1e-9", "--dx = 1e-9"),
    ("run --dx abc", "--dx"),
    ("run --dt nan", "dt must be a positive number"),
    ("run --dt inf", "--dt = inf"),
    ("run --dt=-1", "dt must be a positive number"),
    ("run --dt 1e30", "--dt = 1e30"),
    ("run --dt text", "--dt"),
    ("run --diffusion nan", "diffusion must be a positive number"),
    ("run --diffusion=-1", "diffusion must be a positive number"),
    ("run --diffusion 0", "diffusion must be a positive number"),
    ("run --diffusion inf", "--diffusion = inf"),
    ("run --diffusion 1e30", "--diffusion = 1e30"),
    ("run --diffusion 1e5", "--dt 5.9999e-7 or smaller"),
    ("run --diffusion x", "--diffusion"),
    ("run --model ten_tusscher_2006 --sigma nan --chi 140 --cm 1", "--sigma = NaN"),
    ("run --model ten_tusscher_2006 --sigma=-1 --chi 140 --cm 1", "--sigma = -1"),
    ("run --model ten_tusscher_2006 --sigma 1e30 --chi 140 --cm 1", "--sigma = 1e30"),
    ("run --model ten_tusscher_2006 --chi 0 --cm 1", "--chi = 0"),
    ("run --model ten_tusscher_2006 --chi 1e30 --cm 1", "--chi = 1e30"),
    ("run --model ten_tusscher_2006 --chi 140 --cm inf", "--cm = inf"),
    ("run --model ten_tusscher_2006 --chi 140 --cm x", "--cm"),
    ("run --model ten_tusscher_2006 --sigma 0.1 --chi 140", "missing --cm"),
    ("run --sigma 0.1 --chi 140 --cm 1", "give --diffusion"),
    ("run --model ten_tusscher_2006 --sigma 0.1 --chi 140 --cm 1 --diffusion 0.1", "not both"),
    ("run --duration-ms nan", "--duration-ms"),
    ("run --duration-ms inf", "--duration-ms"),
    ("run --duration-ms=-1", "--duration-ms"),
    ("run --duration-ms 0", "--duration-ms"),
    ("run --duration-ms 1e30", "--duration-ms"),
    ("run --duration-ms abc", "--duration-ms"),
    ("run --steps 0", "--steps"),
    ("run --steps=-1", "--steps"),
    ("run --steps 1e30", "--steps"),
    ("run --check-every-steps 0", "--check-every-steps"),
    ("run --check-every-steps nan", "--check-every-steps"),
    ("run --checkpoint-every-ms nan", "--checkpoint-every-ms"),
    ("run --checkpoint-every-ms=-1", "--checkpoint-every-ms"),
    ("run --checkpoint-every-ms 1e30", "--checkpoint-every-ms"),
    ("run --snapshot-every-ms inf", "--snapshot-every-ms"),
    ("run --snapshot-every-ms 0", "--snapshot-every-ms"),
    ("run --protocol scroll --s2-ms nan", "--s2-ms NaN"),
    ("run --protocol scroll --s2-ms=-5", "--s2-ms -5"),
    ("run --s2-ms 5", "--s2-ms"),
    ("run --activation-threshold nan", "--activation-threshold = NaN"),
    ("run --activation-threshold inf", "--activation-threshold = inf"),
    ("run --activation-threshold 1e30", "--activation-threshold = 1e30"),
    ("run --activation-threshold x", "--activation-threshold"),
    ("run --apd-map --repolarisation-threshold nan", "--repolarisation-threshold = NaN"),
    ("run --apd-map --repolarisation-threshold=-1e9", "--repolarisation-threshold = -1e9"),
    ("run --repolarisation-threshold 0.5", "needs --apd-map"),
    ("run --beats 0", "--beats 0"),
    ("run --beats 65", "--beats 65"),
    ("run --beats=-1", "--beats"),
    ("run --tips-every-ms nan", "--tips-every-ms"),
    ("run --tips-every-ms 0", "--tips-every-ms"),
    ("run --ecg-every-ms 1", "--ecg-every-ms"),
    ("run --activation-every-steps 5", "is gone"),
    ("run --param gamma=nan", "parameter gamma = NaN"),
    ("run --param gamma=inf", "parameter gamma = inf"),
    ("run --param m=-1", "parameter m = -1"),
    ("run --param gamma=abc", "--param"),
    ("run --preset nope", "preset"),
    ("bench --repeats 0", "--repeats"),
    ("bench --repeats 5000", "--repeats 5000"),
    ("bench --warmup=-1", "--warmup"),
    ("bench --steps 0", "--steps"),
    ("info --activation-threshold nan", "--activation-threshold = NaN"),
];

/// Kernels, blocks and the other GPU options (checked on the CPU as on a
/// GPU).
const KERNELS: &[Row] = &[
    ("run --kernel tower --model bocf", "--kernel tower"),
    ("run --kernel tower --model bocf --steps-per-pass 9", "--steps-per-pass 9"),
    ("run --kernel csw --model ten_tusscher_2006", "--kernel csw"),
    ("run --kernel blocked --steps-per-pass 5", "--steps-per-pass 5"),
    ("run --steps-per-pass 2", "--steps-per-pass 2"),
    ("run --steps-per-pass nan", "--steps-per-pass"),
    ("run --kernel tune --steps-per-pass 7", "--steps-per-pass 7"),
    ("run --kernel csw --nz 1", "--kernel csw"),
    ("run --kernel columns --nx 10", "--kernel columns"),
    ("run --kernel blocked --block 32x4 --steps-per-pass 4", "block 32x4"),
    ("run --block 33x8", "--block"),
    ("run --block 32x64", "--block"),
    ("run --block abc", "--block"),
    ("run --z-chunk=-1", "--z-chunk"),
    ("run --z-chunk nan", "--z-chunk"),
    ("run --device 5000", "--device"),
    ("run --device=-1", "--device"),
    ("run --gpus 0", "--gpus"),
    ("run --gpus 2", "--gpus"),
    ("run --gpus abc", "--gpus"),
    ("run --kernel nope", "--kernel"),
    ("run --precision f16", "--precision"),
    ("bench --kernel tower --model bocf", "--kernel tower"),
    ("bench --gpus 1,2", "--gpus"),
];

/// Files that are no input.
const FILES: &[Row] = &[
    ("run /dev/zero", "16.00 MiB"),
    ("info /dev/zero", "16.00 MiB"),
    ("run {s}/a-directory", "is a directory"),
    ("run {s}/nothing-here.toml", "cannot read the configuration file"),
    ("run {s}/not-utf8.toml", "not UTF-8"),
    ("run {s}/unknown-key.toml", "wavelength"),
    ("run --resume /dev/zero", "not a fibril checkpoint"),
    ("run --resume {s}/truncated.fibril", "is truncated"),
    ("run --resume {s}/a-directory", "is a directory"),
    ("run --resume {s}/unknown-key.toml", "not a fibril checkpoint"),
    ("run {s}/mask-zero-npy.toml", "not a version 1.0 .npy file"),
    ("run {s}/mask-zero-vti.toml", "not a VTK XML file"),
    ("run {s}/mask-dev-zero.toml", "unknown kind of file"),
    ("run {s}/mask-missing.toml", "{s}/gone.npy"),
    ("run {s}/fibres-zero.toml", "not a version 1.0 .npy file"),
    ("bench --json {s}/a-directory", "--json"),
    ("bench --json {s}/no/such/dir/b.json", "does not exist"),
];

/// Bad `[tissue]` options, each a file (name, then its text).
const TISSUES: &[(&str, &str, &str)] = &[
    ("wall-negative", "geometry = \"shell\"\nwall = -1", "wall = -1"),
    ("wall-nan", "geometry = \"shell\"\nwall = nan", "wall = NaN"),
    ("wall-huge", "geometry = \"shell\"\nwall = 1e30", "wall = 1e30"),
    ("wall-missing", "geometry = \"shell\"", "needs wall"),
    ("hole-huge", "geometry = \"cylinder\"\nhole = 1e30", "hole = 1e30"),
    ("hole-negative", "geometry = \"cylinder\"\nhole = -1", "hole = -1"),
    ("angles-nan", "geometry = \"slab\"\nangles_deg = [nan, 0.0]", "angles_deg"),
    ("d-fibre-huge", "geometry = \"slab\"\nd_fibre = 1e30", "d_fibre = 1e30"),
    ("d-fibre-negative", "geometry = \"slab\"\nd_fibre = -1.0", "d_fibre = -1"),
    ("d-cross-nan", "geometry = \"slab\"\nd_cross = nan", "d_cross = NaN"),
    ("fibre-zero", "geometry = \"cylinder\"\nhole = 1.0\nfibre = [0.0, 0.0, 0.0]", "fibre"),
    (
        "region-absent",
        "geometry = \"slab\"\n[[tissue.region]]\nlabel = 7\nd_fibre = 1.0\nd_cross = 0.5",
        "label = 7: no cell of the geometry has this label; its labels are 1",
    ),
    (
        "region-zero",
        "geometry = \"slab\"\n[[tissue.region]]\nlabel = 0\nd_fibre = 1.0\nd_cross = 0.5",
        "label = 0",
    ),
    ("geometry-unknown", "geometry = \"sphere\"", "geometry = \"sphere\""),
    ("mask-with-slab", "geometry = \"slab\"\nmask = \"m.npy\"", "mask belongs to geometry"),
    ("sigma-one", "geometry = \"slab\"\nsigma_i = [0.17]\nsigma_e = [0.62]", "sigma_i"),
];

/// `fibril ARGS` with the scratch directory `s` put for `{s}`, on the
/// CPU, with a small grid and a short run unless the row gives its own
/// (or a configuration file), and for `run` and `info` an output
/// directory `out` of its own.
fn command(row: &[&str], s: &Path, out: &Path) -> Vec<String> {
    let mut args: Vec<String> = row.iter().map(|a| a.replace("{s}", s.to_str().unwrap())).collect();
    let has = |flag: &str| row.iter().any(|a| *a == flag || a.starts_with(&format!("{flag}=")));
    let file = row.get(1).is_some_and(|a| !a.starts_with("--"));
    let mut extra: Vec<&str> = Vec::new();
    if !has("--backend") {
        extra.extend(["--backend", "cpu"]);
    }
    if !has("--size") && !file {
        extra.extend(["--size", "8"]);
    }
    if row[0] == "run" && !has("--duration-ms") && !has("--steps") {
        extra.extend(["--duration-ms", "1"]);
    }
    if row[0] == "bench" {
        for (flag, value) in [("--steps", "2"), ("--warmup", "0"), ("--repeats", "1")] {
            if !has(flag) {
                extra.extend([flag, value]);
            }
        }
    }
    args.extend(extra.iter().map(|a| a.to_string()));
    if row[0] != "bench" {
        args.extend(["--out".to_string(), out.to_str().unwrap().to_string()]);
    }
    args
}

/// The scratch directory and the files the rows name.
fn prepare() -> PathBuf {
    let s = std::env::temp_dir().join(format!("fibril-bad-values-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&s);
    std::fs::create_dir_all(s.join("a-directory")).unwrap();
    std::fs::write(s.join("not-utf8.toml"), b"\xff\xfe[grid]\n").unwrap();
    std::fs::write(s.join("unknown-key.toml"), "[grid]\nwavelength = 3\n").unwrap();
    std::os::unix::fs::symlink("/dev/zero", s.join("zero.npy")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", s.join("zero.vti")).unwrap();
    let mask = |file: &str| format!("[tissue]\nmask = \"{file}\"\n");
    std::fs::write(s.join("mask-zero-npy.toml"), mask("zero.npy")).unwrap();
    std::fs::write(s.join("mask-zero-vti.toml"), mask("zero.vti")).unwrap();
    std::fs::write(s.join("mask-dev-zero.toml"), mask("/dev/zero")).unwrap();
    std::fs::write(s.join("mask-missing.toml"), mask("gone.npy")).unwrap();
    // A mask of 8^3 cells of label 1, and fibres that are /dev/zero.
    std::fs::write(s.join("m.npy"), u8_npy(&[8, 8, 8], &[1u8; 512])).unwrap();
    std::fs::write(s.join("fibres-zero.toml"), "[tissue]\nmask = \"m.npy\"\nfibres = \"zero.npy\"\n")
        .unwrap();
    for (name, text, _) in TISSUES {
        std::fs::write(s.join(format!("{name}.toml")), format!("[grid]\nsize = 12\n[tissue]\n{text}\n"))
            .unwrap();
    }
    // A checkpoint cut in half.
    let run = s.join("checkpointed");
    common::ok(&common::fibril_words(
        "run --size 8 --steps 2 --checkpoint-every-ms 0.05 --backend cpu -q --out",
        &[common::s(&run)],
    ));
    let bytes = std::fs::read(run.join("checkpoint.fibril")).unwrap();
    std::fs::write(s.join("truncated.fibril"), &bytes[..bytes.len() / 2]).unwrap();
    s
}

#[test]
fn every_bad_value_is_refused_by_name_before_any_work() {
    let s = prepare();
    let tissue_rows: Vec<(Vec<String>, String)> = TISSUES
        .iter()
        .map(|(name, _, needle)| (vec!["run".to_string(), format!("{{s}}/{name}.toml")], needle.to_string()))
        .collect();
    let words = |args: &str| args.split_whitespace().map(String::from).collect::<Vec<_>>();
    let rows = NUMBERS
        .iter()
        .chain(KERNELS)
        .chain(FILES)
        .map(|(args, needle)| (words(args), needle.to_string()))
        .chain(
            SPACED
                .iter()
                .map(|(args, needle)| (args.iter().map(|a| a.to_string()).collect(), needle.to_string())),
        )
        .chain(tissue_rows);
    let mut failures = Vec::new();
    let mut count = 0;
    for (i, (row, needle)) in rows.enumerate() {
        count += 1;
        let out = s.join(format!("out-{i}"));
        let row: Vec<&str> = row.iter().map(String::as_str).collect();
        let args = command(&row, &s, &out);
        let o = Command::new(env!("CARGO_BIN_EXE_fibril")).args(&args).output().expect("run fibril");
        let stderr = String::from_utf8_lossy(&o.stderr);
        let needle = needle.replace("{s}", s.to_str().unwrap());
        let problem = match o.status.code() {
            None => Some("killed by a signal".to_string()),
            Some(1 | 2) if !stderr.contains(&needle) => Some(format!("the message lacks {needle:?}")),
            Some(1 | 2) if out.exists() => Some("an output directory was created".to_string()),
            Some(1 | 2) => None,
            Some(code) => Some(format!("exit status {code}")),
        };
        if let Some(problem) = problem {
            failures.push(format!("{args:?}: {problem}\n{stderr}"));
        }
    }
    assert!(count >= 100, "{count} rows");
    std::fs::remove_dir_all(&s).unwrap();
    assert!(failures.is_empty(), "{} of {count} rows:\n{}", failures.len(), failures.join("\n"));
}

//! What a study needs from `fibril run`, through the command line:
//! configuration files and their precedence, stimulus placement, every
//! output format read back, checkpoint and resume, damaged checkpoints,
//! Ctrl-C, and `fibril info` for a run.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{fibril, fibril_words, ok, read_json, refused, s, snapshot_steps};
use fibril_host::io::colormap::viridis;
use fibril_host::io::{npy, vti};

fn scratch(name: &str) -> PathBuf {
    common::scratch("study", name)
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The value of `key` in `[section]` of a printed configuration.
fn printed<'a>(toml: &'a str, section: &str, key: &str) -> &'a str {
    let body =
        toml.split(&format!("[{section}]\n")).nth(1).unwrap_or_else(|| panic!("no [{section}] in\n{toml}"));
    let body = body.split("\n[").next().unwrap();
    body.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("no {key} in [{section}] of\n{toml}"))
}

// ---------------------------------------------------------------- config

#[test]
fn config_errors_name_the_key_and_the_line() {
    let dir = scratch("config-errors");
    let file = dir.join("bad.toml");
    // Each file's text, and what the refusal must say.
    let files: [(&str, &[&str]); 8] = [
        (
            "[grid]\nsize = 16\n\n[run]\nduration_ms = 5\nstepz = 3\n",
            &["bad.toml", "line 6", "unknown field `stepz`"],
        ),
        ("[grid]\nsize = \"big\"\n", &["line 2", "size = \"big\"", "expected u32"]),
        ("[gird]\nsize = 8\n", &["line 1", "unknown field `gird`"]),
        ("[run]\nduration_ms = 5\nsteps = 3\n", &["both duration_ms and steps"]),
        ("[[stimulus]]\nregion = \"blob\"\n", &["line 2", "unknown variant `blob`"]),
        // Files written before models had names: told where the keys go now.
        ("[model]\npreset = \"breakup\"\ngamma = 1.6\n", &["[model.parameters]", "--param gamma=1.6"]),
        ("[model]\nno_reaction = true\n", &["name = \"diffusion\""]),
        (
            "[model]\nname = \"bocf\"\n[model.parameters]\ntau_fi = \"fast\"\n",
            &["parameter tau_fi must be a number"],
        ),
    ];
    for (text, needles) in files {
        write(&file, text);
        common::refused_as(&text, &fibril(&["run", s(&file)]), needles);
    }
    write(&file, "[[stimulus]]\nregion = \"box\"\nradius = 3\n");
    refused(
        &fibril(&["run", s(&file), "--backend", "cpu", "--out", s(&dir.join("o"))]),
        &["stimulus 1", "`radius` belongs to region = \"sphere\""],
    );
    assert!(!dir.join("o").exists(), "nothing written before the error");
    refused(&fibril(&["run", s(&dir.join("missing.toml"))]), &["cannot read the configuration file"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn command_line_overrides_the_file_which_overrides_defaults() {
    let dir = scratch("precedence");
    let file = dir.join("run.toml");
    write(
        &file,
        "[grid]\nnx = 20\ndx = 0.5\ndt = 0.02\n\n[model]\npreset = \"breakup\"\n\n[model.parameters]\n\
         gamma = 1.6\neps = 0.02\n\n[run]\nsteps = 7\n\n[output]\nsave_v = true\nformat = [\"vti\", \"png\"]\n",
    );
    // File over defaults.
    let cfg = ok(&fibril(&["run", s(&file), "--print-config"]));
    assert_eq!(printed(&cfg, "grid", "nx"), "20");
    assert_eq!(printed(&cfg, "grid", "size"), "128"); // default kept
    assert_eq!(printed(&cfg, "grid", "dx"), "0.5");
    assert_eq!(printed(&cfg, "model", "preset"), "\"breakup\"");
    assert_eq!(printed(&cfg, "model.parameters", "gamma"), "1.6");
    // The model's usual values fill what the file leaves out.
    assert_eq!(printed(&cfg, "grid", "diffusion"), "1.0");
    assert_eq!(printed(&cfg, "run", "steps"), "7");
    assert_eq!(printed(&cfg, "output", "save_v"), "true");
    assert_eq!(printed(&cfg, "output", "format"), "[\"vti\", \"png\"]");
    // Options over the file, even when they equal the default.
    let options = "--dx 0.6 --param gamma=1.5 --save-v=false --format npy --duration-ms 3 --print-config";
    let cfg = ok(&fibril_words(&format!("run {} {options}", s(&file)), &[]));
    assert_eq!(printed(&cfg, "grid", "dx"), "0.6");
    assert_eq!(printed(&cfg, "grid", "dt"), "0.02");
    // --param overrides the file's parameter of that name and keeps the others.
    assert_eq!(printed(&cfg, "model.parameters", "gamma"), "1.5");
    assert_eq!(printed(&cfg, "model.parameters", "eps"), "0.02");
    assert_eq!(printed(&cfg, "output", "save_v"), "false");
    assert_eq!(printed(&cfg, "output", "format"), "[\"npy\"]");
    assert_eq!(printed(&cfg, "run", "duration_ms"), "3.0");
    assert!(
        !cfg.lines().any(|l| l.starts_with("steps = ")),
        "--duration-ms replaces the file's steps:\n{cfg}"
    );
    // --size replaces the file's per-axis sizes.
    let cfg = ok(&fibril(&["run", s(&file), "--size", "16", "--print-config"]));
    assert_eq!(printed(&cfg, "grid", "size"), "16");
    assert!(!cfg.lines().any(|l| l.starts_with("nx = ")), "{cfg}");
    // The printed configuration is itself a valid file that gives the same.
    let again = dir.join("again.toml");
    write(&again, &cfg);
    assert_eq!(ok(&fibril(&["run", s(&again), "--print-config"])), cfg);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ------------------------------------------------------------- stimuli

/// U at (x, y, z) of a `.npy` of shape (nz, ny, nx).
fn at(a: &npy::NpyArray, x: usize, y: usize, z: usize) -> f64 {
    let (ny, nx) = (a.shape[1], a.shape[2]);
    a.values[(z * ny + y) * nx + x]
}

#[test]
fn stimuli_land_on_the_cells_they_name() {
    let dir = scratch("placement");
    let file = dir.join("stim.toml");
    write(
        &file,
        "[grid]\nnx = 12\nny = 10\nnz = 8\n\n[run]\ninit = \"rest\"\nsteps = 2\n\n\
         [output]\nsnapshot_every_ms = 0.05\n\n\
         [[stimulus]]\nregion = \"box\"\nx = [1, 3]\ny = [0, 1]\nz = [2, 2]\nvalue = 2.5\n\n\
         [[stimulus]]\nregion = \"sphere\"\ncenter = [8, 6, 5]\nradius = 1\nat_ms = 0.05\n",
    );
    let out = dir.join("out");
    ok(&fibril(&["run", s(&file), "--backend", "cpu", "--out", s(&out), "-q"]));
    // Step 0: the box only, U = 2.5 exactly there.
    let u0 = npy::read(&out.join("U_000000.npy")).unwrap();
    assert_eq!(u0.shape, vec![8, 10, 12]);
    let mut hot = Vec::new();
    for z in 0..8 {
        for y in 0..10 {
            for x in 0..12 {
                if at(&u0, x, y, z) != 0.0 {
                    assert_eq!(at(&u0, x, y, z), 2.5);
                    hot.push((x, y, z));
                }
            }
        }
    }
    assert_eq!(hot.len(), 3 * 2);
    assert!(hot.iter().all(|&(x, y, z)| (1..=3).contains(&x) && y <= 1 && z == 2));
    // Step 1: the sphere (centre and its 6 neighbours) is set to 3.
    let u1 = npy::read(&out.join("U_000001.npy")).unwrap();
    for (x, y, z) in [(8, 6, 5), (7, 6, 5), (9, 6, 5), (8, 5, 5), (8, 7, 5), (8, 6, 4), (8, 6, 6)] {
        assert_eq!(at(&u1, x, y, z), 3.0, "({x}, {y}, {z})");
    }
    assert!(at(&u1, 9, 7, 5) < 3.0);
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["stimuli"].as_array().unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scroll_protocol_fires_the_cross_field_s2_on_the_quarter() {
    let out = scratch("scroll");
    ok(&fibril_words(
        "run --nx 8 --ny 3 --nz 10 --protocol scroll --s2-ms 0.5 --steps 10 --snapshot-every-ms 0.5",
        &["--backend", "cpu", "-q", "--out", s(&out)],
    ));
    let u = npy::read(&out.join("U_000001.npy")).unwrap();
    for z in 0..10 {
        for y in 0..3 {
            for x in 0..8 {
                if x < 4 && z < 5 {
                    assert_eq!(at(&u, x, y, z), 3.0, "({x}, {y}, {z}) in the S2 quarter");
                }
            }
        }
    }
    assert!(at(&u, 6, 1, 7) < 3.0);
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["protocol"], "scroll");
    assert_eq!(summary["stimuli"][0]["region"], "cross-field");
    assert_eq!(summary["stimuli"][0]["at_ms"], 0.5);
    // Without --s2-ms the time is found from the S1 wave and printed.
    let cfg = ok(&fibril(&["run", "--size", "128", "--protocol", "scroll", "--print-config"]));
    assert_eq!(printed(&cfg, "run", "s2_ms"), "71.3");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn command_line_stimuli_and_pacing() {
    let out = scratch("pacing");
    let pacing =
        "{region = \"box\", x = [0, 0], at_ms = 0.05, duration_ms = 0.1, period_ms = 0.25, count = 2}";
    ok(&fibril_words(
        "run --size 6 --init rest --steps 8 --snapshot-every-ms 0.05 --backend cpu -q",
        &["--stimulus", pacing, "--out", s(&out)],
    ));
    // Active at steps 1, 2 (first beat) and 6, 7 (second): U = 3 on x = 0 there.
    for step in 0..=8 {
        let u = npy::read(&out.join(format!("U_{step:06}.npy"))).unwrap();
        let clamped = at(&u, 0, 3, 3) == 3.0;
        assert_eq!(clamped, [1, 2, 6, 7].contains(&step), "step {step}");
    }
    refused(
        &fibril(&["run", "--stimulus", "{region = \"box\", count = 2}", "--backend", "cpu"]),
        &["stimulus 1", "`count` needs `period_ms`"],
    );
    refused(&fibril(&["run", "--stimulus", "{region = box}"]), &["--stimulus", "not a valid stimulus table"]);
    std::fs::remove_dir_all(&out).unwrap();
}

// --------------------------------------------------------------- outputs

#[test]
fn every_output_format_reads_back_with_the_same_values() {
    let out = scratch("formats");
    ok(&fibril_words(
        "run --nx 9 --ny 7 --nz 40 --duration-ms 4 --snapshot-every-ms 2 --save-v --format npy,vti,png \
         --activation-map --backend cpu -q",
        &["--out", s(&out)],
    ));
    let index = read_json(&out.join("snapshots.json"));
    let records = index.as_array().unwrap();
    assert_eq!(records.len(), 3);
    let pvd = vti::read_pvd(&out.join("fields.pvd")).unwrap();
    assert_eq!(pvd.len(), 3);
    for (r, entry) in records.iter().zip(&pvd) {
        let i = r["index"].as_u64().unwrap();
        let files: Vec<&str> = r["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        assert_eq!(
            files,
            vec![
                format!("U_{i:06}.npy"),
                format!("v_{i:06}.npy"),
                format!("fields_{i:06}.vti"),
                format!("U_{i:06}.png"),
                format!("v_{i:06}.png"),
            ]
        );
        assert_eq!(entry.t_ms, r["t_ms"].as_f64().unwrap());
        assert_eq!(entry.file, files[2]);
        let u = npy::read(&out.join(files[0])).unwrap();
        let v = npy::read(&out.join(files[1])).unwrap();
        let image = vti::read(&out.join(files[2])).unwrap();
        assert_eq!(image.dims, [9, 7, 40]);
        assert_eq!(image.spacing, [0.6; 3]);
        assert_eq!(image.time_ms, Some(entry.t_ms));
        assert_eq!(image.array("U").unwrap(), u.values.as_slice());
        assert_eq!(image.array("v").unwrap(), v.values.as_slice());
        for png_file in &files[3..] {
            let decoder =
                png::Decoder::new(std::io::BufReader::new(std::fs::File::open(out.join(png_file)).unwrap()));
            let mut reader = decoder.read_info().unwrap();
            let mut buf = vec![0; reader.output_buffer_size().unwrap()];
            let frame = reader.next_frame(&mut buf).unwrap();
            assert_eq!(frame.color_type, png::ColorType::Rgb);
            // Three panels at 6x (256 / 40), at least.
            assert!(frame.width as usize >= (9 + 9 + 7) * 6, "{}", frame.width);
            assert!(frame.height as usize >= 40 * 6);
        }
    }
    // The planar start at t = 0 in the picture: U = 3 and U = 0 colours.
    let first = std::fs::File::open(out.join("U_000000.png")).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(first)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut buf).unwrap();
    let colours: std::collections::HashSet<[u8; 3]> =
        buf.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    assert!(colours.contains(&viridis(0.0)) && colours.contains(&viridis(0.75)));

    // The activation map: float32 ms, NaN where never activated, equal in
    // both formats, and the planar wave activates later further along z.
    let act = npy::read(&out.join("activation.npy")).unwrap();
    assert_eq!((act.descr.as_str(), act.shape.clone()), ("<f4", vec![40, 7, 9]));
    let image = vti::read(&out.join("activation.vti")).unwrap();
    let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
    assert!(image.array("activation_ms").unwrap().iter().zip(&act.values).all(|(a, b)| same(*a, *b)));
    assert_eq!(at(&act, 4, 3, 0), 0.0, "excited at the start");
    let (t4, t6) = (at(&act, 4, 3, 4), at(&act, 4, 3, 6));
    assert!(t4 > 0.0 && t6 > t4, "{t4} {t6}");
    assert!(at(&act, 4, 3, 39).is_nan(), "not reached in 4 ms");
    let summary = read_json(&out.join("summary.json"));
    assert!(summary["activation"]["activated_cells"].as_u64().unwrap() > 0);
    std::fs::remove_dir_all(&out).unwrap();
}

// ------------------------------------------------------ checkpoint/resume

fn last_snapshot(dir: &Path) -> (u64, Vec<u8>, Vec<u8>) {
    let index = read_json(&dir.join("snapshots.json"));
    let last = index.as_array().unwrap().last().unwrap().clone();
    let files = last["files"].as_array().unwrap();
    (
        last["step"].as_u64().unwrap(),
        std::fs::read(dir.join(files[0].as_str().unwrap())).unwrap(),
        std::fs::read(dir.join(files[1].as_str().unwrap())).unwrap(),
    )
}

/// Options shared by the runs compared: stimuli and pacing on both sides of
/// the restart, an activation map, U and v saved.
fn study(line: &str, more: &[&str]) {
    let stimuli = [
        "--stimulus",
        "{region = \"sphere\", center = [5, 4, 9], radius = 2, at_ms = 2.5}",
        "--stimulus",
        "{region = \"box\", x = [0, 2], duration_ms = 0.2, period_ms = 0.7, at_ms = 0.6}",
    ];
    let study = "--nx 10 --ny 9 --nz 12 --save-v --snapshot-every-ms 1 --activation-map --backend cpu -q";
    ok(&fibril_words(&format!("run {line} {study}"), &[more, &stimuli].concat()));
}

#[test]
fn resuming_from_a_checkpoint_gives_the_same_bits_as_one_run() {
    let whole = scratch("whole");
    let first = scratch("halves");
    study("--steps 80", &["--out", s(&whole)]);
    study("--steps 37 --checkpoint-every-ms 0.5", &["--out", s(&first)]);
    let checkpoint = first.join("checkpoint.fibril");
    let summary = read_json(&first.join("summary.json"));
    assert_eq!(summary["checkpoint_steps"], serde_json::json!([10, 20, 30, 37]));
    // The resumed run continues in the checkpoint's directory by default.
    study("--steps 80", &["--resume", s(&checkpoint)]);

    let (step_a, u_a, v_a) = last_snapshot(&whole);
    let (step_b, u_b, v_b) = last_snapshot(&first);
    assert_eq!((step_a, step_b), (80, 80));
    assert!(u_a == u_b, "U differs after resuming");
    assert!(v_a == v_b, "v differs after resuming");
    assert!(
        std::fs::read(whole.join("activation.npy")).unwrap()
            == std::fs::read(first.join("activation.npy")).unwrap(),
        "activation map differs after resuming"
    );
    assert_eq!(snapshot_steps(&whole), vec![0, 20, 40, 60, 80]);
    assert_eq!(snapshot_steps(&first), vec![0, 20, 37, 40, 60, 80]);
    let summary = read_json(&first.join("summary.json"));
    assert_eq!(summary["status"], "completed");
    assert_eq!(summary["steps"], 80);
    assert_eq!(summary["steps_advanced"], 43);
    assert_eq!(summary["resumed_from"]["step"], 37);
    std::fs::remove_dir_all(&whole).unwrap();
    std::fs::remove_dir_all(&first).unwrap();
}

#[test]
fn damaged_or_foreign_checkpoints_are_refused_with_the_reason() {
    let dir = scratch("damaged");
    let out = dir.join("run");
    ok(&fibril_words("run --size 6 --steps 4 --checkpoint-every-ms 0.2 --backend cpu -q --out", &[s(&out)]));
    let good = std::fs::read(out.join("checkpoint.fibril")).unwrap();
    let resume = |file: &Path, extra: &[&str]| {
        let mut args = vec!["run", "--size", "6", "--steps", "8", "--backend", "cpu", "-q"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", s(&out), "--resume", s(file)]);
        fibril(&args)
    };
    let bad = dir.join("bad.fibril");

    std::fs::write(&bad, &good[..good.len() - 100]).unwrap();
    refused(&resume(&bad, &[]), &["bad.fibril is truncated", "start the run again"]);

    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x10;
    std::fs::write(&bad, &flipped).unwrap();
    refused(&resume(&bad, &[]), &["bad.fibril is corrupt", "checksum"]);

    std::fs::write(&bad, b"hello").unwrap();
    refused(&resume(&bad, &[]), &["not a fibril checkpoint"]);

    let good_path = out.join("checkpoint.fibril");
    refused(
        &resume(&good_path, &["--nz", "7"]),
        &["the grid is 6x6x6 in the checkpoint but 6x6x7 here", "--nz 6"],
    );
    refused(
        &resume(&good_path, &["--param", "vstar=0.7"]),
        &["parameter vstar is 0.6 in the checkpoint but 0.7 here", "--param vstar=0.6"],
    );
    refused(&resume(&good_path, &["--model", "diffusion"]), &["the model is karma", "--model karma"]);
    refused(&resume(&good_path, &["--precision", "f64"]), &["--precision f32"]);
    refused(&resume(&good_path, &["--activation-map"]), &["holds no activation map"]);
    let mut args = vec!["run", "--size", "6", "--steps", "4", "--backend", "cpu"];
    args.extend_from_slice(&["--resume", s(&good_path)]);
    refused(&fibril(&args), &["is at step 4", "longer --duration-ms or --steps"]);
    // The good one still works, and nothing above touched the directory.
    assert_eq!(std::fs::read(&good_path).unwrap(), good);
    ok(&resume(&good_path, &[]));
    std::fs::remove_dir_all(&dir).unwrap();
}

// ------------------------------------------------------------------ Ctrl-C

#[test]
fn ctrl_c_stops_cleanly_with_a_checkpoint_and_a_summary() {
    let out = scratch("sigint");
    let child = Command::new(env!("CARGO_BIN_EXE_fibril"))
        .args("run --size 24 --duration-ms 100000 --snapshot-every-ms 1000 --check-every-steps 10".split(' '))
        .args(["--backend", "cpu", "-q", "--out", s(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fibril");
    // Wait until it is stepping (the first snapshot is written at step 0).
    let start = Instant::now();
    while !out.join("snapshots.json").exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "run did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill -INT");
    assert!(kill.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted at step"), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["status"], "interrupted");
    let step = summary["step"].as_u64().unwrap();
    assert_eq!(summary["checkpoint_steps"], serde_json::json!([step]));
    // The checkpoint holds the state of that very step, and continues the run.
    let checkpoint = out.join("checkpoint.fibril");
    let header =
        fibril_host::checkpoint::decode_header(&checkpoint, &std::fs::read(&checkpoint).unwrap()).unwrap();
    assert_eq!(header.step, step);
    ok(&fibril_words(
        &format!("run --size 24 --steps {} --backend cpu -q --resume", step + 5),
        &[s(&checkpoint)],
    ));
    assert_eq!(read_json(&out.join("summary.json"))["steps"], step + 5);
    std::fs::remove_dir_all(&out).unwrap();
}

// -------------------------------------------------------------------- info

#[test]
fn info_says_what_a_run_needs() {
    let dir = scratch("info");
    let file = dir.join("big.toml");
    write(
        &file,
        "[grid]\nsize = 256\n\n[compute]\nbackend = \"cpu\"\nprecision = \"f64\"\n\n\
         [run]\nduration_ms = 100\n\n[output]\nsnapshot_every_ms = 50\nformat = [\"npy\", \"vti\"]\n",
    );
    let text = ok(&fibril(&["info", s(&file)]));
    assert!(text.contains("CUDA devices:"), "{text}");
    assert!(
        text.contains("grid 256x256x256 (16777216 cells), model karma (2 variables), f64, block 32x8:"),
        "{text}"
    );
    // CPU, f64: 7 fields of 128 MiB (the solver's U, U_next and v, a
    // downloaded copy of U and v, a checkpoint's bytes of them).
    assert!(text.contains("this run (--backend cpu -> cpu):"), "{text}");
    assert!(text.contains("host memory: 896.00 MiB"), "{text}");
    // 3 snapshots of U in two formats, 128 MiB each.
    assert!(text.contains("3 snapshot(s), about 768.00 MiB"), "{text}");
    // An option overrides the file here too.
    let text = ok(&fibril(&["info", s(&file), "--precision", "f32", "--activation-map"]));
    // f32: 7 fields of 64 MiB less the map's: the solver holds U, U_next,
    // v and the activation times (4 fields), a checkpoint the downloaded
    // U and v and times and their bytes (6): 10 fields of 64 MiB.
    assert!(text.contains("host memory: 640.00 MiB"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shipped_configurations_are_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let cfg = ok(&fibril(&["run", s(&path), "--print-config"]));
            assert!(cfg.contains("[grid]"), "{cfg}");
            seen += 1;
        }
    }
    assert!(seen >= 2);
}

/// The scroll protocol is uniform in y, so a full run and a run only 3
/// cells deep give the same xz planes, bit for bit: that is why thin slabs
/// (e.g. 256 x 4 x 256) show what the full 256^3 run does.
#[test]
fn a_y_uniform_run_equals_its_thin_slab() {
    let full = scratch("full");
    let slab = scratch("slab");
    for (dir, ny) in [(&full, "17"), (&slab, "3")] {
        ok(&fibril_words(
            "run --nx 20 --nz 24 --protocol scroll --s2-ms 3 --steps 200 --backend cpu -q",
            &["--ny", ny, "--out", s(dir)],
        ));
    }
    let a = npy::read(&full.join("U_000000.npy")).unwrap();
    let b = npy::read(&slab.join("U_000000.npy")).unwrap();
    for z in 0..24 {
        for x in 0..20 {
            for y in 0..17 {
                assert_eq!(at(&a, x, y, z).to_bits(), at(&b, x, 1, z).to_bits(), "({x}, {y}, {z})");
            }
        }
    }
    std::fs::remove_dir_all(&full).unwrap();
    std::fs::remove_dir_all(&slab).unwrap();
}

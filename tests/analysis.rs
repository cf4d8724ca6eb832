//! The analyses of a run's outputs on small CPU runs: the conduction
//! velocity of a planar wave in a cable and a sheet against its two-point
//! estimate from arrival times, the cycle length of a paced cable from its
//! snapshots against its per-beat maps, a movie's frames, and the errors
//! that stop an analysis before it writes anything.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_refused, fibril_words, ok, read_json, s};
use fibril_host::io::npy;

fn scratch(name: &str) -> PathBuf {
    common::scratch("analysis", name)
}

fn values(path: &Path) -> (Vec<usize>, Vec<f64>) {
    let a = npy::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (a.shape, a.values)
}

/// A Karma run on `nx` x `ny` in resting tissue, a plane wave sent from
/// the face `axis` = 0 by a stimulus, with its activation map. (The
/// planar start's tissue is partly refractory, v = 0.5: its wave speeds up
/// as it goes, and no single speed would be its velocity.)
fn planar_run(out: &Path, nx: u32, ny: u32, duration_ms: u32) {
    let axis = if ny > 1 { "y" } else { "x" };
    let stimulus = format!("{{region = \"box\", {axis} = [0, 3]}}");
    ok(&fibril_words(
        "run --nz 1 --init rest --activation-map --backend cpu -q --duration-ms",
        &[
            &duration_ms.to_string(),
            "--nx",
            &nx.to_string(),
            "--ny",
            &ny.to_string(),
            "--stimulus",
            &stimulus,
            "--out",
            s(out),
        ],
    ));
}

#[test]
fn the_cv_of_a_planar_wave_in_a_cable_is_its_two_point_speed() {
    let out = scratch("cable");
    planar_run(&out, 240, 1, 120);
    let line = ok(&fibril_words("cv", &[s(&out)]));
    assert!(line.contains("conduction velocity of") && line.contains("s.u./ms"), "{line}");
    let (shape, cv) = values(&out.join("analysis/cv.npy"));
    assert_eq!(shape, [1, 1, 240]);
    let (_, t) = values(&out.join("activation.npy"));
    let summary = read_json(&out.join("summary.json"));
    let dx = summary["domain"]["dx"].as_f64().unwrap();
    // Two cells a quarter and three quarters along, away from the
    // stimulated slab and the far end.
    let (a, b) = (60, 180);
    assert!(t[b].is_finite(), "the wave reached cell {b}");
    let two_point = (b - a) as f64 * dx / (t[b] - t[a]);
    let mut worst: f64 = 0.0;
    for (i, &c) in cv.iter().enumerate().take(b + 1).skip(a) {
        let e = (c - two_point).abs() / two_point;
        assert!(e < 0.02, "cell {i}: CV {c} against the two-point {two_point}: {:.2}%", 100.0 * e);
        worst = worst.max(e);
    }
    eprintln!("cable: two-point CV {two_point:.4} s.u./ms, largest difference {:.3}%", 100.0 * worst);
    let (_, dir_x) = values(&out.join("analysis/cv_direction_x.npy"));
    assert!(dir_x[a..=b].iter().all(|&d| d == 1.0), "along +x");
    let report = read_json(&out.join("analysis/cv.json"));
    let median = report["speed"]["median"].as_f64().unwrap();
    assert!((median - two_point).abs() / two_point < 0.01, "median {median} against {two_point}");
    assert_eq!(report["speed_unit"], "s.u./ms");
    for f in ["cv.vti", "cv.png", "cv_direction_y.npy", "cv_direction_z.npy"] {
        assert!(out.join("analysis").join(f).is_file(), "{f}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_cv_of_a_planar_wave_in_a_sheet_points_along_it() {
    let out = scratch("sheet");
    // A sheet's planar start travels along y.
    planar_run(&out, 30, 120, 60);
    ok(&fibril_words("cv --radius 2 --out", &[s(&out.join("cv")), s(&out)]));
    let (shape, cv) = values(&out.join("cv/cv.npy"));
    assert_eq!(shape, [1, 120, 30]);
    let (_, t) = values(&out.join("activation.npy"));
    let (_, dir_y) = values(&out.join("cv/cv_direction_y.npy"));
    let dx = 0.6;
    let (a, b) = (30, 90);
    let at = |y: usize| 15 + 30 * y;
    let two_point = (b - a) as f64 * dx / (t[at(b)] - t[at(a)]);
    for y in a..=b {
        for x in 3..27 {
            let i = y * 30 + x;
            let e = (cv[i] - two_point).abs() / two_point;
            assert!(e < 0.02, "cell ({x}, {y}): {} against {two_point}", cv[i]);
            assert!(dir_y[i] > 0.9999, "cell ({x}, {y}): direction y {}", dir_y[i]);
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_cycle_length_of_a_paced_cable_from_snapshots_matches_its_per_beat_maps() {
    let out = scratch("paced");
    let period = 150.0;
    ok(&fibril_words(
        "run --nx 120 --ny 1 --nz 1 --init rest --duration-ms 400 --activation-map --beats 3 \
         --snapshot-every-ms 1 --backend cpu -q --stimulus",
        &["{region = \"box\", x = [0, 3], at_ms = 5, period_ms = 150, count = 3}", "--out", s(&out)],
    ));
    let beats_line = ok(&fibril_words("cycle-length --out", &[s(&out.join("beats")), s(&out)]));
    assert!(beats_line.contains("time resolution 0.05 ms (3 beats)"), "{beats_line}");
    let snap_line =
        ok(&fibril_words("cycle-length --source snapshots --out", &[s(&out.join("snapshots")), s(&out)]));
    assert!(snap_line.contains("time resolution 1 ms (401 snapshots)"), "{snap_line}");
    let (_, from_beats) = values(&out.join("beats/cycle_length.npy"));
    let (_, from_snapshots) = values(&out.join("snapshots/cycle_length.npy"));
    let (_, count) = values(&out.join("snapshots/activations.npy"));
    assert!(count.iter().all(|&n| n == 3.0), "every cell activated three times");
    for (i, (a, b)) in from_beats.iter().zip(&from_snapshots).enumerate() {
        // Within the snapshot interval (1 ms), far better in practice.
        assert!((a - b).abs() < 0.5, "cell {i}: {a} (beats) against {b} (snapshots)");
        // Restitution: later beats travel at another speed, so the mean
        // interval differs from the period by a little, away from the stimulus.
        assert!((a - period).abs() < 2.0, "cell {i}: {a}");
    }
    assert!((from_beats[0] - period).abs() < 0.06, "at the stimulus: {}", from_beats[0]);
    let report = read_json(&out.join("snapshots/cycle_length.json"));
    assert_eq!(report["source"], "snapshots");
    assert_eq!(report["time_resolution"], 1.0);
    assert!(report["note"].as_str().unwrap().contains("can be missed"));
    // Per-beat maps are asked for by name and refused without them.
    let first = scratch("first-only");
    planar_run(&first, 20, 1, 5);
    assert_refused(
        &["cycle-length", "--source", "beats", s(&first)],
        &["--source beats", "--activation-map --beats N"],
    );
    assert_refused(&["cycle-length", s(&first)], &["has 1 snapshot(s) of U", "needs at least 3"]);
    assert!(!first.join("analysis").exists(), "nothing written");
    std::fs::remove_dir_all(&first).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_movie_has_a_frame_per_snapshot_with_its_time() {
    let out = scratch("movie");
    ok(&fibril_words(
        "run --nx 24 --ny 20 --nz 6 --duration-ms 20 --snapshot-every-ms 2 --save U,v --backend cpu -q --out",
        &[s(&out)],
    ));
    let line = ok(&fibril_words("movie --variable v --z 5 --fps 5 --every 2", &[s(&out)]));
    assert!(line.contains("6 frame(s) of v in the plane z = 5, 0 ms to 20 ms, at 5 frames/s"), "{line}");
    let bytes = std::fs::read(out.join("analysis/v_z5.gif")).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    let movie = fibril_host::io::gif::decode(&bytes).unwrap();
    assert_eq!(movie.frames.len(), 6);
    assert_eq!(movie.delays_cs, [20; 6]);
    assert!(movie.width >= 24 * 8 && movie.height >= 20 * 8, "{}x{}", movie.width, movie.height);
    // The title (the time stamp) changes from frame to frame, and so do the cells.
    assert_ne!(movie.frames[0], movie.frames[1]);
    // Bad requests are refused before anything is written.
    let none = out.join("none");
    for (args, words) in [
        (vec!["--z", "6"], vec!["plane z = 6 is outside the grid of 6 plane(s)", "--z from 0 to 5"]),
        (vec!["--variable", "w"], vec!["variable \"w\"", "hold U, v", "--save w"]),
        (vec!["--fps", "0"], vec!["--fps 0 is out of range"]),
        (vec!["--from", "30"], vec!["span 0 to 20 ms"]),
        (vec!["--range", "1", "0"], vec!["--range 1 0", "the lower first"]),
    ] {
        let mut all = vec!["movie", s(&out), "--out", s(&none)];
        all.extend(args);
        assert_refused(&all, &words);
        assert!(!none.exists(), "nothing written for {all:?}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn analyses_of_what_is_not_a_run_or_lacks_a_map_say_what_to_do() {
    let empty = scratch("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_refused(&["cv", s(&empty)], &["has no summary.json", "--out directory of `fibril run`"]);
    let run = scratch("no-map");
    ok(&fibril_words("run --nx 8 --ny 8 --nz 1 --duration-ms 1 --backend cpu -q --out", &[s(&run)]));
    assert_refused(&["cv", s(&run)], &["recorded no activation map", "--activation-map"]);
    assert_refused(&["cv", s(&run), "--radius", "0"], &["--radius 0 is out of range"]);
    assert!(!run.join("analysis").exists(), "nothing written");
    std::fs::remove_dir_all(&empty).unwrap();
    std::fs::remove_dir_all(&run).unwrap();
}

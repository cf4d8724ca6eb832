//! `fibril restitution` end to end: the files it writes, what they hold,
//! and the mistakes it refuses before any work.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fibril(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fibril")).arg("restitution").args(args).output().expect("run fibril")
}

/// A fresh directory under the system's temporary one (not created).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fibril-restitution-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn no_partial_files(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name();
        assert!(!name.to_string_lossy().ends_with(".partial"), "{name:?} left behind");
    }
}

#[test]
fn an_s1s2_sweep_writes_its_curve_plot_and_summary() {
    // Mitchell-Schaeffer in one cell, APD and DI where v crosses v_gate,
    // two S1 at 400 ms, then S2 from 390 ms down: the sweep stops at the
    // first S2 that fails.
    let out = scratch("ms");
    let o = out.to_str().unwrap();
    let args = [
        "--model",
        "mitchell_schaeffer",
        "--geometry",
        "cell",
        "--bcl-ms",
        "400",
        "--beats",
        "2",
        "--s2-from-ms",
        "390",
        "--s2-to-ms",
        "20",
        "--s2-step-ms",
        "20",
        "--apd-threshold",
        "0.13",
        "--out",
        o,
    ];
    let run = fibril(&args);
    assert!(run.status.success(), "{}", text(&run));
    let said = text(&run);
    assert!(said.contains("beside Mitchell & Schaeffer 2003"), "{said}");

    let csv = std::fs::read_to_string(out.join("restitution.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("s2_interval_ms,di_ms,apd_ms,cv_m_per_s,peak,captured"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.len() >= 5, "{csv}");
    assert_eq!(rows[0][0], "390");
    let last = rows.last().unwrap();
    assert_eq!(last[5], "false", "the sweep ends at the first S2 that fails: {csv}");
    assert!(rows[..rows.len() - 1].iter().all(|r| r[5] == "true" && r[3].is_empty()), "{csv}");
    // APD + DI is the cycle: the S2 interval for the S1 APD.
    let apd: Vec<f64> = rows[..rows.len() - 1].iter().map(|r| r[2].parse().unwrap()).collect();
    assert!(apd.windows(2).all(|w| w[1] < w[0]), "APD shortens with the interval: {apd:?}");

    let png = std::fs::read(out.join("restitution.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("restitution.json")).unwrap()).unwrap();
    assert_eq!(json["experiment"]["model"], "mitchell_schaeffer");
    assert_eq!(json["experiment"]["schedule"]["level"]["kind"], "potential");
    let agreement = &json["comparison"]["apd_ms"];
    assert!(agreement["points"].as_u64().unwrap() > 10, "{agreement}");
    assert!(json["findings"]["max_apd_slope"].as_f64().unwrap() > 0.0);
    no_partial_files(&out);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn mistakes_are_refused_before_any_work_with_their_fix() {
    let out = scratch("refused");
    let o = out.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["--s2-from-ms", "200", "--s2-to-ms", "300"], "--s2-from-ms"),
        (&["--geometry", "cable", "--cells", "20"], "--cells 40"),
        (&["--protocol", "dynamic", "--bcl-ms", "300,400"], "decreasing"),
        (&["--bcl-ms", "500,400"], "--protocol dynamic"),
        (&["--model", "aliev_panfilov"], "ms and mm"),
        (&["--bcl-ms", "0.5", "--s2-to-ms", "0.2"], "longer"),
    ];
    for (extra, says) in cases {
        let mut args = extra.to_vec();
        args.extend(["--out", o]);
        let run = fibril(&args);
        assert!(!run.status.success(), "{args:?} was accepted");
        assert!(text(&run).contains(says), "{args:?}: {}", text(&run));
        assert!(!out.exists(), "{args:?} created the output directory");
    }
}

//! The host memory a run is checked against before it starts
//! (`fibril_host::memory::estimate`, the figure `fibril info` prints and
//! `fibril run` refuses on) against what a real run allocates: whole runs
//! on the CPU backend, in this process, under an allocator that keeps the
//! peak. Any model, grid shape, precision, output and activation option:
//! the estimate must cover the peak (so that an accepted run does not die
//! in the allocator) and stay within 5% of it (so that a run that fits is
//! not refused).
//!
//! One test in its own binary: no other test allocates beside it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::{CommandFactory, FromArgMatches};
use fibril::cli::{Cli, main_with};
use fibril_host::backend::{BlockSize, KernelConfig, KernelKind};
use fibril_host::events::recording::Recording;
use fibril_host::memory::{Placement, estimate};
use fibril_host::models::MODELS;
use fibril_host::{GridDims, Precision};
use proptest::prelude::*;

struct Peak;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(live, Ordering::SeqCst);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
    }
}

#[global_allocator]
static ALLOCATOR: Peak = Peak;

/// Slack over the fixed part measured below: allocator rounding, and
/// buffers that grow with the number of snapshots rather than the grid.
const SLACK_BYTES: usize = 256 << 10;

/// What a run holds beyond the estimate whatever the grid (argument
/// parsing, thread pools, the model table, formatting buffers, and the
/// mid-plane picture, whose panels are drawn at most 256 pixels on a side
/// for grids up to 256 cells on a side: `io::image`), measured once as
/// the peak of a run less its estimate, on the grid whose picture is the
/// largest (32 cells on each side: three panels of 256 by 256 pixels).
fn fixed_bytes() -> usize {
    static FIXED: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *FIXED.get_or_init(|| {
        let out = std::env::temp_dir().join(format!("fibril-memory-fixed-{}", std::process::id()));
        let info = MODELS.iter().find(|m| m.name == "diffusion").expect("the diffusion model");
        let dims = GridDims::new(32, 32, 32);
        let args = ["fibril", "run", "--backend", "cpu", "-q", "--overwrite", "--model", info.name];
        let mut args: Vec<String> = args.map(String::from).to_vec();
        args.extend(["--size", "32", "--steps", "4", "--activation-map"].map(String::from));
        let (snapshot, checkpoint) = (info.numerics.dt * 2.0, info.numerics.dt * 3.0);
        args.extend(["--snapshot-every-ms".into(), snapshot.to_string()]);
        args.extend(["--checkpoint-every-ms".into(), checkpoint.to_string()]);
        args.extend(["--format".into(), "npy,vti,png".into(), "--out".into(), out.display().to_string()]);
        let peak = peak_of(&args);
        std::fs::remove_dir_all(&out).unwrap();
        let recording = Recording { up: info.activation_threshold, down: None, beats: None };
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        let need = estimate(
            info.name,
            dims,
            info.variables.len(),
            Precision::F32,
            naive,
            &Placement::Cpu,
            Some(&recording),
        )
        .unwrap()
        .host_bytes as usize;
        peak.saturating_sub(need)
    })
}

/// Runs `fibril run ARGS` in this process; the peak bytes it added.
fn peak_of(args: &[String]) -> usize {
    let matches = Cli::command().try_get_matches_from(args).expect("valid options");
    let cli = Cli::from_arg_matches(&matches).unwrap();
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let code = main_with(cli, &matches).expect("the run succeeds");
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    PEAK.load(Ordering::SeqCst) - before
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn the_estimate_covers_a_real_run_and_stays_close(
        model in 0..MODELS.len(),
        (nx, ny, nz) in (1u32..=96, 1u32..=96, 1u32..=64),
        f64_precision in any::<bool>(),
        maps in 0usize..4,
        formats in prop::sample::subsequence(vec!["npy", "vti", "png"], 1..=3),
        save_all in any::<bool>(),
        steps in 4u64..24,
    ) {
        let info = MODELS[model];
        let dims = GridDims::new(nx, ny, nz);
        // Grids big enough for their arrays to dwarf the fixed part.
        prop_assume!(dims.cells() >= 100_000);
        // The imported models (21-67 variables, up to 40 times a small
        // model's CPU time per cell) on a bounded number of cell-steps:
        // their arrays are as large, their runs would take minutes.
        prop_assume!(info.variables.len() <= 20 || dims.cells() as u64 * steps <= 2_000_000);
        let precision = if f64_precision { Precision::F64 } else { Precision::F32 };
        let out = std::env::temp_dir().join(format!("fibril-memory-need-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let dt = info.numerics.dt;
        let mut args: Vec<String> = [
            "fibril", "run", "--backend", "cpu", "-q", "--overwrite", "--model", info.name,
        ].map(String::from).to_vec();
        for (flag, value) in [
            ("--nx", nx.to_string()), ("--ny", ny.to_string()), ("--nz", nz.to_string()),
            ("--steps", steps.to_string()), ("--precision", precision.to_string()),
            ("--snapshot-every-ms", format!("{}", dt * 2.0)),
            ("--checkpoint-every-ms", format!("{}", dt * 3.0)),
            ("--format", formats.join(",")),
            ("--out", out.display().to_string()),
        ] {
            args.push(flag.into());
            args.push(value);
        }
        // No maps; first activation; with repolarisation and APD; the last 3 beats.
        let map_flags: &[&str] = match maps {
            0 => &[],
            1 => &["--activation-map"],
            2 => &["--apd-map"],
            _ => &["--apd-map", "--beats", "3"],
        };
        args.extend(map_flags.iter().map(|f| f.to_string()));
        let recording = (maps > 0).then(|| Recording {
            up: info.activation_threshold,
            down: (maps >= 2).then_some(info.activation_threshold),
            beats: (maps == 3).then_some(3),
        });
        if save_all {
            args.extend(["--save".into(), "all".into()]);
        }
        let peak = peak_of(&args);
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        let need = estimate(
            info.name, dims, info.variables.len(), precision, naive, &Placement::Cpu, recording.as_ref(),
        ).unwrap().host_bytes as usize;
        std::fs::remove_dir_all(&out).unwrap();
        let fixed = fixed_bytes();
        prop_assert!(
            peak <= need + fixed + SLACK_BYTES,
            "{} {nx}x{ny}x{nz} {precision}: the run's peak {peak} B is above the estimate {need} B \
             (+ {fixed} B fixed, + {SLACK_BYTES} B)", info.name
        );
        prop_assert!(
            need <= peak + peak / 20 + SLACK_BYTES,
            "{} {nx}x{ny}x{nz} {precision}: the estimate {need} B is over 5% above the run's peak {peak} B",
            info.name
        );
    }
}

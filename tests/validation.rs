//! Property tests of the validation layer: any grid, spacing, step,
//! diffusion, duration, stimulus and output option, written as a run
//! configuration file, is either refused with an error or accepted as a
//! run whose numbers are sound: the step counts fit their types and the
//! run's limits, the grid's products are exact, the numerics are stable,
//! the memory estimate does not wrap, and every stimulus step is a step
//! of the run's clock. (That the estimate covers the real need is
//! `tests/memory_need.rs`.)

use std::path::Path;

use clap::{CommandFactory, FromArgMatches};
use fibril::cli::args::PLAUSIBLE;
use fibril::cli::config::RunConfig;
use fibril::cli::run::{CheckedRun, check_resolved};
use fibril::cli::{Cli, Command};
use fibril_host::backend::{BlockSize, KernelConfig, KernelKind};
use fibril_host::domain::MAX_CELLS;
use fibril_host::memory::{Placement, estimate};
use fibril_host::models::MODELS;
use fibril_host::time::MAX_STEPS;
use proptest::prelude::*;

/// A TOML number: ordinary, tiny, huge, zero, negative, or not a number.
fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => 1e-3..1e3f64,
        2 => (-320i32..320).prop_map(|e| 10f64.powi(e)),
        1 => any::<f64>(),
        1 => prop::sample::select(vec![0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE]),
    ]
}

/// A time: mostly a whole number of steps (so that runs get accepted and
/// reach the properties), sometimes any number.
#[derive(Debug, Clone, Copy)]
enum Time {
    Steps(i64),
    Ms(f64),
}

fn time() -> impl Strategy<Value = Time> {
    prop_oneof![12 => steps().prop_map(Time::Steps), 1 => number().prop_map(Time::Ms)]
}

/// A usual value most of the time, any number otherwise.
fn usual(values: &[f64]) -> impl Strategy<Value = f64> + use<> {
    prop_oneof![12 => prop::sample::select(values.to_vec()), 1 => number()]
}

/// A grid axis: small, large, zero or the type's limit.
fn cells() -> impl Strategy<Value = i64> {
    prop_oneof![
        24 => 1i64..40,
        1 => prop::sample::select(vec![0, -1, 1 << 20, 1 << 31, u32::MAX as i64, 1 << 40, i64::MAX]),
        1 => any::<u32>().prop_map(i64::from),
    ]
}

/// A count of steps: small, near the limits, negative.
fn steps() -> impl Strategy<Value = i64> {
    prop_oneof![
        24 => 1i64..5000,
        1 => prop::sample::select(vec![0, -1, (1 << 53) - 1, 1 << 53, (1 << 53) + 1, i64::MAX]),
        1 => any::<i64>(),
    ]
}

fn toml_float(x: f64) -> String {
    match x {
        x if x.is_nan() => "nan".into(),
        x if x == f64::INFINITY => "inf".into(),
        x if x == f64::NEG_INFINITY => "-inf".into(),
        // Debug prints the shortest text that reads back as x, with an exponent if needed.
        x => {
            let s = format!("{x:?}");
            if s.contains(['.', 'e', 'E']) { s } else { format!("{s}.0") }
        }
    }
}

/// One of the run's optional keys, present or not.
fn maybe<T: std::fmt::Debug + Clone>(s: impl Strategy<Value = T>) -> impl Strategy<Value = Option<T>> {
    prop::option::weighted(0.6, s)
}

/// A box stimulus: at, duration, period, count and its z range.
type BoxStimulus = (Time, Time, Option<Time>, Option<i64>, [i64; 2]);

#[derive(Debug, Clone)]
struct Input {
    model: usize,
    grid: [Option<i64>; 3],
    dx: Option<f64>,
    dt: Option<f64>,
    diffusion: Option<f64>,
    duration_ms: Option<Time>,
    steps: Option<i64>,
    snapshot_every_ms: Option<Time>,
    checkpoint_every_ms: Option<Time>,
    check_every_steps: Option<i64>,
    beats: Option<i64>,
    stimulus: Option<BoxStimulus>,
    scroll: bool,
    s2_ms: Option<Time>,
}

fn input() -> impl Strategy<Value = Input> {
    let grid = [maybe(cells()), maybe(cells()), maybe(cells())];
    let numerics = (
        maybe(usual(&[0.1, 0.25, 0.5, 0.6, 1.0])),
        maybe(usual(&[0.001, 0.005, 0.01, 0.025, 0.05])),
        maybe(usual(&[0.1, 0.5, 1.0])),
    );
    let run = (maybe(time()), maybe(steps()), maybe(time()), maybe(time()), maybe(steps()), maybe(1i64..=8));
    let stimulus = maybe((time(), time(), maybe(time()), maybe(steps()), [cells(), cells()]));
    let protocol = (prop::bool::weighted(0.15), maybe(time()));
    (0..MODELS.len(), grid, numerics, run, stimulus, protocol).prop_map(
        |(model, grid, (dx, dt, diffusion), run, stimulus, (scroll, s2_ms))| {
            let (duration_ms, steps, snapshot_every_ms, checkpoint_every_ms, check_every_steps, beats) = run;
            Input {
                model,
                grid,
                dx,
                dt,
                diffusion,
                duration_ms,
                // A file may not set both.
                steps: if duration_ms.is_some() { None } else { steps },
                snapshot_every_ms,
                checkpoint_every_ms,
                check_every_steps,
                beats,
                stimulus,
                scroll,
                s2_ms,
            }
        },
    )
}

impl Input {
    /// `t` in ms, on the run's clock when given in steps.
    fn ms(&self, t: Time) -> f64 {
        match t {
            Time::Steps(n) => n as f64 * self.dt.unwrap_or(MODELS[self.model].numerics.dt),
            Time::Ms(ms) => ms,
        }
    }

    fn toml(&self) -> String {
        let mut t = String::from("[grid]\n");
        for (key, n) in ["nx", "ny", "nz"].iter().zip(self.grid) {
            if let Some(n) = n {
                t += &format!("{key} = {n}\n");
            }
        }
        for (key, x) in [("dx", self.dx), ("dt", self.dt), ("diffusion", self.diffusion)] {
            if let Some(x) = x {
                t += &format!("{key} = {}\n", toml_float(x));
            }
        }
        t += &format!("[model]\nname = \"{}\"\n[run]\n", MODELS[self.model].name);
        for (key, x) in [
            ("duration_ms", self.duration_ms),
            ("checkpoint_every_ms", self.checkpoint_every_ms),
            ("s2_ms", self.s2_ms.filter(|_| self.scroll)),
        ] {
            if let Some(x) = x {
                t += &format!("{key} = {}\n", toml_float(self.ms(x)));
            }
        }
        for (key, n) in [("steps", self.steps), ("check_every_steps", self.check_every_steps)] {
            if let Some(n) = n {
                t += &format!("{key} = {n}\n");
            }
        }
        // The scroll protocol without s2_ms first simulates a column to
        // time S2 (up to seconds; tested in fibril-host's protocol module).
        if self.scroll && self.s2_ms.is_some() {
            t += "protocol = \"scroll\"\n";
        }
        t += "[output]\nactivation_map = true\n";
        if let Some(x) = self.snapshot_every_ms {
            t += &format!("snapshot_every_ms = {}\n", toml_float(self.ms(x)));
        }
        if let Some(n) = self.beats {
            t += &format!("beats = {n}\n");
        }
        if let Some((at_ms, duration_ms, period_ms, count, z)) = self.stimulus {
            t += &format!(
                "[[stimulus]]\nregion = \"box\"\nat_ms = {}\nduration_ms = {}\nz = [{}, {}]\n",
                toml_float(self.ms(at_ms)),
                toml_float(self.ms(duration_ms)),
                z[0],
                z[1]
            );
            if let Some(p) = period_ms {
                t += &format!("period_ms = {}\n", toml_float(self.ms(p)));
            }
            if let Some(c) = count {
                t += &format!("count = {c}\n");
            }
        }
        t
    }
}

/// `fibril run FILE` up to the point where it would touch the disk or a GPU.
fn check_text(text: &str) -> anyhow::Result<CheckedRun> {
    let matches = Cli::command().try_get_matches_from(["fibril", "run", "fibril.toml"])?;
    let Command::Run(args) = Cli::from_arg_matches(&matches)?.command else { unreachable!() };
    let sub = matches.subcommand_matches("run").unwrap();
    check_resolved(RunConfig::resolve_text(&args.options, sub, Path::new("fibril.toml"), text)?)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn any_configuration_is_refused_or_sound(input in input()) {
        let text = input.toml();
        let Ok(run) = check_text(&text) else { return Ok(()) };
        let d = &run.domain;
        let dims = d.dims();
        // The grid: exact products within the limit.
        let cells = dims.checked_cells().expect("an accepted grid's cells are counted exactly");
        prop_assert!((1..=MAX_CELLS).contains(&cells), "{cells} cells\n{text}");
        prop_assert_eq!(cells as usize, d.cells());
        // The numerics: finite, positive, stable.
        for x in [d.dx(), d.dt_ms(), d.diffusion()] {
            prop_assert!(x.is_finite() && x > 0.0, "{x}\n{text}");
        }
        // ... and plausible: no absurd spacing, step or coefficient runs.
        for (name, x) in [("dx", d.dx()), ("dt", d.dt_ms()), ("diffusion", d.diffusion())] {
            let (_, low, high, _) = PLAUSIBLE.iter().find(|b| b.0 == name).unwrap();
            prop_assert!((*low..=*high).contains(&x), "{name} = {x}\n{text}");
        }
        prop_assert!(d.diffusion_number() <= 1.0 / (2.0 * dims.axes() as f64) + 1e-12, "{text}");
        // The step counts: in range, and the duration is a whole number of steps.
        prop_assert!((1..=MAX_STEPS).contains(&run.total_steps), "{} steps\n{text}", run.total_steps);
        if let (Some(t), None) = (input.duration_ms, input.steps) {
            let ms = input.ms(t);
            let back = run.total_steps as f64 * d.dt_ms();
            prop_assert!((back - ms).abs() <= 1e-6 * ms.max(d.dt_ms()), "{ms} ms -> {} steps\n{text}", run.total_steps);
        }
        for every in [run.snapshot_every, run.checkpoint_every].into_iter().flatten()
            .chain(run.check_every)
        {
            prop_assert!((1..=MAX_STEPS).contains(&every), "an interval of {every} steps\n{text}");
        }
        // The maps: always asked for here, with a bounded number of beats.
        let recording = run.recording.expect("activation_map = true");
        prop_assert!(recording.beats.is_none_or(|b| (1..=64).contains(&b)), "{recording:?}\n{text}");
        // The stimuli: on the clock, and their schedule's arithmetic holds
        // over the whole run.
        for s in &run.stimuli.stimuli {
            prop_assert!(s.start_step <= MAX_STEPS && s.steps <= MAX_STEPS, "{s:?}\n{text}");
            if let Some(p) = s.period_steps {
                prop_assert!((1..=MAX_STEPS).contains(&p), "{s:?}\n{text}");
            }
            for from in [0, 1, s.start_step, s.start_step + 1, run.total_steps / 2, run.total_steps] {
                if let Some(next) = s.next_active(from) {
                    prop_assert!(next >= from, "{s:?}: next_active({from}) = {next}\n{text}");
                }
            }
        }
        // The memory estimate: counted without wrapping.
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        let info = d.model().info();
        let precision = fibril_host::Precision::F32;
        let e = estimate(info.name, dims, info.variables.len(), precision, naive, &Placement::Cpu, Some(&recording))
                .unwrap();
        let state = (cells as u128) * info.variables.len() as u128 * 4;
        prop_assert!(e.host_bytes as u128 >= state.min(u64::MAX as u128), "{e:?}\n{text}");
    }
}

/// The generated files are not refused wholesale: a good share of them
/// reach the properties above (else the property test would hold vacuously).
#[test]
fn the_generator_reaches_accepted_runs() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = input();
    let (mut accepted, total) = (0, 400);
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    for _ in 0..total {
        let input = strategy.new_tree(&mut runner).unwrap().current();
        match check_text(&input.toml()) {
            Ok(_) => accepted += 1,
            Err(e) => *reasons.entry(format!("{e:#}").chars().take(150).collect()).or_default() += 1,
        }
    }
    // One in five: most files carry at least one hostile value on purpose.
    assert!(accepted * 5 >= total, "only {accepted} of {total} generated files accepted: {reasons:#?}");
}

/// The properties above are not vacuous: a plain configuration passes
/// them, and each kind of bad value is refused.
#[test]
fn ordinary_files_pass_and_bad_values_are_refused() {
    let ok = "[grid]\nnx = 8\nny = 8\nnz = 8\n[run]\nduration_ms = 5\n";
    let run = check_text(ok).unwrap();
    assert_eq!(run.total_steps, 100);
    // D from the monodomain parameters, the model's usual D left aside.
    let monodomain = "[grid]\nsize = 8\nsigma = 0.1334\nchi = 140\ncm = 1\n[model]\nname = \"ten_tusscher_2006\"\n\
                      [run]\nduration_ms = 1\n";
    let run = check_text(monodomain).unwrap();
    assert!((run.domain.diffusion() - 0.1334 / 1.4).abs() < 1e-12, "{}", run.domain.diffusion());
    for bad in [
        "[grid]\nnx = 0\n",
        "[grid]\nnx = 4294967296\n",
        "[grid]\nnx = 4194304\nny = 2097152\nnz = 2097152\n",
        "[grid]\ndt = nan\n",
        "[grid]\ndt = 1e-300\n[run]\nduration_ms = 1\n",
        "[grid]\ndt = 1.0\n",
        "[run]\nsteps = 0\n",
        "[run]\nsteps = 9007199254740993\n",
        "[run]\ncheck_every_steps = 0\n",
        "[run]\nduration_ms = 0.07\n",
        "[output]\nsnapshot_every_ms = -1\n",
        "[[stimulus]]\nregion = \"box\"\nat_ms = 0.07\n",
        "[grid]\nsize = 8\ndx = 1e30\n",
        "[grid]\nsize = 8\ndiffusion = 1e30\n",
        "[grid]\nsize = 8\n[output]\nactivation_threshold = nan\n",
        "[grid]\nsize = 8\n[model]\nname = \"bocf\"\n[compute]\nbackend = \"cpu\"\nkernel = \"tower\"\n",
        "[grid]\nsize = 8\n[compute]\nsteps_per_pass = 9\n",
        "[grid]\nsize = 8\nsigma = 0.1334\nchi = 140\ncm = 1\ndiffusion = 0.1\n\
         [model]\nname = \"ten_tusscher_2006\"\n",
    ] {
        assert!(check_text(bad).is_err(), "accepted:\n{bad}");
    }
}

//! `--kernel tune`: the fastest kernel for this run, timed on its GPU.
//!
//! Which kernel is fastest depends on the device as much as on the model
//! and the grid: on an H100 the blocked kernel steps Mitchell-Schaeffer
//! 1.37x faster than one step per pass at 256^3 and Karma 1.15x at 512^3,
//! while on an H200, whose memory is faster, one step per pass wins for
//! both but Mitchell-Schaeffer (docs/BENCHMARKS.md, "The third form").
//! A rule cannot know that; a moment of timing can. Every kernel gives the
//! same bits, so the choice changes the speed and nothing else.
//!
//! The first round times the kernels (`ComputeArgs::tune_candidates`),
//! a second the settings around the fastest of them: its z-chunk or block
//! (`ComputeArgs::tune_refinements`); where a z-chunk step helped, the
//! walk goes on in its direction (`ComputeArgs::tune_next_chunk`); a
//! blocked winner in f32 is last tried in the two shapes (block height,
//! z-chunk) whose waves a count ranks best (`ComputeArgs::tune_blocked_shapes`).
//!
//! Each candidate is built from the run's own starting state on the
//! selected GPUs, stepped until a stretch of steps takes
//! [`STRETCH_S`], then timed over [`REPEATS`] such stretches (the best
//! counts: noise only slows a stretch down), and dropped before the next
//! is built, so the GPU holds one candidate's fields at a time. The
//! fields the candidates reach are thrown away; the run starts from the
//! state it had.

use std::time::Instant;

use anyhow::Context;
use fibril_host::backend::KernelConfig;
use fibril_host::{CellModel, Domain, Scalar, State};
use serde::Serialize;

use super::args::{ComputeArgs, KernelArg};
use super::select::{Selected, build_solver, check_memory};

/// The shortest timed stretch of steps, seconds: long enough that the
/// clock and the host's enqueueing are small next to it.
const STRETCH_S: f64 = 0.04;

/// How much faster than auto's choice another kernel must be in the
/// tuning to be taken. Figures closer than this are noise on a shared
/// machine: on an H200 a columns chunk 0.1% faster in the tuning was 2.8%
/// slower in the benchmark that followed (docs/BENCHMARKS.md,
/// "`--kernel tune`"), and auto's choice is the one whose speed is known.
pub const MARGIN: f64 = 1.02;

/// Timed stretches per candidate (after the ones that find the length).
const REPEATS: usize = 3;

/// The most steps one stretch takes, so that a tiny grid does not keep the
/// search for a long stretch going for ever.
const MAX_STRETCH_STEPS: u64 = 1 << 20;

/// One candidate's figure.
#[derive(Debug, Clone, Serialize)]
pub struct Timed {
    /// The kernel as the run reports it (`blocked 32x32 k3 z32`).
    pub kernel: String,
    /// The best of the timed stretches; `None` when it could not be built.
    pub steps_per_s: Option<f64>,
    /// Why the candidate was not timed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// What `--kernel tune` found.
#[derive(Debug, Clone, Serialize)]
pub struct Tuning {
    /// The kernel the run takes.
    pub chosen: String,
    /// `--kernel auto`'s choice, kept unless another was [`MARGIN`] faster.
    pub rule: String,
    pub timings: Vec<Timed>,
    /// Wall time of the tuning, building the candidates included.
    pub seconds: f64,
}

/// Times every candidate of `compute.tune_candidates` on `selected` from
/// `initial` and returns the fastest with the figures. Needs one process
/// and a GPU (the caller checks).
pub fn tune<M: CellModel, T: Scalar>(
    selected: &Selected,
    compute: &ComputeArgs,
    domain: &Domain,
    initial: &State<T>,
) -> anyhow::Result<(KernelConfig, Tuning)> {
    let started = Instant::now();
    let info = domain.model().info();
    let (dims, gpus) = (domain.dims(), selected.gpus());
    eprintln!(
        "fibril: --kernel tune: timing the kernels on {}x{}x{} (each built from the run's start; a few seconds, \
         about a minute at 1024^3 on an H100)",
        dims.nx, dims.ny, dims.nz
    );
    let mut timings = Vec::new();
    let mut timed = Vec::new();
    let mut best: Option<(KernelConfig, f64)> = None;
    let mut round = |kernels: Vec<KernelConfig>, best: &mut Option<(KernelConfig, f64)>| {
        for kernel in kernels {
            if timings.iter().any(|t: &Timed| t.kernel == kernel.to_string()) {
                continue; // timed in an earlier round
            }
            let result = check_memory(selected, domain, T::PRECISION, kernel, None)
                .and_then(|_| time_one::<M, T>(selected, compute, kernel, domain, initial));
            let (steps_per_s, skipped) = match result {
                Ok(v) => (Some(v), None),
                Err(e) => (None, Some(format!("{e:#}"))),
            };
            if let Some(v) = steps_per_s {
                timed.push((kernel, v));
                if best.is_none_or(|(_, b)| v > b) {
                    *best = Some((kernel, v));
                }
            }
            timings.push(Timed { kernel: kernel.to_string(), steps_per_s, skipped });
        }
    };
    // The kernels, then the settings around the fastest of them.
    round(compute.tune_candidates(info, T::PRECISION, dims, gpus), &mut best);
    if let Some((first, _)) = best {
        round(compute.tune_refinements(first, info, dims, gpus), &mut best);
        // While a z-chunk step helped, one more in its direction.
        let mut before = first;
        while let Some((now, _)) = best
            && let Some(next) = compute.tune_next_chunk(now, before, info, dims, gpus)
        {
            round(vec![next], &mut best);
            // Not better, or timed already (a walk back): the walk ends.
            if best.is_some_and(|(k, _)| k == now) {
                break;
            }
            before = now;
        }
        // Last, blocked shapes whose waves fill the SMs better (a ranking by
        // counts, so only its two best are timed).
        if let (Some((now, _)), Selected::Gpus(devices)) = (best, selected) {
            let sms = devices[0].info().multiprocessors;
            round(compute.tune_blocked_shapes(now, info, T::PRECISION, dims, gpus, sms), &mut best);
        }
    }
    let rule = ComputeArgs { kernel: KernelArg::Auto, ..compute.clone() }.kernel_config(
        info,
        T::PRECISION,
        dims,
        gpus,
    );
    let Some(chosen) = choose(&timed, rule) else {
        let why: Vec<String> = timings
            .iter()
            .map(|t| format!("{}: {}", t.kernel, t.skipped.as_deref().unwrap_or("?")))
            .collect();
        anyhow::bail!(
            "--kernel tune could build none of its kernels ({}); name one with --kernel",
            why.join("; ")
        );
    };
    let tuning = Tuning {
        chosen: chosen.to_string(),
        rule: rule.to_string(),
        timings,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((chosen, tuning))
}

/// The kernel to take from the timed ones: the fastest, unless `rule`
/// (auto's choice) was timed and the fastest beats it by less than
/// [`MARGIN`].
fn choose(timed: &[(KernelConfig, f64)], rule: KernelConfig) -> Option<KernelConfig> {
    let &(fastest, top) = timed.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let label = rule.to_string();
    match timed.iter().find(|(k, _)| k.to_string() == label) {
        Some(&(rule, figure)) if top < figure * MARGIN => Some(rule),
        _ => Some(fastest),
    }
}

/// One candidate's steps per second: built, warmed (its first stretches
/// find a length of [`STRETCH_S`] and capture what it replays), then the
/// best of [`REPEATS`] stretches of that length.
fn time_one<M: CellModel, T: Scalar>(
    selected: &Selected,
    compute: &ComputeArgs,
    kernel: KernelConfig,
    domain: &Domain,
    initial: &State<T>,
) -> anyhow::Result<f64> {
    let mut solver = build_solver::<M, T>(selected, compute, kernel, domain, initial)?;
    let mut stretch = |steps: u64| -> anyhow::Result<f64> {
        let t0 = Instant::now();
        solver.advance(steps)?;
        solver.synchronize()?;
        Ok(t0.elapsed().as_secs_f64())
    };
    stretch(4).context("first steps")?;
    let mut steps = 16u64;
    loop {
        let s = stretch(steps)?;
        if s >= STRETCH_S || steps >= MAX_STRETCH_STEPS {
            break;
        }
        // Aim past the target (at least double, at most 16x) so few tries find it.
        let aim = (steps as f64 * 1.25 * STRETCH_S / s.max(1e-6)).ceil() as u64;
        steps = aim.clamp(2 * steps, 16 * steps).min(MAX_STRETCH_STEPS);
    }
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        best = best.min(stretch(steps)?);
    }
    Ok(steps as f64 / best)
}

impl Tuning {
    /// The lines a run prints: every candidate's figure and the choice.
    pub fn report(&self) -> String {
        let why = if self.chosen == self.rule {
            format!(" (auto's; none was {:.0}% faster)", (MARGIN - 1.0) * 100.0)
        } else {
            String::new()
        };
        let mut lines = vec![format!(
            "fibril: --kernel tune timed {} kernels in {:.1} s; taking {}{why}",
            self.timings.len(),
            self.seconds,
            self.chosen
        )];
        for t in &self.timings {
            lines.push(match (t.steps_per_s, &t.skipped) {
                (Some(v), _) => format!("  {:<28} {v:>12.0} steps/s", t.kernel),
                (None, why) => format!("  {:<28} skipped: {}", t.kernel, why.as_deref().unwrap_or("")),
            });
        }
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use fibril_host::backend::{BlockSize, KernelKind};

    use super::*;

    fn kernel(kind: KernelKind, z_chunk: u32) -> KernelConfig {
        KernelConfig::new(kind, BlockSize { x: 32, y: 8 }).with_z_chunk(z_chunk)
    }

    #[test]
    fn auto_is_kept_unless_another_is_clearly_faster() {
        let (auto, naive, z2) =
            (kernel(KernelKind::Columns, 0), kernel(KernelKind::Naive, 0), kernel(KernelKind::Columns, 2));
        // Within the margin: auto's, even second or third.
        assert_eq!(choose(&[(auto, 100.0), (naive, 90.0), (z2, 101.9)], auto), Some(auto));
        // Beyond it: the fastest.
        assert_eq!(choose(&[(auto, 100.0), (naive, 90.0), (z2, 102.1)], auto), Some(z2));
        // auto's choice not timed (it could not run): the fastest.
        assert_eq!(choose(&[(naive, 90.0), (z2, 91.0)], auto), Some(z2));
        // auto's choice named with its default chunk is the same kernel.
        assert_eq!(
            choose(&[(kernel(KernelKind::Columns, 4), 100.0), (z2, 101.0)], auto).unwrap().to_string(),
            auto.to_string()
        );
        assert_eq!(choose(&[], auto), None);
    }
}

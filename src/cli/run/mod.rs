//! `fibril run`: a simulation with stimuli, snapshots, checkpoints, an
//! activation map and a summary.

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use clap::ArgMatches;
use fibril_host::backend::BackendKind;
use fibril_host::backend::KernelConfig;
use fibril_host::checkpoint::{self};
use fibril_host::driver::{self, Outcome, RunContext, Schedule};
use fibril_host::events::ecg::{EcgTrace, Electrode};
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::{StimulusSchedule, StimulusSpec};
use fibril_host::events::tips::SingularityRecorder;
use fibril_host::events::{EventStart, Events};
use fibril_host::io::queue::SnapshotQueue;
use fibril_host::io::snapshots::{Formats, SnapshotWriter};
use fibril_host::io::{OutputDir, ResumeFrom, npy, write_atomic, write_json_atomic};
use fibril_host::outputs::{EcgSampler, Sampler, Saved, TipsSampler, samplers};
use fibril_host::simulation::Mesh;
use fibril_host::time::short;
use fibril_host::units::UnitTags;
use fibril_host::{CellModel, Domain, GridDims, ModelVisitor, Scalar, dispatch};

use super::args::{self};
use super::config::{Resolved, RunConfig};
use super::interrupt::{self, INTERRUPTED_EXIT};
use super::mesh;
use super::params::ParamAssign;
use super::progress::progress_bar;
use super::resume::{
    Resume, check_resume, check_tips_resume, describe, resumed_singularities, resumed_trace,
};
use super::run_args::RunArgs;
use super::select::{Selected, build_solver, check_memory, select};
use super::summary::{ActivationRecord, EcgRecord, FibrosisRecord, ResumeRecord, RunStart, RunSummary};
use super::tissue::{self, TissueRun};
use super::tune::kernel_for;

pub use fibril_host::io::CHECKPOINT_FILE;

mod body;
mod check;
use body::Body;
use check::{check, check_protocol, resolve_protocol};

/// Everything checked and prepared; nothing simulated yet.
struct Plan {
    domain: Domain,
    schedule: Schedule,
    selected: Selected,
    kernel: KernelConfig,
    /// `None` on ranks 1.. of a multi-process run, which write nothing.
    out: Option<OutputDir>,
    stimuli: StimulusSchedule,
    /// The stimuli as specified, the protocol's included.
    stimulus_specs: Vec<StimulusSpec>,
    formats: Formats,
    /// Indices of the variables each snapshot writes.
    save: Vec<usize>,
    /// The maps the run records (asked for, or carried on from the
    /// checkpoint).
    recording: Option<Recording>,
    /// The pseudo-ECG's electrodes and sampling interval, steps.
    ecg: Option<(Vec<Electrode>, u64)>,
    /// The interval of the tip search, steps.
    tips: Option<u64>,
    resume: Option<Resume>,
    /// What the run steps.
    body: Body,
}

pub fn run(args: RunArgs, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    let mut resolved = RunConfig::resolve(&args.options, matches)?;
    let domain = complete(&mut resolved)?;
    if args.print_config {
        print!("{}", resolved.config.to_toml());
        return Ok(ExitCode::SUCCESS);
    }
    let plan = plan(&resolved, &args, domain?)?;
    let stop = interrupt::install()?;
    let model = plan.domain.model().info();
    let precision = resolved.config.compute.precision.resolve(model);
    dispatch(model, precision, Execute { config: &resolved.config, args: &args, plan, stop })
}

/// Fills in what the options left to the model and the protocol, and
/// builds the domain. The domain's error is returned apart (the outer
/// `Ok`), so that `--print-config` still prints a configuration whose
/// domain would be refused.
fn complete(resolved: &mut Resolved) -> anyhow::Result<anyhow::Result<(Domain, Body)>> {
    // The model's usual dx, dt and D fill what was not given, so that
    // --print-config shows (and a file of it reproduces) the run.
    let model = resolved.config.model.setup()?;
    resolved.config.grid.resolve(model.info());
    // Every parameter's effective value (preset and --param applied), so
    // that --print-config shows them and summary.json's config matches.
    resolved.config.model.parameters =
        model.parameters().into_iter().map(|p| ParamAssign { name: p.name.into(), value: p.value }).collect();
    resolved.config.model.preset = model.preset().map(String::from);
    let explicit = resolved.explicit.clone();
    let domain = match resolved.config.tissue.clone() {
        // The mesh sets the nodes and checks its own stability.
        _ if resolved.config.mesh.is_some() => {
            mesh::prepare(&mut resolved.config, &|k| explicit.contains(k)).map(|(d, t)| (d, Body::Tet(t)))
        }
        // The tissue sets the grid (a mask file's shape and spacing) and
        // checks its own stability.
        Some(t) => tissue::prepare(&t, &mut resolved.config.grid, &|k| explicit.contains(k), model.clone())
            .map(|(d, t)| (d, Body::Tissue(t))),
        // The kernel options are checked as a GPU would, whatever the
        // backend (the CPU would otherwise take a GPU's refusal silently).
        None => args::domain(&resolved.config.grid, &resolved.config.model).and_then(|d| {
            let (compute, info) = (&resolved.config.compute, d.model().info());
            compute.check_kernel_options(info, compute.precision.resolve(info), d.dims())?;
            Ok((d, Body::Grid))
        }),
    };
    check_protocol(&resolved.config)?;
    if let Ok((domain, _)) = &domain {
        resolve_protocol(&mut resolved.config, domain)?;
    }
    Ok(domain)
}

/// Everything `fibril run` checks of its configuration before it touches
/// the disk or the hardware: the model and its parameters, the grid and
/// the numerics, the protocol, the stimuli, the schedule and the outputs,
/// and that the effective configuration prints back as TOML. For the fuzz
/// targets: any configuration is either refused with an error or
/// accepted, never a panic.
pub fn check_resolved(mut resolved: Resolved) -> anyhow::Result<CheckedRun> {
    let domain = complete(&mut resolved)?;
    let _ = resolved.config.to_toml();
    let (domain, body) = domain?;
    let checked = check(&resolved.config, &domain, &body)?;
    Ok(CheckedRun {
        domain,
        total_steps: checked.total_steps,
        snapshot_every: checked.snapshot_every,
        checkpoint_every: checked.checkpoint_every,
        check_every: resolved.config.run.check_every_steps,
        recording: checked.recording,
        stimuli: checked.stimuli,
        config: resolved.config,
    })
}

/// Cell-updates between two NaN checks at least, on a GPU: each check
/// costs about 18 us there, left pending or not (a reduction, its flag's
/// copy and the end of a graph's replay; a check every 100 steps slowed a
/// 64^3 run on an H100 by about 8%, docs/history/BENCHMARKS-2026.md), so a stretch of
/// 2^27 cell-updates of the whole grid (about 1 ms at 64^3 on an H100)
/// keeps it near 1%.
const CHECK_CELL_UPDATES: u64 = 1 << 27;

/// The steps between NaN checks (and looks at Ctrl-C) when
/// `check_every_steps` is not given: 100 on the CPU, where a step of a
/// large grid takes long; on a GPU at least 100 and enough for
/// `CHECK_CELL_UPDATES`, in hundreds, at most 10,000 (a single cell
/// still answers Ctrl-C within a few tens of milliseconds).
pub fn check_every_steps(on_gpu: bool, dims: GridDims) -> u64 {
    if !on_gpu {
        return 100;
    }
    CHECK_CELL_UPDATES.div_ceil(dims.cells() as u64).div_ceil(100).clamp(1, 100) * 100
}

/// A run configuration that passed [`check_resolved`], with what it
/// resolved to (for the property tests).
#[derive(Debug)]
pub struct CheckedRun {
    pub domain: Domain,
    pub total_steps: u64,
    pub snapshot_every: Option<u64>,
    pub checkpoint_every: Option<u64>,
    /// As configured; `None` lets the backend choose ([`check_every_steps`]).
    pub check_every: Option<u64>,
    pub recording: Option<Recording>,
    pub stimuli: StimulusSchedule,
    pub config: RunConfig,
}

/// [`execute`] for the run's model and precision.
struct Execute<'a> {
    config: &'a RunConfig,
    args: &'a RunArgs,
    plan: Plan,
    stop: &'a AtomicBool,
}

impl ModelVisitor for Execute<'_> {
    type Output = anyhow::Result<ExitCode>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        execute::<M, T>(self.config, self.args, self.plan, self.stop)
    }
}

/// Validates every input, reads the checkpoint to resume from and probes
/// the hardware before any work starts.
fn plan(resolved: &Resolved, args: &RunArgs, (domain, body): (Domain, Body)) -> anyhow::Result<Plan> {
    let config = &resolved.config;
    if let Body::Tissue(_) = body {
        config.check_tissue_options()?;
    }
    let checked = check(config, &domain, &body)?;
    for note in &checked.notes {
        eprintln!("fibril: note: {note}");
    }
    let precision = config.compute.precision.resolve(domain.model().info());
    let resume = args
        .resume
        .as_ref()
        .map(|path| check_resume(path, &domain, precision, checked.total_steps, checked.recording))
        .transpose()?;
    // A resumed run carries on what its checkpoint carries: the maps go on
    // (with their own thresholds) whether or not they were asked for.
    let recording = match &resume {
        Some(r) => {
            if let (Some(saved), None) = (r.header.recording, checked.recording) {
                eprintln!("fibril: {} carries {}; continuing them", r.path.display(), describe(&saved));
            }
            r.header.recording
        }
        None => checked.recording,
    };
    if let (Some(r), Some(every)) = (&resume, checked.tips) {
        check_tips_resume(r, every, domain.dt_ms())?;
    }
    let mut selected = select(&config.compute, config.compute.single_gpu_count()?, &args.ranks)?;
    let kernel = config.compute.kernel_choice().config(
        domain.model().info(),
        precision,
        domain.dims(),
        selected.gpus(),
    );
    if !matches!(body, Body::Tet(_)) {
        // A mesh has its own node kernel, which splits over any GPUs.
        selected.say_kernel_fallback(&config.compute, domain.model().info(), &kernel);
        selected.check_split_kernel(&config.compute, &kernel)?;
        selected.check_tune(&config.compute)?;
    }
    let resume_from = args.resume.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    selected.bind_options(&format!("{}\n{resume_from}", config.to_toml()));
    if let Body::Grid = body {
        // A tissue's or a mesh's solver checks the memory of its own layout.
        check_memory(&selected, &domain, precision, kernel, recording.as_ref())?;
    }
    let out = match &resume {
        _ if !selected.is_root() => None,
        Some(r) => {
            // Without an output directory of its own, a resumed run
            // continues in the checkpoint's.
            let dir = if resolved.is_explicit("out") {
                config.output.out.clone()
            } else {
                r.path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf()
            };
            let from = ResumeFrom { checkpoint: &r.path, run: r.header.run };
            Some(OutputDir::reopen(&dir, from, config.output.overwrite)?)
        }
        None => Some(OutputDir::prepare(&config.output.out, config.output.overwrite)?),
    };
    let schedule = Schedule {
        start_step: resume.as_ref().map_or(0, |r| r.header.step),
        resumed: resume.is_some(),
        total_steps: checked.total_steps,
        snapshot_every: checked.snapshot_every,
        check_every: config
            .run
            .check_every_steps
            .unwrap_or_else(|| check_every_steps(!matches!(selected, Selected::Cpu), domain.dims())),
        checkpoint_every: checked.checkpoint_every,
    };
    Ok(Plan {
        domain,
        schedule,
        selected,
        kernel,
        out,
        stimuli: checked.stimuli,
        stimulus_specs: checked.stimulus_specs,
        formats: match &body {
            Body::Tet(t) => t.formats,
            _ => config.output.formats()?,
        },
        save: checked.save,
        recording,
        ecg: checked.ecg,
        tips: checked.tips,
        resume,
        body,
    })
}

fn execute<M: CellModel, T: Scalar>(
    config: &RunConfig,
    args: &RunArgs,
    mut plan: Plan,
    stop: &AtomicBool,
) -> anyhow::Result<ExitCode> {
    let Some(out) = plan.out.take() else {
        // A rank other than 0: the same loop, gathering what rank 0 writes.
        let mut started = start::<M, T>(config, &mut plan)?;
        let mut ctx = RunContext {
            writer: None,
            outputs: samplers(&mut started.ecg, &mut started.tips),
            checkpoint_path: None,
            stop,
            progress: &mut |_| {},
        };
        let report = driver::run(started.solver.as_mut(), &plan.domain, &plan.schedule, &mut ctx)
            .map_err(|f| f.error)?;
        // Collective: rank 0 gathers the maps to write them.
        started.solver.maps()?;
        return Ok(exit_code(report.outcome));
    };
    // From here on the directory holds this run: however the run ends,
    // summary.json says how, an error included.
    let begun = RunStart {
        domain: &plan.domain,
        start_step: plan.schedule.start_step,
        check_every: plan.schedule.check_every,
        stimulus_specs: &plan.stimulus_specs,
        formats: plan.formats,
        save: &plan.save,
        resumed_from: plan
            .resume
            .as_ref()
            .map(|r| ResumeRecord { checkpoint: r.path.clone(), step: r.header.step }),
        mesh: match &plan.body {
            Body::Tet(t) => Some(t.record.clone()),
            _ => None,
        },
    };
    let mut summary = RunSummary::begin::<M>(config, args, &begun, &out, T::PRECISION);
    match run_into::<M, T>(config, &mut plan, &out, &mut summary, stop) {
        Ok(()) => {}
        Err(e) => {
            summary.fail(&e);
            let path = out.file(SUMMARY_FILE).map(|p| (write_json_atomic(&p, &summary), p));
            match path {
                Ok((Ok(()), p)) => {
                    return Err(e.context(format!(
                        "the run stopped at step {} (t = {} ms); what it wrote before is in {}, and {} says \
                         status \"failed\"",
                        summary.steps,
                        short(summary.simulated_ms),
                        out.path().display(),
                        p.display()
                    )));
                }
                Ok((Err(w), p)) => eprintln!("fibril: could not write {} either: {w}", p.display()),
                Err(w) => eprintln!("fibril: could not write {SUMMARY_FILE} either: {w}"),
            }
            return Err(e);
        }
    }
    let path = out.file(SUMMARY_FILE)?;
    write_json_atomic(&path, &summary).with_context(|| format!("writing {}", path.display()))?;
    let domain = &plan.domain;
    match summary.outcome {
        Outcome::Completed => {
            if !config.output.quiet {
                println!("{}", summary.one_line(&out.path().display().to_string()));
            }
        }
        Outcome::NonFinite { step, t_ms, last_clean_step } => {
            eprintln!(
                "fibril: error: {} became NaN or infinite between step {last_clean_step} and step {step} \
                 (t = {} {}); the run stopped there. {} snapshot(s) written before it are in {} \
                 (summary.json says status \"non_finite\"). Reduce --dt or check the parameters.",
                M::INFO.variables[0].name,
                short(t_ms),
                domain.model().info().units.time,
                summary.snapshots.len(),
                out.path().display()
            );
        }
        Outcome::Interrupted { step, t_ms } => {
            let checkpoint = out.existing(CHECKPOINT_FILE);
            eprintln!(
                "fibril: interrupted at step {step} (t = {} {}); the state is saved in {} and \
                 summary.json says status \"interrupted\". Continue with the same options plus \
                 --resume {}",
                short(t_ms),
                domain.model().info().units.time,
                checkpoint.display(),
                checkpoint.display()
            );
        }
        Outcome::Failed { .. } => unreachable!("a failed run returns its error above"),
    }
    Ok(exit_code(summary.outcome))
}

/// The exit status of a run that ended with `outcome`.
fn exit_code(outcome: Outcome) -> ExitCode {
    match outcome {
        Outcome::Completed => ExitCode::SUCCESS,
        Outcome::NonFinite { .. } => ExitCode::from(3),
        Outcome::Interrupted { .. } => ExitCode::from(INTERRUPTED_EXIT),
        Outcome::Failed { .. } => ExitCode::FAILURE,
    }
}

/// The name of the run's summary in its directory.
const SUMMARY_FILE: &str = "summary.json";

/// A run's solver with its events installed, and its samplers.
struct Started<T: Scalar> {
    solver: Box<dyn fibril_host::solver::Solver<T>>,
    tips: Option<TipsSampler>,
    ecg: Option<EcgSampler>,
    tuning: Option<super::tune::Tuning>,
}

/// Builds the solver from the initial state (or the checkpoint's),
/// installs the events and prepares the samplers, continuing their traces
/// on a resume.
fn start<M: CellModel, T: Scalar>(config: &RunConfig, plan: &mut Plan) -> anyhow::Result<Started<T>> {
    let domain = &plan.domain;
    let schedule = &plan.schedule;
    let resume = &plan.resume;
    let (initial, maps, phase) = match resume {
        // The saved maps, if the checkpoint has them (`plan` said so).
        Some(r) => {
            let saved = checkpoint::decode::<T>(&r.path, &r.bytes)?;
            (saved.state, saved.maps, saved.phase)
        }
        None => {
            let initial = config.run.init.condition().state::<T>(M::INFO, domain.dims());
            let maps = plan.recording.map(|r| Maps::at_start(r, domain.dims(), initial.slice(0), 0.0));
            (initial, maps, None)
        }
    };
    let mut tuning = None;
    let mut solver = match &plan.body {
        Body::Tissue(t) => {
            tissue::build_solver::<M, T>(&plan.selected, t, &config.compute, domain, &initial)?
        }
        Body::Tet(t) => t.build_solver::<M, T>(&plan.selected, &config.compute, domain, &initial)?,
        Body::Grid => {
            let (kernel, found) = kernel_for::<M, T>(
                &plan.selected,
                &config.compute,
                plan.kernel,
                domain,
                &initial,
                plan.recording.as_ref(),
            )?;
            tuning = found;
            build_solver::<M, T>(&Mesh::Grid, &plan.selected, &config.compute, kernel, domain, &initial)?
        }
    };
    drop(initial);
    let events = Events { stimuli: std::mem::take(&mut plan.stimuli), recording: plan.recording };
    let start = if resume.is_some() { EventStart::resumed(schedule.start_step) } else { EventStart::NEW };
    let units = UnitTags::of(&M::INFO.units);
    let v_star = config.output.activation_threshold(M::INFO);
    let tips = match plan.tips {
        Some(every) => {
            let recorder = SingularityRecorder::new(domain.dims(), domain.dx(), v_star, units)?;
            let mut sampler = TipsSampler::new(every, recorder);
            if let Some(r) = resume {
                // `plan` checked that the checkpoint holds the memory.
                let phase = phase.expect("a checkpoint with a tip memory");
                let until_ms = schedule.start_step as f64 * domain.dt_ms();
                resumed_singularities(&r.path, &mut sampler.recorder, until_ms)?;
                solver.restore_phase_memory(&phase.field, &mut sampler.memory)?;
                sampler.last_sample = Some(phase.step);
            }
            Some(sampler)
        }
        None => None,
    };
    let ecg = match &plan.ecg {
        Some((electrodes, every)) => Some(EcgSampler {
            every: *every,
            probes: fibril_host::events::ecg::probes(electrodes, domain.dx()),
            trace: match resume {
                None => EcgTrace::new(electrodes, units),
                Some(r) => {
                    resumed_trace(&r.path, electrodes, schedule.start_step as f64 * domain.dt_ms(), units)?
                }
            },
        }),
        None => None,
    };
    solver.set_events(&events, start, maps.as_ref())?;
    Ok(Started { solver, tips, ecg, tuning })
}

/// The run of rank 0 (or of the only process) into its directory `out`,
/// filling in `summary` as it goes: what it holds when an error ends the
/// run is what the run did before it.
fn run_into<M: CellModel, T: Scalar>(
    config: &RunConfig,
    plan: &mut Plan,
    out: &OutputDir,
    summary: &mut RunSummary,
    stop: &AtomicBool,
) -> anyhow::Result<()> {
    let output = &config.output;
    if let Body::Tissue(TissueRun { fibrosis: Some(f), .. }) = &plan.body {
        let file = "fibrosis.npy";
        let path = out.file(file)?;
        let d = f.dims;
        let shape = [d.nz as usize, d.ny as usize, d.nx as usize];
        write_atomic(&path, &npy::encode_u8(&shape, &f.labels))
            .with_context(|| format!("writing {}", path.display()))?;
        summary.fibrosis = Some(FibrosisRecord {
            pattern: format!("{:?}", f.pattern),
            report: f.report,
            fraction: f.report.fraction(),
            file: file.into(),
        });
    }
    let mut started = start::<M, T>(config, plan)?;
    let solver = &mut started.solver;
    summary.backend = solver.kind().to_string();
    summary.device = solver.device_name();
    summary.method = solver.method();
    summary.kernel_tuning = started.tuning.take();
    let (domain, schedule) = (&plan.domain, &plan.schedule);
    let save = plan.save.clone();
    let writer = match &plan.resume {
        Some(r) => SnapshotWriter::resume(
            out.clone(),
            save,
            plan.formats,
            domain.dx(),
            (r.header.step, r.header.snapshots),
        )?,
        None => SnapshotWriter::new(out.clone(), save, plan.formats, domain.dx()),
    };
    let writer = match &plan.body {
        Body::Tet(t) => t.writer(writer),
        _ => writer,
    };
    // Behind the computation on the GPU; inline on the CPU, whose cores the
    // computation uses (see `SnapshotQueue`).
    let mut queue = match solver.kind() {
        BackendKind::Gpu => SnapshotQueue::background(writer),
        BackendKind::Cpu => SnapshotQueue::inline(writer),
    };
    let checkpoint_path = out.file(CHECKPOINT_FILE)?;
    let bar = progress_bar(schedule.total_steps, schedule.start_step, output.quiet);
    let mut progress = |s| bar.set_position(s);
    let mut ctx = RunContext {
        writer: Some(&mut queue),
        outputs: samplers(&mut started.ecg, &mut started.tips),
        checkpoint_path: Some(&checkpoint_path),
        stop,
        progress: &mut progress,
    };
    let ran = driver::run(solver.as_mut(), domain, schedule, &mut ctx);
    bar.finish_and_clear();
    let (report, failed) = match ran {
        Ok(report) => (report, None),
        Err(f) => (f.report, Some(f.error)),
    };
    let t0 = std::time::Instant::now();
    let waited_s = queue.waited_s;
    let (writer, finished) = queue.finish_keeping();
    let finish_s = t0.elapsed().as_secs_f64();
    summary.record(&report, domain, writer.records(), (finish_s, waited_s));
    if let Some(error) = failed {
        return Err(error.into());
    }
    finished?;

    let t0 = std::time::Instant::now();
    if let Some(maps) = solver.maps()? {
        summary.activation = Some(ActivationRecord {
            threshold: maps.recording.up,
            repolarisation_threshold: maps.recording.down,
            beats: maps.recording.beats,
            checked_every_step: true,
            activated_cells: maps.activated(),
            files: writer.write_maps(&maps, &M::INFO.units)?,
        });
    }
    if let Some(sampler) = &started.ecg {
        let files = Sampler::<T>::save(sampler, out, domain, Saved::AtEnd)?;
        summary.ecg = Some(EcgRecord {
            electrodes: sampler.trace.electrodes().to_vec(),
            every_steps: sampler.every,
            samples: sampler.trace.rows().len(),
            files,
        });
    }
    if let Some(sampler) = &started.tips {
        summary.tips_files = Sampler::<T>::save(sampler, out, domain, Saved::AtEnd)?;
    }
    summary.add_output_s(t0.elapsed().as_secs_f64());
    Ok(())
}

#[cfg(test)]
mod tests;

//! The checks of a run's configuration that need neither the disk nor
//! the hardware (step counts, protocol, stimuli, saved variables and
//! formats), made before anything is planned or written.

use anyhow::{Context, bail};
use fibril_host::Domain;
use fibril_host::events::ecg::{Electrode, check_electrodes, check_electrodes_in};
use fibril_host::events::protocol;
use fibril_host::events::recording::Recording;
use fibril_host::events::stimulus::{StimulusSchedule, StimulusSpec};
use fibril_host::tet::ecg::check_electrodes_on_mesh;
use fibril_host::time::{MAX_STEPS, short};

use super::body::Body;
use crate::cli::args::duration_steps;
use crate::cli::config::RunConfig;
use crate::cli::run_args::{InitArg, ProtocolArg};

/// Fills in the scroll protocol's S2 time when it was not given.
pub(super) fn resolve_protocol(config: &mut RunConfig, domain: &Domain) -> anyhow::Result<()> {
    if config.run.protocol == ProtocolArg::Scroll && config.run.s2_ms.is_none() {
        let step = protocol::scroll_s2_step(domain)?;
        // Rounded to 1e-9 ms so that it prints as a short decimal (71.3,
        // not 71.30000000000001) and converts back to the same step.
        let t_ms = (step as f64 * domain.dt_ms() * 1e9).round() / 1e9;
        config.run.s2_ms = Some(t_ms);
    }
    Ok(())
}

/// Refuses protocol options that do not go together, before the S2 time
/// is searched for (which would otherwise be blamed).
pub(super) fn check_protocol(config: &RunConfig) -> anyhow::Result<()> {
    match config.run.protocol {
        ProtocolArg::None => {
            if config.run.s2_ms.is_some() {
                bail!("--s2-ms (s2_ms) only applies with --protocol scroll");
            }
        }
        ProtocolArg::Scroll => {
            if let Some(ms) = config.run.s2_ms
                && !(ms.is_finite() && ms >= 0.0)
            {
                bail!("--s2-ms {ms} (s2_ms) is not a time; give the S2's time in ms, 0 or more");
            }
            if config.run.init != InitArg::Planar {
                bail!(
                    "--protocol scroll starts from the planar S1 wave; use --init planar (the default) \
                     instead of --init {}",
                    config.run.init.name()
                );
            }
            protocol::check_plane(config.grid.dims())?;
        }
    }
    Ok(())
}

/// The stimuli of the run: the protocol's (the planar S1 of a model
/// stimulated by a current, the scroll protocol's S2), then the
/// configured ones.
fn stimulus_specs(config: &RunConfig, model: &kernels_gpu::ModelInfo) -> anyhow::Result<Vec<StimulusSpec>> {
    check_protocol(config)?;
    let mut specs = Vec::new();
    if config.run.init == InitArg::Planar
        && let Some(s1) = protocol::planar_s1(model)
    {
        specs.push(s1);
    }
    if config.run.protocol == ProtocolArg::Scroll {
        specs.push(protocol::scroll_s2(config.run.s2_ms.expect("resolved before planning")));
    }
    specs.extend(config.stimulus.iter().cloned());
    // Current densities (uA/cm^3) become currents (uA/uF) in the
    // membrane of --chi and --cm.
    let membrane = config.grid.membrane();
    let specs = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| spec.with_membrane(i + 1, membrane))
        .collect::<Result<_, _>>()
        .context("invalid stimulus")?;
    Ok(specs)
}

/// What [`check`] finds: the run's schedule, stimuli and outputs.
pub(super) struct Checked {
    pub(super) total_steps: u64,
    pub(super) snapshot_every: Option<u64>,
    pub(super) checkpoint_every: Option<u64>,
    pub(super) stimulus_specs: Vec<StimulusSpec>,
    pub(super) stimuli: StimulusSchedule,
    /// Said before the run starts (options accepted that will do nothing).
    pub(super) notes: Vec<String>,
    pub(super) save: Vec<usize>,
    pub(super) recording: Option<Recording>,
    pub(super) ecg: Option<(Vec<Electrode>, u64)>,
    pub(super) tips: Option<u64>,
}

/// The checks of a configuration that need neither the disk nor the
/// hardware: step counts, the stimuli, the saved variables and formats.
pub(super) fn check(config: &RunConfig, domain: &Domain, body: &Body) -> anyhow::Result<Checked> {
    let dt = domain.dt_ms();
    let model = domain.model().info();
    let total_steps = match config.run.steps {
        Some(n) if !(1..=MAX_STEPS).contains(&n) => {
            bail!("steps = {n}: a run takes from 1 to {MAX_STEPS} steps")
        }
        Some(n) => n,
        None => duration_steps("--duration-ms", config.run.duration_ms, dt)?,
    };
    let snapshot_every = config
        .output
        .snapshot_every_ms
        .map(|ms| duration_steps("--snapshot-every-ms", ms, dt))
        .transpose()?;
    config.compute.check_retune()?;
    if let Some(n) = config.run.check_every_steps
        && !(1..=MAX_STEPS).contains(&n)
    {
        bail!("check_every_steps = {n}: give a whole number of steps from 1 to {MAX_STEPS}");
    }
    let checkpoint_every = config
        .run
        .checkpoint_every_ms
        .map(|ms| duration_steps("--checkpoint-every-ms", ms, dt))
        .transpose()?;
    let stimulus_specs = stimulus_specs(config, model)?;
    let stimuli = match body {
        Body::Tet(t) => t.stimuli(&stimulus_specs, dt, model)?,
        _ => StimulusSchedule::compile(&stimulus_specs, domain.dims(), dt, model)
            .context("invalid stimulus")?,
    };
    let from_protocol = stimulus_specs.len() - config.stimulus.len();
    let mut notes = Vec::new();
    for (i, s) in stimuli.stimuli.iter().enumerate() {
        if s.start_step > total_steps {
            let which = if i < from_protocol {
                "the scroll protocol's S2 (--s2-ms)".to_string()
            } else {
                format!("stimulus {} (region {})", i + 1 - from_protocol, s.kind.name())
            };
            notes.push(format!(
                "{which} starts at {} ms, after the run ends at {} ms: it will not fire",
                short(s.start_step as f64 * dt),
                short(total_steps as f64 * dt)
            ));
        }
    }
    if config.output.format.is_empty() {
        bail!("--format needs at least one of npy, vti, png");
    }
    let save = config.output.saved_variables(model)?;
    let recording = config.output.recording(model)?;
    let ecg = match (&config.electrode[..], config.output.ecg_every_ms) {
        ([], None) => None,
        ([], Some(_)) => bail!("--ecg-every-ms needs at least one electrode (--electrode or [[electrode]])"),
        (electrodes, every) => {
            let precision = config.compute.precision.resolve(model);
            let kind = config.compute.kernel_choice().config(model, precision, domain.dims(), 1).kind;
            match body {
                Body::Tet(t) => check_electrodes_on_mesh(electrodes, &t.problem.mesh, domain.dx())?,
                // In a tissue's box, only the tissue's cells are too close.
                Body::Tissue(t) => {
                    check_electrodes_in(electrodes, domain.dims(), domain.dx(), Some(&t.op.mask()))?
                }
                Body::Grid => check_electrodes(electrodes, domain.dims(), domain.dx())?,
            }
            if kind.uses_towers()
                && config.compute.backend != crate::cli::args::BackendArg::Cpu
                && matches!(body, Body::Grid)
            {
                bail!(
                    "the pseudo-ECG reads the row-major layout, and --kernel {kind} keeps the tower layout; \
                     use --kernel naive or csw"
                );
            }
            let every = duration_steps("--ecg-every-ms", every.unwrap_or(1.0), dt)?;
            Some((electrodes.to_vec(), every))
        }
    };
    let tips = match config.output.tips_every_ms {
        None => None,
        Some(ms) => {
            if domain.dims().axes() < 2 {
                bail!("--tips-every-ms needs a sheet or a volume; this grid is a cable or a single cell");
            }
            Some(duration_steps("--tips-every-ms", ms, dt)?)
        }
    };
    Ok(Checked {
        total_steps,
        snapshot_every,
        checkpoint_every,
        stimulus_specs,
        stimuli,
        notes,
        save,
        recording,
        ecg,
        tips,
    })
}

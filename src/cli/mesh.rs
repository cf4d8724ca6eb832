//! `fibril run` on a tetrahedral mesh: the `[mesh]` section of a run
//! configuration (or `--mesh FILE`). The mesh is read and checked, its
//! nodes renumbered and its operator assembled (`fibril_host::tet`), the
//! simulation built through the library ([`SimulationBuilder::tet_mesh`])
//! and run through the run loop, which writes the node fields behind the
//! stepping (`.vtu` with `nodes.pvd`, or `.npy`), in the file's node order.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, bail};
use fibril_host::driver::Outcome;
use fibril_host::events::stimulus::{RegionKind, StimulusSpec};
use fibril_host::io::queue::SnapshotQueue;
use fibril_host::io::snapshots::{Formats, SnapshotWriter};
use fibril_host::io::{OutputDir, write_json_atomic};
use fibril_host::simulation::{Backend, SimulationBuilder, monodomain_diffusion};
use fibril_host::tet::read::carp::read_vtx;
use fibril_host::tet::regions::NodeSelection;
use fibril_host::tet::{Diffusivity, ReadOptions, TetProblem, Units, load_mesh};
use fibril_host::{Precision, Scalar};
use serde::Serialize;

use super::args::RankArgs;
use super::args::harmonic_diffusions;
use super::config::RunConfig;
use super::run_args::{InitArg, ProtocolArg};
use super::select::{Selected, select};

/// What a mesh run does not offer, refused before any work starts.
fn check_options(config: &RunConfig, explicit: &dyn Fn(&str) -> bool) -> anyhow::Result<()> {
    let refuse = |what: &str, fix: &str| bail!("{what} is not available on a tetrahedral mesh; {fix}");
    if config.tissue.is_some() {
        refuse("[tissue]", "give either [mesh] or [tissue]")?;
    }
    if explicit("init") && config.run.init == InitArg::Planar {
        refuse("--init planar", "a mesh starts from rest; stimulate nodes with [[stimulus]]")?;
    }
    if config.run.protocol != ProtocolArg::None {
        refuse("--protocol", "stimulate nodes with [[stimulus]]")?;
    }
    if !config.electrode.is_empty() || config.output.ecg_every_ms.is_some() {
        refuse("the pseudo-ECG", "drop [[electrode]] and --ecg-every-ms")?;
    }
    if config.output.tips_every_ms.is_some() {
        refuse("tip tracking (it needs a grid's plaquettes)", "drop --tips-every-ms")?;
    }
    if config.run.checkpoint_every_ms.is_some() {
        refuse("checkpointing", "drop --checkpoint-every-ms")?;
    }
    for key in ["size", "nx", "ny", "nz", "dx", "kernel"] {
        if explicit(key) {
            refuse(&format!("--{key}"), "the mesh sets the nodes and has its own kernel; drop it")?;
        }
    }
    Ok(())
}

/// The node selection of a `[[stimulus]]` table on a mesh: a box
/// (`lo_mm`, `hi_mm`), a ball (`center` and `radius` in mm), a node list
/// (`region = "mask"` with an openCARP `.vtx` file) or the nodes of a
/// region label (`region = "mask"` with `label`).
fn node_selection(index: usize, spec: &StimulusSpec) -> anyhow::Result<NodeSelection> {
    let grid_fields = spec.x.is_some() || spec.y.is_some() || spec.z.is_some() || spec.x_frac.is_some();
    let selection = match (spec.region, grid_fields) {
        (RegionKind::Box, false) => match (spec.lo_mm, spec.hi_mm, spec.center, &spec.file, spec.label) {
            (Some(lo), Some(hi), None, None, None) => Some(NodeSelection::BoxMm { lo, hi }),
            _ => None,
        },
        (RegionKind::Sphere, false) => match (spec.center, spec.radius, spec.lo_mm, &spec.file, spec.label) {
            (Some(center_mm), Some(radius_mm), None, None, None) => {
                Some(NodeSelection::SphereMm { center_mm, radius_mm })
            }
            _ => None,
        },
        (RegionKind::Mask, false) => match (&spec.file, spec.label, spec.lo_mm, spec.center) {
            (Some(file), None, None, None) if file.extension().is_some_and(|e| e == "vtx") => {
                Some(NodeSelection::Nodes(read_vtx(file)?))
            }
            (None, Some(label), None, None) => Some(NodeSelection::Label(label)),
            _ => None,
        },
        _ => None,
    };
    selection.ok_or_else(|| {
        anyhow::anyhow!(
            "stimulus {index}: on a tetrahedral mesh a stimulus is region = \"box\" with lo_mm and hi_mm, \
             region = \"sphere\" with center and radius in mm, or region = \"mask\" with file = a .vtx node \
             list (openCARP) or label = a region label"
        )
    })
}

/// Diffusivities of the elements by region label, mm^2/ms.
fn diffusivities(
    config: &RunConfig,
    model: &fibril_host::ModelInfo,
) -> anyhow::Result<impl Fn(i32) -> Option<Diffusivity> + use<>> {
    let mesh = config.mesh.as_ref().expect("a mesh run");
    let membrane = config.grid.membrane();
    let d_of = |sigma: f64| -> anyhow::Result<f64> {
        let Some(m) = membrane else {
            bail!("conductivities in [mesh] need the membrane: give --chi (1/mm) and --cm (uF/cm^2)")
        };
        if !(sigma > 0.0 && sigma.is_finite()) {
            bail!("a conductivity of {sigma} S/m in [mesh]: give a positive number");
        }
        Ok(monodomain_diffusion(sigma, m))
    };
    let triple = |l: f64, t: Option<f64>, n: Option<f64>| -> anyhow::Result<Diffusivity> {
        let t = t.unwrap_or(l);
        Ok(Diffusivity { fibre: d_of(l)?, sheet: d_of(t)?, normal: d_of(n.unwrap_or(t))? })
    };
    let default = match (&mesh.sigma_i, &mesh.sigma_e, mesh.sigma_l) {
        (None, None, Some(l)) => triple(l, mesh.sigma_t, mesh.sigma_n)?,
        (None, None, None) => Diffusivity::isotropic(config.grid.diffusion.expect("resolved from the model")),
        (Some(si), Some(se), None) if mesh.sigma_t.is_none() && mesh.sigma_n.is_none() => {
            let d = harmonic_diffusions("[mesh]", si, se, &config.grid, model)?;
            Diffusivity { fibre: d[0], sheet: d[1], normal: d.get(2).copied().unwrap_or(d[1]) }
        }
        (Some(_), Some(_), _) => {
            bail!("[mesh] gives both sigma_l/t/n and sigma_i/sigma_e; keep one of the two")
        }
        _ => bail!("[mesh] sigma_i and sigma_e go together"),
    };
    let by_label: Vec<(i32, Diffusivity)> = mesh
        .region
        .iter()
        .map(|r| Ok((r.label, triple(r.sigma_l, r.sigma_t, r.sigma_n)?)))
        .collect::<anyhow::Result<_>>()?;
    Ok(move |label| Some(by_label.iter().find(|(l, _)| *l == label).map_or(default, |(_, d)| *d)))
}

/// Runs the configuration's mesh; `explicit` says which keys were given.
pub fn run(
    config: &RunConfig,
    explicit: &dyn Fn(&str) -> bool,
    stop: &AtomicBool,
) -> anyhow::Result<ExitCode> {
    check_options(config, explicit)?;
    let mesh_args = config.mesh.as_ref().expect("a mesh run");
    let formats = if explicit("format") { config.output.formats()? } else { Formats::from_names(&["vtu"])? };
    if let Some(unfit) = formats.unfit(true) {
        bail!(
            "--format {unfit} is for grids; a tetrahedral mesh writes vtu (ParaView, with nodes.pvd) and npy"
        );
    }
    let model = config.model.setup()?;
    let info = model.info();
    let units =
        mesh_args.units.as_deref().map(str::parse::<Units>).transpose().map_err(anyhow::Error::msg)?;
    let read = ReadOptions { units, region_array: mesh_args.region_array.clone() };
    let started = Instant::now();
    let (mesh, report) = load_mesh(&mesh_args.file, &read)?;
    let diffusivity = diffusivities(config, info)?;
    let problem = Arc::new(TetProblem::new(&mesh, mesh_args.node_order.order(), &diffusivity)?);
    drop(mesh);
    let prepare_s = started.elapsed().as_secs_f64();
    let recording = config.output.recording(info)?;
    let save = config.output.saved_variables(info)?;
    let mut builder = SimulationBuilder::new(info.name)
        .tet_mesh(problem.clone())
        .dt_ms(config.grid.dt.unwrap_or(info.numerics.dt))
        .backend(backend(config)?)
        .kernels(crate::PTX);
    if let Some(p) = &config.model.preset {
        builder = builder.preset(p);
    }
    for p in &config.model.parameters {
        builder = builder.parameter(&p.name, p.value);
    }
    if let Some(m) = config.grid.membrane() {
        builder = builder.membrane(m);
    }
    if let Some(r) = recording {
        builder = builder.maps(r);
    }
    if let Some(every) = config.run.check_every_steps {
        builder = builder.check_every_steps(every);
    }
    for (i, spec) in config.stimulus.iter().enumerate() {
        builder = builder.node_stimulus(spec.clone(), node_selection(i + 1, spec)?);
    }
    let quiet = config.output.quiet;
    if !quiet {
        eprintln!("{report}");
    }
    let precision = config.compute.precision.resolve(info);
    let duration_ms = duration_ms(config, info.numerics.dt);
    let run = MeshRun { builder, save, formats, duration_ms, prepare_s, stop };
    let summary = match precision {
        Precision::F32 => run.go::<f32>(config)?,
        Precision::F64 => run.go::<f64>(config)?,
    };
    if !quiet {
        eprintln!(
            "{} nodes, {} steps in {:.3} s ({:.3e} node-steps/s) on {}; wrote {}",
            summary.nodes,
            summary.steps,
            summary.stepping_s,
            summary.node_steps_per_s,
            summary.device,
            config.output.out.display()
        );
    }
    Ok(match summary.outcome {
        Outcome::Completed => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    })
}

/// The run's length: `--steps` steps or `--duration-ms`.
fn duration_ms(config: &RunConfig, model_dt: f64) -> f64 {
    let dt = config.grid.dt.unwrap_or(model_dt);
    config.run.steps.map_or(config.run.duration_ms, |s| s as f64 * dt)
}

/// Where the mesh runs: the command line's own choice of backend and GPUs
/// (`select`: `--backend`, `--device`, `--gpus`, `--gpu-ids`), as the
/// library's backend; several GPUs are refused by the library's factory.
fn backend(config: &RunConfig) -> anyhow::Result<Backend> {
    let count = config.compute.single_gpu_count()?;
    Ok(match select(&config.compute, count, &RankArgs::default())? {
        Selected::Cpu => Backend::Cpu,
        Selected::Gpus(gpus) => Backend::Gpus(gpus.iter().map(|g| g.info().ordinal).collect()),
        Selected::Rank { .. } => unreachable!("no rank options were given"),
    })
}

/// A mesh run's record in `summary.json`.
#[derive(Debug, Serialize)]
struct MeshSummary {
    mesh: PathBuf,
    nodes: usize,
    elements: usize,
    model: String,
    precision: &'static str,
    device: String,
    method: String,
    dt_ms: f64,
    steps: u64,
    outcome: Outcome,
    prepare_s: f64,
    stepping_s: f64,
    output_s: f64,
    node_steps_per_s: f64,
    files: Vec<String>,
}

struct MeshRun<'a> {
    builder: SimulationBuilder,
    save: Vec<usize>,
    formats: Formats,
    duration_ms: f64,
    prepare_s: f64,
    stop: &'a AtomicBool,
}

impl MeshRun<'_> {
    fn go<T: Scalar>(self, config: &RunConfig) -> anyhow::Result<MeshSummary> {
        // Built (the step checked against the mesh, the stimuli placed)
        // before the output directory is touched.
        let mut sim = self.builder.build::<T>()?;
        let problem = sim.mesh().expect("built on a mesh").clone();
        let out = OutputDir::prepare(&config.output.out, config.output.overwrite)?;
        let writer = SnapshotWriter::new(out, self.save, self.formats, problem.mean_edge_mm())
            .on_mesh(Arc::new(problem.node_mesh()));
        let mut queue = SnapshotQueue::background(writer);
        let every = config.output.snapshot_every_ms;
        let report = sim.run_writing(self.duration_ms, every, &mut queue, self.stop, &mut |_| {})?;
        let writer = queue.finish()?;
        let mut files: Vec<String> = writer.records().iter().flat_map(|r| r.files.clone()).collect();
        if let Some(maps) = sim.maps()? {
            files.extend(writer.write_maps(&maps, &sim.domain().model().info().units)?);
        }
        let (_, device, method) = sim.placement();
        let nodes = problem.nodes();
        let summary = MeshSummary {
            mesh: config.mesh.as_ref().expect("a mesh run").file.clone(),
            nodes,
            elements: problem.mesh.elements(),
            model: sim.domain().model().info().name.to_string(),
            precision: T::NAME,
            device,
            method,
            dt_ms: sim.domain().dt_ms(),
            steps: report.steps_advanced,
            outcome: report.outcome,
            prepare_s: self.prepare_s,
            stepping_s: report.stepping_s,
            output_s: report.output_s,
            node_steps_per_s: nodes as f64 * report.steps_advanced as f64 / report.stepping_s.max(1e-12),
            files,
        };
        let path = writer.dir().file("summary.json").context("recording summary.json")?;
        write_json_atomic(&path, &summary).with_context(|| format!("writing {}", path.display()))?;
        Ok(summary)
    }
}

//! `fibril run` on a tetrahedral mesh: the `[mesh]` section of a run
//! configuration (or `--mesh FILE`). The mesh is read and checked, its
//! nodes renumbered and its operator assembled (`fibril_host::tet`), its
//! stimuli placed on nodes; the run itself is `fibril run`'s own (the
//! run loop, snapshots behind the stepping in the file's node order,
//! maps, the pseudo-ECG, checkpoints and resume, the summary), with the
//! mesh's solvers from the library's factory.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, bail};
use fibril_host::cell_params::{
    ParameterField, ParameterMap, RegionParameters, field_index, resolve_on_mesh,
};
use fibril_host::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use fibril_host::io::snapshots::{Formats, SnapshotWriter};
use fibril_host::simulation::{Mesh, PlacementError, monodomain_diffusion};
use fibril_host::solver::Solver;
use fibril_host::tet::read::carp::read_vtx;
use fibril_host::tet::read::node_field::read_node_field;
use fibril_host::tet::regions::{NodeSelection, stimulus_on};
use fibril_host::tet::{Diffusivity, ReadOptions, TetProblem, Units, load_mesh};
use fibril_host::{CellModel, Domain, ModelInfo, Scalar, State};
use serde::Serialize;

use super::args::{ComputeArgs, harmonic_diffusions};
use super::config::RunConfig;
use super::mesh_args::MeshArgs;
use super::run_args::{InitArg, ProtocolArg};
use super::select::Selected;

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
    if config.output.tips_every_ms.is_some() {
        refuse("tip tracking (it needs a grid's plaquettes)", "drop --tips-every-ms")?;
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
    let mut by_label: Vec<(i32, Diffusivity)> = Vec::new();
    for r in &mesh.region {
        match r.sigma_l {
            Some(l) => by_label.push((r.label, triple(l, r.sigma_t, r.sigma_n)?)),
            None if r.sigma_t.is_some() || r.sigma_n.is_some() => {
                bail!("[[mesh.region]] label = {}: give sigma_l with sigma_t and sigma_n", r.label)
            }
            None => {}
        }
    }
    Ok(move |label| Some(by_label.iter().find(|(l, _)| *l == label).map_or(default, |(_, d)| *d)))
}

/// The regions' parameters (`[[mesh.region]]` preset and parameters),
/// and the names of the parameter fields checked against the model, before
/// the mesh or any field is read.
fn region_parameters(mesh: &MeshArgs, model: &ModelInfo) -> anyhow::Result<Vec<RegionParameters>> {
    for name in mesh.parameter_fields.keys() {
        field_index(model, name).context("[mesh.parameter_fields]")?;
    }
    let mut regions = Vec::new();
    for r in mesh.region.iter().filter(|r| r.preset.is_some() || !r.parameters.is_empty()) {
        let Ok(label) = u8::try_from(r.label) else {
            bail!(
                "[[mesh.region]] label = {}: a region with a preset or parameters takes a label 0 to 255; \
                 renumber the mesh's tags",
                r.label
            )
        };
        if regions.iter().any(|p: &RegionParameters| p.label == label) {
            bail!("[[mesh.region]] label = {label} is given twice; keep one table per label");
        }
        let values = r.parameters.iter().map(|(k, v)| (k.clone(), *v)).collect();
        regions.push(RegionParameters { label, preset: r.preset.clone(), values });
    }
    Ok(regions)
}

/// The parameter fields of a mesh of `nodes` nodes, read from their files.
fn parameter_fields(mesh: &MeshArgs, nodes: usize) -> anyhow::Result<Vec<ParameterField>> {
    let read = |(name, path): (&String, &PathBuf)| {
        let values = read_node_field(path, name, nodes)
            .with_context(|| format!("reading the parameter field {name}"))?;
        Ok(ParameterField { name: name.clone(), values })
    };
    mesh.parameter_fields.iter().map(read).collect()
}

/// A mesh run, prepared: the problem (read, checked, renumbered, its
/// operator assembled and its step checked), the node selections of the
/// stimuli and the formats it writes.
pub struct TetRun {
    pub problem: Arc<TetProblem>,
    /// The node selection of each `[[stimulus]]`, in order.
    pub selections: Vec<NodeSelection>,
    pub formats: Formats,
    pub record: MeshRecord,
}

/// The mesh of a run, as `summary.json` records it.
#[derive(Clone, Debug, Serialize)]
pub struct MeshRecord {
    pub file: PathBuf,
    pub nodes: usize,
    pub elements: usize,
    /// The solvers' node order.
    pub node_order: &'static str,
    /// The mean edge length, mm (the domain's dx).
    pub mean_edge_mm: f64,
    /// Reading, checking, renumbering and assembling, seconds.
    pub prepare_s: f64,
}

/// Reads and prepares the configuration's mesh: what a mesh cannot do is
/// refused first, the time step is checked against the operator, and the
/// run starts from rest (`init` set so that `--print-config` says so);
/// `explicit` says which keys were given. The domain is the mesh's node
/// line, with the operator's fingerprint (a checkpoint of another mesh is
/// refused on resume).
pub fn prepare(config: &mut RunConfig, explicit: &dyn Fn(&str) -> bool) -> anyhow::Result<(Domain, TetRun)> {
    check_options(config, explicit)?;
    config.run.init = InitArg::Rest;
    let formats = if explicit("format") { config.output.formats()? } else { Formats::from_names(&["vtu"])? };
    if let Some(unfit) = formats.unfit(true) {
        bail!(
            "--format {unfit} is for grids; a tetrahedral mesh writes vtu (ParaView, with nodes.pvd) and npy"
        );
    }
    let mesh_args = config.mesh.as_ref().expect("a mesh run");
    let selections = config
        .stimulus
        .iter()
        .enumerate()
        .map(|(i, spec)| node_selection(i + 1, spec))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let model = config.model.setup()?;
    let units =
        mesh_args.units.as_deref().map(str::parse::<Units>).transpose().map_err(anyhow::Error::msg)?;
    let regions = region_parameters(mesh_args, model.info())?;
    let read = ReadOptions { units, region_array: mesh_args.region_array.clone() };
    let started = Instant::now();
    let (mesh, report) = load_mesh(&mesh_args.file, &read)?;
    let diffusivity = diffusivities(config, model.info())?;
    let order = mesh_args.node_order;
    let problem = Arc::new(TetProblem::new(&mesh, order.order(), &diffusivity)?);
    drop(mesh);
    let dt = config.grid.dt.expect("resolved from the model");
    problem.check_dt(dt)?;
    let d = config.grid.diffusion.expect("resolved from the model");
    let map = ParameterMap { regions, fields: parameter_fields(mesh_args, problem.mesh.nodes())? };
    let sets = resolve_on_mesh(&model, &map, &problem).context("invalid parameters of the mesh")?;
    let mut domain = Domain::with_own_operator(problem.line(), problem.mean_edge_mm(), dt, d, model)?
        .with_operator_fingerprint(problem.fingerprint());
    if let Some(sets) = sets {
        domain = domain.with_parameter_sets(Arc::new(sets));
    }
    if !config.output.quiet {
        eprintln!("{report}");
    }
    let record = MeshRecord {
        file: mesh_args.file.clone(),
        nodes: problem.nodes(),
        elements: problem.mesh.elements(),
        node_order: order.name(),
        mean_edge_mm: problem.mean_edge_mm(),
        prepare_s: started.elapsed().as_secs_f64(),
    };
    Ok((domain, TetRun { problem, selections, formats, record }))
}

impl TetRun {
    /// The stimuli of `specs` (the configuration's, the membrane applied)
    /// on their nodes.
    pub fn stimuli(
        &self,
        specs: &[StimulusSpec],
        dt_ms: f64,
        model: &ModelInfo,
    ) -> anyhow::Result<StimulusSchedule> {
        let ids = &self.problem.renumbering.new_of_old;
        let stimuli = specs
            .iter()
            .zip(&self.selections)
            .enumerate()
            .map(|(i, (spec, nodes))| {
                let mask = nodes.mask(&self.problem.mesh, ids)?;
                Ok(stimulus_on(spec, i + 1, mask, dt_ms, model)?)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(StimulusSchedule { stimuli })
    }

    /// The solver of the mesh on the selected devices (one process: a run
    /// over ranks is refused before their rendezvous).
    pub fn build_solver<M: CellModel, T: Scalar>(
        &self,
        selected: &Selected,
        compute: &ComputeArgs,
        domain: &Domain,
        initial: &State<T>,
    ) -> anyhow::Result<Box<dyn Solver<T>>> {
        if matches!(selected, Selected::Rank { .. }) {
            return Err(PlacementError::TetOverProcesses.into());
        }
        // The mesh solvers take no kernel choice (their own node kernel).
        let kernel = compute.kernel_choice().config(
            domain.model().info(),
            T::PRECISION,
            domain.dims(),
            selected.gpus(),
        );
        let mesh = Mesh::Tet(self.problem.clone());
        super::select::build_solver::<M, T>(&mesh, selected, compute, kernel, domain, initial)
    }

    /// The snapshot writer of the run: node fields in the file's order.
    pub fn writer(&self, writer: SnapshotWriter) -> SnapshotWriter {
        writer.on_mesh(Arc::new(self.problem.node_mesh()))
    }
}

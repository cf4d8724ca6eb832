//! Describing a simulation: the model with its parameters, the grid, the
//! start, the stimuli, what is recorded and where it runs. Everything is
//! checked when [`SimulationBuilder::build`] is called, before any work.

use std::sync::Arc;

use kernels_gpu::GridDims;

use super::error::SimulationError;
use super::kernel_choice::KernelChoice;
use super::placement::{Devices, GpuOptions, Mesh, SolverPlan, TissueMesh};
use super::run::Simulation;
use crate::backend::GpuDevice;
use crate::cell_params::{Cells, ParameterMap, ParameterSets, grid_cell_name, resolve_on_mesh};
use crate::domain::Domain;
use crate::events::ecg::{EcgTrace, Electrode, check_electrodes, check_electrodes_in, probes};
use crate::events::protocol::{planar_s1, scroll_s2, scroll_s2_step};
use crate::events::recording::{Maps, Recording};
use crate::events::stimulus::{Membrane, StimulusSchedule, StimulusSpec};
use crate::events::tips::SingularityRecorder;
use crate::events::{EventStart, Events};
use crate::init::InitialCondition;
use crate::models::ModelSetup;
use crate::outputs::{EcgSampler, TipsSampler};
use crate::scalar::Scalar;
use crate::solver::Solver;
use crate::state::State;
use crate::tet::TetProblem;
use crate::tet::ecg::check_electrodes_on_mesh;
use crate::tet::regions::{NodeSelection, stimulus_on};
use crate::tissue::{Operator, Tissue, TissueLayout, WeightChoice};
use crate::units::UnitTags;

/// The monodomain diffusion coefficient, mm^2/ms, of a conductivity
/// `sigma_s_per_m` (S/m) in a membrane of `chi` (1/mm) and `Cm` (uF/cm^2):
/// D = sigma / (chi Cm) (Niederer et al. 2011, eq. 1; the factor 0.01
/// turns S/m over (1/mm)(uF/cm^2) into mm^2/ms).
pub fn monodomain_diffusion(sigma_s_per_m: f64, membrane: Membrane) -> f64 {
    sigma_s_per_m / (membrane.chi_per_mm * membrane.cm_uf_per_cm2 * 0.01)
}

/// Where a simulation runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The multi-threaded CPU reference.
    #[default]
    Cpu,
    /// GPUs by ordinal: one, or several sharing the grid along z.
    Gpus(Vec<usize>),
}

/// A simulation being described; [`SimulationBuilder::build`] checks it
/// and makes a [`Simulation`].
///
/// ```
/// use fibril_host::simulation::SimulationBuilder;
///
/// // A Karma cable of 200 cells from its planar start, on the CPU.
/// let mut sim = SimulationBuilder::new("karma").grid(200, 1, 1).build::<f64>()?;
/// sim.run_for_ms(20.0)?;
/// let u = sim.state()?;
/// assert!(u.slice(0).iter().any(|&x| x > 1.0), "the wave is travelling");
/// # Ok::<(), fibril_host::simulation::SimulationError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SimulationBuilder {
    model: String,
    preset: Option<String>,
    parameters: Vec<(String, f64)>,
    dims: GridDims,
    dx: Option<f64>,
    dt_ms: Option<f64>,
    diffusion: Option<f64>,
    membrane: Option<Membrane>,
    init: InitialCondition,
    scroll: Option<Option<f64>>,
    stimuli: Vec<StimulusSpec>,
    recording: Option<Recording>,
    electrodes: Vec<Electrode>,
    ecg_every_ms: f64,
    tips_every_ms: Option<f64>,
    backend: Backend,
    kernel: KernelChoice,
    options: GpuOptions,
    kernels: Option<&'static str>,
    check_every_steps: Option<u64>,
    tet: Option<Arc<TetProblem>>,
    node_stimuli: Vec<(StimulusSpec, NodeSelection)>,
    tissue: Option<(Arc<Tissue>, TissueLayout)>,
    cell_parameters: ParameterMap,
}

impl SimulationBuilder {
    /// A simulation of model `name` (`fibril models` lists them) on a
    /// single cell, from the planar start, on the CPU, with the model's
    /// usual dx, dt and D.
    pub fn new(model: &str) -> Self {
        Self {
            model: model.to_string(),
            preset: None,
            parameters: Vec::new(),
            dims: GridDims::new(1, 1, 1),
            dx: None,
            dt_ms: None,
            diffusion: None,
            membrane: None,
            init: InitialCondition::Planar,
            scroll: None,
            stimuli: Vec::new(),
            recording: None,
            electrodes: Vec::new(),
            ecg_every_ms: 1.0,
            tips_every_ms: None,
            backend: Backend::Cpu,
            kernel: KernelChoice::AUTO,
            options: GpuOptions::default(),
            kernels: None,
            check_every_steps: None,
            tet: None,
            node_stimuli: Vec::new(),
            tissue: None,
            cell_parameters: ParameterMap::default(),
        }
    }

    /// The model's preset `name` (its default when not given).
    pub fn preset(mut self, name: &str) -> Self {
        self.preset = Some(name.to_string());
        self
    }

    /// Parameter `name` of the model (over the preset).
    pub fn parameter(mut self, name: &str, value: f64) -> Self {
        self.parameters.push((name.to_string(), value));
        self
    }

    /// The grid in cells: a box, a sheet (`nz = 1`), a cable (`ny = nz =
    /// 1`) or a single cell.
    pub fn grid(mut self, nx: u32, ny: u32, nz: u32) -> Self {
        self.dims = GridDims::new(nx, ny, nz);
        self
    }

    /// A tetrahedral mesh instead of a grid (its nodes renumbered and its
    /// operator assembled with the diffusivities of its regions,
    /// [`TetProblem::new`]), from rest; stimuli go on its nodes
    /// ([`SimulationBuilder::node_stimulus`]).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use fibril_host::events::stimulus::{RegionKind, StimulusSpec};
    /// use fibril_host::simulation::SimulationBuilder;
    /// use fibril_host::tet::regions::NodeSelection;
    /// use fibril_host::tet::{Diffusivity, NodeOrder, TetMesh, TetProblem};
    ///
    /// // A 10 x 1 x 1 mm bar cut into tetrahedra 0.5 mm apart, D = 1,
    /// // its first 1.1 mm excited for 1 time unit.
    /// let mesh = TetMesh::kuhn_box([21, 3, 3], 0.5);
    /// let isotropic = |_| Some(Diffusivity::isotropic(1.0));
    /// let problem = Arc::new(TetProblem::new(&mesh, NodeOrder::ReverseCuthillMcKee, &isotropic)?);
    /// let end = NodeSelection::BoxMm { lo: [-1.0; 3], hi: [1.1, 2.0, 2.0] };
    /// let mut excite = StimulusSpec::new(RegionKind::Box, 0.0);
    /// excite.duration_ms = 1.0;
    /// let mut sim = SimulationBuilder::new("aliev_panfilov")
    ///     .tet_mesh(problem.clone())
    ///     .node_stimulus(excite, end)
    ///     .build::<f64>()?;
    /// sim.run_for_ms(5.0)?;
    /// // The state's nodes in the file's order: the wave is on its way.
    /// let u = problem.renumbering.to_file_order(sim.state()?.slice(0));
    /// let excited: Vec<usize> = (0..21).filter(|&i| u[i] > 0.5).collect();
    /// assert!(!excited.is_empty() && u[20] < 0.1, "excited {excited:?}, far end {}", u[20]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tet_mesh(mut self, problem: Arc<TetProblem>) -> Self {
        self.tet = Some(problem);
        self.init = InitialCondition::Rest;
        self
    }

    /// Voxel tissue instead of the uniform box: its labels (0 = no tissue),
    /// fibres and conductivities, stepped with its own 19-point operator
    /// (the operator of `fibril run` with a `[tissue]` section). The tissue
    /// sets the grid and dx; its largest conductivity is the run's D.
    /// Stored compactly (only the tissue cells, Xia et al. 2015) unless
    /// `layout` says otherwise.
    ///
    /// ```
    /// use fibril_host::simulation::SimulationBuilder;
    /// use fibril_host::tissue::{Conductivity, Fibres, Tissue, TissueLayout};
    /// use kernels_gpu::GridDims;
    ///
    /// // A 40 x 20 sheet with a hole in its middle, fibres along x.
    /// let dims = GridDims::new(40, 20, 1);
    /// let mask: Vec<bool> = (0..dims.cells()).map(|i| !(15..25).contains(&(i % 40)) || i / 40 < 8).collect();
    /// let tissue = Tissue::from_mask(dims, 0.5, &mask, Fibres::ALONG_X, Conductivity::isotropic(1.0));
    /// let mut sim = SimulationBuilder::new("aliev_panfilov").tissue(tissue, TissueLayout::Compact).build::<f64>()?;
    /// sim.run_for_ms(2.0)?;
    /// assert_eq!(sim.state()?.dims(), dims);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tissue(mut self, tissue: Tissue, layout: TissueLayout) -> Self {
        self.tissue = Some((Arc::new(tissue), layout));
        self
    }

    /// The model's parameters varying over the tissue or the mesh: a
    /// preset and values per region label (the tissue's labels, or the
    /// mesh's element tags, a node taking the largest tag of its
    /// elements), and parameters given per cell (per node of a mesh, in
    /// the file's node order) over them (`crate::cell_params`).
    pub fn cell_parameters(mut self, map: ParameterMap) -> Self {
        self.cell_parameters = map;
        self
    }

    /// A stimulus on the nodes `nodes` of the mesh: the spec's timing and
    /// action (value, current or current density); its grid region is
    /// not used.
    pub fn node_stimulus(mut self, spec: StimulusSpec, nodes: NodeSelection) -> Self {
        self.node_stimuli.push((spec, nodes));
        self
    }

    /// Grid spacing, in the model's space unit (mm for the models in
    /// physical units).
    pub fn dx(mut self, dx: f64) -> Self {
        self.dx = Some(dx);
        self
    }

    /// Time step, in the model's time unit.
    pub fn dt_ms(mut self, dt: f64) -> Self {
        self.dt_ms = Some(dt);
        self
    }

    /// Diffusion coefficient of the potential (space unit^2 per time unit).
    pub fn diffusion(mut self, d: f64) -> Self {
        self.diffusion = Some(d);
        self
    }

    /// D from a conductivity (S/m) and a membrane
    /// ([`monodomain_diffusion`]); the membrane also turns stimulus
    /// current densities into currents.
    pub fn monodomain(mut self, sigma_s_per_m: f64, membrane: Membrane) -> Self {
        self.diffusion = Some(monodomain_diffusion(sigma_s_per_m, membrane));
        self.membrane = Some(membrane);
        self
    }

    /// The membrane that turns stimulus current densities (uA/cm^3) into
    /// currents, without setting D.
    pub fn membrane(mut self, membrane: Membrane) -> Self {
        self.membrane = Some(membrane);
        self
    }

    /// The initial condition (the planar start by default).
    pub fn initial(mut self, init: InitialCondition) -> Self {
        self.init = init;
        self
    }

    /// The paper's scroll-wave protocol: the planar S1 and a cross-field
    /// S2 at `s2_ms`, or (`None`) when the S1's back has passed the middle.
    pub fn scroll_protocol(mut self, s2_ms: Option<f64>) -> Self {
        self.scroll = Some(s2_ms);
        self
    }

    /// A stimulus besides the protocol's.
    pub fn stimulus(mut self, spec: StimulusSpec) -> Self {
        self.stimuli.push(spec);
        self
    }

    /// Records activation (and, with `down`, repolarisation and APD) maps.
    pub fn maps(mut self, recording: Recording) -> Self {
        self.recording = Some(recording);
        self
    }

    /// The pseudo-ECG at `electrodes`, sampled every `every_ms`.
    pub fn electrodes(mut self, electrodes: Vec<Electrode>, every_ms: f64) -> Self {
        self.electrodes = electrodes;
        self.ecg_every_ms = every_ms;
        self
    }

    /// Spiral tips (a sheet) or filaments (a volume) every `every_ms`.
    pub fn tips(mut self, every_ms: f64) -> Self {
        self.tips_every_ms = Some(every_ms);
        self
    }

    /// Where the simulation runs (the CPU by default).
    pub fn backend(mut self, backend: Backend) -> Self {
        self.backend = backend;
        self
    }

    /// The GPU kernel (auto's rule by default).
    pub fn kernel(mut self, kernel: KernelChoice) -> Self {
        self.kernel = kernel;
        self
    }

    /// How GPU solvers run.
    pub fn gpu_options(mut self, options: GpuOptions) -> Self {
        self.options = options;
        self
    }

    /// The GPU kernels (PTX) of this build; the `fibril` crate gives its
    /// own (`fibril::simulation`), which a GPU backend needs.
    pub fn kernels(mut self, ptx: &'static str) -> Self {
        self.kernels = Some(ptx);
        self
    }

    /// Steps between NaN checks (100 by default).
    pub fn check_every_steps(mut self, steps: u64) -> Self {
        self.check_every_steps = Some(steps);
        self
    }

    /// Checks the description and builds the simulation in precision `T`
    /// (`f32` or `f64`): the domain, the stimuli, the initial state and the
    /// solver on its devices.
    pub fn build<T: Scalar>(self) -> Result<Simulation<T>, SimulationError> {
        let setup = ModelSetup::new(&self.model, self.preset.as_deref(), &self.parameters)?;
        if let Some(problem) = self.tet.clone() {
            return self.build_on_mesh(setup, problem);
        }
        if !self.node_stimuli.is_empty() {
            return Err(SimulationError::NotOnGrid);
        }
        let info = setup.info();
        let n = info.numerics;
        let dt = self.dt_ms.unwrap_or(n.dt);
        let (domain, mesh) = match &self.tissue {
            None if !self.cell_parameters.is_empty() => return Err(SimulationError::ParametersNeedTissue),
            None => {
                let dx = self.dx.unwrap_or(n.dx);
                (Domain::new(self.dims, dx, dt, self.diffusion.unwrap_or(n.diffusion), setup)?, Mesh::Grid)
            }
            Some((tissue, layout)) => self.tissue_domain(tissue, *layout, dt, setup)?,
        };
        let dims = domain.dims();
        let mut specs = Vec::new();
        if self.init == InitialCondition::Planar
            && let Some(s1) = planar_s1(info)
        {
            specs.push(s1);
        }
        if let Some(s2_ms) = self.scroll {
            let at_ms = match s2_ms {
                Some(t) => t,
                None => scroll_s2_step(&domain)? as f64 * dt,
            };
            specs.push(scroll_s2(at_ms));
        }
        specs.extend(self.stimuli.iter().cloned());
        let specs = specs
            .iter()
            .enumerate()
            .map(|(i, s)| s.with_membrane(i + 1, self.membrane))
            .collect::<Result<Vec<_>, _>>()?;
        let stimuli = StimulusSchedule::compile(&specs, dims, dt, info)?;
        let initial = self.init.state::<T>(info, dims);
        let devices = self.devices()?;
        let gpus = match &devices {
            Devices::Gpus(g) => g.len(),
            _ => 1,
        };
        let kernel = self.kernel.config(info, T::PRECISION, dims, gpus);
        let plan = SolverPlan {
            mesh: &mesh,
            devices: &devices,
            kernels: self.kernels,
            kernel,
            options: self.options,
            domain: &domain,
            initial: &initial,
        };
        let (solver, events) = self.start(plan, stimuli)?;
        let (ecg, tips) = self.samplers(&domain)?;
        Ok(Simulation::new(domain, solver, events, ecg, tips, self.check_every_steps.unwrap_or(100)))
    }

    /// The domain and mesh of a tissue: its own operator, checked against
    /// dt, with D its largest conductivity (as `fibril run` with
    /// `[tissue]`).
    fn tissue_domain(
        &self,
        tissue: &Tissue,
        layout: TissueLayout,
        dt: f64,
        setup: ModelSetup,
    ) -> Result<(Domain, Mesh), SimulationError> {
        let dims = tissue.dims;
        if self.dims != GridDims::new(1, 1, 1) && self.dims != dims {
            return Err(SimulationError::TissueGrid {
                grid: format!("{}x{}x{}", self.dims.nx, self.dims.ny, self.dims.nz),
                tissue: format!("{}x{}x{}", dims.nx, dims.ny, dims.nz),
            });
        }
        if self.dx.is_some_and(|h| h != tissue.dx) || self.diffusion.is_some() {
            return Err(SimulationError::TissueSets { what: "dx and D" });
        }
        let op = Operator::build(tissue)?;
        op.check_dt(dt)?;
        let largest = tissue.largest_conductivity();
        let sets =
            ParameterSets::resolve(&setup, &self.cell_parameters, (&tissue.labels, Cells::Grid), |i| {
                grid_cell_name(dims, i)
            })?;
        let mut domain = Domain::with_own_operator(dims, tissue.dx, dt, largest, setup)?
            .with_operator_fingerprint(op.fingerprint());
        if let Some(sets) = sets {
            domain = domain.with_parameter_sets(Arc::new(sets));
        }
        let mesh = Mesh::Tissue(TissueMesh { op: Arc::new(op), layout, weights: WeightChoice::Auto });
        Ok((domain, mesh))
    }

    /// The solver of `plan` with the events installed, and the events.
    fn start<T: Scalar>(
        &self,
        plan: SolverPlan<'_, T>,
        stimuli: StimulusSchedule,
    ) -> Result<(Box<dyn Solver<T>>, Events), SimulationError> {
        let mut solver = plan.build()?;
        let (dims, initial) = (plan.domain.dims(), plan.initial);
        let maps = self.recording.map(|r| Maps::at_start(r, dims, initial.slice(0), 0.0));
        let events = Events { stimuli, recording: self.recording };
        solver.set_events(&events, EventStart::NEW, maps.as_ref())?;
        Ok((solver, events))
    }

    /// The devices named by the backend, opened.
    fn devices(&self) -> Result<Devices, SimulationError> {
        Ok(match &self.backend {
            Backend::Cpu => Devices::Cpu,
            Backend::Gpus(ordinals) => {
                Devices::Gpus(ordinals.iter().map(|&o| GpuDevice::open(o)).collect::<Result<_, _>>()?)
            }
        })
    }

    /// The pseudo-ECG and tip samplers asked for.
    fn samplers(
        &self,
        domain: &Domain,
    ) -> Result<(Option<EcgSampler>, Option<TipsSampler>), SimulationError> {
        let info = domain.model().info();
        let (dx, dt) = (domain.dx(), domain.dt_ms());
        let units = UnitTags::of(&info.units);
        let steps = |what: &'static str, ms: f64| crate::time::ms_to_steps(ms, dt).map_err(|e| (what, e));
        let ecg = match self.electrodes.is_empty() {
            true => None,
            false => {
                match (&self.tet, &self.tissue) {
                    (Some(problem), _) => check_electrodes_on_mesh(&self.electrodes, &problem.mesh, dx)?,
                    // In a tissue's box, only the tissue's cells are too close.
                    (None, Some((tissue, _))) => {
                        check_electrodes_in(&self.electrodes, domain.dims(), dx, Some(&tissue.labels))?
                    }
                    (None, None) => check_electrodes(&self.electrodes, domain.dims(), dx)?,
                }
                Some(EcgSampler {
                    every: steps("the ECG interval", self.ecg_every_ms)?.max(1),
                    probes: probes(&self.electrodes, dx),
                    trace: EcgTrace::new(&self.electrodes, units),
                })
            }
        };
        let tips = match self.tips_every_ms {
            None => None,
            Some(ms) => {
                let recorder = SingularityRecorder::new(domain.dims(), dx, info.activation_threshold, units)?;
                Some(TipsSampler::new(steps("the tip interval", ms)?.max(1), recorder))
            }
        };
        Ok((ecg, tips))
    }

    /// [`SimulationBuilder::build`] on a tetrahedral mesh: the nodes as a
    /// line of cells, the operator's own stability limit, stimuli on node
    /// selections; what a mesh has no meaning for is refused.
    fn build_on_mesh<T: Scalar>(
        self,
        setup: ModelSetup,
        problem: Arc<TetProblem>,
    ) -> Result<Simulation<T>, SimulationError> {
        let refused = |what, fix| Err(SimulationError::NotOnMesh { what, fix });
        if self.init != InitialCondition::Rest || self.scroll.is_some() {
            return refused(
                "the planar start and the scroll protocol",
                "start from rest and stimulate nodes",
            );
        }
        if !self.stimuli.is_empty() {
            return refused(
                "a stimulus on grid cells",
                "give it on nodes (SimulationBuilder::node_stimulus)",
            );
        }
        if self.tissue.is_some() {
            return refused("a voxel tissue", "give either the tetrahedral mesh or the tissue");
        }
        if self.tips_every_ms.is_some() {
            return refused("tip tracking (it needs a grid's plaquettes)", "leave it out");
        }
        let info = setup.info();
        let n = info.numerics;
        let dt = self.dt_ms.unwrap_or(n.dt);
        problem.check_dt(dt)?;
        let line = problem.line();
        let d = self.diffusion.unwrap_or(n.diffusion);
        let sets = resolve_on_mesh(&setup, &self.cell_parameters, &problem)?;
        let mut domain = Domain::with_own_operator(line, problem.mean_edge_mm(), dt, d, setup)?;
        if let Some(sets) = sets {
            domain = domain.with_parameter_sets(Arc::new(sets));
        }
        let mut stimuli = Vec::new();
        for (i, (spec, nodes)) in self.node_stimuli.iter().enumerate() {
            let spec = spec.with_membrane(i + 1, self.membrane)?;
            let mask = nodes.mask(&problem.mesh, &problem.renumbering.new_of_old)?;
            stimuli.push(stimulus_on(&spec, i + 1, mask, dt, info)?);
        }
        let initial = State::<T>::rest(info, line);
        let devices = self.devices()?;
        let kernel = self.kernel.config(info, T::PRECISION, line, 1);
        let mesh = Mesh::Tet(problem.clone());
        let (kernels, options) = (self.kernels, self.options);
        let plan = SolverPlan {
            mesh: &mesh,
            devices: &devices,
            kernels,
            kernel,
            options,
            domain: &domain,
            initial: &initial,
        };
        let (solver, events) = self.start(plan, StimulusSchedule { stimuli })?;
        let check_every = self.check_every_steps.unwrap_or(100);
        let (ecg, _) = self.samplers(&domain)?;
        Ok(Simulation::new(domain, solver, events, ecg, None, check_every).on_mesh(problem))
    }
}

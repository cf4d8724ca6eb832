//! `fibril._fibril`: the Rust engine seen from Python. Everything here
//! translates (NumPy arrays and Python values to the library's types and
//! back) and calls `fibril::simulation`; there are no numerics of its own,
//! so a run from Python is the run of `fibril run` bit for bit. The
//! Python package (`python/fibril/__init__.py`) wraps this module in the
//! API users see.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use fibril::{Backend, SimulationBuilder, SimulationError};
use fibril_host::cell_params::{ParameterField, ParameterMap, RegionParameters};
use fibril_host::events::ecg::Electrode;
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::StimulusSpec;
use fibril_host::init::InitialCondition;
use fibril_host::models::MODELS;
use fibril_host::scalar::Scalar;
use fibril_host::state::State;
use fibril_host::tet::read::{ReadOptions, read_mesh};
use fibril_host::tet::regions::NodeSelection;
use fibril_host::tet::{Diffusivity, NodeOrder, TetMesh, TetProblem};
use fibril_host::tissue::fibrosis::Fibrosis;
use fibril_host::tissue::{Conductivity, Fibres, Tissue, TissueLayout};
use kernels_gpu::GridDims;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyReadonlyArrayDyn,
};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyDict;

create_exception!(
    _fibril,
    FibrilError,
    PyException,
    "An error of fibril: its message names the problem and the fix."
);

fn err(e: impl std::fmt::Display) -> PyErr {
    FibrilError::new_err(e.to_string())
}

/// A simulation in its precision, with the host copy of its state that
/// frames reuse.
enum Sim {
    F32(fibril::Simulation<f32>, Option<State<f32>>),
    F64(fibril::Simulation<f64>, Option<State<f64>>),
}

macro_rules! each {
    ($sim:expr, $s:ident => $body:expr) => {
        match $sim {
            Sim::F32($s, _) => $body,
            Sim::F64($s, _) => $body,
        }
    };
}

/// The state of `sim` in `buffer` (downloaded into it after the first time).
fn fresh_state<'b, T: Scalar>(
    sim: &mut fibril::Simulation<T>,
    buffer: &'b mut Option<State<T>>,
) -> Result<&'b State<T>, SimulationError> {
    match buffer {
        Some(b) => sim.state_into(b)?,
        None => *buffer = Some(sim.state()?),
    }
    Ok(buffer.as_ref().expect("filled above"))
}

/// Lets a simulation into `Python::detach`, which runs its closure on the
/// calling thread while other Python threads (a progress bar, a notebook's
/// kernel) go on.
struct OnThisThread<'a>(&'a mut Sim);
// SAFETY: `Python::detach` runs the closure on the thread that calls it;
// the simulation never moves to another thread.
unsafe impl Send for OnThisThread<'_> {}

/// A tetrahedral mesh: its nodes in mm, its elements, a region label and
/// optionally a fibre direction per element.
#[pyclass(module = "fibril._fibril", frozen)]
struct Mesh {
    mesh: TetMesh,
}

#[pymethods]
impl Mesh {
    /// A mesh from arrays: `points` (n, 3) in mm, `tets` (m, 4) node
    /// indices from 0, `regions` (m,) labels, `fibres` (m, 3) directions.
    #[new]
    #[pyo3(signature = (points, tets, regions=None, fibres=None))]
    fn new(
        points: PyReadonlyArray2<'_, f64>,
        tets: PyReadonlyArray2<'_, i64>,
        regions: Option<PyReadonlyArray1<'_, i64>>,
        fibres: Option<PyReadonlyArray2<'_, f64>>,
    ) -> PyResult<Self> {
        let rows3 = |a: &PyReadonlyArray2<'_, f64>, what: &str| -> PyResult<Vec<[f64; 3]>> {
            let a = a.as_array();
            if a.ncols() != 3 {
                return Err(err(format!("{what} has shape {:?}; give an array of shape (n, 3)", a.shape())));
            }
            Ok(a.rows().into_iter().map(|r| [r[0], r[1], r[2]]).collect())
        };
        let points_mm = rows3(&points, "points")?;
        let t = tets.as_array();
        if t.ncols() != 4 {
            return Err(err(format!("tets has shape {:?}; give an array of shape (m, 4)", t.shape())));
        }
        let n = points_mm.len() as i64;
        let mut elements = Vec::with_capacity(t.nrows());
        for (e, r) in t.rows().into_iter().enumerate() {
            if let Some(&bad) = r.iter().find(|&&i| i < 0 || i >= n) {
                return Err(err(format!(
                    "tets[{e}] names node {bad}, but there are {n} points (indices 0 to {}); number nodes from 0",
                    n - 1
                )));
            }
            elements.push([r[0] as u32, r[1] as u32, r[2] as u32, r[3] as u32]);
        }
        let m = elements.len();
        let regions = match regions {
            None => vec![0; m],
            Some(r) => {
                let r = r.as_array();
                if r.len() != m {
                    return Err(err(format!(
                        "regions has {} labels for {m} tets; give one per tet",
                        r.len()
                    )));
                }
                r.iter().map(|&x| x as i32).collect()
            }
        };
        let fibres = fibres.map(|f| rows3(&f, "fibres")).transpose()?;
        if fibres.as_ref().is_some_and(|f| f.len() != m) {
            return Err(err(format!("fibres needs one direction per tet ({m})")));
        }
        let mut mesh = TetMesh { points_mm, tets: elements, regions, fibres, sheets: None };
        fibril_host::tet::check::check(&mut mesh).map_err(err)?;
        Ok(Self { mesh })
    }

    /// Reads and checks a mesh file (openCARP `.pts`/`.elem`, VTK `.vtu`,
    /// Gmsh `.msh`, TetGen `.node`/`.ele`), as `fibril run --mesh` does.
    #[staticmethod]
    #[pyo3(signature = (path, region_array=None))]
    fn read(path: PathBuf, region_array: Option<String>) -> PyResult<Self> {
        let options = ReadOptions { units: None, region_array };
        Ok(Self { mesh: read_mesh(&path, &options).map_err(err)? })
    }

    #[getter]
    fn nodes(&self) -> usize {
        self.mesh.nodes()
    }

    #[getter]
    fn elements(&self) -> usize {
        self.mesh.elements()
    }

    /// The nodes, (n, 3) in mm.
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let flat: Vec<f64> = self.mesh.points_mm.iter().flatten().copied().collect();
        let a = ndarray::Array2::from_shape_vec((self.mesh.nodes(), 3), flat).expect("n x 3");
        a.into_pyarray(py)
    }
}

/// How the engine is built; the Python package fills it from keywords.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Spec {
    model: String,
    preset: Option<String>,
    parameters: Vec<(String, f64)>,
    grid: Option<(u32, u32, u32)>,
    dx: Option<f64>,
    dt_ms: Option<f64>,
    diffusion: Option<f64>,
    precision: String,
    gpus: Option<Vec<usize>>,
    initial: String,
    scroll: bool,
    s2_ms: Option<f64>,
    stimuli: Vec<String>,
    recording: Option<(f64, Option<f64>, Option<u32>)>,
    electrodes: Vec<(String, (f64, f64, f64))>,
    ecg_every_ms: f64,
    tips_every_ms: Option<f64>,
    check_every_steps: Option<u64>,
}

/// A region's parameters as the package passes them: (label, preset,
/// [(name, value)]).
type RegionTuple = (u8, Option<String>, Vec<(String, f64)>);

/// A voxel tissue, from the Python package's arrays.
struct TissueSpec {
    tissue: Tissue,
    layout: TissueLayout,
}

fn tissue_spec(d: &Bound<'_, PyDict>) -> PyResult<TissueSpec> {
    let get = |k: &str| d.get_item(k).ok().flatten().filter(|v| !v.is_none());
    let labels: PyReadonlyArrayDyn<'_, u8> = get("labels").expect("the package passes labels").extract()?;
    let labels = labels.as_array();
    let shape = labels.shape().to_vec();
    if shape.len() != 3 {
        return Err(err(format!(
            "tissue labels have shape {shape:?}; give a 3D array indexed [z, y, x] (a sheet: shape (1, ny, nx))"
        )));
    }
    let dims = GridDims::new(shape[2] as u32, shape[1] as u32, shape[0] as u32);
    let dx: f64 = get("dx").expect("the package passes dx").extract()?;
    let along = |k: &str| -> PyResult<Option<Vec<[f32; 3]>>> {
        let Some(v) = get(k) else { return Ok(None) };
        let a: PyReadonlyArrayDyn<'_, f32> = v.extract()?;
        let a = a.as_array();
        if a.shape() != [shape[0], shape[1], shape[2], 3] {
            return Err(err(format!(
                "tissue {k} have shape {:?}; give shape {:?} (one direction per cell, [z, y, x, xyz])",
                a.shape(),
                [shape[0], shape[1], shape[2], 3]
            )));
        }
        let flat: Vec<f32> = a.iter().copied().collect();
        Ok(Some(flat.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()))
    };
    let fibres = match (along("fibres")?, get("fibre")) {
        (Some(fibre), _) => Fibres::PerCell { fibre, sheet: along("sheets")? },
        (None, f) => {
            let fibre: [f64; 3] = match f {
                Some(f) => f.extract()?,
                None => [1.0, 0.0, 0.0],
            };
            let sheet: Option<[f64; 3]> = get("sheet").map(|s| s.extract()).transpose()?;
            Fibres::Constant { fibre, sheet }
        }
    };
    let conductivity = |v: Bound<'_, PyAny>| -> PyResult<Conductivity> {
        let (fibre, cross, sheet): (f64, f64, Option<f64>) = v.extract()?;
        Ok(Conductivity { fibre, cross, sheet })
    };
    let base = conductivity(get("conductivity").expect("the package passes conductivity"))?;
    let mut regions = Vec::new();
    if let Some(r) = get("regions") {
        let r: Vec<(u8, Bound<'_, PyAny>)> = r.extract()?;
        for (label, c) in r {
            regions.push((label, conductivity(c)?));
        }
    }
    let layout = match get("layout").map(|l| l.extract::<String>()).transpose()?.as_deref() {
        None | Some("compact") => TissueLayout::Compact,
        Some("dense") => TissueLayout::Dense,
        Some(other) => return Err(err(format!("tissue layout {other:?}: use \"compact\" or \"dense\""))),
    };
    let labels: Vec<u8> = labels.iter().copied().collect();
    let tissue = Tissue { dims, dx, labels, fibres, conductivity: base, regions };
    Ok(TissueSpec { tissue, layout })
}

/// A node selection of a mesh stimulus, from the Python package's dict.
fn node_selection(d: &Bound<'_, PyDict>) -> PyResult<NodeSelection> {
    let get = |k: &str| d.get_item(k).ok().flatten().filter(|v| !v.is_none());
    if let (Some(lo), Some(hi)) = (get("lo_mm"), get("hi_mm")) {
        return Ok(NodeSelection::BoxMm { lo: lo.extract()?, hi: hi.extract()? });
    }
    if let (Some(c), Some(r)) = (get("center_mm"), get("radius_mm")) {
        return Ok(NodeSelection::SphereMm { center_mm: c.extract()?, radius_mm: r.extract()? });
    }
    if let Some(nodes) = get("nodes") {
        return Ok(NodeSelection::Nodes(nodes.extract()?));
    }
    if let Some(label) = get("label") {
        return Ok(NodeSelection::Label(label.extract()?));
    }
    Err(err(
        "a mesh stimulus needs its nodes: lo_mm and hi_mm (a box), center_mm and radius_mm (a ball), nodes \
         (indices) or label (a region)",
    ))
}

fn parse_stimulus(text: &str) -> PyResult<StimulusSpec> {
    fibril::cli::config::parse_stimulus(text).map_err(|e| err(format!("{e:#}")))
}

/// The engine: one simulation, on the CPU or GPUs, in f32 or f64.
#[pyclass(module = "fibril._fibril", unsendable)]
struct Engine {
    sim: Sim,
    mesh: Option<Arc<TetProblem>>,
}

impl Engine {
    fn builder(spec: &Spec) -> PyResult<SimulationBuilder> {
        let mut b = fibril::simulation(&spec.model);
        if let Some(p) = &spec.preset {
            b = b.preset(p);
        }
        for (name, value) in &spec.parameters {
            b = b.parameter(name, *value);
        }
        if let Some((nx, ny, nz)) = spec.grid {
            b = b.grid(nx, ny, nz);
        }
        if let Some(dx) = spec.dx {
            b = b.dx(dx);
        }
        if let Some(dt) = spec.dt_ms {
            b = b.dt_ms(dt);
        }
        if let Some(d) = spec.diffusion {
            b = b.diffusion(d);
        }
        b = match spec.initial.as_str() {
            "planar" => b.initial(InitialCondition::Planar),
            "rest" => b.initial(InitialCondition::Rest),
            other => return Err(err(format!("initial = {other:?}: use \"planar\" or \"rest\""))),
        };
        if spec.scroll {
            b = b.scroll_protocol(spec.s2_ms);
        }
        for s in &spec.stimuli {
            b = b.stimulus(parse_stimulus(s)?);
        }
        if let Some((up, down, beats)) = spec.recording {
            b = b.maps(Recording { up, down, beats });
        }
        if !spec.electrodes.is_empty() {
            let electrodes = spec
                .electrodes
                .iter()
                .map(|(name, (x, y, z))| Electrode { name: name.clone(), position_mm: [*x, *y, *z] })
                .collect();
            b = b.electrodes(electrodes, spec.ecg_every_ms);
        }
        if let Some(ms) = spec.tips_every_ms {
            b = b.tips(ms);
        }
        if let Some(n) = spec.check_every_steps {
            b = b.check_every_steps(n);
        }
        if let Some(gpus) = &spec.gpus {
            b = b.backend(Backend::Gpus(gpus.clone()));
        }
        Ok(b)
    }

    /// The shape NumPy arrays of a variable have: [z, y, x] on a grid, the
    /// nodes on a mesh.
    fn shape(&self) -> Vec<usize> {
        shape_of(&self.sim, self.mesh.is_some())
    }

    /// How this engine's cells are shown to Python.
    fn view(&self) -> View<'_> {
        View { mesh: self.mesh.as_deref(), shape: self.shape() }
    }
}

/// The grid's shape (nz, ny, nx), or the mesh's nodes.
fn shape_of(sim: &Sim, on_mesh: bool) -> Vec<usize> {
    let d = each!(sim, s => s.domain().dims());
    if on_mesh { vec![d.cells()] } else { vec![d.nz as usize, d.ny as usize, d.nx as usize] }
}

/// How the state's cells are shown to Python.
struct View<'a> {
    mesh: Option<&'a TetProblem>,
    shape: Vec<usize>,
}

impl View<'_> {
    /// Values of the solver's cells in the user's order (a mesh's file order).
    fn to_user<T: Copy>(&self, v: &[T]) -> Vec<T> {
        match self.mesh {
            Some(p) => p.renumbering.to_file_order(v),
            None => v.to_vec(),
        }
    }

    fn arrays<'py, T: Scalar + numpy::Element>(
        &self,
        py: Python<'py>,
        state: &State<T>,
        which: Option<Vec<usize>>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let which = which.unwrap_or_else(|| (0..state.len()).collect());
        let mut out = Vec::with_capacity(which.len());
        for k in which {
            if k >= state.len() {
                return Err(err(format!("variable {k}: the model has {}", state.len())));
            }
            let v = state.slice(k);
            let a = match self.mesh {
                Some(_) => PyArray1::from_vec(py, self.to_user(v)).into_any(),
                // One copy, straight into NumPy's memory.
                None => PyArray1::from_slice(py, v).reshape(self.shape.clone())?.into_any(),
            };
            out.push(a);
        }
        Ok(out)
    }
}

fn set_vars<T: Scalar + numpy::Element>(
    state: &mut State<T>,
    values: &[Option<Bound<'_, PyAny>>],
    order: Option<&[u32]>,
) -> PyResult<()> {
    for (k, v) in values.iter().enumerate() {
        let Some(v) = v else { continue };
        let a: PyReadonlyArrayDyn<'_, T> = v.extract()?;
        let a = a.as_array();
        let dst = state.slice_mut(k);
        if a.len() != dst.len() {
            return Err(err(format!(
                "variable {k} has {} values, the simulation {} cells; give an array of its shape",
                a.len(),
                dst.len()
            )));
        }
        match order {
            // A mesh: the user's values are in the file's node order.
            Some(new_of_old) => {
                for (old, &x) in a.iter().enumerate() {
                    dst[new_of_old[old] as usize] = x;
                }
            }
            None => dst.iter_mut().zip(a.iter()).for_each(|(d, &x)| *d = x),
        }
    }
    Ok(())
}

/// The maps as `fibril run` writes them (`activation.npy`, `repolarisation.npy`,
/// `apd.npy`: oldest beat first, a mesh's nodes in its file's order).
fn maps_dict<'py>(py: Python<'py>, view: &View<'_>, maps: &Maps) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let mut ordered = maps.ordered();
    ordered.in_node_order(|beat| view.to_user(beat));
    let mut shape = view.shape.clone();
    if maps.recording.beats.is_some() {
        shape.insert(0, ordered.fields);
    }
    let arr = |v: Vec<f32>| ndarray::ArrayD::from_shape_vec(shape.clone(), v).expect("the maps' shape");
    d.set_item("activation", arr(ordered.activation).into_pyarray(py))?;
    if let Some(r) = ordered.repolarisation {
        d.set_item("repolarisation", arr(r).into_pyarray(py))?;
    }
    if let Some(a) = ordered.apd {
        d.set_item("apd", arr(a).into_pyarray(py))?;
    }
    Ok(d)
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (
        spec,
        tissue=None,
        mesh=None,
        mesh_diffusion=None,
        node_stimuli=Vec::new(),
        region_parameters=Vec::new(),
        parameter_fields=Vec::new(),
    ))]
    #[allow(clippy::too_many_arguments, reason = "the package's keywords")]
    fn new(
        spec: Spec,
        tissue: Option<Bound<'_, PyDict>>,
        mesh: Option<PyRef<'_, Mesh>>,
        mesh_diffusion: Option<Vec<(i32, (f64, f64))>>,
        node_stimuli: Vec<(String, Bound<'_, PyDict>)>,
        region_parameters: Vec<RegionTuple>,
        parameter_fields: Vec<(String, PyReadonlyArrayDyn<'_, f64>)>,
    ) -> PyResult<Self> {
        let mut b = Self::builder(&spec)?;
        // The package flattened the fields ([z, y, x] on a grid, nodes in
        // the file's order on a mesh); their lengths are checked by fibril.
        b = b.cell_parameters(ParameterMap {
            regions: region_parameters
                .into_iter()
                .map(|(label, preset, values)| RegionParameters { label, preset, values })
                .collect(),
            fields: parameter_fields
                .into_iter()
                .map(|(name, a)| ParameterField { name, values: a.as_array().iter().copied().collect() })
                .collect(),
        });
        if let Some(t) = tissue {
            let t = tissue_spec(&t)?;
            b = b.tissue(t.tissue, t.layout);
        }
        let mut problem = None;
        if let Some(m) = mesh {
            let d = mesh_diffusion.unwrap_or_default();
            let by_region = |label: i32| {
                d.iter()
                    .find(|(l, _)| *l == label)
                    .or_else(|| d.iter().find(|(l, _)| *l == i32::MIN))
                    .map(|(_, (along, across))| Diffusivity::transverse(*along, *across))
            };
            let p = TetProblem::new(&m.mesh, NodeOrder::ReverseCuthillMcKee, &by_region).map_err(err)?;
            let p = Arc::new(p);
            b = b.tet_mesh(p.clone());
            problem = Some(p);
        }
        for (text, selection) in &node_stimuli {
            b = b.node_stimulus(parse_stimulus(text)?, node_selection(selection)?);
        }
        let sim = match spec.precision.as_str() {
            "f32" => Sim::F32(b.build::<f32>().map_err(err)?, None),
            "f64" => Sim::F64(b.build::<f64>().map_err(err)?, None),
            other => return Err(err(format!("precision {other:?}: use \"f32\" or \"f64\""))),
        };
        Ok(Self { sim, mesh: problem })
    }

    /// Runs `steps` steps, in stretches of about a quarter of a second
    /// between which Ctrl-C is heard (KeyboardInterrupt, the state whole
    /// at the last stretch's end).
    fn advance(&mut self, py: Python<'_>, steps: u64) -> PyResult<()> {
        let end = self.step() + steps;
        let mut stretch = 1u64;
        while self.step() < end {
            let n = stretch.min(end - self.step());
            let t0 = Instant::now();
            let sim = OnThisThread(&mut self.sim);
            let done: Result<(), SimulationError> = py.detach(move || {
                let sim = sim;
                each!(sim.0, s => s.advance(n))
            });
            done.map_err(err)?;
            py.check_signals()?;
            // Stretches of about 0.25 s: short enough for Ctrl-C, long enough
            // that the loop's own cost is nothing.
            let took = t0.elapsed().as_secs_f64().max(1e-6);
            stretch = ((n as f64 * 0.25 / took) as u64).clamp(1, n.saturating_mul(4).max(1));
        }
        Ok(())
    }

    /// Steps in `ms` of this simulation's dt, by the library's rule (a
    /// whole number of steps, or an error naming `what`).
    fn steps(&self, what: &str, ms: f64) -> PyResult<u64> {
        let dt = each!(&self.sim, s => s.domain().dt_ms());
        fibril_host::time::ms_to_steps(ms, dt).map_err(|e| err(format!("{what}: {e}")))
    }

    #[getter]
    fn step(&self) -> u64 {
        each!(&self.sim, s => s.step())
    }

    #[getter]
    fn time_ms(&self) -> f64 {
        each!(&self.sim, s => s.time_ms())
    }

    #[getter]
    fn dt_ms(&self) -> f64 {
        each!(&self.sim, s => s.domain().dt_ms())
    }

    #[getter]
    fn dx(&self) -> f64 {
        each!(&self.sim, s => s.domain().dx())
    }

    #[getter]
    fn diffusion(&self) -> f64 {
        each!(&self.sim, s => s.domain().diffusion())
    }

    #[getter]
    fn precision(&self) -> &'static str {
        match self.sim {
            Sim::F32(..) => "f32",
            Sim::F64(..) => "f64",
        }
    }

    #[getter]
    fn model(&self) -> &'static str {
        each!(&self.sim, s => s.domain().model().name())
    }

    #[getter(shape)]
    fn py_shape(&self) -> Vec<usize> {
        self.shape()
    }

    /// ("cpu" or "gpu", the device, the code path).
    #[getter]
    fn placement(&self) -> (String, String, String) {
        let (kind, device, method) = each!(&self.sim, s => s.placement());
        (kind.to_string(), device, method)
    }

    /// The variables `which` (indices in the model's order; all when None)
    /// of the current state, as NumPy arrays.
    #[pyo3(signature = (which=None))]
    fn state<'py>(&mut self, py: Python<'py>, which: Option<Vec<usize>>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let Self { sim, mesh } = self;
        let view = View { mesh: mesh.as_deref(), shape: shape_of(sim, mesh.is_some()) };
        Ok(match sim {
            Sim::F32(s, buffer) => view.arrays(py, fresh_state(s, buffer).map_err(err)?, which)?,
            Sim::F64(s, buffer) => view.arrays(py, fresh_state(s, buffer).map_err(err)?, which)?,
        })
    }

    /// Replaces the variables given (`None` keeps one as it is); arrays of
    /// the simulation's dtype and shape.
    fn set_state(&mut self, values: Vec<Option<Bound<'_, PyAny>>>) -> PyResult<()> {
        let order = self.mesh.as_ref().map(|p| p.renumbering.new_of_old.clone());
        each!(&mut self.sim, s => {
            let mut st = s.state().map_err(err)?;
            if values.len() != st.len() {
                return Err(err(format!("the state has {} variables, {} were given", st.len(), values.len())));
            }
            set_vars(&mut st, &values, order.as_deref())?;
            s.set_state(&st).map_err(err)
        })
    }

    /// The activation (repolarisation, count) maps so far, or None.
    fn maps<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let maps = each!(&mut self.sim, s => s.maps()).map_err(err)?;
        maps.map(|m| maps_dict(py, &self.view(), &m)).transpose()
    }

    /// (electrode names, times, values of shape (times, electrodes)), or None.
    #[allow(clippy::type_complexity)]
    fn ecg<'py>(
        &self,
        py: Python<'py>,
    ) -> Option<(Vec<String>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray2<f64>>)> {
        let trace = each!(&self.sim, s => s.ecg())?;
        let names = trace.electrodes().iter().map(|e| e.name.clone()).collect();
        let rows = trace.rows();
        let t: Vec<f64> = rows.iter().map(|r| r.0).collect();
        let n = trace.electrodes().len();
        let flat: Vec<f64> = rows.iter().flat_map(|r| r.1.iter().copied()).collect();
        let v = ndarray::Array2::from_shape_vec((rows.len(), n), flat).expect("one value per electrode");
        Some((names, PyArray1::from_vec(py, t), v.into_pyarray(py)))
    }

    /// Spiral tips of a sheet (rows: t, charge, x, y, z in the model's
    /// space unit) or filament points of a volume (rows: t, filament, x,
    /// y, z), or None when tips are not tracked.
    fn tips<'py>(&self, py: Python<'py>) -> Option<(bool, Bound<'py, PyArray2<f64>>)> {
        let rec = each!(&self.sim, s => s.singularities())?;
        let rows: Vec<[f64; 5]> = if rec.is_volume() {
            rec.filaments().rows().iter().map(|(t, f, p)| [*t, *f as f64, p[0], p[1], p[2]]).collect()
        } else {
            let tips = rec.tips().rows().iter();
            tips.map(|(t, tip)| {
                let p = tip.position_mm;
                [*t, f64::from(tip.charge), p[0], p[1], p[2]]
            })
            .collect()
        };
        let flat: Vec<f64> = rows.iter().flatten().copied().collect();
        let a = ndarray::Array2::from_shape_vec((rows.len(), 5), flat).expect("five columns");
        Some((rec.is_volume(), a.into_pyarray(py)))
    }

    fn save_checkpoint(&mut self, path: PathBuf) -> PyResult<()> {
        each!(&mut self.sim, s => s.save_checkpoint(&path)).map_err(err)
    }

    fn load_checkpoint(&mut self, path: PathBuf) -> PyResult<()> {
        each!(&mut self.sim, s => s.load_checkpoint(&path)).map_err(err)
    }
}

/// Every registered model: name, title, reference, variables (name, unit,
/// meaning, rest), parameters (name, default, unit), presets, and its
/// usual dx, dt and D.
#[pyfunction]
fn models(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    MODELS
        .iter()
        .map(|m| {
            let d = PyDict::new(py);
            d.set_item("name", m.name)?;
            d.set_item("title", m.title)?;
            d.set_item("reference", m.reference)?;
            let vars: Vec<_> = m.variables.iter().map(|v| (v.name, v.unit, v.meaning, v.rest)).collect();
            d.set_item("variables", vars)?;
            let params: Vec<_> = m.parameters.iter().map(|p| (p.name, p.default, p.unit)).collect();
            d.set_item("parameters", params)?;
            d.set_item("presets", m.presets.iter().map(|p| p.name).collect::<Vec<_>>())?;
            d.set_item("default_preset", m.default_preset)?;
            d.set_item("dx", m.numerics.dx)?;
            d.set_item("dt_ms", m.numerics.dt)?;
            d.set_item("diffusion", m.numerics.diffusion)?;
            d.set_item("activation_threshold", m.activation_threshold)?;
            d.set_item("default_precision", if m.default_f64 { "f64" } else { "f32" })?;
            Ok(d)
        })
        .collect()
}

/// What fibrosis did: tissue cells before, cells removed, patches.
type FibrosisCounts = (usize, usize, usize);

/// Fibrosis made in a tissue by the library's seeded generator
/// (`fibril_host::tissue::fibrosis`): the labels after it, with the
/// uncoupled cells 0, and (tissue cells before, cells removed, patches).
#[pyfunction]
#[pyo3(signature = (tissue, pattern, density, seed, length_mm, width_mm))]
fn fibrosis<'py>(
    py: Python<'py>,
    tissue: &Bound<'py, PyDict>,
    pattern: &str,
    density: f64,
    seed: u64,
    length_mm: f64,
    width_mm: f64,
) -> PyResult<(Bound<'py, PyArrayDyn<u8>>, FibrosisCounts)> {
    let pattern = match pattern {
        "diffuse" => Fibrosis::Diffuse { density, seed },
        "patchy" => Fibrosis::Patchy { density, length_mm, width_mm, seed },
        other => return Err(err(format!("fibrosis pattern {other:?}: use \"diffuse\" or \"patchy\""))),
    };
    pattern.check().map_err(err)?;
    let mut spec = tissue_spec(tissue)?;
    let report = pattern.apply(&mut spec.tissue);
    let d = spec.tissue.dims;
    let shape = [d.nz as usize, d.ny as usize, d.nx as usize];
    let labels =
        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&shape), spec.tissue.labels).expect("the box");
    Ok((labels.into_pyarray(py), (report.tissue_cells, report.removed, report.patches)))
}

/// GPUs this machine offers to fibril (0 without a driver).
#[pyfunction]
fn gpu_count() -> usize {
    fibril_host::backend::gpu::device_count().unwrap_or(0)
}

#[pymodule]
fn _fibril(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Engine>()?;
    m.add_class::<Mesh>()?;
    m.add_function(wrap_pyfunction!(models, m)?)?;
    m.add_function(wrap_pyfunction!(gpu_count, m)?)?;
    m.add_function(wrap_pyfunction!(fibrosis, m)?)?;
    m.add("FibrilError", m.py().get_type::<FibrilError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

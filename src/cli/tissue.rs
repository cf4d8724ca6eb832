//! The `[tissue]` section of a run configuration: a geometry (a mask or
//! label file, or a built-in generator), fibres (a file, one direction,
//! or the generator's) and conductivities (diffusion coefficients, or
//! intra- and extracellular conductivities with chi and Cm), turned into
//! the tissue operator of the run, checked before any work starts.
//!
//! ```toml
//! [tissue]
//! geometry = "file"            # file (default) | slab | shell | cylinder
//! mask = "atria.vti"           # .npy (uint8/bool, (nz, ny, nx)) or .vti; labels 1.. are tissue
//! mask_array = "tissue"        # the .vti array (when it has several)
//! fibres = "fibres.npy"        # (nz, ny, nx, 3) or 6 with the sheet; or .vti vectors
//! d_fibre = 0.3                # mm^2/ms (or sigma_i / sigma_e with [grid] chi and cm)
//! d_cross = 0.05
//! layout = "compact"           # compact (default) | dense
//! weights = "auto"             # auto (default) | per-cell | classes
//!
//! [[tissue.region]]            # the cells of one label: any of
//! label = 2
//! d_fibre = 0.1                # its conductivities (d_fibre with d_cross),
//! d_cross = 0.02
//! preset = "m"                 # its cell type (a preset of the model),
//! parameters = { g_ks = 0.2 }  # its parameter values
//!
//! [tissue.parameter_fields]    # parameters given per cell, over the regions'
//! g_kr = "g_kr.npy"            # float (nz, ny, nx), or a .vti array of that name
//!
//! [tissue.fibrosis]            # uncoupled cells, written to fibrosis.npy
//! pattern = "patchy"           # diffuse | patchy (along the fibres)
//! density = 0.2                # fraction of the tissue's cells
//! seed = 1
//! length_mm = 3.0              # patchy: a patch's length and width
//! width_mm = 0.5
//! ```
//!
//! `weights`: each cell's own 18 weights, or each distinct row once with
//! a 16-bit class per cell (`fibril_host::tissue::rows`); `auto` takes the
//! classes where they take less memory (rows that repeat: constant fibres,
//! fibres that turn through z), on the CPU, one GPU, and a tissue split
//! over several GPUs (decided for the whole tissue; every part takes its
//! table).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, bail};
use fibril_host::backend::Solver;
use fibril_host::cell_params::{
    Cells, ParameterField, ParameterMap, ParameterSets, RegionParameters, grid_cell_name,
};
use fibril_host::simulation::{Mesh, PlacementError, TissueMesh};
use fibril_host::tissue::fibrosis::{Fibrosis, FibrosisReport};
use fibril_host::tissue::files::{read_fibres, read_labels, read_scalar_field};
use fibril_host::tissue::geometry::Generator;
use fibril_host::tissue::{Conductivity, Fibres, Operator, Tissue, TissueLayout, WeightChoice};
use fibril_host::{CellModel, Domain, GridDims, ModelInfo, ModelSetup, Scalar, State};
use serde::{Deserialize, Serialize};

use super::args::{GridArgs, harmonic_diffusions, number};
use super::select::Selected;

/// `[tissue]`: what the tissue is. Every key is optional; see the module doc.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TissueArgs {
    /// file (the default), slab, shell or cylinder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geometry: Option<String>,
    /// Mask or label field (.npy or .vti): 0 = no tissue, 1.. = labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mask: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mask_array: Option<String>,
    /// Fibre field (.npy or .vti), 3 (fibre) or 6 (fibre, sheet) components.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fibres: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fibres_array: Option<String>,
    /// One fibre direction everywhere (x, y, z) [default: x].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fibre: Option<[f64; 3]>,
    /// One sheet direction everywhere (orthotropic tissue, with d_sheet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheet: Option<[f64; 3]>,
    /// Diffusion coefficients, space unit^2 per time unit [default: the
    /// run's diffusion along and across].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d_fibre: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d_cross: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d_sheet: Option<f64>,
    /// Intra- and extracellular conductivities, S/m, [along, across] or
    /// [along, across, sheet]: with `[grid]` chi and cm, D = sigma / (chi
    /// Cm) with sigma = sigma_i sigma_e / (sigma_i + sigma_e), the
    /// monodomain conductivity of equal anisotropy ratios (the harmonic
    /// mean; Niederer et al. 2011).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma_i: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma_e: Option<Vec<f64>>,
    /// slab and shell: fibre angles, degrees, from the first to the last
    /// slice (slab) or from epicardium to endocardium (shell) [-60, 60].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angles_deg: Option<[f64; 2]>,
    /// shell: wall thickness, space units.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall: Option<f64>,
    /// cylinder: radius of the hole, space units.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hole: Option<f64>,
    /// compact (only tissue cells, the default) or dense (the box with a mask).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<TissueLayout>,
    /// auto (the default), per-cell or classes: how the weights are stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weights: Option<WeightChoice>,
    /// Conductivities, cell types and parameters of the cells of one
    /// label, each a `[[tissue.region]]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub region: Vec<RegionArgs>,
    /// Model parameters given per cell: `name = "file.npy"` (float, (nz,
    /// ny, nx)) or `.vti` (with a one-component array of that name).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parameter_fields: BTreeMap<String, PathBuf>,
    /// Fibrosis: uncoupled cells made by a seeded generator (written to
    /// `fibrosis.npy` in the run's directory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fibrosis: Option<FibrosisArgs>,
}

/// `[tissue.fibrosis]`: a pattern of uncoupled cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FibrosisArgs {
    /// diffuse (cells at random) or patchy (patches along the fibres).
    pub pattern: String,
    /// The fraction of the tissue's cells uncoupled.
    pub density: f64,
    #[serde(default)]
    pub seed: u64,
    /// patchy: a patch's length along the fibre and width across it, mm
    /// (the model's space unit) [3, 0.5].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_mm: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width_mm: Option<f64>,
}

impl FibrosisArgs {
    fn pattern(&self) -> anyhow::Result<Fibrosis> {
        let (density, seed) = (self.density, self.seed);
        let pattern = match self.pattern.as_str() {
            "diffuse" => {
                if self.length_mm.is_some() || self.width_mm.is_some() {
                    bail!(
                        "[tissue.fibrosis] length_mm and width_mm belong to pattern = \"patchy\"; remove them"
                    );
                }
                Fibrosis::Diffuse { density, seed }
            }
            "patchy" => Fibrosis::Patchy {
                density,
                seed,
                length_mm: self.length_mm.unwrap_or(3.0),
                width_mm: self.width_mm.unwrap_or(0.5),
            },
            other => bail!("[tissue.fibrosis] pattern = \"{other}\": use \"diffuse\" or \"patchy\""),
        };
        pattern.check().context("[tissue.fibrosis]")?;
        Ok(pattern)
    }
}

/// The fibrosis a run made: what it did, and the labels after it (0 for
/// the uncoupled cells), written to `fibrosis.npy`.
#[derive(Clone, Debug)]
pub struct FibrosisMade {
    pub pattern: Fibrosis,
    pub report: FibrosisReport,
    pub dims: GridDims,
    pub labels: Vec<u8>,
}

/// `[[tissue.region]]`: the conductivities of one label, its cell type
/// (a preset of the model) and parameter values, any of the three.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionArgs {
    pub label: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d_fibre: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d_cross: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d_sheet: Option<f64>,
    /// A preset of the model for the cells of this label (TP06: endo, m, epi).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Parameter values of this label, over the preset and the run's own.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, f64>,
}

impl RegionArgs {
    /// The region's own conductivities, if it gives them (d_fibre, with
    /// d_cross; d_sheet optional).
    fn conductivity(&self) -> anyhow::Result<Option<Conductivity>> {
        match (self.d_fibre, self.d_cross) {
            (Some(fibre), Some(cross)) => Ok(Some(Conductivity { fibre, cross, sheet: self.d_sheet })),
            (None, None) if self.d_sheet.is_none() => Ok(None),
            _ => bail!(
                "[[tissue.region]] label = {}: give d_fibre and d_cross together (and d_sheet only with them)",
                self.label
            ),
        }
    }

    /// The region's model parameters, if it gives any.
    fn parameters(&self) -> Option<RegionParameters> {
        (self.preset.is_some() || !self.parameters.is_empty()).then(|| RegionParameters {
            label: self.label,
            preset: self.preset.clone(),
            values: self.parameters.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        })
    }
}

/// The tissue of a run, ready for its solver.
#[derive(Clone, Debug)]
pub struct TissueRun {
    pub op: Arc<Operator>,
    pub layout: TissueLayout,
    pub weights: WeightChoice,
    /// The fibrosis made, if the tissue has one.
    pub fibrosis: Option<FibrosisMade>,
}

impl TissueArgs {
    pub fn layout(&self) -> TissueLayout {
        self.layout.unwrap_or(TissueLayout::Compact)
    }

    /// The conductivities from D or from sigma_i, sigma_e, chi and Cm.
    fn conductivity(&self, grid: &GridArgs, model: &ModelInfo) -> anyhow::Result<Conductivity> {
        let given_d = self.d_fibre.is_some() || self.d_cross.is_some() || self.d_sheet.is_some();
        match (&self.sigma_i, &self.sigma_e) {
            (None, None) => {
                let d = grid.diffusion.unwrap_or(model.numerics.diffusion);
                let fibre = self.d_fibre.unwrap_or(d);
                Ok(Conductivity { fibre, cross: self.d_cross.unwrap_or(fibre), sheet: self.d_sheet })
            }
            (Some(si), Some(se)) => {
                if given_d {
                    bail!("[tissue] gives both d_* and sigma_i/sigma_e; keep one of the two");
                }
                let d = harmonic_diffusions("[tissue]", si, se, grid, model)?;
                Ok(Conductivity { fibre: d[0], cross: d[1], sheet: d.get(2).copied() })
            }
            _ => bail!("[tissue] sigma_i and sigma_e go together"),
        }
    }
}

/// Refuses a `[[tissue.region]]` whose label no cell of the geometry
/// has (a typo, or a mask of other labels: its conductivities would
/// silently apply to nothing), label 0 (no tissue), and a label given
/// twice, listing the labels the geometry has.
fn check_region_labels(regions: &[RegionArgs], labels: &[u8]) -> anyhow::Result<()> {
    let mut present = [false; 256];
    for &l in labels {
        present[l as usize] = true;
    }
    let has = || {
        let list: Vec<String> = (1..256).filter(|&l| present[l]).map(|l| l.to_string()).collect();
        if list.is_empty() { "none".to_string() } else { list.join(", ") }
    };
    for (i, r) in regions.iter().enumerate() {
        if r.label == 0 {
            bail!("[[tissue.region]] label = 0: label 0 is no tissue; the geometry's labels are {}", has());
        }
        if !present[r.label as usize] {
            bail!(
                "[[tissue.region]] label = {}: no cell of the geometry has this label; its labels are {}",
                r.label,
                has()
            );
        }
        if regions[..i].iter().any(|q| q.label == r.label) {
            bail!("[[tissue.region]] label = {} is given twice; keep one table per label", r.label);
        }
    }
    Ok(())
}

impl TissueArgs {
    /// The regions' parameters and the parameter fields, read from their
    /// files for a tissue of `dims`.
    fn parameter_map(&self, dims: GridDims, model: &ModelInfo) -> anyhow::Result<ParameterMap> {
        let mut fields = Vec::new();
        for (name, path) in &self.parameter_fields {
            // The name before the file, which may be large.
            if model.parameter_index(name).is_none() {
                let known: Vec<&str> = model.parameters.iter().map(|p| p.name).collect();
                bail!(
                    "[tissue.parameter_fields] {name}: {} has no parameter \"{name}\"; its parameters are {}",
                    model.name,
                    known.join(", ")
                );
            }
            let values = read_scalar_field(path, Some(name), dims)
                .with_context(|| format!("reading the parameter field {name}"))?;
            fields.push(ParameterField { name: name.clone(), values });
        }
        Ok(ParameterMap { regions: self.region.iter().filter_map(RegionArgs::parameters).collect(), fields })
    }

    /// Refuses diffusion coefficients and conductivities beyond any
    /// plausible value (the bounds of `--diffusion` and `--sigma`,
    /// [`super::args::PLAUSIBLE`]), naming the key; what is not a positive
    /// number is refused by the tissue's own checks, which say so.
    fn check_plausible(&self) -> anyhow::Result<()> {
        let bound = |name: &str| {
            let b = super::args::PLAUSIBLE.iter().find(|b| b.0 == name).expect("a bound");
            (b.2, b.3)
        };
        let (d_max, d_what) = bound("diffusion");
        let (s_max, s_what) = bound("sigma");
        let mut given: Vec<(String, f64, f64, &str)> = Vec::new();
        for (key, v) in [("d_fibre", self.d_fibre), ("d_cross", self.d_cross), ("d_sheet", self.d_sheet)] {
            given.extend(v.map(|v| (format!("[tissue] {key}"), v, d_max, d_what)));
        }
        for r in &self.region {
            for (key, v) in [("d_fibre", r.d_fibre), ("d_cross", r.d_cross), ("d_sheet", r.d_sheet)] {
                given.extend(
                    v.map(|v| (format!("[[tissue.region]] label {}: {key}", r.label), v, d_max, d_what)),
                );
            }
        }
        for (key, values) in [("sigma_i", &self.sigma_i), ("sigma_e", &self.sigma_e)] {
            for &v in values.iter().flatten() {
                given.push((format!("[tissue] {key}"), v, s_max, s_what));
            }
        }
        for (key, v, max, what) in given {
            if v > max {
                bail!("{key} = {} is beyond any plausible {what}: give at most {}", number(v), number(max));
            }
        }
        Ok(())
    }
}

/// Builds the tissue of `args`, fixing the grid's dims and dx from a
/// geometry file (refusing a grid given otherwise), and the run's domain
/// with the tissue's stability limit checked for its dt.
pub fn prepare(
    args: &TissueArgs,
    grid: &mut GridArgs,
    explicit: &dyn Fn(&str) -> bool,
    setup: ModelSetup,
) -> anyhow::Result<(Domain, TissueRun)> {
    let model = setup.info();
    grid.check_plausible()?;
    args.check_plausible()?;
    if grid.sigma.is_some() {
        bail!(
            "[grid] sigma is an isotropic conductivity; with [tissue] give sigma_i and sigma_e (or d_fibre and d_cross)"
        );
    }
    let conductivity = args.conductivity(grid, model)?;
    let geometry = args.geometry.as_deref().unwrap_or("file");
    let generated_fibres = matches!(geometry, "slab" | "shell");
    if generated_fibres && (args.fibre.is_some() || args.fibres.is_some()) {
        bail!(
            "[tissue] geometry = \"{geometry}\" makes its own fibres; drop fibre/fibres (or use geometry = \"file\")"
        );
    }
    let only = |key: &str, present: bool, geometries: &str| -> anyhow::Result<()> {
        if present && !geometries.split(',').any(|g| g == geometry) {
            bail!("[tissue] {key} belongs to geometry = {geometries}, not \"{geometry}\"; remove it");
        }
        Ok(())
    };
    only("mask", args.mask.is_some(), "file")?;
    only("mask_array", args.mask_array.is_some(), "file")?;
    only("angles_deg", args.angles_deg.is_some(), "slab,shell")?;
    only("wall", args.wall.is_some(), "shell")?;
    only("hole", args.hole.is_some(), "cylinder")?;
    let dx_given = grid.dx.filter(|_| explicit("dx"));
    let mut tissue = match geometry {
        "file" => {
            let Some(path) = &args.mask else {
                bail!(
                    "[tissue] needs mask = \"FILE\" (.npy or .vti), or geometry = \"slab\", \"shell\" or \"cylinder\""
                );
            };
            let field = read_labels(path, args.mask_array.as_deref()).context("reading the tissue mask")?;
            let d = field.dims;
            for (key, value, n) in [("nx", grid.nx, d.nx), ("ny", grid.ny, d.ny), ("nz", grid.nz, d.nz)] {
                let given = value.filter(|_| explicit(key)).or(explicit("size").then_some(grid.size));
                if let Some(v) = given
                    && v != n
                {
                    bail!(
                        "the grid has {key} = {v}, but {} is {}x{}x{} (nx x ny x nz); leave the grid's size out \
                         with a mask file (it sets the grid)",
                        path.display(),
                        d.nx,
                        d.ny,
                        d.nz
                    );
                }
            }
            let dx = match (field.spacing, dx_given) {
                (Some(h), Some(dx)) if (h - dx).abs() > 1e-9 * h => bail!(
                    "{} has spacing {h}, the grid dx = {dx}; leave dx out (the file sets it) or resample the file",
                    path.display()
                ),
                (Some(h), _) => h,
                (None, _) => grid.dx.unwrap_or(model.numerics.dx),
            };
            let fibres = match (&args.fibres, args.fibre) {
                (Some(_), Some(_)) => {
                    bail!("[tissue] gives both fibres (a file) and fibre (one direction); keep one")
                }
                (Some(f), None) => {
                    read_fibres(f, args.fibres_array.as_deref(), d).context("reading the fibres")?
                }
                (None, f) => Fibres::Constant { fibre: f.unwrap_or([1.0, 0.0, 0.0]), sheet: args.sheet },
            };
            Tissue { dims: d, dx, labels: field.labels, fibres, conductivity, regions: Vec::new() }
        }
        "slab" | "shell" | "cylinder" => {
            let dims = grid.dims();
            let dx = grid.dx.unwrap_or(model.numerics.dx);
            let angles_deg = args.angles_deg.unwrap_or([-60.0, 60.0]);
            let generator = match geometry {
                "slab" => Generator::Slab { angles_deg },
                "shell" => Generator::Shell {
                    wall: args.wall.context("[tissue] geometry = \"shell\" needs wall (its thickness)")?,
                    angles_deg,
                },
                _ => Generator::Cylinder {
                    hole: args.hole.context("[tissue] geometry = \"cylinder\" needs hole (its radius)")?,
                    fibre: args.fibre.unwrap_or([1.0, 0.0, 0.0]),
                },
            };
            generator.check(dims, dx)?;
            generator.tissue(dims, dx, conductivity)
        }
        other => bail!("[tissue] geometry = \"{other}\": use file, slab, shell or cylinder"),
    };
    check_region_labels(&args.region, &tissue.labels)?;
    let fibrosis = match &args.fibrosis {
        None => None,
        Some(f) => {
            let pattern = f.pattern()?;
            let report = pattern.apply(&mut tissue);
            Some(FibrosisMade { pattern, report, dims: tissue.dims, labels: tissue.labels.clone() })
        }
    };
    for r in &args.region {
        if let Some(c) = r.conductivity()? {
            tissue.regions.push((r.label, c));
        }
    }
    let map = args.parameter_map(tissue.dims, model)?;
    grid.nx = Some(tissue.dims.nx);
    grid.ny = Some(tissue.dims.ny);
    grid.nz = Some(tissue.dims.nz);
    grid.dx = Some(tissue.dx);
    let dt = grid.dt.unwrap_or(model.numerics.dt);
    let op = Operator::build(&tissue).context("invalid tissue")?;
    op.check_dt(dt).context("invalid simulation parameters")?;
    let largest = tissue.largest_conductivity();
    grid.diffusion = Some(largest);
    let dims = tissue.dims;
    let sets =
        ParameterSets::resolve(&setup, &map, (&tissue.labels, Cells::Grid), |i| grid_cell_name(dims, i))
            .context("invalid parameters of the tissue")?;
    let mut domain = Domain::with_own_operator(tissue.dims, tissue.dx, dt, largest, setup)
        .context("invalid simulation parameters")?
        .with_operator_fingerprint(op.fingerprint());
    if let Some(sets) = sets {
        domain = domain.with_parameter_sets(Arc::new(sets));
    }
    let weights = args.weights.unwrap_or_default();
    Ok((domain, TissueRun { op: Arc::new(op), layout: args.layout(), weights, fibrosis }))
}

/// The solver of a tissue run on the selected backend: the CPU, one GPU,
/// or several GPUs sharing the tissue along z in parts of about equal
/// numbers of tissue cells (the library's factory,
/// [`fibril_host::simulation::SolverPlan`]).
pub fn build_solver<M: CellModel, T: Scalar>(
    selected: &Selected,
    tissue: &TissueRun,
    compute: &super::args::ComputeArgs,
    domain: &Domain,
    initial: &State<T>,
) -> anyhow::Result<Box<dyn Solver<T>>> {
    if matches!(selected, Selected::Rank { .. }) {
        // Refused before the ranks' rendezvous, which would wait for the others.
        return Err(PlacementError::TissueOverProcesses.into());
    }
    let mesh =
        Mesh::Tissue(TissueMesh { op: tissue.op.clone(), layout: tissue.layout, weights: tissue.weights });
    // The tissue solvers take no kernel choice (their own kernels).
    let kernel =
        compute.kernel_choice().config(domain.model().info(), T::PRECISION, domain.dims(), selected.gpus());
    super::select::build_solver::<M, T>(&mesh, selected, compute, kernel, domain, initial)
}

//! Real tissue: an irregular geometry (a mask or a label field on the
//! grid), a fibre field and conductivities, turned into the per-cell
//! neighbour weights of the 19-point anisotropic operator
//! (`kernels_gpu::tissue`) once on the host, and the solvers that step
//! them, densely with a mask or compactly (only the tissue cells; Xia et
//! al. 2015, section 3).
//!
//! - [`conductivity`]: the diffusion tensor of a cell from its fibre (and
//!   sheet) direction;
//! - [`weights`]: the discretisation, the no-flux rule and the stability
//!   limit (Gershgorin);
//! - [`geometry`]: the built-in geometries (slab, ellipsoidal shell,
//!   cylinder with a hole) and their fibres;
//! - [`files`]: masks, labels and fibres from `.npy` and `.vti` files;
//! - [`rows`]: the weights as a solver stores them, each cell's own row
//!   or the distinct rows with a class per cell (chosen automatically);
//! - [`neighbours`]: the compact layout's neighbour table as a solver
//!   stores it, u32 indices or 16-bit offsets (chosen automatically);
//! - [`cpu`], [`gpu`]: the solvers, one per backend, each with both
//!   layouts;
//! - [`split`], [`split_cpu`], [`split_gpu`]: the tissue split along z
//!   over sub-domains of about equal numbers of tissue cells (several
//!   GPUs), and its solvers.

pub mod conductivity;
pub mod cpu;
pub mod files;
pub mod geometry;
pub mod gpu;
pub mod maps;
pub mod neighbours;
pub mod rows;
pub mod split;
pub mod split_cpu;
pub mod split_gpu;
pub mod weights;

use kernels_gpu::GridDims;
use thiserror::Error;

use crate::numbers::{Round, readable};

pub use conductivity::{Conductivity, Fibres};
pub use neighbours::{NeighbourChoice, NeighbourForm, NeighbourTable};
pub use rows::{WeightChoice, WeightRows};
pub use weights::Operator;

/// How a solver stores a tissue's operator: the weights (per cell or by
/// class) and, in the compact layout, the neighbour table (u32 or 16-bit).
/// The default chooses both automatically.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableChoice {
    pub weights: WeightChoice,
    pub neighbours: NeighbourChoice,
}

impl From<WeightChoice> for TableChoice {
    fn from(weights: WeightChoice) -> Self {
        Self { weights, neighbours: NeighbourChoice::Auto }
    }
}

/// What a tissue solver's method name says of its storage, after
/// "tissue-": the layout, "-classes" where the weights are stored by
/// class, "-n16" where the neighbours are 16-bit offsets, then the
/// number of rows of the classes: `compact-classes-n16 (87 rows)`.
pub fn storage_name(layout: TissueLayout, classes: Option<u32>, neighbours: Option<NeighbourForm>) -> String {
    let n16 = neighbours.map_or("", NeighbourForm::suffix);
    match classes {
        None => format!("{}{n16}", layout.name()),
        Some(rows) => format!("{}-classes{n16} ({rows} rows)", layout.name()),
    }
}

/// How the tissue cells are stored and stepped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TissueLayout {
    /// The whole box, row-major, with a mask: cells outside the tissue are
    /// stored but not stepped.
    Dense,
    /// Only the tissue cells, with a neighbour table (Xia et al. 2015).
    Compact,
}

impl TissueLayout {
    pub const fn name(self) -> &'static str {
        match self {
            TissueLayout::Dense => "dense",
            TissueLayout::Compact => "compact",
        }
    }
}

/// Why a tissue description was refused; each message names the fix.
#[derive(Debug, Error, PartialEq)]
pub enum TissueError {
    #[error(
        "the geometry has no tissue cell (every label is 0); check the mask file or the generator's sizes"
    )]
    Empty,
    #[error(
        "{what} has {got} values, the grid {nx}x{ny}x{nz} needs {want}; give a field of shape (nz, ny, nx) = ({nz}, {ny}, {nx})"
    )]
    Shape { what: String, got: usize, want: usize, nx: u32, ny: u32, nz: u32 },
    #[error(
        "{name} = {value} must be a positive number (a diffusion coefficient, space unit^2 per time unit)"
    )]
    NotPositive { name: &'static str, value: f64 },
    #[error(
        "the fibre direction of tissue cell (x, y, z) = {cell:?} is {value:?}, which has no direction; \
         give a nonzero fibre vector in every tissue cell (or leave the cell out of the mask)"
    )]
    NoFibre { cell: [u32; 3], value: [f64; 3] },
    #[error(
        "the sheet direction of tissue cell (x, y, z) = {cell:?} is parallel to its fibre (or zero); give a \
         sheet vector across the fibre"
    )]
    BadSheet { cell: [u32; 3] },
    #[error(
        "d_sheet is given without sheet directions; give sheet vectors (6-component fibres or `sheet`), or drop d_sheet"
    )]
    SheetWithoutVectors,
    #[error(
        "unstable time step for this tissue: dt = {dt} exceeds the explicit limit {} of its 19-point \
         operator (Gershgorin bound 2/max_i(sum_j w_ij + sum_j |w_ij|), reached at cell (x, y, z) = {cell:?}); \
         use --dt {} or smaller, or a coarser --dx",
        readable(*dt_max, 6, Round::Down),
        readable(*dt_max, 6, Round::Down)
    )]
    Unstable { dt: f64, dt_max: f64, cell: [u32; 3] },
    #[error(
        "the tissue's weights have more than {max} distinct rows, more than a 16-bit class tells apart; \
         store them per cell (weights = \"per-cell\" or \"auto\" in [tissue])"
    )]
    TooManyClasses { max: usize },
    #[error("the grid {nx}x{ny}x{nz} has {cells} cells, more than the 2^32 - 1 a tissue layout indexes")]
    TooLarge { nx: u32, ny: u32, nz: u32, cells: u64 },
}

/// A tissue on a grid: which cells are tissue (and of which label),
/// which way its fibres run, and how well it conducts.
#[derive(Clone, Debug, PartialEq)]
pub struct Tissue {
    pub dims: GridDims,
    /// Grid spacing h (dx = dy = dz), in the model's space unit.
    pub dx: f64,
    /// Label of every cell, row-major: 0 = no tissue, 1.. = tissue of that
    /// type (cell types or conductivity regions).
    pub labels: Vec<u8>,
    pub fibres: Fibres,
    /// The conductivities of every tissue cell, unless its label has its own.
    pub conductivity: Conductivity,
    /// Conductivities of the cells of a label, over `conductivity`.
    pub regions: Vec<(u8, Conductivity)>,
}

impl Tissue {
    /// A tissue from a mask (true = tissue, label 1).
    pub fn from_mask(
        dims: GridDims,
        dx: f64,
        mask: &[bool],
        fibres: Fibres,
        conductivity: Conductivity,
    ) -> Self {
        Self {
            dims,
            dx,
            labels: mask.iter().map(|&m| u8::from(m)).collect(),
            fibres,
            conductivity,
            regions: Vec::new(),
        }
    }

    /// The whole box as tissue.
    pub fn box_of(dims: GridDims, dx: f64, fibres: Fibres, conductivity: Conductivity) -> Self {
        Self::from_mask(dims, dx, &vec![true; dims.cells()], fibres, conductivity)
    }

    /// Checks lengths, conductivities and fibres before weights are built.
    pub fn check(&self) -> Result<(), TissueError> {
        let cells = self.dims.cells();
        if cells as u64 >= u32::MAX as u64 {
            return Err(TissueError::TooLarge {
                nx: self.dims.nx,
                ny: self.dims.ny,
                nz: self.dims.nz,
                cells: cells as u64,
            });
        }
        let shape = |what: &str, got: usize| TissueError::Shape {
            what: what.into(),
            got,
            want: cells,
            nx: self.dims.nx,
            ny: self.dims.ny,
            nz: self.dims.nz,
        };
        if self.labels.len() != cells {
            return Err(shape("the mask or label field", self.labels.len()));
        }
        if !self.labels.iter().any(|&l| l != 0) {
            return Err(TissueError::Empty);
        }
        if let Fibres::PerCell { fibre, sheet } = &self.fibres {
            if fibre.len() != cells {
                return Err(shape("the fibre field", fibre.len()));
            }
            if sheet.as_ref().is_some_and(|s| s.len() != cells) {
                return Err(shape("the sheet field", sheet.as_ref().map_or(0, Vec::len)));
            }
        }
        for c in std::iter::once(&self.conductivity).chain(self.regions.iter().map(|r| &r.1)) {
            c.check()?;
            if c.sheet.is_some() && !self.fibres.has_sheet() {
                return Err(TissueError::SheetWithoutVectors);
            }
        }
        Ok(())
    }

    /// Number of tissue cells.
    pub fn tissue_cells(&self) -> usize {
        self.labels.iter().filter(|&&l| l != 0).count()
    }

    /// The conductivities of a cell of label `label`.
    pub fn conductivity_of(&self, label: u8) -> &Conductivity {
        self.regions.iter().find(|r| r.0 == label).map_or(&self.conductivity, |r| &r.1)
    }
}

//! A tissue as a run describes it: its cells and labels on the grid, its
//! fibres and conductivities, and the checks of those before any weight is
//! built.

use kernels_gpu::GridDims;

use super::conductivity::{Conductivity, Fibres};
use super::error::TissueError;

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
    /// The largest diffusion coefficient of any of its conductivities (the
    /// base and every region's): the D of a run on it, which bounds dt.
    pub fn largest_conductivity(&self) -> f64 {
        std::iter::once(&self.conductivity)
            .chain(self.regions.iter().map(|r| &r.1))
            .map(Conductivity::largest)
            .fold(0.0, f64::max)
    }

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

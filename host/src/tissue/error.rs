//! Why a tissue description was refused; shared by every part of the
//! tissue (its check, the weights, the storage) and by the solvers'
//! errors, so it depends on nothing else of the tissue.

use thiserror::Error;

use crate::numbers::{Round, readable};

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

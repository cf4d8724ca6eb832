//! Diffusion through real tissue: an anisotropic conductivity tensor and
//! an irregular geometry, folded into per-cell neighbour weights, and one
//! time step of a tissue cell, written once for the CPU and the GPU.
//!
//! The monodomain diffusion term div(D grad V) with a full tensor D
//! (Xia et al. 2015, eq. 9: sum over i, j of d/di (D_ij dV/dj)) is
//! discretised by the host (`fibril_host::tissue::weights`) on the
//! 19-point neighbourhood of a cell (its 6 face and 12 edge neighbours,
//! [`OFFSETS`]) as
//!
//! ```text
//! dV_i/dt (diffusion) = sum_k w_ik (V_{n_k(i)} - V_i)
//! ```
//!
//! with weights in 1/ms that carry the tensor, the spacing, the no-flux
//! rule at the faces of the box and at the boundary of the tissue, and the
//! mask. Written as differences, a uniform field stays exactly uniform
//! (every term is `w * 0`), whatever the weights' rounding. A cell's
//! weight towards a neighbour that is not connected (outside the box,
//! outside the tissue, or not coupled by the tensor) is exactly 0, and
//! such a neighbour is never read: the cells outside the tissue may hold
//! anything.
//!
//! Two layouts step the same cells with the same function
//! ([`weighted_diffusion`], then [`crate::cell::step_cell`] with
//! `diffusion_number = dt`):
//! - dense with a mask ([`DenseTissue`]): every cell of the box is stored,
//!   row-major; the cells outside the tissue are skipped;
//! - compact ([`CompactTissue`]; Xia et al. 2015, section 3: only tissue
//!   cells are stored and computed): the tissue cells in row-major order,
//!   with a table of neighbours beside the weights, as u32 indices or,
//!   where every one fits, as 16-bit offsets from the cell
//!   ([`neighbours`], [`NeighbourLookup`]).
//!
//! Both read the same weights (rounded once on the host) in the same
//! order, so they give the same bits, on the CPU and on the GPU.
//!
//! Where the weights are: each stored cell's own row of a table of as many
//! rows as stored cells ([`OwnRows`]), or the row of its class
//! ([`ClassRows`]): most cells share their row with many others (every
//! interior cell of a constant-fibre region, every cell of a z-plane of a
//! slab whose fibres turn through z), so the host keeps each distinct row
//! once (bitwise equal after rounding) and a 16-bit class per cell. A
//! step then reads 2 bytes of class instead of 18 weights (72 bytes in
//! f32), and the table, small, stays in the caches. The class-indexed
//! kernels read the very values the per-cell ones read, in the same order:
//! the same bits.

pub mod neighbours;

pub use neighbours::{Indices32, NeighbourLookup, Offsets16};

use core::marker::PhantomData;

use crate::cell::CellStep;
use crate::events::{Recorder, StimulusArgs};
use crate::layout::grid::GridDims;
use crate::model::CellModel;
use crate::real::Real;

/// Neighbours of the 19-point stencil besides the cell itself.
pub const DIRECTIONS: usize = 18;

/// The neighbour offsets (x, y, z), in the order the weights are stored
/// and summed: the 6 faces (-x, +x, -y, +y, -z, +z), then the 12 edges in
/// the xy, xz and yz planes.
pub const OFFSETS: [[i32; 3]; DIRECTIONS] = [
    [-1, 0, 0],
    [1, 0, 0],
    [0, -1, 0],
    [0, 1, 0],
    [0, 0, -1],
    [0, 0, 1],
    [-1, -1, 0],
    [1, -1, 0],
    [-1, 1, 0],
    [1, 1, 0],
    [-1, 0, -1],
    [1, 0, -1],
    [-1, 0, 1],
    [1, 0, 1],
    [0, -1, -1],
    [0, 1, -1],
    [0, -1, 1],
    [0, 1, 1],
];

/// The direction of `OFFSETS[k]` reversed.
pub const fn opposite(k: usize) -> usize {
    let o = OFFSETS[k];
    let mut j = 0;
    while j < DIRECTIONS {
        let p = OFFSETS[j];
        if p[0] == -o[0] && p[1] == -o[1] && p[2] == -o[2] {
            return j;
        }
        j += 1;
    }
    panic!("every offset has its opposite")
}

/// The direction whose offset is `o`, if it is one of the stencil's.
pub const fn direction_of(o: [i32; 3]) -> Option<usize> {
    let mut j = 0;
    while j < DIRECTIONS {
        let p = OFFSETS[j];
        if p[0] == o[0] && p[1] == o[1] && p[2] == o[2] {
            return Some(j);
        }
        j += 1;
    }
    None
}

/// The diffusion term of one cell: `sum_k w_k (u[n_k] - uc)`, one fused
/// multiply-add per direction in the order of [`OFFSETS`], with
/// `n_k = neighbour(k)`. A direction with a zero weight names the cell
/// itself (the caller sees to it: the compact tables store the cell there,
/// the dense step selects it), so its neighbour is never read, and adds
/// `0 * (uc - uc)`, a zero, which leaves the sum as it is, bit for bit: the
/// sum starts at +0, and a round-to-nearest sum is -0 only when both
/// addends are, so it is never -0 and adding a zero of either sign changes
/// nothing. (Only a cell whose own value is not finite, which its step
/// turns to NaN anyway, would differ from skipping the term.)
///
/// Written out for the 18 directions (not a loop): the offsets are then
/// constants and the neighbour loads do not wait on branches, which on the
/// GPU is what bounds this step once the weights come from a small table
/// of classes. Indices are u32 (a layout holds fewer than 2^32 cells):
/// one 32-bit select and one wide multiply-add per address.
///
/// # Safety
/// `neighbour(k)` is a valid index of `u` for every k, the index of the
/// cell (whose value is `uc`) where `w[k]` is zero.
#[inline(always)]
pub unsafe fn weighted_diffusion<T: Real>(
    u: *const T,
    uc: T,
    w: &[T; DIRECTIONS],
    neighbour: impl Fn(usize) -> u32,
) -> T {
    const _: () = assert!(DIRECTIONS == 18, "the terms below are written out for 18 directions");
    let mut acc = T::ZERO;
    macro_rules! terms {
        ($($k:literal)*) => {$(
            let un = unsafe { *u.add(neighbour($k) as usize) };
            acc = w[$k].mul_add(un - uc, acc);
        )*};
    }
    terms!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17);
    acc
}

/// Values per row of a table of classes: the 18 weights and two zeros,
/// so that a row starts on a 16-byte boundary and is read with five
/// 128-bit loads in f32 (ten in f64) instead of 18 scalar ones.
pub const CLASS_ROW: usize = 20;

/// A row of a table of classes as the GPU reads it: one aligned aggregate,
/// which the compiler loads with vector instructions.
#[cfg(target_arch = "nvptx64")]
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct PaddedRow<T: Copy>([T; CLASS_ROW]);

/// How a stored cell finds its weights in a layout's table: the kernels
/// are generic over it (one entry point each).
pub trait RowLookup {
    /// The 18 weights of stored cell `c` of a layout of `stored` cells,
    /// whose table is at `weights` (in `T`), with `rows` rows and class
    /// index `class`.
    ///
    /// # Safety
    /// `c < stored`; `weights` holds the table [`OwnRows`] or
    /// [`ClassRows`] describes; for [`ClassRows`], `class` points at
    /// `stored` u16 below `rows`, and on the GPU `weights` is 16-byte
    /// aligned (a device allocation is).
    unsafe fn weights<T: Real>(
        weights: u64,
        class: u64,
        rows: u32,
        stored: usize,
        c: usize,
    ) -> [T; DIRECTIONS];

    /// The 18 neighbour indices of cell `i` of the dense layout `lay`
    /// whose weights are `w`: the neighbour in direction k, or the cell
    /// itself where `w[k]` is 0 (that neighbour may lie outside the box or
    /// the tissue).
    ///
    /// # Safety
    /// `i` is a cell of `lay`'s box; for [`ClassRows`], `lay.class` holds
    /// its class and `lay.offsets` the offsets of its row (as
    /// [`DenseTissue::offsets`] says), 16-byte aligned on the GPU.
    unsafe fn dense_neighbours<T: Real>(lay: &DenseTissue, w: &[T; DIRECTIONS], i: u32) -> [u32; DIRECTIONS];
}

/// `[f(0), .., f(17)]` written out: each element a constant direction, so
/// the array lives in registers. (`core::array::from_fn` over the
/// neighbour selects left a loop over an array in local memory in the
/// dense per-cell kernels; `tests/ptx.rs` checks that no tissue kernel
/// loads from local memory.)
#[inline(always)]
fn each_direction<V>(f: impl Fn(usize) -> V) -> [V; DIRECTIONS] {
    [
        f(0),
        f(1),
        f(2),
        f(3),
        f(4),
        f(5),
        f(6),
        f(7),
        f(8),
        f(9),
        f(10),
        f(11),
        f(12),
        f(13),
        f(14),
        f(15),
        f(16),
        f(17),
    ]
}

/// A row of a table of class offsets as the GPU reads it (five 128-bit loads).
#[cfg(target_arch = "nvptx64")]
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct PaddedOffsets([i32; CLASS_ROW]);

/// Every stored cell has its own row: weight k of cell c at
/// `k * stored + c`, so that the threads of a warp, on consecutive cells,
/// read consecutive values (the class index and row count are not read).
pub enum OwnRows {}

/// Stored cell c has row `class[c]` (a u16) of a table of `rows` rows, row
/// r's weights at `r * CLASS_ROW ..` ([`CLASS_ROW`]): the cells of a warp
/// mostly share a row, so a row is read whole rather than spread.
pub enum ClassRows {}

impl RowLookup for OwnRows {
    #[inline(always)]
    unsafe fn weights<T: Real>(
        weights: u64,
        _class: u64,
        _rows: u32,
        stored: usize,
        c: usize,
    ) -> [T; DIRECTIONS] {
        let table = weights as *const T;
        // SAFETY: per the contract.
        core::array::from_fn(|k| unsafe { *table.add(k * stored + c) })
    }

    #[inline(always)]
    unsafe fn dense_neighbours<T: Real>(lay: &DenseTissue, w: &[T; DIRECTIONS], i: u32) -> [u32; DIRECTIONS] {
        each_direction(|k| if w[k] != T::ZERO { i.wrapping_add(lay.offset(k)) } else { i })
    }
}

impl RowLookup for ClassRows {
    #[inline(always)]
    unsafe fn weights<T: Real>(
        weights: u64,
        class: u64,
        _rows: u32,
        _stored: usize,
        c: usize,
    ) -> [T; DIRECTIONS] {
        // SAFETY (both reads): per the contract.
        let row = unsafe { *(class as *const u16).add(c) } as usize;
        let at = unsafe { (weights as *const T).add(row * CLASS_ROW) };
        // The same values either way; only the width of the loads differs
        // (a host Vec is not 16-byte aligned).
        #[cfg(target_arch = "nvptx64")]
        let padded = unsafe { *(at as *const PaddedRow<T>) }.0;
        #[cfg(not(target_arch = "nvptx64"))]
        let padded: [T; CLASS_ROW] = core::array::from_fn(|k| unsafe { *at.add(k) });
        core::array::from_fn(|k| padded[k])
    }

    /// The row's offsets were zeroed where its weights are 0 when the
    /// host built them, so the select of [`OwnRows`] is one add here.
    #[inline(always)]
    unsafe fn dense_neighbours<T: Real>(
        lay: &DenseTissue,
        _w: &[T; DIRECTIONS],
        i: u32,
    ) -> [u32; DIRECTIONS] {
        // SAFETY (both reads): per the contract.
        let row = unsafe { *(lay.class as *const u16).add(i as usize) } as usize;
        let at = unsafe { (lay.offsets as *const i32).add(row * CLASS_ROW) };
        #[cfg(target_arch = "nvptx64")]
        let padded = unsafe { *(at as *const PaddedOffsets) }.0;
        #[cfg(not(target_arch = "nvptx64"))]
        let padded: [i32; CLASS_ROW] = core::array::from_fn(|k| unsafe { *at.add(k) });
        each_direction(|k| i.wrapping_add(padded[k] as u32))
    }
}

/// A row-major grid of which only the cells of a mask are tissue, with
/// their weights. `#[repr(C)]`: passed by value to the dense kernels.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenseTissue {
    pub dims: GridDims,
    /// `*const T`: the weights ([`OwnRows`] or [`ClassRows`] says where;
    /// a cell's own row is 0 outside the tissue).
    pub weights: u64,
    /// `*const u8`: 1 for a tissue cell, 0 elsewhere, row-major.
    pub mask: u64,
    /// `*const u16`: the class (row) of every cell of the box, for
    /// [`ClassRows`]; 0 for [`OwnRows`].
    pub class: u64,
    /// Rows of the table for [`ClassRows`] (the box's cells for [`OwnRows`]).
    pub rows: u32,
    /// `*const i32`, for [`ClassRows`]: row r's neighbour offsets at
    /// `r * CLASS_ROW + k`, the index offset of direction k on this box
    /// ([`DenseTissue::offset`], as an i32) where the row's weight k is
    /// not 0 and 0 where it is, zeros after the 18th; 0 for [`OwnRows`].
    pub offsets: u64,
}

impl DenseTissue {
    /// Index offset of direction `k` on this grid (added with wrapping
    /// arithmetic, so -1 becomes `i - 1`).
    #[inline(always)]
    pub const fn offset(&self, k: usize) -> u32 {
        let o = OFFSETS[k];
        let (nx, slice) = (self.dims.nx as i64, self.dims.nx as i64 * self.dims.ny as i64);
        (o[0] as i64 + o[1] as i64 * nx + o[2] as i64 * slice) as u32
    }
}

/// Only the tissue cells, in row-major order of the box, with a table of
/// neighbours in the form `N` ([`Indices32`] or [`Offsets16`]): the type
/// says how the kernel that steps the layout reads the table.
/// `#[repr(C)]`: passed by value to the compact kernels (`N` takes no
/// space).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactTissue<N: NeighbourLookup> {
    /// The box the tissue lies in.
    pub dims: GridDims,
    /// Number of tissue cells.
    pub cells: u32,
    /// `*const T`: the weights ([`OwnRows`] or [`ClassRows`] says where).
    pub weights: u64,
    /// `*const N::Entry`: where the tissue cell in direction k of cell c
    /// is, at `k * cells + c` ([`NeighbourLookup`]; c itself where the
    /// weight is 0).
    pub neighbours: u64,
    /// `*const u32`: the row-major index in the box of tissue cell c.
    pub index: u64,
    /// `*const u16`: the class (row) of every tissue cell, for
    /// [`ClassRows`]; 0 for [`OwnRows`].
    pub class: u64,
    /// Rows of the table for [`ClassRows`] (`cells` for [`OwnRows`]).
    pub rows: u32,
    /// The form of `neighbours`.
    pub form: PhantomData<N>,
}

/// One time step of cell `i` of a dense grid with a mask: nothing outside
/// the tissue, else the weighted diffusion, the model's reaction and the
/// crossing recorder, exactly as [`step_compact_cell`] does.
///
/// # Safety
/// `cell.u`, `cell.u_next` hold the grid's cells, `local` `M::Locals::COUNT` times as
/// many (variable k of cell i at `k * cells + i`); `lay`'s buffers hold
/// what its doc says for this precision and `R`; every nonzero weight
/// points inside the grid; `i` is a cell of the grid that no other thread
/// steps; `rec` is off or valid for the grid's cells.
#[inline(always)]
pub unsafe fn step_dense_cell<M: CellModel, T: Real, R: RowLookup>(
    cell: &CellStep<'_, M, T>,
    lay: &DenseTissue,
    i: u32,
) {
    let cells = lay.dims.cells();
    let iu = i as usize;
    // SAFETY: per the contract.
    unsafe {
        if *(lay.mask as *const u8).add(iu) == 0 {
            return;
        }
        let uc = *cell.u.add(iu);
        let w = R::weights::<T>(lay.weights, lay.class, lay.rows, cells, iu);
        // A cell at a face of the box or of the tissue has unconnected
        // directions whose neighbour may lie outside the box or hold
        // anything (NaN outside the tissue): the cell itself is read there.
        let neighbours = R::dense_neighbours(lay, &w, i);
        let diffusion = weighted_diffusion(cell.u, uc, &w, |k| neighbours[k]);
        cell.store(uc, diffusion, (cells, iu));
    }
}

/// One time step of tissue cell `c` of a compact layout; the same
/// operations in the same order as [`step_dense_cell`].
///
/// # Safety
/// As [`step_dense_cell`], with `cell.u`, `cell.u_next` holding `lay.cells` values
/// or more, `local` `M::Locals::COUNT * lay.cells`, `c < lay.cells`, the
/// neighbour table holding indices of `u` (below `lay.cells`, or, for a
/// sub-domain of a split tissue, of the halo cells stored after them) in
/// the form `N` (built for it: every offset of [`Offsets16`] lands on
/// such an index), and `rec` over the cells of `u`.
#[inline(always)]
pub unsafe fn step_compact_cell<M: CellModel, T: Real, R: RowLookup, N: NeighbourLookup>(
    cell: &CellStep<'_, M, T>,
    lay: &CompactTissue<N>,
    c: u32,
) {
    let cells = lay.cells as usize;
    let cu = c as usize;
    // SAFETY: per the contract.
    unsafe {
        let uc = *cell.u.add(cu);
        let w = R::weights::<T>(lay.weights, lay.class, lay.rows, cells, cu);
        // The table names the cell itself where the weight is 0; whether
        // such an entry is read is the table form's choice
        // (`NeighbourLookup::SKIP_UNCOUPLED`): the same cell either way.
        let diffusion = weighted_diffusion(cell.u, uc, &w, |k| {
            if N::SKIP_UNCOUPLED && w[k] == T::ZERO {
                c
            } else {
                N::neighbour(lay.neighbours, cells, cu, k) as u32
            }
        });
        cell.store(uc, diffusion, (cells, cu));
    }
}

/// Applies a stimulus to stored cell `c` of a tissue buffer and records
/// the jump: stored cell c is box cell `index[c]` (compact), or box cell
/// c itself when `index` is 0 (dense). The region test is the one of
/// [`crate::events::stimulate_cell`], on the box's coordinates.
///
/// # Safety
/// `u` holds the stored cells and `c` is one of them; `index` is 0 or
/// holds a box index per stored cell; the mask of a mask region covers
/// the box; `rec` is off or valid for the stored cells.
#[inline(always)]
pub unsafe fn stimulate_stored_cell<T: Real>(
    u: *mut T,
    dims: GridDims,
    index: u64,
    args: &StimulusArgs<T>,
    rec: &Recorder<T>,
    c: u32,
) {
    // SAFETY: per the contract.
    unsafe {
        let i = if index == 0 { c } else { *(index as *const u32).add(c as usize) };
        let x = i % dims.nx;
        let y = (i / dims.nx) % dims.ny;
        let z = i / (dims.nx * dims.ny);
        if !args.contains(x, y, z, i) {
            return;
        }
        let before = *u.add(c as usize);
        let after = args.apply(before);
        *u.add(c as usize) = after;
        rec.record_jump(c, before, after);
        args.carry(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_the_19_point_neighbourhood_with_opposites() {
        for (k, o) in OFFSETS.iter().enumerate() {
            let n = o.iter().filter(|&&a| a != 0).count();
            assert_eq!(n, if k < 6 { 1 } else { 2 }, "faces first, then edges: {o:?}");
            assert_eq!(opposite(opposite(k)), k);
            assert_eq!(direction_of(*o), Some(k));
            assert!(OFFSETS[k + 1..].iter().all(|p| p != o), "{o:?} twice");
        }
        assert_eq!(direction_of([1, 1, 1]), None);
        assert_eq!(opposite(0), 1);
    }

    #[test]
    fn weighted_sum_reads_connected_neighbours_and_keeps_uniform_fields() {
        let mut w = [0.0f64; DIRECTIONS];
        w[1] = 2.0;
        w[9] = -0.5;
        // The cell is u[0]; an unconnected direction names it.
        let u = [1.0, 3.0, 5.0, f64::NAN];
        let nb = |k: usize| match k {
            1 => 1,
            9 => 2,
            _ => 0,
        };
        // SAFETY: every index is below 4, the cell's own where w is 0.
        let d = unsafe { weighted_diffusion(u.as_ptr(), 1.0, &w, nb) };
        assert_eq!(d, 2.0 * 2.0 - 0.5 * 4.0);
        let flat = [7.25f32; 4];
        let wf: [f32; DIRECTIONS] = core::array::from_fn(|k| k as f32 * 0.37 - 2.0);
        // SAFETY: as above; every index is below 4.
        let d = unsafe { weighted_diffusion(flat.as_ptr(), 7.25, &wf, |k| (k % 4) as u32) };
        assert_eq!(d.to_bits(), 0f32.to_bits(), "a uniform field gives exactly +0");
    }

    #[test]
    fn zero_weights_add_nothing_whatever_the_sign_of_the_sum() {
        // Sums that end at +0, at a negative value and at a tiny one: the
        // unconnected directions (weight 0, the cell itself) leave each as
        // the sum over the connected ones alone gives it.
        for (uc, values) in [(1.0f32, [1.0f32, 1.0]), (2.0, [1.5, -3.0]), (1e-30, [2e-30, 0.0])] {
            let u = [uc, values[0], values[1]];
            let mut w = [0.0f32; DIRECTIONS];
            w[4] = 0.75;
            w[11] = -1.25;
            let nb = |k: usize| match k {
                4 => 1,
                11 => 2,
                _ => 0,
            };
            // SAFETY: every index is below 3, the cell's own where w is 0.
            let d = unsafe { weighted_diffusion(u.as_ptr(), uc, &w, nb) };
            let first = <f32 as Real>::mul_add(0.75, values[0] - uc, 0.0);
            let alone = <f32 as Real>::mul_add(-1.25, values[1] - uc, first);
            assert_eq!(d.to_bits(), alone.to_bits(), "uc {uc}");
        }
    }

    #[test]
    fn dense_offsets_wrap_to_the_neighbours_index() {
        let lay =
            DenseTissue { dims: GridDims::new(5, 4, 3), weights: 0, mask: 0, class: 0, rows: 0, offsets: 0 };
        let i = lay.dims.index(2, 2, 1) as u32;
        for (k, o) in OFFSETS.iter().enumerate() {
            let j = lay.dims.index((2 + o[0]) as u32, (2 + o[1]) as u32, (1 + o[2]) as u32) as u32;
            assert_eq!(i.wrapping_add(lay.offset(k)), j);
        }
    }
}

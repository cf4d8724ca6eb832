//! The tissue kernels: one thread per cell, the bodies of
//! [`crate::tissue`] (the CPU's too).
//!
//! - `<model>_tissue_dense_<t>(u, u_next, local, lay: DenseTissue, step,
//!   coeffs, window, rec)`: the row-major box with a mask; launched like
//!   the naive kernel (2D blocks over x and y, `grid.z = window.len()`),
//!   the cells outside the tissue return at once;
//! - `<model>_tissue_compact_<t>(u, u_next, local, lay: CompactTissue,
//!   step, coeffs, rec)`: only the tissue cells, a 1D launch of one thread
//!   per tissue cell;
//! - `<model>_tissue_dense_classes_<t>`, `<model>_tissue_compact_classes_<t>`:
//!   the same with the weights of each cell's class
//!   ([`ClassRows`](crate::tissue::ClassRows): the
//!   layout's `class` and `rows` point at a class per stored cell and the
//!   table of distinct rows), where the two above read each cell's own row
//!   ([`OwnRows`](crate::tissue::OwnRows));
//! - `<model>_tissue_compact_n16_<t>`, `<model>_tissue_compact_classes_n16_<t>`:
//!   the two compact kernels with the neighbour table as 16-bit offsets
//!   from the cell (`lay: CompactTissue<Offsets16>`,
//!   [`Offsets16`](crate::tissue::Offsets16)), where the others read u32
//!   indices (`CompactTissue<Indices32>`); half the bytes of the table,
//!   the same neighbours (`crate::tissue::neighbours`);
//! - each of the six again with the suffix `_sets` before the precision
//!   (`<model>_tissue_compact_sets_<t>`, ...), which takes a last argument
//!   `sets: ParamSets` and steps each cell with the coefficients of its
//!   parameter set ([`crate::params`]) instead of those passed by value;
//! - `stimulate_tissue_<t>(u, dims, index, first, end, args, rec)`: a
//!   stimulus over the stored cells `first..end` of either layout
//!   (grid-stride loop).

use super::entry::StepArgs;
use crate::cell::{CellStep, StepCoeffs};
use crate::events::{Recorder, StimulusArgs};
use crate::gpu::{block_dim, block_idx, flat_thread_count, flat_thread_index, thread_idx};
use crate::layout::grid::GridDims;
use crate::model::CellModel;
use crate::params::{CoeffsSource, ParamSets, coeffs_for};
use crate::real::Real;
use crate::tissue::{
    CompactTissue, DenseTissue, NeighbourLookup, RowLookup, step_compact_cell, step_dense_cell,
    stimulate_stored_cell,
};

/// One step of the tissue cells of the slices of `window`, each with
/// the coefficients `P` says (those passed, or its set of `sets`).
///
/// # Safety
/// As [`step_dense_cell`] for every cell; launch with `grid = (ceil(nx /
/// bx), ceil(ny / by), window.len())`, `window` inside `0..nz`; for
/// [`PerCell`](crate::params::PerCell), `sets` as
/// [`ParamSets::coeffs_of`] requires for every cell of the box.
#[inline(always)]
pub unsafe fn step_dense<M: CellModel, T: Real, R: RowLookup, P: CoeffsSource>(
    args: StepArgs<'_, M, T, DenseTissue>,
    sets: ParamSets,
) {
    // Nothing is read before the previous grid has finished (as every
    // step kernel: a one-GPU tissue joins its graphs' steps by
    // programmatic edges, `gpu::wait_for_prerequisite_grids`).
    crate::gpu::wait_for_prerequisite_grids();
    let StepArgs { u, u_next, local, layout: lay, step, coeffs, window, rec } = args;
    let (tx, ty) = thread_idx();
    let (bx, by, bz) = block_idx();
    let (dx, dy) = block_dim();
    let x = bx * dx + tx;
    let y = by * dy + ty;
    let z = window.begin + bz;
    let g = lay.dims;
    if x >= g.nx || y >= g.ny {
        return;
    }
    let i = (z * g.ny + y) * g.nx + x;
    // SAFETY: i is a cell of the box, which the index covers.
    let coeffs = unsafe { coeffs_for::<M, T, P>(coeffs, &sets, i as usize) };
    // SAFETY: i is a cell of the grid, stepped by this thread alone.
    unsafe { step_dense_cell::<M, T, R>(&CellStep { u, u_next, local, step, coeffs, rec }, &lay, i) }
}

/// One step of every tissue cell of a compact layout, its neighbour table
/// read in the form `N`, each cell with the coefficients `P` says.
///
/// # Safety
/// As [`step_compact_cell`] for every cell (the table built for `N`); a
/// 1D launch of at least `lay.cells` threads; for
/// [`PerCell`](crate::params::PerCell), `sets` as
/// [`ParamSets::coeffs_of`] requires for every tissue cell.
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "the kernel's parameter list")]
pub unsafe fn step_compact<M: CellModel, T: Real, R: RowLookup, N: NeighbourLookup, P: CoeffsSource>(
    u: *const T,
    u_next: *mut T,
    local: *mut T,
    lay: CompactTissue<N>,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    sets: ParamSets,
) {
    // Nothing is read before the previous grid has finished (as in
    // `step_dense`).
    crate::gpu::wait_for_prerequisite_grids();
    let c = flat_thread_index();
    if c >= lay.cells as usize {
        return;
    }
    // SAFETY: c is a tissue cell, which the index covers.
    let coeffs = unsafe { coeffs_for::<M, T, P>(coeffs, &sets, c) };
    // SAFETY: c is a tissue cell, stepped by this thread alone.
    unsafe {
        step_compact_cell::<M, T, R, N>(&CellStep { u, u_next, local, step, coeffs, rec }, &lay, c as u32)
    }
}

/// The tissue entry points of one model and precision (called by the
/// registry's callback in `kernels/mod.rs`): each layout and storage with
/// the coefficients passed by value, and again, `_sets`, with a set per
/// cell (`crate::params`).
macro_rules! tissue_entries {
    ($model:ident, $ty:path, $t:ident) => {
        $crate::kernels::tissue::tissue_entries!(@dense $model, $ty, $t, tissue_dense, OwnRows);
        $crate::kernels::tissue::tissue_entries!(@dense $model, $ty, $t, tissue_dense_classes, ClassRows);
        // The compact kernels: each row lookup with each neighbour table.
        $crate::kernels::tissue::tissue_entries!(
            @compact $model, $ty, $t, tissue_compact, OwnRows, Indices32
        );
        $crate::kernels::tissue::tissue_entries!(
            @compact $model, $ty, $t, tissue_compact_classes, ClassRows, Indices32
        );
        $crate::kernels::tissue::tissue_entries!(
            @compact $model, $ty, $t, tissue_compact_n16, OwnRows, Offsets16
        );
        $crate::kernels::tissue::tissue_entries!(
            @compact $model, $ty, $t, tissue_compact_classes_n16, ClassRows, Offsets16
        );
    };
    (@dense $model:ident, $ty:path, $t:ident, $kernel:ident, $rows:ident) => {
        $crate::kernels::entry::with_and_without_sets! {
            $model, $kernel, $t;
            /// One step of the tissue cells of a dense grid (`kernels::tissue` has the contract).
            fn dense(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                lay: $crate::tissue::DenseTissue,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                window: $crate::ZWindow,
                rec: $crate::events::Recorder<$t>,
            ) |P, sets| {
                let args = $crate::kernels::entry::StepArgs::<$ty, $t, _> {
                    u,
                    u_next,
                    local,
                    layout: lay,
                    step: &step,
                    coeffs: &coeffs,
                    window,
                    rec: &rec,
                };
                unsafe {
                    $crate::kernels::tissue::step_dense::<$ty, $t, $crate::tissue::$rows, P>(args, sets)
                }
            }
        }
    };
    (@compact $model:ident, $ty:path, $t:ident, $kernel:ident, $rows:ident, $neighbours:ident) => {
        $crate::kernels::entry::with_and_without_sets! {
            $model, $kernel, $t;
            /// One step of the tissue cells of a compact layout whose
            /// neighbour table has the form of `lay`'s type
            /// (`kernels::tissue::step_compact` has the contract).
            fn compact(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                lay: $crate::tissue::CompactTissue<$crate::tissue::$neighbours>,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                rec: $crate::events::Recorder<$t>,
            ) |P, sets| {
                unsafe {
                    $crate::kernels::tissue::step_compact::<$ty, $t, $crate::tissue::$rows, _, P>(
                        u, u_next, local, lay, &step, &coeffs, &rec, sets,
                    )
                }
            }
        }
    };
}
pub(crate) use tissue_entries;

super::entry::precision_kernel! {
    stimulate, tissue;
    /// Applies `args` to the stored cells `first..end` of a tissue buffer.
    ///
    /// # Safety
    /// As [`stimulate_stored_cell`] for every `c` in `first..end`; any 1D launch.
    unsafe fn stimulate<T: Real>(
        u: *mut T,
        dims: GridDims,
        index: u64,
        first: u32,
        end: u32,
        args: StimulusArgs<T>,
        rec: Recorder<T>,
    ) {
        let mut c = first as usize + flat_thread_index();
        let stride = flat_thread_count();
        while c < end as usize {
            // SAFETY: c is a stored cell; the rest per the contract.
            unsafe { stimulate_stored_cell(u, dims, index, &args, &rec, c as u32) };
            c += stride;
        }
    }
}

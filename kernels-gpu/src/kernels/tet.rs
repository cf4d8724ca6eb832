//! The tetrahedral mesh's kernel: `<model>_tet_<t>(u, u_next, local,
//! table: EllTable, step, coeffs, rec)`, one thread per node (a 1D
//! launch of at least `table.nodes` threads), the body of
//! [`crate::tet::step_node`] (the CPU's too). Stimuli use the tissue's
//! `stimulate_tissue` kernel over the nodes as a line of cells.

use crate::cell::{CellStep, StepCoeffs};
use crate::events::Recorder;
use crate::model::CellModel;
use crate::params::{CoeffsSource, ParamSets, coeffs_for};
use crate::real::Real;
use crate::tet::{EllTable, step_node};

/// The entry points of one model and precision (called by the registry's
/// callback in `kernels/mod.rs`): the coefficients passed by value, and
/// `<model>_tet_sets_<t>`, which takes a last argument `sets: ParamSets`
/// and steps each node with its parameter set (`crate::params`).
macro_rules! tet_entry {
    ($model:ident, $ty:path, $t:ident) => {
        $crate::kernels::entry::with_and_without_sets! {
            $model, tet, $t;
            /// One step of every node of a tetrahedral mesh
            /// (`kernels::tet` has the contract).
            fn tet(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                table: $crate::tet::EllTable,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                rec: $crate::events::Recorder<$t>,
            ) |P, sets| {
                unsafe {
                    $crate::kernels::tet::step_nodes::<$ty, $t, P>(
                        u, u_next, local, &table, &step, &coeffs, &rec, sets,
                    )
                }
            }
        }
    };
}
pub(crate) use tet_entry;

/// One step of the node of this thread, with the coefficients `P` says
/// (those passed, or the node's set of `sets`).
///
/// # Safety
/// As [`crate::tet::step_node`] for every node; a 1D launch of at least
/// `table.nodes` threads; for [`PerCell`](crate::params::PerCell), `sets`
/// as [`ParamSets::coeffs_of`] requires for every node.
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "the kernel's parameter list")]
pub unsafe fn step_nodes<M: CellModel, T: Real, P: CoeffsSource>(
    u: *const T,
    u_next: *mut T,
    local: *mut T,
    table: &EllTable,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    sets: ParamSets,
) {
    // Nothing is read before the previous grid has finished (as every
    // step kernel: `gpu::wait_for_prerequisite_grids`).
    crate::gpu::wait_for_prerequisite_grids();
    let c = crate::gpu::flat_thread_index();
    if c >= table.nodes as usize {
        return;
    }
    // SAFETY: c is a node, which the index covers.
    let coeffs = unsafe { coeffs_for::<M, T, P>(coeffs, &sets, c) };
    // SAFETY: c is a node, stepped by this thread alone; the host passes
    // buffers of the table's sizes.
    unsafe { step_node::<M, T>(&CellStep { u, u_next, local, step, coeffs, rec }, table, c as u32) }
}

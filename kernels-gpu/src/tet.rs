//! A node of a tetrahedral mesh, stepped: the P1 diffusion with lumped
//! mass as weights in a fixed-width table (ELL), then the model's
//! reaction, on the CPU and on the GPU alike (one function, so the two
//! agree bit for bit).
//!
//! Node c's k-th neighbour and its weight are at `k * nodes + c`:
//! consecutive threads read consecutive addresses for each k. Rows
//! shorter than the table are padded with c itself and a zero weight,
//! whose term `0 * (uc - uc)` leaves the sum as it is (see
//! [`crate::tissue::weighted_diffusion`] on why a zero term changes no
//! bit).

use crate::cell::CellStep;
use crate::model::CellModel;
use crate::real::Real;

/// A mesh's neighbour table as the kernels take it (by value).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EllTable {
    /// Number of nodes.
    pub nodes: u32,
    /// Entries per node.
    pub width: u32,
    /// `*const T`: weight k of node c at `k * nodes + c`, in 1/time unit.
    pub weights: u64,
    /// `*const u32`: the node of that weight.
    pub neighbours: u64,
}

/// sum over k of w_k (u_{n_k} - u_c), in the table's order (Vasconcellos
/// et al. 2024, Algorithm 7's sum over the adjacency list).
///
/// # Safety
/// `table`'s buffers hold `width * nodes` entries of their types, every
/// neighbour a valid index of `u`, and `c < nodes`.
#[inline(always)]
pub unsafe fn ell_diffusion<T: Real>(u: *const T, uc: T, table: &EllTable, c: usize) -> T {
    let n = table.nodes as usize;
    let weights = table.weights as *const T;
    let neighbours = table.neighbours as *const u32;
    let mut acc = T::ZERO;
    for k in 0..table.width as usize {
        let j = k * n + c;
        // SAFETY: per the contract.
        unsafe {
            let un = *u.add(*neighbours.add(j) as usize);
            acc = (*weights.add(j)).mul_add(un - uc, acc);
        }
    }
    acc
}

/// One time step of node `c`: the diffusion, the model's reaction and the
/// crossing recorder, as the tissue's cells are stepped.
///
/// # Safety
/// As [`ell_diffusion`]; `cell.u`, `cell.u_next` hold `nodes` values, `local`
/// `M::Locals::COUNT * nodes` (variable k of node c at `k * nodes + c`);
/// no other thread steps `c`; `rec` is off or valid for the nodes.
#[inline(always)]
pub unsafe fn step_node<M: CellModel, T: Real>(cell: &CellStep<'_, M, T>, table: &EllTable, c: u32) {
    let n = table.nodes as usize;
    let cu = c as usize;
    // SAFETY: per the contract.
    unsafe {
        let uc = *cell.u.add(cu);
        let diffusion = ell_diffusion(cell.u, uc, table, cu);
        cell.store(uc, diffusion, (n, cu));
    }
}

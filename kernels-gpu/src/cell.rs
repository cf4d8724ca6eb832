//! One time step of one cell: the numerics every model shares.
//!
//! Forward Euler for the diffusing variable (paper eq. 5, with the
//! corrections noted in [`crate::models::karma`]):
//!
//! ```text
//! u_next = u + (D dt / h^2) lap(u) + dt du/dt
//! ```
//!
//! evaluated as `dt.mul_add(du/dt, diffusion_number.mul_add(lap, u))`, two
//! fused multiply-adds in this order on every backend, and the model's own
//! update of its local variables. Only this module, the stencil and the
//! layouts know about dt, D and h; models see dt only through the
//! coefficients they build from it.

use crate::events::Recorder;
use crate::model::{CellModel, Locals};
use crate::real::Real;

/// The per-step constants of the numerics, in the compute precision,
/// rounded once on the host from f64 and passed by value to every kernel
/// (`#[repr(C)]`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepCoeffs<T> {
    /// Time step, in the model's time unit.
    pub dt: T,
    /// D dt / h^2, the weight of the undivided Laplacian.
    pub diffusion_number: T,
}

impl<T: Real> StepCoeffs<T> {
    /// The constants for `dt` and `D dt / h^2`, rounded to `T`.
    pub fn new(dt: f64, diffusion_number: f64) -> Self {
        Self { dt: T::from_f64(dt), diffusion_number: T::from_f64(diffusion_number) }
    }
}

/// Advances one cell by one step: returns u at the next step and updates
/// `locals` in place. `lap` is the undivided Laplacian of u at the cell
/// ([`crate::stencil`]). Everything reads the old state.
#[inline(always)]
pub fn step_cell<M: CellModel, T: Real>(
    u: T,
    lap: T,
    locals: &mut M::Locals<T>,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
) -> T {
    let diffused = step.diffusion_number.mul_add(lap, u);
    let du_dt = M::reaction(u, locals, coeffs);
    step.dt.mul_add(du_dt, diffused)
}

/// What one cell's step reads and writes besides its place and its
/// neighbours: the state buffers, the step's and the model's coefficients
/// and the crossing recorder. The per-cell steps of every layout (naive
/// grid, tissue, tetrahedral mesh, and the CPU's runs of cells, which call
/// the same functions) take it as one argument, built where the cell's
/// coefficients are known (a parameter set per cell differs by cell).
pub struct CellStep<'a, M: CellModel, T: Real> {
    pub u: *const T,
    pub u_next: *mut T,
    /// The locals, variable k of cell i at `k * stride + i`.
    pub local: *mut T,
    pub step: &'a StepCoeffs<T>,
    pub coeffs: &'a M::Coeffs<T>,
    pub rec: &'a Recorder<T>,
}

impl<M: CellModel, T: Real> CellStep<'_, M, T> {
    /// Steps cell `i` whose U is `uc` and whose diffusion term is
    /// `diffusion` ([`step_cell`]), and stores the result: U_next, the
    /// cell's locals (variable k at `k * stride + i`) and the crossing in
    /// `rec`. The end of every one-thread-per-cell step, so that they load,
    /// step, store and record in one order.
    ///
    /// # Safety
    /// `u_next` holds cell `i`, `local` `M::Locals::COUNT * stride` values
    /// with `i < stride`; no other thread steps `i`; `rec` is off or valid
    /// for cell `i`.
    #[inline(always)]
    pub unsafe fn store(&self, uc: T, diffusion: T, (stride, i): (usize, usize)) {
        // SAFETY: per the contract.
        unsafe {
            let mut locals = M::Locals::<T>::load(self.local, stride, i);
            let un = step_cell::<M, T>(uc, diffusion, &mut locals, self.step, self.coeffs);
            *self.u_next.add(i) = un;
            locals.store(self.local, stride, i);
            self.rec.record(i as u32, uc, un);
        }
    }
}

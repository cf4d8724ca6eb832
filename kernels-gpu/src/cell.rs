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

use crate::model::CellModel;
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

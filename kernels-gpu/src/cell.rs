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

/// Steps cell `i` whose U is `uc` and whose diffusion term is `diffusion`
/// ([`step_cell`]), and stores the result: U_next, the cell's locals
/// (variable k at `k * stride + i`) and the crossing in `rec`. The end of
/// every one-thread-per-cell step (naive grid, tissue, tetrahedral mesh),
/// so that they load, step, store and record in one order.
///
/// # Safety
/// `u_next` holds cell `i`, `local` `M::Locals::COUNT * stride` values
/// with `i < stride`; no other thread steps `i`; `rec` is off or valid for
/// cell `i`.
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "a kernel's parameters, passed on")]
pub unsafe fn step_and_store<M: CellModel, T: Real>(
    uc: T,
    diffusion: T,
    u_next: *mut T,
    local: *mut T,
    (stride, i): (usize, usize),
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
) {
    // SAFETY: per the contract.
    unsafe {
        let mut locals = M::Locals::<T>::load(local, stride, i);
        let un = step_cell::<M, T>(uc, diffusion, &mut locals, step, coeffs);
        *u_next.add(i) = un;
        locals.store(local, stride, i);
        rec.record(i as u32, uc, un);
    }
}

//! Fields of a rotating wave and one sample of a run found on the host,
//! for the tests of the tips modules.

use kernels_gpu::GridDims;

use super::recorder::{PhaseMemory, SingularityRecorder};
use crate::scalar::Scalar;

/// One sample of a run found on the host: the plaquettes since the
/// previous sample recorded (0 at the first).
pub(super) fn sample<T: Scalar>(
    rec: &mut SingularityRecorder,
    memory: &mut PhaseMemory,
    t_ms: f64,
    u: &[T],
    dims: GridDims,
) -> usize {
    memory.sample(u, dims, rec.v_star()).map_or(0, |found| rec.record(t_ms, &found))
}

/// Fields `now` and `prev` of V = f(x, y, z, wt) at wt = 0 and -wtau.
pub(super) fn fields(
    dims: GridDims,
    wtau: f64,
    f: impl Fn(f64, f64, f64, f64) -> f64,
) -> (Vec<f64>, Vec<f64>) {
    let mut now = Vec::with_capacity(dims.cells());
    let mut prev = Vec::with_capacity(dims.cells());
    for z in 0..dims.nz {
        for y in 0..dims.ny {
            for x in 0..dims.nx {
                let (x, y, z) = (x as f64, y as f64, z as f64);
                now.push(f(x, y, z, 0.0));
                prev.push(f(x, y, z, -wtau));
            }
        }
    }
    (now, prev)
}

/// A wave rotating about (x0, y0): counterclockwise for `sense` = 1.
pub(super) fn spiral(x0: f64, y0: f64, sense: f64) -> impl Fn(f64, f64, f64, f64) -> f64 {
    move |x, y, _, wt| ((y - y0).atan2(x - x0) - sense * wt).cos()
}

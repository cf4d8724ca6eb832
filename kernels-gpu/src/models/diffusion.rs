//! Pure diffusion, du/dt = D lap(u): one variable and no reaction. The
//! numerical checks use it against exact solutions (conservation, decay
//! of the discrete Laplacian's eigenmodes); as a model like any other it
//! runs on every kernel with no branch on the model in any of them.

use crate::model::{CellModel, ModelInfo, Numerics, Units, Variable};
use crate::real::Real;

/// Diffusion of one field, no reaction.
#[derive(Clone, Copy, Debug)]
pub struct Diffusion;

/// No coefficients; a kernel parameter still needs a size, hence the
/// placeholder.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoCoeffs {
    pub unused: u32,
}

impl CellModel for Diffusion {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "diffusion",
        title: "pure diffusion",
        reference: "the heat equation du/dt = D lap(u), for numerical checks",
        variables: &[Variable {
            name: "u",
            unit: "1",
            meaning: "the diffusing field",
            rest: 0.0,
            display: (0.0, 1.0),
        }],
        parameters: &[],
        presets: &[],
        default_preset: "",
        units: Units {
            time: "ms",
            space: "s.u.",
            ms_per_time_unit: 1.0,
            note: "dimensionless; time read as ms",
        },
        numerics: Numerics { dx: 0.6, dt: 0.05, diffusion: 1.0 },
        activation_threshold: 0.5,
        stimulus_value: 1.0,
        planar_background: &[0.0],
        stimulus_current: None,
        default_f64: false,
    };

    type Locals<T: Real> = [T; 0];
    type Coeffs<T: Real> = NoCoeffs;

    fn coeffs<T: Real>(_params: &[f64], _dt: f64) -> NoCoeffs {
        NoCoeffs { unused: 0 }
    }

    /// du/dt = 0: the step is `dt * 0 + diffused`, which is `diffused`
    /// exactly (only a diffused -0 becomes +0).
    #[inline(always)]
    fn reaction<T: Real>(_u: T, _locals: &mut [T; 0], _c: &NoCoeffs) -> T {
        T::ZERO
    }
}

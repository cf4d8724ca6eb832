//! Initial conditions, for any model and grid shape.
//!
//! The planar start is the paper's (eqs. 7-8): variable 0 at the model's
//! excited value on the slab `k <= 0.05 n` of the wave axis, every other
//! cell in the model's planar background (its rest state, or Karma's
//! v = 0.5 of eq. 8). The wave axis is z in a 3D grid; in a sheet (nz = 1)
//! y takes z's role, in a cable the one axis it has. So the same start
//! makes a plane wave in 3D, a line wave in 2D and a pulse in a cable.

use kernels_gpu::{GridDims, ModelInfo};
use serde::{Deserialize, Serialize};

use crate::scalar::Scalar;
use crate::state::State;

/// How the fields start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InitialCondition {
    /// The paper's planar start (eqs. 7-8), along the wave axis.
    Planar,
    /// Resting tissue: every variable at the model's rest value.
    Rest,
}

/// The axis a planar start travels along (0 = x, 1 = y, 2 = z): the last
/// axis with more than one cell (z in 3D, y in a sheet of nz = 1, x in a
/// cable; x for a single cell).
pub fn wave_axis(dims: GridDims) -> usize {
    let n = [dims.nx, dims.ny, dims.nz];
    (0..3).rev().find(|&a| n[a] > 1).unwrap_or(0)
}

/// The axis across the wave that the cross-field S2 cuts in half: the first
/// axis with more than one cell other than the wave axis (x in 3D and in a
/// sheet); `None` in a cable, where no re-entry can form.
pub fn cross_axis(dims: GridDims) -> Option<usize> {
    let n = [dims.nx, dims.ny, dims.nz];
    let wave = wave_axis(dims);
    (0..3).find(|&a| a != wave && n[a] > 1)
}

impl InitialCondition {
    pub fn state<T: Scalar>(self, model: &'static ModelInfo, dims: GridDims) -> State<T> {
        match self {
            InitialCondition::Planar => planar(model, dims),
            InitialCondition::Rest => State::rest(model, dims),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            InitialCondition::Planar => "planar",
            InitialCondition::Rest => "rest",
        }
    }
}

/// Number of cells along an axis of `n` that the planar stimulus of eq. 7
/// excites: k <= 0.05 n.
pub fn planar_stimulus_slices(n: u32) -> u32 {
    (0..n).take_while(|&k| k as f64 <= 0.05 * n as f64).count() as u32
}

/// The planar start: the slab set to the model's excited value, or, for a
/// model stimulated by a current, the background alone (the run adds the
/// slab's current stimulus at t = 0: [`crate::events::protocol::planar_s1`]).
fn planar<T: Scalar>(model: &'static ModelInfo, dims: GridDims) -> State<T> {
    let axis = wave_axis(dims);
    let n = [dims.nx, dims.ny, dims.nz][axis];
    let slices = if model.stimulus_current.is_some() { 0 } else { planar_stimulus_slices(n) };
    let background: Vec<T> = model.planar_background.iter().map(|&v| T::from_f64(v)).collect();
    let excited = T::from_f64(model.stimulus_value);
    State::from_fn(model, dims, |x, y, z, cell| {
        cell.copy_from_slice(&background);
        if [x, y, z][axis] < slices {
            cell[0] = excited;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::CellModel;
    use kernels_gpu::models::Karma;

    #[test]
    fn planar_matches_eq_7_and_8() {
        // 256: z <= 12.8 -> 13 slices; 20: z <= 1.0 -> 2 slices.
        assert_eq!(planar_stimulus_slices(256), 13);
        assert_eq!(planar_stimulus_slices(20), 2);
        let f = InitialCondition::Planar.state::<f32>(Karma::INFO, GridDims::new(3, 4, 20));
        assert_eq!(f.u()[[1, 3, 2]], 3.0);
        assert_eq!(f.u()[[2, 0, 0]], 0.0);
        assert!(f.var(1).iter().all(|&v| v == 0.5));
    }

    #[test]
    fn the_wave_axis_is_z_then_y_then_x() {
        assert_eq!(wave_axis(GridDims::new(8, 8, 8)), 2);
        assert_eq!(wave_axis(GridDims::new(8, 8, 1)), 1);
        assert_eq!(wave_axis(GridDims::new(8, 1, 1)), 0);
        assert_eq!(wave_axis(GridDims::new(1, 1, 1)), 0);
        assert_eq!(cross_axis(GridDims::new(8, 8, 8)), Some(0));
        assert_eq!(cross_axis(GridDims::new(8, 8, 1)), Some(0));
        assert_eq!(cross_axis(GridDims::new(1, 8, 8)), Some(1));
        assert_eq!(cross_axis(GridDims::new(8, 1, 1)), None);
        // In a sheet the slab is along y.
        let f = InitialCondition::Planar.state::<f64>(Karma::INFO, GridDims::new(5, 20, 1));
        assert_eq!((f.u()[[0, 1, 4]], f.u()[[0, 2, 4]]), (3.0, 0.0));
        // A single cell is excited whole: an action potential from t = 0.
        let f = InitialCondition::Planar.state::<f64>(Karma::INFO, GridDims::new(1, 1, 1));
        assert_eq!(f.u()[[0, 0, 0]], 3.0);
    }
}

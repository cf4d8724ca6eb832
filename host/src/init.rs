//! Initial conditions.

use kernels_gpu::GridDims;
use serde::{Deserialize, Serialize};

use crate::fields::Fields;
use crate::scalar::Scalar;

/// How the fields start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InitialCondition {
    /// The paper's planar start (eqs. 7-8): U = 3 on the slices
    /// z <= 0.05 nz, U = 0 elsewhere; v = 0.5 everywhere. A plane wave then
    /// travels along +z.
    Planar,
    /// Resting tissue: U = 0, v = 0.
    Rest,
}

impl InitialCondition {
    pub fn fields<T: Scalar>(self, dims: GridDims) -> Fields<T> {
        match self {
            InitialCondition::Planar => planar(dims),
            InitialCondition::Rest => Fields::from_fn(dims, |_, _, _| (T::ZERO, T::ZERO)),
        }
    }
}

/// Number of z-slices the planar stimulus of eq. 7 excites: z_k <= 0.05 nz.
pub fn planar_stimulus_slices(nz: u32) -> u32 {
    (0..nz).take_while(|&z| z as f64 <= 0.05 * nz as f64).count() as u32
}

fn planar<T: Scalar>(dims: GridDims) -> Fields<T> {
    let slices = planar_stimulus_slices(dims.nz);
    let v0 = T::from_f64(0.5);
    Fields::from_fn(dims, |_, _, z| (if z < slices { T::THREE } else { T::ZERO }, v0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planar_matches_eq_7_and_8() {
        // 256: z <= 12.8 -> 13 slices; 20: z <= 1.0 -> 2 slices.
        assert_eq!(planar_stimulus_slices(256), 13);
        assert_eq!(planar_stimulus_slices(20), 2);
        let f = InitialCondition::Planar.fields::<f32>(GridDims::new(3, 4, 20));
        assert_eq!(f.u[[1, 3, 2]], 3.0);
        assert_eq!(f.u[[2, 0, 0]], 0.0);
        assert!(f.v.iter().all(|&v| v == 0.5));
    }
}

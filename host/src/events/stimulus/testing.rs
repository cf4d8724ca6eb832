//! The time step, the compilation against Karma and the cells a stimulus
//! sets, shared by the tests of the stimulus modules.

use kernels_gpu::models::Karma;
use kernels_gpu::{CellModel, GridDims};

use super::compiled::Stimulus;
use super::spec::{StimulusError, StimulusSpec};
use crate::state::State;

pub(super) const DT: f64 = 0.05;

pub(super) fn compile(spec: &StimulusSpec, dims: GridDims) -> Result<Stimulus, StimulusError> {
    spec.compile(1, dims, DT, Karma::INFO)
}

pub(super) fn cells_of(s: &Stimulus, dims: GridDims) -> Vec<(u32, u32, u32)> {
    let mut f = State::<f32>::rest(Karma::INFO, dims);
    s.region.apply(&mut f, 1.0);
    f.u()
        .indexed_iter()
        .filter(|(_, u)| **u == 1.0)
        .map(|((z, y, x), _)| (x as u32, y as u32, z as u32))
        .collect()
}

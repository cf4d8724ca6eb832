//! A small Karma domain and a state of distinct values, for the tests of
//! every part of the format.

use kernels_gpu::GridDims;

use crate::domain::Domain;
use crate::models::ModelSetup;
use crate::state::State;

pub(super) fn domain(n: u32) -> Domain {
    Domain::new(GridDims::new(n, n + 1, n + 2), 0.6, 0.05, 1.0, ModelSetup::new("karma", None, &[]).unwrap())
        .unwrap()
}

pub(super) fn state(d: &Domain) -> State<f32> {
    let mut k = 0.0f32;
    State::from_fn(d.model().info(), d.dims(), |_, _, _, cell| {
        k += 0.125;
        cell[0] = k;
        cell[1] = 1.0 / k;
    })
}

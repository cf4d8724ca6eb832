//! What the four tissue solvers (CPU and GPU, one domain or split into
//! parts) share beside the kernels: the checks of what they are given, the
//! rest value outside the tissue and the mask bits over the box. (The
//! event clock they go by is every solver's: `crate::events::clock`.)

use kernels_gpu::events::SlicePlacement;
use kernels_gpu::{CellModel, GridDims};

use super::weights::Operator;
use crate::domain::Domain;
use crate::events::stimulus::{Region, Stimulus};
use crate::scalar::Scalar;
use crate::state::State;

/// Asserts that a solver of model `M` is built for `domain`'s grid from an
/// initial state and an operator of that grid and model (a programming
/// error otherwise).
pub(super) fn check_inputs<M: CellModel, T: Scalar>(domain: &Domain, op: &Operator, initial: &State<T>) {
    assert_eq!(initial.dims(), domain.dims(), "initial state matches the domain");
    assert_eq!(op.dims, domain.dims(), "the tissue's grid is the domain's");
    assert_eq!(initial.model().name, M::INFO.name, "initial state of this model");
}

/// Asserts that a state given to a solver of model `M` on the grid `dims`
/// is of that grid and model.
pub(super) fn check_state<M: CellModel, T: Scalar>(state: &State<T>, dims: GridDims) {
    assert_eq!(state.dims(), dims, "state matches the solver's grid");
    assert_eq!(state.model().name, M::INFO.name, "state of the solver's model");
}

/// Variable 0 of model `M` at rest: the value the pseudo-ECG's box field
/// takes outside the tissue.
pub(super) fn rest_u<M: CellModel, T: Scalar>() -> T {
    T::from_f64(M::INFO.variables[0].rest)
}

/// A mask stimulus's bits over the whole box `dims` (the stored cells of
/// every layout and part name their cell by its box index); `None` for
/// the other regions.
pub(super) fn box_mask_bits(s: &Stimulus, dims: GridDims) -> Option<Vec<u32>> {
    match &s.region {
        Region::Mask(mask) => Some(mask.local_bits(dims, SlicePlacement::whole(dims.nz))),
        _ => None,
    }
}

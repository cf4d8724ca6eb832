//! How a solver stores a mesh's cells, whatever it runs on: the cells its
//! fields hold (the tissue's box or tissue cells, a tetrahedral mesh's
//! nodes), where its stimuli are placed, and how states, maps and the
//! pseudo-ECG cross between those cells and the domain. The one-domain
//! solvers on the CPU ([`super::cpu_solver`]) and on one GPU
//! ([`super::gpu_solver`]) read a mesh through this, so a kind of mesh
//! writes it once for both.

use std::ops::Range;

use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::{CellModel, GridDims};

use super::maps::Storage;
use super::solving::{check_state, rest_u};
use crate::events::ecg::pseudo_ecg_in;
use crate::events::recording::Maps;
use crate::events::stimulus::Stimulus;
use crate::scalar::Scalar;
use crate::state::State;

/// A mesh's cells as a solver stores them (U holds `stored()` cells, the
/// locals variable after variable at that stride).
pub(crate) trait MeshCells {
    /// The cells U holds.
    fn stored(&self) -> usize;
    /// The box the stimuli are placed in (the domain's grid, or a node
    /// line).
    fn dims(&self) -> GridDims;
    /// The address of the box index of every stored cell in host memory
    /// (0 where the stored cells are the box's, in its order).
    fn host_index(&self) -> u64;
    /// The runs of stored cells that stimulus `s` may touch.
    fn stimulus_ranges(&self, s: &Stimulus) -> Vec<Range<u32>>;
    /// The domain's state of model `M` from the stored cells' variables
    /// (U first).
    fn state<M: CellModel, T: Scalar>(&self, vars: &[&[T]]) -> State<T>;
    /// U and the locals (variable after variable) of the stored cells of
    /// `state`, checked to be a state of this mesh and of model `M`.
    fn scatter<M: CellModel, T: Scalar>(&self, state: &State<T>) -> (Vec<T>, Vec<T>);
    /// The domain's maps over the stored cells.
    fn maps_in(&self, maps: &Maps) -> Maps;
    /// The stored cells' maps over the domain.
    fn maps_out(&self, maps: &Maps) -> Maps;
    /// The pseudo-ECG at `probes` from the stored cells' U (model `M`).
    fn ecg<M: CellModel, T: Scalar>(&mut self, probes: &[EcgProbe], u: &[T]) -> Vec<f64>;
}

/// A tissue's cells: the box's (dense) or its tissue cells (compact).
impl MeshCells for Storage {
    fn stored(&self) -> usize {
        Storage::stored(self)
    }

    fn dims(&self) -> GridDims {
        self.dims
    }

    fn host_index(&self) -> u64 {
        self.index_address()
    }

    fn stimulus_ranges(&self, s: &Stimulus) -> Vec<Range<u32>> {
        Storage::stimulus_ranges(self, s)
    }

    fn state<M: CellModel, T: Scalar>(&self, vars: &[&[T]]) -> State<T> {
        Storage::state(self, M::INFO, vars)
    }

    fn scatter<M: CellModel, T: Scalar>(&self, state: &State<T>) -> (Vec<T>, Vec<T>) {
        check_state::<M, T>(state, self.dims);
        let mut vars = self.vars(state);
        let local = vars[1..].concat();
        (vars.swap_remove(0), local)
    }

    fn maps_in(&self, maps: &Maps) -> Maps {
        self.maps_from_box(maps)
    }

    fn maps_out(&self, maps: &Maps) -> Maps {
        self.maps_to_box(maps)
    }

    /// The pseudo-ECG of the tissue, its gradient following the tissue's
    /// boundary (`crate::events::ecg::pseudo_ecg_in`), the cells outside
    /// the tissue at the model's rest.
    fn ecg<M: CellModel, T: Scalar>(&mut self, probes: &[EcgProbe], u: &[T]) -> Vec<f64> {
        let field = self.to_box_or(u, rest_u::<M, T>());
        pseudo_ecg_in(&field, self.dims, Some(&self.mask), probes)
    }
}

//! A mesh cut into parts, as the host moves fields between the whole mesh
//! and its parts: the voxel tissue's z-split ([`super::split::TissueSplit`]
//! of [`super::split::Slab`]s) and the tetrahedral mesh's node runs
//! ([`crate::tet::split::TetSplit`] of [`crate::tet::split::MeshPart`]s).
//! A part stores its owned cells first and its halo after them; only
//! variable 0 crosses between parts. The split solvers (the tissue's on the
//! CPU, every mesh's on GPUs, [`super::split_solver`]) read a cut through
//! these traits, so a new kind of mesh brings its cut and not its own
//! scatter-and-gather plumbing.

use kernels_gpu::{CellModel, GridDims, ModelInfo};

use super::halo::HaloRun;
use crate::cell_params::CellCoeffs;
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::scalar::Scalar;
use crate::state::State;

/// One part of a cut.
pub trait CutPart {
    /// The model's coefficients of the part's stored cells.
    fn coeffs<M: CellModel, T: Scalar>(&self, domain: &Domain) -> CellCoeffs<M, T>;
    /// The part's U (every stored cell) and locals (the owned cells,
    /// variable after variable at the part's stride) from a state of the
    /// whole mesh.
    fn scatter<T: Scalar>(&self, state: &State<T>) -> (Vec<T>, Vec<T>);
    /// Writes the part's owned cells into the whole mesh's variables.
    fn gather_into<T: Scalar>(&self, vars: &mut [Vec<T>], u: &[T], local: &[T]);
    /// The part's maps (over its stored cells) from the whole mesh's.
    fn scatter_maps(&self, maps: &Maps) -> Maps;
    /// Writes the part's owned cells' maps into the whole mesh's.
    fn gather_maps_into(&self, out: &mut Maps, part: &Maps);
}

/// A mesh cut into parts.
pub trait MeshCut {
    type Part: CutPart;
    fn cut_parts(&self) -> &[Self::Part];
    /// The whole mesh's dims: the state's, and those the stimuli's regions
    /// are drawn over.
    fn whole(&self) -> GridDims;
    /// The copies that refill every halo after a step.
    fn halo_runs(&self) -> Vec<HaloRun>;

    /// The whole mesh's state from every part's U and locals (NaN where
    /// no part owns a cell: outside the tissue, as a single-domain tissue
    /// solver gives it).
    fn gather<T: Scalar>(&self, model: &'static ModelInfo, parts: &[(&[T], &[T])]) -> State<T> {
        let whole = self.whole();
        let mut vars: Vec<Vec<T>> = (0..model.variables.len()).map(|_| vec![T::NAN; whole.cells()]).collect();
        for (part, (u, local)) in self.cut_parts().iter().zip(parts) {
            part.gather_into(&mut vars, u, local);
        }
        State::from_vecs(model, whole, vars)
    }

    /// The whole mesh's maps from every part's (NaN, no activation, where
    /// no part owns a cell).
    fn gather_maps(&self, parts: &[Maps]) -> Maps {
        let mut out = Maps::new(parts[0].recording, self.whole());
        for (part, maps) in self.cut_parts().iter().zip(parts) {
            part.gather_maps_into(&mut out, maps);
        }
        out
    }
}

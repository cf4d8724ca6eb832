//! One solver for every mesh on the CPU, the reference of the GPU's: the
//! voxel tissue ([`super::cpu`]) and the tetrahedral mesh
//! ([`crate::tet::cpu`]) are this solver with their own `HostMesh`, as
//! on one GPU they are [`super::gpu_solver`]'s. What a CPU run shares
//! lives here once: the fields and events in host memory laid out as on
//! the device (`HostTissue`), stepped by the very per-cell functions the
//! kernels call, the stimuli, maps, pseudo-ECG and NaN check. What a kind
//! of mesh brings is its cells (`MeshCells`) and its layout's tables.

use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::{CellModel, Locals, StepCoeffs};

use super::host_fields::{HostTissue, Lay};
use super::mesh_cells::MeshCells;
use crate::backend::cpu::cpu_name;
use crate::cell_params::CellCoeffs;
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn, Solver, SolverError};
use crate::state::State;

/// What a kind of mesh brings to a CPU run: its cells as the solver
/// stores them and the tables its step reads.
pub(crate) trait HostMesh {
    type Cells: MeshCells;
    /// The layout's kernel argument over the mesh's tables and `cells`,
    /// which stay where they are while the solver lives.
    fn lay(&self, cells: &Self::Cells) -> Lay;
    /// The solver's method (`cpu-tissue-compact-n16`, `cpu-tet-ell16`).
    fn method(&self, cells: &Self::Cells) -> String;
}

/// A mesh stepped on the CPU, in parallel over runs of stored cells.
#[allow(private_bounds, reason = "what a mesh brings to a solver is not public API")]
pub struct CpuMeshSolver<M: CellModel, T: Scalar, H: HostMesh> {
    cells: H::Cells,
    mesh: H,
    step: StepCoeffs<T>,
    /// The coefficients (and the parameter set of every stored cell where
    /// they vary).
    coeffs: CellCoeffs<M, T>,
    /// The stored cells' fields (local variable k of stored cell c at
    /// `k * stored + c`) and events.
    fields: HostTissue<T>,
}

#[allow(
    private_bounds,
    reason = "the methods are the crate's own; what a mesh brings to a solver is not public API"
)]
impl<M: CellModel, T: Scalar, H: HostMesh> CpuMeshSolver<M, T, H> {
    /// The solver over `cells` with `mesh`'s tables and `coeffs` (a set
    /// per stored cell where they vary), set to `initial`.
    pub(crate) fn build(
        domain: &Domain,
        (cells, mesh): (H::Cells, H),
        coeffs: CellCoeffs<M, T>,
        initial: &State<T>,
    ) -> Self {
        let dt_ms = domain.dt_ms();
        let mut solver = Self {
            fields: HostTissue::new(cells.stored(), dt_ms),
            cells,
            mesh,
            // The weights are the operator in 1/time: the diffusion term
            // is multiplied by dt, like the Laplacian by D dt / h^2.
            step: StepCoeffs::new(dt_ms, dt_ms),
            coeffs,
        };
        solver.load(initial);
        solver
    }

    fn load(&mut self, state: &State<T>) {
        let (u, local) = self.cells.scatter::<M, T>(state);
        self.fields.load(u, local);
    }

    /// Applies the stimuli due at the current step, unless applied already.
    fn stimulate(&mut self) {
        self.fields.stimulate(self.cells.dims(), self.cells.host_index(), M::INFO);
    }
}

impl<M: CellModel, T: Scalar, H: HostMesh> Solver<T> for CpuMeshSolver<M, T, H> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Cpu(cpu_name())
    }

    fn method(&self) -> String {
        self.mesh.method(&self.cells)
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        let (stored, lay) = (self.cells.stored(), self.mesh.lay(&self.cells));
        for _ in 0..steps {
            self.stimulate();
            // SAFETY: the layout is this solver's mesh's, over its stored
            // cells (every neighbour a stored cell), as the fields are.
            unsafe { self.fields.step::<M>(lay, &self.step, &self.coeffs, 0..stored) };
        }
        Ok(())
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        self.stimulate();
        let stored = self.cells.stored();
        let mut vars: Vec<&[T]> = vec![&self.fields.u];
        for k in 0..M::Locals::<T>::COUNT {
            vars.push(&self.fields.local[k * stored..(k + 1) * stored]);
        }
        Ok(self.cells.state::<M, T>(&vars))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        self.load(state);
        Ok(())
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        let cells = &self.cells;
        let ranges = events.stimuli.stimuli.iter().map(|s| cells.stimulus_ranges(s)).collect();
        let maps = maps.map(|m| cells.maps_in(m));
        self.fields.set_events((events, start), cells.dims(), ranges, maps);
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate();
        Ok(self.fields.events.maps.as_ref().map(|m| self.cells.maps_out(m)))
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate();
        Ok(self.cells.ecg::<M, T>(probes, &self.fields.u))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        Ok(self.fields.any_nonfinite())
    }
}

//! The CPU solver of a tissue: the reference of the GPU's tissue kernels.
//!
//! Every cell is stepped by the very function the kernels call
//! (`kernels_gpu::tissue::step_dense_cell` or `step_compact_cell`, with
//! the weights stored as the GPU stores them: per cell or by class,
//! `super::rows`; and the compact layout's neighbours as the GPU stores
//! them: u32 indices or 16-bit offsets, `super::neighbours`), on host
//! fields laid out as on the device (`super::host_fields`). The solver is
//! the one every mesh on the CPU shares (`super::cpu_solver`); this file
//! adds the tissue's tables ([`TissueOnCpu`]).

use std::sync::Arc;

use kernels_gpu::CellModel;
use kernels_gpu::tissue::DenseTissue;

use super::cpu_solver::{CpuMeshSolver, HostMesh};
use super::error::TissueError;
use super::host_fields::Lay;
use super::layout::TissueLayout;
use super::maps::Storage;
use super::neighbours::{CompactFields, NeighbourTable};
use super::rows::{WeightChoice, WeightRows};
use super::solving::check_inputs;
use super::storage::{TableChoice, storage_name};
use super::weights::Operator;
use crate::cell_params::CellCoeffs;
use crate::domain::Domain;
use crate::scalar::Scalar;
use crate::solver::Solver;
use crate::state::State;

/// A tissue stepped on the CPU.
pub type TissueCpuSolver<M, T> = CpuMeshSolver<M, T, TissueOnCpu<T>>;

/// The tissue's tables beside its stored cells (a [`Storage`]): the
/// weights (per cell or by class) and the compact layout's neighbours.
pub struct TissueOnCpu<T> {
    weights: WeightRows<T>,
    /// Compact layout: the neighbour table (none for the dense one).
    neighbours: Option<NeighbourTable>,
}

impl<M: CellModel, T: Scalar> CpuMeshSolver<M, T, TissueOnCpu<T>> {
    /// A solver of `op` in `layout` for the domain's model and time step
    /// (the operator's stability was checked for that step).
    ///
    /// # Panics
    /// If `initial` is not a state of the domain's grid and model `M`, or
    /// the operator is of another grid (programming errors).
    pub fn new(domain: &Domain, op: &Arc<Operator>, layout: TissueLayout, initial: &State<T>) -> Self {
        Self::with_weights(domain, op, layout, WeightChoice::Auto, initial)
            .expect("the automatic choice falls back to per-cell rows")
    }

    /// As [`TissueCpuSolver::new`], with the weights (a [`WeightChoice`]),
    /// or the weights and the compact layout's neighbour table (a
    /// [`TableChoice`]), stored as `choice` says (refused: classes asked
    /// for with more than 65,536 distinct rows).
    pub fn with_weights(
        domain: &Domain,
        op: &Arc<Operator>,
        layout: TissueLayout,
        choice: impl Into<TableChoice>,
        initial: &State<T>,
    ) -> Result<Self, TissueError> {
        check_inputs::<M, T>(domain, op, initial);
        let choice: TableChoice = choice.into();
        let storage = Storage::new(op, layout);
        let weights = WeightRows::build(op, layout, choice.weights)?;
        let neighbours = match layout {
            TissueLayout::Dense => None,
            TissueLayout::Compact => {
                Some(NeighbourTable::build(op.neighbours.clone(), op.tissue_cells(), choice.neighbours))
            }
        };
        let coeffs = CellCoeffs::new(domain, storage.stored(), |c| Some(storage.box_index(c)));
        Ok(Self::build(domain, (storage, TissueOnCpu { weights, neighbours }), coeffs, initial))
    }
}

impl<T: Scalar> HostMesh for TissueOnCpu<T> {
    type Cells = Storage;

    fn lay(&self, s: &Storage) -> Lay {
        let (table, classes, rows) = self.weights.parts(s.stored());
        let weights = table.as_ptr() as u64;
        let (class, offsets) =
            classes.map_or((0, 0), |by| (by.class.as_ptr() as u64, by.offsets.as_ptr() as u64));
        match &self.neighbours {
            None => {
                let mask = s.mask.as_ptr() as u64;
                Lay::Dense(DenseTissue { dims: s.dims, weights, mask, class, rows, offsets })
            }
            Some(table) => {
                let (cells, index) = (s.cells.len() as u32, s.cells.as_ptr() as u64);
                Lay::Compact(
                    CompactFields { dims: s.dims, cells, weights, index, class, rows }.over_host(table),
                )
            }
        }
    }

    fn method(&self, storage: &Storage) -> String {
        let neighbours = self.neighbours.as_ref().map(NeighbourTable::form);
        format!("cpu-tissue-{}", storage_name(storage.layout, self.weights.classes(), neighbours))
    }
}

/// A CPU tissue solver for the domain's model, chosen at run time (the
/// typed [`TissueCpuSolver`] behind the interface), for code that does not
/// otherwise need the model's type: tests, probes.
pub fn for_model<T: Scalar>(
    domain: &Domain,
    op: &Arc<Operator>,
    layout: TissueLayout,
    initial: &State<T>,
) -> Box<dyn Solver<T>> {
    for_model_with(domain, op, layout, WeightChoice::Auto, initial)
        .expect("the automatic choice falls back to per-cell rows")
}

/// As [`for_model`], with the weights (a [`WeightChoice`]), or the
/// weights and the neighbour table (a [`TableChoice`]), stored as `choice`
/// says.
pub fn for_model_with<T: Scalar>(
    domain: &Domain,
    op: &Arc<Operator>,
    layout: TissueLayout,
    choice: impl Into<TableChoice>,
    initial: &State<T>,
) -> Result<Box<dyn Solver<T>>, TissueError> {
    struct Build<'a, T> {
        domain: &'a Domain,
        op: &'a Arc<Operator>,
        layout: TissueLayout,
        choice: TableChoice,
        initial: &'a State<T>,
    }
    impl<T: Scalar> crate::models::ModelVisitor for Build<'_, T> {
        type Output = Box<dyn std::any::Any>;
        fn visit<M: CellModel, S: Scalar>(self) -> Self::Output {
            // `dispatch` was asked for T's precision, so S is T.
            let initial: &State<S> =
                (self.initial as &dyn std::any::Any).downcast_ref().expect("dispatched on T's precision");
            let solver: Result<Box<dyn Solver<S>>, TissueError> = TissueCpuSolver::<M, S>::with_weights(
                self.domain,
                self.op,
                self.layout,
                self.choice,
                initial,
            )
            .map(|s| Box::new(s) as Box<dyn Solver<S>>);
            Box::new(solver)
        }
    }
    let build = Build { domain, op, layout, choice: choice.into(), initial };
    let any = crate::models::dispatch(domain.model().info(), T::PRECISION, build);
    *any.downcast::<Result<Box<dyn Solver<T>>, TissueError>>().expect("dispatched on T's precision")
}

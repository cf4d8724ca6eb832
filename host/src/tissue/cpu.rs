//! The CPU solver of a tissue: the reference of the GPU's tissue kernels.
//!
//! Every cell is stepped by the very function the kernels call
//! (`kernels_gpu::tissue::step_dense_cell` or `step_compact_cell`, with
//! the weights stored as the GPU stores them: per cell or by class,
//! `super::rows`; and the compact layout's neighbours as the GPU stores
//! them: u32 indices or 16-bit offsets, `super::neighbours`), on buffers
//! laid out as on the device (the locals variable after variable), in
//! parallel over runs of cells; stimuli by
//! `kernels_gpu::tissue::stimulate_stored_cell`, like the stimulus kernel.

use std::sync::Arc;

use kernels_gpu::events::Recorder;
use kernels_gpu::tissue::{
    ClassRows, CompactTissue, DenseTissue, NeighbourLookup, OwnRows, RowLookup, step_compact_cell,
    step_dense_cell, stimulate_stored_cell,
};
use kernels_gpu::{CellModel, Locals, StepCoeffs};
use rayon::prelude::*;

use super::error::TissueError;
use super::layout::TissueLayout;
use super::maps::Storage;
use super::neighbours::NeighbourTable;
use super::neighbours::{CompactFields, CompactLay};
use super::rows::{WeightChoice, WeightRows};
use super::solving::{EventClock, box_mask_bits, check_inputs, check_state, rest_u};
use super::storage::{TableChoice, storage_name};
use super::weights::Operator;
use crate::domain::Domain;
use crate::events::ecg::pseudo_ecg_at;
use crate::events::recording::Maps;
use crate::events::{EventStart, Events};
use crate::scalar::Scalar;
use crate::solver::{BackendKind, Solver, SolverError};
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;

/// Cells per parallel task.
const CELLS_PER_TASK: usize = 8 * 1024;

/// Where a step reads and writes, as addresses (shared by the tasks, each
/// of which touches only its own cells).
#[derive(Clone, Copy)]
pub(super) struct Buffers {
    pub u: u64,
    pub u_next: u64,
    pub local: u64,
}

/// The layout's kernel argument (stepped by class where its `class` is
/// not 0), the compact one typed by its neighbour table's form.
#[derive(Clone, Copy)]
pub(super) enum Lay {
    Dense(DenseTissue),
    Compact(CompactLay),
}

pub struct TissueCpuSolver<M: CellModel, T: Scalar> {
    storage: Storage,
    step: StepCoeffs<T>,
    coeffs: M::Coeffs<T>,
    u: Vec<T>,
    u_next: Vec<T>,
    /// Local variable k of stored cell c at `k * stored + c`.
    local: Vec<T>,
    weights: WeightRows<T>,
    /// Compact layout: the neighbour table (none for the dense one).
    neighbours: Option<NeighbourTable>,
    clock: EventClock,
    /// Each mask stimulus's bits over the box.
    mask_bits: Vec<Option<Vec<u32>>>,
    /// The maps over the stored cells.
    maps: Option<Maps>,
}

impl<M: CellModel, T: Scalar> TissueCpuSolver<M, T> {
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
        let stored = storage.stored();
        let weights = WeightRows::build(op, layout, choice.weights)?;
        let neighbours = match layout {
            TissueLayout::Dense => None,
            TissueLayout::Compact => {
                Some(NeighbourTable::build(op.neighbours.clone(), op.tissue_cells(), choice.neighbours))
            }
        };
        let mut solver = Self {
            storage,
            // The weights are the operator in 1/time: the diffusion term
            // is multiplied by dt, like the Laplacian by D dt / h^2.
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs: domain.model_coeffs::<M, T>(),
            u: vec![T::ZERO; stored],
            u_next: vec![T::ZERO; stored],
            local: vec![T::ZERO; (M::Locals::<T>::COUNT * stored).max(1)],
            weights,
            neighbours,
            clock: EventClock::new(domain.dt_ms()),
            mask_bits: Vec::new(),
            maps: None,
        };
        solver.load(initial);
        Ok(solver)
    }

    fn load(&mut self, state: &State<T>) {
        let vars = self.storage.vars(state);
        let stored = self.storage.stored();
        self.u.copy_from_slice(&vars[0]);
        // Cells the step skips (outside the tissue) keep their value in both buffers.
        self.u_next.copy_from_slice(&vars[0]);
        for (k, var) in vars[1..].iter().enumerate() {
            self.local[k * stored..(k + 1) * stored].copy_from_slice(var);
        }
    }

    fn lay(&self) -> Lay {
        let s = &self.storage;
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

    /// The recorder at the current step (off without maps).
    fn recorder(&mut self) -> Recorder<T> {
        host_recorder(&mut self.maps, self.storage.stored(), &self.clock)
    }

    /// Applies the stimuli due at the current step, unless applied already.
    fn stimulate(&mut self) {
        if !self.clock.take_stimuli() {
            return;
        }
        let rec = self.recorder();
        let dims = self.storage.dims;
        for (k, s) in self.clock.events.stimuli.stimuli.iter().enumerate() {
            if !s.active_at(self.clock.step) {
                continue;
            }
            let Some((first, end)) = self.storage.stimulus_range(s) else { continue };
            let mut args = s.args::<T>(dims, self.clock.dt_ms);
            if let Some(bits) = &self.mask_bits[k] {
                args.mask = bits.as_ptr() as u64;
            }
            let (u, index) = (self.u.as_mut_ptr(), self.storage.index_address());
            for c in first..end {
                // SAFETY: c is a stored cell of `u`; the index table (compact)
                // and the mask bits cover what they must; the recorder is
                // over the stored cells' maps.
                unsafe { stimulate_stored_cell(u, dims, index, &args, &rec, c) };
            }
        }
    }

    fn step_once(&mut self) {
        self.stimulate();
        let rec = self.recorder();
        let lay = self.lay();
        let bufs = Buffers {
            u: self.u.as_ptr() as u64,
            u_next: self.u_next.as_mut_ptr() as u64,
            local: self.local.as_mut_ptr() as u64,
        };
        // SAFETY: the buffers and the layout are this solver's, sized for
        // its stored cells.
        unsafe { step_range::<M, T>(bufs, lay, &self.step, &self.coeffs, &rec, 0..self.storage.stored()) };
        std::mem::swap(&mut self.u, &mut self.u_next);
        self.clock.step += 1;
    }
}

/// The recorder of `maps` (over `stored` cells on the host) at the
/// clock's step; off without maps.
pub(super) fn host_recorder<T: Scalar>(
    maps: &mut Option<Maps>,
    stored: usize,
    clock: &EventClock,
) -> Recorder<T> {
    match maps {
        Some(maps) => {
            let addresses = maps.host_addresses();
            maps.recording.recorder::<T>(addresses, stored, clock.dt_ms).at(clock.t_ms())
        }
        None => Recorder::off(),
    }
}

/// Steps the stored cells of `range` in parallel tasks, with the FMA
/// instruction where the processor has it.
///
/// # Safety
/// As [`step_cells`] for every cell of `range`.
pub(super) unsafe fn step_range<M: CellModel, T: Scalar>(
    bufs: Buffers,
    lay: Lay,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    range: std::ops::Range<usize>,
) {
    #[cfg(target_arch = "x86_64")]
    let fma = std::arch::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    let fma = false;
    let (start, end) = (range.start, range.end);
    (0..(end - start).div_ceil(CELLS_PER_TASK)).into_par_iter().for_each(|task| {
        let range =
            (start + task * CELLS_PER_TASK) as u32..(start + (task + 1) * CELLS_PER_TASK).min(end) as u32;
        #[cfg(target_arch = "x86_64")]
        if fma {
            // SAFETY: the processor has FMA (detected above); the task's
            // cells are its own (see `step_cells`).
            unsafe { step_cells_fma::<M, T>(bufs, lay, step, coeffs, rec, range) };
            return;
        }
        let _ = fma;
        // SAFETY: as above.
        unsafe { step_cells::<M, T>(bufs, lay, step, coeffs, rec, range) };
    });
}

/// [`step_cells`] compiled with the FMA instruction available.
///
/// # Safety
/// As [`step_cells`], on a processor with FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn step_cells_fma<M: CellModel, T: Scalar>(
    bufs: Buffers,
    lay: Lay,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    range: std::ops::Range<u32>,
) {
    // SAFETY: forwarded.
    unsafe { step_cells::<M, T>(bufs, lay, step, coeffs, rec, range) }
}

/// Steps the stored cells of `range` with the kernels' per-cell functions
/// (by class where the layout has a class index).
///
/// # Safety
/// The buffers and `lay` are a solver's (lengths as the per-cell functions
/// require); no other task steps a cell of `range`.
#[inline(always)]
unsafe fn step_cells<M: CellModel, T: Scalar>(
    bufs: Buffers,
    lay: Lay,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    range: std::ops::Range<u32>,
) {
    let (u, u_next, local) = (bufs.u as *const T, bufs.u_next as *mut T, bufs.local as *mut T);
    // SAFETY: forwarded from the caller.
    unsafe {
        match lay {
            Lay::Dense(d) if d.class != 0 => {
                for i in range {
                    step_dense_cell::<M, T, ClassRows>(u, u_next, local, &d, step, coeffs, rec, i);
                }
            }
            Lay::Dense(d) => {
                for i in range {
                    step_dense_cell::<M, T, OwnRows>(u, u_next, local, &d, step, coeffs, rec, i);
                }
            }
            Lay::Compact(CompactLay::Indices32(c)) if c.class != 0 => {
                compact_cells::<M, T, ClassRows, _>(bufs, &c, step, coeffs, rec, range)
            }
            Lay::Compact(CompactLay::Indices32(c)) => {
                compact_cells::<M, T, OwnRows, _>(bufs, &c, step, coeffs, rec, range)
            }
            Lay::Compact(CompactLay::Offsets16(c)) if c.class != 0 => {
                compact_cells::<M, T, ClassRows, _>(bufs, &c, step, coeffs, rec, range)
            }
            Lay::Compact(CompactLay::Offsets16(c)) => {
                compact_cells::<M, T, OwnRows, _>(bufs, &c, step, coeffs, rec, range)
            }
        }
    }
}

/// Steps the cells of `range` of a compact layout with the kernels'
/// per-cell function, its rows found by `R` and its neighbours by `N`.
///
/// # Safety
/// As [`step_cells`].
#[inline(always)]
unsafe fn compact_cells<M: CellModel, T: Scalar, R: RowLookup, N: NeighbourLookup>(
    bufs: Buffers,
    lay: &CompactTissue<N>,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    range: std::ops::Range<u32>,
) {
    let (u, u_next, local) = (bufs.u as *const T, bufs.u_next as *mut T, bufs.local as *mut T);
    for i in range {
        // SAFETY: forwarded from the caller.
        unsafe { step_compact_cell::<M, T, R, N>(u, u_next, local, lay, step, coeffs, rec, i) };
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TissueCpuSolver<M, T> {
    fn kind(&self) -> BackendKind {
        BackendKind::Cpu
    }

    fn device_name(&self) -> String {
        format!("CPU ({} threads)", rayon::current_num_threads())
    }

    fn method(&self) -> String {
        let neighbours = self.neighbours.as_ref().map(NeighbourTable::form);
        format!("cpu-tissue-{}", storage_name(self.storage.layout, self.weights.classes(), neighbours))
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        for _ in 0..steps {
            self.step_once();
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        Ok(())
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        self.stimulate();
        let stored = self.storage.stored();
        let mut vars: Vec<&[T]> = vec![&self.u];
        for k in 0..M::Locals::<T>::COUNT {
            vars.push(&self.local[k * stored..(k + 1) * stored]);
        }
        Ok(self.storage.state(M::INFO, &vars))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        check_state::<M, T>(state, self.storage.dims);
        self.load(state);
        Ok(())
    }

    fn set_events(
        &mut self,
        events: &Events,
        start: EventStart,
        maps: Option<&Maps>,
    ) -> Result<(), SolverError> {
        assert_eq!(events.recording.is_some(), maps.is_some(), "maps exactly when recording");
        let dims = self.storage.dims;
        self.mask_bits = events.stimuli.stimuli.iter().map(|s| box_mask_bits(s, dims)).collect();
        self.clock.restart(events, start);
        self.maps = maps.map(|m| self.storage.maps_from_box(m));
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate();
        Ok(self.maps.as_ref().map(|m| self.storage.maps_to_box(m)))
    }

    /// The pseudo-ECG of the box with the cells outside the tissue at the
    /// model's rest (`fibril run` does not offer electrodes with a tissue:
    /// the sum does not yet follow the tissue's boundary).
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate();
        let field = self.storage.to_box_or(&self.u, rest_u::<M, T>());
        Ok(pseudo_ecg_at(&field, self.storage.dims, probes))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        Ok(self.u.par_iter().any(|x| !x.is_finite()))
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

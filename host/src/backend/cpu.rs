//! The CPU backend: the reference every GPU kernel is compared with.
//!
//! Rows of cells are stepped in parallel (rayon, a z-slice per task in 3D,
//! a few thousand cells per task in 2D and 1D); each cell calls the same
//! `kernels_gpu::stencil` Laplacian and `kernels_gpu::cell::step_cell` as
//! the kernels, with the same coefficient bits. A grid with axes of one
//! cell is stepped as its compacted grid ([`GridDims::compact`]), as on
//! the GPU.

use kernels_gpu::cell::step_cell;
use kernels_gpu::stencil::{laplacian3, laplacian5, laplacian7, mirror_neighbours};
use kernels_gpu::{CellModel, GridDims, Locals, StepCoeffs, ZWindow};
use rayon::prelude::*;

use crate::domain::Domain;
use crate::events::ecg::pseudo_ecg_at;
use crate::events::recording::Maps;
use crate::events::stimulus::{LocalArray, apply_with_mask};
use crate::events::{EventStart, Events, HostEvents};
use crate::models::{ModelVisitor, dispatch};
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn, Solver, SolverError};
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::events::{Recorder, SlicePlacement};

/// Cells per parallel task in 2D and 1D grids (3D grids take a slice each).
const CELLS_PER_TASK: usize = 16 * 1024;

/// What a run on one CPU domain runs on, as every CPU solver of one
/// domain names it (the box's and the tissue's alike).
pub(crate) fn cpu_name() -> String {
    format!("CPU ({} threads)", rayon::current_num_threads())
}

pub struct CpuSolver<M: CellModel, T: Scalar> {
    /// The grid as given (the state's shape).
    dims: GridDims,
    /// The grid stepped: `dims` compacted.
    grid: GridDims,
    step: StepCoeffs<T>,
    coeffs: M::Coeffs<T>,
    u: Vec<T>,
    u_next: Vec<T>,
    /// The model's local variables, cell after cell.
    locals: Vec<M::Locals<T>>,
    /// Where this buffer lies in the whole grid (a sub-domain's share).
    place: SlicePlacement,
    /// The step count, stimuli and maps.
    events: HostEvents,
}

impl<M: CellModel, T: Scalar> CpuSolver<M, T> {
    /// # Panics
    /// If `initial` or `domain` is not of model `M`, or `initial` does not
    /// have the domain's dimensions (programming errors).
    pub fn new(domain: &Domain, initial: &State<T>) -> Self {
        assert_eq!(initial.dims(), domain.dims(), "initial state matches the domain");
        assert_eq!(initial.model().name, M::INFO.name, "initial state of this model");
        let mut solver = Self {
            dims: domain.dims(),
            grid: domain.dims().compact(),
            step: domain.step_coeffs(),
            coeffs: domain.model_coeffs::<M, T>(),
            u: initial.slice(0).to_vec(),
            u_next: vec![T::ZERO; domain.cells()],
            locals: vec![M::Locals::<T>::from_fn(|_| T::ZERO); domain.cells()],
            place: SlicePlacement::whole(domain.dims().nz),
            events: HostEvents::none(domain.cells(), domain.dt_ms()),
        };
        solver.load_locals(initial);
        solver
    }

    fn load_locals(&mut self, state: &State<T>) {
        let vars: Vec<&[T]> = (1..state.len()).map(|k| state.slice(k)).collect();
        for (i, cell) in self.locals.iter_mut().enumerate() {
            *cell = M::Locals::<T>::from_fn(|k| vars[k][i]);
        }
    }

    /// Variable 0 of every cell (row-major), without copying the state.
    pub fn potential(&self) -> &[T] {
        &self.u
    }

    /// Slice `z` of U (row-major, `nx * ny` values) of a 3D grid.
    pub fn u_slice(&self, z: u32) -> &[T] {
        let n = self.dims.slice_cells();
        &self.u[z as usize * n..(z as usize + 1) * n]
    }

    /// Slice `z` of U, writable (halo exchange).
    pub fn u_slice_mut(&mut self, z: u32) -> &mut [T] {
        let n = self.dims.slice_cells();
        &mut self.u[z as usize * n..(z as usize + 1) * n]
    }

    /// Slice `z`'s U and local variables, copied (a deep halo exchange
    /// moves every variable).
    pub fn slice_cells(&self, z: u32) -> (Vec<T>, Vec<M::Locals<T>>) {
        let n = self.dims.slice_cells();
        let at = z as usize * n..(z as usize + 1) * n;
        (self.u[at.clone()].to_vec(), self.locals[at].to_vec())
    }

    /// Overwrites slice `z`'s U and local variables.
    pub fn set_slice_cells(&mut self, z: u32, (u, locals): (&[T], &[M::Locals<T>])) {
        let n = self.dims.slice_cells();
        let at = z as usize * n..(z as usize + 1) * n;
        self.u[at.clone()].copy_from_slice(u);
        self.locals[at].copy_from_slice(locals);
    }

    /// The step the next [`CpuSolver::step_window`] takes.
    pub fn step_count(&self) -> u64 {
        self.events.clock.step
    }

    /// Whether a stimulus of the run is due at `step`, anywhere in the
    /// whole grid (the sub-domains of a split end their passes together).
    pub fn stimulus_due(&self, step: u64) -> bool {
        self.events.clock.events.stimuli.any_active_at(step)
    }

    fn step_once(&mut self) {
        self.step_window(ZWindow::all(self.grid.nz));
    }

    /// Installs the events of this buffer, placed in the whole grid by
    /// `place` (a sub-domain's share; `maps` are this buffer's).
    pub fn set_local_events(
        &mut self,
        events: &Events,
        start: EventStart,
        place: SlicePlacement,
        maps: Option<Maps>,
    ) {
        self.place = place;
        self.events.restart(events, start, HostEvents::mask_bits(events, self.dims, place), maps);
    }

    /// Applies the stimuli due at the current step, unless applied already.
    fn stimulate(&mut self) {
        let (local, place, dt_ms, u) = (self.dims, self.place, self.events.clock.dt_ms, &mut self.u);
        let count = M::Locals::<T>::COUNT;
        // `Locals` is `[T; COUNT]`: the locals are cell after cell.
        debug_assert_eq!(std::mem::size_of::<M::Locals<T>>(), count * std::mem::size_of::<T>());
        let base = self.locals.as_mut_ptr() as u64;
        let array = |k| LocalArray::by_cell::<T>(base, count, local.cells(), k);
        let locals = Some((M::INFO, &array as &dyn Fn(usize) -> LocalArray));
        self.events
            .stimulate(|_, s, bits, rec| apply_with_mask(s, u, (local, place), dt_ms, rec, bits, locals));
    }

    /// This buffer's maps (after the stimuli of the current step).
    pub fn local_maps(&mut self) -> Option<&Maps> {
        self.stimulate();
        self.events.maps.as_ref()
    }

    /// Variable 0 after the stimuli of the current step.
    fn stimulated_u(&mut self) -> &[T] {
        self.stimulate();
        &self.u
    }

    /// One step of the slices in `window` (of the compacted grid) only,
    /// after the stimuli due at this step (applied to every slice, halos
    /// included), then the buffers swap; the other slices of the new U
    /// hold stale values (a sub-domain's halo slices, refilled by the halo
    /// exchange).
    pub fn step_window(&mut self, window: ZWindow) {
        self.stimulate();
        let rec = self.events.recorder::<T>();
        // The shared math uses explicit fused multiply-adds. Without the FMA
        // instruction they become calls to a software `fma`: correct (the
        // same single rounding) but several times slower, so the row loop
        // is also built with FMA enabled and chosen when the processor has it.
        #[cfg(target_arch = "x86_64")]
        let fma = std::arch::is_x86_feature_detected!("fma");
        #[cfg(not(target_arch = "x86_64"))]
        let fma = false;
        let g = self.grid;
        let rows = RowStep::<M, T> { u: &self.u, g, step: &self.step, coeffs: &self.coeffs, rec: &rec };
        let nx = g.nx as usize;
        let rows_per_task = if g.axes() == 3 { g.ny as usize } else { (CELLS_PER_TASK / nx).max(1) };
        let first_row = window.begin as usize * g.ny as usize;
        let (lo, hi) = (first_row * nx, window.end as usize * g.slice_cells());
        self.u_next[lo..hi]
            .par_chunks_mut(rows_per_task * nx)
            .zip(self.locals[lo..hi].par_chunks_mut(rows_per_task * nx))
            .enumerate()
            .for_each(|(task, (u_next, locals))| {
                let row = first_row + task * rows_per_task;
                #[cfg(target_arch = "x86_64")]
                if fma {
                    // SAFETY: the processor supports FMA (detected above).
                    unsafe { rows.rows_fma(u_next, locals, row) };
                    return;
                }
                let _ = fma;
                rows.rows(u_next, locals, row);
            });
        std::mem::swap(&mut self.u, &mut self.u_next);
        self.events.clock.step += 1;
    }
}

/// What every row task of a step reads: U of the whole (compacted) grid
/// `g`, the coefficients, and the recorder of the step.
struct RowStep<'a, M: CellModel, T: Scalar> {
    u: &'a [T],
    g: GridDims,
    step: &'a StepCoeffs<T>,
    coeffs: &'a M::Coeffs<T>,
    rec: &'a Recorder<T>,
}

impl<M: CellModel, T: Scalar> RowStep<'_, M, T> {
    /// [`RowStep::rows`] compiled with the FMA instruction available.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "fma")]
    fn rows_fma(&self, u_next: &mut [T], locals: &mut [M::Locals<T>], first_row: usize) {
        self.rows(u_next, locals, first_row);
    }

    /// Advances the rows of cells that `u_next` and `locals` hold, starting
    /// at row `first_row` (row r is y = r % ny, z = r / ny of the compacted
    /// grid `g`); reads `u`, the whole grid; records crossings with `rec`.
    #[inline(always)]
    fn rows(&self, u_next: &mut [T], locals: &mut [M::Locals<T>], first_row: usize) {
        let (u, g, step, coeffs, rec) = (self.u, self.g, self.step, self.coeffs, self.rec);
        let nx = g.nx as usize;
        let axes = g.axes();
        for (r, (u_next, locals)) in u_next.chunks_mut(nx).zip(locals.chunks_mut(nx)).enumerate() {
            let row = first_row + r;
            let (y, z) = ((row % g.ny as usize) as u32, (row / g.ny as usize) as u32);
            let (ym, yp) = mirror_neighbours(y, g.ny);
            let (zm, zp) = mirror_neighbours(z, g.nz);
            for (x, (un, cell)) in u_next.iter_mut().zip(locals.iter_mut()).enumerate() {
                let x = x as u32;
                let (xm, xp) = mirror_neighbours(x, g.nx);
                let i = g.index(x, y, z);
                let uc = u[i];
                let at = |x, y, z| u[g.index(x, y, z)];
                let lap = match axes {
                    3 => laplacian7(
                        uc,
                        at(xm, y, z),
                        at(xp, y, z),
                        at(x, ym, z),
                        at(x, yp, z),
                        at(x, y, zm),
                        at(x, y, zp),
                    ),
                    2 => laplacian5(uc, at(xm, y, z), at(xp, y, z), at(x, ym, z), at(x, yp, z)),
                    _ => laplacian3(uc, at(xm, y, z), at(xp, y, z)),
                };
                *un = step_cell::<M, T>(uc, lap, cell, step, coeffs);
                // SAFETY: the maps (if any) hold the grid's cells and row tasks
                // are disjoint, so cell i's entries are this thread's alone.
                unsafe { rec.record(i as u32, uc, *un) };
            }
        }
    }
}

/// A CPU solver for the domain's model, chosen at run time (the typed
/// [`CpuSolver`] behind the interface), for code that does not otherwise
/// need the model's type: tests, probes.
pub fn for_model<T: Scalar>(domain: &Domain, initial: &State<T>) -> Box<dyn Solver<T>> {
    struct Build<'a, T> {
        domain: &'a Domain,
        initial: &'a State<T>,
    }
    impl<T: Scalar> ModelVisitor for Build<'_, T> {
        type Output = Box<dyn std::any::Any>;
        fn visit<M: CellModel, S: Scalar>(self) -> Self::Output {
            // `dispatch` was asked for T's precision, so S is T.
            let initial: &State<S> =
                (self.initial as &dyn std::any::Any).downcast_ref().expect("dispatched on T's precision");
            let solver: Box<dyn Solver<S>> = Box::new(CpuSolver::<M, S>::new(self.domain, initial));
            Box::new(solver)
        }
    }
    let any = dispatch(domain.model().info(), T::PRECISION, Build { domain, initial });
    *any.downcast::<Box<dyn Solver<T>>>().expect("dispatched on T's precision")
}

impl<M: CellModel, T: Scalar> Solver<T> for CpuSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Cpu(cpu_name())
    }

    fn method(&self) -> String {
        "cpu-reference".into()
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        (0..steps).for_each(|_| self.step_once());
        Ok(())
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let mut vars = vec![self.stimulated_u().to_vec()];
        for k in 0..M::Locals::<T>::COUNT {
            vars.push(self.locals.iter().map(|cell| cell.get(k)).collect());
        }
        Ok(State::from_vecs(M::INFO, self.dims, vars))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        assert_eq!(state.dims(), self.dims, "state matches the solver's grid");
        assert_eq!(state.model().name, M::INFO.name, "state of the solver's model");
        self.u.copy_from_slice(state.slice(0));
        self.load_locals(state);
        Ok(())
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        self.set_local_events(events, start, SlicePlacement::whole(self.dims.nz), maps.cloned());
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        Ok(self.local_maps().cloned())
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        let dims = self.dims;
        Ok(pseudo_ecg_at(self.stimulated_u(), dims, probes))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        Ok(self.u.par_iter().any(|x| !x.is_finite()))
    }
}

//! A tissue's fields in host memory, laid out as on a device (a whole
//! mesh's stored cells, or one part of a split with its halo cells), with
//! their events, stepped by the very per-cell functions the GPU kernels
//! call (`kernels_gpu::tissue::step_dense_cell`, `step_compact_cell`,
//! `kernels_gpu::tet::step_node`) in parallel over runs of cells; stimuli
//! by `kernels_gpu::tissue::stimulate_stored_cell`, like the stimulus
//! kernel. What the CPU solvers are made of: the one-domain solver every
//! mesh shares (`super::cpu_solver`) and each part of the CPU split
//! (`super::split_cpu`).

use std::ops::Range;

use kernels_gpu::cell::CellStep;
use kernels_gpu::events::Recorder;
use kernels_gpu::params::{CoeffsSource, ParamSets, PerCell, Uniform};
use kernels_gpu::tet::{EllTable, step_node};
use kernels_gpu::tissue::{
    ClassRows, CompactTissue, DenseTissue, NeighbourLookup, OwnRows, RowLookup, step_compact_cell,
    step_dense_cell, stimulate_stored_cell,
};
use kernels_gpu::{CellModel, GridDims, ModelInfo, StepCoeffs};
use rayon::prelude::*;

use super::neighbours::CompactLay;
use super::solving::box_mask_bits;
use crate::cell_params::CellCoeffs;
use crate::events::recording::Maps;
use crate::events::stimulus::LocalArray;
use crate::events::{EventStart, Events, HostEvents};
use crate::scalar::Scalar;

/// Cells per parallel task.
const CELLS_PER_TASK: usize = 8 * 1024;

/// Where a step reads and writes, as addresses (shared by the tasks, each
/// of which touches only its own cells).
#[derive(Clone, Copy)]
pub(crate) struct Buffers {
    pub u: u64,
    pub u_next: u64,
    pub local: u64,
}

/// The layout's kernel argument (stepped by class where its `class` is
/// not 0), the compact one typed by its neighbour table's form; or the
/// nodes of a tetrahedral mesh with their neighbour table
/// (`crate::tet`), stepped by the same machinery.
#[derive(Clone, Copy)]
pub(crate) enum Lay {
    Dense(DenseTissue),
    Compact(CompactLay),
    Nodes(EllTable),
}

/// A tissue's fields in host memory, laid out as on a device (a whole
/// tissue's stored cells, or one part of a split with its halo cells),
/// with their events: what the CPU tissue solvers are made of.
pub(crate) struct HostTissue<T> {
    pub u: Vec<T>,
    pub u_next: Vec<T>,
    /// Local variable k of cell c at `k * stride + c` (one value at least).
    pub local: Vec<T>,
    /// The clock, the mask bits (over the box) and the maps (over the
    /// stored cells).
    pub events: HostEvents,
    /// For each stimulus, the runs of stored cells it may touch.
    ranges: Vec<Vec<Range<u32>>>,
}

impl<T: Scalar> HostTissue<T> {
    /// `stored` cells at rest, without events.
    pub fn new(stored: usize, dt_ms: f64) -> Self {
        let events = HostEvents::none(stored, dt_ms);
        Self { u: Vec::new(), u_next: Vec::new(), local: Vec::new(), events, ranges: Vec::new() }
    }

    /// Variable 0 of the stored cells and the locals at the stride; cells
    /// the step skips (outside the tissue, halos) keep their value in both
    /// U buffers.
    pub fn load(&mut self, u: Vec<T>, local: Vec<T>) {
        self.u_next.clone_from(&u);
        self.u = u;
        self.local = if local.is_empty() { vec![T::ZERO] } else { local };
    }

    /// `events` for a run that stands at `start`, the stimuli placed in
    /// the box `dims` and touching the runs `ranges` of stored cells (one
    /// list per stimulus), the maps over the stored cells.
    pub fn set_events(
        &mut self,
        (events, start): (&Events, EventStart),
        dims: GridDims,
        ranges: Vec<Vec<Range<u32>>>,
        maps: Option<Maps>,
    ) {
        let masks = events.stimuli.stimuli.iter().map(|s| box_mask_bits(s, dims)).collect();
        self.events.restart(events, start, masks, maps);
        self.ranges = ranges;
    }

    /// Applies the stimuli due at the current step to the stored cells of
    /// their runs (placed in the box `dims`; `index`: 0 where the stored
    /// cells are the box's, else the address of the box index of every
    /// stored cell), unless applied already.
    pub fn stimulate(&mut self, dims: GridDims, index: u64, model: &ModelInfo) {
        let (u, ranges, dt_ms) = (self.u.as_mut_ptr(), &self.ranges, self.events.clock.dt_ms);
        // The locals of the owned cells, at the stride (a model without
        // locals keeps one value, which no carrier reads).
        let stride = self.local.len() / (model.variables.len() - 1).max(1);
        let base = self.local.as_mut_ptr() as u64;
        self.events.stimulate::<T>(|k, s, bits, rec| {
            let mut args = s.args::<T>(dims, dt_ms);
            s.carry_into(
                &mut args,
                model,
                |var| LocalArray::by_variable::<T>(base, stride, stride, var),
                dt_ms,
            );
            if let Some(bits) = bits {
                args.mask = bits.as_ptr() as u64;
            }
            for c in ranges[k].iter().cloned().flatten() {
                // SAFETY: c is a stored cell of `u` with its box index in
                // the table (the ranges leave out the halo slices beyond
                // the grid); the mask bits cover the whole box; the
                // recorder is over the stored cells' maps.
                unsafe { stimulate_stored_cell(u, dims, index, &args, rec, c) };
            }
        });
    }

    /// One step of the stored cells of `range` (the stimuli applied
    /// before), then the buffers swap and the clock moves on.
    ///
    /// # Safety
    /// `lay` is over these fields: the weights, the locals and the
    /// neighbour table (if any) hold the stride's cells; every nonzero
    /// weight of a stepped cell points at a stored cell.
    pub unsafe fn step<M: CellModel>(
        &mut self,
        lay: Lay,
        step: &StepCoeffs<T>,
        coeffs: &CellCoeffs<M, T>,
        range: Range<usize>,
    ) {
        let rec = self.events.recorder::<T>();
        let bufs = Buffers {
            u: self.u.as_ptr() as u64,
            u_next: self.u_next.as_mut_ptr() as u64,
            local: self.local.as_mut_ptr() as u64,
        };
        let (sets, coeffs) = (coeffs.host_sets(), coeffs.base());
        let cells = StoredStep::<M, T> { bufs, lay, step, coeffs, sets, rec: &rec };
        // SAFETY: the buffers are these fields, the layout as the caller
        // promises; the recorder is over the stored cells.
        unsafe { cells.range(range) };
        std::mem::swap(&mut self.u, &mut self.u_next);
        self.events.clock.step += 1;
    }

    /// Whether variable 0 holds a NaN or an infinity.
    pub fn any_nonfinite(&self) -> bool {
        self.u.par_iter().any(|x| !x.is_finite())
    }
}

/// One step of a tissue's stored cells: where it reads and writes, the
/// layout, the coefficients (those of every cell, or the set of each:
/// `crate::cell_params`) and the recorder of the step.
struct StoredStep<'a, M: CellModel, T: Scalar> {
    bufs: Buffers,
    lay: Lay,
    step: &'a StepCoeffs<T>,
    coeffs: &'a M::Coeffs<T>,
    sets: Option<ParamSets>,
    rec: &'a Recorder<T>,
}

impl<M: CellModel, T: Scalar> StoredStep<'_, M, T> {
    /// Steps the stored cells of `range` in parallel tasks, with the FMA
    /// instruction where the processor has it.
    ///
    /// # Safety
    /// As [`StoredStep::cells`] for every cell of `range`.
    unsafe fn range(&self, range: Range<usize>) {
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
                // cells are its own (see `cells`).
                unsafe { self.cells_fma(range) };
                return;
            }
            let _ = fma;
            // SAFETY: as above.
            unsafe { self.cells(range) };
        });
    }

    /// [`StoredStep::cells`] compiled with the FMA instruction available.
    ///
    /// # Safety
    /// As [`StoredStep::cells`], on a processor with FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "fma")]
    unsafe fn cells_fma(&self, range: Range<u32>) {
        // SAFETY: forwarded.
        unsafe { self.cells(range) }
    }

    /// Steps the stored cells of `range` with the kernels' per-cell
    /// functions (by class where the layout has a class index).
    ///
    /// # Safety
    /// The buffers and the layout are a solver's (lengths as the per-cell
    /// functions require); no other task steps a cell of `range`.
    #[inline(always)]
    unsafe fn cells(&self, range: Range<u32>) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match self.sets {
                None => self.cells_from::<Uniform>(range),
                Some(_) => self.cells_from::<PerCell>(range),
            }
        }
    }

    /// The coefficients of stored cell `c`, as the kernels of `P` take
    /// them: those of every cell, or its set's.
    ///
    /// # Safety
    /// For [`PerCell`], `self.sets` is a solver's and `c` one of its
    /// stored cells.
    #[inline(always)]
    unsafe fn coeffs_of<'r, P: CoeffsSource>(
        &'r self,
        c: u32,
        own: &'r mut Option<M::Coeffs<T>>,
    ) -> &'r M::Coeffs<T> {
        match self.sets.filter(|_| P::PER_CELL) {
            // SAFETY: per the contract.
            Some(sets) => own.insert(unsafe { sets.coeffs_of::<M, T>(c as usize) }),
            None => self.coeffs,
        }
    }

    /// The buffers, the recorder and `coeffs` as the per-cell steps take
    /// them.
    #[inline(always)]
    fn cell<'r>(&'r self, coeffs: &'r M::Coeffs<T>) -> CellStep<'r, M, T> {
        let Buffers { u, u_next, local } = self.bufs;
        CellStep {
            u: u as *const T,
            u_next: u_next as *mut T,
            local: local as *mut T,
            step: self.step,
            coeffs,
            rec: self.rec,
        }
    }

    /// [`StoredStep::cells`] with the coefficients `P` says.
    ///
    /// # Safety
    /// As [`StoredStep::cells`].
    #[inline(always)]
    unsafe fn cells_from<P: CoeffsSource>(&self, range: Range<u32>) {
        let mut own = None;
        // SAFETY: forwarded from the caller.
        unsafe {
            match self.lay {
                Lay::Dense(d) if d.class != 0 => {
                    for i in range {
                        let coeffs = self.coeffs_of::<P>(i, &mut own);
                        step_dense_cell::<M, T, ClassRows>(&self.cell(coeffs), &d, i);
                    }
                }
                Lay::Dense(d) => {
                    for i in range {
                        let coeffs = self.coeffs_of::<P>(i, &mut own);
                        step_dense_cell::<M, T, OwnRows>(&self.cell(coeffs), &d, i);
                    }
                }
                Lay::Compact(CompactLay::Indices32(c)) if c.class != 0 => {
                    self.compact::<ClassRows, _, P>(&c, range)
                }
                Lay::Compact(CompactLay::Indices32(c)) => self.compact::<OwnRows, _, P>(&c, range),
                Lay::Compact(CompactLay::Offsets16(c)) if c.class != 0 => {
                    self.compact::<ClassRows, _, P>(&c, range)
                }
                Lay::Compact(CompactLay::Offsets16(c)) => self.compact::<OwnRows, _, P>(&c, range),
                Lay::Nodes(table) => {
                    for c in range {
                        let coeffs = self.coeffs_of::<P>(c, &mut own);
                        step_node::<M, T>(&self.cell(coeffs), &table, c);
                    }
                }
            }
        }
    }

    /// Steps the cells of `range` of a compact layout with the kernels'
    /// per-cell function, its rows found by `R`, its neighbours by `N`
    /// and its coefficients as `P` says.
    ///
    /// # Safety
    /// As [`StoredStep::cells`].
    #[inline(always)]
    unsafe fn compact<R: RowLookup, N: NeighbourLookup, P: CoeffsSource>(
        &self,
        lay: &CompactTissue<N>,
        range: Range<u32>,
    ) {
        let mut own = None;
        for i in range {
            // SAFETY: forwarded from the caller.
            unsafe {
                let coeffs = self.coeffs_of::<P>(i, &mut own);
                step_compact_cell::<M, T, R, N>(&self.cell(coeffs), lay, i)
            };
        }
    }
}

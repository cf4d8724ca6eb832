//! The split tissue run on CPU sub-domains ([`super::split`]): the
//! reference for the split on GPUs, testable without one. Each part steps
//! its own cells with the functions the single-domain solver uses
//! (`super::cpu`), then the halos of variable 0 are copied from the
//! neighbours' boundary slices.

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;

use kernels_gpu::events::Recorder;
use kernels_gpu::tissue::{DenseTissue, stimulate_stored_cell};
use kernels_gpu::{CellModel, StepCoeffs};

use super::cpu::{Buffers, Lay, host_recorder, step_range};
use super::layout::TissueLayout;
use super::neighbours::CompactFields;
use super::solving::{EventClock, box_mask_bits, check_inputs, check_state, rest_u};
use super::split::{Slab, TissueSplit};
use super::storage::storage_name;
use super::weights::Operator;
use crate::domain::Domain;
use crate::events::ecg::pseudo_ecg_at;
use crate::events::recording::Maps;
use crate::events::{EventStart, Events};
use crate::layout::zsplit::SplitError;
use crate::multi::cpu::cpu_slabs_name;
use crate::scalar::Scalar;
use crate::solver::{BackendKind, Solver, SolverError};
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;

/// One part's buffers, laid out as on a device.
struct Part<T> {
    u: Vec<T>,
    u_next: Vec<T>,
    /// Local variable k of the part's cell c at `k * stride + c`.
    local: Vec<T>,
    weights: Vec<T>,
    /// The maps over the part's stored cells.
    maps: Option<Maps>,
    /// For each stimulus, the runs of stored cells it may touch here.
    stimulus_ranges: Vec<Vec<Range<u32>>>,
}

impl<T: Scalar> Part<T> {
    fn load(&mut self, slab: &Slab, state: &State<T>) {
        let (u, local) = slab.scatter(state);
        self.u_next.clone_from(&u);
        self.u = u;
        self.local = if local.is_empty() { vec![T::ZERO] } else { local };
    }
}

/// G CPU sub-domains of a tissue that exchange halos of variable 0 after
/// every step.
pub struct TissueCpuMultiSolver<M: CellModel, T: Scalar> {
    split: TissueSplit,
    parts: Vec<Part<T>>,
    step: StepCoeffs<T>,
    coeffs: M::Coeffs<T>,
    clock: EventClock,
    /// Each mask stimulus's bits over the whole box.
    mask_bits: Vec<Option<Vec<u32>>>,
    model: PhantomData<M>,
}

impl<M: CellModel, T: Scalar> TissueCpuMultiSolver<M, T> {
    /// `parts` parts of about equal numbers of tissue cells.
    ///
    /// # Panics
    /// As [`super::cpu::TissueCpuSolver::new`].
    pub fn new(
        domain: &Domain,
        op: &Arc<Operator>,
        layout: TissueLayout,
        parts: usize,
        initial: &State<T>,
    ) -> Result<Self, SplitError> {
        Ok(Self::with_split(domain, op, TissueSplit::new(op, parts, layout)?, initial))
    }

    /// The parts of `split` (a split of `op`'s tissue).
    pub fn with_split(domain: &Domain, op: &Arc<Operator>, split: TissueSplit, initial: &State<T>) -> Self {
        check_inputs::<M, T>(domain, op, initial);
        let parts = split
            .slabs
            .iter()
            .map(|slab| {
                let mut part = Part {
                    u: Vec::new(),
                    u_next: Vec::new(),
                    local: Vec::new(),
                    weights: slab.weights::<T>(op),
                    maps: None,
                    stimulus_ranges: Vec::new(),
                };
                part.load(slab, initial);
                part
            })
            .collect();
        Self {
            split,
            parts,
            // As the single domain: the weights are in 1/time.
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs: domain.model_coeffs::<M, T>(),
            clock: EventClock::new(domain.dt_ms()),
            mask_bits: Vec::new(),
            model: PhantomData,
        }
    }

    pub fn split(&self) -> &TissueSplit {
        &self.split
    }

    /// Refills every halo from the neighbour's boundary slice.
    pub fn exchange_halos(&mut self) {
        for i in 0..self.parts.len() {
            for side in 0..2 {
                let Some((j, send)) = self.split.halo_source(i, side) else { continue };
                let values = self.parts[j].u[send.start as usize..send.end as usize].to_vec();
                let recv = self.split.slabs[i].recv[side].clone();
                self.parts[i].u[recv.start as usize..recv.end as usize].copy_from_slice(&values);
            }
        }
    }

    /// Applies the stimuli due at the current step to every stored cell
    /// (halos included), unless applied already.
    fn stimulate(&mut self) {
        if !self.clock.take_stimuli() {
            return;
        }
        for (k, s) in self.clock.events.stimuli.stimuli.iter().enumerate() {
            if !s.active_at(self.clock.step) {
                continue;
            }
            for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
                let mut args = s.args::<T>(slab.global, self.clock.dt_ms);
                if let Some(bits) = &self.mask_bits[k] {
                    args.mask = bits.as_ptr() as u64;
                }
                let rec: Recorder<T> = host_recorder(&mut part.maps, slab.stored(), &self.clock);
                let (u, index) = (part.u.as_mut_ptr(), slab.index.as_ptr() as u64);
                for range in &part.stimulus_ranges[k] {
                    for c in range.clone() {
                        // SAFETY: c is a stored cell of `u` with its box
                        // index in the table (the ranges leave out the
                        // halo slices beyond the grid); the mask bits
                        // cover the whole box; the recorder is over the
                        // part's stored cells.
                        unsafe { stimulate_stored_cell(u, slab.global, index, &args, &rec, c) };
                    }
                }
            }
        }
    }

    fn step_once(&mut self) {
        self.stimulate();
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
            let rec = host_recorder(&mut part.maps, slab.stored(), &self.clock);
            let (weights, rows) = (part.weights.as_ptr() as u64, slab.stride() as u32);
            let lay = match &slab.neighbours {
                None => Lay::Dense(DenseTissue {
                    dims: slab.local,
                    weights,
                    mask: slab.mask.as_ptr() as u64,
                    class: 0,
                    rows,
                    offsets: 0,
                }),
                Some(table) => {
                    let (dims, cells, index) = (slab.global, slab.stepped.end, slab.index.as_ptr() as u64);
                    Lay::Compact(
                        CompactFields { dims, cells, weights, index, class: 0, rows }.over_host(table),
                    )
                }
            };
            let bufs = Buffers {
                u: part.u.as_ptr() as u64,
                u_next: part.u_next.as_mut_ptr() as u64,
                local: part.local.as_mut_ptr() as u64,
            };
            let stepped = slab.stepped.start as usize..slab.stepped.end as usize;
            // SAFETY: U holds the stored cells; the weights, the locals and
            // the neighbour table the stride's cells; every nonzero weight
            // of a stepped cell points at a stored cell (dense: inside the
            // part's box, whose halo slices hold the slices next to the
            // owned ones; compact: the table's entries); the recorder is
            // over the stored cells.
            unsafe { step_range::<M, T>(bufs, lay, &self.step, &self.coeffs, &rec, stepped) };
            std::mem::swap(&mut part.u, &mut part.u_next);
        }
        self.exchange_halos();
        self.clock.step += 1;
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TissueCpuMultiSolver<M, T> {
    fn kind(&self) -> BackendKind {
        BackendKind::Cpu
    }

    fn device_name(&self) -> String {
        cpu_slabs_name(self.parts.len())
    }

    fn method(&self) -> String {
        let storage = storage_name(self.split.slabs[0].layout, None, self.split.neighbour_form());
        format!("cpu-tissue-{storage} z-split {}", self.parts.len())
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
        let parts: Vec<(&[T], &[T])> = self.parts.iter().map(|p| (&p.u[..], &p.local[..])).collect();
        Ok(self.split.gather(M::INFO, &parts))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        check_state::<M, T>(state, self.split.slabs[0].global);
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
            part.load(slab, state);
        }
        Ok(())
    }

    fn set_events(
        &mut self,
        events: &Events,
        start: EventStart,
        maps: Option<&Maps>,
    ) -> Result<(), SolverError> {
        assert_eq!(events.recording.is_some(), maps.is_some(), "maps exactly when recording");
        let global = self.split.slabs[0].global;
        self.mask_bits = events.stimuli.stimuli.iter().map(|s| box_mask_bits(s, global)).collect();
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
            part.stimulus_ranges = events.stimuli.stimuli.iter().map(|s| slab.stimulus_ranges(s)).collect();
            part.maps = maps.map(|m| slab.scatter_maps(m));
        }
        self.clock.restart(events, start);
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate();
        let parts: Option<Vec<Maps>> = self.parts.iter().map(|p| p.maps.clone()).collect();
        Ok(parts.map(|p| self.split.gather_maps(&p)))
    }

    /// As the single-domain tissue solver's: the box with the cells
    /// outside the tissue at the model's rest.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate();
        let field = self.split.u_to_box(self.parts.iter().map(|p| &p.u[..]), rest_u::<M, T>());
        Ok(pseudo_ecg_at(&field, self.split.slabs[0].global, probes))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        Ok(self.parts.iter().any(|p| p.u.iter().any(|x| !x.is_finite())))
    }
}

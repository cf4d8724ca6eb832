//! The split tissue run on CPU sub-domains ([`super::split`]): the
//! reference for the split on GPUs, testable without one. Each part is
//! the single-domain solver's fields and events (`super::host_fields::HostTissue`)
//! over its stored cells, stepped by the same functions, with its weights
//! stored as the GPU parts store them (per cell or by class,
//! [`Slab::weight_rows`]); after every step the halos of variable 0 are
//! copied from the neighbours' boundary slices.

use std::sync::Arc;

use kernels_gpu::tissue::DenseTissue;
use kernels_gpu::{CellModel, ModelInfo, StepCoeffs};

use super::cut::{CutPart, MeshCut};
use super::error::TissueError;
use super::halo::{HaloRun, exchange_on_host};
use super::host_fields::{HostTissue, Lay};
use super::layout::TissueLayout;
use super::neighbours::CompactFields;
use super::rows::WeightRows;
use super::solving::{check_inputs, check_state, rest_u};
use super::split::{Slab, TissueSplit};
use super::storage::storage_name;
use super::weights::Operator;
use crate::cell_params::CellCoeffs;
use crate::domain::Domain;
use crate::events::ecg::pseudo_ecg_in;
use crate::events::recording::Maps;
use crate::layout::zsplit::SplitError;
use crate::multi::cpu::cpu_slabs_name;
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn, Solver, SolverError};
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;

/// One part: its fields and events as the single domain's
/// ([`HostTissue`]), and its weights.
struct Part<T> {
    fields: HostTissue<T>,
    weights: WeightRows<T>,
}

impl<T: Scalar> Part<T> {
    fn load(&mut self, slab: &Slab, state: &State<T>) {
        let (u, local) = slab.scatter(state);
        self.fields.load(u, local);
    }

    /// Applies the stimuli due at the current step to the part's stored
    /// cells (halos included), unless applied already.
    fn stimulate(&mut self, slab: &Slab, model: &ModelInfo) {
        self.fields.stimulate(slab.global, slab.index.as_ptr() as u64, model);
    }
}

/// G CPU sub-domains of a tissue that exchange halos of variable 0 after
/// every step.
pub struct TissueCpuMultiSolver<M: CellModel, T: Scalar> {
    split: TissueSplit,
    parts: Vec<Part<T>>,
    /// The halo copies after each step.
    runs: Vec<HaloRun>,
    step: StepCoeffs<T>,
    /// The coefficients of each part's stored cells.
    coeffs: Vec<CellCoeffs<M, T>>,
    /// The tissue's cells over the box, which the pseudo-ECG follows
    /// (made once: it is read at every sample).
    tissue_mask: Vec<u8>,
}

impl<M: CellModel, T: Scalar> TissueCpuMultiSolver<M, T> {
    /// `parts` parts of about equal numbers of tissue cells, their weights
    /// stored as a single domain's automatic choice stores them
    /// ([`WeightChoice::Auto`](super::WeightChoice::Auto)).
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
        let split = TissueSplit::new(op, parts, layout)?;
        Ok(Self::with_split(domain, op, split, initial)
            .expect("the automatic choice falls back to per-cell rows"))
    }

    /// The parts of `split` (a split of `op`'s tissue), their weights
    /// stored as the split says ([`TissueSplit::weights`]; refused:
    /// classes asked for with more than 65,536 distinct rows).
    ///
    /// # Panics
    /// As [`super::cpu::TissueCpuSolver::new`].
    pub fn with_split(
        domain: &Domain,
        op: &Arc<Operator>,
        split: TissueSplit,
        initial: &State<T>,
    ) -> Result<Self, TissueError> {
        check_inputs::<M, T>(domain, op, initial);
        let classes = split.classes::<T>(op)?;
        let parts = split
            .slabs
            .iter()
            .map(|slab| {
                let fields = HostTissue::new(slab.stored(), domain.dt_ms());
                let mut part = Part { fields, weights: slab.weight_rows(op, classes.as_ref()) };
                part.load(slab, initial);
                part
            })
            .collect();
        Ok(Self {
            runs: split.halo_runs(),
            coeffs: split.slabs.iter().map(|slab| slab.coeffs::<M, T>(domain)).collect(),
            tissue_mask: split.tissue_mask(),
            split,
            parts,
            // As the single domain: the weights are in 1/time.
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
        })
    }

    pub fn split(&self) -> &TissueSplit {
        &self.split
    }

    /// Refills every halo from the neighbour's boundary slice.
    pub fn exchange_halos(&mut self) {
        let mut u: Vec<&mut Vec<T>> = self.parts.iter_mut().map(|p| &mut p.fields.u).collect();
        exchange_on_host(&mut u, &self.runs);
    }

    /// Applies the stimuli due at the current step to every part, unless
    /// applied already.
    fn stimulate(&mut self) {
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
            part.stimulate(slab, M::INFO);
        }
    }

    /// One step of every part (after its stimuli), then the exchange.
    fn step_once(&mut self) {
        for ((slab, part), coeffs) in self.split.slabs.iter().zip(&mut self.parts).zip(&self.coeffs) {
            part.stimulate(slab, M::INFO);
            let (table, classes, rows) = part.weights.parts(slab.stride());
            let weights = table.as_ptr() as u64;
            let (class, offsets) =
                classes.map_or((0, 0), |by| (by.class.as_ptr() as u64, by.offsets.as_ptr() as u64));
            let lay = match &slab.neighbours {
                None => {
                    let (dims, mask) = (slab.local, slab.mask.as_ptr() as u64);
                    Lay::Dense(DenseTissue { dims, weights, mask, class, rows, offsets })
                }
                Some(table) => {
                    let (dims, cells, index) = (slab.global, slab.stepped.end, slab.index.as_ptr() as u64);
                    Lay::Compact(CompactFields { dims, cells, weights, index, class, rows }.over_host(table))
                }
            };
            let stepped = slab.stepped.start as usize..slab.stepped.end as usize;
            // SAFETY: U holds the stored cells; the weights (or the classes,
            // each below the table's rows, whose offsets are on a box of the
            // part's x and y sizes), the locals and the neighbour table the
            // stride's cells; every nonzero weight
            // of a stepped cell points at a stored cell (dense: inside the
            // part's box, whose halo slices hold the slices next to the
            // owned ones; compact: the table's entries).
            unsafe { part.fields.step::<M>(lay, &self.step, coeffs, stepped) };
        }
        self.exchange_halos();
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TissueCpuMultiSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Cpu(cpu_slabs_name(self.parts.len()))
    }

    fn method(&self) -> String {
        let classes = self.parts[0].weights.classes();
        let storage = storage_name(self.split.slabs[0].layout, classes, self.split.neighbour_form());
        format!("cpu-tissue-{storage} z-split {}", self.parts.len())
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        (0..steps).for_each(|_| self.step_once());
        Ok(())
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        self.stimulate();
        let parts: Vec<(&[T], &[T])> =
            self.parts.iter().map(|p| (&p.fields.u[..], &p.fields.local[..])).collect();
        Ok(self.split.gather(M::INFO, &parts))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        check_state::<M, T>(state, self.split.slabs[0].global);
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
            part.load(slab, state);
        }
        Ok(())
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
            let ranges = events.stimuli.stimuli.iter().map(|s| slab.stimulus_ranges(s)).collect();
            part.fields.set_events((events, start), slab.global, ranges, maps.map(|m| slab.scatter_maps(m)));
        }
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate();
        let parts: Option<Vec<Maps>> = self.parts.iter().map(|p| p.fields.events.maps.clone()).collect();
        Ok(parts.map(|p| self.split.gather_maps(&p)))
    }

    /// As the single-domain tissue solver's: the box with the cells
    /// outside the tissue at the model's rest.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate();
        let field = self.split.u_to_box(self.parts.iter().map(|p| &p.fields.u[..]), rest_u::<M, T>());
        Ok(pseudo_ecg_in(&field, self.split.slabs[0].global, Some(&self.tissue_mask), probes))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        Ok(self.parts.iter().any(|p| p.fields.any_nonfinite()))
    }
}

//! A tissue split along z over sub-domains: which cells each part stores,
//! steps and exchanges, and moving fields and maps between the parts and
//! the whole grid. The solvers that step the parts are [`super::split_cpu`]
//! (the reference, testable without a GPU) and [`super::split_gpu`].
//!
//! The slices are cut where each part's owned slices hold about the same
//! number of tissue cells ([`ZSplit::from_cell_counts`]): a heart in its
//! bounding box has few tissue cells in the end slices, and an equal split
//! of the slices would leave the end parts idle. Each part stores its owned
//! slices and one halo slice on each side (the 19-point stencil reaches one
//! slice up and down); its owned cells carry the weights of the whole
//! tissue's operator, so a part steps them with the very numbers the
//! single domain uses, and a halo holds the neighbour's boundary slice of
//! variable 0, copied after every step. There is no mirror rule: the
//! weights towards the outside of the box are 0 and those cells are never
//! read, so the halo slices beyond the ends of the grid stay empty.
//!
//! - dense with a mask: a part stores the box of its owned slices and the
//!   two halo slices (`nx` x `ny` x (owned + 2)), row-major, and steps the
//!   owned slices (the dense kernel's z-window);
//! - compact: a part stores the tissue cells of its owned slices first
//!   (ascending box index), then those of the halo slice below, then those
//!   of the halo slice above, with its own neighbour table into that list.
//!   The compact kernel steps cells `0..owned` (its `cells`, which is also
//!   the stride of the weights or their classes, the neighbour table and
//!   the locals: a halo cell has none of them), and reads the halo cells
//!   behind them through the table. The table is 16-bit offsets where
//!   every part's offsets fit (one form for all parts, so they all run one
//!   kernel; [`NeighbourTable::build_all`]), else u32 indices. An owned
//!   cell of the lowest owned slice reads its halo below about a part's
//!   worth of cells further on (the halos are stored after the owned
//!   cells), so a split keeps the offsets only where its parts are small.
//!
//! A part stores its weights as a single domain does for the same choice
//! ([`TissueSplit::weights`]): each stepped cell's own row at the stride,
//! or by class, the whole tissue's table of distinct rows with a class
//! per cell at the stride ([`Slab::weight_rows`]). Every part takes the
//! same table, its rows' dense neighbour offsets included (they depend on
//! the box's x and y sizes only, which a part's box shares), and the
//! choice is the whole tissue's ([`Classes::chosen`]), so that a split
//! reads per cell the bytes a single domain reads, and the same bits.
//!
//! In both layouts what a part sends (the tissue cells of its bottom or
//! top owned slice) and what its neighbour receives (the tissue cells of
//! that same slice, as its halo) are runs of stored cells of equal length
//! in the same order, so an exchange is one contiguous copy per halo.
//! Stimuli are applied to the halo cells too (after the exchange, before
//! the step; the same function of the same value gives the neighbour's
//! bits), through a table of each stored cell's index in the whole box.

use std::ops::Range;

use kernels_gpu::tissue::DIRECTIONS;
use kernels_gpu::{CellModel, GridDims};

use super::cut::{CutPart, MeshCut};
use super::error::TissueError;
use super::halo::HaloRun;
use super::layout::TissueLayout;
use super::neighbours::NeighbourForm;
use super::neighbours::{NeighbourChoice, NeighbourTable};
use super::rows::{Classes, WeightChoice, WeightRows};
use super::weights::{NOT_TISSUE, Operator};
use crate::cell_params::CellCoeffs;
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::events::stimulus::Stimulus;
use crate::layout::zsplit::{SplitError, ZSplit};
use crate::scalar::Scalar;
use crate::state::State;

/// What one part stores and does.
#[derive(Clone, Debug)]
pub struct Slab {
    pub layout: TissueLayout,
    /// The whole grid.
    pub global: GridDims,
    /// Dense: the part's box, owned slices between two halo slices; the
    /// buffers are laid out on it.
    pub local: GridDims,
    /// Global slices the part owns.
    pub owned: Range<u32>,
    /// Index in the whole box of every stored cell; [`NOT_TISSUE`] for the
    /// cells of a halo slice beyond the ends of the grid (dense).
    pub index: Vec<u32>,
    /// The stored cells the part steps: compact `0..owned tissue cells`,
    /// dense the cells of the owned slices.
    pub stepped: Range<u32>,
    /// Dense: 1 for a tissue cell, per stored cell (halo slices included,
    /// 0 beyond the grid). Compact: empty (every stored cell is tissue).
    pub mask: Vec<u8>,
    /// Compact: where the stored cell in direction k of owned cell c is,
    /// at `k * stride + c` (c itself where the weight is 0), in the form
    /// the split chose for all its parts. Dense: none.
    pub neighbours: Option<NeighbourTable>,
    /// The stored cells sent to the part below (0) and above (1): the
    /// tissue cells (dense: every cell) of the first and last owned slice.
    pub send: [Range<u32>; 2],
    /// The stored cells the halos receive from below (0) and above (1);
    /// empty at the ends of the grid.
    pub recv: [Range<u32>; 2],
    /// The owned tissue cells as a range of the operator's cell list.
    tissue: Range<usize>,
}

impl Slab {
    /// Part `i` of `split` over the tissue of `op`, in `layout` (compact:
    /// its neighbour table as u32 indices; [`TissueSplit`] chooses the form
    /// of all the parts' tables together).
    pub fn new(op: &Operator, split: &ZSplit, i: usize, layout: TissueLayout) -> Self {
        let global = op.dims;
        let slice = global.slice_cells();
        let owned = split.owned(i);
        // The operator's tissue cells in global slices `z0..z1`.
        let cells_in = |z0: u32, z1: u32| {
            let at = |z: u32| op.cells.partition_point(|&c| (c as usize) < z as usize * slice);
            at(z0)..at(z1)
        };
        let tissue = cells_in(owned.start, owned.end);
        let below =
            if owned.start > 0 { cells_in(owned.start - 1, owned.start) } else { tissue.start..tissue.start };
        let above =
            if owned.end < global.nz { cells_in(owned.end, owned.end + 1) } else { tissue.end..tissue.end };
        let local = GridDims::new(global.nx, global.ny, owned.len() as u32 + 2);
        let first_slice = cells_in(owned.start, owned.start + 1).len() as u32;
        let last_slice = cells_in(owned.end - 1, owned.end).len() as u32;
        match layout {
            TissueLayout::Compact => {
                let k = tissue.len() as u32;
                let (hb, ha) = (below.len() as u32, above.len() as u32);
                let index: Vec<u32> = [&tissue, &below, &above]
                    .into_iter()
                    .flat_map(|r| op.cells[r.clone()].iter().copied())
                    .collect();
                // The stored position of a tissue cell of the operator.
                let stored_of = |g: usize| -> u32 {
                    if tissue.contains(&g) {
                        (g - tissue.start) as u32
                    } else if below.contains(&g) {
                        k + (g - below.start) as u32
                    } else {
                        assert!(above.contains(&g), "the 19-point stencil reaches one slice up and down");
                        k + hb + (g - above.start) as u32
                    }
                };
                let n = op.tissue_cells();
                let mut neighbours = vec![0u32; DIRECTIONS * k as usize];
                for d in 0..DIRECTIONS {
                    for c in 0..k as usize {
                        neighbours[d * k as usize + c] =
                            stored_of(op.neighbours[d * n + tissue.start + c] as usize);
                    }
                }
                Self {
                    layout,
                    global,
                    local,
                    owned,
                    index,
                    stepped: 0..k,
                    mask: Vec::new(),
                    neighbours: Some(NeighbourTable::Indices32(neighbours)),
                    send: [0..first_slice, k - last_slice..k],
                    recv: [k..k + hb, k + hb..k + hb + ha],
                    tissue,
                }
            }
            TissueLayout::Dense => {
                let s = slice as u32;
                let n = owned.len() as u32;
                let base = (owned.start as i64 - 1) * slice as i64;
                let global_mask = |g: i64| -> u8 {
                    let inside = (0..global.cells() as i64).contains(&g);
                    u8::from(inside && op.cells.binary_search(&(g as u32)).is_ok())
                };
                let index: Vec<u32> = (0..local.cells() as i64)
                    .map(|c| {
                        let g = base + c;
                        if (0..global.cells() as i64).contains(&g) { g as u32 } else { NOT_TISSUE }
                    })
                    .collect();
                let mask = (0..local.cells() as i64).map(|c| global_mask(base + c)).collect();
                Self {
                    layout,
                    global,
                    local,
                    owned: owned.clone(),
                    index,
                    stepped: s..(n + 1) * s,
                    mask,
                    neighbours: None,
                    send: [s..2 * s, n * s..(n + 1) * s],
                    recv: [
                        if owned.start > 0 { 0..s } else { 0..0 },
                        if owned.end < global.nz { (n + 1) * s..(n + 2) * s } else { 0..0 },
                    ],
                    tissue,
                }
            }
        }
    }

    /// Number of stored cells (the length of U).
    pub fn stored(&self) -> usize {
        self.index.len()
    }

    /// The box index of stored cell `c`; `None` for a cell of a halo
    /// slice beyond the ends of the grid.
    pub fn box_index(&self, c: usize) -> Option<usize> {
        let i = self.index[c];
        (i != NOT_TISSUE).then_some(i as usize)
    }

    /// The stride of the weights, the neighbour table and the locals:
    /// compact the owned tissue cells, dense the stored cells.
    pub fn stride(&self) -> usize {
        match self.layout {
            TissueLayout::Compact => self.stepped.len(),
            TissueLayout::Dense => self.stored(),
        }
    }

    /// Tissue cells the part owns.
    pub fn tissue_cells(&self) -> usize {
        self.tissue.len()
    }

    /// Whether stored cell `c` is a tissue cell.
    fn is_tissue(&self, c: usize) -> bool {
        match self.layout {
            TissueLayout::Compact => true,
            TissueLayout::Dense => self.mask[c] != 0,
        }
    }

    /// The stored tissue cells the part owns (whose values are its own).
    pub fn owned_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (self.stepped.start as usize..self.stepped.end as usize).filter(|&c| self.is_tissue(c))
    }

    /// The weights of the stored layout in precision `T`: the operator's
    /// weights of the owned cells, rounded once as the single domain's.
    pub fn weights<T: Scalar>(&self, op: &Operator) -> Vec<T> {
        let n = op.tissue_cells();
        let stride = self.stride();
        let mut out = vec![T::ZERO; DIRECTIONS * stride];
        // Local slice 1 is global slice `owned.start`.
        let slice = self.global.slice_cells();
        let base = self.owned.start as usize * slice;
        for (j, g) in self.tissue.clone().enumerate() {
            let c = match self.layout {
                TissueLayout::Compact => j,
                TissueLayout::Dense => op.cells[g] as usize + slice - base,
            };
            for k in 0..DIRECTIONS {
                out[k * stride + c] = T::from_f64(op.weights[k * n + g]);
            }
        }
        out
    }

    /// The class of every cell the part steps, from the class of every
    /// tissue cell of the operator (`tissue`, as [`Classes::tissue`]), at
    /// the stride as [`Slab::weights`] stores rows: 0 for the cells the
    /// part does not step (outside the tissue, a dense part's halo slices),
    /// whose row is never read; a compact part's halo cells have none, as
    /// they have no row and no locals.
    pub fn classes(&self, op: &Operator, tissue: &[u16]) -> Vec<u16> {
        match self.layout {
            TissueLayout::Compact => tissue[self.tissue.clone()].to_vec(),
            TissueLayout::Dense => {
                let slice = self.global.slice_cells();
                let base = self.owned.start as usize * slice;
                let mut class = vec![0u16; self.stride()];
                for g in self.tissue.clone() {
                    class[op.cells[g] as usize + slice - base] = tissue[g];
                }
                class
            }
        }
    }

    /// The weights of the part as its solver stores them: each stepped
    /// cell's own row ([`Slab::weights`]) where `classes` is `None`, else
    /// the whole tissue's table of rows (the same for every part, with its
    /// neighbour offsets: a part's box has the whole box's x and y sizes)
    /// and the class of every stepped cell ([`Slab::classes`]). Either way
    /// a cell reads the bits the single domain's cell reads.
    pub fn weight_rows<T: Scalar>(&self, op: &Operator, classes: Option<&Classes<T>>) -> WeightRows<T> {
        match classes {
            None => WeightRows::PerCell { weights: self.weights(op) },
            Some(c) => WeightRows::Classes {
                table: c.table.clone(),
                rows: c.rows,
                class: self.classes(op, &c.tissue),
                offsets: c.offsets.clone(),
            },
        }
    }

    /// The stored cells a stimulus may touch (those of the slices of its
    /// bounding box), as runs of stored cells.
    pub fn stimulus_ranges(&self, s: &Stimulus) -> Vec<Range<u32>> {
        let whole = kernels_gpu::events::SlicePlacement::whole(self.global.nz);
        let Some((origin, extent)) = s.local_box(self.global, self.global, whole) else { return Vec::new() };
        let hit = origin.nz..origin.nz + extent.nz;
        let slice = self.global.slice_cells();
        let mut ranges: Vec<Range<u32>> = Vec::new();
        let mut push = |r: Range<u32>| {
            if r.is_empty() {
                return;
            }
            match ranges.last_mut() {
                Some(last) if last.end == r.start => last.end = r.end,
                _ => ranges.push(r),
            }
        };
        match self.layout {
            TissueLayout::Dense => {
                let first = (0..self.local.nz).find(|&l| self.slice_in(l, &hit));
                let last = (0..self.local.nz).rev().find(|&l| self.slice_in(l, &hit));
                if let (Some(first), Some(last)) = (first, last) {
                    push(first * slice as u32..(last + 1) * slice as u32);
                }
            }
            TissueLayout::Compact => {
                let k = self.stepped.end as usize;
                let owned = &self.index[..k];
                let (z0, z1) = (hit.start.max(self.owned.start), hit.end.min(self.owned.end));
                if z0 < z1 {
                    let at = |z: u32| owned.partition_point(|&i| (i as usize) < z as usize * slice) as u32;
                    push(at(z0)..at(z1));
                }
                if self.owned.start > 0 && hit.contains(&(self.owned.start - 1)) {
                    push(self.recv[0].clone());
                }
                if hit.contains(&self.owned.end) {
                    push(self.recv[1].clone());
                }
            }
        }
        ranges
    }

    /// Whether local slice `l` (dense) is a slice of the grid in `hit`.
    fn slice_in(&self, l: u32, hit: &Range<u32>) -> bool {
        let g = self.owned.start as i64 - 1 + l as i64;
        g >= 0 && g < self.global.nz as i64 && hit.contains(&(g as u32))
    }
}

impl CutPart for Slab {
    /// The model's coefficients of the part's stored cells (each its own
    /// parameter set where they vary).
    fn coeffs<M: CellModel, T: Scalar>(&self, domain: &Domain) -> CellCoeffs<M, T> {
        CellCoeffs::new(domain, self.stored(), |c| self.box_index(c))
    }

    /// The stored values of variable 0 and the locals from a state of the
    /// whole grid: `u` for every stored cell, the locals variable after
    /// variable at the stride; cells outside the tissue at the model's rest
    /// (never read by a step, but finite for the NaN check).
    fn scatter<T: Scalar>(&self, state: &State<T>) -> (Vec<T>, Vec<T>) {
        let model = state.model();
        let rest = |k: usize| T::from_f64(model.variables[k].rest);
        let value = |k: usize, c: usize| {
            let i = self.index[c];
            if i != NOT_TISSUE && self.is_tissue(c) { state.slice(k)[i as usize] } else { rest(k) }
        };
        let u = (0..self.stored()).map(|c| value(0, c)).collect();
        let stride = self.stride();
        let local = (1..state.len())
            .flat_map(|k| (0..stride).map(move |c| (k, c)))
            .map(|(k, c)| value(k, c))
            .collect();
        (u, local)
    }

    /// Writes the part's owned tissue cells into the whole grid's variables.
    fn gather_into<T: Scalar>(&self, vars: &mut [Vec<T>], u: &[T], local: &[T]) {
        let stride = self.stride();
        for c in self.owned_cells() {
            let i = self.index[c] as usize;
            vars[0][i] = u[c];
            for (k, var) in vars.iter_mut().enumerate().skip(1) {
                var[i] = local[(k - 1) * stride + c];
            }
        }
    }

    /// The part's maps (over its stored cells) from the whole grid's.
    fn scatter_maps(&self, maps: &Maps) -> Maps {
        // A halo cell beyond the grid is NOT_TISSUE (u32::MAX): never activated.
        maps.of_cells(&self.index)
    }

    /// Writes the part's owned tissue cells' maps into the whole grid's.
    fn gather_maps_into(&self, out: &mut Maps, part: &Maps) {
        out.set_cells_from(part, self.owned_cells().map(|c| (c, self.index[c] as usize)));
    }
}

/// A tissue split over parts: the split, each part's slab, and how the
/// parts store their weights.
#[derive(Clone, Debug)]
pub struct TissueSplit {
    pub split: ZSplit,
    pub slabs: Vec<Slab>,
    /// How the parts store their weights (per cell or by class), decided
    /// in the run's precision by the solver that builds them
    /// ([`Classes::chosen`]), as a single domain's solver decides for the
    /// same choice.
    pub weights: WeightChoice,
}

impl TissueSplit {
    /// `parts` parts of about equal numbers of tissue cells (refused,
    /// naming the fix, where the tissue spans fewer slices than parts).
    pub fn new(op: &Operator, parts: usize, layout: TissueLayout) -> Result<Self, SplitError> {
        let slice = op.dims.slice_cells();
        let mut counts = vec![0u64; op.dims.nz as usize];
        for &c in &op.cells {
            counts[c as usize / slice] += 1;
        }
        let split = ZSplit::from_cell_counts(&counts, parts)?;
        Ok(Self::with_split(op, split, layout))
    }

    /// The slabs of a given split (tests place the cuts by hand), their
    /// neighbour tables 16-bit where every part's fit.
    pub fn with_split(op: &Operator, split: ZSplit, layout: TissueLayout) -> Self {
        Self::with_neighbours(op, split, layout, NeighbourChoice::Auto)
    }

    /// As [`TissueSplit::with_split`], the compact parts' neighbour tables
    /// in the form `choice` asks for (one form for all parts).
    pub fn with_neighbours(
        op: &Operator,
        split: ZSplit,
        layout: TissueLayout,
        choice: NeighbourChoice,
    ) -> Self {
        assert_eq!(split.nz(), op.dims.nz, "the split covers the grid");
        let mut slabs: Vec<Slab> = (0..split.parts()).map(|i| Slab::new(op, &split, i, layout)).collect();
        if layout == TissueLayout::Compact {
            let indices = slabs
                .iter_mut()
                .map(|slab| match slab.neighbours.take() {
                    Some(NeighbourTable::Indices32(t)) => (t, slab.stride()),
                    _ => unreachable!("a compact slab is built with u32 indices"),
                })
                .collect();
            for (slab, table) in slabs.iter_mut().zip(NeighbourTable::build_all(indices, choice)) {
                slab.neighbours = Some(table);
            }
        }
        Self { split, slabs, weights: WeightChoice::Auto }
    }

    /// The split with its parts' weights stored as `choice` asks (the
    /// parts are built with [`WeightChoice::Auto`]).
    pub fn with_weights(self, choice: WeightChoice) -> Self {
        Self { weights: choice, ..self }
    }

    /// The classes the parts' weights are stored by in precision `T` (the
    /// whole tissue's, [`Classes::chosen`]), `None` for per-cell rows.
    pub fn classes<T: Scalar>(&self, op: &Operator) -> Result<Option<Classes<T>>, TissueError> {
        Classes::chosen(op, self.slabs[0].layout, self.weights)
    }

    /// The form of the parts' neighbour tables (none for the dense layout).
    pub fn neighbour_form(&self) -> Option<NeighbourForm> {
        self.slabs[0].neighbours.as_ref().map(NeighbourTable::form)
    }

    pub fn parts(&self) -> usize {
        self.slabs.len()
    }

    /// Where part `i`'s halos come from: for below (0) and above (1), the
    /// source part and the stored cells it sends, if there is a neighbour.
    pub fn halo_source(&self, i: usize, side: usize) -> Option<(usize, Range<u32>)> {
        let j = if side == 0 { i.checked_sub(1)? } else { Some(i + 1).filter(|&j| j < self.parts())? };
        let send = self.slabs[j].send[1 - side].clone();
        debug_assert_eq!(send.len(), self.slabs[i].recv[side].len(), "halo and boundary slice match");
        Some((j, send))
    }

    /// 1 for every tissue cell of the box (the cells the parts own), 0
    /// elsewhere: the mask the pseudo-ECG follows.
    pub fn tissue_mask(&self) -> Vec<u8> {
        let mut mask = vec![0u8; self.slabs[0].global.cells()];
        for slab in &self.slabs {
            for c in slab.owned_cells() {
                mask[slab.index[c] as usize] = 1;
            }
        }
        mask
    }

    /// Variable 0 over the whole box from every part's stored U, `outside`
    /// outside the tissue (never read by the pseudo-ECG, which follows the
    /// tissue's boundary).
    pub fn u_to_box<'a, T: Scalar>(&self, parts: impl IntoIterator<Item = &'a [T]>, outside: T) -> Vec<T> {
        let global = self.slabs[0].global;
        let mut field = vec![outside; global.cells()];
        for (slab, u) in self.slabs.iter().zip(parts) {
            for c in slab.owned_cells() {
                field[slab.index[c] as usize] = u[c];
            }
        }
        field
    }
}

impl MeshCut for TissueSplit {
    type Part = Slab;

    fn cut_parts(&self) -> &[Slab] {
        &self.slabs
    }

    fn whole(&self) -> GridDims {
        self.slabs[0].global
    }

    /// The copies that refill every halo after a step: each part's halo
    /// slices from its neighbours' boundary slices.
    fn halo_runs(&self) -> Vec<HaloRun> {
        let mut runs = Vec::new();
        for dst in 0..self.parts() {
            for side in 0..2 {
                let Some((src, from)) = self.halo_source(dst, side) else { continue };
                if !from.is_empty() {
                    runs.push(HaloRun { src, from, dst, to: self.slabs[dst].recv[side].start });
                }
            }
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tissue::{Conductivity, Fibres, Tissue};

    /// An irregular tissue: cells removed in a pattern that differs from
    /// slice to slice, one slice without tissue.
    fn op(dims: GridDims) -> Operator {
        let mask: Vec<bool> =
            (0..dims.cells()).map(|i| (i * 7919 + 13) % 11 > 3 && i / dims.slice_cells() != 4).collect();
        let t = Tissue::from_mask(
            dims,
            0.6,
            &mask,
            Fibres::Constant { fibre: [1.0, 0.4, -0.3], sheet: None },
            Conductivity { fibre: 1.0, cross: 0.2, sheet: None },
        );
        Operator::build(&t).unwrap()
    }

    /// ImplicitGlobalGrid's halo test: every stored cell holds its global
    /// box index; a halo must receive exactly the box indices of the
    /// neighbour's boundary cells it stands for, in the same order.
    #[test]
    fn halos_receive_exactly_the_cells_they_stand_for() {
        let dims = GridDims::new(7, 6, 11);
        let op = op(dims);
        for layout in [TissueLayout::Dense, TissueLayout::Compact] {
            for parts in [2, 3, 5] {
                let s = TissueSplit::new(&op, parts, layout).unwrap();
                let owned: usize = s.slabs.iter().map(|b| b.owned_cells().count()).sum();
                assert_eq!(owned, op.tissue_cells(), "{layout:?} {parts}: every tissue cell owned once");
                for i in 0..parts {
                    let slab = &s.slabs[i];
                    for side in 0..2 {
                        let recv = &slab.recv[side];
                        match s.halo_source(i, side) {
                            None => assert!(recv.is_empty(), "no halo beyond the grid"),
                            Some((j, send)) => {
                                let got = &slab.index[recv.start as usize..recv.end as usize];
                                let sent = &s.slabs[j].index[send.start as usize..send.end as usize];
                                assert_eq!(got, sent, "{layout:?} {parts}: part {i} side {side}");
                                let z = if side == 0 { slab.owned.start - 1 } else { slab.owned.end };
                                assert!(got.iter().all(|&g| g as usize / dims.slice_cells() == z as usize));
                            }
                        }
                    }
                    // Every neighbour a stepped cell reads is stored, and it is
                    // the cell the whole operator reads.
                    if let Some(table) = &slab.neighbours {
                        let k = slab.stride();
                        let n = op.tissue_cells();
                        for c in 0..k {
                            let g = op.cells.binary_search(&slab.index[c]).unwrap();
                            for d in 0..DIRECTIONS {
                                let want = op.cells[op.neighbours[d * n + g] as usize];
                                assert_eq!(slab.index[table.neighbour(k, d, c) as usize], want);
                            }
                        }
                    }
                }
            }
        }
    }

    /// One form for every part: 16-bit offsets where all parts' fit (the
    /// same neighbours as the u32 indices), u32 where one part's do not.
    #[test]
    fn the_parts_share_16_bit_offsets_where_every_part_fits() {
        let op = op(GridDims::new(7, 6, 11));
        let split = TissueSplit::new(&op, 3, TissueLayout::Compact).unwrap();
        assert_eq!(split.neighbour_form(), Some(NeighbourForm::Offsets16));
        let wide = TissueSplit::with_neighbours(
            &op,
            split.split.clone(),
            TissueLayout::Compact,
            NeighbourChoice::Indices32,
        );
        assert_eq!(wide.neighbour_form(), Some(NeighbourForm::Indices32));
        for (a, b) in split.slabs.iter().zip(&wide.slabs) {
            let (a, b, k) = (a.neighbours.as_ref().unwrap(), b.neighbours.as_ref().unwrap(), a.stride());
            for d in 0..DIRECTIONS {
                for c in 0..k {
                    assert_eq!(a.neighbour(k, d, c), b.neighbour(k, d, c));
                }
            }
        }
        assert_eq!(TissueSplit::new(&op, 3, TissueLayout::Dense).unwrap().neighbour_form(), None);
        // Two parts of 40,960 cells: the upper part stores its halo below
        // after its owned cells, so its lowest slice reads 40,960 cells
        // ahead, beyond i16 (a single domain's neighbours, one plane of
        // 4,096 cells away, would fit).
        let dims = GridDims::new(64, 64, 20);
        let iso = Tissue::box_of(dims, 0.5, Fibres::ALONG_X, Conductivity::isotropic(1.0));
        let big = Operator::build(&iso).unwrap();
        let split = TissueSplit::new(&big, 2, TissueLayout::Compact).unwrap();
        assert_eq!(split.neighbour_form(), Some(NeighbourForm::Indices32));
    }

    #[test]
    fn weights_of_a_slab_are_the_operators_rounded_once() {
        let dims = GridDims::new(5, 4, 9);
        let op = op(dims);
        let n = op.tissue_cells();
        let dense = op.dense_weights::<f32>();
        for layout in [TissueLayout::Dense, TissueLayout::Compact] {
            let s = TissueSplit::new(&op, 3, layout).unwrap();
            for slab in &s.slabs {
                let w = slab.weights::<f32>(&op);
                let stride = slab.stride();
                for c in 0..slab.stored() {
                    let i = slab.index[c];
                    let stepped = slab.stepped.contains(&(c as u32));
                    for k in 0..DIRECTIONS {
                        let got = if c < stride { w[k * stride + c] } else { 0.0 };
                        let want = if stepped && i != NOT_TISSUE {
                            dense[k * dims.cells() + i as usize]
                        } else {
                            0.0
                        };
                        assert_eq!(got.to_bits(), want.to_bits(), "{layout:?} cell {c} direction {k}");
                    }
                }
            }
        }
        assert!(n > 0);
    }

    /// By class, every cell a part steps finds through its class the row
    /// it reads per cell, bit for bit, and a dense part's offsets name its
    /// neighbours on the part's box; every part takes the whole tissue's
    /// table, chosen as a single domain chooses.
    #[test]
    fn a_slabs_classes_name_its_own_rows_in_the_whole_tissues_table() {
        use kernels_gpu::tissue::{CLASS_ROW, DenseTissue};
        let dims = GridDims::new(5, 4, 9);
        let op = op(dims);
        let whole =
            Classes::<f32>::chosen(&op, TissueLayout::Compact, WeightChoice::Classes).unwrap().unwrap();
        for layout in [TissueLayout::Dense, TissueLayout::Compact] {
            for choice in [WeightChoice::Auto, WeightChoice::PerCell, WeightChoice::Classes] {
                let s = TissueSplit::new(&op, 3, layout).unwrap().with_weights(choice);
                let single = WeightRows::<f32>::build(&op, layout, choice).unwrap();
                let classes = s.classes::<f32>(&op).unwrap();
                assert_eq!(classes.as_ref().map(|c| c.rows), single.classes(), "{layout:?} {choice:?}");
            }
            let s = TissueSplit::new(&op, 3, layout).unwrap().with_weights(WeightChoice::Classes);
            assert_eq!(s.classes::<f32>(&op).unwrap().as_ref(), Some(&whole));
            for slab in &s.slabs {
                let (own, stride) = (slab.weights::<f32>(&op), slab.stride());
                let WeightRows::Classes { table, rows, class, offsets } = slab.weight_rows(&op, Some(&whole))
                else {
                    panic!("classes asked for")
                };
                assert_eq!((&table, rows, &offsets), (&whole.table, whole.rows, &whole.offsets));
                assert_eq!(class.len(), stride, "{layout:?}: a class per cell with a row");
                let lay =
                    DenseTissue { dims: slab.local, weights: 0, mask: 0, class: 0, rows: 0, offsets: 0 };
                for c in slab.owned_cells() {
                    let row = class[c] as usize * CLASS_ROW;
                    for k in 0..DIRECTIONS {
                        let w = own[k * stride + c];
                        assert_eq!(
                            table[row + k].to_bits(),
                            w.to_bits(),
                            "{layout:?} cell {c} direction {k}"
                        );
                        let offset = if w == 0.0 { 0 } else { lay.offset(k) as i32 };
                        assert_eq!(offsets[row + k], offset, "{layout:?} cell {c} direction {k}");
                    }
                }
            }
        }
    }
}

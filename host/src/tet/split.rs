//! A tetrahedral mesh split over sub-domains (GPUs): which nodes each part
//! steps, which it reads from the others, and moving fields and maps
//! between the parts and the whole mesh.
//!
//! The partition is the mesh's own locality order cut into runs of equal
//! node counts: after breadth-first or reverse Cuthill-McKee renumbering
//! (Vasconcellos et al. 2024, Algorithm 2) a node's neighbours lie within
//! the order's bandwidth of it, so a run of the order is a slab of the
//! mesh one level structure thick and its halo is the few levels on either
//! side: the z-split of the box ([`crate::layout::zsplit`]) carried to a
//! mesh, with the level sets of the order as its slices. Part i steps the
//! nodes `owned` (in the solvers' order) and stores the nodes its rows
//! read from beyond them: every node from the lowest neighbour index of
//! its rows up to its first owned node (`below`), and from its last owned
//! node up to the highest neighbour index (`above`). These are runs of the
//! order, so each halo run is filled by one contiguous copy from each part
//! that owns some of it, like the box's halo slices; a mesh in its file's
//! order (no renumbering) can have a bandwidth of the whole mesh, and the
//! parts then store most of it (said by [`TetSplit::halo_nodes`]).
//!
//! A part stores its owned nodes first, then `below`, then `above`, with
//! its rows of the whole operator's table, neighbours renumbered into that
//! list and weights untouched: each owned node sums the very terms in the
//! very order of the single domain, so a split run equals the single
//! domain bit for bit. Stimuli act on the halos too (the same function of
//! the same value gives the owner's bits), through a table of each stored
//! node's number in the whole mesh.

use std::ops::Range;

use kernels_gpu::{CellModel, GridDims};
use thiserror::Error;

use super::problem::TetProblem;
use crate::cell_params::CellCoeffs;
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::scalar::Scalar;
use crate::state::State;
use crate::tissue::cut::{CutPart, MeshCut};
use crate::tissue::halo::HaloRun;

/// Why a mesh cannot be split.
#[derive(Debug, Error, PartialEq)]
pub enum MeshSplitError {
    #[error("a split needs at least one sub-domain")]
    NoParts,
    #[error("cannot split a mesh of {nodes} nodes over {parts} sub-domains; use at most {nodes} GPUs")]
    TooFewNodes { nodes: usize, parts: usize },
}

/// What one part stores and steps.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPart {
    /// The nodes it steps, in the solvers' order; stored at `0..owned.len()`.
    pub owned: Range<u32>,
    /// The halo run before the owned nodes, stored after them.
    pub below: Range<u32>,
    /// The halo run after the owned nodes, stored after `below`.
    pub above: Range<u32>,
    /// Entry k of owned node r at `k * owned.len() + r`: the stored node
    /// of the whole table's entry.
    pub neighbours: Vec<u32>,
}

impl MeshPart {
    fn new(problem: &TetProblem, owned: Range<u32>) -> Self {
        let op = &problem.op;
        let (n, width, rows) = (op.nodes, op.width, owned.len());
        let first = owned.start as usize;
        let entry = |k: usize, r: usize| op.neighbours[k * n + first + r];
        let all = (0..width).flat_map(|k| (0..rows).map(move |r| (k, r)));
        let lo = all.clone().map(|(k, r)| entry(k, r)).min().unwrap_or(owned.start).min(owned.start);
        let hi = all.map(|(k, r)| entry(k, r) + 1).max().unwrap_or(owned.end).max(owned.end);
        let (below, above) = (lo..owned.start, owned.end..hi);
        let mut part = Self { owned, below, above, neighbours: Vec::with_capacity(width * rows) };
        for k in 0..width {
            for r in 0..rows {
                let stored =
                    part.stored_of(entry(k, r)).expect("a row's neighbour lies in the part's window");
                part.neighbours.push(stored);
            }
        }
        part
    }

    /// Nodes stored: owned, then the halos.
    pub fn stored(&self) -> usize {
        self.owned.len() + self.below.len() + self.above.len()
    }

    /// Where node `g` (solvers' order) is stored, if it is.
    pub fn stored_of(&self, g: u32) -> Option<u32> {
        let own = self.owned.len() as u32;
        if self.owned.contains(&g) {
            Some(g - self.owned.start)
        } else if self.below.contains(&g) {
            Some(own + g - self.below.start)
        } else if self.above.contains(&g) {
            Some(own + self.below.len() as u32 + g - self.above.start)
        } else {
            None
        }
    }

    /// The node (solvers' order) of every stored node: the stimulus
    /// kernel's index table.
    pub fn index(&self) -> Vec<u32> {
        self.owned.clone().chain(self.below.clone()).chain(self.above.clone()).collect()
    }

    /// The part's rows of the whole table's weights, `width` per owned node.
    pub fn weights<T: Scalar>(&self, problem: &TetProblem) -> Vec<T> {
        let (n, rows) = (problem.op.nodes, self.owned.len());
        (0..problem.op.width)
            .flat_map(|k| (0..rows).map(move |r| k * n + self.owned.start as usize + r))
            .map(|j| T::from_f64(problem.op.weights[j]))
            .collect()
    }
}

impl CutPart for MeshPart {
    /// The model's coefficients of the part's stored nodes (each its own
    /// parameter set where they vary).
    fn coeffs<M: CellModel, T: Scalar>(&self, domain: &Domain) -> CellCoeffs<M, T> {
        let index = self.index();
        CellCoeffs::new(domain, index.len(), |c| Some(index[c] as usize))
    }

    /// Variable 0 of every stored node and the locals of the owned ones
    /// (variable after variable at the stride `owned.len()`), from a state
    /// of the whole mesh.
    fn scatter<T: Scalar>(&self, state: &State<T>) -> (Vec<T>, Vec<T>) {
        let u0 = state.slice(0);
        let u = self.index().iter().map(|&g| u0[g as usize]).collect();
        let own = self.owned.start as usize..self.owned.end as usize;
        let local = (1..state.len()).flat_map(|k| state.slice(k)[own.clone()].iter().copied()).collect();
        (u, local)
    }

    /// Writes the owned nodes' variables into the whole mesh's.
    fn gather_into<T: Scalar>(&self, vars: &mut [Vec<T>], u: &[T], local: &[T]) {
        let (own, rows) = (self.owned.start as usize..self.owned.end as usize, self.owned.len());
        vars[0][own.clone()].copy_from_slice(&u[..rows]);
        for (k, var) in vars.iter_mut().enumerate().skip(1) {
            var[own.clone()].copy_from_slice(&local[(k - 1) * rows..k * rows]);
        }
    }

    /// The part's maps (over its stored nodes) from the whole mesh's.
    fn scatter_maps(&self, maps: &Maps) -> Maps {
        maps.of_cells(&self.index())
    }

    fn gather_maps_into(&self, out: &mut Maps, part: &Maps) {
        let owned = (0..self.owned.len()).map(|r| (r, self.owned.start as usize + r));
        out.set_cells_from(part, owned);
    }
}

/// A mesh split into runs of its node order, one part each.
#[derive(Clone, Debug, PartialEq)]
pub struct TetSplit {
    pub parts: Vec<MeshPart>,
    /// The whole mesh's node line.
    pub line: GridDims,
}

impl TetSplit {
    /// `parts` runs of about equal node counts.
    pub fn new(problem: &TetProblem, parts: usize) -> Result<Self, MeshSplitError> {
        let nodes = problem.nodes();
        if parts == 0 {
            return Err(MeshSplitError::NoParts);
        }
        if parts > nodes {
            return Err(MeshSplitError::TooFewNodes { nodes, parts });
        }
        let cut = |p: usize| (p * nodes / parts) as u32;
        let parts = (0..parts).map(|p| MeshPart::new(problem, cut(p)..cut(p + 1))).collect();
        Ok(Self { parts, line: problem.line() })
    }

    /// Halo nodes stored over all parts (each part's `below` and `above`).
    pub fn halo_nodes(&self) -> usize {
        self.parts.iter().map(|p| p.below.len() + p.above.len()).sum()
    }

    /// Variable 0 of the whole mesh from each part's U.
    pub fn gather_u<T: Scalar>(&self, parts: &[Vec<T>]) -> Vec<T> {
        let mut u = vec![T::ZERO; self.line.cells()];
        for (part, values) in self.parts.iter().zip(parts) {
            u[part.owned.start as usize..part.owned.end as usize]
                .copy_from_slice(&values[..part.owned.len()]);
        }
        u
    }
}

impl MeshCut for TetSplit {
    type Part = MeshPart;

    fn cut_parts(&self) -> &[MeshPart] {
        &self.parts
    }

    fn whole(&self) -> GridDims {
        self.line
    }

    /// The copies that refill every halo after a step: each halo run cut
    /// at the owners' boundaries.
    fn halo_runs(&self) -> Vec<HaloRun> {
        let mut runs = Vec::new();
        for (dst, part) in self.parts.iter().enumerate() {
            for halo in [&part.below, &part.above] {
                for (src, owner) in self.parts.iter().enumerate() {
                    let (a, b) = (halo.start.max(owner.owned.start), halo.end.min(owner.owned.end));
                    if a < b {
                        let to = part.stored_of(a).expect("a halo node is stored");
                        let from = a - owner.owned.start..b - owner.owned.start;
                        runs.push(HaloRun { src, from, dst, to });
                    }
                }
            }
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tet::{Diffusivity, NodeOrder, TetMesh};

    fn problem(order: NodeOrder) -> TetProblem {
        let mesh = TetMesh::kuhn_box([9, 7, 5], 0.5);
        TetProblem::new(&mesh, order, &|_| Some(Diffusivity::transverse(1.0, 0.25))).unwrap()
    }

    #[test]
    fn every_row_reads_what_the_whole_table_reads() {
        let p = problem(NodeOrder::ReverseCuthillMcKee);
        let (n, width) = (p.op.nodes, p.op.width);
        for parts in [1, 2, 3, 5] {
            let split = TetSplit::new(&p, parts).unwrap();
            assert_eq!(split.parts.iter().map(|q| q.owned.len()).sum::<usize>(), n);
            for part in &split.parts {
                let index = part.index();
                let rows = part.owned.len();
                for k in 0..width {
                    for r in 0..rows {
                        let want = p.op.neighbours[k * n + part.owned.start as usize + r];
                        assert_eq!(index[part.neighbours[k * rows + r] as usize], want);
                    }
                }
            }
        }
    }

    #[test]
    fn halo_runs_fill_every_halo_node_once_from_its_owner() {
        let p = problem(NodeOrder::BreadthFirst);
        let split = TetSplit::new(&p, 4).unwrap();
        for (dst, part) in split.parts.iter().enumerate() {
            let index = part.index();
            let mut filled = vec![0; part.stored()];
            for run in split.halo_runs().iter().filter(|r| r.dst == dst) {
                let owner = &split.parts[run.src];
                for (i, s) in run.from.clone().enumerate() {
                    let at = run.to as usize + i;
                    filled[at] += 1;
                    assert_eq!(index[at], owner.owned.start + s, "the owner's node lands where it is stored");
                }
            }
            let own = part.owned.len();
            assert!(filled[..own].iter().all(|&f| f == 0), "owned nodes are not overwritten");
            assert!(filled[own..].iter().all(|&f| f == 1), "every halo node is filled once");
        }
    }

    #[test]
    fn a_locality_order_keeps_halos_thin() {
        // The 315-node box in two: breadth-first halos are a level or two;
        // the file order of a Kuhn box is x-fastest, so a level there is
        // an x-y layer (63 nodes) too.
        let split = TetSplit::new(&problem(NodeOrder::BreadthFirst), 2).unwrap();
        assert!(split.halo_nodes() < 315 / 3, "{} halo nodes", split.halo_nodes());
    }

    #[test]
    fn parts_are_refused_beyond_the_nodes() {
        let p = problem(NodeOrder::File);
        assert_eq!(TetSplit::new(&p, 0), Err(MeshSplitError::NoParts));
        assert_eq!(TetSplit::new(&p, 316), Err(MeshSplitError::TooFewNodes { nodes: 315, parts: 316 }));
    }

    /// The parts stepped on the CPU as the GPUs step them (each its rows,
    /// stimuli on its halos through the index table, the halo runs copied
    /// after every step) equal the whole mesh's solver bit for bit, maps
    /// included: the split's tables are right before any GPU runs them.
    #[test]
    fn split_parts_step_as_the_whole_mesh_bit_for_bit() {
        use crate::events::recording::{Maps, Recording};
        use crate::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
        use crate::events::{EventStart, Events};
        use crate::solver::Solver;
        use crate::tet::TetCpuSolver;
        use crate::tet::regions::{NodeSelection, stimulus_on};
        use crate::tissue::halo::exchange_on_host;
        use crate::tissue::host_fields::{HostTissue, Lay};
        use crate::{Domain, ModelSetup};
        use kernels_gpu::models::karma::Karma;
        use kernels_gpu::tet::EllTable;
        use kernels_gpu::{CellModel, StepCoeffs};
        use std::sync::Arc;

        let p = Arc::new(problem(NodeOrder::ReverseCuthillMcKee));
        let (line, dt) = (p.line(), 0.05);
        let domain =
            Domain::with_own_operator(line, 0.5, dt, 1.0, ModelSetup::new("karma", None, &[]).unwrap())
                .unwrap();
        let start = State::<f32>::rest(Karma::INFO, line);
        let ball = NodeSelection::SphereMm { center_mm: [0.0; 3], radius_mm: 1.2 };
        let mask = ball.mask(&p.mesh, &p.renumbering.new_of_old).unwrap();
        let stimuli =
            vec![stimulus_on(&StimulusSpec::new(RegionKind::Box, 0.0), 1, mask, dt, Karma::INFO).unwrap()];
        let recording = Recording { up: Karma::INFO.activation_threshold, down: None, beats: None };
        let events = Events { stimuli: StimulusSchedule { stimuli }, recording: Some(recording) };
        let maps = Maps::at_start(recording, line, start.slice(0), 0.0);
        let steps = 120;

        let mut whole = TetCpuSolver::<Karma, f32>::new(&domain, &p, &start);
        whole.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
        whole.advance(steps).unwrap();
        let (want, want_maps) = (whole.state().unwrap(), whole.maps().unwrap().unwrap());

        let split = TetSplit::new(&p, 3).unwrap();
        let runs = split.halo_runs();
        let step = StepCoeffs::<f32>::new(dt, dt);
        let coeffs = CellCoeffs::<Karma, f32>::new(&domain, 1, Some);
        let tables: Vec<(Vec<u32>, Vec<f32>)> =
            split.parts.iter().map(|q| (q.index(), q.weights(&p))).collect();
        let mut fields: Vec<HostTissue<f32>> = split
            .parts
            .iter()
            .map(|q| {
                let mut f = HostTissue::new(q.stored(), dt);
                let (u, local) = q.scatter(&start);
                f.load(u, local);
                let every = vec![vec![0..q.stored() as u32]];
                f.set_events((&events, EventStart::NEW), line, every, Some(q.scatter_maps(&maps)));
                f
            })
            .collect();
        for _ in 0..steps {
            for ((q, f), (index, weights)) in split.parts.iter().zip(&mut fields).zip(&tables) {
                f.stimulate(line, index.as_ptr() as u64, Karma::INFO);
                let table = EllTable {
                    nodes: q.owned.len() as u32,
                    width: p.op.width as u32,
                    weights: weights.as_ptr() as u64,
                    neighbours: q.neighbours.as_ptr() as u64,
                };
                // SAFETY: the part's own rows, over its stored nodes.
                unsafe { f.step::<Karma>(Lay::Nodes(table), &step, &coeffs, 0..q.owned.len()) };
            }
            let mut u: Vec<&mut Vec<f32>> = fields.iter_mut().map(|f| &mut f.u).collect();
            exchange_on_host(&mut u, &runs);
        }
        let parts: Vec<(&[f32], &[f32])> = fields.iter().map(|f| (&f.u[..], &f.local[..])).collect();
        let got = split.gather(Karma::INFO, &parts);
        assert_ne!(want.slice(0), start.slice(0), "the wave moved");
        for k in 0..want.len() {
            let bits = |s: &State<f32>| s.slice(k).iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&want), "variable {k}");
        }
        let part_maps: Vec<Maps> = fields.iter().map(|f| f.events.maps.clone().unwrap()).collect();
        let got_maps = split.gather_maps(&part_maps);
        let bits = |m: &Maps| m.activation.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got_maps), bits(&want_maps));
        assert!(want_maps.activated() > 20, "{} nodes activated", want_maps.activated());
    }

    #[test]
    fn scatter_then_gather_is_the_identity() {
        let p = problem(NodeOrder::ReverseCuthillMcKee);
        let info = crate::models::MODELS.iter().find(|m| m.name == "karma").expect("karma");
        let mut state = State::<f64>::rest(info, p.line());
        for k in 0..state.len() {
            for (c, v) in state.slice_mut(k).iter_mut().enumerate() {
                *v = (k * 1000 + c) as f64;
            }
        }
        let split = TetSplit::new(&p, 3).unwrap();
        let scattered: Vec<_> = split.parts.iter().map(|q| q.scatter(&state)).collect();
        let refs: Vec<(&[f64], &[f64])> = scattered.iter().map(|(u, l)| (&u[..], &l[..])).collect();
        assert_eq!(split.gather(info, &refs), state);
    }
}

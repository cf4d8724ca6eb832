//! A mesh made ready for the solvers: its nodes renumbered for locality,
//! its operator assembled, the time step checked against it. The solvers
//! hold the nodes as a line of cells (node c is cell (c, 0, 0) of the
//! grid [`TetProblem::line`]), so a mesh's state, stimuli and maps are the
//! grid's types.

use kernels_gpu::GridDims;
use thiserror::Error;

use super::mesh::{TetMesh, Vec3};
use super::operator::{Diffusivity, OperatorError, TetOperator};
use super::regions::node_line;
use super::renumber::{NodeOrder, Renumbering};
use crate::io::vtu::NodeMesh;
use crate::scalar::Scalar;

/// A mesh with its operator, in the solvers' node order.
#[derive(Clone, Debug)]
pub struct TetProblem {
    /// The mesh, renumbered.
    pub mesh: TetMesh,
    /// From the file's node order to the solvers' and back.
    pub renumbering: Renumbering,
    pub op: TetOperator,
}

/// A time step the operator cannot take.
#[derive(Debug, Error, PartialEq)]
#[error(
    "dt = {dt_ms} is above the mesh's stability limit {dt_max:.6} (forward Euler, Gershgorin bound), set by \
     node {node} at {at_mm:?} mm, whose neighbours are closest; use --dt {dt_max:.6} or less, or coarsen the \
     mesh there"
)]
pub struct UnstableStep {
    pub dt_ms: f64,
    pub dt_max: f64,
    /// The node, numbered as in the mesh's file.
    pub node: u32,
    pub at_mm: Vec3,
}

impl TetProblem {
    /// `mesh` renumbered by `order`, with the operator of the
    /// diffusivities of its region labels.
    pub fn new(
        mesh: &TetMesh,
        order: NodeOrder,
        diffusivity: &dyn Fn(i32) -> Option<Diffusivity>,
    ) -> Result<Self, OperatorError> {
        let renumbering = Renumbering::new(mesh, order);
        let mesh = renumbering.apply(mesh);
        let op = TetOperator::build(&mesh, diffusivity)?;
        Ok(Self { mesh, renumbering, op })
    }

    pub fn nodes(&self) -> usize {
        self.op.nodes
    }

    /// The grid the solvers hold the nodes in.
    pub fn line(&self) -> GridDims {
        node_line(self.nodes())
    }

    /// Refuses a step above the operator's stability limit.
    pub fn check_dt(&self, dt_ms: f64) -> Result<(), UnstableStep> {
        if dt_ms <= self.op.dt_max {
            return Ok(());
        }
        let node = self.op.limiting_node;
        Err(UnstableStep {
            dt_ms,
            dt_max: self.op.dt_max,
            node: self.renumbering.old_of_new[node],
            at_mm: self.mesh.points_mm[node],
        })
    }

    /// The weights rounded to the solvers' precision (round to nearest,
    /// once, from the f64 assembly).
    pub fn weights<T: Scalar>(&self) -> Vec<T> {
        self.op.weights.iter().map(|&w| T::from_f64(w)).collect()
    }

    /// The mesh as output files show it: in its file's node order.
    pub fn node_mesh(&self) -> NodeMesh {
        let old = &self.renumbering.old_of_new;
        NodeMesh {
            points_mm: self.renumbering.to_file_order(&self.mesh.points_mm),
            tets: self.mesh.tets.iter().map(|t| t.map(|c| old[c as usize])).collect(),
            file_of_node: old.clone(),
        }
    }

    /// A fingerprint of what the solvers step (the node order, the
    /// neighbour table and its weights): what a checkpoint records so that
    /// a resume on another mesh, order or conductivity is refused.
    pub fn fingerprint(&self) -> u64 {
        let mut h = crate::hash::Fnv1a64::default();
        h.update(b"tet");
        for n in [self.op.nodes, self.op.width] {
            h.update(&(n as u64).to_le_bytes());
        }
        for &c in &self.renumbering.old_of_new {
            h.update(&c.to_le_bytes());
        }
        for &c in &self.op.neighbours {
            h.update(&c.to_le_bytes());
        }
        for w in &self.op.weights {
            h.update(&w.to_le_bytes());
        }
        h.finish()
    }

    /// The mean edge length, mm: the mesh's spacing for the records (the
    /// mesh report's, [`TetMesh::mean_edge_mm`]).
    pub fn mean_edge_mm(&self) -> f64 {
        self.mesh.mean_edge_mm()
    }
}

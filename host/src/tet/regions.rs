//! Where on a mesh a stimulus acts: a box or a ball in mm, a list of
//! nodes (an openCARP `.vtx` file), or the nodes of the elements of a
//! region label; turned into a mask of the nodes, which the solvers hold
//! as a line of cells (node c is cell (c, 0, 0)), so that a mesh's
//! stimuli run through the same stimulus code as the grid's.

use std::sync::Arc;

use kernels_gpu::GridDims;
use thiserror::Error;

use super::mesh::{TetMesh, Vec3};
use crate::events::stimulus::{Mask, Region, RegionKind, Stimulus, StimulusError, StimulusSpec};
use kernels_gpu::ModelInfo;

/// A set of nodes of a mesh.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeSelection {
    /// The nodes with `lo <= x <= hi` on every axis, mm.
    BoxMm { lo: Vec3, hi: Vec3 },
    /// The nodes within `radius_mm` of `center_mm`.
    SphereMm { center_mm: Vec3, radius_mm: f64 },
    /// These nodes, numbered as in the mesh's file.
    Nodes(Vec<u32>),
    /// The nodes of the elements labelled `label`.
    Label(i32),
}

#[derive(Debug, Error, PartialEq)]
pub enum SelectionError {
    #[error("the stimulus {what} holds no node of the mesh; the mesh spans {lo:?} to {hi:?} mm")]
    Empty { what: String, lo: Vec3, hi: Vec3 },
    #[error(
        "node {node} of the stimulus's node list is not a node of the mesh (it has {nodes}, numbered from 0)"
    )]
    NoSuchNode { node: u32, nodes: usize },
}

/// The grid of a mesh's nodes as a line of cells.
pub fn node_line(nodes: usize) -> GridDims {
    GridDims::new(u32::try_from(nodes).expect("fewer than 2^32 nodes"), 1, 1)
}

impl NodeSelection {
    /// The nodes of `mesh` selected, as a mask of its node line; node
    /// lists are numbered as in the file, and `new_of_old` (a
    /// renumbering) maps them to the mesh given.
    pub fn mask(&self, mesh: &TetMesh, new_of_old: &[u32]) -> Result<Arc<Mask>, SelectionError> {
        let n = mesh.nodes();
        let mut values = vec![0.0; n];
        match self {
            NodeSelection::BoxMm { lo, hi } => {
                for (c, p) in mesh.points_mm.iter().enumerate() {
                    if (0..3).all(|a| lo[a] <= p[a] && p[a] <= hi[a]) {
                        values[c] = 1.0;
                    }
                }
            }
            NodeSelection::SphereMm { center_mm, radius_mm } => {
                for (c, p) in mesh.points_mm.iter().enumerate() {
                    let d2: f64 = (0..3).map(|a| (p[a] - center_mm[a]).powi(2)).sum();
                    if d2 <= radius_mm * radius_mm {
                        values[c] = 1.0;
                    }
                }
            }
            NodeSelection::Nodes(list) => {
                for &node in list {
                    let Some(&c) = new_of_old.get(node as usize) else {
                        return Err(SelectionError::NoSuchNode { node, nodes: n });
                    };
                    values[c as usize] = 1.0;
                }
            }
            NodeSelection::Label(label) => {
                for (tet, region) in mesh.tets.iter().zip(&mesh.regions) {
                    if region == label {
                        for &c in tet {
                            values[c as usize] = 1.0;
                        }
                    }
                }
            }
        }
        let mask = Mask::from_values(node_line(n), &values);
        if mask.count == 0 {
            let (lo, hi) = bounds(mesh);
            return Err(SelectionError::Empty { what: self.describe(), lo, hi });
        }
        Ok(Arc::new(mask))
    }

    fn describe(&self) -> String {
        match self {
            NodeSelection::BoxMm { lo, hi } => format!("box {lo:?} to {hi:?} mm"),
            NodeSelection::SphereMm { center_mm, radius_mm } => {
                format!("ball of radius {radius_mm} mm around {center_mm:?} mm")
            }
            NodeSelection::Nodes(list) => format!("list of {} nodes", list.len()),
            NodeSelection::Label(label) => format!("region label {label}"),
        }
    }
}

/// The stimulus of `spec` (its timing and what it does: a value, a
/// current) over the nodes of `mask`; the spec's own region is not used.
/// `index` numbers it in messages (from 1).
pub fn stimulus_on(
    spec: &StimulusSpec,
    index: usize,
    mask: Arc<Mask>,
    dt_ms: f64,
    model: &ModelInfo,
) -> Result<Stimulus, StimulusError> {
    // The whole line as a box: every node, which the mask then narrows.
    let whole = spec.everywhere();
    let mut stimulus = whole.compile(index, mask.dims, dt_ms, model)?;
    stimulus.kind = RegionKind::Mask;
    stimulus.region = Region::Mask(mask);
    Ok(stimulus)
}

/// The box the nodes span, mm.
pub fn bounds(mesh: &TetMesh) -> (Vec3, Vec3) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in &mesh.points_mm {
        for a in 0..3 {
            lo[a] = lo[a].min(p[a]);
            hi[a] = hi[a].max(p[a]);
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_selection_marks_its_nodes() {
        let mesh = TetMesh::kuhn_box([3, 3, 3], 1.0);
        let ids: Vec<u32> = (0..27).collect();
        let face = NodeSelection::BoxMm { lo: [-0.1; 3], hi: [0.1, 5.0, 5.0] }.mask(&mesh, &ids).unwrap();
        assert_eq!(face.count, 9, "the x = 0 face");
        let ball = NodeSelection::SphereMm { center_mm: [1.0; 3], radius_mm: 1.0 }.mask(&mesh, &ids).unwrap();
        assert_eq!(ball.count, 7, "the centre and its six face neighbours");
        let listed = NodeSelection::Nodes(vec![4, 26]).mask(&mesh, &ids).unwrap();
        assert!(listed.get(4, 0, 0) && listed.get(26, 0, 0) && listed.count == 2);
        let labelled = NodeSelection::Label(0).mask(&mesh, &ids).unwrap();
        assert_eq!(labelled.count, 27);
    }

    #[test]
    fn a_selection_of_nothing_or_of_missing_nodes_is_refused() {
        let mesh = TetMesh::kuhn_box([2, 2, 2], 1.0);
        let ids: Vec<u32> = (0..8).collect();
        let err = NodeSelection::BoxMm { lo: [5.0; 3], hi: [6.0; 3] }.mask(&mesh, &ids).unwrap_err();
        assert!(err.to_string().contains("holds no node"), "{err}");
        let err = NodeSelection::Nodes(vec![8]).mask(&mesh, &ids).unwrap_err();
        assert_eq!(err, SelectionError::NoSuchNode { node: 8, nodes: 8 });
    }
}

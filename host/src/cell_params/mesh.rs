//! A [`ParameterMap`] over the nodes of a tetrahedral mesh: the regions
//! are the elements' tags, the fields are given per node in the file's
//! order; both are put in the solver's node order here.

use super::error::ParamsError;
use super::sets::{Cells, ParameterSets};
use super::spec::{ParameterField, ParameterMap};
use crate::models::ModelSetup;
use crate::tet::mesh::TetMesh;
use crate::tet::problem::TetProblem;

/// The label of each node of `mesh` (in the file's order): the largest tag
/// of the elements it belongs to, so that the nodes on the interface of
/// two regions take one region's parameters, whichever way the file
/// numbers them. Tags 1..255 name regions; 0 is tissue without one.
pub fn node_labels(mesh: &TetMesh) -> Result<Vec<u8>, ParamsError> {
    let mut labels = vec![0u8; mesh.nodes()];
    for (tet, &tag) in mesh.tets.iter().zip(&mesh.regions) {
        let label = u8::try_from(tag).map_err(|_| ParamsError::MeshTag { tag })?;
        for &node in tet {
            labels[node as usize] = labels[node as usize].max(label);
        }
    }
    Ok(labels)
}

/// `map` resolved over the nodes of `problem` in the solver's order (the
/// fields, given in the file's order, reordered); messages name a node by
/// its number in the file. `None` where nothing varies.
pub fn resolve_on_mesh(
    setup: &ModelSetup,
    map: &ParameterMap,
    problem: &TetProblem,
) -> Result<Option<ParameterSets>, ParamsError> {
    if map.is_empty() {
        return Ok(None);
    }
    let order = &problem.renumbering;
    let labels = node_labels(&problem.mesh)?;
    let fields = map
        .fields
        .iter()
        .map(|f| ParameterField {
            name: f.name.clone(),
            // A field of another length is refused by the resolution, by name.
            values: if f.values.len() == labels.len() {
                order.to_new_order(&f.values)
            } else {
                f.values.clone()
            },
        })
        .collect();
    let reordered = ParameterMap { regions: map.regions.clone(), fields };
    ParameterSets::resolve(setup, &reordered, (&labels, Cells::MeshNodes), |i| {
        format!("node {} (of the file)", order.old_of_new[i])
    })
}

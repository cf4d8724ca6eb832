//! The checks a mesh passes before it is solved on: faults that would
//! make the solution wrong or crash it are refused, naming the element or
//! node; what is only unusual goes into the [`MeshReport`].
//!
//! Orientation: the P1 stiffness and mass matrices need only each
//! element's |volume|, but the gradients are simplest to get right with
//! one orientation, so an element of negative signed volume is turned by
//! swapping its last two nodes. Whole meshes of the other orientation
//! (a writer's convention) and mixed ones (a tool's slip, harmless once
//! turned) are both accepted; the report counts the elements turned.
//! A flat element is refused: its volume, relative to its longest edge
//! cubed, is below [`FLAT`] (a regular tetrahedron's is 0.118), where its
//! stiffness matrix is noise.

use std::collections::BTreeMap;

use crate::tet::error::MeshError;
use crate::tet::mesh::{TetMesh, Vec3, dot};
use crate::tet::pieces::piece_sizes;
use crate::tet::report::{MeshReport, UNUSED_LISTED};

/// The least volume an element may have, relative to its longest edge
/// cubed.
pub const FLAT: f64 = 1e-12;

/// Checks `mesh`, turning elements of negative orientation and making
/// fibres and sheets unit length (files in single precision, and some
/// tools, give them slightly or wholly off unit length).
pub fn check(mesh: &mut TetMesh) -> Result<MeshReport, MeshError> {
    let (nodes, elements) = (mesh.nodes(), mesh.elements());
    if nodes == 0 {
        return Err(MeshError::Empty { what: "nodes" });
    }
    if elements == 0 {
        return Err(MeshError::Empty { what: "elements" });
    }
    let counts = [
        ("region labels", Some(mesh.regions.len())),
        ("fibres", mesh.fibres.as_ref().map(Vec::len)),
        ("sheets", mesh.sheets.as_ref().map(Vec::len)),
    ];
    for (what, found) in counts {
        if let Some(found) = found.filter(|&n| n != elements) {
            return Err(MeshError::CountMismatch { what, found, elements });
        }
    }
    if let Some(node) = mesh.points_mm.iter().position(|p| p.iter().any(|c| !c.is_finite())) {
        return Err(MeshError::BadCoordinate { node, coords: mesh.points_mm[node] });
    }
    for (element, t) in mesh.tets.iter().enumerate() {
        if let Some(&index) = t.iter().find(|&&n| n as usize >= nodes) {
            return Err(MeshError::NodeOutOfRange { element, index, nodes });
        }
    }
    for (what, dirs) in [("fibre", &mut mesh.fibres), ("sheet", &mut mesh.sheets)] {
        for (element, d) in dirs.iter_mut().flatten().enumerate() {
            let norm = dot(*d, *d).sqrt();
            if !(norm.is_finite() && norm > 0.0) {
                return Err(MeshError::BadDirection { what, element, value: *d });
            }
            *d = d.map(|c| c / norm);
        }
    }
    let mut volume_mm3 = 0.0;
    let mut reoriented = 0;
    let (mut edge_min, mut edge_max, mut edge_sum) = (f64::INFINITY, 0.0f64, 0.0);
    for element in 0..elements {
        let mut longest = 0.0f64;
        for len in mesh.edges_mm(element) {
            longest = longest.max(len);
            edge_min = edge_min.min(len);
            edge_sum += len;
        }
        edge_max = edge_max.max(longest);
        let v6 = mesh.signed_volume6(element);
        let volume = v6.abs() / 6.0;
        let relative = volume / longest.powi(3);
        if relative.is_nan() || relative < FLAT {
            return Err(MeshError::Degenerate {
                element,
                nodes: mesh.tets[element],
                volume_mm3: volume,
                relative: if relative.is_finite() { relative } else { 0.0 },
            });
        }
        if v6 < 0.0 {
            mesh.tets[element].swap(2, 3);
            reoriented += 1;
        }
        volume_mm3 += volume;
    }
    let mut used = vec![false; nodes];
    for t in &mesh.tets {
        for &n in t {
            used[n as usize] = true;
        }
    }
    let unused_nodes: Vec<usize> = (0..nodes).filter(|&n| !used[n]).collect();
    let mut regions = BTreeMap::new();
    for &r in &mesh.regions {
        *regions.entry(r).or_insert(0) += 1;
    }
    Ok(MeshReport {
        nodes,
        elements,
        bbox_mm: bbox(&mesh.points_mm),
        edge_min_mm: edge_min,
        edge_mean_mm: edge_sum / (6 * elements) as f64,
        edge_max_mm: edge_max,
        volume_mm3,
        reoriented,
        unused: unused_nodes.len(),
        unused_first: unused_nodes.into_iter().take(UNUSED_LISTED).collect(),
        pieces: piece_sizes(nodes, &mesh.tets),
        regions,
        fibres: mesh.fibres.is_some(),
        sheets: mesh.sheets.is_some(),
    })
}

fn bbox(points: &[Vec3]) -> [Vec3; 2] {
    points.iter().fold([[f64::INFINITY; 3], [f64::NEG_INFINITY; 3]], |[lo, hi], p| {
        [std::array::from_fn(|a| lo[a].min(p[a])), std::array::from_fn(|a| hi[a].max(p[a]))]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two tetrahedra on the unit cube's corner, sharing a face, and a
    /// node no element uses.
    fn two() -> TetMesh {
        TetMesh {
            points_mm: vec![
                [0.0; 3],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
                [1.0, 1.0, 1.0],
                [5.0, 5.0, 5.0],
            ],
            tets: vec![[0, 1, 2, 3], [1, 3, 2, 4]],
            regions: vec![1, 2],
            ..Default::default()
        }
    }

    #[test]
    fn a_sound_mesh_is_described() {
        let mut m = two();
        m.fibres = Some(vec![[2.0, 0.0, 0.0], [0.0, 0.5, 0.0]]);
        let r = check(&mut m).unwrap();
        assert_eq!((r.nodes, r.elements, r.pieces.clone()), (6, 2, vec![2]));
        assert_eq!((r.unused, r.unused_first.clone()), (1, vec![5]));
        approx::assert_relative_eq!(r.volume_mm3, 1.0 / 6.0 + 1.0 / 3.0, epsilon = 1e-12);
        assert_eq!(r.bbox_mm, [[0.0; 3], [5.0; 3]]);
        approx::assert_relative_eq!(r.edge_min_mm, 1.0);
        approx::assert_relative_eq!(r.edge_max_mm, 2f64.sqrt());
        assert_eq!(r.regions, BTreeMap::from([(1, 1), (2, 1)]));
        assert_eq!(m.fibres.unwrap()[0], [1.0, 0.0, 0.0], "fibres made unit length");
        // The second element was negative: turned, and the report says so.
        assert_eq!(r.reoriented, 1);
        assert_eq!(m.tets[1], [1, 3, 4, 2]);
        let text = r.to_string();
        assert!(text.contains("1 nodes belong to no element (nodes 5,"), "{text}");
        assert!(text.contains("1 of 2 elements had their nodes in the other orientation"), "{text}");
    }

    #[test]
    fn a_mesh_of_two_pieces_is_reported_not_refused() {
        let mut m = two();
        m.tets[1] = [5, 2, 4, 1];
        m.tets.push([4, 5, 2, 1]);
        m.regions.push(0);
        m.points_mm.extend([[9.0, 0.0, 0.0], [9.0, 1.0, 0.0], [9.0, 0.0, 1.0], [10.0, 0.0, 0.0]]);
        m.tets[1] = [6, 7, 8, 9];
        m.tets[2] = [1, 2, 3, 4];
        let r = check(&mut m).unwrap();
        assert_eq!(r.pieces, [2, 1]);
        assert!(r.to_string().contains("2 pieces that share no node (2, 1 elements)"), "{r}");
    }

    #[test]
    fn faults_are_refused_naming_the_element_or_node() {
        let mut m = two();
        m.tets[1][2] = 6;
        let e = check(&mut m).unwrap_err().to_string();
        assert!(
            e.contains("element 1 (counting from 0) names node 6, but the mesh has 6 nodes (0 to 5)"),
            "{e}"
        );
        let mut m = two();
        m.points_mm[3][1] = f64::NAN;
        let e = check(&mut m).unwrap_err().to_string();
        assert!(e.contains("node 3 (counting from 0) has a coordinate that is not a finite number"), "{e}");
        let mut m = two();
        m.points_mm[4] = [0.5, 0.5, 0.0];
        let e = check(&mut m).unwrap_err().to_string();
        assert!(e.contains("element 1 (counting from 0, nodes [1, 3, 2, 4]) is flat"), "{e}");
        let mut m = two();
        m.tets[0] = [0, 1, 1, 3];
        let e = check(&mut m).unwrap_err().to_string();
        assert!(e.contains("element 0") && e.contains("is flat: its volume is 0e0 mm^3"), "{e}");
        let mut m = two();
        m.sheets = Some(vec![[0.0, 0.0, 1.0], [0.0; 3]]);
        let e = check(&mut m).unwrap_err().to_string();
        assert!(e.contains("the sheet direction of element 1 (counting from 0) is [0.0, 0.0, 0.0]"), "{e}");
        let mut m = two();
        m.fibres = Some(vec![[f64::NAN, 0.0, 0.0], [1.0, 0.0, 0.0]]);
        let e = check(&mut m).unwrap_err().to_string();
        assert!(e.contains("fibre direction of element 0"), "{e}");
        let mut m = two();
        m.regions.pop();
        let e = check(&mut m).unwrap_err().to_string();
        assert!(e.contains("1 region labels for 2 elements"), "{e}");
        let mut m = TetMesh { points_mm: vec![[0.0; 3]], ..Default::default() };
        let e = check(&mut m).unwrap_err().to_string();
        assert!(e.contains("the mesh has no elements"), "{e}");
    }
}

//! A tetrahedral mesh as fibril holds it once read: nodes in mm, four
//! node indices per element, a region label and (optionally) a fibre and
//! a sheet direction per element.

/// A point or a direction in 3D.
pub type Vec3 = [f64; 3];

/// A tetrahedral mesh. Readers fill it in the file's own node and element
/// order; a solver may renumber nodes for locality but writes results back
/// in this order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TetMesh {
    /// Node coordinates, in mm.
    pub points_mm: Vec<Vec3>,
    /// Elements: four 0-based node indices each.
    pub tets: Vec<[u32; 4]>,
    /// A region label per element (openCARP element tag, Gmsh physical
    /// group, a `.vtu` cell array); 0 where the file gives none.
    pub regions: Vec<i32>,
    /// A fibre direction per element, where the file gives one.
    pub fibres: Option<Vec<Vec3>>,
    /// A sheet direction per element, where the file gives one.
    pub sheets: Option<Vec<Vec3>>,
}

impl TetMesh {
    pub fn nodes(&self) -> usize {
        self.points_mm.len()
    }

    pub fn elements(&self) -> usize {
        self.tets.len()
    }

    /// Six times the signed volume of element `e` (mm^3): positive when
    /// its fourth node lies on the side of the first three's face that
    /// their order (right-handed) points to.
    pub fn signed_volume6(&self, e: usize) -> f64 {
        let [a, b, c, d] = self.tets[e].map(|n| self.points_mm[n as usize]);
        let u = sub(b, a);
        let v = sub(c, a);
        let w = sub(d, a);
        dot(u, cross(v, w))
    }

    /// The six edge lengths of element `e` (mm), in the order of its
    /// corner pairs (0,1), (0,2), (0,3), (1,2), (1,3), (2,3).
    pub fn edges_mm(&self, e: usize) -> [f64; 6] {
        let corners = self.tets[e].map(|n| self.points_mm[n as usize]);
        [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)].map(|(a, b)| {
            let d = sub(corners[a], corners[b]);
            dot(d, d).sqrt()
        })
    }

    /// The mean edge length over every element's six edges (an edge shared
    /// by several elements counts once for each), mm; 0 without elements.
    pub fn mean_edge_mm(&self) -> f64 {
        let sum: f64 = (0..self.elements()).flat_map(|e| self.edges_mm(e)).sum();
        if self.tets.is_empty() { 0.0 } else { sum / (6 * self.elements()) as f64 }
    }
}

pub(crate) fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unit_corner_tetrahedron_has_volume_one_sixth() {
        let mesh = TetMesh {
            points_mm: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            tets: vec![[0, 1, 2, 3]],
            regions: vec![0],
            ..Default::default()
        };
        assert_eq!(mesh.signed_volume6(0), 1.0);
        let flipped = TetMesh { tets: vec![[0, 2, 1, 3]], ..mesh };
        assert_eq!(flipped.signed_volume6(0), -1.0, "swapping two nodes inverts it");
    }
}

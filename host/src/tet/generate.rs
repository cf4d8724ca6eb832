//! Tetrahedral meshes made here rather than read: a box cut into
//! tetrahedra, for tests, benchmarks and the Niederer slab.

use super::mesh::TetMesh;

impl TetMesh {
    /// The box of `n` = (nx, ny, nz) nodes `h_mm` apart, each cube of
    /// eight neighbouring nodes cut into six tetrahedra around its main
    /// diagonal (the Kuhn, or Freudenthal, triangulation: one for each
    /// order of the three axes). Neighbouring cubes share their faces'
    /// diagonals, so the mesh is conforming. With an isotropic tensor its
    /// P1 operator with lumped mass is the 7-point Laplacian at the
    /// interior nodes (the diagonal edges get zero stiffness), which the
    /// tests use as an exact reference.
    pub fn kuhn_box(n: [usize; 3], h_mm: f64) -> Self {
        let [nx, ny, nz] = n;
        assert!(nx >= 2 && ny >= 2 && nz >= 2, "a box of at least one cube");
        let index = |x: usize, y: usize, z: usize| ((z * ny + y) * nx + x) as u32;
        let mut points_mm = Vec::with_capacity(nx * ny * nz);
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..nx {
                    points_mm.push([x as f64 * h_mm, y as f64 * h_mm, z as f64 * h_mm]);
                }
            }
        }
        // The six orders of the axes: each walks from the cube's corner
        // (0,0,0) to (1,1,1) one axis at a time.
        const ORDERS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        let mut tets = Vec::with_capacity(6 * (nx - 1) * (ny - 1) * (nz - 1));
        for z in 0..nz - 1 {
            for y in 0..ny - 1 {
                for x in 0..nx - 1 {
                    for order in ORDERS {
                        let mut at = [x, y, z];
                        let mut tet = [index(x, y, z); 4];
                        for (k, axis) in order.into_iter().enumerate() {
                            at[axis] += 1;
                            tet[k + 1] = index(at[0], at[1], at[2]);
                        }
                        tets.push(tet);
                    }
                }
            }
        }
        let regions = vec![0; tets.len()];
        Self { points_mm, tets, regions, fibres: None, sheets: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kuhn_box_fills_its_volume_with_six_tetrahedra_a_cube() {
        let mesh = TetMesh::kuhn_box([3, 4, 5], 0.5);
        assert_eq!(mesh.nodes(), 60);
        assert_eq!(mesh.elements(), 6 * 2 * 3 * 4);
        let total: f64 = (0..mesh.elements()).map(|e| mesh.signed_volume6(e).abs() / 6.0).sum();
        approx::assert_relative_eq!(total, 1.0 * 1.5 * 2.0, max_relative = 1e-12);
    }
}

//! The P1 finite-element operator of a tetrahedral mesh with a lumped
//! mass matrix, as per-node neighbour weights: what the tet solvers round
//! to their precision and step.
//!
//! The monodomain equation du/dt = div(D grad u) - I_ion/C_m with
//! D = sigma / (chi C_m) (Niederer et al. 2011, eq. 1-2; fibril's
//! `monodomain_diffusion`) is discretised in space with linear (P1)
//! elements: M du/dt = -K u, with the stiffness
//!
//! ```text
//! K_ab = sum over the elements e holding a and b of  V_e  grad(phi_a)^T D_e grad(phi_b)
//! ```
//!
//! (phi_a the element's barycentric function of node a, constant gradient
//! on e) and the mass M lumped onto its diagonal (row sums), m_a = sum_e
//! V_e / 4: the "lumped mass method" of Vasconcellos et al. 2024 (seed 004,
//! section 2.2). Rows of K sum to zero (the gradients of the four
//! barycentric functions sum to zero), so
//!
//! ```text
//! du_a/dt = sum over the neighbours b of a of  w_ab (u_b - u_a),   w_ab = -K_ab / m_a
//! ```
//!
//! the form fibril's voxel tissue uses too: a uniform field stays
//! uniform, and sum_a m_a du_a/dt = -sum_a sum_b K_ab u_b = 0 by the
//! symmetry of K, so pure diffusion conserves sum(m u) to rounding.
//!
//! The tensor of an element is D_e = d_t I + (d_l - d_t) f f^T for a
//! fibre f (transversely isotropic), or d_l f f^T + d_s s s^T + d_n n n^T
//! with a sheet s and n = f x s (orthotropic), or d_t I without fibres.
//!
//! Stability of forward Euler: as for the voxel tissue (Gershgorin),
//! dt <= 2 / max_a (sum_b w_ab + sum_b |w_ab|).

use thiserror::Error;

use super::adjacency::Adjacency;
use super::mesh::{TetMesh, Vec3, cross, dot, sub};

/// Diffusivities of a region, in mm^2 per time unit: along the fibre,
/// across it in the sheet, and normal to the sheet (= `sheet` without a
/// sheet direction).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Diffusivity {
    pub fibre: f64,
    pub sheet: f64,
    pub normal: f64,
}

impl Diffusivity {
    /// The same in every direction.
    pub fn isotropic(d: f64) -> Self {
        Self { fibre: d, sheet: d, normal: d }
    }

    /// `along` the fibre, `across` it in every other direction.
    pub fn transverse(along: f64, across: f64) -> Self {
        Self { fibre: along, sheet: across, normal: across }
    }
}

/// Why an operator cannot be built.
#[derive(Debug, Error, PartialEq)]
pub enum OperatorError {
    #[error(
        "element {element} has volume {volume_mm3:e} mm^3: a degenerate tetrahedron has no P1 gradients; \
         remove or repair it (the mesh check reports every such element)"
    )]
    Degenerate { element: usize, volume_mm3: f64 },
    #[error(
        "no diffusivity for region {region} (element {element}); give one for every region label of the mesh"
    )]
    NoDiffusivity { region: i32, element: usize },
    #[error("a diffusivity of region {region} is {value}: diffusivities are finite and not negative")]
    BadDiffusivity { region: i32, value: f64 },
    #[error("node {node} has {degree} neighbours; at most {max} fit the neighbour table")]
    TooManyNeighbours { node: usize, degree: usize, max: usize },
}

/// The weights of a mesh in f64, with a fixed-width neighbour table
/// (ELL): node c's k-th neighbour and its weight at `k * nodes + c`
/// (consecutive nodes at consecutive addresses, which GPU threads of one
/// warp read together), padded with c itself and a zero weight.
#[derive(Clone, Debug, PartialEq)]
pub struct TetOperator {
    pub nodes: usize,
    /// Entries per node: the largest number of neighbours of a node.
    pub width: usize,
    /// In 1/time unit.
    pub weights: Vec<f64>,
    pub neighbours: Vec<u32>,
    /// The lumped mass of every node, in mm^3.
    pub mass_mm3: Vec<f64>,
    /// The largest stable dt (Gershgorin) and the node that sets it.
    pub dt_max: f64,
    pub limiting_node: usize,
    /// Number of negative weights (obtuse elements make some: the
    /// operator is then not an M-matrix, which P1 allows).
    pub negative_weights: usize,
}

/// The widest neighbour table: nodes of well-shaped tetrahedral meshes
/// have about 14 neighbours and rarely more than 40.
pub const MAX_WIDTH: usize = 128;

impl TetOperator {
    /// Assembles the operator of `mesh` with each element's diffusivity
    /// from its region label (`diffusivity`).
    pub fn build(
        mesh: &TetMesh,
        diffusivity: &dyn Fn(i32) -> Option<Diffusivity>,
    ) -> Result<Self, OperatorError> {
        let n = mesh.nodes();
        let adjacency = Adjacency::of(mesh);
        let mut k_off = vec![0.0f64; adjacency.slots()];
        let mut mass = vec![0.0f64; n];
        for (e, tet) in mesh.tets.iter().enumerate() {
            let region = mesh.regions.get(e).copied().unwrap_or(0);
            let d = diffusivity(region).ok_or(OperatorError::NoDiffusivity { region, element: e })?;
            for value in [d.fibre, d.sheet, d.normal] {
                if !value.is_finite() || value < 0.0 {
                    return Err(OperatorError::BadDiffusivity { region, value });
                }
            }
            let x = tet.map(|i| mesh.points_mm[i as usize]);
            let volume = dot(sub(x[1], x[0]), cross(sub(x[2], x[0]), sub(x[3], x[0]))).abs() / 6.0;
            let grads = gradients(&x).ok_or(OperatorError::Degenerate { element: e, volume_mm3: volume })?;
            let tensor =
                element_tensor(d, mesh.fibres.as_ref().map(|f| f[e]), mesh.sheets.as_ref().map(|s| s[e]));
            for a in 0..4 {
                mass[tet[a] as usize] += volume / 4.0;
                let dga = mat_vec(&tensor, grads[a]);
                for b in 0..4 {
                    if a != b {
                        let slot = adjacency.slot(tet[a], tet[b]);
                        k_off[slot] += volume * dot(dga, grads[b]);
                    }
                }
            }
        }
        let width = adjacency.max_degree();
        if width > MAX_WIDTH {
            let node = (0..n).max_by_key(|&i| adjacency.degree(i)).expect("a node");
            return Err(OperatorError::TooManyNeighbours { node, degree: width, max: MAX_WIDTH });
        }
        let mut weights = vec![0.0; width * n];
        let mut neighbours: Vec<u32> = (0..width).flat_map(|_| 0..n as u32).collect();
        let (mut worst, mut limiting_node, mut negative_weights) = (0.0f64, 0usize, 0usize);
        for c in 0..n {
            let (mut sum, mut sum_abs) = (0.0, 0.0);
            for (k, slot) in adjacency.range(c).enumerate() {
                // An isolated node (no element) has mass 0 and no neighbours.
                let w = -k_off[slot] / mass[c];
                weights[k * n + c] = w;
                neighbours[k * n + c] = adjacency.entry(slot);
                sum += w;
                sum_abs += w.abs();
                negative_weights += usize::from(w < 0.0);
            }
            if sum + sum_abs > worst {
                worst = sum + sum_abs;
                limiting_node = c;
            }
        }
        let dt_max = if worst > 0.0 { 2.0 / worst } else { f64::INFINITY };
        Ok(Self {
            nodes: n,
            width,
            weights,
            neighbours,
            mass_mm3: mass,
            dt_max,
            limiting_node,
            negative_weights,
        })
    }

    /// d u / dt of pure diffusion at every node, in f64 (the reference the
    /// tests hold the solvers to).
    pub fn apply(&self, u: &[f64]) -> Vec<f64> {
        let n = self.nodes;
        (0..n)
            .map(|c| {
                (0..self.width)
                    .map(|k| self.weights[k * n + c] * (u[self.neighbours[k * n + c] as usize] - u[c]))
                    .sum()
            })
            .collect()
    }
}

/// The gradients of the four barycentric functions of the tetrahedron
/// `x` (constant on it): grad phi_a is normal to the face opposite a,
/// scaled so that grad phi_a . (x_a - x_b) = 1 for b on that face.
/// `None` for a degenerate element.
pub(crate) fn gradients(x: &[Vec3; 4]) -> Option<[Vec3; 4]> {
    let mut g = [[0.0; 3]; 4];
    for a in 0..4 {
        let [b, c, d] = [(a + 1) % 4, (a + 2) % 4, (a + 3) % 4];
        let normal = cross(sub(x[c], x[b]), sub(x[d], x[b]));
        let height = dot(normal, sub(x[a], x[b]));
        let scale = dot(normal, normal).sqrt() * edge_scale(x);
        // NaN fails the test too.
        if height.abs().partial_cmp(&(1e-12 * scale)) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        g[a] = normal.map(|v| v / height);
    }
    Some(g)
}

/// The longest edge of `x`: a length for relative tests.
fn edge_scale(x: &[Vec3; 4]) -> f64 {
    let mut longest = 0.0f64;
    for a in 0..4 {
        for b in a + 1..4 {
            let e = sub(x[a], x[b]);
            longest = longest.max(dot(e, e).sqrt());
        }
    }
    longest
}

/// D_e (row-major 3x3) from the region's diffusivities and the element's
/// directions.
fn element_tensor(d: Diffusivity, fibre: Option<Vec3>, sheet: Option<Vec3>) -> [[f64; 3]; 3] {
    let outer = |v: Vec3, s: f64| -> [[f64; 3]; 3] {
        let l = dot(v, v);
        std::array::from_fn(|i| std::array::from_fn(|j| s * v[i] * v[j] / l))
    };
    let add = |a: [[f64; 3]; 3], b: [[f64; 3]; 3]| -> [[f64; 3]; 3] {
        std::array::from_fn(|i| std::array::from_fn(|j| a[i][j] + b[i][j]))
    };
    let identity = |s: f64| -> [[f64; 3]; 3] {
        std::array::from_fn(|i| std::array::from_fn(|j| if i == j { s } else { 0.0 }))
    };
    match (fibre, sheet) {
        (None, _) => identity(d.sheet),
        (Some(f), None) => add(identity(d.sheet), outer(f, d.fibre - d.sheet)),
        (Some(f), Some(s)) => {
            let n = cross(f, s);
            add(add(outer(f, d.fibre), outer(s, d.sheet)), outer(n, d.normal))
        }
    }
}

fn mat_vec(m: &[[f64; 3]; 3], v: Vec3) -> Vec3 {
    std::array::from_fn(|i| dot(m[i], v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn iso(d: f64) -> impl Fn(i32) -> Option<Diffusivity> {
        move |_| Some(Diffusivity::isotropic(d))
    }

    /// The weight of node `c` towards node `b` (0 where b is no neighbour).
    fn weight(op: &TetOperator, c: usize, b: u32) -> f64 {
        (0..op.width)
            .find(|&k| op.neighbours[k * op.nodes + c] == b && b as usize != c)
            .map_or(0.0, |k| op.weights[k * op.nodes + c])
    }

    #[test]
    fn a_uniform_field_stays_uniform_and_diffusion_conserves_the_mass_weighted_sum() {
        let mesh = TetMesh::kuhn_box([5, 4, 3], 0.25);
        let op = TetOperator::build(&mesh, &iso(0.1)).unwrap();
        assert!(op.apply(&vec![-80.0; op.nodes]).iter().all(|&d| d == 0.0), "exactly zero");
        let u: Vec<f64> = (0..op.nodes).map(|i| ((i * 7919) % 101) as f64).collect();
        let du = op.apply(&u);
        let change: f64 = du.iter().zip(&op.mass_mm3).map(|(d, m)| d * m).sum();
        let scale: f64 = du.iter().zip(&op.mass_mm3).map(|(d, m)| (d * m).abs()).sum();
        assert!(change.abs() <= 1e-13 * scale, "sum(M du/dt) = {change:e} against {scale:e}");
        let volume: f64 = op.mass_mm3.iter().sum();
        assert_relative_eq!(volume, 1.0 * 0.75 * 0.5, max_relative = 1e-12);
    }

    #[test]
    fn on_a_kuhn_box_the_interior_rows_are_the_7_point_stencil_with_the_fibre_diffusivity_along_x() {
        let (h, along, across) = (0.2, 0.3, 0.05);
        let mut mesh = TetMesh::kuhn_box([5, 5, 5], h);
        mesh.fibres = Some(vec![[2.0, 0.0, 0.0]; mesh.elements()]);
        let op = TetOperator::build(&mesh, &|_| Some(Diffusivity::transverse(along, across))).unwrap();
        let c = (2 * 5 + 2) * 5 + 2;
        for (b, d) in [
            (c + 1, along),
            (c - 1, along),
            (c + 5, across),
            (c - 5, across),
            (c + 25, across),
            (c - 25, across),
        ] {
            assert_relative_eq!(weight(&op, c, b as u32), d / (h * h), max_relative = 1e-12);
        }
        let total: f64 = (0..op.width).map(|k| op.weights[k * op.nodes + c]).sum();
        assert_relative_eq!(total, (2.0 * along + 4.0 * across) / (h * h), max_relative = 1e-12);
        assert_eq!(op.negative_weights, 0, "the Kuhn box with an axis tensor is an M-matrix");
    }

    #[test]
    fn the_stable_dt_is_the_7_point_limit_or_below() {
        let (h, d) = (0.1, 0.1);
        let op = TetOperator::build(&TetMesh::kuhn_box([6, 6, 6], h), &iso(d)).unwrap();
        let seven_point = h * h / (6.0 * d);
        assert!(op.dt_max <= seven_point * (1.0 + 1e-12), "{} against {seven_point}", op.dt_max);
        assert!(op.dt_max >= 0.5 * seven_point, "{} against {seven_point}", op.dt_max);
    }

    #[test]
    fn a_flat_element_is_refused_by_its_number() {
        let mut mesh = TetMesh::kuhn_box([2, 2, 2], 1.0);
        mesh.points_mm.push([0.5, 0.5, 0.0]);
        mesh.tets.push([0, 1, 2, 8]);
        mesh.regions.push(0);
        let err = TetOperator::build(&mesh, &iso(0.1)).unwrap_err();
        assert!(matches!(err, OperatorError::Degenerate { element: 6, .. }), "{err:?}");
        assert!(err.to_string().contains("element 6"), "{err}");
    }

    #[test]
    fn a_region_without_a_diffusivity_is_named() {
        let mut mesh = TetMesh::kuhn_box([2, 2, 2], 1.0);
        mesh.regions[3] = 7;
        let err = TetOperator::build(&mesh, &|r| (r == 0).then(|| Diffusivity::isotropic(0.1))).unwrap_err();
        assert_eq!(err, OperatorError::NoDiffusivity { region: 7, element: 3 });
    }
}

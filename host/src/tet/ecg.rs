//! The pseudo-ECG on a tetrahedral mesh: the grid's formula
//! ([`crate::events::ecg`]: phi = sum over the tissue of
//! (-grad V) . grad(1/r) dV, the constant taken as 1) with the P1
//! gradient of V on each element and 1/r's gradient at its centroid:
//!
//! ```text
//! phi(x0) = sum_e  V_e  grad(V)_e . (c_e - x0) / |c_e - x0|^3,   grad(V)_e = sum_a V_a grad(phi_a)
//! ```
//!
//! (V_e the element's volume, c_e its centroid, phi_a its barycentric
//! functions). It is linear in the nodal values, phi = sum_n W_n V_n, so
//! each electrode's lead field W is assembled once (in f64, element by
//! element in the mesh's order) and every sample is a dot product, summed
//! in a fixed order whatever the threads: the same number from the CPU
//! and the GPU solvers, which both sample from the state on the host.

use rayon::prelude::*;

use super::mesh::{TetMesh, Vec3, cross, dot, sub};
use super::operator::gradients;
use crate::events::ecg::{EcgError, Electrode, check_names};
use crate::scalar::Scalar;
use kernels_gpu::ecg::EcgProbe;

/// Nodes summed together before the partial sums are added in order.
const CHUNK: usize = 1 << 14;

/// The lead fields of a set of electrodes on one mesh.
#[derive(Clone, Debug, Default)]
pub struct LeadFields {
    electrodes: Vec<Vec3>,
    /// Per electrode, a weight per node.
    weights: Vec<Vec<f64>>,
}

impl LeadFields {
    /// The lead fields of `electrodes` (positions in mm) on `mesh`.
    pub fn new(mesh: &TetMesh, electrodes: &[Vec3]) -> Self {
        let weights = electrodes.iter().map(|&x0| lead_field(mesh, x0)).collect();
        Self { electrodes: electrodes.to_vec(), weights }
    }

    /// phi at each electrode for the nodal values `u`.
    pub fn sample<T: Scalar>(&self, u: &[T]) -> Vec<f64> {
        self.weights
            .iter()
            .map(|w| {
                assert_eq!(w.len(), u.len(), "one value per node");
                let partial: Vec<f64> = w
                    .par_chunks(CHUNK)
                    .zip(u.par_chunks(CHUNK))
                    .map(|(w, u)| w.iter().zip(u).fold(0.0, |acc, (w, v)| w.mul_add(v.to_f64(), acc)))
                    .collect();
                partial.into_iter().sum()
            })
            .collect()
    }

    /// phi at `probes`' electrodes, the lead fields (re)built for them
    /// when they are not these (a solver keeps one `LeadFields` and is
    /// asked for the same electrodes every sample).
    pub fn sample_at<T: Scalar>(&mut self, mesh: &TetMesh, probes: &[EcgProbe], u: &[T]) -> Vec<f64> {
        let electrodes: Vec<Vec3> = probes.iter().map(|p| p.electrode).collect();
        if electrodes != self.electrodes {
            *self = Self::new(mesh, &electrodes);
        }
        self.sample(u)
    }
}

/// W of the electrode at `x0`: element e adds V_e grad(phi_a) . g_e to
/// its node a, with g_e = (c_e - x0) / |c_e - x0|^3.
fn lead_field(mesh: &TetMesh, x0: Vec3) -> Vec<f64> {
    let mut w = vec![0.0f64; mesh.nodes()];
    for tet in &mesh.tets {
        let x = tet.map(|i| mesh.points_mm[i as usize]);
        // A degenerate element has no gradient (the operator refuses it).
        let Some(grads) = gradients(&x) else { continue };
        let volume = dot(sub(x[1], x[0]), cross(sub(x[2], x[0]), sub(x[3], x[0]))).abs() / 6.0;
        let centroid: Vec3 = std::array::from_fn(|k| (x[0][k] + x[1][k] + x[2][k] + x[3][k]) / 4.0);
        let r = sub(centroid, x0);
        let r2 = dot(r, r);
        let g = r.map(|v| v / (r2 * r2.sqrt()));
        for a in 0..4 {
            w[tet[a] as usize] += volume * dot(grads[a], g);
        }
    }
    w
}

/// Checks electrodes on a mesh: usable, distinct names, finite positions,
/// and no electrode closer than half the mean edge `h_mm` to an element's
/// centroid (where 1/r's gradient is taken).
pub fn check_electrodes_on_mesh(electrodes: &[Electrode], mesh: &TetMesh, h_mm: f64) -> Result<(), EcgError> {
    check_names(electrodes)?;
    for e in electrodes {
        let p = e.position_mm;
        let nearest = (0..mesh.elements())
            .into_par_iter()
            .map(|el| {
                let x = mesh.tets[el].map(|i| mesh.points_mm[i as usize]);
                let c: Vec3 = std::array::from_fn(|k| (x[0][k] + x[1][k] + x[2][k] + x[3][k]) / 4.0);
                let r = sub(c, p);
                (dot(r, r).sqrt(), el)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((distance, element)) = nearest.filter(|(d, _)| *d < 0.5 * h_mm) {
            return Err(EcgError::NearElement {
                name: e.name.clone(),
                position: p,
                element,
                distance,
                half_h: 0.5 * h_mm,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::ecg::pseudo_ecg_at;
    use kernels_gpu::GridDims;

    /// A smooth front V = tanh((x - 3) / 0.8) on the box [0, 6] x [0, 3] x
    /// [0, 2] mm at the nodes of a Kuhn mesh: the mesh's pseudo-ECG is
    /// within 1% of the integral itself (its analytic gradient, a midpoint
    /// rule of 0.025 mm cells), at electrodes off every axis of the box.
    /// (The grid's pseudo-ECG of the same nodes counts each boundary cell
    /// whole, half a cell beyond the nodes on every side: its box is
    /// larger, and its value is, by about the ratio of the cross-sections.)
    #[test]
    fn the_mesh_ecg_converges_to_the_integral() {
        let (n, h) = ([25usize, 13, 9], 0.25);
        let mesh = TetMesh::kuhn_box(n, h);
        let front = |x: f64| ((x - 3.0) / 0.8).tanh();
        let u: Vec<f64> = mesh.points_mm.iter().map(|p| front(p[0])).collect();
        for x0 in [[9.0, 1.5, 1.0], [-4.0, 2.0, 5.0], [4.5, 8.0, -2.0]] {
            let on_mesh = LeadFields::new(&mesh, &[x0]).sample(&u)[0];
            let cell = 0.025;
            let m = [240usize, 120, 80];
            let mut exact = 0.0;
            for k in 0..m[2] {
                for j in 0..m[1] {
                    for i in 0..m[0] {
                        let x = [(i as f64 + 0.5) * cell, (j as f64 + 0.5) * cell, (k as f64 + 0.5) * cell];
                        let gx = (1.0 - front(x[0]).powi(2)) / 0.8;
                        let r = sub(x, x0);
                        let r2 = dot(r, r);
                        exact += gx * r[0] / (r2 * r2.sqrt()) * cell.powi(3);
                    }
                }
            }
            let rel = (on_mesh - exact).abs() / exact.abs();
            assert!(rel < 0.01, "electrode {x0:?}: mesh {on_mesh}, integral {exact} ({:.2}%)", 100.0 * rel);
            // The grid's value, for the record of what differs and why.
            let dims = GridDims::new(n[0] as u32, n[1] as u32, n[2] as u32);
            let grid = pseudo_ecg_at(&u, dims, &[EcgProbe { electrode: x0, dx: h }])[0];
            assert_eq!(grid.signum(), exact.signum());
        }
    }

    #[test]
    fn a_front_moving_towards_an_electrode_deflects_upwards() {
        // Excited (high) behind a front in x, electrode ahead of it.
        let mesh = TetMesh::kuhn_box([11, 5, 5], 0.5);
        let u: Vec<f64> = mesh.points_mm.iter().map(|p| if p[0] < 2.0 { 1.0 } else { 0.0 }).collect();
        assert!(LeadFields::new(&mesh, &[[12.0, 1.0, 1.0]]).sample(&u)[0] > 0.0);
        assert!(LeadFields::new(&mesh, &[[-7.0, 1.0, 1.0]]).sample(&u)[0] < 0.0);
    }

    #[test]
    fn a_uniform_field_gives_nothing() {
        let mesh = TetMesh::kuhn_box([6, 5, 4], 0.5);
        let phi = LeadFields::new(&mesh, &[[5.0, 5.0, 5.0]]).sample(&vec![-80.0f32; mesh.nodes()])[0];
        assert!(phi.abs() < 1e-12, "{phi}");
    }

    #[test]
    fn electrodes_at_a_centroid_are_refused_with_the_element() {
        let mesh = TetMesh::kuhn_box([4, 4, 4], 1.0);
        let x = mesh.tets[5].map(|i| mesh.points_mm[i as usize]);
        let c: Vec3 = std::array::from_fn(|k| x.iter().map(|p| p[k]).sum::<f64>() / 4.0);
        let err = check_electrodes_on_mesh(&[Electrode::new("in", c)], &mesh, 1.0).unwrap_err();
        assert!(matches!(err, EcgError::NearElement { element: 5, .. }), "{err}");
        assert!(check_electrodes_on_mesh(&[Electrode::new("out", [10.0, 1.0, 1.0])], &mesh, 1.0).is_ok());
    }
}

//! The 19-point discretisation of div(D grad V) on a masked grid, as
//! per-cell neighbour weights, and its explicit stability limit.
//!
//! The operator is Xia et al. 2015, eq. 9 (sum over i, j of d/di (D_ij
//! dV/dj)), discretised in flux form on the cells of the grid (cell
//! centres at (i, j, k) h, each cell the cube of side h around its centre):
//!
//! ```text
//! dV_p/dt = (1/h) sum over the 6 faces of p  (n . D grad V)_face
//! ```
//!
//! where, on the face between p and its face neighbour q = p + s e_a
//! (s = +-1 along axis a), with D_face the mean of the tensors of p and q,
//!
//! ```text
//! (n . D grad V)_face = s D_face,aa s (V_q - V_p)/h  +  s sum_{b != a} D_face,ab (dV/db)_face
//! (dV/db)_face        = the mean over the columns p and q of the centred difference
//!                       (V_{c+e_b} - V_{c-e_b}) / 2h, one-sided where one of the two
//!                       points is not tissue, left out where neither is.
//! ```
//!
//! The normal derivative gives the 6 face neighbours, the transverse ones
//! the 12 edge neighbours (p + s e_a +- e_b): the usual 19-point stencil
//! with cross-derivative terms. No-flux (n . D grad V = 0) holds on every
//! face that does not join two tissue cells, at the faces of the box and
//! at the boundary of the tissue alike: such a face carries no flux and
//! its points are never used, so the mask and the boundary rule are in the
//! weights and nowhere else. Every derivative is a difference (its
//! coefficients sum to 0), so the update can be written as
//! `sum_k w_k (V_{n_k} - V_p)`: a uniform field stays uniform. The flux
//! through a face is the same, with opposite signs, from either side
//! (D_face and the transverse derivative use both columns symmetrically),
//! so sum_p dV_p/dt = 0 in exact arithmetic: pure diffusion conserves the
//! total, to rounding. With an isotropic D on the whole box this is the
//! 7-point stencil with cell-centred no-flux faces (the ghost value at a
//! box face equals the cell's own, where the 7-point path mirrors about
//! the boundary node).
//!
//! Stability of forward Euler: the eigenvalues of the operator lie in the
//! Gershgorin discs of centre -sum_j w_ij and radius sum_j |w_ij|; for
//! all of them, mapped by 1 + dt lambda, to stay in the unit disc,
//! dt <= 2 / max_i (sum_j w_ij + sum_j |w_ij|). For D isotropic in 3D this
//! is h^2 / (6 D), the 7-point limit. (Where weights are negative, which
//! strong anisotropy off the grid axes can give, the discs reach past 0
//! and no dt satisfies the disc criterion exactly; the limit above still
//! bounds the decaying modes, which is what refuses a too-large dt.)

use kernels_gpu::GridDims;
use kernels_gpu::Real;
use kernels_gpu::tissue::{DIRECTIONS, OFFSETS, direction_of};
use rayon::prelude::*;

use super::conductivity::{Frame, unit_frame};
use super::description::Tissue;
use super::error::TissueError;

/// Marks a cell outside the tissue in a box-to-compact index.
pub const NOT_TISSUE: u32 = u32::MAX;

/// The weights of a tissue, in f64, with the tissue's cell list: what the
/// solvers round to their precision and upload.
#[derive(Clone, Debug, PartialEq)]
pub struct Operator {
    pub dims: GridDims,
    pub dx: f64,
    /// Row-major box index of every tissue cell, ascending (tissue cell c
    /// is box cell `cells[c]`).
    pub cells: Vec<u32>,
    /// Label of every tissue cell.
    pub labels: Vec<u8>,
    /// Weight k (direction `OFFSETS[k]`) of tissue cell c at
    /// `k * cells.len() + c`, in 1/time unit.
    pub weights: Vec<f64>,
    /// The tissue cell in direction k of tissue cell c at
    /// `k * cells.len() + c`; c itself where the weight is 0.
    pub neighbours: Vec<u32>,
    /// The largest stable dt (Gershgorin) and the cell that sets it.
    pub dt_max: f64,
    pub limiting_cell: [u32; 3],
    /// Number of negative weights (a stencil that is not an M-matrix).
    pub negative_weights: usize,
}

/// Coordinates of box index `i`.
pub fn coords(dims: GridDims, i: usize) -> [u32; 3] {
    let (nx, ny) = (dims.nx as usize, dims.ny as usize);
    [(i % nx) as u32, ((i / nx) % ny) as u32, (i / (nx * ny)) as u32]
}

impl Operator {
    /// FNV-1a 64 of the grid, the tissue cells, their labels and weights
    /// (bit patterns): equal for the same tissue, spacing and
    /// conductivities, different (but for a 2^-64 chance) otherwise. A
    /// checkpoint keeps it so that a run is not resumed on another tissue.
    pub fn fingerprint(&self) -> u64 {
        let mut h = crate::hash::Fnv1a64::default();
        for n in [self.dims.nx, self.dims.ny, self.dims.nz] {
            h.update(&n.to_le_bytes());
        }
        h.update(&self.dx.to_le_bytes());
        for c in &self.cells {
            h.update(&c.to_le_bytes());
        }
        h.update(&self.labels);
        for w in &self.weights {
            h.update(&w.to_le_bytes());
        }
        h.finish()
    }
}

impl Operator {
    /// Builds the weights of `tissue` (checked first).
    pub fn build(tissue: &Tissue) -> Result<Self, TissueError> {
        tissue.check()?;
        let dims = tissue.dims;
        let cells: Vec<u32> =
            tissue.labels.iter().enumerate().filter(|(_, l)| **l != 0).map(|(i, _)| i as u32).collect();
        let n = cells.len();
        let mut compact_of = vec![NOT_TISSUE; dims.cells()];
        for (c, &i) in cells.iter().enumerate() {
            compact_of[i as usize] = c as u32;
        }
        let tensors: Vec<[[f64; 3]; 3]> = cells
            .par_iter()
            .map(|&i| {
                let i = i as usize;
                let (f, s) = tissue.fibres.at(i);
                let cell = coords(dims, i);
                let (f, s) = match unit_frame(f, s) {
                    Frame::NoFibre => return Err(TissueError::NoFibre { cell, value: f }),
                    Frame::BadSheet => return Err(TissueError::BadSheet { cell }),
                    Frame::Unit { fibre, sheet } => (fibre, sheet),
                };
                Ok(tissue.conductivity_of(tissue.labels[i]).tensor(f, s))
            })
            .collect::<Result<_, _>>()?;
        let h2 = tissue.dx * tissue.dx;
        let per_cell: Vec<[f64; DIRECTIONS]> =
            (0..n).into_par_iter().map(|c| cell_weights(dims, &compact_of, &tensors, h2, cells[c])).collect();
        let mut weights = vec![0.0; DIRECTIONS * n];
        let mut neighbours = vec![0u32; DIRECTIONS * n];
        let (mut dt_max, mut limiting, mut negative) = (f64::INFINITY, 0usize, 0usize);
        for (c, w) in per_cell.iter().enumerate() {
            let p = coords(dims, cells[c] as usize);
            let (mut sum, mut abs) = (0.0, 0.0);
            for k in 0..DIRECTIONS {
                weights[k * n + c] = w[k];
                neighbours[k * n + c] = if w[k] == 0.0 {
                    c as u32
                } else {
                    let o = OFFSETS[k];
                    let q = [p[0] as i64 + o[0] as i64, p[1] as i64 + o[1] as i64, p[2] as i64 + o[2] as i64];
                    compact_of[box_index(dims, q).expect("weights only join cells of the box")]
                };
                sum += w[k];
                abs += w[k].abs();
                negative += usize::from(w[k] < 0.0);
            }
            let bound = sum + abs;
            if bound > 0.0 && 2.0 / bound < dt_max {
                dt_max = 2.0 / bound;
                limiting = c;
            }
        }
        Ok(Self {
            dims,
            dx: tissue.dx,
            labels: cells.iter().map(|&i| tissue.labels[i as usize]).collect(),
            limiting_cell: coords(dims, cells.get(limiting).copied().unwrap_or(0) as usize),
            cells,
            weights,
            neighbours,
            dt_max,
            negative_weights: negative,
        })
    }

    /// Number of tissue cells.
    pub fn tissue_cells(&self) -> usize {
        self.cells.len()
    }

    /// Refuses a time step above the Gershgorin limit, naming the limit.
    pub fn check_dt(&self, dt: f64) -> Result<(), TissueError> {
        if dt > self.dt_max {
            return Err(TissueError::Unstable { dt, dt_max: self.dt_max, cell: self.limiting_cell });
        }
        Ok(())
    }

    /// The weights of the compact layout in precision `T` (rounded once).
    pub fn compact_weights<T: Real>(&self) -> Vec<T> {
        self.weights.par_iter().map(|&w| T::from_f64(w)).collect()
    }

    /// The weights of the dense layout: every box cell, 0 outside the
    /// tissue; the same rounded values as [`Operator::compact_weights`].
    pub fn dense_weights<T: Real>(&self) -> Vec<T> {
        let (n, cells) = (self.cells.len(), self.dims.cells());
        let mut dense = vec![T::ZERO; DIRECTIONS * cells];
        dense.par_chunks_mut(cells).enumerate().for_each(|(k, row)| {
            for (c, &i) in self.cells.iter().enumerate() {
                row[i as usize] = T::from_f64(self.weights[k * n + c]);
            }
        });
        dense
    }

    /// 1 for a tissue cell, 0 elsewhere, row-major over the box.
    pub fn mask(&self) -> Vec<u8> {
        let mut mask = vec![0u8; self.dims.cells()];
        for &i in &self.cells {
            mask[i as usize] = 1;
        }
        mask
    }

    /// The weights of tissue cell `c`, in the order of `OFFSETS`.
    pub fn weights_of(&self, c: usize) -> [f64; DIRECTIONS] {
        let n = self.cells.len();
        core::array::from_fn(|k| self.weights[k * n + c])
    }
}

/// Row-major index of `q`, if it is inside the box.
fn box_index(dims: GridDims, q: [i64; 3]) -> Option<usize> {
    let n = [dims.nx as i64, dims.ny as i64, dims.nz as i64];
    if (0..3).any(|a| q[a] < 0 || q[a] >= n[a]) {
        return None;
    }
    Some(dims.index(q[0] as u32, q[1] as u32, q[2] as u32))
}

/// The 18 weights of the tissue cell at box index `i` (module doc).
fn cell_weights(
    dims: GridDims,
    compact_of: &[u32],
    tensors: &[[[f64; 3]; 3]],
    h2: f64,
    i: u32,
) -> [f64; DIRECTIONS] {
    let p3 = coords(dims, i as usize);
    let p = [p3[0] as i64, p3[1] as i64, p3[2] as i64];
    let tissue = |q: [i64; 3]| -> Option<usize> {
        let c = compact_of[box_index(dims, q)?];
        (c != NOT_TISSUE).then_some(c as usize)
    };
    let dp = &tensors[tissue(p).expect("a tissue cell")];
    let mut w = [0.0; DIRECTIONS];
    let mut add = |q: [i64; 3], coef: f64| {
        let o = [(q[0] - p[0]) as i32, (q[1] - p[1]) as i32, (q[2] - p[2]) as i32];
        if o != [0, 0, 0] {
            w[direction_of(o).expect("a point of the 19-point neighbourhood")] += coef;
        }
    };
    let step = |c: [i64; 3], axis: usize, by: i64| {
        let mut q = c;
        q[axis] += by;
        q
    };
    for a in 0..3 {
        for s in [-1i64, 1] {
            let q = step(p, a, s);
            let Some(cq) = tissue(q) else { continue };
            let dq = &tensors[cq];
            let d = |x: usize, y: usize| 0.5 * (dp[x][y] + dq[x][y]);
            add(q, d(a, a) / h2);
            for b in (0..3).filter(|&b| b != a) {
                let dab = d(a, b);
                if dab == 0.0 {
                    continue;
                }
                // (point, coefficient) of the transverse derivative (times h)
                // on each column that has one.
                let mut terms: [([i64; 3], f64); 4] = [([0; 3], 0.0); 4];
                let (mut used, mut columns) = (0, 0);
                for col in [p, q] {
                    let (plus, minus) = (step(col, b, 1), step(col, b, -1));
                    let pair = match (tissue(plus).is_some(), tissue(minus).is_some()) {
                        (true, true) => [(plus, 0.5), (minus, -0.5)],
                        (true, false) => [(plus, 1.0), (col, -1.0)],
                        (false, true) => [(col, 1.0), (minus, -1.0)],
                        (false, false) => continue,
                    };
                    terms[used] = pair[0];
                    terms[used + 1] = pair[1];
                    used += 2;
                    columns += 1;
                }
                if columns == 0 {
                    continue;
                }
                let scale = s as f64 * dab / (h2 * columns as f64);
                for &(point, coef) in &terms[..used] {
                    add(point, scale * coef);
                }
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tissue::{Conductivity, Fibres};

    fn op(dims: GridDims, mask: &[bool], fibres: Fibres, c: Conductivity) -> Operator {
        Operator::build(&Tissue::from_mask(dims, 0.5, mask, fibres, c)).unwrap()
    }

    #[test]
    fn isotropic_interior_is_the_7_point_stencil_and_its_limit() {
        let dims = GridDims::new(5, 5, 5);
        let o = op(dims, &[true; 125], Fibres::ALONG_X, Conductivity::isotropic(2.0));
        let centre = o.cells.iter().position(|&i| i as usize == dims.index(2, 2, 2)).unwrap();
        let w = o.weights_of(centre);
        for (k, &wk) in w.iter().enumerate() {
            assert_eq!(wk, if k < 6 { 2.0 / 0.25 } else { 0.0 }, "direction {k}");
        }
        // h^2 / (6 D) = 0.25 / 12.
        assert!((o.dt_max - 0.25 / 12.0).abs() < 1e-15, "{}", o.dt_max);
        // A corner cell has three face neighbours and no weight outside the box.
        let w = o.weights_of(0);
        assert_eq!(w.iter().filter(|&&x| x != 0.0).count(), 3);
        assert_eq!(o.negative_weights, 0);
    }

    #[test]
    fn rotated_fibres_give_edge_weights_of_d_xy_over_2h2() {
        // f at 45 degrees in the xy plane: D_xy = (D_f - D_c) / 2.
        let r = std::f64::consts::FRAC_1_SQRT_2;
        let dims = GridDims::new(5, 5, 3);
        let c = Conductivity { fibre: 3.0, cross: 1.0, sheet: None };
        let o = op(dims, &[true; 75], Fibres::Constant { fibre: [r, r, 0.0], sheet: None }, c);
        let centre = o.cells.iter().position(|&i| i as usize == dims.index(2, 2, 1)).unwrap();
        let w = o.weights_of(centre);
        let dxy = 1.0 / 0.25; // (3 - 1)/2 / h^2
        let edge = |x: i32, y: i32| w[direction_of([x, y, 0]).unwrap()];
        assert!((edge(1, 1) - dxy / 2.0).abs() < 1e-12 && (edge(-1, -1) - dxy / 2.0).abs() < 1e-12);
        assert!((edge(1, -1) + dxy / 2.0).abs() < 1e-12 && (edge(-1, 1) + dxy / 2.0).abs() < 1e-12);
        // Faces: D_xx / h^2 = 2 / 0.25 (cross terms cancel for a constant tensor).
        assert!((w[0] - 8.0).abs() < 1e-12 && (w[3] - 8.0).abs() < 1e-12);
        assert!((w[4] - 4.0).abs() < 1e-12);
        assert!(o.negative_weights > 0);
        o.check_dt(o.dt_max).unwrap();
        let e = o.check_dt(o.dt_max * 1.01).unwrap_err().to_string();
        assert!(e.contains("--dt") && e.contains("Gershgorin"), "{e}");
    }

    #[test]
    fn every_flux_is_matched_by_its_opposite() {
        // Column sums of the operator vanish (conservation) for an
        // irregular mask and per-cell fibres, up to rounding.
        let dims = GridDims::new(7, 6, 5);
        let mask: Vec<bool> = (0..dims.cells()).map(|i| (i * 7919 + 13) % 11 > 2 || i % 3 == 0).collect();
        let fibre: Vec<[f32; 3]> =
            (0..dims.cells()).map(|i| [1.0, (i % 5) as f32 * 0.3, (i % 7) as f32 * -0.2]).collect();
        let c = Conductivity { fibre: 2.0, cross: 0.3, sheet: None };
        let o = op(dims, &mask, Fibres::PerCell { fibre, sheet: None }, c);
        let n = o.tissue_cells();
        let mut column = vec![0.0f64; n];
        let mut scale = 0.0f64;
        for cell in 0..n {
            for k in 0..DIRECTIONS {
                let w = o.weights[k * n + cell];
                column[o.neighbours[k * n + cell] as usize] += w;
                column[cell] -= w;
                scale = scale.max(w.abs());
            }
        }
        let worst = column.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        assert!(worst < 1e-12 * scale, "a column sums to {worst}");
        assert!(o.weights.iter().any(|&w| w != 0.0));
    }
}

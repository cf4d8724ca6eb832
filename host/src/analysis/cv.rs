//! Conduction velocity from an activation map, per cell: speed and
//! direction of the wavefront.
//!
//! The method is the local polynomial fit of Bayly et al. (1998, "Estimation
//! of conduction velocity vector fields from epicardial mapping data", IEEE
//! Trans. Biomed. Eng. 45:563-571): around each cell, the activation times
//! T of its neighbourhood (a cube of `radius` cells on each side, along the
//! axes the grid has) are fitted by least squares with a quadratic
//! polynomial in the offsets, T = c0 + g . x + x^T Q x; the gradient at the
//! cell is g, and the velocity vector is g / |g|^2 (Bayly eq. 5: speed
//! 1 / |g| along g / |g|). A quadratic rather than a plane keeps the
//! gradient of a curved front unbiased where the window is cut by the
//! grid's edge or by cells without a time; where too few neighbours remain
//! for it (a corner), a plane is fitted, and with fewer still the cell has
//! no velocity. In a full window the fitted gradient is the central
//! difference averaged over the window, so a planar front's speed is exact
//! up to the rounding of the times.
//!
//! Cells that never activated or lie outside the tissue (NaN in the map)
//! are left out of every fit and get NaN, and so does a cell whose fitted
//! gradient is zero (all its neighbours activated at once: the stimulated
//! region). With `max_dt`, neighbours activated more than that before or
//! after the cell are left out too (Bayly's time window): another wave's
//! front, or the far side of a line of block.
//!
//! 1D cables, 2D sheets (nz = 1) and 3D grids are fitted along the axes of
//! more than one cell; the direction's other components are 0.

use ndarray::Array3;
use rayon::prelude::*;

/// How the neighbourhood of each cell is fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CvOptions {
    /// Half-width of the fitting window, cells (1: 3 x 3 x 3).
    pub radius: usize,
    /// Neighbours whose time differs from the cell's by more than this
    /// (the map's time unit) are left out; `None` keeps all.
    pub max_dt: Option<f64>,
}

impl Default for CvOptions {
    fn default() -> Self {
        Self { radius: 1, max_dt: None }
    }
}

/// Conduction velocity per cell, row-major (z, y, x) as the map.
#[derive(Clone, Debug, PartialEq)]
pub struct CvMap {
    /// (nz, ny, nx).
    pub shape: [usize; 3],
    /// Speed in space unit per time unit of the inputs (mm/ms = m/s);
    /// NaN where there is none.
    pub speed: Vec<f64>,
    /// Unit direction of propagation, x, y and z components (NaN where
    /// there is no speed).
    pub direction: [Vec<f64>; 3],
}

/// The conduction velocity of every cell of `activation` (times, NaN for
/// none), cells `dx` apart.
pub fn conduction_velocity(activation: &Array3<f64>, dx: f64, options: CvOptions) -> CvMap {
    let (nz, ny, nx) = activation.dim();
    let n = [nx, ny, nz];
    let axes: Vec<usize> = (0..3).filter(|&a| n[a] > 1).collect();
    let r = options.radius.max(1) as isize;
    // Offsets of the window along the grid's axes, (x, y, z) in cells.
    let span = |a: usize| if n[a] > 1 { -r..=r } else { 0..=0 };
    let mut offsets = Vec::new();
    for oz in span(2) {
        for oy in span(1) {
            for ox in span(0) {
                offsets.push([ox, oy, oz]);
            }
        }
    }
    let times = activation.as_standard_layout();
    let t = times.as_slice().expect("standard layout");
    let cells = nx * ny * nz;
    let fits: Vec<[f64; 4]> = (0..cells)
        .into_par_iter()
        .map(|i| {
            let (x, y, z) = (i % nx, (i / nx) % ny, i / (nx * ny));
            let t0 = t[i];
            if !t0.is_finite() {
                return [f64::NAN; 4];
            }
            let mut samples: Vec<([f64; 3], f64)> = Vec::with_capacity(offsets.len());
            for o in &offsets {
                let (px, py, pz) = (x as isize + o[0], y as isize + o[1], z as isize + o[2]);
                if px < 0 || py < 0 || pz < 0 || px >= nx as isize || py >= ny as isize || pz >= nz as isize {
                    continue;
                }
                let tn = t[(pz as usize * ny + py as usize) * nx + px as usize];
                if !tn.is_finite() || options.max_dt.is_some_and(|w| (tn - t0).abs() > w) {
                    continue;
                }
                samples.push(([o[0] as f64, o[1] as f64, o[2] as f64], tn - t0));
            }
            match gradient(&samples, &axes) {
                Some(g_cells) => velocity(g_cells.map(|g| g / dx)),
                None => [f64::NAN; 4],
            }
        })
        .collect();
    let column = |k: usize| fits.iter().map(|f| f[k]).collect::<Vec<f64>>();
    CvMap { shape: [nz, ny, nx], speed: column(0), direction: [column(1), column(2), column(3)] }
}

/// Speed and unit direction (x, y, z) of the gradient `g` of the
/// activation time: 1 / |g| along g / |g| (Bayly et al. 1998, eq. 5).
fn velocity(g: [f64; 3]) -> [f64; 4] {
    let norm = (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt();
    if !(norm > 0.0 && norm.is_finite()) {
        return [f64::NAN; 4];
    }
    [1.0 / norm, g[0] / norm, g[1] / norm, g[2] / norm]
}

/// The gradient (per cell of offset, x, y, z; 0 along axes not in `axes`)
/// at offset 0 of the least-squares quadratic through `samples` (offset,
/// value), or of a plane where the quadratic is not determined; `None`
/// where neither is.
fn gradient(samples: &[([f64; 3], f64)], axes: &[usize]) -> Option<[f64; 3]> {
    let k = axes.len();
    if k == 0 {
        return None;
    }
    // Basis: 1, the linear terms, then the products x_a x_b (a <= b).
    let mut quadratic: Vec<(usize, usize)> = Vec::new();
    for (i, &a) in axes.iter().enumerate() {
        for &b in &axes[i..] {
            quadratic.push((a, b));
        }
    }
    let basis_of = |o: &[f64; 3], with_quadratic: bool| -> Vec<f64> {
        let mut row = vec![1.0];
        row.extend(axes.iter().map(|&a| o[a]));
        if with_quadratic {
            row.extend(quadratic.iter().map(|&(a, b)| o[a] * o[b]));
        }
        row
    };
    for with_quadratic in [true, false] {
        let m = 1 + k + if with_quadratic { quadratic.len() } else { 0 };
        if samples.len() < m {
            continue;
        }
        let mut normal = vec![0.0; m * m];
        let mut rhs = vec![0.0; m];
        for (o, v) in samples {
            let row = basis_of(o, with_quadratic);
            for p in 0..m {
                rhs[p] += row[p] * v;
                for q in 0..=p {
                    normal[p * m + q] += row[p] * row[q];
                }
            }
        }
        if let Some(c) = solve_spd(&mut normal, &mut rhs, m) {
            let mut g = [0.0; 3];
            for (j, &a) in axes.iter().enumerate() {
                g[a] = c[1 + j];
            }
            return Some(g);
        }
    }
    None
}

/// Solves `a c = b` for a symmetric positive definite `a` (m x m, lower
/// triangle filled) by Cholesky factorisation in place; `None` when `a` is
/// singular to within rounding (the window does not determine the fit).
fn solve_spd(a: &mut [f64], b: &mut [f64], m: usize) -> Option<Vec<f64>> {
    let scale = (0..m).map(|i| a[i * m + i]).fold(0.0, f64::max);
    for j in 0..m {
        let mut d = a[j * m + j];
        for k in 0..j {
            d -= a[j * m + k] * a[j * m + k];
        }
        if d.is_nan() || d <= 1e-10 * scale {
            return None;
        }
        let d = d.sqrt();
        a[j * m + j] = d;
        for i in j + 1..m {
            let mut s = a[i * m + j];
            for k in 0..j {
                s -= a[i * m + k] * a[j * m + k];
            }
            a[i * m + j] = s / d;
        }
    }
    // L y = b, then L^T c = y.
    for i in 0..m {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * m + k] * b[k];
        }
        b[i] = s / a[i * m + i];
    }
    for i in (0..m).rev() {
        let mut s = b[i];
        for k in i + 1..m {
            s -= a[k * m + i] * b[k];
        }
        b[i] = s / a[i * m + i];
    }
    Some(b.to_vec())
}

/// Conduction velocity between two cells on a line: their distance over
/// the difference of their activation times (the two-point estimate).
pub fn two_point(distance: f64, t_first: f64, t_second: f64) -> f64 {
    distance / (t_second - t_first)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells at least `margin` cells from every edge of the grid's axes.
    fn interior(shape: [usize; 3], margin: usize) -> impl Iterator<Item = usize> {
        let [nz, ny, nx] = shape;
        let inside = move |c: usize, n: usize| n == 1 || (c >= margin && c + margin < n);
        (0..nz * ny * nx).filter(move |&i| {
            let (x, y, z) = (i % nx, (i / nx) % ny, i / (nx * ny));
            inside(x, nx) && inside(y, ny) && inside(z, nz)
        })
    }

    /// Asserts every interior cell's speed within `rel` of `c` and its
    /// direction within `angle` radians of `dir`; returns the largest
    /// relative speed error.
    fn check(map: &CvMap, margin: usize, c: f64, dir: [f64; 3], rel: f64, angle: f64) -> f64 {
        let mut worst: f64 = 0.0;
        for i in interior(map.shape, margin) {
            let e = (map.speed[i] - c).abs() / c;
            assert!(e <= rel, "cell {i}: speed {} against {c}: error {e:.3e} > {rel:.1e}", map.speed[i]);
            let cos: f64 = (0..3).map(|k| map.direction[k][i] * dir[k]).sum();
            assert!(cos.clamp(-1.0, 1.0).acos() <= angle, "cell {i}: direction off by {} rad", cos.acos());
            worst = worst.max(e);
        }
        worst
    }

    #[test]
    fn a_planar_wave_has_its_speed_everywhere_in_a_cable_a_sheet_and_a_volume() {
        let (c, dx) = (0.5, 0.25); // mm/ms, mm
        // Along x in a cable.
        let cable = Array3::from_shape_fn((1, 1, 40), |(_, _, x)| x as f64 * dx / c);
        let map = conduction_velocity(&cable, dx, CvOptions::default());
        check(&map, 0, c, [1.0, 0.0, 0.0], 1e-12, 1e-6);
        // Oblique in a sheet, 30 degrees, at every cell, corners included.
        let (ux, uy) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
        let sheet = Array3::from_shape_fn((1, 25, 31), |(_, y, x)| (x as f64 * ux + y as f64 * uy) * dx / c);
        let map = conduction_velocity(&sheet, dx, CvOptions::default());
        check(&map, 0, c, [ux, uy, 0.0], 1e-9, 1e-6);
        // Oblique in a volume, with the times rounded to f32 as a run's map holds them.
        let d = [1.0, 2.0, -2.0].map(|v: f64| v / 3.0);
        let volume = Array3::from_shape_fn((9, 10, 11), |(z, y, x)| {
            let t = 20.0 + (x as f64 * d[0] + y as f64 * d[1] + z as f64 * d[2]) * dx / c;
            t as f32 as f64
        });
        let map = conduction_velocity(&volume, dx, CvOptions::default());
        let worst = check(&map, 0, c, d, 1e-4, 1e-3);
        assert!(worst > 0.0, "rounded times are not exact");
    }

    #[test]
    fn a_circular_wave_has_its_speed_away_from_its_centre() {
        // T = r / c around (20.3, 18.7): curvature, which a plane fit
        // biases at the window's edge cut and the quadratic fit does not.
        let (c, dx) = (0.6, 0.2);
        let centre = (20.3, 18.7);
        let r = |x: usize, y: usize| ((x as f64 - centre.0).powi(2) + (y as f64 - centre.1).powi(2)).sqrt();
        let field = Array3::from_shape_fn((1, 40, 44), |(_, y, x)| r(x, y) * dx / c);
        let map = conduction_velocity(&field, dx, CvOptions { radius: 2, max_dt: None });
        let mut worst: f64 = 0.0;
        for i in 0..map.speed.len() {
            let (x, y) = (i % 44, i / 44);
            if r(x, y) >= 8.0 {
                worst = worst.max((map.speed[i] - c).abs() / c);
                let (ex, ey) = ((x as f64 - centre.0) / r(x, y), (y as f64 - centre.1) / r(x, y));
                let cos = map.direction[0][i] * ex + map.direction[1][i] * ey;
                assert!(cos > 0.999, "cell ({x}, {y}): direction cos {cos}");
            }
        }
        assert!(worst < 0.02, "largest error {worst:.4} of the speed at r >= 8 cells");
    }

    #[test]
    fn cells_without_a_time_and_a_stimulated_block_have_no_speed() {
        let dx = 1.0;
        let mut field = Array3::from_shape_fn((1, 12, 12), |(_, _, x)| x as f64);
        // Outside the tissue and never activated: NaN; their neighbours still fit.
        for y in 0..12 {
            field[[0, y, 6]] = f64::NAN;
        }
        // A stimulated block, all at t = 0: no gradient inside it.
        for y in 0..12 {
            for x in 0..4 {
                field[[0, y, x]] = 0.0;
            }
        }
        let map = conduction_velocity(&field, dx, CvOptions::default());
        let at = |x: usize, y: usize| map.speed[y * 12 + x];
        assert!(at(6, 5).is_nan() && map.direction[0][5 * 12 + 6].is_nan());
        assert!(at(1, 5).is_nan(), "inside the block: {}", at(1, 5));
        assert!((at(5, 5) - 1.0).abs() < 1e-9 && (at(8, 5) - 1.0).abs() < 1e-9, "{} {}", at(5, 5), at(8, 5));
        // A lone cell with no neighbour has none either.
        let lone =
            Array3::from_shape_fn((1, 3, 3), |(_, y, x)| if (x, y) == (1, 1) { 2.0 } else { f64::NAN });
        assert!(conduction_velocity(&lone, dx, CvOptions::default()).speed.iter().all(|s| s.is_nan()));
    }

    #[test]
    fn a_time_window_leaves_another_front_out() {
        // Two fronts meet at x = 10 from opposite sides: with the window
        // the cells next to the collision keep their own front's speed.
        let field =
            Array3::from_shape_fn(
                (1, 1, 21),
                |(_, _, x)| {
                    if x < 10 { x as f64 } else { 100.0 + (20 - x) as f64 }
                },
            );
        let map = conduction_velocity(&field, 1.0, CvOptions { radius: 1, max_dt: Some(5.0) });
        assert!((map.speed[9] - 1.0).abs() < 1e-12 && (map.speed[11] - 1.0).abs() < 1e-12);
        assert!(map.direction[0][9] > 0.0 && map.direction[0][11] < 0.0);
        assert_eq!(two_point(10.0, 2.0, 6.0), 2.5);
    }
}

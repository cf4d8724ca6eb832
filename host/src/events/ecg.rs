//! Pseudo-ECG: the potential that point electrodes outside (or inside) the
//! tissue would record, computed from variable 0 on the CPU, and its CSV
//! trace.
//!
//! The formula, its sign (a front approaching an electrode gives a positive
//! deflection), the constant taken as 1 and the units are those of
//! [`kernels_gpu::ecg`], whose per-cell term this sums: phi is
//! `sum over cells of (-grad V) . grad(1/r) dx^d` in the units of
//! variable 0 times `space unit^(d - 3)`, for `d` axes of more than one
//! cell. Positions are in the model's space unit (mm for the models in mm,
//! space units for the dimensionless ones), with cell (i, j, k) at
//! (i dx, j dx, k dx).
//!
//! Summation order, so that results do not depend on the number of
//! threads: each x-row (fixed y, z) is summed from x = 0 upwards, the rows
//! in parallel; the row sums are then added one after another in row-major
//! order (z outer, y inner); the total is multiplied by
//! [`ecg_scale`]. A GPU reduction in another order agrees to f64
//! rounding, not bit for bit.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io;
use std::path::Path;

use kernels_gpu::GridDims;
use kernels_gpu::ecg::{EcgProbe, ecg_cell_term, ecg_scale};
use rayon::prelude::*;
use thiserror::Error;

use crate::io::write_atomic;
use crate::scalar::Scalar;
use crate::units::UnitTags;

/// Name of the trace file in a run's output directory.
pub const ECG_FILE: &str = "ecg.csv";

/// A point electrode. The name labels its column in `ecg.csv`. In a run
/// configuration an `[[electrode]]` table: `name = "V1"`, `position = [x, y, z]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Electrode {
    pub name: String,
    /// Position (x, y, z) in the model's space unit (mm for the models in
    /// mm, despite the suffix, space units for the dimensionless ones), in
    /// the frame where cell (i, j, k) sits at (i dx, j dx, k dx). For a
    /// sheet of nz = 1 the tissue is the plane z = 0.
    #[serde(rename = "position")]
    pub position_mm: [f64; 3],
}

impl Electrode {
    pub fn new(name: impl Into<String>, position_mm: [f64; 3]) -> Self {
        Self { name: name.into(), position_mm }
    }
}

/// Why electrodes were refused. Each message names the electrode and the fix.
#[derive(Debug, Error, PartialEq)]
pub enum EcgError {
    #[error(
        "electrode \"{name}\" at {position:?} is {distance:.4} from the centre of cell {cell:?}, closer than \
         half a cell (dx / 2 = {half_dx:.4}), where 1/r is singular; move it at least half a cell away from \
         every cell centre, for example outside the tissue"
    )]
    TooClose { name: String, position: [f64; 3], cell: [u32; 3], distance: f64, half_dx: f64 },
    #[error(
        "electrode \"{name}\" at {position:?} is {distance:.4} mm from the centroid of element {element}, \
         closer than half the mesh's mean edge ({half_h:.4} mm), where 1/r is singular; move it at least that \
         far from the tissue's elements, for example outside the tissue"
    )]
    NearElement { name: String, position: [f64; 3], element: usize, distance: f64, half_h: f64 },
    #[error(
        "electrode \"{name}\" has the position {position:?}; give three finite coordinates in the model's \
         space unit"
    )]
    NotFinite { name: String, position: [f64; 3] },
    #[error(
        "electrode name {name:?} cannot label a column of {ECG_FILE}; use a non-empty name without commas, \
         quotes or line breaks"
    )]
    BadName { name: String },
    #[error(
        "two electrodes are named \"{name}\"; give each its own name (names label the columns of {ECG_FILE})"
    )]
    DuplicateName { name: String },
}

/// Checks what electrodes need on any mesh: usable, distinct names (they
/// label the columns of the trace) and finite positions.
pub fn check_names(electrodes: &[Electrode]) -> Result<(), EcgError> {
    let mut seen = HashSet::new();
    for e in electrodes {
        if e.name.is_empty() || e.name.contains([',', '"', '\n', '\r']) {
            return Err(EcgError::BadName { name: e.name.clone() });
        }
        if !seen.insert(e.name.as_str()) {
            return Err(EcgError::DuplicateName { name: e.name.clone() });
        }
        let p = e.position_mm;
        if p.iter().any(|c| !c.is_finite()) {
            return Err(EcgError::NotFinite { name: e.name.clone(), position: p });
        }
    }
    Ok(())
}

/// Checks electrodes against a grid of spacing `dx`: finite positions,
/// at least half a cell from every cell centre, and usable, distinct
/// names. [`pseudo_ecg`] calls it; call it early to refuse a
/// configuration before a run starts.
pub fn check_electrodes(electrodes: &[Electrode], dims: GridDims, dx: f64) -> Result<(), EcgError> {
    check_electrodes_in(electrodes, dims, dx, None)
}

/// As [`check_electrodes`] for a tissue in the box `dims`: only the
/// centres of tissue cells (`mask` not 0) are too close, so an electrode
/// may lie in a cavity or in the bath around the tissue.
pub fn check_electrodes_in(
    electrodes: &[Electrode],
    dims: GridDims,
    dx: f64,
    mask: Option<&[u8]>,
) -> Result<(), EcgError> {
    check_names(electrodes)?;
    for e in electrodes {
        let p = e.position_mm;
        // The cells form a lattice, so the nearest centre is the nearest
        // node along each axis separately; a centre closer than dx / 2 is
        // that nearest one.
        let n = [dims.nx, dims.ny, dims.nz];
        let mut cell = [0u32; 3];
        let mut d2 = 0.0;
        for a in 0..3 {
            let k = (p[a] / dx).round().clamp(0.0, (n[a].max(1) - 1) as f64);
            cell[a] = k as u32;
            let d = p[a] - k * dx;
            d2 += d * d;
        }
        let distance = d2.sqrt();
        let tissue = mask.is_none_or(|m| m[dims.index(cell[0], cell[1], cell[2])] != 0);
        if distance < 0.5 * dx && tissue {
            return Err(EcgError::TooClose {
                name: e.name.clone(),
                position: p,
                cell,
                distance,
                half_dx: 0.5 * dx,
            });
        }
    }
    Ok(())
}

/// The pseudo-ECG of the field `u` (variable 0, row-major, `dims.cells()`
/// values) at each electrode, in the electrodes' order. See the module
/// docs for the formula, units and summation order.
///
/// # Panics
/// If `u` does not hold `dims.cells()` values (a programming error).
pub fn pseudo_ecg<T: Scalar>(
    u: &[T],
    dims: GridDims,
    dx: f64,
    electrodes: &[Electrode],
) -> Result<Vec<f64>, EcgError> {
    check_electrodes(electrodes, dims, dx)?;
    Ok(pseudo_ecg_at(u, dims, &probes(electrodes, dx)))
}

/// The kernels' form of the electrodes.
pub fn probes(electrodes: &[Electrode], dx: f64) -> Vec<EcgProbe> {
    electrodes.iter().map(|e| EcgProbe { electrode: e.position_mm, dx }).collect()
}

/// [`pseudo_ecg`] at checked probes (what the CPU solver computes).
///
/// # Panics
/// If `u` does not hold `dims.cells()` values (a programming error).
pub fn pseudo_ecg_at<T: Scalar>(u: &[T], dims: GridDims, probes: &[EcgProbe]) -> Vec<f64> {
    pseudo_ecg_in(u, dims, None, probes)
}

/// The pseudo-ECG of a tissue in the box `dims` (`mask` not 0 on its
/// cells; `None`: the whole box): the sum runs over the tissue's cells,
/// and the gradient of each follows the no-flux rule at the tissue's
/// boundary as at the box's faces: a neighbour outside the tissue takes
/// the value of the neighbour opposite (mirrored), or the cell's own where
/// that one is outside too, so no current crosses the boundary. With the
/// whole box this is the box's rule
/// ([`kernels_gpu::stencil::mirror_neighbours`]) and the same
/// bits.
pub fn pseudo_ecg_in<T: Scalar>(
    u: &[T],
    dims: GridDims,
    mask: Option<&[u8]>,
    probes: &[EcgProbe],
) -> Vec<f64> {
    assert_eq!(u.len(), dims.cells(), "the field has one value per cell");
    assert!(mask.is_none_or(|m| m.len() == dims.cells()), "the mask has one value per cell");
    let (nx, ny) = (dims.nx, dims.ny);
    let rows = dims.ny as usize * dims.nz as usize;
    let tissue = |i: usize| mask.is_none_or(|m| m[i] != 0);
    let row_sums: Vec<Vec<f64>> = (0..rows)
        .into_par_iter()
        .map(|row| {
            let (y, z) = ((row % ny as usize) as u32, (row / ny as usize) as u32);
            let mut sums = vec![0.0f64; probes.len()];
            for x in 0..nx {
                let i = dims.index(x, y, z);
                if !tissue(i) {
                    continue;
                }
                // The neighbours along one axis: (minus, plus), each the
                // opposite one where it is outside the box or the tissue.
                let pair = |minus: Option<usize>, plus: Option<usize>| {
                    let inside = |j: Option<usize>| j.filter(|&j| tissue(j));
                    let (m, p) = (inside(minus), inside(plus));
                    (u[m.or(p).unwrap_or(i)], u[p.or(m).unwrap_or(i)])
                };
                let step = |c: u32, n: u32, stride: usize| {
                    let minus = (c > 0).then(|| i - stride);
                    let plus = (c + 1 < n).then(|| i + stride);
                    pair(minus, plus)
                };
                let slice = nx as usize * ny as usize;
                let (xm, xp) = step(x, nx, 1);
                let (ym, yp) = step(y, ny, nx as usize);
                let (zm, zp) = step(z, dims.nz, slice);
                for (sum, probe) in sums.iter_mut().zip(probes) {
                    *sum += ecg_cell_term(xm, xp, ym, yp, zm, zp, x, y, z, probe);
                }
            }
            sums
        })
        .collect();
    let mut total = vec![0.0f64; probes.len()];
    for sums in &row_sums {
        for (t, s) in total.iter_mut().zip(sums) {
            *t += s;
        }
    }
    let scale = probes.first().map_or(0.0, |p| ecg_scale(p.dx, dims.axes()));
    total.into_iter().map(|t| t * scale).collect()
}

/// The pseudo-ECG over a run: one row per sample, written as `ecg.csv`
/// with the header `t_ms,<name1>,<name2>,...` (the time in the model's
/// unit: `t_tu` for a model in time units).
#[derive(Clone, Debug, PartialEq)]
pub struct EcgTrace {
    electrodes: Vec<Electrode>,
    rows: Vec<(f64, Vec<f64>)>,
    units: UnitTags,
}

impl EcgTrace {
    /// An empty trace for `electrodes` (check them first with
    /// [`check_electrodes`], or let [`EcgTrace::record`] do it), its
    /// times in `units`.
    pub fn new(electrodes: &[Electrode], units: UnitTags) -> Self {
        Self { electrodes: electrodes.to_vec(), rows: Vec::new(), units }
    }

    /// The name of the time column.
    fn time_column(units: UnitTags) -> String {
        format!("t_{}", units.time)
    }

    pub fn electrodes(&self) -> &[Electrode] {
        &self.electrodes
    }

    /// Computes the pseudo-ECG of `u` on the CPU and appends it at `t_ms`.
    pub fn record<T: Scalar>(&mut self, t_ms: f64, u: &[T], dims: GridDims, dx: f64) -> Result<(), EcgError> {
        let values = pseudo_ecg(u, dims, dx, &self.electrodes)?;
        self.rows.push((t_ms, values));
        Ok(())
    }

    /// Appends values computed elsewhere (a GPU reduction), one per
    /// electrode in order.
    ///
    /// # Panics
    /// If there is not one value per electrode (a programming error).
    pub fn push(&mut self, t_ms: f64, values: Vec<f64>) {
        assert_eq!(values.len(), self.electrodes.len(), "one value per electrode");
        self.rows.push((t_ms, values));
    }

    /// The samples so far: (t_ms, one value per electrode).
    pub fn rows(&self) -> &[(f64, Vec<f64>)] {
        &self.rows
    }

    /// The CSV text: times as Rust prints them (shortest exact decimal),
    /// values in exponent notation (shortest exact, e.g. `-1.25e-3`), both
    /// read back bit for bit by any CSV reader.
    pub fn to_csv(&self) -> String {
        let mut out = Self::time_column(self.units);
        for e in &self.electrodes {
            out.push(',');
            out.push_str(&e.name);
        }
        out.push('\n');
        for (t_ms, values) in &self.rows {
            let _ = write!(out, "{t_ms}");
            for v in values {
                let _ = write!(out, ",{v:e}");
            }
            out.push('\n');
        }
        out
    }

    /// The trace of `ecg.csv` text written by [`EcgTrace::to_csv`] for
    /// these electrodes, up to and including time `until_ms` (a resumed
    /// run keeps the samples its checkpoint had taken). `None` if the text
    /// is not such a trace.
    /// A trace written before headers named the model's units says `t_ms`
    /// whatever they were, and is read too.
    pub fn from_csv(electrodes: &[Electrode], text: &str, until_ms: f64, units: UnitTags) -> Option<Self> {
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next()?.split(',').collect();
        let names: Vec<&str> = electrodes.iter().map(|e| e.name.as_str()).collect();
        let time = header.first()?;
        if (*time != Self::time_column(units) && *time != "t_ms") || header[1..] != names[..] {
            return None;
        }
        let mut trace = Self::new(electrodes, units);
        for line in lines {
            let fields: Vec<f64> = line.split(',').map(str::parse).collect::<Result<_, _>>().ok()?;
            if fields.len() != names.len() + 1 {
                return None;
            }
            if fields[0] <= until_ms {
                trace.rows.push((fields[0], fields[1..].to_vec()));
            }
        }
        Some(trace)
    }

    /// Writes the trace to `path` (a run's `ecg.csv`) atomically, whole,
    /// so it can be called again as the run goes on.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_atomic(path, self.to_csv().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A smooth front along `axis` at `front` (space units): V = 1 behind
    /// it (lower coordinates), 0 ahead, width 1.5 space units.
    fn front(dims: GridDims, dx: f64, axis: usize, front: f64) -> Vec<f64> {
        let mut u = Vec::with_capacity(dims.cells());
        for z in 0..dims.nz {
            for y in 0..dims.ny {
                for x in 0..dims.nx {
                    let s = [x, y, z][axis] as f64 * dx;
                    u.push(0.5 * (1.0 - ((s - front) / 1.5).tanh()));
                }
            }
        }
        u
    }

    /// An electrode on the centre line of `dims`, at `along` on `axis`.
    fn on_axis(name: &str, dims: GridDims, dx: f64, axis: usize, along: f64) -> Electrode {
        let n = [dims.nx, dims.ny, dims.nz];
        let mut p: [f64; 3] = std::array::from_fn(|a| (n[a] - 1) as f64 * dx / 2.0);
        p[axis] = along;
        Electrode::new(name, p)
    }

    /// A tissue inside a larger box, whatever the box holds outside it,
    /// gives the pseudo-ECG of the same tissue as a box of its own (the
    /// electrode moved with it): the sum and the no-flux gradient follow
    /// the tissue's boundary; electrodes may lie outside the tissue.
    #[test]
    fn a_tissue_in_a_box_gives_the_ecg_of_the_tissue_alone() {
        let dx = 0.5;
        let alone = GridDims::new(10, 8, 1);
        let u = front(alone, dx, 0, 2.0);
        let e = Electrode::new("E", [8.0, 1.7, 3.0]);
        let want = pseudo_ecg_at(&u, alone, &probes(std::slice::from_ref(&e), dx))[0];
        let (big, m) = (GridDims::new(14, 12, 1), 2usize);
        let mut field = vec![f64::NAN; big.cells()];
        let mut mask = vec![0u8; big.cells()];
        for y in 0..8 {
            for x in 0..10 {
                field[(y + m) * 14 + x + m] = u[y * 10 + x];
                mask[(y + m) * 14 + x + m] = 1;
            }
        }
        let shift = m as f64 * dx;
        let moved = Electrode::new("E", [8.0 + shift, 1.7 + shift, 3.0]);
        let got = pseudo_ecg_in(&field, big, Some(&mask), &probes(std::slice::from_ref(&moved), dx))[0];
        assert!(want.abs() > 1e-3 && (got - want).abs() <= 1e-12 * want.abs(), "{got} against {want}");
        // The whole box as the mask is the box's own sum, bit for bit.
        let all = vec![1u8; alone.cells()];
        let whole = pseudo_ecg_in(&u, alone, Some(&all), &probes(std::slice::from_ref(&e), dx))[0];
        assert_eq!(whole.to_bits(), want.to_bits());
        // An electrode in the box but off the tissue is accepted; on a
        // tissue cell it is not.
        let off = Electrode::new("E", [0.0, 0.0, 0.0]);
        assert!(check_electrodes_in(std::slice::from_ref(&off), big, dx, Some(&mask)).is_ok());
        assert!(check_electrodes(std::slice::from_ref(&off), big, dx).is_err());
        let on = Electrode::new("E", [shift, shift, 0.0]);
        assert!(check_electrodes_in(std::slice::from_ref(&on), big, dx, Some(&mask)).is_err());
    }

    #[test]
    fn an_approaching_front_is_positive_and_grows_a_receding_one_is_negative() {
        let dx = 0.5;
        // A slab along z, a sheet along y, a cable along x.
        for (dims, axis) in
            [(GridDims::new(12, 10, 60), 2), (GridDims::new(10, 60, 1), 1), (GridDims::new(60, 1, 1), 0)]
        {
            let far = 59.0 * dx;
            let electrodes =
                [on_axis("above", dims, dx, axis, far + 5.0), on_axis("below", dims, dx, axis, -5.0)];
            let mut last: Option<[f64; 2]> = None;
            for f in [6.0, 10.0, 14.0, 18.0, 22.0] {
                let u = front(dims, dx, axis, f);
                let phi = pseudo_ecg(&u, dims, dx, &electrodes).unwrap();
                assert!(phi[0] > 0.0, "{dims:?}: front at {f} approaching: {phi:?}");
                assert!(phi[1] < 0.0, "{dims:?}: front at {f} receding: {phi:?}");
                if let Some([above, below]) = last {
                    assert!(phi[0] > above, "{dims:?}: grows as it approaches: {above} then {}", phi[0]);
                    assert!(phi[1] > below, "{dims:?}: fades as it recedes: {below} then {}", phi[1]);
                }
                last = Some([phi[0], phi[1]]);
            }
        }
    }

    #[test]
    fn a_uniform_field_gives_exactly_zero() {
        let dims = GridDims::new(7, 6, 5);
        let electrodes = [Electrode::new("a", [1.0, 2.0, 10.0]), Electrode::new("b", [-3.0, 0.7, 1.1])];
        for value in [0.0f32, 1.0, -84.0] {
            let u = vec![value; dims.cells()];
            let phi = pseudo_ecg(&u, dims, 0.6, &electrodes).unwrap();
            assert_eq!(phi.iter().map(|p| p.to_bits()).collect::<Vec<_>>(), [0, 0]);
        }
    }

    #[test]
    fn mirrored_electrodes_over_an_odd_field_see_opposite_values() {
        // V odd about the mid-plane z = zc: V(zc + s) = -V(zc - s), set
        // exactly. Electrodes at zc +- h over the centre of the slab.
        let (dims, dx) = (GridDims::new(9, 9, 31), 0.5);
        let zc = 15;
        let profile: Vec<f64> = (0..dims.nz)
            .map(|z| match z.cmp(&zc) {
                std::cmp::Ordering::Less => -((zc - z) as f64 * dx / 2.0).tanh(),
                std::cmp::Ordering::Equal => 0.0,
                std::cmp::Ordering::Greater => ((z - zc) as f64 * dx / 2.0).tanh(),
            })
            .collect();
        let u: Vec<f64> = (0..dims.cells()).map(|i| profile[i / dims.slice_cells()]).collect();
        let c = 4.0 * dx;
        let zc_mm = zc as f64 * dx;
        let electrodes = [
            Electrode::new("up", [c, c, zc_mm + 12.25]),
            Electrode::new("down", [c, c, zc_mm - 12.25]),
            Electrode::new("up_off", [c + 3.0, c - 1.25, zc_mm + 9.0]),
            Electrode::new("down_off", [c + 3.0, c - 1.25, zc_mm - 9.0]),
        ];
        let phi = pseudo_ecg(&u, dims, dx, &electrodes).unwrap();
        for pair in phi.chunks(2) {
            assert!(pair[0] != 0.0, "{phi:?}");
            assert!((pair[0] + pair[1]).abs() <= 1e-12 * pair[0].abs(), "not antisymmetric: {phi:?}");
        }
    }

    #[test]
    fn electrodes_too_close_to_a_cell_or_badly_named_are_refused() {
        let (dims, dx) = (GridDims::new(10, 10, 10), 0.5);
        let check = |e: Electrode| check_electrodes(&[e], dims, dx);
        // On a cell centre, a fifth of a cell from one, and near a corner
        // from outside; the centre of a cube of eight cells is far enough.
        let e = check(Electrode::new("lead I", [1.0, 1.5, 2.0])).unwrap_err();
        assert!(matches!(e, EcgError::TooClose { cell: [2, 3, 4], .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("\"lead I\"") && msg.contains("move it"), "{msg}");
        assert!(check(Electrode::new("near", [1.1, 1.5, 2.0])).is_err());
        assert!(check(Electrode::new("corner", [-0.1, -0.1, -0.1])).is_err());
        assert!(check(Electrode::new("mid", [1.25, 1.25, 1.25])).is_ok());
        // Half a cell off a face is allowed, as is anything further.
        assert!(check(Electrode::new("face", [2.0, 2.0, 4.5 + 0.25])).is_ok());
        assert!(check(Electrode::new("far", [2.0, 2.0, 30.0])).is_ok());
        // A sheet is the plane z = 0: an electrode in it, on a cell, is refused;
        // half a cell above it is not.
        let sheet = GridDims::new(10, 10, 1);
        assert!(check_electrodes(&[Electrode::new("s", [2.0, 2.0, 0.0])], sheet, dx).is_err());
        assert!(check_electrodes(&[Electrode::new("s", [2.0, 2.0, 0.25])], sheet, dx).is_ok());
        // Names and positions.
        assert!(matches!(check(Electrode::new("a,b", [0.0, 0.0, 30.0])), Err(EcgError::BadName { .. })));
        assert!(matches!(check(Electrode::new("", [0.0, 0.0, 30.0])), Err(EcgError::BadName { .. })));
        assert!(matches!(check(Electrode::new("n", [f64::NAN, 0.0, 30.0])), Err(EcgError::NotFinite { .. })));
        let twice = [Electrode::new("v1", [0.0, 0.0, 30.0]), Electrode::new("v1", [0.0, 0.0, -30.0])];
        assert!(matches!(check_electrodes(&twice, dims, dx), Err(EcgError::DuplicateName { .. })));
        // pseudo_ecg refuses them too.
        let u = vec![0.0f32; dims.cells()];
        assert!(pseudo_ecg(&u, dims, dx, &[Electrode::new("x", [1.0, 1.0, 1.0])]).is_err());
    }

    #[test]
    fn the_trace_is_a_csv_with_one_column_per_electrode() {
        let electrodes = [Electrode::new("V1", [0.0, 0.0, 30.0]), Electrode::new("V2", [0.0, 0.0, -30.0])];
        let mut trace = EcgTrace::new(&electrodes, UnitTags::MS_MM);
        let dims = GridDims::new(4, 4, 4);
        let u: Vec<f32> = (0..dims.cells()).map(|i| (i / 16) as f32).collect();
        trace.record(0.5, &u, dims, 1.0).unwrap();
        trace.push(1.0, vec![0.25, -1.5e-7]);
        let csv = trace.to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "t_ms,V1,V2");
        assert_eq!(lines[2], "1,2.5e-1,-1.5e-7");
        // Values read back bit for bit.
        let first: Vec<f64> = lines[1].split(',').map(|s| s.parse().unwrap()).collect();
        assert_eq!(first[0], 0.5);
        assert_eq!(&first[1..], &trace.rows()[0].1[..]);
        let dir = std::env::temp_dir().join(format!("fibril-ecg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(ECG_FILE);
        trace.write(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), csv);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(EcgTrace::from_csv(&electrodes, &csv, 9.0, UnitTags::MS_MM), Some(trace.clone()));
        // In a model's own time units the column says so, and a trace
        // written before it did ("t_ms") still reads.
        let tu = UnitTags { time: "tu", space: "su" };
        let back = EcgTrace::from_csv(&electrodes, &csv, 9.0, tu).unwrap();
        assert!(back.to_csv().starts_with("t_tu,V1,V2\n"), "{}", back.to_csv());
        assert_eq!(back.rows(), trace.rows());
        assert_eq!(EcgTrace::from_csv(&electrodes, "t_s,V1,V2\n", 9.0, tu), None);
    }

    /// A Karma plane wave crossing a 6 x 6 x 80 slab on the CPU (0.2 s):
    /// an electrode beyond the far face sees a positive deflection that
    /// grows while the front travels towards it (the QRS), one beyond the
    /// near face a negative one while the front moves away.
    #[test]
    fn a_simulated_plane_wave_gives_the_expected_deflections() {
        use crate::backend::CpuSolver;
        use crate::domain::Domain;
        use crate::init::InitialCondition;
        use crate::models::ModelSetup;
        use crate::solver::Solver;
        use kernels_gpu::CellModel;
        use kernels_gpu::models::Karma;

        let (dims, dx) = (GridDims::new(6, 6, 80), 0.6);
        let model = ModelSetup::new("karma", None, &[]).unwrap();
        let domain = Domain::new(dims, dx, 0.05, 1.0, model).unwrap();
        let start = InitialCondition::Planar.state::<f64>(Karma::INFO, dims);
        let mut solver = CpuSolver::<Karma, f64>::new(&domain, &start);
        let electrodes =
            [Electrode::new("above", [1.5, 1.5, 79.0 * dx + 3.0]), Electrode::new("below", [1.5, 1.5, -3.0])];
        let mut trace = EcgTrace::new(&electrodes, UnitTags::MS_MM);
        // Every 5 ms up to 35 ms, when the front (~1.9 cells/ms) is at about
        // z = 69 of 80.
        for k in 1..=7 {
            solver.advance(100).unwrap();
            trace.record(k as f64 * 5.0, solver.potential(), dims, dx).unwrap();
        }
        let above: Vec<f64> = trace.rows().iter().map(|r| r.1[0]).collect();
        let below: Vec<f64> = trace.rows().iter().map(|r| r.1[1]).collect();
        assert!(above[0] > 0.0 && above.windows(2).all(|w| w[1] > w[0]), "{above:?}");
        assert!(below[0] < 0.0 && below[1] < 0.0, "{below:?}");
    }
}

//! Spiral tips of a sheet and scroll-wave filaments of a volume, found
//! from variable 0 at two times (on the CPU here, on the GPU by the
//! `phase_plaquettes` kernel with the same per-plaquette routine), and
//! their CSV traces.
//!
//! A plaquette (four cells around a unit square of the grid) holds a phase
//! singularity when the phase of `(V(t - tau) - V*, V(t) - V*)` winds once
//! around it: the method, the exact charge and the sub-cell position are
//! those of [`kernels_gpu::tips`], applied here to every plaquette. The
//! caller keeps `V(t - tau)`: [`PhaseMemory`] on the host, or the solver
//! on its device (`Solver::phase_singularities`), with tau the interval
//! between the samples that [`SingularityRecorder`] records. tau should be well below
//! half a rotation period (a tenth to a quarter is usual); V* inside the
//! action potential's range (the model's activation threshold does).
//!
//! * A sheet (two axes of more than one cell) gives tips: one point per
//!   charged plaquette, with its charge (+1 for a wave rotating
//!   counterclockwise seen from the positive side of the missing axis: from
//!   +z, x to the right and y up, for the usual nz = 1).
//! * A volume gives filaments: the charged plaquettes normal to x, y and z
//!   (their charges are the filament's tangent components), linked when
//!   they are faces of one cube of eight cells, since a filament enters a
//!   cube through one face and leaves through another. Each connected set
//!   is one filament, its points in order along it (walked from an end, or
//!   around a ring). Filament ids number the filaments of one sample in
//!   the order of their first plaquette; they are not tracked over time.
//!
//! Positions are in cells (cell (i, j, k) at (i, j, k)) and in the
//! model's space unit (times dx; "mm" in names, as in
//! [`crate::events::ecg`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io;
use std::path::Path;

use kernels_gpu::GridDims;
use kernels_gpu::tips::{Singularity, plaquette_at, plaquette_axes};
use rayon::prelude::*;
use thiserror::Error;

use crate::io::write_atomic;
use crate::scalar::Scalar;
use crate::units::UnitTags;

/// Name of the tips trace (sheets) in a run's output directory.
pub const TIPS_FILE: &str = "tips.csv";
/// Name of the filaments trace (volumes).
pub const FILAMENTS_FILE: &str = "filaments.csv";

/// Why a search for phase singularities was refused; each message names the fix.
#[derive(Debug, Error, PartialEq)]
pub enum TipsError {
    #[error(
        "spiral tips need a sheet (exactly two axes of more than one cell), and the grid is {nx}x{ny}x{nz}; \
         use filaments for a 3D grid"
    )]
    NotASheet { nx: u32, ny: u32, nz: u32 },
    #[error(
        "filaments need a 3D grid (three axes of more than one cell), and the grid is {nx}x{ny}x{nz}; \
         use tips for a sheet"
    )]
    NotAVolume { nx: u32, ny: u32, nz: u32 },
    #[error(
        "phase singularities need a sheet or a volume, and the {nx}x{ny}x{nz} grid is a cable or a single \
         cell, where no wave can rotate"
    )]
    NoPlane { nx: u32, ny: u32, nz: u32 },
    #[error(
        "the phase level V* = {v_star} is not a finite number; give a value inside the action potential's \
         range, e.g. the model's activation threshold"
    )]
    BadLevel { v_star: f64 },
}

/// A plaquette with a nonzero charge, found by [`charged_plaquettes`] or
/// by a GPU kernel calling the same
/// [`plaquette_singularity`](kernels_gpu::tips::plaquette_singularity).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChargedPlaquette {
    /// The axis it is normal to (0 = x, 1 = y, 2 = z). Its first and
    /// second axes are the next two, cyclically ([`plaquette_axes`]).
    pub normal: u8,
    /// Its corner (0, 0), the cell of lowest coordinates.
    pub base: [u32; 3],
    /// Charge and position as the kernel computes them.
    pub singularity: Singularity,
}

impl ChargedPlaquette {
    /// The singularity's position in cells.
    pub fn position_cells(&self) -> [f64; 3] {
        let (p, q) = plaquette_axes(u32::from(self.normal));
        let mut x = self.base.map(f64::from);
        x[p] += self.singularity.s;
        x[q] += self.singularity.t;
        x
    }
}

/// Every charged plaquette of the grid, from V(t) (`now`) and V(t - tau)
/// (`prev`), both row-major: those normal to each axis whose two in-plane
/// axes have more than one cell (a sheet has one such family, a volume
/// three, a cable none). Ordered by normal (x, y, z), then by base cell in
/// row-major order.
///
/// # Panics
/// If a field does not hold `dims.cells()` values (a programming error).
pub fn charged_plaquettes<T: Scalar>(
    now: &[T],
    prev: &[T],
    dims: GridDims,
    v_star: f64,
) -> Vec<ChargedPlaquette> {
    assert_eq!(now.len(), dims.cells(), "V(t) has one value per cell");
    assert_eq!(prev.len(), dims.cells(), "V(t - tau) has one value per cell");
    let mut found = Vec::new();
    for normal in 0..3u8 {
        let per_slice: Vec<Vec<ChargedPlaquette>> = (0..dims.nz)
            .into_par_iter()
            .map(|z| {
                let mut out = Vec::new();
                for y in 0..dims.ny {
                    for x in 0..dims.nx {
                        let base = [x, y, z];
                        // SAFETY: both fields hold dims.cells() values (asserted)
                        // and (x, y, z) is a cell of dims.
                        let sing = unsafe {
                            plaquette_at(now.as_ptr(), prev.as_ptr(), dims, u32::from(normal), base, v_star)
                        };
                        if let Some(singularity) = sing.filter(|s| s.charge != 0) {
                            out.push(ChargedPlaquette { normal, base, singularity });
                        }
                    }
                }
                out
            })
            .collect();
        found.extend(per_slice.into_iter().flatten());
    }
    found
}

/// A spiral tip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tip {
    /// +1 or -1 (see the module docs for the sense).
    pub charge: i32,
    /// (x, y, z) in cells; the sheet's missing axis is 0.
    pub position_cells: [f64; 3],
    /// (x, y, z) in the model's space unit.
    pub position_mm: [f64; 3],
}

fn check_level(v_star: f64) -> Result<(), TipsError> {
    if v_star.is_finite() { Ok(()) } else { Err(TipsError::BadLevel { v_star }) }
}

/// The tips of a sheet given its charged plaquettes (from
/// [`charged_plaquettes`] or a kernel), in their order.
pub fn tips_from(plaquettes: &[ChargedPlaquette], dx: f64) -> Vec<Tip> {
    plaquettes
        .iter()
        .map(|p| {
            let cells = p.position_cells();
            Tip { charge: p.singularity.charge, position_cells: cells, position_mm: cells.map(|c| c * dx) }
        })
        .collect()
}

/// The spiral tips of a sheet, from V(t) and V(t - tau) at the level
/// `v_star`, ordered by plaquette (row-major).
pub fn find_tips<T: Scalar>(
    now: &[T],
    prev: &[T],
    dims: GridDims,
    dx: f64,
    v_star: f64,
) -> Result<Vec<Tip>, TipsError> {
    if dims.axes() != 2 {
        return Err(TipsError::NotASheet { nx: dims.nx, ny: dims.ny, nz: dims.nz });
    }
    check_level(v_star)?;
    Ok(tips_from(&charged_plaquettes(now, prev, dims, v_star), dx))
}

/// A point of a filament: one charged plaquette.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FilamentPoint {
    /// The axis the plaquette is normal to (0 = x, 1 = y, 2 = z).
    pub normal: u8,
    /// Its charge: the sign of the filament's tangent along `normal`.
    pub charge: i32,
    pub position_cells: [f64; 3],
    pub position_mm: [f64; 3],
}

/// A scroll-wave filament of one sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Filament {
    /// 0, 1, ... in the order of each filament's first plaquette.
    pub id: usize,
    /// In order along the filament.
    pub points: Vec<FilamentPoint>,
    /// Whether it is a ring (every point linked to two others); an open
    /// filament ends on the grid's boundary, or where the phase breaks.
    pub closed: bool,
}

/// Links charged plaquettes of a volume into filaments (see the module
/// docs). The input may come in any order (a kernel appends in no fixed
/// order); it is sorted first, so the result does not depend on it.
pub fn link_filaments(plaquettes: &[ChargedPlaquette], dims: GridDims, dx: f64) -> Vec<Filament> {
    let mut sorted = plaquettes.to_vec();
    let key = |p: &ChargedPlaquette| (p.normal, dims.index(p.base[0], p.base[1], p.base[2]));
    sorted.sort_by_key(key);
    sorted.dedup_by_key(|p| key(p));
    let index: HashMap<(u8, usize), usize> = sorted.iter().enumerate().map(|(i, p)| (key(p), i)).collect();
    let n = [dims.nx, dims.ny, dims.nz];
    // Neighbours: the other charged faces of the (one or two) cubes a
    // plaquette bounds.
    let links: Vec<Vec<usize>> = sorted
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let a = p.normal as usize;
            let mut cubes = Vec::with_capacity(2);
            if p.base[a] + 1 < n[a] {
                cubes.push(p.base);
            }
            if p.base[a] > 0 {
                let mut c = p.base;
                c[a] -= 1;
                cubes.push(c);
            }
            let mut out = Vec::new();
            for c in cubes {
                for m in 0..3u8 {
                    for lift in 0..2 {
                        let mut face = c;
                        face[m as usize] += lift;
                        let k = (m, dims.index(face[0], face[1], face[2]));
                        if let Some(&j) = index.get(&k)
                            && j != i
                            && !out.contains(&j)
                        {
                            out.push(j);
                        }
                    }
                }
            }
            out.sort_unstable();
            out
        })
        .collect();
    let mut seen = vec![false; sorted.len()];
    let mut walked = vec![false; sorted.len()];
    let mut filaments = Vec::new();
    for first in 0..sorted.len() {
        if seen[first] {
            continue;
        }
        // The component, to find where to start walking: an end if any.
        let mut members = vec![first];
        seen[first] = true;
        let mut k = 0;
        while k < members.len() {
            for &j in &links[members[k]] {
                if !seen[j] {
                    seen[j] = true;
                    members.push(j);
                }
            }
            k += 1;
        }
        members.sort_unstable();
        let start = members.iter().copied().find(|&m| links[m].len() < 2).unwrap_or(first);
        let closed = members.iter().all(|&m| links[m].len() >= 2);
        // Depth-first walk, lower neighbours first: along a chain or ring
        // it visits the points in order.
        let mut order = Vec::with_capacity(members.len());
        let mut stack = vec![start];
        while let Some(m) = stack.pop() {
            if walked[m] {
                continue;
            }
            walked[m] = true;
            order.push(m);
            stack.extend(links[m].iter().rev().filter(|&&j| !walked[j]));
        }
        let points = order
            .into_iter()
            .map(|m| {
                let p = &sorted[m];
                let cells = p.position_cells();
                FilamentPoint {
                    normal: p.normal,
                    charge: p.singularity.charge,
                    position_cells: cells,
                    position_mm: cells.map(|c| c * dx),
                }
            })
            .collect();
        filaments.push(Filament { id: filaments.len(), points, closed });
    }
    filaments
}

/// The filaments of a volume, from V(t) and V(t - tau) at the level `v_star`.
pub fn find_filaments<T: Scalar>(
    now: &[T],
    prev: &[T],
    dims: GridDims,
    dx: f64,
    v_star: f64,
) -> Result<Vec<Filament>, TipsError> {
    if dims.axes() != 3 {
        return Err(TipsError::NotAVolume { nx: dims.nx, ny: dims.ny, nz: dims.nz });
    }
    check_level(v_star)?;
    Ok(link_filaments(&charged_plaquettes(now, prev, dims, v_star), dims, dx))
}

/// The header of a trace CSV whose second column is `what`, in the
/// model's units (`t_ms,charge,x_mm,y_mm,z_mm` in ms and mm).
fn header(what: &str, units: UnitTags) -> String {
    let UnitTags { time: t, space: s } = units;
    format!("t_{t},{what},x_{s},y_{s},z_{s}")
}

/// The rows of a trace CSV with the header of `what` in `units`, five
/// finite numbers each, with their line numbers (1-based); `Err(line)` at
/// the first that is not. The header in ms and mm is read too for a
/// model in its own units: traces written before headers named the
/// model's units said ms and mm whatever they were.
fn csv_rows(text: &str, what: &str, units: UnitTags) -> Result<Vec<(usize, [f64; 5])>, usize> {
    let mut lines = text.lines();
    let first = lines.next();
    if first != Some(header(what, units).as_str()) && first != Some(header(what, UnitTags::MS_MM).as_str()) {
        return Err(1);
    }
    lines
        .enumerate()
        .map(|(k, line)| {
            let n = k + 2;
            let fields: Vec<f64> =
                line.split(',').map(str::parse).collect::<Result<_, _>>().map_err(|_| n)?;
            let fields: [f64; 5] = fields.try_into().map_err(|_| n)?;
            if fields.iter().all(|x| x.is_finite()) { Ok((n, fields)) } else { Err(n) }
        })
        .collect()
}

/// Tips over a run: `tips.csv` with the header `t_ms,charge,x_mm,y_mm,z_mm`
/// (in the model's units: `t_ms,charge,x_su,y_su,z_su` for Karma), one
/// row per tip per sample.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TipsTrace {
    rows: Vec<(f64, Tip)>,
    units: UnitTags,
}

impl TipsTrace {
    pub fn push(&mut self, t_ms: f64, tips: &[Tip]) {
        self.rows.extend(tips.iter().map(|&tip| (t_ms, tip)));
    }

    pub fn rows(&self) -> &[(f64, Tip)] {
        &self.rows
    }

    /// The CSV text; numbers in Rust's shortest exact decimal form.
    pub fn to_csv(&self) -> String {
        let mut out = header("charge", self.units);
        out.push('\n');
        for (t, tip) in &self.rows {
            let [x, y, z] = tip.position_mm;
            let _ = writeln!(out, "{t},{},{x},{y},{z}", tip.charge);
        }
        out
    }

    /// The trace of `tips.csv` text up to and including `until_ms` (a
    /// resumed run keeps its checkpoint's samples), on a grid of spacing
    /// `dx` (the positions in cells are the file's divided by it);
    /// `Err(line)` names the first line that is not what
    /// [`TipsTrace::to_csv`] writes.
    pub fn from_csv(text: &str, until_ms: f64, dx: f64, units: UnitTags) -> Result<Self, usize> {
        let mut rows = Vec::new();
        for (n, f) in csv_rows(text, "charge", units)? {
            if f[1] != 1.0 && f[1] != -1.0 {
                return Err(n);
            }
            if f[0] <= until_ms {
                let position_mm = [f[2], f[3], f[4]];
                rows.push((
                    f[0],
                    Tip { charge: f[1] as i32, position_cells: position_mm.map(|c| c / dx), position_mm },
                ));
            }
        }
        Ok(Self { rows, units })
    }

    /// Writes the trace to `path` (a run's `tips.csv`) atomically, whole.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_atomic(path, self.to_csv().as_bytes())
    }
}

/// Filaments over a run: `filaments.csv` with the header
/// `t_ms,filament_id,x_mm,y_mm,z_mm` (in the model's units), one row per
/// point, in order along each filament.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilamentTrace {
    /// (t_ms, filament id, position in the model's space unit).
    rows: Vec<(f64, usize, [f64; 3])>,
    units: UnitTags,
}

impl FilamentTrace {
    pub fn push(&mut self, t_ms: f64, filaments: &[Filament]) {
        for f in filaments {
            self.rows.extend(f.points.iter().map(|p| (t_ms, f.id, p.position_mm)));
        }
    }

    pub fn rows(&self) -> &[(f64, usize, [f64; 3])] {
        &self.rows
    }

    /// The CSV text; numbers in Rust's shortest exact decimal form.
    pub fn to_csv(&self) -> String {
        let mut out = header("filament_id", self.units);
        out.push('\n');
        for (t, id, [x, y, z]) in &self.rows {
            let _ = writeln!(out, "{t},{id},{x},{y},{z}");
        }
        out
    }

    /// The trace of `filaments.csv` text up to and including `until_ms`
    /// (a resumed run keeps its checkpoint's samples); `Err(line)` names
    /// the first line that is not what [`FilamentTrace::to_csv`] writes.
    pub fn from_csv(text: &str, until_ms: f64, units: UnitTags) -> Result<Self, usize> {
        let mut rows = Vec::new();
        for (n, fields) in csv_rows(text, "filament_id", units)? {
            let id = fields[1];
            if id < 0.0 || id.fract() != 0.0 {
                return Err(n);
            }
            if fields[0] <= until_ms {
                rows.push((fields[0], id as usize, [fields[2], fields[3], fields[4]]));
            }
        }
        Ok(Self { rows, units })
    }

    /// Writes the trace to `path` (a run's `filaments.csv`) atomically.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_atomic(path, self.to_csv().as_bytes())
    }
}

/// V at the previous sample, for the solvers that find singularities on
/// the host from a downloaded state (the CPU solvers, the tower layouts and
/// split grids; the single-GPU row-major solver keeps it on the device).
/// Held as f64 (exact for f32 states; the charge and position are
/// computed in f64 from either).
#[derive(Clone, Debug, Default)]
pub struct PhaseMemory {
    previous: Option<Vec<f64>>,
}

impl PhaseMemory {
    /// The charged plaquettes between `now` and the field of the previous
    /// call (`None` at the first call), which `now` then replaces.
    ///
    /// # Panics
    /// If `now` does not hold one value per cell, or the grid changed
    /// between calls (programming errors).
    pub fn sample<T: Scalar>(
        &mut self,
        now: &[T],
        dims: GridDims,
        v_star: f64,
    ) -> Option<Vec<ChargedPlaquette>> {
        let now: Vec<f64> = now.iter().map(|v| v.to_f64()).collect();
        let found = self.previous.as_deref().map(|prev| charged_plaquettes(&now, prev, dims, v_star));
        self.previous = Some(now);
        found
    }

    /// The field of the previous call, for a checkpoint.
    pub fn previous(&self) -> Option<&[f64]> {
        self.previous.as_deref()
    }

    /// Continues from a checkpoint's field: the next call compares with it.
    pub fn restore(&mut self, field: Vec<f64>) {
        self.previous = Some(field);
    }
}

/// Tips (sheet) or filaments (volume) over a run, from the charged
/// plaquettes of each sample (tau is the interval between samples).
#[derive(Clone, Debug)]
pub struct SingularityRecorder {
    dims: GridDims,
    dx: f64,
    v_star: f64,
    units: UnitTags,
    tips: TipsTrace,
    filaments: FilamentTrace,
}

impl SingularityRecorder {
    /// For a sheet or a volume of spacing `dx`, at the level `v_star`;
    /// times and positions are written in `units` (the model's).
    pub fn new(dims: GridDims, dx: f64, v_star: f64, units: UnitTags) -> Result<Self, TipsError> {
        if dims.axes() < 2 {
            return Err(TipsError::NoPlane { nx: dims.nx, ny: dims.ny, nz: dims.nz });
        }
        check_level(v_star)?;
        let tips = TipsTrace { rows: Vec::new(), units };
        let filaments = FilamentTrace { rows: Vec::new(), units };
        Ok(Self { dims, dx, v_star, units, tips, filaments })
    }

    /// The level the phase turns around.
    pub fn v_star(&self) -> f64 {
        self.v_star
    }

    /// Whether this grid gives filaments (a volume) rather than tips.
    pub fn is_volume(&self) -> bool {
        self.dims.axes() == 3
    }

    /// Records the singularities found at `t_ms` (the charged plaquettes
    /// between this sample and the previous one, in any order) and returns
    /// how many tips or filaments there are.
    pub fn record(&mut self, t_ms: f64, plaquettes: &[ChargedPlaquette]) -> usize {
        if self.is_volume() {
            let filaments = link_filaments(plaquettes, self.dims, self.dx);
            self.filaments.push(t_ms, &filaments);
            filaments.len()
        } else {
            let mut sorted = plaquettes.to_vec();
            sorted.sort_by_key(|p| (p.normal, self.dims.index(p.base[0], p.base[1], p.base[2])));
            let tips = tips_from(&sorted, self.dx);
            self.tips.push(t_ms, &tips);
            tips.len()
        }
    }

    pub fn tips(&self) -> &TipsTrace {
        &self.tips
    }

    pub fn filaments(&self) -> &FilamentTrace {
        &self.filaments
    }

    /// `tips.csv` (sheet) or `filaments.csv` (volume).
    pub fn file_name(&self) -> &'static str {
        if self.is_volume() { FILAMENTS_FILE } else { TIPS_FILE }
    }

    /// Continues the trace of a checkpointed run: the rows of its CSV (the
    /// file [`SingularityRecorder::write`] wrote) up to and including
    /// `until_ms`. `Err(line)` names the first line that does not parse.
    pub fn continue_from_csv(&mut self, text: &str, until_ms: f64) -> Result<(), usize> {
        if self.is_volume() {
            self.filaments = FilamentTrace::from_csv(text, until_ms, self.units)?;
        } else {
            self.tips = TipsTrace::from_csv(text, until_ms, self.dx, self.units)?;
        }
        Ok(())
    }

    /// Writes the tips (sheet) or filaments (volume) to `path`, the
    /// run's [`SingularityRecorder::file_name`].
    pub fn write(&self, path: &Path) -> io::Result<()> {
        if self.is_volume() { self.filaments.write(path) } else { self.tips.write(path) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// One sample of a run found on the host: the plaquettes since the
    /// previous sample recorded (0 at the first).
    fn sample<T: Scalar>(
        rec: &mut SingularityRecorder,
        memory: &mut PhaseMemory,
        t_ms: f64,
        u: &[T],
        dims: GridDims,
    ) -> usize {
        memory.sample(u, dims, rec.v_star()).map_or(0, |found| rec.record(t_ms, &found))
    }

    /// Fields `now` and `prev` of V = f(x, y, z, wt) at wt = 0 and -wtau.
    fn fields(dims: GridDims, wtau: f64, f: impl Fn(f64, f64, f64, f64) -> f64) -> (Vec<f64>, Vec<f64>) {
        let mut now = Vec::with_capacity(dims.cells());
        let mut prev = Vec::with_capacity(dims.cells());
        for z in 0..dims.nz {
            for y in 0..dims.ny {
                for x in 0..dims.nx {
                    let (x, y, z) = (x as f64, y as f64, z as f64);
                    now.push(f(x, y, z, 0.0));
                    prev.push(f(x, y, z, -wtau));
                }
            }
        }
        (now, prev)
    }

    /// A wave rotating about (x0, y0): counterclockwise for `sense` = 1.
    fn spiral(x0: f64, y0: f64, sense: f64) -> impl Fn(f64, f64, f64, f64) -> f64 {
        move |x, y, _, wt| ((y - y0).atan2(x - x0) - sense * wt).cos()
    }

    #[test]
    fn one_rotating_wave_gives_one_tip_of_its_sense_at_its_centre() {
        let dims = GridDims::new(24, 20, 1);
        let (x0, y0) = (10.3, 7.6);
        for (sense, charge) in [(1.0, 1), (-1.0, -1)] {
            let (now, prev) = fields(dims, PI / 3.0, spiral(x0, y0, sense));
            let tips = find_tips(&now, &prev, dims, 0.5, 0.0).unwrap();
            assert_eq!(tips.len(), 1, "{tips:?}");
            let t = tips[0];
            assert_eq!(t.charge, charge);
            let [x, y, z] = t.position_cells;
            assert!((x - x0).abs() < 0.25 && (y - y0).abs() < 0.25 && z == 0.0, "{t:?}");
            assert_eq!(t.position_mm, [x * 0.5, y * 0.5, 0.0]);
        }
        // A sheet in the xz plane: the singularity is found there too.
        let dims = GridDims::new(24, 1, 20);
        let (now, prev) = fields(dims, PI / 3.0, |x, _, z, wt| spiral(x0, y0, 1.0)(x, z, 0.0, wt));
        let tips = find_tips(&now, &prev, dims, 1.0, 0.0).unwrap();
        assert_eq!(tips.len(), 1);
        assert!(
            (tips[0].position_cells[0] - x0).abs() < 0.25 && (tips[0].position_cells[2] - y0).abs() < 0.25
        );
    }

    #[test]
    fn a_vortex_pair_gives_two_opposite_tips() {
        let dims = GridDims::new(40, 24, 1);
        let (a, b) = ((10.4, 11.7), (29.2, 12.1));
        let (now, prev) =
            fields(dims, 0.5, |x, y, _, wt| ((y - a.1).atan2(x - a.0) - (y - b.1).atan2(x - b.0) - wt).cos());
        let tips = find_tips(&now, &prev, dims, 1.0, 0.0).unwrap();
        assert_eq!(tips.len(), 2, "{tips:?}");
        let near = |t: &Tip, c: (f64, f64)| {
            (t.position_cells[0] - c.0).abs() < 0.5 && (t.position_cells[1] - c.1).abs() < 0.5
        };
        let pa = tips.iter().find(|t| near(t, a)).expect("a tip at the first centre");
        let pb = tips.iter().find(|t| near(t, b)).expect("a tip at the second centre");
        assert_eq!((pa.charge, pb.charge), (1, -1));
    }

    #[test]
    fn smooth_fields_have_no_tips() {
        let dims = GridDims::new(30, 30, 1);
        // A plane wave, a uniform field, a target pattern.
        let (now, prev) = fields(dims, 0.7, |x, y, _, wt| (0.3 * x + 0.1 * y - wt).cos());
        assert!(find_tips(&now, &prev, dims, 1.0, 0.0).unwrap().is_empty());
        let u = vec![0.25f32; dims.cells()];
        assert!(find_tips(&u, &u, dims, 1.0, 0.25).unwrap().is_empty());
        let (now, prev) = fields(dims, 0.7, |x, y, _, wt| (0.4 * ((x - 15.0).hypot(y - 14.0)) - wt).cos());
        assert!(find_tips(&now, &prev, dims, 1.0, 0.0).unwrap().is_empty());
    }

    #[test]
    fn a_straight_scroll_wave_has_one_filament_along_z() {
        let dims = GridDims::new(16, 14, 9);
        let (now, prev) = fields(dims, 0.8, spiral(6.4, 8.7, 1.0));
        let filaments = find_filaments(&now, &prev, dims, 0.5, 0.0).unwrap();
        assert_eq!(filaments.len(), 1, "{filaments:?}");
        let f = &filaments[0];
        assert!(!f.closed);
        assert_eq!(f.points.len(), 9);
        for (k, p) in f.points.iter().enumerate() {
            // Normal to z, along +z (counterclockwise seen from +z), in order.
            assert_eq!((p.normal, p.charge), (2, 1));
            let [x, y, z] = p.position_cells;
            assert!((x - 6.4).abs() < 0.25 && (y - 8.7).abs() < 0.25 && z == k as f64, "{p:?}");
        }
        // The same from any order of the plaquettes.
        let mut plaquettes = charged_plaquettes(&now, &prev, dims, 0.0);
        plaquettes.reverse();
        assert_eq!(link_filaments(&plaquettes, dims, 0.5), filaments);
    }

    #[test]
    fn a_scroll_ring_is_one_closed_filament() {
        // Phase turning about the circle rho = 6 around (12, 12) in z = 11.5.
        let dims = GridDims::new(25, 25, 24);
        let (c, r0, z0) = (12.1, 6.0, 11.5);
        let (now, prev) = fields(dims, 0.8, |x, y, z, wt| {
            let rho = (x - c).hypot(y - c);
            ((z - z0).atan2(rho - r0) - wt).cos()
        });
        let filaments = find_filaments(&now, &prev, dims, 1.0, 0.0).unwrap();
        assert_eq!(filaments.len(), 1, "{} filaments", filaments.len());
        let f = &filaments[0];
        assert!(f.closed);
        // Around 2 pi 6 = 38 cells of arc, each crossing one or two faces.
        assert!((30..100).contains(&f.points.len()), "{}", f.points.len());
        for p in &f.points {
            let [x, y, z] = p.position_cells;
            let rho = (x - c).hypot(y - c);
            assert!((rho - r0).abs() < 1.0 && (z - z0).abs() < 1.0, "{p:?}");
        }
        // Walked in order: consecutive points are neighbours.
        for w in f.points.windows(2) {
            let d: f64 = (0..3).map(|a| (w[0].position_cells[a] - w[1].position_cells[a]).powi(2)).sum();
            assert!(d.sqrt() < 2.0, "{w:?}");
        }
    }

    #[test]
    fn grids_of_the_wrong_shape_and_bad_levels_are_refused() {
        let u = vec![0.0f32; 64];
        let cable = GridDims::new(64, 1, 1);
        let cube = GridDims::new(4, 4, 4);
        let sheet = GridDims::new(8, 8, 1);
        assert!(matches!(find_tips(&u, &u, cube, 1.0, 0.5), Err(TipsError::NotASheet { .. })));
        assert!(matches!(find_filaments(&u, &u, sheet, 1.0, 0.5), Err(TipsError::NotAVolume { .. })));
        assert!(matches!(
            SingularityRecorder::new(cable, 1.0, 0.5, UnitTags::MS_MM),
            Err(TipsError::NoPlane { .. })
        ));
        let e = find_tips(&u, &u, sheet, 1.0, f64::NAN).unwrap_err();
        assert!(e.to_string().contains("activation threshold"), "{e}");
    }

    #[test]
    fn the_recorder_delays_by_one_sample_writes_csv_and_reads_it_back() {
        let dims = GridDims::new(24, 20, 1);
        let mut rec = SingularityRecorder::new(dims, 0.5, 0.0, UnitTags::MS_MM).unwrap();
        let mut memory = PhaseMemory::default();
        let f = spiral(10.3, 7.6, 1.0);
        for (k, t_ms) in [0.0, 2.5, 5.0].into_iter().enumerate() {
            let (now, _) = fields(dims, 0.0, |x, y, z, _| f(x, y, z, 0.4 * k as f64));
            assert_eq!(sample(&mut rec, &mut memory, t_ms, &now, dims), usize::from(k > 0));
        }
        let csv = rec.tips().to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "{csv}");
        assert_eq!(lines[0], "t_ms,charge,x_mm,y_mm,z_mm");
        assert!(lines[1].starts_with("2.5,1,") && lines[2].starts_with("5,1,"), "{csv}");
        let dir = std::env::temp_dir().join(format!("fibril-tips-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        rec.write(&dir.join(rec.file_name())).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join(TIPS_FILE)).unwrap(), csv);
        // A volume writes filaments.
        let mut trace = FilamentTrace::default();
        let p = FilamentPoint {
            normal: 2,
            charge: 1,
            position_cells: [1.0, 2.0, 3.0],
            position_mm: [0.5, 1.0, 1.5],
        };
        trace.push(7.5, &[Filament { id: 0, points: vec![p, p], closed: false }]);
        assert_eq!(trace.to_csv(), "t_ms,filament_id,x_mm,y_mm,z_mm\n7.5,0,0.5,1,1.5\n7.5,0,0.5,1,1.5\n");
        trace.write(&dir.join(FILAMENTS_FILE)).unwrap();
        assert!(dir.join(FILAMENTS_FILE).is_file());
        std::fs::remove_dir_all(&dir).unwrap();
        // Read back (a resumed run): up to a time, exactly; damage named by line.
        let mm = UnitTags::MS_MM;
        let back = FilamentTrace::from_csv(&trace.to_csv(), 7.5, mm).unwrap();
        assert_eq!(back, trace);
        assert_eq!(FilamentTrace::from_csv(&trace.to_csv(), 7.0, mm).unwrap().rows().len(), 0);
        let tips = TipsTrace::from_csv(&csv, 2.5, 0.5, mm).unwrap();
        assert_eq!(tips.to_csv().lines().count(), 2);
        assert_eq!(tips.rows()[0].1, rec.tips().rows()[0].1);
        assert_eq!(TipsTrace::from_csv(&csv, 5.0, 0.5, mm).unwrap().to_csv(), csv);
        assert_eq!(TipsTrace::from_csv("t_ms,charge,x_mm,y_mm,z_mm\n1,2,0,0,0\n", 9.0, 1.0, mm), Err(2));
        assert_eq!(TipsTrace::from_csv("t_ms,x\n", 9.0, 1.0, mm), Err(1));
        assert_eq!(FilamentTrace::from_csv("t_ms,filament_id,x_mm,y_mm,z_mm\n1,0,0,0\n", 9.0, mm), Err(2));
        assert_eq!(
            FilamentTrace::from_csv("t_ms,filament_id,x_mm,y_mm,z_mm\n1,0.5,0,0,0\n", 9.0, mm),
            Err(2)
        );
    }

    #[test]
    fn a_model_in_its_own_units_says_so_in_the_headers() {
        // Aliev-Panfilov counts time units and space units: a header of
        // ms and mm would mislabel every column.
        let units = UnitTags { time: "tu", space: "su" };
        let rec = SingularityRecorder::new(GridDims::new(8, 8, 1), 1.0, 0.5, units).unwrap();
        assert_eq!(rec.tips().to_csv(), "t_tu,charge,x_su,y_su,z_su\n");
        let rec = SingularityRecorder::new(GridDims::new(8, 8, 8), 1.0, 0.5, units).unwrap();
        assert_eq!(rec.filaments().to_csv(), "t_tu,filament_id,x_su,y_su,z_su\n");
        // A trace written before the headers named the units still resumes.
        let old = "t_ms,charge,x_mm,y_mm,z_mm\n1,1,2,3,0\n";
        let back = TipsTrace::from_csv(old, 9.0, 1.0, units).unwrap();
        assert_eq!(back.to_csv(), "t_tu,charge,x_su,y_su,z_su\n1,1,2,3,0\n");
        assert_eq!(TipsTrace::from_csv("t_s,charge,x_m,y_m,z_m\n", 9.0, 1.0, units), Err(1));
    }

    /// A real spiral: Aliev-Panfilov on a 128 x 128 sheet (dx = 1, dt =
    /// 0.05) started by the scroll protocol (S1 planar along y, the
    /// cross-field S2 timed by the protocol's probe), sampled every time
    /// unit on the CPU (under a second). From the first sample on there is
    /// exactly one tip; once the spiral has settled (t >= 200) it stays
    /// within a small circle (the core, radius about 2.5 cells), and it
    /// goes round that circle in the sense its charge says.
    #[test]
    fn a_simulated_spiral_has_one_tip_circling_a_fixed_core() {
        use crate::backend::CpuSolver;
        use crate::domain::Domain;
        use crate::events::protocol::{scroll_s2, scroll_s2_step};
        use crate::init::InitialCondition;
        use crate::models::ModelSetup;
        use crate::solver::Solver;
        use kernels_gpu::CellModel;
        use kernels_gpu::models::AlievPanfilov;

        let (dims, dx, dt) = (GridDims::new(128, 128, 1), 1.0, 0.05);
        let model = ModelSetup::new("aliev_panfilov", None, &[]).unwrap();
        let domain = Domain::new(dims, dx, dt, 1.0, model).unwrap();
        let s2_step = scroll_s2_step(&domain).unwrap();
        let s2 = scroll_s2(s2_step as f64 * dt).compile(1, dims, dt, AlievPanfilov::INFO).unwrap();
        let start = InitialCondition::Planar.state::<f32>(AlievPanfilov::INFO, dims);
        let mut solver = CpuSolver::<AlievPanfilov, f32>::new(&domain, &start);
        solver.advance(s2_step).unwrap();
        let mut state = solver.state().unwrap();
        let crate::events::stimulus::Action::Set(value) = s2.action else { unreachable!("S2 sets a value") };
        s2.region.apply(&mut state, value as f32);
        solver.set_state(&state).unwrap();

        let v_star = AlievPanfilov::INFO.activation_threshold;
        let mut rec =
            SingularityRecorder::new(dims, dx, v_star, UnitTags::of(&AlievPanfilov::INFO.units)).unwrap();
        let mut memory = PhaseMemory::default();
        let every = 20; // 1 time unit: tau is a few percent of the period
        let mut step = s2_step;
        sample(&mut rec, &mut memory, step as f64 * dt, solver.potential(), dims);
        while (step as f64) * dt < 500.0 {
            solver.advance(every).unwrap();
            step += every;
            let found = sample(&mut rec, &mut memory, step as f64 * dt, solver.potential(), dims);
            assert_eq!(found, 1, "t = {}: {found} tips", step as f64 * dt);
        }
        let settled: Vec<&Tip> = rec.tips().rows().iter().filter(|r| r.0 >= 200.0).map(|r| &r.1).collect();
        assert!(settled.len() >= 290, "{}", settled.len());
        let n = settled.len() as f64;
        let centre: [f64; 2] =
            std::array::from_fn(|a| settled.iter().map(|t| t.position_mm[a]).sum::<f64>() / n);
        let radius = |t: &Tip| (t.position_mm[0] - centre[0]).hypot(t.position_mm[1] - centre[1]);
        let widest = settled.iter().map(|t| radius(t)).fold(0.0, f64::max);
        assert!(widest < 5.0, "the tip strays {widest} from its mean position {centre:?}");
        // The angle the tip sweeps about the centre, in turns.
        let angle = |t: &Tip| (t.position_mm[1] - centre[1]).atan2(t.position_mm[0] - centre[0]);
        let turns: f64 = settled
            .windows(2)
            .map(|w| {
                let d = angle(w[1]) - angle(w[0]);
                d - (2.0 * PI) * (d / (2.0 * PI)).round()
            })
            .sum::<f64>()
            / (2.0 * PI);
        let charge = settled[0].charge;
        eprintln!("spiral tip: {turns:.1} turns within {widest:.2} of {centre:?}, charge {charge}");
        assert!(settled.iter().all(|t| t.charge == charge));
        assert!(turns * charge as f64 > 4.0, "{turns} turns with charge {charge}");
    }
}

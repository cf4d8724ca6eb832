//! The CSV traces of a run: tips (sheets) or filaments (volumes) per
//! sample, in the model's units, written atomically and read back when a
//! run resumes.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use super::filaments::Filament;
use super::sheet::Tip;
use crate::io::write_atomic;
use crate::units::UnitTags;

/// Name of the tips trace (sheets) in a run's output directory.
pub const TIPS_FILE: &str = "tips.csv";
/// Name of the filaments trace (volumes).
pub const FILAMENTS_FILE: &str = "filaments.csv";

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
    pub(super) rows: Vec<(f64, Tip)>,
    pub(super) units: UnitTags,
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
    pub(super) rows: Vec<(f64, usize, [f64; 3])>,
    pub(super) units: UnitTags,
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

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::GridDims;

    use crate::events::tips::recorder::SingularityRecorder;

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
}

//! Snapshot files of a run, their index `snapshots.json`, the ParaView
//! collection `fields.pvd` and the activation-time map.

use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ndarray::Array3;
use serde::{Deserialize, Serialize};

use crate::events::recording::Maps;
use crate::io::atomic::write_atomic_with;
use crate::io::atomic::{write_atomic, write_json_atomic};
use crate::io::image::{finite_range, label, write_midplanes};
use crate::io::vti::{self, PvdEntry, VtiArray};
use crate::io::{npy, output_dir::OutputDir};
use crate::scalar::Scalar;
use crate::state::State;
use crate::units::UnitTags;
use kernels_gpu::model::Units;

/// The index of a run's snapshots.
pub const INDEX_FILE: &str = "snapshots.json";

/// The largest index a resumed run reads: a million snapshots' records.
const MAX_INDEX_BYTES: u64 = 256 << 20;

/// One written snapshot, as listed in `snapshots.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SnapshotRecord {
    pub index: usize,
    pub step: u64,
    pub t_ms: f64,
    /// File names relative to the output directory.
    pub files: Vec<String>,
}

/// Which file formats each snapshot is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Formats {
    /// `U_000000.npy` (one per saved variable): NumPy arrays of shape (nz, ny, nx).
    pub npy: bool,
    /// `fields_000000.vti` (every saved variable) listed in `fields.pvd`.
    pub vti: bool,
    /// `U_000000.png` (one per saved variable): the three mid-planes.
    pub png: bool,
}

impl Default for Formats {
    fn default() -> Self {
        Self { npy: true, vti: false, png: false }
    }
}

/// One or more files of a snapshot or of the maps, written by [`write_all`].
type FileJob<'a> = Box<dyn FnOnce() -> Result<(), WriteError> + Send + 'a>;

/// Runs every job, each on a thread of its own when `parallel`, and
/// returns the names of their files, in order. Each file ends with an fsync, and a disk keeps several in flight
/// faster than it finishes them one after the other (and a picture's
/// drawing overlaps the large writes). The first failure in file order is
/// returned; the files that were written stay complete (each is renamed
/// into place only when whole).
fn write_all(jobs: Vec<(Vec<String>, FileJob<'_>)>, parallel: bool) -> Result<Vec<String>, WriteError> {
    let files: Vec<String> = jobs.iter().flat_map(|(files, _)| files.iter().cloned()).collect();
    if !parallel {
        for (_, job) in jobs {
            job()?;
        }
        return Ok(files);
    }
    let results: Vec<Result<(), WriteError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs.into_iter().map(|(_, job)| scope.spawn(job)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    results.into_iter().collect::<Result<Vec<()>, WriteError>>()?;
    Ok(files)
}

/// The share of the writing time that rewriting the index may take: a
/// long run of small snapshots would otherwise spend most of its time
/// rewriting an ever longer index (on 2 CPU cores 5,000 snapshots of 8^3
/// cells took 9.2 s rewriting it at each, 4.8 s within this share).
const INDEX_SHARE: f64 = 0.05;

/// When the index was last brought up to date, and what that has cost.
#[derive(Debug)]
struct IndexPace {
    since: Instant,
    spent: Duration,
    /// Records not yet in the index on disk.
    behind: bool,
}

impl IndexPace {
    fn new() -> Self {
        Self { since: Instant::now(), spent: Duration::ZERO, behind: false }
    }

    /// Whether another rewrite keeps the index within its share.
    fn affordable(&self) -> bool {
        self.spent.as_secs_f64() <= INDEX_SHARE * self.since.elapsed().as_secs_f64()
    }
}

/// Writes snapshots, numbered in order, in the chosen formats, and
/// rewrites the index (and `fields.pvd`) after each one while that costs
/// at most [`INDEX_SHARE`] of the writing time, so they list exactly the
/// complete files; past that share (thousands of small snapshots) the
/// index is brought up to date at the next snapshot that can afford it,
/// before every checkpoint ([`SnapshotWriter::flush_index`]) and at the
/// end, so it may lag the newest files only while a run goes on. Files
/// are named after the model's variables (`U_000003.npy`, `v_000003.png`)
/// and pictures coloured over each variable's display range, the same for
/// every frame.
pub struct SnapshotWriter {
    dir: OutputDir,
    /// Indices of the variables written, in the model's order.
    save: Vec<usize>,
    formats: Formats,
    dx: f64,
    /// The snapshots listed in this directory's index.
    records: Vec<SnapshotRecord>,
    /// Whether a snapshot's files are written on threads of their own
    /// (behind a GPU run; see [`SnapshotWriter::write_files_in_parallel`]).
    parallel: bool,
    /// The number the next snapshot's files get (continued across a
    /// resume, also into another directory).
    next_index: usize,
    index_pace: IndexPace,
}

/// An I/O error with the file it concerns.
#[derive(Debug, thiserror::Error)]
#[error("could not write {path}: {source}")]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

fn at(path: PathBuf) -> impl FnOnce(io::Error) -> WriteError {
    move |source| WriteError { path, source }
}

impl SnapshotWriter {
    /// `save` lists the variables to write (indices into the model's
    /// variables; at least one).
    /// Writes each snapshot's files on threads of their own: for a writer
    /// behind a GPU run, where the fsyncs overlap and the run waits less
    /// (the H100 measurement in docs/history/BENCHMARKS-2026.md). A CPU run writes
    /// inline, one file at a time, within its memory estimate.
    pub fn write_files_in_parallel(&mut self) {
        self.parallel = true;
    }

    pub fn new(dir: OutputDir, save: Vec<usize>, formats: Formats, dx: f64) -> Self {
        assert!(!save.is_empty(), "a snapshot saves at least one variable");
        Self {
            dir,
            save,
            formats,
            dx,
            records: Vec::new(),
            next_index: 0,
            parallel: false,
            index_pace: IndexPace::new(),
        }
    }

    /// A writer that continues a run being resumed from `step`, whose
    /// checkpoint says `written` snapshots came before it (`None` for
    /// checkpoints that do not say: the index here counts). Numbering goes
    /// on from there, in this directory or another. The records of this
    /// directory's index up to and including `step` are kept; later ones
    /// (written before the run was stopped, past the checkpoint) are
    /// dropped and their files will be overwritten.
    pub fn resume(
        dir: OutputDir,
        save: Vec<usize>,
        formats: Formats,
        dx: f64,
        (step, written): (u64, Option<u64>),
    ) -> Result<Self, WriteError> {
        let path = dir.existing(INDEX_FILE);
        let records: Vec<SnapshotRecord> =
            match crate::io::bounded::read(&path, MAX_INDEX_BYTES, "an index fibril wrote") {
                Ok(bytes) => serde_json::from_slice(&bytes)
                    .map_err(|e| at(path.clone())(io::Error::new(io::ErrorKind::InvalidData, e)))?,
                Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(at(path)(e)),
            };
        let mut writer = Self::new(dir, save, formats, dx);
        writer.records = records.into_iter().filter(|r| r.step <= step).collect();
        writer.next_index = match written {
            Some(n) => n as usize,
            None => writer.records.len(),
        };
        Ok(writer)
    }

    /// Snapshots written so far in the run: the number of the next one.
    pub fn next_index(&self) -> u64 {
        self.next_index as u64
    }

    pub fn write<T: Scalar>(&mut self, step: u64, t_ms: f64, state: &State<T>) -> Result<(), WriteError> {
        let index = self.next_index;
        self.next_index += 1;
        let variables = state.model().variables;
        let named: Vec<(&str, &Array3<T>, (f64, f64))> =
            self.save.iter().map(|&k| (variables[k].name, state.var(k), variables[k].display)).collect();
        let mut jobs: Vec<(Vec<String>, FileJob<'_>)> = Vec::new();
        if self.formats.npy {
            for &(name, array, _) in &named {
                let file = format!("{name}_{index:06}.npy");
                let path = self.path_of(&file)?;
                jobs.push((vec![file], Box::new(move || npy::write(&path, array).map_err(at(path)))));
            }
        }
        if self.formats.vti {
            let file = format!("fields_{index:06}.vti");
            let path = self.path_of(&file)?;
            let (named, dx) = (&named, self.dx);
            jobs.push((
                vec![file],
                Box::new(move || {
                    let arrays: Vec<VtiArray> = named
                        .iter()
                        .map(|(name, a, _)| VtiArray::new(name, a.as_slice().expect("standard layout")))
                        .collect();
                    let d = state.dims();
                    vti::write(&path, [d.nx, d.ny, d.nz], dx, t_ms, &arrays).map_err(at(path))
                }),
            ));
        }
        if self.formats.png {
            // The pictures one after the other on one thread: each drawing
            // holds a canvas, and one at a time keeps the memory a run
            // needs at its estimate whatever the number of variables saved.
            let mut pictures = Vec::new();
            for (&k, &(name, array, (lo, hi))) in self.save.iter().zip(&named) {
                let file = format!("{name}_{index:06}.png");
                let path = self.path_of(&file)?;
                let time_unit = state.model().units.time;
                let title = format!("{name}  t = {} {time_unit}", crate::io::image::label(t_ms));
                let unit = variables[k].unit;
                // "1" marks a dimensionless variable: its name alone.
                let bar_label = if unit == "1" { name.to_string() } else { format!("{name} ({unit})") };
                pictures.push((file, path, array, lo, hi, title, bar_label));
            }
            let files = pictures.iter().map(|p| p.0.clone()).collect();
            jobs.push((
                files,
                Box::new(move || {
                    for (_, path, array, lo, hi, title, bar_label) in pictures {
                        write_midplanes(&path, array, lo, hi, &title, &bar_label).map_err(at(path))?;
                    }
                    Ok(())
                }),
            ));
        }
        let files = write_all(jobs, self.parallel)?;
        self.records.push(SnapshotRecord { index, step, t_ms, files });
        self.index_pace.behind = true;
        if self.index_pace.affordable() {
            self.flush_index()?;
        }
        Ok(())
    }

    /// The path of this run's file `name`, recorded as the run's.
    fn path_of(&self, name: &str) -> Result<PathBuf, WriteError> {
        self.dir.file(name).map_err(at(self.dir.existing(name)))
    }

    /// Brings the index (and `fields.pvd`) up to date with the snapshots
    /// written, if it is behind: before a checkpoint, which counts the
    /// snapshots on disk, and at the end of a run.
    pub fn flush_index(&mut self) -> Result<(), WriteError> {
        if !self.index_pace.behind {
            return Ok(());
        }
        let t0 = Instant::now();
        self.write_indexes()?;
        self.index_pace.spent += t0.elapsed();
        self.index_pace.behind = false;
        Ok(())
    }

    fn write_indexes(&self) -> Result<(), WriteError> {
        let path = self.path_of(INDEX_FILE)?;
        write_json_atomic(&path, &self.records).map_err(at(path))?;
        if self.formats.vti {
            let entries: Vec<PvdEntry> = self
                .records
                .iter()
                .filter_map(|r| {
                    let file = r.files.iter().find(|f| f.ends_with(".vti"))?;
                    Some(PvdEntry { t_ms: r.t_ms, file: file.clone() })
                })
                .collect();
            let path = self.path_of("fields.pvd")?;
            write_atomic(&path, &vti::encode_pvd(&entries)).map_err(at(path))?;
        }
        Ok(())
    }

    /// Writes the maps: `activation.npy`, with repolarisation also
    /// `repolarisation.npy` and `apd.npy` (float32, ms, shape (nz, ny, nx),
    /// or (beats, nz, ny, nx) in per-beat mode, oldest beat first; NaN where
    /// a cell has no such time), one `activation.vti` with every map as an
    /// array (`activation_ms`, `repolarisation_ms`, `apd_ms`, with a `_beatK`
    /// suffix per beat; `_tu` for a model in time units) and, with PNG
    /// output, `activation.png` and `apd.png` (the latest beat), times in
    /// the model's `units`; returns the file names.
    pub fn write_maps(&self, maps: &Maps, units: &Units) -> Result<Vec<String>, WriteError> {
        let tag = UnitTags::of(units).time;
        let dims = maps.dims;
        let ordered = maps.ordered();
        let cells = dims.cells();
        let grid = [dims.nz as usize, dims.ny as usize, dims.nx as usize];
        let shape: Vec<usize> = if maps.recording.beats.is_some() {
            [&[ordered.fields][..], &grid[..]].concat()
        } else {
            grid.to_vec()
        };
        let mut fields: Vec<(&str, &[f32])> = vec![("activation", &ordered.activation)];
        if let (Some(r), Some(a)) = (&ordered.repolarisation, &ordered.apd) {
            fields.push(("repolarisation", r));
            fields.push(("apd", a));
        }
        let names: Vec<String> = fields
            .iter()
            .flat_map(|(name, _)| {
                (0..ordered.fields).map(move |b| match maps.recording.beats {
                    Some(_) => format!("{name}_{tag}_beat{b}"),
                    None => format!("{name}_{tag}"),
                })
            })
            .collect();
        let mut jobs: Vec<(Vec<String>, FileJob<'_>)> = Vec::new();
        for &(name, values) in &fields {
            let file = format!("{name}.npy");
            let path = self.path_of(&file)?;
            let shape = &shape;
            jobs.push((
                vec![file],
                Box::new(move || {
                    write_atomic_with(&path, |w| npy::write_shaped_to(w, shape, values)).map_err(at(path))
                }),
            ));
        }
        let file = "activation.vti".to_string();
        let path = self.path_of(&file)?;
        let (fields_ref, names, dx, per_map) = (&fields, &names, self.dx, ordered.fields);
        jobs.push((
            vec![file],
            Box::new(move || {
                let mut arrays = Vec::new();
                for (k, (_, values)) in fields_ref.iter().enumerate() {
                    for b in 0..per_map {
                        arrays.push(VtiArray::new(
                            &names[k * per_map + b],
                            &values[b * cells..(b + 1) * cells],
                        ));
                    }
                }
                vti::write(&path, [dims.nx, dims.ny, dims.nz], dx, 0.0, &arrays).map_err(at(path))
            }),
        ));
        if self.formats.png {
            let last = per_map - 1;
            let mut pictures = Vec::new();
            for &(name, values) in &fields {
                if name == "repolarisation" {
                    continue;
                }
                let (title, bar) = match name {
                    "apd" => (
                        format!("APD, threshold {}", label(maps.recording.down.unwrap_or(f64::NAN))),
                        format!("APD ({})", units.time),
                    ),
                    _ => (
                        format!("activation time, threshold {}", label(maps.recording.up)),
                        format!("activation time ({})", units.time),
                    ),
                };
                let file = format!("{name}.png");
                let path = self.path_of(&file)?;
                pictures.push((file, path, values, title, bar));
            }
            let files = pictures.iter().map(|p| p.0.clone()).collect();
            jobs.push((
                files,
                Box::new(move || {
                    // One picture at a time, as for the snapshots.
                    for (_, path, values, title, bar) in pictures {
                        let latest = values[last * cells..(last + 1) * cells].to_vec();
                        let (lo, hi) = finite_range(latest.iter().map(|&t| t as f64));
                        let array = Array3::from_shape_vec((grid[0], grid[1], grid[2]), latest)
                            .expect("a field of the grid");
                        write_midplanes(&path, &array, lo, hi, &title, &bar).map_err(at(path))?;
                    }
                    Ok(())
                }),
            ));
        }
        // One file at a time: the maps' files each build their data in memory
        // (the vti encodes every map, the pictures copy one), so together
        // they would exceed what the memory estimate allows for the end of
        // a run; they are written once.
        let files = write_all(jobs, false)?;
        Ok(files)
    }

    pub fn records(&self) -> &[SnapshotRecord] {
        &self.records
    }

    pub fn dir(&self) -> &OutputDir {
        &self.dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::models::Karma;
    use kernels_gpu::{CellModel, GridDims};

    #[test]
    fn the_index_is_rewritten_within_its_share_of_the_writing_time() {
        let start = Instant::now() - Duration::from_secs(10);
        let pace =
            |spent_ms| IndexPace { since: start, spent: Duration::from_millis(spent_ms), behind: true };
        assert!(pace(0).affordable());
        assert!(pace(400).affordable(), "4% of 10 s");
        assert!(!pace(600).affordable(), "6% of 10 s: the next snapshot waits");
    }

    #[test]
    fn an_index_behind_its_files_is_brought_up_to_date_by_a_flush() {
        let dir = std::env::temp_dir().join(format!("fibril-index-{}", std::process::id()));
        let out = OutputDir::prepare(&dir, true).unwrap();
        let mut writer = SnapshotWriter::new(out, vec![0], Formats::default(), 0.6);
        let state = State::<f32>::uniform(Karma::INFO, GridDims::new(2, 2, 2), &[1.0, 0.5]);
        writer.write(0, 0.0, &state).unwrap();
        // Past its share, the index waits for the next flush.
        writer.index_pace.spent = Duration::from_secs(3600);
        writer.write(5, 0.25, &state).unwrap();
        let on_disk = |dir: &std::path::Path| -> Vec<SnapshotRecord> {
            serde_json::from_slice(&std::fs::read(dir.join(INDEX_FILE)).unwrap()).unwrap()
        };
        assert_eq!(on_disk(&dir).len(), 1, "behind by one");
        writer.flush_index().unwrap();
        assert_eq!(on_disk(&dir), writer.records(), "every snapshot written");
        assert_eq!(writer.records()[1].files, ["U_000001.npy"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

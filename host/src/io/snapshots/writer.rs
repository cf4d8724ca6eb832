//! The writer of a run's snapshots: numbered in order, in the chosen
//! formats, listed in `snapshots.json` (and the formats' own indexes).

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use ndarray::Array3;
use std::time::{Duration, Instant};

use super::format::{FieldRef, Snapshot, Variable};
use super::jobs::{Jobs, write_all};
use super::record::{INDEX_FILE, SnapshotRecord, WriteError, at};
use super::registry::Formats;
use crate::io::atomic::write_json_atomic;
use crate::io::output_dir::OutputDir;
use crate::io::vtu::NodeMesh;
use crate::scalar::Scalar;
use crate::state::State;

/// The largest index a resumed run reads: a million snapshots' records.
const MAX_INDEX_BYTES: u64 = 256 << 20;

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
/// at most `INDEX_SHARE` of the writing time, so they list exactly the
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
    /// The mesh whose nodes the run's fields are, for a run on a
    /// tetrahedral mesh: fields go out in its file's node order.
    mesh: Option<Arc<NodeMesh>>,
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
            mesh: None,
        }
    }

    /// Writes the fields (and maps) of the nodes of `mesh`, in its file's
    /// node order: the state's cells are the solvers' nodes.
    pub fn on_mesh(mut self, mesh: Arc<NodeMesh>) -> Self {
        self.mesh = Some(mesh);
        self
    }

    /// The mesh of a run on a tetrahedral mesh.
    pub fn mesh(&self) -> Option<&NodeMesh> {
        self.mesh.as_deref()
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

    /// Writes snapshot `step` (time `t_ms`) of `state` in every chosen
    /// format, numbered next, and lists it in the index.
    pub fn write<T: Scalar>(&mut self, step: u64, t_ms: f64, state: &State<T>) -> Result<(), WriteError> {
        let index = self.next_index;
        self.next_index += 1;
        let model = state.model();
        let mesh = self.mesh.as_deref();
        // On a mesh, the saved variables in the file's node order.
        let in_file_order: Vec<Array3<T>> = match mesh {
            None => Vec::new(),
            Some(m) => self
                .save
                .iter()
                .map(|&k| {
                    let values = m.to_file_order(state.var(k).as_slice().expect("standard layout"));
                    Array3::from_shape_vec(state.var(k).raw_dim(), values).expect("one value per node")
                })
                .collect(),
        };
        let variables = self
            .save
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let v = &model.variables[k];
                let field = FieldRef::of(in_file_order.get(i).unwrap_or_else(|| state.var(k)));
                Variable { name: v.name, unit: v.unit, display: v.display, field }
            })
            .collect();
        let (time_unit, dims, dx) = (model.units.time, state.dims(), self.dx);
        let snap = Snapshot { index, t_ms, time_unit, dims, dx, variables, mesh };
        let path_of = |name: &str| self.path_of(name);
        let mut jobs: Jobs<'_> = Vec::new();
        for format in self.formats.chosen() {
            jobs.extend(format.jobs(&snap, &path_of)?);
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
    pub(super) fn path_of(&self, name: &str) -> Result<PathBuf, WriteError> {
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
        let path_of = |name: &str| self.path_of(name);
        for format in self.formats.chosen() {
            format.write_index(&self.records, &path_of)?;
        }
        Ok(())
    }

    /// The formats it writes.
    pub fn formats(&self) -> Formats {
        self.formats
    }

    /// Grid spacing of the fields it writes.
    pub fn dx(&self) -> f64 {
        self.dx
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

//! What a snapshot format is: a name and the files it writes of one
//! snapshot (and, if it keeps one, its own index of them).

use std::path::PathBuf;

use kernels_gpu::GridDims;
use ndarray::Array3;

use super::jobs::Jobs;
use super::record::{SnapshotRecord, WriteError, at};
use crate::io::atomic::write_atomic;
use crate::io::vti::{PvdEntry, VtiArray, encode_pvd};
use crate::io::vtu::NodeMesh;
use crate::scalar::Scalar;

/// A field of one variable, in the run's precision.
#[derive(Clone, Copy, Debug)]
pub enum FieldRef<'a> {
    F32(&'a Array3<f32>),
    F64(&'a Array3<f64>),
}

impl<'a> FieldRef<'a> {
    /// The field of a state in precision `T` (f32 or f64).
    pub fn of<T: Scalar>(array: &'a Array3<T>) -> Self {
        let any = array as &dyn std::any::Any;
        match (any.downcast_ref::<Array3<f32>>(), any.downcast_ref::<Array3<f64>>()) {
            (Some(a), _) => FieldRef::F32(a),
            (_, Some(a)) => FieldRef::F64(a),
            _ => unreachable!("a Scalar is f32 or f64"),
        }
    }
}

/// A variable written by a snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Variable<'a> {
    pub name: &'static str,
    /// Its unit ("1" for a dimensionless one).
    pub unit: &'static str,
    /// The range pictures colour it over, the same for every frame.
    pub display: (f64, f64),
    pub field: FieldRef<'a>,
}

/// One snapshot as the formats see it.
#[derive(Debug)]
pub struct Snapshot<'a> {
    /// Its number in the run (`U_000003.npy` is snapshot 3).
    pub index: usize,
    pub t_ms: f64,
    /// The model's unit of time, for labels.
    pub time_unit: &'static str,
    pub dims: GridDims,
    pub dx: f64,
    pub variables: Vec<Variable<'a>>,
    /// The mesh whose nodes the fields are (in its file's node order),
    /// for a run on a tetrahedral mesh; `None` on a grid.
    pub mesh: Option<&'a NodeMesh>,
}

/// The path of a run's file by name, recorded as the run's
/// (`OutputDir::file`).
pub type PathOf<'p> = &'p dyn Fn(&str) -> Result<PathBuf, WriteError>;

/// A snapshot file format.
pub trait SnapshotFormat: Sync {
    /// Its name in `--format` and in `summary.json`.
    fn name(&self) -> &'static str;
    /// Whether it writes the fields of a grid.
    fn on_grids(&self) -> bool {
        true
    }
    /// Whether it writes the node fields of a tetrahedral mesh.
    fn on_meshes(&self) -> bool {
        false
    }
    /// The jobs that write snapshot `snap`'s files, with their names.
    fn jobs<'a>(&self, snap: &'a Snapshot<'a>, path_of: PathOf<'_>) -> Result<Jobs<'a>, WriteError>;
    /// How many full copies of each saved field a snapshot in this format
    /// stores on disk (for the estimate `fibril info` gives; 0 for a
    /// picture, whose size the field does not set).
    fn field_copies(&self) -> u64 {
        0
    }
    /// Rewrites this format's own index of every snapshot written (a
    /// ParaView collection), when it keeps one; with `snapshots.json`.
    fn write_index(&self, _records: &[SnapshotRecord], _path_of: PathOf<'_>) -> Result<(), WriteError> {
        Ok(())
    }
}

impl<'a> Snapshot<'a> {
    /// The saved variables as named point arrays of a VTK file.
    pub fn point_arrays(&self) -> Vec<VtiArray<'a>> {
        self.variables
            .iter()
            .map(|v| match v.field {
                FieldRef::F32(a) => VtiArray::new(v.name, a.as_slice().expect("standard layout")),
                FieldRef::F64(a) => VtiArray::new(v.name, a.as_slice().expect("standard layout")),
            })
            .collect()
    }
}

/// Rewrites ParaView's collection `name` of the files ending in `ext`
/// among the snapshots written, by time.
pub fn write_collection(
    records: &[SnapshotRecord],
    ext: &str,
    name: &str,
    path_of: PathOf<'_>,
) -> Result<(), WriteError> {
    let entries: Vec<PvdEntry> = records
        .iter()
        .filter_map(|r| {
            let file = r.files.iter().find(|f| f.ends_with(ext))?;
            Some(PvdEntry { t_ms: r.t_ms, file: file.clone() })
        })
        .collect();
    let path = path_of(name)?;
    write_atomic(&path, &encode_pvd(&entries)).map_err(at(path))
}

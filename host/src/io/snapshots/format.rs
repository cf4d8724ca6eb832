//! What a snapshot format is: a name and the files it writes of one
//! snapshot (and, if it keeps one, its own index of them), and the set of
//! formats a run chose.

use std::path::PathBuf;

use kernels_gpu::GridDims;
use ndarray::Array3;
use serde::ser::SerializeMap;

use super::jobs::Jobs;
use super::record::{SnapshotRecord, WriteError};
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
}

/// The path of a run's file by name, recorded as the run's
/// (`OutputDir::file`).
pub type PathOf<'p> = &'p dyn Fn(&str) -> Result<PathBuf, WriteError>;

/// A snapshot file format.
pub trait SnapshotFormat: Sync {
    /// Its name in `--format` and in `summary.json`.
    fn name(&self) -> &'static str;
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

/// Every snapshot format, in the order a snapshot writes them.
pub static FORMATS: [&dyn SnapshotFormat; 3] = [&super::npy::Npy, &super::vti::Vti, &super::png::Png];

/// A name in `--format` that is no format.
#[derive(Debug, thiserror::Error)]
#[error("unknown snapshot format {name:?}; the formats are {}", names())]
pub struct UnknownFormat {
    pub name: String,
}

/// "npy, vti, png", for messages and help.
pub fn names() -> String {
    FORMATS.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// The formats a run writes its snapshots in (a subset of [`FORMATS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formats(u32);

impl Formats {
    /// The formats named (each at most once counts once).
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<Self, UnknownFormat> {
        let mut bits = 0;
        for name in names {
            let name = name.as_ref();
            let k = FORMATS
                .iter()
                .position(|f| f.name() == name)
                .ok_or_else(|| UnknownFormat { name: name.to_string() })?;
            bits |= 1 << k;
        }
        Ok(Self(bits))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.chosen().any(|f| f.name() == name)
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Full copies of each saved field a snapshot stores on disk.
    pub fn field_copies(&self) -> u64 {
        self.chosen().map(|f| f.field_copies()).sum()
    }

    /// The chosen formats, in [`FORMATS`] order.
    pub fn chosen(&self) -> impl Iterator<Item = &'static dyn SnapshotFormat> + '_ {
        FORMATS.iter().enumerate().filter(|(k, _)| self.0 & (1 << k) != 0).map(|(_, f)| *f)
    }
}

impl Default for Formats {
    /// npy alone.
    fn default() -> Self {
        Self::from_names(&["npy"]).expect("npy is a format")
    }
}

impl serde::Serialize for Formats {
    /// `{"npy": true, "vti": false, "png": false}`: every format with
    /// whether the run writes it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(FORMATS.len()))?;
        for (k, f) in FORMATS.iter().enumerate() {
            map.serialize_entry(f.name(), &(self.0 & (1 << k) != 0))?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_named_from_the_registry_and_serialize_as_before() {
        let f = Formats::from_names(&["png", "npy", "png"]).unwrap();
        assert!(f.contains("npy") && f.contains("png") && !f.contains("vti"));
        assert_eq!(f.chosen().map(|f| f.name()).collect::<Vec<_>>(), ["npy", "png"]);
        assert_eq!(serde_json::to_string(&f).unwrap(), r#"{"npy":true,"vti":false,"png":true}"#);
        let e = Formats::from_names(&["jpeg"]).unwrap_err().to_string();
        assert!(e.contains("\"jpeg\"") && e.contains("npy, vti, png"), "{e}");
        assert_eq!(Formats::default(), Formats::from_names(&["npy"]).unwrap());
        assert!(Formats::from_names::<&str>(&[]).unwrap().is_empty());
    }
}

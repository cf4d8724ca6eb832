//! `U_000000.npy`: one NumPy array per saved variable, shape (nz, ny, nx)
//! on a grid, (nodes,) in the file's node order on a mesh, in the run's
//! precision.

use super::format::{FieldRef, PathOf, Snapshot, SnapshotFormat};
use super::jobs::Jobs;
use super::record::{WriteError, at};
use crate::io::atomic::write_atomic_with;
use crate::io::npy;
use crate::scalar::Scalar;
use ndarray::Array3;

pub struct Npy;

impl SnapshotFormat for Npy {
    fn name(&self) -> &'static str {
        "npy"
    }

    fn field_copies(&self) -> u64 {
        1
    }

    fn on_meshes(&self) -> bool {
        true
    }

    fn jobs<'a>(&self, snap: &'a Snapshot<'a>, path_of: PathOf<'_>) -> Result<Jobs<'a>, WriteError> {
        let mut jobs: Jobs<'a> = Vec::new();
        for v in &snap.variables {
            let file = format!("{}_{:06}.npy", v.name, snap.index);
            let path = path_of(&file)?;
            let (field, mesh) = (v.field, snap.mesh.is_some());
            jobs.push((
                vec![file],
                Box::new(move || {
                    match (field, mesh) {
                        (FieldRef::F32(a), false) => npy::write(&path, a),
                        (FieldRef::F64(a), false) => npy::write(&path, a),
                        (FieldRef::F32(a), true) => write_nodes(&path, a),
                        (FieldRef::F64(a), true) => write_nodes(&path, a),
                    }
                    .map_err(at(path))
                }),
            ));
        }
        Ok(jobs)
    }
}

/// A mesh's node field (the nodes as a line of cells) as a 1-D array.
fn write_nodes<T: Scalar>(path: &std::path::Path, a: &Array3<T>) -> std::io::Result<()> {
    let values = a.as_slice().expect("standard layout");
    write_atomic_with(path, |w| npy::write_shaped_to(w, &[values.len()], values))
}

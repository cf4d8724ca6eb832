//! `U_000000.npy`: one NumPy array per saved variable, shape (nz, ny, nx),
//! in the run's precision.

use super::format::{FieldRef, PathOf, Snapshot, SnapshotFormat};
use super::jobs::Jobs;
use super::record::{WriteError, at};
use crate::io::npy;

pub struct Npy;

impl SnapshotFormat for Npy {
    fn name(&self) -> &'static str {
        "npy"
    }

    fn field_copies(&self) -> u64 {
        1
    }

    fn jobs<'a>(&self, snap: &'a Snapshot<'a>, path_of: PathOf<'_>) -> Result<Jobs<'a>, WriteError> {
        let mut jobs: Jobs<'a> = Vec::new();
        for v in &snap.variables {
            let file = format!("{}_{:06}.npy", v.name, snap.index);
            let path = path_of(&file)?;
            let field = v.field;
            jobs.push((
                vec![file],
                Box::new(move || {
                    match field {
                        FieldRef::F32(a) => npy::write(&path, a),
                        FieldRef::F64(a) => npy::write(&path, a),
                    }
                    .map_err(at(path))
                }),
            ));
        }
        Ok(jobs)
    }
}

//! `fields_000000.vti`: every saved variable of a snapshot as point data of
//! one VTK ImageData file, listed with its time in `fields.pvd` for
//! ParaView.

use super::format::{PathOf, Snapshot, SnapshotFormat, write_collection};
use super::jobs::Jobs;
use super::record::{SnapshotRecord, WriteError, at};
use crate::io::vti;

pub struct Vti;

/// ParaView's collection of the snapshots' files, by time.
const COLLECTION: &str = "fields.pvd";

impl SnapshotFormat for Vti {
    fn name(&self) -> &'static str {
        "vti"
    }

    fn field_copies(&self) -> u64 {
        1
    }

    fn jobs<'a>(&self, snap: &'a Snapshot<'a>, path_of: PathOf<'_>) -> Result<Jobs<'a>, WriteError> {
        let file = format!("fields_{:06}.vti", snap.index);
        let path = path_of(&file)?;
        let job = move || {
            let arrays = snap.point_arrays();
            let d = snap.dims;
            vti::write(&path, [d.nx, d.ny, d.nz], snap.dx, snap.t_ms, &arrays).map_err(at(path))
        };
        Ok(vec![(vec![file], Box::new(job))])
    }

    fn write_index(&self, records: &[SnapshotRecord], path_of: PathOf<'_>) -> Result<(), WriteError> {
        write_collection(records, ".vti", COLLECTION, path_of)
    }
}

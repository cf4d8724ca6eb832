//! `nodes_000000.vtu`: every saved variable of a snapshot of a tetrahedral
//! mesh as point data of one VTK UnstructuredGrid file (the mesh in its
//! file's node order), listed with its time in `nodes.pvd` for ParaView.

use super::format::{PathOf, Snapshot, SnapshotFormat, write_collection};
use super::jobs::Jobs;
use super::record::{SnapshotRecord, WriteError, at};
use crate::io::vtu;

pub struct Vtu;

/// ParaView's collection of the snapshots' files, by time.
const COLLECTION: &str = "nodes.pvd";

impl SnapshotFormat for Vtu {
    fn name(&self) -> &'static str {
        "vtu"
    }

    fn on_grids(&self) -> bool {
        false
    }

    fn on_meshes(&self) -> bool {
        true
    }

    fn field_copies(&self) -> u64 {
        1
    }

    fn jobs<'a>(&self, snap: &'a Snapshot<'a>, path_of: PathOf<'_>) -> Result<Jobs<'a>, WriteError> {
        let mesh = snap.mesh.expect("the vtu format is chosen for meshes only (Formats::unfit)");
        let file = format!("nodes_{:06}.vtu", snap.index);
        let path = path_of(&file)?;
        let job = move || {
            let arrays = snap.point_arrays();
            vtu::write(&path, mesh, snap.t_ms, &arrays).map_err(at(path))
        };
        Ok(vec![(vec![file], Box::new(job))])
    }

    fn write_index(&self, records: &[SnapshotRecord], path_of: PathOf<'_>) -> Result<(), WriteError> {
        write_collection(records, ".vtu", COLLECTION, path_of)
    }
}

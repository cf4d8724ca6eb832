//! The activation, repolarisation and APD maps of a run, written when it
//! ends: npy and one vti always, pictures with the png format.

use ndarray::Array3;

use super::jobs::{Jobs, write_all};
use super::record::{WriteError, at};
use super::writer::SnapshotWriter;
use crate::events::recording::Maps;
use crate::io::atomic::write_atomic_with;
use crate::io::image::{finite_range, label, write_midplanes};
use crate::io::npy;
use crate::io::vti::{self, VtiArray};
use crate::io::vtu;
use crate::units::UnitTags;
use kernels_gpu::model::Units;

impl SnapshotWriter {
    /// Writes the maps: `activation.npy`, with repolarisation also
    /// `repolarisation.npy` and `apd.npy` (float32, ms, shape (nz, ny, nx),
    /// or (beats, nz, ny, nx) in per-beat mode, oldest beat first; NaN where
    /// a cell has no such time), one `activation.vti` with every map as an
    /// array (`activation_ms`, `repolarisation_ms`, `apd_ms`, with a `_beatK`
    /// suffix per beat; `_tu` for a model in time units) and, with PNG
    /// output, `activation.png` and `apd.png` (the latest beat), times in
    /// the model's `units`; returns the file names.
    pub fn write_maps(&self, maps: &Maps, units: &Units) -> Result<Vec<String>, WriteError> {
        let path_of = |name: &str| self.path_of(name);
        let tag = UnitTags::of(units).time;
        let dims = maps.dims;
        let mut ordered = maps.ordered();
        let cells = dims.cells();
        let mesh = self.mesh();
        let grid = match mesh {
            // A mesh's nodes, in its file's order.
            Some(m) => {
                ordered.in_node_order(|beat| m.to_file_order(beat));
                vec![cells]
            }
            None => vec![dims.nz as usize, dims.ny as usize, dims.nx as usize],
        };
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
        let mut jobs: Jobs<'_> = Vec::new();
        for &(name, values) in &fields {
            let file = format!("{name}.npy");
            let path = path_of(&file)?;
            let shape = &shape;
            jobs.push((
                vec![file],
                Box::new(move || {
                    write_atomic_with(&path, |w| npy::write_shaped_to(w, shape, values)).map_err(at(path))
                }),
            ));
        }
        let file = if mesh.is_some() { "activation.vtu" } else { "activation.vti" }.to_string();
        let path = path_of(&file)?;
        let (fields_ref, names, dx, per_map) = (&fields, &names, self.dx(), ordered.fields);
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
                match mesh {
                    Some(m) => vtu::write(&path, m, 0.0, &arrays),
                    None => vti::write(&path, [dims.nx, dims.ny, dims.nz], dx, 0.0, &arrays),
                }
                .map_err(at(path))
            }),
        ));
        if self.formats().contains("png") && mesh.is_none() {
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
                let path = path_of(&file)?;
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
}

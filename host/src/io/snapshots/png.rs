//! `U_000000.png`: a picture of each saved variable, its three mid-planes
//! coloured over the variable's display range (the same for every frame)
//! with a colour bar and the time.

use super::format::{FieldRef, PathOf, Snapshot, SnapshotFormat};
use super::jobs::Jobs;
use super::record::{WriteError, at};
use crate::io::image::{label, write_midplanes};

pub struct Png;

impl SnapshotFormat for Png {
    fn name(&self) -> &'static str {
        "png"
    }

    fn jobs<'a>(&self, snap: &'a Snapshot<'a>, path_of: PathOf<'_>) -> Result<Jobs<'a>, WriteError> {
        // The pictures one after the other on one thread: each drawing
        // holds a canvas, and one at a time keeps the memory a run needs at
        // its estimate whatever the number of variables saved.
        let mut pictures = Vec::new();
        for v in &snap.variables {
            let file = format!("{}_{:06}.png", v.name, snap.index);
            let path = path_of(&file)?;
            let title = format!("{}  t = {} {}", v.name, label(snap.t_ms), snap.time_unit);
            // "1" marks a dimensionless variable: its name alone.
            let bar = if v.unit == "1" { v.name.to_string() } else { format!("{} ({})", v.name, v.unit) };
            pictures.push((file, path, v, title, bar));
        }
        let files = pictures.iter().map(|p| p.0.clone()).collect();
        let job = move || {
            for (_, path, v, title, bar) in pictures {
                let (lo, hi) = v.display;
                match v.field {
                    FieldRef::F32(a) => write_midplanes(&path, a, lo, hi, &title, &bar),
                    FieldRef::F64(a) => write_midplanes(&path, a, lo, hi, &title, &bar),
                }
                .map_err(at(path))?;
            }
            Ok(())
        };
        Ok(vec![(files, Box::new(job))])
    }
}

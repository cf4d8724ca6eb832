//! Activation, repolarisation and APD maps, recorded by the solvers at
//! every step (`kernels_gpu::events::Recorder`, fused into the step
//! kernels), and what is needed to continue them after a checkpoint.
//!
//! The activation time of a cell is the first upward crossing of the
//! activation threshold by variable 0, interpolated linearly within the
//! step in which it happens (exact to rounding for a straight upstroke);
//! the repolarisation time the first downward crossing of the
//! repolarisation threshold after it; APD = repolarisation - activation
//! (APD at that level: pass the 90%-repolarisation level of the model's
//! action potential as `--repolarisation-threshold` for APD90). A cell
//! already at or above the threshold when a run starts is activated at
//! t = 0, and one that a set-value stimulus lifts over it at the
//! stimulus's time. In per-beat mode the maps keep the last N beats of
//! every cell, for paced runs (restitution, alternans).

use kernels_gpu::Real;
use kernels_gpu::events::Recorder;
use kernels_gpu::layout::grid::GridDims;
use rayon::prelude::*;

use crate::layout::zsplit::ZSplit;

/// What is recorded, as the run asks for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recording {
    /// Activation threshold (upward crossings of variable 0).
    pub up: f64,
    /// Repolarisation threshold, when repolarisation and APD are recorded.
    pub down: Option<f64>,
    /// Keep the last `beats` activations of every cell (per-beat mode);
    /// `None` keeps the first one only.
    pub beats: Option<u32>,
}

impl Recording {
    /// Slots per cell.
    pub fn slots(&self) -> usize {
        self.beats.map_or(1, |b| b as usize)
    }

    /// The recorder over host buffers of `cells` cells, or device
    /// addresses; `t_ms` is set per step.
    pub fn recorder<T: Real>(&self, addresses: [u64; 3], cells: usize, dt_ms: f64) -> Recorder<T> {
        Recorder {
            activation: addresses[0],
            repolarisation: addresses[1],
            count: addresses[2],
            t_ms: 0.0,
            dt_ms,
            cells: u32::try_from(cells).expect("grids have fewer than 2^32 cells"),
            beats: self.slots() as u32,
            up: T::from_f64(self.up),
            // Without repolarisation nothing is written at a downward
            // crossing; a threshold that no value is below keeps the
            // kernels from calling the crossing routine for nothing.
            down: T::from_f64(self.down.unwrap_or(f64::NEG_INFINITY)),
        }
    }
}

/// The maps of one grid (the whole grid, or a sub-domain with its halo
/// slices), row-major, `slots` fields of `cells` each.
#[derive(Clone, Debug, PartialEq)]
pub struct Maps {
    pub recording: Recording,
    pub dims: GridDims,
    /// Activation times, ms; NaN = not (yet) activated.
    pub activation: Vec<f32>,
    /// Repolarisation times, ms, when recorded.
    pub repolarisation: Option<Vec<f32>>,
    /// Activations so far per cell (per-beat mode).
    pub count: Option<Vec<u32>>,
}

impl Maps {
    /// Empty maps for a grid: nothing activated yet.
    pub fn new(recording: Recording, dims: GridDims) -> Self {
        let n = dims.cells() * recording.slots();
        Self {
            recording,
            dims,
            activation: vec![f32::NAN; n],
            repolarisation: recording.down.map(|_| vec![f32::NAN; n]),
            count: recording.beats.map(|_| vec![0; dims.cells()]),
        }
    }

    /// Maps for a run that starts at `t_ms` from `u`: cells at or above
    /// the threshold are activated then (they are excited, whatever
    /// happened before).
    pub fn at_start<T: Real>(recording: Recording, dims: GridDims, u: &[T], t_ms: f64) -> Self {
        let mut maps = Self::new(recording, dims);
        let up = T::from_f64(recording.up);
        let cells = dims.cells();
        maps.activation[..cells].par_iter_mut().zip(u.par_iter()).for_each(|(t, &v)| {
            if v >= up {
                *t = t_ms as f32;
            }
        });
        if let Some(count) = &mut maps.count {
            count.par_iter_mut().zip(u.par_iter()).for_each(|(c, &v)| *c = u32::from(v >= up));
        }
        maps
    }

    pub fn cells(&self) -> usize {
        self.dims.cells()
    }

    /// The maps of some cells as maps of a line of its own (a part of a
    /// split, over its stored cells): cell i of the line is `cells[i]` of
    /// these maps, or never activated where that is `u32::MAX` (a stored
    /// cell that stands for none, as a halo slice beyond the grid).
    pub fn of_cells(&self, cells: &[u32]) -> Maps {
        let (whole, slots) = (self.cells(), self.recording.slots());
        let pick = |field: &[f32]| -> Vec<f32> {
            (0..slots)
                .flat_map(|s| cells.iter().map(move |&c| (s, c)))
                .map(|(s, c)| if c == u32::MAX { f32::NAN } else { field[s * whole + c as usize] })
                .collect()
        };
        Maps {
            recording: self.recording,
            dims: GridDims::new(cells.len() as u32, 1, 1),
            activation: pick(&self.activation),
            repolarisation: self.repolarisation.as_deref().map(pick),
            count: self
                .count
                .as_ref()
                .map(|n| cells.iter().map(|&c| if c == u32::MAX { 0 } else { n[c as usize] }).collect()),
        }
    }

    /// Sets cells of these maps from `part`'s (maps of a part of a
    /// split): each `(p, c)` of `pairs` copies part cell p into cell c.
    pub fn set_cells_from(&mut self, part: &Maps, pairs: impl Iterator<Item = (usize, usize)>) {
        let (whole, stored, slots) = (self.cells(), part.cells(), part.recording.slots());
        for (p, c) in pairs {
            for s in 0..slots {
                self.activation[s * whole + c] = part.activation[s * stored + p];
                if let (Some(o), Some(q)) = (&mut self.repolarisation, &part.repolarisation) {
                    o[s * whole + c] = q[s * stored + p];
                }
            }
            if let (Some(o), Some(q)) = (&mut self.count, &part.count) {
                o[c] = q[p];
            }
        }
    }

    /// The addresses a [`Recorder`] over these host buffers takes.
    pub fn host_addresses(&mut self) -> [u64; 3] {
        [
            self.activation.as_mut_ptr() as u64,
            self.repolarisation.as_mut().map_or(0, |r| r.as_mut_ptr() as u64),
            self.count.as_mut().map_or(0, |c| c.as_mut_ptr() as u64),
        ]
    }

    /// Cells activated at least once.
    pub fn activated(&self) -> usize {
        match &self.count {
            Some(count) => count.iter().filter(|&&n| n > 0).count(),
            None => self.activation.iter().filter(|t| !t.is_nan()).count(),
        }
    }

    /// The fields in time order of beats, for writing: in first-crossing
    /// mode one field each; in per-beat mode `beats` fields, oldest first,
    /// field j of a cell with c activations holding activation
    /// c - beats + j (NaN where that activation did not happen).
    pub fn ordered(&self) -> OrderedMaps {
        let cells = self.cells();
        let slots = self.recording.slots();
        let order = |field: &[f32]| -> Vec<f32> {
            let Some(count) = &self.count else {
                return field.to_vec();
            };
            let mut out = vec![f32::NAN; field.len()];
            for j in 0..slots {
                out[j * cells..(j + 1) * cells].par_iter_mut().enumerate().for_each(|(i, o)| {
                    let c = count[i] as usize;
                    // Activation number c - slots + j, if it exists.
                    if c + j >= slots {
                        let n = c + j - slots;
                        *o = field[(n % slots) * cells + i];
                    }
                });
            }
            out
        };
        let activation = order(&self.activation);
        let repolarisation = self.repolarisation.as_deref().map(order);
        let apd = repolarisation
            .as_ref()
            .map(|rep| activation.par_iter().zip(rep.par_iter()).map(|(&a, &r)| r - a).collect::<Vec<f32>>());
        OrderedMaps { fields: slots, activation, repolarisation, apd }
    }

    /// The maps of sub-domain `i` (with its halo slices, as its solver
    /// keeps them) cut from the whole grid's.
    pub fn scatter(&self, split: &ZSplit, i: usize) -> Maps {
        let local = split.local_dims(self.dims, i);
        let slots = self.recording.slots();
        let cut = |field: &[f32]| scatter_field(field, self.dims, split, i, slots);
        Maps {
            recording: self.recording,
            dims: local,
            activation: cut(&self.activation),
            repolarisation: self.repolarisation.as_deref().map(cut),
            count: self.count.as_deref().map(|c| scatter_field(c, self.dims, split, i, 1)),
        }
    }

    /// The whole grid's maps from every sub-domain's (their owned slices).
    pub fn gather(split: &ZSplit, parts: &[Maps]) -> Maps {
        let first = &parts[0];
        let dims = GridDims::new(first.dims.nx, first.dims.ny, split.nz());
        let slots = first.recording.slots();
        let fields = |get: fn(&Maps) -> &[f32]| -> Vec<&[f32]> { parts.iter().map(get).collect() };
        Maps {
            recording: first.recording,
            dims,
            activation: gather_field(&fields(|m| &m.activation), dims, split, slots),
            repolarisation: first.repolarisation.as_ref().map(|_| {
                let get: fn(&Maps) -> &[f32] = |m| m.repolarisation.as_deref().expect("every part records");
                gather_field(&fields(get), dims, split, slots)
            }),
            count: first.count.as_ref().map(|_| {
                let counts: Vec<&[u32]> =
                    parts.iter().map(|m| m.count.as_deref().expect("every part counts")).collect();
                gather_field(&counts, dims, split, 1)
            }),
        }
    }
}

/// Sub-domain `i`'s slices (halos included, by the split's mirror rule) of
/// each of the `slots` fields of `whole`, the whole grid's.
fn scatter_field<V: Copy>(field: &[V], whole: GridDims, split: &ZSplit, i: usize, slots: usize) -> Vec<V> {
    let local = split.local_dims(whole, i);
    let slice = whole.slice_cells();
    let mut out = Vec::with_capacity(local.cells() * slots);
    for s in 0..slots {
        let base = s * whole.cells();
        for z in 0..local.nz {
            let g = split.global_slice(i, z) as usize;
            out.extend_from_slice(&field[base + g * slice..base + (g + 1) * slice]);
        }
    }
    out
}

/// The whole grid's `slots` fields from every part's owned slices.
fn gather_field<V: Copy + Default>(parts: &[&[V]], whole: GridDims, split: &ZSplit, slots: usize) -> Vec<V> {
    let slice = whole.slice_cells();
    let mut out = vec![V::default(); whole.cells() * slots];
    for (i, field) in parts.iter().enumerate() {
        let local_cells = split.local_dims(whole, i).cells();
        let owned = split.owned(i);
        for s in 0..slots {
            let src = s * local_cells + split.depth() as usize * slice;
            let dst = s * whole.cells() + owned.start as usize * slice;
            let n = owned.len() * slice;
            out[dst..dst + n].copy_from_slice(&field[src..src + n]);
        }
    }
    out
}

/// Maps ready to write: `fields` fields of the grid each (1, or the beats).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderedMaps {
    pub fields: usize,
    pub activation: Vec<f32>,
    pub repolarisation: Option<Vec<f32>>,
    /// Repolarisation - activation, ms (NaN where either is missing).
    pub apd: Option<Vec<f32>>,
}

impl OrderedMaps {
    /// Re-orders the cells of every field, beat by beat, with `order`
    /// (a mesh's nodes into its file's order).
    pub fn in_node_order(&mut self, order: impl Fn(&[f32]) -> Vec<f32>) {
        let beats = self.fields;
        let each = |field: &mut Vec<f32>| {
            let cells = field.len() / beats;
            *field = field.chunks(cells).flat_map(&order).collect();
        };
        each(&mut self.activation);
        self.repolarisation.iter_mut().for_each(each);
        self.apd.iter_mut().for_each(each);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beats(n: u32) -> Recording {
        Recording { up: 0.5, down: Some(0.25), beats: Some(n) }
    }

    #[test]
    fn cells_excited_at_the_start_are_activated_then() {
        let dims = GridDims::new(3, 1, 1);
        let first = Recording { up: 0.5, down: None, beats: None };
        let m = Maps::at_start(first, dims, &[0.0f32, 0.5, 3.0], 2.0);
        assert!(m.activation[0].is_nan());
        assert_eq!((m.activation[1], m.activation[2]), (2.0, 2.0));
        assert_eq!(m.activated(), 2);
        assert!(m.repolarisation.is_none() && m.count.is_none());
    }

    #[test]
    fn beats_are_written_oldest_first() {
        let dims = GridDims::new(2, 1, 1);
        let mut m = Maps::new(beats(2), dims);
        let addresses = m.host_addresses();
        let rec = m.recording.recorder::<f64>(addresses, 2, 1.0);
        unsafe {
            // Cell 0: three beats at 10, 20, 30 (each repolarising 5 ms
            // later); cell 1: one beat at 40.
            for t in [10.0, 20.0, 30.0] {
                rec.at(t).record_jump(0, 0.0, 1.0);
                rec.at(t + 5.0).record_jump(0, 1.0, 0.0);
            }
            rec.at(40.0).record_jump(1, 0.0, 1.0);
        }
        let o = m.ordered();
        assert_eq!(o.fields, 2);
        // Field 0 (second to last beat), field 1 (last beat).
        assert_eq!((o.activation[0], o.activation[2]), (20.0, 30.0));
        assert!(o.activation[1].is_nan());
        assert_eq!(o.activation[3], 40.0);
        assert_eq!(o.apd.as_ref().unwrap()[2], 5.0);
        assert!(o.apd.unwrap()[3].is_nan(), "cell 1 has not repolarised");
    }

    #[test]
    fn scatter_then_gather_is_the_identity() {
        let dims = GridDims::new(2, 3, 7);
        let mut m = Maps::new(beats(2), dims);
        for (i, t) in m.activation.iter_mut().enumerate() {
            *t = i as f32;
        }
        // Values, not NaN, so that equality is tested.
        for (i, t) in m.repolarisation.as_mut().unwrap().iter_mut().enumerate() {
            *t = -(i as f32);
        }
        for (i, c) in m.count.as_mut().unwrap().iter_mut().enumerate() {
            *c = 3 * i as u32;
        }
        let split = ZSplit::balanced(7, 3).unwrap();
        let parts: Vec<Maps> = (0..3).map(|i| m.scatter(&split, i)).collect();
        assert_eq!(parts[0].dims.nz, split.local_dims(dims, 0).nz);
        assert_eq!(Maps::gather(&split, &parts), m);
    }
}

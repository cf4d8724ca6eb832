//! Spiral tips of a sheet and scroll-wave filaments of a volume, found
//! from variable 0 at two times (on the CPU here, on the GPU by the
//! `phase_plaquettes` kernel with the same per-plaquette routine), and
//! their CSV traces.
//!
//! A plaquette (four cells around a unit square of the grid) holds a phase
//! singularity when the phase of `(V(t - tau) - V*, V(t) - V*)` winds once
//! around it: the method, the exact charge and the sub-cell position are
//! those of [`kernels_gpu::tips`], applied here to every plaquette. The
//! caller keeps `V(t - tau)`: [`PhaseMemory`] on the host, or the solver
//! on its device (`Solver::phase_singularities`), with tau the interval
//! between the samples that [`SingularityRecorder`] records. tau should be well below
//! half a rotation period (a tenth to a quarter is usual); V* inside the
//! action potential's range (the model's activation threshold does).
//!
//! * A sheet (two axes of more than one cell) gives tips: one point per
//!   charged plaquette, with its charge (+1 for a wave rotating
//!   counterclockwise seen from the positive side of the missing axis: from
//!   +z, x to the right and y up, for the usual nz = 1).
//! * A volume gives filaments: the charged plaquettes normal to x, y and z
//!   (their charges are the filament's tangent components), linked when
//!   they are faces of one cube of eight cells, since a filament enters a
//!   cube through one face and leaves through another. Each connected set
//!   is one filament, its points in order along it (walked from an end, or
//!   around a ring). Filament ids number the filaments of one sample in
//!   the order of their first plaquette; they are not tracked over time.
//!
//! Positions are in cells (cell (i, j, k) at (i, j, k)) and in the
//! model's space unit (times dx; "mm" in names, as in
//! [`crate::events::ecg`]).
//!
//! [`plaquettes`] finds the charged plaquettes, [`sheet`] turns them into
//! tips and [`filaments`] into filaments, [`recorder`] does so sample
//! after sample over a run, and [`trace`] writes and reads the CSV.

pub mod filaments;
pub mod plaquettes;
pub mod recorder;
pub mod sheet;
#[cfg(test)]
mod testing;
pub mod trace;

pub use filaments::{Filament, FilamentPoint, find_filaments, link_filaments};
pub use plaquettes::{ChargedPlaquette, TipsError, charged_plaquettes};
pub use recorder::{PhaseMemory, SingularityRecorder};
pub use sheet::{Tip, find_tips, tips_from};
pub use trace::{FILAMENTS_FILE, FilamentTrace, TIPS_FILE, TipsTrace};

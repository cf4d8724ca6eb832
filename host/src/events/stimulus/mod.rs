//! Stimuli: variable 0 set to a value, or driven by a current, in a region
//! of the grid, at given steps.
//!
//! The solvers apply them on their own memory before the step they belong
//! to (on the GPU a kernel over the region's cells, no round trip through
//! the host), through the one routine `kernels_gpu::events::stimulate_cell`
//! that the CPU calls too, so CPU and GPU stay bit-identical.
//!
//! Semantics: at every step at which a stimulus is active, variable 0 is
//! *set* to `value` (by default the model's excited value) in its region
//! before that step is taken, or, with `current`, raised by `current * dt`
//! (a current injected during the step, split off from the step itself);
//! the other variables are left alone.
//! A stimulus with `duration_ms = 0` is active at one step, like the
//! paper's S1 and S2; one with `duration_ms = d` is active at the `d / dt`
//! steps `start, start + 1, ...`, so it clamps U for `d` ms. Periodic
//! pacing repeats that every `period_ms`, `count` times (or until the run
//! ends).
//!
//! The regions named after the paper's protocol follow the grid's shape:
//! `planar` is the slab `k <= 0.05 n` of the wave axis (z in 3D, y in a
//! sheet, x in a cable; see [`crate::init::wave_axis`]), and
//! `cross-field` takes `z_frac` along the wave axis and `x_frac` along the
//! cross axis (x in 3D and in a sheet).
//!
//! [`spec`] holds what a configuration writes and its checks, [`compiled`]
//! a stimulus ready to run over a [`region`], [`schedule`] all of a run's
//! and their application on the host.

pub mod compiled;
pub mod region;
pub mod schedule;
pub mod spec;
#[cfg(test)]
mod testing;

pub use compiled::{Action, LocalArray, Stimulus};
pub use region::{Mask, Region, RegionKind};
pub use schedule::{Carrying, StimulusSchedule, apply_to_buffer, apply_with_mask};
pub use spec::{
    CROSS_FIELD_X_FRAC, CROSS_FIELD_Z_FRAC, Membrane, PAPER_S2_X_FRAC, PAPER_S2_Z_FRAC, StimulusError,
    StimulusSpec,
};

//! What happens to the tissue during a run besides stepping: stimuli
//! ([`stimulus`]), the named protocols that time them ([`protocol`]), and
//! what is recorded of the wave ([`recording`]: activation,
//! repolarisation and APD maps; the pseudo-ECG of [`ecg`]; spiral tips and
//! filaments in [`tips`]). The solvers act on stimuli and maps at every
//! step on their own memory (a GPU run keeps them on the device); the run
//! loop (`crate::driver`) only installs them and reads the maps when it
//! writes them. [`run`] holds what a solver is given: the events and
//! where they start; [`clock`] where a solver stands in them (one clock
//! for every solver), and [`host`] the clock, mask bits and maps
//! of a solver whose fields live in host memory (every CPU solver).

pub mod clock;
pub mod ecg;
pub mod host;
pub mod protocol;
pub mod recording;
pub mod run;
pub mod stimulus;
pub mod tips;

pub use clock::EventClock;
pub use host::HostEvents;
pub use run::{EventStart, Events};

//! Restitution: how the action potential's duration (APD) and the
//! conduction velocity (CV) depend on the diastolic interval (DI) before
//! it, the curves modellers measure to judge a model's stability (a
//! slope of APD against DI above 1 lets alternans grow; Fenton & Karma,
//! Chaos 8:20, 1998, Sec. II).
//!
//! Two protocols ([`protocol`]): S1-S2 (a train of S1 beats at a basic
//! cycle length, then one premature S2 at coupling intervals from long to
//! short until it no longer captures) and dynamic pacing (a train at each
//! of a list of decreasing BCLs, the last two beats of each measured:
//! alternans shows as two APDs), in a single cell or a cable stimulated
//! at one end. They run through the simulation library, on the CPU or a
//! GPU ([`run`]); APD and DI are read from the potential recorded at a
//! probe cell, every beat of it, with threshold crossings interpolated
//! between samples ([`measure`]); [`report`] writes the CSV, the plot
//! beside a published curve ([`published`]) and a JSON summary.
//!
//! ```
//! use fibril_host::restitution::{ApdLevel, Experiment, Geometry, Protocol, S1S2, S2Sweep, Schedule};
//!
//! // Mitchell-Schaeffer in one cell: two S1 at 400 ms, S2 from 390 ms to 150 ms.
//! let schedule = Schedule {
//!     protocol: Protocol::S1S2(S1S2 {
//!         bcl_ms: 400.0,
//!         s1_beats: 2,
//!         s2: S2Sweep { from_ms: 390.0, to_ms: 150.0, step_ms: 80.0 },
//!     }),
//!     geometry: Geometry::Cell,
//!     level: ApdLevel::Percent(90.0),
//! };
//! let experiment = Experiment {
//!     model: "mitchell_schaeffer".into(),
//!     preset: None,
//!     parameters: vec![],
//!     dx_mm: None,
//!     dt_ms: None,
//!     sample_ms: 0.1,
//!     backend: Default::default(),
//!     kernels: None,
//!     schedule,
//! };
//! let curve = experiment.run::<f64>()?;
//! let apd: Vec<f64> = curve.rows.iter().filter(|r| r.captured).filter_map(|r| r.apd_ms).collect();
//! assert!(apd.windows(2).all(|w| w[1] < w[0]), "shorter S2 intervals, shorter APDs: {apd:?}");
//! # Ok::<(), fibril_host::restitution::RestitutionError>(())
//! ```

pub mod error;
pub mod measure;
pub mod plot;
pub mod protocol;
pub mod published;
pub mod report;
pub mod run;

pub use error::RestitutionError;
pub use protocol::{ApdLevel, Dynamic, Geometry, Protocol, S1S2, S2Sweep, Schedule};
pub use report::{ReportError, Summary};
pub use run::{Experiment, Restitution, Row};

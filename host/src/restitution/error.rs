//! Why a restitution experiment was refused or stopped.

use thiserror::Error;

/// Why a restitution experiment was refused or stopped; each message names
/// the problem and the option that fixes it.
#[derive(Debug, Error)]
pub enum RestitutionError {
    #[error(
        "the S2 sweep is empty: it runs from --s2-from-ms {from_ms} down to --s2-to-ms {to_ms}; give \
         --s2-from-ms at or above --s2-to-ms (the sweep goes from long to short intervals)"
    )]
    S2Range { from_ms: f64, to_ms: f64 },
    #[error("the S2 step is {step_ms} ms; give --s2-step-ms > 0")]
    S2Step { step_ms: f64 },
    #[error(transparent)]
    Time(#[from] crate::time::NamedTimeError),
    #[error(
        "{what} of {ms} ms is not longer than the stimulus ({stimulus_ms} ms): the model cannot follow it; \
         give a longer one"
    )]
    ShorterThanStimulus { what: &'static str, ms: f64, stimulus_ms: f64 },
    #[error("{what} must be at least {least}; give --beats {least} or more")]
    NoBeats { what: &'static str, least: u32 },
    #[error("the dynamic protocol needs at least one BCL; give --bcl-ms 1000,800,600 (decreasing)")]
    NoBcl,
    #[error("the BCLs must be decreasing, but {after} ms follows {before} ms; list them from long to short")]
    BclOrder { before: f64, after: f64 },
    #[error(
        "a cable of {cells} cells is too short to measure the conduction velocity away from its ends (at \
         dx = {dx_mm} mm it needs {needed}); give --cells {needed} or more"
    )]
    CableTooShort { cells: u32, needed: u32, dx_mm: f64 },
    #[error(
        "--apd-percent {percent} is not a repolarisation percentage; give a value between 0 and 100 (90 for APD90)"
    )]
    ApdPercent { percent: f64 },
    #[error("the APD level {value} is not a number; give a finite potential")]
    ApdPotential { value: f64 },
    #[error(
        "restitution reports times in ms and lengths in mm, but {model} counts in {time} and {space}; choose a \
         model in ms and mm (`fibril models` lists the units)"
    )]
    Units { model: &'static str, time: &'static str, space: &'static str },
    #[error("{model} has no action potential (it only diffuses); choose a cell model")]
    NoExcitation { model: &'static str },
    #[error(
        "the reference beat (the first measured) never reached the activation threshold {threshold} at cell \
         {cell}: the stimulus did not excite the tissue; check the model's parameters or the BCL"
    )]
    NoReference { threshold: f64, cell: u32 },
    #[error(
        "the reference beat at cell {cell} did not repolarise to {level} before the next stimulus; give a \
         longer BCL (--bcl-ms) or another APD level"
    )]
    ReferenceNotRepolarised { cell: u32, level: f64 },
    #[error(transparent)]
    Model(#[from] crate::models::ModelError),
    #[error(transparent)]
    Simulation(#[from] crate::simulation::SimulationError),
}

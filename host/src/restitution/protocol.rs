//! The schedule of a restitution experiment: where it runs (a single cell
//! or a cable), which pacing (S1-S2 or dynamic), and at what level the
//! action potential is measured. Every value is checked by
//! [`Protocol::check`] before any simulation, so that a mistake is named
//! with its fix instead of showing up as an empty curve minutes later.

use serde::Serialize;

use super::error::RestitutionError;
use crate::time::{NamedTimeError, ms_to_steps};

/// Cells between the stimulated end of a cable and the first CV probe, and
/// between the last probe and the far end: the front is still forming
/// near the stimulus and slows against the sealed end, so neither is the
/// travelling front whose speed is measured.
pub const CABLE_MARGIN_CELLS: u32 = 5;

/// The fewest cells between the two CV probes: with fewer, one step's
/// rounding of the activation times is a visible part of the delay.
pub const MIN_PROBE_SPAN_CELLS: u32 = 10;

/// Where the experiment runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Geometry {
    /// One cell (a 1 x 1 x 1 grid, no diffusion): APD and DI only.
    Cell,
    /// A cable of `cells` x 1 x 1 cells stimulated at x = 0: APD and DI at
    /// its middle, conduction velocity between its quarter points.
    Cable { cells: u32 },
}

/// The cells of the geometry that are stimulated and measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Probes {
    /// Cells x = 0 .. stimulated_cells - 1 receive the stimuli.
    pub stimulated_cells: u32,
    /// The cell whose action potentials give APD and DI.
    pub apd_cell: u32,
    /// The two cells whose activation times give the conduction velocity
    /// (a cable only).
    pub cv_cells: Option<[u32; 2]>,
}

impl Geometry {
    /// The grid: `nx` x 1 x 1.
    pub fn nx(self) -> u32 {
        match self {
            Geometry::Cell => 1,
            Geometry::Cable { cells } => cells,
        }
    }

    /// The cells stimulated (at least 1 mm of cable, and 3 cells, so that
    /// the stimulus can drive the load of the resting cable beside it) and
    /// probed (APD at the middle, CV between the quarter points).
    pub fn probes(self, dx_mm: f64) -> Probes {
        match self {
            Geometry::Cell => Probes { stimulated_cells: 1, apd_cell: 0, cv_cells: None },
            Geometry::Cable { cells } => Probes {
                stimulated_cells: stimulated_cells(dx_mm),
                apd_cell: cells / 2,
                cv_cells: Some([cells / 4, 3 * cells / 4]),
            },
        }
    }

    /// Checks that a cable is long enough to measure CV away from its
    /// ends (see [`CABLE_MARGIN_CELLS`], [`MIN_PROBE_SPAN_CELLS`]).
    pub fn check(self, dx_mm: f64) -> Result<(), RestitutionError> {
        let Geometry::Cable { cells } = self else { return Ok(()) };
        let needed = min_cable_cells(dx_mm);
        if cells < needed {
            return Err(RestitutionError::CableTooShort { cells, needed, dx_mm });
        }
        Ok(())
    }
}

/// Cells stimulated at the end of a cable of spacing `dx_mm`.
fn stimulated_cells(dx_mm: f64) -> u32 {
    ((1.0 / dx_mm).ceil() as u32).max(3)
}

/// The shortest cable whose quarter points lie [`CABLE_MARGIN_CELLS`]
/// beyond the stimulated cells and [`MIN_PROBE_SPAN_CELLS`] apart.
pub fn min_cable_cells(dx_mm: f64) -> u32 {
    let first_probe = stimulated_cells(dx_mm) + CABLE_MARGIN_CELLS;
    (4 * first_probe).max(2 * MIN_PROBE_SPAN_CELLS)
}

/// The level at which APD and DI are measured: the potential crossed
/// upwards at the start of the action potential and downwards at its end.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum ApdLevel {
    /// APDx: x % repolarised from the peak towards the diastolic
    /// potential of the reference beat (the last S1, or the first beat of
    /// the dynamic protocol), the same level for every beat so that APD
    /// and DI add up to the cycle.
    Percent(f64),
    /// A fixed potential in the model's unit (mV for the ionic models);
    /// Fenton & Karma 1998 (Fig. 3) measure at V = -60 mV.
    Potential(f64),
}

impl ApdLevel {
    /// The potential of the level for a reference beat that rests at
    /// `rest` and peaks at `peak`.
    pub fn potential(self, rest: f64, peak: f64) -> f64 {
        match self {
            ApdLevel::Percent(x) => peak - x / 100.0 * (peak - rest),
            ApdLevel::Potential(v) => v,
        }
    }

    /// The name of the APD it measures: "APD90", "APD at -60".
    pub fn label(self) -> String {
        match self {
            ApdLevel::Percent(x) => format!("APD{}", crate::time::short(x)),
            ApdLevel::Potential(v) => format!("APD at {}", crate::time::short(v)),
        }
    }

    fn check(self) -> Result<(), RestitutionError> {
        match self {
            ApdLevel::Percent(x) if !(x > 0.0 && x < 100.0) => {
                Err(RestitutionError::ApdPercent { percent: x })
            }
            ApdLevel::Potential(v) if !v.is_finite() => Err(RestitutionError::ApdPotential { value: v }),
            _ => Ok(()),
        }
    }
}

/// The S2 coupling intervals, from long to short: `from_ms`, `from_ms -
/// step_ms`, ... down to `to_ms` (included when on the way).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct S2Sweep {
    pub from_ms: f64,
    pub to_ms: f64,
    pub step_ms: f64,
}

impl S2Sweep {
    /// The intervals, longest first.
    pub fn intervals_ms(&self) -> Vec<f64> {
        let n = ((self.from_ms - self.to_ms) / self.step_ms + 1e-9).floor() as usize;
        (0..=n).map(|i| self.from_ms - i as f64 * self.step_ms).collect()
    }
}

/// S1-S2: `s1_beats` beats every `bcl_ms` from rest, then one S2 at each
/// coupling interval of the sweep after the last S1 (each S2 from the
/// same state: the S1 train is simulated once).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct S1S2 {
    pub bcl_ms: f64,
    pub s1_beats: u32,
    pub s2: S2Sweep,
}

/// Dynamic (steady-state) pacing: `beats` beats at each BCL in turn, from
/// the longest; APD and DI of the last two beats of each (alternans shows
/// as two APDs).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dynamic {
    pub bcls_ms: Vec<f64>,
    pub beats: u32,
}

/// The fewest beats per BCL of the dynamic protocol: the last two are
/// measured, the DI of the first of them needs the beat before, and the
/// recording of a BCL runs one cycle into the next BCL, which must not
/// reach that BCL's own recording.
pub const MIN_DYNAMIC_BEATS: u32 = 4;

/// A pacing protocol.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Protocol {
    S1S2(S1S2),
    Dynamic(Dynamic),
}

impl Protocol {
    /// Checks the protocol against the time step `dt_ms` and the
    /// stimulus's duration `stimulus_ms`: every time a whole number of
    /// steps, an S2 sweep that is not empty, BCLs in decreasing order, each
    /// longer than the stimulus.
    pub fn check(&self, dt_ms: f64, stimulus_ms: f64) -> Result<(), RestitutionError> {
        let on_grid = |what: &'static str, ms: f64| {
            ms_to_steps(ms, dt_ms)
                .map(|_| ())
                .map_err(|source| RestitutionError::Time(NamedTimeError { what, source }))
        };
        let longer_than_stimulus = |what: &'static str, ms: f64| {
            if ms > stimulus_ms {
                Ok(())
            } else {
                Err(RestitutionError::ShorterThanStimulus { what, ms, stimulus_ms })
            }
        };
        match self {
            Protocol::S1S2(p) => {
                if p.s1_beats == 0 {
                    return Err(RestitutionError::NoBeats { what: "S1 beats", least: 1 });
                }
                let s = p.s2;
                if !(s.step_ms > 0.0 && s.step_ms.is_finite()) {
                    return Err(RestitutionError::S2Step { step_ms: s.step_ms });
                }
                if !(s.from_ms >= s.to_ms && s.to_ms.is_finite()) {
                    return Err(RestitutionError::S2Range { from_ms: s.from_ms, to_ms: s.to_ms });
                }
                on_grid("the BCL", p.bcl_ms)?;
                on_grid("the first S2 interval", s.from_ms)?;
                on_grid("the S2 step", s.step_ms)?;
                longer_than_stimulus("the BCL", p.bcl_ms)?;
                longer_than_stimulus(
                    "the shortest S2 interval",
                    s.intervals_ms().last().copied().unwrap_or(0.0),
                )?;
            }
            Protocol::Dynamic(p) => {
                if p.beats < MIN_DYNAMIC_BEATS {
                    return Err(RestitutionError::NoBeats {
                        what: "beats per BCL",
                        least: MIN_DYNAMIC_BEATS,
                    });
                }
                if p.bcls_ms.is_empty() {
                    return Err(RestitutionError::NoBcl);
                }
                for (i, &bcl) in p.bcls_ms.iter().enumerate() {
                    on_grid("a BCL", bcl)?;
                    longer_than_stimulus("a BCL", bcl)?;
                    if i > 0 && bcl >= p.bcls_ms[i - 1] {
                        return Err(RestitutionError::BclOrder { before: p.bcls_ms[i - 1], after: bcl });
                    }
                }
            }
        }
        Ok(())
    }
}

/// A whole experiment's settings besides the model and numerics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Schedule {
    pub protocol: Protocol,
    pub geometry: Geometry,
    pub level: ApdLevel,
}

impl Schedule {
    /// [`Protocol::check`], [`Geometry::check`] and the level's range.
    pub fn check(&self, dx_mm: f64, dt_ms: f64, stimulus_ms: f64) -> Result<(), RestitutionError> {
        self.level.check()?;
        self.geometry.check(dx_mm)?;
        self.protocol.check(dt_ms, stimulus_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s1s2(from_ms: f64, to_ms: f64, step_ms: f64) -> Protocol {
        Protocol::S1S2(S1S2 { bcl_ms: 500.0, s1_beats: 3, s2: S2Sweep { from_ms, to_ms, step_ms } })
    }

    #[test]
    fn the_sweep_runs_from_long_to_short() {
        let s = S2Sweep { from_ms: 400.0, to_ms: 250.0, step_ms: 50.0 };
        assert_eq!(s.intervals_ms(), vec![400.0, 350.0, 300.0, 250.0]);
        let s = S2Sweep { from_ms: 400.0, to_ms: 260.0, step_ms: 50.0 };
        assert_eq!(s.intervals_ms(), vec![400.0, 350.0, 300.0], "the last above to_ms");
        let s = S2Sweep { from_ms: 300.0, to_ms: 300.0, step_ms: 10.0 };
        assert_eq!(s.intervals_ms(), vec![300.0]);
    }

    #[test]
    fn bad_schedules_are_named_with_their_fix() {
        let msg = |p: Protocol| p.check(0.02, 1.0).unwrap_err().to_string();
        assert!(msg(s1s2(200.0, 300.0, 10.0)).contains("--s2-from-ms"), "{}", msg(s1s2(200.0, 300.0, 10.0)));
        assert!(msg(s1s2(300.0, 200.0, 0.0)).contains("step"));
        assert!(msg(s1s2(300.0, 200.0, 0.013)).contains("S2 step"));
        assert!(msg(s1s2(300.0, 0.5, 0.5)).contains("stimulus"));
        let dynamic = |bcls_ms: Vec<f64>, beats| Protocol::Dynamic(Dynamic { bcls_ms, beats });
        assert!(msg(dynamic(vec![300.0, 400.0], 5)).contains("decreasing"));
        assert!(msg(dynamic(vec![], 5)).contains("--bcl-ms"));
        assert!(msg(dynamic(vec![300.0], 3)).contains("at least 4"));
        assert!(s1s2(300.0, 200.0, 10.0).check(0.02, 1.0).is_ok());
        assert!(dynamic(vec![500.0, 400.0, 300.0], 5).check(0.02, 1.0).is_ok());
    }

    #[test]
    fn a_cable_must_leave_room_for_the_probes() {
        // dx = 0.2 mm: 5 cells stimulated, probes from cell 10: 40 cells.
        assert_eq!(min_cable_cells(0.2), 40);
        let err = Geometry::Cable { cells: 30 }.check(0.2).unwrap_err().to_string();
        assert!(err.contains("30") && err.contains("--cells 40"), "{err}");
        assert!(Geometry::Cable { cells: 40 }.check(0.2).is_ok());
        let p = Geometry::Cable { cells: 40 }.probes(0.2);
        assert_eq!(p, Probes { stimulated_cells: 5, apd_cell: 20, cv_cells: Some([10, 30]) });
        assert!(p.cv_cells.unwrap()[0] >= p.stimulated_cells + CABLE_MARGIN_CELLS);
    }

    #[test]
    fn levels() {
        assert_eq!(ApdLevel::Percent(90.0).potential(-85.0, 15.0), -75.0);
        assert_eq!(ApdLevel::Potential(-60.0).potential(-85.0, 15.0), -60.0);
        assert_eq!(ApdLevel::Percent(90.0).label(), "APD90");
        assert!(ApdLevel::Percent(100.0).check().is_err());
    }
}

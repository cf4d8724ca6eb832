//! Action potentials from a probe's trace: threshold crossings with linear
//! interpolation between samples, and the beats that follow a list of
//! stimuli, each with its activation, its start and end at the APD level,
//! and its peak. Nothing here knows about simulations: a trace is times
//! and values, so the rules are tested on hand-made signals.

use serde::Serialize;

/// The potential at a few cells, sampled at the same times.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    pub t_ms: Vec<f64>,
    /// `v[p][i]`: probe `p` at time `t_ms[i]`.
    pub v: Vec<Vec<f64>>,
}

impl Trace {
    /// An empty trace of `probes` probes.
    pub fn new(probes: usize) -> Self {
        Self { t_ms: Vec::new(), v: vec![Vec::new(); probes] }
    }

    /// The time of the last sample (-inf when empty).
    pub fn end_ms(&self) -> f64 {
        self.t_ms.last().copied().unwrap_or(f64::NEG_INFINITY)
    }
}

/// Which way the potential crosses a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
}

/// The times in `[from_ms, to_ms)` at which `v` crosses `level` in
/// `direction`, interpolated linearly between the two samples around each
/// crossing (up: from below the level to at or above it; down: from at or
/// above to below).
pub fn crossings(
    t_ms: &[f64],
    v: &[f64],
    level: f64,
    direction: Direction,
    from_ms: f64,
    to_ms: f64,
) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 1..t_ms.len().min(v.len()) {
        let (v0, v1) = (v[i - 1], v[i]);
        let crossed = match direction {
            Direction::Up => v0 < level && v1 >= level,
            Direction::Down => v0 >= level && v1 < level,
        };
        if !crossed {
            continue;
        }
        let (t0, t1) = (t_ms[i - 1], t_ms[i]);
        let t = t0 + (level - v0) / (v1 - v0) * (t1 - t0);
        if t >= from_ms && t < to_ms {
            out.push(t);
        }
    }
    out
}

/// One action potential (or the lack of one) after a stimulus, at one
/// probe. Times in ms from the start of the trace.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Beat {
    pub stimulus_ms: f64,
    /// The upward crossing of the model's activation threshold.
    pub activation_ms: Option<f64>,
    /// The upward crossing of the APD level at the start of the beat.
    pub start_ms: Option<f64>,
    /// The downward crossing of the APD level at its end.
    pub end_ms: Option<f64>,
    /// The highest potential between activation and end.
    pub peak: Option<f64>,
}

impl Beat {
    /// APD at the level: end minus start.
    pub fn apd_ms(&self) -> Option<f64> {
        Some(self.end_ms? - self.start_ms?)
    }
}

/// The levels a trace is read at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Levels {
    /// The model's activation threshold (capture, conduction).
    pub activation: f64,
    /// The APD level (APD and DI).
    pub apd: f64,
}

/// The beat after each stimulus in `stimuli_ms` (increasing) at a probe
/// whose first beat arrives `delay_ms` after its stimulus (0 at the
/// stimulated cell; the travel time elsewhere in a cable).
///
/// Beat k is looked for in the window from `s_k + delay/2 - lead_ms` to
/// `s_{k+1} + delay/2 - lead_ms` (a front only slows down at short
/// intervals, never speeds up, so the window holds it; `lead_ms`, one
/// sample, because a stimulus that sets the potential shows in the sample
/// of its own step, and the crossing is dated between that sample and the
/// one before): its activation is the first upward
/// crossing of the activation threshold there; its start the upward
/// crossing of the APD level next to the activation (the last one before
/// it when the level is the lower, the first after it otherwise), after
/// the previous beat's end, so that a stimulus falling before the
/// previous beat repolarised has no start; its end the first downward
/// crossing of the APD level after both.
pub fn beats(
    trace: &Trace,
    probe: usize,
    stimuli_ms: &[f64],
    delay_ms: f64,
    lead_ms: f64,
    levels: Levels,
) -> Vec<Beat> {
    let (t, v) = (&trace.t_ms[..], &trace.v[probe][..]);
    let end_of_trace = f64::INFINITY;
    let mut out: Vec<Beat> = Vec::with_capacity(stimuli_ms.len());
    for (k, &s) in stimuli_ms.iter().enumerate() {
        let lo = s + delay_ms / 2.0 - lead_ms;
        let hi = stimuli_ms.get(k + 1).map_or(end_of_trace, |next| next + delay_ms / 2.0 - lead_ms);
        let mut beat = Beat { stimulus_ms: s, activation_ms: None, start_ms: None, end_ms: None, peak: None };
        let activation = crossings(t, v, levels.activation, Direction::Up, lo, hi).first().copied();
        beat.activation_ms = activation;
        if let Some(act) = activation {
            // The previous beat's end, or the window's start.
            let after =
                out.last().and_then(|b| b.end_ms).unwrap_or(f64::NEG_INFINITY).max(lo - delay_ms / 2.0);
            let start = if levels.apd <= levels.activation {
                crossings(t, v, levels.apd, Direction::Up, after, act + 1e-9).last().copied()
            } else {
                crossings(t, v, levels.apd, Direction::Up, act.max(after), end_of_trace).first().copied()
            };
            beat.start_ms = start;
            if let Some(start) = start {
                let from = start.max(act);
                beat.end_ms =
                    crossings(t, v, levels.apd, Direction::Down, from, end_of_trace).first().copied();
                let until = beat.end_ms.unwrap_or(end_of_trace);
                beat.peak = t
                    .iter()
                    .zip(v)
                    .filter(|&(&ti, _)| ti >= act && ti <= until)
                    .map(|(_, &vi)| vi)
                    .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
            }
        }
        out.push(beat);
    }
    out
}

/// The diastolic interval before `beat`: its start minus the end of the
/// beat before (at the same level, so that APD + DI is the cycle).
pub fn diastolic_interval_ms(previous: &Beat, beat: &Beat) -> Option<f64> {
    Some(beat.start_ms? - previous.end_ms?)
}

/// The delay (at least 0) of the first upward crossing of `threshold`
/// after `stimulus_ms - lead_ms` (see [`beats`] for the lead).
pub fn first_delay_ms(
    trace: &Trace,
    probe: usize,
    stimulus_ms: f64,
    lead_ms: f64,
    threshold: f64,
) -> Option<f64> {
    let v = &trace.v[probe];
    crossings(&trace.t_ms, v, threshold, Direction::Up, stimulus_ms - lead_ms, f64::INFINITY)
        .first()
        .map(|t| (t - stimulus_ms).max(0.0))
}

/// The lowest potential at `probe` in `[from_ms, to_ms)`: the diastolic
/// potential around a beat.
pub fn lowest(trace: &Trace, probe: usize, from_ms: f64, to_ms: f64) -> Option<f64> {
    trace
        .t_ms
        .iter()
        .zip(&trace.v[probe])
        .filter(|&(&t, _)| t >= from_ms && t < to_ms)
        .map(|(_, &v)| v)
        .reduce(f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trapezoidal "action potential" of amplitude 100 from -80: up in
    /// 2 ms at `at`, flat for `plateau`, down in 20 ms; sampled every 0.5 ms.
    fn trapezoids(beats: &[(f64, f64)], until: f64) -> Trace {
        let t: Vec<f64> = (0..=(until / 0.5) as usize).map(|i| i as f64 * 0.5).collect();
        let v = t
            .iter()
            .map(|&t| {
                let mut x: f64 = -80.0;
                for &(at, plateau) in beats {
                    let d = t - at;
                    let y = if d < 0.0 {
                        -80.0
                    } else if d < 2.0 {
                        -80.0 + 50.0 * d
                    } else if d < 2.0 + plateau {
                        20.0
                    } else if d < 22.0 + plateau {
                        20.0 - 5.0 * (d - 2.0 - plateau)
                    } else {
                        -80.0
                    };
                    x = x.max(y);
                }
                x
            })
            .collect();
        Trace { t_ms: t, v: vec![v] }
    }

    #[test]
    fn crossings_are_interpolated_between_samples() {
        let t = [0.0, 1.0, 2.0, 3.0];
        let v = [0.0, 10.0, 10.0, -10.0];
        assert_eq!(crossings(&t, &v, 2.5, Direction::Up, 0.0, 10.0), vec![0.25]);
        assert_eq!(crossings(&t, &v, 5.0, Direction::Down, 0.0, 10.0), vec![2.25]);
        assert!(crossings(&t, &v, 5.0, Direction::Down, 0.0, 2.0).is_empty(), "outside the window");
    }

    #[test]
    fn apd_and_di_of_two_beats_add_up_to_the_cycle() {
        // Beats at 10 and 310 ms, plateaus 200 and 150 ms. Level -70 (APD90
        // of -80..20): crossed 0.2 ms after the onset and 2 ms before the end.
        let trace = trapezoids(&[(10.0, 200.0), (310.0, 150.0)], 600.0);
        let levels = Levels { activation: -40.0, apd: -70.0 };
        let b = beats(&trace, 0, &[10.0, 310.0], 0.0, 0.5, levels);
        let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-9;
        assert!(close(b[0].start_ms, 10.2) && close(b[0].activation_ms, 10.8), "{:?}", b[0]);
        assert!(close(b[0].end_ms, 10.0 + 2.0 + 200.0 + 18.0), "{:?}", b[0]);
        assert!(close(b[0].apd_ms(), 219.8));
        assert!(close(b[1].apd_ms(), 169.8));
        let di = diastolic_interval_ms(&b[0], &b[1]).unwrap();
        assert!((b[0].apd_ms().unwrap() + di - 300.0).abs() < 1e-9, "APD + DI = the cycle");
        assert_eq!(b[0].peak, Some(20.0));
        // A level above the activation threshold: the start follows it.
        let b = beats(&trace, 0, &[10.0, 310.0], 0.0, 0.5, Levels { activation: -40.0, apd: 0.0 });
        assert!(close(b[0].start_ms, 11.6), "{:?}", b[0]);
    }

    #[test]
    fn a_stimulus_that_finds_the_cell_refractory_has_no_beat() {
        // A second stimulus at 150 ms, inside the first beat: nothing new
        // crosses the activation threshold in its window.
        let trace = trapezoids(&[(10.0, 200.0)], 600.0);
        let levels = Levels { activation: -40.0, apd: -70.0 };
        let b = beats(&trace, 0, &[10.0, 150.0], 0.0, 0.5, levels);
        assert!(b[0].apd_ms().is_some());
        assert_eq!(b[1].activation_ms, None);
        assert_eq!(b[1].apd_ms(), None);
    }

    #[test]
    fn windows_follow_the_travel_delay() {
        // At a probe 40 ms down a cable the beats of stimuli at 0 and 300
        // arrive at 40 and 345 ms (slower at the short interval).
        let trace = trapezoids(&[(40.0, 200.0), (345.0, 120.0)], 700.0);
        let levels = Levels { activation: -40.0, apd: -70.0 };
        let delay = first_delay_ms(&trace, 0, 0.0, 0.5, -40.0).unwrap();
        assert!((delay - 40.8).abs() < 1e-9);
        let b = beats(&trace, 0, &[0.0, 300.0], delay, 0.5, levels);
        assert!((b[1].activation_ms.unwrap() - 345.8).abs() < 1e-9, "{b:?}");
        assert_eq!(lowest(&trace, 0, 0.0, 300.0), Some(-80.0));
    }
}

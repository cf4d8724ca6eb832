//! Activation-time map: per cell, the first time U crosses a threshold
//! upward.
//!
//! U is sampled on the host every `every_steps` steps, and only then (not
//! at the run's other stops for output or checkpoints), so the map does
//! not depend on those settings. Between two
//! samples that bracket the crossing the time is interpolated linearly, so
//! the map is exact to the step when `every_steps = 1` and otherwise as
//! good as a straight line through the upstroke over one sampling interval
//! (the Karma upstroke takes ~1-2 ms, so 0.5 ms samples resolve it well).
//! A cell already at or above the threshold at the first sample is
//! activated at that sample's time; a cell never activated holds NaN.

use rayon::prelude::*;

use crate::scalar::Scalar;

/// The map and what is needed to continue it.
#[derive(Clone, Debug, PartialEq)]
pub struct ActivationMap<T> {
    pub threshold: f64,
    pub every_steps: u64,
    /// First crossing time per cell, ms, row-major; NaN = not yet.
    pub times_ms: Vec<f32>,
    /// U at the previous sample and its time (`None` before the first).
    pub previous: Option<(f64, Vec<T>)>,
}

impl<T: Scalar> ActivationMap<T> {
    pub fn new(cells: usize, threshold: f64, every_steps: u64) -> Self {
        Self { threshold, every_steps: every_steps.max(1), times_ms: vec![f32::NAN; cells], previous: None }
    }

    /// Whether `step` is a sampling step.
    pub fn due_at(&self, step: u64) -> bool {
        step.is_multiple_of(self.every_steps)
    }

    /// The first sampling step `>= from`.
    pub fn next_due(&self, from: u64) -> u64 {
        from.div_ceil(self.every_steps) * self.every_steps
    }

    /// Records the sample `u` taken at `t_ms`.
    pub fn sample(&mut self, t_ms: f64, u: &[T]) {
        let thr = self.threshold;
        match self.previous.take() {
            None => {
                self.times_ms.par_iter_mut().zip(u.par_iter()).for_each(|(t, &uc)| {
                    if t.is_nan() && uc.to_f64() >= thr {
                        *t = t_ms as f32;
                    }
                });
                self.previous = Some((t_ms, u.to_vec()));
            }
            Some((t_prev, mut prev)) => {
                let dt = t_ms - t_prev;
                self.times_ms.par_iter_mut().zip(u.par_iter()).zip(prev.par_iter_mut()).for_each(
                    |((t, &uc), p)| {
                        let (before, now) = (p.to_f64(), uc.to_f64());
                        if t.is_nan() && before < thr && now >= thr {
                            let frac = (thr - before) / (now - before);
                            *t = (t_prev + frac * dt) as f32;
                        }
                        *p = uc;
                    },
                );
                self.previous = Some((t_ms, prev));
            }
        }
    }

    /// Number of cells activated so far.
    pub fn activated(&self) -> usize {
        self.times_ms.iter().filter(|t| !t.is_nan()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_upward_crossing_interpolated_between_samples() {
        let mut map = ActivationMap::<f32>::new(4, 1.0, 10);
        assert!(map.due_at(0) && map.due_at(20) && !map.due_at(25));
        assert_eq!(map.next_due(11), 20);
        assert_eq!(map.next_due(20), 20);
        // Cell 0 starts excited, 1 crosses between samples, 2 never, 3 later.
        map.sample(0.0, &[3.0, 0.0, 0.0, 0.0]);
        map.sample(0.5, &[2.0, 2.0, 0.5, 0.0]);
        map.sample(1.0, &[0.0, 3.0, 0.9, 1.0]);
        map.sample(1.5, &[3.0, 0.0, 0.0, 3.0]); // cell 0 re-excites: first crossing kept
        assert_eq!(map.times_ms[0], 0.0);
        assert_eq!(map.times_ms[1], 0.25);
        assert!(map.times_ms[2].is_nan());
        assert_eq!(map.times_ms[3], 1.0);
        assert_eq!(map.activated(), 3);
    }
}

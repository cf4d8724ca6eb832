//! Local cycle length: the mean time between successive activations of
//! each cell, for re-entry (a spiral's period, fibrillation's local rate).
//!
//! A run's activation map keeps the first activation of every cell, or
//! with `--beats N` the last N. From per-beat maps the cycle length is
//! read directly, at the step's resolution (the recorder interpolates each
//! crossing within its step). Otherwise it is counted from the snapshots of
//! the potential: an activation is an upward crossing of the threshold
//! between two successive snapshots (previous value below, next at or
//! above, as the recorder counts them), placed in time by linear
//! interpolation between the two. Its resolution is then the snapshot
//! interval, and an action potential shorter than the interval can be
//! missed: the summary says which source and resolution a map has.
//!
//! The mean cycle length of a cell with activations at t_1 < ... < t_n is
//! (t_n - t_1) / (n - 1), the mean of its n - 1 intervals; a cell
//! activated fewer than twice has none (NaN).

/// Counts each cell's upward threshold crossings over a series of fields.
#[derive(Clone, Debug)]
pub struct CrossingCounter {
    threshold: f64,
    /// Crossings before this time are not counted (a protocol's transient).
    from: f64,
    previous: Option<(f64, Vec<f64>)>,
    /// First and last crossing time and number of crossings, per cell.
    first: Vec<f64>,
    last: Vec<f64>,
    count: Vec<u32>,
}

impl CrossingCounter {
    pub fn new(cells: usize, threshold: f64) -> Self {
        Self {
            threshold,
            from: f64::NEG_INFINITY,
            previous: None,
            first: vec![f64::NAN; cells],
            last: vec![f64::NAN; cells],
            count: vec![0; cells],
        }
    }

    /// Counts only the crossings at or after `t`.
    pub fn from(mut self, t: f64) -> Self {
        self.from = t;
        self
    }

    /// Adds the field at time `t` (later than the previous one's).
    pub fn push(&mut self, t: f64, field: &[f64]) {
        assert_eq!(field.len(), self.count.len(), "one value per cell");
        if let Some((t0, before)) = &self.previous {
            let (t0, thr) = (*t0, self.threshold);
            for (i, (&a, &b)) in before.iter().zip(field).enumerate() {
                // NaN (outside the tissue) is never below nor above.
                let tc = t0 + (thr - a) / (b - a) * (t - t0);
                if a < thr && b >= thr && tc >= self.from {
                    if self.count[i] == 0 {
                        self.first[i] = tc;
                    }
                    self.last[i] = tc;
                    self.count[i] += 1;
                }
            }
        }
        self.previous = Some((t, field.to_vec()));
    }

    /// The mean cycle length and the activation count of every cell.
    pub fn finish(self) -> (Vec<f64>, Vec<u32>) {
        let mean = self
            .first
            .iter()
            .zip(&self.last)
            .zip(&self.count)
            .map(|((&a, &b), &n)| if n >= 2 { (b - a) / (n - 1) as f64 } else { f64::NAN })
            .collect();
        (mean, self.count)
    }
}

/// Mean cycle length and activation count per cell from per-beat maps
/// (`beats[k]` the k-th kept activation of every cell, oldest first, NaN
/// where a cell had none), counting the activations at or after `from`.
pub fn from_beats(beats: &[Vec<f64>], from: f64) -> (Vec<f64>, Vec<u32>) {
    let cells = beats.first().map_or(0, Vec::len);
    (0..cells)
        .map(|i| {
            let times: Vec<f64> =
                beats.iter().map(|b| b[i]).filter(|t| t.is_finite() && *t >= from).collect();
            let n = times.len();
            let mean = if n >= 2 { (times[n - 1] - times[0]) / (n - 1) as f64 } else { f64::NAN };
            (mean, n as u32)
        })
        .unzip()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossings_are_interpolated_between_snapshots() {
        // Cell 0: a sawtooth of period 40 sampled every 3 time units;
        // cell 1 stays below; cell 2 is outside the tissue.
        let period = 40.0;
        let value = |t: f64| (t % period) / period * 2.0 - 0.5; // crosses 0 at t = 10 (mod 40)
        let mut counter = CrossingCounter::new(3, 0.0);
        let mut t = 0.0;
        while t <= 200.0 {
            counter.push(t, &[value(t), -1.0, f64::NAN]);
            t += 3.0;
        }
        let (mean, count) = counter.finish();
        assert_eq!(count, [5, 0, 0]); // at 10, 50, 90, 130, 170
        assert!((mean[0] - period).abs() < 1e-9, "{}", mean[0]);
        assert!(mean[1].is_nan() && mean[2].is_nan());
        // From t = 60 on: 90, 130, 170.
        let mut late = CrossingCounter::new(1, 0.0).from(60.0);
        let mut t = 0.0;
        while t <= 200.0 {
            late.push(t, &[value(t)]);
            t += 3.0;
        }
        assert_eq!(late.finish().1, [3]);
    }

    #[test]
    fn per_beat_maps_give_the_mean_interval() {
        let beats = vec![vec![f64::NAN, 5.0, 1.0], vec![3.0, 25.0, f64::NAN], vec![7.0, 40.0, f64::NAN]];
        let (mean, count) = from_beats(&beats, f64::NEG_INFINITY);
        assert_eq!(from_beats(&beats, 6.0).1, [1, 2, 0]);
        assert_eq!(count, [2, 3, 1]);
        assert_eq!(mean[0], 4.0);
        assert_eq!(mean[1], 17.5);
        assert!(mean[2].is_nan());
    }
}

//! The viridis colour map (perceptually uniform, readable in grey and by
//! colour-blind viewers).
//!
//! The colours come from `colorous::VIRIDIS`, which holds all 256 entries
//! of matplotlib's viridis table and interpolates between them with a
//! B-spline. It replaced a hand-typed table of 9 of those entries with
//! linear interpolation, which matched at its knots but was up to 18/255
//! off between them (blue near the yellow end); colorous stays within
//! 1/255 of the full table (see the tests).

/// Colour of cells that hold no value (NaN), e.g. never activated.
pub const NAN_RGB: [u8; 3] = [128, 128, 128];

/// The colour of `s` in [0, 1] (clamped); NaN gives [`NAN_RGB`].
pub fn viridis(s: f64) -> [u8; 3] {
    if s.is_nan() {
        return NAN_RGB;
    }
    let c = colorous::VIRIDIS.eval_continuous(s.clamp(0.0, 1.0));
    [c.r, c.g, c.b]
}

/// The colour of `value` on a scale from `min` to `max`.
pub fn scaled(value: f64, min: f64, max: f64) -> [u8; 3] {
    let span = max - min;
    if span > 0.0 {
        viridis((value - min) / span)
    } else if value.is_nan() {
        NAN_RGB
    } else {
        viridis(0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest difference of one channel between two colours.
    fn distance(a: [u8; 3], b: [u8; 3]) -> u8 {
        (0..3).map(|k| a[k].abs_diff(b[k])).max().unwrap()
    }

    #[test]
    fn matches_the_old_table_at_its_knots() {
        // The hand-typed table this module used before colorous: entries
        // 0, 32, ..., 224 and 255 of matplotlib's `_viridis_data` (CC0).
        let knots: [(f64, [f64; 3]); 9] = [
            (0.0, [0.267004, 0.004874, 0.329415]),
            (32.0, [0.278826, 0.175490, 0.483397]),
            (64.0, [0.229739, 0.322361, 0.545706]),
            (96.0, [0.172719, 0.448791, 0.557885]),
            (128.0, [0.127568, 0.566949, 0.550556]),
            (160.0, [0.157851, 0.683765, 0.501686]),
            (192.0, [0.369214, 0.788888, 0.382914]),
            (224.0, [0.678489, 0.863742, 0.189503]),
            (255.0, [0.993248, 0.906157, 0.143936]),
        ];
        for (entry, rgb) in knots {
            let old = rgb.map(|c| (c * 255.0).round() as u8);
            let new = viridis(entry / 255.0);
            // colorous truncates its spline to u8: at most 1 below.
            assert!(distance(old, new) <= 1, "entry {entry}: old {old:?}, colorous {new:?}");
        }
        // The ends are exact: the extremes of a picture keep their colours.
        assert_eq!(viridis(0.0), [68, 1, 84]);
        assert_eq!(viridis(1.0), [253, 231, 37]);
    }

    #[test]
    fn follows_the_full_table_between_the_old_knots() {
        // Entry 242 of the 256-entry table is #dde318; the old linear
        // interpolation between entries 224 and 255 gave [220, 227, 42].
        assert!(distance(viridis(242.0 / 255.0), [0xdd, 0xe3, 0x18]) <= 1);
    }

    #[test]
    fn clamps_and_marks_missing_values() {
        assert_eq!(viridis(-3.0), viridis(0.0));
        assert_eq!(viridis(7.0), viridis(1.0));
        assert_eq!(viridis(f64::NAN), NAN_RGB);
        assert_eq!(scaled(f64::NAN, 0.0, 1.0), NAN_RGB);
        assert_eq!(scaled(2.0, 1.0, 1.0), viridis(0.5));
    }

    #[test]
    fn lightness_increases_monotonically() {
        let luma = |c: [u8; 3]| 0.2126 * c[0] as f64 + 0.7152 * c[1] as f64 + 0.0722 * c[2] as f64;
        let mut last = -1.0;
        for i in 0..=100 {
            let l = luma(viridis(i as f64 / 100.0));
            assert!(l >= last, "at {i}");
            last = l;
        }
    }
}

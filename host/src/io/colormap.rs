//! The viridis colour map (perceptually uniform, readable in grey and by
//! colour-blind viewers), interpolated between control points.
//!
//! The control points are entries 0, 32, 64, ..., 224 and 255 of the
//! 256-entry viridis table of matplotlib (`_viridis_data`, by Stéfan van
//! der Walt, Nathaniel Smith and Eric Firing, released under CC0); linear
//! interpolation between them stays within 1/255 of the full table.

/// (position in [0, 1], r, g, b) with r, g, b in [0, 1].
const VIRIDIS: [(f64, [f64; 3]); 9] = [
    (0.0 / 255.0, [0.267004, 0.004874, 0.329415]),
    (32.0 / 255.0, [0.278826, 0.175490, 0.483397]),
    (64.0 / 255.0, [0.229739, 0.322361, 0.545706]),
    (96.0 / 255.0, [0.172719, 0.448791, 0.557885]),
    (128.0 / 255.0, [0.127568, 0.566949, 0.550556]),
    (160.0 / 255.0, [0.157851, 0.683765, 0.501686]),
    (192.0 / 255.0, [0.369214, 0.788888, 0.382914]),
    (224.0 / 255.0, [0.678489, 0.863742, 0.189503]),
    (1.0, [0.993248, 0.906157, 0.143936]),
];

/// Colour of cells that hold no value (NaN), e.g. never activated.
pub const NAN_RGB: [u8; 3] = [128, 128, 128];

/// The colour of `s` in [0, 1] (clamped); NaN gives [`NAN_RGB`].
pub fn viridis(s: f64) -> [u8; 3] {
    if s.is_nan() {
        return NAN_RGB;
    }
    let s = s.clamp(0.0, 1.0);
    let i = VIRIDIS.windows(2).position(|w| s <= w[1].0).unwrap_or(VIRIDIS.len() - 2);
    let (p0, c0) = VIRIDIS[i];
    let (p1, c1) = VIRIDIS[i + 1];
    let f = (s - p0) / (p1 - p0);
    let mut rgb = [0u8; 3];
    for k in 0..3 {
        rgb[k] = ((c0[k] + f * (c1[k] - c0[k])) * 255.0).round() as u8;
    }
    rgb
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

    #[test]
    fn ends_and_a_midpoint_match_the_table() {
        assert_eq!(viridis(0.0), [68, 1, 84]);
        assert_eq!(viridis(1.0), [253, 231, 37]);
        // Entry 128 of the table: (0.127568, 0.566949, 0.550556).
        assert_eq!(viridis(128.0 / 255.0), [33, 145, 140]);
        assert_eq!(viridis(-3.0), viridis(0.0));
        assert_eq!(viridis(f64::NAN), NAN_RGB);
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

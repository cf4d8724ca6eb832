//! Plots as PNG bytes: curves against one axis (the pseudo-ECG: φ at each
//! electrode against time) and point trajectories with equal aspect
//! (spiral tips), with axes, ticks, a legend and the units in the labels.
//!
//! They are drawn with `plotters` into an RGB buffer that our PNG writer
//! encodes, and returned as bytes so that the caller writes them with
//! [`write_atomic`](crate::io::write_atomic). plotters is built without
//! its default features: no system fonts, no image crate, no C library.
//! Text uses DejaVu Sans, embedded in the binary (see [`FONT`]).
//!
//! ```
//! use fibril_host::io::plot::{Series, line_plot_png};
//! let t_ms: Vec<f64> = (0..200).map(|i| i as f64).collect();
//! let phi = |shift: f64| t_ms.iter().map(|t| (t / 20.0 + shift).sin()).collect();
//! let ecg = [
//!     Series::new("electrode 1", t_ms.clone(), phi(0.0)),
//!     Series::new("electrode 2", t_ms.clone(), phi(1.0)),
//! ];
//! let png = line_plot_png("pseudo-ECG", "time (ms)", "φ (arb. units)", &ecg, 800, 400).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

pub use crate::io::canvas::{FONT, MAX_SIZE, MIN_SIZE, PlotError};
use crate::io::canvas::{Rgb, font_ready, text, tick};

const TITLE_PX: f64 = 20.0;
const LABEL_PX: f64 = 15.0;
const TICK_PX: f64 = 13.0;
const MARGIN: u32 = 12;
const X_LABEL_AREA: u32 = 48;
const Y_LABEL_AREA: u32 = 72;

/// One curve or trajectory: `y[i]` against `x[i]`, named in the legend.
/// Non-finite points are left out and break the line there.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend entry; an empty name has none.
    pub name: String,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

impl Series {
    pub fn new(name: impl Into<String>, x: Vec<f64>, y: Vec<f64>) -> Self {
        Self { name: name.into(), x, y }
    }

    /// A series of (x, y) points.
    pub fn from_points(name: impl Into<String>, points: &[(f64, f64)]) -> Self {
        Self::new(name, points.iter().map(|p| p.0).collect(), points.iter().map(|p| p.1).collect())
    }

    /// The runs of consecutive finite points: the pieces of its line.
    fn segments(&self) -> Vec<Vec<(f64, f64)>> {
        let mut segments = vec![Vec::new()];
        for (&x, &y) in self.x.iter().zip(&self.y) {
            if x.is_finite() && y.is_finite() {
                segments.last_mut().expect("never empty").push((x, y));
            } else if !segments.last().expect("never empty").is_empty() {
                segments.push(Vec::new());
            }
        }
        segments.retain(|s| !s.is_empty());
        segments
    }
}

/// plotters' errors are generic over the backend; their text is kept.
pub fn drawing(e: impl std::error::Error) -> PlotError {
    PlotError::Draw(e.to_string())
}

/// The colour of series `i`: Tableau 10, distinct in print and for most
/// colour-blind readers, repeating after ten.
pub fn series_colour(i: usize) -> [u8; 3] {
    let c = colorous::TABLEAU10[i % colorous::TABLEAU10.len()];
    [c.r, c.g, c.b]
}

fn rgb(c: [u8; 3]) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

fn check(series: &[Series], width: u32, height: u32) -> Result<(), PlotError> {
    let fits = |v: u32, lo: u32, hi: u32| (lo..=hi).contains(&v);
    if !fits(width, MIN_SIZE.0, MAX_SIZE.0) || !fits(height, MIN_SIZE.1, MAX_SIZE.1) {
        return Err(PlotError::Size { width, height });
    }
    for s in series {
        if s.x.len() != s.y.len() {
            return Err(PlotError::Lengths { name: s.name.clone(), x: s.x.len(), y: s.y.len() });
        }
    }
    font_ready()
}

fn check_range(axis: &'static str, (lo, hi): (f64, f64)) -> Result<Range<f64>, PlotError> {
    if lo.is_finite() && hi.is_finite() && lo < hi {
        Ok(lo..hi)
    } else {
        Err(PlotError::Range { axis, lo, hi })
    }
}

/// `lo..hi` widened by `pad` of its span on each side; a single value
/// gets a span of 1 (or of its magnitude) around it.
fn padded(lo: f64, hi: f64, pad: f64) -> Range<f64> {
    if hi > lo {
        let d = (hi - lo) * pad;
        lo - d..hi + d
    } else {
        let d = if lo == 0.0 { 0.5 } else { 0.5 * lo.abs() };
        lo - d..hi + d
    }
}

/// The rectangle of the plotting area in pixels: columns and rows.
pub(crate) type PixelRect = (Range<i32>, Range<i32>);

/// `series` as lines of `y` against `x` on a white `width` x `height`
/// picture with `title`, axis labels, ticks and a legend (upper right).
/// Axes span the data (y with 5% room above and below).
///
/// Labels should carry units: `"time (ms)"`, `"φ (arb. units)"`.
pub fn line_plot_png(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    width: u32,
    height: u32,
) -> Result<Vec<u8>, PlotError> {
    line_plot(title, (x_label, y_label), series, (width, height))?.0.encode_png().map_err(PlotError::Encode)
}

/// The picture of [`line_plot_png`] and its plotting area.
pub(crate) fn line_plot(
    title: &str,
    (x_label, y_label): (&str, &str),
    series: &[Series],
    (width, height): (u32, u32),
) -> Result<(Rgb, PixelRect), PlotError> {
    check(series, width, height)?;
    let segments: Vec<_> = series.iter().map(Series::segments).collect();
    let points = || segments.iter().flatten().flatten();
    if points().next().is_none() {
        return Err(PlotError::NoData);
    }
    let range = |coord: fn(&(f64, f64)) -> f64| {
        points().map(coord).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    let (x_lo, x_hi) = range(|p| p.0);
    let (y_lo, y_hi) = range(|p| p.1);
    let x_range = padded(x_lo, x_hi, 0.0);
    let y_range = padded(y_lo, y_hi, 0.05);

    let mut img = Rgb::new(width as usize, height as usize);
    let rect = {
        let root = BitMapBackend::with_buffer(&mut img.pixels, (width, height)).into_drawing_area();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, text(TITLE_PX))
            .margin(MARGIN)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(x_range, y_range)
            .map_err(drawing)?;
        draw_mesh(&mut chart, x_label, y_label)?;
        for (i, (s, pieces)) in series.iter().zip(&segments).enumerate() {
            let style = rgb(series_colour(i)).stroke_width(1);
            let drawn = chart
                .draw_series(pieces.iter().map(|piece| PathElement::new(piece.clone(), style)))
                .map_err(drawing)?;
            if !s.name.is_empty() {
                drawn
                    .label(s.name.as_str())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
            }
        }
        draw_legend(&mut chart, series)?;
        root.present().map_err(drawing)?;
        chart.plotting_area().get_pixel_range()
    };
    Ok((img, rect))
}

/// `series` as points joined in order, on axes spanning `x_range` and
/// `y_range` with the same pixels per unit along both, so that a circle
/// is drawn round: the plotting area is the largest rectangle of that
/// shape that fits, centred. Points outside the ranges are left out.
///
/// For spiral tips: x and y in mm over the domain's extent.
#[allow(clippy::too_many_arguments)] // each is one plain setting of the plot
pub fn trajectory_png(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    x_range: (f64, f64),
    y_range: (f64, f64),
    size: (u32, u32),
) -> Result<Vec<u8>, PlotError> {
    let (width, height) = size;
    trajectory(title, x_label, y_label, series, (x_range, y_range), width, height)?
        .0
        .encode_png()
        .map_err(PlotError::Encode)
}

/// The picture of [`trajectory_png`] and its plotting area.
pub(crate) fn trajectory(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    (x_range, y_range): ((f64, f64), (f64, f64)),
    width: u32,
    height: u32,
) -> Result<(Rgb, PixelRect), PlotError> {
    check(series, width, height)?;
    let xs = check_range("x", x_range)?;
    let ys = check_range("y", y_range)?;
    let inside = |&(x, y): &(f64, f64)| (xs.start..=xs.end).contains(&x) && (ys.start..=ys.end).contains(&y);

    let mut img = Rgb::new(width as usize, height as usize);
    let rect = {
        let root = BitMapBackend::with_buffer(&mut img.pixels, (width, height)).into_drawing_area();
        let area = root.titled(title, text(TITLE_PX)).map_err(drawing)?;
        let (w, h) = area.dim_in_pixel();
        // Room for the data once the margins and label areas are taken.
        let room_w = w.saturating_sub(2 * MARGIN + Y_LABEL_AREA).max(1) as f64;
        let room_h = h.saturating_sub(2 * MARGIN + X_LABEL_AREA).max(1) as f64;
        let (span_x, span_y) = (xs.end - xs.start, ys.end - ys.start);
        let px_per_unit = (room_w / span_x).min(room_h / span_y);
        let spare_w = (room_w - (span_x * px_per_unit).round()).max(0.0) as u32;
        let spare_h = (room_h - (span_y * px_per_unit).round()).max(0.0) as u32;
        let mut chart = ChartBuilder::on(&area)
            .margin_left(MARGIN + spare_w / 2)
            .margin_right(MARGIN + spare_w - spare_w / 2)
            .margin_top(MARGIN + spare_h / 2)
            .margin_bottom(MARGIN + spare_h - spare_h / 2)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(xs.clone(), ys.clone())
            .map_err(drawing)?;
        draw_mesh(&mut chart, x_label, y_label)?;
        for (i, s) in series.iter().enumerate() {
            let colour = rgb(series_colour(i));
            let pieces: Vec<Vec<(f64, f64)>> = s
                .segments()
                .into_iter()
                .map(|piece| piece.into_iter().filter(inside).collect::<Vec<_>>())
                .filter(|piece| !piece.is_empty())
                .collect();
            chart
                .draw_series(
                    pieces.iter().map(|piece| PathElement::new(piece.clone(), colour.stroke_width(1))),
                )
                .map_err(drawing)?;
            let drawn = chart
                .draw_series(pieces.iter().flatten().map(|&p| Circle::new(p, 2, colour.filled())))
                .map_err(drawing)?;
            if !s.name.is_empty() {
                drawn.label(s.name.as_str()).legend(move |p| Circle::new(p, 3, colour.filled()));
            }
        }
        draw_legend(&mut chart, series)?;
        root.present().map_err(drawing)?;
        chart.plotting_area().get_pixel_range()
    };
    Ok((img, rect))
}

/// A chart of two f64 axes on an in-memory bitmap, as every plot draws.
pub type Chart<'a, 'b> = ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Axes with ticks (labelled in at most 4 significant digits), a light
/// grid at the ticks, and the axis labels.
pub fn draw_mesh(chart: &mut Chart, x_label: &str, y_label: &str) -> Result<(), PlotError> {
    let (xs, ys) = (chart.x_range(), chart.y_range());
    let x_tick = |v: &f64| tick(*v, xs.end - xs.start);
    let y_tick = |v: &f64| tick(*v, ys.end - ys.start);
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style(text(LABEL_PX))
        .label_style(text(TICK_PX))
        .x_label_formatter(&x_tick)
        .y_label_formatter(&y_tick)
        .bold_line_style(RGBColor(225, 225, 225))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(drawing)
}

/// The legend, upper right on a white box, when a series has a name.
fn draw_legend<'a, 'b: 'a>(chart: &mut Chart<'a, 'b>, series: &[Series]) -> Result<(), PlotError> {
    if series.iter().all(|s| s.name.is_empty()) {
        return Ok(());
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(160, 160, 160))
        .label_font(text(TICK_PX))
        .draw()
        .map_err(drawing)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::io::canvas::decode_rgb as decode;

    /// Pixels of colour `c` inside `rect`, as (column, row). Lines are
    /// anti-aliased: a pixel within 48 of `c` in each channel is more
    /// than 3/4 line.
    fn pixels_of(img: &Rgb, rect: &PixelRect, c: [u8; 3]) -> Vec<(i32, i32)> {
        let mut found = Vec::new();
        for y in rect.1.clone() {
            for x in rect.0.clone() {
                let p = img.get(x as usize, y as usize);
                if (0..3).all(|k| p[k].abs_diff(c[k]) <= 48) {
                    found.push((x, y));
                }
            }
        }
        found
    }

    fn sines(names: [&str; 2]) -> Vec<Series> {
        let t: Vec<f64> = (0..=500).map(|i| i as f64 * 0.5).collect();
        let wave = |phase: f64| t.iter().map(|t| (t / 25.0 + phase).sin()).collect();
        vec![Series::new(names[0], t.clone(), wave(0.0)), Series::new(names[1], t.clone(), wave(2.0))]
    }

    #[test]
    fn a_line_plot_draws_both_series_and_a_legend() {
        let series = sines(["electrode 1", "electrode 2"]);
        let png = line_plot_png("pseudo-ECG", "time (ms)", "φ (arb. units)", &series, 640, 360).unwrap();
        let (w, h, pixels) = decode(&png);
        assert_eq!((w, h), (640, 360));

        let (img, rect) =
            line_plot("pseudo-ECG", ("time (ms)", "φ (arb. units)"), &series, (640, 360)).unwrap();
        assert_eq!(img.pixels, pixels, "the PNG holds the drawn picture");
        assert!(rect.0.start > 40 && rect.0.end < 640 && rect.1.start > 20 && rect.1.end < 360, "{rect:?}");
        for i in 0..2 {
            let n = pixels_of(&img, &rect, series_colour(i)).len();
            assert!(n > 300, "series {i}: {n} pixels of its colour in the plot area");
        }

        // Without names there is no legend; the pixels that differ are the
        // legend's, in the upper right of the plot area.
        let (bare, _) =
            line_plot("pseudo-ECG", ("time (ms)", "φ (arb. units)"), &sines(["", ""]), (640, 360)).unwrap();
        let changed: Vec<(usize, usize)> = (0..360)
            .flat_map(|y| (0..640).map(move |x| (x, y)))
            .filter(|&(x, y)| img.get(x, y) != bare.get(x, y))
            .collect();
        assert!(changed.len() > 300, "the legend has {} pixels", changed.len());
        let mid_x = ((rect.0.start + rect.0.end) / 2) as usize;
        let mid_y = ((rect.1.start + rect.1.end) / 2) as usize;
        assert!(changed.iter().all(|&(x, y)| x > mid_x && y < mid_y), "legend outside the upper right");
        let dark = changed.iter().filter(|&&(x, y)| img.get(x, y).iter().all(|&c| c < 100)).count();
        assert!(dark > 30, "the legend's names are written: {dark} dark pixels");
    }

    #[test]
    fn a_trajectory_keeps_circles_round() {
        // A circle of radius 2 mm in a 10 x 4 mm box on a 700 x 300 plot:
        // the x axis has room for far more pixels per mm than the y axis.
        let circle: Vec<(f64, f64)> = (0..360)
            .map(|d| (d as f64).to_radians())
            .map(|a| (5.0 + 1.5 * a.cos(), 2.0 + 1.5 * a.sin()))
            .collect();
        // No name: no legend, whose marker has the series' colour.
        let tips = [Series::from_points("", &circle)];
        let args = ("spiral tip", "x (mm)", "y (mm)", &tips[..], (0.0, 10.0), (0.0, 4.0));
        let (img, rect) = trajectory(args.0, args.1, args.2, args.3, (args.4, args.5), 700, 300).unwrap();
        let png = trajectory_png(args.0, args.1, args.2, args.3, args.4, args.5, (700, 300)).unwrap();
        assert_eq!(decode(&png).2, img.pixels);

        let (w, h) = (rect.0.len() as f64, rect.1.len() as f64);
        assert!((w / h - 10.0 / 4.0).abs() < 0.02, "plot area {w} x {h} for a 10 x 4 box");
        let dots = pixels_of(&img, &rect, series_colour(0));
        let extent =
            |c: fn(&(i32, i32)) -> i32| dots.iter().map(c).max().unwrap() - dots.iter().map(c).min().unwrap();
        let (dx, dy) = (extent(|p| p.0), extent(|p| p.1));
        assert!(dx > 50 && (dx - dy).abs() <= 2, "the circle spans {dx} x {dy} pixels");
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        let ok = sines(["a", "b"]);
        let err = line_plot_png("t", "x", "y", &ok, 100, 100).unwrap_err();
        assert!(matches!(err, PlotError::Size { width: 100, height: 100 }), "{err}");
        let uneven = [Series::new("a", vec![0.0, 1.0], vec![0.0])];
        let err = line_plot_png("t", "x", "y", &uneven, 400, 300).unwrap_err();
        assert_eq!(err.to_string(), "series \"a\" has 2 x values but 1 y values: they go in pairs");
        let empty = [Series::new("a", vec![f64::NAN], vec![1.0])];
        assert!(matches!(line_plot_png("t", "x", "y", &empty, 400, 300), Err(PlotError::NoData)));
        let err = trajectory_png("t", "x", "y", &ok, (1.0, 1.0), (0.0, 1.0), (400, 300)).unwrap_err();
        assert!(matches!(err, PlotError::Range { axis: "x", .. }), "{err}");
    }

    #[test]
    fn gaps_and_single_points_still_plot() {
        let s = Series::new("a", vec![0.0, 1.0, f64::NAN, 3.0, 4.0], vec![1.0, 2.0, 5.0, f64::INFINITY, 1.0]);
        assert_eq!(s.segments(), vec![vec![(0.0, 1.0), (1.0, 2.0)], vec![(4.0, 1.0)]]);
        let one = [Series::new("a", vec![2.0], vec![3.0])];
        assert!(line_plot_png("one point", "x", "y", &one, 400, 300).is_ok());
    }
}

//! The restitution plot: APD against DI (and, in a cable, CV against DI
//! in a second panel below), the measured beats as filled dots joined by
//! a line, a published curve as open squares (points read off a figure)
//! or a line (a closed form). Drawn with plotters, in the embedded font
//! and colours of [`crate::io::plot`], whose line plots have no markers.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::io::canvas::{PlotError, Rgb, font_ready, text};
use crate::io::plot::{draw_mesh, drawing, series_colour};

/// One set of (x, y) points and how it is drawn.
#[derive(Clone, Debug)]
pub struct Marked {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub style: Style,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Filled dots joined in the order given.
    DotsAndLine,
    /// Open squares.
    Squares,
    /// A line only.
    Line,
}

/// One panel: a y label and its sets of points.
#[derive(Clone, Debug)]
pub struct Panel {
    pub y_label: String,
    pub sets: Vec<Marked>,
}

/// `lo..hi` of the finite values, widened by 5 % (a single value by 1).
fn range(values: impl Iterator<Item = f64>) -> Option<Range<f64>> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return None;
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    Some(lo - pad..hi + pad)
}

/// The panels stacked on one `width` x `height` picture, sharing the x
/// axis (`x_label`), under `title`; PNG bytes.
pub fn restitution_png(
    title: &str,
    x_label: &str,
    panels: &[Panel],
    (width, height): (u32, u32),
) -> Result<Vec<u8>, PlotError> {
    font_ready()?;
    let all_x = || panels.iter().flat_map(|p| p.sets.iter().flat_map(|s| s.points.iter().map(|q| q.0)));
    let x_range = range(all_x()).ok_or(PlotError::NoData)?;
    let mut img = Rgb::new(width as usize, height as usize);
    {
        let root = BitMapBackend::with_buffer(&mut img.pixels, (width, height)).into_drawing_area();
        let root = root.titled(title, text(18.0)).map_err(drawing)?;
        let areas = root.split_evenly((panels.len().max(1), 1));
        for (panel, area) in panels.iter().zip(&areas) {
            draw_panel(area, x_label, x_range.clone(), panel)?;
        }
        root.present().map_err(drawing)?;
    }
    img.encode_png().map_err(PlotError::Encode)
}

fn draw_panel(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    x_label: &str,
    x_range: Range<f64>,
    panel: &Panel,
) -> Result<(), PlotError> {
    let y_range = range(panel.sets.iter().flat_map(|s| s.points.iter().map(|q| q.1))).unwrap_or(0.0..1.0);
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x_range, y_range)
        .map_err(drawing)?;
    draw_mesh(&mut chart, x_label, &panel.y_label)?;
    for (i, set) in panel.sets.iter().enumerate() {
        let colour = {
            let c = series_colour(i);
            RGBColor(c[0], c[1], c[2])
        };
        let points: Vec<(f64, f64)> =
            set.points.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite()).collect();
        let name = set.name.clone();
        match set.style {
            Style::DotsAndLine | Style::Line => {
                chart
                    .draw_series(std::iter::once(PathElement::new(points.clone(), colour.stroke_width(2))))
                    .map_err(drawing)?;
                if set.style == Style::DotsAndLine {
                    chart
                        .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                        .map_err(drawing)?
                        .label(name)
                        .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
                } else {
                    chart
                        .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())
                        .map_err(drawing)?
                        .label(name)
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                        });
                }
            }
            Style::Squares => {
                let square = move |(x, y): (f64, f64)| {
                    EmptyElement::at((x, y))
                        + plotters::element::Rectangle::new([(-4, -4), (4, 4)], colour.stroke_width(2))
                };
                chart.draw_series(points.iter().map(|&p| square(p))).map_err(drawing)?.label(name).legend(
                    move |(x, y)| {
                        plotters::element::Rectangle::new(
                            [(x + 6, y - 4), (x + 14, y + 4)],
                            colour.stroke_width(2),
                        )
                    },
                );
            }
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(160, 160, 160))
        .label_font(text(13.0))
        .draw()
        .map_err(drawing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_two_panels_with_markers() {
        let ours = Marked {
            name: "measured".into(),
            points: vec![(40.0, 30.0), (100.0, 200.0), (300.0, 250.0)],
            style: Style::DotsAndLine,
        };
        let theirs = Marked {
            name: "published".into(),
            points: vec![(50.0, 50.0), (200.0, 240.0)],
            style: Style::Squares,
        };
        let cv = Marked { name: "CV".into(), points: vec![(40.0, 0.3), (300.0, 0.42)], style: Style::Line };
        let panels = [
            Panel { y_label: "APD (ms)".into(), sets: vec![ours, theirs] },
            Panel { y_label: "CV (m/s)".into(), sets: vec![cv] },
        ];
        let png = restitution_png("restitution", "DI (ms)", &panels, (700, 800)).unwrap();
        let (w, h, pixels) = crate::io::canvas::decode_rgb(&png);
        assert_eq!((w, h), (700, 800));
        // Both colours are drawn.
        for i in 0..2 {
            let c = series_colour(i);
            let n = pixels.chunks(3).filter(|p| (0..3).all(|k| p[k].abs_diff(c[k]) < 40)).count();
            assert!(n > 50, "series {i}: {n} pixels");
        }
        let empty = [Panel { y_label: "APD (ms)".into(), sets: vec![] }];
        assert!(matches!(restitution_png("t", "DI (ms)", &empty, (700, 400)), Err(PlotError::NoData)));
    }
}

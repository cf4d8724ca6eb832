//! PNG pictures of a field: its three mid-planes side by side, coloured
//! with viridis, with axes in cells and a colour bar with ticks, the
//! variable's name and its unit.
//!
//! One file per field and time. From left to right: the xy plane at
//! z = nz/2, the xz plane at y = ny/2 and the yz plane at x = nx/2, each
//! with its second axis pointing up (y or z), so a wave travelling along
//! +z rises in the second and third panels. A sheet (nz = 1) is shown as
//! its one plane, a cable as a strip. Small grids are enlarged by an
//! integer factor so that every panel is at least ~256 pixels.
//!
//! The panels and the colour bar's gradient are painted here, one colour
//! per cell, so that every pixel is exactly the colour map of its cell.
//! The text, axes and ticks around them are drawn by plotters in the
//! embedded font (see [`plot`](crate::io::plot)). They replaced a
//! hand-made 5x7 bitmap font (digits, lower case and U only, at twice its
//! size), which could not write units or capitals and drew no ticks.

use std::io;
use std::path::Path;

use ndarray::Array3;

use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::io::atomic::write_atomic;
use crate::io::canvas::{PlotError, area_over, font_ready, text, tick};
pub use crate::io::canvas::{Rgb, label};
use crate::io::colormap::scaled;
use crate::scalar::Scalar;

/// Outer margin, and the space between a panel and the next one's axis.
const MARGIN: usize = 12;
const GAP: usize = 16;
const BAR_WIDTH: usize = 20;
/// The colour bar is at least this tall, so that its ticks and its
/// label fit beside a cable's strip.
const BAR_MIN_HEIGHT: usize = 160;
const TITLE_PX: f64 = 18.0;
const PANEL_TITLE_PX: f64 = 15.0;
const AXIS_PX: f64 = 14.0;
const TICK_PX: f64 = 12.0;
/// Length of the tick marks: plotters' default is 5% of the plotting
/// area, a single pixel beside a 20-pixel colour bar.
const TICK_MARK: u32 = 5;
/// Room for the tick marks and the gaps around the labels of an axis:
/// plotters puts a label twice the tick's length from the axis.
const AXIS_PAD: usize = 3 * TICK_MARK as usize + 6;
/// At most this many ticks on the colour bar.
const BAR_TICKS: usize = 6;

/// The smallest and largest finite values of `values` (NaN, NaN if none).
pub fn finite_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.filter(|v| v.is_finite()).fold((f64::NAN, f64::NAN), |(lo, hi), v| {
        (lo.min(v), hi.max(v)) // f64::min/max ignore the NaN start
    })
}

/// A plane of the field: width, height and value at (column, row from the bottom).
struct Plane<'a> {
    title: String,
    /// Names of its horizontal and vertical axes.
    axes: (&'static str, &'static str),
    width: usize,
    height: usize,
    value: Box<dyn Fn(usize, usize) -> f64 + 'a>,
}

/// A rectangle of pixels: left column, top row, width and height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PixelBox {
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

/// Width and height in pixels of `s` in `style`.
fn size_of(s: &str, style: &TextStyle) -> Result<(usize, usize), PlotError> {
    let (w, h) = style.font.box_size(s).map_err(|e| PlotError::Draw(e.to_string()))?;
    Ok((w as usize, h as usize))
}

/// The three mid-planes of `field` (shape (nz, ny, nx)) as one picture,
/// coloured from `min` to `max`, with `title` on top and `bar_label`
/// (the variable and its unit, `"U"` or `"activation time (ms)"`) along
/// the colour bar.
pub fn midplanes<T: Scalar>(
    field: &Array3<T>,
    min: f64,
    max: f64,
    title: &str,
    bar_label: &str,
) -> Result<Rgb, PlotError> {
    Ok(draw_midplanes(field, min, max, title, bar_label)?.0)
}

/// [`midplanes`], and where its panels and its colour bar are.
pub(crate) fn draw_midplanes<T: Scalar>(
    field: &Array3<T>,
    min: f64,
    max: f64,
    title: &str,
    bar_label: &str,
) -> Result<(Rgb, Vec<PixelBox>, PixelBox), PlotError> {
    font_ready()?;
    let (nz, ny, nx) = field.dim();
    let (zc, yc, xc) = (nz / 2, ny / 2, nx / 2);
    let mut planes = vec![
        Plane {
            title: format!("xy plane, z = {zc}"),
            axes: ("x", "y"),
            width: nx,
            height: ny,
            value: Box::new(move |c, r| field[[zc, r, c]].to_f64()),
        },
        Plane {
            title: format!("xz plane, y = {yc}"),
            axes: ("x", "z"),
            width: nx,
            height: nz,
            value: Box::new(move |c, r| field[[r, yc, c]].to_f64()),
        },
        Plane {
            title: format!("yz plane, x = {xc}"),
            axes: ("y", "z"),
            width: ny,
            height: nz,
            value: Box::new(move |c, r| field[[r, c, xc]].to_f64()),
        },
    ];
    if nz == 1 {
        // A sheet or a cable: the xz and yz planes would be single rows.
        planes.truncate(1);
        planes[0].title = "xy plane".into();
    }
    let largest = nx.max(ny).max(nz);
    let scale = (256 / largest).clamp(1, 8);
    // A cable's one row is drawn as a strip of at least 24 pixels.
    let row_scale = |p: &Plane| if p.height == 1 { scale.max(24) } else { scale };

    let (title_style, panel_style) = (text(TITLE_PX), text(PANEL_TITLE_PX));
    let (axis_style, tick_style) = (text(AXIS_PX), text(TICK_PX));
    let axis_h = size_of("xyz", &axis_style)?.1;
    let (digits_w, tick_h) = size_of(&largest.to_string(), &tick_style)?;
    // Left of each panel: its vertical axis (ticks, numbers, name).
    let left = digits_w + axis_h + AXIS_PAD;
    // Below: the horizontal axis.
    let below = tick_h + axis_h + AXIS_PAD;
    let range_ok = min.is_finite() && max.is_finite() && max > min;
    let bar_texts: Vec<String> = if range_ok {
        // The very ticks plotters will draw, so that their room is measured.
        let ticks = RangedCoordf64::from(min..max).key_points(BAR_TICKS);
        ticks.into_iter().map(|v| tick(v, max - min)).collect()
    } else {
        vec![bar_label.to_string(), if min.is_nan() { "no finite values".into() } else { label(min) }]
    };
    let mut bar_text_w = 0;
    for t in &bar_texts {
        bar_text_w = bar_text_w.max(size_of(t, &tick_style)?.0);
    }
    // Right of the bar: its ticks, numbers and rotated label.
    let right = if range_ok { bar_text_w + axis_h + AXIS_PAD } else { bar_text_w + 8 };

    let mut slots = Vec::new(); // (left edge, width) of each panel's slot
    let mut x = MARGIN;
    for p in &planes {
        let w = left + (p.width * scale).max(size_of(&p.title, &panel_style)?.0);
        slots.push((x, w));
        x += w + GAP;
    }
    let (title_w, title_h) = size_of(title, &title_style)?;
    let panel_title_h = size_of("xyz", &panel_style)?.1;
    let top = MARGIN + title_h + 10 + panel_title_h + 8;
    let panel_h = planes.iter().map(|p| p.height * row_scale(p)).max().unwrap_or(1);
    let bar_h = panel_h.max(BAR_MIN_HEIGHT);
    let bar_x = x;
    let width = (bar_x + BAR_WIDTH + right + MARGIN).max(2 * MARGIN + title_w);
    let height = top + (panel_h + below).max(bar_h + MARGIN) + MARGIN;

    let mut img = Rgb::new(width, height);
    let panels: Vec<PixelBox> = planes
        .iter()
        .zip(&slots)
        .map(|(p, &(x, _))| PixelBox { x: x + left, y: top, w: p.width * scale, h: p.height * row_scale(p) })
        .collect();
    let bar = PixelBox { x: bar_x, y: top, w: BAR_WIDTH, h: bar_h };
    {
        let root = area_over(&mut img);
        let err = |e: DrawingAreaErrorKind<_>| PlotError::Draw(e.to_string());
        root.draw_text(title, &title_style, (MARGIN as i32, MARGIN as i32)).map_err(err)?;
        for (p, b) in planes.iter().zip(&panels) {
            let title_y = (top - 8) as i32;
            let anchored = panel_style.pos(Pos::new(HPos::Left, VPos::Bottom));
            root.draw_text(&p.title, &anchored, (b.x as i32, title_y)).map_err(err)?;
            let area = root
                .clone()
                .shrink(((b.x - left) as i32, b.y as i32), ((left + b.w) as u32, (b.h + below) as u32));
            let mut chart = ChartBuilder::on(&area)
                .y_label_area_size(left as u32)
                .x_label_area_size(below as u32)
                .build_cartesian_2d(0..p.width as i32, 0..p.height as i32)
                .map_err(err)?;
            // A cable's strip has room for its two ends only (and plotters'
            // integer ticks loop until overflow when asked for none).
            let y_ticks = if p.height == 1 { 1 } else { 6 };
            chart
                .configure_mesh()
                .disable_mesh()
                .x_desc(p.axes.0)
                .y_desc(p.axes.1)
                .x_labels(6)
                .y_labels(y_ticks)
                .set_all_tick_mark_size(TICK_MARK)
                .label_style(tick_style.clone())
                .axis_desc_style(axis_style.clone())
                .draw()
                .map_err(err)?;
        }
        if range_ok {
            let area =
                root.clone().shrink((bar.x as i32, bar.y as i32), ((bar.w + right) as u32, bar.h as u32));
            let mut chart = ChartBuilder::on(&area)
                .right_y_label_area_size(right as u32)
                .build_cartesian_2d(0.0..1.0, min..max)
                .map_err(err)?
                .set_secondary_coord(0.0..1.0, min..max);
            let bar_tick = |v: &f64| tick(*v, max - min);
            chart
                .configure_secondary_axes()
                .y_desc(bar_label)
                .y_labels(BAR_TICKS)
                .y_label_formatter(&bar_tick)
                .set_all_tick_mark_size(TICK_MARK)
                .label_style(tick_style.clone())
                .axis_desc_style(axis_style.clone())
                .draw()
                .map_err(err)?;
        } else {
            let mut y = (bar.y + bar.h / 2) as i32 - tick_h as i32;
            for t in &bar_texts {
                root.draw_text(t, &tick_style, ((bar.x + bar.w + 8) as i32, y)).map_err(err)?;
                y += tick_h as i32 + 4;
            }
        }
        root.present().map_err(err)?;
    }

    for (p, b) in planes.iter().zip(&panels) {
        let rs = row_scale(p);
        for py in 0..b.h {
            let row = p.height - 1 - py / rs; // second axis points up
            for px in 0..b.w {
                img.put(b.x + px, b.y + py, scaled((p.value)(px / scale, row), min, max));
            }
        }
    }
    // Colour bar: max at the top, min at the bottom.
    for py in 0..bar.h {
        let s = 1.0 - py as f64 / (bar.h.max(2) - 1) as f64;
        let c = scaled(min + s * (max - min), min, max);
        for px in 0..bar.w {
            img.put(bar.x + px, bar.y + py, c);
        }
    }
    Ok((img, panels, bar))
}

/// Writes the mid-plane picture of `field` to `path` atomically.
pub fn write_midplanes<T: Scalar>(
    path: &Path,
    field: &Array3<T>,
    min: f64,
    max: f64,
    title: &str,
    bar_label: &str,
) -> io::Result<()> {
    let img = midplanes(field, min, max, title, bar_label).map_err(io::Error::other)?;
    write_atomic(path, &img.encode_png()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::colormap::viridis;

    #[test]
    fn every_panel_pixel_is_the_colour_of_its_cell() {
        // A field that differs in every cell, on an odd, non-cubic grid.
        let (nz, ny, nx) = (7, 5, 4);
        let field = Array3::from_shape_fn((nz, ny, nx), |(z, y, x)| (x + 4 * y + 20 * z) as f32);
        let (lo, hi) = (0.0, 139.0);
        let (img, panels, bar) = draw_midplanes(&field, lo, hi, "U  t = 1 ms", "U").unwrap();
        let (w, h, pixels) = crate::io::canvas::decode_rgb(&img.encode_png().unwrap());
        assert_eq!((w, h, &pixels), (img.width, img.height, &img.pixels), "the PNG holds the picture");

        let scale = 256 / 7; // capped at 8
        let scale = scale.min(8);
        // (cells across, cells up, value at (column, row from the bottom)).
        type At<'a> = Box<dyn Fn(usize, usize) -> f32 + 'a>;
        let field = &field;
        let planes: [(usize, usize, At); 3] = [
            (nx, ny, Box::new(move |c, r| field[[nz / 2, r, c]])),
            (nx, nz, Box::new(move |c, r| field[[r, ny / 2, c]])),
            (ny, nz, Box::new(move |c, r| field[[r, c, nx / 2]])),
        ];
        assert_eq!(panels.len(), 3);
        for ((across, up, at), b) in planes.iter().zip(&panels) {
            assert_eq!((b.w, b.h), (across * scale, up * scale));
            for py in 0..b.h {
                for px in 0..b.w {
                    let value = at(px / scale, up - 1 - py / scale) as f64;
                    assert_eq!(
                        img.get(b.x + px, b.y + py),
                        scaled(value, lo, hi),
                        "pixel ({px}, {py}) of {b:?}"
                    );
                }
            }
        }
        // Panels do not overlap and sit left of the colour bar.
        assert!(panels.windows(2).all(|p| p[0].x + p[0].w < p[1].x));
        assert!(panels[2].x + panels[2].w < bar.x);
        assert_eq!(img.get(bar.x, bar.y), viridis(1.0));
        assert_eq!(img.get(bar.x + bar.w - 1, bar.y + bar.h - 1), viridis(0.0));
    }

    #[test]
    fn text_and_ticks_surround_the_panels() {
        let field = Array3::from_shape_fn((6, 5, 4), |(z, _, _)| z as f32 / 5.0);
        let (img, panels, bar) = draw_midplanes(&field, 0.0, 1.0, "U  t = 1 ms", "U").unwrap();
        let dark = |x0: usize, x1: usize, y0: usize, y1: usize| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| img.get(x, y)[0] < 128)
                .count()
        };
        let p = panels[0];
        assert!(dark(0, img.width, 0, MARGIN + 20) > 50, "the title");
        assert!(dark(p.x, p.x + p.w, p.y - 20, p.y) > 30, "the panel's title");
        assert!(dark(p.x - 20, p.x, p.y, p.y + p.h) > 20, "the vertical axis");
        assert!(dark(p.x, p.x + p.w, p.y + p.h, p.y + p.h + 30) > 20, "the horizontal axis");
        assert!(
            dark(bar.x + bar.w, img.width, bar.y, bar.y + bar.h) > 60,
            "the colour bar's ticks and label"
        );
    }

    #[test]
    fn a_sheet_is_one_plane_and_a_cable_a_strip() {
        let sheet = Array3::from_shape_fn((1, 40, 30), |(_, y, _)| y as f32 / 39.0);
        let (img, panels, _) = draw_midplanes(&sheet, 0.0, 1.0, "U", "U").unwrap();
        let scale = 256 / 40;
        assert_eq!(panels.len(), 1);
        assert_eq!((panels[0].w, panels[0].h), (30 * scale, 40 * scale));
        assert_eq!(img.get(panels[0].x, panels[0].y), viridis(1.0)); // y up
        let cable = Array3::from_shape_fn((1, 1, 100), |(_, _, x)| x as f32 / 99.0);
        let (img, panels, bar) = draw_midplanes(&cable, 0.0, 1.0, "U", "U").unwrap();
        assert_eq!((panels[0].w, panels[0].h), (200, 24));
        assert_eq!(img.get(panels[0].x, panels[0].y + 20), viridis(0.0));
        assert_eq!(bar.h, BAR_MIN_HEIGHT, "a bar tall enough for its ticks");
    }

    #[test]
    fn a_field_without_a_range_still_draws() {
        // An activation map where nothing activated: all NaN.
        let never = Array3::from_elem((3, 3, 3), f32::NAN);
        let (img, panels, _) = draw_midplanes(&never, f64::NAN, f64::NAN, "activation", "time (ms)").unwrap();
        assert_eq!(img.get(panels[0].x, panels[0].y), crate::io::colormap::NAN_RGB);
        let flat = Array3::from_elem((3, 3, 3), 2.0f32);
        assert!(midplanes(&flat, 2.0, 2.0, "flat", "U").is_ok());
    }

    #[test]
    fn range_skips_non_finite_values() {
        let (lo, hi) = finite_range([f64::NAN, 2.0, -1.0, f64::INFINITY].into_iter());
        assert_eq!((lo, hi), (-1.0, 2.0));
        assert!(finite_range(std::iter::empty()).0.is_nan());
    }
}

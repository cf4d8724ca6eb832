//! PNG pictures of a field: its three mid-planes side by side, coloured
//! with viridis, with a colour bar labelled with its minimum and maximum.
//!
//! One file per field and time. From left to right: the xy plane at
//! z = nz/2, the xz plane at y = ny/2 and the yz plane at x = nx/2, each
//! with its second axis pointing up (y or z), so a wave travelling along
//! +z rises in the second and third panels. A sheet (nz = 1) is shown as
//! its one plane, a cable as a strip. Small grids are enlarged by an
//! integer factor so that every panel is at least ~256 pixels.

use std::io;
use std::path::Path;

use ndarray::Array3;

use crate::io::atomic::write_atomic;
use crate::io::colormap::scaled;
use crate::io::font::{self, GLYPH_H};
use crate::scalar::Scalar;

/// An RGB image, 8 bits per channel, rows from the top.
#[derive(Clone, Debug, PartialEq)]
pub struct Rgb {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

const BACKGROUND: [u8; 3] = [255, 255, 255];
const INK: [u8; 3] = [0, 0, 0];
const MARGIN: usize = 10;
const GAP: usize = 14;
const TEXT_SCALE: usize = 2;
const BAR_WIDTH: usize = 18;

impl Rgb {
    pub(crate) fn new(width: usize, height: usize) -> Self {
        Self { width, height, pixels: BACKGROUND.repeat(width * height) }
    }

    fn put(&mut self, x: usize, y: usize, c: [u8; 3]) {
        if x < self.width && y < self.height {
            let i = 3 * (y * self.width + x);
            self.pixels[i..i + 3].copy_from_slice(&c);
        }
    }

    /// The colour at (x, y).
    pub fn get(&self, x: usize, y: usize) -> [u8; 3] {
        let i = 3 * (y * self.width + x);
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }

    fn text(&mut self, x: usize, y: usize, text: &str) {
        for (k, c) in text.chars().enumerate() {
            for row in 0..GLYPH_H {
                for col in 0..font::GLYPH_W {
                    if font::pixel(c, col, row) {
                        for dy in 0..TEXT_SCALE {
                            for dx in 0..TEXT_SCALE {
                                self.put(
                                    x + (k * font::ADVANCE + col) * TEXT_SCALE + dx,
                                    y + row * TEXT_SCALE + dy,
                                    INK,
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// The PNG encoding of the image.
    pub fn encode_png(&self) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.width as u32, self.height as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(io::Error::other)?;
        writer.write_image_data(&self.pixels).map_err(io::Error::other)?;
        writer.finish().map_err(io::Error::other)?;
        Ok(out)
    }
}

/// A number for a label: at most 4 significant decimals, no trailing zeros.
pub fn label(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x != 0.0 && (x.abs() >= 1e5 || x.abs() < 1e-3) {
        return format!("{x:.2e}");
    }
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// The smallest and largest finite values of `values` (NaN, NaN if none).
pub fn finite_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.filter(|v| v.is_finite()).fold((f64::NAN, f64::NAN), |(lo, hi), v| {
        (lo.min(v), hi.max(v)) // f64::min/max ignore the NaN start
    })
}

/// A plane of the field: width, height and value at (column, row from the bottom).
struct Plane<'a> {
    title: String,
    width: usize,
    height: usize,
    value: Box<dyn Fn(usize, usize) -> f64 + 'a>,
}

/// The three mid-planes of `field` (shape (nz, ny, nx)) as one picture,
/// coloured from `min` to `max`, with `title` on top.
pub fn midplanes<T: Scalar>(field: &Array3<T>, min: f64, max: f64, title: &str) -> Rgb {
    let (nz, ny, nx) = field.dim();
    let (zc, yc, xc) = (nz / 2, ny / 2, nx / 2);
    let mut planes = vec![
        Plane {
            title: format!("xy z={zc}"),
            width: nx,
            height: ny,
            value: Box::new(move |c, r| field[[zc, r, c]].to_f64()),
        },
        Plane {
            title: format!("xz y={yc}"),
            width: nx,
            height: nz,
            value: Box::new(move |c, r| field[[r, yc, c]].to_f64()),
        },
        Plane {
            title: format!("yz x={xc}"),
            width: ny,
            height: nz,
            value: Box::new(move |c, r| field[[r, c, xc]].to_f64()),
        },
    ];
    if nz == 1 {
        // A sheet or a cable: the xz and yz planes would be single rows.
        planes.truncate(1);
        planes[0].title = "xy".into();
    }
    let largest = nx.max(ny).max(nz);
    let scale = (256 / largest).clamp(1, 8);
    // A cable's one row is drawn as a strip of at least 24 pixels.
    let row_scale = |p: &Plane| if p.height == 1 { scale.max(24) } else { scale };
    let text_h = GLYPH_H * TEXT_SCALE;
    // Each panel's slot is wide enough for its picture and its title.
    let slot = |p: &Plane| (p.width * scale).max(font::text_width(&p.title) * TEXT_SCALE);
    let panels_w: usize = planes.iter().map(slot).sum::<usize>() + GAP * 2;
    let panel_h = planes.iter().map(|p| p.height * row_scale(p)).max().unwrap_or(1);
    let (min_label, max_label) = (label(min), label(max));
    let label_w = font::text_width(&min_label).max(font::text_width(&max_label)) * TEXT_SCALE;
    let width = (MARGIN + panels_w + GAP + BAR_WIDTH + 6 + label_w + MARGIN)
        .max(2 * MARGIN + font::text_width(title) * TEXT_SCALE);
    let top = MARGIN + 2 * (text_h + 6);
    let height = top + panel_h + MARGIN;
    let mut img = Rgb::new(width, height);
    img.text(MARGIN, MARGIN, title);

    let mut x0 = MARGIN;
    for p in &planes {
        img.text(x0, MARGIN + text_h + 6, &p.title);
        let rs = row_scale(p);
        for py in 0..p.height * rs {
            let row = p.height - 1 - py / rs; // second axis points up
            for px in 0..p.width * scale {
                let c = scaled((p.value)(px / scale, row), min, max);
                img.put(x0 + px, top + py, c);
            }
        }
        x0 += slot(p) + GAP;
    }

    // Colour bar: max at the top, min at the bottom.
    let bar_x = MARGIN + panels_w + GAP;
    for py in 0..panel_h {
        let s = 1.0 - py as f64 / (panel_h.max(2) - 1) as f64;
        let c = scaled(min + s * (max - min), min, max);
        for px in 0..BAR_WIDTH {
            img.put(bar_x + px, top + py, c);
        }
    }
    let label_x = bar_x + BAR_WIDTH + 6;
    img.text(label_x, top, &max_label);
    img.text(label_x, top + panel_h - text_h, &min_label);
    img
}

/// Writes the mid-plane picture of `field` to `path` atomically.
pub fn write_midplanes<T: Scalar>(
    path: &Path,
    field: &Array3<T>,
    min: f64,
    max: f64,
    title: &str,
) -> io::Result<()> {
    write_atomic(path, &midplanes(field, min, max, title).encode_png()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::colormap::viridis;

    #[test]
    fn labels_are_short() {
        assert_eq!(label(0.0), "0");
        assert_eq!(label(4.0), "4");
        assert_eq!(label(125.25), "125.25");
        assert_eq!(label(-0.0001), "-1.00e-4");
        assert_eq!(label(2.0 / 3.0), "0.667");
    }

    #[test]
    fn panels_show_the_mid_planes_with_the_second_axis_up() {
        // U = z / (nz - 1) on a 4 x 5 x 6 grid: xz and yz panels are
        // brightest at the top, the xy panel (z = 3) is uniform.
        let field = Array3::from_shape_fn((6, 5, 4), |(z, _, _)| z as f32 / 5.0);
        let img = midplanes(&field, 0.0, 1.0, "U t=1 ms");
        let scale = 8; // 256 / 6 capped at 8
        let top = MARGIN + 2 * (GLYPH_H * TEXT_SCALE + 6);
        let xz_left = MARGIN + (4 * scale).max(font::text_width("xy z=3") * TEXT_SCALE) + GAP;
        assert_eq!(img.get(xz_left, top), viridis(1.0));
        assert_eq!(img.get(xz_left, top + 6 * scale - 1), viridis(0.0));
        assert_eq!(img.get(MARGIN, top), viridis(0.6));
        let png = img.encode_png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }

    #[test]
    fn a_sheet_is_one_plane_and_a_cable_a_strip() {
        let sheet = Array3::from_shape_fn((1, 40, 30), |(_, y, _)| y as f32 / 39.0);
        let img = midplanes(&sheet, 0.0, 1.0, "U");
        let top = MARGIN + 2 * (GLYPH_H * TEXT_SCALE + 6);
        let scale = 256 / 40;
        assert_eq!(img.height, top + 40 * scale + MARGIN);
        assert_eq!(img.get(MARGIN, top), viridis(1.0)); // y up
        let cable = Array3::from_shape_fn((1, 1, 100), |(_, _, x)| x as f32 / 99.0);
        let img = midplanes(&cable, 0.0, 1.0, "U");
        assert_eq!(img.height, top + 24 + MARGIN);
        assert_eq!(img.get(MARGIN, top + 20), viridis(0.0));
    }

    #[test]
    fn range_skips_non_finite_values() {
        let (lo, hi) = finite_range([f64::NAN, 2.0, -1.0, f64::INFINITY].into_iter());
        assert_eq!((lo, hi), (-1.0, 2.0));
        assert!(finite_range(std::iter::empty()).0.is_nan());
    }
}

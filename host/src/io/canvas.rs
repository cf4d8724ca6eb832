//! What the pictures ([`image`](crate::io::image)) and the plots
//! ([`plot`](crate::io::plot)) both draw with: the RGB image they paint
//! into, the embedded font and its text styles, numbers written as labels
//! and ticks, and the error of a drawing. Kept apart from both so that
//! neither needs the other.

use std::io;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

/// DejaVu Sans 2.37, unmodified, from Debian's `fonts-dejavu-core`
/// 2.37-6; `fonts/LICENSE-DejaVu.txt` has its licence (Bitstream Vera and
/// Arev: free to embed and redistribute) and checksum. Embedded because the
/// machines that build and run fibril may have no fonts at all; it covers
/// Greek (φ) and Latin-1 (µ, °). It costs its 742 KiB in the binary.
pub const FONT: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");

/// The family the font is registered as: plotters' default family, so
/// that every text it draws (tick labels included) uses it.
pub(crate) const FAMILY: &str = "sans-serif";

/// Smallest and largest plots accepted, in pixels. Below the smallest the
/// labels leave no room for the data; the largest bounds the buffer (8192²
/// RGB pixels are 192 MiB).
pub const MIN_SIZE: (u32, u32) = (200, 150);
pub const MAX_SIZE: (u32, u32) = (8192, 8192);

/// An RGB image, 8 bits per channel, rows from the top.
#[derive(Clone, Debug, PartialEq)]
pub struct Rgb {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

const BACKGROUND: [u8; 3] = [255, 255, 255];

impl Rgb {
    pub(crate) fn new(width: usize, height: usize) -> Self {
        Self { width, height, pixels: BACKGROUND.repeat(width * height) }
    }

    pub(crate) fn put(&mut self, x: usize, y: usize, c: [u8; 3]) {
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

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error(
        "a plot is {}x{} to {}x{} pixels, not {width}x{height}",
        MIN_SIZE.0, MIN_SIZE.1, MAX_SIZE.0, MAX_SIZE.1
    )]
    Size { width: u32, height: u32 },
    #[error("series {name:?} has {x} x values but {y} y values: they go in pairs")]
    Lengths { name: String, x: usize, y: usize },
    #[error("nothing to plot: no series has a finite point")]
    NoData,
    #[error("the {axis} range {lo} to {hi} is not an increasing pair of finite numbers")]
    Range { axis: &'static str, lo: f64, hi: f64 },
    #[error("the embedded font could not be read")]
    Font,
    #[error("drawing the plot failed: {0}")]
    Draw(String),
    #[error("encoding the plot as PNG failed: {0}")]
    Encode(#[source] std::io::Error),
}

/// Registers [`FONT`] with plotters once per process.
pub(crate) fn font_ready() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok { Ok(()) } else { Err(PlotError::Font) }
}

/// Text of `px` pixels in the embedded font.
pub(crate) fn text(px: f64) -> TextStyle<'static> {
    TextStyle::from((FAMILY, px).into_font())
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

/// The label of a tick at `v` on an axis spanning `span`: plotters steps
/// from the axis start in floating point, so the tick meant at 0 can land
/// at -2.2e-16, which would print as such.
pub(crate) fn tick(v: f64, span: f64) -> String {
    label(if v.abs() < span * 1e-9 { 0.0 } else { v })
}

/// A drawing area of plotters over `img`, for pictures drawn partly by
/// hand (the mid-plane images).
pub(crate) fn area_over(img: &mut Rgb) -> DrawingArea<BitMapBackend<'_>, Shift> {
    let (w, h) = (img.width as u32, img.height as u32);
    BitMapBackend::with_buffer(&mut img.pixels, (w, h)).into_drawing_area()
}

/// Width, height and RGB pixels of a PNG this module encoded (for tests
/// that check the pixels written).
#[cfg(test)]
pub(crate) fn decode_rgb(png: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut buf).unwrap();
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    (frame.width as usize, frame.height as usize, buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_short() {
        assert_eq!(label(0.0), "0");
        assert_eq!(label(4.0), "4");
        assert_eq!(label(125.25), "125.25");
        assert_eq!(label(-0.0001), "-1.00e-4");
        assert_eq!(label(2.0 / 3.0), "0.667");
    }

    #[test]
    fn ticks_near_zero_read_zero() {
        assert_eq!(tick(-2.220446049250313e-16, 2.2), "0");
        assert_eq!(tick(1e-12, 1e-6), "1.00e-12");
        assert_eq!(tick(0.4, 2.2), "0.4");
    }
}

//! Animated GIF movies of the pictures fibril draws (`fibril movie`).
//!
//! A GIF holds at most 256 colours per frame. The pictures are viridis
//! fields, text and axes in grey levels on white, and grey for cells
//! without a value, so one fixed palette serves every frame: 190 viridis
//! colours, the NaN grey and 64 grey levels. Every pixel maps to its
//! nearest palette entry (a viridis colour is at most half a step of 1/189
//! of the colour scale off), with no quantiser and no dithering, so the
//! frames stay the same colours as the PNG pictures.
//!
//! Frames after the first hold only the rectangle that changed, with the
//! pixels that did not change made transparent ([`TRANSPARENT`]): the
//! axes, the colour bar and resting tissue then cost almost nothing, and a
//! movie of a spiral is several times smaller. The LZW coding is the `gif`
//! crate's.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::Path;

use crate::io::atomic::write_atomic_with;
use crate::io::canvas::Rgb;
use crate::io::colormap::{NAN_RGB, viridis};

/// Viridis colours of the palette: entry k is viridis(k / (VIRIDIS - 1)).
const VIRIDIS: usize = 190;
/// Grey levels of the palette (black to white), for text and axes.
const GREYS: usize = 64;
/// The palette index of "unchanged since the previous frame".
pub const TRANSPARENT: u8 = 255;

/// The 255 colours of every movie (and an unused 256th, the transparent
/// index): viridis, the NaN grey, then the grey levels.
pub fn palette() -> Vec<[u8; 3]> {
    let mut colours: Vec<[u8; 3]> = (0..VIRIDIS).map(|k| viridis(k as f64 / (VIRIDIS - 1) as f64)).collect();
    colours.push(NAN_RGB);
    colours.extend((0..GREYS).map(|k| {
        let g = (k as f64 * 255.0 / (GREYS - 1) as f64).round() as u8;
        [g, g, g]
    }));
    colours.push([255, 0, 255]); // the transparent index: never shown
    debug_assert_eq!(colours.len(), 256);
    colours
}

/// Maps RGB pixels to the nearest colour of [`palette`], remembering each
/// colour met (a picture has a few thousand distinct colours at most).
pub struct Indexer {
    palette: Vec<[u8; 3]>,
    seen: HashMap<[u8; 3], u8>,
}

impl Default for Indexer {
    fn default() -> Self {
        Self { palette: palette(), seen: HashMap::new() }
    }
}

impl Indexer {
    /// The palette index nearest to `c` (squared RGB distance).
    pub fn index(&mut self, c: [u8; 3]) -> u8 {
        let palette = &self.palette;
        *self.seen.entry(c).or_insert_with(|| {
            let d2 = |p: &[u8; 3]| (0..3).map(|k| (p[k] as i32 - c[k] as i32).pow(2)).sum::<i32>();
            (0..TRANSPARENT as usize).min_by_key(|&k| d2(&palette[k])).expect("a palette") as u8
        })
    }

    /// Every pixel of `img` as a palette index, rows from the top.
    pub fn frame(&mut self, img: &Rgb) -> IndexedFrame {
        let pixels = img.pixels.chunks_exact(3).map(|p| self.index([p[0], p[1], p[2]])).collect();
        IndexedFrame { width: img.width, height: img.height, pixels }
    }
}

/// A picture as palette indices.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexedFrame {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

impl IndexedFrame {
    /// The frame on a white canvas of `width` x `height` (at least its
    /// own size), at the top left: frames of one movie whose titles differ
    /// in width get one size.
    pub fn padded(&self, width: usize, height: usize, white: u8) -> IndexedFrame {
        let mut pixels = vec![white; width * height];
        for y in 0..self.height {
            pixels[y * width..y * width + self.width]
                .copy_from_slice(&self.pixels[y * self.width..(y + 1) * self.width]);
        }
        IndexedFrame { width, height, pixels }
    }
}

/// Why a movie could not be encoded.
#[derive(Debug, thiserror::Error)]
pub enum GifError {
    #[error("a movie needs at least one frame")]
    NoFrames,
    #[error(
        "frame {index} is {width}x{height} pixels, the movie {movie_width}x{movie_height}: frames have one size"
    )]
    Size { index: usize, width: usize, height: usize, movie_width: usize, movie_height: usize },
    #[error("a GIF is at most 65535 pixels wide and high, not {width}x{height}")]
    TooLarge { width: usize, height: usize },
}

/// The palette index of white.
pub fn white_index() -> u8 {
    Indexer::default().index([255, 255, 255])
}

/// The smallest rectangle (left, top, width, height) holding every pixel
/// where `next` differs from `previous`, or `None` when none does.
fn changed_box(previous: &IndexedFrame, next: &IndexedFrame) -> Option<(usize, usize, usize, usize)> {
    let w = next.width;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (i, (a, b)) in previous.pixels.iter().zip(&next.pixels).enumerate() {
        if a != b {
            let (x, y) = (i % w, i / w);
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    (x0 != usize::MAX).then_some((x0, y0, x1.wrapping_sub(x0) + 1, y1.wrapping_sub(y0) + 1))
}

/// Checks that `frames` are one non-empty size a GIF can hold.
pub fn check_frames(frames: &[IndexedFrame]) -> Result<(usize, usize), GifError> {
    let first = frames.first().ok_or(GifError::NoFrames)?;
    let (w, h) = (first.width, first.height);
    if w > u16::MAX as usize || h > u16::MAX as usize || w == 0 || h == 0 {
        return Err(GifError::TooLarge { width: w, height: h });
    }
    for (index, f) in frames.iter().enumerate() {
        if (f.width, f.height) != (w, h) {
            return Err(GifError::Size {
                index,
                width: f.width,
                height: f.height,
                movie_width: w,
                movie_height: h,
            });
        }
    }
    Ok((w, h))
}

/// Streams the GIF of `frames` (one size, see [`check_frames`]), each shown
/// for `delay_cs` hundredths of a second, looping for ever, into `w`.
pub fn encode_to(w: &mut dyn Write, frames: &[IndexedFrame], delay_cs: u16) -> io::Result<()> {
    let (width, height) = check_frames(frames).map_err(io::Error::other)?;
    let flat: Vec<u8> = palette().concat();
    let gif_error = |e: gif::EncodingError| match e {
        gif::EncodingError::Io(e) => e,
        other => io::Error::other(other),
    };
    let mut encoder = gif::Encoder::new(w, width as u16, height as u16, &flat).map_err(gif_error)?;
    encoder.set_repeat(gif::Repeat::Infinite).map_err(gif_error)?;
    let mut previous: Option<&IndexedFrame> = None;
    for next in frames {
        let (left, top, fw, fh, buffer, transparent) = match previous {
            None => (0, 0, width, height, next.pixels.clone(), None),
            Some(prev) => {
                // An unchanged frame still shows for its time: one pixel.
                let (x0, y0, bw, bh) = changed_box(prev, next).unwrap_or((0, 0, 1, 1));
                let mut buffer = Vec::with_capacity(bw * bh);
                for y in y0..y0 + bh {
                    for x in x0..x0 + bw {
                        let i = y * width + x;
                        buffer.push(if prev.pixels[i] == next.pixels[i] {
                            TRANSPARENT
                        } else {
                            next.pixels[i]
                        });
                    }
                }
                (x0, y0, bw, bh, buffer, Some(TRANSPARENT))
            }
        };
        let frame = gif::Frame {
            delay: delay_cs,
            dispose: gif::DisposalMethod::Keep,
            transparent,
            left: left as u16,
            top: top as u16,
            width: fw as u16,
            height: fh as u16,
            buffer: buffer.into(),
            ..gif::Frame::default()
        };
        encoder.write_frame(&frame).map_err(gif_error)?;
        previous = Some(next);
    }
    encoder.into_inner().map_err(gif_error)?;
    Ok(())
}

/// Writes the GIF of `frames` to `path` atomically (see [`encode_to`]).
pub fn write(path: &Path, frames: &[IndexedFrame], delay_cs: u16) -> io::Result<()> {
    check_frames(frames).map_err(io::Error::other)?;
    write_atomic_with(path, |w| encode_to(w, frames, delay_cs))
}

/// A decoded movie: its size, every frame as full RGB pixels (rows from
/// the top) and each frame's delay in hundredths of a second.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodedMovie {
    pub width: usize,
    pub height: usize,
    pub frames: Vec<Vec<[u8; 3]>>,
    pub delays_cs: Vec<u16>,
}

/// Decodes a GIF as [`encode_to`] writes it (one global palette, frames
/// kept under the next, transparent pixels showing the previous frame),
/// to check a movie's pictures.
pub fn decode(bytes: &[u8]) -> Result<DecodedMovie, gif::DecodingError> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut d = options.read_info(bytes)?;
    let (width, height) = (d.width() as usize, d.height() as usize);
    let palette: Vec<[u8; 3]> =
        d.global_palette().unwrap_or_default().chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    let mut canvas = vec![[255u8; 3]; width * height];
    let (mut frames, mut delays_cs) = (Vec::new(), Vec::new());
    while let Some(f) = d.read_next_frame()? {
        for y in 0..f.height as usize {
            for x in 0..f.width as usize {
                let k = f.buffer[y * f.width as usize + x];
                let (cx, cy) = (x + f.left as usize, y + f.top as usize);
                if Some(k) != f.transparent && cx < width && cy < height {
                    canvas[cy * width + cx] = palette.get(k as usize).copied().unwrap_or([0, 0, 0]);
                }
            }
        }
        frames.push(canvas.clone());
        delays_cs.push(f.delay);
    }
    Ok(DecodedMovie { width, height, frames, delays_cs })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_holds_the_picture_colours_exactly_where_it_can() {
        let p = palette();
        assert_eq!(p.len(), 256);
        let mut ix = Indexer::default();
        for c in [[255, 255, 255], [0, 0, 0], NAN_RGB, viridis(0.0), viridis(1.0)] {
            assert_eq!(p[ix.index(c) as usize], c, "{c:?}");
        }
        assert_ne!(ix.index([255, 0, 255]), TRANSPARENT, "the transparent index is never chosen");
        // Between its entries, viridis is within a channel step or two.
        for k in 0..=1000 {
            let c = viridis(k as f64 / 1000.0);
            let q = p[ix.index(c) as usize];
            let d = (0..3).map(|i| c[i].abs_diff(q[i])).max().unwrap();
            assert!(d <= 3, "viridis({k}/1000) = {c:?} became {q:?}");
        }
    }

    #[test]
    fn frames_round_trip_through_changed_rectangles_and_transparency() {
        let mut ix = Indexer::default();
        let (w, h) = (23, 17);
        let frames: Vec<IndexedFrame> = (0..4)
            .map(|t| {
                let mut img = Rgb::new(w, h);
                for y in 0..h {
                    for x in 0..w {
                        // A front moving right; the left part at rest.
                        let s = if x < 3 + 4 * t { 1.0 } else { 0.0 };
                        img.put(x, y, if y == 0 { [0, 0, 0] } else { viridis(s * (y as f64 / h as f64)) });
                    }
                }
                ix.frame(&img)
            })
            .collect();
        let mut same = frames.clone();
        same.push(frames[3].clone()); // an unchanged frame
        let mut bytes = Vec::new();
        encode_to(&mut bytes, &same, 7).unwrap();
        let movie = decode(&bytes).unwrap();
        let decoded = &movie.frames;
        assert_eq!((movie.width, movie.height, decoded.len()), (w, h, 5));
        assert_eq!(movie.delays_cs, [7; 5]);
        let p = palette();
        for (k, f) in same.iter().enumerate() {
            let want: Vec<[u8; 3]> = f.pixels.iter().map(|&i| p[i as usize]).collect();
            assert_eq!(decoded[k], want, "frame {k}");
        }
    }

    #[test]
    fn frames_of_another_size_are_refused_and_padding_makes_one_size() {
        let a = IndexedFrame { width: 2, height: 2, pixels: vec![1, 2, 3, 4] };
        let b = IndexedFrame { width: 3, height: 2, pixels: vec![0; 6] };
        let e = check_frames(&[a.clone(), b]).unwrap_err().to_string();
        assert!(e.contains("frame 1 is 3x2") && e.contains("2x2"), "{e}");
        assert!(matches!(check_frames(&[]), Err(GifError::NoFrames)));
        assert_eq!(a.padded(3, 3, 9).pixels, [1, 2, 9, 3, 4, 9, 9, 9, 9]);
    }
}

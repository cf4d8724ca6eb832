//! NumPy `.npy` files (format version 1.0), little-endian, C order.
//!
//! A field of shape `(nz, ny, nx)` loads in Python as `np.load(path)` with
//! `a[z, y, x]` the cell (x, y, z).

use std::io;
use std::path::Path;

use ndarray::Array3;

use crate::io::atomic::{write_atomic, write_atomic_with};
use crate::scalar::Scalar;

const MAGIC: &[u8] = b"\x93NUMPY";

/// The bytes of a `.npy` file holding `array`.
pub fn encode<T: Scalar>(array: &Array3<T>) -> Vec<u8> {
    let (d0, d1, d2) = array.dim();
    match array.as_slice() {
        Some(values) => encode_shaped(&[d0, d1, d2], values),
        None => encode_shaped(&[d0, d1, d2], &array.iter().copied().collect::<Vec<_>>()),
    }
}

/// The bytes of a `.npy` file of any shape holding `values` in C order
/// (per-beat maps are (beats, nz, ny, nx)).
pub fn encode_shaped<T: Scalar>(shape: &[usize], values: &[T]) -> Vec<u8> {
    assert_eq!(shape.iter().product::<usize>(), values.len(), "the shape holds the values");
    let mut out = header(shape, T::NUMPY_DTYPE);
    out.reserve(values.len() * T::BYTES);
    T::extend_le_bytes(values, &mut out);
    out
}

/// The header of a `.npy` file (magic, version, length, dict, padding).
fn header(shape: &[usize], dtype: &str) -> Vec<u8> {
    let dims: String = shape.iter().map(|n| format!("{n}, ")).collect();
    let dims = if shape.len() == 1 { dims } else { dims.trim_end_matches(", ").to_string() };
    let dict = format!("{{'descr': '{dtype}', 'fortran_order': False, 'shape': ({dims}), }}");
    // Header (magic, version, length, dict, padding, newline) is a multiple of 64 bytes.
    let unpadded = MAGIC.len() + 2 + 2 + dict.len() + 1;
    let padding = (64 - unpadded % 64) % 64;
    let header_len = dict.len() + padding + 1;
    let mut out = Vec::with_capacity(unpadded + padding);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header_len as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend(std::iter::repeat_n(b' ', padding));
    out.push(b'\n');
    out
}

/// Streams the `.npy` file of `values` (C order, `shape`) into `w`, a
/// block of values at a time: the bytes [`encode_shaped`] makes, without
/// a buffer of the whole file.
pub fn write_shaped_to<T: Scalar>(
    w: &mut dyn std::io::Write,
    shape: &[usize],
    values: &[T],
) -> io::Result<()> {
    assert_eq!(shape.iter().product::<usize>(), values.len(), "the shape holds the values");
    w.write_all(&header(shape, T::NUMPY_DTYPE))?;
    let mut block = Vec::with_capacity(64 * 1024 * T::BYTES);
    for chunk in values.chunks(64 * 1024) {
        block.clear();
        T::extend_le_bytes(chunk, &mut block);
        w.write_all(&block)?;
    }
    Ok(())
}

/// Writes `array` to `path` atomically.
pub fn write<T: Scalar>(path: &Path, array: &Array3<T>) -> io::Result<()> {
    let (d0, d1, d2) = array.dim();
    match array.as_slice() {
        Some(values) => write_atomic_with(path, |w| write_shaped_to(w, &[d0, d1, d2], values)),
        None => write_atomic(path, &encode(array)),
    }
}

/// A parsed `.npy` file of little-endian floats.
#[derive(Debug, Clone, PartialEq)]
pub struct NpyArray {
    pub descr: String,
    pub shape: Vec<usize>,
    /// Values widened to f64, C order.
    pub values: Vec<f64>,
}

/// Reads a `.npy` file of `<f4` or `<f8` (what [`write`] produces), or of
/// `|u1`/`|b1` (masks), in C order.
pub fn read(path: &Path) -> io::Result<NpyArray> {
    decode(&std::fs::read(path)?)
}

fn bad(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

/// Parses the bytes of a `.npy` file (see [`read`]).
pub fn decode(bytes: &[u8]) -> io::Result<NpyArray> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC || bytes[6] != 1 {
        return Err(bad("not a version 1.0 .npy file"));
    }
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(bytes.get(10..10 + header_len).ok_or_else(|| bad("truncated header"))?)
        .map_err(|_| bad("header is not UTF-8"))?;
    let field = |key: &str| -> io::Result<&str> {
        let start =
            header.find(&format!("'{key}': ")).ok_or_else(|| bad(format!("no {key}")))? + key.len() + 4;
        Ok(&header[start..])
    };
    let descr =
        field("descr")?.strip_prefix('\'').and_then(|d| d.split('\'').next()).unwrap_or("").to_string();
    if !field("fortran_order")?.starts_with("False") {
        return Err(bad("Fortran order is not supported"));
    }
    let shape_text = field("shape")?.strip_prefix('(').ok_or_else(|| bad("bad shape"))?;
    let shape_text = &shape_text[..shape_text.find(')').ok_or_else(|| bad("bad shape"))?];
    let shape: Vec<usize> = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| bad("bad shape")))
        .collect::<io::Result<_>>()?;
    let data = &bytes[10 + header_len..];
    let size: usize = match descr.as_str() {
        "|u1" | "|b1" => 1,
        "<f4" => 4,
        "<f8" => 8,
        other => {
            return Err(bad(format!(
                "unsupported dtype {other} (fibril reads uint8, bool, float32, float64)"
            )));
        }
    };
    // The shape decides the size only once it is known to fit the data:
    // a header may claim any shape.
    let needed = shape.iter().try_fold(size, |c, &n| c.checked_mul(n));
    match needed {
        Some(n) if n == data.len() => {}
        Some(n) => {
            return Err(bad(format!("data has {} bytes, shape {shape:?} of {descr} needs {n}", data.len())));
        }
        None => return Err(bad(format!("shape {shape:?} is larger than memory can hold"))),
    }
    let values: Vec<f64> = match size {
        1 => data.iter().map(|&b| b as f64).collect(),
        4 => {
            data.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64).collect()
        }
        _ => data.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect(),
    };
    Ok(NpyArray { descr, shape, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_f32_and_f64() {
        let a = Array3::from_shape_fn((2, 3, 5), |(z, y, x)| (100 * z + 10 * y + x) as f32 + 0.25);
        let bytes = encode(&a);
        // Streamed in blocks (more values than one block), the same bytes.
        let big: Vec<f32> = (0..200_003).map(|i| i as f32 * 0.5).collect();
        let mut streamed = Vec::new();
        write_shaped_to(&mut streamed, &[200_003], &big).unwrap();
        assert_eq!(streamed, encode_shaped(&[200_003], &big));
        assert_eq!((bytes.len() - 2 * 3 * 5 * 4) % 64, 0, "header padded to 64 bytes");
        let back = decode(&bytes).unwrap();
        assert_eq!(back.descr, "<f4");
        assert_eq!(back.shape, vec![2, 3, 5]);
        assert_eq!(back.values[15 + 2 * 5 + 4], 124.25);

        let b = a.mapv(|x| x as f64 / 3.0);
        let back = decode(&encode(&b)).unwrap();
        assert_eq!(back.descr, "<f8");
        assert_eq!(back.values, b.iter().copied().collect::<Vec<_>>());
    }

    #[test]
    fn rejects_truncated_data() {
        let a = Array3::<f32>::zeros((2, 2, 2));
        let bytes = encode(&a);
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
    }
}

//! NumPy `.npy` files (format version 1.0), little-endian, C order.
//!
//! A field of shape `(nz, ny, nx)` loads in Python as `np.load(path)` with
//! `a[z, y, x]` the cell (x, y, z).

use std::io;
use std::path::Path;

use ndarray::Array3;

use crate::io::atomic::{write_atomic, write_atomic_with};
use crate::io::bounded::{self, Input, MAX_FIELD_BYTES};
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

/// The bytes of a `.npy` file of uint8 `values` (a mask or a label
/// field), C order, `shape`.
pub fn encode_u8(shape: &[usize], values: &[u8]) -> Vec<u8> {
    assert_eq!(shape.iter().product::<usize>(), values.len(), "the shape holds the values");
    let mut out = header(shape, "|u1");
    out.extend_from_slice(values);
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

/// What a `.npy` header says: the dtype, the shape, and where the data
/// starts and how long it is.
#[derive(Debug, Clone, PartialEq)]
pub struct NpyHeader {
    pub descr: String,
    pub shape: Vec<usize>,
    /// Bytes before the data (magic, version, length, dict, padding).
    pub data_at: usize,
    /// Bytes of data the shape and dtype need.
    pub data_len: usize,
    /// Bytes per value of the dtype.
    value_bytes: usize,
}

/// Bytes of the magic, version and header length that open every file.
const PRELUDE: usize = 10;

/// Reads a `.npy` file of `<f4` or `<f8` (what [`write()`] produces), or of
/// `|u1`/`|b1` (masks), in C order. The header is read and checked first
/// and the data only when the file's length is what the header's shape
/// needs (and at most [`MAX_FIELD_BYTES`]), so that a file of another
/// kind, or a device, is refused before its body is read.
pub fn read(path: &Path) -> io::Result<NpyArray> {
    let (input, mut bytes, header) = open_header(path)?;
    let total = (header.data_at as u64).saturating_add(header.data_len as u64);
    input.read_rest(
        &mut bytes,
        total,
        &format!("a .npy file of shape {:?} ({})", header.shape, header.descr),
    )?;
    decode(&bytes)
}

/// Reads and checks the header of a `.npy` file, leaving its data unread
/// (to check the dtype and shape of an input before its body is read).
pub fn read_header(path: &Path) -> io::Result<NpyHeader> {
    Ok(open_header(path)?.2)
}

/// The file opened, its header's bytes and the header, whose data length
/// is checked against the file's length where the file system knows it.
fn open_header(path: &Path) -> io::Result<(Input, Vec<u8>, NpyHeader)> {
    let mut input = bounded::open(path)?;
    let mut bytes = Vec::new();
    input.read_prefix(&mut bytes, PRELUDE)?;
    let header_len = prelude(&bytes)?;
    input.read_prefix(&mut bytes, header_len)?;
    let header = parse_header(&bytes)?;
    if header.data_len as u64 > MAX_FIELD_BYTES {
        return Err(bad(format!(
            "shape {:?} of {} needs {} bytes of data, more than the {MAX_FIELD_BYTES} a field file may hold",
            header.shape, header.descr, header.data_len
        )));
    }
    if let Some(len) = input.known_len()
        && len != (header.data_at + header.data_len) as u64
    {
        return Err(bad(format!(
            "data has {} bytes, shape {:?} of {} needs {}",
            len.saturating_sub(header.data_at as u64),
            header.shape,
            header.descr,
            header.data_len
        )));
    }
    Ok((input, bytes, header))
}

fn bad(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

/// Checks the magic and version of the first bytes of a file; returns the
/// length of the header dict that follows them.
fn prelude(bytes: &[u8]) -> io::Result<usize> {
    if bytes.len() < PRELUDE || &bytes[..6] != MAGIC || bytes[6] != 1 {
        return Err(bad("not a version 1.0 .npy file"));
    }
    Ok(u16::from_le_bytes([bytes[8], bytes[9]]) as usize)
}

/// Parses the header at the start of `bytes` (see [`read`]).
fn parse_header(bytes: &[u8]) -> io::Result<NpyHeader> {
    let header_len = prelude(bytes)?;
    let header =
        std::str::from_utf8(bytes.get(PRELUDE..PRELUDE + header_len).ok_or_else(|| bad("truncated header"))?)
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
    let data_len = shape
        .iter()
        .try_fold(size, |c, &n| c.checked_mul(n))
        .ok_or_else(|| bad(format!("shape {shape:?} is larger than memory can hold")))?;
    Ok(NpyHeader { descr, shape, data_at: PRELUDE + header_len, data_len, value_bytes: size })
}

/// Parses the bytes of a `.npy` file (see [`read`]).
pub fn decode(bytes: &[u8]) -> io::Result<NpyArray> {
    let header = parse_header(bytes)?;
    let data = &bytes[header.data_at..];
    if data.len() != header.data_len {
        return Err(bad(format!(
            "data has {} bytes, shape {:?} of {} needs {}",
            data.len(),
            header.shape,
            header.descr,
            header.data_len
        )));
    }
    let values: Vec<f64> = match header.value_bytes {
        1 => data.iter().map(|&b| b as f64).collect(),
        4 => {
            data.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64).collect()
        }
        _ => data.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect(),
    };
    Ok(NpyArray { descr: header.descr, shape: header.shape, values })
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
    fn a_file_of_another_kind_is_refused_by_its_first_bytes_never_read_whole() {
        // /dev/zero never ends: read whole it would take all the memory.
        if Path::new("/dev/zero").exists() {
            let e = read(Path::new("/dev/zero")).unwrap_err();
            assert!(e.to_string().contains("not a version 1.0 .npy file"), "{e}");
        }
        let dir = std::env::temp_dir().join(format!("fibril-npy-bounds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A header that claims more data than any field file holds is
        // refused before its data is looked for.
        let huge = dir.join("huge.npy");
        std::fs::write(&huge, header(&[1 << 20, 1 << 20, 1 << 20], "|u1")).unwrap();
        let e = read(&huge).unwrap_err().to_string();
        assert!(e.contains("more than the") && e.contains("a field file may hold"), "{e}");
        // A file longer than its header says (sparse: the length costs
        // nothing) is refused by its length, before its data is read.
        let long = dir.join("long.npy");
        let bytes = encode_shaped(&[2usize, 2, 2], &[0.5f32; 8]);
        let len = bytes.len() as u64;
        std::fs::write(&long, &bytes).unwrap();
        std::fs::OpenOptions::new().write(true).open(&long).unwrap().set_len(len + (1 << 30)).unwrap();
        let e = read(&long).unwrap_err().to_string();
        assert!(e.contains(&format!("data has {} bytes", 32 + (1 << 30))), "{e}");
        assert_eq!(read_header(&long).unwrap_err().to_string(), e, "the header alone says so");
        // What the header says is readable without the data.
        let ok = dir.join("ok.npy");
        std::fs::write(&ok, encode_shaped(&[2usize, 4], &[1.0f64; 8])).unwrap();
        let h = read_header(&ok).unwrap();
        assert_eq!((h.descr.as_str(), h.shape.as_slice(), h.data_len), ("<f8", &[2, 4][..], 64));
        assert_eq!(read(&ok).unwrap().values, [1.0; 8]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rejects_truncated_data() {
        let a = Array3::<f32>::zeros((2, 2, 2));
        let bytes = encode(&a);
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
    }
}

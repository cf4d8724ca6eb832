//! VTK XML ImageData (`.vti`) with raw appended data, and the `.pvd`
//! collection that makes a time series of them, for ParaView.
//!
//! Layout (VTK file formats, "XML File Formats", ImageData and appended
//! data): point data, x fastest, then y, then z, which is exactly fibril's
//! row-major order, so the arrays are written as they are. Each appended
//! block is a UInt64 byte count followed by the little-endian values;
//! `offset` counts from the byte after the `_` that opens the data.
//! The point at index (i, j, k) sits at (i dx, j dx, k dx).

use std::io;
use std::path::Path;

use crate::io::atomic::write_atomic;
use crate::io::vtk_xml::{attr, bad};
use crate::scalar::Scalar;

/// Appends little-endian bytes to a buffer.
type AppendBytes<'a> = Box<dyn Fn(&mut Vec<u8>) + 'a>;

/// One named point-data array of an image.
pub struct VtiArray<'a> {
    pub name: &'a str,
    /// "Float32" or "Float64".
    pub(crate) vtk_type: &'static str,
    pub(crate) values: usize,
    pub(crate) bytes: usize,
    /// Appends the values' little-endian bytes (written straight into the
    /// file's buffer, without an intermediate copy of the field).
    pub(crate) append: AppendBytes<'a>,
}

impl<'a> VtiArray<'a> {
    /// `values` in their own precision.
    pub fn new<T: Scalar>(name: &'a str, values: &'a [T]) -> Self {
        Self {
            name,
            vtk_type: if T::BYTES == 4 { "Float32" } else { "Float64" },
            values: values.len(),
            bytes: values.len() * T::BYTES,
            append: Box::new(move |out| T::extend_le_bytes(values, out)),
        }
    }
}

/// The bytes of a `.vti` file: an (nx, ny, nz) image with spacing `dx`,
/// the given point arrays (each nx*ny*nz values) and `t_ms` as the
/// ParaView `TimeValue` field.
pub fn encode(dims: [u32; 3], dx: f64, t_ms: f64, arrays: &[VtiArray<'_>]) -> Vec<u8> {
    let [nx, ny, nz] = dims;
    let cells = nx as usize * ny as usize * nz as usize;
    let extent = format!("0 {} 0 {} 0 {}", nx - 1, ny - 1, nz - 1);
    let mut xml = String::new();
    xml.push_str("<?xml version=\"1.0\"?>\n");
    xml.push_str(
        "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n",
    );
    xml.push_str(&format!(
        "  <ImageData WholeExtent=\"{extent}\" Origin=\"0 0 0\" Spacing=\"{dx} {dx} {dx}\">\n"
    ));
    xml.push_str(&format!(
        "    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">{t_ms}</DataArray>\n    </FieldData>\n"
    ));
    xml.push_str(&format!("    <Piece Extent=\"{extent}\">\n"));
    let scalars = arrays.first().map(|a| a.name).unwrap_or("");
    xml.push_str(&format!("      <PointData Scalars=\"{scalars}\">\n"));
    let mut offset = 0usize;
    for a in arrays {
        assert_eq!(a.values, cells, "array {} matches the grid", a.name);
        xml.push_str(&format!(
            "        <DataArray type=\"{}\" Name=\"{}\" format=\"appended\" offset=\"{offset}\"/>\n",
            a.vtk_type, a.name
        ));
        offset += 8 + a.bytes;
    }
    xml.push_str("      </PointData>\n      <CellData>\n      </CellData>\n    </Piece>\n  </ImageData>\n");
    let mut out = open_appended(xml, offset, arrays);
    out.extend_from_slice(CLOSE_APPENDED);
    out
}

/// The end of a file's raw appended data and of the file.
pub(crate) const CLOSE_APPENDED: &[u8] = b"\n  </AppendedData>\n</VTKFile>\n";

/// The header `xml` followed by the opening of the raw appended data and
/// the blocks of `arrays` (each its UInt64 byte count and its values);
/// `bytes` (the blocks' total) sizes the buffer.
pub(crate) fn open_appended(mut xml: String, bytes: usize, arrays: &[VtiArray<'_>]) -> Vec<u8> {
    xml.push_str("  <AppendedData encoding=\"raw\">\n   _");
    let mut out = xml.into_bytes();
    out.reserve(bytes + 40);
    for a in arrays {
        out.extend_from_slice(&(a.bytes as u64).to_le_bytes());
        (a.append)(&mut out);
    }
    out
}

/// Writes a `.vti` file atomically (see [`encode`]).
pub fn write(path: &Path, dims: [u32; 3], dx: f64, t_ms: f64, arrays: &[VtiArray<'_>]) -> io::Result<()> {
    write_atomic(path, &encode(dims, dx, t_ms, arrays))
}

/// One entry of a `.pvd` collection.
#[derive(Clone, Debug, PartialEq)]
pub struct PvdEntry {
    pub t_ms: f64,
    /// Path relative to the `.pvd` file.
    pub file: String,
}

/// The bytes of a `.pvd` collection listing `entries` with timestep = t_ms.
pub fn encode_pvd(entries: &[PvdEntry]) -> Vec<u8> {
    let mut xml = String::from(
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n  <Collection>\n",
    );
    for e in entries {
        xml.push_str(&format!(
            "    <DataSet timestep=\"{}\" group=\"\" part=\"0\" file=\"{}\"/>\n",
            e.t_ms, e.file
        ));
    }
    xml.push_str("  </Collection>\n</VTKFile>\n");
    xml.into_bytes()
}

/// A parsed `.vti` file (what [`encode`] writes).
#[derive(Clone, Debug, PartialEq)]
pub struct VtiImage {
    pub dims: [u32; 3],
    pub spacing: [f64; 3],
    pub origin: [f64; 3],
    pub time_ms: Option<f64>,
    /// (name, VTK type, values widened to f64).
    pub arrays: Vec<(String, String, Vec<f64>)>,
}

impl VtiImage {
    pub fn array(&self, name: &str) -> Option<&[f64]> {
        self.arrays.iter().find(|a| a.0 == name).map(|a| a.2.as_slice())
    }
}

fn numbers<const N: usize>(text: &str) -> io::Result<[f64; N]> {
    let v: Vec<f64> = text
        .split_whitespace()
        .map(|s| s.parse().map_err(|_| bad(format!("bad number {s:?}"))))
        .collect::<io::Result<_>>()?;
    v.try_into().map_err(|_| bad(format!("expected {N} numbers in {text:?}")))
}

/// Reads a `.vti` file with raw appended data and UInt64 headers.
pub fn read(path: &Path) -> io::Result<VtiImage> {
    decode(&std::fs::read(path)?)
}

/// Parses the bytes of a `.vti` file (see [`read`]).
pub fn decode(bytes: &[u8]) -> io::Result<VtiImage> {
    let marker = b"<AppendedData encoding=\"raw\">";
    let at =
        bytes.windows(marker.len()).position(|w| w == marker).ok_or_else(|| bad("no raw AppendedData"))?;
    let head = std::str::from_utf8(&bytes[..at]).map_err(|_| bad("XML head is not UTF-8"))?;
    let underscore =
        bytes[at..].iter().position(|&b| b == b'_').ok_or_else(|| bad("no '_' opening the appended data"))?;
    let data = &bytes[at + underscore + 1..];
    if attr(head, "header_type") != Some("UInt64") || attr(head, "byte_order") != Some("LittleEndian") {
        return Err(bad("expected header_type UInt64 and LittleEndian"));
    }
    let image_tag = &head[head.find("<ImageData").ok_or_else(|| bad("no ImageData"))?..];
    let extent: [f64; 6] = numbers(attr(image_tag, "WholeExtent").ok_or_else(|| bad("no WholeExtent"))?)?;
    let mut dims = [0u32; 3];
    for (axis, n) in dims.iter_mut().enumerate() {
        let (lo, hi) = (extent[2 * axis], extent[2 * axis + 1]);
        let points = hi - lo + 1.0;
        if !(points >= 1.0 && points <= u32::MAX as f64 && points.fract() == 0.0) {
            return Err(bad(format!("WholeExtent {lo} {hi} is not a range of points")));
        }
        *n = points as u32;
    }
    let spacing = numbers(attr(image_tag, "Spacing").ok_or_else(|| bad("no Spacing"))?)?;
    let origin = numbers(attr(image_tag, "Origin").ok_or_else(|| bad("no Origin"))?)?;
    let time_ms = head.find("Name=\"TimeValue\"").and_then(|i| {
        let rest = &head[i..];
        let open = rest.find('>')? + 1;
        let close = open + rest[open..].find("</DataArray>")?;
        rest[open..close].trim().parse().ok()
    });
    let cells = dims.iter().try_fold(1usize, |c, &n| c.checked_mul(n as usize)).ok_or_else(|| {
        bad(format!("a {}x{}x{} image has more points than memory can hold", dims[0], dims[1], dims[2]))
    })?;
    let mut arrays = Vec::new();
    for piece in head.split("<DataArray").skip(1) {
        if attr(piece, "format") != Some("appended") {
            continue;
        }
        let name = attr(piece, "Name").ok_or_else(|| bad("DataArray without Name"))?;
        let ty = attr(piece, "type").ok_or_else(|| bad("DataArray without type"))?;
        let offset: usize = attr(piece, "offset")
            .and_then(|o| o.parse().ok())
            .ok_or_else(|| bad("DataArray without offset"))?;
        let past_end = || bad(format!("{name}: offset past the end"));
        let start = offset.checked_add(8).ok_or_else(past_end)?;
        let len_bytes = data.get(offset..start).ok_or_else(past_end)?;
        let n = u64::from_le_bytes(len_bytes.try_into().expect("8 bytes"));
        let block = usize::try_from(n)
            .ok()
            .and_then(|n| data.get(start..start.checked_add(n)?))
            .ok_or_else(|| bad(format!("{name}: data truncated")))?;
        let size = match ty {
            "Float32" => 4,
            "Float64" => 8,
            other => return Err(bad(format!("{name}: unsupported type {other}"))),
        };
        if block.len() != cells.saturating_mul(size) {
            return Err(bad(format!("{name}: {} bytes of {ty} for {cells} points", block.len())));
        }
        let values: Vec<f64> = match ty {
            "Float32" => {
                block.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64).collect()
            }
            "Float64" => block.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect(),
            _ => unreachable!("sized above"),
        };
        arrays.push((name.to_string(), ty.to_string(), values));
    }
    Ok(VtiImage { dims, spacing, origin, time_ms, arrays })
}

/// Reads the (timestep, file) entries of a `.pvd` collection.
pub fn read_pvd(path: &Path) -> io::Result<Vec<PvdEntry>> {
    let text = std::fs::read_to_string(path)?;
    text.split("<DataSet")
        .skip(1)
        .map(|tag| {
            Ok(PvdEntry {
                t_ms: attr(tag, "timestep")
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| bad("DataSet without timestep"))?,
                file: attr(tag, "file").ok_or_else(|| bad("DataSet without file"))?.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_two_arrays_of_each_precision() {
        let dims = [3, 2, 4];
        let u: Vec<f32> = (0..24).map(|i| i as f32 * 0.5).collect();
        let v: Vec<f64> = (0..24).map(|i| 1.0 / (i as f64 + 1.0)).collect();
        let bytes = encode(dims, 0.6, 12.5, &[VtiArray::new("U", &u), VtiArray::new("v", &v)]);
        let img = decode(&bytes).unwrap();
        assert_eq!(img.dims, dims);
        assert_eq!(img.spacing, [0.6; 3]);
        assert_eq!(img.origin, [0.0; 3]);
        assert_eq!(img.time_ms, Some(12.5));
        assert_eq!(img.arrays[0].1, "Float32");
        assert_eq!(img.arrays[1].1, "Float64");
        assert_eq!(img.array("U").unwrap()[23], 11.5);
        assert_eq!(img.array("v").unwrap(), v.as_slice());
        // A truncated file is refused.
        let cut = &bytes[..bytes.len() - 60];
        assert!(decode(cut).is_err());
    }

    #[test]
    fn pvd_lists_times_and_files() {
        let entries = vec![
            PvdEntry { t_ms: 0.0, file: "fields_000000.vti".into() },
            PvdEntry { t_ms: 2.5, file: "fields_000001.vti".into() },
        ];
        let dir = std::env::temp_dir().join(format!("fibril-pvd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fields.pvd");
        std::fs::write(&path, encode_pvd(&entries)).unwrap();
        assert_eq!(read_pvd(&path).unwrap(), entries);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Reading VTK XML ImageData (`.vti`) as VTK and ParaView write it, for
//! geometries and fibre fields: every data mode of `vtkXMLImageDataWriter`
//! (ascii; binary, inline base64; appended, raw or base64), UInt32 or
//! UInt64 block headers, uncompressed or zlib-compressed
//! (`vtkZLibDataCompressor`), scalar and vector arrays of any integer or
//! float type, point data or cell data.
//!
//! The arrays' encodings are those of [`crate::io::vtk_xml`].

use std::io;
use std::path::Path;

use crate::io::bounded::{self, MAX_FIELD_BYTES};
use crate::io::vtk_xml::{Framing, XmlArray, arrays, attr, bad, numbers, type_bytes};

/// One array of a `.vti` file, widened to f64.
#[derive(Clone, Debug, PartialEq)]
pub struct VtiField {
    pub name: String,
    /// VTK's type name (`UInt8`, `Float32`, ...).
    pub vtk_type: String,
    pub components: usize,
    /// Point data (one value per point) or cell data (per cell of the image).
    pub cell_data: bool,
    /// `components` values per tuple, x fastest, then y, then z.
    pub values: Vec<f64>,
}

/// A `.vti` file's image and arrays.
#[derive(Clone, Debug, PartialEq)]
pub struct VtiFile {
    /// Points along x, y, z (the WholeExtent).
    pub points: [u32; 3],
    pub spacing: [f64; 3],
    pub origin: [f64; 3],
    pub fields: Vec<VtiField>,
}

impl VtiFile {
    /// Tuples along x, y, z of `field`: points, or the cells between them.
    pub fn shape_of(&self, field: &VtiField) -> [u32; 3] {
        if field.cell_data { self.points.map(|n| n.saturating_sub(1).max(1)) } else { self.points }
    }

    pub fn field(&self, name: &str) -> Option<&VtiField> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// Bytes read first: the XML declaration, `<VTKFile>` and `<ImageData>`
/// come before any array, within a few hundred bytes in every writer's output.
const PROLOGUE: usize = 64 << 10;

/// Bytes a point of the image may take in a file: up to 64 values (a
/// mask, fibres with sheets, and whatever other arrays the file carries)
/// as ASCII text of up to 32 characters each, the longest of the encodings.
const BYTES_PER_POINT: u64 = 64 * 32;

/// Reads a `.vti` file: its first bytes are checked to be VTK XML
/// ImageData before the rest is read, and the rest only up to what its
/// extent makes plausible (`BYTES_PER_POINT`, at most
/// [`MAX_FIELD_BYTES`]), so that a file of another kind, or a device, is
/// refused before its body is read.
pub fn read(path: &Path) -> io::Result<VtiFile> {
    let mut input = bounded::open(path)?;
    let mut bytes = Vec::new();
    input.read_prefix(&mut bytes, PROLOGUE)?;
    let head = String::from_utf8_lossy(&bytes);
    let Some(file_at) = head.find("<VTKFile") else {
        return Err(bad("not a VTK XML file (no <VTKFile> at its start)"));
    };
    let file_tag = &head[file_at..];
    let file_tag = &file_tag[..file_tag.find('>').unwrap_or(file_tag.len())];
    if attr(file_tag, "type").is_some_and(|t| t != "ImageData") {
        return Err(bad(format!("a {} file, not ImageData (.vti)", attr(file_tag, "type").unwrap_or("?"))));
    }
    // The extent, where the first bytes hold it, bounds the file.
    let points = head.find("<ImageData").and_then(|at| {
        let tag = &head[at..];
        let extent = numbers(attr(&tag[..tag.find('>')?], "WholeExtent")?).ok()?;
        if extent.len() != 6 {
            return None;
        }
        (0..3).try_fold(1u64, |n, a| {
            let count = extent[2 * a + 1] - extent[2 * a] + 1.0;
            (1.0..=1e12).contains(&count).then(|| n.saturating_mul(count as u64))
        })
    });
    let limit = points.map_or(MAX_FIELD_BYTES, |n| {
        n.saturating_mul(BYTES_PER_POINT).saturating_add(PROLOGUE as u64).min(MAX_FIELD_BYTES)
    });
    let what = match points {
        Some(n) => format!("a .vti image of {n} points"),
        None => "a .vti file".to_string(),
    };
    input.read_rest(&mut bytes, limit, &what)?;
    decode(&bytes)
}

/// Parses the bytes of a `.vti` file (see [`read`]).
pub fn decode(bytes: &[u8]) -> io::Result<VtiFile> {
    let (head, file_tag) = crate::io::vtk_xml::head(bytes, "ImageData", ".vti")?;
    let framing = Framing::of(file_tag)?;
    let image = &head[head.find("<ImageData").ok_or_else(|| bad("no <ImageData>"))?..];
    let image = &image[..image.find('>').unwrap_or(image.len())];
    let extent = numbers(attr(image, "WholeExtent").ok_or_else(|| bad("no WholeExtent"))?)?;
    if extent.len() != 6 {
        return Err(bad("WholeExtent needs 6 numbers"));
    }
    let mut points = [0u32; 3];
    for (a, n) in points.iter_mut().enumerate() {
        let count = extent[2 * a + 1] - extent[2 * a] + 1.0;
        if !(count >= 1.0 && count <= u32::MAX as f64 && count.fract() == 0.0) {
            return Err(bad("WholeExtent is not a range of points"));
        }
        *n = count as u32;
    }
    let three = |name: &str, default: [f64; 3]| -> io::Result<[f64; 3]> {
        match attr(image, name) {
            None => Ok(default),
            Some(text) => numbers(text)?.try_into().map_err(|_| bad(format!("{name} needs 3 numbers"))),
        }
    };
    let spacing = three("Spacing", [1.0; 3])?;
    let origin = three("Origin", [0.0; 3])?;
    if let Some(direction) = attr(image, "Direction")
        && numbers(direction)? != [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    {
        return Err(bad("the image is rotated (Direction is not the identity); resample it onto the axes"));
    }
    // The bytes the image's tuples of an array take, which compressed
    // data may inflate to.
    let max_out = |section: &str, components: usize, ty: &str| {
        let cell_data = section == "CellData";
        let tuples = points
            .map(|n| if cell_data { n.saturating_sub(1).max(1) } else { n })
            .iter()
            .fold(1usize, |c, &n| c.saturating_mul(n as usize));
        tuples.saturating_mul(components).saturating_mul(type_bytes(ty))
    };
    let fields = arrays(bytes, head, framing, &["PointData", "CellData"], max_out)?
        .into_iter()
        .map(|XmlArray { section, name, vtk_type, components, values }| VtiField {
            name,
            vtk_type,
            components,
            cell_data: section == "CellData",
            values,
        })
        .collect();
    let file = VtiFile { points, spacing, origin, fields };
    for f in &file.fields {
        let [x, y, z] = file.shape_of(f);
        let want = x as usize * y as usize * z as usize * f.components;
        if f.values.len() != want {
            return Err(bad(format!(
                "array {} has {} values, the image needs {want}",
                f.name,
                f.values.len()
            )));
        }
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-point UInt8 image whose one array is `appended` raw.
    fn two_points(appended: &[u8]) -> Vec<u8> {
        let mut bytes = br#"<?xml version="1.0"?>
<VTKFile type="ImageData" version="1.0" byte_order="LittleEndian" header_type="UInt32" compressor="vtkZLibDataCompressor">
<ImageData WholeExtent="0 1 0 0 0 0" Origin="0 0 0" Spacing="1 1 1">
<Piece Extent="0 1 0 0 0 0"><PointData><DataArray type="UInt8" Name="m" format="appended" offset="0"/></PointData></Piece>
</ImageData>
<AppendedData encoding="raw">_"#
            .to_vec();
        bytes.extend_from_slice(appended);
        bytes.extend_from_slice(b"</AppendedData></VTKFile>");
        bytes
    }

    /// zlib framing of one block of `raw` bytes.
    fn zlib_block(raw: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(raw).unwrap();
        let z = z.finish().unwrap();
        let mut out = Vec::new();
        for n in [1, raw.len(), raw.len(), z.len()] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        out.extend_from_slice(&z);
        out
    }

    #[test]
    fn inputs_are_bounded_by_their_first_bytes_and_their_extent() {
        // A device that never ends is refused by its first bytes.
        if Path::new("/dev/zero").exists() {
            let e = read(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(e.contains("not a VTK XML file"), "{e}");
        }
        let dir = std::env::temp_dir().join(format!("fibril-vti-bounds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.vti");
        // The image as it should be reads.
        std::fs::write(&path, two_points(&zlib_block(&[1, 2]))).unwrap();
        assert_eq!(read(&path).unwrap().field("m").unwrap().values, [1.0, 2.0]);
        // Data that inflates far past the two bytes the image needs is
        // refused, not inflated whole.
        std::fs::write(&path, two_points(&zlib_block(&vec![0; 1 << 20]))).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("inflates past the 2 bytes"), "{e}");
        // A file far longer than an image of two points can be is refused
        // by its length (sparse: the length costs nothing).
        std::fs::write(&path, two_points(&zlib_block(&[1, 2]))).unwrap();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(1 << 30).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("more than a .vti image of 2 points can be"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_what_fibrils_own_writer_writes() {
        let u: Vec<f32> = (0..24).map(|i| i as f32 * 0.5).collect();
        let bytes = crate::io::vti::encode([3, 2, 4], 0.6, 1.0, &[crate::io::vti::VtiArray::new("U", &u)]);
        let f = decode(&bytes).unwrap();
        assert_eq!(f.points, [3, 2, 4]);
        assert_eq!(f.spacing, [0.6; 3]);
        assert_eq!(f.field("U").unwrap().values[23], 11.5);
    }
}

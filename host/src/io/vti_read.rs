//! Reading VTK XML ImageData (`.vti`) as VTK and ParaView write it, for
//! geometries and fibre fields: every data mode of `vtkXMLImageDataWriter`
//! (ascii; binary, inline base64; appended, raw or base64), UInt32 or
//! UInt64 block headers, uncompressed or zlib-compressed
//! (`vtkZLibDataCompressor`), scalar and vector arrays of any integer or
//! float type, point data or cell data.
//!
//! Format (VTK User's Guide, "VTK File Formats", XML): a binary array is a
//! header then the data. Uncompressed, the header is one integer, the
//! number of bytes; compressed, it is `[blocks, block size, last block
//! size, compressed size of each block]`, and the data the zlib streams of
//! the blocks one after another. Inline binary arrays are base64; VTK
//! encodes the header and the data of a compressed array as two base64
//! texts, so a `=` may end a group in the middle ([`base64`] decodes such
//! concatenations). Appended arrays start at their `offset` after the `_`
//! that opens the appended data.

use std::io::{self, Read};
use std::path::Path;

use crate::io::bounded::{self, MAX_FIELD_BYTES};
use crate::io::xml_text::{attr, bad};

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

fn numbers(text: &str) -> io::Result<Vec<f64>> {
    text.split_whitespace().map(|s| s.parse().map_err(|_| bad(format!("bad number {s:?}")))).collect()
}

/// Decodes base64 text, ignoring whitespace, where padded groups may be
/// followed by more base64 (VTK's header and data, encoded apart).
pub fn base64(text: &[u8]) -> io::Result<Vec<u8>> {
    fn value(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut group, mut n, mut pad) = (0u32, 0, 0);
    for &c in text.iter().filter(|c| !c.is_ascii_whitespace()) {
        if c == b'=' {
            pad += 1;
            group <<= 6;
            n += 1;
        } else {
            if pad > 0 {
                return Err(bad("base64: data inside a padded group"));
            }
            group = (group << 6)
                | value(c).ok_or_else(|| bad(format!("base64: bad character {:?}", c as char)))?;
            n += 1;
        }
        if n == 4 {
            let bytes = [(group >> 16) as u8, (group >> 8) as u8, group as u8];
            out.extend_from_slice(&bytes[..3 - pad]);
            (group, n, pad) = (0, 0, 0);
        }
    }
    if n != 0 {
        return Err(bad("base64: text ends inside a group"));
    }
    Ok(out)
}

/// How binary blocks are framed.
#[derive(Clone, Copy)]
struct Framing {
    /// 4 (UInt32) or 8 (UInt64) bytes per header integer.
    header: usize,
    zlib: bool,
}

impl Framing {
    fn int(&self, bytes: &[u8], at: usize) -> io::Result<usize> {
        let b = bytes.get(at..at + self.header).ok_or_else(|| bad("binary block header truncated"))?;
        let v = if self.header == 4 {
            u32::from_le_bytes(b.try_into().expect("4 bytes")) as u64
        } else {
            u64::from_le_bytes(b.try_into().expect("8 bytes"))
        };
        usize::try_from(v).map_err(|_| bad("block size beyond memory"))
    }

    /// Length of the header of a block that starts `bytes`.
    fn header_len(&self, bytes: &[u8]) -> io::Result<usize> {
        Ok(if self.zlib { self.header * (3 + self.int(bytes, 0)?) } else { self.header })
    }

    /// The data of the block that starts `bytes` (header included), and
    /// the number of bytes the block takes; compressed data is inflated
    /// to at most `max_out` bytes (what the array needs), so that a small
    /// stream that inflates without end is refused, not held in memory.
    fn data(&self, bytes: &[u8], max_out: usize) -> io::Result<(Vec<u8>, usize)> {
        if !self.zlib {
            let n = self.int(bytes, 0)?;
            let data = bytes.get(self.header..self.header + n).ok_or_else(|| bad("binary data truncated"))?;
            return Ok((data.to_vec(), self.header + n));
        }
        let blocks = self.int(bytes, 0)?;
        let head = self.header_len(bytes)?;
        let mut out = Vec::new();
        let mut at = head;
        for b in 0..blocks {
            let size = self.int(bytes, self.header * (3 + b))?;
            let chunk = bytes.get(at..at + size).ok_or_else(|| bad("compressed data truncated"))?;
            let room = max_out.saturating_sub(out.len()) as u64 + 1;
            flate2::read::ZlibDecoder::new(chunk)
                .take(room)
                .read_to_end(&mut out)
                .map_err(|e| bad(format!("zlib: {e}")))?;
            if out.len() > max_out {
                return Err(bad(format!(
                    "compressed data inflates past the {max_out} bytes the array needs"
                )));
            }
            at += size;
        }
        Ok((out, at))
    }
}

/// Bytes per value of VTK type `ty` (8 for a type fibril does not read,
/// which [`typed`] then refuses).
fn type_bytes(ty: &str) -> usize {
    match ty {
        "UInt8" | "Int8" => 1,
        "UInt16" | "Int16" => 2,
        "UInt32" | "Int32" | "Float32" => 4,
        _ => 8,
    }
}

/// The values of `bytes` of VTK type `ty`, widened to f64.
fn typed(ty: &str, bytes: &[u8]) -> io::Result<Vec<f64>> {
    macro_rules! each {
        ($t:ty) => {{
            const N: usize = std::mem::size_of::<$t>();
            if !bytes.len().is_multiple_of(N) {
                return Err(bad(format!("{} bytes are not a whole number of {ty}", bytes.len())));
            }
            bytes.chunks_exact(N).map(|c| <$t>::from_le_bytes(c.try_into().expect("sized")) as f64).collect()
        }};
    }
    Ok(match ty {
        "UInt8" => each!(u8),
        "Int8" => each!(i8),
        "UInt16" => each!(u16),
        "Int16" => each!(i16),
        "UInt32" => each!(u32),
        "Int32" => each!(i32),
        "UInt64" => each!(u64),
        "Int64" => each!(i64),
        "Float32" => each!(f32),
        "Float64" => each!(f64),
        other => return Err(bad(format!("unsupported array type {other}"))),
    })
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
/// extent makes plausible ([`BYTES_PER_POINT`], at most
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
    let appended_at = bytes.windows(13).position(|w| w == b"<AppendedData");
    let head_end = appended_at.unwrap_or(bytes.len());
    let head = std::str::from_utf8(&bytes[..head_end]).map_err(|_| bad("the XML is not UTF-8"))?;
    let file_tag = &head[head.find("<VTKFile").ok_or_else(|| bad("not a VTK XML file (no <VTKFile>)"))?..];
    let file_tag = &file_tag[..file_tag.find('>').unwrap_or(file_tag.len())];
    if attr(file_tag, "type") != Some("ImageData") {
        return Err(bad(format!("a {} file, not ImageData (.vti)", attr(file_tag, "type").unwrap_or("?"))));
    }
    if attr(file_tag, "byte_order").is_some_and(|o| o != "LittleEndian") {
        return Err(bad("big-endian data; write the file as LittleEndian"));
    }
    let framing = Framing {
        header: match attr(file_tag, "header_type").unwrap_or("UInt32") {
            "UInt32" => 4,
            "UInt64" => 8,
            other => return Err(bad(format!("header_type {other}"))),
        },
        zlib: match attr(file_tag, "compressor") {
            None | Some("") => false,
            Some("vtkZLibDataCompressor") => true,
            Some(other) => {
                return Err(bad(format!(
                    "compressor {other}: fibril reads uncompressed or zlib (vtkZLibDataCompressor)"
                )));
            }
        },
    };
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
    // The appended data: raw bytes or base64 text after the `_`.
    let appended = match appended_at {
        None => None,
        Some(at) => {
            let tag_end =
                at + bytes[at..].iter().position(|&b| b == b'>').ok_or_else(|| bad("bad <AppendedData>"))?;
            let tag = std::str::from_utf8(&bytes[at..tag_end]).map_err(|_| bad("bad <AppendedData>"))?;
            let base64 = match attr(tag, "encoding") {
                Some("raw") => false,
                Some("base64") => true,
                other => return Err(bad(format!("appended encoding {other:?}"))),
            };
            let underscore = tag_end
                + bytes[tag_end..]
                    .iter()
                    .position(|&b| b == b'_')
                    .ok_or_else(|| bad("no '_' opening the appended data"))?;
            Some((base64, &bytes[underscore + 1..]))
        }
    };
    // Offsets of every appended array, to find where a base64 one ends.
    let mut offsets: Vec<usize> =
        head.split("<DataArray").skip(1).filter_map(|t| attr(t, "offset")?.parse().ok()).collect();
    offsets.sort_unstable();
    let mut fields = Vec::new();
    let mut section = "";
    let mut rest = head;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let name_end = rest.find(|c: char| c.is_whitespace() || c == '>' || c == '/').unwrap_or(rest.len());
        let element = &rest[..name_end];
        match element {
            "PointData" | "CellData" | "FieldData" => section = element,
            "/PointData" | "/CellData" | "/FieldData" => section = "",
            "DataArray" if section == "PointData" || section == "CellData" => {
                let tag_end = rest.find('>').ok_or_else(|| bad("unclosed <DataArray>"))?;
                let tag = &rest[..tag_end];
                let name = attr(tag, "Name").unwrap_or("").to_string();
                let ty =
                    attr(tag, "type").ok_or_else(|| bad(format!("array {name} has no type")))?.to_string();
                let components: usize = attr(tag, "NumberOfComponents").map_or(Ok(1), |c| {
                    c.parse().map_err(|_| bad(format!("array {name}: bad NumberOfComponents")))
                })?;
                // The bytes the image's tuples of this array take, which
                // compressed data may inflate to.
                let cell_data = section == "CellData";
                let tuples = points
                    .map(|n| if cell_data { n.saturating_sub(1).max(1) } else { n })
                    .iter()
                    .fold(1usize, |c, &n| c.saturating_mul(n as usize));
                let max_out = tuples.saturating_mul(components).saturating_mul(type_bytes(&ty));
                let body = &rest[tag_end + 1..];
                let text = &body[..body.find('<').unwrap_or(body.len())];
                let values = match attr(tag, "format").unwrap_or("ascii") {
                    "ascii" => numbers(text)?,
                    "binary" => typed(&ty, &framing.data(&base64(text.as_bytes())?, max_out)?.0)?,
                    "appended" => {
                        let (encoded, data) = appended.ok_or_else(|| {
                            bad(format!("array {name} is appended but the file has no AppendedData"))
                        })?;
                        let offset: usize = attr(tag, "offset")
                            .and_then(|o| o.parse().ok())
                            .ok_or_else(|| bad(format!("array {name} has no offset")))?;
                        let block = data
                            .get(offset..)
                            .ok_or_else(|| bad(format!("array {name}: offset past the end")))?;
                        let raw = if encoded {
                            let end = offsets
                                .iter()
                                .find(|&&o| o > offset)
                                .map(|&o| o - offset)
                                .or_else(|| block.iter().position(|&b| b == b'<'))
                                .unwrap_or(block.len());
                            base64(&block[..end])?
                        } else {
                            block.to_vec()
                        };
                        typed(&ty, &framing.data(&raw, max_out)?.0)?
                    }
                    other => return Err(bad(format!("array {name}: unknown format {other}"))),
                };
                fields.push(VtiField { name, vtk_type: ty, components, cell_data, values });
            }
            _ => {}
        }
    }
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

    #[test]
    fn base64_decodes_concatenated_padded_texts() {
        assert_eq!(base64(b"TWFu").unwrap(), b"Man");
        assert_eq!(base64(b"TWE=TQ==").unwrap(), b"MaM");
        assert_eq!(base64(b" TW\nE= ").unwrap(), b"Ma");
        assert!(base64(b"TW=a").is_err());
        assert!(base64(b"TWF").is_err());
    }

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

//! The data arrays of VTK XML files (`.vti`, `.vtu`), which every XML
//! dataset type stores alike: ascii text; binary, inline base64; or
//! appended, raw or base64; with UInt32 or UInt64 block headers,
//! uncompressed or zlib-compressed (`vtkZLibDataCompressor`).
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

pub fn bad(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

/// The value of `name="..."` in a tag's text.
pub fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

pub fn numbers(text: &str) -> io::Result<Vec<f64>> {
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

/// How binary blocks are framed, from the `<VTKFile>` tag.
#[derive(Clone, Copy, Debug)]
pub struct Framing {
    /// 4 (UInt32) or 8 (UInt64) bytes per header integer.
    header: usize,
    zlib: bool,
}

impl Framing {
    /// The framing `file_tag` (the text of `<VTKFile ...>`) declares;
    /// big-endian files and compressors other than zlib are refused.
    pub fn of(file_tag: &str) -> io::Result<Self> {
        if attr(file_tag, "byte_order").is_some_and(|o| o != "LittleEndian") {
            return Err(bad("big-endian data; write the file as LittleEndian"));
        }
        Ok(Self {
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
        })
    }

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
    pub fn data(&self, bytes: &[u8], max_out: usize) -> io::Result<(Vec<u8>, usize)> {
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
pub fn type_bytes(ty: &str) -> usize {
    match ty {
        "UInt8" | "Int8" => 1,
        "UInt16" | "Int16" => 2,
        "UInt32" | "Int32" | "Float32" => 4,
        _ => 8,
    }
}

/// The values of `bytes` of VTK type `ty`, widened to f64.
pub fn typed(ty: &str, bytes: &[u8]) -> io::Result<Vec<f64>> {
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

/// One `<DataArray>` of a VTK XML file, widened to f64.
#[derive(Clone, Debug, PartialEq)]
pub struct XmlArray {
    /// The element that holds it: `PointData`, `CellData`, `Points`, `Cells`.
    pub section: String,
    pub name: String,
    /// VTK's type name (`UInt8`, `Float32`, ...).
    pub vtk_type: String,
    pub components: usize,
    pub values: Vec<f64>,
}

/// The XML of a VTK file (all before `<AppendedData>`), and the tag of
/// its `<VTKFile>` element, which must say `type` is `dataset`.
pub fn head<'a>(bytes: &'a [u8], dataset: &str, ext: &str) -> io::Result<(&'a str, &'a str)> {
    let head_end = bytes.windows(13).position(|w| w == b"<AppendedData").unwrap_or(bytes.len());
    let head = std::str::from_utf8(&bytes[..head_end]).map_err(|_| bad("the XML is not UTF-8"))?;
    let file_tag = &head[head.find("<VTKFile").ok_or_else(|| bad("not a VTK XML file (no <VTKFile>)"))?..];
    let file_tag = &file_tag[..file_tag.find('>').unwrap_or(file_tag.len())];
    if attr(file_tag, "type") != Some(dataset) {
        return Err(bad(format!("a {} file, not {dataset} ({ext})", attr(file_tag, "type").unwrap_or("?"))));
    }
    Ok((head, file_tag))
}

/// Every `<DataArray>` inside the elements named in `sections`, in file
/// order. `max_out(section, components, type)` bounds the bytes an
/// array may inflate to (what the dataset's tuples of it need).
pub fn arrays(
    bytes: &[u8],
    head: &str,
    framing: Framing,
    sections: &[&str],
    max_out: impl Fn(&str, usize, &str) -> usize,
) -> io::Result<Vec<XmlArray>> {
    // The appended data: raw bytes or base64 text after the `_`.
    let appended = match bytes.windows(13).position(|w| w == b"<AppendedData") {
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
    let mut found = Vec::new();
    let mut section = "";
    let mut rest = head;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let name_end = rest.find(|c: char| c.is_whitespace() || c == '>' || c == '/').unwrap_or(rest.len());
        let element = &rest[..name_end];
        if sections.contains(&element) {
            section = element;
        } else if element.strip_prefix('/').is_some_and(|e| e == section) {
            section = "";
        } else if element == "DataArray" && !section.is_empty() {
            let tag_end = rest.find('>').ok_or_else(|| bad("unclosed <DataArray>"))?;
            let tag = &rest[..tag_end];
            let name = attr(tag, "Name").unwrap_or("").to_string();
            let ty = attr(tag, "type").ok_or_else(|| bad(format!("array {name} has no type")))?.to_string();
            let components: usize = attr(tag, "NumberOfComponents").map_or(Ok(1), |c| {
                c.parse().map_err(|_| bad(format!("array {name}: bad NumberOfComponents")))
            })?;
            let max_out = max_out(section, components, &ty);
            let body = if tag.ends_with('/') { "" } else { &rest[tag_end + 1..] };
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
            found.push(XmlArray { section: section.to_string(), name, vtk_type: ty, components, values });
        }
    }
    Ok(found)
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
}

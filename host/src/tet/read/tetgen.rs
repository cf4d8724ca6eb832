//! TetGen meshes (`base.node` and `base.ele`), as TetGen writes them and
//! Chaste reads them.
//!
//! Format (TetGen manual, "File formats": .node and .ele files): `#`
//! starts a comment. A `.node` file starts `points 3 attributes markers`,
//! then `index x y z [attributes] [marker]` per point; an `.ele` file
//! starts `tetrahedra nodes_per_tet region_attribute`, then `index n1 n2
//! n3 n4 [attribute]` per tetrahedron. Numbering starts at 0 or 1, as the
//! first point's index says; the element's region attribute is the region.

use std::path::{Path, PathBuf};

use crate::tet::error::MeshError;
use crate::tet::mesh::{TetMesh, Vec3};
use crate::tet::read::text::{self, Line, Lines, file_err, leading_count, read_bounded};
use crate::tet::units::Units;

const NODE_LINE: u64 = 256;
const ELE_LINE: u64 = 128;

pub const DEFAULT_UNITS: Units = Units::Mm;

/// Reads `base.node` and `base.ele`; `path` is either (or the base name).
pub fn read(path: &Path, units: Option<Units>) -> Result<TetMesh, MeshError> {
    let with = |ext: &str| -> PathBuf { path.with_extension(ext) };
    let (points_mm, base) = read_node(&with("node"), units.unwrap_or(DEFAULT_UNITS))?;
    let (tets, regions) = read_ele(&with("ele"), base)?;
    Ok(TetMesh { points_mm, tets, regions, fibres: None, sheets: None })
}

/// The header line's numbers: exactly `min` to `max` of them.
fn header(line: &Line, min: usize, max: usize, what: &str) -> Result<Vec<u64>, MeshError> {
    let v = line.numbers::<u64>(what)?;
    if !(min..=max).contains(&v.len()) {
        return Err(line.err(format!("{what} needs {min} to {max} numbers, the line has {}", v.len())));
    }
    Ok(v)
}

/// The index a line starts with, which must be `base + i`.
fn index(line: &Line, i: usize, base: u64, what: &str) -> Result<(), MeshError> {
    let first = line.fields()[0];
    if first.parse::<u64>().ok() != Some(base + i as u64) {
        return Err(line.err(format!(
            "{what} {i} (counting from 0) is numbered {first:?}, not {}; TetGen files number their {what}s \
             in order from 0 or 1",
            base + i as u64
        )));
    }
    Ok(())
}

/// Node coordinates (converted from `units` to mm) and the numbering's
/// base, 0 or 1.
pub fn read_node(path: &Path, units: Units) -> Result<(Vec<Vec3>, u64), MeshError> {
    let bytes = read_bounded(path, "a TetGen .node file", NODE_LINE, |b| Ok(leading_count(b, Some('#'))))?;
    let text = text::text(&bytes);
    let mut lines = Lines::new(path, &text, Some('#'));
    let head = lines.expect("the header (points, 3, attributes, markers)")?;
    let h = header(&head, 1, 4, "the header (points, 3, attributes, markers)")?;
    if h.get(1).is_some_and(|&d| d != 3) {
        return Err(head.err(format!("the mesh has dimension {}; fibril reads 3D meshes", h[1])));
    }
    let n = text::count(&head, h[0], text.len(), "points")?;
    let width = 4 + h.get(2).copied().unwrap_or(0) as usize + h.get(3).copied().unwrap_or(0) as usize;
    let mut points = Vec::with_capacity(n);
    let mut base = 0;
    for line in lines.by_ref().take(n) {
        let v = line.exactly::<f64>(width, &format!("point {} (index x y z ...)", points.len()), false)?;
        if points.is_empty() {
            base = match v[0] {
                0.0 => 0,
                1.0 => 1,
                _ => return Err(line.err("the first point is numbered neither 0 nor 1")),
            };
        }
        index(&line, points.len(), base, "point")?;
        points.push([v[1], v[2], v[3]].map(|c| c * units.in_mm()));
    }
    if points.len() != n {
        return Err(file_err(
            path,
            format!("line {} declares {n} points, the file has {}", head.no, points.len()),
        ));
    }
    if let Some(line) = lines.next() {
        return Err(line.err(format!("more points than the {n} line {} declares", head.no)));
    }
    Ok((points, base))
}

/// Tetrahedra (0-based) and their region attribute (0 where the file
/// has none); `base` is the numbering's base the `.node` file set.
pub fn read_ele(path: &Path, base: u64) -> Result<(Vec<[u32; 4]>, Vec<i32>), MeshError> {
    let bytes = read_bounded(path, "a TetGen .ele file", ELE_LINE, |b| Ok(leading_count(b, Some('#'))))?;
    let text = text::text(&bytes);
    let mut lines = Lines::new(path, &text, Some('#'));
    let what = "the header (tetrahedra, nodes per tetrahedron, region attribute)";
    let head = lines.expect(what)?;
    let h = header(&head, 1, 3, what)?;
    let per = h.get(1).copied().unwrap_or(4);
    if per != 4 {
        return Err(head.err(format!(
            "{per} nodes per tetrahedron; fibril uses linear (4-node) tetrahedra: mesh without -o2"
        )));
    }
    let attributes = h.get(2).copied().unwrap_or(0) as usize;
    let n = text::count(&head, h[0], text.len(), "tetrahedra")?;
    let mut tets = Vec::with_capacity(n);
    let mut regions = Vec::with_capacity(n);
    for line in lines.by_ref().take(n) {
        let e = tets.len();
        let v =
            line.exactly::<f64>(5 + attributes, &format!("element {e} (index n1 n2 n3 n4 ...)"), false)?;
        index(&line, e, base, "element")?;
        let mut nodes = [0u32; 4];
        for k in 0..4 {
            let n = v[1 + k] - base as f64;
            if !(n >= 0.0 && n <= u32::MAX as f64 && n.fract() == 0.0) {
                return Err(line.err(format!(
                    "node {} of element {e} is not a node number of a file numbered from {base}",
                    v[1 + k]
                )));
            }
            nodes[k] = n as u32;
        }
        let region = match v.get(5) {
            None => 0,
            Some(&r) if r.fract() == 0.0 && r.abs() <= i32::MAX as f64 => r as i32,
            Some(r) => {
                return Err(line.err(format!("the region attribute {r} of element {e} is not an integer")));
            }
        };
        tets.push(nodes);
        regions.push(region);
    }
    if tets.len() != n {
        return Err(file_err(
            path,
            format!("line {} declares {n} tetrahedra, the file has {}", head.no, tets.len()),
        ));
    }
    if let Some(line) = lines.next() {
        return Err(line.err(format!("more tetrahedra than the {n} line {} declares", head.no)));
    }
    Ok((tets, regions))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, node: &str, ele: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fibril-tet-tetgen-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("m.node"), node).unwrap();
        std::fs::write(dir.join("m.ele"), ele).unwrap();
        dir.join("m.node")
    }

    #[test]
    fn numbering_from_one_with_attributes_and_markers_reads() {
        let node =
            "# a comment\n4 3 1 1\n1 0 0 0 7.5 1\n2 1 0 0 7.5 1\n3 0 1 0 7.5 0\n4 0 0 1 7.5 1 # last\n";
        let ele = "1 4 1\n1 1 2 3 4 -3\n";
        let m = read(&scratch("one", node, ele), Some(Units::Cm)).unwrap();
        assert_eq!(m.points_mm[1], [10.0, 0.0, 0.0]);
        assert_eq!((m.tets, m.regions), (vec![[0, 1, 2, 3]], vec![-3]));
    }

    #[test]
    fn faults_name_the_line_and_the_element() {
        let node = "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n";
        let e = read(&scratch("ten", node, "1 10 0\n0 0 1 2 3 4 5 6 7 8 9\n"), None).unwrap_err().to_string();
        assert!(e.contains("m.ele, line 1: 10 nodes per tetrahedron"), "{e}");
        let e = read(&scratch("order", node, "2 4 0\n0 0 1 2 3\n5 0 1 2 3\n"), None).unwrap_err().to_string();
        assert!(e.contains("line 3: element 1 (counting from 0) is numbered \"5\", not 1"), "{e}");
        let e = read(&scratch("neg", node, "1 4 0\n0 0 1 -2 3\n"), None).unwrap_err().to_string();
        assert!(e.contains("line 2: node -2 of element 0"), "{e}");
        let e = read(&scratch("short", node, "2 4 0\n0 0 1 2 3\n"), None).unwrap_err().to_string();
        assert!(e.contains("line 1 declares 2 tetrahedra, the file has 1"), "{e}");
        let e = read(&scratch("two", "4 2 0 0\n", "1 4 0\n"), None).unwrap_err().to_string();
        assert!(e.contains("m.node, line 1: the mesh has dimension 2"), "{e}");
    }

    #[test]
    fn numbering_from_neither_zero_nor_one_is_refused() {
        let node = "4 3 0 0\n2 0 0 0\n3 1 0 0\n4 0 1 0\n5 0 0 1\n";
        let e = read(&scratch("base", node, "1 4 0\n2 2 3 4 5\n"), None).unwrap_err().to_string();
        assert!(e.contains("m.node, line 2: the first point is numbered neither 0 nor 1"), "{e}");
    }
}

//! openCARP meshes: `base.pts` (nodes, in micrometres), `base.elem`
//! (elements with a region tag), `base.lon` (fibres, and sheets) and
//! `.vtx` node lists for stimuli.
//!
//! Format (openCARP user manual, "File formats": Nodes, Elements, Fibers,
//! Vertex files): every file starts with a count line. `.pts` lines are
//! `x y z`; `.elem` lines are a type code, its nodes (0-based) and an
//! optional tag, the codes being `Tt` (tetrahedron), `Hx`, `Py`, `Pr`,
//! `Tr`, `Qd`, `Ln`; `.lon` starts with 1 (fibres) or 2 (fibres and
//! sheets), then 3 or 6 numbers per element; `.vtx` has its count, then
//! `intra` or `extra`, then one node per line.

use std::path::{Path, PathBuf};

use crate::tet::error::MeshError;
use crate::tet::mesh::{TetMesh, Vec3};
use crate::tet::read::text::{self, Line, Lines, file_err, leading_count, read_bounded};
use crate::tet::units::Units;

/// Bytes a line may take in each file: generous for 17 significant
/// digits and a sign per number.
const PTS_LINE: u64 = 128;
const ELEM_LINE: u64 = 128;
const LON_LINE: u64 = 256;
const VTX_LINE: u64 = 32;

/// openCARP counts in micrometres.
pub const DEFAULT_UNITS: Units = Units::Um;

/// Reads the mesh `base.pts`, `base.elem` and, where it exists,
/// `base.lon`; `path` is any of them (or the base name).
pub fn read(path: &Path, units: Option<Units>) -> Result<TetMesh, MeshError> {
    let base = path.with_extension("");
    let with = |ext: &str| -> PathBuf {
        let mut p = base.clone().into_os_string();
        p.push(ext);
        PathBuf::from(p)
    };
    let points_mm = read_pts(&with(".pts"), units.unwrap_or(DEFAULT_UNITS))?;
    let (tets, regions) = read_elem(&with(".elem"))?;
    let lon = with(".lon");
    let (fibres, sheets) = if lon.exists() {
        let (f, s) = read_lon(&lon, tets.len())?;
        (Some(f), s)
    } else {
        (None, None)
    };
    Ok(TetMesh { points_mm, tets, regions, fibres, sheets })
}

/// The count line of a file and the lines after it, which must be as many.
fn counted<'a>(path: &'a Path, text: &'a str, what: &str) -> Result<(Line<'a>, usize, Lines<'a>), MeshError> {
    let mut lines = Lines::new(path, text, None);
    let head = lines.expect(&format!("the count of {what}"))?;
    let n = head.exactly::<u64>(1, &format!("the count of {what}"), false)?[0];
    let n = text::count(&head, n, text.len(), what)?;
    Ok((head, n, lines))
}

fn too_few(path: &Path, head: &Line, n: usize, found: usize, what: &str) -> MeshError {
    file_err(
        path,
        format!("line {} declares {n} {what}, the file has {found}; fix the count or the file", head.no),
    )
}

/// Node coordinates, converted from `units` to mm.
pub fn read_pts(path: &Path, units: Units) -> Result<Vec<Vec3>, MeshError> {
    let bytes = read_bounded(path, "an openCARP .pts file", PTS_LINE, |b| Ok(leading_count(b, None)))?;
    let text = text::text(&bytes);
    let (head, n, lines) = counted(path, &text, "points")?;
    let mut points = Vec::with_capacity(n);
    for line in lines {
        if points.len() == n {
            return Err(line.err(format!("more points than the {n} line {} declares", head.no)));
        }
        let v = line.exactly::<f64>(3, "a point (x y z)", false)?;
        points.push([v[0], v[1], v[2]].map(|c| c * units.in_mm()));
    }
    if points.len() != n {
        return Err(too_few(path, &head, n, points.len(), "points"));
    }
    Ok(points)
}

/// The name and node count of an openCARP element type code.
fn element_type(code: &str) -> Option<(&'static str, usize)> {
    Some(match code {
        "Tt" => ("tetrahedron", 4),
        "Hx" => ("hexahedron", 8),
        "Py" => ("pyramid", 5),
        "Pr" => ("prism", 6),
        "Tr" => ("triangle", 3),
        "Qd" => ("quadrilateral", 4),
        "Ln" => ("line", 2),
        _ => return None,
    })
}

/// Tetrahedra and their tags (0 where a line has none).
pub fn read_elem(path: &Path) -> Result<(Vec<[u32; 4]>, Vec<i32>), MeshError> {
    let bytes = read_bounded(path, "an openCARP .elem file", ELEM_LINE, |b| Ok(leading_count(b, None)))?;
    let text = text::text(&bytes);
    let (head, n, lines) = counted(path, &text, "elements")?;
    let mut tets = Vec::with_capacity(n);
    let mut regions = Vec::with_capacity(n);
    for line in lines {
        if tets.len() == n {
            return Err(line.err(format!("more elements than the {n} line {} declares", head.no)));
        }
        let fields = line.fields();
        match element_type(fields[0]) {
            Some((_, 4)) if fields[0] == "Tt" => {}
            Some((name, _)) => {
                return Err(line.err(format!(
                    "element {} is a {name} ({}); fibril solves tetrahedral meshes only: convert or remesh it \
                     into tetrahedra",
                    tets.len(),
                    fields[0]
                )));
            }
            None => {
                return Err(line.err(format!(
                    "unknown element type {:?}; openCARP's are Tt, Hx, Py, Pr, Tr, Qd, Ln",
                    fields[0]
                )));
            }
        }
        if !(5..=6).contains(&fields.len()) {
            return Err(line.err(format!(
                "a tetrahedron line is `Tt n0 n1 n2 n3 [tag]`, this one has {} fields",
                fields.len()
            )));
        }
        let mut nodes = [0u32; 4];
        for (k, f) in fields[1..5].iter().enumerate() {
            nodes[k] = f.parse().map_err(|_| {
                line.err(format!("node {f:?} of element {} is not a node number (0 or more)", tets.len()))
            })?;
        }
        let tag = match fields.get(5) {
            None => 0,
            Some(f) => f.parse().map_err(|_| line.err(format!("tag {f:?} is not an integer")))?,
        };
        tets.push(nodes);
        regions.push(tag);
    }
    if tets.len() != n {
        return Err(too_few(path, &head, n, tets.len(), "elements"));
    }
    Ok((tets, regions))
}

/// Fibres, and sheets where the file has them, one per element. A file
/// without the header line (some tools write none) is taken when it has
/// one line of 3 or 6 numbers per element.
pub fn read_lon(path: &Path, elements: usize) -> Result<(Vec<Vec3>, Option<Vec<Vec3>>), MeshError> {
    let bytes = read_bounded(path, "an openCARP .lon file", LON_LINE, |_| Ok(Some(elements as u64)))?;
    let text = text::text(&bytes);
    let mut lines = Lines::new(path, &text, None).peekable();
    let first =
        *lines.peek().ok_or_else(|| file_err(path, "the file is empty; give 1 or 2, then the fibres"))?;
    let width = match first.fields().len() {
        1 => {
            lines.next();
            match first.text {
                "1" => 3,
                "2" => 6,
                other => {
                    return Err(first.err(format!(
                        "the header is {other:?}; it must be 1 (fibres) or 2 (fibres and sheets)"
                    )));
                }
            }
        }
        w @ (3 | 6) => w,
        w => {
            return Err(first.err(format!(
                "{w} fields; a .lon file starts with 1 or 2, then has 3 or 6 numbers per element"
            )));
        }
    };
    let mut fibres = Vec::with_capacity(elements);
    let mut sheets = Vec::with_capacity(if width == 6 { elements } else { 0 });
    for line in lines {
        if fibres.len() == elements {
            return Err(line.err(format!("more directions than the mesh's {elements} elements")));
        }
        let v = line.exactly::<f64>(width, &format!("the directions of element {}", fibres.len()), false)?;
        fibres.push([v[0], v[1], v[2]]);
        if width == 6 {
            sheets.push([v[3], v[4], v[5]]);
        }
    }
    if fibres.len() != elements {
        return Err(file_err(
            path,
            format!(
                "{} directions for the mesh's {elements} elements; there must be one per element",
                fibres.len()
            ),
        ));
    }
    Ok((fibres, (width == 6).then_some(sheets)))
}

/// The nodes of a vertex file (a stimulus site); openCARP's `intra` or
/// `extra` domain line is checked and not kept.
pub fn read_vtx(path: &Path) -> Result<Vec<u32>, MeshError> {
    let bytes = read_bounded(path, "an openCARP .vtx file", VTX_LINE, |b| Ok(leading_count(b, None)))?;
    let text = text::text(&bytes);
    let (head, n, mut lines) = counted(path, &text, "nodes")?;
    let domain = lines.expect("the domain line (intra or extra)")?;
    if !matches!(domain.text, "intra" | "extra") {
        return Err(domain
            .err(format!("the second line of a .vtx file is `intra` or `extra`, not {:?}", domain.text)));
    }
    let mut nodes = Vec::with_capacity(n);
    for line in lines {
        if nodes.len() == n {
            return Err(line.err(format!("more nodes than the {n} line {} declares", head.no)));
        }
        nodes.push(line.exactly::<u32>(1, "a node number (0 or more)", false)?[0]);
    }
    if nodes.len() != n {
        return Err(too_few(path, &head, n, nodes.len(), "nodes"));
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "fibril-tet-carp-{}-{}",
            std::process::id(),
            files[0].0.replace('.', "-")
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, body) in files {
            std::fs::write(dir.join(name), body).unwrap();
        }
        dir
    }

    const PTS: &str = "4\n0 0 0\n1000 0 0\n0 1000 0\n0 0 1000\n";

    #[test]
    fn a_tetrahedron_in_micrometres_reads_in_mm_with_its_tag_and_fibres() {
        let dir = scratch(&[("a.pts", PTS), ("a.elem", "1\nTt 0 1 2 3 5\n"), ("a.lon", "1\n1 0 0\n")]);
        let m = read(&dir.join("a.elem"), None).unwrap();
        assert_eq!(m.points_mm[1], [1.0, 0.0, 0.0]);
        assert_eq!((m.tets.clone(), m.regions.clone()), (vec![[0, 1, 2, 3]], vec![5]));
        assert_eq!(m.fibres, Some(vec![[1.0, 0.0, 0.0]]));
        assert_eq!(m.sheets, None);
        let m = read(&dir.join("a.pts"), Some(Units::Mm)).unwrap();
        assert_eq!(m.points_mm[1], [1000.0, 0.0, 0.0]);
    }

    #[test]
    fn a_lon_file_without_its_header_line_is_taken_by_its_columns() {
        let dir = scratch(&[("b.lon", "1 0 0 0 1 0\n0 1 0 1 0 0\n")]);
        let (f, s) = read_lon(&dir.join("b.lon"), 2).unwrap();
        assert_eq!(f[1], [0.0, 1.0, 0.0]);
        assert_eq!(s.unwrap()[1], [1.0, 0.0, 0.0]);
        let e = read_lon(&dir.join("b.lon"), 3).unwrap_err().to_string();
        assert!(e.contains("2 directions for the mesh's 3 elements"), "{e}");
    }

    #[test]
    fn other_element_types_are_refused_naming_type_element_and_line() {
        let dir = scratch(&[("c.elem", "2\nTt 0 1 2 3 1\nHx 0 1 2 3 4 5 6 7 1\n")]);
        let e = read_elem(&dir.join("c.elem")).unwrap_err().to_string();
        assert!(e.contains("c.elem, line 3") && e.contains("element 1 is a hexahedron (Hx)"), "{e}");
        let dir = scratch(&[("d.elem", "1\nTet 0 1 2 3\n")]);
        let e = read_elem(&dir.join("d.elem")).unwrap_err().to_string();
        assert!(e.contains("line 2: unknown element type \"Tet\""), "{e}");
        let dir = scratch(&[("e.elem", "1\nTt 0 1 -2 3\n")]);
        let e = read_elem(&dir.join("e.elem")).unwrap_err().to_string();
        assert!(e.contains("line 2: node \"-2\" of element 0"), "{e}");
    }

    #[test]
    fn counts_that_disagree_with_the_lines_are_refused() {
        let dir = scratch(&[("f.pts", "3\n0 0 0\n1 0 0\n")]);
        let e = read_pts(&dir.join("f.pts"), Units::Um).unwrap_err().to_string();
        assert!(e.contains("line 1 declares 3 points, the file has 2"), "{e}");
        let dir = scratch(&[("g.pts", "1\n0 0 0\n1 0 0\n")]);
        let e = read_pts(&dir.join("g.pts"), Units::Um).unwrap_err().to_string();
        assert!(e.contains("g.pts, line 3: more points than the 1"), "{e}");
        let dir = scratch(&[("h.pts", "1\n0 0\n")]);
        let e = read_pts(&dir.join("h.pts"), Units::Um).unwrap_err().to_string();
        assert!(e.contains("line 2: a point (x y z) needs 3 numbers, the line has 2"), "{e}");
        let dir = scratch(&[("i.lon", "3\n1 0 0\n")]);
        let e = read_lon(&dir.join("i.lon"), 1).unwrap_err().to_string();
        assert!(e.contains("line 1: the header is \"3\""), "{e}");
    }

    #[test]
    fn vertex_files_give_their_nodes() {
        let dir = scratch(&[("s.vtx", "3\nintra\n4\n7\n9\n"), ("t.vtx", "1\nboth\n4\n")]);
        assert_eq!(read_vtx(&dir.join("s.vtx")).unwrap(), [4, 7, 9]);
        let e = read_vtx(&dir.join("t.vtx")).unwrap_err().to_string();
        assert!(e.contains("t.vtx, line 2") && e.contains("`intra` or `extra`"), "{e}");
    }

    #[test]
    fn malformed_lines_are_refused_naming_the_line() {
        let dir = scratch(&[("j.elem", "2\nTt 0 1 2 3 1\nTt 0 1 2\n"), ("k.elem", "1\nTt 0 1 2 3 left\n")]);
        let e = read_elem(&dir.join("j.elem")).unwrap_err().to_string();
        assert!(
            e.contains("j.elem, line 3: a tetrahedron line is `Tt n0 n1 n2 n3 [tag]`, this one has 4"),
            "{e}"
        );
        let e = read_elem(&dir.join("k.elem")).unwrap_err().to_string();
        assert!(e.contains("k.elem, line 2: tag \"left\" is not an integer"), "{e}");
        let dir =
            scratch(&[("l.lon", "2\n1 0 0\n"), ("m.vtx", "2\nextra\n4\n"), ("n.pts", "99999999\n0 0 0\n")]);
        let e = read_lon(&dir.join("l.lon"), 1).unwrap_err().to_string();
        assert!(
            e.contains("l.lon, line 2: the directions of element 0 needs 6 numbers, the line has 3"),
            "{e}"
        );
        let e = read_vtx(&dir.join("m.vtx")).unwrap_err().to_string();
        assert!(e.contains("m.vtx: line 1 declares 2 nodes, the file has 1"), "{e}");
        let e = read_pts(&dir.join("n.pts"), Units::Um).unwrap_err().to_string();
        assert!(
            e.contains("n.pts, line 1: the header declares 99999999 points, more than the file's"),
            "{e}"
        );
    }

    #[test]
    fn a_file_longer_than_its_count_allows_is_refused_before_it_is_read() {
        let dir = scratch(&[("o.pts", PTS)]);
        let path = dir.join("o.pts");
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(1 << 30).unwrap();
        let e = read_pts(&path, Units::Um).unwrap_err().to_string();
        assert!(
            e.contains("o.pts") && e.contains("more than an openCARP .pts file of 4 items can be"),
            "{e}"
        );
    }
}

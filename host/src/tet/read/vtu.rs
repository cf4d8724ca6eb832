//! VTK XML unstructured grids (`.vtu`) of tetrahedra, as VTK, ParaView,
//! meshio and most cardiac pipelines write them.
//!
//! Format (VTK User's Guide, "VTK File Formats", XML UnstructuredGrid):
//! one `<Piece NumberOfPoints NumberOfCells>` holds `<Points>` (one array
//! of 3 components), `<Cells>` (arrays `connectivity`, `offsets`, the end
//! of each cell's nodes, and `types`, where 10 is a tetrahedron),
//! `<PointData>` and `<CellData>`. The arrays' encodings are those of
//! [`crate::io::vtk_xml`].
//!
//! Fibres and sheets are taken from cell arrays of 3 components named as
//! in [`FIBRE_NAMES`] and [`SHEET_NAMES`]. Where the file has them as
//! point data only, an element's is the mean of its four nodes' vectors,
//! each first turned to agree with the first node's (a fibre and its
//! opposite are the same fibre, and would cancel), then made unit length
//! by the checks.

use std::path::Path;

use crate::io::vtk_xml::{self, Framing, XmlArray, attr, type_bytes};
use crate::tet::error::MeshError;
use crate::tet::mesh::{TetMesh, Vec3, dot};
use crate::tet::read::text::{file_err, read_bounded};
use crate::tet::units::Units;

pub const DEFAULT_UNITS: Units = Units::Mm;

/// Array names taken as fibres, sheets and region labels (compared
/// without case), in order of preference.
pub const FIBRE_NAMES: [&str; 5] = ["fibres", "fibers", "fibre", "fiber", "f0"];
pub const SHEET_NAMES: [&str; 3] = ["sheets", "sheet", "s0"];
pub const REGION_NAMES: [&str; 8] =
    ["region", "regions", "tag", "elemTag", "gmsh:physical", "CellEntityIds", "tetgen:ref", "medit:ref"];

/// Bytes a point or a cell may take in a file: up to 64 values as ASCII
/// text of up to 32 characters each, the longest of the encodings.
const BYTES_PER_ITEM: u64 = 64 * 32;

/// The most nodes a VTK cell of a type fibril names has (a 27-node
/// hexahedron), bounding the connectivity of a file of refused cells.
const MAX_CELL_NODES: usize = 32;

/// VTK's name of a cell type, for refusals.
fn cell_type_name(ty: f64) -> String {
    let name = match ty as i64 {
        1 => "vertex",
        2 => "poly-vertex",
        3 => "line",
        4 => "poly-line",
        5 => "triangle",
        6 => "triangle strip",
        7 => "polygon",
        8 => "pixel",
        9 => "quad",
        11 => "voxel",
        12 => "hexahedron",
        13 => "wedge (prism)",
        14 => "pyramid",
        22 => "quadratic triangle",
        24 => "quadratic (10-node) tetrahedron",
        25 => "quadratic hexahedron",
        42 => "polyhedron",
        _ => "cell type fibril does not know",
    };
    format!("type {ty} ({name})")
}

/// The number of points and cells the first `<Piece>` declares.
fn counts(head: &str) -> Option<(u64, u64)> {
    let piece = &head[head.find("<Piece")?..];
    let piece = &piece[..piece.find('>')?];
    Some((attr(piece, "NumberOfPoints")?.parse().ok()?, attr(piece, "NumberOfCells")?.parse().ok()?))
}

fn head_check(bytes: &[u8]) -> Result<Option<u64>, String> {
    let head = String::from_utf8_lossy(bytes);
    let Some(at) = head.find("<VTKFile") else {
        return Err("not a VTK XML file (no <VTKFile> at its start)".into());
    };
    let tag = &head[at..];
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    match attr(tag, "type") {
        Some("UnstructuredGrid") | None => {}
        Some(other) => return Err(format!("a VTK {other} file, not an UnstructuredGrid (.vtu)")),
    }
    Ok(counts(&head).map(|(p, c)| p + c))
}

/// The arrays of the one `<Piece>` of a `.vtu` file of `sections`, and
/// its numbers of points and cells.
fn parse(path: &Path, sections: &[&str]) -> Result<(usize, usize, Vec<XmlArray>), MeshError> {
    let bytes = read_bounded(path, "a VTK .vtu file", BYTES_PER_ITEM, head_check)?;
    let bad = |e: std::io::Error| file_err(path, e.to_string());
    let (head, file_tag) = vtk_xml::head(&bytes, "UnstructuredGrid", ".vtu").map_err(bad)?;
    let framing = Framing::of(file_tag).map_err(bad)?;
    if head.matches("<Piece").count() != 1 {
        return Err(file_err(
            path,
            "the grid is in several pieces; merge them into one (ParaView: Merge Blocks)",
        ));
    }
    let (points, cells) =
        counts(head).ok_or_else(|| file_err(path, "no NumberOfPoints and NumberOfCells in <Piece>"))?;
    let (points, cells) = (points as usize, cells as usize);
    let max_out = |section: &str, components: usize, ty: &str| {
        let tuples = match section {
            "Points" | "PointData" => points,
            "Cells" => cells.saturating_mul(MAX_CELL_NODES),
            _ => cells,
        };
        tuples.saturating_mul(components).saturating_mul(type_bytes(ty))
    };
    let arrays = vtk_xml::arrays(&bytes, head, framing, sections, max_out).map_err(bad)?;
    Ok((points, cells, arrays))
}

/// Reads a `.vtu` file; `region_array` names the integer cell array of
/// region labels where it is none of [`REGION_NAMES`].
pub fn read(path: &Path, units: Option<Units>, region_array: Option<&str>) -> Result<TetMesh, MeshError> {
    let (points, cells, arrays) = parse(path, &["Points", "Cells", "PointData", "CellData"])?;
    let find = |section: &str, name: &str| {
        arrays.iter().find(|a| a.section == section && (name.is_empty() || a.name.eq_ignore_ascii_case(name)))
    };
    let sized = |a: &XmlArray, tuples: usize, components: usize, what: &str| -> Result<(), MeshError> {
        if a.components != components || a.values.len() != tuples * components {
            return Err(file_err(
                path,
                format!(
                    "{what} array {:?} has {} values of {} components, the grid needs {tuples} of {components}",
                    a.name,
                    a.values.len(),
                    a.components
                ),
            ));
        }
        Ok(())
    };
    let scale = units.unwrap_or(DEFAULT_UNITS).in_mm();
    let coords = find("Points", "").ok_or_else(|| file_err(path, "no <Points> array"))?;
    sized(coords, points, 3, "the <Points>")?;
    let points_mm: Vec<Vec3> =
        coords.values.chunks_exact(3).map(|c| [c[0], c[1], c[2]].map(|x| x * scale)).collect();
    let cell =
        |name: &str| find("Cells", name).ok_or_else(|| file_err(path, format!("no <Cells> array {name}")));
    let (connectivity, offsets, types) = (cell("connectivity")?, cell("offsets")?, cell("types")?);
    sized(types, cells, 1, "the cell types")?;
    sized(offsets, cells, 1, "the cell offsets")?;
    if let Some((c, &ty)) = types.values.iter().enumerate().find(|&(_, &t)| t != 10.0) {
        return Err(file_err(
            path,
            format!(
                "cell {c} (counting from 0) is of {}; fibril solves tetrahedral meshes (type 10) only: \
                 keep only the tetrahedra (ParaView: Extract Cells By Type) or remesh",
                cell_type_name(ty)
            ),
        ));
    }
    let mut tets = Vec::with_capacity(cells);
    for (c, &end) in offsets.values.iter().enumerate() {
        if end != 4.0 * (c + 1) as f64 {
            return Err(file_err(
                path,
                format!("cell {c}: offset {end}, a tetrahedron's would be {}", 4 * (c + 1)),
            ));
        }
        let nodes = connectivity.values.get(4 * c..4 * c + 4).ok_or_else(|| {
            file_err(path, format!("the connectivity ends before cell {c}; the file is cut"))
        })?;
        let mut tet = [0u32; 4];
        for (k, &n) in nodes.iter().enumerate() {
            if !(n >= 0.0 && n <= u32::MAX as f64) {
                return Err(file_err(path, format!("cell {c} names node {n}, which is not a node number")));
            }
            tet[k] = n as u32;
        }
        tets.push(tet);
    }
    let regions = match region_array {
        Some(name) => Some(find("CellData", name).ok_or_else(|| {
            file_err(
                path,
                format!(
                    "no cell data array {name:?} for the regions; the file's are {}",
                    cell_names(&arrays)
                ),
            )
        })?),
        None => REGION_NAMES.iter().find_map(|n| find("CellData", n)),
    };
    let regions = match regions {
        None => vec![0; cells],
        Some(a) => {
            sized(a, cells, 1, "the region")?;
            a.values
                .iter()
                .enumerate()
                .map(|(c, &r)| {
                    if r.fract() == 0.0 && r.abs() <= i32::MAX as f64 {
                        Ok(r as i32)
                    } else {
                        Err(file_err(
                            path,
                            format!("cell {c}: region label {r} in array {:?} is not an integer", a.name),
                        ))
                    }
                })
                .collect::<Result<_, _>>()?
        }
    };
    let directions = |names: &[&str], what: &str| -> Result<Option<Vec<Vec3>>, MeshError> {
        if let Some(a) = names.iter().find_map(|n| find("CellData", n)) {
            sized(a, cells, 3, what)?;
            return Ok(Some(a.values.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()));
        }
        let Some(a) = names.iter().find_map(|n| find("PointData", n)) else { return Ok(None) };
        sized(a, points, 3, what)?;
        let at = |n: u32| -> Vec3 {
            std::array::from_fn(|k| a.values.get(3 * n as usize + k).copied().unwrap_or(f64::NAN))
        };
        Ok(Some(tets.iter().map(|t| mean_direction(t.map(at))).collect()))
    };
    let fibres = directions(&FIBRE_NAMES, "the fibre")?;
    let sheets = directions(&SHEET_NAMES, "the sheet")?;
    Ok(TetMesh { points_mm, tets, regions, fibres, sheets })
}

/// The point-data array `name` (compared without case) of a `.vtu` file
/// of `nodes` points, one component: a value per node, in the file's
/// node order.
pub fn point_scalar(path: &Path, name: &str, nodes: usize) -> Result<Vec<f64>, MeshError> {
    let (points, _, arrays) = parse(path, &["PointData"])?;
    if points != nodes {
        return Err(file_err(path, format!("{points} points, the mesh has {nodes} nodes")));
    }
    let Some(a) = arrays.iter().find(|a| a.section == "PointData" && a.name.eq_ignore_ascii_case(name))
    else {
        let names: Vec<&str> = arrays.iter().map(|a| a.name.as_str()).collect();
        let names = if names.is_empty() { "none".into() } else { names.join(", ") };
        return Err(file_err(path, format!("no point data array {name:?}; the file's are {names}")));
    };
    if a.components != 1 || a.values.len() != nodes {
        return Err(file_err(
            path,
            format!(
                "the point data array {:?} has {} values of {} components; a node field has one value per node",
                a.name,
                a.values.len(),
                a.components
            ),
        ));
    }
    Ok(a.values.clone())
}

/// The mean of four directions, each turned to agree with the first.
fn mean_direction(v: [Vec3; 4]) -> Vec3 {
    let mut sum = [0.0; 3];
    for d in v {
        let sign = if dot(d, v[0]) < 0.0 { -1.0 } else { 1.0 };
        for k in 0..3 {
            sum[k] += sign * d[k];
        }
    }
    sum
}

fn cell_names(arrays: &[XmlArray]) -> String {
    let names: Vec<&str> =
        arrays.iter().filter(|a| a.section == "CellData").map(|a| a.name.as_str()).collect();
    if names.is_empty() { "none".into() } else { names.join(", ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, body: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("fibril-tet-vtu-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.vtu"));
        std::fs::write(&path, body).unwrap();
        path
    }

    /// One tetrahedron (or the cell `types` says) in ASCII, with `extra`
    /// arrays in the piece.
    fn grid(types: &str, extra: &str) -> String {
        format!(
            r#"<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian">
<UnstructuredGrid><Piece NumberOfPoints="4" NumberOfCells="1">
<Points><DataArray type="Float32" NumberOfComponents="3" format="ascii">0 0 0 1 0 0 0 1 0 0 0 1</DataArray></Points>
<Cells><DataArray type="Int32" Name="connectivity" format="ascii">0 1 2 3</DataArray>
<DataArray type="Int32" Name="offsets" format="ascii">4</DataArray>
<DataArray type="UInt8" Name="types" format="ascii">{types}</DataArray></Cells>
{extra}
</Piece></UnstructuredGrid></VTKFile>
"#
        )
    }

    #[test]
    fn point_fibres_are_averaged_per_element_with_opposite_vectors_turned() {
        let extra = r#"<PointData><DataArray type="Float64" Name="fiber" NumberOfComponents="3" format="ascii">
            1 0 0  -1 0 0  1 0.2 0  1 -0.2 0</DataArray></PointData>
            <CellData><DataArray type="Int32" Name="myLabels" format="ascii">3</DataArray></CellData>"#;
        let path = scratch("pointfibres", &grid("10", extra));
        let m = read(&path, Some(Units::Cm), Some("myLabels")).unwrap();
        assert_eq!(m.fibres, Some(vec![[4.0, 0.0, 0.0]]));
        assert_eq!((m.regions, m.points_mm[1]), (vec![3], [10.0, 0.0, 0.0]));
        let e = read(&path, None, Some("tags")).unwrap_err().to_string();
        assert!(e.contains("no cell data array \"tags\" for the regions; the file's are myLabels"), "{e}");
    }

    #[test]
    fn a_point_scalar_is_read_by_name_and_checked() {
        let extra = r#"<PointData><DataArray type="Float32" Name="G_Kr" format="ascii">0.1 0.2 0.3 0.4</DataArray>
            <DataArray type="Float64" Name="fiber" NumberOfComponents="3" format="ascii">
            1 0 0 1 0 0 1 0 0 1 0 0</DataArray></PointData>"#;
        let path = scratch("pointscalar", &grid("10", extra));
        let g = point_scalar(&path, "g_kr", 4).unwrap();
        assert_eq!(g, [0.1, 0.2, 0.3, 0.4], "ASCII values are read as written");
        let e = point_scalar(&path, "g_ks", 4).unwrap_err().to_string();
        assert!(e.contains("no point data array \"g_ks\"; the file's are G_Kr, fiber"), "{e}");
        let e = point_scalar(&path, "fiber", 4).unwrap_err().to_string();
        assert!(e.contains("has 12 values of 3 components; a node field has one value per node"), "{e}");
        let e = point_scalar(&path, "g_kr", 5).unwrap_err().to_string();
        assert!(e.contains("4 points, the mesh has 5 nodes"), "{e}");
    }

    #[test]
    fn other_cell_types_are_refused_naming_cell_and_type() {
        let e = read(&scratch("hex", &grid("12", "")), None, None).unwrap_err().to_string();
        assert!(e.contains("hex.vtu: cell 0 (counting from 0) is of type 12 (hexahedron)"), "{e}");
        let e = read(&scratch("tri", &grid("5", "")), None, None).unwrap_err().to_string();
        assert!(e.contains("cell 0 (counting from 0) is of type 5 (triangle)"), "{e}");
        let e = read(&scratch("image", "<VTKFile type=\"ImageData\">"), None, None).unwrap_err().to_string();
        assert!(e.contains("a VTK ImageData file, not an UnstructuredGrid"), "{e}");
    }

    #[test]
    fn appended_raw_data_with_uint64_headers_reads() {
        let mut body = br#"<VTKFile type="UnstructuredGrid" byte_order="LittleEndian" header_type="UInt64">
<UnstructuredGrid><Piece NumberOfPoints="4" NumberOfCells="1">
<Points><DataArray type="Float64" NumberOfComponents="3" format="appended" offset="0"/></Points>
<Cells><DataArray type="Int64" Name="connectivity" format="appended" offset="104"/>
<DataArray type="Int64" Name="offsets" format="appended" offset="144"/>
<DataArray type="UInt8" Name="types" format="appended" offset="160"/></Cells>
</Piece></UnstructuredGrid>
<AppendedData encoding="raw">_"#
            .to_vec();
        let block = |data: Vec<u8>| [(data.len() as u64).to_le_bytes().to_vec(), data].concat();
        let xyz = [0.0f64, 0., 0., 2., 0., 0., 0., 2., 0., 0., 0., 2.];
        body.extend(block(xyz.iter().flat_map(|v| v.to_le_bytes()).collect()));
        body.extend(block([0i64, 1, 2, 3].iter().flat_map(|v| v.to_le_bytes()).collect()));
        body.extend(block(4i64.to_le_bytes().to_vec()));
        body.extend(block(vec![10u8]));
        body.extend(b"</AppendedData></VTKFile>");
        let path = scratch("appended", "");
        std::fs::write(&path, body).unwrap();
        let m = read(&path, None, None).unwrap();
        assert_eq!((m.tets, m.points_mm[3]), (vec![[0, 1, 2, 3]], [0.0, 0.0, 2.0]));
    }

    #[test]
    fn arrays_of_the_wrong_size_or_kind_are_refused_naming_them() {
        let offsets = grid("10", "").replace(">4</DataArray>", ">3</DataArray>");
        let e = read(&scratch("offsets", &offsets), None, None).unwrap_err().to_string();
        assert!(e.contains("cell 0: offset 3, a tetrahedron's would be 4"), "{e}");
        let extra = r#"<CellData><DataArray type="Float32" Name="fibres" NumberOfComponents="2" format="ascii">
            1 0</DataArray><DataArray type="Float32" Name="region" format="ascii">1.5</DataArray></CellData>"#;
        let e = read(&scratch("twocomp", &grid("10", extra)), None, None).unwrap_err().to_string();
        assert!(e.contains("cell 0: region label 1.5 in array \"region\" is not an integer"), "{e}");
        let e = read(&scratch("twocomp", &grid("10", extra)), None, Some("fibres")).unwrap_err().to_string();
        assert!(e.contains("the region array \"fibres\" has 2 values of 2 components"), "{e}");
        let extra = extra.replace(">1.5<", ">1<");
        let e = read(&scratch("twocomp", &grid("10", &extra)), None, None).unwrap_err().to_string();
        assert!(
            e.contains("the fibre array \"fibres\" has 2 values of 2 components, the grid needs 1 of 3"),
            "{e}"
        );
    }

    #[test]
    fn a_grid_of_several_pieces_is_refused() {
        let two = grid("10", "")
            .replace("</Piece>", "</Piece><Piece NumberOfPoints=\"0\" NumberOfCells=\"0\"></Piece>");
        let e = read(&scratch("pieces", &two), None, None).unwrap_err().to_string();
        assert!(e.contains("pieces.vtu: the grid is in several pieces; merge them"), "{e}");
    }
}

//! Gmsh meshes (`.msh`), ASCII, versions 4.1 and 2.2.
//!
//! Format (Gmsh reference manual, "MSH file format", and its "Legacy
//! formats" for 2.2): sections run from `$Name` to `$EndName`.
//! `$MeshFormat` holds `version file-type data-size` (file-type 1 is
//! binary). In 4.1, `$Entities` lists points, curves, surfaces and
//! volumes with their physical tags; `$Nodes` and `$Elements` come in
//! entity blocks (`dim tag parametric count` and `dim tag type count`),
//! a node block listing its tags, then their coordinates. In 2.2,
//! `$Nodes` lines are `tag x y z` and `$Elements` lines `tag type ntags
//! tags... nodes...`, the first tag being the physical group. Node tags
//! need not be contiguous. Elements of dimension below 3 (points, lines,
//! triangles: the boundary) are skipped; a tetrahedron (type 4) takes its
//! volume's first physical tag as its region (0 where it has none).

use std::collections::HashMap;
use std::path::Path;

use crate::tet::error::MeshError;
use crate::tet::mesh::TetMesh;
use crate::tet::read::text::{self, Line, Lines, file_err, read_bounded};
use crate::tet::units::Units;

pub const DEFAULT_UNITS: Units = Units::Mm;

const SAVE_ASCII: &str = "save it as ASCII 4.1 (`gmsh mesh.msh -save -format msh41 -bin 0 -o ascii.msh`, \
                          or File > Export with \"Save all\" off and binary off)";

/// The dimension of a Gmsh element type below 3 (points, lines and
/// surface elements of every order), `None` for volume and unknown types.
fn lower_dimension(ty: u32) -> Option<u32> {
    match ty {
        15 => Some(0),
        1 | 8 | 26 | 27 | 28 => Some(1),
        2 | 3 | 9 | 10 | 16 | 20 | 21 | 22 | 23 | 24 | 25 => Some(2),
        _ => None,
    }
}

/// A Gmsh element type's name, for refusals.
fn type_name(ty: u32) -> String {
    let name = match ty {
        5 => "8-node hexahedron",
        6 => "6-node prism",
        7 => "5-node pyramid",
        11 => "10-node second-order tetrahedron",
        12 => "27-node hexahedron",
        13 => "18-node prism",
        14 => "14-node pyramid",
        17 => "20-node hexahedron",
        18 => "15-node prism",
        19 => "13-node pyramid",
        29..=31 => "high-order tetrahedron",
        _ => "element type fibril does not know",
    };
    format!("type {ty} ({name})")
}

fn refuse_type(line: &Line, ty: u32, element: &str) -> MeshError {
    line.err(format!(
        "element {element} is of {}; fibril solves linear tetrahedra (type 4) only: mesh with \
         `-order 1` and without recombination, or convert the elements to tetrahedra",
        type_name(ty)
    ))
}

/// Checks the first bytes: a Gmsh file, and ASCII.
fn head(bytes: &[u8]) -> Result<Option<u64>, String> {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(256)]);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    if lines.next() != Some("$MeshFormat") {
        return Err("not a Gmsh mesh (it does not start with $MeshFormat)".into());
    }
    if let Some(format) = lines.next()
        && format.split_whitespace().nth(1) == Some("1")
    {
        return Err(format!("a binary Gmsh file; fibril reads ASCII .msh: {SAVE_ASCII}"));
    }
    Ok(None)
}

/// Reads a `.msh` file, coordinates in `units` (mm by default).
pub fn read(path: &Path, units: Option<Units>) -> Result<TetMesh, MeshError> {
    let bytes = read_bounded(path, "a Gmsh .msh file", 1, head)?;
    let text = text::text(&bytes);
    let mut lines = Lines::new(path, &text, None);
    let mut reader = Reader { len: text.len(), version: 0, volumes: HashMap::new(), nodes: HashMap::new() };
    let mut mesh = TetMesh::default();
    let scale = units.unwrap_or(DEFAULT_UNITS).in_mm();
    while let Some(line) = lines.next() {
        let Some(name) = line.text.strip_prefix('$') else {
            return Err(line.err(format!("{:?} outside any $Section", line.text)));
        };
        match name {
            "MeshFormat" => reader.format(&mut lines)?,
            "Entities" if reader.version == 4 => reader.entities(&mut lines)?,
            "Nodes" if reader.version == 4 => reader.nodes4(&mut lines, &mut mesh, scale)?,
            "Nodes" if reader.version == 2 => reader.nodes2(&mut lines, &mut mesh, scale)?,
            "Elements" if reader.version == 4 => reader.elements4(&mut lines, &mut mesh)?,
            "Elements" if reader.version == 2 => reader.elements2(&mut lines, &mut mesh)?,
            "PartitionedEntities" => {
                return Err(line.err("a partitioned mesh; save it whole (without -part), as one file"));
            }
            _ if reader.version == 0 => return Err(line.err("a section before $MeshFormat")),
            // $PhysicalNames, $NodeData and the like.
            _ => skip(&mut lines, name)?,
        }
    }
    if reader.version == 0 {
        return Err(file_err(path, "no $MeshFormat section; not a Gmsh mesh"));
    }
    Ok(mesh)
}

fn end(lines: &mut Lines, name: &str) -> Result<(), MeshError> {
    let line = lines.expect(&format!("$End{name}"))?;
    if line.text != format!("$End{name}") {
        return Err(line.err(format!("expected $End{name}, found {:?}", line.text)));
    }
    Ok(())
}

fn skip(lines: &mut Lines, name: &str) -> Result<(), MeshError> {
    let want = format!("$End{name}");
    loop {
        if lines.expect(&want)?.text == want {
            return Ok(());
        }
    }
}

struct Reader {
    /// The text's length, bounding the counts headers declare.
    len: usize,
    /// 2 or 4.
    version: u32,
    /// The first physical tag of each volume entity (4.1).
    volumes: HashMap<i64, i32>,
    /// Node index of each node tag.
    nodes: HashMap<u64, u32>,
}

impl Reader {
    fn format(&mut self, lines: &mut Lines) -> Result<(), MeshError> {
        let line = lines.expect("the format line (version file-type data-size)")?;
        let f = line.fields();
        if f.len() != 3 {
            return Err(line.err("the format line is `version file-type data-size`"));
        }
        if f[1] != "0" {
            return Err(line.err(format!("a binary Gmsh file; fibril reads ASCII .msh: {SAVE_ASCII}")));
        }
        self.version = match f[0] {
            "4.1" => 4,
            v if v.starts_with("2.") => 2,
            v => return Err(line.err(format!("MSH version {v}; fibril reads 4.1 and 2.2: {SAVE_ASCII}"))),
        };
        end(lines, "MeshFormat")
    }

    fn count(&self, line: &Line, value: u64, what: &str) -> Result<usize, MeshError> {
        text::count(line, value, self.len, what)
    }

    fn entities(&mut self, lines: &mut Lines) -> Result<(), MeshError> {
        let head = lines.expect("the entity counts")?;
        let c = head.exactly::<u64>(4, "the entity counts (points curves surfaces volumes)", false)?;
        let lower = self.count(&head, c[0] + c[1] + c[2], "entities")?;
        for _ in 0..lower {
            lines.expect("the entities")?;
        }
        for _ in 0..self.count(&head, c[3], "volumes")? {
            let line = lines.expect("the volume entities")?;
            let what = "a volume (tag, box, physical tags, surfaces)";
            let v = line.numbers::<f64>(what)?;
            let physicals = v.get(7).copied().unwrap_or(-1.0);
            if v.len() < 8 || physicals < 0.0 || v.len() < 8 + physicals as usize {
                return Err(line.err(format!("{what} is too short")));
            }
            let physical = if physicals >= 1.0 { v[8] as i32 } else { 0 };
            self.volumes.insert(v[0] as i64, physical);
        }
        end(lines, "Entities")
    }

    fn add_node(&mut self, line: &Line, tag: u64, mesh: &mut TetMesh, p: [f64; 3]) -> Result<(), MeshError> {
        let index = mesh.points_mm.len() as u32;
        if self.nodes.insert(tag, index).is_some() {
            return Err(line.err(format!("node tag {tag} appears twice")));
        }
        mesh.points_mm.push(p);
        Ok(())
    }

    fn nodes4(&mut self, lines: &mut Lines, mesh: &mut TetMesh, scale: f64) -> Result<(), MeshError> {
        let head = lines.expect("the node counts")?;
        let c = head.exactly::<u64>(4, "the node counts (blocks nodes min-tag max-tag)", false)?;
        for _ in 0..self.count(&head, c[0], "node blocks")? {
            let block = lines.expect("a node block")?;
            let b = block.exactly::<u64>(4, "a node block (dim entity parametric count)", false)?;
            let n = self.count(&block, b[3], "nodes")?;
            let mut tags = Vec::with_capacity(n);
            for _ in 0..n {
                let line = lines.expect("the node tags")?;
                tags.push(line.exactly::<u64>(1, "a node tag", false)?[0]);
            }
            for tag in tags {
                let line = lines.expect("the node coordinates")?;
                let v = line.exactly::<f64>(3, &format!("node {tag} (x y z)"), true)?;
                self.add_node(&line, tag, mesh, [v[0], v[1], v[2]].map(|x| x * scale))?;
            }
        }
        end(lines, "Nodes")
    }

    fn nodes2(&mut self, lines: &mut Lines, mesh: &mut TetMesh, scale: f64) -> Result<(), MeshError> {
        let head = lines.expect("the node count")?;
        let n = head.exactly::<u64>(1, "the node count", false)?[0];
        for _ in 0..self.count(&head, n, "nodes")? {
            let line = lines.expect("the nodes")?;
            let v = line.exactly::<f64>(4, "a node (tag x y z)", false)?;
            let tag =
                line.fields()[0].parse::<u64>().map_err(|_| line.err("the node tag is not a number"))?;
            self.add_node(&line, tag, mesh, [v[1], v[2], v[3]].map(|x| x * scale))?;
        }
        end(lines, "Nodes")
    }

    /// The node indices of element `element`'s node tags.
    fn tet(&self, line: &Line, element: &str, tags: &[u64]) -> Result<[u32; 4], MeshError> {
        let mut nodes = [0u32; 4];
        for (k, &tag) in tags.iter().enumerate() {
            nodes[k] = *self.nodes.get(&tag).ok_or_else(|| {
                line.err(format!(
                    "element {element} names node {tag}, which $Nodes does not list; the file is cut \
                     or edited: save it again from Gmsh"
                ))
            })?;
        }
        Ok(nodes)
    }

    fn elements4(&mut self, lines: &mut Lines, mesh: &mut TetMesh) -> Result<(), MeshError> {
        let head = lines.expect("the element counts")?;
        let c = head.exactly::<u64>(4, "the element counts (blocks elements min-tag max-tag)", false)?;
        for _ in 0..self.count(&head, c[0], "element blocks")? {
            let block = lines.expect("an element block")?;
            let b = block.exactly::<i64>(4, "an element block (dim entity type count)", false)?;
            let (dim, entity, ty) = (b[0], b[1], b[2] as u32);
            let n = self.count(&block, b[3].max(0) as u64, "elements")?;
            if dim < 3 {
                for _ in 0..n {
                    lines.expect("the elements")?;
                }
                continue;
            }
            let region = self.volumes.get(&entity).copied().unwrap_or(0);
            for _ in 0..n {
                let line = lines.expect("the elements")?;
                let tag = line.fields()[0];
                if ty != 4 {
                    return Err(refuse_type(&line, ty, tag));
                }
                let v = line.exactly::<u64>(5, &format!("element {tag} (tag and 4 nodes)"), false)?;
                mesh.tets.push(self.tet(&line, tag, &v[1..])?);
                mesh.regions.push(region);
            }
        }
        end(lines, "Elements")
    }

    fn elements2(&mut self, lines: &mut Lines, mesh: &mut TetMesh) -> Result<(), MeshError> {
        let head = lines.expect("the element count")?;
        let n = head.exactly::<u64>(1, "the element count", false)?[0];
        for _ in 0..self.count(&head, n, "elements")? {
            let line = lines.expect("the elements")?;
            let v = line.numbers::<i64>("an element (tag type ntags tags... nodes...)")?;
            let tag = line.fields()[0];
            if v.len() < 3 {
                return Err(
                    line.err(format!("element {tag} is too short: `tag type ntags tags... nodes...`"))
                );
            }
            let (ty, ntags) = (v[1] as u32, v[2].max(0) as usize);
            if lower_dimension(ty).is_some() {
                continue;
            }
            if ty != 4 {
                return Err(refuse_type(&line, ty, tag));
            }
            if v.len() != 3 + ntags + 4 {
                return Err(line.err(format!(
                    "element {tag}, a tetrahedron with {ntags} tags, needs {} numbers, the line has {}",
                    3 + ntags + 4,
                    v.len()
                )));
            }
            let nodes: Vec<u64> = v[3 + ntags..].iter().map(|&n| n.max(0) as u64).collect();
            mesh.tets.push(self.tet(&line, tag, &nodes)?);
            mesh.regions.push(if ntags > 0 { v[3] as i32 } else { 0 });
        }
        end(lines, "Elements")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, body: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("fibril-tet-gmsh-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.msh"));
        std::fs::write(&path, body).unwrap();
        path
    }

    const NODES2: &str = "$Nodes\n4\n10 0 0 0\n20 1 0 0\n30 0 1 0\n40 0 0 1\n$EndNodes\n";

    #[test]
    fn version_2_keeps_tetrahedra_with_their_physical_and_skips_the_boundary() {
        let body = format!(
            "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n{NODES2}$Elements\n3\n1 15 2 0 1 10\n2 2 2 3 1 10 20 30\n\
             3 4 2 5 1 10 20 30 40\n$EndElements\n"
        );
        let m = read(&scratch("v2", &body), Some(Units::Um)).unwrap();
        assert_eq!((m.tets, m.regions), (vec![[0, 1, 2, 3]], vec![5]));
        assert_eq!(m.points_mm[1], [1e-3, 0.0, 0.0]);
    }

    #[test]
    fn volume_elements_other_than_linear_tetrahedra_are_refused_by_type() {
        let body = format!(
            "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n{NODES2}$Elements\n1\n7 5 0 10 20 30 40 10 20 30 40\n$EndElements\n"
        );
        let e = read(&scratch("hex", &body), None).unwrap_err().to_string();
        assert!(e.contains("hex.msh, line 13: element 7 is of type 5 (8-node hexahedron)"), "{e}");
        let body = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n\
                    0 1 0\n0 0 1\n$EndNodes\n$Elements\n1 1 1 1\n3 1 11 1\n1 1 2 3 4 1 2 3 4 1 2\n$EndElements\n";
        let e = read(&scratch("tet10", body), None).unwrap_err().to_string();
        assert!(e.contains("line 19: element 1 is of type 11 (10-node second-order tetrahedron)"), "{e}");
    }

    #[test]
    fn binary_files_and_other_versions_are_refused_saying_how_to_save_ascii() {
        let e = read(&scratch("bin", "$MeshFormat\n4.1 1 8\n\x01\0\0\0\n$EndMeshFormat\n"), None);
        let e = e.unwrap_err().to_string();
        assert!(e.contains("a binary Gmsh file") && e.contains("-bin 0"), "{e}");
        let e = read(&scratch("v40", "$MeshFormat\n4 0 8\n$EndMeshFormat\n"), None).unwrap_err().to_string();
        assert!(e.contains("line 2: MSH version 4; fibril reads 4.1 and 2.2"), "{e}");
        let e = read(&scratch("stl", "solid x\n"), None).unwrap_err().to_string();
        assert!(e.contains("not a Gmsh mesh"), "{e}");
    }

    #[test]
    fn an_element_naming_a_missing_node_is_refused_naming_both() {
        let body = format!(
            "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n{NODES2}$Elements\n1\n9 4 0 10 20 30 50\n$EndElements\n"
        );
        let e = read(&scratch("missing", &body), None).unwrap_err().to_string();
        assert!(e.contains("line 13: element 9 names node 50, which $Nodes does not list"), "{e}");
    }

    #[test]
    fn version_4_takes_the_volume_physical_from_the_entities_and_skips_surface_blocks() {
        let body = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n0 0 1 2\n\
                    1 0 0 0 1 1 0 0 0\n\
                    5 0 0 0 1 1 1 2 42 43 1 1\n6 0 0 0 1 1 1 0 1 1\n$EndEntities\n\
                    $Nodes\n2 4 1 8\n2 1 0 1\n1\n0 0 0\n3 5 0 3\n2\n3\n8\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n\
                    $Elements\n3 3 1 3\n2 1 2 1\n1 1 2 3\n3 5 4 1\n2 1 2 3 8\n3 6 4 1\n3 8 3 2 1\n$EndElements\n";
        let m = read(&scratch("v41", body), None).unwrap();
        assert_eq!(m.tets, [[0, 1, 2, 3], [3, 2, 1, 0]]);
        assert_eq!(m.regions, [42, 0], "first physical tag of volume 5; none for volume 6");
    }

    #[test]
    fn partitioned_repeated_and_misplaced_sections_are_refused() {
        let e = read(&scratch("part", "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$PartitionedEntities\n"), None);
        let e = e.unwrap_err().to_string();
        assert!(e.contains("line 4: a partitioned mesh; save it whole"), "{e}");
        let e = read(&scratch("first", "$MeshFormat\n"), None).unwrap_err().to_string();
        assert!(e.contains("the file ends (after line 1) before the format line"), "{e}");
        let twice = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n1 0 0 0\n1 1 0 0\n$EndNodes\n";
        let e = read(&scratch("twice", twice), None).unwrap_err().to_string();
        assert!(e.contains("line 7: node tag 1 appears twice"), "{e}");
        let stray = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n4\n";
        let e = read(&scratch("stray", stray), None).unwrap_err().to_string();
        assert!(e.contains("line 4: \"4\" outside any $Section"), "{e}");
    }
}

//! VTK XML UnstructuredGrid (`.vtu`) of a tetrahedral mesh with node
//! fields, raw appended data, for ParaView (a time series through the
//! `.pvd` collection of [`crate::io::vti::encode_pvd`]).
//!
//! Layout (VTK file formats, "XML File Formats", UnstructuredGrid): the
//! points as Float64 triples, the cells as `connectivity` (Int64, four
//! nodes per tetrahedron), `offsets` (Int64, the end of each cell's
//! nodes) and `types` (UInt8, 10 = VTK_TETRA), point data one value per
//! node. Each appended block is a UInt64 byte count followed by the
//! little-endian values; `offset` counts from the byte after the `_`.
//! Everything is in the file's own node order: fibril's readers give the
//! same mesh back.

use std::io;
use std::path::Path;

use crate::io::atomic::write_atomic;
use crate::io::vti::{CLOSE_APPENDED, VtiArray, open_appended};

/// VTK's cell type of a linear tetrahedron.
const VTK_TETRA: u8 = 10;

/// A mesh as its output files show it: in the file's node order, with
/// where each of the solvers' nodes stands in it.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeMesh {
    /// Node coordinates, mm, in the file's order.
    pub points_mm: Vec<[f64; 3]>,
    /// The tetrahedra, by the file's node numbers.
    pub tets: Vec<[u32; 4]>,
    /// `file_of_node[c]`: the file's number of the solvers' node c.
    pub file_of_node: Vec<u32>,
}

impl NodeMesh {
    pub fn nodes(&self) -> usize {
        self.points_mm.len()
    }

    /// Values of the solvers' nodes (in their order) put in the file's
    /// node order.
    pub fn to_file_order<T: Copy + Default>(&self, values: &[T]) -> Vec<T> {
        assert_eq!(values.len(), self.file_of_node.len(), "one value per node");
        let mut out = vec![T::default(); values.len()];
        for (c, &f) in self.file_of_node.iter().enumerate() {
            out[f as usize] = values[c];
        }
        out
    }
}

/// The bytes of a `.vtu` file of `mesh` with the point arrays `arrays`
/// (one value per node, file order) and `t_ms` as ParaView's `TimeValue`.
pub fn encode(mesh: &NodeMesh, t_ms: f64, arrays: &[VtiArray<'_>]) -> Vec<u8> {
    let (n, cells) = (mesh.nodes(), mesh.tets.len());
    let mut xml = String::new();
    xml.push_str("<?xml version=\"1.0\"?>\n");
    xml.push_str(
        "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n",
    );
    xml.push_str("  <UnstructuredGrid>\n");
    xml.push_str(&format!(
        "    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">{t_ms}</DataArray>\n    </FieldData>\n"
    ));
    xml.push_str(&format!("    <Piece NumberOfPoints=\"{n}\" NumberOfCells=\"{cells}\">\n"));
    let mut offset = 0usize;
    let mut block = |xml: &mut String, ty: &str, name: &str, components: usize, bytes: usize| {
        let comps =
            if components > 1 { format!(" NumberOfComponents=\"{components}\"") } else { String::new() };
        xml.push_str(&format!(
            "        <DataArray type=\"{ty}\" Name=\"{name}\"{comps} format=\"appended\" offset=\"{offset}\"/>\n"
        ));
        offset += 8 + bytes;
    };
    let scalars = arrays.first().map(|a| a.name).unwrap_or("");
    xml.push_str(&format!("      <PointData Scalars=\"{scalars}\">\n"));
    for a in arrays {
        assert_eq!(a.values, n, "array {} has one value per node", a.name);
        block(&mut xml, a.vtk_type, a.name, 1, a.bytes);
    }
    xml.push_str("      </PointData>\n      <CellData>\n      </CellData>\n      <Points>\n");
    block(&mut xml, "Float64", "Points", 3, n * 24);
    xml.push_str("      </Points>\n      <Cells>\n");
    block(&mut xml, "Int64", "connectivity", 1, cells * 32);
    block(&mut xml, "Int64", "offsets", 1, cells * 8);
    block(&mut xml, "UInt8", "types", 1, cells);
    xml.push_str("      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n");
    let mut out = open_appended(xml, offset, arrays);
    out.extend_from_slice(&((n * 24) as u64).to_le_bytes());
    for p in &mesh.points_mm {
        p.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
    }
    out.extend_from_slice(&((cells * 32) as u64).to_le_bytes());
    for t in &mesh.tets {
        t.iter().for_each(|&i| out.extend_from_slice(&(i as i64).to_le_bytes()));
    }
    out.extend_from_slice(&((cells * 8) as u64).to_le_bytes());
    (1..=cells as i64).for_each(|k| out.extend_from_slice(&(4 * k).to_le_bytes()));
    out.extend_from_slice(&(cells as u64).to_le_bytes());
    out.extend(std::iter::repeat_n(VTK_TETRA, cells));
    out.extend_from_slice(CLOSE_APPENDED);
    out
}

/// Writes a `.vtu` file atomically (see [`encode`]).
pub fn write(path: &Path, mesh: &NodeMesh, t_ms: f64, arrays: &[VtiArray<'_>]) -> io::Result<()> {
    write_atomic(path, &encode(mesh, t_ms, arrays))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_tets() -> NodeMesh {
        NodeMesh {
            points_mm: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
                [1.0, 1.0, 1.0],
            ],
            tets: vec![[0, 1, 2, 3], [1, 2, 3, 4]],
            file_of_node: vec![4, 0, 1, 2, 3],
        }
    }

    #[test]
    fn values_go_to_the_files_node_order() {
        let mesh = two_tets();
        assert_eq!(mesh.to_file_order(&[40, 0, 10, 20, 30]), [0, 10, 20, 30, 40]);
    }

    #[test]
    fn the_blocks_follow_one_another_at_their_offsets() {
        let mesh = two_tets();
        let u = [1.0f32, 2.0, 3.0, 4.0, 5.0];
        let bytes = encode(&mesh, 2.5, &[VtiArray::new("V", &u)]);
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("NumberOfPoints=\"5\" NumberOfCells=\"2\""), "{text}");
        assert!(text.contains(">2.5</DataArray>"));
        // V: 8 + 20 bytes; points 8 + 120; connectivity 8 + 64; offsets 8 + 16.
        for (name, offset) in
            [("V", 0), ("Points", 28), ("connectivity", 156), ("offsets", 228), ("types", 252)]
        {
            assert!(text.contains(&format!("Name=\"{name}\"")), "{name}");
            assert!(text.contains(&format!("offset=\"{offset}\"")), "{name} at {offset}");
        }
        let start = bytes.windows(4).position(|w| w == b"   _").unwrap() + 4;
        let data = &bytes[start..];
        assert_eq!(u64::from_le_bytes(data[..8].try_into().unwrap()), 20);
        assert_eq!(f32::from_le_bytes(data[8..12].try_into().unwrap()), 1.0);
        assert_eq!(&data[252 + 8..252 + 10], &[VTK_TETRA, VTK_TETRA]);
    }
}

//! A scalar per node of a mesh, read from a file: a model parameter given
//! per node (a conductance that falls across the wall, say), as the mesh
//! pipelines write them.
//!
//! - `.npy`: float32 or float64, shape `(nodes,)`;
//! - `.vtu`: the point-data array of the field's name (a mesh file itself,
//!   or any `.vtu` of the same points, as ParaView or meshio write one);
//! - `.dat` or `.txt`: one value per node, as openCARP's node data files
//!   (whitespace between values, `#` comments).
//!
//! Values are in the file's node order; the caller reorders them to the
//! solver's.

use std::path::Path;

use crate::io::npy;
use crate::tet::error::MeshError;
use crate::tet::read::text::{file_err, io_err, read_bounded};
use crate::tet::read::vtu;

/// Bytes a value may take in a text file (a float in full, a separator).
const TEXT_BYTES_PER_VALUE: u64 = 40;

/// The field `name` of a mesh of `nodes` nodes from `path`, one value per
/// node in the file's order; a file of another length is refused.
pub fn read_node_field(path: &Path, name: &str, nodes: usize) -> Result<Vec<f64>, MeshError> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let values = match ext.as_deref() {
        Some("npy") => {
            // The dtype and shape are checked before the data is read.
            let h = npy::read_header(path).map_err(io_err(path))?;
            if !matches!(h.descr.as_str(), "<f4" | "<f8") {
                return Err(file_err(path, format!("dtype {}; a node field is float32 or float64", h.descr)));
            }
            if h.shape.len() != 1 {
                return Err(file_err(
                    path,
                    format!("shape {:?}; a node field is one value per node, shape ({nodes},)", h.shape),
                ));
            }
            npy::read(path).map_err(io_err(path))?.values
        }
        Some("vtu") => return vtu::point_scalar(path, name, nodes),
        Some("dat" | "txt") => read_text(path, nodes)?,
        _ => {
            return Err(file_err(
                path,
                "unknown kind of node field; give a .npy (one value per node), a .vtu with a point-data \
                 array of the parameter's name, or a .dat of one value per line",
            ));
        }
    };
    if values.len() != nodes {
        return Err(file_err(
            path,
            format!("{} values, the mesh has {nodes} nodes; give one per node", values.len()),
        ));
    }
    Ok(values)
}

/// Whitespace-separated numbers, `#` to the end of a line a comment.
fn read_text(path: &Path, nodes: usize) -> Result<Vec<f64>, MeshError> {
    let bytes = read_bounded(path, "a node field", TEXT_BYTES_PER_VALUE, |_| Ok(Some(nodes as u64)))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| file_err(path, "not a text file (not UTF-8)"))?;
    let mut values = Vec::with_capacity(nodes);
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        for word in line.split_whitespace() {
            let v = word.parse::<f64>().map_err(|_| MeshError::Line {
                path: path.to_path_buf(),
                line: i + 1,
                problem: format!("{word:?} is not a number"),
            })?;
            values.push(v);
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("fibril-node-field-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn npy_and_text_fields_read_one_value_per_node() {
        let npy_path = scratch("g.npy");
        std::fs::write(&npy_path, npy::encode_shaped(&[3], &[0.5f64, 1.0, 2.0])).unwrap();
        assert_eq!(read_node_field(&npy_path, "g", 3).unwrap(), [0.5, 1.0, 2.0]);
        let e = read_node_field(&npy_path, "g", 4).unwrap_err().to_string();
        assert!(e.contains("3 values, the mesh has 4 nodes; give one per node"), "{e}");
        let flat = scratch("flat.npy");
        std::fs::write(&flat, npy::encode_shaped(&[1, 3], &[0.5f64, 1.0, 2.0])).unwrap();
        let e = read_node_field(&flat, "g", 3).unwrap_err().to_string();
        assert!(e.contains("shape [1, 3]; a node field is one value per node, shape (3,)"), "{e}");
        let dat = scratch("g.dat");
        std::fs::write(&dat, "# g_kr per node\n0.5\n1 # a comment\n2e0\n").unwrap();
        assert_eq!(read_node_field(&dat, "g", 3).unwrap(), [0.5, 1.0, 2.0]);
        std::fs::write(&dat, "0.5\nx\n").unwrap();
        let e = read_node_field(&dat, "g", 2).unwrap_err().to_string();
        assert!(e.contains("line 2: \"x\" is not a number"), "{e}");
        let e = read_node_field(&scratch("g.csv"), "g", 2).unwrap_err().to_string();
        assert!(e.contains("unknown kind of node field"), "{e}");
    }
}

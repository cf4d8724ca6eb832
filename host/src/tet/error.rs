//! Why a mesh was not read or not accepted. Every message names the file
//! and line, or the element or node, and says what to do, because a mesh
//! comes from another tool and the user has to find the fault there.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum MeshError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}, line {line}: {problem}", path.display())]
    Line { path: PathBuf, line: usize, problem: String },
    #[error("{}: {problem}", path.display())]
    File { path: PathBuf, problem: String },
    #[error(
        "{}: no mesh reader for this name; give an openCARP .pts or .elem, a VTK .vtu, a Gmsh .msh or a \
         TetGen .node or .ele file",
        path.display()
    )]
    UnknownFormat { path: PathBuf },
    #[error("the mesh has no {what}; check that the file holds a volume mesh of tetrahedra")]
    Empty { what: &'static str },
    #[error(
        "element {element} (counting from 0) names node {index}, but the mesh has {nodes} nodes \
         (0 to {}); check the node numbering of the element file",
        nodes.saturating_sub(1)
    )]
    NodeOutOfRange { element: usize, index: u32, nodes: usize },
    #[error(
        "node {node} (counting from 0) has a coordinate that is not a finite number ({coords:?}); \
         fix or remove it in the mesh tool"
    )]
    BadCoordinate { node: usize, coords: [f64; 3] },
    #[error(
        "element {element} (counting from 0, nodes {nodes:?}) is flat: its volume is {volume_mm3:e} mm^3, \
         {relative:e} of its longest edge cubed; remesh, or remove the element (repeated or coplanar nodes)"
    )]
    Degenerate { element: usize, nodes: [u32; 4], volume_mm3: f64, relative: f64 },
    #[error(
        "the {what} direction of element {element} (counting from 0) is {value:?}, which has no \
         direction (zero or not a finite number); recompute the {what}s"
    )]
    BadDirection { what: &'static str, element: usize, value: [f64; 3] },
    #[error("{found} {what} for {elements} elements; there must be one per element")]
    CountMismatch { what: &'static str, found: usize, elements: usize },
}

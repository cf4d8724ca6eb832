//! Reading tetrahedral meshes from the files of the tools hearts are
//! meshed with: openCARP, VTK (`.vtu`), Gmsh (`.msh`) and TetGen (as
//! Chaste reads it). [`read_mesh`] picks the reader by the file's name and
//! checks the mesh; the per-format readers return the mesh as the file
//! has it, unchecked.

pub mod carp;
pub mod gmsh;
pub mod tetgen;
mod text;

use std::path::Path;

use crate::tet::check;
use crate::tet::error::MeshError;
use crate::tet::mesh::TetMesh;
use crate::tet::report::MeshReport;
use crate::tet::units::Units;

/// What a file does not say about itself.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The unit of the file's coordinates, where it is not the format's
    /// usual one (openCARP: um; the others: mm).
    pub units: Option<Units>,
    /// The integer cell array of a `.vtu` file that holds the regions,
    /// where it is none of [`vtu::REGION_NAMES`].
    pub region_array: Option<String>,
}

/// The formats, by file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.pts` and `.elem` (and `.lon`) of one base name.
    Carp,
    /// `.msh`, ASCII 4.1 or 2.2.
    Gmsh,
    /// `.node` and `.ele` of one base name.
    Tetgen,
}

impl Format {
    pub fn of(path: &Path) -> Result<Self, MeshError> {
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("pts" | "elem" | "lon") => Ok(Format::Carp),
            Some("node" | "ele") => Ok(Format::Tetgen),
            Some("msh") => Ok(Format::Gmsh),
            _ => Err(MeshError::UnknownFormat { path: path.to_path_buf() }),
        }
    }
}

/// Reads the mesh `path` names, without checking it.
pub fn read_unchecked(path: &Path, options: &ReadOptions) -> Result<TetMesh, MeshError> {
    match Format::of(path)? {
        Format::Carp => carp::read(path, options.units),
        Format::Tetgen => tetgen::read(path, options.units),
        Format::Gmsh => gmsh::read(path, options.units),
    }
}

/// Reads and checks the mesh `path` names (see [`check::check`]): a mesh
/// with a fault that would make the solution wrong is refused, one that
/// is only unusual is described in the report.
pub fn load_mesh(path: &Path, options: &ReadOptions) -> Result<(TetMesh, MeshReport), MeshError> {
    let mut mesh = read_unchecked(path, options)?;
    let report = check::check(&mut mesh)?;
    Ok((mesh, report))
}

/// Reads and checks the mesh `path` names (see [`load_mesh`]).
pub fn read_mesh(path: &Path, options: &ReadOptions) -> Result<TetMesh, MeshError> {
    load_mesh(path, options).map(|(mesh, _)| mesh)
}

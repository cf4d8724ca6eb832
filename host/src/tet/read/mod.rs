//! Reading tetrahedral meshes from the files of the tools hearts are
//! meshed with: openCARP, VTK (`.vtu`), Gmsh (`.msh`) and TetGen (as
//! Chaste reads it). [`read_mesh`] picks the reader by the file's name and
//! checks the mesh; the per-format readers return the mesh as the file
//! has it, unchecked.

pub mod carp;
pub mod gmsh;
pub mod node_field;
pub mod tetgen;
mod text;
pub mod vtu;

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
    /// `.vtu`, VTK XML unstructured grid.
    Vtu,
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
            Some("vtu") => Ok(Format::Vtu),
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
        Format::Vtu => vtu::read(path, options.units, options.region_array.as_deref()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    /// The fixtures: one mesh of two unit boxes (regions 7 and 9) written
    /// by Gmsh, meshio and an openCARP writer (tests/data/meshes/README.md).
    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/meshes").join(name)
    }

    const ALL: [&str; 9] = [
        "two_boxes.pts",
        "two_boxes.elem",
        "two_boxes.node",
        "two_boxes.ele",
        "two_boxes_v22.msh",
        "two_boxes_v41.msh",
        "two_boxes_ascii.vtu",
        "two_boxes_zlib.vtu",
        "two_boxes_raw64.vtu",
    ];

    /// The volume of each region.
    fn region_volumes(mesh: &TetMesh) -> BTreeMap<i32, f64> {
        let mut v = BTreeMap::new();
        for (e, &r) in mesh.regions.iter().enumerate() {
            *v.entry(r).or_insert(0.0) += mesh.signed_volume6(e) / 6.0;
        }
        v
    }

    #[test]
    fn every_format_of_the_fixture_mesh_reads_as_the_same_tet_mesh() {
        let (first, first_report) = load_mesh(&fixture(ALL[0]), &ReadOptions::default()).unwrap();
        for name in ALL {
            let (mesh, report) =
                load_mesh(&fixture(name), &ReadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((report.nodes, report.elements), (78, 200), "{name}");
            assert_eq!(report.pieces, [200], "{name}");
            assert_eq!(report.unused, 0, "{name}");
            approx::assert_relative_eq!(report.volume_mm3, 2.0, epsilon = 1e-9);
            assert_eq!(report.regions, first_report.regions, "{name}");
            let volumes = region_volumes(&mesh);
            assert_eq!(volumes.keys().copied().collect::<Vec<_>>(), [7, 9], "{name}");
            for v in volumes.values() {
                approx::assert_relative_eq!(*v, 1.0, epsilon = 1e-9);
            }
            approx::assert_relative_eq!(report.bbox_mm[1][0], 2.0, epsilon = 1e-9);
            // The same nodes and elements, in the same order, as Gmsh wrote them.
            assert_eq!(mesh.tets, first.tets, "{name}");
            assert_eq!(mesh.regions, first.regions, "{name}");
            for (p, q) in mesh.points_mm.iter().zip(&first.points_mm) {
                for k in 0..3 {
                    approx::assert_abs_diff_eq!(p[k], q[k], epsilon = 1e-6);
                }
            }
            // Fibres and sheets where the format carries them.
            if name.ends_with(".vtu") {
                for (f, g) in mesh.fibres.as_ref().unwrap().iter().zip(first.fibres.as_ref().unwrap()) {
                    for k in 0..3 {
                        approx::assert_abs_diff_eq!(f[k], g[k], epsilon = 1e-6);
                    }
                }
                assert!(mesh.sheets.is_some(), "{name}");
            }
        }
        assert!(first.fibres.is_some() && first.sheets.is_some());
    }

    #[test]
    fn the_fixture_stimulus_lists_the_nodes_of_the_left_face() {
        let (mesh, _) = load_mesh(&fixture("two_boxes.pts"), &ReadOptions::default()).unwrap();
        let nodes = carp::read_vtx(&fixture("two_boxes.vtx")).unwrap();
        assert_eq!(nodes.len(), 12);
        assert!(nodes.iter().all(|&n| mesh.points_mm[n as usize][0] == 0.0));
    }

    #[test]
    fn units_override_the_formats_own() {
        let options = ReadOptions { units: Some(Units::Mm), ..Default::default() };
        let (_, report) = load_mesh(&fixture("two_boxes.pts"), &options).unwrap();
        approx::assert_relative_eq!(report.bbox_mm[1][0], 2000.0, epsilon = 1e-9);
        let options = ReadOptions { units: Some(Units::Cm), ..Default::default() };
        let (_, report) = load_mesh(&fixture("two_boxes_v41.msh"), &options).unwrap();
        approx::assert_relative_eq!(report.volume_mm3, 2000.0, epsilon = 1e-9);
    }

    #[test]
    fn an_unknown_extension_is_refused_listing_the_formats() {
        let e = read_mesh(Path::new("heart.stl"), &ReadOptions::default()).unwrap_err().to_string();
        assert!(e.contains("heart.stl: no mesh reader") && e.contains(".vtu"), "{e}");
    }

    #[test]
    fn read_mesh_checks_what_it_reads() {
        let dir = std::env::temp_dir().join(format!("fibril-tet-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("m.pts"), "4\n0 0 0\n1000 0 0\n0 1000 0\n0 0 1000\n").unwrap();
        std::fs::write(dir.join("m.elem"), "1\nTt 0 1 2 9 1\n").unwrap();
        let e = read_mesh(&dir.join("m.pts"), &ReadOptions::default()).unwrap_err().to_string();
        assert!(e.contains("element 0 (counting from 0) names node 9, but the mesh has 4 nodes"), "{e}");
        std::fs::write(dir.join("m.elem"), "1\nTt 0 2 1 3 1\n").unwrap();
        let (mesh, report) = load_mesh(&dir.join("m.elem"), &ReadOptions::default()).unwrap();
        assert_eq!((mesh.tets[0], report.reoriented), ([0, 2, 3, 1], 1));
    }
}

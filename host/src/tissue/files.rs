//! Geometries and fibre fields from files: a mask or label field from
//! `.npy` (uint8 or bool, shape (nz, ny, nx)) or `.vti` (an integer
//! array, point or cell data), fibres from `.npy` (float, shape (nz, ny,
//! nx, 3) or (nz, ny, nx, 6): fibre then sheet) or a `.vti` vector array
//! of 3 or 6 components. `.npy` files are read by fibril's own reader
//! (`io::npy`): the `ndarray-npy` crate is not among the crates this
//! project can build with, and the reader is a page long.

use std::path::Path;

use kernels_gpu::GridDims;
use thiserror::Error;

use super::conductivity::Fibres;
use crate::io::{npy, vti_read};

/// Why a geometry or fibre file was refused; each message names the file,
/// what it holds and what was expected.
#[derive(Debug, Error)]
pub enum FileError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{path}: {what}")]
    Content { path: String, what: String },
}

/// A label field and what the file says of the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelField {
    pub dims: GridDims,
    /// The grid spacing, when the file has one (`.vti`).
    pub spacing: Option<f64>,
    pub origin: Option<[f64; 3]>,
    /// Row-major, 0 = no tissue.
    pub labels: Vec<u8>,
}

fn kind(path: &Path) -> Option<&str> {
    path.extension().and_then(|e| e.to_str())
}

fn content(path: &Path, what: impl Into<String>) -> FileError {
    FileError::Content { path: path.display().to_string(), what: what.into() }
}

fn read_err(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
    move |source| FileError::Read { path: path.display().to_string(), source }
}

/// The `.vti` array called `name`, or the only array that fits `fits`.
fn pick<'a>(
    path: &Path,
    file: &'a vti_read::VtiFile,
    name: Option<&str>,
    what: &str,
    fits: impl Fn(&vti_read::VtiField) -> bool,
) -> Result<&'a vti_read::VtiField, FileError> {
    let names = || {
        file.fields
            .iter()
            .map(|f| format!("{} ({} x {})", f.name, f.vtk_type, f.components))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match name {
        Some(n) => file.field(n).ok_or_else(|| content(path, format!("no array {n:?}; it has {}", names()))),
        None => {
            let candidates: Vec<_> = file.fields.iter().filter(|f| fits(f)).collect();
            match candidates.as_slice() {
                [one] => Ok(one),
                [] => Err(content(path, format!("no array fits {what}; it has {}", names()))),
                _ => Err(content(path, format!("several arrays fit {what} ({}); name one", names()))),
            }
        }
    }
}

/// The spacing of an image, which must be the same along every axis
/// (fibril's cells are cubes).
fn isotropic_spacing(path: &Path, spacing: [f64; 3], points: [u32; 3]) -> Result<f64, FileError> {
    let used: Vec<f64> = (0..3).filter(|&a| points[a] > 1).map(|a| spacing[a]).collect();
    let h = used.first().copied().unwrap_or(spacing[0]);
    if used.iter().any(|&s| (s - h).abs() > 1e-9 * h.abs()) || !(h > 0.0 && h.is_finite()) {
        return Err(content(
            path,
            format!(
                "spacing {spacing:?} is not the same along every axis; fibril's cells are cubes: resample the \
                 image to one spacing"
            ),
        ));
    }
    Ok(h)
}

/// Reads a mask or label field (`mask_array` names the `.vti` array).
pub fn read_labels(path: &Path, array: Option<&str>) -> Result<LabelField, FileError> {
    let (dims, spacing, origin, values) = match kind(path) {
        Some("npy") => {
            // The dtype and shape are checked before the data is read.
            let h = npy::read_header(path).map_err(read_err(path))?;
            if !matches!(h.descr.as_str(), "|u1" | "|b1") {
                return Err(content(
                    path,
                    format!(
                        "dtype {} for a mask; expected uint8 or bool (0 = no tissue, 1.. = labels)",
                        h.descr
                    ),
                ));
            }
            let [nz, ny, nx] = h.shape[..] else {
                return Err(content(path, format!("shape {:?} for a mask; expected (nz, ny, nx)", h.shape)));
            };
            let [nx, ny, nz] = axes(path, [nx, ny, nz])?;
            let a = npy::read(path).map_err(read_err(path))?;
            (GridDims::new(nx, ny, nz), None, None, a.values)
        }
        Some("vti") => {
            let f = vti_read::read(path).map_err(read_err(path))?;
            let field = pick(path, &f, array, "a mask (one integer component)", |a| {
                a.components == 1 && !a.vtk_type.starts_with("Float")
            })?;
            if field.components != 1 {
                return Err(content(
                    path,
                    format!("array {} has {} components; a mask has 1", field.name, field.components),
                ));
            }
            let [nx, ny, nz] = f.shape_of(field);
            let h = isotropic_spacing(path, f.spacing, f.points)?;
            (GridDims::new(nx, ny, nz), Some(h), Some(f.origin), field.values.clone())
        }
        _ => return Err(content(path, "unknown kind of file; give a .npy or a .vti mask")),
    };
    let mut labels = Vec::with_capacity(values.len());
    for (i, &v) in values.iter().enumerate() {
        if !((0.0..=255.0).contains(&v) && v.fract() == 0.0) {
            return Err(content(
                path,
                format!("value {v} at index {i}; a mask holds labels 0 (no tissue) to 255"),
            ));
        }
        labels.push(v as u8);
    }
    Ok(LabelField { dims, spacing, origin, labels })
}

/// The cells along x, y and z of a `.npy` shape, each an axis fibril can
/// hold (`u32`).
fn axes(path: &Path, n: [usize; 3]) -> Result<[u32; 3], FileError> {
    let mut out = [0u32; 3];
    for (axis, (&n, o)) in ["nx", "ny", "nz"].iter().zip(n.iter().zip(&mut out)) {
        *o = u32::try_from(n)
            .map_err(|_| content(path, format!("{axis} = {n}: an axis holds at most {} cells", u32::MAX)))?;
    }
    Ok(out)
}

/// Refuses fibres of other than 3 or 6 components, or on another grid
/// than the geometry's `dims`.
fn check_fibre_shape(
    path: &Path,
    shape: [u32; 3],
    components: usize,
    dims: GridDims,
) -> Result<(), FileError> {
    if components != 3 && components != 6 {
        return Err(content(
            path,
            format!("{components} components per cell; fibres have 3 (fibre) or 6 (fibre, sheet)"),
        ));
    }
    check_field_shape(path, "fibres", shape, dims)
}

/// Reads a fibre field for a grid of `dims` (3 components: fibre; 6:
/// fibre then sheet), `array` naming the `.vti` array.
pub fn read_fibres(path: &Path, array: Option<&str>, dims: GridDims) -> Result<Fibres, FileError> {
    let (shape, components, values) = match kind(path) {
        Some("npy") => {
            // The dtype and shape are checked before the data is read.
            let h = npy::read_header(path).map_err(read_err(path))?;
            if !matches!(h.descr.as_str(), "<f4" | "<f8") {
                return Err(content(
                    path,
                    format!("dtype {} for fibres; expected float32 or float64", h.descr),
                ));
            }
            let [nz, ny, nx, c] = h.shape[..] else {
                return Err(content(
                    path,
                    format!("shape {:?} for fibres; expected (nz, ny, nx, 3) or (nz, ny, nx, 6)", h.shape),
                ));
            };
            let shape = axes(path, [nx, ny, nz])?;
            check_fibre_shape(path, shape, c, dims)?;
            let a = npy::read(path).map_err(read_err(path))?;
            (shape, c, a.values)
        }
        Some("vti") => {
            let f = vti_read::read(path).map_err(read_err(path))?;
            let field = pick(path, &f, array, "fibres (3 or 6 components)", |a| {
                a.components == 3 || a.components == 6
            })?;
            (f.shape_of(field), field.components, field.values.clone())
        }
        _ => return Err(content(path, "unknown kind of file; give a .npy or a .vti fibre field")),
    };
    check_fibre_shape(path, shape, components, dims)?;
    let vector = |i: usize, first: usize| -> [f32; 3] {
        core::array::from_fn(|k| values[i * components + first + k] as f32)
    };
    let cells = dims.cells();
    Ok(Fibres::PerCell {
        fibre: (0..cells).map(|i| vector(i, 0)).collect(),
        sheet: (components == 6).then(|| (0..cells).map(|i| vector(i, 3)).collect()),
    })
}

/// Reads a scalar field on a grid of `dims` (a parameter given per cell):
/// a `.npy` of float32 or float64, shape (nz, ny, nx), or a `.vti` array
/// of one component (`array` names it), its values as the file has them.
pub fn read_scalar_field(path: &Path, array: Option<&str>, dims: GridDims) -> Result<Vec<f64>, FileError> {
    let (shape, values) = match kind(path) {
        Some("npy") => {
            // The dtype and shape are checked before the data is read.
            let h = npy::read_header(path).map_err(read_err(path))?;
            if !matches!(h.descr.as_str(), "<f4" | "<f8") {
                return Err(content(path, format!("dtype {}; expected float32 or float64", h.descr)));
            }
            let [nz, ny, nx] = h.shape[..] else {
                return Err(content(path, format!("shape {:?}; expected (nz, ny, nx)", h.shape)));
            };
            let shape = axes(path, [nx, ny, nz])?;
            check_field_shape(path, "a field", shape, dims)?;
            (shape, npy::read(path).map_err(read_err(path))?.values)
        }
        Some("vti") => {
            let f = vti_read::read(path).map_err(read_err(path))?;
            let field = pick(path, &f, array, "a scalar field (1 component)", |a| a.components == 1)?;
            if field.components != 1 {
                return Err(content(path, format!("{} components; a scalar field has 1", field.components)));
            }
            (f.shape_of(field), field.values.clone())
        }
        _ => return Err(content(path, "unknown kind of file; give a .npy or a .vti field")),
    };
    check_field_shape(path, "a field", shape, dims)?;
    Ok(values)
}

/// Refuses `what` (fibres, a field) on another grid than the
/// geometry's `dims`.
fn check_field_shape(path: &Path, what: &str, shape: [u32; 3], dims: GridDims) -> Result<(), FileError> {
    if shape != [dims.nx, dims.ny, dims.nz] {
        return Err(content(
            path,
            format!(
                "{what} on a {}x{}x{} grid, the geometry is {}x{}x{} (nx x ny x nz); give {what} on the \
                 geometry's grid",
                shape[0], shape[1], shape[2], dims.nx, dims.ny, dims.nz
            ),
        ));
    }
    Ok(())
}

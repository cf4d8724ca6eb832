//! Model parameters that vary over a tissue or a mesh: a preset and
//! values per region label, any parameter as a per-cell field, resolved
//! into a few distinct parameter sets and a set per cell.
//!
//! Real experiments vary a cell model in space: EPI, M and ENDO cells
//! across the ventricular wall (ten Tusscher & Panfilov 2006, with their
//! presets), an ischaemic or drug-affected region with a conductance
//! scaled, a gradient of a conductance across the wall given as a field.
//! What the user gives is a [`ParameterMap`] ([`spec`]); fibril resolves
//! it against the run's [`ModelSetup`](crate::ModelSetup) and the labels
//! of the tissue (or the mesh's nodes) into [`ParameterSets`] ([`sets`]):
//! each distinct parameter vector once, checked against the model's
//! ranges, and a 16-bit set number per cell. A solver turns the sets into
//! the model's coefficients once ([`coeffs`]) and steps each cell with
//! those of its set (`kernels_gpu::params`), on the CPU and on the GPU
//! alike, so the two agree bit for bit as in a uniform run.
//!
//! - [`spec`]: regions and fields as a run gives them;
//! - [`sets`]: the resolution, its checks and the per-cell set numbers;
//! - [`coeffs`]: the sets as a CPU solver's coefficients;
//! - [`mesh`]: the map over a tetrahedral mesh's nodes (labels from the
//!   elements' tags, fields in the file's node order);
//! - [`device`]: the same on a GPU (the table, the index and any rate
//!   tables uploaded);
//! - [`error`]: why a map was refused ([`ParamsError`]).

pub mod coeffs;
pub mod device;
pub mod error;
pub mod mesh;
pub mod sets;
pub mod spec;

pub use coeffs::CellCoeffs;
pub use error::ParamsError;
pub use mesh::{node_labels, resolve_on_mesh};
pub use sets::{Cells, ParameterSets, grid_cell_name};
pub use spec::{ParameterField, ParameterMap, RegionParameters, field_index};

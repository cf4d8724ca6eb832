//! Real tissue: an irregular geometry (a mask or a label field on the
//! grid), a fibre field and conductivities, turned into the per-cell
//! neighbour weights of the 19-point anisotropic operator
//! (`kernels_gpu::tissue`) once on the host, and the solvers that step
//! them, densely with a mask or compactly (only the tissue cells; Xia et
//! al. 2015, section 3).
//!
//! - [`description`]: the tissue itself (cells, labels, fibres,
//!   conductivities) and its checks, refused with a [`TissueError`]
//!   ([`error`]);
//! - [`conductivity`]: the diffusion tensor of a cell from its fibre (and
//!   sheet) direction;
//! - [`weights`]: the discretisation, the no-flux rule and the stability
//!   limit (Gershgorin);
//! - [`geometry`]: the built-in geometries (slab, ellipsoidal shell,
//!   cylinder with a hole) and their fibres;
//! - [`files`]: masks, labels and fibres from `.npy` and `.vti` files;
//! - [`fibrosis`]: diffuse and patchy fibrosis, seeded, the uncoupled
//!   cells removed from the operator;
//! - [`layout`], [`storage`]: dense or compact, and how a solver stores
//!   the operator ([`TableChoice`]) and names that storage;
//! - [`rows`]: the weights as a solver stores them, each cell's own row
//!   or the distinct rows with a class per cell (chosen automatically);
//! - [`neighbours`]: the compact layout's neighbour table as a solver
//!   stores it, u32 indices or 16-bit offsets (chosen automatically);
//! - [`cpu`], [`gpu`]: the solvers, one per backend, each with both
//!   layouts, made of one domain's fields with their events (the CPU's
//!   `host_fields::HostTissue`, the GPU's in `gpu_fields`); each is the solver
//!   every mesh shares on its device ([`cpu_solver`], [`gpu_solver`],
//!   reading the mesh's cells through `mesh_cells`) with the tissue's
//!   tables and launches; `solving`: what every
//!   tissue solver shares beside (the checks of its inputs, the rest value
//!   outside the tissue, the mask bits over the box);
//! - [`split`], [`split_cpu`], [`split_gpu`]: the tissue split along z
//!   over sub-domains of about equal numbers of tissue cells (several
//!   GPUs), and its solvers, whose parts are those same fields with their
//!   events, one per part, and an exchange of halos: runs of stored cells
//!   ([`halo`]), moved between GPUs by `split_parts` (shared with the
//!   tetrahedral mesh's split); [`cut`]: what a split solver asks of a
//!   mesh cut into parts (scatter, gather, halo runs), which the tissue's
//!   and the tetrahedral mesh's splits implement.

pub mod conductivity;
pub mod cpu;
pub mod cpu_solver;
pub mod cut;
pub mod description;
pub mod error;
pub mod fibrosis;
pub mod files;
pub mod geometry;
pub mod gpu;
pub(crate) mod gpu_fields;
pub mod gpu_solver;
pub mod halo;
pub(crate) mod host_fields;
pub mod layout;
pub mod maps;
pub(crate) mod mesh_cells;
pub mod neighbours;
pub mod rows;
mod solving;
pub mod split;
pub mod split_cpu;
pub mod split_gpu;
pub(crate) mod split_parts;
pub mod split_solver;
pub(crate) mod state_copy;
pub mod storage;
pub mod weights;

pub use conductivity::{Conductivity, Fibres};
pub use description::Tissue;
pub use error::TissueError;
pub use layout::TissueLayout;
pub use neighbours::{NeighbourChoice, NeighbourForm, NeighbourTable};
pub use rows::{WeightChoice, WeightRows};
pub use storage::{TableChoice, storage_name};
pub use weights::Operator;

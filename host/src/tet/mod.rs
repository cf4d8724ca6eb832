//! Tetrahedral meshes: the mesh kind of the hearts modellers bring
//! (openCARP, Chaste, lifex, TorchCor all take them), solved with P1
//! linear finite elements and a lumped mass matrix as in Vasconcellos et
//! al. 2024 (seed 004) and Niederer et al. 2011.

mod adjacency;
pub(crate) mod cells;
pub mod check;
pub mod cpu;
pub mod ecg;
pub mod error;
mod generate;
pub mod gpu;
pub mod gpu_split;
pub mod mesh;
pub mod operator;
mod pieces;
pub mod problem;
pub mod read;
pub mod regions;
pub mod renumber;
pub mod report;
pub mod split;
pub mod units;

pub use cpu::TetCpuSolver;
pub use error::MeshError;
pub use gpu::TetGpuSolver;
pub use gpu_split::TetGpuMultiSolver;
pub use mesh::{TetMesh, Vec3};
pub use operator::{Diffusivity, OperatorError, TetOperator};
pub use problem::{TetProblem, UnstableStep};
pub use read::{ReadOptions, load_mesh, read_mesh};
pub use renumber::{NodeOrder, Renumbering};
pub use report::MeshReport;
pub use split::TetSplit;
pub use units::Units;

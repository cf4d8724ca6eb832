//! Tetrahedral meshes: the mesh kind of the hearts modellers bring
//! (openCARP, Chaste, lifex, TorchCor all take them), solved with P1
//! linear finite elements and a lumped mass matrix as in Vasconcellos et
//! al. 2024 (seed 004) and Niederer et al. 2011.

pub mod mesh;

pub use mesh::{TetMesh, Vec3};

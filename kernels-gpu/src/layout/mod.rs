//! Where each cell lives in memory: the row-major grid and the paper's
//! tower layout, each owning its index arithmetic.

pub mod grid;
pub mod quad;
pub mod tower;

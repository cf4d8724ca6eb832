//! Host-side data layouts: packing row-major fields into the layouts the
//! kernels read, and back ([`tower`]), and splitting a grid's slices over
//! sub-domains with halos ([`zsplit`]).

pub mod tower;
pub mod zsplit;

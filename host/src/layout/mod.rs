//! Host-side data layouts: packing row-major fields into the layouts the
//! kernels read, and back.

pub mod tower;

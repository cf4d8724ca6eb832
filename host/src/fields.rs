//! The state of a simulation on the host: U and v as row-major 3D arrays.

use kernels_gpu::GridDims;
use ndarray::Array3;

use crate::scalar::Scalar;

/// Membrane potential U and recovery variable v, each an `Array3` of shape
/// `(nz, ny, nx)` in standard (C) order, so `u[[z, y, x]]` is cell (x, y, z)
/// and the memory is exactly the row-major layout the kernels use.
#[derive(Clone, Debug, PartialEq)]
pub struct Fields<T> {
    pub u: Array3<T>,
    pub v: Array3<T>,
}

impl<T: Scalar> Fields<T> {
    /// Every cell set by `f(x, y, z) -> (u, v)`.
    pub fn from_fn(dims: GridDims, mut f: impl FnMut(u32, u32, u32) -> (T, T)) -> Self {
        let mut u = Vec::with_capacity(dims.cells());
        let mut v = Vec::with_capacity(dims.cells());
        for z in 0..dims.nz {
            for y in 0..dims.ny {
                for x in 0..dims.nx {
                    let (uc, vc) = f(x, y, z);
                    u.push(uc);
                    v.push(vc);
                }
            }
        }
        Self::from_vecs(dims, u, v)
    }

    /// Wraps row-major buffers of `dims.cells()` values each.
    ///
    /// # Panics
    /// If a buffer has the wrong length (a programming error, not input).
    pub fn from_vecs(dims: GridDims, u: Vec<T>, v: Vec<T>) -> Self {
        let shape = (dims.nz as usize, dims.ny as usize, dims.nx as usize);
        Self {
            u: Array3::from_shape_vec(shape, u).expect("U buffer matches the grid"),
            v: Array3::from_shape_vec(shape, v).expect("v buffer matches the grid"),
        }
    }

    pub fn dims(&self) -> GridDims {
        let (nz, ny, nx) = self.u.dim();
        GridDims::new(nx as u32, ny as u32, nz as u32)
    }

    /// U as a row-major slice.
    pub fn u_slice(&self) -> &[T] {
        self.u.as_slice().expect("fields are kept in standard layout")
    }

    /// v as a row-major slice.
    pub fn v_slice(&self) -> &[T] {
        self.v.as_slice().expect("fields are kept in standard layout")
    }

    /// The same state in another precision (rounded to nearest).
    pub fn convert<S: Scalar>(&self) -> Fields<S> {
        Fields { u: self.u.mapv(|x| S::from_f64(x.to_f64())), v: self.v.mapv(|x| S::from_f64(x.to_f64())) }
    }
}

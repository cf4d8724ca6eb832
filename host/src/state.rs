//! The state of a simulation on the host: one named 3D field per variable
//! of the model.

use kernels_gpu::{GridDims, ModelInfo};
use ndarray::Array3;

use crate::scalar::Scalar;

/// Every variable of a model on a grid, each an `Array3` of shape
/// `(nz, ny, nx)` in standard (C) order, so `var(k)[[z, y, x]]` is cell
/// (x, y, z) and the memory is exactly the row-major layout the kernels
/// use. Variable 0 diffuses (`u`); the names are the model's.
#[derive(Clone, Debug, PartialEq)]
pub struct State<T> {
    model: &'static ModelInfo,
    vars: Vec<Array3<T>>,
}

fn shape(dims: GridDims) -> (usize, usize, usize) {
    (dims.nz as usize, dims.ny as usize, dims.nx as usize)
}

impl<T: Scalar> State<T> {
    /// Every cell set by `f(x, y, z, cell)`, which fills `cell` (one value
    /// per variable, in the model's order).
    pub fn from_fn(
        model: &'static ModelInfo,
        dims: GridDims,
        mut f: impl FnMut(u32, u32, u32, &mut [T]),
    ) -> Self {
        let n = model.variables.len();
        let mut vars: Vec<Vec<T>> = (0..n).map(|_| Vec::with_capacity(dims.cells())).collect();
        let mut cell = vec![T::ZERO; n];
        for z in 0..dims.nz {
            for y in 0..dims.ny {
                for x in 0..dims.nx {
                    f(x, y, z, &mut cell);
                    for (var, &value) in vars.iter_mut().zip(&cell) {
                        var.push(value);
                    }
                }
            }
        }
        Self::from_vecs(model, dims, vars)
    }

    /// Every cell in the state `values` (one per variable, f64).
    pub fn uniform(model: &'static ModelInfo, dims: GridDims, values: &[f64]) -> Self {
        assert_eq!(values.len(), model.variables.len(), "one value per variable");
        let vars = values.iter().map(|&v| Array3::from_elem(shape(dims), T::from_f64(v))).collect();
        Self { model, vars }
    }

    /// Every cell at the model's rest state.
    pub fn rest(model: &'static ModelInfo, dims: GridDims) -> Self {
        let rest: Vec<f64> = model.variables.iter().map(|v| v.rest).collect();
        Self::uniform(model, dims, &rest)
    }

    /// Wraps row-major buffers of `dims.cells()` values, one per variable.
    ///
    /// # Panics
    /// If the count or a length is wrong (a programming error, not input).
    pub fn from_vecs(model: &'static ModelInfo, dims: GridDims, vars: Vec<Vec<T>>) -> Self {
        assert_eq!(vars.len(), model.variables.len(), "one buffer per variable of {}", model.name);
        let vars = vars
            .into_iter()
            .map(|v| Array3::from_shape_vec(shape(dims), v).expect("buffer matches the grid"))
            .collect();
        Self { model, vars }
    }

    pub fn model(&self) -> &'static ModelInfo {
        self.model
    }

    pub fn dims(&self) -> GridDims {
        let (nz, ny, nx) = self.vars[0].dim();
        GridDims::new(nx as u32, ny as u32, nz as u32)
    }

    /// Number of variables.
    pub fn len(&self) -> usize {
        self.vars.len()
    }

    /// Always false: a model has at least one variable.
    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }

    /// The diffusing variable.
    pub fn u(&self) -> &Array3<T> {
        &self.vars[0]
    }

    pub fn u_mut(&mut self) -> &mut Array3<T> {
        &mut self.vars[0]
    }

    /// Variable `k`.
    pub fn var(&self, k: usize) -> &Array3<T> {
        &self.vars[k]
    }

    pub fn var_mut(&mut self, k: usize) -> &mut Array3<T> {
        &mut self.vars[k]
    }

    /// The variable called `name`, if the model has one.
    pub fn by_name(&self, name: &str) -> Option<&Array3<T>> {
        self.model.variable_index(name).map(|k| &self.vars[k])
    }

    pub fn vars(&self) -> &[Array3<T>] {
        &self.vars
    }

    /// Variable `k` as a row-major slice.
    pub fn slice(&self, k: usize) -> &[T] {
        self.vars[k].as_slice().expect("fields are kept in standard layout")
    }

    /// Variable `k` as a writable row-major slice.
    pub fn slice_mut(&mut self, k: usize) -> &mut [T] {
        self.vars[k].as_slice_mut().expect("fields are kept in standard layout")
    }

    /// The same state in another precision (rounded to nearest).
    pub fn convert<S: Scalar>(&self) -> State<S> {
        State {
            model: self.model,
            vars: self.vars.iter().map(|a| a.mapv(|x| S::from_f64(x.to_f64()))).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::CellModel;
    use kernels_gpu::models::Karma;

    #[test]
    fn cells_and_variables_land_where_the_kernels_expect_them() {
        let dims = GridDims::new(3, 2, 4);
        let s = State::<f32>::from_fn(Karma::INFO, dims, |x, y, z, cell| {
            cell[0] = (x + 10 * y + 100 * z) as f32;
            cell[1] = -(x as f32);
        });
        assert_eq!(s.len(), 2);
        assert_eq!(s.dims(), dims);
        assert_eq!(s.slice(0)[dims.index(2, 1, 3)], 312.0);
        assert_eq!(s.u()[[3, 1, 2]], 312.0);
        assert_eq!(s.by_name("v").unwrap()[[0, 0, 2]], -2.0);
        assert!(s.by_name("w").is_none());
        let r = State::<f64>::rest(Karma::INFO, dims);
        assert!(r.vars().iter().all(|a| a.iter().all(|&x| x == 0.0)));
    }
}

//! The coefficients of a solver's stored cells: the model's one set, or
//! a table of sets and the set of each stored cell.

use kernels_gpu::CellModel;
use kernels_gpu::params::ParamSets;

use crate::domain::Domain;
use crate::scalar::Scalar;

/// A solver's coefficients: those every kernel takes by value (the run's
/// own model setup), and where the parameters vary, the coefficients of
/// each set with the set of each stored cell.
pub struct CellCoeffs<M: CellModel, T: Scalar> {
    base: M::Coeffs<T>,
    sets: Option<Sets<M, T>>,
}

/// A table of coefficient sets `C` and the set of each stored cell.
pub type SetsTable<'a, C> = (&'a [C], &'a [u16]);

struct Sets<M: CellModel, T: Scalar> {
    table: Vec<M::Coeffs<T>>,
    /// The set of each stored cell.
    index: Vec<u16>,
}

impl<M: CellModel, T: Scalar> CellCoeffs<M, T> {
    /// The coefficients of the domain's model for `stored` cells, stored
    /// cell `c` being cell (or node) `global(c)` of the domain (`None`:
    /// a cell that is never stepped, such as a halo slice beyond the grid).
    pub fn new(domain: &Domain, stored: usize, global: impl Fn(usize) -> Option<usize>) -> Self {
        let base = domain.model_coeffs::<M, T>();
        let sets = domain.parameter_sets().map(|sets| {
            let dt = domain.dt_ms();
            let of_cell = sets.of_cell();
            Sets {
                table: sets.setups().iter().map(|s| s.coeffs::<M, T>(dt)).collect(),
                index: (0..stored).map(|c| global(c).map_or(0, |g| of_cell[g])).collect(),
            }
        });
        Self { base, sets }
    }

    /// The coefficients passed by value (the run's own model setup).
    pub fn base(&self) -> &M::Coeffs<T> {
        &self.base
    }

    /// The sets' coefficients and the set of each stored cell, where the
    /// parameters vary.
    pub fn table(&self) -> Option<SetsTable<'_, M::Coeffs<T>>> {
        self.sets.as_ref().map(|s| (&s.table[..], &s.index[..]))
    }

    /// The sets as the per-cell step functions read them, at their host
    /// addresses (valid while `self` lives); `None` where nothing varies.
    pub fn host_sets(&self) -> Option<ParamSets> {
        self.sets
            .as_ref()
            .map(|s| ParamSets { table: s.table.as_ptr() as u64, index: s.index.as_ptr() as u64 })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use kernels_gpu::GridDims;
    use kernels_gpu::models::TenTusscher2006;

    use super::*;
    use crate::cell_params::sets::Cells;
    use crate::cell_params::{ParameterMap, ParameterSets, RegionParameters};
    use crate::models::ModelSetup;

    #[test]
    fn stored_cells_read_the_coefficients_of_their_set() {
        let base = ModelSetup::new("ten_tusscher_2006", Some("epi"), &[]).unwrap();
        let map = ParameterMap {
            regions: vec![RegionParameters { label: 2, preset: Some("m".into()), values: vec![] }],
            fields: vec![],
        };
        let labels = [1u8, 2, 0, 2];
        let sets =
            ParameterSets::resolve(&base, &map, (&labels, Cells::Grid), |i| i.to_string()).unwrap().unwrap();
        let domain = Domain::with_own_operator(GridDims::new(4, 1, 1), 0.2, 0.02, 0.1, base.clone())
            .unwrap()
            .with_parameter_sets(Arc::new(sets));
        // Stored cells: the tissue cells 0, 1 and 3 (a compact layout).
        let cells = [0usize, 1, 3];
        let coeffs = CellCoeffs::<TenTusscher2006, f64>::new(&domain, 3, |c| Some(cells[c]));
        let (table, index) = coeffs.table().unwrap();
        assert_eq!(index, &[0, 1, 1]);
        let m = ModelSetup::new("ten_tusscher_2006", Some("m"), &[]).unwrap();
        assert_eq!(table[1], m.coeffs::<TenTusscher2006, f64>(0.02));
        assert_eq!(table[0], *coeffs.base());
        let sets = coeffs.host_sets().unwrap();
        // SAFETY: the sets live in `coeffs`; every index is below 2.
        let second = unsafe { sets.coeffs_of::<TenTusscher2006, f64>(1) };
        assert_eq!(second, table[1]);
        assert_ne!(table[0], table[1]);
    }
}

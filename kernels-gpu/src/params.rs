//! Model parameters that vary over the tissue: a small table of
//! coefficient sets and a set per stored cell.
//!
//! A heterogeneous tissue (EPI, M and ENDO cells across a ventricular
//! wall, a region with a conductance scaled by a drug, a parameter given
//! as a field) has few distinct parameter sets and many cells. The host
//! turns each distinct set into the model's coefficients once (the very
//! `CellModel::coeffs` of a uniform run, so a cell of a set steps with
//! the bits a uniform run of that set would give it) and keeps a 16-bit
//! set number per stored cell. A step then reads 2 bytes per cell more
//! than a uniform run, whatever the number of parameters that vary, and
//! the cells of a warp, which mostly share their set, read its
//! coefficients from the cache. Uniform runs keep their kernels, which
//! take the coefficients by value and read no table.

use crate::model::CellModel;
use crate::real::Real;

/// The most parameter sets a tissue may have (its set numbers are u16).
pub const MAX_SETS: usize = 1 << 16;

/// Where the cells' coefficients are: set `s` of the model's
/// `Coeffs<T>` at `table + s * size_of::<Coeffs<T>>()`, the set of stored
/// cell `c` at `index[c]` (a u16). `#[repr(C)]`: passed by value to the
/// kernels that read it (the `_sets` entry points).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSets {
    /// `*const M::Coeffs<T>`: the sets.
    pub table: u64,
    /// `*const u16`: the set of every stored cell.
    pub index: u64,
}

impl ParamSets {
    /// The coefficients of stored cell `c`.
    ///
    /// # Safety
    /// `index` holds a set number below the table's length for `c`, and
    /// `table` holds that many `M::Coeffs<T>`, aligned for them.
    #[inline(always)]
    pub unsafe fn coeffs_of<M: CellModel, T: Real>(&self, c: usize) -> M::Coeffs<T> {
        // SAFETY: per the contract.
        unsafe {
            let set = *(self.index as *const u16).add(c) as usize;
            *(self.table as *const M::Coeffs<T>).add(set)
        }
    }
}

/// The coefficients a step kernel gives stored cell `c`: `given` (passed
/// by value) for [`Uniform`], its set's in `sets` for [`PerCell`]. The
/// set's are read in place, not copied: a copy of a large model's
/// coefficients (TP06's are about fifty words in f32) is loaded whole into
/// registers at the kernel's start, where the fields read in place are
/// loaded where the step uses them, as a uniform kernel's are.
///
/// # Safety
/// For [`PerCell`], `sets` as [`ParamSets::coeffs_of`] requires for `c`.
#[inline(always)]
pub unsafe fn coeffs_for<'a, M: CellModel, T: Real, P: CoeffsSource>(
    given: &'a M::Coeffs<T>,
    sets: &ParamSets,
    c: usize,
) -> &'a M::Coeffs<T> {
    if P::PER_CELL {
        // SAFETY: per the contract; the table outlives the launch.
        unsafe {
            let set = *(sets.index as *const u16).add(c) as usize;
            &*(sets.table as *const M::Coeffs<T>).add(set)
        }
    } else {
        given
    }
}

/// Where a step kernel takes its coefficients from: the ones passed by
/// value ([`Uniform`]) or the set of each cell ([`PerCell`]). The kernels
/// are generic over it, one entry point each.
pub trait CoeffsSource {
    /// Whether the cells read their set from a [`ParamSets`].
    const PER_CELL: bool;
}

/// Every cell steps with the coefficients passed by value.
pub enum Uniform {}

/// Every cell steps with its own set of a [`ParamSets`].
pub enum PerCell {}

impl CoeffsSource for Uniform {
    const PER_CELL: bool = false;
}

impl CoeffsSource for PerCell {
    const PER_CELL: bool = true;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::Karma;

    #[test]
    fn a_cell_reads_the_coefficients_of_its_set() {
        let base: Vec<f64> = Karma::INFO.parameters.iter().map(|p| p.default).collect();
        let mut other = base.clone();
        other[0] *= 1.5;
        let table = [Karma::coeffs::<f32>(&base, 0.05), Karma::coeffs::<f32>(&other, 0.05)];
        let index: [u16; 3] = [1, 0, 1];
        let sets = ParamSets { table: table.as_ptr() as u64, index: index.as_ptr() as u64 };
        // SAFETY: every set number is below 2, the table's length.
        let got: Vec<_> = (0..3).map(|c| unsafe { sets.coeffs_of::<Karma, f32>(c) }).collect();
        assert_eq!(got, vec![table[1], table[0], table[1]]);
        // SAFETY: as above.
        let given = unsafe { coeffs_for::<Karma, f32, PerCell>(&table[0], &sets, 2) };
        assert_eq!(*given, table[1], "a cell of set 1 reads set 1 in place");
        // SAFETY: Uniform reads no set.
        let uniform = unsafe { coeffs_for::<Karma, f32, Uniform>(&table[0], &sets, 2) };
        assert_eq!(*uniform, table[0]);
        assert_ne!(table[0], table[1], "the sets differ, so the test can tell them apart");
    }
}

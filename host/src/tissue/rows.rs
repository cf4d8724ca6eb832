//! How a tissue solver stores its weights: each stored cell's own row of
//! 18, or each distinct row once with a 16-bit class per stored cell.
//!
//! Most cells share their row with many others: with constant fibres
//! every interior cell has the same 18 weights, with fibres turning
//! through z every cell of a z-plane away from the boundary does, and the
//! boundary cells fall into a few classes. Rows are compared bit for bit
//! after rounding to the run's precision, so a class-indexed step reads
//! exactly the values the per-cell step reads (the same bits, by
//! construction). A step then reads a 2-byte class instead of a 72-byte
//! (f32) row, and the table of distinct rows stays in the caches.

use std::collections::HashMap;

use kernels_gpu::Real;
use kernels_gpu::tissue::{CLASS_ROW, DIRECTIONS};
use rayon::prelude::*;

use super::error::TissueError;
use super::layout::TissueLayout;
use super::weights::Operator;

/// The most classes a 16-bit class index tells apart.
pub const MAX_CLASSES: usize = 1 << 16;

/// Tissue cells deduplicated per parallel task (a task with more distinct
/// rows than [`MAX_CLASSES`] ends the search early).
const CELLS_PER_TASK: usize = 16 * 1024;

/// Which storage of the weights a solver uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeightChoice {
    /// Classes where they take less memory than the per-cell rows (at most
    /// [`MAX_CLASSES`] distinct rows), else per-cell rows.
    #[default]
    Auto,
    /// Each stored cell's own row.
    PerCell,
    /// The distinct rows and a class per stored cell (refused with more
    /// than [`MAX_CLASSES`] distinct rows).
    Classes,
}

/// The weights of a layout as a solver uploads them, in precision `T`.
#[derive(Clone, Debug, PartialEq)]
pub enum WeightRows<T> {
    /// Weight k of stored cell c at `k * stored + c` (0 for a dense
    /// layout's cells outside the tissue).
    PerCell { weights: Vec<T> },
    /// Weight k of row r at `r * CLASS_ROW + k` (each row padded with zeros
    /// to [`CLASS_ROW`] values, so that the GPU reads it with vector
    /// loads); stored cell c has row `class[c]` (0 for a dense layout's
    /// cells outside the tissue, whose row is never read).
    /// `offsets` are each row's neighbour offsets on the box for the dense
    /// kernels (`DenseTissue::offsets`: 0 where the row's weight is 0).
    Classes { table: Vec<T>, rows: u32, class: Vec<u16>, offsets: Vec<i32> },
}

/// What a class-indexed step reads beside the table of rows.
#[derive(Clone, Copy, Debug)]
pub struct ByClass<'a> {
    /// The row of each stored cell.
    pub class: &'a [u16],
    /// Each row's neighbour offsets (`class_offsets`).
    pub offsets: &'a [i32],
}

/// The distinct rows of a tissue's weights in precision `T`, as a solver
/// by class uploads them once, with the class of every tissue cell: what
/// a single domain's [`WeightRows::Classes`] and every part of a split
/// (`super::split::Slab::weight_rows`, the same table for all parts) are
/// made from.
#[derive(Clone, Debug, PartialEq)]
pub struct Classes<T> {
    /// Weight k of row r at `r * CLASS_ROW + k` (padded with zeros).
    pub table: Vec<T>,
    pub rows: u32,
    /// The row of each tissue cell, in the operator's cell order.
    pub tissue: Vec<u16>,
    /// Each row's neighbour offsets on the operator's box
    /// ([`class_offsets`]): they depend on the box's x and y sizes only, so
    /// they serve a dense part of a split (the same slices, fewer of them)
    /// as they serve the whole box.
    pub offsets: Vec<i32>,
}

impl<T: Real + Send + Sync> Classes<T> {
    /// The classes `choice` takes for the tissue of `op` stored in
    /// `layout`, `None` where it takes each cell's own row: classes where
    /// asked for (refused with more than [`MAX_CLASSES`] distinct rows),
    /// or, automatically, where they take less memory than a row per
    /// stored cell of the whole tissue. A split decides as its tissue in
    /// one piece would, so that its parts move the bytes per cell a single
    /// domain moves.
    pub fn chosen(
        op: &Operator,
        layout: TissueLayout,
        choice: WeightChoice,
    ) -> Result<Option<Self>, TissueError> {
        if choice == WeightChoice::PerCell {
            return Ok(None);
        }
        let Some((table, rows, tissue)) = classes::<T>(op) else {
            return match choice {
                WeightChoice::Classes => Err(TissueError::TooManyClasses { max: MAX_CLASSES }),
                _ => Ok(None),
            };
        };
        let stored = match layout {
            TissueLayout::Dense => op.dims.cells(),
            TissueLayout::Compact => op.tissue_cells(),
        };
        if choice == WeightChoice::Auto && !classes_are_smaller(rows as usize, stored, T::BYTES) {
            return Ok(None);
        }
        let offsets = class_offsets(&table, op.dims);
        Ok(Some(Self { table, rows, tissue, offsets }))
    }
}

impl<T: Real + Send + Sync> WeightRows<T> {
    /// The weights of `op` for `layout`, stored as `choice` asks (rounded
    /// once, as [`Operator::compact_weights`] rounds them).
    pub fn build(op: &Operator, layout: TissueLayout, choice: WeightChoice) -> Result<Self, TissueError> {
        let Some(Classes { table, rows, tissue, offsets }) = Classes::chosen(op, layout, choice)? else {
            return Ok(Self::PerCell {
                weights: match layout {
                    TissueLayout::Dense => op.dense_weights::<T>(),
                    TissueLayout::Compact => op.compact_weights::<T>(),
                },
            });
        };
        let class = match layout {
            TissueLayout::Compact => tissue,
            TissueLayout::Dense => {
                let mut class = vec![0u16; op.dims.cells()];
                for (&i, &r) in op.cells.iter().zip(&tissue) {
                    class[i as usize] = r;
                }
                class
            }
        };
        Ok(Self::Classes { table, rows, class, offsets })
    }

    /// What the step functions read: the table of rows (per cell: weight k
    /// of cell c at `k * stored + c`; by class: [`WeightRows::Classes`]), the row of each stored cell (none: stored cell c
    /// is row c) and the number of rows, for a layout of `stored` cells.
    pub fn parts(&self, stored: usize) -> (&[T], Option<ByClass<'_>>, u32) {
        match self {
            Self::PerCell { weights } => (weights, None, stored as u32),
            Self::Classes { table, rows, class, offsets } => (table, Some(ByClass { class, offsets }), *rows),
        }
    }

    /// The number of distinct rows, if the weights are stored by class.
    pub fn classes(&self) -> Option<u32> {
        match self {
            Self::PerCell { .. } => None,
            Self::Classes { rows, .. } => Some(*rows),
        }
    }
}

/// Whether a table of `rows` distinct (padded) rows and a u16 per stored
/// cell take fewer bytes than a row per stored cell.
pub fn classes_are_smaller(rows: usize, stored: usize, bytes_per_value: usize) -> bool {
    (rows * CLASS_ROW * bytes_per_value + 2 * stored) < stored * DIRECTIONS * bytes_per_value
}

/// Each row's neighbour offsets on a box of `dims` (row r's direction k at
/// `r * CLASS_ROW + k`): the index offset of direction k where the row's
/// weight is not 0, else 0 (the cell itself), so that the dense kernels
/// by class add instead of select (`kernels_gpu::tissue::ClassRows`).
pub fn class_offsets<T: Real>(table: &[T], dims: kernels_gpu::GridDims) -> Vec<i32> {
    let lay = kernels_gpu::tissue::DenseTissue { dims, weights: 0, mask: 0, class: 0, rows: 0, offsets: 0 };
    let mut out = vec![0i32; table.len()];
    for (row, weights) in out.chunks_exact_mut(CLASS_ROW).zip(table.chunks_exact(CLASS_ROW)) {
        for k in 0..DIRECTIONS {
            if weights[k] != T::ZERO {
                row[k] = lay.offset(k) as i32;
            }
        }
    }
    out
}

/// A row of weights rounded to `T`, as bit patterns (of the value widened
/// back to f64, which is exact): equal keys, equal bits in `T`.
type RowKey = [u64; DIRECTIONS];

fn row_key<T: Real>(op: &Operator, c: usize) -> RowKey {
    let n = op.tissue_cells();
    core::array::from_fn(|k| T::from_f64(op.weights[k * n + c]).to_f64().to_bits())
}

/// The distinct rows of `op`'s tissue cells in precision `T`, numbered in
/// the order of their first cell: the table (weight k of row r at
/// `r * CLASS_ROW + k`, zeros after the 18th), the number of rows and the row of every tissue cell;
/// `None` with more than [`MAX_CLASSES`] distinct rows.
pub fn classes<T: Real + Send + Sync>(op: &Operator) -> Option<(Vec<T>, u32, Vec<u16>)> {
    let n = op.tissue_cells();
    let tasks = n.div_ceil(CELLS_PER_TASK);
    // Tasks run in batches so that a tissue whose rows do not repeat is
    // given up after a batch, not after hashing every cell.
    let batch = (4 * rayon::current_num_threads()).max(1);
    let mut global: HashMap<RowKey, u16> = HashMap::new();
    let mut keys: Vec<RowKey> = Vec::new();
    let mut class = vec![0u16; n];
    for first in (0..tasks).step_by(batch) {
        let locals: Vec<Option<(Vec<RowKey>, Vec<u16>)>> = (first..(first + batch).min(tasks))
            .into_par_iter()
            .map(|task| {
                let cells = task * CELLS_PER_TASK..((task + 1) * CELLS_PER_TASK).min(n);
                let mut seen: HashMap<RowKey, u16> = HashMap::new();
                let mut distinct = Vec::new();
                let mut local = Vec::with_capacity(cells.len());
                for c in cells {
                    let key = row_key::<T>(op, c);
                    let next = distinct.len();
                    let id = *seen.entry(key).or_insert_with(|| {
                        distinct.push(key);
                        next as u16
                    });
                    if distinct.len() > MAX_CLASSES {
                        return None;
                    }
                    local.push(id);
                }
                Some((distinct, local))
            })
            .collect();
        for (task, found) in (first..).zip(locals) {
            let (distinct, local) = found?;
            let mut to_global = Vec::with_capacity(distinct.len());
            for key in distinct {
                let next = keys.len();
                if next == MAX_CLASSES && !global.contains_key(&key) {
                    return None;
                }
                to_global.push(*global.entry(key).or_insert_with(|| {
                    keys.push(key);
                    next as u16
                }));
            }
            let start = task * CELLS_PER_TASK;
            for (slot, id) in class[start..start + local.len()].iter_mut().zip(local) {
                *slot = to_global[id as usize];
            }
        }
    }
    let rows = keys.len();
    let mut table = vec![T::ZERO; CLASS_ROW * rows];
    for (row, key) in table.chunks_exact_mut(CLASS_ROW).zip(&keys) {
        for (w, bits) in row.iter_mut().zip(key) {
            *w = T::from_f64(f64::from_bits(*bits));
        }
    }
    Some((table, rows as u32, class))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tissue::geometry::{cylinder, slab};
    use crate::tissue::{Conductivity, Fibres, Tissue};
    use kernels_gpu::GridDims;

    fn anisotropic() -> Conductivity {
        Conductivity { fibre: 1.0, cross: 0.25, sheet: None }
    }

    /// Every stored cell's row through its class equals its own row, bit
    /// for bit.
    fn same_rows<T: Real + Send + Sync + core::fmt::Debug>(op: &Operator, layout: TissueLayout) -> u32 {
        let WeightRows::PerCell { weights } =
            WeightRows::<T>::build(op, layout, WeightChoice::PerCell).unwrap()
        else {
            panic!("per-cell rows asked for")
        };
        let WeightRows::Classes { table, rows, class, offsets } =
            WeightRows::<T>::build(op, layout, WeightChoice::Classes).unwrap()
        else {
            panic!("classes asked for")
        };
        let stored = class.len();
        assert_eq!(weights.len(), DIRECTIONS * stored);
        let mask = op.mask();
        for c in 0..stored {
            let tissue = layout == TissueLayout::Compact || mask[c] != 0;
            if !tissue {
                continue;
            }
            for k in 0..DIRECTIONS {
                let own = weights[k * stored + c].to_f64().to_bits();
                let by_class = table[class[c] as usize * CLASS_ROW + k].to_f64().to_bits();
                assert_eq!(own, by_class, "{layout:?} cell {c} direction {k}");
                // The dense kernels' offsets: the neighbour where coupled,
                // the cell itself where not.
                let offset = offsets[class[c] as usize * CLASS_ROW + k];
                let o = kernels_gpu::tissue::OFFSETS[k];
                let step = o[0] + o[1] * op.dims.nx as i32 + o[2] * (op.dims.nx * op.dims.ny) as i32;
                assert_eq!(offset, if own == 0.0f64.to_bits() { 0 } else { step }, "cell {c} direction {k}");
            }
        }
        rows
    }

    #[test]
    fn slab_rows_repeat_per_z_plane_and_read_the_same_bits() {
        // Fibres turning through z: the rows of a plane are its interior
        // row and a few boundary ones.
        let dims = GridDims::new(11, 9, 7);
        let op = Operator::build(&slab(dims, 0.5, [-60.0, 60.0], anisotropic())).unwrap();
        for layout in [TissueLayout::Dense, TissueLayout::Compact] {
            let rows = same_rows::<f32>(&op, layout);
            // 3 x 3 positions in x and y (low face, interior, high face) per plane.
            assert!(rows <= 9 * dims.nz, "{rows} rows");
            assert!(rows > dims.nz, "{rows} rows: the plane's rows differ through z");
            same_rows::<f64>(&op, layout);
        }
    }

    #[test]
    fn irregular_constant_fibre_tissue_has_few_classes() {
        let dims = GridDims::new(23, 19, 6);
        let t = cylinder(dims, 0.5, 1.2, [1.0, 1.0, 0.3], anisotropic());
        let op = Operator::build(&t).unwrap();
        for layout in [TissueLayout::Dense, TissueLayout::Compact] {
            let rows = same_rows::<f32>(&op, layout) as usize;
            assert!(rows < op.tissue_cells() / 4, "{rows} rows for {} cells", op.tissue_cells());
            same_rows::<f64>(&op, layout);
        }
    }

    #[test]
    fn auto_takes_classes_where_rows_repeat_and_own_rows_where_they_do_not() {
        let dims = GridDims::new(9, 8, 7);
        let repeat = Operator::build(&Tissue::box_of(dims, 0.5, Fibres::ALONG_X, anisotropic())).unwrap();
        let auto = WeightRows::<f32>::build(&repeat, TissueLayout::Compact, WeightChoice::Auto).unwrap();
        // 3 positions per axis: 27 distinct rows.
        assert_eq!(auto.classes(), Some(27));
        let name = crate::tissue::storage_name(TissueLayout::Compact, auto.classes(), None);
        assert_eq!(name, "compact-classes (27 rows)");
        // Fibres of every cell different: every row its own.
        let fibre =
            (0..dims.cells()).map(|i| [1.0, (i % 97) as f32 * 0.013, (i % 89) as f32 * -0.011]).collect();
        let t = Tissue::box_of(dims, 0.5, Fibres::PerCell { fibre, sheet: None }, anisotropic());
        let unique = Operator::build(&t).unwrap();
        let auto = WeightRows::<f32>::build(&unique, TissueLayout::Compact, WeightChoice::Auto).unwrap();
        assert_eq!(auto.classes(), None);
        assert_eq!(crate::tissue::storage_name(TissueLayout::Compact, auto.classes(), None), "compact");
        // Forced, the classes are as many as the cells, and still the same bits.
        same_rows::<f32>(&unique, TissueLayout::Dense);
    }

    #[test]
    fn more_than_65536_distinct_rows_fall_back_or_are_refused() {
        let dims = GridDims::new(48, 48, 32);
        let fibre = (0..dims.cells()).map(|i| [1.0, i as f32 * 1e-5, 0.5]).collect();
        let t = Tissue::box_of(dims, 0.5, Fibres::PerCell { fibre, sheet: None }, anisotropic());
        let op = Operator::build(&t).unwrap();
        assert!(classes::<f64>(&op).is_none());
        let auto = WeightRows::<f64>::build(&op, TissueLayout::Dense, WeightChoice::Auto).unwrap();
        assert_eq!(auto.classes(), None);
        let e = WeightRows::<f64>::build(&op, TissueLayout::Dense, WeightChoice::Classes).unwrap_err();
        assert!(e.to_string().contains("65536") && e.to_string().contains("per-cell"), "{e}");
    }

    #[test]
    fn classes_are_smaller_only_when_rows_repeat() {
        assert!(classes_are_smaller(100, 10_000, 4));
        assert!(!classes_are_smaller(10_000, 10_000, 4));
        // Padded class rows of 20 values against per-cell rows of 18:
        // 8,900 x 160 + 20,000 bytes is more than 10,000 x 144.
        assert!(!classes_are_smaller(8_900, 10_000, 8));
        assert!(classes_are_smaller(8_500, 10_000, 8));
    }
}

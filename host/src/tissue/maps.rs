//! Fields and maps between the box (what files and the run loop see) and
//! a tissue solver's stored cells (the box, or only the tissue cells).
//!
//! Outside the tissue a state holds NaN in every variable and a map NaN
//! (never activated), whatever the layout keeps there, so that `.npy` and
//! `.vti` files show the geometry (NaN is "no data" to numpy and
//! ParaView) and PNG pictures draw it grey.

use std::ops::Range;

use kernels_gpu::{GridDims, ModelInfo};

use kernels_gpu::events::SlicePlacement;

use crate::events::recording::Maps;
use crate::events::stimulus::Stimulus;
use crate::scalar::Scalar;
use crate::state::State;

use super::layout::TissueLayout;
use super::weights::Operator;

/// Which box cell each stored cell is, and which box cells are tissue.
#[derive(Clone, Debug)]
pub struct Storage {
    pub layout: TissueLayout,
    pub dims: GridDims,
    /// Box index of each tissue cell (ascending).
    pub cells: Vec<u32>,
    /// 1 for a tissue cell, row-major over the box.
    pub mask: Vec<u8>,
}

impl Storage {
    pub fn new(op: &Operator, layout: TissueLayout) -> Self {
        Self { layout, dims: op.dims, cells: op.cells.clone(), mask: op.mask() }
    }

    /// Number of stored cells.
    pub fn stored(&self) -> usize {
        match self.layout {
            TissueLayout::Dense => self.dims.cells(),
            TissueLayout::Compact => self.cells.len(),
        }
    }

    /// The box index of stored cell `c`.
    pub fn box_index(&self, c: usize) -> usize {
        match self.layout {
            TissueLayout::Dense => c,
            TissueLayout::Compact => self.cells[c] as usize,
        }
    }

    /// The run of stored cells a stimulus may touch (those of the slices
    /// of its bounding box), if any: a list, as a part of a split has.
    pub fn stimulus_ranges(&self, s: &Stimulus) -> Vec<Range<u32>> {
        let Some((origin, extent)) = s.local_box(self.dims, self.dims, SlicePlacement::whole(self.dims.nz))
        else {
            return Vec::new();
        };
        let slice = self.dims.slice_cells();
        let (lo, hi) = (origin.nz as usize * slice, (origin.nz + extent.nz) as usize * slice);
        let (first, end) = match self.layout {
            TissueLayout::Dense => (lo, hi),
            TissueLayout::Compact => (
                self.cells.partition_point(|&i| (i as usize) < lo),
                self.cells.partition_point(|&i| (i as usize) < hi),
            ),
        };
        (first < end).then_some(first as u32..end as u32).into_iter().collect()
    }

    /// The box index table a kernel reads (0 for the dense layout, whose
    /// stored cells are the box's).
    pub fn index_address(&self) -> u64 {
        match self.layout {
            TissueLayout::Dense => 0,
            TissueLayout::Compact => self.cells.as_ptr() as u64,
        }
    }

    /// A box field from the stored values of one variable: NaN outside the tissue.
    pub fn to_box<T: Scalar>(&self, stored: &[T]) -> Vec<T> {
        self.to_box_or(stored, T::NAN)
    }

    /// A box field from the stored values of one variable, `outside`
    /// outside the tissue (the model's rest for the pseudo-ECG, which sums
    /// over the whole box).
    pub fn to_box_or<T: Scalar>(&self, stored: &[T], outside: T) -> Vec<T> {
        assert_eq!(stored.len(), self.stored(), "one value per stored cell");
        match self.layout {
            TissueLayout::Dense => {
                stored.iter().zip(&self.mask).map(|(&v, &m)| if m != 0 { v } else { outside }).collect()
            }
            TissueLayout::Compact => {
                let mut out = vec![outside; self.dims.cells()];
                for (&i, &v) in self.cells.iter().zip(stored) {
                    out[i as usize] = v;
                }
                out
            }
        }
    }

    /// The stored values of a box field; cells outside the tissue of a
    /// dense layout take `outside` (they are never read by a step, but
    /// stay finite for the NaN check).
    pub fn from_box<T: Scalar>(&self, field: &[T], outside: T) -> Vec<T> {
        assert_eq!(field.len(), self.dims.cells(), "one value per box cell");
        match self.layout {
            TissueLayout::Dense => {
                field.iter().zip(&self.mask).map(|(&v, &m)| if m != 0 { v } else { outside }).collect()
            }
            TissueLayout::Compact => self.cells.iter().map(|&i| field[i as usize]).collect(),
        }
    }

    /// The state of the box from the stored variables, NaN outside the tissue.
    pub fn state<T: Scalar>(&self, model: &'static ModelInfo, vars: &[&[T]]) -> State<T> {
        State::from_vecs(model, self.dims, vars.iter().map(|v| self.to_box(v)).collect())
    }

    /// The stored variables of a box state (outside cells at the model's rest).
    pub fn vars<T: Scalar>(&self, state: &State<T>) -> Vec<Vec<T>> {
        let model = state.model();
        (0..state.len())
            .map(|k| self.from_box(state.slice(k), T::from_f64(model.variables[k].rest)))
            .collect()
    }

    /// Maps over the stored cells from the box's.
    pub fn maps_from_box(&self, maps: &Maps) -> Maps {
        assert_eq!(maps.dims, self.dims, "maps of the box");
        let stored = GridDims::new(self.stored() as u32, 1, 1);
        let slots = maps.recording.slots();
        let cells = self.dims.cells();
        let pick = |field: &[f32]| -> Vec<f32> {
            (0..slots)
                .flat_map(|s| (0..self.stored()).map(move |c| (s, c)))
                .map(|(s, c)| field[s * cells + self.box_index(c)])
                .collect()
        };
        Maps {
            recording: maps.recording,
            dims: stored,
            activation: pick(&maps.activation),
            repolarisation: maps.repolarisation.as_deref().map(pick),
            count: maps.count.as_ref().map(|n| (0..self.stored()).map(|c| n[self.box_index(c)]).collect()),
        }
    }

    /// Maps of the box from the stored cells': NaN (and no activation)
    /// outside the tissue.
    pub fn maps_to_box(&self, maps: &Maps) -> Maps {
        let slots = maps.recording.slots();
        let (cells, stored) = (self.dims.cells(), self.stored());
        assert_eq!(maps.dims.cells(), stored, "maps of the stored cells");
        let spread = |field: &[f32]| -> Vec<f32> {
            let mut out = vec![f32::NAN; slots * cells];
            for s in 0..slots {
                for c in 0..stored {
                    let i = self.box_index(c);
                    if self.mask[i] != 0 {
                        out[s * cells + i] = field[s * stored + c];
                    }
                }
            }
            out
        };
        let count = maps.count.as_ref().map(|n| {
            let mut out = vec![0u32; cells];
            for (c, &v) in n.iter().enumerate() {
                let i = self.box_index(c);
                if self.mask[i] != 0 {
                    out[i] = v;
                }
            }
            out
        });
        Maps {
            recording: maps.recording,
            dims: self.dims,
            activation: spread(&maps.activation),
            repolarisation: maps.repolarisation.as_deref().map(spread),
            count,
        }
    }
}

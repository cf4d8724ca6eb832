//! The cells a stimulus covers: the shapes a configuration names
//! ([`RegionKind`]) and the cells of one on a grid ([`Region`]: a box, a
//! ball or the set cells of a mask file), with their bounding box, count
//! and emptiness computed without visiting a grid's cells where that can
//! be avoided.

use kernels_gpu::GridDims;
use kernels_gpu::events::{
    REGION_BOX, REGION_MASK, REGION_SPHERE, SlicePlacement, StimulusArgs, StimulusMode,
};
use kernels_gpu::model::MAX_CARRIERS;
use serde::{Deserialize, Serialize};

use crate::scalar::Scalar;
use crate::state::State;

/// The shapes a stimulus can take, as written in a configuration file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RegionKind {
    /// The paper's planar S1 slab (eq. 7): z <= 0.05 nz, all x and y (y in
    /// a sheet, x in a cable).
    Planar,
    /// An axis-aligned box in cells (inclusive bounds).
    Box,
    /// A ball in cells.
    Sphere,
    /// The cross-field S2 of eq. 9, generalised: fractions of the grid in x
    /// and z, all y (in a sheet: x and y).
    CrossField,
    /// The cells where an `.npy` mask of the grid's shape is not zero.
    Mask,
}

impl RegionKind {
    pub const fn name(self) -> &'static str {
        match self {
            RegionKind::Planar => "planar",
            RegionKind::Box => "box",
            RegionKind::Sphere => "sphere",
            RegionKind::CrossField => "cross-field",
            RegionKind::Mask => "mask",
        }
    }
}

/// The cells a stimulus covers.
#[derive(Clone, Debug, PartialEq)]
pub enum Region {
    /// `lo <= index < hi` on each axis (half-open, already clipped to the grid).
    Cells { lo: [u32; 3], hi: [u32; 3] },
    /// Cells whose centre is within `radius` (cells) of `center` (cells).
    Sphere { center: [f64; 3], radius: f64 },
    /// The cells of a mask of the whole grid.
    Mask(std::sync::Arc<Mask>),
}

/// A set of cells of a grid: one bit per cell, row-major (bit i % 32 of
/// word i / 32), and the bounding box of the set cells (half-open).
#[derive(Clone, Debug, PartialEq)]
pub struct Mask {
    pub dims: GridDims,
    pub bits: Vec<u32>,
    pub lo: [u32; 3],
    pub hi: [u32; 3],
    pub count: u64,
}

impl Mask {
    /// The cells of `dims` where `values` (row-major) is not zero.
    pub fn from_values(dims: GridDims, values: &[f64]) -> Self {
        assert_eq!(values.len(), dims.cells(), "one value per cell");
        let mut bits = vec![0u32; dims.cells().div_ceil(32)];
        let (mut lo, mut hi, mut count) = ([u32::MAX; 3], [0u32; 3], 0);
        for (i, &v) in values.iter().enumerate() {
            if v != 0.0 {
                bits[i / 32] |= 1 << (i % 32);
                let c = [
                    (i % dims.nx as usize) as u32,
                    ((i / dims.nx as usize) % dims.ny as usize) as u32,
                    (i / dims.slice_cells()) as u32,
                ];
                for a in 0..3 {
                    lo[a] = lo[a].min(c[a]);
                    hi[a] = hi[a].max(c[a] + 1);
                }
                count += 1;
            }
        }
        if count == 0 {
            (lo, hi) = ([0; 3], [0; 3]);
        }
        Self { dims, bits, lo, hi, count }
    }

    pub fn get(&self, x: u32, y: u32, z: u32) -> bool {
        let i = self.dims.index(x, y, z);
        self.bits[i / 32] & (1 << (i % 32)) != 0
    }

    /// The bits of a buffer of `local` cells placed in the grid by `place`
    /// (a sub-domain with its halo slices, or the whole grid), indexed by
    /// the buffer's cells, as the stimulus routine reads them.
    pub fn local_bits(&self, local: GridDims, place: SlicePlacement) -> Vec<u32> {
        let mut bits = vec![0u32; local.cells().div_ceil(32)];
        for z in 0..local.nz {
            let g = place.global_z(z);
            for y in 0..local.ny {
                for x in 0..local.nx {
                    if self.get(x, y, g) {
                        let i = local.index(x, y, z);
                        bits[i / 32] |= 1 << (i % 32);
                    }
                }
            }
        }
        bits
    }
}

impl Region {
    /// The bounding box, half-open and clipped to `dims`.
    pub(super) fn bounds(&self, dims: GridDims) -> ([u32; 3], [u32; 3]) {
        let n = [dims.nx, dims.ny, dims.nz];
        match self {
            Region::Cells { lo, hi } => (*lo, *hi),
            Region::Mask(mask) => (mask.lo, mask.hi),
            Region::Sphere { center, radius } => {
                let mut lo = [0; 3];
                let mut hi = [0; 3];
                for a in 0..3 {
                    let l = (center[a] - radius).ceil().max(0.0);
                    let h = (center[a] + radius).floor() + 1.0;
                    lo[a] = (l.min(n[a] as f64)) as u32;
                    hi[a] = (h.clamp(0.0, n[a] as f64)) as u32;
                }
                (lo, hi)
            }
        }
    }

    fn contains(&self, x: u32, y: u32, z: u32) -> bool {
        match self {
            Region::Cells { .. } => true,
            Region::Mask(mask) => mask.get(x, y, z),
            Region::Sphere { center, radius } => {
                let d = [x as f64 - center[0], y as f64 - center[1], z as f64 - center[2]];
                d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= radius * radius
            }
        }
    }

    /// Calls `f(index)` for every cell of the region, in row-major order.
    pub fn for_each_cell(&self, dims: GridDims, mut f: impl FnMut(usize)) {
        let (lo, hi) = self.bounds(dims);
        for z in lo[2]..hi[2] {
            for y in lo[1]..hi[1] {
                for x in lo[0]..hi[0] {
                    if self.contains(x, y, z) {
                        f(dims.index(x, y, z));
                    }
                }
            }
        }
    }

    /// Whether the region covers no cell, in constant time (a region of a
    /// grid of billions of cells is checked before the memory check
    /// refuses the grid, so it must not visit them).
    pub fn is_empty(&self, dims: GridDims) -> bool {
        let (lo, hi) = self.bounds(dims);
        if (0..3).any(|a| lo[a] >= hi[a]) {
            return true;
        }
        match self {
            Region::Cells { .. } => false,
            Region::Mask(mask) => mask.count == 0,
            // The cell of the bounding box nearest the centre, axis by axis,
            // is the nearest of all: the ball holds a cell iff it holds that one.
            Region::Sphere { center, .. } => {
                let nearest = |a: usize| center[a].round().clamp(lo[a] as f64, (hi[a] - 1) as f64) as u32;
                !self.contains(nearest(0), nearest(1), nearest(2))
            }
        }
    }

    /// Number of cells covered.
    pub fn cell_count(&self, dims: GridDims) -> u64 {
        let (lo, hi) = self.bounds(dims);
        match self {
            Region::Cells { .. } => (0..3).map(|a| u64::from(hi[a].saturating_sub(lo[a]))).product(),
            Region::Mask(mask) => mask.count,
            Region::Sphere { .. } => {
                let mut n = 0;
                self.for_each_cell(dims, |_| n += 1);
                n
            }
        }
    }

    /// Sets variable 0 to `value` in the region.
    pub fn apply<T: Scalar>(&self, state: &mut State<T>, value: T) {
        let dims = state.dims();
        let u = state.slice_mut(0);
        self.for_each_cell(dims, |i| u[i] = value);
    }

    /// The region as the stimulus routine of `kernels_gpu::events` takes it.
    pub(super) fn args<T: Scalar>(&self, dims: GridDims) -> StimulusArgs<T> {
        let (lo, hi) = self.bounds(dims);
        let (kind, center, radius2) = match self {
            Region::Cells { .. } => (REGION_BOX, [0.0; 3], 0.0),
            Region::Sphere { center, radius } => (REGION_SPHERE, *center, radius * radius),
            // The bits' address is the buffer's own (`Mask::local_bits`).
            Region::Mask(_) => (REGION_MASK, [0.0; 3], 0.0),
        };
        StimulusArgs {
            lo,
            hi,
            kind,
            mode: StimulusMode::Set as u32,
            center,
            radius2,
            mask: 0,
            amount: T::ZERO,
            carriers: [0; MAX_CARRIERS],
            carries: [0; MAX_CARRIERS],
            carrier_cells: 0,
            carrier_step: 1,
            carried: [T::ZERO; MAX_CARRIERS],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::events::Recorder;

    use crate::events::stimulus::schedule::apply_to_buffer;
    use crate::events::stimulus::spec::StimulusSpec;
    use crate::events::stimulus::testing::{DT, cells_of, compile};

    #[test]
    fn emptiness_in_constant_time_agrees_with_counting() {
        let dims = GridDims::new(7, 5, 4);
        let mut seen = [0, 0];
        for cx in [-3.0, -0.6, 0.0, 2.5, 6.4, 7.6, 10.0] {
            for cy in [-1.2, 2.0, 4.5, 6.0] {
                for r in [0.3, 0.5, 0.8, 1.5, 3.0] {
                    let sphere = Region::Sphere { center: [cx, cy, 1.5], radius: r };
                    let empty = sphere.cell_count(dims) == 0;
                    assert_eq!(sphere.is_empty(dims), empty, "{sphere:?}");
                    seen[usize::from(empty)] += 1;
                }
            }
        }
        assert!(seen[0] > 10 && seen[1] > 10, "both cases covered: {seen:?}");
        let cells = Region::Cells { lo: [2, 0, 1], hi: [5, 5, 4] };
        assert_eq!((cells.is_empty(dims), cells.cell_count(dims)), (false, 45));
        assert!(Region::Cells { lo: [2, 3, 1], hi: [5, 3, 4] }.is_empty(dims));
    }

    #[test]
    fn box_bounds_are_inclusive_and_clipped() {
        let dims = GridDims::new(10, 8, 6);
        let mut spec = StimulusSpec::new(RegionKind::Box, 0.0);
        spec.x = Some([2, 3]);
        spec.z = Some([4, 100]);
        let s = compile(&spec, dims).unwrap();
        let cells = cells_of(&s, dims);
        assert_eq!(cells.len(), 2 * 8 * 2);
        assert!(cells.iter().all(|&(x, _, z)| (2..=3).contains(&x) && (4..=5).contains(&z)));
        // A last cell at the type's limit spans to the end of the axis.
        spec.z = Some([4, u32::MAX]);
        assert_eq!(cells_of(&compile(&spec, dims).unwrap(), dims).len(), 2 * 8 * 2);
    }

    #[test]
    fn sphere_holds_the_cells_within_the_radius() {
        let dims = GridDims::new(9, 9, 9);
        let mut spec = StimulusSpec::new(RegionKind::Sphere, 0.0);
        spec.center = Some([4.0, 4.0, 4.0]);
        spec.radius = Some(1.0);
        let s = compile(&spec, dims).unwrap();
        let mut cells = cells_of(&s, dims);
        cells.sort();
        // The centre and its six face neighbours.
        assert_eq!(cells, vec![(3, 4, 4), (4, 3, 4), (4, 4, 3), (4, 4, 4), (4, 4, 5), (4, 5, 4), (5, 4, 4)]);
        // A sphere in a corner is clipped, not refused.
        spec.center = Some([0.0, 0.0, 0.0]);
        spec.radius = Some(1.5);
        let s = compile(&spec, dims).unwrap();
        assert_eq!(s.region.cell_count(dims), 7); // (0,0,0), 3 faces, 3 edges
    }

    /// A mask of a sphere's cells stimulates exactly those cells, also on
    /// a sub-domain's buffer with halo slices; a mask of the wrong shape is
    /// refused naming the shape wanted.
    #[test]
    fn a_mask_region_is_the_cells_of_its_file() {
        let dims = GridDims::new(9, 8, 7);
        let mut sphere = StimulusSpec::new(RegionKind::Sphere, 0.0);
        sphere.center = Some([4.0, 3.0, 2.0]);
        sphere.radius = Some(2.5);
        let s = compile(&sphere, dims).unwrap();
        let cells = cells_of(&s, dims);
        let mut values = vec![0.0f32; dims.cells()];
        for &(x, y, z) in &cells {
            values[dims.index(x, y, z)] = 1.0;
        }
        let path = std::env::temp_dir().join(format!("fibril-mask-{}.npy", std::process::id()));
        std::fs::write(&path, crate::io::npy::encode_shaped(&[7, 8, 9], &values)).unwrap();
        let mut spec = StimulusSpec::new(RegionKind::Mask, 0.0);
        spec.file = Some(path.clone());
        let m = compile(&spec, dims).unwrap();
        assert_eq!(cells_of(&m, dims), cells);
        assert_eq!(m.region.cell_count(dims), cells.len() as u64);
        // A sub-domain holding global slices 1..=3 between halos (local 0..=4).
        let local = GridDims::new(9, 8, 5);
        let place = SlicePlacement { offset: 0, global_nz: 7 };
        let mut u = vec![0.0f32; local.cells()];
        apply_to_buffer(&m, &mut u, local, place, DT, &Recorder::off());
        for z in 0..5 {
            for y in 0..8 {
                for x in 0..9 {
                    let want = cells.contains(&(x, y, place.global_z(z)));
                    assert_eq!(u[local.index(x, y, z)] == 3.0, want, "({x}, {y}, local {z})");
                }
            }
        }
        let e = compile(&spec, GridDims::new(9, 8, 6)).unwrap_err().to_string();
        assert!(e.contains("has shape [7, 8, 9]; this grid needs (6, 8, 9)"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}

//! The paper's tower data structure (Vasconcellos et al. 2019, section 3.2).
//!
//! The mesh is cut into towers of `bx x by x nz` cells, (bx, by) being the
//! thread block's size. Each tower is stored contiguously, z-slice after
//! z-slice. A slice ("wall") holds the `bx * by` core cells row by row, then
//! two extra lines of `by` cells each that replicate the x-neighbour columns
//! of the adjacent towers: left (x0 - 1) then right (x0 + bx). So
//! `wall_length = by * (bx + 2)` and a block loads its x halos with two
//! coalesced reads instead of one 4-byte read per row. At the domain's x
//! edges the extra lines hold the mirror values (U\[-1\] = U\[1\]).
//!
//! Only U lives in this layout (double-buffered); v stays row-major and is
//! updated in place, so memory is `4 (2 ds_size + mesh_size)` bytes in f32
//! (paper eq. 6).

use crate::layout::grid::GridDims;

/// Index arithmetic of the tower layout for one grid and block size.
///
/// `#[repr(C)]`: passed by value to the tower kernels.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TowerLayout {
    pub dims: GridDims,
    /// Tower (and thread block) size along x: wlsize_x.
    pub bx: u32,
    /// Tower (and thread block) size along y: wlsize_y.
    pub by: u32,
    /// nx / bx and ny / by, stored so kernels never divide.
    towers_x: u32,
    towers_y: u32,
}

/// Why a grid and block size cannot form a tower layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TowerLayoutError {
    /// `bx` is not a positive multiple of 32, or `bx * by` exceeds 1024.
    BadBlock { bx: u32, by: u32 },
    /// The grid is not a whole number of towers along `axis`.
    NotMultiple { axis: Axis, cells: u32, block: u32 },
    /// The layout would need 2^32 or more elements (the kernels index in 32 bits).
    TooLarge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
}

/// Block sizes a kernel accepts: x a positive multiple of 32 (whole warps
/// along x, coalesced rows), at most 1024 threads, y >= 1.
pub const fn block_is_valid(bx: u32, by: u32) -> bool {
    bx > 0 && bx.is_multiple_of(32) && by > 0 && bx * by <= 1024
}

impl TowerLayout {
    /// A layout for `dims` with towers of `bx x by`; the grid must be a
    /// whole number of towers in x and y (any nz).
    pub const fn new(dims: GridDims, bx: u32, by: u32) -> Result<Self, TowerLayoutError> {
        if !block_is_valid(bx, by) {
            return Err(TowerLayoutError::BadBlock { bx, by });
        }
        if !dims.nx.is_multiple_of(bx) {
            return Err(TowerLayoutError::NotMultiple { axis: Axis::X, cells: dims.nx, block: bx });
        }
        if !dims.ny.is_multiple_of(by) {
            return Err(TowerLayoutError::NotMultiple { axis: Axis::Y, cells: dims.ny, block: by });
        }
        let layout = Self { dims, bx, by, towers_x: dims.nx / bx, towers_y: dims.ny / by };
        if layout.ds_size() > u32::MAX as u64 {
            return Err(TowerLayoutError::TooLarge);
        }
        Ok(layout)
    }

    /// Towers along x (the grid's gridDim.x).
    #[inline(always)]
    pub const fn towers_x(&self) -> u32 {
        self.towers_x
    }

    /// Towers along y (gridDim.y).
    #[inline(always)]
    pub const fn towers_y(&self) -> u32 {
        self.towers_y
    }

    /// Cells in one z-slice of a tower: core plus the two extra lines
    /// (Algorithm 1, line 4).
    #[inline(always)]
    pub const fn wall_length(&self) -> u32 {
        self.by * (self.bx + 2)
    }

    /// Elements of one U buffer in this layout (paper Table 2's ds_size).
    pub const fn ds_size(&self) -> u64 {
        self.towers_x() as u64 * self.towers_y() as u64 * self.dims.nz as u64 * self.wall_length() as u64
    }

    /// Start of slice `z` of tower (tower_x, tower_y): WLCDSIDX of Algorithm 1
    /// without its thread term, `((ty * towers_x + tx) * nz + z) * wall_length`.
    #[inline(always)]
    pub const fn slice_base(&self, tower_x: u32, tower_y: u32, z: u32) -> u32 {
        ((tower_y * self.towers_x() + tower_x) * self.dims.nz + z) * self.wall_length()
    }

    /// Offset of core cell (lx, ly) within a slice: row-major, `ly * bx + lx`.
    #[inline(always)]
    pub const fn core_offset(&self, lx: u32, ly: u32) -> u32 {
        ly * self.bx + lx
    }

    /// Offset of row `ly` of the left extra line (copy of column x0 - 1).
    #[inline(always)]
    pub const fn left_line_offset(&self, ly: u32) -> u32 {
        self.bx * self.by + ly
    }

    /// Offset of row `ly` of the right extra line (copy of column x0 + bx).
    #[inline(always)]
    pub const fn right_line_offset(&self, ly: u32) -> u32 {
        self.bx * self.by + self.by + ly
    }

    /// Index of grid cell (x, y, z) in the tower layout.
    #[inline(always)]
    pub const fn index(&self, x: u32, y: u32, z: u32) -> u32 {
        self.slice_base(x / self.bx, y / self.by, z) + self.core_offset(x % self.bx, y % self.by)
    }
}

/// Algorithm 1 of the paper, literally: the tower-layout index of the slice
/// position `thread_x` of block (block_x, block_y) at height z, with
/// wlsize = blockDim. Kept as the specification the layout is tested against.
pub const fn wlcdsidx(
    block_dim: (u32, u32),
    block_idx: (u32, u32),
    grid_dim_x: u32,
    thread_x: u32,
    z: u32,
    nz: u32,
) -> u64 {
    let wlsize_x = block_dim.0 as u64;
    let wlsize_y = block_dim.1 as u64;
    let wall_length = wlsize_y * (wlsize_x + 2);
    (((block_idx.1 as u64 * grid_dim_x as u64) + block_idx.0 as u64) * nz as u64 + z as u64) * wall_length
        + thread_x as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_table_2_and_64_cubed_example() {
        let l = TowerLayout::new(GridDims::new(64, 64, 64), 32, 8).unwrap();
        assert_eq!((l.towers_x(), l.towers_y()), (2, 8));
        assert_eq!(l.ds_size(), 278_528);
        let l = TowerLayout::new(GridDims::new(256, 256, 256), 32, 8).unwrap();
        assert_eq!(l.ds_size(), 17_825_792);
        let l = TowerLayout::new(GridDims::new(512, 512, 512), 32, 8).unwrap();
        assert_eq!(l.ds_size(), 142_606_336);
    }

    #[test]
    fn every_cell_matches_algorithm_1_on_small_meshes() {
        for (dims, bx, by) in [
            (GridDims::new(64, 16, 5), 32, 8),
            (GridDims::new(96, 6, 3), 32, 2),
            (GridDims::new(64, 3, 4), 64, 1),
            (GridDims::new(128, 8, 2), 128, 4),
        ] {
            let l = TowerLayout::new(dims, bx, by).unwrap();
            let mut seen = vec![false; l.ds_size() as usize];
            for z in 0..dims.nz {
                for y in 0..dims.ny {
                    for x in 0..dims.nx {
                        let block = (x / bx, y / by);
                        // The paper adds a slice position; for core cells it is ly * bx + lx.
                        let spec =
                            wlcdsidx((bx, by), block, l.towers_x(), (y % by) * bx + x % bx, z, dims.nz);
                        let i = l.index(x, y, z);
                        assert_eq!(i as u64, spec, "cell ({x},{y},{z}) with {bx}x{by}");
                        assert!(!seen[i as usize], "two cells share index {i}");
                        seen[i as usize] = true;
                    }
                }
            }
            // Exactly the extra lines remain: 2 * by per slice of each tower.
            let extra = seen.iter().filter(|s| !**s).count() as u64;
            assert_eq!(extra, l.towers_x() as u64 * l.towers_y() as u64 * dims.nz as u64 * 2 * by as u64);
        }
    }

    #[test]
    fn extra_lines_follow_the_core_in_each_slice() {
        let l = TowerLayout::new(GridDims::new(64, 16, 4), 32, 8).unwrap();
        assert_eq!(l.wall_length(), 272);
        assert_eq!(l.left_line_offset(0), 256);
        assert_eq!(l.right_line_offset(7), 271);
        assert_eq!(l.slice_base(1, 0, 0), 4 * 272);
        assert_eq!(l.slice_base(0, 1, 0), 2 * 4 * 272);
    }

    #[test]
    fn refuses_bad_blocks_and_partial_towers() {
        let d = GridDims::new(64, 64, 64);
        assert_eq!(TowerLayout::new(d, 48, 4), Err(TowerLayoutError::BadBlock { bx: 48, by: 4 }));
        assert_eq!(TowerLayout::new(d, 64, 32), Err(TowerLayoutError::BadBlock { bx: 64, by: 32 }));
        assert_eq!(
            TowerLayout::new(GridDims::new(100, 64, 64), 32, 8),
            Err(TowerLayoutError::NotMultiple { axis: Axis::X, cells: 100, block: 32 })
        );
        assert!(block_is_valid(256, 1) && block_is_valid(32, 32) && !block_is_valid(0, 1));
    }
}

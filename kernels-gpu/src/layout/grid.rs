//! Row-major grid dimensions and index arithmetic.

/// Dimensions of a row-major 3D grid: x varies fastest, then y, then z.
///
/// `#[repr(C)]` because the host passes it by value as a kernel parameter.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridDims {
    pub nx: u32,
    pub ny: u32,
    pub nz: u32,
}

impl GridDims {
    pub const fn new(nx: u32, ny: u32, nz: u32) -> Self {
        Self { nx, ny, nz }
    }

    /// Number of cells, nx * ny * nz.
    #[inline(always)]
    pub const fn cells(&self) -> usize {
        self.nx as usize * self.ny as usize * self.nz as usize
    }

    /// nx * ny * nz without overflow, or `None` (the host checks grids
    /// that come from users with it before using [`GridDims::cells`]).
    #[cfg(not(target_arch = "nvptx64"))]
    pub fn checked_cells(&self) -> Option<u64> {
        (self.nx as u64).checked_mul(self.ny as u64)?.checked_mul(self.nz as u64)
    }

    /// Cells in one z-slice, nx * ny.
    #[inline(always)]
    pub const fn slice_cells(&self) -> usize {
        self.nx as usize * self.ny as usize
    }

    /// Linear index of (x, y, z); `(z * ny + y) * nx + x`.
    #[inline(always)]
    pub const fn index(&self, x: u32, y: u32, z: u32) -> usize {
        (z as usize * self.ny as usize + y as usize) * self.nx as usize + x as usize
    }

    /// Number of axes with more than one cell: 3 for a box, 2 for a sheet,
    /// 1 for a cable, 0 for a single cell.
    pub const fn axes(&self) -> u32 {
        (self.nx > 1) as u32 + (self.ny > 1) as u32 + (self.nz > 1) as u32
    }

    /// The same cells with the axes of one cell dropped and the others
    /// moved forward in order (x, y, z): 96 x 1 x 64 becomes 96 x 64 x 1,
    /// 1 x 1 x 50 becomes 50 x 1 x 1. Row-major indices are unchanged,
    /// since an axis of one cell contributes nothing to them, so a solver
    /// can step the compacted grid on the same buffers; its first
    /// [`GridDims::axes`] axes have two cells or more, the rest one.
    pub const fn compact(&self) -> GridDims {
        let mut n = [1u32; 3];
        let mut k = 0;
        let all = [self.nx, self.ny, self.nz];
        let mut a = 0;
        while a < 3 {
            if all[a] > 1 {
                n[k] = all[a];
                k += 1;
            }
            a += 1;
        }
        GridDims::new(n[0], n[1], n[2])
    }
}

/// The z-slices `begin..end` a launch advances. The whole grid on one GPU;
/// on several GPUs a sub-domain's owned slices or a part of them (the
/// boundary slices and the interior are launched separately so that the
/// halo exchange can overlap the interior, paper section 4.3).
///
/// `#[repr(C)]`: passed by value to every step kernel.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ZWindow {
    pub begin: u32,
    pub end: u32,
}

impl ZWindow {
    pub const fn new(begin: u32, end: u32) -> Self {
        Self { begin, end }
    }

    /// Every slice of a grid of `nz` slices.
    pub const fn all(nz: u32) -> Self {
        Self { begin: 0, end: nz }
    }

    /// Number of slices.
    pub const fn len(&self) -> u32 {
        self.end - self.begin
    }

    pub const fn is_empty(&self) -> bool {
        self.end <= self.begin
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_row_major_with_x_fastest() {
        let g = GridDims::new(4, 3, 2);
        assert_eq!(g.cells(), 24);
        assert_eq!(g.index(0, 0, 0), 0);
        assert_eq!(g.index(1, 0, 0), 1);
        assert_eq!(g.index(0, 1, 0), 4);
        assert_eq!(g.index(0, 0, 1), 12);
        assert_eq!(g.index(3, 2, 1), 23);
        assert_eq!(g.checked_cells(), Some(24));
        assert_eq!(GridDims::new(u32::MAX, u32::MAX, 2).checked_cells(), None);
        assert_eq!(GridDims::new(1 << 22, 1 << 21, 1 << 21).checked_cells(), None);
    }

    #[test]
    fn compacting_drops_single_cell_axes_and_keeps_indices() {
        assert_eq!(GridDims::new(96, 1, 64).compact(), GridDims::new(96, 64, 1));
        assert_eq!(GridDims::new(1, 1, 50).compact(), GridDims::new(50, 1, 1));
        assert_eq!(GridDims::new(1, 7, 1).compact(), GridDims::new(7, 1, 1));
        assert_eq!(GridDims::new(1, 1, 1).compact(), GridDims::new(1, 1, 1));
        assert_eq!(GridDims::new(5, 2, 3).compact(), GridDims::new(5, 2, 3));
        let g = GridDims::new(4, 1, 3);
        let c = g.compact();
        for z in 0..3 {
            for x in 0..4 {
                assert_eq!(g.index(x, 0, z), c.index(x, z, 0));
            }
        }
        assert_eq!((g.axes(), GridDims::new(1, 1, 1).axes(), GridDims::new(2, 2, 2).axes()), (2, 0, 3));
    }
}

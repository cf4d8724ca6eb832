//! Where a block's pass lies: the tile it owns ([`Tile`]), the planes of
//! each level along the march (reflected past the grid's ends,
//! [`reflect`]) and what each thread knows of its column ([`Column`]).

use super::shape::{MAX_FRAME, shared_elems};
use crate::layout::grid::{GridDims, ZWindow};
use crate::stencil::mirror_offsets;

/// The geometry of one block's pass of `K` steps: what it owns and the
/// planes each level computes.
#[derive(Clone, Copy, Debug)]
pub struct Tile<const K: u32> {
    pub(super) g: GridDims,
    /// Threads of the block (the frame's columns).
    pub(super) block: (u32, u32),
    /// Owned cells: x0..x1, y0..y1, and `planes` slices from z0.
    pub(super) x0: u32,
    pub(super) x1: u32,
    pub(super) y0: u32,
    pub(super) y1: u32,
    pub(super) z0: u32,
    pub(super) planes: u32,
}

impl<const K: u32> Tile<K> {
    /// The tile of block `index` (CUDA's blockIdx) of a launch with
    /// blocks of `block` threads over `window`.
    #[inline(always)]
    pub fn new(
        g: GridDims,
        block: (u32, u32),
        index: (u32, u32, u32),
        window: ZWindow,
        z_chunk: u32,
    ) -> Self {
        debug_assert!(block.0 * block.1 <= MAX_FRAME, "a frame of {block:?} columns");
        let (tile_x, tile_y) = (block.0 - 2 * K, block.1 - 2 * K);
        let x0 = index.0 * tile_x;
        let y0 = index.1 * tile_y;
        let z0 = window.begin + index.2 * z_chunk;
        let (x1, y1, z1) = (min(g.nx, x0 + tile_x), min(g.ny, y0 + tile_y), min(window.end, z0 + z_chunk));
        Tile { g, block, x0, x1, y0, y1, z0, planes: z1 - z0 }
    }

    /// The iterations of the march. Iteration j loads plane `z0 - K + j`
    /// of level 0 and computes plane `z0 - K + j - l` of each level l at
    /// which `j >= 2l`: level l spans the owned planes grown by `K - l`
    /// on each side, and every level finishes at the last iteration.
    #[inline(always)]
    pub fn iterations(&self) -> core::ops::Range<u32> {
        0..self.planes + 2 * K
    }

    /// Elements of shared memory the tile uses ([`shared_elems`]).
    pub fn shared_elems(&self) -> usize {
        shared_elems(K) as usize
    }

    /// Plane of level `level` at iteration `j`; below 0 or at nz and
    /// beyond where the march runs past the grid's ends (those planes hold
    /// the mirror image of the grid's, see [`reflect`]).
    #[inline(always)]
    pub(super) fn plane(&self, j: u32, level: u32) -> i32 {
        (self.z0 + j) as i32 - (K + level) as i32
    }

    /// Index of the cell of `col` at the plane level 0 loads at iteration
    /// `j` (reflected into the grid).
    #[inline(always)]
    pub(super) fn load_index(&self, col: &Column, j: u32) -> u32 {
        let g = self.g;
        reflect(self.plane(j, 0), g.nz).wrapping_mul(g.nx * g.ny).wrapping_add(col.cell)
    }

    /// Whether plane `p` is owned by the tile along z.
    #[inline(always)]
    pub(super) fn owns_plane(&self, p: i32) -> bool {
        (p.wrapping_sub(self.z0 as i32) as u32) < self.planes
    }
}

/// The plane of the grid `0..nz` (nz >= 2) whose values plane `p` of the
/// march holds: the grid reflected about its first and last planes, as
/// often as needed (U\[-1\] = U\[1\], U\[nz\] = U\[nz - 2\], ...). A march that
/// runs k planes past an end of the grid computes, at each level, the
/// mirror image of the planes inside it bit for bit (the mirror rule of
/// the single step is this reflection; [`laplacian7`] adds the z pair
/// first, so a plane and its image sum the same values in the same
/// order), which spares every level the mirror rule's tests.
///
/// [`laplacian7`]: crate::stencil::laplacian7
#[inline(always)]
pub fn reflect(p: i32, nz: u32) -> u32 {
    if (p as u32) < nz {
        return p as u32;
    }
    let last = nz as i32 - 1;
    let mut p = p;
    loop {
        if p < 0 {
            p = -p;
        } else if p > last {
            p = 2 * last - p;
        } else {
            return p as u32;
        }
    }
}

#[inline(always)]
const fn min(a: u32, b: u32) -> u32 {
    if a < b { a } else { b }
}

/// What a thread knows of its column for the whole pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The column is in the regions of levels `0..levels` (nested: each
    /// level's region lies inside the one below it); 0 outside the grid.
    pub(super) levels: u32,
    /// Index of the column's cell in plane 0.
    pub(super) cell: u32,
    /// Byte offset of the column in a shared plane, and those of its x
    /// and y neighbours (x-, x+, y-, y+), the mirror rule applied
    /// (wrapping where the column is outside the grid; never read there).
    pub(super) at_b: u32,
    pub(super) around_b: [u32; 4],
}

impl Column {
    /// The column of thread `(tx, ty)` of the block of `tile`, in a shared
    /// memory of elements of type `T`.
    #[inline(always)]
    pub fn new<T, const K: u32>(tile: &Tile<K>, tx: u32, ty: u32) -> Self {
        let g = tile.g;
        let size = core::mem::size_of::<T>() as u32;
        let (bx, by) = tile.block;
        // Grid coordinates, wrapping below 0 (then >= nx, outside).
        let x = (tile.x0 + tx).wrapping_sub(K);
        let y = (tile.y0 + ty).wrapping_sub(K);
        let inside = x < g.nx && y < g.ny;
        let mut levels = 0;
        if inside {
            // Level l spans the tile grown by K - l: frame columns l..b - l,
            // and never past the grid (x < nx checked above).
            while levels <= K {
                let l = levels;
                let in_x = l <= tx && tx < bx - l && x < tile.x1 + (K - l);
                let in_y = l <= ty && ty < by - l && y < tile.y1 + (K - l);
                if !(in_x && in_y) {
                    break;
                }
                levels += 1;
            }
        }
        let (xm, xp) = if inside { mirror_offsets(x, g.nx) } else { (-1, 1) };
        let (ym, yp) = if inside { mirror_offsets(y, g.ny) } else { (-1, 1) };
        let at_b = (ty * bx + tx) * size;
        let row_b = bx * size;
        Column {
            levels,
            cell: y.wrapping_mul(g.nx).wrapping_add(x),
            at_b,
            around_b: [
                at_b.wrapping_add((xm as u32).wrapping_mul(size)),
                at_b.wrapping_add((xp as u32).wrapping_mul(size)),
                at_b.wrapping_add((ym as u32).wrapping_mul(row_b)),
                at_b.wrapping_add((yp as u32).wrapping_mul(row_b)),
            ],
        }
    }

    /// Whether level `level` computes this column at iteration `j` (level
    /// 0: loads it), `j` being an iteration of the march.
    #[inline(always)]
    pub(super) fn turn(&self, level: u32, j: u32) -> bool {
        level < self.levels && j >= 2 * level
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflection_is_the_mirror_rule_applied_as_often_as_needed() {
        assert_eq!([-1, 0, 4, 5, 6].map(|p| reflect(p, 6)), [1, 0, 4, 5, 4]);
        assert_eq!([-3, -2, 7, 8].map(|p| reflect(p, 6)), [3, 2, 3, 2]);
        // Two planes: the march of k = 4 past both ends bounces more than once.
        assert_eq!([-4, -3, -2, -1, 2, 3, 4, 5].map(|p| reflect(p, 2)), [0, 1, 0, 1, 0, 1, 0, 1]);
    }

    #[test]
    fn levels_shrink_by_one_cell_a_level_and_stay_in_the_grid() {
        let g = GridDims::new(70, 17, 45);
        // k = 3, tile 26 x 4: block (2, 3) owns x 52..70 (clipped), y 12..16.
        let t = Tile::<3>::new(g, (32, 10), (2, 3, 1), ZWindow::all(45), 16);
        assert_eq!((t.x0, t.x1, t.y0, t.y1, t.z0, t.planes), (52, 70, 12, 16, 16, 16));
        // Level 0 loads planes 13..35, level l computes 13 + l..35 - l at
        // iterations 2l..22.
        assert_eq!(t.iterations(), 0..22);
        assert_eq!((t.plane(0, 0), t.plane(21, 0), t.plane(6, 3), t.plane(21, 3)), (13, 34, 16, 31));
        assert!(t.owns_plane(16) && t.owns_plane(31) && !t.owns_plane(15) && !t.owns_plane(32));
        let levels = |tx, ty| Column::new::<f32, 3>(&t, tx, ty).levels;
        let c = Column::new::<f32, 3>(&t, 3, 3);
        assert!(c.turn(3, 6) && c.turn(3, 21) && !c.turn(3, 5) && c.turn(0, 0) && !c.turn(4, 21));
        let outside = Column::new::<f32, 3>(&t, 21, 3);
        assert!((0..22).all(|j| (0..=3).all(|l| !outside.turn(l, j))));
        // Frame column 0 is x = 49: level 0 only; column 3 (x = 52) every level.
        assert_eq!(levels(0, 3), 1);
        assert_eq!(levels(1, 3), 2);
        assert_eq!(levels(3, 3), 4);
        // x = 69 is the grid's last column (owned); x = 70 is outside.
        assert_eq!(levels(20, 3), 4);
        assert_eq!(levels(21, 3), 0);
        // y = 16 (row 7) is the grid's last row, one past the tile: levels 0..2.
        assert_eq!(levels(5, 7), 3);
        assert_eq!(levels(5, 8), 0, "y = 17 is outside");
        // The mirror rule at x = 69: the +x neighbour is the -x one.
        let c = Column::new::<f32, 3>(&t, 20, 7);
        assert_eq!(c.at_b, (7 * 32 + 20) * 4);
        assert_eq!(c.around_b, [c.at_b - 4, c.at_b - 4, c.at_b - 32 * 4, c.at_b - 32 * 4]);
        assert_eq!(c.cell, 16 * 70 + 69);
        // The first chunk marches from plane -2 (k = 2), reflected into the grid.
        let first = Tile::<2>::new(g, (32, 8), (0, 0, 0), ZWindow::all(45), 16);
        let corner = Column::new::<f64, 2>(&first, 2, 2);
        assert_eq!((corner.levels, corner.cell, corner.at_b), (3, 0, (2 * 32 + 2) * 8));
        assert_eq!(corner.around_b[0], corner.at_b + 8, "x = -1 is x = 1");
        assert_eq!(corner.around_b[2], corner.at_b + 32 * 8, "y = -1 is y = 1");
        assert_eq!([0, 1, 2].map(|j| first.load_index(&corner, j)), [2 * 70 * 17, 70 * 17, 0]);
        assert_eq!(Column::new::<f64, 2>(&first, 1, 2).levels, 0, "x = -1 is outside the grid");
    }
}

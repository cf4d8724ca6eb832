//! Row-major <-> tower layout (see `kernels_gpu::tower`).
//!
//! Packing fills each slice's core from the grid and its two extra lines
//! with the neighbouring towers' edge columns, or, at the domain's x edges,
//! with the mirror column (`U[-1] = U[1]`, `U[nx] = U[nx - 2]`), exactly what the
//! kernels maintain after every step. Unpacking reads the cores only.

use kernels_gpu::TowerLayout;
use kernels_gpu::stencil::mirror;
use rayon::prelude::*;

/// The tower-layout buffer (`lay.ds_size()` elements) of a row-major field.
pub fn pack<T: Copy + Send + Sync + Default>(lay: &TowerLayout, row_major: &[T]) -> Vec<T> {
    let d = lay.dims;
    assert_eq!(row_major.len(), d.cells(), "field matches the layout's grid");
    let (bx, by, nz) = (lay.bx, lay.by, d.nz);
    let mut out = vec![T::default(); lay.ds_size() as usize];
    out.par_chunks_mut(lay.wall_length() as usize).enumerate().for_each(|(s, wall)| {
        let (tower, z) = (s as u32 / nz, s as u32 % nz);
        let (x0, y0) = ((tower % lay.towers_x()) * bx, (tower / lay.towers_x()) * by);
        let at = |x: u32, y: u32| row_major[d.index(x, y, z)];
        for ly in 0..by {
            for lx in 0..bx {
                wall[lay.core_offset(lx, ly) as usize] = at(x0 + lx, y0 + ly);
            }
            let left = mirror(x0 as i64 - 1, d.nx as i64) as u32;
            let right = mirror((x0 + bx) as i64, d.nx as i64) as u32;
            wall[lay.left_line_offset(ly) as usize] = at(left, y0 + ly);
            wall[lay.right_line_offset(ly) as usize] = at(right, y0 + ly);
        }
    });
    out
}

/// The row-major field held in the cores of a tower-layout buffer.
pub fn unpack<T: Copy + Send + Sync + Default>(lay: &TowerLayout, towers: &[T]) -> Vec<T> {
    let d = lay.dims;
    assert_eq!(towers.len() as u64, lay.ds_size(), "buffer matches the layout");
    let mut out = vec![T::default(); d.cells()];
    out.par_chunks_mut(d.slice_cells()).enumerate().for_each(|(z, slice)| {
        for y in 0..d.ny {
            for x in 0..d.nx {
                slice[(y * d.nx + x) as usize] = towers[lay.index(x, y, z as u32) as usize];
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::GridDims;

    /// Each cell holds its own coordinates, so every check is exact.
    fn coordinates(d: GridDims) -> Vec<f64> {
        (0..d.cells())
            .map(|i| {
                let (x, y, z) = (i % d.nx as usize, (i / d.nx as usize) % d.ny as usize, i / d.slice_cells());
                (x + 1000 * y + 1_000_000 * z) as f64
            })
            .collect()
    }

    #[test]
    fn pack_then_unpack_is_the_identity() {
        for (d, bx, by) in [
            (GridDims::new(64, 16, 5), 32, 8),
            (GridDims::new(96, 6, 3), 32, 2),
            (GridDims::new(256, 3, 3), 256, 1),
        ] {
            let lay = TowerLayout::new(d, bx, by).unwrap();
            let field = coordinates(d);
            assert_eq!(unpack(&lay, &pack(&lay, &field)), field);
        }
    }

    /// Writing a cell at every place `tower_copies` names (what the
    /// stimulus kernel does) gives the packing of the changed field: no
    /// extra line is left stale.
    #[test]
    fn a_cell_written_at_all_its_copies_equals_packing_the_changed_field() {
        let d = GridDims::new(96, 8, 3);
        let lay = TowerLayout::new(d, 32, 4).unwrap();
        let mut field = coordinates(d);
        let mut packed = pack(&lay, &field);
        for (x, y, z) in
            [(0, 0, 0), (1, 2, 1), (31, 3, 2), (32, 5, 0), (63, 7, 1), (64, 1, 1), (94, 6, 2), (95, 0, 0)]
        {
            let value = -1.0 - x as f64;
            field[d.index(x, y, z)] = value;
            let (at, n) = kernels_gpu::events::tower_copies(&lay, x, y, z);
            for &i in &at[..n] {
                packed[i as usize] = value;
            }
            assert_eq!(packed, pack(&lay, &field), "cell ({x}, {y}, {z})");
        }
    }

    #[test]
    fn extra_lines_hold_neighbour_columns_and_mirrors() {
        let d = GridDims::new(96, 8, 3);
        let lay = TowerLayout::new(d, 32, 4).unwrap();
        let packed = pack(&lay, &coordinates(d));
        let value = |x: u32, y: u32, z: u32| (x + 1000 * y + 1_000_000 * z) as f64;
        for z in 0..3 {
            for tower_y in 0..lay.towers_y() {
                for tower_x in 0..lay.towers_x() {
                    let base = lay.slice_base(tower_x, tower_y, z) as usize;
                    let x0 = tower_x * 32;
                    for ly in 0..4 {
                        let y = tower_y * 4 + ly;
                        let left = if x0 == 0 { 1 } else { x0 - 1 };
                        let right = if x0 + 32 == 96 { 94 } else { x0 + 32 };
                        assert_eq!(packed[base + lay.left_line_offset(ly) as usize], value(left, y, z));
                        assert_eq!(packed[base + lay.right_line_offset(ly) as usize], value(right, y, z));
                    }
                }
            }
        }
    }
}

//! How a tissue cell of the compact layout finds its neighbours: the
//! table beside the weights that compact indexing needs (Xia et al. 2015,
//! section 3: only the tissue cells are stored, so a neighbour is no
//! longer at a fixed distance in memory and each cell carries where its
//! neighbours are).
//!
//! The compact step reads, per tissue cell, one table entry for each of
//! the 18 directions besides its weights, so the entry's width sets much
//! of what the step reads. Two forms hold the same neighbours:
//! - [`Indices32`]: the neighbour's stored index, a u32 (72 bytes a cell);
//! - [`Offsets16`]: the neighbour's stored index minus the cell's own, an
//!   i16 (36 bytes a cell). The tissue cells are stored in row-major
//!   order of the box, so a neighbour lies within about one z-plane of
//!   tissue cells from the cell: the offsets fit in 16 bits wherever a
//!   plane holds fewer than about 32,767 tissue cells, which the host
//!   checks once when it builds the layout (else it keeps [`Indices32`]).
//!
//! Both name the same stored cell for every (cell, direction), so a step
//! reads the same values in the same order whichever form it has: the
//! same bits. A direction whose weight is 0 holds the cell itself (offset
//! 0), so the step may read its entry or not ([`NeighbourLookup::SKIP_UNCOUPLED`]).

/// How a compact layout's neighbour table is read: the compact kernels
/// are generic over it (one entry point each), as over
/// [`RowLookup`](super::RowLookup); [`CompactTissue`](super::CompactTissue)
/// carries it as a type parameter, so a layout and the step that reads it
/// agree on the table's form.
pub trait NeighbourLookup {
    /// One entry of the table.
    type Entry: Copy;

    /// Whether the step leaves a direction's entry unread where its weight
    /// is 0 (the cell itself is read instead), or reads every entry (the
    /// table names the cell itself there). Skipping saves the entry's
    /// bytes where whole directions are uncoupled; reading every entry
    /// saves the select and lets the loads go out before the weights
    /// arrive. Measured on an H100 (Karma f32, 256^3, docs/TISSUE.md): the
    /// cylinder's u32 table ran 4,598 steps/s skipping and 3,326 reading
    /// every entry; the shell's 16-bit table 5,840 skipping and 6,721
    /// reading every entry.
    const SKIP_UNCOUPLED: bool;

    /// The stored index of the neighbour in direction `k` of stored cell
    /// `c`, from a table of `cells` entries per direction (entry k of cell
    /// c at `k * cells + c`) at address `table`.
    ///
    /// # Safety
    /// `table` points at `DIRECTIONS * cells` values of [`Self::Entry`]
    /// built for this form; `c < cells`; `k < DIRECTIONS`.
    unsafe fn neighbour(table: u64, cells: usize, c: usize, k: usize) -> usize;
}

/// Entry k of cell c is the neighbour's stored index, a u32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Indices32 {}

/// Entry k of cell c is the neighbour's stored index minus c, an i16
/// (the neighbour is `c + offset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offsets16 {}

impl NeighbourLookup for Indices32 {
    const SKIP_UNCOUPLED: bool = true;
    type Entry = u32;

    #[inline(always)]
    unsafe fn neighbour(table: u64, cells: usize, c: usize, k: usize) -> usize {
        // SAFETY: per the contract.
        unsafe { *(table as *const u32).add(k * cells + c) as usize }
    }
}

impl NeighbourLookup for Offsets16 {
    type Entry = i16;
    const SKIP_UNCOUPLED: bool = false;

    #[inline(always)]
    unsafe fn neighbour(table: u64, cells: usize, c: usize, k: usize) -> usize {
        // SAFETY: per the contract.
        let offset = unsafe { *(table as *const i16).add(k * cells + c) };
        // The host built every offset so that c + offset is a stored
        // index (never below 0): one 64-bit add, as the address needs.
        c.wrapping_add_signed(offset as isize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tissue::DIRECTIONS;

    #[test]
    fn both_forms_name_the_same_neighbours() {
        // 3 cells; direction k of cell c is (c + k) % 3, or c itself.
        let cells = 3;
        let index = |k: usize, c: usize| if k.is_multiple_of(4) { c } else { (c + k) % cells };
        let wide: Vec<u32> = (0..DIRECTIONS * cells).map(|e| index(e / cells, e % cells) as u32).collect();
        let narrow: Vec<i16> = (0..DIRECTIONS * cells)
            .map(|e| index(e / cells, e % cells) as i16 - (e % cells) as i16)
            .collect();
        for c in 0..cells {
            for k in 0..DIRECTIONS {
                // SAFETY: each table holds DIRECTIONS * cells entries of its form.
                let (a, b) = unsafe {
                    (
                        Indices32::neighbour(wide.as_ptr() as u64, cells, c, k),
                        Offsets16::neighbour(narrow.as_ptr() as u64, cells, c, k),
                    )
                };
                assert_eq!((a, b), (index(k, c), index(k, c)), "cell {c} direction {k}");
            }
        }
    }

    #[test]
    fn offsets_reach_both_ends_of_i16() {
        let cells = 70_000;
        let mut table = vec![0i16; DIRECTIONS * cells];
        table[40_000] = i16::MIN;
        table[cells + 30_000] = i16::MAX;
        let t = table.as_ptr() as u64;
        // SAFETY: the table holds DIRECTIONS * cells entries.
        let at = |c: usize, k: usize| unsafe { Offsets16::neighbour(t, cells, c, k) };
        assert_eq!(at(40_000, 0), 40_000 - 32_768);
        assert_eq!(at(30_000, 1), 30_000 + 32_767);
        assert_eq!(at(40_000, 1), 40_000, "offset 0 is the cell itself");
    }
}

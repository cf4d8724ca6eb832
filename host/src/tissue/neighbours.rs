//! The compact layout's neighbour table as a solver stores it: u32
//! indices of the neighbours, or, where every one fits, i16 offsets from
//! the cell (`kernels_gpu::tissue::neighbours` reads both); and the
//! layout's kernel argument typed by the table's form ([`CompactLay`]).
//!
//! Compact indexing (Xia et al. 2015, section 3) stores only the tissue
//! cells, so each cell carries where its 18 neighbours are, and the
//! compact step reads that table beside the weights: 72 bytes a cell as
//! u32, more than its own state and, with the weights by class, most of
//! what it reads. The cells are stored in row-major order of the box, so
//! a neighbour is at most one z-plane and one row of the box away, and in
//! the stored order only as many cells away as there are tissue cells in
//! between: as an offset from the cell it fits in 16 bits wherever no
//! such stretch holds more than 32,767 tissue cells (a plane of the box
//! of up to about 180 x 180 cells, or a larger one mostly outside the
//! tissue), and the table halves. The host decides once, for the whole layout, when it
//! builds it: every offset fits, or the table stays u32. Both forms name
//! the same stored cell for every cell and direction, so the step reads
//! the same values in the same order: the same bits.

use std::marker::PhantomData;

use kernels_gpu::GridDims;
use kernels_gpu::tissue::{CompactTissue, DIRECTIONS, Indices32, NeighbourLookup, Offsets16};

/// Which form of the neighbour table a compact solver stores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NeighbourChoice {
    /// 16-bit offsets where every offset fits, else u32 indices.
    #[default]
    Auto,
    /// u32 indices whatever the offsets (to compare the two forms).
    Indices32,
}

/// The form a neighbour table has (what the kernel entry and the
/// solver's method name follow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NeighbourForm {
    Indices32,
    Offsets16,
}

impl NeighbourForm {
    /// Bytes of one entry.
    pub const fn entry_bytes(self) -> u64 {
        match self {
            Self::Indices32 => size_of::<<Indices32 as NeighbourLookup>::Entry>() as u64,
            Self::Offsets16 => size_of::<<Offsets16 as NeighbourLookup>::Entry>() as u64,
        }
    }

    /// What a solver's method name says of the form: "" or "-n16".
    pub const fn suffix(self) -> &'static str {
        match self {
            Self::Indices32 => "",
            Self::Offsets16 => "-n16",
        }
    }
}

/// A compact layout's neighbour table of `cells` cells: entry k of cell
/// c at `k * cells + c` in either form, naming the stored cell in
/// direction k of c (c itself where the weight is 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NeighbourTable {
    /// The neighbour's stored index.
    Indices32(Vec<u32>),
    /// The neighbour's stored index minus the cell's own.
    Offsets16(Vec<i16>),
}

impl NeighbourTable {
    /// The table of neighbour `indices` (entry k of cell c at
    /// `k * cells + c`) in the form `choice` asks for.
    pub fn build(indices: Vec<u32>, cells: usize, choice: NeighbourChoice) -> Self {
        match choice {
            NeighbourChoice::Auto => match offsets(&indices, cells) {
                Some(offsets) => Self::Offsets16(offsets),
                None => Self::Indices32(indices),
            },
            NeighbourChoice::Indices32 => Self::Indices32(indices),
        }
    }

    /// Tables of several layouts (the parts of a split tissue) in one form:
    /// offsets only where every table's offsets fit, so that every part
    /// runs the same kernel. Each element is a table and its `cells`.
    pub fn build_all(tables: Vec<(Vec<u32>, usize)>, choice: NeighbourChoice) -> Vec<Self> {
        let narrow: Option<Vec<Vec<i16>>> = match choice {
            NeighbourChoice::Auto => tables.iter().map(|(t, cells)| offsets(t, *cells)).collect(),
            NeighbourChoice::Indices32 => None,
        };
        match narrow {
            Some(narrow) => narrow.into_iter().map(Self::Offsets16).collect(),
            None => tables.into_iter().map(|(t, _)| Self::Indices32(t)).collect(),
        }
    }

    pub fn form(&self) -> NeighbourForm {
        match self {
            Self::Indices32(_) => NeighbourForm::Indices32,
            Self::Offsets16(_) => NeighbourForm::Offsets16,
        }
    }

    /// Number of entries (18 per cell).
    pub fn len(&self) -> usize {
        match self {
            Self::Indices32(t) => t.len(),
            Self::Offsets16(t) => t.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of the table.
    pub fn bytes(&self) -> u64 {
        self.len() as u64 * self.form().entry_bytes()
    }

    /// The stored cell in direction `k` of cell `c` of a table of `cells`
    /// cells, decoded on the host (as the kernels' [`NeighbourLookup`]
    /// reads it).
    pub fn neighbour(&self, cells: usize, k: usize, c: usize) -> u32 {
        assert!(k < DIRECTIONS && c < cells && self.len() == DIRECTIONS * cells, "an entry of the table");
        match self {
            Self::Indices32(t) => t[k * cells + c],
            Self::Offsets16(t) => (c as i64 + t[k * cells + c] as i64) as u32,
        }
    }
}

/// A compact layout's kernel argument, typed by its neighbour table's
/// form: it selects the step (on the CPU) or the entry point (on the GPU)
/// that reads the table as it was built.
#[derive(Clone, Copy, Debug)]
pub enum CompactLay {
    Indices32(CompactTissue<Indices32>),
    Offsets16(CompactTissue<Offsets16>),
}

impl CompactLay {
    /// Number of cells stepped (one thread each on the GPU).
    pub fn cells(&self) -> u32 {
        match self {
            Self::Indices32(l) => l.cells,
            Self::Offsets16(l) => l.cells,
        }
    }
}

/// A compact layout's fields besides its neighbour table, which
/// [`CompactFields::over`] adds with the table's form.
#[derive(Clone, Copy, Debug)]
pub struct CompactFields {
    pub dims: GridDims,
    pub cells: u32,
    pub weights: u64,
    pub index: u64,
    pub class: u64,
    pub rows: u32,
}

impl CompactFields {
    /// The layout over the neighbour table at `neighbours` (host or device
    /// memory), whose entries' type names its form: an i16 table gives a
    /// layout read as [`Offsets16`], a u32 one as [`Indices32`].
    pub fn over<N: NeighbourLookup>(self, neighbours: *const N::Entry) -> CompactTissue<N> {
        let Self { dims, cells, weights, index, class, rows } = self;
        let neighbours = neighbours as u64;
        CompactTissue { dims, cells, weights, neighbours, index, class, rows, form: PhantomData }
    }

    /// The layout over `table` in host memory (the CPU reference's).
    pub fn over_host(self, table: &NeighbourTable) -> CompactLay {
        match table {
            NeighbourTable::Indices32(t) => CompactLay::Indices32(self.over(t.as_ptr())),
            NeighbourTable::Offsets16(t) => CompactLay::Offsets16(self.over(t.as_ptr())),
        }
    }
}

/// The offsets `indices[k * cells + c] - c` of a table of neighbour
/// indices, if every one fits in an i16 (`None` otherwise: the table
/// stays u32).
pub fn offsets(indices: &[u32], cells: usize) -> Option<Vec<i16>> {
    assert_eq!(indices.len(), DIRECTIONS * cells, "18 entries per cell");
    let mut out = Vec::with_capacity(indices.len());
    for direction in indices.chunks_exact(cells.max(1)) {
        for (c, &n) in direction.iter().enumerate() {
            out.push(i16::try_from(n as i64 - c as i64).ok()?);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tissue::weights::Operator;
    use crate::tissue::{Conductivity, Fibres, Tissue};
    use kernels_gpu::GridDims;

    /// Every entry of `table` names the cell `op`'s u32 table names.
    fn same_neighbours(op: &Operator, table: &NeighbourTable) {
        let n = op.tissue_cells();
        for k in 0..DIRECTIONS {
            for c in 0..n {
                assert_eq!(table.neighbour(n, k, c), op.neighbours[k * n + c], "cell {c} direction {k}");
            }
        }
    }

    fn box_op(dims: GridDims, c: Conductivity) -> Operator {
        Operator::build(&Tissue::box_of(dims, 0.5, Fibres::ALONG_X, c)).unwrap()
    }

    #[test]
    fn offsets_fit_on_small_tissues_and_name_the_same_cells() {
        // Oblique fibres: every one of the 18 directions has a weight.
        let dims = GridDims::new(9, 7, 6);
        let mask: Vec<bool> = (0..dims.cells()).map(|i| (i * 7919 + 13) % 11 > 2).collect();
        let fibres = Fibres::Constant { fibre: [1.0, 0.6, -0.4], sheet: None };
        let c = Conductivity { fibre: 1.0, cross: 0.25, sheet: None };
        let op = Operator::build(&Tissue::from_mask(dims, 0.5, &mask, fibres, c)).unwrap();
        let table = NeighbourTable::build(op.neighbours.clone(), op.tissue_cells(), NeighbourChoice::Auto);
        assert_eq!(table.form(), NeighbourForm::Offsets16);
        assert_eq!(table.bytes(), 2 * DIRECTIONS as u64 * op.tissue_cells() as u64);
        same_neighbours(&op, &table);
        let NeighbourTable::Offsets16(o) = &table else { unreachable!() };
        assert!(o.iter().any(|&x| x < 0) && o.iter().any(|&x| x > 0));
        // Asked for, the u32 indices stay as they are.
        let wide =
            NeighbourTable::build(op.neighbours.clone(), op.tissue_cells(), NeighbourChoice::Indices32);
        assert_eq!(wide, NeighbourTable::Indices32(op.neighbours.clone()));
        assert_eq!(wide.bytes(), 4 * DIRECTIONS as u64 * op.tissue_cells() as u64);
    }

    #[test]
    fn a_direction_without_weight_is_the_cell_itself_offset_0() {
        // Isotropic: the 12 edge directions have no weight, and at the box's
        // faces neither have the faces outside.
        let dims = GridDims::new(5, 4, 3);
        let op = box_op(dims, Conductivity::isotropic(1.0));
        let n = op.tissue_cells();
        let NeighbourTable::Offsets16(o) =
            NeighbourTable::build(op.neighbours.clone(), n, NeighbourChoice::Auto)
        else {
            panic!("a 60-cell box fits")
        };
        for c in 0..n {
            let w = op.weights_of(c);
            for k in 0..DIRECTIONS {
                assert_eq!(o[k * n + c] == 0, w[k] == 0.0, "cell {c} direction {k}");
            }
        }
        // The corner cell 0: +x, +y, +z at 1, nx, nx * ny.
        let at = |k: usize| o[k * n];
        assert_eq!([at(0), at(1), at(2), at(3), at(4), at(5)], [0, 1, 0, 5, 0, 20]);
    }

    #[test]
    fn offsets_fit_up_to_32767_and_not_beyond() {
        // Every neighbour of every cell `ahead` cells further on.
        let ahead = |ahead: u32| -> Vec<u32> { (0..DIRECTIONS as u32 * 4).map(|e| e % 4 + ahead).collect() };
        assert_eq!(offsets(&ahead(32_767), 4), Some(vec![32_767; DIRECTIONS * 4]));
        assert_eq!(offsets(&ahead(32_768), 4), None);
        // Backwards, to -32,768: cell 32,768 of a table of 32,769 cells
        // whose every neighbour is cell 0.
        let cells = 32_769;
        assert_eq!(offsets(&vec![0; DIRECTIONS * cells], cells).map(|o| o[cells - 1]), Some(i16::MIN));
        let cells = 32_770;
        assert_eq!(offsets(&vec![0; DIRECTIONS * cells], cells), None);
    }

    #[test]
    fn a_z_plane_of_more_than_32767_tissue_cells_keeps_u32_indices() {
        // Isotropic boxes of two planes: the farthest neighbour is the one
        // across z, one plane of cells away. 151 x 217 = 32,767 fits;
        // 128 x 256 = 32,768 does not.
        let iso = Conductivity::isotropic(1.0);
        let fits = box_op(GridDims::new(151, 217, 2), iso);
        let table =
            NeighbourTable::build(fits.neighbours.clone(), fits.tissue_cells(), NeighbourChoice::Auto);
        assert_eq!(table.form(), NeighbourForm::Offsets16);
        same_neighbours(&fits, &table);
        let wide = box_op(GridDims::new(128, 256, 2), iso);
        let table =
            NeighbourTable::build(wide.neighbours.clone(), wide.tissue_cells(), NeighbourChoice::Auto);
        assert_eq!(table, NeighbourTable::Indices32(wide.neighbours.clone()));
        same_neighbours(&wide, &table);
    }

    #[test]
    fn parts_share_one_form() {
        let small = (vec![1u32; DIRECTIONS * 2], 2);
        let far = (vec![40_000u32; DIRECTIONS * 2], 2);
        let both = NeighbourTable::build_all(vec![small.clone(), small.clone()], NeighbourChoice::Auto);
        assert!(both.iter().all(|t| t.form() == NeighbourForm::Offsets16));
        let mixed = NeighbourTable::build_all(vec![small.clone(), far], NeighbourChoice::Auto);
        assert!(mixed.iter().all(|t| t.form() == NeighbourForm::Indices32), "one part too far: all u32");
        let asked = NeighbourTable::build_all(vec![small], NeighbourChoice::Indices32);
        assert_eq!(asked[0].form(), NeighbourForm::Indices32);
    }
}

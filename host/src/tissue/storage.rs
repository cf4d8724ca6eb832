//! How a solver stores a tissue's operator (the weights per cell or by
//! class, the neighbour table u32 or 16-bit) and the name its method
//! reports for that storage.

use super::layout::TissueLayout;
use super::neighbours::{NeighbourChoice, NeighbourForm};
use super::rows::WeightChoice;

/// How a solver stores a tissue's operator: the weights (per cell or by
/// class) and, in the compact layout, the neighbour table (u32 or 16-bit).
/// The default chooses both automatically.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableChoice {
    pub weights: WeightChoice,
    pub neighbours: NeighbourChoice,
}

impl From<WeightChoice> for TableChoice {
    fn from(weights: WeightChoice) -> Self {
        Self { weights, neighbours: NeighbourChoice::Auto }
    }
}

/// What a tissue solver's method name says of its storage, after
/// "tissue-": the layout, "-classes" where the weights are stored by
/// class, "-n16" where the neighbours are 16-bit offsets, then the
/// number of rows of the classes: `compact-classes-n16 (87 rows)`.
pub fn storage_name(layout: TissueLayout, classes: Option<u32>, neighbours: Option<NeighbourForm>) -> String {
    let n16 = neighbours.map_or("", NeighbourForm::suffix);
    match classes {
        None => format!("{}{n16}", layout.name()),
        Some(rows) => format!("{}-classes{n16} ({rows} rows)", layout.name()),
    }
}

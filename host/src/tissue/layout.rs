//! The two ways a tissue's cells are stored and stepped, dense or
//! compact; named by the storage, the recorded maps and the solvers.

/// How the tissue cells are stored and stepped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TissueLayout {
    /// The whole box, row-major, with a mask: cells outside the tissue are
    /// stored but not stepped.
    Dense,
    /// Only the tissue cells, with a neighbour table (Xia et al. 2015).
    Compact,
}

impl TissueLayout {
    pub const fn name(self) -> &'static str {
        match self {
            TissueLayout::Dense => "dense",
            TissueLayout::Compact => "compact",
        }
    }
}

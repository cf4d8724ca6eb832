//! Models compiled from CellML files by `fibril import-cellml`: one
//! generated file each (regenerate, don't edit), and the functions they
//! share ([`support`]). The list below and the registry lines in
//! [`for_each_model!`](crate::for_each_model) are kept by the importer.

#[cfg(test)]
mod markov_order;
pub mod support;
#[cfg(test)]
mod validation;
// imported models: begin
pub mod iyer_2004;
pub use iyer_2004::Iyer2004;
pub mod courtemanche_1998;
pub use courtemanche_1998::Courtemanche1998;
pub mod ohara_rudy_2011;
pub use ohara_rudy_2011::OharaRudy2011;
// imported models: end

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::testing::assert_info_consistent;

    /// The counts include each carried concentration's rounding error.
    #[test]
    fn descriptions_are_consistent() {
        assert_info_consistent::<Iyer2004>(67 + 6, 114);
        assert_info_consistent::<Courtemanche1998>(21 + 5, 42);
        assert_info_consistent::<OharaRudy2011>(41 + 9, 94);
    }
}

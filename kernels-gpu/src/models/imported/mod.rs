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

//! What can stop an import, each naming the file's variable or element and
//! what to do about it.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ImportError {
    #[error("not an XML file: {0}")]
    Xml(String),
    #[error("not a CellML model: {0}")]
    NotCellml(String),
    #[error("unsupported CellML: {0}")]
    Unsupported(String),
    #[error("units: {0}")]
    Units(String),
    #[error("inconsistent units: {0}")]
    InconsistentUnits(String),
    #[error("equations: {0}")]
    Equations(String),
    #[error("algebraic loop: {0}")]
    AlgebraicLoop(String),
    #[error("membrane: {0}")]
    Membrane(String),
    #[error("registering the model: {0}")]
    Register(String),
}

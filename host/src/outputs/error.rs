//! Why an output could not be saved.

use thiserror::Error;

use crate::io::plot::PlotError;
use crate::io::snapshots::WriteError;

#[derive(Debug, Error)]
pub enum OutputError {
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error("drawing {file}: {source}")]
    Plot {
        file: &'static str,
        #[source]
        source: PlotError,
    },
}

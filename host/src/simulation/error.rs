//! Why a simulation could not be built or stopped.

use thiserror::Error;

/// Why a simulation could not be built or stopped; each message names the
/// problem and what to change.
#[derive(Debug, Error)]
pub enum SimulationError {
    #[error(transparent)]
    Model(#[from] crate::models::ModelError),
    #[error(transparent)]
    Domain(#[from] crate::domain::DomainError),
    #[error(transparent)]
    Stimulus(#[from] crate::events::stimulus::StimulusError),
    #[error(transparent)]
    Protocol(#[from] crate::events::protocol::ProtocolError),
    #[error(transparent)]
    Electrodes(#[from] crate::events::ecg::EcgError),
    #[error(transparent)]
    Tips(#[from] crate::events::tips::TipsError),
    #[error(transparent)]
    Gpu(#[from] crate::backend::GpuUnavailable),
    #[error(transparent)]
    Placement(#[from] super::placement::PlacementError),
    #[error(transparent)]
    Solver(#[from] crate::solver::SolverError),
    #[error(transparent)]
    Driver(#[from] crate::driver::DriverError),
    #[error(transparent)]
    Time(#[from] crate::time::NamedTimeError),
    #[error(
        "the potential became NaN or infinite between step {last_clean_step} and step {step} (t = {t_ms}); \
         reduce dt or check the parameters"
    )]
    NonFinite { step: u64, t_ms: f64, last_clean_step: u64 },
    #[error(transparent)]
    MeshStep(#[from] crate::tet::UnstableStep),
    #[error(transparent)]
    NodeSelection(#[from] crate::tet::regions::SelectionError),
    #[error("{what} is not available on a tetrahedral mesh; {fix}")]
    NotOnMesh { what: &'static str, fix: &'static str },
    #[error("stimuli on a mesh's nodes were given for a grid; give the mesh (SimulationBuilder::tet_mesh)")]
    NotOnGrid,
    #[error(transparent)]
    Tissue(#[from] crate::tissue::TissueError),
    #[error("the grid is {grid} but the tissue is {tissue}; leave the grid out (the tissue sets it)")]
    TissueGrid { grid: String, tissue: String },
    #[error("{what} of a tissue come from the tissue (its spacing and conductivities); leave them out")]
    TissueSets { what: &'static str },
    #[error(transparent)]
    Checkpoint(#[from] crate::checkpoint::CheckpointError),
    #[error("cannot write the checkpoint {path}: {source}; choose a writable path with free space")]
    CheckpointWrite {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{path} records other maps than this simulation (or none where it records some); build the simulation \
         with the recording the checkpoint was written with"
    )]
    CheckpointMaps { path: std::path::PathBuf },
    #[error(
        "a simulation tracking tips cannot continue their trace from a checkpoint; build it without tips to \
         load one, or continue the run with fibril run --resume"
    )]
    TipsResume,
    #[error(transparent)]
    Parameters(#[from] crate::cell_params::ParamsError),
    #[error(
        "parameters by region or by cell need a tissue or a mesh; give the tissue (SimulationBuilder::tissue, \
         Tissue::box_of for the whole box) or the mesh"
    )]
    ParametersNeedTissue,
    #[error("the state given is of {found}, this simulation is of {wanted}")]
    OtherState { found: String, wanted: String },
}

impl From<(&'static str, crate::time::TimeError)> for SimulationError {
    fn from((what, source): (&'static str, crate::time::TimeError)) -> Self {
        SimulationError::Time(crate::time::NamedTimeError { what, source })
    }
}

//! Where a rank's numbers come from: the flags, or the variables of the
//! launchers fibril knows (OpenMPI, MPICH's PMI, Slurm), in the order
//! they are asked.

/// Where the rank numbers came from, so that a message about a wrong rank
/// can point at the variable or flag to fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankSource {
    Flags,
    OpenMpi,
    Pmi,
    Slurm,
}

impl RankSource {
    /// The pair of names the rank and world size were read from.
    pub fn describe(self) -> &'static str {
        match self {
            RankSource::Flags => "--rank/--world-size",
            RankSource::OpenMpi => "OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE",
            RankSource::Pmi => "PMI_RANK/PMI_SIZE",
            RankSource::Slurm => "SLURM_PROCID/SLURM_NTASKS",
        }
    }

    pub(super) fn rank_name(self) -> &'static str {
        match self {
            RankSource::Flags => "--rank",
            RankSource::OpenMpi => "OMPI_COMM_WORLD_RANK",
            RankSource::Pmi => "PMI_RANK",
            RankSource::Slurm => "SLURM_PROCID",
        }
    }

    pub(super) fn size_name(self) -> &'static str {
        match self {
            RankSource::Flags => "--world-size",
            RankSource::OpenMpi => "OMPI_COMM_WORLD_SIZE",
            RankSource::Pmi => "PMI_SIZE",
            RankSource::Slurm => "SLURM_NTASKS",
        }
    }

    pub(super) fn local_name(self) -> Option<&'static str> {
        match self {
            RankSource::Flags => None,
            RankSource::OpenMpi => Some("OMPI_COMM_WORLD_LOCAL_RANK"),
            RankSource::Pmi => Some("MPI_LOCALRANKID"),
            RankSource::Slurm => Some("SLURM_LOCALID"),
        }
    }
}

/// Launchers in the order they are asked. OpenMPI and MPICH run inside
/// Slurm allocations and then see Slurm's variables too, but their own
/// numbering is the one that matches the processes they started.
pub(super) const LAUNCHERS: [RankSource; 3] = [RankSource::OpenMpi, RankSource::Pmi, RankSource::Slurm];

pub(super) fn nonempty(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

//! This process's place in a multi-process run ([`RankInfo`]), read from
//! the flags or the launcher's variables and checked before any rank
//! waits on another.

use std::fmt;

use super::error::RankError;
use super::source::{LAUNCHERS, RankSource, nonempty};

/// This process's place in a multi-process run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankInfo {
    pub rank: usize,
    pub world_size: usize,
    /// Rank among the processes on this machine: it picks the GPU, since
    /// every machine numbers its GPUs from 0.
    pub local_rank: usize,
    pub source: RankSource,
}

impl fmt::Display for RankInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rank {} of {} (from {})", self.rank, self.world_size, self.source.describe())
    }
}

impl RankInfo {
    /// Reads the numbers from the flags, else from the first launcher
    /// whose rank variable is set.
    ///
    /// `env` looks up an environment variable (tests pass a closure over a
    /// map; the CLI passes `|k| std::env::var(k).ok()`); a variable set to
    /// an empty string counts as unset, as shells and job scripts often
    /// "unset" that way. Returns `Ok(None)` when this is a single process
    /// (no flags, no launcher variables, or a world size of 1), so that a
    /// plain `fibril` run and a one-task job need no rendezvous.
    ///
    /// With flags there is no launcher to ask for the local rank, so it is
    /// the rank: right when all ranks share one machine, the usual reason
    /// to start them by hand.
    pub fn detect(
        rank_flag: Option<usize>,
        world_flag: Option<usize>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<RankInfo>, RankError> {
        let info = match (rank_flag, world_flag) {
            (Some(rank), Some(world_size)) => {
                RankInfo { rank, world_size, local_rank: rank, source: RankSource::Flags }
            }
            (Some(_), None) => {
                return Err(RankError::HalfFlags { given: "--rank", missing: "--world-size" });
            }
            (None, Some(_)) => {
                return Err(RankError::HalfFlags { given: "--world-size", missing: "--rank" });
            }
            (None, None) => match from_launcher(env)? {
                Some(info) => info,
                None => return Ok(None),
            },
        };
        if info.world_size == 0 {
            return Err(RankError::ZeroWorldSize { from: info.source });
        }
        if info.rank >= info.world_size {
            return Err(RankError::RankOutOfRange {
                rank: info.rank,
                world_size: info.world_size,
                from: info.source,
            });
        }
        Ok((info.world_size > 1).then_some(info))
    }
}

/// A launcher counts as present when its rank variable is set: Slurm, for
/// one, exports the task count in an allocation's shell, where no task has
/// a rank yet and fibril should run as a single process.
fn from_launcher(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<RankInfo>, RankError> {
    for source in LAUNCHERS {
        let Some(rank_text) = nonempty(env(source.rank_name())) else { continue };
        let rank = parse_count(source.rank_name(), &rank_text)?;
        let size_text = nonempty(env(source.size_name()))
            .ok_or(RankError::MissingVariable { present: source.rank_name(), missing: source.size_name() })?;
        let world_size = parse_count(source.size_name(), &size_text)?;
        let local_rank = match source.local_name().and_then(|name| Some((name, nonempty(env(name))?))) {
            Some((name, text)) => parse_count(name, &text)?,
            None => rank,
        };
        return Ok(Some(RankInfo { rank, world_size, local_rank, source }));
    }
    Ok(None)
}

fn parse_count(name: &'static str, text: &str) -> Result<usize, RankError> {
    text.parse().map_err(|_| RankError::NotAnInteger { name, value: text.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::rank::testing::{env_of, expect_err, no_env};

    #[test]
    fn detect_reads_openmpi_variables() {
        let env = env_of(&[
            ("OMPI_COMM_WORLD_RANK", "3"),
            ("OMPI_COMM_WORLD_SIZE", "4"),
            ("OMPI_COMM_WORLD_LOCAL_RANK", "1"),
        ]);
        let got = RankInfo::detect(None, None, &env).unwrap();
        assert_eq!(
            got,
            Some(RankInfo { rank: 3, world_size: 4, local_rank: 1, source: RankSource::OpenMpi })
        );
    }

    #[test]
    fn detect_reads_pmi_variables() {
        let env = env_of(&[("PMI_RANK", "2"), ("PMI_SIZE", "3"), ("MPI_LOCALRANKID", "0")]);
        let got = RankInfo::detect(None, None, &env).unwrap();
        assert_eq!(got, Some(RankInfo { rank: 2, world_size: 3, local_rank: 0, source: RankSource::Pmi }));
    }

    #[test]
    fn detect_reads_slurm_variables() {
        let env = env_of(&[("SLURM_PROCID", "5"), ("SLURM_NTASKS", "8"), ("SLURM_LOCALID", "1")]);
        let got = RankInfo::detect(None, None, &env).unwrap();
        assert_eq!(got, Some(RankInfo { rank: 5, world_size: 8, local_rank: 1, source: RankSource::Slurm }));
    }

    #[test]
    fn detect_local_rank_defaults_to_rank() {
        let env = env_of(&[("SLURM_PROCID", "1"), ("SLURM_NTASKS", "2")]);
        assert_eq!(RankInfo::detect(None, None, &env).unwrap().unwrap().local_rank, 1);
        let flags = RankInfo::detect(Some(1), Some(3), &no_env).unwrap().unwrap();
        assert_eq!(flags, RankInfo { rank: 1, world_size: 3, local_rank: 1, source: RankSource::Flags });
    }

    #[test]
    fn detect_prefers_mpi_launchers_over_slurm() {
        let env = env_of(&[
            ("SLURM_PROCID", "0"),
            ("SLURM_NTASKS", "1"),
            ("PMI_RANK", "1"),
            ("PMI_SIZE", "2"),
            ("OMPI_COMM_WORLD_RANK", "0"),
            ("OMPI_COMM_WORLD_SIZE", "4"),
        ]);
        let got = RankInfo::detect(None, None, &env).unwrap().unwrap();
        assert_eq!((got.rank, got.world_size, got.source), (0, 4, RankSource::OpenMpi));
        let env =
            env_of(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1"), ("PMI_RANK", "1"), ("PMI_SIZE", "2")]);
        assert_eq!(RankInfo::detect(None, None, &env).unwrap().unwrap().source, RankSource::Pmi);
    }

    #[test]
    fn detect_flags_beat_environment() {
        let env = env_of(&[("OMPI_COMM_WORLD_RANK", "3"), ("OMPI_COMM_WORLD_SIZE", "4")]);
        let got = RankInfo::detect(Some(1), Some(2), &env).unwrap();
        assert_eq!(got, Some(RankInfo { rank: 1, world_size: 2, local_rank: 1, source: RankSource::Flags }));
        // Flags saying "one process" win over a launcher saying four.
        assert_eq!(RankInfo::detect(Some(0), Some(1), &env).unwrap(), None);
        // Even a malformed launcher variable is not read when flags are given.
        let broken = env_of(&[("SLURM_PROCID", "x"), ("SLURM_NTASKS", "2")]);
        assert!(RankInfo::detect(Some(0), Some(2), &broken).unwrap().is_some());
    }

    #[test]
    fn detect_single_process_is_none() {
        assert_eq!(RankInfo::detect(None, None, &no_env).unwrap(), None);
        assert_eq!(RankInfo::detect(Some(0), Some(1), &no_env).unwrap(), None);
        let one_task = env_of(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1")]);
        assert_eq!(RankInfo::detect(None, None, &one_task).unwrap(), None);
        // An allocation's shell has a task count but no rank.
        let allocation = env_of(&[("SLURM_NTASKS", "4")]);
        assert_eq!(RankInfo::detect(None, None, &allocation).unwrap(), None);
        let empty = env_of(&[("PMI_RANK", ""), ("PMI_SIZE", "")]);
        assert_eq!(RankInfo::detect(None, None, &empty).unwrap(), None);
    }

    #[test]
    fn detect_rejects_half_flags() {
        let err = expect_err(RankInfo::detect(Some(0), None, &no_env));
        assert!(matches!(err, RankError::HalfFlags { given: "--rank", missing: "--world-size" }), "{err:?}");
        assert!(err.to_string().contains("give both"), "{err}");
        let err = expect_err(RankInfo::detect(None, Some(2), &no_env));
        assert!(matches!(err, RankError::HalfFlags { given: "--world-size", missing: "--rank" }), "{err:?}");
    }

    #[test]
    fn detect_rejects_values_that_are_not_counts() {
        for (pairs, name, value) in [
            (
                vec![("OMPI_COMM_WORLD_RANK", "-1"), ("OMPI_COMM_WORLD_SIZE", "2")],
                "OMPI_COMM_WORLD_RANK",
                "-1",
            ),
            (vec![("PMI_RANK", "0"), ("PMI_SIZE", "two")], "PMI_SIZE", "two"),
            (
                vec![("SLURM_PROCID", "0"), ("SLURM_NTASKS", "2"), ("SLURM_LOCALID", "1.5")],
                "SLURM_LOCALID",
                "1.5",
            ),
        ] {
            let err = expect_err(RankInfo::detect(None, None, &env_of(&pairs)));
            assert!(matches!(err, RankError::NotAnInteger { .. }), "{err:?}");
            let text = err.to_string();
            assert!(text.contains(name) && text.contains(value), "{text}");
            assert!(text.contains("non-negative integer"), "{text}");
        }
    }

    #[test]
    fn detect_rejects_rank_not_below_world_size() {
        let err = expect_err(RankInfo::detect(Some(2), Some(2), &no_env));
        assert!(matches!(err, RankError::RankOutOfRange { rank: 2, world_size: 2, .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.contains("--rank") && text.contains("from 0 to 1"), "{text}");
        let env = env_of(&[("SLURM_PROCID", "4"), ("SLURM_NTASKS", "4")]);
        let text = expect_err(RankInfo::detect(None, None, &env)).to_string();
        assert!(text.contains("SLURM_PROCID") && text.contains("SLURM_NTASKS"), "{text}");
        // A rank past a world size of 1 is an error, not a single process.
        assert!(RankInfo::detect(Some(1), Some(1), &no_env).is_err());
    }

    #[test]
    fn detect_rejects_zero_world_size() {
        let err = expect_err(RankInfo::detect(Some(0), Some(0), &no_env));
        assert!(matches!(err, RankError::ZeroWorldSize { from: RankSource::Flags }), "{err:?}");
        assert!(err.to_string().contains("--world-size"), "{err}");
        let env = env_of(&[("PMI_RANK", "0"), ("PMI_SIZE", "0")]);
        let text = expect_err(RankInfo::detect(None, None, &env)).to_string();
        assert!(text.contains("PMI_SIZE") && text.contains("at least 1"), "{text}");
    }

    #[test]
    fn detect_rejects_rank_without_size() {
        let env = env_of(&[("OMPI_COMM_WORLD_RANK", "1")]);
        let err = expect_err(RankInfo::detect(None, None, &env));
        let text = err.to_string();
        assert!(matches!(err, RankError::MissingVariable { .. }), "{err:?}");
        assert!(text.contains("OMPI_COMM_WORLD_RANK") && text.contains("OMPI_COMM_WORLD_SIZE"), "{text}");
    }

    #[test]
    fn rank_source_describes_and_rank_info_displays() {
        assert_eq!(RankSource::Flags.describe(), "--rank/--world-size");
        assert_eq!(RankSource::OpenMpi.describe(), "OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE");
        assert_eq!(RankSource::Pmi.describe(), "PMI_RANK/PMI_SIZE");
        assert_eq!(RankSource::Slurm.describe(), "SLURM_PROCID/SLURM_NTASKS");
        let info = RankInfo { rank: 1, world_size: 2, local_rank: 1, source: RankSource::Slurm };
        assert_eq!(info.to_string(), "rank 1 of 2 (from SLURM_PROCID/SLURM_NTASKS)");
    }
}

//! Runs of values copied by one launch of the `halo_copy_<t>` kernel: a
//! split grid's halo runs to a neighbouring GPU (every exchanged variable
//! at once) and the mirror halos at the grid's ends (every slice and
//! variable at once). One launch in place of a copy per run matters in a
//! CUDA graph, where each copy is a node that the copy stream runs after
//! the one before it.

/// Runs one launch copies at most (more take several launches).
pub const MAX_RUNS: usize = 16;

/// Up to [`MAX_RUNS`] runs of `len` values each: run `r` from `src[r]` to
/// `dst[r]` (device addresses), copied by block row `r` of the launch.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyRuns {
    pub src: [u64; MAX_RUNS],
    pub dst: [u64; MAX_RUNS],
    /// Values in each run.
    pub len: u64,
    /// Runs in use: the first `count` of `src` and `dst`.
    pub count: u32,
}

impl CopyRuns {
    /// The runs `(src, dst)` of `pairs` (at most [`MAX_RUNS`]), `len`
    /// values each.
    ///
    /// # Panics
    /// With more than [`MAX_RUNS`] pairs (the caller takes them in chunks).
    pub fn new(pairs: &[(u64, u64)], len: u64) -> Self {
        assert!(pairs.len() <= MAX_RUNS, "at most {MAX_RUNS} runs a launch");
        let mut runs = Self { src: [0; MAX_RUNS], dst: [0; MAX_RUNS], len, count: pairs.len() as u32 };
        for (r, &(src, dst)) in pairs.iter().enumerate() {
            runs.src[r] = src;
            runs.dst[r] = dst;
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_keep_their_pairs_in_order_and_zero_the_rest() {
        let runs = CopyRuns::new(&[(1, 2), (3, 4)], 7);
        assert_eq!((runs.count, runs.len), (2, 7));
        assert_eq!((runs.src[..3].to_vec(), runs.dst[..3].to_vec()), (vec![1, 3, 0], vec![2, 4, 0]));
    }

    #[test]
    #[should_panic(expected = "at most 16 runs")]
    fn more_runs_than_a_launch_takes_are_refused() {
        CopyRuns::new(&[(0, 0); MAX_RUNS + 1], 1);
    }
}

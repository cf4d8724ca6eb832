//! Splitting the grid along z over several sub-domains (paper section 4.3).
//!
//! Each sub-domain owns a run of z-slices and stores them between two halo
//! slices: local slice 0 is the halo below, `1..=n` are owned, `n + 1` is
//! the halo above. After every step the halos are refilled from the
//! neighbouring sub-domains' boundary slices, or, at the ends of the global
//! grid, by the mirror rule (halo below = local slice 2 = global z 1, so
//! `U[-1] = U[1]`; symmetrically at the top). The kernels then never mirror
//! in z inside a sub-domain: they advance the owned window `1..=n` with the
//! halos as ordinary neighbours.
//!
//! The blocked kernel's passes of k steps read k slices beyond the window,
//! so with it the halos are k slices deep ([`halo_depth`]; local slices
//! `0..k` below, `k..k + n` owned, `k + n..2k + n` above) and are refilled
//! once a pass, with every variable (the halo's cells are stepped within
//! the pass, so they need their locals); the global ends are mirrored k
//! slices deep (halo slice j reflects owned slice 2k - j).
//!
//! Which slices each sub-domain owns is [`ZSplit`] (in
//! [`crate::layout::zsplit`], beside the other layouts); [`plan`] checks a
//! split and sizes its halos, [`error`] says why one could not be built.
//! `gpu` runs the sub-domains on GPUs, all in this process or one per
//! process (`rank` finds the processes and introduces them to each other,
//! `nccl` carries the halos between them); `cpu` runs the same split on
//! CPU sub-domains so that CI checks the decomposition without a GPU.

pub mod cpu;
pub mod error;
pub mod gpu;
pub mod nccl;
pub mod plan;
pub mod rank;

pub use crate::layout::zsplit::{SplitError, ZSplit};
pub use cpu::CpuMultiSolver;
pub use error::MultiError;
pub use gpu::{Exchange, GpuMultiSolver};
pub use plan::{check_splittable, halo_depth};

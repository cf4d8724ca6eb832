//! The z-split run on several GPUs driven by one process (paper section 4.3).
//!
//! Each GPU holds one sub-domain (its owned slices between two halo
//! slices, see [`super`]) and four streams. Per step, with overlap (the
//! paper's scheme): kernel A advances the bottom owned slice and kernel C
//! the top one, each on its own stream; the copy stream waits for them and
//! sends the two new boundary slices into the neighbours' halo slices while
//! kernel B advances the interior on the third stream. Without overlap one
//! kernel advances all owned slices and the copies follow it. The halos at
//! the global ends are filled by the mirror rule with a copy inside the GPU.
//!
//! Nothing waits on the host between steps; events order the streams.
//! Only the boundary kernels (A and C; B without overlap) of step n + 1
//! wait for the halos: for the neighbours' `halo_done` of step n (my halos
//! have arrived, and the neighbour's boundary kernels of step n, which read
//! the halo slices my next copy overwrites, are done), and for this GPU's
//! own copy stream (NCCL receives, host-staged deliveries, mirror halos).
//! Kernel B of step n + 1 waits only for A, B and C of step n on this GPU,
//! so a slow or late neighbour never delays the interior. A, C and the copies run on streams of
//! the highest priority, B on the lowest, so that the thin boundary kernels
//! and the copies are not queued behind B's blocks.
//!
//! Exchange modes: `peer` copies GPU to GPU (cuMemcpy3DPeerAsync, one 2D
//! copy per slice, which also moves the strided walls of the tower layout);
//! `host` stages each slice through pinned host memory (device to host on
//! the sender, host to device on the receiver), as the paper did; `nccl`
//! sends and receives through NCCL (one group per step), packing a tower
//! slice into a contiguous buffer first (NCCL moves contiguous buffers).
//! NCCL is also what crosses processes: a multi-process run is this solver
//! with one local part per process (see [`GpuMultiSolver::new_rank`]).
//!
//! With the blocked kernel, peer exchange in one process and overlap (the
//! default), no copy moves a halo: each part's pass stores the boundary
//! slices it finishes a second time into the neighbours' halos and its own
//! mirror halos (`kernels_gpu::blocked::forward`, planned by
//! [`ZSplit::forwarded_runs`](crate::layout::zsplit::ZSplit::forwarded_runs)),
//! one launch a part and pass, and a pass waits for the passes before it
//! of the parts it exchanges with. The scheme below remains for the other
//! kernels, host staging, NCCL and `--no-overlap`.
//!
//! With the blocked kernel a "step" above is a pass of up to k steps and
//! the halos are k slices deep ([`super`]): A and C advance the bottom and
//! top runs of k owned slices (which read the halos), B the interior
//! (which reads none, as the pass reads k slices beyond its window), and
//! the copies move runs of k slices of every variable, in peer or host
//! mode (NCCL keeps one-slice halos: `MultiError::DeepHalosNeedCopies`).
//!
//! [`setup`] says how a run is split and exchanged, [`solver`] builds the
//! parts ([`part`]) and orders a step, [`halos`] exchanges the halo slices
//! by the copies of [`copy`], [`replay`] takes quiet stretches of passes
//! as CUDA graphs over every GPU (kept in [`split_graphs`]), [`gather`] collects the whole grid, and
//! [`interface`] is the run loop's view.

pub mod copy;
pub mod gather;
pub mod halos;
pub mod interface;
pub mod part;
pub mod replay;
pub mod setup;
pub mod solver;
pub mod split_graphs;

pub(crate) use copy::{copy_slice_from_host, copy_slice_peer, copy_slice_to_host, enable_peer_access};
pub(crate) use interface::{gpus_name, idle_all};
pub use setup::{Exchange, SplitRun};
pub use solver::GpuMultiSolver;

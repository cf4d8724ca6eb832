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
//! With the blocked kernel a "step" above is a pass of up to k steps and
//! the halos are k slices deep ([`super`]): A and C advance the bottom and
//! top runs of k owned slices (which read the halos), B the interior
//! (which reads none, as the pass reads k slices beyond its window), and
//! the copies move runs of k slices of every variable, in peer or host
//! mode (NCCL keeps one-slice halos: `MultiError::DeepHalosNeedCopies`).

use std::sync::Arc;

use cudarc::driver::sys::{self, CUdeviceptr, CUmemorytype};
use cudarc::driver::{
    CudaContext, CudaEvent, CudaSlice, CudaStream, DevicePtr, DriverError, PinnedHostSlice, result,
};
use kernels_gpu::ecg::{EcgProbe, ecg_scale};
use kernels_gpu::{GridDims, ZWindow};
use serde::Serialize;

use kernels_gpu::CellModel;

use super::nccl::{self, Comm, DataType, P2p, ReduceOp, UniqueId};
use super::split::ZSplit;
use super::{MultiError, check_splittable, halo_depth};
use crate::backend::gpu::kernel::pass_steps;
use crate::backend::gpu::solver::SliceGeometry;
use crate::backend::{BackendKind, GpuDevice, GpuSolver, KernelConfig, Solver, SolverError};
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::events::{EventStart, Events};
use crate::scalar::Scalar;
use crate::state::State;

/// How halo slices travel between GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Exchange {
    /// Device -> pinned host buffer -> neighbour device (the paper's scheme).
    Host,
    /// Direct GPU-to-GPU copies (needs peer access between the GPUs).
    Peer,
    /// NCCL send/recv (also between processes).
    Nccl,
}

impl Exchange {
    pub const fn name(self) -> &'static str {
        match self {
            Exchange::Host => "host",
            Exchange::Peer => "peer",
            Exchange::Nccl => "nccl",
        }
    }
}

fn cuda(during: &'static str) -> impl FnOnce(DriverError) -> SolverError {
    move |source| SolverError::Cuda { during, source }
}

fn check(result: sys::CUresult, during: &'static str) -> Result<(), SolverError> {
    match result {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(SolverError::Cuda { during, source: DriverError(e) }),
    }
}

/// What every sub-domain's solver is built from.
pub struct SplitRun<'a, T> {
    /// The kernels (`fibril::PTX`).
    pub ptx: &'a str,
    pub config: KernelConfig,
    /// The whole problem and its initial state; each part takes its slab.
    pub domain: &'a Domain,
    pub initial: &'a State<T>,
}

/// One GPU's share: its solver, streams and events.
struct Part<M: CellModel, T: Scalar> {
    /// Global sub-domain index (= NCCL rank).
    index: usize,
    ctx: Arc<CudaContext>,
    solver: GpuSolver<M, T>,
    /// Kernel A (bottom boundary slice), B (interior), C (top boundary slice), copies.
    a: Arc<CudaStream>,
    b: Arc<CudaStream>,
    c: Arc<CudaStream>,
    copy: Arc<CudaStream>,
    a_done: CudaEvent,
    b_done: CudaEvent,
    c_done: CudaEvent,
    /// The stimuli of this step are applied (what the step kernels wait for).
    stimulated: CudaEvent,
    /// The halos of this step have arrived and the boundary kernels that
    /// read the previous ones are done: what the neighbours wait for.
    halo_done: CudaEvent,
    /// Everything of this GPU's latest step that the next step's kernels
    /// need on this GPU (copies and mirror halos included).
    step_done: CudaEvent,
    /// Sender side of host staging: the slice is in the pinned buffer.
    staged: [CudaEvent; 2],
    /// Pinned buffers for the slices sent down (0) and up (1), host mode.
    pinned: [Option<PinnedHostSlice<u8>>; 2],
    /// NCCL mode: the communicator, and contiguous buffers for slices
    /// that are not contiguous in U (tower layout).
    comm: Option<Comm>,
    staging: Option<Staging>,
    owned: u32,
    /// Halo slices on each side ([`ZSplit::depth`]).
    depth: u32,
}

/// Contiguous device buffers for one part's NCCL traffic.
struct Staging {
    /// Boundary slices going down (0) and up (1).
    send: [CudaSlice<u8>; 2],
    /// Halos arriving from below (0) and above (1).
    recv: [CudaSlice<u8>; 2],
}

impl Staging {
    fn address(buf: &CudaSlice<u8>, stream: &CudaStream) -> CUdeviceptr {
        let (ptr, _sync) = buf.device_ptr(stream);
        ptr
    }
}

/// Which sub-domains this process drives.
enum Scope {
    /// All of them (one process, G GPUs).
    Whole,
    /// One, as one rank of a multi-process run; `flag` is one u32 on its
    /// GPU for the cross-rank reductions.
    Rank { flag: CudaSlice<u32> },
}

/// G sub-domains on G GPUs (or several on one GPU, for testing), in one
/// process or spread over G processes. Only variable 0 crosses between
/// sub-domains: the halo slices carry U, which the stencil reads; the
/// model's local variables are read at a cell's own slice only.
pub struct GpuMultiSolver<M: CellModel, T: Scalar> {
    split: ZSplit,
    parts: Vec<Part<M, T>>,
    scope: Scope,
    exchange: Exchange,
    overlap: bool,
    config: KernelConfig,
    device_names: Vec<String>,
}

impl<M: CellModel, T: Scalar> GpuMultiSolver<M, T> {
    /// Sub-domain i runs on `devices[i]`. Peer exchange needs peer access
    /// between neighbouring GPUs; a GPU may appear twice (its copies are
    /// then device-local), except with NCCL, which needs distinct GPUs.
    pub fn new(
        devices: &[GpuDevice],
        run: &SplitRun<'_, T>,
        exchange: Exchange,
        overlap: bool,
    ) -> Result<Self, MultiError> {
        let config = run.config;
        let depth = halo_depth(&config);
        if depth > 1 && exchange == Exchange::Nccl {
            return Err(MultiError::DeepHalosNeedCopies { steps: depth });
        }
        let split = check_splittable(run.domain.dims(), devices.len(), depth)?;
        // With overlap the boundary runs of `depth` slices step apart from
        // the interior; sub-domains of fewer than twice that run without.
        let overlap = overlap && (0..split.parts()).all(|i| split.owned_len(i) >= 2 * depth);
        if exchange == Exchange::Peer {
            enable_peer_access(devices)?;
        }
        let mut comms: Vec<Option<Comm>> = match exchange {
            Exchange::Nccl => {
                let ordinals: Vec<usize> = devices.iter().map(|d| d.info().ordinal).collect();
                Comm::init_all(&ordinals)?.into_iter().map(Some).collect()
            }
            _ => devices.iter().map(|_| None).collect(),
        };
        let mut parts = Vec::with_capacity(devices.len());
        for (i, device) in devices.iter().enumerate() {
            parts.push(Part::new(device, run, &split, i, exchange, comms[i].take())?);
        }
        let device_names = devices.iter().map(|d| d.info().name.clone()).collect();
        let scope = Scope::Whole;
        Ok(Self { split, parts, scope, exchange, overlap, config, device_names })
    }

    /// Rank `rank` of a `size`-process run: this process drives sub-domain
    /// `rank` on `device` and exchanges halos with ranks `rank +- 1`
    /// through NCCL. Every rank passes the same `run` and the `id` that
    /// rank 0 made. Blocks until all ranks have joined.
    pub fn new_rank(
        device: &GpuDevice,
        run: &SplitRun<'_, T>,
        overlap: bool,
        (rank, size): (usize, usize),
        id: UniqueId,
    ) -> Result<Self, MultiError> {
        let config = run.config;
        let depth = halo_depth(&config);
        if depth > 1 {
            return Err(MultiError::DeepHalosNeedCopies { steps: depth });
        }
        let split = check_splittable(run.domain.dims(), size, depth)?;
        device.context().bind_to_thread().map_err(cuda("binding a context"))?;
        let comm = Comm::init_rank(id, rank, size)?;
        let part = Part::new(device, run, &split, rank, Exchange::Nccl, Some(comm))?;
        let flag = part.copy.alloc_zeros::<u32>(1).map_err(cuda("allocating the rank flag"))?;
        Ok(Self {
            split,
            parts: vec![part],
            scope: Scope::Rank { flag },
            exchange: Exchange::Nccl,
            overlap,
            config,
            device_names: vec![device.info().name.clone()],
        })
    }

    pub fn split(&self) -> &ZSplit {
        &self.split
    }

    /// Global index of the top sub-domain.
    fn last_index(&self) -> usize {
        self.split.parts() - 1
    }

    /// Local position of global sub-domain `j`, if this process drives it.
    fn local(&self, j: usize) -> Option<usize> {
        let first = self.parts[0].index;
        (j >= first && j < first + self.parts.len()).then(|| j - first)
    }

    /// Global neighbours of part `i`: (below, above), `None` at a global end.
    fn neighbours(&self, i: usize) -> [Option<usize>; 2] {
        let g = self.parts[i].index;
        [g.checked_sub(1), (g < self.last_index()).then_some(g + 1)]
    }

    /// Enqueues one pass of `steps` steps (one but for the blocked
    /// kernel, at most the halo depth) on every GPU (returns before it runs).
    fn step(&mut self, steps: u32) -> Result<(), SolverError> {
        for i in 0..self.parts.len() {
            self.order_step(i)?;
        }
        for part in &mut self.parts {
            // Stimuli first, on the stream that has waited for everything
            // the step's kernels wait for; the other kernels wait for them.
            let first = if self.overlap { part.a.clone() } else { part.b.clone() };
            if part.solver.stimulate_on(&first)? {
                part.stimulated.record(&first).map_err(cuda("recording an event"))?;
                for s in [&part.b, &part.c] {
                    s.wait(&part.stimulated).map_err(cuda("ordering stimuli"))?;
                }
            }
        }
        for part in &mut self.parts {
            let (n, d) = (part.owned, part.depth);
            if self.overlap {
                // The bottom and top runs of `d` owned slices (which read
                // the halos), then the interior (which reads none).
                let (a, b, c) = (part.a.clone(), part.b.clone(), part.c.clone());
                part.solver.launch_pass_on(&a, ZWindow::new(d, 2 * d), steps)?;
                part.solver.launch_pass_on(&c, ZWindow::new(n, n + d), steps)?;
                part.solver.launch_pass_on(&b, ZWindow::new(2 * d, n), steps)?;
            } else {
                let b = part.b.clone();
                part.solver.launch_pass_on(&b, ZWindow::new(d, n + d), steps)?;
            }
            part.a_done.record(&part.a).map_err(cuda("recording an event"))?;
            part.b_done.record(&part.b).map_err(cuda("recording an event"))?;
            part.c_done.record(&part.c).map_err(cuda("recording an event"))?;
            part.copy.wait(&part.a_done).map_err(cuda("ordering copies"))?;
            part.copy.wait(&part.c_done).map_err(cuda("ordering copies"))?;
            if !self.overlap {
                part.copy.wait(&part.b_done).map_err(cuda("ordering copies"))?;
            }
        }
        match self.exchange {
            Exchange::Peer | Exchange::Host => self.send_boundaries()?,
            Exchange::Nccl => self.exchange_nccl()?,
        }
        for i in 0..self.parts.len() {
            if self.exchange == Exchange::Host {
                self.receive_from_host(i)?;
            }
            self.finish_halos(i)?;
        }
        for part in &mut self.parts {
            part.solver.finish_pass(steps);
        }
        Ok(())
    }

    /// What part `i`'s kernels of the next step wait for.
    fn order_step(&self, i: usize) -> Result<(), SolverError> {
        let p = &self.parts[i];
        let wait = |s: &CudaStream, e: &CudaEvent| s.wait(e).map_err(cuda("ordering steps"));
        wait(&p.a, &p.step_done)?;
        wait(&p.c, &p.step_done)?;
        // A reads local slice 2 and C slice n - 1, which B wrote.
        wait(&p.a, &p.b_done)?;
        wait(&p.c, &p.b_done)?;
        if self.overlap {
            // B reads slices 1 and n, which A and C wrote, and overwrites
            // slices 2..n-1 of the buffer that A and C of the last step read
            // (and that the mirror copies of the step before read, which A
            // and C waited for). It never touches a halo, so it waits for
            // neither the copies nor the neighbours.
            wait(&p.b, &p.a_done)?;
            wait(&p.b, &p.c_done)?;
        } else {
            wait(&p.b, &p.step_done)?;
        }
        // NCCL orders the two sides itself; copies need the neighbours' events.
        if self.exchange != Exchange::Nccl {
            let boundary = if self.overlap { [&p.a, &p.c] } else { [&p.b, &p.b] };
            for j in self.neighbours(i).into_iter().flatten() {
                let local = self.local(j).expect("peer and host exchange drive every part");
                for s in boundary {
                    wait(s, &self.parts[local].halo_done)?;
                }
            }
        }
        Ok(())
    }

    /// Boundary runs of `depth` slices to the neighbours' halos (peer), or
    /// into pinned buffers (host), on each sender's copy stream, while B
    /// may still run: U, and with deep halos every variable.
    fn send_boundaries(&mut self) -> Result<(), SolverError> {
        for i in 0..self.parts.len() {
            let (n, d) = (self.parts[i].owned, self.parts[i].depth);
            // (direction, my boundary run's first slice, neighbour)
            let [below, above] = self.neighbours(i);
            for (dir, src_first, j) in [(0usize, d, below), (1, n, above)] {
                let Some(j) = j.and_then(|j| self.local(j)) else { continue };
                let dst_first = if dir == 0 { self.parts[j].owned + d } else { 0 };
                let src = &self.parts[i];
                let src_geo = src.run_geometry(src_first);
                match self.exchange {
                    Exchange::Peer => {
                        let dst = &self.parts[j];
                        let dst_geo = dst.run_geometry(dst_first);
                        for (from, to) in src.exchanged().into_iter().zip(dst.exchanged()) {
                            copy_slice_peer((&src.ctx, from, src_geo), (&dst.ctx, to, dst_geo), &src.copy)?;
                        }
                    }
                    Exchange::Host => {
                        let host = src.pinned[dir].as_ref().expect("host exchange has pinned buffers");
                        for (v, from) in src.exchanged().into_iter().enumerate() {
                            copy_slice_to_host(from, src_geo, (host, v * src.run_bytes()), &src.copy)?;
                        }
                        src.staged[dir].record(&src.copy).map_err(cuda("recording an event"))?;
                    }
                    Exchange::Nccl => unreachable!("NCCL sends in exchange_nccl"),
                }
            }
        }
        Ok(())
    }

    /// Every part's sends and receives as one NCCL group, on the copy
    /// streams; tower slices go through the contiguous staging buffers.
    fn exchange_nccl(&mut self) -> Result<(), SolverError> {
        debug_assert_eq!(self.split.depth(), 1, "NCCL exchanges one-slice halos (checked at construction)");
        let bytes = |p: &Part<M, T>| {
            let g = p.solver.slice_geometry(0);
            g.width_bytes * g.rows
        };
        // Pack the boundary slices that are not contiguous.
        for p in &self.parts {
            if let Some(st) = &p.staging {
                for (dir, slice) in [(0usize, 1u32), (1, p.owned)] {
                    let to = Staging::address(&st.send[dir], &p.copy);
                    let geo = p.solver.slice_geometry(slice);
                    copy_slice_peer(
                        (&p.ctx, p.solver.u_next_address(), geo),
                        (&p.ctx, to, contiguous(geo)),
                        &p.copy,
                    )?;
                }
            }
        }
        nccl::group(|| -> Result<(), SolverError> {
            for (i, p) in self.parts.iter().enumerate() {
                let comm = p.comm.as_ref().expect("NCCL exchange has communicators");
                let stream = p.copy.cu_stream();
                let n = p.owned;
                let [below, above] = self.neighbours(i);
                for (dir, peer, my_slice, my_halo) in [(0usize, below, 1u32, 0u32), (1, above, n, n + 1)] {
                    let Some(peer) = peer else { continue };
                    let (src, dst) = match &p.staging {
                        Some(st) => (
                            Staging::address(&st.send[dir], &p.copy),
                            Staging::address(&st.recv[dir], &p.copy),
                        ),
                        None => {
                            let u = p.solver.u_next_address();
                            (
                                u + p.solver.slice_geometry(my_slice).offset_bytes as u64,
                                u + p.solver.slice_geometry(my_halo).offset_bytes as u64,
                            )
                        }
                    };
                    p.ctx.bind_to_thread().map_err(cuda("binding a context"))?;
                    // SAFETY: src and dst are whole slices (or staging buffers of
                    // the same size) of this GPU's U_next, alive until the stream
                    // has run; the copy stream orders them after the kernels.
                    unsafe {
                        comm.p2p(P2p::Send, src, bytes(p), DataType::Uint8, peer, stream)?;
                        comm.p2p(P2p::Recv, dst, bytes(p), DataType::Uint8, peer, stream)?;
                    }
                }
            }
            Ok(())
        })?;
        // Unpack the received halos that are not contiguous.
        for (i, p) in self.parts.iter().enumerate() {
            if let Some(st) = &p.staging {
                let [below, above] = self.neighbours(i);
                for (dir, halo, peer) in [(0usize, 0u32, below), (1, p.owned + 1, above)] {
                    if peer.is_some() {
                        let from = Staging::address(&st.recv[dir], &p.copy);
                        let geo = p.solver.slice_geometry(halo);
                        copy_slice_peer(
                            (&p.ctx, from, contiguous(geo)),
                            (&p.ctx, p.solver.u_next_address(), geo),
                            &p.copy,
                        )?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Host mode, on GPU i's copy stream: the staged runs from the
    /// neighbours into the halos.
    fn receive_from_host(&mut self, i: usize) -> Result<(), SolverError> {
        let (n, d) = (self.parts[i].owned, self.parts[i].depth);
        let [below, above] = self.neighbours(i);
        // From below: the neighbour's upward buffer into my halo 0..d; from above into n + d..n + 2d.
        for (j, dir, halo_first) in [(below, 1usize, 0u32), (above, 0, n + d)] {
            let Some(j) = j.and_then(|j| self.local(j)) else { continue };
            let (src, dst) = (&self.parts[j], &self.parts[i]);
            dst.copy.wait(&src.staged[dir]).map_err(cuda("ordering copies"))?;
            let host = src.pinned[dir].as_ref().expect("host exchange has pinned buffers");
            let geo = dst.run_geometry(halo_first);
            for (v, to) in dst.exchanged().into_iter().enumerate() {
                copy_slice_from_host((host, v * dst.run_bytes()), to, geo, &dst.copy)?;
            }
        }
        Ok(())
    }

    /// Records `halo_done`, fills the mirror halos at the global ends, and
    /// records `step_done`.
    fn finish_halos(&mut self, i: usize) -> Result<(), SolverError> {
        let [below, above] = self.neighbours(i);
        let (first, last) = (below.is_none(), above.is_none());
        let part = &self.parts[i];
        part.halo_done.record(&part.copy).map_err(cuda("recording an event"))?;
        if first || last {
            // Mirror halos read owned slices that kernel B may write.
            part.copy.wait(&part.b_done).map_err(cuda("ordering copies"))?;
        }
        // Each mirror halo slice from the owned slice it reflects, slice by
        // slice (the order reverses), every exchanged variable.
        let [low, high] = self.split.halo_slices(part.index);
        for (at_end, halos) in [(first, low), (last, high)] {
            for z in halos.filter(|_| at_end) {
                let (_, from) = self.split.halo_source(part.index, z);
                let (from, to) = (part.solver.slice_geometry(from), part.solver.slice_geometry(z));
                for base in part.exchanged() {
                    copy_slice_peer((&part.ctx, base, from), (&part.ctx, base, to), &part.copy)?;
                }
            }
        }
        part.step_done.record(&part.copy).map_err(cuda("recording an event"))
    }

    fn synchronize_all(&self) -> Result<(), SolverError> {
        for part in &self.parts {
            part.ctx.synchronize().map_err(cuda("running the sub-domains"))?;
        }
        Ok(())
    }

    /// The global state on every rank: each packs its owned slices, one
    /// NCCL all-gather puts every chunk on every GPU.
    fn all_gather_state(&mut self, local: &State<T>) -> Result<State<T>, SolverError> {
        let p = &self.parts[0];
        let chunk = self.split.pack_owned(local, p.index);
        let d = local.dims();
        let send = p.copy.clone_htod(&chunk).map_err(cuda("uploading the owned slab"))?;
        let all = p
            .copy
            .alloc_zeros::<T>(chunk.len() * self.split.parts())
            .map_err(cuda("allocating the gathered fields"))?;
        {
            let (s, _s) = send.device_ptr(&p.copy);
            let (r, _r) = all.device_ptr(&p.copy);
            let comm = p.comm.as_ref().expect("ranks have a communicator");
            // SAFETY: `send` holds one chunk and `all` one chunk per rank.
            unsafe { comm.all_gather(s, r, chunk.len() * T::BYTES, DataType::Uint8, p.copy.cu_stream())? };
        }
        let gathered = p.copy.clone_dtoh(&all).map_err(cuda("downloading the gathered fields"))?;
        Ok(self.split.unpack_gathered(M::INFO, d.nx, d.ny, &gathered))
    }

    /// Equal chunks of bytes from every rank, concatenated in rank order
    /// (one NCCL all-gather).
    fn all_gather_bytes(&mut self, chunk: &[u8]) -> Result<Vec<u8>, SolverError> {
        let p = &self.parts[0];
        let send = p.copy.clone_htod(chunk).map_err(cuda("uploading a chunk to gather"))?;
        let all = p
            .copy
            .alloc_zeros::<u8>(chunk.len() * self.split.parts())
            .map_err(cuda("allocating a gather"))?;
        {
            let (s, _s) = send.device_ptr(&p.copy);
            let (r, _r) = all.device_ptr(&p.copy);
            let comm = p.comm.as_ref().expect("ranks have a communicator");
            // SAFETY: `send` holds one chunk and `all` one chunk per rank.
            unsafe { comm.all_gather(s, r, chunk.len(), DataType::Uint8, p.copy.cu_stream())? };
        }
        p.copy.clone_dtoh(&all).map_err(cuda("downloading a gather"))
    }

    /// The whole grid's maps on every rank: each rank sends its local maps
    /// (halo slices included, padded to the largest part's size), every
    /// rank keeps the owned slices of each.
    fn all_gather_maps(&mut self, local: &Maps) -> Result<Maps, SolverError> {
        let slice = local.dims.slice_cells();
        let most = (0..self.split.parts()).map(|i| self.split.owned_len(i) as usize + 2).max().unwrap_or(0);
        let slots = local.recording.slots();
        let padded = |field: &[f32], fields: usize, local_cells: usize| -> Vec<f32> {
            let mut out = vec![f32::NAN; fields * most * slice];
            for f in 0..fields {
                out[f * most * slice..f * most * slice + local_cells]
                    .copy_from_slice(&field[f * local_cells..(f + 1) * local_cells]);
            }
            out
        };
        let cells = local.dims.cells();
        let mut values = padded(&local.activation, slots, cells);
        if let Some(r) = &local.repolarisation {
            values.extend(padded(r, slots, cells));
        }
        if let Some(c) = &local.count {
            let bits: Vec<f32> = c.iter().map(|&n| f32::from_bits(n)).collect();
            values.extend(padded(&bits, 1, cells));
        }
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let gathered = self.all_gather_bytes(&bytes)?;
        let per_rank = bytes.len();
        let parts = (0..self.split.parts())
            .map(|i| {
                let dims =
                    self.split.local_dims(GridDims::new(local.dims.nx, local.dims.ny, self.split.nz()), i);
                let chunk: Vec<f32> = gathered[i * per_rank..(i + 1) * per_rank]
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
                    .collect();
                let take = |at: usize, fields: usize| -> Vec<f32> {
                    (0..fields)
                        .flat_map(|f| {
                            chunk[at + f * most * slice..at + f * most * slice + dims.cells()].to_vec()
                        })
                        .collect()
                };
                let block = slots * most * slice;
                let mut at = 0;
                let activation = take(at, slots);
                at += block;
                let repolarisation = local.repolarisation.as_ref().map(|_| {
                    let r = take(at, slots);
                    at += block;
                    r
                });
                let count = local.count.as_ref().map(|_| take(at, 1).into_iter().map(f32::to_bits).collect());
                Maps { recording: local.recording, dims, activation, repolarisation, count }
            })
            .collect::<Vec<_>>();
        Ok(Maps::gather(&self.split, &parts))
    }
}

impl<M: CellModel, T: Scalar> Part<M, T> {
    /// Sub-domain `index` of `split` on `device`, with its streams, events
    /// and exchange buffers.
    fn new(
        device: &GpuDevice,
        run: &SplitRun<'_, T>,
        split: &ZSplit,
        index: usize,
        exchange: Exchange,
        comm: Option<Comm>,
    ) -> Result<Self, SolverError> {
        let local = run.domain.with_nz(split.local_dims(run.domain.dims(), index).nz);
        let solver = GpuSolver::new(device, run.ptx, run.config, &local, &split.scatter(run.initial, index))?;
        let ctx = device.context().clone();
        ctx.bind_to_thread().map_err(cuda("binding a context"))?;
        // Lower numbers are higher priorities: (least, greatest).
        let (low, high) = result::stream::get_priority_range().map_err(cuda("querying stream priorities"))?;
        let stream = |priority| ctx.new_stream_with_priority(priority).map_err(cuda("creating a stream"));
        let event = || ctx.new_event(None).map_err(cuda("creating an event"));
        let geometry = solver.slice_geometry(0);
        let slice_bytes = geometry.width_bytes * geometry.rows;
        // A run of `depth` slices of each exchanged variable each way.
        let depth = split.depth();
        let exchanged = if depth > 1 { 1 + <M::Locals<T> as kernels_gpu::Locals<T>>::COUNT } else { 1 };
        let pinned = || -> Result<Option<PinnedHostSlice<u8>>, SolverError> {
            if exchange != Exchange::Host {
                return Ok(None);
            }
            let bytes = slice_bytes * depth as usize * exchanged;
            // SAFETY: the buffer is written by a copy before it is read.
            unsafe { ctx.alloc_pinned_with_flags::<u8>(bytes, sys::CU_MEMHOSTALLOC_PORTABLE) }
                .map(Some)
                .map_err(cuda("allocating pinned host memory"))
        };
        let copy = stream(high)?;
        let staging = if exchange == Exchange::Nccl && geometry.rows > 1 {
            let buf = || copy.alloc_zeros::<u8>(slice_bytes).map_err(cuda("allocating NCCL staging"));
            Some(Staging { send: [buf()?, buf()?], recv: [buf()?, buf()?] })
        } else {
            None
        };
        let part = Part {
            index,
            a: stream(high)?,
            b: stream(low)?,
            c: stream(high)?,
            a_done: event()?,
            b_done: event()?,
            c_done: event()?,
            stimulated: event()?,
            halo_done: event()?,
            step_done: event()?,
            staged: [event()?, event()?],
            pinned: [pinned()?, pinned()?],
            comm,
            staging,
            owned: split.owned_len(index),
            depth,
            copy,
            solver,
            ctx,
        };
        // The initial upload ran on the solver's stream: finish it.
        part.ctx.synchronize().map_err(cuda("uploading the sub-domain"))?;
        part.step_done.record(&part.copy).map_err(cuda("recording an event"))?;
        Ok(part)
    }
}

impl<M: CellModel, T: Scalar> Part<M, T> {
    /// The variables that cross to the neighbours, as the addresses of the
    /// buffers a pass writes: U_next, and with deep halos each local
    /// variable too (the halo's cells are stepped within a pass, so they
    /// need their locals; one-slice halos are only read as neighbours).
    fn exchanged(&self) -> Vec<CUdeviceptr> {
        let mut all = self.solver.next_variable_addresses();
        if self.depth == 1 {
            all.truncate(1);
        }
        all
    }

    /// Where the run of `depth` slices from local slice `first` lies in a
    /// variable's buffer: one slice in any layout, several contiguous
    /// (deep halos come with the blocked kernel, which is row-major).
    fn run_geometry(&self, first: u32) -> SliceGeometry {
        let g = self.solver.slice_geometry(first);
        if self.depth == 1 {
            return g;
        }
        debug_assert_eq!(g.rows, 1, "deep halos are row-major");
        let width_bytes = g.width_bytes * self.depth as usize;
        SliceGeometry { width_bytes, pitch_bytes: width_bytes, ..g }
    }

    /// Bytes of one variable's run in a pinned staging buffer.
    fn run_bytes(&self) -> usize {
        let g = self.solver.slice_geometry(0);
        g.width_bytes * g.rows * self.depth as usize
    }
}

/// The geometry of a slice packed contiguously at offset 0.
fn contiguous(geo: SliceGeometry) -> SliceGeometry {
    SliceGeometry { offset_bytes: 0, pitch_bytes: geo.width_bytes, ..geo }
}

/// Lets each GPU read and write its neighbours' memory directly.
pub(crate) fn enable_peer_access(devices: &[GpuDevice]) -> Result<(), MultiError> {
    for pair in devices.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.info().ordinal == b.info().ordinal {
            continue;
        }
        for (from, to) in [(a, b), (b, a)] {
            let mut can = 0;
            // SAFETY: plain queries and a context switch on valid contexts.
            unsafe {
                check(
                    sys::cuDeviceCanAccessPeer(
                        &mut can,
                        from.context().cu_device(),
                        to.context().cu_device(),
                    ),
                    "querying peer access",
                )?;
                if can == 0 {
                    return Err(MultiError::NoPeerAccess {
                        from: from.info().ordinal,
                        to: to.info().ordinal,
                    });
                }
                from.context().bind_to_thread().map_err(cuda("binding a context"))?;
                let r = sys::cuCtxEnablePeerAccess(to.context().cu_ctx(), 0);
                if r != sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED {
                    check(r, "enabling peer access")?;
                }
            }
        }
    }
    Ok(())
}

/// One 2D copy of a slice between device buffers, possibly on two GPUs.
pub(crate) fn copy_slice_peer(
    (src_ctx, src, src_geo): (&Arc<CudaContext>, CUdeviceptr, SliceGeometry),
    (dst_ctx, dst, dst_geo): (&Arc<CudaContext>, CUdeviceptr, SliceGeometry),
    stream: &CudaStream,
) -> Result<(), SolverError> {
    debug_assert_eq!((src_geo.width_bytes, src_geo.rows), (dst_geo.width_bytes, dst_geo.rows));
    let p = sys::CUDA_MEMCPY3D_PEER {
        srcXInBytes: 0,
        srcY: 0,
        srcZ: 0,
        srcLOD: 0,
        srcMemoryType: CUmemorytype::CU_MEMORYTYPE_DEVICE,
        srcHost: std::ptr::null(),
        srcDevice: src + src_geo.offset_bytes as u64,
        srcArray: std::ptr::null_mut(),
        srcContext: src_ctx.cu_ctx(),
        srcPitch: src_geo.pitch_bytes,
        srcHeight: src_geo.rows,
        dstXInBytes: 0,
        dstY: 0,
        dstZ: 0,
        dstLOD: 0,
        dstMemoryType: CUmemorytype::CU_MEMORYTYPE_DEVICE,
        dstHost: std::ptr::null_mut(),
        dstDevice: dst + dst_geo.offset_bytes as u64,
        dstArray: std::ptr::null_mut(),
        dstContext: dst_ctx.cu_ctx(),
        dstPitch: dst_geo.pitch_bytes,
        dstHeight: dst_geo.rows,
        WidthInBytes: src_geo.width_bytes,
        Height: src_geo.rows,
        Depth: 1,
    };
    // SAFETY: both ranges lie inside U_next buffers of the sub-domains
    // (slice_geometry of a slice of that buffer); the stream belongs to the
    // source's context, which is current.
    unsafe {
        stream.context().bind_to_thread().map_err(cuda("binding a context"))?;
        check(sys::cuMemcpy3DPeerAsync(&p, stream.cu_stream()), "copying a halo slice")
    }
}

/// A `CUDA_MEMCPY2D` for `geo.rows` rows of `geo.width_bytes`; each side is
/// (memory type, device address, host address, pitch).
fn copy_2d_params(
    (src_type, src_device, src_host, src_pitch): (CUmemorytype, CUdeviceptr, *const u8, usize),
    (dst_type, dst_device, dst_host, dst_pitch): (CUmemorytype, CUdeviceptr, *const u8, usize),
    geo: SliceGeometry,
) -> sys::CUDA_MEMCPY2D {
    sys::CUDA_MEMCPY2D {
        srcXInBytes: 0,
        srcY: 0,
        srcMemoryType: src_type,
        srcHost: src_host.cast(),
        srcDevice: src_device,
        srcArray: std::ptr::null_mut(),
        srcPitch: src_pitch,
        dstXInBytes: 0,
        dstY: 0,
        dstMemoryType: dst_type,
        dstHost: dst_host.cast_mut().cast(),
        dstDevice: dst_device,
        dstArray: std::ptr::null_mut(),
        dstPitch: dst_pitch,
        WidthInBytes: geo.width_bytes,
        Height: geo.rows,
    }
}

fn copy_2d(p: &sys::CUDA_MEMCPY2D, stream: &CudaStream, during: &'static str) -> Result<(), SolverError> {
    // SAFETY: the caller fills `p` with ranges inside live allocations.
    unsafe {
        stream.context().bind_to_thread().map_err(cuda("binding a context"))?;
        check(sys::cuMemcpy2DAsync_v2(p, stream.cu_stream()), during)
    }
}

/// A slice of a device buffer into a contiguous pinned buffer, `at`
/// bytes into it.
pub(crate) fn copy_slice_to_host(
    src: CUdeviceptr,
    geo: SliceGeometry,
    (host, at): (&PinnedHostSlice<u8>, usize),
    stream: &CudaStream,
) -> Result<(), SolverError> {
    assert!(at + geo.width_bytes * geo.rows <= host.len(), "inside the pinned buffer");
    let p = copy_2d_params(
        (
            CUmemorytype::CU_MEMORYTYPE_DEVICE,
            src + geo.offset_bytes as u64,
            std::ptr::null(),
            geo.pitch_bytes,
        ),
        (CUmemorytype::CU_MEMORYTYPE_HOST, 0, host_ptr(host).wrapping_add(at), geo.width_bytes),
        geo,
    );
    copy_2d(&p, stream, "staging a halo slice in host memory")
}

/// A contiguous pinned buffer, from `at` bytes into it, into a slice of a
/// device buffer.
pub(crate) fn copy_slice_from_host(
    (host, at): (&PinnedHostSlice<u8>, usize),
    dst: CUdeviceptr,
    geo: SliceGeometry,
    stream: &CudaStream,
) -> Result<(), SolverError> {
    assert!(at + geo.width_bytes * geo.rows <= host.len(), "inside the pinned buffer");
    let p = copy_2d_params(
        (CUmemorytype::CU_MEMORYTYPE_HOST, 0, host_ptr(host).wrapping_add(at), geo.width_bytes),
        (
            CUmemorytype::CU_MEMORYTYPE_DEVICE,
            dst + geo.offset_bytes as u64,
            std::ptr::null(),
            geo.pitch_bytes,
        ),
        geo,
    );
    copy_2d(&p, stream, "delivering a halo slice from host memory")
}

fn host_ptr(host: &PinnedHostSlice<u8>) -> *const u8 {
    // The buffer's own event is never recorded (its copies are ordered by
    // our events), so this does not wait.
    host.as_ptr().expect("pinned buffer address")
}

impl<M: CellModel, T: Scalar> Drop for GpuMultiSolver<M, T> {
    /// Neighbours copy into each other's buffers and the buffers are freed
    /// on another stream than the one that last used them, so every GPU
    /// must be idle before any part is dropped (after an error halfway
    /// through a step, say).
    fn drop(&mut self) {
        for part in &self.parts {
            let _ = part.ctx.synchronize();
        }
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for GpuMultiSolver<M, T> {
    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }

    fn device_name(&self) -> String {
        let first = &self.device_names[0];
        if matches!(self.scope, Scope::Rank { .. }) {
            // Each rank knows its own GPU only.
            return format!("{} ranks x {first}", self.split.parts());
        }
        if self.device_names.iter().all(|n| n == first) {
            format!("{} x {first}", self.device_names.len())
        } else {
            self.device_names.join(" + ")
        }
    }

    fn method(&self) -> String {
        format!(
            "{} z-split {}{} exchange {}{}",
            self.config,
            self.split.parts(),
            if matches!(self.scope, Scope::Rank { .. }) { " ranks" } else { "" },
            self.exchange.name(),
            if self.overlap { "" } else { " no-overlap" }
        )
    }

    /// Passes of up to the halo depth's steps (one step each but for the
    /// blocked kernel), each ended early before a stimulus anywhere in the
    /// grid, so that every sub-domain takes the same passes.
    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        let mut left = steps;
        while left > 0 {
            let first = &self.parts[0].solver;
            let k =
                pass_steps(self.split.depth(), left, first.step_count(), |s| first.stimulus_due_anywhere(s));
            self.step(k)?;
            left -= k as u64;
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.synchronize_all()
    }

    /// The global state; in a multi-process run every rank gets it (an
    /// all-gather), so that every rank takes the same decisions on it.
    fn state(&mut self) -> Result<State<T>, SolverError> {
        self.synchronize_all()?;
        let parts = self.parts.iter_mut().map(|p| p.solver.state()).collect::<Result<Vec<_>, _>>()?;
        match self.scope {
            Scope::Whole => Ok(self.split.gather(&parts)),
            Scope::Rank { .. } => self.all_gather_state(&parts[0]),
        }
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        self.synchronize_all()?;
        for part in &mut self.parts {
            part.solver.set_state(&self.split.scatter(state, part.index))?;
        }
        self.synchronize_all()
    }

    fn set_events(
        &mut self,
        events: &Events,
        start: EventStart,
        maps: Option<&Maps>,
    ) -> Result<(), SolverError> {
        self.synchronize_all()?;
        for part in &mut self.parts {
            let local = maps.map(|m| m.scatter(&self.split, part.index));
            part.solver.set_local_events(events, start, self.split.placement(part.index), local.as_ref())?;
        }
        self.synchronize_all()
    }

    /// The whole grid's maps; in a multi-process run every rank gets them
    /// (an all-gather of each rank's owned slices).
    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.synchronize_all()?;
        let parts = self.parts.iter_mut().map(|p| p.solver.local_maps()).collect::<Result<Vec<_>, _>>()?;
        let Some(parts) = parts.into_iter().collect::<Option<Vec<Maps>>>() else { return Ok(None) };
        match self.scope {
            Scope::Whole => Ok(Some(Maps::gather(&self.split, &parts))),
            Scope::Rank { .. } => self.all_gather_maps(&parts[0]).map(Some),
        }
    }

    /// Each part sums its owned slices (its halos give the gradient at its
    /// boundaries); the parts' sums are added in part order, on every rank.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.synchronize_all()?;
        let mut per_part = Vec::new();
        for part in &mut self.parts {
            let z_offset = self.split.owned(part.index).start as i32 - part.depth as i32;
            let window = self.split.owned_window(part.index);
            per_part.push(part.solver.ecg_sums(probes, window, z_offset, true)?);
        }
        if matches!(self.scope, Scope::Rank { .. }) {
            let mine: Vec<u8> = per_part[0].iter().flat_map(|v| v.to_le_bytes()).collect();
            let all = self.all_gather_bytes(&mine)?;
            per_part = all
                .chunks_exact(mine.len().max(1))
                .map(|c| {
                    c.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes"))).collect()
                })
                .collect();
        }
        let scale = probes.first().map_or(0.0, |p| ecg_scale(p.dx, 3));
        Ok((0..probes.len()).map(|k| per_part.iter().map(|p| p[k]).sum::<f64>() * scale).collect())
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.synchronize_all()?;
        let mut any = false;
        for part in &mut self.parts {
            any |= part.solver.any_nonfinite()?;
        }
        self.any_rank(any)
    }

    /// An all-reduce (max) of `flag` over the ranks; every rank must call
    /// it at the same point of the run.
    fn any_rank(&mut self, flag: bool) -> Result<bool, SolverError> {
        let Scope::Rank { flag: buf } = &mut self.scope else {
            return Ok(flag);
        };
        let p = &self.parts[0];
        p.copy.memcpy_htod(&[u32::from(flag)], buf).map_err(cuda("uploading the rank flag"))?;
        let (ptr, _sync) = buf.device_ptr(&p.copy);
        let comm = p.comm.as_ref().expect("ranks have a communicator");
        // SAFETY: one u32 on this GPU, ordered on the copy stream.
        unsafe { comm.all_reduce_in_place(ptr, 1, DataType::Uint32, ReduceOp::Max, p.copy.cu_stream())? };
        let back = p.copy.clone_dtoh(buf).map_err(cuda("reading the rank flag"))?;
        Ok(back[0] != 0)
    }
}

//! The split solver: its sub-domains in this process (all of them, or one
//! rank's), how it is built, and the order of one step's kernels and
//! copies on every GPU.

use cudarc::driver::{CudaEvent, CudaSlice, CudaStream};
use kernels_gpu::CellModel;
use kernels_gpu::ZWindow;
use kernels_gpu::blocked::{Forward, Forwards, MAX_FORWARDS};

use super::copy::enable_peer_access;
use super::part::Part;
use super::setup::{Exchange, SplitRun};
use super::split_graphs::SplitGraphs;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::kernel_config::{KernelConfig, KernelKind};
use crate::layout::zsplit::{ForwardedRun, ZSplit};
use crate::multi::error::MultiError;
use crate::multi::nccl::{Comm, UniqueId};
use crate::multi::plan::{check_splittable, halo_depth};
use crate::scalar::Scalar;
use crate::solver::SolverError;

/// Which sub-domains this process drives.
pub(super) enum Scope {
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
    /// The graphs captured so far; declared first so that they are
    /// destroyed before the parts whose buffers they name.
    pub(super) graphs: SplitGraphs,
    pub(super) split: ZSplit,
    pub(super) parts: Vec<Part<M, T>>,
    pub(super) scope: Scope,
    pub(super) exchange: Exchange,
    pub(super) overlap: bool,
    /// With overlap asked for, peer exchange in one process and the blocked
    /// kernel: per part, the runs of its owned slices its pass stores into
    /// halos (`kernels_gpu::blocked::forward`), which then replace the
    /// boundary launches, the copies and the mirror copies (at any part
    /// thickness: nothing is launched apart).
    pub(super) forwarded: Option<Vec<Vec<ForwardedRun>>>,
    pub(super) config: KernelConfig,
    pub(super) device_names: Vec<String>,
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
        let forwarded = (overlap && exchange == Exchange::Peer && config.kind == KernelKind::Blocked)
            .then(|| split.forwarded_runs(MAX_FORWARDS))
            .flatten();
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
        let graphs = SplitGraphs::new();
        Ok(Self { graphs, split, parts, scope, exchange, overlap, forwarded, config, device_names })
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
            graphs: SplitGraphs::default(),
            split,
            parts: vec![part],
            scope: Scope::Rank { flag },
            exchange: Exchange::Nccl,
            overlap,
            forwarded: None,
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
    pub(super) fn local(&self, j: usize) -> Option<usize> {
        let first = self.parts[0].index;
        (j >= first && j < first + self.parts.len()).then(|| j - first)
    }

    /// Global neighbours of part `i`: (below, above), `None` at a global end.
    pub(super) fn neighbours(&self, i: usize) -> [Option<usize>; 2] {
        let g = self.parts[i].index;
        [g.checked_sub(1), (g < self.last_index()).then_some(g + 1)]
    }

    /// Enqueues one pass of `steps` steps (one but for the blocked
    /// kernel, at most the halo depth) on every GPU (returns before it
    /// runs). `forked`: every stream was just forked off one point after
    /// all earlier work (the first pass of a graph's capture), so the
    /// waits for the last pass's events, recorded outside the capture,
    /// are left out.
    pub(super) fn enqueue_pass(&mut self, steps: u32, forked: bool) -> Result<(), SolverError> {
        if self.forwarded.is_some() {
            return self.enqueue_forwarding_pass(steps, forked);
        }
        for i in (0..self.parts.len()).filter(|_| !forked) {
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

    /// A pass whose kernels store the halos themselves: per part one
    /// launch over its owned slices on stream B, after the stimuli. Part
    /// i's pass p + 1 waits for the pass p of every part it stores into or
    /// that stores into it: those wrote the halos it reads, and read the
    /// buffers its pass writes halos into (a part's U_next of pass p + 1
    /// is its U of pass p).
    fn enqueue_forwarding_pass(&mut self, steps: u32, forked: bool) -> Result<(), SolverError> {
        let plan = self.forwarded.as_ref().expect("called with a plan");
        if !forked {
            for (i, part) in self.parts.iter().enumerate() {
                for (j, runs) in plan.iter().enumerate() {
                    let linked =
                        j != i && (runs.iter().any(|r| r.dest == i) || plan[i].iter().any(|r| r.dest == j));
                    if linked {
                        part.b.wait(&self.parts[j].b_done).map_err(cuda("ordering passes"))?;
                    }
                }
            }
        }
        let destinations: Vec<_> = self.parts.iter().map(|p| p.solver.forward_destination()).collect();
        let with_locals = self.split.depth() > 1;
        for (part, runs) in self.parts.iter_mut().zip(plan) {
            let b = part.b.clone();
            part.solver.stimulate_on(&b)?;
            let forwards: Vec<Forward> = runs
                .iter()
                .map(|r| {
                    let (u, local, cells) = destinations[r.dest];
                    let local = if with_locals { local } else { 0 };
                    Forward {
                        u,
                        local,
                        cells,
                        first: r.first,
                        count: r.count,
                        to: r.to,
                        step: r.step,
                        _pad: 0,
                    }
                })
                .collect();
            let window = ZWindow::new(part.depth, part.owned + part.depth);
            // SAFETY: each run's destination is U_next (and the locals'
            // second buffer) of a part of this split, on this GPU or a
            // peer-enabled neighbour (`enable_peer_access`), with this
            // part's x-y plane; its planes are halo slices (`forwarded_runs`),
            // which no pass's window writes; the parts it stores into wait
            // for this pass's `b_done` before they read or write them again
            // (above, at the next pass; the graphs keep these edges).
            unsafe { part.solver.launch_blocked(&b, window, steps, Forwards::new(&forwards)) }?;
            part.b_done.record(&b).map_err(cuda("recording an event"))?;
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
}

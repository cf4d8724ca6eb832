//! The halo exchange after a step: boundary slices sent to the
//! neighbours by peer or host copies or through NCCL, and the mirror
//! halos at the global ends.

use kernels_gpu::CellModel;

use super::copy::{copy_slice_from_host, copy_slice_peer, copy_slice_to_host};
use super::part::{Part, Staging, contiguous};
use super::setup::Exchange;
use super::solver::GpuMultiSolver;
use crate::backend::gpu::cuda::cuda;
use crate::multi::nccl::{self, DataType, P2p};
use crate::scalar::Scalar;
use crate::solver::SolverError;

impl<M: CellModel, T: Scalar> GpuMultiSolver<M, T> {
    /// Boundary runs of `depth` slices to the neighbours' halos (peer), or
    /// into pinned buffers (host), on each sender's copy stream, while B
    /// may still run: U, and with deep halos every variable.
    pub(super) fn send_boundaries(&mut self) -> Result<(), SolverError> {
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
                        let pairs = src.exchanged().into_iter().zip(dst.exchanged());
                        if src_geo.rows == 1 {
                            // Row-major runs: every variable's by one launch.
                            let (from, to) = (src_geo.offset_bytes as u64, dst_geo.offset_bytes as u64);
                            let runs: Vec<_> = pairs.map(|(s, d)| (s + from, d + to)).collect();
                            src.copy_runs(&runs, src_geo.width_bytes)?;
                        } else {
                            for (from, to) in pairs {
                                copy_slice_peer(
                                    (&src.ctx, from, src_geo),
                                    (&dst.ctx, to, dst_geo),
                                    &src.copy,
                                )?;
                            }
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
    pub(super) fn exchange_nccl(&mut self) -> Result<(), SolverError> {
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
    pub(super) fn receive_from_host(&mut self, i: usize) -> Result<(), SolverError> {
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
    pub(super) fn finish_halos(&mut self, i: usize) -> Result<(), SolverError> {
        let [below, above] = self.neighbours(i);
        let (first, last) = (below.is_none(), above.is_none());
        let part = &self.parts[i];
        part.halo_done.record(&part.copy).map_err(cuda("recording an event"))?;
        if first || last {
            // Mirror halos read owned slices that kernel B may write.
            part.copy.wait(&part.b_done).map_err(cuda("ordering copies"))?;
        }
        // Each mirror halo slice from the owned slice it reflects, slice by
        // slice (the order reverses), every exchanged variable: row-major
        // slices all by one launch, towers' slices (rows of walls) a copy
        // each.
        let [low, high] = self.split.halo_slices(part.index);
        let mut runs = Vec::new();
        let bases = part.exchanged();
        for (at_end, halos) in [(first, low), (last, high)] {
            for z in halos.filter(|_| at_end) {
                let (_, from) = self.split.halo_source(part.index, z);
                let (from, to) = (part.solver.slice_geometry(from), part.solver.slice_geometry(z));
                for &base in &bases {
                    if from.rows == 1 {
                        runs.push((base + from.offset_bytes as u64, base + to.offset_bytes as u64));
                    } else {
                        copy_slice_peer((&part.ctx, base, from), (&part.ctx, base, to), &part.copy)?;
                    }
                }
            }
        }
        if !runs.is_empty() {
            part.copy_runs(&runs, part.solver.slice_geometry(0).width_bytes)?;
        }
        part.step_done.record(&part.copy).map_err(cuda("recording an event"))
    }
}

//! The whole grid's state and maps gathered from the parts (across ranks
//! through NCCL), and every GPU waited for.

use cudarc::driver::{DevicePtr, DeviceRepr, ValidAsZeroBits};
use kernels_gpu::CellModel;
use kernels_gpu::GridDims;

use super::solver::GpuMultiSolver;
use crate::backend::gpu::cuda::cuda;
use crate::events::recording::Maps;
use crate::multi::nccl::DataType;
use crate::scalar::Scalar;
use crate::solver::SolverError;
use crate::state::State;

impl<M: CellModel, T: Scalar> GpuMultiSolver<M, T> {
    pub(super) fn synchronize_all(&self) -> Result<(), SolverError> {
        for part in &self.parts {
            part.ctx.synchronize().map_err(cuda("running the sub-domains"))?;
        }
        Ok(())
    }

    /// The global state on every rank: each packs its owned slices, one
    /// NCCL all-gather puts every chunk on every GPU.
    pub(super) fn all_gather_state(&mut self, local: &State<T>) -> Result<State<T>, SolverError> {
        let chunk = self.split.pack_owned(local, self.parts[0].index);
        let d = local.dims();
        let during =
            ["uploading the owned slab", "allocating the gathered fields", "downloading the gathered fields"];
        let gathered = self.all_gather(&chunk, during)?;
        Ok(self.split.unpack_gathered(M::INFO, d.nx, d.ny, &gathered))
    }

    /// Equal chunks of bytes from every rank, concatenated in rank order
    /// (one NCCL all-gather).
    pub(super) fn all_gather_bytes(&mut self, chunk: &[u8]) -> Result<Vec<u8>, SolverError> {
        self.all_gather(chunk, ["uploading a chunk to gather", "allocating a gather", "downloading a gather"])
    }

    /// Equal chunks of values from every rank, concatenated in rank order:
    /// one NCCL all-gather of their bytes; `during` names the upload, the
    /// allocation and the download for their errors.
    fn all_gather<V: DeviceRepr + ValidAsZeroBits>(
        &mut self,
        chunk: &[V],
        [upload, allocate, download]: [&'static str; 3],
    ) -> Result<Vec<V>, SolverError> {
        let p = &self.parts[0];
        let send = p.copy.clone_htod(chunk).map_err(cuda(upload))?;
        let all = p.copy.alloc_zeros::<V>(chunk.len() * self.split.parts()).map_err(cuda(allocate))?;
        {
            let (s, _s) = send.device_ptr(&p.copy);
            let (r, _r) = all.device_ptr(&p.copy);
            let comm = p.comm.as_ref().expect("ranks have a communicator");
            let bytes = std::mem::size_of_val(chunk);
            // SAFETY: `send` holds one chunk and `all` one chunk per rank.
            unsafe { comm.all_gather(s, r, bytes, DataType::Uint8, p.copy.cu_stream())? };
        }
        p.copy.clone_dtoh(&all).map_err(cuda(download))
    }

    /// The whole grid's maps on every rank: each rank sends its local maps
    /// (halo slices included, padded to the largest part's size), every
    /// rank keeps the owned slices of each.
    pub(super) fn all_gather_maps(&mut self, local: &Maps) -> Result<Maps, SolverError> {
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

//! The maps of a run (activation, repolarisation, beat counts) on a GPU:
//! uploaded when events are set, stamped by the step kernels through a
//! `Recorder`, downloaded when written. One type for every GPU solver
//! (the box, the tissue, the split tissue), each over its own cells.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};
use kernels_gpu::GridDims;

use super::cuda::cuda;
use crate::events::recording::{Maps, Recording};
use crate::solver::SolverError;

/// The maps on one device, over one buffer's cells (row-major).
pub(crate) struct DeviceMaps {
    pub recording: Recording,
    activation: CudaSlice<f32>,
    repolarisation: Option<CudaSlice<f32>>,
    count: Option<CudaSlice<u32>>,
}

impl DeviceMaps {
    /// Copies `maps` (over the buffer's cells) to `stream`'s device.
    pub fn upload(stream: &Arc<CudaStream>, maps: &Maps) -> Result<Self, SolverError> {
        let up = |v: &[f32], during| stream.clone_htod(v).map_err(cuda(during));
        Ok(Self {
            recording: maps.recording,
            activation: up(&maps.activation, "uploading the activation map")?,
            repolarisation: match &maps.repolarisation {
                Some(r) => Some(up(r, "uploading the repolarisation map")?),
                None => None,
            },
            count: match &maps.count {
                Some(c) => Some(stream.clone_htod(c).map_err(cuda("uploading the beat counts"))?),
                None => None,
            },
        })
    }

    /// Device addresses of the activation times, the repolarisation times
    /// and the beat counts (0 for an absent one): what a `Recorder` takes.
    pub fn addresses(&self, stream: &Arc<CudaStream>) -> [u64; 3] {
        [
            self.activation.device_ptr(stream).0,
            self.repolarisation.as_ref().map_or(0, |r| r.device_ptr(stream).0),
            self.count.as_ref().map_or(0, |c| c.device_ptr(stream).0),
        ]
    }

    /// The maps downloaded on `stream`, as maps of `dims` (the buffer's
    /// cells in that shape).
    pub fn download(&self, stream: &Arc<CudaStream>, dims: GridDims) -> Result<Maps, SolverError> {
        let down = |v: &CudaSlice<f32>, during| stream.clone_dtoh(v).map_err(cuda(during));
        Ok(Maps {
            recording: self.recording,
            dims,
            activation: down(&self.activation, "downloading the activation map")?,
            repolarisation: match &self.repolarisation {
                Some(r) => Some(down(r, "downloading the repolarisation map")?),
                None => None,
            },
            count: match &self.count {
                Some(c) => Some(stream.clone_dtoh(c).map_err(cuda("downloading the beat counts"))?),
                None => None,
            },
        })
    }
}

//! The maps of a run (activation, repolarisation, beat counts) on a GPU:
//! uploaded when events are set, stamped by the step kernels through a
//! `Recorder`, downloaded when written. One type for every GPU solver
//! (the box, the tissue, the split tissue), each over its own cells.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};
use kernels_gpu::GridDims;
use kernels_gpu::events::Recorder;

use super::cuda::cuda;
use crate::events::recording::{Maps, Recording};
use crate::scalar::Scalar;
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

/// A solver's maps on its device, if it records them, and the recorder
/// its kernels stamp them through (off without maps).
pub(crate) struct MapsOnDevice<T> {
    maps: Option<DeviceMaps>,
    recorder: Recorder<T>,
}

impl<T: Scalar> MapsOnDevice<T> {
    pub fn off() -> Self {
        Self { maps: None, recorder: Recorder::off() }
    }

    /// `maps` (over the solver's `cells` cells) on `stream`'s device, or
    /// none.
    pub fn set(
        &mut self,
        stream: &Arc<CudaStream>,
        maps: Option<&Maps>,
        cells: usize,
        dt_ms: f64,
    ) -> Result<(), SolverError> {
        *self = Self::off();
        if let Some(maps) = maps {
            let device = DeviceMaps::upload(stream, maps)?;
            let addresses = device.addresses(stream);
            self.recorder = maps.recording.recorder::<T>(addresses, cells, dt_ms);
            self.maps = Some(device);
        }
        Ok(())
    }

    /// The recorder of the step at `t_ms`.
    pub fn recorder_at(&self, t_ms: f64) -> Recorder<T> {
        self.recorder.at(t_ms)
    }

    /// Whether the solver records maps.
    pub fn is_some(&self) -> bool {
        self.maps.is_some()
    }

    /// The maps downloaded on `stream`, as maps of `dims` (the solver's
    /// cells in that shape); none without maps.
    pub fn download(&self, stream: &Arc<CudaStream>, dims: GridDims) -> Result<Option<Maps>, SolverError> {
        self.maps.as_ref().map(|m| m.download(stream, dims)).transpose()
    }
}

//! The run's events on the device: the stimuli applied before a step, the
//! maps the step kernels record into, the pseudo-ECG's sums and the phase
//! singularities found by their kernels.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg};
use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::events::{Recorder, SlicePlacement};
use kernels_gpu::tips::Singularity;
use kernels_gpu::{CellModel, FLAT_BLOCK, GridDims, TowerLayout, ZWindow};

use super::resident::{GpuSolver, Layout, PhaseBuffers, StimulusLaunch};
use crate::backend::gpu::cuda::{ByValue, cuda};
use crate::events::recording::Maps;
use crate::events::stimulus::{LocalArray, Region};
use crate::events::tips::ChargedPlaquette;
use crate::events::{EventStart, Events};
use crate::scalar::Scalar;
use crate::solver::SolverError;

/// Records the phase lists start with (a few hundred filaments' worth);
/// they grow to what a sample finds.
const PHASE_CAPACITY: u32 = 1 << 14;

impl<M: CellModel, T: Scalar> GpuSolver<M, T> {
    /// Installs the events of this buffer, placed in the whole grid by
    /// `place` (a sub-domain's share; `maps` are this buffer's, halo
    /// slices included).
    pub(crate) fn set_local_events(
        &mut self,
        events: &Events,
        start: EventStart,
        place: SlicePlacement,
        maps: Option<&Maps>,
    ) -> Result<(), SolverError> {
        assert_eq!(events.recording.is_some(), maps.is_some(), "maps exactly when recording");
        let whole = GridDims::new(self.dims.nx, self.dims.ny, place.global_nz);
        let mut launches = Vec::with_capacity(events.stimuli.stimuli.len());
        for s in &events.stimuli.stimuli {
            let Some((origin, extent)) = s.local_box(whole, self.dims, place) else {
                launches.push(None);
                continue;
            };
            let mut args = s.args::<T>(whole, self.clock.dt_ms);
            let mask = match &s.region {
                Region::Mask(mask) => {
                    let bits = mask.local_bits(self.dims, place);
                    let device = self.stream.clone_htod(&bits).map_err(cuda("uploading a stimulus mask"))?;
                    args.mask = device.device_ptr(&self.stream).0;
                    Some(device)
                }
                _ => None,
            };
            launches.push(Some(StimulusLaunch { args, origin, extent, _mask: mask }));
        }
        self.stimuli = launches;
        self.clock.restart(events, start);
        self.place = place;
        self.graphs.clear();
        if let Some(maps) = maps {
            assert_eq!(maps.dims, self.dims, "maps of this buffer");
        }
        self.maps.set(&self.stream, maps, self.dims.cells(), self.clock.dt_ms)?;
        Ok(())
    }

    /// This buffer's maps (halo slices included), downloaded, after the
    /// stimuli of the current step.
    pub(crate) fn local_maps(&mut self) -> Result<Option<Maps>, SolverError> {
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        self.maps.download(&self.stream, self.dims)
    }

    /// The unscaled pseudo-ECG sums of the slices of `window` at each
    /// probe (after the step's stimuli), each added in block order on the
    /// host. `halos`: the slices beside the window are a sub-domain's halos.
    pub(crate) fn ecg_sums(
        &mut self,
        probes: &[EcgProbe],
        window: ZWindow,
        z_offset: i32,
        halos: bool,
    ) -> Result<Vec<f64>, SolverError> {
        assert!(matches!(self.layout, Layout::RowMajor), "the pseudo-ECG reads the row-major layout");
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        const THREADS: u32 = 256;
        const BLOCKS: u32 = 1024;
        if self.ecg_partials.is_none() {
            self.ecg_partials =
                Some(stream.alloc_zeros::<f64>(BLOCKS as usize).map_err(cuda("allocating the ECG sums"))?);
        }
        let n = window.len() as u64 * self.dims.slice_cells() as u64;
        let blocks = n.div_ceil(THREADS as u64).clamp(1, BLOCKS as u64) as u32;
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (THREADS, 1, 1),
            shared_mem_bytes: THREADS * 8,
        };
        let mut sums = Vec::with_capacity(probes.len());
        for probe in probes {
            let partials = self.ecg_partials.as_mut().expect("allocated above");
            let (grid, window_arg, probe_arg) = (ByValue(self.dims), ByValue(window), ByValue(*probe));
            let halos = u32::from(halos);
            let mut b = stream.launch_builder(&self.ecg_fn);
            b.arg(&self.u)
                .arg(&grid)
                .arg(&window_arg)
                .arg(&z_offset)
                .arg(&halos)
                .arg(&probe_arg)
                .arg(&mut *partials);
            // SAFETY: ecg_partial_<t> takes (u, grid, window, z_offset, halos,
            // probe, partials); U is row-major over `dims`, the window lies
            // in it with halo slices beside it when `halos`, `partials`
            // holds BLOCKS >= blocks f64, the block is a power of two with
            // as many f64 of shared memory.
            unsafe { b.launch(cfg) }.map_err(cuda("launching the ECG sum"))?;
            let host = stream.clone_dtoh(partials).map_err(cuda("downloading the ECG sums"))?;
            sums.push(host[..blocks as usize].iter().sum::<f64>());
        }
        Ok(sums)
    }

    /// The phase kernel's buffers around V(t - tau) = `previous`.
    pub(super) fn phase_buffers(&self, previous: CudaSlice<T>) -> Result<PhaseBuffers<T>, SolverError> {
        let position = self.stream.alloc_zeros::<f64>(2 * PHASE_CAPACITY as usize);
        let ids = self.stream.alloc_zeros::<u32>(5 * PHASE_CAPACITY as usize);
        let count = self.stream.alloc_zeros::<u32>(1);
        Ok(PhaseBuffers {
            previous,
            position: position.map_err(cuda("allocating the tips list"))?,
            ids: ids.map_err(cuda("allocating the tips list"))?,
            count: count.map_err(cuda("allocating the tips count"))?,
            capacity: PHASE_CAPACITY,
        })
    }

    /// The charged plaquettes between U (after the step's stimuli) and U
    /// at the previous call, found by the `phase_plaquettes` kernel on the
    /// row-major layout; `None` at the first call, which keeps U.
    pub(super) fn phase_plaquettes(
        &mut self,
        v_star: f64,
    ) -> Result<Option<Vec<ChargedPlaquette>>, SolverError> {
        assert!(matches!(self.layout, Layout::RowMajor), "the phase kernel reads the row-major layout");
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        let cells = self.dims.cells();
        let alloc_lists = |capacity: u32| -> Result<(CudaSlice<f64>, CudaSlice<u32>), SolverError> {
            Ok((
                stream.alloc_zeros::<f64>(2 * capacity as usize).map_err(cuda("allocating the tips list"))?,
                stream.alloc_zeros::<u32>(5 * capacity as usize).map_err(cuda("allocating the tips list"))?,
            ))
        };
        let Some(phase) = self.phase.as_mut() else {
            let mut previous = stream.alloc_zeros::<T>(cells).map_err(cuda("allocating V(t - tau)"))?;
            stream.memcpy_dtod(&self.u, &mut previous).map_err(cuda("keeping V(t - tau)"))?;
            self.phase = Some(self.phase_buffers(previous)?);
            return Ok(None);
        };
        let blocks = (cells as u64).div_ceil(FLAT_BLOCK as u64).min(8192) as u32;
        let cfg =
            LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (FLAT_BLOCK, 1, 1), shared_mem_bytes: 0 };
        let found = loop {
            stream.memset_zeros(&mut phase.count).map_err(cuda("clearing the tips count"))?;
            let grid = ByValue(self.dims);
            let mut b = stream.launch_builder(&self.phase_fn);
            b.arg(&self.u)
                .arg(&phase.previous)
                .arg(&grid)
                .arg(&v_star)
                .arg(&mut phase.position)
                .arg(&mut phase.ids)
                .arg(&mut phase.count)
                .arg(&phase.capacity);
            // SAFETY: phase_plaquettes_<t> takes (now, prev, grid, v_star,
            // position, ids, count, capacity); U and `previous` hold the
            // grid's cells row-major, the lists 2 and 5 x capacity values,
            // `count` one u32 zeroed above; any 1D launch is valid.
            unsafe { b.launch(cfg) }.map_err(cuda("launching the tips search"))?;
            let found = stream.clone_dtoh(&phase.count).map_err(cuda("reading the tips count"))?[0];
            if found <= phase.capacity {
                break found as usize;
            }
            // More than the lists hold: grow them and search again (V(t -
            // tau) is still the previous sample's).
            let capacity = found.next_power_of_two();
            (phase.position, phase.ids) = alloc_lists(capacity)?;
            phase.capacity = capacity;
        };
        let (position, ids) = if found == 0 {
            (Vec::new(), Vec::new())
        } else {
            (
                stream
                    .clone_dtoh(&phase.position.slice(0..2 * found))
                    .map_err(cuda("downloading the tips"))?,
                stream.clone_dtoh(&phase.ids.slice(0..5 * found)).map_err(cuda("downloading the tips"))?,
            )
        };
        stream.memcpy_dtod(&self.u, &mut phase.previous).map_err(cuda("keeping V(t - tau)"))?;
        let plaquettes = position
            .chunks_exact(2)
            .zip(ids.chunks_exact(5))
            .map(|(st, id)| ChargedPlaquette {
                normal: id[0] as u8,
                base: [id[1], id[2], id[3]],
                singularity: Singularity { s: st[0], t: st[1], charge: id[4] as i32 },
            })
            .collect();
        Ok(Some(plaquettes))
    }

    /// The recorder for the step about to be taken.
    pub(super) fn step_recorder(&self) -> Recorder<T> {
        self.maps.recorder_at(self.clock.t_ms())
    }

    /// Launches, on `stream`, the stimuli due at the current step unless
    /// they are in U already: before the step's kernels (which the caller
    /// orders after it) and before U or the maps are read. Returns whether
    /// it launched any.
    pub(crate) fn stimulate_on(&mut self, stream: &Arc<CudaStream>) -> Result<bool, SolverError> {
        let step = self.clock.step;
        if !self.clock.take_stimuli() {
            return Ok(false);
        }
        let mut any = false;
        // The locals of every cell of the buffer, at the current buffer
        // (the blocked kernel's two swap), for a stimulus carrier.
        let (local, cells) = (self.local.device_ptr(stream).0, self.dims.cells());
        for (k, launch) in self.stimuli.iter().enumerate() {
            let Some(launch) = launch else { continue };
            let stimulus = &self.clock.events.stimuli.stimuli[k];
            if !stimulus.active_at(step) {
                continue;
            }
            let mut stimulus_args = launch.args;
            let locals = |var| LocalArray::by_variable::<T>(local, cells, cells, var);
            stimulus.carry_into(&mut stimulus_args, M::INFO, locals, self.clock.dt_ms);
            any = true;
            let n = launch.extent.cells() as u64;
            let blocks = n.div_ceil(FLAT_BLOCK as u64).min(4096) as u32;
            let cfg =
                LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (FLAT_BLOCK, 1, 1), shared_mem_bytes: 0 };
            let (lay, towers) = match self.layout {
                Layout::Towers(lay) => (lay, 1u32),
                // Not read (towers = 0); any valid layout value.
                Layout::RowMajor => {
                    (TowerLayout::new(GridDims::new(32, 1, 1), 32, 1).expect("a valid layout"), 0)
                }
            };
            let args = (
                ByValue(self.dims),
                ByValue(lay),
                ByValue(self.place),
                ByValue(stimulus_args),
                ByValue(self.step_recorder()),
                ByValue(launch.origin),
                ByValue(launch.extent),
            );
            let mut b = stream.launch_builder(&self.stimulate_fn);
            b.arg(&mut self.u).arg(&args.0).arg(&args.1).arg(&towers).arg(&args.2).arg(&args.3);
            b.arg(&args.4).arg(&args.5).arg(&args.6);
            // SAFETY: stimulate_cells_<t> takes (u, grid, layout, towers,
            // placement, args, recorder, origin, extent); `u` is this
            // solver's current U of `dims` in the layout `towers` names,
            // the box was clipped to the buffer (`local_box`), the
            // recorder is off or over this buffer's maps, a mask region's bits
            // are this buffer's (uploaded by `set_local_events`, kept in the
            // launch); a 1D grid-stride launch.
            unsafe { b.launch(cfg) }.map_err(cuda("launching a stimulus"))?;
        }
        Ok(any)
    }
}

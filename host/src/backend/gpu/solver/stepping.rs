//! Stepping: one launch of the configured kernel over a window of slices
//! (or a pass of the blocked kernel), the buffers swapped after it, and
//! the steps a split solver launches window by window.

use std::sync::Arc;

use cudarc::driver::{CudaStream, DevicePtr, LaunchConfig, PushKernelArg};
use kernels_gpu::blocked::{self, Forwards, Pass};
use kernels_gpu::{CellModel, Locals, TowerLayout, ZWindow};

use super::resident::{GpuSolver, Layout};
use crate::backend::gpu::cuda::{ByValue, cuda};
use crate::kernel_config::{KernelKind, pass_steps};
use crate::scalar::Scalar;
use crate::solver::SolverError;

impl<M: CellModel, T: Scalar> GpuSolver<M, T> {
    /// `steps` steps of `blocked`, in passes of up to `--steps-per-pass`
    /// steps ([`pass_steps`]: a pass ends before a step with a stimulus,
    /// which is applied between passes; crossings are recorded inside).
    pub(super) fn advance_blocked(&mut self, steps: u64) -> Result<(), SolverError> {
        let stream = self.stream.clone();
        let mut left = steps;
        while left > 0 {
            let k =
                pass_steps(self.config.steps_per_pass, left, self.clock.step, |step| self.stimulus_due(step));
            self.stimulate_on(&stream)?;
            // SAFETY: no run forwarded.
            unsafe { self.launch_blocked(&stream, ZWindow::all(self.grid.nz), k, Forwards::NONE) }?;
            self.swap_buffers();
            self.clock.step += k as u64 - 1;
            left -= k as u64;
        }
        Ok(())
    }

    /// `blocked`: `(u, u_next, local, dims, step, coeffs, window, rec,
    /// local_next, pass)`, a pass of `steps` steps that also copies the
    /// boundary planes `forwards` names into their halos: a split part's
    /// neighbours' and its own mirror halos (`kernels_gpu::blocked::forward`;
    /// [`Forwards::NONE`] on one GPU).
    ///
    /// # Safety
    /// Each run of `forwards` addresses U_next and the locals' second
    /// buffer of this solver or of another on a GPU with peer access to
    /// this one, of this grid's x-y plane, that hold its destination
    /// planes, none of which this pass's window writes, and that nothing
    /// else reads or writes until the pass is done (the caller orders the
    /// neighbours' passes with events). No run: nothing to uphold.
    pub(crate) unsafe fn launch_blocked(
        &mut self,
        stream: &Arc<CudaStream>,
        window: ZWindow,
        steps: u32,
        forwards: Forwards,
    ) -> Result<(), SolverError> {
        self.check_buffers(self.grid.cells());
        assert!(self.grid.axes() == 3, "checked by KernelConfig::check");
        let block = (self.config.block.x, self.config.block.y);
        let z_chunk = self.config.effective_z_chunk(window.len());
        let pass = Pass { steps, z_chunk, first_step: self.clock.step, forwards };
        let shape = blocked::launch_shape(self.grid, block, window, pass.z_chunk, steps);
        let cfg = LaunchConfig {
            grid_dim: shape.grid,
            block_dim: shape.block,
            shared_mem_bytes: self.config.blocked_shared_bytes(steps, T::PRECISION) as u32,
        };
        let (dims, step, coeffs, window_arg) =
            (ByValue(self.grid), ByValue(self.step), ByValue(self.coeffs), ByValue(window));
        let (rec, pass) = (ByValue(self.step_recorder()), ByValue(pass));
        let local_next = self.local_next.as_mut().expect("allocated for the blocked kernel");
        assert_eq!(local_next.len(), self.local.len(), "both locals buffers hold every cell");
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&self.local);
        launch.arg(&dims).arg(&step).arg(&coeffs).arg(&window_arg).arg(&rec).arg(local_next).arg(&pass);
        // SAFETY: the entry point is this model's blocked kernel for this
        // precision (from the registry), whose parameters are exactly these,
        // in this order; U, U_next, the locals and their second buffer are
        // four distinct allocations of the lengths checked above; the grid
        // has three axes and fewer than 2^32 cells; the window lies inside
        // it; 1 <= steps <= 4 and z_chunk >= 1 (`KernelConfig::check`,
        // `pass_steps`); grid, block and shared memory come from
        // `kernels_gpu::blocked`, the functions the kernel's contract
        // names, the block leaves a tile for `steps_per_pass` and so for
        // fewer steps (`KernelConfig::check`), and the shared memory fits
        // (`check_shared_memory` at construction, which opted in beyond 48
        // KiB; a shorter pass needs less); the recorder is off or over maps
        // of this grid's cells; the forwarded runs are as this function's
        // contract says.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the blocked kernel"))?;
        Ok(())
    }

    pub(super) fn launch_step(&mut self) -> Result<(), SolverError> {
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        self.launch_window_on(&stream, ZWindow::all(self.grid.nz))?;
        self.swap_buffers();
        Ok(())
    }

    /// One step made of one launch per window; the windows must be disjoint
    /// and cover `0..nz` in any order. The multi-GPU overlap launches the
    /// boundary slices and the interior separately in the same way.
    ///
    /// # Panics
    /// If the windows do not tile `0..nz` (a programming error).
    pub fn step_in_windows(&mut self, windows: &[ZWindow]) -> Result<(), SolverError> {
        let mut covered = vec![false; self.grid.nz as usize];
        for w in windows {
            for z in w.begin..w.end {
                assert!(!std::mem::replace(&mut covered[z as usize], true), "slice {z} in two windows");
            }
        }
        assert!(covered.iter().all(|c| *c), "windows leave slices out");
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        for w in windows {
            self.launch_window_on(&stream, *w)?;
        }
        self.swap_buffers();
        Ok(())
    }

    /// Advances the slices of `window` from U into U_next (no swap), on
    /// `stream` (a stream of this solver's device; the caller orders it
    /// against the others with events).
    pub(crate) fn launch_window_on(
        &mut self,
        stream: &Arc<CudaStream>,
        window: ZWindow,
    ) -> Result<(), SolverError> {
        if window.is_empty() {
            return Ok(());
        }
        assert!(window.end <= self.grid.nz, "window {window:?} inside the grid");
        match (self.config.kind, self.layout) {
            (KernelKind::Naive | KernelKind::Csw, Layout::RowMajor) => self.launch_row_major(stream, window),
            (KernelKind::Tower | KernelKind::TowerMarch, Layout::Towers(lay)) => {
                self.launch_towers(stream, lay, window)
            }
            (KernelKind::Columns, Layout::RowMajor) => self.launch_columns(stream, window),
            // One step per launch where the caller steps windows (one pass of one step).
            // SAFETY: no run forwarded.
            (KernelKind::Blocked, Layout::RowMajor) => unsafe {
                self.launch_blocked(stream, window, 1, Forwards::NONE)
            },
            _ => unreachable!("the layout follows the kernel (KernelKind::uses_towers)"),
        }
    }

    fn launch_config(&self, window: ZWindow) -> LaunchConfig {
        LaunchConfig {
            grid_dim: self.config.grid(self.grid, window),
            block_dim: self.config.block_dim(self.grid),
            shared_mem_bytes: self.config.shared_elems() * T::BYTES as u32,
        }
    }

    /// The buffer lengths every step kernel relies on.
    fn check_buffers(&self, u_elements: usize) {
        assert_eq!(self.u.len(), u_elements, "U holds the layout");
        assert_eq!(self.u_next.len(), u_elements, "U_next holds the layout");
        assert!(self.local.len() >= M::Locals::<T>::COUNT * self.grid.cells(), "the locals hold every cell");
        assert!(self.grid.cells() < u32::MAX as usize, "32-bit indices");
    }

    /// Launches the step kernel on `stream` with its parameters in the
    /// order every kernel but the blocked one takes them: `(u, u_next,
    /// local, lay, step, coeffs, window, rec)`, then `z_chunk` for the
    /// kernels that march along z.
    ///
    /// # Safety
    /// The step kernel takes exactly these parameters (`lay` the grid or
    /// the tower layout it was chosen for), and the caller has checked the
    /// buffers against them (`check_buffers`).
    unsafe fn launch_kernel<L: Copy>(
        &mut self,
        stream: &Arc<CudaStream>,
        lay: L,
        window: ZWindow,
        z_chunk: Option<u32>,
    ) -> Result<(), SolverError> {
        let cfg = self.launch_config(window);
        let (lay, step, coeffs, window_arg) =
            (ByValue(lay), ByValue(self.step), ByValue(self.coeffs), ByValue(window));
        let rec = ByValue(self.step_recorder());
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
        launch.arg(&lay).arg(&step).arg(&coeffs).arg(&window_arg).arg(&rec);
        if let Some(z_chunk) = &z_chunk {
            launch.arg(z_chunk);
        }
        // SAFETY: the parameters as the caller promises; grid, block and
        // shared memory come from `KernelConfig`, which implements each
        // kernel's documented launch shape.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        Ok(())
    }

    /// `naive` and `csw`: `(u, u_next, local, dims, step, coeffs, window, rec)`.
    fn launch_row_major(&mut self, stream: &Arc<CudaStream>, window: ZWindow) -> Result<(), SolverError> {
        self.check_buffers(self.grid.cells());
        // SAFETY: the entry point is this model's naive or csw kernel for
        // this precision and grid shape (from the registry), whose
        // parameters are exactly these, in this order; the buffers are
        // distinct allocations of the lengths `check_buffers` verified (U
        // and U_next of the compacted grid, the locals of every cell); the
        // grid has the number of axes the entry point was chosen for and
        // fewer than 2^32 cells; the window lies inside it; `check`
        // accepted this grid; the recorder is off or over maps of this
        // grid's cells.
        unsafe { self.launch_kernel(stream, self.grid, window, None) }
    }

    /// `columns`: `(u, u_next, local, dims, step, coeffs, window, rec, z_chunk)`.
    fn launch_columns(&mut self, stream: &Arc<CudaStream>, window: ZWindow) -> Result<(), SolverError> {
        self.check_buffers(self.grid.cells());
        assert!(self.grid.nx.is_multiple_of(4) && self.grid.axes() == 3, "checked by KernelConfig::check");
        let z_chunk = self.config.effective_z_chunk(window.len());
        // SAFETY: as in `launch_row_major`, and: nx is a multiple of 4 and
        // the grid has three axes (asserted); the buffers are separate
        // allocations, so 256-byte aligned, and the locals of variable k
        // start at k * cells, a multiple of 4; z_chunk >= 1 and the grid's
        // z extent is ceil(window / z_chunk) from the same value
        // (`KernelConfig::grid`).
        unsafe { self.launch_kernel(stream, self.grid, window, Some(z_chunk)) }
    }

    /// `tower`: `(u, u_next, local, layout, step, coeffs, window, rec)`;
    /// `tower_march`: the same and `z_chunk`.
    fn launch_towers(
        &mut self,
        stream: &Arc<CudaStream>,
        lay: TowerLayout,
        window: ZWindow,
    ) -> Result<(), SolverError> {
        self.check_buffers(lay.ds_size() as usize);
        let march = self.config.kind == KernelKind::TowerMarch;
        let z_chunk = march.then(|| self.config.effective_z_chunk(window.len()));
        assert!(z_chunk.is_none_or(|z| z >= 1), "a block climbs at least one slice");
        // SAFETY: as in `launch_row_major`, with U and U_next in the tower
        // layout `lay` (ds_size elements each, checked) with valid extra
        // lines (packed on upload, kept by the kernel), the grid a whole
        // number of towers with at least 2 cells along every axis (`check`);
        // the marching kernel's z_chunk >= 1 and the grid's z extent is
        // ceil(window / z_chunk) from the same value (`KernelConfig::grid`).
        unsafe { self.launch_kernel(stream, lay, window, z_chunk) }
    }

    /// Advances the slices of `window` by a pass of `steps` steps from U
    /// (and the locals) into U_next, on `stream`, without the swap: the
    /// blocked kernel's pass, or for the other kernels (`steps` = 1) one
    /// step. The window's pass reads `steps` slices beyond it.
    pub(crate) fn launch_pass_on(
        &mut self,
        stream: &Arc<CudaStream>,
        window: ZWindow,
        steps: u32,
    ) -> Result<(), SolverError> {
        if window.is_empty() {
            return Ok(());
        }
        match self.config.kind {
            // SAFETY: no run forwarded.
            KernelKind::Blocked => unsafe { self.launch_blocked(stream, window, steps, Forwards::NONE) },
            _ => {
                assert_eq!(steps, 1, "one step per launch but for the blocked kernel");
                self.launch_window_on(stream, window)
            }
        }
    }

    /// U_next and the locals' second buffer (0 for a model without locals)
    /// as a forwarded run's destination: what a neighbour's pass stores
    /// this part's halo planes into. Blocked kernel only.
    pub(crate) fn forward_destination(&self) -> (u64, u64, u32) {
        let local = match (&self.local_next, M::Locals::<T>::COUNT) {
            (Some(next), 1..) => next.device_ptr(&self.stream).0,
            _ => 0,
        };
        (self.u_next_address(), local, self.grid.cells() as u32)
    }

    /// Takes the pass of `steps` steps just launched: the buffers swap.
    pub(crate) fn finish_pass(&mut self, steps: u32) {
        self.swap_buffers();
        self.clock.step += steps as u64 - 1;
    }
}

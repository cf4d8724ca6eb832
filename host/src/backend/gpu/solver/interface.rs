//! The solver behind the run loop's [`Solver`] interface.

use kernels_gpu::ecg::{EcgProbe, ecg_scale};
use kernels_gpu::events::SlicePlacement;
use kernels_gpu::{CellModel, Locals, ZWindow};

use super::resident::{Download, GpuSolver, Layout};
use crate::backend::gpu::cuda::cuda;
use crate::events::recording::Maps;
use crate::events::tips::{ChargedPlaquette, PhaseMemory};
use crate::kernel_config::KernelKind;
use crate::layout::tower;
use crate::scalar::Scalar;
use crate::solver::{EventsAt, NonfiniteCheck, RunsOn, Solver, SolverError};
use crate::state::State;

impl<M: CellModel, T: Scalar> Solver<T> for GpuSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Gpu(self.device_name.clone())
    }

    fn method(&self) -> String {
        match (self.replays_graphs(), self.graphs.programmatic()) {
            (true, true) => format!("{} graphs pdl", self.config),
            (true, false) => format!("{} graphs", self.config),
            (false, _) => self.config.to_string(),
        }
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        if self.config.kind == KernelKind::Blocked {
            return self.advance_blocked(steps);
        }
        if self.replays_graphs() {
            return self.advance_with_graphs(steps);
        }
        for _ in 0..steps {
            self.launch_step()?;
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.stream.synchronize().map_err(cuda("running the step kernel"))
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        let mut vars = vec![self.download_u()?];
        let cells = self.dims.cells();
        let count = M::Locals::<T>::COUNT;
        if count > 0 {
            let local = self.download(Download::Locals, "downloading the locals")?;
            vars.extend(local.chunks_exact(cells).take(count).map(<[T]>::to_vec));
        }
        Ok(State::from_vecs(M::INFO, self.dims, vars))
    }

    fn state_into(&mut self, dst: &mut State<T>) -> Result<(), SolverError> {
        assert_eq!(dst.dims(), self.dims, "a state of the solver's grid");
        assert_eq!(dst.model().name, M::INFO.name, "a state of the solver's model");
        if let Layout::Towers(_) = self.layout {
            *dst = self.state()?;
            return Ok(());
        }
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        let cells = self.dims.cells();
        dst.slice_mut(0).copy_from_slice(&self.download_staged(Download::U, "downloading U")?[..cells]);
        let count = M::Locals::<T>::COUNT;
        if count > 0 {
            let local = self.download_staged(Download::Locals, "downloading the locals")?;
            for k in 0..count {
                dst.slice_mut(k + 1).copy_from_slice(&local[k * cells..(k + 1) * cells]);
            }
        }
        Ok(())
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        assert_eq!(state.dims(), self.dims, "state matches the solver's grid");
        assert_eq!(state.model().name, M::INFO.name, "state of the solver's model");
        match self.layout {
            Layout::RowMajor => self.stream.memcpy_htod(state.slice(0), &mut self.u),
            Layout::Towers(lay) => self.stream.memcpy_htod(&tower::pack(&lay, state.slice(0)), &mut self.u),
        }
        .map_err(cuda("uploading U"))?;
        if state.len() > 1 {
            let local: Vec<T> = (1..state.len()).flat_map(|k| state.slice(k).iter().copied()).collect();
            self.stream.memcpy_htod(&local, &mut self.local).map_err(cuda("uploading the locals"))?;
        }
        Ok(())
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        self.set_local_events(events, start, SlicePlacement::whole(self.dims.nz), maps)
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.local_maps()
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        let sums = self.ecg_sums(probes, ZWindow::all(self.dims.nz), 0, false)?;
        let scale = probes.first().map_or(0.0, |p| ecg_scale(p.dx, self.dims.axes()));
        Ok(sums.into_iter().map(|s| s * scale).collect())
    }

    fn phase_singularities(
        &mut self,
        v_star: f64,
        memory: &mut PhaseMemory,
    ) -> Result<Option<Vec<ChargedPlaquette>>, SolverError> {
        match self.layout {
            Layout::RowMajor => self.phase_plaquettes(v_star),
            // Towers: from the state on the host, as the trait's default.
            Layout::Towers(_) => {
                let state = self.state()?;
                Ok(memory.sample(state.slice(0), self.dims, v_star))
            }
        }
    }

    fn phase_memory(&mut self, memory: &PhaseMemory) -> Result<Option<Vec<f64>>, SolverError> {
        match (&self.layout, &self.phase) {
            (Layout::RowMajor, Some(phase)) => {
                let field =
                    self.stream.clone_dtoh(&phase.previous).map_err(cuda("downloading V(t - tau)"))?;
                Ok(Some(field.into_iter().map(|v| v.to_f64()).collect()))
            }
            (Layout::RowMajor, None) => Ok(None),
            (Layout::Towers(_), _) => Ok(memory.previous().map(<[f64]>::to_vec)),
        }
    }

    fn restore_phase_memory(&mut self, field: &[f64], memory: &mut PhaseMemory) -> Result<(), SolverError> {
        match self.layout {
            Layout::RowMajor => {
                assert_eq!(field.len(), self.dims.cells(), "a field of the whole grid");
                let values: Vec<T> = field.iter().map(|&v| T::from_f64(v)).collect();
                let previous = self.stream.clone_htod(&values).map_err(cuda("uploading V(t - tau)"))?;
                self.phase = Some(self.phase_buffers(previous)?);
            }
            Layout::Towers(_) => memory.restore(field.to_vec()),
        }
        Ok(())
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        // Tower buffers are checked whole: the extra lines copy core cells.
        self.nonfinite.check_now(&self.u)
    }

    fn begin_nonfinite_check(&mut self) -> Result<NonfiniteCheck, SolverError> {
        self.nonfinite.begin_check(&self.u, self.maps.is_some())
    }

    fn end_nonfinite_check(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
        self.nonfinite.answer(check)
    }
}

//! The split solver behind the run loop's [`Solver`] interface, and its
//! drop, which waits for every GPU first; both shared with the tissue's
//! split (`gpus_name`, `idle_all`).

use std::sync::Arc;

use cudarc::driver::{CudaContext, DevicePtr};
use kernels_gpu::CellModel;
use kernels_gpu::ecg::{EcgProbe, ecg_scale};

use super::solver::{GpuMultiSolver, Scope};
use crate::backend::gpu::cuda::cuda;
use crate::events::recording::Maps;
use crate::kernel_config::pass_steps;
use crate::multi::nccl::{DataType, ReduceOp};
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn, Solver, SolverError};
use crate::state::State;

impl<M: CellModel, T: Scalar> Drop for GpuMultiSolver<M, T> {
    /// Neighbours copy into each other's buffers and the buffers are freed
    /// on another stream than the one that last used them, so every GPU
    /// must be idle before any part is dropped (after an error halfway
    /// through a step, say).
    fn drop(&mut self) {
        idle_all(self.parts.iter().map(|p| &p.ctx));
    }
}

/// Waits until every GPU of `contexts` is idle (what a split solver does
/// before its parts, which copy into each other's buffers, are freed);
/// a failure is ignored, there is nothing left to do about it.
pub(crate) fn idle_all<'a>(contexts: impl IntoIterator<Item = &'a Arc<CudaContext>>) {
    for ctx in contexts {
        let _ = ctx.synchronize();
    }
}

/// The GPUs of a split in one process, as its device name: "3 x NAME"
/// where all are alike, else their names joined.
pub(crate) fn gpus_name(names: &[String]) -> String {
    let first = &names[0];
    if names.iter().all(|n| n == first) { format!("{} x {first}", names.len()) } else { names.join(" + ") }
}

impl<M: CellModel, T: Scalar> Solver<T> for GpuMultiSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Gpu(match self.scope {
            // Each rank knows its own GPU only.
            Scope::Rank { .. } => format!("{} ranks x {}", self.split.parts(), self.device_names[0]),
            _ => gpus_name(&self.device_names),
        })
    }

    fn method(&self) -> String {
        format!(
            "{} z-split {}{} exchange {}{}{}",
            self.config,
            self.split.parts(),
            if matches!(self.scope, Scope::Rank { .. }) { " ranks" } else { "" },
            self.exchange.name(),
            match (&self.forwarded, self.overlap) {
                (Some(_), _) => " halos forwarded",
                (None, true) => "",
                (None, false) => " no-overlap",
            },
            match self.graph_failure() {
                Some(why) => format!(" graphs failed ({why})"),
                None if self.replays_graphs() => " graphs".to_string(),
                None => String::new(),
            }
        )
    }

    /// Passes of up to the halo depth's steps (one step each but for the
    /// blocked kernel), each ended early before a stimulus anywhere in the
    /// grid, so that every sub-domain takes the same passes; quiet
    /// stretches of whole passes replayed as graphs ([`super::replay`]).
    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        let mut left = steps;
        while left > 0 {
            let passes = self.graph_passes(left);
            if passes > 0 {
                self.replay(passes)?;
                if self.graph_failure().is_none() {
                    left -= passes as u64 * self.split.depth() as u64;
                    continue;
                }
            }
            let first = &self.parts[0].solver;
            let k =
                pass_steps(self.split.depth(), left, first.step_count(), |s| first.stimulus_due_anywhere(s));
            self.enqueue_pass(k, false)?;
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

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
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

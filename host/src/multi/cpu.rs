//! The z-split run on CPU sub-domains: the reference for the multi-GPU
//! decomposition and halo indexing, testable without a GPU.

use kernels_gpu::{CellModel, ZWindow};

use crate::backend::{CpuSolver, Solver, SolverError};
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::kernel_config::pass_steps;
use crate::layout::zsplit::ZSplit;
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn};
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;

/// What a run split over `parts` CPU sub-domains runs on, as every CPU
/// split names it (the box's and the tissue's alike).
pub(crate) fn cpu_slabs_name(parts: usize) -> String {
    format!("CPU, {parts} z-slabs ({} threads)", rayon::current_num_threads())
}

/// G CPU sub-domains that exchange halo slices of variable 0 after every
/// step, or with halos k deep ([`ZSplit::depth`]) every variable after
/// passes of up to k steps: step l of a pass of j steps advances the owned
/// slices grown by `j - 1 - l` into the halos, so the last step leaves the
/// owned slices as j single steps with exchanges would (what the blocked
/// kernel does on several GPUs, here with the CPU reference's steps).
pub struct CpuMultiSolver<M: CellModel, T: Scalar> {
    split: ZSplit,
    parts: Vec<CpuSolver<M, T>>,
}

impl<M: CellModel, T: Scalar> CpuMultiSolver<M, T> {
    /// `split` must come from [`super::check_splittable`] for the domain's grid.
    pub fn new(domain: &Domain, initial: &State<T>, split: ZSplit) -> Self {
        assert_eq!(split.nz(), domain.dims().nz, "split covers the grid");
        let parts = (0..split.parts())
            .map(|i| {
                let local = domain.with_nz(split.local_dims(domain.dims(), i).nz);
                CpuSolver::new(&local, &split.scatter(initial, i))
            })
            .collect();
        Self { split, parts }
    }

    /// Refills every halo slice from its source (neighbour or mirror):
    /// U with one-slice halos (the halos' locals are never read), every
    /// variable with deeper ones (their cells are stepped in a pass).
    pub fn exchange_halos(&mut self) {
        for i in 0..self.parts.len() {
            for halo in self.split.halo_slices(i).into_iter().flatten() {
                let (src, src_local) = self.split.halo_source(i, halo);
                if self.split.depth() == 1 {
                    let values = self.parts[src].u_slice(src_local).to_vec();
                    self.parts[i].u_slice_mut(halo).copy_from_slice(&values);
                } else {
                    let (u, locals) = self.parts[src].slice_cells(src_local);
                    self.parts[i].set_slice_cells(halo, (&u, &locals));
                }
            }
        }
    }

    /// One pass of `steps` (at most the halo depth) steps, then the exchange.
    fn pass(&mut self, steps: u32) {
        let d = self.split.depth();
        for l in 0..steps {
            let grow = steps - 1 - l;
            for (i, part) in self.parts.iter_mut().enumerate() {
                let n = self.split.owned_len(i);
                part.step_window(ZWindow::new(d - grow, d + n + grow));
            }
        }
        self.exchange_halos();
    }

    pub fn split(&self) -> &ZSplit {
        &self.split
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for CpuMultiSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Cpu(cpu_slabs_name(self.parts.len()))
    }

    fn method(&self) -> String {
        "cpu-reference z-split".into()
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        let mut left = steps;
        while left > 0 {
            let first = &self.parts[0];
            let k = pass_steps(self.split.depth(), left, first.step_count(), |step| first.stimulus_due(step));
            self.pass(k);
            left -= k as u64;
        }
        Ok(())
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let parts = self.parts.iter_mut().map(|p| p.state()).collect::<Result<Vec<_>, _>>()?;
        Ok(self.split.gather(&parts))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        for (i, part) in self.parts.iter_mut().enumerate() {
            part.set_state(&self.split.scatter(state, i))?;
        }
        Ok(())
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        for (i, part) in self.parts.iter_mut().enumerate() {
            let local = maps.map(|m| m.scatter(&self.split, i));
            part.set_local_events(events, start, self.split.placement(i), local);
        }
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        let parts: Option<Vec<Maps>> = self.parts.iter_mut().map(|p| p.local_maps().cloned()).collect();
        Ok(parts.map(|p| Maps::gather(&self.split, &p)))
    }

    /// From the gathered state: the CPU split is a test of the split, and
    /// the pseudo-ECG is a sum over the whole grid.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        let state = self.state()?;
        Ok(crate::events::ecg::pseudo_ecg_at(state.slice(0), state.dims(), probes))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        for part in &mut self.parts {
            if part.any_nonfinite()? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ModelSetup;
    use kernels_gpu::GridDims;
    use kernels_gpu::models::Karma;

    fn domain(dims: GridDims) -> Domain {
        Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("karma", None, &[]).unwrap()).unwrap()
    }

    fn karma<T: Scalar>(dims: GridDims, mut f: impl FnMut(u32, u32, u32) -> (f64, f64)) -> State<T> {
        State::from_fn(Karma::INFO, dims, |x, y, z, cell| {
            let (u, v) = f(x, y, z);
            cell[0] = T::from_f64(u);
            cell[1] = T::from_f64(v);
        })
    }

    /// ImplicitGlobalGrid's halo test: every cell holds its global
    /// coordinate, the halos are zeroed, one exchange must restore them exactly.
    #[test]
    fn exchange_restores_zeroed_halos_exactly() {
        let dims = GridDims::new(4, 3, 10);
        let coords = karma::<f64>(dims, |x, y, z| ((x + 10 * y + 100 * z) as f64, 0.0));
        let split = ZSplit::balanced(10, 3).unwrap();
        let mut multi = CpuMultiSolver::<Karma, f64>::new(&domain(dims), &coords, split.clone());
        for i in 0..3 {
            let n = split.owned_len(i);
            multi.parts[i].u_slice_mut(0).fill(0.0);
            multi.parts[i].u_slice_mut(n + 1).fill(0.0);
        }
        multi.exchange_halos();
        for i in 0..3 {
            let f = multi.parts[i].state().unwrap();
            for ((z, y, x), u) in f.u().indexed_iter() {
                let g = split.global_slice(i, z as u32);
                assert_eq!(*u, (x + 10 * y + 100 * g as usize) as f64, "part {i} local z {z}");
            }
        }
    }

    /// Stimuli that reach halo and mirror slices, and every map, on the
    /// split grid equal the single domain's, bit for bit.
    #[test]
    fn events_on_a_split_grid_are_bit_identical_to_the_single_domain() {
        use crate::events::recording::{Maps, Recording};
        use crate::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
        use crate::events::{EventStart, Events};
        let dims = GridDims::new(12, 9, 17);
        let d = domain(dims);
        let start = State::<f32>::rest(Karma::INFO, dims);
        // A ball at the bottom (the mirror halo's slice z = 1) paced twice,
        // and a current into a slab across a sub-domain boundary.
        let mut paced = StimulusSpec::new(RegionKind::Sphere, 0.5);
        paced.center = Some([6.0, 4.0, 1.0]);
        paced.radius = Some(3.0);
        paced.duration_ms = 1.0;
        paced.period_ms = Some(50.0);
        paced.count = Some(2);
        let mut current = StimulusSpec::new(RegionKind::Box, 20.0);
        current.z = Some([5, 7]);
        current.x = Some([0, 1]);
        current.current = Some(5.0);
        current.duration_ms = 1.0;
        // A mask of the top slice's even columns (the top mirror halo copies slice 15).
        let mask: Vec<f32> = (0..dims.cells())
            .map(|i| f32::from(i / dims.slice_cells() >= 15 && (i % dims.nx as usize).is_multiple_of(2)))
            .collect();
        let file = std::env::temp_dir().join(format!("fibril-split-mask-{}.npy", std::process::id()));
        std::fs::write(&file, crate::io::npy::encode_shaped(&[17, 9, 12], &mask)).unwrap();
        let mut masked = StimulusSpec::new(RegionKind::Mask, 30.0);
        masked.file = Some(file.clone());
        let stimuli =
            StimulusSchedule::compile(&[paced, current, masked], dims, d.dt_ms(), Karma::INFO).unwrap();
        std::fs::remove_file(&file).unwrap();
        let recording = Recording { up: Karma::INFO.activation_threshold, down: Some(0.5), beats: Some(2) };
        let events = Events { stimuli, recording: Some(recording) };
        let maps = Maps::at_start(recording, dims, start.slice(0), 0.0);
        let mut single = CpuSolver::<Karma, f32>::new(&d, &start);
        single.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
        single.advance(2400).unwrap();
        let (want, want_maps) = (single.state().unwrap(), single.maps().unwrap().unwrap());
        let activations: u32 = want_maps.count.as_ref().unwrap().iter().sum();
        let repolarised = want_maps.repolarisation.as_ref().unwrap().iter().filter(|t| !t.is_nan()).count();
        // Not vacuous: the wave reached every cell and every cell repolarised.
        assert!(
            activations as usize >= dims.cells() && repolarised >= dims.cells(),
            "{activations} {repolarised}"
        );
        // One-slice halos, and halos 2 to 4 deep with passes of as many
        // steps (each ended early before a stimulus).
        for (parts, depth) in [(2, 1), (3, 1), (2, 2), (3, 3), (3, 4)] {
            let split = ZSplit::balanced_with_depth(17, parts, depth).unwrap();
            let mut multi = CpuMultiSolver::<Karma, f32>::new(&d, &start, split);
            multi.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
            // Uneven calls, as a run's outputs make them.
            for steps in [7, 1, 1192, 1200] {
                multi.advance(steps).unwrap();
            }
            let parts = format!("{parts} parts, depth {depth}");
            assert_eq!(multi.state().unwrap(), want, "{parts}: state");
            let got = multi.maps().unwrap().unwrap();
            let bits = |v: &[f32]| v.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got.activation), bits(&want_maps.activation), "{parts} parts: activation");
            assert_eq!(
                bits(got.repolarisation.as_ref().unwrap()),
                bits(want_maps.repolarisation.as_ref().unwrap()),
                "{parts} parts: repolarisation"
            );
            assert_eq!(got.count, want_maps.count, "{parts} parts: counts");
        }
    }

    #[test]
    fn split_runs_are_bit_identical_to_the_single_domain() {
        let dims = GridDims::new(13, 11, 17);
        let d = domain(dims);
        let mut rng = 12345u64;
        let start = karma::<f32>(dims, |x, _, z| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let noise = (rng >> 40) as f32 / (1u64 << 24) as f32 * 0.05;
            (if z < 3 || x < 3 { 3.0 } else { noise as f64 }, if x > 6 { 0.9 } else { 0.0 })
        });
        let mut single = CpuSolver::<Karma, f32>::new(&d, &start);
        single.advance(300).unwrap();
        let want = single.state().unwrap();
        for (parts, depth) in [(1, 1), (2, 1), (3, 1), (8, 1), (1, 3), (2, 2), (4, 3)] {
            let split = ZSplit::balanced_with_depth(17, parts, depth).unwrap();
            let mut multi = CpuMultiSolver::<Karma, f32>::new(&d, &start, split);
            multi.advance(300).unwrap();
            let got = multi.state().unwrap();
            for k in 0..2 {
                assert!(
                    got.var(k).iter().zip(want.var(k).iter()).all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{parts} parts, depth {depth}: variable {k} differs"
                );
            }
        }
    }
}

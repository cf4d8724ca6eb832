//! Finding singularities over a run: the previous sample kept on the host
//! ([`PhaseMemory`]) and the recorder that turns each sample's plaquettes
//! into tips or filaments and their trace ([`SingularityRecorder`]).

use std::io;
use std::path::Path;

use kernels_gpu::GridDims;

use super::filaments::link_filaments;
use super::plaquettes::{ChargedPlaquette, TipsError, charged_plaquettes, check_level};
use super::sheet::tips_from;
use super::trace::{FILAMENTS_FILE, FilamentTrace, TIPS_FILE, TipsTrace};
use crate::scalar::Scalar;
use crate::units::UnitTags;

/// V at the previous sample, for the solvers that find singularities on
/// the host from a downloaded state (the CPU solvers, the tower layouts and
/// split grids; the single-GPU row-major solver keeps it on the device).
/// Held as f64 (exact for f32 states; the charge and position are
/// computed in f64 from either).
#[derive(Clone, Debug, Default)]
pub struct PhaseMemory {
    previous: Option<Vec<f64>>,
}

impl PhaseMemory {
    /// The charged plaquettes between `now` and the field of the previous
    /// call (`None` at the first call), which `now` then replaces.
    ///
    /// # Panics
    /// If `now` does not hold one value per cell, or the grid changed
    /// between calls (programming errors).
    pub fn sample<T: Scalar>(
        &mut self,
        now: &[T],
        dims: GridDims,
        v_star: f64,
    ) -> Option<Vec<ChargedPlaquette>> {
        let now: Vec<f64> = now.iter().map(|v| v.to_f64()).collect();
        let found = self.previous.as_deref().map(|prev| charged_plaquettes(&now, prev, dims, v_star));
        self.previous = Some(now);
        found
    }

    /// The field of the previous call, for a checkpoint.
    pub fn previous(&self) -> Option<&[f64]> {
        self.previous.as_deref()
    }

    /// Continues from a checkpoint's field: the next call compares with it.
    pub fn restore(&mut self, field: Vec<f64>) {
        self.previous = Some(field);
    }
}

/// Tips (sheet) or filaments (volume) over a run, from the charged
/// plaquettes of each sample (tau is the interval between samples).
#[derive(Clone, Debug)]
pub struct SingularityRecorder {
    dims: GridDims,
    dx: f64,
    v_star: f64,
    units: UnitTags,
    tips: TipsTrace,
    filaments: FilamentTrace,
}

impl SingularityRecorder {
    /// For a sheet or a volume of spacing `dx`, at the level `v_star`;
    /// times and positions are written in `units` (the model's).
    pub fn new(dims: GridDims, dx: f64, v_star: f64, units: UnitTags) -> Result<Self, TipsError> {
        if dims.axes() < 2 {
            return Err(TipsError::NoPlane { nx: dims.nx, ny: dims.ny, nz: dims.nz });
        }
        check_level(v_star)?;
        let tips = TipsTrace { rows: Vec::new(), units };
        let filaments = FilamentTrace { rows: Vec::new(), units };
        Ok(Self { dims, dx, v_star, units, tips, filaments })
    }

    /// The level the phase turns around.
    pub fn v_star(&self) -> f64 {
        self.v_star
    }

    /// Whether this grid gives filaments (a volume) rather than tips.
    pub fn is_volume(&self) -> bool {
        self.dims.axes() == 3
    }

    /// Records the singularities found at `t_ms` (the charged plaquettes
    /// between this sample and the previous one, in any order) and returns
    /// how many tips or filaments there are.
    pub fn record(&mut self, t_ms: f64, plaquettes: &[ChargedPlaquette]) -> usize {
        if self.is_volume() {
            let filaments = link_filaments(plaquettes, self.dims, self.dx);
            self.filaments.push(t_ms, &filaments);
            filaments.len()
        } else {
            let mut sorted = plaquettes.to_vec();
            sorted.sort_by_key(|p| (p.normal, self.dims.index(p.base[0], p.base[1], p.base[2])));
            let tips = tips_from(&sorted, self.dx);
            self.tips.push(t_ms, &tips);
            tips.len()
        }
    }

    pub fn tips(&self) -> &TipsTrace {
        &self.tips
    }

    pub fn filaments(&self) -> &FilamentTrace {
        &self.filaments
    }

    /// `tips.csv` (sheet) or `filaments.csv` (volume).
    pub fn file_name(&self) -> &'static str {
        if self.is_volume() { FILAMENTS_FILE } else { TIPS_FILE }
    }

    /// Continues the trace of a checkpointed run: the rows of its CSV (the
    /// file [`SingularityRecorder::write`] wrote) up to and including
    /// `until_ms`. `Err(line)` names the first line that does not parse.
    pub fn continue_from_csv(&mut self, text: &str, until_ms: f64) -> Result<(), usize> {
        if self.is_volume() {
            self.filaments = FilamentTrace::from_csv(text, until_ms, self.units)?;
        } else {
            self.tips = TipsTrace::from_csv(text, until_ms, self.dx, self.units)?;
        }
        Ok(())
    }

    /// Writes the tips (sheet) or filaments (volume) to `path`, the
    /// run's [`SingularityRecorder::file_name`].
    pub fn write(&self, path: &Path) -> io::Result<()> {
        if self.is_volume() { self.filaments.write(path) } else { self.tips.write(path) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    use crate::events::tips::filaments::{Filament, FilamentPoint, find_filaments};
    use crate::events::tips::sheet::{Tip, find_tips};
    use crate::events::tips::testing::{fields, sample, spiral};

    #[test]
    fn grids_of_the_wrong_shape_and_bad_levels_are_refused() {
        let u = vec![0.0f32; 64];
        let cable = GridDims::new(64, 1, 1);
        let cube = GridDims::new(4, 4, 4);
        let sheet = GridDims::new(8, 8, 1);
        assert!(matches!(find_tips(&u, &u, cube, 1.0, 0.5), Err(TipsError::NotASheet { .. })));
        assert!(matches!(find_filaments(&u, &u, sheet, 1.0, 0.5), Err(TipsError::NotAVolume { .. })));
        assert!(matches!(
            SingularityRecorder::new(cable, 1.0, 0.5, UnitTags::MS_MM),
            Err(TipsError::NoPlane { .. })
        ));
        let e = find_tips(&u, &u, sheet, 1.0, f64::NAN).unwrap_err();
        assert!(e.to_string().contains("activation threshold"), "{e}");
    }

    #[test]
    fn the_recorder_delays_by_one_sample_writes_csv_and_reads_it_back() {
        let dims = GridDims::new(24, 20, 1);
        let mut rec = SingularityRecorder::new(dims, 0.5, 0.0, UnitTags::MS_MM).unwrap();
        let mut memory = PhaseMemory::default();
        let f = spiral(10.3, 7.6, 1.0);
        for (k, t_ms) in [0.0, 2.5, 5.0].into_iter().enumerate() {
            let (now, _) = fields(dims, 0.0, |x, y, z, _| f(x, y, z, 0.4 * k as f64));
            assert_eq!(sample(&mut rec, &mut memory, t_ms, &now, dims), usize::from(k > 0));
        }
        let csv = rec.tips().to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3, "{csv}");
        assert_eq!(lines[0], "t_ms,charge,x_mm,y_mm,z_mm");
        assert!(lines[1].starts_with("2.5,1,") && lines[2].starts_with("5,1,"), "{csv}");
        let dir = std::env::temp_dir().join(format!("fibril-tips-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        rec.write(&dir.join(rec.file_name())).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join(TIPS_FILE)).unwrap(), csv);
        // A volume writes filaments.
        let mut trace = FilamentTrace::default();
        let p = FilamentPoint {
            normal: 2,
            charge: 1,
            position_cells: [1.0, 2.0, 3.0],
            position_mm: [0.5, 1.0, 1.5],
        };
        trace.push(7.5, &[Filament { id: 0, points: vec![p, p], closed: false }]);
        assert_eq!(trace.to_csv(), "t_ms,filament_id,x_mm,y_mm,z_mm\n7.5,0,0.5,1,1.5\n7.5,0,0.5,1,1.5\n");
        trace.write(&dir.join(FILAMENTS_FILE)).unwrap();
        assert!(dir.join(FILAMENTS_FILE).is_file());
        std::fs::remove_dir_all(&dir).unwrap();
        // Read back (a resumed run): up to a time, exactly; damage named by line.
        let mm = UnitTags::MS_MM;
        let back = FilamentTrace::from_csv(&trace.to_csv(), 7.5, mm).unwrap();
        assert_eq!(back, trace);
        assert_eq!(FilamentTrace::from_csv(&trace.to_csv(), 7.0, mm).unwrap().rows().len(), 0);
        let tips = TipsTrace::from_csv(&csv, 2.5, 0.5, mm).unwrap();
        assert_eq!(tips.to_csv().lines().count(), 2);
        assert_eq!(tips.rows()[0].1, rec.tips().rows()[0].1);
        assert_eq!(TipsTrace::from_csv(&csv, 5.0, 0.5, mm).unwrap().to_csv(), csv);
        assert_eq!(TipsTrace::from_csv("t_ms,charge,x_mm,y_mm,z_mm\n1,2,0,0,0\n", 9.0, 1.0, mm), Err(2));
        assert_eq!(TipsTrace::from_csv("t_ms,x\n", 9.0, 1.0, mm), Err(1));
        assert_eq!(FilamentTrace::from_csv("t_ms,filament_id,x_mm,y_mm,z_mm\n1,0,0,0\n", 9.0, mm), Err(2));
        assert_eq!(
            FilamentTrace::from_csv("t_ms,filament_id,x_mm,y_mm,z_mm\n1,0.5,0,0,0\n", 9.0, mm),
            Err(2)
        );
    }

    /// A real spiral: Aliev-Panfilov on a 128 x 128 sheet (dx = 1, dt =
    /// 0.05) started by the scroll protocol (S1 planar along y, the
    /// cross-field S2 timed by the protocol's probe), sampled every time
    /// unit on the CPU (under a second). From the first sample on there is
    /// exactly one tip; once the spiral has settled (t >= 200) it stays
    /// within a small circle (the core, radius about 2.5 cells), and it
    /// goes round that circle in the sense its charge says.
    #[test]
    fn a_simulated_spiral_has_one_tip_circling_a_fixed_core() {
        use crate::backend::CpuSolver;
        use crate::domain::Domain;
        use crate::events::protocol::{scroll_s2, scroll_s2_step};
        use crate::init::InitialCondition;
        use crate::models::ModelSetup;
        use crate::solver::Solver;
        use kernels_gpu::CellModel;
        use kernels_gpu::models::AlievPanfilov;

        let (dims, dx, dt) = (GridDims::new(128, 128, 1), 1.0, 0.05);
        let model = ModelSetup::new("aliev_panfilov", None, &[]).unwrap();
        let domain = Domain::new(dims, dx, dt, 1.0, model).unwrap();
        let s2_step = scroll_s2_step(&domain).unwrap();
        let s2 = scroll_s2(s2_step as f64 * dt).compile(1, dims, dt, AlievPanfilov::INFO).unwrap();
        let start = InitialCondition::Planar.state::<f32>(AlievPanfilov::INFO, dims);
        let mut solver = CpuSolver::<AlievPanfilov, f32>::new(&domain, &start);
        solver.advance(s2_step).unwrap();
        let mut state = solver.state().unwrap();
        let crate::events::stimulus::Action::Set(value) = s2.action else { unreachable!("S2 sets a value") };
        s2.region.apply(&mut state, value as f32);
        solver.set_state(&state).unwrap();

        let v_star = AlievPanfilov::INFO.activation_threshold;
        let mut rec =
            SingularityRecorder::new(dims, dx, v_star, UnitTags::of(&AlievPanfilov::INFO.units)).unwrap();
        let mut memory = PhaseMemory::default();
        let every = 20; // 1 time unit: tau is a few percent of the period
        let mut step = s2_step;
        sample(&mut rec, &mut memory, step as f64 * dt, solver.potential(), dims);
        while (step as f64) * dt < 500.0 {
            solver.advance(every).unwrap();
            step += every;
            let found = sample(&mut rec, &mut memory, step as f64 * dt, solver.potential(), dims);
            assert_eq!(found, 1, "t = {}: {found} tips", step as f64 * dt);
        }
        let settled: Vec<&Tip> = rec.tips().rows().iter().filter(|r| r.0 >= 200.0).map(|r| &r.1).collect();
        assert!(settled.len() >= 290, "{}", settled.len());
        let n = settled.len() as f64;
        let centre: [f64; 2] =
            std::array::from_fn(|a| settled.iter().map(|t| t.position_mm[a]).sum::<f64>() / n);
        let radius = |t: &Tip| (t.position_mm[0] - centre[0]).hypot(t.position_mm[1] - centre[1]);
        let widest = settled.iter().map(|t| radius(t)).fold(0.0, f64::max);
        assert!(widest < 5.0, "the tip strays {widest} from its mean position {centre:?}");
        // The angle the tip sweeps about the centre, in turns.
        let angle = |t: &Tip| (t.position_mm[1] - centre[1]).atan2(t.position_mm[0] - centre[0]);
        let turns: f64 = settled
            .windows(2)
            .map(|w| {
                let d = angle(w[1]) - angle(w[0]);
                d - (2.0 * PI) * (d / (2.0 * PI)).round()
            })
            .sum::<f64>()
            / (2.0 * PI);
        let charge = settled[0].charge;
        eprintln!("spiral tip: {turns:.1} turns within {widest:.2} of {centre:?}, charge {charge}");
        assert!(settled.iter().all(|t| t.charge == charge));
        assert!(turns * charge as f64 > 4.0, "{turns} turns with charge {charge}");
    }
}

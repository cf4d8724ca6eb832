use super::*;
use crate::backend::CpuSolver;
use crate::events::recording::{Maps, Recording};
use crate::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use crate::events::{EventStart, Events};
use crate::io::OutputDir;
use crate::io::queue::SnapshotQueue;
use crate::io::snapshots::{Formats, SnapshotWriter};
use crate::models::ModelSetup;
use crate::{CellModel, GridDims};
use kernels_gpu::models::Diffusion;

#[test]
fn snapshot_steps_include_start_and_end() {
    let s = Schedule::new(10, Some(4), 100);
    assert_eq!(s.snapshot_steps(), vec![0, 4, 8, 10]);
    let s = Schedule::new(8, Some(4), 100);
    assert_eq!(s.snapshot_steps(), vec![0, 4, 8]);
    let s = Schedule::new(8, None, 100);
    assert_eq!(s.snapshot_steps(), vec![8]);
    // Resumed at 4: the snapshot at 4 was written before the checkpoint.
    let s = Schedule { start_step: 4, resumed: true, ..Schedule::new(10, Some(4), 100) };
    assert_eq!(s.snapshot_steps(), vec![8, 10]);
}

/// A solver that records the steps at which it was asked for each
/// thing. With `pending`, its NaN checks stay pending, as a GPU's do;
/// it puts a NaN into the field when it passes `nan_at`.
struct Recorder {
    inner: CpuSolver<Diffusion, f64>,
    step: u64,
    log: Vec<(u64, &'static str)>,
    pending: bool,
    answers: Vec<bool>,
    nan_at: u64,
    /// Copies the state out "behind" the steps: at `begin_state_copy`,
    /// given back at `collect_state`.
    copy_behind: bool,
    copied: Option<State<f64>>,
}

impl Recorder {
    fn new(domain: &Domain, state: &State<f64>) -> Self {
        let inner = CpuSolver::new(domain, state);
        Recorder {
            inner,
            step: 0,
            log: Vec::new(),
            pending: false,
            answers: Vec::new(),
            nan_at: u64::MAX,
            copy_behind: false,
            copied: None,
        }
    }
}

impl Solver<f64> for Recorder {
    fn runs_on(&self) -> crate::solver::RunsOn {
        crate::solver::RunsOn::Cpu("recorder".into())
    }
    fn method(&self) -> String {
        "recorder".into()
    }
    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        let before = self.step;
        self.step += steps;
        self.log.push((self.step, "advance"));
        self.inner.advance(steps)?;
        if before < self.nan_at && self.nan_at <= self.step {
            let mut state = self.inner.state()?;
            state.slice_mut(0)[5] = f64::NAN;
            self.inner.set_state(&state)?;
        }
        Ok(())
    }
    fn synchronize(&mut self) -> Result<(), SolverError> {
        Ok(())
    }
    fn state(&mut self) -> Result<State<f64>, SolverError> {
        self.log.push((self.step, "state"));
        self.inner.state()
    }
    fn begin_state_copy(&mut self) -> Result<bool, SolverError> {
        if !self.copy_behind {
            return Ok(false);
        }
        self.log.push((self.step, "begin_copy"));
        self.copied = Some(self.inner.state()?);
        Ok(true)
    }
    fn collect_state(&mut self) -> Result<State<f64>, SolverError> {
        self.log.push((self.step, "collect"));
        Ok(self.copied.take().expect("a copy begun"))
    }
    fn set_state(&mut self, state: &State<f64>) -> Result<(), SolverError> {
        self.log.push((self.step, "set_state"));
        self.inner.set_state(state)
    }
    fn install_events(&mut self, at: crate::solver::EventsAt<'_>) -> Result<(), SolverError> {
        self.inner.install_events(at)
    }
    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.log.push((self.step, "maps"));
        self.inner.maps()
    }
    fn ecg(&mut self, probes: &[kernels_gpu::ecg::EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.inner.ecg(probes)
    }
    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.inner.any_nonfinite()
    }
    fn begin_nonfinite_check(&mut self) -> Result<NonfiniteCheck, SolverError> {
        // The answer is the state's now, as a check on a stream sees it.
        let bad = self.inner.any_nonfinite()?;
        if !self.pending {
            return Ok(NonfiniteCheck::Answered(bad));
        }
        self.answers.push(bad);
        self.log.push((self.step, "begin"));
        Ok(NonfiniteCheck::Pending(self.answers.len() - 1))
    }
    fn end_nonfinite_check(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
        match check {
            NonfiniteCheck::Answered(bad) => Ok(bad),
            NonfiniteCheck::Pending(slot) => {
                self.log.push((self.step, "end"));
                Ok(self.answers[slot])
            }
        }
    }
}

#[test]
fn stimuli_and_maps_stay_in_the_solver_and_the_loop_stops_only_for_output() {
    let dims = GridDims::new(4, 4, 4);
    let domain = Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
    let rest = State::rest(Diffusion::INFO, dims);
    let mut solver = Recorder::new(&domain, &rest);
    let mut s1 = StimulusSpec::new(RegionKind::Box, 0.35); // step 7
    s1.duration_ms = 0.1; // steps 7 and 8
    s1.x = Some([0, 0]);
    let stimuli = StimulusSchedule::compile(&[s1], dims, 0.05, Diffusion::INFO).unwrap();
    let recording = Recording { up: 0.5, down: None, beats: None };
    let events = Events { stimuli, recording: Some(recording) };
    let maps = Maps::at_start(recording, dims, rest.slice(0), 0.0);
    solver.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
    let dir = std::env::temp_dir().join(format!("fibril-driver-{}", std::process::id()));
    let out = OutputDir::prepare(&dir, true).unwrap();
    let mut writer = SnapshotQueue::background(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
    let path = dir.join("checkpoint.fibril");
    let mut schedule = Schedule::new(20, None, 100);
    schedule.checkpoint_every = Some(10);
    let report = run_writing(&mut solver, &domain, &schedule, &mut writer, &path).unwrap();
    assert_eq!(report.outcome, Outcome::Completed);
    assert!(!solver.log.iter().any(|e| e.1 == "set_state"), "no round trip: {:?}", solver.log);
    let advances: Vec<u64> = solver.log.iter().filter(|e| e.1 == "advance").map(|e| e.0).collect();
    assert_eq!(advances, vec![10, 20]);
    let maps_read: Vec<u64> = solver.log.iter().filter(|e| e.1 == "maps").map(|e| e.0).collect();
    assert_eq!(maps_read, vec![10, 20], "maps read only for the checkpoints");
    // The stimulated column x = 0 was set to 1 at step 7: activated at 0.35 ms.
    let m = solver.maps().unwrap().unwrap();
    assert_eq!(m.activation[0], 0.35);
    assert!(m.activation[1].is_nan() || m.activation[1] > 0.35);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `schedule` writing snapshots to `writer` and checkpoints to
/// `path`, with nothing sampled and no stop.
fn run_writing(
    solver: &mut Recorder,
    domain: &Domain,
    schedule: &Schedule,
    writer: &mut SnapshotQueue,
    path: &Path,
) -> Result<RunReport, Box<RunFailure>> {
    let stop = AtomicBool::new(false);
    let mut ctx = RunContext {
        writer: Some(writer),
        outputs: Vec::new(),
        checkpoint_path: Some(path),
        stop: &stop,
        progress: &mut |_| {},
    };
    run(solver, domain, schedule, &mut ctx)
}

/// Snapshots copied out behind the steps (section 2.7) are the
/// snapshots a synchronous download writes, at the same steps and with
/// the same values: begun at the snapshot's step, collected once the
/// next stretch is enqueued; the last one (and one at a checkpoint) is
/// read at once.
#[test]
fn snapshots_copied_behind_the_steps_are_the_synchronous_ones() {
    let dims = GridDims::new(6, 5, 4);
    let domain = Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
    let mut start = State::rest(Diffusion::INFO, dims);
    start.slice_mut(0)[7] = 1.0;
    let mut written = Vec::new();
    for copy_behind in [false, true] {
        let mut solver = Recorder::new(&domain, &start);
        solver.copy_behind = copy_behind;
        solver.set_events(&Events::default(), EventStart::NEW, None).unwrap();
        let dir =
            std::env::temp_dir().join(format!("fibril-driver-behind-{copy_behind}-{}", std::process::id()));
        let out = OutputDir::prepare(&dir, true).unwrap();
        let mut writer = SnapshotQueue::inline(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
        let mut schedule = Schedule::new(30, Some(5), 100);
        schedule.checkpoint_every = Some(20);
        let report =
            run_writing(&mut solver, &domain, &schedule, &mut writer, &dir.join("checkpoint.fibril"))
                .unwrap();
        assert_eq!(report.outcome, Outcome::Completed);
        let records = writer.finish().unwrap().records().to_vec();
        let files: Vec<(u64, Vec<u8>)> =
            records.iter().map(|r| (r.step, std::fs::read(dir.join(&r.files[0])).unwrap())).collect();
        if copy_behind {
            let begun: Vec<u64> =
                solver.log.iter().filter(|(_, w)| *w == "begin_copy").map(|(s, _)| *s).collect();
            assert_eq!(begun, [0, 5, 10, 15, 25], "not at the checkpoint (20) nor at the end (30)");
            for s in begun {
                let at = solver.log.iter().position(|e| *e == (s, "begin_copy")).unwrap();
                assert_eq!(solver.log[at + 1].1, "advance", "the next steps are enqueued first");
                assert_eq!(solver.log[at + 2].1, "collect");
            }
        }
        written.push(files);
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert_eq!(written[0].iter().map(|f| f.0).collect::<Vec<_>>(), [0, 5, 10, 15, 20, 25, 30]);
    assert_eq!(written[0], written[1], "the same snapshots, byte for byte");
}

#[test]
fn a_write_error_ends_the_run_with_the_report_of_what_was_done() {
    let dims = GridDims::new(4, 4, 4);
    let domain = Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
    let rest = State::rest(Diffusion::INFO, dims);
    let mut solver = Recorder::new(&domain, &rest);
    solver.set_events(&Events::default(), EventStart::NEW, None).unwrap();
    let dir = std::env::temp_dir().join(format!("fibril-driver-failed-{}", std::process::id()));
    let out = OutputDir::prepare(&dir, true).unwrap();
    let mut writer = SnapshotQueue::inline(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
    // The checkpoint goes where no file can be written.
    let path = dir.join("missing").join("checkpoint.fibril");
    let mut schedule = Schedule::new(30, Some(5), 100);
    schedule.checkpoint_every = Some(10);
    let failure = run_writing(&mut solver, &domain, &schedule, &mut writer, &path).unwrap_err();
    assert_eq!(failure.report.outcome, Outcome::Failed { step: 10, t_ms: 0.5 });
    assert_eq!((failure.report.steps_done, failure.report.steps_advanced), (10, 10));
    assert!(failure.to_string().contains("checkpoint.fibril"), "{failure}");
    let written: Vec<u64> = writer.finish().unwrap().records().iter().map(|r| r.step).collect();
    assert_eq!(written, [0, 5, 10], "the snapshots before the error stay");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs 1,000 steps of pure diffusion with a check every 100 steps on a
/// solver whose checks stay pending, a NaN put in at `nan_at`, and a
/// snapshot every `snapshot_every` steps; returns the report, the
/// solver's log and the snapshot steps written.
fn run_pending(
    nan_at: u64,
    snapshot_every: Option<u64>,
    stop_at: u64,
) -> (RunReport, Vec<(u64, &'static str)>, Vec<u64>) {
    run_pending_with(nan_at, snapshot_every, None, stop_at)
}

/// [`run_pending`] with a checkpoint every `checkpoint_every` steps.
fn run_pending_with(
    nan_at: u64,
    snapshot_every: Option<u64>,
    checkpoint_every: Option<u64>,
    stop_at: u64,
) -> (RunReport, Vec<(u64, &'static str)>, Vec<u64>) {
    let dims = GridDims::new(4, 4, 4);
    let domain = Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
    let rest = State::rest(Diffusion::INFO, dims);
    let mut solver = Recorder { pending: true, nan_at, ..Recorder::new(&domain, &rest) };
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run_id = RUNS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("fibril-driver-pending-{}-{run_id}", std::process::id()));
    let out = OutputDir::prepare(&dir, true).unwrap();
    let mut writer = SnapshotQueue::inline(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
    let stop = AtomicBool::new(false);
    let mut schedule = Schedule::new(1_000, snapshot_every, 100);
    schedule.checkpoint_every = checkpoint_every;
    let path = dir.join("checkpoint.fibril");
    let mut ctx = RunContext {
        writer: Some(&mut writer),
        outputs: Vec::new(),
        checkpoint_path: checkpoint_every.map(|_| path.as_path()),
        stop: &stop,
        progress: &mut |s| stop.store(s >= stop_at, Ordering::SeqCst),
    };
    let report = run(&mut solver, &domain, &schedule, &mut ctx).unwrap();
    let written = writer.finish().unwrap().records().iter().map(|r| r.step).collect();
    std::fs::remove_dir_all(&dir).unwrap();
    (report, solver.log, written)
}

#[test]
fn a_pending_check_is_answered_after_the_next_steps_are_enqueued() {
    let (report, log, _) = run_pending(u64::MAX, None, u64::MAX);
    assert_eq!(report.outcome, Outcome::Completed);
    assert_eq!((report.steps_done, report.steps_advanced), (1_000, 1_000));
    // Each check (begun after the steps to s) is answered only after
    // the steps to s + 100 were enqueued; the last one at once.
    let mut expected = vec![(100, "advance"), (100, "begin")];
    for s in (200..=1_000).step_by(100) {
        expected.extend([(s, "advance"), (s, "end"), (s, "begin")]);
    }
    expected.extend([(1_000, "end"), (1_000, "state")]);
    assert_eq!(log, expected);
}

#[test]
fn a_nan_found_late_stops_the_run_where_it_was_checked() {
    // NaN during the steps to 300: the check at 300 finds it while
    // the steps to 400 run; the run ends at 300 all the same.
    let (report, log, written) = run_pending(250, Some(500), u64::MAX);
    assert_eq!(report.outcome, Outcome::NonFinite { step: 300, t_ms: 15.0, last_clean_step: 200 });
    assert_eq!((report.steps_done, report.steps_advanced), (300, 400));
    assert_eq!(log.last(), Some(&(400, "end")), "no check begun after the NaN was found");
    assert_eq!(written, [0], "nothing written after the NaN");
    // At a step with output the check is answered before the output:
    // NaN during the steps to 500 is found at 500, no snapshot there.
    let (report, log, written) = run_pending(450, Some(500), u64::MAX);
    assert_eq!(report.outcome, Outcome::NonFinite { step: 500, t_ms: 25.0, last_clean_step: 400 });
    assert_eq!((report.steps_done, report.steps_advanced), (500, 500));
    assert_eq!(&log[log.len() - 3..], [(500, "end"), (500, "begin"), (500, "end")]);
    assert_eq!(written, [0]);
}

#[test]
fn a_stop_answers_the_pending_check_before_the_checkpoint() {
    // Stopped at 300 with the check of 300 pending: it is answered,
    // then the state is kept.
    let (report, log, _) = run_pending(u64::MAX, None, 300);
    assert_eq!(report.outcome, Outcome::Interrupted { step: 300, t_ms: 15.0 });
    assert_eq!(report.checkpoints, [300]);
    assert_eq!(&log[log.len() - 4..], [(300, "begin"), (300, "end"), (300, "state"), (300, "maps")]);
    // The same with a NaN before 300: no checkpoint of a bad state.
    let (report, log, _) = run_pending(250, None, 300);
    assert_eq!(report.outcome, Outcome::NonFinite { step: 300, t_ms: 15.0, last_clean_step: 200 });
    assert!(report.checkpoints.is_empty());
    assert_eq!(log.last(), Some(&(300, "end")));
}

#[test]
fn a_check_at_a_checkpoint_is_answered_before_the_state_is_kept() {
    // Checkpoints every 250 steps: the check at 250 is answered at
    // once, the one at 200 stays pending until the steps to 250 are
    // enqueued. NaN during the steps to 250: found at 250, nothing kept.
    let (report, log, _) = run_pending_with(240, None, Some(250), u64::MAX);
    assert_eq!(report.outcome, Outcome::NonFinite { step: 250, t_ms: 12.5, last_clean_step: 200 });
    assert!(report.checkpoints.is_empty(), "no checkpoint of a bad state: {:?}", report.checkpoints);
    assert!(!log.iter().any(|e| e.1 == "state"), "state never read: {log:?}");
    assert_eq!(&log[log.len() - 4..], [(250, "advance"), (250, "end"), (250, "begin"), (250, "end")]);
    // Without the NaN the checkpoint at 250 is written after its check;
    // checks go on 100 steps apart from there, and the stop asked for
    // after 250 is seen at the check of 350, where the state is kept.
    let (report, log, _) = run_pending_with(u64::MAX, None, Some(250), 260);
    assert_eq!(report.outcome, Outcome::Interrupted { step: 350, t_ms: 17.5 });
    assert_eq!(report.checkpoints, [250, 350]);
    let at_250: Vec<&str> = log.iter().filter(|e| e.0 == 250).map(|e| e.1).collect();
    assert_eq!(at_250, ["advance", "end", "begin", "end", "state", "maps"]);
}

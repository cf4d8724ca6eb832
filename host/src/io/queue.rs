//! Snapshots written behind the computation: a writer thread takes each
//! downloaded state from a queue of one and writes its files while the GPU
//! goes on with the next steps.
//!
//! The queue holds one state: memory stays bounded (the state being
//! written, and the next one waiting), and when the disk is slower than the
//! snapshots come the run waits for it, with a notice the first time
//! (back-pressure). Files still appear only complete (every file is
//! written under a temporary name and renamed) and the index is rewritten
//! after each snapshot, so an interrupted run leaves exactly the snapshots
//! its index lists; `flush` waits for the queue before a checkpoint, so a
//! checkpoint never counts a snapshot that is not on disk. A write error
//! is reported at the next `write`, `flush` or `finish`, and the run stops
//! there with it.
//!
//! On the CPU the computation uses every core, so writing inline costs the
//! same and keeps the host memory at its estimate: [`SnapshotQueue::inline`].

use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::io::output_dir::OutputDir;
use crate::io::snapshots::{SnapshotWriter, WriteError};
use crate::scalar::Scalar;
use crate::state::State;

type Job = Box<dyn FnOnce(&mut SnapshotWriter) -> Result<(), WriteError> + Send>;

/// States the writer thread is done with, handed back so the next snapshot
/// is downloaded into them: fresh blocks of this size cost more in page
/// faults than the copy itself (the H100 measurement in docs/history/BENCHMARKS-2026.md).
type Recycled = Arc<Mutex<Vec<Box<dyn std::any::Any + Send>>>>;

/// States kept for reuse at most: the queue's one and the one being written.
const RECYCLED_MAX: usize = 2;

/// The snapshots of a run, written inline or by a writer thread.
pub struct SnapshotQueue {
    writer: Arc<Mutex<SnapshotWriter>>,
    dir: OutputDir,
    next_index: u64,
    worker: Option<Worker>,
    recycled: Recycled,
    /// Seconds the run waited for the disk.
    pub waited_s: f64,
}

struct Worker {
    tx: SyncSender<Job>,
    handle: JoinHandle<()>,
    failed: Arc<Mutex<Option<WriteError>>>,
    told: bool,
}

impl SnapshotQueue {
    /// Writes each snapshot before `write` returns.
    pub fn inline(writer: SnapshotWriter) -> Self {
        let (dir, next_index) = (writer.dir().clone(), writer.next_index());
        Self {
            writer: Arc::new(Mutex::new(writer)),
            dir,
            next_index,
            worker: None,
            recycled: Arc::default(),
            waited_s: 0.0,
        }
    }

    /// Writes snapshots on a thread of its own, one queued at most.
    pub fn background(mut writer: SnapshotWriter) -> Self {
        writer.write_files_in_parallel();
        let mut queue = Self::inline(writer);
        let (tx, rx) = sync_channel::<Job>(1);
        let failed = Arc::new(Mutex::new(None));
        let (writer, failed_w) = (queue.writer.clone(), failed.clone());
        let handle = std::thread::Builder::new()
            .name("fibril-writer".into())
            .spawn(move || work(&rx, &writer, &failed_w))
            .expect("a thread can be started");
        queue.worker = Some(Worker { tx, handle, failed, told: false });
        queue
    }

    /// Snapshots written or queued so far: the number of the next one.
    pub fn next_index(&self) -> u64 {
        self.next_index
    }

    pub fn dir(&self) -> &OutputDir {
        &self.dir
    }

    /// A state the writer is done with, to download the next one into
    /// (only with a writer thread: inline, nothing is kept).
    pub fn take_recycled<T: Scalar>(&self) -> Option<State<T>> {
        let mut list = self.recycled.lock().expect("never poisoned");
        let state = list.pop()?;
        state.downcast::<State<T>>().ok().map(|b| *b)
    }

    /// Writes (or queues) a snapshot of `state` at `step`.
    pub fn write<T: Scalar>(&mut self, step: u64, t_ms: f64, state: State<T>) -> Result<(), WriteError> {
        self.next_index += 1;
        let recycled = self.worker.is_some().then(|| self.recycled.clone());
        let job: Job = Box::new(move |w: &mut SnapshotWriter| {
            w.write(step, t_ms, &state)?;
            if let Some(list) = recycled {
                let mut list = list.lock().expect("never poisoned");
                if list.len() < RECYCLED_MAX {
                    list.push(Box::new(state));
                }
            }
            Ok(())
        });
        let Some(worker) = &mut self.worker else {
            return job(&mut self.writer.lock().expect("the writer never panics"));
        };
        take_failure(worker)?;
        match worker.tx.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(job)) => {
                if !worker.told {
                    worker.told = true;
                    eprintln!(
                        "fibril: note: the disk is slower than the snapshots come; the run waits for it \
                         (one snapshot is queued at a time)"
                    );
                }
                let t0 = Instant::now();
                let sent = worker.tx.send(job);
                self.waited_s += t0.elapsed().as_secs_f64();
                if sent.is_err() {
                    take_failure(worker)?;
                }
                Ok(())
            }
            Err(TrySendError::Disconnected(_)) => take_failure(worker),
        }
    }

    /// Writes a snapshot of a state the caller keeps: inline at once, or
    /// queued as a copy.
    pub fn write_borrowed<T: Scalar>(
        &mut self,
        step: u64,
        t_ms: f64,
        state: &State<T>,
    ) -> Result<(), WriteError> {
        if self.worker.is_some() {
            return self.write(step, t_ms, state.clone());
        }
        self.next_index += 1;
        self.writer.lock().expect("the writer never panics").write(step, t_ms, state)
    }

    /// Waits until every queued snapshot is on disk.
    pub fn flush(&mut self) -> Result<(), WriteError> {
        let Some(worker) = &mut self.worker else {
            return self.writer.lock().expect("the writer never panics").flush_index();
        };
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let t0 = Instant::now();
        // The index is brought up to date behind the snapshots queued.
        let barrier: Job = Box::new(move |w| {
            let result = w.flush_index();
            let _ = done_tx.send(());
            result
        });
        if worker.tx.send(barrier).is_ok() {
            let _ = done_rx.recv();
        }
        self.waited_s += t0.elapsed().as_secs_f64();
        take_failure(worker)
    }

    /// Waits for the queue, stops the thread and returns the writer (for
    /// the maps and the summary).
    pub fn finish(self) -> Result<SnapshotWriter, WriteError> {
        let (writer, result) = self.finish_keeping();
        result.map(|()| writer)
    }

    /// [`SnapshotQueue::finish`] that hands the writer back also when a
    /// write failed (its records list the snapshots written before), so
    /// the run's summary can list them.
    pub fn finish_keeping(mut self) -> (SnapshotWriter, Result<(), WriteError>) {
        let result = self.flush();
        if let Some(worker) = self.worker.take() {
            drop(worker.tx);
            let _ = worker.handle.join();
        }
        let writer = Arc::try_unwrap(self.writer).unwrap_or_else(|_| unreachable!("the thread has ended"));
        let mut writer = writer.into_inner().expect("the writer never panics");
        if result.is_err() {
            // The index lists what was written before the error, if it
            // still can be written.
            let _ = writer.flush_index();
        }
        (writer, result)
    }
}

/// The writer thread: runs jobs until the queue closes or one fails.
fn work(rx: &Receiver<Job>, writer: &Mutex<SnapshotWriter>, failed: &Mutex<Option<WriteError>>) {
    while let Ok(job) = rx.recv() {
        let result = job(&mut writer.lock().expect("the writer never panics"));
        if let Err(e) = result {
            *failed.lock().expect("never poisoned") = Some(e);
            // Dropping the receiver makes every later send fail, so the run
            // sees the error at its next write.
            return;
        }
    }
}

fn take_failure(worker: &mut Worker) -> Result<(), WriteError> {
    match worker.failed.lock().expect("never poisoned").take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::snapshots::Formats;
    use kernels_gpu::CellModel;
    use kernels_gpu::GridDims;
    use kernels_gpu::models::Karma;

    #[test]
    fn background_writes_every_snapshot_in_order_and_reports_errors() {
        let dir = std::env::temp_dir().join(format!("fibril-queue-{}", std::process::id()));
        let out = OutputDir::prepare(&dir, true).unwrap();
        let writer = SnapshotWriter::new(out, vec![0, 1], Formats::default(), 0.6);
        let mut queue = SnapshotQueue::background(writer);
        let dims = GridDims::new(8, 7, 6);
        for k in 0..5u64 {
            let state = State::<f32>::uniform(Karma::INFO, dims, &[k as f64, 0.5]);
            queue.write(10 * k, k as f64, state).unwrap();
        }
        assert_eq!(queue.next_index(), 5);
        queue.flush().unwrap();
        let writer = queue.finish().unwrap();
        let steps: Vec<u64> = writer.records().iter().map(|r| r.step).collect();
        assert_eq!(steps, vec![0, 10, 20, 30, 40]);
        for k in 0..5 {
            let a = crate::io::npy::read(&dir.join(format!("U_{k:06}.npy"))).unwrap();
            assert!(a.values.iter().all(|&v| v == k as f64));
        }
        std::fs::remove_dir_all(&dir).unwrap();
        // A directory that disappears: the error comes back to the run.
        let gone = dir.with_extension("gone");
        let out = OutputDir::prepare(&gone, true).unwrap();
        let mut queue = SnapshotQueue::background(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
        std::fs::remove_dir_all(&gone).unwrap();
        let state = || State::<f32>::uniform(Karma::INFO, dims, &[1.0, 0.5]);
        let mut failed = false;
        for step in 0..4 {
            failed |= queue.write(step, 0.0, state()).is_err();
        }
        failed |= queue.flush().is_err();
        assert!(failed, "a write into a removed directory is reported");
    }
}

//! Writing the files of one snapshot (or of the maps), in parallel where
//! a disk keeps several in flight.

use super::record::WriteError;

/// One or more files of a snapshot or of the maps, written by [`write_all`].
pub type FileJob<'a> = Box<dyn FnOnce() -> Result<(), WriteError> + Send + 'a>;

/// Jobs with the names of the files each writes, in order.
pub type Jobs<'a> = Vec<(Vec<String>, FileJob<'a>)>;

/// Runs every job, each on a thread of its own when `parallel`, and
/// returns the names of their files, in order. Each file ends with an
/// fsync, and a disk keeps several in flight faster than it finishes them
/// one after the other (and a picture's drawing overlaps the large
/// writes). The first failure in file order is returned; the files that
/// were written stay complete (each is renamed into place only when
/// whole).
pub fn write_all(jobs: Jobs<'_>, parallel: bool) -> Result<Vec<String>, WriteError> {
    let files: Vec<String> = jobs.iter().flat_map(|(files, _)| files.iter().cloned()).collect();
    if !parallel {
        for (_, job) in jobs {
            job()?;
        }
        return Ok(files);
    }
    let results: Vec<Result<(), WriteError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs.into_iter().map(|(_, job)| scope.spawn(job)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    results.into_iter().collect::<Result<Vec<()>, WriteError>>()?;
    Ok(files)
}

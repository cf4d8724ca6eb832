//! Continuing a run from its checkpoint: the checkpoint read and checked
//! against the run's options before any work, and the traces (ECG, tips)
//! it continues, read from the directory it was written in.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use fibril_host::checkpoint::{self, CheckpointHeader};
use fibril_host::events::ecg::{EcgTrace, Electrode};
use fibril_host::events::recording::Recording;
use fibril_host::events::tips::SingularityRecorder;
use fibril_host::time::short;
use fibril_host::units::UnitTags;
use fibril_host::{Domain, Precision};

/// A checkpoint to continue from, verified against the run's options.
pub struct Resume {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub header: CheckpointHeader,
}

/// Refuses to continue a tip trace from a checkpoint that holds no phase
/// memory, or whose last tip sample is not where this run's interval puts
/// the last sample before the checkpoint.
pub fn check_tips_resume(r: &Resume, every: u64, dt_ms: f64) -> anyhow::Result<()> {
    let step = r.header.step;
    let expected = step - step % every;
    match r.header.phase_step {
        None => bail!(
            "{} holds no tip memory (its run did not find tips, or an older fibril wrote it), so this run \
             cannot continue a tip trace; resume without --tips-every-ms",
            r.path.display()
        ),
        Some(found) if found != expected => bail!(
            "{} took its last tip sample at step {found}, but --tips-every-ms {} samples every {every} \
             steps, the last before the checkpoint's step {step} at {expected}; pass the --tips-every-ms \
             the run was started with",
            r.path.display(),
            short(every as f64 * dt_ms)
        ),
        Some(_) => Ok(()),
    }
}

/// The most bytes of a trace (`ecg.csv`, `tips.csv`, `filaments.csv`) a
/// resumed run reads: a million samples of a few dozen electrodes, or of
/// a thousand filament points.
const MAX_TRACE_BYTES: u64 = 1 << 30;

/// The text of a trace a resumed run continues, within [`MAX_TRACE_BYTES`].
fn read_trace(path: &Path) -> std::io::Result<String> {
    let bytes = fibril_host::io::bounded::read(path, MAX_TRACE_BYTES, "a trace fibril wrote")?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The tip trace a resumed run continues: the samples up to its
/// checkpoint's time in the `tips.csv` or `filaments.csv` beside the
/// checkpoint (written before it).
pub fn resumed_singularities(
    checkpoint: &Path,
    recorder: &mut SingularityRecorder,
    until_ms: f64,
) -> anyhow::Result<()> {
    let dir = checkpoint.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let path = dir.join(recorder.file_name());
    let text = read_trace(&path).with_context(|| {
        format!(
            "the tip trace goes on from {}, which cannot be read; resume with the output directory \
             the checkpoint was written in, or without --tips-every-ms",
            path.display()
        )
    })?;
    recorder.continue_from_csv(&text, until_ms).map_err(|line| {
        anyhow::anyhow!(
            "{} is not a trace fibril wrote (line {line}); resume with the output directory the \
             checkpoint was written in, or without --tips-every-ms",
            path.display()
        )
    })
}

/// The trace a resumed run continues: the samples up to its checkpoint's
/// time in the `ecg.csv` beside the checkpoint (written before it).
pub fn resumed_trace(
    checkpoint: &Path,
    electrodes: &[Electrode],
    until_ms: f64,
    units: UnitTags,
) -> anyhow::Result<EcgTrace> {
    let dir = checkpoint.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let path = dir.join(fibril_host::events::ecg::ECG_FILE);
    let text = read_trace(&path).with_context(|| {
        format!(
            "the pseudo-ECG goes on from {}, which cannot be read; resume with the output directory \
             the checkpoint was written in, or without --electrode",
            path.display()
        )
    })?;
    EcgTrace::from_csv(electrodes, &text, until_ms, units).ok_or_else(|| {
        anyhow::anyhow!(
            "{} is not the trace of these electrodes ({}); resume with the same electrodes",
            path.display(),
            electrodes.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", ")
        )
    })
}

/// The maps of a recording, in words.
pub fn describe(r: &Recording) -> String {
    let maps = if r.down.is_some() { "activation, repolarisation and APD maps" } else { "an activation map" };
    let beats = r.beats.map_or(String::new(), |b| format!(" of the last {b} beats"));
    let down = r.down.map_or(String::new(), |d| format!(", repolarisation threshold {d}"));
    format!("{maps}{beats} (threshold {}{down})", r.up)
}

/// The options that ask for the maps of `r`.
fn options_for(r: &Recording) -> String {
    let mut o = format!("--activation-map --activation-threshold {}", r.up);
    if let Some(d) = r.down {
        o += &format!(" --apd-map --repolarisation-threshold {d}");
    }
    if let Some(b) = r.beats {
        o += &format!(" --beats {b}");
    }
    o
}

/// Reads the checkpoint and refuses one that is damaged or that belongs to
/// another run, before any work starts.
pub fn check_resume(
    path: &Path,
    domain: &Domain,
    precision: Precision,
    total_steps: u64,
    recording: Option<Recording>,
) -> anyhow::Result<Resume> {
    let bytes = checkpoint::read_bytes(path)?;
    let header = checkpoint::decode_header(path, &bytes)?;
    if header.precision != precision {
        bail!(
            "{} does not belong to this run: precision is {} in the checkpoint but {precision} here; \
             pass --precision {}",
            path.display(),
            header.precision,
            header.precision
        );
    }
    header.check_matches(path, domain)?;
    if header.step >= total_steps {
        bail!(
            "{} is at step {} (t = {} ms), and this run ends at step {total_steps}; \
             give a longer --duration-ms or --steps (they count from the start of the original run)",
            path.display(),
            header.step,
            short(header.t_ms)
        );
    }
    if let Some(wanted) = recording {
        match header.recording {
            None => bail!(
                "{} holds no activation map, so this run cannot continue one; \
                 drop the map options, or start the run again with them",
                path.display()
            ),
            Some(saved) if saved != wanted => bail!(
                "{} holds {}, this run asks for {}; pass {} (or none of the map options)",
                path.display(),
                describe(&saved),
                describe(&wanted),
                options_for(&saved)
            ),
            Some(_) => {}
        }
    }
    Ok(Resume { path: path.to_path_buf(), bytes, header })
}

//! Reading a whole checkpoint: the file's bytes, bounded by the length its
//! header announces, and the state, maps and phase memory of a run,
//! refused when the model's variables are not those stored.

use std::io;
use std::path::Path;

use super::format::{
    Checkpoint, CheckpointError, FORMAT_VERSION, HEADER_BYTES, MAGIC, PhaseSample, V1_HEADER_BYTES,
};
use super::header::decode_header;
use crate::events::recording::Maps;
use crate::models;
use crate::scalar::Scalar;
use crate::state::State;

fn values<T: Scalar>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(T::BYTES)
        .map(|c| {
            if T::BYTES == 4 {
                T::from_f64(f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64)
            } else {
                T::from_f64(f64::from_le_bytes(c.try_into().expect("8 bytes")))
            }
        })
        .collect()
}

/// Reads a checkpoint file's bytes: the fixed header first, whose magic is
/// checked before anything else is read, then exactly the length the
/// header announces (header, model section and payload), refused before
/// reading when the file's length differs. A path to anything else (a
/// device, a sparse file of gigabytes) is refused after a few bytes, not
/// read into memory whole.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, CheckpointError> {
    let io_error = |source| CheckpointError::Io { path: path.to_path_buf(), source };
    let mut input = crate::io::bounded::open(path).map_err(io_error)?;
    // Version 1's header is the longer one.
    let mut bytes = Vec::with_capacity(V1_HEADER_BYTES);
    input.read_prefix(&mut bytes, V1_HEADER_BYTES).map_err(io_error)?;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(CheckpointError::NotACheckpoint { path: path.to_path_buf() });
    }
    // A header cut short, or of a version this fibril does not read:
    // `decode_header` says which.
    let Some(expected) = announced_length(&bytes) else { return Ok(bytes) };
    let follow = |found: u64| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        why: format!("{} bytes follow the {expected} its header announces", found - expected),
    };
    match input.known_len() {
        Some(found) if found < expected => {
            return Err(CheckpointError::Truncated { path: path.to_path_buf(), expected, found });
        }
        Some(found) if found > expected => return Err(follow(found)),
        _ if bytes.len() as u64 > expected => return Err(follow(bytes.len() as u64)),
        _ => {}
    }
    match input.read_rest(&mut bytes, expected, "this checkpoint") {
        Ok(()) => Ok(bytes),
        // A device or pipe that reads on past the announced length.
        Err(e) if e.kind() == io::ErrorKind::FileTooLarge => Err(CheckpointError::Corrupt {
            path: path.to_path_buf(),
            why: format!("more bytes follow the {expected} its header announces"),
        }),
        Err(e) => Err(io_error(e)),
    }
}

/// The length of the file a checkpoint header announces (header, model
/// section and payload), read from its first bytes `head`; `None` when
/// they are too few or of an unknown version.
fn announced_length(head: &[u8]) -> Option<u64> {
    let word = |at: usize, n: usize| -> Option<u64> {
        let b = head.get(at..at + n)?;
        Some(b.iter().rev().fold(0u64, |x, &byte| (x << 8) | u64::from(byte)))
    };
    match word(8, 4)? {
        // The payload's length at 128 (see decode_header_v1).
        1 => (V1_HEADER_BYTES as u64).checked_add(word(128, 8)?),
        // The model section's length at 60, the payload's at 112.
        v if (2..=u64::from(FORMAT_VERSION)).contains(&v) => {
            (HEADER_BYTES as u64).checked_add(word(60, 4)?)?.checked_add(word(112, 8)?)
        }
        _ => None,
    }
}

/// Reads and verifies a checkpoint written in precision `T`.
pub fn read<T: Scalar>(path: &Path) -> Result<Checkpoint<T>, CheckpointError> {
    decode(path, &read_bytes(path)?)
}

/// Verifies and parses checkpoint bytes written in precision `T`; `path`
/// only names the file in errors.
pub fn decode<T: Scalar>(path: &Path, bytes: &[u8]) -> Result<Checkpoint<T>, CheckpointError> {
    let header = decode_header(path, bytes)?;
    if header.precision != T::PRECISION {
        return Err(CheckpointError::Mismatch {
            path: path.to_path_buf(),
            field: "precision".into(),
            in_file: header.precision.to_string(),
            in_run: T::PRECISION.to_string(),
            fix: format!("pass --precision {}", header.precision),
        });
    }
    let model = models::find(&header.model).ok_or_else(|| CheckpointError::UnknownModel {
        path: path.to_path_buf(),
        model: header.model.clone(),
        known: models::names(),
    })?;
    let wanted: Vec<&str> = model.variables.iter().map(|v| v.name).collect();
    if header.variables != wanted {
        return Err(CheckpointError::OtherVariables {
            path: path.to_path_buf(),
            model: model.name,
            stored: header.variables.clone(),
            now: wanted,
        });
    }
    let cells = header.dims.cells();
    let n = cells * T::BYTES;
    let payload = &bytes[header.payload_at..];
    let vars = (0..model.variables.len()).map(|k| values::<T>(&payload[k * n..(k + 1) * n])).collect();
    let state = State::from_vecs(model, header.dims, vars);
    let after = header.stored_variables * n;
    // The lengths were checked against the header (`payload_needed`).
    let _ = header.has_previous;
    let maps = header.recording.map(|recording| {
        let words = |at: usize, n: usize| {
            payload[at..at + 4 * n].chunks_exact(4).map(|c| c.try_into().expect("4 bytes"))
        };
        let field = recording.slots() * cells;
        let mut at = after;
        let activation: Vec<f32> = words(at, field).map(f32::from_le_bytes).collect();
        at += 4 * field;
        let repolarisation = recording.down.map(|_| {
            let r: Vec<f32> = words(at, field).map(f32::from_le_bytes).collect();
            at += 4 * field;
            r
        });
        let count = recording.beats.map(|_| words(at, cells).map(u32::from_le_bytes).collect());
        Maps { recording, dims: header.dims, activation, repolarisation, count }
    });
    let phase = header.phase_step.map(|step| {
        let at = payload.len() - n;
        PhaseSample { step, field: values::<T>(&payload[at..]).into_iter().map(|v| v.to_f64()).collect() }
    });
    Ok(Checkpoint { header, state, maps, phase })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::encode::encode;
    use crate::checkpoint::format::Progress;
    use crate::checkpoint::header::reseal;
    use crate::checkpoint::testing::{domain, state};

    #[test]
    fn a_checkpoint_of_other_variables_is_refused_by_name() {
        // A Karma checkpoint whose second variable is called "w" (as a
        // fibril whose Karma kept other variables would have written it).
        let d = domain(3);
        let mut bytes = encode(&d, Progress { step: 1, snapshots: 0, run: None }, &state(&d), None, None);
        let at = bytes.windows(3).position(|w| w == [1, 0, b'v']).expect("the name v, length-prefixed");
        bytes[at + 2] = b'w';
        reseal(&mut bytes);
        let e = decode::<f32>(Path::new("old"), &bytes).unwrap_err().to_string();
        assert!(
            e.contains(r#"stores the variables ["U", "w"] of model karma, which now has ["U", "v"]"#)
                && e.contains("start the run again"),
            "{e}"
        );
    }
}

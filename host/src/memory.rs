//! Memory estimates, made before any allocation so an impossible run is
//! refused with a number instead of failing half-way. [`estimate`] is the
//! one place that knows what a run allocates; the pre-run check and
//! `fibril info` both print its figures.

use kernels_gpu::GridDims;

use crate::events::recording::Recording;
use crate::kernel_config::KernelConfig;
use crate::multi::error::MultiError;
use crate::multi::plan::{check_splittable, halo_depth};
use crate::scalar::Precision;
use crate::solver::SolverError;

/// Where a run's work goes, for an estimate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    Cpu,
    /// Sub-domain i on the GPU with ordinal `ordinals[i]` (one GPU: one
    /// entry; an ordinal may repeat, its sub-domains then share it).
    Gpus(Vec<usize>),
    /// Sub-domain `rank` of a `world`-process run, on GPU `ordinal`.
    Rank {
        rank: usize,
        world: usize,
        ordinal: usize,
    },
}

/// What a run needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Host memory at the peak (initial state, solver or copies, output).
    pub host_bytes: u64,
    /// Device memory per GPU ordinal, summed over its sub-domains.
    pub gpu_bytes: Vec<(usize, u64)>,
}

/// The memory of a run of a model with `variables` variables on `dims`
/// (the grid as given), placed as `placement`, with or without an
/// activation map. Also checks that `kernel` can run each sub-domain.
///
/// What does not grow with the grid is left out: the program itself, and
/// the mid-plane picture of a `png` output, about 1.1 MiB at most for grids
/// up to 256 cells on a side (its panels are scaled to at most 256
/// pixels; `io::image`), growing with the square of the side beyond that
/// (a 1024^3 grid's picture is some 20 MiB beside its 4 GiB state).
pub fn estimate(
    model: &str,
    dims: GridDims,
    variables: usize,
    precision: Precision,
    kernel: KernelConfig,
    placement: &Placement,
    recording: Option<&Recording>,
) -> Result<Estimate, MultiError> {
    let b = precision.bytes() as u64;
    // Saturating: a grid too large to count needs more than any memory.
    let cells = dims.checked_cells().unwrap_or(u64::MAX);
    let state = (variables as u64).saturating_mul(cells).saturating_mul(b);
    let locals = variables - 1;
    let device = |dims: GridDims| -> Result<u64, MultiError> {
        kernel.check(model, dims).map_err(SolverError::from)?;
        Ok(kernel.device_bytes(dims, locals, precision).map_err(SolverError::from)?)
    };
    let mut gpu_bytes: Vec<(usize, u64)> = Vec::new();
    let mut add = |ordinal: usize, bytes: u64| match gpu_bytes.iter_mut().find(|(o, _)| *o == ordinal) {
        Some((_, total)) => *total = total.saturating_add(bytes),
        None => gpu_bytes.push((ordinal, bytes)),
    };
    // Output, whatever the placement: one copy of the state downloaded (or
    // gathered) from the solver, and beside it the bytes of the file being
    // written, the largest of which is a checkpoint (the state again, and
    // the maps); at the end, the maps downloaded, the ordered fields
    // written (activation, repolarisation, APD) and the file of them all.
    let maps = recording.map_or(MapBytes::default(), |r| map_bytes(r, cells));
    let output = state.saturating_mul(2).saturating_add(maps.kept.saturating_mul(2)).max(maps.written);
    // GPU downloads go through page-locked staging as large as the larger
    // of U and the locals.
    let staging = (locals.max(1) as u64).saturating_mul(cells).saturating_mul(b);
    // Behind a GPU run each file of a snapshot (one per variable, the .vti,
    // the index) is written on a thread of its own through a 1 MiB buffer
    // (`io::atomic`).
    let writer_buffers = (variables as u64 + 2) << 20;
    let resident = match placement {
        // The solver's arrays: U, U_next, the locals and the maps. (The
        // initial state is dropped once the solver holds it, before any
        // output.)
        Placement::Cpu => {
            (variables as u64 + 1).saturating_mul(cells).saturating_mul(b).saturating_add(maps.kept)
        }
        // On the GPU snapshots are written behind the computation
        // (`io::queue`): one being written and one queued beside the output's
        // copies. (The initial state while it is uploaded is below that.)
        Placement::Gpus(ordinals) if ordinals.len() == 1 => {
            add(ordinals[0], device(dims)?.saturating_add(maps.kept));
            state.saturating_mul(2).saturating_add(staging).saturating_add(writer_buffers)
        }
        Placement::Gpus(ordinals) => {
            let split = check_splittable(dims, ordinals.len(), halo_depth(&kernel))?;
            for (i, &ordinal) in ordinals.iter().enumerate() {
                let local = split.local_dims(dims, i);
                let local_maps = recording.map_or(0, |r| map_bytes(r, local.cells() as u64).kept);
                add(ordinal, device(local)?.saturating_add(local_maps));
            }
            // The snapshot queue, the staging and the writers' buffers, as on
            // one GPU (the initial state and its scattered slabs while they
            // are uploaded stay below it).
            state.saturating_mul(2).saturating_add(staging).saturating_add(writer_buffers)
        }
        Placement::Rank { rank, world, ordinal } => {
            let split = check_splittable(dims, *world, halo_depth(&kernel))?;
            // The slab, plus the global state (or maps) of an all-gather,
            // staged on the GPU.
            let local = split.local_dims(dims, *rank);
            let local_maps = recording.map_or(0, |r| map_bytes(r, local.cells() as u64).kept);
            let gathered = state.max(maps.kept.saturating_mul(2));
            add(*ordinal, device(local)?.saturating_add(local_maps).saturating_add(gathered));
            // The snapshot queue (rank 0 writes), the staging and the
            // writers' buffers.
            state.saturating_mul(2).saturating_add(staging).saturating_add(writer_buffers)
        }
    };
    let host_bytes = resident.saturating_add(output);
    Ok(Estimate { host_bytes, gpu_bytes })
}

/// Bytes of the maps of `cells` cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapBytes {
    /// What a solver keeps: activation and repolarisation times (f32) per
    /// beat slot, the beat counts (u32).
    pub kept: u64,
    /// The peak while they are written: the maps, the ordered fields
    /// (activation, repolarisation, APD) and the `.vti` holding them all.
    pub written: u64,
}

pub fn map_bytes(recording: &Recording, cells: u64) -> MapBytes {
    let field = cells.saturating_mul(4).saturating_mul(recording.slots() as u64);
    let rep = u64::from(recording.down.is_some());
    let count = if recording.beats.is_some() { cells.saturating_mul(4) } else { 0 };
    let kept = field.saturating_mul(1 + rep).saturating_add(count);
    let ordered = field.saturating_mul(1 + 2 * rep);
    MapBytes { kept, written: kept.saturating_add(ordered.saturating_mul(2)) }
}

/// `MemAvailable` of /proc/meminfo, where the system reports it.
pub fn available_host_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// 1536 MiB -> "1.50 GiB".
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{value:.2} {}", UNITS[unit]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_meminfo() {
        let text = "MemTotal:  1000 kB\nMemFree: 10 kB\nMemAvailable:     2048 kB\n";
        assert_eq!(parse_mem_available(text), Some(2048 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn estimates_follow_the_model_and_sum_parts_on_one_gpu() {
        use crate::backend::gpu::{BlockSize, KernelKind};
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        let d = GridDims::new(64, 64, 64);
        let cells = d.cells() as u64;
        let one =
            |vars, placement| estimate("karma", d, vars, Precision::F32, naive, &placement, None).unwrap();
        // Karma on one GPU: U, U_next and v (paper eq. 6 with mesh = ds).
        assert_eq!(one(2, Placement::Gpus(vec![0])).gpu_bytes, vec![(0, 3 * 4 * cells)]);
        // The CPU: U, U_next, v, plus the initial state and one copy (5 fields for Karma).
        // Solver (U, U_next, v), a downloaded copy and a checkpoint's bytes.
        assert_eq!(one(2, Placement::Cpu).host_bytes, 7 * 4 * cells);
        // The GPU: a downloaded copy and a checkpoint's bytes, the snapshot
        // queue's two states (being written, queued), the staging of a field
        // and a 1 MiB buffer for each of the 2 + 2 files a snapshot writes at once.
        assert_eq!(one(2, Placement::Gpus(vec![0])).host_bytes, 9 * 4 * cells + (4 << 20));
        // A four-variable model needs two more fields on the GPU.
        assert_eq!(one(4, Placement::Gpus(vec![0])).gpu_bytes, vec![(0, 5 * 4 * cells)]);
        // Two sub-domains on the same GPU count together.
        let shared = one(2, Placement::Gpus(vec![0, 0]));
        assert_eq!(shared.gpu_bytes.len(), 1);
        assert!(shared.gpu_bytes[0].1 > 3 * 4 * cells, "both slabs and their halos");
        let apart = one(2, Placement::Gpus(vec![0, 1]));
        assert_eq!(apart.gpu_bytes.len(), 2);
        assert_eq!(apart.gpu_bytes[0].1 + apart.gpu_bytes[1].1, shared.gpu_bytes[0].1);
        // A sheet cannot be split.
        let sheet = estimate(
            "karma",
            GridDims::new(64, 64, 1),
            2,
            Precision::F32,
            naive,
            &Placement::Gpus(vec![0, 1]),
            None,
        );
        assert!(matches!(sheet, Err(MultiError::NotThreeDimensional { .. })));
    }

    #[test]
    fn formats_bytes() {
        assert_eq!(format_bytes(12), "12 B");
        assert_eq!(format_bytes(1536 * 1024 * 1024), "1.50 GiB");
    }
}

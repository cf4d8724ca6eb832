//! Which slices each sub-domain owns, and moving fields in and out.

use std::ops::Range;

use kernels_gpu::{GridDims, ZWindow};
use thiserror::Error;

use crate::scalar::Scalar;
use crate::state::State;

/// Fewest owned slices per sub-domain with one-slice halos: the bottom
/// and top boundary slices must differ, and the mirror at a global end
/// reads local slice 2. With halos `depth` slices deep a sub-domain owns
/// `depth + 1` at least ([`ZSplit::min_slices`]).
pub const MIN_SLICES_PER_PART: u32 = 2;

#[derive(Debug, Error, PartialEq)]
pub enum SplitError {
    #[error(
        "cannot split nz = {nz} over {parts} sub-domains: each needs at least {min} z-slices; use at most {max} GPUs or a larger nz"
    )]
    TooFewSlices { nz: u32, parts: usize, min: u32, max: u32 },
    #[error("a split needs at least one sub-domain")]
    NoParts,
    #[error(
        "cannot split the tissue over {parts} sub-domains: only {slices} z-slices hold tissue cells and each \
         sub-domain needs one at least; use at most {slices} GPUs"
    )]
    TooFewTissueSlices { parts: usize, slices: usize },
}

/// A split of the z-slices `0..nz` into contiguous owned runs, each stored
/// between halos `depth` slices deep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZSplit {
    /// Part i owns global slices `starts[i]..starts[i + 1]`.
    starts: Vec<u32>,
    /// Halo slices on each side of a part's owned ones: 1 for one step
    /// between exchanges, k for passes of k steps (the blocked kernel
    /// recomputes the halo's cells instead of exchanging every step).
    depth: u32,
}

/// A run of a part's owned slices that is also a halo: slices `first..
/// first + count` of its source part land at slices `to + step (s -
/// first)` of part `dest` (`step` -1 for a mirror halo).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForwardedRun {
    pub dest: usize,
    pub first: u32,
    pub count: u32,
    pub to: u32,
    pub step: i32,
}

impl ZSplit {
    /// Parts as equal as possible; the first `nz % parts` get one slice more.
    pub fn balanced(nz: u32, parts: usize) -> Result<Self, SplitError> {
        if parts == 0 {
            return Err(SplitError::NoParts);
        }
        Self::balanced_with_depth(nz, parts, 1)
    }

    /// Parts as equal as possible with halos `depth` slices deep (each
    /// part then owns [`ZSplit::min_slices`] at least).
    pub fn balanced_with_depth(nz: u32, parts: usize, depth: u32) -> Result<Self, SplitError> {
        if parts == 0 {
            return Err(SplitError::NoParts);
        }
        let min = Self::min_slices(depth);
        if nz < min * parts as u32 {
            return Err(SplitError::TooFewSlices { nz, parts, min, max: nz / min });
        }
        let (base, extra) = (nz / parts as u32, nz % parts as u32);
        let mut starts = vec![0];
        for i in 0..parts as u32 {
            starts.push(starts[i as usize] + base + u32::from(i < extra));
        }
        Ok(Self { starts, depth })
    }

    /// Fewest slices a part owns with halos `depth` deep: a neighbour's
    /// halo is a run of its owned slices, and the mirror at a global end
    /// reads `depth` owned slices beyond the boundary one.
    pub const fn min_slices(depth: u32) -> u32 {
        if depth + 1 > MIN_SLICES_PER_PART { depth + 1 } else { MIN_SLICES_PER_PART }
    }

    /// Halo slices on each side of a part.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Parts that own about the same number of cells, where slice z holds
    /// `cells[z]` of them (a tissue's cells, which need not fill the box).
    /// Cut k falls at the slice boundary whose running total is nearest to
    /// k / parts of all cells, so each part is within one slice's cells of
    /// the mean (the cuts move at most half a slice each way). Every part
    /// owns at least one slice holding a cell: the one-slice halo of a
    /// 19-point stencil then always comes from the adjacent part, and no
    /// part is idle.
    pub fn from_cell_counts(cells: &[u64], parts: usize) -> Result<Self, SplitError> {
        if parts == 0 {
            return Err(SplitError::NoParts);
        }
        let slices = cells.iter().filter(|&&c| c > 0).count();
        if slices < parts {
            return Err(SplitError::TooFewTissueSlices { parts, slices });
        }
        // below[z] = cells of slices 0..z; nonempty[z] = slices of 0..z holding cells.
        let mut below = vec![0u64];
        let mut nonempty = vec![0usize];
        for &c in cells {
            below.push(below.last().unwrap_or(&0) + c);
            nonempty.push(nonempty.last().unwrap_or(&0) + usize::from(c > 0));
        }
        let (nz, total) = (cells.len(), below[cells.len()]);
        let mut starts = vec![0u32];
        for k in 1..parts {
            let prev = *starts.last().unwrap_or(&0) as usize;
            // The part before the cut holds a cell; the parts after it have
            // a slice with cells each.
            let candidates =
                (prev + 1..nz).filter(|&s| nonempty[s] > nonempty[prev] && slices - nonempty[s] >= parts - k);
            let target = total as f64 * k as f64 / parts as f64;
            let cut = candidates
                .min_by(|&a, &b| {
                    (below[a] as f64 - target).abs().total_cmp(&(below[b] as f64 - target).abs())
                })
                .expect("enough slices with cells remain (checked above)");
            starts.push(cut as u32);
        }
        starts.push(nz as u32);
        Ok(Self { starts, depth: 1 })
    }

    pub fn parts(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn nz(&self) -> u32 {
        *self.starts.last().expect("at least one part")
    }

    /// Global slices part `i` owns.
    pub fn owned(&self, i: usize) -> Range<u32> {
        self.starts[i]..self.starts[i + 1]
    }

    /// Owned slices of part `i`.
    pub fn owned_len(&self, i: usize) -> u32 {
        self.starts[i + 1] - self.starts[i]
    }

    /// Dimensions of part `i`'s local arrays, halos included.
    pub fn local_dims(&self, global: GridDims, i: usize) -> GridDims {
        GridDims::new(global.nx, global.ny, self.owned_len(i) + 2 * self.depth)
    }

    /// The local window of owned slices, `depth..depth + n`.
    pub fn owned_window(&self, i: usize) -> ZWindow {
        ZWindow::new(self.depth, self.owned_len(i) + self.depth)
    }

    /// The local halo slices of part `i`: below, then above.
    pub fn halo_slices(&self, i: usize) -> [core::ops::Range<u32>; 2] {
        let (d, n) = (self.depth, self.owned_len(i));
        [0..d, n + d..n + 2 * d]
    }

    /// Where part `i`'s halo slice `local` (one of [`ZSplit::halo_slices`])
    /// comes from: (source part, source local slice), an owned slice of
    /// the neighbour, or at a global end of the part itself (mirror rule,
    /// as often as needed).
    pub fn halo_source(&self, i: usize, local: u32) -> (usize, u32) {
        let g = self.global_slice(i, local);
        let part = self.starts.partition_point(|&s| s <= g) - 1;
        (part, g - self.starts[part] + self.depth)
    }

    /// Where part `i`'s halo slices come from with one-slice halos:
    /// `(below, above)`, each as (source part, source local slice). At the
    /// global ends the source is the part itself (mirror rule).
    #[cfg(test)]
    pub fn halo_sources(&self, i: usize) -> [(usize, u32); 2] {
        let [below, above] = self.halo_slices(i);
        [self.halo_source(i, below.start), self.halo_source(i, above.start)]
    }

    /// Global slice held by local slice `local` of part `i`, with the mirror
    /// rule applied to the halos at the global ends.
    pub fn global_slice(&self, i: usize, local: u32) -> u32 {
        let z = self.starts[i] as i32 + local as i32 - self.depth as i32;
        kernels_gpu::blocked::reflect(z, self.nz())
    }

    /// Where part `i`'s local slices lie in the whole grid, as the stimulus
    /// routine takes it (the same rule as [`ZSplit::global_slice`]).
    pub fn placement(&self, i: usize) -> kernels_gpu::events::SlicePlacement {
        kernels_gpu::events::SlicePlacement {
            offset: self.starts[i] as i32 - self.depth as i32,
            global_nz: self.nz(),
        }
    }

    /// Every halo slice of every part as runs that the parts' own passes
    /// can store while they compute them (`kernels_gpu::blocked::forward`):
    /// per source part, the runs of its owned slices that land in a halo
    /// (a neighbour's, in order, or its own mirror halo, reversed). `None`
    /// where a halo slice does not come from an owned slice of its source
    /// (a part thinner than the halo whose mirror reaches a halo) or a
    /// part would send more than `most` runs: such a split exchanges by
    /// copies.
    pub fn forwarded_runs(&self, most: usize) -> Option<Vec<Vec<ForwardedRun>>> {
        let d = self.depth;
        // (source part, destination part, source slice, destination slice)
        let mut all = Vec::new();
        for dest in 0..self.parts() {
            for z in self.halo_slices(dest).into_iter().flatten() {
                let (src, s) = self.halo_source(dest, z);
                if s < d || s >= self.owned_len(src) + d {
                    return None;
                }
                all.push((src, dest, s, z));
            }
        }
        all.sort_unstable();
        let mut runs: Vec<Vec<ForwardedRun>> = vec![Vec::new(); self.parts()];
        for (src, dest, s, z) in all {
            let extends = runs[src].last_mut().filter(|r| {
                let next = r.first + r.count;
                let step = if r.count == 1 { z as i64 - r.to as i64 } else { r.step as i64 };
                r.dest == dest
                    && s == next
                    && step.abs() == 1
                    && z as i64 == r.to as i64 + step * r.count as i64
            });
            match extends {
                Some(r) => {
                    r.step = (z as i64 - r.to as i64).signum() as i32;
                    r.count += 1;
                }
                None => runs[src].push(ForwardedRun { dest, first: s, count: 1, to: z, step: 1 }),
            }
        }
        runs.iter().all(|r| r.len() <= most).then_some(runs)
    }

    /// Part `i`'s local state (halos filled) cut from the global state.
    /// Every variable is scattered; only variable 0 is exchanged later
    /// (the halos' local variables are never read).
    pub fn scatter<T: Scalar>(&self, global: &State<T>, i: usize) -> State<T> {
        let dims = self.local_dims(global.dims(), i);
        State::from_fn(global.model(), dims, |x, y, z, cell| {
            let g = self.global_slice(i, z) as usize;
            for (k, value) in cell.iter_mut().enumerate() {
                *value = global.var(k)[[g, y as usize, x as usize]];
            }
        })
    }

    /// The global state from every part's owned slices.
    pub fn gather<T: Scalar>(&self, parts: &[State<T>]) -> State<T> {
        assert_eq!(parts.len(), self.parts(), "one state per part");
        let d = parts[0].dims();
        let global = GridDims::new(d.nx, d.ny, self.nz());
        let model = parts[0].model();
        let vars = (0..parts[0].len())
            .map(|k| {
                let mut var = Vec::with_capacity(global.cells());
                for (i, part) in parts.iter().enumerate() {
                    let n = d.slice_cells();
                    let from = self.depth as usize;
                    var.extend_from_slice(&part.slice(k)[n * from..n * (self.owned_len(i) as usize + from)]);
                }
                var
            })
            .collect();
        State::from_vecs(model, global, vars)
    }

    /// Values per part in the equal-sized chunks of [`ZSplit::pack_owned`]:
    /// every variable of the largest part's owned slices.
    pub fn packed_chunk_len(&self, slice_cells: usize, variables: usize) -> usize {
        let most = (0..self.parts()).map(|i| self.owned_len(i)).max().unwrap_or(0) as usize;
        variables * most * slice_cells
    }

    /// Part `i`'s owned slices of each variable in turn, zero-padded to
    /// [`ZSplit::packed_chunk_len`] values. A multi-process run gathers
    /// these chunks from every rank with one all-gather, which needs
    /// chunks of equal size even when nz does not divide evenly.
    pub fn pack_owned<T: Scalar>(&self, local: &State<T>, i: usize) -> Vec<T> {
        let n = local.dims().slice_cells();
        let from = self.depth as usize;
        let owned = n * from..n * (self.owned_len(i) as usize + from);
        let len = self.packed_chunk_len(n, local.len());
        let mut chunk = Vec::with_capacity(len);
        for k in 0..local.len() {
            chunk.extend_from_slice(&local.slice(k)[owned.clone()]);
        }
        chunk.resize(len, T::from_f64(0.0));
        chunk
    }

    /// The global `nx` x `ny` x nz state of `model` from the chunks of every
    /// part, concatenated in part order.
    pub fn unpack_gathered<T: Scalar>(
        &self,
        model: &'static kernels_gpu::ModelInfo,
        nx: u32,
        ny: u32,
        packed: &[T],
    ) -> State<T> {
        let global = GridDims::new(nx, ny, self.nz());
        let n = global.slice_cells();
        let variables = model.variables.len();
        let chunk = self.packed_chunk_len(n, variables);
        assert_eq!(packed.len(), chunk * self.parts(), "one chunk per part");
        let mut vars: Vec<Vec<T>> = (0..variables).map(|_| Vec::with_capacity(global.cells())).collect();
        for (i, c) in packed.chunks_exact(chunk).enumerate() {
            let len = n * self.owned_len(i) as usize;
            for (k, var) in vars.iter_mut().enumerate() {
                var.extend_from_slice(&c[k * len..(k + 1) * len]);
            }
        }
        State::from_vecs(model, global, vars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_split_covers_every_slice_once() {
        let s = ZSplit::balanced(11, 3).unwrap();
        assert_eq!((s.owned(0), s.owned(1), s.owned(2)), (0..4, 4..8, 8..11));
        assert_eq!(s.local_dims(GridDims::new(5, 6, 11), 2), GridDims::new(5, 6, 5));
        assert_eq!(s.owned_window(1), ZWindow::new(1, 5));
        assert_eq!(ZSplit::balanced(5, 3), Err(SplitError::TooFewSlices { nz: 5, parts: 3, min: 2, max: 2 }));
        assert!(ZSplit::balanced(6, 3).is_ok());
    }

    #[test]
    fn forwarded_runs_cover_every_halo_slice_with_its_source() {
        for (nz, parts, depth) in [(256, 2, 4), (10, 3, 1), (40, 3, 3), (10, 2, 4)] {
            let s = ZSplit::balanced_with_depth(nz, parts, depth).unwrap();
            let runs = s.forwarded_runs(4).expect("parts at least as thick as the halo");
            let mut covered = 0;
            for (src, runs) in runs.iter().enumerate() {
                for r in runs {
                    for k in 0..r.count {
                        let z = (r.to as i64 + r.step as i64 * k as i64) as u32;
                        assert_eq!(s.halo_source(r.dest, z), (src, r.first + k), "{nz} {parts} {depth}");
                        covered += 1;
                    }
                }
            }
            assert_eq!(covered, parts * 2 * depth as usize);
        }
        // Two parts of four-slice halos: a run to the neighbour, one into the mirror.
        let s = ZSplit::balanced_with_depth(256, 2, 4).unwrap();
        let runs = s.forwarded_runs(4).unwrap();
        assert_eq!(
            runs[0],
            [
                ForwardedRun { dest: 0, first: 5, count: 4, to: 3, step: -1 },
                ForwardedRun { dest: 1, first: 128, count: 4, to: 0, step: 1 },
            ]
        );
        assert_eq!(runs[1][0], ForwardedRun { dest: 0, first: 4, count: 4, to: 132, step: 1 });
        assert_eq!(s.forwarded_runs(1), None, "two runs a part do not fit in one");
    }

    #[test]
    fn halos_come_from_neighbours_or_the_mirror() {
        let s = ZSplit::balanced(10, 3).unwrap(); // 4, 3, 3 slices
        assert_eq!(s.halo_sources(0), [(0, 2), (1, 1)]);
        assert_eq!(s.halo_sources(1), [(0, 4), (2, 1)]);
        assert_eq!(s.halo_sources(2), [(1, 3), (2, 2)]);
        // Global slice of each halo agrees with its source.
        for i in 0..3 {
            let n = s.owned_len(i);
            for (halo, (src, src_local)) in [0, n + 1].into_iter().zip(s.halo_sources(i)) {
                assert_eq!(s.global_slice(i, halo), s.global_slice(src, src_local), "part {i} halo {halo}");
            }
        }
        assert_eq!(s.global_slice(0, 0), 1, "U[-1] = U[1]");
        assert_eq!(s.global_slice(2, 4), 8, "U[nz] = U[nz - 2]");
    }

    #[test]
    fn deep_halos_come_from_runs_of_the_neighbours_and_the_mirror() {
        let s = ZSplit::balanced_with_depth(13, 3, 3).unwrap(); // 5, 4, 4 slices
        assert_eq!(s.depth(), 3);
        assert_eq!(s.local_dims(GridDims::new(2, 2, 13), 1), GridDims::new(2, 2, 10));
        assert_eq!(s.owned_window(0), ZWindow::new(3, 8));
        assert_eq!(s.halo_slices(1), [0..3, 7..10]);
        // Part 1's halos: part 0's top three owned slices, part 2's bottom three.
        assert_eq!((0..3).map(|z| s.halo_source(1, z)).collect::<Vec<_>>(), [(0, 5), (0, 6), (0, 7)]);
        assert_eq!((7..10).map(|z| s.halo_source(1, z)).collect::<Vec<_>>(), [(2, 3), (2, 4), (2, 5)]);
        // The ends mirror: global -3, -2, -1 are 3, 2, 1; 13, 14, 15 are 11, 10, 9.
        assert_eq!((0..3).map(|z| s.halo_source(0, z)).collect::<Vec<_>>(), [(0, 6), (0, 5), (0, 4)]);
        assert_eq!((7..10).map(|z| s.halo_source(2, z)).collect::<Vec<_>>(), [(2, 5), (2, 4), (2, 3)]);
        for i in 0..3 {
            for z in s.halo_slices(i).into_iter().flatten() {
                let (src, local) = s.halo_source(i, z);
                let w = s.owned_window(src);
                assert!((w.begin..w.end).contains(&local), "part {i} slice {z}");
                assert_eq!(s.global_slice(i, z), s.global_slice(src, local));
            }
        }
        assert_eq!(s.placement(2).offset, 9 - 3);
        let e = ZSplit::balanced_with_depth(11, 3, 3).unwrap_err();
        assert_eq!(e, SplitError::TooFewSlices { nz: 11, parts: 3, min: 4, max: 2 });
        assert!(e.to_string().contains("at least 4 z-slices"), "{e}");
        // Scatter and gather keep the owned slices whatever the depth.
        let f = coordinates::<f64>(GridDims::new(3, 2, 13));
        let parts: Vec<_> = (0..3).map(|i| s.scatter(&f, i)).collect();
        assert_eq!(parts[0].var(0)[[0, 0, 0]], f.var(0)[[3, 0, 0]], "halo slice 0 of part 0 is global 3");
        assert_eq!(s.gather(&parts), f);
        let packed: Vec<f64> = (0..3).flat_map(|i| s.pack_owned(&parts[i], i)).collect();
        assert_eq!(s.unpack_gathered(Karma::INFO, 3, 2, &packed), f);
    }

    /// The cells of each part of a split of `cells`.
    fn part_cells(s: &ZSplit, cells: &[u64]) -> Vec<u64> {
        (0..s.parts()).map(|i| s.owned(i).map(|z| cells[z as usize]).sum()).collect()
    }

    #[test]
    fn cell_count_split_balances_a_shell_within_one_slice() {
        // A thick spherical shell of about 20% of its 48^3 box: few cells
        // in the end slices, many in the middle ones.
        let n = 48i64;
        let cells: Vec<u64> = (0..n)
            .map(|z| {
                let mut c = 0;
                for y in 0..n {
                    for x in 0..n {
                        let r2 = [x, y, z].iter().map(|&a| (a as f64 - 23.5).powi(2)).sum::<f64>();
                        c += u64::from((19.0f64.powi(2)..=23.5f64.powi(2)).contains(&r2));
                    }
                }
                c
            })
            .collect();
        let total: u64 = cells.iter().sum();
        let fraction = total as f64 / (n * n * n) as f64;
        assert!((0.15..0.25).contains(&fraction), "{fraction}");
        let widest = *cells.iter().max().unwrap();
        for parts in [2, 3, 5, 8] {
            let s = ZSplit::from_cell_counts(&cells, parts).unwrap();
            assert_eq!((s.parts(), s.nz()), (parts, n as u32));
            let mean = total as f64 / parts as f64;
            for (i, c) in part_cells(&s, &cells).into_iter().enumerate() {
                assert!(
                    (c as f64 - mean).abs() <= widest as f64,
                    "{parts} parts: part {i} has {c}, mean {mean}"
                );
            }
        }
        // Slices split by count, unlike an equal split of the slices: the
        // middle parts of three own fewer slices than the ends.
        let s = ZSplit::from_cell_counts(&cells, 3).unwrap();
        assert!(s.owned_len(1) < s.owned_len(0) && s.owned_len(1) < s.owned_len(2), "{s:?}");
    }

    #[test]
    fn cell_count_split_gives_every_part_a_slice_with_cells() {
        // Cells in slices 2, 3 and 7 only, one slice far heavier.
        let cells = [0, 0, 5, 1000, 0, 0, 0, 1, 0];
        let s = ZSplit::from_cell_counts(&cells, 3).unwrap();
        assert!(part_cells(&s, &cells).iter().all(|&c| c > 0), "{s:?}");
        assert_eq!(s.nz(), 9);
        let e = ZSplit::from_cell_counts(&cells, 4).unwrap_err();
        assert_eq!(e, SplitError::TooFewTissueSlices { parts: 4, slices: 3 });
        let text = e.to_string();
        assert!(
            text.contains("only 3 z-slices hold tissue") && text.contains("use at most 3 GPUs"),
            "{text}"
        );
        assert_eq!(ZSplit::from_cell_counts(&cells, 0), Err(SplitError::NoParts));
        // One part: everything.
        assert_eq!(ZSplit::from_cell_counts(&cells, 1).unwrap(), ZSplit::balanced(9, 1).unwrap());
    }

    use kernels_gpu::CellModel;
    use kernels_gpu::models::Karma;

    fn coordinates<T: Scalar>(dims: GridDims) -> State<T> {
        State::from_fn(Karma::INFO, dims, |x, y, z, cell| {
            cell[0] = T::from_f64((x + 10 * y + 100 * z) as f64);
            cell[1] = T::from_f64(0.5 + z as f64);
        })
    }

    #[test]
    fn scatter_then_gather_is_the_identity() {
        let dims = GridDims::new(3, 4, 9);
        let f = coordinates::<f64>(dims);
        let s = ZSplit::balanced(9, 4).unwrap();
        let parts: Vec<_> = (0..4).map(|i| s.scatter(&f, i)).collect();
        assert_eq!(s.gather(&parts), f);
    }

    #[test]
    fn packed_chunks_of_uneven_parts_gather_to_the_global_fields() {
        let dims = GridDims::new(3, 2, 11); // parts of 4, 4, 3 slices
        let f = coordinates::<f32>(dims);
        let s = ZSplit::balanced(11, 3).unwrap();
        assert_eq!(s.packed_chunk_len(6, 2), 2 * 4 * 6);
        let packed: Vec<f32> = (0..3).flat_map(|i| s.pack_owned(&s.scatter(&f, i), i)).collect();
        assert_eq!(packed.len(), 3 * 48);
        // The short last part is padded with zeros after its v.
        assert_eq!(&packed[2 * 48 + 36..], &[0.0; 12]);
        assert_eq!(s.unpack_gathered(Karma::INFO, 3, 2, &packed), f);
    }
}

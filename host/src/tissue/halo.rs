//! What crosses between the parts of a split after every step: runs of
//! stored cells of variable 0, from the part that owns them into the
//! halo of a part that reads them. The voxel tissue's z-split and the
//! tetrahedral mesh's split both describe their exchanges this way, so
//! that one piece of code moves them on the CPU and on GPUs.

use std::ops::Range;

/// One halo copy of a step: stored cells `from` of part `src` into part
/// `dst`'s stored cells from `to` on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HaloRun {
    pub src: usize,
    pub from: Range<u32>,
    pub dst: usize,
    pub to: u32,
}

impl HaloRun {
    /// The cells it writes in `dst`.
    pub fn to_range(&self) -> Range<u32> {
        self.to..self.to + self.from.len() as u32
    }
}

/// The parts each part exchanges with, either way (what its step must
/// wait for: their halos for it, and their reading of the halos it
/// overwrites).
pub fn linked_parts(parts: usize, runs: &[HaloRun]) -> Vec<Vec<usize>> {
    let mut linked = vec![Vec::new(); parts];
    for r in runs {
        for (a, b) in [(r.src, r.dst), (r.dst, r.src)] {
            if !linked[a].contains(&b) {
                linked[a].push(b);
            }
        }
    }
    linked
}

/// Copies `runs` between host buffers of variable 0, one per part.
pub fn exchange_on_host<T: Copy>(u: &mut [&mut Vec<T>], runs: &[HaloRun]) {
    for r in runs {
        let values = u[r.src][r.from.start as usize..r.from.end as usize].to_vec();
        let to = r.to_range();
        u[r.dst][to.start as usize..to.end as usize].copy_from_slice(&values);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_linked_both_ways_once() {
        let runs = [
            HaloRun { src: 0, from: 0..2, dst: 1, to: 5 },
            HaloRun { src: 1, from: 3..4, dst: 0, to: 7 },
            HaloRun { src: 2, from: 0..1, dst: 1, to: 6 },
        ];
        assert_eq!(linked_parts(3, &runs), vec![vec![1], vec![0, 2], vec![1]]);
    }

    #[test]
    fn host_exchange_copies_each_run() {
        let (mut a, mut b) = (vec![1, 2, 3, 0], vec![4, 5, 0, 0]);
        let runs =
            [HaloRun { src: 0, from: 1..3, dst: 1, to: 2 }, HaloRun { src: 1, from: 0..1, dst: 0, to: 3 }];
        exchange_on_host(&mut [&mut a, &mut b], &runs);
        assert_eq!((a, b), (vec![1, 2, 3, 4], vec![4, 5, 2, 3]));
    }
}

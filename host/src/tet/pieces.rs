//! The connected pieces of a mesh: elements that share a node belong to
//! one piece. A mesh of several pieces is legal (two ventricles meshed
//! apart, a bath) but is often a mesh tool's slip, and excitation never
//! crosses between pieces, so the user should hear of it.

/// Disjoint sets over node indices (union by size, path halving).
struct Sets {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Sets {
    fn new(n: usize) -> Self {
        Self { parent: (0..n as u32).collect(), size: vec![1; n] }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let up = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = up;
            x = up;
        }
        x
    }

    fn union(&mut self, a: u32, b: u32) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
    }
}

/// The number of elements of each piece, largest first. Every index of
/// `tets` must be below `nodes`.
pub fn piece_sizes(nodes: usize, tets: &[[u32; 4]]) -> Vec<usize> {
    let mut sets = Sets::new(nodes);
    for t in tets {
        for k in 1..4 {
            sets.union(t[0], t[k]);
        }
    }
    let mut count = vec![0usize; nodes];
    for t in tets {
        count[sets.find(t[0]) as usize] += 1;
    }
    let mut sizes: Vec<usize> = count.into_iter().filter(|&c| c > 0).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_sharing_a_node_are_one_piece() {
        // Two tetrahedra sharing node 3, and one apart.
        let tets = [[0, 1, 2, 3], [3, 4, 5, 6], [7, 8, 9, 10]];
        assert_eq!(piece_sizes(12, &tets), [2, 1]);
        assert_eq!(piece_sizes(4, &[[0, 1, 2, 3]]), [1]);
    }
}

//! Node renumbering for locality: neighbours of a node get nearby
//! numbers, so that the values a GPU warp gathers lie in few cache lines.
//! Vasconcellos et al. 2024 (seed 004, Algorithm 2) number nodes
//! breadth-first; reverse Cuthill-McKee (Cuthill and McKee 1969; George
//! 1971) is the same walk with the neighbours of each node taken in
//! order of degree and the order reversed, which keeps the bandwidth of
//! the matrix small.

use super::adjacency::Adjacency;
use super::mesh::TetMesh;

/// A permutation of a mesh's nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renumbering {
    /// The new number of every node of the file.
    pub new_of_old: Vec<u32>,
    /// The file's number of every new node.
    pub old_of_new: Vec<u32>,
}

/// How nodes are numbered for the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeOrder {
    /// The file's own order.
    File,
    /// Breadth-first from a peripheral node (seed 004, Algorithm 2).
    BreadthFirst,
    /// Reverse Cuthill-McKee.
    ReverseCuthillMcKee,
}

impl Renumbering {
    pub fn identity(nodes: usize) -> Self {
        let order: Vec<u32> = (0..nodes as u32).collect();
        Self { new_of_old: order.clone(), old_of_new: order }
    }

    /// The numbering `order` asks for on `mesh`.
    pub fn new(mesh: &TetMesh, order: NodeOrder) -> Self {
        match order {
            NodeOrder::File => Self::identity(mesh.nodes()),
            NodeOrder::BreadthFirst => Self::from_old_of_new(breadth_first(mesh, false)),
            NodeOrder::ReverseCuthillMcKee => {
                let mut walk = breadth_first(mesh, true);
                walk.reverse();
                Self::from_old_of_new(walk)
            }
        }
    }

    /// The numbering that gives new node i the file's node `old_of_new[i]`.
    pub fn from_old_of_new(old_of_new: Vec<u32>) -> Self {
        let mut new_of_old = vec![0u32; old_of_new.len()];
        for (new, &old) in old_of_new.iter().enumerate() {
            new_of_old[old as usize] = new as u32;
        }
        Self { new_of_old, old_of_new }
    }

    /// `mesh` with its nodes renumbered (elements keep their order and
    /// their data).
    pub fn apply(&self, mesh: &TetMesh) -> TetMesh {
        TetMesh {
            points_mm: self.old_of_new.iter().map(|&o| mesh.points_mm[o as usize]).collect(),
            tets: mesh.tets.iter().map(|t| t.map(|n| self.new_of_old[n as usize])).collect(),
            ..mesh.clone()
        }
    }

    /// Values given per new node, put back in the file's order.
    pub fn to_file_order<T: Copy>(&self, values: &[T]) -> Vec<T> {
        self.new_of_old.iter().map(|&n| values[n as usize]).collect()
    }

    /// Values given per node of the file, in the new order.
    pub fn to_new_order<T: Copy>(&self, values: &[T]) -> Vec<T> {
        self.old_of_new.iter().map(|&o| values[o as usize]).collect()
    }
}

/// The largest |a - b| over the edges of `mesh`: the matrix bandwidth,
/// which renumbering is meant to shrink.
pub fn bandwidth(mesh: &TetMesh) -> u32 {
    let mut widest = 0;
    for tet in &mesh.tets {
        for a in tet {
            for b in tet {
                widest = widest.max(a.abs_diff(*b));
            }
        }
    }
    widest
}

/// Every node once, component after component, each walked breadth-first
/// from a node of smallest degree among the farthest from its first
/// node (a pseudo-peripheral node); `by_degree` takes each node's
/// unvisited neighbours in order of degree (Cuthill-McKee), else in
/// order of number.
fn breadth_first(mesh: &TetMesh, by_degree: bool) -> Vec<u32> {
    let neighbours = Adjacency::of(mesh);
    let n = neighbours.nodes();
    let degree = |v: u32| neighbours.degree(v as usize);
    let mut visited = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for first in 0..n as u32 {
        if visited[first as usize] {
            continue;
        }
        let start = peripheral(&neighbours, first);
        let mut head = order.len();
        visited[start as usize] = true;
        order.push(start);
        while head < order.len() {
            let v = order[head];
            head += 1;
            let mut next: Vec<u32> =
                neighbours.of_node(v as usize).iter().copied().filter(|&w| !visited[w as usize]).collect();
            if by_degree {
                next.sort_by_key(|&w| (degree(w), w));
            }
            for w in next {
                visited[w as usize] = true;
                order.push(w);
            }
        }
    }
    order
}

/// A node far from `first` in its component: the last level of a
/// breadth-first walk, its node of smallest degree, twice.
fn peripheral(neighbours: &Adjacency, first: u32) -> u32 {
    let mut start = first;
    for _ in 0..2 {
        let last_level = levels(neighbours, start);
        start = *last_level.iter().min_by_key(|&&v| (neighbours.degree(v as usize), v)).expect("a level");
    }
    start
}

/// The nodes of the last level of a breadth-first walk from `start`.
fn levels(neighbours: &Adjacency, start: u32) -> Vec<u32> {
    let mut seen = std::collections::HashSet::from([start]);
    let mut level = vec![start];
    loop {
        let mut next = Vec::new();
        for &v in &level {
            for &w in neighbours.of_node(v as usize) {
                if seen.insert(w) {
                    next.push(w);
                }
            }
        }
        if next.is_empty() {
            return level;
        }
        level = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box whose nodes are numbered at random (a fixed shuffle).
    fn shuffled_box() -> TetMesh {
        let mesh = TetMesh::kuhn_box([6, 5, 4], 1.0);
        let n = mesh.nodes() as u32;
        // A multiplicative shuffle: 37 is prime to 120.
        let old_of_new: Vec<u32> = (0..n).map(|i| (i * 37 + 11) % n).collect();
        Renumbering::from_old_of_new(old_of_new).apply(&mesh)
    }

    #[test]
    fn every_order_is_a_permutation_that_round_trips() {
        let mesh = shuffled_box();
        for order in [NodeOrder::File, NodeOrder::BreadthFirst, NodeOrder::ReverseCuthillMcKee] {
            let r = Renumbering::new(&mesh, order);
            let mut seen = r.old_of_new.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..mesh.nodes() as u32).collect::<Vec<_>>(), "{order:?}");
            let values: Vec<usize> = (0..mesh.nodes()).collect();
            assert_eq!(r.to_file_order(&r.to_new_order(&values)), values, "{order:?}");
            let renumbered = r.apply(&mesh);
            for e in 0..mesh.elements() {
                assert_eq!(renumbered.signed_volume6(e), mesh.signed_volume6(e), "{order:?}, element {e}");
            }
        }
    }

    #[test]
    fn renumbering_shrinks_the_bandwidth_of_a_shuffled_mesh() {
        let mesh = shuffled_box();
        let before = bandwidth(&mesh);
        for order in [NodeOrder::BreadthFirst, NodeOrder::ReverseCuthillMcKee] {
            let after = bandwidth(&Renumbering::new(&mesh, order).apply(&mesh));
            assert!(after * 2 < before, "{order:?}: bandwidth {before} -> {after}");
        }
    }

    #[test]
    fn separate_pieces_are_each_numbered() {
        let mut mesh = TetMesh::kuhn_box([2, 2, 2], 1.0);
        let offset = mesh.nodes() as u32;
        let other = TetMesh::kuhn_box([2, 2, 2], 1.0);
        mesh.points_mm.extend(other.points_mm.iter().map(|p| [p[0] + 5.0, p[1], p[2]]));
        mesh.tets.extend(other.tets.iter().map(|t| t.map(|n| n + offset)));
        mesh.regions.extend(other.regions);
        let r = Renumbering::new(&mesh, NodeOrder::ReverseCuthillMcKee);
        assert_eq!(r.old_of_new.len(), 16);
    }
}

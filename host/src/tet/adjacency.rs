//! Which nodes of a mesh share an element: the rows of the operator's
//! sparse matrix (`operator`) and the graph renumbering walks
//! (`renumber`), built once here for both.

use super::mesh::TetMesh;

/// The nodes that share an element with each node, ascending: CSR rows.
pub(crate) struct Adjacency {
    starts: Vec<usize>,
    entries: Vec<u32>,
}

impl Adjacency {
    pub fn of(mesh: &TetMesh) -> Self {
        let n = mesh.nodes();
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
        for tet in &mesh.tets {
            for a in tet {
                for b in tet {
                    if a != b {
                        lists[*a as usize].push(*b);
                    }
                }
            }
        }
        let mut starts = Vec::with_capacity(n + 1);
        let mut entries = Vec::new();
        starts.push(0);
        for mut list in lists {
            list.sort_unstable();
            list.dedup();
            entries.extend(list);
            starts.push(entries.len());
        }
        Self { starts, entries }
    }

    pub fn range(&self, c: usize) -> std::ops::Range<usize> {
        self.starts[c]..self.starts[c + 1]
    }

    pub fn degree(&self, c: usize) -> usize {
        self.starts[c + 1] - self.starts[c]
    }

    pub fn max_degree(&self) -> usize {
        (0..self.starts.len() - 1).map(|c| self.degree(c)).max().unwrap_or(0)
    }

    /// Where neighbour `b` of node `a` is in `entries`.
    pub fn slot(&self, a: u32, b: u32) -> usize {
        let r = self.range(a as usize);
        r.start + self.entries[r].binary_search(&b).expect("b shares an element with a")
    }

    /// The neighbours of node `c`, ascending.
    pub fn of_node(&self, c: usize) -> &[u32] {
        &self.entries[self.range(c)]
    }

    /// The node at `slot` of the rows.
    pub fn entry(&self, slot: usize) -> u32 {
        self.entries[slot]
    }

    /// Entries over all rows (each pair of neighbours counted from both
    /// sides).
    pub fn slots(&self) -> usize {
        self.entries.len()
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.starts.len() - 1
    }
}

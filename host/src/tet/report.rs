//! What the checks found about a mesh that was accepted: its size, its
//! extent and element sizes (to catch a mesh in the wrong unit, which no
//! check can refuse), and what is unusual without being wrong.

use std::collections::BTreeMap;
use std::fmt;

use crate::tet::mesh::Vec3;

/// How many nodes [`MeshReport::unused_first`] lists.
pub const UNUSED_LISTED: usize = 8;

#[derive(Clone, Debug, PartialEq)]
pub struct MeshReport {
    pub nodes: usize,
    pub elements: usize,
    /// Lowest and highest corner of the nodes' box, in mm.
    pub bbox_mm: [Vec3; 2],
    /// Shortest, mean and longest element edge (mm), over the six edges of
    /// every element (an edge shared by several counts once for each).
    pub edge_min_mm: f64,
    pub edge_mean_mm: f64,
    pub edge_max_mm: f64,
    /// The mesh's volume, in mm^3.
    pub volume_mm3: f64,
    /// Elements whose orientation was turned (two nodes swapped).
    pub reoriented: usize,
    /// Nodes no element uses, and the first few of them (0-based).
    pub unused: usize,
    pub unused_first: Vec<usize>,
    /// Elements of each connected piece, largest first.
    pub pieces: Vec<usize>,
    /// Elements of each region label.
    pub regions: BTreeMap<i32, usize>,
    pub fibres: bool,
    pub sheets: bool,
}

impl MeshReport {
    /// What the user should know though the mesh was accepted.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.unused > 0 {
            let list: Vec<String> = self.unused_first.iter().map(|n| n.to_string()).collect();
            let more = if self.unused > self.unused_first.len() { ", ..." } else { "" };
            notes.push(format!(
                "{} nodes belong to no element (nodes {}{more}, counting from 0); they are left out of the solution",
                self.unused,
                list.join(", ")
            ));
        }
        if self.pieces.len() > 1 {
            let sizes: Vec<String> = self.pieces.iter().map(|n| n.to_string()).collect();
            notes.push(format!(
                "the mesh is {} pieces that share no node ({} elements); excitation does not cross between them",
                self.pieces.len(),
                sizes.join(", ")
            ));
        }
        if self.reoriented > 0 {
            notes.push(format!(
                "{} of {} elements had their nodes in the other orientation and were turned (two nodes swapped)",
                self.reoriented, self.elements
            ));
        }
        notes
    }
}

impl fmt::Display for MeshReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [lo, hi] = self.bbox_mm;
        writeln!(
            f,
            "{} nodes, {} tetrahedra, volume {:.4} mm^3",
            self.nodes, self.elements, self.volume_mm3
        )?;
        writeln!(
            f,
            "box ({:.3}, {:.3}, {:.3}) to ({:.3}, {:.3}, {:.3}) mm",
            lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]
        )?;
        writeln!(
            f,
            "edges {:.4} to {:.4} mm, mean {:.4} mm",
            self.edge_min_mm, self.edge_max_mm, self.edge_mean_mm
        )?;
        let regions: Vec<String> = self.regions.iter().map(|(r, n)| format!("{r}: {n}")).collect();
        writeln!(f, "regions (label: elements) {}", regions.join(", "))?;
        let dirs = match (self.fibres, self.sheets) {
            (true, true) => "fibres and sheets",
            (true, false) => "fibres",
            _ => "no fibres",
        };
        writeln!(f, "{dirs}")?;
        for note in self.notes() {
            writeln!(f, "note: {note}")?;
        }
        Ok(())
    }
}

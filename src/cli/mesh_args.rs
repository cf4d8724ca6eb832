//! The `[mesh]` section of a run configuration (and `--mesh FILE`): the
//! mesh file, how to read it, its node order and its conductivities
//! (`cli::mesh` runs it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use fibril_host::tet::NodeOrder;
use serde::{Deserialize, Serialize};

/// The `[mesh]` section: the mesh file, how to read it, its node order and
/// its conductivities.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MeshArgs {
    /// The mesh: openCARP `.pts` (with `.elem`, `.lon` beside it), VTK
    /// `.vtu`, Gmsh `.msh` (4.1 or 2.2 ASCII) or TetGen `.node` (with
    /// `.ele`).
    pub file: PathBuf,
    /// Length unit of the file's coordinates (um, mm, cm, m) [default: um
    /// for openCARP, mm otherwise].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<String>,
    /// Node numbering for the solvers: rcm (reverse Cuthill-McKee, the
    /// fastest measured), bfs (breadth-first, Vasconcellos et al. 2024,
    /// Algorithm 2) or file. Outputs are in the file's order whatever it is.
    pub node_order: NodeOrderArg,
    /// The `.vtu` cell array of region labels [default: the first of
    /// `region`, `tag`, `gmsh:physical`, `elemTag`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region_array: Option<String>,
    /// Monodomain conductivity along the fibres, S/m; with --chi and --cm
    /// (D = sigma/(chi Cm)). Without it, the isotropic D of `[grid]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma_l: Option<f64>,
    /// Across the fibres (and along the sheet), S/m [default: sigma_l].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma_t: Option<f64>,
    /// Normal to the sheet, S/m [default: sigma_t].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma_n: Option<f64>,
    /// Intracellular conductivities [along, across] or [along, across,
    /// normal], S/m: with `sigma_e`, the monodomain sigma by their
    /// harmonic mean (Niederer et al. 2011) instead of sigma_l/t/n.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma_i: Option<Vec<f64>>,
    /// Extracellular conductivities, as `sigma_i`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma_e: Option<Vec<f64>>,
    /// Model parameters given per node: `name = "file"`, a float `.npy`
    /// of one value per node, a `.vtu` with a point-data array of the
    /// parameter's name, or a `.dat` of one value per line, in the file's
    /// node order.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parameter_fields: BTreeMap<String, PathBuf>,
    /// Conductivities, cell type and parameters of the elements of one
    /// region label, over the defaults above (`[[mesh.region]]` tables).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub region: Vec<MeshRegion>,
}

/// `[[mesh.region]]`: the conductivities of one region label (S/m), its
/// cell type (a preset of the model) and parameter values, any of them.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshRegion {
    pub label: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_l: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_t: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_n: Option<f64>,
    /// A preset of the model for the nodes of this label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// Parameter values of this label, over the preset and the run's own.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeOrderArg {
    #[default]
    Rcm,
    Bfs,
    File,
}

impl NodeOrderArg {
    pub fn order(self) -> NodeOrder {
        match self {
            NodeOrderArg::Rcm => NodeOrder::ReverseCuthillMcKee,
            NodeOrderArg::Bfs => NodeOrder::BreadthFirst,
            NodeOrderArg::File => NodeOrder::File,
        }
    }

    /// As the configuration spells it.
    pub fn name(self) -> &'static str {
        match self {
            NodeOrderArg::Rcm => "rcm",
            NodeOrderArg::Bfs => "bfs",
            NodeOrderArg::File => "file",
        }
    }
}

/// `--mesh FILE` as the `[mesh]` section it stands for.
pub fn from_flag(file: &Path) -> MeshArgs {
    MeshArgs { file: file.to_path_buf(), ..MeshArgs::default() }
}

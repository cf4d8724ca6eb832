//! A heterogeneous tissue as a run describes it: the parameters of each
//! region label and the parameters given per cell.

use super::error::ParamsError;
use kernels_gpu::ModelInfo;

/// The parameters of the cells of one label (of a tissue's label field or
/// a mesh's element tags): a preset of the model and values over it.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionParameters {
    /// The label, 1.. (0 is no tissue).
    pub label: u8,
    /// A preset of the model (TP06's `endo`, `m`, `epi`); the run's preset
    /// where `None`.
    pub preset: Option<String>,
    /// Parameter values over the preset, which win over the run's own
    /// values of the same parameters (`g_ks = 0.5`).
    pub values: Vec<(String, f64)>,
}

/// One parameter given per cell: its value in every cell of the box (or
/// at every node of a mesh, in the mesh's own node order), in the
/// parameter's unit. Cells outside the tissue are not read.
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterField {
    /// The parameter's name, as `fibril models MODEL` lists it.
    pub name: String,
    pub values: Vec<f64>,
}

/// Everything that varies: the regions' parameters, then the fields,
/// which win over a region's value of the same parameter.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParameterMap {
    pub regions: Vec<RegionParameters>,
    pub fields: Vec<ParameterField>,
}

impl ParameterMap {
    /// Whether nothing varies (a uniform run).
    pub fn is_empty(&self) -> bool {
        self.regions.is_empty() && self.fields.is_empty()
    }
}

/// The index of the parameter a field names in `model`, or why not: a
/// reader asks before it reads the field's file, which may be large.
pub fn field_index(model: &ModelInfo, name: &str) -> Result<usize, ParamsError> {
    model.parameter_index(name).ok_or_else(|| ParamsError::UnknownField {
        model: model.name,
        name: name.to_string(),
        known: model.parameters.iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
    })
}

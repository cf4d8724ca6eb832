//! Why a heterogeneous parameter map was refused. Each message names the
//! region, field or cell and the fix.

use thiserror::Error;

use crate::models::ModelError;

#[derive(Debug, Error, PartialEq)]
pub enum ParamsError {
    #[error("the parameters of region label {label}: {source}")]
    Region {
        label: u8,
        #[source]
        source: Box<ModelError>,
    },
    #[error("region label 0 is no tissue; give the parameters of a label 1 or above")]
    LabelZero,
    #[error("region label {label} is given twice; keep one table per label")]
    RegionTwice { label: u8 },
    #[error("no cell has the label {label} of a parameter region; the labels are {present}")]
    NoSuchLabel { label: u8, present: String },
    #[error("{model} has no parameter \"{name}\" (of a parameter field); its parameters are {known}")]
    UnknownField { model: &'static str, name: String, known: String },
    #[error("the parameter field \"{name}\" is given twice; keep one")]
    FieldTwice { name: String },
    #[error(
        "the parameter field \"{name}\" has {got} values, the {what} has {want}; give one value per {unit} \
         (in the order of its cells)"
    )]
    FieldShape { name: String, got: usize, want: usize, what: &'static str, unit: &'static str },
    #[error("the parameter field \"{name}\" at {place}: {source}")]
    FieldValue {
        name: String,
        place: String,
        #[source]
        source: Box<ModelError>,
    },
    #[error(
        "the parameters take {sets} distinct sets over the tissue, more than the {max} fibril can index; \
         round the fields (to 3 or 4 significant digits) so that fewer cells differ"
    )]
    TooManySets { sets: usize, max: usize },
    #[error(
        "the mesh has an element tag {tag}; parameter regions take tags 0 to 255 (0: no region of its own); \
         renumber the mesh's tags"
    )]
    MeshTag { tag: i32 },
}

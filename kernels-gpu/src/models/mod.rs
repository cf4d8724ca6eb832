//! The cell models, one file each, and the registry that lists them.
//!
//! Adding a model from a CellML file: `fibril import-cellml FILE --name
//! NAME` writes `models/imported/<name>.rs` and its lines here and in
//! [`imported`]. Adding a hand-written model: write `models/<name>.rs` (a unit type implementing
//! [`CellModel`](crate::model::CellModel)) and add one line to
//! [`for_each_model!`](crate::for_each_model). The registry line generates
//! the model's kernel entry points (`<name>_naive_f32`, ...), its rows of
//! the entry-point table the host launches by
//! ([`crate::registry::ENTRY_POINTS`]) and, on the host, its place in the
//! list of models and in the one dispatch over (model, precision).

pub mod aliev_panfilov;
pub mod beeler_reuter;
pub mod bocf;
pub mod describe;
pub mod diffusion;
pub mod fenton_karma;
pub mod imported;
pub mod karma;
pub mod luo_rudy_1991;
pub mod mitchell_schaeffer;
pub mod ten_tusscher_2006;
#[cfg(test)]
pub mod testing;

pub use aliev_panfilov::AlievPanfilov;
pub use beeler_reuter::BeelerReuter;
pub use bocf::Bocf;
pub use diffusion::Diffusion;
pub use fenton_karma::FentonKarma;
pub use karma::Karma;
pub use luo_rudy_1991::LuoRudy1991;
pub use mitchell_schaeffer::MitchellSchaeffer;
pub use ten_tusscher_2006::TenTusscher2006;

/// Calls `$callback!` with the list of models, one `name: Type` per line,
/// where `name` is the model's [`ModelInfo::name`](crate::model::ModelInfo)
/// and `[paper]` marks the models that also get the paper's sliding-window
/// and tower kernels, `{blocked}` those that get the blocked kernel (k
/// steps per pass: the models with at most 3 local variables, whose state
/// fits its registers; the ionic models would take 159-255 registers a
/// thread there and run one step per pass); every model has the naive,
/// columns and tissue kernels.
#[macro_export]
macro_rules! for_each_model {
    ($callback:ident) => {
        $callback! {
            karma: $crate::models::Karma [paper] {blocked},
            bocf: $crate::models::Bocf {blocked},
            aliev_panfilov: $crate::models::AlievPanfilov {blocked},
            fenton_karma: $crate::models::FentonKarma {blocked},
            mitchell_schaeffer: $crate::models::MitchellSchaeffer {blocked},
            beeler_reuter: $crate::models::BeelerReuter,
            luo_rudy_1991: $crate::models::LuoRudy1991,
            ten_tusscher_2006: $crate::models::TenTusscher2006,
            diffusion: $crate::models::Diffusion {blocked},
            // imported models: begin
            iyer_2004: $crate::models::imported::Iyer2004,
            courtemanche_1998: $crate::models::imported::Courtemanche1998,
            ohara_rudy_2011: $crate::models::imported::OharaRudy2011,
            // imported models: end
        }
    };
}

//! What every kernel's entry point shares: the parameters a step kernel
//! hands its body ([`StepArgs`]), and the writing-out of a model-free
//! kernel in both precisions (`precision_kernel!`). Its own module, so the
//! kernel modules take it from a sibling rather than from their parent.

use crate::cell::StepCoeffs;
use crate::events::Recorder;
use crate::layout::grid::ZWindow;
use crate::model::CellModel;
use crate::real::Real;

/// The parameters every step kernel takes (the module docs list them), as
/// its entry point hands them to its body: `layout` is the grid
/// (`GridDims`), the tower layout (`TowerLayout`) or the tissue
/// (`tissue::DenseTissue`), `coeffs` the coefficients as passed or the
/// model's common case (`step_entry!`). Trailing parameters of a kernel
/// (a z-chunk, a pass) follow it.
pub struct StepArgs<'a, M: CellModel, T: Real, L> {
    pub u: *const T,
    pub u_next: *mut T,
    pub local: *mut T,
    pub layout: L,
    pub step: &'a StepCoeffs<T>,
    pub coeffs: &'a M::Coeffs<T>,
    pub window: ZWindow,
    pub rec: &'a Recorder<T>,
}

/// A model-free kernel, written once: its body, generic over the precision
/// `T` (`#[inline(always)]`, under the docs and attributes written before
/// it), and its entry points `<a>_<b>_f32` and `<a>_<b>_f64`, which take
/// the body's parameters with `T` the precision and pass them on. One
/// parameter list serves the body and both entry points, so the three
/// cannot drift apart.
macro_rules! precision_kernel {
    (
        $a:ident, $b:ident;
        $(#[$attr:meta])*
        unsafe fn $name:ident<$T:ident: Real>($($p:ident: $pty:ty),* $(,)?) $body:block
    ) => {
        $(#[$attr])*
        #[inline(always)]
        unsafe fn $name<$T: Real>($($p: $pty),*) $body

        $crate::kernels::entry::precision_kernel!(@entry $a, $b, f32, $name, $T, $($p: $pty),*);
        $crate::kernels::entry::precision_kernel!(@entry $a, $b, f64, $name, $T, $($p: $pty),*);
    };
    (@entry $a:ident, $b:ident, $t:ident, $name:ident, $T:ident, $($p:ident: $pty:ty),*) => {
        const _: () = {
            type $T = $t;
            /// The body of the same name in this module, in this precision.
            #[unsafe(export_name = $crate::entry_name!($a, $b, $t))]
            #[allow(clippy::too_many_arguments, reason = "the kernel's parameter list")]
            pub unsafe extern "ptx-kernel" fn entry($($p: $pty),*) {
                unsafe { $name::<$T>($($p),*) }
            }
        };
    };
}
pub(crate) use precision_kernel;

/// A model's kernel twice, from one parameter list and one body:
/// `<model>_<kernel>_<t>`, which steps every cell with the coefficients
/// passed by value (`$P` is [`Uniform`](crate::params::Uniform) and `$sets`
/// names no table), and `<model>_<kernel>_sets_<t>`, which takes a last
/// argument `$sets: ParamSets` and steps each cell with the coefficients
/// of its parameter set (`$P` is [`PerCell`](crate::params::PerCell);
/// `crate::params`). Written once so the two cannot drift apart.
macro_rules! with_and_without_sets {
    (
        $model:ident, $kernel:ident, $t:ident;
        $(#[$attr:meta])*
        fn $f:ident($($p:ident: $pty:ty),* $(,)?) |$P:ident, $sets:ident| $body:block
    ) => {
        const _: () = {
            $(#[$attr])*
            #[unsafe(export_name = $crate::entry_name!($model, $kernel, $t))]
            #[allow(clippy::too_many_arguments, reason = "the kernel's parameter list")]
            pub unsafe extern "ptx-kernel" fn $f($($p: $pty),*) {
                type $P = $crate::params::Uniform;
                let $sets = $crate::params::ParamSets { table: 0, index: 0 };
                $body
            }
        };
        const _: () = {
            $(#[$attr])*
            #[unsafe(export_name = $crate::entry_name!(sets $model, $kernel, $t))]
            #[allow(clippy::too_many_arguments, reason = "the kernel's parameter list")]
            pub unsafe extern "ptx-kernel" fn $f($($p: $pty,)* $sets: $crate::params::ParamSets) {
                type $P = $crate::params::PerCell;
                $body
            }
        };
    };
}
pub(crate) use with_and_without_sets;

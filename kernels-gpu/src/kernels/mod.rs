//! Kernel entry points (compiled for `nvptx64` only).
//!
//! Entry points are thin: they read their parameters and call a generic
//! body (this module's submodules), which calls the shared functions of
//! [`crate::cell`], [`crate::stencil`] and the model. The model registry
//! ([`for_each_model!`](crate::for_each_model)) instantiates each body
//! once per model and precision, under the names of
//! [`crate::registry::ENTRY_POINTS`] (`<model>_<kernel>_<f32|f64>`).
//!
//! Every step kernel takes `(u, u_next, local, layout, step, coeffs,
//! window, rec)`: U double-buffered (read `u`, write `u_next`), the model's
//! local variables in place, the grid (`GridDims`) or tower layout
//! (`TowerLayout`), the numerics' `StepCoeffs`, the model's coefficients,
//! the z-window of slices to advance and the crossing recorder
//! (`events::Recorder`, off in benchmarks); `tower_march` and `columns`
//! add `z_chunk`.
//! The stimulus kernel (`stimulate`) is model-free, like the NaN check.
//! Every step entry point first waits for its prerequisite grids
//! (`gpu::wait_for_prerequisite_grids`), which lets the host overlap one
//! step's launch with the end of the step before.

pub mod blocked;
pub mod columns;
pub mod csw;
mod diagnostics;
mod ecg;
pub mod entry;
mod events;
mod halo;
pub mod naive;
pub mod tet;
mod tips;
pub mod tissue;
pub mod tower;

pub use entry::StepArgs;

/// The entry point `<model>_<kernel>_<t>` of one kernel body for one model
/// and precision. `row_major` kernels take the grid, `towers` ones the
/// tower layout; `$extra` are trailing parameters (tower-march's z-chunk).
/// With a leading `common`, the entry runs the body twice over: with the
/// model's common case (`CellModel::common_case`: values that are constants
/// of the code, so the reaction's branches on them fold away) when the
/// coefficients are that case, and with the coefficients as passed
/// otherwise; the values are equal, so are the bits. On an H100 that made
/// Karma's naive step at 64^3 1.07x faster and its columns step at 128^3
/// 1.05x (docs/history/BENCHMARKS-2026.md, "Small grids: the naive kernel's common
/// path"); the blocked kernel makes the same choice itself, with a longer
/// march for the common case.
macro_rules! step_entry {
    (common $($rest:tt)*) => { step_entry!(@entry common, $($rest)*); };
    (@entry $how:ident,
        $layout_kind:ident $layout_ty:ty, [$($body:tt)*], $model:ident, $kernel:ident, $ty:path, $t:ident
        $(, $extra:ident: $extra_ty:ty)*
    ) => {
        const _: () = {
            /// One step of this model (the generic body in this module has the launch contract).
            #[unsafe(export_name = $crate::entry_name!($model, $kernel, $t))]
            pub unsafe extern "ptx-kernel" fn entry(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                $layout_kind: $layout_ty,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                window: $crate::ZWindow,
                rec: $crate::events::Recorder<$t>,
                $($extra: $extra_ty),*
            ) {
                // Before any read: the previous step's grid may still be
                // finishing (programmatic launch, `gpu::wait_for_prerequisite_grids`).
                $crate::gpu::wait_for_prerequisite_grids();
                step_entry!(@call $how, $ty, $t, [$($body)*], coeffs, ($($extra),*),
                    [u, u_next, local, layout: $layout_kind, step: &step, window, rec: &rec])
            }
        };
    };
    // The body's call: its `StepArgs` with the coefficients as passed or
    // the common case, then the trailing parameters.
    (@call one, $ty:path, $t:ident, [$($body:tt)*], $coeffs:ident, ($($b:expr),*), [$($f:tt)*]) => {
        unsafe { $($body)*($crate::kernels::entry::StepArgs { $($f)*, coeffs: &$coeffs } $(, $b)*) }
    };
    (@call common, $ty:path, $t:ident, [$($body:tt)*], $coeffs:ident, ($($b:expr),*), [$($f:tt)*]) => {
        match <$ty as $crate::model::CellModel>::common_case::<$t>(&$coeffs) {
            Some(common) => unsafe { $($body)*($crate::kernels::entry::StepArgs { $($f)*, coeffs: &common } $(, $b)*) },
            None => unsafe { $($body)*($crate::kernels::entry::StepArgs { $($f)*, coeffs: &$coeffs } $(, $b)*) },
        }
    };
    ($($rest:tt)*) => { step_entry!(@entry one, $($rest)*); };
}

/// Every entry point of every registered model (the registry's callback).
macro_rules! model_entry_points {
    ($($name:ident : $ty:path $([$paper:ident])? $({$blocked:ident})?),* $(,)?) => {$(
        model_entry_points!(@naive $name, $ty, f32);
        model_entry_points!(@naive $name, $ty, f64);
        $(
            model_entry_points!(@$paper $name, $ty, f32);
            model_entry_points!(@$paper $name, $ty, f64);
        )?
        $(
            model_entry_points!(@$blocked $name, $ty, f32);
            model_entry_points!(@$blocked $name, $ty, f64);
        )?
    )*};
    (@naive $name:ident, $ty:path, $t:ident) => {
        step_entry!(common dims $crate::GridDims, [$crate::kernels::naive::step::<$ty, $t, 3>], $name, naive, $ty, $t);
        step_entry!(common dims $crate::GridDims, [$crate::kernels::naive::step::<$ty, $t, 2>], $name, naive2d, $ty, $t);
        step_entry!(common dims $crate::GridDims, [$crate::kernels::naive::step::<$ty, $t, 1>], $name, naive1d, $ty, $t);
        $crate::kernels::tissue::tissue_entries!($name, $ty, $t);
        $crate::kernels::tet::tet_entry!($name, $ty, $t);
        step_entry!(
            common dims $crate::GridDims,
            [$crate::kernels::columns::step::<$ty, $t>],
            $name,
            columns,
            $ty,
            $t,
            z_chunk: u32
        );
    };
    (@blocked $name:ident, $ty:path, $t:ident) => {
        step_entry!(
            dims $crate::GridDims,
            [$crate::kernels::blocked::step::<$ty, $t>],
            $name,
            blocked,
            $ty,
            $t,
            local_next: *mut $t,
            pass: $crate::blocked::Pass
        );
    };
    (@paper $name:ident, $ty:path, $t:ident) => {
        step_entry!(dims $crate::GridDims, [$crate::kernels::csw::step::<$ty, $t>], $name, csw, $ty, $t);
        step_entry!(layout $crate::TowerLayout, [$crate::kernels::tower::step_slice::<$ty, $t>], $name, tower, $ty, $t);
        step_entry!(
            layout $crate::TowerLayout,
            [$crate::kernels::tower::step_march::<$ty, $t>],
            $name,
            tower_march,
            $ty,
            $t,
            z_chunk: u32
        );
    };
}

crate::for_each_model!(model_entry_points);

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
//! window)`: U double-buffered (read `u`, write `u_next`), the model's
//! local variables in place, the grid (`GridDims`) or tower layout
//! (`TowerLayout`), the numerics' `StepCoeffs`, the model's coefficients
//! and the z-window of slices to advance; `tower_march` adds `z_chunk`.

pub mod csw;
mod diagnostics;
pub mod naive;
pub mod tower;

/// The entry points of one kernel body for one model and precision.
macro_rules! step_entry {
    (naive $axes:literal, $model:ident, $kernel:ident, $ty:path, $t:ident) => {
        const _: () = {
            /// One step of this model on the row-major grid (`naive::step`).
            #[unsafe(export_name = $crate::entry_name!($model, $kernel, $t))]
            pub unsafe extern "ptx-kernel" fn entry(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                dims: $crate::GridDims,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                window: $crate::ZWindow,
            ) {
                unsafe {
                    $crate::kernels::naive::step::<$ty, $t, $axes>(
                        u, u_next, local, dims, &step, &coeffs, window,
                    )
                }
            }
        };
    };
    (csw, $model:ident, $ty:path, $t:ident) => {
        const _: () = {
            /// One step of this model by the sliding window (`csw::step`).
            #[unsafe(export_name = $crate::entry_name!($model, csw, $t))]
            pub unsafe extern "ptx-kernel" fn entry(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                dims: $crate::GridDims,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                window: $crate::ZWindow,
            ) {
                unsafe {
                    $crate::kernels::csw::step::<$ty, $t>(u, u_next, local, dims, &step, &coeffs, window)
                }
            }
        };
    };
    (tower, $model:ident, $ty:path, $t:ident) => {
        const _: () = {
            /// One step on the tower layout, one block per tower slice (`tower::step_slice`).
            #[unsafe(export_name = $crate::entry_name!($model, tower, $t))]
            pub unsafe extern "ptx-kernel" fn entry(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                layout: $crate::TowerLayout,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                window: $crate::ZWindow,
            ) {
                unsafe {
                    $crate::kernels::tower::step_slice::<$ty, $t>(
                        u, u_next, local, layout, &step, &coeffs, window,
                    )
                }
            }
        };
    };
    (tower_march, $model:ident, $ty:path, $t:ident) => {
        const _: () = {
            /// One step on the tower layout, each block marching `z_chunk`
            /// slices (`tower::step_march`).
            #[unsafe(export_name = $crate::entry_name!($model, tower_march, $t))]
            pub unsafe extern "ptx-kernel" fn entry(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                layout: $crate::TowerLayout,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                window: $crate::ZWindow,
                z_chunk: u32,
            ) {
                unsafe {
                    $crate::kernels::tower::step_march::<$ty, $t>(
                        u, u_next, local, layout, &step, &coeffs, window, z_chunk,
                    )
                }
            }
        };
    };
}

/// Every entry point of every registered model (the registry's callback).
macro_rules! model_entry_points {
    ($($name:ident : $ty:path $([$paper:ident])?),* $(,)?) => {$(
        step_entry!(naive 3, $name, naive, $ty, f32);
        step_entry!(naive 3, $name, naive, $ty, f64);
        step_entry!(naive 2, $name, naive2d, $ty, f32);
        step_entry!(naive 2, $name, naive2d, $ty, f64);
        step_entry!(naive 1, $name, naive1d, $ty, f32);
        step_entry!(naive 1, $name, naive1d, $ty, f64);
        $(
            model_entry_points!(@$paper $name, $ty);
        )?
    )*};
    (@paper $name:ident, $ty:path) => {
        step_entry!(csw, $name, $ty, f32);
        step_entry!(csw, $name, $ty, f64);
        step_entry!(tower, $name, $ty, f32);
        step_entry!(tower, $name, $ty, f64);
        step_entry!(tower_march, $name, $ty, f32);
        step_entry!(tower_march, $name, $ty, f64);
    };
}

crate::for_each_model!(model_entry_points);

//! Kernel entry points (compiled for `nvptx64` only).
//!
//! Entry points are thin: they read their thread coordinates and call the
//! shared functions of [`crate::model`] and [`crate::stencil`]. Each generic
//! body is instantiated once per precision with a `_f32` / `_f64` suffix;
//! `build.rs` lists the names it finds in the PTX so the host never types
//! them by hand.

/// Entry points `$f32` and `$f64` over a row-major stepping body
/// `$body(u, v, u_next, dims, &coeffs, window)`; the body's docs hold the
/// launch contract.
macro_rules! row_major_entry_points {
    ($body:ident: $f32:ident, $f64:ident) => {
        row_major_entry_points!(@one $body, $f32, f32);
        row_major_entry_points!(@one $body, $f64, f64);
    };
    (@one $body:ident, $name:ident, $t:ty) => {
        /// One Karma step on the row-major grid; see the generic body in this module.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(
            u: *const $t,
            v: *mut $t,
            u_next: *mut $t,
            dims: crate::grid::GridDims,
            coeffs: crate::model::KarmaCoeffs<$t>,
            window: crate::grid::ZWindow,
        ) {
            unsafe { $body(u, v, u_next, dims, &coeffs, window) }
        }
    };
}

mod csw;
mod diagnostics;
mod naive;
mod tower;

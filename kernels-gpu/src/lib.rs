//! fibril's numerical core, shared by the CPU solver and the GPU kernels.
//!
//! Everything that decides a number lives here once: the cell models
//! ([`models`], one file each, behind the [`CellModel`] trait of [`model`]),
//! the time step of a cell ([`cell`]), the Laplacian with mirror boundaries
//! ([`stencil`]), the index arithmetic of the row-major grid and of the
//! paper's towers ([`layout`]), the transcendental functions ([`math`])
//! and the per-cell pieces of the analyses ([`ecg`], [`tips`]). The host
//! crate calls these functions on the CPU; the kernels in `kernels` (built for the GPU only) call
//! the very same functions on the GPU after `build.rs` has compiled this
//! crate to PTX with rustc's NVPTX backend. Because both sides execute the
//! same sequence of IEEE-754 operations (no fused multiply-add, no
//! approximate division, no flush-to-zero; see [`math`]), the CPU
//! reference and the GPU agree bit for bit. Fused multiply-adds are
//! written out explicitly (`Real::mul_add`), never left to the compiler:
//! an FMA rounds once on every platform, so it keeps the two sides equal
//! while saving instructions.
//!
//! On the host this is an ordinary `std` crate (tests, doctests); on
//! `nvptx64` it is `no_std` and also exports the kernel entry points.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        abi_ptx,
        asm_experimental_arch,
        stdarch_nvptx,
        core_float_math,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem
    )
)]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]

pub mod blocked;
pub mod cell;
pub mod ecg;
pub mod events;
pub mod fast_math;
pub mod halo;
pub mod layout;
pub mod math;
pub mod model;
pub mod models;
pub mod params;
pub mod rate_table;
pub mod real;
pub mod registry;
pub mod stencil;
pub mod tet;
pub mod tips;
pub mod tissue;
pub mod trig;

#[cfg(target_arch = "nvptx64")]
mod gpu;
#[cfg(target_arch = "nvptx64")]
pub mod kernels;

pub use cell::StepCoeffs;
pub use layout::grid::{GridDims, ZWindow};
pub use layout::tower::TowerLayout;
pub use model::{CellModel, Locals, ModelInfo};
pub use real::Real;

/// Default threads per block along x and y of the stencil kernels (the
/// paper's best towerDS configuration). Defined once here and read by the
/// host launcher, never retyped there.
pub const DEFAULT_BLOCK: (u32, u32) = (32, 8);

/// Dynamic shared memory, in elements, of the sliding-window kernel: the
/// xy tile with a one-cell halo.
pub const fn csw_shared_elems(bx: u32, by: u32) -> u32 {
    (bx + 2) * (by + 2)
}

/// Dynamic shared memory, in elements, of the tower kernels: two haloed
/// tiles, used alternately so one barrier per slice suffices.
pub const fn tower_shared_elems(bx: u32, by: u32) -> u32 {
    2 * (bx + 2) * (by + 2)
}

/// Threads per block of the element-wise diagnostic kernels.
pub const FLAT_BLOCK: u32 = 256;

#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // With `panic = "immediate-abort"` this is never reached; a failed
    // check compiles to `trap`. The handler only satisfies `no_std`.
    // SAFETY: trap has no preconditions; it ends the kernel.
    unsafe { core::arch::nvptx::trap() }
}

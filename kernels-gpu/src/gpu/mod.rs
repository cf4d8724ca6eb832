//! The nightly NVPTX intrinsics the kernels use, behind one small module:
//! their names and signatures move between nightlies, so nothing else in
//! the crate touches `core::arch::nvptx` or `core::intrinsics` directly.

use core::arch::nvptx;

#[inline(always)]
pub fn thread_idx() -> (u32, u32) {
    // SAFETY: reading special registers has no preconditions.
    unsafe { (nvptx::_thread_idx_x(), nvptx::_thread_idx_y()) }
}

#[inline(always)]
pub fn block_idx() -> (u32, u32, u32) {
    // SAFETY: as above.
    unsafe { (nvptx::_block_idx_x(), nvptx::_block_idx_y(), nvptx::_block_idx_z()) }
}

#[inline(always)]
pub fn block_dim() -> (u32, u32) {
    // SAFETY: as above.
    unsafe { (nvptx::_block_dim_x(), nvptx::_block_dim_y()) }
}

#[inline(always)]
pub fn grid_dim_x() -> u32 {
    // SAFETY: as above.
    unsafe { nvptx::_grid_dim_x() }
}

/// Global index of this thread in a 1D launch.
#[inline(always)]
pub fn flat_thread_index() -> usize {
    let (tx, _) = thread_idx();
    let (bx, _, _) = block_idx();
    let (dx, _) = block_dim();
    bx as usize * dx as usize + tx as usize
}

/// Total threads of a 1D launch (the stride of a grid-stride loop).
#[inline(always)]
pub fn flat_thread_count() -> usize {
    grid_dim_x() as usize * block_dim().0 as usize
}

/// `__syncthreads()`: every thread of the block reaches this point and sees
/// the shared-memory writes made before it.
///
/// # Safety
/// Must be reached by all threads of the block (no divergent early return).
#[inline(always)]
pub unsafe fn sync_threads() {
    // SAFETY: forwarded to the caller.
    unsafe { nvptx::_syncthreads() }
}

/// The block's dynamic shared memory, sized by the launch.
#[inline(always)]
pub fn dynamic_shared<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}

/// The 32-bit shared-window address of a pointer into the block's shared
/// memory: shared loads and stores then take 32-bit address arithmetic
/// (one integer add, constant offsets folded into the instruction)
/// instead of 64-bit generic addresses.
#[inline(always)]
pub fn shared_address<T>(ptr: *mut T) -> u32 {
    let address: u32;
    // SAFETY: converts an address, touches no memory.
    unsafe {
        core::arch::asm!(
            "{{ .reg .b64 t; cvta.to.shared.u64 t, {p}; cvt.u32.u64 {a}, t; }}",
            p = in(reg64) ptr as u64,
            a = out(reg32) address,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    address
}

/// Loads a 4- or 8-byte value from the shared-window address `address`.
///
/// # Safety
/// `address` is a `T` of the block's shared memory, aligned to its size.
#[inline(always)]
pub unsafe fn shared_load<T: Copy>(address: u32) -> T {
    // SAFETY (both arms): forwarded to the caller; the bits are a T's.
    unsafe {
        if core::mem::size_of::<T>() == 4 {
            let bits: u32;
            core::arch::asm!(
                "ld.shared.b32 {v}, [{a}];",
                v = out(reg32) bits,
                a = in(reg32) address,
                options(pure, readonly, nostack, preserves_flags),
            );
            core::mem::transmute_copy(&bits)
        } else {
            let bits: u64;
            core::arch::asm!(
                "ld.shared.b64 {v}, [{a}];",
                v = out(reg64) bits,
                a = in(reg32) address,
                options(pure, readonly, nostack, preserves_flags),
            );
            core::mem::transmute_copy(&bits)
        }
    }
}

/// Stores a 4- or 8-byte value at the shared-window address `address`.
///
/// # Safety
/// As [`shared_load`]; no other thread reads or writes it before the next
/// barrier.
#[inline(always)]
pub unsafe fn shared_store<T: Copy>(address: u32, value: T) {
    // SAFETY (both arms): forwarded to the caller.
    unsafe {
        if core::mem::size_of::<T>() == 4 {
            let bits: u32 = core::mem::transmute_copy(&value);
            core::arch::asm!(
                "st.shared.b32 [{a}], {v};",
                v = in(reg32) bits,
                a = in(reg32) address,
                options(nostack, preserves_flags),
            );
        } else {
            let bits: u64 = core::mem::transmute_copy(&value);
            core::arch::asm!(
                "st.shared.b64 [{a}], {v};",
                v = in(reg64) bits,
                a = in(reg32) address,
                options(nostack, preserves_flags),
            );
        }
    }
}

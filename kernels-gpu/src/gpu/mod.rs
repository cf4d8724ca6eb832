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

/// PTX `griddepcontrol.wait`: returns once the grids this one depends on
/// through a programmatic edge have completed and their writes are visible
/// (CUDA's programmatic dependent launch, sm_90 and later); at once where
/// there is no such edge.
///
/// Every step kernel calls it before it reads anything, so that the host
/// may let the next step's grid be scheduled while the previous step's
/// last blocks still run (`fibril_host::backend::gpu::graph`): the launch
/// and ramp-up of one step overlap the drain of the one before, and the
/// fields are the same bits because no cell is read before its producer
/// grid has finished. The instruction exists from PTX ISA 7.8 for sm_90;
/// the host retargets the module there on such devices and removes this
/// line on older ones (`fibril_host::backend::gpu::ptx`).
#[inline(always)]
pub fn wait_for_prerequisite_grids() {
    // SAFETY: a synchronisation instruction with no operands. Not `nomem`:
    // it orders this thread's later memory reads after the prerequisite
    // grids' writes, so the compiler must not move loads above it.
    unsafe { core::arch::asm!("griddepcontrol.wait;", options(nostack, preserves_flags)) }
}

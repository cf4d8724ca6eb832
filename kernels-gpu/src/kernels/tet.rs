//! The tetrahedral mesh's kernel: `<model>_tet_<t>(u, u_next, local,
//! table: EllTable, step, coeffs, rec)`, one thread per node (a 1D
//! launch of at least `table.nodes` threads), the body of
//! [`crate::tet::step_node`] (the CPU's too). Stimuli use the tissue's
//! `stimulate_tissue` kernel over the nodes as a line of cells.

/// The entry point of one model and precision (called by the registry's
/// callback in `kernels/mod.rs`).
macro_rules! tet_entry {
    ($model:ident, $ty:path, $t:ident) => {
        const _: () = {
            /// One step of every node of a tetrahedral mesh
            /// (`kernels::tet` has the contract).
            #[unsafe(export_name = $crate::entry_name!($model, tet, $t))]
            pub unsafe extern "ptx-kernel" fn tet(
                u: *const $t,
                u_next: *mut $t,
                local: *mut $t,
                table: $crate::tet::EllTable,
                step: $crate::cell::StepCoeffs<$t>,
                coeffs: <$ty as $crate::model::CellModel>::Coeffs<$t>,
                rec: $crate::events::Recorder<$t>,
            ) {
                // Nothing is read before the previous grid has finished (as
                // every step kernel: `gpu::wait_for_prerequisite_grids`).
                $crate::gpu::wait_for_prerequisite_grids();
                let c = $crate::gpu::flat_thread_index();
                if c >= table.nodes as usize {
                    return;
                }
                // SAFETY: c is a node, stepped by this thread alone; the
                // host passes buffers of the table's sizes.
                unsafe {
                    $crate::tet::step_node::<$ty, $t>(
                        u, u_next, local, &table, &step, &coeffs, &rec, c as u32,
                    )
                }
            }
        };
    };
}
pub(crate) use tet_entry;

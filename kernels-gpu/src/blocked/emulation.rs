//! The blocked kernel on the CPU: the GPU's blocks and threads run one
//! after another, each iteration for every thread before the next (the
//! barrier), on the same functions as the kernel, so tests compare the
//! pass with the reference solver bit for bit.

use super::march::{PassArgs, Registers, iteration};
use super::shape::{MAX_STEPS_PER_PASS, Pass, launch_shape, shared_elems, tile_of};
use super::shared::Shared;
use super::tile::{Column, Tile};
use crate::cell::StepCoeffs;
use crate::events::Recorder;
use crate::layout::grid::{GridDims, ZWindow};
use crate::model::{CellModel, Locals};
use crate::real::Real;

/// The order in which [`emulate`] runs the threads of an iteration.
/// Running both orders and finding the same bits shows that no thread
/// depends on another's writes within an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadOrder {
    Forward,
    Reverse,
}

/// One pass of the blocked kernel on the CPU: every block of
/// [`launch_shape`] in turn (in `order`, like its threads), each iteration
/// run for every thread of the block before the next iteration starts (the
/// barrier), each thread with its own registers, on a shared memory and
/// registers filled with NaN so that a read of anything no iteration wrote
/// shows in the result. The same functions as the GPU kernel, on host
/// memory; `rec` holds host addresses when on.
///
/// # Panics
/// If a buffer has the wrong length, the grid has an axis of one cell,
/// `pass.steps` is not in 1..=4, the block leaves no tile or the window is
/// not inside the grid.
#[allow(clippy::too_many_arguments, reason = "the kernel's parameter list, one to one")]
pub fn emulate<M: CellModel, T: Real>(
    u: &[T],
    u_next: &mut [T],
    local: &[T],
    local_next: &mut [T],
    g: GridDims,
    block: (u32, u32),
    window: ZWindow,
    pass: Pass,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    order: ThreadOrder,
) {
    let count = M::Locals::<T>::COUNT;
    assert!(g.axes() == 3, "the blocked kernel steps 3D grids");
    assert!((1..=MAX_STEPS_PER_PASS).contains(&pass.steps) && pass.z_chunk >= 1);
    assert!(tile_of(block, pass.steps).is_some(), "block {block:?} leaves no tile for {} steps", pass.steps);
    assert!(window.end <= g.nz && !window.is_empty());
    // Forwarded runs name device (or raw host) addresses this safe function cannot check.
    assert_eq!(pass.forwards.len, 0, "the emulator forwards no halos");
    assert_eq!((u.len(), u_next.len()), (g.cells(), g.cells()));
    assert_eq!((local.len(), local_next.len()), (count * g.cells(), count * g.cells()));
    let args = PassArgs::<M, T> {
        u: u.as_ptr(),
        local: local.as_ptr(),
        u_next: u_next.as_mut_ptr(),
        local_next: local_next.as_mut_ptr(),
        step,
        coeffs,
        rec,
        first_step: pass.first_step,
        forwards: &pass.forwards,
    };
    let e = Emulation { g, block, window, pass, order };
    match pass.steps {
        1 => e.run::<M, T, 1>(&args),
        2 => e.run::<M, T, 2>(&args),
        3 => e.run::<M, T, 3>(&args),
        _ => e.run::<M, T, 4>(&args),
    }
}

/// The launch [`emulate`] runs, for its instances of each step count.
struct Emulation {
    g: GridDims,
    block: (u32, u32),
    window: ZWindow,
    pass: Pass,
    order: ThreadOrder,
}

impl Emulation {
    fn ordered(&self, n: u32) -> Vec<u32> {
        let mut all: Vec<u32> = (0..n).collect();
        if self.order == ThreadOrder::Reverse {
            all.reverse();
        }
        all
    }

    fn run<M: CellModel, T: Real, const K: u32>(&self, args: &PassArgs<'_, M, T>) {
        let shape = launch_shape(self.g, self.block, self.window, self.pass.z_chunk, K);
        let (bx, by) = self.block;
        let mut shared = vec![T::NAN; shared_elems(K) as usize];
        for bz in self.ordered(shape.grid.2) {
            for by_ in self.ordered(shape.grid.1) {
                for bx_ in self.ordered(shape.grid.0) {
                    let t =
                        Tile::<K>::new(self.g, self.block, (bx_, by_, bz), self.window, self.pass.z_chunk);
                    assert_eq!(t.shared_elems(), shared.len());
                    shared.fill(T::NAN);
                    let columns: Vec<Column> =
                        (0..bx * by).map(|n| Column::new::<T, K>(&t, n % bx, n / bx)).collect();
                    // SAFETY: `shared` holds the tile's elements; `emulate`
                    // checked the buffers; the blocks write disjoint owned
                    // cells of the `_next` buffers and read only `u` and
                    // `local`.
                    unsafe {
                        let mut regs: Vec<_> =
                            columns.iter().map(|c| Registers::start::<M, K>(&t, c, args)).collect();
                        let sh = Shared::new(shared.as_mut_ptr(), shared.len());
                        for it in t.iterations() {
                            for thread in self.ordered(bx * by) {
                                let n = thread as usize;
                                if args.rec.activation != 0 {
                                    iteration::<M, T, K, true>(&t, &columns[n], &mut regs[n], it, sh, args);
                                } else {
                                    iteration::<M, T, K, false>(&t, &columns[n], &mut regs[n], it, sh, args);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

//! Four consecutive cells of a row moved as one aligned block: one 128-bit
//! load or store in f32 (two in f64) where four scalar accesses would cost
//! four instructions. The kernels that step several cells per thread
//! (`crate::kernels::columns`, built for the GPU only) read and write the fields through it.

/// Cells `i..i + 4` of a field, aligned to 16 bytes (so f32 quads are
/// exactly one `ld.v4.f32`; f64 quads, 32 bytes, two `ld.v2.f64`).
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad<T>(pub [T; 4]);

/// Cells per quad.
pub const QUAD: u32 = 4;

/// Reads cells `i..i + 4` of `base`.
///
/// # Safety
/// `base` holds at least `i + 4` elements, and `base + i` is 16-byte
/// aligned (`i` a multiple of 4 and `base` 16-byte aligned).
#[inline(always)]
pub unsafe fn load<T: Copy>(base: *const T, i: usize) -> [T; 4] {
    // SAFETY: forwarded from the caller.
    unsafe { (*(base.add(i) as *const Quad<T>)).0 }
}

/// Writes cells `i..i + 4` of `base`.
///
/// # Safety
/// As [`load`], and `base` is writable.
#[inline(always)]
pub unsafe fn store<T: Copy>(base: *mut T, i: usize, cells: [T; 4]) {
    // SAFETY: forwarded from the caller.
    unsafe { *(base.add(i) as *mut Quad<T>) = Quad(cells) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quads_move_four_cells_in_order() {
        let mut field = Quad([0f32; 4]);
        let mut big = [Quad([0f64; 4]); 2];
        // SAFETY: both buffers are aligned quads.
        unsafe {
            store(field.0.as_mut_ptr(), 0, [1.0, 2.0, 3.0, 4.0]);
            assert_eq!(load(field.0.as_ptr(), 0), [1.0, 2.0, 3.0, 4.0]);
            let p = big.as_mut_ptr() as *mut f64;
            store(p, 4, [5.0, 6.0, 7.0, 8.0]);
            assert_eq!(load(p, 4), [5.0, 6.0, 7.0, 8.0]);
        }
        assert_eq!(big[1].0, [5.0, 6.0, 7.0, 8.0]);
        assert_eq!((align_of::<Quad<f32>>(), size_of::<Quad<f32>>(), size_of::<Quad<f64>>()), (16, 16, 32));
    }
}

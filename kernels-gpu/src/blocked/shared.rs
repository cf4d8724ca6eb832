//! A block's shared memory as the levels of a pass address it: byte
//! offsets from one base, `ld.shared`/`st.shared` on the GPU and plain
//! loads and stores on the CPU, so the emulator runs the same accesses.

/// One `ld.shared` or `st.shared` of a `width`-bit element at a 32-bit
/// address in the shared window, the value in a register of `class`
/// (`Shared::get` and `Shared::set` in f32 and f64). Expands to an `asm!`,
/// so it is used inside `unsafe`.
#[cfg(target_arch = "nvptx64")]
macro_rules! shared_access {
    (ld, $width:literal, $bits:ty, $class:ident, $addr:expr) => {{
        let bits: $bits;
        core::arch::asm!(
            concat!("ld.shared.b", $width, " {v}, [{a}];"),
            v = out($class) bits,
            a = in(reg32) $addr,
            options(readonly, nostack, preserves_flags),
        );
        bits
    }};
    (st, $width:literal, $class:ident, $addr:expr, $value:expr) => {
        core::arch::asm!(
            concat!("st.shared.b", $width, " [{a}], {v};"),
            a = in(reg32) $addr,
            v = in($class) $value,
            options(nostack, preserves_flags),
        )
    };
}

/// A block's shared memory, addressed by byte offsets (u32, so that a
/// neighbour is one integer add away): a pointer and its length in
/// elements (checked in debug builds, which the emulator's tests are). On
/// the GPU the accesses are `ld.shared` and `st.shared` with 32-bit
/// addresses: through the generic pointer every access cost a 64-bit
/// conversion and add besides the 32-bit one (the nvptx64 target keeps
/// shared pointers 64 bits wide).
#[derive(Clone, Copy)]
pub struct Shared<T> {
    #[cfg(not(target_arch = "nvptx64"))]
    ptr: *mut T,
    len: usize,
    /// The memory's address in the shared window.
    #[cfg(target_arch = "nvptx64")]
    window: u32,
    #[cfg(target_arch = "nvptx64")]
    element: core::marker::PhantomData<*mut T>,
}

impl<T: Copy> Shared<T> {
    /// # Safety
    /// `ptr` holds `len` elements, readable and writable for as long as
    /// the value is used; on the GPU it points into the block's shared memory.
    #[inline(always)]
    pub unsafe fn new(ptr: *mut T, len: usize) -> Self {
        #[cfg(target_arch = "nvptx64")]
        {
            let window: u32;
            // SAFETY: address arithmetic on a register, touches no memory.
            unsafe {
                core::arch::asm!(
                    "{{ .reg .u64 s; cvta.to.shared.u64 s, {p}; cvt.u32.u64 {w}, s; }}",
                    p = in(reg64) ptr as u64,
                    w = out(reg32) window,
                    options(pure, nomem, nostack, preserves_flags),
                );
            }
            Self { len, window, element: core::marker::PhantomData }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        Self { ptr, len }
    }

    /// The element at byte offset `at`.
    ///
    /// # Safety
    /// `at` is a multiple of the element's size inside the memory.
    #[inline(always)]
    pub(super) unsafe fn get(self, at: u32) -> T {
        self.check(at);
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: inside the memory (the tile's index arithmetic); the
        // element is 4 or 8 bytes (f32, f64), read as its bits.
        unsafe {
            let addr = self.window.wrapping_add(at);
            if core::mem::size_of::<T>() == 4 {
                core::mem::transmute_copy(&shared_access!(ld, "32", u32, reg32, addr))
            } else {
                core::mem::transmute_copy(&shared_access!(ld, "64", u64, reg64, addr))
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        // SAFETY: inside the memory (the tile's index arithmetic; checked in debug).
        unsafe {
            *self.ptr.byte_add(at as usize)
        }
    }

    /// Writes the element at byte offset `at`.
    ///
    /// # Safety
    /// As [`Shared::get`].
    #[inline(always)]
    pub(super) unsafe fn set(self, at: u32, v: T) {
        self.check(at);
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: as in `get`.
        unsafe {
            let addr = self.window.wrapping_add(at);
            if core::mem::size_of::<T>() == 4 {
                shared_access!(st, "32", reg32, addr, core::mem::transmute_copy::<T, u32>(&v));
            } else {
                shared_access!(st, "64", reg64, addr, core::mem::transmute_copy::<T, u64>(&v));
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        // SAFETY: as in `get`.
        unsafe {
            *self.ptr.byte_add(at as usize) = v
        }
    }

    #[inline(always)]
    fn check(self, at: u32) {
        let size = core::mem::size_of::<T>();
        debug_assert!((at as usize).is_multiple_of(size), "shared offset {at} not a multiple of {size}");
        debug_assert!(at as usize / size < self.len, "shared index {} of {}", at as usize / size, self.len);
    }
}

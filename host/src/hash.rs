//! FNV-1a, the 64-bit hash of the checkpoints' checksum and of a tissue
//! operator's fingerprint: a few lines, no dependency, and the same
//! value on every platform.

/// FNV-1a, 64 bits (Fowler, Noll, Vo): offset basis 0xcbf29ce484222325,
/// prime 0x100000001b3.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a64 {
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_published_vectors() {
        let hash = |s: &[u8]| {
            let mut h = Fnv1a64::default();
            h.update(s);
            h.finish()
        };
        assert_eq!(hash(b""), 0xcbf29ce484222325);
        assert_eq!(hash(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(hash(b"foobar"), 0x85944171f73967e8);
    }
}

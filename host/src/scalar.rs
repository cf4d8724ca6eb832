//! The compute precisions, as a type bound and as a run-time choice.

use cudarc::driver::{DeviceRepr, ValidAsZeroBits};
use kernels_gpu::Real;

/// A precision fibril can run in: the shared math of [`Real`] plus what the
/// host needs to move it around (threads, device buffers, file formats).
pub trait Scalar: Real + Send + Sync + DeviceRepr + ValidAsZeroBits + Unpin {
    const PRECISION: Precision;
    /// Little-endian bytes, for the file writers.
    fn to_le_bytes_vec(values: &[Self]) -> Vec<u8> {
        let mut out = Vec::with_capacity(values.len() * Self::BYTES);
        Self::extend_le_bytes(values, &mut out);
        out
    }
    /// Appends the little-endian bytes of `values` to `out` (no copy in between).
    fn extend_le_bytes(values: &[Self], out: &mut Vec<u8>);
}

impl Scalar for f32 {
    const PRECISION: Precision = Precision::F32;
    fn extend_le_bytes(values: &[Self], out: &mut Vec<u8>) {
        out.extend(values.iter().flat_map(|x| x.to_le_bytes()));
    }
}

impl Scalar for f64 {
    const PRECISION: Precision = Precision::F64;
    fn extend_le_bytes(values: &[Self], out: &mut Vec<u8>) {
        out.extend(values.iter().flat_map(|x| x.to_le_bytes()));
    }
}

/// Floating-point precision of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    F32,
    F64,
}

impl Precision {
    pub const fn bytes(self) -> usize {
        match self {
            Precision::F32 => 4,
            Precision::F64 => 8,
        }
    }

    /// Name of the precision, "f32" or "f64" (the suffix of its kernel
    /// entry points, from [`Real::NAME`]).
    pub const fn name(self) -> &'static str {
        match self {
            Precision::F32 => <f32 as Real>::NAME,
            Precision::F64 => <f64 as Real>::NAME,
        }
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

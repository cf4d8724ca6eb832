//! A model's coefficients as the kernels of one GPU see them: with a rate
//! table (`--rate-tables`), the host table is copied to the GPU and the
//! coefficients point at the copy, which the solver keeps as long as it
//! launches with them.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};
use kernels_gpu::CellModel;

use super::cuda::cuda;
use crate::domain::Domain;
use crate::rate_tables::host_rows;
use crate::scalar::Scalar;
use crate::solver::SolverError;

/// A model's coefficients for one GPU's kernels, and the device copy of
/// the rate table they point at (`None` without one), which must outlive
/// every launch with these coefficients.
pub struct DeviceCoeffs<M: CellModel, T: Scalar> {
    pub coeffs: M::Coeffs<T>,
    pub table: Option<CudaSlice<T>>,
}

/// The domain's model coefficients for kernels on `stream`'s GPU.
pub fn device_coeffs<M: CellModel, T: Scalar>(
    domain: &Domain,
    stream: &Arc<CudaStream>,
) -> Result<DeviceCoeffs<M, T>, SolverError> {
    on_device(domain.model_coeffs::<M, T>(), stream)
}

/// Coefficients of the host (a uniform run's or one parameter set's) for
/// kernels on `stream`'s GPU: their rate table, if any, copied there.
pub fn on_device<M: CellModel, T: Scalar>(
    coeffs: M::Coeffs<T>,
    stream: &Arc<CudaStream>,
) -> Result<DeviceCoeffs<M, T>, SolverError> {
    let Some(rows) = host_rows::<M, T>(&coeffs) else {
        return Ok(DeviceCoeffs { coeffs, table: None });
    };
    let table = stream.clone_htod(rows).map_err(cuda("uploading the rate table"))?;
    let address = table.device_ptr(stream).0;
    let on_device = M::rate_table(&coeffs).moved_to(address);
    Ok(DeviceCoeffs { coeffs: M::with_rate_table(coeffs, on_device), table: Some(table) })
}

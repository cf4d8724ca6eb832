//! A solver's coefficients on one GPU: those passed by value, and where
//! the parameters vary, the table of sets and the set of each stored
//! cell uploaded, with the `_sets` kernels to read them.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};
use kernels_gpu::CellModel;
use kernels_gpu::params::ParamSets;
use kernels_gpu::registry::Kernel;

use super::coeffs::CellCoeffs;
use crate::backend::gpu::cuda::{ByValue, cuda};
use crate::backend::gpu::tables::{DeviceCoeffs, on_device};
use crate::domain::Domain;
use crate::scalar::Scalar;
use crate::solver::SolverError;

/// The step kernel of a tissue or mesh solver of `domain`: `kernel`
/// itself, or its `_sets` variant where the parameters vary (and the
/// solver's [`DeviceCellCoeffs`] carry the sets it reads).
pub fn step_kernel(domain: &Domain, kernel: Kernel) -> Kernel {
    match domain.parameter_sets() {
        None => kernel,
        Some(_) => kernel.with_parameter_sets().expect("the tissue and mesh kernels have a _sets variant"),
    }
}

/// The coefficients of a solver's stored cells on one GPU, and the
/// device memory they point at, which lives as long as they do.
pub struct DeviceCellCoeffs<M: CellModel, T: Scalar> {
    base: DeviceCoeffs<M, T>,
    sets: Option<DeviceSets<M, T>>,
}

struct DeviceSets<M: CellModel, T: Scalar> {
    /// The sets' coefficients, each pointing at its rate table (if any).
    table: CudaSlice<ByValue<M::Coeffs<T>>>,
    index: CudaSlice<u16>,
    /// The sets' rate tables (none without `--rate-tables`).
    _rate_tables: Vec<DeviceCoeffs<M, T>>,
    params: ParamSets,
}

impl<M: CellModel, T: Scalar> DeviceCellCoeffs<M, T> {
    /// `host`'s coefficients on `stream`'s GPU.
    pub fn upload(host: &CellCoeffs<M, T>, stream: &Arc<CudaStream>) -> Result<Self, SolverError> {
        let base = on_device::<M, T>(*host.base(), stream)?;
        let sets = match host.table() {
            None => None,
            Some((table, index)) => {
                let rate_tables =
                    table.iter().map(|c| on_device::<M, T>(*c, stream)).collect::<Result<Vec<_>, _>>()?;
                let coeffs: Vec<ByValue<M::Coeffs<T>>> =
                    rate_tables.iter().map(|d| ByValue(d.coeffs)).collect();
                let table = stream.clone_htod(&coeffs).map_err(cuda("uploading the parameter sets"))?;
                let index = stream.clone_htod(index).map_err(cuda("uploading the cells' parameter sets"))?;
                let params =
                    ParamSets { table: table.device_ptr(stream).0, index: index.device_ptr(stream).0 };
                Some(DeviceSets { table, index, _rate_tables: rate_tables, params })
            }
        };
        Ok(Self { base, sets })
    }

    /// The coefficients every step kernel takes by value.
    pub fn coeffs(&self) -> M::Coeffs<T> {
        self.base.coeffs
    }

    /// The sets, for the `_sets` kernels; `None` where nothing varies.
    pub fn sets(&self) -> Option<ParamSets> {
        self.sets.as_ref().map(|s| s.params)
    }

    /// Device bytes of the sets (the table and the per-cell index; the
    /// rate tables not counted), for the reports of what varying
    /// parameters cost.
    pub fn bytes(&self) -> usize {
        self.sets.as_ref().map_or(0, |s| {
            s.table.len() * std::mem::size_of::<M::Coeffs<T>>() + s.index.len() * std::mem::size_of::<u16>()
        })
    }
}

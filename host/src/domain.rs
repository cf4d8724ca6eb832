//! The simulated problem: grid, spacing, time step, diffusion and model.
//!
//! A [`Domain`] can only be built through [`Domain::new`], which refuses
//! what cannot run (an empty axis, non-positive steps, an unstable
//! explicit scheme), so every backend may assume a valid one. Parameters
//! of the model are checked when the [`ModelSetup`] is made.

use kernels_gpu::{CellModel, GridDims, StepCoeffs};
use serde::Serialize;
use thiserror::Error;

use crate::numbers::{Round, readable};

use std::sync::Arc;

use crate::cell_params::ParameterSets;
use crate::models::{ModelSetup, ParameterValue};
use crate::scalar::Scalar;

/// The largest total number of cells: far above any memory, and below the
/// point where cell counts stop being exact in f64 arithmetic.
pub const MAX_CELLS: u64 = 1 << 52;

/// Why a domain was refused. Each message names the fix.
#[derive(Debug, Error, PartialEq)]
pub enum DomainError {
    #[error("{axis} = 0: every axis needs at least one cell; use --size or --{axis} 1 or more")]
    EmptyAxis { axis: &'static str },
    #[error("a {nx}x{ny}x{nz} grid has more cells than fibril can index; use a smaller grid")]
    TooManyCells { nx: u32, ny: u32, nz: u32 },
    #[error("{name} must be a positive number, got {value}; pass --{name} with a value > 0")]
    NotPositive { name: &'static str, value: f64 },
    #[error(
        "unstable time step: D*dt/dx^2 = {} exceeds 1/{} = {limit:.4} (forward Euler on a grid with \
         {axes} axes of two cells or more); use --dt {} or smaller (with dx = {dx}), or --dx {} \
         or larger (with dt = {dt})",
        readable(*number, 4, Round::Nearest),
        2 * axes,
        readable(*dt_max, 6, Round::Down),
        readable(*dx_min, 6, Round::Up)
    )]
    Unstable { number: f64, limit: f64, axes: u32, dt: f64, dx: f64, dt_max: f64, dx_min: f64 },
}

/// A validated simulation domain.
#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    dims: GridDims,
    /// Grid spacing h = dx = dy = dz, in the model's space unit.
    dx: f64,
    /// Time step in the model's time unit (ms, or read as ms).
    dt_ms: f64,
    /// Diffusion coefficient D of variable 0 (space unit^2 / time unit).
    diffusion: f64,
    model: ModelSetup,
    /// A fingerprint of a tissue's operator (its cells, labels and
    /// weights; `None` for the isotropic box), so that a checkpoint of one
    /// tissue does not resume on another; with parameter sets, their
    /// fingerprint folded in.
    operator: Option<u64>,
    /// The model's parameters cell by cell, where they vary
    /// ([`crate::cell_params`]); `None` where every cell has `model`'s.
    parameter_sets: Option<Arc<ParameterSets>>,
}

/// The model of a run as summaries record it.
#[derive(Clone, Debug, Serialize)]
pub struct ModelRecord {
    pub name: &'static str,
    pub title: &'static str,
    pub preset: Option<&'static str>,
    pub parameters: Vec<ParameterValue>,
    /// Variable names, the diffusing one first.
    pub variables: Vec<&'static str>,
    pub time_unit: &'static str,
    pub space_unit: &'static str,
    /// "fast" (tanh from a table, within 8e-8) or "exact" (`--exact-math`),
    /// followed by "+tables" where the ionic model read its rate table
    /// (`--rate-tables`).
    pub math: String,
}

/// The parameters of a [`Domain`] as they appear in run summaries.
#[derive(Clone, Debug, Serialize)]
pub struct DomainRecord {
    pub nx: u32,
    pub ny: u32,
    pub nz: u32,
    pub dx: f64,
    pub dt_ms: f64,
    pub diffusion: f64,
    /// D dt / h^2.
    pub diffusion_number: f64,
    pub model: ModelRecord,
    /// The parameters that vary cell by cell, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameter_sets: Option<ParameterSetsRecord>,
}

/// The parameter sets of a heterogeneous tissue as summaries record them.
#[derive(Clone, Debug, Serialize)]
pub struct ParameterSetsRecord {
    /// Distinct sets (the run's own parameters are set 0).
    pub sets: usize,
    /// The parameters whose value differs between the sets.
    pub varying: Vec<&'static str>,
}

/// Forward Euler with the (2 axes + 1)-point Laplacian is stable for
/// D dt / h^2 <= 1 / (2 axes) (von Neumann; Fenton & Karma 1998, sec.
/// III.B: 1/6 in 3D); a single cell has no diffusion limit.
pub fn max_diffusion_number(axes: u32) -> f64 {
    if axes == 0 { f64::INFINITY } else { 1.0 / (2.0 * axes as f64) }
}

impl Domain {
    pub fn new(
        dims: GridDims,
        dx: f64,
        dt_ms: f64,
        diffusion: f64,
        model: ModelSetup,
    ) -> Result<Self, DomainError> {
        let domain = Self::with_own_operator(dims, dx, dt_ms, diffusion, model)?;
        let number = diffusion * dt_ms / (dx * dx);
        let axes = dims.axes();
        let limit = max_diffusion_number(axes);
        if number > limit {
            return Err(DomainError::Unstable {
                number,
                limit,
                axes,
                dt: dt_ms,
                dx,
                dt_max: limit * dx * dx / diffusion,
                dx_min: (diffusion * dt_ms / limit).sqrt(),
            });
        }
        Ok(domain)
    }

    /// A domain whose diffusion is an operator of its own (a tissue's
    /// weights, `crate::tissue`), which checks its own stability
    /// (`tissue::Operator::check_dt`): every check of [`Domain::new`] but
    /// the isotropic limit. `diffusion` is the largest coefficient, for
    /// the records.
    pub fn with_own_operator(
        dims: GridDims,
        dx: f64,
        dt_ms: f64,
        diffusion: f64,
        model: ModelSetup,
    ) -> Result<Self, DomainError> {
        for (axis, cells) in [("nx", dims.nx), ("ny", dims.ny), ("nz", dims.nz)] {
            if cells == 0 {
                return Err(DomainError::EmptyAxis { axis });
            }
        }
        if dims.checked_cells().is_none_or(|c| c > MAX_CELLS) {
            return Err(DomainError::TooManyCells { nx: dims.nx, ny: dims.ny, nz: dims.nz });
        }
        for (name, value) in [("dx", dx), ("dt", dt_ms), ("diffusion", diffusion)] {
            if !(value > 0.0 && value.is_finite()) {
                return Err(DomainError::NotPositive { name, value });
            }
        }
        Ok(Self { dims, dx, dt_ms, diffusion, model, operator: None, parameter_sets: None })
    }

    /// The same problem on a grid of `nz` slices (a z-sub-domain with its
    /// halos); nx and ny, spacing, step and model are unchanged, so it is
    /// as valid as `self` for any `nz >= 3` when `self` is a 3D grid.
    pub fn with_nz(&self, nz: u32) -> Domain {
        assert!(nz >= 3, "a sub-domain has at least one owned slice and two halos");
        Domain { dims: GridDims::new(self.dims.nx, self.dims.ny, nz), ..self.clone() }
    }

    pub fn dims(&self) -> GridDims {
        self.dims
    }
    pub fn dx(&self) -> f64 {
        self.dx
    }
    pub fn dt_ms(&self) -> f64 {
        self.dt_ms
    }
    pub fn diffusion(&self) -> f64 {
        self.diffusion
    }
    pub fn model(&self) -> &ModelSetup {
        &self.model
    }
    /// The same domain with the fingerprint of its tissue's operator.
    pub fn with_operator_fingerprint(self, fingerprint: u64) -> Self {
        Self { operator: Some(fingerprint), ..self }
    }
    /// The fingerprint of the tissue's operator (`None` for the box).
    pub fn operator_fingerprint(&self) -> Option<u64> {
        self.operator
    }
    /// The same domain with the model's parameters varying cell by cell
    /// as `sets` says (over the box's cells, or a mesh's nodes in the
    /// solver's order); their fingerprint joins the operator's, so that a
    /// checkpoint resumes only where the cells have the same parameters.
    pub fn with_parameter_sets(self, sets: Arc<ParameterSets>) -> Self {
        let mut h = crate::hash::Fnv1a64::default();
        h.update(&self.operator.unwrap_or(0).to_le_bytes());
        h.update(&sets.fingerprint().to_le_bytes());
        Self { operator: Some(h.finish()), parameter_sets: Some(sets), ..self }
    }
    /// The model's parameters cell by cell (`None`: every cell has
    /// [`Domain::model`]'s).
    pub fn parameter_sets(&self) -> Option<&Arc<ParameterSets>> {
        self.parameter_sets.as_ref()
    }
    pub fn cells(&self) -> usize {
        self.dims.cells()
    }

    /// D dt / h^2.
    pub fn diffusion_number(&self) -> f64 {
        self.diffusion * self.dt_ms / (self.dx * self.dx)
    }

    /// The numerics' per-step constants in precision `T`, rounded once
    /// here and used unchanged by every backend (so CPU and GPU see
    /// identical bits).
    pub fn step_coeffs<T: Scalar>(&self) -> StepCoeffs<T> {
        StepCoeffs::new(self.dt_ms, self.diffusion_number())
    }

    /// The model's coefficients in precision `T` (`M` must be the domain's model).
    pub fn model_coeffs<M: CellModel, T: Scalar>(&self) -> M::Coeffs<T> {
        self.model.coeffs::<M, T>(self.dt_ms)
    }

    /// The step in ms for real-time factors: dt itself for models in ms; a
    /// dimensionless model's time unit counts as its `ms_per_time_unit` ms.
    pub fn dt_real_ms(&self) -> f64 {
        self.dt_ms * self.model.info().units.ms_per_time_unit
    }

    /// Number of steps that cover `duration_ms` (rounded to the nearest step).
    pub fn steps_for(&self, duration_ms: f64) -> u64 {
        (duration_ms / self.dt_ms).round() as u64
    }

    pub fn record(&self) -> DomainRecord {
        let info = self.model.info();
        DomainRecord {
            nx: self.dims.nx,
            ny: self.dims.ny,
            nz: self.dims.nz,
            dx: self.dx,
            dt_ms: self.dt_ms,
            diffusion: self.diffusion,
            diffusion_number: self.diffusion_number(),
            model: ModelRecord {
                name: info.name,
                title: info.title,
                preset: self.model.preset(),
                parameters: self.model.parameters(),
                variables: info.variables.iter().map(|v| v.name).collect(),
                time_unit: info.units.time,
                space_unit: info.units.space,
                math: self.model.math_name(),
            },
            parameter_sets: self
                .parameter_sets
                .as_ref()
                .map(|p| ParameterSetsRecord { sets: p.len(), varying: p.varying().to_vec() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn karma() -> ModelSetup {
        ModelSetup::new("karma", None, &[]).unwrap()
    }

    fn domain(dims: GridDims, dx: f64, dt: f64) -> Result<Domain, DomainError> {
        Domain::new(dims, dx, dt, 1.0, karma())
    }

    #[test]
    fn accepts_the_default_setup() {
        let d = domain(GridDims::new(8, 8, 8), 0.6, 0.05).unwrap();
        assert!((d.diffusion_number() - 0.05 / 0.36).abs() < 1e-15);
        assert_eq!(d.steps_for(1000.0), 20_000);
    }

    #[test]
    fn accepts_sheets_cables_and_single_cells_and_refuses_empty_axes() {
        for dims in
            [GridDims::new(8, 8, 1), GridDims::new(8, 1, 1), GridDims::new(1, 1, 1), GridDims::new(2, 2, 2)]
        {
            domain(dims, 0.6, 0.05).unwrap();
        }
        let e = domain(GridDims::new(8, 0, 8), 0.6, 0.05).unwrap_err();
        assert_eq!(e, DomainError::EmptyAxis { axis: "ny" });
        assert!(e.to_string().contains("--ny 1 or more"));
        let e = domain(GridDims::new(u32::MAX, u32::MAX, 2), 0.6, 0.05).unwrap_err();
        assert!(matches!(e, DomainError::TooManyCells { .. }));
    }

    #[test]
    fn refuses_non_positive_steps() {
        assert!(matches!(
            domain(GridDims::new(8, 8, 8), 0.0, 0.05),
            Err(DomainError::NotPositive { name: "dx", .. })
        ));
        assert!(matches!(
            domain(GridDims::new(8, 8, 8), 0.6, -1.0),
            Err(DomainError::NotPositive { name: "dt", .. })
        ));
        assert!(matches!(
            domain(GridDims::new(8, 8, 8), 0.6, f64::NAN),
            Err(DomainError::NotPositive { name: "dt", .. })
        ));
    }

    #[test]
    fn unstable_step_names_stable_choices() {
        let e = domain(GridDims::new(8, 8, 8), 0.5, 0.05).unwrap_err();
        let DomainError::Unstable { dt_max, dx_min, .. } = e else { panic!("{e:?}") };
        assert!((dt_max - 0.25 / 6.0).abs() < 1e-12);
        assert!((dx_min - (0.3f64).sqrt()).abs() < 1e-12);
        // The suggested values are themselves accepted.
        assert!(domain(GridDims::new(8, 8, 8), 0.5, dt_max).is_ok());
        assert!(domain(GridDims::new(8, 8, 8), dx_min * (1.0 + 1e-12), 0.05).is_ok());
    }

    #[test]
    fn the_stability_limit_follows_the_number_of_axes() {
        // D dt / h^2 = 0.2: unstable in 3D (1/6), stable in 2D (1/4).
        assert!(domain(GridDims::new(8, 8, 8), 0.5, 0.05).is_err());
        assert!(domain(GridDims::new(8, 1, 8), 0.5, 0.05).is_ok());
        // 0.4: only a cable (1/2); a single cell has no limit.
        assert!(domain(GridDims::new(8, 8, 1), 0.5, 0.1).is_err());
        assert!(domain(GridDims::new(1, 8, 1), 0.5, 0.1).is_ok());
        assert!(domain(GridDims::new(1, 1, 1), 0.1, 10.0).is_ok());
        let e = domain(GridDims::new(8, 8, 1), 0.5, 0.1).unwrap_err().to_string();
        assert!(e.contains("exceeds 1/4") && e.contains("2 axes"), "{e}");
    }

    #[test]
    fn coeffs_are_rounded_from_f64_once() {
        let d = domain(GridDims::new(8, 8, 8), 0.6, 0.05).unwrap();
        let s = d.step_coeffs::<f32>();
        assert_eq!(s.diffusion_number, (0.05f64 / 0.36) as f32);
        let c = d.model_coeffs::<kernels_gpu::models::Karma, f32>();
        assert_eq!(c.inv_vstar, (1.0f64 / 0.6) as f32);
        assert_eq!(c.m, 4);
    }
}

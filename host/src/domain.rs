//! The simulated problem: grid, spacing, time step, diffusion and model.
//!
//! A [`Domain`] can only be built through [`Domain::new`], which refuses
//! what cannot run (too few cells, non-positive steps, an unstable
//! explicit scheme), so every backend may assume a valid one.

use kernels_gpu::{GridDims, KarmaCoeffs, Reaction};
use serde::Serialize;
use thiserror::Error;

use crate::params::KarmaParams;
use crate::scalar::Scalar;

/// Forward Euler with the 7-point Laplacian is stable for D dt / h^2 <= 1/6
/// in 3D (von Neumann; Fenton & Karma 1998, sec. III.B).
pub const MAX_DIFFUSION_NUMBER: f64 = 1.0 / 6.0;

/// Smallest number of cells per axis: the mirror rule needs an interior
/// neighbour on each side of a boundary cell.
pub const MIN_CELLS_PER_AXIS: u32 = 3;

/// Why a domain was refused. Each message names the fix.
#[derive(Debug, Error, PartialEq)]
pub enum DomainError {
    #[error(
        "{axis} = {cells} is too small: every axis needs at least {MIN_CELLS_PER_AXIS} cells \
         (the no-flux boundary mirrors an interior neighbour); use --size or --{axis} {MIN_CELLS_PER_AXIS} or more"
    )]
    TooFewCells { axis: &'static str, cells: u32 },
    #[error("{name} must be a positive number, got {value}; pass --{name} with a value > 0")]
    NotPositive { name: &'static str, value: f64 },
    #[error(
        "unstable time step: D*dt/dx^2 = {number:.4} exceeds 1/6 = 0.1667 (forward Euler in 3D); \
         use --dt {dt_max:.6} or smaller (with dx = {dx}), or --dx {dx_min:.6} or larger (with dt = {dt})"
    )]
    Unstable { number: f64, dt: f64, dx: f64, dt_max: f64, dx_min: f64 },
    #[error("{name} = {value} is outside the model's range: {why}")]
    BadParameter { name: &'static str, value: f64, why: &'static str },
}

/// A validated simulation domain.
#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    dims: GridDims,
    /// Grid spacing h = dx = dy = dz, in the model's space unit.
    dx: f64,
    /// Time step in the model's time unit, read as ms (the paper's convention).
    dt_ms: f64,
    /// Diffusion coefficient D (space unit^2 / time unit).
    diffusion: f64,
    karma: KarmaParams,
    reaction: Reaction,
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
    pub karma: KarmaParams,
    /// "karma" or "off" (pure diffusion).
    pub reaction: &'static str,
}

impl Domain {
    pub fn new(
        dims: GridDims,
        dx: f64,
        dt_ms: f64,
        diffusion: f64,
        karma: KarmaParams,
        reaction: Reaction,
    ) -> Result<Self, DomainError> {
        for (axis, cells) in [("nx", dims.nx), ("ny", dims.ny), ("nz", dims.nz)] {
            if cells < MIN_CELLS_PER_AXIS {
                return Err(DomainError::TooFewCells { axis, cells });
            }
        }
        for (name, value) in [("dx", dx), ("dt", dt_ms), ("diffusion", diffusion)] {
            if !(value > 0.0 && value.is_finite()) {
                return Err(DomainError::NotPositive { name, value });
            }
        }
        let number = diffusion * dt_ms / (dx * dx);
        if number > MAX_DIFFUSION_NUMBER {
            return Err(DomainError::Unstable {
                number,
                dt: dt_ms,
                dx,
                dt_max: MAX_DIFFUSION_NUMBER * dx * dx / diffusion,
                dx_min: (diffusion * dt_ms / MAX_DIFFUSION_NUMBER).sqrt(),
            });
        }
        check_karma(&karma)?;
        Ok(Self { dims, dx, dt_ms, diffusion, karma, reaction })
    }

    /// The same problem on a grid of `nz` slices (a z-sub-domain with its
    /// halos); nx and ny, spacing, step and model are unchanged, so it is
    /// as valid as `self` for any `nz >= 3`.
    pub fn with_nz(&self, nz: u32) -> Domain {
        assert!(nz >= MIN_CELLS_PER_AXIS, "a sub-domain has at least one owned slice and two halos");
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
    pub fn karma(&self) -> &KarmaParams {
        &self.karma
    }
    pub fn reaction(&self) -> Reaction {
        self.reaction
    }
    pub fn cells(&self) -> usize {
        self.dims.cells()
    }

    pub fn record(&self) -> DomainRecord {
        DomainRecord {
            nx: self.dims.nx,
            ny: self.dims.ny,
            nz: self.dims.nz,
            dx: self.dx,
            dt_ms: self.dt_ms,
            diffusion: self.diffusion,
            diffusion_number: self.diffusion_number(),
            karma: self.karma,
            reaction: match self.reaction {
                Reaction::Off => "off",
                Reaction::Karma => "karma",
            },
        }
    }

    /// D dt / h^2.
    pub fn diffusion_number(&self) -> f64 {
        self.diffusion * self.dt_ms / (self.dx * self.dx)
    }

    /// The per-step constants in precision `T`, rounded once here and used
    /// unchanged by every backend (so CPU and GPU see identical bits).
    pub fn coeffs<T: Scalar>(&self) -> KarmaCoeffs<T> {
        KarmaCoeffs {
            dt: T::from_f64(self.dt_ms),
            diffusion_number: T::from_f64(self.diffusion_number()),
            gamma: T::from_f64(self.karma.gamma),
            inv_vstar: T::from_f64(1.0 / self.karma.vstar),
            dt_eps: T::from_f64(self.dt_ms * self.karma.eps),
            m: self.karma.m,
            reaction: self.reaction as u32,
        }
    }

    /// Number of steps that cover `duration_ms` (rounded to the nearest step).
    pub fn steps_for(&self, duration_ms: f64) -> u64 {
        (duration_ms / self.dt_ms).round() as u64
    }
}

fn check_karma(k: &KarmaParams) -> Result<(), DomainError> {
    let checks = [
        ("gamma", k.gamma, k.gamma.is_finite(), "it must be a finite number"),
        ("eps", k.eps, k.eps > 0.0 && k.eps.is_finite(), "it must be > 0"),
        ("vstar", k.vstar, k.vstar > 0.0 && k.vstar.is_finite(), "it must be > 0"),
        ("m", k.m as f64, k.m <= 64, "use an exponent between 0 and 64"),
    ];
    for (name, value, ok, why) in checks {
        if !ok {
            return Err(DomainError::BadParameter { name, value, why });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn domain(dims: GridDims, dx: f64, dt: f64) -> Result<Domain, DomainError> {
        Domain::new(dims, dx, dt, 1.0, KarmaParams::default(), Reaction::Karma)
    }

    #[test]
    fn accepts_the_default_setup() {
        let d = domain(GridDims::new(8, 8, 8), 0.6, 0.05).unwrap();
        assert!((d.diffusion_number() - 0.05 / 0.36).abs() < 1e-15);
        assert_eq!(d.steps_for(1000.0), 20_000);
    }

    #[test]
    fn refuses_small_axes() {
        let e = domain(GridDims::new(8, 2, 8), 0.6, 0.05).unwrap_err();
        assert_eq!(e, DomainError::TooFewCells { axis: "ny", cells: 2 });
        assert!(e.to_string().contains("--ny 3 or more"));
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
    fn coeffs_are_rounded_from_f64_once() {
        let d = domain(GridDims::new(8, 8, 8), 0.6, 0.05).unwrap();
        let c32 = d.coeffs::<f32>();
        assert_eq!(c32.diffusion_number, (0.05f64 / 0.36) as f32);
        assert_eq!(c32.inv_vstar, (1.0f64 / 0.6) as f32);
        assert_eq!(c32.m, 4);
    }
}

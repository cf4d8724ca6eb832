//! A stimulus as a run configuration writes it ([`StimulusSpec`]), and its
//! compilation against the grid, the time step and the model into a
//! [`Stimulus`], every mistake named with its fix; the membrane that turns
//! a current density into a current, and the paper's S2 regions.

use kernels_gpu::{GridDims, ModelInfo};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::compiled::{Action, Stimulus};
use super::region::{Mask, Region, RegionKind};
use crate::init::{cross_axis, planar_stimulus_slices, wave_axis};
use crate::time::{ms_to_steps, short};

/// Why a stimulus was refused. Each message names the stimulus and the fix.
#[derive(Debug, Error, PartialEq)]
pub enum StimulusError {
    #[error("stimulus {index} (region = \"{region}\"): {what}")]
    Invalid { index: usize, region: &'static str, what: String },
}

/// A stimulus as the user writes it (a `[[stimulus]]` table of a run
/// configuration): times in ms, the region's fields flat in one table.
/// Fields that the region does not take are refused by [`StimulusSpec::compile`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StimulusSpec {
    pub region: RegionKind,
    /// When it starts, ms (a whole number of time steps).
    #[serde(default)]
    pub at_ms: f64,
    /// How long U is clamped (or the current flows), ms; 0 applies it at
    /// one step only, except for a model's own current stimulus (neither
    /// `value` nor `current` given, for the ionic models), which lasts the
    /// model's own duration.
    #[serde(default)]
    pub duration_ms: f64,
    /// The value variable 0 is set to; by default the model's excited
    /// value (3 for Karma, as in the paper), or for the models stimulated
    /// by a current (`fibril models NAME` says which) that current.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Instead of setting a value, inject this current while active: du/dt
    /// raised by it (variable 0's unit per time unit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<f64>,
    /// Instead of `current`, a current per volume of tissue, uA/cm^3 (as
    /// the Niederer et al. 2011 benchmark gives its stimulus), for the
    /// models in physical units: it drives du/dt by I / (chi Cm) uA/uF,
    /// so the run needs the membrane's chi and Cm ([`StimulusSpec::with_membrane`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_density: Option<f64>,
    /// Repeat every this many ms (periodic pacing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period_ms: Option<f64>,
    /// Number of beats when `period_ms` is set; without it, until the run ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Box: first and last cell along x (inclusive); omitted spans the grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<[u32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<[u32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<[u32; 2]>,
    /// Sphere: centre, in cells (x, y, z).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub center: Option<[f64; 3]>,
    /// Sphere: radius, in cells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// Cross-field: cells with `x_frac[0] nx <= x < x_frac[1] nx` (along
    /// the cross axis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_frac: Option<[f64; 2]>,
    /// Cross-field: cells with `z_frac[0] nz <= z < z_frac[1] nz` (along
    /// the wave axis: y in a sheet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z_frac: Option<[f64; 2]>,
    /// Mask: an `.npy` file of shape (nz, ny, nx), uint8, bool or float;
    /// the cells whose value is not zero (a path relative to the working
    /// directory on the command line, to the file's own directory in a
    /// configuration file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<std::path::PathBuf>,
    /// On a tetrahedral mesh, box: the lower corner, mm (the nodes with
    /// `lo_mm <= x <= hi_mm` on every axis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lo_mm: Option<[f64; 3]>,
    /// On a tetrahedral mesh, box: the upper corner, mm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hi_mm: Option<[f64; 3]>,
    /// On a tetrahedral mesh, mask: the nodes of the elements of this
    /// region label (instead of a node list `file`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<i32>,
}

impl StimulusSpec {
    /// A one-step stimulus of `region` at `at_ms` with the model's value;
    /// region fields unset.
    pub fn new(region: RegionKind, at_ms: f64) -> Self {
        Self {
            region,
            at_ms,
            duration_ms: 0.0,
            value: None,
            current: None,
            current_density: None,
            period_ms: None,
            count: None,
            x: None,
            y: None,
            z: None,
            center: None,
            radius: None,
            x_frac: None,
            z_frac: None,
            file: None,
            lo_mm: None,
            hi_mm: None,
            label: None,
        }
    }
}

impl StimulusSpec {
    /// The same timing and action (a value, a current) over a box with no
    /// bounds: every cell, for a caller that narrows it with a mask.
    pub fn everywhere(&self) -> Self {
        let (duration_ms, value, current, current_density) =
            (self.duration_ms, self.value, self.current, self.current_density);
        let (period_ms, count) = (self.period_ms, self.count);
        Self {
            duration_ms,
            value,
            current,
            current_density,
            period_ms,
            count,
            ..Self::new(RegionKind::Box, self.at_ms)
        }
    }
}

/// Cells `lo <= i < hi` of an axis of `n` cells from fractions of `n`.
fn fraction_range(frac: [f64; 2], n: u32) -> (u32, u32) {
    let lo = (frac[0] * n as f64).ceil().clamp(0.0, n as f64) as u32;
    let hi = (frac[1] * n as f64).ceil().clamp(0.0, n as f64) as u32;
    (lo, hi)
}

/// Why a current density cannot be used without a membrane, and the fix.
fn needs_membrane(density: f64) -> String {
    format!(
        "current_density = {density} uA/cm^3 is a current per volume of tissue: pass --chi (1/mm) and --cm \
         (uF/cm^2) to turn it into uA/uF, or give `current` in uA/uF"
    )
}

/// The membrane a current density acts on: surface-to-volume ratio chi
/// (1/mm) and capacitance Cm (uF/cm^2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Membrane {
    pub chi_per_mm: f64,
    pub cm_uf_per_cm2: f64,
}

impl Membrane {
    /// The current per unit capacitance (uA/uF) a current per volume
    /// (uA/cm^3) drives: I_v / (chi Cm), with chi in 1/cm (10 chi_per_mm):
    /// uA/cm^3 / (1/cm uF/cm^2) = uA/uF. 50,000 uA/cm^3 with chi = 140/mm
    /// and Cm = 1 uF/cm^2 is 35.71 uA/uF (Niederer et al. 2011).
    pub fn current_per_capacitance(self, ua_per_cm3: f64) -> f64 {
        ua_per_cm3 / (10.0 * self.chi_per_mm * self.cm_uf_per_cm2)
    }
}

impl StimulusSpec {
    /// The spec with its `current_density` turned into the `current` it
    /// drives in `membrane` (a spec without one is returned as it is);
    /// `index` (from 1) names it in errors. Without a membrane, a current
    /// density is refused, naming the options that give one.
    pub fn with_membrane(&self, index: usize, membrane: Option<Membrane>) -> Result<Self, StimulusError> {
        let Some(density) = self.current_density else { return Ok(self.clone()) };
        let err = |what: String| StimulusError::Invalid { index, region: self.region.name(), what };
        if self.value.is_some() || self.current.is_some() {
            return Err(err(
                "give one of `value` (set variable 0), `current` (uA/uF) or `current_density` (uA/cm^3)"
                    .into(),
            ));
        }
        if !density.is_finite() {
            return Err(err(format!("current_density = {density} must be a finite number")));
        }
        let Some(membrane) = membrane else {
            return Err(err(needs_membrane(density)));
        };
        let mut out = self.clone();
        out.current = Some(membrane.current_per_capacitance(density));
        out.current_density = None;
        Ok(out)
    }

    /// The spec as the run applies it: the model's own stimulus written
    /// out (its current and duration for the ionic models, its excited
    /// value for the others), for the record in `summary.json`. A spec
    /// that does not compile is returned as it is.
    pub fn effective(&self, model: &ModelInfo) -> Self {
        let mut out = self.clone();
        if self.value.is_none() && self.current.is_none() && self.current_density.is_none() {
            match model.stimulus_current {
                Some(own) => {
                    out.current = Some(own.amplitude);
                    if self.duration_ms == 0.0 {
                        out.duration_ms = own.duration;
                    }
                }
                None => out.value = Some(model.stimulus_value),
            }
        }
        out
    }

    /// Checks the spec against the grid, the time step and the model;
    /// `index` (from 1) names it in errors.
    pub fn compile(
        &self,
        index: usize,
        dims: GridDims,
        dt_ms: f64,
        model: &ModelInfo,
    ) -> Result<Stimulus, StimulusError> {
        let region_name = self.region.name();
        let err = |what: String| StimulusError::Invalid { index, region: region_name, what };
        if self.lo_mm.is_some() || self.hi_mm.is_some() || self.label.is_some() {
            return Err(err(
                "`lo_mm`, `hi_mm` and `label` select the nodes of a tetrahedral mesh; on a grid give a box's \
                 cells with x, y and z, or a mask file"
                    .into(),
            ));
        }
        // Fields that belong to another shape are mistakes, not no-ops.
        let given: [(&str, bool, &[RegionKind]); 8] = [
            ("x", self.x.is_some(), &[RegionKind::Box]),
            ("y", self.y.is_some(), &[RegionKind::Box]),
            ("z", self.z.is_some(), &[RegionKind::Box]),
            ("center", self.center.is_some(), &[RegionKind::Sphere]),
            ("radius", self.radius.is_some(), &[RegionKind::Sphere]),
            ("x_frac", self.x_frac.is_some(), &[RegionKind::CrossField]),
            ("z_frac", self.z_frac.is_some(), &[RegionKind::CrossField]),
            ("file", self.file.is_some(), &[RegionKind::Mask]),
        ];
        for (key, present, kinds) in given {
            if present && !kinds.contains(&self.region) {
                return Err(err(format!(
                    "`{key}` belongs to region = \"{}\", not \"{region_name}\"; remove it",
                    kinds[0].name()
                )));
            }
        }
        if let Some(density) = self.current_density {
            return Err(err(needs_membrane(density)));
        }
        let action = match (self.value, self.current) {
            (Some(_), Some(_)) => {
                return Err(err(
                    "give either `value` (set variable 0) or `current` (inject a current), not both".into(),
                ));
            }
            (_, Some(current)) => {
                if !current.is_finite() {
                    return Err(err(format!("current = {current} must be a finite number")));
                }
                Action::Current(current)
            }
            // Neither: the model's own stimulus, a current for the ionic
            // models (a clamp of V breaks their ion balances), else a value.
            (None, None) if model.stimulus_current.is_some() => {
                Action::Current(model.stimulus_current.expect("matched").amplitude)
            }
            (value, None) => {
                let value = value.unwrap_or(model.stimulus_value);
                if !value.is_finite() {
                    return Err(err(format!("value = {value} must be a finite number")));
                }
                Action::Set(value)
            }
        };
        // A model's own current lasts the model's own duration unless one is given.
        let duration_ms = match (self.value, self.current, model.stimulus_current) {
            (None, None, Some(current)) if self.duration_ms == 0.0 => current.duration,
            _ => self.duration_ms,
        };
        let n = [dims.nx, dims.ny, dims.nz];
        let region = match self.region {
            RegionKind::Planar => {
                let axis = wave_axis(dims);
                let mut hi = n;
                hi[axis] = planar_stimulus_slices(n[axis]);
                Region::Cells { lo: [0, 0, 0], hi }
            }
            RegionKind::Box => {
                let mut lo = [0; 3];
                let mut hi = n;
                for (a, (name, range)) in
                    [("x", self.x), ("y", self.y), ("z", self.z)].into_iter().enumerate()
                {
                    if let Some([first, last]) = range {
                        if first > last {
                            return Err(err(format!(
                                "{name} = [{first}, {last}]: the first cell is after the last; write [{last}, {first}]"
                            )));
                        }
                        if first >= n[a] {
                            return Err(err(format!(
                                "{name} = [{first}, {last}] lies outside the grid ({name} runs from 0 to {}); \
                                 choose cells inside it",
                                n[a] - 1
                            )));
                        }
                        lo[a] = first;
                        hi[a] = last.saturating_add(1).min(n[a]);
                    }
                }
                Region::Cells { lo, hi }
            }
            RegionKind::Sphere => {
                let (Some(center), Some(radius)) = (self.center, self.radius) else {
                    return Err(err("a sphere needs `center = [x, y, z]` and `radius` (in cells)".into()));
                };
                if !(radius > 0.0 && radius.is_finite()) || center.iter().any(|c| !c.is_finite()) {
                    return Err(err(format!(
                        "radius must be > 0 and the centre finite; got center = {center:?}, radius = {radius}"
                    )));
                }
                Region::Sphere { center, radius }
            }
            RegionKind::Mask => {
                let Some(path) = &self.file else {
                    return Err(err(
                        "a mask needs `file = \"mask.npy\"` (an .npy of shape (nz, ny, nx))".into()
                    ));
                };
                if !path.is_file() {
                    return Err(err(format!("the mask {} is not a file; give an .npy file", path.display())));
                }
                let array = crate::io::npy::read(path)
                    .map_err(|e| err(format!("cannot read the mask {}: {e}", path.display())))?;
                let want = [dims.nz as usize, dims.ny as usize, dims.nx as usize];
                if array.shape != want {
                    return Err(err(format!(
                        "the mask {} has shape {:?}; this grid needs ({}, {}, {}) = (nz, ny, nx)",
                        path.display(),
                        array.shape,
                        want[0],
                        want[1],
                        want[2]
                    )));
                }
                Region::Mask(std::sync::Arc::new(Mask::from_values(dims, &array.values)))
            }
            RegionKind::CrossField => {
                let x_frac = self.x_frac.unwrap_or(CROSS_FIELD_X_FRAC);
                let z_frac = self.z_frac.unwrap_or(CROSS_FIELD_Z_FRAC);
                for (name, f) in [("x_frac", x_frac), ("z_frac", z_frac)] {
                    if !(0.0 <= f[0] && f[0] < f[1] && f[1] <= 1.0) {
                        return Err(err(format!(
                            "{name} = [{}, {}] must satisfy 0 <= first < second <= 1 (fractions of the grid)",
                            f[0], f[1]
                        )));
                    }
                }
                let Some(cross) = cross_axis(dims) else {
                    return Err(err(format!(
                        "a cross-field stimulus needs two axes of more than one cell, and the {}x{}x{} grid \
                         is a cable; use region = \"box\"",
                        dims.nx, dims.ny, dims.nz
                    )));
                };
                let wave = wave_axis(dims);
                let (mut lo, mut hi) = ([0; 3], n);
                (lo[cross], hi[cross]) = fraction_range(x_frac, n[cross]);
                (lo[wave], hi[wave]) = fraction_range(z_frac, n[wave]);
                Region::Cells { lo, hi }
            }
        };
        if region.is_empty(dims) {
            return Err(err(format!(
                "it covers no cell of the {}x{}x{} grid; enlarge or move it",
                dims.nx, dims.ny, dims.nz
            )));
        }
        let start_step = ms_to_steps(self.at_ms, dt_ms).map_err(|e| err(format!("at_ms: {e}")))?;
        let steps = ms_to_steps(duration_ms, dt_ms).map_err(|e| err(format!("duration_ms: {e}")))?.max(1);
        let period_steps = match self.period_ms {
            None => {
                if self.count.is_some() {
                    return Err(err("`count` needs `period_ms` (the time between beats)".into()));
                }
                None
            }
            Some(p) => {
                let period = ms_to_steps(p, dt_ms).map_err(|e| err(format!("period_ms: {e}")))?;
                if period <= steps {
                    return Err(err(format!(
                        "period_ms = {p} must be longer than the stimulus itself ({} ms)",
                        short(steps as f64 * dt_ms)
                    )));
                }
                Some(period)
            }
        };
        if self.count == Some(0) {
            return Err(err("count must be at least 1".into()));
        }
        Ok(Stimulus { kind: self.region, region, action, start_step, steps, period_steps, count: self.count })
    }
}

/// Default x range of a cross-field S2: the half x < nx/2.
pub const CROSS_FIELD_X_FRAC: [f64; 2] = [0.0, 0.5];
/// Default z range of a cross-field S2: the half z < nz/2.
pub const CROSS_FIELD_Z_FRAC: [f64; 2] = [0.0, 0.5];

/// The paper's eq. 9 region as fractions of its 256^3 mesh:
/// 60 < z < 100 and 117 <= x <= 137, i.e. cells 61..=99 and 117..=137.
pub const PAPER_S2_X_FRAC: [f64; 2] = [117.0 / 256.0, 138.0 / 256.0];
pub const PAPER_S2_Z_FRAC: [f64; 2] = [61.0 / 256.0, 100.0 / 256.0];

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::CellModel;
    use kernels_gpu::models::Karma;

    use crate::events::stimulus::testing::{cells_of, compile};

    #[test]
    fn a_meshs_node_selections_are_refused_on_a_grid_naming_what_a_grid_takes() {
        let mut spec = StimulusSpec::new(RegionKind::Mask, 0.0);
        spec.label = Some(2);
        let e = compile(&spec, GridDims::new(4, 4, 4)).unwrap_err().to_string();
        assert!(e.contains("`label`") && e.contains("tetrahedral mesh") && e.contains("x, y and z"), "{e}");
    }

    #[test]
    fn planar_matches_the_initial_condition() {
        let dims = GridDims::new(4, 3, 20);
        let s = compile(&StimulusSpec::new(RegionKind::Planar, 0.0), dims).unwrap();
        let cells = cells_of(&s, dims);
        assert_eq!(cells.len(), 4 * 3 * 2);
        assert!(cells.iter().all(|&(_, _, z)| z <= 1));
    }

    #[test]
    fn paper_cross_field_at_256_is_eq_9() {
        // 60 < z < 100 and 117 <= x <= 137, all y.
        let dims = GridDims::new(256, 256, 256);
        let mut spec = StimulusSpec::new(RegionKind::CrossField, 425.0);
        spec.x_frac = Some(PAPER_S2_X_FRAC);
        spec.z_frac = Some(PAPER_S2_Z_FRAC);
        let s = compile(&spec, dims).unwrap();
        assert_eq!(s.start_step, 8_500);
        assert_eq!(s.region, Region::Cells { lo: [117, 0, 61], hi: [138, 256, 100] });
        // The default cross-field is the quadrant x < nx/2, z < nz/2.
        let s = compile(&StimulusSpec::new(RegionKind::CrossField, 0.0), dims).unwrap();
        assert_eq!(s.region, Region::Cells { lo: [0, 0, 0], hi: [128, 256, 128] });
    }

    #[test]
    fn current_densities_need_a_membrane_and_the_record_says_what_applies() {
        let dims = GridDims::new(8, 8, 1);
        let mut spec = StimulusSpec::new(RegionKind::Box, 0.0);
        spec.current_density = Some(50_000.0);
        spec.duration_ms = 2.0;
        // Niederer et al. 2011: 50,000 uA/cm^3 in chi = 1400/cm, Cm = 1 uF/cm^2.
        let membrane = Membrane { chi_per_mm: 140.0, cm_uf_per_cm2: 1.0 };
        let applied = spec.with_membrane(1, Some(membrane)).unwrap();
        assert_eq!((applied.current_density, applied.duration_ms), (None, 2.0));
        assert!((applied.current.unwrap() - 50_000.0 / 1400.0).abs() < 1e-12);
        let e = spec.with_membrane(3, None).unwrap_err().to_string();
        assert!(e.contains("stimulus 3") && e.contains("--chi") && e.contains("--cm"), "{e}");
        // Unconverted, it does not compile; with a current as well, it is ambiguous.
        assert!(compile(&spec, dims).unwrap_err().to_string().contains("--chi"));
        spec.current = Some(1.0);
        assert!(spec.with_membrane(1, Some(membrane)).unwrap_err().to_string().contains("one of"));
        // The record: the model's own stimulus written out.
        let plain = StimulusSpec::new(RegionKind::Box, 1.0);
        assert_eq!(plain.effective(Karma::INFO).value, Some(Karma::INFO.stimulus_value));
        let tp06 = kernels_gpu::models::TenTusscher2006::INFO;
        let own = tp06.stimulus_current.unwrap();
        let e = plain.effective(tp06);
        assert_eq!((e.value, e.current, e.duration_ms), (None, Some(own.amplitude), own.duration));
        assert!(own.duration > 0.0);
    }

    #[test]
    fn mistakes_are_named() {
        let dims = GridDims::new(8, 8, 8);
        let msg = |spec: &StimulusSpec| compile(spec, dims).unwrap_err().to_string();

        let mut s = StimulusSpec::new(RegionKind::Box, 0.0);
        s.radius = Some(2.0);
        assert!(msg(&s).contains("`radius` belongs to region = \"sphere\""), "{}", msg(&s));

        let mut s = StimulusSpec::new(RegionKind::Box, 0.0);
        s.x = Some([20, 30]);
        assert!(msg(&s).contains("outside the grid"), "{}", msg(&s));

        let s = StimulusSpec::new(RegionKind::Sphere, 0.0);
        assert!(msg(&s).contains("needs `center"), "{}", msg(&s));

        let mut s = StimulusSpec::new(RegionKind::Sphere, 0.0);
        s.center = Some([-10.0, -10.0, -10.0]);
        s.radius = Some(1.0);
        assert!(msg(&s).contains("covers no cell"), "{}", msg(&s));

        let s = StimulusSpec::new(RegionKind::Planar, 0.12);
        assert!(msg(&s).contains("use 0.1 or 0.15"), "{}", msg(&s));

        let mut s = StimulusSpec::new(RegionKind::Planar, 0.0);
        s.duration_ms = 1.0;
        s.period_ms = Some(1.0);
        assert!(msg(&s).contains("longer than the stimulus"), "{}", msg(&s));

        let mut s = StimulusSpec::new(RegionKind::Planar, 0.0);
        s.count = Some(2);
        assert!(msg(&s).contains("needs `period_ms`"), "{}", msg(&s));

        let mut s = StimulusSpec::new(RegionKind::CrossField, 0.0);
        s.z_frac = Some([0.6, 0.2]);
        assert!(msg(&s).contains("0 <= first < second <= 1"), "{}", msg(&s));
    }

    #[test]
    fn the_paper_regions_follow_the_grid_shape() {
        // A sheet: the planar slab and the cross-field's "z" run along y.
        let sheet = GridDims::new(20, 40, 1);
        let s = compile(&StimulusSpec::new(RegionKind::Planar, 0.0), sheet).unwrap();
        assert_eq!(s.region, Region::Cells { lo: [0, 0, 0], hi: [20, 3, 1] });
        let s = compile(&StimulusSpec::new(RegionKind::CrossField, 0.0), sheet).unwrap();
        assert_eq!(s.region, Region::Cells { lo: [0, 0, 0], hi: [10, 20, 1] });
        // A cable: the slab along x, and no cross-field.
        let cable = GridDims::new(100, 1, 1);
        let s = compile(&StimulusSpec::new(RegionKind::Planar, 0.0), cable).unwrap();
        assert_eq!(s.region, Region::Cells { lo: [0, 0, 0], hi: [6, 1, 1] });
        let e = compile(&StimulusSpec::new(RegionKind::CrossField, 0.0), cable).unwrap_err().to_string();
        assert!(e.contains("is a cable"), "{e}");
        // Without a value, the model's excited value.
        assert_eq!(s.action, Action::Set(3.0));
    }
}

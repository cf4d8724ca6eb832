//! Stimuli: variable 0 set to a value, or driven by a current, in a region
//! of the grid, at given steps.
//!
//! The solvers apply them on their own memory before the step they belong
//! to (on the GPU a kernel over the region's cells, no round trip through
//! the host), through the one routine `kernels_gpu::events::stimulate_cell`
//! that the CPU calls too, so CPU and GPU stay bit-identical.
//!
//! Semantics: at every step at which a stimulus is active, variable 0 is
//! *set* to `value` (by default the model's excited value) in its region
//! before that step is taken, or, with `current`, raised by `current * dt`
//! (a current injected during the step, split off from the step itself);
//! the other variables are left alone.
//! A stimulus with `duration_ms = 0` is active at one step, like the
//! paper's S1 and S2; one with `duration_ms = d` is active at the `d / dt`
//! steps `start, start + 1, ...`, so it clamps U for `d` ms. Periodic
//! pacing repeats that every `period_ms`, `count` times (or until the run
//! ends).
//!
//! The regions named after the paper's protocol follow the grid's shape:
//! `planar` is the slab `k <= 0.05 n` of the wave axis (z in 3D, y in a
//! sheet, x in a cable; see [`crate::init::wave_axis`]), and
//! `cross-field` takes `z_frac` along the wave axis and `x_frac` along the
//! cross axis (x in 3D and in a sheet).

use kernels_gpu::events::{
    REGION_BOX, REGION_MASK, REGION_SPHERE, Recorder, SlicePlacement, StimulusArgs, StimulusMode,
    stimulate_cell,
};
use kernels_gpu::{GridDims, ModelInfo};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::init::{cross_axis, planar_stimulus_slices, wave_axis};
use crate::scalar::Scalar;
use crate::state::State;
use crate::time::{ms_to_steps, short};

/// Why a stimulus was refused. Each message names the stimulus and the fix.
#[derive(Debug, Error, PartialEq)]
pub enum StimulusError {
    #[error("stimulus {index} (region = \"{region}\"): {what}")]
    Invalid { index: usize, region: &'static str, what: String },
}

/// The shapes a stimulus can take, as written in a configuration file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RegionKind {
    /// The paper's planar S1 slab (eq. 7): z <= 0.05 nz, all x and y (y in
    /// a sheet, x in a cable).
    Planar,
    /// An axis-aligned box in cells (inclusive bounds).
    Box,
    /// A ball in cells.
    Sphere,
    /// The cross-field S2 of eq. 9, generalised: fractions of the grid in x
    /// and z, all y (in a sheet: x and y).
    CrossField,
    /// The cells where an `.npy` mask of the grid's shape is not zero.
    Mask,
}

impl RegionKind {
    pub const fn name(self) -> &'static str {
        match self {
            RegionKind::Planar => "planar",
            RegionKind::Box => "box",
            RegionKind::Sphere => "sphere",
            RegionKind::CrossField => "cross-field",
            RegionKind::Mask => "mask",
        }
    }
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
        }
    }
}

/// The cells a stimulus covers.
#[derive(Clone, Debug, PartialEq)]
pub enum Region {
    /// `lo <= index < hi` on each axis (half-open, already clipped to the grid).
    Cells { lo: [u32; 3], hi: [u32; 3] },
    /// Cells whose centre is within `radius` (cells) of `center` (cells).
    Sphere { center: [f64; 3], radius: f64 },
    /// The cells of a mask of the whole grid.
    Mask(std::sync::Arc<Mask>),
}

/// A set of cells of a grid: one bit per cell, row-major (bit i % 32 of
/// word i / 32), and the bounding box of the set cells (half-open).
#[derive(Clone, Debug, PartialEq)]
pub struct Mask {
    pub dims: GridDims,
    pub bits: Vec<u32>,
    pub lo: [u32; 3],
    pub hi: [u32; 3],
    pub count: u64,
}

impl Mask {
    /// The cells of `dims` where `values` (row-major) is not zero.
    pub fn from_values(dims: GridDims, values: &[f64]) -> Self {
        assert_eq!(values.len(), dims.cells(), "one value per cell");
        let mut bits = vec![0u32; dims.cells().div_ceil(32)];
        let (mut lo, mut hi, mut count) = ([u32::MAX; 3], [0u32; 3], 0);
        for (i, &v) in values.iter().enumerate() {
            if v != 0.0 {
                bits[i / 32] |= 1 << (i % 32);
                let c = [
                    (i % dims.nx as usize) as u32,
                    ((i / dims.nx as usize) % dims.ny as usize) as u32,
                    (i / dims.slice_cells()) as u32,
                ];
                for a in 0..3 {
                    lo[a] = lo[a].min(c[a]);
                    hi[a] = hi[a].max(c[a] + 1);
                }
                count += 1;
            }
        }
        if count == 0 {
            (lo, hi) = ([0; 3], [0; 3]);
        }
        Self { dims, bits, lo, hi, count }
    }

    pub fn get(&self, x: u32, y: u32, z: u32) -> bool {
        let i = self.dims.index(x, y, z);
        self.bits[i / 32] & (1 << (i % 32)) != 0
    }

    /// The bits of a buffer of `local` cells placed in the grid by `place`
    /// (a sub-domain with its halo slices, or the whole grid), indexed by
    /// the buffer's cells, as the stimulus routine reads them.
    pub fn local_bits(&self, local: GridDims, place: SlicePlacement) -> Vec<u32> {
        let mut bits = vec![0u32; local.cells().div_ceil(32)];
        for z in 0..local.nz {
            let g = place.global_z(z);
            for y in 0..local.ny {
                for x in 0..local.nx {
                    if self.get(x, y, g) {
                        let i = local.index(x, y, z);
                        bits[i / 32] |= 1 << (i % 32);
                    }
                }
            }
        }
        bits
    }
}

impl Region {
    /// The bounding box, half-open and clipped to `dims`.
    fn bounds(&self, dims: GridDims) -> ([u32; 3], [u32; 3]) {
        let n = [dims.nx, dims.ny, dims.nz];
        match self {
            Region::Cells { lo, hi } => (*lo, *hi),
            Region::Mask(mask) => (mask.lo, mask.hi),
            Region::Sphere { center, radius } => {
                let mut lo = [0; 3];
                let mut hi = [0; 3];
                for a in 0..3 {
                    let l = (center[a] - radius).ceil().max(0.0);
                    let h = (center[a] + radius).floor() + 1.0;
                    lo[a] = (l.min(n[a] as f64)) as u32;
                    hi[a] = (h.clamp(0.0, n[a] as f64)) as u32;
                }
                (lo, hi)
            }
        }
    }

    fn contains(&self, x: u32, y: u32, z: u32) -> bool {
        match self {
            Region::Cells { .. } => true,
            Region::Mask(mask) => mask.get(x, y, z),
            Region::Sphere { center, radius } => {
                let d = [x as f64 - center[0], y as f64 - center[1], z as f64 - center[2]];
                d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= radius * radius
            }
        }
    }

    /// Calls `f(index)` for every cell of the region, in row-major order.
    pub fn for_each_cell(&self, dims: GridDims, mut f: impl FnMut(usize)) {
        let (lo, hi) = self.bounds(dims);
        for z in lo[2]..hi[2] {
            for y in lo[1]..hi[1] {
                for x in lo[0]..hi[0] {
                    if self.contains(x, y, z) {
                        f(dims.index(x, y, z));
                    }
                }
            }
        }
    }

    /// Whether the region covers no cell, in constant time (a region of a
    /// grid of billions of cells is checked before the memory check
    /// refuses the grid, so it must not visit them).
    pub fn is_empty(&self, dims: GridDims) -> bool {
        let (lo, hi) = self.bounds(dims);
        if (0..3).any(|a| lo[a] >= hi[a]) {
            return true;
        }
        match self {
            Region::Cells { .. } => false,
            Region::Mask(mask) => mask.count == 0,
            // The cell of the bounding box nearest the centre, axis by axis,
            // is the nearest of all: the ball holds a cell iff it holds that one.
            Region::Sphere { center, .. } => {
                let nearest = |a: usize| center[a].round().clamp(lo[a] as f64, (hi[a] - 1) as f64) as u32;
                !self.contains(nearest(0), nearest(1), nearest(2))
            }
        }
    }

    /// Number of cells covered.
    pub fn cell_count(&self, dims: GridDims) -> u64 {
        let (lo, hi) = self.bounds(dims);
        match self {
            Region::Cells { .. } => (0..3).map(|a| u64::from(hi[a].saturating_sub(lo[a]))).product(),
            Region::Mask(mask) => mask.count,
            Region::Sphere { .. } => {
                let mut n = 0;
                self.for_each_cell(dims, |_| n += 1);
                n
            }
        }
    }

    /// Sets variable 0 to `value` in the region.
    pub fn apply<T: Scalar>(&self, state: &mut State<T>, value: T) {
        let dims = state.dims();
        let u = state.slice_mut(0);
        self.for_each_cell(dims, |i| u[i] = value);
    }

    /// The region as the stimulus routine of `kernels_gpu::events` takes it.
    fn args<T: Scalar>(&self, dims: GridDims) -> StimulusArgs<T> {
        let (lo, hi) = self.bounds(dims);
        let (kind, center, radius2) = match self {
            Region::Cells { .. } => (REGION_BOX, [0.0; 3], 0.0),
            Region::Sphere { center, radius } => (REGION_SPHERE, *center, radius * radius),
            // The bits' address is the buffer's own (`Mask::local_bits`).
            Region::Mask(_) => (REGION_MASK, [0.0; 3], 0.0),
        };
        StimulusArgs {
            lo,
            hi,
            kind,
            mode: StimulusMode::Set as u32,
            center,
            radius2,
            mask: 0,
            amount: T::ZERO,
        }
    }
}

/// What a stimulus does while active.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Variable 0 set to this value.
    Set(f64),
    /// du/dt raised by this current.
    Current(f64),
}

/// A stimulus ready to run: a region and the steps at which it is active.
#[derive(Clone, Debug, PartialEq)]
pub struct Stimulus {
    pub kind: RegionKind,
    pub region: Region,
    pub action: Action,
    /// First step at which it is active.
    pub start_step: u64,
    /// Consecutive steps it stays active in each beat (at least 1).
    pub steps: u64,
    /// Steps between beats, for periodic pacing.
    pub period_steps: Option<u64>,
    /// Number of beats (with a period); `None` repeats until the run ends.
    pub count: Option<u64>,
}

impl Stimulus {
    /// What the stimulus routine needs, for a time step of `dt_ms`: a
    /// current becomes the increment `current * dt`, rounded once to `T`.
    pub fn args<T: Scalar>(&self, dims: GridDims, dt_ms: f64) -> StimulusArgs<T> {
        let mut args = self.region.args::<T>(dims);
        match self.action {
            Action::Set(value) => args.amount = T::from_f64(value),
            Action::Current(current) => {
                args.mode = StimulusMode::Add as u32;
                args.amount = T::from_f64(current * dt_ms);
            }
        }
        args
    }

    /// The cells of a buffer of `local` cells placed in the whole grid by
    /// `place` (a sub-domain with its halo slices, or the whole grid) that
    /// the stimulus may touch: a box `(origin, extent)` in the buffer's
    /// cells, or `None` if it touches none of them.
    pub fn local_box(
        &self,
        whole: GridDims,
        local: GridDims,
        place: SlicePlacement,
    ) -> Option<(GridDims, GridDims)> {
        let (lo, hi) = self.region.bounds(whole);
        let inside = |z: &u32| (lo[2]..hi[2]).contains(&place.global_z(*z));
        let first = (0..local.nz).find(inside)?;
        let last = (0..local.nz).rev().find(inside).unwrap_or(first);
        if lo[0] >= hi[0] || lo[1] >= hi[1] {
            return None;
        }
        Some((
            GridDims::new(lo[0], lo[1], first),
            GridDims::new(hi[0] - lo[0], hi[1] - lo[1], last + 1 - first),
        ))
    }

    /// Whether it is active at `step`.
    pub fn active_at(&self, step: u64) -> bool {
        self.next_active(step) == Some(step)
    }

    /// The first step `>= from` at which it is active.
    pub fn next_active(&self, from: u64) -> Option<u64> {
        if from <= self.start_step {
            return Some(self.start_step);
        }
        let since = from - self.start_step;
        let Some(period) = self.period_steps else {
            return (since < self.steps).then_some(from);
        };
        let beat = since / period;
        let offset = since % period;
        let limit = self.count.unwrap_or(u64::MAX);
        if beat >= limit {
            return None;
        }
        if offset < self.steps {
            return Some(from);
        }
        (beat + 1 < limit).then(|| self.start_step + (beat + 1) * period)
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

/// All stimuli of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StimulusSchedule {
    pub stimuli: Vec<Stimulus>,
}

impl StimulusSchedule {
    /// Whether any stimulus is active at `step`, wherever it lies.
    pub fn any_active_at(&self, step: u64) -> bool {
        self.stimuli.iter().any(|s| s.active_at(step))
    }

    /// Compiles every spec (errors name the first bad one, counting from 1).
    pub fn compile(
        specs: &[StimulusSpec],
        dims: GridDims,
        dt_ms: f64,
        model: &ModelInfo,
    ) -> Result<Self, StimulusError> {
        let stimuli = specs
            .iter()
            .enumerate()
            .map(|(i, s)| s.compile(i + 1, dims, dt_ms, model))
            .collect::<Result<_, _>>()?;
        Ok(Self { stimuli })
    }

    pub fn is_empty(&self) -> bool {
        self.stimuli.is_empty()
    }

    /// The first step `>= from` at which some stimulus is active.
    pub fn next_due(&self, from: u64) -> Option<u64> {
        self.stimuli.iter().filter_map(|s| s.next_active(from)).min()
    }

    /// Applies every stimulus active at `step` to a whole-grid state on the
    /// host, in the order given (what the solvers do on their memory);
    /// returns how many were.
    pub fn apply_at<T: Scalar>(&self, step: u64, state: &mut State<T>, dt_ms: f64) -> usize {
        let dims = state.dims();
        let place = SlicePlacement::whole(dims.nz);
        let mut applied = 0;
        for s in self.stimuli.iter().filter(|s| s.active_at(step)) {
            apply_to_buffer(s, state.slice_mut(0), dims, place, dt_ms, &Recorder::off());
            applied += 1;
        }
        applied
    }

    /// (Stimulus, step) applications in steps `from..to`.
    pub fn applications(&self, from: u64, to: u64) -> u64 {
        let mut n = 0;
        for s in &self.stimuli {
            let mut k = from;
            while let Some(a) = s.next_active(k).filter(|&a| a < to) {
                n += 1;
                k = a + 1;
            }
        }
        n
    }
}

/// Applies `s` to a row-major buffer of variable 0 of `local` cells placed
/// in the whole grid by `place` (see [`Stimulus::local_box`]), recording
/// jumps with `rec`: the CPU's loop over the routine the stimulus kernel
/// runs.
pub fn apply_to_buffer<T: Scalar>(
    s: &Stimulus,
    u: &mut [T],
    local: GridDims,
    place: SlicePlacement,
    dt_ms: f64,
    rec: &Recorder<T>,
) {
    apply_with_mask(s, u, (local, place), dt_ms, rec, None);
}

/// [`apply_to_buffer`] with a mask region's bits for this buffer already
/// made ([`Mask::local_bits`]; made here when `None`).
pub fn apply_with_mask<T: Scalar>(
    s: &Stimulus,
    u: &mut [T],
    (local, place): (GridDims, SlicePlacement),
    dt_ms: f64,
    rec: &Recorder<T>,
    bits: Option<&[u32]>,
) {
    let whole = GridDims::new(local.nx, local.ny, place.global_nz);
    let Some((origin, extent)) = s.local_box(whole, local, place) else { return };
    let mut args = s.args::<T>(whole, dt_ms);
    let made;
    if let Region::Mask(mask) = &s.region {
        let bits = match bits {
            Some(b) => b,
            None => {
                made = mask.local_bits(local, place);
                &made[..]
            }
        };
        assert!(bits.len() * 32 >= local.cells(), "a bit per cell of the buffer");
        args.mask = bits.as_ptr() as u64;
    }
    assert_eq!(u.len(), local.cells(), "the buffer holds the grid");
    let ptr = u.as_mut_ptr();
    for z in origin.nz..origin.nz + extent.nz {
        for y in origin.ny..origin.ny + extent.ny {
            for x in origin.nx..origin.nx + extent.nx {
                // SAFETY: (x, y, z) is a cell of `local` (the box is clipped
                // to it), `u` holds `local`, the recorder is the caller's.
                unsafe { stimulate_cell(ptr, local, None, place, &args, rec, (x, y, z)) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emptiness_in_constant_time_agrees_with_counting() {
        let dims = GridDims::new(7, 5, 4);
        let mut seen = [0, 0];
        for cx in [-3.0, -0.6, 0.0, 2.5, 6.4, 7.6, 10.0] {
            for cy in [-1.2, 2.0, 4.5, 6.0] {
                for r in [0.3, 0.5, 0.8, 1.5, 3.0] {
                    let sphere = Region::Sphere { center: [cx, cy, 1.5], radius: r };
                    let empty = sphere.cell_count(dims) == 0;
                    assert_eq!(sphere.is_empty(dims), empty, "{sphere:?}");
                    seen[usize::from(empty)] += 1;
                }
            }
        }
        assert!(seen[0] > 10 && seen[1] > 10, "both cases covered: {seen:?}");
        let cells = Region::Cells { lo: [2, 0, 1], hi: [5, 5, 4] };
        assert_eq!((cells.is_empty(dims), cells.cell_count(dims)), (false, 45));
        assert!(Region::Cells { lo: [2, 3, 1], hi: [5, 3, 4] }.is_empty(dims));
    }
    use kernels_gpu::CellModel;
    use kernels_gpu::models::Karma;

    const DT: f64 = 0.05;

    fn compile(spec: &StimulusSpec, dims: GridDims) -> Result<Stimulus, StimulusError> {
        spec.compile(1, dims, DT, Karma::INFO)
    }

    fn cells_of(s: &Stimulus, dims: GridDims) -> Vec<(u32, u32, u32)> {
        let mut f = State::<f32>::rest(Karma::INFO, dims);
        s.region.apply(&mut f, 1.0);
        f.u()
            .indexed_iter()
            .filter(|(_, u)| **u == 1.0)
            .map(|((z, y, x), _)| (x as u32, y as u32, z as u32))
            .collect()
    }

    #[test]
    fn box_bounds_are_inclusive_and_clipped() {
        let dims = GridDims::new(10, 8, 6);
        let mut spec = StimulusSpec::new(RegionKind::Box, 0.0);
        spec.x = Some([2, 3]);
        spec.z = Some([4, 100]);
        let s = compile(&spec, dims).unwrap();
        let cells = cells_of(&s, dims);
        assert_eq!(cells.len(), 2 * 8 * 2);
        assert!(cells.iter().all(|&(x, _, z)| (2..=3).contains(&x) && (4..=5).contains(&z)));
        // A last cell at the type's limit spans to the end of the axis.
        spec.z = Some([4, u32::MAX]);
        assert_eq!(cells_of(&compile(&spec, dims).unwrap(), dims).len(), 2 * 8 * 2);
    }

    #[test]
    fn sphere_holds_the_cells_within_the_radius() {
        let dims = GridDims::new(9, 9, 9);
        let mut spec = StimulusSpec::new(RegionKind::Sphere, 0.0);
        spec.center = Some([4.0, 4.0, 4.0]);
        spec.radius = Some(1.0);
        let s = compile(&spec, dims).unwrap();
        let mut cells = cells_of(&s, dims);
        cells.sort();
        // The centre and its six face neighbours.
        assert_eq!(cells, vec![(3, 4, 4), (4, 3, 4), (4, 4, 3), (4, 4, 4), (4, 4, 5), (4, 5, 4), (5, 4, 4)]);
        // A sphere in a corner is clipped, not refused.
        spec.center = Some([0.0, 0.0, 0.0]);
        spec.radius = Some(1.5);
        let s = compile(&spec, dims).unwrap();
        assert_eq!(s.region.cell_count(dims), 7); // (0,0,0), 3 faces, 3 edges
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
    fn a_duration_clamps_u_at_every_step_of_it() {
        let dims = GridDims::new(4, 4, 4);
        let mut spec = StimulusSpec::new(RegionKind::Box, 1.0);
        spec.duration_ms = 0.15;
        let s = compile(&spec, dims).unwrap();
        assert_eq!((s.start_step, s.steps), (20, 3));
        let active: Vec<u64> = (0..40).filter(|&k| s.active_at(k)).collect();
        assert_eq!(active, vec![20, 21, 22]);
        // Once = one step.
        spec.duration_ms = 0.0;
        let s = compile(&spec, dims).unwrap();
        assert_eq!((0..40).filter(|&k| s.active_at(k)).count(), 1);
    }

    #[test]
    fn pacing_repeats_count_times() {
        let dims = GridDims::new(4, 4, 4);
        let mut spec = StimulusSpec::new(RegionKind::Box, 0.5);
        spec.duration_ms = 0.1;
        spec.period_ms = Some(1.0);
        spec.count = Some(3);
        let s = compile(&spec, dims).unwrap();
        let active: Vec<u64> = (0..100).filter(|&k| s.active_at(k)).collect();
        assert_eq!(active, vec![10, 11, 30, 31, 50, 51]);
        assert_eq!(s.next_active(12), Some(30));
        assert_eq!(s.next_active(52), None);
        // Without a count it goes on.
        spec.count = None;
        let s = compile(&spec, dims).unwrap();
        assert_eq!(s.next_active(1_000_000_002), Some(1_000_000_010));
    }

    #[test]
    fn schedule_finds_the_next_due_step_and_applies_in_order() {
        let dims = GridDims::new(5, 5, 5);
        let mut a = StimulusSpec::new(RegionKind::Box, 0.5);
        a.x = Some([0, 0]);
        a.value = Some(2.0);
        let mut b = StimulusSpec::new(RegionKind::Box, 0.5);
        b.x = Some([0, 1]);
        b.value = Some(1.5);
        let sched = StimulusSchedule::compile(&[a, b], dims, DT, Karma::INFO).unwrap();
        assert_eq!(sched.next_due(0), Some(10));
        assert_eq!(sched.next_due(11), None);
        let mut f = State::<f64>::uniform(Karma::INFO, dims, &[0.0, 0.25]);
        assert_eq!(sched.apply_at(9, &mut f, DT), 0);
        assert_eq!(sched.apply_at(10, &mut f, DT), 2);
        assert_eq!(sched.applications(0, 10), 0);
        assert_eq!(sched.applications(0, 11), 2);
        // The later stimulus wins where they overlap; v is untouched.
        assert_eq!(f.u()[[0, 0, 0]], 1.5);
        assert_eq!(f.u()[[0, 0, 1]], 1.5);
        assert_eq!(f.u()[[0, 0, 2]], 0.0);
        assert!(f.var(1).iter().all(|&v| v == 0.25));
    }

    /// A mask of a sphere's cells stimulates exactly those cells, also on
    /// a sub-domain's buffer with halo slices; a mask of the wrong shape is
    /// refused naming the shape wanted.
    #[test]
    fn a_mask_region_is_the_cells_of_its_file() {
        let dims = GridDims::new(9, 8, 7);
        let mut sphere = StimulusSpec::new(RegionKind::Sphere, 0.0);
        sphere.center = Some([4.0, 3.0, 2.0]);
        sphere.radius = Some(2.5);
        let s = compile(&sphere, dims).unwrap();
        let cells = cells_of(&s, dims);
        let mut values = vec![0.0f32; dims.cells()];
        for &(x, y, z) in &cells {
            values[dims.index(x, y, z)] = 1.0;
        }
        let path = std::env::temp_dir().join(format!("fibril-mask-{}.npy", std::process::id()));
        std::fs::write(&path, crate::io::npy::encode_shaped(&[7, 8, 9], &values)).unwrap();
        let mut spec = StimulusSpec::new(RegionKind::Mask, 0.0);
        spec.file = Some(path.clone());
        let m = compile(&spec, dims).unwrap();
        assert_eq!(cells_of(&m, dims), cells);
        assert_eq!(m.region.cell_count(dims), cells.len() as u64);
        // A sub-domain holding global slices 1..=3 between halos (local 0..=4).
        let local = GridDims::new(9, 8, 5);
        let place = SlicePlacement { offset: 0, global_nz: 7 };
        let mut u = vec![0.0f32; local.cells()];
        apply_to_buffer(&m, &mut u, local, place, DT, &Recorder::off());
        for z in 0..5 {
            for y in 0..8 {
                for x in 0..9 {
                    let want = cells.contains(&(x, y, place.global_z(z)));
                    assert_eq!(u[local.index(x, y, z)] == 3.0, want, "({x}, {y}, local {z})");
                }
            }
        }
        let e = compile(&spec, GridDims::new(9, 8, 6)).unwrap_err().to_string();
        assert!(e.contains("has shape [7, 8, 9]; this grid needs (6, 8, 9)"), "{e}");
        std::fs::remove_file(&path).unwrap();
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

//! ohara_rudy_2011_endo: the CellML model `ohara_rudy_2011_endo`, imported by `fibril import-cellml`.
//!
//! Source: `ohara_rudy_2011_endo.cellml` (321979 bytes, FNV-1a 64 1dfb1df0ee551c0a). Generated code: regenerate
//! rather than edit (`fibril import-cellml FILE --name ohara_rudy_2011`).
//!
//! # Units
//!
//! V in mV and time in ms at the boundary: the file's V is 1 mV^-1 times
//! fibril's, its time unit 1 per ms; everything else keeps the file's
//! units (below). The equations were checked for consistent units and
//! converted where two sides differed only in scale.
//!
//! # Stimulus
//!
//! Removed from the equations (fibril adds its own to dV/dt); the default
//! stimulus is the file's stimulus `membrane.Istim` (-80 microA_per_microF) for 0.5 ms, as its contribution to dV/dt: 80.000000 mV/ms for 0.5 ms.
//!
//! The file's stimulus also enters d(`intracellular_ions.ki`)/dt: fibril's stimulus adds
//! 6.152074288236873e-5 millimolar to it per mV it adds to V (`StimulusCarrier`), the
//! file's ratio at its default constants, so the charge it injects is
//! carried as the file carries it.
//! In f32 it adds that charge through `ki__carry` as the step adds its
//! currents, so that a charge below half an ulp a step is kept.
//!
//! # Updates over one step (dt in the file's time unit)
//!
//! | variable | file variable | unit | update |
//! |---|---|---|---|
//! | `v` | `membrane.v` | mV | forward Euler, by fibril's cell step (this file returns dV/dt) |
//! | `CaMKt` | `CaMK.CaMKt` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`CaMKt__carry`) |
//! | `nai` | `intracellular_ions.nai` | millimolar | forward Euler; in f32 with its rounding error carried (`nai__carry`) |
//! | `nass` | `intracellular_ions.nass` | millimolar | forward Euler; in f32 with its rounding error carried (`nass__carry`) |
//! | `ki` | `intracellular_ions.ki` | millimolar | forward Euler; in f32 with its rounding error carried (`ki__carry`) |
//! | `kss` | `intracellular_ions.kss` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`kss__carry`) |
//! | `cass` | `intracellular_ions.cass` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`cass__carry`) |
//! | `cansr` | `intracellular_ions.cansr` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`cansr__carry`) |
//! | `cajsr` | `intracellular_ions.cajsr` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`cajsr__carry`) |
//! | `cai` | `intracellular_ions.cai` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`cai__carry`) |
//! | `m` | `INa.m` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `hf` | `INa.hf` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `hs` | `INa.hs` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `j` | `INa.j` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `hsp` | `INa.hsp` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `jp` | `INa.jp` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `mL` | `INaL.mL` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `hL` | `INaL.hL` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `hLp` | `INaL.hLp` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `a` | `Ito.a` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `iF` | `Ito.iF` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `iS` | `Ito.iS` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `ap` | `Ito.ap` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `iFp` | `Ito.iFp` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `iSp` | `Ito.iSp` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `d` | `ICaL.d` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `ff` | `ICaL.ff` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `fs` | `ICaL.fs` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `fcaf` | `ICaL.fcaf` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `fcas` | `ICaL.fcas` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `jca` | `ICaL.jca` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `ffp` | `ICaL.ffp` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `fcafp` | `ICaL.fcafp` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `nca` | `ICaL.nca` | dimensionless | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen) |
//! | `xrf` | `IKr.xrf` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `xrs` | `IKr.xrs` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `xs1` | `IKs.xs1` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `xs2` | `IKs.xs2` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `xk1` | `IK1.xk1` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `Jrelnp` | `ryr.Jrelnp` | dimensionless | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen) |
//! | `Jrelp` | `ryr.Jrelp` | dimensionless | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen) |
//!
//! Forward Euler and both Rush-Larsen steps are first order in dt. A Markov block
//! (states whose right sides are jointly affine in them, dx/dt = A x + b)
//! takes one two-stage SDIRK step with A and b frozen (g = 1 - 1/sqrt(2),
//! (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1,
//! x' = x + (1 - g) k1 + g k2), I - g dt A factored once by Gaussian
//! elimination without pivoting (an M-matrix for a chain's rates): second
//! order for the frozen rates, L-stable, and it keeps a closed chain's
//! total occupancy; freezing the rates over the step is first order.
//!
//! A concentration's increment over a small step is far below an f32 ulp
//! of the concentration (140 mM: 1.5e-5 mM; a step of 2.5 us adds about
//! 1e-9), and rounded away it would leave the concentration where it
//! starts. In f32 its update is a compensated sum (Kahan): the rounding
//! error of each step is kept in a variable of its own (`..__carry`, after
//! the model's) and added back at the next. In f64 the carries stay 0 and
//! the updates are the plain ones, bit for bit.
//!
//! Removable singularities x/(e^U - 1), interpolated linearly where |U| < 1e-7 (f64) or 1e-3 (f32):
//! - `ICaL.PhiCaL` at V = -0 (file units)
//! - `ICaL.PhiCaNa` at V = -0 (file units)
//! - `ICaL.PhiCaK` at V = -0 (file units)
//! - `INab.INab` at V = -0 (file units)
//! - `ICab.ICab` at V = -0 (file units)
//! - `d(intracellular_ions.kss)/dt` at V = -0 (file units)
//! - `d(intracellular_ions.cass)/dt` at V = -0 (file units)
//! - `d(intracellular_ions.cai)/dt` at V = -0 (file units)
//!
//! Imported with inconsistent units (`--allow-inconsistent-units`), numbers as written:
//! - inconsistent units: in the equation of `ICaL.PhiCaL`: \<minus\> joins \[m^-3 mol\] and \[1\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `ICaL.PhiCaL` sets a quantity of \[1\] to an expression of \[m^-5 kg^-1 s^4 A^2\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ICaL.PhiCaNa` sets a quantity of \[1\] to an expression of \[m^-3 s A\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ICaL.PhiCaK` sets a quantity of \[1\] to an expression of \[m^-3 s A\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ICaL.ICaL` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ICaL.ICaNa` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ICaL.ICaK` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `IK1.rk1` sets a quantity of \[s\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `IK1.GK1_total` sets a quantity of \[s^-1\] to an expression of \[m^-1.5 s^-1 mol^0.5\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `IK1.IK1` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[m^2 kg s^-3 A^-1\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaCa_i.h1_i`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaCa_i.h2_i` sets a quantity of \[1\] to an expression of \[m^-3 s mol\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaCa_i.h4_i`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: in the equation of `INaCa_i.h4_i`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaCa_i.h5_i` sets a quantity of \[1\] to an expression of \[m^-6 s^2 mol^2\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaCa_i.h7_i`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaCa_i.h8_i` sets a quantity of \[1\] to an expression of \[m^-3 s mol\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaCa_i.h10_i`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: in the equation of `INaCa_i.h10_i`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaCa_i.h11_i` sets a quantity of \[1\] to an expression of \[m^-6 s^2 mol^2\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.k1_i` sets a quantity of \[1\] to an expression of \[m^-3 s^-1 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.k2_i` sets a quantity of \[1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.k5_i` sets a quantity of \[1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.k6_i` sets a quantity of \[1\] to an expression of \[m^-3 s^-1 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.JncxNa_i` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.JncxCa_i` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.INaCa_i` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[m^-3 s^-2 mol\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaCa_i.h1_ss`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaCa_i.h2_ss` sets a quantity of \[1\] to an expression of \[m^-3 s mol\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaCa_i.h4_ss`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: in the equation of `INaCa_i.h4_ss`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaCa_i.h5_ss` sets a quantity of \[1\] to an expression of \[m^-6 s^2 mol^2\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaCa_i.h7_ss`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaCa_i.h8_ss` sets a quantity of \[1\] to an expression of \[m^-3 s mol\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaCa_i.h10_ss`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: in the equation of `INaCa_i.h10_ss`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaCa_i.h11_ss` sets a quantity of \[1\] to an expression of \[m^-6 s^2 mol^2\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.k1_ss` sets a quantity of \[1\] to an expression of \[m^-3 s^-1 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.k2_ss` sets a quantity of \[1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.k5_ss` sets a quantity of \[1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.k6_ss` sets a quantity of \[1\] to an expression of \[m^-3 s^-1 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.JncxNa_ss` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.JncxCa_ss` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaCa_i.INaCa_ss` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[m^-3 s^-2 mol\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaK.Knai`: the argument of \<exp\> joins \[1\] and \[m^2 kg s^-3 A^-1\]; fix the units of the variables or numbers involved
//! - inconsistent units: in the equation of `INaK.Knao`: \<minus\> joins \[1\] and \[m^2 kg s^-3 A^-1\]; fix the units of the variables or numbers involved
//! - inconsistent units: in the equation of `INaK.a1`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaK.a1` sets a quantity of \[1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaK.b1` sets a quantity of \[1\] to an expression of \[m^-3 s^-1 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaK.a2` sets a quantity of \[1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaK.b2`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaK.b2` sets a quantity of \[1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaK.a3`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaK.a3` sets a quantity of \[1\] to an expression of \[m^-6 s mol^2\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaK.b3` sets a quantity of \[1\] to an expression of \[m^-3 s^-1 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaK.a4` sets a quantity of \[1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: in the equation of `INaK.b4`: \<plus\> joins \[1\] and \[m^-3 s mol\]; fix the units of the variables or numbers involved
//! - inconsistent units: the equation of `INaK.b4` sets a quantity of \[1\] to an expression of \[m^-6 s mol^2\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaK.JnakNa` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaK.JnakK` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INaK.INaK` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[m^-3 s^-2 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `INab.INab` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[m^-3 A\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ICab.ICab` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[m^-3 A\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `IpCa.IpCa` sets a quantity of \[m^2 kg s^-4 A^-1\] to an expression of \[s^-1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `diff.JdiffNa` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[m^-3 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `diff.JdiffK` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[m^-3 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `diff.Jdiff` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[m^-3 mol\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ryr.Jrel_inf_temp` sets a quantity of \[1\] to an expression of \[s\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ryr.Jrel_temp` sets a quantity of \[1\] to an expression of \[m^2 kg s^-3 A^-1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `ryr.Jrel` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `SERCA.Jupnp` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//! - inconsistent units: the equation of `SERCA.Jupp` sets a quantity of \[m^-3 s^-1 mol\] to an expression of \[1\]; fix the units of its variables or numbers
//!
//! Constants no equation uses once the stimulus is removed: `membrane.i_Stim_Start`, `membrane.i_Stim_End`, `membrane.i_Stim_Amplitude`, `membrane.i_Stim_Period`, `membrane.i_Stim_PulseDuration`.

#![allow(non_snake_case, unused_parens, unused_variables, clippy::all)]

use crate::math::{exp, ln};
use crate::model::Parameter as P;
use crate::model::{
    CellModel, ModelInfo, Numerics, Preset, Range, StimulusCarrier, StimulusCurrent, Variable,
};
use crate::models::describe::{ms_mm, unpack};
use crate::models::imported::support::*;
use crate::real::Real;

/// ohara_rudy_2011_endo (41 variables).
#[derive(Clone, Copy, Debug)]
pub struct OharaRudy2011;

/// The coefficients, formed in f64 from the parameters and dt and rounded once.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OharaRudy2011Coeffs<T> {
    /// the time step in the file's time unit
    pub dt: T,
    /// `environment.celltype` (dimensionless)
    pub celltype: T,
    /// `extracellular.nao` (millimolar)
    pub nao: T,
    /// `extracellular.ko` (millimolar)
    pub ko: T,
    /// `physical_constants.F` (coulomb_per_mole)
    pub F: T,
    /// `physical_constants.zna` (dimensionless)
    pub zna: T,
    /// `physical_constants.zca` (dimensionless)
    pub zca: T,
    /// `physical_constants.zk` (dimensionless)
    pub zk: T,
    /// `cell_geometry.Acap` (centimeter_squared)
    pub Acap: T,
    /// `cell_geometry.vmyo` (microliter)
    pub vmyo: T,
    /// `cell_geometry.vnsr` (microliter)
    pub vnsr: T,
    /// `cell_geometry.vjsr` (microliter)
    pub vjsr: T,
    /// `cell_geometry.vss` (microliter)
    pub vss: T,
    /// `membrane.Istim` (microA_per_microF)
    pub Istim: T,
    /// `CaMK.KmCaMK` (millimolar)
    pub KmCaMK: T,
    /// `CaMK.aCaMK` (per_millimolar_per_millisecond)
    pub aCaMK: T,
    /// `CaMK.bCaMK` (per_millisecond)
    pub bCaMK: T,
    /// `CaMK.CaMKo` (dimensionless)
    pub CaMKo: T,
    /// `CaMK.KmCaM` (millimolar)
    pub KmCaM: T,
    /// `intracellular_ions.kmcmdn` (millimolar)
    pub kmcmdn: T,
    /// `intracellular_ions.kmtrpn` (millimolar)
    pub kmtrpn: T,
    /// `intracellular_ions.KmBSR` (millimolar)
    pub KmBSR: T,
    /// `intracellular_ions.KmBSL` (millimolar)
    pub KmBSL: T,
    /// `intracellular_ions.kmcsqn` (millimolar)
    pub kmcsqn: T,
    /// `intracellular_ions.cm` (microF_per_centimeter_squared)
    pub cm: T,
    /// `reversal_potentials.PKNa` (dimensionless)
    pub PKNa: T,
    /// `INa.mssV1` (millivolt)
    pub mssV1: T,
    /// `INa.mssV2` (millivolt)
    pub mssV2: T,
    /// `INa.mtV1` (millivolt)
    pub mtV1: T,
    /// `INa.mtV2` (millivolt)
    pub mtV2: T,
    /// `INa.mtD1` (dimensionless)
    pub mtD1: T,
    /// `INa.mtD2` (dimensionless)
    pub mtD2: T,
    /// `INa.mtV3` (millivolt)
    pub mtV3: T,
    /// `INa.mtV4` (millivolt)
    pub mtV4: T,
    /// `INa.hssV1` (millivolt)
    pub hssV1: T,
    /// `INa.hssV2` (millivolt)
    pub hssV2: T,
    /// `INa.Ahs` (dimensionless)
    pub Ahs: T,
    /// `INa.Ahf` (dimensionless)
    pub Ahf: T,
    /// `INa.GNa` (milliS_per_microF)
    pub GNa: T,
    /// `INaL.thL` (millisecond)
    pub thL: T,
    /// `INaL.thLp` (millisecond)
    pub thLp: T,
    /// `INaL.GNaL` (milliS_per_microF)
    pub GNaL: T,
    /// `Ito.Gto` (milliS_per_microF)
    pub Gto: T,
    /// `ICaL.Kmn` (millimolar)
    pub Kmn: T,
    /// `ICaL.k2n` (per_millisecond)
    pub k2n: T,
    /// `ICaL.Aff` (dimensionless)
    pub Aff: T,
    /// `ICaL.Afs` (dimensionless)
    pub Afs: T,
    /// `ICaL.PCa` (dimensionless)
    pub PCa: T,
    /// `ICaL.PCap` (dimensionless)
    pub PCap: T,
    /// `ICaL.PCaNa` (dimensionless)
    pub PCaNa: T,
    /// `ICaL.PCaK` (dimensionless)
    pub PCaK: T,
    /// `ICaL.PCaNap` (dimensionless)
    pub PCaNap: T,
    /// `ICaL.PCaKp` (dimensionless)
    pub PCaKp: T,
    /// `ICaL.tjca` (millisecond)
    pub tjca: T,
    /// `IKr.GKr_total` (milliS_per_microF)
    pub GKr_total: T,
    /// `IKs.GKs` (milliS_per_microF)
    pub GKs: T,
    /// `IKs.txs1_max` (millisecond)
    pub txs1_max: T,
    /// `IK1.GK1_total` (milliS_per_microF)
    pub GK1_total: T,
    /// `INaCa_i.kna1` (per_millisecond)
    pub kna1: T,
    /// `INaCa_i.kna2` (per_millisecond)
    pub kna2: T,
    /// `INaCa_i.kna3` (per_millisecond)
    pub kna3: T,
    /// `INaCa_i.wna` (dimensionless)
    pub wna: T,
    /// `INaCa_i.wca` (dimensionless)
    pub wca: T,
    /// `INaCa_i.wnaca` (dimensionless)
    pub wnaca: T,
    /// `INaCa_i.kcaon` (per_millisecond)
    pub kcaon: T,
    /// `INaCa_i.qna` (dimensionless)
    pub qna: T,
    /// `INaCa_i.qca` (dimensionless)
    pub qca: T,
    /// `INaCa_i.KmCaAct` (millimolar)
    pub KmCaAct: T,
    /// `INaCa_i.Gncx` (milliS_per_microF)
    pub Gncx: T,
    /// `INaCa_i.h11_i` (dimensionless)
    pub h11_i: T,
    /// `INaCa_i.k1_i` (dimensionless)
    pub k1_i: T,
    /// `INaCa_i.k2_i` (dimensionless)
    pub k2_i: T,
    /// `INaCa_i.k5_i` (dimensionless)
    pub k5_i: T,
    /// `INaCa_i.h11_ss` (dimensionless)
    pub h11_ss: T,
    /// `INaCa_i.k1_ss` (dimensionless)
    pub k1_ss: T,
    /// `INaCa_i.k2_ss` (dimensionless)
    pub k2_ss: T,
    /// `INaCa_i.k5_ss` (dimensionless)
    pub k5_ss: T,
    /// `INaK.k1p` (per_millisecond)
    pub k1p: T,
    /// `INaK.k2m` (per_millisecond)
    pub k2m: T,
    /// `INaK.k3m` (per_millisecond)
    pub k3m: T,
    /// `INaK.k4m` (per_millisecond)
    pub k4m: T,
    /// `INaK.Knai0` (millimolar)
    pub Knai0: T,
    /// `INaK.Knao0` (millimolar)
    pub Knao0: T,
    /// `INaK.delta` (millivolt)
    pub delta: T,
    /// `INaK.Kki` (per_millisecond)
    pub Kki: T,
    /// `INaK.H` (millimolar)
    pub H: T,
    /// `INaK.eP` (dimensionless)
    pub eP: T,
    /// `INaK.Knap` (millimolar)
    pub Knap: T,
    /// `INaK.Kxkur` (millimolar)
    pub Kxkur: T,
    /// `INaK.Pnak` (milliS_per_microF)
    pub Pnak: T,
    /// `INaK.b1` (dimensionless)
    pub b1: T,
    /// `INaK.a2` (dimensionless)
    pub a2: T,
    /// `INaK.a4` (dimensionless)
    pub a4: T,
    /// `IKb.GKb` (milliS_per_microF)
    pub GKb: T,
    /// `INab.PNab` (milliS_per_microF)
    pub PNab: T,
    /// `ICab.PCab` (milliS_per_microF)
    pub PCab: T,
    /// `IpCa.GpCa` (milliS_per_microF)
    pub GpCa: T,
    /// `IpCa.KmCap` (millimolar)
    pub KmCap: T,
    /// `ryr.bt` (millisecond)
    pub bt: T,
    /// `ryr.a_rel` (millisecond)
    pub a_rel: T,
    /// `ryr.btp` (millisecond)
    pub btp: T,
    /// `ryr.a_relp` (millisecond)
    pub a_relp: T,
    /// `ryr.Jrel_scaling_factor` (dimensionless)
    pub Jrel_scaling_factor: T,
    /// `SERCA.upScale` (dimensionless)
    pub upScale: T,
    /// `SERCA.Jup_b` (dimensionless)
    pub Jup_b: T,
    /// `(R * T_x)`
    pub k__0: T,
    /// `(cmdnmax * kmcmdn)`
    pub k__1: T,
    /// `(trpnmax * kmtrpn)`
    pub k__2: T,
    /// `(csqnmax * kmcsqn)`
    pub k__3: T,
    /// `(BSRmax * KmBSR)`
    pub k__4: T,
    /// `(BSLmax * KmBSL)`
    pub k__5: T,
    /// `((R * T_x) / F)`
    pub k__6: T,
    /// `(ko + (PKNa * nao))`
    pub k__7: T,
    /// `(0.341 * cao)`
    pub k__8: T,
    /// `(0.75 * nao)`
    pub k__9: T,
    /// `(0.75 * ko)`
    pub k__10: T,
    /// `(-0.05)`
    pub k__11: T,
    /// `(2.5538 * ko)`
    pub k__12: T,
    /// `((1.5692 * ko) + 3.8115)`
    pub k__13: T,
    /// `(2.6 * ko)`
    pub k__14: T,
    /// `(nao / kna3)`
    pub k__15: T,
    /// `(3.0 * R * T_x)`
    pub k__16: T,
    /// `(1.0 - delta)`
    pub k__17: T,
    /// `(H / Khp)`
    pub k__18: T,
    /// `powi((1.0 + (ko / Kko)), 2)`
    pub k__19: T,
    /// `(k3p * powi((ko / Kko), 2))`
    pub k__20: T,
    /// `(1.0 + (MgATP / Kmgatp))`
    pub k__21: T,
    /// `(F * vmyo)`
    pub k__22: T,
    /// `(F * vss)`
    pub k__23: T,
    /// `(2.0 * F * vss)`
    pub k__24: T,
    /// `(2.0 * F * vmyo)`
    pub k__25: T,
    /// `((-1.0) * CaMKo)`
    pub k__26: T,
    /// `(-bCaMK)`
    pub k__27: T,
    /// `(-(1.0 / 2.0))`
    pub k__28: T,
    /// `(-(1.0 / 0.2))`
    pub k__29: T,
    /// `(((-(0.0039375 / 15.0)) * Jup_b) + (-(((1.0 / 100.0) * vjsr) / vnsr)))`
    pub k__30: T,
    /// `((-1.0) / 100.0)`
    pub k__31: T,
    /// `(upScale * 0.004375)`
    pub k__32: T,
    /// `((upScale * 2.75) * 0.004375)`
    pub k__33: T,
    /// `((((-1.0) / 0.2) * vss) / vmyo)`
    pub k__34: T,
    /// `((1.0 / thL) * (-1.0))`
    pub k__35: T,
    /// `((1.0 / thLp) * (-1.0))`
    pub k__36: T,
    /// `((1.0 / tjca) * (-1.0))`
    pub k__37: T,
}

/// The file's initial values (V in mV), then the carries' (0).
const REST: [f64; 50] = [
    (-87.0),
    0.0,
    7.0,
    7.0,
    145.0,
    145.0,
    0.0001,
    1.2,
    1.2,
    0.0001,
    0.0,
    1.0,
    1.0,
    1.0,
    1.0,
    1.0,
    0.0,
    1.0,
    1.0,
    0.0,
    1.0,
    1.0,
    0.0,
    1.0,
    1.0,
    0.0,
    1.0,
    1.0,
    1.0,
    1.0,
    1.0,
    1.0,
    1.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    1.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
];

const VARIABLES: &[Variable] = &[
    Variable { name: "v", unit: "mV", meaning: "membrane.v", rest: REST[0], display: (-100.0, 60.0) },
    Variable { name: "CaMKt", unit: "millimolar", meaning: "CaMK.CaMKt", rest: REST[1], display: (0.0, 1.0) },
    Variable {
        name: "nai",
        unit: "millimolar",
        meaning: "intracellular_ions.nai",
        rest: REST[2],
        display: (0.0, 14.0),
    },
    Variable {
        name: "nass",
        unit: "millimolar",
        meaning: "intracellular_ions.nass",
        rest: REST[3],
        display: (0.0, 14.0),
    },
    Variable {
        name: "ki",
        unit: "millimolar",
        meaning: "intracellular_ions.ki",
        rest: REST[4],
        display: (0.0, 290.0),
    },
    Variable {
        name: "kss",
        unit: "millimolar",
        meaning: "intracellular_ions.kss",
        rest: REST[5],
        display: (0.0, 290.0),
    },
    Variable {
        name: "cass",
        unit: "millimolar",
        meaning: "intracellular_ions.cass",
        rest: REST[6],
        display: (0.0, 0.0002),
    },
    Variable {
        name: "cansr",
        unit: "millimolar",
        meaning: "intracellular_ions.cansr",
        rest: REST[7],
        display: (0.0, 2.4),
    },
    Variable {
        name: "cajsr",
        unit: "millimolar",
        meaning: "intracellular_ions.cajsr",
        rest: REST[8],
        display: (0.0, 2.4),
    },
    Variable {
        name: "cai",
        unit: "millimolar",
        meaning: "intracellular_ions.cai",
        rest: REST[9],
        display: (0.0, 0.0002),
    },
    Variable { name: "m", unit: "1", meaning: "INa.m", rest: REST[10], display: (0.0, 1.0) },
    Variable { name: "hf", unit: "1", meaning: "INa.hf", rest: REST[11], display: (0.0, 1.0) },
    Variable { name: "hs", unit: "1", meaning: "INa.hs", rest: REST[12], display: (0.0, 1.0) },
    Variable { name: "j", unit: "1", meaning: "INa.j", rest: REST[13], display: (0.0, 1.0) },
    Variable { name: "hsp", unit: "1", meaning: "INa.hsp", rest: REST[14], display: (0.0, 1.0) },
    Variable { name: "jp", unit: "1", meaning: "INa.jp", rest: REST[15], display: (0.0, 1.0) },
    Variable { name: "mL", unit: "1", meaning: "INaL.mL", rest: REST[16], display: (0.0, 1.0) },
    Variable { name: "hL", unit: "1", meaning: "INaL.hL", rest: REST[17], display: (0.0, 1.0) },
    Variable { name: "hLp", unit: "1", meaning: "INaL.hLp", rest: REST[18], display: (0.0, 1.0) },
    Variable { name: "a", unit: "1", meaning: "Ito.a", rest: REST[19], display: (0.0, 1.0) },
    Variable { name: "iF", unit: "1", meaning: "Ito.iF", rest: REST[20], display: (0.0, 1.0) },
    Variable { name: "iS", unit: "1", meaning: "Ito.iS", rest: REST[21], display: (0.0, 1.0) },
    Variable { name: "ap", unit: "1", meaning: "Ito.ap", rest: REST[22], display: (0.0, 1.0) },
    Variable { name: "iFp", unit: "1", meaning: "Ito.iFp", rest: REST[23], display: (0.0, 1.0) },
    Variable { name: "iSp", unit: "1", meaning: "Ito.iSp", rest: REST[24], display: (0.0, 1.0) },
    Variable { name: "d", unit: "1", meaning: "ICaL.d", rest: REST[25], display: (0.0, 1.0) },
    Variable { name: "ff", unit: "1", meaning: "ICaL.ff", rest: REST[26], display: (0.0, 1.0) },
    Variable { name: "fs", unit: "1", meaning: "ICaL.fs", rest: REST[27], display: (0.0, 1.0) },
    Variable { name: "fcaf", unit: "1", meaning: "ICaL.fcaf", rest: REST[28], display: (0.0, 1.0) },
    Variable { name: "fcas", unit: "1", meaning: "ICaL.fcas", rest: REST[29], display: (0.0, 1.0) },
    Variable { name: "jca", unit: "1", meaning: "ICaL.jca", rest: REST[30], display: (0.0, 1.0) },
    Variable { name: "ffp", unit: "1", meaning: "ICaL.ffp", rest: REST[31], display: (0.0, 1.0) },
    Variable { name: "fcafp", unit: "1", meaning: "ICaL.fcafp", rest: REST[32], display: (0.0, 1.0) },
    Variable { name: "nca", unit: "1", meaning: "ICaL.nca", rest: REST[33], display: (0.0, 1.0) },
    Variable { name: "xrf", unit: "1", meaning: "IKr.xrf", rest: REST[34], display: (0.0, 1.0) },
    Variable { name: "xrs", unit: "1", meaning: "IKr.xrs", rest: REST[35], display: (0.0, 1.0) },
    Variable { name: "xs1", unit: "1", meaning: "IKs.xs1", rest: REST[36], display: (0.0, 1.0) },
    Variable { name: "xs2", unit: "1", meaning: "IKs.xs2", rest: REST[37], display: (0.0, 1.0) },
    Variable { name: "xk1", unit: "1", meaning: "IK1.xk1", rest: REST[38], display: (0.0, 1.0) },
    Variable { name: "Jrelnp", unit: "1", meaning: "ryr.Jrelnp", rest: REST[39], display: (0.0, 1.0) },
    Variable { name: "Jrelp", unit: "1", meaning: "ryr.Jrelp", rest: REST[40], display: (0.0, 1.0) },
    Variable {
        name: "CaMKt__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in CaMKt (0 in f64)",
        rest: REST[41],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "nai__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in nai (0 in f64)",
        rest: REST[42],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "nass__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in nass (0 in f64)",
        rest: REST[43],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "ki__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in ki (0 in f64)",
        rest: REST[44],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "kss__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in kss (0 in f64)",
        rest: REST[45],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "cass__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in cass (0 in f64)",
        rest: REST[46],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "cansr__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in cansr (0 in f64)",
        rest: REST[47],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "cajsr__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in cajsr (0 in f64)",
        rest: REST[48],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "cai__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in cai (0 in f64)",
        rest: REST[49],
        display: (-1e-6, 1e-6),
    },
];

const PARAMETERS: &[P] = &[
    P::new("celltype", 0.0, "1", Range::NonNegative, "environment.celltype"),
    P::new("nao", 140.0, "millimolar", Range::NonNegative, "extracellular.nao"),
    P::new("cao", 1.8, "millimolar", Range::NonNegative, "extracellular.cao"),
    P::new("ko", 5.4, "millimolar", Range::NonNegative, "extracellular.ko"),
    P::new("R", 8314.0, "joule_per_kilomole_kelvin", Range::NonNegative, "physical_constants.R"),
    P::new("T_x", 310.0, "kelvin", Range::NonNegative, "physical_constants.T"),
    P::new("F", 96485.0, "coulomb_per_mole", Range::NonNegative, "physical_constants.F"),
    P::new("zna", 1.0, "1", Range::NonNegative, "physical_constants.zna"),
    P::new("zca", 2.0, "1", Range::NonNegative, "physical_constants.zca"),
    P::new("zk", 1.0, "1", Range::NonNegative, "physical_constants.zk"),
    P::new("L", 0.01, "centimeter", Range::NonNegative, "cell_geometry.L"),
    P::new("rad", 0.0011, "centimeter", Range::NonNegative, "cell_geometry.rad"),
    P::new("KmCaMK", 0.15, "millimolar", Range::NonNegative, "CaMK.KmCaMK"),
    P::new("aCaMK", 0.05, "per_millimolar_per_millisecond", Range::NonNegative, "CaMK.aCaMK"),
    P::new("bCaMK", 0.00068, "per_millisecond", Range::NonNegative, "CaMK.bCaMK"),
    P::new("CaMKo", 0.05, "1", Range::NonNegative, "CaMK.CaMKo"),
    P::new("KmCaM", 0.0015, "millimolar", Range::NonNegative, "CaMK.KmCaM"),
    P::new("cmdnmax_b", 0.05, "millimolar", Range::NonNegative, "intracellular_ions.cmdnmax_b"),
    P::new("kmcmdn", 0.00238, "millimolar", Range::NonNegative, "intracellular_ions.kmcmdn"),
    P::new("trpnmax", 0.07, "millimolar", Range::NonNegative, "intracellular_ions.trpnmax"),
    P::new("kmtrpn", 0.0005, "millimolar", Range::NonNegative, "intracellular_ions.kmtrpn"),
    P::new("BSRmax", 0.047, "millimolar", Range::NonNegative, "intracellular_ions.BSRmax"),
    P::new("KmBSR", 0.00087, "millimolar", Range::NonNegative, "intracellular_ions.KmBSR"),
    P::new("BSLmax", 1.124, "millimolar", Range::NonNegative, "intracellular_ions.BSLmax"),
    P::new("KmBSL", 0.0087, "millimolar", Range::NonNegative, "intracellular_ions.KmBSL"),
    P::new("csqnmax", 10.0, "millimolar", Range::NonNegative, "intracellular_ions.csqnmax"),
    P::new("kmcsqn", 0.8, "millimolar", Range::NonNegative, "intracellular_ions.kmcsqn"),
    P::new("cm", 1.0, "microF_per_centimeter_squared", Range::NonNegative, "intracellular_ions.cm"),
    P::new("PKNa", 0.01833, "1", Range::NonNegative, "reversal_potentials.PKNa"),
    P::new("mssV1", 39.57, "millivolt", Range::NonNegative, "INa.mssV1"),
    P::new("mssV2", 9.871, "millivolt", Range::NonNegative, "INa.mssV2"),
    P::new("mtV1", 11.64, "millivolt", Range::NonNegative, "INa.mtV1"),
    P::new("mtV2", 34.77, "millivolt", Range::NonNegative, "INa.mtV2"),
    P::new("mtD1", 6.765, "1", Range::NonNegative, "INa.mtD1"),
    P::new("mtD2", 8.552, "1", Range::NonNegative, "INa.mtD2"),
    P::new("mtV3", 77.42, "millivolt", Range::NonNegative, "INa.mtV3"),
    P::new("mtV4", 5.955, "millivolt", Range::NonNegative, "INa.mtV4"),
    P::new("hssV1", 82.9, "millivolt", Range::NonNegative, "INa.hssV1"),
    P::new("hssV2", 6.086, "millivolt", Range::NonNegative, "INa.hssV2"),
    P::new("Ahf", 0.99, "1", Range::NonNegative, "INa.Ahf"),
    P::new("GNa", 75.0, "milliS_per_microF", Range::NonNegative, "INa.GNa"),
    P::new("thL", 200.0, "millisecond", Range::NonNegative, "INaL.thL"),
    P::new("GNaL_b", 0.0075, "milliS_per_microF", Range::NonNegative, "INaL.GNaL_b"),
    P::new("Gto_b", 0.02, "milliS_per_microF", Range::NonNegative, "Ito.Gto_b"),
    P::new("Kmn", 0.002, "millimolar", Range::NonNegative, "ICaL.Kmn"),
    P::new("k2n", 1000.0, "per_millisecond", Range::NonNegative, "ICaL.k2n"),
    P::new("PCa_b", 0.0001, "1", Range::NonNegative, "ICaL.PCa_b"),
    P::new("GKr_b", 0.046, "milliS_per_microF", Range::NonNegative, "IKr.GKr_b"),
    P::new("GKs_b", 0.0034, "milliS_per_microF", Range::NonNegative, "IKs.GKs_b"),
    P::new("txs1_max", 817.3, "millisecond", Range::NonNegative, "IKs.txs1_max"),
    P::new("GK1_b", 0.1908, "milliS_per_microF", Range::NonNegative, "IK1.GK1_b"),
    P::new("kna1", 15.0, "per_millisecond", Range::NonNegative, "INaCa_i.kna1"),
    P::new("kna2", 5.0, "per_millisecond", Range::NonNegative, "INaCa_i.kna2"),
    P::new("kna3", 88.12, "per_millisecond", Range::NonNegative, "INaCa_i.kna3"),
    P::new("kasymm", 12.5, "1", Range::NonNegative, "INaCa_i.kasymm"),
    P::new("wna", 60000.0, "1", Range::NonNegative, "INaCa_i.wna"),
    P::new("wca", 60000.0, "1", Range::NonNegative, "INaCa_i.wca"),
    P::new("wnaca", 5000.0, "1", Range::NonNegative, "INaCa_i.wnaca"),
    P::new("kcaon", 1500000.0, "per_millisecond", Range::NonNegative, "INaCa_i.kcaon"),
    P::new("kcaoff", 5000.0, "per_millisecond", Range::NonNegative, "INaCa_i.kcaoff"),
    P::new("qna", 0.5224, "1", Range::NonNegative, "INaCa_i.qna"),
    P::new("qca", 0.167, "1", Range::NonNegative, "INaCa_i.qca"),
    P::new("KmCaAct", 0.00015, "millimolar", Range::NonNegative, "INaCa_i.KmCaAct"),
    P::new("Gncx_b", 0.0008, "milliS_per_microF", Range::NonNegative, "INaCa_i.Gncx_b"),
    P::new("k1p", 949.5, "per_millisecond", Range::NonNegative, "INaK.k1p"),
    P::new("k1m", 182.4, "per_millisecond", Range::NonNegative, "INaK.k1m"),
    P::new("k2p", 687.2, "per_millisecond", Range::NonNegative, "INaK.k2p"),
    P::new("k2m", 39.4, "per_millisecond", Range::NonNegative, "INaK.k2m"),
    P::new("k3p", 1899.0, "per_millisecond", Range::NonNegative, "INaK.k3p"),
    P::new("k3m", 79300.0, "per_millisecond", Range::NonNegative, "INaK.k3m"),
    P::new("k4p", 639.0, "per_millisecond", Range::NonNegative, "INaK.k4p"),
    P::new("k4m", 40.0, "per_millisecond", Range::NonNegative, "INaK.k4m"),
    P::new("Knai0", 9.073, "millimolar", Range::NonNegative, "INaK.Knai0"),
    P::new("Knao0", 27.78, "millimolar", Range::NonNegative, "INaK.Knao0"),
    P::new("delta", (-0.155), "millivolt", Range::Finite, "INaK.delta"),
    P::new("Kki", 0.5, "per_millisecond", Range::NonNegative, "INaK.Kki"),
    P::new("Kko", 0.3582, "per_millisecond", Range::NonNegative, "INaK.Kko"),
    P::new("MgADP", 0.05, "millimolar", Range::NonNegative, "INaK.MgADP"),
    P::new("MgATP", 9.8, "millimolar", Range::NonNegative, "INaK.MgATP"),
    P::new("Kmgatp", 1.698e-7, "millimolar", Range::NonNegative, "INaK.Kmgatp"),
    P::new("H", 1e-7, "millimolar", Range::NonNegative, "INaK.H"),
    P::new("eP", 4.2, "1", Range::NonNegative, "INaK.eP"),
    P::new("Khp", 1.698e-7, "millimolar", Range::NonNegative, "INaK.Khp"),
    P::new("Knap", 224.0, "millimolar", Range::NonNegative, "INaK.Knap"),
    P::new("Kxkur", 292.0, "millimolar", Range::NonNegative, "INaK.Kxkur"),
    P::new("Pnak_b", 30.0, "milliS_per_microF", Range::NonNegative, "INaK.Pnak_b"),
    P::new("GKb_b", 0.003, "milliS_per_microF", Range::NonNegative, "IKb.GKb_b"),
    P::new("PNab", 3.75e-10, "milliS_per_microF", Range::NonNegative, "INab.PNab"),
    P::new("PCab", 2.5e-8, "milliS_per_microF", Range::NonNegative, "ICab.PCab"),
    P::new("GpCa", 0.0005, "milliS_per_microF", Range::NonNegative, "IpCa.GpCa"),
    P::new("KmCap", 0.0005, "millimolar", Range::NonNegative, "IpCa.KmCap"),
    P::new("bt", 4.75, "millisecond", Range::NonNegative, "ryr.bt"),
    P::new("Jrel_scaling_factor", 1.0, "1", Range::NonNegative, "ryr.Jrel_scaling_factor"),
    P::new("Jup_b", 1.0, "1", Range::NonNegative, "SERCA.Jup_b"),
];

impl CellModel for OharaRudy2011 {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "ohara_rudy_2011",
        title: "ohara_rudy_2011_endo",
        reference: "CellML model `ohara_rudy_2011_endo` (ohara_rudy_2011_endo.cellml), imported by fibril import-cellml",
        variables: VARIABLES,
        parameters: PARAMETERS,
        presets: &[
            Preset {
                name: "endo",
                meaning: "set by the import: [(\"celltype\", 0.0)]",
                values: &[("celltype", 0.0)],
            },
            Preset {
                name: "epi",
                meaning: "set by the import: [(\"celltype\", 1.0)]",
                values: &[("celltype", 1.0)],
            },
            Preset {
                name: "m",
                meaning: "set by the import: [(\"celltype\", 2.0)]",
                values: &[("celltype", 2.0)],
            },
        ],
        default_preset: "endo",
        units: ms_mm(
            "V in mV, times in ms, lengths in mm; the other variables and the parameters in the file's units",
        ),
        numerics: Numerics { dx: 0.2, dt: 0.0025, diffusion: 0.154 },
        activation_threshold: -40.0,
        stimulus_value: 20.0,
        planar_background: &REST,
        stimulus_current: Some(StimulusCurrent {
            amplitude: 80.0,
            duration: 0.5,
            carriers: &[StimulusCarrier { variable: 4, per_u: 6.152074288236873e-5, carry: Some(44) }],
        }),
        default_f64: true,
    };

    type Locals<T: Real> = [T; 49];
    type Coeffs<T: Real> = OharaRudy2011Coeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> OharaRudy2011Coeffs<T> {
        let [
            celltype,
            nao,
            cao,
            ko,
            R,
            T_x,
            F,
            zna,
            zca,
            zk,
            L,
            rad,
            KmCaMK,
            aCaMK,
            bCaMK,
            CaMKo,
            KmCaM,
            cmdnmax_b,
            kmcmdn,
            trpnmax,
            kmtrpn,
            BSRmax,
            KmBSR,
            BSLmax,
            KmBSL,
            csqnmax,
            kmcsqn,
            cm,
            PKNa,
            mssV1,
            mssV2,
            mtV1,
            mtV2,
            mtD1,
            mtD2,
            mtV3,
            mtV4,
            hssV1,
            hssV2,
            Ahf,
            GNa,
            thL,
            GNaL_b,
            Gto_b,
            Kmn,
            k2n,
            PCa_b,
            GKr_b,
            GKs_b,
            txs1_max,
            GK1_b,
            kna1,
            kna2,
            kna3,
            kasymm,
            wna,
            wca,
            wnaca,
            kcaon,
            kcaoff,
            qna,
            qca,
            KmCaAct,
            Gncx_b,
            k1p,
            k1m,
            k2p,
            k2m,
            k3p,
            k3m,
            k4p,
            k4m,
            Knai0,
            Knao0,
            delta,
            Kki,
            Kko,
            MgADP,
            MgATP,
            Kmgatp,
            H,
            eP,
            Khp,
            Knap,
            Kxkur,
            Pnak_b,
            GKb_b,
            PNab,
            PCab,
            GpCa,
            KmCap,
            bt,
            Jrel_scaling_factor,
            Jup_b,
        ] = unpack(params, "ohara_rudy_2011");
        let dt = dt * 1.0;
        let vcell = (1000.0 * 3.14 * rad * rad * L);
        let Ageo = ((2.0 * 3.14 * rad * rad) + (2.0 * 3.14 * rad * L));
        let Acap = (2.0 * Ageo);
        let vmyo = (0.68 * vcell);
        let vnsr = (0.0552 * vcell);
        let vjsr = (0.0048 * vcell);
        let vss = (0.02 * vcell);
        let Istim = 0.0;
        let cmdnmax = (if (celltype == 1.0) { (cmdnmax_b * 1.3) } else { cmdnmax_b });
        let Ahs = (1.0 - Ahf);
        let thLp = (3.0 * thL);
        let GNaL = (if (celltype == 1.0) { (GNaL_b * 0.6) } else { GNaL_b });
        let Gto = (if (celltype == 1.0) {
            (Gto_b * 4.0)
        } else if (celltype == 2.0) {
            (Gto_b * 4.0)
        } else {
            Gto_b
        });
        let Aff = 0.6;
        let Afs = (1.0 - Aff);
        let PCa = (if (celltype == 1.0) {
            (PCa_b * 1.2)
        } else if (celltype == 2.0) {
            (PCa_b * 2.5)
        } else {
            PCa_b
        });
        let PCap = (1.1 * PCa);
        let PCaNa = (0.00125 * PCa);
        let PCaK = (0.0003574 * PCa);
        let PCaNap = (0.00125 * PCap);
        let PCaKp = (0.0003574 * PCap);
        let tjca = 75.0;
        let GKr = (if (celltype == 1.0) {
            (GKr_b * 1.3)
        } else if (celltype == 2.0) {
            (GKr_b * 0.8)
        } else {
            GKr_b
        });
        let GKr_total = (GKr * sqrt_t((ko / 5.4)));
        let GKs = (if (celltype == 1.0) { (GKs_b * 1.4) } else { GKs_b });
        let GK1 = (if (celltype == 1.0) {
            (GK1_b * 1.2)
        } else if (celltype == 2.0) {
            (GK1_b * 1.3)
        } else {
            GK1_b
        });
        let GK1_total = (GK1 * sqrt_t(ko));
        let Gncx = (if (celltype == 1.0) {
            (Gncx_b * 1.1)
        } else if (celltype == 2.0) {
            (Gncx_b * 1.4)
        } else {
            Gncx_b
        });
        let h10_i = (kasymm + 1.0 + ((nao / kna1) * (1.0 + (nao / kna2))));
        let h11_i = ((nao * nao) / (h10_i * kna1 * kna2));
        let h12_i = (1.0 / h10_i);
        let k1_i = (h12_i * cao * kcaon);
        let k2_i = kcaoff;
        let k5_i = kcaoff;
        let h10_ss = (kasymm + 1.0 + ((nao / kna1) * (1.0 + (nao / kna2))));
        let h11_ss = ((nao * nao) / (h10_ss * kna1 * kna2));
        let h12_ss = (1.0 / h10_ss);
        let k1_ss = (h12_ss * cao * kcaon);
        let k2_ss = kcaoff;
        let k5_ss = kcaoff;
        let Pnak = (if (celltype == 1.0) {
            (Pnak_b * 0.9)
        } else if (celltype == 2.0) {
            (Pnak_b * 0.7)
        } else {
            Pnak_b
        });
        let b1 = (k1m * MgADP);
        let a2 = k2p;
        let a4 = (((k4p * MgATP) / Kmgatp) / (1.0 + (MgATP / Kmgatp)));
        let GKb = (if (celltype == 1.0) { (GKb_b * 0.6) } else { GKb_b });
        let a_rel = (0.5 * bt);
        let btp = (1.25 * bt);
        let a_relp = (0.5 * btp);
        let upScale = (if (celltype == 1.0) { 1.3 } else { 1.0 });
        let t = T::from_f64;
        OharaRudy2011Coeffs {
            dt: t(dt),
            celltype: t(celltype),
            nao: t(nao),
            ko: t(ko),
            F: t(F),
            zna: t(zna),
            zca: t(zca),
            zk: t(zk),
            Acap: t(Acap),
            vmyo: t(vmyo),
            vnsr: t(vnsr),
            vjsr: t(vjsr),
            vss: t(vss),
            Istim: t(Istim),
            KmCaMK: t(KmCaMK),
            aCaMK: t(aCaMK),
            bCaMK: t(bCaMK),
            CaMKo: t(CaMKo),
            KmCaM: t(KmCaM),
            kmcmdn: t(kmcmdn),
            kmtrpn: t(kmtrpn),
            KmBSR: t(KmBSR),
            KmBSL: t(KmBSL),
            kmcsqn: t(kmcsqn),
            cm: t(cm),
            PKNa: t(PKNa),
            mssV1: t(mssV1),
            mssV2: t(mssV2),
            mtV1: t(mtV1),
            mtV2: t(mtV2),
            mtD1: t(mtD1),
            mtD2: t(mtD2),
            mtV3: t(mtV3),
            mtV4: t(mtV4),
            hssV1: t(hssV1),
            hssV2: t(hssV2),
            Ahs: t(Ahs),
            Ahf: t(Ahf),
            GNa: t(GNa),
            thL: t(thL),
            thLp: t(thLp),
            GNaL: t(GNaL),
            Gto: t(Gto),
            Kmn: t(Kmn),
            k2n: t(k2n),
            Aff: t(Aff),
            Afs: t(Afs),
            PCa: t(PCa),
            PCap: t(PCap),
            PCaNa: t(PCaNa),
            PCaK: t(PCaK),
            PCaNap: t(PCaNap),
            PCaKp: t(PCaKp),
            tjca: t(tjca),
            GKr_total: t(GKr_total),
            GKs: t(GKs),
            txs1_max: t(txs1_max),
            GK1_total: t(GK1_total),
            kna1: t(kna1),
            kna2: t(kna2),
            kna3: t(kna3),
            wna: t(wna),
            wca: t(wca),
            wnaca: t(wnaca),
            kcaon: t(kcaon),
            qna: t(qna),
            qca: t(qca),
            KmCaAct: t(KmCaAct),
            Gncx: t(Gncx),
            h11_i: t(h11_i),
            k1_i: t(k1_i),
            k2_i: t(k2_i),
            k5_i: t(k5_i),
            h11_ss: t(h11_ss),
            k1_ss: t(k1_ss),
            k2_ss: t(k2_ss),
            k5_ss: t(k5_ss),
            k1p: t(k1p),
            k2m: t(k2m),
            k3m: t(k3m),
            k4m: t(k4m),
            Knai0: t(Knai0),
            Knao0: t(Knao0),
            delta: t(delta),
            Kki: t(Kki),
            H: t(H),
            eP: t(eP),
            Knap: t(Knap),
            Kxkur: t(Kxkur),
            Pnak: t(Pnak),
            b1: t(b1),
            a2: t(a2),
            a4: t(a4),
            GKb: t(GKb),
            PNab: t(PNab),
            PCab: t(PCab),
            GpCa: t(GpCa),
            KmCap: t(KmCap),
            bt: t(bt),
            a_rel: t(a_rel),
            btp: t(btp),
            a_relp: t(a_relp),
            Jrel_scaling_factor: t(Jrel_scaling_factor),
            upScale: t(upScale),
            Jup_b: t(Jup_b),
            k__0: t((R * T_x)),
            k__1: t((cmdnmax * kmcmdn)),
            k__2: t((trpnmax * kmtrpn)),
            k__3: t((csqnmax * kmcsqn)),
            k__4: t((BSRmax * KmBSR)),
            k__5: t((BSLmax * KmBSL)),
            k__6: t(((R * T_x) / F)),
            k__7: t((ko + (PKNa * nao))),
            k__8: t((0.341 * cao)),
            k__9: t((0.75 * nao)),
            k__10: t((0.75 * ko)),
            k__11: t((-0.05)),
            k__12: t((2.5538 * ko)),
            k__13: t(((1.5692 * ko) + 3.8115)),
            k__14: t((2.6 * ko)),
            k__15: t((nao / kna3)),
            k__16: t((3.0 * R * T_x)),
            k__17: t((1.0 - delta)),
            k__18: t((H / Khp)),
            k__19: t(powi((1.0 + (ko / Kko)), 2)),
            k__20: t((k3p * powi((ko / Kko), 2))),
            k__21: t((1.0 + (MgATP / Kmgatp))),
            k__22: t((F * vmyo)),
            k__23: t((F * vss)),
            k__24: t((2.0 * F * vss)),
            k__25: t((2.0 * F * vmyo)),
            k__26: t(((-1.0) * CaMKo)),
            k__27: t((-bCaMK)),
            k__28: t((-(1.0 / 2.0))),
            k__29: t((-(1.0 / 0.2))),
            k__30: t((((-(0.0039375 / 15.0)) * Jup_b) + (-(((1.0 / 100.0) * vjsr) / vnsr)))),
            k__31: t(((-1.0) / 100.0)),
            k__32: t((upScale * 0.004375)),
            k__33: t(((upScale * 2.75) * 0.004375)),
            k__34: t(((((-1.0) / 0.2) * vss) / vmyo)),
            k__35: t(((1.0 / thL) * (-1.0))),
            k__36: t(((1.0 / thLp) * (-1.0))),
            k__37: t(((1.0 / tjca) * (-1.0))),
        }
    }

    reaction_method!(OharaRudy2011Coeffs, 49);
}

reaction_instances!(OharaRudy2011Coeffs, 49);

#[inline(always)]
fn reaction_body<T: Real>(v_mv: T, locals: &mut [T; 49], c: &OharaRudy2011Coeffs<T>) -> T {
    let n = T::from_f64;
    let CaMKt = locals[0];
    let nai = locals[1];
    let nass = locals[2];
    let ki = locals[3];
    let kss = locals[4];
    let cass = locals[5];
    let cansr = locals[6];
    let cajsr = locals[7];
    let cai = locals[8];
    let m = locals[9];
    let hf = locals[10];
    let hs = locals[11];
    let j = locals[12];
    let hsp = locals[13];
    let jp = locals[14];
    let mL = locals[15];
    let hL = locals[16];
    let hLp = locals[17];
    let a = locals[18];
    let iF = locals[19];
    let iS = locals[20];
    let ap = locals[21];
    let iFp = locals[22];
    let iSp = locals[23];
    let d = locals[24];
    let ff = locals[25];
    let fs = locals[26];
    let fcaf = locals[27];
    let fcas = locals[28];
    let jca = locals[29];
    let ffp = locals[30];
    let fcafp = locals[31];
    let nca = locals[32];
    let xrf = locals[33];
    let xrs = locals[34];
    let xs1 = locals[35];
    let xs2 = locals[36];
    let xk1 = locals[37];
    let Jrelnp = locals[38];
    let Jrelp = locals[39];
    let CaMKt__carry = locals[40];
    let nai__carry = locals[41];
    let nass__carry = locals[42];
    let ki__carry = locals[43];
    let kss__carry = locals[44];
    let cass__carry = locals[45];
    let cansr__carry = locals[46];
    let cajsr__carry = locals[47];
    let cai__carry = locals[48];
    let v = v_mv;
    let vffrt = ((v * c.F * c.F) / c.k__0);
    let vfrt = ((v * c.F) / c.k__0);
    let s__0 = (n(1.0) - CaMKt);
    let s__1 = (c.CaMKo * s__0);
    let s__2 = (c.KmCaM / cass);
    let s__3 = (n(1.0) + s__2);
    let CaMKb = (s__1 / s__3);
    let s__4 = (CaMKb + CaMKt);
    let CaMKa = s__4;
    let s__5 = (c.kmcmdn + cai);
    let s__6 = powi(s__5, 2);
    let s__7 = (c.k__1 / s__6);
    let s__8 = (c.kmtrpn + cai);
    let s__9 = powi(s__8, 2);
    let s__10 = (c.k__2 / s__9);
    let s__11 = (n(1.0) + s__7 + s__10);
    let Bcai = (n(1.0) / s__11);
    let s__12 = (c.kmcsqn + cajsr);
    let s__13 = powi(s__12, 2);
    let s__14 = (c.k__3 / s__13);
    let s__15 = (n(1.0) + s__14);
    let Bcajsr = (n(1.0) / s__15);
    let s__16 = (c.KmBSR + cass);
    let s__17 = powi(s__16, 2);
    let s__18 = (c.k__4 / s__17);
    let s__19 = (c.KmBSL + cass);
    let s__20 = powi(s__19, 2);
    let s__21 = (c.k__5 / s__20);
    let s__22 = (n(1.0) + s__18 + s__21);
    let Bcass = (n(1.0) / s__22);
    let ENa = (c.k__6 * ln((c.nao / nai)));
    let EK = (c.k__6 * ln((c.ko / ki)));
    let EKs = (c.k__6 * ln((c.k__7 / (ki + (c.PKNa * nai)))));
    let mss = (n(1.0) / (n(1.0) + exp(((-(v + c.mssV1)) / c.mssV2))));
    let tm =
        (n(1.0) / ((c.mtD1 * exp(((v + c.mtV1) / c.mtV2))) + (c.mtD2 * exp(((-(v + c.mtV3)) / c.mtV4)))));
    let hss = (n(1.0) / (n(1.0) + exp(((v + c.hssV1) / c.hssV2))));
    let thf = (n(1.0)
        / ((n(1.432e-5) * exp(((-(v + n(1.196))) / n(6.285))))
            + (n(6.149) * exp(((v + n(0.5096)) / n(20.27))))));
    let ths = (n(1.0)
        / ((n(0.009794) * exp(((-(v + n(17.95))) / n(28.05))))
            + (n(0.3343) * exp(((v + n(5.73)) / n(56.66))))));
    let s__23 = (c.Ahf * hf);
    let h = (s__23 + (c.Ahs * hs));
    let jss = hss;
    let tj = (n(2.038)
        + (n(1.0)
            / ((n(0.02136) * exp(((-(v + n(100.6))) / n(8.281))))
                + (n(0.3052) * exp(((v + n(0.9941)) / n(38.45)))))));
    let hssp = (n(1.0) / (n(1.0) + exp(((v + n(89.1)) / n(6.086)))));
    let thsp = (n(3.0) * ths);
    let hp = (s__23 + (c.Ahs * hsp));
    let tjp = (n(1.46) * tj);
    let s__24 = (c.KmCaMK / CaMKa);
    let s__25 = (n(1.0) + s__24);
    let s__26 = (n(1.0) / s__25);
    let fINap = s__26;
    let s__27 = (v - ENa);
    let INa = (c.GNa * s__27 * powi(m, 3) * (((n(1.0) - fINap) * h * j) + (fINap * hp * jp)));
    let mLss = (n(1.0) / (n(1.0) + exp(((-(v + n(42.85))) / n(5.264)))));
    let tmL = tm;
    let hLss = (n(1.0) / (n(1.0) + exp(((v + n(87.61)) / n(7.488)))));
    let hLssp = (n(1.0) / (n(1.0) + exp(((v + n(93.81)) / n(7.488)))));
    let fINaLp = s__26;
    let INaL = (c.GNaL * s__27 * mL * (((n(1.0) - fINaLp) * hL) + (fINaLp * hLp)));
    let ass = (n(1.0) / (n(1.0) + exp(((-(v - n(14.34))) / n(14.82)))));
    let s__28 = (v + n(100.0));
    let ta = (n(1.0515)
        / ((n(1.0) / (n(1.2089) * (n(1.0) + exp(((-(v - n(18.4099))) / n(29.3814))))))
            + (n(3.5) / (n(1.0) + exp((s__28 / n(29.3814)))))));
    let iss = (n(1.0) / (n(1.0) + exp(((v + n(43.94)) / n(5.711)))));
    let s__29 = (v + n(70.0));
    let delta_epi = (if (c.celltype == n(1.0)) {
        (n(1.0) - (n(0.95) / (n(1.0) + exp((s__29 / n(5.0))))))
    } else {
        n(1.0)
    });
    let tiF_b = (n(4.562)
        + (n(1.0)
            / ((n(0.3933) * exp(((-s__28) / n(100.0)))) + (n(0.08004) * exp(((v + n(50.0)) / n(16.59)))))));
    let tiS_b = (n(23.62)
        + (n(1.0)
            / ((n(0.001416) * exp(((-(v + n(96.52))) / n(59.05))))
                + (n(1.78e-8) * exp(((v + n(114.1)) / n(8.079)))))));
    let tiF = (tiF_b * delta_epi);
    let tiS = (tiS_b * delta_epi);
    let AiF = (n(1.0) / (n(1.0) + exp(((v - n(213.6)) / n(151.2)))));
    let AiS = (n(1.0) - AiF);
    let i = ((AiF * iF) + (AiS * iS));
    let assp = (n(1.0) / (n(1.0) + exp(((-(v - n(24.34))) / n(14.82)))));
    let dti_develop =
        (n(1.354) + (n(0.0001) / (exp(((v - n(167.4)) / n(15.89))) + exp(((-(v - n(12.23))) / n(0.2154))))));
    let dti_recover = (n(1.0) - (n(0.5) / (n(1.0) + exp((s__29 / n(20.0))))));
    let tiFp = (dti_develop * dti_recover * tiF);
    let tiSp = (dti_develop * dti_recover * tiS);
    let ip = ((AiF * iFp) + (AiS * iSp));
    let fItop = s__26;
    let s__30 = (v - EK);
    let Ito = (c.Gto * s__30 * (((n(1.0) - fItop) * a * i) + (fItop * ap * ip)));
    let dss = (n(1.0) / (n(1.0) + exp(((-(v + n(3.94))) / n(4.23)))));
    let fss = (n(1.0) / (n(1.0) + exp(((v + n(19.58)) / n(3.696)))));
    let s__31 = (c.Afs * fs);
    let f = ((c.Aff * ff) + s__31);
    let fcass = fss;
    let s__32 = (v - n(10.0));
    let Afcaf = (n(0.3) + (n(0.6) / (n(1.0) + exp((s__32 / n(10.0))))));
    let Afcas = (n(1.0) - Afcaf);
    let s__33 = (Afcas * fcas);
    let fca = ((Afcaf * fcaf) + s__33);
    let fp = ((c.Aff * ffp) + s__31);
    let fcap = ((Afcaf * fcafp) + s__33);
    let km2n = (jca * n(1.0));
    let anca = (n(1.0) / ((c.k2n / km2n) + powi((n(1.0) + (c.Kmn / cass)), 4)));
    let s__34 = (n(2.0) * vfrt);
    let s__35 = exp(s__34);
    let s__36 = (s__35 - n(1.0));
    let PhiCaL = removable(
        v,
        -0.0,
        0.07487176701560523,
        ((n(4.0) * vffrt * ((cass * s__35) - c.k__8)) / s__36),
        |v: T| {
            ((n(4.0) * ((v * c.F * c.F) / c.k__0) * ((cass * exp((n(2.0) * ((v * c.F) / c.k__0)))) - c.k__8))
                / (exp((n(2.0) * ((v * c.F) / c.k__0))) - n(1.0)))
        },
    );
    let s__37 = (n(1.0) * vfrt);
    let s__38 = exp(s__37);
    let s__39 = (s__38 - n(1.0));
    let PhiCaNa = removable(
        v,
        -0.0,
        0.037435883507802616,
        ((n(1.0) * vffrt * ((n(0.75) * nass * s__38) - c.k__9)) / s__39),
        |v: T| {
            ((n(1.0)
                * ((v * c.F * c.F) / c.k__0)
                * ((n(0.75) * nass * exp((n(1.0) * ((v * c.F) / c.k__0)))) - c.k__9))
                / (exp((n(1.0) * ((v * c.F) / c.k__0))) - n(1.0)))
        },
    );
    let PhiCaK = removable(
        v,
        -0.0,
        0.037435883507802616,
        ((n(1.0) * vffrt * ((n(0.75) * kss * s__38) - c.k__10)) / s__39),
        |v: T| {
            ((n(1.0)
                * ((v * c.F * c.F) / c.k__0)
                * ((n(0.75) * kss * exp((n(1.0) * ((v * c.F) / c.k__0)))) - c.k__10))
                / (exp((n(1.0) * ((v * c.F) / c.k__0))) - n(1.0)))
        },
    );
    let fICaLp = s__26;
    let td = (n(0.6) + (n(1.0) / (exp((c.k__11 * (v + n(6.0)))) + exp((n(0.09) * (v + n(14.0)))))));
    let s__40 = (v + n(20.0));
    let tff = (n(7.0)
        + (n(1.0) / ((n(0.0045) * exp(((-s__40) / n(10.0)))) + (n(0.0045) * exp((s__40 / n(10.0)))))));
    let s__41 = (v + n(5.0));
    let tfs = (n(1000.0)
        + (n(1.0) / ((n(3.5e-5) * exp(((-s__41) / n(4.0)))) + (n(3.5e-5) * exp((s__41 / n(6.0)))))));
    let s__42 = (v - n(4.0));
    let tfcaf =
        (n(7.0) + (n(1.0) / ((n(0.04) * exp(((-s__42) / n(7.0)))) + (n(0.04) * exp((s__42 / n(7.0)))))));
    let tfcas =
        (n(100.0) + (n(1.0) / ((n(0.00012) * exp(((-v) / n(3.0)))) + (n(0.00012) * exp((v / n(7.0)))))));
    let tffp = (n(2.5) * tff);
    let tfcafp = (n(2.5) * tfcaf);
    let s__43 = (n(1.0) - fICaLp);
    let s__44 = (n(1.0) - nca);
    let s__45 = (f * s__44);
    let s__46 = (jca * fca * nca);
    let s__47 = (s__45 + s__46);
    let s__48 = (fp * s__44);
    let s__49 = (jca * fcap * nca);
    let s__50 = (s__48 + s__49);
    let ICaL = ((s__43 * c.PCa * PhiCaL * d * s__47) + (fICaLp * c.PCap * PhiCaL * d * s__50));
    let ICaNa = ((s__43 * c.PCaNa * PhiCaNa * d * s__47) + (fICaLp * c.PCaNap * PhiCaNa * d * s__50));
    let ICaK = ((s__43 * c.PCaK * PhiCaK * d * s__47) + (fICaLp * c.PCaKp * PhiCaK * d * s__50));
    let xrss = (n(1.0) / (n(1.0) + exp(((-(v + n(8.337))) / n(6.789)))));
    let txrf = (n(12.98)
        + (n(1.0)
            / ((n(0.3652) * exp(((v - n(31.66)) / n(3.869))))
                + (n(4.123e-5) * exp(((-(v - n(47.78))) / n(20.38)))))));
    let txrs = (n(1.865)
        + (n(1.0)
            / ((n(0.06629) * exp(((v - n(34.7)) / n(7.355))))
                + (n(1.128e-5) * exp(((-(v - n(29.74))) / n(25.94)))))));
    let Axrf = (n(1.0) / (n(1.0) + exp(((v + n(54.81)) / n(38.21)))));
    let Axrs = (n(1.0) - Axrf);
    let xr = ((Axrf * xrf) + (Axrs * xrs));
    let rkr =
        (((n(1.0) / (n(1.0) + exp(((v + n(55.0)) / n(75.0))))) * n(1.0)) / (n(1.0) + exp((s__32 / n(30.0)))));
    let IKr = (c.GKr_total * xr * rkr * s__30);
    let KsCa = (n(1.0) + (n(0.6) / (n(1.0) + pow((n(3.8e-5) / cai), n(1.4)))));
    let GKs_total = (c.GKs * KsCa);
    let xs1ss = (n(1.0) / (n(1.0) + exp(((-(v + n(11.6))) / n(8.932)))));
    let xs2ss = xs1ss;
    let txs1 = (c.txs1_max
        + (n(1.0)
            / ((n(0.0002326) * exp(((v + n(48.28)) / n(17.8))))
                + (n(0.001292) * exp(((-(v + n(210.0))) / n(230.0)))))));
    let IKs = (GKs_total * xs1 * xs2 * (v - EKs));
    let txs2 = (n(1.0)
        / ((n(0.01) * exp(((v - n(50.0)) / n(20.0)))) + (n(0.0193) * exp(((-(v + n(66.54))) / n(31.0))))));
    let xk1ss = (n(1.0) / (n(1.0) + exp(((-(v + c.k__12 + n(144.59))) / c.k__13))));
    let txk1 = (n(122.2) / (exp(((-(v + n(127.2))) / n(20.36))) + exp(((v + n(236.8)) / n(69.33)))));
    let rk1 = (n(1.0) / (n(1.0) + exp((((v + n(105.8)) - c.k__14) / n(9.493)))));
    let IK1 = (c.GK1_total * rk1 * xk1 * s__30);
    let hna = exp(((c.qna * v * c.F) / c.k__0));
    let hca = exp(((c.qca * v * c.F) / c.k__0));
    let s__51 = (n(1.0) + hna);
    let h1_i = (n(1.0) + ((nai / c.kna3) * s__51));
    let h2_i = ((nai * hna) / (c.kna3 * h1_i));
    let h3_i = (n(1.0) / h1_i);
    let h4_i = (n(1.0) + ((nai / c.kna1) * (n(1.0) + (nai / c.kna2))));
    let h5_i = ((nai * nai) / (h4_i * c.kna1 * c.kna2));
    let h6_i = (n(1.0) / h4_i);
    let s__52 = (n(1.0) / hna);
    let s__53 = (n(1.0) + s__52);
    let s__54 = (c.k__15 * s__53);
    let s__55 = (n(1.0) + s__54);
    let h7_i = s__55;
    let h8_i = (c.nao / (c.kna3 * hna * h7_i));
    let h9_i = (n(1.0) / h7_i);
    let k3p_i = (h9_i * c.wca);
    let k3pp_i = (h8_i * c.wnaca);
    let k3_i = (k3p_i + k3pp_i);
    let k4p_i = ((h3_i * c.wca) / hca);
    let k4pp_i = (h2_i * c.wnaca);
    let k4_i = (k4p_i + k4pp_i);
    let k6_i = (h6_i * cai * c.kcaon);
    let k7_i = (h5_i * h2_i * c.wna);
    let k8_i = (h8_i * c.h11_i * c.wna);
    let s__56 = (k7_i + k6_i);
    let s__57 = (c.k2_i + k3_i);
    let x1_i = ((c.k2_i * k4_i * s__56) + (c.k5_i * k7_i * s__57));
    let s__58 = (k4_i + c.k5_i);
    let s__59 = (c.k1_i + k8_i);
    let x2_i = ((c.k1_i * k7_i * s__58) + (k4_i * k6_i * s__59));
    let x3_i = ((c.k1_i * k3_i * s__56) + (k8_i * k6_i * s__57));
    let x4_i = ((c.k2_i * k8_i * s__58) + (k3_i * c.k5_i * s__59));
    let s__60 = (x1_i + x2_i + x3_i + x4_i);
    let E1_i = (x1_i / s__60);
    let E2_i = (x2_i / s__60);
    let E3_i = (x3_i / s__60);
    let E4_i = (x4_i / s__60);
    let s__61 = (c.KmCaAct / cai);
    let s__62 = powi(s__61, 2);
    let s__63 = (n(1.0) + s__62);
    let allo_i = (n(1.0) / s__63);
    let JncxNa_i = (((n(3.0) * ((E4_i * k7_i) - (E1_i * k8_i))) + (E3_i * k4pp_i)) - (E2_i * k3pp_i));
    let JncxCa_i = ((E2_i * c.k2_i) - (E1_i * c.k1_i));
    let s__64 = (c.zna * JncxNa_i);
    let s__65 = (c.zca * JncxCa_i);
    let s__66 = (s__64 + s__65);
    let INaCa_i = (n(0.8) * c.Gncx * allo_i * s__66);
    let s__67 = (c.KmCaAct / cass);
    let s__68 = powi(s__67, 2);
    let s__69 = (n(1.0) + s__68);
    let allo_ss = (n(1.0) / s__69);
    let h7_ss = s__55;
    let h8_ss = (c.nao / (c.kna3 * hna * h7_ss));
    let k8_ss = (h8_ss * c.h11_ss * c.wna);
    let h1_ss = (n(1.0) + ((nass / c.kna3) * s__51));
    let h3_ss = (n(1.0) / h1_ss);
    let k4p_ss = ((h3_ss * c.wca) / hca);
    let h2_ss = ((nass * hna) / (c.kna3 * h1_ss));
    let k4pp_ss = (h2_ss * c.wnaca);
    let k4_ss = (k4p_ss + k4pp_ss);
    let h9_ss = (n(1.0) / h7_ss);
    let k3p_ss = (h9_ss * c.wca);
    let k3pp_ss = (h8_ss * c.wnaca);
    let k3_ss = (k3p_ss + k3pp_ss);
    let s__70 = (k4_ss + c.k5_ss);
    let s__71 = (c.k1_ss + k8_ss);
    let x4_ss = ((c.k2_ss * k8_ss * s__70) + (k3_ss * c.k5_ss * s__71));
    let h4_ss = (n(1.0) + ((nass / c.kna1) * (n(1.0) + (nass / c.kna2))));
    let h5_ss = ((nass * nass) / (h4_ss * c.kna1 * c.kna2));
    let k7_ss = (h5_ss * h2_ss * c.wna);
    let h6_ss = (n(1.0) / h4_ss);
    let k6_ss = (h6_ss * cass * c.kcaon);
    let s__72 = (k7_ss + k6_ss);
    let s__73 = (c.k2_ss + k3_ss);
    let x1_ss = ((c.k2_ss * k4_ss * s__72) + (c.k5_ss * k7_ss * s__73));
    let x2_ss = ((c.k1_ss * k7_ss * s__70) + (k4_ss * k6_ss * s__71));
    let x3_ss = ((c.k1_ss * k3_ss * s__72) + (k8_ss * k6_ss * s__73));
    let s__74 = (x1_ss + x2_ss + x3_ss + x4_ss);
    let E4_ss = (x4_ss / s__74);
    let E1_ss = (x1_ss / s__74);
    let E3_ss = (x3_ss / s__74);
    let E2_ss = (x2_ss / s__74);
    let JncxNa_ss =
        (((n(3.0) * ((E4_ss * k7_ss) - (E1_ss * k8_ss))) + (E3_ss * k4pp_ss)) - (E2_ss * k3pp_ss));
    let JncxCa_ss = ((E2_ss * c.k2_ss) - (E1_ss * c.k1_ss));
    let s__75 = (c.zna * JncxNa_ss);
    let s__76 = (c.zca * JncxCa_ss);
    let s__77 = (s__75 + s__76);
    let INaCa_ss = (n(0.2) * c.Gncx * allo_ss * s__77);
    let Knai = (c.Knai0 * exp(((c.delta * v * c.F) / c.k__16)));
    let Knao = (c.Knao0 * exp(((c.k__17 * v * c.F) / c.k__16)));
    let P = (c.eP / (n(1.0) + c.k__18 + (nai / c.Knap) + (ki / c.Kxkur)));
    let s__78 = (nai / Knai);
    let s__79 = (n(1.0) + s__78);
    let s__80 = powi(s__79, 3);
    let s__81 = (ki / c.Kki);
    let s__82 = (n(1.0) + s__81);
    let s__83 = powi(s__82, 2);
    let s__84 = (s__80 + s__83);
    let s__85 = (s__84 - n(1.0));
    let a1 = ((c.k1p * powi(s__78, 3)) / s__85);
    let s__86 = (c.nao / Knao);
    let s__87 = (n(1.0) + s__86);
    let s__88 = powi(s__87, 3);
    let s__89 = (s__88 + c.k__19);
    let s__90 = (s__89 - n(1.0));
    let b2 = ((c.k2m * powi(s__86, 3)) / s__90);
    let a3 = (c.k__20 / s__90);
    let b3 = ((c.k3m * P * c.H) / c.k__21);
    let b4 = ((c.k4m * powi(s__81, 2)) / s__85);
    let x1 = ((c.a4 * a1 * c.a2) + (b2 * b4 * b3) + (c.a2 * b4 * b3) + (b3 * a1 * c.a2));
    let x2 = ((b2 * c.b1 * b4) + (a1 * c.a2 * a3) + (a3 * c.b1 * b4) + (c.a2 * a3 * b4));
    let x3 = ((c.a2 * a3 * c.a4) + (b3 * b2 * c.b1) + (b2 * c.b1 * c.a4) + (a3 * c.a4 * c.b1));
    let x4 = ((b4 * b3 * b2) + (a3 * c.a4 * a1) + (b2 * c.a4 * a1) + (b3 * b2 * a1));
    let s__91 = (x1 + x2 + x3 + x4);
    let E1 = (x1 / s__91);
    let E2 = (x2 / s__91);
    let E3 = (x3 / s__91);
    let E4 = (x4 / s__91);
    let JnakNa = (n(3.0) * ((E1 * a3) - (E2 * b3)));
    let JnakK = (n(2.0) * ((E4 * c.b1) - (E3 * a1)));
    let INaK = (c.Pnak * ((c.zna * JnakNa) + (c.zk * JnakK)));
    let xkb = (n(1.0) / (n(1.0) + exp(((-(v - n(14.48))) / n(18.34)))));
    let IKb = (c.GKb * xkb * s__30);
    let s__92 = exp(vfrt);
    let INab = removable(
        v,
        -0.0,
        0.037435883507802616,
        ((c.PNab * vffrt * ((nai * s__92) - c.nao)) / (s__92 - n(1.0))),
        |v: T| {
            ((c.PNab * ((v * c.F * c.F) / c.k__0) * ((nai * exp(((v * c.F) / c.k__0))) - c.nao))
                / (exp(((v * c.F) / c.k__0)) - n(1.0)))
        },
    );
    let ICab = removable(
        v,
        -0.0,
        0.07487176701560523,
        ((c.PCab * n(4.0) * vffrt * ((cai * s__35) - c.k__8)) / s__36),
        |v: T| {
            ((c.PCab
                * n(4.0)
                * ((v * c.F * c.F) / c.k__0)
                * ((cai * exp((n(2.0) * ((v * c.F) / c.k__0)))) - c.k__8))
                / (exp((n(2.0) * ((v * c.F) / c.k__0))) - n(1.0)))
        },
    );
    let s__93 = (c.GpCa * cai);
    let s__94 = (c.KmCap + cai);
    let IpCa = (s__93 / s__94);
    let JdiffNa = ((nass - nai) / n(2.0));
    let Jdiff = ((cass - cai) / n(0.2));
    let JdiffK = ((kss - ki) / n(2.0));
    let s__95 = (n(1.5) / cajsr);
    let s__96 = powi(s__95, 8);
    let Jrel_inf_temp = ((c.a_rel * (-ICaL)) / (n(1.0) + (n(1.0) * s__96)));
    let Jrel_inf = (if (c.celltype == n(2.0)) { (Jrel_inf_temp * n(1.7)) } else { Jrel_inf_temp });
    let s__97 = (n(0.0123) / cajsr);
    let s__98 = (n(1.0) + s__97);
    let tau_rel_temp = (c.bt / s__98);
    let tau_rel = (if (tau_rel_temp < n(0.001)) { n(0.001) } else { tau_rel_temp });
    let Jrel_temp = ((c.a_relp * (-ICaL)) / (n(1.0) + s__96));
    let Jrel_infp = (if (c.celltype == n(2.0)) { (Jrel_temp * n(1.7)) } else { Jrel_temp });
    let tau_relp_temp = (c.btp / s__98);
    let tau_relp = (if (tau_relp_temp < n(0.001)) { n(0.001) } else { tau_relp_temp });
    let fJrelp = s__26;
    let Jrel = (c.Jrel_scaling_factor * (((n(1.0) - fJrelp) * Jrelnp) + (fJrelp * Jrelp)));
    let s__99 = (c.upScale * n(0.004375) * cai);
    let s__100 = (cai + n(0.00092));
    let Jupnp = (s__99 / s__100);
    let s__101 = (c.upScale * n(2.75) * n(0.004375) * cai);
    let s__102 = (s__100 - n(0.00017));
    let Jupp = (s__101 / s__102);
    let fJupp = s__26;
    let Jleak = ((n(0.0039375) * cansr) / n(15.0));
    let s__103 = (n(1.0) - fJupp);
    let Jup = (c.Jup_b * (((s__103 * Jupnp) + (fJupp * Jupp)) - Jleak));
    let Jtr = ((cansr - cajsr) / n(100.0));
    let v__dt = (-(INa
        + INaL
        + Ito
        + ICaL
        + ICaNa
        + ICaK
        + IKr
        + IKs
        + IK1
        + INaCa_i
        + INaCa_ss
        + INaK
        + INab
        + IKb
        + IpCa
        + ICab
        + c.Istim));
    let CaMKt__dt = ((c.aCaMK * CaMKb * s__4) - (c.bCaMK * CaMKt));
    let nai__dt = ((((-(INa + INaL + (n(3.0) * INaCa_i) + (n(3.0) * INaK) + INab)) * c.Acap * c.cm)
        / c.k__22)
        + ((JdiffNa * c.vss) / c.vmyo));
    let nass__dt = ((((-(ICaNa + (n(3.0) * INaCa_ss))) * c.cm * c.Acap) / c.k__23) - JdiffNa);
    let ki__dt = ((((-((Ito + IKr + IKs + IK1 + IKb + c.Istim) - (n(2.0) * INaK))) * c.cm * c.Acap)
        / c.k__22)
        + ((JdiffK * c.vss) / c.vmyo));
    let kss__dt = ((((-ICaK) * c.cm * c.Acap) / c.k__23) - JdiffK);
    let s__104 = (n(2.0) * INaCa_ss);
    let s__105 = (ICaL - s__104);
    let s__106 = (-s__105);
    let s__107 = (s__106 * c.cm * c.Acap);
    let s__108 = (s__107 / c.k__24);
    let s__109 = (Jrel * c.vjsr);
    let s__110 = (s__109 / c.vss);
    let s__111 = (s__108 + s__110);
    let s__112 = (s__111 - Jdiff);
    let cass__dt = (Bcass * s__112);
    let cansr__dt = (Jup - ((Jtr * c.vjsr) / c.vnsr));
    let s__113 = (Jtr - Jrel);
    let cajsr__dt = (Bcajsr * s__113);
    let s__114 = (IpCa + ICab);
    let s__115 = (n(2.0) * INaCa_i);
    let s__116 = (s__114 - s__115);
    let s__117 = (-s__116);
    let s__118 = (s__117 * c.cm * c.Acap);
    let s__119 = (s__118 / c.k__25);
    let s__120 = (Jup * c.vnsr);
    let s__121 = (s__120 / c.vmyo);
    let s__122 = (s__119 - s__121);
    let s__123 = (Jdiff * c.vss);
    let s__124 = (s__123 / c.vmyo);
    let s__125 = (s__122 + s__124);
    let cai__dt = (Bcai * s__125);
    let m__dt = ((mss - m) / tm);
    let hf__dt = ((hss - hf) / thf);
    let hs__dt = ((hss - hs) / ths);
    let j__dt = ((jss - j) / tj);
    let hsp__dt = ((hssp - hsp) / thsp);
    let jp__dt = ((jss - jp) / tjp);
    let mL__dt = ((mLss - mL) / tmL);
    let hL__dt = ((hLss - hL) / c.thL);
    let hLp__dt = ((hLssp - hLp) / c.thLp);
    let a__dt = ((ass - a) / ta);
    let iF__dt = ((iss - iF) / tiF);
    let iS__dt = ((iss - iS) / tiS);
    let ap__dt = ((assp - ap) / ta);
    let iFp__dt = ((iss - iFp) / tiFp);
    let iSp__dt = ((iss - iSp) / tiSp);
    let d__dt = ((dss - d) / td);
    let ff__dt = ((fss - ff) / tff);
    let fs__dt = ((fss - fs) / tfs);
    let fcaf__dt = ((fcass - fcaf) / tfcaf);
    let fcas__dt = ((fcass - fcas) / tfcas);
    let jca__dt = ((fcass - jca) / c.tjca);
    let ffp__dt = ((fss - ffp) / tffp);
    let fcafp__dt = ((fcass - fcafp) / tfcafp);
    let nca__dt = ((anca * c.k2n) - (nca * km2n));
    let xrf__dt = ((xrss - xrf) / txrf);
    let xrs__dt = ((xrss - xrs) / txrs);
    let xs1__dt = ((xs1ss - xs1) / txs1);
    let xs2__dt = ((xs2ss - xs2) / txs2);
    let xk1__dt = ((xk1ss - xk1) / txk1);
    let Jrelnp__dt = ((Jrel_inf - Jrelnp) / tau_rel);
    let Jrelp__dt = ((Jrel_infp - Jrelp) / tau_relp);
    let dt = c.dt;
    let s__126 = (c.k__26 / s__3);
    let CaMKt__phi = exp_euler_phi(
        ((((s__126 * c.aCaMK) * s__4) + (((s__126 + n(1.0)) * c.aCaMK) * CaMKb)) + c.k__27),
        dt,
    );
    let (CaMKt__next, CaMKt__carry_next) = carry_add(
        CaMKt,
        CaMKt__carry,
        (CaMKt__dt * dt) * CaMKt__phi,
        (CaMKt__dt * dt).mul_add(CaMKt__phi, CaMKt),
    );
    let (nai__next, nai__carry_next) = carry_add(nai, nai__carry, nai__dt * dt, nai__dt.mul_add(dt, nai));
    let (nass__next, nass__carry_next) =
        carry_add(nass, nass__carry, nass__dt * dt, nass__dt.mul_add(dt, nass));
    let (ki__next, ki__carry_next) = carry_add(ki, ki__carry, ki__dt * dt, ki__dt.mul_add(dt, ki));
    let s__127 = (n(0.75) * s__38);
    let s__128 = (s__127 * vffrt);
    let s__129 = removable(v, -0.0, 0.037435883507802616, (s__128 / s__39), |v: T| {
        (((n(0.75) * exp((n(1.0) * ((v * c.F) / c.k__0)))) * ((v * c.F * c.F) / c.k__0))
            / (exp((n(1.0) * ((v * c.F) / c.k__0))) - n(1.0)))
    });
    let kss__phi = exp_euler_phi(
        (((((-(((((s__129 * s__43) * c.PCaK) * d) * s__47)
            + ((((s__129 * fICaLp) * c.PCaKp) * d) * s__50)))
            * c.cm)
            * c.Acap)
            / c.k__23)
            + c.k__28),
        dt,
    );
    let (kss__next, kss__carry_next) =
        carry_add(kss, kss__carry, (kss__dt * dt) * kss__phi, (kss__dt * dt).mul_add(kss__phi, kss));
    let s__130 = (cass * cass);
    let s__131 = (c.KmCaM / s__130);
    let s__132 = (-s__131);
    let s__133 = (s__1 * s__132);
    let s__134 = (s__3 * s__3);
    let s__135 = (s__133 / s__134);
    let s__136 = (-s__135);
    let s__137 = (c.KmCaMK * s__136);
    let s__138 = (CaMKa * CaMKa);
    let s__139 = (s__137 / s__138);
    let s__140 = (-s__139);
    let s__141 = (s__25 * s__25);
    let s__142 = (s__140 / s__141);
    let s__143 = (-s__142);
    let s__144 = (-s__143);
    let s__145 = (s__35 * n(4.0));
    let s__146 = (s__145 * vffrt);
    let s__147 = removable(v, -0.0, 0.07487176701560523, (s__146 / s__36), |v: T| {
        (((exp((n(2.0) * ((v * c.F) / c.k__0))) * n(4.0)) * ((v * c.F * c.F) / c.k__0))
            / (exp((n(2.0) * ((v * c.F) / c.k__0))) - n(1.0)))
    });
    let s__148 = (h6_ss * c.kcaon);
    let s__149 = (s__148 * c.k2_ss);
    let s__150 = (s__149 * k4_ss);
    let s__151 = (s__148 * k4_ss);
    let s__152 = (s__151 * s__71);
    let s__153 = (s__150 + s__152);
    let s__154 = (s__148 * c.k1_ss);
    let s__155 = (s__154 * k3_ss);
    let s__156 = (s__148 * k8_ss);
    let s__157 = (s__156 * s__73);
    let s__158 = (s__155 + s__157);
    let s__159 = (s__153 + s__158);
    let s__160 = (s__74 * s__74);
    let s__161 = (s__150 / s__74);
    let s__162 = (x1_ss * s__159);
    let s__163 = (s__162 / s__160);
    let s__164 = (-s__163);
    let s__165 = (s__161 + s__164);
    let s__166 = (s__152 / s__74);
    let s__167 = (x2_ss * s__159);
    let s__168 = (s__167 / s__160);
    let s__169 = (-s__168);
    let s__170 = (s__166 + s__169);
    let cass__phi = exp_euler_phi(
        (((-(((-((c.k__4 * (n(2.0) * powi(s__16, 1))) / (s__17 * s__17)))
            + (-((c.k__5 * (n(2.0) * powi(s__19, 1))) / (s__20 * s__20))))
            / (s__22 * s__22)))
            * s__112)
            + (((((((-(((((((s__144 * c.PCa) * PhiCaL) * d) * s__47)
                + ((((s__147 * s__43) * c.PCa) * d) * s__47))
                + (((((s__143 * c.PCap) * PhiCaL) * d) * s__50)
                    + ((((s__147 * fICaLp) * c.PCap) * d) * s__50)))
                + (-((((((-(((n(2.0) * powi(s__67, 1)) * (-(c.KmCaAct / s__130)))
                    / (s__69 * s__69)))
                    * n(0.2))
                    * c.Gncx)
                    * s__77)
                    + (((((((((((-((x4_ss * s__159) / s__160)) * k7_ss)
                        + (-(s__165 * k8_ss)))
                        * n(3.0))
                        + (((s__158 / s__74) + (-((x3_ss * s__159) / s__160))) * k4pp_ss))
                        + (-(s__170 * k3pp_ss)))
                        * c.zna)
                        + (((s__170 * c.k2_ss) + (-(s__165 * c.k1_ss))) * c.zca))
                        * n(0.2))
                        * c.Gncx)
                        * allo_ss))
                    * n(2.0)))))
                * c.cm)
                * c.Acap)
                / c.k__24)
                + (((((s__144 * Jrelnp) + (s__143 * Jrelp)) * c.Jrel_scaling_factor) * c.vjsr) / c.vss))
                + c.k__29)
                * Bcass)),
        dt,
    );
    let (cass__next, cass__carry_next) =
        carry_add(cass, cass__carry, (cass__dt * dt) * cass__phi, (cass__dt * dt).mul_add(cass__phi, cass));
    let cansr__phi = exp_euler_phi(c.k__30, dt);
    let (cansr__next, cansr__carry_next) = carry_add(
        cansr,
        cansr__carry,
        (cansr__dt * dt) * cansr__phi,
        (cansr__dt * dt).mul_add(cansr__phi, cansr),
    );
    let cajsr__phi = exp_euler_phi(
        (((-((-((c.k__3 * (n(2.0) * powi(s__12, 1))) / (s__13 * s__13))) / (s__15 * s__15))) * s__113)
            + (c.k__31 * Bcajsr)),
        dt,
    );
    let (cajsr__next, cajsr__carry_next) = carry_add(
        cajsr,
        cajsr__carry,
        (cajsr__dt * dt) * cajsr__phi,
        (cajsr__dt * dt).mul_add(cajsr__phi, cajsr),
    );
    let s__171 = (h6_i * c.kcaon);
    let s__172 = (s__171 * c.k2_i);
    let s__173 = (s__172 * k4_i);
    let s__174 = (s__171 * k4_i);
    let s__175 = (s__174 * s__59);
    let s__176 = (s__173 + s__175);
    let s__177 = (s__171 * c.k1_i);
    let s__178 = (s__177 * k3_i);
    let s__179 = (s__171 * k8_i);
    let s__180 = (s__179 * s__57);
    let s__181 = (s__178 + s__180);
    let s__182 = (s__176 + s__181);
    let s__183 = (s__60 * s__60);
    let s__184 = (s__173 / s__60);
    let s__185 = (x1_i * s__182);
    let s__186 = (s__185 / s__183);
    let s__187 = (-s__186);
    let s__188 = (s__184 + s__187);
    let s__189 = (s__175 / s__60);
    let s__190 = (x2_i * s__182);
    let s__191 = (s__190 / s__183);
    let s__192 = (-s__191);
    let s__193 = (s__189 + s__192);
    let cai__phi = exp_euler_phi(
        (((-(((-((c.k__1 * (n(2.0) * powi(s__5, 1))) / (s__6 * s__6)))
            + (-((c.k__2 * (n(2.0) * powi(s__8, 1))) / (s__9 * s__9))))
            / (s__11 * s__11)))
            * s__125)
            + (((((((-((((c.GpCa / s__94) + (-(s__93 / (s__94 * s__94))))
                + removable(
                    v,
                    -0.0,
                    0.07487176701560523,
                    ((((s__35 * c.PCab) * n(4.0)) * vffrt) / s__36),
                    |v: T| {
                        ((((exp((n(2.0) * ((v * c.F) / c.k__0))) * c.PCab) * n(4.0))
                            * ((v * c.F * c.F) / c.k__0))
                            / (exp((n(2.0) * ((v * c.F) / c.k__0))) - n(1.0)))
                    },
                ))
                + (-((((((-(((n(2.0) * powi(s__61, 1)) * (-(c.KmCaAct / (cai * cai))))
                    / (s__63 * s__63)))
                    * n(0.8))
                    * c.Gncx)
                    * s__66)
                    + (((((((((((-((x4_i * s__182) / s__183)) * k7_i)
                        + (-(s__188 * k8_i)))
                        * n(3.0))
                        + (((s__181 / s__60) + (-((x3_i * s__182) / s__183))) * k4pp_i))
                        + (-(s__193 * k3pp_i)))
                        * c.zna)
                        + (((s__193 * c.k2_i) + (-(s__188 * c.k1_i))) * c.zca))
                        * n(0.8))
                        * c.Gncx)
                        * allo_i))
                    * n(2.0)))))
                * c.cm)
                * c.Acap)
                / c.k__25)
                + (-(((((((c.k__32 / s__100) + (-(s__99 / (s__100 * s__100)))) * s__103)
                    + (((c.k__33 / s__102) + (-(s__101 / (s__102 * s__102)))) * fJupp))
                    * c.Jup_b)
                    * c.vnsr)
                    / c.vmyo)))
                + c.k__34)
                * Bcai)),
        dt,
    );
    let (cai__next, cai__carry_next) =
        carry_add(cai, cai__carry, (cai__dt * dt) * cai__phi, (cai__dt * dt).mul_add(cai__phi, cai));
    let s__194 = (n(1.0) / ta);
    let s__195 = (s__194 * n(-1.0));
    locals[0] = CaMKt__next;
    locals[1] = nai__next;
    locals[2] = nass__next;
    locals[3] = ki__next;
    locals[4] = kss__next;
    locals[5] = cass__next;
    locals[6] = cansr__next;
    locals[7] = cajsr__next;
    locals[8] = cai__next;
    locals[9] = exp_euler(m, m__dt, ((n(1.0) / tm) * n(-1.0)), dt);
    locals[10] = exp_euler(hf, hf__dt, ((n(1.0) / thf) * n(-1.0)), dt);
    locals[11] = exp_euler(hs, hs__dt, ((n(1.0) / ths) * n(-1.0)), dt);
    locals[12] = exp_euler(j, j__dt, ((n(1.0) / tj) * n(-1.0)), dt);
    locals[13] = exp_euler(hsp, hsp__dt, ((n(1.0) / thsp) * n(-1.0)), dt);
    locals[14] = exp_euler(jp, jp__dt, ((n(1.0) / tjp) * n(-1.0)), dt);
    locals[15] = exp_euler(mL, mL__dt, ((n(1.0) / tmL) * n(-1.0)), dt);
    locals[16] = exp_euler(hL, hL__dt, c.k__35, dt);
    locals[17] = exp_euler(hLp, hLp__dt, c.k__36, dt);
    locals[18] = exp_euler(a, a__dt, s__195, dt);
    locals[19] = exp_euler(iF, iF__dt, ((n(1.0) / tiF) * n(-1.0)), dt);
    locals[20] = exp_euler(iS, iS__dt, ((n(1.0) / tiS) * n(-1.0)), dt);
    locals[21] = exp_euler(ap, ap__dt, s__195, dt);
    locals[22] = exp_euler(iFp, iFp__dt, ((n(1.0) / tiFp) * n(-1.0)), dt);
    locals[23] = exp_euler(iSp, iSp__dt, ((n(1.0) / tiSp) * n(-1.0)), dt);
    locals[24] = exp_euler(d, d__dt, ((n(1.0) / td) * n(-1.0)), dt);
    locals[25] = exp_euler(ff, ff__dt, ((n(1.0) / tff) * n(-1.0)), dt);
    locals[26] = exp_euler(fs, fs__dt, ((n(1.0) / tfs) * n(-1.0)), dt);
    locals[27] = exp_euler(fcaf, fcaf__dt, ((n(1.0) / tfcaf) * n(-1.0)), dt);
    locals[28] = exp_euler(fcas, fcas__dt, ((n(1.0) / tfcas) * n(-1.0)), dt);
    locals[29] = exp_euler(jca, jca__dt, c.k__37, dt);
    locals[30] = exp_euler(ffp, ffp__dt, ((n(1.0) / tffp) * n(-1.0)), dt);
    locals[31] = exp_euler(fcafp, fcafp__dt, ((n(1.0) / tfcafp) * n(-1.0)), dt);
    locals[32] = exp_euler(nca, nca__dt, (-km2n), dt);
    locals[33] = exp_euler(xrf, xrf__dt, ((n(1.0) / txrf) * n(-1.0)), dt);
    locals[34] = exp_euler(xrs, xrs__dt, ((n(1.0) / txrs) * n(-1.0)), dt);
    locals[35] = exp_euler(xs1, xs1__dt, ((n(1.0) / txs1) * n(-1.0)), dt);
    locals[36] = exp_euler(xs2, xs2__dt, ((n(1.0) / txs2) * n(-1.0)), dt);
    locals[37] = exp_euler(xk1, xk1__dt, ((n(1.0) / txk1) * n(-1.0)), dt);
    locals[38] = exp_euler(Jrelnp, Jrelnp__dt, (n(-1.0) / tau_rel), dt);
    locals[39] = exp_euler(Jrelp, Jrelp__dt, (n(-1.0) / tau_relp), dt);
    locals[40] = CaMKt__carry_next;
    locals[41] = nai__carry_next;
    locals[42] = nass__carry_next;
    locals[43] = ki__carry_next;
    locals[44] = kss__carry_next;
    locals[45] = cass__carry_next;
    locals[46] = cansr__carry_next;
    locals[47] = cajsr__carry_next;
    locals[48] = cai__carry_next;
    v__dt
}

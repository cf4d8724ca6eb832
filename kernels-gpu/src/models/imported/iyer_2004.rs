//! IyerMazhariWinslow2004: the CellML model `IyerMazhariWinslow2004`, imported by `fibril import-cellml`.
//!
//! Source: `iyer_2004.cellml` (243176 bytes, FNV-1a 64 5423a2cd7a809210). Generated code: regenerate
//! rather than edit (`fibril import-cellml FILE --name iyer_2004`).
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
//! stimulus is the file's stimulus `I_stimulus.i_Stim` (-15 uA_per_uF) for 3 ms, as its contribution to dV/dt: 15.000000 mV/ms for 3 ms.
//!
//! The file's stimulus also enters d(`COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Ki`)/dt: fibril's stimulus adds
//! 6.151847158279727e-5 mM to it per mV it adds to V (`StimulusCarrier`), the
//! file's ratio at its default constants, so the charge it injects is
//! carried as the file carries it.
//! In f32 it adds that charge through `Ki__carry` as the step adds its
//! currents, so that a charge below half an ulp a step is kept.
//!
//! # Updates over one step (dt in the file's time unit)
//!
//! | variable | file variable | unit | update |
//! |---|---|---|---|
//! | `V` | `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.V` | mV | forward Euler, by fibril's cell step (this file returns dV/dt) |
//! | `Nai` | `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Nai` | mM | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`Nai__carry`) |
//! | `Ki` | `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Ki` | mM | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`Ki__carry`) |
//! | `Cai` | `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Cai` | mM | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`Cai__carry`) |
//! | `CaSS` | `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.CaSS` | mM | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`CaSS__carry`) |
//! | `CaJSR` | `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.CaJSR` | mM | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`CaJSR__carry`) |
//! | `CaNSR` | `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.CaNSR` | mM | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`CaNSR__carry`) |
//! | `LTRPNCa` | `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.LTRPNCa` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `HTRPNCa` | `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.HTRPNCa` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `C1_RyR` | `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.C1_RyR` | dimensionless | Markov block 0 (4 states): two-stage SDIRK with the rates frozen |
//! | `O2_RyR` | `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.O2_RyR` | dimensionless | Markov block 0 (4 states): two-stage SDIRK with the rates frozen |
//! | `C2_RyR` | `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.C2_RyR` | dimensionless | Markov block 0 (4 states): two-stage SDIRK with the rates frozen; in f32 the chain's total less its other states |
//! | `O1_RyR` | `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.O1_RyR` | dimensionless | Markov block 0 (4 states): two-stage SDIRK with the rates frozen |
//! | `C0` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C0` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen; in f32 the chain's total less its other states |
//! | `C1` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C1` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `C2` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C2` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `C3` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C3` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `C4` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C4` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `CCa0` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa0` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `CCa1` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa1` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `CCa2` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa2` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `CCa3` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa3` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `CCa4` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa4` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `Open` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.Open` | dimensionless | Markov block 1 (11 states): two-stage SDIRK with the rates frozen |
//! | `yCa` | `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.yCa` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `C0Kv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.C0Kv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen; in f32 the chain's total less its other states |
//! | `C1Kv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.C1Kv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `C2Kv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.C2Kv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `C3Kv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.C3Kv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `OKv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.OKv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `CI0Kv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.CI0Kv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `CI1Kv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.CI1Kv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `CI2Kv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.CI2Kv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `CI3Kv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.CI3Kv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `OIKv43` | `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.OIKv43` | dimensionless | Markov block 2 (10 states): two-stage SDIRK with the rates frozen |
//! | `C0Kv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C0Kv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen; in f32 the chain's total less its other states |
//! | `C1Kv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C1Kv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `C2Kv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C2Kv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `C3Kv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C3Kv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `OKv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.OKv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `CI0Kv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI0Kv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `CI1Kv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI1Kv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `CI2Kv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI2Kv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `CI3Kv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI3Kv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `OIKv14` | `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.OIKv14` | dimensionless | Markov block 3 (10 states): two-stage SDIRK with the rates frozen |
//! | `na1` | `INa.na1` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na2` | `INa.na2` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na3` | `INa.na3` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na4` | `INa.na4` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na5` | `INa.na5` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na6` | `INa.na6` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na7` | `INa.na7` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na8` | `INa.na8` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen; in f32 the chain's total less its other states |
//! | `na9` | `INa.na9` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na10` | `INa.na10` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na11` | `INa.na11` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na12` | `INa.na12` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `na13` | `INa.na13` | dimensionless | Markov block 4 (13 states): two-stage SDIRK with the rates frozen |
//! | `C1Herg` | `IKr.C1Herg` | dimensionless | Markov block 5 (5 states): two-stage SDIRK with the rates frozen; in f32 the chain's total less its other states |
//! | `C2Herg` | `IKr.C2Herg` | dimensionless | Markov block 5 (5 states): two-stage SDIRK with the rates frozen |
//! | `C3Herg` | `IKr.C3Herg` | dimensionless | Markov block 5 (5 states): two-stage SDIRK with the rates frozen |
//! | `OHerg` | `IKr.OHerg` | dimensionless | Markov block 5 (5 states): two-stage SDIRK with the rates frozen |
//! | `IHerg` | `IKr.IHerg` | dimensionless | Markov block 5 (5 states): two-stage SDIRK with the rates frozen |
//! | `C0ks` | `IKs.C0ks` | dimensionless | Markov block 6 (4 states): two-stage SDIRK with the rates frozen; in f32 the chain's total less its other states |
//! | `C1ks` | `IKs.C1ks` | dimensionless | Markov block 6 (4 states): two-stage SDIRK with the rates frozen |
//! | `O1ks` | `IKs.O1ks` | dimensionless | Markov block 6 (4 states): two-stage SDIRK with the rates frozen |
//! | `O2ks` | `IKs.O2ks` | dimensionless | Markov block 6 (4 states): two-stage SDIRK with the rates frozen |
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
//! In a closed chain (its matrix's columns sum to 0, no inflow) the state
//! largest at the file's initial state is, in f32, the chain's total less
//! its other states (`conserved`): near 1, its ulp is 6e-8 and its slow
//! exchanges with the others at rest (1e-9 a step) would round away and
//! let the total drift. In f64 it takes its own update, bit for bit.
//!
//! Removable singularities x/(e^U - 1), interpolated linearly where |U| < 1e-7 (f64) or 1e-3 (f32):
//! - `COMPUTE_ICa_ICaK.ICamax` at V = -0 (file units)
//! - `COMPUTE_ICa_ICaK.ICaK` at V = -0 (file units)
//! - `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.IKv14_K` at V = -0 (file units)
//! - `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.IKv14_Na` at V = -0 (file units)
//! - `d(COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Nai)/dt` at V = -0 (file units)
//! - `d(COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Ki)/dt` at V = -0 (file units)
//!
//! Constants no equation uses once the stimulus is removed: `I_stimulus.stim_period`, `I_stimulus.stim_duration`, `I_stimulus.stim_amplitude`, `I_stimulus.stim_offset`.

#![allow(non_snake_case, unused_parens, unused_variables, clippy::all)]

use crate::math::{exp, ln};
use crate::model::Parameter as P;
use crate::model::{CellModel, ModelInfo, Numerics, Range, StimulusCarrier, StimulusCurrent, Variable};
use crate::models::describe::{ms_mm, unpack};
use crate::models::imported::support::*;
use crate::real::Real;

/// IyerMazhariWinslow2004 (67 variables).
#[derive(Clone, Copy, Debug)]
pub struct Iyer2004;

/// The coefficients, formed in f64 from the parameters and dt and rounded once.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iyer2004Coeffs<T> {
    /// the time step in the file's time unit
    pub dt: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.a1` (F_M_per_coulomb)
    pub COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.a2` (F_M_per_coulomb)
    pub COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a2: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Faraday` (coulomb_per_millimole)
    pub Faraday: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.RT_over_F` (mV)
    pub RT_over_F: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Vmyo` (uL)
    pub Vmyo: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.VJSR` (uL)
    pub VJSR: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.VNSR` (uL)
    pub VNSR: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.VSS` (uL)
    pub VSS: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Ko` (mM)
    pub Ko: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Nao` (mM)
    pub Nao: T,
    /// `COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Cao` (mM)
    pub Cao: T,
    /// `I_stimulus.i_Stim` (uA_per_uF)
    pub i_Stim: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.Kfb` (mM)
    pub Kfb: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.Nfb` (dimensionless)
    pub Nfb: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.Krb` (mM)
    pub Krb: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.Nrb` (dimensionless)
    pub Nrb: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.KSR` (mM)
    pub KSR: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.vmaxf` (per_ms)
    pub vmaxf: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.vmaxr` (per_ms)
    pub vmaxr: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.v1` (per_ms)
    pub v1: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.tautr` (ms)
    pub tautr: T,
    /// `COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.tauxfer` (ms)
    pub tauxfer: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.LTRPNtot` (mM)
    pub LTRPNtot: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.HTRPNtot` (mM)
    pub HTRPNtot: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.khtrpn_plus` (per_mM_per_ms)
    pub khtrpn_plus: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.khtrpn_minus` (per_ms)
    pub khtrpn_minus: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.kltrpn_plus` (per_mM_per_ms)
    pub kltrpn_plus: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.kltrpn_minus` (per_ms)
    pub kltrpn_minus: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.KmCMDN` (mM)
    pub KmCMDN: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.KmCSQN` (mM)
    pub KmCSQN: T,
    /// `COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.KmEGTA` (mM)
    pub KmEGTA: T,
    /// `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kaminus` (per_ms)
    pub kaminus: T,
    /// `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kbplus` (per_uM3_per_ms)
    pub kbplus: T,
    /// `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kbminus` (per_ms)
    pub kbminus: T,
    /// `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kcplus` (per_ms)
    pub kcplus: T,
    /// `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kcminus` (per_ms)
    pub kcminus: T,
    /// `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.ncoop` (dimensionless)
    pub ncoop: T,
    /// `COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.mcoop` (dimensionless)
    pub mcoop: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.fL` (per_ms)
    pub fL: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.gL` (per_ms)
    pub gL: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.bL` (dimensionless)
    pub bL: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.aL` (dimensionless)
    pub aL: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa0_to_C0` (per_ms)
    pub CCa0_to_C0: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa1_to_C1` (per_ms)
    pub CCa1_to_C1: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa2_to_C2` (per_ms)
    pub CCa2_to_C2: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa3_to_C3` (per_ms)
    pub CCa3_to_C3: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa4_to_C4` (per_ms)
    pub CCa4_to_C4: T,
    /// `COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.a1_Cainf` (dimensionless)
    pub a1_Cainf: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.alphaa0Kv43` (per_ms)
    pub alphaa0Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.aaKv43` (per_mV)
    pub aaKv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.betaa0Kv43` (per_ms)
    pub betaa0Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.alphai0Kv43` (per_ms)
    pub alphai0Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.betai0Kv43` (per_ms)
    pub betai0Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.biKv43` (per_mV)
    pub biKv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.f1Kv43` (dimensionless)
    pub f1Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.f2Kv43` (dimensionless)
    pub f2Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.f3Kv43` (dimensionless)
    pub f3Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.f4Kv43` (dimensionless)
    pub f4Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.b1Kv43` (dimensionless)
    pub b1Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.b2Kv43` (dimensionless)
    pub b2Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.b3Kv43` (dimensionless)
    pub b3Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.b4Kv43` (dimensionless)
    pub b4Kv43: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.f1Kv14` (dimensionless)
    pub f1Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.f2Kv14` (dimensionless)
    pub f2Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.f3Kv14` (dimensionless)
    pub f3Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.f4Kv14` (dimensionless)
    pub f4Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.b1Kv14` (dimensionless)
    pub b1Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.b2Kv14` (dimensionless)
    pub b2Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.b3Kv14` (dimensionless)
    pub b3Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.b4Kv14` (dimensionless)
    pub b4Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.alphaa0Kv14` (per_ms)
    pub alphaa0Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.aaKv14` (per_mV)
    pub aaKv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.betaa0Kv14` (per_ms)
    pub betaa0Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C0Kv14_to_CI0Kv14` (per_ms)
    pub C0Kv14_to_CI0Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C1Kv14_to_CI1Kv14` (per_ms)
    pub C1Kv14_to_CI1Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C2Kv14_to_CI2Kv14` (per_ms)
    pub C2Kv14_to_CI2Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C3Kv14_to_CI3Kv14` (per_ms)
    pub C3Kv14_to_CI3Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.OKv14_to_OIKv14` (per_ms)
    pub OKv14_to_OIKv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI0Kv14_to_C0Kv14` (per_ms)
    pub CI0Kv14_to_C0Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI1Kv14_to_C1Kv14` (per_ms)
    pub CI1Kv14_to_C1Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI2Kv14_to_C2Kv14` (per_ms)
    pub CI2Kv14_to_C2Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI3Kv14_to_C3Kv14` (per_ms)
    pub CI3Kv14_to_C3Kv14: T,
    /// `COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.OIKv14_to_OKv14` (per_ms)
    pub OIKv14_to_OKv14: T,
    /// `COMPUTE_REVERSAL_POTENTIALS.a1` (mM)
    pub COMPUTE_REVERSAL_POTENTIALS_a1: T,
    /// `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GKr` (mS_per_uF)
    pub GKr: T,
    /// `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GKs` (mS_per_uF)
    pub GKs: T,
    /// `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GK1` (mS_per_uF)
    pub GK1: T,
    /// `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GNa` (mS_per_uF)
    pub GNa: T,
    /// `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GNab` (mS_per_uF)
    pub GNab: T,
    /// `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GKv43` (mS_per_uF)
    pub GKv43: T,
    /// `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.PKv14` (litre_per_farad_second)
    pub PKv14: T,
    /// `COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.fKo` (dimensionless)
    pub fKo: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.kNaCa` (uA_per_uF)
    pub kNaCa: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.ksat` (dimensionless)
    pub ksat: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.eta` (dimensionless)
    pub eta: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.INaKmax` (uA_per_uF)
    pub INaKmax: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.KmNai` (mM)
    pub KmNai: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.IpCamax` (uA_per_uF)
    pub IpCamax: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.KmpCa` (mM)
    pub KmpCa: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.GCab` (mS_per_uF)
    pub GCab: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.sigma` (dimensionless)
    pub sigma: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.a1_K` (dimensionless)
    pub COMPUTE_INaK_INaCa_ICab_IpCa_a1_K: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.a4_ncx` (mM)
    pub a4_ncx: T,
    /// `COMPUTE_INaK_INaCa_ICab_IpCa.a5_ncx` (mM3)
    pub a5_ncx: T,
    /// `COMPUTE_ICa_ICaK.PCa` (litre_per_farad_second)
    pub PCa: T,
    /// `COMPUTE_ICa_ICaK.PK` (litre_per_farad_second)
    pub PK: T,
    /// `COMPUTE_ICa_ICaK.ICahalf` (uA_per_uF)
    pub ICahalf: T,
    /// `INa.Temp_Scale` (dimensionless)
    pub Temp_Scale: T,
    /// `INa.parameter_a` (dimensionless)
    pub parameter_a: T,
    /// `INa.k67` (per_ms)
    pub k67: T,
    /// `INa.k76` (per_ms)
    pub k76: T,
    /// `INa.k81` (per_ms)
    pub k81: T,
    /// `INa.k92` (per_ms)
    pub k92: T,
    /// `INa.k103` (per_ms)
    pub k103: T,
    /// `INa.k114` (per_ms)
    pub k114: T,
    /// `INa.k125` (per_ms)
    pub k125: T,
    /// `INa.k18` (per_ms)
    pub k18: T,
    /// `INa.k29` (per_ms)
    pub k29: T,
    /// `INa.k310` (per_ms)
    pub k310: T,
    /// `INa.k411` (per_ms)
    pub k411: T,
    /// `INa.k512` (per_ms)
    pub k512: T,
    /// `INa.KToverH` (per_ms)
    pub KToverH: T,
    /// `INa.RTNaF` (mV)
    pub RTNaF: T,
    /// `IKr.T_Const_HERG` (dimensionless)
    pub T_Const_HERG: T,
    /// `IKr.A0_HERG` (per_ms)
    pub A0_HERG: T,
    /// `IKr.B0_HERG` (per_mV)
    pub B0_HERG: T,
    /// `IKr.A1_HERG` (per_ms)
    pub A1_HERG: T,
    /// `IKr.B1_HERG` (per_mV)
    pub B1_HERG: T,
    /// `IKr.A2_HERG` (per_ms)
    pub A2_HERG: T,
    /// `IKr.B2_HERG` (per_mV)
    pub B2_HERG: T,
    /// `IKr.A3_HERG` (per_ms)
    pub A3_HERG: T,
    /// `IKr.B3_HERG` (per_mV)
    pub B3_HERG: T,
    /// `IKr.A4_HERG` (per_ms)
    pub A4_HERG: T,
    /// `IKr.B4_HERG` (per_mV)
    pub B4_HERG: T,
    /// `IKr.A5_HERG` (per_ms)
    pub A5_HERG: T,
    /// `IKr.B5_HERG` (per_mV)
    pub B5_HERG: T,
    /// `IKr.A6_HERG` (per_ms)
    pub A6_HERG: T,
    /// `IKr.B6_HERG` (per_mV)
    pub B6_HERG: T,
    /// `IKr.C2H_to_C3H` (per_ms)
    pub C2H_to_C3H: T,
    /// `IKr.C3H_to_C2H` (per_ms)
    pub C3H_to_C2H: T,
    /// `IKs.C0ks_C1ks` (per_ms)
    pub C0ks_C1ks: T,
    /// `IKs.C1ks_O1ks` (per_ms)
    pub C1ks_O1ks: T,
    /// `(Cao * 0.341)`
    pub k__0: T,
    /// `(1.26 / RT_over_F)`
    pub k__1: T,
    /// `sqrt_t((Ko / 1.0))`
    pub k__2: T,
    /// `(eta - 1.0)`
    pub k__3: T,
    /// `powi(Nao, 3)`
    pub k__4: T,
    /// `(-0.1)`
    pub k__5: T,
    /// `(-1.33)`
    pub k__6: T,
    /// `(CMDNtot * KmCMDN)`
    pub k__7: T,
    /// `(EGTAtot * KmEGTA)`
    pub k__8: T,
    /// `(CSQNtot * KmCSQN)`
    pub k__9: T,
    /// `(-kaplus)`
    pub k__10: T,
    /// `(-0.065)`
    pub k__11: T,
    /// `(-5.53899874036055)`
    pub k__12: T,
    /// `(-49.51039631160386)`
    pub k__13: T,
    /// `(-baKv43)`
    pub k__14: T,
    /// `(-aiKv43)`
    pub k__15: T,
    /// `(-baKv14)`
    pub k__16: T,
    /// `((-114007.462700232) / RTNa)`
    pub k__17: T,
    /// `(224.114 / Rgas)`
    pub k__18: T,
    /// `((-272470.273489681) / RTNa)`
    pub k__19: T,
    /// `(708.146 / Rgas)`
    pub k__20: T,
    /// `(-2.28528417586424)`
    pub k__21: T,
    /// `((-196336.575735923) / RTNa)`
    pub k__22: T,
    /// `(529.952 / Rgas)`
    pub k__23: T,
    /// `((-133689.9304091) / RTNa)`
    pub k__24: T,
    /// `(229.205 / Rgas)`
    pub k__25: T,
    /// `(-1.55804214553883)`
    pub k__26: T,
    /// `((-62123.0784380481) / RTNa)`
    pub k__27: T,
    /// `(39.295 / Rgas)`
    pub k__28: T,
    /// `((-97657.8497137015) / RTNa)`
    pub k__29: T,
    /// `(1.51 / Rgas)`
    pub k__30: T,
    /// `(116431.142142348 / RTNa)`
    pub k__31: T,
    /// `((-578.317) / Rgas)`
    pub k__32: T,
    /// `((-55700.6624658307) / RTNa)`
    pub k__33: T,
    /// `((-130.639) / Rgas)`
    pub k__34: T,
    /// `(-3.64981672927078)`
    pub k__35: T,
    /// `((-147813.990005035) / RTNa)`
    pub k__36: T,
    /// `(338.915 / Rgas)`
    pub k__37: T,
    /// `((-121322.143275242) / RTNa)`
    pub k__38: T,
    /// `(193.265 / Rgas)`
    pub k__39: T,
    /// `(-1.74290267020903)`
    pub k__40: T,
    /// `(-0.14999754700285)`
    pub k__41: T,
    /// `(-0.01425668126881)`
    pub k__42: T,
    /// `(-1.889123021e-5)`
    pub k__43: T,
    /// `(-conc_clamp)`
    pub k__44: T,
    /// `(-C0ks_C1ks)`
    pub k__45: T,
    /// `((-1.0) / tauxfer)`
    pub k__46: T,
    /// `(Nfb - 1.0)`
    pub k__47: T,
    /// `(1.0 / Kfb)`
    pub k__48: T,
    /// `((-1.0) * v1)`
    pub k__49: T,
    /// `(-(((1.0 / tauxfer) * Vmyo) / VSS))`
    pub k__50: T,
    /// `((-1.0) / tautr)`
    pub k__51: T,
    /// `(Nrb - 1.0)`
    pub k__52: T,
    /// `(1.0 / Krb)`
    pub k__53: T,
    /// `(-(((1.0 / tautr) * VJSR) / VNSR))`
    pub k__54: T,
    /// `(-kltrpn_minus)`
    pub k__55: T,
    /// `(-khtrpn_minus)`
    pub k__56: T,
    /// `(-kbminus)`
    pub k__57: T,
    /// `(-kcminus)`
    pub k__58: T,
    /// `(-(-kbminus))`
    pub k__59: T,
    /// `(-(-kcminus))`
    pub k__60: T,
    /// `(-gL)`
    pub k__61: T,
}

/// The file's initial values (V in mV), then the carries' (0).
const REST: [f64; 73] = [
    (-90.65755929),
    9.798304162,
    125.5589432,
    8.601192016e-5,
    0.0001420215245,
    0.2852239446,
    0.2855294915,
    0.08046584973,
    0.9772152481,
    0.4448038946,
    3.97392006e-9,
    0.554535924,
    0.0006601783287,
    0.8621934054,
    0.01141398211,
    5.666325225e-5,
    1.25021357e-7,
    1.034426748e-10,
    0.1198547081,
    0.006346794302,
    0.0001260326488,
    1.112315238e-6,
    3.681315892e-9,
    7.757981563e-12,
    0.9997157074,
    0.9513721351,
    0.02668288089,
    0.0002806380358,
    1.311837579e-6,
    2.29955624e-9,
    0.01513025204,
    0.005442964601,
    0.0009918373359,
    9.514386057e-5,
    2.742677382e-6,
    0.5977099765,
    0.1730990528,
    0.01881072386,
    0.000916070135,
    1.975541357e-5,
    0.03539084346,
    0.005428824353,
    0.02287858869,
    0.03233800003,
    0.1134082058,
    0.1437575649,
    0.0417776208,
    0.004552898364,
    0.000220520743,
    4.005266484e-6,
    1.57442749e-8,
    2.856607179e-9,
    0.4749950008,
    0.2707214097,
    0.05786120057,
    0.005496292279,
    0.0001957874519,
    0.000417679396,
    0.996697338,
    0.0004340879648,
    7.634099755e-5,
    9.511789113e-6,
    1.533347007e-6,
    0.9645606295,
    0.03542613568,
    2.491710696e-7,
    1.298547822e-5,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
];

const VARIABLES: &[Variable] = &[
    Variable {
        name: "V",
        unit: "mV",
        meaning: "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.V",
        rest: REST[0],
        display: (-100.0, 60.0),
    },
    Variable {
        name: "Nai",
        unit: "mM",
        meaning: "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Nai",
        rest: REST[1],
        display: (0.0, 19.596608324),
    },
    Variable {
        name: "Ki",
        unit: "mM",
        meaning: "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Ki",
        rest: REST[2],
        display: (0.0, 251.1178864),
    },
    Variable {
        name: "Cai",
        unit: "mM",
        meaning: "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Cai",
        rest: REST[3],
        display: (0.0, 0.00017202384032),
    },
    Variable {
        name: "CaSS",
        unit: "mM",
        meaning: "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.CaSS",
        rest: REST[4],
        display: (0.0, 0.000284043049),
    },
    Variable {
        name: "CaJSR",
        unit: "mM",
        meaning: "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.CaJSR",
        rest: REST[5],
        display: (0.0, 0.5704478892),
    },
    Variable {
        name: "CaNSR",
        unit: "mM",
        meaning: "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.CaNSR",
        rest: REST[6],
        display: (0.0, 0.571058983),
    },
    Variable {
        name: "LTRPNCa",
        unit: "1",
        meaning: "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.LTRPNCa",
        rest: REST[7],
        display: (0.0, 1.0),
    },
    Variable {
        name: "HTRPNCa",
        unit: "1",
        meaning: "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.HTRPNCa",
        rest: REST[8],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C1_RyR",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.C1_RyR",
        rest: REST[9],
        display: (0.0, 1.0),
    },
    Variable {
        name: "O2_RyR",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.O2_RyR",
        rest: REST[10],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C2_RyR",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.C2_RyR",
        rest: REST[11],
        display: (0.0, 1.0),
    },
    Variable {
        name: "O1_RyR",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.O1_RyR",
        rest: REST[12],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C0",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C0",
        rest: REST[13],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C1",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C1",
        rest: REST[14],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C2",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C2",
        rest: REST[15],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C3",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C3",
        rest: REST[16],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C4",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.C4",
        rest: REST[17],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CCa0",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa0",
        rest: REST[18],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CCa1",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa1",
        rest: REST[19],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CCa2",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa2",
        rest: REST[20],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CCa3",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa3",
        rest: REST[21],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CCa4",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.CCa4",
        rest: REST[22],
        display: (0.0, 1.0),
    },
    Variable {
        name: "Open",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.Open",
        rest: REST[23],
        display: (0.0, 1.0),
    },
    Variable {
        name: "yCa",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.yCa",
        rest: REST[24],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C0Kv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.C0Kv43",
        rest: REST[25],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C1Kv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.C1Kv43",
        rest: REST[26],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C2Kv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.C2Kv43",
        rest: REST[27],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C3Kv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.C3Kv43",
        rest: REST[28],
        display: (0.0, 1.0),
    },
    Variable {
        name: "OKv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.OKv43",
        rest: REST[29],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CI0Kv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.CI0Kv43",
        rest: REST[30],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CI1Kv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.CI1Kv43",
        rest: REST[31],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CI2Kv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.CI2Kv43",
        rest: REST[32],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CI3Kv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.CI3Kv43",
        rest: REST[33],
        display: (0.0, 1.0),
    },
    Variable {
        name: "OIKv43",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.OIKv43",
        rest: REST[34],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C0Kv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C0Kv14",
        rest: REST[35],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C1Kv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C1Kv14",
        rest: REST[36],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C2Kv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C2Kv14",
        rest: REST[37],
        display: (0.0, 1.0),
    },
    Variable {
        name: "C3Kv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.C3Kv14",
        rest: REST[38],
        display: (0.0, 1.0),
    },
    Variable {
        name: "OKv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.OKv14",
        rest: REST[39],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CI0Kv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI0Kv14",
        rest: REST[40],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CI1Kv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI1Kv14",
        rest: REST[41],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CI2Kv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI2Kv14",
        rest: REST[42],
        display: (0.0, 1.0),
    },
    Variable {
        name: "CI3Kv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.CI3Kv14",
        rest: REST[43],
        display: (0.0, 1.0),
    },
    Variable {
        name: "OIKv14",
        unit: "1",
        meaning: "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.OIKv14",
        rest: REST[44],
        display: (0.0, 1.0),
    },
    Variable { name: "na1", unit: "1", meaning: "INa.na1", rest: REST[45], display: (0.0, 1.0) },
    Variable { name: "na2", unit: "1", meaning: "INa.na2", rest: REST[46], display: (0.0, 1.0) },
    Variable { name: "na3", unit: "1", meaning: "INa.na3", rest: REST[47], display: (0.0, 1.0) },
    Variable { name: "na4", unit: "1", meaning: "INa.na4", rest: REST[48], display: (0.0, 1.0) },
    Variable { name: "na5", unit: "1", meaning: "INa.na5", rest: REST[49], display: (0.0, 1.0) },
    Variable { name: "na6", unit: "1", meaning: "INa.na6", rest: REST[50], display: (0.0, 1.0) },
    Variable { name: "na7", unit: "1", meaning: "INa.na7", rest: REST[51], display: (0.0, 1.0) },
    Variable { name: "na8", unit: "1", meaning: "INa.na8", rest: REST[52], display: (0.0, 1.0) },
    Variable { name: "na9", unit: "1", meaning: "INa.na9", rest: REST[53], display: (0.0, 1.0) },
    Variable { name: "na10", unit: "1", meaning: "INa.na10", rest: REST[54], display: (0.0, 1.0) },
    Variable { name: "na11", unit: "1", meaning: "INa.na11", rest: REST[55], display: (0.0, 1.0) },
    Variable { name: "na12", unit: "1", meaning: "INa.na12", rest: REST[56], display: (0.0, 1.0) },
    Variable { name: "na13", unit: "1", meaning: "INa.na13", rest: REST[57], display: (0.0, 1.0) },
    Variable { name: "C1Herg", unit: "1", meaning: "IKr.C1Herg", rest: REST[58], display: (0.0, 1.0) },
    Variable { name: "C2Herg", unit: "1", meaning: "IKr.C2Herg", rest: REST[59], display: (0.0, 1.0) },
    Variable { name: "C3Herg", unit: "1", meaning: "IKr.C3Herg", rest: REST[60], display: (0.0, 1.0) },
    Variable { name: "OHerg", unit: "1", meaning: "IKr.OHerg", rest: REST[61], display: (0.0, 1.0) },
    Variable { name: "IHerg", unit: "1", meaning: "IKr.IHerg", rest: REST[62], display: (0.0, 1.0) },
    Variable { name: "C0ks", unit: "1", meaning: "IKs.C0ks", rest: REST[63], display: (0.0, 1.0) },
    Variable { name: "C1ks", unit: "1", meaning: "IKs.C1ks", rest: REST[64], display: (0.0, 1.0) },
    Variable { name: "O1ks", unit: "1", meaning: "IKs.O1ks", rest: REST[65], display: (0.0, 1.0) },
    Variable { name: "O2ks", unit: "1", meaning: "IKs.O2ks", rest: REST[66], display: (0.0, 1.0) },
    Variable {
        name: "Nai__carry",
        unit: "mM",
        meaning: "the f32 rounding error carried from step to step in Nai (0 in f64)",
        rest: REST[67],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "Ki__carry",
        unit: "mM",
        meaning: "the f32 rounding error carried from step to step in Ki (0 in f64)",
        rest: REST[68],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "Cai__carry",
        unit: "mM",
        meaning: "the f32 rounding error carried from step to step in Cai (0 in f64)",
        rest: REST[69],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "CaSS__carry",
        unit: "mM",
        meaning: "the f32 rounding error carried from step to step in CaSS (0 in f64)",
        rest: REST[70],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "CaJSR__carry",
        unit: "mM",
        meaning: "the f32 rounding error carried from step to step in CaJSR (0 in f64)",
        rest: REST[71],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "CaNSR__carry",
        unit: "mM",
        meaning: "the f32 rounding error carried from step to step in CaNSR (0 in f64)",
        rest: REST[72],
        display: (-1e-6, 1e-6),
    },
];

const PARAMETERS: &[P] = &[
    P::new(
        "Faraday",
        96.5,
        "coulomb_per_millimole",
        Range::NonNegative,
        "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Faraday",
    ),
    P::new("Temp", 310.0, "kelvin", Range::NonNegative, "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Temp"),
    P::new(
        "Rgas",
        8.315,
        "joule_per_mole_kelvin",
        Range::NonNegative,
        "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Rgas",
    ),
    P::new(
        "Acap",
        0.0001534,
        "cm2",
        Range::NonNegative,
        "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Acap",
    ),
    P::new("Vmyo", 2.584e-5, "uL", Range::NonNegative, "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Vmyo"),
    P::new("VJSR", 1.6e-7, "uL", Range::NonNegative, "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.VJSR"),
    P::new("VNSR", 2.1e-6, "uL", Range::NonNegative, "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.VNSR"),
    P::new("VSS", 1.2e-9, "uL", Range::NonNegative, "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.VSS"),
    P::new(
        "conc_clamp",
        1.0,
        "1",
        Range::NonNegative,
        "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.conc_clamp",
    ),
    P::new("Ko", 4.0, "mM", Range::NonNegative, "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Ko"),
    P::new("Nao", 138.0, "mM", Range::NonNegative, "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Nao"),
    P::new("Cao", 2.0, "mM", Range::NonNegative, "COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES.Cao"),
    P::new("Kfb", 0.000168, "mM", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.Kfb"),
    P::new("Nfb", 1.2, "1", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.Nfb"),
    P::new("Krb", 3.29, "mM", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.Krb"),
    P::new("Nrb", 1.0, "1", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.Nrb"),
    P::new("KSR", 1.2, "mM", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.KSR"),
    P::new("vmaxf", 7.48e-5, "per_ms", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.vmaxf"),
    P::new("vmaxr", 0.000318, "per_ms", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.vmaxr"),
    P::new("v1", 1.8, "per_ms", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.v1"),
    P::new("tautr", 0.5747, "ms", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.tautr"),
    P::new("tauxfer", 26.7, "ms", Range::NonNegative, "COMPUTE_INTRACELLULAR_CALCIUM_FLUXES.tauxfer"),
    P::new("LTRPNtot", 0.07, "mM", Range::NonNegative, "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.LTRPNtot"),
    P::new("HTRPNtot", 0.14, "mM", Range::NonNegative, "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.HTRPNtot"),
    P::new(
        "khtrpn_plus",
        20.0,
        "per_mM_per_ms",
        Range::NonNegative,
        "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.khtrpn_plus",
    ),
    P::new(
        "khtrpn_minus",
        6.6e-5,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.khtrpn_minus",
    ),
    P::new(
        "kltrpn_plus",
        40.0,
        "per_mM_per_ms",
        Range::NonNegative,
        "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.kltrpn_plus",
    ),
    P::new(
        "kltrpn_minus",
        0.04,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.kltrpn_minus",
    ),
    P::new("CMDNtot", 0.05, "mM", Range::NonNegative, "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.CMDNtot"),
    P::new("CSQNtot", 15.0, "mM", Range::NonNegative, "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.CSQNtot"),
    P::new("EGTAtot", 0.0, "mM", Range::NonNegative, "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.EGTAtot"),
    P::new("KmCMDN", 0.00238, "mM", Range::NonNegative, "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.KmCMDN"),
    P::new("KmCSQN", 0.8, "mM", Range::NonNegative, "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.KmCSQN"),
    P::new("KmEGTA", 0.00015, "mM", Range::NonNegative, "COMPUTE_Jtrpn_and_BUFFER_SCALE_FACTORS.KmEGTA"),
    P::new(
        "kaplus",
        0.01215,
        "per_uM4_per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kaplus",
    ),
    P::new(
        "kaminus",
        0.576,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kaminus",
    ),
    P::new(
        "kbplus",
        0.00405,
        "per_uM3_per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kbplus",
    ),
    P::new(
        "kbminus",
        1.93,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kbminus",
    ),
    P::new("kcplus", 0.1, "per_ms", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kcplus"),
    P::new(
        "kcminus",
        0.0008,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.kcminus",
    ),
    P::new("ncoop", 4.0, "1", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.ncoop"),
    P::new("mcoop", 3.0, "1", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_RyR_RECEPTOR_STATES.mcoop"),
    P::new("fL", 0.3, "per_ms", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.fL"),
    P::new("gL", 4.0, "per_ms", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.gL"),
    P::new("bL", 2.0, "1", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.bL"),
    P::new("aL", 2.0, "1", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES.aL"),
    P::new(
        "alphaa0Kv43",
        0.543708,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.alphaa0Kv43",
    ),
    P::new(
        "aaKv43",
        0.028983,
        "per_mV",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.aaKv43",
    ),
    P::new(
        "betaa0Kv43",
        0.080185,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.betaa0Kv43",
    ),
    P::new(
        "baKv43",
        0.0468437,
        "per_mV",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.baKv43",
    ),
    P::new(
        "alphai0Kv43",
        0.0498424,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.alphai0Kv43",
    ),
    P::new(
        "aiKv43",
        0.000373016,
        "per_mV",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.aiKv43",
    ),
    P::new(
        "betai0Kv43",
        0.000819482,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.betai0Kv43",
    ),
    P::new(
        "biKv43",
        5.374e-8,
        "per_mV",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.biKv43",
    ),
    P::new("f1Kv43", 1.8936, "1", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.f1Kv43"),
    P::new(
        "f2Kv43",
        14.224647456,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.f2Kv43",
    ),
    P::new(
        "f3Kv43",
        158.574378389,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.f3Kv43",
    ),
    P::new(
        "f4Kv43",
        142.936645351,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.f4Kv43",
    ),
    P::new("b1Kv43", 6.77348, "1", Range::NonNegative, "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.b1Kv43"),
    P::new(
        "b2Kv43",
        15.6212705152,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.b2Kv43",
    ),
    P::new(
        "b3Kv43",
        28.7532603313,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.b3Kv43",
    ),
    P::new(
        "b4Kv43",
        524.576206679,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv4_3_CHANNEL_STATES.b4Kv43",
    ),
    P::new(
        "f1Kv14",
        0.52465073996,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.f1Kv14",
    ),
    P::new(
        "f2Kv14",
        17.51885408639,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.f2Kv14",
    ),
    P::new(
        "f3Kv14",
        938.58764534556,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.f3Kv14",
    ),
    P::new(
        "f4Kv14",
        54749.19473332601,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.f4Kv14",
    ),
    P::new(
        "b1Kv14",
        1.00947847105,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.b1Kv14",
    ),
    P::new(
        "b2Kv14",
        1.17100540567,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.b2Kv14",
    ),
    P::new(
        "b3Kv14",
        0.63902768758,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.b3Kv14",
    ),
    P::new(
        "b4Kv14",
        2.12035379095,
        "1",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.b4Kv14",
    ),
    P::new(
        "alphaa0Kv14",
        1.84002414554,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.alphaa0Kv14",
    ),
    P::new(
        "aaKv14",
        0.00768548031,
        "per_mV",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.aaKv14",
    ),
    P::new(
        "betaa0Kv14",
        0.0108174834,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.betaa0Kv14",
    ),
    P::new(
        "baKv14",
        0.07793378174,
        "per_mV",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.baKv14",
    ),
    P::new(
        "alphai0Kv14",
        0.00305767916,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.alphai0Kv14",
    ),
    P::new(
        "betai0Kv14",
        2.44936e-6,
        "per_ms",
        Range::NonNegative,
        "COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES.betai0Kv14",
    ),
    P::new("GKr", 0.0186, "mS_per_uF", Range::NonNegative, "COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GKr"),
    P::new("GKs", 0.0035, "mS_per_uF", Range::NonNegative, "COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GKs"),
    P::new(
        "GK1",
        0.12530512611880798,
        "mS_per_uF",
        Range::NonNegative,
        "COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GK1",
    ),
    P::new("GNa", 56.32, "mS_per_uF", Range::NonNegative, "COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GNa"),
    P::new("GNab", 0.001, "mS_per_uF", Range::NonNegative, "COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GNab"),
    P::new(
        "GtoFfactor",
        0.0872,
        "mS_per_uF",
        Range::NonNegative,
        "COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.GtoFfactor",
    ),
    P::new("Kv43Frac", 0.889, "1", Range::NonNegative, "COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.Kv43Frac"),
    P::new(
        "PtoSfactor",
        3.7484e-7,
        "litre_per_farad_second",
        Range::NonNegative,
        "COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp.PtoSfactor",
    ),
    P::new("kNaCa", 0.44, "uA_per_uF", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.kNaCa"),
    P::new("KmNa", 87.5, "mM", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.KmNa"),
    P::new("KmCa", 1.38, "mM", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.KmCa"),
    P::new("ksat", 0.2, "1", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.ksat"),
    P::new("eta", 0.35, "1", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.eta"),
    P::new("INaKmax", 2.387, "uA_per_uF", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.INaKmax"),
    P::new("KmNai", 20.0, "mM", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.KmNai"),
    P::new("KmKo", 1.5, "mM", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.KmKo"),
    P::new("IpCamax", 0.05, "uA_per_uF", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.IpCamax"),
    P::new("KmpCa", 0.0005, "mM", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.KmpCa"),
    P::new("GCab", 7.684e-5, "mS_per_uF", Range::NonNegative, "COMPUTE_INaK_INaCa_ICab_IpCa.GCab"),
    P::new("PCa_max", 0.0002469, "litre_per_farad_second", Range::NonNegative, "COMPUTE_ICa_ICaK.PCa_max"),
    P::new("ICahalf", (-0.265), "uA_per_uF", Range::Finite, "COMPUTE_ICa_ICaK.ICahalf"),
    P::new("Pscale", 7.0, "1", Range::NonNegative, "COMPUTE_ICa_ICaK.Pscale"),
    P::new("TNa", 294.16, "kelvin", Range::NonNegative, "INa.TNa"),
    P::new("T_Const_HERG", 5.320000001, "1", Range::NonNegative, "IKr.T_Const_HERG"),
    P::new("A0_HERG", 0.017147641733086, "per_ms", Range::NonNegative, "IKr.A0_HERG"),
    P::new("B0_HERG", 0.03304608038835, "per_mV", Range::NonNegative, "IKr.B0_HERG"),
    P::new("A1_HERG", 0.03969328381141, "per_ms", Range::NonNegative, "IKr.A1_HERG"),
    P::new("B1_HERG", (-0.0430605416398), "per_mV", Range::Finite, "IKr.B1_HERG"),
    P::new("A2_HERG", 0.02057448605977, "per_ms", Range::NonNegative, "IKr.A2_HERG"),
    P::new("B2_HERG", 0.02617412715118, "per_mV", Range::NonNegative, "IKr.B2_HERG"),
    P::new("A3_HERG", 0.00134366604423, "per_ms", Range::NonNegative, "IKr.A3_HERG"),
    P::new("B3_HERG", (-0.02691385498399), "per_mV", Range::Finite, "IKr.B3_HERG"),
    P::new("A4_HERG", 0.10666316491288, "per_ms", Range::NonNegative, "IKr.A4_HERG"),
    P::new("B4_HERG", 0.00568908859717, "per_mV", Range::NonNegative, "IKr.B4_HERG"),
    P::new("A5_HERG", 0.00646393910049, "per_ms", Range::NonNegative, "IKr.A5_HERG"),
    P::new("B5_HERG", (-0.04536642959543), "per_mV", Range::Finite, "IKr.B5_HERG"),
    P::new("A6_HERG", 8.039374403e-5, "per_ms", Range::NonNegative, "IKr.A6_HERG"),
    P::new("B6_HERG", 6.9808924e-7, "per_mV", Range::NonNegative, "IKr.B6_HERG"),
];

impl CellModel for Iyer2004 {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "iyer_2004",
        title: "IyerMazhariWinslow2004",
        reference: "CellML model `IyerMazhariWinslow2004` (iyer_2004.cellml), imported by fibril import-cellml",
        variables: VARIABLES,
        parameters: PARAMETERS,
        presets: &[],
        default_preset: "",
        units: ms_mm(
            "V in mV, times in ms, lengths in mm; the other variables and the parameters in the file's units",
        ),
        numerics: Numerics { dx: 0.2, dt: 0.0025, diffusion: 0.154 },
        activation_threshold: -40.0,
        stimulus_value: 20.0,
        planar_background: &REST,
        stimulus_current: Some(StimulusCurrent {
            amplitude: 15.0,
            duration: 3.0,
            carriers: &[StimulusCarrier { variable: 2, per_u: 6.151847158279727e-5, carry: Some(68) }],
        }),
        default_f64: true,
    };

    type Locals<T: Real> = [T; 72];
    type Coeffs<T: Real> = Iyer2004Coeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> Iyer2004Coeffs<T> {
        let [
            Faraday,
            Temp,
            Rgas,
            Acap,
            Vmyo,
            VJSR,
            VNSR,
            VSS,
            conc_clamp,
            Ko,
            Nao,
            Cao,
            Kfb,
            Nfb,
            Krb,
            Nrb,
            KSR,
            vmaxf,
            vmaxr,
            v1,
            tautr,
            tauxfer,
            LTRPNtot,
            HTRPNtot,
            khtrpn_plus,
            khtrpn_minus,
            kltrpn_plus,
            kltrpn_minus,
            CMDNtot,
            CSQNtot,
            EGTAtot,
            KmCMDN,
            KmCSQN,
            KmEGTA,
            kaplus,
            kaminus,
            kbplus,
            kbminus,
            kcplus,
            kcminus,
            ncoop,
            mcoop,
            fL,
            gL,
            bL,
            aL,
            alphaa0Kv43,
            aaKv43,
            betaa0Kv43,
            baKv43,
            alphai0Kv43,
            aiKv43,
            betai0Kv43,
            biKv43,
            f1Kv43,
            f2Kv43,
            f3Kv43,
            f4Kv43,
            b1Kv43,
            b2Kv43,
            b3Kv43,
            b4Kv43,
            f1Kv14,
            f2Kv14,
            f3Kv14,
            f4Kv14,
            b1Kv14,
            b2Kv14,
            b3Kv14,
            b4Kv14,
            alphaa0Kv14,
            aaKv14,
            betaa0Kv14,
            baKv14,
            alphai0Kv14,
            betai0Kv14,
            GKr,
            GKs,
            GK1,
            GNa,
            GNab,
            GtoFfactor,
            Kv43Frac,
            PtoSfactor,
            kNaCa,
            KmNa,
            KmCa,
            ksat,
            eta,
            INaKmax,
            KmNai,
            KmKo,
            IpCamax,
            KmpCa,
            GCab,
            PCa_max,
            ICahalf,
            Pscale,
            TNa,
            T_Const_HERG,
            A0_HERG,
            B0_HERG,
            A1_HERG,
            B1_HERG,
            A2_HERG,
            B2_HERG,
            A3_HERG,
            B3_HERG,
            A4_HERG,
            B4_HERG,
            A5_HERG,
            B5_HERG,
            A6_HERG,
            B6_HERG,
        ] = unpack(params, "iyer_2004");
        let dt = dt * 1.0;
        let C = (Acap * 0.001);
        let COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1 = (C / (Vmyo * Faraday));
        let COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a2 = (C / (2.0 * VSS * Faraday));
        let RT_over_F = ((Rgas * Temp) / Faraday);
        let i_Stim = 0.0;
        let omega = (0.25 * 0.01);
        let CCa0_to_C0 = omega;
        let CCa1_to_C1 = (CCa0_to_C0 / bL);
        let CCa2_to_C2 = (CCa1_to_C1 / bL);
        let CCa3_to_C3 = (CCa2_to_C2 / bL);
        let CCa4_to_C4 = (CCa3_to_C3 / bL);
        let a1_Cainf = 0.82;
        let alpha_inact14 = alphai0Kv14;
        let beta_inact14 = betai0Kv14;
        let C0Kv14_to_CI0Kv14 = beta_inact14;
        let C1Kv14_to_CI1Kv14 = (f1Kv14 * beta_inact14);
        let C2Kv14_to_CI2Kv14 = (f2Kv14 * beta_inact14);
        let C3Kv14_to_CI3Kv14 = (f3Kv14 * beta_inact14);
        let OKv14_to_OIKv14 = (f4Kv14 * beta_inact14);
        let CI0Kv14_to_C0Kv14 = alpha_inact14;
        let CI1Kv14_to_C1Kv14 = (alpha_inact14 / b1Kv14);
        let CI2Kv14_to_C2Kv14 = (alpha_inact14 / b2Kv14);
        let CI3Kv14_to_C3Kv14 = (alpha_inact14 / b3Kv14);
        let OIKv14_to_OKv14 = (alpha_inact14 / b4Kv14);
        let COMPUTE_REVERSAL_POTENTIALS_a1 = (Ko + (0.01833 * Nao));
        let GKv43 = (Kv43Frac * GtoFfactor);
        let PKv14 = ((1.0 - Kv43Frac) * PtoSfactor);
        let fKo = sqrt_t((Ko / 4.0));
        let sigma = ((exp((Nao / 67.3)) - 1.0) / 7.0);
        let COMPUTE_INaK_INaCa_ICab_IpCa_a1_K = (Ko / (Ko + KmKo));
        let a4_ncx = (KmCa + Cao);
        let a5_ncx = ((powi(KmNa, 3) + powi(Nao, 3)) / 5000.0);
        let PCa = (Pscale * PCa_max);
        let PK = (Pscale * 4.574e-7);
        let Temp_Scale = 1.38862291252871;
        let KToverH = ((1.381e-23 * TNa) / 6.626e-31);
        let RTNa = (Rgas * TNa);
        let epsilon = (Temp_Scale * KToverH * exp((((-85800.3675578326) / RTNa) + (70.078 / Rgas))));
        let omega_na = (Temp_Scale * KToverH * exp((((-121955.166154864) / RTNa) + (225.175 / Rgas))));
        let Cn = (Temp_Scale * KToverH * exp((((-287913.446530953) / RTNa) + (786.217 / Rgas))));
        let Cf = (Temp_Scale * KToverH * exp((((-59565.2236284584) / RTNa) + (0.00711 / Rgas))));
        let parameter_a = 1.40042625477401;
        let k67 = epsilon;
        let k76 = omega_na;
        let k81 = Cf;
        let k92 = (k81 / parameter_a);
        let k103 = (k92 / parameter_a);
        let k114 = (k103 / parameter_a);
        let k125 = (k114 / parameter_a);
        let k18 = Cn;
        let k29 = (k18 * parameter_a);
        let k310 = (k29 * parameter_a);
        let k411 = (k310 * parameter_a);
        let k512 = (k411 * parameter_a);
        let RTNaF = ((Rgas * TNa) / Faraday);
        let C2H_to_C3H = (T_Const_HERG * 0.02608362043337);
        let C3H_to_C2H = (T_Const_HERG * 0.14832978132145);
        let C0ks_C1ks = 0.00795600798004;
        let C1ks_O1ks = 0.03966720676071;
        let t = T::from_f64;
        Iyer2004Coeffs {
            dt: t(dt),
            COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1: t(
                COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1,
            ),
            COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a2: t(
                COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a2,
            ),
            Faraday: t(Faraday),
            RT_over_F: t(RT_over_F),
            Vmyo: t(Vmyo),
            VJSR: t(VJSR),
            VNSR: t(VNSR),
            VSS: t(VSS),
            Ko: t(Ko),
            Nao: t(Nao),
            Cao: t(Cao),
            i_Stim: t(i_Stim),
            Kfb: t(Kfb),
            Nfb: t(Nfb),
            Krb: t(Krb),
            Nrb: t(Nrb),
            KSR: t(KSR),
            vmaxf: t(vmaxf),
            vmaxr: t(vmaxr),
            v1: t(v1),
            tautr: t(tautr),
            tauxfer: t(tauxfer),
            LTRPNtot: t(LTRPNtot),
            HTRPNtot: t(HTRPNtot),
            khtrpn_plus: t(khtrpn_plus),
            khtrpn_minus: t(khtrpn_minus),
            kltrpn_plus: t(kltrpn_plus),
            kltrpn_minus: t(kltrpn_minus),
            KmCMDN: t(KmCMDN),
            KmCSQN: t(KmCSQN),
            KmEGTA: t(KmEGTA),
            kaminus: t(kaminus),
            kbplus: t(kbplus),
            kbminus: t(kbminus),
            kcplus: t(kcplus),
            kcminus: t(kcminus),
            ncoop: t(ncoop),
            mcoop: t(mcoop),
            fL: t(fL),
            gL: t(gL),
            bL: t(bL),
            aL: t(aL),
            CCa0_to_C0: t(CCa0_to_C0),
            CCa1_to_C1: t(CCa1_to_C1),
            CCa2_to_C2: t(CCa2_to_C2),
            CCa3_to_C3: t(CCa3_to_C3),
            CCa4_to_C4: t(CCa4_to_C4),
            a1_Cainf: t(a1_Cainf),
            alphaa0Kv43: t(alphaa0Kv43),
            aaKv43: t(aaKv43),
            betaa0Kv43: t(betaa0Kv43),
            alphai0Kv43: t(alphai0Kv43),
            betai0Kv43: t(betai0Kv43),
            biKv43: t(biKv43),
            f1Kv43: t(f1Kv43),
            f2Kv43: t(f2Kv43),
            f3Kv43: t(f3Kv43),
            f4Kv43: t(f4Kv43),
            b1Kv43: t(b1Kv43),
            b2Kv43: t(b2Kv43),
            b3Kv43: t(b3Kv43),
            b4Kv43: t(b4Kv43),
            f1Kv14: t(f1Kv14),
            f2Kv14: t(f2Kv14),
            f3Kv14: t(f3Kv14),
            f4Kv14: t(f4Kv14),
            b1Kv14: t(b1Kv14),
            b2Kv14: t(b2Kv14),
            b3Kv14: t(b3Kv14),
            b4Kv14: t(b4Kv14),
            alphaa0Kv14: t(alphaa0Kv14),
            aaKv14: t(aaKv14),
            betaa0Kv14: t(betaa0Kv14),
            C0Kv14_to_CI0Kv14: t(C0Kv14_to_CI0Kv14),
            C1Kv14_to_CI1Kv14: t(C1Kv14_to_CI1Kv14),
            C2Kv14_to_CI2Kv14: t(C2Kv14_to_CI2Kv14),
            C3Kv14_to_CI3Kv14: t(C3Kv14_to_CI3Kv14),
            OKv14_to_OIKv14: t(OKv14_to_OIKv14),
            CI0Kv14_to_C0Kv14: t(CI0Kv14_to_C0Kv14),
            CI1Kv14_to_C1Kv14: t(CI1Kv14_to_C1Kv14),
            CI2Kv14_to_C2Kv14: t(CI2Kv14_to_C2Kv14),
            CI3Kv14_to_C3Kv14: t(CI3Kv14_to_C3Kv14),
            OIKv14_to_OKv14: t(OIKv14_to_OKv14),
            COMPUTE_REVERSAL_POTENTIALS_a1: t(COMPUTE_REVERSAL_POTENTIALS_a1),
            GKr: t(GKr),
            GKs: t(GKs),
            GK1: t(GK1),
            GNa: t(GNa),
            GNab: t(GNab),
            GKv43: t(GKv43),
            PKv14: t(PKv14),
            fKo: t(fKo),
            kNaCa: t(kNaCa),
            ksat: t(ksat),
            eta: t(eta),
            INaKmax: t(INaKmax),
            KmNai: t(KmNai),
            IpCamax: t(IpCamax),
            KmpCa: t(KmpCa),
            GCab: t(GCab),
            sigma: t(sigma),
            COMPUTE_INaK_INaCa_ICab_IpCa_a1_K: t(COMPUTE_INaK_INaCa_ICab_IpCa_a1_K),
            a4_ncx: t(a4_ncx),
            a5_ncx: t(a5_ncx),
            PCa: t(PCa),
            PK: t(PK),
            ICahalf: t(ICahalf),
            Temp_Scale: t(Temp_Scale),
            parameter_a: t(parameter_a),
            k67: t(k67),
            k76: t(k76),
            k81: t(k81),
            k92: t(k92),
            k103: t(k103),
            k114: t(k114),
            k125: t(k125),
            k18: t(k18),
            k29: t(k29),
            k310: t(k310),
            k411: t(k411),
            k512: t(k512),
            KToverH: t(KToverH),
            RTNaF: t(RTNaF),
            T_Const_HERG: t(T_Const_HERG),
            A0_HERG: t(A0_HERG),
            B0_HERG: t(B0_HERG),
            A1_HERG: t(A1_HERG),
            B1_HERG: t(B1_HERG),
            A2_HERG: t(A2_HERG),
            B2_HERG: t(B2_HERG),
            A3_HERG: t(A3_HERG),
            B3_HERG: t(B3_HERG),
            A4_HERG: t(A4_HERG),
            B4_HERG: t(B4_HERG),
            A5_HERG: t(A5_HERG),
            B5_HERG: t(B5_HERG),
            A6_HERG: t(A6_HERG),
            B6_HERG: t(B6_HERG),
            C2H_to_C3H: t(C2H_to_C3H),
            C3H_to_C2H: t(C3H_to_C2H),
            C0ks_C1ks: t(C0ks_C1ks),
            C1ks_O1ks: t(C1ks_O1ks),
            k__0: t((Cao * 0.341)),
            k__1: t((1.26 / RT_over_F)),
            k__2: t(sqrt_t((Ko / 1.0))),
            k__3: t((eta - 1.0)),
            k__4: t(powi(Nao, 3)),
            k__5: t((-0.1)),
            k__6: t((-1.33)),
            k__7: t((CMDNtot * KmCMDN)),
            k__8: t((EGTAtot * KmEGTA)),
            k__9: t((CSQNtot * KmCSQN)),
            k__10: t((-kaplus)),
            k__11: t((-0.065)),
            k__12: t((-5.53899874036055)),
            k__13: t((-49.51039631160386)),
            k__14: t((-baKv43)),
            k__15: t((-aiKv43)),
            k__16: t((-baKv14)),
            k__17: t(((-114007.462700232) / RTNa)),
            k__18: t((224.114 / Rgas)),
            k__19: t(((-272470.273489681) / RTNa)),
            k__20: t((708.146 / Rgas)),
            k__21: t((-2.28528417586424)),
            k__22: t(((-196336.575735923) / RTNa)),
            k__23: t((529.952 / Rgas)),
            k__24: t(((-133689.9304091) / RTNa)),
            k__25: t((229.205 / Rgas)),
            k__26: t((-1.55804214553883)),
            k__27: t(((-62123.0784380481) / RTNa)),
            k__28: t((39.295 / Rgas)),
            k__29: t(((-97657.8497137015) / RTNa)),
            k__30: t((1.51 / Rgas)),
            k__31: t((116431.142142348 / RTNa)),
            k__32: t(((-578.317) / Rgas)),
            k__33: t(((-55700.6624658307) / RTNa)),
            k__34: t(((-130.639) / Rgas)),
            k__35: t((-3.64981672927078)),
            k__36: t(((-147813.990005035) / RTNa)),
            k__37: t((338.915 / Rgas)),
            k__38: t(((-121322.143275242) / RTNa)),
            k__39: t((193.265 / Rgas)),
            k__40: t((-1.74290267020903)),
            k__41: t((-0.14999754700285)),
            k__42: t((-0.01425668126881)),
            k__43: t((-1.889123021e-5)),
            k__44: t((-conc_clamp)),
            k__45: t((-C0ks_C1ks)),
            k__46: t(((-1.0) / tauxfer)),
            k__47: t((Nfb - 1.0)),
            k__48: t((1.0 / Kfb)),
            k__49: t(((-1.0) * v1)),
            k__50: t((-(((1.0 / tauxfer) * Vmyo) / VSS))),
            k__51: t(((-1.0) / tautr)),
            k__52: t((Nrb - 1.0)),
            k__53: t((1.0 / Krb)),
            k__54: t((-(((1.0 / tautr) * VJSR) / VNSR))),
            k__55: t((-kltrpn_minus)),
            k__56: t((-khtrpn_minus)),
            k__57: t((-kbminus)),
            k__58: t((-kcminus)),
            k__59: t((-(-kbminus))),
            k__60: t((-(-kcminus))),
            k__61: t((-gL)),
        }
    }

    reaction_method!(Iyer2004Coeffs, 72);
}

reaction_instances!(Iyer2004Coeffs, 72);

#[inline(always)]
fn reaction_body<T: Real>(v_mv: T, locals: &mut [T; 72], c: &Iyer2004Coeffs<T>) -> T {
    let n = T::from_f64;
    let Nai = locals[0];
    let Ki = locals[1];
    let Cai = locals[2];
    let CaSS = locals[3];
    let CaJSR = locals[4];
    let CaNSR = locals[5];
    let LTRPNCa = locals[6];
    let HTRPNCa = locals[7];
    let C1_RyR = locals[8];
    let O2_RyR = locals[9];
    let C2_RyR = locals[10];
    let O1_RyR = locals[11];
    let C0 = locals[12];
    let C1 = locals[13];
    let C2 = locals[14];
    let C3 = locals[15];
    let C4 = locals[16];
    let CCa0 = locals[17];
    let CCa1 = locals[18];
    let CCa2 = locals[19];
    let CCa3 = locals[20];
    let CCa4 = locals[21];
    let Open = locals[22];
    let yCa = locals[23];
    let C0Kv43 = locals[24];
    let C1Kv43 = locals[25];
    let C2Kv43 = locals[26];
    let C3Kv43 = locals[27];
    let OKv43 = locals[28];
    let CI0Kv43 = locals[29];
    let CI1Kv43 = locals[30];
    let CI2Kv43 = locals[31];
    let CI3Kv43 = locals[32];
    let OIKv43 = locals[33];
    let C0Kv14 = locals[34];
    let C1Kv14 = locals[35];
    let C2Kv14 = locals[36];
    let C3Kv14 = locals[37];
    let OKv14 = locals[38];
    let CI0Kv14 = locals[39];
    let CI1Kv14 = locals[40];
    let CI2Kv14 = locals[41];
    let CI3Kv14 = locals[42];
    let OIKv14 = locals[43];
    let na1 = locals[44];
    let na2 = locals[45];
    let na3 = locals[46];
    let na4 = locals[47];
    let na5 = locals[48];
    let na6 = locals[49];
    let na7 = locals[50];
    let na8 = locals[51];
    let na9 = locals[52];
    let na10 = locals[53];
    let na11 = locals[54];
    let na12 = locals[55];
    let na13 = locals[56];
    let C1Herg = locals[57];
    let C2Herg = locals[58];
    let C3Herg = locals[59];
    let OHerg = locals[60];
    let IHerg = locals[61];
    let C0ks = locals[62];
    let C1ks = locals[63];
    let O1ks = locals[64];
    let O2ks = locals[65];
    let Nai__carry = locals[66];
    let Ki__carry = locals[67];
    let Cai__carry = locals[68];
    let CaSS__carry = locals[69];
    let CaJSR__carry = locals[70];
    let CaNSR__carry = locals[71];
    let V = v_mv;
    let s__0 = (c.Nao / Nai);
    let ENa = (c.RT_over_F * ln(s__0));
    let s__1 = (na6 + na7);
    let s__2 = (V - ENa);
    let INa = (c.GNa * s__1 * s__2);
    let s__3 = (V / c.RT_over_F);
    let COMPUTE_ICa_ICaK_VF_over_RT = s__3;
    let COMPUTE_ICa_ICaK_VFsq_over_RT = (n(1000.0) * c.Faraday * COMPUTE_ICa_ICaK_VF_over_RT);
    let s__4 = (n(2.0) * COMPUTE_ICa_ICaK_VF_over_RT);
    let s__5 = exp(s__4);
    let a1_Ca = ((n(0.001) * s__5) - c.k__0);
    let a2_Ca = (s__5 - n(1.0));
    let ICamax = removable(
        V,
        -0.0,
        0.07487440110177876,
        ((c.PCa * n(4.0) * COMPUTE_ICa_ICaK_VFsq_over_RT * a1_Ca) / a2_Ca),
        |V: T| {
            ((c.PCa
                * n(4.0)
                * (n(1000.0) * c.Faraday * (V / c.RT_over_F))
                * ((n(0.001) * exp((n(2.0) * (V / c.RT_over_F)))) - c.k__0))
                / (exp((n(2.0) * (V / c.RT_over_F))) - n(1.0)))
        },
    );
    let ICa = (ICamax * yCa * Open);
    let Icabar = (if (ICamax >= n(0.0)) { n(0.0) } else { ICamax });
    let PKprime = (c.PK / (n(1.0) + (Icabar / c.ICahalf)));
    let s__6 = exp(COMPUTE_ICa_ICaK_VF_over_RT);
    let COMPUTE_ICa_ICaK_a1_K = ((Ki * s__6) - c.Ko);
    let COMPUTE_ICa_ICaK_a2_K = (s__6 - n(1.0));
    let ICaK = removable(
        V,
        -0.0,
        0.03743720055088938,
        ((PKprime * Open * yCa * COMPUTE_ICa_ICaK_VFsq_over_RT * COMPUTE_ICa_ICaK_a1_K)
            / COMPUTE_ICa_ICaK_a2_K),
        |V: T| {
            (((c.PK
                / (n(1.0)
                    + ((if (removable_of(V, -0.0, 0.07487440110177876, |V: T| {
                        ((c.PCa
                            * n(4.0)
                            * (n(1000.0) * c.Faraday * (V / c.RT_over_F))
                            * ((n(0.001) * exp((n(2.0) * (V / c.RT_over_F)))) - c.k__0))
                            / (exp((n(2.0) * (V / c.RT_over_F))) - n(1.0)))
                    }) >= n(0.0))
                    {
                        n(0.0)
                    } else {
                        removable_of(V, -0.0, 0.07487440110177876, |V: T| {
                            ((c.PCa
                                * n(4.0)
                                * (n(1000.0) * c.Faraday * (V / c.RT_over_F))
                                * ((n(0.001) * exp((n(2.0) * (V / c.RT_over_F)))) - c.k__0))
                                / (exp((n(2.0) * (V / c.RT_over_F))) - n(1.0)))
                        })
                    }) / c.ICahalf)))
                * Open
                * yCa
                * (n(1000.0) * c.Faraday * (V / c.RT_over_F))
                * COMPUTE_ICa_ICaK_a1_K)
                / (exp((V / c.RT_over_F)) - n(1.0)))
        },
    );
    let s__7 = (c.Ko / Ki);
    let EK = (c.RT_over_F * ln(s__7));
    let s__8 = (V - EK);
    let IKr = (c.GKr * c.fKo * OHerg * s__8);
    let COMPUTE_REVERSAL_POTENTIALS_a2 = (Ki + (n(0.01833) * Nai));
    let s__9 = (c.COMPUTE_REVERSAL_POTENTIALS_a1 / COMPUTE_REVERSAL_POTENTIALS_a2);
    let EKs = (c.RT_over_F * ln(s__9));
    let s__10 = (O1ks + O2ks);
    let IKs = (c.GKs * s__10 * (V - EKs));
    let s__11 = (c.k__1 * s__8);
    let s__12 = exp(s__11);
    let s__13 = (n(0.94) + s__12);
    let K1_inf = (n(1.0) / s__13);
    let IK1 = (c.GK1 * c.k__2 * K1_inf * s__8);
    let COMPUTE_INaK_INaCa_ICab_IpCa_VF_over_RT = s__3;
    let s__14 = (c.eta * COMPUTE_INaK_INaCa_ICab_IpCa_VF_over_RT);
    let s__15 = exp(s__14);
    let a1_ncx = (s__15 * powi(Nai, 3) * c.Cao);
    let s__16 = (c.k__3 * COMPUTE_INaK_INaCa_ICab_IpCa_VF_over_RT);
    let s__17 = exp(s__16);
    let a2_ncx = (s__17 * c.k__4 * Cai);
    let a3_ncx = (n(1.0) + (c.ksat * s__17));
    let s__18 = (c.a4_ncx * a3_ncx * c.a5_ncx);
    let INaCa = ((c.kNaCa * (a1_ncx - a2_ncx)) / s__18);
    let COMPUTE_INaK_INaCa_ICab_IpCa_a1_Na =
        (n(1.0) + (n(0.1245) * exp((c.k__5 * COMPUTE_INaK_INaCa_ICab_IpCa_VF_over_RT))));
    let a2_Na = (n(0.0365) * c.sigma * exp((c.k__6 * COMPUTE_INaK_INaCa_ICab_IpCa_VF_over_RT)));
    let fNaK = (n(1.0) / (COMPUTE_INaK_INaCa_ICab_IpCa_a1_Na + a2_Na));
    let s__19 = (c.KmNai / Nai);
    let COMPUTE_INaK_INaCa_ICab_IpCa_a2_K = (n(1.0) + pow(s__19, n(1.5)));
    let s__20 = (c.INaKmax * fNaK * c.COMPUTE_INaK_INaCa_ICab_IpCa_a1_K);
    let INaK = (s__20 / COMPUTE_INaK_INaCa_ICab_IpCa_a2_K);
    let IKv43 = (c.GKv43 * OKv43 * s__8);
    let COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_VF_over_RT = s__3;
    let COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_VFsq_over_RT =
        (n(1000.0) * c.Faraday * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_VF_over_RT);
    let s__21 = exp(COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_VF_over_RT);
    let COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a1_K = ((Ki * s__21) - c.Ko);
    let COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a2 = (s__21 - n(1.0));
    let IKv14_K = removable(
        V,
        -0.0,
        0.03743720055088938,
        ((c.PKv14
            * OKv14
            * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_VFsq_over_RT
            * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a1_K)
            / COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a2),
        |V: T| {
            ((c.PKv14
                * OKv14
                * (n(1000.0) * c.Faraday * (V / c.RT_over_F))
                * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a1_K)
                / (exp((V / c.RT_over_F)) - n(1.0)))
        },
    );
    let COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a1_Na = ((Nai * s__21) - c.Nao);
    let IKv14_Na = removable(
        V,
        -0.0,
        0.03743720055088938,
        ((n(0.02)
            * c.PKv14
            * OKv14
            * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_VFsq_over_RT
            * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a1_Na)
            / COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a2),
        |V: T| {
            ((n(0.02)
                * c.PKv14
                * OKv14
                * (n(1000.0) * c.Faraday * (V / c.RT_over_F))
                * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a1_Na)
                / (exp((V / c.RT_over_F)) - n(1.0)))
        },
    );
    let IKv14 = (IKv14_K + IKv14_Na);
    let Ito1 = (IKv43 + IKv14);
    let s__22 = (c.IpCamax * Cai);
    let s__23 = (c.KmpCa + Cai);
    let IpCa = (s__22 / s__23);
    let s__24 = (c.Cao / Cai);
    let ECa = (n(0.5) * c.RT_over_F * ln(s__24));
    let ICab = (c.GCab * (V - ECa));
    let INab = (c.GNab * s__2);
    let i_tot = (INa + ICa + ICaK + IKr + IKs + IK1 + INaCa + INaK + Ito1 + IpCa + ICab + INab + c.i_Stim);
    let s__25 = (Cai / c.Kfb);
    let fb = pow(s__25, c.Nfb);
    let s__26 = (CaNSR / c.Krb);
    let rb = pow(s__26, c.Nrb);
    let s__27 = (c.vmaxf * fb);
    let s__28 = (c.vmaxr * rb);
    let s__29 = (s__27 - s__28);
    let s__30 = (c.KSR * s__29);
    let s__31 = (n(1.0) + fb + rb);
    let Jup = (s__30 / s__31);
    let s__32 = (O1_RyR + O2_RyR);
    let Jrel = (c.v1 * s__32 * (CaJSR - CaSS));
    let Jtr = ((CaNSR - CaJSR) / c.tautr);
    let Jxfer = ((CaSS - Cai) / c.tauxfer);
    let s__33 = (n(1.0) - LTRPNCa);
    let dLTRPNCa = ((c.kltrpn_plus * Cai * s__33) - (c.kltrpn_minus * LTRPNCa));
    let s__34 = (n(1.0) - HTRPNCa);
    let dHTRPNCa = ((c.khtrpn_plus * Cai * s__34) - (c.khtrpn_minus * HTRPNCa));
    let Jtrpn = ((c.LTRPNtot * dLTRPNCa) + (c.HTRPNtot * dHTRPNCa));
    let s__35 = (CaSS + c.KmCMDN);
    let s__36 = powi(s__35, 2);
    let s__37 = (c.k__7 / s__36);
    let s__38 = (CaSS + c.KmEGTA);
    let s__39 = powi(s__38, 2);
    let s__40 = (c.k__8 / s__39);
    let s__41 = (n(1.0) + s__37 + s__40);
    let beta_SS = (n(1.0) / s__41);
    let s__42 = (CaJSR + c.KmCSQN);
    let s__43 = powi(s__42, 2);
    let s__44 = (c.k__9 / s__43);
    let s__45 = (n(1.0) + s__44);
    let beta_JSR = (n(1.0) / s__45);
    let s__46 = (Cai + c.KmCMDN);
    let s__47 = powi(s__46, 2);
    let s__48 = (c.k__7 / s__47);
    let s__49 = (Cai + c.KmEGTA);
    let s__50 = powi(s__49, 2);
    let s__51 = (c.k__8 / s__50);
    let s__52 = (n(1.0) + s__48 + s__51);
    let beta_i = (n(1.0) / s__52);
    let s__53 = (CaSS * n(1000.0));
    let s__54 = pow(s__53, c.ncoop);
    let dC1_RyR = ((c.k__10 * s__54 * C1_RyR) + (c.kaminus * O1_RyR));
    let s__55 = pow(s__53, c.mcoop);
    let dO2_RyR = ((c.kbplus * s__55 * O1_RyR) - (c.kbminus * O2_RyR));
    let dC2_RyR = ((c.kcplus * O1_RyR) - (c.kcminus * C2_RyR));
    let dO1_RyR = (-(dC1_RyR + dO2_RyR + dC2_RyR));
    let alpha = (n(4.0) * n(1.2) * n(0.416) * exp((n(0.012) * (V - n(35.0)))));
    let C0_to_C1 = (n(4.0) * alpha);
    let C1_to_C2 = (n(3.0) * alpha);
    let C2_to_C3 = (n(2.0) * alpha);
    let C3_to_C4 = alpha;
    let beta = (n(4.0) * n(0.45) * n(0.049) * exp((c.k__11 * (V - n(22.0)))));
    let C1_to_C0 = beta;
    let C2_to_C1 = (n(2.0) * beta);
    let C3_to_C2 = (n(3.0) * beta);
    let C4_to_C3 = (n(4.0) * beta);
    let alpha_prime = (c.aL * alpha);
    let CCa0_to_CCa1 = (n(4.0) * alpha_prime);
    let CCa1_to_CCa2 = (n(3.0) * alpha_prime);
    let CCa2_to_CCa3 = (n(2.0) * alpha_prime);
    let CCa3_to_CCa4 = alpha_prime;
    let beta_prime = (beta / c.bL);
    let CCa1_to_CCa0 = beta_prime;
    let CCa2_to_CCa1 = (n(2.0) * beta_prime);
    let CCa3_to_CCa2 = (n(3.0) * beta_prime);
    let CCa4_to_CCa3 = (n(4.0) * beta_prime);
    let gamma = (n(0.6) * n(0.09233) * CaSS);
    let C0_to_CCa0 = gamma;
    let C1_to_CCa1 = (c.aL * C0_to_CCa0);
    let C2_to_CCa2 = (c.aL * C1_to_CCa1);
    let C3_to_CCa3 = (c.aL * C2_to_CCa2);
    let C4_to_CCa4 = (c.aL * C3_to_CCa3);
    let s__56 = (CCa0_to_CCa1 + c.CCa0_to_C0);
    let a1_Ca0 = (s__56 * CCa0);
    let a2_Ca0 = ((CCa1_to_CCa0 * CCa1) + (C0_to_CCa0 * C0));
    let s__57 = (CCa1_to_CCa0 + CCa1_to_CCa2 + c.CCa1_to_C1);
    let a1_Ca1 = (s__57 * CCa1);
    let a2_Ca1 = ((CCa0_to_CCa1 * CCa0) + (CCa2_to_CCa1 * CCa2) + (C1_to_CCa1 * C1));
    let s__58 = (CCa2_to_CCa1 + CCa2_to_CCa3 + c.CCa2_to_C2);
    let a1_Ca2 = (s__58 * CCa2);
    let a2_Ca2 = ((CCa1_to_CCa2 * CCa1) + (CCa3_to_CCa2 * CCa3) + (C2_to_CCa2 * C2));
    let s__59 = (CCa3_to_CCa2 + CCa3_to_CCa4 + c.CCa3_to_C3);
    let a1_Ca3 = (s__59 * CCa3);
    let a2_Ca3 = ((CCa2_to_CCa3 * CCa2) + (CCa4_to_CCa3 * CCa4) + (C3_to_CCa3 * C3));
    let s__60 = (CCa4_to_CCa3 + c.CCa4_to_C4);
    let a1_Ca4 = (s__60 * CCa4);
    let a2_Ca4 = ((CCa3_to_CCa4 * CCa3) + (C4_to_CCa4 * C4));
    let s__61 = (C0_to_C1 + C0_to_CCa0);
    let COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a1_C0 = (s__61 * C0);
    let COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a2_C0 = ((C1_to_C0 * C1) + (c.CCa0_to_C0 * CCa0));
    let s__62 = (C1_to_C0 + C1_to_C2 + C1_to_CCa1);
    let COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a1_C1 = (s__62 * C1);
    let COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a2_C1 =
        ((C0_to_C1 * C0) + (C2_to_C1 * C2) + (c.CCa1_to_C1 * CCa1));
    let s__63 = (C2_to_C1 + C2_to_C3 + C2_to_CCa2);
    let COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a1_C2 = (s__63 * C2);
    let COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a2_C2 =
        ((C1_to_C2 * C1) + (C3_to_C2 * C3) + (c.CCa2_to_C2 * CCa2));
    let s__64 = (C3_to_C2 + C3_to_C4 + C3_to_CCa3);
    let COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a1_C3 = (s__64 * C3);
    let COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a2_C3 =
        ((C2_to_C3 * C2) + (C4_to_C3 * C4) + (c.CCa3_to_C3 * CCa3));
    let s__65 = (C4_to_C3 + c.fL + C4_to_CCa4);
    let a1_C4 = (s__65 * C4);
    let s__66 = (c.gL * Open);
    let a2_C4 = ((C3_to_C4 * C3) + s__66 + (c.CCa4_to_C4 * CCa4));
    let yCa_inf = (((c.a1_Cainf / (n(1.0) + exp(((V + n(28.5)) / n(7.8))))) + n(1.0)) - c.a1_Cainf);
    let tau_yCa = (n(1.0)
        / ((n(0.00336336209452) / (n(0.5) + exp((V / c.k__12))))
            + (n(0.00779046570737) * exp((V / c.k__13)))));
    let alpha_act43 = (c.alphaa0Kv43 * exp((c.aaKv43 * V)));
    let beta_act43 = (c.betaa0Kv43 * exp((c.k__14 * V)));
    let alpha_inact43 = (c.alphai0Kv43 * exp((c.k__15 * V)));
    let beta_inact43 = (c.betai0Kv43 * exp((c.biKv43 * V)));
    let C0Kv43_to_C1Kv43 = (n(4.0) * alpha_act43);
    let C1Kv43_to_C2Kv43 = (n(3.0) * alpha_act43);
    let C2Kv43_to_C3Kv43 = (n(2.0) * alpha_act43);
    let C3Kv43_to_OKv43 = alpha_act43;
    let CI0Kv43_to_CI1Kv43 = (n(4.0) * c.b1Kv43 * alpha_act43);
    let CI1Kv43_to_CI2Kv43 = ((n(3.0) * c.b2Kv43 * alpha_act43) / c.b1Kv43);
    let CI2Kv43_to_CI3Kv43 = ((n(2.0) * c.b3Kv43 * alpha_act43) / c.b2Kv43);
    let CI3Kv43_to_OIKv43 = ((c.b4Kv43 * alpha_act43) / c.b3Kv43);
    let C1Kv43_to_C0Kv43 = beta_act43;
    let C2Kv43_to_C1Kv43 = (n(2.0) * beta_act43);
    let C3Kv43_to_C2Kv43 = (n(3.0) * beta_act43);
    let OKv43_to_C3Kv43 = (n(4.0) * beta_act43);
    let CI1Kv43_to_CI0Kv43 = (beta_act43 / c.f1Kv43);
    let CI2Kv43_to_CI1Kv43 = ((n(2.0) * c.f1Kv43 * beta_act43) / c.f2Kv43);
    let CI3Kv43_to_CI2Kv43 = ((n(3.0) * c.f2Kv43 * beta_act43) / c.f3Kv43);
    let OIKv43_to_CI3Kv43 = ((n(4.0) * c.f3Kv43 * beta_act43) / c.f4Kv43);
    let C0Kv43_to_CI0Kv43 = beta_inact43;
    let C1Kv43_to_CI1Kv43 = (c.f1Kv43 * beta_inact43);
    let C2Kv43_to_CI2Kv43 = (c.f2Kv43 * beta_inact43);
    let C3Kv43_to_CI3Kv43 = (c.f3Kv43 * beta_inact43);
    let OKv43_to_OIKv43 = (c.f4Kv43 * beta_inact43);
    let CI0Kv43_to_C0Kv43 = alpha_inact43;
    let CI1Kv43_to_C1Kv43 = (alpha_inact43 / c.b1Kv43);
    let CI2Kv43_to_C2Kv43 = (alpha_inact43 / c.b2Kv43);
    let CI3Kv43_to_C3Kv43 = (alpha_inact43 / c.b3Kv43);
    let OIKv43_to_OKv43 = (alpha_inact43 / c.b4Kv43);
    let s__67 = (C0Kv43_to_C1Kv43 + C0Kv43_to_CI0Kv43);
    let a1_C043 = (s__67 * C0Kv43);
    let a2_C043 = ((C1Kv43_to_C0Kv43 * C1Kv43) + (CI0Kv43_to_C0Kv43 * CI0Kv43));
    let s__68 = (C1Kv43_to_C2Kv43 + C1Kv43_to_C0Kv43 + C1Kv43_to_CI1Kv43);
    let a1_C143 = (s__68 * C1Kv43);
    let a2_C143 = ((C2Kv43_to_C1Kv43 * C2Kv43) + (CI1Kv43_to_C1Kv43 * CI1Kv43) + (C0Kv43_to_C1Kv43 * C0Kv43));
    let s__69 = (C2Kv43_to_C3Kv43 + C2Kv43_to_C1Kv43 + C2Kv43_to_CI2Kv43);
    let a1_C243 = (s__69 * C2Kv43);
    let a2_C243 = ((C3Kv43_to_C2Kv43 * C3Kv43) + (CI2Kv43_to_C2Kv43 * CI2Kv43) + (C1Kv43_to_C2Kv43 * C1Kv43));
    let s__70 = (C3Kv43_to_OKv43 + C3Kv43_to_C2Kv43 + C3Kv43_to_CI3Kv43);
    let a1_C343 = (s__70 * C3Kv43);
    let a2_C343 = ((OKv43_to_C3Kv43 * OKv43) + (CI3Kv43_to_C3Kv43 * CI3Kv43) + (C2Kv43_to_C3Kv43 * C2Kv43));
    let s__71 = (OKv43_to_C3Kv43 + OKv43_to_OIKv43);
    let a1_O43 = (s__71 * OKv43);
    let a2_O43 = ((C3Kv43_to_OKv43 * C3Kv43) + (OIKv43_to_OKv43 * OIKv43));
    let s__72 = (CI0Kv43_to_C0Kv43 + CI0Kv43_to_CI1Kv43);
    let a1_I043 = (s__72 * CI0Kv43);
    let a2_I043 = ((C0Kv43_to_CI0Kv43 * C0Kv43) + (CI1Kv43_to_CI0Kv43 * CI1Kv43));
    let s__73 = (CI1Kv43_to_CI2Kv43 + CI1Kv43_to_C1Kv43 + CI1Kv43_to_CI0Kv43);
    let a1_I143 = (s__73 * CI1Kv43);
    let a2_I143 =
        ((CI2Kv43_to_CI1Kv43 * CI2Kv43) + (C1Kv43_to_CI1Kv43 * C1Kv43) + (CI0Kv43_to_CI1Kv43 * CI0Kv43));
    let s__74 = (CI2Kv43_to_CI3Kv43 + CI2Kv43_to_C2Kv43 + CI2Kv43_to_CI1Kv43);
    let a1_I243 = (s__74 * CI2Kv43);
    let a2_I243 =
        ((CI3Kv43_to_CI2Kv43 * CI3Kv43) + (C2Kv43_to_CI2Kv43 * C2Kv43) + (CI1Kv43_to_CI2Kv43 * CI1Kv43));
    let s__75 = (CI3Kv43_to_OIKv43 + CI3Kv43_to_C3Kv43 + CI3Kv43_to_CI2Kv43);
    let a1_I343 = (s__75 * CI3Kv43);
    let a2_I343 =
        ((OIKv43_to_CI3Kv43 * OIKv43) + (C3Kv43_to_CI3Kv43 * C3Kv43) + (CI2Kv43_to_CI3Kv43 * CI2Kv43));
    let s__76 = (OIKv43_to_OKv43 + OIKv43_to_CI3Kv43);
    let a1_OI43 = (s__76 * OIKv43);
    let a2_OI43 = ((OKv43_to_OIKv43 * OKv43) + (CI3Kv43_to_OIKv43 * CI3Kv43));
    let alpha_act14 = (c.alphaa0Kv14 * exp((c.aaKv14 * V)));
    let beta_act14 = (c.betaa0Kv14 * exp((c.k__16 * V)));
    let C0Kv14_to_C1Kv14 = (n(4.0) * alpha_act14);
    let C1Kv14_to_C2Kv14 = (n(3.0) * alpha_act14);
    let C2Kv14_to_C3Kv14 = (n(2.0) * alpha_act14);
    let C3Kv14_to_OKv14 = alpha_act14;
    let CI0Kv14_to_CI1Kv14 = (n(4.0) * c.b1Kv14 * alpha_act14);
    let CI1Kv14_to_CI2Kv14 = ((n(3.0) * c.b2Kv14 * alpha_act14) / c.b1Kv14);
    let CI2Kv14_to_CI3Kv14 = ((n(2.0) * c.b3Kv14 * alpha_act14) / c.b2Kv14);
    let CI3Kv14_to_OIKv14 = ((c.b4Kv14 * alpha_act14) / c.b3Kv14);
    let C1Kv14_to_C0Kv14 = beta_act14;
    let C2Kv14_to_C1Kv14 = (n(2.0) * beta_act14);
    let C3Kv14_to_C2Kv14 = (n(3.0) * beta_act14);
    let OKv14_to_C3Kv14 = (n(4.0) * beta_act14);
    let CI1Kv14_to_CI0Kv14 = (beta_act14 / c.f1Kv14);
    let CI2Kv14_to_CI1Kv14 = ((n(2.0) * c.f1Kv14 * beta_act14) / c.f2Kv14);
    let CI3Kv14_to_CI2Kv14 = ((n(3.0) * c.f2Kv14 * beta_act14) / c.f3Kv14);
    let OIKv14_to_CI3Kv14 = ((n(4.0) * c.f3Kv14 * beta_act14) / c.f4Kv14);
    let s__77 = (C0Kv14_to_C1Kv14 + c.C0Kv14_to_CI0Kv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_C0 = (s__77 * C0Kv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_C0 =
        ((C1Kv14_to_C0Kv14 * C1Kv14) + (c.CI0Kv14_to_C0Kv14 * CI0Kv14));
    let s__78 = (C1Kv14_to_C2Kv14 + C1Kv14_to_C0Kv14 + c.C1Kv14_to_CI1Kv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_C1 = (s__78 * C1Kv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_C1 =
        ((C2Kv14_to_C1Kv14 * C2Kv14) + (c.CI1Kv14_to_C1Kv14 * CI1Kv14) + (C0Kv14_to_C1Kv14 * C0Kv14));
    let s__79 = (C2Kv14_to_C3Kv14 + C2Kv14_to_C1Kv14 + c.C2Kv14_to_CI2Kv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_C2 = (s__79 * C2Kv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_C2 =
        ((C3Kv14_to_C2Kv14 * C3Kv14) + (c.CI2Kv14_to_C2Kv14 * CI2Kv14) + (C1Kv14_to_C2Kv14 * C1Kv14));
    let s__80 = (C3Kv14_to_OKv14 + C3Kv14_to_C2Kv14 + c.C3Kv14_to_CI3Kv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_C3 = (s__80 * C3Kv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_C3 =
        ((OKv14_to_C3Kv14 * OKv14) + (c.CI3Kv14_to_C3Kv14 * CI3Kv14) + (C2Kv14_to_C3Kv14 * C2Kv14));
    let s__81 = (OKv14_to_C3Kv14 + c.OKv14_to_OIKv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_O = (s__81 * OKv14);
    let COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_O =
        ((C3Kv14_to_OKv14 * C3Kv14) + (c.OIKv14_to_OKv14 * OIKv14));
    let s__82 = (c.CI0Kv14_to_C0Kv14 + CI0Kv14_to_CI1Kv14);
    let a1_CI0 = (s__82 * CI0Kv14);
    let a2_CI0 = ((c.C0Kv14_to_CI0Kv14 * C0Kv14) + (CI1Kv14_to_CI0Kv14 * CI1Kv14));
    let s__83 = (CI1Kv14_to_CI2Kv14 + c.CI1Kv14_to_C1Kv14 + CI1Kv14_to_CI0Kv14);
    let a1_CI1 = (s__83 * CI1Kv14);
    let a2_CI1 =
        ((CI2Kv14_to_CI1Kv14 * CI2Kv14) + (c.C1Kv14_to_CI1Kv14 * C1Kv14) + (CI0Kv14_to_CI1Kv14 * CI0Kv14));
    let s__84 = (CI2Kv14_to_CI3Kv14 + c.CI2Kv14_to_C2Kv14 + CI2Kv14_to_CI1Kv14);
    let a1_CI2 = (s__84 * CI2Kv14);
    let a2_CI2 =
        ((CI3Kv14_to_CI2Kv14 * CI3Kv14) + (c.C2Kv14_to_CI2Kv14 * C2Kv14) + (CI1Kv14_to_CI2Kv14 * CI1Kv14));
    let s__85 = (CI3Kv14_to_OIKv14 + c.CI3Kv14_to_C3Kv14 + CI3Kv14_to_CI2Kv14);
    let a1_CI3 = (s__85 * CI3Kv14);
    let a2_CI3 =
        ((OIKv14_to_CI3Kv14 * OIKv14) + (c.C3Kv14_to_CI3Kv14 * C3Kv14) + (CI2Kv14_to_CI3Kv14 * CI2Kv14));
    let s__86 = (c.OIKv14_to_OKv14 + OIKv14_to_CI3Kv14);
    let a1_OI = (s__86 * OIKv14);
    let a2_OI = ((c.OKv14_to_OIKv14 * OKv14) + (CI3Kv14_to_OIKv14 * CI3Kv14));
    let alpha1 =
        (c.Temp_Scale * c.KToverH * exp((c.k__17 + c.k__18 + ((n(0.286374268596235) * V) / c.RTNaF))));
    let beta1 = (c.Temp_Scale * c.KToverH * exp((c.k__19 + c.k__20 + ((c.k__21 * V) / c.RTNaF))));
    let gamma1 =
        (c.Temp_Scale * c.KToverH * exp((c.k__22 + c.k__23 + ((n(2.78084918596045) * V) / c.RTNaF))));
    let Delta1 = (c.Temp_Scale * c.KToverH * exp((c.k__24 + c.k__25 + ((c.k__26 * V) / c.RTNaF))));
    let On = (c.Temp_Scale * c.KToverH * exp((c.k__27 + c.k__28 + ((n(0.288816042743232) * V) / c.RTNaF))));
    let Of = (c.Temp_Scale * c.KToverH * exp((c.k__29 + c.k__30 + ((n(0.0684861993100685) * V) / c.RTNaF))));
    let GammaGamma =
        (c.Temp_Scale * c.KToverH * exp((c.k__31 + c.k__32 + ((n(0.764126011745707) * V) / c.RTNaF))));
    let DeltaDelta = (c.Temp_Scale * c.KToverH * exp((c.k__33 + c.k__34 + ((c.k__35 * V) / c.RTNaF))));
    let rho = (c.Temp_Scale * c.KToverH * exp((c.k__36 + c.k__37 + ((n(2.1360043702126) * V) / c.RTNaF))));
    let mu = (c.Temp_Scale * c.KToverH * exp((c.k__38 + c.k__39 + ((c.k__40 * V) / c.RTNaF))));
    let k12 = (n(4.0) * alpha1);
    let k23 = (n(3.0) * alpha1);
    let k34 = (n(2.0) * alpha1);
    let k45 = alpha1;
    let k56 = gamma1;
    let k89 = (k12 * c.parameter_a);
    let k910 = (k23 * c.parameter_a);
    let k1011 = (k34 * c.parameter_a);
    let k1112 = (k45 * c.parameter_a);
    let k1213 = GammaGamma;
    let k57 = rho;
    let k21 = beta1;
    let k32 = (n(2.0) * beta1);
    let k43 = (n(3.0) * beta1);
    let k54 = (n(4.0) * beta1);
    let k65 = Delta1;
    let k98 = (k21 / c.parameter_a);
    let k109 = (k32 / c.parameter_a);
    let k1110 = (k43 / c.parameter_a);
    let k1211 = (k54 / c.parameter_a);
    let k1312 = DeltaDelta;
    let k75 = mu;
    let k136 = Of;
    let k613 = On;
    let C1H_to_C2H = (c.T_Const_HERG * c.A0_HERG * exp((c.B0_HERG * V)));
    let C2H_to_C1H = (c.T_Const_HERG * c.A1_HERG * exp((c.B1_HERG * V)));
    let C3H_to_OH = (c.T_Const_HERG * c.A2_HERG * exp((c.B2_HERG * V)));
    let OH_to_C3H = (c.T_Const_HERG * c.A3_HERG * exp((c.B3_HERG * V)));
    let OH_to_IH = (c.T_Const_HERG * c.A4_HERG * exp((c.B4_HERG * V)));
    let IH_to_OH = (c.T_Const_HERG * c.A5_HERG * exp((c.B5_HERG * V)));
    let C3H_to_IH = (c.T_Const_HERG * c.A6_HERG * exp((c.B6_HERG * V)));
    let IH_to_C3H = ((OH_to_C3H * IH_to_OH * C3H_to_IH) / (C3H_to_OH * OH_to_IH));
    let s__87 = (C1H_to_C2H * C1Herg);
    let IKr_a1_C2 = (s__87 + (c.C3H_to_C2H * C3Herg));
    let s__88 = (C2H_to_C1H + c.C2H_to_C3H);
    let IKr_a2_C2 = (s__88 * C2Herg);
    let IKr_a1_C3 = ((c.C2H_to_C3H * C2Herg) + (OH_to_C3H * OHerg) + (IH_to_C3H * IHerg));
    let s__89 = (C3H_to_IH + C3H_to_OH + c.C3H_to_C2H);
    let IKr_a2_C3 = (s__89 * C3Herg);
    let IKr_a1_O = ((C3H_to_OH * C3Herg) + (IH_to_OH * IHerg));
    let s__90 = (OH_to_C3H + OH_to_IH);
    let IKr_a2_O = (s__90 * OHerg);
    let a1_I = ((C3H_to_IH * C3Herg) + (OH_to_IH * OHerg));
    let s__91 = (IH_to_C3H + IH_to_OH);
    let a2_I = (s__91 * IHerg);
    let O1ks_O2ks = (n(0.00767254363063) * exp((n(0.08662945914655) * V)));
    let O1ks_C1ks = (n(0.00700806628929) * exp((c.k__41 * V)));
    let O2ks_O1ks = (n(0.00379737998368) * exp((c.k__42 * V)));
    let C1ks_C0ks = (n(0.2162557589585) * exp((c.k__43 * V)));
    let Nai__dt = (c.k__44
        * (INa + INab + (n(3.0) * (INaCa + INaK)) + IKv14_Na)
        * c.COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1);
    let Ki__dt = (c.k__44
        * (((IKr + IKs + IK1 + ICaK + c.i_Stim) - (n(2.0) * INaK)) + IKv43 + IKv14_K)
        * c.COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1);
    let s__92 = (Jxfer - Jup);
    let s__93 = (s__92 - Jtrpn);
    let s__94 = (n(2.0) * INaCa);
    let s__95 = (ICab - s__94);
    let s__96 = (s__95 + IpCa);
    let s__97 = (s__96 * n(0.5) * c.COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1);
    let s__98 = (s__93 - s__97);
    let Cai__dt = (beta_i * s__98);
    let s__99 = (Jrel * c.VJSR);
    let s__100 = (s__99 / c.VSS);
    let s__101 = (Jxfer * c.Vmyo);
    let s__102 = (s__101 / c.VSS);
    let s__103 = (s__100 - s__102);
    let s__104 = (ICa * c.COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a2);
    let s__105 = (s__103 - s__104);
    let CaSS__dt = (beta_SS * s__105);
    let s__106 = (Jtr - Jrel);
    let CaJSR__dt = (beta_JSR * s__106);
    let CaNSR__dt = (((Jup * c.Vmyo) / c.VNSR) - ((Jtr * c.VJSR) / c.VNSR));
    let V__dt = (-i_tot);
    let LTRPNCa__dt = dLTRPNCa;
    let HTRPNCa__dt = dHTRPNCa;
    let C1_RyR__dt = dC1_RyR;
    let O2_RyR__dt = dO2_RyR;
    let C2_RyR__dt = dC2_RyR;
    let O1_RyR__dt = dO1_RyR;
    let C0__dt = (COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a2_C0
        - COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a1_C0);
    let C1__dt = (COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a2_C1
        - COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a1_C1);
    let C2__dt = (COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a2_C2
        - COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a1_C2);
    let C3__dt = (COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a2_C3
        - COMPUTE_DERIVATIVES_OF_LTYPE_CHANNEL_STATES_a1_C3);
    let C4__dt = (a2_C4 - a1_C4);
    let CCa0__dt = (a2_Ca0 - a1_Ca0);
    let CCa1__dt = (a2_Ca1 - a1_Ca1);
    let CCa2__dt = (a2_Ca2 - a1_Ca2);
    let CCa3__dt = (a2_Ca3 - a1_Ca3);
    let CCa4__dt = (a2_Ca4 - a1_Ca4);
    let Open__dt = ((c.fL * C4) - s__66);
    let yCa__dt = ((yCa_inf - yCa) / tau_yCa);
    let C0Kv43__dt = (a2_C043 - a1_C043);
    let C1Kv43__dt = (a2_C143 - a1_C143);
    let C2Kv43__dt = (a2_C243 - a1_C243);
    let C3Kv43__dt = (a2_C343 - a1_C343);
    let OKv43__dt = (a2_O43 - a1_O43);
    let CI0Kv43__dt = (a2_I043 - a1_I043);
    let CI1Kv43__dt = (a2_I143 - a1_I143);
    let CI2Kv43__dt = (a2_I243 - a1_I243);
    let CI3Kv43__dt = (a2_I343 - a1_I343);
    let OIKv43__dt = (a2_OI43 - a1_OI43);
    let C0Kv14__dt = (COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_C0
        - COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_C0);
    let C1Kv14__dt = (COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_C1
        - COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_C1);
    let C2Kv14__dt = (COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_C2
        - COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_C2);
    let C3Kv14__dt = (COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_C3
        - COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_C3);
    let OKv14__dt =
        (COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a2_O - COMPUTE_DERIVATIVES_OF_Kv1_4_CHANNEL_STATES_a1_O);
    let CI0Kv14__dt = (a2_CI0 - a1_CI0);
    let CI1Kv14__dt = (a2_CI1 - a1_CI1);
    let CI2Kv14__dt = (a2_CI2 - a1_CI2);
    let CI3Kv14__dt = (a2_CI3 - a1_CI3);
    let OIKv14__dt = (a2_OI - a1_OI);
    let s__107 = (c.k18 + k12);
    let s__108 = (-s__107);
    let na1__dt = ((s__108 * na1) + (k21 * na2) + (c.k81 * na8));
    let s__109 = (k21 + k23 + c.k29);
    let na2__dt = (((k12 * na1) - (s__109 * na2)) + (k32 * na3) + (c.k92 * na9));
    let s__110 = (k32 + k34 + c.k310);
    let na3__dt = (((k23 * na2) - (s__110 * na3)) + (k43 * na4) + (c.k103 * na10));
    let s__111 = (k43 + k45 + c.k411);
    let na4__dt = (((k34 * na3) - (s__111 * na4)) + (k54 * na5) + (c.k114 * na11));
    let s__112 = (k54 + k56 + k57 + c.k512);
    let na5__dt = (((k45 * na4) - (s__112 * na5)) + (k65 * na6) + (k75 * na7) + (c.k125 * na12));
    let s__113 = (k65 + c.k67 + k613);
    let na6__dt = (((k56 * na5) - (s__113 * na6)) + (c.k76 * na7) + (k136 * na13));
    let s__114 = (k75 + c.k76);
    let na7__dt = (((k57 * na5) + (c.k67 * na6)) - (s__114 * na7));
    let s__115 = (c.k81 + k89);
    let na8__dt = (((c.k18 * na1) - (s__115 * na8)) + (k98 * na9));
    let s__116 = (k98 + c.k92 + k910);
    let na9__dt = ((((c.k29 * na2) + (k89 * na8)) - (s__116 * na9)) + (k109 * na10));
    let s__117 = (k1011 + c.k103 + k109);
    let na10__dt = ((((c.k310 * na3) + (k910 * na9)) - (s__117 * na10)) + (k1110 * na11));
    let s__118 = (k1110 + c.k114 + k1112);
    let na11__dt = ((((c.k411 * na4) + (k1011 * na10)) - (s__118 * na11)) + (k1211 * na12));
    let s__119 = (k1211 + c.k125 + k1213);
    let na12__dt = ((((c.k512 * na5) + (k1112 * na11)) - (s__119 * na12)) + (k1312 * na13));
    let s__120 = (k1312 + k136);
    let na13__dt = (((k613 * na6) + (k1213 * na12)) - (s__120 * na13));
    let C1Herg__dt = ((C2H_to_C1H * C2Herg) - s__87);
    let C2Herg__dt = (IKr_a1_C2 - IKr_a2_C2);
    let C3Herg__dt = (IKr_a1_C3 - IKr_a2_C3);
    let OHerg__dt = (IKr_a1_O - IKr_a2_O);
    let IHerg__dt = (a1_I - a2_I);
    let C0ks__dt = ((c.k__45 * C0ks) + (C1ks_C0ks * C1ks));
    let s__121 = (C1ks_C0ks + c.C1ks_O1ks);
    let C1ks__dt = (((c.C0ks_C1ks * C0ks) - (s__121 * C1ks)) + (O1ks_C1ks * O1ks));
    let s__122 = (O1ks_C1ks + O1ks_O2ks);
    let s__123 = (O2ks_O1ks * O2ks);
    let O1ks__dt = (((c.C1ks_O1ks * C1ks) - (s__122 * O1ks)) + s__123);
    let O2ks__dt = ((O1ks_O2ks * O1ks) - s__123);
    let dt = c.dt;
    let s__124 = (Nai * Nai);
    let s__125 = (c.Nao / s__124);
    let s__126 = (-s__125);
    let s__127 = (s__126 / s__0);
    let s__128 = (s__127 * c.RT_over_F);
    let s__129 = (-s__128);
    let Nai__phi = exp_euler_phi(
        (((((((s__129 * c.GNa) * s__1) + (s__129 * c.GNab))
            + (((((((n(3.0) * powi(Nai, 2)) * s__15) * c.Cao) * c.kNaCa) / s__18)
                + (-((s__20 * ((n(1.5) * sqrt_t(s__19)) * (-(c.KmNai / s__124))))
                    / (COMPUTE_INaK_INaCa_ICab_IpCa_a2_K * COMPUTE_INaK_INaCa_ICab_IpCa_a2_K))))
                * n(3.0)))
            + removable(
                V,
                -0.0,
                0.03743720055088938,
                (((((s__21 * n(0.02)) * c.PKv14) * OKv14)
                    * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_VFsq_over_RT)
                    / COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a2),
                |V: T| {
                    (((((exp((V / c.RT_over_F)) * n(0.02)) * c.PKv14) * OKv14)
                        * (n(1000.0) * c.Faraday * (V / c.RT_over_F)))
                        / (exp((V / c.RT_over_F)) - n(1.0)))
                },
            ))
            * c.k__44)
            * c.COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1),
        dt,
    );
    let (Nai__next, Nai__carry_next) =
        carry_add(Nai, Nai__carry, (Nai__dt * dt) * Nai__phi, (Nai__dt * dt).mul_add(Nai__phi, Nai));
    let s__130 = (Ki * Ki);
    let s__131 = (c.Ko / s__130);
    let s__132 = (-s__131);
    let s__133 = (s__132 / s__7);
    let s__134 = (s__133 * c.RT_over_F);
    let s__135 = (-s__134);
    let Ki__phi = exp_euler_phi(
        ((((((((((s__135 * c.GKr) * c.fKo) * OHerg)
            + (((-(((-(c.COMPUTE_REVERSAL_POTENTIALS_a1
                / (COMPUTE_REVERSAL_POTENTIALS_a2 * COMPUTE_REVERSAL_POTENTIALS_a2)))
                / s__9)
                * c.RT_over_F))
                * c.GKs)
                * s__10))
            + (((((-((s__12 * (s__135 * c.k__1)) / (s__13 * s__13))) * c.GK1) * c.k__2) * s__8)
                + (((s__135 * c.GK1) * c.k__2) * K1_inf)))
            + removable(
                V,
                -0.0,
                0.03743720055088938,
                (((((s__6 * PKprime) * Open) * yCa) * COMPUTE_ICa_ICaK_VFsq_over_RT) / COMPUTE_ICa_ICaK_a2_K),
                |V: T| {
                    (((((exp((V / c.RT_over_F))
                        * (c.PK
                            / (n(1.0)
                                + ((if (removable_of(V, -0.0, 0.07487440110177876, |V: T| {
                                    ((c.PCa
                                        * n(4.0)
                                        * (n(1000.0) * c.Faraday * (V / c.RT_over_F))
                                        * ((n(0.001) * exp((n(2.0) * (V / c.RT_over_F)))) - c.k__0))
                                        / (exp((n(2.0) * (V / c.RT_over_F))) - n(1.0)))
                                }) >= n(0.0))
                                {
                                    n(0.0)
                                } else {
                                    removable_of(V, -0.0, 0.07487440110177876, |V: T| {
                                        ((c.PCa
                                            * n(4.0)
                                            * (n(1000.0) * c.Faraday * (V / c.RT_over_F))
                                            * ((n(0.001) * exp((n(2.0) * (V / c.RT_over_F)))) - c.k__0))
                                            / (exp((n(2.0) * (V / c.RT_over_F))) - n(1.0)))
                                    })
                                }) / c.ICahalf))))
                        * Open)
                        * yCa)
                        * (n(1000.0) * c.Faraday * (V / c.RT_over_F)))
                        / (exp((V / c.RT_over_F)) - n(1.0)))
                },
            ))
            + ((s__135 * c.GKv43) * OKv43))
            + removable(
                V,
                -0.0,
                0.03743720055088938,
                ((((s__21 * c.PKv14) * OKv14) * COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_VFsq_over_RT)
                    / COMPUTE_INa_IKr_IKs_Ito1_IK1_INab_IKp_a2),
                |V: T| {
                    ((((exp((V / c.RT_over_F)) * c.PKv14) * OKv14)
                        * (n(1000.0) * c.Faraday * (V / c.RT_over_F)))
                        / (exp((V / c.RT_over_F)) - n(1.0)))
                },
            ))
            * c.k__44)
            * c.COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1),
        dt,
    );
    let (Ki__next, Ki__carry_next) =
        carry_add(Ki, Ki__carry, (Ki__dt * dt) * Ki__phi, (Ki__dt * dt).mul_add(Ki__phi, Ki));
    let s__136 = pow(s__25, c.k__47);
    let s__137 = (c.Nfb * s__136);
    let s__138 = (s__137 * c.k__48);
    let s__139 = (s__31 * s__31);
    let Cai__phi = exp_euler_phi(
        (((-(((-((c.k__7 * (n(2.0) * powi(s__46, 1))) / (s__47 * s__47)))
            + (-((c.k__8 * (n(2.0) * powi(s__49, 1))) / (s__50 * s__50))))
            / (s__52 * s__52)))
            * s__98)
            + ((((c.k__46 + (-((((s__138 * c.vmaxf) * c.KSR) / s__31) + (-((s__30 * s__138) / s__139)))))
                + (-(((c.kltrpn_plus * s__33) * c.LTRPNtot) + ((c.khtrpn_plus * s__34) * c.HTRPNtot))))
                + (-((((((-((((-(c.Cao / (Cai * Cai))) / s__24) * n(0.5)) * c.RT_over_F)) * c.GCab)
                    + (-((((-(s__17 * c.k__4)) * c.kNaCa) / s__18) * n(2.0))))
                    + ((c.IpCamax / s__23) + (-(s__22 / (s__23 * s__23)))))
                    * n(0.5))
                    * c.COMPUTE_CONCENTRATION_AND_VOLTAGE_DERIVATIVES_a1)))
                * beta_i)),
        dt,
    );
    let (Cai__next, Cai__carry_next) =
        carry_add(Cai, Cai__carry, (Cai__dt * dt) * Cai__phi, (Cai__dt * dt).mul_add(Cai__phi, Cai));
    let CaSS__phi = exp_euler_phi(
        (((-(((-((c.k__7 * (n(2.0) * powi(s__35, 1))) / (s__36 * s__36)))
            + (-((c.k__8 * (n(2.0) * powi(s__38, 1))) / (s__39 * s__39))))
            / (s__41 * s__41)))
            * s__105)
            + (((((c.k__49 * s__32) * c.VJSR) / c.VSS) + c.k__50) * beta_SS)),
        dt,
    );
    let (CaSS__next, CaSS__carry_next) =
        carry_add(CaSS, CaSS__carry, (CaSS__dt * dt) * CaSS__phi, (CaSS__dt * dt).mul_add(CaSS__phi, CaSS));
    let CaJSR__phi = exp_euler_phi(
        (((-((-((c.k__9 * (n(2.0) * powi(s__42, 1))) / (s__43 * s__43))) / (s__45 * s__45))) * s__106)
            + ((c.k__51 + (-(c.v1 * s__32))) * beta_JSR)),
        dt,
    );
    let (CaJSR__next, CaJSR__carry_next) = carry_add(
        CaJSR,
        CaJSR__carry,
        (CaJSR__dt * dt) * CaJSR__phi,
        (CaJSR__dt * dt).mul_add(CaJSR__phi, CaJSR),
    );
    let s__140 = pow(s__26, c.k__52);
    let s__141 = (c.Nrb * s__140);
    let s__142 = (s__141 * c.k__53);
    let CaNSR__phi = exp_euler_phi(
        (((((((-(s__142 * c.vmaxr)) * c.KSR) / s__31) + (-((s__30 * s__142) / s__139))) * c.Vmyo) / c.VNSR)
            + c.k__54),
        dt,
    );
    let (CaNSR__next, CaNSR__carry_next) = carry_add(
        CaNSR,
        CaNSR__carry,
        (CaNSR__dt * dt) * CaNSR__phi,
        (CaNSR__dt * dt).mul_add(CaNSR__phi, CaNSR),
    );
    // Markov block 0: two-stage SDIRK, (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1.
    let b0_gdt = n(0.2928932188134524) * dt;
    let s__143 = (c.k__10 * s__54);
    let b0_0_0 = (-b0_gdt).mul_add(s__143, n(1.0));
    let b0_0_3 = -(b0_gdt * c.kaminus);
    let b0_f0 = dt * C1_RyR__dt;
    let b0_r0 = b0_f0;
    let b0_1_1 = (-b0_gdt).mul_add(c.k__57, n(1.0));
    let s__144 = (c.kbplus * s__55);
    let b0_1_3 = -(b0_gdt * s__144);
    let b0_f1 = dt * O2_RyR__dt;
    let b0_r1 = b0_f1;
    let b0_2_2 = (-b0_gdt).mul_add(c.k__58, n(1.0));
    let b0_2_3 = -(b0_gdt * c.kcplus);
    let b0_f2 = dt * C2_RyR__dt;
    let b0_r2 = b0_f2;
    let b0_3_0 = -(b0_gdt * (-s__143));
    let b0_3_1 = -(b0_gdt * c.k__59);
    let b0_3_2 = -(b0_gdt * c.k__60);
    let b0_3_3 = (-b0_gdt).mul_add((-((c.kaminus + s__144) + c.kcplus)), n(1.0));
    let b0_f3 = dt * O1_RyR__dt;
    let b0_r3 = b0_f3;
    let b0_l3_0 = b0_3_0 / b0_0_0;
    let b0_3_3 = (-b0_l3_0).mul_add(b0_0_3, b0_3_3);
    let b0_r3 = (-b0_l3_0).mul_add(b0_r0, b0_r3);
    let b0_l3_1 = b0_3_1 / b0_1_1;
    let b0_3_3 = (-b0_l3_1).mul_add(b0_1_3, b0_3_3);
    let b0_r3 = (-b0_l3_1).mul_add(b0_r1, b0_r3);
    let b0_l3_2 = b0_3_2 / b0_2_2;
    let b0_3_3 = (-b0_l3_2).mul_add(b0_2_3, b0_3_3);
    let b0_r3 = (-b0_l3_2).mul_add(b0_r2, b0_r3);
    let b0_k3 = b0_r3 / b0_3_3;
    let b0_k2 = (-b0_2_3).mul_add(b0_k3, b0_r2) / b0_2_2;
    let b0_k1 = (-b0_1_3).mul_add(b0_k3, b0_r1) / b0_1_1;
    let b0_k0 = (-b0_0_3).mul_add(b0_k3, b0_r0) / b0_0_0;
    let b0_r0 = n(2.414213562373095).mul_add(b0_k0, n(-1.4142135623730951) * b0_f0);
    let b0_r1 = n(2.414213562373095).mul_add(b0_k1, n(-1.4142135623730951) * b0_f1);
    let b0_r2 = n(2.414213562373095).mul_add(b0_k2, n(-1.4142135623730951) * b0_f2);
    let b0_r3 = n(2.414213562373095).mul_add(b0_k3, n(-1.4142135623730951) * b0_f3);
    let b0_r3 = (-b0_l3_0).mul_add(b0_r0, b0_r3);
    let b0_r3 = (-b0_l3_1).mul_add(b0_r1, b0_r3);
    let b0_r3 = (-b0_l3_2).mul_add(b0_r2, b0_r3);
    let b0_q3 = b0_r3 / b0_3_3;
    let b0_q2 = (-b0_2_3).mul_add(b0_q3, b0_r2) / b0_2_2;
    let b0_q1 = (-b0_1_3).mul_add(b0_q3, b0_r1) / b0_1_1;
    let b0_q0 = (-b0_0_3).mul_add(b0_q3, b0_r0) / b0_0_0;
    let C1_RyR__next = C1_RyR + n(0.7071067811865476).mul_add(b0_k0, n(0.2928932188134524) * b0_q0);
    let O2_RyR__next = O2_RyR + n(0.7071067811865476).mul_add(b0_k1, n(0.2928932188134524) * b0_q1);
    let C2_RyR__next = C2_RyR + n(0.7071067811865476).mul_add(b0_k2, n(0.2928932188134524) * b0_q2);
    let O1_RyR__next = O1_RyR + n(0.7071067811865476).mul_add(b0_k3, n(0.2928932188134524) * b0_q3);
    let C2_RyR__next =
        conserved(C2_RyR__next, n(1.00000000090262) - (C1_RyR__next + O2_RyR__next + O1_RyR__next));
    // Markov block 1: two-stage SDIRK, (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1.
    let b1_gdt = n(0.2928932188134524) * dt;
    let b1_0_0 = (-b1_gdt).mul_add((-s__61), n(1.0));
    let b1_0_1 = -(b1_gdt * C1_to_C0);
    let b1_0_5 = -(b1_gdt * c.CCa0_to_C0);
    let b1_f0 = dt * C0__dt;
    let b1_r0 = b1_f0;
    let b1_1_0 = -(b1_gdt * C0_to_C1);
    let b1_1_1 = (-b1_gdt).mul_add((-s__62), n(1.0));
    let b1_1_2 = -(b1_gdt * C2_to_C1);
    let b1_1_6 = -(b1_gdt * c.CCa1_to_C1);
    let b1_f1 = dt * C1__dt;
    let b1_r1 = b1_f1;
    let b1_2_1 = -(b1_gdt * C1_to_C2);
    let b1_2_2 = (-b1_gdt).mul_add((-s__63), n(1.0));
    let b1_2_3 = -(b1_gdt * C3_to_C2);
    let b1_2_7 = -(b1_gdt * c.CCa2_to_C2);
    let b1_f2 = dt * C2__dt;
    let b1_r2 = b1_f2;
    let b1_3_2 = -(b1_gdt * C2_to_C3);
    let b1_3_3 = (-b1_gdt).mul_add((-s__64), n(1.0));
    let b1_3_4 = -(b1_gdt * C4_to_C3);
    let b1_3_8 = -(b1_gdt * c.CCa3_to_C3);
    let b1_f3 = dt * C3__dt;
    let b1_r3 = b1_f3;
    let b1_4_3 = -(b1_gdt * C3_to_C4);
    let b1_4_4 = (-b1_gdt).mul_add((-s__65), n(1.0));
    let b1_4_9 = -(b1_gdt * c.CCa4_to_C4);
    let b1_4_10 = -(b1_gdt * c.gL);
    let b1_f4 = dt * C4__dt;
    let b1_r4 = b1_f4;
    let b1_5_0 = -(b1_gdt * C0_to_CCa0);
    let b1_5_5 = (-b1_gdt).mul_add((-s__56), n(1.0));
    let b1_5_6 = -(b1_gdt * CCa1_to_CCa0);
    let b1_f5 = dt * CCa0__dt;
    let b1_r5 = b1_f5;
    let b1_6_1 = -(b1_gdt * C1_to_CCa1);
    let b1_6_5 = -(b1_gdt * CCa0_to_CCa1);
    let b1_6_6 = (-b1_gdt).mul_add((-s__57), n(1.0));
    let b1_6_7 = -(b1_gdt * CCa2_to_CCa1);
    let b1_f6 = dt * CCa1__dt;
    let b1_r6 = b1_f6;
    let b1_7_2 = -(b1_gdt * C2_to_CCa2);
    let b1_7_6 = -(b1_gdt * CCa1_to_CCa2);
    let b1_7_7 = (-b1_gdt).mul_add((-s__58), n(1.0));
    let b1_7_8 = -(b1_gdt * CCa3_to_CCa2);
    let b1_f7 = dt * CCa2__dt;
    let b1_r7 = b1_f7;
    let b1_8_3 = -(b1_gdt * C3_to_CCa3);
    let b1_8_7 = -(b1_gdt * CCa2_to_CCa3);
    let b1_8_8 = (-b1_gdt).mul_add((-s__59), n(1.0));
    let b1_8_9 = -(b1_gdt * CCa4_to_CCa3);
    let b1_f8 = dt * CCa3__dt;
    let b1_r8 = b1_f8;
    let b1_9_4 = -(b1_gdt * C4_to_CCa4);
    let b1_9_8 = -(b1_gdt * CCa3_to_CCa4);
    let b1_9_9 = (-b1_gdt).mul_add((-s__60), n(1.0));
    let b1_f9 = dt * CCa4__dt;
    let b1_r9 = b1_f9;
    let b1_10_4 = -(b1_gdt * c.fL);
    let b1_10_10 = (-b1_gdt).mul_add(c.k__61, n(1.0));
    let b1_f10 = dt * Open__dt;
    let b1_r10 = b1_f10;
    let b1_l1_0 = b1_1_0 / b1_0_0;
    let b1_1_1 = (-b1_l1_0).mul_add(b1_0_1, b1_1_1);
    let b1_1_5 = -(b1_l1_0 * b1_0_5);
    let b1_r1 = (-b1_l1_0).mul_add(b1_r0, b1_r1);
    let b1_l5_0 = b1_5_0 / b1_0_0;
    let b1_5_1 = -(b1_l5_0 * b1_0_1);
    let b1_5_5 = (-b1_l5_0).mul_add(b1_0_5, b1_5_5);
    let b1_r5 = (-b1_l5_0).mul_add(b1_r0, b1_r5);
    let b1_l2_1 = b1_2_1 / b1_1_1;
    let b1_2_2 = (-b1_l2_1).mul_add(b1_1_2, b1_2_2);
    let b1_2_5 = -(b1_l2_1 * b1_1_5);
    let b1_2_6 = -(b1_l2_1 * b1_1_6);
    let b1_r2 = (-b1_l2_1).mul_add(b1_r1, b1_r2);
    let b1_l5_1 = b1_5_1 / b1_1_1;
    let b1_5_2 = -(b1_l5_1 * b1_1_2);
    let b1_5_5 = (-b1_l5_1).mul_add(b1_1_5, b1_5_5);
    let b1_5_6 = (-b1_l5_1).mul_add(b1_1_6, b1_5_6);
    let b1_r5 = (-b1_l5_1).mul_add(b1_r1, b1_r5);
    let b1_l6_1 = b1_6_1 / b1_1_1;
    let b1_6_2 = -(b1_l6_1 * b1_1_2);
    let b1_6_5 = (-b1_l6_1).mul_add(b1_1_5, b1_6_5);
    let b1_6_6 = (-b1_l6_1).mul_add(b1_1_6, b1_6_6);
    let b1_r6 = (-b1_l6_1).mul_add(b1_r1, b1_r6);
    let b1_l3_2 = b1_3_2 / b1_2_2;
    let b1_3_3 = (-b1_l3_2).mul_add(b1_2_3, b1_3_3);
    let b1_3_5 = -(b1_l3_2 * b1_2_5);
    let b1_3_6 = -(b1_l3_2 * b1_2_6);
    let b1_3_7 = -(b1_l3_2 * b1_2_7);
    let b1_r3 = (-b1_l3_2).mul_add(b1_r2, b1_r3);
    let b1_l5_2 = b1_5_2 / b1_2_2;
    let b1_5_3 = -(b1_l5_2 * b1_2_3);
    let b1_5_5 = (-b1_l5_2).mul_add(b1_2_5, b1_5_5);
    let b1_5_6 = (-b1_l5_2).mul_add(b1_2_6, b1_5_6);
    let b1_5_7 = -(b1_l5_2 * b1_2_7);
    let b1_r5 = (-b1_l5_2).mul_add(b1_r2, b1_r5);
    let b1_l6_2 = b1_6_2 / b1_2_2;
    let b1_6_3 = -(b1_l6_2 * b1_2_3);
    let b1_6_5 = (-b1_l6_2).mul_add(b1_2_5, b1_6_5);
    let b1_6_6 = (-b1_l6_2).mul_add(b1_2_6, b1_6_6);
    let b1_6_7 = (-b1_l6_2).mul_add(b1_2_7, b1_6_7);
    let b1_r6 = (-b1_l6_2).mul_add(b1_r2, b1_r6);
    let b1_l7_2 = b1_7_2 / b1_2_2;
    let b1_7_3 = -(b1_l7_2 * b1_2_3);
    let b1_7_5 = -(b1_l7_2 * b1_2_5);
    let b1_7_6 = (-b1_l7_2).mul_add(b1_2_6, b1_7_6);
    let b1_7_7 = (-b1_l7_2).mul_add(b1_2_7, b1_7_7);
    let b1_r7 = (-b1_l7_2).mul_add(b1_r2, b1_r7);
    let b1_l4_3 = b1_4_3 / b1_3_3;
    let b1_4_4 = (-b1_l4_3).mul_add(b1_3_4, b1_4_4);
    let b1_4_5 = -(b1_l4_3 * b1_3_5);
    let b1_4_6 = -(b1_l4_3 * b1_3_6);
    let b1_4_7 = -(b1_l4_3 * b1_3_7);
    let b1_4_8 = -(b1_l4_3 * b1_3_8);
    let b1_r4 = (-b1_l4_3).mul_add(b1_r3, b1_r4);
    let b1_l5_3 = b1_5_3 / b1_3_3;
    let b1_5_4 = -(b1_l5_3 * b1_3_4);
    let b1_5_5 = (-b1_l5_3).mul_add(b1_3_5, b1_5_5);
    let b1_5_6 = (-b1_l5_3).mul_add(b1_3_6, b1_5_6);
    let b1_5_7 = (-b1_l5_3).mul_add(b1_3_7, b1_5_7);
    let b1_5_8 = -(b1_l5_3 * b1_3_8);
    let b1_r5 = (-b1_l5_3).mul_add(b1_r3, b1_r5);
    let b1_l6_3 = b1_6_3 / b1_3_3;
    let b1_6_4 = -(b1_l6_3 * b1_3_4);
    let b1_6_5 = (-b1_l6_3).mul_add(b1_3_5, b1_6_5);
    let b1_6_6 = (-b1_l6_3).mul_add(b1_3_6, b1_6_6);
    let b1_6_7 = (-b1_l6_3).mul_add(b1_3_7, b1_6_7);
    let b1_6_8 = -(b1_l6_3 * b1_3_8);
    let b1_r6 = (-b1_l6_3).mul_add(b1_r3, b1_r6);
    let b1_l7_3 = b1_7_3 / b1_3_3;
    let b1_7_4 = -(b1_l7_3 * b1_3_4);
    let b1_7_5 = (-b1_l7_3).mul_add(b1_3_5, b1_7_5);
    let b1_7_6 = (-b1_l7_3).mul_add(b1_3_6, b1_7_6);
    let b1_7_7 = (-b1_l7_3).mul_add(b1_3_7, b1_7_7);
    let b1_7_8 = (-b1_l7_3).mul_add(b1_3_8, b1_7_8);
    let b1_r7 = (-b1_l7_3).mul_add(b1_r3, b1_r7);
    let b1_l8_3 = b1_8_3 / b1_3_3;
    let b1_8_4 = -(b1_l8_3 * b1_3_4);
    let b1_8_5 = -(b1_l8_3 * b1_3_5);
    let b1_8_6 = -(b1_l8_3 * b1_3_6);
    let b1_8_7 = (-b1_l8_3).mul_add(b1_3_7, b1_8_7);
    let b1_8_8 = (-b1_l8_3).mul_add(b1_3_8, b1_8_8);
    let b1_r8 = (-b1_l8_3).mul_add(b1_r3, b1_r8);
    let b1_l5_4 = b1_5_4 / b1_4_4;
    let b1_5_5 = (-b1_l5_4).mul_add(b1_4_5, b1_5_5);
    let b1_5_6 = (-b1_l5_4).mul_add(b1_4_6, b1_5_6);
    let b1_5_7 = (-b1_l5_4).mul_add(b1_4_7, b1_5_7);
    let b1_5_8 = (-b1_l5_4).mul_add(b1_4_8, b1_5_8);
    let b1_5_9 = -(b1_l5_4 * b1_4_9);
    let b1_5_10 = -(b1_l5_4 * b1_4_10);
    let b1_r5 = (-b1_l5_4).mul_add(b1_r4, b1_r5);
    let b1_l6_4 = b1_6_4 / b1_4_4;
    let b1_6_5 = (-b1_l6_4).mul_add(b1_4_5, b1_6_5);
    let b1_6_6 = (-b1_l6_4).mul_add(b1_4_6, b1_6_6);
    let b1_6_7 = (-b1_l6_4).mul_add(b1_4_7, b1_6_7);
    let b1_6_8 = (-b1_l6_4).mul_add(b1_4_8, b1_6_8);
    let b1_6_9 = -(b1_l6_4 * b1_4_9);
    let b1_6_10 = -(b1_l6_4 * b1_4_10);
    let b1_r6 = (-b1_l6_4).mul_add(b1_r4, b1_r6);
    let b1_l7_4 = b1_7_4 / b1_4_4;
    let b1_7_5 = (-b1_l7_4).mul_add(b1_4_5, b1_7_5);
    let b1_7_6 = (-b1_l7_4).mul_add(b1_4_6, b1_7_6);
    let b1_7_7 = (-b1_l7_4).mul_add(b1_4_7, b1_7_7);
    let b1_7_8 = (-b1_l7_4).mul_add(b1_4_8, b1_7_8);
    let b1_7_9 = -(b1_l7_4 * b1_4_9);
    let b1_7_10 = -(b1_l7_4 * b1_4_10);
    let b1_r7 = (-b1_l7_4).mul_add(b1_r4, b1_r7);
    let b1_l8_4 = b1_8_4 / b1_4_4;
    let b1_8_5 = (-b1_l8_4).mul_add(b1_4_5, b1_8_5);
    let b1_8_6 = (-b1_l8_4).mul_add(b1_4_6, b1_8_6);
    let b1_8_7 = (-b1_l8_4).mul_add(b1_4_7, b1_8_7);
    let b1_8_8 = (-b1_l8_4).mul_add(b1_4_8, b1_8_8);
    let b1_8_9 = (-b1_l8_4).mul_add(b1_4_9, b1_8_9);
    let b1_8_10 = -(b1_l8_4 * b1_4_10);
    let b1_r8 = (-b1_l8_4).mul_add(b1_r4, b1_r8);
    let b1_l9_4 = b1_9_4 / b1_4_4;
    let b1_9_5 = -(b1_l9_4 * b1_4_5);
    let b1_9_6 = -(b1_l9_4 * b1_4_6);
    let b1_9_7 = -(b1_l9_4 * b1_4_7);
    let b1_9_8 = (-b1_l9_4).mul_add(b1_4_8, b1_9_8);
    let b1_9_9 = (-b1_l9_4).mul_add(b1_4_9, b1_9_9);
    let b1_9_10 = -(b1_l9_4 * b1_4_10);
    let b1_r9 = (-b1_l9_4).mul_add(b1_r4, b1_r9);
    let b1_l10_4 = b1_10_4 / b1_4_4;
    let b1_10_5 = -(b1_l10_4 * b1_4_5);
    let b1_10_6 = -(b1_l10_4 * b1_4_6);
    let b1_10_7 = -(b1_l10_4 * b1_4_7);
    let b1_10_8 = -(b1_l10_4 * b1_4_8);
    let b1_10_9 = -(b1_l10_4 * b1_4_9);
    let b1_10_10 = (-b1_l10_4).mul_add(b1_4_10, b1_10_10);
    let b1_r10 = (-b1_l10_4).mul_add(b1_r4, b1_r10);
    let b1_l6_5 = b1_6_5 / b1_5_5;
    let b1_6_6 = (-b1_l6_5).mul_add(b1_5_6, b1_6_6);
    let b1_6_7 = (-b1_l6_5).mul_add(b1_5_7, b1_6_7);
    let b1_6_8 = (-b1_l6_5).mul_add(b1_5_8, b1_6_8);
    let b1_6_9 = (-b1_l6_5).mul_add(b1_5_9, b1_6_9);
    let b1_6_10 = (-b1_l6_5).mul_add(b1_5_10, b1_6_10);
    let b1_r6 = (-b1_l6_5).mul_add(b1_r5, b1_r6);
    let b1_l7_5 = b1_7_5 / b1_5_5;
    let b1_7_6 = (-b1_l7_5).mul_add(b1_5_6, b1_7_6);
    let b1_7_7 = (-b1_l7_5).mul_add(b1_5_7, b1_7_7);
    let b1_7_8 = (-b1_l7_5).mul_add(b1_5_8, b1_7_8);
    let b1_7_9 = (-b1_l7_5).mul_add(b1_5_9, b1_7_9);
    let b1_7_10 = (-b1_l7_5).mul_add(b1_5_10, b1_7_10);
    let b1_r7 = (-b1_l7_5).mul_add(b1_r5, b1_r7);
    let b1_l8_5 = b1_8_5 / b1_5_5;
    let b1_8_6 = (-b1_l8_5).mul_add(b1_5_6, b1_8_6);
    let b1_8_7 = (-b1_l8_5).mul_add(b1_5_7, b1_8_7);
    let b1_8_8 = (-b1_l8_5).mul_add(b1_5_8, b1_8_8);
    let b1_8_9 = (-b1_l8_5).mul_add(b1_5_9, b1_8_9);
    let b1_8_10 = (-b1_l8_5).mul_add(b1_5_10, b1_8_10);
    let b1_r8 = (-b1_l8_5).mul_add(b1_r5, b1_r8);
    let b1_l9_5 = b1_9_5 / b1_5_5;
    let b1_9_6 = (-b1_l9_5).mul_add(b1_5_6, b1_9_6);
    let b1_9_7 = (-b1_l9_5).mul_add(b1_5_7, b1_9_7);
    let b1_9_8 = (-b1_l9_5).mul_add(b1_5_8, b1_9_8);
    let b1_9_9 = (-b1_l9_5).mul_add(b1_5_9, b1_9_9);
    let b1_9_10 = (-b1_l9_5).mul_add(b1_5_10, b1_9_10);
    let b1_r9 = (-b1_l9_5).mul_add(b1_r5, b1_r9);
    let b1_l10_5 = b1_10_5 / b1_5_5;
    let b1_10_6 = (-b1_l10_5).mul_add(b1_5_6, b1_10_6);
    let b1_10_7 = (-b1_l10_5).mul_add(b1_5_7, b1_10_7);
    let b1_10_8 = (-b1_l10_5).mul_add(b1_5_8, b1_10_8);
    let b1_10_9 = (-b1_l10_5).mul_add(b1_5_9, b1_10_9);
    let b1_10_10 = (-b1_l10_5).mul_add(b1_5_10, b1_10_10);
    let b1_r10 = (-b1_l10_5).mul_add(b1_r5, b1_r10);
    let b1_l7_6 = b1_7_6 / b1_6_6;
    let b1_7_7 = (-b1_l7_6).mul_add(b1_6_7, b1_7_7);
    let b1_7_8 = (-b1_l7_6).mul_add(b1_6_8, b1_7_8);
    let b1_7_9 = (-b1_l7_6).mul_add(b1_6_9, b1_7_9);
    let b1_7_10 = (-b1_l7_6).mul_add(b1_6_10, b1_7_10);
    let b1_r7 = (-b1_l7_6).mul_add(b1_r6, b1_r7);
    let b1_l8_6 = b1_8_6 / b1_6_6;
    let b1_8_7 = (-b1_l8_6).mul_add(b1_6_7, b1_8_7);
    let b1_8_8 = (-b1_l8_6).mul_add(b1_6_8, b1_8_8);
    let b1_8_9 = (-b1_l8_6).mul_add(b1_6_9, b1_8_9);
    let b1_8_10 = (-b1_l8_6).mul_add(b1_6_10, b1_8_10);
    let b1_r8 = (-b1_l8_6).mul_add(b1_r6, b1_r8);
    let b1_l9_6 = b1_9_6 / b1_6_6;
    let b1_9_7 = (-b1_l9_6).mul_add(b1_6_7, b1_9_7);
    let b1_9_8 = (-b1_l9_6).mul_add(b1_6_8, b1_9_8);
    let b1_9_9 = (-b1_l9_6).mul_add(b1_6_9, b1_9_9);
    let b1_9_10 = (-b1_l9_6).mul_add(b1_6_10, b1_9_10);
    let b1_r9 = (-b1_l9_6).mul_add(b1_r6, b1_r9);
    let b1_l10_6 = b1_10_6 / b1_6_6;
    let b1_10_7 = (-b1_l10_6).mul_add(b1_6_7, b1_10_7);
    let b1_10_8 = (-b1_l10_6).mul_add(b1_6_8, b1_10_8);
    let b1_10_9 = (-b1_l10_6).mul_add(b1_6_9, b1_10_9);
    let b1_10_10 = (-b1_l10_6).mul_add(b1_6_10, b1_10_10);
    let b1_r10 = (-b1_l10_6).mul_add(b1_r6, b1_r10);
    let b1_l8_7 = b1_8_7 / b1_7_7;
    let b1_8_8 = (-b1_l8_7).mul_add(b1_7_8, b1_8_8);
    let b1_8_9 = (-b1_l8_7).mul_add(b1_7_9, b1_8_9);
    let b1_8_10 = (-b1_l8_7).mul_add(b1_7_10, b1_8_10);
    let b1_r8 = (-b1_l8_7).mul_add(b1_r7, b1_r8);
    let b1_l9_7 = b1_9_7 / b1_7_7;
    let b1_9_8 = (-b1_l9_7).mul_add(b1_7_8, b1_9_8);
    let b1_9_9 = (-b1_l9_7).mul_add(b1_7_9, b1_9_9);
    let b1_9_10 = (-b1_l9_7).mul_add(b1_7_10, b1_9_10);
    let b1_r9 = (-b1_l9_7).mul_add(b1_r7, b1_r9);
    let b1_l10_7 = b1_10_7 / b1_7_7;
    let b1_10_8 = (-b1_l10_7).mul_add(b1_7_8, b1_10_8);
    let b1_10_9 = (-b1_l10_7).mul_add(b1_7_9, b1_10_9);
    let b1_10_10 = (-b1_l10_7).mul_add(b1_7_10, b1_10_10);
    let b1_r10 = (-b1_l10_7).mul_add(b1_r7, b1_r10);
    let b1_l9_8 = b1_9_8 / b1_8_8;
    let b1_9_9 = (-b1_l9_8).mul_add(b1_8_9, b1_9_9);
    let b1_9_10 = (-b1_l9_8).mul_add(b1_8_10, b1_9_10);
    let b1_r9 = (-b1_l9_8).mul_add(b1_r8, b1_r9);
    let b1_l10_8 = b1_10_8 / b1_8_8;
    let b1_10_9 = (-b1_l10_8).mul_add(b1_8_9, b1_10_9);
    let b1_10_10 = (-b1_l10_8).mul_add(b1_8_10, b1_10_10);
    let b1_r10 = (-b1_l10_8).mul_add(b1_r8, b1_r10);
    let b1_l10_9 = b1_10_9 / b1_9_9;
    let b1_10_10 = (-b1_l10_9).mul_add(b1_9_10, b1_10_10);
    let b1_r10 = (-b1_l10_9).mul_add(b1_r9, b1_r10);
    let b1_k10 = b1_r10 / b1_10_10;
    let b1_k9 = (-b1_9_10).mul_add(b1_k10, b1_r9) / b1_9_9;
    let b1_k8 = (-b1_8_10).mul_add(b1_k10, (-b1_8_9).mul_add(b1_k9, b1_r8)) / b1_8_8;
    let b1_k7 =
        (-b1_7_10).mul_add(b1_k10, (-b1_7_9).mul_add(b1_k9, (-b1_7_8).mul_add(b1_k8, b1_r7))) / b1_7_7;
    let b1_k6 = (-b1_6_10)
        .mul_add(b1_k10, (-b1_6_9).mul_add(b1_k9, (-b1_6_8).mul_add(b1_k8, (-b1_6_7).mul_add(b1_k7, b1_r6))))
        / b1_6_6;
    let b1_k5 = (-b1_5_10).mul_add(
        b1_k10,
        (-b1_5_9).mul_add(
            b1_k9,
            (-b1_5_8).mul_add(b1_k8, (-b1_5_7).mul_add(b1_k7, (-b1_5_6).mul_add(b1_k6, b1_r5))),
        ),
    ) / b1_5_5;
    let b1_k4 = (-b1_4_10).mul_add(
        b1_k10,
        (-b1_4_9).mul_add(
            b1_k9,
            (-b1_4_8).mul_add(
                b1_k8,
                (-b1_4_7).mul_add(b1_k7, (-b1_4_6).mul_add(b1_k6, (-b1_4_5).mul_add(b1_k5, b1_r4))),
            ),
        ),
    ) / b1_4_4;
    let b1_k3 = (-b1_3_8).mul_add(
        b1_k8,
        (-b1_3_7).mul_add(
            b1_k7,
            (-b1_3_6).mul_add(b1_k6, (-b1_3_5).mul_add(b1_k5, (-b1_3_4).mul_add(b1_k4, b1_r3))),
        ),
    ) / b1_3_3;
    let b1_k2 = (-b1_2_7)
        .mul_add(b1_k7, (-b1_2_6).mul_add(b1_k6, (-b1_2_5).mul_add(b1_k5, (-b1_2_3).mul_add(b1_k3, b1_r2))))
        / b1_2_2;
    let b1_k1 = (-b1_1_6).mul_add(b1_k6, (-b1_1_5).mul_add(b1_k5, (-b1_1_2).mul_add(b1_k2, b1_r1))) / b1_1_1;
    let b1_k0 = (-b1_0_5).mul_add(b1_k5, (-b1_0_1).mul_add(b1_k1, b1_r0)) / b1_0_0;
    let b1_r0 = n(2.414213562373095).mul_add(b1_k0, n(-1.4142135623730951) * b1_f0);
    let b1_r1 = n(2.414213562373095).mul_add(b1_k1, n(-1.4142135623730951) * b1_f1);
    let b1_r2 = n(2.414213562373095).mul_add(b1_k2, n(-1.4142135623730951) * b1_f2);
    let b1_r3 = n(2.414213562373095).mul_add(b1_k3, n(-1.4142135623730951) * b1_f3);
    let b1_r4 = n(2.414213562373095).mul_add(b1_k4, n(-1.4142135623730951) * b1_f4);
    let b1_r5 = n(2.414213562373095).mul_add(b1_k5, n(-1.4142135623730951) * b1_f5);
    let b1_r6 = n(2.414213562373095).mul_add(b1_k6, n(-1.4142135623730951) * b1_f6);
    let b1_r7 = n(2.414213562373095).mul_add(b1_k7, n(-1.4142135623730951) * b1_f7);
    let b1_r8 = n(2.414213562373095).mul_add(b1_k8, n(-1.4142135623730951) * b1_f8);
    let b1_r9 = n(2.414213562373095).mul_add(b1_k9, n(-1.4142135623730951) * b1_f9);
    let b1_r10 = n(2.414213562373095).mul_add(b1_k10, n(-1.4142135623730951) * b1_f10);
    let b1_r1 = (-b1_l1_0).mul_add(b1_r0, b1_r1);
    let b1_r5 = (-b1_l5_0).mul_add(b1_r0, b1_r5);
    let b1_r2 = (-b1_l2_1).mul_add(b1_r1, b1_r2);
    let b1_r5 = (-b1_l5_1).mul_add(b1_r1, b1_r5);
    let b1_r6 = (-b1_l6_1).mul_add(b1_r1, b1_r6);
    let b1_r3 = (-b1_l3_2).mul_add(b1_r2, b1_r3);
    let b1_r5 = (-b1_l5_2).mul_add(b1_r2, b1_r5);
    let b1_r6 = (-b1_l6_2).mul_add(b1_r2, b1_r6);
    let b1_r7 = (-b1_l7_2).mul_add(b1_r2, b1_r7);
    let b1_r4 = (-b1_l4_3).mul_add(b1_r3, b1_r4);
    let b1_r5 = (-b1_l5_3).mul_add(b1_r3, b1_r5);
    let b1_r6 = (-b1_l6_3).mul_add(b1_r3, b1_r6);
    let b1_r7 = (-b1_l7_3).mul_add(b1_r3, b1_r7);
    let b1_r8 = (-b1_l8_3).mul_add(b1_r3, b1_r8);
    let b1_r5 = (-b1_l5_4).mul_add(b1_r4, b1_r5);
    let b1_r6 = (-b1_l6_4).mul_add(b1_r4, b1_r6);
    let b1_r7 = (-b1_l7_4).mul_add(b1_r4, b1_r7);
    let b1_r8 = (-b1_l8_4).mul_add(b1_r4, b1_r8);
    let b1_r9 = (-b1_l9_4).mul_add(b1_r4, b1_r9);
    let b1_r10 = (-b1_l10_4).mul_add(b1_r4, b1_r10);
    let b1_r6 = (-b1_l6_5).mul_add(b1_r5, b1_r6);
    let b1_r7 = (-b1_l7_5).mul_add(b1_r5, b1_r7);
    let b1_r8 = (-b1_l8_5).mul_add(b1_r5, b1_r8);
    let b1_r9 = (-b1_l9_5).mul_add(b1_r5, b1_r9);
    let b1_r10 = (-b1_l10_5).mul_add(b1_r5, b1_r10);
    let b1_r7 = (-b1_l7_6).mul_add(b1_r6, b1_r7);
    let b1_r8 = (-b1_l8_6).mul_add(b1_r6, b1_r8);
    let b1_r9 = (-b1_l9_6).mul_add(b1_r6, b1_r9);
    let b1_r10 = (-b1_l10_6).mul_add(b1_r6, b1_r10);
    let b1_r8 = (-b1_l8_7).mul_add(b1_r7, b1_r8);
    let b1_r9 = (-b1_l9_7).mul_add(b1_r7, b1_r9);
    let b1_r10 = (-b1_l10_7).mul_add(b1_r7, b1_r10);
    let b1_r9 = (-b1_l9_8).mul_add(b1_r8, b1_r9);
    let b1_r10 = (-b1_l10_8).mul_add(b1_r8, b1_r10);
    let b1_r10 = (-b1_l10_9).mul_add(b1_r9, b1_r10);
    let b1_q10 = b1_r10 / b1_10_10;
    let b1_q9 = (-b1_9_10).mul_add(b1_q10, b1_r9) / b1_9_9;
    let b1_q8 = (-b1_8_10).mul_add(b1_q10, (-b1_8_9).mul_add(b1_q9, b1_r8)) / b1_8_8;
    let b1_q7 =
        (-b1_7_10).mul_add(b1_q10, (-b1_7_9).mul_add(b1_q9, (-b1_7_8).mul_add(b1_q8, b1_r7))) / b1_7_7;
    let b1_q6 = (-b1_6_10)
        .mul_add(b1_q10, (-b1_6_9).mul_add(b1_q9, (-b1_6_8).mul_add(b1_q8, (-b1_6_7).mul_add(b1_q7, b1_r6))))
        / b1_6_6;
    let b1_q5 = (-b1_5_10).mul_add(
        b1_q10,
        (-b1_5_9).mul_add(
            b1_q9,
            (-b1_5_8).mul_add(b1_q8, (-b1_5_7).mul_add(b1_q7, (-b1_5_6).mul_add(b1_q6, b1_r5))),
        ),
    ) / b1_5_5;
    let b1_q4 = (-b1_4_10).mul_add(
        b1_q10,
        (-b1_4_9).mul_add(
            b1_q9,
            (-b1_4_8).mul_add(
                b1_q8,
                (-b1_4_7).mul_add(b1_q7, (-b1_4_6).mul_add(b1_q6, (-b1_4_5).mul_add(b1_q5, b1_r4))),
            ),
        ),
    ) / b1_4_4;
    let b1_q3 = (-b1_3_8).mul_add(
        b1_q8,
        (-b1_3_7).mul_add(
            b1_q7,
            (-b1_3_6).mul_add(b1_q6, (-b1_3_5).mul_add(b1_q5, (-b1_3_4).mul_add(b1_q4, b1_r3))),
        ),
    ) / b1_3_3;
    let b1_q2 = (-b1_2_7)
        .mul_add(b1_q7, (-b1_2_6).mul_add(b1_q6, (-b1_2_5).mul_add(b1_q5, (-b1_2_3).mul_add(b1_q3, b1_r2))))
        / b1_2_2;
    let b1_q1 = (-b1_1_6).mul_add(b1_q6, (-b1_1_5).mul_add(b1_q5, (-b1_1_2).mul_add(b1_q2, b1_r1))) / b1_1_1;
    let b1_q0 = (-b1_0_5).mul_add(b1_q5, (-b1_0_1).mul_add(b1_q1, b1_r0)) / b1_0_0;
    let C0__next = C0 + n(0.7071067811865476).mul_add(b1_k0, n(0.2928932188134524) * b1_q0);
    let C1__next = C1 + n(0.7071067811865476).mul_add(b1_k1, n(0.2928932188134524) * b1_q1);
    let C2__next = C2 + n(0.7071067811865476).mul_add(b1_k2, n(0.2928932188134524) * b1_q2);
    let C3__next = C3 + n(0.7071067811865476).mul_add(b1_k3, n(0.2928932188134524) * b1_q3);
    let C4__next = C4 + n(0.7071067811865476).mul_add(b1_k4, n(0.2928932188134524) * b1_q4);
    let CCa0__next = CCa0 + n(0.7071067811865476).mul_add(b1_k5, n(0.2928932188134524) * b1_q5);
    let CCa1__next = CCa1 + n(0.7071067811865476).mul_add(b1_k6, n(0.2928932188134524) * b1_q6);
    let CCa2__next = CCa2 + n(0.7071067811865476).mul_add(b1_k7, n(0.2928932188134524) * b1_q7);
    let CCa3__next = CCa3 + n(0.7071067811865476).mul_add(b1_k8, n(0.2928932188134524) * b1_q8);
    let CCa4__next = CCa4 + n(0.7071067811865476).mul_add(b1_k9, n(0.2928932188134524) * b1_q9);
    let Open__next = Open + n(0.7071067811865476).mul_add(b1_k10, n(0.2928932188134524) * b1_q10);
    let C0__next = conserved(
        C0__next,
        n(0.9999928269421616)
            - (C1__next
                + C2__next
                + C3__next
                + C4__next
                + CCa0__next
                + CCa1__next
                + CCa2__next
                + CCa3__next
                + CCa4__next
                + Open__next),
    );
    // Markov block 2: two-stage SDIRK, (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1.
    let b2_gdt = n(0.2928932188134524) * dt;
    let b2_0_0 = (-b2_gdt).mul_add((-s__67), n(1.0));
    let b2_0_1 = -(b2_gdt * C1Kv43_to_C0Kv43);
    let b2_0_5 = -(b2_gdt * CI0Kv43_to_C0Kv43);
    let b2_f0 = dt * C0Kv43__dt;
    let b2_r0 = b2_f0;
    let b2_1_0 = -(b2_gdt * C0Kv43_to_C1Kv43);
    let b2_1_1 = (-b2_gdt).mul_add((-s__68), n(1.0));
    let b2_1_2 = -(b2_gdt * C2Kv43_to_C1Kv43);
    let b2_1_6 = -(b2_gdt * CI1Kv43_to_C1Kv43);
    let b2_f1 = dt * C1Kv43__dt;
    let b2_r1 = b2_f1;
    let b2_2_1 = -(b2_gdt * C1Kv43_to_C2Kv43);
    let b2_2_2 = (-b2_gdt).mul_add((-s__69), n(1.0));
    let b2_2_3 = -(b2_gdt * C3Kv43_to_C2Kv43);
    let b2_2_7 = -(b2_gdt * CI2Kv43_to_C2Kv43);
    let b2_f2 = dt * C2Kv43__dt;
    let b2_r2 = b2_f2;
    let b2_3_2 = -(b2_gdt * C2Kv43_to_C3Kv43);
    let b2_3_3 = (-b2_gdt).mul_add((-s__70), n(1.0));
    let b2_3_4 = -(b2_gdt * OKv43_to_C3Kv43);
    let b2_3_8 = -(b2_gdt * CI3Kv43_to_C3Kv43);
    let b2_f3 = dt * C3Kv43__dt;
    let b2_r3 = b2_f3;
    let b2_4_3 = -(b2_gdt * C3Kv43_to_OKv43);
    let b2_4_4 = (-b2_gdt).mul_add((-s__71), n(1.0));
    let b2_4_9 = -(b2_gdt * OIKv43_to_OKv43);
    let b2_f4 = dt * OKv43__dt;
    let b2_r4 = b2_f4;
    let b2_5_0 = -(b2_gdt * C0Kv43_to_CI0Kv43);
    let b2_5_5 = (-b2_gdt).mul_add((-s__72), n(1.0));
    let b2_5_6 = -(b2_gdt * CI1Kv43_to_CI0Kv43);
    let b2_f5 = dt * CI0Kv43__dt;
    let b2_r5 = b2_f5;
    let b2_6_1 = -(b2_gdt * C1Kv43_to_CI1Kv43);
    let b2_6_5 = -(b2_gdt * CI0Kv43_to_CI1Kv43);
    let b2_6_6 = (-b2_gdt).mul_add((-s__73), n(1.0));
    let b2_6_7 = -(b2_gdt * CI2Kv43_to_CI1Kv43);
    let b2_f6 = dt * CI1Kv43__dt;
    let b2_r6 = b2_f6;
    let b2_7_2 = -(b2_gdt * C2Kv43_to_CI2Kv43);
    let b2_7_6 = -(b2_gdt * CI1Kv43_to_CI2Kv43);
    let b2_7_7 = (-b2_gdt).mul_add((-s__74), n(1.0));
    let b2_7_8 = -(b2_gdt * CI3Kv43_to_CI2Kv43);
    let b2_f7 = dt * CI2Kv43__dt;
    let b2_r7 = b2_f7;
    let b2_8_3 = -(b2_gdt * C3Kv43_to_CI3Kv43);
    let b2_8_7 = -(b2_gdt * CI2Kv43_to_CI3Kv43);
    let b2_8_8 = (-b2_gdt).mul_add((-s__75), n(1.0));
    let b2_8_9 = -(b2_gdt * OIKv43_to_CI3Kv43);
    let b2_f8 = dt * CI3Kv43__dt;
    let b2_r8 = b2_f8;
    let b2_9_4 = -(b2_gdt * OKv43_to_OIKv43);
    let b2_9_8 = -(b2_gdt * CI3Kv43_to_OIKv43);
    let b2_9_9 = (-b2_gdt).mul_add((-s__76), n(1.0));
    let b2_f9 = dt * OIKv43__dt;
    let b2_r9 = b2_f9;
    let b2_l1_0 = b2_1_0 / b2_0_0;
    let b2_1_1 = (-b2_l1_0).mul_add(b2_0_1, b2_1_1);
    let b2_1_5 = -(b2_l1_0 * b2_0_5);
    let b2_r1 = (-b2_l1_0).mul_add(b2_r0, b2_r1);
    let b2_l5_0 = b2_5_0 / b2_0_0;
    let b2_5_1 = -(b2_l5_0 * b2_0_1);
    let b2_5_5 = (-b2_l5_0).mul_add(b2_0_5, b2_5_5);
    let b2_r5 = (-b2_l5_0).mul_add(b2_r0, b2_r5);
    let b2_l2_1 = b2_2_1 / b2_1_1;
    let b2_2_2 = (-b2_l2_1).mul_add(b2_1_2, b2_2_2);
    let b2_2_5 = -(b2_l2_1 * b2_1_5);
    let b2_2_6 = -(b2_l2_1 * b2_1_6);
    let b2_r2 = (-b2_l2_1).mul_add(b2_r1, b2_r2);
    let b2_l5_1 = b2_5_1 / b2_1_1;
    let b2_5_2 = -(b2_l5_1 * b2_1_2);
    let b2_5_5 = (-b2_l5_1).mul_add(b2_1_5, b2_5_5);
    let b2_5_6 = (-b2_l5_1).mul_add(b2_1_6, b2_5_6);
    let b2_r5 = (-b2_l5_1).mul_add(b2_r1, b2_r5);
    let b2_l6_1 = b2_6_1 / b2_1_1;
    let b2_6_2 = -(b2_l6_1 * b2_1_2);
    let b2_6_5 = (-b2_l6_1).mul_add(b2_1_5, b2_6_5);
    let b2_6_6 = (-b2_l6_1).mul_add(b2_1_6, b2_6_6);
    let b2_r6 = (-b2_l6_1).mul_add(b2_r1, b2_r6);
    let b2_l3_2 = b2_3_2 / b2_2_2;
    let b2_3_3 = (-b2_l3_2).mul_add(b2_2_3, b2_3_3);
    let b2_3_5 = -(b2_l3_2 * b2_2_5);
    let b2_3_6 = -(b2_l3_2 * b2_2_6);
    let b2_3_7 = -(b2_l3_2 * b2_2_7);
    let b2_r3 = (-b2_l3_2).mul_add(b2_r2, b2_r3);
    let b2_l5_2 = b2_5_2 / b2_2_2;
    let b2_5_3 = -(b2_l5_2 * b2_2_3);
    let b2_5_5 = (-b2_l5_2).mul_add(b2_2_5, b2_5_5);
    let b2_5_6 = (-b2_l5_2).mul_add(b2_2_6, b2_5_6);
    let b2_5_7 = -(b2_l5_2 * b2_2_7);
    let b2_r5 = (-b2_l5_2).mul_add(b2_r2, b2_r5);
    let b2_l6_2 = b2_6_2 / b2_2_2;
    let b2_6_3 = -(b2_l6_2 * b2_2_3);
    let b2_6_5 = (-b2_l6_2).mul_add(b2_2_5, b2_6_5);
    let b2_6_6 = (-b2_l6_2).mul_add(b2_2_6, b2_6_6);
    let b2_6_7 = (-b2_l6_2).mul_add(b2_2_7, b2_6_7);
    let b2_r6 = (-b2_l6_2).mul_add(b2_r2, b2_r6);
    let b2_l7_2 = b2_7_2 / b2_2_2;
    let b2_7_3 = -(b2_l7_2 * b2_2_3);
    let b2_7_5 = -(b2_l7_2 * b2_2_5);
    let b2_7_6 = (-b2_l7_2).mul_add(b2_2_6, b2_7_6);
    let b2_7_7 = (-b2_l7_2).mul_add(b2_2_7, b2_7_7);
    let b2_r7 = (-b2_l7_2).mul_add(b2_r2, b2_r7);
    let b2_l4_3 = b2_4_3 / b2_3_3;
    let b2_4_4 = (-b2_l4_3).mul_add(b2_3_4, b2_4_4);
    let b2_4_5 = -(b2_l4_3 * b2_3_5);
    let b2_4_6 = -(b2_l4_3 * b2_3_6);
    let b2_4_7 = -(b2_l4_3 * b2_3_7);
    let b2_4_8 = -(b2_l4_3 * b2_3_8);
    let b2_r4 = (-b2_l4_3).mul_add(b2_r3, b2_r4);
    let b2_l5_3 = b2_5_3 / b2_3_3;
    let b2_5_4 = -(b2_l5_3 * b2_3_4);
    let b2_5_5 = (-b2_l5_3).mul_add(b2_3_5, b2_5_5);
    let b2_5_6 = (-b2_l5_3).mul_add(b2_3_6, b2_5_6);
    let b2_5_7 = (-b2_l5_3).mul_add(b2_3_7, b2_5_7);
    let b2_5_8 = -(b2_l5_3 * b2_3_8);
    let b2_r5 = (-b2_l5_3).mul_add(b2_r3, b2_r5);
    let b2_l6_3 = b2_6_3 / b2_3_3;
    let b2_6_4 = -(b2_l6_3 * b2_3_4);
    let b2_6_5 = (-b2_l6_3).mul_add(b2_3_5, b2_6_5);
    let b2_6_6 = (-b2_l6_3).mul_add(b2_3_6, b2_6_6);
    let b2_6_7 = (-b2_l6_3).mul_add(b2_3_7, b2_6_7);
    let b2_6_8 = -(b2_l6_3 * b2_3_8);
    let b2_r6 = (-b2_l6_3).mul_add(b2_r3, b2_r6);
    let b2_l7_3 = b2_7_3 / b2_3_3;
    let b2_7_4 = -(b2_l7_3 * b2_3_4);
    let b2_7_5 = (-b2_l7_3).mul_add(b2_3_5, b2_7_5);
    let b2_7_6 = (-b2_l7_3).mul_add(b2_3_6, b2_7_6);
    let b2_7_7 = (-b2_l7_3).mul_add(b2_3_7, b2_7_7);
    let b2_7_8 = (-b2_l7_3).mul_add(b2_3_8, b2_7_8);
    let b2_r7 = (-b2_l7_3).mul_add(b2_r3, b2_r7);
    let b2_l8_3 = b2_8_3 / b2_3_3;
    let b2_8_4 = -(b2_l8_3 * b2_3_4);
    let b2_8_5 = -(b2_l8_3 * b2_3_5);
    let b2_8_6 = -(b2_l8_3 * b2_3_6);
    let b2_8_7 = (-b2_l8_3).mul_add(b2_3_7, b2_8_7);
    let b2_8_8 = (-b2_l8_3).mul_add(b2_3_8, b2_8_8);
    let b2_r8 = (-b2_l8_3).mul_add(b2_r3, b2_r8);
    let b2_l5_4 = b2_5_4 / b2_4_4;
    let b2_5_5 = (-b2_l5_4).mul_add(b2_4_5, b2_5_5);
    let b2_5_6 = (-b2_l5_4).mul_add(b2_4_6, b2_5_6);
    let b2_5_7 = (-b2_l5_4).mul_add(b2_4_7, b2_5_7);
    let b2_5_8 = (-b2_l5_4).mul_add(b2_4_8, b2_5_8);
    let b2_5_9 = -(b2_l5_4 * b2_4_9);
    let b2_r5 = (-b2_l5_4).mul_add(b2_r4, b2_r5);
    let b2_l6_4 = b2_6_4 / b2_4_4;
    let b2_6_5 = (-b2_l6_4).mul_add(b2_4_5, b2_6_5);
    let b2_6_6 = (-b2_l6_4).mul_add(b2_4_6, b2_6_6);
    let b2_6_7 = (-b2_l6_4).mul_add(b2_4_7, b2_6_7);
    let b2_6_8 = (-b2_l6_4).mul_add(b2_4_8, b2_6_8);
    let b2_6_9 = -(b2_l6_4 * b2_4_9);
    let b2_r6 = (-b2_l6_4).mul_add(b2_r4, b2_r6);
    let b2_l7_4 = b2_7_4 / b2_4_4;
    let b2_7_5 = (-b2_l7_4).mul_add(b2_4_5, b2_7_5);
    let b2_7_6 = (-b2_l7_4).mul_add(b2_4_6, b2_7_6);
    let b2_7_7 = (-b2_l7_4).mul_add(b2_4_7, b2_7_7);
    let b2_7_8 = (-b2_l7_4).mul_add(b2_4_8, b2_7_8);
    let b2_7_9 = -(b2_l7_4 * b2_4_9);
    let b2_r7 = (-b2_l7_4).mul_add(b2_r4, b2_r7);
    let b2_l8_4 = b2_8_4 / b2_4_4;
    let b2_8_5 = (-b2_l8_4).mul_add(b2_4_5, b2_8_5);
    let b2_8_6 = (-b2_l8_4).mul_add(b2_4_6, b2_8_6);
    let b2_8_7 = (-b2_l8_4).mul_add(b2_4_7, b2_8_7);
    let b2_8_8 = (-b2_l8_4).mul_add(b2_4_8, b2_8_8);
    let b2_8_9 = (-b2_l8_4).mul_add(b2_4_9, b2_8_9);
    let b2_r8 = (-b2_l8_4).mul_add(b2_r4, b2_r8);
    let b2_l9_4 = b2_9_4 / b2_4_4;
    let b2_9_5 = -(b2_l9_4 * b2_4_5);
    let b2_9_6 = -(b2_l9_4 * b2_4_6);
    let b2_9_7 = -(b2_l9_4 * b2_4_7);
    let b2_9_8 = (-b2_l9_4).mul_add(b2_4_8, b2_9_8);
    let b2_9_9 = (-b2_l9_4).mul_add(b2_4_9, b2_9_9);
    let b2_r9 = (-b2_l9_4).mul_add(b2_r4, b2_r9);
    let b2_l6_5 = b2_6_5 / b2_5_5;
    let b2_6_6 = (-b2_l6_5).mul_add(b2_5_6, b2_6_6);
    let b2_6_7 = (-b2_l6_5).mul_add(b2_5_7, b2_6_7);
    let b2_6_8 = (-b2_l6_5).mul_add(b2_5_8, b2_6_8);
    let b2_6_9 = (-b2_l6_5).mul_add(b2_5_9, b2_6_9);
    let b2_r6 = (-b2_l6_5).mul_add(b2_r5, b2_r6);
    let b2_l7_5 = b2_7_5 / b2_5_5;
    let b2_7_6 = (-b2_l7_5).mul_add(b2_5_6, b2_7_6);
    let b2_7_7 = (-b2_l7_5).mul_add(b2_5_7, b2_7_7);
    let b2_7_8 = (-b2_l7_5).mul_add(b2_5_8, b2_7_8);
    let b2_7_9 = (-b2_l7_5).mul_add(b2_5_9, b2_7_9);
    let b2_r7 = (-b2_l7_5).mul_add(b2_r5, b2_r7);
    let b2_l8_5 = b2_8_5 / b2_5_5;
    let b2_8_6 = (-b2_l8_5).mul_add(b2_5_6, b2_8_6);
    let b2_8_7 = (-b2_l8_5).mul_add(b2_5_7, b2_8_7);
    let b2_8_8 = (-b2_l8_5).mul_add(b2_5_8, b2_8_8);
    let b2_8_9 = (-b2_l8_5).mul_add(b2_5_9, b2_8_9);
    let b2_r8 = (-b2_l8_5).mul_add(b2_r5, b2_r8);
    let b2_l9_5 = b2_9_5 / b2_5_5;
    let b2_9_6 = (-b2_l9_5).mul_add(b2_5_6, b2_9_6);
    let b2_9_7 = (-b2_l9_5).mul_add(b2_5_7, b2_9_7);
    let b2_9_8 = (-b2_l9_5).mul_add(b2_5_8, b2_9_8);
    let b2_9_9 = (-b2_l9_5).mul_add(b2_5_9, b2_9_9);
    let b2_r9 = (-b2_l9_5).mul_add(b2_r5, b2_r9);
    let b2_l7_6 = b2_7_6 / b2_6_6;
    let b2_7_7 = (-b2_l7_6).mul_add(b2_6_7, b2_7_7);
    let b2_7_8 = (-b2_l7_6).mul_add(b2_6_8, b2_7_8);
    let b2_7_9 = (-b2_l7_6).mul_add(b2_6_9, b2_7_9);
    let b2_r7 = (-b2_l7_6).mul_add(b2_r6, b2_r7);
    let b2_l8_6 = b2_8_6 / b2_6_6;
    let b2_8_7 = (-b2_l8_6).mul_add(b2_6_7, b2_8_7);
    let b2_8_8 = (-b2_l8_6).mul_add(b2_6_8, b2_8_8);
    let b2_8_9 = (-b2_l8_6).mul_add(b2_6_9, b2_8_9);
    let b2_r8 = (-b2_l8_6).mul_add(b2_r6, b2_r8);
    let b2_l9_6 = b2_9_6 / b2_6_6;
    let b2_9_7 = (-b2_l9_6).mul_add(b2_6_7, b2_9_7);
    let b2_9_8 = (-b2_l9_6).mul_add(b2_6_8, b2_9_8);
    let b2_9_9 = (-b2_l9_6).mul_add(b2_6_9, b2_9_9);
    let b2_r9 = (-b2_l9_6).mul_add(b2_r6, b2_r9);
    let b2_l8_7 = b2_8_7 / b2_7_7;
    let b2_8_8 = (-b2_l8_7).mul_add(b2_7_8, b2_8_8);
    let b2_8_9 = (-b2_l8_7).mul_add(b2_7_9, b2_8_9);
    let b2_r8 = (-b2_l8_7).mul_add(b2_r7, b2_r8);
    let b2_l9_7 = b2_9_7 / b2_7_7;
    let b2_9_8 = (-b2_l9_7).mul_add(b2_7_8, b2_9_8);
    let b2_9_9 = (-b2_l9_7).mul_add(b2_7_9, b2_9_9);
    let b2_r9 = (-b2_l9_7).mul_add(b2_r7, b2_r9);
    let b2_l9_8 = b2_9_8 / b2_8_8;
    let b2_9_9 = (-b2_l9_8).mul_add(b2_8_9, b2_9_9);
    let b2_r9 = (-b2_l9_8).mul_add(b2_r8, b2_r9);
    let b2_k9 = b2_r9 / b2_9_9;
    let b2_k8 = (-b2_8_9).mul_add(b2_k9, b2_r8) / b2_8_8;
    let b2_k7 = (-b2_7_9).mul_add(b2_k9, (-b2_7_8).mul_add(b2_k8, b2_r7)) / b2_7_7;
    let b2_k6 = (-b2_6_9).mul_add(b2_k9, (-b2_6_8).mul_add(b2_k8, (-b2_6_7).mul_add(b2_k7, b2_r6))) / b2_6_6;
    let b2_k5 = (-b2_5_9)
        .mul_add(b2_k9, (-b2_5_8).mul_add(b2_k8, (-b2_5_7).mul_add(b2_k7, (-b2_5_6).mul_add(b2_k6, b2_r5))))
        / b2_5_5;
    let b2_k4 = (-b2_4_9).mul_add(
        b2_k9,
        (-b2_4_8).mul_add(
            b2_k8,
            (-b2_4_7).mul_add(b2_k7, (-b2_4_6).mul_add(b2_k6, (-b2_4_5).mul_add(b2_k5, b2_r4))),
        ),
    ) / b2_4_4;
    let b2_k3 = (-b2_3_8).mul_add(
        b2_k8,
        (-b2_3_7).mul_add(
            b2_k7,
            (-b2_3_6).mul_add(b2_k6, (-b2_3_5).mul_add(b2_k5, (-b2_3_4).mul_add(b2_k4, b2_r3))),
        ),
    ) / b2_3_3;
    let b2_k2 = (-b2_2_7)
        .mul_add(b2_k7, (-b2_2_6).mul_add(b2_k6, (-b2_2_5).mul_add(b2_k5, (-b2_2_3).mul_add(b2_k3, b2_r2))))
        / b2_2_2;
    let b2_k1 = (-b2_1_6).mul_add(b2_k6, (-b2_1_5).mul_add(b2_k5, (-b2_1_2).mul_add(b2_k2, b2_r1))) / b2_1_1;
    let b2_k0 = (-b2_0_5).mul_add(b2_k5, (-b2_0_1).mul_add(b2_k1, b2_r0)) / b2_0_0;
    let b2_r0 = n(2.414213562373095).mul_add(b2_k0, n(-1.4142135623730951) * b2_f0);
    let b2_r1 = n(2.414213562373095).mul_add(b2_k1, n(-1.4142135623730951) * b2_f1);
    let b2_r2 = n(2.414213562373095).mul_add(b2_k2, n(-1.4142135623730951) * b2_f2);
    let b2_r3 = n(2.414213562373095).mul_add(b2_k3, n(-1.4142135623730951) * b2_f3);
    let b2_r4 = n(2.414213562373095).mul_add(b2_k4, n(-1.4142135623730951) * b2_f4);
    let b2_r5 = n(2.414213562373095).mul_add(b2_k5, n(-1.4142135623730951) * b2_f5);
    let b2_r6 = n(2.414213562373095).mul_add(b2_k6, n(-1.4142135623730951) * b2_f6);
    let b2_r7 = n(2.414213562373095).mul_add(b2_k7, n(-1.4142135623730951) * b2_f7);
    let b2_r8 = n(2.414213562373095).mul_add(b2_k8, n(-1.4142135623730951) * b2_f8);
    let b2_r9 = n(2.414213562373095).mul_add(b2_k9, n(-1.4142135623730951) * b2_f9);
    let b2_r1 = (-b2_l1_0).mul_add(b2_r0, b2_r1);
    let b2_r5 = (-b2_l5_0).mul_add(b2_r0, b2_r5);
    let b2_r2 = (-b2_l2_1).mul_add(b2_r1, b2_r2);
    let b2_r5 = (-b2_l5_1).mul_add(b2_r1, b2_r5);
    let b2_r6 = (-b2_l6_1).mul_add(b2_r1, b2_r6);
    let b2_r3 = (-b2_l3_2).mul_add(b2_r2, b2_r3);
    let b2_r5 = (-b2_l5_2).mul_add(b2_r2, b2_r5);
    let b2_r6 = (-b2_l6_2).mul_add(b2_r2, b2_r6);
    let b2_r7 = (-b2_l7_2).mul_add(b2_r2, b2_r7);
    let b2_r4 = (-b2_l4_3).mul_add(b2_r3, b2_r4);
    let b2_r5 = (-b2_l5_3).mul_add(b2_r3, b2_r5);
    let b2_r6 = (-b2_l6_3).mul_add(b2_r3, b2_r6);
    let b2_r7 = (-b2_l7_3).mul_add(b2_r3, b2_r7);
    let b2_r8 = (-b2_l8_3).mul_add(b2_r3, b2_r8);
    let b2_r5 = (-b2_l5_4).mul_add(b2_r4, b2_r5);
    let b2_r6 = (-b2_l6_4).mul_add(b2_r4, b2_r6);
    let b2_r7 = (-b2_l7_4).mul_add(b2_r4, b2_r7);
    let b2_r8 = (-b2_l8_4).mul_add(b2_r4, b2_r8);
    let b2_r9 = (-b2_l9_4).mul_add(b2_r4, b2_r9);
    let b2_r6 = (-b2_l6_5).mul_add(b2_r5, b2_r6);
    let b2_r7 = (-b2_l7_5).mul_add(b2_r5, b2_r7);
    let b2_r8 = (-b2_l8_5).mul_add(b2_r5, b2_r8);
    let b2_r9 = (-b2_l9_5).mul_add(b2_r5, b2_r9);
    let b2_r7 = (-b2_l7_6).mul_add(b2_r6, b2_r7);
    let b2_r8 = (-b2_l8_6).mul_add(b2_r6, b2_r8);
    let b2_r9 = (-b2_l9_6).mul_add(b2_r6, b2_r9);
    let b2_r8 = (-b2_l8_7).mul_add(b2_r7, b2_r8);
    let b2_r9 = (-b2_l9_7).mul_add(b2_r7, b2_r9);
    let b2_r9 = (-b2_l9_8).mul_add(b2_r8, b2_r9);
    let b2_q9 = b2_r9 / b2_9_9;
    let b2_q8 = (-b2_8_9).mul_add(b2_q9, b2_r8) / b2_8_8;
    let b2_q7 = (-b2_7_9).mul_add(b2_q9, (-b2_7_8).mul_add(b2_q8, b2_r7)) / b2_7_7;
    let b2_q6 = (-b2_6_9).mul_add(b2_q9, (-b2_6_8).mul_add(b2_q8, (-b2_6_7).mul_add(b2_q7, b2_r6))) / b2_6_6;
    let b2_q5 = (-b2_5_9)
        .mul_add(b2_q9, (-b2_5_8).mul_add(b2_q8, (-b2_5_7).mul_add(b2_q7, (-b2_5_6).mul_add(b2_q6, b2_r5))))
        / b2_5_5;
    let b2_q4 = (-b2_4_9).mul_add(
        b2_q9,
        (-b2_4_8).mul_add(
            b2_q8,
            (-b2_4_7).mul_add(b2_q7, (-b2_4_6).mul_add(b2_q6, (-b2_4_5).mul_add(b2_q5, b2_r4))),
        ),
    ) / b2_4_4;
    let b2_q3 = (-b2_3_8).mul_add(
        b2_q8,
        (-b2_3_7).mul_add(
            b2_q7,
            (-b2_3_6).mul_add(b2_q6, (-b2_3_5).mul_add(b2_q5, (-b2_3_4).mul_add(b2_q4, b2_r3))),
        ),
    ) / b2_3_3;
    let b2_q2 = (-b2_2_7)
        .mul_add(b2_q7, (-b2_2_6).mul_add(b2_q6, (-b2_2_5).mul_add(b2_q5, (-b2_2_3).mul_add(b2_q3, b2_r2))))
        / b2_2_2;
    let b2_q1 = (-b2_1_6).mul_add(b2_q6, (-b2_1_5).mul_add(b2_q5, (-b2_1_2).mul_add(b2_q2, b2_r1))) / b2_1_1;
    let b2_q0 = (-b2_0_5).mul_add(b2_q5, (-b2_0_1).mul_add(b2_q1, b2_r0)) / b2_0_0;
    let C0Kv43__next = C0Kv43 + n(0.7071067811865476).mul_add(b2_k0, n(0.2928932188134524) * b2_q0);
    let C1Kv43__next = C1Kv43 + n(0.7071067811865476).mul_add(b2_k1, n(0.2928932188134524) * b2_q1);
    let C2Kv43__next = C2Kv43 + n(0.7071067811865476).mul_add(b2_k2, n(0.2928932188134524) * b2_q2);
    let C3Kv43__next = C3Kv43 + n(0.7071067811865476).mul_add(b2_k3, n(0.2928932188134524) * b2_q3);
    let OKv43__next = OKv43 + n(0.7071067811865476).mul_add(b2_k4, n(0.2928932188134524) * b2_q4);
    let CI0Kv43__next = CI0Kv43 + n(0.7071067811865476).mul_add(b2_k5, n(0.2928932188134524) * b2_q5);
    let CI1Kv43__next = CI1Kv43 + n(0.7071067811865476).mul_add(b2_k6, n(0.2928932188134524) * b2_q6);
    let CI2Kv43__next = CI2Kv43 + n(0.7071067811865476).mul_add(b2_k7, n(0.2928932188134524) * b2_q7);
    let CI3Kv43__next = CI3Kv43 + n(0.7071067811865476).mul_add(b2_k8, n(0.2928932188134524) * b2_q8);
    let OIKv43__next = OIKv43 + n(0.7071067811865476).mul_add(b2_k9, n(0.2928932188134524) * b2_q9);
    let C0Kv43__next = conserved(
        C0Kv43__next,
        n(0.9999999086777872)
            - (C1Kv43__next
                + C2Kv43__next
                + C3Kv43__next
                + OKv43__next
                + CI0Kv43__next
                + CI1Kv43__next
                + CI2Kv43__next
                + CI3Kv43__next
                + OIKv43__next),
    );
    // Markov block 3: two-stage SDIRK, (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1.
    let b3_gdt = n(0.2928932188134524) * dt;
    let b3_0_0 = (-b3_gdt).mul_add((-s__77), n(1.0));
    let b3_0_1 = -(b3_gdt * C1Kv14_to_C0Kv14);
    let b3_0_5 = -(b3_gdt * c.CI0Kv14_to_C0Kv14);
    let b3_f0 = dt * C0Kv14__dt;
    let b3_r0 = b3_f0;
    let b3_1_0 = -(b3_gdt * C0Kv14_to_C1Kv14);
    let b3_1_1 = (-b3_gdt).mul_add((-s__78), n(1.0));
    let b3_1_2 = -(b3_gdt * C2Kv14_to_C1Kv14);
    let b3_1_6 = -(b3_gdt * c.CI1Kv14_to_C1Kv14);
    let b3_f1 = dt * C1Kv14__dt;
    let b3_r1 = b3_f1;
    let b3_2_1 = -(b3_gdt * C1Kv14_to_C2Kv14);
    let b3_2_2 = (-b3_gdt).mul_add((-s__79), n(1.0));
    let b3_2_3 = -(b3_gdt * C3Kv14_to_C2Kv14);
    let b3_2_7 = -(b3_gdt * c.CI2Kv14_to_C2Kv14);
    let b3_f2 = dt * C2Kv14__dt;
    let b3_r2 = b3_f2;
    let b3_3_2 = -(b3_gdt * C2Kv14_to_C3Kv14);
    let b3_3_3 = (-b3_gdt).mul_add((-s__80), n(1.0));
    let b3_3_4 = -(b3_gdt * OKv14_to_C3Kv14);
    let b3_3_8 = -(b3_gdt * c.CI3Kv14_to_C3Kv14);
    let b3_f3 = dt * C3Kv14__dt;
    let b3_r3 = b3_f3;
    let b3_4_3 = -(b3_gdt * C3Kv14_to_OKv14);
    let b3_4_4 = (-b3_gdt).mul_add((-s__81), n(1.0));
    let b3_4_9 = -(b3_gdt * c.OIKv14_to_OKv14);
    let b3_f4 = dt * OKv14__dt;
    let b3_r4 = b3_f4;
    let b3_5_0 = -(b3_gdt * c.C0Kv14_to_CI0Kv14);
    let b3_5_5 = (-b3_gdt).mul_add((-s__82), n(1.0));
    let b3_5_6 = -(b3_gdt * CI1Kv14_to_CI0Kv14);
    let b3_f5 = dt * CI0Kv14__dt;
    let b3_r5 = b3_f5;
    let b3_6_1 = -(b3_gdt * c.C1Kv14_to_CI1Kv14);
    let b3_6_5 = -(b3_gdt * CI0Kv14_to_CI1Kv14);
    let b3_6_6 = (-b3_gdt).mul_add((-s__83), n(1.0));
    let b3_6_7 = -(b3_gdt * CI2Kv14_to_CI1Kv14);
    let b3_f6 = dt * CI1Kv14__dt;
    let b3_r6 = b3_f6;
    let b3_7_2 = -(b3_gdt * c.C2Kv14_to_CI2Kv14);
    let b3_7_6 = -(b3_gdt * CI1Kv14_to_CI2Kv14);
    let b3_7_7 = (-b3_gdt).mul_add((-s__84), n(1.0));
    let b3_7_8 = -(b3_gdt * CI3Kv14_to_CI2Kv14);
    let b3_f7 = dt * CI2Kv14__dt;
    let b3_r7 = b3_f7;
    let b3_8_3 = -(b3_gdt * c.C3Kv14_to_CI3Kv14);
    let b3_8_7 = -(b3_gdt * CI2Kv14_to_CI3Kv14);
    let b3_8_8 = (-b3_gdt).mul_add((-s__85), n(1.0));
    let b3_8_9 = -(b3_gdt * OIKv14_to_CI3Kv14);
    let b3_f8 = dt * CI3Kv14__dt;
    let b3_r8 = b3_f8;
    let b3_9_4 = -(b3_gdt * c.OKv14_to_OIKv14);
    let b3_9_8 = -(b3_gdt * CI3Kv14_to_OIKv14);
    let b3_9_9 = (-b3_gdt).mul_add((-s__86), n(1.0));
    let b3_f9 = dt * OIKv14__dt;
    let b3_r9 = b3_f9;
    let b3_l1_0 = b3_1_0 / b3_0_0;
    let b3_1_1 = (-b3_l1_0).mul_add(b3_0_1, b3_1_1);
    let b3_1_5 = -(b3_l1_0 * b3_0_5);
    let b3_r1 = (-b3_l1_0).mul_add(b3_r0, b3_r1);
    let b3_l5_0 = b3_5_0 / b3_0_0;
    let b3_5_1 = -(b3_l5_0 * b3_0_1);
    let b3_5_5 = (-b3_l5_0).mul_add(b3_0_5, b3_5_5);
    let b3_r5 = (-b3_l5_0).mul_add(b3_r0, b3_r5);
    let b3_l2_1 = b3_2_1 / b3_1_1;
    let b3_2_2 = (-b3_l2_1).mul_add(b3_1_2, b3_2_2);
    let b3_2_5 = -(b3_l2_1 * b3_1_5);
    let b3_2_6 = -(b3_l2_1 * b3_1_6);
    let b3_r2 = (-b3_l2_1).mul_add(b3_r1, b3_r2);
    let b3_l5_1 = b3_5_1 / b3_1_1;
    let b3_5_2 = -(b3_l5_1 * b3_1_2);
    let b3_5_5 = (-b3_l5_1).mul_add(b3_1_5, b3_5_5);
    let b3_5_6 = (-b3_l5_1).mul_add(b3_1_6, b3_5_6);
    let b3_r5 = (-b3_l5_1).mul_add(b3_r1, b3_r5);
    let b3_l6_1 = b3_6_1 / b3_1_1;
    let b3_6_2 = -(b3_l6_1 * b3_1_2);
    let b3_6_5 = (-b3_l6_1).mul_add(b3_1_5, b3_6_5);
    let b3_6_6 = (-b3_l6_1).mul_add(b3_1_6, b3_6_6);
    let b3_r6 = (-b3_l6_1).mul_add(b3_r1, b3_r6);
    let b3_l3_2 = b3_3_2 / b3_2_2;
    let b3_3_3 = (-b3_l3_2).mul_add(b3_2_3, b3_3_3);
    let b3_3_5 = -(b3_l3_2 * b3_2_5);
    let b3_3_6 = -(b3_l3_2 * b3_2_6);
    let b3_3_7 = -(b3_l3_2 * b3_2_7);
    let b3_r3 = (-b3_l3_2).mul_add(b3_r2, b3_r3);
    let b3_l5_2 = b3_5_2 / b3_2_2;
    let b3_5_3 = -(b3_l5_2 * b3_2_3);
    let b3_5_5 = (-b3_l5_2).mul_add(b3_2_5, b3_5_5);
    let b3_5_6 = (-b3_l5_2).mul_add(b3_2_6, b3_5_6);
    let b3_5_7 = -(b3_l5_2 * b3_2_7);
    let b3_r5 = (-b3_l5_2).mul_add(b3_r2, b3_r5);
    let b3_l6_2 = b3_6_2 / b3_2_2;
    let b3_6_3 = -(b3_l6_2 * b3_2_3);
    let b3_6_5 = (-b3_l6_2).mul_add(b3_2_5, b3_6_5);
    let b3_6_6 = (-b3_l6_2).mul_add(b3_2_6, b3_6_6);
    let b3_6_7 = (-b3_l6_2).mul_add(b3_2_7, b3_6_7);
    let b3_r6 = (-b3_l6_2).mul_add(b3_r2, b3_r6);
    let b3_l7_2 = b3_7_2 / b3_2_2;
    let b3_7_3 = -(b3_l7_2 * b3_2_3);
    let b3_7_5 = -(b3_l7_2 * b3_2_5);
    let b3_7_6 = (-b3_l7_2).mul_add(b3_2_6, b3_7_6);
    let b3_7_7 = (-b3_l7_2).mul_add(b3_2_7, b3_7_7);
    let b3_r7 = (-b3_l7_2).mul_add(b3_r2, b3_r7);
    let b3_l4_3 = b3_4_3 / b3_3_3;
    let b3_4_4 = (-b3_l4_3).mul_add(b3_3_4, b3_4_4);
    let b3_4_5 = -(b3_l4_3 * b3_3_5);
    let b3_4_6 = -(b3_l4_3 * b3_3_6);
    let b3_4_7 = -(b3_l4_3 * b3_3_7);
    let b3_4_8 = -(b3_l4_3 * b3_3_8);
    let b3_r4 = (-b3_l4_3).mul_add(b3_r3, b3_r4);
    let b3_l5_3 = b3_5_3 / b3_3_3;
    let b3_5_4 = -(b3_l5_3 * b3_3_4);
    let b3_5_5 = (-b3_l5_3).mul_add(b3_3_5, b3_5_5);
    let b3_5_6 = (-b3_l5_3).mul_add(b3_3_6, b3_5_6);
    let b3_5_7 = (-b3_l5_3).mul_add(b3_3_7, b3_5_7);
    let b3_5_8 = -(b3_l5_3 * b3_3_8);
    let b3_r5 = (-b3_l5_3).mul_add(b3_r3, b3_r5);
    let b3_l6_3 = b3_6_3 / b3_3_3;
    let b3_6_4 = -(b3_l6_3 * b3_3_4);
    let b3_6_5 = (-b3_l6_3).mul_add(b3_3_5, b3_6_5);
    let b3_6_6 = (-b3_l6_3).mul_add(b3_3_6, b3_6_6);
    let b3_6_7 = (-b3_l6_3).mul_add(b3_3_7, b3_6_7);
    let b3_6_8 = -(b3_l6_3 * b3_3_8);
    let b3_r6 = (-b3_l6_3).mul_add(b3_r3, b3_r6);
    let b3_l7_3 = b3_7_3 / b3_3_3;
    let b3_7_4 = -(b3_l7_3 * b3_3_4);
    let b3_7_5 = (-b3_l7_3).mul_add(b3_3_5, b3_7_5);
    let b3_7_6 = (-b3_l7_3).mul_add(b3_3_6, b3_7_6);
    let b3_7_7 = (-b3_l7_3).mul_add(b3_3_7, b3_7_7);
    let b3_7_8 = (-b3_l7_3).mul_add(b3_3_8, b3_7_8);
    let b3_r7 = (-b3_l7_3).mul_add(b3_r3, b3_r7);
    let b3_l8_3 = b3_8_3 / b3_3_3;
    let b3_8_4 = -(b3_l8_3 * b3_3_4);
    let b3_8_5 = -(b3_l8_3 * b3_3_5);
    let b3_8_6 = -(b3_l8_3 * b3_3_6);
    let b3_8_7 = (-b3_l8_3).mul_add(b3_3_7, b3_8_7);
    let b3_8_8 = (-b3_l8_3).mul_add(b3_3_8, b3_8_8);
    let b3_r8 = (-b3_l8_3).mul_add(b3_r3, b3_r8);
    let b3_l5_4 = b3_5_4 / b3_4_4;
    let b3_5_5 = (-b3_l5_4).mul_add(b3_4_5, b3_5_5);
    let b3_5_6 = (-b3_l5_4).mul_add(b3_4_6, b3_5_6);
    let b3_5_7 = (-b3_l5_4).mul_add(b3_4_7, b3_5_7);
    let b3_5_8 = (-b3_l5_4).mul_add(b3_4_8, b3_5_8);
    let b3_5_9 = -(b3_l5_4 * b3_4_9);
    let b3_r5 = (-b3_l5_4).mul_add(b3_r4, b3_r5);
    let b3_l6_4 = b3_6_4 / b3_4_4;
    let b3_6_5 = (-b3_l6_4).mul_add(b3_4_5, b3_6_5);
    let b3_6_6 = (-b3_l6_4).mul_add(b3_4_6, b3_6_6);
    let b3_6_7 = (-b3_l6_4).mul_add(b3_4_7, b3_6_7);
    let b3_6_8 = (-b3_l6_4).mul_add(b3_4_8, b3_6_8);
    let b3_6_9 = -(b3_l6_4 * b3_4_9);
    let b3_r6 = (-b3_l6_4).mul_add(b3_r4, b3_r6);
    let b3_l7_4 = b3_7_4 / b3_4_4;
    let b3_7_5 = (-b3_l7_4).mul_add(b3_4_5, b3_7_5);
    let b3_7_6 = (-b3_l7_4).mul_add(b3_4_6, b3_7_6);
    let b3_7_7 = (-b3_l7_4).mul_add(b3_4_7, b3_7_7);
    let b3_7_8 = (-b3_l7_4).mul_add(b3_4_8, b3_7_8);
    let b3_7_9 = -(b3_l7_4 * b3_4_9);
    let b3_r7 = (-b3_l7_4).mul_add(b3_r4, b3_r7);
    let b3_l8_4 = b3_8_4 / b3_4_4;
    let b3_8_5 = (-b3_l8_4).mul_add(b3_4_5, b3_8_5);
    let b3_8_6 = (-b3_l8_4).mul_add(b3_4_6, b3_8_6);
    let b3_8_7 = (-b3_l8_4).mul_add(b3_4_7, b3_8_7);
    let b3_8_8 = (-b3_l8_4).mul_add(b3_4_8, b3_8_8);
    let b3_8_9 = (-b3_l8_4).mul_add(b3_4_9, b3_8_9);
    let b3_r8 = (-b3_l8_4).mul_add(b3_r4, b3_r8);
    let b3_l9_4 = b3_9_4 / b3_4_4;
    let b3_9_5 = -(b3_l9_4 * b3_4_5);
    let b3_9_6 = -(b3_l9_4 * b3_4_6);
    let b3_9_7 = -(b3_l9_4 * b3_4_7);
    let b3_9_8 = (-b3_l9_4).mul_add(b3_4_8, b3_9_8);
    let b3_9_9 = (-b3_l9_4).mul_add(b3_4_9, b3_9_9);
    let b3_r9 = (-b3_l9_4).mul_add(b3_r4, b3_r9);
    let b3_l6_5 = b3_6_5 / b3_5_5;
    let b3_6_6 = (-b3_l6_5).mul_add(b3_5_6, b3_6_6);
    let b3_6_7 = (-b3_l6_5).mul_add(b3_5_7, b3_6_7);
    let b3_6_8 = (-b3_l6_5).mul_add(b3_5_8, b3_6_8);
    let b3_6_9 = (-b3_l6_5).mul_add(b3_5_9, b3_6_9);
    let b3_r6 = (-b3_l6_5).mul_add(b3_r5, b3_r6);
    let b3_l7_5 = b3_7_5 / b3_5_5;
    let b3_7_6 = (-b3_l7_5).mul_add(b3_5_6, b3_7_6);
    let b3_7_7 = (-b3_l7_5).mul_add(b3_5_7, b3_7_7);
    let b3_7_8 = (-b3_l7_5).mul_add(b3_5_8, b3_7_8);
    let b3_7_9 = (-b3_l7_5).mul_add(b3_5_9, b3_7_9);
    let b3_r7 = (-b3_l7_5).mul_add(b3_r5, b3_r7);
    let b3_l8_5 = b3_8_5 / b3_5_5;
    let b3_8_6 = (-b3_l8_5).mul_add(b3_5_6, b3_8_6);
    let b3_8_7 = (-b3_l8_5).mul_add(b3_5_7, b3_8_7);
    let b3_8_8 = (-b3_l8_5).mul_add(b3_5_8, b3_8_8);
    let b3_8_9 = (-b3_l8_5).mul_add(b3_5_9, b3_8_9);
    let b3_r8 = (-b3_l8_5).mul_add(b3_r5, b3_r8);
    let b3_l9_5 = b3_9_5 / b3_5_5;
    let b3_9_6 = (-b3_l9_5).mul_add(b3_5_6, b3_9_6);
    let b3_9_7 = (-b3_l9_5).mul_add(b3_5_7, b3_9_7);
    let b3_9_8 = (-b3_l9_5).mul_add(b3_5_8, b3_9_8);
    let b3_9_9 = (-b3_l9_5).mul_add(b3_5_9, b3_9_9);
    let b3_r9 = (-b3_l9_5).mul_add(b3_r5, b3_r9);
    let b3_l7_6 = b3_7_6 / b3_6_6;
    let b3_7_7 = (-b3_l7_6).mul_add(b3_6_7, b3_7_7);
    let b3_7_8 = (-b3_l7_6).mul_add(b3_6_8, b3_7_8);
    let b3_7_9 = (-b3_l7_6).mul_add(b3_6_9, b3_7_9);
    let b3_r7 = (-b3_l7_6).mul_add(b3_r6, b3_r7);
    let b3_l8_6 = b3_8_6 / b3_6_6;
    let b3_8_7 = (-b3_l8_6).mul_add(b3_6_7, b3_8_7);
    let b3_8_8 = (-b3_l8_6).mul_add(b3_6_8, b3_8_8);
    let b3_8_9 = (-b3_l8_6).mul_add(b3_6_9, b3_8_9);
    let b3_r8 = (-b3_l8_6).mul_add(b3_r6, b3_r8);
    let b3_l9_6 = b3_9_6 / b3_6_6;
    let b3_9_7 = (-b3_l9_6).mul_add(b3_6_7, b3_9_7);
    let b3_9_8 = (-b3_l9_6).mul_add(b3_6_8, b3_9_8);
    let b3_9_9 = (-b3_l9_6).mul_add(b3_6_9, b3_9_9);
    let b3_r9 = (-b3_l9_6).mul_add(b3_r6, b3_r9);
    let b3_l8_7 = b3_8_7 / b3_7_7;
    let b3_8_8 = (-b3_l8_7).mul_add(b3_7_8, b3_8_8);
    let b3_8_9 = (-b3_l8_7).mul_add(b3_7_9, b3_8_9);
    let b3_r8 = (-b3_l8_7).mul_add(b3_r7, b3_r8);
    let b3_l9_7 = b3_9_7 / b3_7_7;
    let b3_9_8 = (-b3_l9_7).mul_add(b3_7_8, b3_9_8);
    let b3_9_9 = (-b3_l9_7).mul_add(b3_7_9, b3_9_9);
    let b3_r9 = (-b3_l9_7).mul_add(b3_r7, b3_r9);
    let b3_l9_8 = b3_9_8 / b3_8_8;
    let b3_9_9 = (-b3_l9_8).mul_add(b3_8_9, b3_9_9);
    let b3_r9 = (-b3_l9_8).mul_add(b3_r8, b3_r9);
    let b3_k9 = b3_r9 / b3_9_9;
    let b3_k8 = (-b3_8_9).mul_add(b3_k9, b3_r8) / b3_8_8;
    let b3_k7 = (-b3_7_9).mul_add(b3_k9, (-b3_7_8).mul_add(b3_k8, b3_r7)) / b3_7_7;
    let b3_k6 = (-b3_6_9).mul_add(b3_k9, (-b3_6_8).mul_add(b3_k8, (-b3_6_7).mul_add(b3_k7, b3_r6))) / b3_6_6;
    let b3_k5 = (-b3_5_9)
        .mul_add(b3_k9, (-b3_5_8).mul_add(b3_k8, (-b3_5_7).mul_add(b3_k7, (-b3_5_6).mul_add(b3_k6, b3_r5))))
        / b3_5_5;
    let b3_k4 = (-b3_4_9).mul_add(
        b3_k9,
        (-b3_4_8).mul_add(
            b3_k8,
            (-b3_4_7).mul_add(b3_k7, (-b3_4_6).mul_add(b3_k6, (-b3_4_5).mul_add(b3_k5, b3_r4))),
        ),
    ) / b3_4_4;
    let b3_k3 = (-b3_3_8).mul_add(
        b3_k8,
        (-b3_3_7).mul_add(
            b3_k7,
            (-b3_3_6).mul_add(b3_k6, (-b3_3_5).mul_add(b3_k5, (-b3_3_4).mul_add(b3_k4, b3_r3))),
        ),
    ) / b3_3_3;
    let b3_k2 = (-b3_2_7)
        .mul_add(b3_k7, (-b3_2_6).mul_add(b3_k6, (-b3_2_5).mul_add(b3_k5, (-b3_2_3).mul_add(b3_k3, b3_r2))))
        / b3_2_2;
    let b3_k1 = (-b3_1_6).mul_add(b3_k6, (-b3_1_5).mul_add(b3_k5, (-b3_1_2).mul_add(b3_k2, b3_r1))) / b3_1_1;
    let b3_k0 = (-b3_0_5).mul_add(b3_k5, (-b3_0_1).mul_add(b3_k1, b3_r0)) / b3_0_0;
    let b3_r0 = n(2.414213562373095).mul_add(b3_k0, n(-1.4142135623730951) * b3_f0);
    let b3_r1 = n(2.414213562373095).mul_add(b3_k1, n(-1.4142135623730951) * b3_f1);
    let b3_r2 = n(2.414213562373095).mul_add(b3_k2, n(-1.4142135623730951) * b3_f2);
    let b3_r3 = n(2.414213562373095).mul_add(b3_k3, n(-1.4142135623730951) * b3_f3);
    let b3_r4 = n(2.414213562373095).mul_add(b3_k4, n(-1.4142135623730951) * b3_f4);
    let b3_r5 = n(2.414213562373095).mul_add(b3_k5, n(-1.4142135623730951) * b3_f5);
    let b3_r6 = n(2.414213562373095).mul_add(b3_k6, n(-1.4142135623730951) * b3_f6);
    let b3_r7 = n(2.414213562373095).mul_add(b3_k7, n(-1.4142135623730951) * b3_f7);
    let b3_r8 = n(2.414213562373095).mul_add(b3_k8, n(-1.4142135623730951) * b3_f8);
    let b3_r9 = n(2.414213562373095).mul_add(b3_k9, n(-1.4142135623730951) * b3_f9);
    let b3_r1 = (-b3_l1_0).mul_add(b3_r0, b3_r1);
    let b3_r5 = (-b3_l5_0).mul_add(b3_r0, b3_r5);
    let b3_r2 = (-b3_l2_1).mul_add(b3_r1, b3_r2);
    let b3_r5 = (-b3_l5_1).mul_add(b3_r1, b3_r5);
    let b3_r6 = (-b3_l6_1).mul_add(b3_r1, b3_r6);
    let b3_r3 = (-b3_l3_2).mul_add(b3_r2, b3_r3);
    let b3_r5 = (-b3_l5_2).mul_add(b3_r2, b3_r5);
    let b3_r6 = (-b3_l6_2).mul_add(b3_r2, b3_r6);
    let b3_r7 = (-b3_l7_2).mul_add(b3_r2, b3_r7);
    let b3_r4 = (-b3_l4_3).mul_add(b3_r3, b3_r4);
    let b3_r5 = (-b3_l5_3).mul_add(b3_r3, b3_r5);
    let b3_r6 = (-b3_l6_3).mul_add(b3_r3, b3_r6);
    let b3_r7 = (-b3_l7_3).mul_add(b3_r3, b3_r7);
    let b3_r8 = (-b3_l8_3).mul_add(b3_r3, b3_r8);
    let b3_r5 = (-b3_l5_4).mul_add(b3_r4, b3_r5);
    let b3_r6 = (-b3_l6_4).mul_add(b3_r4, b3_r6);
    let b3_r7 = (-b3_l7_4).mul_add(b3_r4, b3_r7);
    let b3_r8 = (-b3_l8_4).mul_add(b3_r4, b3_r8);
    let b3_r9 = (-b3_l9_4).mul_add(b3_r4, b3_r9);
    let b3_r6 = (-b3_l6_5).mul_add(b3_r5, b3_r6);
    let b3_r7 = (-b3_l7_5).mul_add(b3_r5, b3_r7);
    let b3_r8 = (-b3_l8_5).mul_add(b3_r5, b3_r8);
    let b3_r9 = (-b3_l9_5).mul_add(b3_r5, b3_r9);
    let b3_r7 = (-b3_l7_6).mul_add(b3_r6, b3_r7);
    let b3_r8 = (-b3_l8_6).mul_add(b3_r6, b3_r8);
    let b3_r9 = (-b3_l9_6).mul_add(b3_r6, b3_r9);
    let b3_r8 = (-b3_l8_7).mul_add(b3_r7, b3_r8);
    let b3_r9 = (-b3_l9_7).mul_add(b3_r7, b3_r9);
    let b3_r9 = (-b3_l9_8).mul_add(b3_r8, b3_r9);
    let b3_q9 = b3_r9 / b3_9_9;
    let b3_q8 = (-b3_8_9).mul_add(b3_q9, b3_r8) / b3_8_8;
    let b3_q7 = (-b3_7_9).mul_add(b3_q9, (-b3_7_8).mul_add(b3_q8, b3_r7)) / b3_7_7;
    let b3_q6 = (-b3_6_9).mul_add(b3_q9, (-b3_6_8).mul_add(b3_q8, (-b3_6_7).mul_add(b3_q7, b3_r6))) / b3_6_6;
    let b3_q5 = (-b3_5_9)
        .mul_add(b3_q9, (-b3_5_8).mul_add(b3_q8, (-b3_5_7).mul_add(b3_q7, (-b3_5_6).mul_add(b3_q6, b3_r5))))
        / b3_5_5;
    let b3_q4 = (-b3_4_9).mul_add(
        b3_q9,
        (-b3_4_8).mul_add(
            b3_q8,
            (-b3_4_7).mul_add(b3_q7, (-b3_4_6).mul_add(b3_q6, (-b3_4_5).mul_add(b3_q5, b3_r4))),
        ),
    ) / b3_4_4;
    let b3_q3 = (-b3_3_8).mul_add(
        b3_q8,
        (-b3_3_7).mul_add(
            b3_q7,
            (-b3_3_6).mul_add(b3_q6, (-b3_3_5).mul_add(b3_q5, (-b3_3_4).mul_add(b3_q4, b3_r3))),
        ),
    ) / b3_3_3;
    let b3_q2 = (-b3_2_7)
        .mul_add(b3_q7, (-b3_2_6).mul_add(b3_q6, (-b3_2_5).mul_add(b3_q5, (-b3_2_3).mul_add(b3_q3, b3_r2))))
        / b3_2_2;
    let b3_q1 = (-b3_1_6).mul_add(b3_q6, (-b3_1_5).mul_add(b3_q5, (-b3_1_2).mul_add(b3_q2, b3_r1))) / b3_1_1;
    let b3_q0 = (-b3_0_5).mul_add(b3_q5, (-b3_0_1).mul_add(b3_q1, b3_r0)) / b3_0_0;
    let C0Kv14__next = C0Kv14 + n(0.7071067811865476).mul_add(b3_k0, n(0.2928932188134524) * b3_q0);
    let C1Kv14__next = C1Kv14 + n(0.7071067811865476).mul_add(b3_k1, n(0.2928932188134524) * b3_q1);
    let C2Kv14__next = C2Kv14 + n(0.7071067811865476).mul_add(b3_k2, n(0.2928932188134524) * b3_q2);
    let C3Kv14__next = C3Kv14 + n(0.7071067811865476).mul_add(b3_k3, n(0.2928932188134524) * b3_q3);
    let OKv14__next = OKv14 + n(0.7071067811865476).mul_add(b3_k4, n(0.2928932188134524) * b3_q4);
    let CI0Kv14__next = CI0Kv14 + n(0.7071067811865476).mul_add(b3_k5, n(0.2928932188134524) * b3_q5);
    let CI1Kv14__next = CI1Kv14 + n(0.7071067811865476).mul_add(b3_k6, n(0.2928932188134524) * b3_q6);
    let CI2Kv14__next = CI2Kv14 + n(0.7071067811865476).mul_add(b3_k7, n(0.2928932188134524) * b3_q7);
    let CI3Kv14__next = CI3Kv14 + n(0.7071067811865476).mul_add(b3_k8, n(0.2928932188134524) * b3_q8);
    let OIKv14__next = OIKv14 + n(0.7071067811865476).mul_add(b3_k9, n(0.2928932188134524) * b3_q9);
    let C0Kv14__next = conserved(
        C0Kv14__next,
        n(1.0000000410415701)
            - (C1Kv14__next
                + C2Kv14__next
                + C3Kv14__next
                + OKv14__next
                + CI0Kv14__next
                + CI1Kv14__next
                + CI2Kv14__next
                + CI3Kv14__next
                + OIKv14__next),
    );
    // Markov block 4: two-stage SDIRK, (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1.
    let b4_gdt = n(0.2928932188134524) * dt;
    let b4_0_0 = (-b4_gdt).mul_add(s__108, n(1.0));
    let b4_0_1 = -(b4_gdt * k21);
    let b4_0_7 = -(b4_gdt * c.k81);
    let b4_f0 = dt * na1__dt;
    let b4_r0 = b4_f0;
    let b4_1_0 = -(b4_gdt * k12);
    let b4_1_1 = (-b4_gdt).mul_add((-s__109), n(1.0));
    let b4_1_2 = -(b4_gdt * k32);
    let b4_1_8 = -(b4_gdt * c.k92);
    let b4_f1 = dt * na2__dt;
    let b4_r1 = b4_f1;
    let b4_2_1 = -(b4_gdt * k23);
    let b4_2_2 = (-b4_gdt).mul_add((-s__110), n(1.0));
    let b4_2_3 = -(b4_gdt * k43);
    let b4_2_9 = -(b4_gdt * c.k103);
    let b4_f2 = dt * na3__dt;
    let b4_r2 = b4_f2;
    let b4_3_2 = -(b4_gdt * k34);
    let b4_3_3 = (-b4_gdt).mul_add((-s__111), n(1.0));
    let b4_3_4 = -(b4_gdt * k54);
    let b4_3_10 = -(b4_gdt * c.k114);
    let b4_f3 = dt * na4__dt;
    let b4_r3 = b4_f3;
    let b4_4_3 = -(b4_gdt * k45);
    let b4_4_4 = (-b4_gdt).mul_add((-s__112), n(1.0));
    let b4_4_5 = -(b4_gdt * k65);
    let b4_4_6 = -(b4_gdt * k75);
    let b4_4_11 = -(b4_gdt * c.k125);
    let b4_f4 = dt * na5__dt;
    let b4_r4 = b4_f4;
    let b4_5_4 = -(b4_gdt * k56);
    let b4_5_5 = (-b4_gdt).mul_add((-s__113), n(1.0));
    let b4_5_6 = -(b4_gdt * c.k76);
    let b4_5_12 = -(b4_gdt * k136);
    let b4_f5 = dt * na6__dt;
    let b4_r5 = b4_f5;
    let b4_6_4 = -(b4_gdt * k57);
    let b4_6_5 = -(b4_gdt * c.k67);
    let b4_6_6 = (-b4_gdt).mul_add((-s__114), n(1.0));
    let b4_f6 = dt * na7__dt;
    let b4_r6 = b4_f6;
    let b4_7_0 = -(b4_gdt * c.k18);
    let b4_7_7 = (-b4_gdt).mul_add((-s__115), n(1.0));
    let b4_7_8 = -(b4_gdt * k98);
    let b4_f7 = dt * na8__dt;
    let b4_r7 = b4_f7;
    let b4_8_1 = -(b4_gdt * c.k29);
    let b4_8_7 = -(b4_gdt * k89);
    let b4_8_8 = (-b4_gdt).mul_add((-s__116), n(1.0));
    let b4_8_9 = -(b4_gdt * k109);
    let b4_f8 = dt * na9__dt;
    let b4_r8 = b4_f8;
    let b4_9_2 = -(b4_gdt * c.k310);
    let b4_9_8 = -(b4_gdt * k910);
    let b4_9_9 = (-b4_gdt).mul_add((-s__117), n(1.0));
    let b4_9_10 = -(b4_gdt * k1110);
    let b4_f9 = dt * na10__dt;
    let b4_r9 = b4_f9;
    let b4_10_3 = -(b4_gdt * c.k411);
    let b4_10_9 = -(b4_gdt * k1011);
    let b4_10_10 = (-b4_gdt).mul_add((-s__118), n(1.0));
    let b4_10_11 = -(b4_gdt * k1211);
    let b4_f10 = dt * na11__dt;
    let b4_r10 = b4_f10;
    let b4_11_4 = -(b4_gdt * c.k512);
    let b4_11_10 = -(b4_gdt * k1112);
    let b4_11_11 = (-b4_gdt).mul_add((-s__119), n(1.0));
    let b4_11_12 = -(b4_gdt * k1312);
    let b4_f11 = dt * na12__dt;
    let b4_r11 = b4_f11;
    let b4_12_5 = -(b4_gdt * k613);
    let b4_12_11 = -(b4_gdt * k1213);
    let b4_12_12 = (-b4_gdt).mul_add((-s__120), n(1.0));
    let b4_f12 = dt * na13__dt;
    let b4_r12 = b4_f12;
    let b4_l1_0 = b4_1_0 / b4_0_0;
    let b4_1_1 = (-b4_l1_0).mul_add(b4_0_1, b4_1_1);
    let b4_1_7 = -(b4_l1_0 * b4_0_7);
    let b4_r1 = (-b4_l1_0).mul_add(b4_r0, b4_r1);
    let b4_l7_0 = b4_7_0 / b4_0_0;
    let b4_7_1 = -(b4_l7_0 * b4_0_1);
    let b4_7_7 = (-b4_l7_0).mul_add(b4_0_7, b4_7_7);
    let b4_r7 = (-b4_l7_0).mul_add(b4_r0, b4_r7);
    let b4_l2_1 = b4_2_1 / b4_1_1;
    let b4_2_2 = (-b4_l2_1).mul_add(b4_1_2, b4_2_2);
    let b4_2_7 = -(b4_l2_1 * b4_1_7);
    let b4_2_8 = -(b4_l2_1 * b4_1_8);
    let b4_r2 = (-b4_l2_1).mul_add(b4_r1, b4_r2);
    let b4_l7_1 = b4_7_1 / b4_1_1;
    let b4_7_2 = -(b4_l7_1 * b4_1_2);
    let b4_7_7 = (-b4_l7_1).mul_add(b4_1_7, b4_7_7);
    let b4_7_8 = (-b4_l7_1).mul_add(b4_1_8, b4_7_8);
    let b4_r7 = (-b4_l7_1).mul_add(b4_r1, b4_r7);
    let b4_l8_1 = b4_8_1 / b4_1_1;
    let b4_8_2 = -(b4_l8_1 * b4_1_2);
    let b4_8_7 = (-b4_l8_1).mul_add(b4_1_7, b4_8_7);
    let b4_8_8 = (-b4_l8_1).mul_add(b4_1_8, b4_8_8);
    let b4_r8 = (-b4_l8_1).mul_add(b4_r1, b4_r8);
    let b4_l3_2 = b4_3_2 / b4_2_2;
    let b4_3_3 = (-b4_l3_2).mul_add(b4_2_3, b4_3_3);
    let b4_3_7 = -(b4_l3_2 * b4_2_7);
    let b4_3_8 = -(b4_l3_2 * b4_2_8);
    let b4_3_9 = -(b4_l3_2 * b4_2_9);
    let b4_r3 = (-b4_l3_2).mul_add(b4_r2, b4_r3);
    let b4_l7_2 = b4_7_2 / b4_2_2;
    let b4_7_3 = -(b4_l7_2 * b4_2_3);
    let b4_7_7 = (-b4_l7_2).mul_add(b4_2_7, b4_7_7);
    let b4_7_8 = (-b4_l7_2).mul_add(b4_2_8, b4_7_8);
    let b4_7_9 = -(b4_l7_2 * b4_2_9);
    let b4_r7 = (-b4_l7_2).mul_add(b4_r2, b4_r7);
    let b4_l8_2 = b4_8_2 / b4_2_2;
    let b4_8_3 = -(b4_l8_2 * b4_2_3);
    let b4_8_7 = (-b4_l8_2).mul_add(b4_2_7, b4_8_7);
    let b4_8_8 = (-b4_l8_2).mul_add(b4_2_8, b4_8_8);
    let b4_8_9 = (-b4_l8_2).mul_add(b4_2_9, b4_8_9);
    let b4_r8 = (-b4_l8_2).mul_add(b4_r2, b4_r8);
    let b4_l9_2 = b4_9_2 / b4_2_2;
    let b4_9_3 = -(b4_l9_2 * b4_2_3);
    let b4_9_7 = -(b4_l9_2 * b4_2_7);
    let b4_9_8 = (-b4_l9_2).mul_add(b4_2_8, b4_9_8);
    let b4_9_9 = (-b4_l9_2).mul_add(b4_2_9, b4_9_9);
    let b4_r9 = (-b4_l9_2).mul_add(b4_r2, b4_r9);
    let b4_l4_3 = b4_4_3 / b4_3_3;
    let b4_4_4 = (-b4_l4_3).mul_add(b4_3_4, b4_4_4);
    let b4_4_7 = -(b4_l4_3 * b4_3_7);
    let b4_4_8 = -(b4_l4_3 * b4_3_8);
    let b4_4_9 = -(b4_l4_3 * b4_3_9);
    let b4_4_10 = -(b4_l4_3 * b4_3_10);
    let b4_r4 = (-b4_l4_3).mul_add(b4_r3, b4_r4);
    let b4_l7_3 = b4_7_3 / b4_3_3;
    let b4_7_4 = -(b4_l7_3 * b4_3_4);
    let b4_7_7 = (-b4_l7_3).mul_add(b4_3_7, b4_7_7);
    let b4_7_8 = (-b4_l7_3).mul_add(b4_3_8, b4_7_8);
    let b4_7_9 = (-b4_l7_3).mul_add(b4_3_9, b4_7_9);
    let b4_7_10 = -(b4_l7_3 * b4_3_10);
    let b4_r7 = (-b4_l7_3).mul_add(b4_r3, b4_r7);
    let b4_l8_3 = b4_8_3 / b4_3_3;
    let b4_8_4 = -(b4_l8_3 * b4_3_4);
    let b4_8_7 = (-b4_l8_3).mul_add(b4_3_7, b4_8_7);
    let b4_8_8 = (-b4_l8_3).mul_add(b4_3_8, b4_8_8);
    let b4_8_9 = (-b4_l8_3).mul_add(b4_3_9, b4_8_9);
    let b4_8_10 = -(b4_l8_3 * b4_3_10);
    let b4_r8 = (-b4_l8_3).mul_add(b4_r3, b4_r8);
    let b4_l9_3 = b4_9_3 / b4_3_3;
    let b4_9_4 = -(b4_l9_3 * b4_3_4);
    let b4_9_7 = (-b4_l9_3).mul_add(b4_3_7, b4_9_7);
    let b4_9_8 = (-b4_l9_3).mul_add(b4_3_8, b4_9_8);
    let b4_9_9 = (-b4_l9_3).mul_add(b4_3_9, b4_9_9);
    let b4_9_10 = (-b4_l9_3).mul_add(b4_3_10, b4_9_10);
    let b4_r9 = (-b4_l9_3).mul_add(b4_r3, b4_r9);
    let b4_l10_3 = b4_10_3 / b4_3_3;
    let b4_10_4 = -(b4_l10_3 * b4_3_4);
    let b4_10_7 = -(b4_l10_3 * b4_3_7);
    let b4_10_8 = -(b4_l10_3 * b4_3_8);
    let b4_10_9 = (-b4_l10_3).mul_add(b4_3_9, b4_10_9);
    let b4_10_10 = (-b4_l10_3).mul_add(b4_3_10, b4_10_10);
    let b4_r10 = (-b4_l10_3).mul_add(b4_r3, b4_r10);
    let b4_l5_4 = b4_5_4 / b4_4_4;
    let b4_5_5 = (-b4_l5_4).mul_add(b4_4_5, b4_5_5);
    let b4_5_6 = (-b4_l5_4).mul_add(b4_4_6, b4_5_6);
    let b4_5_7 = -(b4_l5_4 * b4_4_7);
    let b4_5_8 = -(b4_l5_4 * b4_4_8);
    let b4_5_9 = -(b4_l5_4 * b4_4_9);
    let b4_5_10 = -(b4_l5_4 * b4_4_10);
    let b4_5_11 = -(b4_l5_4 * b4_4_11);
    let b4_r5 = (-b4_l5_4).mul_add(b4_r4, b4_r5);
    let b4_l6_4 = b4_6_4 / b4_4_4;
    let b4_6_5 = (-b4_l6_4).mul_add(b4_4_5, b4_6_5);
    let b4_6_6 = (-b4_l6_4).mul_add(b4_4_6, b4_6_6);
    let b4_6_7 = -(b4_l6_4 * b4_4_7);
    let b4_6_8 = -(b4_l6_4 * b4_4_8);
    let b4_6_9 = -(b4_l6_4 * b4_4_9);
    let b4_6_10 = -(b4_l6_4 * b4_4_10);
    let b4_6_11 = -(b4_l6_4 * b4_4_11);
    let b4_r6 = (-b4_l6_4).mul_add(b4_r4, b4_r6);
    let b4_l7_4 = b4_7_4 / b4_4_4;
    let b4_7_5 = -(b4_l7_4 * b4_4_5);
    let b4_7_6 = -(b4_l7_4 * b4_4_6);
    let b4_7_7 = (-b4_l7_4).mul_add(b4_4_7, b4_7_7);
    let b4_7_8 = (-b4_l7_4).mul_add(b4_4_8, b4_7_8);
    let b4_7_9 = (-b4_l7_4).mul_add(b4_4_9, b4_7_9);
    let b4_7_10 = (-b4_l7_4).mul_add(b4_4_10, b4_7_10);
    let b4_7_11 = -(b4_l7_4 * b4_4_11);
    let b4_r7 = (-b4_l7_4).mul_add(b4_r4, b4_r7);
    let b4_l8_4 = b4_8_4 / b4_4_4;
    let b4_8_5 = -(b4_l8_4 * b4_4_5);
    let b4_8_6 = -(b4_l8_4 * b4_4_6);
    let b4_8_7 = (-b4_l8_4).mul_add(b4_4_7, b4_8_7);
    let b4_8_8 = (-b4_l8_4).mul_add(b4_4_8, b4_8_8);
    let b4_8_9 = (-b4_l8_4).mul_add(b4_4_9, b4_8_9);
    let b4_8_10 = (-b4_l8_4).mul_add(b4_4_10, b4_8_10);
    let b4_8_11 = -(b4_l8_4 * b4_4_11);
    let b4_r8 = (-b4_l8_4).mul_add(b4_r4, b4_r8);
    let b4_l9_4 = b4_9_4 / b4_4_4;
    let b4_9_5 = -(b4_l9_4 * b4_4_5);
    let b4_9_6 = -(b4_l9_4 * b4_4_6);
    let b4_9_7 = (-b4_l9_4).mul_add(b4_4_7, b4_9_7);
    let b4_9_8 = (-b4_l9_4).mul_add(b4_4_8, b4_9_8);
    let b4_9_9 = (-b4_l9_4).mul_add(b4_4_9, b4_9_9);
    let b4_9_10 = (-b4_l9_4).mul_add(b4_4_10, b4_9_10);
    let b4_9_11 = -(b4_l9_4 * b4_4_11);
    let b4_r9 = (-b4_l9_4).mul_add(b4_r4, b4_r9);
    let b4_l10_4 = b4_10_4 / b4_4_4;
    let b4_10_5 = -(b4_l10_4 * b4_4_5);
    let b4_10_6 = -(b4_l10_4 * b4_4_6);
    let b4_10_7 = (-b4_l10_4).mul_add(b4_4_7, b4_10_7);
    let b4_10_8 = (-b4_l10_4).mul_add(b4_4_8, b4_10_8);
    let b4_10_9 = (-b4_l10_4).mul_add(b4_4_9, b4_10_9);
    let b4_10_10 = (-b4_l10_4).mul_add(b4_4_10, b4_10_10);
    let b4_10_11 = (-b4_l10_4).mul_add(b4_4_11, b4_10_11);
    let b4_r10 = (-b4_l10_4).mul_add(b4_r4, b4_r10);
    let b4_l11_4 = b4_11_4 / b4_4_4;
    let b4_11_5 = -(b4_l11_4 * b4_4_5);
    let b4_11_6 = -(b4_l11_4 * b4_4_6);
    let b4_11_7 = -(b4_l11_4 * b4_4_7);
    let b4_11_8 = -(b4_l11_4 * b4_4_8);
    let b4_11_9 = -(b4_l11_4 * b4_4_9);
    let b4_11_10 = (-b4_l11_4).mul_add(b4_4_10, b4_11_10);
    let b4_11_11 = (-b4_l11_4).mul_add(b4_4_11, b4_11_11);
    let b4_r11 = (-b4_l11_4).mul_add(b4_r4, b4_r11);
    let b4_l6_5 = b4_6_5 / b4_5_5;
    let b4_6_6 = (-b4_l6_5).mul_add(b4_5_6, b4_6_6);
    let b4_6_7 = (-b4_l6_5).mul_add(b4_5_7, b4_6_7);
    let b4_6_8 = (-b4_l6_5).mul_add(b4_5_8, b4_6_8);
    let b4_6_9 = (-b4_l6_5).mul_add(b4_5_9, b4_6_9);
    let b4_6_10 = (-b4_l6_5).mul_add(b4_5_10, b4_6_10);
    let b4_6_11 = (-b4_l6_5).mul_add(b4_5_11, b4_6_11);
    let b4_6_12 = -(b4_l6_5 * b4_5_12);
    let b4_r6 = (-b4_l6_5).mul_add(b4_r5, b4_r6);
    let b4_l7_5 = b4_7_5 / b4_5_5;
    let b4_7_6 = (-b4_l7_5).mul_add(b4_5_6, b4_7_6);
    let b4_7_7 = (-b4_l7_5).mul_add(b4_5_7, b4_7_7);
    let b4_7_8 = (-b4_l7_5).mul_add(b4_5_8, b4_7_8);
    let b4_7_9 = (-b4_l7_5).mul_add(b4_5_9, b4_7_9);
    let b4_7_10 = (-b4_l7_5).mul_add(b4_5_10, b4_7_10);
    let b4_7_11 = (-b4_l7_5).mul_add(b4_5_11, b4_7_11);
    let b4_7_12 = -(b4_l7_5 * b4_5_12);
    let b4_r7 = (-b4_l7_5).mul_add(b4_r5, b4_r7);
    let b4_l8_5 = b4_8_5 / b4_5_5;
    let b4_8_6 = (-b4_l8_5).mul_add(b4_5_6, b4_8_6);
    let b4_8_7 = (-b4_l8_5).mul_add(b4_5_7, b4_8_7);
    let b4_8_8 = (-b4_l8_5).mul_add(b4_5_8, b4_8_8);
    let b4_8_9 = (-b4_l8_5).mul_add(b4_5_9, b4_8_9);
    let b4_8_10 = (-b4_l8_5).mul_add(b4_5_10, b4_8_10);
    let b4_8_11 = (-b4_l8_5).mul_add(b4_5_11, b4_8_11);
    let b4_8_12 = -(b4_l8_5 * b4_5_12);
    let b4_r8 = (-b4_l8_5).mul_add(b4_r5, b4_r8);
    let b4_l9_5 = b4_9_5 / b4_5_5;
    let b4_9_6 = (-b4_l9_5).mul_add(b4_5_6, b4_9_6);
    let b4_9_7 = (-b4_l9_5).mul_add(b4_5_7, b4_9_7);
    let b4_9_8 = (-b4_l9_5).mul_add(b4_5_8, b4_9_8);
    let b4_9_9 = (-b4_l9_5).mul_add(b4_5_9, b4_9_9);
    let b4_9_10 = (-b4_l9_5).mul_add(b4_5_10, b4_9_10);
    let b4_9_11 = (-b4_l9_5).mul_add(b4_5_11, b4_9_11);
    let b4_9_12 = -(b4_l9_5 * b4_5_12);
    let b4_r9 = (-b4_l9_5).mul_add(b4_r5, b4_r9);
    let b4_l10_5 = b4_10_5 / b4_5_5;
    let b4_10_6 = (-b4_l10_5).mul_add(b4_5_6, b4_10_6);
    let b4_10_7 = (-b4_l10_5).mul_add(b4_5_7, b4_10_7);
    let b4_10_8 = (-b4_l10_5).mul_add(b4_5_8, b4_10_8);
    let b4_10_9 = (-b4_l10_5).mul_add(b4_5_9, b4_10_9);
    let b4_10_10 = (-b4_l10_5).mul_add(b4_5_10, b4_10_10);
    let b4_10_11 = (-b4_l10_5).mul_add(b4_5_11, b4_10_11);
    let b4_10_12 = -(b4_l10_5 * b4_5_12);
    let b4_r10 = (-b4_l10_5).mul_add(b4_r5, b4_r10);
    let b4_l11_5 = b4_11_5 / b4_5_5;
    let b4_11_6 = (-b4_l11_5).mul_add(b4_5_6, b4_11_6);
    let b4_11_7 = (-b4_l11_5).mul_add(b4_5_7, b4_11_7);
    let b4_11_8 = (-b4_l11_5).mul_add(b4_5_8, b4_11_8);
    let b4_11_9 = (-b4_l11_5).mul_add(b4_5_9, b4_11_9);
    let b4_11_10 = (-b4_l11_5).mul_add(b4_5_10, b4_11_10);
    let b4_11_11 = (-b4_l11_5).mul_add(b4_5_11, b4_11_11);
    let b4_11_12 = (-b4_l11_5).mul_add(b4_5_12, b4_11_12);
    let b4_r11 = (-b4_l11_5).mul_add(b4_r5, b4_r11);
    let b4_l12_5 = b4_12_5 / b4_5_5;
    let b4_12_6 = -(b4_l12_5 * b4_5_6);
    let b4_12_7 = -(b4_l12_5 * b4_5_7);
    let b4_12_8 = -(b4_l12_5 * b4_5_8);
    let b4_12_9 = -(b4_l12_5 * b4_5_9);
    let b4_12_10 = -(b4_l12_5 * b4_5_10);
    let b4_12_11 = (-b4_l12_5).mul_add(b4_5_11, b4_12_11);
    let b4_12_12 = (-b4_l12_5).mul_add(b4_5_12, b4_12_12);
    let b4_r12 = (-b4_l12_5).mul_add(b4_r5, b4_r12);
    let b4_l7_6 = b4_7_6 / b4_6_6;
    let b4_7_7 = (-b4_l7_6).mul_add(b4_6_7, b4_7_7);
    let b4_7_8 = (-b4_l7_6).mul_add(b4_6_8, b4_7_8);
    let b4_7_9 = (-b4_l7_6).mul_add(b4_6_9, b4_7_9);
    let b4_7_10 = (-b4_l7_6).mul_add(b4_6_10, b4_7_10);
    let b4_7_11 = (-b4_l7_6).mul_add(b4_6_11, b4_7_11);
    let b4_7_12 = (-b4_l7_6).mul_add(b4_6_12, b4_7_12);
    let b4_r7 = (-b4_l7_6).mul_add(b4_r6, b4_r7);
    let b4_l8_6 = b4_8_6 / b4_6_6;
    let b4_8_7 = (-b4_l8_6).mul_add(b4_6_7, b4_8_7);
    let b4_8_8 = (-b4_l8_6).mul_add(b4_6_8, b4_8_8);
    let b4_8_9 = (-b4_l8_6).mul_add(b4_6_9, b4_8_9);
    let b4_8_10 = (-b4_l8_6).mul_add(b4_6_10, b4_8_10);
    let b4_8_11 = (-b4_l8_6).mul_add(b4_6_11, b4_8_11);
    let b4_8_12 = (-b4_l8_6).mul_add(b4_6_12, b4_8_12);
    let b4_r8 = (-b4_l8_6).mul_add(b4_r6, b4_r8);
    let b4_l9_6 = b4_9_6 / b4_6_6;
    let b4_9_7 = (-b4_l9_6).mul_add(b4_6_7, b4_9_7);
    let b4_9_8 = (-b4_l9_6).mul_add(b4_6_8, b4_9_8);
    let b4_9_9 = (-b4_l9_6).mul_add(b4_6_9, b4_9_9);
    let b4_9_10 = (-b4_l9_6).mul_add(b4_6_10, b4_9_10);
    let b4_9_11 = (-b4_l9_6).mul_add(b4_6_11, b4_9_11);
    let b4_9_12 = (-b4_l9_6).mul_add(b4_6_12, b4_9_12);
    let b4_r9 = (-b4_l9_6).mul_add(b4_r6, b4_r9);
    let b4_l10_6 = b4_10_6 / b4_6_6;
    let b4_10_7 = (-b4_l10_6).mul_add(b4_6_7, b4_10_7);
    let b4_10_8 = (-b4_l10_6).mul_add(b4_6_8, b4_10_8);
    let b4_10_9 = (-b4_l10_6).mul_add(b4_6_9, b4_10_9);
    let b4_10_10 = (-b4_l10_6).mul_add(b4_6_10, b4_10_10);
    let b4_10_11 = (-b4_l10_6).mul_add(b4_6_11, b4_10_11);
    let b4_10_12 = (-b4_l10_6).mul_add(b4_6_12, b4_10_12);
    let b4_r10 = (-b4_l10_6).mul_add(b4_r6, b4_r10);
    let b4_l11_6 = b4_11_6 / b4_6_6;
    let b4_11_7 = (-b4_l11_6).mul_add(b4_6_7, b4_11_7);
    let b4_11_8 = (-b4_l11_6).mul_add(b4_6_8, b4_11_8);
    let b4_11_9 = (-b4_l11_6).mul_add(b4_6_9, b4_11_9);
    let b4_11_10 = (-b4_l11_6).mul_add(b4_6_10, b4_11_10);
    let b4_11_11 = (-b4_l11_6).mul_add(b4_6_11, b4_11_11);
    let b4_11_12 = (-b4_l11_6).mul_add(b4_6_12, b4_11_12);
    let b4_r11 = (-b4_l11_6).mul_add(b4_r6, b4_r11);
    let b4_l12_6 = b4_12_6 / b4_6_6;
    let b4_12_7 = (-b4_l12_6).mul_add(b4_6_7, b4_12_7);
    let b4_12_8 = (-b4_l12_6).mul_add(b4_6_8, b4_12_8);
    let b4_12_9 = (-b4_l12_6).mul_add(b4_6_9, b4_12_9);
    let b4_12_10 = (-b4_l12_6).mul_add(b4_6_10, b4_12_10);
    let b4_12_11 = (-b4_l12_6).mul_add(b4_6_11, b4_12_11);
    let b4_12_12 = (-b4_l12_6).mul_add(b4_6_12, b4_12_12);
    let b4_r12 = (-b4_l12_6).mul_add(b4_r6, b4_r12);
    let b4_l8_7 = b4_8_7 / b4_7_7;
    let b4_8_8 = (-b4_l8_7).mul_add(b4_7_8, b4_8_8);
    let b4_8_9 = (-b4_l8_7).mul_add(b4_7_9, b4_8_9);
    let b4_8_10 = (-b4_l8_7).mul_add(b4_7_10, b4_8_10);
    let b4_8_11 = (-b4_l8_7).mul_add(b4_7_11, b4_8_11);
    let b4_8_12 = (-b4_l8_7).mul_add(b4_7_12, b4_8_12);
    let b4_r8 = (-b4_l8_7).mul_add(b4_r7, b4_r8);
    let b4_l9_7 = b4_9_7 / b4_7_7;
    let b4_9_8 = (-b4_l9_7).mul_add(b4_7_8, b4_9_8);
    let b4_9_9 = (-b4_l9_7).mul_add(b4_7_9, b4_9_9);
    let b4_9_10 = (-b4_l9_7).mul_add(b4_7_10, b4_9_10);
    let b4_9_11 = (-b4_l9_7).mul_add(b4_7_11, b4_9_11);
    let b4_9_12 = (-b4_l9_7).mul_add(b4_7_12, b4_9_12);
    let b4_r9 = (-b4_l9_7).mul_add(b4_r7, b4_r9);
    let b4_l10_7 = b4_10_7 / b4_7_7;
    let b4_10_8 = (-b4_l10_7).mul_add(b4_7_8, b4_10_8);
    let b4_10_9 = (-b4_l10_7).mul_add(b4_7_9, b4_10_9);
    let b4_10_10 = (-b4_l10_7).mul_add(b4_7_10, b4_10_10);
    let b4_10_11 = (-b4_l10_7).mul_add(b4_7_11, b4_10_11);
    let b4_10_12 = (-b4_l10_7).mul_add(b4_7_12, b4_10_12);
    let b4_r10 = (-b4_l10_7).mul_add(b4_r7, b4_r10);
    let b4_l11_7 = b4_11_7 / b4_7_7;
    let b4_11_8 = (-b4_l11_7).mul_add(b4_7_8, b4_11_8);
    let b4_11_9 = (-b4_l11_7).mul_add(b4_7_9, b4_11_9);
    let b4_11_10 = (-b4_l11_7).mul_add(b4_7_10, b4_11_10);
    let b4_11_11 = (-b4_l11_7).mul_add(b4_7_11, b4_11_11);
    let b4_11_12 = (-b4_l11_7).mul_add(b4_7_12, b4_11_12);
    let b4_r11 = (-b4_l11_7).mul_add(b4_r7, b4_r11);
    let b4_l12_7 = b4_12_7 / b4_7_7;
    let b4_12_8 = (-b4_l12_7).mul_add(b4_7_8, b4_12_8);
    let b4_12_9 = (-b4_l12_7).mul_add(b4_7_9, b4_12_9);
    let b4_12_10 = (-b4_l12_7).mul_add(b4_7_10, b4_12_10);
    let b4_12_11 = (-b4_l12_7).mul_add(b4_7_11, b4_12_11);
    let b4_12_12 = (-b4_l12_7).mul_add(b4_7_12, b4_12_12);
    let b4_r12 = (-b4_l12_7).mul_add(b4_r7, b4_r12);
    let b4_l9_8 = b4_9_8 / b4_8_8;
    let b4_9_9 = (-b4_l9_8).mul_add(b4_8_9, b4_9_9);
    let b4_9_10 = (-b4_l9_8).mul_add(b4_8_10, b4_9_10);
    let b4_9_11 = (-b4_l9_8).mul_add(b4_8_11, b4_9_11);
    let b4_9_12 = (-b4_l9_8).mul_add(b4_8_12, b4_9_12);
    let b4_r9 = (-b4_l9_8).mul_add(b4_r8, b4_r9);
    let b4_l10_8 = b4_10_8 / b4_8_8;
    let b4_10_9 = (-b4_l10_8).mul_add(b4_8_9, b4_10_9);
    let b4_10_10 = (-b4_l10_8).mul_add(b4_8_10, b4_10_10);
    let b4_10_11 = (-b4_l10_8).mul_add(b4_8_11, b4_10_11);
    let b4_10_12 = (-b4_l10_8).mul_add(b4_8_12, b4_10_12);
    let b4_r10 = (-b4_l10_8).mul_add(b4_r8, b4_r10);
    let b4_l11_8 = b4_11_8 / b4_8_8;
    let b4_11_9 = (-b4_l11_8).mul_add(b4_8_9, b4_11_9);
    let b4_11_10 = (-b4_l11_8).mul_add(b4_8_10, b4_11_10);
    let b4_11_11 = (-b4_l11_8).mul_add(b4_8_11, b4_11_11);
    let b4_11_12 = (-b4_l11_8).mul_add(b4_8_12, b4_11_12);
    let b4_r11 = (-b4_l11_8).mul_add(b4_r8, b4_r11);
    let b4_l12_8 = b4_12_8 / b4_8_8;
    let b4_12_9 = (-b4_l12_8).mul_add(b4_8_9, b4_12_9);
    let b4_12_10 = (-b4_l12_8).mul_add(b4_8_10, b4_12_10);
    let b4_12_11 = (-b4_l12_8).mul_add(b4_8_11, b4_12_11);
    let b4_12_12 = (-b4_l12_8).mul_add(b4_8_12, b4_12_12);
    let b4_r12 = (-b4_l12_8).mul_add(b4_r8, b4_r12);
    let b4_l10_9 = b4_10_9 / b4_9_9;
    let b4_10_10 = (-b4_l10_9).mul_add(b4_9_10, b4_10_10);
    let b4_10_11 = (-b4_l10_9).mul_add(b4_9_11, b4_10_11);
    let b4_10_12 = (-b4_l10_9).mul_add(b4_9_12, b4_10_12);
    let b4_r10 = (-b4_l10_9).mul_add(b4_r9, b4_r10);
    let b4_l11_9 = b4_11_9 / b4_9_9;
    let b4_11_10 = (-b4_l11_9).mul_add(b4_9_10, b4_11_10);
    let b4_11_11 = (-b4_l11_9).mul_add(b4_9_11, b4_11_11);
    let b4_11_12 = (-b4_l11_9).mul_add(b4_9_12, b4_11_12);
    let b4_r11 = (-b4_l11_9).mul_add(b4_r9, b4_r11);
    let b4_l12_9 = b4_12_9 / b4_9_9;
    let b4_12_10 = (-b4_l12_9).mul_add(b4_9_10, b4_12_10);
    let b4_12_11 = (-b4_l12_9).mul_add(b4_9_11, b4_12_11);
    let b4_12_12 = (-b4_l12_9).mul_add(b4_9_12, b4_12_12);
    let b4_r12 = (-b4_l12_9).mul_add(b4_r9, b4_r12);
    let b4_l11_10 = b4_11_10 / b4_10_10;
    let b4_11_11 = (-b4_l11_10).mul_add(b4_10_11, b4_11_11);
    let b4_11_12 = (-b4_l11_10).mul_add(b4_10_12, b4_11_12);
    let b4_r11 = (-b4_l11_10).mul_add(b4_r10, b4_r11);
    let b4_l12_10 = b4_12_10 / b4_10_10;
    let b4_12_11 = (-b4_l12_10).mul_add(b4_10_11, b4_12_11);
    let b4_12_12 = (-b4_l12_10).mul_add(b4_10_12, b4_12_12);
    let b4_r12 = (-b4_l12_10).mul_add(b4_r10, b4_r12);
    let b4_l12_11 = b4_12_11 / b4_11_11;
    let b4_12_12 = (-b4_l12_11).mul_add(b4_11_12, b4_12_12);
    let b4_r12 = (-b4_l12_11).mul_add(b4_r11, b4_r12);
    let b4_k12 = b4_r12 / b4_12_12;
    let b4_k11 = (-b4_11_12).mul_add(b4_k12, b4_r11) / b4_11_11;
    let b4_k10 = (-b4_10_12).mul_add(b4_k12, (-b4_10_11).mul_add(b4_k11, b4_r10)) / b4_10_10;
    let b4_k9 =
        (-b4_9_12).mul_add(b4_k12, (-b4_9_11).mul_add(b4_k11, (-b4_9_10).mul_add(b4_k10, b4_r9))) / b4_9_9;
    let b4_k8 = (-b4_8_12).mul_add(
        b4_k12,
        (-b4_8_11).mul_add(b4_k11, (-b4_8_10).mul_add(b4_k10, (-b4_8_9).mul_add(b4_k9, b4_r8))),
    ) / b4_8_8;
    let b4_k7 = (-b4_7_12).mul_add(
        b4_k12,
        (-b4_7_11).mul_add(
            b4_k11,
            (-b4_7_10).mul_add(b4_k10, (-b4_7_9).mul_add(b4_k9, (-b4_7_8).mul_add(b4_k8, b4_r7))),
        ),
    ) / b4_7_7;
    let b4_k6 = (-b4_6_12).mul_add(
        b4_k12,
        (-b4_6_11).mul_add(
            b4_k11,
            (-b4_6_10).mul_add(
                b4_k10,
                (-b4_6_9).mul_add(b4_k9, (-b4_6_8).mul_add(b4_k8, (-b4_6_7).mul_add(b4_k7, b4_r6))),
            ),
        ),
    ) / b4_6_6;
    let b4_k5 = (-b4_5_12).mul_add(
        b4_k12,
        (-b4_5_11).mul_add(
            b4_k11,
            (-b4_5_10).mul_add(
                b4_k10,
                (-b4_5_9).mul_add(
                    b4_k9,
                    (-b4_5_8).mul_add(b4_k8, (-b4_5_7).mul_add(b4_k7, (-b4_5_6).mul_add(b4_k6, b4_r5))),
                ),
            ),
        ),
    ) / b4_5_5;
    let b4_k4 = (-b4_4_11).mul_add(
        b4_k11,
        (-b4_4_10).mul_add(
            b4_k10,
            (-b4_4_9).mul_add(
                b4_k9,
                (-b4_4_8).mul_add(
                    b4_k8,
                    (-b4_4_7).mul_add(b4_k7, (-b4_4_6).mul_add(b4_k6, (-b4_4_5).mul_add(b4_k5, b4_r4))),
                ),
            ),
        ),
    ) / b4_4_4;
    let b4_k3 = (-b4_3_10).mul_add(
        b4_k10,
        (-b4_3_9).mul_add(
            b4_k9,
            (-b4_3_8).mul_add(b4_k8, (-b4_3_7).mul_add(b4_k7, (-b4_3_4).mul_add(b4_k4, b4_r3))),
        ),
    ) / b4_3_3;
    let b4_k2 = (-b4_2_9)
        .mul_add(b4_k9, (-b4_2_8).mul_add(b4_k8, (-b4_2_7).mul_add(b4_k7, (-b4_2_3).mul_add(b4_k3, b4_r2))))
        / b4_2_2;
    let b4_k1 = (-b4_1_8).mul_add(b4_k8, (-b4_1_7).mul_add(b4_k7, (-b4_1_2).mul_add(b4_k2, b4_r1))) / b4_1_1;
    let b4_k0 = (-b4_0_7).mul_add(b4_k7, (-b4_0_1).mul_add(b4_k1, b4_r0)) / b4_0_0;
    let b4_r0 = n(2.414213562373095).mul_add(b4_k0, n(-1.4142135623730951) * b4_f0);
    let b4_r1 = n(2.414213562373095).mul_add(b4_k1, n(-1.4142135623730951) * b4_f1);
    let b4_r2 = n(2.414213562373095).mul_add(b4_k2, n(-1.4142135623730951) * b4_f2);
    let b4_r3 = n(2.414213562373095).mul_add(b4_k3, n(-1.4142135623730951) * b4_f3);
    let b4_r4 = n(2.414213562373095).mul_add(b4_k4, n(-1.4142135623730951) * b4_f4);
    let b4_r5 = n(2.414213562373095).mul_add(b4_k5, n(-1.4142135623730951) * b4_f5);
    let b4_r6 = n(2.414213562373095).mul_add(b4_k6, n(-1.4142135623730951) * b4_f6);
    let b4_r7 = n(2.414213562373095).mul_add(b4_k7, n(-1.4142135623730951) * b4_f7);
    let b4_r8 = n(2.414213562373095).mul_add(b4_k8, n(-1.4142135623730951) * b4_f8);
    let b4_r9 = n(2.414213562373095).mul_add(b4_k9, n(-1.4142135623730951) * b4_f9);
    let b4_r10 = n(2.414213562373095).mul_add(b4_k10, n(-1.4142135623730951) * b4_f10);
    let b4_r11 = n(2.414213562373095).mul_add(b4_k11, n(-1.4142135623730951) * b4_f11);
    let b4_r12 = n(2.414213562373095).mul_add(b4_k12, n(-1.4142135623730951) * b4_f12);
    let b4_r1 = (-b4_l1_0).mul_add(b4_r0, b4_r1);
    let b4_r7 = (-b4_l7_0).mul_add(b4_r0, b4_r7);
    let b4_r2 = (-b4_l2_1).mul_add(b4_r1, b4_r2);
    let b4_r7 = (-b4_l7_1).mul_add(b4_r1, b4_r7);
    let b4_r8 = (-b4_l8_1).mul_add(b4_r1, b4_r8);
    let b4_r3 = (-b4_l3_2).mul_add(b4_r2, b4_r3);
    let b4_r7 = (-b4_l7_2).mul_add(b4_r2, b4_r7);
    let b4_r8 = (-b4_l8_2).mul_add(b4_r2, b4_r8);
    let b4_r9 = (-b4_l9_2).mul_add(b4_r2, b4_r9);
    let b4_r4 = (-b4_l4_3).mul_add(b4_r3, b4_r4);
    let b4_r7 = (-b4_l7_3).mul_add(b4_r3, b4_r7);
    let b4_r8 = (-b4_l8_3).mul_add(b4_r3, b4_r8);
    let b4_r9 = (-b4_l9_3).mul_add(b4_r3, b4_r9);
    let b4_r10 = (-b4_l10_3).mul_add(b4_r3, b4_r10);
    let b4_r5 = (-b4_l5_4).mul_add(b4_r4, b4_r5);
    let b4_r6 = (-b4_l6_4).mul_add(b4_r4, b4_r6);
    let b4_r7 = (-b4_l7_4).mul_add(b4_r4, b4_r7);
    let b4_r8 = (-b4_l8_4).mul_add(b4_r4, b4_r8);
    let b4_r9 = (-b4_l9_4).mul_add(b4_r4, b4_r9);
    let b4_r10 = (-b4_l10_4).mul_add(b4_r4, b4_r10);
    let b4_r11 = (-b4_l11_4).mul_add(b4_r4, b4_r11);
    let b4_r6 = (-b4_l6_5).mul_add(b4_r5, b4_r6);
    let b4_r7 = (-b4_l7_5).mul_add(b4_r5, b4_r7);
    let b4_r8 = (-b4_l8_5).mul_add(b4_r5, b4_r8);
    let b4_r9 = (-b4_l9_5).mul_add(b4_r5, b4_r9);
    let b4_r10 = (-b4_l10_5).mul_add(b4_r5, b4_r10);
    let b4_r11 = (-b4_l11_5).mul_add(b4_r5, b4_r11);
    let b4_r12 = (-b4_l12_5).mul_add(b4_r5, b4_r12);
    let b4_r7 = (-b4_l7_6).mul_add(b4_r6, b4_r7);
    let b4_r8 = (-b4_l8_6).mul_add(b4_r6, b4_r8);
    let b4_r9 = (-b4_l9_6).mul_add(b4_r6, b4_r9);
    let b4_r10 = (-b4_l10_6).mul_add(b4_r6, b4_r10);
    let b4_r11 = (-b4_l11_6).mul_add(b4_r6, b4_r11);
    let b4_r12 = (-b4_l12_6).mul_add(b4_r6, b4_r12);
    let b4_r8 = (-b4_l8_7).mul_add(b4_r7, b4_r8);
    let b4_r9 = (-b4_l9_7).mul_add(b4_r7, b4_r9);
    let b4_r10 = (-b4_l10_7).mul_add(b4_r7, b4_r10);
    let b4_r11 = (-b4_l11_7).mul_add(b4_r7, b4_r11);
    let b4_r12 = (-b4_l12_7).mul_add(b4_r7, b4_r12);
    let b4_r9 = (-b4_l9_8).mul_add(b4_r8, b4_r9);
    let b4_r10 = (-b4_l10_8).mul_add(b4_r8, b4_r10);
    let b4_r11 = (-b4_l11_8).mul_add(b4_r8, b4_r11);
    let b4_r12 = (-b4_l12_8).mul_add(b4_r8, b4_r12);
    let b4_r10 = (-b4_l10_9).mul_add(b4_r9, b4_r10);
    let b4_r11 = (-b4_l11_9).mul_add(b4_r9, b4_r11);
    let b4_r12 = (-b4_l12_9).mul_add(b4_r9, b4_r12);
    let b4_r11 = (-b4_l11_10).mul_add(b4_r10, b4_r11);
    let b4_r12 = (-b4_l12_10).mul_add(b4_r10, b4_r12);
    let b4_r12 = (-b4_l12_11).mul_add(b4_r11, b4_r12);
    let b4_q12 = b4_r12 / b4_12_12;
    let b4_q11 = (-b4_11_12).mul_add(b4_q12, b4_r11) / b4_11_11;
    let b4_q10 = (-b4_10_12).mul_add(b4_q12, (-b4_10_11).mul_add(b4_q11, b4_r10)) / b4_10_10;
    let b4_q9 =
        (-b4_9_12).mul_add(b4_q12, (-b4_9_11).mul_add(b4_q11, (-b4_9_10).mul_add(b4_q10, b4_r9))) / b4_9_9;
    let b4_q8 = (-b4_8_12).mul_add(
        b4_q12,
        (-b4_8_11).mul_add(b4_q11, (-b4_8_10).mul_add(b4_q10, (-b4_8_9).mul_add(b4_q9, b4_r8))),
    ) / b4_8_8;
    let b4_q7 = (-b4_7_12).mul_add(
        b4_q12,
        (-b4_7_11).mul_add(
            b4_q11,
            (-b4_7_10).mul_add(b4_q10, (-b4_7_9).mul_add(b4_q9, (-b4_7_8).mul_add(b4_q8, b4_r7))),
        ),
    ) / b4_7_7;
    let b4_q6 = (-b4_6_12).mul_add(
        b4_q12,
        (-b4_6_11).mul_add(
            b4_q11,
            (-b4_6_10).mul_add(
                b4_q10,
                (-b4_6_9).mul_add(b4_q9, (-b4_6_8).mul_add(b4_q8, (-b4_6_7).mul_add(b4_q7, b4_r6))),
            ),
        ),
    ) / b4_6_6;
    let b4_q5 = (-b4_5_12).mul_add(
        b4_q12,
        (-b4_5_11).mul_add(
            b4_q11,
            (-b4_5_10).mul_add(
                b4_q10,
                (-b4_5_9).mul_add(
                    b4_q9,
                    (-b4_5_8).mul_add(b4_q8, (-b4_5_7).mul_add(b4_q7, (-b4_5_6).mul_add(b4_q6, b4_r5))),
                ),
            ),
        ),
    ) / b4_5_5;
    let b4_q4 = (-b4_4_11).mul_add(
        b4_q11,
        (-b4_4_10).mul_add(
            b4_q10,
            (-b4_4_9).mul_add(
                b4_q9,
                (-b4_4_8).mul_add(
                    b4_q8,
                    (-b4_4_7).mul_add(b4_q7, (-b4_4_6).mul_add(b4_q6, (-b4_4_5).mul_add(b4_q5, b4_r4))),
                ),
            ),
        ),
    ) / b4_4_4;
    let b4_q3 = (-b4_3_10).mul_add(
        b4_q10,
        (-b4_3_9).mul_add(
            b4_q9,
            (-b4_3_8).mul_add(b4_q8, (-b4_3_7).mul_add(b4_q7, (-b4_3_4).mul_add(b4_q4, b4_r3))),
        ),
    ) / b4_3_3;
    let b4_q2 = (-b4_2_9)
        .mul_add(b4_q9, (-b4_2_8).mul_add(b4_q8, (-b4_2_7).mul_add(b4_q7, (-b4_2_3).mul_add(b4_q3, b4_r2))))
        / b4_2_2;
    let b4_q1 = (-b4_1_8).mul_add(b4_q8, (-b4_1_7).mul_add(b4_q7, (-b4_1_2).mul_add(b4_q2, b4_r1))) / b4_1_1;
    let b4_q0 = (-b4_0_7).mul_add(b4_q7, (-b4_0_1).mul_add(b4_q1, b4_r0)) / b4_0_0;
    let na1__next = na1 + n(0.7071067811865476).mul_add(b4_k0, n(0.2928932188134524) * b4_q0);
    let na2__next = na2 + n(0.7071067811865476).mul_add(b4_k1, n(0.2928932188134524) * b4_q1);
    let na3__next = na3 + n(0.7071067811865476).mul_add(b4_k2, n(0.2928932188134524) * b4_q2);
    let na4__next = na4 + n(0.7071067811865476).mul_add(b4_k3, n(0.2928932188134524) * b4_q3);
    let na5__next = na5 + n(0.7071067811865476).mul_add(b4_k4, n(0.2928932188134524) * b4_q4);
    let na6__next = na6 + n(0.7071067811865476).mul_add(b4_k5, n(0.2928932188134524) * b4_q5);
    let na7__next = na7 + n(0.7071067811865476).mul_add(b4_k6, n(0.2928932188134524) * b4_q6);
    let na8__next = na8 + n(0.7071067811865476).mul_add(b4_k7, n(0.2928932188134524) * b4_q7);
    let na9__next = na9 + n(0.7071067811865476).mul_add(b4_k8, n(0.2928932188134524) * b4_q8);
    let na10__next = na10 + n(0.7071067811865476).mul_add(b4_k9, n(0.2928932188134524) * b4_q9);
    let na11__next = na11 + n(0.7071067811865476).mul_add(b4_k10, n(0.2928932188134524) * b4_q10);
    let na12__next = na12 + n(0.7071067811865476).mul_add(b4_k11, n(0.2928932188134524) * b4_q11);
    let na13__next = na13 + n(0.7071067811865476).mul_add(b4_k12, n(0.2928932188134524) * b4_q12);
    let na8__next = conserved(
        na8__next,
        n(0.999999998871266)
            - (na1__next
                + na2__next
                + na3__next
                + na4__next
                + na5__next
                + na6__next
                + na7__next
                + na9__next
                + na10__next
                + na11__next
                + na12__next
                + na13__next),
    );
    // Markov block 5: two-stage SDIRK, (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1.
    let b5_gdt = n(0.2928932188134524) * dt;
    let b5_0_0 = (-b5_gdt).mul_add((-C1H_to_C2H), n(1.0));
    let b5_0_1 = -(b5_gdt * C2H_to_C1H);
    let b5_f0 = dt * C1Herg__dt;
    let b5_r0 = b5_f0;
    let b5_1_0 = -(b5_gdt * C1H_to_C2H);
    let b5_1_1 = (-b5_gdt).mul_add((-s__88), n(1.0));
    let b5_1_2 = -(b5_gdt * c.C3H_to_C2H);
    let b5_f1 = dt * C2Herg__dt;
    let b5_r1 = b5_f1;
    let b5_2_1 = -(b5_gdt * c.C2H_to_C3H);
    let b5_2_2 = (-b5_gdt).mul_add((-s__89), n(1.0));
    let b5_2_3 = -(b5_gdt * OH_to_C3H);
    let b5_2_4 = -(b5_gdt * IH_to_C3H);
    let b5_f2 = dt * C3Herg__dt;
    let b5_r2 = b5_f2;
    let b5_3_2 = -(b5_gdt * C3H_to_OH);
    let b5_3_3 = (-b5_gdt).mul_add((-s__90), n(1.0));
    let b5_3_4 = -(b5_gdt * IH_to_OH);
    let b5_f3 = dt * OHerg__dt;
    let b5_r3 = b5_f3;
    let b5_4_2 = -(b5_gdt * C3H_to_IH);
    let b5_4_3 = -(b5_gdt * OH_to_IH);
    let b5_4_4 = (-b5_gdt).mul_add((-s__91), n(1.0));
    let b5_f4 = dt * IHerg__dt;
    let b5_r4 = b5_f4;
    let b5_l1_0 = b5_1_0 / b5_0_0;
    let b5_1_1 = (-b5_l1_0).mul_add(b5_0_1, b5_1_1);
    let b5_r1 = (-b5_l1_0).mul_add(b5_r0, b5_r1);
    let b5_l2_1 = b5_2_1 / b5_1_1;
    let b5_2_2 = (-b5_l2_1).mul_add(b5_1_2, b5_2_2);
    let b5_r2 = (-b5_l2_1).mul_add(b5_r1, b5_r2);
    let b5_l3_2 = b5_3_2 / b5_2_2;
    let b5_3_3 = (-b5_l3_2).mul_add(b5_2_3, b5_3_3);
    let b5_3_4 = (-b5_l3_2).mul_add(b5_2_4, b5_3_4);
    let b5_r3 = (-b5_l3_2).mul_add(b5_r2, b5_r3);
    let b5_l4_2 = b5_4_2 / b5_2_2;
    let b5_4_3 = (-b5_l4_2).mul_add(b5_2_3, b5_4_3);
    let b5_4_4 = (-b5_l4_2).mul_add(b5_2_4, b5_4_4);
    let b5_r4 = (-b5_l4_2).mul_add(b5_r2, b5_r4);
    let b5_l4_3 = b5_4_3 / b5_3_3;
    let b5_4_4 = (-b5_l4_3).mul_add(b5_3_4, b5_4_4);
    let b5_r4 = (-b5_l4_3).mul_add(b5_r3, b5_r4);
    let b5_k4 = b5_r4 / b5_4_4;
    let b5_k3 = (-b5_3_4).mul_add(b5_k4, b5_r3) / b5_3_3;
    let b5_k2 = (-b5_2_4).mul_add(b5_k4, (-b5_2_3).mul_add(b5_k3, b5_r2)) / b5_2_2;
    let b5_k1 = (-b5_1_2).mul_add(b5_k2, b5_r1) / b5_1_1;
    let b5_k0 = (-b5_0_1).mul_add(b5_k1, b5_r0) / b5_0_0;
    let b5_r0 = n(2.414213562373095).mul_add(b5_k0, n(-1.4142135623730951) * b5_f0);
    let b5_r1 = n(2.414213562373095).mul_add(b5_k1, n(-1.4142135623730951) * b5_f1);
    let b5_r2 = n(2.414213562373095).mul_add(b5_k2, n(-1.4142135623730951) * b5_f2);
    let b5_r3 = n(2.414213562373095).mul_add(b5_k3, n(-1.4142135623730951) * b5_f3);
    let b5_r4 = n(2.414213562373095).mul_add(b5_k4, n(-1.4142135623730951) * b5_f4);
    let b5_r1 = (-b5_l1_0).mul_add(b5_r0, b5_r1);
    let b5_r2 = (-b5_l2_1).mul_add(b5_r1, b5_r2);
    let b5_r3 = (-b5_l3_2).mul_add(b5_r2, b5_r3);
    let b5_r4 = (-b5_l4_2).mul_add(b5_r2, b5_r4);
    let b5_r4 = (-b5_l4_3).mul_add(b5_r3, b5_r4);
    let b5_q4 = b5_r4 / b5_4_4;
    let b5_q3 = (-b5_3_4).mul_add(b5_q4, b5_r3) / b5_3_3;
    let b5_q2 = (-b5_2_4).mul_add(b5_q4, (-b5_2_3).mul_add(b5_q3, b5_r2)) / b5_2_2;
    let b5_q1 = (-b5_1_2).mul_add(b5_q2, b5_r1) / b5_1_1;
    let b5_q0 = (-b5_0_1).mul_add(b5_q1, b5_r0) / b5_0_0;
    let C1Herg__next = C1Herg + n(0.7071067811865476).mul_add(b5_k0, n(0.2928932188134524) * b5_q0);
    let C2Herg__next = C2Herg + n(0.7071067811865476).mul_add(b5_k1, n(0.2928932188134524) * b5_q1);
    let C3Herg__next = C3Herg + n(0.7071067811865476).mul_add(b5_k2, n(0.2928932188134524) * b5_q2);
    let OHerg__next = OHerg + n(0.7071067811865476).mul_add(b5_k3, n(0.2928932188134524) * b5_q3);
    let IHerg__next = IHerg + n(0.7071067811865476).mul_add(b5_k4, n(0.2928932188134524) * b5_q4);
    let C1Herg__next = conserved(
        C1Herg__next,
        n(0.9972188120984702) - (C2Herg__next + C3Herg__next + OHerg__next + IHerg__next),
    );
    // Markov block 6: two-stage SDIRK, (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1.
    let b6_gdt = n(0.2928932188134524) * dt;
    let b6_0_0 = (-b6_gdt).mul_add(c.k__45, n(1.0));
    let b6_0_1 = -(b6_gdt * C1ks_C0ks);
    let b6_f0 = dt * C0ks__dt;
    let b6_r0 = b6_f0;
    let b6_1_0 = -(b6_gdt * c.C0ks_C1ks);
    let b6_1_1 = (-b6_gdt).mul_add((-s__121), n(1.0));
    let b6_1_2 = -(b6_gdt * O1ks_C1ks);
    let b6_f1 = dt * C1ks__dt;
    let b6_r1 = b6_f1;
    let b6_2_1 = -(b6_gdt * c.C1ks_O1ks);
    let b6_2_2 = (-b6_gdt).mul_add((-s__122), n(1.0));
    let b6_2_3 = -(b6_gdt * O2ks_O1ks);
    let b6_f2 = dt * O1ks__dt;
    let b6_r2 = b6_f2;
    let b6_3_2 = -(b6_gdt * O1ks_O2ks);
    let b6_3_3 = (-b6_gdt).mul_add((-O2ks_O1ks), n(1.0));
    let b6_f3 = dt * O2ks__dt;
    let b6_r3 = b6_f3;
    let b6_l1_0 = b6_1_0 / b6_0_0;
    let b6_1_1 = (-b6_l1_0).mul_add(b6_0_1, b6_1_1);
    let b6_r1 = (-b6_l1_0).mul_add(b6_r0, b6_r1);
    let b6_l2_1 = b6_2_1 / b6_1_1;
    let b6_2_2 = (-b6_l2_1).mul_add(b6_1_2, b6_2_2);
    let b6_r2 = (-b6_l2_1).mul_add(b6_r1, b6_r2);
    let b6_l3_2 = b6_3_2 / b6_2_2;
    let b6_3_3 = (-b6_l3_2).mul_add(b6_2_3, b6_3_3);
    let b6_r3 = (-b6_l3_2).mul_add(b6_r2, b6_r3);
    let b6_k3 = b6_r3 / b6_3_3;
    let b6_k2 = (-b6_2_3).mul_add(b6_k3, b6_r2) / b6_2_2;
    let b6_k1 = (-b6_1_2).mul_add(b6_k2, b6_r1) / b6_1_1;
    let b6_k0 = (-b6_0_1).mul_add(b6_k1, b6_r0) / b6_0_0;
    let b6_r0 = n(2.414213562373095).mul_add(b6_k0, n(-1.4142135623730951) * b6_f0);
    let b6_r1 = n(2.414213562373095).mul_add(b6_k1, n(-1.4142135623730951) * b6_f1);
    let b6_r2 = n(2.414213562373095).mul_add(b6_k2, n(-1.4142135623730951) * b6_f2);
    let b6_r3 = n(2.414213562373095).mul_add(b6_k3, n(-1.4142135623730951) * b6_f3);
    let b6_r1 = (-b6_l1_0).mul_add(b6_r0, b6_r1);
    let b6_r2 = (-b6_l2_1).mul_add(b6_r1, b6_r2);
    let b6_r3 = (-b6_l3_2).mul_add(b6_r2, b6_r3);
    let b6_q3 = b6_r3 / b6_3_3;
    let b6_q2 = (-b6_2_3).mul_add(b6_q3, b6_r2) / b6_2_2;
    let b6_q1 = (-b6_1_2).mul_add(b6_q2, b6_r1) / b6_1_1;
    let b6_q0 = (-b6_0_1).mul_add(b6_q1, b6_r0) / b6_0_0;
    let C0ks__next = C0ks + n(0.7071067811865476).mul_add(b6_k0, n(0.2928932188134524) * b6_q0);
    let C1ks__next = C1ks + n(0.7071067811865476).mul_add(b6_k1, n(0.2928932188134524) * b6_q1);
    let O1ks__next = O1ks + n(0.7071067811865476).mul_add(b6_k2, n(0.2928932188134524) * b6_q2);
    let O2ks__next = O2ks + n(0.7071067811865476).mul_add(b6_k3, n(0.2928932188134524) * b6_q3);
    let C0ks__next = conserved(C0ks__next, n(0.9999999998292896) - (C1ks__next + O1ks__next + O2ks__next));
    locals[0] = Nai__next;
    locals[1] = Ki__next;
    locals[2] = Cai__next;
    locals[3] = CaSS__next;
    locals[4] = CaJSR__next;
    locals[5] = CaNSR__next;
    locals[6] = exp_euler(LTRPNCa, LTRPNCa__dt, (((c.kltrpn_plus * Cai) * n(-1.0)) + c.k__55), dt);
    locals[7] = exp_euler(HTRPNCa, HTRPNCa__dt, (((c.khtrpn_plus * Cai) * n(-1.0)) + c.k__56), dt);
    locals[8] = C1_RyR__next;
    locals[9] = O2_RyR__next;
    locals[10] = C2_RyR__next;
    locals[11] = O1_RyR__next;
    locals[12] = C0__next;
    locals[13] = C1__next;
    locals[14] = C2__next;
    locals[15] = C3__next;
    locals[16] = C4__next;
    locals[17] = CCa0__next;
    locals[18] = CCa1__next;
    locals[19] = CCa2__next;
    locals[20] = CCa3__next;
    locals[21] = CCa4__next;
    locals[22] = Open__next;
    locals[23] = exp_euler(yCa, yCa__dt, ((n(1.0) / tau_yCa) * n(-1.0)), dt);
    locals[24] = C0Kv43__next;
    locals[25] = C1Kv43__next;
    locals[26] = C2Kv43__next;
    locals[27] = C3Kv43__next;
    locals[28] = OKv43__next;
    locals[29] = CI0Kv43__next;
    locals[30] = CI1Kv43__next;
    locals[31] = CI2Kv43__next;
    locals[32] = CI3Kv43__next;
    locals[33] = OIKv43__next;
    locals[34] = C0Kv14__next;
    locals[35] = C1Kv14__next;
    locals[36] = C2Kv14__next;
    locals[37] = C3Kv14__next;
    locals[38] = OKv14__next;
    locals[39] = CI0Kv14__next;
    locals[40] = CI1Kv14__next;
    locals[41] = CI2Kv14__next;
    locals[42] = CI3Kv14__next;
    locals[43] = OIKv14__next;
    locals[44] = na1__next;
    locals[45] = na2__next;
    locals[46] = na3__next;
    locals[47] = na4__next;
    locals[48] = na5__next;
    locals[49] = na6__next;
    locals[50] = na7__next;
    locals[51] = na8__next;
    locals[52] = na9__next;
    locals[53] = na10__next;
    locals[54] = na11__next;
    locals[55] = na12__next;
    locals[56] = na13__next;
    locals[57] = C1Herg__next;
    locals[58] = C2Herg__next;
    locals[59] = C3Herg__next;
    locals[60] = OHerg__next;
    locals[61] = IHerg__next;
    locals[62] = C0ks__next;
    locals[63] = C1ks__next;
    locals[64] = O1ks__next;
    locals[65] = O2ks__next;
    locals[66] = Nai__carry_next;
    locals[67] = Ki__carry_next;
    locals[68] = Cai__carry_next;
    locals[69] = CaSS__carry_next;
    locals[70] = CaJSR__carry_next;
    locals[71] = CaNSR__carry_next;
    V__dt
}

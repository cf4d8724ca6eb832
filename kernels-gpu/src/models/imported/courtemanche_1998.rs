//! Mathematical Model Of A Human Atrial Action Potential, 1998: the CellML model `courtemanche_1998`, imported by `fibril import-cellml`.
//!
//! Source: `courtemanche_ramirez_nattel_1998.cellml` (200736 bytes, FNV-1a 64 c8466b11d55bd29c). Generated code: regenerate
//! rather than edit (`fibril import-cellml FILE --name courtemanche_1998`).
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
//! stimulus is the file's stimulus `membrane.i_st` (-2000.0000000000002 picoA) for 2 ms, as its contribution to dV/dt: 20.000000 mV/ms for 2 ms.
//!
//! # Updates over one step (dt in the file's time unit)
//!
//! | variable | file variable | unit | update |
//! |---|---|---|---|
//! | `V` | `membrane.V` | mV | forward Euler, by fibril's cell step (this file returns dV/dt) |
//! | `m` | `fast_sodium_current_m_gate.m` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `h` | `fast_sodium_current_h_gate.h` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `j` | `fast_sodium_current_j_gate.j` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `oa` | `transient_outward_K_current_oa_gate.oa` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `oi` | `transient_outward_K_current_oi_gate.oi` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `ua` | `ultrarapid_delayed_rectifier_K_current_ua_gate.ua` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `ui` | `ultrarapid_delayed_rectifier_K_current_ui_gate.ui` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `xr` | `rapid_delayed_rectifier_K_current_xr_gate.xr` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `xs` | `slow_delayed_rectifier_K_current_xs_gate.xs` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `d` | `L_type_Ca_channel_d_gate.d` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `f` | `L_type_Ca_channel_f_gate.f` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `f_Ca` | `L_type_Ca_channel_f_Ca_gate.f_Ca` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `u` | `Ca_release_current_from_JSR_u_gate.u` | dimensionless | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen) |
//! | `v` | `Ca_release_current_from_JSR_v_gate.v` | dimensionless | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen) |
//! | `w` | `Ca_release_current_from_JSR_w_gate.w` | dimensionless | Rush-Larsen (exponential Euler, rates frozen over the step) |
//! | `Na_i` | `intracellular_ion_concentrations.Na_i` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`Na_i__carry`) |
//! | `Ca_i` | `intracellular_ion_concentrations.Ca_i` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`Ca_i__carry`) |
//! | `K_i` | `intracellular_ion_concentrations.K_i` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`K_i__carry`) |
//! | `Ca_rel` | `intracellular_ion_concentrations.Ca_rel` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`Ca_rel__carry`) |
//! | `Ca_up` | `intracellular_ion_concentrations.Ca_up` | millimolar | generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen); in f32 with its rounding error carried (`Ca_up__carry`) |
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
//! - `fast_sodium_current_m_gate.alpha_m` at V = -47.129999999999995 (file units)
//! - `rapid_delayed_rectifier_K_current_xr_gate.alpha_xr` at V = -14.099999999999998 (file units)
//! - `rapid_delayed_rectifier_K_current_xr_gate.beta_xr` at V = 3.3328 (file units)
//! - `slow_delayed_rectifier_K_current_xs_gate.alpha_xs` at V = 19.899999999999995 (file units)
//! - `slow_delayed_rectifier_K_current_xs_gate.beta_xs` at V = 19.9 (file units)
//! - `L_type_Ca_channel_d_gate.tau_d` at V = -10 (file units)
//! - `Ca_release_current_from_JSR_w_gate.tau_w` at V = 7.9 (file units)
//!
//! Constants no equation uses once the stimulus is removed: `membrane.stim_start`, `membrane.stim_end`, `membrane.stim_period`, `membrane.stim_duration`, `membrane.stim_amplitude`.

#![allow(non_snake_case, unused_parens, unused_variables, clippy::all)]

use crate::math::{exp, ln};
use crate::model::Parameter as P;
use crate::model::{CellModel, ModelInfo, Numerics, Range, StimulusCurrent, Variable};
use crate::models::describe::{ms_mm, unpack};
use crate::models::imported::support::*;
use crate::real::Real;

/// Mathematical Model Of A Human Atrial Action Potential, 1998 (21 variables).
#[derive(Clone, Copy, Debug)]
pub struct Courtemanche1998;

/// The coefficients, formed in f64 from the parameters and dt and rounded once.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Courtemanche1998Coeffs<T> {
    /// the time step in the file's time unit
    pub dt: T,
    /// `membrane.F` (coulomb_per_millimole)
    pub F: T,
    /// `membrane.Cm` (picoF)
    pub Cm: T,
    /// `membrane.i_st` (picoA)
    pub i_st: T,
    /// `fast_sodium_current.g_Na` (nanoS_per_picoF)
    pub g_Na: T,
    /// `fast_sodium_current.shift_INa_inact` (millivolt)
    pub shift_INa_inact: T,
    /// `time_independent_potassium_current.g_K1` (nanoS_per_picoF)
    pub g_K1: T,
    /// `transient_outward_K_current.K_Q10` (dimensionless)
    pub K_Q10: T,
    /// `transient_outward_K_current.g_to` (nanoS_per_picoF)
    pub g_to: T,
    /// `rapid_delayed_rectifier_K_current.g_Kr` (nanoS_per_picoF)
    pub g_Kr: T,
    /// `slow_delayed_rectifier_K_current.g_Ks` (nanoS_per_picoF)
    pub g_Ks: T,
    /// `L_type_Ca_channel.g_Ca_L` (nanoS_per_picoF)
    pub g_Ca_L: T,
    /// `L_type_Ca_channel_f_Ca_gate.tau_f_Ca` (millisecond)
    pub tau_f_Ca: T,
    /// `sodium_potassium_pump.Km_Na_i` (millimolar)
    pub Km_Na_i: T,
    /// `sodium_potassium_pump.i_NaK_max` (picoA_per_picoF)
    pub i_NaK_max: T,
    /// `sodium_potassium_pump.sigma` (dimensionless)
    pub sigma: T,
    /// `background_currents.g_B_Na` (nanoS_per_picoF)
    pub g_B_Na: T,
    /// `background_currents.g_B_Ca` (nanoS_per_picoF)
    pub g_B_Ca: T,
    /// `background_currents.g_B_K` (nanoS_per_picoF)
    pub g_B_K: T,
    /// `Na_Ca_exchanger_current.I_NaCa_max` (picoA_per_picoF)
    pub I_NaCa_max: T,
    /// `Na_Ca_exchanger_current.K_sat` (dimensionless)
    pub K_sat: T,
    /// `Na_Ca_exchanger_current.gamma` (dimensionless)
    pub gamma: T,
    /// `sarcolemmal_calcium_pump_current.i_CaP_max` (picoA_per_picoF)
    pub i_CaP_max: T,
    /// `Ca_release_current_from_JSR.K_rel` (per_millisecond)
    pub K_rel: T,
    /// `Ca_release_current_from_JSR_u_gate.tau_u` (millisecond)
    pub tau_u: T,
    /// `transfer_current_from_NSR_to_JSR.tau_tr` (millisecond)
    pub tau_tr: T,
    /// `Ca_uptake_current_by_the_NSR.I_up_max` (millimolar_per_millisecond)
    pub I_up_max: T,
    /// `Ca_uptake_current_by_the_NSR.K_up` (millimolar)
    pub K_up: T,
    /// `Ca_leak_current_by_the_NSR.leak_factor` (dimensionless)
    pub leak_factor: T,
    /// `Ca_leak_current_by_the_NSR.Ca_up_max` (millimolar)
    pub Ca_up_max: T,
    /// `Ca_buffers.Km_CMDN` (millimolar)
    pub Km_CMDN: T,
    /// `Ca_buffers.Km_TRPN` (millimolar)
    pub Km_TRPN: T,
    /// `Ca_buffers.Km_CSQN` (millimolar)
    pub Km_CSQN: T,
    /// `intracellular_ion_concentrations.conc_clamp` (dimensionless)
    pub conc_clamp: T,
    /// `intracellular_ion_concentrations.V_i` (micrometre_3)
    pub V_i: T,
    /// `intracellular_ion_concentrations.V_rel` (micrometre_3)
    pub V_rel: T,
    /// `intracellular_ion_concentrations.V_up` (micrometre_3)
    pub V_up: T,
    /// `standard_ionic_concentrations.Na_o` (millimolar)
    pub Na_o: T,
    /// `standard_ionic_concentrations.Ca_o` (millimolar)
    pub Ca_o: T,
    /// `standard_ionic_concentrations.K_o` (millimolar)
    pub K_o: T,
    /// `((R * T_x) / F)`
    pub k__0: T,
    /// `(-47.13)`
    pub k__1: T,
    /// `(-0.1)`
    pub k__2: T,
    /// `(-40.0)`
    pub k__3: T,
    /// `(-6.8)`
    pub k__4: T,
    /// `(-11.1)`
    pub k__5: T,
    /// `(1.0 - (perc_reduced_inact_for_IpNa / 100.0))`
    pub k__6: T,
    /// `(perc_reduced_inact_for_IpNa / 100.0)`
    pub k__7: T,
    /// `(-127140.0)`
    pub k__8: T,
    /// `(-0.04391)`
    pub k__9: T,
    /// `(-0.01052)`
    pub k__10: T,
    /// `(-0.1378)`
    pub k__11: T,
    /// `(-2.535e-7)`
    pub k__12: T,
    /// `(-10.0)`
    pub k__13: T,
    /// `(-8.5)`
    pub k__14: T,
    /// `(-59.0)`
    pub k__15: T,
    /// `(-17.54)`
    pub k__16: T,
    /// `(-7.44)`
    pub k__17: T,
    /// `(-13.0)`
    pub k__18: T,
    /// `(-9.6)`
    pub k__19: T,
    /// `(-28.0)`
    pub k__20: T,
    /// `(-16.0)`
    pub k__21: T,
    /// `(-5.0)`
    pub k__22: T,
    /// `(-6.5)`
    pub k__23: T,
    /// `(-17.0)`
    pub k__24: T,
    /// `(-12.7)`
    pub k__25: T,
    /// `(-0.5)`
    pub k__26: T,
    /// `(-8.0)`
    pub k__27: T,
    /// `(-6.24)`
    pub k__28: T,
    /// `(-powi(0.0337, 2))`
    pub k__29: T,
    /// `(R * T_x)`
    pub k__30: T,
    /// `(-F)`
    pub k__31: T,
    /// `(K_o + Km_K_o)`
    pub k__32: T,
    /// `((R * T_x) / (2.0 * F))`
    pub k__33: T,
    /// `(gamma - 1.0)`
    pub k__34: T,
    /// `powi(Na_o, 3)`
    pub k__35: T,
    /// `(powi(K_mNa, 3) + powi(Na_o, 3))`
    pub k__36: T,
    /// `(K_mCa + Ca_o)`
    pub k__37: T,
    /// `(1e-15 / (2.0 * F))`
    pub k__38: T,
    /// `((6.0 * 0.2) / 1.3)`
    pub k__39: T,
    /// `(2.0 * V_i * F)`
    pub k__40: T,
    /// `(TRPN_max * Km_TRPN)`
    pub k__41: T,
    /// `(CMDN_max * Km_CMDN)`
    pub k__42: T,
    /// `(-3.0)`
    pub k__43: T,
    /// `(V_i * F)`
    pub k__44: T,
    /// `(CSQN_max * Km_CSQN)`
    pub k__45: T,
    /// `((1.0 / tau_f_Ca) * (-1.0))`
    pub k__46: T,
    /// `(-1.0)`
    pub k__47: T,
    /// `((-1.0) - 1.0)`
    pub k__48: T,
    /// `(Cm * i_CaP_max)`
    pub k__49: T,
    /// `((-1.0) * K_rel)`
    pub k__50: T,
    /// `((-1.0) / tau_tr)`
    pub k__51: T,
    /// `(-(((leak_factor * I_up_max) / Ca_up_max) + (((1.0 / tau_tr) * V_rel) / V_up)))`
    pub k__52: T,
}

/// The file's initial values (V in mV), then the carries' (0).
const REST: [f64; 26] = [
    (-81.18),
    0.002908,
    0.9649,
    0.9775,
    0.03043,
    0.9992,
    0.004966,
    0.9986,
    3.296e-5,
    0.01869,
    0.0001367,
    0.9996,
    0.7755,
    2.35e-112,
    1.0,
    0.9992,
    11.17,
    0.0001013,
    139.0,
    1.488,
    1.488,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
];

const VARIABLES: &[Variable] = &[
    Variable { name: "V", unit: "mV", meaning: "membrane.V", rest: REST[0], display: (-100.0, 60.0) },
    Variable {
        name: "m",
        unit: "1",
        meaning: "fast_sodium_current_m_gate.m",
        rest: REST[1],
        display: (0.0, 1.0),
    },
    Variable {
        name: "h",
        unit: "1",
        meaning: "fast_sodium_current_h_gate.h",
        rest: REST[2],
        display: (0.0, 1.0),
    },
    Variable {
        name: "j",
        unit: "1",
        meaning: "fast_sodium_current_j_gate.j",
        rest: REST[3],
        display: (0.0, 1.0),
    },
    Variable {
        name: "oa",
        unit: "1",
        meaning: "transient_outward_K_current_oa_gate.oa",
        rest: REST[4],
        display: (0.0, 1.0),
    },
    Variable {
        name: "oi",
        unit: "1",
        meaning: "transient_outward_K_current_oi_gate.oi",
        rest: REST[5],
        display: (0.0, 1.0),
    },
    Variable {
        name: "ua",
        unit: "1",
        meaning: "ultrarapid_delayed_rectifier_K_current_ua_gate.ua",
        rest: REST[6],
        display: (0.0, 1.0),
    },
    Variable {
        name: "ui",
        unit: "1",
        meaning: "ultrarapid_delayed_rectifier_K_current_ui_gate.ui",
        rest: REST[7],
        display: (0.0, 1.0),
    },
    Variable {
        name: "xr",
        unit: "1",
        meaning: "rapid_delayed_rectifier_K_current_xr_gate.xr",
        rest: REST[8],
        display: (0.0, 1.0),
    },
    Variable {
        name: "xs",
        unit: "1",
        meaning: "slow_delayed_rectifier_K_current_xs_gate.xs",
        rest: REST[9],
        display: (0.0, 1.0),
    },
    Variable {
        name: "d",
        unit: "1",
        meaning: "L_type_Ca_channel_d_gate.d",
        rest: REST[10],
        display: (0.0, 1.0),
    },
    Variable {
        name: "f",
        unit: "1",
        meaning: "L_type_Ca_channel_f_gate.f",
        rest: REST[11],
        display: (0.0, 1.0),
    },
    Variable {
        name: "f_Ca",
        unit: "1",
        meaning: "L_type_Ca_channel_f_Ca_gate.f_Ca",
        rest: REST[12],
        display: (0.0, 1.0),
    },
    Variable {
        name: "u",
        unit: "1",
        meaning: "Ca_release_current_from_JSR_u_gate.u",
        rest: REST[13],
        display: (0.0, 1.0),
    },
    Variable {
        name: "v",
        unit: "1",
        meaning: "Ca_release_current_from_JSR_v_gate.v",
        rest: REST[14],
        display: (0.0, 1.0),
    },
    Variable {
        name: "w",
        unit: "1",
        meaning: "Ca_release_current_from_JSR_w_gate.w",
        rest: REST[15],
        display: (0.0, 1.0),
    },
    Variable {
        name: "Na_i",
        unit: "millimolar",
        meaning: "intracellular_ion_concentrations.Na_i",
        rest: REST[16],
        display: (0.0, 22.34),
    },
    Variable {
        name: "Ca_i",
        unit: "millimolar",
        meaning: "intracellular_ion_concentrations.Ca_i",
        rest: REST[17],
        display: (0.0, 0.0002026),
    },
    Variable {
        name: "K_i",
        unit: "millimolar",
        meaning: "intracellular_ion_concentrations.K_i",
        rest: REST[18],
        display: (0.0, 278.0),
    },
    Variable {
        name: "Ca_rel",
        unit: "millimolar",
        meaning: "intracellular_ion_concentrations.Ca_rel",
        rest: REST[19],
        display: (0.0, 2.976),
    },
    Variable {
        name: "Ca_up",
        unit: "millimolar",
        meaning: "intracellular_ion_concentrations.Ca_up",
        rest: REST[20],
        display: (0.0, 2.976),
    },
    Variable {
        name: "Na_i__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in Na_i (0 in f64)",
        rest: REST[21],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "Ca_i__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in Ca_i (0 in f64)",
        rest: REST[22],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "K_i__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in K_i (0 in f64)",
        rest: REST[23],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "Ca_rel__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in Ca_rel (0 in f64)",
        rest: REST[24],
        display: (-1e-6, 1e-6),
    },
    Variable {
        name: "Ca_up__carry",
        unit: "millimolar",
        meaning: "the f32 rounding error carried from step to step in Ca_up (0 in f64)",
        rest: REST[25],
        display: (-1e-6, 1e-6),
    },
];

const PARAMETERS: &[P] = &[
    P::new("R", 8.3143, "joule_per_mole_kelvin", Range::NonNegative, "membrane.R"),
    P::new("T_x", 310.0, "kelvin", Range::NonNegative, "membrane.T"),
    P::new("F", 96.4867, "coulomb_per_millimole", Range::NonNegative, "membrane.F"),
    P::new("Cm", 100.0, "picoF", Range::NonNegative, "membrane.Cm"),
    P::new("g_Na", 7.8, "nanoS_per_picoF", Range::NonNegative, "fast_sodium_current.g_Na"),
    P::new("shift_INa_inact", 0.0, "millivolt", Range::NonNegative, "fast_sodium_current.shift_INa_inact"),
    P::new(
        "perc_reduced_inact_for_IpNa",
        0.0,
        "1",
        Range::NonNegative,
        "fast_sodium_current.perc_reduced_inact_for_IpNa",
    ),
    P::new("g_K1", 0.09, "nanoS_per_picoF", Range::NonNegative, "time_independent_potassium_current.g_K1"),
    P::new("K_Q10", 3.0, "1", Range::NonNegative, "transient_outward_K_current.K_Q10"),
    P::new("g_to", 0.1652, "nanoS_per_picoF", Range::NonNegative, "transient_outward_K_current.g_to"),
    P::new(
        "g_Kr",
        0.029411765,
        "nanoS_per_picoF",
        Range::NonNegative,
        "rapid_delayed_rectifier_K_current.g_Kr",
    ),
    P::new(
        "g_Ks",
        0.12941176,
        "nanoS_per_picoF",
        Range::NonNegative,
        "slow_delayed_rectifier_K_current.g_Ks",
    ),
    P::new("g_Ca_L", 0.12375, "nanoS_per_picoF", Range::NonNegative, "L_type_Ca_channel.g_Ca_L"),
    P::new("Km_Na_i", 10.0, "millimolar", Range::NonNegative, "sodium_potassium_pump.Km_Na_i"),
    P::new("Km_K_o", 1.5, "millimolar", Range::NonNegative, "sodium_potassium_pump.Km_K_o"),
    P::new("i_NaK_max", 0.59933874, "picoA_per_picoF", Range::NonNegative, "sodium_potassium_pump.i_NaK_max"),
    P::new("g_B_Na", 0.0006744375, "nanoS_per_picoF", Range::NonNegative, "background_currents.g_B_Na"),
    P::new("g_B_Ca", 0.001131, "nanoS_per_picoF", Range::NonNegative, "background_currents.g_B_Ca"),
    P::new("g_B_K", 0.0, "nanoS_per_picoF", Range::NonNegative, "background_currents.g_B_K"),
    P::new("I_NaCa_max", 1600.0, "picoA_per_picoF", Range::NonNegative, "Na_Ca_exchanger_current.I_NaCa_max"),
    P::new("K_mNa", 87.5, "millimolar", Range::NonNegative, "Na_Ca_exchanger_current.K_mNa"),
    P::new("K_mCa", 1.38, "millimolar", Range::NonNegative, "Na_Ca_exchanger_current.K_mCa"),
    P::new("K_sat", 0.1, "1", Range::NonNegative, "Na_Ca_exchanger_current.K_sat"),
    P::new("gamma", 0.35, "1", Range::NonNegative, "Na_Ca_exchanger_current.gamma"),
    P::new(
        "i_CaP_max",
        0.275,
        "picoA_per_picoF",
        Range::NonNegative,
        "sarcolemmal_calcium_pump_current.i_CaP_max",
    ),
    P::new("K_rel", 30.0, "per_millisecond", Range::NonNegative, "Ca_release_current_from_JSR.K_rel"),
    P::new("tau_tr", 180.0, "millisecond", Range::NonNegative, "transfer_current_from_NSR_to_JSR.tau_tr"),
    P::new(
        "I_up_max",
        0.005,
        "millimolar_per_millisecond",
        Range::NonNegative,
        "Ca_uptake_current_by_the_NSR.I_up_max",
    ),
    P::new("K_up", 0.00092, "millimolar", Range::NonNegative, "Ca_uptake_current_by_the_NSR.K_up"),
    P::new("leak_factor", 1.0, "1", Range::NonNegative, "Ca_leak_current_by_the_NSR.leak_factor"),
    P::new("Ca_up_max", 15.0, "millimolar", Range::NonNegative, "Ca_leak_current_by_the_NSR.Ca_up_max"),
    P::new("CMDN_max", 0.05, "millimolar", Range::NonNegative, "Ca_buffers.CMDN_max"),
    P::new("TRPN_max", 0.07, "millimolar", Range::NonNegative, "Ca_buffers.TRPN_max"),
    P::new("CSQN_max", 10.0, "millimolar", Range::NonNegative, "Ca_buffers.CSQN_max"),
    P::new("Km_CMDN", 0.00238, "millimolar", Range::NonNegative, "Ca_buffers.Km_CMDN"),
    P::new("Km_TRPN", 0.0005, "millimolar", Range::NonNegative, "Ca_buffers.Km_TRPN"),
    P::new("Km_CSQN", 0.8, "millimolar", Range::NonNegative, "Ca_buffers.Km_CSQN"),
    P::new("conc_clamp", 1.0, "1", Range::NonNegative, "intracellular_ion_concentrations.conc_clamp"),
    P::new("V_cell", 20100.0, "micrometre_3", Range::NonNegative, "intracellular_ion_concentrations.V_cell"),
    P::new("Na_o", 140.0, "millimolar", Range::NonNegative, "standard_ionic_concentrations.Na_o"),
    P::new("Ca_o", 1.8, "millimolar", Range::NonNegative, "standard_ionic_concentrations.Ca_o"),
    P::new("K_o", 5.4, "millimolar", Range::NonNegative, "standard_ionic_concentrations.K_o"),
];

impl CellModel for Courtemanche1998 {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "courtemanche_1998",
        title: "Mathematical Model Of A Human Atrial Action Potential, 1998",
        reference: "CellML model `courtemanche_1998` (courtemanche_ramirez_nattel_1998.cellml), imported by fibril import-cellml",
        variables: VARIABLES,
        parameters: PARAMETERS,
        presets: &[],
        default_preset: "",
        units: ms_mm(
            "V in mV, times in ms, lengths in mm; the other variables and the parameters in the file's units",
        ),
        numerics: Numerics { dx: 0.2, dt: 0.01, diffusion: 0.154 },
        activation_threshold: -40.0,
        stimulus_value: 20.0,
        planar_background: &REST,
        stimulus_current: Some(StimulusCurrent {
            amplitude: 20.000000000000004,
            duration: 2.0,
            carriers: &[],
        }),
        default_f64: true,
    };

    type Locals<T: Real> = [T; 25];
    type Coeffs<T: Real> = Courtemanche1998Coeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> Courtemanche1998Coeffs<T> {
        let [
            R,
            T_x,
            F,
            Cm,
            g_Na,
            shift_INa_inact,
            perc_reduced_inact_for_IpNa,
            g_K1,
            K_Q10,
            g_to,
            g_Kr,
            g_Ks,
            g_Ca_L,
            Km_Na_i,
            Km_K_o,
            i_NaK_max,
            g_B_Na,
            g_B_Ca,
            g_B_K,
            I_NaCa_max,
            K_mNa,
            K_mCa,
            K_sat,
            gamma,
            i_CaP_max,
            K_rel,
            tau_tr,
            I_up_max,
            K_up,
            leak_factor,
            Ca_up_max,
            CMDN_max,
            TRPN_max,
            CSQN_max,
            Km_CMDN,
            Km_TRPN,
            Km_CSQN,
            conc_clamp,
            V_cell,
            Na_o,
            Ca_o,
            K_o,
        ] = unpack(params, "courtemanche_1998");
        let dt = dt * 1.0;
        let i_st = 0.0;
        let tau_f_Ca = 2.0;
        let sigma = ((1.0 / 7.0) * (exp((Na_o / 67.3)) - 1.0));
        let tau_u = 8.0;
        let V_i = (V_cell * 0.68);
        let V_rel = (0.0048 * V_cell);
        let V_up = (0.0552 * V_cell);
        let t = T::from_f64;
        Courtemanche1998Coeffs {
            dt: t(dt),
            F: t(F),
            Cm: t(Cm),
            i_st: t(i_st),
            g_Na: t(g_Na),
            shift_INa_inact: t(shift_INa_inact),
            g_K1: t(g_K1),
            K_Q10: t(K_Q10),
            g_to: t(g_to),
            g_Kr: t(g_Kr),
            g_Ks: t(g_Ks),
            g_Ca_L: t(g_Ca_L),
            tau_f_Ca: t(tau_f_Ca),
            Km_Na_i: t(Km_Na_i),
            i_NaK_max: t(i_NaK_max),
            sigma: t(sigma),
            g_B_Na: t(g_B_Na),
            g_B_Ca: t(g_B_Ca),
            g_B_K: t(g_B_K),
            I_NaCa_max: t(I_NaCa_max),
            K_sat: t(K_sat),
            gamma: t(gamma),
            i_CaP_max: t(i_CaP_max),
            K_rel: t(K_rel),
            tau_u: t(tau_u),
            tau_tr: t(tau_tr),
            I_up_max: t(I_up_max),
            K_up: t(K_up),
            leak_factor: t(leak_factor),
            Ca_up_max: t(Ca_up_max),
            Km_CMDN: t(Km_CMDN),
            Km_TRPN: t(Km_TRPN),
            Km_CSQN: t(Km_CSQN),
            conc_clamp: t(conc_clamp),
            V_i: t(V_i),
            V_rel: t(V_rel),
            V_up: t(V_up),
            Na_o: t(Na_o),
            Ca_o: t(Ca_o),
            K_o: t(K_o),
            k__0: t(((R * T_x) / F)),
            k__1: t((-47.13)),
            k__2: t((-0.1)),
            k__3: t((-40.0)),
            k__4: t((-6.8)),
            k__5: t((-11.1)),
            k__6: t((1.0 - (perc_reduced_inact_for_IpNa / 100.0))),
            k__7: t((perc_reduced_inact_for_IpNa / 100.0)),
            k__8: t((-127140.0)),
            k__9: t((-0.04391)),
            k__10: t((-0.01052)),
            k__11: t((-0.1378)),
            k__12: t((-2.535e-7)),
            k__13: t((-10.0)),
            k__14: t((-8.5)),
            k__15: t((-59.0)),
            k__16: t((-17.54)),
            k__17: t((-7.44)),
            k__18: t((-13.0)),
            k__19: t((-9.6)),
            k__20: t((-28.0)),
            k__21: t((-16.0)),
            k__22: t((-5.0)),
            k__23: t((-6.5)),
            k__24: t((-17.0)),
            k__25: t((-12.7)),
            k__26: t((-0.5)),
            k__27: t((-8.0)),
            k__28: t((-6.24)),
            k__29: t((-powi(0.0337, 2))),
            k__30: t((R * T_x)),
            k__31: t((-F)),
            k__32: t((K_o + Km_K_o)),
            k__33: t(((R * T_x) / (2.0 * F))),
            k__34: t((gamma - 1.0)),
            k__35: t(powi(Na_o, 3)),
            k__36: t((powi(K_mNa, 3) + powi(Na_o, 3))),
            k__37: t((K_mCa + Ca_o)),
            k__38: t((1e-15 / (2.0 * F))),
            k__39: t(((6.0 * 0.2) / 1.3)),
            k__40: t((2.0 * V_i * F)),
            k__41: t((TRPN_max * Km_TRPN)),
            k__42: t((CMDN_max * Km_CMDN)),
            k__43: t((-3.0)),
            k__44: t((V_i * F)),
            k__45: t((CSQN_max * Km_CSQN)),
            k__46: t(((1.0 / tau_f_Ca) * (-1.0))),
            k__47: t((-1.0)),
            k__48: t(((-1.0) - 1.0)),
            k__49: t((Cm * i_CaP_max)),
            k__50: t(((-1.0) * K_rel)),
            k__51: t(((-1.0) / tau_tr)),
            k__52: t((-(((leak_factor * I_up_max) / Ca_up_max) + (((1.0 / tau_tr) * V_rel) / V_up)))),
        }
    }

    reaction_method!(Courtemanche1998Coeffs, 25);
}

reaction_instances!(Courtemanche1998Coeffs, 25);

#[inline(always)]
fn reaction_body<T: Real>(v_mv: T, locals: &mut [T; 25], c: &Courtemanche1998Coeffs<T>) -> T {
    let n = T::from_f64;
    let m = locals[0];
    let h = locals[1];
    let j = locals[2];
    let oa = locals[3];
    let oi = locals[4];
    let ua = locals[5];
    let ui = locals[6];
    let xr = locals[7];
    let xs = locals[8];
    let d = locals[9];
    let f = locals[10];
    let f_Ca = locals[11];
    let u = locals[12];
    let v = locals[13];
    let w = locals[14];
    let Na_i = locals[15];
    let Ca_i = locals[16];
    let K_i = locals[17];
    let Ca_rel = locals[18];
    let Ca_up = locals[19];
    let Na_i__carry = locals[20];
    let Ca_i__carry = locals[21];
    let K_i__carry = locals[22];
    let Ca_rel__carry = locals[23];
    let Ca_up__carry = locals[24];
    let V = v_mv;
    let s__0 = (c.Na_o / Na_i);
    let E_Na = (c.k__0 * ln(s__0));
    let s__1 = powi(m, 3);
    let s__2 = (V - E_Na);
    let i_Na = (c.Cm * c.g_Na * s__1 * h * j * s__2);
    let s__3 = (V + n(47.13));
    let alpha_m = (if (V == c.k__1) {
        n(3.2)
    } else {
        removable(
            V,
            -47.129999999999995,
            -0.1,
            ((n(0.32) * s__3) / (n(1.0) - exp((c.k__2 * s__3)))),
            |V: T| ((n(0.32) * (V + n(47.13))) / (n(1.0) - exp((c.k__2 * (V + n(47.13)))))),
        )
    });
    let beta_m = (n(0.08) * exp(((-V) / n(11.0))));
    let s__4 = (alpha_m + beta_m);
    let m_inf = (alpha_m / s__4);
    let tau_m = (n(1.0) / s__4);
    let s__5 = (V + n(80.0));
    let alpha_h =
        (if (V < c.k__3) { (n(0.135) * exp(((s__5 - c.shift_INa_inact) / c.k__4))) } else { n(0.0) });
    let s__6 = (V - c.shift_INa_inact);
    let beta_h = (if (V < c.k__3) {
        ((n(3.56) * exp((n(0.079) * s__6))) + (n(310000.0) * exp((n(0.35) * s__6))))
    } else {
        (n(1.0) / (n(0.13) * (n(1.0) + exp((((V + n(10.66)) - c.shift_INa_inact) / c.k__5)))))
    });
    let s__7 = (alpha_h + beta_h);
    let h_inf = (((alpha_h * c.k__6) / s__7) + c.k__7);
    let tau_h = (n(1.0) / s__7);
    let alpha_j = (if (V < c.k__3) {
        ((((c.k__8 * exp((n(0.2444) * s__6))) - (n(3.474e-5) * exp((c.k__9 * s__6)))) * (V + n(37.78)))
            / (n(1.0) + exp((n(0.311) * ((V + n(79.23)) - c.shift_INa_inact)))))
    } else {
        n(0.0)
    });
    let beta_j = (if (V < c.k__3) {
        ((n(0.1212) * exp((c.k__10 * s__6)))
            / (n(1.0) + exp((c.k__11 * ((V + n(40.14)) - c.shift_INa_inact)))))
    } else {
        ((n(0.3) * exp((c.k__12 * s__6))) / (n(1.0) + exp((c.k__2 * ((V + n(32.0)) - c.shift_INa_inact)))))
    });
    let s__8 = (alpha_j + beta_j);
    let j_inf = (((alpha_j * c.k__6) / s__8) + c.k__7);
    let tau_j = (n(1.0) / s__8);
    let s__9 = (c.K_o / K_i);
    let E_K = (c.k__0 * ln(s__9));
    let s__10 = (V - E_K);
    let s__11 = (n(0.07) * s__5);
    let s__12 = exp(s__11);
    let s__13 = (n(1.0) + s__12);
    let i_K1 = ((c.Cm * c.g_K1 * s__10) / s__13);
    let s__14 = powi(oa, 3);
    let i_to = (c.Cm * c.g_to * s__14 * oi * s__10);
    let s__15 = (V - c.k__13);
    let s__16 = (s__15 / c.k__14);
    let s__17 = exp(s__16);
    let s__18 = (s__15 - n(40.0));
    let s__19 = (s__18 / c.k__15);
    let s__20 = exp(s__19);
    let s__21 = (s__17 + s__20);
    let s__22 = powi(s__21, -1);
    let s__23 = (n(0.65) * s__22);
    let alpha_oa = s__23;
    let s__24 = (s__15 + n(72.0));
    let s__25 = (s__24 / n(17.0));
    let s__26 = exp(s__25);
    let s__27 = (n(2.5) + s__26);
    let s__28 = powi(s__27, -1);
    let s__29 = (n(0.65) * s__28);
    let beta_oa = s__29;
    let tau_oa = (powi((alpha_oa + beta_oa), -1) / c.K_Q10);
    let oa_infinity = powi((n(1.0) + exp(((s__15 + n(10.47)) / c.k__16))), -1);
    let alpha_oi = powi((n(18.53) + (n(1.0) * exp(((s__15 + n(103.7)) / n(10.95))))), -1);
    let beta_oi = powi((n(35.56) + (n(1.0) * exp(((s__15 - n(8.74)) / c.k__17)))), -1);
    let tau_oi = (powi((alpha_oi + beta_oi), -1) / c.K_Q10);
    let oi_infinity = powi((n(1.0) + exp(((s__15 + n(33.1)) / n(5.3)))), -1);
    let g_Kur = (n(0.005) + (n(0.05) / (n(1.0) + exp(((V - n(15.0)) / c.k__18)))));
    let s__30 = powi(ua, 3);
    let i_Kur = (c.Cm * g_Kur * s__30 * ui * s__10);
    let alpha_ua = s__23;
    let beta_ua = s__29;
    let tau_ua = (powi((alpha_ua + beta_ua), -1) / c.K_Q10);
    let ua_infinity = powi((n(1.0) + exp(((s__15 + n(20.3)) / c.k__19))), -1);
    let alpha_ui = powi((n(21.0) + (n(1.0) * exp(((s__15 - n(195.0)) / c.k__20)))), -1);
    let beta_ui = (n(1.0) / exp(((s__15 - n(168.0)) / c.k__21)));
    let tau_ui = (powi((alpha_ui + beta_ui), -1) / c.K_Q10);
    let ui_infinity = powi((n(1.0) + exp(((s__15 - n(109.45)) / n(27.48)))), -1);
    let s__31 = (V + n(15.0));
    let s__32 = (s__31 / n(22.4));
    let s__33 = exp(s__32);
    let s__34 = (n(1.0) + s__33);
    let i_Kr = ((c.Cm * c.g_Kr * xr * s__10) / s__34);
    let s__35 = (V + n(14.1));
    let alpha_xr = (if (Real::abs(s__35) < n(1e-10)) {
        n(0.0015)
    } else {
        removable(
            V,
            -14.099999999999998,
            -0.2,
            ((n(0.0003) * s__35) / (n(1.0) - exp((s__35 / c.k__22)))),
            |V: T| ((n(0.0003) * (V + n(14.1))) / (n(1.0) - exp(((V + n(14.1)) / c.k__22)))),
        )
    });
    let s__36 = (V - n(3.3328));
    let beta_xr = (if (Real::abs(s__36) < n(1e-10)) {
        n(0.00037836118)
    } else {
        removable(
            V,
            3.3328,
            0.19517145812596365,
            ((n(7.3898e-5) * s__36) / (exp((s__36 / n(5.1237))) - n(1.0))),
            |V: T| ((n(7.3898e-5) * (V - n(3.3328))) / (exp(((V - n(3.3328)) / n(5.1237))) - n(1.0))),
        )
    });
    let tau_xr = powi((alpha_xr + beta_xr), -1);
    let xr_infinity = powi((n(1.0) + exp((s__35 / c.k__23))), -1);
    let s__37 = powi(xs, 2);
    let i_Ks = (c.Cm * c.g_Ks * s__37 * s__10);
    let s__38 = (V - n(19.9));
    let s__39 = Real::abs(s__38);
    let alpha_xs = (if (s__39 < n(1e-10)) {
        n(0.00068)
    } else {
        removable(
            V,
            19.899999999999995,
            -0.05882352941176471,
            ((n(4e-5) * s__38) / (n(1.0) - exp((s__38 / c.k__24)))),
            |V: T| ((n(4e-5) * (V - n(19.9))) / (n(1.0) - exp(((V - n(19.9)) / c.k__24)))),
        )
    });
    let beta_xs = (if (s__39 < n(1e-10)) {
        n(0.000315)
    } else {
        removable(
            V,
            19.9,
            0.1111111111111111,
            ((n(3.5e-5) * s__38) / (exp((s__38 / n(9.0))) - n(1.0))),
            |V: T| ((n(3.5e-5) * (V - n(19.9))) / (exp(((V - n(19.9)) / n(9.0))) - n(1.0))),
        )
    });
    let tau_xs = (n(0.5) * powi((alpha_xs + beta_xs), -1));
    let xs_infinity = pow((n(1.0) + exp((s__38 / c.k__25))), c.k__26);
    let i_Ca_L = (c.Cm * c.g_Ca_L * d * f * f_Ca * (V - n(65.0)));
    let s__40 = (V + n(10.0));
    let d_infinity = powi((n(1.0) + exp((s__40 / c.k__27))), -1);
    let s__41 = (s__40 / c.k__28);
    let s__42 = exp(s__41);
    let s__43 = (n(1.0) + s__42);
    let tau_d = (if (Real::abs(s__40) < n(1e-10)) {
        (n(4.579) / s__43)
    } else {
        removable(V, -10.0, -0.16025641025641024, ((n(1.0) - s__42) / (n(0.035) * s__40 * s__43)), |V: T| {
            ((n(1.0) - exp(((V + n(10.0)) / c.k__28)))
                / (n(0.035) * (V + n(10.0)) * (n(1.0) + exp(((V + n(10.0)) / c.k__28)))))
        })
    });
    let s__44 = (V + n(28.0));
    let s__45 = (-s__44);
    let s__46 = (s__45 / n(6.9));
    let s__47 = exp(s__46);
    let f_infinity = (s__47 / (n(1.0) + s__47));
    let tau_f = (n(9.0) * powi(((n(0.0197) * exp((c.k__29 * powi(s__40, 2)))) + n(0.02)), -1));
    let f_Ca_infinity = powi((n(1.0) + (Ca_i / n(0.00035))), -1);
    let f_NaK = powi(
        (n(1.0)
            + (n(0.1245) * exp(((c.k__2 * c.F * V) / c.k__30)))
            + (n(0.0365) * c.sigma * exp(((c.k__31 * V) / c.k__30)))),
        -1,
    );
    let s__48 = (c.Cm * c.i_NaK_max * f_NaK * n(1.0));
    let s__49 = (c.Km_Na_i / Na_i);
    let s__50 = pow(s__49, n(1.5));
    let s__51 = (n(1.0) + s__50);
    let i_NaK = (((s__48 / s__51) * c.K_o) / c.k__32);
    let i_B_Na = (c.Cm * c.g_B_Na * s__2);
    let s__52 = (c.Ca_o / Ca_i);
    let E_Ca = (c.k__33 * ln(s__52));
    let i_B_Ca = (c.Cm * c.g_B_Ca * (V - E_Ca));
    let i_B_K = (c.Cm * c.g_B_K * s__10);
    let s__53 = (c.gamma * c.F * V);
    let s__54 = (s__53 / c.k__30);
    let s__55 = exp(s__54);
    let s__56 = (c.k__34 * c.F * V);
    let s__57 = (s__56 / c.k__30);
    let s__58 = exp(s__57);
    let s__59 = (c.k__34 * V * c.F);
    let s__60 = (s__59 / c.k__30);
    let s__61 = exp(s__60);
    let s__62 = (c.K_sat * s__61);
    let s__63 = (n(1.0) + s__62);
    let s__64 = (c.k__36 * c.k__37 * s__63);
    let i_NaCa =
        ((c.Cm * c.I_NaCa_max * ((s__55 * powi(Na_i, 3) * c.Ca_o) - (s__58 * c.k__35 * Ca_i))) / s__64);
    let s__65 = (c.Cm * c.i_CaP_max * Ca_i);
    let s__66 = (n(0.0005) + Ca_i);
    let i_CaP = (s__65 / s__66);
    let s__67 = powi(u, 2);
    let s__68 = (Ca_rel - Ca_i);
    let i_rel = (c.K_rel * s__67 * v * w * s__68);
    let Fn =
        (n(1000.0) * ((n(1e-15) * c.V_rel * i_rel) - (c.k__38 * ((n(0.5) * i_Ca_L) - (n(0.2) * i_NaCa)))));
    let s__69 = (Fn - n(3.4175e-13));
    let s__70 = (-s__69);
    let s__71 = (s__70 / n(1.367e-15));
    let s__72 = exp(s__71);
    let s__73 = (n(1.0) + s__72);
    let s__74 = powi(s__73, -1);
    let u_infinity = s__74;
    let tau_v = (n(1.91) + (n(2.09) * s__74));
    let s__75 = (Fn - n(6.835e-14));
    let s__76 = (-s__75);
    let s__77 = (s__76 / n(1.367e-15));
    let s__78 = exp(s__77);
    let s__79 = (n(1.0) + s__78);
    let v_infinity = (n(1.0) - powi(s__79, -1));
    let s__80 = (V - n(7.9));
    let s__81 = (-s__80);
    let s__82 = (s__81 / n(5.0));
    let s__83 = exp(s__82);
    let tau_w = (if (Real::abs(s__80) < n(1e-10)) {
        c.k__39
    } else {
        removable(
            V,
            7.9,
            -0.2,
            ((n(6.0) * (n(1.0) - s__83)) / ((n(1.0) + (n(0.3) * s__83)) * n(1.0) * s__80)),
            |V: T| {
                ((n(6.0) * (n(1.0) - exp(((-(V - n(7.9))) / n(5.0)))))
                    / ((n(1.0) + (n(0.3) * exp(((-(V - n(7.9))) / n(5.0))))) * n(1.0) * (V - n(7.9))))
            },
        )
    });
    let w_infinity = (n(1.0) - powi((n(1.0) + exp(((-(V - n(40.0))) / n(17.0)))), -1));
    let i_tr = ((Ca_up - Ca_rel) / c.tau_tr);
    let s__84 = (c.K_up / Ca_i);
    let s__85 = (n(1.0) + s__84);
    let i_up = (c.I_up_max / s__85);
    let i_up_leak = ((c.leak_factor * c.I_up_max * Ca_up) / c.Ca_up_max);
    let B1 = ((((n(2.0) * i_NaCa) - (i_CaP + i_Ca_L + i_B_Ca)) / c.k__40)
        + (((c.V_up * (i_up_leak - i_up)) + (i_rel * c.V_rel)) / c.V_i));
    let s__86 = (Ca_i + c.Km_TRPN);
    let s__87 = powi(s__86, 2);
    let s__88 = (Ca_i + c.Km_CMDN);
    let s__89 = powi(s__88, 2);
    let B2 = (n(1.0) + (c.k__41 / s__87) + (c.k__42 / s__89));
    let V__dt = ((-(i_Na
        + i_K1
        + i_to
        + i_Kur
        + i_Kr
        + i_Ks
        + i_B_Na
        + i_B_Ca
        + i_NaK
        + i_CaP
        + i_NaCa
        + i_Ca_L
        + c.i_st))
        / c.Cm);
    let m__dt = ((m_inf - m) / tau_m);
    let h__dt = ((h_inf - h) / tau_h);
    let j__dt = ((j_inf - j) / tau_j);
    let oa__dt = ((oa_infinity - oa) / tau_oa);
    let oi__dt = ((oi_infinity - oi) / tau_oi);
    let ua__dt = ((ua_infinity - ua) / tau_ua);
    let ui__dt = ((ui_infinity - ui) / tau_ui);
    let xr__dt = ((xr_infinity - xr) / tau_xr);
    let xs__dt = ((xs_infinity - xs) / tau_xs);
    let d__dt = ((d_infinity - d) / tau_d);
    let f__dt = ((f_infinity - f) / tau_f);
    let f_Ca__dt = ((f_Ca_infinity - f_Ca) / c.tau_f_Ca);
    let u__dt = ((u_infinity - u) / c.tau_u);
    let s__90 = (v_infinity - v);
    let v__dt = (s__90 / tau_v);
    let w__dt = ((w_infinity - w) / tau_w);
    let Na_i__dt = ((c.conc_clamp * ((c.k__43 * i_NaK) - ((n(3.0) * i_NaCa) + i_B_Na + i_Na))) / c.k__44);
    let Ca_i__dt = (B1 / B2);
    let K_i__dt =
        (c.conc_clamp * (((n(2.0) * i_NaK) - (i_K1 + i_to + i_Kur + i_Kr + i_Ks + i_B_K)) / c.k__44));
    let s__91 = (i_tr - i_rel);
    let s__92 = (Ca_rel + c.Km_CSQN);
    let s__93 = powi(s__92, 2);
    let s__94 = (c.k__45 / s__93);
    let s__95 = (n(1.0) + s__94);
    let s__96 = powi(s__95, -1);
    let Ca_rel__dt = (s__91 * s__96);
    let Ca_up__dt = (i_up - (i_up_leak + ((i_tr * c.V_rel) / c.V_up)));
    let dt = c.dt;
    let s__97 = pow(s__73, c.k__48);
    let s__98 = (c.k__47 * s__97);
    let s__99 = (c.K_rel * s__67);
    let s__100 = (s__99 * w);
    let s__101 = (s__100 * s__68);
    let s__102 = (s__101 * n(1e-15));
    let s__103 = (s__102 * c.V_rel);
    let s__104 = (s__103 * n(1000.0));
    let s__105 = (-s__104);
    let s__106 = (s__105 / n(1.367e-15));
    let s__107 = (Na_i * Na_i);
    let s__108 = (c.Na_o / s__107);
    let s__109 = (-s__108);
    let s__110 = (s__109 / s__0);
    let s__111 = (s__110 * c.k__0);
    let s__112 = (-s__111);
    let s__113 = (s__112 * c.Cm);
    let Na_i__phi = exp_euler_phi(
        (((((((-((s__48 * ((n(1.5) * sqrt_t(s__49)) * (-(c.Km_Na_i / s__107)))) / (s__51 * s__51)))
            * c.K_o)
            / c.k__32)
            * c.k__43)
            + (-(((((((((n(3.0) * powi(Na_i, 2)) * s__55) * c.Ca_o) * c.Cm) * c.I_NaCa_max) / s__64)
                * n(3.0))
                + (s__113 * c.g_B_Na))
                + ((((s__113 * c.g_Na) * s__1) * h) * j))))
            * c.conc_clamp)
            / c.k__44),
        dt,
    );
    let (Na_i__next, Na_i__carry_next) =
        carry_add(Na_i, Na_i__carry, (Na_i__dt * dt) * Na_i__phi, (Na_i__dt * dt).mul_add(Na_i__phi, Na_i));
    let s__114 = (Ca_i * Ca_i);
    let Ca_i__phi = exp_euler_phi(
        ((((((((((-(s__58 * c.k__35)) * c.Cm) * c.I_NaCa_max) / s__64) * n(2.0))
            + (-(((c.k__49 / s__66) + (-(s__65 / (s__66 * s__66))))
                + (((-(((-(c.Ca_o / s__114)) / s__52) * c.k__33)) * c.Cm) * c.g_B_Ca))))
            / c.k__40)
            + ((((-(-((c.I_up_max * (-(c.K_up / s__114))) / (s__85 * s__85)))) * c.V_up)
                + ((((c.k__50 * s__67) * v) * w) * c.V_rel))
                / c.V_i))
            / B2)
            + (-((B1
                * ((-((c.k__41 * (n(2.0) * powi(s__86, 1))) / (s__87 * s__87)))
                    + (-((c.k__42 * (n(2.0) * powi(s__88, 1))) / (s__89 * s__89)))))
                / (B2 * B2)))),
        dt,
    );
    let (Ca_i__next, Ca_i__carry_next) =
        carry_add(Ca_i, Ca_i__carry, (Ca_i__dt * dt) * Ca_i__phi, (Ca_i__dt * dt).mul_add(Ca_i__phi, Ca_i));
    let s__115 = (K_i * K_i);
    let s__116 = (c.K_o / s__115);
    let s__117 = (-s__116);
    let s__118 = (s__117 / s__9);
    let s__119 = (s__118 * c.k__0);
    let s__120 = (-s__119);
    let s__121 = (s__120 * c.Cm);
    let K_i__phi = exp_euler_phi(
        (((-(((((((s__121 * c.g_K1) / s__13) + (((s__121 * c.g_to) * s__14) * oi))
            + (((s__121 * g_Kur) * s__30) * ui))
            + (((s__121 * c.g_Kr) * xr) / s__34))
            + ((s__121 * c.g_Ks) * s__37))
            + (s__121 * c.g_B_K)))
            / c.k__44)
            * c.conc_clamp),
        dt,
    );
    let (K_i__next, K_i__carry_next) =
        carry_add(K_i, K_i__carry, (K_i__dt * dt) * K_i__phi, (K_i__dt * dt).mul_add(K_i__phi, K_i));
    let Ca_rel__phi = exp_euler_phi(
        (((c.k__51 + (-((s__99 * v) * w))) * s__96)
            + (((c.k__47 * pow(s__95, c.k__48))
                * (-((c.k__45 * (n(2.0) * powi(s__92, 1))) / (s__93 * s__93))))
                * s__91)),
        dt,
    );
    let (Ca_rel__next, Ca_rel__carry_next) = carry_add(
        Ca_rel,
        Ca_rel__carry,
        (Ca_rel__dt * dt) * Ca_rel__phi,
        (Ca_rel__dt * dt).mul_add(Ca_rel__phi, Ca_rel),
    );
    let Ca_up__phi = exp_euler_phi(c.k__52, dt);
    let (Ca_up__next, Ca_up__carry_next) = carry_add(
        Ca_up,
        Ca_up__carry,
        (Ca_up__dt * dt) * Ca_up__phi,
        (Ca_up__dt * dt).mul_add(Ca_up__phi, Ca_up),
    );
    locals[0] = exp_euler(m, m__dt, ((n(1.0) / tau_m) * n(-1.0)), dt);
    locals[1] = exp_euler(h, h__dt, ((n(1.0) / tau_h) * n(-1.0)), dt);
    locals[2] = exp_euler(j, j__dt, ((n(1.0) / tau_j) * n(-1.0)), dt);
    locals[3] = exp_euler(oa, oa__dt, ((n(1.0) / tau_oa) * n(-1.0)), dt);
    locals[4] = exp_euler(oi, oi__dt, ((n(1.0) / tau_oi) * n(-1.0)), dt);
    locals[5] = exp_euler(ua, ua__dt, ((n(1.0) / tau_ua) * n(-1.0)), dt);
    locals[6] = exp_euler(ui, ui__dt, ((n(1.0) / tau_ui) * n(-1.0)), dt);
    locals[7] = exp_euler(xr, xr__dt, ((n(1.0) / tau_xr) * n(-1.0)), dt);
    locals[8] = exp_euler(xs, xs__dt, ((n(1.0) / tau_xs) * n(-1.0)), dt);
    locals[9] = exp_euler(d, d__dt, ((n(1.0) / tau_d) * n(-1.0)), dt);
    locals[10] = exp_euler(f, f__dt, ((n(1.0) / tau_f) * n(-1.0)), dt);
    locals[11] = exp_euler(f_Ca, f_Ca__dt, c.k__46, dt);
    locals[12] = exp_euler(
        u,
        u__dt,
        (((s__98
            * (s__72
                * ((-((((((((n(2.0) * powi(u, 1)) * c.K_rel) * v) * w) * s__68) * n(1e-15)) * c.V_rel)
                    * n(1000.0)))
                    / n(1.367e-15))))
            + n(-1.0))
            / c.tau_u),
        dt,
    );
    locals[13] = exp_euler(
        v,
        v__dt,
        ((((-((c.k__47 * pow(s__79, c.k__48)) * (s__78 * s__106))) + n(-1.0)) / tau_v)
            + (-((s__90 * ((s__98 * (s__72 * s__106)) * n(2.09))) / (tau_v * tau_v)))),
        dt,
    );
    locals[14] = exp_euler(w, w__dt, ((n(1.0) / tau_w) * n(-1.0)), dt);
    locals[15] = Na_i__next;
    locals[16] = Ca_i__next;
    locals[17] = K_i__next;
    locals[18] = Ca_rel__next;
    locals[19] = Ca_up__next;
    locals[20] = Na_i__carry_next;
    locals[21] = Ca_i__carry_next;
    locals[22] = K_i__carry_next;
    locals[23] = Ca_rel__carry_next;
    locals[24] = Ca_up__carry_next;
    V__dt
}

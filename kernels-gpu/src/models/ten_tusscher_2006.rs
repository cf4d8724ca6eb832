//! The ten Tusscher-Panfilov 2006 human ventricular model (K. H. W. J. ten
//! Tusscher, A. V. Panfilov, Am J Physiol Heart Circ Physiol 291:H1088,
//! 2006, "TP06"), which keeps the currents of ten Tusscher, Noble, Noble
//! and Panfilov (Am J Physiol 286:H1573, 2004, "TNNP04") and adds a
//! subspace calcium compartment, a ryanodine receptor model (Shannon's
//! four states reduced to R' and O), the f2 and fCass gates of I_CaL, new
//! I_Ks kinetics and refitted conductances. Nineteen variables: V, the gates m, h, j, d, f, f2,
//! fCass, r, s, Xr1, Xr2, Xs, the free calcium of cytosol, SR and subspace
//! (Ca_i, Ca_SR, Ca_ss), the RyR variable R' and Na_i, K_i.
//!
//! # Equations
//!
//! V in mV, t in ms, currents in pA/pF (= uA/uF = mV/ms), concentrations
//! in mM, RT/F = R T / F with R = 8314.472 mJ/(K mol), F = 96485.3415
//! C/mol, T = 310 K.
//!
//! ```text
//! dV/dt = -(I_Na + I_K1 + I_to + I_Kr + I_Ks + I_CaL + I_NaCa + I_NaK
//!           + I_pCa + I_pK + I_bNa + I_bCa)            (+ I_stim, added by the host)
//! E_K = RT/F ln(K_o/K_i)   E_Na = RT/F ln(Na_o/Na_i)   E_Ca = RT/(2F) ln(Ca_o/Ca_i)
//! E_Ks = RT/F ln((K_o + p_KNa Na_o)/(K_i + p_KNa Na_i))
//! I_Na   = G_Na m^3 h j (V - E_Na)
//! I_K1   = G_K1 sqrt(K_o/5.4) x_K1inf (V - E_K),  x_K1inf = a/(a + b),
//!          a = 0.1/(1 + e^{0.06 (V - E_K - 200)}),
//!          b = (3 e^{0.0002 (V - E_K + 100)} + e^{0.1 (V - E_K - 10)})/(1 + e^{-0.5 (V - E_K)})
//! I_to   = G_to r s (V - E_K)
//! I_Kr   = G_Kr sqrt(K_o/5.4) Xr1 Xr2 (V - E_K)
//! I_Ks   = G_Ks Xs^2 (V - E_Ks)
//! I_CaL  = G_CaL d f f2 fCass 4 (V - 15) F^2/(RT) (0.25 Ca_ss e^z - Ca_o)/(e^z - 1),
//!          z = 2 (V - 15) F/(RT)
//! I_NaCa = k_NaCa (e^{g V F/RT} Na_i^3 Ca_o - e^{(g-1) V F/RT} Na_o^3 Ca_i alpha)
//!          / ((K_mNai^3 + Na_o^3)(K_mCa + Ca_o)(1 + k_sat e^{(g-1) V F/RT}))
//! I_NaK  = P_NaK K_o Na_i / ((K_o + K_mK)(Na_i + K_mNa)(1 + 0.1245 e^{-0.1 V F/RT} + 0.0353 e^{-V F/RT}))
//! I_pCa  = G_pCa Ca_i/(K_pCa + Ca_i)
//! I_pK   = G_pK (V - E_K)/(1 + e^{(25 - V)/5.98})
//! I_bNa  = G_bNa (V - E_Na)        I_bCa = G_bCa (V - E_Ca)
//!
//! k_casr = max_sr - (max_sr - min_sr)/(1 + (EC/Ca_SR)^2),  k1 = k1'/k_casr,  k2 = k2' k_casr
//! O      = k1 Ca_ss^2 R'/(k3 + k1 Ca_ss^2)
//! dR'/dt = -k2 Ca_ss R' + k4 (1 - R')
//! I_rel  = V_rel O (Ca_SR - Ca_ss)     I_leak = V_leak (Ca_SR - Ca_i)
//! I_up   = V_maxup/(1 + K_up^2/Ca_i^2) I_xfer = V_xfer (Ca_ss - Ca_i)
//! d(Ca_i + Ca_ibuf)/dt   = -(I_bCa + I_pCa - 2 I_NaCa) Cm/(2 V_c F) + (I_leak - I_up) V_sr/V_c + I_xfer
//! d(Ca_SR + Ca_srbuf)/dt = I_up - I_rel - I_leak
//! d(Ca_ss + Ca_ssbuf)/dt = -I_CaL Cm/(2 V_ss F) + I_rel V_sr/V_ss - I_xfer V_c/V_ss
//!          with rapid buffering Ca_xbuf = Buf_x Ca_x/(Ca_x + K_bufx)
//! dNa_i/dt = -(I_Na + I_bNa + 3 I_NaK + 3 I_NaCa) Cm/(V_c F)
//! dK_i/dt  = -(I_K1 + I_to + I_Kr + I_Ks + I_pK - 2 I_NaK) Cm/(V_c F)     (paper: + I_stim, see below)
//!
//! gates: dy/dt = (y_inf - y)/tau_y, V in mV, tau in ms
//! m:    inf = 1/(1 + e^{(-56.86 - V)/9.03})^2,  tau = a_m b_m,
//!       a_m = 1/(1 + e^{(-60 - V)/5}),  b_m = 0.1/(1 + e^{(V + 35)/5}) + 0.1/(1 + e^{(V - 50)/200})
//! h, j: inf = 1/(1 + e^{(V + 71.55)/7.43})^2,  1/tau = alpha + beta,
//!       V >= -40: a_h = 0, b_h = 0.77/(0.13 (1 + e^{-(V + 10.66)/11.1})),
//!                 a_j = 0, b_j = 0.6 e^{0.057 V}/(1 + e^{-0.1 (V + 32)})
//!       V <  -40: a_h = 0.057 e^{-(V + 80)/6.8},  b_h = 2.7 e^{0.079 V} + 3.1e5 e^{0.3485 V},
//!                 a_j = (-25428 e^{0.2444 V} - 6.948e-6 e^{-0.04391 V}) (V + 37.78)/(1 + e^{0.311 (V + 79.23)}),
//!                 b_j = 0.02424 e^{-0.01052 V}/(1 + e^{-0.1378 (V + 40.14)})
//! d:    inf = 1/(1 + e^{(-8 - V)/7.5}),
//!       tau = (1.4/(1 + e^{(-35 - V)/13}) + 0.25) 1.4/(1 + e^{(V + 5)/5}) + 1/(1 + e^{(50 - V)/20})
//! f:    inf = 1/(1 + e^{(V + 20)/7}),
//!       tau = 1102.5 e^{-(V + 27)^2/225} + 200/(1 + e^{(13 - V)/10}) + 180/(1 + e^{(V + 30)/10}) + 20
//! f2:   inf = 0.67/(1 + e^{(V + 35)/7}) + 0.33,
//!       tau = 562 e^{-(V + 27)^2/240} + 31/(1 + e^{(25 - V)/10}) + 80/(1 + e^{(V + 30)/10})
//! fCass: inf = 0.6/(1 + (Ca_ss/0.05)^2) + 0.4,  tau = 80/(1 + (Ca_ss/0.05)^2) + 2
//! r:    inf = 1/(1 + e^{(20 - V)/6}),  tau = 9.5 e^{-(V + 40)^2/1800} + 0.8
//! s (EPI, M): inf = 1/(1 + e^{(V + 20)/5}),  tau = 85 e^{-(V + 45)^2/320} + 5/(1 + e^{(V - 20)/5}) + 3
//! s (ENDO):   inf = 1/(1 + e^{(V + 28)/5}),  tau = 1000 e^{-(V + 67)^2/1000} + 8
//! Xr1:  inf = 1/(1 + e^{(-26 - V)/7}),   tau = 450/(1 + e^{(-45 - V)/10}) 6/(1 + e^{(V + 30)/11.5})
//! Xr2:  inf = 1/(1 + e^{(V + 88)/24}),   tau = 3/(1 + e^{(-60 - V)/20}) 1.12/(1 + e^{(V - 60)/20})
//! Xs:   inf = 1/(1 + e^{(-5 - V)/14}),   tau = 1400/sqrt(1 + e^{(5 - V)/6}) 1/(1 + e^{(V - 35)/15}) + 80
//! ```
//!
//! # Time stepping (dt only through the coefficients)
//!
//! | variables | update over one step, from the old state only |
//! |---|---|
//! | V | forward Euler, by [`crate::cell`] (this file returns dV/dt) |
//! | m, h, j, d, f, f2, fCass, r, s, Xr1, Xr2, Xs | Rush-Larsen: y + (y - y_inf) expm1(-dt/tau) |
//! | R' | Rush-Larsen with the frozen Ca_ss: R'_inf = k4/(k4 + k2 Ca_ss), 1/tau = k4 + k2 Ca_ss |
//! | Ca_i, Ca_SR, Ca_ss | forward Euler on the total (free + buffered) calcium, then the free part solved from the rapid-buffering quadratic |
//! | Na_i, K_i | forward Euler, of their differences dNa_i = Na_i - 8.604 mM and dK_i = K_i - 136.89 mM |
//!
//! # Precision
//!
//! Na_i and K_i change by about 1e-6 mM a step, the order of an f32 ulp of
//! the concentrations themselves (9.5e-7 at 8.6 mM, 1.5e-5 at 137 mM): an
//! f32 state holding them rounds each increment away or up, and over 20
//! beats the f32 potential drifted 0.78% of the amplitude from the f64 one.
//! The state therefore holds their differences from the paper's EPI
//! values (variables `dNa_i`, `dK_i`, a few mM at most, with an ulp of
//! 2.4e-7 mM or finer), and the currents use Na_i = 8.604 + dNa_i and
//! K_i = 136.89 + dK_i. Over 20 beats f32 then stays within 0.008% of f64
//! (test `f32_follows_f64_over_twenty_beats_so_f32_is_the_default`), and
//! f32 is the model's default precision.
//!
//! The Rush-Larsen step y_inf + (y - y_inf) e^{-dt/tau} is written as
//! y + (y - y_inf) expm1(-dt/tau), one fused multiply-add: it is exact
//! where y = y_inf and does not lose the small change of a slow gate to
//! the rounding of e^{-dt/tau} near 1. For -dt/tau < -40 (the m gate far
//! below rest has tau down to 3e-9 ms) the gate jumps to y_inf: e^{-40}
//! is below an ulp of 1, and `expm1` stays inside its range.
//!
//! R': the authors' code advances R' by forward Euler *before* it computes
//! O, and so uses the new R' in I_rel. Here every update reads the old
//! state (the contract of [`CellModel::reaction`]) and R', a relaxation
//! towards a Ca_ss-dependent steady state, takes a Rush-Larsen step, which
//! keeps it in [0, 1]; both are first-order in dt.
//!
//! Buffered calcium: the authors' code (and the paper's rapid-buffering
//! approximation) adds dt times the total flux to the total calcium
//! Ca + Buf Ca/(Ca + K) and takes the positive root of
//! Ca'^2 + (Buf + K - total') Ca' - K total' = 0. We solve the same
//! equation for the increment delta = Ca' - Ca instead (s = Ca + K, D = dt
//! times the total flux):
//!
//! ```text
//! s delta^2 + p delta - D s^2 = 0,   p = s (s - D) + Buf K,
//! delta = 2 D s^2/(p + sqrt(q))  (p > 0),   (sqrt(q) - p)/(2 s)  (p <= 0),   q = p^2 + 4 D s^3
//! ```
//!
//! which is algebraically the authors' root (the same free calcium in
//! exact arithmetic) but never forms the total, where a small increment
//! of Ca_i (about 1e-9 mM per step against 0.02 mM of bound calcium) would
//! be lost to rounding in f32, and never subtracts nearly equal numbers.
//! The square root is the correctly rounded f64 one ([`crate::math::sqrt`])
//! of the value converted to f64, rounded back to the compute precision:
//! correctly rounded in f32 too (binary64 has more than 2 * 24 + 2 bits),
//! so CPU and GPU agree; the same helper serves the 1/sqrt of the Xs gate.
//!
//! I_CaL: with z = 2 (V - 15) F/(RT), 4 (V - 15) F^2/(RT) = 2 F z, and
//! z e^z/(e^z - 1) = B(-z) with B(z) = z/(e^z - 1) = z/expm1(z), so
//! I_CaL = 2 F G_CaL d f f2 fCass (0.25 Ca_ss B(-z) - Ca_o B(z)). B has a
//! removable singularity at z = 0 (V = 15 mV), where the series
//! 1 - z/2 + z^2/12 is used for |z| < 1e-4; expm1 keeps it accurate near 0
//! and no exponential overflows for any V.
//!
//! Stimulus: the paper (and its code) books the stimulus current to K_i
//! (dK_i/dt includes -I_stim Cm/(V_c F)), so that charge is conserved over
//! long pacing. fibril adds the stimulus outside the model, so the model
//! names K_i as its stimulus carrier (`StimulusCarrier`): wherever a
//! current stimulus adds to V, K_i gains Cm/(V_c F) = 1.1689e-4 mM per mV
//! (at the default Cm and V_c; [`STIMULUS_K_I_PER_MV`]), the paper's term.
//! Without it K_i lost 6e-3 mM a beat against the paper's model (52 pA/pF
//! for 1 ms), 0.06 mM over ten beats, and the resting potential drifted
//! with E_K over long pacing.
//!
//! # Sources, and what was checked against what
//!
//! * The paper's appendix (via its text and TNNP04's), as restated by the
//!   CellML export of the EPI variant on the Physiome model repository
//!   (exposure 80d), which we read in two transcriptions: Myokit's
//!   `tentusscher-2006.mmt` (myokit/models and myokit/myokit examples,
//!   with a cell-type switch for ENDO, EPI, M) and pigreads' generated
//!   `tentusscher2006m` kernel. Every constant and rate function above
//!   was compared term by term with both, and with:
//! * The authors' C code as distributed with the paper, read in public
//!   copies: the whole step in BeatIt's `TP06.cpp`, the constants also in
//!   an oomph-lib `Ismail_TNNP_06` model, a WebGL port and a C++
//!   `TenTusscher2006` class. Same constants everywhere (G_Na 14.838,
//!   G_K1 5.405, G_Kr 0.153, G_Ks 0.392/0.098, G_to 0.294/0.073, G_CaL
//!   3.98e-5, k_NaCa 1000, P_NaK 2.724, G_pCa 0.1238, G_pK 0.0146, G_bNa
//!   2.9e-4, G_bCa 5.92e-4, V_maxup 6.375e-3, K_up 2.5e-4, V_rel 0.102,
//!   k1' 0.15, k2' 0.045, k3 0.06, k4 0.005, EC 1.5, max_sr 2.5, min_sr 1,
//!   V_leak 3.6e-4, V_xfer 3.8e-3, buffers 0.2/0.001, 10/0.3, 0.4/0.00025,
//!   Cm 0.185 uF with V_c 0.016404, V_sr 0.001094, V_ss 5.468e-5 nL, the
//!   same ratios as Cm 185 pF with 16404, 1094, 54.68 um^3, R 8314.472,
//!   F 96485.3415, T 310) and the same rate functions, with two
//!   differences, resolved for the paper:
//!   - tau_f2: the code has 600 e^{-(V + 25)^2/170} + 31/(1 + e^{(25 - V)/10}) +
//!     16/(1 + e^{(V + 30)/10}), the paper and CellML 562 e^{-(V + 27)^2/240} +
//!     31/(...) + 80/(1 + e^{(V + 30)/10}). At 1 Hz this moves APD90 by
//!     0.1 ms (reference integration, tests).
//!   - I_K1: the code omits sqrt(K_o/5.4), which is 1 at the default K_o.
//! * The authors' code starts from a state off the 1 Hz cycle (V = -86.2,
//!   Ca_SR = 1.3, ...); we start from the paper's table (below).
//! * A Finitewave Python port was also read; it has a misplaced bracket in
//!   the I_K1 beta and 7.43 for 7 in f2_inf, both unlike every other
//!   source, so it was not used.
//! * Cell types: ENDO differs from EPI in G_to (0.073 against 0.294 nS/pF)
//!   and in the s gate (above); M differs in G_Ks (0.098 against 0.392);
//!   all sources agree. The s gate is chosen by the `s_gate_endo`
//!   parameter (0: EPI/M form, 1: ENDO form), so that the presets are
//!   plain parameter values.
//! * Rest (initial) state: the paper's table of EPI values at 1 Hz pacing,
//!   as in the CellML export and Myokit (V -85.23 mV, Ca_i 1.26e-4,
//!   Ca_SR 3.64, Ca_ss 3.6e-4, Na_i 8.604, K_i 136.89 mM, ...).
//! * An independent check outside the repository: the CellML form of these
//!   equations (derivative form of the buffering) integrated with an
//!   adaptive BDF solver in double precision; see the tests for its figures.
//!
//! What we could not check: the paper's own text and figures were not
//! readable here (only its abstract); the published figures the tests
//! compare with (rest, peak, APD90, upstroke velocity, conduction
//! velocity, the tissue discretisation) are those the issue quotes from
//! the paper, next to the independent reference integration.
//!
//! Tissue numbers: TP06 and TNNP04 are quoted as using D = 0.00154
//! cm^2/ms = 0.154 mm^2/ms, for a planar conduction velocity of about
//! 70 cm/s, with explicit Euler at dx = 0.2 mm, dt = 0.02 ms; those are
//! our defaults (D dt/dx^2 = 0.077), and the cable test measures 70.3 cm/s.
//! The N-version benchmark of Niederer et al. (Phil Trans R Soc A
//! 369:4331, 2011) uses TP06 EPI with chi = 1400 /cm, Cm = 1 uF/cm^2,
//! sigma_il 0.17, sigma_it 0.019, sigma_el 0.62, sigma_et 0.24 S/m, i.e.
//! monodomain D_l = 0.0953, D_t = 0.0126 mm^2/ms, and a 2 ms stimulus of
//! 50000 uA/cm^3 (35.7 uA/uF) in a 1.5 mm cube at a corner of a
//! 20 x 7 x 3 mm slab, starting from the paper's EPI state.

use crate::math::{exp, expm1, ln, sqrt};
use crate::model::Parameter as P;
use crate::model::{
    CellModel, ModelInfo, Numerics, Preset, Range, StimulusCarrier, StimulusCurrent, Variable,
};
use crate::models::describe::{gate, membrane_potential, ms_mm, rate_table_in_field, unpack};
use crate::rate_table::{RateTable, TableSpec};
use crate::real::Real;

/// The ten Tusscher-Panfilov 2006 model (19 variables).
#[derive(Clone, Copy, Debug)]
pub struct TenTusscher2006;

/// Gas constant, mJ/(K mol) (TNNP04 Table 1, the authors' code).
pub const R_GAS: f64 = 8314.472;
/// Faraday constant, C/mol (TNNP04 Table 1, the authors' code).
pub const FARADAY: f64 = 96485.3415;

/// K_i gained per mV a current stimulus adds to V: Cm/(V_c F) at the
/// default Cm = 185 pF and V_c = 16,404 um^3 (mM per ms per pA/pF, as
/// `per_charge` in `coeffs`), the paper's -I_stim Cm/(V_c F) in dK_i/dt
/// over dV/dt = -I_stim. A run that changes `cm` or `v_c` keeps this
/// default ratio.
pub const STIMULUS_K_I_PER_MV: f64 = 1e3 * 185.0 / (FARADAY * 16404.0);

/// Coefficients in the compute precision, built once from the parameters
/// and dt. Products and ratios of parameters are formed in f64 and rounded
/// once.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TenTusscher2006Coeffs<T> {
    /// F/(RT), 1/mV.
    pub frt: T,
    /// RT/F, mV.
    pub rtf: T,
    pub k_o: T,
    pub na_o: T,
    pub ca_o: T,
    /// K_o + p_KNa Na_o, the numerator of E_Ks.
    pub ks_out: T,
    pub p_kna: T,
    pub g_na: T,
    /// G_K1 sqrt(K_o/5.4).
    pub g_k1: T,
    pub g_to: T,
    /// G_Kr sqrt(K_o/5.4).
    pub g_kr: T,
    pub g_ks: T,
    /// 2 F G_CaL, pA/pF per mM.
    pub cal_scale: T,
    /// 2 F/(RT), 1/mV: z per mV of V - 15.
    pub cal_z_per_mv: T,
    /// k_NaCa/((K_mNai^3 + Na_o^3)(K_mCa + Ca_o)).
    pub naca_scale: T,
    /// gamma F/(RT) and (gamma - 1) F/(RT).
    pub naca_up: T,
    pub naca_down: T,
    /// Na_o^3 alpha.
    pub naca_nao3_alpha: T,
    pub k_sat: T,
    /// P_NaK K_o/(K_o + K_mK).
    pub nak_scale: T,
    pub km_na: T,
    pub g_pk: T,
    pub g_pca: T,
    pub k_pca: T,
    pub g_bna: T,
    pub g_bca: T,
    pub v_max_up: T,
    /// K_up^2.
    pub k_up_sq: T,
    pub v_rel: T,
    pub k1_prime: T,
    pub k2_prime: T,
    pub k3: T,
    pub k4: T,
    /// EC^2.
    pub ec_sq: T,
    pub max_sr: T,
    /// max_sr - min_sr.
    pub span_sr: T,
    pub v_leak: T,
    pub v_xfer: T,
    pub buf_c: T,
    pub k_buf_c: T,
    pub buf_sr: T,
    pub k_buf_sr: T,
    pub buf_ss: T,
    pub k_buf_ss: T,
    /// Cm/(V_c F): mM per ms per pA/pF, for Na_i and K_i.
    pub vc_per_charge: T,
    /// Cm/(2 V_c F), for Ca_i.
    pub vc_per_ca_charge: T,
    /// Cm/(2 V_ss F), for Ca_ss.
    pub vss_per_ca_charge: T,
    /// V_sr/V_c, V_sr/V_ss, V_c/V_ss.
    pub vsr_vc: T,
    pub vsr_vss: T,
    pub vc_vss: T,
    /// 1 selects the ENDO s gate, 0 the EPI/M one.
    pub s_gate_endo: T,
    pub dt: T,
    pub neg_dt: T,
    /// The rate table of a run that asked for one (`--rate-tables`).
    pub table: RateTable<T>,
}

/// The paper's Na_i and K_i of the EPI cell at 1 Hz (mM): the state holds
/// Na_i - NA_REF_MM and K_i - K_REF_MM (module docs, "Precision").
pub const NA_REF_MM: f64 = 8.604;
pub const K_REF_MM: f64 = 136.89;

/// The resting (initial) state of the EPI cell, in the order of
/// [`ModelInfo::variables`]: the paper's table of EPI values at 1 Hz, as
/// the CellML export and Myokit give them (Na_i and K_i as their
/// differences from those values: 0).
const REST: [f64; 19] = [
    -85.23, 0.00172, 0.7444, 0.7045, 3.373e-5, 0.7888, 0.9755, 0.9953, 2.42e-8, 0.999998, 0.00621, 0.4712,
    0.0095, 0.000126, 3.64, 0.00036, 0.9073, 0.0, 0.0,
];

const POS: Range = Range::Positive;
const NONNEG: Range = Range::NonNegative;

/// The meaning of `s_gate_endo`.
const S_GATE_ENDO_MEANING: &str =
    "1: the ENDO s gate of I_to (s_inf at -28 mV, tau_s 1000 e^{-(V+67)^2/1000} + 8); 0: EPI/M";

/// The parameters, one line each ([`P::new`]: name, default, unit, range, meaning):
/// the paper's EPI values (TP06 appendix tables; TNNP04 Table 1 for what
/// TP06 kept), in the paper's units. nS/pF = mS/uF.
const PARAMETERS: &[P] = &[
    P::new("g_na", 14.838, "nS/pF", NONNEG, "G_Na, maximal fast sodium conductance"),
    P::new("g_k1", 5.405, "nS/pF", NONNEG, "G_K1, inward rectifier conductance (at K_o = 5.4 mM)"),
    P::new("g_to", 0.294, "nS/pF", NONNEG, "G_to, transient outward conductance (EPI, M; ENDO 0.073)"),
    P::new("g_kr", 0.153, "nS/pF", NONNEG, "G_Kr, rapid delayed rectifier conductance (at K_o = 5.4 mM)"),
    P::new("g_ks", 0.392, "nS/pF", NONNEG, "G_Ks, slow delayed rectifier conductance (EPI, ENDO; M 0.098)"),
    P::new("p_kna", 0.03, "1", NONNEG, "p_KNa, relative Na permeability of I_Ks (E_Ks)"),
    P::new("g_cal", 3.98e-5, "cm/(ms uF)", NONNEG, "G_CaL, L-type calcium permeability"),
    P::new("k_naca", 1000.0, "pA/pF", NONNEG, "k_NaCa, maximal Na/Ca exchanger current"),
    P::new("gamma_naca", 0.35, "1", Range::Between(0.0, 1.0), "gamma, voltage dependence of I_NaCa"),
    P::new("km_ca", 1.38, "mM", POS, "K_mCa, Ca_o saturation of I_NaCa"),
    P::new("km_nai", 87.5, "mM", POS, "K_mNai, Na_i saturation of I_NaCa"),
    P::new("k_sat", 0.1, "1", NONNEG, "k_sat, saturation of I_NaCa at negative V"),
    P::new("alpha_naca", 2.5, "1", NONNEG, "alpha, enhancement of the I_NaCa outward mode"),
    P::new("p_nak", 2.724, "pA/pF", NONNEG, "P_NaK, maximal Na/K pump current"),
    P::new("km_k", 1.0, "mM", POS, "K_mK, K_o saturation of I_NaK"),
    P::new("km_na", 40.0, "mM", POS, "K_mNa, Na_i saturation of I_NaK"),
    P::new("g_pk", 0.0146, "nS/pF", NONNEG, "G_pK, plateau potassium conductance"),
    P::new("g_pca", 0.1238, "pA/pF", NONNEG, "G_pCa, maximal sarcolemmal calcium pump current"),
    P::new("k_pca", 0.0005, "mM", POS, "K_pCa, half-saturation of I_pCa"),
    P::new("g_bna", 0.00029, "nS/pF", NONNEG, "G_bNa, background sodium conductance"),
    P::new("g_bca", 0.000592, "nS/pF", NONNEG, "G_bCa, background calcium conductance"),
    P::new("v_max_up", 0.006375, "mM/ms", NONNEG, "V_maxup, maximal SERCA uptake I_up"),
    P::new("k_up", 0.00025, "mM", POS, "K_up, half-saturation of I_up"),
    P::new("v_rel", 0.102, "1/ms", NONNEG, "V_rel, maximal RyR release rate I_rel"),
    P::new("k1_prime", 0.15, "1/(mM^2 ms)", NONNEG, "k1', RyR opening rate (R to O)"),
    P::new("k2_prime", 0.045, "1/(mM ms)", NONNEG, "k2', RyR inactivation rate (R' decay)"),
    P::new("k3", 0.06, "1/ms", NONNEG, "k3, RyR closing rate (O to R)"),
    P::new("k4", 0.005, "1/ms", NONNEG, "k4, RyR recovery rate (R' recovery)"),
    P::new("ec", 1.5, "mM", POS, "EC, Ca_SR half-effect of k_casr"),
    P::new("max_sr", 2.5, "1", POS, "max_sr, largest k_casr"),
    P::new("min_sr", 1.0, "1", POS, "min_sr, smallest k_casr"),
    P::new("v_leak", 0.00036, "1/ms", NONNEG, "V_leak, SR leak rate I_leak"),
    P::new("v_xfer", 0.0038, "1/ms", NONNEG, "V_xfer, subspace to cytosol transfer rate I_xfer"),
    P::new("buf_c", 0.2, "mM", NONNEG, "Buf_c, total cytosolic buffer"),
    P::new("k_buf_c", 0.001, "mM", POS, "K_bufc, Ca_i half-saturation of Buf_c"),
    P::new("buf_sr", 10.0, "mM", NONNEG, "Buf_sr, total SR buffer"),
    P::new("k_buf_sr", 0.3, "mM", POS, "K_bufsr, Ca_SR half-saturation of Buf_sr"),
    P::new("buf_ss", 0.4, "mM", NONNEG, "Buf_ss, total subspace buffer"),
    P::new("k_buf_ss", 0.00025, "mM", POS, "K_bufss, Ca_ss half-saturation of Buf_ss"),
    P::new("k_o", 5.4, "mM", POS, "K_o, extracellular potassium"),
    P::new("na_o", 140.0, "mM", POS, "Na_o, extracellular sodium"),
    P::new("ca_o", 2.0, "mM", POS, "Ca_o, extracellular calcium"),
    P::new("cm", 185.0, "pF", POS, "Cm, whole-cell capacitance (paper: 0.185 uF with volumes in nL)"),
    P::new("v_c", 16404.0, "um^3", POS, "V_c, cytoplasmic volume"),
    P::new("v_sr", 1094.0, "um^3", POS, "V_sr, sarcoplasmic reticulum volume"),
    P::new("v_ss", 54.68, "um^3", POS, "V_ss, subspace volume"),
    P::new("temperature", 310.0, "K", POS, "T, temperature of RT/F (R = 8314.472, F = 96485.3415)"),
    P::new("s_gate_endo", 0.0, "1", Range::Integer(0, 1), S_GATE_ENDO_MEANING),
];

impl CellModel for TenTusscher2006 {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "ten_tusscher_2006",
        title: "ten Tusscher-Panfilov 2006",
        reference: "K. H. W. J. ten Tusscher, A. V. Panfilov, Am J Physiol Heart Circ Physiol 291:H1088 \
                    (2006); currents of ten Tusscher, Noble, Noble, Panfilov, Am J Physiol 286:H1573 (2004)",
        variables: &[
            membrane_potential(REST[0], (-90.0, 40.0)),
            gate("m", REST[1], "I_Na activation"),
            gate("h", REST[2], "I_Na fast inactivation"),
            gate("j", REST[3], "I_Na slow inactivation"),
            gate("d", REST[4], "I_CaL activation"),
            gate("f", REST[5], "I_CaL voltage-dependent inactivation"),
            gate("f2", REST[6], "I_CaL fast voltage-dependent inactivation"),
            gate("fCass", REST[7], "I_CaL subspace-calcium inactivation"),
            gate("r", REST[8], "I_to activation"),
            gate("s", REST[9], "I_to inactivation"),
            gate("Xr1", REST[10], "I_Kr activation"),
            gate("Xr2", REST[11], "I_Kr inactivation"),
            gate("Xs", REST[12], "I_Ks activation"),
            Variable {
                name: "Ca_i",
                unit: "mM",
                meaning: "free cytosolic calcium",
                rest: REST[13],
                display: (0.0, 1.2e-3),
            },
            Variable {
                name: "Ca_SR",
                unit: "mM",
                meaning: "free sarcoplasmic-reticulum calcium",
                rest: REST[14],
                display: (2.0, 4.5),
            },
            Variable {
                name: "Ca_ss",
                unit: "mM",
                meaning: "free subspace (dyadic) calcium",
                rest: REST[15],
                display: (0.0, 2.0),
            },
            gate("R_prime", REST[16], "RyR: fraction of channels not inactivated (R bar)"),
            Variable {
                name: "dNa_i",
                unit: "mM",
                meaning: "intracellular sodium minus 8.604 mM (Na_i = 8.604 + dNa_i; stored as the difference so that f32 keeps its per-step changes)",
                rest: REST[17],
                display: (-1.6, 3.4),
            },
            Variable {
                name: "dK_i",
                unit: "mM",
                meaning: "intracellular potassium minus 136.89 mM (K_i = 136.89 + dK_i; stored as the difference)",
                rest: REST[18],
                display: (-6.89, 3.11),
            },
        ],
        parameters: PARAMETERS,
        presets: &[
            Preset { name: "epi", meaning: "epicardial cell (TP06, the paper's default)", values: &[] },
            Preset {
                name: "endo",
                meaning: "endocardial cell (TP06: G_to 0.073 nS/pF and the ENDO s gate)",
                values: &[("g_to", 0.073), ("s_gate_endo", 1.0)],
            },
            Preset {
                name: "m",
                meaning: "midmyocardial (M) cell (TP06: G_Ks 0.098 nS/pF)",
                values: &[("g_ks", 0.098)],
            },
        ],
        default_preset: "epi",
        units: ms_mm(
            "V in mV, times in ms, lengths in mm, currents in pA/pF (= mV/ms), concentrations in mM",
        ),
        // TP06/TNNP04's explicit scheme: dx = 0.2 mm, dt = 0.02 ms,
        // D = 0.00154 cm^2/ms = 0.154 mm^2/ms; D dt/dx^2 = 0.077 < 1/6.
        numerics: Numerics { dx: 0.2, dt: 0.02, diffusion: 0.154 },
        activation_threshold: -40.0,
        stimulus_value: 20.0,
        planar_background: &REST,
        // The paper's stimulus: -52 pA/pF for 1 ms (the authors' code:
        // stimstrength = -52, stimduration = 1), depolarising, its charge
        // carried by K_i as the paper books it (module docs, "Stimulus").
        stimulus_current: Some(StimulusCurrent {
            amplitude: 52.0,
            duration: 1.0,
            carriers: &[StimulusCarrier { variable: 18, per_u: STIMULUS_K_I_PER_MV, carry: None }],
        }),
        default_f64: false,
    };

    type Locals<T: Real> = [T; 18];
    type Coeffs<T: Real> = TenTusscher2006Coeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> TenTusscher2006Coeffs<T> {
        let [
            g_na,
            g_k1,
            g_to,
            g_kr,
            g_ks,
            p_kna,
            g_cal,
            k_naca,
            gamma_naca,
            km_ca,
            km_nai,
            k_sat,
            alpha_naca,
            p_nak,
            km_k,
            km_na,
            g_pk,
            g_pca,
            k_pca,
            g_bna,
            g_bca,
            v_max_up,
            k_up,
            v_rel,
            k1_prime,
            k2_prime,
            k3,
            k4,
            ec,
            max_sr,
            min_sr,
            v_leak,
            v_xfer,
            buf_c,
            k_buf_c,
            buf_sr,
            k_buf_sr,
            buf_ss,
            k_buf_ss,
            k_o,
            na_o,
            ca_o,
            cm,
            v_c,
            v_sr,
            v_ss,
            temperature,
            s_gate_endo,
        ] = unpack(params, "ten Tusscher-Panfilov 2006");
        let t = T::from_f64;
        let frt = FARADAY / (R_GAS * temperature);
        let k_scale = sqrt(k_o / 5.4);
        // pA = 1e-15 C/ms; over F (C/mol) and a volume in um^3 (1e-15 L):
        // mol/(L ms), times 1e3 for mM.
        let per_charge = |volume_um3: f64| 1e3 * cm / (FARADAY * volume_um3);
        TenTusscher2006Coeffs {
            frt: t(frt),
            rtf: t(1.0 / frt),
            k_o: t(k_o),
            na_o: t(na_o),
            ca_o: t(ca_o),
            ks_out: t(k_o + p_kna * na_o),
            p_kna: t(p_kna),
            g_na: t(g_na),
            g_k1: t(g_k1 * k_scale),
            g_to: t(g_to),
            g_kr: t(g_kr * k_scale),
            g_ks: t(g_ks),
            cal_scale: t(2.0 * FARADAY * g_cal),
            cal_z_per_mv: t(2.0 * frt),
            naca_scale: t(k_naca / ((km_nai * km_nai * km_nai + na_o * na_o * na_o) * (km_ca + ca_o))),
            naca_up: t(gamma_naca * frt),
            naca_down: t((gamma_naca - 1.0) * frt),
            naca_nao3_alpha: t(na_o * na_o * na_o * alpha_naca),
            k_sat: t(k_sat),
            nak_scale: t(p_nak * k_o / (k_o + km_k)),
            km_na: t(km_na),
            g_pk: t(g_pk),
            g_pca: t(g_pca),
            k_pca: t(k_pca),
            g_bna: t(g_bna),
            g_bca: t(g_bca),
            v_max_up: t(v_max_up),
            k_up_sq: t(k_up * k_up),
            v_rel: t(v_rel),
            k1_prime: t(k1_prime),
            k2_prime: t(k2_prime),
            k3: t(k3),
            k4: t(k4),
            ec_sq: t(ec * ec),
            max_sr: t(max_sr),
            span_sr: t(max_sr - min_sr),
            v_leak: t(v_leak),
            v_xfer: t(v_xfer),
            buf_c: t(buf_c),
            k_buf_c: t(k_buf_c),
            buf_sr: t(buf_sr),
            k_buf_sr: t(k_buf_sr),
            buf_ss: t(buf_ss),
            k_buf_ss: t(k_buf_ss),
            vc_per_charge: t(per_charge(v_c)),
            vc_per_ca_charge: t(per_charge(v_c) / 2.0),
            vss_per_ca_charge: t(per_charge(v_ss) / 2.0),
            vsr_vc: t(v_sr / v_c),
            vsr_vss: t(v_sr / v_ss),
            vc_vss: t(v_c / v_ss),
            s_gate_endo: t(s_gate_endo),
            dt: t(dt),
            neg_dt: t(-dt),
            table: RateTable::NONE,
        }
    }

    #[inline(always)]
    fn reaction<T: Real>(v: T, locals: &mut [T; 18], c: &TenTusscher2006Coeffs<T>) -> T {
        let y = *locals;
        let e_k = c.rtf * ln(c.k_o / (k::<T>(K_REF_MM) + y[17]));
        let v_ek = v - e_k;
        // The K1 factor is a function of V - E_K, read from the table's
        // column at the potential V - E_K + E_K_REF_MV.
        let k1 = match c.table.locate(v_ek + k(E_K_REF_MV)) {
            // SAFETY: the table has TABLE's columns, kept alive by whoever attached it.
            Some(row) => unsafe { row.get(COL_K1) },
            None => k1_factor(v_ek),
        };
        let (gates, factors) = match c.table.locate(v) {
            Some(row) => {
                // SAFETY: as above. Pair p is columns 2p and 2p + 1.
                let pair = |p: usize| unsafe { row.get_pair(p) };
                let old = [y[0], y[1], y[2], y[3], y[4], y[5], y[7], y[8], y[9], y[10], y[11]];
                // Gate g's (y_inf, e^{-dt/tau} - 1) is pair g.
                let gate = |g: usize| {
                    let (y_inf, em1) = pair(g);
                    (old[g] - y_inf).mul_add(em1, old[g])
                };
                let gates = each_voltage_gate(gate);
                let f = COL_FACTORS / 2;
                let ((cal_minus, cal_plus), (naca_up, naca_down)) = (pair(f), pair(f + 1));
                let ((naca_denom, nak_rect), (pk_denom, _)) = (pair(f + 2), pair(f + 3));
                let factors = VoltageFactors {
                    cal_minus,
                    cal_plus,
                    naca_up,
                    naca_down,
                    naca_denom,
                    nak_rect,
                    pk_denom,
                };
                (gates, factors)
            }
            None => {
                let g = voltage_gates(v, c.s_gate_endo);
                let nd = c.neg_dt;
                let old = [y[0], y[1], y[2], y[3], y[4], y[5], y[7], y[8], y[9], y[10], y[11]];
                let gate = |n: usize| rush_larsen(old[n], g[n].0, nd * g[n].1);
                let gates = each_voltage_gate(gate);
                (gates, voltage_factors(v, c))
            }
        };
        reaction_with(v, locals, c, e_k, k1, gates, &factors)
    }

    const RATE_TABLE: Option<TableSpec> = Some(TABLE);

    #[cfg(not(target_arch = "nvptx64"))]
    fn table_columns(params: &[f64], dt: f64, v: f64, out: &mut [f64]) {
        let c = Self::coeffs::<f64>(params, dt);
        for (g, (y_inf, rate)) in voltage_gates(v, c.s_gate_endo).into_iter().enumerate() {
            (out[2 * g], out[2 * g + 1]) = (y_inf, rush_larsen_factor(c.neg_dt * rate));
        }
        let f = voltage_factors(v, &c);
        out[COL_FACTORS..COL_FACTORS + 7].copy_from_slice(&[
            f.cal_minus,
            f.cal_plus,
            f.naca_up,
            f.naca_down,
            f.naca_denom,
            f.nak_rect,
            f.pk_denom,
        ]);
        out[COL_K1] = k1_factor(v - E_K_REF_MV);
    }

    rate_table_in_field!(TenTusscher2006Coeffs);
}

/// `[f(0), ..., f(10)]`, one value per voltage gate, written out rather
/// than by `array::from_fn`: constant indices keep the gates' arrays in
/// registers on the GPU (test `one_cell_per_thread_kernels_keep_their_state_in_registers`).
#[inline(always)]
fn each_voltage_gate<T>(f: impl Fn(usize) -> T) -> [T; VOLTAGE_GATES] {
    [f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8), f(9), f(10)]
}

/// The gates whose kinetics depend on V alone, in the order m, h, j, d,
/// f, f2, r, s, Xr1, Xr2, Xs (fCass follows Ca_ss, R' Ca_ss and Ca_SR).
const VOLTAGE_GATES: usize = 11;

/// The rate table: from -120 to +80 mV every 0.1 mV (outside it the exact
/// functions serve). Columns: (y_inf, e^{-dt/tau} - 1) of the eleven
/// voltage gates, then the factors of [`VoltageFactors`] in their order,
/// then the K1 factor of [`k1_factor`] as a function of V - E_K, stored
/// at V - E_K + [`E_K_REF_MV`] so that the potentials of a beat (V - E_K
/// from about 0 to 130 mV) fall inside the table. The h and j rates switch
/// branch at -40 mV, a node of the table: only the interval just below it
/// blends the two branches. Accuracy: test `rate_table_follows_the_exact_functions`.
const TABLE: TableSpec = TableSpec::ionic(30);
/// The first of the seven voltage factors (even: they are read in pairs).
const COL_FACTORS: usize = 2 * VOLTAGE_GATES;
const COL_K1: usize = COL_FACTORS + 7;
/// A typical E_K (mV), the offset of the K1 column.
const E_K_REF_MV: f64 = -87.0;

/// The factors of the currents that depend on V alone: B(-z) and B(z) of
/// I_CaL, e^{gamma V F/RT}, e^{(gamma - 1) V F/RT} and the saturation
/// denominator of I_NaCa, the rectification of I_NaK and the denominator
/// of I_pK.
#[derive(Clone, Copy, Debug)]
struct VoltageFactors<T> {
    cal_minus: T,
    cal_plus: T,
    naca_up: T,
    naca_down: T,
    naca_denom: T,
    nak_rect: T,
    pk_denom: T,
}

#[inline(always)]
fn voltage_factors<T: Real>(v: T, c: &TenTusscher2006Coeffs<T>) -> VoltageFactors<T> {
    let one = T::ONE;
    let z = (v - k(15.0)) * c.cal_z_per_mv;
    let e_down = exp(c.naca_down * v);
    let vfrt = v * c.frt;
    VoltageFactors {
        cal_minus: bernoulli(-z),
        cal_plus: bernoulli(z),
        naca_up: exp(c.naca_up * v),
        naca_down: e_down,
        naca_denom: c.k_sat.mul_add(e_down, one),
        nak_rect: one + k::<T>(0.1245) * exp(k::<T>(-0.1) * vfrt) + k::<T>(0.0353) * exp(-vfrt),
        pk_denom: one + exp((k::<T>(25.0) - v) / k(5.98)),
    }
}

/// The rectification a_K1/(a_K1 + b_K1) of I_K1 at V - E_K (mV).
#[inline(always)]
fn k1_factor<T: Real>(v_ek: T) -> T {
    let one = T::ONE;
    let a_k1 = k::<T>(0.1) / (one + exp(k::<T>(0.06) * (v_ek - k(200.0))));
    let b_k1 = (k::<T>(3.0) * exp(k::<T>(0.0002) * (v_ek + k(100.0))) + exp(k::<T>(0.1) * (v_ek - k(10.0))))
        / (one + exp(k::<T>(-0.5) * v_ek));
    a_k1 / (a_k1 + b_k1)
}

/// The rest of the reaction, from E_K, the K1 factor, the voltage gates
/// already advanced and the voltage factors, however they were found.
#[inline(always)]
fn reaction_with<T: Real>(
    v: T,
    locals: &mut [T; 18],
    c: &TenTusscher2006Coeffs<T>,
    e_k: T,
    k1: T,
    gates: [T; VOLTAGE_GATES],
    vf: &VoltageFactors<T>,
) -> T {
    let [m, h, j, d, f, f2, fcass, r, s, xr1, xr2, xs, ca_i, ca_sr, ca_ss, r_prime, dna, dk] = *locals;
    let (na_i, k_i) = (k::<T>(NA_REF_MM) + dna, k::<T>(K_REF_MM) + dk);

    // Reversal potentials.
    let e_na = c.rtf * ln(c.na_o / na_i);
    let e_ks = c.rtf * ln(c.ks_out / c.p_kna.mul_add(na_i, k_i));
    let e_ca = T::HALF * c.rtf * ln(c.ca_o / ca_i);

    // Currents, pA/pF.
    let v_ek = v - e_k;
    let i_na = c.g_na * (m * m * m) * h * j * (v - e_na);
    let i_k1 = c.g_k1 * k1 * v_ek;
    let i_to = c.g_to * r * s * v_ek;
    let i_kr = c.g_kr * xr1 * xr2 * v_ek;
    let i_ks = c.g_ks * (xs * xs) * (v - e_ks);
    let i_cal =
        c.cal_scale * (d * f * f2 * fcass) * (k::<T>(0.25) * ca_ss * vf.cal_minus - c.ca_o * vf.cal_plus);
    let i_naca = c.naca_scale
        * (vf.naca_up * (na_i * na_i * na_i) * c.ca_o - vf.naca_down * c.naca_nao3_alpha * ca_i)
        / vf.naca_denom;
    let i_nak = c.nak_scale * (na_i / (na_i + c.km_na)) / vf.nak_rect;
    let i_pca = c.g_pca * ca_i / (ca_i + c.k_pca);
    let i_pk = c.g_pk * v_ek / vf.pk_denom;
    let i_bna = c.g_bna * (v - e_na);
    let i_bca = c.g_bca * (v - e_ca);

    // Calcium handling, mM/ms.
    let ca_sr2 = ca_sr * ca_sr;
    let k_casr = c.max_sr - c.span_sr * ca_sr2 / (ca_sr2 + c.ec_sq);
    let k1_sr = c.k1_prime / k_casr;
    let k1_ss2 = k1_sr * (ca_ss * ca_ss);
    let open = k1_ss2 * r_prime / (c.k3 + k1_ss2);
    let j_rel = c.v_rel * open * (ca_sr - ca_ss);
    let j_leak = c.v_leak * (ca_sr - ca_i);
    let ca_i2 = ca_i * ca_i;
    let j_up = c.v_max_up * ca_i2 / (ca_i2 + c.k_up_sq);
    let j_xfer = c.v_xfer * (ca_ss - ca_i);
    let d_ca_sr = c.dt * (j_up - j_rel - j_leak);
    let d_ca_ss = c.dt * (j_rel * c.vsr_vss - j_xfer * c.vc_vss - i_cal * c.vss_per_ca_charge);
    let d_ca_i = c.dt
        * (-(i_bca + i_pca - T::TWO * i_naca) * c.vc_per_ca_charge + (j_leak - j_up) * c.vsr_vc + j_xfer);
    let three = T::THREE;
    let dna_i = -(i_na + i_bna + three * i_nak + three * i_naca) * c.vc_per_charge;
    let dk_i = -(i_k1 + i_to + i_kr + i_ks + i_pk - T::TWO * i_nak) * c.vc_per_charge;

    // R': k4 + k2 Ca_ss with k2 = k2' k_casr, towards k4/(k4 + k2 Ca_ss).
    let rate_rr = c.k2_prime.mul_add(k_casr * ca_ss, c.k4);
    let rr_inf = c.k4 / rate_rr;
    let g_fcass = fcass_kinetics(ca_ss);
    let nd = c.neg_dt;
    let [m, h, j, d, f, f2, r, s, xr1, xr2, xs] = gates;
    *locals = [
        m,
        h,
        j,
        d,
        f,
        f2,
        rush_larsen(fcass, g_fcass.0, nd * g_fcass.1),
        r,
        s,
        xr1,
        xr2,
        xs,
        buffered_step(ca_i, d_ca_i, c.buf_c, c.k_buf_c),
        buffered_step(ca_sr, d_ca_sr, c.buf_sr, c.k_buf_sr),
        buffered_step(ca_ss, d_ca_ss, c.buf_ss, c.k_buf_ss),
        rush_larsen(r_prime, rr_inf, nd * rate_rr),
        c.dt.mul_add(dna_i, dna),
        c.dt.mul_add(dk_i, dk),
    ];

    -((((i_na + i_k1) + (i_to + i_kr)) + ((i_ks + i_cal) + (i_naca + i_nak)))
        + ((i_pca + i_pk) + (i_bna + i_bca)))
}

/// Steady state and rate 1/tau (1/ms) of the gates m, h, j, d, f, f2,
/// fCass, r, s, Xr1, Xr2, Xs at the potential `v` (mV) and subspace
/// calcium `ca_ss` (mM); `s_gate_endo` > 1/2 selects the ENDO s gate.
#[inline(always)]
fn voltage_gates<T: Real>(v: T, s_gate_endo: T) -> [(T, T); VOLTAGE_GATES] {
    let one = T::ONE;
    // 1/(1 + e^{(a - v)/b}) and 1/(1 + e^{(v - a)/b}).
    let rise = |a: f64, b: f64| one / (one + exp((k::<T>(a) - v) / k(b)));
    let fall = |a: f64, b: f64| one / (one + exp((v - k(a)) / k(b)));
    let bell = |a: f64, b: f64| {
        let x = v - k(a);
        exp(-(x * x) / k(b))
    };
    let m_q = rise(-56.86, 9.03);
    let tau_m = rise(-60.0, 5.0) * (k::<T>(0.1) * fall(-35.0, 5.0) + k::<T>(0.1) * fall(50.0, 200.0));
    let hj_q = fall(-71.55, 7.43);
    let hj_inf = hj_q * hj_q;
    let (rate_h, rate_j) = if v < k(-40.0) {
        let a_h = k::<T>(0.057) * exp(-(v + k(80.0)) / k(6.8));
        let b_h = k::<T>(2.7) * exp(k::<T>(0.079) * v) + k::<T>(3.1e5) * exp(k::<T>(0.3485) * v);
        let a_j = (k::<T>(-25428.0) * exp(k::<T>(0.2444) * v) - k::<T>(6.948e-6) * exp(k::<T>(-0.04391) * v))
            * (v + k(37.78))
            / (one + exp(k::<T>(0.311) * (v + k(79.23))));
        let b_j = k::<T>(0.02424) * exp(k::<T>(-0.01052) * v) / (one + exp(k::<T>(-0.1378) * (v + k(40.14))));
        (a_h + b_h, a_j + b_j)
    } else {
        let b_h = k::<T>(0.77) / (k::<T>(0.13) * (one + exp(-(v + k(10.66)) / k(11.1))));
        let b_j = k::<T>(0.6) * exp(k::<T>(0.057) * v) / (one + exp(k::<T>(-0.1) * (v + k(32.0))));
        (b_h, b_j)
    };
    let tau_d =
        (k::<T>(1.4) * rise(-35.0, 13.0) + k(0.25)) * (k::<T>(1.4) * fall(-5.0, 5.0)) + rise(50.0, 20.0);
    let tau_f = k::<T>(1102.5) * bell(-27.0, 225.0)
        + k::<T>(200.0) * rise(13.0, 10.0)
        + k::<T>(180.0) * fall(-30.0, 10.0)
        + k(20.0);
    let tau_f2 = k::<T>(562.0) * bell(-27.0, 240.0)
        + k::<T>(31.0) * rise(25.0, 10.0)
        + k::<T>(80.0) * fall(-30.0, 10.0);
    let (s_inf, tau_s) = if s_gate_endo > T::HALF {
        (fall(-28.0, 5.0), k::<T>(1000.0) * bell(-67.0, 1000.0) + k(8.0))
    } else {
        (fall(-20.0, 5.0), k::<T>(85.0) * bell(-45.0, 320.0) + k::<T>(5.0) * fall(20.0, 5.0) + k(3.0))
    };
    let tau_xr1 = (k::<T>(450.0) * rise(-45.0, 10.0)) * (k::<T>(6.0) * fall(-30.0, 11.5));
    let tau_xr2 = (k::<T>(3.0) * rise(-60.0, 20.0)) * (k::<T>(1.12) * fall(60.0, 20.0));
    let tau_xs =
        (k::<T>(1400.0) / sqrt_t(one + exp((k::<T>(5.0) - v) / k(6.0)))) * fall(35.0, 15.0) + k(80.0);
    [
        (m_q * m_q, one / tau_m),
        (hj_inf, rate_h),
        (hj_inf, rate_j),
        (rise(-8.0, 7.5), one / tau_d),
        (fall(-20.0, 7.0), one / tau_f),
        (k::<T>(0.67).mul_add(fall(-35.0, 7.0), k(0.33)), one / tau_f2),
        (rise(20.0, 6.0), one / (k::<T>(9.5) * bell(-40.0, 1800.0) + k(0.8))),
        (s_inf, one / tau_s),
        (rise(-26.0, 7.0), one / tau_xr1),
        (fall(-88.0, 24.0), one / tau_xr2),
        (rise(-5.0, 14.0), one / tau_xs),
    ]
}

/// Steady state and rate 1/tau (1/ms) of the gate fCass at the subspace
/// calcium `ca_ss` (mM).
#[inline(always)]
fn fcass_kinetics<T: Real>(ca_ss: T) -> (T, T) {
    let one = T::ONE;
    let ss_q = ca_ss / k(0.05);
    let fcass_q = one / ss_q.mul_add(ss_q, one);
    (k::<T>(0.6).mul_add(fcass_q, k(0.4)), one / k::<T>(80.0).mul_add(fcass_q, T::TWO))
}

/// A constant of the equations in the compute precision (rounded from the
/// f64 literal; folded at compile time).
#[inline(always)]
fn k<T: Real>(x: f64) -> T {
    T::from_f64(x)
}

/// Correctly rounded square root in the compute precision: the f64 square
/// root ([`crate::math::sqrt`], `sqrt.rn.f64` on the GPU) of the exact f64
/// image, rounded once to `T`. For f32 the double rounding is innocuous
/// (53 >= 2 * 24 + 2), so the result is the correctly rounded f32 root on
/// both sides.
#[inline(always)]
fn sqrt_t<T: Real>(x: T) -> T {
    T::from_f64(sqrt(x.to_f64()))
}

/// B(z) = z/(e^z - 1) = z/expm1(z), with B(0) = 1; the series
/// 1 - z/2 + z^2/12 (error below z^4/720) for |z| < 1e-4.
#[inline(always)]
fn bernoulli<T: Real>(z: T) -> T {
    if z.abs() < k(1e-4) { (z * k(1.0 / 12.0) - T::HALF).mul_add(z, T::ONE) } else { z / expm1(z) }
}

/// One Rush-Larsen step y_inf + (y - y_inf) e^x, x = -dt/tau <= 0, as
/// y + (y - y_inf) expm1(x); y jumps to y_inf for x < -40, where e^x is
/// below 5e-18, and for x = -infinity (tau = 0).
#[inline(always)]
fn rush_larsen<T: Real>(y: T, y_inf: T, x: T) -> T {
    if x < k(-40.0) {
        return y_inf;
    }
    (y - y_inf).mul_add(rush_larsen_factor(x), y)
}

/// e^x - 1 for x = -dt/tau, clamped at -1 (where the step reaches y_inf).
#[inline(always)]
fn rush_larsen_factor<T: Real>(x: T) -> T {
    if x < k(-40.0) {
        return -T::ONE;
    }
    let em1 = expm1(x);
    if em1 < -T::ONE { -T::ONE } else { em1 }
}

/// The free calcium after one step of rapid buffering: the root Ca' >= 0
/// of Ca' + buf Ca'/(Ca' + k_buf) = Ca + buf Ca/(Ca + k_buf) + `added`,
/// computed as Ca + delta (module docs).
#[inline(always)]
fn buffered_step<T: Real>(ca: T, added: T, buf: T, k_buf: T) -> T {
    let s = ca + k_buf;
    let p = s.mul_add(s - added, buf * k_buf);
    let ds = added * s;
    let q = p.mul_add(p, T::FOUR * ds * (s * s));
    let root = sqrt_t(if q > T::ZERO { q } else { T::ZERO });
    let delta = if p > T::ZERO { (ds + ds) * s / (p + root) } else { (root - p) / (s + s) };
    ca + delta
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Locals, rest_locals};
    use crate::models::testing::*;

    type Tp = TenTusscher2006;

    fn defaults() -> Vec<f64> {
        Tp::INFO.parameters.iter().map(|p| p.default).collect()
    }

    fn preset(name: &str) -> Vec<f64> {
        let mut params = defaults();
        for &(key, value) in Tp::INFO.preset(name).unwrap().values {
            params[Tp::INFO.parameter_index(key).unwrap()] = value;
        }
        params
    }

    /// The paper's stimulus at 1 Hz, the first one 10 ms into the run.
    fn one_hz() -> Pacing {
        let stim = Tp::INFO.stimulus_current.unwrap();
        Pacing { amplitude: stim.amplitude, duration_ms: stim.duration, start_ms: 10.0, period_ms: 1000.0 }
    }

    #[test]
    fn info_is_consistent() {
        let info = Tp::INFO;
        assert_info_consistent::<Tp>(19, 48);
        assert_eq!(<<Tp as CellModel>::Locals<f64> as Locals<f64>>::COUNT, 18);
        let n = info.numerics;
        assert!(n.diffusion * n.dt / (n.dx * n.dx) < 1.0 / 6.0);
    }

    #[test]
    fn the_stimulus_is_carried_by_k_i_at_the_models_own_ratio() {
        let info = Tp::INFO;
        let carriers = info.stimulus_current.unwrap().carriers;
        assert_eq!(carriers.len(), 1);
        assert_eq!(info.variables[carriers[0].variable].name, "dK_i");
        let params: Vec<f64> = info.parameters.iter().map(|p| p.default).collect();
        let c = Tp::coeffs::<f64>(&params, info.numerics.dt);
        assert_eq!(carriers[0].per_u, c.vc_per_charge, "Cm/(V_c F), as dK_i/dt's currents");
    }

    /// Independent reference (not in the repository): the CellML form of
    /// these equations (the buffering in derivative form, dCa/dt = total
    /// flux / (1 + Buf K/(Ca + K)^2)), integrated in f64 with scipy's BDF
    /// (rtol 1e-9, atol 1e-12, steps <= 0.01 ms during the stimulus), the
    /// same stimulus (52 pA/pF, 1 ms, not booked to K_i, where `pace_cell`
    /// now books it: 6e-3 mM of K_i a beat, below the bounds here) and the same
    /// APD90 rule as `pace_cell`. Beat 1 from the paper's state, EPI:
    const REF_EPI_BEAT1: (f64, f64, f64, f64) = (-85.247, 37.38, 291.49, 371.0);
    /// (rest, peak, APD90, max dV/dt) of the second beat, EPI.
    const REF_EPI_BEAT2: (f64, f64, f64, f64) = (-85.480, 38.79, 307.85, 387.0);

    fn within(x: f64, lo: f64, hi: f64) -> bool {
        (lo..=hi).contains(&x)
    }

    /// Test 1: one cell from the paper's EPI state, paced at 1 Hz with the
    /// paper's stimulus (52 pA/pF for 1 ms), dt = 0.02 ms, f64.
    ///
    /// Measured (beat 1 / beat 2): rest -85.25 / -85.48 mV, peak +39.5 /
    /// +41.0 mV, APD90 291.4 / 307.7 ms, max dV/dt 369 / 385 V/s
    /// (stimulus included).
    ///
    /// Against the converged reference above: APD90 within 0.2 ms, max
    /// dV/dt within 1%; the peak is 2.1 mV higher, the overshoot of forward
    /// Euler on the upstroke at dt = 0.02 ms (39.5, 38.4, 37.9 mV at
    /// dt = 0.02, 0.01, 0.005 ms, converging to the reference's 37.4).
    ///
    /// Against published values: rest -85.23 mV (the paper's table of
    /// initial values, EPI at 1 Hz); peak +30 to +40 mV, APD90 at 1 Hz
    /// 270-310 ms (EPI), max dV/dt 300-400 V/s (the ranges the issue quotes
    /// for TP06; we could not read the paper's figures themselves: the
    /// authors' code, whose tau_f2 differs (module docs) and which starts
    /// from a low SR load, sets `basicapd = 274` ms for its 1 Hz
    /// restitution protocol). The reference with the code's tau_f2 gives
    /// APD90 291.6 / 308.0 ms, so that difference is 0.1 ms here.
    #[test]
    fn epi_action_potential_matches_reference_and_published_values() {
        let cell = pace_cell::<Tp, f64>(&defaults(), 0.02, one_hz(), 2);
        for (n, ap) in cell.beats.iter().enumerate() {
            eprintln!(
                "TP06 EPI beat {}: rest {:.2} mV, peak {:.2} mV, APD90 {:.2} ms, max dV/dt {:.1} V/s",
                n + 1,
                ap.rest,
                ap.peak,
                ap.apd90_ms,
                ap.max_dudt
            );
        }
        for (ap, reference) in cell.beats.iter().zip([REF_EPI_BEAT1, REF_EPI_BEAT2]) {
            let (rest, peak, apd, dvdt) = reference;
            assert!((ap.rest - rest).abs() < 0.05, "{ap:?} against {reference:?}");
            assert!((ap.peak - peak).abs() < 2.5, "{ap:?} against {reference:?}");
            assert!((ap.apd90_ms - apd).abs() < 1.0, "{ap:?} against {reference:?}");
            assert!((ap.max_dudt - dvdt).abs() < 0.02 * dvdt, "{ap:?} against {reference:?}");
            // Published ranges.
            assert!((ap.rest - -85.23).abs() < 1.0, "{ap:?}");
            assert!(within(ap.peak, 30.0, 45.0), "{ap:?}");
            assert!(within(ap.apd90_ms, 270.0, 310.0), "{ap:?}");
            assert!(within(ap.max_dudt, 300.0, 400.0), "{ap:?}");
        }
    }

    /// Test 2: twenty beats at 1 Hz (period 1000 ms) from the paper's EPI
    /// state, f64, dt = 0.02 ms (about 4 s in --release).
    ///
    /// Measured: APD90 291.4 ms (beat 1), 307.7 (beat 2), then shortening
    /// by less than 0.2 ms a beat to 305.1 ms (beat 20); rest -85.48 to
    /// -85.49 mV. Over the twenty beats Na_i rises from the paper's 8.604
    /// to 8.85 mM (+0.009 mM/beat at the end), K_i falls from 136.89 to
    /// 136.57 mM (-0.015 mM/beat, 0.006 of which is the stimulus charge the
    /// paper books to K_i and this model cannot; module docs), Ca_SR
    /// settles from 3.64 to 3.39 mM (-0.0015 mM/beat at the end) and
    /// diastolic Ca_i from 1.26e-4 to 1.02e-4 mM. The reference integration
    /// shows the same first-beat changes (Ca_SR 3.588, Na_i 8.625, K_i
    /// 136.878 mM after beat 1; ours 3.588, 8.625, 136.878), so they are
    /// the model's, not the scheme's: the paper's initial values are a
    /// 1 Hz state but not the end-diastolic one (f 0.789, R' 0.907 against
    /// 0.977, 0.989 at our beat ends). Na_i and K_i keep drifting slowly,
    /// as the paper's model does over minutes of pacing; the bounds below
    /// are 10% of the paper's values for Na_i and Ca_SR, 1% for K_i.
    #[test]
    fn twenty_beats_at_1_hz_stay_bounded_and_settle() {
        let beats = 20;
        let cell = pace_cell::<Tp, f64>(&defaults(), 0.02, one_hz(), beats);
        eprintln!(
            "TP06 EPI at 1 Hz: beat, APD90 (ms), rest (mV), then at the beat's end Ca_i, Ca_SR, Ca_ss, Na_i, K_i (mM)"
        );
        for (n, (ap, (_, l))) in cell.beats.iter().zip(&cell.end_states).enumerate() {
            eprintln!(
                "  {:2} {:7.2} {:8.3} {:.4e} {:.4} {:.4e} {:.4} {:.4}",
                n + 1,
                ap.apd90_ms,
                ap.rest,
                l[12],
                l[13],
                l[14],
                NA_REF_MM + l[16],
                K_REF_MM + l[17]
            );
            assert!(within(ap.apd90_ms, 285.0, 315.0), "beat {}: {ap:?}", n + 1);
            assert!(within(ap.rest, -86.0, -85.0), "beat {}: {ap:?}", n + 1);
            assert!(within(l[12], 0.9e-4, 1.3e-4), "Ca_i {l:?}");
            assert!(within(l[13], 0.9 * 3.64, 1.1 * 3.64), "Ca_SR {l:?}");
            // The state holds Na_i - 8.604 and K_i - 136.89 mM.
            assert!(within(NA_REF_MM + l[16], 0.9 * 8.604, 1.1 * 8.604), "Na_i {l:?}");
            assert!(within(K_REF_MM + l[17], 0.99 * 136.89, 1.01 * 136.89), "K_i {l:?}");
        }
        // Beat-to-beat change of the last beats.
        let (a, b) = (&cell.end_states[beats - 2].1, &cell.end_states[beats - 1].1);
        let d_apd = cell.beats[beats - 1].apd90_ms - cell.beats[beats - 2].apd90_ms;
        eprintln!(
            "last beat: dAPD90 {d_apd:.3} ms, dCa_SR {:.2e}, dNa_i {:.2e}, dK_i {:.2e} mM",
            b[13] - a[13],
            b[16] - a[16],
            b[17] - a[17]
        );
        assert!(d_apd.abs() < 0.3, "{d_apd}");
        assert!((b[13] - a[13]).abs() < 0.005);
        assert!((b[16] - a[16]).abs() < 0.015);
        assert!((b[17] - a[17]).abs() < 0.02);
    }

    /// Test 3: f32 against f64 over twenty beats at 1 Hz, dt = 0.02 ms.
    ///
    /// Na_i and K_i change by about 1e-6 mM a step, the order of an f32 ulp
    /// of the concentrations themselves (9.5e-7 at 8.6 mM, 1.5e-5 at 137
    /// mM): stored as absolute concentrations, f32 rounded those increments
    /// away or up, and the f32 potential drifted from the f64 one by 0.085%
    /// of the amplitude over 2 beats and 0.78% over 20 (Na_i 0.074 mM and
    /// K_i 0.18 mM above f64 after 20 beats), which made f64 this model's
    /// default. Stored as differences from the paper's values (a few mM at
    /// most, ulp 2.4e-7 or finer) they keep their increments.
    ///
    /// Measured now: 0.001% of the amplitude over 2 beats, 0.008% over 20;
    /// after 20 beats Na_i and K_i within 5e-4 mM of f64, APD90 of beat 20
    /// 305.10 ms in both. Tolerance 0.1% over 20 beats, met: f32 is the
    /// default. (Ca_i keeps its small increments by the incremental
    /// buffering update.)
    #[test]
    fn f32_follows_f64_over_twenty_beats_so_f32_is_the_default() {
        let worst2 = f32_against_f64::<Tp>(&defaults(), 0.02, one_hz(), 2000.0);
        let worst20 = f32_against_f64::<Tp>(&defaults(), 0.02, one_hz(), 20000.0);
        let c32 = pace_cell::<Tp, f32>(&defaults(), 0.02, one_hz(), 20);
        let c64 = pace_cell::<Tp, f64>(&defaults(), 0.02, one_hz(), 20);
        let (l32, l64) = (&c32.end_states[19].1, &c64.end_states[19].1);
        let (dna, dk) = (l32[16] as f64 - l64[16], l32[17] as f64 - l64[17]);
        eprintln!(
            "TP06 f32 vs f64: {:.4}% of the amplitude over 2 beats, {:.4}% over 20; after 20 beats \
             Na_i f32 - f64 = {dna:.2e} mM, K_i {dk:.2e} mM; APD90 beat 20 {:.2} against {:.2} ms",
            100.0 * worst2,
            100.0 * worst20,
            c32.beats[19].apd90_ms,
            c64.beats[19].apd90_ms
        );
        assert!(worst2 < 1e-4, "{worst2}");
        assert!(worst20 < 1e-3, "{worst20}");
        assert!(dna.abs() < 5e-4 && dk.abs() < 5e-4, "{dna} {dk}");
        assert!((c32.beats[19].apd90_ms - c64.beats[19].apd90_ms).abs() < 0.1);
        assert!(!Tp::INFO.default_f64);
    }

    /// Test 4: planar conduction velocity in a 30 mm cable with the default
    /// D = 0.154 mm^2/ms (TP06's 0.00154 cm^2/ms), dt = 0.02 ms, the
    /// paper's stimulus on the first 5 cells.
    ///
    /// Measured: 0.703 m/s at dx = 0.2 mm (the paper's grid and our
    /// default) and 0.733 m/s at dx = 0.1 mm. Published: about 70 cm/s for
    /// D = 0.00154 cm^2/ms (TP06 and TNNP04, tissue simulations at
    /// dx = 0.2 mm); tolerance 5% at dx = 0.2 mm, 10% at 0.1 mm, where the
    /// front is better resolved and faster.
    #[test]
    fn planar_conduction_velocity_is_the_papers() {
        let n = Tp::INFO.numerics;
        let cv_at = |dx: f64| {
            cable_velocity::<Tp, f64>(
                &defaults(),
                n.dt,
                Cable { dx, diffusion: n.diffusion, cells: (30.0 / dx).round() as usize },
                Pacing { start_ms: 0.0, period_ms: 1e9, ..one_hz() },
                Tp::INFO.activation_threshold,
                200.0,
            )
        };
        let (cv2, cv1) = (cv_at(n.dx), cv_at(0.1));
        eprintln!("TP06 planar CV: {cv2:.4} m/s at dx = {} mm, {cv1:.4} m/s at dx = 0.1 mm", n.dx);
        assert!((cv2 - 0.70).abs() < 0.05 * 0.70, "{cv2}");
        assert!((cv1 - 0.70).abs() < 0.10 * 0.70 && cv1 > cv2, "{cv1}");
    }

    /// Test 5a: every steady state, rate and time constant is finite, the
    /// steady states lie in [0, 1], the rates are positive, and a
    /// Rush-Larsen step from 0 or 1 stays in [0, 1], for V from -150 to
    /// +100 mV every 0.01 mV, in f32 and f64, for both s gates and Ca_ss
    /// from 0 to 2 mM; and the whole reaction (du/dt and the new state) is
    /// finite over that range from the rest state.
    #[test]
    fn rates_are_finite_from_minus_150_to_plus_100_mv() {
        fn sweep<T: Real>() {
            let c = Tp::coeffs::<T>(&defaults(), 0.02);
            let mut worst_rate = 0.0f64;
            for i in 0..=25_000 {
                let v = T::from_f64(-150.0 + 0.01 * i as f64);
                for endo in [T::ZERO, T::ONE] {
                    for ca_ss in [0.0, 2.1e-4, 0.05, 2.0] {
                        let gates =
                            voltage_gates(v, endo).into_iter().chain([fcass_kinetics(T::from_f64(ca_ss))]);
                        for (g, (inf, rate)) in gates.enumerate() {
                            let (inf, rate) = (inf.to_f64(), rate.to_f64());
                            assert!(
                                inf.is_finite() && (0.0..=1.0).contains(&inf),
                                "gate {g} V {v:?}: inf {inf}"
                            );
                            assert!(rate.is_finite() && rate > 0.0, "gate {g} V {v:?}: rate {rate}");
                            assert!((1.0 / rate).is_finite(), "gate {g} V {v:?}: tau");
                            worst_rate = worst_rate.max(rate);
                            let x = c.neg_dt * T::from_f64(rate);
                            for y in [T::ZERO, T::ONE] {
                                let next = rush_larsen(y, T::from_f64(inf), x).to_f64();
                                assert!((0.0..=1.0).contains(&next), "gate {g} V {v:?}: {next}");
                            }
                        }
                    }
                }
                let mut locals = rest_locals::<Tp, T>();
                let du = Tp::reaction(v, &mut locals, &c).to_f64();
                assert!(du.is_finite(), "V {v:?}: du/dt {du}");
                for k in 0..18usize {
                    // Locals 16 and 17 are differences from Na_i = 8.604
                    // and K_i = 136.89 mM: the concentrations stay >= 0.
                    let floor = match k {
                        16 => -NA_REF_MM,
                        17 => -K_REF_MM,
                        _ => 0.0,
                    };
                    let x = locals.get(k).to_f64();
                    assert!(x.is_finite() && x >= floor, "V {v:?}: local {k} = {x}");
                }
            }
            eprintln!("TP06 {}: largest gate rate over the sweep {worst_rate:.3e} /ms", T::NAME);
        }
        sweep::<f32>();
        sweep::<f64>();
    }

    /// Test 5b: B(z) = z/(e^z - 1), the removable singularity of I_CaL at
    /// V = 15 mV: at z = 0, at the switch |z| = 1e-4 and around them,
    /// against std's exp_m1 (and the series to z^4 below 1e-4), and the
    /// whole reaction is continuous through V = 15 mV.
    #[test]
    fn ical_singularity_at_15_mv() {
        let reference = |z: f64| {
            if z.abs() < 1e-4 { 1.0 - z / 2.0 + z * z / 12.0 - z.powi(4) / 720.0 } else { z / z.exp_m1() }
        };
        assert_eq!(bernoulli(0.0f64), 1.0);
        assert_eq!(bernoulli(0.0f32), 1.0);
        assert_eq!(bernoulli(-0.0f64), 1.0);
        let mut zs = vec![1e-30, 1e-12, 1e-8, 1e-6, 0.99e-4, 1e-4, 1.01e-4, 1e-3, 0.1, 1.0, 6.4, 12.4, 30.0];
        zs.extend((1..=200).map(|i| i as f64 * 1e-6));
        for z in zs.iter().flat_map(|&z| [z, -z]) {
            let r = reference(z);
            let e64 = ((bernoulli(z) - r) / r).abs();
            let e32 = ((bernoulli(z as f32) as f64 - r) / r).abs();
            assert!(e64 < 2e-15, "f64 B({z}): rel err {e64}");
            assert!(e32 < 1e-6, "f32 B({z}): rel err {e32}");
        }
        // The reaction at V = 15 mV and next to it, with I_CaL fully open.
        fn du_at<T: Real>(v: f64) -> f64 {
            let c = Tp::coeffs::<T>(&defaults(), 0.02);
            let mut locals = rest_locals::<Tp, T>();
            for (k, x) in [(3, 1.0), (4, 1.0), (5, 1.0), (6, 1.0)] {
                locals[k] = T::from_f64(x);
            }
            Tp::reaction(T::from_f64(v), &mut locals, &c).to_f64()
        }
        let at15 = du_at::<f64>(15.0);
        assert!(at15.is_finite() && du_at::<f32>(15.0).is_finite());
        for h in [1e-9, 1e-6, 1e-4, 1e-3] {
            let (lo, hi) = (du_at::<f64>(15.0 - h), du_at::<f64>(15.0 + h));
            // |d(du/dt)/dV| is below 10 /ms here.
            assert!(
                (lo - at15).abs() < 10.0 * h + 1e-12 && (hi - at15).abs() < 10.0 * h + 1e-12,
                "{lo} {at15} {hi}"
            );
            let (lo32, hi32) = (du_at::<f32>(15.0 - h), du_at::<f32>(15.0 + h));
            assert!((lo32 - at15).abs() < 1e-3 + 10.0 * h && (hi32 - at15).abs() < 1e-3 + 10.0 * h);
        }
    }

    /// Test 5c: the buffered calcium update keeps total calcium (free +
    /// bound) to rounding, equals the authors' quadratic root, and takes
    /// both branches of the root (p > 0: the usual one; p <= 0: a release
    /// larger than the subspace's buffer).
    #[test]
    fn buffered_calcium_update_conserves_total_calcium() {
        let total = |ca: f64, buf: f64, k: f64| ca + buf * ca / (ca + k);
        // (Ca, increment of the total, Buf, K_buf): cytosol, SR, subspace.
        let cases = [
            (1.0e-4, 2e-9, 0.2, 0.001),
            (1.0e-4, -3e-9, 0.2, 0.001),
            (8.0e-4, 1e-5, 0.2, 0.001),
            (3.5, 1e-4, 10.0, 0.3),
            (3.5, -2e-3, 10.0, 0.3),
            (2.0e-4, 1e-4, 0.4, 0.00025),
            (2.0e-4, 0.5, 0.4, 0.00025),
            (0.3, -0.1, 0.4, 0.00025),
            (1.0e-4, 0.0, 0.2, 0.001),
        ];
        for (ca, d, buf, k) in cases {
            let s = ca + k;
            let p = s * (s - d) + buf * k;
            let new = buffered_step(ca, d, buf, k);
            let want = total(ca, buf, k) + d;
            let err = (total(new, buf, k) - want).abs() / want;
            // The authors' form: total' then the positive root.
            let (b, c) = (buf - want + k, k * want);
            let direct = ((b * b + 4.0 * c).sqrt() - b) / 2.0;
            let new32 = buffered_step(ca as f32, d as f32, buf as f32, k as f32) as f64;
            eprintln!(
                "Ca {ca:e} + {d:e} (p {p:+.2e}): {new:.9e}, authors' root {direct:.9e}, f32 {new32:.7e}"
            );
            assert!(err < 1e-14, "{ca} {d}: total off by {err}");
            assert!((new - direct).abs() <= 1e-9 * direct, "{new} against {direct}");
            assert!(((new32 - new) / new).abs() < 1e-6, "f32 {new32} against {new}");
            assert!(new > 0.0);
            if d == 0.0 {
                assert_eq!(new, ca);
            }
        }
    }

    /// Test 5d: the Rush-Larsen step: exact at y = y_inf, y_inf for
    /// -dt/tau below -40 or -infinity (tau = 0), y for dt = 0, and
    /// y_inf + (y - y_inf) e^x otherwise.
    #[test]
    fn rush_larsen_step() {
        assert_eq!(rush_larsen(0.3f64, 0.3, -0.5), 0.3);
        assert_eq!(rush_larsen(0.9f64, 0.2, -41.0), 0.2);
        assert_eq!(rush_larsen(0.9f32, 0.2, f32::NEG_INFINITY), 0.2);
        assert_eq!(rush_larsen(0.9f64, 0.2, -0.0), 0.9);
        for x in [-1e-8, -1e-3, -0.5, -3.0, -39.0] {
            let want = 0.2 + (0.9 - 0.2) * f64::exp(x);
            assert!((rush_larsen(0.9f64, 0.2, x) - want).abs() < 1e-15, "{x}");
        }
    }

    /// Test 6: APD90 at dt = 0.02 ms and dt/2 = 0.01 ms (first beat, 1 Hz,
    /// f64). Measured 291.36 and 291.43 ms (0.005 ms: 291.46): they agree
    /// within 0.5 ms, our tolerance; the peak (39.5, 38.4 mV) and max
    /// dV/dt (369, 371 V/s) move more, with the upstroke's Euler step.
    #[test]
    fn rate_table_follows_the_exact_functions() {
        // The h and j rates jump at -40 mV, a node of the table: the
        // interval below it blends the two branches and is left out.
        for cell in ["epi", "endo"] {
            assert_table_columns_within_5e5::<Tp>(
                &preset(cell),
                0.02,
                &[(-40.1, -40.0)],
                &format!("{cell} "),
            );
        }
    }

    #[test]
    fn rate_table_reproduces_the_action_potential_and_the_wave() {
        let n = Tp::INFO.numerics;
        let cable = Cable { dx: n.dx, diffusion: n.diffusion, cells: 80 };
        assert_table_follows_exact::<Tp>(&defaults(), n.dt, one_hz(), 2, cable);
    }

    #[test]
    fn apd90_converges_in_dt() {
        let a = pace_cell::<Tp, f64>(&defaults(), 0.02, one_hz(), 1).beats[0];
        let b = pace_cell::<Tp, f64>(&defaults(), 0.01, one_hz(), 1).beats[0];
        eprintln!("TP06 dt 0.02 ms: {a:?}\nTP06 dt 0.01 ms: {b:?}");
        assert!((a.apd90_ms - b.apd90_ms).abs() < 0.5, "{a:?} {b:?}");
        assert!((a.peak - b.peak).abs() < 2.0 && (a.max_dudt - b.max_dudt).abs() < 0.02 * b.max_dudt);
    }

    /// The presets, first beat at 1 Hz, dt = 0.02 ms, against the reference
    /// integration (same equations, BDF): APD90 EPI 291.49, ENDO 292.38,
    /// M 380.09 ms; the M cell's small I_Ks gives the long action potential
    /// of TNNP04/TP06's M cells. Measured: 291.36, 292.18, 380.04 ms.
    #[test]
    fn cell_type_presets() {
        let mut apd = Vec::new();
        for (name, reference) in [("epi", 291.49), ("endo", 292.38), ("m", 380.09)] {
            let ap = pace_cell::<Tp, f64>(&preset(name), 0.02, one_hz(), 1).beats[0];
            eprintln!("TP06 {name}: {ap:?}");
            assert!((ap.apd90_ms - reference).abs() < 1.5, "{name}: {ap:?} against {reference}");
            apd.push(ap.apd90_ms);
        }
        assert!(apd[2] > apd[0] + 50.0 && apd[2] > apd[1] + 50.0);
        assert_eq!(preset("endo")[Tp::INFO.parameter_index("s_gate_endo").unwrap()], 1.0);
    }
}

//! Published restitution curves to set a measured one beside, and the
//! agreement between the two in numbers.
//!
//! * Beeler-Reuter: Fenton & Karma 1998 (Chaos 8:20), Fig. 3, the solid
//!   "BR" curves: S1-S2 at one end of a 5 cm cable, D = 1 cm^2/s (0.1
//!   mm^2/ms), APD and DI at V = -60 mV, one S1 from rest. The points were
//!   read off the figure (a 250 dpi rendering of the journal's page, the
//!   axes located by their frame lines, each point the centre of the
//!   curve's line in a pixel column): about +-2 ms in APD and DI, +-0.5
//!   cm/s in CV. The same curve is what FK98 fitted their "BR" parameter
//!   set of the three-variable model to (Table I; its filled circles in
//!   Fig. 3).
//! * Mitchell-Schaeffer: the restitution map of Mitchell & Schaeffer 2003
//!   (Bull Math Biol 65:767), from their asymptotic analysis (tau_in <<
//!   tau_out << tau_open, tau_close): during the diastolic interval the
//!   gate recovers from h_min = 4 tau_in/tau_out towards 1 with
//!   tau_open, and the next action potential lasts until it has closed
//!   back to h_min with tau_close, so
//!   `APD = tau_close ln{[1 - (1 - h_min) e^(-DI/tau_open)] / h_min}`,
//!   with APD and DI measured where v crosses v_gate. It is the leading
//!   order in tau_in/tau_out and tau_out/tau_close: the simulated action
//!   potential ends later, by the slow passage through the fold at h =
//!   h_min, about 40 ms with the paper's values and within a few ms of
//!   that at every DI above 90 ms (`run`'s tests), so it is the shape of
//!   the curve that the formula checks, not its height.

use serde::Serialize;

use super::protocol::{ApdLevel, Geometry, Protocol};
use super::run::Restitution;

/// FK98 Fig. 3a, BR: (DI ms, APD ms) at V = -60 mV.
pub const FK98_BR_APD_MS: [(f64, f64); 19] = [
    (42.0, 31.5),
    (45.0, 37.0),
    (50.0, 48.7),
    (55.0, 61.7),
    (60.0, 78.0),
    (65.0, 97.7),
    (70.0, 119.4),
    (80.0, 168.1),
    (85.0, 182.6),
    (90.0, 191.8),
    (100.0, 204.0),
    (110.0, 213.8),
    (120.0, 219.6),
    (140.0, 228.1),
    (160.0, 234.1),
    (180.0, 239.1),
    (200.0, 242.8),
    (250.0, 250.3),
    (295.0, 255.3),
];

/// FK98 Fig. 3b, BR: (DI ms, CV m/s).
pub const FK98_BR_CV_M_PER_S: [(f64, f64); 10] = [
    (44.0, 0.287),
    (46.0, 0.310),
    (48.0, 0.339),
    (50.0, 0.350),
    (55.0, 0.371),
    (60.0, 0.387),
    (65.0, 0.393),
    (70.0, 0.401),
    (100.0, 0.422),
    (295.0, 0.422),
];

/// The potential FK98 measure APD and DI at, mV.
pub const FK98_LEVEL_MV: f64 = -60.0;

/// The Mitchell-Schaeffer restitution map: APD (ms) after a diastolic
/// interval `di_ms` (see the module's notes).
pub fn mitchell_schaeffer_apd_ms(
    di_ms: f64,
    tau_in: f64,
    tau_out: f64,
    tau_open: f64,
    tau_close: f64,
) -> f64 {
    let h_min = 4.0 * tau_in / tau_out;
    let h = 1.0 - (1.0 - h_min) * (-di_ms / tau_open).exp();
    tau_close * (h / h_min).ln()
}

/// A published curve: APD (and CV) against DI.
#[derive(Clone, Debug, Serialize)]
pub struct Published {
    /// The legend's name.
    pub label: String,
    /// Where it comes from and how it was measured.
    pub source: String,
    /// Whether it is a formula (drawn as a line) or read-off points (markers).
    pub analytic: bool,
    pub apd_ms: Vec<(f64, f64)>,
    pub cv_m_per_s: Vec<(f64, f64)>,
    /// Why the comparison may be off: conditions that differ from the
    /// publication's.
    pub caveat: Option<String>,
}

/// How far a measured curve lies from a published one, at the published
/// points inside the measured range of DI (the measured curve
/// interpolated linearly between its points).
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Agreement {
    pub points: usize,
    /// Measured minus published, mean over the points.
    pub mean_difference: f64,
    pub rms_difference: f64,
    pub max_abs_difference: f64,
    /// The largest difference relative to the published value.
    pub max_relative_difference: f64,
}

/// `ours` (x increasing or not) at `x`, linearly between its points;
/// `None` outside them.
pub fn interpolate(ours: &[(f64, f64)], x: f64) -> Option<f64> {
    let mut pts: Vec<(f64, f64)> =
        ours.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite()).collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let i = pts.partition_point(|p| p.0 < x);
    if i < pts.len() && pts[i].0 == x {
        return Some(pts[i].1);
    }
    if i == 0 || i == pts.len() {
        return None;
    }
    let (a, b) = (pts[i - 1], pts[i]);
    Some(a.1 + (x - a.0) / (b.0 - a.0) * (b.1 - a.1))
}

/// The agreement of `ours` with `published` at the published points in
/// range; `None` when none is.
pub fn compare(ours: &[(f64, f64)], published: &[(f64, f64)]) -> Option<Agreement> {
    let diffs: Vec<(f64, f64)> =
        published.iter().filter_map(|&(x, y)| interpolate(ours, x).map(|m| (m - y, y))).collect();
    if diffs.is_empty() {
        return None;
    }
    let n = diffs.len() as f64;
    Some(Agreement {
        points: diffs.len(),
        mean_difference: diffs.iter().map(|d| d.0).sum::<f64>() / n,
        rms_difference: (diffs.iter().map(|d| d.0 * d.0).sum::<f64>() / n).sqrt(),
        max_abs_difference: diffs.iter().map(|d| d.0.abs()).fold(0.0, f64::max),
        max_relative_difference: diffs.iter().map(|d| (d.0 / d.1).abs()).fold(0.0, f64::max),
    })
}

/// The published curve that applies to a measurement, if there is one:
/// FK98's BR curve for Beeler-Reuter and for Fenton-Karma's "br" set, the
/// closed form for Mitchell-Schaeffer.
pub fn published_for(r: &Restitution) -> Option<Published> {
    match r.model {
        "beeler_reuter" | "fenton_karma" => {
            if r.model == "fenton_karma" && r.preset != Some("br") {
                return None;
            }
            let mut differs = Vec::new();
            if r.schedule.geometry == Geometry::Cell {
                differs.push(
                    "a single cell (FK98: a 5 cm cable; the cell's APD is longer at short DI)".to_string(),
                );
            }
            let fk_level = match r.model {
                "beeler_reuter" => FK98_LEVEL_MV,
                // u = (V + 85)/100.
                _ => (FK98_LEVEL_MV + 85.0) / 100.0,
            };
            if r.schedule.level != ApdLevel::Potential(fk_level) {
                differs.push(format!("APD at {} (FK98: at {fk_level})", r.schedule.level.label()));
            }
            if let Protocol::S1S2(p) = &r.schedule.protocol
                && p.s1_beats != 1
            {
                differs.push(format!("{} S1 beats (FK98: one from rest)", p.s1_beats));
            }
            if !matches!(r.schedule.protocol, Protocol::S1S2(_)) {
                differs.push("dynamic pacing (FK98: S1-S2)".to_string());
            }
            Some(Published {
                label: "FK98 Fig. 3, BR (read off)".into(),
                source: "Fenton & Karma, Chaos 8:20 (1998), Fig. 3: Beeler-Reuter, S1-S2 in a 5 cm cable, \
                         D = 1 cm^2/s, APD and DI at V = -60 mV"
                    .into(),
                analytic: false,
                apd_ms: FK98_BR_APD_MS.to_vec(),
                cv_m_per_s: FK98_BR_CV_M_PER_S.to_vec(),
                caveat: (!differs.is_empty()).then(|| differs.join("; ")),
            })
        }
        "mitchell_schaeffer" => {
            let get = |name: &str| r.parameters.iter().find(|p| p.name == name).map(|p| p.value);
            let (tau_in, tau_out) = (get("tau_in")?, get("tau_out")?);
            let (tau_open, tau_close, v_gate) = (get("tau_open")?, get("tau_close")?, get("v_gate")?);
            let di_max = r.rows.iter().filter_map(|row| row.di_ms).fold(0.0, f64::max).max(50.0);
            let apd_ms = (0..=200)
                .map(|i| di_max * f64::from(i) / 200.0)
                .map(|di| (di, mitchell_schaeffer_apd_ms(di, tau_in, tau_out, tau_open, tau_close)))
                .filter(|p| p.1 > 0.0)
                .collect();
            let caveat = (r.schedule.level != ApdLevel::Potential(v_gate)).then(|| {
                format!(
                    "APD at {} (the closed form: where v crosses v_gate = {v_gate})",
                    r.schedule.level.label()
                )
            });
            Some(Published {
                label: "Mitchell & Schaeffer 2003, closed form".into(),
                source:
                    "Mitchell & Schaeffer, Bull Math Biol 65:767 (2003): APD = tau_close ln{[1 - (1 - h_min) \
                         e^(-DI/tau_open)]/h_min}, h_min = 4 tau_in/tau_out"
                        .into(),
                analytic: true,
                apd_ms,
                cv_m_per_s: Vec::new(),
                caveat,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mitchell_schaeffer_map_rises_to_its_maximum() {
        // The paper's defaults: APD_max = tau_close ln(tau_out/(4 tau_in)) = 150 ln 5.
        let apd = |di| mitchell_schaeffer_apd_ms(di, 0.3, 6.0, 120.0, 150.0);
        assert!((apd(1e6) - 150.0 * 5f64.ln()).abs() < 1e-9);
        // DI = 0: the gate has not recovered, no action potential.
        assert!(apd(0.0).abs() < 1e-12);
        assert!(apd(50.0) < apd(100.0) && apd(100.0) < apd(400.0));
    }

    #[test]
    fn agreement_is_measured_at_the_published_points_in_range() {
        let ours = [(40.0, 30.0), (100.0, 210.0), (300.0, 250.0)];
        assert_eq!(interpolate(&ours, 70.0), Some(120.0));
        assert_eq!(interpolate(&ours, 20.0), None);
        let a = compare(&ours, &[(70.0, 110.0), (300.0, 260.0), (400.0, 0.0)]).unwrap();
        assert_eq!(a.points, 2);
        assert!((a.mean_difference - 0.0).abs() < 1e-12);
        assert!((a.max_abs_difference - 10.0).abs() < 1e-12);
        assert!((a.rms_difference - 10.0).abs() < 1e-12);
    }

    #[test]
    fn the_read_off_curve_is_a_restitution_curve() {
        for w in FK98_BR_APD_MS.windows(2) {
            assert!(w[1].0 > w[0].0 && w[1].1 > w[0].1, "{w:?}");
        }
        for w in FK98_BR_CV_M_PER_S.windows(2) {
            assert!(w[1].0 > w[0].0 && w[1].1 >= w[0].1, "{w:?}");
        }
    }
}

//! The order of the Markov blocks' step. The importer writes a two-stage
//! SDIRK step for a chain with its rates frozen over the step
//! (`fibril_cellml`'s `emit_markov_block`), which is second order for a
//! chain whose rates depend on V alone when V is held: Iyer-Mazhari-
//! Winslow's 13-state sodium chain at a clamped V, against the same chain
//! at a 256 times smaller step. Backward Euler, the step it replaced,
//! halves its error when dt halves; this step quarters it.

use crate::model::{CellModel, Locals, rest_locals};
use crate::models::imported::iyer_2004::Iyer2004;

/// The 13 sodium states after `duration_ms` at `v_mv`, from rest, with
/// time step `dt_ms`.
fn sodium_chain_after(v_mv: f64, duration_ms: f64, dt_ms: f64) -> Vec<f64> {
    let info = Iyer2004::INFO;
    let params: Vec<f64> = info.parameters.iter().map(|p| p.default).collect();
    let coeffs = Iyer2004::coeffs::<f64>(&params, dt_ms);
    let local = |k: usize| {
        let name = format!("na{k}");
        info.variables.iter().position(|v| v.name == name).expect("Iyer's sodium states na1..na13") - 1
    };
    let mut locals = rest_locals::<Iyer2004, f64>();
    for _ in 0..(duration_ms / dt_ms).round() as usize {
        // V is not stepped: the returned dV/dt is dropped.
        let _ = Iyer2004::reaction(v_mv, &mut locals, &coeffs);
    }
    (1..=13).map(|k| locals.get(local(k))).collect()
}

#[test]
fn markov_blocks_step_at_second_order_for_frozen_rates() {
    let (v_mv, duration_ms) = (-20.0, 0.5);
    let reference = sodium_chain_after(v_mv, duration_ms, 0.5 / 4096.0);
    let error = |steps: f64| {
        let x = sodium_chain_after(v_mv, duration_ms, duration_ms / steps);
        x.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max)
    };
    let errors = [error(32.0), error(64.0), error(128.0)];
    // The file's initial occupancies sum to 1 only to its printed digits.
    let (start, end): (f64, f64) = (
        sodium_chain_after(v_mv, 0.0, 1.0).iter().sum(),
        sodium_chain_after(v_mv, duration_ms, duration_ms / 32.0).iter().sum(),
    );
    assert!((end - start).abs() < 1e-13, "a closed chain keeps its total: {start} -> {end}");
    for pair in errors.windows(2) {
        let ratio = pair[0] / pair[1];
        assert!((3.5..4.5).contains(&ratio), "error ratio {ratio} at halved dt (errors {errors:?})");
    }
}

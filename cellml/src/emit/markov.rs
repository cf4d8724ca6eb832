//! The update of a Markov-chain block, written out for its pattern.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Emitter, Mode, deriv, lit};
use crate::analysis::{Block, Plan};
use crate::error::ImportError;
use crate::expr::VarId;

/// The two-stage singly diagonally implicit Runge-Kutta step (Alexander
/// 1977; Hairer and Wanner, Solving ODEs II, section IV.6) of a Markov
/// block dx/dt = A x + b with A and b frozen at the step's start: with
/// g = 1 - 1/sqrt(2) and M = I - g dt A, M k1 = dt f(x) and
/// M k2 = dt f(x) + (1 - g) dt A k1, x' = x + (1 - g) k1 + g k2. Second
/// order and L-stable (a fast transition decays in one step rather than
/// ringing, as it would under the trapezoidal rule), and a closed chain's
/// total is kept (the columns of A sum to 0, so do those of M - I). M is
/// factored once, by Gaussian elimination without pivoting written out for
/// the chain's pattern (M is an M-matrix for a chain's rates), its
/// multipliers kept for the second right side. Since M k1 = dt f,
/// dt A k1 = (k1 - dt f)/g, so the second right side is
/// (1 - (1 - g)/g) dt f + ((1 - g)/g) k1 = -sqrt(2) dt f + (1 + sqrt(2)) k1:
/// no product with A.
#[allow(clippy::needless_range_loop, reason = "the elimination reads best with its indices")]
pub(super) fn emit_markov_block(
    plan: &Plan,
    em: &mut Emitter,
    body: &mut String,
    b: usize,
    block: &Block,
    next: &mut HashMap<VarId, String>,
) -> Result<(), ImportError> {
    let m = &plan.model;
    let g = 1.0 - std::f64::consts::FRAC_1_SQRT_2;
    let size = block.states.len();
    let mut nz = vec![vec![false; size]; size];
    let cell = |i: usize, j: usize| format!("b{b}_{i}_{j}");
    let _ = writeln!(body, "        let b{b}_gdt = {} * dt;", lit(g, Mode::Step));
    for i in 0..size {
        for j in 0..size {
            let coef = &block.coef[i][j];
            if i == j || coef.is_some() {
                nz[i][j] = true;
                em.context = format!("d({})/dt", m.vars[block.states[i]].cellml);
                let a = match coef {
                    Some(e) => em.num(e, Mode::Step)?,
                    None => lit(0.0, Mode::Step),
                };
                let value = if i == j {
                    format!("(-b{b}_gdt).mul_add({a}, n(1.0))")
                } else {
                    format!("-(b{b}_gdt * {a})")
                };
                em.statement(body, &format!("let {} = {value};", cell(i, j)));
            }
        }
        let _ = writeln!(body, "        let b{b}_f{i} = dt * {};", deriv(&m.vars[block.states[i]].ident));
        let _ = writeln!(body, "        let b{b}_r{i} = b{b}_f{i};");
    }
    // Factor M, the first right side eliminated alongside.
    let mut multipliers = Vec::new();
    for k in 0..size {
        for i in k + 1..size {
            if !nz[i][k] {
                continue;
            }
            let l = format!("b{b}_l{i}_{k}");
            let _ = writeln!(body, "        let {l} = {} / {};", cell(i, k), cell(k, k));
            for j in k + 1..size {
                if !nz[k][j] {
                    continue;
                }
                if nz[i][j] {
                    let _ = writeln!(
                        body,
                        "        let {} = (-{l}).mul_add({}, {});",
                        cell(i, j),
                        cell(k, j),
                        cell(i, j)
                    );
                } else {
                    nz[i][j] = true;
                    let _ = writeln!(body, "        let {} = -({l} * {});", cell(i, j), cell(k, j));
                }
            }
            let _ = writeln!(body, "        let b{b}_r{i} = (-{l}).mul_add(b{b}_r{k}, b{b}_r{i});");
            multipliers.push((i, k, l));
        }
    }
    let back_substitute = |body: &mut String, stage: &str| {
        for i in (0..size).rev() {
            let mut acc = format!("b{b}_r{i}");
            for j in i + 1..size {
                if nz[i][j] {
                    acc = format!("(-{}).mul_add(b{b}_{stage}{j}, {acc})", cell(i, j));
                }
            }
            let _ = writeln!(body, "        let b{b}_{stage}{i} = {acc} / {};", cell(i, i));
        }
    };
    back_substitute(body, "k");
    // The second right side, eliminated with the kept multipliers.
    let (f_weight, k_weight) = (-std::f64::consts::SQRT_2, 1.0 + std::f64::consts::SQRT_2);
    for i in 0..size {
        let _ = writeln!(
            body,
            "        let b{b}_r{i} = {}.mul_add(b{b}_k{i}, {} * b{b}_f{i});",
            lit(k_weight, Mode::Step),
            lit(f_weight, Mode::Step)
        );
    }
    for (i, k, l) in &multipliers {
        let _ = writeln!(body, "        let b{b}_r{i} = (-{l}).mul_add(b{b}_r{k}, b{b}_r{i});");
    }
    back_substitute(body, "q");
    for (i, &s) in block.states.iter().enumerate() {
        let step =
            format!("{}.mul_add(b{b}_k{i}, {} * b{b}_q{i})", lit(1.0 - g, Mode::Step), lit(g, Mode::Step));
        next.insert(s, format!("{} + {step}", m.vars[s].ident));
    }
    Ok(())
}

//! The update of a Markov-chain block, written out for its pattern.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::emitter::{Emitter, Mode, deriv, lit};
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
    closed: Option<(f64, VarId)>,
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
        let id = &m.vars[s].ident;
        let _ = writeln!(body, "        let {id}__next = {id} + {step};");
        next.insert(s, format!("{id}__next"));
    }
    if let Some((total, largest)) = closed {
        let others: Vec<String> = block
            .states
            .iter()
            .filter(|&&s| s != largest)
            .map(|&s| format!("{}__next", m.vars[s].ident))
            .collect();
        let id = &m.vars[largest].ident;
        let _ = writeln!(
            body,
            "        let {id}__next = conserved({id}__next, {} - ({}));",
            lit(total, Mode::Step),
            others.join(" + ")
        );
    }
    Ok(())
}

/// Of each block, a closed chain's total occupancy (the sum of its states
/// at the file's initial state) and its largest state there, or `None` if
/// the block is not closed: at the initial state every column of its matrix sums to 0
/// and so do its derivatives (no inflow), to 1e-9 of their magnitudes.
/// Rates that depend on V or on a calcium keep a column's sum at 0 at
/// every state once they do at one (they enter as +-rate pairs).
///
/// In f32 the largest state is the total less the others (the models'
/// `support::conserved`):
/// its exchanges with the others at rest (an occupancy near 1, with an
/// ulp of 6e-8, moved by 1e-9 a step) round away, and the chain's total
/// drifted (Iyer's Kv4.3 chain lost 1.4% in ten beats).
pub(super) fn closed_chains(plan: &Plan) -> Vec<Option<(f64, VarId)>> {
    let (values, derivatives) = plan.evaluate(&HashMap::new());
    plan.blocks.iter().map(|b| closed_total(b, &values, &derivatives)).collect()
}

fn closed_total(block: &Block, values: &[Option<f64>], derivatives: &[Option<f64>]) -> Option<(f64, VarId)> {
    let at = |e: &crate::expr::Expr| crate::eval::eval(e, &|x| values[x], &|_| None);
    let size = block.states.len();
    for j in 0..size {
        let (mut sum, mut scale) = (0.0f64, 0.0f64);
        for row in &block.coef {
            if let Some(e) = &row[j] {
                let x = at(e)?;
                (sum, scale) = (sum + x, scale + x.abs());
            }
        }
        if sum.abs() > 1e-9 * scale {
            return None;
        }
    }
    let (mut flow, mut scale) = (0.0f64, 0.0f64);
    for &s in &block.states {
        let d = derivatives[s]?;
        (flow, scale) = (flow + d, scale + d.abs());
    }
    if flow.abs() > 1e-9 * scale.max(f64::MIN_POSITIVE) {
        return None;
    }
    let initial = |s: VarId| values[s].unwrap_or(f64::NEG_INFINITY);
    let largest = block.states.iter().copied().max_by(|&x, &y| initial(x).total_cmp(&initial(y)))?;
    Some((block.states.iter().map(|&s| initial(s)).sum(), largest))
}

//! The reaction's body: the algebraic equations in order, then each
//! state's update by its scheme.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::emitter::{Emitter, Mode, deriv, lit};
use super::markov::emit_markov_block;
use crate::analysis::{Node, Plan, Scheme};
use crate::error::ImportError;
use crate::expr::VarId;
use crate::model::Def;

/// The carried states: those updated by forward Euler or the generalised
/// Rush-Larsen step that have a unit (concentrations, not fractions),
/// whose increments at a small dt fall below an f32 ulp (`carry_add`);
/// then, of each Markov block, the state largest at the file's initial
/// state (a closed chain's resting occupancy, near 1, whose slow
/// exchanges with the others fall below its ulp: in f32 without it
/// Iyer's Kv4.3 chain lost 1.4% of its total in ten beats).
/// The carried states: those updated by forward Euler or the generalised
/// Rush-Larsen step that have a unit (concentrations, not fractions),
/// whose increments at a small dt fall below an f32 ulp (`carry_add`).
/// (A closed Markov chain keeps its total instead: `markov::closed_chains`.)
pub(super) fn carried_states(plan: &Plan) -> Vec<VarId> {
    let m = &plan.model;
    plan.states[1..]
        .iter()
        .copied()
        .filter(|s| {
            matches!(plan.schemes[s], Scheme::ForwardEuler | Scheme::GeneralisedRushLarsen { .. })
                && !m.vars[*s].unit.is_dimensionless()
        })
        .collect()
}

/// `carried` is [`carried_states`]'s list, `closed` `markov::closed_chains`'.
pub(super) fn reaction_body(
    plan: &Plan,
    em: &mut Emitter,
    carried: &[VarId],
    closed: &[Option<(f64, VarId)>],
) -> Result<String, ImportError> {
    let m = &plan.model;
    let mut body = String::new();
    let others: Vec<VarId> = plan.states[1..].to_vec();
    let names: Vec<&str> = others.iter().map(|&s| m.vars[s].ident.as_str()).collect();
    let v_id = &m.vars[plan.v].ident;
    let _ = writeln!(body, "        let n = T::from_f64;");
    if !names.is_empty() {
        // One element at a time: a whole-array load or store of a few dozen
        // elements is not split into registers by the GPU compiler (the
        // array stays in local memory, a per-thread stack in DRAM).
        for (i, name) in names.iter().enumerate() {
            let _ = writeln!(body, "        let {name} = locals[{i}];");
        }
        for (k, &s) in carried.iter().enumerate() {
            let _ = writeln!(body, "        let {}__carry = locals[{}];", m.vars[s].ident, names.len() + k);
        }
    }
    if plan.v_per_mv == 1.0 {
        let _ = writeln!(body, "        let {v_id} = v_mv;");
    } else {
        let _ = writeln!(body, "        let {v_id} = v_mv * {};", lit(plan.v_per_mv, Mode::Step));
    }
    for node in &plan.order {
        match *node {
            Node::Var(x) => {
                let Def::Algebraic(e) = &m.vars[x].def else { unreachable!() };
                em.context = m.vars[x].cellml.clone();
                let code = em.num(e, Mode::Step)?;
                em.statement(&mut body, &format!("let {} = {code};", m.vars[x].ident));
            }
            Node::Diff(x) => {
                let Def::State { rhs, .. } = &m.vars[x].def else { unreachable!() };
                em.context = format!("d({})/dt", m.vars[x].cellml);
                let code = em.num(rhs, Mode::Step)?;
                em.statement(&mut body, &format!("let {} = {code};", deriv(&m.vars[x].ident)));
            }
        }
    }
    let _ = writeln!(body, "        let dt = c.dt;");
    let mut next: HashMap<VarId, String> = HashMap::new();
    for &s in &others {
        let id = &m.vars[s].ident;
        match &plan.schemes[&s] {
            Scheme::ForwardEuler if carried.contains(&s) => {
                let d = deriv(id);
                em.statement(
                    &mut body,
                    &format!("let ({id}__next, {id}__carry_next) = carry_add({id}, {id}__carry, {d} * dt, {d}.mul_add(dt, {id}));"),
                );
                next.insert(s, format!("{id}__next"));
            }
            Scheme::ForwardEuler => {
                next.insert(s, format!("{}.mul_add(dt, {id})", deriv(id)));
            }
            Scheme::GeneralisedRushLarsen { coef } if carried.contains(&s) => {
                em.context = format!("d({})/dt", m.vars[s].cellml);
                let k = em.num(coef, Mode::Step)?;
                let d = deriv(id);
                em.statement(&mut body, &format!("let {id}__phi = exp_euler_phi({k}, dt);"));
                em.statement(
                    &mut body,
                    &format!("let ({id}__next, {id}__carry_next) = carry_add({id}, {id}__carry, ({d} * dt) * {id}__phi, ({d} * dt).mul_add({id}__phi, {id}));"),
                );
                next.insert(s, format!("{id}__next"));
            }
            Scheme::RushLarsen { coef } | Scheme::GeneralisedRushLarsen { coef } => {
                em.context = format!("d({})/dt", m.vars[s].cellml);
                let k = em.num(coef, Mode::Step)?;
                next.insert(s, format!("exp_euler({id}, {}, {k}, dt)", deriv(id)));
            }
            Scheme::Markov { .. } => {}
        }
    }
    for (b, block) in plan.blocks.iter().enumerate() {
        em.statement(
            &mut body,
            &format!("// Markov block {b}: two-stage SDIRK, (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1."),
        );
        emit_markov_block(plan, em, &mut body, b, block, closed[b], &mut next)?;
    }
    if !others.is_empty() {
        // Each update reads the step's start values (the `let`s above), so
        // writing them in place one by one is the same as writing them at once.
        for (i, s) in others.iter().enumerate() {
            let update = format!("locals[{i}] = {};", next[s]);
            em.statement(&mut body, &update);
        }
        for (k, &s) in carried.iter().enumerate() {
            let update = format!("locals[{}] = {}__carry_next;", others.len() + k, m.vars[s].ident);
            em.statement(&mut body, &update);
        }
    }
    let scale = plan.t_per_ms / plan.v_per_mv;
    if scale == 1.0 {
        let _ = writeln!(body, "        {}", deriv(v_id));
    } else {
        let _ = writeln!(body, "        {} * {}", deriv(v_id), lit(scale, Mode::Step));
    }
    Ok(body)
}

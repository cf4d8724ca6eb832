//! Whether a right-hand side is affine in a set of states,
//! f = sum_j a_j x_j + b with a_j and b free of those states, and what
//! a_j and b are: the test behind the Rush-Larsen gates (one state,
//! f = (x_inf - x)/tau or alpha (1 - x) - beta x) and the Markov blocks
//! (several, f = A x + b). Algebraic variables that depend on the states
//! (the fluxes of a chain, J = k1 C1 - k2 C2) are read through their
//! definitions; others stay whole.

use std::collections::BTreeMap;

use crate::expr::{Expr, Op, VarId};

/// `f = sum coef[x] x + constant`.
#[derive(Clone, Debug, PartialEq)]
pub struct Affine {
    pub coef: BTreeMap<VarId, Expr>,
    pub constant: Expr,
}

/// What the test needs to know of the model.
pub trait Definitions {
    /// The definition of an algebraic variable, `None` for states and constants.
    fn algebraic(&self, v: VarId) -> Option<&Expr>;
    /// The right-hand side of a state.
    fn rhs(&self, v: VarId) -> Option<&Expr>;
    /// Whether `e` (through algebraic variables and derivatives) reads any of `targets`.
    fn reads(&self, e: &Expr, targets: &[VarId]) -> bool;
}

fn add(a: Expr, b: Expr) -> Expr {
    match (&a, &b) {
        (Expr::Num(x), _) if *x == 0.0 => b,
        (_, Expr::Num(y)) if *y == 0.0 => a,
        _ => Expr::apply(Op::Plus, vec![a, b]),
    }
}

fn scale(k: &Expr, e: Expr) -> Expr {
    match (k, &e) {
        (Expr::Num(x), _) if *x == 1.0 => e,
        (_, Expr::Num(y)) if *y == 1.0 => k.clone(),
        (_, Expr::Num(y)) if *y == 0.0 => Expr::Num(0.0),
        _ => Expr::times(k.clone(), e),
    }
}

fn neg(e: Expr) -> Expr {
    match e {
        Expr::Num(x) => Expr::Num(-x),
        other => Expr::apply(Op::Minus, vec![other]),
    }
}

impl Affine {
    fn constant(e: Expr) -> Affine {
        Affine { coef: BTreeMap::new(), constant: e }
    }

    fn plus(mut self, other: Affine, sign: f64) -> Affine {
        for (x, c) in other.coef {
            let c = if sign < 0.0 { neg(c) } else { c };
            let sum = match self.coef.remove(&x) {
                Some(prev) => add(prev, c),
                None => c,
            };
            self.coef.insert(x, sum);
        }
        let oc = if sign < 0.0 { neg(other.constant) } else { other.constant };
        self.constant = add(self.constant, oc);
        self
    }

    fn scaled(self, k: &Expr) -> Affine {
        Affine {
            coef: self.coef.into_iter().map(|(x, c)| (x, scale(k, c))).collect(),
            constant: scale(k, self.constant),
        }
    }
}

/// `e` as an affine function of `targets`, or `None` where it is not one.
pub fn affine(e: &Expr, targets: &[VarId], defs: &impl Definitions) -> Option<Affine> {
    if !defs.reads(e, targets) {
        return Some(Affine::constant(e.clone()));
    }
    match e {
        Expr::Var(v) if targets.contains(v) => {
            Some(Affine { coef: BTreeMap::from([(*v, Expr::Num(1.0))]), constant: Expr::Num(0.0) })
        }
        Expr::Var(v) => affine(defs.algebraic(*v)?, targets, defs),
        Expr::Diff(v) => affine(defs.rhs(*v)?, targets, defs),
        Expr::Apply(Op::Plus, args) => {
            let mut acc = Affine::constant(Expr::Num(0.0));
            for a in args {
                acc = acc.plus(affine(a, targets, defs)?, 1.0);
            }
            Some(acc)
        }
        Expr::Apply(Op::Minus, args) if args.len() == 1 => {
            Some(Affine::constant(Expr::Num(0.0)).plus(affine(&args[0], targets, defs)?, -1.0))
        }
        Expr::Apply(Op::Minus, args) => {
            Some(affine(&args[0], targets, defs)?.plus(affine(&args[1], targets, defs)?, -1.0))
        }
        Expr::Apply(Op::Times, args) => {
            // One factor may read the targets; the others scale it.
            let (reading, others): (Vec<&Expr>, Vec<&Expr>) =
                args.iter().partition(|a| defs.reads(a, targets));
            let [one] = reading.as_slice() else { return None };
            let k = match others.len() {
                0 => Expr::Num(1.0),
                1 => others[0].clone(),
                _ => Expr::apply(Op::Times, others.into_iter().cloned().collect()),
            };
            Some(affine(one, targets, defs)?.scaled(&k))
        }
        Expr::Apply(Op::Divide, args) if !defs.reads(&args[1], targets) => {
            let inv = Expr::apply(Op::Divide, vec![Expr::Num(1.0), args[1].clone()]);
            Some(affine(&args[0], targets, defs)?.scaled(&inv))
        }
        _ => None,
    }
}

/// d e / d x, reading algebraic variables and derivatives that depend on
/// x through their definitions; `None` where e uses a function this does
/// not differentiate. The generalised Rush-Larsen step (Sundnes, Artebrant,
/// Skavhaug, Tveito 2009, "GRL1") advances a state with this diagonal
/// Jacobian frozen over the step.
pub fn derivative(e: &Expr, x: VarId, defs: &impl Definitions) -> Option<Expr> {
    if !defs.reads(e, &[x]) {
        return Some(Expr::Num(0.0));
    }
    let d = |a: &Expr| derivative(a, x, defs);
    let mul = |a: Expr, b: Expr| -> Expr {
        match (&a, &b) {
            (Expr::Num(p), _) if *p == 0.0 => Expr::Num(0.0),
            (_, Expr::Num(q)) if *q == 0.0 => Expr::Num(0.0),
            (Expr::Num(p), _) if *p == 1.0 => b,
            (_, Expr::Num(q)) if *q == 1.0 => a,
            _ => Expr::times(a, b),
        }
    };
    Some(match e {
        Expr::Var(v) if *v == x => Expr::Num(1.0),
        Expr::Var(v) => d(defs.algebraic(*v)?)?,
        Expr::Diff(v) => d(defs.rhs(*v)?)?,
        Expr::Num(_) | Expr::Cn(..) => Expr::Num(0.0),
        Expr::Piecewise(pieces, other) => Expr::Piecewise(
            pieces.iter().map(|(v, c)| Some((d(v)?, c.clone()))).collect::<Option<_>>()?,
            Box::new(d(other)?),
        ),
        Expr::Apply(op, args) => match op {
            Op::Plus => {
                let mut acc = Expr::Num(0.0);
                for a in args {
                    acc = add(acc, d(a)?);
                }
                acc
            }
            Op::Minus if args.len() == 1 => neg(d(&args[0])?),
            Op::Minus => add(d(&args[0])?, neg(d(&args[1])?)),
            Op::Times => {
                // Sum over factors of (d factor) * (the others).
                let mut acc = Expr::Num(0.0);
                for (i, a) in args.iter().enumerate() {
                    let da = d(a)?;
                    if matches!(da, Expr::Num(z) if z == 0.0) {
                        continue;
                    }
                    let mut term = da;
                    for (j, b) in args.iter().enumerate() {
                        if i != j {
                            term = mul(term, b.clone());
                        }
                    }
                    acc = add(acc, term);
                }
                acc
            }
            Op::Divide => {
                // (u/v)' = u'/v - u v'/v^2
                let (u, v) = (&args[0], &args[1]);
                let (du, dv) = (d(u)?, d(v)?);
                let is_zero = |e: &Expr| matches!(e, Expr::Num(z) if *z == 0.0);
                let first = Expr::apply(Op::Divide, vec![du.clone(), v.clone()]);
                if is_zero(&dv) {
                    first
                } else {
                    let second =
                        Expr::apply(Op::Divide, vec![mul(u.clone(), dv), Expr::times(v.clone(), v.clone())]);
                    // A numerator free of x (K/c, c = [Na]i) is common: no 0/v term.
                    if is_zero(&du) { neg(second) } else { add(first, neg(second)) }
                }
            }
            Op::Power => {
                // Only a base that reads x: (u^p)' = p u^(p-1) u'.
                if defs.reads(&args[1], &[x]) {
                    return None;
                }
                let (u, p) = (&args[0], &args[1]);
                let pm1 = match p {
                    Expr::Num(q) | Expr::Cn(q, _) => Expr::Num(q - 1.0),
                    _ => Expr::apply(Op::Minus, vec![p.clone(), Expr::Num(1.0)]),
                };
                mul(mul(p.clone(), Expr::apply(Op::Power, vec![u.clone(), pm1])), d(u)?)
            }
            Op::Exp => mul(e.clone(), d(&args[0])?),
            Op::Ln => Expr::apply(Op::Divide, vec![d(&args[0])?, args[0].clone()]),
            Op::Sqrt => Expr::apply(Op::Divide, vec![d(&args[0])?, Expr::times(Expr::Num(2.0), e.clone())]),
            _ => return None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::eval;

    /// Variables 0 and 1 are states; 2 = 3 * x0 - x1 (a flux); 3 = V.
    struct Chain;
    impl Definitions for Chain {
        fn algebraic(&self, v: VarId) -> Option<&Expr> {
            static FLUX: std::sync::OnceLock<Expr> = std::sync::OnceLock::new();
            (v == 2).then(|| {
                FLUX.get_or_init(|| {
                    Expr::apply(Op::Minus, vec![Expr::times(Expr::Num(3.0), Expr::Var(0)), Expr::Var(1)])
                })
            })
        }
        fn rhs(&self, _: VarId) -> Option<&Expr> {
            None
        }
        fn reads(&self, e: &Expr, targets: &[VarId]) -> bool {
            let mut vs = Vec::new();
            e.vars(&mut vs);
            vs.iter().any(|v| targets.contains(v) || *v == 2)
        }
    }

    #[test]
    fn splits_a_chain_and_refuses_products_of_states() {
        // f = V * flux / 2 + V
        let f = Expr::apply(
            Op::Plus,
            vec![
                Expr::apply(Op::Divide, vec![Expr::times(Expr::Var(3), Expr::Var(2)), Expr::Num(2.0)]),
                Expr::Var(3),
            ],
        );
        let a = affine(&f, &[0, 1], &Chain).unwrap();
        let at = |e: &Expr| eval(e, &|v| (v == 3).then_some(10.0), &|_| None).unwrap();
        assert_eq!(at(&a.coef[&0]), 15.0);
        assert_eq!(at(&a.coef[&1]), -5.0);
        assert_eq!(at(&a.constant), 10.0);
        let square = Expr::times(Expr::Var(0), Expr::Var(0));
        assert!(affine(&square, &[0], &Chain).is_none());
        let e = Expr::apply(Op::Exp, vec![Expr::Var(0)]);
        assert!(affine(&e, &[0], &Chain).is_none());
    }
}

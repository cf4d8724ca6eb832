//! Evaluating an expression in f64: the default values of derived
//! constants, the stimulus's contribution to dV/dt, the singular points of
//! the rates, and the single-cell runs of the import report. Not the code
//! fibril runs: that is the generated Rust.

use crate::expr::{Expr, Op, VarId};

/// The value of `e`, with `var` and `diff` giving the variables and
/// derivatives (`None`: unknown, and so is the result).
pub fn eval(
    e: &Expr,
    var: &dyn Fn(VarId) -> Option<f64>,
    diff: &dyn Fn(VarId) -> Option<f64>,
) -> Option<f64> {
    let ev = |x: &Expr| eval(x, var, diff);
    Some(match e {
        Expr::Num(x) | Expr::Cn(x, _) => *x,
        Expr::Var(v) => var(*v)?,
        Expr::Diff(v) => diff(*v)?,
        Expr::Piecewise(pieces, other) => {
            for (v, c) in pieces {
                if ev(c)? != 0.0 {
                    return ev(v);
                }
            }
            ev(other)?
        }
        Expr::Apply(op, args) => {
            let a: Vec<f64> = args.iter().map(ev).collect::<Option<_>>()?;
            apply(*op, &a)
        }
    })
}

fn truth(b: bool) -> f64 {
    if b { 1.0 } else { 0.0 }
}

pub fn apply(op: Op, a: &[f64]) -> f64 {
    match op {
        Op::Plus => a.iter().sum(),
        Op::Minus => {
            if a.len() == 1 {
                -a[0]
            } else {
                a[0] - a[1]
            }
        }
        Op::Times => a.iter().product(),
        Op::Divide => a[0] / a[1],
        Op::Power => a[0].powf(a[1]),
        Op::Exp => a[0].exp(),
        Op::Ln => a[0].ln(),
        Op::Log10 => a[0].log10(),
        Op::Sqrt => a[0].sqrt(),
        Op::Abs => a[0].abs(),
        Op::Floor => a[0].floor(),
        Op::Ceiling => a[0].ceil(),
        Op::Rem => a[0] % a[1],
        Op::Min => a.iter().copied().fold(f64::INFINITY, f64::min),
        Op::Max => a.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Op::Sin => a[0].sin(),
        Op::Cos => a[0].cos(),
        Op::Tan => a[0].tan(),
        Op::Sinh => a[0].sinh(),
        Op::Cosh => a[0].cosh(),
        Op::Tanh => a[0].tanh(),
        Op::Arcsin => a[0].asin(),
        Op::Arccos => a[0].acos(),
        Op::Arctan => a[0].atan(),
        Op::Lt => truth(a[0] < a[1]),
        Op::Leq => truth(a[0] <= a[1]),
        Op::Gt => truth(a[0] > a[1]),
        Op::Geq => truth(a[0] >= a[1]),
        Op::Eq => truth(a.windows(2).all(|w| w[0] == w[1])),
        Op::Neq => truth(a[0] != a[1]),
        Op::And => truth(a.iter().all(|&x| x != 0.0)),
        Op::Or => truth(a.iter().any(|&x| x != 0.0)),
        Op::Xor => truth(a.iter().filter(|&&x| x != 0.0).count() % 2 == 1),
        Op::Not => truth(a[0] == 0.0),
    }
}

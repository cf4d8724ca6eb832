//! Common-subexpression elimination of the generated reaction.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::expr::{Expr, Op};

/// Common-subexpression elimination of the reaction. The generalised
/// Rush-Larsen coefficients and the Markov rates repeat the currents'
/// expressions many times; a first pass counts how often each compound
/// expression is written, the second gives those written more than once a
/// `let s__N` before the first statement that needs it. The operations and
/// their order are unchanged, so are the results, bit for bit; only the
/// repeats go. Never inside a singularity's closure, where V is the
/// closure's argument.
#[derive(Default)]
pub(super) struct Cse {
    pub(super) counting: bool,
    pub(super) counts: HashMap<u64, usize>,
    /// The code first written for each hash in the counting pass: two
    /// different expressions with one hash (a 64-bit collision) are never
    /// shared.
    pub(super) first_code: HashMap<u64, String>,
    pub(super) temps: HashMap<u64, String>,
    pub(super) pending: Vec<String>,
    pub(super) closure_depth: usize,
}

/// A structural hash of an expression: equal expressions are written as
/// equal code, so this names the code without writing it.
pub(super) fn expr_key(e: &Expr) -> u64 {
    fn feed(e: &Expr, h: &mut DefaultHasher) {
        std::mem::discriminant(e).hash(h);
        match e {
            Expr::Num(x) | Expr::Cn(x, _) => x.to_bits().hash(h),
            Expr::Var(v) | Expr::Diff(v) => v.hash(h),
            Expr::Apply(op, args) => {
                op.hash(h);
                args.len().hash(h);
                args.iter().for_each(|a| feed(a, h));
            }
            Expr::Piecewise(pieces, other) => {
                pieces.len().hash(h);
                for (v, c) in pieces {
                    feed(v, h);
                    feed(c, h);
                }
                feed(other, h);
            }
        }
    }
    let mut h = DefaultHasher::new();
    feed(e, &mut h);
    h.finish()
}

/// Worth a temporary when repeated: a function call or at least one
/// binary operation (not a bare negation of a name).
pub(super) fn worth_a_temporary(e: &Expr) -> bool {
    match e {
        Expr::Apply(Op::Minus, args) if args.len() == 1 => e.size() >= 3,
        Expr::Apply(op, _) => !op.is_logical(),
        Expr::Piecewise(..) => true,
        _ => false,
    }
}

//! The equations' expressions: MathML content reduced to what the models
//! use (the corpus survey behind this list: every element that occurs in
//! the 79 files of the public Chaste corpus, plus the few MathML 2
//! functions that are as cheap to support as to refuse).

/// A variable of the flattened model (an index into `Model::vars`).
pub type VarId = usize;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(f64),
    /// A number with the units the file gives it (`<cn cellml:units>`);
    /// the units check turns every one into [`Expr::Num`].
    Cn(f64, crate::units::Unit),
    Var(VarId),
    /// d(state)/d(time): derivatives may appear inside other equations.
    Diff(VarId),
    Apply(Op, Vec<Expr>),
    /// (value, condition) pieces in order, then the `otherwise` value
    /// (NaN where the file gives none).
    Piecewise(Vec<(Expr, Expr)>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Plus,
    Minus,
    Times,
    Divide,
    Power,
    Exp,
    Ln,
    Log10,
    Sqrt,
    Abs,
    Floor,
    Ceiling,
    Rem,
    Min,
    Max,
    Sin,
    Cos,
    Tan,
    Sinh,
    Cosh,
    Tanh,
    Arcsin,
    Arccos,
    Arctan,
    Lt,
    Leq,
    Gt,
    Geq,
    Eq,
    Neq,
    And,
    Or,
    Xor,
    Not,
}

impl Op {
    /// Whether the result is a truth value (for the units check).
    pub fn is_logical(self) -> bool {
        matches!(
            self,
            Op::Lt | Op::Leq | Op::Gt | Op::Geq | Op::Eq | Op::Neq | Op::And | Op::Or | Op::Xor | Op::Not
        )
    }
}

impl Expr {
    pub fn apply(op: Op, args: Vec<Expr>) -> Expr {
        Expr::Apply(op, args)
    }

    pub fn times(a: Expr, b: Expr) -> Expr {
        Expr::Apply(Op::Times, vec![a, b])
    }

    /// Every variable the expression reads (derivatives not included).
    pub fn vars(&self, out: &mut Vec<VarId>) {
        match self {
            Expr::Var(v) => out.push(*v),
            Expr::Num(_) | Expr::Cn(..) | Expr::Diff(_) => {}
            Expr::Apply(_, args) => args.iter().for_each(|a| a.vars(out)),
            Expr::Piecewise(pieces, other) => {
                for (v, c) in pieces {
                    v.vars(out);
                    c.vars(out);
                }
                other.vars(out);
            }
        }
    }

    /// Every derivative the expression reads.
    pub fn diffs(&self, out: &mut Vec<VarId>) {
        match self {
            Expr::Diff(v) => out.push(*v),
            Expr::Num(_) | Expr::Cn(..) | Expr::Var(_) => {}
            Expr::Apply(_, args) => args.iter().for_each(|a| a.diffs(out)),
            Expr::Piecewise(pieces, other) => {
                for (v, c) in pieces {
                    v.diffs(out);
                    c.diffs(out);
                }
                other.diffs(out);
            }
        }
    }

    /// The expression with every variable `v` replaced by `f(v)` where it
    /// returns `Some`.
    pub fn substitute(&self, f: &mut impl FnMut(VarId) -> Option<Expr>) -> Expr {
        match self {
            Expr::Var(v) => f(*v).unwrap_or(Expr::Var(*v)),
            Expr::Num(_) | Expr::Cn(..) | Expr::Diff(_) => self.clone(),
            Expr::Apply(op, args) => Expr::Apply(*op, args.iter().map(|a| a.substitute(f)).collect()),
            Expr::Piecewise(pieces, other) => Expr::Piecewise(
                pieces.iter().map(|(v, c)| (v.substitute(f), c.substitute(f))).collect(),
                Box::new(other.substitute(f)),
            ),
        }
    }

    /// The number of nodes (to tell a constant worth a coefficient from a literal).
    pub fn size(&self) -> usize {
        match self {
            Expr::Num(_) | Expr::Cn(..) | Expr::Var(_) | Expr::Diff(_) => 1,
            Expr::Apply(_, args) => 1 + args.iter().map(Expr::size).sum::<usize>(),
            Expr::Piecewise(pieces, other) => {
                1 + other.size() + pieces.iter().map(|(v, c)| v.size() + c.size()).sum::<usize>()
            }
        }
    }
}

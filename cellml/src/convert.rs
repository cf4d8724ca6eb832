//! The units check: every sum, comparison and equation must join
//! quantities of one dimension, every function argument and exponent must
//! be dimensionless. Where two sides have one dimension but different
//! scales (mV and V, ms and s, across a connection or inside a formula),
//! the check multiplies by the factor between them, as CellML 1.0's
//! section 5.2.7 asks of a processing tool; where the dimensions differ,
//! the import stops and names the variable whose equation is wrong.

use crate::error::ImportError;
use crate::expr::{Expr, Op};
use crate::units::Unit;

/// Units of a truth value (comparisons and logic).
const LOGICAL: Unit = Unit::DIMENSIONLESS;

/// What the check needs of the model: the unit of each variable and of a
/// derivative, and a name for messages.
pub trait UnitsOf {
    fn unit(&self, v: usize) -> Unit;
    fn diff_unit(&self, v: usize) -> Unit;
    /// The value of a constant variable (for exponents such as a Hill
    /// coefficient: Ca^n has the units of Ca to the n-th).
    fn constant(&self, v: usize) -> Option<f64>;
}

pub struct Checker<'a, U: UnitsOf> {
    pub model: &'a U,
    /// The equation being checked, for messages (`component.variable`).
    pub context: String,
    /// Whether a mismatch of dimensions is a warning (kept in
    /// `warnings`, the numbers taken as written) rather than an error.
    pub lenient: bool,
    pub warnings: std::cell::RefCell<Vec<String>>,
}

/// `e` scaled from units of factor `from` to units of factor `to`.
fn rescale(e: Expr, from: f64, to: f64) -> Expr {
    let k = from / to;
    if (k - 1.0).abs() < 1e-12 { e } else { Expr::times(Expr::Num(k), e) }
}

impl<U: UnitsOf> Checker<'_, U> {
    fn mismatch(&self, what: &str, a: &Unit, b: &Unit) -> ImportError {
        ImportError::InconsistentUnits(format!(
            "in the equation of `{}`: {what} joins [{}] and [{}]; fix the units of the variables or numbers involved",
            self.context,
            a.dims_text(),
            b.dims_text()
        ))
    }

    /// `e` in units of the dimension of `want`, scaled to its factor.
    fn to(&self, (e, u): (Expr, Unit), want: &Unit, what: &str) -> Result<Expr, ImportError> {
        if !u.same_dims(want) {
            let err = self.mismatch(what, want, &u);
            if self.lenient {
                self.warnings.borrow_mut().push(err.to_string());
                return Ok(e);
            }
            return Err(err);
        }
        Ok(rescale(e, u.factor, want.factor))
    }

    fn dimensionless(&self, eu: (Expr, Unit), what: &str) -> Result<Expr, ImportError> {
        self.to(eu, &Unit::DIMENSIONLESS, what)
    }

    /// The expression with conversions inserted, and its units.
    pub fn check(&self, e: &Expr) -> Result<(Expr, Unit), ImportError> {
        Ok(match e {
            Expr::Num(x) => (Expr::Num(*x), Unit::DIMENSIONLESS),
            Expr::Cn(x, u) => (Expr::Num(*x), *u),
            Expr::Var(v) => (e.clone(), self.model.unit(*v)),
            Expr::Diff(v) => (e.clone(), self.model.diff_unit(*v)),
            Expr::Piecewise(pieces, other) => {
                let mut checked = Vec::new();
                let mut unit: Option<Unit> = None;
                for (v, c) in pieces {
                    let cond = self.dimensionless(self.check(c)?, "a condition")?;
                    let (ve, vu) = self.check(v)?;
                    let want = *unit.get_or_insert(vu);
                    checked.push((self.to((ve, vu), &want, "a piecewise")?, cond));
                }
                let (oe, ou) = self.check(other)?;
                // A missing `otherwise` (NaN) takes the pieces' units.
                let want = *unit.get_or_insert(ou);
                let oe = if matches!(**other, Expr::Num(x) if x.is_nan()) {
                    oe
                } else {
                    self.to((oe, ou), &want, "a piecewise")?
                };
                (Expr::Piecewise(checked, Box::new(oe)), want)
            }
            Expr::Apply(op, args) => self.apply(*op, args)?,
        })
    }

    fn apply(&self, op: Op, args: &[Expr]) -> Result<(Expr, Unit), ImportError> {
        let checked: Vec<(Expr, Unit)> = args.iter().map(|a| self.check(a)).collect::<Result<_, _>>()?;
        let word = format!("{op:?}").to_lowercase();
        let same_as_first = |checked: Vec<(Expr, Unit)>| -> Result<(Vec<Expr>, Unit), ImportError> {
            let first = checked[0].1;
            let exprs = checked
                .into_iter()
                .map(|eu| self.to(eu, &first, &format!("<{word}>")))
                .collect::<Result<_, _>>()?;
            Ok((exprs, first))
        };
        Ok(match op {
            Op::Plus | Op::Minus | Op::Min | Op::Max | Op::Rem => {
                let (exprs, u) = same_as_first(checked)?;
                (Expr::apply(op, exprs), u)
            }
            Op::Abs | Op::Floor | Op::Ceiling => {
                let (e, u) = checked.into_iter().next().unwrap();
                (Expr::apply(op, vec![e]), u)
            }
            Op::Lt | Op::Leq | Op::Gt | Op::Geq | Op::Eq | Op::Neq => {
                let (exprs, _) = same_as_first(checked)?;
                (Expr::apply(op, exprs), LOGICAL)
            }
            Op::And | Op::Or | Op::Xor | Op::Not => {
                (Expr::apply(op, checked.into_iter().map(|(e, _)| e).collect()), LOGICAL)
            }
            Op::Times => {
                let u = checked.iter().fold(Unit::DIMENSIONLESS, |acc, (_, u)| acc.times(u));
                (Expr::apply(op, checked.into_iter().map(|(e, _)| e).collect()), u)
            }
            Op::Divide => {
                let u = checked[0].1.over(&checked[1].1);
                (Expr::apply(op, checked.into_iter().map(|(e, _)| e).collect()), u)
            }
            Op::Power => {
                let mut it = checked.into_iter();
                let (base, bu) = it.next().unwrap();
                let exponent = self.dimensionless(it.next().unwrap(), "an exponent")?;
                if bu.is_dimensionless() {
                    let base = rescale(base, bu.factor, 1.0);
                    (Expr::apply(op, vec![base, exponent]), Unit::DIMENSIONLESS)
                } else {
                    let model = self.model;
                    let p = crate::eval::eval(&exponent, &|v| model.constant(v), &|_| None);
                    let Some(p) = p else {
                        return Err(ImportError::InconsistentUnits(format!(
                            "in the equation of `{}`: a quantity with units [{}] is raised to a power that is not a constant",
                            self.context,
                            bu.dims_text()
                        )));
                    };
                    (Expr::apply(op, vec![base, exponent]), bu.powf(p))
                }
            }
            Op::Sqrt => {
                let (e, u) = checked.into_iter().next().unwrap();
                (Expr::apply(op, vec![e]), u.powf(0.5))
            }
            Op::Exp
            | Op::Ln
            | Op::Log10
            | Op::Sin
            | Op::Cos
            | Op::Tan
            | Op::Sinh
            | Op::Cosh
            | Op::Tanh
            | Op::Arcsin
            | Op::Arccos
            | Op::Arctan => {
                let what = format!("the argument of <{word}>");
                let arg = self.dimensionless(checked.into_iter().next().unwrap(), &what)?;
                (Expr::apply(op, vec![arg]), Unit::DIMENSIONLESS)
            }
        })
    }

    /// `lhs = rhs` with the right side converted to the left side's units.
    pub fn equation(&self, lhs_unit: &Unit, rhs: &Expr) -> Result<Expr, ImportError> {
        let (e, u) = self.check(rhs)?;
        if !u.same_dims(lhs_unit) {
            let err = ImportError::InconsistentUnits(format!(
                "the equation of `{}` sets a quantity of [{}] to an expression of [{}]; fix the units of its variables or numbers",
                self.context,
                lhs_unit.dims_text(),
                u.dims_text()
            ));
            if self.lenient {
                self.warnings.borrow_mut().push(err.to_string());
                return Ok(e);
            }
            return Err(err);
        }
        Ok(rescale(e, u.factor, lhs_unit.factor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Two;
    const MV: Unit = Unit { factor: 1e-3, dims: [2., 1., -3., -1., 0., 0., 0., 0.] };
    const V: Unit = Unit { factor: 1.0, dims: [2., 1., -3., -1., 0., 0., 0., 0.] };
    const MS: Unit = Unit { factor: 1e-3, dims: [0., 0., 1., 0., 0., 0., 0., 0.] };

    impl UnitsOf for Two {
        fn unit(&self, v: usize) -> Unit {
            [MV, V, MS][v]
        }
        fn diff_unit(&self, v: usize) -> Unit {
            self.unit(v).over(&MS)
        }
        fn constant(&self, _: usize) -> Option<f64> {
            None
        }
    }

    #[test]
    fn scales_are_converted_and_dimensions_refused() {
        let c =
            Checker { model: &Two, context: "cell.x".into(), lenient: false, warnings: Default::default() };
        // mV + V: the volts are multiplied by 1000.
        let (e, u) = c.check(&Expr::apply(Op::Plus, vec![Expr::Var(0), Expr::Var(1)])).unwrap();
        assert_eq!(u, MV);
        assert_eq!(
            e,
            Expr::apply(Op::Plus, vec![Expr::Var(0), Expr::times(Expr::Num(1000.0), Expr::Var(1))])
        );
        let err = c.check(&Expr::apply(Op::Plus, vec![Expr::Var(0), Expr::Var(2)])).unwrap_err().to_string();
        assert!(err.contains("cell.x") && err.contains("s"), "{err}");
        let err = c.check(&Expr::apply(Op::Exp, vec![Expr::Var(0)])).unwrap_err().to_string();
        assert!(err.contains("argument of <exp>"), "{err}");
        // exp(V / 25 mV): dimensionless with factor 1000, scaled to 1.
        let arg = Expr::apply(Op::Divide, vec![Expr::Var(1), Expr::Cn(25.0, MV)]);
        let (e, _) = c.check(&Expr::apply(Op::Exp, vec![arg.clone()])).unwrap();
        let want = Expr::apply(
            Op::Exp,
            vec![Expr::times(
                Expr::Num(1000.0),
                Expr::apply(Op::Divide, vec![Expr::Var(1), Expr::Num(25.0)]),
            )],
        );
        assert_eq!(e, want);
        // dV/dt [mV/ms] = V / ms: times 1000.
        let rhs = Expr::apply(Op::Divide, vec![Expr::Var(1), Expr::Var(2)]);
        let e = c.equation(&Two.diff_unit(0), &rhs).unwrap();
        assert_eq!(e, Expr::times(Expr::Num(1000.0), rhs));
    }
}

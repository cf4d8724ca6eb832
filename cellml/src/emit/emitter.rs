//! The writer of expressions: MathML trees as Rust in the generated
//! file's two places (the per-step reaction, generic over the precision,
//! and the host's coefficients in f64), with its shared subexpressions,
//! hoisted constants and removable singularities.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

use super::cse::{Cse, expr_key, worth_a_temporary};
use crate::analysis::Plan;
use crate::error::ImportError;
use crate::eval::eval;
use crate::expr::{Expr, Op, VarId};
use crate::model::Def;

/// What the generated code is written for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// The reaction, in `T`; constants are read from the coefficients.
    Step,
    /// The coefficients, in f64 on the host.
    Host,
}

pub(super) struct Emitter<'p> {
    pub(super) plan: &'p Plan,
    /// Host expressions of hoisted constant subexpressions, by their code.
    pub(super) hoisted: BTreeMap<String, String>,
    pub(super) hoisted_order: Vec<(String, String)>,
    /// Constants the reaction reads as `c.<name>`.
    pub(super) used_constants: HashSet<VarId>,
    /// Removable singularities found: (variable whose equation, V0).
    pub(super) singularities: Vec<(String, f64)>,
    /// The variable whose equation is being written (for messages).
    pub(super) context: String,
    /// The file's initial values and default constants (for `removable`).
    pub(super) values: OnceCell<Vec<Option<f64>>>,
    pub(super) cse: Cse,
}

pub(super) fn lit(x: f64, mode: Mode) -> String {
    let s = if x.is_nan() {
        return if mode == Mode::Step { "T::NAN".into() } else { "f64::NAN".into() };
    } else if x.is_infinite() {
        let inf = if mode == Mode::Step { "T::INFINITY" } else { "f64::INFINITY" };
        return if x > 0.0 { inf.into() } else { format!("(-{inf})") };
    } else {
        let s = format!("{x:?}");
        if s.contains('.') || s.contains('e') { s } else { format!("{s}.0") }
    };
    match mode {
        Mode::Step => format!("n({s})"),
        Mode::Host if x < 0.0 => format!("({s})"),
        Mode::Host => s,
    }
}

pub(super) fn deriv(ident: &str) -> String {
    format!("{ident}__dt")
}

fn is_logical(e: &Expr) -> bool {
    matches!(e, Expr::Apply(op, _) if op.is_logical())
}

impl<'p> Emitter<'p> {
    pub(super) fn new(plan: &'p Plan) -> Self {
        Emitter {
            plan,
            hoisted: BTreeMap::new(),
            hoisted_order: Vec::new(),
            used_constants: HashSet::new(),
            singularities: Vec::new(),
            context: String::new(),
            values: OnceCell::new(),
            cse: Cse::default(),
        }
    }

    /// Writes the temporaries the last expressions asked for, then `line`.
    pub(super) fn statement(&mut self, body: &mut String, line: &str) {
        for t in self.cse.pending.drain(..) {
            let _ = writeln!(body, "        {t}");
        }
        let _ = writeln!(body, "        {line}");
    }

    pub(super) fn ident(&self, v: VarId) -> &str {
        &self.plan.model.vars[v].ident
    }

    /// Whether `e` is the same for every cell and step.
    pub(super) fn is_constant(&self, e: &Expr) -> bool {
        let mut vs = Vec::new();
        e.vars(&mut vs);
        let mut ds = Vec::new();
        e.diffs(&mut ds);
        ds.is_empty() && vs.iter().all(|&v| self.plan.constant[v])
    }

    pub(super) fn unsupported(&self, what: &str) -> ImportError {
        ImportError::Unsupported(format!(
            "{what} in the equation of `{}`: fibril's kernels have no such function yet",
            self.context
        ))
    }

    /// A number-valued expression.
    pub(super) fn num(&mut self, e: &Expr, mode: Mode) -> Result<String, ImportError> {
        if mode == Mode::Step
            && !matches!(e, Expr::Num(_) | Expr::Cn(..) | Expr::Var(_))
            && !is_logical(e)
            && self.is_constant(e)
        {
            let host = self.num(e, Mode::Host)?;
            let name = match self.hoisted.get(&host) {
                Some(name) => name.clone(),
                None => {
                    let name = format!("k__{}", self.hoisted.len());
                    self.hoisted.insert(host.clone(), name.clone());
                    self.hoisted_order.push((name.clone(), host));
                    name
                }
            };
            return Ok(format!("c.{name}"));
        }
        let shared = mode == Mode::Step && self.cse.closure_depth == 0 && worth_a_temporary(e);
        let key = if shared { expr_key(e) } else { 0 };
        if shared
            && !self.cse.counting
            && let Some(t) = self.cse.temps.get(&key)
        {
            return Ok(t.clone());
        }
        let code = self.num_code(e, mode)?;
        if shared {
            if self.cse.counting {
                let first = self.cse.first_code.entry(key).or_insert_with(|| code.clone());
                if *first == code {
                    *self.cse.counts.entry(key).or_default() += 1;
                } else {
                    // Never reaches 2 again: a collision is written out in full.
                    self.cse.counts.insert(key, 0);
                    *first = String::new();
                }
            } else if self.cse.counts.get(&key).is_some_and(|&n| n > 1) {
                let name = format!("s__{}", self.cse.temps.len());
                self.cse.pending.push(format!("let {name} = {code};"));
                self.cse.temps.insert(key, name.clone());
                return Ok(name);
            }
        }
        Ok(code)
    }

    pub(super) fn num_code(&mut self, e: &Expr, mode: Mode) -> Result<String, ImportError> {
        Ok(match e {
            Expr::Num(x) | Expr::Cn(x, _) => lit(*x, mode),
            Expr::Var(v) => {
                let id = self.ident(*v).to_string();
                if mode == Mode::Step && self.plan.constant[*v] {
                    self.used_constants.insert(*v);
                    format!("c.{id}")
                } else {
                    id
                }
            }
            Expr::Diff(v) => deriv(self.ident(*v)),
            Expr::Piecewise(pieces, other) => {
                let mut s = String::new();
                for (i, (v, c)) in pieces.iter().enumerate() {
                    let (c, v) = (self.cond(c, mode)?, self.num(v, mode)?);
                    let _ = write!(s, "{}if {c} {{ {v} }}", if i == 0 { "" } else { " else " });
                }
                let o = self.num(other, mode)?;
                if pieces.is_empty() { o } else { format!("({s} else {{ {o} }})") }
            }
            Expr::Apply(op, _) if op.is_logical() => {
                let b = self.cond(e, mode)?;
                let (one, zero) = (lit(1.0, mode), lit(0.0, mode));
                format!("(if {b} {{ {one} }} else {{ {zero} }})")
            }
            Expr::Apply(op, args) => self.apply(*op, args, mode)?,
        })
    }

    pub(super) fn join(&mut self, args: &[Expr], sep: &str, mode: Mode) -> Result<String, ImportError> {
        let parts: Vec<String> = args.iter().map(|a| self.num(a, mode)).collect::<Result<_, _>>()?;
        Ok(format!("({})", parts.join(sep)))
    }

    pub(super) fn call(&mut self, f: &str, args: &[Expr], mode: Mode) -> Result<String, ImportError> {
        let parts: Vec<String> = args.iter().map(|a| self.num(a, mode)).collect::<Result<_, _>>()?;
        Ok(format!("{f}({})", parts.join(", ")))
    }

    pub(super) fn apply(&mut self, op: Op, args: &[Expr], mode: Mode) -> Result<String, ImportError> {
        Ok(match op {
            Op::Plus => self.join(args, " + ", mode)?,
            Op::Minus if args.len() == 1 => format!("(-{})", self.num(&args[0], mode)?),
            Op::Minus => self.join(args, " - ", mode)?,
            Op::Times => self.join(args, " * ", mode)?,
            Op::Divide => {
                if mode == Mode::Step
                    && let Some((v0, slope, closed)) = self.removable(&args[0], &args[1])
                {
                    self.singularities.push((self.context.clone(), v0));
                    let v = self.ident(self.plan.v).to_string();
                    // The quotient itself, without testing it again: at V
                    // as written (with V's variables by name, shared with
                    // the other equations) and, for the interpolation only,
                    // as a function of V.
                    let Expr::Apply(Op::Divide, parts) = &closed else { unreachable!() };
                    // Inside another singularity's closure the quotient at V
                    // would be the closure's code again: `removable_of`
                    // evaluates the closure at V instead (the same
                    // operations), so it is written once.
                    let value =
                        if self.cse.closure_depth == 0 { Some(self.join(args, " / ", mode)?) } else { None };
                    self.cse.closure_depth += 1;
                    let body = self.join(parts, " / ", mode);
                    self.cse.closure_depth -= 1;
                    let body = body?;
                    let (v0s, slopes) = (format!("{v0:?}"), format!("{slope:?}"));
                    let v0s = if v0s.contains('.') || v0s.contains('e') { v0s } else { format!("{v0s}.0") };
                    let slopes = if slopes.contains('.') || slopes.contains('e') {
                        slopes
                    } else {
                        format!("{slopes}.0")
                    };
                    return Ok(match value {
                        Some(value) => format!("removable({v}, {v0s}, {slopes}, {value}, |{v}: T| {body})"),
                        None => format!("removable_of({v}, {v0s}, {slopes}, |{v}: T| {body})"),
                    });
                }
                self.join(args, " / ", mode)?
            }
            Op::Power => {
                let exponent = match &args[1] {
                    Expr::Num(x) | Expr::Cn(x, _) => Some(*x),
                    Expr::Apply(Op::Minus, a) if a.len() == 1 => match &a[0] {
                        Expr::Num(x) | Expr::Cn(x, _) => Some(-*x),
                        _ => None,
                    },
                    _ => None,
                };
                let base = self.num(&args[0], mode)?;
                match exponent {
                    Some(p) if p == p.trunc() && p.abs() <= 16.0 => format!("powi({base}, {})", p as i32),
                    Some(0.5) => format!("sqrt_t({base})"),
                    _ => format!("pow({base}, {})", self.num(&args[1], mode)?),
                }
            }
            Op::Exp => self.call("exp", args, mode)?,
            Op::Ln => self.call("ln", args, mode)?,
            Op::Log10 => self.call("log10", args, mode)?,
            Op::Sqrt => self.call("sqrt_t", args, mode)?,
            Op::Abs => self.call("Real::abs", args, mode)?,
            Op::Floor => self.call("floor", args, mode)?,
            Op::Ceiling => self.call("ceil", args, mode)?,
            Op::Rem => self.call("rem", args, mode)?,
            Op::Tanh => self.call("tanh", args, mode)?,
            Op::Sin => self.call("sin", args, mode)?,
            Op::Cos => self.call("cos", args, mode)?,
            Op::Arcsin => self.call("asin", args, mode)?,
            Op::Arccos => self.call("acos", args, mode)?,
            Op::Min | Op::Max => {
                let f = if op == Op::Min { "min" } else { "max" };
                let mut s = self.num(&args[0], mode)?;
                for a in &args[1..] {
                    s = format!("{f}({s}, {})", self.num(a, mode)?);
                }
                s
            }
            Op::Tan | Op::Sinh | Op::Cosh | Op::Arctan => {
                return Err(self.unsupported(&format!("<{}>", format!("{op:?}").to_lowercase())));
            }
            _ => unreachable!("logical operators are written by `cond`"),
        })
    }

    /// A truth-valued expression.
    pub(super) fn cond(&mut self, e: &Expr, mode: Mode) -> Result<String, ImportError> {
        let Expr::Apply(op, args) = e else {
            let x = self.num(e, mode)?;
            return Ok(format!("({x} != {})", lit(0.0, mode)));
        };
        let cmp = |s: &mut Self, sym: &str| -> Result<String, ImportError> {
            let (a, b) = (s.num(&args[0], mode)?, s.num(&args[1], mode)?);
            Ok(format!("({a} {sym} {b})"))
        };
        Ok(match op {
            Op::Lt => cmp(self, "<")?,
            Op::Leq => cmp(self, "<=")?,
            Op::Gt => cmp(self, ">")?,
            Op::Geq => cmp(self, ">=")?,
            Op::Neq => cmp(self, "!=")?,
            Op::Eq => {
                let parts: Vec<String> = args.iter().map(|a| self.num(a, mode)).collect::<Result<_, _>>()?;
                let pairs: Vec<String> =
                    parts.windows(2).map(|w| format!("({} == {})", w[0], w[1])).collect();
                format!("({})", pairs.join(" && "))
            }
            Op::And | Op::Or | Op::Xor => {
                let parts: Vec<String> = args.iter().map(|a| self.cond(a, mode)).collect::<Result<_, _>>()?;
                let sep = match op {
                    Op::And => " && ",
                    Op::Or => " || ",
                    _ => " ^ ",
                };
                format!("({})", parts.join(sep))
            }
            Op::Not => format!("!{}", self.cond(&args[0], mode)?),
            _ => {
                let x = self.num(e, mode)?;
                format!("({x} != {})", lit(0.0, mode))
            }
        })
    }

    /// `e` with the algebraic variables that depend on V alone written out.
    pub(super) fn closed_in_v(&self, e: &Expr) -> Expr {
        let plan = self.plan;
        e.substitute(&mut |x| {
            if plan.constant[x] || x == plan.v {
                return None;
            }
            match &plan.model.vars[x].def {
                Def::Algebraic(def) if plan.reads[x].iter().all(|&s| s == plan.v) => {
                    Some(self.closed_in_v(def))
                }
                _ => None,
            }
        })
    }

    /// The value of `e` at V = `v` (and the file's initial values and
    /// default constants elsewhere).
    pub(super) fn at_v(&self, e: &Expr, v: f64, values: &[Option<f64>]) -> Option<f64> {
        let plan = self.plan;
        eval(e, &|x| if x == plan.v { Some(v) } else { values[x] }, &|_| None)
    }

    /// `num/den` is a removable singularity when den has a factor
    /// e^{U(V)} - 1 with U affine in V, and both vanish at the root V0 of U
    /// (GHK currents, Hodgkin-Huxley rates such as
    /// 0.32 (V + 47.13)/(1 - e^{-0.1 (V + 47.13)})). Returns (V0, dU/dV,
    /// the quotient with V's algebraic variables written out).
    pub(super) fn removable(&self, num: &Expr, den: &Expr) -> Option<(f64, f64, Expr)> {
        let plan = self.plan;
        let den_c = self.closed_in_v(den);
        let mut vs = Vec::new();
        den_c.vars(&mut vs);
        if !vs.contains(&plan.v) || vs.iter().any(|&x| x != plan.v && !plan.constant[x]) {
            return None;
        }
        let values = self.values.get_or_init(|| plan.evaluate(&HashMap::new()).0);
        let mut exps = Vec::new();
        collect_exp_args(&den_c, &mut exps);
        for u in exps {
            // Wide apart, so that the slope of a U written with round
            // numbers comes out round.
            let (lo, u0, hi) =
                (self.at_v(u, -100.0, values)?, self.at_v(u, 0.0, values)?, self.at_v(u, 100.0, values)?);
            let slope = (hi - lo) / 200.0;
            if slope == 0.0 || !slope.is_finite() || ((hi - u0) - (u0 - lo)).abs() > 1e-9 * (hi - lo).abs() {
                continue;
            }
            let v0 = -u0 / slope;
            let d0 = self.at_v(&den_c, v0, values)?;
            let d1 =
                self.at_v(&den_c, v0 + 1.0, values)?.abs().max(self.at_v(&den_c, v0 - 1.0, values)?.abs());
            if d0.abs() > 1e-9 * d1 {
                continue;
            }
            let num_c = self.closed_in_v(num);
            let n0 = self.at_v(&num_c, v0, values)?;
            let n1 =
                self.at_v(&num_c, v0 + 1.0, values)?.abs().max(self.at_v(&num_c, v0 - 1.0, values)?.abs());
            if n0.abs() > 1e-6 * n1 {
                continue;
            }
            return Some((v0, slope, Expr::apply(Op::Divide, vec![num_c, den_c])));
        }
        None
    }
}

fn collect_exp_args<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Apply(Op::Exp, args) => out.push(&args[0]),
        Expr::Apply(_, args) => args.iter().for_each(|a| collect_exp_args(a, out)),
        _ => {}
    }
}

//! Writing the plan as a Rust model file: a unit type implementing
//! `CellModel` whose reaction is generic over the precision and uses only
//! IEEE operations and `crate::math`'s functions, so the CPU and the GPU
//! agree bit for bit, as in every hand-written model.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

use crate::analysis::{Plan, Scheme};
use crate::error::ImportError;
use crate::eval::eval;
use crate::expr::{Expr, Op, VarId};
use crate::model::Def;

mod cse;
mod markov;
mod reaction;

use cse::{Cse, expr_key, worth_a_temporary};
use reaction::reaction_body;

/// The window around a removable singularity, in the exponent U of
/// `x/(e^U - 1)`: |U| below it is interpolated linearly. 1e-7 in f64 is
/// chaste_codegen's (cellmlmanip's `_singularity_fixes`, after Johnstone
/// 2018, appendix B); f32 needs a wider one (support.rs says why).
const U_WINDOW_DOC: &str = "|U| < 1e-7 (f64) or 1e-3 (f32)";

/// What the generated code is written for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The reaction, in `T`; constants are read from the coefficients.
    Step,
    /// The coefficients, in f64 on the host.
    Host,
}

pub struct Emitter<'p> {
    plan: &'p Plan,
    /// Host expressions of hoisted constant subexpressions, by their code.
    hoisted: BTreeMap<String, String>,
    hoisted_order: Vec<(String, String)>,
    /// Constants the reaction reads as `c.<name>`.
    used_constants: HashSet<VarId>,
    /// Removable singularities found: (variable whose equation, V0).
    pub singularities: Vec<(String, f64)>,
    /// The variable whose equation is being written (for messages).
    context: String,
    /// The file's initial values and default constants (for `removable`).
    values: OnceCell<Vec<Option<f64>>>,
    cse: Cse,
}

fn lit(x: f64, mode: Mode) -> String {
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

fn deriv(ident: &str) -> String {
    format!("{ident}__dt")
}

fn is_logical(e: &Expr) -> bool {
    matches!(e, Expr::Apply(op, _) if op.is_logical())
}

impl<'p> Emitter<'p> {
    pub fn new(plan: &'p Plan) -> Self {
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
    fn statement(&mut self, body: &mut String, line: &str) {
        for t in self.cse.pending.drain(..) {
            let _ = writeln!(body, "        {t}");
        }
        let _ = writeln!(body, "        {line}");
    }

    fn ident(&self, v: VarId) -> &str {
        &self.plan.model.vars[v].ident
    }

    /// Whether `e` is the same for every cell and step.
    fn is_constant(&self, e: &Expr) -> bool {
        let mut vs = Vec::new();
        e.vars(&mut vs);
        let mut ds = Vec::new();
        e.diffs(&mut ds);
        ds.is_empty() && vs.iter().all(|&v| self.plan.constant[v])
    }

    fn unsupported(&self, what: &str) -> ImportError {
        ImportError::Unsupported(format!(
            "{what} in the equation of `{}`: fibril's kernels have no such function yet",
            self.context
        ))
    }

    /// A number-valued expression.
    fn num(&mut self, e: &Expr, mode: Mode) -> Result<String, ImportError> {
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

    fn num_code(&mut self, e: &Expr, mode: Mode) -> Result<String, ImportError> {
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

    fn join(&mut self, args: &[Expr], sep: &str, mode: Mode) -> Result<String, ImportError> {
        let parts: Vec<String> = args.iter().map(|a| self.num(a, mode)).collect::<Result<_, _>>()?;
        Ok(format!("({})", parts.join(sep)))
    }

    fn call(&mut self, f: &str, args: &[Expr], mode: Mode) -> Result<String, ImportError> {
        let parts: Vec<String> = args.iter().map(|a| self.num(a, mode)).collect::<Result<_, _>>()?;
        Ok(format!("{f}({})", parts.join(", ")))
    }

    fn apply(&mut self, op: Op, args: &[Expr], mode: Mode) -> Result<String, ImportError> {
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
    fn cond(&mut self, e: &Expr, mode: Mode) -> Result<String, ImportError> {
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
    fn closed_in_v(&self, e: &Expr) -> Expr {
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
    fn at_v(&self, e: &Expr, v: f64, values: &[Option<f64>]) -> Option<f64> {
        let plan = self.plan;
        eval(e, &|x| if x == plan.v { Some(v) } else { values[x] }, &|_| None)
    }

    /// `num/den` is a removable singularity when den has a factor
    /// e^{U(V)} - 1 with U affine in V, and both vanish at the root V0 of U
    /// (GHK currents, Hodgkin-Huxley rates such as
    /// 0.32 (V + 47.13)/(1 - e^{-0.1 (V + 47.13)})). Returns (V0, dU/dV,
    /// the quotient with V's algebraic variables written out).
    fn removable(&self, num: &Expr, den: &Expr) -> Option<(f64, f64, Expr)> {
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

/// `iyer_2004` -> `Iyer2004`.
pub fn type_name(name: &str) -> String {
    name.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

/// What the generated file says about where it comes from.
pub struct Source<'a> {
    pub file_label: &'a str,
    pub bytes: usize,
    pub hash: u64,
    pub dt_ms: f64,
    pub presets: &'a [crate::PresetSpec],
}

fn rust_str(s: &str) -> String {
    format!("{s:?}")
}

pub fn emit(plan: &Plan, name: &str, src: &Source) -> Result<(String, Vec<(String, f64)>), ImportError> {
    let carried = reaction::carried_states(plan);
    let m = &plan.model;
    let ty = type_name(name);
    // The reaction's body first: it decides which constants the coefficients
    // carry. Twice: once to count the repeated expressions, once to write.
    let mut counter = Emitter::new(plan);
    counter.cse.counting = true;
    reaction_body(plan, &mut counter)?;
    let mut em = Emitter::new(plan);
    em.cse.counts = std::mem::take(&mut counter.cse.counts);
    let body = reaction_body(plan, &mut em)?;
    // Listed by equation: the counting pass saw each before any was shared.
    em.singularities = std::mem::take(&mut counter.singularities);
    em.singularities.dedup();
    let others = &plan.states[1..];

    // The coefficients.
    let mut fields: Vec<(String, String)> =
        vec![("dt".into(), "the time step in the file's time unit".into())];
    let mut used: Vec<VarId> = em.used_constants.iter().copied().collect();
    used.sort_unstable();
    for &u in &used {
        fields.push((m.vars[u].ident.clone(), format!("`{}` ({})", m.vars[u].cellml, m.vars[u].units_name)));
    }
    let hoisted = em.hoisted_order.clone();
    for (name, code) in &hoisted {
        fields.push((name.clone(), format!("`{code}`")));
    }
    let mut coeffs = String::new();
    let pnames: Vec<&str> = plan.params.iter().map(|&p| m.vars[p].ident.as_str()).collect();
    let _ = writeln!(coeffs, "        let [{}] = unpack(params, {});", pnames.join(", "), rust_str(name));
    let _ = writeln!(coeffs, "        let dt = dt * {};", lit(plan.t_per_ms, Mode::Host));
    let mut host = Emitter::new(plan);
    for &d in &plan.derived {
        let Def::Algebraic(e) = &m.vars[d].def else { unreachable!() };
        host.context = m.vars[d].cellml.clone();
        let code = host.num(e, Mode::Host)?;
        let _ = writeln!(coeffs, "        let {} = {code};", m.vars[d].ident);
    }
    let t_fields: Vec<String> = fields
        .iter()
        .map(|(f, _)| {
            let value =
                hoisted.iter().find(|(h, _)| h == f).map(|(_, code)| code.clone()).unwrap_or(f.clone());
            format!("{f}: t({value})")
        })
        .collect();
    let _ = writeln!(coeffs, "        let t = T::from_f64;");
    let _ = writeln!(
        coeffs,
        "        {ty}Coeffs {{\n            {},\n        }}",
        t_fields.join(",\n            ")
    );

    // Variables and parameters.
    let mut out = String::new();
    let title = m.title.clone().unwrap_or_else(|| m.name.clone());
    let _ = writeln!(out, "//! {title}: the CellML model `{}`, imported by `fibril import-cellml`.", m.name);
    let _ = writeln!(out, "//!");
    let _ = writeln!(
        out,
        "//! Source: `{}` ({} bytes, FNV-1a 64 {:016x}). Generated code: regenerate\n//! rather than edit (`fibril import-cellml FILE --name {name}`).",
        src.file_label, src.bytes, src.hash
    );
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! # Units");
    let _ = writeln!(out, "//!");
    let _ = writeln!(
        out,
        "//! V in mV and time in ms at the boundary: the file's V is {} mV^-1 times\n//! fibril's, its time unit {} per ms; everything else keeps the file's\n//! units (below). The equations were checked for consistent units and\n//! converted where two sides differed only in scale.",
        plan.v_per_mv, plan.t_per_ms
    );
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! # Stimulus");
    let _ = writeln!(out, "//!");
    let _ = writeln!(
        out,
        "//! Removed from the equations (fibril adds its own to dV/dt); the default\n//! stimulus is {}: {:.6} mV/ms for {} ms.",
        plan.stimulus.note, plan.stimulus.amplitude_mv_per_ms, plan.stimulus.duration_ms
    );
    for &(x, per_u) in &plan.stimulus.carriers {
        let _ = writeln!(
            out,
            "//!\n//! The file's stimulus also enters d(`{}`)/dt: fibril's stimulus adds\n//! {per_u:e} {} to it per mV it adds to V (`StimulusCarrier`), the\n//! file's ratio at its default constants, so the charge it injects is\n//! carried as the file carries it.",
            m.vars[x].cellml, m.vars[x].units_name
        );
    }
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! # Updates over one step (dt in the file's time unit)");
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! | variable | file variable | unit | update |");
    let _ = writeln!(out, "//! |---|---|---|---|");
    for &s in &plan.states {
        let how = if s == plan.v {
            "forward Euler, by fibril's cell step (this file returns dV/dt)".to_string()
        } else {
            match &plan.schemes[&s] {
                Scheme::ForwardEuler => "forward Euler".into(),
                Scheme::RushLarsen { .. } => {
                    "Rush-Larsen (exponential Euler, rates frozen over the step)".into()
                }
                Scheme::GeneralisedRushLarsen { .. } => {
                    "generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen)".into()
                }
                Scheme::Markov { block } => format!(
                    "Markov block {block} ({} states): two-stage SDIRK with the rates frozen",
                    plan.blocks[*block].states.len()
                ),
            }
        };
        let how = if carried.contains(&s) {
            format!("{how}; in f32 with its rounding error carried (`{}__carry`)", m.vars[s].ident)
        } else {
            how
        };
        let unit = if s == plan.v { "mV".to_string() } else { m.vars[s].units_name.clone() };
        let _ = writeln!(out, "//! | `{}` | `{}` | {unit} | {how} |", m.vars[s].ident, m.vars[s].cellml);
    }
    let _ = writeln!(out, "//!");
    let _ = writeln!(
        out,
        "//! Forward Euler and both Rush-Larsen steps are first order in dt. A Markov block\n//! (states whose right sides are jointly affine in them, dx/dt = A x + b)\n//! takes one two-stage SDIRK step with A and b frozen (g = 1 - 1/sqrt(2),\n//! (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1,\n//! x' = x + (1 - g) k1 + g k2), I - g dt A factored once by Gaussian\n//! elimination without pivoting (an M-matrix for a chain's rates): second\n//! order for the frozen rates, L-stable, and it keeps a closed chain's\n//! total occupancy; freezing the rates over the step is first order."
    );
    if !carried.is_empty() {
        let _ = writeln!(
            out,
            "//!\n//! A concentration's increment over a small step is far below an f32 ulp\n//! of the concentration (140 mM: 1.5e-5 mM; a step of 2.5 us adds about\n//! 1e-9), and rounded away it would leave the concentration where it\n//! starts. In f32 its update is a compensated sum (Kahan): the rounding\n//! error of each step is kept in a variable of its own (`..__carry`, after\n//! the model's) and added back at the next. In f64 the carries stay 0 and\n//! the updates are the plain ones, bit for bit."
        );
    }
    if !em.singularities.is_empty() {
        let _ = writeln!(out, "//!");
        let _ = writeln!(
            out,
            "//! Removable singularities x/(e^U - 1), interpolated linearly where {U_WINDOW_DOC}:"
        );
        for (v, v0) in &em.singularities {
            let _ = writeln!(out, "//! - `{v}` at V = {v0} (file units)");
        }
    }
    if !m.warnings.is_empty() {
        let _ = writeln!(out, "//!");
        let _ = writeln!(
            out,
            "//! Imported with inconsistent units (`--allow-inconsistent-units`), numbers as written:"
        );
        for w in &m.warnings {
            // Units print as `[m^-3 mol]` and operators as `<minus>`:
            // escaped, for rustdoc reads them as links and HTML tags.
            let escaped: String = w
                .chars()
                .flat_map(|c| matches!(c, '[' | ']' | '<' | '>').then_some('\\').into_iter().chain([c]))
                .collect();
            let _ = writeln!(out, "//! - {escaped}");
        }
    }
    if !plan.dropped.is_empty() {
        let d: Vec<String> = plan.dropped.iter().map(|&x| format!("`{}`", m.vars[x].cellml)).collect();
        let _ = writeln!(out, "//!");
        let _ =
            writeln!(out, "//! Constants no equation uses once the stimulus is removed: {}.", d.join(", "));
    }
    let _ = writeln!(out);
    // The file's names are kept (non-snake-case), every operation is
    // parenthesised as in the file, and a variable read only inside a
    // singularity's closure (where V's variables are written out) is left
    // for the compiler to drop.
    let code = format!("{body}{coeffs}");
    let calls = |f: &str| {
        let pat = format!("{f}(");
        code.match_indices(&pat).any(|(i, _)| {
            !code[..i]
                .chars()
                .next_back()
                .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == ':')
        })
    };
    let _ = writeln!(out, "#![allow(non_snake_case, unused_parens, unused_variables, clippy::all)]\n");
    for (module, functions) in
        [("math", &["exp", "ln", "tanh"][..]), ("trig", &["sin", "cos", "asin", "acos"])]
    {
        let used: Vec<&str> = functions.iter().copied().filter(|f| calls(f)).collect();
        if !used.is_empty() {
            let _ = writeln!(out, "use crate::{module}::{{{}}};", used.join(", "));
        }
    }
    let preset = if src.presets.is_empty() { "" } else { "Preset, " };
    let carrier_use = if plan.stimulus.carriers.is_empty() { "" } else { "StimulusCarrier, " };
    let _ = writeln!(
        out,
        "use crate::model::Parameter as P;\nuse crate::model::{{CellModel, ModelInfo, Numerics, {preset}Range, {carrier_use}StimulusCurrent, Variable}};\nuse crate::models::describe::{{ms_mm, unpack}};\nuse crate::models::imported::support::*;\nuse crate::real::Real;\n"
    );
    let _ = writeln!(out, "/// {title} ({} variables).", plan.states.len());
    let _ = writeln!(out, "#[derive(Clone, Copy, Debug)]\npub struct {ty};\n");
    let _ = writeln!(out, "/// The coefficients, formed in f64 from the parameters and dt and rounded once.");
    let _ =
        writeln!(out, "#[repr(C)]\n#[derive(Clone, Copy, Debug, PartialEq)]\npub struct {ty}Coeffs<T> {{");
    for (f, doc) in &fields {
        let _ = writeln!(out, "    /// {doc}\n    pub {f}: T,");
    }
    let _ = writeln!(out, "}}\n");
    let rest: Vec<f64> = plan
        .states
        .iter()
        .map(|&s| {
            let Def::State { initial, .. } = m.vars[s].def else { unreachable!() };
            if s == plan.v { initial / plan.v_per_mv } else { initial }
        })
        .collect();
    let rest_s: Vec<String> =
        rest.iter().chain(carried.iter().map(|_| &0.0)).map(|x| lit(*x, Mode::Host)).collect();
    let _ = writeln!(
        out,
        "/// The file's initial values (V in mV), then the carries' (0).\nconst REST: [f64; {}] = [{}];\n",
        rest_s.len(),
        rest_s.join(", ")
    );
    let _ = writeln!(out, "const VARIABLES: &[Variable] = &[");
    for (i, &s) in plan.states.iter().enumerate() {
        let var = &m.vars[s];
        let (unit, display) = if s == plan.v {
            ("mV".to_string(), "(-100.0, 60.0)".to_string())
        } else if var.unit.is_dimensionless() {
            (var.units_name.clone(), "(0.0, 1.0)".to_string())
        } else {
            let hi = if rest[i] > 0.0 { 2.0 * rest[i] } else { 1.0 };
            (var.units_name.clone(), format!("(0.0, {})", lit(hi, Mode::Host)))
        };
        let unit = if unit == "dimensionless" { "1".to_string() } else { unit };
        let _ = writeln!(
            out,
            "    Variable {{ name: {}, unit: {}, meaning: {}, rest: REST[{i}], display: {display} }},",
            rust_str(&var.ident),
            rust_str(&unit),
            rust_str(&var.cellml)
        );
    }
    for (k, &s) in carried.iter().enumerate() {
        let var = &m.vars[s];
        let _ = writeln!(
            out,
            "    Variable {{ name: {}, unit: {}, meaning: {}, rest: REST[{}], display: (-1e-6, 1e-6) }},",
            rust_str(&format!("{}__carry", var.ident)),
            rust_str(&var.units_name),
            rust_str(&format!(
                "the f32 rounding error carried from step to step in {} (0 in f64)",
                var.ident
            )),
            plan.states.len() + k
        );
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(out, "const PARAMETERS: &[P] = &[");
    for &p in &plan.params {
        let var = &m.vars[p];
        let Def::Constant(x) = var.def else { unreachable!() };
        let range = if x >= 0.0 { "Range::NonNegative" } else { "Range::Finite" };
        let unit = if var.units_name == "dimensionless" { "1" } else { &var.units_name };
        let _ = writeln!(
            out,
            "    P::new({}, {}, {}, {range}, {}),",
            rust_str(&var.ident),
            lit(x, Mode::Host),
            rust_str(unit),
            rust_str(&var.cellml)
        );
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(out, "impl CellModel for {ty} {{");
    let _ = writeln!(out, "    const INFO: &'static ModelInfo = &ModelInfo {{");
    let _ = writeln!(out, "        name: {},", rust_str(name));
    let _ = writeln!(out, "        title: {},", rust_str(&title));
    let _ = writeln!(
        out,
        "        reference: {},",
        rust_str(&format!(
            "CellML model `{}` ({}), imported by fibril import-cellml",
            m.name, src.file_label
        ))
    );
    let _ = writeln!(out, "        variables: VARIABLES,\n        parameters: PARAMETERS,");
    let _ = writeln!(out, "        presets: &[");
    for (pname, meaning, values) in src.presets {
        let vals: Vec<String> =
            values.iter().map(|(k, v)| format!("({}, {})", rust_str(k), lit(*v, Mode::Host))).collect();
        let _ = writeln!(
            out,
            "            Preset {{ name: {}, meaning: {}, values: &[{}] }},",
            rust_str(pname),
            rust_str(meaning),
            vals.join(", ")
        );
    }
    let _ = writeln!(out, "        ],");
    let default_preset = src.presets.first().map(|p| p.0.as_str()).unwrap_or("");
    let _ = writeln!(out, "        default_preset: {},", rust_str(default_preset));
    let _ = writeln!(
        out,
        "        units: ms_mm(\"V in mV, times in ms, lengths in mm; the other variables and the parameters in the file's units\"),"
    );
    let _ = writeln!(
        out,
        "        numerics: Numerics {{ dx: 0.2, dt: {}, diffusion: 0.154 }},",
        lit(src.dt_ms, Mode::Host)
    );
    let _ = writeln!(
        out,
        "        activation_threshold: -40.0,\n        stimulus_value: 20.0,\n        planar_background: &REST,"
    );
    let carriers: Vec<String> = plan
        .stimulus
        .carriers
        .iter()
        .map(|&(x, per_u)| {
            let k = plan.states.iter().position(|&s| s == x).expect("a carrier is a state");
            format!("StimulusCarrier {{ variable: {k}, per_u: {} }}", lit(per_u, Mode::Host))
        })
        .collect();
    let carriers = format!("&[{}]", carriers.join(", "));
    let _ = writeln!(
        out,
        "        stimulus_current: Some(StimulusCurrent {{ amplitude: {}, duration: {}, carriers: {carriers} }}),",
        lit(plan.stimulus.amplitude_mv_per_ms, Mode::Host),
        lit(plan.stimulus.duration_ms, Mode::Host)
    );
    let _ = writeln!(out, "        default_f64: true,\n    }};\n");
    let _ = writeln!(out, "    type Locals<T: Real> = [T; {}];", others.len() + carried.len());
    let _ = writeln!(out, "    type Coeffs<T: Real> = {ty}Coeffs<T>;\n");
    let _ = writeln!(out, "    fn coeffs<T: Real>(params: &[f64], dt: f64) -> {ty}Coeffs<T> {{");
    out.push_str(&coeffs);
    let _ = writeln!(out, "    }}\n");
    // Inlined into the GPU kernels (a call would put the state on a stack
    // frame). On the CPU the body is compiled here, once per precision, out
    // of line: a generic function is compiled again in every crate that
    // uses it, and every solver and test of the workspace would otherwise
    // compile its own copies of these thousands of lines, for the same bits.
    let n = others.len() + carried.len();
    let _ = writeln!(
        out,
        "    reaction_method!({ty}Coeffs, {n});\n}}\n\nreaction_instances!({ty}Coeffs, {n});\n"
    );
    let _ = writeln!(out, "#[inline(always)]");
    let _ =
        writeln!(out, "fn reaction_body<T: Real>(v_mv: T, locals: &mut [T; {n}], c: &{ty}Coeffs<T>) -> T {{");
    out.push_str(&body);
    let _ = writeln!(out, "}}");
    Ok((out, em.singularities.clone()))
}

//! From the flattened model to what the generated code does: which
//! variable is V, which the stimulus (removed: fibril stimulates), which
//! values are constants (computed once on the host) and which change
//! every step, in what order they are computed, and how each state is
//! advanced.

use std::collections::{BTreeSet, HashMap};

use crate::error::ImportError;
use crate::eval::eval;
use crate::expr::{Expr, VarId};
use crate::linear::{Affine, Definitions, affine, derivative};
use crate::model::{Def, Model};

/// What the user says where the file's annotations do not.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `component.variable` of the membrane potential (default: the oxmeta
    /// annotation `membrane_voltage`).
    pub voltage: Option<String>,
    /// `component.variable` of the stimulus current (default: the oxmeta
    /// annotation `membrane_stimulus_current`).
    pub stimulus: Option<String>,
    /// The largest Markov block solved implicitly (states); larger sets of
    /// coupled states fall back to Rush-Larsen or forward Euler.
    pub max_block: Option<usize>,
    /// Import files whose equations join different dimensions, taking
    /// their numbers as written (each mismatch is listed in the generated
    /// file); without it such a file is refused.
    pub lenient_units: bool,
}

/// How a state is advanced over one step.
#[derive(Clone, Debug, PartialEq)]
pub enum Scheme {
    /// x + dt f: concentrations, V (by fibril's cell step) and whatever
    /// else is not a gate or a chain.
    ForwardEuler,
    /// Rush-Larsen (exponential Euler) for f = a - b x: x + dt f (1 -
    /// e^{-b dt})/(b dt), exact for a and b frozen over the step; `coef`
    /// is -b, the coefficient of x in f.
    RushLarsen { coef: Expr },
    /// A member of the Markov block `block`.
    Markov { block: usize },
    /// The generalised Rush-Larsen step (GRL1: Sundnes et al. 2009) of a
    /// state that is neither a gate nor in a chain: x + dt f (1 -
    /// e^{J dt})/(-J dt) with J = df/dx frozen over the step, which keeps
    /// stiff concentrations (a small subspace's calcium) stable where
    /// forward Euler is not; `coef` is J.
    GeneralisedRushLarsen { coef: Expr },
}

/// A set of states whose right-hand sides are jointly affine in them:
/// solved by a two-stage SDIRK step with the other variables frozen
/// (`emit::emit_markov_block`).
#[derive(Clone, Debug)]
pub struct Block {
    pub states: Vec<VarId>,
    /// `coef[i][j]`: the coefficient of state j in the right side of state i.
    pub coef: Vec<Vec<Option<Expr>>>,
}

/// A node of the per-step computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    Var(VarId),
    /// The derivative of a state.
    Diff(VarId),
}

#[derive(Clone, Debug)]
pub struct Stimulus {
    /// The file's stimulus variable (removed), if it has one.
    pub variable: Option<VarId>,
    /// The stimulus's contribution to dV/dt, mV/ms (depolarising > 0).
    pub amplitude_mv_per_ms: f64,
    pub duration_ms: f64,
    /// The other states whose derivatives the file's stimulus enters (the
    /// ions that carry its charge, as O'Hara-Rudy's K_i), and each one's
    /// change in the file's unit per mV the stimulus adds to V, evaluated
    /// at the file's default constants.
    pub carriers: Vec<(VarId, f64)>,
    /// Where the numbers come from, for the generated file.
    pub note: String,
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub model: Model,
    pub v: VarId,
    /// V first, then the other states in the file's order.
    pub states: Vec<VarId>,
    pub constant: Vec<bool>,
    /// Constants the file gives that the equations use: the parameters.
    pub params: Vec<VarId>,
    /// Constants computed from them, in order.
    pub derived: Vec<VarId>,
    /// The per-step values in order: varying algebraic variables and derivatives.
    pub order: Vec<Node>,
    pub schemes: HashMap<VarId, Scheme>,
    pub blocks: Vec<Block>,
    pub stimulus: Stimulus,
    /// The file's V per mV and its time unit per ms.
    pub v_per_mv: f64,
    pub t_per_ms: f64,
    /// Constants of the file no equation uses any more (the stimulus's).
    pub dropped: Vec<VarId>,
    /// Per variable: the states it reads, through algebraic variables and derivatives.
    pub reads: Vec<BTreeSet<VarId>>,
}

struct Defs<'a> {
    model: &'a Model,
    /// Per variable: the states it reads (through algebraic variables and derivatives).
    reads: &'a [BTreeSet<VarId>],
}

impl Definitions for Defs<'_> {
    fn algebraic(&self, v: VarId) -> Option<&Expr> {
        match &self.model.vars[v].def {
            Def::Algebraic(e) => Some(e),
            _ => None,
        }
    }
    fn rhs(&self, v: VarId) -> Option<&Expr> {
        match &self.model.vars[v].def {
            Def::State { rhs, .. } => Some(rhs),
            _ => None,
        }
    }
    fn reads(&self, e: &Expr, targets: &[VarId]) -> bool {
        let mut vs = Vec::new();
        e.vars(&mut vs);
        let mut ds = Vec::new();
        e.diffs(&mut ds);
        vs.iter().any(|v| targets.contains(v) || targets.iter().any(|t| self.reads[*v].contains(t)))
            || ds.iter().any(|d| {
                let rhs = self.rhs(*d).expect("derivatives are of states");
                self.reads(rhs, targets)
            })
    }
}

fn deps(e: &Expr) -> Vec<Node> {
    let mut vs = Vec::new();
    e.vars(&mut vs);
    let mut ds = Vec::new();
    e.diffs(&mut ds);
    vs.into_iter().map(Node::Var).chain(ds.into_iter().map(Node::Diff)).collect()
}

fn node_expr(m: &Model, n: Node) -> Option<&Expr> {
    match (
        n,
        &m.vars[match n {
            Node::Var(v) | Node::Diff(v) => v,
        }]
        .def,
    ) {
        (Node::Var(_), Def::Algebraic(e)) => Some(e),
        (Node::Diff(_), Def::State { rhs, .. }) => Some(rhs),
        _ => None,
    }
}

fn pick(model: &Model, given: &Option<String>, term: &str, what: &str) -> Result<Option<VarId>, ImportError> {
    match given {
        Some(name) => model.find(name).map(Some).ok_or_else(|| {
            ImportError::Membrane(format!(
                "the model has no variable `{name}` ({what}); give it as component.variable"
            ))
        }),
        None => Ok(model.oxmeta.get(term).copied()),
    }
}

pub fn plan(mut model: Model, options: &Options) -> Result<Plan, ImportError> {
    let v = pick(&model, &options.voltage, "membrane_voltage", "the membrane potential")?.ok_or_else(|| {
        ImportError::Membrane(
            "no variable is annotated as the membrane potential (oxmeta membrane_voltage); name it with --voltage component.variable"
                .into(),
        )
    })?;
    if !matches!(model.vars[v].def, Def::State { .. }) {
        return Err(ImportError::Membrane(format!(
            "the membrane potential `{}` is not a state",
            model.vars[v].cellml
        )));
    }
    let volt = crate::units::Unit { factor: 1e-3, dims: [2., 1., -3., -1., 0., 0., 0., 0.] };
    if !model.vars[v].unit.same_dims(&volt) {
        return Err(ImportError::Membrane(format!(
            "the membrane potential `{}` has units [{}], not a voltage",
            model.vars[v].cellml,
            model.vars[v].unit.dims_text()
        )));
    }
    let t_unit = model.vars[model.time].unit;
    if !t_unit.same_dims(&crate::units::Unit { factor: 1.0, dims: [0., 0., 1., 0., 0., 0., 0., 0.] }) {
        return Err(ImportError::Membrane(format!(
            "the time `{}` is not a time",
            model.vars[model.time].cellml
        )));
    }
    let v_per_mv = 1e-3 / model.vars[v].unit.factor;
    let t_per_ms = 1e-3 / t_unit.factor;
    let stim = pick(&model, &options.stimulus, "membrane_stimulus_current", "the stimulus current")?;

    // The stimulus's amplitude and duration, read before it is removed.
    let number = |term: &str| -> Option<(f64, crate::units::Unit)> {
        let var = *model.oxmeta.get(term)?;
        Some((constant_value(&model, var, 0)?, model.vars[var].unit))
    };
    let stim_amplitude = stim.and_then(|s| {
        let su = model.vars[s].unit;
        let capacitance = number("membrane_capacitance");
        match number("membrane_stimulus_current_amplitude") {
            Some((x, u)) if u.same_dims(&su) => Some(x * u.factor / su.factor),
            // A current (A) for a stimulus per capacitance (A/F), as some
            // files give it: divided by the file's Cm, as chaste_codegen
            // does with a stimulus amplitude in amperes.
            Some((x, u)) if capacitance.is_some_and(|(_, cu)| u.same_dims(&su.times(&cu))) => {
                let (c, cu) = capacitance.unwrap();
                Some(x * u.factor / (c * cu.factor) / su.factor)
            }
            _ => match model.vars[s].def {
                Def::Constant(x) => Some(x),
                _ => None,
            },
        }
    });
    let duration_ms = number("membrane_stimulus_current_duration").map(|(x, u)| x * u.factor / 1e-3);
    if let Some(s) = stim {
        model.vars[s].def = Def::Algebraic(Expr::Num(0.0));
    }

    // Liveness from the states' right-hand sides.
    let n = model.vars.len();
    let mut live = vec![false; n];
    let mut stack: Vec<Node> = model.states().map(Node::Diff).collect();
    let mut seen_nodes = BTreeSet::new();
    while let Some(node) = stack.pop() {
        if !seen_nodes.insert(node) {
            continue;
        }
        if let Node::Var(x) = node {
            live[x] = true;
        }
        if let Some(e) = node_expr(&model, node) {
            stack.extend(deps(e));
        }
        if let Node::Diff(x) = node {
            live[x] = true;
        }
    }
    // Constants: given numbers, and algebraic variables of constants only.
    let mut constant = vec![false; n];
    let mut changed = true;
    for (i, var) in model.vars.iter().enumerate() {
        constant[i] = matches!(var.def, Def::Constant(_));
    }
    while changed {
        changed = false;
        for i in 0..n {
            if constant[i] {
                continue;
            }
            if let Def::Algebraic(e) = &model.vars[i].def {
                let d = deps(e);
                if d.iter().all(|node| matches!(node, Node::Var(x) if constant[*x])) {
                    constant[i] = true;
                    changed = true;
                }
            }
        }
    }
    // Time may only have fed the stimulus.
    for i in 0..n {
        if !live[i] || constant[i] {
            continue;
        }
        if let Some(e) = node_expr(&model, Node::Var(i)).or_else(|| node_expr(&model, Node::Diff(i))) {
            let mut vs = Vec::new();
            e.vars(&mut vs);
            if vs.contains(&model.time) {
                return Err(ImportError::Membrane(format!(
                    "`{}` depends on time itself, not only through the stimulus; fibril's models are autonomous (if this is the stimulus, name it with --stimulus component.variable)",
                    model.vars[i].cellml
                )));
            }
        }
    }
    // Topological orders: the derived constants, then the per-step nodes.
    let derived = topo(
        &model,
        (0..n)
            .filter(|&i| live[i] && constant[i] && matches!(model.vars[i].def, Def::Algebraic(_)))
            .map(Node::Var)
            .collect(),
    )?
    .into_iter()
    .map(|node| match node {
        Node::Var(x) => x,
        Node::Diff(_) => unreachable!(),
    })
    .collect();
    let step_nodes: Vec<Node> = (0..n)
        .filter(|&i| live[i] && !constant[i] && matches!(model.vars[i].def, Def::Algebraic(_)))
        .map(Node::Var)
        .chain(model.states().map(Node::Diff))
        .collect();
    let order = topo(&model, step_nodes)?;
    let params: Vec<VarId> =
        (0..n).filter(|&i| live[i] && matches!(model.vars[i].def, Def::Constant(_))).collect();
    let dropped: Vec<VarId> =
        (0..n).filter(|&i| !live[i] && matches!(model.vars[i].def, Def::Constant(_))).collect();

    // States read by each variable (for the affine tests).
    let mut reads: Vec<BTreeSet<VarId>> = vec![BTreeSet::new(); n];
    for node in &order {
        if let Node::Var(x) = *node {
            let e = node_expr(&model, *node).unwrap();
            let mut set = BTreeSet::new();
            for d in deps(e) {
                match d {
                    Node::Var(y) if matches!(model.vars[y].def, Def::State { .. }) => {
                        set.insert(y);
                    }
                    Node::Var(y) => set.extend(reads[y].iter().copied()),
                    Node::Diff(y) => {
                        // A derivative reads what its right side reads.
                        let mut inner = Vec::new();
                        node_expr(&model, Node::Diff(y)).unwrap().vars(&mut inner);
                        for z in inner {
                            if matches!(model.vars[z].def, Def::State { .. }) {
                                set.insert(z);
                            }
                            set.extend(reads[z].iter().copied());
                        }
                    }
                }
            }
            reads[x] = set;
        }
    }
    let mut states: Vec<VarId> = vec![v];
    states.extend(model.states().filter(|&s| s != v));
    let (schemes, blocks) = schemes(&model, &states[1..], &reads, options.max_block.unwrap_or(16));

    let mut plan = Plan {
        model,
        v,
        states,
        constant,
        params,
        derived,
        order,
        schemes,
        blocks,
        stimulus: Stimulus {
            variable: stim,
            amplitude_mv_per_ms: 0.0,
            duration_ms: 1.0,
            carriers: Vec::new(),
            note: String::new(),
        },
        v_per_mv,
        t_per_ms,
        dropped,
        reads,
    };
    plan.stimulus = stimulus_of(&plan, stim, stim_amplitude, duration_ms)?;
    Ok(plan)
}

fn topo(model: &Model, nodes: Vec<Node>) -> Result<Vec<Node>, ImportError> {
    let set: BTreeSet<Node> = nodes.iter().copied().collect();
    let mut state = HashMap::new(); // 1 = in progress, 2 = done
    let mut out = Vec::new();
    fn visit(
        model: &Model,
        node: Node,
        set: &BTreeSet<Node>,
        state: &mut HashMap<Node, u8>,
        path: &mut Vec<Node>,
        out: &mut Vec<Node>,
    ) -> Result<(), ImportError> {
        match state.get(&node) {
            Some(2) => return Ok(()),
            Some(1) => {
                let start = path.iter().position(|p| *p == node).unwrap_or(0);
                let names: Vec<String> = path[start..]
                    .iter()
                    .map(|p| match p {
                        Node::Var(x) => model.vars[*x].cellml.clone(),
                        Node::Diff(x) => format!("d({})/dt", model.vars[*x].cellml),
                    })
                    .collect();
                return Err(ImportError::AlgebraicLoop(format!(
                    "{} depend on each other; fibril solves no implicit equations: rewrite one of them explicitly",
                    names.join(" -> ")
                )));
            }
            _ => {}
        }
        state.insert(node, 1);
        path.push(node);
        if let Some(e) = node_expr(model, node) {
            for d in deps(e) {
                if set.contains(&d) {
                    visit(model, d, set, state, path, out)?;
                }
            }
        }
        path.pop();
        state.insert(node, 2);
        out.push(node);
        Ok(())
    }
    for node in nodes {
        visit(model, node, &set, &mut state, &mut Vec::new(), &mut out)?;
    }
    Ok(out)
}

fn is_dimensionless(model: &Model, s: VarId) -> bool {
    model.vars[s].unit.is_dimensionless()
}

fn schemes(
    model: &Model,
    states: &[VarId],
    reads: &[BTreeSet<VarId>],
    max_block: usize,
) -> (HashMap<VarId, Scheme>, Vec<Block>) {
    let defs = Defs { model, reads };
    let rhs = |s: VarId| match &model.vars[s].def {
        Def::State { rhs, .. } => rhs.clone(),
        _ => unreachable!(),
    };
    // The dimensionless states each dimensionless state's right side reads,
    // where it is affine in them and itself.
    let gates: Vec<VarId> = states.iter().copied().filter(|&s| is_dimensionless(model, s)).collect();
    let mut linked: HashMap<VarId, Vec<VarId>> = HashMap::new();
    for &s in &gates {
        let f = rhs(s);
        let mut read: Vec<VarId> = gates.iter().copied().filter(|&g| defs.reads(&f, &[g])).collect();
        if !read.contains(&s) {
            read.push(s);
        }
        if let Some(a) = affine(&f, &read, &defs)
            && a.coef.contains_key(&s)
        {
            linked.insert(s, a.coef.keys().copied().filter(|&g| g != s).collect());
        }
    }
    // Connected sets of linked states.
    let mut comp: HashMap<VarId, usize> = HashMap::new();
    let mut sets: Vec<Vec<VarId>> = Vec::new();
    for &s in &gates {
        if !linked.contains_key(&s) || comp.contains_key(&s) {
            continue;
        }
        let id = sets.len();
        let mut members = vec![];
        let mut stack = vec![s];
        while let Some(x) = stack.pop() {
            if comp.contains_key(&x) || !linked.contains_key(&x) {
                continue;
            }
            comp.insert(x, id);
            members.push(x);
            stack.extend(linked[&x].iter().copied());
            stack.extend(linked.iter().filter(|(_, l)| l.contains(&x)).map(|(k, _)| *k));
        }
        members.sort_unstable();
        sets.push(members);
    }
    let mut schemes = HashMap::new();
    let mut blocks = Vec::new();
    for members in sets {
        if members.len() >= 2 && members.len() <= max_block {
            let mut coef = Vec::new();
            let mut ok = true;
            for &s in &members {
                match affine(&rhs(s), &members, &defs) {
                    Some(Affine { coef: c, .. }) => {
                        coef.push(members.iter().map(|m| c.get(m).cloned()).collect())
                    }
                    None => ok = false,
                }
            }
            if ok {
                for &s in &members {
                    schemes.insert(s, Scheme::Markov { block: blocks.len() });
                }
                blocks.push(Block { states: members, coef });
                continue;
            }
        }
        for s in members {
            if let Some(a) = affine(&rhs(s), &[s], &defs) {
                schemes.insert(s, Scheme::RushLarsen { coef: a.coef[&s].clone() });
            }
        }
    }
    for &s in states {
        if schemes.contains_key(&s) {
            continue;
        }
        let scheme = match derivative(&rhs(s), s, &defs) {
            Some(Expr::Num(0.0)) => Scheme::ForwardEuler,
            Some(coef) if coef.size() <= 4000 => Scheme::GeneralisedRushLarsen { coef },
            _ => Scheme::ForwardEuler,
        };
        schemes.insert(s, scheme);
    }
    (schemes, blocks)
}

/// How many states (V aside) take each update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemeCounts {
    pub rush_larsen: usize,
    pub generalised_rush_larsen: usize,
    pub markov: usize,
    pub forward_euler: usize,
}

impl Plan {
    pub fn scheme_counts(&self) -> SchemeCounts {
        let mut n = SchemeCounts::default();
        for s in &self.states[1..] {
            *match self.schemes[s] {
                Scheme::RushLarsen { .. } => &mut n.rush_larsen,
                Scheme::GeneralisedRushLarsen { .. } => &mut n.generalised_rush_larsen,
                Scheme::Markov { .. } => &mut n.markov,
                Scheme::ForwardEuler => &mut n.forward_euler,
            } += 1;
        }
        n
    }

    /// The values of every variable and derivative at the file's initial
    /// state and default constants, with `overrides` replacing variables.
    pub fn evaluate(&self, overrides: &HashMap<VarId, f64>) -> (Vec<Option<f64>>, Vec<Option<f64>>) {
        let m = &self.model;
        let n = m.vars.len();
        let mut val: Vec<Option<f64>> = vec![None; n];
        let mut dif: Vec<Option<f64>> = vec![None; n];
        for (slot, var) in val.iter_mut().zip(&m.vars) {
            *slot = match var.def {
                Def::Constant(x) => Some(x),
                Def::State { initial, .. } => Some(initial),
                Def::Time => Some(0.0),
                Def::Algebraic(_) => None,
            };
        }
        for (&k, &x) in overrides {
            val[k] = Some(x);
        }
        for &d in &self.derived {
            if let Def::Algebraic(e) = &m.vars[d].def
                && !overrides.contains_key(&d)
            {
                val[d] = eval(e, &|x| val[x], &|_| None);
            }
        }
        for node in &self.order {
            match *node {
                Node::Var(x) if !overrides.contains_key(&x) => {
                    if let Def::Algebraic(e) = &m.vars[x].def {
                        val[x] = eval(e, &|y| val[y], &|y| dif[y]);
                    }
                }
                Node::Diff(x) => {
                    if let Def::State { rhs, .. } = &m.vars[x].def {
                        dif[x] = eval(rhs, &|y| val[y], &|y| dif[y]);
                    }
                }
                _ => {}
            }
        }
        (val, dif)
    }

    /// dV/dt in mV/ms from the file's dV/dt.
    pub fn dvdt_mv_per_ms(&self, dvdt_file: f64) -> f64 {
        dvdt_file / self.v_per_mv * self.t_per_ms
    }
}

/// The value of `v` where it is a constant or computed from constants only
/// (a stimulus amplitude written as a current density times the cell's
/// area, say); `None` where it reads time or a state.
fn constant_value(model: &Model, v: VarId, depth: usize) -> Option<f64> {
    // Deeper than any chain of definitions a file writes: a loop.
    if depth > 64 {
        return None;
    }
    match &model.vars[v].def {
        Def::Constant(x) => Some(*x),
        Def::Algebraic(e) => eval(e, &|y| constant_value(model, y, depth + 1), &|_| None),
        Def::State { .. } | Def::Time => None,
    }
}

fn stimulus_of(
    plan: &Plan,
    stim: Option<VarId>,
    amplitude: Option<f64>,
    duration_ms: Option<f64>,
) -> Result<Stimulus, ImportError> {
    let duration = duration_ms.filter(|d| d.is_finite() && *d > 0.0);
    let Some(s) = stim else {
        return Ok(Stimulus {
            variable: stim,
            amplitude_mv_per_ms: 52.0,
            // The default's own duration: 52 mV/ms over a file's longer
            // pulse (5 ms in some) would push V far past any peak.
            duration_ms: 1.0,
            carriers: Vec::new(),
            note: "the file gives no stimulus amplitude: fibril's ionic default, 52 mV/ms for 1 ms".into(),
        });
    };
    let carriers = stimulus_carriers(plan, s, amplitude.unwrap_or(-1.0))?;
    let Some(amp) = amplitude else {
        return Ok(Stimulus {
            variable: stim,
            amplitude_mv_per_ms: 52.0,
            duration_ms: 1.0,
            carriers,
            note: "the file gives no stimulus amplitude: fibril's ionic default, 52 mV/ms for 1 ms".into(),
        });
    };
    let dv = |x: f64| plan.evaluate(&HashMap::from([(s, x)])).1[plan.v];
    let amp_mv_ms = match (dv(amp), dv(0.0)) {
        (Some(on), Some(off)) => plan.dvdt_mv_per_ms(on - off).abs(),
        _ => 52.0,
    };
    Ok(Stimulus {
        variable: Some(s),
        amplitude_mv_per_ms: amp_mv_ms,
        duration_ms: duration.unwrap_or(1.0),
        carriers,
        note: format!(
            "the file's stimulus `{}` ({} {}) for {} ms, as its contribution to dV/dt",
            plan.model.vars[s].cellml,
            amp,
            plan.model.vars[s].units_name,
            duration.unwrap_or(1.0)
        ),
    })
}

/// The states other than V whose derivatives the stimulus `s` enters,
/// each with its change per mV of V that the stimulus adds: both
/// derivatives' responses to the stimulus `amp` at the file's initial
/// state (exact: the same expressions evaluated twice), checked to be
/// linear in it. A derivative that does not evaluate to a number there
/// (a removable singularity at the initial state) counts as not entered.
/// Refuses a stimulus that enters more states than fibril's stimulus
/// routine carries, or one nonlinearly, naming them.
/// As `kernels_gpu::model::MAX_CARRIERS` (the generated code's limit).
const MAX_CARRIERS: usize = 2;

fn stimulus_carriers(plan: &Plan, s: VarId, amp: f64) -> Result<Vec<(VarId, f64)>, ImportError> {
    let at = |x: f64| plan.evaluate(&HashMap::from([(s, x)])).1;
    let (off, one, two) = (at(0.0), at(amp), at(2.0 * amp));
    let response = |d: &[Option<f64>], x: VarId| match (d[x], off[x]) {
        (Some(a), Some(b)) if (a - b).is_finite() => a - b,
        _ => 0.0,
    };
    let dv = response(&one, plan.v);
    let name = |x: VarId| format!("`{}`", plan.model.vars[x].cellml);
    let entered: Vec<VarId> =
        plan.states[1..].iter().copied().filter(|&x| response(&one, x) != 0.0).collect();
    if entered.len() > MAX_CARRIERS {
        return Err(ImportError::Membrane(format!(
            "the stimulus {} enters the derivatives of {}; fibril's stimulus carries its charge into at most {MAX_CARRIERS} states besides V (remove the stimulus from the others, or name another stimulus with --stimulus)",
            name(s),
            entered.iter().map(|&x| name(x)).collect::<Vec<_>>().join(", ")
        )));
    }
    entered
        .into_iter()
        .map(|x| {
            let (d1, d2) = (response(&one, x), response(&two, x));
            if dv == 0.0 || (d2 - 2.0 * d1).abs() > 1e-9 * d1.abs() {
                return Err(ImportError::Membrane(format!(
                    "the stimulus {} enters d{}/dt other than in proportion to its dV/dt; fibril's stimulus can carry an ion only in proportion to the current",
                    name(s),
                    name(x)
                )));
            }
            Ok((x, d1 * plan.v_per_mv / dv))
        })
        .collect()
}

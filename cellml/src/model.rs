//! The flattened model: one variable per connected set of the file's
//! variables (its source: the one with an equation or an initial value),
//! each defined once, every equation in its left side's units.

use std::collections::HashMap;

use crate::convert::{Checker, UnitsOf};
use crate::document::Document;
use crate::error::ImportError;
use crate::expr::{Expr, VarId};
use crate::units::Unit;

#[derive(Clone, Debug, PartialEq)]
pub enum Def {
    /// The free variable of the derivatives.
    Time,
    /// A number the file gives (an initial value without an equation).
    Constant(f64),
    /// A state: its initial value and d/dt in its units per time unit.
    State {
        initial: f64,
        rhs: Expr,
    },
    Algebraic(Expr),
}

#[derive(Clone, Debug)]
pub struct Var {
    /// A Rust identifier, unique in the model.
    pub ident: String,
    /// `component.variable` in the file.
    pub cellml: String,
    pub units_name: String,
    pub unit: Unit,
    pub def: Def,
}

#[derive(Clone, Debug)]
pub struct Model {
    pub name: String,
    pub title: Option<String>,
    pub vars: Vec<Var>,
    pub time: VarId,
    /// oxmeta term -> variable.
    pub oxmeta: HashMap<String, VarId>,
    /// Unit mismatches let through by `lenient_units`.
    pub warnings: Vec<String>,
}

impl Model {
    pub fn states(&self) -> impl Iterator<Item = VarId> + '_ {
        (0..self.vars.len()).filter(|&v| matches!(self.vars[v].def, Def::State { .. }))
    }

    pub fn find(&self, cellml: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.cellml == cellml || v.ident == cellml)
    }
}

struct Flat<'a> {
    vars: &'a [Var],
    time: VarId,
}

impl UnitsOf for Flat<'_> {
    fn unit(&self, v: usize) -> Unit {
        self.vars[v].unit
    }
    fn diff_unit(&self, v: usize) -> Unit {
        self.vars[v].unit.over(&self.vars[self.time].unit)
    }
    fn constant(&self, v: usize) -> Option<f64> {
        match &self.vars[v].def {
            Def::Constant(x) => Some(*x),
            // An equation of constants only (read before its units are checked).
            Def::Algebraic(e) => {
                crate::eval::eval(e, &|w| if w == v { None } else { self.constant(w) }, &|_| None)
            }
            _ => None,
        }
    }
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Rust's keywords and the names the generated code uses itself.
const RESERVED: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "c", "n", "y", "dt", "locals", "params", "v_mv", "T",
];

fn ident(name: &str) -> String {
    let mut s: String =
        name.chars().map(|ch| if ch.is_ascii_alphanumeric() || ch == '_' { ch } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|ch: char| ch.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if RESERVED.contains(&s.as_str()) || s.contains("__") {
        s.push_str("_x");
    }
    s
}

#[allow(clippy::needless_range_loop)]
pub fn flatten(doc: &Document, lenient_units: bool) -> Result<Model, ImportError> {
    let n = doc.vars.len();
    let mut parent: Vec<usize> = (0..n).collect();
    for &(a, b) in &doc.connections {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        parent[ra] = rb;
    }
    let name_of = |v: VarId| format!("{}.{}", doc.vars[v].component, doc.vars[v].name);
    // Which raw variables give a value: an equation's left side or an
    // initial value; the time variable is the derivatives' bvar.
    let mut defined_by_eq = vec![None; n];
    let mut time_raw = None;
    for (i, eq) in doc.equations.iter().enumerate() {
        let target = match eq.lhs {
            Expr::Var(v) | Expr::Diff(v) => v,
            _ => unreachable!("the reader only accepts variables and derivatives on the left"),
        };
        if defined_by_eq[target].replace(i).is_some() {
            return Err(ImportError::Equations(format!("`{}` has two equations", name_of(target))));
        }
        if let Some(t) = eq.bvar {
            let root = find(&mut parent, t);
            if let Some(prev) = time_raw
                && find(&mut parent, prev) != root
            {
                return Err(ImportError::Unsupported(format!(
                    "derivatives with respect to two variables (`{}` and `{}`): only ODEs in one time are supported",
                    name_of(prev),
                    name_of(t)
                )));
            }
            time_raw = Some(t);
        }
    }
    let Some(time_raw) = time_raw else {
        return Err(ImportError::Equations("the model has no differential equation".into()));
    };
    let time_root = find(&mut parent, time_raw);
    // The source of each connected set.
    let mut source: HashMap<usize, VarId> = HashMap::new();
    for v in 0..n {
        let gives = defined_by_eq[v].is_some() || (doc.vars[v].initial.is_some() && !doc.vars[v].imported);
        if !gives {
            continue;
        }
        let root = find(&mut parent, v);
        if let Some(prev) = source.insert(root, v) {
            return Err(ImportError::Equations(format!(
                "`{}` and `{}` are connected and both give it a value; keep one",
                name_of(prev),
                name_of(v)
            )));
        }
    }
    if let Some(&t) = source.get(&time_root) {
        return Err(ImportError::Equations(format!(
            "the time variable `{}` has a value or an equation",
            name_of(t)
        )));
    }
    let time_source =
        (0..n).find(|&v| find(&mut parent, v) == time_root && !doc.vars[v].imported).unwrap_or(time_raw);
    source.insert(time_root, time_source);
    // New ids for the sources, in the file's order.
    let mut new_id: HashMap<VarId, VarId> = HashMap::new();
    let mut order: Vec<VarId> = source.values().copied().collect();
    order.sort_unstable();
    let mut name_count: HashMap<String, usize> = HashMap::new();
    for &raw in &order {
        *name_count.entry(doc.vars[raw].name.clone()).or_default() += 1;
    }
    let mut vars = Vec::new();
    for &raw in &order {
        let rv = &doc.vars[raw];
        let base =
            if name_count[&rv.name] > 1 { format!("{}_{}", rv.component, rv.name) } else { rv.name.clone() };
        new_id.insert(raw, vars.len());
        vars.push(Var {
            ident: ident(&base),
            cellml: name_of(raw),
            units_name: rv.units_name.clone(),
            unit: rv.unit,
            // Until the equations are read: a value nothing may take as a constant.
            def: Def::Algebraic(Expr::Num(f64::NAN)),
        });
    }
    let mut seen = HashMap::new();
    for (i, v) in vars.iter().enumerate() {
        if let Some(j) = seen.insert(v.ident.clone(), i) {
            return Err(ImportError::Equations(format!(
                "`{}` and `{}` get the same Rust name `{}`; rename one in the file",
                vars[j].cellml, v.cellml, v.ident
            )));
        }
    }
    // Every raw variable reads its set's source; dimensions must agree.
    let mut map = vec![0; n];
    for (v, slot) in map.iter_mut().enumerate() {
        let root = find(&mut parent, v);
        let Some(&src) = source.get(&root) else {
            return Err(ImportError::Equations(format!(
                "`{}` has no value: neither an equation nor an initial value, nor a connection to one",
                name_of(v)
            )));
        };
        if !doc.vars[v].unit.same_dims(&doc.vars[src].unit) {
            return Err(ImportError::InconsistentUnits(format!(
                "`{}` [{}] is connected to `{}` [{}]",
                name_of(v),
                doc.vars[v].unit.dims_text(),
                name_of(src),
                doc.vars[src].unit.dims_text()
            )));
        }
        *slot = new_id[&src];
    }
    let time = new_id[&time_source];
    vars[time].def = Def::Time;
    let remap = |e: &Expr| -> Expr { remap_expr(e, &map) };
    // Constants and initial values first; equations override.
    for &raw in &order {
        if let Some(x) = doc.vars[raw].initial {
            vars[new_id[&raw]].def = Def::Constant(x);
        }
    }
    let mut defs = Vec::new();
    for eq in &doc.equations {
        let (target, is_state) = match eq.lhs {
            Expr::Var(v) => (map[v], false),
            Expr::Diff(v) => (map[v], true),
            _ => unreachable!(),
        };
        defs.push((target, is_state, remap(&eq.rhs)));
    }
    for (target, is_state, rhs) in &defs {
        if !is_state {
            vars[*target].def = Def::Algebraic(rhs.clone());
        }
    }
    let flat = Flat { vars: &vars, time };
    let mut checked = Vec::new();
    let mut warnings = Vec::new();
    for (target, is_state, rhs) in defs {
        let checker = Checker {
            model: &flat,
            context: vars[target].cellml.clone(),
            lenient: lenient_units,
            warnings: Default::default(),
        };
        let lhs_unit = if is_state { flat.diff_unit(target) } else { vars[target].unit };
        checked.push((target, is_state, checker.equation(&lhs_unit, &rhs)?));
        warnings.extend(checker.warnings.into_inner());
    }
    for (target, is_state, rhs) in checked {
        vars[target].def = if is_state {
            let Def::Constant(initial) = vars[target].def else {
                return Err(ImportError::Equations(format!(
                    "the state `{}` has no initial value; give it one in the file",
                    vars[target].cellml
                )));
            };
            Def::State { initial, rhs }
        } else {
            Def::Algebraic(rhs)
        };
    }
    let oxmeta = doc.oxmeta.iter().map(|(term, &raw)| (term.clone(), map[raw])).collect();
    Ok(Model { name: doc.name.clone(), title: doc.title.clone(), vars, time, oxmeta, warnings })
}

fn remap_expr(e: &Expr, map: &[VarId]) -> Expr {
    match e {
        Expr::Var(v) => Expr::Var(map[*v]),
        Expr::Diff(v) => Expr::Diff(map[*v]),
        Expr::Num(_) | Expr::Cn(..) => e.clone(),
        Expr::Apply(op, args) => Expr::Apply(*op, args.iter().map(|a| remap_expr(a, map)).collect()),
        Expr::Piecewise(pieces, other) => Expr::Piecewise(
            pieces.iter().map(|(v, c)| (remap_expr(v, map), remap_expr(c, map))).collect(),
            Box::new(remap_expr(other, map)),
        ),
    }
}

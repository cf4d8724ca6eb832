//! Reading a CellML file: components and their variables, the units they
//! define, the equations as [`Expr`], the connections between components
//! and the oxmeta annotations (CellML 1.0 and 1.1; 2.0's renamed
//! attributes are read too). Imports and reactions are refused.

use std::collections::HashMap;

use roxmltree::{Document as Xml, Node};

use crate::error::ImportError;
use crate::expr::{Expr, Op, VarId};
use crate::units::{Unit, UnitDefs, UnitTerm, prefix_exponent};

const CELLML_NS: [&str; 3] = [
    "http://www.cellml.org/cellml/1.0#",
    "http://www.cellml.org/cellml/1.1#",
    "http://www.cellml.org/cellml/2.0#",
];
const MATHML_NS: &str = "http://www.w3.org/1998/Math/MathML";
const CMETA_NS: &str = "http://www.cellml.org/metadata/1.0#";
const RDF_NS: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
/// The Oxford metadata ontology's namespace (Chaste's annotations).
const OXMETA: &str = "https://chaste.comlab.ox.ac.uk/cellml/ns/oxford-metadata#";

/// A variable as a component declares it.
#[derive(Clone, Debug)]
pub struct RawVar {
    pub component: String,
    pub name: String,
    pub units_name: String,
    pub unit: Unit,
    pub initial: Option<f64>,
    /// Receives its value through a connection (`public_interface="in"`
    /// or `private_interface="in"`; CellML 2.0 has no such mark).
    pub imported: bool,
}

/// `lhs = rhs` of one component; `lhs` is a variable or a derivative.
#[derive(Clone, Debug)]
pub struct RawEquation {
    pub lhs: Expr,
    pub rhs: Expr,
    /// The time variable of a derivative on the left.
    pub bvar: Option<VarId>,
}

#[derive(Clone, Debug)]
pub struct Document {
    pub name: String,
    /// A title for the generated file: the article's, where the file's
    /// metadata has one.
    pub title: Option<String>,
    pub vars: Vec<RawVar>,
    pub equations: Vec<RawEquation>,
    /// Pairs of variables the file connects.
    pub connections: Vec<(VarId, VarId)>,
    /// oxmeta term -> variable.
    pub oxmeta: HashMap<String, VarId>,
}

fn is_cellml(node: &Node) -> bool {
    node.tag_name().namespace().is_some_and(|ns| CELLML_NS.contains(&ns))
}

fn children<'a, 'i>(node: Node<'a, 'i>, local: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(move |c| c.is_element() && is_cellml(c) && c.tag_name().name() == local)
}

fn attr<'a>(node: &Node<'a, '_>, name: &str) -> Option<&'a str> {
    node.attributes().find(|a| a.name() == name && a.namespace().is_none()).map(|a| a.value())
}

fn need<'a>(node: &Node<'a, '_>, name: &str) -> Result<&'a str, ImportError> {
    attr(node, name).ok_or_else(|| {
        ImportError::NotCellml(format!(
            "<{}> at byte {} has no `{name}` attribute",
            node.tag_name().name(),
            node.range().start
        ))
    })
}

pub fn parse(text: &str) -> Result<Document, ImportError> {
    let xml = Xml::parse(text).map_err(|e| ImportError::Xml(e.to_string()))?;
    let root = xml.root_element();
    if root.tag_name().name() != "model" || !is_cellml(&root) {
        return Err(ImportError::NotCellml(format!(
            "the root element is <{}> in namespace {:?}; a CellML 1.0, 1.1 or 2.0 <model> is expected",
            root.tag_name().name(),
            root.tag_name().namespace().unwrap_or("none")
        )));
    }
    for bad in ["import", "reaction"] {
        if let Some(n) = root.descendants().find(|n| is_cellml(n) && n.tag_name().name() == bad) {
            return Err(ImportError::Unsupported(format!(
                "<{bad}> at byte {}: flatten the model into one file first (CellML tools such as OpenCOR export a flattened model)",
                n.range().start
            )));
        }
    }
    let units = unit_defs(root)?;
    let mut vars = Vec::new();
    let mut scope: HashMap<(String, String), VarId> = HashMap::new();
    let mut cmeta_ids: HashMap<String, VarId> = HashMap::new();
    for comp in children(root, "component") {
        let cname = need(&comp, "name")?.to_string();
        for v in children(comp, "variable") {
            let name = need(&v, "name")?.to_string();
            let units_name = need(&v, "units")?.to_string();
            let unit = units.resolve(&cname, &units_name)?;
            let initial = match attr(&v, "initial_value") {
                None => None,
                Some(s) => Some(s.trim().parse::<f64>().map_err(|_| {
                    ImportError::Unsupported(format!(
                        "variable `{cname}.{name}` has initial_value `{s}`: only numbers are supported as initial values"
                    ))
                })?),
            };
            let imported =
                attr(&v, "public_interface") == Some("in") || attr(&v, "private_interface") == Some("in");
            let id = vars.len();
            if scope.insert((cname.clone(), name.clone()), id).is_some() {
                return Err(ImportError::NotCellml(format!("component `{cname}` declares `{name}` twice")));
            }
            if let Some(cid) = v.attributes().find(|a| a.name() == "id" && a.namespace() == Some(CMETA_NS)) {
                cmeta_ids.insert(cid.value().to_string(), id);
            }
            vars.push(RawVar { component: cname.clone(), name, units_name, unit, initial, imported });
        }
    }
    let mut equations = Vec::new();
    for comp in children(root, "component") {
        let cname = need(&comp, "name")?.to_string();
        let reader = MathReader { component: &cname, scope: &scope, units: &units };
        for math in comp.children().filter(|c| c.is_element() && c.tag_name().namespace() == Some(MATHML_NS))
        {
            for eq in elements(math) {
                equations.push(reader.equation(eq)?);
            }
        }
    }
    let mut connections = Vec::new();
    for conn in children(root, "connection") {
        let (c1, c2) = match children(conn, "map_components").next() {
            Some(m) => (need(&m, "component_1")?, need(&m, "component_2")?),
            None => (need(&conn, "component_1")?, need(&conn, "component_2")?),
        };
        for m in children(conn, "map_variables") {
            let (v1, v2) = (need(&m, "variable_1")?, need(&m, "variable_2")?);
            let find = |c: &str, v: &str| {
                scope.get(&(c.to_string(), v.to_string())).copied().ok_or_else(|| {
                    ImportError::NotCellml(format!(
                        "a connection names `{c}.{v}`, which no component declares"
                    ))
                })
            };
            connections.push((find(c1, v1)?, find(c2, v2)?));
        }
    }
    let mut oxmeta = HashMap::new();
    let mut title = None;
    for d in xml
        .descendants()
        .filter(|n| n.tag_name().namespace() == Some(RDF_NS) && n.tag_name().name() == "Description")
    {
        let about = d.attributes().find(|a| a.name() == "about").map(|a| a.value()).unwrap_or("");
        for is in d.children().filter(|c| c.is_element() && c.tag_name().name() == "is") {
            let resource = is.attributes().find(|a| a.name() == "resource").map(|a| a.value()).unwrap_or("");
            if let (Some(term), Some(id)) = (resource.strip_prefix(OXMETA), about.strip_prefix('#'))
                && let Some(&v) = cmeta_ids.get(id)
            {
                oxmeta.insert(term.to_string(), v);
            }
        }
    }
    if let Some(t) = xml.descendants().find(|n| n.is_element() && n.tag_name().name() == "title")
        && let Some(text) = t.text()
    {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.is_empty() {
            title = Some(text);
        }
    }
    Ok(Document { name: need(&root, "name")?.to_string(), title, vars, equations, connections, oxmeta })
}

fn unit_defs(root: Node) -> Result<UnitDefs, ImportError> {
    let mut defs = UnitDefs::default();
    let mut read = |scope: &str, u: Node| -> Result<(), ImportError> {
        let name = need(&u, "name")?;
        if attr(&u, "base_units") == Some("yes") {
            if let Some(first) = defs.own_base.replace(name.to_string()) {
                return Err(ImportError::Unsupported(format!(
                    "units `{first}` and `{name}` are both declared as new base units; fibril reads one per file"
                )));
            }
            return Ok(());
        }
        let mut terms = Vec::new();
        for t in children(u, "unit") {
            let prefix = match attr(&t, "prefix") {
                None => 0,
                Some(p) => prefix_exponent(p)
                    .ok_or_else(|| ImportError::Units(format!("units `{name}`: unknown prefix `{p}`")))?,
            };
            let num = |key: &str, default: f64| -> Result<f64, ImportError> {
                attr(&t, key).map_or(Ok(default), |s| {
                    s.trim().parse().map_err(|_| {
                        ImportError::Units(format!("units `{name}`: {key} `{s}` is not a number"))
                    })
                })
            };
            if attr(&t, "offset").is_some_and(|o| o.trim().parse::<f64>().ok() != Some(0.0)) {
                return Err(ImportError::Unsupported(format!("units `{name}` have an offset")));
            }
            terms.push(UnitTerm {
                units: need(&t, "units")?.to_string(),
                prefix,
                exponent: num("exponent", 1.0)?,
                multiplier: num("multiplier", 1.0)?,
            });
        }
        defs.defs.insert((scope.to_string(), name.to_string()), terms);
        Ok(())
    };
    for u in children(root, "units") {
        read("", u)?;
    }
    for comp in children(root, "component") {
        let cname = need(&comp, "name")?;
        for u in children(comp, "units") {
            read(cname, u)?;
        }
    }
    Ok(defs)
}

fn elements<'a, 'i>(node: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(|c| c.is_element())
}

struct MathReader<'s> {
    component: &'s str,
    scope: &'s HashMap<(String, String), VarId>,
    units: &'s UnitDefs,
}

impl MathReader<'_> {
    fn at(&self, node: Node, what: &str) -> ImportError {
        ImportError::Unsupported(format!(
            "{what} in component `{}` (byte {})",
            self.component,
            node.range().start
        ))
    }

    fn equation(&self, node: Node) -> Result<RawEquation, ImportError> {
        let mut parts = elements(node);
        let head = parts.next();
        if node.tag_name().name() != "apply" || head.map(|h| h.tag_name().name()) != Some("eq") {
            return Err(self.at(node, "a top-level MathML element that is not `<apply><eq/>`"));
        }
        let (Some(lhs), Some(rhs), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(self.at(node, "an equation without exactly two sides"));
        };
        let (lhs, bvar) =
            match lhs.tag_name().name() {
                "ci" => (self.expr(lhs)?, None),
                "apply" if elements(lhs).next().is_some_and(|h| h.tag_name().name() == "diff") => {
                    let (x, t) = self.diff(lhs)?;
                    (Expr::Diff(x), Some(t))
                }
                _ => return Err(self.at(
                    lhs,
                    "an equation whose left side is neither a variable nor a derivative (implicit equations)",
                )),
            };
        Ok(RawEquation { lhs, rhs: self.expr(rhs)?, bvar })
    }

    fn var(&self, node: Node) -> Result<VarId, ImportError> {
        let name = node.text().unwrap_or("").trim();
        self.scope.get(&(self.component.to_string(), name.to_string())).copied().ok_or_else(|| {
            ImportError::NotCellml(format!(
                "component `{}` uses `{name}` without declaring it",
                self.component
            ))
        })
    }

    /// `<apply><diff/><bvar><ci>t</ci></bvar><ci>x</ci></apply>` -> (x, t).
    fn diff(&self, node: Node) -> Result<(VarId, VarId), ImportError> {
        let parts: Vec<Node> = elements(node).skip(1).collect();
        let bvar = parts
            .iter()
            .find(|p| p.tag_name().name() == "bvar")
            .ok_or_else(|| self.at(node, "a derivative without <bvar>"))?;
        if elements(*bvar).any(|c| c.tag_name().name() == "degree") {
            return Err(self.at(node, "a derivative of a degree other than one"));
        }
        let t = elements(*bvar)
            .find(|c| c.tag_name().name() == "ci")
            .ok_or_else(|| self.at(node, "a <bvar> without <ci>"))?;
        let x = parts
            .iter()
            .find(|p| p.tag_name().name() == "ci")
            .ok_or_else(|| self.at(node, "a derivative of an expression"))?;
        Ok((self.var(*x)?, self.var(t)?))
    }

    fn number(&self, node: Node) -> Result<Expr, ImportError> {
        let texts: Vec<&str> = node.children().filter(|c| c.is_text()).filter_map(|c| c.text()).collect();
        let bad = || self.at(node, "a <cn> that is not a real number");
        let value = match attr(&node, "type") {
            Some("e-notation") => {
                let (Some(m), Some(e)) = (texts.first(), texts.get(1)) else { return Err(bad()) };
                let m: f64 = m.trim().parse().map_err(|_| bad())?;
                let e: i32 = e.trim().parse().map_err(|_| bad())?;
                // Written as a decimal literal so that 1.5e-3 is read as
                // the nearest double to 1.5e-3, not as 1.5 * 10^-3.
                format!("{m}e{e}").parse().map_err(|_| bad())?
            }
            None | Some("real") | Some("integer") => texts.concat().trim().parse().map_err(|_| bad())?,
            Some(other) => return Err(self.at(node, &format!("a <cn type=\"{other}\">"))),
        };
        let units = node
            .attributes()
            .find(|a| a.name() == "units" && a.namespace().is_some_and(|ns| CELLML_NS.contains(&ns)));
        Ok(match units {
            Some(u) => Expr::Cn(value, self.units.resolve(self.component, u.value())?),
            None => Expr::Num(value),
        })
    }

    fn expr(&self, node: Node) -> Result<Expr, ImportError> {
        let name = node.tag_name().name();
        Ok(match name {
            "ci" => Expr::Var(self.var(node)?),
            "cn" => self.number(node)?,
            "pi" => Expr::Num(std::f64::consts::PI),
            "exponentiale" => Expr::Num(std::f64::consts::E),
            "true" => Expr::Num(1.0),
            "false" => Expr::Num(0.0),
            "notanumber" => Expr::Num(f64::NAN),
            "infinity" => Expr::Num(f64::INFINITY),
            "piecewise" => {
                let mut pieces = Vec::new();
                let mut otherwise = Expr::Num(f64::NAN);
                for p in elements(node) {
                    let mut kids = elements(p);
                    match p.tag_name().name() {
                        "piece" => {
                            let (Some(v), Some(c)) = (kids.next(), kids.next()) else {
                                return Err(self.at(p, "a <piece> without a value and a condition"));
                            };
                            pieces.push((self.expr(v)?, self.expr(c)?));
                        }
                        "otherwise" => {
                            let v = kids.next().ok_or_else(|| self.at(p, "an empty <otherwise>"))?;
                            otherwise = self.expr(v)?;
                        }
                        other => return Err(self.at(p, &format!("<{other}> inside <piecewise>"))),
                    }
                }
                Expr::Piecewise(pieces, Box::new(otherwise))
            }
            "apply" => self.apply(node)?,
            other => return Err(self.at(node, &format!("the MathML element <{other}>"))),
        })
    }

    fn apply(&self, node: Node) -> Result<Expr, ImportError> {
        let mut kids = elements(node);
        let head = kids.next().ok_or_else(|| self.at(node, "an empty <apply>"))?;
        let hname = head.tag_name().name();
        if hname == "diff" {
            let (x, _t) = self.diff(node)?;
            return Ok(Expr::Diff(x));
        }
        let mut qualifier = None;
        let mut args = Vec::new();
        for k in kids {
            match k.tag_name().name() {
                "degree" | "logbase" => {
                    let v = elements(k).next().ok_or_else(|| self.at(k, "an empty qualifier"))?;
                    qualifier = Some(self.expr(v)?);
                }
                _ => args.push(self.expr(k)?),
            }
        }
        let op = match hname {
            "plus" => Op::Plus,
            "minus" => Op::Minus,
            "times" => Op::Times,
            "divide" => Op::Divide,
            "power" => Op::Power,
            "exp" => Op::Exp,
            "ln" => Op::Ln,
            "abs" => Op::Abs,
            "floor" => Op::Floor,
            "ceiling" => Op::Ceiling,
            "rem" => Op::Rem,
            "min" => Op::Min,
            "max" => Op::Max,
            "sin" => Op::Sin,
            "cos" => Op::Cos,
            "tan" => Op::Tan,
            "sinh" => Op::Sinh,
            "cosh" => Op::Cosh,
            "tanh" => Op::Tanh,
            "arcsin" => Op::Arcsin,
            "arccos" => Op::Arccos,
            "arctan" => Op::Arctan,
            "lt" => Op::Lt,
            "leq" => Op::Leq,
            "gt" => Op::Gt,
            "geq" => Op::Geq,
            "eq" => Op::Eq,
            "neq" => Op::Neq,
            "and" => Op::And,
            "or" => Op::Or,
            "xor" => Op::Xor,
            "not" => Op::Not,
            "log" => {
                let x = one(args, || self.at(node, "<log> without one argument"))?;
                return Ok(match qualifier {
                    None => Expr::apply(Op::Log10, vec![x]),
                    Some(Expr::Num(b) | Expr::Cn(b, _)) if b == 10.0 => Expr::apply(Op::Log10, vec![x]),
                    Some(b) => Expr::apply(
                        Op::Divide,
                        vec![Expr::apply(Op::Ln, vec![x]), Expr::apply(Op::Ln, vec![strip_units(b)])],
                    ),
                });
            }
            "root" => {
                let x = one(args, || self.at(node, "<root> without one argument"))?;
                return Ok(match qualifier {
                    None => Expr::apply(Op::Sqrt, vec![x]),
                    Some(Expr::Num(d) | Expr::Cn(d, _)) if d == 2.0 => Expr::apply(Op::Sqrt, vec![x]),
                    Some(d) => Expr::apply(
                        Op::Power,
                        vec![x, Expr::apply(Op::Divide, vec![Expr::Num(1.0), strip_units(d)])],
                    ),
                });
            }
            other => return Err(self.at(head, &format!("the MathML operator <{other}>"))),
        };
        let arity_ok = match op {
            Op::Minus => matches!(args.len(), 1 | 2),
            Op::Divide | Op::Power | Op::Rem | Op::Lt | Op::Leq | Op::Gt | Op::Geq | Op::Neq => {
                args.len() == 2
            }
            Op::Plus | Op::Times | Op::And | Op::Or | Op::Xor | Op::Min | Op::Max => !args.is_empty(),
            Op::Eq => args.len() >= 2,
            _ => args.len() == 1,
        };
        if !arity_ok {
            return Err(self.at(node, &format!("<{hname}> with {} arguments", args.len())));
        }
        Ok(Expr::apply(op, args))
    }
}

fn one(mut args: Vec<Expr>, err: impl Fn() -> ImportError) -> Result<Expr, ImportError> {
    if args.len() == 1 { Ok(args.pop().unwrap()) } else { Err(err()) }
}

fn strip_units(e: Expr) -> Expr {
    match e {
        Expr::Cn(v, _) => Expr::Num(v),
        other => other,
    }
}

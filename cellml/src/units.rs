//! Units as CellML defines them: a factor times a product of powers of the
//! seven SI base units (CellML 1.0 specification, section 5; the built-in
//! units of its table 2). Names are resolved, never matched: `ms`, `msec`
//! and `millisecond` are all 1e-3 s.

use std::collections::HashMap;

use crate::error::ImportError;

/// Exponents of metre, kilogram, second, ampere, kelvin, mole, candela,
/// and of the one new base unit a file may declare (CellML 1.0 section
/// 5.2.2, `base_units="yes"`; one file of the public corpus declares one).
pub type Dims = [f64; 8];

const DIM_NAMES: [&str; 8] = ["m", "kg", "s", "A", "K", "mol", "cd", "(the file's base unit)"];

/// The slot of a file's own base unit in [`Dims`].
pub const OWN_BASE: usize = 7;

/// A unit: `factor` SI units of dimension `dims`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unit {
    pub factor: f64,
    pub dims: Dims,
}

impl Unit {
    pub const DIMENSIONLESS: Unit = Unit { factor: 1.0, dims: [0.0; 8] };

    const fn si(dims: Dims) -> Unit {
        Unit { factor: 1.0, dims }
    }

    pub fn is_dimensionless(&self) -> bool {
        self.dims.iter().all(|&d| d == 0.0)
    }

    pub fn same_dims(&self, other: &Unit) -> bool {
        self.dims.iter().zip(&other.dims).all(|(a, b)| (a - b).abs() < 1e-9)
    }

    pub fn times(&self, other: &Unit) -> Unit {
        Unit {
            factor: self.factor * other.factor,
            dims: std::array::from_fn(|i| self.dims[i] + other.dims[i]),
        }
    }

    pub fn over(&self, other: &Unit) -> Unit {
        Unit {
            factor: self.factor / other.factor,
            dims: std::array::from_fn(|i| self.dims[i] - other.dims[i]),
        }
    }

    pub fn powf(&self, e: f64) -> Unit {
        Unit { factor: self.factor.powf(e), dims: self.dims.map(|d| d * e) }
    }

    /// The SI dimension, as a reader writes it (`kg m^2 s^-3 A^-1`).
    pub fn dims_text(&self) -> String {
        let parts: Vec<String> = (0..8)
            .filter(|&i| self.dims[i] != 0.0)
            .map(|i| {
                if self.dims[i] == 1.0 {
                    DIM_NAMES[i].to_string()
                } else {
                    format!("{}^{}", DIM_NAMES[i], self.dims[i])
                }
            })
            .collect();
        if parts.is_empty() { "1".to_string() } else { parts.join(" ") }
    }
}

/// The built-in units of CellML 1.0 (its table 2), in SI.
fn builtin(name: &str) -> Option<Unit> {
    //               m     kg    s     A     K    mol   cd
    let u = |d: Dims| Some(Unit::si(d));
    match name {
        "dimensionless" | "radian" | "steradian" => Some(Unit::DIMENSIONLESS),
        "metre" | "meter" => u([1., 0., 0., 0., 0., 0., 0., 0.]),
        "kilogram" => u([0., 1., 0., 0., 0., 0., 0., 0.]),
        "gram" => Some(Unit { factor: 1e-3, dims: [0., 1., 0., 0., 0., 0., 0., 0.] }),
        "second" => u([0., 0., 1., 0., 0., 0., 0., 0.]),
        "ampere" => u([0., 0., 0., 1., 0., 0., 0., 0.]),
        // Celsius differs from kelvin by an offset only; no model of the
        // corpus converts between them.
        "kelvin" | "celsius" => u([0., 0., 0., 0., 1., 0., 0., 0.]),
        "mole" => u([0., 0., 0., 0., 0., 1., 0., 0.]),
        "candela" | "lumen" => u([0., 0., 0., 0., 0., 0., 1., 0.]),
        "litre" | "liter" => Some(Unit { factor: 1e-3, dims: [3., 0., 0., 0., 0., 0., 0., 0.] }),
        "hertz" | "becquerel" => u([0., 0., -1., 0., 0., 0., 0., 0.]),
        "newton" => u([1., 1., -2., 0., 0., 0., 0., 0.]),
        "pascal" => u([-1., 1., -2., 0., 0., 0., 0., 0.]),
        "joule" => u([2., 1., -2., 0., 0., 0., 0., 0.]),
        "watt" => u([2., 1., -3., 0., 0., 0., 0., 0.]),
        "coulomb" => u([0., 0., 1., 1., 0., 0., 0., 0.]),
        "volt" => u([2., 1., -3., -1., 0., 0., 0., 0.]),
        "farad" => u([-2., -1., 4., 2., 0., 0., 0., 0.]),
        "ohm" => u([2., 1., -3., -2., 0., 0., 0., 0.]),
        "siemens" => u([-2., -1., 3., 2., 0., 0., 0., 0.]),
        "weber" => u([2., 1., -2., -1., 0., 0., 0., 0.]),
        "tesla" => u([0., 1., -2., -1., 0., 0., 0., 0.]),
        "henry" => u([2., 1., -2., -2., 0., 0., 0., 0.]),
        "gray" | "sievert" => u([2., 0., -2., 0., 0., 0., 0., 0.]),
        "lux" => u([-2., 0., 0., 0., 0., 0., 1., 0.]),
        "katal" => u([0., 0., -1., 0., 0., 1., 0., 0.]),
        _ => None,
    }
}

/// The power of ten of a named prefix, or of an integer one (CellML 1.1).
pub fn prefix_exponent(prefix: &str) -> Option<i32> {
    Some(match prefix {
        "yotta" => 24,
        "zetta" => 21,
        "exa" => 18,
        "peta" => 15,
        "tera" => 12,
        "giga" => 9,
        "mega" => 6,
        "kilo" => 3,
        "hecto" => 2,
        "deka" | "deca" => 1,
        "deci" => -1,
        "centi" => -2,
        "milli" => -3,
        "micro" => -6,
        "nano" => -9,
        "pico" => -12,
        "femto" => -15,
        "atto" => -18,
        "zepto" => -21,
        "yocto" => -24,
        other => return other.parse().ok(),
    })
}

/// One `<unit>` child of a `<units>` definition.
#[derive(Clone, Debug)]
pub struct UnitTerm {
    pub units: String,
    pub prefix: i32,
    pub exponent: f64,
    pub multiplier: f64,
}

/// The units a file defines, by scope: the model's and each component's.
#[derive(Clone, Debug, Default)]
pub struct UnitDefs {
    /// (component or "" for the model, name) -> terms.
    pub defs: HashMap<(String, String), Vec<UnitTerm>>,
    /// The name of the file's own base unit, if it declares one.
    pub own_base: Option<String>,
}

impl UnitDefs {
    /// The unit called `name` as seen from `component`: the component's
    /// own definitions first, then the model's, then the built-in ones.
    pub fn resolve(&self, component: &str, name: &str) -> Result<Unit, ImportError> {
        self.resolve_depth(component, name, 0)
    }

    fn resolve_depth(&self, component: &str, name: &str, depth: usize) -> Result<Unit, ImportError> {
        if depth > 32 {
            return Err(ImportError::Units(format!("the definition of units `{name}` refers to itself")));
        }
        let terms = self
            .defs
            .get(&(component.to_string(), name.to_string()))
            .or_else(|| self.defs.get(&(String::new(), name.to_string())));
        if self.own_base.as_deref() == Some(name) {
            let mut dims = [0.0; 8];
            dims[OWN_BASE] = 1.0;
            return Ok(Unit { factor: 1.0, dims });
        }
        let Some(terms) = terms else {
            return builtin(name).ok_or_else(|| {
                ImportError::Units(format!("units `{name}` (used in component `{component}`) are neither defined in the file nor built into CellML"))
            });
        };
        let mut unit = Unit::DIMENSIONLESS;
        for t in terms {
            let base = self.resolve_depth(component, &t.units, depth + 1)?;
            let scaled = Unit { factor: base.factor * 10f64.powi(t.prefix), dims: base.dims };
            let mut p = scaled.powf(t.exponent);
            p.factor *= t.multiplier;
            unit = unit.times(&p);
        }
        Ok(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (unit, prefix, exponent, multiplier)
    type Term<'a> = (&'a str, i32, f64, f64);

    fn defs(list: &[(&str, &[Term])]) -> UnitDefs {
        let mut d = UnitDefs::default();
        for (name, terms) in list {
            let terms = terms
                .iter()
                .map(|&(u, prefix, exponent, multiplier)| UnitTerm {
                    units: u.into(),
                    prefix,
                    exponent,
                    multiplier,
                })
                .collect();
            d.defs.insert((String::new(), name.to_string()), terms);
        }
        d
    }

    #[test]
    fn derived_units_resolve_to_si() {
        let d = defs(&[
            ("ms", &[("second", -3, 1.0, 1.0)]),
            ("mV", &[("volt", -3, 1.0, 1.0)]),
            ("uA_per_uF", &[("ampere", -6, 1.0, 1.0), ("farad", -6, -1.0, 1.0)]),
            ("mV_per_ms", &[("mV", 0, 1.0, 1.0), ("ms", 0, -1.0, 1.0)]),
            ("per_mM", &[("mole", -3, -1.0, 1.0), ("litre", 0, 1.0, 1.0)]),
            ("minute", &[("second", 0, 1.0, 60.0)]),
        ]);
        let ms = d.resolve("c", "ms").unwrap();
        assert!((ms.factor - 1e-3).abs() < 1e-18 && ms.same_dims(&builtin("second").unwrap()));
        // uA/uF = A/F = V/s = mV/ms.
        let a_f = d.resolve("c", "uA_per_uF").unwrap();
        let mv_ms = d.resolve("c", "mV_per_ms").unwrap();
        assert!(
            a_f.same_dims(&mv_ms) && (a_f.factor - 1.0).abs() < 1e-12 && (mv_ms.factor - 1.0).abs() < 1e-12
        );
        assert_eq!(d.resolve("c", "per_mM").unwrap().dims_text(), "m^3 mol^-1");
        assert!((d.resolve("c", "minute").unwrap().factor - 60.0).abs() < 1e-12);
        let err = d.resolve("c", "furlong").unwrap_err().to_string();
        assert!(err.contains("furlong") && err.contains("`c`"), "{err}");
    }

    #[test]
    fn prefixes_are_named_or_integers() {
        assert_eq!(prefix_exponent("micro"), Some(-6));
        assert_eq!(prefix_exponent("-3"), Some(-3));
        assert_eq!(prefix_exponent("mili"), None);
    }

    #[test]
    fn a_files_own_base_unit_is_a_dimension_of_its_own() {
        let mut d = defs(&[("per_arbitrary", &[("arbitrary", 0, -1.0, 1.0)])]);
        d.own_base = Some("arbitrary".into());
        let a = d.resolve("c", "arbitrary").unwrap();
        assert!(!a.is_dimensionless() && !a.same_dims(&builtin("second").unwrap()));
        assert!(a.times(&d.resolve("c", "per_arbitrary").unwrap()).is_dimensionless());
        assert_eq!(a.dims_text(), "(the file's base unit)");
    }
}

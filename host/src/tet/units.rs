//! The length unit of a mesh file's coordinates. Formats disagree
//! (openCARP counts in micrometres, Gmsh and VTK files in whatever the
//! modeller drew, most often mm), and a mesh read in the wrong unit runs
//! a thousand times too fast or too slow without any other sign, so each
//! reader has a default and the user can say otherwise.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    Um,
    Mm,
    Cm,
    M,
}

impl Units {
    /// Millimetres in one of this unit.
    pub fn in_mm(self) -> f64 {
        match self {
            Units::Um => 1e-3,
            Units::Mm => 1.0,
            Units::Cm => 10.0,
            Units::M => 1e3,
        }
    }
}

impl fmt::Display for Units {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Units::Um => "um",
            Units::Mm => "mm",
            Units::Cm => "cm",
            Units::M => "m",
        })
    }
}

impl FromStr for Units {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "um" | "µm" | "micrometre" | "micrometer" => Ok(Units::Um),
            "mm" => Ok(Units::Mm),
            "cm" => Ok(Units::Cm),
            "m" => Ok(Units::M),
            other => Err(format!("unknown length unit {other:?}; give um, mm, cm or m")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_parse_print_and_scale_to_mm() {
        for u in [Units::Um, Units::Mm, Units::Cm, Units::M] {
            assert_eq!(u.to_string().parse::<Units>(), Ok(u));
        }
        assert_eq!(Units::Um.in_mm() * 1000.0, 1.0);
        assert_eq!(Units::Cm.in_mm(), 10.0);
        assert!("inch".parse::<Units>().unwrap_err().contains("give um, mm, cm or m"));
    }
}

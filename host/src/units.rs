//! The units in the names of columns and arrays: a CSV column `t_ms` or
//! `x_mm` must not claim milliseconds and millimetres for a model that
//! counts in its own units (Aliev-Panfilov's time units, Karma's space
//! units).

use kernels_gpu::model::Units;

/// The suffixes that name a model's units of time and length in column
/// and array names: `ms` and `mm`, or `tu` and `su` for a model's own
/// "t.u." and "s.u.".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitTags {
    pub time: &'static str,
    pub space: &'static str,
}

impl UnitTags {
    /// Milliseconds and millimetres.
    pub const MS_MM: Self = Self { time: "ms", space: "mm" };

    pub fn of(units: &Units) -> Self {
        Self { time: tag(units.time), space: tag(units.space) }
    }
}

impl Default for UnitTags {
    fn default() -> Self {
        Self::MS_MM
    }
}

/// A unit as a name suffix: letters and digits only.
fn tag(unit: &'static str) -> &'static str {
    match unit {
        "t.u." => "tu",
        "s.u." => "su",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_s_units_are_plain_suffixes() {
        for m in crate::models::MODELS {
            let t = UnitTags::of(&m.units);
            for s in [t.time, t.space] {
                assert!(!s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric()), "{}: {s:?}", m.name);
            }
        }
        let karma = crate::models::MODELS.iter().find(|m| m.name == "karma").unwrap();
        assert_eq!(UnitTags::of(&karma.units), UnitTags { time: "ms", space: "su" });
        let ap = crate::models::MODELS.iter().find(|m| m.name == "aliev_panfilov").unwrap();
        assert_eq!(UnitTags::of(&ap.units), UnitTags { time: "tu", space: "su" });
    }
}

//! The snapshot formats there are, and the set of them a run chose. A new
//! format is its own file beside this one and one entry in [`FORMATS`].

use serde::ser::SerializeMap;

use super::format::SnapshotFormat;
use super::{npy, png, vti, vtu};

/// Every snapshot format, in the order a snapshot writes them.
pub static FORMATS: [&dyn SnapshotFormat; 4] = [&npy::Npy, &vti::Vti, &png::Png, &vtu::Vtu];

/// A name in `--format` that is no format.
#[derive(Debug, thiserror::Error)]
#[error("unknown snapshot format {name:?}; the formats are {}", names())]
pub struct UnknownFormat {
    pub name: String,
}

/// "npy, vti, png", for messages and help.
pub fn names() -> String {
    FORMATS.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// The formats a run writes its snapshots in (a subset of [`FORMATS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formats(u32);

impl Formats {
    /// The formats named (each at most once counts once).
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<Self, UnknownFormat> {
        let mut bits = 0;
        for name in names {
            let name = name.as_ref();
            let k = FORMATS
                .iter()
                .position(|f| f.name() == name)
                .ok_or_else(|| UnknownFormat { name: name.to_string() })?;
            bits |= 1 << k;
        }
        Ok(Self(bits))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.chosen().any(|f| f.name() == name)
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Full copies of each saved field a snapshot stores on disk.
    pub fn field_copies(&self) -> u64 {
        self.chosen().map(|f| f.field_copies()).sum()
    }

    /// The first chosen format that cannot write what a run holds (a
    /// tetrahedral mesh's nodes when `mesh`, else a grid), if any.
    pub fn unfit(&self, mesh: bool) -> Option<&'static str> {
        self.chosen().find(|f| if mesh { !f.on_meshes() } else { !f.on_grids() }).map(|f| f.name())
    }

    /// The chosen formats, in [`FORMATS`] order.
    pub fn chosen(&self) -> impl Iterator<Item = &'static dyn SnapshotFormat> + '_ {
        FORMATS.iter().enumerate().filter(|(k, _)| self.0 & (1 << k) != 0).map(|(_, f)| *f)
    }
}

impl Default for Formats {
    /// npy alone.
    fn default() -> Self {
        Self::from_names(&["npy"]).expect("npy is a format")
    }
}

impl serde::Serialize for Formats {
    /// `{"npy": true, "vti": false, "png": false}`: every format with
    /// whether the run writes it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(FORMATS.len()))?;
        for (k, f) in FORMATS.iter().enumerate() {
            map.serialize_entry(f.name(), &(self.0 & (1 << k) != 0))?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_named_from_the_registry_and_serialize_as_before() {
        let f = Formats::from_names(&["png", "npy", "png"]).unwrap();
        assert!(f.contains("npy") && f.contains("png") && !f.contains("vti"));
        assert_eq!(f.chosen().map(|f| f.name()).collect::<Vec<_>>(), ["npy", "png"]);
        assert_eq!(serde_json::to_string(&f).unwrap(), r#"{"npy":true,"vti":false,"png":true,"vtu":false}"#);
        let e = Formats::from_names(&["jpeg"]).unwrap_err().to_string();
        assert!(e.contains("\"jpeg\"") && e.contains("npy, vti, png, vtu"), "{e}");
        assert_eq!(f.unfit(false), None);
        assert_eq!(f.unfit(true), Some("png"));
        assert_eq!(Formats::from_names(&["npy", "vtu"]).unwrap().unfit(true), None);
        assert_eq!(Formats::from_names(&["vtu"]).unwrap().unfit(false), Some("vtu"));
        assert_eq!(Formats::default(), Formats::from_names(&["npy"]).unwrap());
        assert!(Formats::from_names::<&str>(&[]).unwrap().is_empty());
    }
}

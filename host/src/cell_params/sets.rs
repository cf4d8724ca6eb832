//! A [`ParameterMap`] resolved over the cells: each distinct parameter
//! vector once, as a [`ModelSetup`] checked against the model's ranges,
//! and the set number of every cell.

use std::collections::HashMap;

use kernels_gpu::params::MAX_SETS;

use super::error::ParamsError;
use super::spec::{ParameterMap, field_index};
use crate::hash::Fnv1a64;
use crate::models::ModelSetup;

/// What the cells of a [`ParameterSets`] are, which says what label 0
/// means and how messages name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cells {
    /// The cells of a grid's box: label 0 is no tissue, never stepped.
    Grid,
    /// The nodes of a mesh, labelled by the elements they belong to:
    /// label 0 is tissue without a region of its own (elements untagged).
    MeshNodes,
}

impl Cells {
    fn zero_is_tissue(self) -> bool {
        self == Cells::MeshNodes
    }
}

/// Cell `i` of the box `dims`, as messages about a grid's cells name it.
pub fn grid_cell_name(dims: kernels_gpu::GridDims, i: usize) -> String {
    let (nx, ny) = (dims.nx as usize, dims.ny as usize);
    format!("cell (x, y, z) = ({}, {}, {})", i % nx, i / nx % ny, i / (nx * ny))
}

/// The distinct parameter sets of a heterogeneous tissue and the set of
/// every cell (of the box, or every node of a mesh in the solver's order).
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterSets {
    setups: Vec<ModelSetup>,
    /// The set of each cell; 0 for the cells outside the tissue (never
    /// stepped).
    of_cell: Vec<u16>,
    /// The parameters whose value differs between sets, in table order.
    varying: Vec<&'static str>,
}

impl ParameterSets {
    /// Resolves `map` over cells of the labels `labels` (what label 0 is
    /// as `cells` says) from the run's `base` setup: a cell takes the
    /// setup of its label's region (the base where its label has none),
    /// then the values of the fields at that cell. Set 0 is the base.
    /// `place(i)` names cell `i` in messages. `None` where nothing varies.
    pub fn resolve(
        base: &ModelSetup,
        map: &ParameterMap,
        (labels, cells): (&[u8], Cells),
        place: impl Fn(usize) -> String,
    ) -> Result<Option<Self>, ParamsError> {
        if map.is_empty() {
            return Ok(None);
        }
        let info = base.info();
        let mut by_label: Vec<Option<ModelSetup>> = vec![None; 256];
        let mut present = [false; 256];
        for &l in labels {
            present[l as usize] = true;
        }
        for (i, r) in map.regions.iter().enumerate() {
            if r.label == 0 && !cells.zero_is_tissue() {
                return Err(ParamsError::LabelZero);
            }
            if map.regions[..i].iter().any(|q| q.label == r.label) {
                return Err(ParamsError::RegionTwice { label: r.label });
            }
            if !present[r.label as usize] {
                let list: Vec<String> = (1..256).filter(|&l| present[l]).map(|l| l.to_string()).collect();
                return Err(ParamsError::NoSuchLabel { label: r.label, present: list.join(", ") });
            }
            let setup = base
                .for_region(r.preset.as_deref(), &r.values)
                .map_err(|source| ParamsError::Region { label: r.label, source: Box::new(source) })?;
            by_label[r.label as usize] = Some(setup);
        }
        let mut fields = Vec::with_capacity(map.fields.len());
        for (i, f) in map.fields.iter().enumerate() {
            let k = field_index(info, &f.name)?;
            if map.fields[..i].iter().any(|g| g.name == f.name) {
                return Err(ParamsError::FieldTwice { name: f.name.clone() });
            }
            if f.values.len() != labels.len() {
                return Err(ParamsError::FieldShape {
                    name: f.name.clone(),
                    got: f.values.len(),
                    want: labels.len(),
                    what: if cells.zero_is_tissue() { "mesh" } else { "tissue's box" },
                    unit: if cells.zero_is_tissue() { "node" } else { "cell of the box" },
                });
            }
            fields.push((k, &f.values));
        }
        // A cell's set is fixed by its label and its fields' values: the
        // key, far shorter than a model's parameter vector.
        let mut setups: Vec<ModelSetup> = vec![base.clone()];
        let mut found: HashMap<(u8, Vec<u64>), u16> = HashMap::new();
        let mut of_cell = vec![0u16; labels.len()];
        for (i, &label) in labels.iter().enumerate() {
            if label == 0 && !cells.zero_is_tissue() {
                continue;
            }
            let key = (label, fields.iter().map(|(_, v)| v[i].to_bits()).collect::<Vec<u64>>());
            if let Some(&s) = found.get(&key) {
                of_cell[i] = s;
                continue;
            }
            let mut setup = by_label[label as usize].clone().unwrap_or_else(|| base.clone());
            for (f, (k, values)) in map.fields.iter().zip(&fields) {
                setup = setup.with_value(*k, values[i]).map_err(|source| ParamsError::FieldValue {
                    name: f.name.clone(),
                    place: place(i),
                    source: Box::new(source),
                })?;
            }
            // Two keys may give the same values (a field equal to a
            // region's value): one set.
            let s = match setups.iter().position(|x| x.values() == setup.values()) {
                Some(s) => s,
                None => {
                    if setups.len() == MAX_SETS {
                        let more = count_keys(labels, &fields) + 1;
                        return Err(ParamsError::TooManySets { sets: more, max: MAX_SETS });
                    }
                    setups.push(setup);
                    setups.len() - 1
                }
            };
            found.insert(key, s as u16);
            of_cell[i] = s as u16;
        }
        let varying = info
            .parameters
            .iter()
            .enumerate()
            .filter(|(k, _)| setups.iter().any(|s| s.values()[*k] != setups[0].values()[*k]))
            .map(|(_, p)| p.name)
            .collect();
        Ok(Some(Self { setups, of_cell, varying }))
    }

    /// Number of distinct sets.
    pub fn len(&self) -> usize {
        self.setups.len()
    }

    /// Whether there is no set (a tissue of no cells: never built).
    pub fn is_empty(&self) -> bool {
        self.setups.is_empty()
    }

    /// The setup of set `s`.
    pub fn setup(&self, s: usize) -> &ModelSetup {
        &self.setups[s]
    }

    pub fn setups(&self) -> &[ModelSetup] {
        &self.setups
    }

    /// The set of every cell (0 outside the tissue).
    pub fn of_cell(&self) -> &[u16] {
        &self.of_cell
    }

    /// The parameters that differ between sets.
    pub fn varying(&self) -> &[&'static str] {
        &self.varying
    }

    /// The value of parameter `k` in every cell, NaN outside the tissue
    /// (`labels` as resolved): the map a run writes of a varying parameter.
    pub fn field(&self, k: usize, labels: &[u8]) -> Vec<f64> {
        self.of_cell
            .iter()
            .zip(labels)
            .map(|(&s, &l)| if l == 0 { f64::NAN } else { self.setups[s as usize].values()[k] })
            .collect()
    }

    /// A hash of the sets and of which cell has which, so that a
    /// checkpoint of one heterogeneous tissue does not resume on another.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv1a64::default();
        for s in &self.setups {
            for v in s.values() {
                h.update(&v.to_le_bytes());
            }
        }
        for s in &self.of_cell {
            h.update(&s.to_le_bytes());
        }
        h.finish()
    }
}

/// The number of distinct (label, field values) keys, for the message of
/// a map with too many sets.
fn count_keys(labels: &[u8], fields: &[(usize, &Vec<f64>)]) -> usize {
    let mut keys = std::collections::HashSet::new();
    for (i, &label) in labels.iter().enumerate().filter(|(_, l)| **l != 0) {
        keys.insert((label, fields.iter().map(|(_, v)| v[i].to_bits()).collect::<Vec<u64>>()));
    }
    keys.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell_params::spec::{ParameterField, RegionParameters};

    fn tp06(preset: &str) -> ModelSetup {
        ModelSetup::new("ten_tusscher_2006", Some(preset), &[]).unwrap()
    }

    fn region(label: u8, preset: Option<&str>, values: &[(&str, f64)]) -> RegionParameters {
        RegionParameters {
            label,
            preset: preset.map(str::to_string),
            values: values.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        }
    }

    #[test]
    fn regions_take_their_preset_and_values_over_the_runs() {
        let base = ModelSetup::new("ten_tusscher_2006", Some("epi"), &[("g_kr".into(), 0.2)]).unwrap();
        let map = ParameterMap {
            regions: vec![region(2, Some("m"), &[]), region(3, Some("endo"), &[("g_kr", 0.1)])],
            fields: vec![],
        };
        let labels = [0, 1, 2, 3, 2, 1];
        let sets =
            ParameterSets::resolve(&base, &map, (&labels, Cells::Grid), |i| i.to_string()).unwrap().unwrap();
        assert_eq!(sets.len(), 3);
        assert_eq!(sets.of_cell(), &[0, 0, 1, 2, 1, 0]);
        let get = |s: usize, name: &str| sets.setup(s).get(name).unwrap();
        // Label 1 is the run's setup; label 2 the M preset with the run's
        // g_Kr; label 3 the ENDO preset with its own g_Kr.
        assert_eq!(sets.setup(0).values(), base.values());
        assert_eq!(get(1, "g_kr"), 0.2);
        assert_eq!(get(1, "g_ks"), tp06("m").get("g_ks").unwrap());
        assert_eq!(get(2, "g_kr"), 0.1);
        assert_eq!(get(2, "g_to"), tp06("endo").get("g_to").unwrap());
        assert!(sets.varying().contains(&"g_ks") && sets.varying().contains(&"g_kr"));
        assert!(!sets.varying().contains(&"g_na"));
    }

    #[test]
    fn fields_win_over_regions_and_equal_values_share_a_set() {
        let base = tp06("epi");
        let g_ks_epi = base.get("g_ks").unwrap();
        let map = ParameterMap {
            regions: vec![region(2, None, &[("g_ks", 0.1)])],
            fields: vec![ParameterField { name: "g_ks".into(), values: vec![0.0, g_ks_epi, 0.3, 0.3, 0.1] }],
        };
        let labels = [0, 1, 1, 2, 2];
        let sets =
            ParameterSets::resolve(&base, &map, (&labels, Cells::Grid), |i| i.to_string()).unwrap().unwrap();
        // Cell 1 keeps the base value, cells 2 and 3 share 0.3 whatever
        // their label, cell 4's field equals its region's value.
        assert_eq!(sets.len(), 3);
        assert_eq!(sets.of_cell(), &[0, 0, 1, 1, 2]);
        let field = sets.field(base.info().parameter_index("g_ks").unwrap(), &labels);
        assert!(field[0].is_nan());
        assert_eq!(&field[1..], &[g_ks_epi, 0.3, 0.3, 0.1]);
    }

    #[test]
    fn bad_maps_are_refused_by_name() {
        let base = tp06("epi");
        let labels = [1u8, 1, 2];
        let resolve = |map: ParameterMap| {
            ParameterSets::resolve(&base, &map, (&labels, Cells::Grid), |i| format!("cell {i}"))
        };
        let err = |map| resolve(map).unwrap_err().to_string();
        let only = |r: RegionParameters| ParameterMap { regions: vec![r], fields: vec![] };
        assert!(
            err(only(region(7, Some("m"), &[])))
                .contains("no cell has the label 7 of a parameter region; the labels are 1, 2")
        );
        assert!(err(only(region(0, None, &[]))).contains("label 0 is no tissue"));
        assert!(err(only(region(2, Some("x"), &[]))).contains("region label 2"));
        assert!(err(only(region(2, None, &[("g_k", 1.0)]))).contains("g_k"));
        let field = |name: &str, values: Vec<f64>| ParameterMap {
            regions: vec![],
            fields: vec![ParameterField { name: name.into(), values }],
        };
        assert!(err(field("gks", vec![0.1; 3])).contains("no parameter \"gks\""));
        assert!(err(field("g_ks", vec![0.1; 2])).contains("has 2 values, the tissue's box has 3"));
        let message = err(field("g_ks", vec![0.1, -1.0, 0.1]));
        assert!(message.contains("\"g_ks\" at cell 1") && message.contains("-1"), "{message}");
        assert_eq!(resolve(ParameterMap::default()).unwrap(), None);
    }

    #[test]
    fn a_meshs_untagged_nodes_are_tissue_with_the_base_parameters() {
        let base = tp06("epi");
        let map = ParameterMap {
            regions: vec![region(3, Some("endo"), &[])],
            fields: vec![ParameterField { name: "g_kr".into(), values: vec![0.1, 0.2, 0.2] }],
        };
        let labels = [0u8, 0, 3];
        let sets = ParameterSets::resolve(&base, &map, (&labels, Cells::MeshNodes), |i| format!("node {i}"))
            .unwrap()
            .unwrap();
        // Set 0 is the base, unused here: every node's field differs from it.
        assert_eq!(sets.of_cell(), &[1, 2, 3]);
        assert_eq!(sets.setup(2).get("g_kr"), Some(0.2));
        assert_eq!(sets.setup(3).get("g_to"), tp06("endo").get("g_to"));
        let short =
            ParameterMap { fields: vec![ParameterField { name: "g_kr".into(), values: vec![0.1] }], ..map };
        let message = ParameterSets::resolve(&base, &short, (&labels, Cells::MeshNodes), |i| i.to_string())
            .unwrap_err()
            .to_string();
        assert!(message.contains("the mesh has 3; give one value per node"), "{message}");
    }

    #[test]
    fn the_fingerprint_tells_which_cell_has_which_set() {
        let base = tp06("epi");
        let map = ParameterMap { regions: vec![region(2, Some("m"), &[])], fields: vec![] };
        let a =
            ParameterSets::resolve(&base, &map, (&[1, 2], Cells::Grid), |i| i.to_string()).unwrap().unwrap();
        let b =
            ParameterSets::resolve(&base, &map, (&[2, 1], Cells::Grid), |i| i.to_string()).unwrap().unwrap();
        assert_ne!(a.fingerprint(), b.fingerprint());
        assert_eq!(a.fingerprint(), a.clone().fingerprint());
    }
}

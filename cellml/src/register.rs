//! Putting a generated model into fibril's source: its file under
//! `kernels-gpu/src/models/imported/`, its `pub mod` and `pub use` there,
//! and its line in the registry (`for_each_model!`), each between the
//! marker comments the importer keeps. Importing a name again replaces
//! the file and leaves the lines as they are.

use std::path::{Path, PathBuf};

use crate::emit::type_name;
use crate::error::ImportError;

const BEGIN: &str = "// imported models: begin";
const END: &str = "// imported models: end";

/// The files of a fibril source tree the importer writes.
pub struct SourceTree {
    pub imported_dir: PathBuf,
    pub imported_mod: PathBuf,
    pub registry: PathBuf,
}

impl SourceTree {
    pub fn at(root: &Path) -> Result<SourceTree, ImportError> {
        let models = root.join("kernels-gpu/src/models");
        let tree = SourceTree {
            imported_dir: models.join("imported"),
            imported_mod: models.join("imported/mod.rs"),
            registry: models.join("mod.rs"),
        };
        for f in [&tree.imported_mod, &tree.registry] {
            let text = std::fs::read_to_string(f).map_err(|e| {
                ImportError::Register(format!(
                    "{} ({e}): run the import from the root of fibril's source (the folder with kernels-gpu/), or pass --source DIR, or --out FILE to only write the Rust file",
                    f.display()
                ))
            })?;
            if !(text.contains(BEGIN) && text.contains(END)) {
                return Err(ImportError::Register(format!(
                    "{} has no `{BEGIN}` / `{END}` markers; restore them (they are where imported models are listed)",
                    f.display()
                )));
            }
        }
        Ok(tree)
    }

    /// The names already in the registry (hand-written and imported).
    pub fn registered(&self) -> Result<Vec<String>, ImportError> {
        let text = read(&self.registry)?;
        let Some(start) = text.find("$callback! {") else { return Ok(Vec::new()) };
        Ok(text[start..]
            .lines()
            .filter_map(|l| l.trim().split_once(": $crate::models::").map(|(n, _)| n.to_string()))
            .collect())
    }

    pub fn model_file(&self, name: &str) -> PathBuf {
        self.imported_dir.join(format!("{name}.rs"))
    }

    /// Whether `name` is an imported model (as opposed to a hand-written one).
    pub fn is_imported(&self, name: &str) -> bool {
        read(&self.imported_mod).is_ok_and(|t| t.contains(&format!("pub mod {name};")))
    }

    /// Writes the model file and its lines; returns whether it was new.
    pub fn register(&self, name: &str, rust: &str) -> Result<bool, ImportError> {
        let ty = type_name(name);
        let new = !self.is_imported(name);
        if new && self.registered()?.iter().any(|n| n == name) {
            return Err(ImportError::Register(format!(
                "`{name}` is a hand-written model of fibril; import under another name (--name)"
            )));
        }
        write_atomic(&self.model_file(name), rust)?;
        if new {
            insert_before_end(&self.imported_mod, &format!("pub mod {name};\npub use {name}::{ty};"))?;
            insert_before_end(&self.registry, &format!("{name}: $crate::models::imported::{ty},"))?;
        }
        Ok(new)
    }
}

fn read(path: &Path) -> Result<String, ImportError> {
    std::fs::read_to_string(path).map_err(|e| ImportError::Register(format!("{}: {e}", path.display())))
}

/// Writes through a temporary file and a rename, so that a failed write
/// leaves the old file (or none), never half of one.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), ImportError> {
    let tmp = path.with_extension("rs.tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| ImportError::Register(format!("writing {}: {e}", path.display())))
}

/// Inserts `lines` just above the end marker, indented as the marker is.
fn insert_before_end(path: &Path, lines: &str) -> Result<(), ImportError> {
    let text = read(path)?;
    let at = text.find(END).expect("checked by SourceTree::at");
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..at];
    let block: String = lines.lines().map(|l| format!("{indent}{l}\n")).collect();
    let out = format!("{}{block}{}", &text[..line_start], &text[line_start..]);
    write_atomic(path, &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_once_and_refuses_hand_written_names() {
        let root = std::env::temp_dir().join(format!("fibril-register-{}", std::process::id()));
        let models = root.join("kernels-gpu/src/models");
        std::fs::create_dir_all(models.join("imported")).unwrap();
        std::fs::write(models.join("imported/mod.rs"), format!("pub mod support;\n{BEGIN}\n{END}\n"))
            .unwrap();
        let registry = format!(
            "macro_rules! for_each_model {{\n    ($callback:ident) => {{\n        $callback! {{\n            karma: $crate::models::Karma,\n            {BEGIN}\n            {END}\n        }}\n    }};\n}}\n"
        );
        std::fs::write(models.join("mod.rs"), registry).unwrap();
        let tree = SourceTree::at(&root).unwrap();
        assert!(tree.register("my_cell", "// one").unwrap());
        assert!(!tree.register("my_cell", "// two").unwrap());
        let reg = std::fs::read_to_string(models.join("mod.rs")).unwrap();
        assert_eq!(reg.matches("my_cell: $crate::models::imported::MyCell,").count(), 1, "{reg}");
        assert!(reg.contains("            my_cell: $crate"), "indented as the marker: {reg}");
        assert_eq!(std::fs::read_to_string(tree.model_file("my_cell")).unwrap(), "// two");
        assert_eq!(tree.registered().unwrap(), ["karma", "my_cell"]);
        let err = tree.register("karma", "").unwrap_err().to_string();
        assert!(err.contains("hand-written"), "{err}");
        std::fs::remove_dir_all(&root).unwrap();
        let err = SourceTree::at(&root).err().unwrap().to_string();
        assert!(err.contains("--source") && err.contains("--out"), "{err}");
    }
}

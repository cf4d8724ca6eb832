//! The shape of the code: in each crate, the modules import each other
//! without cycles, and no module imports from the module that contains it
//! (a parent declares and re-exports its children; what children share
//! lives in a child of its own). A cycle or an upward import makes a
//! module impossible to understand, test or move on its own.
//!
//! `cargo test --test module_graph` checks it and prints every offending
//! import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path in its crate (`["backend", "gpu", "solver"]`); the
/// crate root is `[]`.
type ModPath = Vec<String>;

struct Crate {
    /// Every module, with its file.
    modules: BTreeMap<ModPath, PathBuf>,
}

impl Crate {
    fn read(src: &Path) -> Self {
        let mut modules = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") {
                    continue;
                }
                let rel = path.strip_prefix(src).unwrap().with_extension("");
                let mut segs: ModPath = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
                if matches!(segs.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    segs.pop();
                }
                // Binaries beside lib.rs (main.rs) are crates of their own.
                if segs.is_empty() && path.file_name().unwrap() == "main.rs" {
                    continue;
                }
                modules.insert(segs, path);
            }
        }
        Self { modules }
    }

    /// The module a path of segments names: its longest prefix that is a
    /// module.
    fn resolve(&self, segs: &[String]) -> Option<ModPath> {
        (1..=segs.len()).rev().map(|k| segs[..k].to_vec()).find(|p| self.modules.contains_key(p))
    }

    /// The modules each module imports (`crate::` and `super::` paths in
    /// its code, tests left out: a `#[cfg(test)] mod tests` inline or in a
    /// file of its own, `tests.rs`, which tests its parent from inside).
    fn edges(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        let mut edges = BTreeMap::new();
        for (module, file) in self.modules.iter().filter(|(m, _)| m.last().is_none_or(|s| s != "tests")) {
            let text = std::fs::read_to_string(file).unwrap();
            let code = strip_tests_and_comments(&text);
            let mut targets = BTreeSet::new();
            for (base, segs) in paths(&code) {
                let full: ModPath = match base {
                    "crate" => segs,
                    // `super` is the parent module (of `a/b.rs` and of
                    // `a/b/mod.rs` alike: `a`).
                    _ => module[..module.len().saturating_sub(1)].iter().cloned().chain(segs).collect(),
                };
                if let Some(target) = self.resolve(&full)
                    && &target != module
                    && !target.is_empty()
                {
                    targets.insert(target);
                }
            }
            edges.insert(module.clone(), targets);
        }
        edges
    }
}

/// The code of a file without its `#[cfg(test)]` module and comments.
fn strip_tests_and_comments(text: &str) -> String {
    let code = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    code.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every `crate::a::b` and `super::a` path, with the groups of `use
/// crate::{a, b::c}` expanded (one level of braces).
fn paths(code: &str) -> Vec<(&'static str, ModPath)> {
    let mut found = Vec::new();
    for base in ["crate", "super"] {
        let needle = format!("{base}::");
        let mut rest = code;
        while let Some(at) = rest.find(&needle) {
            let boundary = rest[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            let after = &rest[at + needle.len()..];
            rest = after;
            if !boundary {
                continue;
            }
            let (prefix, tail) = segments(after);
            if let Some(group) = tail.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let (segs, _) = segments(item.trim());
                    let segs: Vec<String> = segs.into_iter().filter(|s| s != "self").collect();
                    found.push((
                        if base == "crate" { "crate" } else { "super" },
                        [prefix.clone(), segs].concat(),
                    ));
                }
            } else {
                found.push((if base == "crate" { "crate" } else { "super" }, prefix));
            }
        }
    }
    found
}

/// The identifiers of a path `a::b::c` at the start of `text`, and what
/// follows the last `::` (a group's `{` for `a::{`).
fn segments(text: &str) -> (ModPath, &str) {
    let mut segs = Vec::new();
    let mut rest = text;
    loop {
        let len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if len == 0 {
            return (segs, rest);
        }
        segs.push(rest[..len].to_string());
        rest = &rest[len..];
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return (segs, rest),
        }
    }
}

/// The groups of modules that import each other in a circle.
fn cycles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    // Tarjan's strongly connected components.
    struct Walk<'a> {
        edges: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        found: Vec<Vec<ModPath>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a ModPath) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(&w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk =
        Walk { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn name(m: &ModPath) -> String {
    if m.is_empty() { "crate".into() } else { m.join("::") }
}

/// The crates checked, by their source folder.
const CRATES: [&str; 4] = ["host/src", "src", "kernels-gpu/src", "cellml/src"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_module_imports_in_a_circle() {
    let mut found = Vec::new();
    for dir in CRATES {
        let krate = Crate::read(&root().join(dir));
        assert!(krate.modules.len() > 3, "{dir}: modules found");
        for cycle in cycles(&krate.edges()) {
            found.push(format!("{dir}: {}", cycle.iter().map(name).collect::<Vec<_>>().join(" <-> ")));
        }
    }
    assert!(found.is_empty(), "modules that import each other in a circle:\n{}", found.join("\n"));
}

#[test]
fn no_module_imports_from_the_module_that_contains_it() {
    let mut found = Vec::new();
    for dir in CRATES {
        let krate = Crate::read(&root().join(dir));
        for (module, targets) in krate.edges() {
            for t in targets.iter().filter(|t| module.len() > t.len() && module.starts_with(t)) {
                found.push(format!("{dir}: {} imports from {}", name(&module), name(t)));
            }
        }
    }
    assert!(
        found.is_empty(),
        "upward imports (move what they use into a module of its own):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_reader_finds_imports_cycles_and_groups() {
    let code = "use crate::a::{b, c::D, self};\nuse super::e::F;\nlet x = crate::g::h(); // crate::z\n";
    let found = paths(&strip_tests_and_comments(code));
    let segs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<ModPath>();
    assert!(found.contains(&("crate", segs(&["a", "b"]))), "{found:?}");
    assert!(found.contains(&("crate", segs(&["a", "c", "D"]))), "{found:?}");
    assert!(found.contains(&("crate", segs(&["a"]))), "{found:?}");
    assert!(found.contains(&("super", segs(&["e", "F"]))), "{found:?}");
    assert!(found.contains(&("crate", segs(&["g", "h"]))), "{found:?}");
    assert!(!found.iter().any(|(_, s)| s.first().is_some_and(|f| f == "z")), "comments are skipped");
    let m = |s: &str| segs(&s.split("::").collect::<Vec<_>>());
    let edges: BTreeMap<ModPath, BTreeSet<ModPath>> = [
        (m("a"), [m("b")].into()),
        (m("b"), [m("c")].into()),
        (m("c"), [m("a")].into()),
        (m("d"), [m("a")].into()),
    ]
    .into();
    assert_eq!(cycles(&edges), vec![vec![m("a"), m("b"), m("c")]]);
}

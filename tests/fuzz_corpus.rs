//! Replays the fuzz corpora (`fuzz/corpus/<target>/`) and the inputs that
//! once crashed a target (`fuzz/regressions/<target>/`) through the fuzz
//! targets' bodies, so that every `cargo test` re-checks them without
//! libFuzzer: a parser that panics on any of them fails here.

use std::path::Path;

type Body = fn(&[u8]);

const TARGETS: &[(&str, Body)] = &[
    ("config", fibril::fuzz::config),
    ("args", fibril::fuzz::args),
    ("stimulus", fibril::fuzz::stimulus),
    ("checkpoint", fibril::fuzz::checkpoint),
    ("npy", fibril::fuzz::npy),
    ("vti", fibril::fuzz::vti),
];

/// The files of `dir`, sorted (none if it does not exist).
fn inputs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

#[test]
fn every_corpus_and_regression_input_is_refused_or_accepted_without_a_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (target, body) in TARGETS {
        let corpus = inputs(&root.join("corpus").join(target));
        // An empty or missing corpus would make this test pass vacuously.
        assert!(corpus.len() >= 2, "fuzz/corpus/{target} holds {} inputs", corpus.len());
        for file in corpus.iter().chain(&inputs(&root.join("regressions").join(target))) {
            let bytes = std::fs::read(file).unwrap();
            let outcome = std::panic::catch_unwind(|| body(&bytes));
            assert!(outcome.is_ok(), "fuzz target {target} panicked on {}", file.display());
        }
    }
}

/// The named seeds (the files with an extension; the fuzzer's finds are
/// named by their hash) are valid, so that the targets start from inputs
/// that reach past the first refusal.
fn seeds(dir: &Path) -> Vec<std::path::PathBuf> {
    let seeds: Vec<_> = inputs(dir).into_iter().filter(|p| p.extension().is_some()).collect();
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
}

#[test]
fn the_seed_checkpoints_and_files_decode() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for file in seeds(&root.join("checkpoint")) {
        let bytes = std::fs::read(&file).unwrap();
        assert!(
            fibril_host::checkpoint::decode_header(&file, &bytes).is_ok(),
            "{} does not decode",
            file.display()
        );
    }
    for file in seeds(&root.join("npy")) {
        fibril_host::io::npy::read(&file).unwrap();
    }
    for file in seeds(&root.join("vti")) {
        fibril_host::io::vti::read(&file).unwrap();
    }
}

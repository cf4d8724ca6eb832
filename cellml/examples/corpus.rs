//! Imports every `.cellml` file of a folder and prints one line per file:
//! imported or why not, the states and how each is advanced. With an
//! output folder, writes the generated Rust there (`<file stem>.rs`).
//!
//! `cargo run --release -p fibril-cellml --example corpus -- DIR [OUT]`

use std::path::Path;

fn main() {
    std::thread::Builder::new().stack_size(1 << 26).spawn(run).unwrap().join().unwrap();
}

fn run() {
    let args: Vec<String> = std::env::args().collect();
    let dir = Path::new(args.get(1).expect("usage: corpus DIR [OUT]"));
    let out = args.get(2).map(Path::new);
    let mut files: Vec<_> =
        std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "cellml"));
    files.sort();
    let lenient = std::env::var("LENIENT").is_ok();
    let options = fibril_cellml::Options { lenient_units: lenient, ..Default::default() };
    let mut ok = 0;
    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().to_lowercase().replace('-', "_");
        let name =
            if stem.starts_with(|c: char| c.is_ascii_digit()) { format!("m_{stem}") } else { stem.clone() };
        let text = std::fs::read_to_string(path).unwrap();
        eprintln!("{}", path.display());
        let label = path.file_name().unwrap().to_string_lossy().to_string();
        match fibril_cellml::import(&text, &name, &label, 0.01, &[], &options) {
            Ok(imp) => {
                ok += 1;
                let p = &imp.plan;
                let carriers: Vec<String> = p
                    .stimulus
                    .carriers
                    .iter()
                    .map(|&(x, per_u)| format!("{} {per_u:e}", p.model.vars[x].cellml))
                    .collect();
                println!(
                    "ok\t{label}\t{}\tstim {:.3} mV/ms {} ms\tcarriers [{}]",
                    imp.summary(),
                    p.stimulus.amplitude_mv_per_ms,
                    p.stimulus.duration_ms,
                    carriers.join(", ")
                );
                if let Some(out) = out {
                    std::fs::write(out.join(format!("{name}.rs")), imp.rust).unwrap();
                }
            }
            Err(e) => println!("FAIL\t{label}\t{e}"),
        }
    }
    println!("{ok} of {} imported", files.len());
}

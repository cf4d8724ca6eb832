//! The fuzz targets' bodies (`fuzz/`), here so that the normal test run
//! replays their corpora through the same code (`tests/fuzz_corpus.rs`).
//!
//! Each takes arbitrary bytes and feeds them to one parser of user input
//! the way the command line does. A refusal is the expected outcome; a
//! panic, an abort, an allocation sized by an unchecked field or a hang
//! is a bug. Where a parser accepts, the result is checked for the
//! invariants the rest of fibril relies on.

use std::path::Path;

use clap::{CommandFactory, FromArgMatches};
use fibril_host::checkpoint;
use fibril_host::events::stimulus::StimulusSchedule;
use fibril_host::io::{npy, vti};
use fibril_host::models::{self, ModelSetup};
use fibril_host::{Domain, GridDims};

use crate::cli::config::{RunConfig, parse_stimulus};
use crate::cli::run::check_resolved;
use crate::cli::run_args::RunArgs;
use crate::cli::{Cli, Command};

/// `fibril run` with `argv` after the program name, parsed by clap.
fn parse_run(argv: &[String]) -> Option<(RunArgs, clap::ArgMatches)> {
    let matches = Cli::command().try_get_matches_from(argv).ok()?;
    let cli = Cli::from_arg_matches(&matches).ok()?;
    let sub = matches.subcommand_matches("run")?.clone();
    match cli.command {
        Command::Run(args) => Some((args, sub)),
        _ => None,
    }
}

/// A configuration file's text, as `fibril run FILE` reads it.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Parsed once: building clap's command is most of an execution's time.
    static PLAIN: std::sync::OnceLock<(RunArgs, clap::ArgMatches)> = std::sync::OnceLock::new();
    let (args, matches) = PLAIN.get_or_init(|| {
        parse_run(&["fibril", "run", "fibril.toml"].map(String::from)).expect("a plain run parses")
    });
    if let Ok(resolved) = RunConfig::resolve_text(&args.options, matches, Path::new("fibril.toml"), text) {
        let _ = check_resolved(resolved);
    }
}

/// A command line (arguments separated by NUL bytes) after `fibril run`.
/// Lines that name a file to read (a configuration, a stimulus file) are
/// left out: those readers have targets of their own.
pub fn args(data: &[u8]) {
    let mut argv = vec!["fibril".to_string(), "run".to_string()];
    argv.extend(data.split(|&b| b == 0).map(|a| String::from_utf8_lossy(a).into_owned()));
    let Some((args, matches)) = parse_run(&argv) else { return };
    if args.options.config.is_some() {
        return;
    }
    if let Ok(resolved) = RunConfig::resolve(&args.options, &matches) {
        let _ = check_resolved(resolved);
    }
}

/// A `--stimulus` value (a TOML inline table), compiled against a 3D
/// grid, a sheet and a cable and applied once to each.
pub fn stimulus(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(spec) = parse_stimulus(text) else { return };
    let karma = ModelSetup::new("karma", None, &[]).expect("karma exists");
    for dims in [GridDims::new(7, 5, 6), GridDims::new(9, 4, 1), GridDims::new(1, 1, 11)] {
        let domain = Domain::new(dims, 0.6, 0.05, 1.0, karma.clone()).expect("a valid domain");
        let Ok(schedule) =
            StimulusSchedule::compile(std::slice::from_ref(&spec), dims, domain.dt_ms(), karma.info())
        else {
            continue;
        };
        for s in &schedule.stimuli {
            let mut count = 0u64;
            assert_eq!(s.region.is_empty(dims), s.region.cell_count(dims) == 0);
            s.region.for_each_cell(dims, |i| {
                assert!(i < dims.cells(), "stimulus cell {i} outside {dims:?}");
                count += 1;
            });
            assert_eq!(count, s.region.cell_count(dims));
        }
        let mut state = fibril_host::State::<f32>::rest(karma.info(), dims);
        if let Some(step) = schedule.next_due(0) {
            schedule.apply_at(step, &mut state, domain.dt_ms());
        }
    }
}

/// A checkpoint file, as `--resume` reads it: as given, and with its
/// checksum made right so that what lies behind the checksum is reached
/// (a fuzzer would almost never guess an FNV-1a sum).
pub fn checkpoint(data: &[u8]) {
    let path = Path::new("fuzz.fibril");
    let mut sealed = data.to_vec();
    checkpoint::reseal(&mut sealed);
    for bytes in [data, &sealed[..]] {
        let Ok(header) = checkpoint::decode_header(path, bytes) else { continue };
        let karma = ModelSetup::new("karma", None, &[]).expect("karma exists");
        let domain = Domain::new(GridDims::new(8, 8, 8), 0.6, 0.05, 1.0, karma).expect("a valid domain");
        let _ = header.check_matches(path, &domain);
        if let Ok(c) = checkpoint::decode::<f32>(path, bytes) {
            check_decoded(&c);
        }
        if let Ok(c) = checkpoint::decode::<f64>(path, bytes) {
            check_decoded(&c);
        }
    }
}

fn check_decoded<T: fibril_host::Scalar>(c: &checkpoint::Checkpoint<T>) {
    let cells = c.header.dims.cells();
    assert!(models::find(&c.header.model).is_some());
    for k in 0..c.state.model().variables.len() {
        assert_eq!(c.state.var(k).len(), cells);
    }
    if let Some(maps) = &c.maps {
        let slots = maps.recording.slots();
        assert_eq!(maps.activation.len(), cells * slots);
        assert_eq!(maps.repolarisation.as_ref().map(Vec::len), maps.recording.down.map(|_| cells * slots));
        assert_eq!(maps.count.as_ref().map(Vec::len), maps.recording.beats.map(|_| cells));
    }
}

/// A `.npy` file.
pub fn npy(data: &[u8]) {
    if let Ok(a) = npy::decode(data) {
        assert_eq!(a.values.len(), a.shape.iter().product::<usize>());
    }
}

/// A `.vti` file.
pub fn vti(data: &[u8]) {
    if let Ok(image) = vti::decode(data) {
        let cells: usize = image.dims.iter().map(|&n| n as usize).product();
        for (name, _, values) in &image.arrays {
            assert!(values.len() == cells || name == "TimeValue", "{name}: {} values", values.len());
        }
    }
}

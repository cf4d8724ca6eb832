use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use fibril::cli;

fn main() -> ExitCode {
    // NVLink SHARP (multicast) buys nothing for halo slices and a few bytes
    // of reduction, and a fault in it can take a shared machine's GPUs down;
    // keep NCCL off it unless the user asked for it.
    if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
        // SAFETY: no other thread exists yet.
        unsafe { std::env::set_var("NCCL_NVLS_ENABLE", "0") };
    }
    let matches = cli::Cli::command().get_matches();
    let parsed = match cli::Cli::from_arg_matches(&matches) {
        Ok(parsed) => parsed,
        Err(e) => e.exit(),
    };
    match cli::main_with(parsed, &matches) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fibril: error: {}", cli::error_text(&e));
            ExitCode::FAILURE
        }
    }
}

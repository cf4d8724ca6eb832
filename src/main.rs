use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

mod cli;

fn main() -> ExitCode {
    let matches = cli::Cli::command().get_matches();
    let parsed = match cli::Cli::from_arg_matches(&matches) {
        Ok(parsed) => parsed,
        Err(e) => e.exit(),
    };
    match cli::main_with(parsed, &matches) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fibril: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    let parsed = cli::Cli::parse();
    match cli::main_with(parsed) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fibril: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

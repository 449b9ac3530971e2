//! opcost: characterize a machine once, then predict how long any Fortran 77 program runs on it.
//! Each subcommand is one function in `commands` that calls the crates; this file only parses.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "opcost",
    version,
    about = "Characterize a machine once; predict the run time of any Fortran 77 program on it",
    long_about = "opcost measures the cost of Fortran 77's abstract operations on a machine \
(characterize), counts those operations in a program (analyze), and predicts the program's \
run time as the sum of counts times costs (predict, validate, compare). \
Method: R. H. Saavedra-Barrera, NASA CR 177511; X-Ray (Yotov et al.); ATLAS timers."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Characterize(commands::characterize::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Characterize(a) => commands::characterize::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

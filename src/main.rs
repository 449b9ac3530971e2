//! opcost: characterize a machine once, then predict how long any Fortran 77 program runs on it.
//! Each subcommand is one function in `commands` that calls the crates; this file only parses.

mod commands;
mod render;

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
    /// Measure the cost of each abstract operation on this machine and compiler
    Characterize(commands::characterize::Args),
    /// Print a characterization's parameter table
    Show(commands::characterize::ShowArgs),
    /// Print the glossary: every parameter's mnemonic, number, description and unit
    Catalogue(commands::catalogue::Args),
    /// Predict a program's run time on a characterized machine (T = sum of counts x costs)
    Predict(commands::predict::Args),
    /// Check predictions against real runs of the sample programs (or others)
    Validate(commands::validate::Args),
    /// Compare characterized systems: parameters, predicted and measured performance
    Compare(commands::compare::Args),
    /// Count the abstract operations of a Fortran 77 program, statically and in a run
    Analyze(commands::analyze::Args),
    /// Measure caches, memory latency and CPU parameters of this machine (X-Ray)
    Xray(commands::xray::Args),
    /// Time one routine in a chosen cache context: generated drivers, sweeps, in-application
    Time(commands::time::Args),
    /// Characterize a cluster's node types through Slurm into a shared folder; follow them
    Fleet(commands::fleet::Args),
}

/// A closed pipe (`opcost show FILE | head`) ends the program quietly, as it ends other Unix
/// tools, instead of a panic in `println!` (Rust's runtime ignores SIGPIPE).
fn die_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: first thing in main, before any thread exists; SIG_DFL is a valid disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    die_quietly_on_a_closed_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Characterize(a) => commands::characterize::run(a),
        Command::Show(a) => commands::characterize::show(a),
        Command::Catalogue(a) => commands::catalogue::run(a),
        Command::Predict(a) => commands::predict::run(a),
        Command::Validate(a) => commands::validate::run(a),
        Command::Compare(a) => commands::compare::run(a),
        Command::Analyze(a) => commands::analyze::run(a),
        Command::Xray(a) => commands::xray::run(a),
        Command::Time(a) => commands::time::run(a),
        Command::Fleet(a) => commands::fleet::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_chain(&e));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes, joined by ": " as anyhow's alternate form does, but a cause the
/// message before it already quotes (the library errors name their I/O cause) is said once.
fn error_chain(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain().map(ToString::to_string) {
        if text.contains(&cause) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&cause);
    }
    text
}

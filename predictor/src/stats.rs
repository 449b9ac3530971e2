//! A program's statistics for a prediction: a ProgramStats file as it is, or sources analyzed
//! dynamically with the machine's compiler and flags.

use model::characterization::Characterization;
use model::ProgramStats;
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum StatsError {
    #[error(transparent)]
    Load(#[from] model::LoadError),
    #[error(transparent)]
    Compiler(#[from] harness::CompilerError),
    #[error(transparent)]
    Analyze(#[from] analyzer::AnalyzeError),
}

/// How to get a program's statistics from its sources (ignored for a ProgramStats file).
#[derive(Debug, Clone)]
pub struct StatsOptions {
    /// Arguments of the counting run.
    pub run_args: Vec<String>,
    /// Standard input of the counting run.
    pub stdin: Option<PathBuf>,
    /// Time limit of the counting run.
    pub time_limit: Duration,
    /// The program's own extra compiler flags.
    pub program_flags: Vec<String>,
    /// Skip statements that cannot be parsed instead of failing.
    pub keep_going: bool,
}

impl Default for StatsOptions {
    fn default() -> Self {
        StatsOptions {
            run_args: Vec::new(),
            stdin: None,
            time_limit: Duration::from_secs(600),
            program_flags: Vec::new(),
            keep_going: false,
        }
    }
}

/// A program's statistics and what the analysis has to say about them.
#[derive(Debug)]
pub struct ProgramStatsResult {
    pub stats: ProgramStats,
    /// The analysis's error diagnostics and its note on added flags, one message each, for
    /// the user (empty for a ProgramStats file).
    pub notes: Vec<String>,
}

/// Program statistics from a ProgramStats file (one `.json`), or by analyzing the sources
/// dynamically with the machine's compiler and flags (plus the program's own).
pub fn program_stats(
    files: &[PathBuf],
    machine: &Characterization,
    opts: &StatsOptions,
) -> Result<ProgramStatsResult, StatsError> {
    if files.len() == 1 && files[0].extension().is_some_and(|e| e == "json") {
        return Ok(ProgramStatsResult {
            stats: ProgramStats::load(&files[0])?,
            notes: Vec::new(),
        });
    }
    let compiler = harness::Compiler::find(Some(&machine.compiler.path), &machine.compiler.flags)?;
    let analysis = analyzer::analyze_dynamic(
        files,
        &analyzer::AnalyzeOptions {
            simulate_branches: true,
            program_flags: opts.program_flags.clone(),
            refuse_skipped: !opts.keep_going,
            ..analyzer::AnalyzeOptions::default()
        },
        &compiler,
        &analyzer::RunSpec {
            args: opts.run_args.clone(),
            stdin: opts.stdin.as_deref().map(Path::to_path_buf),
            time_limit: opts.time_limit,
            ..analyzer::RunSpec::default()
        },
    )?;
    let mut notes: Vec<String> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == analyzer::Severity::Error)
        .map(|d| d.to_string())
        .collect();
    notes.extend(analysis.added_flags_note());
    Ok(ProgramStatsResult {
        stats: analysis.stats,
        notes,
    })
}

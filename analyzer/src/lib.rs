//! The program analyzer (Saavedra-Barrera's section 5): decomposes a Fortran 77 program into the
//! abstract operations of the machine model, statically (occurrences in the text) and
//! dynamically (executions in one run), with the counting rules of `model::rules` only.
//!
//! Pipeline: [`source`] splits fixed-form text into statements, [`parse`] (nom) parses each,
//! [`analysis`] builds the symbol tables, lowers statements to `model::expr` and counts them,
//! and places one counter (probe) per basic block; [`induction`] finds the GO TO loops whose
//! per-iteration counter their own induction variable replaces; [`instrument`] writes the counted copy,
//! [`dynamic`] compiles and runs it and multiplies; [`gcov`] cross-checks the execution counts
//! with gcov; [`report`] prints Saavedra-Barrera's figure 5.2 and table 5.5.
//! [`traffic`] reads each innermost loop's array references, strides and footprint (the
//! memory bound). [`mutate`] fuzzes the steps that run no compiler with mutated whole files.
//!
//! ```no_run
//! use analyzer::{analyze_static, AnalyzeOptions};
//! let a = analyze_static(&["prog.f".into()], &AnalyzeOptions::default()).unwrap();
//! println!("{} skipped statements", a.stats.skipped_statements);
//! ```

pub mod analysis;
pub mod dynamic;
pub mod extents;
pub mod gcov;
pub mod induction;
pub mod instrument;
pub mod mutate;
pub mod parse;
pub mod quadrants;
pub mod recurrence;
pub mod remainders;
pub mod report;
pub mod scans;
pub mod source;
pub mod stats;
pub mod steps;
pub mod symbols;
pub mod syntax;
pub mod traffic;
pub mod trips;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

pub use analysis::Program;
pub use dynamic::analyze_dynamic;

/// Options of an analysis.
#[derive(Debug, Clone)]
pub struct AnalyzeOptions {
    /// Fixed-form line length: 72 (standard) or 132.
    pub line_length: usize,
    /// Program name for the report (default: the first file's stem).
    pub program_name: Option<String>,
    /// Keep the instrumented copy and its build here (default: a temporary directory).
    pub keep_instrumented: Option<PathBuf>,
    /// Dynamic runs: also simulate a branch predictor on every IF on array data (rule 15), for
    /// the branch-miss counts (BMIS) the predictor uses. Costs five statements per evaluation
    /// of such an IF; without it the run counts blocks only, and BMIS falls back to
    /// min(taken, not taken), the best static guess.
    pub simulate_branches: bool,
    /// Extra compiler flags for the program's own builds (the instrumented copy, the gcov
    /// build; predict's and validate's builds read them back from the ProgramStats): what
    /// legacy code is built with, e.g. `-fallow-argument-mismatch` or `-std=legacy`.
    pub program_flags: Vec<String>,
    /// Refuse a program with statements that cannot be parsed ([`AnalyzeError::Skipped`]);
    /// otherwise they are skipped (counted as uncharacterized) with a diagnostic each.
    pub refuse_skipped: bool,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            line_length: 72,
            program_name: None,
            keep_instrumented: None,
            simulate_branches: false,
            program_flags: Vec::new(),
            refuse_skipped: false,
        }
    }
}

/// How to run the program for dynamic counts.
#[derive(Debug, Clone)]
pub struct RunSpec {
    pub args: Vec<String>,
    /// File fed to standard input.
    pub stdin: Option<PathBuf>,
    pub time_limit: Duration,
    /// Working directory of the run (default: the current one, so the program finds its
    /// input files as it would when run by hand).
    pub cwd: Option<PathBuf>,
}

impl Default for RunSpec {
    fn default() -> Self {
        RunSpec {
            args: Vec::new(),
            stdin: None,
            time_limit: Duration::from_secs(600),
            cwd: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Severity {
    Error,
    Warning,
}

/// A problem found in the source, with its location.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    /// 1-based; 0 when the problem has no single line.
    pub line: u32,
    pub column: u16,
    pub message: String,
    /// The source line.
    pub text: String,
}

impl Diagnostic {
    pub fn error(file: &str, line: u32, column: u16, message: &str, text: &str) -> Self {
        Diagnostic {
            severity: Severity::Error,
            file: file.into(),
            line,
            column,
            message: message.into(),
            text: text.into(),
        }
    }
    pub fn warning(file: &str, line: u32, column: u16, message: &str, text: &str) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Self::error(file, line, column, message, text)
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {sev}: {}",
                self.file, self.line, self.column, self.message
            )?;
        } else {
            write!(f, "{}: {sev}: {}", self.file, self.message)?;
        }
        if !self.text.is_empty() {
            write!(f, "\n    {}", self.text.trim_end())?;
        }
        Ok(())
    }
}

/// Why an analysis failed as a whole.
#[derive(Debug, Error)]
pub enum AnalyzeError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a text file (it contains NUL bytes); give a Fortran 77 source file")]
    Binary { path: String },
    #[error("no source files given")]
    NoFiles,
    #[error("the program has no executable statements to count")]
    Empty,
    #[error("no program units in {path}: it has no Fortran statements (only comments or blank lines, or nothing)")]
    NoUnits { path: String },
    #[error("{path}:{line}: this is not Fortran 77 fixed-form source (free-form source?): columns 1-5 hold a label or blanks, statements start in column 7\n    {text}")]
    FreeForm {
        path: String,
        line: u32,
        text: String,
    },
    #[error("{count} statement(s) could not be parsed:\n{list}\n(--keep-going skips them, counted as uncharacterized)")]
    Skipped { count: usize, list: String },
    #[error("the program has no main program ({files} holds only subroutines, functions or BLOCK DATA): a dynamic analysis runs the program, so give the file of its main program too (a static analysis counts such a library as it is)")]
    NoMain { files: String },
    #[error("the compiler {compiler} reported success but wrote no executable {exe}: is it a Fortran compiler?")]
    NoExecutable { compiler: String, exe: String },
    #[error(transparent)]
    Compiler(#[from] harness::CompilerError),
    #[error("the instrumented copy does not compile (this is a bug in the analyzer when the original compiles):\n{0}")]
    InstrumentedCompile(harness::CompileError),
    #[error("{0}")]
    Compile(harness::CompileError),
    #[error("running the program failed: {0}")]
    Run(#[from] harness::RunError),
    #[error(
        "the program ended with {status} before writing its counters{hint}; stderr:\n{stderr}"
    )]
    RunFailed {
        status: String,
        stderr: String,
        /// Why it may have failed (or empty).
        hint: String,
    },
    #[error("the counters file is damaged: {0}")]
    Counters(String),
    #[error("cannot read the standard input file {path}: {source}")]
    Stdin {
        path: String,
        source: std::io::Error,
    },
    #[error("I/O error in {what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
    #[error("gcov: {0}")]
    Gcov(String),
}

/// The result of an analysis.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub stats: model::ProgramStats,
    pub diagnostics: Vec<Diagnostic>,
    /// The analyzed program (statements, blocks, probes), for reports and instrumentation.
    pub program: Program,
    /// Probe counter values of the run (dynamic analyses only).
    pub counters: Option<Vec<u64>>,
    /// Flags the analysis added to the program's builds because gfortran refused the
    /// original without them (see [`dynamic::LEGACY_ERRORS`]); also in `stats.program_flags`.
    pub added_flags: Vec<String>,
}

impl Analysis {
    /// The note shown when the analysis added flags to the program's builds, so the user sees
    /// how it was built and can do the same.
    pub fn added_flags_note(&self) -> Option<String> {
        if self.added_flags.is_empty() {
            return None;
        }
        let added = self.added_flags.join(" ");
        Some(format!(
            "note: gfortran refuses the program as it is (legacy code: argument mismatches or BOZ \
             constants, errors since gfortran 10), so it was built with `{added}`, as such codes \
             are; the flags are recorded as program_flags in the ProgramStats; --program-flags \
             \"{}\" says so up front",
            self.stats.program_flags.join(" ")
        ))
    }
}

/// Read and parse the files (no counts yet).
pub fn load(files: &[PathBuf], opts: &AnalyzeOptions) -> Result<Program, AnalyzeError> {
    if files.is_empty() {
        return Err(AnalyzeError::NoFiles);
    }
    let mut sources = Vec::new();
    for (i, p) in files.iter().enumerate() {
        let bytes = std::fs::read(p).map_err(|source| AnalyzeError::Read {
            path: p.display().to_string(),
            source,
        })?;
        if bytes.contains(&0) {
            return Err(AnalyzeError::Binary {
                path: p.display().to_string(),
            });
        }
        let text = String::from_utf8_lossy(&bytes);
        let path = p.display().to_string();
        if let Some((line, text)) = source::free_form_line(&text) {
            return Err(AnalyzeError::FreeForm { path, line, text });
        }
        let file = source::split(&path, i, &text, opts.line_length);
        if file.statements.is_empty() {
            return Err(AnalyzeError::NoUnits { path });
        }
        sources.push(file);
    }
    let program = analysis::analyze(sources);
    if opts.refuse_skipped && program.skipped > 0 {
        let list: Vec<String> = program
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.to_string())
            .collect();
        return Err(AnalyzeError::Skipped {
            count: program.skipped,
            list: list.join("\n"),
        });
    }
    Ok(program)
}

/// Static analysis: occurrences of each operation in the source text (Saavedra-Barrera's fig. 5.2).
pub fn analyze_static(files: &[PathBuf], opts: &AnalyzeOptions) -> Result<Analysis, AnalyzeError> {
    let program = load(files, opts)?;
    let stats = stats::program_stats(&program, files, opts, None)?;
    Ok(Analysis {
        stats,
        diagnostics: program.diagnostics.clone(),
        program,
        counters: None,
        added_flags: Vec::new(),
    })
}

/// The program name: the option, else the first file's stem.
pub(crate) fn program_name(files: &[PathBuf], opts: &AnalyzeOptions) -> String {
    opts.program_name.clone().unwrap_or_else(|| {
        files
            .first()
            .and_then(|p| Path::new(p).file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "program".into())
    })
}

//! `opcost analyze`: static and dynamic operation counts of a Fortran 77 program (Saavedra-Barrera
//! section 5).

use analyzer::{AnalyzeOptions, RunSpec};
use anyhow::{bail, Context, Result};
use harness::Compiler;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost analyze fortran-samples/linpack.f                 # static report (Saavedra-Barrera fig. 5.2)
  opcost analyze prog.f sub.f --dynamic --run-args \"100 3\" --stdin input.dat
  opcost analyze prog.f --dynamic --json results/prog.stats.json --csv -
  opcost analyze prog.f --dynamic --json prog.stats.json   # input for predict
  opcost analyze prog.f --dynamic --no-branches            # counts only, a faster run
  opcost analyze prog.f --dynamic --gcov-check             # compare counts with gcov
  opcost analyze old.f --dynamic --program-flags \"-std=legacy\"   # legacy code's own flags

Regions: comment lines `C$OPCOST REGION name` ... `C$OPCOST END REGION` give partial reports.")]
pub struct Args {
    /// Fortran 77 source files of one program (fixed form)
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Also count executions: compile an instrumented copy, run it, multiply (Saavedra-Barrera table 5.5)
    #[arg(long)]
    dynamic: bool,
    /// Command-line arguments of the program's run (one string, split on blanks)
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    run_args: Option<String>,
    /// File fed to the program's standard input
    #[arg(long, value_name = "FILE")]
    stdin: Option<PathBuf>,
    /// Time limit of the run in seconds
    #[arg(long, value_name = "S", default_value_t = 600.0)]
    time_limit: f64,
    /// Write the ProgramStats JSON here ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Write the counts as CSV here ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
    /// Fortran compiler for the dynamic run
    #[arg(long, value_name = "PATH", default_value = "gfortran")]
    compiler: String,
    /// Compiler flags for the dynamic run
    #[arg(
        long,
        value_name = "FLAGS",
        default_value = "-O0",
        allow_hyphen_values = true
    )]
    flags: String,
    /// Extra compiler flags for the program's own builds (legacy code: e.g.
    /// "-fallow-argument-mismatch" or "-std=legacy"); recorded in the ProgramStats, so predict
    /// builds it the same way. Without them, a program gfortran refuses for argument
    /// mismatches or BOZ constants is built with -fallow-argument-mismatch or
    /// -fallow-invalid-boz (else -std=legacy), with a note
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    program_flags: Option<String>,
    /// Fixed-form line length
    #[arg(long, value_name = "72|132", default_value_t = 72)]
    line_length: usize,
    /// Program name in the report [default: the first file's name]
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// With --dynamic: keep the instrumented copy and its build in this directory
    #[arg(long, value_name = "DIR", requires = "dynamic")]
    keep_instrumented: Option<PathBuf>,
    /// With --dynamic: also compile with --coverage and compare every line's count with gcov
    #[arg(long, requires = "dynamic")]
    gcov_check: bool,
    /// With --dynamic: do not simulate the branch predictor (rule 15) and the other
    /// data-dependent costs (INDEX scans, SIN/COS ranges) in the counting run. The run is
    /// faster (3-6x where IFs on data are hot), but its branch misses are guessed from each
    /// IF's kind, not simulated: `opcost predict` warns that a prediction from them can be far off
    #[arg(long, requires = "dynamic")]
    no_branches: bool,
    /// Kept for scripts written when the simulation was optional: it is now the default
    #[arg(
        long,
        requires = "dynamic",
        hide = true,
        conflicts_with = "no_branches"
    )]
    branches: bool,
    /// Go on when statements cannot be parsed: skip them (each listed, counted as
    /// uncharacterized) instead of failing
    #[arg(long)]
    keep_going: bool,
}

pub fn run(a: Args) -> Result<()> {
    crate::commands::route_report(&[("--json", a.json.as_deref()), ("--csv", a.csv.as_deref())])?;
    if !(a.time_limit > 0.0 && a.time_limit.is_finite()) {
        bail!(
            "--time-limit must be a positive number of seconds, got {}",
            a.time_limit
        );
    }
    if a.line_length != 72 && a.line_length != 132 {
        bail!(
            "--line-length must be 72 (standard fixed form) or 132, got {}",
            a.line_length
        );
    }
    let opts = AnalyzeOptions {
        line_length: a.line_length,
        program_name: a.name.clone(),
        keep_instrumented: a.keep_instrumented.clone(),
        simulate_branches: !a.no_branches,
        program_flags: a
            .program_flags
            .as_deref()
            .map(Compiler::split_flags)
            .unwrap_or_default(),
        refuse_skipped: !a.keep_going,
    };
    let analysis = if a.dynamic {
        let compiler = Compiler::find(Some(&a.compiler), &Compiler::split_flags(&a.flags))?;
        let run = RunSpec {
            args: crate::commands::blank_separated(&a.run_args),
            stdin: a.stdin.clone(),
            time_limit: Duration::from_secs_f64(a.time_limit),
            cwd: None,
        };
        if a.gcov_check {
            let (analysis, chk) = analyzer::gcov::check(&a.files, &opts, &compiler, &run)?;
            eprintln!(
                "gcov check: {} lines equal-compared, {} DO lines, {} logical IF consequents, {} statements not in gcov, {} mismatch(es)",
                chk.lines_equal, chk.do_lines, chk.consequents, chk.not_in_gcov, chk.mismatches.len()
            );
            for m in &chk.mismatches {
                eprintln!(
                    "  {}:{}: {}: analyzer {} gcov {}",
                    m.file, m.line, m.what, m.analyzer, m.gcov
                );
            }
            if !chk.mismatches.is_empty() {
                report(&a, &analysis)?;
                bail!(
                    "the analyzer's counts differ from gcov's on {} line(s)",
                    chk.mismatches.len()
                );
            }
            analysis
        } else {
            analyzer::analyze_dynamic(&a.files, &opts, &compiler, &run)?
        }
    } else {
        analyzer::analyze_static(&a.files, &opts)?
    };
    report(&a, &analysis)
}

fn report(a: &Args, analysis: &analyzer::Analysis) -> Result<()> {
    for d in &analysis.diagnostics {
        eprintln!("{d}");
    }
    if let Some(note) = analysis.added_flags_note() {
        eprintln!("{note}");
    }
    let skipped = analysis.stats.skipped_statements;
    if skipped > 0 {
        eprintln!(
            "warning: {skipped} statement(s) could not be parsed and were skipped (listed above)"
        );
    }
    let text = analyzer::report::text_report(&analysis.stats);
    crate::say_raw!("{text}");
    if let Some(j) = &a.json {
        super::write_json(j, "the ProgramStats", &analysis.stats)
            .context("writing the ProgramStats JSON")?;
    }
    if let Some(c) = &a.csv {
        let table = analyzer::report::counts_table(&analysis.stats);
        super::write_output(c, table.to_csv()?.as_bytes()).context("writing the CSV")?;
    }
    Ok(())
}

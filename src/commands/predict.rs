//! `opcost predict`: a program's run time on a characterized machine (Saavedra-Barrera's section 6).

use anyhow::Result;
use export::Format;
use model::characterization::Characterization;
use predictor::predict::PartPrediction;
use predictor::stats::{program_stats, StatsOptions};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost predict --machine results/<machine>--gfortran-O0.json fortran-samples/linpack.f
  opcost predict --machine M.json linpack.stats.json --markdown -
  opcost predict --machine M.json prog.f --run-args input.dat --json pred.json
  opcost predict --machines /shared/opcost fortran-samples/linpack.f --csv ranking.csv

With --machines DIR (a folder of characterizations, e.g. from `opcost fleet submit`), the
program is analyzed once and predicted on every complete characterization in DIR, ranked
fastest first with the 90 % intervals, partition, CPU and host of each; --json, --csv and
--markdown then export that ranking. Files in DIR that are not characterizations are named
and skipped.

A .f file is analyzed dynamically first (compiled with the machine's compiler and flags, run
once with counters); a ProgramStats .json from `opcost analyze --json` is used as it is.

With \"-\" for one export, standard output holds only that export and the report goes to
standard error. A prediction that is not a finite number is an error (exit status 1).
The CSV columns are those of docs/exports.md.")]
pub struct Args {
    /// Characterization of the machine (from `opcost characterize`)
    #[arg(long, value_name = "RESULT.json", required_unless_present = "machines")]
    machine: Option<PathBuf>,
    /// A folder of characterizations: predict on each, ranked fastest first
    #[arg(long, value_name = "DIR", conflicts_with = "machine")]
    machines: Option<PathBuf>,
    /// Fortran 77 source files of the program, or one ProgramStats JSON file
    #[arg(required = true, value_name = "PROGRAM.f|STATS.json")]
    program: Vec<PathBuf>,
    /// Command-line arguments of the program's counting run: one string split on blanks, as
    /// for analyze and validate (`--run-args "100 3"`), or several values (`--run-args 100 3`)
    #[arg(long, value_name = "ARGS", num_args = 1.., allow_hyphen_values = true)]
    run_args: Vec<String>,
    /// Standard input for the program's counting run
    #[arg(long, value_name = "FILE")]
    stdin: Option<PathBuf>,
    /// Time limit of the counting run, seconds
    #[arg(long, default_value_t = 600.0)]
    time_limit: f64,
    /// Extra compiler flags for the program's builds (legacy code: e.g.
    /// "-fallow-argument-mismatch"), as for `opcost analyze`; a ProgramStats file brings its own
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    program_flags: Option<String>,
    /// Write the prediction as JSON ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Write the breakdown as CSV ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
    /// Write the breakdown as Markdown ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    markdown: Option<String>,
    /// Go on when statements of the sources cannot be parsed: skip them (each listed,
    /// counted as uncharacterized) instead of failing
    #[arg(long)]
    keep_going: bool,
}

pub fn run(a: Args) -> Result<()> {
    let exports = [
        (Format::Json, "--json", a.json.as_deref()),
        (Format::Csv, "--csv", a.csv.as_deref()),
        (Format::Markdown, "--markdown", a.markdown.as_deref()),
    ];
    crate::commands::route_report(&exports.map(|(_, name, t)| (name, t)))?;
    let opts = StatsOptions {
        run_args: crate::commands::blank_separated(&a.run_args),
        stdin: a.stdin.clone(),
        time_limit: Duration::from_secs_f64(a.time_limit),
        program_flags: a
            .program_flags
            .as_deref()
            .map(harness::Compiler::split_flags)
            .unwrap_or_default(),
        keep_going: a.keep_going,
    };
    let machine = match (&a.machine, &a.machines) {
        (_, Some(dir)) => return crate::commands::fleet::rank(dir, &a.program, &opts, &exports),
        (Some(m), None) => Characterization::load(m)?,
        (None, None) => anyhow::bail!("give --machine FILE or --machines DIR"),
    };
    let stats = program_stats(&a.program, &machine, &opts)?;
    for note in &stats.notes {
        eprintln!("{note}");
    }
    let stats = stats.stats;
    let p = predictor::predict_program(&stats, &machine)?;
    print_part(&p.total, true);
    if p.units.len() > 1 {
        print_parts("Program unit", &p.units);
    }
    if !p.regions.is_empty() {
        print_parts("Region", &p.regions);
    }
    if !p.loops.is_empty() {
        crate::say!("\nLongest innermost loops, with the bound that sets each one's time (a loop's time includes the procedures it calls):");
        crate::commands::show(&p.hot_loops(10));
    }
    crate::say!(
        "\nPredicted run time of {} on {} ({}): {:.3} s (90 % interval of the parameters' measurement error alone: {:.3} .. {:.3} s)",
        p.program,
        p.machine,
        p.compiler,
        p.total.seconds(),
        p.total.time.ci_low_ns * 1e-9,
        p.total.time.ci_high_ns * 1e-9
    );
    for w in &p.warnings {
        eprintln!("warning: {w}");
    }
    for (format, _, target) in exports {
        if let Some(t) = target {
            export::emit(&p, format, t)?;
        }
    }
    Ok(())
}

/// The breakdown of Saavedra-Barrera's figure 6.1.
pub fn print_part(part: &PartPrediction, all_rows: bool) {
    let mut t = export::Table::new(&[
        "Param",
        "Operation",
        "Times executed",
        "Fraction",
        "Time (s)",
        "Fraction of time",
        "Std dev (s)",
    ])
    .right_from(2);
    let rows = if all_rows { part.rows.len() } else { 10 };
    for r in part.rows.iter().take(rows) {
        t.push(vec![
            r.mnemonic.to_string(),
            r.operation.clone(),
            format!("{:.4e}", r.times_executed),
            format!("{:.4}", r.count_fraction),
            format!("{:.4}", r.time_s),
            format!("{:.4}", r.time_fraction),
            format!("{:.1e}", r.std_dev_s),
        ]);
    }
    crate::say!("{}: predicted {:.4} s", part.name, part.seconds());
    crate::commands::show(&t);
    if part.uncharacterized_fraction > 0.0 {
        crate::say!(
            "uncharacterized operations ({:.2} % of all): {}",
            100.0 * part.uncharacterized_fraction,
            part.uncharacterized
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

fn print_parts(what: &str, parts: &[PartPrediction]) {
    let mut t = export::Table::new(&[what, "Predicted (s)", "± 90 %", "Top operations"])
        .right(&["Predicted (s)", "± 90 %"]);
    for p in parts {
        // Shares of the time its rows charge: a unit whose loops' time went to the callees
        // inlined into them can total about nothing, which would make shares of its total
        // meaningless.
        let charged: f64 = p.rows.iter().map(|r| r.time_s.max(0.0)).sum();
        let top: Vec<String> = p
            .rows
            .iter()
            .take(3)
            .filter(|_| charged > 0.0)
            .map(|r| format!("{} {:.0}%", r.mnemonic, 100.0 * r.time_s / charged))
            .collect();
        t.push(vec![
            p.name.clone(),
            format!("{:.4}", p.seconds()),
            format!("{:.4}", (p.time.ci_high_ns - p.time.ci_low_ns) / 2.0 * 1e-9),
            top.join(", "),
        ]);
    }
    crate::say!();
    crate::commands::show(&t);
}

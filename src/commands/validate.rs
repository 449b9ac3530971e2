//! `opcost validate`: predicted against real run times (Saavedra-Barrera's tables 6.1 and 7.2).

use anyhow::{bail, Result};
use export::Table;
use model::characterization::Characterization;
use predictor::corpus::{ProgramChoice, ProgramSpec};
use predictor::predict::PartPrediction;
use predictor::validate::{
    summarize, summarize_host_adjusted, summarize_sets, validation_csv, FailedProgram,
    PartComparison, ProgramValidation, Progress, SetSummary, SystemValidation, ValidateOptions,
    ValidationDocument, ValidationSummary,
};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost validate --machine results/<machine>--gfortran-O0.json
  opcost validate --machine M.json fortran-samples/sieve.f fortran-samples/mandel.f --runs 7
  opcost validate --machine results/A.json --machine results/B.json   # systems side by side
  opcost validate --machine M.json --against results/validation-M.csv --against old/run2.csv
  opcost validate --machine results/<machine>--gfortran-O0.json --against old-runs/2026-11-22
  opcost validate --machine monday.json --machine tuesday.json --against results/validation-M.csv
  opcost validate --machine M.json --manifest corpus/manifest.toml --set check   # one corpus set
  opcost validate --machine M.json legacy.f --program-flags -fallow-argument-mismatch --stdin in.dat

A program that fails (analysis, build or a run) is reported in the table as failed and the
others go on; the exit status is then non-zero. Output paths are checked before any work, and
the CSV and JSON files are written (atomically) after every round of runs with the results so
far, so an interrupted or partly failing batch keeps what it measured. With \"-\" for --json
or --csv, standard output holds only that export and the report goes to standard error.
A prediction's warnings (parameters the machine file lacks, ...) are those of `predict`.

For each program: analyze it (dynamic counts), predict, compile it with the machine's compiler
and flags; then run the programs in --runs rounds (one run of each per round, so a slow phase
of a shared machine touches them all) and compare with each one's CPU time, summarized as the
characterization summarized its tests: the fastest run for a characterization by the minimum
(the default: the undisturbed machine on both sides) or the round median, the median run
otherwise; both are in the CSV and JSON. Writes results/validation-<machine file>.csv and .svg (predicted vs real,
log-log; --results-dir names another folder).

Before each round the characterization's own tests run again, one short observation each, and
their time now over their recorded time (as the characterization summarized them: by the
minimum, the undisturbed time) gives the host's speed against the day it
was characterized (median over the tests). The errors stay those of the predictions as they are;
beside them, the error once the prediction is scaled by that speed tells the model's share of
an error from the host's drift (a shared machine's speed wanders by 10-30 % over an hour).
--no-host-probe skips this (about 5 s a round per system).

--against CSV (repeatable) runs nothing: it predicts each program again (as the machine file
now stands, with the analyzer as it now counts) and scores the predictions against the real
times recorded in earlier validations' CSVs, one table 7.2 line per CSV and each program's
mean, smallest and largest error over them: a changed model or characterization checked
against many sets of real runs without timing anything again, the spread showing the host's
share. With several --machine files (characterizations of one compiler and flags, made at
different times), each program is analyzed once and every file is scored on the same real
times, one report each (--json: an array): how much of an error the characterization's moment
explains.")]
pub struct Args {
    /// Characterization of the machine; repeat it to validate several systems, whose runs are
    /// then made in the same rounds (for `opcost compare`)
    #[arg(long, value_name = "RESULT.json", required_unless_present = "combine")]
    machine: Vec<PathBuf>,
    /// Programs to validate (one source file each) [default: fortran-samples/*.f]
    #[arg(value_name = "PROGRAM.f")]
    programs: Vec<PathBuf>,
    /// Corpus manifest whose programs to validate (repeatable; e.g. corpus/manifest.toml)
    #[arg(long, value_name = "MANIFEST.toml")]
    manifest: Vec<PathBuf>,
    /// Only the manifest programs of this set: tune, check, holdout or real (repeatable)
    #[arg(long, value_name = "SET")]
    set: Vec<String>,
    /// File fed to the standard input of the programs named on the command line
    #[arg(long, value_name = "FILE")]
    stdin: Option<PathBuf>,
    /// Command-line arguments of the named programs' runs (one string, split on blanks)
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    run_args: Option<String>,
    /// Extra compiler flags the named programs need beyond the system's, for the analysis's
    /// builds and the timed build (e.g. "-fallow-argument-mismatch" for legacy code)
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    program_flags: Option<String>,
    /// Timed runs per program
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Time limit of each run, seconds
    #[arg(long, default_value_t = 600.0)]
    time_limit: f64,
    /// Skip the per-unit profile (gprof) that shows where a prediction is off
    #[arg(long)]
    no_profile: bool,
    /// Validation table as CSV [default: <results-dir>/validation-<machine file stem>.csv]
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
    /// Predicted-vs-real chart [default: <results-dir>/validation-<machine file stem>.svg]
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Folder of the default CSV and chart
    #[arg(long, value_name = "DIR", default_value = "results")]
    results_dir: PathBuf,
    /// Full results as JSON ("-" for stdout); with several systems, an array of them
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Do not re-run the characterization's tests between rounds to measure the host's drift
    #[arg(long)]
    no_host_probe: bool,
    /// Where the characterization's generated tests are built (as for `characterize`)
    #[arg(long, value_name = "DIR", default_value = "target/opcost")]
    cache_dir: PathBuf,
    /// Run nothing: score the predictions against the real times of an earlier validation's
    /// CSV (repeat it for several; a folder stands for the CSVs in it); with several --machine
    /// files of one compiler and flags, each is scored on the same real times
    #[arg(long, value_name = "VALIDATION.csv", conflicts_with_all = ["csv", "plot", "no_profile", "no_host_probe"])]
    against: Vec<PathBuf>,
    /// Run nothing: the per-set figures of several earlier validations' JSON files (each a
    /// corpus validation of one system), each figure the median over them
    #[arg(long, value_name = "VALIDATION.json", num_args = 1.., conflicts_with_all = ["machine", "against", "manifest"])]
    combine: Vec<PathBuf>,
    /// Go on when statements of a program cannot be parsed: skip them (each listed, counted
    /// as uncharacterized) instead of failing that program
    #[arg(long)]
    keep_going: bool,
}

/// The programs named on the command line and the manifests' entries of the chosen sets;
/// the samples when neither is given (`fortran-samples/` here, else the one beside the
/// sources opcost was built from, so the default works from any directory).
fn programs(a: &Args) -> Result<Vec<ProgramSpec>> {
    Ok(predictor::corpus::choose_programs(&ProgramChoice {
        files: a.programs.clone(),
        manifests: a.manifest.clone(),
        sets: a.set.clone(),
        stdin: a.stdin.clone(),
        run_args: crate::commands::blank_separated(&a.run_args),
        flags: crate::commands::blank_separated(&a.program_flags),
        keep_going: a.keep_going,
        samples: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fortran-samples"),
    })?)
}

/// The CSV and chart paths of each system, checked writable before any work is done.
fn output_paths(a: &Args) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for path in &a.machine {
        let (csv, plot) = predictor::validate::default_outputs(&a.results_dir, path);
        let csv = a
            .csv
            .clone()
            .unwrap_or_else(|| csv.to_string_lossy().into_owned());
        out.push((csv, a.plot.clone().unwrap_or(plot)));
    }
    let mut targets: Vec<PathBuf> = out
        .iter()
        .flat_map(|(c, p)| [PathBuf::from(c), p.clone()])
        .collect();
    targets.extend(a.json.iter().map(PathBuf::from));
    for t in targets.iter().filter(|t| t.as_os_str() != "-") {
        crate::commands::check_writable(t)?;
    }
    Ok(out)
}

pub fn run(a: Args) -> Result<()> {
    crate::commands::route_report(&[("--json", a.json.as_deref()), ("--csv", a.csv.as_deref())])?;
    if !a.combine.is_empty() {
        return combine(&a);
    }
    let programs = programs(&a)?;
    if a.machine.len() > 1 && (a.csv.is_some() || a.plot.is_some()) {
        bail!("with several --machine files, each gets its default results/validation-<machine>.csv and .svg; drop --csv and --plot or validate one machine at a time");
    }
    let machines = a
        .machine
        .iter()
        .map(|m| Characterization::load(m))
        .collect::<Result<Vec<_>, _>>()?;
    if !a.against.is_empty() {
        return rescore(&a, &machines, &programs);
    }
    let outputs = output_paths(&a)?;
    let opts = ValidateOptions {
        runs: a.runs.max(1),
        time_limit: Duration::from_secs_f64(a.time_limit),
        profile_units: !a.no_profile,
    };
    let bar = crate::commands::progress_bar();
    bar.set_length((machines.len() * programs.len() * (1 + opts.runs)) as u64);
    let compilers = machines
        .iter()
        .map(|m| harness::Compiler::find(Some(&m.compiler.path), &m.compiler.flags))
        .collect::<Result<Vec<_>, _>>()?;
    // A probe that cannot run costs the validation nothing but its host figure.
    let mut probing = vec![!a.no_host_probe; machines.len()];
    let mut save_error = None;
    let results = predictor::validate::validate_systems(
        &machines,
        &programs,
        &opts,
        |p| match p {
            Progress::Preparing { program, system } => {
                bar.set_message(format!("analyzing {program} for {system}"));
                bar.inc(1);
            }
            Progress::Predicted { program, warnings } => bar.suspend(|| {
                for w in warnings {
                    eprintln!("warning: {program}: {w}");
                }
            }),
            Progress::Round(so_far) => {
                if let Err(e) = save_results(&a, &outputs, so_far, false) {
                    save_error.get_or_insert(e);
                }
            }
            Progress::Failed(f) => {
                bar.suspend(|| eprintln!("error: {}: {}", f.program, f.error));
                bar.inc(opts.runs as u64);
            }
            Progress::Ran(name) => {
                bar.set_message(format!("timing {name}"));
                bar.inc(1);
            }
        },
        |round, k| {
            if !probing[k] {
                return None;
            }
            let machine = &machines[k];
            bar.set_message(format!(
                "round {}: probing the host's speed with {}'s tests",
                round + 1,
                machine.compiler.tag()
            ));
            match characterizer::probe_host_speed(machine, &compilers[k], &a.cache_dir) {
                Ok(s) => Some(s),
                Err(e) => {
                    bar.suspend(|| {
                        eprintln!(
                            "warning: the host probe with {}'s tests failed ({e}); validating without it",
                            machine.compiler.tag()
                        )
                    });
                    probing[k] = false;
                    None
                }
            }
        },
    )?;
    bar.finish_and_clear();
    if let Some(e) = save_error {
        return Err(e.context("cannot save the results after a round"));
    }
    save_results(&a, &outputs, &results, true)?;
    let failures = report_all(&a, &machines, &results, &outputs)?;
    if failures > 0 {
        bail!("{failures} program run(s) failed (see the table above); the others were validated and written");
    }
    Ok(())
}

/// Write each system's CSV and the JSON (one system: its document; several: an array of
/// them, in --machine order), atomically. Standard output ("-") only at the end (`last`),
/// files after every round too.
fn save_results(
    a: &Args,
    outputs: &[(String, PathBuf)],
    results: &[SystemValidation],
    last: bool,
) -> Result<()> {
    let wanted = |target: &str| last || target != "-";
    for ((csv, _), result) in outputs.iter().zip(results) {
        if wanted(csv) {
            crate::commands::write_output(csv, validation_csv(&result.rows)?.as_bytes())?;
        }
    }
    if let Some(j) = a.json.as_deref().filter(|j| wanted(j)) {
        let docs: Vec<ValidationDocument> = a
            .machine
            .iter()
            .zip(results)
            .map(|(path, r)| ValidationDocument::new(path, r))
            .collect();
        match docs.as_slice() {
            [one] => crate::commands::write_json(j, "the validation", one)?,
            _ => crate::commands::write_json(j, "the validation", &docs)?,
        }
    }
    Ok(())
}

/// Print every system's tables and draw its chart; the number of failed programs.
fn report_all(
    a: &Args,
    machines: &[Characterization],
    results: &[SystemValidation],
    outputs: &[(String, PathBuf)],
) -> Result<usize> {
    let mut failures = 0;
    for (k, (machine, result)) in machines.iter().zip(results).enumerate() {
        if machines.len() > 1 {
            crate::say!("\n== {} ==", a.machine[k].display());
        }
        report(machine, result, &outputs[k])?;
        if !result.host_speeds.is_empty() {
            print_host_speed(&result.host_speeds, &result.rows);
        }
        failures += result.failed.len();
    }
    Ok(failures)
}

/// Print one system's tables and draw its chart (its CSV and JSON: [`save_results`]).
fn report(
    machine: &Characterization,
    result: &SystemValidation,
    (csv_path, plot): &(String, PathBuf),
) -> Result<()> {
    let rows = &result.rows;
    print_table(rows);
    print_failed(&result.failed);
    let sets = summarize_sets(rows, &result.failed);
    if sets.len() > 1 || sets.iter().any(|s| s.set != predictor::corpus::NO_SET) {
        crate::say!("\nBy corpus set:");
        print_sets(&sets);
    }
    let points: Vec<(String, f64, f64)> = rows
        .iter()
        .map(|r| (r.program.clone(), r.predicted_s, r.real_s))
        .collect();
    // No program validated: no chart to draw.
    let charted = !points.is_empty();
    if charted {
        predictor::plot::predicted_vs_real(
            &points,
            &format!("{} {}", machine.compiler.tag(), machine.machine.cpu_model),
            plot,
        )?;
    }
    match (csv_path != "-", charted) {
        (true, true) => eprintln!("wrote {csv_path} and {}", plot.display()),
        (true, false) => eprintln!("wrote {csv_path}"),
        (false, true) => eprintln!("wrote {}", plot.display()),
        (false, false) => {}
    }
    Ok(())
}

/// `--combine`: the median per-set figures of several validations.
fn combine(a: &Args) -> Result<()> {
    let mut all = Vec::new();
    for p in &a.combine {
        let text = std::fs::read_to_string(p)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", p.display()))?;
        all.push(
            predictor::validate::read_validation_sets(&text).map_err(|e| {
                anyhow::anyhow!(
                    "{} is not the JSON of one system's `opcost validate` ({e})",
                    p.display()
                )
            })?,
        );
    }
    let c = predictor::validate::combine_sets(&all);
    crate::say!(
        "Accuracy by corpus set, the median over {} validation(s):",
        c.validations
    );
    print_sets(&c.sets);
    if let Some(j) = &a.json {
        crate::commands::write_json(j, "the combined validations", &c)?;
    }
    Ok(())
}

/// The programs that could not be validated, and why.
fn print_failed(failed: &[FailedProgram]) {
    if failed.is_empty() {
        return;
    }
    crate::say!("\nFailed ({}), not in the figures above:", failed.len());
    for f in failed {
        let first = f.error.lines().next().unwrap_or_default();
        crate::say!("  {:<16} FAILED  {first}", f.program);
    }
}

/// Seed table 7.2 per corpus set, with each set's failures.
fn print_sets(sets: &[SetSummary]) {
    let mut t = Table::new(&[
        "Set",
        "n",
        "Failed",
        "Within 5 %",
        "10 %",
        "15 %",
        "20 %",
        "Mean |error| %",
        "RMS %",
    ])
    .right_from(1);
    for s in sets {
        let m = &s.summary;
        t.push(vec![
            s.set.clone(),
            m.programs.to_string(),
            s.failed.to_string(),
            m.within_5.to_string(),
            m.within_10.to_string(),
            m.within_15.to_string(),
            m.within_20.to_string(),
            format!("{:.1}", m.mean_abs_error_percent),
            format!("{:.1}", m.rms_error_percent),
        ]);
    }
    crate::commands::show(&t);
}

fn print_table(rows: &[ProgramValidation]) {
    let mut t = Table::new(&[
        "Program",
        "Real (s)",
        "CPU median (s)",
        "Runs' spread %",
        "Wall min (s)",
        "Predicted (s)",
        "± 90 %",
        "Error %",
    ])
    .right_from(1);
    for r in rows {
        t.push(vec![
            r.program.clone(),
            format!("{:.3}", r.real_s),
            format!("{:.3}", r.cpu_median_s),
            format!("{:.0}", r.spread_percent()),
            format!("{:.3}", r.wall_min_s),
            format!("{:.3}", r.predicted_s),
            format!(
                "{:.3}",
                (r.predicted_ci_high_s - r.predicted_ci_low_s) / 2.0
            ),
            format!("{:+.1}", r.error_percent),
        ]);
    }
    let real = rows.first().map_or("", |r| r.real_time.describe());
    crate::say!("Predicted against real run times (Saavedra-Barrera's table 6.1; real = {real}, spread = (max - min) / median):");
    crate::commands::show(&t);
    let s = summarize(rows);
    crate::say!(
        "\nWithin 5 %: {}   10 %: {}   15 %: {}   20 %: {}   of {} (Saavedra-Barrera's table 7.2)",
        s.within_5,
        s.within_10,
        s.within_15,
        s.within_20,
        s.programs
    );
    crate::say!(
        "Mean error {:+.1} %, mean |error| {:.1} %, RMS error {:.1} %",
        s.mean_error_percent,
        s.mean_abs_error_percent,
        s.rms_error_percent
    );
    // Where is a prediction off? Units and regions by predicted vs measured self time (gprof).
    for r in rows.iter().filter(|r| r.error_percent.abs() > 10.0) {
        let Some(p) = r.prediction.as_ref() else {
            continue;
        };
        if !r.units.is_empty() {
            crate::say!(
                "\n{} is off by {:+.1} %; where (measured self time from a gprof build, library calls not included):",
                r.program, r.error_percent
            );
            print_parts("Unit", &r.units, &p.units);
        }
        if !r.regions.is_empty() {
            crate::say!(
                "\n{} by directive region (measured from gprof's line profile):",
                r.program
            );
            print_parts("Region", &r.regions, &p.regions);
        }
    }
}

/// The host's speed during the runs and the errors once the predictions are scaled by it.
fn print_host_speed(speeds: &[f64], rows: &[ProgramValidation]) {
    let per_round: Vec<String> = speeds.iter().map(|s| format!("{s:.3}")).collect();
    let median = model::stats::median(speeds);
    crate::say!(
        "\nHost speed: the characterization's tests took {median:.3}x their recorded time during these runs (median of the rounds: {}).",
        per_round.join(", ")
    );
    let adjusted: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            r.host_adjusted_error_percent
                .map(|e| format!("{} {e:+.1}", r.program))
        })
        .collect();
    crate::say!(
        "Errors with the predictions scaled by it (the model's share): {}",
        adjusted.join(", ")
    );
    if let Some(s) = summarize_host_adjusted(rows) {
        crate::say!("Scaled: {}", summary_line(&s));
    }
    if let Some(w) = predictor::validate::host_drift_warning(median) {
        eprintln!("warning: {w}");
    }
}

/// Seed table 7.2 and the mean errors on one line.
fn summary_line(s: &ValidationSummary) -> String {
    format!(
        "within 5 %: {}   10 %: {}   15 %: {}   20 %: {}   of {}; mean error {:+.1} %, mean |error| {:.1} %, RMS {:.1} %",
        s.within_5,
        s.within_10,
        s.within_15,
        s.within_20,
        s.programs,
        s.mean_error_percent,
        s.mean_abs_error_percent,
        s.rms_error_percent
    )
}

/// Parts (units or regions) by predicted vs measured self time, largest difference first.
fn print_parts(kind: &str, parts: &[PartComparison], predicted: &[PartPrediction]) {
    let mut u = Table::new(&[
        kind,
        "Predicted (s)",
        "Measured self (s)",
        "Difference (s)",
        "Top predicted operations",
    ])
    .right(&["Predicted (s)", "Measured self (s)", "Difference (s)"]);
    let mut parts = parts.to_vec();
    parts.sort_by(|a, b| {
        (b.predicted_s - b.measured_self_s)
            .abs()
            .total_cmp(&(a.predicted_s - a.measured_self_s).abs())
    });
    for c in parts.iter().take(12) {
        let top = predicted
            .iter()
            .find(|x| x.name == c.name)
            .map(|p| {
                p.rows
                    .iter()
                    .take(3)
                    .map(|x| format!("{} {:.0}%", x.mnemonic, 100.0 * x.time_fraction))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        u.push(vec![
            c.name.clone(),
            format!("{:.3}", c.predicted_s),
            format!("{:.3}", c.measured_self_s),
            format!("{:+.3}", c.predicted_s - c.measured_self_s),
            top,
        ]);
    }
    crate::commands::show(&u);
}

/// `--against`: predictions scored against earlier validations' real times, no runs. Each
/// program is analyzed once and predicted on every machine (characterizations of one system
/// made at different times: how much of an error is the characterization's).
fn rescore(a: &Args, machines: &[Characterization], programs: &[ProgramSpec]) -> Result<()> {
    // A folder (old-runs/<day>/) stands for its CSVs, in name order.
    let sets = predictor::validate::read_against_sets(&a.against)?;
    predictor::validate::one_system(machines)?;
    let bar = crate::commands::progress_bar();
    bar.set_length(programs.len() as u64);
    let mut predicted = vec![Vec::new(); machines.len()];
    let mut failed = Vec::new();
    let limit = Duration::from_secs_f64(a.time_limit);
    for p in programs {
        bar.set_message(format!("analyzing {}", p.name));
        match predictor::validate::predict_source(p, machines, limit) {
            Ok(times) => {
                for (mine, t) in predicted.iter_mut().zip(times) {
                    mine.push((p.name.clone(), t));
                }
            }
            Err(e) => {
                failed.push(p.name.clone());
                bar.suspend(|| eprintln!("error: {}: {e}", p.name));
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut results = Vec::new();
    for (k, (predicted, file)) in predicted.iter().zip(&a.machine).enumerate() {
        let r = predictor::validate::rescore(predicted, &sets);
        if r.overall.programs == 0 {
            bail!(
                "none of the programs has a real time in the CSVs given (they hold: {})",
                predictor::validate::programs_held(&sets).join(", ")
            );
        }
        if machines.len() > 1 {
            crate::say!("\n== {} ==", file.display());
        }
        // The same programs lack real times for every machine: said once.
        for p in r.programs.iter().filter(|p| k == 0 && p.sets == 0) {
            eprintln!(
                "warning: {} has a real time in none of the CSVs given; it is left out",
                p.program
            );
        }
        print_rescore(&r);
        let by_set = predictor::validate::rescore_by_set(&r, programs, &failed);
        if by_set.iter().any(|s| s.set != predictor::corpus::NO_SET) {
            crate::say!("\nBy corpus set (each program's mean error over the real times):");
            print_sets(&by_set);
        }
        results.push(r);
    }
    if let Some(j) = &a.json {
        match results.as_slice() {
            [one] => crate::commands::write_json(j, "the rescore", one)?,
            all => crate::commands::write_json(j, "the rescores", all)?,
        }
    }
    if !failed.is_empty() {
        bail!(
            "{} program(s) could not be analyzed (see above); the others were scored",
            failed.len()
        );
    }
    Ok(())
}

/// The rescore's tables: per set of real times, per program, and the overall line.
fn print_rescore(r: &predictor::validate::Rescore) {
    crate::say!(
        "Predictions against the real times of {} earlier validation(s); nothing was run (Saavedra-Barrera's table 7.2 per set):",
        r.sets.len()
    );
    let mut t = Table::new(&[
        "Real times from",
        "Programs",
        "Within 5 %",
        "10 %",
        "15 %",
        "20 %",
        "Mean error %",
        "Mean |error| %",
    ])
    .right_from(1);
    for s in &r.sets {
        let m = &s.summary;
        t.push(vec![
            s.name.clone(),
            m.programs.to_string(),
            m.within_5.to_string(),
            m.within_10.to_string(),
            m.within_15.to_string(),
            m.within_20.to_string(),
            format!("{:+.1}", m.mean_error_percent),
            format!("{:.1}", m.mean_abs_error_percent),
        ]);
    }
    crate::commands::show(&t);
    let mut u = Table::new(&[
        "Program",
        "Predicted (s)",
        "Sets",
        "Mean error %",
        "Smallest",
        "Largest",
    ])
    .right_from(1);
    // A program no CSV ran has no error: "-".
    let pct = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:+.1}"));
    for p in &r.programs {
        u.push(vec![
            p.program.clone(),
            format!("{:.3}", p.predicted_s),
            p.sets.to_string(),
            pct(p.mean_error_percent),
            pct(p.min_error_percent),
            pct(p.max_error_percent),
        ]);
    }
    crate::say!();
    crate::commands::show(&u);
    crate::say!("\nAll predictions: {}", summary_line(&r.overall));
}

//! `opcost characterize`: measure this machine's parameters (Saavedra-Barrera's section 4).

use anyhow::{bail, Result};
use characterizer::{session, CharacterizeError, Event};
use harness::Compiler;
use model::characterization::{Characterization, Statistic, TestKind};
use model::Region;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// `opcost show`: print a characterization's parameter table (and export it).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost show results/<machine>--gfortran-O0.json
  opcost show results/<machine>--gfortran-O0.json --csv -")]
pub struct ShowArgs {
    /// A characterization (from `opcost characterize`)
    #[arg(value_name = "RESULT.json")]
    file: PathBuf,
    /// Write the parameter table as CSV ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
}

pub fn show(a: ShowArgs) -> Result<()> {
    let c = Characterization::load(&a.file)?;
    if let Some(csv) = &a.csv {
        export::emit(&c, export::Format::Csv, csv)?;
        if csv == "-" {
            return Ok(());
        }
    }
    crate::say!(
        "{} with {} {} ({}), {}{}",
        c.machine.cpu_model,
        c.compiler.path,
        c.compiler.flags.join(" "),
        c.compiler.version,
        c.date,
        if c.complete {
            ""
        } else {
            " — INCOMPLETE: resume it"
        }
    );
    let st = &c.settings;
    let processes = format!(
        "{} process{}",
        st.rounds,
        if st.rounds == 1 { "" } else { "es" }
    );
    match st.statistic {
        Statistic::RoundMedian => crate::say!(
            "each test: the median over {processes} of each one's minimum; {} observations of TMAX {} s in all",
            st.repeat, st.tmax_s
        ),
        other => crate::say!(
            "each test: the {} of {} observations of TMAX {} s from {processes}",
            other.name(),
            st.repeat,
            st.tmax_s
        ),
    }
    print_report(&c);
    if let Some(x) = &c.xray {
        crate::say_raw!("\n{}", crate::render::hardware_report(x));
    }
    Ok(())
}

#[derive(clap::Args)]
#[command(after_help = "Examples:
  opcost characterize                       # full run, gfortran -O0, into results/
  opcost characterize --quick --out /tmp/q.json
  opcost characterize --flags \"-O1\"
  opcost characterize --only ARSL,DRSL,SIND --repeat 20
  opcost characterize --resume results/<machine>--gfortran-O0.json
  opcost characterize --resume old.json --statistic min   # re-estimate, nothing re-measured

A run saves its progress after every experiment to a partial file beside its result
(results/X.json: results/X.partial.json). An interrupted run (Ctrl-C, kill, an error) keeps
every finished experiment there, marked incomplete; `--resume results/X.partial.json`
completes it. The result file is written only when the run is complete: an existing one is
first kept as a dated backup (results/X.<YYYYMMDD-HHMMSS>.bak.json), so a new or resumed
run never destroys a finished characterization. A new run refuses to start over an
interrupted one's partial file (resume it or remove it). Every file is written atomically. By default each test's time is the minimum of its
observations: on a shared host the other tenants only slow a test down (the minimum of a
characterization made in a busy hour agreed with one made in a quiet hour to 3.5 % per
parameter, the mean to 12.7 %), and a busy neighbour puts a cheap test's process in a slow
state that the minimum over the processes leaves out (README, refinements 15 and 23;
--statistic round-median takes the median over the processes of each one's minimum,
refinement 20). Two kinds of test are taken otherwise under the default: the issue rates
INST and MEMO by the mean, since a program's run goes through the neighbour's states and
issue slots are what it takes (docs/model.md, rule 17 refined), and CSTA by the round median.
A --statistic you give applies to every test.")]
pub struct Args {
    /// Short observations and few of them (TMAX 0.01 s, 5 observations): for tests and a first look
    #[arg(long)]
    quick: bool,
    /// Fortran compiler to characterize (part of the system)
    #[arg(long, value_name = "PATH", default_value = "gfortran")]
    compiler: String,
    /// Compiler flags (part of the system)
    #[arg(
        long,
        value_name = "FLAGS",
        default_value = "-O0",
        allow_hyphen_values = true
    )]
    flags: String,
    /// Minimum duration of one observation in seconds (Saavedra-Barrera's TMAX) [default: 0.04, quick 0.01]
    #[arg(long, value_name = "S")]
    tmax: Option<f64>,
    /// Observations per experiment (Saavedra-Barrera's REPEAT) [default: 10, quick 5]
    #[arg(long, value_name = "N")]
    repeat: Option<usize>,
    /// Processes per experiment: its observations are split over this many runs, made in
    /// rounds over all experiments, so each parameter averages over the states a shared
    /// machine goes through [default: 2, quick 1]
    #[arg(long, value_name = "N")]
    rounds: Option<usize>,
    /// Estimator over the observations [default: min, the fastest observation: the quiet
    /// machine; the issue rates INST and MEMO by the mean]. With --resume, a different one
    /// re-estimates the file's parameters from its recorded observations (and runs the
    /// self-check again) without measuring them again
    #[arg(long, value_enum)]
    statistic: Option<StatisticArg>,
    /// Measure only these parameters (comma-separated mnemonics) and what they depend on
    #[arg(long, value_name = "MNEMONIC,...")]
    only: Option<String>,
    /// Result file [default: <results-dir>/<machine>--<compiler-flags>.json]
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Folder of the default result file
    #[arg(long, value_name = "DIR", default_value = "results")]
    results_dir: PathBuf,
    /// Also write the parameter table as CSV ("-" for stdout)
    #[arg(long, value_name = "FILE")]
    export_csv: Option<String>,
    /// Complete an interrupted characterization (X.partial.json; its settings and compiler
    /// are reused), or re-estimate / extend a complete one (X.json, backed up when replaced)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tmax", "repeat", "only", "rounds"])]
    resume: Option<PathBuf>,
    /// Skip the self-check of statements no test used
    #[arg(long)]
    no_self_check: bool,
    /// Skip X-Ray (caches, TLB, registers, CPU parameters; up to a minute)
    #[arg(long)]
    no_xray: bool,
    /// Directory for generated sources and binaries
    #[arg(long, value_name = "DIR", default_value = "target/opcost")]
    cache_dir: PathBuf,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum StatisticArg {
    Mean,
    Median,
    Min,
    /// The median over the rounds of each round's minimum
    RoundMedian,
}

impl From<StatisticArg> for Statistic {
    fn from(s: StatisticArg) -> Self {
        match s {
            StatisticArg::Mean => Statistic::Mean,
            StatisticArg::Median => Statistic::Median,
            StatisticArg::Min => Statistic::Min,
            StatisticArg::RoundMedian => Statistic::RoundMedian,
        }
    }
}

/// Save a run in progress to the partial file of `result` (the result itself is untouched).
fn save_partial(result: &Path, c: &Characterization) -> Result<()> {
    export::staged::save_partial(result, &export::json("the characterization", c)?)?;
    Ok(())
}

/// Install a complete characterization as `result`, the one it replaces kept as a backup.
fn install(result: &Path, c: &Characterization) -> Result<()> {
    let stamp = export::time::Utc::now().stamp();
    let bytes = export::json("the characterization", c)?;
    if let Some(backup) = export::staged::promote(result, &bytes, &stamp)? {
        eprintln!(
            "kept the previous {} as {}",
            result.display(),
            backup.display()
        );
    }
    Ok(())
}

/// The run to make: `--resume`'s, or a new one from the options.
fn setup(a: &Args) -> Result<session::Setup> {
    Ok(match &a.resume {
        Some(path) => session::resume(
            path,
            a.statistic.map(Statistic::from),
            a.no_self_check,
            &a.cache_dir,
            &mut |note| eprintln!("{note}"),
        )?,
        None => session::start(&session::NewRun {
            compiler: a.compiler.clone(),
            flags: a.flags.clone(),
            quick: a.quick,
            tmax_s: a.tmax,
            repeat: a.repeat,
            rounds: a.rounds,
            statistic: a.statistic.map(Statistic::from),
            only: a.only.clone(),
            no_self_check: a.no_self_check,
            cache_dir: a.cache_dir.clone(),
            out: a.out.clone(),
            results_dir: a.results_dir.clone(),
        })?,
    })
}

pub fn run(a: Args) -> Result<()> {
    let setup = setup(&a)?;
    let session::Setup {
        compiler,
        options: opts,
        characterization: mut result,
        result: out,
    } = setup;

    let cancel = Arc::new(AtomicBool::new(false));
    {
        let cancel = cancel.clone();
        // Ctrl-C and kill: stop after saving what was measured.
        let _ = ctrlc::set_handler(move || cancel.store(true, Ordering::SeqCst));
    }
    eprintln!(
        "characterizing {} with {} {} (TMAX {} s, {} observations in {} rounds, {:?})",
        result.machine.cpu_model,
        compiler.path.display(),
        compiler.flags.join(" "),
        opts.tmax_s,
        opts.repeat,
        opts.rounds,
        opts.statistic
    );
    let bar = crate::commands::progress_bar();
    let mut save_error = None;
    let outcome = characterizer::run(&compiler, &opts, &mut result, &cancel, |ev, c| match ev {
        Event::Compiled { seconds } => bar.println(format!("compiled the tests in {seconds:.1} s")),
        Event::Planned { total } => bar.set_length(total as u64),
        Event::Started { experiment } => bar.set_message(experiment),
        Event::SelfCheck { statement } => bar.set_message(format!("self-check: {statement}")),
        Event::Finished { .. } => {
            bar.inc(1);
            if let Err(e) = save_partial(&out, c) {
                save_error.get_or_insert(e);
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = save_error {
        return Err(e);
    }
    match outcome {
        Ok(()) => {}
        Err(CharacterizeError::Interrupted { done, total }) => {
            save_partial(&out, &result)?;
            let partial = export::staged::partial_path(&out);
            bail!(
                "interrupted: {done} of {total} experiments measured and kept in {} (marked incomplete; {} is untouched); finish with `opcost characterize --resume {}`",
                partial.display(),
                out.display(),
                partial.display()
            );
        }
        Err(e) => {
            if !result.experiments.is_empty() {
                save_partial(&out, &result)?;
                eprintln!(
                    "the {} experiments measured before the error are kept in {} ({} is untouched)",
                    result.experiments.len(),
                    export::staged::partial_path(&out).display(),
                    out.display()
                );
            }
            return Err(e.into());
        }
    }
    save_partial(&out, &result)?;
    if !a.no_xray && result.xray.is_none() {
        measure_hardware(&compiler, opts.quick, &mut result, &cancel);
    }
    install(&out, &result)?;
    print_report(&result);
    if let Some(x) = &result.xray {
        crate::say_raw!("\n{}", crate::render::hardware_report(x));
    }
    // The parameter table as CSV beside the JSON, and where asked.
    let beside = out.with_extension("csv");
    export::emit(&result, export::Format::Csv, &beside.to_string_lossy())?;
    if let Some(csv) = &a.export_csv {
        export::emit(&result, export::Format::Csv, csv)?;
    }
    eprintln!("wrote {} ({:.0} s)", out.display(), result.wall_time_s);
    Ok(())
}

/// X-Ray's section of the characterization (X-Ray, 000). A failure is reported but does not
/// cost the parameters already measured.
fn measure_hardware(
    compiler: &Compiler,
    quick: bool,
    result: &mut Characterization,
    cancel: &AtomicBool,
) {
    if cancel.load(Ordering::SeqCst) {
        return;
    }
    let bar = crate::commands::progress_bar();
    bar.set_length(16);
    let report = xray::measure(compiler, &xray::XrayOptions { quick }, &mut |m| {
        bar.inc(1);
        bar.set_message(format!("X-Ray: {m}"));
    });
    bar.finish_and_clear();
    match report {
        Ok(r) => {
            // Kept for `opcost time` and `opcost xray` on this host (a quick one only for
            // quick requests); a cache that cannot be written costs nothing.
            if let Some(dir) = xray::store::cache_dir() {
                let _ = xray::store::store(&dir, &harness::machine_info(), quick, &r);
            }
            result.xray = Some(r)
        }
        Err(e) => eprintln!(
            "warning: X-Ray could not finish ({e}); the parameters are kept; run `opcost xray` to see why"
        ),
    }
}

fn fmt_ns(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// The parameter table grouped by Saavedra-Barrera's regions, then warnings and the self-check.
pub fn print_report(c: &Characterization) {
    print_parameters(c);
    if let Some(timer) = &c.timer {
        crate::say!(
            "\nTimer: {}, resolution {:.0} ns, call {:.0} ns; loop control {:.3} ns ± {:.3} per pass",
            timer.name,
            timer.resolution_ns,
            timer.call_overhead_ns,
            timer.loop_overhead.mean_ns,
            (timer.loop_overhead.ci_high_ns - timer.loop_overhead.ci_low_ns) / 2.0
        );
    }
    let sum = session::summary(c);
    if let Some(p) = &sum.precision {
        crate::say!(
            "Precision: median 90 % CI half-width {:.2} %; {} of {} parameters ({:.0} %) within ±5 %; {} cannot be separated from zero.",
            p.median_half_width_percent,
            p.within_5,
            p.parameters,
            100.0 * p.within_5 as f64 / p.parameters as f64,
            p.below_resolution
        );
    }
    print_wide(&sum);
    if !sum.zero.is_empty() {
        let zero: Vec<String> = sum.zero.iter().map(|p| p.to_string()).collect();
        eprintln!(
            "note: {} cannot be separated from zero on this system (shown as \"< upper bound\", Saavedra-Barrera's \"1<\"): the operation overlaps with others",
            zero.join(", ")
        );
    }
    if !sum.unmeasured.is_empty() {
        let names: Vec<String> = sum.unmeasured.iter().map(|p| p.to_string()).collect();
        eprintln!(
            "note: {} are not measured at {}: the compiler emitted no instruction for their tests (it removed the operation or hoisted it out of the timed loop); predictions charge optimized loops by their machine code instead (docs/model.md, rule 17 for optimized builds)",
            names.join(", "),
            c.compiler.flags.join(" ")
        );
    }
    print_self_check(c);
    if sum.measured.len() < sum.all {
        crate::say!(
            "\n{} of {} parameters measured.",
            sum.measured.len(),
            sum.all
        );
    }
    if sum.inst_uncounted {
        eprintln!(
            "note: INST is not measured: {}'s assembly (-S -g) has no line directives, so the test's instructions cannot be counted; predictions with this file have no issue bound (rule 17)",
            c.compiler.path
        );
    }
    if !sum.changed.is_empty() {
        eprintln!(
            "note: {}: measured with tests that this version of opcost has changed since; `opcost characterize --resume FILE` measures them again",
            sum.changed.join(", ")
        );
    }
}

/// The parameters by region (Saavedra-Barrera's table 4.x layout).
fn print_parameters(c: &Characterization) {
    let mut t = export::Table::new(&[
        "No.",
        "Param",
        "Operation",
        "ns",
        "± 90 % CI",
        "CI %",
        "Test",
    ])
    .right(&["ns", "± 90 % CI", "CI %"]);
    for region in Region::ALL {
        let rows: Vec<_> = c
            .parameters
            .iter()
            .filter(|r| r.mnemonic.def().region == region)
            .collect();
        if rows.is_empty() {
            continue;
        }
        t.section(format!("Region {}: {}", region.0, region.title()));
        for r in rows {
            let e = &r.estimate;
            let half = (e.ci_high_ns - e.ci_low_ns) / 2.0;
            let value = if r.unmeasured.is_some() {
                "removed".to_string()
            } else if r.below_resolution() {
                format!("< {}", fmt_ns(e.ci_high_ns.max(0.0)))
            } else {
                fmt_ns(e.mean_ns)
            };
            let pct = if r.below_resolution() {
                "-".to_string()
            } else {
                format!("{:.1}", e.ci_half_width_percent())
            };
            let kind = match r.test_kind {
                TestKind::Direct => "direct",
                TestKind::Composite => "composite",
                TestKind::Indirect => "indirect",
                TestKind::Derived => "derived",
            };
            t.push(vec![
                format!("{:02}", r.number),
                r.mnemonic.to_string(),
                r.mnemonic.def().description(),
                value,
                fmt_ns(half),
                pct,
                kind.into(),
            ]);
        }
    }
    crate::commands::show(&t);
}

/// Warnings for the parameters whose interval is wider than ±5 %.
fn print_wide(sum: &session::Summary) {
    if sum.wide.len() <= 3 {
        for r in &sum.wide {
            eprintln!(
                "warning: the 90 % CI of {} is ±{:.1} % wide: the machine was busy or the test is short; rerun it with `--only {} --repeat 20 --tmax 0.1`",
                r.mnemonic,
                r.estimate.ci_half_width_percent(),
                r.mnemonic
            );
        }
    } else {
        let list: Vec<String> = sum
            .wide
            .iter()
            .map(|r| format!("{} ±{:.0}%", r.mnemonic, r.estimate.ci_half_width_percent()))
            .collect();
        let names: Vec<String> = sum.wide.iter().map(|r| r.mnemonic.to_string()).collect();
        eprintln!(
            "warning: {} of {} parameters have 90 % intervals wider than ±5 %: {}.\n  The machine was busy or the observations are short: rerun them with `--only {} --repeat 20 --tmax 0.1`, ideally on a quiet machine.",
            sum.wide.len(),
            sum.measured.len(),
            list.join(", "),
            names.join(",")
        );
    }
}

/// The self-check: statements no test used, measured against their predicted cost.
fn print_self_check(c: &Characterization) {
    if !c.self_check.is_empty() {
        let mut s = export::Table::new(&[
            "Self-check statement",
            "measured ns",
            "predicted ns",
            "error %",
        ])
        .right_from(1);
        for chk in &c.self_check {
            s.push(vec![
                chk.statement.clone(),
                format!(
                    "{} ± {}",
                    fmt_ns(chk.measured.mean_ns),
                    fmt_ns((chk.measured.ci_high_ns - chk.measured.ci_low_ns) / 2.0)
                ),
                fmt_ns(chk.predicted_ns),
                format!("{:+.1}", chk.error_percent),
            ]);
        }
        crate::say!("\nDo the parameters compose? Statements no test used, per statement:");
        crate::commands::show(&s);
    }
}

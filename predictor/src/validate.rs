//! Validation: predicted against real run times (Saavedra-Barrera's section 6, tables 6.1 and 7.2).
//! Each program is analyzed dynamically, predicted, then compiled with the characterization's
//! compiler and flags and run several times; the real time is the runs' CPU time (the
//! characterizer's timer is CPU time too) summarized as the characterization summarized its
//! tests' observations: the minimum for a characterization by the minimum (the default: the
//! undisturbed machine on both sides, Whaley & Castaldo section 2.1) or by the round median, the
//! median otherwise. Wall time
//! is reported beside it. Where a prediction is off, a profiling build (gprof, `-pg`) times every program
//! unit so predicted and measured time can be compared part by part (Saavedra-Barrera's section 6.3).

use crate::corpus::ProgramSpec;
use crate::predict::{predict_program, Prediction};
use analyzer::{AnalyzeOptions, RunSpec};
use harness::Compiler;
use model::characterization::{Characterization, Statistic};
use model::program_stats::LineSpan;
use model::stats::median;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ValidateError {
    #[error("{program}: analysis failed: {error}")]
    Analyze {
        program: String,
        error: analyzer::AnalyzeError,
    },
    #[error("{program} does not compile with {compiler}:\n{error}")]
    Compile {
        program: String,
        compiler: String,
        error: harness::CompileError,
    },
    #[error("{program}: {error}")]
    Run {
        program: String,
        error: harness::RunError,
    },
    #[error("{program} failed with {status}:\n{stderr}")]
    Failed {
        program: String,
        status: String,
        stderr: String,
    },
    #[error("{0}")]
    Predict(#[from] crate::predict::PredictError),
    #[error("{program} ran too briefly to time (its CPU time is {seconds} s): make it run longer to validate it")]
    TooShort { program: String, seconds: f64 },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("the machines were characterized with different compilers or flags ({first}; {other}): one analysis cannot count for both, so score them separately")]
    SystemsDiffer { first: String, other: String },
}

#[derive(Debug, Clone)]
pub struct ValidateOptions {
    /// Timed runs per program.
    pub runs: usize,
    pub time_limit: Duration,
    /// Time every program unit with a gprof build.
    pub profile_units: bool,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions {
            runs: 5,
            time_limit: Duration::from_secs(600),
            profile_units: true,
        }
    }
}

/// Predicted and measured time of one program unit or directive region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartComparison {
    pub name: String,
    pub predicted_s: f64,
    /// Self time from the profiling build (not counting called units or library calls).
    pub measured_self_s: f64,
}

/// One row of Saavedra-Barrera's table 6.1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramValidation {
    pub program: String,
    /// The corpus set the program belongs to (tune, check, holdout, real), when it came from one.
    #[serde(default)]
    pub set: Option<String>,
    pub file: String,
    pub predicted_s: f64,
    pub predicted_ci_low_s: f64,
    pub predicted_ci_high_s: f64,
    pub cpu_median_s: f64,
    pub cpu_min_s: f64,
    pub wall_median_s: f64,
    pub wall_min_s: f64,
    pub runs: usize,
    /// The CPU time of each run, in the order they ran (their spread is the host's noise).
    #[serde(default)]
    pub cpu_runs_s: Vec<f64>,
    /// The real time the prediction is set against: `cpu_min_s` or `cpu_median_s`, as
    /// [`RealTime::of`] picks for the characterization.
    #[serde(default)]
    pub real_s: f64,
    #[serde(default)]
    pub real_time: RealTime,
    /// (predicted - real) / real, in percent.
    pub error_percent: f64,
    pub uncharacterized_fraction: f64,
    pub units: Vec<PartComparison>,
    /// Directive regions, timed from a line profile of the same build (when it has them).
    #[serde(default)]
    pub regions: Vec<PartComparison>,
    /// The host's speed during the timed runs against the characterization's (its own tests'
    /// time now over then, `characterizer::HostSpeed`), when it was probed.
    #[serde(default)]
    pub host_speed: Option<f64>,
    /// The error of the prediction scaled by `host_speed`: what is left when the host's drift
    /// since the characterization is taken out.
    #[serde(default)]
    pub host_adjusted_error_percent: Option<f64>,
    #[serde(skip)]
    pub prediction: Option<Prediction>,
}

/// Which of the runs' CPU times is the real time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RealTime {
    /// The fastest run: the machine undisturbed, as a characterization by the minimum
    /// measures it.
    Minimum,
    /// The middle run (characterizations by the mean or the median).
    #[default]
    Median,
}

impl RealTime {
    /// Estimate the real time as the characterization estimated its tests: on a shared host
    /// the minimum of a characterization's observations moved by 3.5 % per parameter
    /// (median) between a busy and a quiet hour where the mean moved by 12.7 % (README,
    /// refinement 15), so a prediction from it is the undisturbed run time, and the fastest
    /// run is its measure.
    pub fn of(machine: &Characterization) -> Self {
        match machine.settings.statistic {
            Statistic::Min | Statistic::RoundMedian => RealTime::Minimum,
            Statistic::Mean | Statistic::Median => RealTime::Median,
        }
    }
    pub fn describe(self) -> &'static str {
        match self {
            RealTime::Minimum => "minimum CPU time of the runs",
            RealTime::Median => "median CPU time of the runs",
        }
    }
}

/// Seed table 7.2: how many predictions fall within 5, 10, 15 and 20 %.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidationSummary {
    pub programs: usize,
    pub within_5: usize,
    pub within_10: usize,
    pub within_15: usize,
    pub within_20: usize,
    pub mean_error_percent: f64,
    pub mean_abs_error_percent: f64,
    pub rms_error_percent: f64,
}

pub fn summarize(rows: &[ProgramValidation]) -> ValidationSummary {
    let errors: Vec<f64> = rows.iter().map(|r| r.error_percent).collect();
    summarize_errors(&errors)
}

/// The summary of the host-adjusted errors, when every row has one.
pub fn summarize_host_adjusted(rows: &[ProgramValidation]) -> Option<ValidationSummary> {
    let errors: Option<Vec<f64>> = rows.iter().map(|r| r.host_adjusted_error_percent).collect();
    errors
        .filter(|e| !e.is_empty())
        .map(|e| summarize_errors(&e))
}

fn summarize_errors(errors: &[f64]) -> ValidationSummary {
    let n = errors.len().max(1) as f64;
    let within = |lim: f64| errors.iter().filter(|e| e.abs() <= lim).count();
    ValidationSummary {
        programs: errors.len(),
        within_5: within(5.0),
        within_10: within(10.0),
        within_15: within(15.0),
        within_20: within(20.0),
        mean_error_percent: errors.iter().sum::<f64>() / n,
        mean_abs_error_percent: errors.iter().map(|e| e.abs()).sum::<f64>() / n,
        rms_error_percent: (errors.iter().map(|e| e.powi(2)).sum::<f64>() / n).sqrt(),
    }
}

impl ProgramValidation {
    /// The spread of the runs' CPU times, (max - min) / median, in percent: how far apart
    /// the same program's runs were (a shared host's noise), to set the error against.
    pub fn spread_percent(&self) -> f64 {
        let max = self.cpu_runs_s.iter().cloned().fold(f64::NAN, f64::max);
        let min = self.cpu_runs_s.iter().cloned().fold(f64::NAN, f64::min);
        100.0 * (max - min) / self.cpu_median_s
    }
}

/// Record the host's speed during the runs (time now over time at characterization) on a
/// system's rows, with each prediction's error once scaled by it.
pub fn apply_host_speed(rows: &mut [ProgramValidation], ratio: f64) {
    if !(ratio.is_finite() && ratio > 0.0) {
        return;
    }
    for r in rows {
        r.host_speed = Some(ratio);
        r.host_adjusted_error_percent = Some(100.0 * (r.predicted_s * ratio - r.real_s) / r.real_s);
    }
}

/// How far the host's speed may stray from the characterization's before the file is judged
/// not to describe the machine any more. Within a day of this project's shared host the probe
/// read 0.99-1.14x (docs/model.md, refinement 23); a new host read 0.77x, every prediction 30-50 %
/// high with the model's share unchanged.
pub const HOST_DRIFT_LIMIT: f64 = 0.15;

/// A warning when the probed host speed (time now over time at characterization) is more
/// than [`HOST_DRIFT_LIMIT`] away from 1: the errors are then mostly the machine's change,
/// not the model's, and the machine should be characterized again (Saavedra-Barrera's section 3: a
/// characterization describes one machine and compiler as they are).
pub fn host_drift_warning(ratio: f64) -> Option<String> {
    if !ratio.is_finite() || ratio <= 0.0 || (ratio - 1.0).abs() <= HOST_DRIFT_LIMIT {
        return None;
    }
    let how = if ratio < 1.0 { "faster" } else { "slower" };
    Some(format!(
        "this machine ran the characterization's own tests at {ratio:.2}x their recorded time \
         ({:.0} % {how} than when it was characterized): the file no longer describes the \
         machine as it is (another host, a changed clock or a busy neighbour), and the errors \
         above are mostly that change; characterize again (`opcost characterize` with the same \
         compiler and flags) before judging the model by them",
        100.0 * (1.0 - ratio).abs() / ratio.min(1.0)
    ))
}

/// Compile a program's sources with the system's compiler (plus `extra` flags) into `dir`.
fn compile(
    compiler: &Compiler,
    program: &ProgramSpec,
    dir: &Path,
    name: &str,
    extra: &[&str],
) -> Result<PathBuf, ValidateError> {
    let exe = dir.join(name);
    let sources = program
        .sources
        .iter()
        .map(std::fs::canonicalize)
        .collect::<Result<Vec<_>, _>>()?;
    compiler
        .build(&sources, &exe, extra)
        .map_err(|error| ValidateError::Compile {
            program: program.name.clone(),
            compiler: format!("{} {}", compiler.path.display(), compiler.flags.join(" ")),
            error,
        })?;
    Ok(exe)
}

/// One run of a program as its spec says (standard input, arguments, working directory),
/// with the stack its counting run had (`harness::raise_stack_limit`).
fn run_once(
    exe: &Path,
    program: &ProgramSpec,
    limit: Duration,
) -> Result<harness::RunOutput, ValidateError> {
    let input = match &program.stdin {
        Some(f) => Some(std::fs::read(f)?),
        None => None,
    };
    let mut cmd = Command::new(exe);
    harness::raise_stack_limit(&mut cmd);
    cmd.args(&program.args);
    if let Some(d) = &program.dir {
        cmd.current_dir(d);
    }
    harness::run_limited(&mut cmd, limit, input.as_deref()).map_err(|error| ValidateError::Run {
        program: program.name.clone(),
        error,
    })
}

/// Measured times of `runs` runs: (cpu seconds, wall seconds).
pub fn time_runs(
    exe: &Path,
    runs: usize,
    limit: Duration,
    program: &ProgramSpec,
) -> Result<(Vec<f64>, Vec<f64>), ValidateError> {
    let mut cpu = Vec::new();
    let mut wall = Vec::new();
    for _ in 0..runs {
        let out = run_once(exe, program, limit)?;
        if !out.success() {
            return Err(ValidateError::Failed {
                program: program.name.clone(),
                status: out.status.to_string(),
                stderr: out.stderr,
            });
        }
        cpu.push(out.cpu.total_s());
        wall.push(out.wall.as_secs_f64());
    }
    Ok((cpu, wall))
}

/// A gprof profile of one run: self seconds per unit and per source line.
#[derive(Debug, Default)]
struct Profile {
    units: Vec<(String, f64)>,
    lines: Vec<(String, u32, f64)>,
}

/// Profile one run of a `-pg -g` build with gprof: the flat profile per unit and, when
/// `by_line`, per source line (for directive regions).
fn profile(
    compiler: &Compiler,
    program: &ProgramSpec,
    dir: &Path,
    limit: Duration,
    by_line: bool,
) -> Result<Profile, ValidateError> {
    // Not every compiler can build for gprof (flang cannot): then there is no unit profile.
    let Ok(exe) = compile(
        compiler,
        program,
        dir,
        &format!("{}-pg", program.name),
        &["-pg", "-g"],
    ) else {
        return Ok(Profile::default());
    };
    // gmon.out is written to the run's working directory: run it in the build folder, with
    // input files found by absolute path.
    let mut here = program.clone();
    here.dir = Some(dir.to_path_buf());
    let out = run_once(&exe, &here, limit)?;
    if !out.success() {
        return Ok(Profile::default());
    }
    let gprof = |extra: &[&str]| -> Option<String> {
        let out = Command::new("gprof")
            .args(["-b", "-p"])
            .args(extra)
            .arg(&exe)
            .arg(dir.join("gmon.out"))
            .output()
            .ok()?;
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    Ok(Profile {
        units: gprof(&[]).map(|t| parse_gprof_flat(&t)).unwrap_or_default(),
        lines: if by_line {
            gprof(&["-l"])
                .map(|t| parse_gprof_lines(&t))
                .unwrap_or_default()
        } else {
            Vec::new()
        },
    })
}

/// Parse gprof's line-by-line flat profile (`-l`): `%time cumulative self name (file:line @
/// address)` into (file, line, self seconds).
pub fn parse_gprof_lines(text: &str) -> Vec<(String, u32, f64)> {
    flat_rows(text)
        .filter_map(|(self_s, _, line)| {
            let (_, place) = line.rsplit_once('(')?;
            let (file, rest) = place.split_once(':')?;
            let n = rest.split_whitespace().next()?.parse::<u32>().ok()?;
            Some((file.to_string(), n, self_s))
        })
        .collect()
}

/// The rows of a gprof flat profile (`%time cumulative self ... name`): self seconds, the
/// row's fields and the row itself; headers and blank lines are skipped.
fn flat_rows(text: &str) -> impl Iterator<Item = (f64, Vec<&str>, &str)> {
    text.lines().filter_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 || f[0].parse::<f64>().is_err() || f[1].parse::<f64>().is_err() {
            return None;
        }
        let self_s = f[2].parse::<f64>().ok()?;
        Some((self_s, f, line))
    })
}

/// Seconds of a line profile that fall in a region's lines (files matched by name, as gprof
/// gives them without directories).
pub fn region_seconds(spans: &[LineSpan], lines: &[(String, u32, f64)]) -> f64 {
    let base = |p: &str| {
        Path::new(p)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    lines
        .iter()
        .filter(|(file, n, _)| {
            spans
                .iter()
                .any(|s| base(&s.file) == base(file) && (s.first_line..=s.last_line).contains(n))
        })
        .map(|(_, _, t)| t)
        .sum()
}

/// Parse gprof's flat profile: `%time cumulative self [calls self/call total/call] name`.
/// gfortran names a unit `name_` and the main program `MAIN__`.
pub fn parse_gprof_flat(text: &str) -> Vec<(String, f64)> {
    flat_rows(text)
        .map(|(self_s, f, _)| {
            let raw = f[f.len() - 1];
            let unit = if raw == "MAIN__" {
                "MAIN".to_string()
            } else {
                raw.trim_end_matches('_').to_ascii_uppercase()
            };
            (unit, self_s)
        })
        .collect()
}

/// Self seconds for each unit name, from gprof's names. gfortran calls the main program
/// `MAIN__` whatever its name, so it goes to the first unit no other profile entry names.
pub fn match_units(units: &[String], measured: &[(String, f64)]) -> Vec<f64> {
    let mut out: Vec<Option<f64>> = units
        .iter()
        .map(|u| {
            let key = u.to_ascii_uppercase();
            measured.iter().find(|(n, _)| *n == key).map(|(_, s)| *s)
        })
        .collect();
    if let Some(main) = measured.iter().find(|(n, _)| n == "MAIN") {
        if let Some(slot) = out.iter_mut().find(|s| s.is_none()) {
            *slot = Some(main.1);
        }
    }
    out.into_iter().map(|s| s.unwrap_or(0.0)).collect()
}

/// A program made ready for timing: predicted, compiled, profiled.
pub struct PreparedProgram {
    pub name: String,
    pub spec: ProgramSpec,
    prediction: Prediction,
    exe: PathBuf,
    units: Vec<PartComparison>,
    regions: Vec<PartComparison>,
    /// Holds the executables until the program is finished.
    _dir: tempfile::TempDir,
}

/// Analyze a program dynamically with the characterization's compiler and flags plus the
/// program's own (the counting run simulates the branch predictor, rule 15). The flags the
/// program was finally built with (its own and any legacy flags the analyzer had to add) are
/// the analysis's `stats.program_flags`, and the system's compiler is returned with them, so
/// the timed build is the counted one.
pub(crate) fn analyze_for(
    program: &ProgramSpec,
    machine: &Characterization,
    time_limit: Duration,
) -> Result<(Compiler, analyzer::Analysis), ValidateError> {
    let failed = |e| ValidateError::Analyze {
        program: program.name.clone(),
        error: analyzer::AnalyzeError::Compiler(e),
    };
    let compiler =
        Compiler::find(Some(&machine.compiler.path), &machine.compiler.flags).map_err(failed)?;
    let analysis = analyzer::analyze_dynamic(
        &program.sources,
        &AnalyzeOptions {
            simulate_branches: true,
            program_name: Some(program.name.clone()),
            program_flags: program.flags.clone(),
            refuse_skipped: !program.keep_going,
            ..AnalyzeOptions::default()
        },
        &compiler,
        &RunSpec {
            time_limit,
            args: program.args.clone(),
            stdin: program.stdin.clone(),
            cwd: program.dir.clone(),
        },
    )
    .map_err(|error| ValidateError::Analyze {
        program: program.name.clone(),
        error,
    })?;
    let flags = [
        machine.compiler.flags.clone(),
        analysis.stats.program_flags.clone(),
    ]
    .concat();
    let compiler = Compiler::find(Some(&machine.compiler.path), &flags).map_err(failed)?;
    Ok((compiler, analysis))
}

/// Machines whose predictions one analysis can serve: all characterized with one compiler and
/// flags, else the first that differs is named.
pub fn one_system(machines: &[Characterization]) -> Result<(), ValidateError> {
    let system =
        |m: &Characterization| format!("{} {}", m.compiler.path, m.compiler.flags.join(" "));
    let Some(first) = machines.first() else {
        return Ok(());
    };
    match machines.iter().find(|m| system(m) != system(first)) {
        Some(other) => Err(ValidateError::SystemsDiffer {
            first: system(first),
            other: system(other),
        }),
        None => Ok(()),
    }
}

/// A program's predicted run time on each of `machines`, seconds, from one dynamic analysis
/// (no timed runs): what `rescore` sets against earlier validations' real times. The analysis
/// is built with the first machine's compiler and flags, so the machines must be
/// [`one_system`] (`machines` must not be empty).
pub fn predict_source(
    program: &ProgramSpec,
    machines: &[Characterization],
    time_limit: Duration,
) -> Result<Vec<f64>, ValidateError> {
    one_system(machines)?;
    let (_, analysis) = analyze_for(program, &machines[0], time_limit)?;
    machines
        .iter()
        .map(|m| Ok(predict_program(&analysis.stats, m)?.total.seconds()))
        .collect()
}

/// Analyze (dynamic counts), predict, compile with the machine's compiler and flags, and
/// (with `opts.profile_units`) time its units and regions with a gprof build.
pub fn prepare_program(
    program: &ProgramSpec,
    machine: &Characterization,
    opts: &ValidateOptions,
) -> Result<PreparedProgram, ValidateError> {
    let (compiler, analysis) = analyze_for(program, machine, opts.time_limit)?;
    let prediction = predict_program(&analysis.stats, machine)?;
    let dir = tempfile::Builder::new()
        .prefix("opcost-validate-")
        .tempdir()?;
    let exe = compile(&compiler, program, dir.path(), &program.name, &[])?;
    let (units, regions) = if opts.profile_units {
        let regions = &analysis.stats.regions;
        let measured = profile(
            &compiler,
            program,
            dir.path(),
            opts.time_limit,
            !regions.is_empty(),
        )?;
        let names: Vec<String> = prediction.units.iter().map(|u| u.name.clone()).collect();
        let times = match_units(&names, &measured.units);
        let units = prediction
            .units
            .iter()
            .zip(times)
            .map(|(u, m)| PartComparison {
                name: u.name.clone(),
                predicted_s: u.seconds(),
                measured_self_s: m,
            })
            .collect();
        let regions = if measured.lines.is_empty() {
            Vec::new()
        } else {
            prediction
                .regions
                .iter()
                .zip(regions)
                .map(|(p, r)| PartComparison {
                    name: p.name.clone(),
                    predicted_s: p.seconds(),
                    measured_self_s: region_seconds(&r.spans, &measured.lines),
                })
                .collect()
        };
        (units, regions)
    } else {
        (Vec::new(), Vec::new())
    };
    Ok(PreparedProgram {
        name: program.name.clone(),
        spec: program.clone(),
        prediction,
        exe,
        units,
        regions,
        _dir: dir,
    })
}

/// CPU and wall seconds of a program's runs.
pub type RunTimes = (Vec<f64>, Vec<f64>);

/// One round of timing: one run of each prepared program that has not failed yet, its times
/// added to its entry of `times` (a failing run turns the entry into its error: the program
/// sits out the later rounds, the others go on). `on_run` is called after each run.
/// Rounds alternate the programs so that a slow phase of a shared machine falls on every
/// program rather than on the runs of one (the back-to-back alternation of Whaley & Castaldo
/// section 6).
pub fn time_one_round(
    programs: &[PreparedProgram],
    times: &mut [Result<RunTimes, ValidateError>],
    limit: Duration,
    mut on_run: impl FnMut(&str),
) {
    for (p, t) in programs.iter().zip(times.iter_mut()) {
        let Ok(so_far) = t else { continue };
        match time_runs(&p.exe, 1, limit, &p.spec) {
            Ok((cpu, wall)) => {
                so_far.0.extend(cpu);
                so_far.1.extend(wall);
            }
            Err(e) => *t = Err(e),
        }
        on_run(&p.name);
    }
}

/// A program that could not be validated: where it failed and why. A batch reports it and
/// goes on with the others.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailedProgram {
    pub program: String,
    #[serde(default)]
    pub set: Option<String>,
    pub file: String,
    pub error: String,
}

impl FailedProgram {
    pub fn new(program: &ProgramSpec, error: &ValidateError) -> Self {
        FailedProgram {
            program: program.name.clone(),
            set: program.set.clone(),
            file: program.main_source().display().to_string(),
            error: error.to_string(),
        }
    }
}

/// Seed table 7.2 for one corpus set, with how many of its programs failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetSummary {
    pub set: String,
    pub failed: usize,
    pub summary: ValidationSummary,
}

/// Seed table 7.2 per corpus set, in report order: `errors` holds each program's set and
/// error (percent), `failed` the set of each program that could not be validated.
pub fn summaries_by_set(errors: &[(String, f64)], failed: &[String]) -> Vec<SetSummary> {
    let mut names: Vec<String> = errors
        .iter()
        .map(|(s, _)| s.clone())
        .chain(failed.iter().cloned())
        .collect();
    crate::corpus::sort_sets(&mut names);
    names
        .into_iter()
        .map(|set| {
            let mine: Vec<f64> = errors
                .iter()
                .filter(|(s, _)| *s == set)
                .map(|(_, e)| *e)
                .collect();
            SetSummary {
                failed: failed.iter().filter(|f| **f == set).count(),
                summary: summarize_errors(&mine),
                set,
            }
        })
        .collect()
}

/// Per-set summaries of one system's validation; programs without a set are summarized as
/// [`crate::corpus::NO_SET`].
pub fn summarize_sets(rows: &[ProgramValidation], failed: &[FailedProgram]) -> Vec<SetSummary> {
    let errors: Vec<(String, f64)> = rows
        .iter()
        .map(|r| (crate::corpus::set_name(&r.set), r.error_percent))
        .collect();
    let failed: Vec<String> = failed
        .iter()
        .map(|f| crate::corpus::set_name(&f.set))
        .collect();
    summaries_by_set(&errors, &failed)
}

/// One system's validation as `opcost validate --json` writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidationDocument {
    /// The characterization file.
    pub machine: String,
    pub summary: ValidationSummary,
    pub host_adjusted_summary: Option<ValidationSummary>,
    pub sets: Vec<SetSummary>,
    pub failed: Vec<FailedProgram>,
    pub programs: Vec<ProgramValidation>,
}

impl ValidationDocument {
    pub fn new(machine: &Path, result: &SystemValidation) -> Self {
        ValidationDocument {
            machine: machine.display().to_string(),
            summary: summarize(&result.rows),
            host_adjusted_summary: summarize_host_adjusted(&result.rows),
            sets: summarize_sets(&result.rows, &result.failed),
            failed: result.failed.clone(),
            programs: result.rows.clone(),
        }
    }
}

/// Per-set figures over several validations of the same corpus: each field the median over
/// the validations (the host's noise moves single runs; a benchmark reports the middle).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CombinedSets {
    pub validations: usize,
    pub sets: Vec<SetSummary>,
}

/// The per-set summaries of one system's validation JSON (as `opcost validate --json` writes it).
pub fn read_validation_sets(text: &str) -> Result<Vec<SetSummary>, serde_json::Error> {
    #[derive(Deserialize)]
    struct Document {
        sets: Vec<SetSummary>,
    }
    serde_json::from_str::<Document>(text).map(|d| d.sets)
}

/// Combine the per-set summaries of several validations (each a list of [`SetSummary`]) into
/// their medians, set by set.
pub fn combine_sets(validations: &[Vec<SetSummary>]) -> CombinedSets {
    let mut names: Vec<String> = validations
        .iter()
        .flatten()
        .map(|s| s.set.clone())
        .collect();
    crate::corpus::sort_sets(&mut names);
    let sets = names
        .into_iter()
        .map(|name| {
            let of: Vec<&SetSummary> = validations
                .iter()
                .flatten()
                .filter(|s| s.set == name)
                .collect();
            let med = |f: &dyn Fn(&SetSummary) -> f64| {
                median(&of.iter().map(|s| f(s)).collect::<Vec<_>>())
            };
            let count = |f: &dyn Fn(&SetSummary) -> usize| med(&|s| f(s) as f64).round() as usize;
            SetSummary {
                failed: count(&|s| s.failed),
                summary: ValidationSummary {
                    programs: count(&|s| s.summary.programs),
                    within_5: count(&|s| s.summary.within_5),
                    within_10: count(&|s| s.summary.within_10),
                    within_15: count(&|s| s.summary.within_15),
                    within_20: count(&|s| s.summary.within_20),
                    mean_error_percent: med(&|s| s.summary.mean_error_percent),
                    mean_abs_error_percent: med(&|s| s.summary.mean_abs_error_percent),
                    rms_error_percent: med(&|s| s.summary.rms_error_percent),
                },
                set: name,
            }
        })
        .collect();
    CombinedSets {
        validations: validations.len(),
        sets,
    }
}

/// What a batch validation is doing, for a progress display.
pub enum Progress<'a> {
    /// Analyzing, predicting and compiling a program for a system.
    Preparing { program: &'a str, system: &'a str },
    /// A program is predicted; its prediction's warnings (those `predict` gives).
    Predicted {
        program: &'a str,
        warnings: &'a [String],
    },
    /// A program failed (it is left out of the rest of the batch).
    Failed(&'a FailedProgram),
    /// One timed run of a program finished.
    Ran(&'a str),
    /// A round of runs finished: every system's results so far, each program's row from
    /// its runs up to now (to be saved, so an interrupted batch keeps what it measured).
    Round(&'a [SystemValidation]),
}

/// One system's results of a batch validation.
#[derive(Debug, Default)]
pub struct SystemValidation {
    pub rows: Vec<ProgramValidation>,
    pub failed: Vec<FailedProgram>,
    /// The host's speed against the characterization, per round where it was probed.
    pub host_speeds: Vec<f64>,
}

/// Validate every program on every system: analyze, predict and compile each, then time them
/// all in rounds so the systems' real times come from the same stretch of time. A program
/// that fails at any stage is reported through `progress` and in the result, and the others
/// go on; after each round `progress` gets the results so far. `probe(round, system)`
/// measures the host's speed before each round (None: not measured).
pub fn validate_systems(
    machines: &[Characterization],
    programs: &[ProgramSpec],
    opts: &ValidateOptions,
    mut progress: impl FnMut(Progress),
    mut probe: impl FnMut(usize, usize) -> Option<f64>,
) -> Result<Vec<SystemValidation>, ValidateError> {
    let mut prepared_failures: Vec<Vec<FailedProgram>> =
        machines.iter().map(|_| Vec::new()).collect();
    let mut prepared = Vec::new();
    let mut owner = Vec::new();
    for (k, machine) in machines.iter().enumerate() {
        let system = machine.compiler.tag();
        for p in programs {
            progress(Progress::Preparing {
                program: &p.name,
                system: &system,
            });
            match prepare_program(p, machine, opts) {
                Ok(ready) => {
                    progress(Progress::Predicted {
                        program: &p.name,
                        warnings: &ready.prediction.warnings,
                    });
                    prepared.push(ready);
                    owner.push(k);
                }
                Err(e) => {
                    let f = FailedProgram::new(p, &e);
                    progress(Progress::Failed(&f));
                    prepared_failures[k].push(f);
                }
            }
        }
    }
    let mut times: Vec<Result<RunTimes, ValidateError>> = prepared
        .iter()
        .map(|_| Ok((Vec::new(), Vec::new())))
        .collect();
    let mut speeds: Vec<Vec<f64>> = machines.iter().map(|_| Vec::new()).collect();
    let mut results = Vec::new();
    for round in 0..opts.runs.max(1) {
        for (k, s) in speeds.iter_mut().enumerate() {
            s.extend(probe(round, k));
        }
        time_one_round(&prepared, &mut times, opts.time_limit, |name| {
            progress(Progress::Ran(name))
        });
        results = results_so_far(
            machines,
            &prepared,
            &owner,
            &times,
            &prepared_failures,
            &speeds,
        );
        progress(Progress::Round(&results));
    }
    Ok(results)
}

/// Every system's results from the runs made so far: a row for each program with runs, a
/// failure for each program that failed, the host's speed applied where it was probed.
fn results_so_far(
    machines: &[Characterization],
    prepared: &[PreparedProgram],
    owner: &[usize],
    times: &[Result<RunTimes, ValidateError>],
    prepared_failures: &[Vec<FailedProgram>],
    speeds: &[Vec<f64>],
) -> Vec<SystemValidation> {
    let mut results: Vec<SystemValidation> = prepared_failures
        .iter()
        .zip(speeds)
        .map(|(failed, speeds)| SystemValidation {
            rows: Vec::new(),
            failed: failed.clone(),
            host_speeds: speeds.clone(),
        })
        .collect();
    for ((p, t), &k) in prepared.iter().zip(times).zip(owner) {
        match t {
            Ok((cpu, wall)) if !cpu.is_empty() => {
                let row = finish_program(p, cpu, wall, RealTime::of(&machines[k]));
                if row.error_percent.is_finite() {
                    results[k].rows.push(row);
                } else {
                    let e = ValidateError::TooShort {
                        program: p.name.clone(),
                        seconds: row.real_s,
                    };
                    results[k].failed.push(FailedProgram::new(&p.spec, &e));
                }
            }
            Ok(_) => {}
            Err(e) => results[k].failed.push(FailedProgram::new(&p.spec, e)),
        }
    }
    for r in &mut results {
        if !r.host_speeds.is_empty() {
            apply_host_speed(&mut r.rows, median(&r.host_speeds));
        }
    }
    results
}

/// The validation row of a prepared program from its timed runs.
pub fn finish_program(
    p: &PreparedProgram,
    cpu: &[f64],
    wall: &[f64],
    real_time: RealTime,
) -> ProgramValidation {
    let cpu_min = cpu.iter().cloned().fold(f64::INFINITY, f64::min);
    let cpu_median = median(cpu);
    let real = match real_time {
        RealTime::Minimum => cpu_min,
        RealTime::Median => cpu_median,
    };
    let predicted = p.prediction.total.seconds();
    ProgramValidation {
        program: p.name.clone(),
        set: p.spec.set.clone(),
        file: p.spec.main_source().display().to_string(),
        predicted_s: predicted,
        predicted_ci_low_s: p.prediction.total.time.ci_low_ns * 1e-9,
        predicted_ci_high_s: p.prediction.total.time.ci_high_ns * 1e-9,
        cpu_median_s: cpu_median,
        cpu_min_s: cpu_min,
        wall_median_s: median(wall),
        wall_min_s: wall.iter().cloned().fold(f64::INFINITY, f64::min),
        runs: cpu.len(),
        cpu_runs_s: cpu.to_vec(),
        real_s: real,
        real_time,
        error_percent: 100.0 * (predicted - real) / real,
        uncharacterized_fraction: p.prediction.total.uncharacterized_fraction,
        units: p.units.clone(),
        regions: p.regions.clone(),
        host_speed: None,
        host_adjusted_error_percent: None,
        prediction: Some(p.prediction.clone()),
    }
}

/// The validation table as CSV (one row per program; `program,real_s,` first, which
/// `--against` reads back).
pub fn validation_csv(rows: &[ProgramValidation]) -> Result<String, csv::Error> {
    validation_table(rows).to_csv()
}

/// The validation table, one row per program (Saavedra-Barrera's table 6.1).
pub fn validation_table(rows: &[ProgramValidation]) -> export::Table {
    let mut t = export::Table::new(&[
        export::columns::PROGRAM,
        "real_s",
        "real_is",
        "real_cpu_median_s",
        "real_cpu_min_s",
        "real_wall_median_s",
        "real_wall_min_s",
        "predicted_s",
        "predicted_ci_low_s",
        "predicted_ci_high_s",
        "error_percent",
        "uncharacterized_fraction",
        "runs",
        "host_speed",
        "host_adjusted_error_percent",
        "runs_spread_percent",
    ]);
    for r in rows {
        t.push(vec![
            r.program.clone(),
            format!("{:.4}", r.real_s),
            match r.real_time {
                RealTime::Minimum => "cpu_min".to_string(),
                RealTime::Median => "cpu_median".to_string(),
            },
            format!("{:.4}", r.cpu_median_s),
            format!("{:.4}", r.cpu_min_s),
            format!("{:.4}", r.wall_median_s),
            format!("{:.4}", r.wall_min_s),
            format!("{:.4}", r.predicted_s),
            format!("{:.4}", r.predicted_ci_low_s),
            format!("{:.4}", r.predicted_ci_high_s),
            format!("{:.2}", r.error_percent),
            format!("{:.5}", r.uncharacterized_fraction),
            r.runs.to_string(),
            r.host_speed.map(|h| format!("{h:.4}")).unwrap_or_default(),
            r.host_adjusted_error_percent
                .map(|e| format!("{e:.2}"))
                .unwrap_or_default(),
            format!("{:.1}", r.spread_percent()),
        ]);
    }
    t
}

/// Read a validation CSV back: (program, real CPU seconds).
pub fn read_validation_csv(text: &str) -> Result<Vec<(String, f64)>, csv::Error> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec?;
        let real = rec
            .get(1)
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(f64::NAN);
        out.push((rec.get(0).unwrap_or_default().to_string(), real));
    }
    Ok(out)
}

/// One earlier validation's real times against the predictions being scored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RescoredSet {
    /// Where the real times came from (the CSV's path).
    pub name: String,
    pub summary: ValidationSummary,
    /// (program, error %) for every program both sides have.
    pub errors: Vec<(String, f64)>,
}

/// One program's errors over all the sets that ran it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramRescore {
    pub program: String,
    pub predicted_s: f64,
    pub sets: usize,
    /// None (null) for a program none of the sets has a real time of.
    pub mean_error_percent: Option<f64>,
    pub min_error_percent: Option<f64>,
    pub max_error_percent: Option<f64>,
}

/// Predictions scored against the real times of earlier validations (Saavedra-Barrera's section 6.3:
/// a changed model or characterization checked against runs already made, without making
/// them again; the host's noise shows as the spread over the sets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rescore {
    pub sets: Vec<RescoredSet>,
    pub programs: Vec<ProgramRescore>,
    /// Seed table 7.2 over every (set, program) pair.
    pub overall: ValidationSummary,
}

/// Score `predicted` (program, seconds) against each set of (program, real seconds); programs
/// a set lacks, or whose real time is not a positive number, are left out of that set.
pub fn rescore(predicted: &[(String, f64)], sets: &[(String, Vec<(String, f64)>)]) -> Rescore {
    let mut all = Vec::new();
    let mut per_program: Vec<Vec<f64>> = vec![Vec::new(); predicted.len()];
    let sets = sets
        .iter()
        .map(|(name, reals)| {
            let mut errors = Vec::new();
            for ((program, pred), mine) in predicted.iter().zip(per_program.iter_mut()) {
                let real = reals.iter().find(|(p, _)| p == program).map(|r| r.1);
                if let Some(real) = real.filter(|r| r.is_finite() && *r > 0.0) {
                    let e = 100.0 * (pred - real) / real;
                    errors.push((program.clone(), e));
                    mine.push(e);
                    all.push(e);
                }
            }
            let e: Vec<f64> = errors.iter().map(|x| x.1).collect();
            RescoredSet {
                name: name.clone(),
                summary: summarize_errors(&e),
                errors,
            }
        })
        .collect();
    let programs = predicted
        .iter()
        .zip(&per_program)
        .map(|((program, pred), e)| ProgramRescore {
            program: program.clone(),
            predicted_s: *pred,
            sets: e.len(),
            mean_error_percent: (!e.is_empty()).then(|| e.iter().sum::<f64>() / e.len() as f64),
            min_error_percent: e.iter().cloned().reduce(f64::min),
            max_error_percent: e.iter().cloned().reduce(f64::max),
        })
        .collect();
    Rescore {
        sets,
        programs,
        overall: summarize_errors(&all),
    }
}

/// Seed table 7.2 per corpus set from a rescore: each program's mean error over the sets of
/// real times; `failed` names the programs that could not be analyzed.
pub fn rescore_by_set(r: &Rescore, programs: &[ProgramSpec], failed: &[String]) -> Vec<SetSummary> {
    let set_of = |name: &str| {
        crate::corpus::set_name(
            &programs
                .iter()
                .find(|p| p.name == name)
                .and_then(|p| p.set.clone()),
        )
    };
    let errors: Vec<(String, f64)> = r
        .programs
        .iter()
        .filter_map(|p| Some((set_of(&p.program), p.mean_error_percent?)))
        .collect();
    let failed: Vec<String> = failed.iter().map(|f| set_of(f)).collect();
    summaries_by_set(&errors, &failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combined_sets_take_the_median_of_each_figure() {
        let set = |name: &str, failed, w10, mae| SetSummary {
            set: name.into(),
            failed,
            summary: ValidationSummary {
                programs: 20,
                within_5: 1,
                within_10: w10,
                within_15: 15,
                within_20: 18,
                mean_error_percent: 0.0,
                mean_abs_error_percent: mae,
                rms_error_percent: mae,
            },
        };
        let c = combine_sets(&[
            vec![set("check", 0, 10, 9.0), set("tune", 1, 5, 3.0)],
            vec![set("check", 2, 14, 12.0)],
            vec![set("check", 1, 12, 30.0)],
        ]);
        assert_eq!(c.validations, 3);
        assert_eq!(c.sets[0].set, "tune");
        let check = &c.sets[1];
        assert_eq!((check.failed, check.summary.within_10), (1, 12));
        assert_eq!(check.summary.mean_abs_error_percent, 12.0);
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(read_validation_sets(&text).unwrap(), c.sets);
        assert!(read_validation_sets("{}").is_err());
    }

    fn row(err: f64) -> ProgramValidation {
        ProgramValidation {
            program: "p".into(),
            set: None,
            file: "p.f".into(),
            predicted_s: 1.0 + err / 100.0,
            predicted_ci_low_s: 0.0,
            predicted_ci_high_s: 0.0,
            cpu_median_s: 1.0,
            cpu_min_s: 1.0,
            wall_median_s: 1.0,
            wall_min_s: 1.0,
            runs: 3,
            cpu_runs_s: vec![1.0; 3],
            real_s: 1.0,
            real_time: RealTime::Median,
            error_percent: err,
            uncharacterized_fraction: 0.0,
            units: vec![],
            regions: vec![],
            host_speed: None,
            host_adjusted_error_percent: None,
            prediction: None,
        }
    }

    #[test]
    fn summary_counts_like_table_7_2() {
        let s = summarize(&[row(3.0), row(-8.0), row(12.0), row(-19.0), row(40.0)]);
        assert_eq!(
            (s.within_5, s.within_10, s.within_15, s.within_20),
            (1, 2, 3, 4)
        );
        assert!((s.mean_error_percent - 5.6).abs() < 1e-9);
        assert!((s.mean_abs_error_percent - 16.4).abs() < 1e-9);
    }

    #[test]
    fn gprof_flat_profile_is_parsed() {
        let text = "Flat profile:\n\nEach sample counts as 0.01 seconds.\n  %   cumulative   self              self     total\n time   seconds   seconds    calls  ms/call  ms/call  name\n 60.00      0.06     0.06        1    60.00    90.00  sgefa_\n 30.00      0.09     0.03                             MAIN__\n 10.00      0.10     0.01   100000     0.00     0.00  saxpy_\n";
        let p = parse_gprof_flat(text);
        assert_eq!(
            p,
            vec![
                ("SGEFA".into(), 0.06),
                ("MAIN".into(), 0.03),
                ("SAXPY".into(), 0.01)
            ]
        );
    }

    #[test]
    fn main_program_gets_gprofs_main() {
        let units = vec![
            "LINPAK".to_string(),
            "SGEFA".to_string(),
            "SAXPY".to_string(),
        ];
        let m = vec![("SGEFA".to_string(), 2.0), ("MAIN".to_string(), 0.5)];
        assert_eq!(match_units(&units, &m), vec![0.5, 2.0, 0.0]);
    }

    #[test]
    fn a_line_profile_times_regions() {
        let text = "Flat profile:\n\nEach sample counts as 0.01 seconds.\n  %   cumulative   self              self     total\n time   seconds   seconds    calls  Ts/call  Ts/call  name\n  5.17      0.14     0.14                             MAIN__ (lvr.f:697 @ 6bcc)\n  4.80      0.27     0.13                             MAIN__ (lvr.f:160 @ 1c6e)\n  1.00      0.30     0.03                             fill_ (other.f:160 @ 1c00)\n";
        let lines = parse_gprof_lines(text);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], ("lvr.f".to_string(), 697, 0.14));
        let span = |first, last| LineSpan {
            file: "/some/dir/lvr.f".into(),
            first_line: first,
            last_line: last,
        };
        assert!((region_seconds(&[span(150, 170)], &lines) - 0.13).abs() < 1e-12);
        assert!((region_seconds(&[span(150, 170), span(690, 700)], &lines) - 0.27).abs() < 1e-12);
        assert_eq!(region_seconds(&[span(1, 100)], &lines), 0.0);
        // The unit profile's parser leaves line entries' names alone.
        assert!(parse_gprof_flat("Flat profile:\n").is_empty());
    }

    #[test]
    fn csv_round_trips() {
        let csv = validation_csv(&[row(5.0)]).unwrap();
        let back = read_validation_csv(&csv).unwrap();
        assert_eq!(back, vec![("p".to_string(), 1.0)]);
    }

    #[test]
    fn rescore_sets_predictions_against_each_earlier_set() {
        let predicted = vec![("a".to_string(), 1.08), ("b".to_string(), 2.05)];
        let sets = vec![
            (
                "one.csv".to_string(),
                vec![("a".to_string(), 1.0), ("b".to_string(), 2.5)],
            ),
            // b missing, a's real time unusable in the third: left out, not zeros.
            ("two.csv".to_string(), vec![("a".to_string(), 1.25)]),
            ("three.csv".to_string(), vec![("a".to_string(), f64::NAN)]),
        ];
        let r = rescore(&predicted, &sets);
        assert_eq!(r.sets.len(), 3);
        let e1: Vec<f64> = r.sets[0].errors.iter().map(|e| e.1).collect();
        assert!((e1[0] - 8.0).abs() < 1e-9 && (e1[1] + 18.0).abs() < 1e-9);
        assert_eq!(r.sets[0].summary.within_10, 1);
        assert_eq!(r.sets[0].summary.within_20, 2);
        assert_eq!(r.sets[1].errors.len(), 1);
        assert!((r.sets[1].errors[0].1 + 13.6).abs() < 1e-9);
        assert!(r.sets[2].errors.is_empty());
        assert_eq!(r.programs[0].sets, 2);
        assert!((r.programs[0].mean_error_percent.unwrap() + 2.8).abs() < 1e-9);
        assert!((r.programs[0].min_error_percent.unwrap() + 13.6).abs() < 1e-9);
        assert!((r.programs[0].max_error_percent.unwrap() - 8.0).abs() < 1e-9);
        assert_eq!(r.programs[1].sets, 1);
        assert_eq!(r.overall.programs, 3);
        assert_eq!(r.overall.within_10, 1);
        assert_eq!(r.overall.within_15, 2);
    }

    #[test]
    fn a_host_far_from_its_characterization_is_named() {
        // Within the limit (a day's wander on the shared host): no warning.
        for r in [0.9, 1.0, 1.14] {
            assert_eq!(host_drift_warning(r), None, "{r}");
        }
        // A host that runs the tests in 0.77 of their time is 30 % faster; at 1.2x, 20 % slower.
        let fast = host_drift_warning(0.77).unwrap();
        assert!(
            fast.contains("0.77x") && fast.contains("30 % faster"),
            "{fast}"
        );
        assert!(fast.contains("characterize again"), "{fast}");
        let slow = host_drift_warning(1.2).unwrap();
        assert!(slow.contains("20 % slower"), "{slow}");
        assert_eq!(host_drift_warning(f64::NAN), None);
        assert_eq!(host_drift_warning(0.0), None);
    }

    #[test]
    fn host_speed_scales_the_prediction_and_keeps_the_error() {
        // Predicted 1.2 s against 1.0 s real: +20 %; a host running 10 % slow makes the scaled
        // prediction 1.32 s (+32 %), one running 20 % fast 0.96 s (-4 %).
        let mut rows = vec![row(20.0)];
        apply_host_speed(&mut rows, 1.1);
        assert!((rows[0].error_percent - 20.0).abs() < 1e-9);
        assert!((rows[0].host_adjusted_error_percent.unwrap() - 32.0).abs() < 1e-9);
        apply_host_speed(&mut rows, 0.8);
        assert!((rows[0].host_adjusted_error_percent.unwrap() + 4.0).abs() < 1e-9);
        let s = summarize_host_adjusted(&rows).unwrap();
        assert_eq!((s.within_5, s.programs), (1, 1));
        // A missing or nonsensical ratio changes nothing.
        let mut fresh = vec![row(20.0)];
        apply_host_speed(&mut fresh, f64::NAN);
        assert_eq!(fresh[0].host_adjusted_error_percent, None);
        assert!(summarize_host_adjusted(&fresh).is_none());
    }

    #[test]
    fn default_outputs_are_named_by_the_machine_file_in_the_results_folder() {
        let (csv, svg) =
            default_outputs(Path::new("results"), Path::new("/x/amd--gfortran-O0.json"));
        assert_eq!(csv, Path::new("results/validation-amd--gfortran-O0.csv"));
        assert_eq!(svg, Path::new("results/validation-amd--gfortran-O0.svg"));
    }

    #[test]
    fn against_reads_a_folder_of_validations_in_name_order_and_refuses_others() {
        let dir = tempfile::tempdir().unwrap();
        let header = "program,real_s,cpu_median_s\n";
        std::fs::write(dir.path().join("b.csv"), format!("{header}sieve,2.0,2.0\n")).unwrap();
        std::fs::write(
            dir.path().join("a.csv"),
            format!("{header}mandel,1.0,1.0\n"),
        )
        .unwrap();
        let sets = read_against_sets(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(sets.len(), 2);
        assert!(sets[0].0.ends_with("a.csv"));
        assert_eq!(programs_held(&sets), vec!["mandel", "sieve"]);
        let empty = tempfile::tempdir().unwrap();
        let e = read_against_sets(&[empty.path().to_path_buf()]).unwrap_err();
        assert!(e.to_string().ends_with("holds no .csv files"), "{e}");
        let other = dir.path().join("other.txt");
        std::fs::write(&other, "x,y\n").unwrap();
        let e = read_against(&other).unwrap_err();
        assert!(e.to_string().contains("is not a validation CSV"), "{e}");
        let none = dir.path().join("none.csv");
        std::fs::write(&none, header).unwrap();
        assert!(read_against(&none)
            .unwrap_err()
            .to_string()
            .ends_with("has no programs"));
    }
}

/// The default CSV table and SVG chart of a system's validation:
/// `<results_dir>/validation-<machine file stem>.csv` and `.svg`.
pub fn default_outputs(results_dir: &Path, machine: &Path) -> (PathBuf, PathBuf) {
    let stem = machine
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "machine".into());
    (
        results_dir.join(format!("validation-{stem}.csv")),
        results_dir.join(format!("validation-{stem}.svg")),
    )
}

/// Why earlier validations' real times cannot be read (`--against`).
#[derive(Debug, Error)]
pub enum AgainstError {
    #[error("cannot read {}: {error}", path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{} holds no .csv files", path.display())]
    NoCsv { path: PathBuf },
    #[error("{} is not a validation CSV (written by `opcost validate`): its header should begin \"program,real_s,\"", path.display())]
    NotValidation { path: PathBuf },
    #[error("{}: {error}", path.display())]
    Csv { path: PathBuf, error: csv::Error },
    #[error("{} has no programs", path.display())]
    Empty { path: PathBuf },
}

/// An earlier validation's real times: (program, real seconds) from its CSV.
pub fn read_against(path: &Path) -> Result<Vec<(String, f64)>, AgainstError> {
    let text = std::fs::read_to_string(path).map_err(|error| AgainstError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    if !text.starts_with("program,real_s,") {
        return Err(AgainstError::NotValidation {
            path: path.to_path_buf(),
        });
    }
    let rows = read_validation_csv(&text).map_err(|error| AgainstError::Csv {
        path: path.to_path_buf(),
        error,
    })?;
    if rows.is_empty() {
        return Err(AgainstError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(rows)
}

/// The real times of earlier validations, one set per CSV named by its path; a folder stands
/// for the CSVs in it, in name order.
#[allow(clippy::type_complexity)]
pub fn read_against_sets(
    paths: &[PathBuf],
) -> Result<Vec<(String, Vec<(String, f64)>)>, AgainstError> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut csvs: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|error| AgainstError::Read {
                    path: p.clone(),
                    error,
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "csv"))
                .collect();
            if csvs.is_empty() {
                return Err(AgainstError::NoCsv { path: p.clone() });
            }
            csvs.sort();
            files.extend(csvs);
        } else {
            files.push(p.clone());
        }
    }
    files
        .iter()
        .map(|p| Ok((p.display().to_string(), read_against(p)?)))
        .collect()
}

/// The programs the real-time sets hold, sorted, each once.
pub fn programs_held(sets: &[(String, Vec<(String, f64)>)]) -> Vec<String> {
    let mut held: Vec<String> = sets
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(|(p, _)| p.clone()))
        .collect();
    held.sort_unstable();
    held.dedup();
    held
}

//! The system characterizer (Saavedra-Barrera's sections 3-4): generates Fortran test programs shaped
//! like Saavedra-Barrera's figure 4.4, compiles them with the real compiler, runs them as real
//! processes under a time limit, and turns the observations into the 74 parameters with 90 %
//! confidence intervals.
//!
//! ```no_run
//! use characterizer::{Options, run};
//! use std::sync::atomic::AtomicBool;
//! let compiler = harness::Compiler::find(None, &["-O0".to_string()]).unwrap();
//! let mut result = characterizer::new_characterization(&compiler, &Options::quick());
//! run(&compiler, &Options::quick(), &mut result, &AtomicBool::new(false), |_, _| {}).unwrap();
//! ```

pub mod experiments;
pub mod fortran;
pub mod session;
pub mod stats;

use experiments::{Experiment, Group, LOOP_EXPERIMENT};
use harness::{CompileError, Compiler, RunError};
use model::characterization::{
    Characterization, ExperimentRecord, ParameterResult, RunSettings, SelfCheck, Statistic,
    TestKind, TimerInfo,
};
use model::{Estimate, Param};
use stats::{BodyTime, Measured};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CharacterizeError {
    #[error("the generated test for {what} does not compile:\n{error}")]
    Compile { what: String, error: CompileError },
    #[error("experiment {experiment} (for {params}) failed: {detail}")]
    TestFailed {
        experiment: String,
        params: String,
        detail: String,
    },
    #[error("experiment {experiment} (for {params}): {error}")]
    Run {
        experiment: String,
        params: String,
        error: RunError,
    },
    #[error("experiment {experiment} (for {params}) measured the wrong thing: an operand went to Inf, NaN or a denormal ({detail}); this is a bug in the test, please report it")]
    RangeGuard {
        experiment: String,
        params: String,
        detail: String,
    },
    #[error("interrupted after {done} of {total} experiments")]
    Interrupted { done: usize, total: usize },
    #[error("{0}")]
    Solve(#[from] stats::SolveError),
    #[error("cannot write generated tests to {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("unknown parameter {0}: see `opcost characterize --help` for the mnemonics")]
    UnknownParameter(String),
}

/// Settings of a run.
#[derive(Debug, Clone)]
pub struct Options {
    pub tmax_s: f64,
    pub repeat: usize,
    pub statistic: Statistic,
    pub quick: bool,
    /// Measure only these parameters (and what they need).
    pub only: Option<Vec<Param>>,
    /// Skip the self-check.
    pub no_self_check: bool,
    /// Where generated sources and binaries are kept (`target/opcost` by default).
    pub cache_dir: PathBuf,
    /// Processes per experiment: its observations are split over `rounds` runs, one round
    /// over all experiments after the other, so that each parameter averages over the
    /// states a shared machine goes through during the characterization (a process keeps
    /// its state: the same test took 9 to 16 ns a pass from one process to the next here).
    pub rounds: usize,
}

impl Options {
    /// The default: TMAX 0.04 s and 10 observations per experiment from two processes (two
    /// rounds: two runs differed by 5.5 % per parameter (median) against 10.5 % with one, for
    /// 7 s more), the minimum: the same observations of a characterization made in a busy
    /// hour and of one made in a quiet hour gave parameters 12.7 % apart (median over the
    /// parameters) by the mean and 3.5 % apart by the minimum (docs/model.md, refinement 15); the
    /// host's disturbances only slow a test down (Whaley & Castaldo section 2.1). The minimum over all
    /// processes, not the median of each one's minimum (refinement 20, the default for a
    /// while): a busy neighbour moves a cheap test between two states (CISL 7.1 or 12.5 ns a
    /// pass), and the median took the busy one for some parameters and the quiet one for
    /// others; the minimum takes the quiet one for all (docs/model.md, refinement 23).
    pub fn standard() -> Self {
        Options {
            tmax_s: 0.04,
            repeat: 10,
            statistic: Statistic::Min,
            quick: false,
            only: None,
            no_self_check: false,
            cache_dir: PathBuf::from("target/opcost"),
            rounds: 2,
        }
    }
    /// For tests: short observations, few of them.
    pub fn quick() -> Self {
        Options {
            tmax_s: 0.01,
            repeat: 5,
            quick: true,
            rounds: 1,
            ..Self::standard()
        }
    }
    fn settings(&self) -> RunSettings {
        RunSettings {
            tmax_s: self.tmax_s,
            repeat: self.repeat,
            statistic: self.statistic,
            quick: self.quick,
            only: self.only.clone(),
            rounds: self.rounds,
        }
    }
}

/// What a run reports as it goes.
#[derive(Debug, Clone)]
pub enum Event {
    /// The plan: this many experiments to run (excluding those a resumed file already has).
    Planned {
        total: usize,
    },
    Compiled {
        seconds: f64,
    },
    Started {
        experiment: String,
    },
    /// An experiment finished; the characterization has been updated (save it now).
    Finished {
        experiment: String,
    },
    SelfCheck {
        statement: String,
    },
}

/// A fresh, incomplete characterization of this host and compiler.
pub fn new_characterization(compiler: &Compiler, opts: &Options) -> Characterization {
    Characterization::new(
        harness::machine_info(),
        compiler.info(),
        now_rfc3339(),
        opts.settings(),
    )
}

fn now_rfc3339() -> String {
    export::time::Utc::now().rfc3339()
}

/// The experiments and groups needed for `only` (all when None), in solving order.
pub fn plan(only: Option<&[Param]>) -> (Vec<Experiment>, Vec<Group>) {
    let (exps, groups) = experiments::catalogue();
    let Some(only) = only else {
        return (exps, groups);
    };
    // Close the wanted set over the parameters each solving group's experiments contain.
    let mut wanted: BTreeSet<Param> = only.iter().flat_map(|p| derived_sources(*p)).collect();
    loop {
        let before = wanted.len();
        for g in &groups {
            if g.unknowns.iter().any(|u| wanted.contains(u)) {
                for name in &g.experiments {
                    wanted.extend(g.counts_of(&exps, name).params.keys().copied());
                }
            }
        }
        if wanted.len() == before {
            break;
        }
    }
    let groups: Vec<Group> = groups
        .into_iter()
        .filter(|g| g.unknowns.iter().any(|u| wanted.contains(u)))
        .collect();
    let names: BTreeSet<String> = groups.iter().flat_map(|g| g.all_experiments()).collect();
    let exps = exps
        .into_iter()
        .filter(|e| e.name == LOOP_EXPERIMENT || names.contains(&e.name))
        .collect();
    (exps, groups)
}

/// ARR4 and ARRN come from ARR1-ARR3.
fn derived_sources(p: Param) -> Vec<Param> {
    match p {
        Param::ARR4 | Param::ARRN => vec![Param::ARR1, Param::ARR2, Param::ARR3],
        p => vec![p],
    }
}

/// Parse a `--only` list of mnemonics.
pub fn parse_only(list: &str) -> Result<Vec<Param>, CharacterizeError> {
    list.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            Param::from_mnemonic(s)
                .ok_or_else(|| CharacterizeError::UnknownParameter(s.trim().to_string()))
        })
        .collect()
}

fn params_of(e: &Experiment, groups: &[Group]) -> String {
    let ps: Vec<String> = groups
        .iter()
        .filter(|g| g.all_experiments().contains(&e.name))
        .flat_map(|g| g.unknowns.iter().map(|p| p.to_string()))
        .collect();
    if ps.is_empty() {
        if e.name == LOOP_EXPERIMENT {
            "loop-control overhead".into()
        } else {
            "self-check".into()
        }
    } else {
        ps.join(", ")
    }
}

/// A compiled test program.
struct Built {
    exe: PathBuf,
    experiments: Vec<Experiment>,
    /// Instructions of one pass of each experiment's loop in the compiler's assembly (rule
    /// 17); None when the assembly has no line directives.
    instructions: Vec<Option<harness::Mix>>,
}

fn build(
    compiler: &Compiler,
    opts: &Options,
    experiments: Vec<Experiment>,
    groups: &[Group],
) -> Result<Built, CharacterizeError> {
    let program = fortran::generate(&experiments);
    let machine = harness::machine_slug(&harness::machine_info());
    let root = std::env::current_dir()
        .map(|d| d.join(&opts.cache_dir))
        .unwrap_or_else(|_| opts.cache_dir.clone());
    let dir = root.join(machine).join(compiler.info().tag());
    let io = |path: &Path| {
        let p = path.display().to_string();
        move |error| CharacterizeError::Io { path: p, error }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let tests = dir.join("opcost_tests.f");
    let support = dir.join("opcost_support.f");
    let exe = dir.join("opcost_tests");
    let stamp = dir.join("build.stamp");
    let key = format!(
        "{}\n{:?}\n{}\n{}",
        compiler.version, compiler.flags, program.tests_source, program.support_source
    );
    let fresh = std::fs::read_to_string(&stamp)
        .map(|s| s == key)
        .unwrap_or(false)
        && exe.exists();
    if !fresh {
        std::fs::write(&tests, &program.tests_source).map_err(io(&tests))?;
        std::fs::write(&support, &program.support_source).map_err(io(&support))?;
        let support_obj = dir.join("opcost_support.o");
        let tests_obj = dir.join("opcost_tests.o");
        compiler
            .compile_object(&support, &support_obj, &[])
            .map_err(|error| CharacterizeError::Compile {
                what: "the support routines".into(),
                error,
            })?;
        compiler
            .compile_object(&tests, &tests_obj, &[])
            .map_err(|source| {
                // Name the experiment whose subroutine the compiler complained about.
                let what = source
                    .stderr
                    .lines()
                    .find_map(|l| {
                        let rest = l.split("opcost_tests.f:").nth(1)?;
                        rest.split(':').next()?.parse::<usize>().ok()
                    })
                    .and_then(|line| program.experiment_at_line(line))
                    .map(|i| {
                        let e = &experiments[i];
                        format!("{} (experiment {})", params_of(e, groups), e.name)
                    })
                    .unwrap_or_else(|| "the test driver".into());
                CharacterizeError::Compile {
                    what,
                    error: source,
                }
            })?;
        compiler
            .build(&[tests_obj, support_obj], &exe, &[])
            .map_err(|error| CharacterizeError::Compile {
                what: "the linked test program".into(),
                error,
            })?;
        std::fs::write(&stamp, key).map_err(io(&stamp))?;
    }
    let instructions = pass_instructions(compiler, &program, &tests, fresh);
    Ok(Built {
        exe,
        experiments,
        instructions,
    })
}

/// The instructions of one pass of each test's loop in the assembly of the tests, and of
/// those the ones that access memory (rule 17: INST and MEMO divide by them). The listing is
/// kept beside the build and made again with it. A compiler whose assembly has no line
/// directives (flang-new 16 ignores -g) gives None: INST and MEMO are then not measured.
fn pass_instructions(
    compiler: &Compiler,
    program: &fortran::TestProgram,
    tests: &Path,
    fresh: bool,
) -> Vec<Option<harness::Mix>> {
    // `line_instructions` writes the listing beside the source, where a fresh build finds it.
    let asm = tests.with_extension("s");
    let listing = if fresh && asm.exists() {
        harness::LineInstructions::read(&asm).ok()
    } else {
        let dir = tests.parent().unwrap_or(Path::new("."));
        compiler.line_instructions(tests, dir).ok()
    }
    .filter(|li| !li.is_empty());
    let name = tests.display().to_string();
    let memory = listing.as_ref().map(|li| li.memory_only());
    program
        .pass_ranges
        .iter()
        .map(|r| {
            let (li, memory) = (listing.as_ref()?, memory.as_ref()?);
            let lines = || r.clone().map(|line| line as u32);
            Some(harness::Mix {
                all: lines().map(|line| li.at(&name, line)).sum(),
                memory: lines().map(|line| memory.at(&name, line)).sum(),
            })
        })
        .collect()
}

/// The loop count a test's calibration starts from when no earlier round calibrated it.
const FIRST_LOOP_COUNT: u64 = 1000;

/// Run experiment `index` (0: the clock) for `observations` observations, starting the loop
/// count's calibration at `start_count`, and return its output.
fn run_one(
    built: &Built,
    index: usize,
    opts: &Options,
    (observations, start_count): (usize, u64),
    cancel: &AtomicBool,
    limit: Duration,
) -> Result<String, RunError> {
    let input = format!(
        "{} {} {} {}\n",
        index, opts.tmax_s, observations, start_count
    );
    let out = harness::run_streaming(
        &mut Command::new(&built.exe),
        limit,
        Some(input.into_bytes()),
        Some(cancel),
        |_| {},
    )?;
    if !out.success() {
        return Ok(format!(
            "FAILED {}\n{}\n{}",
            out.status, out.stdout, out.stderr
        ));
    }
    Ok(out.stdout)
}

/// The error for a run of experiment `e` (measuring `params`) that did not finish: a cancel
/// is an interruption after `progress` = (done, total) runs, anything else names the test.
fn run_failure(
    e: &Experiment,
    params: &str,
    error: RunError,
    (done, total): (usize, usize),
) -> CharacterizeError {
    match error {
        RunError::Cancelled { .. } => CharacterizeError::Interrupted { done, total },
        error => CharacterizeError::Run {
            experiment: e.name.clone(),
            params: params.to_string(),
            error,
        },
    }
}

/// One pass of an experiment's loop, per observation: the observation less the clock call,
/// over the loop count (Saavedra-Barrera's eq. 4.4).
fn pass_times(result: &Characterization, r: &ExperimentRecord) -> Vec<f64> {
    let clock_overhead = result
        .timer
        .as_ref()
        .map(|t| t.call_overhead_ns)
        .unwrap_or(0.0);
    r.observations_s
        .iter()
        .map(|s| (s * 1e9 - clock_overhead) / r.iterations as f64)
        .collect()
}

/// A test's time per pass as the characterization summarizes its observations (its
/// statistic over its rounds).
fn pass_time(result: &Characterization, r: &ExperimentRecord) -> Measured {
    pass_time_by(result, r, result.settings.statistic)
}

/// A test's time per pass by `statistic` over the characterization's rounds: where a kind of
/// test is taken otherwise than the characterization's statistic says.
fn pass_time_by(result: &Characterization, r: &ExperimentRecord, statistic: Statistic) -> Measured {
    stats::summarize(&pass_times(result, r), statistic, result.settings.rounds)
}

/// The statistic of the issue rates INST and MEMO (rule 17, docs/model.md "issue rates by
/// the mean"): the mean where the characterization takes the minimum. The core's issue
/// slots are what a busy neighbour on a shared core takes (the issue test's observations
/// fall in two states, 0.055 and 0.09 ns), and a program's run goes through both; a chain's
/// latency does not change with the state and keeps the minimum.
fn issue_statistic(statistic: Statistic) -> Statistic {
    match statistic {
        Statistic::Min => Statistic::Mean,
        s => s,
    }
}

/// Experiment `e`'s time per pass: as [`pass_time`], but a test whose speed is a property
/// of the process ([`Experiment::typical_process`]) is taken by the round median where the
/// characterization takes the minimum: the fastest process is a rarer layout, not a quieter
/// machine.
fn test_pass_time(result: &Characterization, e: &Experiment, r: &ExperimentRecord) -> Measured {
    let statistic = match result.settings.statistic {
        Statistic::Min if e.typical_process => Statistic::RoundMedian,
        s => s,
    };
    pass_time_by(result, r, statistic)
}

/// The body's time: a pass less the loop control, the two variances added (Saavedra-Barrera's eq. 4.6).
fn body_time(
    result: &Characterization,
    e: &Experiment,
    r: &ExperimentRecord,
    loop_control: Measured,
) -> Measured {
    let m = test_pass_time(result, e, r);
    Measured {
        value: m.value - loop_control.value,
        std_error: (m.std_error.powi(2) + loop_control.std_error.powi(2)).sqrt(),
        n: m.n,
    }
}

/// Per-pass body times of the experiments recorded so far (loop overhead subtracted).
fn body_times(result: &Characterization, built: &[Experiment]) -> BTreeMap<String, Measured> {
    let mut out = BTreeMap::new();
    let Some(loop_rec) = result.experiment(LOOP_EXPERIMENT) else {
        return out;
    };
    let lp = pass_time(result, loop_rec);
    out.insert(LOOP_EXPERIMENT.to_string(), lp);
    for r in &result.experiments {
        if r.name == LOOP_EXPERIMENT {
            continue;
        }
        if let Some(e) = built.iter().find(|e| e.name == r.name) {
            out.insert(r.name.clone(), body_time(result, e, r, lp));
        }
    }
    out
}

/// How fast the host runs the characterization's own tests now, against when `machine` was
/// characterized: every experiment it recorded is run again for one observation of `tmax_s`
/// (from the recorded loop count) and its time per pass divided by the recorded one (the
/// characterization's statistic of its observations: for the minimum, the undisturbed time). On a
/// shared host the same test's speed wanders by 10-30 % over an hour (docs/benchmarks.md),
/// so `opcost validate` probes this between its rounds to tell the model's error from the
/// host's drift.
#[derive(Debug, Clone, PartialEq)]
pub struct HostSpeed {
    /// Median over the experiments of (time per pass now) / (recorded time per pass).
    pub ratio: f64,
    /// Each experiment's ratio.
    pub ratios: Vec<(String, f64)>,
}

/// Probe the host's speed against `machine` (see [`HostSpeed`]), with `compiler` (the
/// characterization's compiler and flags). Generated tests live in `cache_dir` as for
/// [`run`]; a build left by the characterization is reused.
pub fn host_speed(
    compiler: &Compiler,
    machine: &Characterization,
    tmax_s: f64,
    cache_dir: &Path,
    cancel: &AtomicBool,
) -> Result<HostSpeed, CharacterizeError> {
    let opts = Options {
        tmax_s,
        repeat: 1,
        rounds: 1,
        cache_dir: cache_dir.to_path_buf(),
        ..Options::standard()
    };
    let (exps, groups) = plan(None);
    let built = build(compiler, &opts, exps, &groups)?;
    let limit = Duration::from_secs_f64(10.0 + 200.0 * tmax_s);
    let mut ratios = Vec::new();
    for (i, e) in built.experiments.iter().enumerate() {
        let Some(old) = machine.experiment(&e.name) else {
            continue;
        };
        let before = test_pass_time(machine, e, old).value;
        if before.is_nan() || before <= 0.0 || old.iterations == 0 {
            continue;
        }
        let params = params_of(e, &groups);
        let progress = (ratios.len(), built.experiments.len());
        let out = run_one(&built, i + 1, &opts, (1, old.iterations), cancel, limit)
            .map_err(|error| run_failure(e, &params, error, progress))?;
        let now = parse_observations(e, &params, &out)?;
        // One observation now: no rounds to take a median over.
        let after =
            stats::summarize(&pass_times(machine, &now), machine.settings.statistic, 1).value;
        if after > 0.0 {
            ratios.push((e.name.clone(), after / before));
        }
    }
    let values: Vec<f64> = ratios.iter().map(|r| r.1).collect();
    Ok(HostSpeed {
        ratio: model::stats::median(&values),
        ratios,
    })
}

/// INST (rule 17): the time of one pass of the issue-bound test, loop control included, over
/// the instructions of that pass in the assembly. A ratio, not a difference of two tests:
/// the host's drift between two tests (10-50 % over seconds) made the difference wander
/// from 0.059 to 0.095 ns in four runs. None when the instructions were not recorded.
/// MEMO the same over the pass's instructions that load or store. None also when the pass
/// has none (an optimizing compiler removed or hoisted the test's work). The pass is taken
/// by [`issue_statistic`].
fn instruction_issue(result: &Characterization, test: &str, memory: bool) -> Option<Measured> {
    let rec = result.experiment(test)?;
    let instructions = if memory {
        rec.memory_instructions?
    } else {
        rec.instructions?
    };
    if instructions == 0 {
        return None;
    }
    let instructions = instructions as f64;
    let pass = pass_time_by(result, rec, issue_statistic(result.settings.statistic));
    Some(Measured {
        value: pass.value / instructions,
        std_error: pass.std_error / instructions,
        n: pass.n,
    })
}

/// INST from its own test, or, when an optimizing compiler emptied that test (it hoists the
/// register arithmetic out of the loop), from the MEMO test's pass over all its instructions:
/// the fastest issue of arbitrary instructions measured at these flags. A pass of fewer
/// instructions than the test has statements kept only its loop control (flang-new 19 -O2
/// keeps three), which the taken branch paces, not dispatch. With the experiments it came
/// from.
fn dispatch_rate(
    result: &Characterization,
    g: &Group,
    exps: &[Experiment],
) -> Option<(Measured, Vec<String>)> {
    let own = &g.experiments[0];
    let statements = exps
        .iter()
        .find(|e| &e.name == own)
        .map_or(0, |e| e.body.len() as u64);
    let kept_its_work = result
        .experiment(own)
        .and_then(|r| r.instructions)
        .is_some_and(|n| n >= statements);
    kept_its_work
        .then(|| instruction_issue(result, own, false))
        .flatten()
        .map(|m| (m, g.all_experiments()))
        .or_else(|| {
            let memo = "MEMO";
            instruction_issue(result, memo, false).map(|m| (m, vec![memo.to_string()]))
        })
}

/// WIND (rule 19): the window test's chain latency (its statements' links valued by the
/// latencies already solved) times the instructions of its pass, over the pass time. None when
/// a latency or the instructions are missing.
fn window_in_flight(
    result: &Characterization,
    g: &Group,
    exps: &[Experiment],
    known: &BTreeMap<Param, Measured>,
) -> Option<Measured> {
    let name = g.experiments.first()?;
    let rec = result.experiment(name)?;
    let instructions = rec.instructions? as f64;
    let e = exps.iter().find(|e| &e.name == name)?;
    let mut chain = 0.0;
    for s in &e.body {
        for (p, &c) in &s.counts.params {
            chain += c as f64 * known.get(p)?.value;
        }
    }
    let pass = pass_time(result, rec);
    if pass.value <= 0.0 || chain <= 0.0 {
        return None;
    }
    let value = model::rules::window_of(chain, instructions, pass.value);
    Some(Measured {
        value,
        std_error: value * pass.std_error / pass.value,
        n: pass.n,
    })
}

/// Recompute every parameter whose experiments are all recorded (Saavedra-Barrera's section 4.5).
pub fn solve_parameters(result: &mut Characterization) -> Result<(), CharacterizeError> {
    let (exps, groups) = experiments::catalogue();
    let bodies = body_times(result, &exps);
    if let (Some(lp), Some(timer)) = (bodies.get(LOOP_EXPERIMENT), result.timer.as_mut()) {
        timer.loop_overhead = stats::to_estimate(*lp);
    }
    let mut known: BTreeMap<Param, Measured> = BTreeMap::new();
    let mut params = Vec::new();
    for g in &groups {
        if !g.all_experiments().iter().all(|n| bodies.contains_key(n)) {
            continue;
        }
        // INST, MEMO and WIND are ratios of one test's pass time, not solved from counts.
        let direct = match g.unknowns.as_slice() {
            [Param::WIND] => {
                Some(window_in_flight(result, g, &exps, &known).map(|m| (m, g.all_experiments())))
            }
            [Param::INST] => Some(dispatch_rate(result, g, &exps)),
            [Param::MEMO] => Some(
                instruction_issue(result, &g.experiments[0], true)
                    .map(|m| (m, g.all_experiments())),
            ),
            _ => None,
        };
        if let Some(measured) = direct {
            if let Some((m, experiments)) = measured {
                let p = g.unknowns[0];
                known.insert(p, m);
                params.push(ParameterResult {
                    mnemonic: p,
                    number: p.def().number,
                    estimate: stats::to_estimate(m),
                    test_kind: TestKind::Direct,
                    experiments,
                    unmeasured: None,
                });
            }
            continue;
        }
        let counts: Vec<_> = g
            .experiments
            .iter()
            .map(|n| g.counts_of(&exps, n))
            .collect();
        let needed_known = counts.iter().all(|c| {
            c.params
                .keys()
                .all(|p| g.unknowns.contains(p) || known.contains_key(p))
        });
        if !needed_known {
            continue;
        }
        // A baseline's body is subtracted, its variance added (Saavedra-Barrera's eq. 4.10).
        let net = |n: &String| -> Measured {
            let b = bodies[n];
            match &g.baseline {
                Some(base) => Measured {
                    value: b.value - bodies[base].value,
                    std_error: (b.std_error.powi(2) + bodies[base].std_error.powi(2)).sqrt(),
                    n: b.n.min(bodies[base].n),
                },
                None => b,
            }
        };
        let body_list: Vec<BodyTime> = g
            .experiments
            .iter()
            .zip(&counts)
            .map(|(n, c)| BodyTime {
                name: n,
                counts: c,
                body: net(n),
            })
            .collect();
        let (values, kind) = stats::solve(&g.unknowns, &body_list, &known)?;
        for (p, m) in g.unknowns.iter().zip(values) {
            known.insert(*p, m);
            params.push(ParameterResult {
                mnemonic: *p,
                number: p.def().number,
                estimate: stats::to_estimate(m),
                test_kind: if g.baseline.is_some() {
                    TestKind::Indirect
                } else {
                    kind
                },
                experiments: g.all_experiments(),
                unmeasured: None,
            });
        }
    }
    // Derived: ARR4 and ARRN extrapolate ARR1..ARR3 (Saavedra-Barrera's section 4.2.4).
    if let (Some(a1), Some(a2), Some(a3)) = (
        known.get(&Param::ARR1),
        known.get(&Param::ARR2),
        known.get(&Param::ARR3),
    ) {
        for (p, rank) in [(Param::ARR4, 4), (Param::ARRN, 5)] {
            let c = model::catalogue::array_reference_coefficients(rank);
            let value = c[0] * a1.value + c[1] * a2.value + c[2] * a3.value;
            let var = (c[0] * a1.std_error).powi(2)
                + (c[1] * a2.std_error).powi(2)
                + (c[2] * a3.std_error).powi(2);
            params.push(ParameterResult {
                mnemonic: p,
                number: p.def().number,
                estimate: stats::to_estimate(Measured {
                    value,
                    std_error: var.sqrt(),
                    n: a1.n.min(a2.n).min(a3.n),
                }),
                test_kind: TestKind::Derived,
                experiments: vec!["ARR1".into(), "ARR2".into(), "ARR3".into()],
                unmeasured: None,
            });
        }
    }
    params.sort_by_key(|r| r.number);
    for p in &mut params {
        p.mark_if_removed(&result.experiments);
    }
    result.parameters = params;
    // A NaN or an infinity (a singular solve) is named in the file, not written as a number.
    result.drop_non_finite();
    Ok(())
}

fn parse_observations(
    e: &Experiment,
    params: &str,
    out: &str,
) -> Result<ExperimentRecord, CharacterizeError> {
    if let Some(rest) = out.strip_prefix("FAILED ") {
        return Err(CharacterizeError::TestFailed {
            experiment: e.name.clone(),
            params: params.to_string(),
            detail: rest.trim().to_string(),
        });
    }
    if let Some(g) = out.lines().find(|l| l.trim_start().starts_with("GUARD")) {
        return Err(CharacterizeError::RangeGuard {
            experiment: e.name.clone(),
            params: params.to_string(),
            detail: g.trim().to_string(),
        });
    }
    let mut limit = 0u64;
    let mut obs = Vec::new();
    for l in out.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.first() == Some(&"OBS") && f.len() == 3 {
            let (Ok(n), Ok(s)) = (f[1].parse::<u64>(), f[2].parse::<f64>()) else {
                continue;
            };
            limit = n;
            obs.push(s);
        }
    }
    if obs.is_empty() || limit == 0 {
        return Err(CharacterizeError::TestFailed {
            experiment: e.name.clone(),
            params: params.to_string(),
            detail: format!("no observations in its output:\n{out}"),
        });
    }
    Ok(ExperimentRecord {
        name: e.name.clone(),
        iterations: limit,
        observations_s: obs,
        instructions: None,
        memory_instructions: None,
        test_fingerprint: Some(e.fingerprint()),
    })
}

/// The experiments of `planned` that `result` recorded with another version of their test
/// (their fingerprints differ; records without one, from older files, are taken as they are).
pub fn changed_tests(result: &Characterization, planned: &[Experiment]) -> Vec<String> {
    planned
        .iter()
        .filter(|e| {
            result
                .experiment(&e.name)
                .and_then(|r| r.test_fingerprint.as_deref())
                .is_some_and(|f| f != e.fingerprint())
        })
        .map(|e| e.name.clone())
        .collect()
}

/// Drop the records of `names` (tests changed since they were measured), so that a resumed
/// run measures them again; the parameters are solved again from what is left.
pub fn forget_experiments(
    result: &mut Characterization,
    names: &[String],
) -> Result<(), CharacterizeError> {
    result.experiments.retain(|r| !names.contains(&r.name));
    if !names.is_empty() {
        result.complete = false;
        solve_parameters(result)?;
    }
    Ok(())
}

/// Run (or resume) a characterization into `result`. `on_event` is called after each step
/// with the updated result, so the caller can save it: an interrupted run keeps what it measured.
pub fn run(
    compiler: &Compiler,
    opts: &Options,
    result: &mut Characterization,
    cancel: &AtomicBool,
    mut on_event: impl FnMut(Event, &Characterization),
) -> Result<(), CharacterizeError> {
    let start = Instant::now();
    let already = result.wall_time_s;
    let (mut exps, groups) = plan(opts.only.as_deref());
    let checks = if opts.no_self_check {
        Vec::new()
    } else {
        experiments::self_checks()
    };
    let n_tests = exps.len();
    exps.extend(checks.iter().cloned());
    let t0 = Instant::now();
    let built = build(compiler, opts, exps, &groups)?;
    on_event(
        Event::Compiled {
            seconds: t0.elapsed().as_secs_f64(),
        },
        result,
    );
    // One observation should last about TMAX; allow calibration and a slow machine.
    let limit = Duration::from_secs_f64(10.0 + (opts.repeat as f64 + 8.0) * opts.tmax_s * 20.0);
    // Observations wanted from each experiment after each round (rounds split REPEAT).
    let rounds = opts.rounds.clamp(1, opts.repeat.max(1));
    let wanted: Vec<usize> = (1..=rounds).map(|r| opts.repeat * r / rounds).collect();
    let have = |result: &Characterization, i: usize| {
        result
            .experiment(&built.experiments[i].name)
            .map_or(0, |r| r.observations_s.len())
    };
    let todo: Vec<usize> = (0..n_tests)
        .filter(|&i| have(result, i) < opts.repeat)
        .collect();
    let runs: usize = todo
        .iter()
        .map(|&i| wanted.iter().filter(|&&w| have(result, i) < w).count())
        .sum();
    let total = runs + checks.len();
    on_event(Event::Planned { total }, result);

    if result.timer.is_none() {
        result.timer = Some(measure_timer(&built, opts, cancel, limit)?);
    }

    let mut done = 0;
    for (&target, i) in wanted
        .iter()
        .flat_map(|w| todo.iter().map(move |&i| (w, i)))
    {
        let already_seen = have(result, i);
        if already_seen >= target {
            continue;
        }
        if cancel.load(Ordering::SeqCst) {
            return Err(CharacterizeError::Interrupted { done, total });
        }
        let e = &built.experiments[i];
        let params = params_of(e, &groups);
        on_event(
            Event::Started {
                experiment: e.name.clone(),
            },
            result,
        );
        // Later rounds start from the loop count the first one calibrated.
        let start_count = result
            .experiment(&e.name)
            .map_or(FIRST_LOOP_COUNT, |r| r.iterations);
        let request = (target - already_seen, start_count);
        let out = run_one(&built, i + 1, opts, request, cancel, limit)
            .map_err(|error| run_failure(e, &params, error, (done, total)))?;
        if cancel.load(Ordering::SeqCst) {
            return Err(CharacterizeError::Interrupted { done, total });
        }
        let mut record = parse_observations(e, &params, &out)?;
        record.instructions = built.instructions[i].map(|m| m.all);
        record.memory_instructions = built.instructions[i].map(|m| m.memory);
        add_observations(result, record);
        solve_parameters(result)?;
        result.wall_time_s = already + start.elapsed().as_secs_f64();
        done += 1;
        on_event(
            Event::Finished {
                experiment: e.name.clone(),
            },
            result,
        );
    }
    solve_parameters(result)?;

    // Self-check: statements no test used, measured vs predicted (issue 2).
    let known: BTreeMap<Param, f64> = result
        .parameters
        .iter()
        .map(|r| (r.mnemonic, r.estimate.mean_ns))
        .collect();
    // Without a self-check this run keeps the one the file has (a resumed file).
    if !checks.is_empty() {
        result.self_check.clear();
    }
    for (j, e) in checks.iter().enumerate() {
        if cancel.load(Ordering::SeqCst) {
            return Err(CharacterizeError::Interrupted { done, total });
        }
        let counts = e.counts();
        if !counts.params.keys().all(|p| known.contains_key(p)) {
            continue;
        }
        on_event(
            Event::SelfCheck {
                statement: e.purpose.clone(),
            },
            result,
        );
        let index = n_tests + j;
        let request = (opts.repeat, FIRST_LOOP_COUNT);
        let out = run_one(&built, index + 1, opts, request, cancel, limit).map_err(|source| {
            CharacterizeError::Run {
                experiment: e.name.clone(),
                params: "self-check".into(),
                error: source,
            }
        })?;
        let record = parse_observations(e, "self-check", &out)?;
        let check = self_check_of(result, e, &record, &known);
        result.self_check.push(check);
        // A check measured at zero has no error percentage: left out, not written as NaN.
        result.drop_non_finite();
        done += 1;
        result.wall_time_s = already + start.elapsed().as_secs_f64();
        on_event(
            Event::Finished {
                experiment: e.name.clone(),
            },
            result,
        );
    }
    result.complete = true;
    result.wall_time_s = already + start.elapsed().as_secs_f64();
    Ok(())
}

/// The CPU timer's resolution and call overhead, measured by the generated program's CLOCK
/// test (its loop overhead comes with the LOOP experiment).
fn measure_timer(
    built: &Built,
    opts: &Options,
    cancel: &AtomicBool,
    limit: Duration,
) -> Result<TimerInfo, CharacterizeError> {
    let out = run_one(
        built,
        0,
        opts,
        (opts.repeat, FIRST_LOOP_COUNT),
        cancel,
        limit,
    )
    .map_err(|source| CharacterizeError::Run {
        experiment: "CLOCK".into(),
        params: "clock resolution".into(),
        error: source,
    })?;
    let clock = out
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.first() == Some(&"CLOCK") && f.len() == 3)
                .then(|| Some((f[1].parse::<f64>().ok()?, f[2].parse::<f64>().ok()?)))
                .flatten()
        })
        .ok_or_else(|| CharacterizeError::TestFailed {
            experiment: "CLOCK".into(),
            params: "clock resolution".into(),
            detail: format!("unexpected output:\n{out}"),
        })?;
    Ok(TimerInfo {
        name: "CPU_TIME (process CPU time)".into(),
        resolution_ns: clock.0 * 1e9,
        call_overhead_ns: clock.1 * 1e9,
        loop_overhead: Estimate {
            mean_ns: f64::NAN,
            std_dev_ns: f64::NAN,
            ci_low_ns: f64::NAN,
            ci_high_ns: f64::NAN,
            observations: 0,
        },
    })
}

/// Record an experiment's new observations: a new record, or more observations of the one
/// the result has.
fn add_observations(result: &mut Characterization, record: ExperimentRecord) {
    match result
        .experiments
        .iter_mut()
        .find(|r| r.name == record.name)
    {
        // The same per-pass times at the first round's loop count (a process that
        // recalibrated ran a different count).
        Some(old) => {
            old.instructions = record.instructions.or(old.instructions);
            old.memory_instructions = record.memory_instructions.or(old.memory_instructions);
            old.test_fingerprint = old.test_fingerprint.take().or(record.test_fingerprint);
            old.observations_s.extend(
                record
                    .observations_s
                    .iter()
                    .map(|s| s * old.iterations as f64 / record.iterations as f64),
            )
        }
        None => result.experiments.push(record),
    }
}

/// The self-check of statement test `e` from its observations `record`: its measured time
/// per statement against the time the `known` parameters predict (issue 2).
fn self_check_of(
    result: &Characterization,
    e: &Experiment,
    record: &ExperimentRecord,
    known: &BTreeMap<Param, f64>,
) -> SelfCheck {
    let counts = e.counts();
    let lp = result
        .timer
        .as_ref()
        .map(|t| t.loop_overhead)
        .expect("timer measured");
    let loop_control = Measured {
        value: lp.mean_ns,
        std_error: lp.std_dev_ns,
        n: lp.observations,
    };
    let measured = stats::to_estimate(body_time(result, e, record, loop_control));
    let predicted: f64 = counts
        .params
        .iter()
        .map(|(p, &n)| n as f64 * known[p])
        .sum();
    let statements = e.body.len() as f64;
    SelfCheck {
        statement: e.purpose.clone(),
        measured: Estimate {
            mean_ns: measured.mean_ns / statements,
            std_dev_ns: measured.std_dev_ns / statements,
            ci_low_ns: measured.ci_low_ns / statements,
            ci_high_ns: measured.ci_high_ns / statements,
            observations: measured.observations,
        },
        predicted_ns: predicted / statements,
        error_percent: 100.0 * (predicted - measured.mean_ns) / measured.mean_ns,
    }
}

/// The host's speed now against the day `machine` was characterized: its own tests run again,
/// one short observation each (half its TMAX, at least 5 ms); now over then, the median.
pub fn probe_host_speed(
    machine: &Characterization,
    compiler: &Compiler,
    cache_dir: &Path,
) -> Result<f64, CharacterizeError> {
    let never = std::sync::atomic::AtomicBool::new(false);
    let tmax = (machine.settings.tmax_s / 2.0).max(0.005);
    Ok(host_speed(compiler, machine, tmax, cache_dir, &never)?.ratio)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_closes_over_what_the_tests_need() {
        let (exps, groups) = plan(Some(&[Param::DRSL]));
        let solved: BTreeSet<Param> = groups.iter().flat_map(|g| g.unknowns.clone()).collect();
        // DRSL's body has stores, which come from the add experiments.
        assert!(solved.contains(&Param::DRSL));
        assert!(solved.contains(&Param::SRSL));
        assert!(!solved.contains(&Param::DRDL));
        assert!(exps.iter().any(|e| e.name == LOOP_EXPERIMENT));
        let (_, g) = plan(Some(&[Param::ARR4]));
        assert!(g.iter().any(|g| g.unknowns.contains(&Param::ARR3)));
    }

    #[test]
    fn only_rejects_unknown_mnemonics() {
        assert!(parse_only("ARSL, drsl").is_ok());
        assert!(matches!(
            parse_only("ARSL,NOPE"),
            Err(CharacterizeError::UnknownParameter(s)) if s == "NOPE"
        ));
    }

    #[test]
    fn a_test_that_does_not_compile_is_named() {
        let Ok(compiler) = Compiler::find(None, &["-O0".to_string()]) else {
            eprintln!("skipping: gfortran is not installed");
            return;
        };
        let (mut exps, groups) = plan(Some(&[Param::DRSL]));
        let i = exps.iter().position(|e| e.name == "DRSL").unwrap();
        exps[i].body[0].lines[0].text = "X1 = = A1".into();
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            cache_dir: dir.path().to_path_buf(),
            ..Options::quick()
        };
        let err = build(&compiler, &opts, exps, &groups)
            .err()
            .expect("must fail");
        let msg = err.to_string();
        assert!(msg.contains("DRSL (experiment DRSL)"), "{msg}");
        assert!(msg.contains("Error"), "compiler message shown: {msg}");
    }

    /// Rule 17's two issue tests, built by gfortran -O0 and counted in its assembly: INST's
    /// body is mostly register arithmetic, MEMO's mostly loads and stores, so each measures
    /// the limit it is named for.
    #[test]
    fn the_issue_tests_differ_in_their_share_of_memory_accesses() {
        let Ok(compiler) = Compiler::find(None, &["-O0".to_string()]) else {
            eprintln!("skipping: gfortran is not installed");
            return;
        };
        let (exps, groups) = plan(Some(&[Param::INST, Param::MEMO]));
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            cache_dir: dir.path().to_path_buf(),
            ..Options::quick()
        };
        let built = build(&compiler, &opts, exps, &groups).unwrap();
        let share = |name: &str| {
            let i = built
                .experiments
                .iter()
                .position(|e| e.name == name)
                .unwrap();
            let mix = built.instructions[i].expect("line directives in gfortran's assembly");
            // Sixteen statements of several instructions each, and the loop's control.
            assert!(mix.all > 16 * 4, "{name}: {mix:?}");
            mix.memory as f64 / mix.all as f64
        };
        let (inst, memo) = (share("INST"), share("MEMO"));
        assert!(
            inst < 0.4,
            "INST's body accesses memory in {inst:.2} of its instructions"
        );
        assert!(
            memo > 0.45,
            "MEMO's body accesses memory in {memo:.2} of its instructions"
        );
    }

    /// INST from its own test only when the pass kept the test's work: a pass of three
    /// instructions (flang-new 19 -O2 hoisted the sixteen statements, leaving the loop
    /// control) gives INST from the MEMO test's pass over all its instructions instead.
    #[test]
    fn an_inst_pass_left_with_only_its_loop_control_is_not_its_dispatch_rate() {
        use model::characterization::{CompilerInfo, MachineInfo, RunSettings};
        let (exps, groups) = plan(Some(&[Param::INST, Param::MEMO]));
        let g = groups.iter().find(|g| g.unknowns == [Param::INST]).unwrap();
        let mut c = Characterization::new(
            MachineInfo::default(),
            CompilerInfo {
                path: "flang-new-19".into(),
                version: "19".into(),
                flags: vec!["-O2".into()],
            },
            String::new(),
            RunSettings {
                tmax_s: 0.04,
                repeat: 3,
                statistic: Statistic::Min,
                quick: true,
                only: None,
                rounds: 1,
            },
        );
        // One pass of each test takes 4 ns (1e7 passes in 0.04 s).
        let record = |name: &str, instructions: u64, memory: u64| ExperimentRecord {
            name: name.into(),
            iterations: 10_000_000,
            observations_s: vec![0.04; 3],
            instructions: Some(instructions),
            memory_instructions: Some(memory),
            test_fingerprint: None,
        };
        c.experiments = vec![record("INST", 3, 0), record("MEMO", 64, 45)];
        let (m, from) = dispatch_rate(&c, g, &exps).unwrap();
        assert!((m.value - 4.0 / 64.0).abs() < 1e-9, "{m:?}");
        assert_eq!(from, ["MEMO"]);
        // A pass that kept its sixteen statements, two instructions each and the control.
        c.experiments[0] = record("INST", 35, 0);
        let (m, from) = dispatch_rate(&c, g, &exps).unwrap();
        assert!((m.value - 4.0 / 35.0).abs() < 1e-9, "{m:?}");
        assert!(from.contains(&"INST".to_string()), "{from:?}");
    }

    /// The issue rates take the mean of their observations where the characterization takes
    /// the minimum (a program's run goes through the host's fast and slow issue states); a
    /// chain's test keeps the minimum.
    #[test]
    fn issue_rates_are_the_mean_of_the_host_states_and_chains_the_minimum() {
        use model::characterization::{CompilerInfo, MachineInfo, RunSettings};
        let settings = |statistic| RunSettings {
            tmax_s: 0.04,
            repeat: 4,
            statistic,
            quick: true,
            only: None,
            rounds: 1,
        };
        let mut c = Characterization::new(
            MachineInfo::default(),
            CompilerInfo {
                path: "gfortran".into(),
                version: "12".into(),
                flags: vec!["-O0".into()],
            },
            String::new(),
            settings(Statistic::Min),
        );
        // Passes of 4 ns in the fast state, one of 8 ns in the slow one: a mean of 5 ns.
        c.experiments = vec![ExperimentRecord {
            name: "INST".into(),
            iterations: 10_000_000,
            observations_s: vec![0.04, 0.08, 0.04, 0.04],
            instructions: Some(40),
            memory_instructions: Some(10),
            test_fingerprint: None,
        }];
        let inst = instruction_issue(&c, "INST", false).unwrap().value;
        let memo = instruction_issue(&c, "INST", true).unwrap().value;
        assert!((inst - 5.0 / 40.0).abs() < 1e-9, "{inst}");
        assert!((memo - 5.0 / 10.0).abs() < 1e-9, "{memo}");
        assert!((pass_time(&c, &c.experiments[0]).value - 4.0).abs() < 1e-9);
        // A statistic asked for is used as it is.
        c.settings = settings(Statistic::Median);
        let inst = instruction_issue(&c, "INST", false).unwrap().value;
        assert!((inst - 4.0 / 40.0).abs() < 1e-9, "{inst}");
    }

    #[test]
    fn dates_are_rfc3339() {
        let d = now_rfc3339();
        assert_eq!(d.len(), 20);
        assert!(d.starts_with("20"));
        assert!(d.ends_with('Z'));
    }
}

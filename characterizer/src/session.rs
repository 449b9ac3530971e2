//! Setting up a characterization run: a new one (its options checked, its result file named)
//! or a resumed one (what is left to measure planned), and the summary of a finished one.

use crate::{CharacterizeError, Options};
use harness::Compiler;
use model::characterization::{Characterization, ParameterResult, Statistic, TestKind};
use model::Param;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum SessionError {
    #[error(transparent)]
    Load(#[from] model::LoadError),
    #[error("{} is already complete; nothing to resume (run characterize again for a new one, or give --statistic to re-estimate it)", path.display())]
    AlreadyComplete { path: PathBuf },
    #[error(transparent)]
    Compiler(#[from] harness::CompilerError),
    #[error("{} was measured with `{was}`, but {compiler} is now `{now}`; start a new characterization", path.display())]
    CompilerChanged {
        path: PathBuf,
        was: String,
        compiler: String,
        now: String,
    },
    #[error(transparent)]
    Characterize(#[from] CharacterizeError),
    #[error("--repeat must be at least 2 to give a confidence interval")]
    Repeat,
    #[error("--rounds must be between 1 and --repeat ({repeat}): each round takes at least one observation")]
    Rounds { repeat: usize },
    #[error("--tmax must be between 0 and 60 seconds")]
    Tmax,
    #[error("{} holds an interrupted characterization: finish it with `opcost characterize --resume {}`, or remove it to start again", partial.display(), partial.display())]
    Interrupted { partial: PathBuf },
}

/// A run set up: the compiler, the options, the characterization so far and its result file.
#[derive(Debug)]
pub struct Setup {
    pub compiler: Compiler,
    pub options: Options,
    pub characterization: Characterization,
    pub result: PathBuf,
}

/// A new run's settings, as given (None: the default of a standard or quick run).
#[derive(Debug, Clone)]
pub struct NewRun {
    pub compiler: String,
    pub flags: String,
    pub quick: bool,
    pub tmax_s: Option<f64>,
    pub repeat: Option<usize>,
    pub rounds: Option<usize>,
    pub statistic: Option<Statistic>,
    /// Comma-separated mnemonics.
    pub only: Option<String>,
    pub no_self_check: bool,
    pub cache_dir: PathBuf,
    /// The result file [default: [`default_result_path`] in `results_dir`].
    pub out: Option<PathBuf>,
    pub results_dir: PathBuf,
}

/// The default result file of a characterization:
/// `<results_dir>/<machine>--<compiler-flags>[.quick].json`.
pub fn default_result_path(results_dir: &Path, c: &Characterization, quick: bool) -> PathBuf {
    let name = format!(
        "{}--{}{}.json",
        harness::machine_slug(&c.machine),
        c.compiler.tag(),
        if quick { ".quick" } else { "" }
    );
    results_dir.join(name)
}

/// A new run; refused over an interrupted run's partial file, which it would overwrite.
pub fn start(r: &NewRun) -> Result<Setup, SessionError> {
    let flags = Compiler::split_flags(&r.flags);
    let compiler = Compiler::find(Some(&r.compiler), &flags)?;
    let base = if r.quick {
        Options::quick()
    } else {
        Options::standard()
    };
    let options = Options {
        tmax_s: r.tmax_s.unwrap_or(base.tmax_s),
        repeat: r.repeat.unwrap_or(base.repeat),
        rounds: r.rounds.unwrap_or(base.rounds),
        statistic: r.statistic.unwrap_or(base.statistic),
        only: r.only.as_deref().map(crate::parse_only).transpose()?,
        no_self_check: r.no_self_check,
        cache_dir: r.cache_dir.clone(),
        ..base
    };
    if options.repeat < 2 {
        return Err(SessionError::Repeat);
    }
    if options.rounds == 0 || options.rounds > options.repeat {
        return Err(SessionError::Rounds {
            repeat: options.repeat,
        });
    }
    if !(options.tmax_s > 0.0 && options.tmax_s <= 60.0) {
        return Err(SessionError::Tmax);
    }
    let characterization = crate::new_characterization(&compiler, &options);
    let result = r
        .out
        .clone()
        .unwrap_or_else(|| default_result_path(&r.results_dir, &characterization, r.quick));
    let partial = export::staged::partial_path(&result);
    if partial.exists() {
        return Err(SessionError::Interrupted { partial });
    }
    Ok(Setup {
        compiler,
        options,
        characterization,
        result,
    })
}

/// `--resume FILE`: continue an interrupted run (X.partial.json) or extend or re-estimate a
/// complete one (X.json); either way the result is X.json. `statistic`: re-estimate by this
/// one (even the file's own: this version may summarize some tests differently). `note`
/// gets what the plan does, as it is decided.
pub fn resume(
    path: &Path,
    statistic: Option<Statistic>,
    no_self_check: bool,
    cache_dir: &Path,
    note: &mut dyn FnMut(String),
) -> Result<Setup, SessionError> {
    let mut prev = Characterization::load(path)?;
    // A file complete for the version that made it may lack the experiments a later
    // version added (a new parameter): resuming measures those, keeping the rest.
    let (planned, _) = crate::plan(prev.settings.only.as_deref());
    // A test this version changed is measured again, not mixed with the old one.
    let changed = crate::changed_tests(&prev, &planned);
    let missing = planned
        .iter()
        .filter(|e| prev.experiment(&e.name).is_none())
        .count();
    let new_here = missing + changed.len();
    let restated = statistic.is_some();
    let statistic = statistic.unwrap_or(prev.settings.statistic);
    if prev.complete && new_here == 0 && !restated {
        return Err(SessionError::AlreadyComplete {
            path: path.to_path_buf(),
        });
    }
    if restated {
        note(format!(
            "re-estimating the parameters of {} by the {} of their recorded observations (was: {})",
            path.display(),
            statistic.name(),
            prev.settings.statistic.name()
        ));
    }
    prev.settings.statistic = statistic;
    if prev.complete && missing > 0 {
        note(format!(
            "{} is complete but lacks {missing} experiments of this version's plan: measuring those",
            path.display()
        ));
    }
    if !changed.is_empty() {
        note(format!(
            "{} measured {} with tests this version has changed since: measuring them again",
            path.display(),
            changed.join(", ")
        ));
        crate::forget_experiments(&mut prev, &changed)?;
    }
    let compiler = Compiler::find(Some(&prev.compiler.path), &prev.compiler.flags)?;
    if compiler.version != prev.compiler.version {
        return Err(SessionError::CompilerChanged {
            path: path.to_path_buf(),
            was: prev.compiler.version.clone(),
            compiler: prev.compiler.path.clone(),
            now: compiler.version.clone(),
        });
    }
    let options = Options {
        tmax_s: prev.settings.tmax_s,
        repeat: prev.settings.repeat,
        statistic: prev.settings.statistic,
        quick: prev.settings.quick,
        only: prev.settings.only.clone(),
        no_self_check,
        cache_dir: cache_dir.to_path_buf(),
        rounds: prev.settings.rounds,
    };
    note(format!(
        "resuming {}: {} experiments already measured",
        path.display(),
        prev.experiments.len()
    ));
    Ok(Setup {
        compiler,
        options,
        characterization: prev,
        result: export::staged::result_path(path),
    })
}

/// The precision of a characterization's measured parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Precision {
    /// The median 90 % CI half-width, % (infinite for parameters below resolution).
    pub median_half_width_percent: f64,
    /// Parameters within ±5 %.
    pub within_5: usize,
    /// Measured parameters.
    pub parameters: usize,
    /// Parameters that cannot be separated from zero.
    pub below_resolution: usize,
}

/// What a finished characterization's report says beside its table.
#[derive(Debug, Clone)]
pub struct Summary<'a> {
    /// The measured (not derived) parameters.
    pub measured: Vec<&'a ParameterResult>,
    /// None when no parameter is measured.
    pub precision: Option<Precision>,
    /// Measured parameters whose 90 % interval is wider than ±5 %.
    pub wide: Vec<&'a ParameterResult>,
    /// Measured parameters that cannot be separated from zero (those unmeasured aside).
    pub zero: Vec<Param>,
    /// Parameters whose tests the compiler emptied at these flags (issue 27).
    pub unmeasured: Vec<Param>,
    /// How many parameters there are to measure.
    pub all: usize,
    /// INST's test ran but its instructions could not be counted (no issue bound, rule 17).
    pub inst_uncounted: bool,
    /// Experiments measured with tests this version has changed since.
    pub changed: Vec<String>,
}

/// The summary of a characterization's parameters.
pub fn summary(c: &Characterization) -> Summary<'_> {
    let measured: Vec<&ParameterResult> = c
        .parameters
        .iter()
        .filter(|r| r.test_kind != TestKind::Derived)
        .collect();
    let mut widths: Vec<f64> = measured
        .iter()
        .map(|r| {
            if r.below_resolution() {
                f64::INFINITY
            } else {
                r.estimate.ci_half_width_percent()
            }
        })
        .collect();
    widths.sort_by(|a, b| a.total_cmp(b));
    let precision = (!widths.is_empty()).then(|| Precision {
        median_half_width_percent: widths[widths.len() / 2],
        within_5: widths.iter().filter(|w| **w <= 5.0).count(),
        parameters: widths.len(),
        below_resolution: widths.iter().filter(|w| w.is_infinite()).count(),
    });
    let wide = measured
        .iter()
        .copied()
        .filter(|r| !r.below_resolution() && r.estimate.ci_half_width_percent() > 5.0)
        .collect();
    let zero = measured
        .iter()
        .filter(|r| r.below_resolution() && r.unmeasured.is_none())
        .map(|r| r.mnemonic)
        .collect();
    let unmeasured = c
        .parameters
        .iter()
        .filter(|r| r.unmeasured.is_some())
        .map(|r| r.mnemonic)
        .collect();
    // Rule 17 needs the test's instructions, counted in the compiler's assembly.
    let uncounted = c
        .experiment("INST")
        .is_some_and(|r| r.instructions.is_none());
    let inst_uncounted = uncounted && measured.iter().all(|r| r.mnemonic != Param::INST);
    let (planned, _) = crate::plan(c.settings.only.as_deref());
    let changed = crate::changed_tests(c, &planned);
    Summary {
        measured,
        precision,
        wide,
        zero,
        unmeasured,
        all: Param::measured().count(),
        inst_uncounted,
        changed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::characterization::{CompilerInfo, MachineInfo, RunSettings};

    #[test]
    fn the_default_result_is_named_by_machine_and_compiler_in_the_results_folder() {
        let c = Characterization::new(
            MachineInfo {
                cpu_model: "AMD EPYC".into(),
                cores: 2,
                os: String::new(),
                hostname: String::new(),
                arch: String::new(),
                ..Default::default()
            },
            CompilerInfo {
                path: "/usr/bin/gfortran".into(),
                version: "12".into(),
                flags: vec!["-O0".into()],
            },
            String::new(),
            RunSettings {
                tmax_s: 0.04,
                repeat: 10,
                statistic: Statistic::Min,
                quick: false,
                only: None,
                rounds: 2,
            },
        );
        let slug = harness::machine_slug(&c.machine);
        assert_eq!(
            default_result_path(Path::new("results"), &c, false),
            Path::new("results").join(format!("{slug}--gfortran-O0.json"))
        );
        assert_eq!(
            default_result_path(Path::new("out"), &c, true),
            Path::new("out").join(format!("{slug}--gfortran-O0.quick.json"))
        );
        let s = summary(&c);
        assert!(s.precision.is_none());
        assert!(s.measured.is_empty());
        assert!(s.all > 0);
    }
}

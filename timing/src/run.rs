//! Compile the routine once and a driver per point, run each under a time limit, and reduce
//! the samples per Whaley & Castaldo section 2.1: minimum of wall times, median of CPU times.

use crate::check::{self, Shape, Signature};
use crate::driver::{self, DriverConfig, FlushSet, Method};
use crate::spec::Spec;
use crate::TimingError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Which timer's statistic is the headline figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timer {
    /// Minimum of wall-clock samples.
    Wall,
    /// Median of CPU-time samples.
    Cpu,
}

/// The timing of one point in one context.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Timing {
    pub sizes: BTreeMap<String, i64>,
    pub method: Method,
    /// Operands out of cache at the call.
    pub flushed: Vec<String>,
    pub flush_kb: u64,
    /// Calls per timed interval and working sets (multi-call).
    pub calls_per_sample: u64,
    pub working_sets: u64,
    /// Multi-call: the timed interval that ended the calibration (at least the minimum
    /// interval unless the repetition cap was hit); 0 for one call.
    pub calibration_interval_s: f64,
    pub working_set_bytes: u64,
    /// Each array's first address modulo 4096 (MemAlign evidence).
    pub address_mod_4096: BTreeMap<String, u64>,
    /// Seconds per call, one value per sample.
    pub wall_s: Vec<f64>,
    pub cpu_s: Vec<f64>,
    pub wall_min_s: f64,
    pub wall_median_s: f64,
    pub cpu_median_s: f64,
    /// (max - min) / min of the wall samples; None when the minimum is zero.
    #[serde(default)]
    pub wall_spread: Option<f64>,
    /// (max - min) / median of the CPU samples; None when the median is zero (calls shorter
    /// than the CPU timer's resolution, as in-application samples of a short routine are).
    #[serde(default)]
    pub cpu_spread: Option<f64>,
    pub flop: Option<f64>,
    /// From the headline statistic of the chosen timer.
    pub mflops: Option<f64>,
    pub timer: Timer,
    /// The headline seconds per call.
    pub seconds: f64,
}

use model::stats::median;

impl Timing {
    /// Recompute the statistics from the samples (Whaley & Castaldo section 2.1).
    pub fn with_statistics(mut self) -> Timing {
        let (wall, cpu) = (&self.wall_s, &self.cpu_s);
        let wmin = wall.iter().cloned().fold(f64::INFINITY, f64::min);
        let wmax = wall.iter().cloned().fold(0.0, f64::max);
        let cmin = cpu.iter().cloned().fold(f64::INFINITY, f64::min);
        let cmax = cpu.iter().cloned().fold(0.0, f64::max);
        let cmed = median(cpu);
        self.wall_median_s = median(wall);
        self.wall_min_s = wmin;
        self.cpu_median_s = cmed;
        self.wall_spread = (wmin > 0.0).then(|| (wmax - wmin) / wmin);
        self.cpu_spread = (cmed > 0.0).then(|| (cmax - cmin) / cmed);
        self.seconds = match self.timer {
            Timer::Wall => wmin,
            Timer::Cpu => cmed,
        };
        self.mflops = self
            .flop
            .filter(|_| self.seconds > 0.0)
            .map(|f| f / self.seconds / 1e6);
        self
    }

    /// Pool the samples of another run of the same context (a later round).
    pub fn merge(mut self, other: Timing) -> Timing {
        self.wall_s.extend(other.wall_s);
        self.cpu_s.extend(other.cpu_s);
        self.calls_per_sample = self.calls_per_sample.max(other.calls_per_sample);
        self.with_statistics()
    }
}

/// A prepared routine: the spec, its checked signature and its compiled object.
pub struct Prepared {
    pub spec: Spec,
    pub sig: Signature,
    pub compiler: harness::Compiler,
    pub dir: tempfile::TempDir,
    pub object: PathBuf,
    pub time_limit: Duration,
}

/// The routine's source without its main program (a whole application's file can hold the
/// routine; the driver brings its own main program). Line numbers are kept, so compiler
/// messages still point at the user's file.
pub fn routine_source(spec: &Spec) -> Result<String, TimingError> {
    let program = analyzer::load(
        std::slice::from_ref(&spec.file),
        &analyzer::AnalyzeOptions::default(),
    )
    .map_err(|e| TimingError::Other(format!("cannot read {}: {e}", spec.file.display())))?;
    let file = &program.files[0];
    let mut lines = file.lines.clone();
    for u in program
        .units
        .iter()
        .filter(|u| u.kind == analyzer::symbols::UnitKind::Main && u.end > u.first)
    {
        let first = program.statement(u.first).first_line() as usize;
        let last_stmt = program.statement(u.end - 1);
        let last = *last_stmt.lines.last().unwrap_or(&last_stmt.lines[0]) as usize;
        for l in lines.iter_mut().take(last + 1).skip(first) {
            *l = "C".to_string();
        }
    }
    Ok(lines.join("\n") + "\n")
}

/// Check the spec against the source, then compile the routine (once for all points).
pub fn prepare(
    spec: Spec,
    compiler: harness::Compiler,
    time_limit: Duration,
) -> Result<Prepared, TimingError> {
    let sig = check::check_routine(&spec)?;
    for p in spec.points() {
        check::shape(&spec, &p)?;
    }
    let dir = tempfile::tempdir().map_err(|e| TimingError::Io("temporary directory".into(), e))?;
    let src = dir.path().join("routine.f");
    std::fs::write(&src, routine_source(&spec)?)
        .map_err(|e| TimingError::Io(src.display().to_string(), e))?;
    let object = dir.path().join("routine.o");
    compiler
        .compile_object(&src, &object, &[])
        .map_err(TimingError::Compile)?;
    Ok(Prepared {
        spec,
        sig,
        compiler,
        dir,
        object,
        time_limit,
    })
}

impl Prepared {
    /// Generate, compile and run the driver for one point; reduce its samples.
    pub fn time(
        &self,
        shape: &Shape,
        cfg: &DriverConfig,
        timer: Timer,
    ) -> Result<Timing, TimingError> {
        let text = driver::generate(&self.spec, &self.sig, shape, cfg);
        let d = self.dir.path();
        let src = d.join("driver.f");
        std::fs::write(&src, &text).map_err(|e| TimingError::Io(src.display().to_string(), e))?;
        let exe = d.join("driver");
        self.compiler
            .build(&[src.clone(), self.object.clone()], &exe, &[])
            .map_err(|e| TimingError::DriverCompile(e, text.clone()))?;
        let out = harness::run_limited(&mut Command::new(&exe), self.time_limit, None)?;
        if !out.success() {
            return Err(TimingError::Other(format!(
                "the driver ended with {}:\n{}",
                out.status, out.stderr
            )));
        }
        let (pools, _) = driver::layout(&self.spec, shape, cfg);
        parse_output(&out.stdout, shape, cfg, timer, &pools)
    }
}

fn parse_output(
    stdout: &str,
    shape: &Shape,
    cfg: &DriverConfig,
    timer: Timer,
    pools: &[driver::Pool],
) -> Result<Timing, TimingError> {
    let mut reps = 0u64;
    let mut sets = 0u64;
    let mut calib = 0.0;
    let mut addr = BTreeMap::new();
    let mut wall = vec![];
    let mut cpu = vec![];
    for line in stdout.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| -> Option<f64> { w.get(i).and_then(|t| t.parse().ok()) };
        match (w.first(), w.get(1)) {
            (Some(&"OPCOST"), Some(&"REPS")) => {
                reps = num(2).unwrap_or(0.0) as u64;
                sets = num(3).unwrap_or(0.0) as u64;
                calib = num(4).unwrap_or(0.0);
            }
            (Some(&"OPCOST"), Some(&"ADDR")) => {
                if let (Some(n), Some(v)) = (w.get(2), num(3)) {
                    addr.insert(n.to_string(), v as u64);
                }
            }
            (Some(&"OPCOST"), Some(&"SAMPLE")) => {
                if let (Some(a), Some(b)) = (num(2), num(3)) {
                    wall.push(a);
                    cpu.push(b);
                }
            }
            _ => {}
        }
    }
    if reps == 0 || wall.len() != cfg.samples as usize {
        return Err(TimingError::Other(format!(
            "the driver's output is incomplete ({} of {} samples):\n{stdout}",
            wall.len(),
            cfg.samples
        )));
    }
    let per = |v: Vec<f64>| v.into_iter().map(|x| x / reps as f64).collect::<Vec<_>>();
    let (wall, cpu) = (per(wall), per(cpu));
    Ok(Timing {
        sizes: shape.sizes.clone(),
        method: cfg.method,
        flushed: pools
            .iter()
            .filter(|p| p.flushed)
            .map(|p| p.name.clone())
            .collect(),
        flush_kb: if pools.iter().any(|p| p.flushed) {
            cfg.flush_kb
        } else {
            0
        },
        calls_per_sample: reps,
        working_sets: sets,
        calibration_interval_s: calib,
        working_set_bytes: shape.working_set,
        address_mod_4096: addr,
        wall_median_s: 0.0,
        wall_min_s: 0.0,
        cpu_median_s: 0.0,
        wall_spread: None,
        cpu_spread: None,
        wall_s: wall,
        cpu_s: cpu,
        flop: shape.flop,
        mflops: None,
        timer,
        seconds: 0.0,
    }
    .with_statistics())
}

impl Prepared {
    /// Time each configuration in turn, `rounds` times over, and pool each one's samples:
    /// contexts measured side by side see the same load on a shared machine.
    pub fn time_rounds(
        &self,
        shape: &Shape,
        cfgs: &[DriverConfig],
        timer: Timer,
        rounds: u32,
    ) -> Result<Vec<Timing>, TimingError> {
        let mut out: Vec<Option<Timing>> = vec![None; cfgs.len()];
        for _ in 0..rounds.max(1) {
            for (slot, cfg) in out.iter_mut().zip(cfgs) {
                let t = self.time(shape, cfg, timer)?;
                *slot = Some(match slot.take() {
                    Some(prev) => prev.merge(t),
                    None => t,
                });
            }
        }
        Ok(out
            .into_iter()
            .map(|t| t.expect("at least one round"))
            .collect())
    }
}

/// Flushed and unflushed timings of one point (a row of the sweep, Whaley & Castaldo fig. 1).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SweepPoint {
    pub hot: Timing,
    pub cold: Timing,
    /// cold seconds / hot seconds.
    pub ratio: f64,
}

/// Time every point of the spec with no flush and with `cold`'s flush.
pub fn sweep(
    prep: &Prepared,
    cold: &DriverConfig,
    timer: Timer,
    rounds: u32,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<SweepPoint>, TimingError> {
    let hot = DriverConfig {
        flush: FlushSet::None,
        ..cold.clone()
    };
    let mut out = vec![];
    for p in prep.spec.points() {
        let shape = check::shape(&prep.spec, &p)?;
        progress(&format!("{:?}", p));
        let mut both = prep.time_rounds(&shape, &[hot.clone(), cold.clone()], timer, rounds)?;
        let c = both.pop().expect("two");
        let h = both.pop().expect("two");
        let ratio = c.seconds / h.seconds;
        out.push(SweepPoint {
            hot: h,
            cold: c,
            ratio,
        });
    }
    Ok(out)
}

/// Shapes of all points.
pub fn shapes(spec: &Spec) -> Result<Vec<Shape>, TimingError> {
    spec.points()
        .iter()
        .map(|p| check::shape(spec, p).map_err(TimingError::from))
        .collect()
}

/// The directory holding a spec's relative paths.
pub fn spec_dir(spec: &Spec) -> &Path {
    spec.path.parent().unwrap_or(Path::new("."))
}

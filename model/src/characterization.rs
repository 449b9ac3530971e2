//! The Characterization file: a machine + compiler + flags as a vector of parameter costs
//! (Saavedra-Barrera's section 4) with the X-Ray hardware section (X-Ray, 000).

use crate::catalogue::Param;
use crate::estimate::Estimate;
use crate::files::Versioned;
use crate::hardware::HardwareReport;
use serde::{Deserialize, Serialize};

/// The machine a characterization was made on. The fields after `arch` came later: files
/// without them still read (empty).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MachineInfo {
    pub cpu_model: String,
    pub cores: usize,
    pub os: String,
    pub hostname: String,
    pub arch: String,
    /// The data and unified caches the operating system reports (sysfs), one per level.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub os_caches: Vec<OsCache>,
    /// `/etc/machine-id`: tells apart hosts of the same CPU model and host name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub machine_id: String,
    /// The Slurm partition the run was made in (`SLURM_JOB_PARTITION`), when under Slurm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slurm_partition: Option<String>,
}

/// One cache level as the operating system reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OsCache {
    pub level: u32,
    /// `Data` or `Unified`.
    pub kind: String,
    pub size_bytes: u64,
    /// Its associativity, where sysfs says (absent in files written before it was read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ways: Option<u32>,
}

impl MachineInfo {
    /// The largest cache the operating system reports, bytes (0 when it reports none).
    pub fn largest_os_cache_bytes(&self) -> u64 {
        self.os_caches
            .iter()
            .map(|c| c.size_bytes)
            .max()
            .unwrap_or(0)
    }

    /// A short key that tells hosts apart: the first 12 hex digits of the SHA-256 of the CPU
    /// model, core count, the caches the OS reports, the host name and the machine id. Two
    /// hosts of one CPU model (a cloud's instances) get different keys; one host keeps its
    /// key across runs.
    pub fn host_key(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(format!(
            "{}\n{}\n{}\n{}\n",
            self.cpu_model, self.cores, self.hostname, self.machine_id
        ));
        for c in &self.os_caches {
            h.update(format!("L{} {} {}\n", c.level, c.kind, c.size_bytes));
        }
        h.finalize()
            .iter()
            .take(6)
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The compiler is part of the characterized system (Saavedra-Barrera's section 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompilerInfo {
    pub path: String,
    pub version: String,
    pub flags: Vec<String>,
}

impl CompilerInfo {
    /// Short tag for file names: `gfortran-O0`.
    pub fn tag(&self) -> String {
        let name = std::path::Path::new(&self.path)
            .file_name()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| self.path.clone());
        let flags: String = self
            .flags
            .iter()
            .map(|f| f.trim_start_matches('-').replace(['=', '/', ' '], "_"))
            .collect::<Vec<_>>()
            .join("_");
        if flags.is_empty() {
            name
        } else {
            format!("{name}-{flags}")
        }
    }
}

/// Which estimator turns a sample of observations into a measurement (Saavedra-Barrera's section 4.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Statistic {
    #[default]
    Mean,
    Median,
    Min,
    /// The median over the rounds (processes) of each round's minimum: within a process the
    /// minimum drops the interruptions, across processes the median takes the host's typical
    /// state rather than its fastest one. The minimum over all rounds picks the fastest
    /// process, and with more rounds a faster one: the committed five-round files sat 6 %
    /// (median over the experiments) under this estimate, and their predictions 6-12 % under
    /// the samples' fastest runs (docs/model.md, refinement 20).
    #[serde(rename = "round-median")]
    RoundMedian,
}

impl Statistic {
    /// The estimator's name in messages ("the minimum of ...").
    pub fn name(self) -> &'static str {
        match self {
            Statistic::Mean => "mean",
            Statistic::Median => "median",
            Statistic::Min => "minimum",
            Statistic::RoundMedian => {
                "round median (the median over the processes of each one's minimum)"
            }
        }
    }
}

/// How a parameter was isolated (Saavedra-Barrera's section 4.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TestKind {
    /// The body holds N occurrences of the operation and nothing else.
    Direct,
    /// The body holds other, already measured operations too, which are subtracted.
    Composite,
    /// Solved from two or more experiments that differ in the number of operations.
    Indirect,
    /// Not measured: computed from other parameters (ARR4, ARRN).
    Derived,
}

/// Settings of the run that produced a characterization.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// Minimum duration of one observation, seconds (Saavedra-Barrera's figure 4.4, TMAX).
    pub tmax_s: f64,
    /// Observations per experiment (REPEAT).
    pub repeat: usize,
    pub statistic: Statistic,
    pub quick: bool,
    /// The parameters asked for with `--only` (None: all of them); a resumed run keeps it.
    #[serde(default)]
    pub only: Option<Vec<crate::catalogue::Param>>,
    /// Each experiment's observations come from this many processes, run in rounds over
    /// all experiments (absent in older files: one).
    #[serde(default = "one_round")]
    pub rounds: usize,
}

fn one_round() -> usize {
    1
}

/// The timer and the overheads measured before the tests (Saavedra-Barrera's table 4.8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimerInfo {
    pub name: String,
    pub resolution_ns: f64,
    pub call_overhead_ns: f64,
    /// Cost of one pass of the IF/GO TO test loop with an empty body, subtracted from every body.
    pub loop_overhead: Estimate,
}

/// One measured (or derived) parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParameterResult {
    pub mnemonic: Param,
    pub number: u8,
    pub estimate: Estimate,
    pub test_kind: TestKind,
    /// The experiments whose observations produced it.
    pub experiments: Vec<String>,
    /// Why it measures nothing at these flags: the compiler emitted no instruction for its
    /// tests' bodies (the operation was removed, or hoisted out of the timed loop), so its
    /// estimate is noise around zero (issue 27). Absent when its tests kept their work.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmeasured: Option<String>,
}

impl ParameterResult {
    /// Mark the parameter unmeasured when every experiment it comes from recorded a pass of
    /// no instructions (issue 27: at optimizing flags the compiler may drop a test's work; a
    /// pass with loop control alone still counts the control's lines, so zero means nothing
    /// of the body or its loop survived by line). Experiments without a count leave it be.
    pub fn mark_if_removed(&mut self, records: &[ExperimentRecord]) {
        let counts: Vec<Option<u64>> = self
            .experiments
            .iter()
            .map(|e| {
                records
                    .iter()
                    .find(|r| &r.name == e)
                    .and_then(|r| r.instructions)
            })
            .collect();
        if !counts.is_empty() && counts.iter().all(|c| *c == Some(0)) {
            self.unmeasured = Some(format!(
                "the compiler emitted no instruction for its test{} ({}) at these flags",
                if counts.len() > 1 { "s" } else { "" },
                self.experiments.join(", ")
            ));
        }
    }

    /// Saavedra-Barrera's "cannot be separated from zero" (printed as "1<" in its tables).
    pub fn below_resolution(&self) -> bool {
        !self.estimate.separable_from_zero()
    }
}

/// The raw observations of one experiment, kept so an interrupted run can resume and so a
/// result can be re-analysed with another statistic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentRecord {
    pub name: String,
    /// Times the body ran per observation (LIMIT).
    pub iterations: u64,
    /// Seconds per observation, as the timer returned them.
    pub observations_s: Vec<f64>,
    /// Instructions the compiler emitted for one pass of the test's loop (the body's lines
    /// and the loop control's, in its assembly; exact for a straight-line body). Absent when
    /// the compiler's assembly has no line directives (flang-new 16) and in files made
    /// before rule 17.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<u64>,
    /// Of `instructions`, those that load or store (rule 17: MEMO divides by them). Absent
    /// where `instructions` is and in files made before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_instructions: Option<u64>,
    /// Fingerprint of the test as it was measured (its initial values and body): a later
    /// version that changes the test measures it again on `--resume` instead of mixing the
    /// two. Absent in files made before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_fingerprint: Option<String>,
}

/// A statement no test used, timed and predicted from the parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelfCheck {
    pub statement: String,
    pub measured: Estimate,
    pub predicted_ns: f64,
    pub error_percent: f64,
}

/// A machine characterization (file format `opcost-characterization`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Characterization {
    pub format: String,
    pub format_version: u32,
    /// False while a run is interrupted or in progress; `--resume` completes it.
    pub complete: bool,
    pub machine: MachineInfo,
    pub compiler: CompilerInfo,
    /// RFC 3339, UTC.
    pub date: String,
    pub settings: RunSettings,
    pub timer: Option<TimerInfo>,
    pub parameters: Vec<ParameterResult>,
    pub experiments: Vec<ExperimentRecord>,
    pub self_check: Vec<SelfCheck>,
    pub xray: Option<HardwareReport>,
    /// Wall time the characterization took, seconds.
    pub wall_time_s: f64,
    /// Parameters whose solution came out as NaN or infinity (a singular solve, a zero
    /// time): left out of `parameters`, named here so readers can say why they are missing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub non_finite: Vec<Param>,
}

impl Versioned for Characterization {
    const FORMAT: &'static str = "opcost-characterization";
    const VERSION: u32 = 1;

    /// Every number of a parameter's estimate must be a number: an older opcost wrote a NaN
    /// as `null`, which would otherwise fail with a line and column instead of its name.
    fn check(value: &serde_json::Value) -> Result<(), String> {
        let Some(params) = value.get("parameters").and_then(|p| p.as_array()) else {
            return Ok(());
        };
        for (i, p) in params.iter().enumerate() {
            let name = p.get("mnemonic").and_then(|m| m.as_str()).map_or_else(
                || format!("parameter {}", i + 1),
                |m| format!("parameter {m}"),
            );
            let Some(e) = p.get("estimate") else {
                return Err(format!("{name} has no estimate"));
            };
            for field in ["mean_ns", "std_dev_ns", "ci_low_ns", "ci_high_ns"] {
                match e.get(field) {
                    Some(v) if v.as_f64().is_some_and(f64::is_finite) => {}
                    Some(v) => {
                        return Err(format!(
                            "{name}: estimate.{field} is {v}, not a finite number (a NaN or infinity written by an older opcost); measure it again with `opcost characterize --only {}` or remove it from the file",
                            p.get("mnemonic").and_then(|m| m.as_str()).unwrap_or("...")
                        ))
                    }
                    None => return Err(format!("{name}: estimate.{field} is missing")),
                }
            }
        }
        Ok(())
    }
}

impl Characterization {
    /// Read a characterization file, with a clear error for a foreign, damaged or old one.
    pub fn load(path: &std::path::Path) -> Result<Self, crate::files::LoadError> {
        crate::files::load_versioned(path, "characterization ")
    }

    pub fn new(
        machine: MachineInfo,
        compiler: CompilerInfo,
        date: String,
        settings: RunSettings,
    ) -> Self {
        Characterization {
            format: Self::FORMAT.to_string(),
            format_version: Self::VERSION,
            complete: false,
            machine,
            compiler,
            date,
            settings,
            timer: None,
            parameters: Vec::new(),
            experiments: Vec::new(),
            self_check: Vec::new(),
            xray: None,
            wall_time_s: 0.0,
            non_finite: Vec::new(),
        }
    }

    /// Move every parameter whose estimate is not finite to `non_finite`, and drop the
    /// self-check rows that are not (JSON has no NaN: the file could not be read again).
    /// Returns the parameters moved by this call.
    pub fn drop_non_finite(&mut self) -> Vec<Param> {
        let finite = |e: &Estimate| {
            [e.mean_ns, e.std_dev_ns, e.ci_low_ns, e.ci_high_ns]
                .iter()
                .all(|v| v.is_finite())
        };
        let moved: Vec<Param> = self
            .parameters
            .iter()
            .filter(|r| !finite(&r.estimate))
            .map(|r| r.mnemonic)
            .collect();
        self.parameters.retain(|r| finite(&r.estimate));
        self.non_finite
            .retain(|p| self.parameters.iter().all(|r| r.mnemonic != *p));
        for p in &moved {
            if !self.non_finite.contains(p) {
                self.non_finite.push(*p);
            }
        }
        self.self_check.retain(|c| {
            finite(&c.measured) && c.predicted_ns.is_finite() && c.error_percent.is_finite()
        });
        moved
    }

    pub fn parameter(&self, p: Param) -> Option<&ParameterResult> {
        self.parameters.iter().find(|r| r.mnemonic == p)
    }

    pub fn experiment(&self, name: &str) -> Option<&ExperimentRecord> {
        self.experiments.iter().find(|e| e.name == name)
    }
}

/// Exported as its JSON document, and as the parameter table (one row per parameter, units
/// in the header) in CSV and Markdown.
impl export::Export for Characterization {
    fn what(&self) -> String {
        "the characterization".into()
    }

    fn table(&self) -> export::Table {
        use export::columns::{DESCRIPTION, MNEMONIC, NUMBER, REGION};
        let mut t = export::Table::new(&[
            NUMBER,
            MNEMONIC,
            REGION,
            DESCRIPTION,
            "mean_ns",
            "std_dev_ns",
            "ci_low_ns",
            "ci_high_ns",
            "ci_half_width_percent",
            "observations",
            "test_kind",
            "below_resolution",
        ])
        .right(&[
            NUMBER,
            "mean_ns",
            "std_dev_ns",
            "ci_low_ns",
            "ci_high_ns",
            "ci_half_width_percent",
            "observations",
        ]);
        for r in &self.parameters {
            let d = r.mnemonic.def();
            let kind = serde_json::to_value(r.test_kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            t.push(vec![
                d.number.to_string(),
                d.mnemonic.to_string(),
                d.region.0.to_string(),
                d.description(),
                format!("{:.4}", r.estimate.mean_ns),
                format!("{:.4}", r.estimate.std_dev_ns),
                format!("{:.4}", r.estimate.ci_low_ns),
                format!("{:.4}", r.estimate.ci_high_ns),
                format!("{:.2}", r.estimate.ci_half_width_percent()),
                r.estimate.observations.to_string(),
                kind,
                r.below_resolution().to_string(),
            ]);
        }
        t
    }
}

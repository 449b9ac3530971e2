//! Slurm's client commands (sbatch, scontrol, squeue, sacct), run as they are installed:
//! the cluster is found the way those commands find it (slurm.conf, `SLURM_CONF`). The
//! parsing of their output is separate, plain functions, so it is tested without a cluster.

use crate::FleetError;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// What Slurm says about one array task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobState {
    Pending,
    Running,
    Completed,
    /// Ended without success: Slurm's state (FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ...).
    Failed(String),
}

impl JobState {
    /// Slurm's word for it (`RUNNING`; a failure's own, `TIMEOUT`).
    pub fn name(&self) -> &str {
        match self {
            JobState::Pending => "PENDING",
            JobState::Running => "RUNNING",
            JobState::Completed => "COMPLETED",
            JobState::Failed(s) => s,
        }
    }

    /// From a state as squeue (`%T`) and sacct print it (`CANCELLED by 0`: its first word).
    pub fn parse(s: &str) -> Option<JobState> {
        let word = s.split_whitespace().next()?.trim_end_matches('+');
        Some(match word {
            "PENDING" | "REQUEUED" | "REQUEUE_HOLD" | "REQUEUE_FED" | "RESV_DEL_HOLD" => {
                JobState::Pending
            }
            "RUNNING" | "CONFIGURING" | "COMPLETING" | "SUSPENDED" | "STOPPED" | "SIGNALING"
            | "STAGE_OUT" | "RESIZING" => JobState::Running,
            "COMPLETED" => JobState::Completed,
            other => JobState::Failed(other.to_string()),
        })
    }
}

/// Run a Slurm command; its standard output on success. A command that is not installed is
/// [`FleetError::SlurmMissing`], with the way to install it.
fn run(command: &str, args: &[String]) -> Result<String, FleetError> {
    let out = Command::new(command).args(args).output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            FleetError::SlurmMissing {
                command: command.into(),
            }
        } else {
            FleetError::Slurm {
                command: command.into(),
                message: e.to_string(),
            }
        }
    })?;
    if !out.status.success() {
        return Err(FleetError::Slurm {
            command: format!("{command} {}", args.join(" ")),
            message: error_line(&String::from_utf8_lossy(&out.stderr))
                .unwrap_or_else(|| out.status.to_string()),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The line of a Slurm command's error output that says what went wrong: its `fatal:` line,
/// else its last line (the lines before are the steps that led there).
fn error_line(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .find(|l| l.contains("fatal:"))
        .or(lines.last())
        .map(|l| l.to_string())
}

/// Whether `command` is installed (on PATH); it may still fail to reach a cluster.
pub fn installed(command: &str) -> bool {
    Command::new(command).arg("--version").output().is_ok()
}

/// Submit a batch script; the job's id. `hold`: it waits for [`release`].
pub fn sbatch(script: &Path, hold: bool) -> Result<String, FleetError> {
    let mut args = vec!["--parsable".to_string()];
    if hold {
        args.push("--hold".into());
    }
    args.push(script.display().to_string());
    parse_job_id(&run("sbatch", &args)?).ok_or_else(|| FleetError::Slurm {
        command: "sbatch --parsable".into(),
        message: "it printed no job id".into(),
    })
}

/// `1234` or `1234;cluster` (sbatch --parsable) → `1234`.
pub fn parse_job_id(out: &str) -> Option<String> {
    let id = out.trim().split(';').next()?.trim();
    (!id.is_empty() && id.chars().all(|c| c.is_ascii_digit())).then(|| id.to_string())
}

/// Set one field of a pending job or array task (`scontrol update JobId=12_1 Partition=p`).
pub fn update(job: &str, field: &str, value: &str) -> Result<(), FleetError> {
    run(
        "scontrol",
        &[
            "update".into(),
            format!("JobId={job}"),
            format!("{field}={value}"),
        ],
    )
    .map(|_| ())
}

/// Let a held job start.
pub fn release(job: &str) -> Result<(), FleetError> {
    run("scontrol", &["release".into(), job.into()]).map(|_| ())
}

/// Cancel a job (all its array tasks).
pub fn cancel(job: &str) -> Result<(), FleetError> {
    run("scancel", &[job.into()]).map(|_| ())
}

/// The state of each task of an array job that Slurm still knows: the controller's memory
/// (squeue, recent jobs) first, then the accounting database (sacct) where one is kept.
/// Empty when neither knows the job (it ended long ago, or accounting is off).
pub fn task_states(job: &str) -> Result<BTreeMap<u32, JobState>, FleetError> {
    let squeue = run(
        "squeue",
        &[
            "--noheader".into(),
            "--states=all".into(),
            format!("--jobs={job}"),
            "--format=%F|%K|%T".into(),
        ],
    );
    let mut states = match squeue {
        Ok(out) => parse_squeue(&out, job),
        // An id the controller has forgotten is an error for squeue, not a state.
        Err(FleetError::Slurm { message, .. }) if message.contains("Invalid job id") => {
            BTreeMap::new()
        }
        Err(e) => return Err(e),
    };
    let sacct = [
        "--noheader",
        "--parsable2",
        "--allocations",
        "--format=JobID,State",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--jobs={job}")])
    .collect::<Vec<_>>();
    if let Ok(out) = run("sacct", &sacct) {
        for (task, state) in parse_sacct(&out, job) {
            states.entry(task).or_insert(state);
        }
    }
    Ok(states)
}

/// squeue `--format=%F|%K|%T` lines (array job id, task index, state) of one array job.
pub fn parse_squeue(out: &str, job: &str) -> BTreeMap<u32, JobState> {
    states_of_lines(out, job, |line| {
        let f: Vec<&str> = line.split('|').collect();
        match f[..] {
            [array, task, state] => Some((array, task, state)),
            _ => None,
        }
    })
}

/// The states of one array job's tasks from Slurm's lines, each split by `fields` into
/// (array job id, task index or range, state); lines of other jobs are skipped.
fn states_of_lines<'a>(
    out: &'a str,
    job: &str,
    fields: impl Fn(&'a str) -> Option<(&'a str, &'a str, &'a str)>,
) -> BTreeMap<u32, JobState> {
    let mut states = BTreeMap::new();
    for (array, task, state) in out.lines().filter_map(|l| fields(l.trim())) {
        if array != job {
            continue;
        }
        if let (Some(tasks), Some(s)) = (task_indices(task), JobState::parse(state)) {
            for t in tasks {
                states.insert(t, s.clone());
            }
        }
    }
    states
}

/// An array task index as squeue prints it: `3`, or a pending range `[0-2,5]`.
fn task_indices(s: &str) -> Option<Vec<u32>> {
    let s = s.trim_start_matches('[').trim_end_matches(']');
    let s = s.split('%').next()?;
    let mut out = Vec::new();
    for part in s.split(',') {
        match part.split_once('-') {
            Some((a, b)) => out.extend(a.parse::<u32>().ok()?..=b.parse::<u32>().ok()?),
            None => out.push(part.parse().ok()?),
        }
    }
    Some(out)
}

/// sacct `--parsable2 --format=JobID,State` lines (`1234_0|COMPLETED`) of one array job.
pub fn parse_sacct(out: &str, job: &str) -> BTreeMap<u32, JobState> {
    states_of_lines(out, job, |line| {
        let (id, state) = line.split_once('|')?;
        let (array, task) = id.split_once('_')?;
        Some((array, task, state))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_telling_line_of_an_error() {
        let e = "squeue: error: DNS SRV lookup failed\nsqueue: fatal: Could not establish a configuration source\n";
        assert_eq!(
            error_line(e).unwrap(),
            "squeue: fatal: Could not establish a configuration source"
        );
        let e = "sbatch: error: Batch job submission failed: Invalid partition name specified\n";
        assert!(error_line(e)
            .unwrap()
            .ends_with("Invalid partition name specified"));
        assert_eq!(error_line(" \n"), None);
    }

    #[test]
    fn job_ids_from_sbatch() {
        assert_eq!(parse_job_id("1234\n").as_deref(), Some("1234"));
        assert_eq!(parse_job_id("77;cluster\n").as_deref(), Some("77"));
        assert_eq!(parse_job_id("Submitted batch job 5"), None);
        assert_eq!(parse_job_id(""), None);
    }

    #[test]
    fn squeue_lines_give_each_tasks_state() {
        let out = "12|0|COMPLETED\n12|1|RUNNING\n12|[2-3,5]|PENDING\n13|0|FAILED\nnoise\n";
        let s = parse_squeue(out, "12");
        assert_eq!(s[&0], JobState::Completed);
        assert_eq!(s[&1], JobState::Running);
        assert_eq!(s[&3], JobState::Pending);
        assert_eq!(s[&5], JobState::Pending);
        assert_eq!(s.len(), 5);
    }

    #[test]
    fn sacct_lines_give_each_tasks_state() {
        let out = "12_0|COMPLETED\n12_1|CANCELLED by 0\n12_[2-3]|PENDING\n12|RUNNING\n";
        let s = parse_sacct(out, "12");
        assert_eq!(s[&0], JobState::Completed);
        assert_eq!(s[&1], JobState::Failed("CANCELLED".into()));
        assert_eq!(s[&2], JobState::Pending);
        assert_eq!(s.len(), 4);
    }

    #[test]
    fn states_fold_to_four() {
        assert_eq!(JobState::parse("COMPLETING"), Some(JobState::Running));
        assert_eq!(
            JobState::parse("TIMEOUT"),
            Some(JobState::Failed("TIMEOUT".into()))
        );
        assert_eq!(JobState::parse(""), None);
    }
}

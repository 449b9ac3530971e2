//! The state of a fleet: per result file, what the files say (complete, partial, missing),
//! what Slurm says about its last task, merged into one word a person acts on.

use crate::folder::{self, Folder, Problem};
use crate::slurm::JobState;
use crate::state::{FleetState, TaskRecord};
use crate::FleetError;
use model::characterization::Characterization;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// What to tell the user about one node type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Progress {
    Done,
    Running,
    Pending,
    Failed,
    /// Without Slurm's view: a partial file, which may be running or not.
    Partial,
    /// Without Slurm's view: no file yet.
    Missing,
}

impl Progress {
    pub fn name(self) -> &'static str {
        match self {
            Progress::Done => "done",
            Progress::Running => "running",
            Progress::Pending => "pending",
            Progress::Failed => "failed",
            Progress::Partial => "partial",
            Progress::Missing => "missing",
        }
    }
}

/// What the folder holds for a result file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileState {
    Complete,
    Partial,
    Missing,
}

/// One row of the status table.
#[derive(Debug, Clone, Serialize)]
pub struct NodeStatus {
    pub node_type: String,
    /// The result file's name.
    pub result: String,
    pub progress: Progress,
    pub file: FileState,
    /// `1234_0`, when a task is recorded.
    pub task: Option<String>,
    /// Slurm's state of the task, when Slurm knows it.
    pub slurm_state: Option<String>,
    /// Seconds since the characterization (of the complete file, else the partial) was made.
    pub age_s: Option<i64>,
    pub partition: Option<String>,
    pub cpu: Option<String>,
    pub host: Option<String>,
    /// What to do or where to look, when anything.
    pub note: String,
}

/// The fleet's status (serialized by `opcost fleet status --json`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub format: String,
    pub format_version: u32,
    pub dir: String,
    /// Why Slurm's view is missing (not installed, not reachable); None when it was asked.
    pub slurm_note: Option<String>,
    pub nodes: Vec<NodeStatus>,
    pub problems: Vec<Problem>,
}

/// Merge the files' and Slurm's view (`job`: None when Slurm was not asked or does not know
/// the task) into one word and a note.
pub fn merge(
    file: FileState,
    record: Option<&TaskRecord>,
    job: Option<&JobState>,
    slurm_asked: bool,
) -> (Progress, String) {
    let log = || record.map_or(String::new(), |r| format!("; its log: {}", r.log.display()));
    match (job, file) {
        (Some(JobState::Running), _) => (Progress::Running, String::new()),
        (Some(JobState::Pending), _) => (Progress::Pending, String::new()),
        (Some(JobState::Failed(s)), FileState::Complete) => (
            Progress::Done,
            format!("the last task ended {s}; the complete file is an earlier run's{}", log()),
        ),
        (_, FileState::Complete) => (Progress::Done, String::new()),
        (Some(JobState::Failed(s)), _) => (
            Progress::Failed,
            format!("Slurm: {s}{}; `opcost fleet submit` again resumes or restarts it", log()),
        ),
        (Some(JobState::Completed), _) => (
            Progress::Failed,
            format!("the task ended without a complete file{}", log()),
        ),
        (None, f) if !slurm_asked => match f {
            FileState::Partial => (Progress::Partial, "Slurm not asked: running or interrupted".into()),
            _ => (Progress::Missing, "Slurm not asked".into()),
        },
        (None, f) => match record {
            Some(r) => (
                Progress::Failed,
                format!(
                    "Slurm no longer knows task {} and the file is {}{}; `opcost fleet submit` again resumes or restarts it",
                    r.slurm_id(),
                    if f == FileState::Partial { "partial" } else { "missing" },
                    log()
                ),
            ),
            None => (Progress::Failed, "a partial file no recorded task is making".into()),
        },
    }
}

/// Slurm's view of one array job's tasks (tests give their own), or why it cannot be had.
pub type Ask<'a> = &'a mut dyn FnMut(&str) -> Result<BTreeMap<u32, JobState>, String>;

/// The status of every result file the folder or the state file knows, by name.
pub fn status(dir: &Path) -> Result<Report, FleetError> {
    if !crate::slurm::installed("squeue") {
        return status_with(dir, None);
    }
    let mut ask = |job: &str| crate::slurm::task_states(job).map_err(|e| crate::chain(&e));
    status_with(dir, Some(&mut ask))
}

/// [`status`] with Slurm asked through `live` (None: Slurm's commands are not installed).
/// Each array job is asked once; after a failure Slurm is not asked again.
pub fn status_with(dir: &Path, mut live: Option<Ask>) -> Result<Report, FleetError> {
    let folder = folder::scan(dir)?;
    let mut problems = folder.problems.clone();
    let state = FleetState::load(dir).unwrap_or_else(|e| {
        problems.push(Problem {
            path: FleetState::path(dir),
            message: crate::chain(&e),
        });
        FleetState::default()
    });
    let mut slurm_note = live
        .is_none()
        .then(|| "Slurm's squeue is not installed here".to_string());
    let now = export::time::unix_now();
    let mut jobs: BTreeMap<String, BTreeMap<u32, JobState>> = BTreeMap::new();
    let mut nodes = Vec::new();
    for result in result_names(&folder, &state) {
        let record = state.task(&result);
        let mut job = None;
        if let (Some(r), Some(ask), None) = (record, live.as_mut(), &slurm_note) {
            if !jobs.contains_key(&r.job_id) {
                match ask(&r.job_id) {
                    Ok(tasks) => drop(jobs.insert(r.job_id.clone(), tasks)),
                    Err(e) => slurm_note = Some(format!("Slurm could not be asked: {e}")),
                }
            }
            job = jobs
                .get(&r.job_id)
                .and_then(|t| t.get(&r.array_task))
                .cloned();
        }
        let asked = slurm_note.is_none();
        nodes.push(row(dir, &folder, &result, record, job, asked, now));
    }
    Ok(Report {
        format: "opcost-fleet-status".into(),
        format_version: 1,
        dir: dir.display().to_string(),
        slurm_note,
        nodes,
        problems,
    })
}

/// Every result file name: the recorded tasks' and the characterizations' in the folder.
fn result_names(folder: &Folder, state: &FleetState) -> Vec<String> {
    let mut names: Vec<String> = state.tasks.iter().map(|t| t.result.clone()).collect();
    for e in folder.complete.iter().chain(&folder.partial) {
        let result = export::staged::result_path(&e.path);
        if let Some(n) = result.file_name() {
            names.push(n.to_string_lossy().into_owned());
        }
    }
    names.sort();
    names.dedup();
    names
}

fn row(
    dir: &Path,
    folder: &Folder,
    result: &str,
    record: Option<&TaskRecord>,
    job: Option<JobState>,
    slurm_asked: bool,
    now: i64,
) -> NodeStatus {
    let path = dir.join(result);
    let (file, c) = match (folder.complete_at(&path), folder.partial_of(&path)) {
        (Some(e), _) => (FileState::Complete, Some(&e.characterization)),
        (None, Some(e)) => (FileState::Partial, Some(&e.characterization)),
        (None, None) => (FileState::Missing, None),
    };
    let (progress, note) = merge(file, record, job.as_ref(), slurm_asked);
    NodeStatus {
        node_type: record
            .map(|r| r.node_type.value.clone())
            .or_else(|| folder::node_name_of(&path))
            .unwrap_or_else(|| result.trim_end_matches(".json").to_string()),
        result: result.to_string(),
        progress,
        file,
        task: record.map(TaskRecord::slurm_id),
        slurm_state: job.map(|j| j.name().to_string()),
        age_s: c.and_then(|c| age_s(c, now)),
        partition: c.and_then(|c| c.machine.slurm_partition.clone()),
        cpu: c.map(|c| c.machine.cpu_model.clone()),
        host: c.map(|c| c.machine.hostname.clone()),
        note,
    }
}

/// Seconds since a characterization was made (None for a date that cannot be read).
pub fn age_s(c: &Characterization, now: i64) -> Option<i64> {
    export::time::Utc::parse_rfc3339(&c.date).map(|t| (now - t.unix()).max(0))
}

/// An age for people: `45 s`, `12 min`, `3 h`, `9 d`.
pub fn age_text(s: i64) -> String {
    match s {
        s if s < 120 => format!("{s} s"),
        s if s < 7200 => format!("{} min", s / 60),
        s if s < 2 * 86400 => format!("{} h", s / 3600),
        s => format!("{} d", s / 86400),
    }
}

#[cfg(test)]
mod tests;

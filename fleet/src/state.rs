//! The fleet's state file (`fleet-state.json` in the results folder): which Slurm job and
//! array task characterizes each result file. The files themselves say how far a run got;
//! this says where to ask Slurm about it. Written atomically after every submission.

use crate::folder::STATE_FILE;
use crate::node::NodeType;
use crate::FleetError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One submitted task (format `opcost-fleet-state`, docs/fleet.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    pub node_type: NodeType,
    /// The result file's name in the folder (`alpha--gfortran-O0.json`).
    pub result: String,
    /// The array job's id (`1234`) and this task's index in it.
    pub job_id: String,
    pub array_task: u32,
    /// When it was submitted, RFC 3339 UTC.
    pub submitted: String,
    /// Whether the task resumes a partial file rather than starting afresh.
    pub resumed: bool,
    /// The task's standard output and error.
    pub log: PathBuf,
}

impl TaskRecord {
    /// `1234_0`, as squeue and sacct name an array task.
    pub fn slurm_id(&self) -> String {
        format!("{}_{}", self.job_id, self.array_task)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FleetState {
    pub format: String,
    pub format_version: u32,
    /// The latest submission of each result file.
    pub tasks: Vec<TaskRecord>,
}

impl model::Versioned for FleetState {
    const FORMAT: &'static str = "opcost-fleet-state";
    const VERSION: u32 = 1;
}

impl Default for FleetState {
    fn default() -> Self {
        FleetState {
            format: <Self as model::Versioned>::FORMAT.into(),
            format_version: <Self as model::Versioned>::VERSION,
            tasks: Vec::new(),
        }
    }
}

impl FleetState {
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(STATE_FILE)
    }

    /// The folder's state; empty when it has none yet.
    pub fn load(dir: &Path) -> Result<Self, FleetError> {
        let path = Self::path(dir);
        if !path.exists() {
            return Ok(Self::default());
        }
        model::load_versioned(&path, "fleet state ").map_err(|e| FleetError::State {
            detail: match &e {
                model::LoadError::Format { source, .. } => source.to_string(),
                other => crate::chain(other),
            },
            path,
        })
    }

    /// Write the state atomically (a reader sees the old file or the new, never half).
    pub fn save(&self, dir: &Path) -> Result<(), FleetError> {
        let path = Self::path(dir);
        let bytes = export::json("the fleet state", self)?;
        export::write_atomic(&path, &bytes).map_err(|source| FleetError::Write { path, source })
    }

    /// The latest record of a result file.
    pub fn task(&self, result: &str) -> Option<&TaskRecord> {
        self.tasks.iter().find(|t| t.result == result)
    }

    /// Record new submissions, each replacing the record of its result file.
    pub fn record(&mut self, tasks: Vec<TaskRecord>) {
        for t in tasks {
            self.tasks.retain(|old| old.result != t.result);
            self.tasks.push(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Selector;

    fn record(result: &str, job: &str) -> TaskRecord {
        TaskRecord {
            node_type: NodeType::new(Selector::Partition, "alpha").unwrap(),
            result: result.into(),
            job_id: job.into(),
            array_task: 0,
            submitted: "2026-11-25T15:04:05Z".into(),
            resumed: false,
            log: PathBuf::from("/r/logs/x.out"),
        }
    }

    #[test]
    fn saved_state_loads_back_and_a_resubmission_replaces_its_record() {
        let d = tempfile::tempdir().unwrap();
        assert!(FleetState::load(d.path()).unwrap().tasks.is_empty());
        let mut s = FleetState::default();
        s.record(vec![record("a.json", "1"), record("b.json", "1")]);
        s.record(vec![record("a.json", "2")]);
        s.save(d.path()).unwrap();
        let back = FleetState::load(d.path()).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.tasks.len(), 2);
        assert_eq!(back.task("a.json").unwrap().slurm_id(), "2_0");
    }

    #[test]
    fn a_foreign_state_file_names_itself_and_the_way_out() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(FleetState::path(d.path()), "[1, 2").unwrap();
        let e = FleetState::load(d.path()).unwrap_err().to_string();
        assert!(
            e.contains(STATE_FILE) && e.contains("not a JSON file") && e.contains("move it away"),
            "{e}"
        );
    }
}

//! Submitting a fleet: decide per node type what its task does (nothing: it is done or
//! queued; resume its partial file; start afresh), write the job array, submit it, and
//! record the job in the state file.

use crate::folder::{self, Folder, Problem};
use crate::node::{NodeType, Selector};
use crate::script::{self, Job, Task};
use crate::slurm::{self, JobState};
use crate::state::{FleetState, TaskRecord};
use crate::FleetError;
use model::characterization::{Characterization, CompilerInfo};
use std::path::{Path, PathBuf};

/// The characterization every node type gets: the options passed through to
/// `opcost characterize`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunRequest {
    pub compiler: String,
    pub flags: String,
    pub quick: bool,
    /// Comma-separated mnemonics.
    pub only: Option<String>,
    pub tmax_s: Option<f64>,
    pub repeat: Option<usize>,
    pub rounds: Option<usize>,
    pub no_xray: bool,
}

impl RunRequest {
    /// The file-name tag of the system: `gfortran-O0`, `.quick` added for a quick run (the
    /// same as `opcost characterize`'s default names).
    pub fn tag(&self) -> String {
        let info = CompilerInfo {
            path: self.compiler.clone(),
            version: String::new(),
            flags: harness::Compiler::split_flags(&self.flags),
        };
        format!("{}{}", info.tag(), if self.quick { ".quick" } else { "" })
    }

    /// Why a characterization is not one this request would make (None: it is): the same
    /// compiler, flags, quick mode and parameter set.
    pub fn mismatch(&self, c: &Characterization) -> Option<String> {
        let name = |p: &str| {
            Path::new(p)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        };
        let flags = harness::Compiler::split_flags(&self.flags);
        let only = |list: &str| -> Vec<String> {
            let mut v: Vec<String> = list.split(',').map(|s| s.trim().to_uppercase()).collect();
            v.retain(|s| !s.is_empty());
            v.sort();
            v
        };
        let theirs = c.settings.only.as_ref().map(|ps| {
            let mut v: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
            v.sort();
            v
        });
        if name(&c.compiler.path) != name(&self.compiler) || c.compiler.flags != flags {
            Some(format!(
                "made with {} {}",
                c.compiler.path,
                c.compiler.flags.join(" ")
            ))
        } else if c.settings.quick != self.quick {
            Some(format!("quick: {}", c.settings.quick))
        } else if theirs != self.only.as_deref().map(only) {
            Some("measured another set of parameters (--only)".into())
        } else {
            None
        }
    }

    /// The arguments of a fresh run into `out`.
    pub fn fresh_args(&self, out: &Path) -> Vec<String> {
        let mut a = vec![
            "--out".to_string(),
            out.display().to_string(),
            "--compiler".into(),
            self.compiler.clone(),
            format!("--flags={}", self.flags),
        ];
        if self.quick {
            a.push("--quick".into());
        }
        let opt = |a: &mut Vec<String>, name: &str, v: Option<String>| {
            if let Some(v) = v {
                a.extend([name.to_string(), v]);
            }
        };
        opt(&mut a, "--only", self.only.clone());
        opt(&mut a, "--tmax", self.tmax_s.map(|v| v.to_string()));
        opt(&mut a, "--repeat", self.repeat.map(|v| v.to_string()));
        opt(&mut a, "--rounds", self.rounds.map(|v| v.to_string()));
        if self.no_xray {
            a.push("--no-xray".into());
        }
        a
    }

    /// The arguments of a run that completes a partial file (its settings are the file's).
    pub fn resume_args(&self, partial: &Path) -> Vec<String> {
        let mut a = vec!["--resume".to_string(), partial.display().to_string()];
        if self.no_xray {
            a.push("--no-xray".into());
        }
        a
    }
}

/// Everything a submission needs.
#[derive(Debug, Clone)]
pub struct Request {
    /// The shared results folder, absolute.
    pub dir: PathBuf,
    pub nodes: Vec<NodeType>,
    pub run: RunRequest,
    /// Slurm's time limit of each task.
    pub time: String,
    /// The opcost binary the tasks run, absolute.
    pub opcost: PathBuf,
    pub sbatch_args: Vec<String>,
}

impl Request {
    /// Refuse what the batch script could not carry: a relative path (the job runs
    /// elsewhere), a blank in a path (`#SBATCH` lines cannot quote it), a time limit Slurm
    /// would not read.
    pub fn check(&self) -> Result<(), FleetError> {
        let time_ok = !self.time.is_empty()
            && self
                .time
                .chars()
                .all(|c| c.is_ascii_digit() || c == ':' || c == '-');
        if !time_ok {
            return Err(FleetError::Invalid(format!(
                "--time {:?}: give Slurm's form, minutes, HH:MM:SS or D-HH:MM:SS",
                self.time
            )));
        }
        for (what, p) in [
            ("the results folder", &self.dir),
            ("the opcost binary", &self.opcost),
        ] {
            if !p.is_absolute() {
                return Err(FleetError::Invalid(format!(
                    "{what} {} must be an absolute path: the job runs in another directory",
                    p.display()
                )));
            }
        }
        if self.dir.display().to_string().contains(char::is_whitespace) {
            return Err(FleetError::Invalid(format!(
                "the results folder {} has a blank in its path, which an #SBATCH line cannot carry; choose another folder",
                self.dir.display()
            )));
        }
        Ok(())
    }
}

/// What one node type's task does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Characterized already with this compiler, flags and parameters.
    Done,
    /// Its last task is still pending or running in Slurm.
    Queued { task: String, state: JobState },
    /// Completes the partial file of an interrupted run.
    Resume { partial: PathBuf },
    /// Starts afresh (`replaces`: why a complete file of that name is not reused).
    Fresh { replaces: Option<String> },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub node: NodeType,
    pub result: PathBuf,
    pub action: Action,
}

impl Planned {
    /// Whether this node type gets a task in the job.
    pub fn runs(&self) -> bool {
        matches!(self.action, Action::Resume { .. } | Action::Fresh { .. })
    }
}

/// The plan: an action per node type, and the folder's unreadable files.
#[derive(Debug, Clone)]
pub struct Plan {
    pub tasks: Vec<Planned>,
    pub problems: Vec<Problem>,
}

/// Decide each node type's action from the folder, the state file and Slurm's view of the
/// recorded tasks (`live`: the state of a recorded task, None when unknown).
pub fn plan(
    req: &Request,
    folder: &Folder,
    state: &FleetState,
    live: &mut dyn FnMut(&TaskRecord) -> Option<JobState>,
) -> Plan {
    let tag = req.run.tag();
    let tasks = req
        .nodes
        .iter()
        .map(|node| {
            let result = folder::result_file(&req.dir, node, &tag);
            let action = action(req, folder, state, live, &result);
            Planned {
                node: node.clone(),
                result,
                action,
            }
        })
        .collect();
    Plan {
        tasks,
        problems: folder.problems.clone(),
    }
}

fn action(
    req: &Request,
    folder: &Folder,
    state: &FleetState,
    live: &mut dyn FnMut(&TaskRecord) -> Option<JobState>,
    result: &Path,
) -> Action {
    let name = result
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(rec) = state.task(&name) {
        if let Some(s @ (JobState::Pending | JobState::Running)) = live(rec) {
            return Action::Queued {
                task: rec.slurm_id(),
                state: s,
            };
        }
    }
    let replaces = match folder.complete_at(result) {
        Some(e) => match req.run.mismatch(&e.characterization) {
            None => return Action::Done,
            why => why,
        },
        None => None,
    };
    match folder.partial_of(result) {
        Some(p) => Action::Resume {
            partial: p.path.clone(),
        },
        None => Action::Fresh { replaces },
    }
}

/// The job array of the plan's tasks that run; None when none does.
pub fn job(req: &Request, plan: &Plan) -> Option<Job> {
    let tasks: Vec<Task> = plan
        .tasks
        .iter()
        .filter(|t| t.runs())
        .map(|t| Task {
            node: t.node.clone(),
            characterize_args: match &t.action {
                Action::Resume { partial } => req.run.resume_args(partial),
                _ => req.run.fresh_args(&t.result),
            },
        })
        .collect();
    let header_selector = match tasks.as_slice() {
        [] => return None,
        [one] => Some(one.node.sbatch_arg()),
        many if many[0].node.selector == Selector::Partition => {
            let all: Vec<&str> = many.iter().map(|t| t.node.value.as_str()).collect();
            Some(format!("--partition={}", all.join(",")))
        }
        _ => None,
    };
    Some(Job {
        tasks,
        opcost: req.opcost.clone(),
        logs: req.dir.join("logs"),
        time: req.time.clone(),
        header_selector,
        sbatch_args: req.sbatch_args.clone(),
    })
}

/// Whether the array must be held and each task moved to its node type before it starts:
/// all tasks of an array share the header's options.
pub fn needs_placing(job: &Job) -> bool {
    job.tasks.len() > 1
}

/// The commands that place a held array's tasks (`scontrol update JobId=J_0 Partition=p`),
/// as (task, field, value).
pub fn placements(job: &Job, job_id: &str) -> Vec<(String, &'static str, String)> {
    job.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                format!("{job_id}_{i}"),
                t.node.selector.scontrol_field(),
                t.node.value.clone(),
            )
        })
        .collect()
}

/// A submitted job: its id and the state records of its tasks.
#[derive(Debug, Clone)]
pub struct Submitted {
    pub job_id: String,
    pub script: PathBuf,
    pub tasks: Vec<TaskRecord>,
}

/// Write the script into the folder, submit it (held and placed task by task when it has
/// several), and record its tasks in the state file. A placement that fails cancels the
/// array: half-placed tasks would run on the wrong nodes.
pub fn submit(req: &Request, plan: &Plan, job: &Job) -> Result<Submitted, FleetError> {
    if !slurm::installed("sbatch") {
        return Err(FleetError::SlurmMissing {
            command: "sbatch".into(),
        });
    }
    let stamp = export::time::Utc::now();
    let script_path = req
        .dir
        .join(format!("opcost-fleet-{}.sbatch", stamp.stamp()));
    for dir in [&req.dir, &job.logs] {
        std::fs::create_dir_all(dir).map_err(|source| FleetError::Write {
            path: dir.clone(),
            source,
        })?;
    }
    export::write_atomic(&script_path, script::batch_script(job).as_bytes()).map_err(|source| {
        FleetError::Write {
            path: script_path.clone(),
            source,
        }
    })?;
    let hold = needs_placing(job);
    let job_id = slurm::sbatch(&script_path, hold)?;
    if hold {
        place(job, &job_id)?;
    }
    let tasks = records(plan, job, &job_id, &stamp.rfc3339());
    let mut state = FleetState::load(&req.dir)?;
    state.record(tasks.clone());
    state.save(&req.dir)?;
    Ok(Submitted {
        job_id,
        script: script_path,
        tasks,
    })
}

/// Move each held task to its node type, then release the array.
fn place(job: &Job, job_id: &str) -> Result<(), FleetError> {
    let placed = placements(job, job_id)
        .iter()
        .try_for_each(|(task, field, value)| slurm::update(task, field, value))
        .and_then(|_| slurm::release(job_id));
    if let Err(e) = placed {
        let _ = slurm::cancel(job_id);
        return Err(FleetError::Slurm {
            command: format!("placing the tasks of job {job_id} (cancelled)"),
            message: crate::chain(&e),
        });
    }
    Ok(())
}

/// The state records of a submitted job's tasks.
fn records(plan: &Plan, job: &Job, job_id: &str, submitted: &str) -> Vec<TaskRecord> {
    plan.tasks
        .iter()
        .filter(|t| t.runs())
        .enumerate()
        .map(|(i, t)| TaskRecord {
            node_type: t.node.clone(),
            result: t
                .result
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            job_id: job_id.to_string(),
            array_task: i as u32,
            submitted: submitted.to_string(),
            resumed: matches!(t.action, Action::Resume { .. }),
            log: job.logs.join(format!("opcost-fleet-{job_id}_{i}.out")),
        })
        .collect()
}

#[cfg(test)]
mod tests;

use super::*;
use crate::node::{NodeType, Selector};
use crate::testing::{characterization, write};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn record(result: &str, task: u32) -> TaskRecord {
    TaskRecord {
        node_type: NodeType::new(Selector::Partition, result.split("--").next().unwrap()).unwrap(),
        result: result.into(),
        job_id: "5".into(),
        array_task: task,
        submitted: "2026-11-25T15:04:05Z".into(),
        resumed: false,
        log: PathBuf::from(format!("/r/logs/opcost-fleet-5_{task}.out")),
    }
}

#[test]
fn slurm_decides_while_the_task_lives_the_files_after() {
    let r = record("a--g.json", 0);
    let m = |f, j: Option<JobState>| merge(f, Some(&r), j.as_ref(), true).0;
    assert_eq!(
        m(FileState::Partial, Some(JobState::Running)),
        Progress::Running
    );
    assert_eq!(
        m(FileState::Missing, Some(JobState::Pending)),
        Progress::Pending
    );
    assert_eq!(
        m(FileState::Complete, Some(JobState::Completed)),
        Progress::Done
    );
    assert_eq!(m(FileState::Complete, None), Progress::Done);
    assert_eq!(
        m(FileState::Partial, Some(JobState::Failed("TIMEOUT".into()))),
        Progress::Failed
    );
    assert_eq!(
        m(FileState::Missing, Some(JobState::Completed)),
        Progress::Failed
    );
    assert_eq!(m(FileState::Partial, None), Progress::Failed);
    let (_, note) = merge(FileState::Partial, Some(&r), None, true);
    assert!(
        note.contains("5_0") && note.contains("/r/logs/opcost-fleet-5_0.out"),
        "{note}"
    );
}

#[test]
fn without_slurm_the_files_speak_alone() {
    assert_eq!(
        merge(FileState::Partial, None, None, false).0,
        Progress::Partial
    );
    assert_eq!(
        merge(FileState::Missing, None, None, false).0,
        Progress::Missing
    );
    assert_eq!(
        merge(FileState::Complete, None, None, false).0,
        Progress::Done
    );
}

#[test]
fn the_report_covers_recorded_tasks_and_files_and_names_bad_ones() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "alpha--g.json", &characterization("alpha", None));
    let mut partial = characterization("beta", None);
    partial.complete = false;
    write(d.path(), "beta--g.partial.json", &partial);
    std::fs::write(d.path().join("junk.json"), "[]").unwrap();
    let mut state = FleetState::default();
    state.record(vec![
        record("alpha--g.json", 0),
        record("beta--g.json", 1),
        record("gamma--g.json", 2),
    ]);
    state.save(d.path()).unwrap();
    let mut asked = Vec::new();
    let mut live = |job: &str| {
        asked.push(job.to_string());
        Ok(BTreeMap::from([
            (0, JobState::Completed),
            (1, JobState::Running),
            (2, JobState::Pending),
        ]))
    };
    let r = status_with(d.path(), Some(&mut live)).unwrap();
    assert_eq!(asked, ["5"], "one question per array job");
    let words: Vec<(&str, Progress)> = r
        .nodes
        .iter()
        .map(|n| (n.node_type.as_str(), n.progress))
        .collect();
    assert_eq!(
        words,
        [
            ("alpha", Progress::Done),
            ("beta", Progress::Running),
            ("gamma", Progress::Pending)
        ]
    );
    assert_eq!(r.nodes[0].partition.as_deref(), Some("alpha"));
    assert_eq!(r.nodes[1].file, FileState::Partial);
    assert!(r.nodes[0].age_s.is_some_and(|a| a > 0));
    assert_eq!(r.problems.len(), 1);
    assert!(r.problems[0].to_string().contains("junk.json"));
}

#[test]
fn an_unreachable_slurm_is_said_once_and_the_files_speak() {
    let d = tempfile::tempdir().unwrap();
    let mut partial = characterization("beta", None);
    partial.complete = false;
    write(d.path(), "beta--g.partial.json", &partial);
    let mut state = FleetState::default();
    state.record(vec![record("beta--g.json", 0)]);
    state.save(d.path()).unwrap();
    let mut live =
        |_: &str| Err("squeue: fatal: Could not establish a configuration source".to_string());
    let r = status_with(d.path(), Some(&mut live)).unwrap();
    assert!(r
        .slurm_note
        .as_deref()
        .unwrap()
        .contains("configuration source"));
    assert_eq!(r.nodes[0].progress, Progress::Partial);
}

#[test]
fn a_damaged_state_file_is_a_problem_not_the_end() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "alpha--g.json", &characterization("alpha", None));
    std::fs::write(FleetState::path(d.path()), "garbage").unwrap();
    let r = status_with(d.path(), None).unwrap();
    assert_eq!(r.nodes.len(), 1);
    assert_eq!(r.nodes[0].progress, Progress::Done);
    assert!(r.problems[0].to_string().contains("fleet-state.json"));
}

#[test]
fn ages_read_as_people_say_them() {
    assert_eq!(age_text(59), "59 s");
    assert_eq!(age_text(600), "10 min");
    assert_eq!(age_text(3 * 3600), "3 h");
    assert_eq!(age_text(9 * 86400), "9 d");
}

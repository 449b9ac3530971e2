use super::*;
use crate::testing::{characterization, write};
use model::Param;

fn request(dir: &Path, partitions: &[&str]) -> Request {
    Request {
        dir: dir.to_path_buf(),
        nodes: partitions
            .iter()
            .map(|p| NodeType::new(Selector::Partition, p).unwrap())
            .collect(),
        run: RunRequest {
            compiler: "gfortran".into(),
            flags: "-O0".into(),
            quick: true,
            only: Some("ARSL,AISL".into()),
            no_xray: true,
            ..RunRequest::default()
        },
        time: "10:00".into(),
        opcost: PathBuf::from("/bin/opcost"),
        sbatch_args: Vec::new(),
    }
}

fn plan_of(req: &Request, state: &FleetState, live: Option<JobState>) -> Plan {
    let folder = folder::scan(&req.dir).unwrap();
    plan(req, &folder, state, &mut |_| live.clone())
}

fn only_arsl_aisl() -> Option<Vec<Param>> {
    Some(vec![Param::ARSL, Param::AISL])
}

#[test]
fn the_tag_names_compiler_flags_and_quick_mode() {
    let d = tempfile::tempdir().unwrap();
    let req = request(d.path(), &["alpha"]);
    assert_eq!(req.run.tag(), "gfortran-O0.quick");
    let p = plan_of(&req, &FleetState::default(), None);
    assert_eq!(
        p.tasks[0].result,
        d.path().join("alpha--gfortran-O0.quick.json")
    );
    assert_eq!(p.tasks[0].action, Action::Fresh { replaces: None });
}

#[test]
fn a_complete_file_of_the_same_run_is_skipped_another_is_replaced() {
    let d = tempfile::tempdir().unwrap();
    let req = request(d.path(), &["alpha", "beta"]);
    let same = characterization("alpha", only_arsl_aisl());
    write(d.path(), "alpha--gfortran-O0.quick.json", &same);
    let other = characterization("beta", Some(vec![Param::ARSL]));
    write(d.path(), "beta--gfortran-O0.quick.json", &other);
    let p = plan_of(&req, &FleetState::default(), None);
    assert_eq!(p.tasks[0].action, Action::Done);
    assert!(
        matches!(&p.tasks[1].action, Action::Fresh { replaces: Some(why) } if why.contains("--only"))
    );
    let job = job(&req, &p).unwrap();
    assert_eq!(job.tasks.len(), 1);
    assert_eq!(job.header_selector.as_deref(), Some("--partition=beta"));
    assert!(!needs_placing(&job));
}

#[test]
fn a_partial_file_is_resumed_with_its_own_settings() {
    let d = tempfile::tempdir().unwrap();
    let req = request(d.path(), &["alpha"]);
    let mut c = characterization("alpha", only_arsl_aisl());
    c.complete = false;
    let partial = write(d.path(), "alpha--gfortran-O0.quick.partial.json", &c);
    let p = plan_of(&req, &FleetState::default(), None);
    assert_eq!(
        p.tasks[0].action,
        Action::Resume {
            partial: partial.clone()
        }
    );
    let job = job(&req, &p).unwrap();
    assert_eq!(
        job.tasks[0].characterize_args,
        ["--resume", partial.to_str().unwrap(), "--no-xray"]
    );
}

#[test]
fn a_task_still_in_the_queue_is_not_submitted_twice() {
    let d = tempfile::tempdir().unwrap();
    let req = request(d.path(), &["alpha", "beta"]);
    let mut state = FleetState::default();
    let first = plan_of(&req, &state, None);
    let job1 = job(&req, &first).unwrap();
    state.record(records(&first, &job1, "41", "2026-11-25T15:04:05Z"));
    let again = plan_of(&req, &state, Some(JobState::Running));
    assert!(again.tasks.iter().all(|t| !t.runs()));
    assert_eq!(
        again.tasks[1].action,
        Action::Queued {
            task: "41_1".into(),
            state: JobState::Running
        }
    );
    assert!(job(&req, &again).is_none());
    // Ended (failed) tasks are submitted again.
    let failed = plan_of(&req, &state, Some(JobState::Failed("TIMEOUT".into())));
    assert!(failed.tasks.iter().all(Planned::runs));
}

#[test]
fn several_partitions_make_one_held_array_placed_task_by_task() {
    let d = tempfile::tempdir().unwrap();
    let req = request(d.path(), &["alpha", "beta"]);
    let p = plan_of(&req, &FleetState::default(), None);
    let job = job(&req, &p).unwrap();
    assert!(needs_placing(&job));
    assert_eq!(
        job.header_selector.as_deref(),
        Some("--partition=alpha,beta")
    );
    assert_eq!(
        placements(&job, "7"),
        [
            ("7_0".to_string(), "Partition", "alpha".to_string()),
            ("7_1".to_string(), "Partition", "beta".to_string())
        ]
    );
    let args = &job.tasks[1].characterize_args;
    let out = d.path().join("beta--gfortran-O0.quick.json");
    for a in [
        out.to_str().unwrap(),
        "--flags=-O0",
        "--quick",
        "ARSL,AISL",
        "--no-xray",
    ] {
        assert!(args.iter().any(|x| x == a), "{a} missing from {args:?}");
    }
    let recs = records(&p, &job, "7", "now");
    assert_eq!(recs[1].slurm_id(), "7_1");
    assert_eq!(recs[1].result, "beta--gfortran-O0.quick.json");
    assert_eq!(recs[1].log, d.path().join("logs/opcost-fleet-7_1.out"));
}

#[test]
fn constraints_are_placed_as_features_without_a_header_partition() {
    let d = tempfile::tempdir().unwrap();
    let mut req = request(d.path(), &[]);
    req.nodes = crate::node::node_types(&[], &["zen4".into(), "icelake".into()], &[]).unwrap();
    let p = plan_of(&req, &FleetState::default(), None);
    let job = job(&req, &p).unwrap();
    assert_eq!(job.header_selector, None);
    assert_eq!(placements(&job, "9")[1].1, "Features");
}

#[test]
fn requests_are_checked_before_anything_is_written() {
    let d = tempfile::tempdir().unwrap();
    let mut req = request(d.path(), &["alpha"]);
    assert!(req.check().is_ok());
    req.time = "one hour".into();
    assert!(req.check().unwrap_err().to_string().contains("--time"));
    req.time = "1-00:00:00".into();
    req.dir = PathBuf::from("relative/dir");
    assert!(req.check().unwrap_err().to_string().contains("absolute"));
    req.dir = PathBuf::from("/a b");
    assert!(req.check().unwrap_err().to_string().contains("blank"));
}

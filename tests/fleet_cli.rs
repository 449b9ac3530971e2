//! End-to-end tests of `opcost fleet` and `predict --machines` on a real one-node Slurm
//! cluster (munged, slurmctld and slurmd from Debian's packages, started here by
//! scripts/slurm-test-cluster.sh in a temporary folder, two partitions on this host), and
//! the parts that need no cluster. The cluster test is skipped, with a message, only where
//! the daemons cannot start.

mod common;

use assert_cmd::Command;
use model::characterization::Characterization;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const ONLY: &str = "ARSL,AISL";
const TAG: &str = "gfortran-O0.quick";

fn have_gfortran() -> bool {
    std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok()
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm-test-cluster.sh")
}

/// A running test cluster; dropping it stops its daemons (also when a test fails).
struct Cluster {
    dir: tempfile::TempDir,
}

impl Cluster {
    /// Start one. Err: why the daemons cannot start here (the test is then skipped).
    fn start() -> Result<Cluster, String> {
        let dir = tempfile::Builder::new()
            .prefix("opcost-slurm")
            .tempdir()
            .expect("a temporary folder");
        // The guard exists before the daemons do: a start that fails half-way is stopped too.
        let cluster = Cluster { dir };
        let out = std::process::Command::new(script())
            .arg("start")
            .arg(cluster.dir.path())
            .output()
            .expect("scripts/slurm-test-cluster.sh runs");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        match out.status.code() {
            Some(0) => Ok(cluster),
            Some(3) => Err(stderr),
            _ => panic!("scripts/slurm-test-cluster.sh start failed: {stderr}"),
        }
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// The opcost binary with this cluster's configuration, run from `cwd`.
    fn opcost(&self, cwd: &Path) -> Command {
        // The jobs inherit this environment (sbatch exports it), the test cache included.
        let mut c = common::opcost_cmd().unwrap();
        c.env("SLURM_CONF", self.conf()).current_dir(cwd);
        c
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = std::process::Command::new(script())
            .arg("stop")
            .arg(self.dir.path())
            .status();
    }
}

/// `fleet status --json -` until every node type is done, or panic with the last status and
/// the task logs after `limit`.
fn wait_until_done(cluster: &Cluster, dir: &Path, limit: Duration) -> Value {
    let start = Instant::now();
    loop {
        let out = cluster
            .opcost(dir)
            .args(["fleet", "status", "--dir"])
            .arg(dir)
            .args(["--json", "-"])
            .output()
            .unwrap();
        let status: Value = serde_json::from_slice(&out.stdout).expect("status JSON");
        let words: Vec<&str> = status["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["progress"].as_str().unwrap())
            .collect();
        if !words.is_empty() && words.iter().all(|w| *w == "done") {
            return status;
        }
        if words.contains(&"failed") || start.elapsed() > limit {
            panic!("the tasks did not finish: {status:#}\nlogs:\n{}", logs(dir));
        }
        std::thread::sleep(Duration::from_secs(1));
    }
}

fn logs(dir: &Path) -> String {
    std::fs::read_dir(dir.join("logs"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n---\n")
        })
        .unwrap_or_default()
}

/// `fleet submit` of the two partitions, quick, two cheap parameters; its standard output.
fn submit(cluster: &Cluster, cwd: &Path, dir: &str) -> String {
    let out = cluster
        .opcost(cwd)
        .args(["fleet", "submit", "--dir", dir, "--partition", "alpha,beta"])
        .args(["--quick", "--only", ONLY, "--no-xray", "--time", "5"])
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

/// sieve.f with a small repeat count, so its counting run takes a moment.
fn small_sieve(dir: &Path) -> PathBuf {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fortran-samples/sieve.f"),
    )
    .unwrap();
    assert!(src.contains("NREP = 7000"), "sieve.f's repeat count moved");
    let path = dir.join("sieve.f");
    std::fs::write(&path, src.replace("NREP = 7000", "NREP = 30")).unwrap();
    path
}

#[test]
fn a_two_partition_fleet_is_characterized_followed_and_ranked() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let cluster = match Cluster::start() {
        Ok(c) => c,
        Err(why) => {
            eprintln!("SKIPPED a_two_partition_fleet_is_characterized_followed_and_ranked: the Slurm test cluster cannot start here:\n{why}");
            return;
        }
    };
    let work = tempfile::tempdir().unwrap();
    // A relative --dir, resolved against the submitting directory, not the job's.
    let out = submit(&cluster, work.path(), "results");
    assert!(out.contains("Submitted job"), "{out}");
    let dir = work.path().join("results");
    let status = wait_until_done(&cluster, &dir, Duration::from_secs(180));
    for (i, partition) in ["alpha", "beta"].iter().enumerate() {
        let file = dir.join(format!("{partition}--{TAG}.json"));
        let c = Characterization::load(&file).expect("a characterization");
        assert!(c.complete);
        assert_eq!(c.machine.slurm_partition.as_deref(), Some(*partition));
        let node = &status["nodes"][i];
        assert_eq!(node["node_type"], *partition);
        assert_eq!(node["partition"], *partition);
        assert!(node["task"].as_str().unwrap().ends_with(&format!("_{i}")));
    }
    check_status_text(&cluster, &dir);
    resubmitting_skips_and_resumes(&cluster, &dir);
    check_ranking(&cluster, &dir, work.path());
}

fn check_status_text(cluster: &Cluster, dir: &Path) {
    let out = cluster
        .opcost(Path::new("/"))
        .args(["fleet", "status", "--dir"])
        .arg(dir)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    eprintln!("{text}");
    for partition in ["alpha", "beta"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(partition))
            .unwrap_or_else(|| panic!("no line for {partition} in\n{text}"));
        assert!(
            line.contains(" done ") && line.contains("complete"),
            "{line}"
        );
    }
}

/// Again: both are skipped. With beta's file turned back into a partial one, beta alone is
/// submitted, and its task resumes it.
fn resubmitting_skips_and_resumes(cluster: &Cluster, dir: &Path) {
    let dir_s = dir.to_str().unwrap();
    let out = submit(cluster, Path::new("/"), dir_s);
    assert!(out.contains("Nothing to submit"), "{out}");
    let done = dir.join(format!("beta--{TAG}.json"));
    let mut c = Characterization::load(&done).unwrap();
    c.complete = false;
    let partial = dir.join(format!("beta--{TAG}.partial.json"));
    std::fs::write(&partial, serde_json::to_vec(&c).unwrap()).unwrap();
    std::fs::remove_file(&done).unwrap();
    let out = submit(cluster, Path::new("/"), dir_s);
    assert!(
        out.contains("resume beta--") && out.contains("Submitted job"),
        "{out}"
    );
    wait_until_done(cluster, dir, Duration::from_secs(120));
    assert!(Characterization::load(&done).unwrap().complete);
    assert!(!partial.exists());
}

/// `predict --machines DIR` ranks both machines, a foreign file in DIR named and skipped.
fn check_ranking(cluster: &Cluster, dir: &Path, work: &Path) {
    std::fs::write(dir.join("notes.json"), "{\"hello\": 1}").unwrap();
    let sieve = small_sieve(work);
    let out = cluster
        .opcost(work)
        .args(["predict", "--machines"])
        .arg(dir)
        .arg(&sieve)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    eprintln!("{text}");
    assert!(
        err.contains("notes.json") && err.contains("skipping"),
        "{err}"
    );
    assert!(text.contains("predicted run time on 2 machines"), "{text}");
    let out = cluster
        .opcost(work)
        .args(["predict", "--machines"])
        .arg(dir)
        .arg(&sieve)
        .args(["--csv", "-"])
        .assert()
        .success();
    let mut rows = csv::Reader::from_reader(out.get_output().stdout.as_slice());
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    let mut partitions: Vec<&str> = rows.iter().map(|r| &r[3]).collect();
    partitions.sort();
    assert_eq!(partitions, ["alpha", "beta"]);
    assert_eq!((&rows[0][1], &rows[1][1]), ("1", "2"));
    let t = |r: &csv::StringRecord| r[9].parse::<f64>().unwrap();
    assert!(t(&rows[0]) <= t(&rows[1]), "fastest first");
}

#[test]
fn a_dry_run_prints_the_script_and_submits_nothing() {
    let work = tempfile::tempdir().unwrap();
    let out = common::opcost_cmd()
        .unwrap()
        .current_dir(work.path())
        .env("PATH", "/nonexistent") // no sbatch: a dry run does not need it
        .args(["fleet", "submit", "--dir", "out", "--partition", "p1,p2"])
        .args(["--flags", "-O2 -g", "--dry-run"])
        .assert()
        .success();
    let script = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let plan = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let opcost = assert_cmd::cargo::cargo_bin("opcost");
    let dir = work.path().join("out");
    for want in [
        "#SBATCH --array=0-1".to_string(),
        "#SBATCH --partition=p1,p2".into(),
        format!("--out {}/p2--gfortran-O2_g.json", dir.display()),
        "'--flags=-O2 -g'".into(),
        format!("{} characterize", opcost.display()),
    ] {
        assert!(script.contains(&want), "{want:?} missing from\n{script}");
    }
    assert!(
        plan.contains("scontrol update JobId=${J}_1 Partition=p2"),
        "{plan}"
    );
    assert!(!dir.exists(), "a dry run writes nothing");
}

#[test]
fn without_sbatch_submit_says_how_to_install_it() {
    let work = tempfile::tempdir().unwrap();
    common::opcost_cmd()
        .unwrap()
        .env("PATH", "/nonexistent")
        .args(["fleet", "submit", "--partition", "p1", "--dir"])
        .arg(work.path())
        .assert()
        .failure()
        .stderr(predicates::str::contains("apt-get install slurm-client"));
}

#[test]
fn status_names_a_corrupt_file_and_goes_on() {
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("broken--gfortran-O0.json"), "{ half").unwrap();
    common::opcost_cmd()
        .unwrap()
        .env("PATH", "/nonexistent")
        .args(["fleet", "status", "--dir"])
        .arg(work.path())
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "broken--gfortran-O0.json: not a JSON file",
        ))
        .stdout(predicates::str::contains("No node type"));
}

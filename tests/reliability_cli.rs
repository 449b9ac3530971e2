//! Result files, exports and errors (docs/reliability.md), through the real binary and real
//! gfortran builds: a finished characterization survives a new one, a batch validation keeps
//! what it measured, no command reads or writes a non-finite number as one, and "-" puts only
//! the export on standard output. Fast: the committed characterization, `--quick --only`,
//! tiny programs; never an absolute time.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn have_gfortran() -> bool {
    std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok()
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The committed characterization of gfortran -O0 (complete), as JSON.
fn committed() -> Value {
    let text = std::fs::read_to_string(repo(
        "tests/fixtures/characterizations/amd-epyc-2c--gfortran-O0.json",
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn write(path: &Path, doc: &Value) {
    std::fs::write(path, serde_json::to_vec_pretty(doc).unwrap()).unwrap();
}

fn opcost() -> Command {
    common::opcost_cmd().unwrap()
}

fn out_text(o: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A parameter's estimate in a characterization document.
fn estimate<'a>(doc: &'a mut Value, m: &str) -> &'a mut Value {
    &mut doc["parameters"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["mnemonic"] == m)
        .unwrap()["estimate"]
}

#[test]
fn an_interrupted_characterization_keeps_the_complete_file_and_replacing_it_backs_it_up() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let result = dir.path().join("m.json");
    let partial = dir.path().join("m.partial.json");
    std::fs::copy(
        repo("tests/fixtures/characterizations/amd-epyc-2c--gfortran-O0.json"),
        &result,
    )
    .unwrap();
    let old = std::fs::read(&result).unwrap();
    let quick = |args: &[&str]| {
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("opcost"));
        c.env("OPCOST_CACHE_DIR", common::cache_dir())
            .args(["characterize", "--quick", "--no-self-check", "--no-xray"])
            .arg("--cache-dir")
            .arg(dir.path().join("cache"))
            .args(args);
        c
    };
    let mut child = quick(&["--only", "ARSL,MRSL,DRSL,ARDL", "--out"])
        .arg(&result)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !partial.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before saving progress");
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no progress saved"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(!child.wait().unwrap().success());
    assert_eq!(
        std::fs::read(&result).unwrap(),
        old,
        "the complete file is untouched"
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&partial).unwrap()).unwrap();
    assert_eq!(doc["complete"], false);
    // A new run would overwrite the interrupted one: refused.
    let o = quick(&["--only", "ARSL", "--out"])
        .arg(&result)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(out_text(&o).1.contains("--resume"), "{}", out_text(&o).1);
    // Completing it installs the new file and keeps the old one as a dated backup.
    let o = quick(&["--resume"]).arg(&partial).output().unwrap();
    assert!(o.status.success(), "{}", out_text(&o).1);
    assert!(!partial.exists());
    let new: Value = serde_json::from_slice(&std::fs::read(&result).unwrap()).unwrap();
    assert_eq!(new["complete"], true);
    let backups: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".bak.json"))
        .collect();
    assert_eq!(backups.len(), 1, "{backups:?}");
    assert_eq!(std::fs::read(&backups[0]).unwrap(), old);
}

#[test]
fn a_machine_file_with_a_non_number_is_refused_naming_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.json");
    let mut doc = committed();
    estimate(&mut doc, "TISL")["mean_ns"] = Value::Null;
    write(&file, &doc);
    let o = opcost().arg("show").arg(&file).output().unwrap();
    assert!(!o.status.success());
    let err = out_text(&o).1;
    assert!(err.contains("TISL") && err.contains("mean_ns"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A number JSON cannot hold (an overflow to infinity) is refused when read too.
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replacen("null", "1e999", 1);
    std::fs::write(&file, text).unwrap();
    let o = opcost().arg("show").arg(&file).output().unwrap();
    assert!(!o.status.success());
}

#[test]
fn a_prediction_that_overflows_is_an_error_not_nan() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.json");
    let mut doc = committed();
    for f in ["mean_ns", "std_dev_ns", "ci_low_ns", "ci_high_ns"] {
        estimate(&mut doc, "ARSL")[f] = Value::from(1e300);
    }
    write(&file, &doc);
    let o = opcost()
        .args(["predict", "--json", "-", "--machine"])
        .arg(&file)
        .arg(repo("tests/fixtures/tiny.f"))
        .output()
        .unwrap();
    let (out, err) = out_text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(
        err.contains("not a finite number") && err.contains("ARSL"),
        "{err}"
    );
    assert!(!out.contains("NaN") && out.is_empty(), "{out}");
}

#[test]
fn a_dash_puts_only_the_export_on_standard_output() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let machine = repo("tests/fixtures/characterizations/amd-epyc-2c--gfortran-O0.json");
    let predict = |args: &[&str]| {
        let o = opcost()
            .arg("predict")
            .args(args)
            .arg("--machine")
            .arg(&machine)
            .arg(repo("tests/fixtures/tiny.f"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", out_text(&o).1);
        out_text(&o)
    };
    let (json, report) = predict(&["--json", "-"]);
    let doc: Value = serde_json::from_str(&json).expect("stdout is only the JSON");
    assert_eq!(doc["format"], "opcost-prediction");
    assert!(report.contains("Predicted run time of tiny"), "{report}");
    let (csv, _) = predict(&["--csv", "-"]);
    assert!(
        csv.starts_with("part_kind,part,mnemonic,description,count,"),
        "{csv}"
    );
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    assert!(r.records().all(|rec| rec.is_ok()));
    let (md, _) = predict(&["--markdown", "-"]);
    assert!(md.starts_with("# Prediction: tiny"), "{md}");
    // Two exports on one stream cannot be parsed: refused.
    let o = opcost()
        .args(["predict", "--json", "-", "--csv", "-", "--machine"])
        .arg(&machine)
        .arg(repo("tests/fixtures/tiny.f"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    // compare: typed JSON, alone on standard output.
    let o = opcost()
        .args(["compare", "--json", "-"])
        .arg(&machine)
        .arg(repo(
            "tests/fixtures/characterizations/amd-epyc-2c--gfortran-O1.json",
        ))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", out_text(&o).1);
    let doc: Value = serde_json::from_slice(&o.stdout).expect("stdout is only the JSON");
    assert_eq!(doc["systems"].as_array().unwrap().len(), 2);
}

/// Runs quickly but not too quickly to time; every run after its first (the counting run)
/// finds the file that run left and fails: it fails in the timed rounds.
const LAST_FAIL: &str = "      PROGRAM LASTF
      INTEGER I
      LOGICAL SEEN
      DOUBLE PRECISION S
      INQUIRE (FILE='seen.dat', EXIST=SEEN)
      IF (SEEN) STOP 3
      OPEN (10, FILE='seen.dat')
      CLOSE (10)
      S = 0.0D0
      DO 10 I = 1, 3000000
         S = S + DBLE(I) * 1.0D-9
   10 CONTINUE
      PRINT *, S
      END
";

const GOOD: &str = "      PROGRAM GOOD
      INTEGER I
      DOUBLE PRECISION S
      S = 0.0D0
      DO 10 I = 1, 3000000
         S = S + DBLE(I) * 1.0D-9
   10 CONTINUE
      PRINT *, S
      END
";

#[test]
fn a_validation_batch_with_a_failing_program_writes_the_good_ones_results_and_warns() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("good.f"), GOOD).unwrap();
    std::fs::write(dir.path().join("lastfail.f"), LAST_FAIL).unwrap();
    // A machine file lacking parameters the programs use: validate warns as predict does.
    let mut doc = committed();
    doc["parameters"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p["mnemonic"] != "ARDL");
    let machine = dir.path().join("m.json");
    write(&machine, &doc);
    let o = opcost()
        .current_dir(dir.path())
        .args(["validate", "--runs", "2", "--no-host-probe", "--no-profile"])
        .args(["--csv", "v.csv", "--plot", "v.svg", "--json", "-"])
        .arg("--machine")
        .arg(&machine)
        .args(["good.f", "lastfail.f"])
        .output()
        .unwrap();
    let (out, err) = out_text(&o);
    assert!(!o.status.success(), "a failed program makes the batch fail");
    assert!(
        err.contains("warning: good: the machine file has no value for ARDL"),
        "{err}"
    );
    let v: Value = serde_json::from_str(&out).expect("stdout is only the JSON");
    let programs: Vec<&str> = v["programs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["program"].as_str().unwrap())
        .collect();
    assert_eq!(programs, ["good"]);
    assert_eq!(v["failed"][0]["program"], "lastfail");
    // The missing parameter widens the interval above the estimate.
    let good = &v["programs"][0];
    assert!(
        good["predicted_ci_high_s"].as_f64().unwrap() - good["predicted_s"].as_f64().unwrap()
            > good["predicted_s"].as_f64().unwrap() - good["predicted_ci_low_s"].as_f64().unwrap()
    );
    let csv = std::fs::read_to_string(dir.path().join("v.csv")).unwrap();
    assert!(csv.lines().nth(1).unwrap().starts_with("good,"), "{csv}");
    assert!(dir.path().join("v.svg").exists());
}

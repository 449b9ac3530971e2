//! End-to-end tests of predict, validate and compare through real gfortran: report structure
//! and invariants, never accuracy (that is a benchmark, see the README).

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn have_gfortran() -> bool {
    std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok()
}

/// One quick characterization shared by the tests of this file.
fn quick_machine() -> &'static Path {
    static FILE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &FILE
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join("quick.json");
            common::opcost_cmd()
                .unwrap()
                .args(["characterize", "--quick", "--no-xray", "--no-self-check"])
                .arg("--out")
                .arg(&out)
                .arg("--cache-dir")
                .arg(dir.path().join("cache"))
                .assert()
                .success();
            (dir, out)
        })
        .1
}

/// The standard output of a command that must succeed.
fn stdout_of(cmd: &mut Command) -> String {
    String::from_utf8_lossy(&cmd.assert().success().get_output().stdout).into_owned()
}

/// The standard error of a command that must fail.
fn stderr_of_failure(cmd: &mut Command) -> String {
    String::from_utf8_lossy(&cmd.assert().failure().get_output().stderr).into_owned()
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny.f")
}

#[test]
fn predict_breaks_the_time_down_and_exports_parse_back() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (json, csv, md) = (
        dir.path().join("p.json"),
        dir.path().join("p.csv"),
        dir.path().join("p.md"),
    );
    let text = stdout_of(
        common::opcost_cmd()
            .unwrap()
            .args(["predict", "--machine"])
            .arg(quick_machine())
            .arg(fixture())
            .arg("--json")
            .arg(&json)
            .arg("--csv")
            .arg(&csv)
            .arg("--markdown")
            .arg(&md),
    );
    assert!(text.contains("Predicted run time of tiny"), "{text}");
    let p: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(p["format"], "opcost-prediction");
    assert_eq!(p["counts"], "dynamic");
    let total = &p["total"];
    let t = total["time"]["mean_ns"].as_f64().unwrap();
    assert!(t > 0.0);
    assert!(total["time"]["ci_low_ns"].as_f64().unwrap() <= t);
    assert!(total["time"]["ci_high_ns"].as_f64().unwrap() >= t);
    let frac: f64 = total["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["time_fraction"].as_f64().unwrap())
        .sum();
    assert!(
        (frac - 1.0).abs() < 1e-6,
        "fractions of time add up to one: {frac}"
    );
    // The units' predictions add up to the program's (rule-14 waits included, per unit).
    let units_sum: f64 = p["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["time"]["mean_ns"].as_f64().unwrap())
        .sum();
    assert!((units_sum - t).abs() <= 1e-6 * t, "{units_sum} vs {t}");
    // Two program units, each predicted.
    let units: Vec<&str> = p["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert!(
        units.contains(&"TINY") && units.contains(&"SCALE"),
        "{units:?}"
    );
    let mut r = csv::Reader::from_path(&csv).unwrap();
    assert_eq!(r.headers().unwrap().get(2), Some("mnemonic"));
    assert!(r.records().count() > 5);
    assert!(std::fs::read_to_string(&md)
        .unwrap()
        .contains("| mnemonic | description |"));
}

/// Rule 17 end to end: the loop of eight array updates is charged at least its instructions
/// (counted in the machine compiler's assembly) times INST; without the source the
/// prediction says the bound is missing.
#[test]
fn a_loop_of_array_statements_lasts_at_least_its_instructions_issue_time() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let mut machine: Value =
        serde_json::from_str(&std::fs::read_to_string(quick_machine()).unwrap()).unwrap();
    let inst_estimate = &mut machine["parameters"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["mnemonic"] == "INST")
        .expect("the characterization measures INST")["estimate"];
    let measured = inst_estimate["mean_ns"].as_f64().unwrap();
    assert!(measured > 0.0, "{measured}");
    // By the quick characterization's own INST this loop is issue-bound only by a few
    // percent, and its cheap parameters wander by far more from run to run (ARR1 0.04 to
    // 0.23 ns in four quick runs), so whether rule 17 binds would be a coin toss: the
    // prediction uses a copy whose INST is four times the measured one, which must bind.
    let inst = 4.0 * measured;
    inst_estimate["mean_ns"] = inst.into();
    let dir = tempfile::tempdir().unwrap();
    let machine_file = dir.path().join("machine.json");
    std::fs::write(&machine_file, machine.to_string()).unwrap();
    let source = dir.path().join("issue.f");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/issue.f"),
        &source,
    )
    .unwrap();
    let predict = |input: &Path, out: &Path| {
        common::opcost_cmd()
            .unwrap()
            .current_dir(dir.path())
            .args(["predict", "--machine"])
            .arg(&machine_file)
            .arg(input)
            .arg("--json")
            .arg(out)
            .assert()
            .success();
        serde_json::from_str::<Value>(&std::fs::read_to_string(out).unwrap()).unwrap()
    };
    let p = predict(Path::new("issue.f"), &dir.path().join("p.json"));
    let rows = p["total"]["rows"].as_array().unwrap();
    let issue = rows
        .iter()
        .find(|r| r["mnemonic"] == "INST")
        .expect("an issue-bound loop has an INST row");
    let instructions = issue["times_executed"].as_f64().unwrap();
    // 300 x 1000 iterations of eight updates, each several instructions at -O0 (a load,
    // an add and a store at the least, and the subscript's arithmetic).
    assert!(instructions >= 300.0 * 1000.0 * 8.0 * 4.0, "{instructions}");
    let total = p["total"]["time"]["mean_ns"].as_f64().unwrap();
    assert!(
        total >= 0.999 * instructions * inst,
        "{total} ns < {instructions} x {inst} ns"
    );
    // The same statistics without the source: no bound, and a warning that says so.
    common::opcost_cmd()
        .unwrap()
        .current_dir(dir.path())
        .args(["analyze", "--dynamic", "--json", "stats.json", "issue.f"])
        .assert()
        .success();
    std::fs::remove_file(&source).unwrap();
    let q = predict(&dir.path().join("stats.json"), &dir.path().join("q.json"));
    assert!(q["total"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["mnemonic"] != "INST"));
    let warnings = q["warnings"].to_string();
    assert!(
        warnings.contains("rule 17") && warnings.contains("issue.f"),
        "{warnings}"
    );
    assert!(q["total"]["time"]["mean_ns"].as_f64().unwrap() < total);
}

/// Legacy code gfortran >= 10 refuses (argument mismatches): the counting run adds
/// -fallow-argument-mismatch and says so, and the loops' instructions are counted from a
/// build with it (no rule-17 warning).
#[test]
fn predict_builds_legacy_code_with_the_flags_it_needs() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("p.json");
    let out = common::opcost_cmd()
        .unwrap()
        .args(["predict", "--machine"])
        .arg(quick_machine())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("analyzer/tests/fixtures/arg_mismatch.f"))
        .arg("--json")
        .arg(&json)
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    let stderr = String::from_utf8_lossy(&out);
    assert!(stderr.contains("-fallow-argument-mismatch"), "{stderr}");
    let p: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let warnings = p["warnings"].to_string();
    assert!(!warnings.contains("rule 17"), "{warnings}");
}

#[test]
fn predict_splits_run_arguments_as_analyze_does() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    // The counting run must see two arguments whether they come as one string or two values
    // (the fixture stops with an error unless both read as integers).
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/twoargs.f");
    let dir = tempfile::tempdir().unwrap();
    let mut predicted = Vec::new();
    for args in [vec!["1000 3"], vec!["1000", "3"], vec!["100000 3"]] {
        let json = dir.path().join("p.json");
        common::opcost_cmd()
            .unwrap()
            .args(["predict", "--machine"])
            .arg(quick_machine())
            .arg(&src)
            .arg("--json")
            .arg(&json)
            .arg("--run-args")
            .args(&args)
            .assert()
            .success();
        let p: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        predicted.push(p["total"]["time"]["mean_ns"].as_f64().unwrap());
    }
    assert_eq!(predicted[0], predicted[1]);
    // The loop's count comes from the first argument.
    assert!(predicted[2] > 10.0 * predicted[0], "{predicted:?}");
}

#[test]
fn validate_reports_real_against_predicted() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg, json) = (
        dir.path().join("v.csv"),
        dir.path().join("v.svg"),
        dir.path().join("v.json"),
    );
    let text = stdout_of(
        common::opcost_cmd()
            .unwrap()
            .args(["validate", "--runs", "2", "--machine"])
            .arg(quick_machine())
            .arg(fixture())
            .arg("--csv")
            .arg(&csv)
            .arg("--plot")
            .arg(&svg)
            .arg("--json")
            .arg(&json)
            .arg("--cache-dir")
            .arg(quick_machine().parent().unwrap().join("cache")),
    );
    assert!(text.contains("Within 5 %"), "{text}");
    let mut r = csv::Reader::from_path(&csv).unwrap();
    let headers = r.headers().unwrap().clone();
    let rec = r.records().next().unwrap().unwrap();
    let col = |name: &str| {
        let i = headers.iter().position(|h| h == name).unwrap();
        rec[i].to_string()
    };
    let num = |name: &str| col(name).parse::<f64>().unwrap();
    assert_eq!(col("program"), "tiny");
    let real = num("real_s");
    let predicted = num("predicted_s");
    assert!(real > 0.0 && predicted > 0.0);
    // The characterization is by the minimum (the default), so the real time is the fastest
    // run's CPU time, and the error is against it.
    assert_eq!(col("real_is"), "cpu_min");
    assert_eq!(real, num("real_cpu_min_s"));
    assert!(real <= num("real_cpu_median_s"));
    // The error against it, from the JSON's unrounded values.
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let row = &v["programs"][0];
    let f = |k: &str| row[k].as_f64().unwrap();
    assert_eq!(row["real_time"], "minimum");
    let expected = 100.0 * (f("predicted_s") - f("real_s")) / f("real_s");
    assert!((f("error_percent") - expected).abs() < 1e-9);
    assert!(
        text.contains("real = minimum CPU time of the runs"),
        "{text}"
    );
    // The host probe re-ran the characterization's tests: a speed ratio, and the error of the
    // prediction scaled by it.
    assert!(text.contains("Host speed:"), "{text}");
    let speed = f("host_speed");
    assert!((0.2..5.0).contains(&speed), "host speed {speed}");
    assert!(
        (num("host_speed") - speed).abs() < 1e-4,
        "CSV and JSON agree"
    );
    let adjusted = f("host_adjusted_error_percent");
    let expected = 100.0 * (f("predicted_s") * speed - f("real_s")) / f("real_s");
    assert!(
        (adjusted - expected).abs() < 1e-9,
        "{adjusted} vs {expected}"
    );
    assert_eq!(v["summary"]["programs"], 1);
    assert_eq!(v["programs"][0]["runs"], 2);
    assert_eq!(v["programs"][0]["cpu_runs_s"].as_array().unwrap().len(), 2);
    // The gprof build times each unit, and its line profile the directive region.
    assert!(!v["programs"][0]["units"].as_array().unwrap().is_empty());
    let regions = v["programs"][0]["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 1, "{regions:?}");
    assert_eq!(regions[0]["name"], "SWEEP");
    let (p, m) = (
        regions[0]["predicted_s"].as_f64().unwrap(),
        regions[0]["measured_self_s"].as_f64().unwrap(),
    );
    assert!(p > 0.0 && p <= predicted, "{p} of {predicted}");
    assert!(m > 0.0 && m <= 2.0 * real, "{m} of {real}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));

    // --against: the same prediction scored against the CSV's real time, nothing run.
    let rescored = dir.path().join("r.json");
    let against = |file: &Path| {
        let mut c = common::opcost_cmd().unwrap();
        c.args(["validate", "--machine"])
            .arg(quick_machine())
            .arg(fixture())
            .arg("--against")
            .arg(file);
        c
    };
    let text = stdout_of(against(&csv).arg("--json").arg(&rescored));
    assert!(text.contains("nothing was run"), "{text}");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&rescored).unwrap()).unwrap();
    assert_eq!(r["sets"].as_array().unwrap().len(), 1);
    let e = r["sets"][0]["errors"][0][1].as_f64().unwrap();
    assert!(
        (e - f("error_percent")).abs() < 0.1,
        "{e} against the validation's {}",
        f("error_percent")
    );
    assert_eq!(r["programs"][0]["sets"], 1);
    assert_eq!(r["overall"]["programs"], 1);
    // A file that is not a validation CSV is named and refused.
    let err = stderr_of_failure(&mut against(&svg));
    assert!(err.contains("is not a validation CSV"), "{err}");
    // A CSV that holds none of the programs says which ones it holds.
    let other = dir.path().join("other.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&other, text.replace("\ntiny,", "\nelsewhere,")).unwrap();
    let err = stderr_of_failure(&mut against(&other));
    assert!(err.contains("they hold: elsewhere"), "{err}");
    // A folder stands for its CSVs (v.csv and other.csv here): two sets, tiny in one.
    let folder = dir.path().join("f.json");
    stdout_of(against(dir.path()).arg("--json").arg(&folder));
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&folder).unwrap()).unwrap();
    assert_eq!(r["sets"].as_array().unwrap().len(), 2);
    assert_eq!(r["programs"][0]["sets"], 1);
    // Two characterizations of one system: one analysis, a report each, a JSON array.
    let twice = dir.path().join("twice.json");
    let text = stdout_of(
        against(&csv)
            .arg("--machine")
            .arg(quick_machine())
            .arg("--json")
            .arg(&twice),
    );
    assert_eq!(text.matches("nothing was run").count(), 2, "{text}");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&twice).unwrap()).unwrap();
    let both = r.as_array().unwrap();
    assert_eq!(both.len(), 2);
    assert_eq!(
        both[0]["programs"][0]["predicted_s"],
        both[1]["programs"][0]["predicted_s"]
    );
    // A characterization of other flags is refused: its counts would come from another build.
    let mut other: Value =
        serde_json::from_str(&std::fs::read_to_string(quick_machine()).unwrap()).unwrap();
    other["compiler"]["flags"] = serde_json::json!(["-O1"]);
    let o1 = dir.path().join("o1.json");
    std::fs::write(&o1, other.to_string()).unwrap();
    let err = stderr_of_failure(against(&csv).arg("--machine").arg(&o1));
    assert!(err.contains("different compilers or flags"), "{err}");
}

#[test]
fn validate_of_several_systems_refuses_one_output_file_for_all() {
    let m = quick_machine();
    let text = stderr_of_failure(
        common::opcost_cmd()
            .unwrap()
            .args(["validate", "--machine"])
            .arg(m)
            .arg("--machine")
            .arg(m)
            .args(["--csv", "one.csv"])
            .arg(fixture()),
    );
    assert!(text.contains("several --machine"), "{text}");
}

#[test]
fn validate_of_several_systems_writes_one_json_array() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    // Each system's CSV and chart go to results/ under the working directory.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let m = quick_machine();
    let json = dir.path().join("all.json");
    common::opcost_cmd()
        .unwrap()
        .current_dir(dir.path())
        .args(["validate", "--runs", "1", "--no-profile", "--no-host-probe"])
        .arg("--machine")
        .arg(m)
        .arg("--machine")
        .arg(m)
        .arg("--json")
        .arg(&json)
        .arg(fixture())
        .assert()
        .success();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let systems = v.as_array().unwrap();
    assert_eq!(systems.len(), 2);
    for s in systems {
        assert_eq!(s["summary"]["programs"], 1);
        assert_eq!(s["programs"][0]["program"], "tiny");
        // No probe asked for: no host speed.
        assert!(s["programs"][0]["host_speed"].is_null());
    }
    assert!(dir.path().join("results/validation-quick.csv").exists());
}

/// One timed run of the fixture validated against `machine`, its CSV and SVG in `out_dir`;
/// the command must succeed.
fn validate_once(machine: &Path, out_dir: &Path, cache: &Path) -> std::process::Output {
    common::opcost_cmd()
        .unwrap()
        .args(["validate", "--runs", "1", "--no-profile", "--machine"])
        .arg(machine)
        .arg(fixture())
        .arg("--csv")
        .arg(out_dir.join("v.csv"))
        .arg("--plot")
        .arg(out_dir.join("v.svg"))
        .arg("--cache-dir")
        .arg(cache)
        .assert()
        .success()
        .get_output()
        .clone()
}

#[test]
fn validate_warns_when_the_machine_no_longer_matches_its_characterization() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    // The quick characterization as if it had been made on a host three times as fast: every
    // recorded observation a third. The probe then reads about 3x and the validation says
    // the file no longer describes this machine.
    let dir = tempfile::tempdir().unwrap();
    let mut m: Value =
        serde_json::from_str(&std::fs::read_to_string(quick_machine()).unwrap()).unwrap();
    for e in m["experiments"].as_array_mut().unwrap() {
        for o in e["observations_s"].as_array_mut().unwrap() {
            *o = Value::from(o.as_f64().unwrap() / 3.0);
        }
    }
    let elsewhere = dir.path().join("elsewhere.json");
    std::fs::write(&elsewhere, serde_json::to_vec(&m).unwrap()).unwrap();
    let out = validate_once(
        &elsewhere,
        dir.path(),
        &quick_machine().parent().unwrap().join("cache"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no longer describes") && stderr.contains("characterize again"),
        "{stderr}"
    );
    assert!(
        stderr.contains("slower than when it was characterized"),
        "{stderr}"
    );
}

#[test]
fn validate_goes_on_without_the_host_probe_when_it_cannot_run() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The probe's tests cannot be built under a file: the validation still reports.
    let blocker = dir.path().join("not-a-dir");
    std::fs::write(&blocker, "").unwrap();
    let out = validate_once(quick_machine(), dir.path(), &blocker.join("cache"));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(stdout.contains("Within 5 %"), "{stdout}");
    assert!(!stdout.contains("Host speed:"), "{stdout}");
    assert!(stderr.contains("host probe"), "{stderr}");
}

#[test]
fn compare_reads_the_committed_characterizations() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/characterizations");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&results)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 2,
        "tests/fixtures/characterizations holds the committed characterizations"
    );
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.json");
    let text = stdout_of(
        common::opcost_cmd()
            .unwrap()
            .arg("compare")
            .args(&files[..2])
            .arg("--plot")
            .arg(dir.path().join("charts"))
            .arg("--json")
            .arg(&json),
    );
    assert!(
        text.contains("Parameters relative to the reference"),
        "{text}"
    );
    let c: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let params = c["parameters"].as_array().unwrap();
    let arsl = params.iter().find(|p| p["mnemonic"] == "ARSL").unwrap();
    assert_eq!(
        arsl["ratios"][0].as_f64(),
        Some(1.0),
        "the reference is 1 against itself"
    );
    assert!(dir.path().join("charts/region-01.svg").exists());
    // The committed files are estimated alike: no warning. One re-labelled as by the mean
    // is warned about (its parameters would differ by the statistic alone).
    let stderr = |files: &[PathBuf]| {
        let out = common::opcost_cmd()
            .unwrap()
            .arg("compare")
            .args(files)
            .assert()
            .success()
            .get_output()
            .stderr
            .clone();
        String::from_utf8_lossy(&out).into_owned()
    };
    assert!(!stderr(&files[..2]).contains("estimated differently"));
    let mut by_mean: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    by_mean["settings"]["statistic"] = "mean".into();
    let relabelled = dir.path().join("by-mean.json");
    std::fs::write(&relabelled, by_mean.to_string()).unwrap();
    let warned = stderr(&[files[0].clone(), relabelled]);
    assert!(warned.contains("estimated differently"), "{warned}");
    assert!(warned.contains("by-mean by the mean"), "{warned}");
}

#[test]
fn predict_refuses_a_foreign_machine_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("m.json");
    std::fs::write(
        &f,
        r#"{"format": "opcost-prediction", "format_version": 1}"#,
    )
    .unwrap();
    common::opcost_cmd()
        .unwrap()
        .args(["predict", "--machine"])
        .arg(&f)
        .arg(fixture())
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "opcost-characterization file is needed",
        ));
}

#[test]
fn validate_reports_a_failing_program_and_goes_on_from_any_directory() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    // Run from a folder without results/: the default outputs are made there. One program
    // ends with an error status in every run, one does not compile; tiny is validated.
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.f");
    std::fs::write(
        &broken,
        "      PROGRAM BROKEN\n      X = 1.0\n      CALL EXIT(3)\n      END\n",
    )
    .unwrap();
    let nocompile = dir.path().join("nocompile.f");
    std::fs::write(&nocompile, "      PROGRAM NC\n      X = (1.0\n      END\n").unwrap();
    let out = common::opcost_cmd()
        .unwrap()
        .current_dir(dir.path())
        .args(["validate", "--runs", "1", "--no-profile", "--no-host-probe"])
        .arg("--machine")
        .arg(quick_machine())
        .args(["--json", "v.json"])
        .arg(&broken)
        .arg(fixture())
        .arg(&nocompile)
        .assert()
        .failure()
        .get_output()
        .clone();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        stdout.contains("broken") && stdout.contains("FAILED"),
        "{stdout}"
    );
    assert!(stdout.contains("nocompile"), "{stdout}");
    assert!(stderr.contains("2 program run(s) failed"), "{stderr}");
    let csv = std::fs::read_to_string(dir.path().join("results/validation-quick.csv")).unwrap();
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(csv.contains("\ntiny,"), "{csv}");
    assert!(dir.path().join("results/validation-quick.svg").exists());
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("v.json")).unwrap()).unwrap();
    assert_eq!(v["summary"]["programs"], 1);
    assert_eq!(v["failed"].as_array().unwrap().len(), 2);
}

#[test]
fn validate_runs_a_manifest_set_with_its_input_and_flags() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    // A program that reads its size from standard input, in the check set of a manifest; a
    // tune program beside it is left out by --set.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("reader.f"),
        "      PROGRAM READER\n      INTEGER N, I\n      REAL S\n      READ (*, *) N\n      S = 0.0\n      DO 10 I = 1, N\n         S = S + REAL(I)\n   10 CONTINUE\n      PRINT *, S\n      END\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("reader.in"), "100000\n").unwrap();
    std::fs::copy(fixture(), dir.path().join("tiny.f")).unwrap();
    let manifest = dir.path().join("manifest.toml");
    std::fs::write(
        &manifest,
        "[[program]]\nname = \"reader\"\nset = \"check\"\nsources = [\"reader.f\"]\nstdin = \"reader.in\"\nflags = [\"-std=legacy\"]\n\n[[program]]\nname = \"tiny\"\nset = \"tune\"\nsources = [\"tiny.f\"]\n",
    )
    .unwrap();
    let json = dir.path().join("v.json");
    let stdout = stdout_of(
        common::opcost_cmd()
            .unwrap()
            .args(["validate", "--runs", "1", "--no-profile", "--no-host-probe"])
            .arg("--machine")
            .arg(quick_machine())
            .arg("--manifest")
            .arg(&manifest)
            .args(["--set", "check", "--csv"])
            .arg(dir.path().join("v.csv"))
            .arg("--plot")
            .arg(dir.path().join("v.svg"))
            .arg("--json")
            .arg(&json),
    );
    assert!(stdout.contains("By corpus set"), "{stdout}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let programs = v["programs"].as_array().unwrap();
    assert_eq!(programs.len(), 1);
    assert_eq!(programs[0]["program"], "reader");
    assert_eq!(programs[0]["set"], "check");
    assert_eq!(v["sets"][0]["set"], "check");
    assert_eq!(v["sets"][0]["summary"]["programs"], 1);
}

#[test]
fn validate_refuses_an_unwritable_output_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "").unwrap();
    let start = std::time::Instant::now();
    let text = stderr_of_failure(
        common::opcost_cmd()
            .unwrap()
            .args(["validate", "--machine"])
            .arg(quick_machine())
            .arg("--csv")
            .arg(blocker.join("v.csv"))
            .arg(fixture()),
    );
    assert!(text.contains("cannot create the folder"), "{text}");
    assert!(start.elapsed().as_secs() < 5);
}

#[test]
fn validate_builds_legacy_code_with_the_flags_the_analysis_needed() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    // COMPLEX arrays passed where REAL ones are declared: gfortran >= 10 refuses it without
    // -fallow-argument-mismatch; the analysis adds it and the timed build must use it too.
    let dir = tempfile::tempdir().unwrap();
    let legacy =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("analyzer/tests/fixtures/arg_mismatch.f");
    let json = dir.path().join("v.json");
    common::opcost_cmd()
        .unwrap()
        .args(["validate", "--runs", "1", "--no-profile", "--no-host-probe"])
        .arg("--machine")
        .arg(quick_machine())
        .arg("--csv")
        .arg(dir.path().join("v.csv"))
        .arg("--plot")
        .arg(dir.path().join("v.svg"))
        .arg("--json")
        .arg(&json)
        .arg(&legacy)
        .assert()
        .success();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["summary"]["programs"], 1);
    assert!(v["failed"].as_array().unwrap().is_empty());
}

/// Rule 17, widened: a loop that calls only straight-line code counts its callee's
/// instructions and is charged by them (its time no longer the operations' sum); a loop
/// that calls a unit with a loop of its own keeps its own instructions and its sum.
#[test]
fn a_loop_calling_straight_line_code_is_charged_by_its_and_the_callees_instructions() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.json");
    common::opcost_cmd()
        .unwrap()
        .args(["predict", "--machine"])
        .arg(quick_machine())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/leaf_calls.f"))
        .arg("--json")
        .arg(&out)
        .assert()
        .success();
    let p: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let looping = |line: u64| {
        p["loops"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["first_line"] == line && l["unit"] == "LEAF")
            .unwrap_or_else(|| panic!("no loop at line {line}: {}", p["loops"]))
            .clone()
    };
    let per_iteration =
        |l: &Value| l["instructions"].as_f64().unwrap() / l["iterations"].as_f64().unwrap();
    let leaf = looping(9);
    // At -O0 the loop's own lines are some 15 instructions an iteration; the callee's
    // prologue, computed GO TO, square root and return as many again.
    assert!(per_iteration(&leaf) >= 25.0, "{leaf}");
    assert_ne!(leaf["bound"], "operations", "{leaf}");
    let calling = looping(12);
    assert_eq!(calling["bound"], "operations", "{calling}");
    assert!(per_iteration(&calling) < 25.0, "{calling}");
}

/// `analyze --dynamic --json` writes what predict needs: the simulated branch predictor runs
/// by default, so the ProgramStats predicts as its source does; without it (`--no-branches`)
/// the branch misses are guessed and predict says so.
#[test]
fn a_programstats_from_analyze_predicts_as_its_source_does() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/random_ifs.f"),
        dir.path().join("random_ifs.f"),
    )
    .unwrap();
    let analyze = |extra: &[&str], out: &str| {
        common::opcost_cmd()
            .unwrap()
            .current_dir(dir.path())
            .args(["analyze", "--dynamic", "--json", out, "random_ifs.f"])
            .args(extra)
            .assert()
            .success();
        let stats: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(out)).unwrap()).unwrap();
        stats["simulated_branches"].clone()
    };
    assert_eq!(analyze(&[], "sim.json"), Value::Bool(true));
    assert_eq!(
        analyze(&["--no-branches"], "guess.json"),
        Value::Bool(false)
    );
    let predict = |input: &str| {
        let out = dir.path().join(format!("{input}.prediction.json"));
        common::opcost_cmd()
            .unwrap()
            .current_dir(dir.path())
            .args(["predict", "--machine"])
            .arg(quick_machine())
            .args([input, "--json"])
            .arg(&out)
            .assert()
            .success();
        serde_json::from_str::<Value>(&std::fs::read_to_string(out).unwrap()).unwrap()
    };
    let misses = |p: &Value| -> f64 {
        p["total"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["mnemonic"] == "BMIS")
            .map(|r| r["times_executed"].as_f64().unwrap())
            .sum()
    };
    let (source, sim, guess) = (
        predict("random_ifs.f"),
        predict("sim.json"),
        predict("guess.json"),
    );
    assert!(misses(&source) > 0.0);
    assert_eq!(misses(&sim), misses(&source));
    let (t_source, t_sim) = (
        source["total"]["time"]["mean_ns"].as_f64().unwrap(),
        sim["total"]["time"]["mean_ns"].as_f64().unwrap(),
    );
    assert!(
        (t_sim - t_source).abs() <= 1e-9 * t_source,
        "{t_sim} {t_source}"
    );
    assert!(!sim["warnings"].to_string().contains("branch predictor"));
    // The guess charges these 800 000 IFs differently from the simulation, and says so.
    assert_ne!(misses(&guess), misses(&source));
    let warnings = guess["warnings"].to_string();
    assert!(
        warnings.contains("--no-branches") && warnings.contains("guessed"),
        "{warnings}"
    );
}

//! End-to-end tests of `opcost characterize` through real gfortran: structure and invariants,
//! never absolute times (the machine is shared and noisy).

mod common;

use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

fn have_gfortran() -> bool {
    std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok()
}

fn param<'a>(doc: &'a Value, m: &str) -> &'a Value {
    doc["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["mnemonic"] == m)
        .unwrap_or_else(|| panic!("{m} missing"))
}

fn est(doc: &Value, m: &str) -> (f64, f64, f64) {
    let e = &param(doc, m)["estimate"];
    (
        e["mean_ns"].as_f64().unwrap(),
        e["ci_low_ns"].as_f64().unwrap(),
        e["ci_high_ns"].as_f64().unwrap(),
    )
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn quick_characterization_of_a_few_regions_is_sane() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("q.json");
    let csv = dir.path().join("q.csv");
    common::opcost_cmd()
        .unwrap()
        .args([
            "characterize",
            "--quick",
            "--only",
            "ARSL,MRSL,DRSL,TRSL,CISL,PROC,SIND,LOOV",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--export-csv")
        .arg(&csv)
        .arg("--cache-dir")
        .arg(dir.path().join("cache"))
        .assert()
        .success();
    let doc = read(&out);
    assert_eq!(doc["format"], "opcost-characterization");
    assert_eq!(doc["format_version"], 1);
    assert_eq!(doc["complete"], true);
    assert_eq!(doc["compiler"]["flags"][0], "-O0");
    for m in [
        "SRSL", "ARSL", "DRSL", "TRSL", "CISL", "PROC", "SIND", "LOIN", "LOOV",
    ] {
        let (mean, lo, hi) = est(&doc, m);
        assert!(
            lo <= mean && mean <= hi,
            "{m}: interval must contain its estimate"
        );
        assert!(mean.is_finite());
    }
    // Expensive operations are positive and clearly above the cheap ones. ARSL and LOOV are
    // left out: each a difference of two quick tests at a fraction of a nanosecond, they can
    // come out at or below zero (this check failed once in ten quick runs with ARSL in it,
    // and once in a full test run on the Zen 5 host with LOOV, 0.09 ns there, in it).
    for m in ["DRSL", "PROC", "SIND", "TRSL", "CISL"] {
        assert!(est(&doc, m).0 > 0.0, "{m} must take time");
    }
    assert!(
        est(&doc, "DRSL").0 > est(&doc, "ARSL").0,
        "division slower than addition"
    );
    assert!(
        est(&doc, "SIND").0 > est(&doc, "ARSL").0,
        "sine slower than addition"
    );
    assert_eq!(param(&doc, "LOOV")["test_kind"], "indirect");
    assert_eq!(param(&doc, "DRSL")["test_kind"], "composite");
    assert_eq!(param(&doc, "PROC")["test_kind"], "direct");
    // Parameters outside --only and their dependencies are not measured.
    assert!(doc["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["mnemonic"] != "DRDG"));
    // The timer was measured before the tests (Saavedra-Barrera's table 4.8).
    assert!(doc["timer"]["resolution_ns"].as_f64().unwrap() > 0.0);
    assert!(doc["timer"]["loop_overhead"]["mean_ns"].as_f64().unwrap() > 0.0);
    // The self-check compares measured and predicted statements.
    let checks = doc["self_check"].as_array().unwrap();
    assert!(!checks.is_empty());
    for c in checks {
        assert!(c["measured"]["mean_ns"].as_f64().unwrap() > 0.0);
        assert!(c["predicted_ns"].as_f64().unwrap() > 0.0);
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.starts_with("number,mnemonic,region"));
    assert_eq!(
        csv.lines().count(),
        1 + doc["parameters"].as_array().unwrap().len()
    );
    // The same table lies beside the JSON, and `opcost show` prints and exports it.
    assert_eq!(
        std::fs::read_to_string(out.with_extension("csv")).unwrap(),
        csv
    );
    let shown = common::opcost_cmd()
        .unwrap()
        .arg("show")
        .arg(&out)
        .args(["--csv", "-"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8_lossy(&shown), csv);
    common::opcost_cmd()
        .unwrap()
        .arg("show")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "Region 1: real single, local operands",
        ))
        .stdout(predicates::str::contains(
            "each test: the minimum of 5 observations of TMAX 0.01 s from 1 process",
        ));
}

#[test]
fn a_reader_that_stops_early_ends_show_without_a_panic() {
    use std::process::Stdio;
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/characterizations");
    let file = std::fs::read_dir(&committed)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a committed characterization");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("opcost"))
        .env("OPCOST_CACHE_DIR", common::cache_dir())
        .arg("show")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the pipe before opcost writes (it reads the file first), as `| true` does: its
    // whole table would fit in the pipe's buffer, so a reader that stops after a line would
    // not make it fail.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn an_interrupted_run_keeps_what_it_measured_and_resumes() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("partial.json");
    let bin = assert_cmd::cargo::cargo_bin("opcost");
    let mut child = std::process::Command::new(&bin)
        .env("OPCOST_CACHE_DIR", common::cache_dir())
        .args([
            "characterize",
            "--quick",
            "--no-self-check",
            "--rounds",
            "2",
        ])
        .args(["--only", "ARSL,MRSL,DRSL,ERSL,XRSL,TRSL,ARDL,MRDL,DRDL"])
        .arg("--out")
        .arg(&out)
        .arg("--cache-dir")
        .arg(dir.path().join("cache"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until a few experiments are saved (to the partial file: the result is written
    // only when complete), then kill it like a user would.
    let partial = dir.path().join("partial.partial.json");
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(&partial) {
            let doc: Value = serde_json::from_str(&text).expect("partial file is whole JSON");
            if doc["experiments"].as_array().map(|a| a.len()).unwrap_or(0) >= 3 {
                break;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no progress saved"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    unsafe_kill_term(child.id());
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "an interrupted run must not report success"
    );
    assert!(!out.exists(), "an interrupted run writes no result file");
    let doc = read(&partial);
    assert_eq!(doc["complete"], false);
    let kept = doc["experiments"].as_array().unwrap().len();
    assert!(kept >= 3);
    common::opcost_cmd()
        .unwrap()
        .args(["characterize", "--resume"])
        .arg(&partial)
        .arg("--cache-dir")
        .arg(dir.path().join("cache"))
        .arg("--no-self-check")
        .assert()
        .success();
    let doc = read(&out);
    assert_eq!(doc["complete"], true);
    assert!(!partial.exists(), "the partial file is gone once complete");
    assert!(doc["experiments"].as_array().unwrap().len() > kept);
    // The expensive parameters are positive. ARSL is only checked for being finite: a
    // difference of two quick tests at a fraction of a nanosecond, it came out at or below
    // zero in a CI run.
    assert!(est(&doc, "ARSL").0.is_finite());
    for m in ["DRSL", "DRDL", "XRSL"] {
        assert!(est(&doc, m).0 > 0.0, "{m} = {} ns", est(&doc, m).0);
    }
    // The kept experiments were not measured again.
    let names: Vec<&str> = doc["experiments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
    // Two rounds of the quick run's five observations: every experiment has all five, the
    // resumed run kept the setting.
    assert_eq!(doc["settings"]["rounds"], 2);
    for e in doc["experiments"].as_array().unwrap() {
        assert_eq!(e["observations_s"].as_array().unwrap().len(), 5, "{e}");
    }
}

fn unsafe_kill_term(pid: u32) {
    std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
}

#[test]
fn a_missing_compiler_says_how_to_install_it() {
    let dir = tempfile::tempdir().unwrap();
    common::opcost_cmd()
        .unwrap()
        .args([
            "characterize",
            "--quick",
            "--compiler",
            "no-such-gfortran-xyz",
        ])
        .arg("--out")
        .arg(dir.path().join("x.json"))
        .assert()
        .failure()
        .stderr(predicates::str::contains("apt-get install gfortran"));
}

#[test]
fn unknown_parameter_in_only_is_named() {
    common::opcost_cmd()
        .unwrap()
        .args(["characterize", "--quick", "--only", "ARSL,WXYZ"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("unknown parameter WXYZ"));
}

#[test]
fn resuming_a_foreign_or_newer_file_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("foreign.json");
    std::fs::write(
        &foreign,
        r#"{"format": "opcost-program-stats", "format_version": 1}"#,
    )
    .unwrap();
    common::opcost_cmd()
        .unwrap()
        .args(["characterize", "--resume"])
        .arg(&foreign)
        .assert()
        .failure()
        .stderr(
            predicates::str::contains("a opcost-characterization file is needed").or(
                predicates::str::contains("opcost-characterization file is needed"),
            ),
        );
    let newer = dir.path().join("newer.json");
    std::fs::write(
        &newer,
        r#"{"format": "opcost-characterization", "format_version": 99}"#,
    )
    .unwrap();
    common::opcost_cmd()
        .unwrap()
        .args(["characterize", "--resume"])
        .arg(&newer)
        .assert()
        .failure()
        .stderr(predicates::str::contains("format version 99"));
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "not json at all").unwrap();
    common::opcost_cmd()
        .unwrap()
        .args(["characterize", "--resume"])
        .arg(&junk)
        .assert()
        .failure()
        .stderr(predicates::str::contains("not a JSON file"));
}

/// `opcost characterize --quick` without self-check and X-Ray, its tests built in `dir`.
fn quick_characterize(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    common::opcost_cmd()
        .unwrap()
        .args(["characterize", "--quick", "--no-self-check", "--no-xray"])
        .args(args)
        .arg("--cache-dir")
        .arg(dir.join("cache"))
        .assert()
}

/// A quick characterization of `only` in a fresh directory: the directory and the file, or
/// None (skipped) without gfortran.
fn quick_only(only: &str) -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    quick_only_with(only, &[])
}

/// [`quick_only`] with `extra` options.
fn quick_only_with(only: &str, extra: &[&str]) -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bm.json");
    let mut args = vec!["--only", only, "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    quick_characterize(dir.path(), &args).success();
    Some((dir, out))
}

/// The record of experiment `name` in a characterization file.
fn record(doc: &Value, name: &str) -> Value {
    doc["experiments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} not recorded"))
}

#[test]
fn resuming_a_complete_file_measures_only_what_this_version_added() {
    let Some((dir, out)) = quick_only("BMIS,BMIR") else {
        return;
    };
    let run = |args: &[&str]| quick_characterize(dir.path(), args);
    let out_s = out.to_str().unwrap();
    let whole = read(&out);
    assert_eq!(whole["complete"], true);
    // Nothing is missing: resuming is refused.
    run(&["--resume", out_s])
        .failure()
        .stderr(predicates::str::contains("already complete"));
    // A file from before BMIR existed: the same, without its experiments and parameter.
    let mut older = whole.clone();
    older["experiments"]
        .as_array_mut()
        .unwrap()
        .retain(|e| !e["name"].as_str().unwrap().starts_with("BMIR"));
    older["parameters"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p["mnemonic"] != "BMIR");
    std::fs::write(&out, serde_json::to_string(&older).unwrap()).unwrap();
    run(&["--resume", out_s])
        .success()
        .stderr(predicates::str::contains("lacks 2 experiments"));
    let resumed = read(&out);
    assert_eq!(resumed["complete"], true);
    let (bmir, _, _) = est(&resumed, "BMIR");
    assert!(bmir.is_finite(), "BMIR measured: {bmir}");
    // What was measured before is kept as it was.
    let observations = |doc: &Value, name: &str| record(doc, name)["observations_s"].clone();
    assert_eq!(observations(&resumed, "BMIS"), observations(&whole, "BMIS"));
    assert_eq!(
        observations(&resumed, "BMIS.0"),
        observations(&whole, "BMIS.0")
    );
}

#[test]
fn a_test_changed_since_it_was_measured_is_measured_again_on_resume() {
    let Some((dir, out)) = quick_only("BMIS") else {
        return;
    };
    let run = |args: &[&str]| quick_characterize(dir.path(), args);
    let out_s = out.to_str().unwrap();
    let whole = read(&out);
    let fingerprint = record(&whole, "BMIS")["test_fingerprint"].clone();
    assert!(
        fingerprint.is_string(),
        "every record carries its test's fingerprint"
    );
    assert_ne!(fingerprint, record(&whole, "BMIS.0")["test_fingerprint"]);
    // As if BMIS had been measured by a version whose test was different.
    let mut older = whole.clone();
    for e in older["experiments"].as_array_mut().unwrap() {
        if e["name"] == "BMIS" {
            e["test_fingerprint"] = Value::from("0123456789abcdef");
            e["observations_s"] = serde_json::json!([1.0, 1.0, 1.0, 1.0, 1.0]);
        }
    }
    std::fs::write(&out, serde_json::to_string(&older).unwrap()).unwrap();
    common::opcost_cmd()
        .unwrap()
        .args(["show", out_s])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "BMIS: measured with tests that this version of opcost has changed",
        ));
    run(&["--resume", out_s])
        .success()
        .stderr(predicates::str::contains(
            "measured BMIS with tests this version has changed since",
        ));
    let resumed = read(&out);
    assert_eq!(resumed["complete"], true);
    let again = record(&resumed, "BMIS");
    assert_eq!(again["test_fingerprint"], fingerprint);
    assert!(
        again["observations_s"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o.as_f64().unwrap() < 1.0),
        "the old observations are gone: {again}"
    );
    // The unchanged baseline kept its observations.
    assert_eq!(record(&resumed, "BMIS.0"), record(&whole, "BMIS.0"));
    // Files from before fingerprints were recorded are taken as they are.
    let mut unmarked = resumed.clone();
    for e in unmarked["experiments"].as_array_mut().unwrap() {
        e.as_object_mut().unwrap().remove("test_fingerprint");
    }
    std::fs::write(&out, serde_json::to_string(&unmarked).unwrap()).unwrap();
    run(&["--resume", out_s])
        .failure()
        .stderr(predicates::str::contains("already complete"));
}

#[test]
fn resuming_with_another_statistic_re_estimates_without_measuring() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("stat.json");
    let out_s = out.to_str().unwrap();
    let run = |args: &[&str]| quick_characterize(dir.path(), args);
    run(&["--only", "ARSL", "--statistic", "mean", "--out", out_s]).success();
    let by_mean = read(&out);
    assert_eq!(by_mean["settings"]["statistic"], "mean");
    run(&["--resume", out_s, "--statistic", "min"])
        .success()
        .stderr(predicates::str::contains("re-estimating"));
    let by_min = read(&out);
    assert_eq!(by_min["settings"]["statistic"], "min");
    assert_eq!(by_min["complete"], true);
    // Nothing was measured again: every experiment's observations are as they were.
    assert_eq!(by_min["experiments"], by_mean["experiments"]);
    // The loop control's time per pass is the smallest pass now, not the mean one.
    let overhead = |doc: &Value| doc["timer"]["loop_overhead"]["mean_ns"].as_f64().unwrap();
    assert!(
        overhead(&by_min) <= overhead(&by_mean),
        "{} > {}",
        overhead(&by_min),
        overhead(&by_mean)
    );
    assert_ne!(by_min["parameters"], by_mean["parameters"]);
    // The same statistic given again re-estimates (a newer version may summarize a test
    // differently: refinement 28's CSTA), measuring nothing: here the same parameters.
    run(&["--resume", out_s, "--statistic", "min"])
        .success()
        .stderr(predicates::str::contains("re-estimating"));
    let again = read(&out);
    assert_eq!(again["experiments"], by_min["experiments"]);
    assert_eq!(again["parameters"], by_min["parameters"]);
    // Without --statistic a complete file has nothing to do.
    run(&["--resume", out_s])
        .failure()
        .stderr(predicates::str::contains("already complete"));
}

#[test]
fn a_new_characterization_estimates_by_the_minimum() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("default.json");
    quick_characterize(
        dir.path(),
        &["--only", "AISL", "--out", out.to_str().unwrap()],
    )
    .success();
    assert_eq!(read(&out)["settings"]["statistic"], "min");
}

/// Three observations over two rounds leave one in the first round's partial file: its
/// error (no spread to tell it by) is finite, so the run is written, not refused.
#[test]
fn an_odd_repeat_over_two_rounds_is_written() {
    let Some((_dir, out)) = quick_only_with("AISL", &["--repeat", "3", "--rounds", "2"]) else {
        return;
    };
    let (mean, lo, hi) = est(&read(&out), "AISL");
    assert!(lo.is_finite() && hi.is_finite() && lo <= mean && mean <= hi);
}

/// Rule 17: INST is the pass time over the pass's instructions in the compiler's assembly.
/// A file whose compiler wrote no line directives (flang-new 16) has the test's times but no
/// instruction count: re-estimating it leaves INST out, and `show` says why.
#[test]
fn inst_is_measured_from_the_assembly_or_its_absence_is_explained() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("inst.json");
    let out_s = out.to_str().unwrap();
    quick_characterize(dir.path(), &["--only", "INST", "--out", out_s]).success();
    let doc = read(&out);
    let rec = doc["experiments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "INST")
        .expect("the INST test ran");
    // Sixteen element updates, each several instructions at -O0, and the loop control.
    let instructions = rec["instructions"].as_u64().expect("instructions recorded");
    assert!(instructions >= 16 * 5, "{instructions}");
    let (inst, _, _) = est(&doc, "INST");
    let clock_call = doc["timer"]["call_overhead_ns"].as_f64().unwrap();
    let passes: Vec<f64> = rec["observations_s"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v.as_f64().unwrap() * 1e9 - clock_call) / rec["iterations"].as_f64().unwrap())
        .collect();
    let mean = passes.iter().sum::<f64>() / passes.len() as f64;
    // An issue rate is the mean pass (less the clock call's share) over its instructions,
    // where the other tests take the fastest (docs/model.md, rule 17 refined).
    assert!(
        (inst - mean / instructions as f64).abs() <= 1e-9 * inst.max(1.0),
        "{inst} vs {mean} / {instructions}"
    );
    let shown = common::opcost_cmd()
        .unwrap()
        .args(["show", out_s])
        .assert()
        .success();
    assert!(!String::from_utf8_lossy(&shown.get_output().stderr).contains("INST is not measured"));

    // The same file as if its compiler had written no line directives.
    let mut doc = doc;
    for e in doc["experiments"].as_array_mut().unwrap() {
        if e["name"] == "INST" {
            e.as_object_mut().unwrap().remove("instructions");
        }
    }
    std::fs::write(&out, serde_json::to_string(&doc).unwrap()).unwrap();
    quick_characterize(dir.path(), &["--resume", out_s, "--statistic", "mean"]).success();
    let doc = read(&out);
    assert!(doc["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["mnemonic"] != "INST"));
    let shown = common::opcost_cmd()
        .unwrap()
        .args(["show", out_s])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&shown.get_output().stderr).into_owned();
    assert!(
        err.contains("INST is not measured") && err.contains("line directives"),
        "{err}"
    );
}

/// Without --out the result goes to the folder --results-dir names, as
/// <machine>--<compiler-flags>.quick.json, with its CSV beside it.
#[test]
fn the_default_result_goes_to_the_results_folder_given() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("my-results");
    quick_characterize(
        dir.path(),
        &["--only", "AISL", "--results-dir", results.to_str().unwrap()],
    )
    .success();
    let made: Vec<String> = std::fs::read_dir(&results)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        made.iter().any(|f| f.ends_with("-O0.quick.json")),
        "{made:?}"
    );
    assert!(
        made.iter().any(|f| f.ends_with("-O0.quick.csv")),
        "{made:?}"
    );
}

/// Issue 27's round trip: an optimized characterization is written, read back and predicts
/// with; no number in it is missing or not finite (a statement the compiler removed must
/// not leave a NaN behind).
#[test]
fn an_o2_characterization_round_trips_into_a_prediction() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o2.json");
    common::opcost_cmd()
        .unwrap()
        .args(["characterize", "--quick", "--no-xray", "--flags", "-O2"])
        .arg("--out")
        .arg(&out)
        .arg("--cache-dir")
        .arg(dir.path().join("cache"))
        .assert()
        .success();
    let doc = read(&out);
    // The self-check compares statements the compiler may have removed: 0 ns against 0 ns
    // must still give a number.
    let checks = doc["self_check"].as_array().unwrap();
    assert!(!checks.is_empty());
    for c in checks {
        assert!(
            c["error_percent"].as_f64().is_some_and(f64::is_finite),
            "{c}"
        );
    }
    assert_eq!(doc["compiler"]["flags"][0], "-O2");
    for p in doc["parameters"].as_array().unwrap() {
        let e = &p["estimate"];
        assert!(e["mean_ns"].as_f64().unwrap().is_finite(), "{p}");
    }
    // A parameter whose tests the compiler emptied is marked, not left as a number that
    // claims to measure it; each marked one's tests have no instruction in the assembly.
    let experiments = doc["experiments"].as_array().unwrap();
    let marked: Vec<&Value> = doc["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p.get("unmeasured").is_some())
        .collect();
    assert!(!marked.is_empty(), "gfortran -O2 removes some tests' work");
    for p in &marked {
        for e in p["experiments"].as_array().unwrap() {
            let rec = experiments.iter().find(|r| r["name"] == *e).unwrap();
            assert_eq!(rec["instructions"], 0, "{p} {rec}");
        }
    }
    // Rule 17's two rates exist at -O2 too: MEMO's loads and stores survive, and INST comes
    // from its own test or, when the optimizer left that test nothing, from MEMO's test.
    for m in ["INST", "MEMO"] {
        let p = doc["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["mnemonic"] == m)
            .unwrap_or_else(|| panic!("{m} at -O2"));
        assert!(p["estimate"]["mean_ns"].as_f64().unwrap() > 0.0, "{p}");
    }
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("fortran-samples/sieve.f");
    let pred = common::opcost_cmd()
        .unwrap()
        .args(["predict", "--machine"])
        .arg(&out)
        .arg(&sample)
        .args(["--json", "-"])
        .output()
        .unwrap();
    assert!(
        pred.status.success(),
        "{}",
        String::from_utf8_lossy(&pred.stderr)
    );
    let v: Value = serde_json::from_slice(&pred.stdout).expect("the prediction as JSON");
    let t = &v["total"]["time"];
    let mean = t["mean_ns"].as_f64().unwrap();
    assert!(mean.is_finite() && mean > 0.0, "{v:#}");
    assert!(t["ci_low_ns"].as_f64().unwrap() <= mean && mean <= t["ci_high_ns"].as_f64().unwrap());
}

//! `opcost analyze` end to end: the static report, the dynamic report and its JSON read back
//! through the versioned schema, CSV, and clear errors for bad input.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("analyzer/tests/fixtures")
        .join(name)
}

fn opcost() -> Command {
    common::opcost_cmd().unwrap()
}

#[test]
fn static_report_lists_parameters_with_fractions_and_regions() {
    opcost()
        .args(["analyze"])
        .arg(fixture("counts.f"))
        .assert()
        .success()
        .stdout(predicate::str::contains("static statistics"))
        .stdout(predicate::str::contains("LOIX"))
        .stdout(predicate::str::contains("region second"))
        .stdout(predicate::str::contains("I/O statement WRITE"))
        .stdout(predicate::str::contains("dynamic statistics").not());
}

#[test]
fn dynamic_json_reads_back_with_counts_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("counts.json");
    let csv = dir.path().join("counts.csv");
    opcost()
        .args(["analyze", "--dynamic", "--time-limit", "60", "--json"])
        .arg(&json)
        .arg("--csv")
        .arg(&csv)
        .arg(fixture("counts.f"))
        .assert()
        .success()
        .stdout(predicate::str::contains("dynamic statistics"))
        .stdout(predicate::str::contains("cumulative"));
    let text = std::fs::read_to_string(&json).unwrap();
    let stats: model::ProgramStats = model::parse_versioned(&text).unwrap();
    assert_eq!(stats.source_sha256.len(), 64);
    let d = stats.total.dynamic_counts.expect("dynamic counts");
    assert_eq!(d.get(model::Param::LOOV), 10);
    assert_eq!(d.get(model::Param::LOOX), 5);
    assert_eq!(stats.units.len(), 2);
    assert!(stats.blocks.iter().any(|b| b.executions == Some(10)));
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.starts_with("part_kind,part,mnemonic,description,static_count,dynamic_count"));
    assert!(
        csv.lines()
            .any(|l| l.starts_with("program,counts,LOOV,") && l.ends_with(",1,10")),
        "{csv}"
    );
}

#[test]
fn json_to_stdout_keeps_stdout_clean() {
    let out = opcost()
        .args(["analyze", "--json", "-"])
        .arg(fixture("counts.f"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let stats: model::ProgramStats =
        model::parse_versioned(&String::from_utf8(out).unwrap()).unwrap();
    assert_eq!(stats.program, "counts");
}

#[test]
fn syntax_error_names_file_line_and_column_and_analysis_goes_on_with_keep_going() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.f");
    std::fs::write(
        &f,
        "      PROGRAM BAD\n      X = 1.0\n      Y = X +* 2.0\n      Z = X * X\n      END\n",
    )
    .unwrap();
    opcost()
        .args(["analyze", "--keep-going"])
        .arg(&f)
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "{}:3:13: error",
            f.display()
        )))
        .stderr(predicate::str::contains("Y = X +* 2.0"))
        .stderr(predicate::str::contains(
            "1 statement(s) could not be parsed",
        ))
        .stdout(predicate::str::contains("MRSL"));
}

#[test]
fn missing_file_and_bad_options_are_clear_errors() {
    opcost()
        .args(["analyze", "/no/such/prog.f"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot read /no/such/prog.f"))
        // The cause is said once, not again after the message that quotes it.
        .stderr(predicate::function(|e: &str| {
            e.matches("No such file or directory").count() == 1
        }));
    opcost()
        .args(["analyze", "--line-length", "80"])
        .arg(fixture("counts.f"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("--line-length must be 72"));
    opcost()
        .args(["analyze", "--dynamic", "--compiler", "no-such-fortran-xyz"])
        .arg(fixture("counts.f"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("apt-get install gfortran"));
}

#[test]
fn a_program_that_does_not_compile_is_reported_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("nocompile.f");
    std::fs::write(&f, "      PROGRAM P\n      CALL\n      END\n").unwrap();
    opcost()
        .args(["analyze", "--dynamic", "--keep-going"])
        .arg(&f)
        .assert()
        .failure()
        .stderr(predicate::str::contains("failed to compile"));
}

/// Legacy code gfortran >= 10 refuses (argument mismatches) is built with
/// -fallow-argument-mismatch, says so, and records it; given up front, no note.
#[test]
fn argument_mismatches_are_built_with_the_legacy_flag_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("am.json");
    let flags_of = |json: &std::path::Path| {
        let stats: model::ProgramStats =
            model::parse_versioned(&std::fs::read_to_string(json).unwrap()).unwrap();
        stats.program_flags
    };
    opcost()
        .args(["analyze", "--dynamic", "--gcov-check", "--json"])
        .arg(&json)
        .arg(fixture("arg_mismatch.f"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: gfortran refuses the program",
        ))
        .stderr(predicate::str::contains(
            "--program-flags \"-fallow-argument-mismatch\"",
        ));
    assert_eq!(flags_of(&json), vec!["-fallow-argument-mismatch"]);
    opcost()
        .args(["analyze", "--dynamic", "--json"])
        .arg(&json)
        .args(["--program-flags", "-std=legacy -O0"])
        .arg(fixture("arg_mismatch.f"))
        .assert()
        .success()
        .stderr(predicate::str::contains("note:").not());
    assert_eq!(flags_of(&json), vec!["-std=legacy", "-O0"]);
}

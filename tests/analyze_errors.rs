//! `opcost analyze` refuses what it cannot analyze faithfully, with a clear message and a
//! non-zero exit (issue 25): pathological nesting and lengths, free-form source, syntax
//! errors (unless --keep-going), an empty file, a library without a main program (dynamic),
//! a program reading standard input without --stdin, a "compiler" that writes no executable,
//! and a loop ended by integer wrap-around.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn opcost() -> Command {
    let mut c = common::opcost_cmd().unwrap();
    // Hang detection only: each case takes well under a second.
    c.timeout(Duration::from_secs(120));
    c
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn program(body: &str) -> String {
    format!(
        "      PROGRAM P\n      REAL X, Y\n      X = 1.0\n{body}\n      PRINT *, Y\n      END\n"
    )
}

fn gfortran() -> bool {
    std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok()
}

#[test]
fn pathological_input_is_refused_quickly_never_a_crash() {
    let d = tempfile::tempdir().unwrap();
    let mut sum = String::from("      Y = X");
    for _ in 0..50_000 {
        sum.push_str("\n     & + X");
    }
    let calls = format!("{}X{}", "ABS(".repeat(1000), ")".repeat(1000));
    let mut nested = String::from("      Y = ");
    for chunk in calls.as_bytes().chunks(60) {
        nested.push_str(std::str::from_utf8(chunk).unwrap());
        nested.push_str("\n     &");
    }
    nested.push('0');
    for (name, body) in [("sum.f", sum), ("calls.f", nested)] {
        let f = write(d.path(), name, &program(&body));
        opcost()
            .arg("analyze")
            .arg(&f)
            .assert()
            .failure()
            .code(1)
            .stderr(predicate::str::contains("too deeply"))
            .stderr(predicate::str::contains(format!("{name}:")));
    }
}

#[test]
fn free_form_source_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        d.path(),
        "free.f90",
        "program p\n  implicit none\n  real :: x\n  x = 1\n  print *, x\nend program p\n",
    );
    opcost()
        .arg("analyze")
        .arg(&f)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "free.f90:1: this is not Fortran 77 fixed-form",
        ));
}

#[test]
fn syntax_errors_fail_unless_keep_going() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "syn.f", &program("      Y = X +* 2"));
    opcost()
        .arg("analyze")
        .arg(&f)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "1 statement(s) could not be parsed",
        ))
        .stderr(predicate::str::contains("syn.f:4:13:"))
        .stderr(predicate::str::contains("Y = X +* 2"))
        .stderr(predicate::str::contains("--keep-going"));
    opcost()
        .args(["analyze", "--keep-going"])
        .arg(&f)
        .assert()
        .success()
        .stderr(predicate::str::contains("syn.f:4:13:"))
        .stdout(predicate::str::contains("1 skipped statement(s)"));
}

#[test]
fn an_empty_file_has_no_program_units() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "empty.f", "C only a comment\n\n");
    opcost()
        .arg("analyze")
        .arg(&f)
        .assert()
        .failure()
        .stderr(predicate::str::contains("no program units in"))
        .stderr(predicate::str::contains("empty.f"));
}

#[test]
fn a_library_without_main_program_is_counted_statically_refused_dynamically() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        d.path(),
        "lib.f",
        "      SUBROUTINE S(X)\n      X = X + 1\n      END\n",
    );
    opcost().arg("analyze").arg(&f).assert().success();
    if !gfortran() {
        return;
    }
    opcost()
        .args(["analyze", "--dynamic"])
        .arg(&f)
        .assert()
        .failure()
        .stderr(predicate::str::contains("has no main program"))
        .stderr(predicate::str::contains("bug").not());
}

#[test]
fn a_program_reading_standard_input_gets_a_stdin_hint() {
    if !gfortran() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let f = write(
        d.path(),
        "reads.f",
        "      PROGRAM R\n      READ (*, *) N\n      PRINT *, N\n      END\n",
    );
    opcost()
        .args(["analyze", "--dynamic"])
        .arg(&f)
        .write_stdin("")
        .assert()
        .failure()
        .stderr(predicate::str::contains("reads standard input"))
        .stderr(predicate::str::contains("--stdin FILE"));
    let input = write(d.path(), "in.txt", "7\n");
    opcost()
        .args(["analyze", "--dynamic", "--stdin"])
        .arg(&input)
        .arg(&f)
        .assert()
        .success();
}

#[test]
fn a_compiler_that_writes_no_executable_is_named() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "p.f", &program("      Y = X + 1"));
    opcost()
        .args(["analyze", "--dynamic", "--compiler", "/bin/true"])
        .arg(&f)
        .assert()
        .failure()
        .stderr(predicate::str::contains("wrote no executable"));
}

#[test]
fn a_loop_ended_by_integer_wrap_around_is_counted() {
    if !gfortran() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let f = write(
        d.path(),
        "wrap.f",
        "      PROGRAM W\n      INTEGER I, K\n      K = 0\n      I = 2147483000\n   10 I = I + 1\n      K = K + 1\n      IF (I .GT. 0) GOTO 10\n      PRINT *, K\n      END\n",
    );
    opcost()
        .args(["analyze", "--dynamic"])
        .arg(&f)
        .assert()
        .success()
        .stdout(predicate::str::contains("dynamic statistics"));
}

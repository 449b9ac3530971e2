//! The dynamic counts against gcov, a tool nobody here wrote: every executable line of the
//! fixtures and of the fortran-samples programs that exist must have the analyzer's count
//! (see `analyzer::gcov` for the systematic exceptions and how they are checked instead).
//! Quick mode (`OPCOST_QUICK=1`) checks every sample with its repeat constant lowered.

use analyzer::{gcov, AnalyzeOptions, RunSpec};
use harness::Compiler;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn check_program(files: &[PathBuf], stdin: Option<PathBuf>) {
    let compiler =
        Compiler::find(None, &["-O0".to_string()]).expect("gfortran (apt-get install gfortran)");
    let run = RunSpec {
        stdin,
        time_limit: Duration::from_secs(120),
        ..RunSpec::default()
    };
    let (a, chk) = gcov::check(files, &AnalyzeOptions::default(), &compiler, &run)
        .unwrap_or_else(|e| panic!("{}: {e}", files[0].display()));
    eprintln!(
        "{}: {} lines equal, {} bounded, {} DO lines, {} consequents, {} not in gcov, {} skipped statements",
        files[0].display(),
        chk.lines_equal,
        chk.bounded_lines,
        chk.do_lines,
        chk.consequents,
        chk.not_in_gcov,
        a.stats.skipped_statements
    );
    for m in &chk.mismatches {
        eprintln!(
            "  {}:{} {}: analyzer {} gcov {}",
            m.file, m.line, m.what, m.analyzer, m.gcov
        );
    }
    assert!(
        chk.mismatches.is_empty(),
        "{} mismatches with gcov",
        chk.mismatches.len()
    );
    assert!(chk.lines_equal > 0, "nothing compared");
    // Most counted statements must have a gcov line to compare with.
    assert!(
        chk.not_in_gcov * 4 <= chk.lines_equal + chk.do_lines,
        "too few lines in gcov"
    );
    assert_eq!(a.stats.skipped_statements, 0);
}

#[test]
fn fixtures_match_gcov() {
    let dir = root().join("analyzer/tests/fixtures");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "f") {
            check_program(&[p], None);
            n += 1;
        }
    }
    assert!(n > 0, "no fixtures");
}

#[test]
fn samples_match_gcov() {
    let dir = root().join("fortran-samples");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "f"))
        .collect();
    files.sort();
    let tmp = tempfile::tempdir().unwrap();
    for p in files {
        let input = p.with_extension("in");
        let p = if quick() {
            lowered_copy(&p, tmp.path())
        } else {
            p
        };
        check_program(&[p], input.exists().then_some(input));
    }
}

fn quick() -> bool {
    std::env::var("OPCOST_QUICK").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Quick mode: a copy with the repeat constant of the PARAMETER statement (NREP, MULT or
/// NWORK) made small. The comparison with gcov is the same, on smaller counts.
fn lowered_copy(p: &Path, dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(p).unwrap();
    let lowered = analyzer::source::set_parameters(&text, &analyzer::source::QUICK_REPEATS);
    let q = dir.join(p.file_name().unwrap());
    std::fs::write(&q, lowered).unwrap();
    q
}

/// The validation corpus's own programs (tune and check sets), each with its repeat constant
/// set to 1 (the counts' structure does not depend on it); quick mode checks every fourth.
#[test]
fn corpus_programs_match_gcov() {
    let mut files: Vec<PathBuf> = ["corpus/tune", "corpus/check"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root().join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "f"))
        .collect();
    files.sort();
    let tmp = tempfile::tempdir().unwrap();
    let step = if quick() { 4 } else { 1 };
    for p in files.iter().step_by(step) {
        let text = std::fs::read_to_string(p).unwrap();
        let once = analyzer::source::set_parameters(&text, &[("NREP", "1")]);
        let q = tmp.path().join(p.file_name().unwrap());
        std::fs::write(&q, once).unwrap();
        check_program(&[q], None);
    }
}

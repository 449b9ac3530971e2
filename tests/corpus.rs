//! The validation corpus (`corpus/manifest.toml`): every tune and check program compiles with
//! gfortran at -O0, runs under a time limit and passes its own self-check (its last line is
//! `SELFCHECK <PROGRAM> PASS`). Programs are built as the manifest says (all their sources,
//! their extra flags, their standard input).
//!
//! Full mode runs every program at its real size (about a second each). Quick mode
//! (`OPCOST_QUICK=1`) sets each program's repeat constant `NREP` to 1 in a temporary copy:
//! the self-checks hold for any `NREP >= 1` (corpus/README.md).

use harness::{run_limited, Compiler};
use predictor::corpus::{load_manifest, ProgramSpec};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const RUN_LIMIT: Duration = Duration::from_secs(60);

fn quick() -> bool {
    std::env::var("OPCOST_QUICK").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/manifest.toml")
}

/// Build one corpus program (NREP = 1 in quick mode) and run it; its output or why it failed.
fn build_and_run(p: &ProgramSpec, dir: &Path) -> Result<String, String> {
    let mut flags = vec!["-O0".to_string()];
    flags.extend(p.flags.iter().cloned());
    let fc = Compiler::find(None, &flags).map_err(|e| e.to_string())?;
    let sources: Vec<PathBuf> = p
        .sources
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let text = std::fs::read_to_string(s).unwrap();
            let text = if quick() {
                analyzer::source::set_parameters(&text, &[("NREP", "1")])
            } else {
                text
            };
            let copy = dir.join(format!("{}-{k}.f", p.name));
            std::fs::write(&copy, text).unwrap();
            copy
        })
        .collect();
    let exe = dir.join(&p.name);
    fc.build(&sources, &exe, &[]).map_err(|e| e.to_string())?;
    let input = p.stdin.as_ref().map(|f| std::fs::read(f).unwrap());
    let mut cmd = Command::new(&exe);
    cmd.args(&p.args).current_dir(dir);
    let out = run_limited(&mut cmd, RUN_LIMIT, input.as_deref()).map_err(|e| e.to_string())?;
    if !out.success() {
        return Err(format!("exit {}: {}", out.status, out.stderr));
    }
    Ok(out.stdout)
}

#[test]
fn the_manifest_has_the_sets_the_corpus_promises() {
    let all = load_manifest(&manifest()).unwrap();
    let count = |set: &str| all.iter().filter(|p| p.set.as_deref() == Some(set)).count();
    assert!(count("tune") >= 10, "the ten samples at least");
    assert!(
        count("check") >= 20,
        "the check set has at least 20 programs"
    );
    assert!(count("holdout") >= 12, "the twelve holdout programs");
    assert_eq!(
        count("real"),
        0,
        "real programs are fetched, never committed"
    );
    assert!(all.len() >= 52);
}

#[test]
fn every_corpus_program_compiles_runs_and_passes_its_self_check() {
    if Compiler::find(None, &[]).is_err() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let programs = load_manifest(&manifest()).unwrap();
    for p in &programs {
        // The samples have their own test (tests/samples.rs) with checksums.
        if p.main_source()
            .starts_with(Path::new(env!("CARGO_MANIFEST_DIR")).join("fortran-samples"))
        {
            continue;
        }
        match build_and_run(p, dir.path()) {
            Ok(out) => {
                let last = out.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
                let words: Vec<&str> = last.split_whitespace().collect();
                if words.first() != Some(&"SELFCHECK") || words.last() != Some(&"PASS") {
                    failures.push(format!(
                        "{}: last line {last:?}, want \"SELFCHECK <PROGRAM> PASS\"",
                        p.name
                    ));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", p.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

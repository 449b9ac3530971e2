//! GO TO loops counted through their induction variable, and loop exits derived from the
//! other counters (analyzer::induction): which loops qualify, that the copy counts them once
//! per entry, and that a step found zero at run time raises the flag that makes the analyzer
//! count without induction. That the counts are right is `gcov_equality`'s job (the fixture
//! is one of its programs).

use analyzer::induction::{Exit, Step};
use analyzer::{dynamic, instrument, AnalyzeOptions, RunSpec};
use harness::Compiler;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/induction.f")
}

#[test]
fn qualifying_loops_are_found_and_others_are_not() {
    let prog = analyzer::load(&[fixture()], &AnalyzeOptions::default()).unwrap();
    let head_label = |l: &analyzer::induction::InductionLoop| {
        // The head: the first executable statement after the one it is entered from.
        let k = (l.entered_after + 1..prog.stmts.len())
            .find(|&k| prog.stmts[k].executable)
            .unwrap();
        prog.statement(k).label
    };
    let found: Vec<(Option<u32>, &str, &Step, bool)> = prog
        .loops
        .induction
        .iter()
        .map(|l| (head_label(l), l.var.as_str(), &l.step, l.counts_head))
        .collect();
    let name = |n: &str, negated| Step::Name {
        name: n.into(),
        negated,
    };
    assert_eq!(
        found,
        vec![
            (Some(10), "K", &name("I", false), true),
            (Some(30), "J", &Step::Literal(-1), true),
            (Some(50), "K", &Step::Literal(1), false),
            (Some(65), "K", &name("NSTEP", false), false),
            (Some(70), "K", &name("ISTEP", false), false),
        ],
        "loops 85 (step H, an exit on data), 90 (a CALL), 110 (a label jumped to inside) and \
         140 (K assigned twice) must not qualify"
    );
    // The insertion sort leaves at both IFs before the step; the mandel-like loop before the
    // step and by falling through its back edge after it.
    let shell = &prog.loops.induction[1];
    assert_eq!(shell.exits.len(), 2);
    assert!(shell
        .exits
        .iter()
        .all(|&(e, after)| matches!(e, Exit::Consequent(_)) && !after));
    let mandel = &prog.loops.induction[2];
    assert!(matches!(mandel.exits[0], (Exit::Consequent(_), false)));
    assert!(matches!(mandel.exits[1], (Exit::FallThrough(_), true)));
    // Of the loops counted per iteration, the shell sort pass (85) and loop 140 have one
    // exit each whose count is derived: the one on KEY data in 85, 140's only exit. Both
    // read variables, so the simulated predictor watches both (rule 15).
    let exit_line = |probe: usize| match prog.probes[probe] {
        analyzer::analysis::Probe::Consequent(s) => prog.statement(s).text.clone(),
        p => panic!("a derived exit is a consequent, not {p:?}"),
    };
    let derived: Vec<(String, bool)> = prog
        .loops
        .derived_exits
        .iter()
        .map(|d| (exit_line(d.probe), d.watched_by_predictor))
        .collect();
    assert_eq!(derived.len(), 2, "{derived:?}");
    assert!(
        derived[0].0.contains("KEY(J-H).LE.M") && derived[0].1,
        "{derived:?}"
    );
    assert!(
        derived[1].0.contains("K.GT.40") && derived[1].1,
        "{derived:?}"
    );
}

#[test]
fn copy_counts_once_per_entry_and_flags_a_zero_step() {
    let prog = analyzer::load(&[fixture()], &AnalyzeOptions::default()).unwrap();
    let compiler = Compiler::find(None, &["-O0".to_string()]).expect("gfortran");
    let dir = tempfile::tempdir().unwrap();
    let inst = instrument::instrument_counters(&prog, 72, false, true);
    let text: String = inst.files.iter().map(|(_, t)| t.as_str()).collect();
    // No per-iteration increment of the loops' probes is left: each is added to at exits.
    for l in &prog.loops.induction {
        let c = format!("{}({})", inst.names.counters, l.probe + 1);
        let increments = text.matches(&format!("{c}={c}+1\n")).count();
        assert_eq!(increments, 0, "probe {} still incremented", l.probe);
        assert_eq!(text.matches(&format!("{c}={c}+(")).count(), l.exits.len());
    }
    let exe = dynamic::build_instrumented(&inst, dir.path(), &compiler).unwrap();
    let counts = dir.path().join("counts.txt");
    let out =
        dynamic::run_program(&exe, &RunSpec::default(), &[("OPCOST_COUNTS", &counts)]).unwrap();
    assert!(out.success(), "{}", out.stderr);
    let text = std::fs::read_to_string(&counts).unwrap();
    let flag = inst.zero_step_flag.expect("a flag slot for named steps");
    assert!(
        dynamic::slot_raised(&text, flag),
        "ISTEP is zero: the flag must be raised"
    );
    // Counted through a zero step, loop 70's back edges came out negative: the counts are
    // unusable, which is why the flag exists.
    assert!(dynamic::read_counters(&text, inst.counters).is_err());
    // The analysis then counts without induction, and agrees with gcov (gcov_equality).
    let plain = instrument::instrument_counters(&prog, 72, false, false);
    assert_eq!(plain.zero_step_flag, None);
    assert!(!plain.files[0].1.contains(&inst.names.induction));
}

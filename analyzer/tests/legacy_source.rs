//! Real Fortran that broke the dynamic analysis (issue 23, "every program analyzed"): each
//! fixture shows one class, and is analyzed through real gfortran with its counts checked
//! against gcov's.

use analyzer::{gcov, Analysis, AnalyzeOptions, RunSpec};
use harness::Compiler;
use model::Param;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The dynamic analysis of fixture `name` (a path under tests/fixtures), its counts agreeing
/// with gcov's.
fn analyzed(name: &str, opts: &AnalyzeOptions) -> Analysis {
    let compiler =
        Compiler::find(None, &["-O0".to_string()]).expect("gfortran (apt-get install gfortran)");
    let run = RunSpec {
        time_limit: Duration::from_secs(60),
        ..RunSpec::default()
    };
    let (a, chk) = gcov::check(&[fixture(name)], opts, &compiler, &run)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    for m in &chk.mismatches {
        eprintln!(
            "  {}:{} {}: analyzer {} gcov {}",
            m.file, m.line, m.what, m.analyzer, m.gcov
        );
    }
    assert!(
        chk.mismatches.is_empty(),
        "{name}: counts differ from gcov's"
    );
    assert!(chk.lines_equal > 0, "{name}: nothing compared");
    a
}

fn dynamic(a: &Analysis, p: Param) -> u64 {
    a.stats.total.dynamic_counts.as_ref().unwrap().get(p)
}

/// A labelled logical IF in TAB form whose label moves to a counter: the copy once cut it at
/// the wrong column (`IF (J.gt.200) GO  THEN` / `TO 53`), as if the TAB were one column.
#[test]
fn tab_form_source_is_instrumented_in_standard_columns() {
    let a = analyzed("tab_form.f", &AnalyzeOptions::default());
    // The DO loop continued by TAB + digit: 10 iterations, 5 of them adding to L.
    assert_eq!(dynamic(&a, Param::LOOV), 10);
    let consequents: Vec<u64> = a
        .stats
        .loops
        .iter()
        .flat_map(|l| l.consequent_runs.iter().map(|r| r.1))
        .collect();
    assert!(consequents.contains(&5), "{consequents:?}");
}

/// The first executable statement is a PRINT whose format, a character constant, is continued:
/// the counters' INTEGER*8 and COMMON once went after it ("Unexpected data declaration
/// statement"). Also FORMAT before IMPLICIT, DATA and statement functions, ENTRY.
#[test]
fn declarations_go_before_the_first_executable_statement() {
    let a = analyzed("decl_order.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    assert_eq!(dynamic(&a, Param::LOOV), 6);
    assert!(a.stats.units.iter().any(|u| u.name == "ACCUM"));
}

/// A first executable statement the parser cannot read still gets the declarations before it.
#[test]
fn declarations_go_before_an_unparsed_executable_statement() {
    let a = analyzed("beyond77/array_constructor.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 1);
    assert_eq!(dynamic(&a, Param::LOOV), 3);
}

/// Card images with sequence numbers in columns 73-80: the copy once wrapped them onto
/// continuation lines, where they became code.
#[test]
fn sequence_numbers_past_column_72_stay_ignored() {
    let a = analyzed("sequence_numbers.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    assert_eq!(dynamic(&a, Param::LOOV), 8);
}

/// A COMPLEX array passed where a REAL array is declared, one routine called with arrays of
/// different types: gfortran >= 10 refuses it; the analysis retries with
/// -fallow-argument-mismatch (for the copy and the gcov build) and records the flag.
#[test]
fn argument_mismatches_are_built_with_the_legacy_flag() {
    let a = analyzed("arg_mismatch.f", &AnalyzeOptions::default());
    assert_eq!(a.added_flags, vec!["-fallow-argument-mismatch"]);
    assert_eq!(a.stats.program_flags, a.added_flags);
    // Main 8 + 16, RSCALE 16, RSUM and WCOPY twice 16 each.
    assert_eq!(dynamic(&a, Param::LOOV), 8 + 16 + 16 + 2 * 16 + 2 * 16);
    // Flags given up front are used and recorded; nothing is added.
    let given = AnalyzeOptions {
        program_flags: vec!["-std=legacy".into()],
        ..AnalyzeOptions::default()
    };
    let a = analyzed("arg_mismatch.f", &given);
    assert!(a.added_flags.is_empty());
    assert_eq!(a.stats.program_flags, vec!["-std=legacy"]);
}

/// Any other compile error stays the user's: no retry hides it.
#[test]
fn other_compile_errors_are_not_retried() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("broken.f");
    std::fs::write(&f, "      PROGRAM P\n      X = Y(\n      END\n").unwrap();
    let compiler = Compiler::find(None, &[]).expect("gfortran");
    let e = analyzer::analyze_dynamic(
        &[f],
        &AnalyzeOptions::default(),
        &compiler,
        &RunSpec::default(),
    )
    .unwrap_err();
    assert!(matches!(e, analyzer::AnalyzeError::Compile(_)), "{e}");
}

/// A unit's set-up in its entry block at later lines (assumed-length CHARACTER dummies, an
/// implicitly typed ASSIGN variable): gcov counted the lines it touches with the entry block's
/// runs instead of or besides their own (lexer.f, oldstyle.f of the check corpus).
#[test]
fn entry_block_set_up_lines_are_checked_within_bounds() {
    let a = analyzed("entry_setup.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    assert_eq!(dynamic(&a, Param::LOOV), 5);
}

/// Two DO loops ending on one statement, the inner one with a run-time step: gcov's DO line
/// counted neither entries nor entries + iterations, its back edge iterations - entries.
#[test]
fn a_bottom_tested_do_loop_is_checked_by_its_back_edge() {
    let a = analyzed("shared_step.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    // 200, 13 and 199 iterations of the unit-step loops.
    let inner: u64 = (2..=14u64).map(|i| (200 - i * i) / i + 1).sum();
    assert_eq!(dynamic(&a, Param::LOOV), 200 + 13 + 199);
    assert_eq!(dynamic(&a, Param::LOOX), inner);
}

/// I/O lists with implied DO loops (the BLAS testers read and write their parameters so):
/// gcov counted each loop's iterations on the statement's line.
#[test]
fn io_statements_with_implied_do_lists_are_checked_from_below() {
    let a = analyzed("implied_do_io.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    assert_eq!(dynamic(&a, Param::LOOV), 4);
}

/// A unit's RETURNs share one return block, which gcc placed on a RETURN that never ran:
/// gcov counted the other RETURN's runs there (LAPACK's DGTTRS).
#[test]
fn a_return_line_may_count_the_units_other_returns() {
    let a = analyzed("return_block.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    // 20 calls of SOLVE, 5 of them returning at once; WORK called once for the 5 with one
    // right-hand side, once per right-hand side (25 in all) for the other 10.
    assert_eq!(dynamic(&a, Param::PROC), 20 + 5 + 25);
}

/// A DO loop with a constant non-unit step, left early by GO TO and RETURN and entered with
/// no iteration at times: gcov's DO line counted its entries plus the iterations that reached
/// its end (LAPACK's DLASQ4).
#[test]
fn a_do_loop_left_early_is_checked_by_its_branches() {
    let a = analyzed("early_exit_step.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    assert_eq!(dynamic(&a, Param::LOOV), 40 + 30);
}

/// A continued WRITE right after an END IF closing a loop: gcov counted its last line twice as
/// often as it ran (the join's location), its first line as often (LAPACK's eigenvalue tester).
#[test]
fn a_continued_statement_is_confirmed_by_any_of_its_lines() {
    let a = analyzed("continued_after_join.f", &AnalyzeOptions::default());
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    assert_eq!(dynamic(&a, Param::LOOV), 5 + 5 * 4);
}

/// BOZ constants assigned as integers: gfortran >= 10 refuses them; the analysis builds the
/// program with -fallow-invalid-boz, and parses the constants.
#[test]
fn boz_constants_are_built_with_the_legacy_flag_and_parsed() {
    let a = analyzed("boz_constant.f", &AnalyzeOptions::default());
    assert_eq!(a.added_flags, vec!["-fallow-invalid-boz"]);
    assert_eq!(a.stats.skipped_statements, 0, "{:?}", a.diagnostics);
    assert_eq!(dynamic(&a, Param::LOOV), 300);
}

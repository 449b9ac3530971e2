//! Pathological input (issue 25): deep nesting of function references, array elements and
//! parentheses, a 16,000-term sum and 50,000 continuation lines must each give a result or a
//! located error quickly, never a hang or a stack overflow. Each case runs on a thread with
//! the test harness's 2 MiB stack and again with the 8 MiB of a main thread.

use analyzer::parse::{MAX_NESTING, MAX_TREE_DEPTH};
use analyzer::{analysis, instrument, source, Severity};
use std::time::{Duration, Instant};

/// Generous: the parser is linear, these take milliseconds.
const HANG: Duration = Duration::from_secs(20);

/// Analyzes `text` (and instruments it) on a thread with `stack` bytes; returns the error
/// messages and how long it took.
fn analyze_on(stack: usize, text: String) -> (Vec<String>, Duration) {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let t = Instant::now();
            let prog = analysis::analyze(vec![source::split("deep.f", 0, &text, 1_000_000)]);
            let inst = instrument::instrument_counters(&prog, 72, true, true);
            assert_eq!(inst.files.len(), 1);
            let errors = prog
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| d.to_string())
                .collect::<Vec<_>>();
            assert_eq!(errors.len(), prog.skipped);
            drop(prog);
            (errors, t.elapsed())
        })
        .expect("spawn")
        .join()
        .expect("no panic")
}

fn program(statement: &str) -> String {
    format!("      PROGRAM DEEP\n      REAL A(10)\n{statement}\n      PRINT *, Y\n      END\n")
}

/// `Y = e`, with continuation lines of 60 characters.
fn assignment(e: &str) -> String {
    let text = format!("Y = {e}");
    let chunks: Vec<String> = text
        .as_bytes()
        .chunks(60)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    let mut out = format!("      {}", chunks[0]);
    for c in &chunks[1..] {
        out.push_str(&format!("\n     &{c}"));
    }
    out
}

fn nested(open: &str, depth: usize) -> String {
    format!("{}1.0{}", open.repeat(depth), ")".repeat(depth))
}

/// Runs `statement` on both stack sizes: accepted (no errors) or refused by the depth limit.
fn check(statement: &str, accepted: bool) {
    for stack in [2 << 20, 8 << 20] {
        let (errors, took) = analyze_on(stack, program(statement));
        assert!(took < HANG, "{took:?}");
        if accepted {
            assert!(errors.is_empty(), "{errors:?}");
        } else {
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert!(errors[0].starts_with("deep.f:"), "{}", errors[0]);
            assert!(errors[0].contains("too deeply"), "{}", errors[0]);
        }
    }
}

#[test]
fn nesting_up_to_the_limit_parses_and_deeper_is_refused() {
    // Each level is one reference or parenthesis: the limit counts them all.
    let limit = MAX_NESTING;
    for open in ["ABS(", "A(", "("] {
        check(&assignment(&nested(open, limit)), true);
        for depth in [limit + 1, 1_000] {
            check(&assignment(&nested(open, depth)), false);
        }
    }
    // Used to take 2^depth steps: 1,000 levels of nested calls are refused at once.
    let (errors, took) = analyze_on(2 << 20, program(&assignment(&nested("SQRT(", 1000))));
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(errors.len(), 1);
}

#[test]
fn long_sums_up_to_the_limit_parse_and_longer_are_refused() {
    let terms = |n: usize| vec!["X"; n].join("+");
    check(&assignment(&terms(MAX_TREE_DEPTH as usize)), true);
    check(&assignment(&terms(16_000)), false);
    // The deepest walk allowed: the deepest nesting around the longest sum it leaves room for.
    let inner = terms(MAX_TREE_DEPTH as usize - MAX_NESTING);
    let e = format!(
        "{}{inner}{}",
        "ABS(".repeat(MAX_NESTING),
        ")".repeat(MAX_NESTING)
    );
    check(&assignment(&e), true);
}

#[test]
fn fifty_thousand_continuation_lines_are_refused_not_a_crash() {
    let mut s = String::from("      Y = X");
    for _ in 0..50_000 {
        s.push_str("\n     & + X");
    }
    check(&s, false);
}

#[test]
fn deep_logical_ifs_and_signs_are_refused() {
    check(
        &format!("      {}Y = 1", "IF (Y .GT. 0) ".repeat(500)),
        false,
    );
    check(&format!("      Y = {}X", "-".repeat(5_000)), false);
    check(&format!("      Y = X{}", "**X".repeat(5_000)), false);
}

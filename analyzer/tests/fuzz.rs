//! Fuzzing the reader, parser and analysis with proptest: random bytes, random token soup,
//! and real statements (from the fixtures and fortran-samples) with random mutations. The
//! property is "no panic, and every skipped statement has a located diagnostic". The number
//! of cases per property is PROPTEST_CASES (default 256 here; the README gives a long run).

use analyzer::{analysis, instrument, parse, source};
use proptest::prelude::*;
use std::path::Path;

fn corpus_lines() -> &'static [String] {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LINES.get_or_init(read_corpus_lines)
}

fn read_corpus_lines() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lines = Vec::new();
    for dir in [root.join("tests/fixtures"), root.join("../fortran-samples")] {
        let Ok(rd) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in rd.flatten() {
            if let Ok(t) = std::fs::read_to_string(e.path()) {
                lines.extend(
                    t.lines()
                        .filter(|l| !source::is_comment(l))
                        .map(str::to_string),
                );
            }
        }
    }
    lines
}

fn analyze_text(text: &str) {
    let src = source::split("fuzz.f", 0, text, 72);
    let prog = analysis::analyze(vec![src]);
    let errors = prog
        .diagnostics
        .iter()
        .filter(|d| d.severity == analyzer::Severity::Error)
        .count();
    assert_eq!(errors, prog.skipped, "each skipped statement is reported");
    for d in &prog.diagnostics {
        if d.severity == analyzer::Severity::Error {
            assert!(d.line >= 1 && d.column >= 1, "{d}");
        }
    }
    // The instrumentation must cope with whatever the analysis accepted.
    let inst = instrument::instrument_counters(&prog, 72, true, true);
    assert_eq!(inst.files.len(), 1);
}

const TOKENS: &[&str] = &[
    "      ",
    "     &",
    "   10 ",
    "C",
    "\n",
    "\t",
    "X",
    "A(I,J)",
    "=",
    "+",
    "-",
    "*",
    "**",
    "/",
    "//",
    "(",
    ")",
    ",",
    ":",
    "'",
    "\"",
    ".EQ.",
    ".AND.",
    ".NOT.",
    ".TRUE.",
    "1",
    "1.5E3",
    "2.D0",
    "IF",
    "THEN",
    "ELSE",
    "END",
    "ENDIF",
    "DO",
    "WHILE",
    "GOTO",
    "GO TO",
    "CALL",
    "FUNCTION",
    "SUBROUTINE",
    "PROGRAM",
    "REAL*8",
    "INTEGER",
    "CHARACTER*(*)",
    "COMMON",
    "/B/",
    "PARAMETER",
    "IMPLICIT",
    "NONE",
    "DATA",
    "FORMAT",
    "READ",
    "WRITE",
    "STOP",
    "RETURN",
    "ASSIGN",
    "TO",
    "CONTINUE",
    "C$OPCOST REGION r",
    "C$OPCOST END REGION",
    "!",
    "é",
];

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        analyze_text(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup_never_panics(toks in proptest::collection::vec(0..TOKENS.len(), 0..120)) {
        let text: String = toks.iter().map(|&k| TOKENS[k]).collect();
        analyze_text(&text);
        let _ = parse::statement(&text.replace([' ', '\n'], "").to_ascii_uppercase());
    }

    #[test]
    fn mutated_real_statements_never_panic(
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..30),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, 0..TOKENS.len()), 0..8),
    ) {
        let lines = corpus_lines();
        prop_assume!(!lines.is_empty());
        let mut chosen: Vec<String> = picks.iter().map(|i| i.get(lines).clone()).collect();
        for (at, kind, tok) in edits {
            let line = at.get(&chosen).clone();
            let k = chosen.iter().position(|l| *l == line).unwrap_or(0);
            let l = &mut chosen[k];
            let pos = (at.index(l.len() + 1)).min(l.len());
            let pos = (0..=pos).rev().find(|&p| l.is_char_boundary(p)).unwrap_or(0);
            match kind {
                0 => l.insert_str(pos, TOKENS[tok]),
                1 => { l.truncate(pos); }
                _ => { if pos < l.len() && l.is_char_boundary(pos + 1) { l.remove(pos); } }
            }
        }
        analyze_text(&(chosen.join("\n") + "\n      END\n"));
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for text in [
        format!("      X = {}1{}\n", "(".repeat(5000), ")".repeat(5000)),
        format!("      X = {}Y\n", "-".repeat(5000)),
        format!("      L = {}M\n", ".NOT.".repeat(3000)),
        format!("      {}X = 1\n", "IF (L) ".repeat(3000)),
        format!("      X = Y{}\n", "**Y".repeat(5000)),
    ] {
        let prog = analysis::analyze(vec![source::split("deep.f", 0, &text, 100_000)]);
        assert_eq!(prog.skipped, 1);
    }
}

#[test]
fn recursive_statement_functions_do_not_blow_up() {
    // Found by fuzzing: `F(A) = F(A) + F(A) + F(A)` doubled memory at every level.
    let text = "      F(A) = F(A) + F(A) + F(A) + F(A)\n      G(B) = F(B) * F(B) + G(B)\n      X = G(Y) + F(Y)\n      END\n";
    let prog = analysis::analyze(vec![source::split("rec.f", 0, text, 72)]);
    assert_eq!(prog.skipped, 0);
    let total: u64 = prog
        .stmts
        .iter()
        .map(|s| s.static_counts.total_characterized())
        .sum();
    assert!(total < 1000, "{total}");
}

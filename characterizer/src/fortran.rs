//! Generates the Fortran 77 test program: one subroutine per experiment, each shaped like Saavedra-Barrera's
//! 004 figure 4.4 (an IF/GO TO loop around the body, calibrated until one observation lasts
//! TMAX, then REPEAT observations), plus a separately compiled support file (initial values,
//! range guards, empty callees) the optimizer cannot see into (Saavedra-Barrera's section 4.3).

use crate::experiments::{Experiment, Line};
use std::fmt::Write;
use std::ops::Range;

/// Fixed-form writer: labels in columns 1-5, statements from column 7, continuation lines
/// (`&` in column 6) past column 72.
#[derive(Default)]
pub struct FixedForm {
    pub text: String,
    pub lines: usize,
}

impl FixedForm {
    pub fn stmt(&mut self, label: Option<u32>, text: &str) {
        let lab = label.map(|l| l.to_string()).unwrap_or_default();
        let mut rest = text;
        let mut first = true;
        loop {
            let room = 66;
            let (chunk, tail) = if rest.len() > room {
                // Break after a comma or blank so names stay whole.
                let cut = rest[..room]
                    .rfind([',', ' '])
                    .map(|i| i + 1)
                    .unwrap_or(room);
                rest.split_at(cut)
            } else {
                (rest, "")
            };
            if first {
                let _ = writeln!(self.text, "{lab:<5} {chunk}");
            } else {
                let _ = writeln!(self.text, "     &{chunk}");
            }
            self.lines += 1;
            first = false;
            rest = tail;
            if rest.is_empty() {
                break;
            }
        }
    }
    pub fn s(&mut self, text: &str) {
        self.stmt(None, text);
    }
    pub fn comment(&mut self, text: &str) {
        let _ = writeln!(self.text, "C     {text}");
        self.lines += 1;
    }
}

fn names(prefix: &str, n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("{prefix}{k}")).collect()
}

/// Declarations of the operand pools every test subroutine shares.
fn declarations(w: &mut FixedForm) {
    let n = crate::experiments::CHAINS;
    let list = |ps: &[&str], extra: &[&str]| -> String {
        let mut v: Vec<String> = ps.iter().flat_map(|p| names(p, n)).collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v.join(", ")
    };
    w.s(&format!(
        "REAL {}",
        list(
            &["X", "A", "B"],
            &["Z", "RA1(64)", "RA2(8,8)", "RA3(4,4,4)"]
        )
    ));
    w.s(&format!(
        "DOUBLE PRECISION {}",
        list(&["DX", "DA", "DB"], &["DZ"])
    ));
    w.s(&format!(
        "INTEGER {}",
        list(
            &["IX", "IA", "IB", "K"],
            &["IZ", "J", "MT", "IONE", "NA1(64)"]
        )
    ));
    w.s(&format!("LOGICAL {}", list(&["L"], &["LF"])));
    w.s(&format!("REAL {}", list(&["GX", "GA", "GB"], &["GZ"])));
    w.s(&format!(
        "DOUBLE PRECISION {}",
        list(&["GDX", "GDA", "GDB"], &["GDZ"])
    ));
    w.s(&format!(
        "INTEGER {}",
        list(&["GIX", "GIA", "GIB"], &["GIZ"])
    ));
    w.s(&format!("LOGICAL {}", list(&["GL"], &["GLF"])));
    w.s(&format!(
        "COMMON /OPCR/ {}",
        list(&["GX", "GA", "GB"], &["GZ"])
    ));
    w.s(&format!(
        "COMMON /OPCD/ {}",
        list(&["GDX", "GDA", "GDB"], &["GDZ"])
    ));
    w.s(&format!(
        "COMMON /OPCI/ {}",
        list(&["GIX", "GIA", "GIB"], &["GIZ"])
    ));
    w.s(&format!("COMMON /OPCL/ {}", list(&["GL"], &["GLF"])));
    w.s("REAL RVAL");
    w.s("DOUBLE PRECISION DVAL");
    w.s("INTEGER IVAL, NEWLIM");
    w.s("LOGICAL LVAL");
    w.s("EXTERNAL RVAL, DVAL, IVAL, LVAL, NEWLIM");
    w.s("REAL OPCFRS");
    w.s("DOUBLE PRECISION OPCFRD");
    w.s("EXTERNAL OPCFRS, OPCFRD");
}

/// Which guard routine checks an operand, by its pool (None: integers and logicals cannot go
/// to Inf or denormal).
fn guard_for(name: &str) -> Option<&'static str> {
    let base = name.trim_start_matches('G');
    if base.starts_with("DX") || base.starts_with("DA") || base.starts_with("DB") || base == "DZ" {
        Some("CHKD")
    } else if base.starts_with('X') || base.starts_with('A') || base.starts_with('B') || base == "Z"
    {
        Some("CHKR")
    } else {
        None
    }
}

/// Write experiment `e`'s subroutine; returns the lines of one pass (the body and the loop
/// control around it).
fn test_subroutine(w: &mut FixedForm, index: usize, e: &Experiment) -> Range<usize> {
    w.comment(&format!("Experiment {}: {}", e.name, e.purpose));
    w.s(&format!("SUBROUTINE TE{index:03}(TMAX, NREP, LIMIT0, PA1)"));
    w.s("IMPLICIT NONE");
    w.s("DOUBLE PRECISION TMAX");
    w.s("INTEGER NREP, LIMIT0");
    w.comment("A dummy array, for the tests of rule 16 (DUMA).");
    w.s("REAL PA1(64)");
    w.s("DOUBLE PRECISION T0, T1");
    w.s("INTEGER NCOUNT, LIMIT, KOBS");
    declarations(w);
    for d in &e.locals {
        w.s(d);
    }
    w.s("CALL FILLR(RA1, 64, RVAL(1.0))");
    w.s("CALL FILLR(RA2, 64, RVAL(1.0))");
    w.s("CALL FILLR(RA3, 64, RVAL(1.0))");
    w.s("CALL FILLR(PA1, 64, RVAL(1.0))");
    w.s("CALL FILLI(NA1, 64, IVAL(2))");
    for (name, value) in &e.inits {
        w.s(&format!("{name} = {value}"));
    }
    w.s("LIMIT = LIMIT0");
    w.s("KOBS = 0");
    w.stmt(Some(1), "NCOUNT = 1");
    w.s("CALL CPU_TIME(T0)");
    let pass_start = w.lines + 1;
    w.stmt(Some(2), "IF (NCOUNT .GT. LIMIT) GO TO 3");
    for stmt in &e.body {
        for Line { label, text } in &stmt.lines {
            w.stmt(*label, text);
        }
    }
    w.s("NCOUNT = NCOUNT + 1");
    w.s("GO TO 2");
    let pass = pass_start..w.lines + 1;
    w.stmt(Some(3), "CALL CPU_TIME(T1)");
    w.comment("Calibrate until one observation lasts TMAX (Saavedra-Barrera's fig. 4.4).");
    w.s("IF (KOBS .EQ. 0 .AND. T1 - T0 .LT. TMAX .AND. LIMIT .LT. 2000000000) THEN");
    w.s("LIMIT = NEWLIM(LIMIT, T1 - T0, TMAX)");
    w.s("GO TO 1");
    w.s("END IF");
    w.s("IF (KOBS .GT. 0) WRITE (*,*) 'OBS', LIMIT, T1 - T0");
    w.s("KOBS = KOBS + 1");
    w.s("IF (KOBS .LE. NREP) GO TO 1");
    let mut checked: Vec<&str> = Vec::new();
    for (name, _) in &e.inits {
        if let Some(g) = guard_for(name) {
            if !checked.contains(&name.as_str()) {
                w.s(&format!("CALL {g}({name}, '{name}')"));
                checked.push(name);
            }
        }
    }
    w.s("CALL CHKRA(RA2, 64, 'RA2')");
    w.s("CALL SNKOUT");
    w.s("END");
    pass
}

/// The generated test program and where each experiment's subroutine lies in it (to name the
/// experiment when the compiler rejects a line).
pub struct TestProgram {
    pub tests_source: String,
    pub support_source: String,
    /// 1-based line ranges of each experiment's subroutine, by experiment index.
    pub line_ranges: Vec<Range<usize>>,
    /// 1-based line ranges of one pass of each experiment's loop (its body and the loop
    /// control), by experiment index.
    pub pass_ranges: Vec<Range<usize>>,
}

impl TestProgram {
    /// The experiment whose subroutine holds `line` of the tests source.
    pub fn experiment_at_line(&self, line: usize) -> Option<usize> {
        self.line_ranges.iter().position(|r| r.contains(&line))
    }
}

/// Generate the program for `experiments`. Experiment `i` is run by feeding `i + 1` to the
/// program's standard input; `0` measures the clock.
pub fn generate(experiments: &[Experiment]) -> TestProgram {
    let mut w = FixedForm::default();
    w.comment("Generated by opcost characterize. Do not edit.");
    w.s("PROGRAM OPCTST");
    w.s("IMPLICIT NONE");
    w.s("INTEGER NEXP, NREP, LIMIT0");
    w.s("DOUBLE PRECISION TMAX");
    w.s("REAL PA(64)");
    w.s("READ (*,*) NEXP, TMAX, NREP, LIMIT0");
    w.s("IF (NEXP .EQ. 0) CALL CLOCKT");
    for i in 0..experiments.len() {
        w.s(&format!(
            "IF (NEXP .EQ. {}) CALL TE{:03}(TMAX, NREP, LIMIT0, PA)",
            i + 1,
            i + 1
        ));
    }
    w.s("END");
    clock_test(&mut w);
    let mut ranges = Vec::new();
    let mut passes = Vec::new();
    for (i, e) in experiments.iter().enumerate() {
        let start = w.lines + 1;
        passes.push(test_subroutine(&mut w, i + 1, e));
        ranges.push(start..w.lines + 1);
    }
    returning_functions(&mut w);
    TestProgram {
        tests_source: w.text,
        support_source: support(),
        line_ranges: ranges,
        pass_ranges: passes,
    }
}

/// The functions of rule 14b's tests (QFRS, QFRD), which return their argument: in the tests'
/// own file, as a program's functions are in its, so an optimizer inlines them the same way.
fn returning_functions(w: &mut FixedForm) {
    for (ty, f) in [("REAL", "OPCFRS"), ("DOUBLE PRECISION", "OPCFRD")] {
        w.s(&format!("{ty} FUNCTION {f}(V)"));
        w.s(&format!("{ty} V"));
        w.s(&format!("{f} = V"));
        w.s("END");
    }
}

/// Clock resolution (smallest nonzero step of CPU_TIME) and call overhead (Saavedra-Barrera's table 4.8).
fn clock_test(w: &mut FixedForm) {
    w.comment("Clock resolution and call overhead (Saavedra-Barrera's table 4.8).");
    w.s("SUBROUTINE CLOCKT");
    w.s("IMPLICIT NONE");
    w.s("DOUBLE PRECISION T0, T1, DMIN");
    w.s("INTEGER K, N");
    w.s("DMIN = 1.0D9");
    w.s("DO 10 K = 1, 50");
    w.s("CALL CPU_TIME(T0)");
    w.stmt(Some(5), "CALL CPU_TIME(T1)");
    w.s("IF (T1 .EQ. T0) GO TO 5");
    w.s("IF (T1 - T0 .LT. DMIN) DMIN = T1 - T0");
    w.stmt(Some(10), "CONTINUE");
    w.s("N = 200000");
    w.s("CALL CPU_TIME(T0)");
    w.s("DO 20 K = 1, N");
    w.s("CALL CPU_TIME(T1)");
    w.stmt(Some(20), "CONTINUE");
    w.s("WRITE (*,*) 'CLOCK', DMIN, (T1 - T0) / N");
    w.s("END");
}

/// The separately compiled support routines.
fn support() -> String {
    let mut w = FixedForm::default();
    w.comment("Generated by opcost characterize: compiled apart from the tests so the");
    w.comment("optimizer cannot see initial values or callee bodies (Saavedra-Barrera sec. 4.3).");
    for (ty, f) in [
        ("REAL", "RVAL"),
        ("DOUBLE PRECISION", "DVAL"),
        ("INTEGER", "IVAL"),
        ("LOGICAL", "LVAL"),
    ] {
        w.s(&format!("{ty} FUNCTION {f}(V)"));
        w.s(&format!("{ty} V"));
        w.s(&format!("{f} = V"));
        w.s("END");
    }
    w.s("SUBROUTINE FILLR(A, N, V)");
    w.s("INTEGER N, I");
    w.s("REAL A(N), V");
    w.s("DO 1 I = 1, N");
    w.stmt(Some(1), "A(I) = V");
    w.s("END");
    w.comment("Random signs for the branch-miss tests: A(I) = +1 or -1, Park-Miller chain.");
    w.s("INTEGER FUNCTION NSIGNS(A, N)");
    w.s("INTEGER N, I, A(N)");
    w.s("INTEGER*8 S");
    w.s("S = 4711");
    w.s("DO 1 I = 1, N");
    w.s("S = MOD(S * 16807_8, 2147483647_8)");
    w.stmt(Some(1), "A(I) = 2 * INT(MOD(S / 1024_8, 2_8)) - 1");
    w.s("NSIGNS = 0");
    w.s("END");
    w.comment("Random letters for SCNM's test (rule 23b): S(1:N) from 'QABC', the same");
    w.comment("Park-Miller chain (the characterizer counts its Qs the same way).");
    w.s("INTEGER FUNCTION NLETRS(S, N)");
    w.s("INTEGER N, I");
    w.s("CHARACTER*(*) S");
    w.s("CHARACTER*4 AL");
    w.s("INTEGER*8 R");
    w.s("AL = 'QABC'");
    w.s("R = 4711");
    w.s("DO 1 I = 1, N");
    w.s("R = MOD(R * 16807_8, 2147483647_8)");
    w.stmt(
        Some(1),
        "S(I:I) = AL(MOD(R / 1024_8, 4_8) + 1:MOD(R / 1024_8, 4_8) + 1)",
    );
    w.s("NLETRS = 0");
    w.s("END");
    w.s("SUBROUTINE FILLI(A, N, V)");
    w.s("INTEGER N, I, A(N), V");
    w.s("DO 1 I = 1, N");
    w.stmt(Some(1), "A(I) = V");
    w.s("END");
    w.comment("Next loop count: aim 20 % past TMAX (Saavedra-Barrera sec. 4.5.1).");
    w.s("INTEGER FUNCTION NEWLIM(LIMIT, T, TMAX)");
    w.s("INTEGER LIMIT");
    w.s("DOUBLE PRECISION T, TMAX, F");
    w.s("IF (T .LE. 0.0D0) THEN");
    w.s("F = 10.0D0");
    w.s("ELSE");
    w.s("F = 1.2D0 * TMAX / T");
    w.s("IF (F .GT. 100.0D0) F = 100.0D0");
    w.s("IF (F .LT. 1.1D0) F = 1.1D0");
    w.s("END IF");
    w.s("IF (DBLE(LIMIT) * F .GT. 2.0D9) THEN");
    w.s("NEWLIM = 2000000000");
    w.s("ELSE");
    w.s("NEWLIM = INT(DBLE(LIMIT) * F)");
    w.s("END IF");
    w.s("END");
    w.comment("Range guards (Whaley & Castaldo sec. 5.2): Inf, NaN or denormal results mean the");
    w.comment("test measured the wrong thing. Results are summed and written out.");
    for (ty, name) in [("REAL", "CHKR"), ("DOUBLE PRECISION", "CHKD")] {
        w.s(&format!("SUBROUTINE {name}(X, NAME)"));
        w.s(&format!("{ty} X"));
        w.s("CHARACTER*(*) NAME");
        w.s("DOUBLE PRECISION S");
        w.s("COMMON /OPSNK/ S");
        w.s(
            "IF (X .NE. X .OR. ABS(X) .GT. HUGE(X) .OR. (X .NE. 0 .AND. ABS(X) .LT. TINY(X))) THEN",
        );
        w.s("WRITE (*,*) 'GUARD ', NAME, X");
        w.s("END IF");
        w.s("S = S + X");
        w.s("END");
    }
    w.s("SUBROUTINE CHKRA(A, N, NAME)");
    w.s("INTEGER N, I");
    w.s("REAL A(N)");
    w.s("CHARACTER*(*) NAME");
    w.s("DO 1 I = 1, N");
    w.stmt(Some(1), "CALL CHKR(A(I), NAME)");
    w.s("END");
    w.s("SUBROUTINE SNKOUT");
    w.s("DOUBLE PRECISION S");
    w.s("COMMON /OPSNK/ S");
    w.s("WRITE (*,*) 'SINK', S");
    w.s("END");
    w.comment("Empty callees for the procedure-call tests (Saavedra-Barrera sec. 4.2.3).");
    w.s("SUBROUTINE P0");
    w.s("END");
    for (name, ty) in [
        ("P4R", "REAL"),
        ("P4D", "DOUBLE PRECISION"),
        ("P4I", "INTEGER"),
    ] {
        w.s(&format!("SUBROUTINE {name}(A, B, C, D)"));
        w.s(&format!("{ty} A, B, C, D"));
        w.s("END");
    }
    w.s("SUBROUTINE P3M(A, B, C)");
    w.s("REAL A");
    w.s("DOUBLE PRECISION B");
    w.s("INTEGER C");
    w.s("END");
    w.text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_statements_continue_in_column_6() {
        let mut w = FixedForm::default();
        let long = format!("REAL {}", names("VARIABLE", 20).join(", "));
        w.stmt(Some(12), &long);
        for (i, line) in w.text.lines().enumerate() {
            assert!(line.len() <= 72, "{line}");
            if i == 0 {
                assert!(line.starts_with("12    REAL"));
            } else {
                assert_eq!(&line[..6], "     &");
            }
        }
        let joined: String = w.text.lines().map(|l| l[6..].to_string()).collect();
        assert_eq!(joined, long);
    }

    /// SCNM's counts (rule 23b) come from the characterizer's copy of the letters the
    /// support code's NLETRS draws: built by gfortran and run, the two count the same Qs.
    #[test]
    fn the_support_code_draws_the_letters_scnm_is_counted_with() {
        let Ok(compiler) = harness::Compiler::find(None, &["-O0".to_string()]) else {
            eprintln!("skipping: gfortran is not installed");
            return;
        };
        let n = 5000;
        let dir = tempfile::tempdir().unwrap();
        let support = dir.path().join("support.f");
        std::fs::write(&support, generate(&[]).support_source).unwrap();
        let mut w = FixedForm::default();
        w.s("PROGRAM DRAWS");
        w.s(&format!("CHARACTER*{n} S"));
        w.s("INTEGER I, K, NLETRS");
        w.s("EXTERNAL NLETRS");
        w.s(&format!("K = NLETRS(S, {n})"));
        w.s(&format!("DO 1 I = 1, {n}"));
        w.stmt(Some(1), "IF (S(I:I) .EQ. 'Q') K = K + 1");
        w.s("WRITE (*, '(I0)') K");
        w.s("WRITE (*, '(A)') S(1:20)");
        w.s("END");
        let driver = dir.path().join("draws.f");
        std::fs::write(&driver, &w.text).unwrap();
        let exe = dir.path().join("draws");
        compiler.build(&[driver, support], &exe, &[]).unwrap();
        let out = std::process::Command::new(&exe).output().unwrap();
        let out = String::from_utf8_lossy(&out.stdout).to_string();
        let mine = crate::experiments::random_letters(n);
        let qs = mine.matches('Q').count();
        assert_eq!(out.lines().next(), Some(qs.to_string().as_str()), "{out}");
        assert_eq!(out.lines().nth(1), Some(&mine[..20]), "{out}");
        // A quarter of them, as the test's purpose says.
        assert!((qs as f64 / n as f64 - 0.25).abs() < 0.03, "{qs} of {n}");
    }

    #[test]
    fn experiments_map_back_from_line_numbers() {
        let (exps, _) = crate::experiments::catalogue();
        let p = generate(&exps[..3]);
        let r = &p.line_ranges[1];
        assert_eq!(p.experiment_at_line(r.start), Some(1));
        assert_eq!(p.experiment_at_line(r.end - 1), Some(1));
        assert!(p.tests_source.contains("SUBROUTINE TE002"));
        assert!(p.support_source.contains("FUNCTION NEWLIM"));
    }
}

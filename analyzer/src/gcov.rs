//! An independent check of the dynamic counts with gcov, a tool nobody here wrote: compile
//! the original with `--coverage`, run it with the same input, and compare gcov's count of
//! every executable line with the analyzer's execution count of the statement on it.
//!
//! Systematic exceptions, each checked another way:
//! - A DO statement's line: gcc puts the loop test on it, so gcov counts entries plus
//!   iterations (unit step) or only entries (other steps); either must match exactly.
//! - The consequent of a logical IF shares the IF's line: its count is checked against
//!   gcov's branch counts of that line (or the count of its own line when it is continued).
//! - ELSE, END IF, END DO, END and the terminal CONTINUE of a DO loop cost nothing and have no
//!   counter; gcov attributes loop and jump code to some of them, so they are not compared.
//! - gcc attributes loop-closing and jump code to neighbouring lines: the first statement of
//!   a DO body (the loop test of non-unit steps), a non-CONTINUE DO terminal (the increments of
//!   every loop ending there), the two statements after an arithmetic IF or assigned GO TO
//!   (the jumps of the dispatch), an assigned GO TO itself (its compare chain) and an
//!   unconditional GO TO, also as a logical IF's consequent (gcc gives the jump the location of its target, so gcov counts the
//!   target's executions on the GO TO's line, or on the next line for a consequent), and a
//!   RETURN, also as a consequent (the unit's RETURNs jump to one return block, which gcc
//!   places on one of them). These lines are checked to be at least the analyzer's count and
//!   at most that count plus the executions of the code gcc moved there; they are reported as
//!   *bounded*, not *equal*.
//! - gcov credits each block to its last line and counts a line no block is credited to as the
//!   sum of the blocks touching it. gcc ends a block at each call of a user function and may
//!   give a piece of the statement's code a location on another line (the callee's, a unit's
//!   set-up of assumed-length CHARACTER dummies at its END, a shared constant's), so a
//!   statement with k function references is checked to count between its executions and k + 1
//!   times them. gcc sets the label slot of an ASSIGN variable up in the unit's entry block at
//!   the variable's first appearance, so that line is checked to lie between the lesser of its
//!   count and the unit's entries and their sum. Both are *bounded* too.
//! - An I/O statement with an implied DO in its list: gcc codes the loop on the statement's
//!   line, so gcov counts its iterations there too; the line is checked to be at least the
//!   statement's count (the analyzer does not count the list's items).
//! - A statement continued over several lines is compared by each of them (the largest count
//!   shown when none matches): gcc spreads its code over them and may give another block (the
//!   join after an END IF or a loop before it) the location of its last line.
//! - A DO loop whose step is known only at run time is tested at its bottom: when its line
//!   counts neither entries nor entries + iterations, one of its branches must be the
//!   iterations, or the iterations less the entries (the back edge), or two of them must add
//!   up to the iterations (the entry test's way in and the bottom test's way back, when the
//!   loop may also be left by GO TO or RETURN: its line then counts the entries plus the
//!   iterations that reached its end).

use crate::analysis::Program;
use crate::stats::eval;
use crate::symbols::UnitKind;
use crate::syntax::Stmt;
use crate::{AnalyzeError, AnalyzeOptions, RunSpec};
use harness::Compiler;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// gcov's view of one line.
#[derive(Debug, Clone, Default)]
pub struct GcovLine {
    pub count: u64,
    pub branches: Vec<u64>,
}

/// One comparison that failed.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub file: String,
    pub line: u32,
    pub what: String,
    pub analyzer: u64,
    pub gcov: String,
}

/// The outcome of a cross-check.
#[derive(Debug, Clone, Default)]
pub struct GcovCheck {
    /// Lines whose count was compared for equality.
    pub lines_equal: usize,
    /// DO lines checked against entries or entries + iterations.
    pub do_lines: usize,
    /// Lines checked within bounds (see the module comment).
    pub bounded_lines: usize,
    /// Logical IF consequents checked against branch counts.
    pub consequents: usize,
    /// Statements with a count but no line in gcov's output (merged by the compiler).
    pub not_in_gcov: usize,
    pub mismatches: Vec<Mismatch>,
}

/// Parse `gcov -j -t` output: per source file name, line number -> counts.
pub fn parse_gcov_json(
    text: &str,
) -> Result<HashMap<String, HashMap<u32, GcovLine>>, AnalyzeError> {
    let mut out: HashMap<String, HashMap<u32, GcovLine>> = HashMap::new();
    // gcov -t may print one JSON document per line (one per object file).
    for doc in text.lines().filter(|l| l.trim_start().starts_with('{')) {
        let v: serde_json::Value =
            serde_json::from_str(doc).map_err(|e| AnalyzeError::Gcov(format!("bad JSON: {e}")))?;
        for f in v["files"].as_array().into_iter().flatten() {
            let name = f["file"].as_str().unwrap_or("").to_string();
            let lines = out.entry(name).or_default();
            for l in f["lines"].as_array().into_iter().flatten() {
                let n = l["line_number"].as_u64().unwrap_or(0) as u32;
                let e = lines.entry(n).or_default();
                e.count += l["count"].as_u64().unwrap_or(0);
                e.branches.extend(
                    l["branches"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|b| b["count"].as_u64()),
                );
            }
        }
    }
    Ok(out)
}

/// Compile the original with `--coverage`, run it, and return gcov's line data per file
/// (indexed like `files`).
pub fn gcov_lines(
    files: &[PathBuf],
    opts: &AnalyzeOptions,
    compiler: &Compiler,
    run: &RunSpec,
) -> Result<Vec<HashMap<u32, GcovLine>>, AnalyzeError> {
    let dir = tempfile::Builder::new()
        .prefix("opcost-gcov-")
        .tempdir()
        .map_err(|source| AnalyzeError::Io {
            what: "creating a temporary directory".into(),
            source,
        })?;
    let compiler = crate::dynamic::program_compiler(compiler, opts);
    let mut objs = Vec::new();
    let mut copies = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let name = format!(
            "g{i}_{}",
            f.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        );
        let copy = dir.path().join(&name);
        std::fs::copy(f, &copy).map_err(|source| AnalyzeError::Io {
            what: format!("copying {}", f.display()),
            source,
        })?;
        let obj = copy.with_extension("o");
        let inc = f
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map(|d| std::fs::canonicalize(d).unwrap_or_else(|_| d.to_path_buf()))
            .map(|d| format!("-I{}", d.display()))
            .unwrap_or_else(|| "-I.".into());
        compiler
            .compile_object(&copy, &obj, &["--coverage", &inc])
            .map_err(AnalyzeError::Compile)?;
        objs.push(obj);
        copies.push(copy);
    }
    let exe = dir.path().join("covered");
    compiler
        .build(&objs, &exe, &["--coverage"])
        .map_err(AnalyzeError::Compile)?;
    let out = crate::dynamic::run_program(&exe, run, &[])?;
    let _ = out;
    let mut result = Vec::new();
    for (copy, obj) in copies.iter().zip(&objs) {
        let o = Command::new("gcov")
            .args(["-j", "-t", "-b", "-o"])
            .arg(obj)
            .arg(copy)
            .current_dir(dir.path())
            .output()
            .map_err(|e| {
                AnalyzeError::Gcov(format!(
                    "cannot run gcov ({e}); install it with `sudo apt-get install gcc`"
                ))
            })?;
        let parsed = parse_gcov_json(&String::from_utf8_lossy(&o.stdout))?;
        let lines = parsed
            .into_iter()
            .find(|(k, _)| Path::new(k).file_name() == copy.file_name())
            .map(|(_, v)| v)
            .unwrap_or_default();
        result.push(lines);
    }
    Ok(result)
}

/// The executable statements where an ASSIGN variable first appears, whose lines the set-up
/// code of their unit's entry block touches (see the module comment), each with the unit's
/// first executable statement (whose count is the unit's entries).
fn assign_setup_statements(prog: &Program) -> HashMap<usize, usize> {
    let mut out = HashMap::new();
    for unit in &prog.units {
        let range = unit.first..unit.end;
        let Some(first) = range.clone().find(|&s| prog.stmts[s].exec.is_some()) else {
            continue;
        };
        for s in range.clone() {
            if let Some(Stmt::AssignLabel(_, v)) = assigned_label(prog.stmts[s].stmt.as_ref()) {
                let seen = range.clone().find(|&k| {
                    prog.stmts[k]
                        .stmt
                        .as_ref()
                        .is_some_and(|st| crate::analysis::names_in(st).contains(v))
                });
                if let Some(k) = seen.filter(|&k| prog.stmts[k].exec.is_some()) {
                    out.insert(k, first);
                }
            }
        }
    }
    out
}

/// References to the program's functions per statement (each ends one of gcc's blocks).
fn function_references(prog: &Program) -> HashMap<usize, u64> {
    let mut out = HashMap::new();
    for (k, u, n, _) in crate::analysis::unit_references(prog) {
        if prog.units[u].kind == UnitKind::Function {
            *out.entry(k).or_default() += n as u64;
        }
    }
    out
}

/// Whether `stmt` (squeezed `text`) is an I/O statement, also as a logical IF's consequent,
/// whose list has an implied DO: a `=` inside parentheses past the control list.
fn io_with_implied_do(stmt: &Stmt, text: &str) -> bool {
    let text = match stmt {
        Stmt::Io(..) => text,
        Stmt::LogicalIf(_, inner, off) if matches!(**inner, Stmt::Io(..)) => {
            text.get(*off..).unwrap_or("")
        }
        _ => return false,
    };
    let b = text.as_bytes();
    // A control list opens right after the keyword: `WRITE(`, not `PRINT*,(`.
    let mut control = text
        .find('(')
        .is_some_and(|p| b[..p].iter().all(u8::is_ascii_alphabetic));
    let (mut depth, mut quote) = (0i32, None);
    for (k, &c) in b.iter().enumerate() {
        if let Some(q) = quote {
            quote = (c != q).then_some(q);
            continue;
        }
        match c {
            b'\'' | b'"' => quote = Some(c),
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                // The control list of READ(...) / WRITE(...) ends here.
                control &= depth != 0;
            }
            b'=' if depth > 0 && !control => {
                let around = [k.checked_sub(1).map(|p| b[p]), b.get(k + 1).copied()];
                if !around
                    .iter()
                    .flatten()
                    .any(|&x| matches!(x, b'=' | b'<' | b'>' | b'/'))
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether `s` is a RETURN, also as a logical IF's consequent.
fn returns_of(s: Option<&Stmt>) -> bool {
    match s {
        Some(Stmt::Return(_)) => true,
        Some(Stmt::LogicalIf(_, inner, _)) => returns_of(Some(inner)),
        _ => false,
    }
}

/// How often statement `st` returns: its executions for a RETURN, its consequent's for a
/// logical IF's RETURN.
fn return_runs(st: &crate::analysis::StmtInfo) -> Option<&crate::analysis::Mult> {
    match &st.stmt {
        Some(Stmt::Return(_)) => st.exec.as_ref(),
        Some(Stmt::LogicalIf(_, inner, _)) if returns_of(Some(inner)) => st.consequent.as_ref(),
        _ => None,
    }
}

/// The ASSIGN statement of `s`, also as a logical IF's consequent.
fn assigned_label(s: Option<&Stmt>) -> Option<&Stmt> {
    match s? {
        a @ Stmt::AssignLabel(..) => Some(a),
        Stmt::LogicalIf(_, inner, _) => assigned_label(Some(inner)),
        _ => None,
    }
}

/// What the comparison needs beyond a statement's own counts: sums over labels and units.
struct Facts<'a> {
    prog: &'a Program,
    counters: &'a [u64],
    /// Iterations of the labeled DO loops ending at each (unit, label).
    iters_at: HashMap<(usize, u32), u64>,
    /// Executions of the statement carrying each (unit, label), for GO TO targets.
    exec_at: HashMap<(usize, u32), u64>,
    /// See [`assign_setup_statements`].
    setup: HashMap<usize, usize>,
    /// See [`function_references`].
    calls: HashMap<usize, u64>,
    /// The RETURNs run in each unit, which gcc sends through one return block.
    returns: HashMap<usize, u64>,
}

impl<'a> Facts<'a> {
    fn new(prog: &'a Program, counters: &'a [u64]) -> Self {
        let mut f = Facts {
            prog,
            counters,
            iters_at: HashMap::new(),
            exec_at: HashMap::new(),
            setup: assign_setup_statements(prog),
            calls: function_references(prog),
            returns: HashMap::new(),
        };
        for st in &prog.stmts {
            if let Some(Stmt::Do(Some(l), _) | Stmt::DoWhile(Some(l), _)) = &st.stmt {
                let it = st.parts.get(1).map_or(0, |p| f.value(&p.mult));
                *f.iters_at.entry((st.unit, *l)).or_default() += it;
            }
            if let Some(m) = return_runs(st) {
                let r = f.value(m);
                *f.returns.entry(st.unit).or_default() += r;
            }
        }
        for (s, st) in prog.stmts.iter().enumerate() {
            if let Some(l) = prog.statement(s).label {
                let e = st.exec.as_ref().map_or(0, |m| f.value(m));
                let it = f.iters_at.get(&(st.unit, l)).copied().unwrap_or(0);
                f.exec_at.insert((st.unit, l), e.max(it));
            }
        }
        f
    }

    fn value(&self, m: &crate::analysis::Mult) -> u64 {
        eval(m, self.counters).unwrap_or(0)
    }

    /// For statement `s` (not a DO) run `n` times: the least count gcov may show on its line
    /// and the most it may show beyond `n` (`None`: exactly `n`), from the code gcc moves
    /// there (module comment).
    fn allowance(&self, s: usize, n: u64) -> (u64, Option<u64>) {
        let (prog, st) = (self.prog, &self.prog.stmts[s]);
        let Some(stmt) = &st.stmt else {
            return (n, None);
        };
        let src = prog.statement(s);
        let prev = s
            .checked_sub(1)
            .map(|p| &prog.stmts[p])
            .filter(|p| p.unit == st.unit);
        let prev_exec = prev
            .and_then(|p| p.exec.as_ref())
            .map_or(0, |m| self.value(m));
        // An arithmetic IF or assigned GO TO one or two statements back.
        let dispatch = (1..=2)
            .filter_map(|d| s.checked_sub(d))
            .map(|p| &prog.stmts[p])
            .filter(|p| p.unit == st.unit)
            .find(|p| matches!(p.stmt, Some(Stmt::ArithIf(..) | Stmt::AssignedGoto(..))))
            .and_then(|p| p.exec.as_ref())
            .map(|m| self.value(m));
        let moved = match (prev.and_then(|p| p.stmt.as_ref()), stmt) {
            _ if io_with_implied_do(stmt, &src.text) => Some(u64::MAX),
            (_, Stmt::AssignedGoto(_, labels)) => Some(n * labels.len().max(1) as u64),
            (_, Stmt::Goto(l)) => Some(self.exec_at.get(&(st.unit, *l)).copied().unwrap_or(0)),
            _ if returns_of(Some(stmt)) => Some(
                self.returns
                    .get(&st.unit)
                    .copied()
                    .unwrap_or(0)
                    .saturating_sub(return_runs(st).map_or(0, |m| self.value(m))),
            ),
            (Some(Stmt::Do(..) | Stmt::DoWhile(..)), _) => Some(prev_exec),
            (Some(Stmt::LogicalIf(_, inner, _)), _) if matches!(**inner, Stmt::Goto(_)) => prev
                .and_then(|p| p.consequent.as_ref())
                .map(|m| self.value(m)),
            _ if dispatch.is_some() => dispatch,
            _ if st.do_terminal => {
                let l = src.label.unwrap_or(0);
                Some(self.iters_at.get(&(st.unit, l)).copied().unwrap_or(0) + prev_exec)
            }
            _ => None,
        };
        // An ASSIGN variable's set-up and the pieces of a statement split by its function
        // references.
        let setup = self.setup.get(&s).map(|&f| {
            let first = &prog.stmts[f];
            first.exec.as_ref().map_or(0, |m| self.value(m))
        });
        let split = self.calls.get(&s).map(|&k| k.saturating_mul(n));
        let extra = [moved, setup, split]
            .into_iter()
            .flatten()
            .reduce(u64::saturating_add);
        (setup.map_or(n, |e| n.min(e)), extra)
    }
}

/// Whether gcov's DO line (`main_line`, its branches in `entries`) agrees with `n` entries and
/// `iters` iterations (module comment).
fn do_line_agrees(entries: &[&GcovLine], main_line: u64, n: u64, iters: u64) -> bool {
    let back_edge = iters.checked_sub(n);
    let by_branch = entries.iter().any(|e| {
        let b = &e.branches;
        b.iter().any(|&x| x == iters || Some(x) == back_edge)
            || b.iter()
                .enumerate()
                .any(|(i, &x)| b[i + 1..].iter().any(|&y| x.checked_add(y) == Some(iters)))
    });
    main_line == n || main_line == n + iters || by_branch
}

/// Compare the analyzer's execution counts with gcov's (see the module comment).
pub fn compare(prog: &Program, counters: &[u64], gcov: &[HashMap<u32, GcovLine>]) -> GcovCheck {
    let mut chk = GcovCheck::default();
    let facts = Facts::new(prog, counters);
    for (s, st) in prog.stmts.iter().enumerate() {
        let Some(exec) = st.exec.as_ref() else {
            continue;
        };
        let Some(stmt) = &st.stmt else { continue };
        let Some(g) = gcov.get(st.file) else { continue };
        let src = prog.statement(s);
        let file = &prog.files[st.file].path;
        let entries: Vec<&GcovLine> = src.lines.iter().filter_map(|l| g.get(&(l + 1))).collect();
        let Some(main_line) = entries.iter().map(|e| e.count).max() else {
            chk.not_in_gcov += 1;
            continue;
        };
        let n = eval(exec, counters).unwrap_or(0);
        // A continued statement is confirmed by any of its lines (see the module comment).
        let some_line_is_n = entries.iter().any(|e| e.count == n);
        let line = src.first_line() + 1;
        let mut miss = |what: &str, analyzer: u64, gcov: String| {
            chk.mismatches.push(Mismatch {
                file: file.clone(),
                line,
                what: what.to_string(),
                analyzer,
                gcov,
            })
        };
        match stmt {
            Stmt::Do(..) | Stmt::DoWhile(..) => {
                let iters = st.parts.get(1).map_or(0, |p| facts.value(&p.mult));
                chk.do_lines += 1;
                if !do_line_agrees(&entries, main_line, n, iters) {
                    let what = "DO (entries or entries + iterations)";
                    miss(what, n, main_line.to_string());
                }
            }
            _ => match facts.allowance(s, n) {
                (floor, Some(extra)) if !some_line_is_n => {
                    chk.bounded_lines += 1;
                    if main_line < floor || main_line > n.saturating_add(extra) {
                        let allowed = match n.checked_add(extra) {
                            Some(top) => format!("{floor}..={top}"),
                            None => format!("at least {floor}"),
                        };
                        let shown = format!("{main_line} (allowed {allowed})");
                        miss("line count (bounded)", n, shown);
                    }
                }
                _ => {
                    chk.lines_equal += 1;
                    if !some_line_is_n {
                        miss("line count", n, main_line.to_string());
                    }
                }
            },
        }
        if let (Stmt::LogicalIf(..), Some(cq)) = (stmt, st.consequent.as_ref()) {
            let c = eval(cq, counters).unwrap_or(0);
            chk.consequents += 1;
            let branch_hit = entries.iter().any(|e| e.branches.contains(&c));
            let own_line = entries.iter().skip(1).any(|e| e.count == c);
            // A consequent that always or never runs may show no branch split at -O0.
            let trivial = entries.iter().all(|e| e.branches.is_empty()) && (c == 0 || c == n);
            if !(branch_hit || own_line || trivial) {
                let b: Vec<u64> = entries.iter().flat_map(|e| e.branches.clone()).collect();
                miss(
                    "logical IF consequent vs branch counts",
                    c,
                    format!("{b:?}"),
                );
            }
        }
    }
    chk
}

/// Run the whole cross-check: a dynamic analysis and a gcov run of the same program.
pub fn check(
    files: &[PathBuf],
    opts: &AnalyzeOptions,
    compiler: &Compiler,
    run: &RunSpec,
) -> Result<(crate::Analysis, GcovCheck), AnalyzeError> {
    let a = crate::analyze_dynamic(files, opts, compiler, run)?;
    // The flags the analysis built the program with, those it added included.
    let opts = AnalyzeOptions {
        program_flags: a.stats.program_flags.clone(),
        ..opts.clone()
    };
    let g = gcov_lines(files, &opts, compiler, run)?;
    let counters = a.counters.clone().unwrap_or_default();
    let c = compare(&a.program, &counters, &g);
    Ok((a, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implied_do_lists_are_told_from_control_lists() {
        let io = Stmt::Io("WRITE", Vec::new());
        assert!(io_with_implied_do(
            &io,
            "WRITE(NOUT,FMT=9992)(IDIM(I),I=1,NIDIM)"
        ));
        assert!(io_with_implied_do(&io, "PRINT*,(A(I),I=1,N)"));
        assert!(io_with_implied_do(&io, "READ100,(A(I,J),J=1,N)"));
        assert!(!io_with_implied_do(&io, "WRITE(UNIT=6,FMT=100)A,B"));
        assert!(!io_with_implied_do(&io, "OPEN(UNIT=10,FILE='a=b')"));
        assert!(!io_with_implied_do(&io, "PRINT*,'(I=1)',X"));
    }
}

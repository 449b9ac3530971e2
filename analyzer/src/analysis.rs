//! From statements to counts: program units and their symbol tables, lowering of every
//! executable statement to `model::expr` and counting it with `model::rules` only, and the
//! basic blocks with their counters (probes) for the dynamic counts (seed 004 section 5.2).
//!
//! A statement's cost is a list of [`Part`]s, each a count vector times a linear combination of
//! probe counters: most statements are one part executed as often as their block, a DO loop
//! has its entry (block) and iteration (probe after the DO) parts, a logical IF has its
//! condition and its consequent (own probe), and the conditions of ELSE IF are tested
//! `tests(k) = tests(k-1) - taken(k-1)` times, derived from the branch probes.

use crate::parse;
use crate::source::{SourceFile, Statement};
use crate::symbols::{Symbols, UnitKind};
use crate::syntax::*;
use crate::Diagnostic;
use model::expr::{ArithOp, Expr, LogicOp, Operand, RelOp, Type, UnaryOp};
use model::{rules, OpCounts};
use std::collections::{HashMap, HashSet};

/// Where a counter is incremented in the instrumented copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// Before statement `s` (its label moves to the increment).
    Before(usize),
    /// Right after statement `s` (DO iterations, IF/ELSE IF/ELSE branches).
    After(usize),
    /// Inside the consequent of logical IF `s`.
    Consequent(usize),
}

/// A linear combination of probe counters: Σ coefficient × counter.
pub type Mult = Vec<(i64, usize)>;

/// Counts executed `mult` times.
#[derive(Debug, Clone)]
pub struct Part {
    pub counts: OpCounts,
    pub mult: Mult,
}

/// One statement of the program, analyzed.
#[derive(Debug, Clone)]
pub struct StmtInfo {
    pub file: usize,
    /// Index in `files[file].statements`.
    pub src: usize,
    pub unit: usize,
    /// `None` when the statement could not be parsed (it was skipped).
    pub stmt: Option<Stmt>,
    /// Executable (costs and control flow apply).
    pub executable: bool,
    pub parts: Vec<Part>,
    pub static_counts: OpCounts,
    /// How often the statement runs (its line's count for the gcov check).
    pub exec: Option<Mult>,
    /// The consequent's count, for logical IF.
    pub consequent: Option<Mult>,
    /// Terminal statement of a labeled DO loop.
    pub do_terminal: bool,
    /// The probe counting the block this statement belongs to.
    pub block: Option<usize>,
    /// The assignment this statement makes (also as a logical IF's consequent), lowered, for
    /// the dependence chains of rule 14 (`crate::recurrence`).
    pub assignment: Option<(Expr, Expr)>,
    /// An IF whose condition reads array data: its outcomes count as unpredictable (rule 15).
    pub data_dependent: bool,
}

/// One program unit.
#[derive(Debug, Clone)]
pub struct UnitInfo {
    pub name: String,
    pub kind: UnitKind,
    pub file: usize,
    /// Range of statement indices (into `Program::stmts`).
    pub first: usize,
    pub end: usize,
    /// Statement before which the instrumented copy declares its counters.
    pub decl_at: usize,
    pub labels: HashSet<u32>,
}

/// A whole analyzed program.
#[derive(Debug, Clone)]
pub struct Program {
    pub files: Vec<SourceFile>,
    pub units: Vec<UnitInfo>,
    pub stmts: Vec<StmtInfo>,
    pub probes: Vec<Probe>,
    pub diagnostics: Vec<Diagnostic>,
    pub skipped: usize,
    /// DO iteration probes that the counted copy increments once per entry by the loop's
    /// trip count (Fortran 77 section 11.10.3: MAX0((m2 - m1 + m3) / m3, 0)) instead of
    /// once per iteration: loops whose body cannot leave the loop early and whose bounds are
    /// integer expressions without function references. Probe index -> increment text.
    pub trip_counts: HashMap<usize, String>,
}

impl Program {
    pub fn statement(&self, s: usize) -> &Statement {
        let st = &self.stmts[s];
        &self.files[st.file].statements[st.src]
    }
}

fn one(p: usize) -> Mult {
    vec![(1, p)]
}

fn sub(a: &Mult, b: &Mult) -> Mult {
    let mut m = a.clone();
    m.extend(b.iter().map(|&(c, p)| (-c, p)));
    m
}

/// Lowering of syntax to the model's typed expressions, within one unit.
struct Lower<'a> {
    sym: &'a Symbols,
    /// Statement-function dummies being substituted, innermost last.
    subst: Vec<HashMap<String, Expr>>,
    /// Statement functions being substituted: a recursive reference (not Fortran 77, but
    /// found by fuzzing to blow up exponentially) is counted as a call instead.
    active: Vec<String>,
    warnings: Vec<String>,
    /// The last assignment `counts_of` lowered.
    assigned: Option<(Expr, Expr)>,
    /// Whether the last condition `counts_of` lowered reads an array element (rule 15).
    data_dependent: bool,
}

impl<'a> Lower<'a> {
    fn ty(&mut self, name: &str) -> Type {
        match self.sym.type_of(name) {
            Some(t) => t,
            None => {
                self.warnings.push(format!(
                    "{name} has no type (IMPLICIT NONE and not declared); counted as REAL"
                ));
                Type::Real
            }
        }
    }

    fn operand(&mut self, name: &str) -> Operand {
        Operand {
            name: name.to_string(),
            ty: self.ty(name),
            global: self.sym.is_global(name),
        }
    }

    fn args(&mut self, args: &[Arg]) -> Vec<Expr> {
        args.iter()
            .filter_map(|a| match a {
                Arg::Expr(e) | Arg::Keyword(_, e) => Some(self.expr(e)),
                Arg::Range(lo, hi) => {
                    let parts = lo.iter().chain(hi.iter()).map(|e| self.expr(e)).collect();
                    Some(Expr::Opaque {
                        kind: "character substring".into(),
                        ty: Type::Character,
                        parts,
                    })
                }
                Arg::AltReturn(_) => None,
            })
            .collect()
    }

    fn expr(&mut self, e: &SExpr) -> Expr {
        match e {
            SExpr::Int(t) => Expr::Constant {
                text: t.clone(),
                ty: Type::Integer,
            },
            SExpr::Real { text, double } => Expr::Constant {
                text: text.clone(),
                ty: if *double { Type::Double } else { Type::Real },
            },
            SExpr::Logical(b) => Expr::Constant {
                text: if *b {
                    ".TRUE.".into()
                } else {
                    ".FALSE.".into()
                },
                ty: Type::Logical,
            },
            SExpr::Str(s) => Expr::Constant {
                text: format!("'{s}'"),
                ty: Type::Character,
            },
            SExpr::Complex(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                if a.is_constant() && b.is_constant() {
                    Expr::Constant {
                        text: format!("({a},{b})"),
                        ty: Type::Complex,
                    }
                } else {
                    Expr::Opaque {
                        kind: "complex constructor".into(),
                        ty: Type::Complex,
                        parts: vec![a, b],
                    }
                }
            }
            SExpr::Name(n) => {
                // A statement function's body sees its own dummies only.
                if let Some(v) = self.subst.last().and_then(|scope| scope.get(n)) {
                    return v.clone();
                }
                if self.sym.get(n).is_some_and(|s| s.parameter.is_some()) {
                    return Expr::Constant {
                        text: n.clone(),
                        ty: self.ty(n),
                    };
                }
                Expr::Variable(self.operand(n))
            }
            SExpr::Apply(n, args) => self.apply(n, args),
            SExpr::Substring(base, lo, hi) => {
                let mut parts = vec![self.expr(base)];
                parts.extend(lo.iter().chain(hi.iter()).map(|e| self.expr(e)));
                Expr::Opaque {
                    kind: "character substring".into(),
                    ty: Type::Character,
                    parts,
                }
            }
            SExpr::Unary(op, x) => Expr::Unary {
                op: match op {
                    UOp::Neg => UnaryOp::Neg,
                    UOp::Plus => UnaryOp::Plus,
                    UOp::Not => UnaryOp::Not,
                },
                operand: Box::new(self.expr(x)),
            },
            SExpr::Binary(op, l, r) => {
                let (l, r) = (self.expr(l), self.expr(r));
                match op {
                    BOp::Add => Expr::arith(ArithOp::Add, l, r),
                    BOp::Sub => Expr::arith(ArithOp::Sub, l, r),
                    BOp::Mul => Expr::arith(ArithOp::Mul, l, r),
                    BOp::Div => Expr::arith(ArithOp::Div, l, r),
                    BOp::Pow => Expr::arith(ArithOp::Pow, l, r),
                    BOp::Concat => Expr::arith(ArithOp::Concat, l, r),
                    BOp::Eq | BOp::Ne | BOp::Lt | BOp::Le | BOp::Gt | BOp::Ge => {
                        let op = match op {
                            BOp::Eq => RelOp::Eq,
                            BOp::Ne => RelOp::Ne,
                            BOp::Lt => RelOp::Lt,
                            BOp::Le => RelOp::Le,
                            BOp::Gt => RelOp::Gt,
                            _ => RelOp::Ge,
                        };
                        Expr::compare(op, l, r)
                    }
                    BOp::And => Expr::logic(LogicOp::And, l, r),
                    BOp::Or => Expr::logic(LogicOp::Or, l, r),
                    BOp::Eqv => Expr::logic(LogicOp::Eqv, l, r),
                    BOp::Neqv => Expr::logic(LogicOp::Neqv, l, r),
                }
            }
            SExpr::Paren(x) => Expr::Paren(Box::new(self.expr(x))),
        }
    }

    /// `name(args)`: array element, statement function, substring, intrinsic or function.
    fn apply(&mut self, n: &str, args: &[Arg]) -> Expr {
        let shadowed = self.subst.last().is_some_and(|s| s.contains_key(n));
        let table: &'a Symbols = self.sym;
        let none = crate::symbols::Symbol::default();
        let sym = table.get(n).unwrap_or(&none);
        if sym.rank.is_some() && !shadowed {
            let subscripts = self.args(args);
            return Expr::Element {
                array: self.operand(n),
                subscripts,
            };
        }
        if let Some((dummies, body)) = &sym.statement_function {
            // Substitute: a statement function costs its body's operations, not a call.
            if self.active.len() < 16 && !self.active.iter().any(|a| a == n) {
                let actual = self.args(args);
                let scope = dummies
                    .iter()
                    .cloned()
                    .zip(actual.into_iter().map(|a| match a {
                        Expr::Constant { .. } | Expr::Variable(_) | Expr::Element { .. } => a,
                        other => Expr::Paren(Box::new(other)),
                    }))
                    .collect();
                self.subst.push(scope);
                self.active.push(n.to_string());
                let v = self.expr(body);
                self.active.pop();
                self.subst.pop();
                return Expr::Paren(Box::new(v));
            }
        }
        let is_range = args.iter().any(|a| matches!(a, Arg::Range(..)));
        if is_range {
            let mut parts = vec![Expr::Variable(self.operand(n))];
            parts.extend(self.args(args));
            return Expr::Opaque {
                kind: "character substring".into(),
                ty: Type::Character,
                parts,
            };
        }
        let args_l = self.args(args);
        if !sym.external && model::intrinsics::lookup(n).is_some() {
            return Expr::Intrinsic {
                name: n.to_string(),
                args: args_l,
            };
        }
        Expr::Call {
            name: n.to_string(),
            ty: self.ty(n),
            args: args_l,
        }
    }

    fn target(&mut self, e: &SExpr) -> Expr {
        match e {
            SExpr::Name(n) => Expr::Variable(self.operand(n)),
            other => self.expr(other),
        }
    }
}

/// Counting of one executable statement's own operations, by the rules in `model` only.
fn counts_of(lw: &mut Lower, s: &Stmt) -> OpCounts {
    match s {
        Stmt::Assignment(t, v) => {
            let t = lw.target(t);
            let v = lw.expr(v);
            let c = rules::count_assignment(&t, &v);
            lw.assigned = Some((t, v));
            c
        }
        Stmt::AssignLabel(_, var) => rules::count_assign_label(&lw.operand(var)),
        Stmt::Goto(_) => rules::count_goto(),
        Stmt::ComputedGoto(_, e) | Stmt::ArithIf(e, _) => {
            rules::count_multiway_branch(Some(&lw.expr(e)))
        }
        Stmt::AssignedGoto(..) => rules::count_multiway_branch(None),
        Stmt::BlockIf(c) | Stmt::ElseIf(c) | Stmt::LogicalIf(c, _, _) | Stmt::DoWhile(_, c) => {
            let cond = lw.expr(c);
            lw.data_dependent = rules::reads_array(&cond);
            rules::count_condition(&cond)
        }
        Stmt::Call(_, args) => {
            let a = lw.args(args);
            rules::count_call(&a)
        }
        Stmt::Return(Some(e)) => rules::count_expr(&lw.expr(e)),
        Stmt::Io(kw, _) => rules::count_io(kw),
        Stmt::Do(_, ctl) => {
            let step = ctl.step.as_ref().map(|e| lw.expr(e));
            let (a, b) = (lw.expr(&ctl.start), lw.expr(&ctl.end));
            let mut bounds = vec![&a, &b];
            if let Some(st) = &step {
                bounds.push(st);
            }
            rules::count_do_entry(rules::is_unit_step(step.as_ref()), &bounds)
        }
        _ => OpCounts::new(),
    }
}

fn do_unit_step(lw: &mut Lower, ctl: &DoControl) -> bool {
    let step = ctl.step.as_ref().map(|e| lw.expr(e));
    rules::is_unit_step(step.as_ref())
}

fn is_executable(s: &Stmt) -> bool {
    !(s.is_specification()
        || s.is_unit_header()
        || matches!(s, Stmt::Format | Stmt::Entry(..) | Stmt::NoCost("DATA")))
}

/// Statements after which control may not go on to the next statement, so that the next
/// one starts a new basic block. A CALL without alternate returns, an I/O statement without
/// ERR=/END=/EOR= and a logical IF whose consequent is one of those continue the block (a
/// STOP inside a called routine ends the run, so it overcounts the rest of that block by
/// at most one execution).
fn ends_block(s: &Stmt, text: &str) -> bool {
    match s {
        Stmt::Goto(_)
        | Stmt::ComputedGoto(..)
        | Stmt::AssignedGoto(..)
        | Stmt::ArithIf(..)
        | Stmt::Return(_)
        | Stmt::Stop
        | Stmt::EndIf
        | Stmt::EndDo
        | Stmt::Entry(..) => true,
        Stmt::LogicalIf(_, inner, _) => ends_block(inner, text),
        Stmt::Call(_, args) => args.iter().any(|a| matches!(a, Arg::AltReturn(_))),
        Stmt::Io(..) => io_may_jump(text),
        _ => false,
    }
}

fn io_may_jump(text: &str) -> bool {
    text.contains("ERR=") || text.contains("END=") || text.contains("EOR=")
}

/// Labels that control can jump to (branch targets, ASSIGNed labels, alternate returns).
fn jump_targets(s: &Stmt, out: &mut HashSet<u32>) {
    match s {
        Stmt::Goto(l) | Stmt::AssignLabel(l, _) => {
            out.insert(*l);
        }
        Stmt::ComputedGoto(ls, _) | Stmt::AssignedGoto(_, ls) => out.extend(ls.iter().copied()),
        Stmt::ArithIf(_, ls) => out.extend(ls.iter().copied()),
        Stmt::Call(_, args) => out.extend(args.iter().filter_map(|a| match a {
            Arg::AltReturn(l) => Some(*l),
            _ => None,
        })),
        Stmt::LogicalIf(_, inner, _) => jump_targets(inner, out),
        _ => {}
    }
}

/// Statements before which no counter can be placed (it would belong to the previous
/// branch or loop body); they cost nothing, so they need none.
fn probe_placeable(s: &Stmt) -> bool {
    !matches!(
        s,
        Stmt::Else | Stmt::ElseIf(_) | Stmt::EndIf | Stmt::EndDo | Stmt::End | Stmt::Entry(..)
    )
}

/// Analyze parsed source files into a [`Program`].
pub fn analyze(files: Vec<SourceFile>) -> Program {
    let mut prog = Program {
        files,
        units: Vec::new(),
        stmts: Vec::new(),
        probes: Vec::new(),
        diagnostics: Vec::new(),
        skipped: 0,
        trip_counts: HashMap::new(),
    };
    for fi in 0..prog.files.len() {
        for (line, msg) in prog.files[fi].directive_problems.clone() {
            prog.diagnostics
                .push(Diagnostic::warning(&prog.files[fi].path, line, 1, &msg, ""));
        }
        let n = prog.files[fi].statements.len();
        let mut k = 0;
        while k < n {
            k = analyze_unit(&mut prog, fi, k);
        }
    }
    prog
}

/// Every identifier-like word of a statement's text (to pick names that cannot clash).
pub fn collect_words(words: &mut HashSet<String>, text: &str) {
    let mut cur = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
            cur.push(c.to_ascii_uppercase());
        } else if !cur.is_empty() {
            words.insert(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        words.insert(cur);
    }
}

/// Analyze the unit starting at statement `start` of file `fi`; returns the index after it.
fn analyze_unit(prog: &mut Program, fi: usize, start: usize) -> usize {
    let unit_idx = prog.units.len();
    let first_stmt = prog.stmts.len();
    let path = prog.files[fi].path.clone();
    let mut sym = Symbols::default();
    let mut kind = UnitKind::Main;
    let mut uname = String::new();
    let mut labels = HashSet::new();
    let mut decl_at: Option<usize> = None;
    let mut in_spec = true;
    let mut parsed: Vec<(usize, Option<Stmt>)> = Vec::new();
    let n = prog.files[fi].statements.len();
    let mut k = start;

    // Pass 1: parse, build the symbol table.
    while k < n {
        let st = &prog.files[fi].statements[k];
        if let Some(l) = st.label {
            labels.insert(l);
        }
        let result = parse::statement(&st.text);
        let s = match result {
            Ok(s) => Some(s),
            Err(f) => {
                let (line, col) = st.position(f.offset);
                prog.diagnostics.push(Diagnostic::error(
                    &path,
                    line,
                    col,
                    &format!(
                        "cannot parse this statement (expected {}); skipped",
                        f.expected
                    ),
                    &prog.files[fi].lines[st.first_line() as usize],
                ));
                prog.skipped += 1;
                None
            }
        };
        let idx_here = parsed.len();
        if let Some(Stmt::NoCost("INCLUDE")) = &s {
            prog.diagnostics.push(Diagnostic::warning(
                &path,
                st.first_line() + 1,
                7,
                "INCLUDE is not followed: declarations in the included file (COMMON, types) are not seen, so counts may use implicit types and local storage",
                &prog.files[fi].lines[st.first_line() as usize],
            ));
        }
        if let Some(s) = &s {
            match s {
                Stmt::Program(nm) => {
                    uname = nm.clone();
                }
                Stmt::Subroutine(nm, d) | Stmt::Function(_, nm, d) => {
                    kind = if matches!(s, Stmt::Subroutine(..)) {
                        UnitKind::Subroutine
                    } else {
                        UnitKind::Function
                    };
                    uname = nm.clone();
                    for a in d {
                        sym.entry(a).dummy = true;
                    }
                    if let Stmt::Function(Some(t), nm, _) = s {
                        sym.declare_type(nm, *t);
                    }
                }
                Stmt::BlockData(nm) => {
                    kind = UnitKind::BlockData;
                    uname = nm.clone().unwrap_or_else(|| "BLOCK DATA".into());
                }
                Stmt::Entry(_, d) => {
                    for a in d {
                        sym.entry(a).dummy = true;
                    }
                }
                Stmt::TypeDecl(t, ents) => {
                    for e in ents {
                        sym.declare_type(&e.name, *t);
                        if let Some(d) = &e.dims {
                            sym.entry(&e.name).rank = Some(d.len());
                        }
                    }
                }
                Stmt::Dimension(ents) => {
                    for e in ents {
                        if let Some(d) = &e.dims {
                            sym.entry(&e.name).rank = Some(d.len());
                        }
                    }
                }
                Stmt::Common(blocks) => {
                    for (b, ents) in blocks {
                        for e in ents {
                            let s = sym.entry(&e.name);
                            s.common = Some(b.clone());
                            if let Some(d) = &e.dims {
                                s.rank = Some(d.len());
                            }
                        }
                    }
                }
                Stmt::Parameter(list) => {
                    for (nm, v) in list {
                        sym.entry(nm).parameter = Some(v.clone());
                    }
                }
                Stmt::Implicit(imp) => sym.apply_implicit(imp),
                Stmt::External(ns) => {
                    for nm in ns {
                        sym.entry(nm).external = true;
                    }
                }
                Stmt::Intrinsic(ns) => {
                    for nm in ns {
                        sym.entry(nm).intrinsic = true;
                    }
                }
                _ => {}
            }
        }
        // Statement function definitions: `F(A,B) = expr` before the first executable.
        let mut s = s;
        if let Some(Stmt::Assignment(SExpr::Apply(nm, args), body)) = &s {
            let plain_args: Option<Vec<String>> = args
                .iter()
                .map(|a| match a {
                    Arg::Expr(SExpr::Name(d)) => Some(d.clone()),
                    _ => None,
                })
                .collect();
            if in_spec && !sym.is_array(nm) {
                if let Some(d) = plain_args {
                    sym.entry(nm).statement_function = Some((d, body.clone()));
                    s = Some(Stmt::NoCost("statement function"));
                }
            }
        }
        let exec = s.as_ref().is_some_and(is_executable);
        let decl_candidate = match &s {
            Some(Stmt::NoCost(k)) => *k == "DATA" || *k == "statement function",
            Some(Stmt::End) => true,
            Some(other) => exec && !matches!(other, Stmt::Format),
            None => false,
        };
        if decl_candidate && decl_at.is_none() {
            decl_at = Some(first_stmt + idx_here);
        }
        if exec && !matches!(s, Some(Stmt::End)) {
            in_spec = false;
        }
        let is_end = matches!(s, Some(Stmt::End));
        parsed.push((k, s));
        k += 1;
        if is_end {
            break;
        }
    }
    if uname.is_empty() {
        uname = match kind {
            UnitKind::Main => "MAIN".into(),
            _ => "?".into(),
        };
    }

    // Pass 2: lower and count; build blocks and probes.
    let mut lw = Lower {
        sym: &sym,
        subst: Vec::new(),
        active: Vec::new(),
        warnings: Vec::new(),
        assigned: None,
        data_dependent: false,
    };
    // Labels that end labeled DO loops (their terminal statements).
    let do_terminals: HashSet<u32> = parsed
        .iter()
        .filter_map(|(_, s)| match s {
            Some(Stmt::Do(Some(l), _)) | Some(Stmt::DoWhile(Some(l), _)) => Some(*l),
            _ => None,
        })
        .collect();
    // Labels something may jump to; an I/O statement with ERR=/END= may jump to any.
    let mut targets = HashSet::new();
    let mut any_label_is_target = false;
    for (src, s) in &parsed {
        if let Some(s) = s {
            jump_targets(s, &mut targets);
            if matches!(s, Stmt::Io(..)) && io_may_jump(&prog.files[fi].statements[*src].text) {
                any_label_is_target = true;
            }
        } else {
            // An unparsed statement may jump anywhere.
            any_label_is_target = true;
        }
    }
    let is_target = |l: u32| any_label_is_target || targets.contains(&l);
    let mut cur: Option<usize> = None;
    // The fall-through of a logical IF whose consequent always jumps runs (block - taken)
    // times: no counter needed. Such derived blocks get ids counted down from usize::MAX.
    let mut cur_mult: Option<Mult> = None;
    let mut need_new = true;
    // Open block IF constructs: (tests of the next condition, last branch probe).
    let mut ifs: Vec<(Mult, Option<usize>)> = Vec::new();
    for (src, s) in parsed {
        let sidx = prog.stmts.len();
        let st = &prog.files[fi].statements[src];
        let label = st.label;
        let mut info = StmtInfo {
            file: fi,
            src,
            unit: unit_idx,
            executable: s.as_ref().is_some_and(is_executable),
            stmt: None,
            parts: Vec::new(),
            static_counts: OpCounts::new(),
            exec: None,
            consequent: None,
            do_terminal: label.is_some_and(|l| do_terminals.contains(&l)),
            block: None,
            assignment: None,
            data_dependent: false,
        };
        let Some(s) = s else {
            prog.stmts.push(info);
            continue;
        };
        if info.executable && kind != UnitKind::BlockData {
            // A DO loop's terminal CONTINUE costs nothing: no counter, so the DO statement
            // need not be relabeled in the instrumented copy.
            let placeable =
                probe_placeable(&s) && !(info.do_terminal && matches!(s, Stmt::Continue));
            if placeable && (need_new || label.is_some_and(is_target) || cur.is_none()) {
                prog.probes.push(Probe::Before(sidx));
                cur = Some(prog.probes.len() - 1);
                cur_mult = None;
                need_new = false;
            }
            if placeable {
                info.block = cur;
            }
            let block = cur_mult
                .clone()
                .unwrap_or_else(|| cur.map(one).unwrap_or_default());
            lw.assigned = None;
            lw.data_dependent = false;
            let own = counts_of(&mut lw, &s);
            info.assignment = lw.assigned.take();
            info.data_dependent = lw.data_dependent;
            info.static_counts += &own;
            match &s {
                Stmt::Do(_, ctl) => {
                    let unit = do_unit_step(&mut lw, ctl);
                    prog.probes.push(Probe::After(sidx));
                    let iter = prog.probes.len() - 1;
                    let it = rules::count_do_iteration(unit);
                    info.static_counts += &it;
                    info.parts.push(Part {
                        counts: own,
                        mult: block.clone(),
                    });
                    info.parts.push(Part {
                        counts: it,
                        mult: one(iter),
                    });
                    info.exec = Some(block);
                    cur = Some(iter);
                    cur_mult = None;
                    need_new = false;
                }
                Stmt::DoWhile(..) => {
                    prog.probes.push(Probe::After(sidx));
                    let iter = prog.probes.len() - 1;
                    let it = rules::count_do_while_iteration();
                    info.static_counts += &it;
                    let mut tests = block.clone();
                    tests.push((1, iter));
                    info.parts.push(Part {
                        counts: own,
                        mult: tests,
                    });
                    info.parts.push(Part {
                        counts: it,
                        mult: one(iter),
                    });
                    info.exec = Some(block);
                    cur = Some(iter);
                    cur_mult = None;
                    need_new = false;
                }
                Stmt::LogicalIf(_, inner, _) => {
                    prog.probes.push(Probe::Consequent(sidx));
                    let cq = prog.probes.len() - 1;
                    let inner_counts = counts_of(&mut lw, inner);
                    info.assignment = lw.assigned.take();
                    info.static_counts += &inner_counts;
                    info.parts.push(Part {
                        counts: own,
                        mult: block.clone(),
                    });
                    info.parts.push(Part {
                        counts: inner_counts,
                        mult: one(cq),
                    });
                    let jumps = matches!(
                        **inner,
                        Stmt::Goto(_)
                            | Stmt::AssignedGoto(..)
                            | Stmt::ArithIf(..)
                            | Stmt::Return(_)
                            | Stmt::Stop
                    );
                    if jumps && !info.do_terminal {
                        cur_mult = Some(sub(&block, &one(cq)));
                        cur = Some(usize::MAX - sidx);
                        need_new = false;
                    } else {
                        need_new = ends_block(&s, &st.text) || info.do_terminal;
                    }
                    info.exec = Some(block);
                    info.consequent = Some(one(cq));
                }
                Stmt::BlockIf(_) => {
                    prog.probes.push(Probe::After(sidx));
                    let taken = prog.probes.len() - 1;
                    info.parts.push(Part {
                        counts: own,
                        mult: block.clone(),
                    });
                    info.exec = Some(block.clone());
                    ifs.push((block, Some(taken)));
                    cur = Some(taken);
                    cur_mult = None;
                    need_new = false;
                }
                Stmt::ElseIf(_) | Stmt::Else => {
                    let tests = match ifs.last() {
                        Some((t, Some(prev))) => sub(t, &one(*prev)),
                        Some((t, None)) => t.clone(),
                        None => {
                            prog.diagnostics.push(Diagnostic::warning(
                                &path,
                                st.first_line() + 1,
                                7,
                                "ELSE without IF ... THEN",
                                &prog.files[fi].lines[st.first_line() as usize],
                            ));
                            Vec::new()
                        }
                    };
                    prog.probes.push(Probe::After(sidx));
                    let taken = prog.probes.len() - 1;
                    if matches!(s, Stmt::ElseIf(_)) {
                        info.parts.push(Part {
                            counts: own,
                            mult: tests.clone(),
                        });
                        info.exec = Some(tests.clone());
                    }
                    if let Some(top) = ifs.last_mut() {
                        *top = (tests, Some(taken));
                    }
                    cur = Some(taken);
                    cur_mult = None;
                    need_new = false;
                }
                Stmt::EndIf => {
                    ifs.pop();
                    need_new = true;
                }
                _ => {
                    if !own.is_empty() || placeable {
                        info.parts.push(Part {
                            counts: own,
                            mult: block.clone(),
                        });
                    }
                    if placeable && !matches!(s, Stmt::End) {
                        info.exec = Some(block);
                    }
                    if ends_block(&s, &st.text) || info.do_terminal {
                        need_new = true;
                    }
                }
            }
        }
        info.stmt = Some(s);
        prog.stmts.push(info);
    }
    for w in std::mem::take(&mut lw.warnings)
        .into_iter()
        .collect::<HashSet<_>>()
    {
        prog.diagnostics.push(Diagnostic::warning(
            &path,
            0,
            0,
            &format!("in {uname}: {w}"),
            "",
        ));
    }
    let end = prog.stmts.len();
    find_trip_counts(prog, &mut lw, first_stmt, end);
    prog.units.push(UnitInfo {
        name: uname,
        kind,
        file: fi,
        first: first_stmt,
        end,
        decl_at: decl_at.unwrap_or(end.saturating_sub(1)),
        labels,
    });
    k
}

/// Fortran text of an expression, fully parenthesized (for generated statements).
pub fn sexpr_text(e: &SExpr) -> String {
    fn args_text(args: &[Arg]) -> String {
        args.iter()
            .map(|a| match a {
                Arg::Expr(e) => sexpr_text(e),
                Arg::Keyword(k, e) => format!("{k}={}", sexpr_text(e)),
                Arg::Range(lo, hi) => format!(
                    "{}:{}",
                    lo.as_ref().map(sexpr_text).unwrap_or_default(),
                    hi.as_ref().map(sexpr_text).unwrap_or_default()
                ),
                Arg::AltReturn(l) => format!("*{l}"),
            })
            .collect::<Vec<_>>()
            .join(",")
    }
    match e {
        SExpr::Int(t) | SExpr::Real { text: t, .. } => t.clone(),
        SExpr::Logical(b) => if *b { ".TRUE." } else { ".FALSE." }.to_string(),
        SExpr::Str(s) => format!("'{}'", s.replace('\'', "''")),
        SExpr::Complex(a, b) => format!("({},{})", sexpr_text(a), sexpr_text(b)),
        SExpr::Name(n) => n.clone(),
        SExpr::Apply(n, args) => format!("{n}({})", args_text(args)),
        SExpr::Substring(b, lo, hi) => format!(
            "{}({}:{})",
            sexpr_text(b),
            lo.as_deref().map(sexpr_text).unwrap_or_default(),
            hi.as_deref().map(sexpr_text).unwrap_or_default()
        ),
        SExpr::Unary(op, x) => {
            let o = match op {
                UOp::Neg => "-",
                UOp::Plus => "+",
                UOp::Not => ".NOT.",
            };
            format!("({o}{})", sexpr_text(x))
        }
        SExpr::Binary(op, l, r) => {
            let o = match op {
                BOp::Add => "+",
                BOp::Sub => "-",
                BOp::Mul => "*",
                BOp::Div => "/",
                BOp::Pow => "**",
                BOp::Concat => "//",
                BOp::Eq => ".EQ.",
                BOp::Ne => ".NE.",
                BOp::Lt => ".LT.",
                BOp::Le => ".LE.",
                BOp::Gt => ".GT.",
                BOp::Ge => ".GE.",
                BOp::And => ".AND.",
                BOp::Or => ".OR.",
                BOp::Eqv => ".EQV.",
                BOp::Neqv => ".NEQV.",
            };
            format!("({}{o}{})", sexpr_text(l), sexpr_text(r))
        }
        SExpr::Paren(x) => format!("({})", sexpr_text(x)),
    }
}

/// An integer expression that can be evaluated again without side effects.
fn pure_integer(e: &Expr) -> bool {
    fn pure(e: &Expr) -> bool {
        match e {
            Expr::Constant { .. } | Expr::Variable(_) => true,
            Expr::Element { subscripts, .. } => subscripts.iter().all(pure),
            Expr::Paren(x) | Expr::Unary { operand: x, .. } => pure(x),
            Expr::Arith { lhs, rhs, .. } => pure(lhs) && pure(rhs),
            Expr::Intrinsic { args, .. } => args.iter().all(pure),
            _ => false,
        }
    }
    e.ty() == Type::Integer && pure(e)
}

/// Can control leave the statements `body` other than by falling off their end (a jump to a
/// label outside, RETURN, STOP, alternate return, I/O with ERR=/END=, an unparsed statement)?
fn may_exit(prog: &Program, body: std::ops::RangeInclusive<usize>) -> bool {
    let inside: HashSet<u32> = body
        .clone()
        .filter_map(|k| prog.statement(k).label)
        .collect();
    body.into_iter().any(|k| {
        let Some(s) = &prog.stmts[k].stmt else {
            return true;
        };
        let s = match s {
            Stmt::LogicalIf(_, inner, _) => inner.as_ref(),
            other => other,
        };
        let mut t = HashSet::new();
        jump_targets(s, &mut t);
        matches!(
            s,
            Stmt::Return(_) | Stmt::Stop | Stmt::Entry(..) | Stmt::AssignedGoto(..)
        ) || (matches!(s, Stmt::Io(..)) && io_may_jump(&prog.statement(k).text))
            || t.iter().any(|l| !inside.contains(l))
    })
}

/// Mark the DO loops of statements `first..end` whose iterations can be counted at entry.
fn find_trip_counts(prog: &mut Program, lw: &mut Lower, first: usize, end: usize) {
    for d in first..end {
        let Some(Stmt::Do(label, ctl)) = prog.stmts[d].stmt.clone() else {
            continue;
        };
        // The loop's last statement: the labeled terminal, or the matching END DO.
        let last = match label {
            Some(l) => (d + 1..end).find(|&k| prog.statement(k).label == Some(l)),
            None => {
                let mut depth = 0usize;
                (d + 1..end).find(|&k| match &prog.stmts[k].stmt {
                    Some(Stmt::Do(None, _) | Stmt::DoWhile(None, _)) => {
                        depth += 1;
                        false
                    }
                    Some(Stmt::EndDo) if depth == 0 => true,
                    Some(Stmt::EndDo) => {
                        depth -= 1;
                        false
                    }
                    _ => false,
                })
            }
        };
        let Some(last) = last else { continue };
        // MAX0 must be the intrinsic in this unit.
        let var_int =
            lw.sym.type_of(&ctl.var) == Some(Type::Integer) && lw.sym.get("MAX0").is_none();
        let bounds: Vec<&SExpr> = [Some(&ctl.start), Some(&ctl.end), ctl.step.as_ref()]
            .into_iter()
            .flatten()
            .collect();
        let pure = bounds.iter().all(|b| pure_integer(&lw.expr(b)));
        if !var_int || !pure || may_exit(prog, d + 1..=last) {
            continue;
        }
        let Some(iter_probe) = prog.probes.iter().position(|p| *p == Probe::After(d)) else {
            continue;
        };
        let (m1, m2) = (sexpr_text(&ctl.start), sexpr_text(&ctl.end));
        let text = match &ctl.step {
            None => format!("MAX0(0,{m2}-{m1}+1)"),
            Some(m3) => {
                let m3 = sexpr_text(m3);
                format!("MAX0(0,({m2}-{m1}+{m3})/{m3})")
            }
        };
        prog.trip_counts.insert(iter_probe, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source;
    use model::Param;

    fn prog(src: &str) -> Program {
        analyze(vec![source::split("t.f", 0, src, 72)])
    }

    fn total(p: &Program) -> OpCounts {
        let mut c = OpCounts::new();
        for s in &p.stmts {
            c += &s.static_counts;
        }
        c
    }

    #[test]
    fn statement_function_is_substituted_not_called() {
        let p = prog("      REAL X, Y\n      F(A) = A * A + 1.0\n      Y = F(X)\n      END\n");
        let c = total(&p);
        assert_eq!(c.get(Param::MRSL), 1);
        assert_eq!(c.get(Param::ARSL), 1);
        assert_eq!(c.get(Param::SRSL), 1);
        assert_eq!(c.get(Param::PROC), 0);
    }

    #[test]
    fn common_members_are_global_and_implicit_double_applies() {
        let p = prog(
            "      IMPLICIT REAL*8 (A-H,O-Z)\n      COMMON /B/ G\n      X = G + Y\n      END\n",
        );
        let c = total(&p);
        assert_eq!(c.get(Param::SRDL), 1);
        assert_eq!(c.get(Param::ARDG), 1);
    }

    #[test]
    fn blocks_and_probes() {
        let p = prog(
            "      DO 10 I = 1, N\n      X = X + 1\n      IF (X .GT. 2) Y = 1\n   10 CONTINUE\n      END\n",
        );
        // DO block, DO iteration, logical IF consequent; the terminal CONTINUE needs none.
        assert_eq!(p.probes.len(), 3);
        assert!(p.stmts[3].do_terminal);
    }
}

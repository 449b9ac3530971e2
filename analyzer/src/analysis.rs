//! From statements to counts: program units and their symbol tables, lowering of every
//! executable statement to `model::expr` and counting it with `model::rules` only, and the
//! basic blocks with their counters (probes) for the dynamic counts (Saavedra-Barrera's section 5.2).
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
    /// The subroutine this statement calls (also as a logical IF's consequent) and its
    /// actual arguments, lowered (for rule 14's chains through a called subroutine).
    pub call: Option<(String, Vec<Expr>)>,
    /// An IF whose condition reads a variable, whose outcomes the simulated predictor
    /// watches: the parameter its misses cost (BMIS, or BMIR on a floating-point compare;
    /// rule 15).
    pub branch_miss: Option<model::Param>,
    /// Its condition reads array data (rule 15's count without a simulation).
    pub branch_on_array: bool,
    /// An IF's condition, lowered, for rule 14's chains through the functions it references.
    pub condition: Option<Expr>,
}

impl StmtInfo {
    /// An IF whose outcomes the simulated predictor watches, whose misses count (rule 15).
    pub fn data_dependent(&self) -> bool {
        self.branch_miss.is_some()
    }
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
    /// Names that are not references to other units here: arrays, dummy arguments,
    /// statement functions, COMMON members, and every name a statement function's body reads.
    pub local_names: HashSet<String>,
    /// The unit's symbol table (types, array bounds, PARAMETER constants), for the memory
    /// traffic of its loops (`crate::traffic`).
    pub symbols: Symbols,
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
    /// Unit entry probes whose counts come from the call sites (no counter in the copy).
    pub derived_probes: HashSet<usize>,
    /// GO TO loops whose per-iteration counter the copy derives from an induction variable,
    /// and loop exits whose counts follow from the other counters.
    pub loops: crate::induction::Loops,
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

pub(crate) fn sub(a: &Mult, b: &Mult) -> Mult {
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
    /// The last CALL `counts_of` lowered: the subroutine and its actual arguments.
    called: Option<(String, Vec<Expr>)>,
    /// The branch-miss parameter of the last condition `counts_of` lowered, when it reads a
    /// variable, and whether it reads array data (rule 15).
    branch_miss: Option<model::Param>,
    branch_on_array: bool,
    /// The last IF condition `counts_of` lowered.
    condition: Option<Expr>,
    /// The variable of the innermost DO loop open at the statement being lowered, when its
    /// step is 1 (rule 18).
    loop_var: Option<String>,
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
        let dummy = self.sym.get(name).is_some_and(|s| s.dummy);
        let ty = self.ty(name);
        Operand {
            name: name.to_string(),
            ty,
            // Rule 13c: a `CHARACTER*n` datum's length (None for `CHARACTER*(*)`).
            length: (ty == Type::Character)
                .then(|| self.sym.element_bytes(name))
                .flatten(),
            global: self.sym.is_global(name),
            dummy,
            // Rule 18: a dummy's size is the caller's business.
            large: !dummy
                && self
                    .sym
                    .array_bytes(name)
                    .is_some_and(|b| b > model::rules::LARGE_ARRAY_BYTES),
        }
    }

    fn args(&mut self, args: &[Arg]) -> Vec<Expr> {
        args.iter()
            .filter_map(|a| match a {
                Arg::Expr(e) | Arg::Keyword(_, e) => Some(self.expr(e)),
                Arg::Range(lo, hi) => {
                    let parts = lo.iter().chain(hi.iter()).map(|e| self.expr(e)).collect();
                    Some(Expr::Opaque {
                        kind: "character range".into(),
                        ty: Type::Character,
                        parts,
                    })
                }
                Arg::AltReturn(_) => None,
            })
            .collect()
    }

    /// Lowers an expression. A thin dispatcher, each form in its own function: this recursion
    /// is as deep as the expression tree (up to `parse::MAX_TREE_DEPTH`), so every level
    /// should take little stack.
    fn expr(&mut self, e: &SExpr) -> Expr {
        match e {
            SExpr::Int(_) | SExpr::Real { .. } | SExpr::Logical(_) | SExpr::Str(_) => literal(e),
            SExpr::Complex(a, b) => self.complex(a, b),
            SExpr::Name(n) => self.name(n),
            SExpr::Apply(n, args) => self.apply(n, args),
            SExpr::Substring(base, lo, hi) => self.substring(base, lo, hi),
            SExpr::Unary(op, x) => self.unary(*op, x),
            SExpr::Binary(op, l, r) => self.binary(*op, l, r),
            SExpr::Paren(x) => Expr::Paren(Box::new(self.expr(x))),
        }
    }

    fn complex(&mut self, a: &SExpr, b: &SExpr) -> Expr {
        let (a, b) = (self.expr(a), self.expr(b));
        let ty = match Type::promote(a.ty(), b.ty()) {
            Type::Double => Type::DoubleComplex,
            _ => Type::Complex,
        };
        if a.is_constant() && b.is_constant() {
            Expr::Constant {
                text: format!("({a},{b})"),
                ty,
            }
        } else {
            Expr::Opaque {
                kind: "complex constructor".into(),
                ty,
                parts: vec![a, b],
            }
        }
    }

    fn name(&mut self, n: &str) -> Expr {
        // A statement function's body sees its own dummies only.
        if let Some(v) = self.subst.last().and_then(|scope| scope.get(n)) {
            return v.clone();
        }
        // Rule 13c: a character constant's length is its literal's, unless its declared one
        // pads or cuts it.
        if let Some(value @ SExpr::Str(text)) = self.sym.get(n).and_then(|s| s.parameter.as_ref()) {
            let declared = self.sym.get(n).is_some_and(|s| s.len.is_some());
            let length = self.sym.element_bytes(n).map(|l| l as usize);
            if !declared || length == Some(text.chars().count()) {
                return literal(value);
            }
        }
        if self.sym.get(n).is_some_and(|s| s.parameter.is_some()) {
            return Expr::Constant {
                text: n.to_string(),
                ty: self.ty(n),
            };
        }
        Expr::Variable(self.operand(n))
    }

    fn substring(
        &mut self,
        base: &SExpr,
        lo: &Option<Box<SExpr>>,
        hi: &Option<Box<SExpr>>,
    ) -> Expr {
        let base = self.expr(base);
        self.substring_of(base, lo.as_deref(), hi.as_deref())
    }

    /// `base(lo:hi)` with its bounds lowered (rule 13c's shape).
    fn substring_of(&mut self, base: Expr, lo: Option<&SExpr>, hi: Option<&SExpr>) -> Expr {
        let first = lo.map(|e| self.expr(e));
        let last = hi.map(|e| self.expr(e));
        model::rules::substring(base, first, last)
    }

    fn unary(&mut self, op: UOp, x: &SExpr) -> Expr {
        Expr::Unary {
            op: match op {
                UOp::Neg => UnaryOp::Neg,
                UOp::Plus => UnaryOp::Plus,
                UOp::Not => UnaryOp::Not,
            },
            operand: Box::new(self.expr(x)),
        }
    }

    fn binary(&mut self, op: BOp, l: &SExpr, r: &SExpr) -> Expr {
        let (l, r) = (self.expr(l), self.expr(r));
        match op {
            BOp::Add => Expr::arith(ArithOp::Add, l, r),
            BOp::Sub => Expr::arith(ArithOp::Sub, l, r),
            BOp::Mul => Expr::arith(ArithOp::Mul, l, r),
            BOp::Div => Expr::arith(ArithOp::Div, l, r),
            BOp::Pow => Expr::arith(ArithOp::Pow, l, r),
            BOp::Concat => Expr::arith(ArithOp::Concat, l, r),
            BOp::Eq => Expr::compare(RelOp::Eq, l, r),
            BOp::Ne => Expr::compare(RelOp::Ne, l, r),
            BOp::Lt => Expr::compare(RelOp::Lt, l, r),
            BOp::Le => Expr::compare(RelOp::Le, l, r),
            BOp::Gt => Expr::compare(RelOp::Gt, l, r),
            BOp::Ge => Expr::compare(RelOp::Ge, l, r),
            BOp::And => Expr::logic(LogicOp::And, l, r),
            BOp::Or => Expr::logic(LogicOp::Or, l, r),
            BOp::Eqv => Expr::logic(LogicOp::Eqv, l, r),
            BOp::Neqv => Expr::logic(LogicOp::Neqv, l, r),
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
        if let [Arg::Range(lo, hi)] = args {
            let base = Expr::Variable(self.operand(n));
            return self.substring_of(base, lo.as_ref(), hi.as_ref());
        }
        if is_range {
            // Not one substring: its bounds are its parts (not a substring each).
            let mut parts = vec![Expr::Variable(self.operand(n))];
            for a in args {
                match a {
                    Arg::Range(lo, hi) => {
                        parts.extend(lo.iter().chain(hi.iter()).map(|e| self.expr(e)))
                    }
                    Arg::Expr(e) | Arg::Keyword(_, e) => parts.push(self.expr(e)),
                    Arg::AltReturn(_) => {}
                }
            }
            return Expr::Opaque {
                kind: "character reference".into(),
                ty: Type::Character,
                parts,
            };
        }
        let args_l = self.args(args);
        // A name declared INTRINSIC is one even when the table does not know it (a compiler's
        // extension): counted as an uncharacterized intrinsic, not as a call of the program's.
        if !sym.external && (sym.intrinsic || model::intrinsics::lookup(n).is_some()) {
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
/// A constant as written.
fn literal(e: &SExpr) -> Expr {
    let (text, ty) = match e {
        SExpr::Int(t) => (t.clone(), Type::Integer),
        SExpr::Real { text, double } => (
            text.clone(),
            if *double { Type::Double } else { Type::Real },
        ),
        SExpr::Logical(true) => (".TRUE.".into(), Type::Logical),
        SExpr::Logical(false) => (".FALSE.".into(), Type::Logical),
        SExpr::Str(s) => (format!("'{s}'"), Type::Character),
        _ => (String::new(), Type::Integer),
    };
    Expr::Constant { text, ty }
}

fn counts_of(lw: &mut Lower, s: &Stmt) -> OpCounts {
    match s {
        Stmt::Assignment(t, v) => {
            let t = lw.target(t);
            let v = lw.expr(v);
            let c = rules::count_assignment_in(&t, &v, lw.loop_var.as_deref());
            lw.assigned = Some((t, v));
            c
        }
        Stmt::AssignLabel(_, var) => rules::count_assign_label(&lw.operand(var)),
        Stmt::Goto(_) => rules::count_goto(),
        Stmt::ComputedGoto(_, e) | Stmt::ArithIf(e, _) => {
            let e = lw.expr(e);
            lw.branch_miss = rules::multiway_miss_param(&e, matches!(s, Stmt::ArithIf(..)));
            rules::count_multiway_branch(Some(&e))
        }
        Stmt::AssignedGoto(..) => rules::count_multiway_branch(None),
        Stmt::BlockIf(c) | Stmt::ElseIf(c) | Stmt::LogicalIf(c, _, _) | Stmt::DoWhile(_, c) => {
            let cond = lw.expr(c);
            lw.branch_miss = rules::branch_miss_param(&cond);
            lw.branch_on_array = rules::reads_array(&cond);
            let counts = rules::count_condition(&cond);
            if !matches!(s, Stmt::DoWhile(..)) {
                lw.condition = Some(cond);
            }
            counts
        }
        Stmt::Call(name, args) => {
            let a = lw.args(args);
            let c = rules::count_call(&a);
            lw.called = Some((name.clone(), a));
            c
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

/// Keywords that begin the statements before a unit's first executable statement (unit
/// headers, specifications, DATA, FORMAT, ENTRY), common extensions included.
const NOT_EXECUTABLE_KEYWORDS: &[&str] = &[
    "PROGRAM",
    "SUBROUTINE",
    "FUNCTION",
    "BLOCKDATA",
    "ENTRY",
    "FORMAT",
    "IMPLICIT",
    "INTEGER",
    "REAL",
    "DOUBLE",
    "COMPLEX",
    "LOGICAL",
    "CHARACTER",
    "BYTE",
    "DIMENSION",
    "COMMON",
    "PARAMETER",
    "EXTERNAL",
    "INTRINSIC",
    "SAVE",
    "EQUIVALENCE",
    "DATA",
    "NAMELIST",
    "POINTER",
    "STRUCTURE",
    "RECORD",
    "UNION",
    "MAP",
    "ENDSTRUCTURE",
    "ENDUNION",
    "ENDMAP",
    "AUTOMATIC",
    "STATIC",
    "VOLATILE",
    "INCLUDE",
];

/// Whether a statement the parser could not read is executable, judged by its first word: the
/// counters' declarations must go before it if it is (gfortran refuses a declaration after an
/// executable statement), after it if it declares something.
fn unparsed_is_executable(text: &str) -> bool {
    !NOT_EXECUTABLE_KEYWORDS.iter().any(|k| text.starts_with(k))
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

pub(crate) fn io_may_jump(text: &str) -> bool {
    text.contains("ERR=") || text.contains("END=") || text.contains("EOR=")
}

/// Labels that control can jump to (branch targets, ASSIGNed labels, alternate returns).
pub(crate) fn jump_targets(s: &Stmt, out: &mut HashSet<u32>) {
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
        derived_probes: HashSet::new(),
        loops: Default::default(),
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
    derive_unit_entries(&mut prog);
    prog.loops = crate::induction::find(&prog);
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
    let first_stmt = prog.stmts.len();
    let ParsedUnit {
        parsed,
        sym,
        kind,
        name,
        labels,
        decl_at,
        next,
    } = read_unit(prog, fi, start);
    let mut lw = Lower::new(&sym);
    let unit = UnitContext {
        fi,
        unit: prog.units.len(),
        kind,
        jumps: Jumps::of(prog, fi, &parsed, first_stmt),
    };
    let mut blocks = Blocks::default();
    for (src, s) in parsed {
        count_statement(prog, &unit, &mut lw, &mut blocks, src, s);
    }
    let path = prog.files[fi].path.clone();
    for w in std::mem::take(&mut lw.warnings)
        .into_iter()
        .collect::<HashSet<_>>()
    {
        prog.diagnostics.push(Diagnostic::warning(
            &path,
            0,
            0,
            &format!("in {name}: {w}"),
            "",
        ));
    }
    let end = prog.stmts.len();
    resolve_placeholders(prog, blocks.pending, first_stmt..end);
    find_trip_counts(prog, &mut lw, first_stmt, end);
    prog.units.push(UnitInfo {
        name,
        kind,
        file: fi,
        first: first_stmt,
        end,
        decl_at: decl_at.unwrap_or(end.saturating_sub(1)),
        labels,
        local_names: local_names(&sym),
        symbols: sym,
    });
    next
}

/// The names a unit's generated statements must not reuse: its arrays, dummies, COMMON
/// variables and statement functions, and the names in statement-function bodies.
fn local_names(sym: &Symbols) -> HashSet<String> {
    sym.names
        .iter()
        .filter(|(_, v)| {
            v.rank.is_some() || v.dummy || v.common.is_some() || v.statement_function.is_some()
        })
        .map(|(n, _)| n.clone())
        .chain(
            sym.names
                .values()
                .filter_map(|v| {
                    let (_, body) = v.statement_function.as_ref()?;
                    let mut names = HashSet::new();
                    sexpr_names(body, &mut names);
                    Some(names)
                })
                .flatten(),
        )
        .collect()
}

/// A unit after pass 1: its statements parsed (source index, statement or None when it does
/// not parse) and what its declarations say.
struct ParsedUnit {
    parsed: Vec<(usize, Option<Stmt>)>,
    sym: Symbols,
    kind: UnitKind,
    name: String,
    labels: HashSet<u32>,
    /// Where declarations of generated variables go (index in `prog.stmts`).
    decl_at: Option<usize>,
    /// The statement after the unit's END.
    next: usize,
}

/// Pass 1: parse the unit starting at statement `start` of file `fi` and build its symbol table.
fn read_unit(prog: &mut Program, fi: usize, start: usize) -> ParsedUnit {
    let first_stmt = prog.stmts.len();
    let mut u = ParsedUnit {
        parsed: Vec::new(),
        sym: Symbols::default(),
        kind: UnitKind::Main,
        name: String::new(),
        labels: HashSet::new(),
        decl_at: None,
        next: start,
    };
    let mut in_spec = true;
    let n = prog.files[fi].statements.len();
    while u.next < n {
        let k = u.next;
        let st = &prog.files[fi].statements[k];
        if let Some(l) = st.label {
            u.labels.insert(l);
        }
        let exec_if_unparsed = unparsed_is_executable(&st.text);
        let mut s = parse_statement(prog, fi, k);
        if let Some(s) = &s {
            u.declare(s);
        }
        // Statement function definitions: `F(A,B) = expr` before the first executable.
        if in_spec && u.statement_function(&s) {
            s = Some(Stmt::NoCost("statement function"));
        }
        let exec = match &s {
            Some(s) => is_executable(s),
            None => exec_if_unparsed,
        };
        let decl_candidate = match &s {
            Some(Stmt::NoCost(k)) => *k == "DATA" || *k == "statement function",
            Some(Stmt::End) => true,
            Some(other) => exec && !matches!(other, Stmt::Format),
            None => exec,
        };
        if decl_candidate && u.decl_at.is_none() {
            u.decl_at = Some(first_stmt + u.parsed.len());
        }
        if exec && !matches!(s, Some(Stmt::End)) {
            in_spec = false;
        }
        let is_end = matches!(s, Some(Stmt::End));
        u.parsed.push((k, s));
        u.next += 1;
        if is_end {
            break;
        }
    }
    if u.name.is_empty() {
        u.name = match u.kind {
            UnitKind::Main => "MAIN".into(),
            _ => "?".into(),
        };
    }
    u
}

/// Parse statement `k` of file `fi`: None (with an error) when it does not parse; a warning
/// for an INCLUDE, which is not followed.
fn parse_statement(prog: &mut Program, fi: usize, k: usize) -> Option<Stmt> {
    let file = &prog.files[fi];
    let st = &file.statements[k];
    let s = match parse::statement(&st.text) {
        Ok(s) => Some(s),
        Err(f) => {
            let (line, col) = st.position(f.offset);
            prog.diagnostics.push(Diagnostic::error(
                &file.path,
                line,
                col,
                &format!("{}; skipped", f.message()),
                &file.lines[st.first_line() as usize],
            ));
            prog.skipped += 1;
            None
        }
    };
    if let Some(Stmt::NoCost("INCLUDE")) = &s {
        prog.diagnostics.push(Diagnostic::warning(
            &file.path,
            st.first_line() + 1,
            7,
            "INCLUDE is not followed: declarations in the included file (COMMON, types) are not seen, so counts may use implicit types and local storage",
            &file.lines[st.first_line() as usize],
        ));
    }
    s
}

impl ParsedUnit {
    /// Record what a unit header or a specification statement says.
    fn declare(&mut self, s: &Stmt) {
        let sym = &mut self.sym;
        match s {
            Stmt::Program(nm) => self.name = nm.clone(),
            Stmt::Subroutine(nm, d) | Stmt::Function(_, nm, d) => {
                self.kind = if matches!(s, Stmt::Subroutine(..)) {
                    UnitKind::Subroutine
                } else {
                    UnitKind::Function
                };
                self.name = nm.clone();
                for a in d {
                    sym.entry(a).dummy = true;
                }
                if let Stmt::Function(Some(t), nm, _) = s {
                    sym.declare_type(nm, *t);
                }
            }
            Stmt::BlockData(nm) => {
                self.kind = UnitKind::BlockData;
                self.name = nm.clone().unwrap_or_else(|| "BLOCK DATA".into());
            }
            Stmt::Entry(_, d) => {
                for a in d {
                    sym.entry(a).dummy = true;
                }
            }
            Stmt::TypeDecl(t, ents) => {
                for e in ents {
                    sym.declare_type(&e.name, *t);
                    sym.entry(&e.name).len = e.len.clone();
                    if let Some(d) = &e.dims {
                        sym.declare_dims(&e.name, d);
                    }
                }
            }
            Stmt::Dimension(ents) => {
                for e in ents {
                    if let Some(d) = &e.dims {
                        sym.declare_dims(&e.name, d);
                    }
                }
            }
            Stmt::Common(blocks) => {
                for (b, ents) in blocks {
                    for e in ents {
                        sym.entry(&e.name).common = Some(b.clone());
                        if let Some(d) = &e.dims {
                            sym.declare_dims(&e.name, d);
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

    /// Is `s` (in the specification part) the definition `F(A,B) = expr` of a statement
    /// function? Then it is recorded as one.
    fn statement_function(&mut self, s: &Option<Stmt>) -> bool {
        let Some(Stmt::Assignment(SExpr::Apply(nm, args), body)) = s else {
            return false;
        };
        let plain_args: Option<Vec<String>> = args
            .iter()
            .map(|a| match a {
                Arg::Expr(SExpr::Name(d)) => Some(d.clone()),
                _ => None,
            })
            .collect();
        match plain_args {
            Some(d) if !self.sym.is_array(nm) => {
                self.sym.entry(nm).statement_function = Some((d, body.clone()));
                true
            }
            _ => false,
        }
    }
}

impl<'a> Lower<'a> {
    fn new(sym: &'a Symbols) -> Self {
        Lower {
            sym,
            subst: Vec::new(),
            active: Vec::new(),
            warnings: Vec::new(),
            assigned: None,
            called: None,
            branch_miss: None,
            branch_on_array: false,
            condition: None,
            loop_var: None,
        }
    }
}

/// Where control can arrive in a unit: its labels and the statements that jump to them.
struct Jumps {
    /// Labels that end labeled DO loops (their terminal statements).
    do_terminals: HashSet<u32>,
    /// Labels something may jump to.
    targets: HashSet<u32>,
    /// An I/O statement with ERR=/END= or an unparsed statement may jump to any label.
    any_label_is_target: bool,
    /// Label -> the statements (indices in `prog.stmts`) that may jump to it.
    jumpers: HashMap<u32, Vec<usize>>,
    /// Labels reached by other jumps than `IF (...) GO TO label` (whose jumps the IF's
    /// consequent counter counts).
    other_jumps: HashSet<u32>,
}

impl Jumps {
    /// The jumps of `parsed`, a unit whose first statement will be `prog.stmts[first_stmt]`.
    fn of(prog: &Program, fi: usize, parsed: &[(usize, Option<Stmt>)], first_stmt: usize) -> Self {
        let mut j = Jumps {
            do_terminals: parsed
                .iter()
                .filter_map(|(_, s)| match s {
                    Some(Stmt::Do(Some(l), _)) | Some(Stmt::DoWhile(Some(l), _)) => Some(*l),
                    _ => None,
                })
                .collect(),
            targets: HashSet::new(),
            any_label_is_target: false,
            jumpers: HashMap::new(),
            other_jumps: HashSet::new(),
        };
        for (pos, (src, s)) in parsed.iter().enumerate() {
            let Some(s) = s else {
                // An unparsed statement may jump anywhere.
                j.any_label_is_target = true;
                continue;
            };
            let mut t = HashSet::new();
            jump_targets(s, &mut t);
            for l in t {
                j.jumpers.entry(l).or_default().push(first_stmt + pos);
                if !matches!(s, Stmt::LogicalIf(_, inner, _) if **inner == Stmt::Goto(l)) {
                    j.other_jumps.insert(l);
                }
            }
            jump_targets(s, &mut j.targets);
            if matches!(s, Stmt::Io(..)) && io_may_jump(&prog.files[fi].statements[*src].text) {
                j.any_label_is_target = true;
            }
        }
        j
    }

    fn is_target(&self, l: u32) -> bool {
        self.any_label_is_target || self.targets.contains(&l)
    }

    /// Control enters statements `range` only at its first statement, from outside, and
    /// leaves only by falling off its end: then the statement after it runs as often as the
    /// first (a block IF construct or a DO loop), and needs no counter of its own.
    fn single_entry_exit(&self, prog: &Program, range: std::ops::RangeInclusive<usize>) -> bool {
        let first = *range.start();
        !self.any_label_is_target
            && !may_exit(prog, range.clone())
            && range.clone().all(|k| {
                prog.statement(k).label.is_none_or(|l| {
                    self.jumpers.get(&l).is_none_or(|from| {
                        from.iter().all(|f| {
                            if k == first {
                                !range.contains(f)
                            } else {
                                range.contains(f)
                            }
                        })
                    })
                })
            })
    }
}

/// What pass 2 knows of the unit it walks.
struct UnitContext {
    fi: usize,
    /// The unit's index in `prog.units`.
    unit: usize,
    kind: UnitKind,
    jumps: Jumps,
}

/// The counting block of the statements being walked, and the constructs open around them.
#[derive(Default)]
struct Blocks {
    /// The current block's probe (or a placeholder or derived id).
    cur: Option<usize>,
    /// The fall-through of a logical IF whose consequent always jumps runs (block - taken)
    /// times: no counter needed. Such derived blocks get ids counted down from usize::MAX.
    cur_mult: Option<Mult>,
    /// The next placeable statement starts a block with its own counter.
    need_new: bool,
    ifs: Vec<OpenIf>,
    dos: Vec<OpenDo>,
    /// Blocks at labels reached only by `IF (...) GO TO label` and by falling in: their count
    /// is the fall-in's plus the IFs' consequents, known once the unit is read. Until then
    /// their mult is a placeholder id: (placeholder, fall-in mult, jumping IFs).
    pending: Vec<(usize, Mult, Vec<usize>)>,
    /// Whether the previous executable statement never falls through.
    after_jump: bool,
}

impl Blocks {
    /// The current block is counted by probe `p`.
    fn counted(&mut self, p: usize) {
        self.cur = Some(p);
        self.cur_mult = None;
        self.need_new = false;
    }

    /// The block after statement `sidx` runs `mult` times: derived, no counter.
    fn derived(&mut self, sidx: usize, mult: Mult) {
        self.cur = Some(usize::MAX - sidx);
        self.cur_mult = Some(mult);
        self.need_new = false;
    }

    /// How often the current block runs.
    fn mult(&self) -> Mult {
        self.cur_mult
            .clone()
            .unwrap_or_else(|| self.cur.map(one).unwrap_or_default())
    }

    /// Start a block at statement `sidx` when it needs one: a placeholder for a label reached
    /// only by conditional GO TOs and falling in, else a counter before it.
    fn enter(
        &mut self,
        prog: &mut Program,
        jumps: &Jumps,
        label: Option<u32>,
        sidx: usize,
        do_terminal: bool,
    ) {
        // The fall-in's count, when this statement starts a block reached only by
        // conditional GO TOs and falling in.
        let fall_in = match label {
            Some(l)
                if jumps.is_target(l)
                    && !jumps.any_label_is_target
                    && !jumps.other_jumps.contains(&l)
                    && !do_terminal =>
            {
                if self.after_jump {
                    Some(Vec::new())
                } else if !self.need_new {
                    self.cur_mult.clone().or_else(|| self.cur.map(one))
                } else {
                    None
                }
            }
            _ => None,
        };
        if let (Some(fall), Some(l)) = (fall_in, label) {
            let placeholder = usize::MAX / 2 - sidx;
            self.pending
                .push((placeholder, fall, jumps.jumpers[&l].clone()));
            self.cur = Some(placeholder);
            self.cur_mult = Some(one(placeholder));
            self.need_new = false;
        } else if self.need_new || label.is_some_and(|l| jumps.is_target(l)) || self.cur.is_none() {
            prog.probes.push(Probe::Before(sidx));
            self.counted(prog.probes.len() - 1);
        }
    }

    /// The DO loops that end at a statement: the loop of an END DO, or the labeled loops
    /// whose terminal it is (the outermost returned).
    fn end_dos(&mut self, s: &Stmt, label: Option<u32>, do_terminal: bool) -> Option<OpenDo> {
        match (s, label) {
            (Stmt::EndDo, _) => self.dos.pop(),
            (_, Some(l)) if do_terminal => {
                let mut outer = None;
                while self.dos.last().is_some_and(|d| d.label == Some(l)) {
                    outer = self.dos.pop();
                }
                outer
            }
            _ => None,
        }
    }
}

/// Pass 2 for one statement (source statement `src`, parsed as `s`): lower and count it,
/// place it in its block, add its probes, and push its [`StmtInfo`].
fn count_statement(
    prog: &mut Program,
    unit: &UnitContext,
    lw: &mut Lower,
    b: &mut Blocks,
    src: usize,
    s: Option<Stmt>,
) {
    let sidx = prog.stmts.len();
    let st = &prog.files[unit.fi].statements[src];
    let label = st.label;
    let ends = s.as_ref().is_some_and(|s| ends_block(s, &st.text));
    let mut info = StmtInfo {
        file: unit.fi,
        src,
        unit: unit.unit,
        executable: s.as_ref().is_some_and(is_executable),
        stmt: None,
        parts: Vec::new(),
        static_counts: OpCounts::new(),
        exec: None,
        consequent: None,
        do_terminal: label.is_some_and(|l| unit.jumps.do_terminals.contains(&l)),
        block: None,
        assignment: None,
        call: None,
        branch_miss: None,
        branch_on_array: false,
        condition: None,
    };
    let Some(s) = s else {
        prog.stmts.push(info);
        return;
    };
    if info.executable && unit.kind != UnitKind::BlockData {
        // A DO loop's terminal CONTINUE costs nothing: no counter, so the DO statement
        // need not be relabeled in the instrumented copy.
        let placeable = probe_placeable(&s) && !(info.do_terminal && matches!(s, Stmt::Continue));
        if placeable {
            b.enter(prog, &unit.jumps, label, sidx, info.do_terminal);
            info.block = b.cur;
        }
        let block = b.mult();
        lw.assigned = None;
        lw.called = None;
        lw.branch_miss = None;
        lw.branch_on_array = false;
        lw.condition = None;
        lw.loop_var = b.dos.last().and_then(|d| d.unit_var.clone());
        let own = counts_of(lw, &s);
        info.assignment = lw.assigned.take();
        info.call = lw.called.take();
        info.branch_miss = lw.branch_miss;
        info.branch_on_array = lw.branch_on_array;
        info.condition = lw.condition.take();
        info.static_counts += &own;
        let at = At {
            sidx,
            own,
            block,
            ends,
        };
        match &s {
            Stmt::Do(..) | Stmt::DoWhile(..) => do_statement(prog, lw, b, &mut info, &s, at),
            Stmt::LogicalIf(_, inner, _) => logical_if(prog, lw, b, &mut info, inner, at),
            Stmt::BlockIf(_) => block_if(prog, b, &mut info, at),
            Stmt::ElseIf(_) | Stmt::Else => else_branch(prog, b, &mut info, &s, src, at),
            Stmt::EndIf => {
                b.need_new = true;
                if let Some(open) = b.ifs.pop() {
                    if sidx > open.start
                        && unit.jumps.single_entry_exit(prog, open.start..=sidx - 1)
                    {
                        b.derived(sidx, open.entry);
                    }
                }
            }
            _ => {
                if !at.own.is_empty() || placeable {
                    info.parts.push(Part {
                        counts: at.own,
                        mult: at.block.clone(),
                    });
                }
                if placeable && !matches!(s, Stmt::End) {
                    info.exec = Some(at.block);
                }
                if ends || info.do_terminal {
                    b.need_new = true;
                }
            }
        }
    }
    let ended = b.end_dos(&s, label, info.do_terminal);
    if info.executable {
        b.after_jump = matches!(s, Stmt::Goto(_) | Stmt::Return(_) | Stmt::Stop);
    }
    info.stmt = Some(s);
    prog.stmts.push(info);
    if let Some(open) = ended {
        if unit.jumps.single_entry_exit(prog, open.start..=sidx) {
            b.derived(sidx, open.entry);
        }
    }
}

/// A statement being counted: its index in `prog.stmts`, its own counts, how often its block
/// runs, and whether control may leave it other than by falling through.
struct At {
    sidx: usize,
    own: OpCounts,
    block: Mult,
    ends: bool,
}

/// DO and DO WHILE: the statement opens a loop whose iterations a probe after it counts.
fn do_statement(
    prog: &mut Program,
    lw: &mut Lower,
    b: &mut Blocks,
    info: &mut StmtInfo,
    s: &Stmt,
    at: At,
) {
    let (label, unit_var, it, while_loop) = match s {
        Stmt::Do(label, ctl) => {
            let unit = do_unit_step(lw, ctl);
            let it = rules::count_do_iteration(unit);
            (label, unit.then(|| ctl.var.clone()), it, false)
        }
        Stmt::DoWhile(label, _) => (label, None, rules::count_do_while_iteration(), true),
        _ => unreachable!("a DO statement"),
    };
    b.dos.push(OpenDo {
        label: *label,
        start: at.sidx,
        entry: at.block.clone(),
        unit_var,
    });
    prog.probes.push(Probe::After(at.sidx));
    let iter = prog.probes.len() - 1;
    info.static_counts += &it;
    // A DO WHILE tests its condition on entry and before each iteration.
    let mut mult = at.block.clone();
    if while_loop {
        mult.push((1, iter));
    }
    info.parts.push(Part {
        counts: at.own,
        mult,
    });
    info.parts.push(Part {
        counts: it,
        mult: one(iter),
    });
    info.exec = Some(at.block);
    b.counted(iter);
}

/// `IF (cond) statement`: the consequent has its own probe; when it always jumps, the
/// fall-through is derived as (block - consequent).
fn logical_if(
    prog: &mut Program,
    lw: &mut Lower,
    b: &mut Blocks,
    info: &mut StmtInfo,
    inner: &Stmt,
    at: At,
) {
    prog.probes.push(Probe::Consequent(at.sidx));
    let cq = prog.probes.len() - 1;
    let inner_counts = counts_of(lw, inner);
    info.assignment = lw.assigned.take();
    info.call = lw.called.take();
    info.static_counts += &inner_counts;
    info.parts.push(Part {
        counts: at.own,
        mult: at.block.clone(),
    });
    info.parts.push(Part {
        counts: inner_counts,
        mult: one(cq),
    });
    let jumps = matches!(
        inner,
        Stmt::Goto(_) | Stmt::AssignedGoto(..) | Stmt::ArithIf(..) | Stmt::Return(_) | Stmt::Stop
    );
    if jumps && !info.do_terminal {
        b.derived(at.sidx, sub(&at.block, &one(cq)));
    } else {
        b.need_new = at.ends || info.do_terminal;
    }
    info.exec = Some(at.block);
    info.consequent = Some(one(cq));
}

/// `IF (cond) THEN`: opens a construct; its first branch has a probe.
fn block_if(prog: &mut Program, b: &mut Blocks, info: &mut StmtInfo, at: At) {
    prog.probes.push(Probe::After(at.sidx));
    let taken = prog.probes.len() - 1;
    info.parts.push(Part {
        counts: at.own,
        mult: at.block.clone(),
    });
    info.exec = Some(at.block.clone());
    b.ifs.push(OpenIf {
        tests: at.block.clone(),
        last: Some(taken),
        entry: at.block,
        start: at.sidx,
    });
    b.counted(taken);
}

/// ELSE IF (its condition runs when no earlier one held; its branch has a probe) and ELSE
/// (its block runs when no condition held: derived, no counter).
fn else_branch(
    prog: &mut Program,
    b: &mut Blocks,
    info: &mut StmtInfo,
    s: &Stmt,
    src: usize,
    at: At,
) {
    let tests = match b.ifs.last() {
        Some(OpenIf {
            tests: t,
            last: Some(prev),
            ..
        }) => sub(t, &one(*prev)),
        Some(OpenIf { tests: t, .. }) => t.clone(),
        None => {
            let file = &prog.files[info.file];
            let st = &file.statements[src];
            prog.diagnostics.push(Diagnostic::warning(
                &file.path,
                st.first_line() + 1,
                7,
                "ELSE without IF ... THEN",
                &file.lines[st.first_line() as usize],
            ));
            Vec::new()
        }
    };
    if matches!(s, Stmt::ElseIf(_)) {
        prog.probes.push(Probe::After(at.sidx));
        let taken = prog.probes.len() - 1;
        info.parts.push(Part {
            counts: at.own,
            mult: tests.clone(),
        });
        info.exec = Some(tests.clone());
        if let Some(top) = b.ifs.last_mut() {
            top.tests = tests;
            top.last = Some(taken);
        }
        b.counted(taken);
    } else {
        b.derived(at.sidx, tests);
    }
}

/// Derive the entry counter of each subroutine and function from its call sites: a unit
/// entered only by `CALL name` and by references `name(...)` outside logical operators (which
/// may skip them), never passed as an argument, runs as often as those statements do. Its
/// counter goes, and every count that used it uses the callers' counts instead.
fn derive_unit_entries(prog: &mut Program) {
    // Which statements name what, so each unit looks at its own call sites only.
    let mut naming: HashMap<String, Vec<usize>> = HashMap::new();
    let mut unparsed = Vec::new();
    for (k, st) in prog.stmts.iter().enumerate() {
        match &st.stmt {
            Some(s) => {
                let mut names = HashSet::new();
                stmt_names(s, &mut names);
                for n in names {
                    naming.entry(n).or_default().push(k);
                }
            }
            None => unparsed.push(k),
        }
    }
    let mut defs: HashMap<usize, Mult> = HashMap::new();
    for u in 0..prog.units.len() {
        let unit = &prog.units[u];
        if !matches!(unit.kind, UnitKind::Subroutine | UnitKind::Function) {
            continue;
        }
        let range = unit.first..unit.end;
        if range
            .clone()
            .any(|k| matches!(prog.stmts[k].stmt, Some(Stmt::Entry(..))))
        {
            continue;
        }
        // The entry probe: before the unit's first executable statement, not a jump target.
        let Some(first) = range.clone().find(|&k| prog.stmts[k].executable) else {
            continue;
        };
        let Some(entry) = prog.stmts[first].block else {
            continue;
        };
        if prog.probes.get(entry) != Some(&Probe::Before(first)) {
            continue;
        }
        if let Some(l) = prog.statement(first).label {
            let mut targets = HashSet::new();
            for k in range.clone() {
                match &prog.stmts[k].stmt {
                    Some(st) => jump_targets(st, &mut targets),
                    None => {
                        targets.insert(l);
                    }
                }
            }
            if targets.contains(&l) {
                continue;
            }
        }
        let sites = naming.get(&unit.name).map(Vec::as_slice).unwrap_or(&[]);
        if let Some(def) = call_sites(prog, &unit.name, sites, &unparsed) {
            defs.insert(entry, def);
        }
    }
    // Expand the definitions in one another; a cycle (recursion) keeps its counters.
    let mut resolved: HashMap<usize, Mult> = HashMap::new();
    for _ in 0..=defs.len() {
        let mut progress = false;
        for (&p, d) in &defs {
            if resolved.contains_key(&p) {
                continue;
            }
            if d.iter()
                .all(|(_, q)| !defs.contains_key(q) || resolved.contains_key(q))
            {
                let m = expand_mult(d, &resolved);
                resolved.insert(p, m);
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    if resolved.is_empty() {
        return;
    }
    for st in &mut prog.stmts {
        for part in &mut st.parts {
            part.mult = expand_mult(&part.mult, &resolved);
        }
        for m in [&mut st.exec, &mut st.consequent].into_iter().flatten() {
            *m = expand_mult(m, &resolved);
        }
    }
    prog.derived_probes = resolved.into_keys().collect();
}

/// Every reference of a statement to a subroutine or function of the program: (statement,
/// unit index, references per execution, executions). A reference under a logical operator
/// (which may skip it) is left out. The predictor charges a loop its callees' work (rule 14).
pub fn unit_references(prog: &Program) -> Vec<(usize, usize, usize, Mult)> {
    let mut out = Vec::new();
    for (k, st) in prog.stmts.iter().enumerate() {
        let Some(s) = &st.stmt else { continue };
        let mut names = HashSet::new();
        stmt_names(s, &mut names);
        for (u, unit) in prog.units.iter().enumerate() {
            if !matches!(unit.kind, UnitKind::Subroutine | UnitKind::Function)
                || !names.contains(&unit.name)
                || u == st.unit
                || prog.units[st.unit].local_names.contains(&unit.name)
            {
                continue;
            }
            for (n, mult) in references_by_part(st, s, &unit.name) {
                if let (Some(n @ 1..), Some(m)) = (n, mult) {
                    out.push((k, u, n, m.clone()));
                }
            }
        }
    }
    out
}

/// The references of statement `st` (`s`) to unit `name`, per part that runs a counted number
/// of times: the statement itself (a logical IF's condition alone) with its executions, and a
/// logical IF's consequent with its count. A count of None: a reference under a logical
/// operator, which may skip it.
fn references_by_part<'a>(
    st: &'a StmtInfo,
    s: &Stmt,
    name: &str,
) -> Vec<(Option<usize>, &'a Option<Mult>)> {
    match s {
        Stmt::LogicalIf(c, inner, _) => vec![
            (references(&Stmt::BlockIf(c.clone()), name), &st.exec),
            (references(inner, name), &st.consequent),
        ],
        other => vec![(references(other, name), &st.exec)],
    }
}

/// How often unit `name` is entered: the sum of the counts of the statements calling or
/// referencing it (`sites`: the statements that name it); `None` when some reference cannot
/// be counted so (or there is none).
fn call_sites(prog: &Program, name: &str, sites: &[usize], unparsed: &[usize]) -> Option<Mult> {
    // An unparsed statement might reference it (blanks do not count in Fortran names).
    let squeezed = |k: usize| -> String {
        prog.statement(k)
            .text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_uppercase()
    };
    if unparsed.iter().any(|&k| squeezed(k).contains(name)) {
        return None;
    }
    // A unit where the name is an array, a dummy, or read by a statement function body
    // (whose uses reference it without naming it): not counted from call sites.
    if prog
        .units
        .iter()
        .any(|u| u.name != name && u.local_names.contains(name))
    {
        return None;
    }
    let mut total: Mult = Vec::new();
    let mut found = false;
    for &k in sites {
        let st = &prog.stmts[k];
        let Some(s) = &st.stmt else { continue };
        if prog.units[st.unit].name == name {
            // In its own unit the name is the function's result variable.
            continue;
        }
        for (n, mult) in references_by_part(st, s, name) {
            let n = n?;
            if n > 0 {
                let m = mult.as_ref()?;
                total.extend(m.iter().map(|&(c, p)| (c * n as i64, p)));
                found = true;
            }
        }
    }
    found.then(|| expand_mult(&total, &HashMap::new()))
}

/// How many times statement `s` enters unit `name` each time it runs; `None` when that is not
/// fixed (under a logical operator, in a loop condition or an I/O list, passed as an argument).
fn references(s: &Stmt, name: &str) -> Option<usize> {
    fn expr(e: &SExpr, name: &str, under_logic: bool) -> Option<usize> {
        match e {
            SExpr::Name(n) => (n != name).then_some(0),
            SExpr::Apply(n, args) => {
                let own = usize::from(n == name);
                if own > 0 && under_logic {
                    return None;
                }
                let mut total = own;
                for a in args {
                    total += match a {
                        Arg::Expr(x) | Arg::Keyword(_, x) => expr(x, name, under_logic)?,
                        Arg::Range(a, b) => {
                            let mut t = 0;
                            for x in [a, b].into_iter().flatten() {
                                t += expr(x, name, under_logic)?;
                            }
                            t
                        }
                        Arg::AltReturn(_) => 0,
                    };
                }
                Some(total)
            }
            SExpr::Substring(x, a, b) => {
                let mut t = expr(x, name, under_logic)?;
                for y in [a, b].into_iter().flatten() {
                    t += expr(y, name, under_logic)?;
                }
                Some(t)
            }
            SExpr::Binary(op, a, b) => {
                let logic = under_logic || matches!(op, BOp::And | BOp::Or | BOp::Eqv | BOp::Neqv);
                Some(expr(a, name, logic)? + expr(b, name, logic)?)
            }
            SExpr::Complex(a, b) => Some(expr(a, name, under_logic)? + expr(b, name, under_logic)?),
            SExpr::Unary(_, x) | SExpr::Paren(x) => expr(x, name, under_logic),
            SExpr::Int(_) | SExpr::Real { .. } | SExpr::Logical(_) | SExpr::Str(_) => Some(0),
        }
    }
    let args = |args: &[Arg]| -> Option<usize> {
        expr(&SExpr::Apply(String::new(), args.to_vec()), name, false)
    };
    match s {
        Stmt::Call(n, a) => Some(usize::from(n == name) + args(a)?),
        Stmt::Assignment(t, v) => Some(expr(t, name, false)? + expr(v, name, false)?),
        Stmt::BlockIf(c) | Stmt::ElseIf(c) | Stmt::ComputedGoto(_, c) | Stmt::ArithIf(c, _) => {
            expr(c, name, false)
        }
        Stmt::Return(Some(e)) => expr(e, name, false),
        Stmt::Do(_, ctl) => {
            for b in [Some(&ctl.start), Some(&ctl.end), ctl.step.as_ref()]
                .into_iter()
                .flatten()
            {
                if expr(b, name, false)? > 0 {
                    return None;
                }
            }
            Some(0)
        }
        Stmt::DoWhile(_, c) => (expr(c, name, false)? == 0).then_some(0),
        Stmt::Io(_, a) => (args(a)? == 0).then_some(0),
        _ => Some(0),
    }
}

/// A count combination with derived counters replaced by their definitions, one term per
/// counter.
fn expand_mult(m: &Mult, defs: &HashMap<usize, Mult>) -> Mult {
    let mut out: Vec<(i64, usize)> = Vec::new();
    for &(c, p) in m {
        match defs.get(&p) {
            Some(d) => out.extend(d.iter().map(|&(k, q)| (c * k, q))),
            None => out.push((c, p)),
        }
    }
    let mut merged: Vec<(i64, usize)> = Vec::new();
    for (c, p) in out {
        match merged.iter_mut().find(|(_, q)| *q == p) {
            Some(t) => t.0 += c,
            None => merged.push((c, p)),
        }
    }
    merged.retain(|&(c, _)| c != 0);
    merged
}

/// Replace the placeholders of label blocks by their counts: the fall-in's plus the
/// consequents of the IFs jumping there. A fall-in refers only to earlier placeholders, so
/// resolving them in order leaves none.
fn resolve_placeholders(
    prog: &mut Program,
    pending: Vec<(usize, Mult, Vec<usize>)>,
    stmts: std::ops::Range<usize>,
) {
    if pending.is_empty() {
        return;
    }
    let mut defs: HashMap<usize, Mult> = HashMap::new();
    for (placeholder, fall, ifs) in pending {
        let mut m = expand_mult(&fall, &defs);
        for j in ifs {
            m.extend(prog.stmts[j].consequent.clone().unwrap_or_default());
        }
        let m = expand_mult(&m, &defs);
        defs.insert(placeholder, m);
    }
    for st in &mut prog.stmts[stmts] {
        for part in &mut st.parts {
            part.mult = expand_mult(&part.mult, &defs);
        }
        for m in [&mut st.exec, &mut st.consequent].into_iter().flatten() {
            *m = expand_mult(m, &defs);
        }
    }
}

/// A block IF construct being analyzed.
struct OpenIf {
    /// How often the next condition (ELSE IF) or the ELSE block is reached.
    tests: Mult,
    /// The probe of the last branch taken so far.
    last: Option<usize>,
    /// How often the construct is entered.
    entry: Mult,
    /// Its IF ... THEN statement.
    start: usize,
}

/// A DO loop being analyzed.
struct OpenDo {
    label: Option<u32>,
    start: usize,
    /// How often the loop is entered.
    entry: Mult,
    /// Its variable, for a DO loop with step 1 (rule 18).
    unit_var: Option<String>,
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

/// The last statement of the DO loop at statement `d` (looked for before statement `end`,
/// the end of its unit): the terminal with its label, or the matching END DO.
pub fn loop_end(prog: &Program, d: usize, label: Option<u32>, end: usize) -> Option<usize> {
    match label {
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
    }
}

/// Mark the DO loops of statements `first..end` whose iterations can be counted at entry.
fn find_trip_counts(prog: &mut Program, lw: &mut Lower, first: usize, end: usize) {
    for d in first..end {
        let Some(Stmt::Do(label, ctl)) = prog.stmts[d].stmt.clone() else {
            continue;
        };
        let last = loop_end(prog, d, label, end);
        let Some(last) = last else { continue };
        // MAX0 must be the intrinsic in this unit.
        let var_int =
            lw.sym.type_of(&ctl.var) == Some(Type::Integer) && lw.sym.get("MAX0").is_none();
        let bounds: Vec<&SExpr> = [Some(&ctl.start), Some(&ctl.end), ctl.step.as_ref()]
            .into_iter()
            .flatten()
            .collect();
        let pure = bounds.iter().all(|b| pure_integer(&lw.expr(b)));
        // A loop that may be left early keeps its per-iteration counter: taking off the
        // skipped iterations at every exit costs more than counting them where loops are
        // searches left after a few iterations (baskett's FITS: 3.4 per call), and such loops
        // are rarely long.
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

/// Names the expressions of an executable statement read or call (those [`references`]
/// looks at).
fn stmt_names(s: &Stmt, out: &mut HashSet<String>) {
    let args = |a: &[Arg], out: &mut HashSet<String>| {
        sexpr_names(&SExpr::Apply(String::new(), a.to_vec()), out)
    };
    match s {
        Stmt::Call(n, a) => {
            out.insert(n.clone());
            args(a, out);
        }
        Stmt::Assignment(t, v) => {
            sexpr_names(t, out);
            sexpr_names(v, out);
        }
        Stmt::LogicalIf(c, inner, _) => {
            sexpr_names(c, out);
            stmt_names(inner, out);
        }
        Stmt::BlockIf(c)
        | Stmt::ElseIf(c)
        | Stmt::ComputedGoto(_, c)
        | Stmt::ArithIf(c, _)
        | Stmt::DoWhile(_, c)
        | Stmt::Return(Some(c)) => sexpr_names(c, out),
        Stmt::Do(_, ctl) => {
            for b in [Some(&ctl.start), Some(&ctl.end), ctl.step.as_ref()]
                .into_iter()
                .flatten()
            {
                sexpr_names(b, out);
            }
        }
        Stmt::Io(_, a) => args(a, out),
        _ => {}
    }
}

/// Every name a statement declares, reads or sets (I/O lists aside: they are not kept).
pub(crate) fn names_in(s: &Stmt) -> HashSet<String> {
    let mut out = HashSet::new();
    stmt_names(s, &mut out);
    match s {
        Stmt::TypeDecl(_, ents) | Stmt::Dimension(ents) => {
            out.extend(ents.iter().map(|e| e.name.clone()))
        }
        Stmt::Common(blocks) => out.extend(
            blocks
                .iter()
                .flat_map(|(_, ents)| ents.iter().map(|e| e.name.clone())),
        ),
        Stmt::Do(_, ctl) => {
            out.insert(ctl.var.clone());
        }
        Stmt::AssignLabel(_, v) | Stmt::AssignedGoto(v, _) => {
            out.insert(v.clone());
        }
        Stmt::LogicalIf(_, inner, _) => out.extend(names_in(inner)),
        _ => {}
    }
    out
}

/// Names an expression reads (arrays, variables, functions).
pub(crate) fn sexpr_names(e: &SExpr, out: &mut HashSet<String>) {
    match e {
        SExpr::Name(n) => {
            out.insert(n.clone());
        }
        SExpr::Apply(n, args) => {
            out.insert(n.clone());
            for a in args {
                match a {
                    Arg::Expr(x) | Arg::Keyword(_, x) => sexpr_names(x, out),
                    Arg::Range(a, b) => {
                        for x in [a, b].into_iter().flatten() {
                            sexpr_names(x, out);
                        }
                    }
                    Arg::AltReturn(_) => {}
                }
            }
        }
        SExpr::Substring(x, a, b) => {
            sexpr_names(x, out);
            for y in [a, b].into_iter().flatten() {
                sexpr_names(y, out);
            }
        }
        SExpr::Complex(a, b) | SExpr::Binary(_, a, b) => {
            sexpr_names(a, out);
            sexpr_names(b, out);
        }
        SExpr::Unary(_, x) | SExpr::Paren(x) => sexpr_names(x, out),
        SExpr::Int(_) | SExpr::Real { .. } | SExpr::Logical(_) | SExpr::Str(_) => {}
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
    fn character_work_is_counted_by_its_lengths() {
        // Rule 13c: a string moved is a CHAS; one character compared, an integer compare,
        // also through a one-character PARAMETER; a string compared, a CHCM.
        let q = prog(concat!(
            "      CHARACTER*16 S, T\n",
            "      CHARACTER BLANK, C\n",
            "      PARAMETER (BLANK = ' ')\n",
            "      INTEGER I, K\n",
            "      S = T(1:8)\n",
            "      C = T(I:I)\n",
            "      IF (C .EQ. BLANK) K = 1\n",
            "      IF (S .EQ. T) K = 2\n",
            "      END\n"
        ));
        let c = total(&q);
        assert!(c.uncharacterized.is_empty(), "{c:?}");
        assert_eq!(c.get(Param::CHAS), 1);
        assert_eq!(c.get(Param::CHCM), 1);
        assert_eq!(c.get(Param::CISL), 1);
        assert_eq!(c.get(Param::ARR1), 1);
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

    #[test]
    fn else_and_the_statements_after_end_if_and_a_loop_are_derived() {
        let p = prog(concat!(
            "      DO 10 I = 1, N\n",
            "      IF (X .GT. 2) THEN\n",
            "      Y = 1\n",
            "      ELSE\n",
            "      Y = 2\n",
            "      END IF\n",
            "      X = X + Y\n",
            "   10 CONTINUE\n",
            "      Z = X\n",
            "      END\n",
        ));
        // Entry block, DO iteration, THEN branch: ELSE, after END IF, after the loop derived.
        assert_eq!(p.probes.len(), 3);
        let after_loop = &p.stmts[8];
        assert_eq!(
            after_loop.exec, p.stmts[0].exec,
            "after the loop = entry of the loop"
        );
    }

    #[test]
    fn a_construct_left_by_a_jump_keeps_its_counter() {
        let p = prog(concat!(
            "      IF (X .GT. 2) THEN\n",
            "      GO TO 20\n",
            "      END IF\n",
            "      X = 1\n",
            "   20 CONTINUE\n",
            "      END\n",
        ));
        // Entry, THEN, after END IF (left by the jump), the jump target.
        assert_eq!(p.probes.len(), 4);
    }

    #[test]
    fn unit_entries_come_from_call_sites_unless_a_logical_operator_may_skip_them() {
        let p = prog(concat!(
            "      PROGRAM P\n",
            "      X = F(1.0) + F(2.0)\n",
            "      CALL S\n",
            "      IF (X .GT. 0 .AND. G(X) .GT. 1) X = 0\n",
            "      END\n",
            "      FUNCTION F(A)\n",
            "      F = A\n",
            "      END\n",
            "      SUBROUTINE S\n",
            "      Y = 1\n",
            "      END\n",
            "      FUNCTION G(A)\n",
            "      G = A\n",
            "      END\n",
        ));
        // F and S: derived from the main program's block; G keeps its counter.
        assert_eq!(p.derived_probes.len(), 2);
        let f_body = p
            .stmts
            .iter()
            .find(|s| p.units[s.unit].name == "F" && s.executable);
        assert_eq!(
            f_body.unwrap().exec,
            Some(vec![(2, 0)]),
            "F runs twice per main run"
        );
    }

    #[test]
    fn a_unit_a_statement_function_calls_keeps_its_counter() {
        let p = prog(concat!(
            "      PROGRAM P\n",
            "      G(A) = F(A) + 1.0\n",
            "      X = G(1.0)\n",
            "      X = F(2.0)\n",
            "      END\n",
            "      FUNCTION F(A)\n",
            "      F = A\n",
            "      END\n",
        ));
        // F runs twice per main run, once through G: not derivable from its call sites.
        assert!(p.derived_probes.is_empty());
    }
}

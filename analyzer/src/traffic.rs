//! The memory traffic of an innermost loop (issue 27, item 4): which array elements its body
//! reads and writes, how far each reference's address moves from one iteration to the next,
//! and how many bytes of arrays the moving references can touch. A loop that streams data
//! beyond the last cache runs at memory bandwidth, whatever its operations cost; the predictor
//! bounds such a loop's time by these bytes over the machine's bandwidth.
//!
//! The references are read from the statements as written (syntax, not the lowered
//! expressions): every array element in an expression the body evaluates each iteration
//! (assignments, IF conditions, I/O lists, arguments of intrinsic and statement functions).
//! An element passed as an actual argument to a subroutine or an external function is passed
//! by address; what the callee does with it is the callee's traffic, not the loop's.

use crate::analysis::{sexpr_names, sexpr_text, Program};
use crate::extents::MeasuredExtents;
use crate::symbols::Symbols;
use crate::syntax::{Arg, BOp, DoControl, SExpr, Stmt, UOp};
use model::program_stats::{ArrayReference, LoopTraffic};
use std::collections::{HashMap, HashSet};

/// The traffic of the loop made of statements `first..=last` of unit `unit`, with the
/// extents a counting run `measured` where the declarations give none
/// (`crate::extents`); None when one of its statements could not be parsed (anything may be
/// referenced there).
pub fn loop_traffic(
    prog: &Program,
    unit: usize,
    first: usize,
    last: usize,
    measured: &MeasuredExtents,
) -> Option<LoopTraffic> {
    let sym = &prog.units[unit].symbols;
    let shapes = Shapes { sym, measured };
    let (first_stmt, index, walk) = walk_loop(prog, unit, first, last)?;
    let moves = Moves {
        shapes: &shapes,
        index: index.as_ref().map(|(v, s)| (v.as_str(), *s)),
        assigned: &walk.assigned,
        defs: &walk.defs,
        unit_step: None,
    };
    // Rule 21b: where the step is a variable, the moves per unit of it.
    let step = variable_step(sym, first_stmt, &walk);
    let per_step_moves = step.as_ref().map(|step| Moves {
        index: index.as_ref().map(|(v, s)| {
            let unit = matches!(step, VariableStep::Do { .. });
            (v.as_str(), if unit { Some(1) } else { *s })
        }),
        unit_step: match step {
            VariableStep::Increment(name) => Some(name.as_str()),
            VariableStep::Do { .. } => None,
        },
        ..moves
    });
    // Around it: the enclosing DO loop's variable moves, this loop's is held.
    let outer = enclosing_do(prog, unit, first, last);
    let mut held = walk.assigned.clone();
    if let Some((var, _)) = &index {
        held.remove(var);
    }
    let outer_moves = outer.as_ref().map(|(var, step)| Moves {
        shapes: &shapes,
        index: Some((var.as_str(), *step)),
        assigned: &held,
        defs: &walk.defs,
        unit_step: None,
    });
    let outside_loaded = outside_values(prog, unit, first, last).loaded_names();
    let body_loaded = walk.loaded_names();
    let own = index.as_ref().map(|(v, _)| v.as_str());
    let mut references = Vec::new();
    let mut moving: Vec<&str> = Vec::new();
    for r in &walk.refs {
        let stride = moves.stride(&r.array, &r.subscripts);
        let outer_stride = outer_moves
            .as_ref()
            .and_then(|m| m.stride(&r.array, &r.subscripts));
        if stride != Some(0) && !moving.contains(&r.array.as_str()) {
            moving.push(&r.array);
        }
        let element_bytes = sym.element_bytes(&r.array).unwrap_or(0);
        let indirect = r
            .subscripts
            .iter()
            .any(|e| walk.loads_data(e, &body_loaded));
        references.push(ArrayReference {
            array: r.array.to_ascii_uppercase(),
            element_bytes,
            read: r.read,
            written: r.written,
            stride_bytes: stride,
            outer_stride_bytes: outer_stride,
            array_bytes: shapes.bytes(&r.array),
            indirect,
            random_start: !indirect
                && r.subscripts.iter().any(|e| {
                    let mut names = HashSet::new();
                    sexpr_names(e, &mut names);
                    names
                        .into_iter()
                        .filter(|n| !sym.is_array(n))
                        .map(|n| n.to_ascii_uppercase())
                        .any(|n| Some(n.as_str()) != own && outside_loaded.contains(&n))
                }),
            stride_per_step_bytes: match (stride, &per_step_moves) {
                (None, Some(m)) if !indirect => m.stride(&r.array, &r.subscripts),
                _ => None,
            },
        });
    }
    let footprint_bytes = moving
        .iter()
        .try_fold(0u64, |acc, a| acc.checked_add(shapes.bytes(a)?));
    Some(LoopTraffic {
        references,
        footprint_bytes,
        measured_steps: None,
        measured_trips: None,
    })
}

/// A DO loop's variable (upper case) and its step when constant.
type DoIndex = (String, Option<i64>);

/// The walk over the body of the loop made of statements `first..=last` of `unit`, with its
/// first statement and, for a DO loop, its variable and constant step; None when one of its
/// statements could not be parsed.
fn walk_loop(
    prog: &Program,
    unit: usize,
    first: usize,
    last: usize,
) -> Option<(&Stmt, Option<DoIndex>, Walk<'_>)> {
    let sym = &prog.units[unit].symbols;
    let stmts: Vec<&Stmt> = prog.stmts[first..=last]
        .iter()
        .map(|s| s.stmt.as_ref())
        .collect::<Option<_>>()?;
    // A DO statement's control is evaluated once, before the iterations.
    let (index, body) = match stmts.first() {
        Some(Stmt::Do(_, ctrl)) => (Some(do_index(sym, ctrl)), &stmts[1..]),
        _ => (None, &stmts[..]),
    };
    // A jump inside the body (the loop's own closing GO TO aside) may skip an assignment;
    // exit tests before the first assignment (`20 IF (K .GT. N) GO TO 30`) only end the
    // iterations, every one that goes on runs the rest.
    let inside: HashSet<u32> = (first..=last)
        .filter_map(|k| prog.statement(k).label)
        .collect();
    let leaves = |s: &Stmt| match s {
        Stmt::LogicalIf(_, inner, _) => matches!(**inner, Stmt::Goto(l) if !inside.contains(&l)),
        _ => false,
    };
    let exits_first = body.iter().take_while(|s| leaves(s)).count();
    let jumps = body
        .iter()
        .take(body.len().saturating_sub(1))
        .skip(exits_first)
        .any(|s| jumps(s));
    let mut walk = Walk {
        sym,
        refs: Vec::new(),
        assigned: HashSet::new(),
        defs: HashMap::new(),
        values: HashMap::new(),
        calls_load: true,
        depth: usize::from(jumps),
    };
    for s in body {
        walk.stmt(s);
    }
    if let Some((var, _)) = &index {
        walk.assigned.insert(var.clone());
    }
    Some((stmts[0], index, walk))
}

/// Rule 21b: a loop's step that the source gives as a variable, which the counting run
/// measures (`crate::steps`).
#[derive(Debug, Clone, PartialEq)]
pub enum VariableStep {
    /// A DO loop's step that is not a constant, with its control's texts (for the trips).
    Do {
        start: String,
        end: String,
        step: String,
    },
    /// An increment `K = K + L` (`L + K`, `K - L`) the body makes once every iteration, by a
    /// scalar `L` (upper case) it does not change.
    Increment(String),
}

/// The variable step of the innermost loop made of statements `first..=last` of `unit`: its
/// DO step, or its one increment by a loop-invariant scalar; None when it has neither, both,
/// or increments by several.
pub fn loop_variable_step(
    prog: &Program,
    unit: usize,
    first: usize,
    last: usize,
) -> Option<VariableStep> {
    let (first_stmt, _, walk) = walk_loop(prog, unit, first, last)?;
    variable_step(&prog.units[unit].symbols, first_stmt, &walk)
}

fn variable_step(sym: &Symbols, first: &Stmt, walk: &Walk) -> Option<VariableStep> {
    let do_step = match first {
        Stmt::Do(_, ctrl) => ctrl
            .step
            .as_ref()
            .filter(|e| sym.constant_int(e).is_none())
            .map(|e| VariableStep::Do {
                start: sexpr_text(&ctrl.start),
                end: sexpr_text(&ctrl.end),
                step: sexpr_text(e),
            }),
        _ => None,
    };
    let mut increments: Vec<String> = walk
        .defs
        .iter()
        .filter_map(|(n, value)| {
            let (by, _) = increment(n, value.as_ref()?)?;
            match by {
                SExpr::Name(l) if sym.constant_int(by).is_none() && !sym.is_array(l) => {
                    let l = l.to_ascii_uppercase();
                    (!walk.assigned.contains(&l)).then_some(l)
                }
                _ => None,
            }
        })
        .collect();
    increments.sort();
    increments.dedup();
    match (do_step, increments.as_slice()) {
        (Some(d), []) => Some(d),
        (None, [l]) => Some(VariableStep::Increment(l.clone())),
        _ => None,
    }
}

/// The amount `value` adds to scalar `n` when it is an increment of `n` (`N + X`, `X + N`,
/// `N - X`), and whether it subtracts it.
fn increment<'e>(n: &str, value: &'e SExpr) -> Option<(&'e SExpr, bool)> {
    let is_n = |x: &SExpr| matches!(x, SExpr::Name(y) if y.eq_ignore_ascii_case(n));
    match value {
        SExpr::Binary(BOp::Add, a, b) if is_n(a) => Some((b, false)),
        SExpr::Binary(BOp::Add, a, b) if is_n(b) => Some((a, false)),
        SExpr::Binary(BOp::Sub, a, b) if is_n(a) => Some((b, true)),
        _ => None,
    }
}

/// What the statements of `unit` outside `first..=last` may set its scalars to (rule 33:
/// where a loop over them enters); a DO variable takes its start.
fn outside_values<'a>(prog: &'a Program, unit: usize, first: usize, last: usize) -> Walk<'a> {
    let mut w = Walk {
        sym: &prog.units[unit].symbols,
        refs: Vec::new(),
        assigned: HashSet::new(),
        defs: HashMap::new(),
        values: HashMap::new(),
        calls_load: false,
        depth: 0,
    };
    let outside = prog
        .stmts
        .iter()
        .enumerate()
        .filter(|(i, st)| st.unit == unit && !(first..=last).contains(i));
    for (_, st) in outside {
        if let Some(s) = st.stmt.as_ref() {
            w.stmt(s);
        }
    }
    w
}

/// The DO loop of `unit` nearest around statements `first..=last`: its variable (upper case)
/// and its step when constant; None when no DO loop holds them.
fn enclosing_do(
    prog: &Program,
    unit: usize,
    first: usize,
    last: usize,
) -> Option<(String, Option<i64>)> {
    let sym = &prog.units[unit].symbols;
    let unit_end = prog.units[unit].end;
    (0..first).rev().find_map(|i| {
        let st = &prog.stmts[i];
        let Some(Stmt::Do(label, ctrl)) = st.stmt.as_ref() else {
            return None;
        };
        if st.unit != unit {
            return None;
        }
        let end = crate::analysis::loop_end(prog, i, *label, unit_end)?;
        (end >= last).then(|| do_index(sym, ctrl))
    })
}

/// A DO statement's variable (upper case) and its step when constant (1 when omitted).
fn do_index(sym: &Symbols, ctrl: &DoControl) -> DoIndex {
    let step = match &ctrl.step {
        None => Some(1),
        Some(e) => sym.constant_int(e),
    };
    (ctrl.var.to_ascii_uppercase(), step)
}

/// One distinct element reference: the array, its subscripts, how it is used.
struct Reference {
    array: String,
    subscripts: Vec<SExpr>,
    /// The subscripts' text, which tells references apart.
    key: String,
    read: bool,
    written: bool,
}

/// The walk over a loop body's statements.
struct Walk<'a> {
    sym: &'a Symbols,
    refs: Vec<Reference>,
    /// Names the body may change (upper case): assignment targets (arrays too), DO
    /// variables, READ items, variables passed to subroutines and functions.
    assigned: HashSet<String>,
    /// Scalars the body assigns exactly once and on every iteration, with the value: what
    /// they hold moves as that value does (`ROW = I + (J-1)*NX`; `K = K + 2` steps by 2).
    /// None for the others it changes.
    defs: HashMap<String, Option<SExpr>>,
    /// Every value the body may give each scalar it changes, conditionally or not (None: one
    /// from outside, a READ or, with `calls_load`, a subroutine's argument), for
    /// [`Walk::loaded_names`].
    values: HashMap<String, Vec<Option<SExpr>>>,
    /// Whether a scalar passed to a subroutine or an external function comes back as data: in
    /// a loop's body, where what a call returns through an argument (`CALL RAND(K)`) feeds
    /// the iteration's subscripts; not in the statements around it, where most arguments are
    /// sizes and flags a call leaves alone.
    calls_load: bool,
    /// Block IFs and logical IFs open around the statement walked (one more when the body
    /// jumps): its assignments may not run every iteration.
    depth: usize,
}

/// A statement that may jump elsewhere in the body.
fn jumps(s: &Stmt) -> bool {
    match s {
        Stmt::Goto(_) | Stmt::ComputedGoto(..) | Stmt::AssignedGoto(..) | Stmt::ArithIf(..) => true,
        Stmt::LogicalIf(_, inner, _) => jumps(inner),
        Stmt::Io(..) => true,
        _ => false,
    }
}

impl Walk<'_> {
    fn is_array(&self, name: &str) -> bool {
        self.sym.is_array(name)
    }

    /// Name `n` changes, to `value` when that is known (None: from outside, data).
    fn changed(&mut self, n: &str, value: Option<&SExpr>) {
        self.changed_to(n, value, Some(value));
    }

    /// Name `n` changes, to `value` when that is known; `source` is what [`Walk::values`]
    /// records it may now hold: `Some(None)` a value from outside, `None` nothing (a call
    /// that, outside the loop, leaves its arguments alone).
    fn changed_to(&mut self, n: &str, value: Option<&SExpr>, source: Option<Option<&SExpr>>) {
        let n = n.to_ascii_uppercase();
        let once = !self.assigned.contains(&n) && self.depth == 0;
        self.assigned.insert(n.clone());
        if let Some(source) = source {
            self.values
                .entry(n.clone())
                .or_default()
                .push(source.cloned());
        }
        self.defs.insert(n, value.filter(|_| once).cloned());
    }

    fn note(&mut self, array: &str, args: &[Arg], read: bool, written: bool) {
        let subscripts: Vec<SExpr> = args
            .iter()
            .filter_map(|a| match a {
                Arg::Expr(e) => Some(e.clone()),
                _ => None,
            })
            .collect();
        let key = subscripts
            .iter()
            .map(sexpr_text)
            .collect::<Vec<_>>()
            .join(",");
        let array = array.to_ascii_uppercase();
        match self
            .refs
            .iter_mut()
            .find(|r| r.array == array && r.key == key)
        {
            Some(r) => {
                r.read |= read;
                r.written |= written;
            }
            None => self.refs.push(Reference {
                array,
                subscripts,
                key,
                read,
                written,
            }),
        }
        for s in args {
            self.arg(s);
        }
    }

    /// Whether function `name` is evaluated in the body (an intrinsic or a statement
    /// function) rather than called.
    fn evaluated_here(&self, name: &str) -> bool {
        let s = self.sym.get(name);
        s.is_some_and(|s| s.statement_function.is_some())
            || (!s.is_some_and(|s| s.external)
                && model::intrinsics::lookup(name).is_some()
                && !s.is_some_and(|s| s.dummy))
    }

    /// The scalars (upper case) whose value may come from data (rule 33): one the walk may
    /// set from outside (a READ; with `calls_load`, a call), or from an expression that loads
    /// data ([`Walk::loads_data`]) or uses such a scalar; found by iterating to a fixed point.
    fn loaded_names(&self) -> HashSet<String> {
        let mut loaded = HashSet::new();
        loop {
            let more: Vec<String> = self
                .values
                .iter()
                .filter(|(n, _)| !loaded.contains(*n))
                .filter(|(_, vs)| {
                    vs.iter()
                        .any(|v| v.as_ref().is_none_or(|v| self.loads_data(v, &loaded)))
                })
                .map(|(n, _)| n.clone())
                .collect();
            if more.is_empty() {
                return loaded;
            }
            loaded.extend(more);
        }
    }

    /// Whether `e`'s value comes from data: an array element, an external function's result,
    /// or a scalar of `loaded` ([`Walk::loaded_names`]).
    fn loads_data(&self, e: &SExpr, loaded: &HashSet<String>) -> bool {
        let loads = |x: &SExpr| self.loads_data(x, loaded);
        let arg = |a: &Arg| match a {
            Arg::Expr(x) | Arg::Keyword(_, x) => loads(x),
            _ => false,
        };
        match e {
            SExpr::Int(_)
            | SExpr::Real { .. }
            | SExpr::Logical(_)
            | SExpr::Str(_)
            | SExpr::Substring(..) => false,
            SExpr::Name(n) => loaded.contains(&n.to_ascii_uppercase()),
            SExpr::Apply(n, _) if self.is_array(n) => true,
            SExpr::Apply(n, args) => !self.evaluated_here(n) || args.iter().any(arg),
            SExpr::Complex(a, b) | SExpr::Binary(_, a, b) => loads(a) || loads(b),
            SExpr::Unary(_, x) | SExpr::Paren(x) => loads(x),
        }
    }

    /// An expression the body evaluates (its elements are read).
    fn expr(&mut self, e: &SExpr) {
        match e {
            SExpr::Int(_)
            | SExpr::Real { .. }
            | SExpr::Logical(_)
            | SExpr::Str(_)
            | SExpr::Name(_) => {}
            SExpr::Complex(a, b) | SExpr::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            SExpr::Apply(n, args) if self.is_array(n) => self.note(n, args, true, false),
            SExpr::Apply(n, args) => self.reference(n, args),
            SExpr::Substring(base, lo, hi) => {
                self.expr(base);
                for x in lo.iter().chain(hi.iter()) {
                    self.expr(x);
                }
            }
            SExpr::Unary(_, x) | SExpr::Paren(x) => self.expr(x),
        }
    }

    fn arg(&mut self, a: &Arg) {
        match a {
            Arg::Expr(e) | Arg::Keyword(_, e) => self.expr(e),
            Arg::Range(lo, hi) => {
                for x in lo.iter().chain(hi.iter()) {
                    self.expr(x);
                }
            }
            Arg::AltReturn(_) => {}
        }
    }

    /// A reference to a function `name`: an intrinsic or a statement function reads its
    /// arguments here; an external function gets the address of a variable or element (the
    /// callee's traffic), and may change it.
    fn reference(&mut self, name: &str, args: &[Arg]) {
        if self.evaluated_here(name) {
            for a in args {
                self.arg(a);
            }
        } else {
            self.actuals(args);
        }
    }

    /// Actual arguments of a subroutine or external function: a bare variable or element is
    /// passed by address (possibly changed, not referenced here); expressions are evaluated.
    fn actuals(&mut self, args: &[Arg]) {
        for a in args {
            match a {
                Arg::Expr(SExpr::Name(n)) => {
                    self.changed_to(n, None, self.calls_load.then_some(None))
                }
                Arg::Expr(SExpr::Apply(n, subs)) if self.is_array(n) => {
                    self.changed(n, None);
                    for s in subs {
                        self.arg(s);
                    }
                }
                other => self.arg(other),
            }
        }
    }

    /// A target the body stores `value` to (None: a value it reads from a file).
    fn target(&mut self, e: &SExpr, value: Option<&SExpr>) {
        match e {
            SExpr::Name(n) => self.changed(n, value),
            SExpr::Apply(n, args) if self.is_array(n) => {
                self.changed(n, None);
                self.note(n, args, false, true);
            }
            SExpr::Substring(base, lo, hi) => {
                self.target(base, None);
                for x in lo.iter().chain(hi.iter()) {
                    self.expr(x);
                }
            }
            SExpr::Paren(x) => self.target(x, value),
            other => self.expr(other),
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Assignment(t, v) => {
                self.expr(v);
                self.target(t, Some(v));
            }
            Stmt::LogicalIf(c, inner, _) => {
                self.expr(c);
                self.depth += 1;
                self.stmt(inner);
                self.depth -= 1;
            }
            Stmt::BlockIf(c) => {
                self.expr(c);
                self.depth += 1;
            }
            Stmt::EndIf => self.depth = self.depth.saturating_sub(1),
            Stmt::ElseIf(c)
            | Stmt::DoWhile(_, c)
            | Stmt::ArithIf(c, _)
            | Stmt::ComputedGoto(_, c)
            | Stmt::Return(Some(c)) => self.expr(c),
            Stmt::Do(_, ctrl) => {
                // Its values start where the DO statement starts it.
                self.changed_to(&ctrl.var, None, Some(Some(&ctrl.start)));
                for e in [&ctrl.start, &ctrl.end]
                    .into_iter()
                    .chain(ctrl.step.as_ref())
                {
                    self.expr(e);
                }
            }
            Stmt::AssignLabel(_, n) => self.changed(n, None),
            Stmt::Call(_, args) => self.actuals(args),
            Stmt::Io(kind, args) => {
                for a in args {
                    match a {
                        Arg::Expr(e) if *kind == "READ" => self.target(e, None),
                        other => self.arg(other),
                    }
                }
            }
            _ => {}
        }
    }
}

/// The arrays' shapes: their declared extents, or where those are not constants the ones a
/// counting run measured.
struct Shapes<'a> {
    sym: &'a Symbols,
    measured: &'a MeasuredExtents,
}

impl Shapes<'_> {
    /// The extent of each dimension of `array`, None where neither the declaration nor the
    /// run gives it.
    fn extents(&self, array: &str) -> Vec<Option<i64>> {
        let run = self.measured.get(array);
        self.sym
            .extents(array)
            .into_iter()
            .enumerate()
            .map(|(d, n)| n.or_else(|| run?.get(d).copied().flatten()))
            .collect()
    }

    /// The bytes `array` spans (CHARACTER included); None when an extent or the length is
    /// not known, or `array` is not an array.
    fn bytes(&self, array: &str) -> Option<u64> {
        self.sym.bytes_with_extents(array, self.extents(array))
    }
}

/// How subscripts move with the loop.
struct Moves<'a> {
    shapes: &'a Shapes<'a>,
    /// The DO variable (upper case) and its step when constant.
    index: Option<(&'a str, Option<i64>)>,
    assigned: &'a HashSet<String>,
    defs: &'a HashMap<String, Option<SExpr>>,
    /// Rule 21b: the scalar whose value a loop-invariant increment `K = K + L` is counted
    /// as one unit of (moves are then per unit of the loop's variable step).
    unit_step: Option<&'a str>,
}

/// How many definitions `ROW = I + K`, `K = ...` a subscript's movement is followed through.
const DEF_DEPTH: usize = 8;

impl Moves<'_> {
    /// How far subscript `e` moves from one iteration to the next, in elements: the DO
    /// variable moves by its step, a scalar the body sets once every iteration as its value
    /// does (`K = K + 2`: by 2), anything the loop does not change by 0. None when `e` is not
    /// affine in those with constant coefficients, or depends on something else the loop
    /// changes (or on a DO variable's step that is not a constant).
    fn movement(&self, e: &SExpr, depth: usize) -> Option<i64> {
        let m = |x: &SExpr| self.movement(x, depth);
        match e {
            SExpr::Int(_) | SExpr::Real { .. } | SExpr::Logical(_) | SExpr::Str(_) => Some(0),
            SExpr::Name(n) => self.name_movement(&n.to_ascii_uppercase(), depth),
            SExpr::Paren(x) | SExpr::Unary(UOp::Plus, x) => m(x),
            SExpr::Unary(UOp::Neg, x) => m(x)?.checked_neg(),
            SExpr::Binary(BOp::Add, a, b) => m(a)?.checked_add(m(b)?),
            SExpr::Binary(BOp::Sub, a, b) => m(a)?.checked_sub(m(b)?),
            SExpr::Binary(BOp::Mul, a, b) => match (m(a)?, m(b)?) {
                (0, 0) => Some(0),
                (c, 0) => c.checked_mul(self.shapes.sym.constant_int(b)?),
                (0, c) => c.checked_mul(self.shapes.sym.constant_int(a)?),
                _ => None,
            },
            // Anything else (division, powers, elements, function references) keeps still
            // only when nothing in it moves.
            other => self.still(other).then_some(0),
        }
    }

    fn name_movement(&self, n: &str, depth: usize) -> Option<i64> {
        if let Some((var, step)) = self.index {
            if var == n {
                return step;
            }
        }
        if !self.assigned.contains(n) {
            return Some(0);
        }
        if depth >= DEF_DEPTH {
            return None;
        }
        let value = self.defs.get(n)?.as_ref()?;
        let mut names = HashSet::new();
        crate::analysis::sexpr_names(value, &mut names);
        if !names.iter().any(|x| x.eq_ignore_ascii_case(n)) {
            // Set from other values: moves as they do.
            return self.movement(value, depth + 1);
        }
        // An induction variable: `K = K + c`, `K = c + K`, `K = K - c`, c constant.
        let (by, down) = increment(n, value)?;
        let amount = match (by, self.unit_step) {
            (SExpr::Name(y), Some(unit)) if y.eq_ignore_ascii_case(unit) => 1,
            _ => self.shapes.sym.constant_int(by)?,
        };
        if down {
            amount.checked_neg()
        } else {
            Some(amount)
        }
    }

    /// `e` reads nothing the loop changes (the DO variable included).
    fn still(&self, e: &SExpr) -> bool {
        let mut names = HashSet::new();
        crate::analysis::sexpr_names(e, &mut names);
        !names.iter().any(|n| {
            let n = n.to_ascii_uppercase();
            self.assigned.contains(&n) || self.index.is_some_and(|(v, _)| v == n)
        })
    }

    /// Bytes the address of `array(subscripts)` moves from one iteration to the next.
    fn stride(&self, array: &str, subscripts: &[SExpr]) -> Option<i64> {
        let movements: Vec<i64> = subscripts
            .iter()
            .map(|s| self.movement(s, 0))
            .collect::<Option<_>>()?;
        if movements.iter().all(|&c| c == 0) {
            return Some(0);
        }
        let element = i64::from(self.shapes.sym.element_bytes(array)?);
        let extents = self.shapes.extents(array);
        let mut stride = 0i64;
        let mut leading = 1i64;
        for (d, &c) in movements.iter().enumerate() {
            if c != 0 {
                stride = stride.checked_add(c.checked_mul(leading)?)?;
            }
            if movements[d + 1..].iter().any(|&c| c != 0) {
                leading = leading.checked_mul((*extents.get(d)?)?)?;
            }
        }
        stride.checked_mul(element)
    }
}

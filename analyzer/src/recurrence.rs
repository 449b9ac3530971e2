//! Dependence chains around innermost loops (rule 14 of `model::rules`, opcost's refinement of
//! Saavedra-Barrera's additive model): on an out-of-order CPU a loop whose iterations are independent
//! runs at the pace of its operations' summed (throughput) cost, but a loop that carries a
//! value from one iteration to the next through a chain of dependent statements cannot go
//! faster than that chain's latency. This module finds the innermost loops (DO, DO WHILE, and
//! backward GO TO), and for each the chains that lead from a scalar's value at the top of an
//! iteration back to the same scalar at its end (its recurrences), as latency counts.

use crate::analysis::{Mult, Program};
use crate::symbols::UnitKind;
use crate::syntax::{SExpr, Stmt, UOp};
use model::expr::{ArithOp, Expr, Operand};
use model::{rules, OpCounts};
use std::collections::{BTreeMap, BTreeSet};

/// An innermost loop: statements `first..=last` of the program, iterated `iterations` times.
#[derive(Debug, Clone)]
pub struct LoopShape {
    pub unit: usize,
    pub first: usize,
    pub last: usize,
    /// Counter combination giving the number of iterations of one run.
    pub iterations: Mult,
    /// Latency counts of each recurrence (one per carried scalar) over the iterations it
    /// spans, with that number of iterations.
    pub recurrences: Vec<(OpCounts, u32)>,
    /// Latency counts of the longest chain of dependent statements inside one iteration
    /// (rule 19: the out-of-order window).
    pub longest_chain: OpCounts,
    /// Per recurrence: whether its scalar is set afresh just before the loop (rule 27).
    pub restarted: Vec<bool>,
    /// Per recurrence: whether its chain passes through a watched IF (rule 26).
    pub through_branch: Vec<bool>,
    /// Per recurrence: the IF (first and last statement) whose conditional moves make it,
    /// for a chain of optimized builds only (rule 14g).
    pub if_converted: Vec<Option<(usize, usize)>>,
}

/// Scalars and elements a value reads outside subscripts (those can start a chain, rule 14;
/// an element the loop moves only one inside an iteration, rule 19: no iteration's store
/// comes back to it) into `out`, and what its subscripts read, at any depth, into
/// `addressing` (rule 14c).
fn scalars_read(e: &Expr, out: &mut Vec<String>, addressing: &mut Vec<String>) {
    let push = |out: &mut Vec<String>, key: String| {
        if !out.contains(&key) {
            out.push(key);
        }
    };
    match e {
        Expr::Variable(o) => push(out, o.name.clone()),
        // An element the loop moves starts a chain inside the iteration (rule 19): the
        // operators on a loaded value wait for one another like those on a scalar's.
        Expr::Element { subscripts, .. } => {
            push(out, e.to_string());
            for s in subscripts {
                let mut inner = Vec::new();
                scalars_read(s, &mut inner, addressing);
                for key in inner {
                    push(addressing, key);
                }
            }
        }
        Expr::Constant { .. } | Expr::Opaque { .. } => {}
        Expr::Paren(x) => scalars_read(x, out, addressing),
        Expr::Unary { operand, .. } => scalars_read(operand, out, addressing),
        Expr::Arith { lhs, rhs, .. }
        | Expr::Compare { lhs, rhs, .. }
        | Expr::Logic { lhs, rhs, .. } => {
            scalars_read(lhs, out, addressing);
            scalars_read(rhs, out, addressing);
        }
        Expr::Intrinsic { args, .. } | Expr::Call { args, .. } => {
            for a in args {
                scalars_read(a, out, addressing);
            }
        }
    }
}

/// Suffix of a carried element read at the previous iteration's value (`X(I-1)` after `X(I)`
/// is written): always the start of a chain, never the value written earlier in this iteration.
const PREVIOUS: &str = "#prev";
/// Suffix of a carried element read at this iteration's location (`X(I)` read where `X(I)` is
/// written): continues a chain only when written earlier in the iteration; never an origin.
const CURRENT: &str = "#cur";
/// Suffix of a followed function's result read by the reference (rule 14b): the same value as
/// the callee's result variable, reached through the function's return (QFRS, QFRD).
const RETURNED: &str = "#ret";

/// The type of the scalar named `name` that `e` reads, if it reads one.
fn type_read(e: &Expr, name: &str) -> Option<model::expr::Type> {
    let found = std::cell::Cell::new(None);
    e.rebuild(&|x| {
        if let Expr::Variable(o) = x {
            if o.name == name && found.get().is_none() {
                found.set(Some(o.ty));
            }
        }
        None
    });
    found.get()
}

/// One step of an iteration, in execution order, as the chain finder sees it: an assignment,
/// or the edges of a block IF whose branches are alternatives (only one runs per iteration, so
/// a chain through one branch does not continue through the next: smith's ACCUM adds or
/// subtracts, never both).
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Assign(Expr, Expr),
    /// IF (...) THEN: the branches start from the state here.
    Open,
    /// ELSE IF / ELSE: the previous branch ends, the next starts from the state at `Open`.
    Next,
    /// END IF: each chain continues from the longest of the branches (or none taken).
    Close,
    /// `target = value` under an IF an optimizing compiler turns into a conditional move
    /// (rule 14g): the target waits for the condition too, and keeps its old value otherwise.
    Select(Expr, Expr, Expr),
}

/// Chains per scalar: origin -> latency counts of the longest chain from it.
type Chains = BTreeMap<String, BTreeMap<String, OpCounts>>;

/// Keep, per scalar and origin, the longer of two chains.
fn merge_longest(into: &mut Chains, other: &Chains) {
    for (var, m) in other {
        let slot = into.entry(var.clone()).or_default();
        for (origin, c) in m {
            let keep = slot
                .get(origin)
                .is_none_or(|old| old.total_characterized() < c.total_characterized());
            if keep {
                slot.insert(origin.clone(), c.clone());
            }
        }
    }
}

/// The recurrences of a straight run of assignments (in execution order, wrapping around).
pub fn recurrences(assignments: &[(Expr, Expr)]) -> Vec<(OpCounts, u32)> {
    recurrences_of(&assignment_steps(assignments))
        .0
        .into_iter()
        .map(|r| (r.latency, r.span))
        .collect()
}

/// A straight run of assignments as chain-finder steps.
fn assignment_steps(assignments: &[(Expr, Expr)]) -> Vec<Step> {
    assignments
        .iter()
        .map(|(t, v)| Step::Assign(t.clone(), v.clone()))
        .collect()
}

/// The longest chain of dependent assignments inside one pass of a straight run (rule 19).
pub fn longest_chain(assignments: &[(Expr, Expr)]) -> OpCounts {
    recurrences_of(&assignment_steps(assignments)).1
}

/// The recurrences of one iteration's steps (wrapping around). For every scalar, the chains
/// from each loop-entry value (origin) to its current value are tracked, keeping the longest
/// (most latency operations) per origin; a block IF's branches each start from the state
/// before it and the longest chain of any branch goes on. Array elements take part as the
/// scalars `CarriedElements::rewrite` makes of them. Also returns the longest chain made
/// inside the iteration (from any origin to any value, rule 19).
pub fn recurrences_of(steps: &[Step]) -> (Vec<Recurrence>, OpCounts) {
    let assigned: BTreeSet<String> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Assign(t, _) | Step::Select(t, _, _) => match t.unparen() {
                Expr::Variable(o) => Some(o.name.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let mut chains: Chains = BTreeMap::new();
    let mut longest = OpCounts::new();
    // Per open block IF: the state before it, and the merged end states of finished branches.
    let mut open: Vec<(Chains, Chains)> = Vec::new();
    for step in steps {
        let (target, value, condition) = match step {
            Step::Assign(t, v) => (t, v, None),
            Step::Select(t, v, c) => (t, v, Some(c)),
            Step::Open => {
                open.push((chains.clone(), BTreeMap::new()));
                continue;
            }
            Step::Next => {
                if let Some((before, ended)) = open.last_mut() {
                    merge_longest(ended, &chains);
                    chains = before.clone();
                }
                continue;
            }
            Step::Close => {
                if let Some((before, mut ended)) = open.pop() {
                    merge_longest(&mut ended, &chains);
                    merge_longest(&mut ended, &before);
                    chains = ended;
                }
                continue;
            }
        };
        // Scalars and fixed elements; stores through variable subscripts are not tracked.
        let key = match target.unparen() {
            Expr::Variable(t) => t.name.clone(),
            e @ Expr::Element { subscripts, .. } if subscripts.iter().all(Expr::is_constant) => {
                e.to_string()
            }
            _ => continue,
        };
        let (mut reads, mut addressing) = (Vec::new(), Vec::new());
        scalars_read(value, &mut reads, &mut addressing);
        if let Some(c) = condition {
            scalars_read(c, &mut reads, &mut addressing);
            // The other choice: the target's old value.
            if !reads.contains(&key) {
                reads.push(key.clone());
            }
        }
        // A subscript computed on the iteration's chain delays its element's load (14c).
        for n in addressing {
            if assigned.contains(&n) && !reads.contains(&n) {
                reads.push(n);
            }
        }
        let mut next: BTreeMap<String, OpCounts> = BTreeMap::new();
        for w in &reads {
            let link = match condition {
                Some(c) => rules::selected_latency(target, value, c, w),
                None => rules::chain_latency(target, value, w),
            };
            let Some(mut step) = link else {
                continue;
            };
            if w.ends_with(RETURNED) {
                if let Some(t) = type_read(value, w) {
                    step += &rules::function_result_latency(t);
                }
            }
            let sources: Vec<(String, OpCounts)> = if let Some(base) = w.strip_suffix(PREVIOUS) {
                vec![(base.to_string(), OpCounts::new())]
            } else {
                let key = w
                    .strip_suffix(CURRENT)
                    .or_else(|| w.strip_suffix(RETURNED))
                    .unwrap_or(w);
                match chains.get(key) {
                    Some(m) => m.iter().map(|(o, c)| (o.clone(), c.clone())).collect(),
                    None => vec![(w.clone(), OpCounts::new())],
                }
            };
            for (origin, mut c) in sources {
                c += &step;
                let keep = next
                    .get(&origin)
                    .is_none_or(|old| old.total_characterized() < c.total_characterized());
                if keep {
                    if longest.total_characterized() < c.total_characterized() {
                        longest = c.clone();
                    }
                    next.insert(origin, c);
                }
            }
        }
        chains.insert(key, next);
    }
    (cycles(&chains), longest)
}

/// The longest iterations a chain may take to come back to its scalar (rule 14): whetstone's
/// P0 rotates three elements, `E(J) = E(K)`, `E(K) = E(L)`, `E(L) = E(J)`, and each comes back
/// to itself only after two iterations.
const MAX_SPAN: u32 = 4;

/// The recurrences of an iteration whose chains are `chains` (scalar -> origin -> latency
/// counts): for every scalar, the chain from its value at the top of an iteration back to
/// itself after one or more iterations, as (latency counts, iterations spanned); per scalar
/// the one with the most latency operations per iteration, at most four in all.
fn cycles(chains: &Chains) -> Vec<Recurrence> {
    // paths[v][o]: the longest chain from origin o to v over `span` iterations.
    let mut paths: Chains = chains.clone();
    let mut best: BTreeMap<&String, (OpCounts, u32)> = BTreeMap::new();
    let per_iteration = |c: &OpCounts, span: u32| c.total_characterized() as f64 / span as f64;
    for span in 1..=MAX_SPAN {
        for var in chains.keys() {
            let Some(c) = paths.get(var).and_then(|m| m.get(var)) else {
                continue;
            };
            if c.params.is_empty() {
                continue;
            }
            let better = best
                .get(var)
                .is_none_or(|(b, s)| per_iteration(b, *s) < per_iteration(c, span));
            if better {
                best.insert(var, (c.clone(), span));
            }
        }
        // One more iteration: a chain ending at u continues along u's chains to v.
        let mut longer: Chains = BTreeMap::new();
        for (v, from) in chains {
            let slot: &mut BTreeMap<String, OpCounts> = longer.entry(v.clone()).or_default();
            for (u, step) in from {
                // A scalar the iteration does not assign (`paths` has the assigned ones) keeps
                // its value: itself, no latency.
                let unchanged;
                let ends = match paths.get(u) {
                    Some(m) => m,
                    None => {
                        unchanged = BTreeMap::from([(u.clone(), OpCounts::new())]);
                        &unchanged
                    }
                };
                for (origin, c) in ends {
                    let mut total = c.clone();
                    total += step;
                    let keep = slot
                        .get(origin)
                        .is_none_or(|old| old.total_characterized() < total.total_characterized());
                    if keep {
                        slot.insert(origin.clone(), total);
                    }
                }
            }
        }
        paths = longer;
    }
    let mut out: Vec<Recurrence> = best
        .into_iter()
        .map(|(scalar, (latency, span))| Recurrence {
            latency,
            span,
            scalar: scalar.clone(),
        })
        .collect();
    out.sort_by(|a, b| {
        per_iteration(&b.latency, b.span).total_cmp(&per_iteration(&a.latency, a.span))
    });
    out.truncate(4);
    out
}

/// Rule 27: the chain of a DO loop's variable, one QDOV an iteration. gfortran -O0 keeps the
/// variable in memory, and each iteration's test and increment wait for the last increment's
/// store; the DO statement sets it afresh at every entry, so the chain always restarts. None
/// for a loop closed by GO TO or a DO WHILE (their chains, if any, are their statements').
fn do_variable_link(prog: &Program, first: usize) -> Option<(OpCounts, u32)> {
    matches!(prog.stmts[first].stmt, Some(Stmt::Do(..)))
        .then(|| (OpCounts::one(model::Param::QDOV), 1))
}

/// A recurrence of a loop (rule 14): the latency counts of its chain over the iterations it
/// spans, and the scalar (or carried element's location) it comes back to.
#[derive(Debug, Clone, PartialEq)]
pub struct Recurrence {
    pub latency: OpCounts,
    pub span: u32,
    pub scalar: String,
}

/// Rule 27: whether the assignments just before statement `first` (back to the first
/// statement that is not an assignment, or a labelled one, which a jump may enter) set
/// `scalar` afresh: the last of them to assign it does not read it, or updates it from
/// itself after an earlier one of them set it afresh (`Y = 0.5D0 * (1.0D0 + X)`, then
/// `Y = 0.5D0 * (Y + X / Y)`: a Newton iteration's first step written before its loop).
fn set_afresh_before(prog: &Program, first: usize, scalar: &str) -> bool {
    let unit = prog.stmts[first].unit;
    for k in (0..first).rev() {
        let st = &prog.stmts[k];
        let Some((target, value)) = st.assignment.as_ref().filter(|_| st.unit == unit) else {
            return false;
        };
        if target.unparen().to_string() == scalar {
            let (mut reads, mut addressing) = (Vec::new(), Vec::new());
            scalars_read(value, &mut reads, &mut addressing);
            if !reads.iter().chain(&addressing).any(|r| r == scalar) {
                return true;
            }
            // An update of itself (a first Newton step written before the loop): afresh if
            // an earlier assignment of the run set it afresh.
        }
        if prog.statement(k).label.is_some() {
            return false;
        }
    }
    false
}

/// A subscript of an element a loop reads or writes, as far as rule 14 tells them apart.
#[derive(Debug, Clone, PartialEq)]
enum Dim {
    /// Unchanged by the loop (its text).
    Invariant(String),
    /// The loop's DO variable plus a constant.
    Offset(i64),
}

/// Array elements that carry values from one iteration of a loop to the next (rule 14):
/// elements whose subscripts the loop does not change (`W(I)` in a loop over `K`: the same
/// location every iteration, like a scalar), and elements written at an offset of the DO
/// variable and read one iteration later (`X(I)` written, `X(I-1)` read, step 1: livermore's
/// first sum and tridiagonal elimination). `rewrite` turns them into scalars named by their
/// location so that `recurrences` follows them; other elements stay as they are.
struct CarriedElements {
    /// Names the loop assigns (upper case), with its DO variable.
    assigned: BTreeSet<String>,
    /// The DO variable and its constant step.
    index: Option<(String, i64)>,
    /// Elements the loop writes with an offset subscript: array, subscripts, location name.
    writes: Vec<(String, Vec<Dim>, String)>,
    /// Every element the loop writes, as written (`W(K)` with K assigned in the loop too): a
    /// read of the same text later in an iteration continues a chain.
    targets: BTreeSet<String>,
}

impl CarriedElements {
    fn new(
        body: &[(Expr, Expr)],
        assigned: BTreeSet<String>,
        index: Option<(String, i64)>,
    ) -> Self {
        let mut c = CarriedElements {
            assigned,
            index,
            writes: Vec::new(),
            targets: BTreeSet::new(),
        };
        for (target, _) in body {
            if let Expr::Element { array, subscripts } = target.unparen() {
                let name = target.unparen().to_string();
                if let Some(dims) = c.dims(subscripts) {
                    if dims.iter().any(|d| matches!(d, Dim::Offset(_))) {
                        c.writes
                            .push((array.name.to_ascii_uppercase(), dims, name.clone()));
                    }
                }
                c.targets.insert(name);
            }
        }
        c
    }

    fn dims(&self, subscripts: &[Expr]) -> Option<Vec<Dim>> {
        subscripts
            .iter()
            .map(|e| {
                if let Some((var, _)) = &self.index {
                    if let Some(k) = offset_of(e, var) {
                        return Some(Dim::Offset(k));
                    }
                }
                let mut names = Vec::new();
                plain_names(e, &mut names)?;
                (!names.iter().any(|n| self.assigned.contains(n)))
                    .then(|| Dim::Invariant(e.to_string()))
            })
            .collect()
    }

    /// `e` with its carried elements as scalars; `written` for an assignment's target.
    fn rewrite(&self, e: &Expr, written: bool) -> Expr {
        e.rebuild(&|x| match x {
            Expr::Element { array, subscripts } if !subscripts.iter().all(Expr::is_constant) => {
                Some(self.carried(x, array, subscripts, written))
            }
            Expr::Compare { .. } | Expr::Logic { .. } | Expr::Call { .. } | Expr::Opaque { .. } => {
                Some(x.clone())
            }
            _ => None,
        })
    }

    /// Element `e` (of `array`, with run-time `subscripts`) as the scalar of its location when
    /// the loop carries it, else unchanged.
    fn carried(&self, e: &Expr, array: &Operand, subscripts: &[Expr], written: bool) -> Expr {
        let scalar = |name: String| {
            Expr::Variable(Operand {
                name,
                ..array.clone()
            })
        };
        let text = e.to_string();
        if written {
            return scalar(text);
        }
        let Some(dims) = self.dims(subscripts) else {
            return if self.targets.contains(&text) {
                scalar(format!("{text}{CURRENT}"))
            } else {
                e.clone()
            };
        };
        if dims.iter().all(|d| matches!(d, Dim::Invariant(_))) {
            return scalar(text);
        }
        let own = array.name.to_ascii_uppercase();
        let step = self.index.as_ref().map_or(0, |(_, s)| *s);
        let same_place = |w: &Vec<Dim>, delta: i64| {
            w.len() == dims.len()
                && w.iter().zip(&dims).all(|(a, b)| match (a, b) {
                    (Dim::Offset(x), Dim::Offset(y)) => x - y == delta,
                    (a, b) => a == b,
                })
        };
        for (_, w, name) in self.writes.iter().filter(|(a, _, _)| *a == own) {
            if same_place(w, step) {
                return scalar(format!("{name}{PREVIOUS}"));
            }
            if same_place(w, 0) {
                return scalar(format!("{name}{CURRENT}"));
            }
        }
        e.clone()
    }
}

/// `var + k` (or `k + var`, `var - k`, `var`) as k.
fn offset_of(e: &Expr, var: &str) -> Option<i64> {
    let int = |x: &Expr| match x.unparen() {
        Expr::Constant { text, .. } => text.parse::<i64>().ok(),
        _ => None,
    };
    let is_var =
        |x: &Expr| matches!(x.unparen(), Expr::Variable(o) if o.name.eq_ignore_ascii_case(var));
    match e.unparen() {
        x if is_var(x) => Some(0),
        Expr::Arith {
            op: ArithOp::Add,
            lhs,
            rhs,
        } if is_var(lhs) => int(rhs),
        Expr::Arith {
            op: ArithOp::Add,
            lhs,
            rhs,
        } if is_var(rhs) => int(lhs),
        Expr::Arith {
            op: ArithOp::Sub,
            lhs,
            rhs,
        } if is_var(lhs) => int(rhs).map(|k| -k),
        _ => None,
    }
}

/// The variable names of a subscript made of variables, constants and arithmetic (upper
/// case); None when it reads an element or calls a function (it may change under the loop).
fn plain_names(e: &Expr, out: &mut Vec<String>) -> Option<()> {
    match e {
        Expr::Constant { .. } => Some(()),
        Expr::Variable(o) => {
            out.push(o.name.to_ascii_uppercase());
            Some(())
        }
        Expr::Paren(x) | Expr::Unary { operand: x, .. } => plain_names(x, out),
        Expr::Arith { lhs, rhs, .. } => {
            plain_names(lhs, out)?;
            plain_names(rhs, out)
        }
        _ => None,
    }
}

/// The DO variable and constant step of the loop that starts at statement `first`.
fn do_index(prog: &Program, first: usize) -> Option<(String, i64)> {
    let Some(Stmt::Do(_, ctrl)) = &prog.stmts[first].stmt else {
        return None;
    };
    let step = match &ctrl.step {
        None => 1,
        Some(SExpr::Int(t)) => t.parse().ok()?,
        Some(SExpr::Unary(UOp::Neg, x)) => match x.as_ref() {
            SExpr::Int(t) => -t.parse::<i64>().ok()?,
            _ => return None,
        },
        Some(_) => return None,
    };
    Some((ctrl.var.to_ascii_uppercase(), step))
}

/// The names an iteration assigns (upper case): the targets of its assignments and the DO
/// variables of its statements.
fn assigned_names(
    prog: &Program,
    first: usize,
    last: usize,
    body: &[(Expr, Expr)],
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for st in &prog.stmts[first..=last] {
        if let Some(Stmt::Do(_, ctrl)) = &st.stmt {
            out.insert(ctrl.var.to_ascii_uppercase());
        }
    }
    for (target, _) in body {
        if let Expr::Variable(o) | Expr::Element { array: o, .. } = target.unparen() {
            out.insert(o.name.to_ascii_uppercase());
        }
    }
    out
}

/// Rule 26: the scalars that pass through a watched IF of statements `first..=last` (rule
/// 15): its condition waits for them (reads them, or what the iteration computed from them
/// before it), and it chooses their next value (assigns them in its branches or as its
/// consequent). A mispredicted IF is found out only when its condition is known, and its
/// wrong path made the wrong link, so such a chain stands still for the wait, the refill and
/// the link made again: bsearch's `MID = (LO + HI) / 2`, `IF (T(MID) .LT. K) THEN LO = MID +
/// 1 ELSE HI = MID - 1`.
fn through_conditions(prog: &Program, first: usize, last: usize) -> BTreeSet<String> {
    let stmts = &prog.stmts[first..=last];
    let mut through = BTreeSet::new();
    for (k, st) in stmts.iter().enumerate() {
        let condition = match &st.stmt {
            Some(Stmt::LogicalIf(c, ..) | Stmt::BlockIf(c) | Stmt::ElseIf(c)) => c,
            _ => continue,
        };
        if !st.data_dependent() {
            continue;
        }
        let chosen = chosen_by(stmts, k);
        if chosen.is_empty() {
            continue;
        }
        let mut named = std::collections::HashSet::new();
        crate::analysis::sexpr_names(condition, &mut named);
        let mut wanted: Vec<String> = named.iter().map(|n| n.to_ascii_uppercase()).collect();
        // Back through the assignments before the IF in the iteration, latest first.
        for earlier in stmts[..k].iter().rev() {
            let Some((t, v)) = &earlier.assignment else {
                continue;
            };
            let Expr::Variable(o) = t.unparen() else {
                continue;
            };
            if wanted.contains(&o.name.to_ascii_uppercase()) {
                let (mut reads, mut addressing) = (Vec::new(), Vec::new());
                scalars_read(v, &mut reads, &mut addressing);
                for n in reads.into_iter().chain(addressing) {
                    let n = n.to_ascii_uppercase();
                    if !wanted.contains(&n) {
                        wanted.push(n);
                    }
                }
            }
        }
        through.extend(wanted.into_iter().filter(|n| chosen.contains(n)));
    }
    through
}

/// The scalars the IF at `stmts[k]` assigns under it, upper case: a logical IF's consequent,
/// or a block IF's (an ELSE IF's) branches up to its END IF.
fn chosen_by(stmts: &[crate::analysis::StmtInfo], k: usize) -> BTreeSet<String> {
    let scalar =
        |st: &crate::analysis::StmtInfo| match st.assignment.as_ref().map(|a| a.0.unparen()) {
            Some(Expr::Variable(o)) => Some(o.name.to_ascii_uppercase()),
            _ => None,
        };
    if matches!(stmts[k].stmt, Some(Stmt::LogicalIf(..))) {
        return scalar(&stmts[k]).into_iter().collect();
    }
    let mut depth = 0usize;
    let mut out = BTreeSet::new();
    for st in &stmts[k + 1..] {
        match st.stmt.as_ref().and_then(branching) {
            Some(Step::Open) => depth += 1,
            Some(Step::Close) if depth == 0 => break,
            Some(Step::Close) => depth -= 1,
            _ => {}
        }
        out.extend(scalar(st));
    }
    out
}

/// A block IF's edge as a chain-finder step.
fn branching(s: &Stmt) -> Option<Step> {
    match s {
        Stmt::BlockIf(_) => Some(Step::Open),
        Stmt::ElseIf(_) | Stmt::Else => Some(Step::Next),
        Stmt::EndIf => Some(Step::Close),
        _ => None,
    }
}

/// The most assignments under an IF that an optimizing compiler turns into conditional moves
/// (rule 14g; GCC's if-conversion takes a few instructions a branch).
const MAX_SELECTED: usize = 4;

/// Rule 14g: the IFs of statements `first..=last` an optimizing compiler may turn into
/// conditional moves, as (IF's statement, its END IF's or itself): a logical IF on data whose
/// consequent assigns a scalar, or a block IF on data (one ELSE at most) whose branches only
/// assign scalars, at most [`MAX_SELECTED`] of them; no function reference in the condition
/// or the values (a call cannot be made conditionally). Whether the compiler did is the
/// machine code's to say (`LoopStats::if_converted`).
fn convertible_ifs(prog: &Program, first: usize, last: usize) -> Vec<(usize, usize)> {
    let calls = rules::calls_function;
    let scalar_assignment = |st: &crate::analysis::StmtInfo| match &st.assignment {
        Some((t, v)) => matches!(t.unparen(), Expr::Variable(_)) && !calls(v) && st.call.is_none(),
        None => false,
    };
    let mut out = Vec::new();
    let mut i = first;
    while i <= last {
        let st = &prog.stmts[i];
        let on_data = st.data_dependent() && st.condition.as_ref().is_some_and(|c| !calls(c));
        match &st.stmt {
            Some(Stmt::LogicalIf(..)) if on_data && scalar_assignment(st) => out.push((i, i)),
            Some(Stmt::BlockIf(_)) if on_data => {
                let mut assignments = 0;
                let mut elses = 0;
                let mut end = None;
                for (j, inner) in prog.stmts.iter().enumerate().take(last + 1).skip(i + 1) {
                    match &inner.stmt {
                        Some(Stmt::EndIf) => {
                            end = Some(j);
                            break;
                        }
                        Some(Stmt::Else) => elses += 1,
                        Some(Stmt::Assignment(..)) if scalar_assignment(inner) => assignments += 1,
                        Some(Stmt::Continue) => {}
                        _ => break,
                    }
                }
                if let Some(j) = end.filter(|_| elses <= 1 && assignments <= MAX_SELECTED) {
                    out.push((i, j));
                    i = j;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The steps one iteration of statements `first..=last` makes, in order, with those of the
/// subroutines it calls and the functions its assignments and IF conditions reference
/// inlined when a callee runs straight through (no loops, jumps or calls of its own; block
/// IFs are fine):
/// whetstone's P3 and P0 carry their chains from one call to the next through their dummy
/// arguments and COMMON, and a random-number function carries its seed through its dummy
/// argument from one reference to the next. The second value is false when a call could not
/// be inlined (it may change anything).
/// The assignments under the IFs of `converted` (from [`convertible_ifs`]) are made
/// selections by their conditions (rule 14g).
fn iteration_steps(
    prog: &Program,
    first: usize,
    last: usize,
    converted: &[(usize, usize)],
) -> (Vec<Step>, bool) {
    let mut body = Vec::new();
    let mut complete = true;
    let references = std::cell::Cell::new(0);
    for (i, st) in prog.stmts.iter().enumerate().take(last + 1).skip(first) {
        if let Some(&(start, _)) = converted.iter().find(|(a, b)| (*a..=*b).contains(&i)) {
            let condition = prog.stmts[start].condition.clone();
            if let (Some((t, v)), Some(c)) = (&st.assignment, condition) {
                body.push(Step::Select(t.clone(), v.clone(), c));
            }
            continue;
        }
        // Rule 14, widened to conditions: a function an IF's condition references runs
        // before the branch (an ELSE IF's after the previous branch ends), and its updates of
        // its arguments are links as an assignment's reference makes them (a random-number
        // function's seed in `IF (RAN(ISEED) .LT. P)`).
        let condition = st.condition.as_ref();
        let else_if = matches!(st.stmt, Some(Stmt::ElseIf(_)));
        if let Some(c) = condition.filter(|_| !else_if) {
            with_functions_inlined(prog, c, &mut body, 0, &references);
        }
        if let Some(b) = st.stmt.as_ref().and_then(branching) {
            body.push(b);
        }
        if let Some(c) = condition.filter(|_| else_if) {
            with_functions_inlined(prog, c, &mut body, 0, &references);
        }
        if let Some((t, v)) = &st.assignment {
            let v = with_functions_inlined(prog, v, &mut body, 0, &references);
            body.push(Step::Assign(t.clone(), v));
        }
        if let Some((name, actuals)) = &st.call {
            let prefix = format!("{}%", name.to_ascii_uppercase());
            match inlined(prog, name, actuals, UnitKind::Subroutine, prefix) {
                // The functions the subroutine's assignments reference are followed as the
                // loop's own are.
                Some(callee) => {
                    push_with_functions_inlined(prog, callee, &mut body, 1, &references)
                }
                None => complete = false,
            }
        }
    }
    (body, complete)
}

/// How deep function references inside inlined functions are followed.
const FUNCTION_DEPTH: usize = 4;

/// `v` with each reference to a straight-through FUNCTION replaced by the function's result
/// (the callee's own variable of the function's name); the function's steps, in the caller's
/// names and with the references inside them inlined the same way, are pushed onto `body`
/// before it. Each reference gets names of its own (`references` numbers them): FMS's
/// `PROD(A, B) - PROD(C, D)` is two products, not one overwritten by the other.
fn with_functions_inlined(
    prog: &Program,
    v: &Expr,
    body: &mut Vec<Step>,
    depth: usize,
    references: &std::cell::Cell<usize>,
) -> Expr {
    if depth >= FUNCTION_DEPTH {
        return v.clone();
    }
    let pushed = std::cell::RefCell::new(Vec::new());
    let out = v.rebuild(&|x| {
        let Expr::Call { name, args, ty } = x else {
            return None;
        };
        let mut steps = Vec::new();
        let args: Vec<Expr> = args
            .iter()
            .map(|a| with_functions_inlined(prog, a, &mut steps, depth + 1, references))
            .collect();
        // A function that cannot be followed stays a reference, its arguments followed.
        references.set(references.get() + 1);
        let result = match function_result(prog, name, &args, references.get()) {
            Some((callee, result)) => {
                push_with_functions_inlined(prog, callee, &mut steps, depth + 1, references);
                returned(result)
            }
            None => Expr::Call {
                name: name.clone(),
                args,
                ty: *ty,
            },
        };
        pushed.borrow_mut().extend(steps);
        Some(result)
    });
    body.extend(pushed.into_inner());
    out
}

/// Push a callee's `steps` onto `body`, the functions its assignments reference inlined
/// ([`with_functions_inlined`] at `depth`).
fn push_with_functions_inlined(
    prog: &Program,
    steps: Vec<Step>,
    body: &mut Vec<Step>,
    depth: usize,
    references: &std::cell::Cell<usize>,
) {
    for step in steps {
        match step {
            Step::Assign(t, value) => {
                let value = with_functions_inlined(prog, &value, body, depth, references);
                body.push(Step::Assign(t, value));
            }
            other => body.push(other),
        }
    }
}

/// The reference's view of a followed function's result variable (rule 14b).
fn returned(result: Expr) -> Expr {
    match result {
        Expr::Variable(mut o) => {
            o.name.push_str(RETURNED);
            Expr::Variable(o)
        }
        other => other,
    }
}

/// A straight-through FUNCTION's steps for actual arguments `actuals`, in the caller's names,
/// and its result as an expression (the callee's variable of the function's name), the
/// callee's own names those of reference number `reference`.
fn function_result(
    prog: &Program,
    name: &str,
    actuals: &[Expr],
    reference: usize,
) -> Option<(Vec<Step>, Expr)> {
    let name = name.to_ascii_uppercase();
    // The callee's own names are prefixed by its name and the reference (`Callee::own`).
    let prefix = format!("{name}%{reference}%");
    let own = format!("{prefix}{name}");
    let steps = inlined(prog, &name, actuals, UnitKind::Function, prefix)?;
    let result = steps.iter().rev().find_map(|s| match s {
        Step::Assign(t @ Expr::Variable(o), _) if o.name.eq_ignore_ascii_case(&own) => {
            Some(t.clone())
        }
        _ => None,
    })?;
    Some((steps, result))
}

/// The steps of subroutine or function `name` called with `actuals`, in the caller's names:
/// each dummy becomes its actual argument (a variable or element; anything else a
/// temporary), each local of the callee a name of its own; COMMON members keep theirs.
fn inlined(
    prog: &Program,
    name: &str,
    actuals: &[Expr],
    kind: UnitKind,
    prefix: String,
) -> Option<Vec<Step>> {
    let unit = prog
        .units
        .iter()
        .find(|u| u.kind == kind && u.name.eq_ignore_ascii_case(name))?;
    let dummies = match &prog.stmts[unit.first].stmt {
        Some(Stmt::Subroutine(_, d)) | Some(Stmt::Function(_, _, d)) => d,
        _ => return None,
    };
    if dummies.len() != actuals.len() {
        return None;
    }
    let callee = Callee {
        prefix,
        dummies,
        actuals,
    };
    let mut body = Vec::new();
    for st in &prog.stmts[unit.first..unit.end] {
        let s = st.stmt.as_ref()?;
        let jumps = |s: &Stmt| {
            matches!(
                s,
                Stmt::Do(..)
                    | Stmt::DoWhile(..)
                    | Stmt::Goto(_)
                    | Stmt::ComputedGoto(..)
                    | Stmt::AssignedGoto(..)
                    | Stmt::ArithIf(..)
                    | Stmt::Call(..)
            )
        };
        if jumps(s) || matches!(s, Stmt::LogicalIf(_, inner, _) if jumps(inner)) {
            return None;
        }
        if let Some(b) = branching(s) {
            body.push(b);
        }
        if let Some((t, v)) = &st.assignment {
            body.push(Step::Assign(callee.rename(t), callee.rename(v)));
        }
    }
    Some(body)
}

/// A subroutine's names seen from one of its call sites.
struct Callee<'a> {
    prefix: String,
    dummies: &'a [String],
    actuals: &'a [Expr],
}

impl Callee<'_> {
    fn actual(&self, name: &str) -> Option<&Expr> {
        self.dummies
            .iter()
            .position(|d| d.eq_ignore_ascii_case(name))
            .map(|k| &self.actuals[k])
    }

    fn own(&self, o: &Operand) -> Operand {
        Operand {
            name: format!("{}{}", self.prefix, o.name),
            ..o.clone()
        }
    }

    /// `e` in the caller's names.
    fn rename(&self, e: &Expr) -> Expr {
        e.rebuild(&|x| match x {
            Expr::Variable(o) if !o.global => Some(match self.actual(&o.name) {
                Some(a @ (Expr::Variable(_) | Expr::Element { .. })) => a.clone(),
                _ => Expr::Variable(self.own(o)),
            }),
            Expr::Element { array, subscripts } => Some(Expr::Element {
                array: match self.actual(&array.name) {
                    _ if array.global => array.clone(),
                    Some(Expr::Variable(a)) => a.clone(),
                    _ => self.own(array),
                },
                subscripts: subscripts.iter().map(|s| self.rename(s)).collect(),
            }),
            _ => None,
        })
    }
}

/// The innermost loops of a program and their recurrences.
pub fn innermost_loops(prog: &Program) -> Vec<LoopShape> {
    let mut loops: Vec<(usize, usize, usize, Mult)> = Vec::new();
    let label_at = |unit: usize, label: u32| -> Option<usize> {
        (0..prog.stmts.len()).find(|&i| {
            prog.stmts[i].unit == unit
                && prog.statement(i).label == Some(label)
                && prog.stmts[i].stmt.is_some()
        })
    };
    for (i, st) in prog.stmts.iter().enumerate() {
        let Some(s) = &st.stmt else { continue };
        match s {
            Stmt::Do(label, _) | Stmt::DoWhile(label, _) => {
                let unit_end = prog.units[st.unit].end;
                let end = crate::analysis::loop_end(prog, i, *label, unit_end);
                if let (Some(j), Some(iter)) = (end, st.parts.get(1)) {
                    loops.push((st.unit, i, j, iter.mult.clone()));
                }
            }
            Stmt::Goto(l) => {
                if let Some(t) = label_at(st.unit, *l).filter(|&t| t < i) {
                    if let Some(m) = prog.stmts[t].exec.clone() {
                        loops.push((st.unit, t, i, m));
                    }
                }
            }
            Stmt::LogicalIf(_, inner, _) => {
                if let Stmt::Goto(l) = inner.as_ref() {
                    if let Some(t) = label_at(st.unit, *l).filter(|&t| t < i) {
                        if let Some(m) = prog.stmts[t].exec.clone() {
                            loops.push((st.unit, t, i, m));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Innermost: no other loop strictly inside, and none that its closing jump leaves: a
    // GO TO from inside a DO loop back to a label before it (backtracking code: restart the
    // search) closes a loop around that DO loop, though their lines only overlap.
    let inner: Vec<&(usize, usize, usize, Mult)> = loops
        .iter()
        .filter(|a| {
            !loops.iter().any(|b| {
                let inside = (b.1, b.2) != (a.1, a.2) && a.1 <= b.1 && b.2 <= a.2;
                let jumps_out_of = a.1 < b.1 && b.1 <= a.2 && a.2 < b.2;
                inside || jumps_out_of
            })
        })
        .collect();
    inner
        .into_iter()
        .map(|(unit, first, last, iterations)| {
            let (found, longest_chain) = loop_recurrences(prog, *first, *last, &[]);
            let mut restarted: Vec<bool> = found
                .iter()
                .map(|r| set_afresh_before(prog, *first, &r.scalar))
                .collect();
            let through = through_conditions(prog, *first, *last);
            let mut through_branch: Vec<bool> = found
                .iter()
                .map(|r| through.contains(&r.scalar.to_ascii_uppercase()))
                .collect();
            let mut if_converted = vec![None; found.len()];
            let converted = converted_recurrences(prog, *first, *last, &found);
            let mut recurrences: Vec<(OpCounts, u32)> =
                found.into_iter().map(|r| (r.latency, r.span)).collect();
            for (r, at) in converted {
                restarted.push(set_afresh_before(prog, *first, &r.scalar));
                through_branch.push(false);
                if_converted.push(Some(at));
                recurrences.push((r.latency, r.span));
            }
            if let Some(link) = do_variable_link(prog, *first) {
                recurrences.push(link);
                restarted.push(true);
                through_branch.push(false);
                if_converted.push(None);
            }
            LoopShape {
                unit: *unit,
                first: *first,
                last: *last,
                iterations: iterations.clone(),
                recurrences,
                restarted,
                through_branch,
                if_converted,
                longest_chain,
            }
        })
        .collect()
}

/// The recurrences and the longest chain inside an iteration of statements `first..=last`
/// (with the IFs of `converted` made selections, rule 14g), carried elements rewritten as
/// scalars when every call could be followed.
fn loop_recurrences(
    prog: &Program,
    first: usize,
    last: usize,
    converted: &[(usize, usize)],
) -> (Vec<Recurrence>, OpCounts) {
    let (mut body, complete) = iteration_steps(prog, first, last, converted);
    if complete {
        let assignments: Vec<(Expr, Expr)> = body
            .iter()
            .filter_map(|s| match s {
                Step::Assign(t, v) | Step::Select(t, v, _) => Some((t.clone(), v.clone())),
                _ => None,
            })
            .collect();
        let assigned = assigned_names(prog, first, last, &assignments);
        let carried = CarriedElements::new(&assignments, assigned, do_index(prog, first));
        for s in &mut body {
            match s {
                Step::Assign(t, v) => {
                    *s = Step::Assign(carried.rewrite(t, true), carried.rewrite(v, false))
                }
                Step::Select(t, v, c) => {
                    *s = Step::Select(
                        carried.rewrite(t, true),
                        carried.rewrite(v, false),
                        carried.rewrite(c, false),
                    )
                }
                _ => {}
            }
        }
    }
    recurrences_of(&body)
}

/// Rule 14g: the recurrences that exist only when an optimizing compiler turns an IF of the
/// loop into conditional moves, each with the IF's statements (first, last): a scalar the IF
/// assigns whose chain through the condition (or through the select) is longer than the
/// loop's `ordinary` one, or which has none (livermore's `IF (X(K) .LT. X(M)) M = K`: M's
/// chain only goes through X(M) and the compare).
fn converted_recurrences(
    prog: &Program,
    first: usize,
    last: usize,
    ordinary: &[Recurrence],
) -> Vec<(Recurrence, (usize, usize))> {
    let converted = convertible_ifs(prog, first, last);
    if converted.is_empty() {
        return Vec::new();
    }
    let (selected, _) = loop_recurrences(prog, first, last, &converted);
    let per_iteration = |r: &Recurrence| r.latency.total_characterized() as f64 / r.span as f64;
    selected
        .into_iter()
        .filter_map(|r| {
            let name = r.scalar.to_ascii_uppercase();
            let at = *converted.iter().find(|(a, b)| {
                (*a..=*b).any(|k| {
                    matches!(&prog.stmts[k].assignment, Some((t, _))
                        if matches!(t.unparen(), Expr::Variable(o) if o.name.eq_ignore_ascii_case(&name)))
                })
            })?;
            let longer = ordinary
                .iter()
                .filter(|o| o.scalar.eq_ignore_ascii_case(&r.scalar))
                .all(|o| per_iteration(o) < per_iteration(&r));
            longer.then_some((r, at))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_longest_chain_inside_an_iteration_is_found_without_a_recurrence() {
        // DX = X - XI; R2 = DX * DX + E; S = C / R2: a chain XI -> DX -> R2 -> S of three
        // statements that no iteration carries to the next.
        let d = |n: &str| Operand::local(n, model::expr::Type::Double);
        let v = |n: &str| Expr::var(&d(n));
        let body = [
            (v("DX"), Expr::arith(ArithOp::Add, v("X"), v("XI"))),
            (
                v("R2"),
                Expr::arith(
                    ArithOp::Add,
                    Expr::arith(ArithOp::Mul, v("DX"), v("DX")),
                    v("E"),
                ),
            ),
            (v("S"), Expr::arith(ArithOp::Div, v("C"), v("R2"))),
        ];
        assert!(recurrences(&body).is_empty());
        let chain = longest_chain(&body);
        assert_eq!(chain.params.get(&model::Param::QTRD), Some(&3));
        assert_eq!(chain.params.get(&model::Param::QARD), Some(&2));
        assert_eq!(chain.params.get(&model::Param::QMRD), Some(&1));
        assert_eq!(chain.params.get(&model::Param::QDRD), Some(&1));
    }

    use super::*;
    use model::expr::{ArithOp, Operand, Type};
    use model::Param;

    fn v(n: &str) -> Expr {
        Expr::var(&Operand::local(n, Type::Real))
    }

    #[test]
    fn a_sum_carries_its_accumulator() {
        let a = Operand::local("A", Type::Real);
        let i = Operand::local("I", Type::Integer);
        // S = S + A(I)
        let r = recurrences(&[(
            v("S"),
            Expr::arith(ArithOp::Add, v("S"), Expr::elem(&a, vec![Expr::var(&i)])),
        )]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0.get(Param::QARS), 1);
        assert_eq!(r[0].0.get(Param::QTRS), 1);
    }

    #[test]
    fn a_subscript_on_the_chain_puts_its_elements_load_on_it() {
        // Rule 14c. J = NEXT(J): a pointer chase, one addressed load a link.
        let int = |n: &str| Operand::local(n, Type::Integer);
        let iv = |n: &str| Expr::var(&int(n));
        let next = int("NEXT");
        let r = recurrences(&[(iv("J"), Expr::elem(&next, vec![iv("J")]))]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0.get(Param::QADR), 1);
        assert_eq!(r[0].0.get(Param::QTIS), 1);
        // An interpolation search's step: D = T(LO) - K; LO = LO + D / 4. The chain from LO
        // back to LO goes through T(LO)'s load, and is longer than the one that skips it.
        let t = int("T");
        let body = [
            (
                iv("D"),
                Expr::arith(ArithOp::Sub, Expr::elem(&t, vec![iv("LO")]), iv("K")),
            ),
            (
                iv("LO"),
                Expr::arith(
                    ArithOp::Add,
                    iv("LO"),
                    Expr::arith(ArithOp::Div, iv("D"), Expr::int(4)),
                ),
            ),
        ];
        let r = recurrences(&body);
        let lo = r.iter().max_by_key(|x| x.0.total_characterized()).unwrap();
        assert_eq!(lo.0.get(Param::QADR), 1);
        assert_eq!(lo.0.get(Param::QCIS), 1);
        // S = S + A(I), I not assigned by the iteration (a DO variable): its address is
        // ready long before, and no load waits on the chain.
        let a = Operand::local("A", Type::Real);
        let body = [(
            v("S"),
            Expr::arith(ArithOp::Add, v("S"), Expr::elem(&a, vec![iv("I")])),
        )];
        assert_eq!(recurrences(&body)[0].0.get(Param::QADR), 0);
        assert_eq!(longest_chain(&body).get(Param::QADR), 0);
    }

    #[test]
    fn an_integer_chain_costs_its_additions_by_their_form() {
        // Rule 14d. An insertion sort's I = I - 1: a constant added into I's memory (QAIC).
        let int = |n: &str| Operand::local(n, Type::Integer);
        let iv = |n: &str| Expr::var(&int(n));
        let r = recurrences(&[(iv("I"), Expr::arith(ArithOp::Sub, iv("I"), Expr::int(1)))]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0.get(Param::QAIC), 1);
        assert_eq!(r[0].0.get(Param::QAIS), 0);
        // J = I + 1; I = J: the addition is made in a register and stored into J (QAIR).
        let body = [
            (iv("J"), Expr::arith(ArithOp::Add, iv("I"), Expr::int(1))),
            (iv("I"), iv("J")),
        ];
        let r = recurrences(&body);
        let i = r.iter().max_by_key(|x| x.0.total_characterized()).unwrap();
        assert_eq!(i.0.get(Param::QAIR), 1);
        assert_eq!(i.0.get(Param::QTIS), 2);
        // K = K + L: a variable added into K's memory (QAIS).
        let r = recurrences(&[(iv("K"), Expr::arith(ArithOp::Add, iv("K"), iv("L")))]);
        assert_eq!(r[0].0.get(Param::QAIS), 1);
    }

    #[test]
    fn chains_cross_statements_like_mandelbrot() {
        // ZR2 = ZR * ZR; ZI2 = ZI * ZI; ZI = 2 * ZR * ZI + CY; ZR = ZR2 - ZI2 + CX
        let two = Expr::Constant {
            text: "2.0".into(),
            ty: Type::Real,
        };
        let body = vec![
            (v("ZR2"), Expr::arith(ArithOp::Mul, v("ZR"), v("ZR"))),
            (v("ZI2"), Expr::arith(ArithOp::Mul, v("ZI"), v("ZI"))),
            (
                v("ZI"),
                Expr::arith(
                    ArithOp::Add,
                    Expr::arith(
                        ArithOp::Mul,
                        Expr::arith(ArithOp::Mul, two, v("ZR")),
                        v("ZI"),
                    ),
                    v("CY"),
                ),
            ),
            (
                v("ZR"),
                Expr::arith(
                    ArithOp::Add,
                    Expr::arith(ArithOp::Sub, v("ZR2"), v("ZI2")),
                    v("CX"),
                ),
            ),
        ];
        let r = recurrences(&body);
        // ZR -> ZR2 -> ZR: two forwardings, one multiply, two additions.
        let zr = r
            .iter()
            .find(|c| c.0.get(Param::QTRS) == 2)
            .expect("the ZR recurrence crosses two statements");
        assert_eq!(zr.0.get(Param::QMRS), 1);
        assert_eq!(zr.0.get(Param::QARS), 2);
    }

    #[test]
    fn fixed_elements_carry_chains_like_whetstone() {
        // E(1) = (E(1) + E(2)) * T; E(2) = (E(1) - E(2)) * T
        let e = Operand::local("E", Type::Real);
        let el = |k| Expr::elem(&e, vec![Expr::int(k)]);
        let body = vec![
            (
                el(1),
                Expr::arith(
                    ArithOp::Mul,
                    Expr::Paren(Box::new(Expr::arith(ArithOp::Add, el(1), el(2)))),
                    v("T"),
                ),
            ),
            (
                el(2),
                Expr::arith(
                    ArithOp::Mul,
                    Expr::Paren(Box::new(Expr::arith(ArithOp::Sub, el(1), el(2)))),
                    v("T"),
                ),
            ),
        ];
        let r = recurrences(&body);
        assert!(
            r.iter().any(|c| c.0.get(Param::QTRS) == 2),
            "E(2) waits on E(1) which waits on E(2)"
        );
    }

    fn carried(body: &[(Expr, Expr)], assigned: &[&str], index: &str) -> Vec<(OpCounts, u32)> {
        let names = assigned.iter().map(|n| n.to_string()).collect();
        let c = CarriedElements::new(body, names, Some((index.to_string(), 1)));
        let body: Vec<(Expr, Expr)> = body
            .iter()
            .map(|(t, v)| (c.rewrite(t, true), c.rewrite(v, false)))
            .collect();
        recurrences(&body)
    }

    fn at(a: &Operand, var: &str, k: i64) -> Expr {
        let i = Expr::var(&Operand::local(var, Type::Integer));
        let sub = match k {
            0 => i,
            k if k > 0 => Expr::arith(ArithOp::Add, i, Expr::int(k)),
            k => Expr::arith(ArithOp::Sub, i, Expr::int(-k)),
        };
        Expr::elem(a, vec![sub])
    }

    #[test]
    fn an_edit_distance_row_waits_for_its_element_and_both_mins() {
        // Rules 14e and 14f: D(J) = MIN(A + 1, D(J-1) + 1, C), the row of a Levenshtein
        // table: the integer element comes back through the store queue (QTEI), its addition
        // is made in a register (QAIR) and it passes through both of MIN's folds (QMXI).
        let d = Operand::local("D", Type::Integer);
        let iv = |n: &str| Expr::var(&Operand::local(n, Type::Integer));
        let plus_one = |e: Expr| Expr::arith(ArithOp::Add, e, Expr::int(1));
        let min = Expr::intrinsic(
            "MIN",
            vec![plus_one(iv("A")), plus_one(at(&d, "J", -1)), iv("C")],
        );
        let r = carried(&[(at(&d, "J", 0), min)], &["D", "J"], "J");
        assert_eq!(r.len(), 1);
        let mut expected = OpCounts::new();
        expected.add(Param::QTEI, 1);
        expected.add(Param::QAIR, 1);
        expected.add(Param::QMXI, 2);
        assert_eq!(r[0].0, expected);
    }

    #[test]
    fn an_element_read_one_iteration_after_its_store_carries_a_chain() {
        // X(K) = X(K-1) + Y(K): livermore's first sum.
        let x = Operand::local("X", Type::Real);
        let y = Operand::local("Y", Type::Real);
        let body = [(
            at(&x, "K", 0),
            Expr::arith(ArithOp::Add, at(&x, "K", -1), at(&y, "K", 0)),
        )];
        let r = carried(&body, &["X", "K"], "K");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0.get(Param::QTRS), 1);
        assert_eq!(r[0].0.get(Param::QARS), 1);
        // Two iterations apart: two interleaved chains, not followed.
        let body = [(
            at(&x, "K", 0),
            Expr::arith(ArithOp::Add, at(&x, "K", -2), at(&y, "K", 0)),
        )];
        assert!(carried(&body, &["X", "K"], "K").is_empty());
        // X(K) = X(K) + Y(K): every iteration its own element.
        let body = [(
            at(&x, "K", 0),
            Expr::arith(ArithOp::Add, at(&x, "K", 0), at(&y, "K", 0)),
        )];
        assert!(carried(&body, &["X", "K"], "K").is_empty());
    }

    #[test]
    fn an_element_read_after_its_store_in_the_iteration_continues_the_chain() {
        // K = 102 - I; W(K) = U(K) + S * V(K); S = W(K) - S (livermore 19, backward sweep).
        let w = Operand::local("W", Type::Real);
        let u = Operand::local("U", Type::Real);
        let body = [
            (
                at(&w, "K", 0),
                Expr::arith(
                    ArithOp::Add,
                    at(&u, "K", 0),
                    Expr::arith(ArithOp::Mul, v("S"), at(&u, "K", 1)),
                ),
            ),
            (v("S"), Expr::arith(ArithOp::Sub, at(&w, "K", 0), v("S"))),
        ];
        let r = carried(&body, &["W", "S", "K", "I"], "I");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0.get(Param::QTRS), 2, "through W(K) and S");
        assert_eq!(r[0].0.get(Param::QARS), 2);
        assert_eq!(r[0].0.get(Param::QMRS), 1);
    }

    #[test]
    fn an_element_the_loop_does_not_move_is_a_scalar() {
        // W(I) = W(I) + B(I,K) * W(I-K) in a loop over K.
        let w = Operand::local("W", Type::Real);
        let b = Operand::local("B", Type::Real);
        let i = Expr::var(&Operand::local("I", Type::Integer));
        let k = Expr::var(&Operand::local("K", Type::Integer));
        let wi = Expr::elem(&w, vec![i.clone()]);
        let body = [(
            wi.clone(),
            Expr::arith(
                ArithOp::Add,
                wi,
                Expr::arith(
                    ArithOp::Mul,
                    Expr::elem(&b, vec![i.clone(), k.clone()]),
                    Expr::elem(&w, vec![Expr::arith(ArithOp::Sub, i, k)]),
                ),
            ),
        )];
        let r = carried(&body, &["W", "K"], "K");
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].0.get(Param::QTRS), 1);
        assert_eq!(r[0].0.get(Param::QARS), 1);
        // When the loop changes I, W(I) moves: no chain.
        assert!(carried(&body, &["W", "K", "I"], "K").is_empty());
    }

    fn all_loops_of(src: &str) -> Vec<LoopShape> {
        innermost_loops(&crate::analysis::analyze(vec![crate::source::split(
            "t.f", 0, src, 72,
        )]))
    }

    /// The loops with their statements' recurrences only (without the DO variable's, rule 27).
    fn loops_of(src: &str) -> Vec<LoopShape> {
        let mut loops = all_loops_of(src);
        let do_link = OpCounts::one(Param::QDOV);
        for l in &mut loops {
            let kept: Vec<bool> = l.recurrences.iter().map(|r| r.0 != do_link).collect();
            fn keep<T: Copy>(v: &mut Vec<T>, kept: &[bool]) {
                *v = v
                    .iter()
                    .zip(kept)
                    .filter(|(_, &k)| k)
                    .map(|(&f, _)| f)
                    .collect()
            }
            keep(&mut l.restarted, &kept);
            keep(&mut l.through_branch, &kept);
            keep(&mut l.if_converted, &kept);
            l.recurrences.retain(|r| r.0 != do_link);
        }
        loops
    }

    #[test]
    fn a_do_loop_carries_its_variables_chain_restarted_at_every_entry() {
        let src = "      PROGRAM P\n      INTEGER I, N\n      N = 0\n      DO 10 I = 1, 50\n         N = I\n   10 CONTINUE\n      I = 1\n   20 N = N + I\n      I = I + 1\n      IF (I .LT. 50) GO TO 20\n      PRINT *, N\n      END\n";
        let loops = all_loops_of(src);
        assert_eq!(loops.len(), 2);
        let do_link = OpCounts::one(Param::QDOV);
        // The DO loop: one QDOV an iteration, restarted by the DO statement.
        assert_eq!(loops[0].recurrences, vec![(do_link.clone(), 1)]);
        assert_eq!(loops[0].restarted, vec![true]);
        // The loop closed by GO TO has its statements' chains, no DO variable.
        assert!(loops[1].recurrences.iter().all(|r| r.0 != do_link));
    }

    /// A GO TO from inside a DO loop back to a label before it (a backtracking search that
    /// restarts its DO) encloses the DO loop: only the DO loop is innermost, not both.
    #[test]
    fn a_jump_back_out_of_a_do_loop_encloses_it() {
        let src = "      PROGRAM P\n      INTEGER K, KS, N\n      N = 0\n      KS = 1\n   10 CONTINUE\n      DO 20 K = KS, 8\n         N = N + K\n         IF (N .GT. 50) GO TO 20\n         KS = K + 1\n         IF (KS .LT. 8) GO TO 10\n   20 CONTINUE\n      PRINT *, N\n      END\n";
        let loops = loops_of(src);
        assert_eq!(
            loops.len(),
            1,
            "{:?}",
            loops.iter().map(|l| (l.first, l.last)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_chain_through_a_watched_if_is_marked_for_its_misses() {
        // The recurrences of every build (not those of conditional moves, rule 14g).
        let through = |src: &str| {
            let loops = all_loops_of(src);
            assert_eq!(loops.len(), 1);
            let mut l = loops[0].clone();
            assert_eq!(l.through_branch.len(), l.recurrences.len());
            assert_eq!(l.if_converted.len(), l.recurrences.len());
            let converted = l.if_converted.clone();
            let mut k = 0;
            l.through_branch.retain(|_| {
                k += 1;
                converted[k - 1].is_none()
            });
            assert!(!l.through_branch.is_empty());
            l
        };
        // A binary search: the IF waits for MID, computed from LO and HI, and chooses which
        // of them takes MID's value.
        let search = "      PROGRAM P\n      INTEGER T(100), LO, HI, MID, K\n      K = 7\n      LO = 1\n      HI = 100\n   10 IF (LO .GT. HI) GO TO 20\n      MID = (LO + HI) / 2\n      IF (T(MID) .LT. K) THEN\n         LO = MID + 1\n      ELSE\n         HI = MID - 1\n      END IF\n      GO TO 10\n   20 PRINT *, LO\n      END\n";
        let l = through(search);
        assert!(l.through_branch.iter().all(|&c| c), "{l:?}");
        // A running maximum: the logical IF reads B and sets it; the DO variable's chain
        // (last) does not pass through it.
        let max = "      PROGRAM P\n      REAL A(100), B\n      INTEGER I\n      B = 0.0\n      DO 10 I = 1, 100\n         IF (A(I) .GT. B) B = A(I) + B * 0.5\n   10 CONTINUE\n      PRINT *, B\n      END\n";
        let l = through(max);
        let n = l.through_branch.len();
        assert!(l.through_branch[..n - 1].iter().all(|&c| c), "{l:?}");
        assert!(!l.through_branch[n - 1]);
        // An insertion's shift: the IFs wait for J but only leave the loop.
        let shift = "      PROGRAM P\n      INTEGER A(100), J, V\n      V = 5\n      J = 100\n   40 IF (J .LE. 1) GO TO 45\n      IF (A(J - 1) .LE. V) GO TO 45\n      A(J) = A(J - 1)\n      J = J - 1\n      GO TO 40\n   45 A(J) = V\n      PRINT *, A(1)\n      END\n";
        assert!(through(shift).through_branch.iter().all(|&c| !c));
        // Subset sums: the IF chooses WS's addition but waits for M only.
        let bits = "      PROGRAM P\n      INTEGER W(20), WS, M, I\n      WS = 0\n      M = 12345\n      DO 50 I = 1, 20\n         IF (MOD(M, 2) .EQ. 1) THEN\n            WS = WS + W(I)\n         END IF\n         M = M / 2\n   50 CONTINUE\n      PRINT *, WS\n      END\n";
        assert!(through(bits).through_branch.iter().all(|&c| !c));
    }

    #[test]
    fn an_if_made_conditional_moves_puts_its_condition_on_the_chain() {
        let converted = |src: &str| {
            let loops = all_loops_of(src);
            assert_eq!(loops.len(), 1);
            let l = loops[0].clone();
            assert_eq!(l.if_converted.len(), l.recurrences.len());
            l.recurrences
                .iter()
                .zip(&l.if_converted)
                .filter_map(|(r, at)| at.map(|at| (r.0.clone(), at)))
                .collect::<Vec<_>>()
        };
        // The first minimum's index: M has no chain of its own (M = K), but as a conditional
        // move it waits for X(M)'s load and the compare at every iteration.
        let argmin = "      PROGRAM P\n      REAL X(100)\n      INTEGER K, M\n      M = 1\n      DO 10 K = 2, 100\n         IF (X(K) .LT. X(M)) M = K\n   10 CONTINUE\n      PRINT *, M\n      END\n";
        let found = converted(argmin);
        assert_eq!(found.len(), 1, "{found:?}");
        let (chain, (first, last)) = &found[0];
        assert_eq!((*first, *last), (5, 5));
        assert_eq!(chain.get(Param::QADR), 1, "{chain:?}");
        assert_eq!(chain.get(Param::QARS), 1, "{chain:?}");
        // A binary search's two choices: LO and HI wait for T(MID)'s load and the compare.
        let search = "      PROGRAM P\n      DOUBLE PRECISION T(100), X\n      INTEGER LO, HI, MID\n      X = 0.5D0\n      LO = 1\n      HI = 100\n   10 IF (HI - LO .LE. 1) GO TO 20\n      MID = (LO + HI) / 2\n      IF (X .LT. T(MID)) THEN\n         HI = MID\n      ELSE\n         LO = MID\n      END IF\n      GO TO 10\n   20 PRINT *, LO\n      END\n";
        let found = converted(search);
        assert!(!found.is_empty());
        for (chain, at) in &found {
            assert_eq!(*at, (8, 12));
            assert_eq!(chain.get(Param::QADR), 1, "{chain:?}");
            assert_eq!(chain.get(Param::QARD), 1, "{chain:?}");
        }
        // Not made conditional moves: a store to an element, a call, a jump.
        for body in [
            "IF (X(K) .LT. X(M)) X(M) = 0.0",
            "IF (X(K) .LT. X(M)) CALL S(M)",
            "IF (X(K) .LT. X(M)) GO TO 10",
        ] {
            let src = argmin.replace("IF (X(K) .LT. X(M)) M = K", body)
                + "      SUBROUTINE S(M)\n      INTEGER M\n      M = M + 1\n      END\n";
            assert!(converted(&src).is_empty(), "{body}");
        }
    }

    #[test]
    fn a_chain_set_afresh_just_before_its_loop_restarts_at_every_entry() {
        // A continued fraction: T = 2N+1, then T = (2K-1) - X2/T, once per outer iteration.
        let src = "      PROGRAM P\n      DOUBLE PRECISION T, X2, S, C(9)\n      INTEGER I, K\n      S = 0.0D0\n      DO 50 I = 1, 9\n         X2 = DBLE(I)\n         T = 49.0D0\n         C(I) = 0.0D0\n         DO 40 K = 24, 1, -1\n            T = DBLE(2*K-1) - X2/T\n            C(I) = C(I) + T\n   40    CONTINUE\n         S = S + T\n   50 CONTINUE\n      PRINT *, S, C(1)\n      END\n";
        let restarted = |src: &str| {
            let loops = loops_of(src);
            assert_eq!(loops.len(), 1);
            assert_eq!(loops[0].restarted.len(), loops[0].recurrences.len());
            let mut r = loops[0].restarted.clone();
            r.sort();
            r
        };
        // T and the element C(I) (a location the K loop does not move) are both set afresh.
        assert_eq!(restarted(src), vec![true, true]);
        // Set from its own last value, T carries its chain from one entry to the next.
        let carried = src.replace("T = 49.0D0", "T = 49.0D0 + 1.0D-300*T");
        assert_eq!(restarted(&carried), vec![false, true]);
        // An assignment before a statement that is not one (the I loop's DO) is not seen, nor
        // one above a label a jump may enter by.
        let far = src
            .replace("         T = 49.0D0\n", "")
            .replace("      DO 50 I", "      T = 49.0D0\n      DO 50 I");
        assert_eq!(restarted(&far), vec![false, true]);
        let labelled = src.replace("         C(I) = 0.0D0\n", "   30    C(I) = 0.0D0\n");
        assert_eq!(restarted(&labelled), vec![false, true]);
        // Updated from itself after being set afresh (a first step written before the
        // loop), T still starts afresh; updated from itself alone, it carries its chain.
        let stepped = src.replace(
            "         T = 49.0D0\n",
            "         T = 49.0D0\n         T = 47.0D0 - X2/T\n",
        );
        assert_eq!(restarted(&stepped), vec![true, true]);
        let only_stepped = far.replace(
            "         C(I) = 0.0D0\n",
            "         T = 47.0D0 - X2/T\n         C(I) = 0.0D0\n",
        );
        assert_eq!(restarted(&only_stepped), vec![false, true]);
    }

    #[test]
    fn a_newton_loop_closed_by_go_to_restarts_at_every_entry() {
        // Rule 27, widened: Y = (1+X)/2, one step, then the loop `10 ... IF (...) GO TO 10`.
        let src = "      PROGRAM P\n      DOUBLE PRECISION X, Y, YOLD, S\n      INTEGER I\n      S = 0.0D0\n      DO 50 I = 1, 9\n         X = DBLE(I)\n         Y = 0.5D0 * (1.0D0 + X)\n         Y = 0.5D0 * (Y + X / Y)\n   10    YOLD = Y\n         Y = 0.5D0 * (Y + X / Y)\n         IF (Y .LT. YOLD) GO TO 10\n         S = S + YOLD\n   50 CONTINUE\n      PRINT *, S\n      END\n";
        let loops = loops_of(src);
        assert_eq!(loops.len(), 1, "{loops:?}");
        assert!(!loops[0].recurrences.is_empty());
        assert!(loops[0].restarted.iter().all(|&r| r), "{loops:?}");
    }

    #[test]
    fn a_chain_inside_an_iteration_starts_at_a_loaded_element() {
        // comblk's flux: G = C(I) / (C(I) + C(I+1)); F(I) = G * T(I) / DX, two divisions one
        // after the other though no scalar starts the chain, and no iteration carries it.
        let src = "      PROGRAM P\n      DOUBLE PRECISION C(50), T(50), F(50), G, DX\n      INTEGER I\n      DX = 0.5D0\n      DO 10 I = 1, 49\n         G = C(I) / (C(I) + C(I+1))\n         F(I) = G * T(I) / DX\n   10 CONTINUE\n      PRINT *, F(3)\n      END\n";
        let loops = loops_of(src);
        assert_eq!(loops.len(), 1);
        assert!(loops[0].recurrences.is_empty());
        let chain = &loops[0].longest_chain;
        assert_eq!(chain.get(Param::QDRD), 2, "{chain:?}");
        assert_eq!(chain.get(Param::QARD), 1, "{chain:?}");
        assert_eq!(chain.get(Param::QMRD), 1, "{chain:?}");
    }

    #[test]
    fn a_called_subroutine_carries_its_chain_through_the_arguments() {
        // S = S + X inside ACC, called in a loop: the sum waits on itself from call to call.
        let src = "      PROGRAM P\n      REAL S, X\n      INTEGER I\n      S = 0.0\n      X = 1.0\n      DO 10 I = 1, 100\n         CALL ACC(S, X)\n   10 CONTINUE\n      PRINT *, S\n      END\n      SUBROUTINE ACC(T, Y)\n      REAL T, Y, W\n      W = Y * 2.0\n      T = T + W\n      END\n";
        let loops = loops_of(src);
        assert_eq!(loops.len(), 1);
        let r = &loops[0].recurrences;
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].0.get(Param::QTRS), 1);
        assert_eq!(r[0].0.get(Param::QARS), 1);
        // A callee with a loop of its own is not inlined, and its chain is not followed.
        let looping = src.replace(
            "      W = Y * 2.0\n",
            "      DO 5 K = 1, 2\n    5 W = Y * 2.0\n",
        );
        let caller = loops_of(&looping)
            .into_iter()
            .find(|l| l.unit == 0)
            .unwrap();
        assert!(caller.recurrences.is_empty(), "{:?}", caller.recurrences);
    }

    #[test]
    fn a_referenced_function_carries_its_chain_through_its_argument_and_result() {
        // U = RAN(ISEED): the seed waits on the previous reference's update through the
        // dummy argument (a multiplication, a MOD by a constant, a transfer), and the sum
        // S = S + U waits on itself (an addition, a transfer).
        let src = "      PROGRAM P\n      REAL S, U, RAN\n      INTEGER I, ISEED\n      S = 0.0\n      ISEED = 7\n      DO 10 I = 1, 100\n         U = RAN(ISEED)\n         S = S + U\n   10 CONTINUE\n      PRINT *, S\n      END\n      REAL FUNCTION RAN(K)\n      INTEGER K\n      K = MOD(K * 16807, 65521)\n      RAN = REAL(K) / 65521.0\n      END\n";
        let loops = loops_of(src);
        let main = loops.iter().find(|l| l.unit == 0).unwrap();
        let r = &main.recurrences;
        assert_eq!(r.len(), 2, "{r:?}");
        let seed = r.iter().find(|x| x.0.get(Param::QRIS) == 1);
        assert!(seed.is_some(), "the seed's chain through RAN: {r:?}");
        assert_eq!(seed.unwrap().0.get(Param::QMIS), 1, "{r:?}");
        // A function with a loop of its own is not followed.
        let looping = src.replace(
            "      K = MOD(K * 16807, 65521)\n",
            "      DO 5 J = 1, 2\n    5 K = MOD(K * 16807, 65521)\n",
        );
        let main = loops_of(&looping)
            .into_iter()
            .find(|l| l.unit == 0)
            .unwrap();
        assert!(
            main.recurrences.iter().all(|x| x.0.get(Param::QRIS) == 0),
            "{:?}",
            main.recurrences
        );
    }

    #[test]
    fn a_function_an_ifs_condition_references_carries_its_chain_through_its_argument() {
        // IF (RAN(ISEED) .GT. 0.5) N = N + 1, and the same as a block IF and an ELSE IF: the
        // condition's reference updates the seed as an assignment's does.
        let func = "      REAL FUNCTION RAN(K)\n      INTEGER K\n      K = MOD(K * 16807, 65521)\n      RAN = REAL(K) / 65521.0\n      END\n";
        let body = [
            "         IF (RAN(ISEED) .GT. 0.5) N = N + 1\n",
            "         IF (RAN(ISEED) .GT. 0.5) THEN\n            N = N + 1\n         END IF\n",
            "         IF (N .GT. 1000) THEN\n            N = 0\n         ELSE IF (RAN(ISEED) .GT. 0.5) THEN\n            N = N + 1\n         END IF\n",
        ];
        for b in body {
            let src = format!("      PROGRAM P\n      REAL RAN\n      INTEGER I, ISEED, N\n      ISEED = 7\n      N = 0\n      DO 10 I = 1, 100\n{b}   10 CONTINUE\n      PRINT *, N\n      END\n{func}");
            let main = loops_of(&src).into_iter().find(|l| l.unit == 0).unwrap();
            let r = &main.recurrences;
            let seed = r.iter().find(|x| x.0.get(Param::QRIS) == 1);
            assert!(
                seed.is_some(),
                "the seed's chain through the condition's RAN: {b}{r:?}"
            );
        }
    }

    #[test]
    fn a_chain_back_through_a_real_functions_result_waits_for_its_return() {
        // T = PROD(T, X): the product, the transfer into the result, its return (rule 14b)
        // and the transfer into T, once a link; an integer result returns for nothing more.
        let src = "      PROGRAM P\n      DOUBLE PRECISION T, X, PROD\n      INTEGER I, K, NXT\n      T = 1.0D0\n      X = 0.5D0\n      K = 1\n      DO 10 I = 1, 100\n         T = PROD(T, X)\n         K = NXT(K)\n   10 CONTINUE\n      PRINT *, T, K\n      END\n      DOUBLE PRECISION FUNCTION PROD(A, B)\n      DOUBLE PRECISION A, B\n      PROD = A * B\n      END\n      INTEGER FUNCTION NXT(J)\n      INTEGER J\n      NXT = J * 3\n      END\n";
        let loops = loops_of(src);
        let main = loops.iter().find(|l| l.unit == 0).unwrap();
        let r = &main.recurrences;
        let t = r.iter().find(|x| x.0.get(Param::QMRD) == 1);
        let t = t.unwrap_or_else(|| panic!("T's chain through PROD: {r:?}"));
        assert_eq!(t.0.get(Param::QFRD), 1, "{r:?}");
        assert_eq!(t.0.get(Param::QTRD), 2, "{r:?}");
        let k = r.iter().find(|x| x.0.get(Param::QMIS) == 1);
        let k = k.unwrap_or_else(|| panic!("K's chain through NXT: {r:?}"));
        assert_eq!(k.0.get(Param::QFRS) + k.0.get(Param::QFRD), 0, "{r:?}");
    }

    #[test]
    fn a_called_subroutines_function_references_carry_the_chain_each_with_its_own_names() {
        // P1 -> FMS(X, P1, X, P0) -> P2 -> P1 inside STEP: the product of P1, the difference
        // and two returns, once an iteration. FMS references PROD twice; were both one
        // PROD, the second would overwrite the first and P1's product would be lost.
        let src = "      PROGRAM P\n      DOUBLE PRECISION P0, P1, X\n      INTEGER I\n      P0 = 1.0D0\n      P1 = 0.5D0\n      X = 0.3D0\n      DO 10 I = 1, 100\n         CALL STEP(X, P0, P1)\n   10 CONTINUE\n      PRINT *, P1\n      END\n      SUBROUTINE STEP(X, P0, P1)\n      DOUBLE PRECISION X, P0, P1, P2, FMS\n      P2 = FMS(X, P1, X, P0)\n      P0 = P1\n      P1 = P2\n      END\n      DOUBLE PRECISION FUNCTION FMS(A, B, C, D)\n      DOUBLE PRECISION A, B, C, D, PROD\n      FMS = PROD(A, B) - PROD(C, D)\n      END\n      DOUBLE PRECISION FUNCTION PROD(A, B)\n      DOUBLE PRECISION A, B\n      PROD = A * B\n      END\n";
        let loops = loops_of(src);
        let main = loops.iter().find(|l| l.unit == 0).unwrap();
        let r = &main.recurrences;
        let p1 = r
            .iter()
            .find(|(c, span)| *span == 1 && c.get(Param::QMRD) == 1)
            .unwrap_or_else(|| panic!("P1's chain through FMS and PROD in one iteration: {r:?}"));
        assert_eq!(p1.0.get(Param::QARD), 1, "{r:?}");
        assert_eq!(p1.0.get(Param::QFRD), 2, "{r:?}");
    }

    #[test]
    fn a_rotation_of_three_elements_comes_back_after_two_iterations() {
        // whetstone's P0: E(J) = E(K), E(K) = E(L), E(L) = E(J), J K L in COMMON. E(K) is
        // written from E(L) of the iteration before, which came from E(J) and so from E(K) two
        // iterations before: three transfers every two iterations.
        let src = "      PROGRAM P\n      REAL E(4)\n      INTEGER J, K, L, I\n      COMMON /A/ E\n      COMMON /B/ J, K, L\n      J = 1\n      K = 2\n      L = 3\n      DO 10 I = 1, 100\n         CALL ROT\n   10 CONTINUE\n      PRINT *, E(1)\n      END\n      SUBROUTINE ROT\n      REAL E(4)\n      INTEGER J, K, L\n      COMMON /A/ E\n      COMMON /B/ J, K, L\n      E(J) = E(K)\n      E(K) = E(L)\n      E(L) = E(J)\n      END\n";
        let loops = loops_of(src);
        let r = &loops[0].recurrences;
        assert!(!r.is_empty(), "the rotation carries a chain");
        assert_eq!(r[0].1, 2, "{r:?}");
        assert_eq!(r[0].0.get(Param::QTRS), 3, "{r:?}");
        // A one-iteration chain keeps its span of one: S = S + X.
        let sum = recurrences(&[(v("S"), Expr::arith(ArithOp::Add, v("S"), v("X")))]);
        assert_eq!(sum.len(), 1, "{sum:?}");
        assert_eq!(sum[0].1, 1);
    }

    #[test]
    fn the_branches_of_a_block_if_are_alternatives_not_a_sequence() {
        // smith's ACCUM: ACC = ACC + W or ACC = ACC - W / 2, never both in one call; the
        // chain per call is one transfer and one addition, not two of each.
        let src = "      PROGRAM P\n      REAL S\n      INTEGER I\n      S = 0.0\n      DO 10 I = 1, 100\n         CALL ACC(S, 0.25, I)\n   10 CONTINUE\n      PRINT *, S\n      END\n      SUBROUTINE ACC(T, W, I)\n      REAL T, W\n      INTEGER I\n      IF (MOD(I, 2) .EQ. 1) THEN\n         T = T + W\n      ELSE\n         T = T - W / 2.0\n      END IF\n      END\n";
        let loops = loops_of(src);
        let r = &loops[0].recurrences;
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].0.get(Param::QTRS), 1, "{r:?}");
        assert_eq!(r[0].0.get(Param::QARS), 1, "{r:?}");
        // Without the ELSE both statements run in turn: the chain has both links.
        let sequential = src.replace("      ELSE\n", "      END IF\n      IF (I .GT. 0) THEN\n");
        let r = &loops_of(&sequential)[0].recurrences;
        assert_eq!(r[0].0.get(Param::QTRS), 2, "{r:?}");
        assert_eq!(r[0].0.get(Param::QARS), 2, "{r:?}");
    }

    #[test]
    fn independent_iterations_have_no_recurrence() {
        let a = Operand::local("A", Type::Real);
        let i = Operand::local("I", Type::Integer);
        let r = recurrences(&[(v("T"), Expr::elem(&a, vec![Expr::var(&i)]))]);
        assert!(r.is_empty());
    }
}

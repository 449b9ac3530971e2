//! Loops counted by their induction variable instead of a counter per iteration.
//!
//! A GO TO loop whose trip count depends on the data (`20 IF (K .GT. N) GO TO 30 ... K = K + I
//! ... GO TO 20`) needs a counter on its cycle: gcov puts one there too (its spanning tree
//! leaves one edge of every cycle counted). But when the loop steps an integer variable by a
//! loop-invariant amount exactly once per iteration, the program already counts its
//! iterations: the copy saves the variable on entry and, at each exit, adds
//! (V - V₀) / step to the counter, once per entry instead of once per iteration — the
//! induction-variable reasoning of an optimizing compiler applied to the counters (Knuth's
//! and Ball and Larus's placement only moves a cycle's counter, it cannot remove it).
//!
//! Only loops whose shape makes this exact are taken: one back edge (`GO TO L` or
//! `IF (...) GO TO L` as the last statement), entered only by falling into the head,
//! straight-line statements between (assignments, logical IFs whose consequent is an
//! assignment or a GO TO out of the loop), no labels jumped to inside, no calls, function
//! references or I/O (which could change the variables behind the analyzer's back), and one
//! unconditional `V = V ± c` with V a local integer scalar and c an integer literal or a local
//! integer scalar the loop does not assign. A step that is zero at run time makes the counts
//! wrong: the copy then raises a flag, and the analyzer runs a copy without this reasoning.

use crate::analysis::{io_may_jump, sub, Mult, Probe, Program};
use crate::syntax::{BOp, SExpr, Stmt};
use model::expr::{ArithOp, Expr, Type};
use model::Param;
use std::collections::{HashMap, HashSet};

/// The amount an induction variable moves per iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A nonzero literal (negated for `V = V - c`).
    Literal(i64),
    /// A variable (or named constant) the loop does not assign; `negated` for `V = V - c`.
    Name { name: String, negated: bool },
}

/// Where the loop is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The consequent of logical IF `s` (`IF (...) GO TO outside`).
    Consequent(usize),
    /// Falling through the conditional back edge `s` (`IF (...) GO TO head`).
    FallThrough(usize),
}

/// A GO TO loop counted through its induction variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InductionLoop {
    pub unit: usize,
    /// The statement the loop is entered from by falling in: the variable is saved after it.
    pub entered_after: usize,
    /// The probe counted once per iteration until now: the head's counter, or the back
    /// edge's consequent counter.
    pub probe: usize,
    /// Whether `probe` counts head executions (iterations, `+1` per exit) rather than back
    /// edges taken.
    pub counts_head: bool,
    pub var: String,
    pub step: Step,
    /// The exits, each with whether it comes after the step in its iteration.
    pub exits: Vec<(Exit, bool)>,
    /// The per-iteration probe belongs to an IF on array data, which the simulated branch
    /// predictor (rule 15) watches through that counter.
    pub watched_by_predictor: bool,
}

impl InductionLoop {
    /// The amount an exit adds to the probe's counter: completed back edges (and the
    /// exiting iteration's head when the head is counted), from `(V - saved) / step`. A named
    /// step divides by itself made nonzero (its zero is flagged at entry instead of trapping).
    pub fn exit_amount(&self, saved: &str, exit_after_step: bool) -> String {
        let adjust = i64::from(self.counts_head) - i64::from(exit_after_step);
        let v = &self.var;
        let iterations = match &self.step {
            Step::Literal(1) => format!("({v} - {saved})"),
            Step::Literal(-1) => format!("({saved} - {v})"),
            Step::Literal(c) => format!("({v} - {saved}) / ({c})"),
            Step::Name { name, negated } => {
                let sign = if *negated { "-" } else { "" };
                format!("({v} - {saved}) / ({sign}ISIGN(MAX0(1,IABS({name})),{name}))")
            }
        };
        match adjust {
            0 => iterations,
            a if a > 0 => format!("{iterations} + {a}"),
            a => format!("{iterations} - {}", -a),
        }
    }

    /// Statements run on entry: save the variable; flag a named step that is zero (setting
    /// `flag`, a counter element).
    pub fn entry_statements(&self, saved: &str, flag: &str) -> Vec<String> {
        let mut out = vec![format!("{saved} = {}", self.var)];
        if let Step::Name { name, .. } = &self.step {
            out.push(format!("IF ({name} .EQ. 0) {flag} = 1"));
        }
        out
    }
}

/// A loop exit whose count the analysis derives instead of counting: every entry of a loop
/// that cannot be left another way ends at exactly one exit, so one exit's count is the
/// entries less the others'. Derived for the exit on array data if there is one (the
/// frequent end of a search, and the IF whose branch the copy then leaves as written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DerivedExit {
    /// The exit IF's consequent probe, not incremented in the copy.
    pub probe: usize,
    /// Its count from the other counters.
    pub count: Mult,
    /// The IF is on array data: the simulated branch predictor (rule 15) watches its
    /// counter, so a copy with the simulation counts it after all.
    pub watched_by_predictor: bool,
}

/// The GO TO loops of a program whose counting the copy can do without some counters.
#[derive(Debug, Clone, Default)]
pub struct Loops {
    pub induction: Vec<InductionLoop>,
    pub derived_exits: Vec<DerivedExit>,
}

/// Find the loops of `prog` counted through their induction variable, and the exits of the
/// other loops of the same shape whose counts follow from the rest.
pub fn find(prog: &Program) -> Loops {
    let mut out = Loops::default();
    for (u, unit) in prog.units.iter().enumerate() {
        let range = unit.first..unit.end;
        // Anything that may jump where the statements do not say, or alias names, rules the
        // unit out.
        let unsafe_unit = range.clone().any(|k| {
            let st = &prog.stmts[k];
            match &st.stmt {
                // An unparsed statement may jump anywhere.
                None => true,
                Some(Stmt::Io(..)) => io_may_jump(&prog.statement(k).text),
                Some(Stmt::NoCost("EQUIVALENCE")) | Some(Stmt::Entry(..)) => true,
                Some(Stmt::AssignLabel(..)) | Some(Stmt::AssignedGoto(..)) => true,
                _ => false,
            }
        });
        if unsafe_unit {
            continue;
        }
        // Label -> statements that may jump to it, and label -> its statement.
        let mut jumpers: HashMap<u32, Vec<usize>> = HashMap::new();
        let mut label_at: HashMap<u32, usize> = HashMap::new();
        for k in range.clone() {
            if let Some(l) = prog.statement(k).label {
                label_at.insert(l, k);
            }
            if let Some(s) = &prog.stmts[k].stmt {
                let mut t = HashSet::new();
                crate::analysis::jump_targets(s, &mut t);
                for l in t {
                    jumpers.entry(l).or_default().push(k);
                }
            }
        }
        for b in range.clone() {
            let (label, conditional) = match &prog.stmts[b].stmt {
                Some(Stmt::Goto(l)) => (*l, false),
                Some(Stmt::LogicalIf(_, inner, _)) => match **inner {
                    Stmt::Goto(l) => (l, true),
                    _ => continue,
                },
                _ => continue,
            };
            let Some(&a) = label_at.get(&label) else {
                continue;
            };
            if a > b || jumpers.get(&label).map(Vec::as_slice) != Some(&[b][..]) {
                continue;
            }
            let Some(shape) = shape_of(prog, u, a, b, conditional, &jumpers, &label_at) else {
                continue;
            };
            match induction_of(prog, &shape) {
                Some(l) => out.induction.push(l),
                None => out.derived_exits.extend(derived_exit_of(prog, &shape)),
            }
        }
    }
    out
}

/// A GO TO loop entered only by falling into its head and left only by its exits.
struct Shape {
    unit: usize,
    /// Head and back edge.
    a: usize,
    b: usize,
    /// The back edge is `IF (...) GO TO head` (its fall-through is an exit).
    conditional: bool,
    entered_after: usize,
    /// Logical IFs jumping out of the loop.
    exits: Vec<usize>,
    /// The first `V = V ± c` and what it steps.
    step: Option<(usize, String, Step)>,
    /// Names assigned in the loop (besides the step's variable, once).
    assigned: HashSet<String>,
}

/// The loop from head `a` to back edge `b`, if it has the shape the module describes.
fn shape_of(
    prog: &Program,
    u: usize,
    a: usize,
    b: usize,
    conditional: bool,
    jumpers: &HashMap<u32, Vec<usize>>,
    label_at: &HashMap<u32, usize>,
) -> Option<Shape> {
    let unit = &prog.units[u];
    // Entered by falling in from the previous executable statement.
    let entered_after = (unit.first..a).rev().find(|&k| prog.stmts[k].executable)?;
    let before = &prog.stmts[entered_after];
    if before.do_terminal
        || prog.stmts[a].do_terminal
        || matches!(
            before.stmt,
            Some(
                Stmt::Goto(_)
                    | Stmt::ComputedGoto(..)
                    | Stmt::ArithIf(..)
                    | Stmt::Return(_)
                    | Stmt::Stop
                    | Stmt::End
            )
        )
    {
        return None;
    }
    let inside = |l: u32| label_at.get(&l).is_some_and(|k| (a..=b).contains(k));
    let mut step_at: Option<(usize, String, Step)> = None;
    let mut assigned: HashSet<String> = HashSet::new();
    let mut exits = Vec::new();
    for k in a..=b {
        let st = &prog.stmts[k];
        if !st.executable || st.do_terminal || st.static_counts.get(Param::PROC) > 0 {
            return None;
        }
        if k > a {
            if let Some(l) = prog.statement(k).label {
                if jumpers.contains_key(&l) {
                    return None;
                }
            }
        }
        match st.stmt.as_ref()? {
            Stmt::Assignment(lhs, _) => {
                if step_at.is_none() {
                    if let Some((var, step)) = st.assignment.as_ref().and_then(step_of) {
                        step_at = Some((k, var, step));
                        continue;
                    }
                }
                assigned.insert(assigned_name(lhs));
            }
            Stmt::Continue => {}
            Stmt::Goto(_) if k == b => {}
            Stmt::LogicalIf(_, inner, _) => match &**inner {
                Stmt::Goto(_) if k == b => {}
                Stmt::Goto(l) if !inside(*l) => exits.push(k),
                Stmt::Assignment(lhs, _) => {
                    assigned.insert(assigned_name(lhs));
                }
                Stmt::Continue => {}
                _ => return None,
            },
            _ => return None,
        }
    }
    Some(Shape {
        unit: u,
        a,
        b,
        conditional,
        entered_after,
        exits,
        step: step_at,
        assigned,
    })
}

/// The loop counted through its induction variable, if it has one and it pays.
fn induction_of(prog: &Program, shape: &Shape) -> Option<InductionLoop> {
    let Shape {
        unit: u,
        a,
        b,
        conditional,
        entered_after,
        ref exits,
        ref assigned,
        ..
    } = *shape;
    let (inc, var, step) = shape.step.clone()?;
    if assigned.contains(&var) {
        return None;
    }
    if let Step::Name { name, .. } = &step {
        if assigned.contains(name) || name == &var {
            return None;
        }
    }
    let mut all_exits: Vec<(Exit, bool)> = exits
        .iter()
        .map(|&k| (Exit::Consequent(k), k > inc))
        .collect();
    if conditional {
        all_exits.push((Exit::FallThrough(b), true));
    }
    if all_exits.is_empty() {
        return None;
    }
    // Worth it only where the loop runs long per entry: an exit costs a subtraction (and a
    // division, a zero test at entry, for a step other than ±1) where a counter costs three
    // instructions an iteration. Shell sort's inner loop (step H, about three iterations an
    // entry) measured 6 % slower counted by induction than by a counter.
    let unit_step = matches!(step, Step::Literal(1) | Step::Literal(-1));
    let counting = all_exits.iter().all(|&(e, _)| {
        let (Exit::Consequent(k) | Exit::FallThrough(k)) = e;
        matches!(&prog.stmts[k].stmt, Some(Stmt::LogicalIf(c, ..))
            if compares_with_invariant(c, &var, assigned))
    });
    if !unit_step && !counting {
        return None;
    }
    // The per-iteration counter.
    let head = prog.stmts[a].block.filter(|&p| {
        prog.probes.get(p) == Some(&Probe::Before(a)) && !prog.derived_probes.contains(&p)
    });
    let (probe, counts_head, watched) = if conditional {
        if head.is_some() {
            return None;
        }
        let q = counted_probe(prog, Probe::Consequent(b))?;
        (q, false, prog.stmts[b].data_dependent())
    } else {
        (head?, true, false)
    };
    Some(InductionLoop {
        unit: u,
        entered_after,
        probe,
        counts_head,
        var,
        step,
        exits: all_exits,
        watched_by_predictor: watched,
    })
}

/// One exit of the loop derived from the entries and the other exits.
fn derived_exit_of(prog: &Program, shape: &Shape) -> Option<DerivedExit> {
    let consequent = |k: usize| -> Option<(usize, Mult)> {
        let probe = counted_probe(prog, Probe::Consequent(k))?;
        Some((probe, prog.stmts[k].consequent.clone()?))
    };
    let chosen = *shape
        .exits
        .iter()
        .rev()
        .find(|&&k| prog.stmts[k].data_dependent())
        .or(shape.exits.last())?;
    let (probe, _) = consequent(chosen)?;
    // How often control falls from the statement before the head into it.
    let p = &prog.stmts[shape.entered_after];
    if p.static_counts.get(Param::PROC) > 0 {
        return None;
    }
    let mut count = match p.stmt.as_ref()? {
        Stmt::Assignment(..) | Stmt::Continue => p.exec.clone()?,
        Stmt::LogicalIf(_, inner, _) => match **inner {
            Stmt::Goto(_) => sub(&p.exec.clone()?, &p.consequent.clone()?),
            Stmt::Assignment(..) | Stmt::Continue => p.exec.clone()?,
            _ => return None,
        },
        _ => return None,
    };
    for &k in shape.exits.iter().filter(|&&k| k != chosen) {
        count = sub(&count, &consequent(k)?.1);
    }
    if shape.conditional {
        let b = &prog.stmts[shape.b];
        count = sub(&count, &sub(&b.exec.clone()?, &b.consequent.clone()?));
    }
    if count
        .iter()
        .any(|&(_, q)| q == probe || q >= prog.probes.len())
    {
        return None;
    }
    Some(DerivedExit {
        probe,
        count,
        watched_by_predictor: prog.stmts[chosen].data_dependent(),
    })
}

/// The index of probe `p` if the copy counts it (not derived from call sites).
fn counted_probe(prog: &Program, p: Probe) -> Option<usize> {
    prog.probes
        .iter()
        .position(|q| *q == p)
        .filter(|k| !prog.derived_probes.contains(k))
}

fn strip(e: &SExpr) -> &SExpr {
    match e {
        SExpr::Paren(x) => strip(x),
        _ => e,
    }
}

/// `V .op. e` or `e .op. V` with e free of names the loop assigns and of array elements or
/// function references: a test of a counting loop, whose trips the bounds decide.
fn compares_with_invariant(cond: &SExpr, var: &str, assigned: &HashSet<String>) -> bool {
    fn invariant(e: &SExpr, var: &str, assigned: &HashSet<String>) -> bool {
        match strip(e) {
            SExpr::Int(_) => true,
            SExpr::Name(n) => n != var && !assigned.contains(n),
            SExpr::Unary(_, x) => invariant(x, var, assigned),
            SExpr::Binary(_, l, r) => invariant(l, var, assigned) && invariant(r, var, assigned),
            _ => false,
        }
    }
    let SExpr::Binary(op, l, r) = strip(cond) else {
        return false;
    };
    let relational = matches!(
        op,
        BOp::Lt | BOp::Le | BOp::Gt | BOp::Ge | BOp::Eq | BOp::Ne
    );
    let is_var = |e: &SExpr| matches!(strip(e), SExpr::Name(n) if n == var);
    relational
        && ((is_var(l) && invariant(r, var, assigned))
            || (is_var(r) && invariant(l, var, assigned)))
}

/// The name a statement assigns (the array's, for an element or substring).
fn assigned_name(e: &SExpr) -> String {
    match strip(e) {
        SExpr::Apply(n, _) | SExpr::Name(n) => n.clone(),
        SExpr::Substring(x, ..) => assigned_name(x),
        _ => String::new(),
    }
}

/// A local integer scalar: no COMMON or dummy (which other names may alias).
fn local_integer(e: &Expr) -> Option<&str> {
    match e.unparen() {
        Expr::Variable(op) if op.ty == Type::Integer && !op.global && !op.dummy => Some(&op.name),
        _ => None,
    }
}

/// `V = V + c`, `V = c + V` or `V = V - c` (lowered), with V a local integer scalar and c an
/// integer literal, named constant or local integer scalar: V and its step.
fn step_of(assignment: &(Expr, Expr)) -> Option<(String, Step)> {
    let (lhs, rhs) = assignment;
    let var = local_integer(lhs)?;
    let Expr::Arith { op, lhs: l, rhs: r } = rhs.unparen() else {
        return None;
    };
    let is_var = |e: &Expr| local_integer(e) == Some(var);
    let (other, negated) = match op {
        ArithOp::Add if is_var(l) => (r.unparen(), false),
        ArithOp::Add if is_var(r) => (l.unparen(), false),
        ArithOp::Sub if is_var(l) => (r.unparen(), true),
        _ => return None,
    };
    let step = match other {
        Expr::Constant {
            text,
            ty: Type::Integer,
        } => match text.parse::<i64>() {
            Ok(0) => return None,
            Ok(v) => Step::Literal(if negated { -v } else { v }),
            // A named constant: its value is not known here.
            Err(_) => Step::Name {
                name: text.clone(),
                negated,
            },
        },
        e => Step::Name {
            name: local_integer(e)?.to_string(),
            negated,
        },
    };
    Some((var.to_string(), step))
}

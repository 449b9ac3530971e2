//! Rule 29: a DO loop's exit is mispredicted when its trip count changes. The branch that
//! closes a DO loop is taken on every iteration but the last; the hardware's predictor learns
//! where a loop ends when it ends at the same iteration as before, and misses the exit when
//! the trip count differs from the previous entry's (a loop over a random number of pieces,
//! a row whose length comes from the data). The counted copy evaluates, before every entry of
//! an innermost DO loop, its trip count, counts the entries where it differs from the one the
//! loop had at its previous entry, and keeps the new one (two slots per loop). Only loops
//! whose step is a literal are watched (a variable step could be zero, and the count would
//! divide by it), and only bounds without a function reference (they are evaluated twice).
//!
//! Rule 21c: the same trip count, at a loop whose bounds are not all literals, also goes to a
//! histogram by its power of two, weighted by the trips (`crate::steps`'s support subroutine
//! `histogram`): a routine called at sizes from the first-level cache to memory
//! (`DO 10 I = 1, N` with N from 1 K to 4 M) takes each entry's lines from the level that
//! holds that entry's, which no mean over the entries gives (`model::rules` rule 21c).

use crate::analysis::{sexpr_text, Program};
use crate::symbols::Symbols;
use crate::syntax::{Arg, SExpr, Stmt};
use model::expr::Type;
use model::program_stats::StepHistogram;

/// Intrinsics a DO loop's bounds may reference and still be evaluated again before it: they
/// have no side effects.
const PURE_INTRINSICS: &[&str] = &[
    "MIN", "MAX", "MIN0", "MAX0", "MOD", "ABS", "IABS", "INT", "NINT", "LEN", "ISIGN", "SIGN",
];

/// Counter slots per watched loop: its previous entry's trip count and its changes; a loop
/// whose trip counts also go to a histogram takes [`crate::steps::STEP_SLOTS`] more.
pub const TRIP_SLOTS: usize = 2;

/// The trip-count watch of an innermost DO loop.
#[derive(Debug, Clone, PartialEq)]
pub struct TripWatch {
    /// The loop's DO statement.
    pub do_stmt: usize,
    /// The trip count as a Fortran INTEGER*8 expression (Fortran 77, 11.10.3).
    pub trips: String,
    /// The slot keeping the previous entry's trip count; the next one counts the changes.
    pub slot: usize,
    /// Rule 21c: the trip counts also go to a histogram, in the slots after those two: the
    /// bounds are not all literals.
    pub histogram: bool,
}

/// The counter slots `watches` take together.
pub fn slots_of(watches: &[TripWatch]) -> usize {
    watches.iter().map(TripWatch::slots).sum()
}

/// The innermost INTEGER DO loops with a literal step whose bounds can be evaluated again
/// before the loop, with their slots from `base` on ([`TripWatch::slots`] each).
pub fn trip_slots(prog: &Program, base: usize) -> Vec<TripWatch> {
    let mut out = Vec::new();
    for l in crate::recurrence::innermost_loops(prog) {
        let Some(Stmt::Do(_, ctl)) = &prog.stmts[l.first].stmt else {
            continue;
        };
        let sym = &prog.units[l.unit].symbols;
        if sym.type_of(&ctl.var) != Some(Type::Integer) {
            continue;
        }
        let step = ctl.step.clone().unwrap_or(SExpr::Int("1".into()));
        // A step that is not a nonzero literal could be zero at run time, and the counted
        // copy must not divide by it.
        if !nonzero_literal(&step) {
            continue;
        }
        let bounds = [&ctl.start, &ctl.end, &step];
        if !bounds.iter().all(|e| evaluable(e, sym)) {
            continue;
        }
        let histogram = !bounds.iter().all(|e| nonzero_literal(e) || is_zero(e));
        let [lo, hi, st] = bounds.map(|e| format!("INT({}, 8)", sexpr_text(e)));
        let watch = TripWatch {
            do_stmt: l.first,
            trips: format!("MAX(0_8, ({hi} - {lo} + {st}) / {st})"),
            slot: base + slots_of(&out),
            histogram,
        };
        out.push(watch);
    }
    out
}

/// Whether `e` is the literal zero.
fn is_zero(e: &SExpr) -> bool {
    matches!(e, SExpr::Int(t) if t.chars().all(|c| c == '0'))
}

/// Whether `e` is an integer literal other than zero, or its negation.
fn nonzero_literal(e: &SExpr) -> bool {
    match e {
        SExpr::Int(t) => t
            .trim_start_matches('0')
            .chars()
            .any(|c| c.is_ascii_digit()),
        SExpr::Unary(_, e) | SExpr::Paren(e) => nonzero_literal(e),
        _ => false,
    }
}

/// Whether `e` reads only variables, array elements and side-effect-free intrinsics.
fn evaluable(e: &SExpr, sym: &Symbols) -> bool {
    match e {
        SExpr::Int(_) | SExpr::Name(_) => true,
        SExpr::Apply(name, args) => {
            (sym.is_array(name) || PURE_INTRINSICS.contains(&name.as_str()))
                && args.iter().all(|a| match a {
                    Arg::Expr(e) => evaluable(e, sym),
                    _ => false,
                })
        }
        SExpr::Unary(_, e) | SExpr::Paren(e) => evaluable(e, sym),
        SExpr::Binary(_, a, b) => evaluable(a, sym) && evaluable(b, sym),
        _ => false,
    }
}

impl TripWatch {
    /// The counter slots the loop takes.
    pub fn slots(&self) -> usize {
        TRIP_SLOTS
            + if self.histogram {
                crate::steps::STEP_SLOTS
            } else {
                0
            }
    }

    /// The statements to run before the loop's DO statement: count a change of the trip count,
    /// then keep it, and add it to the histogram through the support subroutine `histogram`
    /// (`crate::steps::support`) where the loop has one.
    pub fn statements(&self, counters: &str, histogram: &str) -> Vec<String> {
        let (prev, changes) = (self.slot + 1, self.slot + 2);
        let mut out = vec![
            format!(
                "IF ({counters}({prev}) .NE. {0}) {counters}({changes}) = {counters}({changes}) + 1",
                self.trips
            ),
            format!("{counters}({prev}) = {0}", self.trips),
        ];
        if self.histogram {
            let kept = format!("{counters}({prev})");
            out.push(format!(
                "CALL {histogram}({counters}({}), {kept}, {kept})",
                self.slot + TRIP_SLOTS + 1
            ));
        }
        out
    }

    /// The loop's iterations by its entries' trip counts in a run's `counters` (rule 21c);
    /// None for a loop without the histogram or one never entered.
    pub fn measured(&self, counters: &[u64]) -> Option<StepHistogram> {
        if !self.histogram {
            return None;
        }
        crate::steps::histogram_at(counters, self.slot + TRIP_SLOTS)
    }

    /// The entries whose trip count differed from the previous entry's, in a run's `counters`.
    pub fn changes(&self, counters: &[u64]) -> Option<u64> {
        counters.get(self.slot + 1).copied()
    }
}

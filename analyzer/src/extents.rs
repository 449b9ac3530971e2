//! Rule 21, widened: the extents of adjustable arrays, from the counting run. An adjustable
//! dummy's bounds (`KEEP(LDK, 0:CAP)`) are not constants, so the source alone gives neither a
//! reference's stride along a dimension past the first nor the bytes the array spans; rules 21,
//! 28 and 33 then have nothing to bound the loop with. The counted copy adds, before every
//! entry of an innermost loop that references such an array, each non-constant extent to a
//! counter of its own (and the entry to another); the statistics divide one by the other and
//! read the loop's traffic with those extents (`crate::traffic`). A loop closed by GO TO
//! jumps back to its first statement, which keeps its label: the additions run when control
//! falls into the loop, its entries. Such a loop also gets its entries counted where it
//! references an array at a random start (rule 33), which needs them; a DO loop's come from
//! its DO statement's counts. An assumed-size dimension (`*`) has no extent to count and
//! stays unknown.

use crate::analysis::{sexpr_text, Program};
use crate::syntax::Stmt;
use std::collections::HashMap;

/// Extents (elements, per dimension) a counting run measured for a loop's arrays, by array
/// name (upper case): None where the run did not count one (the declared one is a constant,
/// or `*`).
pub type MeasuredExtents = HashMap<String, Vec<Option<i64>>>;

/// One non-constant extent of an array a loop moves through.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtentWatch {
    /// Upper case.
    pub array: String,
    pub dim: usize,
    /// The extent as a Fortran integer expression, `(HI) - (LO) + 1`.
    pub extent: String,
    pub slot: usize,
}

/// The extents counted before an innermost loop's entries.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopExtents {
    /// The loop's first statement: its DO statement, or the one its GO TO jumps back to.
    pub first_stmt: usize,
    /// A loop closed by GO TO: the additions go before its first statement, which keeps its
    /// label, so that they count entries, not iterations.
    pub closed_by_goto: bool,
    /// The slot counting its entries.
    pub entries_slot: usize,
    pub watches: Vec<ExtentWatch>,
}

/// The innermost loops whose references need an extent the declarations do not give,
/// with their slots from `base` on (the entries' first, then one per extent).
pub fn extent_slots(prog: &Program, base: usize) -> Vec<LoopExtents> {
    let mut next = base;
    let mut out = Vec::new();
    for l in crate::recurrence::innermost_loops(prog) {
        let Some(traffic) =
            crate::traffic::loop_traffic(prog, l.unit, l.first, l.last, &MeasuredExtents::new())
        else {
            continue;
        };
        let sym = &prog.units[l.unit].symbols;
        let mut wanted: Vec<(String, usize, String)> = Vec::new();
        for r in &traffic.references {
            if wanted.iter().any(|(a, _, _)| *a == r.array) {
                continue;
            }
            let Some(dims) = sym.get(&r.array).map(|s| &s.dims) else {
                continue;
            };
            let declared = sym.extents(&r.array);
            for (d, dim) in dims.iter().enumerate() {
                if declared.get(d).copied().flatten().is_some() {
                    continue;
                }
                let Some(hi) = &dim.hi else { continue };
                let lo = dim.lo.as_ref().map_or("1".to_string(), sexpr_text);
                let extent = format!("({}) - ({lo}) + 1", sexpr_text(hi));
                wanted.push((r.array.clone(), d, extent));
            }
        }
        let closed_by_goto = !matches!(prog.stmts[l.first].stmt, Some(Stmt::Do(..)));
        if wanted.is_empty()
            && !(closed_by_goto && traffic.references.iter().any(|r| r.random_start))
        {
            continue;
        }
        let entries_slot = next;
        next += 1 + wanted.len();
        let watches = wanted
            .into_iter()
            .enumerate()
            .map(|(k, (array, dim, extent))| ExtentWatch {
                array,
                dim,
                extent,
                slot: entries_slot + 1 + k,
            })
            .collect();
        out.push(LoopExtents {
            first_stmt: l.first,
            closed_by_goto,
            entries_slot,
            watches,
        });
    }
    out
}

impl LoopExtents {
    /// The counter slots the loop takes: its entries' and one per extent.
    pub fn slots(&self) -> usize {
        1 + self.watches.len()
    }

    /// The statements to run before the loop's DO statement: count the entry, add each
    /// extent (a negative one, an empty dimension, as 0) to its slot of `counters`.
    pub fn additions(&self, counters: &str) -> Vec<String> {
        let mut out = vec![format!(
            "{counters}({0}) = {counters}({0}) + 1",
            self.entries_slot + 1
        )];
        for w in &self.watches {
            out.push(format!(
                "{counters}({0}) = {counters}({0}) + MAX(0_8, INT({1}, 8))",
                w.slot + 1,
                w.extent
            ));
        }
        out
    }

    /// The entries a run's `counters` counted.
    pub fn entries(&self, counters: &[u64]) -> Option<u64> {
        counters.get(self.entries_slot).copied()
    }

    /// The extents a run's `counters` measured, each the mean over the loop's entries
    /// (rounded); empty when the loop was never entered or the run did not count them.
    pub fn measured(&self, counters: &[u64]) -> MeasuredExtents {
        let mut out = MeasuredExtents::new();
        let Some(entries) = self.entries(counters).filter(|&e| e > 0) else {
            return out;
        };
        for w in &self.watches {
            let Some(&sum) = counters.get(w.slot) else {
                continue;
            };
            let mean = (sum as f64 / entries as f64).round() as i64;
            let dims = out.entry(w.array.clone()).or_default();
            if dims.len() <= w.dim {
                dims.resize(w.dim + 1, None);
            }
            dims[w.dim] = Some(mean);
        }
        out
    }
}

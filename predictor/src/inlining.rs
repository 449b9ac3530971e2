//! Rule 20 on the predictor's side: an optimizing build inlines calls, and an inlined call
//! costs no call. Which calls the compiler kept is read from the program's assembly (see
//! [`harness::EmittedCalls`]); the counts of the calls it inlined are taken out of the
//! program's statistics before the prediction.

use harness::EmittedCalls;
use model::program_stats::BlockStats;
use model::{rules, OpCounts, ProgramStats};
use std::ops::RangeInclusive;

/// Take out of `stats` the call operations (PROC, argument loads) of the calls that
/// `emitted` says the compiler inlined: for each basic block, the share of its calls whose
/// call instruction is missing from its lines. They leave the program's, the block's unit's,
/// the block's own and the regions' counts, not an enclosing innermost loop's: its body
/// counts hold its callees' work, and a callee with loops of its own inlined into it leaves
/// it no innermost machine loop to be charged by (rule 17), so it keeps being summed. (A loop
/// whose machine loop kept none of its calls loses them too: `issue::fit_to_build`.)
pub fn drop_inlined_calls(stats: &mut ProgramStats, emitted: &EmittedCalls) {
    drop_from_blocks(stats, |b| inlined_share(b, emitted));
}

/// Rule 17 for optimized builds: a DO loop the compiler unrolled completely (`unrolled`: the
/// (file, lines) of innermost loops none of whose lines is in a machine loop) has no loop
/// control left: the DO entries and iterations (LOIN, LOOV, LOIX, LOOX) of its blocks (the
/// block that ends with its DO statement and those inside) leave the program's, the units',
/// the blocks', the regions' and the loop's own counts.
pub fn drop_unrolled_loop_control(
    stats: &mut ProgramStats,
    unrolled: &[(String, RangeInclusive<u32>)],
) {
    let control = |c: &OpCounts| {
        let mut out = OpCounts::new();
        for (&p, &n) in &c.params {
            if rules::is_loop_control(p.def().operation) {
                out.add(p, n);
            }
        }
        out
    };
    for l in stats.loops.iter_mut() {
        let own = (l.file.clone(), l.first_line..=l.last_line);
        if let Some(body) = l.body_counts.as_mut().filter(|_| unrolled.contains(&own)) {
            *body = body.minus(&control(body));
        }
    }
    drop_from_blocks(stats, |b| {
        let ends_in = |(f, lines): &(String, RangeInclusive<u32>)| {
            b.file == *f && lines.contains(&b.last_line)
        };
        if !unrolled.iter().any(ends_in) {
            return None;
        }
        let out = control(b.dynamic_counts.as_ref()?);
        (!out.params.is_empty()).then_some(out)
    });
}

/// The call operations (PROC, argument loads) among `counts`.
pub fn call_charges(counts: &OpCounts) -> OpCounts {
    let mut out = OpCounts::new();
    for (&p, &n) in &counts.params {
        if rules::is_call_charge(p.def().operation) {
            out.add(p, n);
        }
    }
    out
}

/// Take `dropped(block)` out of each block's dynamic counts and out of those of the program,
/// the block's unit and the regions holding it; not out of an enclosing innermost loop's
/// body counts.
fn drop_from_blocks(stats: &mut ProgramStats, dropped: impl Fn(&BlockStats) -> Option<OpCounts>) {
    let mut blocks = std::mem::take(&mut stats.blocks);
    for b in &mut blocks {
        let Some(dropped) = dropped(b) else {
            continue;
        };
        let less = |counts: &mut Option<OpCounts>| {
            if let Some(c) = counts.as_mut() {
                *c = c.minus(&dropped);
            }
        };
        less(&mut b.dynamic_counts);
        less(&mut stats.total.dynamic_counts);
        for u in stats.units.iter_mut().filter(|u| u.name == b.unit) {
            less(&mut u.dynamic_counts);
        }
        for r in stats.regions.iter_mut().filter(|r| {
            r.spans
                .iter()
                .any(|s| b.lies_within(&s.file, s.first_line..=s.last_line))
        }) {
            less(&mut r.dynamic_counts);
        }
    }
    stats.blocks = blocks;
}

/// The call operations of `b`'s run that were inlined (rule 20), None when none were.
fn inlined_share(b: &BlockStats, emitted: &EmittedCalls) -> Option<OpCounts> {
    let counted = b.static_counts.get(model::Param::PROC);
    let runs = b.dynamic_counts.as_ref()?;
    if counted == 0 {
        return None;
    }
    let kept = rules::kept_call_share(counted, emitted.within(&b.file, b.first_line..=b.last_line));
    if kept >= 1.0 {
        return None;
    }
    let mut out = OpCounts::new();
    for (&p, &n) in &call_charges(runs).params {
        out.add(p, (n as f64 * (1.0 - kept)).round() as u64);
    }
    Some(out)
}

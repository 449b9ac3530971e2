//! Rule 20 on the predictor's side: an optimizing build inlines calls, and an inlined call
//! costs no call. Which calls the compiler kept is read from the program's assembly (see
//! [`harness::EmittedCalls`]); the counts of the calls it inlined are taken out of the
//! program's statistics before the prediction.

use harness::EmittedCalls;
use model::program_stats::BlockStats;
use model::{rules, OpCounts, Param, ProgramStats};
use std::collections::BTreeMap;
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

/// Rule 20, widened: an optimizing build computes a sine and a cosine of one argument with one
/// `sincos` call (`emitted`), which costs about one sine: each pair joined keeps one SIN
/// (SIND, SINS; COS counts as SIN, rule 9) a run, not two. A call on an innermost loop's
/// lines (GCC may put it on the DO line, where the argument's index is) runs once an
/// iteration and takes its second SIN from the loop's blocks; one elsewhere, once a run of
/// its block. The dropped SIN leaves the program's, the unit's, the block's, the regions' and
/// the loop's counts; the pair's quadrant misses and argument reductions (rules 24, 24b) stay.
pub fn drop_joined_cosines(stats: &mut ProgramStats, emitted: &EmittedCalls) {
    const SINES: [Param; 2] = [Param::SIND, Param::SINS];
    let key = |b: &BlockStats| (b.file.clone(), b.first_line, b.last_line);
    let mut dropped: BTreeMap<(String, u32, u32), OpCounts> = BTreeMap::new();
    // Takes up to `budget` (per precision) of the second SINs of `blocks`; what it took.
    let mut take = |blocks: &[&BlockStats], budget: [u64; 2]| {
        let mut left = budget;
        let mut taken = OpCounts::new();
        for b in blocks {
            let Some(runs) = &b.dynamic_counts else {
                continue;
            };
            for (k, p) in SINES.iter().enumerate() {
                let n = left[k].min(runs.get(*p) / 2);
                if n > 0 {
                    dropped.entry(key(b)).or_default().add(*p, n);
                    taken.add(*p, n);
                    left[k] -= n;
                }
            }
        }
        taken
    };
    // Innermost loops do not overlap: each loop's blocks lose only what its own calls take.
    let mut from_loops = Vec::with_capacity(stats.loops.len());
    for l in &stats.loops {
        let (d, s) = emitted.sincos_within(&l.file, l.first_line..=l.last_line);
        let lines = l.first_line..=l.last_line;
        let taken = match l.iterations.filter(|_| d + s > 0) {
            Some(n) => {
                let blocks: Vec<&BlockStats> = stats
                    .blocks
                    .iter()
                    .filter(|b| b.lies_within(&l.file, lines.clone()))
                    .collect();
                Some(take(&blocks, [d * n, s * n]))
            }
            None => None,
        };
        from_loops.push(taken);
    }
    for b in &stats.blocks {
        let inside = stats
            .loops
            .iter()
            .zip(&from_loops)
            .any(|(l, t)| t.is_some() && b.lies_within(&l.file, l.first_line..=l.last_line));
        let (d, s) = emitted.sincos_within(&b.file, b.first_line..=b.last_line);
        if let (false, Some(n)) = (inside, b.executions.filter(|_| d + s > 0)) {
            take(&[b], [d * n, s * n]);
        }
    }
    for (l, taken) in stats.loops.iter_mut().zip(from_loops) {
        if let (Some(body), Some(taken)) = (l.body_counts.as_mut(), taken) {
            *body = body.minus(&taken);
        }
    }
    drop_from_blocks(stats, |b| dropped.get(&key(b)).cloned());
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

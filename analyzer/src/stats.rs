//! Summing statement counts into the ProgramStats file: the whole program, each unit, each
//! directive region and each basic block, static and (given the counters of a run) dynamic.

use crate::analysis::{Mult, Program};
use crate::instrument::WatchedSlots;
use crate::{AnalyzeError, AnalyzeOptions};
use model::program_stats::{share_of, BlockStats, LineSpan, LoopStats, PartStats};
use model::{OpCounts, ProgramStats, Versioned};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Value of a counter combination; `None` when it comes out negative (inconsistent counters).
pub fn eval(m: &Mult, counters: &[u64]) -> Option<u64> {
    let v: i128 = m
        .iter()
        .map(|&(c, p)| c as i128 * counters.get(p).copied().unwrap_or(0) as i128)
        .sum();
    u64::try_from(v).ok()
}

/// The work of called units, for a loop's summed cost (rule 14): a loop that calls a
/// subroutine waits on that subroutine's operations too, so the recurrence bound is weighed
/// against the caller's operations plus the callees' (smith's CALLS loop, whetstone's P3).
struct CalleeWork {
    /// (statement, unit, references per execution, executions) of every call or reference.
    refs: Vec<(usize, usize, usize, u64)>,
    /// Per unit: its own operations and those of everything it calls, over one run.
    inclusive: Vec<OpCounts>,
    /// Per unit: how often it is entered over one run.
    entries: Vec<u64>,
    /// Per unit: the units its calls enter, directly or through their calls, and how often,
    /// over one run (shared out as `inclusive` is).
    entered: Vec<BTreeMap<usize, u64>>,
}

impl CalleeWork {
    /// `own`: each unit's dynamic counts over the run (its statements only).
    fn new(prog: &Program, counters: &[u64], own: Vec<OpCounts>) -> Self {
        let refs: Vec<(usize, usize, usize, u64)> = crate::analysis::unit_references(prog)
            .into_iter()
            .map(|(k, u, n, m)| (k, u, n, eval(&m, counters).unwrap_or(0)))
            .collect();
        let mut entries = vec![0u64; prog.units.len()];
        for &(_, u, n, execs) in &refs {
            entries[u] += n as u64 * execs;
        }
        let mut work = CalleeWork {
            refs,
            inclusive: Vec::new(),
            entries,
            entered: vec![BTreeMap::new(); prog.units.len()],
        };
        // Callees before callers; Fortran 77 has no recursion, a cycle anyway stops at depth.
        let mut inclusive = own.clone();
        for _ in 0..prog.units.len().min(8) {
            let mut next = own.clone();
            let mut entered = vec![BTreeMap::new(); prog.units.len()];
            for &(k, u, n, execs) in &work.refs {
                let caller = prog.stmts[k].unit;
                let calls = n as u64 * execs;
                next[caller] += &work.share(&inclusive[u], calls, u);
                work.add_entered(&mut entered[caller], u, calls);
            }
            inclusive = next;
            work.entered = entered;
        }
        work.inclusive = inclusive;
        work
    }

    /// Add to `acc` the `calls` of unit `u` and the units they enter in turn.
    fn add_entered(&self, acc: &mut BTreeMap<usize, u64>, u: usize, calls: u64) {
        *acc.entry(u).or_default() += calls;
        for (&v, &c) in &self.entered[u] {
            *acc.entry(v).or_default() += share_of(c, calls, self.entries[u]);
        }
    }

    /// `counts` (a unit's over the whole run) for `calls` of its `entries[u]` entries.
    fn share(&self, counts: &OpCounts, calls: u64, u: usize) -> OpCounts {
        let part = |c: u64| share_of(c, calls, self.entries[u]);
        OpCounts {
            params: counts.params.iter().map(|(p, &c)| (*p, part(c))).collect(),
            uncharacterized: counts
                .uncharacterized
                .iter()
                .map(|(k, &c)| (k.clone(), part(c)))
                .collect(),
        }
    }

    /// The units the calls of statements `range` enter, directly or through their callees'
    /// calls, with each unit's entries over the run: what the predictor needs to give the
    /// loop its callees' instructions (rule 17, widened).
    fn entries_of(
        &self,
        prog: &Program,
        range: std::ops::RangeInclusive<usize>,
    ) -> Vec<model::program_stats::CalleeEntries> {
        let mut calls = BTreeMap::new();
        for &(_, u, n, execs) in self.refs.iter().filter(|r| range.contains(&r.0)) {
            self.add_entered(&mut calls, u, n as u64 * execs);
        }
        calls
            .into_iter()
            .filter(|&(_, c)| c > 0)
            .map(|(u, c)| model::program_stats::CalleeEntries {
                unit: prog.units[u].name.clone(),
                calls: c,
                entries: self.entries[u],
            })
            .collect()
    }

    /// The callees' work done for the calls of statements `range`.
    fn work_of(&self, range: std::ops::RangeInclusive<usize>) -> OpCounts {
        let mut acc = OpCounts::new();
        for &(k, u, n, execs) in &self.refs {
            if range.contains(&k) {
                acc += &self.share(&self.inclusive[u], n as u64 * execs, u);
            }
        }
        acc
    }
}

/// Dynamic counts of statement `s`, with the branch misses of an IF, arithmetic IF or
/// computed GO TO (rule 15), the positions its INDEX references scanned (rule 23) and the
/// first-character compares they mispredicted (rule 23b), the
/// misses of its sines' and cosines' quadrant branches (rule 24) and their reduced arguments
/// (rule 24b), and its double MODs' fmod steps (rule 9b);
/// `slots` says where the run counted them.
pub fn statement_dynamic(
    prog: &Program,
    s: usize,
    counters: &[u64],
    slots: &WatchedSlots,
) -> OpCounts {
    let mut c = OpCounts::new();
    let st = &prog.stmts[s];
    for part in &st.parts {
        let n = eval(&part.mult, counters).unwrap_or(0);
        c += &part.counts.scaled(n);
    }
    let multiway = matches!(
        st.stmt,
        Some(crate::syntax::Stmt::ArithIf(..)) | Some(crate::syntax::Stmt::ComputedGoto(..))
    );
    if let Some(miss) = st.branch_miss.filter(|_| multiway) {
        // An arithmetic IF or computed GO TO: its simulated misses, if it was watched.
        let watched = slots.multiway_misses(s, counters);
        c += &model::rules::count_multiway_misses(watched, miss);
    }
    if let Some(positions) = slots.index_scans(s, counters) {
        model::rules::charge_index_scans(&mut c, positions);
    }
    if let Some(misses) = slots.index_misses(s, counters) {
        model::rules::charge_index_misses(&mut c, misses);
    }
    if let Some(misses) = slots.quadrant_misses(s, counters) {
        model::rules::charge_quadrant_misses(&mut c, misses);
    }
    if let Some(changes) = slots.trip_changes(s, counters) {
        model::rules::charge_trip_changes(&mut c, changes);
    }
    if let Some(reduced) = slots.reduced_arguments(s, counters) {
        model::rules::charge_reduced_arguments(&mut c, reduced);
    }
    if let Some(steps) = slots.remainder_steps(s, counters) {
        model::rules::charge_remainder_steps(&mut c, steps);
    }
    if let Some((executions, taken)) = branch_outcomes(prog, s, counters) {
        let simulated = slots.if_misses(s, counters);
        c += &model::rules::count_branch_misses(
            executions,
            taken,
            simulated,
            st.branch_miss,
            st.branch_on_array,
        );
    }
    c
}

/// How often IF statement `s` was evaluated and how often it went to its consequent or THEN
/// block.
fn branch_outcomes(prog: &Program, s: usize, counters: &[u64]) -> Option<(u64, u64)> {
    use crate::analysis::Probe;
    use crate::syntax::Stmt;
    let st = &prog.stmts[s];
    let tests = eval(&st.parts.first()?.mult, counters)?;
    let taken = match st.stmt.as_ref()? {
        Stmt::LogicalIf(..) => eval(st.consequent.as_ref()?, counters)?,
        Stmt::BlockIf(_) | Stmt::ElseIf(_) => {
            let p = prog.probes.iter().position(|p| *p == Probe::After(s))?;
            *counters.get(p)?
        }
        _ => return None,
    };
    Some((tests, taken))
}

fn sha256_of(files: &[PathBuf]) -> Result<String, AnalyzeError> {
    let mut h = Sha256::new();
    for f in files {
        let bytes = std::fs::read(f).map_err(|source| AnalyzeError::Read {
            path: f.display().to_string(),
            source,
        })?;
        h.update(&bytes);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// (probe, first statement, last statement, counts, executions).
type BlockAcc = (Option<usize>, usize, usize, Acc, Option<u64>);

#[derive(Default)]
struct Acc {
    stat: OpCounts,
    dynm: OpCounts,
}

fn part(name: &str, a: &Acc, dynamic: bool) -> PartStats {
    PartStats {
        name: name.to_string(),
        static_counts: a.stat.clone(),
        dynamic_counts: dynamic.then(|| a.dynm.clone()),
        spans: Vec::new(),
    }
}

/// Build the ProgramStats of an analyzed program; `counters` are the probe values of a run.
pub fn program_stats(
    prog: &Program,
    files: &[PathBuf],
    opts: &AnalyzeOptions,
    counters: Option<&[u64]>,
) -> Result<ProgramStats, AnalyzeError> {
    let dynamic = counters.is_some();
    let slots = WatchedSlots::of(prog);
    let acc = Accumulated::of(prog, counters, &slots);
    let name = crate::program_name(files, opts);
    let callees = counters
        .map(|c| CalleeWork::new(prog, c, acc.units.iter().map(|a| a.dynm.clone()).collect()));
    let loops = loop_stats(prog, counters, &slots, callees.as_ref());
    Ok(ProgramStats {
        format: ProgramStats::FORMAT.to_string(),
        format_version: ProgramStats::VERSION,
        program: name.clone(),
        source_files: files.iter().map(|f| f.display().to_string()).collect(),
        source_sha256: sha256_of(files)?,
        total: part(&name, &acc.total, dynamic),
        units: prog
            .units
            .iter()
            .zip(&acc.units)
            .map(|(u, a)| part(&u.name, a, dynamic))
            .collect(),
        regions: acc.region_stats(prog, dynamic),
        skipped_statements: prog.skipped,
        blocks: block_stats(prog, acc.blocks, dynamic),
        loops,
        program_flags: opts.program_flags.clone(),
        simulated_branches: dynamic.then_some(opts.simulate_branches),
    })
}

/// The line (1-based) where statement `i` starts, or where it ends when `last`.
fn line_of(prog: &Program, i: usize, last: bool) -> u32 {
    let st = prog.statement(i);
    1 + if last {
        *st.lines.last().unwrap_or(&0)
    } else {
        st.first_line()
    }
}

/// The counts of a program summed per whole program, unit, region and block.
struct Accumulated {
    total: Acc,
    /// Per unit, in `prog.units` order.
    units: Vec<Acc>,
    regions: BTreeMap<String, Acc>,
    /// Regions in the order they first occur.
    region_order: Vec<String>,
    /// Per region, its runs of consecutive statements: (file, first, last statement).
    region_spans: BTreeMap<String, Vec<(usize, usize, usize)>>,
    /// Blocks keyed by probe (statements without a probe but with costs, such as ELSE IF
    /// conditions, form their own entry keyed by statement).
    blocks: Vec<BlockAcc>,
}

impl Accumulated {
    /// Sum every statement's static counts (and, with `counters`, its dynamic ones).
    fn of(prog: &Program, counters: Option<&[u64]>, slots: &WatchedSlots) -> Self {
        let mut a = Accumulated {
            total: Acc::default(),
            units: prog.units.iter().map(|_| Acc::default()).collect(),
            regions: BTreeMap::new(),
            region_order: Vec::new(),
            region_spans: BTreeMap::new(),
            blocks: Vec::new(),
        };
        let mut block_of_probe: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, st) in prog.stmts.iter().enumerate() {
            let d = counters
                .map(|c| statement_dynamic(prog, i, c, slots))
                .unwrap_or_default();
            let s = &st.static_counts;
            a.total.stat += s;
            a.total.dynm += &d;
            a.units[st.unit].stat += s;
            a.units[st.unit].dynm += &d;
            for r in &prog.statement(i).regions {
                a.add_to_region(r, s, &d, st.file, i);
            }
            if st.parts.is_empty() && st.block.is_none() {
                continue;
            }
            let execs = counters.and_then(|c| st.exec.as_ref().and_then(|m| eval(m, c)));
            let blocks = &mut a.blocks;
            let slot = match st.block {
                Some(p) => *block_of_probe.entry(p).or_insert_with(|| {
                    blocks.push((Some(p), i, i, Acc::default(), execs));
                    blocks.len() - 1
                }),
                None => {
                    blocks.push((None, i, i, Acc::default(), execs));
                    blocks.len() - 1
                }
            };
            let b = &mut blocks[slot];
            b.2 = i;
            b.3.stat += s;
            b.3.dynm += &d;
        }
        a
    }

    /// Add statement `i` of file `file` (counts `s`, dynamic `d`) to region `r`.
    fn add_to_region(&mut self, r: &str, s: &OpCounts, d: &OpCounts, file: usize, i: usize) {
        if !self.regions.contains_key(r) {
            self.region_order.push(r.to_string());
        }
        let a = self.regions.entry(r.to_string()).or_default();
        a.stat += s;
        a.dynm += d;
        let spans = self.region_spans.entry(r.to_string()).or_default();
        match spans.last_mut() {
            Some((f, _, last)) if *f == file && *last + 1 == i => *last = i,
            _ => spans.push((file, i, i)),
        }
    }

    /// The regions' counts and line spans, in the order they first occur.
    fn region_stats(&self, prog: &Program, dynamic: bool) -> Vec<PartStats> {
        self.region_order
            .iter()
            .map(|r| PartStats {
                spans: self.region_spans[r]
                    .iter()
                    .map(|&(file, first, last)| LineSpan {
                        file: prog.files[file].path.clone(),
                        first_line: line_of(prog, first, false),
                        last_line: line_of(prog, last, true),
                    })
                    .collect(),
                ..part(r, &self.regions[r], dynamic)
            })
            .collect()
    }
}

/// The blocks' counts, executions and lines.
fn block_stats(prog: &Program, blocks: Vec<BlockAcc>, dynamic: bool) -> Vec<BlockStats> {
    blocks
        .into_iter()
        .map(|(_, first, last, acc, execs)| {
            let st = &prog.stmts[first];
            BlockStats {
                unit: prog.units[st.unit].name.clone(),
                file: prog.files[st.file].path.clone(),
                first_line: line_of(prog, first, false),
                last_line: line_of(prog, last, true),
                static_counts: acc.stat,
                executions: execs,
                dynamic_counts: dynamic.then_some(acc.dynm),
                instructions: None,
            }
        })
        .collect()
}

/// Per-recurrence flags as the stats file keeps them: left out (empty) when none is set.
fn set_or_none<T: Default + PartialEq>(flags: Vec<T>) -> Vec<T> {
    if flags.iter().any(|f| *f != T::default()) {
        flags
    } else {
        Vec::new()
    }
}

/// The innermost loops: their iterations, the work of their bodies (callees' included),
/// their recurrences and the runs of their IFs' consequents.
fn loop_stats(
    prog: &Program,
    counters: Option<&[u64]>,
    slots: &WatchedSlots,
    callees: Option<&CalleeWork>,
) -> Vec<LoopStats> {
    let line_of = |i: usize, last: bool| line_of(prog, i, last);
    crate::recurrence::innermost_loops(prog)
        .into_iter()
        .map(|l| {
            let st = &prog.stmts[l.first];
            let measured = counters
                .map(|c| slots.measured_extents(l.first, c))
                .unwrap_or_default();
            let traffic = crate::traffic::loop_traffic(prog, l.unit, l.first, l.last, &measured)
                .map(|mut t| {
                    t.measured_steps = counters.and_then(|c| slots.measured_steps(l.first, c));
                    t.measured_trips = counters.and_then(|c| slots.measured_trips(l.first, c));
                    t
                });
            LoopStats {
                unit: prog.units[l.unit].name.clone(),
                file: prog.files[st.file].path.clone(),
                first_line: line_of(l.first, false),
                last_line: line_of(l.last, true),
                iterations: counters.and_then(|c| eval(&l.iterations, c)),
                body_counts: counters.map(|c| {
                    let mut acc = OpCounts::new();
                    for k in l.first..=l.last {
                        acc += &statement_dynamic(prog, k, c, slots);
                    }
                    if let Some(callees) = callees {
                        acc += &callees.work_of(l.first..=l.last);
                    }
                    acc
                }),
                recurrence_spans: if l.recurrences.iter().all(|r| r.1 == 1) {
                    Vec::new()
                } else {
                    l.recurrences.iter().map(|r| r.1).collect()
                },
                recurrences: l.recurrences.into_iter().map(|r| r.0).collect(),
                restarted: set_or_none(l.restarted),
                through_branch: set_or_none(l.through_branch),
                if_converted: set_or_none(
                    l.if_converted
                        .iter()
                        .map(|at| at.map(|(a, b)| (line_of(a, false), line_of(b, true))))
                        .collect(),
                ),
                longest_chain: l.longest_chain,
                regions: prog.statement(l.first).regions.clone(),
                instructions: None,
                memory_instructions: None,
                divider_instructions: None,
                consequent_runs: counters
                    .map(|c| {
                        (l.first..=l.last)
                            .filter_map(|k| {
                                let runs = eval(prog.stmts[k].consequent.as_ref()?, c)?;
                                Some((line_of(k, false), runs))
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                traffic,
                entries_counted: counters.and_then(|c| slots.counted_entries(l.first, c)),
                trip_changes: counters.and_then(|c| slots.trip_changes(l.first, c)),
                callees: callees
                    .map(|w| w.entries_of(prog, l.first..=l.last))
                    .unwrap_or_default(),
                instructions_include_callees: false,
                instructions_as_built: false,
                carried_chain_ns: None,
                iterations_per_pass: None,
                arithmetic_instructions: None,
            }
        })
        .collect()
}

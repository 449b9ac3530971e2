//! The execution predictor (Saavedra-Barrera's sections 3.3 and 6): T = sum C_i P_i with
//! var(T) = sum C_i^2 var(P_i), and the breakdown of Saavedra-Barrera's figure 6.1.

use model::characterization::Characterization;
use model::hardware::{CpuInfo, HardwareReport, ARITHMETIC_ROW};
use model::program_stats::{
    ArrayReference, BlockStats, DividerInstructions, LoopStats, LoopTraffic, PartStats,
};
use model::{rules, Estimate, OpCounts, Param, ProgramStats};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum PredictError {
    /// A sum of counts times costs that overflows (a cost of 1e300 ns) or a NaN cost.
    #[error("the prediction of {program} is not a finite number ({detail}); check the machine file's value for it")]
    NonFinite { program: String, detail: String },
}

/// One line of the breakdown (Saavedra-Barrera's figure 6.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakdownRow {
    pub mnemonic: Param,
    pub operation: String,
    pub times_executed: f64,
    pub count_fraction: f64,
    pub time_s: f64,
    pub time_fraction: f64,
    pub std_dev_s: f64,
}

/// The prediction for one part of a program (the whole, a unit, a region).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartPrediction {
    pub name: String,
    /// Predicted time, ns, with its 90 % interval.
    pub time: Estimate,
    pub rows: Vec<BreakdownRow>,
    /// Operations outside the catalogue, by kind, and their share of all operations.
    pub uncharacterized: BTreeMap<String, u64>,
    pub uncharacterized_fraction: f64,
    /// Counted parameters the machine file has no value for, and their share of operations.
    pub missing: Vec<Param>,
    pub missing_fraction: f64,
}

impl PartPrediction {
    pub fn seconds(&self) -> f64 {
        self.time.mean_ns * 1e-9
    }
}

/// A program's prediction on one system (file format `opcost-prediction`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    pub format: String,
    pub format_version: u32,
    pub program: String,
    pub source_sha256: String,
    pub machine: String,
    pub compiler: String,
    /// "dynamic" (executions of one run) or "static" (occurrences in the text).
    pub counts: String,
    pub total: PartPrediction,
    pub units: Vec<PartPrediction>,
    pub regions: Vec<PartPrediction>,
    /// The innermost loops, longest first, each with the bound that sets its time (absent in
    /// older files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loops: Vec<LoopPrediction>,
    pub warnings: Vec<String>,
}

impl model::Versioned for Prediction {
    const FORMAT: &'static str = "opcost-prediction";
    const VERSION: u32 = 1;
}

/// Costs per parameter from a characterization: (value ns, std error ns, observations).
/// A parameter that cannot be separated from zero contributes max(value, 0): a negative cost
/// is noise, not a refund.
/// An integer chain's link that the optimizer emptied (marked unmeasured) costs the X-Ray
/// latencies of the instructions it is made of in registers (rule 14 for optimized builds),
/// an emptied addressed load the X-Ray latency of its cache (rule 14c).
fn costs(machine: &Characterization) -> BTreeMap<Param, (f64, f64, usize)> {
    let xray = machine.xray.as_ref();
    let cpu = xray.and_then(|x| x.cpu.as_ref());
    // What an emptied parameter costs instead: its cache's load latency or its instructions'.
    let emptied_cost = |p: Param| -> Option<f64> {
        if let Some(level) = rules::cache_link(p) {
            return xray?.latency_ns(level);
        }
        let rows = rules::register_link(p)?;
        rows.iter().map(|r| cpu?.latency_ns(r)).sum()
    };
    machine
        .parameters
        .iter()
        .filter(|r| r.estimate.mean_ns.is_finite())
        .map(|r| {
            let cost = match r.unmeasured.as_ref().and(emptied_cost(r.mnemonic)) {
                Some(ns) => (ns, 0.0, r.estimate.observations),
                None => (
                    r.estimate.mean_ns.max(0.0),
                    r.estimate.std_dev_ns,
                    r.estimate.observations,
                ),
            };
            (r.mnemonic, cost)
        })
        .collect()
}

/// One latency parameter's share of a loop's wait: (parameter, executions, time ns, std dev ns).
type WaitRow = (Param, f64, f64, f64);

/// The bound that sets an innermost loop's time (issue 27: the breakdown says which bound
/// each hot loop hit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopBound {
    /// The sum of its operations' costs (Saavedra-Barrera's model; no bound is longer).
    Operations,
    /// Its longest recurrence (rule 14).
    Recurrence,
    /// Its instructions at INST's rate (rule 17).
    Issue,
    /// Its loads and stores at MEMO's rate (rule 17).
    MemoryAccess,
    /// Its arithmetic instructions at X-Ray's arithmetic rate (rule 17c).
    ArithmeticPorts,
    /// Its divisions and square roots (rule 17's busy units).
    Divider,
    /// The out-of-order window over its longest in-iteration chain (rule 19).
    Window,
    /// Its data streaming from the cache level or memory they fit in (rule 21).
    Memory,
    /// Its stores whose stride folds onto a few L1 sets, each waiting for its line (rule 28).
    StoreConflicts,
    /// Its loads at random addresses of arrays beyond the first level (rule 33).
    RandomAccess,
}

impl LoopBound {
    pub fn describe(self) -> &'static str {
        match self {
            LoopBound::Operations => "operations' sum",
            LoopBound::Recurrence => "recurrence",
            LoopBound::Issue => "instruction issue",
            LoopBound::MemoryAccess => "memory accesses",
            LoopBound::ArithmeticPorts => "arithmetic ports",
            LoopBound::Divider => "divider",
            LoopBound::Window => "out-of-order window",
            LoopBound::Memory => "memory bandwidth",
            LoopBound::StoreConflicts => "stores' set conflicts",
            LoopBound::RandomAccess => "random-access latency",
        }
    }
}

/// How one innermost loop is charged: its time and the bound that sets it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopPrediction {
    pub unit: String,
    pub file: String,
    pub first_line: u32,
    pub last_line: u32,
    pub iterations: u64,
    /// Instructions and memory accesses of the run as the system's compiler builds it.
    pub instructions: Option<u64>,
    pub memory_instructions: Option<u64>,
    pub bound: LoopBound,
    /// The loop's predicted time in the run, s (its callees' work included).
    pub time_s: f64,
    /// The sum of its operations' costs, s: what the loop would cost without the bounds.
    pub operations_s: f64,
}

/// A loop's charge: the rows of what it adds to its operations' summed cost, their variance,
/// its time (ns) and the bound that sets it.
struct LoopCharge {
    rows: Vec<WaitRow>,
    variance: f64,
    time_ns: f64,
    summed_ns: f64,
    bound: LoopBound,
}

/// The time a loop adds to its operations' summed cost (negative: the time it saves), as
/// rows and their variance; see [`charge_loop`].
fn loop_excess(
    l: &LoopStats,
    table: &BTreeMap<Param, (f64, f64, usize)>,
    hw: &Hardware,
) -> Option<(Vec<WaitRow>, f64)> {
    charge_loop(l, table, hw)
        .filter(|c| !c.rows.is_empty())
        .map(|c| (c.rows, c.variance))
}

/// A loop runs at least `iterations` times its longest recurrence (rule 14). A loop without
/// calls whose instructions are known is charged by them (rule 17): max(recurrence,
/// max(issue, busy units, window) + events), its operations' sum left out, since an
/// out-of-order core issues them together; in a build that does not optimize its recurrence
/// there includes its branch misses (rule 26). Any other loop lasts the largest of its summed
/// cost, its recurrence and its issue time. The rows are the recurrence's latency parameters
/// scaled to the excess, or one INST (MEMO) row with it; none when the sum stands.
fn charge_loop(
    l: &LoopStats,
    table: &BTreeMap<Param, (f64, f64, usize)>,
    hw: &Hardware,
) -> Option<LoopCharge> {
    let charge = charge_loop_bounds(l, table, hw)?;
    let charge = with_random_loads(charge, l, table, hw);
    Some(with_unforeseen_exits(charge, l, table, hw))
}

/// Rule 29b: an innermost DO loop longer than X-Ray's `loop_exit_trips` misses its exit at
/// every entry, not only at those whose trip count changed (rule 29 charges these in its
/// body): one BMIS row more for each other entry. The predictor sees the machine loop's
/// passes, so in an optimized build the limit is in passes (a vector body's covers several
/// iterations), and a loop without a machine loop of its own (unrolled completely, replaced
/// by a library call) has no exit to miss. At -O0 the exit waits for the DO variable's chain
/// through memory (rule 27) and its refill comes on top of the loop's time; an optimized
/// build keeps the counter in a register, the exit resolves ahead of the loop's other work,
/// and the refill overlaps what is still in flight: a loop charged by its instructions lasts
/// at least its issue time, its body's events and these misses together.
fn with_unforeseen_exits(
    mut charge: LoopCharge,
    l: &LoopStats,
    table: &BTreeMap<Param, (f64, f64, usize)>,
    hw: &Hardware,
) -> LoopCharge {
    let optimized = hw.branches_if_converted;
    let per_pass = match (optimized, l.iterations_per_pass) {
        (false, _) => 1,
        (true, Some(k)) => k.max(1),
        (true, None) => return charge,
    };
    let (Some(limit), Some(n), Some(changes), Some(entries), Some(&(bmis, se, _))) = (
        hw.cpu().and_then(|c| c.loop_exit_trips),
        l.iterations,
        l.trip_changes,
        l.entries(),
        table.get(&Param::BMIS),
    ) else {
        return charge;
    };
    let limit = u32::try_from(u64::from(limit).saturating_mul(per_pass)).unwrap_or(u32::MAX);
    let missed = rules::unforeseen_exits(entries, n, changes, limit);
    if missed == 0 {
        return charge;
    }
    let missed = missed as f64;
    let exits_ns = missed * bmis;
    let issued = (optimized && l.charged_by_instructions())
        .then(|| issue_bound(l, table, hw))
        .flatten();
    let extra = match issued {
        Some(b) => {
            let events = l.body_counts.as_ref().map_or(0.0, |body| {
                charged_as(body, table, rules::LoopCharge::Event)
            });
            let lifted = b.ns + events + exits_ns - charge.time_ns;
            if lifted > 0.0 {
                charge.bound = b.kind;
            }
            lifted.max(0.0)
        }
        None => exits_ns,
    };
    if extra <= 0.0 {
        return charge;
    }
    let sd = missed * se * (extra / exits_ns).min(1.0);
    charge.rows.push((Param::BMIS, missed, extra, sd));
    charge.variance += sd.powi(2);
    charge.time_ns += extra;
    charge
}

/// Rule 33: a loop whose loads at random addresses reach arrays beyond the first level (each
/// iteration, an indirect subscript that moves by no known step; once an entry, a start the
/// unit computed from data: `ArrayReference`) waits for them as far as its window does not
/// overlap them ([`rules::random_access_ns`]), at X-Ray's random-access curve and INST's issue
/// rate. The wait is an INST row, the bound "random-access latency".
fn with_random_loads(
    mut charge: LoopCharge,
    l: &LoopStats,
    table: &BTreeMap<Param, (f64, f64, usize)>,
    hw: &Hardware,
) -> LoopCharge {
    let (Some(n), Some(xray), Some(traffic)) = (l.iterations, hw.xray, l.traffic.as_ref()) else {
        return charge;
    };
    let excess = |refs: Vec<&ArrayReference>| -> Vec<f64> {
        refs.into_iter()
            .filter_map(|r| xray.random_access_excess_ns(r.array_bytes?))
            .filter(|&x| x > 0.0)
            .collect()
    };
    let inst = table.get(&Param::INST).map_or(0.0, |t| t.0);
    let window = instructions_in_flight(table, hw);
    // Each iteration's indirect loads, then each entry's first load of each array it starts
    // at a random place (two references from one start share its line).
    let refs = traffic.references.iter();
    let every_iteration = excess(
        refs.clone()
            .filter(|r| r.indirect && r.stride_bytes.is_none())
            .collect(),
    );
    let mut starts: Vec<&ArrayReference> = refs.filter(|r| r.random_start).collect();
    starts.sort_by(|a, b| a.array.cmp(&b.array));
    starts.dedup_by(|a, b| a.array == b.array);
    let every_entry = excess(starts);
    let entries = l.entries().or(l.entries_counted);
    for (times, loads) in [(Some(n), every_iteration), (entries, every_entry)] {
        let Some(times) = times.filter(|&t| t > 0 && !loads.is_empty()) else {
            continue;
        };
        let times = times as f64;
        let t0 = charge.time_ns / times;
        let waited = (rules::random_access_ns(t0, &loads, window, inst) - t0) * times;
        if waited > 0.0 {
            charge.rows.push((Param::INST, 0.0, waited, 0.0));
            charge.time_ns += waited;
            charge.bound = LoopBound::RandomAccess;
        }
    }
    charge
}

/// The window: the characterized WIND (rule 19) where its test ran; at optimizing flags,
/// whose compiler empties that test (a file may keep it as an unmeasured 0: no window),
/// X-Ray's out-of-order window (issue 27); 0 without either.
fn instructions_in_flight(table: &BTreeMap<Param, (f64, f64, usize)>, hw: &Hardware) -> f64 {
    table
        .get(&Param::WIND)
        .map(|w| w.0)
        .filter(|&w| w > 0.0)
        .or_else(|| hw.window())
        .unwrap_or(0.0)
}

/// [`charge_loop`] without rule 33.
fn charge_loop_bounds(
    l: &LoopStats,
    table: &BTreeMap<Param, (f64, f64, usize)>,
    hw: &Hardware,
) -> Option<LoopCharge> {
    let n = l.iterations? as f64;
    let body = l.body_counts.as_ref()?;
    if n <= 0.0 {
        return None;
    }
    let value = |p: &Param| table.get(p).map(|t| t.0).unwrap_or(0.0);
    let summed = |keep: &dyn Fn(Param) -> bool| -> f64 {
        body.params
            .iter()
            .filter(|(p, _)| keep(**p))
            .map(|(p, &c)| c as f64 * value(p))
            .sum()
    };
    let thr = summed(&|_| true);
    // A latency parameter the machine file lacks (a file made before it: QFRS, QFRD) counts
    // as nothing on a chain rather than dropping the chain.
    let cost = |r: &OpCounts| -> f64 { r.params.iter().map(|(p, &c)| c as f64 * value(p)).sum() };
    // Each bound as (its time ns, its counts over the whole run).
    // A recurrence spanning k iterations waits its latency once every k iterations; one that
    // restarts at every entry shows only the share the window does not overlap (rule 27).
    let window = instructions_in_flight(table, hw);
    let restarted_share = restarted_share(l, window);
    // Each recurrence as (its time ns, its counts over the run, its chain and span when it
    // passes through a watched IF).
    let recurrences: Vec<_> = l
        .recurrences_with_spans()
        .enumerate()
        .map(|(k, (r, span, restarted))| {
            let share = if restarted { restarted_share } else { 1.0 };
            let times = n / span as f64 * share;
            let through = l.through_branch(k).then_some((r, span));
            (times * cost(r), r.scaled(times.round() as u64), through)
        })
        .collect();
    // The longest recurrence; with `misses`, each of them makes the link of a chain through
    // an IF again. Only the longest one's counts are built.
    let longest = |misses: Option<f64>| {
        // The links a chain through an IF makes again: one a miss, once every span.
        let again = |span: u32| misses.map_or(0.0, |m| m / span as f64);
        let time = |(t, _, through): &(f64, OpCounts, Option<(&OpCounts, u32)>)| {
            t + through.map_or(0.0, |(r, span)| again(span) * cost(r))
        };
        let top = recurrences
            .iter()
            .max_by(|a, b| time(a).total_cmp(&time(b)))?;
        let mut counts = top.1.clone();
        if let (Some(_), Some((r, span))) = (misses, top.2) {
            counts += &r.scaled(again(span).round() as u64);
        }
        Some((time(top), counts))
    };
    // The body's branch misses (rule 26): a chain they restart lasts their time longer.
    let misses = |p: Param| rules::is_branch_miss(p.def().operation);
    let missed: Vec<(Param, u64)> = body
        .params
        .iter()
        .filter(|(p, _)| misses(**p))
        .map(|(p, &c)| (*p, c))
        .collect();
    let plus_misses = |(time, mut counts): (f64, OpCounts)| {
        for (p, c) in &missed {
            counts.add(*p, *c);
        }
        (time + summed(&misses), counts)
    };
    // Rule 31: at optimizing flags, the chain the machine loop carries, where it is the
    // longer (its time then carries the source chain's rows, scaled up to it). It is the
    // source's longest chain as built: where that one restarts at every entry, the window
    // overlaps as much of it (rule 27).
    let longest_restarted = l
        .recurrences_with_spans()
        .map(|(r, span, restarted)| (cost(r) / span as f64, restarted))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .is_some_and(|(_, restarted)| restarted);
    let source = longest(None);
    let as_built = l
        .carried_chain_ns
        .map(|t| {
            t * if longest_restarted {
                restarted_share
            } else {
                1.0
            }
        })
        .filter(|&m| m > source.as_ref().map_or(0.0, |s| s.0));
    // Rule 26 at optimizing flags, on the build's own chain: where the machine loop's chain
    // is the longer, it is the loop's real one, and a miss's refill comes on top of it as at
    // -O0. A longer source chain is one the build shortened, which a miss's refill does not
    // lengthen further.
    let recurrence = match as_built {
        Some(m) => {
            let chain = (m, source.map_or_else(OpCounts::new, |s| s.1));
            Some(if hw.branches_if_converted {
                plus_misses(chain)
            } else {
                chain
            })
        }
        None => source,
    };
    let issue = issue_bound(l, table, hw);
    // The rows of `counts` scaled by `share`, and their variance. The errors scale by at
    // most one: the part of a chain's wait its links' costs do not explain (a machine chain
    // of X-Ray's latencies, rule 31, over links the optimizer emptied) carries no error of
    // theirs, and scaling a near-zero cost's error by a huge share would make the interval
    // meaningless.
    let scaled_rows = |counts: &OpCounts, share: f64| -> (Vec<WaitRow>, f64) {
        let error_share = share.min(1.0);
        let mut var = 0.0;
        let rows = counts
            .params
            .iter()
            .map(|(p, &c)| {
                // A latency the machine file lacks (made before it: QDOV) costs nothing.
                let (v, se, _) = table.get(p).copied().unwrap_or((0.0, 0.0, 0));
                let c = c as f64;
                var += (c * se * error_share).powi(2);
                (*p, c, c * v * share, c * se * error_share)
            })
            .collect();
        (rows, var)
    };
    // The rows of a chain of `counts` lasting `time`, beyond the operations' sum: its rows
    // scaled (a machine chain can outlast its counts' cost, rule 31), or one row of the
    // issue bound's parameter when it has none.
    let chain_rows = |counts: &OpCounts, time: f64| -> (Vec<WaitRow>, f64) {
        let total = cost(counts);
        if total > 0.0 {
            return scaled_rows(counts, (time - thr) / total);
        }
        let (param, count, sd) =
            issue.map_or((Param::INST, 0.0, 0.0), |b| (b.param, b.count, b.sd));
        (vec![(param, count, time - thr, sd)], sd * sd)
    };
    let charge = |rows: Vec<WaitRow>, variance: f64, time_ns: f64, bound: LoopBound| LoopCharge {
        rows,
        variance,
        time_ns,
        summed_ns: thr,
        bound,
    };
    // Rule 17: a loop without calls whose instructions are known is charged by them
    // (`LoopStats::charged_by_instructions`); else its operations' sum stands.
    let charged_by_issue = issue.filter(|_| l.charged_by_instructions());
    if let Some(b) = charged_by_issue {
        let of = |k: rules::LoopCharge| charged_as(body, table, k);
        let (busiest, kind) = busiest(l, &b, &cost, of(rules::LoopCharge::Unit), table, hw);
        let issued = busiest + of(rules::LoopCharge::Event);
        // Rule 26: where every IF is a branch, its misses restart the chain, and a miss of an
        // IF the chain passes through makes that link again.
        let recurrence = if hw.branches_if_converted {
            recurrence
        } else {
            let count = missed.iter().map(|(_, c)| *c as f64).sum::<f64>();
            longest(Some(count)).map(plus_misses)
        };
        if let Some((rec, counts)) = recurrence.as_ref().filter(|r| r.0 > issued && r.0 > thr) {
            let (rows, var) = chain_rows(counts, *rec);
            return Some(charge(rows, var, *rec, LoopBound::Recurrence));
        }
        return Some(match recurrence.filter(|r| r.0 > issued) {
            Some((rec, _)) => charge(
                vec![(b.param, b.count, rec - thr, b.sd)],
                b.sd * b.sd,
                rec,
                LoopBound::Recurrence,
            ),
            None => charge(
                vec![(b.param, b.count, issued - thr, b.sd)],
                b.sd * b.sd,
                issued,
                kind,
            ),
        });
    }
    let issue = issue.map(|b| {
        let mut c = OpCounts::new();
        c.add(b.param, b.count as u64);
        (b.ns, c, b.kind)
    });
    let longest = [
        recurrence.map(|(t, c)| (t, c, LoopBound::Recurrence)),
        issue,
    ]
    .into_iter()
    .flatten()
    .max_by(|a, b| a.0.total_cmp(&b.0));
    Some(match longest {
        Some((bound, counts, kind)) if bound > thr && bound > 0.0 => {
            let (rows, var) = chain_rows(&counts, bound);
            charge(rows, var, bound, kind)
        }
        _ => charge(Vec::new(), 0.0, thr, LoopBound::Operations),
    })
}

/// Rule 27: the share of a restarted recurrence's chains that a loop's entries leave
/// exposed, from its instructions and iterations per entry and the window; one when one of
/// them is not known.
fn restarted_share(l: &LoopStats, window: f64) -> f64 {
    match (l.instructions, l.iterations, l.entries()) {
        (Some(i), Some(n), Some(e)) => {
            rules::restarted_chain_share(i as f64 / e as f64, n as f64 / e as f64, window)
        }
        _ => 1.0,
    }
}

/// Of the limits a loop charged by its instructions overlaps, the longest and its kind: its
/// issue (`b`), its divider (an optimized build's divisions and square roots at X-Ray's
/// measured throughputs when it has them, else `unit_ns`, the characterized DR... and SQR...
/// parameters), the window over its longest chain (rule 19), its memory traffic (rule 21) and
/// its stores that wait for their lines (rule 28).
fn busiest(
    l: &LoopStats,
    b: &IssueBound,
    cost: &dyn Fn(&OpCounts) -> f64,
    unit_ns: f64,
    table: &BTreeMap<Param, (f64, f64, usize)>,
    hw: &Hardware,
) -> (f64, LoopBound) {
    let n = l.iterations.unwrap_or(0) as f64;
    let window = table.get(&Param::WIND).map_or(0.0, |w| {
        let all = l.instructions.unwrap_or(0) as f64;
        rules::window_bound(cost(&l.longest_chain), all, w.0)
    });
    let divider = l
        .divider_instructions
        .as_ref()
        .and_then(|d| hw.cpu().and_then(|c| divider_ns(d, c)))
        .unwrap_or(unit_ns);
    let conflicts = hw.store_conflicts_ns(l, n).unwrap_or(0.0);
    // Rule 21c: each group of entries takes the longer of its memory time and its share of
    // the other limits.
    let others = [b.ns, divider, window, conflicts]
        .into_iter()
        .fold(0.0, f64::max);
    let memory = l
        .traffic
        .as_ref()
        .and_then(|t| hw.memory_groups_ns(t, n, l.entries()))
        .filter(|groups| groups.iter().any(|&(share, ns)| ns > share * others))
        .map_or(0.0, |groups| {
            groups
                .iter()
                .map(|&(share, ns)| ns.max(share * others))
                .sum()
        });
    [
        (b.ns, b.kind),
        (divider, LoopBound::Divider),
        (window, LoopBound::Window),
        (memory, LoopBound::Memory),
        (conflicts, LoopBound::StoreConflicts),
    ]
    .into_iter()
    .fold(
        (f64::MIN, LoopBound::Issue),
        |m, x| if x.0 > m.0 { x } else { m },
    )
}

/// What X-Ray measured of the machine, and whether its build optimizes, for the loop bounds
/// that use them.
struct Hardware<'a> {
    /// Whether the build optimizes, so that its IFs may be conditional moves rather than the
    /// branches rule 15 counts (gfortran -O0 keeps every IF a branch).
    branches_if_converted: bool,
    xray: Option<&'a HardwareReport>,
    /// The operating system's cache sizes: (level, bytes).
    os_sizes: Vec<(u8, u64)>,
}

impl<'a> Hardware<'a> {
    fn of(machine: &'a Characterization) -> Hardware<'a> {
        Hardware {
            branches_if_converted: crate::issue::optimizes(&machine.compiler.flags),
            xray: machine.xray.as_ref(),
            os_sizes: machine
                .machine
                .os_caches
                .iter()
                .filter(|c| c.kind != "Instruction")
                .map(|c| (c.level as u8, c.size_bytes))
                .collect(),
        }
    }

    /// X-Ray's out-of-order window, instructions in flight (rule 27 at optimizing flags).
    fn window(&self) -> Option<f64> {
        self.cpu()?.window_instructions.map(f64::from)
    }

    fn cpu(&self) -> Option<&'a CpuInfo> {
        self.xray.and_then(|x| x.cpu.as_ref())
    }

    /// Rule 21: the time, ns, `iterations` of a loop with `traffic`, entered `entries` times,
    /// take to stream their data, by group of entries: each group's share of the iterations
    /// and its time. One group, the mean entry, unless the counting run saw the entries' trip
    /// counts (rule 21c): then one per power of two of them, each entry's lines coming from
    /// the level that holds them. None without a known footprint or measured bandwidths.
    fn memory_groups_ns(
        &self,
        traffic: &LoopTraffic,
        iterations: f64,
        entries: Option<u64>,
    ) -> Option<Vec<(f64, f64)>> {
        let mean_trips = entries.filter(|&e| e > 0).map(|e| iterations / e as f64);
        let groups: Vec<(f64, Option<f64>)> = match &traffic.measured_trips {
            Some(h) if entries.is_some() => {
                let total: u64 = h.groups().map(|(n, _)| n).sum();
                h.groups()
                    .map(|(n, trips)| (n as f64 / total as f64, Some(trips)))
                    .collect()
            }
            _ => vec![(1.0, mean_trips)],
        };
        groups
            .into_iter()
            .map(|(share, trips)| {
                self.memory_ns(traffic, share * iterations, trips)
                    .map(|ns| (share, ns))
            })
            .collect()
    }

    /// Rule 21: the time, ns, `iterations` of a loop with `traffic` whose entries run `trips`
    /// iterations each take to stream their data from the level they fit in: the arrays'
    /// footprint, at least the bytes one entry touches ([`touched_bytes`], rule 21c). None
    /// without a known footprint or measured bandwidths. A reference that comes back to its
    /// lines at the next entry ([`rules::reuses_lines_across_entries`]) streams from the level
    /// one entry's lines fit in instead, an element an iteration when that is the first.
    fn memory_ns(&self, traffic: &LoopTraffic, iterations: f64, trips: Option<f64>) -> Option<f64> {
        let xray = self.xray?;
        let line = xray
            .caches
            .iter()
            .find_map(|c| c.block_bytes)
            .map_or(64, u64::from);
        // A reference's bytes an iteration: by its step, or by the variable step the counting
        // run measured (rule 21b).
        let streamed = |r: &ArrayReference| {
            let stepped = match (r.stride_bytes, r.stride_per_step_bytes) {
                (None, Some(per_step)) => traffic
                    .measured_steps
                    .as_ref()
                    .and_then(|steps| rules::stepped_bytes(per_step, steps, line)),
                _ => None,
            };
            stepped.unwrap_or_else(|| rules::streamed_bytes(r.stride_bytes, r.element_bytes, line))
        };
        // One entry's lines: every reference's bytes an iteration, over its trips.
        let entry_bytes = trips.map(|t| {
            let per_iteration: f64 = traffic.references.iter().map(streamed).sum();
            (per_iteration * t) as u64
        });
        let footprint = traffic
            .footprint_bytes?
            .max(trips.map_or(0, |t| touched_bytes(traffic, t, line)));
        let bandwidth = xray.bandwidth_for(footprint, &self.os_sizes)?;
        let entry_level = entry_bytes
            .filter(|&b| b < footprint)
            .and_then(|b| xray.bandwidth_for(b, &self.os_sizes))
            .filter(|b| b.level != bandwidth.level);
        // Lines that fold onto a few sets do not stay for the next entry (rule 28's test).
        let l1 = xray.l1_geometry();
        let keeps = |stride: Option<i64>| match (l1, stride, trips) {
            (Some(l1), Some(s), Some(t)) => !rules::lines_fold_in_l1(s, t, l1),
            _ => false,
        };
        // (read, written) bytes an iteration at the footprint's level and at the entry's.
        let (mut whole, mut entry) = ((0.0, 0.0), (0.0, 0.0));
        for r in &traffic.references {
            let reused = entry_level.is_some()
                && rules::reuses_lines_across_entries(r.stride_bytes, r.outer_stride_bytes, line)
                && keeps(r.stride_bytes);
            let (to, bytes) = match (reused, entry_level.and_then(|b| b.level)) {
                (true, Some(1)) => (&mut entry, f64::from(r.element_bytes)),
                (true, _) => (&mut entry, line as f64),
                (false, _) => (&mut whole, streamed(r)),
            };
            if r.read {
                to.0 += bytes;
            }
            if r.written {
                to.1 += bytes;
            }
        }
        let entry_ns = entry_level.map_or(0.0, |b| b.time_ns(entry.0, entry.1));
        Some(iterations * (bandwidth.time_ns(whole.0, whole.1) + entry_ns))
    }

    /// Rule 28: the time, ns, `iterations` of a loop take when each of its stores whose stride
    /// folds onto a few L1 sets waits for its line from L2; None without X-Ray's L1 geometry
    /// and L2 latency, or for a loop whose entries are not known (`LoopStats::entries`).
    fn store_conflicts_ns(&self, l: &LoopStats, iterations: f64) -> Option<f64> {
        let xray = self.xray?;
        let l1 = xray.l1_geometry()?;
        let wait = xray.latency_ns(2)?;
        let trips = iterations / l.entries()? as f64;
        let stores = l
            .traffic
            .as_ref()?
            .references
            .iter()
            .filter(|r| r.written)
            .filter_map(|r| r.stride_bytes)
            .filter(|&s| rules::store_waits_for_its_line(s, trips, l1))
            .count();
        Some(iterations * stores as f64 * wait)
    }
}

/// Rule 21c: the bytes one entry of `trips` iterations of a loop with `traffic` touches at
/// least: for each array, the most any one of its references with a known step walks (a line
/// an iteration at most: references to one column's rows share its lines), summed over the
/// arrays. An adjustable array's bytes from its mean extent understate the entries that walk
/// the most; these do not.
fn touched_bytes(traffic: &LoopTraffic, trips: f64, line: u64) -> u64 {
    let mut by_array: BTreeMap<&str, u64> = BTreeMap::new();
    for r in &traffic.references {
        if let Some(s) = r.stride_bytes {
            let walked = (s.unsigned_abs().min(line) as f64 * trips) as u64;
            let most = by_array.entry(r.array.as_str()).or_default();
            *most = (*most).max(walked);
        }
    }
    by_array.values().sum()
}

/// The time, ns, the divider takes over `d`'s instructions at X-Ray's throughputs (scalar and
/// packed rows); None when a row the loop needs was not measured.
fn divider_ns(d: &DividerInstructions, cpu: &CpuInfo) -> Option<f64> {
    d.by_name()
        .iter()
        .map(|(name, n)| {
            let scalar_ns = cpu.throughput_ns(name, false);
            let scalar = match n.scalar {
                0 => 0.0,
                k => k as f64 * scalar_ns?,
            };
            let packed = match n.packed {
                0 => 0.0,
                k => {
                    let (ns, bits) = cpu.widest_throughput_ns(name, true)?;
                    rules::packed_divider_ns(k, n.packed_bits, ns, bits.unwrap_or(0), scalar_ns)
                }
            };
            Some(scalar + packed)
        })
        .sum()
}

/// A loop's issue time (rule 17): its instructions at INST's rate or its loads and stores at
/// MEMO's, whichever takes longer (an out-of-order core dispatches a few instructions a
/// cycle, of which fewer may access memory).
#[derive(Debug, Clone, Copy)]
struct IssueBound {
    /// INST or MEMO, whichever bounds.
    param: Param,
    /// The instructions that parameter counts.
    count: f64,
    ns: f64,
    /// The standard deviation of `ns` from the parameter's.
    sd: f64,
    /// Which limit it is: instruction issue, memory accesses or arithmetic ports.
    kind: LoopBound,
}

/// The cost, ns, of a loop body's operations of charge `kind` (rule 17): at the table's
/// values, a parameter the table lacks costing nothing.
fn charged_as(
    body: &OpCounts,
    table: &BTreeMap<Param, (f64, f64, usize)>,
    kind: rules::LoopCharge,
) -> f64 {
    body.params
        .iter()
        .filter(|(p, _)| rules::loop_charge(p.def().operation) == kind)
        .map(|(p, &c)| c as f64 * table.get(p).map_or(0.0, |t| t.0))
        .sum()
}

/// The loop's [`IssueBound`]: the largest of those a machine has measured; None without
/// any. A machine without MEMO (files made before it) bounds by INST alone; one without
/// INST (optimizing flags remove its test's work) by MEMO alone. An optimized build's loop
/// also issues its arithmetic instructions at X-Ray's arithmetic rate (rule 17c), where
/// X-Ray measured it.
fn issue_bound(
    l: &LoopStats,
    table: &BTreeMap<Param, (f64, f64, usize)>,
    hw: &Hardware,
) -> Option<IssueBound> {
    let by = |param: Param, count: Option<u64>| {
        let (v, se, _) = table.get(&param)?;
        let count = count? as f64;
        Some(IssueBound {
            param,
            count,
            ns: count * v,
            sd: count * se,
            kind: if param == Param::MEMO {
                LoopBound::MemoryAccess
            } else {
                LoopBound::Issue
            },
        })
    };
    // Rule 17c: the arithmetic instructions at the rate X-Ray's independent additions keep
    // the arithmetic ports busy.
    let arithmetic = hw
        .cpu()
        .and_then(|c| c.throughput_ns(ARITHMETIC_ROW, false))
        .zip(l.arithmetic_instructions)
        .map(|(ns, n)| IssueBound {
            param: Param::INST,
            count: n as f64,
            ns: n as f64 * ns,
            sd: 0.0,
            kind: LoopBound::ArithmeticPorts,
        });
    [
        by(Param::INST, l.instructions),
        by(Param::MEMO, l.memory_instructions),
        arithmetic,
    ]
    .into_iter()
    .flatten()
    .max_by(|a, b| a.ns.total_cmp(&b.ns))
}

/// How much the parameters the machine file lacks may add to a part's time, ns: they count
/// as zero in the estimate, so the interval's upper end widens by each one's count times the
/// dearest cost the file has in its region (of any region when it has none there). What
/// `predict` and `validate` both report, since both predict through [`predict_part`].
fn missing_allowance(
    counts: &OpCounts,
    missing: &[Param],
    table: &BTreeMap<Param, (f64, f64, usize)>,
) -> f64 {
    let dearest = |keep: &dyn Fn(Param) -> bool| {
        table
            .iter()
            .filter(|(p, _)| keep(**p))
            .map(|(_, v)| v.0)
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
    };
    missing
        .iter()
        .map(|p| {
            let region = p.def().region;
            let cost = dearest(&|q| q.def().region == region)
                .or_else(|| dearest(&|_| true))
                .unwrap_or(0.0);
            counts.get(*p) as f64 * cost
        })
        .sum()
}

/// Predict one set of counts.
pub fn predict_counts(name: &str, counts: &OpCounts, machine: &Characterization) -> PartPrediction {
    predict_part(name, counts, &[], machine)
}

/// Predict one part: its counts, plus the recurrence waits of its innermost loops (rule 14).
pub fn predict_part(
    name: &str,
    counts: &OpCounts,
    loops: &[&LoopStats],
    machine: &Characterization,
) -> PartPrediction {
    predict_part_with(name, counts, loops, &[], machine)
}

/// [`predict_part`] with the basic blocks of the part that no loop charged by its
/// instructions holds: each lasts at least its machine instructions at INST's rate (rule 22).
fn predict_part_with(
    name: &str,
    counts: &OpCounts,
    loops: &[&LoopStats],
    blocks: &[&BlockStats],
    machine: &Characterization,
) -> PartPrediction {
    let table = costs(machine);
    let hw = Hardware::of(machine);
    let total_ops = (counts.total_characterized() + counts.total_uncharacterized()).max(1) as f64;
    let mut t = 0.0;
    let mut var = 0.0;
    let mut min_n = usize::MAX;
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    let mut missing_ops = 0u64;
    for (&p, &c) in &counts.params {
        let Some(&(cost, se, n)) = table.get(&p) else {
            missing.push(p);
            missing_ops += c;
            continue;
        };
        let c = c as f64;
        t += c * cost;
        var += (c * se).powi(2);
        min_n = min_n.min(n);
        rows.push(BreakdownRow {
            mnemonic: p,
            operation: p.def().description(),
            times_executed: c,
            count_fraction: c / total_ops,
            time_s: c * cost * 1e-9,
            time_fraction: 0.0,
            std_dev_s: c * se * 1e-9,
        });
    }
    // Recurrence waits: latency rows for the time loops wait on their chains.
    let mut waits: BTreeMap<Param, (f64, f64, f64)> = BTreeMap::new();
    for l in loops {
        if let Some((extra, v)) = loop_excess(l, &table, &hw) {
            var += v;
            for (p, execs, time_ns, sd_ns) in extra {
                let w = waits.entry(p).or_insert((0.0, 0.0, 0.0));
                w.0 += execs;
                w.1 += time_ns;
                w.2 += sd_ns;
                t += time_ns;
            }
        }
    }
    if let Some((execs, time_ns, sd_ns)) = straight_line_floor(blocks, &table) {
        let w = waits.entry(Param::INST).or_insert((0.0, 0.0, 0.0));
        w.0 += execs;
        w.1 += time_ns;
        w.2 += sd_ns;
        t += time_ns;
        var += sd_ns * sd_ns;
    }
    for (p, (execs, time_ns, sd_ns)) in waits {
        rows.push(BreakdownRow {
            mnemonic: p,
            operation: if time_ns < 0.0 {
                "overlap: loops issue their operations together (rule 17)".to_string()
            } else {
                format!("wait: {}", p.def().description())
            },
            times_executed: execs,
            count_fraction: 0.0,
            time_s: time_ns * 1e-9,
            time_fraction: 0.0,
            std_dev_s: sd_ns * 1e-9,
        });
    }
    for r in &mut rows {
        r.time_fraction = if t > 0.0 { r.time_s * 1e9 / t } else { 0.0 };
    }
    rows.sort_by(|a, b| b.time_s.total_cmp(&a.time_s));
    let sd = var.sqrt();
    let half = if min_n == usize::MAX {
        0.0
    } else {
        model::stats::t_factor(min_n) * sd
    };
    PartPrediction {
        name: name.to_string(),
        time: Estimate {
            mean_ns: t,
            std_dev_ns: sd,
            ci_low_ns: t - half,
            ci_high_ns: t + half + missing_allowance(counts, &missing, &table),
            observations: if min_n == usize::MAX { 0 } else { min_n },
        },
        rows,
        uncharacterized: counts.uncharacterized.clone(),
        uncharacterized_fraction: counts.total_uncharacterized() as f64 / total_ops,
        missing,
        missing_fraction: missing_ops as f64 / total_ops,
    }
}

/// Rule 22: what `blocks` add when each lasts at least its machine instructions at INST's
/// rate: (instructions, time ns beyond their operations' cost, its std dev ns); None when no
/// block has instructions (a build that does not optimize) or the machine has no INST.
fn straight_line_floor(
    blocks: &[&BlockStats],
    table: &BTreeMap<Param, (f64, f64, usize)>,
) -> Option<(f64, f64, f64)> {
    let &(inst, se, _) = table.get(&Param::INST)?;
    let mut out = (0.0, 0.0, 0.0);
    for b in blocks {
        let (Some(n), Some(i), Some(c)) = (b.executions, b.instructions, &b.dynamic_counts) else {
            continue;
        };
        let issued = (n * i) as f64;
        let summed: f64 = c
            .params
            .iter()
            .map(|(p, &k)| k as f64 * table.get(p).map_or(0.0, |t| t.0))
            .sum();
        let excess = rules::straight_line_excess(issued * inst, summed);
        if excess > 0.0 {
            out.0 += issued;
            out.1 += excess;
            out.2 += issued * se;
        }
    }
    (out.1 > 0.0).then_some(out)
}

/// The blocks of `stats` that `keep` keeps and no loop charged by its instructions holds.
fn blocks_outside_charged_loops(
    stats: &ProgramStats,
    keep: impl Fn(&BlockStats) -> bool,
) -> Vec<&BlockStats> {
    stats
        .blocks
        .iter()
        .filter(|b| keep(b))
        .filter(|b| {
            !stats.loops.iter().any(|l| {
                b.lies_within(&l.file, l.first_line..=l.last_line) && l.charged_by_instructions()
            })
        })
        .collect()
}

/// The dynamic counts of a part when it has them, else its static counts.
pub fn part_counts(p: &PartStats) -> &OpCounts {
    p.dynamic_counts.as_ref().unwrap_or(&p.static_counts)
}

/// Predict a program's run time on a machine from its sources: its loops get their
/// instructions as the machine's compiler builds them (rule 17), then [`predict`]. When that
/// fails (no compiler, no source, no line directives) the estimate has no issue bound and a
/// warning says why.
/// A prediction that is not a finite number (an overflowing or NaN cost) is refused.
pub fn predict_program(
    stats: &ProgramStats,
    machine: &Characterization,
) -> Result<Prediction, PredictError> {
    let mut stats = stats.clone();
    let failed = crate::issue::fit_to_build(&mut stats, machine).err();
    let mut p = predict(&stats, machine);
    let has_inst = machine.parameters.iter().any(|r| r.mnemonic == Param::INST);
    if let (Some(e), true) = (failed, has_inst) {
        p.warnings.push(format!(
            "loops are not bounded by their instructions' issue time (rule 17): {e}; the estimate may be low for loops of several array statements"
        ));
    }
    p.check_finite()?;
    Ok(p)
}

impl Prediction {
    /// The `n` longest innermost loops: where each is, its time, the bound that sets it and
    /// what its operations alone would cost (issue 27's breakdown by bound).
    pub fn hot_loops(&self, n: usize) -> export::Table {
        let total = self.total.seconds();
        let mut t = export::Table::new(&[
            "Loop",
            "Unit",
            "Iterations",
            "Time (s)",
            "Share",
            "Bound",
            "Operations (s)",
        ])
        .right(&["Iterations", "Time (s)", "Share", "Operations (s)"]);
        for l in self.loops.iter().take(n) {
            let file = std::path::Path::new(&l.file)
                .file_name()
                .map_or(l.file.clone(), |f| f.to_string_lossy().into_owned());
            t.push(vec![
                format!("{file}:{}-{}", l.first_line, l.last_line),
                l.unit.clone(),
                format!("{:.3e}", l.iterations as f64),
                format!("{:.4}", l.time_s),
                if total > 0.0 {
                    format!("{:.0} %", 100.0 * l.time_s / total)
                } else {
                    String::new()
                },
                l.bound.describe().to_string(),
                format!("{:.4}", l.operations_s),
            ]);
        }
        t
    }

    /// An error naming the operations whose time is not finite, if the prediction has any
    /// non-finite number.
    pub fn check_finite(&self) -> Result<(), PredictError> {
        let Some(bad) = export::first_non_finite(self).ok().flatten() else {
            return Ok(());
        };
        let culprits: Vec<String> = std::iter::once(&self.total)
            .chain(&self.units)
            .chain(&self.regions)
            .flat_map(|part| &part.rows)
            .filter(|r| !r.time_s.is_finite() || !(r.std_dev_s * 1e9).powi(2).is_finite())
            .map(|r| format!("{} x {:e} executions", r.mnemonic, r.times_executed))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let detail = if culprits.is_empty() {
            format!("{} is {}", bad.path, bad.value)
        } else {
            format!("the time of {} overflows", culprits.join(", "))
        };
        Err(PredictError::NonFinite {
            program: self.program.clone(),
            detail,
        })
    }
}

/// A dynamic ProgramStats counted without the simulated branch predictor (rule 15) has its
/// branch misses guessed from each IF's kind, not simulated on the run's data: wherever IFs
/// depend on the data the estimate can be far off (a word-frequency count came out at a
/// third of its run time, a learnable pattern of random bits at four times it).
fn unsimulated_branches_warning(simulated: Option<bool>) -> Option<String> {
    let what = match simulated {
        Some(true) => return None,
        Some(false) => "these counts were taken without the simulated branch predictor (`analyze --no-branches`)",
        None => "this ProgramStats does not say whether its counting run simulated the branch predictor (it predates that record; `analyze --dynamic` did not before)",
    };
    Some(format!(
        "{what}: its branch misses (BMIS, rule 15) are guessed, not simulated on the run's data, and the estimate can be far off wherever IFs depend on the data; analyze again with `opcost analyze --dynamic --json` (the simulation is its default) or pass the .f file"
    ))
}

/// Predict a program's run time on a machine, with per-unit and per-region breakdowns. Loops
/// are bounded by their instructions' issue time only where `stats` has them (see
/// [`predict_program`]).
pub fn predict(stats: &ProgramStats, machine: &Characterization) -> Prediction {
    let dynamic = stats.total.dynamic_counts.is_some();
    let all_loops: Vec<&LoopStats> = stats.loops.iter().collect();
    let total = predict_part_with(
        &stats.program,
        part_counts(&stats.total),
        &all_loops,
        &blocks_outside_charged_loops(stats, |_| true),
        machine,
    );
    let mut warnings = Vec::new();
    if !dynamic {
        warnings.push(
            "these are static counts (each statement once): the estimate is not a run time; analyze with --dynamic or pass the .f file".to_string(),
        );
    } else if let Some(w) = unsimulated_branches_warning(stats.simulated_branches) {
        warnings.push(w);
    }
    if total.uncharacterized_fraction > 0.01 {
        let kinds: Vec<String> = total
            .uncharacterized
            .iter()
            .map(|(k, n)| format!("{k} ({n})"))
            .collect();
        warnings.push(format!(
            "{:.1} % of the operations have no parameter and cost nothing in the estimate: {}; the estimate is low by their real cost",
            100.0 * total.uncharacterized_fraction,
            kinds.join(", ")
        ));
    }
    if !total.missing.is_empty() {
        let names: Vec<String> = total.missing.iter().map(|p| p.to_string()).collect();
        warnings.push(format!(
            "the machine file has no value for {} ({:.1} % of the operations): they count as zero; `opcost characterize --resume <the machine file>` measures what it lacks and keeps the rest",
            names.join(", "),
            100.0 * total.missing_fraction,
        ));
    }
    if !machine.complete {
        warnings.push("the machine file is incomplete (an interrupted characterization): resume it for a full estimate".to_string());
    }
    Prediction {
        format: <Prediction as model::Versioned>::FORMAT.to_string(),
        format_version: <Prediction as model::Versioned>::VERSION,
        program: stats.program.clone(),
        source_sha256: stats.source_sha256.clone(),
        machine: machine.machine.cpu_model.clone(),
        compiler: format!(
            "{} {}",
            machine.compiler.path,
            machine.compiler.flags.join(" ")
        ),
        counts: if dynamic { "dynamic" } else { "static" }.to_string(),
        total,
        units: stats
            .units
            .iter()
            .map(|u| {
                let loops: Vec<&LoopStats> =
                    stats.loops.iter().filter(|l| l.unit == u.name).collect();
                let blocks = blocks_outside_charged_loops(stats, |b| b.unit == u.name);
                predict_part_with(&u.name, part_counts(u), &loops, &blocks, machine)
            })
            .collect(),
        regions: stats
            .regions
            .iter()
            .map(|r| {
                let loops: Vec<&LoopStats> = stats
                    .loops
                    .iter()
                    .filter(|l| l.regions.contains(&r.name))
                    .collect();
                let blocks = blocks_outside_charged_loops(stats, |b| {
                    r.spans
                        .iter()
                        .any(|s| b.lies_within(&s.file, s.first_line..=s.last_line))
                });
                predict_part_with(&r.name, part_counts(r), &loops, &blocks, machine)
            })
            .collect(),
        loops: loop_predictions(stats, machine),
        warnings,
    }
}

/// Each innermost loop with its iterations known, its time and the bound that sets it,
/// longest first. A loop's time includes the procedures it calls: their operations (in its
/// summed cost) and what their own loops' bounds add or save, its share of their calls.
fn loop_predictions(stats: &ProgramStats, machine: &Characterization) -> Vec<LoopPrediction> {
    let table = costs(machine);
    let hw = Hardware::of(machine);
    let charges: Vec<Option<LoopCharge>> = stats
        .loops
        .iter()
        .map(|l| charge_loop(l, &table, &hw))
        .collect();
    // What each unit's loops add to their operations' sum over the run, ns.
    let mut excess_of_unit: BTreeMap<&str, f64> = BTreeMap::new();
    for (l, c) in stats.loops.iter().zip(&charges) {
        if let Some(c) = c {
            *excess_of_unit.entry(l.unit.as_str()).or_default() += c.time_ns - c.summed_ns;
        }
    }
    let callees_excess = |l: &LoopStats| -> f64 {
        l.callees
            .iter()
            .map(|c| excess_of_unit.get(c.unit.as_str()).copied().unwrap_or(0.0) * c.fraction())
            .sum()
    };
    let mut out: Vec<LoopPrediction> = stats
        .loops
        .iter()
        .zip(charges)
        .filter_map(|(l, c)| {
            let c = c?;
            Some(LoopPrediction {
                unit: l.unit.clone(),
                file: l.file.clone(),
                first_line: l.first_line,
                last_line: l.last_line,
                iterations: l.iterations?,
                instructions: l.instructions,
                memory_instructions: l.memory_instructions,
                bound: c.bound,
                time_s: (c.time_ns + callees_excess(l)) * 1e-9,
                operations_s: c.summed_ns * 1e-9,
            })
        })
        .collect();
    out.sort_by(|a, b| b.time_s.total_cmp(&a.time_s));
    out
}

/// A prediction is exported as its JSON document, and as its breakdown (Saavedra-Barrera's figure 6.1):
/// one row per part (the program, each unit, each region; mnemonic TOTAL) and one per
/// operation of the part, in the CSV vocabulary of `export::columns`.
impl export::Export for Prediction {
    fn what(&self) -> String {
        format!("the prediction of {}", self.program)
    }

    fn table(&self) -> export::Table {
        use export::columns::{COUNT, DESCRIPTION, MNEMONIC, PART, PART_KIND};
        let mut t = export::Table::new(&[
            PART_KIND,
            PART,
            MNEMONIC,
            DESCRIPTION,
            COUNT,
            "count_fraction",
            "time_s",
            "time_fraction",
            "std_dev_s",
        ])
        .right(&[
            COUNT,
            "count_fraction",
            "time_s",
            "time_fraction",
            "std_dev_s",
        ]);
        let parts = std::iter::once(("program", &self.total))
            .chain(self.units.iter().map(|u| ("unit", u)))
            .chain(self.regions.iter().map(|r| ("region", r)));
        for (kind, part) in parts {
            t.push(vec![
                kind.into(),
                part.name.clone(),
                "TOTAL".into(),
                format!("predicted time of the {kind}"),
                String::new(),
                String::new(),
                format!("{:.6e}", part.seconds()),
                "1".into(),
                format!("{:.6e}", part.time.std_dev_ns * 1e-9),
            ]);
            for r in &part.rows {
                t.push(vec![
                    kind.into(),
                    part.name.clone(),
                    r.mnemonic.to_string(),
                    r.operation.clone(),
                    format!("{}", r.times_executed),
                    format!("{:.6}", r.count_fraction),
                    format!("{:.6e}", r.time_s),
                    format!("{:.6}", r.time_fraction),
                    format!("{:.6e}", r.std_dev_s),
                ]);
            }
        }
        t
    }

    /// The program's breakdown as a Markdown table (Saavedra-Barrera's figure 6.1), its units' times and
    /// the warnings.
    fn markdown(&self) -> String {
        let mut s = format!(
            "# Prediction: {} on {} ({})\n\nPredicted time: **{:.3} s** (90 % interval of the parameters' measurement error alone {:.3}-{:.3} s), {} counts.\n\n",
            self.program,
            self.machine,
            self.compiler,
            self.total.seconds(),
            self.total.time.ci_low_ns * 1e-9,
            self.total.time.ci_high_ns * 1e-9,
            self.counts
        );
        let mut rows = export::Table::new(&[
            "mnemonic",
            "description",
            "count",
            "count_fraction",
            "time_s",
            "time_fraction",
            "std_dev_s",
        ])
        .right(&[
            "count",
            "count_fraction",
            "time_s",
            "time_fraction",
            "std_dev_s",
        ]);
        for r in &self.total.rows {
            rows.push(vec![
                r.mnemonic.to_string(),
                r.operation.clone(),
                format!("{:.0}", r.times_executed),
                format!("{:.4}", r.count_fraction),
                format!("{:.4}", r.time_s),
                format!("{:.4}", r.time_fraction),
                format!("{:.2e}", r.std_dev_s),
            ]);
        }
        s.push_str(&rows.to_markdown());
        if !self.units.is_empty() {
            let mut units = export::Table::new(&["part", "time_s"]).right(&["time_s"]);
            for u in &self.units {
                units.push(vec![u.name.clone(), format!("{:.4}", u.seconds())]);
            }
            s.push('\n');
            s.push_str(&units.to_markdown());
        }
        if !self.loops.is_empty() {
            s.push_str("\nLongest innermost loops, with the bound that sets each one's time (a loop's time includes the procedures it calls):\n\n");
            s.push_str(&self.hot_loops(10).to_markdown());
        }
        for w in &self.warnings {
            s.push_str(&format!("\n> warning: {w}\n"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::characterization::{
        CompilerInfo, MachineInfo, ParameterResult, RunSettings, Statistic, TestKind,
    };

    fn machine(params: &[(Param, f64, f64)]) -> Characterization {
        let mut c = Characterization::new(
            MachineInfo {
                cpu_model: "test CPU".into(),
                cores: 2,
                os: String::new(),
                hostname: String::new(),
                arch: String::new(),
                ..Default::default()
            },
            CompilerInfo {
                path: "gfortran".into(),
                version: "12".into(),
                flags: vec!["-O0".into()],
            },
            "2026-01-01T00:00:00Z".into(),
            RunSettings {
                tmax_s: 0.04,
                repeat: 10,
                statistic: Statistic::Mean,
                quick: false,
                only: None,
                rounds: 1,
            },
        );
        c.complete = true;
        for &(p, v, se) in params {
            c.parameters.push(ParameterResult {
                mnemonic: p,
                number: p.def().number,
                estimate: Estimate {
                    mean_ns: v,
                    std_dev_ns: se,
                    ci_low_ns: v - 2.0 * se,
                    ci_high_ns: v + 2.0 * se,
                    observations: 10,
                },
                test_kind: TestKind::Direct,
                experiments: vec![],
                unmeasured: None,
            });
        }
        c
    }

    /// `src` written as `name` in a fresh directory and analyzed dynamically with `m`'s
    /// compiler: the directory, the file and the analysis; None (with a note) without
    /// gfortran.
    fn analyzed(
        name: &str,
        src: &str,
        m: &Characterization,
    ) -> Option<(tempfile::TempDir, std::path::PathBuf, analyzer::Analysis)> {
        if harness::Compiler::find(None, &[]).is_err() {
            eprintln!("skipping: gfortran is not installed");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(name);
        std::fs::write(&file, src).unwrap();
        let spec = crate::corpus::ProgramSpec::from_file(&file);
        let (_, a) =
            crate::validate::analyze_for(&spec, m, std::time::Duration::from_secs(60)).unwrap();
        Some((dir, file, a))
    }

    /// `src` analyzed with gfortran and its loops and blocks fitted to its build at `flags`
    /// on a machine whose INST is 0.1 ns (None, with a note, when gfortran is missing).
    fn fitted(name: &str, src: &str, flags: &[&str]) -> Option<(Characterization, ProgramStats)> {
        let mut m = machine(&[(Param::INST, 0.1, 0.0)]);
        let (_dir, _file, a) = analyzed(name, src, &m)?;
        let mut stats = a.stats;
        m.compiler.flags = flags.iter().map(|f| f.to_string()).collect();
        crate::issue::fit_to_build(&mut stats, &m).unwrap();
        Some((m, stats))
    }

    #[test]
    fn sum_of_counts_times_costs_with_variance() {
        let m = machine(&[(Param::ARSL, 0.5, 0.01), (Param::DRSL, 2.0, 0.1)]);
        let mut c = OpCounts::new();
        c.add(Param::ARSL, 1000);
        c.add(Param::DRSL, 100);
        let p = predict_counts("x", &c, &m);
        assert!((p.time.mean_ns - (500.0 + 200.0)).abs() < 1e-9);
        // sigma_T^2 = 1000^2 0.01^2 + 100^2 0.1^2 = 100 + 100
        assert!((p.time.std_dev_ns - 200f64.sqrt()).abs() < 1e-9);
        assert!(p.time.ci_low_ns < 700.0 && p.time.ci_high_ns > 700.0);
        let frac: f64 = p.rows.iter().map(|r| r.time_fraction).sum();
        assert!((frac - 1.0).abs() < 1e-12);
        assert_eq!(p.rows[0].mnemonic, Param::ARSL, "sorted by time");
        assert!((p.rows[0].count_fraction - 1000.0 / 1100.0).abs() < 1e-12);
    }

    #[test]
    fn missing_and_uncharacterized_are_reported_not_dropped() {
        let m = machine(&[(Param::ARSL, 0.5, 0.01)]);
        let mut c = OpCounts::new();
        c.add(Param::ARSL, 80);
        c.add(Param::SIND, 10);
        c.add_uncharacterized("I/O statement WRITE", 10);
        let p = predict_counts("x", &c, &m);
        assert_eq!(p.missing, vec![Param::SIND]);
        assert!((p.missing_fraction - 0.1).abs() < 1e-12);
        assert!((p.uncharacterized_fraction - 0.1).abs() < 1e-12);
        assert!((p.time.mean_ns - 40.0).abs() < 1e-12);
    }

    /// `S = S + X` for 100 iterations: an addition and a store each, and the recurrence
    /// through S (one QARS and one QTRS an iteration).
    fn sum_loop(instructions: Option<u64>) -> (OpCounts, LoopStats) {
        let mut body = OpCounts::new();
        body.add(Param::ARSL, 100);
        body.add(Param::SRSL, 100);
        let mut rec = OpCounts::new();
        rec.add(Param::QARS, 1);
        rec.add(Param::QTRS, 1);
        let l = LoopStats {
            unit: "U".into(),
            file: "u.f".into(),
            first_line: 1,
            last_line: 2,
            iterations: Some(100),
            body_counts: Some(body.clone()),
            recurrences: vec![rec],
            recurrence_spans: Vec::new(),
            restarted: Vec::new(),
            through_branch: Vec::new(),
            if_converted: Vec::new(),
            longest_chain: OpCounts::new(),
            regions: vec!["R".into()],
            instructions,
            memory_instructions: None,
            divider_instructions: None,
            consequent_runs: Vec::new(),
            traffic: None,
            entries_counted: None,
            trip_changes: None,
            callees: Vec::new(),
            instructions_include_callees: false,
            instructions_as_built: false,
            carried_chain_ns: None,
            iterations_per_pass: None,
            arithmetic_instructions: None,
        };
        (body, l)
    }

    #[test]
    fn a_loop_waits_for_its_recurrence_when_it_is_longer() {
        let m = machine(&[
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::QARS, 1.0, 0.0),
            (Param::QTRS, 3.0, 0.0),
        ]);
        // Throughput 1 ns an iteration, recurrence 4 ns.
        let (body, l) = sum_loop(None);
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 400.0).abs() < 1e-9, "{}", p.time.mean_ns);
        let wait: f64 = p
            .rows
            .iter()
            .filter(|r| r.operation.starts_with("wait"))
            .map(|r| r.time_s)
            .sum();
        assert!((wait * 1e9 - 300.0).abs() < 1e-6);
        // A recurrence shorter than the throughput cost adds nothing.
        let mut fast = l.clone();
        fast.body_counts = Some(body.scaled(10));
        let p = predict_part("U", &body.scaled(10), &[&fast], &m);
        assert!((p.time.mean_ns - 1000.0).abs() < 1e-9);
        // A recurrence that comes back after two iterations waits once every two: 200 ns.
        let mut every_other = l.clone();
        every_other.recurrence_spans = vec![2];
        let p = predict_part("U", &body, &[&every_other], &m);
        assert!((p.time.mean_ns - 200.0).abs() < 1e-9, "{}", p.time.mean_ns);
        let qtrs = p.rows.iter().find(|r| r.mnemonic == Param::QTRS).unwrap();
        assert_eq!(qtrs.times_executed, 50.0);
    }

    /// The costs, body and loop of [`sum_loop`] with 2000 instructions and 20 mispredicted
    /// IFs of 5 ns: 100 iterations, operations 1 ns each, 20 instructions (2 ns), recurrence
    /// 2.5 ns, the misses 100 ns over the run.
    fn loop_with_misses() -> ([(Param, f64, f64); 6], OpCounts, LoopStats) {
        let params = [
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::QARS, 1.0, 0.0),
            (Param::QTRS, 1.5, 0.0),
            (Param::BMIS, 5.0, 0.0),
            (Param::INST, 0.1, 0.0),
        ];
        let (mut body, mut l) = sum_loop(Some(2000));
        body.add(Param::BMIS, 20);
        l.body_counts = Some(body.clone());
        (params, body, l)
    }

    /// The costs, body and loop of [`sum_loop`] entered 10 times: 10 entries of 10
    /// iterations, 200 instructions an entry (200 ns issued), a chain of 8 ns an iteration
    /// (800 ns carried from entry to entry).
    fn entered_loop() -> ([(Param, f64, f64); 6], OpCounts, LoopStats) {
        let params = [
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::LOIN, 0.0, 0.0),
            (Param::QARS, 1.0, 0.0),
            (Param::QTRS, 7.0, 0.0),
            (Param::INST, 0.1, 0.0),
        ];
        let (mut body, mut l) = sum_loop(Some(2000));
        body.add(Param::LOIN, 10);
        l.body_counts = Some(body.clone());
        (params, body, l)
    }

    /// Rule 29b: ten entries of ten trips, two of them with a new trip count (rule 29's);
    /// on a host that foresees exits up to five trips the other eight miss theirs, one BMIS
    /// each on top of the loop's time; up to ten trips none. In an optimized build the limit
    /// is in passes of the machine loop (one iteration a pass misses as at -O0, two a pass,
    /// five passes an entry, do not), a loop without a machine loop has no exit, and the
    /// misses lengthen the issue time only: a loop its chain holds longer hides them.
    #[test]
    fn entries_longer_than_the_foreseen_loops_miss_their_exits() {
        let (params, body, mut l) = entered_loop();
        let with_limit = |m: &Characterization, limit: Option<u32>| {
            let mut m = m.clone();
            let mut report = xray_report();
            report.cpu.as_mut().unwrap().loop_exit_trips = limit;
            m.xray = Some(report);
            m
        };
        let o0 = machine(&[params.as_slice(), &[(Param::BMIS, 8.0, 0.0)]].concat());
        let time =
            |m: &Characterization, l: &LoopStats| predict_part("U", &body, &[l], m).time.mean_ns;
        let base = time(&with_limit(&o0, Some(5)), &l);
        l.trip_changes = Some(2);
        let missed = time(&with_limit(&o0, Some(5)), &l);
        assert!((missed - base - 64.0).abs() < 1e-9, "{base} -> {missed}");
        assert!((time(&with_limit(&o0, Some(10)), &l) - base).abs() < 1e-9);
        assert!((time(&with_limit(&o0, None), &l) - base).abs() < 1e-9);
        let o2 = with_limit(
            &optimized(&[params.as_slice(), &[(Param::BMIS, 8.0, 0.0)]].concat()),
            Some(5),
        );
        // The time beyond that of the same loop whose entries were not compared.
        let extra = |l: &LoopStats| {
            let mut unwatched = l.clone();
            unwatched.trip_changes = None;
            time(&o2, l) - time(&o2, &unwatched)
        };
        assert!(extra(&l).abs() < 1e-9, "no machine loop: {}", extra(&l));
        // The chain (8 ns an iteration, 800 ns) outlasts the issue (200 ns) and the misses.
        let mut built = l.clone();
        built.iterations_per_pass = Some(1);
        assert!(extra(&built).abs() < 1e-9, "chain-bound: {}", extra(&built));
        // Without the chain the loop issues for 200 ns, and the misses come on top.
        built.recurrences.clear();
        built.restarted.clear();
        for (per_pass, want) in [(1, 64.0), (2, 0.0)] {
            built.iterations_per_pass = Some(per_pass);
            assert!(
                (extra(&built) - want).abs() < 1e-9,
                "{per_pass}: {}",
                extra(&built)
            );
        }
    }

    /// `params` at -O2 (its IFs may be conditional moves).
    fn optimized(params: &[(Param, f64, f64)]) -> Characterization {
        let mut m = machine(params);
        m.compiler.flags = vec!["-O2".into()];
        m
    }

    #[test]
    fn branch_misses_add_to_the_recurrence_at_o0_and_to_a_machine_chain_when_optimized() {
        let (params, body, l) = loop_with_misses();
        // -O0: every IF is a branch, and a miss restarts the chain after it: 250 + 100 ns.
        let p = predict_part("U", &body, &[&l], &machine(&params));
        assert!((p.time.mean_ns - 350.0).abs() < 1e-9, "{}", p.time.mean_ns);
        let bmis: f64 = p
            .rows
            .iter()
            .filter(|r| r.mnemonic == Param::BMIS)
            .map(|r| r.time_s * 1e9)
            .sum();
        assert!(bmis > 99.0, "the misses are in the breakdown: {bmis}");
        // An optimizing build: the loop lasts the longer of its recurrence (250 ns) and its
        // issue plus misses (200 + 100 ns).
        let p = predict_part("U", &body, &[&l], &optimized(&params));
        assert!((p.time.mean_ns - 300.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // A machine loop that carries a longer chain than the source's (rule 31, 400 ns):
        // the misses come on top of it (rule 26 on the build's own chain).
        let mut built = l.clone();
        built.carried_chain_ns = Some(400.0);
        let p = predict_part("U", &body, &[&built], &optimized(&params));
        assert!((p.time.mean_ns - 500.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // A shorter one leaves the source's chain, which the misses overlap.
        built.carried_chain_ns = Some(100.0);
        let p = predict_part("U", &body, &[&built], &optimized(&params));
        assert!((p.time.mean_ns - 300.0).abs() < 1e-9, "{}", p.time.mean_ns);
    }

    #[test]
    fn a_machine_chain_over_links_of_almost_no_cost_keeps_their_errors() {
        // The source chain's links cost almost nothing (an optimized build emptied their
        // tests: 1e-6 ns, error 0.01 ns each) and the machine loop's chain lasts 400 ns: the
        // wait is scaled up to it, but the links' errors are not, or the interval would be
        // millions of times the prediction.
        let m = optimized(&[
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::QARS, 1e-6, 0.01),
            (Param::QTRS, 0.0, 0.01),
        ]);
        let (body, mut l) = sum_loop(None);
        l.carried_chain_ns = Some(400.0);
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 400.0).abs() < 1e-6, "{}", p.time.mean_ns);
        // At most the links' own errors: 100 x 0.01 ns each, in quadrature.
        let most = (2.0 * 1.0f64.powi(2)).sqrt();
        assert!(p.time.std_dev_ns <= most + 1e-9, "{}", p.time.std_dev_ns);
        assert!(
            p.time.ci_low_ns > 390.0 && p.time.ci_high_ns < 410.0,
            "{:?}",
            p.time
        );
    }

    #[test]
    fn a_miss_of_an_if_the_chain_passes_through_makes_its_link_again() {
        // The chain passes through the loop's IF: each miss makes its 2.5 ns link again at -O0.
        let (params, body, mut l) = loop_with_misses();
        l.through_branch = vec![true];
        let p = predict_part("U", &body, &[&l], &machine(&params));
        assert!((p.time.mean_ns - 400.0).abs() < 1e-9, "{}", p.time.mean_ns);
        let rows: f64 = p.rows.iter().map(|r| r.time_s * 1e9).sum();
        let sum = "the rows add up to the time";
        assert!((rows - 400.0).abs() < 1e-6, "{sum}: {rows}");
        // Optimized builds keep rule 26's old bound: 300 ns.
        let p = predict_part("U", &body, &[&l], &optimized(&params));
        assert!((p.time.mean_ns - 300.0).abs() < 1e-9, "{}", p.time.mean_ns);
    }

    #[test]
    fn a_loop_lasts_at_least_its_instructions_issue_time() {
        let m = machine(&[
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::QARS, 1.0, 0.0),
            (Param::QTRS, 1.5, 0.0),
            (Param::INST, 0.1, 0.01),
        ]);
        // Operations 1 ns an iteration, recurrence 2.5 ns, 30 instructions (3 ns): the issue
        // bound is the longest.
        let (body, mut l) = sum_loop(Some(3000));
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 300.0).abs() < 1e-9, "{}", p.time.mean_ns);
        let issue = p.rows.iter().find(|r| r.mnemonic == Param::INST).unwrap();
        assert_eq!(issue.times_executed, 3000.0);
        assert!((issue.time_s * 1e9 - 200.0).abs() < 1e-6);
        // The loop is charged by its instructions: INST's error, 3000 x 0.01 ns.
        assert!((issue.std_dev_s * 1e9 - 30.0).abs() < 1e-6);
        // Fewer instructions: the recurrence is the longer bound again.
        l.instructions = Some(1000);
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 250.0).abs() < 1e-9);
        assert!(p.rows.iter().all(|r| r.mnemonic != Param::INST));
        // A machine without INST (flang's, older files): no issue bound.
        let m = machine(&[(Param::ARSL, 0.5, 0.0), (Param::SRSL, 0.5, 0.0)]);
        l.instructions = Some(3000);
        l.recurrences.clear();
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 100.0).abs() < 1e-9);
    }

    #[test]
    fn a_loop_of_loads_and_stores_is_bound_by_its_memory_accesses() {
        let m = machine(&[
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::INST, 0.1, 0.0),
            (Param::MEMO, 0.3, 0.01),
        ]);
        // 3000 instructions (300 ns at INST), 1500 of them loads and stores (450 ns at MEMO):
        // the memory pipes bound the loop, charged by MEMO's rate and error.
        let (body, mut l) = sum_loop(Some(3000));
        l.recurrences.clear();
        l.memory_instructions = Some(1500);
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 450.0).abs() < 1e-9, "{}", p.time.mean_ns);
        let memo = p.rows.iter().find(|r| r.mnemonic == Param::MEMO).unwrap();
        assert_eq!(memo.times_executed, 1500.0);
        assert!((memo.std_dev_s * 1e9 - 15.0).abs() < 1e-6);
        assert!(p.rows.iter().all(|r| r.mnemonic != Param::INST));
        // Few memory accesses: the dispatch bound stands.
        l.memory_instructions = Some(500);
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 300.0).abs() < 1e-9, "{}", p.time.mean_ns);
        assert!(p.rows.iter().any(|r| r.mnemonic == Param::INST));
        // A machine without MEMO (older files): the instructions alone.
        let m = machine(&[
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::INST, 0.1, 0.0),
        ]);
        l.memory_instructions = Some(1500);
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 300.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // A machine without INST (its test optimized away): the memory accesses alone.
        let m = machine(&[
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::MEMO, 0.3, 0.0),
        ]);
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 450.0).abs() < 1e-9, "{}", p.time.mean_ns);
    }

    #[test]
    fn a_loop_with_a_long_chain_in_each_iteration_is_paced_by_the_window() {
        let with_window = |w: f64| {
            machine(&[
                (Param::ARSL, 0.5, 0.0),
                (Param::SRSL, 0.5, 0.0),
                (Param::QARS, 1.0, 0.0),
                (Param::QTRS, 1.5, 0.0),
                (Param::INST, 0.1, 0.0),
                (Param::WIND, w, 0.0),
            ])
        };
        // 100 iterations of 20 instructions (2 ns issued), no recurrence, a chain of 10 ns
        // inside each iteration: the window of 50 instructions holds 2.5 iterations, so the
        // loop lasts 10 / 2.5 = 4 ns an iteration.
        let (body, mut l) = sum_loop(Some(2000));
        l.recurrences.clear();
        l.longest_chain.add(Param::QARS, 4);
        l.longest_chain.add(Param::QTRS, 4);
        let p = predict_part("U", &body, &[&l], &with_window(50.0));
        assert!((p.time.mean_ns - 400.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // A wider window hides the chain: the issue bound stands.
        let p = predict_part("U", &body, &[&l], &with_window(200.0));
        assert!((p.time.mean_ns - 200.0).abs() < 1e-9, "{}", p.time.mean_ns);
    }

    #[test]
    fn a_chain_restarted_at_every_entry_shows_the_share_the_window_does_not_overlap() {
        let (params, body, mut l) = entered_loop();
        let m = machine(&[params.as_slice(), &[(Param::WIND, 200.0, 0.0)]].concat());
        assert_eq!(l.entries(), Some(10));
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 800.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // Set afresh before each entry, the chain shows 200 / (200 + 200) of its latency.
        l.restarted = vec![true];
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 400.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // Entries not known (a loop closed by GO TO): the whole chain.
        let mut unknown = l.clone();
        let mut no_entries = body.clone();
        no_entries.params.remove(&Param::LOIN);
        unknown.body_counts = Some(no_entries);
        assert_eq!(unknown.entries(), None);
        let p = predict_part("U", &body, &[&unknown], &m);
        assert!((p.time.mean_ns - 800.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // Closed by `IF (...) GO TO` on its last line, which jumped back 90 times of 100: 10
        // entries, the chain restarted as the DO loop's (rule 27, widened).
        let mut closed = unknown.clone();
        closed.consequent_runs = vec![(closed.last_line, 90)];
        assert_eq!(closed.entries(), Some(10));
        let p = predict_part("U", &body, &[&closed], &m);
        assert!((p.time.mean_ns - 400.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // An IF on another line does not close the loop.
        closed.consequent_runs = vec![(closed.first_line, 90)];
        assert_eq!(closed.entries(), None);
    }

    /// Rule 27 at optimizing flags: the compiler empties WIND's test, and a restarted chain
    /// overlaps as far as X-Ray's out-of-order window reaches; without it, the whole chain.
    #[test]
    fn an_optimized_build_overlaps_restarted_chains_by_xrays_window() {
        let (params, body, mut l) = entered_loop();
        let m = optimized(&params);
        l.restarted = vec![true];
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 800.0).abs() < 1e-9, "{}", p.time.mean_ns);
        let mut with_xray = m.clone();
        let mut report = xray_report();
        report.cpu.as_mut().unwrap().window_instructions = Some(300);
        with_xray.xray = Some(report);
        // 200 / (200 + 300) of the chain's 800 ns (more than the 200 ns of its issue).
        let p = predict_part("U", &body, &[&l], &with_xray);
        assert!((p.time.mean_ns - 320.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // A characterized WIND (an -O0 machine) is the window, not X-Ray's.
        let mut o0 = with_xray.clone();
        o0.compiler.flags = vec!["-O0".into()];
        o0.parameters.push(ParameterResult {
            mnemonic: Param::WIND,
            number: Param::WIND.def().number,
            estimate: Estimate {
                mean_ns: 200.0,
                std_dev_ns: 0.0,
                ci_low_ns: 200.0,
                ci_high_ns: 200.0,
                observations: 10,
            },
            test_kind: TestKind::Direct,
            experiments: vec![],
            unmeasured: None,
        });
        let p = predict_part("U", &body, &[&l], &o0);
        assert!((p.time.mean_ns - 400.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // WIND kept as unmeasured (its test emptied: 0 instructions in flight) is no window:
        // X-Ray's stands.
        let mut emptied = with_xray.clone();
        let mut wind = o0.parameters.last().unwrap().clone();
        wind.estimate.mean_ns = 0.0;
        wind.unmeasured = Some("the compiler emitted no instruction for its test".into());
        emptied.parameters.push(wind);
        let p = predict_part("U", &body, &[&l], &emptied);
        assert!((p.time.mean_ns - 320.0).abs() < 1e-9, "{}", p.time.mean_ns);
    }

    #[test]
    fn a_loop_that_issues_faster_than_its_summed_operations_is_charged_its_issue() {
        let m = machine(&[
            (Param::ARSL, 0.5, 0.0),
            (Param::SRSL, 0.5, 0.0),
            (Param::DRSL, 2.0, 0.0),
            (Param::BMIS, 5.0, 0.0),
            (Param::CSTA, 1.2, 0.0),
            (Param::PROC, 3.0, 0.0),
            (Param::INST, 0.1, 0.0),
        ]);
        // Operations 1 ns an iteration, 5 instructions (0.5 ns), no recurrence: 50 ns, the
        // overlap a negative row.
        let (body, mut l) = sum_loop(Some(500));
        l.recurrences.clear();
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 50.0).abs() < 1e-9, "{}", p.time.mean_ns);
        let overlap = p.rows.iter().find(|r| r.mnemonic == Param::INST).unwrap();
        assert!((overlap.time_s * 1e9 + 50.0).abs() < 1e-6);
        assert!(
            overlap.operation.starts_with("overlap"),
            "{}",
            overlap.operation
        );
        let fractions: f64 = p.rows.iter().map(|r| r.time_fraction).sum();
        assert!((fractions - 1.0).abs() < 1e-9);
        // A division keeps its unit busy (200 ns in all, more than the issue) and a branch
        // miss adds to it (50 ns): max(50, 200) + 50.
        let mut busy = body.clone();
        busy.add(Param::DRSL, 100);
        busy.add(Param::BMIS, 10);
        l.body_counts = Some(busy.clone());
        let p = predict_part("U", &busy, &[&l], &m);
        assert!((p.time.mean_ns - 250.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // A constant streamed into a large array (rule 18) adds to the issue like a miss:
        // 50 ns issued + 100 x 1.2 ns.
        let mut stream = body.clone();
        stream.add(Param::CSTA, 100);
        l.body_counts = Some(stream.clone());
        let p = predict_part("U", &stream, &[&l], &m);
        assert!((p.time.mean_ns - 170.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // A loop that calls a procedure keeps its summed cost (the callee's instructions are
        // not the loop's).
        let mut calling = body.clone();
        calling.add(Param::PROC, 100);
        l.body_counts = Some(calling.clone());
        let p = predict_part("U", &calling, &[&l], &m);
        assert!((p.time.mean_ns - 400.0).abs() < 1e-9, "{}", p.time.mean_ns);
        // Fewer instructions than iterations (the loop's lines not found in the assembly):
        // the operations' sum stands, no refund.
        l.body_counts = Some(body.clone());
        l.instructions = Some(0);
        let p = predict_part("U", &body, &[&l], &m);
        assert!((p.time.mean_ns - 100.0).abs() < 1e-9, "{}", p.time.mean_ns);
    }

    #[test]
    fn a_logical_ifs_consequent_counts_as_often_as_it_ran_in_a_real_loop() {
        let m = machine(&[(Param::INST, 0.1, 0.0)]);
        if harness::Compiler::find(None, &[]).is_err() {
            eprintln!("skipping: gfortran is not installed");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("quarter.f");
        std::fs::write(
            &file,
            "      PROGRAM Q\n      INTEGER I, K\n      K = 0\n      DO 10 I = 1, 100\n         IF (MOD(I, 4) .EQ. 0) K = K + 1\n   10 CONTINUE\n      PRINT *, K\n      END\n",
        )
        .unwrap();
        let spec = crate::corpus::ProgramSpec::from_file(&file);
        let (compiler, a) =
            crate::validate::analyze_for(&spec, &m, std::time::Duration::from_secs(60)).unwrap();
        let instructions = |mut stats: ProgramStats| {
            crate::issue::fit_to_build(&mut stats, &m).unwrap();
            stats.loops[0].instructions.unwrap()
        };
        let weighted = instructions(a.stats.clone());
        let mut whole = a.stats.clone();
        whole.loops[0].consequent_runs.clear();
        let unweighted = instructions(whole);
        // The consequent `K = K + 1` ran 25 times of 100: its instructions count 75 times less.
        let after = compiler
            .line_instructions(&file, dir.path())
            .unwrap()
            .after_branch_at("quarter.f", 5);
        assert!(after >= 2, "{after}");
        assert_eq!(unweighted - weighted, after * 75);
    }

    /// Rule 17 for an optimized build: a vectorized loop's instructions are its vector body's
    /// passes, each covering several source iterations, not its lines' copies per iteration.
    #[test]
    fn an_optimized_loops_instructions_come_from_its_vector_body() {
        let mut m = machine(&[(Param::INST, 0.1, 0.0), (Param::MEMO, 0.2, 0.0)]);
        let Some((dir, file, a)) = analyzed("saxpy.f", "      PROGRAM S\n      REAL X(1000), Y(1000), A\n      INTEGER I\n      A = 2.0\n      DO 5 I = 1, 1000\n         X(I) = I\n         Y(I) = 1.0\n    5 CONTINUE\n      DO 10 I = 1, 1000\n         Y(I) = Y(I) + A * X(I)\n   10 CONTINUE\n      PRINT *, Y(7)\n      END\n", &m) else {
            return;
        };
        let mut stats = a.stats.clone();
        m.compiler.flags = vec!["-O3".into()];
        crate::issue::fit_to_build(&mut stats, &m).unwrap();
        let saxpy = stats.loops.iter().find(|l| l.first_line == 9).unwrap();
        let compiler = harness::Compiler::find(None, &["-O3".to_string()]).unwrap();
        let loops = compiler.machine_loops(&file, dir.path()).unwrap();
        let body = harness::loops_of_source_loop(&loops, "saxpy.f", 9..=11)
            .into_iter()
            .max_by_key(|m| m.step.map_or(0, i64::unsigned_abs))
            .expect("a machine loop for the SAXPY");
        // 4-byte elements, a 16-byte (or wider) step: 1000 iterations in 250 passes or fewer.
        let per_pass = body.iterations_per_pass(&[4]).unwrap();
        assert!(per_pass >= 4, "{body:?}");
        let passes = 1000u64.div_ceil(per_pass);
        assert_eq!(saxpy.instructions, Some(passes * body.pass.instructions));
        assert_eq!(
            saxpy.memory_instructions,
            Some(passes * (body.pass.loads + body.pass.stores))
        );
        // Fewer instructions than iterations times the -O0 statement's dozen.
        assert!(saxpy.instructions.unwrap() < 1000 * 4, "{saxpy:?}");
        // Rule 29b counts the exit by passes.
        assert_eq!(saxpy.iterations_per_pass, Some(per_pass));
        // Rule 17c: its arithmetic instructions, by passes too.
        assert_eq!(
            saxpy.arithmetic_instructions,
            Some(passes * body.pass.arithmetic())
        );
        assert!(body.pass.arithmetic() > 0, "{body:?}");
    }

    /// Rule 17c: a -O2 loop of integer arithmetic issues no faster than its arithmetic
    /// instructions at X-Ray's arithmetic rate; a machine whose X-Ray lacks the rate bounds
    /// it by INST alone, and at -O0 no loop has the count.
    #[test]
    fn an_optimized_loop_of_arithmetic_issues_at_the_arithmetic_ports_rate() {
        let source = "      PROGRAM A\n      INTEGER I, K1, K2, K3\n      K1 = 1\n      K2 = 2\n      K3 = 3\n      DO 10 I = 1, 100000\n         K1 = IEOR(K1 + I, 5)\n         K2 = IEOR(K2 + K1, 7)\n         K3 = IAND(K3 + K2, 1023)\n   10 CONTINUE\n      PRINT *, K1, K2, K3\n      END\n";
        let Some((mut m, stats)) = fitted("arith.f", source, &["-O2"]) else {
            return;
        };
        let l = stats.loops.iter().find(|l| l.first_line == 6).unwrap();
        let arithmetic = l.arithmetic_instructions.expect("a machine loop") as f64;
        assert!(arithmetic >= 100000.0 * 6.0, "{l:?}");
        assert!(arithmetic <= l.instructions.unwrap() as f64, "{l:?}");
        let charged = |m: &Characterization| {
            predict(&stats, m)
                .loops
                .into_iter()
                .find(|p| p.first_line == 6)
                .unwrap()
        };
        let time = |m: &Characterization| charged(m).time_s;
        // 1 GHz; no row: INST's 0.1 ns an instruction.
        let mut report = xray_report();
        m.xray = Some(report.clone());
        let by_inst = time(&m);
        assert!(by_inst < arithmetic * 0.5e-9, "{by_inst}");
        // Half a cycle an arithmetic instruction.
        report.cpu.as_mut().unwrap().instructions.push(
            serde_json::from_value(serde_json::json!({"name": ARITHMETIC_ROW,
                "latency_cycles": null, "throughput_cycles": 0.5}))
            .unwrap(),
        );
        m.xray = Some(report);
        let by_ports = time(&m);
        assert!(by_ports >= arithmetic * 0.5e-9 * 0.999, "{by_ports} {l:?}");
        assert_eq!(charged(&m).bound, LoopBound::ArithmeticPorts);
        assert!(predict(&stats, &m)
            .hot_loops(5)
            .to_text()
            .contains("arithmetic ports"));
        let (_, o0) = fitted("arith0.f", source, &["-O0"]).unwrap();
        assert!(o0.loops.iter().all(|l| l.arithmetic_instructions.is_none()));
    }

    /// Rule 17 for optimized builds: a vector body that covers eight source iterations in a
    /// pass of four instructions runs fewer instructions than iterations, yet its lines were
    /// found: the loop is charged by them, and its line is not charged again as straight-line
    /// code (rule 22) at its one copy's instructions an iteration.
    #[test]
    fn a_vector_loop_of_fewer_instructions_than_iterations_is_charged_by_them_once() {
        let source = "      PROGRAM V\n      INTEGER*2 K(4000)\n      INTEGER I, J, S\n      S = 0\n      DO 20 J = 1, 100\n         DO 10 I = 1, 4000\n            K(I) = 3\n   10    CONTINUE\n         S = S + K(J)\n   20 CONTINUE\n      PRINT *, S\n      END\n";
        let Some((m, stats)) = fitted("v2.f", source, &["-O3"]) else {
            return;
        };
        let l = stats.loops.iter().find(|l| l.first_line == 6).unwrap();
        assert!(l.instructions_as_built, "{l:?}");
        assert!(l.instructions < l.iterations, "{l:?}");
        assert!(l.charged_by_instructions(), "{l:?}");
        let store = stats.blocks.iter().find(|b| b.first_line == 7).unwrap();
        assert_eq!(store.instructions, None, "{store:?}");
        // The whole prediction issues no more than the vector loop's instructions and the
        // outer loop's few a pass.
        let p = predict(&stats, &m);
        let issued: f64 = p
            .total
            .rows
            .iter()
            .filter(|r| r.mnemonic == Param::INST)
            .map(|r| r.times_executed)
            .sum();
        let bound = l.instructions.unwrap() as f64 + 100.0 * 20.0;
        assert!(issued <= bound, "{issued} > {bound}");
    }

    /// Rule 17 for optimized builds: gfortran -O2 replaces a copy loop by `memmove` (its
    /// inlined copy's call runs in the caller's loop, most of whose instructions lie on the
    /// copy's line): the copy loop has no machine loop of its own, runs its lines once an
    /// entry and is charged by them, and its iterations by the memory bound.
    #[test]
    fn a_loop_replaced_by_a_library_copy_runs_its_lines_once_an_entry() {
        let source = "      PROGRAM CP\n      REAL A(1000), B(1000)\n      COMMON /V/ A, B\n      INTEGER I, K\n      DO 5 I = 1, 1000\n         B(I) = I\n    5 CONTINUE\n      DO 20 K = 501, 1000\n         CALL VCOPY(K)\n   20 CONTINUE\n      PRINT *, A(17)\n      END\n      SUBROUTINE VCOPY(L)\n      INTEGER L, I\n      REAL A(1000), B(1000)\n      COMMON /V/ A, B\n      DO 10 I = 1, L\n         A(I) = B(I)\n   10 CONTINUE\n      END\n";
        let Some((_, stats)) = fitted("cp.f", source, &["-O2"]) else {
            return;
        };
        let l = stats.loops.iter().find(|l| l.first_line == 17).unwrap();
        let entries = 500;
        assert_eq!(l.iterations, Some((501..=1000).sum::<u64>()));
        assert!(l.instructions_as_built, "{l:?}");
        assert!(l.charged_by_instructions(), "{l:?}");
        // A few instructions an entry (the call), not eight an iteration.
        let per_entry = l.instructions.unwrap() / entries;
        assert!(per_entry > 0 && per_entry < 20, "{l:?}");
        // The loop control went with the loop, and with it the exit rule 29b charges.
        let body = l.body_counts.as_ref().unwrap();
        assert_eq!(body.get(Param::LOOV) + body.get(Param::LOIN), 0, "{body:?}");
        assert_eq!(l.iterations_per_pass, None, "{l:?}");
    }

    /// Rule 20: a small subroutine called in a loop is inlined at -O2, where its call and
    /// argument loads leave the counts, the loop's own among them (its machine loop kept no
    /// call: charged by its instructions, rule 17); at -O0 they stay, and the callee's work
    /// stays at both.
    #[test]
    fn calls_the_optimizer_inlined_cost_no_call() {
        let mut m = machine(&[(Param::INST, 0.1, 0.0), (Param::PROC, 5.0, 0.0)]);
        let Some((_dir, _file, a)) = analyzed("inl.f", "      PROGRAM P\n      REAL S\n      INTEGER I\n      S = 0.0\n      DO 10 I = 1, 1000\n         CALL ADDTO(S, 0.5)\n   10 CONTINUE\n      PRINT *, S\n      END\n      SUBROUTINE ADDTO(S, X)\n      REAL S, X\n      S = S + X\n      END\n", &m) else {
            return;
        };
        let counted =
            |stats: &ProgramStats, p: Param| stats.total.dynamic_counts.as_ref().unwrap().get(p);
        assert_eq!(counted(&a.stats, Param::PROC), 1000);
        let adds = counted(&a.stats, Param::ARSL);
        for (flags, calls) in [("-O0", 1000), ("-O2", 0)] {
            let mut stats = a.stats.clone();
            m.compiler.flags = vec![flags.into()];
            crate::issue::fit_to_build(&mut stats, &m).unwrap();
            assert_eq!(counted(&stats, Param::PROC), calls, "{flags}");
            assert_eq!(counted(&stats, Param::AGRS) > 0, calls > 0, "{flags}");
            assert_eq!(counted(&stats, Param::ARSL), adds, "{flags}");
            let unit = stats.units.iter().find(|u| u.name == "P").unwrap();
            assert_eq!(
                unit.dynamic_counts.as_ref().unwrap().get(Param::PROC),
                calls
            );
            let l = stats.loops.iter().find(|l| l.first_line == 5).unwrap();
            let body = l.body_counts.as_ref().unwrap();
            assert_eq!(body.get(Param::PROC), calls, "{flags}");
            assert_eq!(body.get(Param::ARSL), adds, "{flags}");
            assert!(l.charged_by_instructions(), "{flags}: {l:?}");
        }
    }

    /// Rule 20: a callee with a loop of its own, inlined at -O2, runs that loop nested in the
    /// caller's; the caller's one innermost machine loop is the path that skips the callee's
    /// loop (a trip count below one: test, jump, count, jump back). Taken for the caller's
    /// body, it charged 4 instructions an iteration beside the summed callee's work and made
    /// the caller's unit negative (alamos's main at -O2). The caller's loop stays summed, and
    /// no unit is negative.
    #[test]
    fn a_loop_around_an_inlined_callees_loop_is_not_its_bypass() {
        let source = "      PROGRAM NL\n      REAL A(100), B(100)\n      COMMON /V/ A, B\n      INTEGER LENS(3), IL, IP, L\n      DATA LENS /10, 50, 100/\n      DO 5 IP = 1, 100\n         B(IP) = IP\n    5 CONTINUE\n      DO 30 IL = 1, 3\n         L = LENS(IL)\n         DO 20 IP = 1, 2000\n            CALL VADD(L)\n   20    CONTINUE\n   30 CONTINUE\n      PRINT *, A(1), A(100)\n      END\n      SUBROUTINE VADD(L)\n      INTEGER L, I\n      REAL A(100), B(100)\n      COMMON /V/ A, B\n      DO 10 I = 1, L\n         A(I) = A(I) + B(I)\n   10 CONTINUE\n      END\n";
        let mut m = machine(&[
            (Param::INST, 0.1, 0.0),
            (Param::ARSG, 0.5, 0.0),
            (Param::LOOV, 0.3, 0.0),
            (Param::PROC, 5.0, 0.0),
        ]);
        let Some((_dir, _file, a)) = analyzed("nl.f", source, &m) else {
            return;
        };
        let mut stats = a.stats;
        m.compiler.flags = vec!["-O2".into()];
        crate::issue::fit_to_build(&mut stats, &m).unwrap();
        let caller = stats.loops.iter().find(|l| l.first_line == 11).unwrap();
        assert_eq!(caller.iterations, Some(3 * 2000));
        assert!(!caller.instructions_as_built, "{caller:?}");
        assert!(!caller.charged_by_instructions(), "{caller:?}");
        let callee = stats.loops.iter().find(|l| l.first_line == 21).unwrap();
        assert!(callee.charged_by_instructions(), "{callee:?}");
        let prediction = predict(&stats, &m);
        for u in &prediction.units {
            assert!(u.time.mean_ns >= 0.0, "{}: {:?}", u.name, u.time);
        }
    }

    /// Rule 17 for optimized builds: gfortran -O3 unrolls a DO loop of 14 trips completely
    /// into the loop around it; the machine loop that holds the copies runs once an entry of
    /// the inner loop, not once an iteration, so the inner loop's instructions are its one
    /// copy per entry (at most the machine loop's instructions per entry), not the machine
    /// loop's instructions per iteration.
    #[test]
    fn a_loop_unrolled_into_the_loop_around_it_runs_once_an_entry() {
        let source = "      PROGRAM U\n      INTEGER W(14), MASK, M, WS, I, IBEST\n      COMMON /C/ W\n      DO 5 I = 1, 14\n         W(I) = 3 * I + 1\n    5 CONTINUE\n      IBEST = 0\n      DO 60 MASK = 0, 2**14 - 1\n         M = MASK\n         WS = 0\n         DO 50 I = 1, 14\n            IF (MOD(M, 2) .EQ. 1) WS = WS + W(I)\n            M = M / 2\n   50    CONTINUE\n         IF (WS .LE. 150) IBEST = MAX(IBEST, WS)\n   60 CONTINUE\n      PRINT *, IBEST\n      END\n";
        let Some((_, stats)) = fitted("unr.f", source, &["-O3"]) else {
            return;
        };
        let l = stats.loops.iter().find(|l| l.first_line == 11).unwrap();
        let entries = 1u64 << 14;
        assert_eq!(l.iterations, Some(14 * entries));
        // One copy of 14 unrolled iterations: a few instructions each, per entry. Charged
        // as a loop of its own, every iteration would run the whole unrolled body.
        let per_entry = l.instructions.unwrap() as f64 / entries as f64;
        assert!(per_entry > 14.0 && per_entry < 14.0 * 15.0, "{l:?}");
    }

    /// A callee's short loop inlined into its caller's loop and unrolled there (whetstone's
    /// PA at -O3): the caller's jump closes the machine loop, whose passes are the callee
    /// loop's entries, so it is not that loop's body (nor its chain's, rule 31).
    #[test]
    fn a_callees_loop_unrolled_into_its_callers_loop_runs_once_an_entry() {
        let source = "      PROGRAM PC\n      REAL E(4)\n      INTEGER I\n      E(1) = 1.0\n      E(2) = -1.0\n      E(3) = -1.0\n      E(4) = -1.0\n      DO 30 I = 1, 20000\n         CALL PA(E)\n   30 CONTINUE\n      PRINT *, E\n      END\n      SUBROUTINE PA(E)\n      REAL E(4)\n      INTEGER M\n      DO 10 M = 1, 6\n         E(1) = (E(1) + E(2) + E(3) - E(4)) * 0.499975\n         E(2) = (E(1) + E(2) - E(3) + E(4)) * 0.499975\n         E(3) = (E(1) - E(2) + E(3) + E(4)) * 0.499975\n         E(4) = (-E(1) + E(2) + E(3) + E(4)) / 2.0\n   10 CONTINUE\n      END\n";
        let Some((_, stats)) = fitted("pc.f", source, &["-O3"]) else {
            return;
        };
        let l = stats.loops.iter().find(|l| l.first_line == 16).unwrap();
        assert_eq!(l.iterations, Some(6 * 20000));
        assert!(l.carried_chain_ns.is_none(), "{l:?}");
        // One unrolled copy an entry, not the whole copy every iteration.
        let per_entry = l.instructions.unwrap() as f64 / 20000.0;
        assert!(per_entry < 6.0 * 40.0, "{per_entry} instructions an entry");
    }

    /// Rule 17 for optimized builds: LLVM unrolls a loop completely by its size, not by GCC's
    /// 16 trips: gfortran told to peel up to 32 unrolls a 24-trip continued fraction into the
    /// loop around it. The copy holds an instruction an iteration at least, so the machine
    /// loop is the enclosing one and the inner loop runs one copy an entry.
    #[test]
    fn a_loop_unrolled_completely_beyond_sixteen_trips_runs_once_an_entry() {
        let source = "      PROGRAM UR\n      DOUBLE PRECISION X, X2, T, S\n      INTEGER I, K\n      S = 0.0D0\n      DO 50 I = 1, 20000\n         X = 1.0D-4 * I\n         X2 = X * X\n         T = 49.0D0\n         DO 40 K = 24, 1, -1\n            T = DBLE(2 * K - 1) - X2 / T\n   40    CONTINUE\n         S = S + X / T\n   50 CONTINUE\n      PRINT *, S\n      END\n";
        let Some((_, stats)) = fitted(
            "ur.f",
            source,
            &["-O3", "--param=max-completely-peel-times=32"],
        ) else {
            return;
        };
        let l = stats.loops.iter().find(|l| l.first_line == 9).unwrap();
        let entries = 20000;
        assert_eq!(l.iterations, Some(24 * entries));
        assert!(l.instructions_as_built, "{l:?}");
        // One copy of 24 unrolled iterations an entry (a division, a subtraction and a move
        // or so each), not the enclosing loop's instructions at every iteration.
        let per_entry = l.instructions.unwrap() / entries;
        assert!((24..24 * 8).contains(&per_entry), "{l:?}");
    }

    /// Rule 17 for optimized builds: gfortran -O3 vectorizes a 66-trip loop and unrolls it
    /// into one pass of the loop around it, whose addresses step by two amounts (no one
    /// step); the pass covers the iterations its packed arithmetic does, so the inner loop
    /// runs a few instructions an iteration, not the whole pass at each.
    #[test]
    fn a_vector_pass_without_a_recognized_step_covers_its_packed_arithmetic() {
        let source = "      PROGRAM HX\n      INTEGER N\n      PARAMETER (N = 64)\n      REAL U(0:N+1,0:N+1), V(0:N+1,0:N+1), S1(0:N+1), S2(0:N+1)\n      INTEGER I, J, IREP\n      DO 5 I = 0, N + 1\n         S1(I) = SIN(0.1 * I)\n         S2(I) = COS(0.1 * I)\n    5 CONTINUE\n      DO 30 IREP = 1, 300\n         DO 21 J = 0, N + 1\n            DO 20 I = 0, N + 1\n               U(I, J) = S1(I) * S1(J) * S2(IREP / 10)\n     &                 + 0.5 * S2(I) * S1(J)\n               V(I, J) = U(I, J)\n   20       CONTINUE\n   21    CONTINUE\n         S1(IREP / 5) = V(3, IREP / 5)\n   30 CONTINUE\n      PRINT *, V(7, 9), U(5, 6)\n      END\n";
        let Some((_, stats)) = fitted("hx.f", source, &["-O3"]) else {
            return;
        };
        let l = stats.loops.iter().find(|l| l.first_line == 12).unwrap();
        assert_eq!(l.iterations, Some(300 * 66 * 66));
        let per_iteration = l.instructions.unwrap() as f64 / l.iterations.unwrap() as f64;
        assert!(per_iteration < 10.0, "{per_iteration}: {l:?}");
    }

    /// Rule 20 for optimized builds: gfortran -O2 inlines a small function into the loop that
    /// calls it; most of the machine loop's instructions lie on the function's lines, and it
    /// is still the loop's: charged by its instructions, the call gone.
    #[test]
    fn a_loop_whose_callee_was_inlined_runs_the_machine_loop_holding_it() {
        let source = "      PROGRAM IC\n      DOUBLE PRECISION S, F\n      INTEGER I\n      S = 0.0D0\n      DO 10 I = 1, 100000\n         S = S + F(I)\n   10 CONTINUE\n      PRINT *, S\n      END\n      DOUBLE PRECISION FUNCTION F(I)\n      INTEGER I\n      DOUBLE PRECISION X\n      X = DBLE(I) * 1.5D0\n      F = X * X + 3.0D0 * X - 1.0D0 / (X + 1.0D0)\n      END\n";
        let Some((_, stats)) = fitted("ic.f", source, &["-O2"]) else {
            return;
        };
        let l = stats.loops.iter().find(|l| l.first_line == 5).unwrap();
        assert!(l.instructions_as_built, "{l:?}");
        assert!(l.charged_by_instructions(), "{l:?}");
        assert_eq!(l.body_counts.as_ref().unwrap().get(Param::PROC), 0);
        // The division of the inlined function is the loop's.
        let divider = l.divider_instructions.as_ref().unwrap();
        assert_eq!(divider.double_divide.scalar, 100000, "{l:?}");
    }

    /// Rule 20, widened: gfortran -O2 computes a SIN and a COS of one argument with one
    /// `sincos` call, which costs about one sine: the program's and the loop's SIND count one
    /// a pair at -O2 (GCC puts this call on the DO line), two at -O0.
    #[test]
    fn a_sine_and_cosine_joined_into_sincos_cost_one_sine() {
        let mut m = machine(&[(Param::INST, 0.1, 0.0), (Param::SIND, 10.0, 0.0)]);
        let Some((_dir, _file, a)) = analyzed("sc.f", "      PROGRAM SC\n      DOUBLE PRECISION X, S, C, T\n      INTEGER I\n      T = 0.0D0\n      DO 10 I = 1, 1000\n         X = 1.0D-3 * I\n         S = SIN(X)\n         C = COS(X)\n         T = T + S * C\n   10 CONTINUE\n      PRINT *, T\n      END\n", &m) else {
            return;
        };
        let sines = |stats: &ProgramStats| {
            stats
                .total
                .dynamic_counts
                .as_ref()
                .unwrap()
                .get(Param::SIND)
        };
        assert_eq!(sines(&a.stats), 2000);
        for (flags, charged) in [("-O0", 2000), ("-O2", 1000)] {
            let mut stats = a.stats.clone();
            m.compiler.flags = vec![flags.into()];
            crate::issue::fit_to_build(&mut stats, &m).unwrap();
            assert_eq!(sines(&stats), charged, "{flags}");
            let l = stats.loops.iter().find(|l| l.first_line == 5).unwrap();
            let body = l.body_counts.as_ref().unwrap();
            assert_eq!(body.get(Param::SIND), charged, "{flags}");
        }
    }

    /// Each loop's row names the bound that set its time: a sum's recurrence, a streaming
    /// update's instruction issue, a loop of few operations its operations' sum.
    #[test]
    fn each_loop_is_reported_with_the_bound_that_sets_its_time() {
        let m = machine(&[
            (Param::ARSL, 1.0, 0.0),
            (Param::SRSL, 0.0, 0.0),
            (Param::QARS, 4.0, 0.0),
            (Param::QTRS, 0.0, 0.0),
            (Param::INST, 0.1, 0.0),
        ]);
        let (counts, l) = sum_loop(None);
        let mut stats = ProgramStats::of_counts("p", counts);
        stats.loops = vec![l.clone()];
        let p = predict(&stats, &m);
        assert_eq!(p.loops.len(), 1);
        assert_eq!(p.loops[0].bound, LoopBound::Recurrence);
        assert!(
            (p.loops[0].time_s - 400e-9).abs() < 1e-12,
            "{:?}",
            p.loops[0]
        );
        assert!((p.loops[0].operations_s - 100e-9).abs() < 1e-12);
        // No recurrence, 50 instructions an iteration: 5 ns an iteration issued.
        let mut issued = l.clone();
        issued.recurrences.clear();
        issued.instructions = Some(5000);
        stats.loops = vec![issued.clone()];
        let p = predict(&stats, &m);
        assert_eq!(p.loops[0].bound, LoopBound::Issue);
        assert!((p.loops[0].time_s - 500e-9).abs() < 1e-12);
        // Few instructions and no recurrence: the operations' sum stands.
        issued.instructions = None;
        stats.loops = vec![issued];
        let p = predict(&stats, &m);
        assert_eq!(p.loops[0].bound, LoopBound::Operations);
        assert!(p.hot_loops(5).to_text().contains("operations' sum"));
    }

    /// An X-Ray report of a 1 GHz CPU whose divider takes 4 cycles a scalar division and 8 a
    /// packed one, with a 32 KiB L1 at 64 B/ns and memory at 8 B/ns.
    fn xray_report() -> model::hardware::HardwareReport {
        let row = |name: &str, thr: f64, bits: Option<u32>| {
            serde_json::json!({"name": name, "latency_cycles": null,
                "throughput_cycles": thr, "vector_bits": bits})
        };
        let bw = |level: Option<u8>, fp: u64, rate: f64| {
            serde_json::json!({"level": level, "footprint_bytes": fp,
                "read_bytes_per_ns": rate, "write_bytes_per_ns": rate / 2.0,
                "copy_bytes_per_ns": rate * 0.75, "read_bytes_per_cycle": rate,
                "write_bytes_per_cycle": rate / 2.0, "copy_bytes_per_cycle": rate * 0.75})
        };
        serde_json::from_value(serde_json::json!({
            "caches": [{"level": 1, "capacity_bytes": 32768, "associativity": null,
                "block_bytes": 64, "latency_cycles": 4.0, "latency_ns": 4.0,
                "method": "compact_sequences", "used_huge_pages": false, "exclusive": false}],
            "memory_latency_ns": 80.0, "memory_latency_cycles": 80.0, "tlb": null,
            "cpu": {"frequency_mhz": 1000.0, "has_fma": true, "has_fpu": true,
                "integer_registers": null, "float_registers": null, "simd_registers": null,
                "processors": 1, "smt": false,
                "instructions": [row("single divide", 4.0, None),
                    row("single divide", 8.0, Some(256)),
                    {"name": "integer add", "latency_cycles": 1.0, "throughput_cycles": 0.25},
                    {"name": "integer multiply", "latency_cycles": 3.0,
                        "throughput_cycles": 1.0}]},
            "bandwidths": [bw(Some(1), 16384, 64.0), bw(None, 1 << 27, 8.0)],
            "huge_pages": false, "notes": [], "wall_time_s": 1.0
        }))
        .unwrap()
    }

    /// Rule 14 for optimized builds: an integer link whose test the optimizer emptied costs
    /// X-Ray's latencies of its instructions; a measured one keeps its value, and without
    /// X-Ray an emptied one stays at its (zero) estimate.
    #[test]
    fn an_emptied_link_costs_its_instructions_or_its_caches_latency() {
        let mut m = machine(&[
            (Param::QAIS, 0.0, 0.0),
            (Param::QAIC, 0.0, 0.0),
            (Param::QAIR, 0.0, 0.0),
            (Param::QMIS, 0.0, 0.0),
            (Param::QCIS, 0.0, 0.0),
            (Param::QRIS, 0.0, 0.0),
            (Param::QTIS, 0.0, 0.0),
            (Param::QADR, 0.0, 0.0),
            (Param::QARS, 0.7, 0.0),
        ]);
        for r in m
            .parameters
            .iter_mut()
            .filter(|r| r.mnemonic != Param::QARS)
        {
            r.unmeasured = Some("the compiler emitted no instruction for its test".into());
        }
        let zero = costs(&m);
        assert_eq!(
            zero[&Param::QMIS].0,
            0.0,
            "no X-Ray: nothing to take it from"
        );
        m.xray = Some(xray_report());
        let c = costs(&m);
        // 1 GHz: an add 1 ns, a multiply 3; a division by a constant a multiply, a shift and
        // a correction (5); MOD by a constant that, a multiply and a subtraction (9). Rule
        // 14d's three forms of an addition are one add in registers.
        let ns = |p: Param| c[&p].0;
        assert_eq!(
            [Param::QAIS, Param::QMIS, Param::QCIS, Param::QRIS].map(ns),
            [1.0, 3.0, 5.0, 9.0]
        );
        assert_eq!([Param::QAIC, Param::QAIR].map(ns), [1.0, 1.0]);
        assert_eq!(
            ns(Param::QTIS),
            0.0,
            "a forwarded value stays in a register"
        );
        assert_eq!(ns(Param::QARS), 0.7, "measured: kept");
        // Rule 14c: an emptied pointer chase costs X-Ray's L1 latency.
        assert_eq!(ns(Param::QADR), 4.0);
    }

    /// Rule 17 for optimized builds, through gfortran -O2: a 3-iteration DO loop unrolled
    /// completely has no machine loop; it runs one copy of its lines per entry and no loop
    /// control (its LOIN and LOOV leave the counts). At -O0 nothing changes.
    #[test]
    fn a_loop_the_compiler_unrolled_completely_costs_one_copy_an_entry_and_no_loop_control() {
        let mut m = machine(&[(Param::INST, 0.01, 0.0), (Param::MEMO, 0.01, 0.0)]);
        let src = "      PROGRAM U
      DOUBLE PRECISION A(3), B(3), S, DOT3
      INTEGER K
      EXTERNAL DOT3
      A(1) = 1.0D0
      A(2) = 2.0D0
      A(3) = 3.0D0
      B(1) = 0.5D0
      B(2) = 0.25D0
      B(3) = 0.125D0
      S = 0.0D0
      DO 20 K = 1, 100000
         S = S + DOT3(A, B) * K
   20 CONTINUE
      PRINT *, S
      END
      DOUBLE PRECISION FUNCTION DOT3(U, V)
      DOUBLE PRECISION U(3), V(3)
      INTEGER I
      DOT3 = 0.0D0
      DO 10 I = 1, 3
         DOT3 = DOT3 + U(I) * V(I)
   10 CONTINUE
      END
";
        let Some((_dir, _file, a)) = analyzed("unrolled.f", src, &m) else {
            return;
        };
        let loov = |s: &ProgramStats| s.total.dynamic_counts.as_ref().unwrap().get(Param::LOOV);
        assert_eq!(loov(&a.stats), 100_000 + 300_000);
        for (flags, dropped) in [("-O0", false), ("-O2", true)] {
            let mut stats = a.stats.clone();
            m.compiler.flags = vec![flags.into()];
            crate::issue::fit_to_build(&mut stats, &m).unwrap();
            let inner = stats.loops.iter().find(|l| l.first_line == 21).unwrap();
            let n = inner.instructions.expect("counted");
            if dropped {
                assert_eq!(loov(&stats), 100_000, "{flags}");
                assert_eq!(n % 100_000, 0, "{flags}: one copy an entry, {n}");
                assert!(n >= 3 * 100_000, "{flags}: three products an entry, {n}");
            } else {
                assert_eq!(loov(&stats), 400_000, "{flags}");
            }
        }
    }

    /// Issue 27's classifier fixtures: an optimized division loop is charged by the divider
    /// at X-Ray's throughput for the instructions the compiler emitted (packed at -O3: a
    /// fraction of the divisions, each its width's share of the widest row's time), a sum by
    /// its recurrence (GCC keeps a REAL sum in order).
    #[test]
    fn an_optimized_division_loop_waits_for_the_divider_and_a_sum_for_its_recurrence() {
        let mut m = machine(&[
            (Param::INST, 0.01, 0.0),
            (Param::MEMO, 0.01, 0.0),
            (Param::QARS, 3.0, 0.0),
            (Param::QTRS, 0.0, 0.0),
        ]);
        m.xray = Some(xray_report());
        let Some((_dir, _file, a)) = analyzed("div.f", "      PROGRAM D\n      REAL X(1000), Y(1000), Z(1000), S\n      INTEGER I, K\n      S = 0.0\n      DO 5 I = 1, 1000\n         X(I) = I\n         Z(I) = 3.0\n    5 CONTINUE\n      DO 20 K = 1, 100\n      DO 10 I = 1, 1000\n         Y(I) = X(I) / Z(I)\n   10 CONTINUE\n      DO 15 I = 1, 1000\n         S = S + Y(I)\n   15 CONTINUE\n   20 CONTINUE\n      PRINT *, S\n      END\n", &m) else {
            return;
        };
        for flags in ["-O2", "-O3"] {
            let mut stats = a.stats.clone();
            m.compiler.flags = vec![flags.into()];
            crate::issue::fit_to_build(&mut stats, &m).unwrap();
            let division = stats.loops.iter().find(|l| l.first_line == 10).unwrap();
            let d = division
                .divider_instructions
                .expect("divider counts")
                .single_divide;
            // 100,000 divisions: one instruction each scalar, one per 4 or 8 packed.
            let lanes_covered = d.scalar + 4 * d.packed;
            assert!(
                (100_000..=200_000).contains(&lanes_covered) || d.scalar + 8 * d.packed >= 100_000,
                "{flags}: {d:?}"
            );
            let p = predict(&stats, &m);
            let row = |line: u32| p.loops.iter().find(|l| l.first_line == line).unwrap();
            assert_eq!(row(10).bound, LoopBound::Divider, "{flags}: {:?}", p.loops);
            // gfortran packs with SSE's 128-bit divps (no -march): half the 256-bit row's
            // 8 ns an instruction, which is the scalar row's 4.
            assert_eq!(d.packed_bits, 128 * d.packed, "{flags}: {d:?}");
            let packed = (d.packed_bits as f64 / 256.0 * 8.0).max(d.packed as f64 * 4.0);
            let want = (d.scalar as f64 * 4.0 + packed) * 1e-9;
            assert!(
                (row(10).time_s - want).abs() < 1e-12,
                "{flags}: {:?}",
                row(10)
            );
            assert_eq!(
                row(13).bound,
                LoopBound::Recurrence,
                "{flags}: {:?}",
                p.loops
            );
            assert!((row(13).time_s - 100_000.0 * 3e-9).abs() < 1e-9);
        }
    }

    /// Rule 14g: GCC -O2 turns the first minimum's `IF (X(K) .LT. X(M)) M = K` into a
    /// conditional move, so M's chain through X(M)'s load and the compare is kept and bounds
    /// the loop; at -O0 the IF is a branch and the chain is dropped.
    #[test]
    fn a_conditional_moves_chain_is_kept_only_where_the_build_made_one() {
        let mut m = machine(&[
            (Param::INST, 0.01, 0.0),
            (Param::QADR, 5.0, 0.0),
            (Param::QARS, 1.0, 0.0),
        ]);
        let src = "      PROGRAM A\n      REAL X(1000)\n      INTEGER K, M, R\n      DO 5 K = 1, 1000\n         X(K) = REAL(MOD(K * 7919, 1009))\n    5 CONTINUE\n      DO 20 R = 1, 50\n         X(R) = X(R) - 1.0\n         M = 1\n         DO 10 K = 2, 1000\n            IF (X(K) .LT. X(M)) M = K\n   10    CONTINUE\n   20 CONTINUE\n      PRINT *, M\n      END\n";
        let Some((_dir, _file, a)) = analyzed("argmin.f", src, &m) else {
            return;
        };
        let line = 10;
        let selections = |stats: &ProgramStats| {
            let l = stats.loops.iter().find(|l| l.first_line == line).unwrap();
            assert_eq!(
                l.if_converted.len(),
                l.recurrences.len().min(l.if_converted.len())
            );
            l.if_converted.iter().flatten().count()
        };
        assert_eq!(selections(&a.stats), 1, "the analysis offers the chain");
        for (flags, kept) in [("-O0", 0), ("-O2", 1)] {
            let mut stats = a.stats.clone();
            m.compiler.flags = vec![flags.into()];
            crate::issue::fit_to_build(&mut stats, &m).unwrap();
            assert_eq!(selections(&stats), kept, "{flags}");
        }
        let p = predicted_at(&a.stats, &mut m, "-O2");
        let row = p.loops.iter().find(|r| r.first_line == line).unwrap();
        assert_eq!(row.bound, LoopBound::Recurrence, "{row:?}");
        // 999 iterations a pass, 50 passes, each at least QADR + QARS (6 ns): the load and
        // the compare.
        assert!(row.time_s >= 50.0 * 999.0 * 6e-9 * 0.99, "{row:?}");
    }

    /// `source` analyzed on the test machine (INST 0.01 ns, X-Ray's 1 GHz report) and
    /// fitted to its -O0 and its -O2 build, with the machine as characterized at -O2; None
    /// without gfortran.
    fn fitted_at_o0_and_o2(
        file: &str,
        source: &str,
    ) -> Option<(ProgramStats, ProgramStats, Characterization)> {
        let mut m = machine(&[(Param::INST, 0.01, 0.0)]);
        let (_dir, _file, a) = analyzed(file, source, &m)?;
        m.xray = Some(xray_report());
        let mut o0 = a.stats.clone();
        crate::issue::fit_to_build(&mut o0, &m).unwrap();
        let mut o2 = a.stats;
        m.compiler.flags = vec!["-O2".into()];
        crate::issue::fit_to_build(&mut o2, &m).unwrap();
        Some((o0, o2, m))
    }

    /// Rule 31: Schrage's generator as GCC -O2 builds it carries a chain of about 18
    /// latencies (sign extension, multiply-high, shifts, sign correction, two multiplies, a
    /// conditional move); the loop waits for it where it is longer than the source's links,
    /// and -O0 reads no machine loop.
    #[test]
    fn a_loop_waits_for_the_chain_its_machine_loop_carries() {
        let source = "      PROGRAM LCG\n      INTEGER ISEED, I, J, IRAN\n      ISEED = 4711\n      DO 10 I = 1, 100000\n         J = IRAN(ISEED)\n   10 CONTINUE\n      PRINT *, ISEED\n      END\n      INTEGER FUNCTION IRAN(ISEED)\n      INTEGER ISEED, K\n      K = ISEED / 127773\n      ISEED = 16807 * (ISEED - K * 127773) - 2836 * K\n      IF (ISEED .LT. 0) ISEED = ISEED + 2147483647\n      IRAN = ISEED\n      END\n";
        let Some((o0, o2, m)) = fitted_at_o0_and_o2("lcg.f", source) else {
            return;
        };
        let loop_of = |p: &Prediction| p.loops.iter().find(|l| l.first_line == 4).cloned();
        assert!(o0.loops.iter().all(|l| l.carried_chain_ns.is_none()));
        let l = o2.loops.iter().find(|l| l.first_line == 4).unwrap();
        // 1 GHz: one ns a cycle.
        let per_iteration = l.carried_chain_ns.unwrap() / 100000.0;
        assert!((15.0..=21.0).contains(&per_iteration), "{per_iteration} ns");
        let p = predict(&o2, &m);
        let charged = loop_of(&p).unwrap();
        assert_eq!(charged.bound, LoopBound::Recurrence);
        assert!(
            charged.time_s * 1e9 >= 0.99 * l.carried_chain_ns.unwrap(),
            "{charged:?}"
        );
    }

    /// Rule 31b: a seed updated through a dummy argument beside a CHARACTER store (which may
    /// alias it) is loaded and stored on every pass at -O2, so the loop waits for the load
    /// plus the generator's instructions: 4 + 3 + 1 + 3 + 1 + 1 + 3 + 1 cycles on the test
    /// machine (one ns a cycle). Without the link through memory it carries its index alone.
    #[test]
    fn a_value_stored_and_loaded_back_every_pass_carries_the_chain_through_memory() {
        let source = "      PROGRAM P\n      CHARACTER*1000 S\n      INTEGER ISEED, K\n      ISEED = 4711\n      DO 5 K = 1, 100\n         CALL FILL(ISEED, S, 1000)\n    5 CONTINUE\n      PRINT *, ISEED, S(1:10)\n      END\n      INTEGER FUNCTION IRANGE(ISEED, N)\n      INTEGER ISEED, N\n      ISEED = MOD(ISEED * 171, 30269)\n      IRANGE = MOD(ISEED, N)\n      END\n      SUBROUTINE FILL(ISEED, S, N)\n      INTEGER ISEED, N, J, K, IRANGE\n      CHARACTER*(*) S\n      EXTERNAL IRANGE\n      DO 10 J = 1, N\n         IF (J .EQ. 1) THEN\n            K = IRANGE(ISEED, 52)\n         ELSE\n            K = IRANGE(ISEED, 62)\n         END IF\n         S(J:J) = CHAR(65 + K)\n   10 CONTINUE\n      END\n";
        let Some((_, o2, m)) = fitted_at_o0_and_o2("seed.f", source) else {
            return;
        };
        let l = o2.loops.iter().find(|l| l.first_line == 19).unwrap();
        let per_iteration = l.carried_chain_ns.unwrap() / 100000.0;
        assert!((14.0..=20.0).contains(&per_iteration), "{per_iteration} ns");
        let p = predict(&o2, &m);
        let charged = p.loops.iter().find(|l| l.first_line == 19).unwrap();
        assert_eq!(charged.bound, LoopBound::Recurrence, "{charged:?}");
    }

    /// The prediction of a program analyzed for `m` when `m` was characterized at `flags`
    /// (its counts fitted to that build).
    fn predicted_at(stats: &ProgramStats, m: &mut Characterization, flags: &str) -> Prediction {
        let mut stats = stats.clone();
        m.compiler.flags = vec![flags.into()];
        crate::issue::fit_to_build(&mut stats, m).unwrap();
        predict(&stats, m)
    }

    /// Issue 27's bound test: a loop streaming arrays larger than the last cache is charged
    /// by its memory bound (rule 21), at the copy bandwidth of memory for its 16 bytes an
    /// iteration; a loop over arrays that fit in L1 streams at L1's rate.
    #[test]
    fn a_loop_streaming_arrays_beyond_the_caches_is_bound_by_memory() {
        let mut m = machine(&[(Param::INST, 0.01, 0.0), (Param::MEMO, 0.01, 0.0)]);
        m.xray = Some(xray_report());
        let Some((_dir, _file, a)) = analyzed("stream.f", "      PROGRAM B\n      DOUBLE PRECISION A(2000000), C(2000000)\n      REAL X(100), Y(100)\n      COMMON /BIG/ A, C, X, Y\n      INTEGER I\n      DO 10 I = 1, 2000000\n         A(I) = C(I)\n   10 CONTINUE\n      DO 20 I = 1, 100\n         X(I) = Y(I)\n   20 CONTINUE\n      PRINT *, A(7), X(3)\n      END\n", &m) else {
            return;
        };
        for flags in ["-O0", "-O2"] {
            let p = predicted_at(&a.stats, &mut m, flags);
            let row = |line: u32| p.loops.iter().find(|l| l.first_line == line);
            let big = row(6).expect("the large copy");
            assert_eq!(big.bound, LoopBound::Memory, "{flags}: {:?}", p.loops);
            // 8 bytes read and 8 written an iteration at memory's copy rate, 6 B/ns.
            let want = 2e6 * 16.0 / 6.0 * 1e-9;
            assert!((big.time_s - want).abs() < 1e-3 * want, "{flags}: {big:?}");
            // The small arrays stream from L1 (48 B/ns copied), not memory.
            if let Some(small) = row(9) {
                assert!(
                    small.time_s <= 100.0 * 16.0 / 48.0 * 1e-9 + 1e-15,
                    "{flags}: {small:?}"
                );
            }
        }
    }

    /// Rule 21b: a strided scaling of 16 MB whose step is an argument (8, then 32 elements: a
    /// line every iteration) reads and writes a line an iteration at memory's copy rate,
    /// where the source alone would charge an element.
    #[test]
    fn a_variable_step_of_a_line_streams_a_line_an_iteration() {
        let mut m = machine(&[(Param::INST, 0.01, 0.0), (Param::MEMO, 0.01, 0.0)]);
        m.xray = Some(xray_report());
        let src = "      PROGRAM S
      DOUBLE PRECISION W(2000000)
      COMMON /BIG/ W
      INTEGER K
      DO 5 K = 1, 2000000
         W(K) = 1.0D0
    5 CONTINUE
      CALL SCALE(2000000, W, 8)
      CALL SCALE(2000000, W, 32)
      PRINT *, W(9)
      END
      SUBROUTINE SCALE(LEN, W, INC)
      INTEGER LEN, INC, K
      DOUBLE PRECISION W(LEN)
      DO 10 K = 1, LEN, INC
         W(K) = 2.0D0 * W(K)
   10 CONTINUE
      END
";
        let Some((_dir, _file, a)) = analyzed("scale.f", src, &m) else {
            return;
        };
        for flags in ["-O0", "-O2"] {
            let p = predicted_at(&a.stats, &mut m, flags);
            let scale = p.loops.iter().find(|l| l.first_line == 15).unwrap();
            assert_eq!(scale.bound, LoopBound::Memory, "{flags}: {:?}", p.loops);
            // 250 000 + 62 500 iterations, each a 64-byte line read and written at memory's
            // copy rate, 6 B/ns.
            let want = (250_000.0 + 62_500.0) * 128.0 / 6.0 * 1e-9;
            assert!(
                (scale.time_s - want).abs() < 1e-3 * want,
                "{flags}: {scale:?}"
            );
        }
    }

    /// Rule 21c: a copy called 2000 times over 1000 elements (16 KB, in L1) and once over 2 M
    /// (32 MB, from memory). The mean entry's arrays (about 2000 elements, 32 KB) would fit in
    /// L1; by its entries' trip counts, half the iterations stream from memory at its copy
    /// rate (6 B/ns) and half from L1 (48 B/ns).
    #[test]
    fn a_loop_entered_at_small_and_large_sizes_streams_each_entry_from_its_level() {
        let mut m = machine(&[(Param::INST, 0.001, 0.0), (Param::MEMO, 0.001, 0.0)]);
        m.xray = Some(xray_report());
        let src = "      PROGRAM S
      DOUBLE PRECISION X(2000000), Y(2000000)
      COMMON /BIG/ X, Y
      INTEGER K
      DO 5 K = 1, 2000000
         X(K) = 1.0D0
    5 CONTINUE
      DO 6 K = 1, 2000
         CALL SCOPY2(1000, X, Y)
    6 CONTINUE
      CALL SCOPY2(2000000, X, Y)
      PRINT *, Y(9)
      END
      SUBROUTINE SCOPY2(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y(N)
      DO 10 I = 1, N
         Y(I) = 2.0D0 * X(I)
   10 CONTINUE
      END
";
        let Some((_dir, _file, a)) = analyzed("sizes.f", src, &m) else {
            return;
        };
        let want = 2e6 * 16.0 * (1.0 / 6.0 + 1.0 / 48.0) * 1e-9;
        for flags in ["-O0", "-O2"] {
            let p = predicted_at(&a.stats, &mut m, flags);
            let copy = p.loops.iter().find(|l| l.first_line == 17).unwrap();
            assert_eq!(copy.bound, LoopBound::Memory, "{flags}: {:?}", p.loops);
            assert!(
                (copy.time_s - want).abs() < 1e-3 * want,
                "{flags}: {copy:?}"
            );
            // Without the trip counts, every entry is the mean one, in L1.
            let mut mean = a.stats.clone();
            for l in &mut mean.loops {
                if let Some(t) = l.traffic.as_mut() {
                    t.measured_trips = None;
                }
            }
            let p = predicted_at(&mean, &mut m, flags);
            let copy = p.loops.iter().find(|l| l.first_line == 17).unwrap();
            assert!(copy.time_s < want / 2.0, "{flags}: {copy:?}");
        }
    }

    /// Rule 33: a gather at random from a 16 MiB array waits for each load as far as the
    /// window does not overlap them: the same loop over a 16 KiB array (no wait beyond L1 on
    /// the curve) keeps its time, and the large one's iteration is the wait spread over the
    /// iterations the window holds.
    #[test]
    fn a_gather_at_random_beyond_the_caches_waits_for_its_loads() {
        let mut m = machine(&[
            (Param::INST, 0.1, 0.0),
            (Param::MEMO, 0.01, 0.0),
            (Param::WIND, 100.0, 0.0),
        ]);
        let mut x = xray_report();
        x.random_latency = [(16u64 << 10, 2.0), (64 << 20, 202.0)]
            .map(|(bytes, ns)| model::hardware::RandomLatency { bytes, ns })
            .to_vec();
        m.xray = Some(x);
        let src = "      PROGRAM G
      DOUBLE PRECISION B(2097152), Y(2048), S, T
      INTEGER IB(1000), IY(1000), I
      COMMON /D/ B, Y, IB, IY
      DO 10 I = 1, 1000
         IB(I) = 1 + MOD(I * 7919, 2097152)
         IY(I) = 1 + MOD(I * 7919, 2048)
   10 CONTINUE
      S = 0.0D0
      T = 0.0D0
      DO 20 I = 1, 1000
         S = S + B(IB(I))
   20 CONTINUE
      DO 30 I = 1, 1000
         T = T + Y(IY(I))
   30 CONTINUE
      PRINT *, S, T
      END
";
        let Some((_dir, _file, a)) = analyzed("gather.f", src, &m) else {
            return;
        };
        let p = predicted_at(&a.stats, &mut m, "-O0");
        let row = |line: u32| p.loops.iter().find(|l| l.first_line == line).unwrap();
        let (big, small) = (row(11), row(14));
        assert_eq!(big.bound, LoopBound::RandomAccess, "{:?}", p.loops);
        assert_ne!(small.bound, LoopBound::RandomAccess, "{:?}", p.loops);
        // Without its waits each loop issues its instructions at 0.1 ns.
        let issue = |l: &LoopPrediction| l.instructions.unwrap() as f64 * 0.1e-9;
        assert!(
            (small.time_s - issue(small)).abs() < 1e-6 * small.time_s,
            "{small:?}"
        );
        // 16 MiB is 10/12 of the way from 16 KiB to 64 MiB in log(size): 168.7 ns, 166.7
        // beyond the first level; an iteration spans its instructions of the 100 in flight.
        let excess = 200.0 * 10.0 / 12.0;
        let want = excess * big.instructions.unwrap() as f64 / 100.0 * 1e-9;
        assert!((big.time_s - want).abs() < 1e-6 * want, "{big:?} {small:?}");
    }

    /// Rule 21: a loop along the rows of a 392 x 392 DOUBLE PRECISION matrix (1.2 MiB, beyond
    /// L1) takes a line an iteration, but the loop around moves to the next row, within the
    /// same lines: one entry's 392 lines (25 KiB, 49 lines apart: every set of a 32 KiB 8-way
    /// L1) stay in L1 and the sweep streams from there. Stepping a line between rows, every
    /// entry's lines are new ones from memory. At -O2 the
    /// machine loop steps a column's bytes a pass for one source iteration, not 400 (rule 17).
    #[test]
    fn a_row_sweep_reuses_its_lines_when_the_next_row_shares_them() {
        let mut m = machine(&[(Param::INST, 0.01, 0.0), (Param::MEMO, 0.01, 0.0)]);
        let mut x = xray_report();
        x.caches[0].associativity = Some(8);
        m.xray = Some(x);
        let source = "      PROGRAM R\n      DOUBLE PRECISION A(392,392)\n      COMMON /M/ A\n      INTEGER I, J\n      DO 20 I = 1, 392\n      DO 10 J = 1, 392\n         A(I,J) = A(I,J) + 1.0D0\n   10 CONTINUE\n   20 CONTINUE\n      DO 40 I = 1, 392, 8\n      DO 30 J = 1, 392\n         A(I,J) = A(I,J) + 2.0D0\n   30 CONTINUE\n   40 CONTINUE\n      PRINT *, A(3,5)\n      END\n";
        let Some((_dir, _file, a)) = analyzed("rows.f", source, &m) else {
            return;
        };
        for flags in ["-O0", "-O2"] {
            let p = predicted_at(&a.stats, &mut m, flags);
            let row = |line: u32| p.loops.iter().find(|l| l.first_line == line).unwrap();
            let (near, far) = (row(6), row(11));
            // 8 bytes read and 8 written an iteration at L1's copy rate (48 B/ns), against
            // a line each way at memory's (6 B/ns).
            assert_eq!(far.bound, LoopBound::Memory, "{flags}: {far:?}");
            let far_want = 392.0 * 49.0 * 128.0 / 6.0 * 1e-9;
            assert!(
                (far.time_s - far_want).abs() < 1e-3 * far_want,
                "{flags}: {far:?}"
            );
            let per_iteration = |l: &LoopPrediction| l.time_s / l.iterations as f64;
            assert!(
                per_iteration(near) < 0.1 * per_iteration(far),
                "{flags}: {near:?} {far:?}"
            );
            assert!(
                near.instructions.unwrap_or(0) >= near.iterations,
                "{flags}: {near:?}"
            );
        }
    }

    /// Rule 28: a transpose's store stepping 1 KiB (a 128 x 128 DOUBLE PRECISION matrix)
    /// visits 4 of a 32 KiB 8-way L1's 64 sets, 32 lines for the 128 an entry touches: each
    /// store waits for its line from L2. Padded by one line (136 rows) it visits every set
    /// and does not wait.
    #[test]
    fn a_store_whose_stride_folds_onto_few_sets_waits_for_l2() {
        let mut m = machine(&[(Param::INST, 0.01, 0.0), (Param::MEMO, 0.01, 0.0)]);
        let mut x = xray_report();
        x.caches[0].associativity = Some(8);
        let mut l2 = x.caches[0].clone();
        (l2.level, l2.capacity_bytes, l2.latency_ns) = (2, 1 << 20, 5.0);
        x.caches.push(l2);
        // L2 streams the 256 KiB at 64 B/ns: no bandwidth bound near the waits.
        let mut l2_rate = x.bandwidths[0].clone();
        (l2_rate.level, l2_rate.footprint_bytes) = (Some(2), 1 << 19);
        x.bandwidths.insert(1, l2_rate);
        m.xray = Some(x);
        let source = "      PROGRAM T\n      DOUBLE PRECISION A(128,128), B(128,128), C(136,128)\n      COMMON /M/ A, B, C\n      INTEGER I, J\n      DO 20 J = 1, 128\n      DO 10 I = 1, 128\n         B(J,I) = A(I,J)\n   10 CONTINUE\n   20 CONTINUE\n      DO 40 J = 1, 128\n      DO 30 I = 1, 128\n         C(J,I) = A(I,J)\n   30 CONTINUE\n   40 CONTINUE\n      PRINT *, B(3,5), C(3,5)\n      END\n";
        let Some((_dir, _file, a)) = analyzed("transpose.f", source, &m) else {
            return;
        };
        for flags in ["-O0", "-O2"] {
            let p = predicted_at(&a.stats, &mut m, flags);
            let row = |line: u32| p.loops.iter().find(|l| l.first_line == line);
            let folded = row(6).expect("the transpose into B");
            assert_eq!(folded.bound, LoopBound::StoreConflicts, "{flags}: {p:?}");
            let want = 128.0 * 128.0 * 5.0 * 1e-9;
            assert!(
                (folded.time_s - want).abs() < 1e-6 * want,
                "{flags}: {folded:?}"
            );
            let padded = row(11).expect("the transpose into C");
            assert_ne!(
                padded.bound,
                LoopBound::StoreConflicts,
                "{flags}: {padded:?}"
            );
            assert!(padded.time_s < 0.5 * folded.time_s, "{flags}: {padded:?}");
        }
    }

    /// Rule 22: straight-line code of an optimized build lasts at least its instructions at
    /// INST's rate, beyond what its (emptied) parameters cost; a block inside a loop charged
    /// by its instructions is left to the loop.
    #[test]
    fn straight_line_code_lasts_at_least_its_instructions() {
        let m = machine(&[(Param::AISL, 0.0, 0.0), (Param::INST, 0.1, 0.0)]);
        let mut adds = OpCounts::new();
        adds.add(Param::AISL, 1000);
        let block = |first: u32, instructions: Option<u64>| BlockStats {
            unit: "P".into(),
            file: "p.f".into(),
            first_line: first,
            last_line: first,
            static_counts: OpCounts::one(Param::AISL),
            executions: Some(1000),
            dynamic_counts: Some(adds.clone()),
            instructions,
        };
        let mut stats = ProgramStats::of_counts("p", adds.scaled(2));
        stats.blocks = vec![block(3, Some(10)), block(8, Some(10))];
        let (_, mut l) = sum_loop(Some(5000));
        l.file = "p.f".into();
        l.first_line = 7;
        l.last_line = 9;
        l.recurrences.clear();
        l.body_counts = Some(adds.clone());
        l.iterations = Some(1000);
        stats.loops = vec![l];
        // The block at line 3: 1000 runs of 10 instructions at 0.1 ns; the one at line 8 is
        // the loop's, charged 5000 instructions at 0.1 ns.
        let p = predict(&stats, &m);
        assert!(
            (p.total.time.mean_ns - 1000.0 - 500.0).abs() < 1e-9,
            "{}",
            p.total.time.mean_ns
        );
        // Without instructions (a build that does not optimize) no floor.
        stats.blocks = vec![block(3, None), block(8, None)];
        let p = predict(&stats, &m);
        assert!(
            (p.total.time.mean_ns - 500.0).abs() < 1e-9,
            "{}",
            p.total.time.mean_ns
        );
    }

    #[test]
    fn negative_costs_below_resolution_count_as_zero() {
        let m = machine(&[(Param::GOTO, -0.01, 0.02)]);
        let p = predict_counts("x", &OpCounts::one(Param::GOTO).scaled(100), &m);
        assert_eq!(p.time.mean_ns, 0.0);
        assert!(p.time.std_dev_ns > 0.0);
    }

    #[test]
    fn counts_without_the_simulated_predictor_are_flagged() {
        assert_eq!(unsimulated_branches_warning(Some(true)), None);
        let off = unsimulated_branches_warning(Some(false)).unwrap();
        assert!(
            off.contains("--no-branches") && off.contains("BMIS"),
            "{off}"
        );
        let unknown = unsimulated_branches_warning(None).unwrap();
        assert!(unknown.contains("predates"), "{unknown}");
        let mut stats = ProgramStats::of_counts("p", OpCounts::one(Param::AISL));
        stats.simulated_branches = Some(false);
        let m = machine(&[(Param::AISL, 1.0, 0.0)]);
        assert!(predict(&stats, &m)
            .warnings
            .iter()
            .any(|w| w.contains("guessed")));
    }
}

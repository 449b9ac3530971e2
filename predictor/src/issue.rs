//! Rule 17 on the predictor's side: the instructions each innermost loop of a program executes
//! as the machine's compiler builds it. The count depends on the compiler and its flags, so it
//! is taken here, for each machine, from the program's assembly (`-S -g`), and the analyzer's
//! statistics stay the same for every system.

use harness::chain::{FpOp, Latency};
use harness::{
    loops_of_source_loop, CompileError, Compiler, CompilerError, EmittedCalls, FpOps,
    LineInstructions, MachineLoop, OneCopy,
};
use model::catalogue::{Operation, Precision};
use model::characterization::Characterization;
use model::program_stats::{DividerInstructions, LoopStats, ScalarPacked};
use model::{rules, ProgramStats};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;
use std::path::Path;
use thiserror::Error;

/// Why a program's loops could not be given their instructions; the prediction then leaves
/// the issue bound out and says so.
#[derive(Debug, Error)]
pub enum IssueError {
    #[error("the machine's compiler is not available here: {0}")]
    Compiler(#[from] CompilerError),
    #[error("source file {0} not found (the issue bound needs the program's source)")]
    MissingSource(String),
    #[error("{0}")]
    Compile(#[from] CompileError),
    #[error("scratch directory: {0}")]
    Io(#[from] std::io::Error),
    #[error(
        "{0}'s assembly has no line directives, so its instructions cannot be told apart by line"
    )]
    NoLineDirectives(String),
}

/// Fit `stats` to the build `machine`'s compiler and flags make of the sources: at optimizing
/// flags the calls the compiler inlined are taken out (rule 20) and every basic block gets
/// its machine instructions (rule 22); then every loop that has its
/// iterations (a dynamic analysis) gets its `instructions` and `memory_instructions` (rule
/// 17). A recurrence that exists only when the compiler turns an IF into conditional moves
/// (rule 14g) is kept where the build's machine loop has no conditional jump on the IF's
/// lines. On an error every loop is left without instructions (the prediction then has no
/// issue bound) and without such recurrences, and no call is taken out.
pub fn fit_to_build(
    stats: &mut ProgramStats,
    machine: &Characterization,
) -> Result<(), IssueError> {
    let fitted = fit_build(stats, machine);
    if fitted.is_err() {
        for l in &mut stats.loops {
            drop_selections(l, |_| false);
        }
    }
    fitted
}

/// Rule 14g: keep, of `l`'s recurrences made by conditional moves, those whose IF (its first
/// and last line) `converted` says the build turned into them.
fn drop_selections(l: &mut LoopStats, converted: impl Fn((u32, u32)) -> bool) {
    let at: Vec<Option<(u32, u32)>> = (0..l.recurrences.len())
        .map(|k| l.if_converted(k))
        .collect();
    l.retain_recurrences(|k| at[k].is_none_or(&converted));
    if l.if_converted.iter().all(Option::is_none) {
        l.if_converted.clear();
    }
}

fn fit_build(stats: &mut ProgramStats, machine: &Characterization) -> Result<(), IssueError> {
    for l in &mut stats.loops {
        l.instructions = None;
        l.memory_instructions = None;
        l.divider_instructions = None;
        l.instructions_include_callees = false;
        l.instructions_as_built = false;
        l.carried_chain_ns = None;
        l.iterations_per_pass = None;
        l.arithmetic_instructions = None;
    }
    for b in &mut stats.blocks {
        b.instructions = None;
    }
    // The machine's flags plus those the program's builds need (legacy code).
    let flags = [machine.compiler.flags.clone(), stats.program_flags.clone()].concat();
    let optimized = optimizes(&flags);
    if !optimized {
        // -O0 keeps every IF a branch.
        for l in &mut stats.loops {
            drop_selections(l, |_| false);
        }
    }
    if !optimized && stats.loops.iter().all(|l| l.iterations.is_none()) {
        return Ok(());
    }
    let compiler = Compiler::find(Some(&machine.compiler.path), &flags)?;
    let dir = tempfile::tempdir()?;
    let mut lines = LineInstructions::default();
    let mut machine_loops = Vec::new();
    let mut calls = EmittedCalls::default();
    let mut one_copy = OneCopy::default();
    for f in &stats.source_files {
        let path = Path::new(f);
        if !path.is_file() {
            return Err(IssueError::MissingSource(f.clone()));
        }
        let listing = compiler.assembly_listing(path, dir.path())?;
        lines.extend(LineInstructions::parse(&listing));
        if optimized {
            machine_loops.extend(harness::innermost_loops(&listing));
            calls.extend(EmittedCalls::parse(&listing));
            one_copy.extend(OneCopy::parse(&listing));
        }
    }
    if lines.is_empty() {
        return Err(IssueError::NoLineDirectives(machine.compiler.path.clone()));
    }
    // Only an optimizing compiler unrolls loops into the loops around them.
    let candidates = Candidates {
        machine_loops: &machine_loops,
        statements: if optimized {
            statement_lines(stats)
        } else {
            StatementLines::new()
        },
        loop_lines: stats
            .loops
            .iter()
            .map(|l| {
                let file = harness::assembly::file_name(&l.file);
                (l.unit.clone(), file, l.first_line..=l.last_line)
            })
            .collect(),
    };
    if optimized {
        crate::inlining::drop_inlined_calls(stats, &calls);
        crate::inlining::drop_joined_cosines(stats, &calls);
        for l in &mut stats.loops {
            let body = machine_body(l, &candidates);
            let file = l.file.clone();
            drop_selections(l, |(a, b)| {
                body.is_some_and(|m| !m.jumps_on(&file, &(a..=b)))
            });
        }
    }
    // How often each line ran: its basic block's executions.
    let mut runs: BTreeMap<(&str, u32), u64> = BTreeMap::new();
    for b in &stats.blocks {
        if let Some(e) = b.executions {
            for line in b.first_line..=b.last_line {
                runs.insert((b.file.as_str(), line), e);
            }
        }
    }
    let memory = lines.memory_only();
    let count = |l: &LoopStats, lines: &LineInstructions| {
        let n = l.iterations?;
        Some(rules::loop_instructions(
            l.first_line..=l.last_line,
            n,
            |line| lines.at(&l.file, line),
            |line| lines.set_up_at(&l.file, line),
            |line| runs.get(&(l.file.as_str(), line)).copied(),
            |line| {
                l.consequent_runs
                    .iter()
                    .find(|(at, _)| *at == line)
                    .map(|&(_, taken)| (lines.after_branch_at(&l.file, line), taken))
            },
        ))
    };
    // Rule 17 for optimized builds: a DO loop without a machine loop was unrolled completely
    // or replaced by a library call that fills or copies its array: one copy of its lines
    // per entry, and no loop control.
    let mut unrolled = Vec::new();
    let latency = latency_costs(machine);
    let counted: Vec<Counted> = stats
        .loops
        .iter()
        .map(|l| {
            if let Some(run) = from_machine_loops(l, &candidates, latency.as_ref()) {
                return Counted {
                    all: Some(run.instructions),
                    memory: Some(run.memory),
                    divider: Some(run.divider),
                    body_lines: run.lines,
                    as_built: true,
                    carried_ns: run.carried_ns,
                    per_pass: Some(run.per_pass),
                    arithmetic: Some(run.arithmetic),
                };
            }
            let replaced = || calls.block_moves_within(&l.file, l.first_line..=l.last_line) > 0;
            // A loop around a callee's loop is not unrolled completely (and its DO entries
            // would count the callee loop's).
            let once_an_entry = (optimized && !candidates.calls_a_loop(l))
                .then(|| unrolled_instructions(l, &one_copy, replaced()))
                .flatten();
            if let Some(n) = once_an_entry {
                unrolled.push((l.file.clone(), l.first_line..=l.last_line));
                return Counted {
                    all: Some(n),
                    as_built: true,
                    ..Counted::default()
                };
            }
            Counted {
                all: count(l, &lines),
                memory: count(l, &memory),
                ..Counted::default()
            }
        })
        .collect();
    if !unrolled.is_empty() {
        crate::inlining::drop_unrolled_loop_control(stats, &unrolled);
    }
    let counted = if optimized {
        // Rules 17 and 20 for optimized builds: a loop whose machine loop kept none of its
        // calls runs its callees' instructions as its own, and its calls cost nothing.
        for (l, c) in stats.loops.iter_mut().zip(&counted) {
            let from_machine_loop = !c.body_lines.is_empty();
            if from_machine_loop && calls.within(&l.file, l.first_line..=l.last_line) == 0 {
                if let Some(body) = l.body_counts.as_mut() {
                    *body = body.minus(&crate::inlining::call_charges(body));
                }
            }
        }
        counted
    } else {
        with_leaf_callees(stats, counted, &lines, &memory)
    };
    // Rule 22: the lines whose instructions run inside a loop charged by its instructions (a
    // callee inlined into it) are paid by that loop, not again as straight-line code.
    let mut paid = BTreeSet::new();
    for (l, c) in stats.loops.iter_mut().zip(counted) {
        l.instructions_as_built = c.as_built;
        l.instructions = c.all;
        l.memory_instructions = c.memory;
        l.divider_instructions = c.divider;
        l.carried_chain_ns = c.carried_ns;
        l.iterations_per_pass = c.per_pass;
        l.arithmetic_instructions = c.arithmetic;
        if l.charged_by_instructions() {
            paid.extend(c.body_lines);
        }
    }
    // Rule 22: every other block's instructions, one copy of its lines.
    if optimized {
        for b in &mut stats.blocks {
            let name = harness::assembly::file_name(&b.file);
            let lines = b.first_line..=b.last_line;
            if !lines
                .clone()
                .any(|line| paid.contains(&(name.clone(), line)))
            {
                b.instructions = Some(lines.map(|l| one_copy.at(&b.file, l, &b.unit)).sum());
            }
        }
    }
    Ok(())
}

/// A loop's instructions as the build runs it (rule 17): all of them and those that access
/// memory, its divisions and square roots, the lines of its machine loop, and whether they
/// were read from the loop as built (see [`LoopStats::instructions_as_built`]).
#[derive(Default)]
struct Counted {
    all: Option<u64>,
    memory: Option<u64>,
    divider: Option<DividerInstructions>,
    body_lines: Vec<(String, u32)>,
    as_built: bool,
    /// Rule 31: the chain its machine loop carries, ns over the run.
    carried_ns: Option<f64>,
    /// Rule 29b: source iterations a pass of its machine loop covers.
    per_pass: Option<u64>,
    /// Rule 17c: its arithmetic instructions.
    arithmetic: Option<u64>,
}

/// Rule 17, widened (builds that do not optimize): a loop whose calls enter only
/// straight-line units (no loop of their own) counts their instructions too, its share of
/// each unit's over the run, and is then charged by them like a loop without calls: the
/// calls and returns are predicted, so the core's window spans them.
fn with_leaf_callees(
    stats: &mut ProgramStats,
    counted: Vec<Counted>,
    lines: &LineInstructions,
    memory: &LineInstructions,
) -> Vec<Counted> {
    // Each straight-line unit's instructions over the run (all, and those that access memory).
    let looping: BTreeSet<&str> = stats.loops.iter().map(|l| l.unit.as_str()).collect();
    let mut run_of: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for b in stats
        .blocks
        .iter()
        .filter(|b| !looping.contains(b.unit.as_str()))
    {
        let e = b.executions.unwrap_or(0);
        let total = run_of.entry(b.unit.as_str()).or_default();
        for line in b.first_line..=b.last_line {
            total.0 += lines.at(&b.file, line) * e;
            total.1 += memory.at(&b.file, line) * e;
        }
    }
    let extra: Vec<Option<(u64, u64)>> = stats
        .loops
        .iter()
        .map(|l| {
            let calls = l
                .body_counts
                .as_ref()?
                .params
                .contains_key(&model::Param::PROC);
            let leaf = calls
                && !l.callees.is_empty()
                && l.callees.iter().all(|c| !looping.contains(c.unit.as_str()));
            leaf.then(|| {
                l.callees.iter().fold((0, 0), |(all, mem), c| {
                    let (a, m) = run_of.get(c.unit.as_str()).copied().unwrap_or_default();
                    (all + c.share(a), mem + c.share(m))
                })
            })
        })
        .collect();
    stats
        .loops
        .iter_mut()
        .zip(counted)
        .zip(extra)
        .map(|((l, c), e)| match (e, c.all, c.memory) {
            (Some((all, mem)), Some(own), Some(own_mem)) => {
                l.instructions_include_callees = true;
                Counted {
                    all: Some(own + all),
                    memory: Some(own_mem + mem),
                    ..c
                }
            }
            _ => c,
        })
        .collect()
}

/// Rule 17 for optimized builds: the instructions of a DO loop without a machine loop when
/// it runs one copy of its lines an entry: unrolled completely (see
/// [`rules::unrolled_completely`]), or `replaced` by a call that fills or copies its array;
/// None for a loop without a DO or one that neither.
fn unrolled_instructions(l: &LoopStats, one_copy: &OneCopy, replaced: bool) -> Option<u64> {
    let body = l.body_counts.as_ref()?;
    let entries = body.get(model::Param::LOIN) + body.get(model::Param::LOIX);
    let copy = (l.first_line..=l.last_line)
        .map(|line| one_copy.at(&l.file, line, &l.unit))
        .sum();
    let once_an_entry = (replaced && entries > 0)
        || l.iterations
            .is_some_and(|n| rules::unrolled_completely(n, entries, copy));
    once_an_entry.then_some(copy * entries)
}

/// Whether `flags` ask the compiler to optimize (the last `-O` other than `-O0`): it then
/// restructures loops, so their instructions are read from its machine loops.
pub(crate) fn optimizes(flags: &[String]) -> bool {
    flags
        .iter()
        .rfind(|f| f.starts_with("-O"))
        .is_some_and(|f| f != "-O0")
}

/// What a source loop's run executes in an optimized build (rule 17).
struct MachineRun {
    instructions: u64,
    /// Loads plus stores.
    memory: u64,
    divider: DividerInstructions,
    /// The (file name, line) of the body's instructions: its own lines and those of the
    /// callees the compiler inlined into it.
    lines: Vec<(String, u32)>,
    /// Source iterations a pass covers (rule 29b).
    per_pass: u64,
    /// Arithmetic instructions (rule 17c).
    arithmetic: u64,
    /// Rule 31: the chain the machine loop carries from pass to pass, ns over the run; None
    /// without X-Ray's latencies.
    carried_ns: Option<f64>,
}

/// Rule 17 for an optimized build: the instructions, memory accesses (loads plus stores) and
/// divider instructions of a source loop's run, from the machine loop the compiler made of
/// it. Its widest-stepping machine loop is the body that runs (a vectorized body beside its
/// scalar remainder); a pass covers its step over the loop's element size of source
/// iterations (one when the step is unknown). Counting by line instead would add every copy
/// of the loop's lines (vector body, remainder, versions, hoisted code) once per source
/// iteration. None when the source loop has no machine loop (unrolled completely, or its
/// lines merged into another's).
fn from_machine_loops(
    l: &LoopStats,
    candidates: &Candidates,
    latency: Option<&LatencyCosts>,
) -> Option<MachineRun> {
    let n = l.iterations?;
    let body = machine_body(l, candidates)?;
    let per_pass = iterations_per_pass(body, l).unwrap_or(1).max(1);
    let passes = n.div_ceil(per_pass);
    let pass = &body.pass;
    let split = |all: &FpOps, double: &FpOps| {
        let packed = |o: &FpOps| o.packed.values().sum::<u64>();
        // The classifier keeps widths in bytes.
        let bits = |o: &FpOps| {
            o.packed
                .iter()
                .map(|(&bytes, &n)| 8 * u64::from(bytes) * n)
                .sum::<u64>()
        };
        (
            ScalarPacked {
                scalar: passes * (all.scalar - double.scalar),
                packed: passes * (packed(all) - packed(double)),
                packed_bits: passes * (bits(all) - bits(double)),
            },
            ScalarPacked {
                scalar: passes * double.scalar,
                packed: passes * packed(double),
                packed_bits: passes * bits(double),
            },
        )
    };
    let (single_divide, double_divide) = split(&pass.div, &pass.div_double);
    let (single_square_root, double_square_root) = split(&pass.sqrt, &pass.sqrt_double);
    Some(MachineRun {
        instructions: passes * pass.instructions,
        memory: passes * (pass.loads + pass.stores),
        divider: DividerInstructions {
            single_divide,
            double_divide,
            single_square_root,
            double_square_root,
        },
        lines: body.lines.keys().cloned().collect(),
        per_pass,
        arithmetic: passes * pass.arithmetic(),
        carried_ns: latency
            .and_then(|c| body.dependences.carried_per_pass(&|k| c.ns(k)))
            .map(|ns| ns * passes as f64),
    })
}

/// Rule 31: what each latency class of a machine loop's chain costs on the machine, ns, from
/// X-Ray's measured latencies. An integer division, which X-Ray does not time, takes a double
/// division's (both run on the divider; GCC emits one only for a divisor it cannot see).
struct LatencyCosts {
    add: f64,
    multiply: f64,
    load: f64,
    fp: BTreeMap<(FpOp, bool), f64>,
}

impl LatencyCosts {
    fn ns(&self, l: Latency) -> f64 {
        match l {
            Latency::Free => 0.0,
            Latency::IntAdd => self.add,
            Latency::IntMul => self.multiply,
            Latency::Load => self.load,
            Latency::IntDiv => self.fp.get(&(FpOp::Div, true)).copied().unwrap_or(0.0),
            Latency::Fp { op, double } => self.fp.get(&(op, double)).copied().unwrap_or(self.add),
        }
    }
}

/// The machine's [`LatencyCosts`]; None without X-Ray's CPU and first-level cache latencies.
fn latency_costs(machine: &Characterization) -> Option<LatencyCosts> {
    let xray = machine.xray.as_ref()?;
    let cpu = xray.cpu.as_ref()?;
    let mut fp = BTreeMap::new();
    for (op, name) in [
        (FpOp::Add, "add"),
        (FpOp::Mul, "multiply"),
        (FpOp::Div, "divide"),
        (FpOp::Sqrt, "square root"),
    ] {
        for (double, precision) in [(false, "single"), (true, "double")] {
            if let Some(ns) = cpu.latency_ns(&format!("{precision} {name}")) {
                fp.insert((op, double), ns);
            }
        }
    }
    Some(LatencyCosts {
        add: cpu.latency_ns("integer add")?,
        multiply: cpu.latency_ns("integer multiply")?,
        load: xray.latency_ns(1)?,
        fp,
    })
}

/// What a source loop's machine loop is chosen among (rule 17 for optimized builds).
struct Candidates<'a> {
    machine_loops: &'a [MachineLoop],
    statements: StatementLines,
    /// Each innermost source loop's unit, file name and lines.
    loop_lines: Vec<(String, String, RangeInclusive<u32>)>,
}

impl Candidates<'_> {
    /// Whether `unit` has loops of its own.
    fn loops_in(&self, unit: &str) -> bool {
        self.loop_lines.iter().any(|(u, ..)| u == unit)
    }

    /// Whether `l` calls a procedure with loops of its own: inlined, the callee's loop runs
    /// nested inside `l`, whose body counts then hold the callee loop's entries too.
    fn calls_a_loop(&self, l: &LoopStats) -> bool {
        l.callees.iter().any(|c| self.loops_in(&c.unit))
    }
}

/// The machine loop that runs a source loop's iterations: of those the compiler made of it,
/// the widest-stepping (a vectorized body beside its scalar remainder); None when it has none.
/// Neither a loop the source loop was unrolled into nor one around the call that replaced
/// it: a pass that calls `memmove` (`memcpy`, `memset`) on addresses that do not move is the
/// caller's loop, most of whose instructions lie on the copy's line (the call and the
/// registers it spills around it), and the copy's iterations run inside the library.
fn machine_body<'a>(l: &LoopStats, candidates: &Candidates<'a>) -> Option<&'a MachineLoop> {
    let around_a_block_move = |m: &MachineLoop| {
        m.step.is_none()
            && m.mixed_steps.is_empty()
            && m.pass
                .calls
                .iter()
                .any(|c| harness::calls::is_block_move(c))
    };
    // Rule 20: a callee with loops of its own, inlined, runs its loop nested inside this
    // one, which is then no innermost machine loop: a machine loop on these lines that calls
    // none of the program's procedures is the path that skips the callee's loop (its trip
    // count below one), not the body that runs.
    let calls_a_loop = candidates.calls_a_loop(l);
    let skips_the_callees = |m: &MachineLoop| {
        calls_a_loop
            && !m
                .pass
                .calls
                .iter()
                .any(|c| harness::calls::is_fortran_procedure(c))
    };
    let lines = l.first_line..=l.last_line;
    let mut found = loops_of_source_loop(candidates.machine_loops, &l.file, lines);
    if found.is_empty() {
        found = with_inlined_callees(l, candidates);
    }
    found
        .into_iter()
        .filter(|m| {
            !unrolled_into(m, l, candidates) && !around_a_block_move(m) && !skips_the_callees(m)
        })
        .max_by_key(|m| match m.widest_step() {
            0 => iterations_per_packed_pass(m, l).unwrap_or(0) * u64::from(element_bytes(l)),
            bytes => bytes,
        })
}

/// Rule 20 for optimized builds: the machine loops of a loop whose calls all enter
/// straight-line units, inlined into it: most of such a machine loop's instructions lie on
/// the callees' lines, so it is the loop's when its own lines and its callees' hold most of
/// them and its own lines some (the callees' own functions have no loop).
fn with_inlined_callees<'a>(l: &LoopStats, candidates: &Candidates<'a>) -> Vec<&'a MachineLoop> {
    let leaf = !l.callees.is_empty() && !candidates.calls_a_loop(l);
    if !leaf {
        return Vec::new();
    }
    let callee_lines: BTreeSet<&(String, u32)> = l
        .callees
        .iter()
        .filter_map(|c| candidates.statements.get(&c.unit))
        .flatten()
        .collect();
    let lines = l.first_line..=l.last_line;
    candidates
        .machine_loops
        .iter()
        .filter(|m| {
            let (own, all) = m.share_in(&l.file, &lines);
            let callees: u64 = m
                .lines
                .iter()
                .filter(|(at, _)| callee_lines.contains(at))
                .map(|(_, &n)| n)
                .sum();
            own > 0 && 2 * (own + callees) > all
        })
        .collect()
}

/// The (file name, line) of each unit's executable statements other than DO, CONTINUE and
/// END DO, by unit: the lines of its basic blocks whose source text is such a statement.
type StatementLines = BTreeMap<String, BTreeSet<(String, u32)>>;

/// The lines of each unit's statements that do work of their own (see [`StatementLines`]),
/// from its basic blocks and the source files' text.
fn statement_lines(stats: &ProgramStats) -> StatementLines {
    use analyzer::syntax::Stmt;
    // The lines of each file's DO, CONTINUE and END DO statements.
    let loop_control: BTreeMap<&str, BTreeSet<u32>> = stats
        .source_files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            let lines = analyzer::source::split(f, 0, &text, 72)
                .statements
                .iter()
                .filter(|st| {
                    matches!(
                        analyzer::parse::statement(&st.text),
                        Ok(Stmt::Do(..) | Stmt::DoWhile(..) | Stmt::Continue | Stmt::EndDo)
                    )
                })
                .flat_map(|st| st.lines.iter().map(|l| l + 1))
                .collect();
            (f.as_str(), lines)
        })
        .collect();
    let mut by_unit = StatementLines::new();
    for b in &stats.blocks {
        let control = loop_control.get(b.file.as_str());
        let file = harness::assembly::file_name(&b.file);
        let working =
            (b.first_line..=b.last_line).filter(|line| !control.is_some_and(|c| c.contains(line)));
        by_unit
            .entry(b.unit.clone())
            .or_default()
            .extend(working.map(|line| (file.clone(), line)));
    }
    by_unit
}

/// Rule 17 for optimized builds: whether machine loop `m`, most of whose instructions are on
/// source loop `l`'s lines, is an enclosing loop's into which the compiler unrolled `l`
/// completely: `l` runs few enough trips an entry to be unrolled and `m` also runs
/// statements outside `l` (DO and CONTINUE lines aside, where GCC puts an inner loop's own
/// address arithmetic) of `l`'s unit, or `m` is closed by the jump of a caller's loop that
/// `l`'s unit was inlined into. Its passes are then `l`'s entries, not its iterations.
fn unrolled_into(m: &MachineLoop, l: &LoopStats, candidates: &Candidates) -> bool {
    let (Some(n), Some(entries)) = (l.iterations, l.entries()) else {
        return false;
    };
    let Some(own) = candidates.statements.get(&l.unit) else {
        return false;
    };
    let file = harness::assembly::file_name(&l.file);
    let inside = |at: &(String, u32)| at.0 == file && (l.first_line..=l.last_line).contains(&at.1);
    // Inlined into a caller's loop and unrolled there: the jump back is the caller's.
    let callees: BTreeSet<&str> = l.callees.iter().map(|c| c.unit.as_str()).collect();
    let closed_by_a_caller = !m.latch_lines.is_empty()
        && m.latch_lines.iter().all(|at| {
            !inside(at)
                && candidates.loop_lines.iter().any(|(unit, f, lines)| {
                    *unit != l.unit
                        && !callees.contains(unit.as_str())
                        && *f == at.0
                        && lines.contains(&at.1)
                })
        });
    let (copy, _) = m.share_in(&l.file, &(l.first_line..=l.last_line));
    rules::unrolled_completely(n, entries, copy)
        && (closed_by_a_caller || m.lines.keys().any(|at| !inside(at) && own.contains(at)))
}

/// Source iterations a pass of `body` covers: over the bytes each of the loop's array
/// references moves an iteration when the analyzer knows them (a loop along a row steps a
/// column's bytes a pass without being vectorized), else over the loop's typical element
/// (REAL and DOUBLE PRECISION elements both for mixed steps).
fn iterations_per_pass(body: &MachineLoop, l: &LoopStats) -> Option<u64> {
    let strides: BTreeSet<u64> = l
        .traffic
        .iter()
        .flat_map(|t| &t.references)
        .filter_map(|r| r.stride_bytes)
        .map(i64::unsigned_abs)
        .filter(|&s| s > 0)
        .collect();
    let strides: Vec<u64> = strides.into_iter().collect();
    let typical = match body.step {
        Some(_) => vec![u64::from(element_bytes(l))],
        None => vec![4, 8],
    };
    (!strides.is_empty())
        .then(|| body.iterations_per_pass(&strides))
        .flatten()
        .or_else(|| body.iterations_per_pass(&typical))
        .or_else(|| counted_per_pass(body))
        .or_else(|| iterations_per_packed_pass(body, l))
}

/// Source iterations a pass of `body` covers when its addresses do not tell (no memory
/// operand steps): its counter's step, when the body does not step any address (a loop
/// unrolled twice that counts its iterations adds 2 a pass); None for a step of one or
/// beyond sixteen, which no unrolling of a counter by iterations makes.
fn counted_per_pass(body: &MachineLoop) -> Option<u64> {
    if body.step.is_some() || !body.mixed_steps.is_empty() {
        return None;
    }
    body.counter_step
        .map(i64::unsigned_abs)
        .filter(|k| (2..=16).contains(k))
}

/// Source iterations a pass of a vector body covers when its addresses' step is not
/// recognized (LLVM steps a scaled index by a register: `addq %rsi, %r14; sarq $29`): the
/// real additions, multiplications and divisions its packed instructions do, in elements of
/// the loop's typical size (a fused multiply-add two), over those of one source iteration.
/// None for a body without packed arithmetic or a loop without any.
fn iterations_per_packed_pass(body: &MachineLoop, l: &LoopStats) -> Option<u64> {
    let fp = &body.pass.fp;
    fp.widest()?;
    let element = u64::from(element_bytes(l));
    let elements = |o: &harness::FpOps| {
        o.scalar
            + o.packed
                .iter()
                .map(|(&bytes, &n)| n * (u64::from(bytes) / element).max(1))
                .sum::<u64>()
    };
    let done = elements(fp) + elements(&body.pass.fma);
    let body_counts = l.body_counts.as_ref()?;
    let arithmetic: u64 = body_counts
        .params
        .iter()
        .filter(|(p, _)| {
            let d = p.def();
            d.precision != Precision::None
                && matches!(
                    d.operation,
                    Operation::Add | Operation::Multiply | Operation::Divide
                )
        })
        .map(|(_, &c)| c)
        .sum();
    let per_iteration = arithmetic as f64 / l.iterations? as f64;
    (per_iteration > 0.0)
        .then(|| (done as f64 / per_iteration).round() as u64)
        .filter(|&n| n > 1)
}

/// The bytes of the loop's typical element: 8 when its counted operations are mostly on
/// DOUBLE PRECISION data, else 4 (REAL, INTEGER).
fn element_bytes(l: &LoopStats) -> u32 {
    let Some(body) = &l.body_counts else { return 4 };
    let weight = |prec: Precision| -> u64 {
        body.params
            .iter()
            .filter(|(p, _)| p.def().precision == prec)
            .map(|(_, &c)| c)
            .sum()
    };
    if weight(Precision::Double) > weight(Precision::Single) {
        8
    } else {
        4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_optimization_flag_decides() {
        let f = |v: &[&str]| optimizes(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(!f(&[]));
        assert!(!f(&["-O0"]));
        assert!(f(&["-O2"]));
        assert!(f(&["-O0", "-g", "-O3"]));
        assert!(!f(&["-O2", "-O0", "-fallow-argument-mismatch"]));
    }
}

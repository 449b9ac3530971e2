//! The innermost loops of an optimized build's machine code, their instructions classified per
//! pass (issue 27). At -O2 and -O3 a source loop's cost is no longer the sum of its lines' code:
//! GCC vectorizes, unrolls, peels and versions loops, so predicting an optimized build needs
//! the loops the compiler actually emitted, what one pass of each executes, and how many
//! source iterations a pass covers. Reads x86-64 AT&T listings (`gfortran -S -g` on x86-64).

use crate::assembly::{accesses_memory, file_name, is_conditional_jump, SourcePosition};
use crate::chain::Dependences;
use crate::compiler::{CompileError, Compiler};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::RangeInclusive;
use std::path::Path;

/// Floating-point arithmetic instructions: scalar ones (`ss`/`sd`) and packed ones (`ps`/`pd`)
/// by vector width in bytes (xmm 16, ymm 32, zmm 64), since a packed instruction does one
/// source operation per element at about the cost of a scalar one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FpOps {
    pub scalar: u64,
    pub packed: BTreeMap<u32, u64>,
}

impl FpOps {
    pub fn total(&self) -> u64 {
        self.scalar + self.packed.values().sum::<u64>()
    }

    /// The widest packed width in bytes; None when all are scalar.
    pub fn widest(&self) -> Option<u32> {
        self.packed.keys().next_back().copied()
    }

    fn add(&mut self, width: Option<u32>) {
        match width {
            Some(w) => *self.packed.entry(w).or_default() += 1,
            None => self.scalar += 1,
        }
    }
}

/// What one pass of a machine loop executes, by instruction class. Classes overlap where the
/// hardware's costs do: an instruction can load and store (`addl $1, (%rax)`), and `fma`,
/// `div` and `sqrt` are parts of `fp`. All paths of the body are summed (a branch inside the
/// loop counts both of its sides).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassCounts {
    pub instructions: u64,
    pub loads: u64,
    pub stores: u64,
    /// FP arithmetic: add, sub, mul, min, max, horizontal adds, reciprocal estimates, FMA,
    /// division and square root (not moves, compares, conversions, shuffles or bit logic).
    pub fp: FpOps,
    /// Fused multiply-adds (`vfmadd231ps`, ...): one instruction, two source operations.
    pub fma: FpOps,
    /// Divisions and square roots: slow and not pipelined, so counted apart.
    pub div: FpOps,
    pub sqrt: FpOps,
    /// Of `div` and `sqrt`, those on double precision (`sd`, `pd`), which the divider takes
    /// longer over.
    pub div_double: FpOps,
    pub sqrt_double: FpOps,
    /// Integer add, sub, inc, dec, neg, logic, shifts, compares and tests, `lea`, `cmov`, `set`.
    pub int_alu: u64,
    pub int_mul: u64,
    pub int_div: u64,
    /// Conditional jumps.
    pub branches: u64,
    /// Each call's callee (`sinf`, `_ZGVbN4v_sinf`, `_gfortran_...`) without `@PLT`; an
    /// indirect call keeps its operand (`%rax`).
    pub calls: Vec<String>,
}

impl PassCounts {
    /// Rule 17c: the instructions a pass gives the core's arithmetic ports: integer
    /// arithmetic, logic, compares, `lea` and multiplies, conditional jumps, and
    /// floating-point arithmetic. Loads and stores go to ports of their own (MEMO), register
    /// moves are renamed away, and divisions wait for the divider (rule 17's divider bound).
    pub fn arithmetic(&self) -> u64 {
        self.int_alu + self.int_mul + self.branches + self.fp.total()
    }
}

/// An innermost loop of the machine code: a backward jump to a label of the same function,
/// its body the instructions between them that lie on a path from the label to the jump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineLoop {
    pub function: String,
    /// The label the loop jumps back to.
    pub head: String,
    /// The body's instructions by (source file name, line) of the `.loc` in effect, which
    /// may have been set before the label.
    pub lines: BTreeMap<(String, u32), u64>,
    /// The (source file name, line) of each of the body's conditional jumps: an IF of those
    /// lines the compiler kept as a branch (rule 14g: one without is a conditional move).
    pub jump_lines: BTreeSet<(String, u32)>,
    pub pass: PassCounts,
    /// Bytes the loop's addresses advance per pass, when recognized: the immediate of an
    /// `add $K`, `sub $K`, `inc`, `dec` or `lea K(%r), %r` on a register (any of its widths)
    /// that a memory operand of the body uses, times its scale there (1 as a base). None
    /// when no such register is found or the uses disagree (e.g. REAL and DOUBLE PRECISION
    /// arrays through one index); negative for a loop stepping down.
    pub step: Option<i64>,
    /// The steps of the body's addresses when they disagree (arrays of several element
    /// sizes, each through its own register or scale), each once; empty otherwise.
    pub mixed_steps: Vec<i64>,
    /// The body's register dependences (rule 31): the chain a pass carries into the next.
    pub dependences: Dependences,
    /// The constant a pass adds to the one register the body both steps and compares (a
    /// loop counter: 2 for a loop unrolled twice that counts its iterations), when there
    /// is exactly one such register; None otherwise.
    pub counter_step: Option<i64>,
    /// The (source file name, line) of each jump back to the head: the line of the loop
    /// whose control closes this one (an enclosing loop's DO line when an inner loop was
    /// unrolled into it).
    pub latch_lines: BTreeSet<(String, u32)>,
}

impl MachineLoop {
    /// Source iterations one pass covers when one source iteration moves each array address
    /// by one of `strides` bytes: the one count n for which every step is n times one of them
    /// (4 for a vectorized REAL loop stepping 16 bytes over unit strides of 4; 1 for a loop
    /// along a row of a 100 x 100 DOUBLE PRECISION array stepping 800 bytes; 4 for REAL
    /// elements 16 bytes a pass beside DOUBLE PRECISION ones 32). None without a step, or
    /// when no count or several fit.
    pub fn iterations_per_pass(&self, strides: &[u64]) -> Option<u64> {
        let steps: Vec<u64> = match self.step {
            Some(s) => vec![s.unsigned_abs()],
            None if self.mixed_steps.len() > 1 => {
                self.mixed_steps.iter().map(|s| s.unsigned_abs()).collect()
            }
            None => return None,
        };
        let fits = |n: u64| {
            n > 0
                && steps
                    .iter()
                    .all(|&step| strides.iter().any(|&s| s * n == step))
        };
        let counts: BTreeSet<u64> = steps
            .iter()
            .flat_map(|&step| {
                strides
                    .iter()
                    .filter(move |&&s| s > 0 && step % s == 0)
                    .map(move |&s| step / s)
            })
            .filter(|&n| fits(n))
            .collect();
        match counts.len() {
            1 => counts.first().copied(),
            _ => None,
        }
    }

    /// The bytes of the widest step of the loop's addresses per pass: the step, or the widest
    /// of mixed steps that agree on a count of REAL and DOUBLE PRECISION elements; 0 when
    /// neither is known.
    pub fn widest_step(&self) -> u64 {
        match (self.step, self.iterations_per_pass(&[4, 8])) {
            (Some(s), _) => s.unsigned_abs(),
            (None, Some(_)) => self
                .mixed_steps
                .iter()
                .map(|s| s.unsigned_abs())
                .max()
                .unwrap_or(0),
            (None, None) => 0,
        }
    }

    /// Whether the body has a conditional jump on any of `lines` of `file` (matched by file
    /// name).
    pub fn jumps_on(&self, file: &str, lines: &RangeInclusive<u32>) -> bool {
        let file = file_name(file);
        self.jump_lines
            .iter()
            .any(|(f, l)| *f == file && lines.contains(l))
    }

    /// The body's located instructions on `lines` of `file`, and all of them.
    pub fn share_in(&self, file: &str, lines: &RangeInclusive<u32>) -> (u64, u64) {
        let file = file_name(file);
        let inside = self
            .lines
            .iter()
            .filter(|((f, l), _)| *f == file && lines.contains(l))
            .map(|(_, n)| n)
            .sum();
        (inside, self.lines.values().sum())
    }
}

/// The innermost machine loops of an x86-64 AT&T assembly listing, in listing order.
pub fn innermost_loops(asm: &str) -> Vec<MachineLoop> {
    functions(asm)
        .iter()
        .flat_map(|f| {
            let all = loops(f);
            all.iter()
                .filter(|(h, body)| !all.iter().any(|(h2, b2)| h2 != h && b2.is_subset(body)))
                .map(|(h, body)| machine_loop(f, *h, body))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The machine loops of the source loop on `lines` of `file` (matched by file name): those
/// most of whose located instructions come from those lines. Pass an innermost source loop:
/// an enclosing loop's range also holds its inner loops' machine loops. Several can come
/// back, each with its counts: GCC emits a vectorized body and a scalar remainder, or
/// versions a loop (for aliasing or stride); the vector body is normally the one whose
/// step is widest.
pub fn loops_of_source_loop<'a>(
    loops: &'a [MachineLoop],
    file: &str,
    lines: RangeInclusive<u32>,
) -> Vec<&'a MachineLoop> {
    loops
        .iter()
        .filter(|l| {
            let (inside, all) = l.share_in(file, &lines);
            2 * inside > all
        })
        .collect()
}

impl Compiler {
    /// Compile `source` to assembly (`-S -g` after the system's own flags, as
    /// [`Compiler::line_instructions`] does) and read its innermost machine loops.
    pub fn machine_loops(
        &self,
        source: &Path,
        dir: &Path,
    ) -> Result<Vec<MachineLoop>, CompileError> {
        Ok(innermost_loops(&self.assembly_listing(source, dir)?))
    }
}

/// One instruction: its mnemonic (prefixes such as `rep` dropped), its AT&T operands (the
/// destination last) and the source line of the `.loc` in effect.
pub(crate) struct Insn {
    pub(crate) mnemonic: String,
    pub(crate) operands: Vec<String>,
    pub(crate) at: Option<(String, u32)>,
}

/// A function's instructions, and the instruction each of its local labels points to.
#[derive(Default)]
pub(crate) struct Function {
    pub(crate) name: String,
    pub(crate) insns: Vec<Insn>,
    labels: HashMap<String, usize>,
}

/// The listing's functions. A label not starting with `.` opens one: GCC's jump targets
/// inside a function are its local `.L` labels.
pub(crate) fn functions(asm: &str) -> Vec<Function> {
    let mut position = SourcePosition::default();
    let mut out = Vec::new();
    let mut f = Function::default();
    for raw in asm.lines() {
        let line = raw.trim();
        let mut words = line.split_whitespace();
        match words.next() {
            None => {}
            Some(label) if label.ends_with(':') && words.next().is_none() => {
                let label = &label[..label.len() - 1];
                if label.starts_with('.') {
                    f.labels.insert(label.to_string(), f.insns.len());
                } else {
                    out.push(std::mem::take(&mut f));
                    f.name = label.to_string();
                }
            }
            Some(d @ (".file" | ".loc")) => position.follow(d, words),
            Some(w) if w.starts_with('.') || w.starts_with('#') => {}
            Some(_) => f.insns.push(instruction(line, position.at.clone())),
        }
    }
    out.push(f);
    out
}

/// Read one instruction line (a `#` comment dropped).
fn instruction(line: &str, at: Option<(String, u32)>) -> Insn {
    const PREFIXES: [&str; 7] = ["rep", "repe", "repz", "repne", "repnz", "lock", "notrack"];
    let mut rest = line.split('#').next().unwrap_or("").trim();
    let mnemonic = loop {
        let (word, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        rest = tail.trim();
        if rest.is_empty() || !PREFIXES.contains(&word) {
            break word;
        }
    };
    Insn {
        mnemonic: mnemonic.to_string(),
        operands: split_operands(rest),
        at,
    }
}

/// AT&T operands split at the commas outside a memory operand's parentheses.
fn split_operands(text: &str) -> Vec<String> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        out.push(last.to_string());
    }
    out
}

/// The instruction a jump goes to, when its target is a local label of the function.
fn jump_target(f: &Function, insn: &Insn) -> Option<usize> {
    if !insn.mnemonic.starts_with('j') {
        return None;
    }
    f.labels.get(insn.operands.first()?).copied()
}

/// Where control can go after instruction `i`: the next one unless `i` ends the flow (an
/// unconditional jump, a return, a trap), and a jump's target.
fn successors(f: &Function, i: usize) -> impl Iterator<Item = usize> {
    let insn = &f.insns[i];
    let ends = matches!(
        insn.mnemonic.as_str(),
        "jmp" | "jmpq" | "ret" | "retq" | "ud2" | "hlt"
    );
    (!ends)
        .then_some(i + 1)
        .into_iter()
        .chain(jump_target(f, insn))
}

/// The loops of `f`: each label that later jumps go back to, with its body as a set of
/// instruction indices.
fn loops(f: &Function) -> Vec<(usize, BTreeSet<usize>)> {
    let mut latches: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (j, insn) in f.insns.iter().enumerate() {
        if let Some(h) = jump_target(f, insn).filter(|&h| h <= j) {
            latches.entry(h).or_default().push(j);
        }
    }
    latches
        .into_iter()
        .map(|(h, js)| (h, body(f, h, &js)))
        .filter(|(_, b)| !b.is_empty())
        .collect()
}

/// A loop's body: the instructions between its head and its last backward jump that are
/// reachable from the head and reach one of the backward jumps without leaving that range.
/// Empty when no backward jump is reachable: GCC places cold blocks after a function's
/// return and jumps from them back into earlier code, which closes no loop.
fn body(f: &Function, head: usize, latches: &[usize]) -> BTreeSet<usize> {
    let range = head..=latches.iter().copied().max().unwrap_or(head);
    let (mut next, mut prev) = (BTreeMap::new(), BTreeMap::new());
    for i in range.clone() {
        for s in successors(f, i).filter(|s| range.contains(s)) {
            next.entry(i).or_insert_with(Vec::new).push(s);
            prev.entry(s).or_insert_with(Vec::new).push(i);
        }
    }
    let forward = reach(&[head], &next);
    let reached: Vec<usize> = latches
        .iter()
        .copied()
        .filter(|j| forward.contains(j))
        .collect();
    let backward = reach(&reached, &prev);
    forward.intersection(&backward).copied().collect()
}

/// The nodes reachable from `seeds` (themselves included) along `edges`.
fn reach(seeds: &[usize], edges: &BTreeMap<usize, Vec<usize>>) -> BTreeSet<usize> {
    let mut seen: BTreeSet<usize> = seeds.iter().copied().collect();
    let mut todo = seeds.to_vec();
    while let Some(n) = todo.pop() {
        for &m in edges.get(&n).into_iter().flatten() {
            if seen.insert(m) {
                todo.push(m);
            }
        }
    }
    seen
}

/// Classify a loop's body.
fn machine_loop(f: &Function, head: usize, body: &BTreeSet<usize>) -> MachineLoop {
    let insns: Vec<&Insn> = body.iter().map(|&i| &f.insns[i]).collect();
    let mut lines = BTreeMap::new();
    let mut jump_lines = BTreeSet::new();
    let mut pass = PassCounts::default();
    for insn in &insns {
        if let Some(key) = &insn.at {
            *lines.entry(key.clone()).or_default() += 1;
            if is_conditional_jump(&insn.mnemonic) {
                jump_lines.insert(key.clone());
            }
        }
        count(&mut pass, insn);
    }
    let (step, mixed_steps) = steps(&insns);
    let counter_step = counter_step(&insns);
    // Where control goes after each instruction of the body: its later positions, and
    // whether it jumps back to the head.
    let position: HashMap<usize, usize> = body.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let edges: Vec<(Vec<usize>, bool)> = body
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let later =
                successors(f, i).filter_map(|s| position.get(&s).copied().filter(|&p| p > k));
            (later.collect(), successors(f, i).any(|s| s == head))
        })
        .collect();
    let latch_lines = body
        .iter()
        .zip(&edges)
        .filter(|(_, (_, latch))| *latch)
        .filter_map(|(&i, _)| f.insns[i].at.clone())
        .collect();
    let dependences = Dependences::of(&insns, edges);
    let head = f
        .labels
        .iter()
        .filter(|(_, &i)| i == head)
        .map(|(l, _)| l.clone())
        .min()
        .unwrap_or_default();
    MachineLoop {
        function: f.name.clone(),
        head,
        lines,
        jump_lines,
        pass,
        step,
        mixed_steps,
        dependences,
        counter_step,
        latch_lines,
    }
}

/// Add one instruction to a pass's counts.
fn count(c: &mut PassCounts, insn: &Insn) {
    let (m, ops) = (insn.mnemonic.as_str(), insn.operands.as_slice());
    c.instructions += 1;
    let (load, store) = loads_and_stores(m, ops);
    c.loads += u64::from(load);
    c.stores += u64::from(store);
    if let Some((kind, width)) = fp_op(m, ops) {
        c.fp.add(width);
        match kind {
            Fp::Fma => c.fma.add(width),
            Fp::Div => c.div.add(width),
            Fp::Sqrt => c.sqrt.add(width),
            Fp::Add | Fp::Mul | Fp::Estimate => {}
        }
        if is_double(m) {
            match kind {
                Fp::Div => c.div_double.add(width),
                Fp::Sqrt => c.sqrt_double.add(width),
                _ => {}
            }
        }
    }
    match int_op(m) {
        Some(Int::Alu) => c.int_alu += 1,
        Some(Int::Mul) => c.int_mul += 1,
        Some(Int::Div) => c.int_div += 1,
        None => {}
    }
    if is_conditional_jump(m) {
        c.branches += 1;
    }
    if m.starts_with("call") {
        let target = ops.first().map_or("", |o| o.trim_start_matches('*'));
        c.calls
            .push(target.split('@').next().unwrap_or(target).to_string());
    }
}

fn is_memory(operand: &str) -> bool {
    operand.contains('(')
}

/// A compare or test: it reads its operands and writes only the flags.
pub(crate) fn compares(m: &str) -> bool {
    [
        "cmp", "test", "bt", "ucomi", "comi", "vucomi", "vcomi", "ptest",
    ]
    .iter()
    .any(|p| m.starts_with(p))
}

/// Whether an instruction loads and whether it stores, by [`accesses_memory`]'s rule: a
/// memory destination (the last operand) is stored unless the instruction only compares
/// it, and loaded unless the instruction only writes it (a move, a `set`, an extract); a
/// memory source is loaded. A push or call stores to the stack, a pop or return loads.
pub(crate) fn loads_and_stores(m: &str, ops: &[String]) -> (bool, bool) {
    if !accesses_memory(m, &ops.join(",")) {
        return (false, false);
    }
    if m.starts_with("push") || m.starts_with("call") {
        return (ops.iter().any(|o| is_memory(o)), true);
    }
    if m.starts_with("pop") || m.starts_with("ret") {
        return (true, ops.last().is_some_and(|o| is_memory(o)));
    }
    let Some((last, sources)) = ops.split_last() else {
        return (false, false);
    };
    let reads_only = compares(m)
        || m.starts_with('j')
        || (sources.is_empty() && matches!(int_op(m), Some(Int::Mul | Int::Div)));
    let writes_only = [
        "mov",
        "vmov",
        "set",
        "pextr",
        "vpextr",
        "extract",
        "vextract",
        "stos",
        "vmaskmov",
        "vpmaskmov",
        "vcvt",
    ]
    .iter()
    .any(|p| m.starts_with(p));
    let store = is_memory(last) && !reads_only;
    let load = sources.iter().any(|o| is_memory(o)) || (is_memory(last) && !writes_only);
    (load, store)
}

/// A floating-point arithmetic instruction's kind: what the pass counts apart (FMA, division,
/// square root) and what a chain's latency tells apart (addition, multiplication, estimate).
pub(crate) enum Fp {
    /// Additions, subtractions, MIN, MAX and horizontal adds.
    Add,
    Mul,
    /// Reciprocal and reciprocal-square-root estimates.
    Estimate,
    Fma,
    Div,
    Sqrt,
}

/// An SSE/AVX floating-point arithmetic instruction's kind, and its vector width in bytes
/// when packed (None when scalar). x87 instructions are not recognized: gfortran uses them
/// only for REAL*10 and REAL*16.
pub(crate) fn fp_op(m: &str, ops: &[String]) -> Option<(Fp, Option<u32>)> {
    let m = m.strip_prefix('v').unwrap_or(m);
    let (base, suffix) = m.split_at_checked(m.len().checked_sub(2)?)?;
    let packed = match suffix {
        "ss" | "sd" => false,
        "ps" | "pd" => true,
        _ => return None,
    };
    let kind = match base.trim_end_matches(|c: char| c.is_ascii_digit()) {
        "fmadd" | "fmsub" | "fnmadd" | "fnmsub" | "fmaddsub" | "fmsubadd" => Fp::Fma,
        "div" => Fp::Div,
        "sqrt" => Fp::Sqrt,
        "add" | "sub" | "min" | "max" | "hadd" | "hsub" | "addsub" => Fp::Add,
        "mul" => Fp::Mul,
        "rcp" | "rsqrt" => Fp::Estimate,
        _ => return None,
    };
    let width = packed.then(|| {
        let uses = |r: &str| ops.iter().any(|o| o.contains(r));
        if uses("%zmm") {
            64
        } else if uses("%ymm") {
            32
        } else {
            16
        }
    });
    Some((kind, width))
}

/// A floating-point instruction on double precision: its suffix `sd` or `pd`.
pub(crate) fn is_double(mnemonic: &str) -> bool {
    mnemonic.ends_with("sd") || mnemonic.ends_with("pd")
}

enum Int {
    Alu,
    Mul,
    Div,
}

/// An integer instruction's name without its size suffix (`addq` → `add`); other
/// mnemonics unchanged.
pub(crate) fn int_base(m: &str) -> &str {
    const KNOWN: [&str; 24] = [
        "add", "sub", "inc", "dec", "neg", "and", "or", "xor", "not", "shl", "shr", "sal", "sar",
        "rol", "ror", "cmp", "test", "adc", "sbb", "lea", "mul", "imul", "div", "idiv",
    ];
    if KNOWN.contains(&m) {
        return m;
    }
    match m.strip_suffix(['b', 'w', 'l', 'q']) {
        Some(base) if KNOWN.contains(&base) => base,
        _ => m,
    }
}

/// A general-purpose integer instruction's class.
fn int_op(m: &str) -> Option<Int> {
    match int_base(m) {
        "mul" | "imul" => Some(Int::Mul),
        "div" | "idiv" => Some(Int::Div),
        "add" | "sub" | "inc" | "dec" | "neg" | "and" | "or" | "xor" | "not" | "shl" | "shr"
        | "sal" | "sar" | "rol" | "ror" | "cmp" | "test" | "adc" | "sbb" | "lea" => Some(Int::Alu),
        b if b.starts_with("cmov") || b.starts_with("set") => Some(Int::Alu),
        _ => None,
    }
}

/// The loop's step in bytes, its one address step ([`MachineLoop::step`]), or its address
/// steps when they disagree ([`MachineLoop::mixed_steps`]).
fn steps(insns: &[&Insn]) -> (Option<i64>, Vec<i64>) {
    match address_steps(insns).as_slice() {
        [s] => (Some(*s), Vec::new()),
        [] => (None, Vec::new()),
        all => (None, all.to_vec()),
    }
}

/// The loop counter's step ([`MachineLoop::counter_step`]).
fn counter_step(insns: &[&Insn]) -> Option<i64> {
    let increments = increments(insns);
    let compared: BTreeSet<String> = insns
        .iter()
        .filter(|i| matches!(int_base(&i.mnemonic), "cmp" | "test"))
        .flat_map(|i| {
            i.operands
                .iter()
                .filter(|o| o.starts_with('%'))
                .map(|o| family(o))
        })
        .collect();
    let steps: Vec<i64> = compared
        .iter()
        .filter_map(|r| increments.get(r).copied())
        .filter(|&k| k != 0)
        .collect();
    match steps.as_slice() {
        [k] => Some(*k),
        _ => None,
    }
}

/// Every distinct step in bytes of the addresses of the body's memory operands: a register's
/// increment over the pass times its scale there.
fn address_steps(insns: &[&Insn]) -> Vec<i64> {
    let increments = increments(insns);
    let mut steps = BTreeSet::new();
    // Only memory operands count: `lea` and prefetches compute addresses they do not access.
    let accessing = insns
        .iter()
        .filter(|i| accesses_memory(&i.mnemonic, &i.operands.join(",")));
    for insn in accessing {
        for (reg, scale) in insn.operands.iter().flat_map(|o| address_registers(o)) {
            if let Some(&k) = increments.get(&reg).filter(|k| **k != 0) {
                steps.insert(k * scale);
            }
        }
    }
    steps.into_iter().collect()
}

/// What a pass adds to each register (64-bit name) it steps by constants.
fn increments(insns: &[&Insn]) -> HashMap<String, i64> {
    let mut out: HashMap<String, i64> = HashMap::new();
    for insn in insns {
        if let Some((reg, k)) = increment(insn) {
            *out.entry(reg).or_default() += k;
        }
    }
    out
}

/// The register (64-bit name) an instruction adds a constant to, and the constant.
pub(crate) fn increment(insn: &Insn) -> Option<(String, i64)> {
    let ops = &insn.operands;
    let reg = |o: &String| o.starts_with('%').then(|| family(o));
    match (int_base(&insn.mnemonic), ops.as_slice()) {
        ("add", [k, r]) => Some((reg(r)?, immediate(k)?)),
        ("sub", [k, r]) => Some((reg(r)?, -immediate(k)?)),
        ("inc", [r]) => Some((reg(r)?, 1)),
        ("dec", [r]) => Some((reg(r)?, -1)),
        ("lea", [a, r]) => {
            let (disp, inside) = a.strip_suffix(')')?.split_once('(')?;
            let (r, base) = (reg(r)?, family(inside));
            (!inside.contains(',') && base == r).then_some((r, parse_int(disp)?))
        }
        _ => None,
    }
}

/// The registers of a memory operand `disp(base, index, scale)` (64-bit names), each with
/// the factor it moves the address by: 1 for the base, the scale for the index.
pub(crate) fn address_registers(operand: &str) -> Vec<(String, i64)> {
    let Some((_, inside)) = operand.split_once('(') else {
        return Vec::new();
    };
    let parts: Vec<&str> = inside
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .collect();
    let scale = parts.get(2).and_then(|s| parse_int(s)).unwrap_or(1);
    let mut out = Vec::new();
    if let Some(b) = parts
        .first()
        .filter(|b| b.starts_with('%') && **b != "%rip")
    {
        out.push((family(b), 1));
    }
    if let Some(i) = parts.get(1).filter(|i| i.starts_with('%')) {
        out.push((family(i), scale));
    }
    out
}

/// `$K` as a number.
fn immediate(operand: &str) -> Option<i64> {
    parse_int(operand.strip_prefix('$')?)
}

/// A decimal or `0x` hexadecimal integer, possibly negative; an empty displacement is 0.
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let (negative, digits) = match text.trim().strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.trim()),
    };
    let value = match digits.strip_prefix("0x") {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None if digits.is_empty() => 0,
        None => digits.parse().ok()?,
    };
    Some(if negative { -value } else { value })
}

/// A general-purpose register's 64-bit name, so that `addl $1, %eax` steps the `%rax` of
/// `(%rdx,%rax,4)`.
pub(crate) fn family(reg: &str) -> String {
    let r = reg.trim().trim_start_matches('%');
    if let Some(n) = r.strip_prefix('r') {
        let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() {
            return format!("r{digits}");
        }
    }
    let core = match r.len() {
        3 if r.starts_with('e') || r.starts_with('r') => &r[1..],
        _ => r,
    };
    let core = match core {
        "al" | "ah" => "ax",
        "bl" | "bh" => "bx",
        "cl" | "ch" => "cx",
        "dl" | "dh" => "dx",
        "sil" | "dil" | "bpl" | "spl" => &core[..2],
        c => c,
    };
    format!("r{core}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One function `f_` of `body` under file 1 `p.f`.
    fn listing(body: &str) -> String {
        format!("\t.file 1 \"p.f\"\n\t.text\n\t.globl f_\n\t.type f_, @function\nf_:\n{body}\t.size f_, .-f_\n")
    }

    #[test]
    fn only_the_innermost_of_nested_loops_is_kept() {
        // DO 3 (outer, head .L2) holding DO 4 (inner, head .L3) and its body on line 5.
        let asm = listing(
            "\t.loc 1 3 0\n\txorl %ecx, %ecx\n.L2:\n\t.loc 1 4 0\n\txorl %eax, %eax\n.L3:\n\t.loc 1 5 0\n\tmovss (%rdx,%rax,4), %xmm0\n\taddss %xmm0, %xmm1\n\t.loc 1 4 0\n\taddq $1, %rax\n\tcmpq %rax, %rsi\n\tjne .L3\n\t.loc 1 3 0\n\taddl $1, %ecx\n\tcmpl %ecx, %edi\n\tjne .L2\n\tret\n",
        );
        let loops = innermost_loops(&asm);
        assert_eq!(loops.len(), 1, "{loops:?}");
        let l = &loops[0];
        assert_eq!((l.function.as_str(), l.head.as_str()), ("f_", ".L3"));
        assert_eq!(l.pass.instructions, 5);
        assert_eq!(l.lines[&("p.f".to_string(), 5)], 2);
        assert_eq!(l.lines[&("p.f".to_string(), 4)], 3);
        assert_eq!((l.pass.loads, l.pass.stores, l.pass.branches), (1, 0, 1));
        assert_eq!(l.pass.fp.scalar, 1);
        assert_eq!(l.pass.int_alu, 2);
        assert_eq!(l.step, Some(4));
    }

    #[test]
    fn a_forward_jump_or_a_jump_back_from_a_cold_block_is_no_loop() {
        // -O3's shape: a forward `jle` over the code, and after the return a cold block
        // that jumps back into earlier code (`jmp .L3`), never reaching itself again.
        let asm = listing(
            "\t.loc 1 4 0\n\ttestl %ecx, %ecx\n\tjle .L1\n\tcmpl $2, %ecx\n\tjbe .L8\n.L3:\n\tsubl $1, %eax\n\tmovss %xmm0, (%rdx,%rax,4)\n.L1:\n\tret\n.L8:\n\tmovl $1, %eax\n\tjmp .L3\n",
        );
        assert_eq!(innermost_loops(&asm), Vec::new());
    }

    #[test]
    fn a_loc_set_before_the_label_gives_the_loops_lines() {
        // Rotated loop entered in its middle; the first instructions after the label follow
        // a `.loc` set before it.
        let asm = listing(
            "\t.loc 1 6 0\n\txorl %eax, %eax\n\tjmp .L4\n.L5:\n\taddsd (%rsi), %xmm0\n\t.loc 1 5 0\n\taddq $8, %rsi\n.L4:\n\tcmpq %rax, %rsi\n\tjne .L5\n\tret\n",
        );
        let loops = innermost_loops(&asm);
        assert_eq!(loops.len(), 1, "{loops:?}");
        let lines: Vec<_> = loops[0].lines.iter().map(|((_, l), n)| (*l, *n)).collect();
        assert_eq!(lines, vec![(5, 3), (6, 1)]);
        assert_eq!(loops[0].step, Some(8));
        assert_eq!(loops_of_source_loop(&loops, "dir/p.f", 5..=6).len(), 1);
        // Most of the loop is line 5: it belongs to a source loop holding that line, not to
        // one holding only line 6, nor to another file's.
        assert_eq!(loops_of_source_loop(&loops, "p.f", 5..=5).len(), 1);
        assert!(loops_of_source_loop(&loops, "p.f", 6..=9).is_empty());
        assert!(loops_of_source_loop(&loops, "q.f", 5..=6).is_empty());
    }

    #[test]
    fn loads_and_stores_follow_the_destination() {
        for (text, expected) in [
            ("movss (%rdx,%rax,4), %xmm0", (true, false)),
            ("movss %xmm0, (%rcx,%rax,4)", (false, true)),
            ("addl $1, (%rax)", (true, true)),
            ("incl 8(%rax)", (true, true)),
            ("cmpq %rax, (%rdx)", (true, false)),
            ("vfmadd213ps (%rdx,%rax), %ymm2, %ymm0", (true, false)),
            ("vextractf128 $1, %ymm0, 16(%rax)", (false, true)),
            ("idivl (%rcx)", (true, false)),
            ("sete (%rdi)", (false, true)),
            ("leaq 8(%rsi,%rax,8), %rax", (false, false)),
            ("nopw 0(%rax,%rax,1)", (false, false)),
            ("addsd %xmm1, %xmm0", (false, false)),
            ("pushq %rbx", (false, true)),
            ("call sinf@PLT", (false, true)),
        ] {
            let i = instruction(text, None);
            assert_eq!(
                loads_and_stores(&i.mnemonic, &i.operands),
                expected,
                "{text}"
            );
        }
    }

    #[test]
    fn instruction_classes() {
        let body = [
            "mulps %xmm2, %xmm0",
            "vaddpd %ymm1, %ymm2, %ymm3",
            "vfmadd231ps (%rax), %zmm1, %zmm0",
            "vfmadd213sd %xmm1, %xmm2, %xmm0",
            "divss (%rdx), %xmm0",
            "vsqrtpd %ymm0, %ymm1",
            "movss %xmm0, %xmm1",
            "xorps %xmm0, %xmm0",
            "cvtsi2sdl %eax, %xmm0",
            "ucomisd %xmm1, %xmm0",
            "addq $16, %rax",
            "sall $2, %ecx",
            "cmpl %ecx, %edx",
            "imulq %rdx, %rax",
            "idivl %ecx",
            "cltq",
            "jne .L3",
            "jmp .L4",
            "call _gfortran_st_write@PLT",
            "call *%rax",
        ];
        let mut c = PassCounts::default();
        for text in body {
            count(&mut c, &instruction(text, None));
        }
        assert_eq!(c.instructions, body.len() as u64);
        assert_eq!(c.fp.scalar, 2);
        assert_eq!(c.fp.packed, BTreeMap::from([(16, 1), (32, 2), (64, 1)]));
        assert_eq!((c.fma.total(), c.fma.widest()), (2, Some(64)));
        assert_eq!((c.div.scalar, c.sqrt.packed.get(&32)), (1, Some(&1)));
        assert_eq!(
            (c.div_double.total(), c.sqrt_double.packed.get(&32)),
            (0, Some(&1))
        );
        assert_eq!((c.int_alu, c.int_mul, c.int_div), (3, 1, 1));
        assert_eq!(c.branches, 1);
        assert_eq!(c.calls, vec!["_gfortran_st_write", "%rax"]);
    }

    #[test]
    fn the_step_is_read_from_the_induction_register() {
        let step_of = |body: &[&str]| {
            let insns: Vec<Insn> = body.iter().map(|t| instruction(t, None)).collect();
            steps(&insns.iter().collect::<Vec<_>>()).0
        };
        // A 32-bit counter scaling a 64-bit index.
        assert_eq!(
            step_of(&["movss (%rdx,%rax,4), %xmm0", "addl $1, %eax"]),
            Some(4)
        );
        // Pointers moved by `lea` and by `sub` (a loop stepping down).
        assert_eq!(
            step_of(&["movupd (%rsi), %xmm0", "leaq 16(%rsi), %rsi"]),
            Some(16)
        );
        assert_eq!(
            step_of(&["movsd -8(%rdi), %xmm0", "subq $8, %rdi"]),
            Some(-8)
        );
        // One index over REAL and DOUBLE PRECISION arrays: unsure.
        assert_eq!(
            step_of(&[
                "movss (%rdx,%rax,4), %xmm0",
                "movsd (%rcx,%rax,8), %xmm1",
                "incq %rax"
            ]),
            None
        );
        // A counter no address uses.
        assert_eq!(step_of(&["movss (%rdx), %xmm0", "subl $1, %ecx"]), None);
        let l = MachineLoop {
            function: String::new(),
            head: String::new(),
            lines: BTreeMap::new(),
            jump_lines: BTreeSet::new(),
            pass: PassCounts::default(),
            step: Some(16),
            mixed_steps: Vec::new(),
            dependences: Default::default(),
            counter_step: None,
            latch_lines: BTreeSet::new(),
        };
        assert_eq!(l.iterations_per_pass(&[4]), Some(4));
        assert_eq!(l.iterations_per_pass(&[8]), Some(2));
        assert_eq!(l.iterations_per_pass(&[32]), None);
        // Along a row: a source iteration moves 16 bytes too.
        assert_eq!(l.iterations_per_pass(&[16]), Some(1));
        // Strides that disagree on the count say nothing.
        assert_eq!(l.iterations_per_pass(&[4, 8]), None);
        // REAL elements 16 bytes a pass and DOUBLE PRECISION ones 32: four iterations, the
        // widest step 32; one index scaled by 4 and 8 and moved by one: one iteration.
        let mixed = |steps: &[i64]| MachineLoop {
            step: None,
            mixed_steps: steps.to_vec(),
            ..l.clone()
        };
        assert_eq!(mixed(&[16, 32]).iterations_per_pass(&[4, 8]), Some(4));
        assert_eq!(mixed(&[16, 32]).widest_step(), 32);
        assert_eq!(mixed(&[4, 8]).iterations_per_pass(&[4, 8]), Some(1));
        assert_eq!(mixed(&[8, 24]).iterations_per_pass(&[4, 8]), None);
        // A row of a REAL array (400 bytes an iteration) beside a unit-stride one: one.
        assert_eq!(mixed(&[400, 4]).iterations_per_pass(&[4, 400]), Some(1));
        // Steps that do not agree (a row walked with a column) say nothing.
        assert_eq!(mixed(&[8, 2048]).widest_step(), 0);
        assert_eq!(mixed(&[]).iterations_per_pass(&[8]), None);
    }

    #[test]
    fn registers_are_named_by_their_64_bit_family() {
        for (r, f) in [
            ("%eax", "rax"),
            ("%al", "rax"),
            ("%rax", "rax"),
            ("%r8d", "r8"),
            ("%r15", "r15"),
            ("%esi", "rsi"),
            ("%sil", "rsi"),
            ("%bpl", "rbp"),
        ] {
            assert_eq!(family(r), f, "{r}");
        }
    }
}

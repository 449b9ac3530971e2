//! Rule 31 (optimized builds): the chain a machine loop carries from one pass to the next,
//! read from its instructions' register dependences. At -O2 the compiler decides what a
//! recurrence is made of (a division by a constant becomes a sign extension, a multiply-high,
//! shifts and a correction; an IF becomes a compare and a conditional move), so the longest
//! loop-carried path through the code as built is the recurrence bound of an optimized loop,
//! priced at X-Ray's latencies (X-Ray, Yotov et al., section 7). A value carried through a
//! store and a later load of the same address is followed too ([`forwarding`], rule 31b).

mod forwarding;

use crate::loops::{compares, family, fp_op, int_base, is_double, Fp, Insn};

/// What an instruction's result waits for after its inputs, priced by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Latency {
    /// A register move the core renames, or a result that depends on nothing.
    Free,
    IntAdd,
    IntMul,
    IntDiv,
    /// A floating-point operation (`double`: on double precision).
    Fp {
        op: FpOp,
        double: bool,
    },
    /// A load from the first-level cache (added to the address's path).
    Load,
}

/// The floating-point latency classes X-Ray measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FpOp {
    /// Additions, subtractions, compares, MIN, MAX and conversions.
    Add,
    /// Multiplications and fused multiply-adds.
    Mul,
    Div,
    Sqrt,
}

/// The registers followed: 16 general-purpose ones, 32 vector ones, the flags, and up to
/// `MEMORY_SLOTS` addresses a value passes through from a store to a load (rule 31b).
const GPRS: usize = 16;
const FLAGS: usize = GPRS + 32;
const MEMORY_SLOTS: usize = 16;
const REGS: usize = FLAGS + 1 + MEMORY_SLOTS;

/// One instruction's dependences: the registers its result waits for (`reads`), those of its
/// memory operand's address (`address`, waited for plus a load when it loads), those it
/// writes, and where control goes next within the body.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Step {
    latency: Latency,
    reads: Vec<u8>,
    address: Vec<u8>,
    loads: bool,
    writes: Vec<u8>,
    /// Positions of the next instructions in the body (forward edges only).
    next: Vec<usize>,
    /// Jumps back to the loop's head (or falls into it).
    latch: bool,
}

/// A machine loop body's register dependences in listing order (see the module's doc).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dependences {
    steps: Vec<Step>,
}

impl Dependences {
    /// The dependences of a body given as `insns` in listing order, with `edges[k]` the
    /// later positions control goes to after the k-th and whether it jumps back to the head.
    pub(crate) fn of(insns: &[&Insn], edges: Vec<(Vec<usize>, bool)>) -> Dependences {
        let mut steps: Vec<Step> = insns
            .iter()
            .zip(edges)
            .map(|(insn, (next, latch))| step(insn, next, latch))
            .collect();
        forwarding::link(insns, &mut steps);
        Dependences { steps }
    }

    /// The longest chain a pass carries into the next, per pass: the largest mean latency of
    /// a cycle of registers through the loop's passes (up to eight passes long), with
    /// `cost` the time of each latency class. None for an empty body.
    pub fn carried_per_pass(&self, cost: &dyn Fn(Latency) -> f64) -> Option<f64> {
        let end = self.pass_paths(cost)?;
        // end[r * REGS + s]: the longest path from s at the head to r after one pass.
        let at = |m: &Vec<f64>, s: usize, r: usize| m[r * REGS + s];
        let mut power = end.clone();
        let mut best = 0.0f64;
        for k in 1..=8 {
            for r in 0..REGS {
                let d = at(&power, r, r);
                if d.is_finite() {
                    best = best.max(d / k as f64);
                }
            }
            if k == 8 {
                break;
            }
            let mut next = vec![f64::NEG_INFINITY; REGS * REGS];
            for s in 0..REGS {
                for m in 0..REGS {
                    let a = at(&power, s, m);
                    if !a.is_finite() {
                        continue;
                    }
                    for r in 0..REGS {
                        let b = at(&end, m, r);
                        if b.is_finite() && a + b > next[r * REGS + s] {
                            next[r * REGS + s] = a + b;
                        }
                    }
                }
            }
            power = next;
        }
        Some(best)
    }

    /// Longest paths over one pass, head to latches: `[r * REGS + s]` from register s at the
    /// head to register r when control goes back to the head (minus infinity: none).
    fn pass_paths(&self, cost: &dyn Fn(Latency) -> f64) -> Option<Vec<f64>> {
        let n = self.steps.len();
        if n == 0 {
            return None;
        }
        let mut incoming: Vec<Option<Vec<f64>>> = vec![None; n];
        let mut identity = vec![f64::NEG_INFINITY; REGS * REGS];
        for r in 0..REGS {
            identity[r * REGS + r] = 0.0;
        }
        incoming[0] = Some(identity);
        let mut end: Option<Vec<f64>> = None;
        let merge = |into: &mut Option<Vec<f64>>, from: &[f64]| match into {
            Some(v) => v.iter_mut().zip(from).for_each(|(a, b)| *a = a.max(*b)),
            None => *into = Some(from.to_vec()),
        };
        for k in 0..n {
            let Some(mut state) = incoming[k].take() else {
                continue;
            };
            apply(&self.steps[k], &mut state, cost);
            for &j in &self.steps[k].next {
                merge(&mut incoming[j], &state);
            }
            if self.steps[k].latch {
                merge(&mut end, &state);
            }
        }
        end
    }
}

/// Update `state` (longest paths from the head's registers) by one instruction.
fn apply(step: &Step, state: &mut [f64], cost: &dyn Fn(Latency) -> f64) {
    if step.writes.is_empty() {
        return;
    }
    let own = cost(step.latency);
    let load = if step.loads { cost(Latency::Load) } else { 0.0 };
    let mut row = vec![f64::NEG_INFINITY; REGS];
    let mut take = |regs: &[u8], extra: f64| {
        for &r in regs {
            let from = &state[r as usize * REGS..(r as usize + 1) * REGS];
            for (best, d) in row.iter_mut().zip(from) {
                *best = best.max(d + extra);
            }
        }
    };
    take(&step.reads, own);
    take(&step.address, own + load);
    for &w in &step.writes {
        state[w as usize * REGS..(w as usize + 1) * REGS].copy_from_slice(&row);
    }
}

/// A register operand's number among those followed; None for a memory or immediate
/// operand, or a register not followed (masks, segments, `%rip`).
fn register(operand: &str) -> Option<u8> {
    let r = operand.trim().strip_prefix('%')?;
    for prefix in ["xmm", "ymm", "zmm"] {
        if let Some(n) = r.strip_prefix(prefix).and_then(|n| n.parse::<usize>().ok()) {
            return (n < 32).then_some((GPRS + n) as u8);
        }
    }
    const NAMES: [&str; GPRS] = [
        "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12",
        "r13", "r14", "r15",
    ];
    let f = family(operand);
    NAMES.iter().position(|n| *n == f).map(|p| p as u8)
}

/// The registers of a memory operand's address, a gather's vector index among them (which
/// `loops::address_registers`, following scalar address steps, leaves out).
fn address_of(operand: &str) -> Vec<u8> {
    let Some((_, inside)) = operand.split_once('(') else {
        return Vec::new();
    };
    inside
        .trim_end_matches(')')
        .split(',')
        .filter_map(register)
        .collect()
}

/// One instruction's [`Step`] (AT&T operand order: the destination last).
fn step(insn: &Insn, next: Vec<usize>, latch: bool) -> Step {
    let m = insn.mnemonic.as_str();
    let ops = insn.operands.as_slice();
    let mut s = Step {
        latency: latency(m),
        reads: Vec::new(),
        address: Vec::new(),
        loads: false,
        writes: Vec::new(),
        next,
        latch,
    };
    if !special(m, ops, &mut s) {
        general(m, ops, &mut s);
    }
    s
}

/// The instructions whose operands do not say what they read and write: no operand (sign
/// extensions), calls, jumps and no-ops, one-operand multiplies and divisions, pops and
/// zeroing idioms. False for any other, left to [`general`].
fn special(m: &str, ops: &[String], s: &mut Step) -> bool {
    let flags = FLAGS as u8;
    let Some((dest, sources)) = ops.split_last() else {
        match m {
            "cltq" | "cdqe" => (s.reads, s.writes) = (vec![0], vec![0]),
            "cqto" | "cltd" | "cqo" | "cdq" => (s.reads, s.writes) = (vec![0], vec![3]),
            _ => {}
        }
        return true;
    };
    if m.starts_with("call") {
        // The callee's results are not followed: the caller-saved registers come back
        // unrelated to the chain.
        s.latency = Latency::Free;
        s.writes = [0u8, 1, 2, 3, 4, 5, 8, 9, 10, 11]
            .into_iter()
            .chain((GPRS as u8)..(FLAGS as u8))
            .chain([flags])
            .collect();
        return true;
    }
    let same = !sources.is_empty() && sources.iter().all(|o| o == dest);
    if ["j", "push", "prefetch", "nop"]
        .iter()
        .any(|p| m.starts_with(p))
        || (m.starts_with("xchg") && same)
    {
        return true;
    }
    if matches!(int_base(m), "mul" | "imul" | "div" | "idiv") && sources.is_empty() {
        // One operand: rdx:rax from rax (and rdx for a division) and the operand.
        s.reads = ops
            .iter()
            .filter_map(|o| register(o))
            .chain([0, 3])
            .collect();
        s.address = address_of(dest);
        s.loads = dest.contains('(');
        s.writes = vec![0, 3, flags];
        return true;
    }
    if m.starts_with("pop") {
        (s.latency, s.loads) = (Latency::Free, true);
        s.writes = register(dest).into_iter().collect();
        return true;
    }
    let zeroing = [
        "xor", "pxor", "vpxor", "xorp", "vxorp", "sub", "psub", "vpsub",
    ]
    .iter()
    .any(|p| m.starts_with(p));
    if zeroing && same && register(dest).is_some() {
        s.writes = register(dest).into_iter().collect();
        s.latency = Latency::Free;
        return true;
    }
    false
}

/// An instruction whose last operand is its destination: it waits for its register operands
/// (the destination too unless it only writes it), its memory operand's address, and the
/// flags when it uses them.
fn general(m: &str, ops: &[String], s: &mut Step) {
    let flags = FLAGS as u8;
    let Some((dest, sources)) = ops.split_last() else {
        return;
    };
    let regs = |os: &[String]| -> Vec<u8> { os.iter().filter_map(|o| register(o)).collect() };
    let memory = |o: &String| o.contains('(');
    s.address = ops
        .iter()
        .filter(|o| memory(o))
        .flat_map(|o| address_of(o))
        .collect();
    s.loads = ops.iter().any(memory) && !m.starts_with("lea");
    if compares(m) {
        s.reads = regs(ops);
        s.writes = vec![flags];
        return;
    }
    let Some(d) = register(dest) else {
        // A store: nothing followed is written (a read-modify-write also sets the flags).
        s.writes = if int_writes_flags(m) {
            vec![flags]
        } else {
            Vec::new()
        };
        return;
    };
    let moves = ["mov", "vmov", "lea"].iter().any(|p| m.starts_with(p));
    let fused = ["fmadd", "fmsub", "fnmadd", "fnmsub"]
        .iter()
        .any(|p| m.contains(p));
    let overwrites = moves
        || ["cvt", "vcvt", "set", "pextr", "vpextr", "vbroadcast", "vpbroadcast"]
            .iter()
            .any(|p| m.starts_with(p))
        // VEX three-operand forms other than FMA write a destination they do not read.
        || (m.starts_with('v') && ops.len() >= 3 && !fused)
        // imul $k, src, dest
        || (m.starts_with("imul") && ops.len() == 3);
    s.reads = if overwrites { regs(sources) } else { regs(ops) };
    if ["cmov", "set", "adc", "sbb"]
        .iter()
        .any(|p| m.starts_with(p))
    {
        s.reads.push(flags);
    }
    if m.starts_with("cmov") {
        s.reads.push(d);
    }
    if moves && (s.loads || renamed(m, ops)) {
        // A load waits for its address and the cache; a register copy is renamed.
        s.latency = Latency::Free;
    }
    s.writes = vec![d];
    if int_writes_flags(m) {
        s.writes.push(flags);
    }
}

/// A register-to-register copy the core renames instead of executing: a plain move between
/// general-purpose registers or between vector registers (not a sign or zero extension, nor a
/// move across the two files).
fn renamed(m: &str, ops: &[String]) -> bool {
    let plain = matches!(m, "mov" | "movl" | "movq" | "movw" | "movb")
        || ["movap", "movup", "movdq", "vmovap", "vmovup", "vmovdq"]
            .iter()
            .any(|p| m.starts_with(p));
    let file = |o: &String| register(o).map(|r| (r as usize) < GPRS);
    plain && ops.len() == 2 && file(&ops[0]).is_some() && file(&ops[0]) == file(&ops[1])
}

/// An integer instruction that sets the flags.
fn int_writes_flags(m: &str) -> bool {
    [
        "add", "sub", "inc", "dec", "neg", "and", "or", "xor", "shl", "shr", "sal", "sar", "imul",
        "adc", "sbb",
    ]
    .iter()
    .any(|p| m.starts_with(p))
        && !m.ends_with("ps")
        && !m.ends_with("pd")
        && !m.ends_with("ss")
        && !m.ends_with("sd")
}

/// An instruction's latency class by its mnemonic: the arithmetic [`fp_op`] classifies,
/// conversions and floating-point compares as additions, the integer multiplies and
/// divisions, anything else one integer addition.
fn latency(m: &str) -> Latency {
    let plain = m.strip_prefix('v').unwrap_or(m);
    let double = is_double(plain) || plain.contains("2sd");
    let fp = |op| Latency::Fp { op, double };
    if plain.starts_with("cvt") {
        return fp(FpOp::Add);
    }
    if let Some((kind, _)) = fp_op(m, &[]) {
        return match kind {
            Fp::Add => fp(FpOp::Add),
            Fp::Mul | Fp::Fma => fp(FpOp::Mul),
            Fp::Div => fp(FpOp::Div),
            Fp::Sqrt => fp(FpOp::Sqrt),
            Fp::Estimate => Latency::IntAdd,
        };
    }
    let fp_suffix = ["ss", "sd", "ps", "pd"].iter().any(|x| plain.ends_with(x));
    if fp_suffix {
        let base = plain[..plain.len() - 2].trim_end_matches(|c: char| c.is_ascii_digit());
        return match base {
            "ucomi" | "comi" | "cmp" | "round" => fp(FpOp::Add),
            _ => Latency::IntAdd,
        };
    }
    if m.starts_with("imul") || m.starts_with("mul") {
        Latency::IntMul
    } else if m.starts_with("idiv") || m.starts_with("div") {
        Latency::IntDiv
    } else {
        Latency::IntAdd
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loops::innermost_loops;

    /// One function `f_` of `body` under file 1 `p.f`.
    fn listing(body: &str) -> String {
        format!("\t.file 1 \"p.f\"\n\t.text\n\t.globl f_\n\t.type f_, @function\nf_:\n{body}\t.size f_, .-f_\n")
    }

    /// Cycles: an add 1, a multiply 3, a load 5, FP add 3, anything else 1.
    fn cycles(l: Latency) -> f64 {
        match l {
            Latency::Free => 0.0,
            Latency::IntMul => 3.0,
            Latency::Load => 5.0,
            Latency::Fp { op: FpOp::Add, .. } => 3.0,
            _ => 1.0,
        }
    }

    fn carried(body: &str) -> f64 {
        let loops = innermost_loops(&listing(body));
        assert_eq!(loops.len(), 1, "{loops:?}");
        loops[0].dependences.carried_per_pass(&cycles).unwrap()
    }

    #[test]
    fn a_sum_carries_its_addition_and_an_index_its_increment() {
        // s += x(i): one FP add carried; the index's add runs beside it.
        let sum =
            ".L2:\n\taddsd (%rdi,%rax,8), %xmm0\n\taddq $1, %rax\n\tcmpq %rax, %rsi\n\tjne .L2\n";
        assert_eq!(carried(sum), 3.0);
        // A copy carries only its index.
        let copy = ".L2:\n\tmovsd (%rdi,%rax,8), %xmm0\n\tmovsd %xmm0, (%rsi,%rax,8)\n\taddq $1, %rax\n\tcmpq %rax, %rdx\n\tjne .L2\n";
        assert_eq!(carried(copy), 1.0);
    }

    #[test]
    fn a_division_by_a_constant_carries_every_instruction_gcc_makes_of_it() {
        // i = i / 127773 + k as GCC -O2 emits it: sign extension, multiply-high, shift,
        // add, shift, sign correction (the sign's shift beside them), then the addition.
        let div = ".L2:\n\tmovslq %ebx, %rax\n\tmovl %ebx, %esi\n\timulq $-2092037281, %rax, %rax\n\tsarl $31, %esi\n\tshrq $32, %rax\n\taddl %ebx, %eax\n\tsarl $16, %eax\n\tsubl %esi, %eax\n\tleal (%rax,%rdx), %ebx\n\tsubl $1, %ecx\n\tjne .L2\n";
        // movslq 1, imul 3, shr 1, add 1, sar 1, sub 1, lea 1.
        assert_eq!(carried(div), 9.0);
    }

    #[test]
    fn a_conditional_move_carries_its_compare_and_a_zeroed_register_breaks_a_chain() {
        // m = min(m + 1, e(j)): add, compare, cmov; the xor'd register restarts.
        let min = ".L2:\n\txorl %eax, %eax\n\tmovl (%rdi,%rdx,4), %eax\n\taddl $1, %ecx\n\tcmpl %ecx, %eax\n\tcmovle %eax, %ecx\n\taddq $1, %rdx\n\tcmpq %rdx, %rsi\n\tjne .L2\n";
        assert_eq!(carried(min), 3.0);
    }

    #[test]
    fn a_pointer_chase_carries_its_load() {
        let chase = ".L2:\n\tmovq (%rax), %rax\n\tsubl $1, %ecx\n\tjne .L2\n";
        assert_eq!(carried(chase), 5.0);
    }

    #[test]
    fn two_registers_swapped_every_pass_carry_half_their_cycle() {
        // a' = b + 1 (1), b' = a * 3 (3): a cycle of two passes, 4 cycles, 2 a pass.
        let swap = ".L2:\n\tleal 1(%rbx), %edx\n\timull $3, %eax, %ebx\n\tmovl %edx, %eax\n\tsubl $1, %ecx\n\tjne .L2\n";
        assert_eq!(carried(swap), 2.0);
    }

    #[test]
    fn a_counter_stepping_two_a_pass_says_the_loop_was_unrolled_twice() {
        // LLVM's twice-unrolled GO TO loop: no memory operand, K += 2 compared each pass; the
        // jump back is on line 41.
        let body = "\t.loc 1 35 4\n.L4:\n\tmulss %xmm1, %xmm0\n\tucomiss %xmm2, %xmm0\n\tja .L8\n\tmulss %xmm1, %xmm0\n\t.loc 1 40 4\n\taddl $2, %esi\n\t.loc 1 41 4\n\tcmpl $100, %esi\n\tjne .L4\n.L8:\n\tret\n";
        let loops = innermost_loops(&listing(body));
        assert_eq!(loops[0].counter_step, Some(2));
        assert_eq!(
            loops[0].latch_lines.iter().collect::<Vec<_>>(),
            [&("p.f".to_string(), 41)]
        );
        // A pointer stepped and compared is no counter of iterations alone: two registers.
        let two = ".L2:\n\taddq $8, %rax\n\taddl $1, %ecx\n\tcmpq %rax, %rdx\n\tcmpl %ecx, %esi\n\tjne .L2\n";
        assert_eq!(innermost_loops(&listing(two))[0].counter_step, None);
    }

    #[test]
    fn of_two_paths_the_longer_is_carried() {
        // if (c) x = x * 3 else x = x + 1: the multiply's side is the longer.
        let branches = ".L2:\n\ttestl %edx, %edx\n\tje .L3\n\timull $3, %eax, %eax\n\tjmp .L4\n.L3:\n\taddl $1, %eax\n.L4:\n\tsubl $1, %ecx\n\tjne .L2\n";
        assert_eq!(carried(branches), 3.0);
    }

    #[test]
    fn a_value_stored_in_one_pass_and_loaded_in_the_next_carries_the_load() {
        // RC(J) = MAX(RP(J), RC(J-1)) on dummy arrays as GCC -O2 emits it: RC(J) stored at
        // 4(%r8,%rax,4) is loaded back at (%r8,%rax,4) a pass later, %rax stepped by one on
        // both paths. The MAX path: load 5, compare 1, conditional move 1.
        // Without the link it carries the index's add alone.
        let row = ".L121:\n\tmovl 4(%rcx,%rax,4), %edx\n\tmovl (%r8,%rax,4), %esi\n\tcmpl %esi, %edx\n\tcmovl %esi, %edx\n\tmovl %edx, 4(%r8,%rax,4)\n\taddq $1, %rax\n\tcmpq %rdi, %rax\n\tje .L119\n.L123:\n\tcmpl (%r9,%rax,4), %r10d\n\tjne .L121\n\tmovl (%rcx,%rax,4), %esi\n\tleal 1(%rsi), %edx\n\tmovl %edx, 4(%r8,%rax,4)\n\taddq $1, %rax\n\tcmpq %rdi, %rax\n\tjne .L123\n.L119:\n\tret\n";
        // GCC's layout makes two loops of it; the MAX path's is the one headed by .L121.
        let loops = innermost_loops(&listing(row));
        let max_path = loops.iter().find(|l| l.head == ".L121").unwrap();
        assert_eq!(max_path.dependences.carried_per_pass(&cycles), Some(7.0));
        // Y(I) = Y(I) + A(J) * X(J) with Y(I) kept in memory: the load, the add (3) and the
        // store every pass.
        let into = ".L2:\n\tmovsd (%rsi,%rax,8), %xmm0\n\tmulsd (%rdx,%rax,8), %xmm0\n\taddsd (%rdi), %xmm0\n\tmovsd %xmm0, (%rdi)\n\taddq $1, %rax\n\tcmpq %rax, %rcx\n\tjne .L2\n";
        assert_eq!(carried(into), 8.0);
        // A(J) = A(J+1) * C reads what no earlier pass wrote: only the index is carried.
        let ahead = ".L2:\n\tmovsd 8(%rdi,%rax,8), %xmm0\n\tmulsd %xmm1, %xmm0\n\tmovsd %xmm0, (%rdi,%rax,8)\n\taddq $1, %rax\n\tcmpq %rax, %rcx\n\tjne .L2\n";
        assert_eq!(carried(ahead), 1.0);
        // Through a register whose step differs between the two paths, no address is known.
        let unknown = ".L2:\n\tmovsd (%rdi), %xmm0\n\taddsd %xmm1, %xmm0\n\ttestl %edx, %edx\n\tje .L3\n\taddq $8, %rdi\n.L3:\n\tmovsd %xmm0, 8(%rdi)\n\tsubl $1, %ecx\n\tjne .L2\n";
        assert_eq!(carried(unknown), 1.0);
        // A store on one path only: the other path breaks the chain, and out-of-order
        // execution overlaps the pieces; it is not followed.
        let sometimes = ".L2:\n\tmovsd (%rdi), %xmm0\n\taddsd %xmm1, %xmm0\n\ttestl %edx, %edx\n\tje .L3\n\tmovsd %xmm0, (%rdi)\n.L3:\n\tsubl $1, %ecx\n\tjne .L2\n";
        assert_eq!(carried(sometimes), 1.0);
        // On every path it is: load 5, add 3.
        let always = sometimes.replace("\tje .L3\n", "\tje .L4\n.L4:\n");
        assert_eq!(carried(&always), 8.0);
        // An empty body links nothing and carries nothing.
        assert_eq!(
            Dependences::of(&[], Vec::new()).carried_per_pass(&cycles),
            None
        );
    }
}

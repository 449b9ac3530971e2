//! The counting rules: how a statement turns into parameter counts. The analyzer counts
//! programs with these functions and the characterizer counts its test bodies with them, so a
//! parameter means the same on both sides (one set of rules).
//!
//! The rules (Saavedra-Barrera's sections 4.2 and 5; decisions where Saavedra-Barrera is silent are marked *):
//! 1. An assignment whose right side has no operator (a constant, a variable or an array
//!    element) is one memory transfer T of the target's type. Otherwise it is one store S of
//!    the target's type plus the operators of the right side. (Saavedra-Barrera's section 4.2.1)
//! 2. An operation is global (…G) when any of its direct operands is a variable or array
//!    element in COMMON; the store is global when the target is; a transfer is global when
//!    either side is. Results of sub-expressions are temporaries, hence local.
//! 3. Arithmetic takes the promoted type of its operands (integer < real < double)*; the
//!    conversion itself is not counted*. Subtraction counts as addition. An integer division
//!    (or MOD) by a compile-time constant counts as a multiplication* (the compiler emits a
//!    multiply and shifts even at -O0: seen in gfortran's -O0 assembly, and counting it as a
//!    division overpredicted smith's MOD-heavy units by 1.6x). Its latency on a chain is
//!    longer: rule 14 has parameters of its own for it (QCIS, QRIS).
//! 4. `X ** I` (real base, integer exponent) is E…; `X ** Y` (real exponent) is X…; an integer
//!    base to the literal 2 is EI…, to anything else XI….
//! 5. Unary minus of a non-constant is one addition of its type*; unary plus is free; `.EQV.`
//!    and `.NEQV.` count as AND*; `.NOT.` is free* (one flip of a bit, folded into the test or
//!    the AND that uses it; counting it as an AND overpredicted smith's LOGIC by 2x).
//! 6. An array element whose subscripts are all compile-time constants is addressed at compile
//!    time and costs no ARRn (Saavedra-Barrera's section 4.2.4); otherwise one ARRn by rank (ARR4, ARRN for
//!    4 and more, derived). Integer + and - inside a subscript are IADD, not AIS… (Saavedra-Barrera
//!    section 6.3); other subscript operators count as usual.
//! 7. A relational operator is one compare C… of the promoted operand type; a condition costs
//!    its operators only, so `IF (L)` on a bare logical is free* and ELSE, END IF, CONTINUE,
//!    RETURN, STOP, PAUSE and END cost nothing. A logical operator joining compares (or
//!    joins of compares) costs nothing* either: each compare parameter is measured as a whole
//!    `IF (compare)`, branch included, and GCC evaluates such a join as the compares' own
//!    branches; adding an AND overpredicted the self-check's compound IF by 2x and smith's
//!    LOGIC. An operator with a logical variable or function as an operand is an AND*.
//! 8. A CALL or a reference to a user function is one PROC plus one AGRS/AGRD/AGIS per argument
//!    (logical arguments count as AGIS*), plus the operators of argument expressions. A
//!    function reference is an operator, so `X = F(Y)` is a store, not a transfer*.
//! 9. Intrinsics: see [`crate::intrinsics`].
//!    9b. A DOUBLE PRECISION MOD (glibc's fmod) takes one step of shift and subtract per bit of
//!    its quotient, `ilogb(x) - ilogb(y)` ([`remainder_steps`]); MODD is measured at
//!    quotients below 4100, [`REMAINDER_TEST_STEPS`] steps a call on average, and a
//!    statement's steps beyond that many a call each cost one MQBD
//!    ([`charge_remainder_steps`]). The counting run counts the steps of the watched
//!    references. Dynamic only.
//! 10. GO TO is GOTO; computed GO TO, assigned GO TO and the arithmetic IF are GCOM plus the
//!     operators of their expression (Saavedra-Barrera's section 4.2.3); ASSIGN is an integer transfer*.
//! 11. A DO statement costs LOIN once per entry and LOOV once per iteration when its step is
//!     absent or the literal 1, LOIX and LOOX otherwise, plus the operators of its bounds.
//!     DO WHILE costs its condition per test and one GOTO per iteration*.
//! 12. Logical values are stored and transferred as integers (SIS…, TIS…)*.
//! 13. Anything else (character operations, I/O statements, type conversions, intrinsics
//!     without a parameter) is counted as uncharacterized, by kind. INDEX is the exception
//!     (rule 23): INDX per reference and SCAN per character position it tries, which the
//!     counting run counts ([`charge_index_scans`]); 23b: and SCNM per mispredicted compare
//!     of the substring's first character, min(k, n - k) of a reference's n positions, k of
//!     which start with that character ([`charge_index_misses`], [`index_misses`]).
//!     13a. A COMPLEX operation counts the real operations gfortran compiles it into, in its
//!     parts' precision (DOUBLE COMPLEX, COMPLEX*16: double): an addition two additions, a
//!     multiplication four multiplications and two additions, a division Smith's algorithm
//!     (three divisions, three multiplications, three additions, a compare), a store or
//!     transfer one per part, a compare two; on a chain (rule 14) a multiplication waits for
//!     a multiplication and an addition ([`complex_operations`]). A complex argument is an
//!     address like any other (AGRS, AGRD). CABS, ABS of a complex, CDABS and ZABS call the
//!     library's hypot: parameters of their own (CABS, CABD; QCBS, QCBD on a chain). CMPLX and
//!     DCMPLX cost nothing, and so does taking a part (AIMAG, DIMAG, DREAL; REAL and DBLE of
//!     a complex are its real part, converted as rule 25 says when the precision changes).
//!     CONJG and DCONJG change the imaginary part's sign, one addition of the part's type
//!     like a unary minus (rule 5); powers and functions of a complex stay uncharacterized.
//!     13b. A concatenation (`//`) is one CHCC: gfortran builds its result in a heap
//!     temporary (malloc, `_gfortran_concat_string`, free) and the statement moves it on; CHCC
//!     is measured on substrings of a length known only at run time.
//!     13c. Other character operations by their lengths ([`character_length`]): gfortran
//!     handles single characters inline and strings in the library. A compare of two single
//!     characters is an integer compare (bytes), of strings one CHCM (memcmp or
//!     `_gfortran_compare_string`; LGE, LGT, LLE, LLT too); an assignment of one character to
//!     one a byte moved as an integer is (TIS…, SIS…), of a string one CHAS (memmove, memset
//!     to pad); a substring's address with a bound known only at run time an ARR1; a
//!     character argument an address (AGIS); ICHAR, CHAR and LEN nothing.
//! 14. Dependency latency (opcost's refinement, region 13; not in Saavedra-Barrera): when a statement
//!     reads a scalar that an earlier statement of the same loop wrote, the reader waits. The
//!     wait along one assignment, from an operand `v` to the target, is one QT… (the stored
//!     value forwarded to the next load, by the target's type) plus one Q… latency for every
//!     operator on the path from the deepest occurrence of `v` up to the root ([`chain_latency`]);
//!     an integer division or MOD by a constant is QCIS or QRIS there, not a multiplication.
//!     14d: an integer addition is QAIS only where gfortran -O0 adds a variable into a local
//!     scalar's memory (`K = K + J`), QAIC where it adds a constant there (`K = K - 1`), and
//!     QAIR anywhere else (computed in a register between a load and a store). 14e: MIN and
//!     MAX fold their arguments left to right, one QMXS/QMXD/QMXI per fold a value passes
//!     through ([`min_max_latency`]). 14f: an integer stored into an array element is
//!     forwarded to the next link by QTEI, not QTIS (a scalar's store and reload may be
//!     renamed, an element's are not); an element is never added to in memory. Compares,
//!     logical operators, calls and operators without a latency parameter add nothing; a use
//!     inside a subscript is one QADR more, the element's load (14c: only subscripts the
//!     iteration computes are followed, see `analyzer::recurrence`). Array
//!     elements chain like scalars when the loop does not move them (constant subscripts
//!     `E(1)`, or subscripts the loop does not assign: `W(I)` in a loop over K), when an
//!     element stored at an offset of the DO variable is read one iteration later (`X(K)`
//!     stored, `X(K-1)` read, step 1), and when an element is read again after its store in
//!     the same iteration. A subroutine called in the loop that runs straight through counts
//!     with its assignments, in the caller's names, and so does a function referenced in an
//!     assignment or an IF's condition (its result stands for the reference: a random-number
//!     function's seed chains through its dummy argument from one reference to the next).
//!     14b: a REAL or DOUBLE PRECISION function's result adds one QFRS or QFRD where the
//!     chain comes back through it to the reference ([`function_result_latency`]): gfortran
//!     -O0 returns it through the callee's frame and moves it between the floating-point and
//!     integer registers (a chain `T = PROD(T, X)` ran 9.1 ns a link against 6.6 for the same
//!     through a subroutine's argument). The branches of a block IF are alternatives: a
//!     chain goes on from the longest of them, not through one after the other. A chain of
//!     such waits that comes back to its scalar after one iteration, or after k of them (at
//!     most four: whetstone's P0 rotates three elements, `E(J) = E(K)`, `E(K) = E(L)`,
//!     `E(L) = E(J)`, and each returns after two iterations with three transfers), is a
//!     recurrence; it paces the loop at its latency over k per iteration. A loop whose
//!     recurrence is longer than its operations' summed cost (the loop's own and those of
//!     the units it calls, per call) runs at the recurrence's pace; the predictor charges
//!     the difference.
//! 15. Branch misses (opcost's refinement): an IF whose condition reads any variable (and an
//!     arithmetic IF or computed GO TO on one, [`count_multiway_misses`]) costs the misses of
//!     a global-history predictor simulated on the outcomes of all such branches during the
//!     counting run ([`count_branch_misses`]): the simulation learns what the
//!     hardware learns (loop counters, flags, MOD patterns) and misses what it cannot (array
//!     data, and scalars computed from data, such as the sign test of a random-number
//!     generator: taking that one IF out of a 40M-call loop halved its run). Without the
//!     simulation, an IF on array data costs min(taken, not taken) and an IF on scalars none.
//!     Dynamic only. The simulated count may
//!     exceed min(taken, not taken): a dynamic predictor does not know the majority outcome
//!     of fresh random data in advance (shell sort's exits: 78,800 simulated misses a sort
//!     against 70,900 exits; a plain 2-bit counter replayed on the same outcomes missed
//!     78,000-90,000).
//!     A miss is a BMIR when the condition compares real or double values, else a BMIS
//!     ([`branch_miss_param`]): the floating-point compare resolves the branch later.
//! 16. Dummy arguments (opcost's refinement): every use of a dummy argument's value, a dummy
//!     scalar or an element of a dummy array, read or written, costs one DUMA on top of its
//!     other counts: the procedure holds the caller's address, and at -O0 each use loads it
//!     from the frame before reaching the value (seen in gfortran's assembly; the same SAXPY
//!     loop ran 30 % slower on dummy arrays than on local ones, which Saavedra-Barrera's parameters
//!     could not tell apart, and linpack's SAXPY was predicted 18 % low). Passing a dummy on
//!     as an actual argument passes the address and costs no DUMA.
//! 17. Instruction issue (opcost's refinement): an innermost loop lasts at least as long as
//!     the CPU takes to issue its instructions: the instructions the system's compiler emits
//!     for the loop's lines (its assembly with line directives), each line weighted by how
//!     often it ran ([`loop_instructions`]), times INST, the time per instruction of a test body
//!     that keeps the CPU's issue busy. The predictor charges a loop the largest of its
//!     operations' summed cost, its recurrence (rule 14) and its issue time. At -O0 every
//!     statement loads and stores its operands (`A(I) = A(I) + K` is 14 instructions), and the
//!     parameters' tests leave the issue slots room, so loops of several such statements ran
//!     at twice their summed parameters (six: 7.7 ns an iteration against 3.7 predicted, 7.7
//!     by their 96 instructions).
//!     A loop whose instructions are known and that calls no procedure is charged by them,
//!     not by its operations' sum: the operations of an out-of-order core's loop issue
//!     together, so their costs measured one stream at a time add up time the core overlaps
//!     (smith's IF and computed GO TO loop: 4.18 ns an iteration summed, 2.73 measured,
//!     3.05 by its 58 instructions; linpack's SAXPY 1.80 summed, 1.56 measured, 1.42
//!     issued). Each operation is one of three kinds ([`loop_charge`]): issued (its
//!     instructions are the loop's), a busy unit (divisions and square roots: the loop lasts
//!     at least their summed cost) or an event the issue does not hide (a branch miss
//!     flushes the pipeline; a library function runs instructions outside the loop's
//!     lines), and the loop lasts max(recurrence, max(issue, units) + events) (the interval
//!     model of an out-of-order core: steady issue plus miss events). At -O0 a loop whose
//!     calls enter only straight-line units counts their instructions too and is charged the
//!     same way (rule 17, widened: the window spans a predicted call and return). Any other
//!     loop with a CALL, or whose instructions are unknown, keeps the largest of its summed
//!     cost, its recurrence and its issue time. In optimized builds the divider's time comes from the machine
//!     loop's divisions and square roots at X-Ray's throughputs, a packed one taking its
//!     width's share of the widest row's time, never less than a scalar one's
//!     ([`packed_divider_ns`]).
//! 18. Constant streams into large arrays (opcost's refinement): an INTEGER or LOGICAL
//!     constant assigned to `A(I, ...)`, where A is a local or COMMON array larger than
//!     [`LARGE_ARRAY_BYTES`] and I the variable of the innermost DO loop around it with step 1
//!     (the loop streams through consecutive elements), costs one CSTA on top of its
//!     transfer. gfortran -O0 stores such a constant as an immediate (`movl $1,
//!     (%rdx,%rax)`), and a stream of immediate stores through a static array beyond the L1
//!     cache ran at 1.6-2.2 ns a store against 0.8-1.0 for the same stores of a variable
//!     (this Zen 4, a 240 KB LOGICAL array; 32 and 48 KB ran alike, 80 KB either way from one
//!     process to the next): sieve's `ISPRIM(I) = .TRUE.` over 60,000 elements, charged
//!     0.73 ns by its instructions. The same constant stored by sieve's crossing-out loop (a
//!     GO TO loop, stride K) cost 0.1 ns more than a variable, so only the DO loop's stream
//!     counts. REAL constants go through a register and are not affected; neither is a dummy
//!     array, whose size the unit does not know. The limit is gfortran's
//!     `-fmax-stack-var-size` (64 KiB): a larger local array is static, and on the stack
//!     (1 MB) the same stores ran at the variable's pace. CSTA is measured against the same
//!     loop storing a variable, so in a loop charged by its instructions it is an event
//!     (rule 17): added to the issue time.
//! 19. The out-of-order window (opcost's refinement): a core overlaps the iterations of a loop
//!     only as far as its window of instructions in flight reaches, so an innermost loop whose
//!     iteration holds a chain of dependent statements of latency L (the longest chain inside
//!     one iteration, in rule 14's latency parameters) and I instructions overlaps at most
//!     WIND / I iterations and lasts at least L * I / WIND an iteration ([`window_bound`]). In
//!     a loop charged by its instructions (rule 17) this is a third bound beside the issue
//!     time and the busy units. WIND is measured on a loop of the same shape (a chain of 16
//!     dependent `Xk = Xk-1 + Ak` per pass, passes independent) as its chain's latency times
//!     its instructions over its pass time ([`window_of`]); the core hides less of a shorter
//!     chain (122, 192 and 256 instructions on chains of 8, 16 and 32 statements on a Zen 3),
//!     and 16 statements is nearer the chains of programs' loops (docs/model.md). An n-body
//!     force loop (a square root and a division on a 12-statement chain, about 70
//!     instructions an iteration) ran at 10 ns an iteration, where its issue and divider
//!     bounds gave 3.7.
//! 20. Inlined calls (opcost's refinement, optimized builds): a call the compiler inlined
//!     executes no call instruction and loads no argument, so a basic block's PROC and
//!     argument loads count only in the share of its calls that its lines still have in the
//!     assembly ([`kept_call_share`], [`is_call_charge`]). The callee's own operations stay:
//!     they run, inside the caller. gfortran -O2 inlines the small procedures of a file; a
//!     program of 13 of them called 2.6e8 times kept 5 call instructions and ran in 0.17 s
//!     where its calls alone were charged 0.35.
//! 21. The memory bound (opcost's refinement; issue 27): an innermost loop lasts at least
//!     the time its array references take to stream through the level its data come from.
//!     Each reference moves, an iteration, the bytes its address steps by, a cache line at
//!     most (each step of a line or more fetches a new line), nothing when its address does
//!     not move, and one element when its step is unknown (an indirect subscript)
//!     ([`streamed_bytes`]); the data come from the first level that holds the arrays the
//!     loop walks, by their declared sizes, else from memory, at X-Ray's measured read,
//!     write or copy bandwidth of that level. A transpose of a 32 MiB matrix strides 16 KiB
//!     an access: a new line from memory each time. An adjustable dummy array's extents
//!     (`KEEP(LDK, 0:CAP)`) are the counting run's: their mean over the loop's entries gives
//!     the strides past its first dimension and the bytes it spans. A reference that takes
//!     a line an iteration while the loop around moves it within those lines (the next row
//!     of a column-major array) finds them again at the next entry
//!     ([`reuses_lines_across_entries`]): it streams from the level one entry's lines fit
//!     in, unless they fold onto a few L1 sets ([`lines_fold_in_l1`]).
//! 22. Straight-line code of optimized builds (opcost's refinement): a basic block outside
//!     the loops rule 17 charges lasts at least its machine instructions (one copy of its
//!     lines, where the compiler inlined them in several places) at INST's rate
//!     ([`straight_line_excess`]). The optimizer empties many parameters' tests (their
//!     operations are removed or hoisted out of the timed loop: they measure about nothing),
//!     while the program's own statements keep their instructions.
//! 24. The quadrant branches of SIN and COS (opcost's refinement): the library branches on
//!     its argument's quadrant ([`QUADRANT_BRANCHES`], [`quadrant`]); the counting run feeds
//!     both branches of every watched reference to rule 15's simulated predictor and each
//!     miss costs one BMSN ([`charge_quadrant_misses`]). SINS and SIND are measured at a
//!     fixed point, where these branches never miss. Dynamic only.
//!     24b. A DOUBLE PRECISION SIN or COS whose argument is at least
//!     [`SINE_REDUCED_FROM`] in magnitude costs one SRDD beside its SIND: the library
//!     reduces it by a multiple of a quarter period before its polynomial
//!     ([`charge_reduced_arguments`]); SIND's fixed point (1.497) is below. The counting run
//!     counts such arguments of the watched references. Dynamic only.
//!     24c. Before its quadrant, the library branches on the argument's magnitude
//!     ([`sine_range_outcomes`]): the double routine below 0.85546875, then below
//!     2.426265; the single one below 0.75, then below 120. The counting run feeds those
//!     outcomes to the simulated predictor ahead of the quadrant's, and each miss costs one
//!     BMSN too. Dynamic only.
//! 26. Misses restart a chain (opcost's refinement, builds that do not optimize): gfortran -O0
//!     keeps every IF a branch, and a mispredicted one discards the operations fetched after
//!     it, the loop's chain among them, which start again after the refill; so in a loop
//!     charged by its instructions (rule 17) the recurrence bound (rule 14) is its chain's
//!     latency plus its branch misses ([`is_branch_miss`]), where an optimized build's
//!     overlap them (its IFs may be conditional moves, which rule 15 does not see). A chain
//!     that passes through a watched IF (the condition waits for it, the branches set its
//!     next value) also makes its link again at every miss: the wrong path made it wrong.
//! 27. The DO variable's chain, and restarted chains (opcost's refinement): gfortran -O0 keeps
//!     a DO variable in memory, so every DO loop carries the chain of its increments, one
//!     QDOV an iteration. That chain, and any recurrence whose scalar the assignments just
//!     before the loop set afresh, restarts at every entry; in entries of at most
//!     [`RESTART_TRIPS`] iterations the window runs the chains of the entries it holds side
//!     by side, and the recurrence bound is the chain's latency times the iterations times
//!     I / (I + WIND), I the instructions of one entry ([`restarted_chain_share`]).
//! 29. A DO loop's exit (opcost's refinement): the branch that closes a DO loop is predicted
//!     to end the loop where it ended before; the counting run compares each entry's trip
//!     count of an innermost INTEGER DO loop with the previous entry's, and each change is
//!     one mispredicted exit, BMIS ([`charge_trip_changes`]). Dynamic only.

use crate::catalogue::{DataType, Operation, Param, Precision, StorageClass};
use crate::counts::OpCounts;
use crate::expr::{ArithOp, Expr, Operand, Type, UnaryOp};
use crate::intrinsics::{self, IntrinsicRule};
use crate::program_stats::StepHistogram;

fn storage(global: bool) -> StorageClass {
    if global {
        StorageClass::Global
    } else {
        StorageClass::Local
    }
}

/// The catalogue's (data type, precision) for a Fortran type, if it has parameters.
fn type_class(t: Type) -> Option<(DataType, Precision)> {
    match t {
        Type::Integer | Type::Logical => Some((DataType::Integer, Precision::Single)),
        Type::Real => Some((DataType::Real, Precision::Single)),
        Type::Double => Some((DataType::Real, Precision::Double)),
        Type::Complex | Type::DoubleComplex | Type::Character => None,
    }
}

/// Whether values of type `t` are counted with parameters (complex ones by their parts).
fn has_parameters(t: Type) -> bool {
    type_class(t).is_some() || t.complex_part().is_some()
}

/// Rule 13a: the real operations gfortran compiles one complex operation into (its default
/// `-fcx-fortran-rules`: inline, no NaN recovery; a division is Smith's algorithm, one branch
/// taken), as (operation, how many); None for operations it leaves to the library (powers).
fn complex_operations(op: Operation) -> Option<&'static [(Operation, u64)]> {
    use Operation as O;
    Some(match op {
        O::Add => &[(O::Add, 2)],
        O::Multiply => &[(O::Multiply, 4), (O::Add, 2)],
        O::Divide => &[
            (O::Divide, 3),
            (O::Multiply, 3),
            (O::Add, 3),
            (O::Compare, 1),
        ],
        O::Store => &[(O::Store, 2)],
        O::MemoryTransfer => &[(O::MemoryTransfer, 2)],
        O::Compare => &[(O::Compare, 2)],
        _ => return None,
    })
}

/// Rule 13a on a chain (rule 14): the latencies from an operand of one complex operation to
/// its result: a multiplication's products feed an addition, a division's quotient (Smith's
/// ratio) a multiplication and an addition first; the two parts go in parallel.
fn complex_latencies(op: Operation) -> &'static [Operation] {
    use Operation as O;
    match op {
        O::Add => &[O::Add],
        O::Multiply => &[O::Multiply, O::Add],
        O::Divide => &[O::Divide, O::Multiply, O::Add],
        O::MemoryTransfer => &[O::MemoryTransfer],
        _ => &[],
    }
}

fn type_word(t: Type) -> &'static str {
    match t {
        Type::Complex => "complex",
        Type::DoubleComplex => "double complex",
        Type::Character => "character",
        Type::Logical => "logical",
        Type::Integer => "integer",
        Type::Real => "real",
        Type::Double => "double",
    }
}

/// Add one operation `op` on type `t`; uncharacterized when the catalogue has no parameter.
fn add_op(c: &mut OpCounts, op: Operation, t: Type, global: bool) {
    if let (Some(part), Some(ops)) = (t.complex_part(), complex_operations(op)) {
        for &(real_op, n) in ops {
            for _ in 0..n {
                add_op(c, real_op, part, global);
            }
        }
        return;
    }
    let found = type_class(t).and_then(|(dt, prec)| Param::lookup(op, dt, prec, storage(global)));
    match found {
        Some(p) => c.add(p, 1),
        None => c.add_uncharacterized(&format!("{} {}", type_word(t), op.label()), 1),
    }
}

fn is_global_leaf(e: &Expr) -> bool {
    e.operand().is_some_and(|o| o.global)
}

/// The ARRn parameter for an array of `rank` dimensions.
pub fn array_param(rank: usize) -> Param {
    match rank {
        1 => Param::ARR1,
        2 => Param::ARR2,
        3 => Param::ARR3,
        4 => Param::ARR4,
        _ => Param::ARRN,
    }
}

/// The argument-load parameter for an argument of type `t` (rule 8).
pub fn argument_param(t: Type) -> Option<Param> {
    match t {
        Type::Real => Some(Param::AGRS),
        Type::Double => Some(Param::AGRD),
        Type::Integer | Type::Logical => Some(Param::AGIS),
        // An address like any other (rule 13a).
        Type::Complex => Some(Param::AGRS),
        Type::DoubleComplex => Some(Param::AGRD),
        // Rule 13c: an address too, its length passed by value beside it.
        Type::Character => Some(Param::AGIS),
    }
}

/// Rule 7: a compare, or compares joined by logical operators (and negated).
fn joins_compares(e: &Expr) -> bool {
    match e {
        Expr::Compare { .. } => true,
        Expr::Logic { lhs, rhs, .. } => joins_compares(lhs) && joins_compares(rhs),
        Expr::Paren(x) => joins_compares(x),
        Expr::Unary {
            op: UnaryOp::Not,
            operand,
        } => joins_compares(operand),
        _ => false,
    }
}

/// Rule 3: an integer division by a compile-time constant is one integer multiplication
/// (GCC turns it into a multiply and shifts even at -O0; real division by a constant stays a
/// division, since rounding forbids the rewrite).
fn division_operation(t: Type, divisor: &Expr) -> Operation {
    if t == Type::Integer && divisor.is_constant() {
        Operation::Multiply
    } else {
        Operation::Divide
    }
}

/// Rule 14: the latency of an integer division or MOD on a chain, `by_constant`
/// (`DivideByConstant` or `RemainderByConstant`) when the divisor is a compile-time constant,
/// else a division. By a constant it is not one multiplication's latency, as rule 3 counts
/// its throughput: gfortran -O0's sequence (multiply high, shifts, a sign correction; for MOD
/// the quotient stored, reloaded, multiplied back and subtracted) is a chain of its own. Measured on this Zen 4 (gfortran
/// -O0, a link of `J = J / 3`, `J = MOD(J, 65521)`, `J = J * N`): 2.1, 4.4 and 1.1 ns; smith's
/// `IHASH = MOD(3*IHASH + I*I - I/3, 65521)` ran at 5.9 ns an iteration, charged 1.7 as a
/// multiplication.
fn chain_division_operation(t: Type, divisor: &Expr, by_constant: Operation) -> Operation {
    match division_operation(t, divisor) {
        Operation::Multiply => by_constant,
        op => op,
    }
}

/// Rule 4: which power a `base ** exponent` is.
fn power_operation(base: &Expr, exponent: &Expr) -> Operation {
    match (base.ty(), exponent.ty()) {
        (Type::Integer, Type::Integer) => {
            let two =
                matches!(exponent.unparen(), Expr::Constant { text, .. } if text.trim() == "2");
            if two {
                Operation::PowerInteger
            } else {
                Operation::PowerGeneral
            }
        }
        (_, Type::Integer) => Operation::PowerInteger,
        _ => Operation::PowerGeneral,
    }
}

/// The counts of evaluating an expression (rules 2-9).
pub fn count_expr(e: &Expr) -> OpCounts {
    let mut c = OpCounts::new();
    expr_into(e, false, &mut c);
    c
}

fn expr_into(e: &Expr, in_subscript: bool, c: &mut OpCounts) {
    match e {
        Expr::Constant { .. } => {}
        Expr::Variable(o) => dummy_into(o, c),
        Expr::Element { array, subscripts } => element_into(array, subscripts, c),
        Expr::Opaque { kind, parts, .. } if kind == SUBSTRING && parts.len() == 3 => {
            substring_into(parts, c)
        }
        Expr::Opaque { kind, parts, .. } => {
            c.add_uncharacterized(kind, 1);
            for p in parts {
                expr_into(p, in_subscript, c);
            }
        }
        Expr::Paren(inner) => expr_into(inner, in_subscript, c),
        Expr::Unary { op, operand } => {
            expr_into(operand, in_subscript, c);
            match op {
                UnaryOp::Plus => {}
                UnaryOp::Neg if operand.is_constant() => {}
                UnaryOp::Neg if in_subscript && operand.ty() == Type::Integer => {
                    c.add(Param::IADD, 1)
                }
                UnaryOp::Neg => add_op(c, Operation::Add, operand.ty(), is_global_leaf(operand)),
                UnaryOp::Not => {}
            }
        }
        Expr::Arith { op, lhs, rhs } => {
            expr_into(lhs, in_subscript, c);
            expr_into(rhs, in_subscript, c);
            if e.is_constant() {
                return; // folded by the compiler
            }
            let global = is_global_leaf(lhs) || is_global_leaf(rhs);
            let t = Type::promote(lhs.ty(), rhs.ty());
            match op {
                ArithOp::Concat => c.add(Param::CHCC, 1),
                ArithOp::Add | ArithOp::Sub if in_subscript && t == Type::Integer => {
                    c.add(Param::IADD, 1)
                }
                ArithOp::Add | ArithOp::Sub => add_op(c, Operation::Add, t, global),
                ArithOp::Mul => add_op(c, Operation::Multiply, t, global),
                ArithOp::Div => add_op(c, division_operation(t, rhs), t, global),
                ArithOp::Pow => add_op(c, power_operation(lhs, rhs), t, global),
            }
        }
        Expr::Compare { lhs, rhs, .. } => {
            expr_into(lhs, in_subscript, c);
            expr_into(rhs, in_subscript, c);
            let global = is_global_leaf(lhs) || is_global_leaf(rhs);
            match Type::promote(lhs.ty(), rhs.ty()) {
                Type::Character if !(one_character(lhs) && one_character(rhs)) => {
                    c.add(Param::CHCM, 1)
                }
                // Rule 13c: two single characters are compared as bytes, inline.
                Type::Character => add_op(c, Operation::Compare, Type::Integer, global),
                t => add_op(c, Operation::Compare, t, global),
            }
        }
        Expr::Logic { lhs, rhs, .. } => {
            expr_into(lhs, in_subscript, c);
            expr_into(rhs, in_subscript, c);
            // Rule 7: a join of compares is their own branches.
            if !(joins_compares(lhs) && joins_compares(rhs)) {
                logic_into(c, is_global_leaf(lhs) || is_global_leaf(rhs));
            }
        }
        Expr::Intrinsic { name, args } => {
            for a in args {
                expr_into(a, in_subscript, c);
            }
            intrinsic_into(name, args, e.ty(), c);
        }
        Expr::Call { args, .. } => {
            c.add(Param::PROC, 1);
            for a in args {
                argument_into(a, c);
            }
        }
    }
}

fn logic_into(c: &mut OpCounts, global: bool) {
    c.add(if global { Param::ANDG } else { Param::ANDL }, 1);
}

/// Rule 16: a use of a dummy argument's value loads the caller's address first.
fn dummy_into(o: &Operand, c: &mut OpCounts) {
    if o.dummy {
        c.add(Param::DUMA, 1);
    }
}

fn element_into(array: &Operand, subscripts: &[Expr], c: &mut OpCounts) {
    for s in subscripts {
        expr_into(s, true, c);
    }
    if !subscripts.iter().all(Expr::is_constant) {
        c.add(array_param(subscripts.len()), 1);
    }
    dummy_into(array, c);
}

fn intrinsic_into(name: &str, args: &[Expr], result: Type, c: &mut OpCounts) {
    let arg_type = args.first().map(Expr::ty).unwrap_or(result);
    let global = args.iter().any(is_global_leaf);
    match intrinsics::rule_for(name, arg_type) {
        Some(IntrinsicRule::Free) => {}
        Some(IntrinsicRule::Library(op)) => {
            let p = match library_argument(op, arg_type) {
                Type::Real => {
                    Param::lookup(op, DataType::Real, Precision::Single, StorageClass::Local)
                }
                Type::Double => {
                    Param::lookup(op, DataType::Real, Precision::Double, StorageClass::Local)
                }
                _ => None,
            };
            match p {
                Some(p) => c.add(p, 1),
                None => c.add_uncharacterized(
                    &format!(
                        "intrinsic {} ({})",
                        name.to_ascii_uppercase(),
                        type_word(arg_type)
                    ),
                    1,
                ),
            }
        }
        Some(IntrinsicRule::Arithmetic { op, per_extra_arg }) => {
            let n = if per_extra_arg {
                args.len().saturating_sub(1).max(1)
            } else {
                1
            };
            let t = args
                .iter()
                .map(Expr::ty)
                .reduce(Type::promote)
                .unwrap_or(result);
            // MOD of reals is the library's fmod (rule 9).
            if let (Operation::Divide, Some(fmod)) = (op, real_remainder(t)) {
                c.add(fmod, 1);
                return;
            }
            // MOD by a constant is a division by a constant (rule 3).
            let op = match (op, args.get(1)) {
                (Operation::Divide, Some(divisor)) => division_operation(t, divisor),
                _ => op,
            };
            for _ in 0..n {
                add_op(c, op, t, global);
            }
        }
        Some(IntrinsicRule::StringCompare) => c.add(Param::CHCM, 1),
        Some(IntrinsicRule::StringSearch) => {
            c.add(Param::INDX, 1);
            c.add_uncharacterized(INDEX_SCAN, 1);
        }
        Some(IntrinsicRule::Conversion) => match conversion(arg_type, result) {
            Some(true) => c.add(Param::CNVT, 1),
            Some(false) => {}
            None => c.add_uncharacterized(&format!("intrinsic {}", name.to_ascii_uppercase()), 1),
        },
        Some(IntrinsicRule::Conjugate) => {
            add_op(c, Operation::Add, conjugated_part(arg_type), global)
        }
        Some(IntrinsicRule::Uncharacterized) | None => {
            c.add_uncharacterized(&format!("intrinsic {}", name.to_ascii_uppercase()), 1)
        }
    }
}

/// Rule 25: whether converting a value of type `from` to `to` is an instruction (integer,
/// REAL and DOUBLE PRECISION apart), nothing (the same type), or None (a non-numeric value,
/// which has no parameter). A complex `from` is its real part (rule 13a).
pub fn conversion(from: Type, to: Type) -> Option<bool> {
    // Rule 13a: of a complex, the real part is taken (a load of that part) and converted.
    let from = from.complex_part().unwrap_or(from);
    let numeric = |t: Type| matches!(t, Type::Integer | Type::Real | Type::Double);
    (numeric(from) && numeric(to)).then_some(from != to)
}

/// The precision a library intrinsic is counted in: its argument's, for CABS the parts' of
/// its complex argument (rule 13a). Other functions of a complex argument (EXP of a complex)
/// have no parameter.
fn library_argument(op: Operation, arg: Type) -> Type {
    match (op, arg.complex_part()) {
        (Operation::ComplexAbs, Some(part)) => part,
        _ => arg,
    }
}

/// Rule 9: MOD of REAL or DOUBLE PRECISION operands is a call of the library's fmod, not a
/// division: MODS or MODD, whatever the operands' storage (gfortran -O0 and -O2 both call
/// fmod; on this Zen 4 it took 7 ns at a quotient below 2, 17 ns at 2^16 and 2.5-3 ns more per
/// bit of quotient beyond, against 1.1 ns for a division).
pub fn real_remainder(t: Type) -> Option<Param> {
    match t {
        Type::Real => Some(Param::MODS),
        Type::Double => Some(Param::MODD),
        _ => None,
    }
}

/// Rule 9b: the average steps of fmod in MODD's test, whose quotients spread evenly over
/// [0.5, 4100) (`X = MOD(X * 4099.37 + 0.5, 1)`): half have 11 bits, a quarter 10, and so on,
/// 10.0 steps in all. fmod's time grows by about the same for each step past these (3.0 ns on
/// the Intel host from 2^12 to 2^24; 2.5-3 ns on Zen 4).
pub const REMAINDER_TEST_STEPS: u32 = 10;

/// Rule 9b: the shift-and-subtract steps of glibc's fmod for `x` and `y` (glibc 2.36
/// `e_fmod.c`: `ilogb(x) - ilogb(y)` of them; none when `|x| < |y|`, which it returns as it
/// is, or for a zero, infinite or NaN operand, which it settles before the loop).
pub fn remainder_steps(x: f64, y: f64) -> u32 {
    let ilogb = |v: f64| {
        let bits = (v.abs().to_bits() >> 52) as i32;
        match bits {
            0 => v.abs().log2().floor() as i32,
            _ => bits - 1023,
        }
    };
    if !x.is_finite() || !y.is_finite() || x == 0.0 || y == 0.0 || x.abs() < y.abs() {
        return 0;
    }
    (ilogb(x) - ilogb(y)).max(0) as u32
}

/// Rule 9b: a statement with dynamic counts `c` whose DOUBLE PRECISION MOD references took
/// `steps` steps in the counting run: one MQBD for each beyond [`REMAINDER_TEST_STEPS`] a
/// call (its MODD), none when they took fewer (MODD then covers them).
pub fn charge_remainder_steps(c: &mut OpCounts, steps: u64) {
    let covered = u64::from(REMAINDER_TEST_STEPS).saturating_mul(c.get(Param::MODD));
    c.add(Param::MQBD, steps.saturating_sub(covered));
}

/// One actual argument of a CALL or function reference (rule 8).
fn argument_into(a: &Expr, c: &mut OpCounts) {
    // A variable or whole array is passed by its address (a dummy's is passed on: rule 16).
    if !matches!(a.unparen(), Expr::Variable(_)) {
        expr_into(a, false, c);
    }
    let t = a.ty();
    match argument_param(t) {
        Some(p) => c.add(p, 1),
        None => c.add_uncharacterized(&format!("{} argument", type_word(t)), 1),
    }
}

/// Rules 1 and 18: `target = value` inside a DO loop over `loop_var` with step 1 (the
/// innermost loop around it; `None` outside one, or in one with another step).
pub fn count_assignment_in(target: &Expr, value: &Expr, loop_var: Option<&str>) -> OpCounts {
    let mut c = count_assignment(target, value);
    if loop_var.is_some_and(|v| constant_stream(target, value, v)) {
        c.add(Param::CSTA, 1);
    }
    c
}

/// Rule 1: `target = value`. `target` is a variable or an array element.
pub fn count_assignment(target: &Expr, value: &Expr) -> OpCounts {
    let mut c = OpCounts::new();
    // Address computations of the target.
    match target.unparen() {
        Expr::Element { array, subscripts } => element_into(array, subscripts, &mut c),
        Expr::Variable(o) => dummy_into(o, &mut c),
        _ => {}
    }
    let t = target.ty();
    let target_global = is_global_leaf(target);
    if t == Type::Character {
        character_assignment_into(target, value, target_global, &mut c);
        return c;
    }
    let plain = matches!(
        value.unparen(),
        Expr::Constant { .. } | Expr::Variable(_) | Expr::Element { .. }
    ) || value.is_constant();
    if plain {
        expr_into(value, false, &mut c);
        let global = target_global || is_global_leaf(value);
        if has_parameters(t) {
            add_op(&mut c, Operation::MemoryTransfer, t, global);
        } else {
            c.add_uncharacterized(&format!("{} assignment", type_word(t)), 1);
        }
    } else {
        expr_into(value, false, &mut c);
        if has_parameters(t) {
            add_op(&mut c, Operation::Store, t, target_global);
        } else {
            c.add_uncharacterized(&format!("{} assignment", type_word(t)), 1);
        }
    }
    c
}

/// Rule 13c: the kind of the [`Expr::Opaque`] that is a substring `base(first:last)`, its
/// parts `[base, first, last]` (an omitted `first` is 1, an omitted `last` `LEN(base)`).
pub const SUBSTRING: &str = "character substring";

/// `base(first:last)` as the vocabulary holds it ([`SUBSTRING`]).
pub fn substring(base: Expr, first: Option<Expr>, last: Option<Expr>) -> Expr {
    let first = first.unwrap_or_else(|| Expr::int(1));
    let last = last.unwrap_or_else(|| Expr::intrinsic("LEN", vec![base.clone()]));
    Expr::Opaque {
        kind: SUBSTRING.into(),
        ty: Type::Character,
        parts: vec![base, first, last],
    }
}

/// Rule 13c: the characters of a character value when the compiler knows them: a literal's,
/// a `CHARACTER*n` datum's, a substring's whose bounds are the same expression (one) or
/// constants, CHAR's (one), a concatenation's of known parts. None otherwise.
pub fn character_length(e: &Expr) -> Option<u64> {
    match e.unparen() {
        Expr::Constant {
            text,
            ty: Type::Character,
        } => literal_length(text),
        Expr::Variable(o) | Expr::Element { array: o, .. } => o.length.map(u64::from),
        Expr::Opaque { kind, parts, .. } if kind == SUBSTRING => match parts.as_slice() {
            [_, first, last] if first == last => Some(1),
            [_, first, last] => {
                let (first, last) = (integer_literal(first)?, integer_literal(last)?);
                u64::try_from(last - first + 1).ok().filter(|&n| n > 0)
            }
            _ => None,
        },
        Expr::Intrinsic { name, .. } if name.eq_ignore_ascii_case("CHAR") => Some(1),
        Expr::Arith {
            op: ArithOp::Concat,
            lhs,
            rhs,
        } => Some(character_length(lhs)? + character_length(rhs)?),
        _ => None,
    }
}

/// Whether `e` is one character whose length the compiler knows (rule 13c).
fn one_character(e: &Expr) -> bool {
    character_length(e) == Some(1)
}

/// The characters of a character literal's text (`'IT''S'` has four).
fn literal_length(text: &str) -> Option<u64> {
    let quote = text.chars().next().filter(|&q| q == '\'' || q == '"')?;
    let inner = text.strip_prefix(quote)?.strip_suffix(quote)?;
    let doubled = format!("{quote}{quote}");
    Some(inner.replace(&doubled, "x").chars().count() as u64)
}

/// The value of an integer literal (a PARAMETER name is not one).
fn integer_literal(e: &Expr) -> Option<i64> {
    match e.unparen() {
        Expr::Constant {
            text,
            ty: Type::Integer,
        } => text.parse().ok(),
        _ => None,
    }
}

/// Rule 13c: a substring's address, `base + first - 1`, is computed as a one-dimensional
/// element's is (ARR1), unless both bounds are constants (folded); its length, `last - first
/// + 1`, goes in the same instructions.
fn substring_into(parts: &[Expr], c: &mut OpCounts) {
    expr_into(&parts[0], false, c);
    for bound in &parts[1..] {
        expr_into(bound, true, c);
    }
    if !parts[1..].iter().all(Expr::is_constant) {
        c.add(Param::ARR1, 1);
    }
}

/// Rule 13c: `target = value` for a character target. One character into one character is a
/// byte loaded and stored, as an integer is moved; a concatenation's move is part of its
/// CHCC (rule 13b); any other is a CHAS (memmove, and memset to pad).
fn character_assignment_into(target: &Expr, value: &Expr, target_global: bool, c: &mut OpCounts) {
    expr_into(value, false, c);
    let global = target_global || is_global_leaf(value);
    if one_character(target) && one_character(value) {
        let moved = matches!(
            value.unparen(),
            Expr::Constant { .. } | Expr::Variable(_) | Expr::Element { .. } | Expr::Opaque { .. }
        );
        let op = if moved {
            Operation::MemoryTransfer
        } else {
            Operation::Store
        };
        add_op(c, op, Type::Integer, global);
    } else if !matches!(
        value.unparen(),
        Expr::Arith {
            op: ArithOp::Concat,
            ..
        }
    ) {
        c.add(Param::CHAS, 1);
    }
}

/// Rule 7: an IF, ELSE IF or DO WHILE condition.
pub fn count_condition(cond: &Expr) -> OpCounts {
    count_expr(cond)
}

/// Rule 8: `CALL name(args)`.
pub fn count_call(args: &[Expr]) -> OpCounts {
    let mut c = OpCounts::one(Param::PROC);
    for a in args {
        argument_into(a, &mut c);
    }
    c
}

/// Rule 10: unconditional GO TO.
pub fn count_goto() -> OpCounts {
    OpCounts::one(Param::GOTO)
}

/// Rule 10: computed GO TO (`index` is its integer expression), assigned GO TO (`None`) or
/// arithmetic IF (`index` is the tested expression).
pub fn count_multiway_branch(index: Option<&Expr>) -> OpCounts {
    let mut c = index.map(count_expr).unwrap_or_default();
    c.add(Param::GCOM, 1);
    c
}

/// Rule 10: `ASSIGN label TO var`.
pub fn count_assign_label(var: &Operand) -> OpCounts {
    let mut c = OpCounts::new();
    add_op(&mut c, Operation::MemoryTransfer, Type::Integer, var.global);
    dummy_into(var, &mut c);
    c
}

/// Whether a DO step counts as step one (rule 11): absent, or the literal 1.
pub fn is_unit_step(step: Option<&Expr>) -> bool {
    match step.map(Expr::unparen) {
        None => true,
        Some(Expr::Constant {
            text,
            ty: Type::Integer,
        }) => text.trim() == "1",
        _ => false,
    }
}

/// Rule 11: entering a DO loop (once per execution of the DO statement).
pub fn count_do_entry(unit_step: bool, bounds: &[&Expr]) -> OpCounts {
    let mut c = OpCounts::one(if unit_step { Param::LOIN } else { Param::LOIX });
    for b in bounds {
        c += &count_expr(b);
    }
    c
}

/// Rule 11: one iteration of a DO loop.
pub fn count_do_iteration(unit_step: bool) -> OpCounts {
    OpCounts::one(if unit_step { Param::LOOV } else { Param::LOOX })
}

/// Rule 11: one iteration of a DO WHILE loop (the back jump; the condition is counted per test
/// with [`count_condition`]).
pub fn count_do_while_iteration() -> OpCounts {
    count_goto()
}

/// Rule 13: an I/O statement (READ, WRITE, PRINT, OPEN, CLOSE, REWIND, INQUIRE, ...).
pub fn count_io(keyword: &str) -> OpCounts {
    let mut c = OpCounts::new();
    c.add_uncharacterized(
        &format!("I/O statement {}", keyword.to_ascii_uppercase()),
        1,
    );
    c
}

/// The latency parameter of operation `op` on values of type `t` (rule 14).
fn latency_param(op: Operation, t: Type) -> Option<Param> {
    type_class(t).and_then(|(dt, prec)| Param::latency(op, dt, prec))
}

/// The latency counts of operation `op` on type `t` on a chain (rule 14; complex: rule 13a).
fn latency_counts(op: Operation, t: Type) -> OpCounts {
    let mut c = OpCounts::new();
    match t.complex_part() {
        Some(part) => {
            for &real_op in complex_latencies(op) {
                if let Some(p) = latency_param(real_op, part) {
                    c.add(p, 1);
                }
            }
        }
        None => {
            if let Some(p) = latency_param(op, t) {
                c.add(p, 1);
            }
        }
    }
    c
}

/// Latency counts along the longest operator path from an occurrence of scalar `from` to the
/// root of `e`; None when `from` does not occur in it.
fn path_latency(e: &Expr, from: &str) -> Option<OpCounts> {
    let deepest = |parts: Vec<Option<OpCounts>>| -> Option<OpCounts> {
        parts
            .into_iter()
            .flatten()
            .max_by_key(|c| c.total_characterized())
    };
    let mut c = match e {
        Expr::Variable(o) => {
            return (o.name.eq_ignore_ascii_case(from)).then(OpCounts::new);
        }
        Expr::Element { subscripts, .. } => {
            // An element is the chain's start when it is the one named (a fixed location is
            // like a scalar; a moving one starts a chain inside an iteration).
            if e.to_string().eq_ignore_ascii_case(from) {
                return Some(OpCounts::new());
            }
            // Rule 14c: an element whose subscript is on the chain is loaded once its
            // address is known.
            let mut c = deepest(subscripts.iter().map(|s| path_latency(s, from)).collect())?;
            c.add(Param::QADR, 1);
            c.uncharacterized.clear();
            return Some(c);
        }
        Expr::Constant { .. } | Expr::Opaque { .. } => return None,
        Expr::Compare { .. } | Expr::Logic { .. } | Expr::Call { .. } => return None,
        Expr::Paren(inner) => return path_latency(inner, from),
        Expr::Unary { op, operand } => {
            let mut c = path_latency(operand, from)?;
            if *op == UnaryOp::Neg {
                c += &negation_link(operand.ty());
            }
            return Some(c);
        }
        Expr::Arith { op, lhs, rhs } => {
            let below = deepest(vec![path_latency(lhs, from), path_latency(rhs, from)])?;
            let t = Type::promote(lhs.ty(), rhs.ty());
            let operation = match op {
                ArithOp::Add | ArithOp::Sub => Some(Operation::Add),
                ArithOp::Mul => Some(Operation::Multiply),
                ArithOp::Div => Some(chain_division_operation(
                    t,
                    rhs,
                    Operation::DivideByConstant,
                )),
                ArithOp::Pow => Some(power_operation(lhs, rhs)),
                ArithOp::Concat => None,
            };
            let mut c = below;
            if let Some(o) = operation {
                c += &latency_counts(in_register(o, t), t);
            }
            c
        }
        Expr::Intrinsic { name, args } => {
            let arg_type = args.first().map(Expr::ty).unwrap_or(Type::Real);
            let rule = intrinsics::rule_for(name, arg_type);
            if let Some(IntrinsicRule::Arithmetic {
                op: Operation::Compare,
                ..
            }) = rule
            {
                return min_max_latency(args, e.ty(), from);
            }
            let below = deepest(args.iter().map(|a| path_latency(a, from)).collect())?;
            let mut c = below;
            match rule {
                Some(IntrinsicRule::Library(op)) => {
                    c += &latency_counts(op, library_argument(op, arg_type))
                }
                Some(IntrinsicRule::Arithmetic { op, .. }) => {
                    // MOD by a constant has its own latency on a chain (rule 14); MOD of
                    // reals is fmod's (rule 9).
                    let op = match (op, args.get(1)) {
                        (Operation::Divide, _) if real_remainder(e.ty()).is_some() => {
                            Operation::Remainder
                        }
                        (Operation::Divide, Some(divisor)) => chain_division_operation(
                            e.ty(),
                            divisor,
                            Operation::RemainderByConstant,
                        ),
                        _ => op,
                    };
                    c += &latency_counts(op, e.ty())
                }
                Some(IntrinsicRule::Conversion) if conversion(arg_type, e.ty()) == Some(true) => {
                    c.add(Param::QCNV, 1)
                }
                Some(IntrinsicRule::Conjugate) => c += &negation_link(conjugated_part(arg_type)),
                _ => {}
            }
            c
        }
    };
    c.uncharacterized.clear();
    Some(c)
}

/// Rule 14e: the latency from `from` through MIN or MAX of `args` to its result. gfortran -O0
/// folds the arguments left to right, one compare-and-select (QMX…, by the result's type)
/// per argument after the first, so a value in argument k (1-based) waits for
/// `args.len() - max(k, 2) + 1` of them; the longest path over the arguments counts.
fn min_max_latency(args: &[Expr], ty: Type, from: &str) -> Option<OpCounts> {
    let link = latency_counts(Operation::MinMax, ty);
    let n = args.len();
    let mut c = args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            let mut c = path_latency(a, from)?;
            c += &link.scaled((n + 1).saturating_sub((i + 1).max(2)) as u64);
            Some(c)
        })
        .max_by_key(|c| c.total_characterized())?;
    c.uncharacterized.clear();
    Some(c)
}

/// Rule 14d: an integer addition inside an expression is computed in a register (QAIR); only
/// the addition of `X = X ± Y` into a local scalar X is made in memory (QAIS, QAIC, see
/// [`in_place_addition`]).
/// Rule 5 on a chain: a unary minus of type `t` is one link of an addition in a register.
fn negation_link(t: Type) -> OpCounts {
    latency_counts(in_register(Operation::Add, t), t)
}

/// Rule 13a: the part CONJG negates, of the precision of its complex argument.
fn conjugated_part(arg: Type) -> Type {
    arg.complex_part().unwrap_or(arg)
}

fn in_register(op: Operation, t: Type) -> Operation {
    match latency_param(Operation::AddInRegister, t) {
        Some(_) if op == Operation::Add => Operation::AddInRegister,
        _ => op,
    }
}

/// Rule 14d: the parameter of `target = value` when gfortran -O0 adds into the target's memory
/// (`addl %eax, X` or `addl $1, X`): the target a local INTEGER scalar (not in COMMON, not a
/// dummy argument, whose values go through a load and a store) and the value `X + Y`, `Y + X`
/// or `X - Y`. QAIC when Y is a constant, QAIS otherwise; None for any other statement.
fn in_place_addition<'a>(target: &Expr, value: &'a Expr) -> Option<(Param, &'a Expr)> {
    let Expr::Variable(x) = target.unparen() else {
        return None;
    };
    // An element (also one the recurrence finder carries as a scalar) is loaded, added to in
    // a register and stored.
    if x.global || x.dummy || is_element(target) {
        return None;
    }
    if latency_param(Operation::Add, x.ty) != Some(Param::QAIS) {
        return None;
    }
    let Expr::Arith { op, lhs, rhs } = value.unparen() else {
        return None;
    };
    let is_x =
        |e: &Expr| matches!(e.unparen(), Expr::Variable(o) if o.name.eq_ignore_ascii_case(&x.name));
    let other = match op {
        ArithOp::Add if is_x(lhs) => rhs,
        ArithOp::Add if is_x(rhs) => lhs,
        ArithOp::Sub if is_x(lhs) => rhs,
        _ => return None,
    };
    let p = if other.is_constant() {
        Param::QAIC
    } else {
        Param::QAIS
    };
    Some((p, other.as_ref()))
}

/// Rule 14: the latency counts of the dependence from scalar `from` through the assignment
/// `target = value` to the next reader of `target`; None when `value` does not read `from`.
pub fn chain_latency(target: &Expr, value: &Expr, from: &str) -> Option<OpCounts> {
    let mut c = match in_place_addition(target, value) {
        Some((p, other)) => {
            let through_target = target
                .to_string()
                .eq_ignore_ascii_case(from)
                .then(OpCounts::new);
            let mut c = [through_target, path_latency(other, from)]
                .into_iter()
                .flatten()
                .max_by_key(|c| c.total_characterized())?;
            c.add(p, 1);
            c
        }
        None => path_latency(value, from)?,
    };
    c += &transfer_latency(target);
    Some(c)
}

/// Rule 14g: the latency counts of the dependence from scalar `from` to `target` when an
/// optimizing compiler turns `IF (condition) target = value` into a conditional move: the
/// selected value waits for the value (`from` on its path), for the condition (each compare
/// that reads `from`) and for the target's old value, the other choice, and then for the
/// select. A compare runs on the adder of its operands' type (`ucomiss`, `cmp`: one addition
/// in a register, QARS/QARD/QAIR), the select is one more of the target's type (`cmov`,
/// `blendvps`). None when none of them reads `from`. livermore's `IF (X(K) .LT. X(M)) M = K`
/// makes M wait for the load of X(M), the compare and the `cmov` at every iteration.
pub fn selected_latency(
    target: &Expr,
    value: &Expr,
    condition: &Expr,
    from: &str,
) -> Option<OpCounts> {
    let old_value = target
        .to_string()
        .eq_ignore_ascii_case(from)
        .then(OpCounts::new);
    let mut c = [
        path_latency(value, from),
        old_value,
        compare_latency(condition, from),
    ]
    .into_iter()
    .flatten()
    .max_by_key(|c| c.total_characterized())?;
    c += &register_addition(target.ty());
    c += &transfer_latency(target);
    c.uncharacterized.clear();
    Some(c)
}

/// Rule 14g: one addition in a register of type `t` (a compare's or a select's link).
fn register_addition(t: Type) -> OpCounts {
    latency_counts(in_register(Operation::Add, t), t)
}

/// Rule 14g: the longest latency from `from` through one compare of `condition` (relations
/// joined by .AND., .OR., .NOT.) to its outcome: the compared operand's path plus one
/// addition of their type.
fn compare_latency(condition: &Expr, from: &str) -> Option<OpCounts> {
    match condition.unparen() {
        Expr::Compare { lhs, rhs, .. } => {
            let mut c = [path_latency(lhs, from), path_latency(rhs, from)]
                .into_iter()
                .flatten()
                .max_by_key(|c| c.total_characterized())?;
            c += &register_addition(Type::promote(lhs.ty(), rhs.ty()));
            Some(c)
        }
        Expr::Logic { lhs, rhs, .. } => [compare_latency(lhs, from), compare_latency(rhs, from)]
            .into_iter()
            .flatten()
            .max_by_key(|c| c.total_characterized()),
        Expr::Unary { operand, .. } => compare_latency(operand, from),
        _ => None,
    }
}

/// The forwarding of `target`'s stored value to the chain's next load (rule 14): one QT… by
/// its type, and for an integer array element one QTEI instead (rule 14f: a core that renames
/// a scalar's store and reload in the frame still forwards an element through the store
/// queue; measured on the Intel host, a ring of integer scalars 0.2 ns a link, of elements
/// `NE(M2) = NE(M1)` 1.6 ns).
fn transfer_latency(target: &Expr) -> OpCounts {
    let element = latency_counts(Operation::ElementTransfer, target.ty());
    if is_element(target) && !element.is_empty() {
        element
    } else {
        latency_counts(Operation::MemoryTransfer, target.ty())
    }
}

/// Whether `e` is an array element: a reference, or the scalar the recurrence finder hands a
/// carried element over as, named by its reference (`D(J)`, `E(1)`).
fn is_element(e: &Expr) -> bool {
    match e.unparen() {
        Expr::Element { .. } => true,
        Expr::Variable(o) => o.name.contains('('),
        _ => false,
    }
}

/// Rule 14b: what a chain waits for a REAL or DOUBLE PRECISION function's result on its way
/// back to the reference (QFRS, QFRD); nothing for other types (an integer result comes back
/// in the register it was computed in).
pub fn function_result_latency(t: Type) -> OpCounts {
    let mut c = OpCounts::new();
    if let Some(p) = latency_param(Operation::FunctionResult, t) {
        c.add(p, 1);
    }
    c
}

/// Rule 18: an array larger than this many bytes is "large": a local one is static at -O0
/// (gfortran's default `-fmax-stack-var-size`) and a stream through it leaves the L1 cache.
pub const LARGE_ARRAY_BYTES: u64 = 64 * 1024;

/// Rule 18: whether `target = value`, in a DO loop over `loop_var` with step 1, streams an
/// integer or logical constant through a large array (first subscript the loop variable).
fn constant_stream(target: &Expr, value: &Expr, loop_var: &str) -> bool {
    let Expr::Element { array, subscripts } = target.unparen() else {
        return false;
    };
    let streams = matches!(subscripts.first().map(Expr::unparen), Some(Expr::Variable(v)) if v.name == loop_var);
    array.large
        && !array.dummy
        && streams
        && matches!(target.ty(), Type::Integer | Type::Logical)
        && value.is_constant()
}

/// How an operation of an innermost loop is charged when the loop is charged by its
/// instructions (rule 17).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopCharge {
    /// Its instructions are among the loop's and issue with them: INST covers it.
    Issued,
    /// It keeps a unit busy longer than its instructions take to issue (a division or a
    /// square root): the loop lasts at least the sum of these.
    Unit,
    /// Time the issue does not hide: a mispredicted branch refills the pipeline, a library
    /// function (powers with a real exponent, EXP, LOG, SIN, TAN, fmod, hypot, INDEX's
    /// search) runs code outside the loop's lines. Added to the loop's issue time.
    Event,
}

/// Whether `op` is a mispredicted branch (rule 15's IFs, rule 24's quadrants): at -O0 it
/// flushes the operations of a loop's chain that follow it, which wait for the refill.
pub fn is_branch_miss(op: Operation) -> bool {
    matches!(
        op,
        Operation::BranchMiss | Operation::QuadrantMiss | Operation::IndexMiss
    )
}

/// The kind of charge of `op` in a loop charged by its instructions (rule 17).
pub fn loop_charge(op: Operation) -> LoopCharge {
    match op {
        Operation::Divide | Operation::Sqrt => LoopCharge::Unit,
        Operation::BranchMiss
        | Operation::QuadrantMiss
        | Operation::SineReduction
        | Operation::PowerGeneral
        | Operation::Exp
        | Operation::Log
        | Operation::Sin
        | Operation::Tan
        | Operation::Remainder
        | Operation::RemainderBit
        | Operation::ComplexAbs
        | Operation::Round
        | Operation::IndexCall
        | Operation::IndexScan
        | Operation::IndexMiss
        | Operation::Concatenation
        | Operation::CharacterMove
        | Operation::CharacterCompare
        | Operation::ProcedureCall
        | Operation::ConstantStoreLarge => LoopCharge::Event,
        _ => LoopCharge::Issued,
    }
}

/// Rule 14 for optimized builds: the X-Ray instruction rows whose latencies make one link of
/// an integer chain held in registers, for the latency parameters an optimizer empties (their
/// tests' chains are computed at compile time: the characterization marks them unmeasured).
/// An addition is one add; a multiplication one multiply; a division by a constant a multiply
/// (high half), a shift and a sign correction; MOD by a constant that, a multiply back and a
/// subtraction; `I**2` a multiply. A value forwarded through memory (QTIS) stays in a register.
pub fn register_link(p: Param) -> Option<&'static [&'static str]> {
    const ADD: &str = "integer add";
    const MUL: &str = "integer multiply";
    Some(match p {
        Param::QAIS | Param::QAIC | Param::QAIR => &[ADD],
        Param::QMIS | Param::QEIS => &[MUL],
        Param::QCIS => &[MUL, ADD, ADD],
        Param::QRIS => &[MUL, ADD, ADD, MUL, ADD],
        _ => return None,
    })
}

/// Rule 14c for optimized builds: the cache level whose load latency (X-Ray's) an emptied
/// latency parameter costs instead: QADR's pointer chase, which GCC reduces to nothing when its
/// result is never used, is a load from the L1 cache at an address held in a register.
pub fn cache_link(p: Param) -> Option<u8> {
    (p == Param::QADR).then_some(1)
}

/// Rule 17 for optimized builds: whether `op` is a DO loop's control (entry or iteration),
/// which a loop the compiler unrolled completely no longer executes.
pub fn is_loop_control(op: Operation) -> bool {
    matches!(
        op,
        Operation::LoopInitStep1
            | Operation::LoopIterationStep1
            | Operation::LoopInitStepN
            | Operation::LoopIterationStepN
    )
}

/// Rule 17 for optimized builds: the most iterations an entry of a loop GCC unrolls
/// completely has (`max-completely-peel-times`).
pub const COMPLETE_UNROLL_MAX_ITERATIONS: u64 = 16;

/// Rule 17 for optimized builds: whether a loop entered `entries` times for `iterations`,
/// whose lines hold `copy` instructions in one straight-line copy, was unrolled completely:
/// at most [`COMPLETE_UNROLL_MAX_ITERATIONS`] iterations an entry (GCC's limit), or a copy of
/// at least one instruction an iteration of an entry (LLVM unrolls by size, not by trips: a
/// copy that holds every iteration has an instruction for each at least). Such a loop runs
/// one copy of its lines an entry.
pub fn unrolled_completely(iterations: u64, entries: u64, copy: u64) -> bool {
    entries > 0 && iterations <= COMPLETE_UNROLL_MAX_ITERATIONS.max(copy) * entries
}

/// Rule 21: the bytes a reference moves an iteration: its address's step (`stride_bytes`,
/// None when unknown) capped at a line, nothing for a reference that does not move, one
/// element when the step is unknown.
pub fn streamed_bytes(stride_bytes: Option<i64>, element_bytes: u32, line_bytes: u64) -> f64 {
    match stride_bytes {
        Some(s) => s.unsigned_abs().min(line_bytes) as f64,
        None => element_bytes as f64,
    }
}

/// Rule 21b: the bytes an iteration of a reference that moves `per_step_bytes` per unit of
/// its loop's variable step, whose magnitudes the counting run saw as `steps`: each
/// iteration's step capped at a line, as [`streamed_bytes`] caps a constant one, averaged
/// over the iterations; None when the run saw none. A group of steps between two powers of
/// two that does not all reach a line is charged its bytes, at most a line an iteration.
pub fn stepped_bytes(per_step_bytes: i64, steps: &StepHistogram, line_bytes: u64) -> Option<f64> {
    let per_step = per_step_bytes.unsigned_abs() as f64;
    let line = line_bytes as f64;
    let mut bytes = 0.0;
    for (k, (&n, &sum)) in steps.iterations.iter().zip(&steps.magnitudes).enumerate() {
        let all_reach_a_line = per_step * 2f64.powi(k as i32) >= line;
        bytes += if all_reach_a_line {
            n as f64 * line
        } else {
            (per_step * sum as f64).min(n as f64 * line)
        };
    }
    let iterations: u64 = steps.iterations.iter().sum();
    (iterations > 0).then(|| bytes / iterations as f64)
}

/// Rule 21: whether a reference that moves `stride_bytes` an iteration and `outer_stride_bytes`
/// from one entry of its loop to the next finds an entry's lines again at the next entry: it
/// takes a line of its own every iteration (a row of a column-major array) while the loop
/// around walks within those lines (the neighbouring row), so its lines come from the level
/// that holds one entry's, not from the level that holds the whole array.
pub fn reuses_lines_across_entries(
    stride_bytes: Option<i64>,
    outer_stride_bytes: Option<i64>,
    line_bytes: u64,
) -> bool {
    match (stride_bytes, outer_stride_bytes) {
        (Some(s), Some(o)) => s.unsigned_abs() >= line_bytes && o.unsigned_abs() < line_bytes,
        _ => false,
    }
}

/// Rule 28: the geometry of a set-associative first-level data cache (X-Ray's compact
/// sequences measure it): how many sets, lines a set holds, and bytes a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheGeometry {
    pub sets: u64,
    pub ways: u64,
    pub line_bytes: u64,
}

/// Rule 28: whether a store stepping `stride_bytes` an iteration waits for its line at every
/// one of an entry's `trips` iterations. A store commits in program order once its line is in
/// L1, which fetches the lines of the stores in flight ahead of them; a stride that folds the
/// entry's lines onto a fraction of the sets (a power-of-two leading dimension) leaves those
/// sets fewer lines than the entry touches, so the lines fetched ahead evict one another and
/// every store waits for its line from the next level. A stride that visits every set only
/// runs out of capacity, and the lines fetched ahead survive (measured on the Intel host, 48
/// KiB 12-way L1: a transpose's store stepping 1 KiB through 128 trips, 6.4 ns an iteration
/// against 2.1 with the leading dimension padded by one line; stepping 8 KiB + 64 through 1024
/// trips, 2.9 against 2.1).
pub fn store_waits_for_its_line(stride_bytes: i64, trips: f64, l1: CacheGeometry) -> bool {
    lines_fold_in_l1(stride_bytes, trips, l1)
}

/// Rules 21 and 28: whether the lines a reference stepping `stride_bytes` touches over an
/// entry's `trips` iterations fall in fewer of L1's sets than there are, and those sets' ways
/// hold fewer lines than the entry touches: L1 cannot keep one entry's lines.
pub fn lines_fold_in_l1(stride_bytes: i64, trips: f64, l1: CacheGeometry) -> bool {
    let stride = stride_bytes.unsigned_abs();
    if stride < l1.line_bytes || l1.sets == 0 || trips < 1.0 {
        return false;
    }
    let trips = trips as u64;
    // The set sequence repeats within sets × line steps: enough to see every set it reaches
    // (capped for a geometry no cache has).
    let steps = trips
        .min(l1.sets.saturating_mul(l1.line_bytes))
        .min(1 << 16);
    let tracked = l1.sets.min(1 << 16);
    let mut seen = vec![false; tracked as usize];
    for k in 0..steps {
        // In u128: a stride from a hand-made statistics file may be any size.
        let line = u128::from(k) * u128::from(stride) / u128::from(l1.line_bytes);
        seen[(line % u128::from(tracked)) as usize] = true;
    }
    let sets = seen.iter().filter(|s| **s).count() as u64;
    sets < l1.sets && sets.saturating_mul(l1.ways) < trips
}

/// Rule 17 for optimized builds, the divider: the time, ns, of `count` packed divisions or
/// square roots of `bits` vector bits in all, X-Ray having measured the widest row
/// (`widest_bits`) at `widest_ns` an instruction and the scalar one at `scalar_ns`. The
/// divider works through a few lanes a cycle, so a narrower instruction takes its share of
/// the widest one's time, and never less than a scalar one (the Intel host: 512-bit `vdivpd`
/// 16 cycles, scalar `divsd` 4, so SSE2's 128-bit `divpd` 4). Without the bits (a file
/// written before they were recorded) every packed instruction costs the widest row's time.
pub fn packed_divider_ns(
    count: u64,
    bits: u64,
    widest_ns: f64,
    widest_bits: u32,
    scalar_ns: Option<f64>,
) -> f64 {
    if bits == 0 || widest_bits == 0 {
        return count as f64 * widest_ns;
    }
    let share = bits as f64 / f64::from(widest_bits) * widest_ns;
    share.max(count as f64 * scalar_ns.unwrap_or(0.0))
}

/// Rule 22: what a basic block outside the loops rule 17 charges adds to its operations'
/// cost `summed_ns` when it lasts at least `issued_ns`, its machine instructions at INST's
/// rate (optimized builds).
pub fn straight_line_excess(issued_ns: f64, summed_ns: f64) -> f64 {
    (issued_ns - summed_ns).max(0.0)
}

/// Rule 20: whether `op` is part of a call's cost (the call, its arguments' loads), which an
/// inlined call does not pay.
pub fn is_call_charge(op: Operation) -> bool {
    matches!(op, Operation::ProcedureCall | Operation::ArgumentLoad)
}

/// Rule 20: the share of a block's `counted` calls (PROC per execution) that the compiler
/// kept, `emitted` being the calls its lines have in the assembly: 1 when all are there (or
/// more, as when a statement's line also holds a library call's), 0 when all were inlined.
pub fn kept_call_share(counted: u64, emitted: u64) -> f64 {
    if counted == 0 {
        1.0
    } else {
        (emitted as f64 / counted as f64).min(1.0)
    }
}

/// Rule 17: the instructions an innermost loop executes in one run. `instructions_at(line)` is
/// what the compiler emitted for a line; `line_runs(line)` how often the line ran (its basic
/// block's executions), `None` for a line in no block (a DO loop's CONTINUE), which counts
/// once an iteration, as does the loop's first line (its DO or the labelled test of a loop
/// closed by GO TO, which runs once an iteration more than its block says for a DO), less
/// `set_up_at(first line)`: the instructions of a DO statement that set the loop up before
/// its head (bounds, first value), which run once per entry and which LOIN charges. Counted
/// every iteration, they made alamos's `A(I) = B(I) / C(I)` 32 instructions an iteration
/// where gfortran -O0 runs 28. `consequent_at(line)`, for a logical IF, gives the
/// instructions after the line's conditional jump (its consequent) and how often the
/// consequent ran: they count that often. Counted with the line, smith's four
/// `IF (A .AND. B) NLOG(1) = NLOG(1) + 1` were 20 instructions an iteration where 8.3 run.
pub fn loop_instructions(
    lines: std::ops::RangeInclusive<u32>,
    iterations: u64,
    instructions_at: impl Fn(u32) -> u64,
    set_up_at: impl Fn(u32) -> u64,
    line_runs: impl Fn(u32) -> Option<u64>,
    consequent_at: impl Fn(u32) -> Option<(u64, u64)>,
) -> u64 {
    let first = *lines.start();
    lines
        .map(|l| {
            if l == first {
                instructions_at(l).saturating_sub(set_up_at(l)) * iterations
            } else {
                let all = instructions_at(l);
                let runs = line_runs(l).unwrap_or(iterations);
                match consequent_at(l) {
                    Some((after, taken)) => {
                        let after = after.min(all);
                        (all - after) * runs + after * taken.min(runs)
                    }
                    None => all * runs,
                }
            }
        })
        .sum()
}

/// Rule 19: the least time (ns) a loop that executes `instructions` in all lasts when each
/// iteration holds a dependence chain of `chain_ns` and the core keeps `window` instructions in
/// flight: the chain once per `window / (instructions per iteration)` iterations, which is
/// `chain_ns * instructions / window` whatever the iteration count. Zero without a window.
pub fn window_bound(chain_ns: f64, instructions: f64, window: f64) -> f64 {
    if window > 0.0 && chain_ns > 0.0 {
        chain_ns * instructions / window
    } else {
        0.0
    }
}

/// Rule 33: an iteration's time, ns, when it takes `t0` without its loads at random addresses
/// and each such load waits `excess` ns beyond a first-level hit (X-Ray's random-access curve
/// at its array's size). The core keeps `window` instructions in flight and issues one each
/// `inst_ns`, so an iteration spans `t0 / inst_ns` of them. Where the window holds several
/// iterations, their loads overlap: the iteration lasts at least the loads' wait over the
/// iterations in flight. Where it holds less than one, each load stalls the core for its
/// wait less the time the window takes to fill, on top of `t0`.
pub fn random_access_ns(t0: f64, excess: &[f64], window: f64, inst_ns: f64) -> f64 {
    if excess.is_empty() || window <= 0.0 || inst_ns <= 0.0 || t0 <= 0.0 {
        return t0;
    }
    let loads = excess.len() as f64;
    let spanned = t0 / inst_ns;
    if spanned <= loads * window {
        t0.max(excess.iter().sum::<f64>() / loads * spanned / window)
    } else {
        t0 + excess
            .iter()
            .map(|x| (x - window * inst_ns).max(0.0))
            .sum::<f64>()
    }
}

/// Rule 27: the longest trip count per entry at which a loop's restarted chains overlap across
/// entries. Past it the core's loop-exit prediction no longer covers the loop and each entry's
/// chain runs after the last one's (measured on the Intel host: a -O0 DO loop storing one
/// element iterated at 0.60, 0.67 and 0.78 of its 96-trip time at 8, 16 and 32 trips; a
/// restarted dot product took 0.76 of its carried time at 16 trips, 0.89 at 32, 0.96 at 64).
pub const RESTART_TRIPS: f64 = 16.0;

/// Rule 27: the share of a restarted chain's latency that a loop's entries leave exposed. A
/// recurrence whose scalar is set afresh before the loop (`T = 2N+1` before a continued
/// fraction's loop, `S = 0` before a row's sum, the DO variable itself; or updated from
/// itself after that, a Newton iteration's first step) does not carry its chain from one
/// entry to the next: while one entry's chain runs, the window (`window` instructions)
/// holds the next `window / instructions_per_entry` entries, whose chains run alongside, so the entries take `instructions / (instructions + window)` of their chains'
/// summed latency: WIND / I of rule 19 when entries are short. Entries of more than
/// [`RESTART_TRIPS`] iterations, and a window or an entry not known: all of it.
pub fn restarted_chain_share(
    instructions_per_entry: f64,
    trips_per_entry: f64,
    window: f64,
) -> f64 {
    if window > 0.0 && instructions_per_entry > 0.0 && trips_per_entry <= RESTART_TRIPS {
        instructions_per_entry / (instructions_per_entry + window)
    } else {
        1.0
    }
}

/// Rule 19 inverted: the window (instructions in flight) of a test whose pass holds a chain of
/// `chain_ns` and `instructions` and takes `pass_ns`.
pub fn window_of(chain_ns: f64, instructions: f64, pass_ns: f64) -> f64 {
    chain_ns * instructions / pass_ns
}

/// Rule 15 (opcost's refinement): the mispredicted branches of an IF that ran `executions`
/// times and went to its consequent (or THEN block) `taken` times, `simulated` being the
/// misses of a predictor run on its actual outcomes (the analyzer simulates a two-level
/// global-history one: 2-bit counters indexed by the last 12 outcomes of the watched IFs, and
/// a tagged table of about 32 K contexts of the last 40 outcomes, which learns a sequence a
/// program goes through again, as the hardware does up to about 20 000-40 000 outcomes;
/// docs/model.md, refinement 14). Any condition that reads a variable (`miss` is Some) misses the
/// simulated count (at most `executions`): the simulation learns loop counters, flags and
/// MOD patterns as the hardware does, and misses independent outcomes, whether they come
/// from array data or from scalars computed from data. Without a simulation, a condition on
/// array data (`on_array_data`) misses min(taken, not taken), the best static guess for
/// independent outcomes, and one on scalars only is taken to be learned. Capping the
/// simulated count at that guess too took shell sort's exits to 90 % of the simulated misses
/// (docs/model.md, refinement 18). A DO loop's exit misses only when its trip count changes
/// ([`charge_trip_changes`], rule 29). (Counting every IF with the min
/// rule overpredicted smith's MOD-patterned IFs by 2x and its bubble sort by 4x; counting
/// none underpredicted shell sort by half.)
pub fn count_branch_misses(
    executions: u64,
    taken: u64,
    simulated: Option<u64>,
    miss: Option<Param>,
    on_array_data: bool,
) -> OpCounts {
    let Some(miss) = miss else {
        return OpCounts::new();
    };
    let taken = taken.min(executions);
    let misses = match simulated {
        Some(s) => s.min(executions),
        None if on_array_data => taken.min(executions - taken),
        None => 0,
    };
    OpCounts::one(miss).scaled(misses)
}

/// Rule 29: the counts a DO loop's entries add when `changes` of them had a trip count other
/// than the loop's previous entry's (counted by the counting run): the loop's closing branch
/// is predicted taken until the iteration it ended at before, so each change mispredicts its
/// exit (or an iteration past the old exit), one BMIS.
pub fn charge_trip_changes(c: &mut OpCounts, changes: u64) {
    *c += &OpCounts::one(Param::BMIS).scaled(changes);
}

/// Rule 29b: the exits an innermost DO loop misses beyond rule 29's, on a host whose predictor
/// foresees the exit of a loop entered again with the same trips only up to `limit` trips
/// (X-Ray measures it): the `entries - changes` entries that kept their trip count, when the
/// loop's `iterations` come to more than `limit` an entry; none otherwise.
pub fn unforeseen_exits(entries: u64, iterations: u64, changes: u64, limit: u32) -> u64 {
    if entries == 0 || iterations <= u64::from(limit).saturating_mul(entries) {
        return 0;
    }
    entries.saturating_sub(changes)
}

/// Rule 23: what a reference to INDEX leaves uncharacterized until the counting run has
/// counted the positions it scanned.
pub const INDEX_SCAN: &str = "INDEX positions scanned";

/// Rule 23: the counts of a statement that scanned `positions` character positions with INDEX
/// in all (counted by the counting run): one SCAN each, in place of the uncharacterized
/// scans its INDEX references were counted with. libgfortran's string search tries every
/// start position up to the first match (all `LEN(string) - LEN(substring) + 1` when there is
/// none), comparing the substring's characters there until one differs, so its time grows
/// with the positions; the call itself is INDX.
pub fn charge_index_scans(c: &mut OpCounts, positions: u64) {
    c.uncharacterized.remove(INDEX_SCAN);
    c.add(Param::SCAN, positions);
}

/// Rule 23b: the counts of a statement whose INDEX references mispredicted `misses` of their
/// first-character compares (counted by the counting run): one SCNM each. At each position
/// the library's branch on that compare goes on to the next position or into the substring;
/// where the text decides it, a predictor guesses the more frequent way, so a reference that
/// tried `n` positions, `k` of them starting with the substring's first character, misses
/// about `min(k, n - k)` times ([`index_misses`]). A repeated alphabet (SCAN's own test)
/// or a character at every position misses nothing.
pub fn charge_index_misses(c: &mut OpCounts, misses: u64) {
    c.add(Param::SCNM, misses);
}

/// Rule 23b: the mispredicted first-character compares of one INDEX reference that tried
/// `positions` start positions, `partial` of which start with the substring's first
/// character: the predictor follows the majority, and misses the minority.
pub fn index_misses(positions: u64, partial: u64) -> u64 {
    partial.min(positions.saturating_sub(partial))
}

/// Rule 24: the branches a reference to SIN or COS takes on its argument's quadrant, which
/// the counting run feeds to the simulated predictor (rule 15). The library reduces the
/// argument by a quarter period (glibc 2.36 and every fdlibm descendant) and picks the sine
/// or cosine polynomial by the quadrant's low bit and the sign by its next bit (glibc's
/// double sine picks its range below 2.43 by magnitude, which falls on the same quadrants).
/// Arguments that step smoothly keep the quadrant for many calls, and the predictor learns
/// them; scattered arguments (random points, golden-ratio sequences) do not.
pub const QUADRANT_BRANCHES: u32 = 2;

/// Rule 24: the quadrant `NINT(X / (pi/2))` mod 4 of a sine or cosine's argument, whose
/// bits the library branches on.
pub fn quadrant(x: f64) -> u32 {
    (x / std::f64::consts::FRAC_PI_2).round().rem_euclid(4.0) as u32
}

/// Rule 24: a statement whose SIN and COS references' quadrant branches the simulated
/// predictor missed `misses` times: one BMSN each.
pub fn charge_quadrant_misses(c: &mut OpCounts, misses: u64) {
    c.add(Param::BMSN, misses);
}

/// Rule 24b: the magnitude from which glibc's double SIN and COS reduce their argument by a
/// multiple of pi/2 (`reduce_sincos`, three parts of pi/2) before the polynomial; below it
/// they evaluate the argument directly or as its distance to pi/2 (glibc 2.36 `s_sin.c`: the
/// high word 0x400368fd). Measured here at -O0: 6.0 ns a sine just below, 9.3 ns above (at
/// 2.5 to 1100 alike).
pub const SINE_REDUCED_FROM: f64 = 2.426_265;

/// Rule 24b: whether a double sine or cosine of `x` reduces its argument.
pub fn is_reduced_sine_argument(x: f64) -> bool {
    x.abs() >= SINE_REDUCED_FROM
}

/// Rule 24b: a statement whose DOUBLE PRECISION SIN and COS references reduced `reduced`
/// arguments in the counting run: one SRDD each.
pub fn charge_reduced_arguments(c: &mut OpCounts, reduced: u64) {
    c.add(Param::SRDD, reduced);
}

/// Rule 24c: the magnitudes at which the library's double sine and cosine change how they
/// evaluate (glibc 2.36 `s_sin.c`, high words 0x3feb6000 and 0x400368fd): directly below the
/// first, as the distance to pi/2 below the second, by a reduction beyond.
pub const SINE_RANGES_DOUBLE: [f64; 2] = [0.855_468_75, SINE_REDUCED_FROM];

/// Rule 24c: the same for the single routines (glibc 2.36 `s_sinf.c` compares the top 12 bits
/// of |x| with pi/4's and 120's): directly below 0.75, by a fast reduction below 120, by a
/// long one beyond.
pub const SINE_RANGES_SINGLE: [f64; 2] = [0.75, 120.0];

/// Rule 24c: the outcomes (true: taken to the larger range) of the range branches a sine or
/// cosine of `x` takes, DOUBLE PRECISION when `double`: the first always, the second only
/// when the first found the argument beyond its bound. Random magnitudes that straddle a
/// bound (an exponential deviate, points spread over a few periods) mispredict them.
pub fn sine_range_outcomes(x: f64, double: bool) -> Vec<bool> {
    let bounds = if double {
        SINE_RANGES_DOUBLE
    } else {
        SINE_RANGES_SINGLE
    };
    let beyond_first = x.abs() >= bounds[0];
    if beyond_first {
        vec![true, x.abs() >= bounds[1]]
    } else {
        vec![false]
    }
}

/// Rule 15 for an arithmetic IF or computed GO TO: the misses the simulated predictor had on
/// its branches, each costing `miss`; none without a simulation.
pub fn count_multiway_misses(simulated: Option<u64>, miss: Param) -> OpCounts {
    OpCounts::one(miss).scaled(simulated.unwrap_or(0))
}

/// The parameter a mispredicted IF on `cond` costs (rule 15), or None when the condition reads
/// no variable at all (a constant outcome): BMIR when a compare in it is on real or double
/// operands, BMIS otherwise. A floating-point compare resolves its branch
/// later than an integer one (the value reaches the flags through the FP unit), so a miss
/// costs more: shell sort's REAL keys sorted 33 % slower than the same keys as INTEGER, and
/// as fast as INTEGER when only the compare was made on their bits as integers.
pub fn branch_miss_param(cond: &Expr) -> Option<Param> {
    fn floating(e: &Expr) -> bool {
        match e {
            Expr::Compare { lhs, rhs, .. } => {
                matches!(Type::promote(lhs.ty(), rhs.ty()), Type::Real | Type::Double)
                    || floating(lhs)
                    || floating(rhs)
            }
            Expr::Logic { lhs, rhs, .. } | Expr::Arith { lhs, rhs, .. } => {
                floating(lhs) || floating(rhs)
            }
            Expr::Paren(x) | Expr::Unary { operand: x, .. } => floating(x),
            _ => false,
        }
    }
    reads_variable(cond).then(|| {
        if floating(cond) {
            Param::BMIR
        } else {
            Param::BMIS
        }
    })
}

/// Rule 15 for the multiway branches: the parameter a mispredicted arithmetic IF on `tested`
/// or computed GO TO on the index `tested` costs (BMIR when an arithmetic IF tests a real or
/// double value, BMIS otherwise), or None when its outcome cannot change (no variable read) or
/// the simulation cannot watch it (it references a function, which watching would call twice).
pub fn multiway_miss_param(tested: &Expr, arithmetic_if: bool) -> Option<Param> {
    if !reads_variable(tested) || calls_function(tested) {
        return None;
    }
    let floating = matches!(tested.ty(), Type::Real | Type::Double);
    Some(if arithmetic_if && floating {
        Param::BMIR
    } else {
        Param::BMIS
    })
}

/// Whether `e` references a function of the program's.
pub fn calls_function(e: &Expr) -> bool {
    match e {
        Expr::Call { .. } => true,
        Expr::Paren(x) | Expr::Unary { operand: x, .. } => calls_function(x),
        Expr::Arith { lhs, rhs, .. }
        | Expr::Compare { lhs, rhs, .. }
        | Expr::Logic { lhs, rhs, .. } => calls_function(lhs) || calls_function(rhs),
        Expr::Intrinsic { args, .. } | Expr::Opaque { parts: args, .. } => {
            args.iter().any(calls_function)
        }
        Expr::Element { subscripts, .. } => subscripts.iter().any(calls_function),
        Expr::Variable(_) | Expr::Constant { .. } => false,
    }
}

/// Whether an expression reads a variable or an array element (rule 15: its outcome may
/// change from one evaluation to the next).
pub fn reads_variable(e: &Expr) -> bool {
    match e {
        Expr::Element { .. } | Expr::Variable(_) => true,
        Expr::Constant { .. } => false,
        Expr::Opaque { parts, .. } => parts.iter().any(reads_variable),
        Expr::Paren(x) | Expr::Unary { operand: x, .. } => reads_variable(x),
        Expr::Arith { lhs, rhs, .. }
        | Expr::Compare { lhs, rhs, .. }
        | Expr::Logic { lhs, rhs, .. } => reads_variable(lhs) || reads_variable(rhs),
        Expr::Intrinsic { args, .. } => args.iter().any(reads_variable),
        Expr::Call { .. } => true,
    }
}

/// Whether an expression reads an array element with run-time subscripts (rule 15).
pub fn reads_array(e: &Expr) -> bool {
    match e {
        Expr::Element { subscripts, .. } => !subscripts.iter().all(Expr::is_constant),
        Expr::Constant { .. } | Expr::Variable(_) => false,
        Expr::Opaque { parts, .. } => parts.iter().any(reads_array),
        Expr::Paren(x) | Expr::Unary { operand: x, .. } => reads_array(x),
        Expr::Arith { lhs, rhs, .. }
        | Expr::Compare { lhs, rhs, .. }
        | Expr::Logic { lhs, rhs, .. } => reads_array(lhs) || reads_array(rhs),
        Expr::Intrinsic { args, .. } | Expr::Call { args, .. } => args.iter().any(reads_array),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_variable_step_moves_its_measured_bytes_at_most_a_line_an_iteration() {
        use super::{stepped_bytes, StepHistogram};
        // A sieve's crossings-out of 4-byte flags: 100 iterations at step 3 (12 bytes), 50 at
        // steps 16 to 31 (a line each), summed magnitudes 3 * 100 and 1000.
        let mut steps = StepHistogram {
            iterations: vec![0; 16],
            magnitudes: vec![0; 16],
        };
        (steps.iterations[1], steps.magnitudes[1]) = (100, 300);
        (steps.iterations[4], steps.magnitudes[4]) = (50, 1000);
        let bytes = stepped_bytes(4, &steps, 64).unwrap();
        assert!(
            (bytes - (100.0 * 12.0 + 50.0 * 64.0) / 150.0).abs() < 1e-9,
            "{bytes}"
        );
        // Steps 8 to 15 of doubles straddle a line: their bytes, at most a line each.
        let mut straddle = StepHistogram {
            iterations: vec![0; 16],
            magnitudes: vec![0; 16],
        };
        (straddle.iterations[3], straddle.magnitudes[3]) = (2, 8 + 15);
        assert_eq!(stepped_bytes(-8, &straddle, 64), Some(64.0));
        (straddle.iterations[3], straddle.magnitudes[3]) = (2, 8 + 8);
        assert_eq!(stepped_bytes(8, &straddle, 64), Some(64.0));
        (straddle.iterations[2], straddle.magnitudes[2]) = (2, 4 + 5);
        assert_eq!(stepped_bytes(8, &straddle, 64), Some((72.0 + 128.0) / 4.0));
        // A run that saw no iteration measures nothing.
        let none = StepHistogram {
            iterations: vec![0; 16],
            magnitudes: vec![0; 16],
        };
        assert_eq!(stepped_bytes(8, &none, 64), None);
    }

    #[test]
    fn a_row_comes_back_to_its_lines_when_the_loop_around_moves_within_them() {
        use super::reuses_lines_across_entries as reuses;
        // A row of 100 doubles, the next row one element on; a pivot row that stays.
        assert!(reuses(Some(800), Some(8), 64));
        assert!(reuses(Some(-800), Some(0), 64));
        // A column (within its lines already), a row whose next is a line away, unknowns.
        assert!(!reuses(Some(8), Some(800), 64));
        assert!(!reuses(Some(800), Some(64), 64));
        assert!(!reuses(None, Some(8), 64));
        assert!(!reuses(Some(800), None, 64));
    }

    #[test]
    fn a_restarted_chain_is_exposed_by_its_entries_share_of_the_window() {
        // Entries of 100 instructions, a window of 300: three more entries run beside the
        // one in flight, a quarter of the chains' latency shows; an entry of 900: three
        // quarters; nothing known, or entries longer than the exit predictor covers: all.
        assert!((restarted_chain_share(100.0, 8.0, 300.0) - 0.25).abs() < 1e-12);
        assert!((restarted_chain_share(900.0, 16.0, 300.0) - 0.75).abs() < 1e-12);
        assert_eq!(restarted_chain_share(100.0, 17.0, 300.0), 1.0);
        assert_eq!(restarted_chain_share(100.0, 8.0, 0.0), 1.0);
        assert_eq!(restarted_chain_share(0.0, 8.0, 300.0), 1.0);
    }

    #[test]
    fn random_loads_overlap_within_the_window_and_stall_beyond_it() {
        // A short iteration (20 instructions at 0.1 ns) with one load waiting 100 ns: ten
        // iterations in a 200-instruction window, so 10 ns an iteration.
        assert!((random_access_ns(2.0, &[100.0], 200.0, 0.1) - 10.0).abs() < 1e-9);
        // A long one (2000 instructions): the load stalls 100 - 20 ns on top.
        assert!((random_access_ns(200.0, &[100.0], 200.0, 0.1) - 280.0).abs() < 1e-9);
        // The two meet where the window holds one iteration exactly.
        let at = |t0: f64| random_access_ns(t0, &[100.0], 200.0, 0.1);
        assert!((at(20.0 - 1e-9) - at(20.0 + 1e-9)).abs() < 1e-6);
        // A wait the window hides costs nothing; nothing to wait for, nothing added.
        assert_eq!(random_access_ns(200.0, &[15.0], 200.0, 0.1), 200.0);
        assert_eq!(random_access_ns(5.0, &[], 200.0, 0.1), 5.0);
        assert_eq!(random_access_ns(5.0, &[100.0], 0.0, 0.1), 5.0);
    }

    #[test]
    fn the_window_bound_and_its_inverse_agree() {
        // A chain of 30 ns in iterations of 60 instructions, a window of 180: three
        // iterations overlap, 10 ns each, 1000 ns for the 6000 instructions of 100 of them.
        assert!((window_bound(30.0, 6000.0, 180.0) - 1000.0).abs() < 1e-9);
        assert!((window_of(30.0, 60.0, 10.0) - 180.0).abs() < 1e-9);
        assert_eq!(window_bound(30.0, 6000.0, 0.0), 0.0);
        assert_eq!(window_bound(0.0, 6000.0, 180.0), 0.0);
    }

    use super::*;
    use crate::expr::{LogicOp, RelOp};

    #[test]
    fn a_folding_stride_makes_each_store_wait_and_a_padded_one_does_not() {
        let l1 = CacheGeometry {
            sets: 64,
            ways: 12,
            line_bytes: 64,
        };
        // A transpose of a 128 x 128 DOUBLE PRECISION matrix: 1 KiB steps visit 4 sets, which
        // hold 48 lines, not the 128 an entry touches.
        assert!(store_waits_for_its_line(1024, 128.0, l1));
        assert!(store_waits_for_its_line(-16384, 2048.0, l1));
        // Padded by one line: 17 lines a step visit every set.
        assert!(!store_waits_for_its_line(1088, 128.0, l1));
        assert!(!store_waits_for_its_line(8256, 1024.0, l1));
        // Short entries fit the folded sets: 2 KiB steps, 2 sets of 12 lines, 16 trips.
        assert!(!store_waits_for_its_line(2048, 16.0, l1));
        assert!(store_waits_for_its_line(2048, 32.0, l1));
        // Unit stride and steps within a line never wait.
        assert!(!store_waits_for_its_line(8, 1e6, l1));
        assert!(!store_waits_for_its_line(32, 1e6, l1));
        // Absurd strides and geometries answer without overflowing.
        assert!(store_waits_for_its_line(i64::MIN, 1e9, l1));
        let odd = CacheGeometry {
            sets: u64::MAX,
            ways: 1,
            line_bytes: 1 << 62,
        };
        // Whatever it answers, it answers without a panic or a runaway loop.
        let _ = store_waits_for_its_line(i64::MAX, 1e9, odd);
    }

    fn x() -> Operand {
        Operand::local("X", Type::Real)
    }
    fn y() -> Operand {
        Operand::local("Y", Type::Real)
    }
    fn g() -> Operand {
        Operand::global("G", Type::Real)
    }
    fn i() -> Operand {
        Operand::local("I", Type::Integer)
    }
    fn d() -> Operand {
        Operand::local("D", Type::Double)
    }

    fn counts(pairs: &[(Param, u64)]) -> OpCounts {
        let mut c = OpCounts::new();
        for &(p, n) in pairs {
            c.add(p, n);
        }
        c
    }

    #[test]
    fn a_loop_charged_by_its_instructions_adds_only_units_and_events() {
        assert_eq!(loop_charge(Operation::Add), LoopCharge::Issued);
        assert_eq!(loop_charge(Operation::DummyAccess), LoopCharge::Issued);
        assert_eq!(
            loop_charge(Operation::LoopIterationStep1),
            LoopCharge::Issued
        );
        assert_eq!(loop_charge(Operation::Divide), LoopCharge::Unit);
        assert_eq!(loop_charge(Operation::Sqrt), LoopCharge::Unit);
        assert_eq!(loop_charge(Operation::BranchMiss), LoopCharge::Event);
        assert_eq!(loop_charge(Operation::Exp), LoopCharge::Event);
        // INDEX's search runs in the library, outside the loop's lines (rule 23).
        assert_eq!(loop_charge(Operation::IndexScan), LoopCharge::Event);
        assert_eq!(loop_charge(Operation::PowerGeneral), LoopCharge::Event);
        assert_eq!(
            loop_charge(Operation::ConstantStoreLarge),
            LoopCharge::Event
        );
        // X ** 2 is multiplications in the loop's own code.
        assert_eq!(loop_charge(Operation::PowerInteger), LoopCharge::Issued);
    }

    #[test]
    fn a_loops_instructions_weigh_each_line_by_its_runs() {
        // DO on line 10 (3 instructions, 1 of them its set-up), body lines 11-12 run 100 and
        // 40 times, CONTINUE on line 13 in no block (2 instructions): 100 iterations.
        let instr = |l: u32| [3, 5, 7, 2][(l - 10) as usize];
        let set_up = |l: u32| if l == 10 { 1 } else { 0 };
        let runs = |l: u32| match l {
            10 => Some(1),
            11 => Some(100),
            12 => Some(40),
            _ => None,
        };
        assert_eq!(
            loop_instructions(10..=13, 100, instr, set_up, runs, |_| None),
            200 + 500 + 280 + 200
        );
        // Without a set-up every instruction of the first line counts each iteration.
        assert_eq!(
            loop_instructions(10..=13, 100, instr, |_| 0, runs, |_| None),
            300 + 500 + 280 + 200
        );
        // Line 11 a logical IF whose consequent (3 of its 5 instructions) ran 30 times.
        let consequent = |l: u32| (l == 11).then_some((3, 30));
        assert_eq!(
            loop_instructions(10..=13, 100, instr, set_up, runs, consequent),
            200 + (2 * 100 + 3 * 30) + 280 + 200
        );
    }

    #[test]
    fn assignment_without_operator_is_a_transfer() {
        let c = count_assignment(&Expr::var(&x()), &Expr::var(&y()));
        assert_eq!(c, counts(&[(Param::TRSL, 1)]));
        let c = count_assignment(&Expr::var(&x()), &Expr::var(&g()));
        assert_eq!(c, counts(&[(Param::TRSG, 1)]));
    }

    #[test]
    fn assignment_with_operators_is_store_plus_operators() {
        let v = Expr::arith(ArithOp::Add, Expr::var(&y()), Expr::var(&g()));
        let c = count_assignment(&Expr::var(&x()), &v);
        assert_eq!(c, counts(&[(Param::SRSL, 1), (Param::ARSG, 1)]));
        // Mixed mode promotes: I * D is a double multiplication.
        let v = Expr::arith(ArithOp::Mul, Expr::var(&i()), Expr::var(&d()));
        let c = count_assignment(&Expr::var(&d()), &v);
        assert_eq!(c, counts(&[(Param::SRDL, 1), (Param::MRDL, 1)]));
    }

    #[test]
    fn subscripts_count_iadd_and_array_rank() {
        let a = Operand::local("A", Type::Real);
        let sub = Expr::arith(ArithOp::Add, Expr::var(&i()), Expr::int(1));
        let c = count_assignment(
            &Expr::var(&x()),
            &Expr::elem(&a, vec![sub, Expr::var(&i())]),
        );
        assert_eq!(
            c,
            counts(&[(Param::TRSL, 1), (Param::ARR2, 1), (Param::IADD, 1)])
        );
        // Constant subscripts: no address arithmetic at run time.
        let c = count_assignment(&Expr::var(&x()), &Expr::elem(&a, vec![Expr::int(3)]));
        assert_eq!(c, counts(&[(Param::TRSL, 1)]));
    }

    #[test]
    fn integer_division_by_a_constant_is_a_multiplication() {
        let by3 = Expr::arith(ArithOp::Div, Expr::var(&i()), Expr::int(3));
        assert_eq!(count_expr(&by3), counts(&[(Param::MISL, 1)]));
        let by_var = Expr::arith(ArithOp::Div, Expr::var(&i()), Expr::var(&i()));
        assert_eq!(count_expr(&by_var), counts(&[(Param::DISL, 1)]));
        let real = Expr::arith(
            ArithOp::Div,
            Expr::var(&x()),
            Expr::Constant {
                text: "4.0".into(),
                ty: Type::Real,
            },
        );
        assert_eq!(count_expr(&real), counts(&[(Param::DRSL, 1)]));
        let m = Expr::intrinsic("MOD", vec![Expr::var(&i()), Expr::int(2)]);
        assert_eq!(count_expr(&m), counts(&[(Param::MISL, 1)]));
    }

    #[test]
    fn powers_follow_rule_4() {
        let xi = Expr::arith(ArithOp::Pow, Expr::var(&x()), Expr::var(&i()));
        assert_eq!(count_expr(&xi), counts(&[(Param::ERSL, 1)]));
        let xy = Expr::arith(ArithOp::Pow, Expr::var(&x()), Expr::var(&y()));
        assert_eq!(count_expr(&xy), counts(&[(Param::XRSL, 1)]));
        let i2 = Expr::arith(ArithOp::Pow, Expr::var(&i()), Expr::int(2));
        assert_eq!(count_expr(&i2), counts(&[(Param::EISL, 1)]));
        let ij = Expr::arith(ArithOp::Pow, Expr::var(&i()), Expr::var(&i()));
        assert_eq!(count_expr(&ij), counts(&[(Param::XISL, 1)]));
    }

    #[test]
    fn conditions_calls_and_intrinsics() {
        let cond = Expr::logic(
            LogicOp::And,
            Expr::compare(RelOp::Gt, Expr::var(&x()), Expr::var(&y())),
            Expr::compare(RelOp::Eq, Expr::var(&i()), Expr::int(0)),
        );
        // Compares joined: each compare is its own branch, the join costs nothing (rule 7).
        assert_eq!(
            count_condition(&cond),
            counts(&[(Param::CRSL, 1), (Param::CISL, 1)])
        );
        // A logical variable in the join: one AND.
        let l = Operand::local("L", Type::Logical);
        let mixed = Expr::logic(
            LogicOp::Or,
            Expr::var(&l),
            Expr::compare(RelOp::Gt, Expr::var(&x()), Expr::var(&y())),
        );
        assert_eq!(
            count_condition(&mixed),
            counts(&[(Param::CRSL, 1), (Param::ANDL, 1)])
        );
        let c = count_call(&[Expr::var(&x()), Expr::var(&d()), Expr::var(&i())]);
        assert_eq!(
            c,
            counts(&[
                (Param::PROC, 1),
                (Param::AGRS, 1),
                (Param::AGRD, 1),
                (Param::AGIS, 1)
            ])
        );
        let s = Expr::intrinsic("DSQRT", vec![Expr::var(&d())]);
        assert_eq!(count_expr(&s), counts(&[(Param::SQRD, 1)]));
        let m = Expr::intrinsic(
            "MAX",
            vec![Expr::var(&x()), Expr::var(&y()), Expr::var(&g())],
        );
        assert_eq!(count_expr(&m), counts(&[(Param::CRSG, 2)]));
        // Rule 25: a conversion is one CNVT; AINT has no parameter.
        let conv = count_expr(&Expr::intrinsic("REAL", vec![Expr::var(&i())]));
        assert_eq!(conv, counts(&[(Param::CNVT, 1)]));
        let trunc = count_expr(&Expr::intrinsic("AINT", vec![Expr::var(&x())]));
        assert_eq!(trunc.uncharacterized["intrinsic AINT"], 1);
        // Rule 32: NINT and ANINT are the library's lround and round, in the argument's
        // precision whatever the result's type.
        let round = count_expr(&Expr::intrinsic("NINT", vec![Expr::var(&x())]));
        assert_eq!(round, counts(&[(Param::RNDS, 1)]));
        let round = count_expr(&Expr::intrinsic("NINT", vec![Expr::var(&d())]));
        assert_eq!(round, counts(&[(Param::RNDD, 1)]));
        let round = count_expr(&Expr::intrinsic("DNINT", vec![Expr::var(&d())]));
        assert_eq!(round, counts(&[(Param::RNDD, 1)]));
    }

    #[test]
    fn loops_and_branches() {
        assert!(is_unit_step(None));
        assert!(is_unit_step(Some(&Expr::int(1))));
        assert!(!is_unit_step(Some(&Expr::int(2))));
        assert!(!is_unit_step(Some(&Expr::var(&i()))));
        assert_eq!(count_do_entry(true, &[]), counts(&[(Param::LOIN, 1)]));
        assert_eq!(count_do_iteration(false), counts(&[(Param::LOOX, 1)]));
        assert_eq!(
            count_multiway_branch(Some(&Expr::var(&i()))),
            counts(&[(Param::GCOM, 1)])
        );
    }

    /// Rule 14e: MIN and MAX fold their arguments left to right, one QMX… (by the result's
    /// type) per argument after the first that the chain's value passes through.
    #[test]
    fn min_and_max_on_a_chain_wait_for_each_later_argument() {
        let k = Operand::local("K", Type::Integer);
        let j = Operand::local("J", Type::Integer);
        let x = Operand::local("X", Type::Double);
        let y = Operand::local("Y", Type::Double);
        let three = |a: &Operand, b: &Operand, c: Expr| {
            Expr::intrinsic("MIN", vec![Expr::var(a), Expr::var(b), c])
        };
        let link = |target: &Operand, value: Expr, from: &str| {
            chain_latency(&Expr::var(target), &value, from).unwrap()
        };
        // K = MIN(K, J, 7): K passes through both folds, J too, the last argument one.
        let value = three(&k, &j, Expr::int(7));
        let both = counts(&[(Param::QTIS, 1), (Param::QMXI, 2)]);
        assert_eq!(link(&k, value.clone(), "K"), both);
        assert_eq!(link(&k, value, "J"), both);
        let last = Expr::intrinsic("MIN", vec![Expr::int(7), Expr::var(&j), Expr::var(&k)]);
        assert_eq!(
            link(&k, last, "K"),
            counts(&[(Param::QTIS, 1), (Param::QMXI, 1)])
        );
        // X = MAX(X + 1, Y): an addition, then one MAXSD.
        let plus = Expr::arith(ArithOp::Add, Expr::var(&x), Expr::int(1));
        let max = Expr::intrinsic("MAX", vec![plus, Expr::var(&y)]);
        assert_eq!(
            link(&x, max, "X"),
            counts(&[(Param::QTRD, 1), (Param::QARD, 1), (Param::QMXD, 1)])
        );
        // An argument the chain does not reach adds nothing.
        let other = Expr::intrinsic("MAX", vec![Expr::var(&y), Expr::int(0)]);
        assert!(chain_latency(&Expr::var(&x), &other, "X").is_none());
    }

    /// Rule 14f: an integer stored into an array element is forwarded to the next link
    /// through the store queue (QTEI), also when the recurrence finder carries it as a scalar
    /// named by its reference; an integer scalar and a real element keep their QT….
    #[test]
    fn an_integer_element_at_a_computed_address_forwards_by_qtei() {
        let d = Operand::local("D", Type::Integer);
        let x = Operand::local("X", Type::Double);
        let j = Operand::local("J", Type::Integer);
        let at = |a: &Operand, s: Expr| Expr::elem(a, vec![s]);
        let prev = Expr::arith(ArithOp::Sub, Expr::var(&j), Expr::int(1));
        let plus_one = |e: Expr| Expr::arith(ArithOp::Add, e, Expr::int(1));
        let from = at(&d, prev.clone()).to_string();
        let c = chain_latency(
            &at(&d, Expr::var(&j)),
            &plus_one(at(&d, prev.clone())),
            &from,
        );
        assert_eq!(c, Some(counts(&[(Param::QTEI, 1), (Param::QAIR, 1)])));
        let carried = Expr::var(&Operand::local("D(J)", Type::Integer));
        let c = chain_latency(&carried, &plus_one(carried.clone()), "D(J)");
        assert_eq!(c, Some(counts(&[(Param::QTEI, 1), (Param::QAIR, 1)])));
        let k = Expr::var(&Operand::local("K", Type::Integer));
        let c = chain_latency(&Expr::var(&j), &plus_one(k), "K");
        assert_eq!(c, Some(counts(&[(Param::QTIS, 1), (Param::QAIR, 1)])));
        let from = at(&x, prev.clone()).to_string();
        let c = chain_latency(&at(&x, Expr::var(&j)), &plus_one(at(&x, prev)), &from);
        assert_eq!(c, Some(counts(&[(Param::QTRD, 1), (Param::QARD, 1)])));
    }

    /// Rule 14d: gfortran -O0 adds into a local integer's memory for `K = K + J` (QAIS) and
    /// `K = K - 1` (QAIC); any other integer addition on a chain is made in a register (QAIR):
    /// into another variable, inside an expression, or into a COMMON or dummy scalar (whose
    /// value goes through a load and a store).
    #[test]
    fn an_integer_addition_on_a_chain_costs_by_the_form_it_compiles_to() {
        let k = Operand::local("K", Type::Integer);
        let j = Operand::local("J", Type::Integer);
        let link = |target: &Operand, value: Expr, from: &str| {
            chain_latency(&Expr::var(target), &value, from).unwrap()
        };
        let plus = |a: Expr, b: Expr| Expr::arith(ArithOp::Add, a, b);
        let minus = |a: Expr, b: Expr| Expr::arith(ArithOp::Sub, a, b);
        let in_memory = |p| counts(&[(Param::QTIS, 1), (p, 1)]);
        assert_eq!(
            link(&k, plus(Expr::var(&k), Expr::var(&j)), "K"),
            in_memory(Param::QAIS)
        );
        assert_eq!(
            link(&k, plus(Expr::var(&j), Expr::var(&k)), "K"),
            in_memory(Param::QAIS),
            "commutative: still into K's memory"
        );
        assert_eq!(
            link(&k, minus(Expr::var(&k), Expr::int(1)), "K"),
            in_memory(Param::QAIC)
        );
        assert_eq!(
            link(&k, plus(Expr::var(&k), Expr::var(&j)), "J"),
            in_memory(Param::QAIS),
            "the chain through J meets the same addition"
        );
        // Into another variable, or K = J - K: a load, an addition in a register, a store.
        assert_eq!(
            link(&j, plus(Expr::var(&k), Expr::int(1)), "K"),
            in_memory(Param::QAIR)
        );
        assert_eq!(
            link(&k, minus(Expr::var(&j), Expr::var(&k)), "K"),
            in_memory(Param::QAIR)
        );
        // K = (K + 1) * 3: the addition is inside the expression.
        let inner = Expr::arith(
            ArithOp::Mul,
            plus(Expr::var(&k), Expr::int(1)),
            Expr::int(3),
        );
        assert_eq!(
            link(&k, inner, "K"),
            counts(&[(Param::QTIS, 1), (Param::QAIR, 1), (Param::QMIS, 1)])
        );
        // K = -K: the negation is made in a register too.
        let negated = Expr::Unary {
            op: UnaryOp::Neg,
            operand: Box::new(Expr::var(&k)),
        };
        assert_eq!(link(&k, negated, "K"), in_memory(Param::QAIR));
        // COMMON and dummy scalars are loaded and stored around the addition.
        let g = Operand::global("G", Type::Integer);
        assert_eq!(
            link(&g, plus(Expr::var(&g), Expr::int(1)), "G"),
            in_memory(Param::QAIR)
        );
        let mut d = Operand::local("D", Type::Integer);
        d.dummy = true;
        assert_eq!(
            link(&d, plus(Expr::var(&d), Expr::int(1)), "D"),
            in_memory(Param::QAIR)
        );
    }

    #[test]
    fn a_selected_value_waits_for_its_condition_and_the_select() {
        // IF (X(K) .LT. X(M)) M = K as a conditional move.
        let m = Operand::local("M", Type::Integer);
        let k = Operand::local("K", Type::Integer);
        let x = Operand::local("X", Type::Real);
        let element = |i: &Operand| Expr::Element {
            array: x.clone(),
            subscripts: vec![Expr::var(i)],
        };
        let condition = Expr::Compare {
            op: RelOp::Lt,
            lhs: Box::new(element(&k)),
            rhs: Box::new(element(&m)),
        };
        let target = Expr::var(&m);
        // From M: X(M)'s load once its address is known, the compare of reals (an addition's
        // latency), the integer select, then M's forwarding.
        let c = selected_latency(&target, &Expr::var(&k), &condition, "M").unwrap();
        assert_eq!(
            c,
            counts(&[
                (Param::QADR, 1),
                (Param::QARS, 1),
                (Param::QAIR, 1),
                (Param::QTIS, 1)
            ])
        );
        // From K: the chosen value through the select (integers), or the compare's path.
        let c = selected_latency(&target, &Expr::var(&k), &condition, "K").unwrap();
        assert_eq!(c.get(Param::QADR), 1, "{c:?}");
        // A value the IF neither reads nor chooses: no chain.
        assert!(selected_latency(&target, &Expr::var(&k), &condition, "Q").is_none());
        // Under .NOT. and .AND. the compares are still found.
        let joined = Expr::Logic {
            op: LogicOp::And,
            lhs: Box::new(Expr::Unary {
                op: UnaryOp::Not,
                operand: Box::new(condition.clone()),
            }),
            rhs: Box::new(Expr::var(&Operand::local("L", Type::Logical))),
        };
        let c = selected_latency(&target, &Expr::var(&k), &joined, "M").unwrap();
        assert_eq!(c.get(Param::QARS), 1, "{c:?}");
    }

    #[test]
    fn chain_latency_follows_the_path_from_the_operand() {
        // ZI = 2.0 * ZR * ZI + CY: from ZI, one multiply and one add, then the forwarding.
        let zi = Operand::local("ZI", Type::Real);
        let zr = Operand::local("ZR", Type::Real);
        let two = Expr::Constant {
            text: "2.0".into(),
            ty: Type::Real,
        };
        let v = Expr::arith(
            ArithOp::Add,
            Expr::arith(
                ArithOp::Mul,
                Expr::arith(ArithOp::Mul, two, Expr::var(&zr)),
                Expr::var(&zi),
            ),
            Expr::var(&y()),
        );
        let c = chain_latency(&Expr::var(&zi), &v, "ZI").unwrap();
        assert_eq!(
            c,
            counts(&[(Param::QTRS, 1), (Param::QMRS, 1), (Param::QARS, 1)])
        );
        // From ZR the path is deeper: two multiplies.
        let c = chain_latency(&Expr::var(&zi), &v, "zr").unwrap();
        assert_eq!(c.get(Param::QMRS), 2);
        // Not read: no chain. Read only in a subscript: the element's load waits for it
        // (rule 14c; the analyzer follows only subscripts the iteration computes).
        assert!(chain_latency(&Expr::var(&zi), &v, "Q").is_none());
        let a = Operand::local("A", Type::Real);
        let s = Expr::elem(&a, vec![Expr::var(&i())]);
        let c = chain_latency(&Expr::var(&x()), &s, "I").unwrap();
        assert_eq!(c, counts(&[(Param::QADR, 1), (Param::QTRS, 1)]));
        // A transfer forwards, by the target's type.
        let c = chain_latency(&Expr::var(&d()), &Expr::var(&x()), "X").unwrap();
        assert_eq!(c, counts(&[(Param::QTRD, 1)]));
        // Constant-subscript elements chain like scalars: E(1) = E(1) * T.
        let e = Operand::local("E", Type::Real);
        let e1 = Expr::elem(&e, vec![Expr::int(1)]);
        let c = chain_latency(
            &e1,
            &Expr::arith(ArithOp::Mul, e1.clone(), Expr::var(&y())),
            "E(1)",
        )
        .unwrap();
        assert_eq!(c, counts(&[(Param::QTRS, 1), (Param::QMRS, 1)]));
        // Intrinsics on the path add their latency.
        let s = Expr::arith(
            ArithOp::Add,
            Expr::intrinsic("SIN", vec![Expr::var(&x())]),
            Expr::var(&y()),
        );
        let c = chain_latency(&Expr::var(&x()), &s, "X").unwrap();
        assert_eq!(
            c,
            counts(&[(Param::QTRS, 1), (Param::QSNS, 1), (Param::QARS, 1)])
        );
        // MOD and division by a constant have their own latencies on the chain (QRIS, QCIS),
        // though rule 3 counts their throughput as a multiplication; by a variable, a
        // division: IH = MOD(3 * IH, 65521), IH = 3 * IH / 7 and IH = MOD(3 * IH, I).
        let ih = Operand::local("IH", Type::Integer);
        let three_ih = Expr::arith(ArithOp::Mul, Expr::int(3), Expr::var(&ih));
        let by_constant = Expr::intrinsic("MOD", vec![three_ih.clone(), Expr::int(65521)]);
        let c = chain_latency(&Expr::var(&ih), &by_constant, "IH").unwrap();
        assert_eq!(
            c,
            counts(&[(Param::QTIS, 1), (Param::QMIS, 1), (Param::QRIS, 1)])
        );
        assert_eq!(count_expr(&by_constant).get(Param::MISL), 2);
        let divided = Expr::arith(ArithOp::Div, three_ih.clone(), Expr::int(7));
        let c = chain_latency(&Expr::var(&ih), &divided, "IH").unwrap();
        assert_eq!(
            c,
            counts(&[(Param::QTIS, 1), (Param::QMIS, 1), (Param::QCIS, 1)])
        );
        let by_variable = Expr::intrinsic("MOD", vec![three_ih, Expr::var(&i())]);
        let c = chain_latency(&Expr::var(&ih), &by_variable, "IH").unwrap();
        assert_eq!(
            c,
            counts(&[(Param::QTIS, 1), (Param::QMIS, 1), (Param::QDIS, 1)])
        );
    }

    #[test]
    fn branch_misses_are_the_minority_outcome() {
        assert_eq!(
            count_branch_misses(100, 30, None, Some(Param::BMIS), true).get(Param::BMIS),
            30
        );
        assert_eq!(
            count_branch_misses(100, 90, None, Some(Param::BMIS), true).get(Param::BMIS),
            10
        );
        assert!(count_branch_misses(100, 0, None, Some(Param::BMIS), true).is_empty());
        assert!(
            count_branch_misses(5, 9, None, Some(Param::BMIS), true).is_empty(),
            "inconsistent counts give no misses"
        );
        assert!(
            count_branch_misses(100, 50, None, None, false).is_empty(),
            "constant conditions never miss"
        );
        assert!(
            count_branch_misses(100, 50, None, Some(Param::BMIS), false).is_empty(),
            "without a simulation, scalar conditions are taken to be learned"
        );
        // A scalar computed from data (a generator's sign test) misses what the simulation
        // says.
        assert_eq!(
            count_branch_misses(100, 50, Some(48), Some(Param::BMIS), false).get(Param::BMIS),
            48
        );
        // Long runs of one outcome (sorted data) change rarely: few misses.
        assert_eq!(
            count_branch_misses(100, 50, Some(2), Some(Param::BMIS), true).get(Param::BMIS),
            2
        );
        // A simulated predictor that misses more than the minority outcome (fresh random data
        // with a majority it cannot know in advance) is believed, up to every execution.
        assert_eq!(
            count_branch_misses(100, 30, Some(40), Some(Param::BMIS), true).get(Param::BMIS),
            40
        );
        assert_eq!(
            count_branch_misses(100, 30, Some(140), Some(Param::BMIS), true).get(Param::BMIS),
            100
        );
        let a = Operand::local("A", Type::Real);
        // A compare on real data costs the floating-point miss, on integer data the integer
        // one; a compare of scalars none (rule 15).
        let n = Operand::local("N", Type::Integer);
        let real_on_array = Expr::compare(
            RelOp::Le,
            Expr::elem(&a, vec![Expr::var(&i())]),
            Expr::var(&x()),
        );
        assert_eq!(branch_miss_param(&real_on_array), Some(Param::BMIR));
        let int_on_array = Expr::compare(
            RelOp::Le,
            Expr::elem(&n, vec![Expr::var(&i())]),
            Expr::var(&i()),
        );
        assert_eq!(branch_miss_param(&int_on_array), Some(Param::BMIS));
        let joined = Expr::logic(
            LogicOp::And,
            int_on_array.clone(),
            Expr::compare(RelOp::Gt, Expr::var(&x()), Expr::var(&y())),
        );
        assert_eq!(branch_miss_param(&joined), Some(Param::BMIR));
        assert_eq!(
            branch_miss_param(&Expr::compare(RelOp::Gt, Expr::var(&x()), Expr::var(&y()))),
            Some(Param::BMIR),
            "a compare of real scalars is watched too"
        );
        assert_eq!(
            branch_miss_param(&Expr::compare(RelOp::Gt, Expr::int(1), Expr::int(2))),
            None
        );
        assert_eq!(
            count_branch_misses(10, 5, None, Some(Param::BMIR), true).get(Param::BMIR),
            5
        );
        assert!(reads_array(&Expr::compare(
            RelOp::Le,
            Expr::elem(&a, vec![Expr::var(&i())]),
            Expr::var(&x())
        )));
        assert!(!reads_array(&Expr::compare(
            RelOp::Le,
            Expr::elem(&a, vec![Expr::int(1)]),
            Expr::var(&x())
        )));
    }

    #[test]
    fn quadrants_are_the_nearest_quarter_periods_mod_4_and_misses_cost_bmsn() {
        use std::f64::consts::FRAC_PI_2;
        assert_eq!(quadrant(0.3), 0);
        assert_eq!(quadrant(FRAC_PI_2 * 0.9), 1);
        assert_eq!(quadrant(3.0), 2);
        assert_eq!(quadrant(-FRAC_PI_2), 3);
        assert_eq!(quadrant(4.0 * FRAC_PI_2 + 0.1), 0);
        let mut c = OpCounts::one(Param::SIND);
        charge_quadrant_misses(&mut c, 7);
        assert_eq!(c.get(Param::BMSN), 7);
        assert_eq!(loop_charge(Operation::QuadrantMiss), LoopCharge::Event);
    }

    #[test]
    fn double_sines_reduce_arguments_from_2_43_and_each_costs_srdd() {
        assert!(!is_reduced_sine_argument(1.497));
        assert!(!is_reduced_sine_argument(-2.42));
        assert!(is_reduced_sine_argument(2.43));
        assert!(is_reduced_sine_argument(-125.0));
        let mut c = OpCounts::one(Param::SIND);
        charge_reduced_arguments(&mut c, 5);
        assert_eq!(c.get(Param::SRDD), 5);
        assert_eq!(c.get(Param::SIND), 1);
        assert_eq!(loop_charge(Operation::SineReduction), LoopCharge::Event);
    }

    #[test]
    fn a_conversion_between_types_is_one_cnvt_and_a_qcnv_on_a_chain() {
        let d = Operand::local("X", Type::Double);
        let i = Operand::local("I", Type::Integer);
        let z = Operand::local("Z", Type::Complex);
        let conv = |name: &str, o: &Operand| Expr::intrinsic(name, vec![Expr::var(o)]);
        let c = count_assignment(&Expr::var(&d), &conv("DBLE", &i));
        assert_eq!(c.get(Param::CNVT), 1);
        assert!(c.uncharacterized.is_empty());
        // Of its own type, free; of a complex, its real part (rule 13a): REAL of a COMPLEX
        // free, DBLE of one a conversion; AIMAG only takes the other part.
        let same = count_assignment(&Expr::var(&d), &conv("DBLE", &d));
        assert_eq!(same.get(Param::CNVT), 0);
        assert!(same.uncharacterized.is_empty());
        for (name, cnvt) in [("REAL", 0), ("DBLE", 1), ("AIMAG", 0)] {
            let part = count_assignment(&Expr::var(&d), &conv(name, &z));
            assert_eq!(part.get(Param::CNVT), cnvt, "{name}");
            assert!(part.uncharacterized.is_empty(), "{name}");
        }
        // X = DBLE(INT(X)) + X: two conversions on the chain.
        let round_trip = Expr::intrinsic("DBLE", vec![conv("INT", &d)]);
        let value = Expr::arith(ArithOp::Add, round_trip, Expr::var(&d));
        let chain = chain_latency(&Expr::var(&d), &value, "X").unwrap();
        assert_eq!(chain.get(Param::QCNV), 2);
        assert_eq!(chain.get(Param::QARD), 1);
    }

    #[test]
    fn a_conjugate_is_one_addition_of_the_part_and_a_link_on_a_chain() {
        // Z = CONJG(Z): the imaginary part's sign changed, as gfortran emits a unary minus
        // (rule 5), in the part's precision; DCONJG likewise in double precision.
        for (name, ty, add, link) in [
            ("CONJG", Type::Complex, Param::ARSL, Param::QARS),
            ("DCONJG", Type::DoubleComplex, Param::ARDL, Param::QARD),
        ] {
            let z = Operand::local("Z", ty);
            let value = Expr::intrinsic(name, vec![Expr::var(&z)]);
            let c = count_assignment(&Expr::var(&z), &value);
            assert_eq!(c.get(add), 1, "{name}");
            assert!(c.uncharacterized.is_empty(), "{name}");
            let chain = chain_latency(&Expr::var(&z), &value, "Z").unwrap();
            assert_eq!(chain.get(link), 1, "{name}");
        }
    }

    #[test]
    fn long_loops_entered_with_the_same_trips_miss_their_exits() {
        // 100 entries of 20 trips, 30 of them with a new trip count: on a host that foresees
        // exits up to 13 trips the other 70 miss too; up to 20 (or 40), none.
        assert_eq!(unforeseen_exits(100, 2000, 30, 13), 70);
        assert_eq!(unforeseen_exits(100, 2000, 30, 20), 0);
        assert_eq!(unforeseen_exits(100, 2000, 30, 40), 0);
        assert_eq!(unforeseen_exits(0, 0, 0, 13), 0);
        assert_eq!(
            unforeseen_exits(10, 1000, 12, 13),
            0,
            "changes beyond entries"
        );
    }

    #[test]
    fn fmod_steps_are_the_quotient_bits_and_those_beyond_the_tests_are_mqbd() {
        // ilogb(x) - ilogb(y): 2^20 * 1.5 by 1 takes 20 steps, 10 beyond MODD's test.
        assert_eq!(remainder_steps(1.5 * 2f64.powi(20), 1.0), 20);
        // A dividend below the divisor, a zero or a NaN: fmod returns before the loop.
        assert_eq!(remainder_steps(0.75, 1.0), 0);
        assert_eq!(remainder_steps(0.0, 1.0), 0);
        assert_eq!(remainder_steps(f64::NAN, 1.0), 0);
        assert_eq!(remainder_steps(5.0, 0.0), 0);
        // Signs do not matter; the divisor's exponent does.
        assert_eq!(remainder_steps(-4096.5, 0.25), 14);
        // Three calls of 20 steps: 10 each beyond MODD's test. Three of 2: none, not fewer.
        let mut c = OpCounts::new();
        c.add(Param::MODD, 3);
        charge_remainder_steps(&mut c, 60);
        assert_eq!(c.get(Param::MQBD), 30);
        let mut c = OpCounts::new();
        c.add(Param::MODD, 3);
        charge_remainder_steps(&mut c, 6);
        assert_eq!(c.get(Param::MQBD), 0);
        assert_eq!(loop_charge(Operation::RemainderBit), LoopCharge::Event);
    }

    #[test]
    fn an_element_addressed_by_the_chain_is_one_qadr_link() {
        // X = A(K + 1) * 2: from K, an index addition then the load (rule 14c); from the
        // element itself, none; an element not addressed by K is no path from K.
        let a = Operand::local("A", Type::Double);
        let k = Operand::local("K", Type::Integer);
        let x = Operand::local("X", Type::Double);
        let elem = Expr::elem(
            &a,
            vec![Expr::arith(ArithOp::Add, Expr::var(&k), Expr::int(1))],
        );
        let value = Expr::arith(ArithOp::Mul, elem.clone(), Expr::var(&x));
        let chain = chain_latency(&Expr::var(&x), &value, "K").unwrap();
        assert_eq!(chain.get(Param::QADR), 1);
        assert_eq!(
            chain.get(Param::QAIR),
            1,
            "a subscript's addition is in a register"
        );
        assert_eq!(chain.get(Param::QMRD), 1);
        let from_elem = chain_latency(&Expr::var(&x), &value, &elem.to_string()).unwrap();
        assert_eq!(from_elem.get(Param::QADR), 0);
        assert!(chain_latency(&Expr::var(&x), &value, "J").is_none());
        assert_eq!(cache_link(Param::QADR), Some(1));
        assert_eq!(cache_link(Param::QAIS), None);
    }

    #[test]
    fn a_real_functions_result_has_a_return_link_and_an_integers_none() {
        assert_eq!(function_result_latency(Type::Double).get(Param::QFRD), 1);
        assert_eq!(function_result_latency(Type::Real).get(Param::QFRS), 1);
        assert!(function_result_latency(Type::Integer).is_empty());
        assert!(function_result_latency(Type::Logical).is_empty());
    }

    #[test]
    fn index_costs_a_call_and_leaves_its_scans_to_the_run() {
        // Rule 23: INDX per reference; the positions come from the counting run.
        let s = Expr::var(&Operand::local("S", Type::Character));
        let c = count_expr(&Expr::intrinsic("INDEX", vec![s.clone(), s]));
        assert_eq!(c.get(Param::INDX), 1);
        assert_eq!(c.uncharacterized[INDEX_SCAN], 1);
        let mut run = c.scaled(10);
        charge_index_scans(&mut run, 990);
        assert_eq!(run.get(Param::INDX), 10);
        assert_eq!(run.get(Param::SCAN), 990);
        assert!(!run.uncharacterized.contains_key(INDEX_SCAN));
    }

    #[test]
    fn a_concatenation_is_one_chcc() {
        // Rule 13b: the heap temporary's call, whatever the operands, and the move of its
        // result (no CHAS, rule 13c).
        let a = Expr::var(&Operand::local("A", Type::Character));
        let b = Expr::var(&Operand::local("B", Type::Character));
        let joined = Expr::arith(ArithOp::Concat, a.clone(), b);
        let c = count_expr(&Expr::arith(ArithOp::Concat, joined, a.clone()));
        assert_eq!(c.get(Param::CHCC), 2);
        assert!(c.uncharacterized.is_empty(), "{:?}", c.uncharacterized);
        assert_eq!(loop_charge(Param::CHCC.def().operation), LoopCharge::Event);
        let t = Expr::var(&Operand::local("T", Type::Character));
        let assigned = count_assignment(&t, &Expr::arith(ArithOp::Concat, a.clone(), a));
        assert_eq!(assigned.get(Param::CHCC), 1);
        assert_eq!(assigned.get(Param::CHAS), 0);
        assert!(assigned.uncharacterized.is_empty());
    }

    fn text(name: &str, length: Option<u32>) -> Expr {
        let o = Operand::local(name, Type::Character);
        Expr::var(&length.map_or(o.clone(), |n| o.with_length(n)))
    }

    fn literal(text: &str) -> Expr {
        Expr::Constant {
            text: text.into(),
            ty: Type::Character,
        }
    }

    #[test]
    fn a_characters_length_is_known_from_its_declaration_bounds_or_literal() {
        let i = Expr::var(&Operand::local("I", Type::Integer));
        let j = Expr::var(&Operand::local("J", Type::Integer));
        let s = || text("S", Some(80));
        assert_eq!(character_length(&s()), Some(80));
        assert_eq!(character_length(&text("S", None)), None);
        assert_eq!(character_length(&literal("'IT''S'")), Some(4));
        assert_eq!(character_length(&literal("\"A\"")), Some(1));
        let one = substring(s(), Some(i.clone()), Some(i.clone()));
        assert_eq!(character_length(&one), Some(1));
        assert_eq!(character_length(&substring(s(), Some(i), Some(j))), None);
        assert_eq!(
            character_length(&substring(s(), Some(Expr::int(3)), Some(Expr::int(10)))),
            Some(8)
        );
        assert_eq!(character_length(&substring(s(), None, None)), None);
        let code = Expr::intrinsic("CHAR", vec![Expr::int(65)]);
        assert_eq!(character_length(&code), Some(1));
        let joined = Expr::arith(ArithOp::Concat, code, literal("'AB'"));
        assert_eq!(character_length(&joined), Some(3));
    }

    #[test]
    fn single_characters_are_bytes_and_strings_are_library_calls() {
        // Rule 13c: gfortran -O0 compares and moves one character inline (cmpb, movzbl) and
        // calls memcmp, _gfortran_compare_string, memmove and memset for strings.
        let i = Expr::var(&Operand::local("I", Type::Integer));
        let line = || text("L", Some(80));
        let at_i = || substring(line(), Some(i.clone()), Some(i.clone()));
        let c = count_expr(&Expr::compare(RelOp::Eq, at_i(), literal("'A'")));
        assert_eq!(c.get(Param::CISL), 1);
        assert_eq!(c.get(Param::ARR1), 1);
        assert_eq!(c.get(Param::CHCM), 0);
        assert!(c.uncharacterized.is_empty(), "{:?}", c.uncharacterized);
        let word = || text("W", Some(16));
        let c = count_expr(&Expr::compare(RelOp::Ne, word(), literal("'END'")));
        assert_eq!((c.get(Param::CHCM), c.get(Param::CISL)), (1, 0));
        let c = count_expr(&Expr::intrinsic("LLT", vec![word(), word()]));
        assert_eq!(c.get(Param::CHCM), 1);
        assert!(c.uncharacterized.is_empty(), "{:?}", c.uncharacterized);
        // One character into one: a byte moved as an integer is; a string: CHAS.
        let c = count_assignment(&text("C", Some(1)), &at_i());
        assert_eq!((c.get(Param::TISL), c.get(Param::CHAS)), (1, 0));
        let c = count_assignment(&at_i(), &Expr::intrinsic("CHAR", vec![i.clone()]));
        assert_eq!((c.get(Param::SISL), c.get(Param::CHAS)), (1, 0));
        let c = count_assignment(&word(), &substring(line(), Some(i.clone()), None));
        assert_eq!((c.get(Param::CHAS), c.get(Param::ARR1)), (1, 1));
        assert!(c.uncharacterized.is_empty(), "{:?}", c.uncharacterized);
        // A substring with constant bounds has its address folded.
        let fixed = substring(line(), Some(Expr::int(1)), Some(Expr::int(8)));
        let c = count_assignment(&word(), &fixed);
        assert_eq!((c.get(Param::CHAS), c.get(Param::ARR1)), (1, 0));
        // ICHAR is the byte its argument loads; a character argument an address.
        let c = count_expr(&Expr::intrinsic("ICHAR", vec![at_i()]));
        assert_eq!(c.get(Param::ARR1), 1);
        assert_eq!(c.total_characterized(), 1, "{c:?}");
        assert!(c.uncharacterized.is_empty(), "{c:?}");
        assert_eq!(argument_param(Type::Character), Some(Param::AGIS));
        for p in [Param::CHAS, Param::CHCM] {
            assert_eq!(loop_charge(p.def().operation), LoopCharge::Event);
        }
    }

    #[test]
    fn index_misses_the_minority_of_its_first_character_compares() {
        // Rule 23b: the predictor follows the majority way of the compare.
        assert_eq!(index_misses(100, 25), 25);
        assert_eq!(index_misses(100, 75), 25);
        // A character at every position, or at none: the compare always goes one way.
        assert_eq!(index_misses(100, 100), 0);
        assert_eq!(index_misses(100, 0), 0);
        // A search that found its substring at the first position tried.
        assert_eq!(index_misses(1, 1), 0);
        let mut c = OpCounts::default();
        charge_index_misses(&mut c, 7);
        assert_eq!(c.get(Param::SCNM), 7);
        assert!(is_branch_miss(Param::SCNM.def().operation));
        assert_eq!(loop_charge(Param::SCNM.def().operation), LoopCharge::Event);
    }

    #[test]
    fn outside_the_catalogue_is_uncharacterized() {
        let z = Operand::local("Z", Type::Complex);
        let c = count_assignment(
            &Expr::var(&z),
            &Expr::arith(ArithOp::Pow, Expr::var(&z), Expr::var(&z)),
        );
        assert_eq!(c.uncharacterized["complex exponent, general power"], 1);
        let e = count_expr(&Expr::intrinsic("EXP", vec![Expr::var(&z)]));
        assert!(e.params.is_empty(), "EXP of a complex is not EXPS");
        assert_eq!(count_io("write").uncharacterized["I/O statement WRITE"], 1);
    }

    #[test]
    fn complex_arithmetic_counts_its_real_operations() {
        // Rule 13a: Z = Z * W is four multiplications, two additions and two stores of the
        // parts' precision; a division is Smith's algorithm; a transfer moves two parts.
        let z = Operand::local("Z", Type::Complex);
        let w = Operand::local("W", Type::Complex);
        let c = count_assignment(
            &Expr::var(&z),
            &Expr::arith(ArithOp::Mul, Expr::var(&z), Expr::var(&w)),
        );
        assert!(c.uncharacterized.is_empty());
        assert_eq!(
            (c.get(Param::MRSL), c.get(Param::ARSL), c.get(Param::SRSL)),
            (4, 2, 2)
        );
        let dz = Operand::local("DZ", Type::DoubleComplex);
        let d = count_assignment(
            &Expr::var(&dz),
            &Expr::arith(ArithOp::Div, Expr::var(&dz), Expr::var(&z)),
        );
        let smith = (
            d.get(Param::DRDL),
            d.get(Param::MRDL),
            d.get(Param::ARDL),
            d.get(Param::CRDL),
        );
        assert_eq!(smith, (3, 3, 3, 1), "Z promoted to double complex");
        assert_eq!(
            count_assignment(&Expr::var(&z), &Expr::var(&w)).get(Param::TRSL),
            2
        );
        assert_eq!(count_call(&[Expr::var(&z)]).get(Param::AGRS), 1);
        assert_eq!(count_call(&[Expr::var(&dz)]).get(Param::AGRD), 1);
    }

    #[test]
    fn the_modulus_of_a_complex_is_the_library_hypot() {
        // Rule 13a: CABS, ABS of a complex and CDABS call hypot; CMPLX costs nothing.
        let x = x();
        let z = Operand::local("Z", Type::Complex);
        let dz = Operand::local("DZ", Type::DoubleComplex);
        let packed = Expr::intrinsic("CMPLX", vec![Expr::var(&x), Expr::var(&y())]);
        let c = count_expr(&Expr::intrinsic("CABS", vec![packed]));
        assert_eq!(c.get(Param::CABS), 1);
        assert_eq!(c.total_characterized(), 1);
        assert!(c.uncharacterized.is_empty());
        let generic = Expr::intrinsic("ABS", vec![Expr::var(&z)]);
        assert_eq!(generic.ty(), Type::Real);
        assert_eq!(count_expr(&generic).get(Param::CABS), 1);
        let dabs = Expr::intrinsic("CDABS", vec![Expr::var(&dz)]);
        assert_eq!(count_expr(&dabs).get(Param::CABD), 1);
        // On a chain X = CABS(CMPLX(X, Y)) waits for hypot's latency and the transfer.
        let chain = chain_latency(
            &Expr::var(&x),
            &Expr::intrinsic(
                "CABS",
                vec![Expr::intrinsic(
                    "CMPLX",
                    vec![Expr::var(&x), Expr::var(&y())],
                )],
            ),
            "X",
        )
        .unwrap();
        assert_eq!(chain.get(Param::QCBS), 1);
        assert_eq!(chain.get(Param::QTRS), 1);
    }

    #[test]
    fn a_complex_recurrence_waits_for_a_multiplication_and_two_additions() {
        // Horner's rule in complex arithmetic, P = P * Z + A: the products feed an
        // addition, then the sum with A, then the store to the next iteration's load.
        let p = Operand::local("P", Type::Complex);
        let z = Operand::local("Z", Type::Complex);
        let a = Operand::local("A", Type::Complex);
        let value = Expr::arith(
            ArithOp::Add,
            Expr::arith(ArithOp::Mul, Expr::var(&p), Expr::var(&z)),
            Expr::var(&a),
        );
        let c = chain_latency(&Expr::var(&p), &value, "P").unwrap();
        let links = (c.get(Param::QMRS), c.get(Param::QARS), c.get(Param::QTRS));
        assert_eq!(links, (1, 2, 1));
    }

    #[test]
    fn a_narrow_packed_division_takes_its_share_of_the_widest_rows_time() {
        // The Intel host at 3.1 GHz: 512-bit vdivpd 16 cycles, scalar divsd 4.
        let (wide, scalar) = (16.0 / 3.1, 4.0 / 3.1);
        // Ten SSE2 divpd (128 bits): as many scalar divisions' time.
        let t = packed_divider_ns(10, 1280, wide, 512, Some(scalar));
        assert!((t - 10.0 * scalar).abs() < 1e-9, "{t}");
        // Ten 256-bit vdivpd: half the widest row's time each.
        let t = packed_divider_ns(10, 2560, wide, 512, Some(scalar));
        assert!((t - 5.0 * wide).abs() < 1e-9, "{t}");
        // Ten 512-bit: the row's time; without the bits too.
        assert!((packed_divider_ns(10, 5120, wide, 512, Some(scalar)) - 10.0 * wide).abs() < 1e-9);
        assert!((packed_divider_ns(10, 0, wide, 512, Some(scalar)) - 10.0 * wide).abs() < 1e-9);
        // Never less than a scalar division an instruction.
        let t = packed_divider_ns(10, 1280, wide, 512, Some(2.0 * scalar));
        assert!((t - 20.0 * scalar).abs() < 1e-9, "{t}");
    }

    #[test]
    fn a_sines_range_branches_follow_the_librarys_bounds() {
        assert_eq!(sine_range_outcomes(0.8, true), vec![false]);
        assert_eq!(sine_range_outcomes(-0.9, true), vec![true, false]);
        assert_eq!(sine_range_outcomes(20.891, true), vec![true, true]);
        assert_eq!(sine_range_outcomes(0.8, false), vec![true, false]);
        assert_eq!(sine_range_outcomes(0.7, false), vec![false]);
        assert_eq!(sine_range_outcomes(-150.0, false), vec![true, true]);
        // The second double bound is rule 24b's: a reduced argument is beyond both.
        assert!(is_reduced_sine_argument(SINE_RANGES_DOUBLE[1]));
    }

    #[test]
    fn mod_of_reals_is_the_library_remainder() {
        // Rule 9: X = MOD(X + Y, 1.0) calls fmod (MODS), not a division; DMOD and MOD of
        // doubles are MODD; MOD of integers keeps rule 3.
        let sum = Expr::arith(ArithOp::Add, Expr::var(&x()), Expr::var(&y()));
        let one = Expr::Constant {
            text: "1.0".into(),
            ty: Type::Real,
        };
        let m = Expr::intrinsic("MOD", vec![sum, one]);
        let c = count_assignment(&Expr::var(&x()), &m);
        assert_eq!(c.get(Param::MODS), 1);
        assert_eq!(c.get(Param::DRSL), 0);
        let d = Expr::var(&Operand::local("D", Type::Double));
        let dm = Expr::intrinsic("DMOD", vec![d.clone(), d.clone()]);
        assert_eq!(count_assignment(&d, &dm).get(Param::MODD), 1);
        let im = Expr::intrinsic("MOD", vec![Expr::var(&i()), Expr::var(&i())]);
        assert_eq!(count_assignment(&Expr::var(&i()), &im).get(Param::DISL), 1);
        // On a chain, fmod's latency.
        let chain = chain_latency(&Expr::var(&x()), &m, "X").unwrap();
        assert_eq!(chain.get(Param::QMDS), 1);
    }

    #[test]
    fn dummy_arguments_cost_an_address_load_per_use() {
        // Y(I) = Y(I) + A * X(I) with Y, A, X dummies (SAXPY): four uses, four DUMA.
        let dy = Operand::dummy("Y", Type::Real);
        let xs = Operand::dummy("X", Type::Real);
        let a = Operand::dummy("A", Type::Real);
        let i = Expr::var(&Operand::local("I", Type::Integer));
        let c = count_assignment(
            &Expr::elem(&dy, vec![i.clone()]),
            &Expr::arith(
                ArithOp::Add,
                Expr::elem(&dy, vec![i.clone()]),
                Expr::arith(
                    ArithOp::Mul,
                    Expr::var(&a),
                    Expr::elem(&xs, vec![i.clone()]),
                ),
            ),
        );
        assert_eq!(c.get(Param::DUMA), 4);
        assert_eq!(c.get(Param::ARR1), 3);
        assert_eq!(c.get(Param::SRSL), 1);
        // A dummy subscript is a use too; local operands cost none.
        let n = Operand::dummy("N", Type::Integer);
        let c = count_assignment(&Expr::var(&x()), &Expr::elem(&xs, vec![Expr::var(&n)]));
        assert_eq!(c.get(Param::DUMA), 2);
        assert_eq!(
            count_assignment(&Expr::var(&x()), &Expr::var(&y())).get(Param::DUMA),
            0
        );
        // Passing a dummy on passes its address; passing an element of a dummy array reaches it.
        let c = count_call(&[Expr::var(&a), Expr::elem(&xs, vec![i])]);
        assert_eq!(c.get(Param::DUMA), 1);
        assert_eq!(c.get(Param::AGRS), 2);
    }

    #[test]
    fn a_constant_streamed_into_a_large_array_costs_a_csta() {
        let i = Expr::var(&Operand::local("I", Type::Integer));
        let k = Expr::var(&Operand::local("K", Type::Integer));
        let truth = Expr::Constant {
            text: ".TRUE.".into(),
            ty: Type::Logical,
        };
        let big = Operand::local("ISPRIM", Type::Logical).large();
        let in_do = |t: &Expr, v: &Expr| count_assignment_in(t, v, Some("I")).get(Param::CSTA);
        // Sieve's initialisation in DO I: one transfer, one ARR1 and one CSTA.
        let c = count_assignment_in(&Expr::elem(&big, vec![i.clone()]), &truth, Some("I"));
        assert_eq!(c.get(Param::CSTA), 1);
        assert_eq!(c.get(Param::TISL), 1);
        assert_eq!(c.get(Param::ARR1), 1);
        // An integer constant expression, into a COMMON array by its first subscript.
        let gbig = Operand::global("N", Type::Integer).large();
        let minus_one = Expr::arith(ArithOp::Sub, Expr::int(0), Expr::int(1));
        assert_eq!(
            in_do(&Expr::elem(&gbig, vec![i.clone(), k.clone()]), &minus_one),
            1
        );
        // Not a stream: another subscript (sieve's crossing-out, A(K)), the loop variable
        // second, no DO loop around it.
        assert_eq!(in_do(&Expr::elem(&big, vec![k.clone()]), &truth), 0);
        assert_eq!(
            in_do(&Expr::elem(&gbig, vec![k.clone(), i.clone()]), &minus_one),
            0
        );
        assert_eq!(
            count_assignment(&Expr::elem(&big, vec![i.clone()]), &truth).get(Param::CSTA),
            0
        );
        // Not: a small array, a variable, a REAL constant, a dummy array, a scalar.
        let small = Operand::local("L", Type::Logical);
        assert_eq!(in_do(&Expr::elem(&small, vec![i.clone()]), &truth), 0);
        let lt = Expr::var(&Operand::local("LT", Type::Logical));
        assert_eq!(in_do(&Expr::elem(&big, vec![i.clone()]), &lt), 0);
        let rbig = Operand::local("R", Type::Real).large();
        let zero = Expr::Constant {
            text: "0.0".into(),
            ty: Type::Real,
        };
        assert_eq!(in_do(&Expr::elem(&rbig, vec![i.clone()]), &zero), 0);
        let dbig = Operand::dummy("D", Type::Integer).large();
        assert_eq!(in_do(&Expr::elem(&dbig, vec![i]), &Expr::int(1)), 0);
        assert_eq!(
            in_do(
                &Expr::var(&Operand::local("K", Type::Integer)),
                &Expr::int(1)
            ),
            0
        );
    }
}

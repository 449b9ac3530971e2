//! The experiments of the system characterizer: one test body per parameter (or per pair of
//! coupled parameters), built from `model`'s statement vocabulary so the counts that turn a
//! timing into a parameter come from the same rules the analyzer applies to programs
//! (one set of rules, two sides).
//!
//! Every body is shaped so that no operand chain can drift to Inf, NaN or denormals (Whaley & Castaldo
//! section 5.2, RangeGuard): each chain `X = f(X)` has a bounded attracting cycle or fixed point
//! (`X = A - X` alternates, `X = A / X` alternates, `X = SIN(X) + A` converges to a normal
//! number), and the generated program checks the final values.

use model::catalogue::{CostKind, StorageClass};
use model::expr::{ArithOp, Expr, LogicOp, Operand, RelOp, Type};
use model::{rules, OpCounts, Param};

/// Independent operand chains per arithmetic body: enough to keep the body throughput-bound
/// rather than latency-bound on a superscalar CPU at -O0.
pub const CHAINS: usize = 16;
/// Chains for expensive bodies (intrinsics, calls).
pub const FEW_CHAINS: usize = 8;
/// Random IFs per pass of the branch-miss test: few, so each miss costs what it costs amid a
/// loop's ordinary work rather than a pile-up of misses (sixteen gave 12 ns a miss, twice what
/// the samples' data-dependent IFs cost).
pub const BRANCH_CHAINS: usize = 2;

/// Trip counts of the two DO-loop experiments (Saavedra-Barrera's section 4.5.1: vary the trips).
pub const SHORT_TRIPS: u64 = 1;
pub const LONG_TRIPS: u64 = 16;

/// One source line of a body: an optional statement label and the statement text.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub label: Option<u32>,
    pub text: String,
}

/// A statement of a test body and the operations one pass through it executes.
#[derive(Debug, Clone)]
pub struct BodyStmt {
    pub lines: Vec<Line>,
    pub counts: OpCounts,
}

/// An experiment: a test body, the initial values of its operands, and what it is for.
#[derive(Debug, Clone)]
pub struct Experiment {
    pub name: String,
    pub purpose: String,
    /// `(operand, initial value expression)`; values come from separately compiled functions
    /// (RVAL, DVAL, IVAL, LVAL) so the compiler cannot fold them (Saavedra-Barrera's section 4.3).
    pub inits: Vec<(String, String)>,
    pub body: Vec<BodyStmt>,
    /// Declarations this test alone needs (CSTA's large array), after the shared ones.
    pub locals: Vec<String>,
    /// Its speed is a property of the process, two-valued (CSTA: docs/model.md, refinement 28): a
    /// characterization by the minimum takes it by the round median instead.
    pub typical_process: bool,
}

impl Experiment {
    /// A short hash of the test's text (initial values and body lines), recorded with its
    /// observations so that a changed test is measured again rather than mixed with the old.
    pub fn fingerprint(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        for (name, value) in &self.inits {
            h.update(format!("{name} = {value}\n"));
        }
        for d in &self.locals {
            h.update(format!("local {d}\n"));
        }
        for line in self.body.iter().flat_map(|s| &s.lines) {
            h.update(format!("{:?} {}\n", line.label, line.text));
        }
        h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Operations executed by one pass through the body.
    pub fn counts(&self) -> OpCounts {
        let mut c = OpCounts::new();
        for s in &self.body {
            c += &s.counts;
        }
        c
    }
}

/// A set of parameters solved together from a set of experiments, once the other parameters
/// those experiments contain are known (Saavedra-Barrera's section 4.4.1: direct, composite, indirect).
#[derive(Debug, Clone)]
pub struct Group {
    pub unknowns: Vec<Param>,
    pub experiments: Vec<String>,
    /// An experiment whose body time and counts are subtracted from each experiment first:
    /// the same body without the operation, when the operation cannot be had alone.
    pub baseline: Option<String>,
}

impl Group {
    /// Every experiment the group needs, its baseline included.
    pub fn all_experiments(&self) -> Vec<String> {
        let mut v = self.experiments.clone();
        v.extend(self.baseline.clone());
        v
    }

    /// The counts that solve the group from experiment `name`: its body's, less the baseline's.
    pub fn counts_of(&self, exps: &[Experiment], name: &str) -> OpCounts {
        let find = |n: &str| {
            exps.iter()
                .find(|e| e.name == n)
                .map(Experiment::counts)
                .unwrap_or_default()
        };
        match &self.baseline {
            Some(b) => find(name).minus(&find(b)),
            None => find(name),
        }
    }
}

/// Which pool of operands an arithmetic family uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flavor {
    pub ty: Type,
    pub global: bool,
}

impl Flavor {
    fn prefix(self) -> &'static str {
        match (self.ty, self.global) {
            (Type::Real, false) => "",
            (Type::Double, false) => "D",
            (Type::Integer, false) => "I",
            (Type::Real, true) => "G",
            (Type::Double, true) => "GD",
            (Type::Integer, true) => "GI",
            _ => unreachable!("no operand pool for {:?}", self),
        }
    }
    fn op(self, base: &str, k: usize) -> Operand {
        let name = format!("{}{}{}", self.prefix(), base, k);
        Operand {
            global: self.global,
            ..Operand::local(&name, self.ty)
        }
    }
    /// Chain variable k.
    pub fn x(self, k: usize) -> Operand {
        self.op("X", k)
    }
    /// Constant k of the first and second constant pools.
    pub fn a(self, k: usize) -> Operand {
        self.op("A", k)
    }
    pub fn b(self, k: usize) -> Operand {
        self.op("B", k)
    }
    /// The zero of the pool.
    pub fn zero(self) -> Operand {
        Operand {
            name: format!("{}Z", self.prefix()),
            ty: self.ty,
            global: self.global,
            dummy: false,
            large: false,
            length: None,
        }
    }
    /// An initial-value expression for `v` in this pool's type.
    pub fn value(self, v: f64) -> String {
        match self.ty {
            Type::Real => format!("RVAL({v:?})"),
            Type::Double => format!("DVAL({v:?}D0)"),
            Type::Integer => format!("IVAL({})", v as i64),
            _ => unreachable!(),
        }
    }
    fn param(self, op: model::catalogue::Operation) -> Param {
        use model::catalogue::{DataType, Precision, StorageClass};
        let (dt, prec) = match self.ty {
            Type::Real => (DataType::Real, Precision::Single),
            Type::Double => (DataType::Real, Precision::Double),
            _ => (DataType::Integer, Precision::Single),
        };
        let st = if self.global {
            StorageClass::Global
        } else {
            StorageClass::Local
        };
        Param::lookup(op, dt, prec, st).expect("catalogue covers every arithmetic flavor")
    }
}

pub const FLAVORS: [Flavor; 6] = [
    Flavor {
        ty: Type::Real,
        global: false,
    },
    Flavor {
        ty: Type::Double,
        global: false,
    },
    Flavor {
        ty: Type::Integer,
        global: false,
    },
    Flavor {
        ty: Type::Real,
        global: true,
    },
    Flavor {
        ty: Type::Double,
        global: true,
    },
    Flavor {
        ty: Type::Integer,
        global: true,
    },
];

fn v(o: &Operand) -> Expr {
    Expr::var(o)
}

fn assign(target: &Operand, value: Expr) -> BodyStmt {
    let t = Expr::var(target);
    BodyStmt {
        lines: vec![Line {
            label: None,
            text: format!("{t} = {value}"),
        }],
        counts: rules::count_assignment(&t, &value),
    }
}

fn assign_expr(target: Expr, value: Expr) -> BodyStmt {
    BodyStmt {
        lines: vec![Line {
            label: None,
            text: format!("{target} = {value}"),
        }],
        counts: rules::count_assignment(&target, &value),
    }
}

/// `IF (cond) target = value` whose condition the initial values make false: one pass executes
/// the condition only.
fn if_never(cond: Expr, target: &Operand, value: Expr) -> BodyStmt {
    BodyStmt {
        lines: vec![Line {
            label: None,
            text: format!("IF ({cond}) {} = {value}", target.name),
        }],
        counts: rules::count_condition(&cond),
    }
}

fn call(name: &str, args: Vec<Expr>) -> BodyStmt {
    let text = if args.is_empty() {
        format!("CALL {name}")
    } else {
        let list: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        format!("CALL {name}({})", list.join(", "))
    };
    BodyStmt {
        counts: rules::count_call(&args),
        lines: vec![Line { label: None, text }],
    }
}

fn inits_for(
    f: Flavor,
    n: usize,
    x: Option<f64>,
    a: Option<f64>,
    b: Option<f64>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for k in 1..=n {
        if let Some(xv) = x {
            out.push((f.x(k).name, f.value(xv)));
        }
        if let Some(av) = a {
            out.push((f.a(k).name, f.value(av)));
        }
        if let Some(bv) = b {
            out.push((f.b(k).name, f.value(bv)));
        }
    }
    out.push((f.zero().name, f.value(0.0)));
    out
}

fn exp(
    name: String,
    purpose: &str,
    inits: Vec<(String, String)>,
    body: Vec<BodyStmt>,
) -> Experiment {
    Experiment {
        name,
        purpose: purpose.to_string(),
        inits,
        body,
        locals: Vec::new(),
        typical_process: false,
    }
}

/// Two statements and the labelled CONTINUE the first leads to: a DO loop of one statement
/// (`DO l ...`, the statement, `l CONTINUE`) or a GO TO over a statement.
fn to_continue(first: String, second: String, label: u32) -> Vec<Line> {
    vec![
        Line {
            label: None,
            text: first,
        },
        Line {
            label: None,
            text: second,
        },
        Line {
            label: Some(label),
            text: "CONTINUE".into(),
        },
    ]
}

/// Operands of the loop-control and index pools.
fn int_local(name: &str) -> Operand {
    Operand::local(name, Type::Integer)
}
fn index(k: usize) -> Operand {
    int_local(&format!("K{k}"))
}

/// The experiment with an empty body: the IF/GO TO loop control itself (Saavedra-Barrera's table 4.8,
/// "test control overhead").
pub const LOOP_EXPERIMENT: &str = "LOOP";

/// All experiments and the groups that solve the 74 parameters from them, in solving order:
/// the loop control, then the catalogue's regions one after the other.
pub fn catalogue() -> (Vec<Experiment>, Vec<Group>) {
    let mut exps = vec![exp(
        LOOP_EXPERIMENT.into(),
        "empty body: loop-control overhead",
        vec![],
        vec![],
    )];
    let mut groups = Vec::new();
    arithmetic_experiments(&mut exps, &mut groups);
    compare_experiments(&mut exps, &mut groups);
    call_experiments(&mut exps, &mut groups);
    array_experiments(&mut exps, &mut groups);
    // Statement labels of the branch tests, shared so that none repeats.
    let mut label = 100u32;
    jump_experiments(&mut exps, &mut groups, &mut label);
    do_loop_experiments(&mut exps, &mut groups, &mut label);
    do_variable_experiment(&mut exps, &mut groups, &mut label);
    branch_miss_experiments(&mut exps, &mut groups, &mut label);
    quadrant_miss_experiments(&mut exps, &mut groups);
    issue_experiments(&mut exps, &mut groups);
    intrinsic_experiments(&mut exps, &mut groups);
    reduced_sine_experiment(&mut exps, &mut groups);
    index_experiments(&mut exps, &mut groups);
    concatenation_experiment(&mut exps, &mut groups);
    character_experiments(&mut exps, &mut groups);
    latency_experiments(&mut exps, &mut groups);
    conversion_experiments(&mut exps, &mut groups);
    rounding_experiments(&mut exps, &mut groups);
    addressed_load_experiment(&mut exps, &mut groups);
    integer_addition_experiments(&mut exps, &mut groups);
    element_transfer_experiment(&mut exps, &mut groups);
    window_experiment(&mut exps, &mut groups);
    remainder_step_experiment(&mut exps, &mut groups);
    (exps, groups)
}

/// The group that solves `ps` from experiment `e` alone (a direct test).
fn single(ps: &[Param], e: &str) -> Group {
    Group {
        unknowns: ps.to_vec(),
        experiments: vec![e.to_string()],
        baseline: None,
    }
}

/// Regions 1-6: arithmetic by type and storage class (Saavedra-Barrera's tables 4.2, 4.3).
fn arithmetic_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    use model::catalogue::Operation as Op;
    for f in FLAVORS {
        let (s, a, m, d, e, x, t) = (
            f.param(Op::Store),
            f.param(Op::Add),
            f.param(Op::Multiply),
            f.param(Op::Divide),
            f.param(Op::PowerInteger),
            f.param(Op::PowerGeneral),
            f.param(Op::MemoryTransfer),
        );
        let int = f.ty == Type::Integer;
        let n = CHAINS;
        // X = A - X alternates between X0 and A - X0: bounded for every type.
        let a1 = format!("{a}.1");
        exps.push(exp(
            a1.clone(),
            "store + one addition per statement",
            inits_for(f, n, Some(1.0), Some(if int { 5.0 } else { 2.5 }), None),
            (1..=n)
                .map(|k| assign(&f.x(k), Expr::arith(ArithOp::Sub, v(&f.a(k)), v(&f.x(k)))))
                .collect(),
        ));
        let a2 = format!("{a}.2");
        exps.push(exp(
            a2.clone(),
            "store + two additions per statement",
            inits_for(f, n, Some(1.0), Some(if int { 5.0 } else { 2.5 }), None),
            (1..=n)
                .map(|k| {
                    let inner =
                        Expr::Paren(Box::new(Expr::arith(ArithOp::Sub, v(&f.a(k)), v(&f.x(k)))));
                    assign(&f.x(k), Expr::arith(ArithOp::Add, inner, v(&f.zero())))
                })
                .collect(),
        ));
        groups.push(Group {
            unknowns: vec![s, a],
            experiments: vec![a1, a2],
            baseline: None,
        });
        // X = X * 1: the value stays put; multiplication time does not depend on it.
        exps.push(exp(
            m.to_string(),
            "store + one multiplication per statement",
            inits_for(f, n, Some(if int { 3.0 } else { 1.5 }), Some(1.0), None),
            (1..=n)
                .map(|k| assign(&f.x(k), Expr::arith(ArithOp::Mul, v(&f.x(k)), v(&f.a(k)))))
                .collect(),
        ));
        groups.push(single(&[m], m.mnemonic()));
        // X = A / X alternates between X0 and A / X0.
        exps.push(exp(
            d.to_string(),
            "store + one division per statement",
            inits_for(
                f,
                n,
                Some(if int { 3.0 } else { 1.7 }),
                Some(if int { 12.0 } else { 3.0 }),
                None,
            ),
            (1..=n)
                .map(|k| assign(&f.x(k), Expr::arith(ArithOp::Div, v(&f.a(k)), v(&f.x(k)))))
                .collect(),
        ));
        groups.push(single(&[d], d.mnemonic()));
        // X = X ** 2 with X = 1 stays 1 (the common case of a literal exponent).
        exps.push(exp(
            e.to_string(),
            "store + X**2 per statement",
            inits_for(f, n, Some(1.0), None, None),
            (1..=n)
                .map(|k| assign(&f.x(k), Expr::arith(ArithOp::Pow, v(&f.x(k)), Expr::int(2))))
                .collect(),
        ));
        groups.push(single(&[e], e.mnemonic()));
        // Real: X = A ** X with A = 0.5 converges to 0.641; integer: X = X ** A with X = 1.
        let body = (1..=n)
            .map(|k| {
                if int {
                    assign(&f.x(k), Expr::arith(ArithOp::Pow, v(&f.x(k)), v(&f.a(k))))
                } else {
                    assign(&f.x(k), Expr::arith(ArithOp::Pow, v(&f.a(k)), v(&f.x(k))))
                }
            })
            .collect();
        exps.push(exp(
            x.to_string(),
            "store + general power per statement",
            inits_for(
                f,
                n,
                Some(if int { 1.0 } else { 0.6 }),
                Some(if int { 3.0 } else { 0.5 }),
                None,
            ),
            body,
        ));
        groups.push(single(&[x], x.mnemonic()));
        exps.push(exp(
            t.to_string(),
            "memory transfer per statement",
            inits_for(f, n, Some(1.0), Some(if int { 5.0 } else { 2.5 }), None),
            (1..=n).map(|k| assign(&f.x(k), v(&f.a(k)))).collect(),
        ));
        groups.push(single(&[t], t.mnemonic()));
    }
}

/// Region 7: compares and logical operators (Saavedra-Barrera's table 4.4). The condition is false,
/// so one pass executes the compare and the branch only.
fn compare_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    use model::catalogue::Operation as Op;
    for f in FLAVORS {
        let c = f.param(Op::Compare);
        exps.push(exp(
            c.to_string(),
            "IF with one compare, never taken",
            inits_for(f, CHAINS, Some(1.0), Some(2.0), None),
            (1..=CHAINS)
                .map(|k| {
                    if_never(
                        Expr::compare(RelOp::Gt, v(&f.x(k)), v(&f.a(k))),
                        &f.x(k),
                        v(&f.zero()),
                    )
                })
                .collect(),
        ));
        groups.push(single(&[c], c.mnemonic()));
    }
    for global in [false, true] {
        let p = if global { Param::ANDG } else { Param::ANDL };
        let pre = if global { "G" } else { "" };
        let lt = |k: usize| Operand {
            global,
            ..Operand::local(&format!("{pre}L{k}"), Type::Logical)
        };
        let lf = Operand {
            global,
            ..Operand::local(&format!("{pre}LF"), Type::Logical)
        };
        let mut inits: Vec<(String, String)> = (1..=CHAINS)
            .map(|k| (lt(k).name, "LVAL(.TRUE.)".to_string()))
            .collect();
        inits.push((lf.name.clone(), "LVAL(.FALSE.)".into()));
        let ix = int_local("IZ");
        inits.push(("IZ".into(), "IVAL(0)".into()));
        exps.push(exp(
            p.to_string(),
            "IF with one .AND. of logical variables, never taken",
            inits,
            (1..=CHAINS)
                .map(|k| {
                    if_never(
                        Expr::logic(LogicOp::And, v(&lt(k)), v(&lf)),
                        &ix,
                        Expr::int(1),
                    )
                })
                .collect(),
        ));
        groups.push(single(&[p], p.mnemonic()));
    }
}

/// Region 8: calls to separately compiled empty procedures (Saavedra-Barrera's section 4.2.3).
fn call_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    exps.push(exp(
        "PROC".into(),
        "CALL of an empty subroutine without arguments",
        vec![],
        (0..FEW_CHAINS).map(|_| call("P0", vec![])).collect(),
    ));
    groups.push(single(&[Param::PROC], "PROC"));
    for (p, f, callee) in [
        (Param::AGRS, FLAVORS[0], "P4R"),
        (Param::AGRD, FLAVORS[1], "P4D"),
        (Param::AGIS, FLAVORS[2], "P4I"),
    ] {
        exps.push(exp(
            p.to_string(),
            "CALL of an empty subroutine with four arguments",
            inits_for(f, 4, Some(1.0), None, None),
            (0..FEW_CHAINS)
                .map(|_| call(callee, (1..=4).map(|k| v(&f.x(k))).collect()))
                .collect(),
        ));
        groups.push(single(&[p], p.mnemonic()));
    }
}

/// Region 9: array references; the transfer around them is known from region 1.
fn array_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let real = FLAVORS[0];
    let ra = |rank: usize| Operand::local(&format!("RA{rank}"), Type::Real);
    let idx_inits = |n: usize| -> Vec<(String, String)> {
        (1..=n)
            .map(|k| (index(k).name, format!("IVAL({})", 1 + k % 3)))
            .collect()
    };
    for rank in 1..=3usize {
        let p = rules::array_param(rank);
        exps.push(exp(
            p.to_string(),
            "transfer from an array element with variable subscripts",
            idx_inits(CHAINS),
            (1..=CHAINS)
                .map(|k| {
                    let subs = (0..rank)
                        .map(|j| v(&index((k + j - 1) % CHAINS + 1)))
                        .collect();
                    assign(&real.x(k), Expr::elem(&ra(rank), subs))
                })
                .collect(),
        ));
        groups.push(single(&[p], p.mnemonic()));
    }
    exps.push(exp(
        "IADD".into(),
        "transfer from A(K + 1)",
        idx_inits(CHAINS),
        (1..=CHAINS)
            .map(|k| {
                assign(
                    &real.x(k),
                    Expr::elem(
                        &ra(1),
                        vec![Expr::arith(ArithOp::Add, v(&index(k)), Expr::int(1))],
                    ),
                )
            })
            .collect(),
    ));
    groups.push(single(&[Param::IADD], "IADD"));
    // Rule 16: the same transfer from an element of a dummy array (the test subroutine's
    // argument PA1): the extra is the load of the array's address.
    let pa1 = Operand::dummy("PA1", Type::Real);
    exps.push(exp(
        "DUMA".into(),
        "transfer from an element of a dummy array",
        idx_inits(CHAINS),
        (1..=CHAINS)
            .map(|k| assign(&real.x(k), Expr::elem(&pa1, vec![v(&index(k))])))
            .collect(),
    ));
    groups.push(single(&[Param::DUMA], "DUMA"));
    // Rule 18: an integer constant stored through a large (static) array, one element after
    // the other, against the same loop storing a variable holding the same value. The array
    // is four times the rule's limit (256 KiB): beyond the L1 cache and static at -O0, as
    // sieve's ISPRIM.
    for (name, value, purpose) in [
        (
            "CSTA",
            Expr::int(1),
            "DO loop storing the constant 1 through a 256 KiB array",
        ),
        (
            "CSTA.0",
            v(&int_local("IONE")),
            "the same loop storing a variable",
        ),
    ] {
        // 4 x LARGE_ARRAY_BYTES of 4-byte INTEGERs.
        let elements = model::rules::LARGE_ARRAY_BYTES;
        let big = Operand::local("NBIG", Type::Integer).large();
        let (j, mt) = (int_local("J"), int_local("MT"));
        let elem = Expr::elem(&big, vec![v(&j)]);
        let l = 90;
        let mut counts = rules::count_do_entry(true, &[&Expr::int(1), &v(&mt)]);
        let mut per_trip = rules::count_do_iteration(true);
        per_trip += &rules::count_assignment_in(&elem, &value, Some("J"));
        counts += &per_trip.scaled(elements);
        let mut e = exp(
            name.into(),
            purpose,
            vec![
                ("MT".into(), format!("IVAL({elements})")),
                ("IONE".into(), "IVAL(1)".into()),
            ],
            vec![BodyStmt {
                lines: to_continue(format!("DO {l} J = 1, MT"), format!("{elem} = {value}"), l),
                counts,
            }],
        );
        e.locals = vec![format!("INTEGER NBIG({elements})")];
        // One process in five ran the constant stores as fast as the variable's, the others
        // 1.2 ns a store slower (2026-11-23, rounds of 2 observations): the minimum would
        // charge the rare layout.
        e.typical_process = true;
        exps.push(e);
    }
    groups.push(Group {
        unknowns: vec![Param::CSTA],
        experiments: vec!["CSTA".into()],
        baseline: Some("CSTA.0".into()),
    });
}

/// Region 10, jumps: the unconditional GO TO and the computed GO TO. `label` is the last
/// statement label used.
fn jump_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>, label: &mut u32) {
    let mut next_label = || {
        *label += 1;
        *label
    };
    // The jump skips a statement: GCC drops a jump to the very next statement even at -O0.
    exps.push(exp(
        "GOTO".into(),
        "unconditional GO TO over a statement",
        vec![],
        (1..=CHAINS)
            .map(|k| {
                let l = next_label();
                BodyStmt {
                    lines: to_continue(format!("GO TO {l}"), format!("X{k} = Z"), l),
                    counts: rules::count_goto(),
                }
            })
            .collect(),
    ));
    groups.push(single(&[Param::GOTO], "GOTO"));
    let ione = int_local("IONE");
    exps.push(exp(
        "GCOM".into(),
        "computed GO TO with a variable index",
        vec![("IONE".into(), "IVAL(1)".into())],
        (0..CHAINS)
            .map(|_| {
                let (l1, l2) = (next_label(), next_label());
                BodyStmt {
                    lines: vec![
                        Line {
                            label: None,
                            text: format!("GO TO ({l1}, {l2}), IONE"),
                        },
                        Line {
                            label: Some(l1),
                            text: "CONTINUE".into(),
                        },
                        Line {
                            label: Some(l2),
                            text: "CONTINUE".into(),
                        },
                    ],
                    counts: rules::count_multiway_branch(Some(&v(&ione))),
                }
            })
            .collect(),
    ));
    groups.push(single(&[Param::GCOM], "GCOM"));
}

/// DO loops of unit and other steps, each run SHORT_TRIPS and LONG_TRIPS times (Saavedra-Barrera's
/// section 4.5.1): the loop initialization and the iteration solved together (region 10).
fn do_loop_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>, label: &mut u32) {
    let mut next_label = || {
        *label += 1;
        *label
    };
    let real = FLAVORS[0];
    for (unit, init, iter) in [
        (true, Param::LOIN, Param::LOOV),
        (false, Param::LOIX, Param::LOOX),
    ] {
        let mut names = Vec::new();
        for (i, trips) in [(1, SHORT_TRIPS), (2, LONG_TRIPS)] {
            let name = format!("{iter}.{i}");
            let upper = if unit { trips } else { 2 * trips - 1 };
            let mt = int_local("MT");
            // The loop works on an array by its index, as nearly every DO loop of a real
            // program does (Saavedra-Barrera's section 4.5.1 puts "extra work" in the loop too); the
            // work's own operations are known, so LOOV keeps what the loop adds in context.
            let ra1 = Operand::local("RA1", Type::Real);
            let j = int_local("J");
            let body = (0..4)
                .map(|k| {
                    // Each loop of a pass updates elements of its own (RA1 has 64): one
                    // loop's first element updated by the loop before waits for that store
                    // to be forwarded, and LOIN measured that chain, 2.4 ns at -O0 and 3.0 at
                    // -O2 on the Zen 5 host, instead of the entry (docs/model.md).
                    // Unit step: a block of LONG_TRIPS each; step 2: the odd and the even
                    // elements of two blocks of 2 LONG_TRIPS.
                    let block = LONG_TRIPS as i64;
                    let offset = if unit {
                        block * k
                    } else {
                        2 * block * (k / 2) + k % 2
                    };
                    let index = match offset {
                        0 => v(&j),
                        c => Expr::arith(ArithOp::Add, v(&j), Expr::int(c)),
                    };
                    let elem = Expr::elem(&ra1, vec![index]);
                    let work_value = Expr::arith(ArithOp::Add, elem.clone(), v(&real.zero()));
                    let work = rules::count_assignment(&elem, &work_value);
                    let l = next_label();
                    let step = if unit { String::new() } else { ", 2".into() };
                    let step_expr = (!unit).then(|| Expr::int(2));
                    let mut counts = rules::count_do_entry(
                        rules::is_unit_step(step_expr.as_ref()),
                        &[&Expr::int(1), &v(&mt)],
                    );
                    let mut per_trip =
                        rules::count_do_iteration(rules::is_unit_step(step_expr.as_ref()));
                    per_trip += &work;
                    counts += &per_trip.scaled(trips);
                    BodyStmt {
                        lines: to_continue(
                            format!("DO {l} J = 1, MT{step}"),
                            format!("{elem} = {work_value}"),
                            l,
                        ),
                        counts,
                    }
                })
                .collect();
            exps.push(exp(
                name.clone(),
                "DO loops updating RA1(J)",
                vec![
                    ("MT".into(), format!("IVAL({upper})")),
                    ("Z".into(), "RVAL(0.0)".into()),
                ],
                body,
            ));
            names.push(name);
        }
        groups.push(Group {
            unknowns: vec![init, iter],
            experiments: names,
            baseline: None,
        });
    }
}

/// Trips of QDOV's loop: past rule 27's `RESTART_TRIPS`, and long enough that the next
/// entry's chain overlaps only a small share of this one's (on the Intel host this test gave
/// 1.8 ns an iteration at 64 trips, 2.2 at 128), so QDOV is the chain of a loop carried
/// through its entries, as rule 27 charges loops of more than 16 trips.
pub const DO_CHAIN_TRIPS: u64 = 128;

/// Rule 27: QDOV, a DO loop's iteration on the chain of its DO variable. One DO loop of
/// `DO_CHAIN_TRIPS` iterations storing a scalar: at -O0 the variable lives in memory and each
/// iteration's increment and test wait for the last increment's store. The body stores because
/// at -O0 every assignment does, so nearly every real loop stores (an empty loop's chain ran
/// faster, and from 224 trips on at 0.8-0.9 ns where a loop storing an element stayed at
/// 1.9-2.3 ns up to 1024 trips: docs/model.md, rule 27). Counted as the loop's entry and one
/// QDOV an iteration (its LOOV and store overlap the chain, as a recurrence's operations do,
/// rule 14). An optimizer deletes the dead store and the loop, and the test is marked emptied.
fn do_variable_experiment(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>, label: &mut u32) {
    *label += 1;
    let l = *label;
    let mt = int_local("MT");
    let mut counts = rules::count_do_entry(true, &[&Expr::int(1), &v(&mt)]);
    counts.add(Param::QDOV, DO_CHAIN_TRIPS);
    let body = vec![BodyStmt {
        lines: vec![
            Line {
                label: None,
                text: format!("DO {l} J = 1, MT"),
            },
            Line {
                label: Some(l),
                text: "X1 = Z".into(),
            },
        ],
        counts,
    }];
    exps.push(exp(
        Param::QDOV.to_string(),
        "a DO loop of many iterations storing a scalar: the DO variable's chain",
        vec![("MT".into(), format!("IVAL({DO_CHAIN_TRIPS})"))],
        body,
    ));
    groups.push(single(&[Param::QDOV], "QDOV"));
}

/// Random signs the branch tests walk: more outcomes than the core learns when it sees them
/// again (about 5 000 completely and 10 000 partly on the Intel host), so half of them miss.
pub const SIGN_OUTCOMES: usize = 65_536;

/// Iterations of the branch-miss tests' DO loop: one IF each, storing into RA1(J) (64
/// elements), so a pass misses 32 times and the loop's own exit is one branch in 64. The
/// store's address must move: at -O2 GCC moved a store to a fixed RA1(1) out of the loop
/// behind a flag and turned the REAL test's IF into a conditional move.
pub const BRANCH_TRIPS: usize = 64;

/// Rule 15 (opcost's refinement): a mispredicted IF. Each pass is a DO loop of BRANCH_TRIPS
/// iterations testing one element each of a table of random signs (+1 or -1, written before
/// the timing by the support code's Park-Miller chain, NSIGNS), `IF (NR(JR + J) .GT. 0)`,
/// so half the IFs are missed; the pass then moves JR on; the baseline has the same loop with
/// a condition that is never true. A miss costs the flush plus the wait for its condition,
/// and a program's IF tests data stored well before it (a sort's keys, a sieve's flags) in a
/// loop whose next condition waits on the DO variable: the test until session 39 tested two
/// elements per pass in straight-line code, whose conditions wait on nothing after a flush,
/// and measured a miss 30 % cheaper on the Zen 5 host (5.1 ns) than a DO loop over the same
/// table (7.0 ns, docs/model.md, "Rule 15, measured in a loop"); before session 29 it took
/// its signs from random-number chains computed in the same pass, whose every miss re-ran
/// the chain's step (docs/model.md, "Rule 15, measured again").
fn branch_miss_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>, label: &mut u32) {
    let mut inits: Vec<(String, String)> = vec![
        ("IZ".into(), "IVAL(0)".into()),
        ("MT".into(), "IVAL(2147483647)".into()),
        ("NT".into(), format!("IVAL({BRANCH_TRIPS})")),
        (FLAVORS[0].zero().name, "RVAL(0.0)".to_string()),
    ];
    // The pass reads up to BRANCH_TRIPS elements past the last start JR takes.
    let table = SIGN_OUTCOMES + BRANCH_TRIPS;
    inits.push(("IRINIT".into(), format!("NSIGNS(NR, {table})")));
    let locals = vec![
        format!("INTEGER NR({table}), JR, IRINIT, NSIGNS, NT"),
        "EXTERNAL NSIGNS".into(),
    ];
    inits.push(("JR".into(), "IVAL(0)".into()));
    // BMIR: the same random signs, compared as REAL values (REAL(NR(JR + J)) in the condition
    // of the test and of its baseline alike), whose branch resolves later (rule 15). The value
    // is converted in the condition rather than stored in a REAL array first: a REAL store
    // forwarded to the compare's load (QTRS, 3 ns) would delay the branch further than a
    // program's compare on data stored long before does.
    let real = FLAVORS[0];
    let mut real_inits = inits.clone();
    real_inits.push((real.b(1).name, "RVAL(1.0E30)".to_string()));
    let jr = int_local("JR");
    let (nt, j) = (int_local("NT"), int_local("J"));
    for (name, random, floating) in [
        ("BMIS", true, false),
        ("BMIS.0", false, false),
        ("BMIR", true, true),
        ("BMIR.0", false, true),
    ] {
        let i = FLAVORS[2];
        // The consequent must do something: GCC drops a jump to the next statement even at
        // -O0. It stores into an array whose address the test has passed on (RA1): at -O1 an
        // assignment to an unused scalar (`J = 0`, the first version) was deleted with its
        // IF, and BMIS came out 0.006 ns while shell sort's exits kept their misses; a
        // conditional store that may be seen elsewhere is neither deleted nor turned into a
        // conditional move. The baseline compares with the largest value, which no value
        // exceeds.
        let at = Expr::arith(ArithOp::Add, v(&jr), v(&j));
        let signed = || Expr::elem(&Operand::local("NR", Type::Integer), vec![at.clone()]);
        let as_real = || Expr::intrinsic("REAL", vec![signed()]);
        let (operand, rhs) = match (floating, random) {
            (false, true) => (signed(), v(&i.zero())),
            (false, false) => (signed(), v(&int_local("MT"))),
            (true, true) => (as_real(), v(&real.zero())),
            (true, false) => (as_real(), v(&real.b(1))),
        };
        let cond = Expr::compare(RelOp::Gt, operand, rhs);
        let sink = Expr::elem(&Operand::local("RA1", Type::Real), vec![v(&j)]);
        let stored = v(&real.zero());
        let trips = BRANCH_TRIPS as u64;
        let mut counts = rules::count_do_entry(true, &[&Expr::int(1), &v(&nt)]);
        let mut per_trip = rules::count_do_iteration(true);
        per_trip += &rules::count_condition(&cond);
        counts += &per_trip.scaled(trips);
        if random {
            // Per pass, half the IFs run their consequent and half are missed (rule 15: two
            // tests, one taken, one miss).
            let mut pair = rules::count_assignment(&sink, &stored);
            pair +=
                &rules::count_branch_misses(2, 1, Some(1), rules::branch_miss_param(&cond), true);
            counts += &pair.scaled(trips / 2);
        }
        *label += 1;
        let l = *label;
        let pass = BodyStmt {
            lines: to_continue(
                format!("DO {l} J = 1, NT"),
                format!("IF ({cond}) {sink} = {stored}"),
                l,
            ),
            counts,
        };
        // JR = MOD(JR + BRANCH_TRIPS, SIGN_OUTCOMES): the next pass's elements.
        let next = Expr::arith(ArithOp::Add, v(&jr), Expr::int(BRANCH_TRIPS as i64));
        let wrapped = Expr::intrinsic("MOD", vec![next, Expr::int(SIGN_OUTCOMES as i64)]);
        let body = vec![pass, assign_expr(v(&jr), wrapped)];
        let purpose = match (random, floating) {
            (true, false) => "IF on a stored random sign: half mispredicted",
            (true, true) => "IF on a stored random sign, REAL compare: half mispredicted",
            (false, _) => "the same body, IF never taken",
        };
        let mut e = exp(
            name.into(),
            purpose,
            if floating {
                real_inits.clone()
            } else {
                inits.clone()
            },
            body,
        );
        e.locals = locals.clone();
        exps.push(e);
    }
    for p in [Param::BMIS, Param::BMIR] {
        groups.push(Group {
            unknowns: vec![p],
            experiments: vec![p.to_string()],
            baseline: Some(format!("{p}.0")),
        });
    }
}

/// The state of random-number chain k of the quadrant tests (rule 24): `NA1(Kk)`, an element
/// reached through a subscript, as a program's data is.
fn lcg_state(k: usize) -> Expr {
    Expr::elem(&Operand::local("NA1", Type::Integer), vec![v(&index(k))])
}

/// One step of random-number chain k: `NA1(Kk) = NA1(Kk) * IAk + IBk` (wrapping).
fn lcg_step(k: usize) -> BodyStmt {
    let i = FLAVORS[2];
    let value = Expr::arith(
        ArithOp::Add,
        Expr::arith(ArithOp::Mul, lcg_state(k), v(&i.a(k))),
        v(&i.b(k)),
    );
    assign_expr(lcg_state(k), value)
}

/// The random-number chains' start: each its own multiplier (all 1 mod 4, full period).
fn lcg_inits() -> Vec<(String, String)> {
    let i = FLAVORS[2];
    (1..=BRANCH_CHAINS)
        .flat_map(|k| {
            let multiplier = (1_103_515_245u64 + 4 * 97_654_321 * k as u64) % (1 << 31);
            [
                (index(k).name, format!("IVAL({k})")),
                (format!("NA1({k})"), format!("IVAL({})", 7 * k + 1)),
                (i.a(k).name, format!("IVAL({multiplier})")),
                (i.b(k).name, "IVAL(12345)".to_string()),
            ]
        })
        .collect()
}

/// Rule 24: BMSN, a miss of a sine's quadrant branches. BRANCH_CHAINS random-number chains,
/// one with a REAL and one with a DOUBLE PRECISION sine (the library's two codes), whose
/// argument `q pi/2 + 0.3` has a random quadrant q: the chain's top three bits. Each of the
/// library's two quadrant branches then goes either way at random, half of them missed,
/// which the simulated predictor counts too. The baseline multiplies q by zero, so every
/// call takes the same branches (as SINS and SIND's fixed points do).
fn quadrant_miss_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let quarter = std::f64::consts::FRAC_PI_2;
    for (name, step, purpose) in [
        (
            "BMSN",
            quarter,
            "SIN of random quadrants: half the quadrant branches missed",
        ),
        ("BMSN.0", 0.0, "the same body, one quadrant"),
    ] {
        // Chain k's sine is REAL for odd k, DOUBLE PRECISION for even k.
        let flavor = |k: usize| FLAVORS[(k + 1) % 2];
        let mut inits = lcg_inits();
        for k in 1..=BRANCH_CHAINS {
            inits.extend(inits_for(flavor(k), 1, Some(0.0), Some(step), Some(0.3)));
        }
        let body = (1..=BRANCH_CHAINS)
            .flat_map(|k| {
                let f = flavor(k);
                let convert = if f.ty == Type::Double { "DBLE" } else { "REAL" };
                let q = Expr::arith(ArithOp::Div, lcg_state(k), Expr::int(536_870_912));
                let angle = Expr::arith(
                    ArithOp::Add,
                    Expr::arith(ArithOp::Mul, Expr::intrinsic(convert, vec![q]), v(&f.a(1))),
                    v(&f.b(1)),
                );
                let sum = Expr::arith(
                    ArithOp::Add,
                    v(&f.x(1)),
                    Expr::intrinsic("SIN", vec![angle]),
                );
                let mut stmt = assign(&f.x(1), sum);
                if step != 0.0 {
                    let expected = u64::from(rules::QUADRANT_BRANCHES) / 2;
                    rules::charge_quadrant_misses(&mut stmt.counts, expected);
                }
                [lcg_step(k), stmt]
            })
            .collect();
        exps.push(exp(name.into(), purpose, inits, body));
    }
    groups.push(Group {
        unknowns: vec![Param::BMSN],
        experiments: vec!["BMSN".into()],
        baseline: Some("BMSN.0".into()),
    });
}

/// Rule 25: CNVT, a type conversion, from independent conversions both ways (`DXk =
/// DBLE(IAk)`, `IXk = INT(DAk)` in turn), and QCNV, one on a chain, from the chain
/// `X1 = DBLE(INT(X1)) + 0.5` (two conversions a link; X1 stays 0.5).
fn conversion_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let (d, i) = (FLAVORS[1], FLAVORS[2]);
    let body = (1..=FEW_CHAINS)
        .map(|k| {
            if k % 2 == 1 {
                assign(&d.x(k), Expr::intrinsic("DBLE", vec![v(&i.a(k))]))
            } else {
                assign(&i.x(k), Expr::intrinsic("INT", vec![v(&d.a(k))]))
            }
        })
        .collect();
    let mut inits = inits_for(d, FEW_CHAINS, Some(0.0), Some(2.5), None);
    inits.extend(inits_for(i, FEW_CHAINS, Some(0.0), Some(7.0), None));
    exps.push(exp(
        "CNVT".into(),
        "DBLE of an integer and INT of a double, independent",
        inits,
        body,
    ));
    groups.push(single(&[Param::CNVT], "CNVT"));
    let half = Expr::Constant {
        text: "0.5D0".into(),
        ty: Type::Double,
    };
    let body = chained(d, FEW_CHAINS, |_| {
        let int = Expr::intrinsic("INT", vec![v(&d.x(1))]);
        Expr::arith(
            ArithOp::Add,
            Expr::intrinsic("DBLE", vec![int]),
            half.clone(),
        )
    });
    let inits = inits_for(d, 1, Some(0.5), None, None);
    exps.push(exp(
        "QCNV".into(),
        "X = DBLE(INT(X)) + 0.5: two conversions a link",
        inits,
        body,
    ));
    groups.push(single(&[Param::QCNV], "QCNV"));
}

/// Rule 14c: QADR, an element load whose subscript is the chain's last value, from the
/// chain `IX1 = NA1(IX1)` (NA1 holds 2 everywhere and IX1 starts at 2, so every link loads
/// the same element of an array in the L1 cache: a pointer chase at its shortest).
fn addressed_load_experiment(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let i = FLAVORS[2];
    let na = Operand::local("NA1", Type::Integer);
    let body = chained(i, FEW_CHAINS, |_| Expr::elem(&na, vec![v(&i.x(1))]));
    exps.push(exp(
        "QADR".into(),
        "IX = NA1(IX): each link loads the element the last one named",
        inits_for(i, 1, Some(2.0), None, None),
        body,
    ));
    groups.push(single(&[Param::QADR], "QADR"));
}

/// Rule 14f: QTEI, an integer element stored and loaded back by the chain's next link, from
/// the ring `NA1(IB2) = NA1(IB1) + IA1`, ..., `NA1(IB1) = NA1(IB16) + IA16` (IBk holds k,
/// unknown to the compiler, so every address is computed; IAk alternately +5 and -5): each
/// link a load, an addition in a register (QAIR) and a store.
fn element_transfer_experiment(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let i = FLAVORS[2];
    let na = Operand::local("NA1", Type::Integer);
    let at = |k: usize| Expr::elem(&na, vec![v(&i.b(k))]);
    let body = (1..=CHAINS)
        .map(|k| {
            let value = Expr::arith(ArithOp::Add, at(k), v(&i.a(k)));
            chain_statement(at(k % CHAINS + 1), value, &at(k).to_string())
        })
        .collect();
    let mut inits = inits_for(i, 0, None, None, None);
    inits.extend(alternating_a(i, 5.0));
    inits.extend((1..=CHAINS).map(|k| (i.b(k).name, i.value(k as f64))));
    exps.push(exp(
        "QTEI".into(),
        "a ring of integer elements at computed addresses, NA1(IB2) = NA1(IB1) + IA1",
        inits,
        body,
    ));
    groups.push(single(&[Param::QTEI], "QTEI"));
}

/// Rule 14d: the two other forms of an integer addition on a chain at -O0 (QAIS's test is the
/// addition of a variable into memory, `IX1 = IX1+IAk`). QAIC: `IX1 = IX1+1` and `IX1 = IX1-1`
/// in turn, an addition of a constant into memory. QAIR: `IX2 = IX1+IAk` and `IX1 = IX2+IAk`
/// in turn, loads, an addition in a register and a store to the other variable.
fn integer_addition_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let i = FLAVORS[2];
    let constant = chained(i, CHAINS, |k| {
        let op = if k % 2 == 1 {
            ArithOp::Add
        } else {
            ArithOp::Sub
        };
        Expr::arith(op, v(&i.x(1)), Expr::int(1))
    });
    exps.push(exp(
        "QAIC".into(),
        "dependent X = X + 1 and X = X - 1 (an addition of a constant into memory)",
        inits_for(i, 1, Some(1.0), None, None),
        constant,
    ));
    groups.push(single(&[Param::QAIC], "QAIC"));
    let in_register = (1..=CHAINS)
        .map(|k| {
            let (from, to) = if k % 2 == 1 {
                (i.x(1), i.x(2))
            } else {
                (i.x(2), i.x(1))
            };
            let value = Expr::arith(ArithOp::Add, v(&from), v(&i.a(k)));
            chain_statement(Expr::var(&to), value, &from.name)
        })
        .collect();
    let mut inits = inits_for(i, 2, Some(1.0), None, None);
    inits.extend(alternating_a(i, 5.0));
    exps.push(exp(
        "QAIR".into(),
        "dependent Y = X + A and X = Y + A (an addition in a register, stored to the other)",
        inits,
        in_register,
    ));
    groups.push(single(&[Param::QAIR], "QAIR"));
}

/// Rule 17: the two rates a loop's instructions issue at, each measured where it is the
/// limit. Each statement counts one INST or MEMO here; the solve divides the pass time by
/// the instructions the compiler emitted for the pass (`ExperimentRecord::instructions`),
/// or by those of them that load or store (`memory_instructions`).
/// - INST, the time per instruction when the CPU's dispatch is the limit: independent
///   integer sums of a variable times constants, `IXk = IAk*3 + IAk*5 + IAk*7 + IAk*9`, which
///   gfortran -O0 turns into register arithmetic with two memory accesses in seven.
/// - MEMO, the time per load or store when the memory pipes are the limit: independent
///   updates of distinct elements `RA1(Kk) = RA1(Kk) + Ak`, the shape of a program's array
///   loops at -O0, five memory accesses in nine instructions.
fn issue_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let int = FLAVORS[2];
    let inits = (1..=CHAINS)
        .map(|k| (int.a(k).name, int.value(k as f64)))
        .collect();
    let body = (1..=CHAINS)
        .map(|k| BodyStmt {
            lines: vec![Line {
                label: None,
                text: format!(
                    "{x} = {a}*3 + {a}*5 + {a}*7 + {a}*9",
                    x = int.x(k).name,
                    a = int.a(k).name
                ),
            }],
            counts: OpCounts::one(Param::INST),
        })
        .collect();
    exps.push(exp(
        "INST".into(),
        "independent register arithmetic: dispatch-bound",
        inits,
        body,
    ));
    groups.push(single(&[Param::INST], "INST"));

    let mut inits: Vec<(String, String)> = (1..=CHAINS)
        .map(|k| (index(k).name, format!("IVAL({k})")))
        .collect();
    inits.extend((1..=CHAINS).map(|k| (FLAVORS[0].a(k).name, FLAVORS[0].value(0.0))));
    let body = (1..=CHAINS)
        .map(|k| {
            let elem = format!("RA1({})", index(k).name);
            BodyStmt {
                lines: vec![Line {
                    label: None,
                    text: format!("{elem} = {elem} + {}", FLAVORS[0].a(k).name),
                }],
                counts: OpCounts::one(Param::MEMO),
            }
        })
        .collect();
    exps.push(exp(
        "MEMO".into(),
        "independent element updates: memory-issue-bound",
        inits,
        body,
    ));
    groups.push(single(&[Param::MEMO], "MEMO"));
}

/// Rule 32: RNDS and RNDD, NINT's call of the library's lroundf or lround, and QRNS and QRND,
/// the same on a chain: a chain `X = 0.7 - REAL(NINT(X * 8.3)) * 0.01` (fixed point 0.65, so
/// NINT's argument stays at 5.395), run as the intrinsics' tests are. Solved after the
/// conversions: the integer comes back to the chain through one, whose CNVT (QCNV on the
/// chain) the test's counts hold.
fn rounding_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    for kind in [CostKind::Throughput, CostKind::Latency] {
        for f in [FLAVORS[0], FLAVORS[1]] {
            let (back, step) = if f.ty == Type::Double {
                ("DBLE", "0.01D0")
            } else {
                ("REAL", "0.01")
            };
            let case = ChainCase {
                param: intrinsic_param(f, kind, model::catalogue::Operation::Round),
                purpose: "X = 0.7 - REAL(NINT(X * 8.3)) * 0.01: fixed point 0.65",
                inits: inits_for(f, FEW_CHAINS, Some(0.6), Some(0.7), Some(8.3)),
                value: Box::new(move |x, k| {
                    let scaled = Expr::arith(ArithOp::Mul, v(x), v(&f.b(k)));
                    let nint = Expr::intrinsic("NINT", vec![scaled]);
                    let rounded = Expr::intrinsic(back, vec![nint]);
                    let step = Expr::Constant {
                        text: step.into(),
                        ty: f.ty,
                    };
                    Expr::arith(
                        ArithOp::Sub,
                        v(&f.a(k)),
                        Expr::arith(ArithOp::Mul, rounded, step),
                    )
                }),
            };
            push_chain_case(exps, groups, f, kind, case);
        }
    }
}

/// Regions 11-12: intrinsics, each in a chain with an attracting fixed point at a typical
/// argument (Saavedra-Barrera's section 4.2.4: their time depends on the argument).
fn intrinsic_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    for f in [FLAVORS[0], FLAVORS[1]] {
        for case in intrinsic_cases(f, CostKind::Throughput) {
            push_chain_case(exps, groups, f, CostKind::Throughput, case);
        }
    }
}

/// The test of one chain case, solved alone: [`FEW_CHAINS`] independent chains for a
/// throughput, one chain of as many statements for a latency.
fn push_chain_case(
    exps: &mut Vec<Experiment>,
    groups: &mut Vec<Group>,
    f: Flavor,
    kind: CostKind,
    case: ChainCase,
) {
    let body = match kind {
        CostKind::Throughput => (1..=FEW_CHAINS)
            .map(|k| assign(&f.x(k), (case.value)(&f.x(k), k)))
            .collect(),
        CostKind::Latency => chained(f, FEW_CHAINS, |k| (case.value)(&f.x(1), k)),
    };
    exps.push(exp(case.param.to_string(), case.purpose, case.inits, body));
    groups.push(single(&[case.param], case.param.mnemonic()));
}

/// The test of `param`, measured against `base`'s double-precision throughput test: `base`'s
/// body with its chains started from `inits` (an argument range where the library does more),
/// each statement's counts amended by `charge`.
fn moved_intrinsic_experiment(
    exps: &mut Vec<Experiment>,
    groups: &mut Vec<Group>,
    (base, param): (Param, Param),
    inits: Vec<(String, String)>,
    purpose: &'static str,
    charge: impl Fn(&mut OpCounts),
) {
    let f = FLAVORS[1];
    let case = intrinsic_cases(f, CostKind::Throughput)
        .into_iter()
        .find(|c| c.param == base)
        .expect("the base is among the double intrinsics");
    let body = (1..=FEW_CHAINS)
        .map(|k| {
            let mut stmt = assign(&f.x(k), (case.value)(&f.x(k), k));
            charge(&mut stmt.counts);
            stmt
        })
        .collect();
    exps.push(exp(param.to_string(), purpose, inits, body));
    groups.push(Group {
        unknowns: vec![param],
        experiments: vec![param.to_string()],
        baseline: Some(base.to_string()),
    });
}

/// Rule 24b: SRDD, a double sine's argument reduction, from SIND's test with its chains moved
/// to the fixed point of `X = SIN(X) + 20` (20.891, beyond `rules::SINE_REDUCED_FROM`: every
/// call reduces its argument, in the same quadrant), against SIND's test as the baseline.
fn reduced_sine_experiment(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    moved_intrinsic_experiment(
        exps,
        groups,
        (Param::SIND, Param::SRDD),
        inits_for(FLAVORS[1], FEW_CHAINS, Some(20.0), Some(20.0), None),
        "X = SIN(X) + 20: fixed point 20.891, the argument reduced",
        |c| rules::charge_reduced_arguments(c, 1),
    );
}

/// Rule 9b: MQBD, one step of fmod beyond MODD's test, from MODD's test with its quotients
/// spread over [0.5, 1048574) instead of [0.5, 4100) (`X = MOD(X * 1048573.37 + 0.5, 1)`):
/// 18.0 steps a call on average against 10.0 (`rules::REMAINDER_TEST_STEPS`), so each call
/// takes [`REMAINDER_STEPS_BEYOND`] steps more, against MODD's test as the baseline.
fn remainder_step_experiment(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let steps = u64::from(rules::REMAINDER_TEST_STEPS) + REMAINDER_STEPS_BEYOND;
    moved_intrinsic_experiment(
        exps,
        groups,
        (Param::MODD, Param::MQBD),
        inits_for(
            FLAVORS[1],
            FEW_CHAINS,
            Some(0.3),
            Some(1_048_573.37),
            Some(1.0),
        ),
        "X = MOD(X * 1048573.37 + 0.5, 1): quotients 0-2^20, 8 fmod steps more",
        |c| rules::charge_remainder_steps(c, steps),
    );
}

/// Rule 9b: the fmod steps a call of MQBD's test takes beyond MODD's test: the average of
/// `floor(log2 q)` over quotients q spread evenly over [0.5, 1048574) is 18.0, over
/// [0.5, 4100) 10.0 (their chaotic sequences average 18.00 and 10.01 over 200000 calls).
const REMAINDER_STEPS_BEYOND: u64 = 8;

/// Rule 23: INDX, a reference to INDEX, and SCAN, one position it tries, solved together from
/// searches of a string too short and a string long enough for either to dominate: `GIXk =
/// INDEX(S, 'QZ')` in a 520- and a 2-character string of the alphabet without Q repeated,
/// where 'QZ' never occurs and no position starts a partial match. Rule 23b: SCNM, a
/// mispredicted compare of the substring's first character, from the same search in
/// [`MISS_TEXT`] letters drawn at random from "QABC": a quarter of the positions start a
/// partial match where the text decides, as letters of a text do. The results go to COMMON,
/// so an optimizer keeps the calls.
fn index_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    const ALPHABET: &str = "ABCDEFGHIJKLMNOPRSTUVWXYZ";
    let target = FLAVORS[5];
    let repeated = |length: usize| ALPHABET.chars().cycle().take(length).collect::<String>();
    for (name, string, text, statements, purpose) in [
        (
            "INDX",
            "SSD",
            repeated(2),
            8,
            "INDEX over 1 position, no match",
        ),
        (
            "SCAN",
            "SSC",
            repeated(520),
            4,
            "INDEX over 519 positions, no match",
        ),
        (
            "SCNM",
            "SSM",
            random_letters(MISS_TEXT),
            1,
            "INDEX over random letters, a quarter of them Q, no match",
        ),
    ] {
        let operand = Operand::local(string, Type::Character);
        let pattern = Expr::Constant {
            text: "'QZ'".into(),
            ty: Type::Character,
        };
        let length = text.len();
        let positions = length - 1;
        let partial = text[..positions].matches('Q').count();
        let body = (1..=statements)
            .map(|k| {
                let search = Expr::intrinsic("INDEX", vec![v(&operand), pattern.clone()]);
                let mut stmt = assign(&target.x(k), search);
                rules::charge_index_scans(&mut stmt.counts, positions as u64);
                let misses = rules::index_misses(positions as u64, partial as u64);
                rules::charge_index_misses(&mut stmt.counts, misses);
                stmt
            })
            .collect();
        let mut locals = vec![format!("CHARACTER*{length} {string}")];
        let inits = if name == "SCNM" {
            // Too long for constants: the support code's NLETRS draws it.
            locals.push("INTEGER NLINIT, NLETRS".into());
            locals.push("EXTERNAL NLETRS".into());
            vec![("NLINIT".into(), format!("NLETRS({string}, {length})"))]
        } else {
            (0..length)
                .step_by(26)
                .map(|at| {
                    let end = (at + 26).min(length);
                    (
                        format!("{string}({}:{end})", at + 1),
                        format!("'{}'", &text[at..end]),
                    )
                })
                .collect()
        };
        let mut e = exp(name.into(), purpose, inits, body);
        e.locals = locals;
        exps.push(e);
    }
    groups.push(Group {
        unknowns: vec![Param::INDX, Param::SCAN, Param::SCNM],
        experiments: vec!["INDX".into(), "SCAN".into(), "SCNM".into()],
        baseline: None,
    });
}

/// Rule 13b: CHCC, a concatenation whose length the compiler does not know, with its heap
/// temporary and the move of its result: `SCC(1:LC2) = SCA(1:LC) // SCB(1:LC)`, LC = 8 from
/// the support code (an 8-character word and its neighbour, as text processing joins them).
fn concatenation_experiment(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let substring = |name: &str, length: &str| {
        rules::substring(
            v(&Operand::local(name, Type::Character)),
            Some(Expr::int(1)),
            Some(v(&Operand::local(length, Type::Integer))),
        )
    };
    let text = |e: &str, length: &str| format!("{e}(1:{length})");
    let body = (0..4)
        .map(|_| {
            let target = substring("SCC", "LC2");
            let value = Expr::arith(
                ArithOp::Concat,
                substring("SCA", "LC"),
                substring("SCB", "LC"),
            );
            BodyStmt {
                lines: vec![Line {
                    label: None,
                    text: format!(
                        "{} = {} // {}",
                        text("SCC", "LC2"),
                        text("SCA", "LC"),
                        text("SCB", "LC")
                    ),
                }],
                // The substrings and the move of the result, which every concatenation
                // statement has, are part of what CHCC measures.
                counts: OpCounts {
                    uncharacterized: Default::default(),
                    ..rules::count_assignment(&target, &value)
                },
            }
        })
        .collect();
    let inits = vec![
        ("LC".into(), "IVAL(8)".into()),
        ("LC2".into(), "2 * LC".into()),
        ("SCA".into(), "'CONCATENATION'".into()),
        ("SCB".into(), "'OPERANDS'".into()),
    ];
    let mut e = exp(
        Param::CHCC.to_string(),
        "SCC(1:LC2) = SCA(1:LC) // SCB(1:LC), LC = 8 at run time",
        inits,
        body,
    );
    e.locals = vec![
        "CHARACTER*16 SCA, SCB".into(),
        "CHARACTER*32 SCC".into(),
        "INTEGER LC, LC2".into(),
    ];
    exps.push(e);
    groups.push(Group {
        unknowns: vec![Param::CHCC],
        experiments: vec![Param::CHCC.to_string()],
        baseline: None,
    });
}

/// Rule 13c: CHAS, an assignment of a string, and CHCM, a compare of strings, each with
/// lengths known only at run time (LC = 8 from the support code: a word, as text processing
/// moves and compares them): `SCTk = SCB(1:LC)` (memmove of 8 characters and memset of the 8
/// left blank) and `LCMk = SCA(1:LC) .EQ. SCB(1:LC)` (`_gfortran_compare_string` over 8 equal
/// characters). The targets are in COMMON, so an optimizer keeps every call.
fn character_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let word = |name: &str| {
        rules::substring(
            v(&Operand::local(name, Type::Character).with_length(16)),
            Some(Expr::int(1)),
            Some(v(&Operand::local("LC", Type::Integer))),
        )
    };
    let statements = 4;
    let (moves, compares): (Vec<_>, Vec<_>) = (1..=statements)
        .map(|k| {
            let target = Operand::global(&format!("SCT{k}"), Type::Character).with_length(16);
            let moved = BodyStmt {
                lines: vec![Line {
                    label: None,
                    text: format!("SCT{k} = SCB(1:LC)"),
                }],
                counts: rules::count_assignment(&v(&target), &word("SCB")),
            };
            let flag = Operand::global(&format!("LCM{k}"), Type::Logical);
            let compare = Expr::compare(RelOp::Eq, word("SCA"), word("SCB"));
            let compared = BodyStmt {
                lines: vec![Line {
                    label: None,
                    text: format!("LCM{k} = SCA(1:LC) .EQ. SCB(1:LC)"),
                }],
                counts: rules::count_assignment(&v(&flag), &compare),
            };
            (moved, compared)
        })
        .unzip();
    // (parameter, purpose, body, its targets' prefix, type and COMMON block)
    for (p, purpose, body, prefix, ty, common) in [
        (
            Param::CHAS,
            "SCTk = SCB(1:LC), LC = 8 at run time, SCTk CHARACTER*16 in COMMON",
            moves,
            "SCT",
            "CHARACTER*16",
            "OPCHAS",
        ),
        (
            Param::CHCM,
            "LCMk = SCA(1:LC) .EQ. SCB(1:LC), LC = 8 at run time, equal words",
            compares,
            "LCM",
            "LOGICAL",
            "OPCHCM",
        ),
    ] {
        let inits = vec![
            ("LC".into(), "IVAL(8)".into()),
            ("SCA".into(), "'CONCATENATION'".into()),
            ("SCB".into(), "'CONCATENATE'".into()),
        ];
        let names = (1..=statements)
            .map(|k| format!("{prefix}{k}"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut e = exp(p.to_string(), purpose, inits, body);
        e.locals = vec![
            "CHARACTER*16 SCA, SCB".into(),
            "INTEGER LC".into(),
            format!("{ty} {names}"),
            format!("COMMON /{common}/ {names}"),
        ];
        exps.push(e);
        groups.push(Group {
            unknowns: vec![p],
            experiments: vec![p.to_string()],
            baseline: None,
        });
    }
}

/// Length of SCNM's text (rule 23b): a predictor learns a random sequence of partial
/// matches that comes back search after search up to about 32 768 positions on a Zen 5
/// (0.6 ns a position where a quarter of them are Q, 2.0 ns from 131 072 on), so the test's
/// is longer than that, as a program's text is.
pub const MISS_TEXT: usize = 262_144;

/// The `length` letters the support code's NLETRS draws from "QABC" (its Park-Miller chain
/// from 4711), so the characterizer counts their Qs.
pub(crate) fn random_letters(length: usize) -> String {
    const LETTERS: &[u8] = b"QABC";
    let mut r: u64 = 4711;
    (0..length)
        .map(|_| {
            r = r * 16_807 % 2_147_483_647;
            LETTERS[(r / 1024 % 4) as usize] as char
        })
        .collect()
}

/// Statements of the window test's chain (rule 19): the window measured grows with the chain
/// (122, 192, 256 instructions at 8, 16, 32 on a Zen 3); programs' in-iteration chains run to
/// about a dozen statements, so the test's is 16 (docs/model.md, "Rule 19, measured again").
pub const WINDOW_CHAIN: usize = 16;

/// Rule 19: WIND, the instructions the core keeps in flight. One pass is a chain of
/// `WINDOW_CHAIN` dependent statements `DWk = DWk-1 + DAj` (the -O0 shape of a program's
/// statements: two loads, an addition, a store) started afresh from constants, so passes are
/// independent and the core overlaps as many as its window holds. Each statement's counts are
/// its link of the chain (rule 14); the solve takes WIND = chain latency * instructions of a
/// pass / pass time (`rules::window_of`), after the latencies are known.
fn window_experiment(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    let f = FLAVORS[1];
    let w = |k: usize| Operand::local(&format!("DW{k}"), Type::Double);
    let a = |k: usize| f.a((k - 1) % CHAINS + 1);
    let body = (1..=WINDOW_CHAIN)
        .map(|k| {
            let (target, value, counts) = if k == 1 {
                let value = Expr::arith(ArithOp::Add, v(&a(1)), v(&a(2)));
                (Expr::var(&w(1)), value, OpCounts::new())
            } else {
                let value = Expr::arith(ArithOp::Add, v(&w(k - 1)), v(&a(k)));
                let target = Expr::var(&w(k));
                let link = rules::chain_latency(&target, &value, &w(k - 1).name)
                    .expect("an addition chain");
                (target, value, link)
            };
            BodyStmt {
                lines: vec![Line {
                    label: None,
                    text: format!("{target} = {value}"),
                }],
                counts,
            }
        })
        .collect();
    let inits = alternating_a(f, 2.5);
    let mut e = exp(
        Param::WIND.to_string(),
        "independent passes, each a chain of dependent additions: window-bound",
        inits,
        body,
    );
    e.locals = (1..=WINDOW_CHAIN)
        .collect::<Vec<_>>()
        .chunks(6)
        .map(|ks| {
            let names: Vec<String> = ks.iter().map(|&k| w(k).name).collect();
            format!("DOUBLE PRECISION {}", names.join(", "))
        })
        .collect();
    exps.push(e);
    groups.push(Group {
        unknowns: vec![Param::WIND],
        experiments: vec![Param::WIND.to_string()],
        baseline: None,
    });
}

/// The initial values A1..A(CHAINS) = +a, -a, +a, ...: added along a chain they keep it
/// bounded.
fn alternating_a(f: Flavor, a: f64) -> Vec<(String, String)> {
    (1..=CHAINS)
        .map(|k| {
            let sign = if k % 2 == 1 { 1.0 } else { -1.0 };
            (f.a(k).name, f.value(sign * a))
        })
        .collect()
}

/// The statement `target = value` of a chain that comes in through `from`, counted as one
/// link (rule 14).
fn chain_statement(target: Expr, value: Expr, from: &str) -> BodyStmt {
    let counts = rules::chain_latency(&target, &value, from).expect("the value reads from");
    BodyStmt {
        lines: vec![Line {
            label: None,
            text: format!("{target} = {value}"),
        }],
        counts,
    }
}

/// A body of `n` statements `X1 = value(k)` that each read the X1 the previous one wrote: one
/// dependence chain, so a pass costs the sum of the statements' latencies (rule 14).
fn chained(f: Flavor, n: usize, value: impl Fn(usize) -> Expr) -> Vec<BodyStmt> {
    let x1 = f.x(1);
    (1..=n)
        .map(|k| chain_statement(Expr::var(&x1), value(k), &x1.name))
        .collect()
}

/// Region 13 (opcost's refinement): the same operations in one dependent chain, for the
/// latency parameters (rule 14). The chain values stay bounded as in the throughput tests.
fn latency_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    use model::catalogue::{DataType, Operation as Op, Precision};
    let single = |ps: &[Param], e: &str| Group {
        unknowns: ps.to_vec(),
        experiments: vec![e.to_string()],
        baseline: None,
    };
    for f in [FLAVORS[0], FLAVORS[1], FLAVORS[2]] {
        let int = f.ty == Type::Integer;
        let (dt, prec) = match f.ty {
            Type::Real => (DataType::Real, Precision::Single),
            Type::Double => (DataType::Real, Precision::Double),
            _ => (DataType::Integer, Precision::Single),
        };
        let q = |op: Op| Param::latency(op, dt, prec).expect("latency parameter");
        // Transfers around a ring X1 -> X2 -> ... -> X16 -> X1.
        let qt = q(Op::MemoryTransfer);
        let ring: Vec<BodyStmt> = (1..=CHAINS)
            .map(|k| {
                let from = f.x(k);
                chain_statement(
                    Expr::var(&f.x(k % CHAINS + 1)),
                    Expr::var(&from),
                    &from.name,
                )
            })
            .collect();
        exps.push(exp(
            qt.to_string(),
            "a ring of dependent transfers",
            inits_for(f, CHAINS, Some(1.0), None, None),
            ring,
        ));
        groups.push(single(&[qt], qt.mnemonic()));
        let a = if int { 5.0 } else { 2.5 };
        let alternating = || {
            let mut i = inits_for(f, CHAINS, Some(1.0), None, None);
            i.extend(alternating_a(f, a));
            i
        };
        let cases = vec![
            // X = X + A with A alternately +a and -a (bounded): the shape of programs' sums
            // and counters (S = S + ..., K = K + I). `X = A - X` measured 2.7 ns a link for
            // integers against 0.4 here: GCC then reads X as the memory operand of the
            // subtraction, which this CPU forwards slower than a plain load.
            ChainCase {
                param: q(Op::Add),
                purpose: "dependent X = X + A, A alternately +a and -a",
                inits: alternating(),
                value: Box::new(move |x, k| Expr::arith(ArithOp::Add, v(x), v(&f.a(k)))),
            },
            // Rule 14e: MAX(X, A) with A alternately +a and -a, one compare-and-select a
            // link (X settles at a).
            ChainCase {
                param: q(Op::MinMax),
                purpose: "dependent X = MAX(X, A), A alternately +a and -a",
                inits: alternating(),
                value: Box::new(move |x, k| Expr::intrinsic("MAX", vec![v(x), v(&f.a(k))])),
            },
            ChainCase {
                param: q(Op::Multiply),
                purpose: "dependent X = X * 1",
                inits: inits_for(
                    f,
                    CHAINS,
                    Some(if int { 3.0 } else { 1.5 }),
                    Some(1.0),
                    None,
                ),
                value: Box::new(move |x, k| Expr::arith(ArithOp::Mul, v(x), v(&f.a(k)))),
            },
            ChainCase {
                param: q(Op::Divide),
                purpose: "dependent X = A / X",
                inits: inits_for(
                    f,
                    CHAINS,
                    Some(if int { 3.0 } else { 1.7 }),
                    Some(if int { 12.0 } else { 3.0 }),
                    None,
                ),
                value: Box::new(move |x, k| Expr::arith(ArithOp::Div, v(&f.a(k)), v(x))),
            },
            ChainCase {
                param: q(Op::PowerInteger),
                purpose: "dependent X = X ** 2",
                inits: inits_for(f, CHAINS, Some(1.0), None, None),
                value: Box::new(move |x, _| Expr::arith(ArithOp::Pow, v(x), Expr::int(2))),
            },
            ChainCase {
                param: q(Op::PowerGeneral),
                purpose: "dependent general power",
                inits: inits_for(
                    f,
                    CHAINS,
                    Some(if int { 1.0 } else { 0.6 }),
                    Some(if int { 3.0 } else { 0.5 }),
                    None,
                ),
                value: Box::new(move |x, k| {
                    if int {
                        Expr::arith(ArithOp::Pow, v(x), v(&f.a(k)))
                    } else {
                        Expr::arith(ArithOp::Pow, v(&f.a(k)), v(x))
                    }
                }),
            },
        ];
        for case in cases {
            let body = chained(f, CHAINS, |k| (case.value)(&f.x(1), k));
            exps.push(exp(case.param.to_string(), case.purpose, case.inits, body));
            groups.push(single(&[case.param], case.param.mnemonic()));
        }
        if int {
            // An integer division and a MOD by a constant on the chain (QCIS, QRIS): the
            // compiler's multiply-and-shift sequences, not one multiplication (rule 14).
            let by_constant: [(Param, &str, ChainValue); 2] = [
                (
                    Param::QCIS,
                    "dependent X = X / 3 (a multiply-and-shift sequence)",
                    Box::new(|x, _| Expr::arith(ArithOp::Div, v(x), Expr::int(3))),
                ),
                (
                    Param::QRIS,
                    "dependent X = MOD(X, 65521) (a division sequence, a multiplication back and a subtraction)",
                    Box::new(|x, _| Expr::intrinsic("MOD", vec![v(x), Expr::int(65521)])),
                ),
            ];
            for (param, purpose, value) in by_constant {
                let body = chained(f, CHAINS, |k| value(&f.x(1), k));
                let inits = inits_for(f, CHAINS, Some(3.0), None, None);
                exps.push(exp(param.to_string(), purpose, inits, body));
                groups.push(single(&[param], param.mnemonic()));
            }
        }
    }
    function_result_experiments(exps, groups);
    for f in [FLAVORS[0], FLAVORS[1]] {
        for case in intrinsic_cases(f, CostKind::Latency) {
            push_chain_case(exps, groups, f, CostKind::Latency, case);
        }
    }
}

/// Rule 14b: QFRS and QFRD, a REAL or DOUBLE PRECISION function's result on a chain, from
/// the chain `X1 = OPCFRS(X1)` (`OPCFRD`): a function of the tests' file that returns its
/// argument, so a link is the transfer into its result, the result's return and the transfer
/// into X1, as the analyzer counts a chain through a followed function. An optimizer inlines
/// it, as it does a program's own functions: the parameter then measures nothing.
fn function_result_experiments(exps: &mut Vec<Experiment>, groups: &mut Vec<Group>) {
    for f in [FLAVORS[0], FLAVORS[1]] {
        let name = if f.ty == Type::Double {
            "OPCFRD"
        } else {
            "OPCFRS"
        };
        let x1 = f.x(1);
        let result = Operand::local(&format!("{name}%{name}"), f.ty);
        let mut counts = rules::chain_latency(&Expr::var(&result), &v(&x1), &x1.name)
            .expect("the function's result reads its argument");
        counts += &rules::chain_latency(&Expr::var(&x1), &v(&result), &result.name)
            .expect("X1 reads the result");
        counts += &rules::function_result_latency(f.ty);
        let param = counts
            .params
            .keys()
            .copied()
            .find(|p| p.def().operation == model::catalogue::Operation::FunctionResult)
            .expect("a real function's result has a latency parameter");
        let body = (1..=CHAINS)
            .map(|_| BodyStmt {
                lines: vec![Line {
                    label: None,
                    text: format!("{x} = {name}({x})", x = x1.name),
                }],
                counts: counts.clone(),
            })
            .collect();
        exps.push(exp(
            param.to_string(),
            "dependent X = F(X) through a function returning its argument",
            inits_for(f, CHAINS, Some(1.0), None, None),
            body,
        ));
        groups.push(single(&[param], param.mnemonic()));
    }
}

/// The parameter of a library function `op` in `f`'s precision: its throughput or latency.
fn intrinsic_param(f: Flavor, kind: CostKind, op: model::catalogue::Operation) -> Param {
    use model::catalogue::{DataType, Precision};
    let prec = if f.ty == Type::Double {
        Precision::Double
    } else {
        Precision::Single
    };
    match kind {
        CostKind::Latency => Param::latency(op, DataType::Real, prec),
        CostKind::Throughput => Param::lookup(op, DataType::Real, prec, StorageClass::Local),
    }
    .expect("catalogue covers the intrinsics")
}

/// A chain test: the parameter, what the body does, the initial values, and the value of
/// statement k given the chain variable it reads.
struct ChainCase {
    param: Param,
    purpose: &'static str,
    inits: Vec<(String, String)>,
    value: ChainValue,
}

/// The value of statement k of a chain, given the chain variable it reads.
type ChainValue = Box<dyn Fn(&Operand, usize) -> Expr>;

/// The five intrinsics of a precision, each as a chain `X = f(X)` with an attracting fixed point
/// at a typical argument; shared by the throughput (regions 11-12) and latency (region 13)
/// tests, which differ only in how many chains run at once.
fn intrinsic_cases(f: Flavor, kind: CostKind) -> Vec<ChainCase> {
    use model::catalogue::Operation as Op;
    let param = |op: Op| intrinsic_param(f, kind, op);
    let n = FEW_CHAINS;
    vec![
        ChainCase {
            param: param(Op::Exp),
            purpose: "X = EXP(Z - X): fixed point 0.567",
            inits: inits_for(f, n, Some(0.5), None, None),
            value: Box::new(move |x, _| {
                Expr::intrinsic("EXP", vec![Expr::arith(ArithOp::Sub, v(&f.zero()), v(x))])
            }),
        },
        ChainCase {
            param: param(Op::Log),
            purpose: "X = LOG(X) + 2: fixed point 3.146",
            inits: inits_for(f, n, Some(3.0), Some(2.0), None),
            value: Box::new(move |x, k| {
                Expr::arith(ArithOp::Add, Expr::intrinsic("LOG", vec![v(x)]), v(&f.a(k)))
            }),
        },
        ChainCase {
            param: param(Op::Sin),
            purpose: "X = SIN(X) + 0.5: fixed point 1.497",
            inits: inits_for(f, n, Some(1.0), Some(0.5), None),
            value: Box::new(move |x, k| {
                Expr::arith(ArithOp::Add, Expr::intrinsic("SIN", vec![v(x)]), v(&f.a(k)))
            }),
        },
        ChainCase {
            param: param(Op::Tan),
            purpose: "X = 0.7 - TAN(X) * 0.1: fixed point 0.63",
            inits: inits_for(f, n, Some(0.6), Some(0.7), Some(0.1)),
            value: Box::new(move |x, k| {
                Expr::arith(
                    ArithOp::Sub,
                    v(&f.a(k)),
                    Expr::arith(ArithOp::Mul, Expr::intrinsic("TAN", vec![v(x)]), v(&f.b(k))),
                )
            }),
        },
        ChainCase {
            // fmod works through the quotient bit by bit, one branch a bit: its time grows
            // with the quotient and with how unpredictable its bits are. Measured at quotients
            // spread over [0, 4099] (a value reduced by a few thousand periods), each with
            // bits of its own: X wanders chaotically over [0, 1) and never sticks. A constant
            // quotient (X + 4096.37) let the predictor learn the library's branches: 9 ns a
            // call, where a Lehmer generator's MOD ran 50.
            param: param(Op::Remainder),
            purpose: "X = MOD(X * 4099.37 + 0.5, 1): quotients 0-4099, varying bits",
            inits: inits_for(f, n, Some(0.3), Some(4099.37), Some(1.0)),
            value: Box::new(move |x, k| {
                let scaled = Expr::arith(ArithOp::Mul, v(x), v(&f.a(k)));
                let half = Expr::Constant {
                    text: if f.ty == Type::Double { "0.5D0" } else { "0.5" }.into(),
                    ty: f.ty,
                };
                let shifted = Expr::arith(ArithOp::Add, scaled, half);
                Expr::intrinsic("MOD", vec![shifted, v(&f.b(k))])
            }),
        },
        ChainCase {
            param: param(Op::Sqrt),
            purpose: "X = SQRT(X) + 1: fixed point 2.618",
            inits: inits_for(f, n, Some(2.0), Some(1.0), None),
            value: Box::new(move |x, k| {
                Expr::arith(
                    ArithOp::Add,
                    Expr::intrinsic("SQRT", vec![v(x)]),
                    v(&f.a(k)),
                )
            }),
        },
        ChainCase {
            // gfortran calls cabsf/cabs, that is hypotf/hypot (rule 13a). CMPLX and DCMPLX
            // cost nothing; the double test uses the generic ABS of a DOUBLE COMPLEX.
            param: param(Op::ComplexAbs),
            purpose: "X = 0.7 - CABS(CMPLX(X, 0.9)) * 0.1: fixed point 0.59",
            inits: inits_for(f, n, Some(0.6), Some(0.7), Some(0.1)),
            value: Box::new(move |x, k| {
                let (pack, abs, im) = if f.ty == Type::Double {
                    ("DCMPLX", "ABS", "0.9D0")
                } else {
                    ("CMPLX", "CABS", "0.9")
                };
                let imaginary = Expr::Constant {
                    text: im.into(),
                    ty: f.ty,
                };
                let z = Expr::intrinsic(pack, vec![v(x), imaginary]);
                Expr::arith(
                    ArithOp::Sub,
                    v(&f.a(k)),
                    Expr::arith(ArithOp::Mul, Expr::intrinsic(abs, vec![z]), v(&f.b(k))),
                )
            }),
        },
    ]
}

/// Statements that no test used, timed after the parameters to see whether they compose
/// (the self-check of issue 2).
pub fn self_checks() -> Vec<Experiment> {
    let r = FLAVORS[0];
    let d = FLAVORS[1];
    let i = FLAVORS[2];
    let n = FEW_CHAINS;
    let na = Operand::local("NA1", Type::Integer);
    let ra1 = Operand::local("RA1", Type::Real);
    let ra2 = Operand::local("RA2", Type::Real);
    let mut mixed_inits = inits_for(d, n, Some(1.0), Some(0.5), None);
    mixed_inits.extend(inits_for(r, n, Some(1.0), None, None));
    let mut cond_inits = inits_for(r, n, Some(1.0), Some(2.0), None);
    cond_inits.extend(inits_for(i, n, Some(1.0), None, None));
    let mut call_inits = inits_for(r, n, Some(1.0), None, None);
    call_inits.extend(inits_for(d, n, Some(1.0), None, None));
    call_inits.extend(inits_for(i, n, Some(1.0), None, None));
    let idx: Vec<(String, String)> = (1..=n)
        .map(|k| (index(k).name, format!("IVAL({})", 1 + k % 3)))
        .collect();
    let mut arr_inits = idx.clone();
    arr_inits.extend(inits_for(r, n, None, Some(0.25), None));
    vec![
        exp(
            "CHECK.multiply-add".into(),
            "X = A * X + B (fixed point 2)",
            inits_for(r, n, Some(1.0), Some(0.5), Some(1.0)),
            (1..=n)
                .map(|k| {
                    assign(
                        &r.x(k),
                        Expr::arith(
                            ArithOp::Add,
                            Expr::arith(ArithOp::Mul, v(&r.a(k)), v(&r.x(k))),
                            v(&r.b(k)),
                        ),
                    )
                })
                .collect(),
        ),
        exp(
            "CHECK.mixed-mode".into(),
            "DX = DX * DA + X (double with a single operand)",
            mixed_inits,
            (1..=n)
                .map(|k| {
                    assign(
                        &d.x(k),
                        Expr::arith(
                            ArithOp::Add,
                            Expr::arith(ArithOp::Mul, v(&d.x(k)), v(&d.a(k))),
                            v(&r.x(k)),
                        ),
                    )
                })
                .collect(),
        ),
        exp(
            "CHECK.nested-array".into(),
            "X = RA1(NA1(K))",
            idx.clone(),
            (1..=n)
                .map(|k| {
                    assign(
                        &r.x(k),
                        Expr::elem(&ra1, vec![Expr::elem(&na, vec![v(&index(k))])]),
                    )
                })
                .collect(),
        ),
        exp(
            "CHECK.array-2d-update".into(),
            "RA2(K, J+1) = RA2(K+1, J) + A",
            arr_inits,
            (1..=n)
                .map(|k| {
                    let j = k % n + 1;
                    let target = Expr::elem(
                        &ra2,
                        vec![
                            v(&index(k)),
                            Expr::arith(ArithOp::Add, v(&index(j)), Expr::int(1)),
                        ],
                    );
                    let source = Expr::elem(
                        &ra2,
                        vec![
                            Expr::arith(ArithOp::Add, v(&index(k)), Expr::int(1)),
                            v(&index(j)),
                        ],
                    );
                    assign_expr(target, Expr::arith(ArithOp::Add, source, v(&r.a(k))))
                })
                .collect(),
        ),
        exp(
            "CHECK.call-mixed".into(),
            "CALL P3M(X, DX, IX)",
            call_inits,
            (1..=n)
                .map(|k| call("P3M", vec![v(&r.x(k)), v(&d.x(k)), v(&i.x(k))]))
                .collect(),
        ),
        exp(
            "CHECK.compound-condition".into(),
            "IF (X .GT. A .AND. IX .LT. IZ) X = Z, never taken",
            cond_inits,
            (1..=n)
                .map(|k| {
                    if_never(
                        Expr::logic(
                            LogicOp::And,
                            Expr::compare(RelOp::Gt, v(&r.x(k)), v(&r.a(k))),
                            Expr::compare(RelOp::Lt, v(&i.x(k)), v(&i.zero())),
                        ),
                        &r.x(k),
                        v(&r.zero()),
                    )
                })
                .collect(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashSet};

    #[test]
    fn every_measured_parameter_is_solved_exactly_once() {
        let (_, groups) = catalogue();
        let solved: Vec<Param> = groups.iter().flat_map(|g| g.unknowns.clone()).collect();
        let unique: HashSet<_> = solved.iter().collect();
        assert_eq!(solved.len(), unique.len());
        let measured: HashSet<_> = Param::measured().collect();
        assert_eq!(unique.len(), measured.len());
        for p in &solved {
            assert!(measured.contains(p), "{p}");
        }
    }

    #[test]
    fn the_window_test_is_one_chain_of_dependent_statements() {
        let (exps, _) = catalogue();
        let e = exps
            .iter()
            .find(|e| e.name == "WIND")
            .expect("the WIND test");
        assert_eq!(e.body.len(), WINDOW_CHAIN);
        // Every statement after the first is a link: a forwarded load and an addition.
        let mut links = OpCounts::new();
        for s in &e.body[1..] {
            assert_eq!(s.counts.total_characterized(), 2, "{:?}", s.lines);
            links += &s.counts;
        }
        assert!(e.body[0].counts.is_empty());
        assert_eq!(links.get(Param::QTRD), WINDOW_CHAIN as u64 - 1);
        assert_eq!(links.get(Param::QARD), WINDOW_CHAIN as u64 - 1);
        assert!(e.locals.iter().all(|d| d.len() <= 66), "{:?}", e.locals);
    }

    #[test]
    fn groups_only_need_parameters_solved_before_them() {
        let (exps, groups) = catalogue();
        let mut known: BTreeSet<Param> = BTreeSet::new();
        for g in &groups {
            for name in &g.all_experiments() {
                assert!(exps.iter().any(|e| &e.name == name), "{name} exists");
            }
            for name in &g.experiments {
                let c = g.counts_of(&exps, name);
                for p in c.params.keys() {
                    assert!(
                        known.contains(p) || g.unknowns.contains(p),
                        "{name} needs {p} before it is solved"
                    );
                }
                assert!(c.uncharacterized.is_empty(), "{name}");
            }
            // Each unknown must actually occur in the group's experiments; WIND's counts are
            // its chain's links, from which its solve derives it (rule 19).
            for u in g.unknowns.iter().filter(|u| **u != Param::WIND) {
                assert!(g
                    .experiments
                    .iter()
                    .any(|n| g.counts_of(&exps, n).get(*u) > 0));
            }
            known.extend(g.unknowns.iter().copied());
        }
    }

    #[test]
    fn bodies_count_by_the_model_rules() {
        let (exps, _) = catalogue();
        let get = |n: &str| exps.iter().find(|e| e.name == n).unwrap().counts();
        let c = get("ARSL.1");
        assert_eq!(c.get(Param::SRSL), CHAINS as u64);
        assert_eq!(c.get(Param::ARSL), CHAINS as u64);
        assert_eq!(get("ARSL.2").get(Param::ARSL), 2 * CHAINS as u64);
        assert_eq!(get("TRSG").get(Param::TRSG), CHAINS as u64);
        assert_eq!(get("IADD").get(Param::IADD), CHAINS as u64);
        assert_eq!(get("IADD").get(Param::TRSL), CHAINS as u64);
        assert_eq!(get("LOOV.2").get(Param::LOOV), 4 * LONG_TRIPS);
        assert_eq!(get("LOOV.2").get(Param::ARR1), 2 * 4 * LONG_TRIPS);
        // The four loops of a pass update elements of their own, within RA1(64): no loop
        // waits for the store of the loop before (LOIN is the entry, not a forwarding chain).
        for name in ["LOOV.2", "LOOX.2"] {
            let e = exps.iter().find(|e| e.name == name).unwrap();
            let unit = name.starts_with("LOOV");
            let mut seen = std::collections::BTreeSet::new();
            for st in &e.body {
                let update = &st.lines[1].text;
                let index = update
                    .split_once("RA1(J")
                    .unwrap()
                    .1
                    .split(')')
                    .next()
                    .unwrap();
                let offset: i64 = match index.trim().trim_start_matches('+').trim() {
                    "" => 0,
                    c => c.parse().unwrap(),
                };
                let (step, last) = if unit {
                    (1, LONG_TRIPS as i64)
                } else {
                    (2, 2 * LONG_TRIPS as i64 - 1)
                };
                for j in (1..=last).step_by(step) {
                    let k = j + offset;
                    assert!(
                        k <= 64 && seen.insert(k),
                        "{name}: RA1({k}) twice or past 64"
                    );
                }
            }
            assert_eq!(seen.len() as u64, 4 * LONG_TRIPS);
        }
        // Rule 18: the constant store through the large array, against the variable's.
        let n = model::rules::LARGE_ARRAY_BYTES;
        assert_eq!(get("CSTA").get(Param::CSTA), n);
        assert_eq!(get("CSTA").get(Param::TISL), n);
        assert_eq!(get("CSTA.0").get(Param::CSTA), 0);
        assert_eq!(get("CSTA").minus(&get("CSTA.0")).get(Param::TISL), 0);
        let csta = exps.iter().find(|e| e.name == "CSTA").unwrap();
        assert_eq!(csta.locals, vec![format!("INTEGER NBIG({n})")]);
        assert_eq!(csta.body[0].lines[1].text, "NBIG(J) = 1");
        assert_eq!(get("LOOX.1").get(Param::LOIX), 4);
        assert_eq!(get("AGRD").get(Param::AGRD), 4 * FEW_CHAINS as u64);
        assert!(get(LOOP_EXPERIMENT).is_empty());
        assert_eq!(get("SIND").get(Param::ARDL), FEW_CHAINS as u64);
        // Latency bodies count the chain (rule 14), not the throughput operations.
        assert_eq!(get("QARS").get(Param::QARS), CHAINS as u64);
        assert_eq!(get("QARS").get(Param::QTRS), CHAINS as u64);
        assert_eq!(get("QARS").get(Param::ARSL), 0);
        assert_eq!(get("QTIS").get(Param::QTIS), CHAINS as u64);
        assert_eq!(get("QTND").get(Param::QMRD), FEW_CHAINS as u64);
        // A division and a MOD by a constant on the chain are their own latencies (rule 14),
        // not a multiplication's.
        for (name, p) in [("QCIS", Param::QCIS), ("QRIS", Param::QRIS)] {
            assert_eq!(get(name).get(p), CHAINS as u64, "{name}");
            assert_eq!(get(name).get(Param::QTIS), CHAINS as u64, "{name}");
            assert_eq!(get(name).get(Param::QMIS), 0, "{name}");
        }
        // Half of the random IFs are missed per pass.
        assert_eq!(get("BMIS").get(Param::BMIS), BRANCH_TRIPS as u64 / 2);
        assert_eq!(get("BMIS.0").get(Param::BMIS), 0);
        // Rule 24: one expected quadrant miss a sine of a random quadrant, the baseline none,
        // and nothing else apart.
        let misses = u64::from(rules::QUADRANT_BRANCHES) / 2 * BRANCH_CHAINS as u64;
        assert_eq!(get("BMSN").get(Param::BMSN), misses);
        assert_eq!(get("BMSN").get(Param::SINS), 1);
        assert_eq!(get("BMSN").get(Param::SIND), 1);
        let apart = get("BMSN").minus(&get("BMSN.0"));
        let nonzero: Vec<_> = apart.params.iter().filter(|(_, &n)| n > 0).collect();
        assert_eq!(nonzero, vec![(&Param::BMSN, &misses)]);
        // Rule 24b: SIND's body at a reduced fixed point, one SRDD a sine and nothing else
        // apart from SIND's test.
        let apart = get("SRDD").minus(&get("SIND"));
        let nonzero: Vec<_> = apart.params.iter().filter(|(_, &n)| n > 0).collect();
        assert_eq!(nonzero, vec![(&Param::SRDD, &(FEW_CHAINS as u64))]);
        // Rule 9b: MODD's body at larger quotients, eight MQBD an fmod and nothing else
        // apart from MODD's test.
        let apart = get("MQBD").minus(&get("MODD"));
        let nonzero: Vec<_> = apart.params.iter().filter(|(_, &n)| n > 0).collect();
        let steps = REMAINDER_STEPS_BEYOND * FEW_CHAINS as u64;
        assert_eq!(nonzero, vec![(&Param::MQBD, &steps)]);
        // Rule 25: a conversion a statement; two a link of the chain.
        assert_eq!(get("CNVT").get(Param::CNVT), FEW_CHAINS as u64);
        assert_eq!(get("QCNV").get(Param::QCNV), 2 * FEW_CHAINS as u64);
        assert_eq!(get("QCNV").get(Param::QARD), FEW_CHAINS as u64);
        // The pointer chase: one addressed load and one integer store a link.
        assert_eq!(get("QADR").get(Param::QADR), FEW_CHAINS as u64);
        assert_eq!(get("QADR").get(Param::QTIS), FEW_CHAINS as u64);
        // Rule 14d: QAIS's test adds into memory; QAIC's adds constants there; QAIR's adds in
        // registers and stores to the other variable. Each link also forwards one transfer.
        for (name, p) in [
            ("QAIS", Param::QAIS),
            ("QAIC", Param::QAIC),
            ("QAIR", Param::QAIR),
        ] {
            let c = get(name);
            assert_eq!(c.get(p), CHAINS as u64, "{name}");
            assert_eq!(c.get(Param::QTIS), CHAINS as u64, "{name}");
            assert_eq!(c.total_characterized(), 2 * CHAINS as u64, "{name}");
        }
        // Rule 14e: one compare-and-select and one transfer a link; rule 14f: one element
        // forwarded and one addition in a register a link, nothing else.
        for name in ["QMXS", "QMXD", "QMXI"] {
            let c = get(name);
            assert_eq!(
                c.get(Param::from_mnemonic(name).unwrap()),
                CHAINS as u64,
                "{name}"
            );
            assert_eq!(c.total_characterized(), 2 * CHAINS as u64, "{name}");
        }
        let c = get("QTEI");
        assert_eq!(c.get(Param::QTEI), CHAINS as u64);
        assert_eq!(c.get(Param::QAIR), CHAINS as u64);
        assert_eq!(c.total_characterized(), 2 * CHAINS as u64);
        // Rule 27: QDOV's DO loop counts its entry and one QDOV an iteration (its store overlaps).
        let c = get("QDOV");
        assert_eq!(c.get(Param::QDOV), DO_CHAIN_TRIPS);
        assert_eq!(c.get(Param::LOIN), 1);
        assert_eq!(c.get(Param::LOOV), 0);
        // The REAL-compare test: its misses are BMIR, none BMIS; the baseline has none.
        assert_eq!(get("BMIR").get(Param::BMIR), BRANCH_TRIPS as u64 / 2);
        assert_eq!(get("BMIR").get(Param::BMIS), 0);
        assert_eq!(get("BMIR.0").get(Param::BMIR), 0);
    }

    #[test]
    fn self_checks_use_only_catalogued_operations() {
        for e in self_checks() {
            assert!(e.counts().uncharacterized.is_empty(), "{}", e.name);
            assert!(!e.counts().params.is_empty(), "{}", e.name);
        }
    }
}

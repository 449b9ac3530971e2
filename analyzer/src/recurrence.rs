//! Dependence chains around innermost loops (rule 14 of `model::rules`, opcost's refinement of
//! the seed's additive model): on an out-of-order CPU a loop whose iterations are independent
//! runs at the pace of its operations' summed (throughput) cost, but a loop that carries a
//! value from one iteration to the next through a chain of dependent statements cannot go
//! faster than that chain's latency. This module finds the innermost loops (DO, DO WHILE, and
//! backward GO TO), and for each the chains that lead from a scalar's value at the top of an
//! iteration back to the same scalar at its end (its recurrences), as latency counts.

use crate::analysis::{Mult, Program};
use crate::syntax::Stmt;
use model::expr::Expr;
use model::{rules, OpCounts};
use std::collections::HashMap;

/// An innermost loop: statements `first..=last` of the program, iterated `iterations` times.
#[derive(Debug, Clone)]
pub struct LoopShape {
    pub unit: usize,
    pub first: usize,
    pub last: usize,
    /// Counter combination giving the number of iterations of one run.
    pub iterations: Mult,
    /// Per-iteration latency counts of each recurrence (one per carried scalar).
    pub recurrences: Vec<OpCounts>,
}

/// Scalars a value reads outside subscripts (those can start a chain, rule 14).
fn scalars_read(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Variable(o) => {
            if !out.contains(&o.name) {
                out.push(o.name.clone());
            }
        }
        Expr::Element { subscripts, .. } if subscripts.iter().all(Expr::is_constant) => {
            let key = e.to_string();
            if !out.contains(&key) {
                out.push(key);
            }
        }
        Expr::Constant { .. } | Expr::Element { .. } | Expr::Opaque { .. } => {}
        Expr::Paren(x) => scalars_read(x, out),
        Expr::Unary { operand, .. } => scalars_read(operand, out),
        Expr::Arith { lhs, rhs, .. }
        | Expr::Compare { lhs, rhs, .. }
        | Expr::Logic { lhs, rhs, .. } => {
            scalars_read(lhs, out);
            scalars_read(rhs, out);
        }
        Expr::Intrinsic { args, .. } | Expr::Call { args, .. } => {
            for a in args {
                scalars_read(a, out);
            }
        }
    }
}

/// The recurrences of a straight run of assignments (in execution order, wrapping around).
/// For every scalar, the chains from each loop-entry value (origin) to its current value are
/// tracked, keeping the longest (most latency operations) per origin.
pub fn recurrences(assignments: &[(Expr, Expr)]) -> Vec<OpCounts> {
    let mut chains: HashMap<String, HashMap<String, OpCounts>> = HashMap::new();
    for (target, value) in assignments {
        // Scalars and fixed elements; stores through variable subscripts are not tracked.
        let key = match target.unparen() {
            Expr::Variable(t) => t.name.clone(),
            e @ Expr::Element { subscripts, .. } if subscripts.iter().all(Expr::is_constant) => {
                e.to_string()
            }
            _ => continue,
        };
        let mut reads = Vec::new();
        scalars_read(value, &mut reads);
        let mut next: HashMap<String, OpCounts> = HashMap::new();
        for w in &reads {
            let Some(step) = rules::chain_latency(target, value, w) else {
                continue;
            };
            let sources: Vec<(String, OpCounts)> = match chains.get(w) {
                Some(m) => m.iter().map(|(o, c)| (o.clone(), c.clone())).collect(),
                None => vec![(w.clone(), OpCounts::new())],
            };
            for (origin, mut c) in sources {
                c += &step;
                let keep = next
                    .get(&origin)
                    .is_none_or(|old| old.total_characterized() < c.total_characterized());
                if keep {
                    next.insert(origin, c);
                }
            }
        }
        chains.insert(key, next);
    }
    let mut out: Vec<OpCounts> = chains
        .iter()
        .filter_map(|(var, m)| m.get(var).cloned())
        .filter(|c| !c.params.is_empty())
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.total_characterized()));
    out.truncate(4);
    out
}

/// The innermost loops of a program and their recurrences.
pub fn innermost_loops(prog: &Program) -> Vec<LoopShape> {
    let mut loops: Vec<(usize, usize, usize, Mult)> = Vec::new();
    let label_at = |unit: usize, label: u32| -> Option<usize> {
        (0..prog.stmts.len()).find(|&i| {
            prog.stmts[i].unit == unit
                && prog.statement(i).label == Some(label)
                && prog.stmts[i].stmt.is_some()
        })
    };
    for (i, st) in prog.stmts.iter().enumerate() {
        let Some(s) = &st.stmt else { continue };
        match s {
            Stmt::Do(label, _) | Stmt::DoWhile(label, _) => {
                let unit_end = prog.units[st.unit].end;
                let end = crate::analysis::loop_end(prog, i, *label, unit_end);
                if let (Some(j), Some(iter)) = (end, st.parts.get(1)) {
                    loops.push((st.unit, i, j, iter.mult.clone()));
                }
            }
            Stmt::Goto(l) => {
                if let Some(t) = label_at(st.unit, *l).filter(|&t| t < i) {
                    if let Some(m) = prog.stmts[t].exec.clone() {
                        loops.push((st.unit, t, i, m));
                    }
                }
            }
            Stmt::LogicalIf(_, inner, _) => {
                if let Stmt::Goto(l) = inner.as_ref() {
                    if let Some(t) = label_at(st.unit, *l).filter(|&t| t < i) {
                        if let Some(m) = prog.stmts[t].exec.clone() {
                            loops.push((st.unit, t, i, m));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Innermost: no other loop strictly inside.
    let inner: Vec<&(usize, usize, usize, Mult)> = loops
        .iter()
        .filter(|a| {
            !loops
                .iter()
                .any(|b| (b.1, b.2) != (a.1, a.2) && a.1 <= b.1 && b.2 <= a.2)
        })
        .collect();
    inner
        .into_iter()
        .map(|(unit, first, last, iterations)| {
            let body: Vec<(Expr, Expr)> = (*first..=*last)
                .filter_map(|k| prog.stmts[k].assignment.clone())
                .collect();
            LoopShape {
                unit: *unit,
                first: *first,
                last: *last,
                iterations: iterations.clone(),
                recurrences: recurrences(&body),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::expr::{ArithOp, Operand, Type};
    use model::Param;

    fn v(n: &str) -> Expr {
        Expr::var(&Operand::local(n, Type::Real))
    }

    #[test]
    fn a_sum_carries_its_accumulator() {
        let a = Operand::local("A", Type::Real);
        let i = Operand::local("I", Type::Integer);
        // S = S + A(I)
        let r = recurrences(&[(
            v("S"),
            Expr::arith(ArithOp::Add, v("S"), Expr::elem(&a, vec![Expr::var(&i)])),
        )]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].get(Param::QARS), 1);
        assert_eq!(r[0].get(Param::QTRS), 1);
    }

    #[test]
    fn chains_cross_statements_like_mandelbrot() {
        // ZR2 = ZR * ZR; ZI2 = ZI * ZI; ZI = 2 * ZR * ZI + CY; ZR = ZR2 - ZI2 + CX
        let two = Expr::Constant {
            text: "2.0".into(),
            ty: Type::Real,
        };
        let body = vec![
            (v("ZR2"), Expr::arith(ArithOp::Mul, v("ZR"), v("ZR"))),
            (v("ZI2"), Expr::arith(ArithOp::Mul, v("ZI"), v("ZI"))),
            (
                v("ZI"),
                Expr::arith(
                    ArithOp::Add,
                    Expr::arith(
                        ArithOp::Mul,
                        Expr::arith(ArithOp::Mul, two, v("ZR")),
                        v("ZI"),
                    ),
                    v("CY"),
                ),
            ),
            (
                v("ZR"),
                Expr::arith(
                    ArithOp::Add,
                    Expr::arith(ArithOp::Sub, v("ZR2"), v("ZI2")),
                    v("CX"),
                ),
            ),
        ];
        let r = recurrences(&body);
        // ZR -> ZR2 -> ZR: two forwardings, one multiply, two additions.
        let zr = r
            .iter()
            .find(|c| c.get(Param::QTRS) == 2)
            .expect("the ZR recurrence crosses two statements");
        assert_eq!(zr.get(Param::QMRS), 1);
        assert_eq!(zr.get(Param::QARS), 2);
    }

    #[test]
    fn fixed_elements_carry_chains_like_whetstone() {
        // E(1) = (E(1) + E(2)) * T; E(2) = (E(1) - E(2)) * T
        let e = Operand::local("E", Type::Real);
        let el = |k| Expr::elem(&e, vec![Expr::int(k)]);
        let body = vec![
            (
                el(1),
                Expr::arith(
                    ArithOp::Mul,
                    Expr::Paren(Box::new(Expr::arith(ArithOp::Add, el(1), el(2)))),
                    v("T"),
                ),
            ),
            (
                el(2),
                Expr::arith(
                    ArithOp::Mul,
                    Expr::Paren(Box::new(Expr::arith(ArithOp::Sub, el(1), el(2)))),
                    v("T"),
                ),
            ),
        ];
        let r = recurrences(&body);
        assert!(
            r.iter().any(|c| c.get(Param::QTRS) == 2),
            "E(2) waits on E(1) which waits on E(2)"
        );
    }

    #[test]
    fn independent_iterations_have_no_recurrence() {
        let a = Operand::local("A", Type::Real);
        let i = Operand::local("I", Type::Integer);
        let r = recurrences(&[(v("T"), Expr::elem(&a, vec![Expr::var(&i)]))]);
        assert!(r.is_empty());
    }
}

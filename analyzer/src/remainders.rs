//! Rule 9b: the quotient bits of DOUBLE PRECISION MOD, counted by the counting run.
//!
//! glibc's fmod takes one step of shift and subtract per bit of its quotient
//! (`model::rules::remainder_steps`), so its time is a matter of the data: MODD is measured at
//! quotients below 4100, and a statement's steps beyond as many a call as there cost one MQBD
//! each (`model::rules::charge_remainder_steps`). The counted copy adds, before a statement
//! whose MOD references are all of doubles, the steps each takes (a function of the copy's,
//! [`steps_function`]) to one counter slot per statement.
//!
//! Watched as INDEX's scans are (see `scans`): assignments, block IFs and logical IFs whose
//! MOD references the rules all counted as MODD and that call no function of the program.

use crate::analysis::Program;
use crate::instrument::parenthesized;
use crate::scans::{references_to, split_arguments, watch, Watch};

/// The specific and generic names of MOD; AMOD (single precision) keeps MODS alone.
const NAMES: [&str; 3] = ["MOD", "DMOD", "AMOD"];

/// The (dividend, divisor) argument texts of the MOD references in `text`; None when one
/// does not take exactly two.
fn arguments(text: &str) -> Option<Vec<(&str, &str)>> {
    references_to(text, &NAMES)
        .into_iter()
        .map(
            |open| match split_arguments(parenthesized(text, open)?.0)[..] {
                [x, y] => Some((x, y)),
                _ => None,
            },
        )
        .collect()
}

/// The watch of statement `s`'s MOD references, as argument texts; None when they cannot all
/// be watched, among them a statement with an integer or a REAL MOD beside a double one.
pub fn remainder_watch(prog: &Program, s: usize) -> Option<Watch<(&str, &str)>> {
    let counted = prog.stmts[s].static_counts.get(model::Param::MODD);
    watch(prog, s, counted, arguments)
}

/// Statements whose fmod steps the counted copy counts, with their counter slots from `base`
/// on, one each.
pub fn remainder_slots(prog: &Program, base: usize) -> Vec<(usize, usize)> {
    crate::scans::watched_slots(prog, base, |s| remainder_watch(prog, s).is_some())
}

/// The statements adding to `counter` the fmod steps of the references with arguments
/// `args`, by the counted copy's function `steps` (see [`steps_function`]).
pub fn additions(args: &[(&str, &str)], steps: &str, counter: &str) -> Vec<String> {
    args.iter()
        .map(|(x, y)| format!("{counter}={counter}+{steps}(DBLE({x}),DBLE({y}))"))
        .collect()
}

/// The counted copy's function giving the steps of fmod of `X` by `Y`
/// (`model::rules::remainder_steps`): Fortran's EXPONENT is ilogb plus one, so their
/// difference is fmod's steps; none for a zero, infinite or NaN operand or a dividend below
/// the divisor.
pub fn steps_function(name: &str) -> Vec<String> {
    crate::scans::integer8_function(
        name,
        "X, Y",
        &[
            "DOUBLE PRECISION X, Y".into(),
            "INTEGER N".into(),
            format!("{name} = 0"),
            "IF (X .NE. X .OR. Y .NE. Y) RETURN".into(),
            "IF (X .EQ. 0 .OR. Y .EQ. 0) RETURN".into(),
            "IF (ABS(X) .GT. HUGE(X) .OR. ABS(Y) .GT. HUGE(Y)) RETURN".into(),
            "IF (ABS(X) .LT. ABS(Y)) RETURN".into(),
            "N = EXPONENT(X) - EXPONENT(Y)".into(),
            format!("IF (N .GT. 0) {name} = N"),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_argument_references_are_found_by_every_name() {
        let text = "X=MOD(A*B,1.0D0)+DMOD(C(I,J),D)+MYMOD(3)";
        assert_eq!(
            additions(&arguments(text).unwrap(), "OPCMB", "OPCNT(9)"),
            vec![
                "OPCNT(9)=OPCNT(9)+OPCMB(DBLE(A*B),DBLE(1.0D0))".to_string(),
                "OPCNT(9)=OPCNT(9)+OPCMB(DBLE(C(I,J)),DBLE(D))".to_string(),
            ]
        );
        assert_eq!(arguments("X=MOD(A)"), None);
    }
}

//! Rule 24: the quadrant branches of SIN and COS, fed to the simulated predictor by the
//! counting run.
//!
//! The library reduces a sine or cosine's argument by a quarter period and branches on the
//! quadrant's two low bits (`model::rules::QUADRANT_BRANCHES`). The counted copy feeds both
//! bits of each watched reference's quadrant to rule 15's simulated predictor before the
//! statement runs, and counts its misses in one counter slot per statement: arguments that
//! step smoothly keep their quadrant and are learned, scattered ones are missed.
//!
//! Rule 24c: ahead of the quadrant, the library branches on the argument's magnitude
//! (`model::rules::sine_range_outcomes`); the counted copy feeds those outcomes too, into the
//! same slot.
//!
//! Rule 24b: the same references' DOUBLE PRECISION arguments at least
//! `model::rules::SINE_REDUCED_FROM` in magnitude, which the library reduces by a multiple of
//! a quarter period first, are counted in a second slot per statement.
//!
//! Watched as INDEX's scans are (see `scans`): assignments, block IFs and logical IFs whose
//! references are all the intrinsic and that call no function of the program.

use crate::analysis::Program;
use crate::instrument::parenthesized;
use crate::scans::{references_to, split_arguments, watch, Watch};

/// The specific and generic names of the sine and cosine of a real argument.
const NAMES: [&str; 4] = ["SIN", "DSIN", "COS", "DCOS"];

/// The argument texts of the sine and cosine references in `text`; None when one does not
/// take exactly one argument.
fn arguments(text: &str) -> Option<Vec<&str>> {
    references_to(text, &NAMES)
        .into_iter()
        .map(
            |open| match split_arguments(parenthesized(text, open)?.0)[..] {
                [x] => Some(x),
                _ => None,
            },
        )
        .collect()
}

/// The watch of statement `s`'s sine and cosine references, as argument texts; None when they
/// cannot all be watched. The counting rules count each reference as one SINS or SIND.
pub fn quadrant_watch(prog: &Program, s: usize) -> Option<Watch<&str>> {
    use model::Param;
    let counts = &prog.stmts[s].static_counts;
    watch(
        prog,
        s,
        counts.get(Param::SINS) + counts.get(Param::SIND),
        arguments,
    )
}

/// Statements whose quadrant branches the counted copy simulates, with their counter slots
/// (their misses) from `base` on, one each.
pub fn quadrant_slots(prog: &Program, base: usize) -> Vec<(usize, usize)> {
    crate::scans::watched_slots(prog, base, |s| quadrant_watch(prog, s).is_some())
}

/// The statements feeding the quadrant branches of the references with arguments `args`
/// to `predictor`, which adds its misses to `miss`; `j` numbers the statement among the
/// watched ones, so each branch has an entry of its own in the predictor's base table.
pub fn feeds(args: &[&str], predictor: &str, quadrant: &str, miss: &str, j: usize) -> Vec<String> {
    let bits = model::rules::QUADRANT_BRANCHES as usize;
    args.iter()
        .enumerate()
        .flat_map(|(r, x)| {
            (0..bits).map(move |k| {
                // Offsets past the IFs' and the multiway statements' (see `instrument`).
                let id =
                    (((16 * j + r) * bits + k) * 5003 + 3) % (1 << crate::instrument::HISTORY_BITS);
                format!("CALL {predictor}({id}, {quadrant}(DBLE({x}), {k}), {miss}, 0)")
            })
        })
        .collect()
}

/// Rule 24c: the statements feeding the range branches of the references with arguments
/// `args` to `predictor` ahead of their quadrants' (see [`feeds`]), by the counted copy's
/// function `range` (see [`range_function`]): the first always, the second only when the
/// first was taken, as the library runs them.
pub fn range_feeds(
    args: &[&str],
    predictor: &str,
    range: &str,
    miss: &str,
    j: usize,
) -> Vec<String> {
    args.iter()
        .enumerate()
        .flat_map(|(r, x)| {
            let id = |b: usize| {
                (((16 * j + r) * 2 + b) * 5003 + 7) % (1 << crate::instrument::HISTORY_BITS)
            };
            let outcome = |b: usize| format!("{range}(DBLE({x}), KIND({x}), {b})");
            [
                format!("CALL {predictor}({}, {}, {miss}, 0)", id(0), outcome(0)),
                format!(
                    "IF ({} .EQ. 1) CALL {predictor}({}, {}, {miss}, 0)",
                    outcome(0),
                    id(1),
                    outcome(1)
                ),
            ]
        })
        .collect()
}

/// The statements adding to `counter` the reduced arguments (rule 24b) of the references with
/// arguments `args`, by the counted copy's function `reduced` (see [`reduction_function`]).
pub fn reductions(args: &[&str], reduced: &str, counter: &str) -> Vec<String> {
    args.iter()
        .map(|x| format!("{counter}={counter}+{reduced}(DBLE({x}),KIND({x}))"))
        .collect()
}

/// The counted copy's function giving 1 when a sine or cosine of `X`, of kind `K`, reduces
/// its argument (rule 24b: double precision, `model::rules::is_reduced_sine_argument`), else
/// 0.
pub fn reduction_function(name: &str) -> Vec<String> {
    crate::scans::integer8_function(
        name,
        "X, K",
        &[
            "DOUBLE PRECISION X".into(),
            "INTEGER K".into(),
            format!("{name} = 0"),
            format!(
                "IF (K .EQ. 8 .AND. ABS(X) .GE. {:?}D0) {name} = 1",
                model::rules::SINE_REDUCED_FROM
            ),
        ],
    )
}

/// The counted copy's function giving the outcome (1 taken) of range branch `B` (0 or 1) of a
/// sine or cosine of `X`, of kind `K` (rule 24c: `model::rules::sine_range_outcomes`).
pub fn range_function(name: &str) -> Vec<String> {
    let [d0, d1] = model::rules::SINE_RANGES_DOUBLE;
    let [s0, s1] = model::rules::SINE_RANGES_SINGLE;
    crate::scans::integer8_function(
        name,
        "X, K, B",
        &[
            "DOUBLE PRECISION X, T".into(),
            "INTEGER K, B".into(),
            "IF (K .EQ. 8) THEN".into(),
            format!("   T = {d0:?}D0"),
            format!("   IF (B .EQ. 1) T = {d1:?}D0"),
            "ELSE".into(),
            format!("   T = {s0:?}D0"),
            format!("   IF (B .EQ. 1) T = {s1:?}D0"),
            "END IF".into(),
            format!("{name} = 0"),
            format!("IF (ABS(X) .GE. T) {name} = 1"),
        ],
    )
}

/// The counted copy's function giving bit `K` of the quadrant of `X`: `NINT(X / (pi/2))`
/// mod 4, as `model::rules::quadrant`.
pub fn quadrant_function(name: &str) -> Vec<String> {
    crate::scans::integer8_function(
        name,
        "X, K",
        &[
            "DOUBLE PRECISION X".into(),
            "INTEGER K".into(),
            "DOUBLE PRECISION Q".into(),
            "Q = MODULO(ANINT(X / 1.5707963267948966D0), 4.0D0)".into(),
            format!("{name} = IBITS(INT(Q, 8), K, 1)"),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sines_and_cosines_are_found_but_not_longer_names() {
        let text = "Y=SIN(X)+DCOS(A(I,J))+ASIN(Z)+SINH(W)+COST(3)";
        assert_eq!(arguments(text), Some(vec!["X", "A(I,J)"]));
        assert_eq!(arguments("Y=SIN(X,Z)"), None);
        let f = feeds(&["X"], "OPCBP", "OPCQD", "OPCNT(9)", 0);
        assert_eq!(f.len(), 2);
        assert!(
            f[0].ends_with("OPCQD(DBLE(X), 0), OPCNT(9), 0)"),
            "{}",
            f[0]
        );
        assert!(f[1].contains("OPCQD(DBLE(X), 1)"));
        assert_eq!(
            reductions(&["A(I,J)"], "OPCRD", "OPCNT(4)"),
            vec!["OPCNT(4)=OPCNT(4)+OPCRD(DBLE(A(I,J)),KIND(A(I,J)))".to_string()]
        );
        assert!(reduction_function("OPCRD")
            .iter()
            .any(|l| l.contains("ABS(X) .GE. 2.426265D0")));
    }
}

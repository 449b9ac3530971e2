//! Rule 24 through a real run: the counted copy feeds the quadrant branches of SIN and COS
//! to the simulated predictor, which learns smoothly stepping arguments and misses scattered
//! ones; references it cannot watch cost no misses. Rule 24b through the same run: the
//! double arguments the library reduces (from 2.426265 in magnitude) are counted, one SRDD
//! each.

use model::{OpCounts, Param};

mod common;

fn counts<'a>(a: &'a analyzer::Analysis, unit: &str) -> &'a OpCounts {
    common::unit_counts(a, unit)
}

fn sines(c: &OpCounts) -> u64 {
    c.get(Param::SINS) + c.get(Param::SIND)
}

#[test]
fn scattered_arguments_miss_their_quadrants_and_smooth_ones_do_not() {
    let a = common::analyze_fixture("quadrants.f", true);
    let smooth = counts(&a, "SMOOTH");
    assert_eq!(sines(smooth), 4000);
    // Three changes of quadrant and two of range (rule 24c), each a few misses while the
    // predictor relearns.
    assert!(smooth.get(Param::BMSN) <= 60, "smooth: {smooth:?}");
    // Rule 24b: the double arguments 0.001 I reduce from I = 2427 on.
    assert_eq!(smooth.get(Param::SRDD), 4000 - 2426);
    // Random quadrants: each of the two bits is a coin toss, about one miss a call, and the
    // range branches (rule 24c) add about a third of one.
    for (unit, calls) in [("SCATTR", 4000), ("LCONS", 2000)] {
        let c = counts(&a, unit);
        assert_eq!(sines(c), calls, "{unit}");
        let misses = c.get(Param::BMSN);
        assert!(
            misses as f64 > 0.8 * calls as f64 && misses as f64 <= 1.8 * calls as f64,
            "{unit}: {misses} misses in {calls} calls"
        );
    }
    // REAL sines never count; LCONS's double arguments over [0, 6.2831) reduce beyond 2.43,
    // about 61 % of them.
    assert_eq!(counts(&a, "SCATTR").get(Param::SRDD), 0);
    let reduced = counts(&a, "LCONS").get(Param::SRDD);
    assert!((1000..=1450).contains(&reduced), "LCONS: {reduced} reduced");
    let func = counts(&a, "FUNC");
    assert_eq!(sines(func), 4000);
    assert_eq!(
        func.get(Param::BMSN),
        0,
        "a program's function in the argument"
    );
}

#[test]
fn arguments_on_either_side_of_a_range_bound_miss_its_branch() {
    // Rule 24c: one quadrant throughout, the first range branch a coin toss in both kinds;
    // the cosine's outcome repeats the sine's just before it in the history, which the
    // predictor learns: about one miss in two pairs.
    let a = common::analyze_fixture("quadrants.f", true);
    let c = counts(&a, "RANGES");
    assert_eq!(sines(c), 4000);
    let misses = c.get(Param::BMSN);
    assert!(
        (700..=1400).contains(&misses),
        "{misses} misses in 4000 calls"
    );
    assert_eq!(c.get(Param::SRDD), 0, "none beyond 2.43");
}

#[test]
fn without_the_simulation_no_quadrant_misses_are_counted() {
    let a = common::analyze_fixture("quadrants.f", false);
    assert_eq!(counts(&a, "SCATTR").get(Param::BMSN), 0);
    assert_eq!(sines(counts(&a, "SCATTR")), 4000);
    assert_eq!(counts(&a, "SMOOTH").get(Param::SRDD), 0);
}

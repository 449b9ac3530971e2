//! Rule 9b through a real run: the counted copy adds up the steps glibc's fmod takes for each
//! watched DOUBLE PRECISION MOD (a bit of its quotient each), and the steps beyond MODD's
//! test's ten a call cost one MQBD each; MODs it cannot watch, and REAL ones, cost none.

use model::{OpCounts, Param};

mod common;

fn counts<'a>(a: &'a analyzer::Analysis, unit: &str) -> &'a OpCounts {
    common::unit_counts(a, unit)
}

#[test]
fn fmod_steps_beyond_the_test_are_counted_by_the_run() {
    let a = common::analyze_fixture("remainders.f", true);
    // FLOOR(LOG2 I) beyond the test for I = 1..1000.
    let wide = counts(&a, "WIDE");
    assert_eq!(wide.get(Param::MODD), 1000);
    assert_eq!(wide.get(Param::MQBD), 7987);
    let narrow = counts(&a, "NARROW");
    assert_eq!(narrow.get(Param::MODD), 1000);
    assert_eq!(narrow.get(Param::MQBD), 0, "quotients below 2^10");
    // 500 consequents of 20 steps, 10 beyond each.
    let lcons = counts(&a, "LCONS");
    assert_eq!(lcons.get(Param::MODD), 500);
    assert_eq!(lcons.get(Param::MQBD), 5000);
    // Not watched: an integer MOD beside the double one; a REAL MOD.
    assert_eq!(counts(&a, "MIXED").get(Param::MODD), 1000);
    assert_eq!(counts(&a, "MIXED").get(Param::MQBD), 0);
    assert_eq!(counts(&a, "SINGLE").get(Param::MODS), 1000);
    assert_eq!(counts(&a, "SINGLE").get(Param::MQBD), 0);
}

#[test]
fn without_the_simulation_no_steps_are_counted() {
    let a = common::analyze_fixture("remainders.f", false);
    assert_eq!(counts(&a, "WIDE").get(Param::MODD), 1000);
    assert_eq!(counts(&a, "WIDE").get(Param::MQBD), 0);
}

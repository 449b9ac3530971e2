//! Rule 29 through a real run: the counted copy compares an innermost DO loop's trip count
//! with its previous entry's, and each change is one mispredicted exit (BMIS) of the unit.

mod common;

use model::Param;

#[test]
fn a_loop_whose_trip_count_changes_mispredicts_its_exit_at_each_change() {
    let a = common::analyze_fixture("trip_changes.f", true);
    let misses = |unit: &str| common::unit_counts(&a, unit).get(Param::BMIS);
    // The first entry differs from the nothing before it.
    assert_eq!(misses("CONSTL"), 1);
    assert_eq!(misses("ALTL"), 1000);
    // Eight trip counts drawn at random: about 7 in 8 entries change.
    let random = misses("RANDL");
    assert!((750..=950).contains(&random), "{random} changes");
    // A bound that calls a function is not evaluated twice, a variable step could be zero:
    // neither is counted.
    assert_eq!(misses("FUNCL"), 0);
    assert_eq!(misses("STEPL"), 0);
    // The loop's own record keeps its changes for rule 29b; an unwatched loop has none.
    let changes = |unit: &str| {
        let l = a.stats.loops.iter().find(|l| l.unit == unit).unwrap();
        l.trip_changes
    };
    assert_eq!(changes("CONSTL"), Some(1));
    assert_eq!(changes("ALTL"), Some(1000));
    assert_eq!(changes("STEPL"), None);
}

#[test]
fn without_the_simulation_no_trip_count_is_compared() {
    let a = common::analyze_fixture("trip_changes.f", false);
    assert_eq!(common::unit_counts(&a, "ALTL").get(Param::BMIS), 0);
    assert!(a.stats.loops.iter().all(|l| l.trip_changes.is_none()));
}

//! Rule 23 through a real run: the counted copy counts the character positions each INDEX
//! reference scans, in assignments, block IFs, ELSE IFs and logical IFs (condition and
//! consequent), and leaves the scans it cannot watch uncharacterized; and (rule 23b) the
//! first-character compares those references mispredict.

use model::rules::INDEX_SCAN;
use model::{OpCounts, Param};

mod common;

fn analyze(simulate_branches: bool) -> analyzer::Analysis {
    common::analyze_fixture("index_scans.f", simulate_branches)
}

fn counts<'a>(a: &'a analyzer::Analysis, unit: &str) -> &'a OpCounts {
    common::unit_counts(a, unit)
}

fn unscanned(c: &OpCounts) -> u64 {
    c.uncharacterized.get(INDEX_SCAN).copied().unwrap_or(0)
}

#[test]
fn index_scans_are_counted_where_they_can_be_watched() {
    let a = analyze(true);
    // (unit, references run, positions scanned, first-character compares mispredicted, rule
    // 23b: the fewer of those positions that start with the substring's first character and
    // those that do not): see the fixture's comments.
    for (unit, calls, positions, misses) in [
        ("ASSIGN", 10, 990, 0),
        ("LCOND", 10, 30, 10),
        ("LCONS", 5, 50, 5),
        ("BLOCK", 10, 890, 0),
        ("PARTL", 10, 990, 100),
        ("ELSEIF", 10, 20, 10),
    ] {
        let c = counts(&a, unit);
        assert_eq!(c.get(Param::INDX), calls, "{unit}: INDEX references");
        assert_eq!(c.get(Param::SCAN), positions, "{unit}: positions scanned");
        assert_eq!(c.get(Param::SCNM), misses, "{unit}: compares mispredicted");
        assert_eq!(unscanned(c), 0, "{unit}: scans left uncharacterized");
    }
    // Not watched: the backward search; its references still cost INDX and their scans are
    // reported as uncharacterized.
    for unit in ["BACK"] {
        let c = counts(&a, unit);
        assert_eq!(c.get(Param::INDX), 10, "{unit}");
        assert_eq!(c.get(Param::SCAN), 0, "{unit}");
        assert_eq!(c.get(Param::SCNM), 0, "{unit}");
        assert_eq!(unscanned(c), 10, "{unit}");
    }
    // An array named INDEX is an array.
    let c = counts(&a, "ARRAY");
    assert_eq!(c.get(Param::INDX) + c.get(Param::SCAN) + unscanned(c), 0);
    assert!(c.get(Param::ARR1) >= 10);
}

#[test]
fn without_the_simulation_the_scans_stay_uncharacterized() {
    let a = analyze(false);
    let c = counts(&a, "ASSIGN");
    assert_eq!(c.get(Param::INDX), 10);
    assert_eq!(c.get(Param::SCAN), 0);
    assert_eq!(c.get(Param::SCNM), 0);
    assert_eq!(unscanned(c), 10);
}

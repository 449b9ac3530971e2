//! Rule 13c through a real run: character work is counted by its lengths, single characters
//! as the integer operations gfortran compiles them into, strings as library calls (CHAS,
//! CHCM), and none of it is left uncharacterized.

use model::Param;

mod common;

#[test]
fn character_work_is_counted_by_its_lengths_in_a_real_run() {
    let a = common::analyze_fixture("characters.f", false);
    let c = common::unit_counts(&a, "CHARS");
    // 100 passes: two string moves and two string compares each; two more moves before.
    assert_eq!(c.get(Param::CHAS), 202, "{c:?}");
    assert_eq!(c.get(Param::CHCM), 200, "{c:?}");
    // 8000 one-character moves (a byte each) and compares (as integers), besides the
    // loops' own work.
    assert!(c.get(Param::TISL) >= 8000, "{c:?}");
    assert!(c.get(Param::CISL) >= 8000, "{c:?}");
    // LINE(I:I) and WORD(1:1): only the first has an address computed at run time.
    assert_eq!(c.get(Param::ARR1), 8000, "{c:?}");
    let left: Vec<_> = c
        .uncharacterized
        .keys()
        .filter(|k| !k.starts_with("I/O"))
        .collect();
    assert!(left.is_empty(), "uncharacterized: {left:?}");
    // The character argument of CALL SHOW is an address.
    assert!(c.get(Param::AGIS) >= 4, "{c:?}");
}

//! Rule 15 through a real run: the simulated predictor misses random outcomes, learns a
//! pattern, and learns a repeated random sequence up to the tagged table's capacity.

use model::Param;

mod common;
use common::analyze_fixture;

fn misses_in(a: &analyzer::Analysis, unit: &str) -> u64 {
    misses_of(a, unit, Param::BMIS)
}

fn misses_of(a: &analyzer::Analysis, unit: &str, miss: Param) -> u64 {
    a.stats
        .units
        .iter()
        .find(|u| u.name == unit)
        .and_then(|u| u.dynamic_counts.as_ref())
        .map(|c| c.get(miss))
        .unwrap()
}

#[test]
fn a_repeated_sequence_is_learned_up_to_the_tables_capacity() {
    let simulated = analyze_fixture("long_sequences.f", true);
    // 3000 random outcomes, 10 passes: about half of the first pass missed, few after.
    let short = misses_in(&simulated, "SHORTS");
    assert!(
        (1000..=2500).contains(&short),
        "3000 outcomes x 10: {short} misses"
    );
    // 120000 outcomes, 3 passes: more contexts than the table holds, about half missed in
    // every pass (a table of unbounded capacity would miss about 60000 in all).
    let long = misses_in(&simulated, "LONGS");
    assert!(
        (140_000..=200_000).contains(&long),
        "120000 outcomes x 3: {long} misses"
    );
}

#[test]
fn random_branches_miss_and_patterned_ones_do_not() {
    let simulated = analyze_fixture("branches.f", true);
    let bound = analyze_fixture("branches.f", false);
    // 4000 evaluations each: random signs miss about half the time, the pattern almost never.
    let misses = |unit: &str| misses_in(&simulated, unit);
    let (random, pattern) = (misses("RANDOM"), misses("PATTRN"));
    assert!(
        (1200..=2000).contains(&random),
        "random IF misses: {random}"
    );
    assert!(pattern <= 40, "alternating IF misses: {pattern}");
    // 4000 evaluations of one 100-outcome random sequence: learned after a few passes.
    let repeated = misses("RESORT");
    assert!(repeated < 600, "repeated sequence misses: {repeated}");
    // Without the simulation (block counters only) both fall back to min(taken, not taken):
    // half of the evaluations, whatever the pattern.
    let (random, pattern) = (misses_in(&bound, "RANDOM"), misses_in(&bound, "PATTRN"));
    assert!((1500..=2000).contains(&random), "bound, random: {random}");
    assert_eq!(pattern, 2000, "bound, alternating");
    // IFs on scalars: a value computed from data in the loop (a chaotic orbit, like a
    // generator's output) misses like random data; a counter's MOD pattern is learned.
    // Without the simulation both are taken to be learned.
    let chaos = misses_of(&simulated, "CHAOS", Param::BMIR);
    assert!((1200..=2200).contains(&chaos), "chaotic scalar: {chaos}");
    let counter = misses_in(&simulated, "COUNTR");
    assert!(counter <= 40, "counter pattern: {counter}");
    assert_eq!(misses_of(&bound, "CHAOS", Param::BMIR), 0);
    assert_eq!(misses_in(&bound, "COUNTR"), 0);
}

#[test]
fn arithmetic_ifs_and_computed_go_tos_are_watched_like_ifs() {
    let simulated = analyze_fixture("multiway.f", true);
    let bound = analyze_fixture("multiway.f", false);
    // 4000 evaluations each. Random signs: about half missed; an alternating sign: learned.
    let random = misses_in(&simulated, "ARAND");
    assert!(
        (1200..=2400).contains(&random),
        "random arithmetic IF: {random}"
    );
    let pattern = misses_in(&simulated, "APATT");
    assert!(pattern <= 40, "alternating arithmetic IF: {pattern}");
    // One of four random targets: about three quarters missed; a cycle of four: learned.
    let random = misses_in(&simulated, "GRAND");
    assert!(
        (2400..=3600).contains(&random),
        "random computed GO TO: {random}"
    );
    let pattern = misses_in(&simulated, "GPATT");
    assert!(pattern <= 40, "cycling computed GO TO: {pattern}");
    // A real tested value: its misses resolve on the floating-point side (BMIR).
    let real = misses_of(&simulated, "AREAL", Param::BMIR);
    assert!(
        (1200..=2400).contains(&real),
        "random real arithmetic IF: {real}"
    );
    // Its only BMIS is its DO loop's exit at the first entry (rule 29).
    assert_eq!(misses_of(&simulated, "AREAL", Param::BMIS), 1);
    // Without the simulation nothing is charged for them.
    for unit in ["ARAND", "GRAND"] {
        assert_eq!(misses_in(&bound, unit), 0, "{unit} without the simulation");
    }
}

/// Rule 15: each IF's outcome reaches the simulated predictor before the next IF's test, in
/// program order. Fed at the IF's own next test instead (as before), a scan's stop was fed
/// after the other scan's IFs, whose running at all told it, and the scans of independent
/// keys were "predicted" four times in five.
#[test]
fn interleaved_scans_of_random_keys_miss_as_random_outcomes_do() {
    let simulated = analyze_fixture("partition.f", true);
    let misses = misses_of(&simulated, "PARTS", Param::BMIR);
    // About 40 000 scan tests (each key once, ten times), stopping about half the time.
    let tests = simulated
        .stats
        .blocks
        .iter()
        .filter(|b| b.unit == "PARTS" && (b.first_line..=b.last_line).any(|l| l == 34 || l == 36))
        .filter_map(|b| b.executions)
        .sum::<u64>();
    assert!((36_000..=44_000).contains(&tests), "{tests} scan tests");
    assert!(
        misses * 10 >= tests * 3 && misses * 10 <= tests * 6,
        "{misses} misses of {tests} scan tests"
    );
}

/// Rule 15: each branch keeps a counter of its own, as the hardware's base predictor is
/// indexed by the branch's address. With the base table indexed by history alone, IFs on
/// random data filled the history with noise and the biased IFs shared their counters with
/// each other and with the random one: 24 % misses each where the rarer outcome comes 15 %.
#[test]
fn biased_random_ifs_among_random_ones_miss_about_as_often_as_their_rarer_outcome() {
    let simulated = analyze_fixture("biased_branches.f", true);
    // 2 x 20 000 evaluations: about 2950 + 3000 rarer outcomes, and a 2-bit counter misses
    // p(1-p)/(1-2p(1-p)) = 17 % of them at p = 0.15.
    let biased = misses_in(&simulated, "BIAS");
    assert!(
        (5_500..=8_000).contains(&biased),
        "biased IFs' misses: {biased} of 40 000"
    );
    let random = misses_in(&simulated, "MIXED");
    assert!(
        (9_000..=11_000).contains(&random),
        "random IF's misses: {random} of 20 000"
    );
}

/// An IF whose condition references a function runs that function's IFs between the call
/// that leaves it pending and its own test; they used to feed it "not taken" every time, so a
/// random condition never missed.
#[test]
fn an_if_on_a_functions_result_gets_its_own_outcome_after_the_functions_ifs() {
    let simulated = analyze_fixture("function_conditions.f", true);
    let misses = |unit: &str| misses_in(&simulated, unit);
    // 4000 evaluations of a random bit: about half missed.
    let random = misses("RANDF");
    assert!(
        (1200..=2800).contains(&random),
        "random bit: {random} misses"
    );
    // A function that always gives 0: learned, as an IF on a constant outcome is.
    let constant = misses("FIXEDF");
    assert!(constant <= 40, "constant outcome: {constant} misses");
}

/// An ELSE IF's test runs only when the IFs above it failed, so the call that feeds the
/// predictor goes after an ELSE that the counted copy splits off it; before, ELSE IFs were not
/// watched, and one on a scalar (a generator's bit) was taken to be learned.
#[test]
fn else_ifs_are_watched_like_ifs() {
    let simulated = analyze_fixture("else_ifs.f", true);
    let misses = |unit: &str| misses_in(&simulated, unit);
    // 4000 evaluations of a random bit behind a function, in an ELSE IF: about half missed.
    let random = misses("ELSER");
    assert!(
        (1200..=2800).contains(&random),
        "random ELSE IF: {random} misses"
    );
    // A MOD pattern in an ELSE IF: learned.
    let pattern = misses("ELSEP");
    assert!(pattern <= 40, "patterned ELSE IF: {pattern} misses");
    // A chain of ELSE IFs on random data in 0..3, one block jumping to the labeled END IF
    // (which the split moves to the outermost END IF): about 2000 + 1000 + 1000 misses,
    // and the counted copy runs every block as often as the original does.
    let chain = misses("ELSEA");
    assert!(
        (3000..=5000).contains(&chain),
        "chain of ELSE IFs: {chain} misses"
    );
    let blocks = |line: u32| {
        simulated
            .stats
            .blocks
            .iter()
            .filter(|b| b.unit == "ELSEA" && (b.first_line..=b.last_line).contains(&line))
            .filter_map(|b| b.executions)
            .max()
            .unwrap()
    };
    let (high, low) = (blocks(39), blocks(44));
    assert!(
        (1700..=2300).contains(&high) && (700..=1300).contains(&low),
        "ELSE IF blocks ran {high} and {low} times"
    );
}

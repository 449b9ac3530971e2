//! Rule 15 through a real run: the simulated predictor misses random outcomes and learns a
//! pattern.

use model::Param;
use std::path::Path;

#[test]
fn random_branches_miss_and_patterned_ones_do_not() {
    let Ok(compiler) = harness::Compiler::find(None, &["-O0".to_string()]) else {
        eprintln!("skipping: gfortran is not installed");
        return;
    };
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/branches.f");
    let run = |simulate_branches: bool| {
        analyzer::analyze_dynamic(
            std::slice::from_ref(&file),
            &analyzer::AnalyzeOptions {
                simulate_branches,
                ..analyzer::AnalyzeOptions::default()
            },
            &compiler,
            &analyzer::RunSpec::default(),
        )
        .unwrap()
    };
    let (simulated, bound) = (run(true), run(false));
    let misses_in = |a: &analyzer::Analysis, unit: &str| {
        a.stats
            .units
            .iter()
            .find(|u| u.name == unit)
            .and_then(|u| u.dynamic_counts.as_ref())
            .map(|c| c.get(Param::BMIS))
            .unwrap()
    };
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
}

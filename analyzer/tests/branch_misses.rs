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
    let a = analyzer::analyze_dynamic(
        &[file],
        &analyzer::AnalyzeOptions::default(),
        &compiler,
        &analyzer::RunSpec::default(),
    )
    .unwrap();
    let misses = |unit: &str| {
        a.stats
            .units
            .iter()
            .find(|u| u.name == unit)
            .and_then(|u| u.dynamic_counts.as_ref())
            .map(|c| c.get(Param::BMIS))
            .unwrap()
    };
    // 4000 evaluations each: random signs miss about half the time, the pattern almost never.
    let (random, pattern) = (misses("RANDOM"), misses("PATTRN"));
    assert!(
        (1200..=2000).contains(&random),
        "random IF misses: {random}"
    );
    assert!(pattern <= 40, "alternating IF misses: {pattern}");
}

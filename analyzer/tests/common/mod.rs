//! Helpers shared by the analyzer's integration tests.

use std::path::Path;

/// Analyze fixture `name` (in `tests/fixtures`) dynamically with gfortran -O0, with or without
/// the simulated branch predictor of rule 15.
pub fn analyze_fixture(name: &str, simulate_branches: bool) -> analyzer::Analysis {
    let compiler = harness::Compiler::find(None, &["-O0".to_string()])
        .expect("gfortran is needed (scripts/install-deps.sh installs it)");
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
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
}

/// The dynamic counts of program unit `unit` in `a`.
#[allow(dead_code)] // not every test file that includes this module uses it
pub fn unit_counts<'a>(a: &'a analyzer::Analysis, unit: &str) -> &'a model::OpCounts {
    a.stats
        .units
        .iter()
        .find(|u| u.name == unit)
        .and_then(|u| u.dynamic_counts.as_ref())
        .unwrap_or_else(|| panic!("no dynamic counts for {unit}"))
}

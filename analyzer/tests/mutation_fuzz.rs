//! Whole-file mutation fuzzing (analyzer::mutate): every `.f` file of the corpus, the samples
//! and the fixtures, with 1-4 line-level mutations each, through split, analyze, the static
//! statistics and report, and the instrumentation. No panic, no hang (5 s per input). 300
//! inputs, 60 in quick mode (`OPCOST_QUICK=1`); `OPCOST_FUZZ_INPUTS` and `OPCOST_FUZZ_SEED`
//! override the count and the seed. A long run: `scripts/bench-fuzz.sh`.

use analyzer::mutate::{fuzz_files, Pool, POOL_DIRS};
use std::time::Duration;

fn quick() -> bool {
    std::env::var("OPCOST_QUICK").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[test]
fn mutated_files_neither_panic_nor_hang() {
    let pool = Pool::repository().expect("the pool's files are readable");
    // Every pool directory holds files: a moved directory must not shrink the pool silently.
    for d in POOL_DIRS {
        assert!(
            pool.files.iter().any(|(p, _)| p.starts_with(d)),
            "no .f file under {d}"
        );
    }
    let n = env_u64("OPCOST_FUZZ_INPUTS").unwrap_or(if quick() { 60 } else { 300 });
    let seed = env_u64("OPCOST_FUZZ_SEED").unwrap_or(25);
    let r = fuzz_files(&pool, n, seed, Duration::from_secs(5));
    eprintln!("{}", r.summary());
    assert!(
        r.ok(),
        "{}\n(rebuild an input with Pool::repository()?.mutant(seed, index))",
        r.details()
    );
    assert_eq!(r.ran, n);
    assert_eq!(r.errors_reported + r.clean, n);
}

//! Benchmark command of the whole-file mutation fuzzer (analyzer::mutate; run by
//! scripts/bench-fuzz.sh, release build):
//!
//!     cargo run --release -p analyzer --example mutation-fuzz -- --inputs 20000 --seed 1
//!
//! Prints `ran N inputs: P panics, H hangs, M with reported errors`, one line per failing
//! input (seed and index rebuild it), and exits 1 on any panic or hang. `--limit S`: seconds
//! per input before it counts as a hang (default 5). `--show INDEX`: print that input of the
//! seed instead (to reproduce a failure).

use analyzer::mutate::{fuzz_files, Pool};
use std::process::ExitCode;
use std::time::{Duration, Instant};

fn usage() -> ExitCode {
    eprintln!("usage: mutation-fuzz [--inputs N] [--seed S] [--limit SECONDS] [--show INDEX]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let (mut inputs, mut seed, mut limit, mut show) = (20_000u64, 1u64, 5.0f64, None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let Some(v) = args.next() else {
            return usage();
        };
        let ok = match a.as_str() {
            "--inputs" => v.parse().map(|x| inputs = x).is_ok(),
            "--seed" => v.parse().map(|x| seed = x).is_ok(),
            "--limit" => v.parse().map(|x| limit = x).is_ok() && limit > 0.0,
            "--show" => v.parse().map(|x| show = Some(x)).is_ok(),
            _ => false,
        };
        if !ok {
            return usage();
        }
    }
    let pool = match Pool::repository() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot read the input pool: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(index) = show {
        let (f, text, line_length) = pool.mutant(seed, index);
        let from = pool.files.get(f).map_or("", |x| x.0.as_str());
        eprintln!("seed {seed} index {index}: from {from}, line length {line_length}");
        print!("{text}");
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "mutation fuzzing: {} files in the pool, seed {seed}, {inputs} inputs, {limit} s each at most",
        pool.files.len()
    );
    let t = Instant::now();
    let r = fuzz_files(&pool, inputs, seed, Duration::from_secs_f64(limit));
    let secs = t.elapsed().as_secs_f64();
    println!("{}", r.details());
    eprintln!(
        "{:.1} s, {:.0} inputs/s, {} clean",
        secs,
        r.ran as f64 / secs.max(1e-9),
        r.clean
    );
    if r.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

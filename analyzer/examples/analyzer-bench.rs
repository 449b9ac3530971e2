//! Benchmarks of the analyzer (run by scripts/bench-analyzer.sh, release build):
//! `corpus FILELIST`: parse + count throughput (lines/s) and share of statements parsed, with
//! every failure listed; `overhead FILE...`: run time of the counted copy and of a gcov
//! `--coverage` build over the original at -O0, per program.

use analyzer::{analysis, instrument, source, AnalyzeOptions, RunSpec};
use harness::Compiler;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// CPU seconds (user + system) of this process from /proc/self/stat: on a shared, busy
/// machine the wall clock measures the neighbours too.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14-15 (utime, stime) are at 11-12 after the command name.
    (ticks(11) + ticks(12)) / 100.0
}

fn corpus(list: &Path) {
    let files: Vec<PathBuf> = std::fs::read_to_string(list)
        .expect("file list")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(PathBuf::from)
        .collect();
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let b = std::fs::read(f).expect("readable file");
            (
                f.display().to_string(),
                String::from_utf8_lossy(&b).into_owned(),
            )
        })
        .collect();
    let lines: usize = texts.iter().map(|(_, t)| t.lines().count()).sum();
    // One pass for the figures, then repeat the whole corpus for at least 2 s for the rate.
    let mut statements = 0usize;
    let mut skipped = 0usize;
    let mut failures = Vec::new();
    let mut counted_ops = 0u64;
    for (path, text) in &texts {
        let src = source::split(path, 0, text, 72);
        statements += src.statements.len();
        let prog = analysis::analyze(vec![src]);
        skipped += prog.skipped;
        counted_ops += prog
            .stmts
            .iter()
            .map(|s| s.static_counts.total_characterized())
            .sum::<u64>();
        failures.extend(
            prog.diagnostics
                .iter()
                .filter(|d| d.severity == analyzer::Severity::Error)
                .cloned(),
        );
    }
    let start = Instant::now();
    let cpu0 = cpu_seconds();
    let mut passes = 0u32;
    while passes < 3 || start.elapsed() < Duration::from_secs(2) {
        for (path, text) in &texts {
            let src = source::split(path, 0, text, 72);
            let prog = analysis::analyze(vec![src]);
            std::hint::black_box(&prog);
        }
        passes += 1;
    }
    let secs = start.elapsed().as_secs_f64() / passes as f64;
    let cpu = (cpu_seconds() - cpu0) / passes as f64;
    println!(
        "{} files, {} lines, {} statements, {} characterized operations counted",
        texts.len(),
        lines,
        statements,
        counted_ops
    );
    println!(
        "throughput: {:.0} lines/s of CPU time, {:.0} lines/s of wall time ({:.1} ms CPU, {:.1} ms wall per pass over the corpus, {} passes, one thread)",
        lines as f64 / cpu,
        lines as f64 / secs,
        cpu * 1e3,
        secs * 1e3,
        passes
    );
    println!(
        "parsed: {}/{} statements = {:.3} % ({} skipped)",
        statements - skipped,
        statements,
        100.0 * (statements - skipped) as f64 / statements.max(1) as f64,
        skipped
    );
    for d in &failures {
        println!("  {d}");
    }
}

/// CPU time of one run of `exe` (user + system of the child).
fn min_cpu(exe: &Path, runs: usize) -> f64 {
    (0..runs)
        .map(|_| {
            let spec = RunSpec {
                time_limit: Duration::from_secs(600),
                ..RunSpec::default()
            };
            let out = analyzer::dynamic::run_program(
                exe,
                &spec,
                &[("OPCOST_COUNTS", Path::new("/dev/null"))],
            )
            .expect("program runs");
            assert!(out.success(), "{} failed: {}", exe.display(), out.stderr);
            // wait4's accounting of that child: microseconds, not /proc's 10 ms ticks.
            out.cpu.total_s()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The four builds compared, in `dir`: the original, the counted copy, the counted copy with
/// the simulated branch predictor, and a gcov `--coverage` build.
fn builds(f: &Path, dir: &Path, compiler: &Compiler) -> [PathBuf; 4] {
    let plain = dir.join("plain");
    compiler
        .build(&[f.to_path_buf()], &plain, &[])
        .expect("original compiles");
    let prog = analyzer::load(&[f.to_path_buf()], &AnalyzeOptions::default()).expect("parses");
    let counted_build = |simulate: bool, name: &str| {
        let inst = instrument::instrument_counters(&prog, 72, simulate, true);
        let d = dir.join(name);
        std::fs::create_dir_all(&d).unwrap();
        analyzer::dynamic::build_instrumented(&inst, &d, compiler).expect("counted copy builds")
    };
    let counted = counted_build(false, "counted");
    let branches = counted_build(true, "branches");
    let cov_dir = dir.join("cov");
    std::fs::create_dir_all(&cov_dir).unwrap();
    let copy = cov_dir.join(f.file_name().unwrap());
    std::fs::copy(f, &copy).unwrap();
    let cov = cov_dir.join("covered");
    compiler
        .build(&[copy], &cov, &["--coverage"])
        .expect("coverage build");
    [plain, counted, branches, cov]
}

/// Instructions executed by `exe` (valgrind's cachegrind, no cache simulation): the work a
/// build adds, free of the host's noise and of code-placement luck.
fn instructions_of(exe: &Path) -> u64 {
    let out = std::process::Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ])
        .arg(exe)
        .env("OPCOST_COUNTS", "/dev/null")
        .current_dir(exe.parent().unwrap())
        .output()
        .expect("valgrind runs (apt-get install valgrind)");
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .find_map(|l| {
            let (_, v) = l.split_once("I   refs:")?;
            v.trim().replace(',', "").parse().ok()
        })
        .unwrap_or_else(|| panic!("no instruction count from valgrind: {err}"))
}

/// Instructions executed by each build over the original's, on copies with the samples'
/// repeat counts lowered to their quick values (the ratios are per repetition).
fn instructions(files: &[PathBuf]) {
    let compiler = Compiler::find(None, &["-O0".to_string()]).expect("gfortran");
    println!("instructions executed (valgrind), -O0, repeat counts lowered (NREP=3, MULT=1)");
    println!(
        "{:<12} {:>14} {:>9} {:>11} {:>7}",
        "program", "plain", "counted x", "+branches x", "gcov x"
    );
    for f in files {
        let dir = tempfile::tempdir().expect("temp dir");
        let text = std::fs::read_to_string(f).expect("readable sample");
        let lowered = dir.path().join(f.file_name().unwrap());
        std::fs::write(
            &lowered,
            analyzer::source::set_parameters(&text, &analyzer::source::QUICK_REPEATS),
        )
        .unwrap();
        let exes = builds(&lowered, dir.path(), &compiler);
        let n: Vec<u64> = exes.iter().map(|e| instructions_of(e)).collect();
        let x = |k: usize| n[k] as f64 / n[0] as f64;
        println!(
            "{:<12} {:>14} {:>9.3} {:>11.3} {:>7.3}",
            f.file_stem().unwrap().to_string_lossy(),
            n[0],
            x(1),
            x(2),
            x(3)
        );
    }
}

fn overhead(files: &[PathBuf]) {
    let compiler = Compiler::find(None, &["-O0".to_string()]).expect("gfortran");
    let runs: usize = std::env::var("OPCOST_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    println!("CPU seconds (user + system), -O0: the fastest of {runs} rounds, and the median");
    println!("over rounds of each build's time over the original's in the same round (a round");
    println!("runs the four builds back to back, so a slow phase of the host cancels out)");
    println!("counted: block counters (analyze --dynamic); +branches: with the simulated");
    println!("branch predictor of rule 15 (analyze --dynamic --branches, predict, validate)");
    println!(
        "{:<12} {:>8} {:>8} {:>10} {:>8} {:>9} {:>11} {:>7}",
        "program",
        "plain s",
        "counted",
        "+branches",
        "gcov s",
        "counted x",
        "+branches x",
        "gcov x"
    );
    for f in files {
        let dir = tempfile::tempdir().expect("temp dir");
        let exes = builds(f, dir.path(), &compiler);
        let rounds: Vec<[f64; 4]> = (0..runs)
            .map(|_| std::array::from_fn(|k| min_cpu(&exes[k], 1)))
            .collect();
        let fastest = |k: usize| rounds.iter().map(|r| r[k]).fold(f64::INFINITY, f64::min);
        let ratio = |k: usize| {
            model::stats::median(&rounds.iter().map(|r| r[k] / r[0]).collect::<Vec<_>>())
        };
        println!(
            "{:<12} {:>8.3} {:>8.3} {:>10.3} {:>8.3} {:>9.3} {:>11.3} {:>7.3}",
            f.file_stem().unwrap().to_string_lossy(),
            fastest(0),
            fastest(1),
            fastest(2),
            fastest(3),
            ratio(1),
            ratio(2),
            ratio(3)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("corpus") if args.len() == 2 => corpus(Path::new(&args[1])),
        Some("instrument") if args.len() == 2 => {
            // Print the counted copy (for inspection).
            let prog = analyzer::load(&[PathBuf::from(&args[1])], &AnalyzeOptions::default())
                .expect("parses");
            let inst = instrument::instrument_counters(&prog, 72, true, true);
            for (_, text) in inst.files {
                print!("{text}");
            }
            eprintln!(
                "{} counters, {} counted by trip count",
                inst.counters,
                prog.trip_counts.len()
            );
        }
        Some("overhead") => overhead(&args[1..].iter().map(PathBuf::from).collect::<Vec<_>>()),
        Some("instructions") => {
            instructions(&args[1..].iter().map(PathBuf::from).collect::<Vec<_>>())
        }
        _ => {
            eprintln!(
                "usage: analyzer-bench corpus FILELIST | overhead FILE... | instructions FILE... \
                 | instrument FILE"
            );
            std::process::exit(2);
        }
    }
}

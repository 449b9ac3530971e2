//! Benchmarks of the analyzer (run by scripts/bench-analyzer.sh, release build):
//! `corpus FILELIST`: parse + count throughput (lines/s) and share of statements parsed, with
//! every failure listed; `overhead FILE...`: run time of the counted copy and of a gcov
//! `--coverage` build over the original at -O0, per program.

use analyzer::{analysis, instrument, source, AnalyzeOptions, RunSpec};
use harness::Compiler;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// CPU seconds (user + system) from /proc/self/stat, of this process or of its waited-for
/// children: on a shared, busy machine the wall clock measures the neighbours too.
fn proc_cpu(children: bool) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14-17 (utime, stime, cutime, cstime) are at 11-14 after the command name.
    let k = if children { 13 } else { 11 };
    (ticks(k) + ticks(k + 1)) / 100.0
}

fn cpu_seconds() -> f64 {
    proc_cpu(false)
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
            let before = proc_cpu(true);
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
            proc_cpu(true) - before
        })
        .fold(f64::INFINITY, f64::min)
}

fn overhead(files: &[PathBuf]) {
    let compiler = Compiler::find(None, &["-O0".to_string()]).expect("gfortran");
    let runs: usize = std::env::var("OPCOST_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    println!("CPU seconds (user + system) of the fastest of {runs} runs, -O0");
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
        let plain = dir.path().join("plain");
        compiler
            .build(std::slice::from_ref(f), &plain, &[])
            .expect("original compiles");
        let prog =
            analyzer::load(std::slice::from_ref(f), &AnalyzeOptions::default()).expect("parses");
        let counted_build = |simulate: bool, name: &str| {
            let inst = instrument::instrument_counters(&prog, 72, simulate);
            let d = dir.path().join(name);
            std::fs::create_dir_all(&d).unwrap();
            analyzer::dynamic::build_instrumented(&inst, &d, &compiler)
                .expect("counted copy builds")
        };
        let counted = counted_build(false, "counted");
        let branches = counted_build(true, "branches");
        let cov_dir = dir.path().join("cov");
        std::fs::create_dir_all(&cov_dir).unwrap();
        let copy = cov_dir.join(f.file_name().unwrap());
        std::fs::copy(f, &copy).unwrap();
        let cov = cov_dir.join("covered");
        compiler
            .build(&[copy], &cov, &["--coverage"])
            .expect("coverage build");
        // Interleave to share the machine's noise fairly.
        let mut t = [f64::INFINITY; 4];
        for _ in 0..runs {
            for (k, exe) in [&plain, &counted, &branches, &cov].into_iter().enumerate() {
                t[k] = t[k].min(min_cpu(exe, 1));
            }
        }
        println!(
            "{:<12} {:>8.2} {:>8.2} {:>10.2} {:>8.2} {:>9.3} {:>11.3} {:>7.3}",
            f.file_stem().unwrap().to_string_lossy(),
            t[0],
            t[1],
            t[2],
            t[3],
            t[1] / t[0],
            t[2] / t[0],
            t[3] / t[0]
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
            let inst = instrument::instrument_counters(&prog, 72, true);
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
        _ => {
            eprintln!("usage: analyzer-bench corpus FILELIST | overhead FILE... | instrument FILE");
            std::process::exit(2);
        }
    }
}

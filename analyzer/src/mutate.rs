//! Whole-file mutation fuzzing of the analyzer (issue 25), on stable Rust and without a
//! dependency: take a real Fortran 77 file of the repository (the corpus, the samples, the
//! test fixtures), apply 1-4 random *line-level* mutations to it (delete, duplicate, insert a
//! line of another file, truncate a line, swap two lines, truncate the file), and run the
//! analyzer's pure steps on the result: [`source::split`], [`analysis::analyze`], the static
//! [`stats::program_stats`] and its text report, and [`instrument::instrument_counters`] (the
//! counted copy's text; nothing is compiled). The property: no panic, no hang, and every
//! skipped statement reported by a located error.
//!
//! Every input is reproducible from the run's seed and its index ([`case_seed`]):
//! [`Pool::mutant`] rebuilds it. [`fuzz_files`] runs each input in a worker thread with an
//! 8 MiB stack under [`std::panic::catch_unwind`] and a time limit; a panic is recorded and the
//! run goes on, a hang is recorded and ends the run (its thread is left behind).
//!
//! Used by `analyzer/tests/mutation_fuzz.rs` (a few hundred inputs) and the benchmark command
//! `analyzer/examples/mutation-fuzz.rs` (`scripts/bench-fuzz.sh`, as many as you like).

use crate::{analysis, instrument, report, source, stats, AnalyzeOptions, Severity};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// The directories, relative to the workspace root, whose `.f` files make the input pool.
pub const POOL_DIRS: &[&str] = &[
    "corpus/tune",
    "corpus/check",
    "fortran-samples",
    "analyzer/tests/fixtures",
];

/// Stack size of the worker thread that analyzes one input.
pub const WORKER_STACK: usize = 8 << 20;

/// A small deterministic PRNG (SplitMix64, Steele, Lea and Flood 2014): fast, every seed
/// usable (0 included), the same sequence on every platform.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0); the modulo bias is negligible for our `n`.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// The seed of input `index` of a run started with `seed`: inputs are independent, so any one
/// of them is rebuilt without the ones before it.
pub fn case_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64()
}

/// One line-level mutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// Remove a line.
    Delete,
    /// Repeat a line right after itself.
    Duplicate,
    /// Insert a line of another file of the pool at a random place.
    Insert,
    /// Cut a line at a random character boundary.
    TruncateLine,
    /// Exchange two lines.
    Swap,
    /// Keep the file's first lines only, up to a random one.
    TruncateFile,
}

impl Mutation {
    pub const ALL: [Mutation; 6] = [
        Mutation::Delete,
        Mutation::Duplicate,
        Mutation::Insert,
        Mutation::TruncateLine,
        Mutation::Swap,
        Mutation::TruncateFile,
    ];
}

/// The input pool: path (relative to the workspace root) and text of each file.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    pub files: Vec<(String, String)>,
}

/// The workspace root, from this crate's `CARGO_MANIFEST_DIR` (known at build time: the pool
/// is the repository's own files).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the analyzer crate sits in the workspace")
        .to_path_buf()
}

fn find_f_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            find_f_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "f") {
            out.push(p);
        }
    }
}

impl Pool {
    /// Every `.f` file under [`POOL_DIRS`] of `root`, sorted by path (the same pool, so the
    /// same inputs, for the same seed on every machine). Files are read lossily (UTF-8).
    pub fn load(root: &Path) -> std::io::Result<Pool> {
        let mut paths = Vec::new();
        for d in POOL_DIRS {
            find_f_files(&root.join(d), &mut paths);
        }
        paths.sort();
        let mut files = Vec::new();
        for p in paths {
            let bytes = std::fs::read(&p)?;
            let rel = p.strip_prefix(root).unwrap_or(&p).display().to_string();
            files.push((rel, String::from_utf8_lossy(&bytes).into_owned()));
        }
        Ok(Pool { files })
    }

    /// The pool of this repository ([`workspace_root`]).
    pub fn repository() -> std::io::Result<Pool> {
        Pool::load(&workspace_root())
    }

    /// A line of a file of the pool other than `not` (when there is another).
    fn donor_line(&self, not: Option<usize>, rng: &mut Rng) -> String {
        if self.files.is_empty() {
            return String::new();
        }
        let mut f = rng.below(self.files.len());
        if Some(f) == not && self.files.len() > 1 {
            f = (f + 1 + rng.below(self.files.len() - 1)) % self.files.len();
        }
        let lines: Vec<&str> = self.files[f].1.lines().collect();
        lines
            .get(rng.below(lines.len()))
            .map_or_else(String::new, |l| l.to_string())
    }

    /// Input `index` of a run with `seed`: (the pool file it comes from, its text, the
    /// fixed-form line length it is read with: 72, or 132 one time in eight).
    pub fn mutant(&self, seed: u64, index: u64) -> (usize, String, usize) {
        let mut rng = Rng::new(case_seed(seed, index));
        let f = rng.below(self.files.len());
        let text = match self.files.get(f) {
            Some((_, t)) => mutate_from(t, self, Some(f), &mut rng),
            None => String::new(),
        };
        let line_length = if rng.below(8) == 0 { 132 } else { 72 };
        (f, text, line_length)
    }
}

/// Apply 1-4 random line-level mutations ([`Mutation`]) to `text`; inserted lines come from
/// the files of `pool`. The result ends with a newline when it has any line.
pub fn mutate(text: &str, pool: &Pool, rng: &mut Rng) -> String {
    mutate_from(text, pool, None, rng)
}

fn mutate_from(text: &str, pool: &Pool, from: Option<usize>, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        let m = Mutation::ALL[rng.below(Mutation::ALL.len())];
        apply(&mut lines, m, pool, from, rng);
    }
    let mut out = lines.join("\n");
    if !lines.is_empty() {
        out.push('\n');
    }
    out
}

/// Apply one mutation to `lines` (an empty file can only receive an inserted line).
pub fn apply(
    lines: &mut Vec<String>,
    m: Mutation,
    pool: &Pool,
    from: Option<usize>,
    rng: &mut Rng,
) {
    let n = lines.len();
    if n == 0 && m != Mutation::Insert {
        return;
    }
    match m {
        Mutation::Delete => {
            lines.remove(rng.below(n));
        }
        Mutation::Duplicate => {
            let i = rng.below(n);
            let l = lines[i].clone();
            lines.insert(i + 1, l);
        }
        Mutation::Insert => {
            let l = pool.donor_line(from, rng);
            lines.insert(rng.below(n + 1), l);
        }
        Mutation::TruncateLine => {
            let i = rng.below(n);
            let chars = lines[i].chars().count();
            let keep = rng.below(chars + 1);
            let cut = lines[i]
                .char_indices()
                .nth(keep)
                .map_or(lines[i].len(), |c| c.0);
            lines[i].truncate(cut);
        }
        Mutation::Swap => {
            let (i, j) = (rng.below(n), rng.below(n));
            lines.swap(i, j);
        }
        Mutation::TruncateFile => lines.truncate(rng.below(n + 1)),
    }
}

/// What the analysis of one input found (when it did not panic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Error diagnostics (each a skipped statement, or a file-level problem).
    pub errors: usize,
    /// The text would be refused as free-form source by `analyze`.
    pub free_form: bool,
}

/// Run the analyzer's pure steps on one text, as `analyze` and the instrumentation do, and
/// check that every skipped statement has a located error; panics on a broken invariant.
pub fn analyze_text(text: &str, line_length: usize) -> Outcome {
    let free_form = source::free_form_line(text).is_some();
    let src = source::split("mutant.f", 0, text, line_length);
    let prog = analysis::analyze(vec![src]);
    let errors: Vec<_> = prog
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(
        errors.len(),
        prog.skipped,
        "each skipped statement is reported"
    );
    for d in &errors {
        assert!(
            d.line >= 1 && d.column >= 1,
            "an error without location: {d}"
        );
    }
    let opts = AnalyzeOptions {
        line_length,
        program_name: Some("mutant".into()),
        ..AnalyzeOptions::default()
    };
    let st = stats::program_stats(&prog, &[], &opts, None).expect("no file is read");
    let _ = report::text_report(&st);
    let inst = instrument::instrument_counters(&prog, line_length, true, true);
    assert_eq!(inst.files.len(), 1, "one counted file per source file");
    Outcome {
        errors: errors.len(),
        free_form,
    }
}

/// One failing input: rebuilt by `Pool::mutant(seed, index)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub seed: u64,
    pub index: u64,
    /// The pool file it was made from.
    pub file: String,
    /// The panic's message (empty for a hang).
    pub message: String,
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "seed {} index {} (from {})",
            self.seed, self.index, self.file
        )?;
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        Ok(())
    }
}

/// The result of a run of [`fuzz_files`].
#[derive(Debug, Clone, Default)]
pub struct FuzzReport {
    /// Inputs analyzed (a hang ends the run: it counts, the ones after it do not run).
    pub ran: u64,
    pub panics: Vec<Case>,
    pub hangs: Vec<Case>,
    /// Inputs with at least one error diagnostic (or refused as free-form).
    pub errors_reported: u64,
    /// Inputs analyzed without any error.
    pub clean: u64,
}

impl FuzzReport {
    pub fn ok(&self) -> bool {
        self.panics.is_empty() && self.hangs.is_empty()
    }

    /// `ran N inputs: P panics, H hangs, M with reported errors`.
    pub fn summary(&self) -> String {
        format!(
            "ran {} inputs: {} panics, {} hangs, {} with reported errors",
            self.ran,
            self.panics.len(),
            self.hangs.len(),
            self.errors_reported
        )
    }

    /// The summary, then one line per failing input.
    pub fn details(&self) -> String {
        let mut s = self.summary();
        for c in &self.panics {
            s += &format!("\n  panic: {c}");
        }
        for c in &self.hangs {
            s += &format!("\n  hang: {c}");
        }
        s
    }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".into()
    }
}

/// Analyze `n` mutants of the pool (inputs `0..n` of `seed`), each in its own worker thread
/// ([`WORKER_STACK`]) under `catch_unwind`, waiting at most `per_input_limit` for it. The
/// panic hook is left as it is: a panic also prints its message and location on stderr.
pub fn fuzz_files(pool: &Pool, n: u64, seed: u64, per_input_limit: Duration) -> FuzzReport {
    fuzz_with(pool, n, seed, per_input_limit, analyze_text)
}

/// [`fuzz_files`] with another analysis of each input (for the tests of the runner itself).
fn fuzz_with(
    pool: &Pool,
    n: u64,
    seed: u64,
    per_input_limit: Duration,
    analyze: fn(&str, usize) -> Outcome,
) -> FuzzReport {
    let pool = Arc::new(pool.clone());
    let mut r = FuzzReport::default();
    for index in 0..n {
        let (tx, rx) = mpsc::channel();
        let worker_pool = Arc::clone(&pool);
        let spawned = std::thread::Builder::new()
            .name(format!("mutation-fuzz-{index}"))
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let result = std::panic::catch_unwind(|| {
                    let (_, text, line_length) = worker_pool.mutant(seed, index);
                    analyze(&text, line_length)
                });
                let _ = tx.send(result.map_err(|p| panic_message(p.as_ref())));
            });
        let file = |pool: &Pool| {
            let (f, _, _) = pool.mutant(seed, index);
            pool.files.get(f).map_or_else(String::new, |x| x.0.clone())
        };
        let handle = spawned.expect("spawn a worker thread");
        r.ran += 1;
        match rx.recv_timeout(per_input_limit) {
            Ok(Ok(o)) => {
                let _ = handle.join();
                if o.errors > 0 || o.free_form {
                    r.errors_reported += 1;
                } else {
                    r.clean += 1;
                }
            }
            Ok(Err(message)) => {
                let _ = handle.join();
                r.panics.push(Case {
                    seed,
                    index,
                    file: file(&pool),
                    message,
                });
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => r.panics.push(Case {
                seed,
                index,
                file: file(&pool),
                message: "the worker ended without an answer".into(),
            }),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                r.hangs.push(Case {
                    seed,
                    index,
                    file: file(&pool),
                    message: String::new(),
                });
                break;
            }
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> Pool {
        Pool {
            files: vec![
                ("a.f".into(), "      X = 1\n      END\n".into()),
                ("b.f".into(), "      Y = 2\n".into()),
            ],
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_mutant() {
        let p = pool();
        for i in 0..50 {
            assert_eq!(p.mutant(7, i), p.mutant(7, i));
        }
        assert_ne!(case_seed(7, 0), case_seed(7, 1));
        assert_ne!(case_seed(7, 0), case_seed(8, 0));
    }

    #[test]
    fn each_mutation_does_what_it_says() {
        let p = pool();
        let base: Vec<String> = ["a", "bé", "c"].iter().map(|s| s.to_string()).collect();
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let mut l = base.clone();
            apply(&mut l, Mutation::Delete, &p, Some(0), &mut rng);
            assert_eq!(l.len(), 2);
            let mut l = base.clone();
            apply(&mut l, Mutation::Duplicate, &p, Some(0), &mut rng);
            assert_eq!(l.len(), 4);
            assert!(l.windows(2).any(|w| w[0] == w[1]));
            let mut l = base.clone();
            apply(&mut l, Mutation::Insert, &p, Some(0), &mut rng);
            assert!(l.contains(&"      Y = 2".to_string()), "{l:?}");
            let mut l = base.clone();
            apply(&mut l, Mutation::TruncateLine, &p, Some(0), &mut rng);
            assert!(l.iter().zip(&base).all(|(a, b)| b.starts_with(a.as_str())));
            let mut l = base.clone();
            apply(&mut l, Mutation::Swap, &p, Some(0), &mut rng);
            let (mut a, mut b) = (l.clone(), base.clone());
            a.sort();
            b.sort();
            assert_eq!(a, b);
            let mut l = base.clone();
            apply(&mut l, Mutation::TruncateFile, &p, Some(0), &mut rng);
            assert!(base.starts_with(&l));
        }
        let mut empty = Vec::new();
        apply(&mut empty, Mutation::Swap, &p, None, &mut rng);
        assert!(empty.is_empty());
    }

    #[test]
    fn an_empty_pool_gives_empty_inputs_analyzed_cleanly() {
        let r = fuzz_files(&Pool::default(), 3, 1, Duration::from_secs(5));
        assert_eq!((r.ran, r.clean), (3, 3));
        assert!(r.ok(), "{}", r.details());
    }

    fn panics_on_y(text: &str, _: usize) -> Outcome {
        assert!(!text.contains('Y'), "found a Y");
        Outcome {
            errors: 0,
            free_form: false,
        }
    }

    #[test]
    fn a_panic_is_caught_with_its_case_and_the_run_goes_on() {
        let r = fuzz_with(&pool(), 40, 5, Duration::from_secs(5), panics_on_y);
        assert_eq!(r.ran, 40);
        assert!(!r.panics.is_empty() && r.clean > 0, "{}", r.details());
        assert_eq!(r.panics.len() as u64 + r.clean, 40);
        for c in &r.panics {
            assert_eq!(c.seed, 5);
            assert!(c.message.contains("found a Y"), "{c}");
            assert!(pool().mutant(5, c.index).1.contains('Y'), "{c}");
        }
    }

    fn hangs_on_y(text: &str, l: usize) -> Outcome {
        if text.contains('Y') {
            std::thread::sleep(Duration::from_secs(30));
        }
        panics_on_y("", l)
    }

    #[test]
    fn a_hang_is_reported_and_ends_the_run() {
        let r = fuzz_with(&pool(), 40, 5, Duration::from_millis(200), hangs_on_y);
        assert_eq!(r.hangs.len(), 1, "{}", r.details());
        let first = r.hangs[0].index;
        assert_eq!(r.ran, first + 1);
        assert!(pool().mutant(5, first).1.contains('Y'));
        assert!((0..first).all(|i| !pool().mutant(5, i).1.contains('Y')));
    }
}

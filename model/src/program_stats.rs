//! The ProgramStats file: a program decomposed into parameter counts (Saavedra-Barrera's section 5),
//! static and dynamic, per program unit and per region. Written by the analyzer, read by the
//! predictor.

use crate::counts::OpCounts;
use crate::files::Versioned;
use serde::{Deserialize, Serialize};

/// Counts of one part of a program (the whole, a program unit, or a directive region).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartStats {
    pub name: String,
    /// Occurrences in the source text.
    pub static_counts: OpCounts,
    /// Executions in one run (present after a dynamic analysis).
    pub dynamic_counts: Option<OpCounts>,
    /// The source lines a directive region covers (regions only; absent in older files), so
    /// that a line profile can time it (Saavedra-Barrera's section 6.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<LineSpan>,
}

/// Lines `first_line..=last_line` (1-based) of one source file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineSpan {
    pub file: String,
    pub first_line: u32,
    pub last_line: u32,
}

/// A program's statistics (file format `opcost-program-stats`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramStats {
    pub format: String,
    pub format_version: u32,
    pub program: String,
    pub source_files: Vec<String>,
    /// SHA-256 of the source files' contents, concatenated in order.
    pub source_sha256: String,
    pub total: PartStats,
    pub units: Vec<PartStats>,
    pub regions: Vec<PartStats>,
    /// Statements that could not be parsed and were skipped.
    pub skipped_statements: usize,
    /// Per basic block (absent in files that predate it): where the time of a program goes,
    /// line by line, for the predictor's "where is the prediction off" report.
    #[serde(default)]
    pub blocks: Vec<BlockStats>,
    /// Innermost loops with their dependence chains (rule 14; absent in older files).
    #[serde(default)]
    pub loops: Vec<LoopStats>,
    /// Compiler flags the program's own builds need beyond the system's (absent when none):
    /// those the user gave and those the analyzer added when gfortran refused the program's
    /// legacy code (`-fallow-argument-mismatch`), so every later build can reproduce them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub program_flags: Vec<String>,
    /// Whether the counting run simulated what depends on the data (the branch predictor of
    /// rule 15, INDEX scans, SIN/COS ranges, adjustable extents): without it the branch misses
    /// are guessed from each IF's kind, and a prediction can be far off wherever IFs depend on
    /// the data.
    /// Absent for a static analysis and in files that predate it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulated_branches: Option<bool>,
}

/// An innermost loop and the chains it carries from one iteration to the next (rule 14).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopStats {
    pub unit: String,
    pub file: String,
    pub first_line: u32,
    pub last_line: u32,
    /// Iterations in one run (dynamic analyses only).
    pub iterations: Option<u64>,
    /// Operations executed by the loop's statements in that run.
    pub body_counts: Option<OpCounts>,
    /// Latency counts of each recurrence over the iterations it spans (rule 14).
    pub recurrences: Vec<OpCounts>,
    /// How many iterations each recurrence takes to come back to its scalar (whetstone's P0
    /// rotates three elements through two iterations); absent (older files) or shorter than
    /// `recurrences`: one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recurrence_spans: Vec<u32>,
    /// Whether each recurrence restarts at every entry of the loop, its scalar set afresh by
    /// the assignments just before the loop (rule 27); absent (older files, or none restarts)
    /// or shorter than `recurrences`: carried from one entry to the next.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restarted: Vec<bool>,
    /// Whether each recurrence passes through a watched IF of the loop (its condition waits
    /// for the chain, its branches set the chain's next value), so that a miss of it makes
    /// the chain's link again (rule 26); absent (older files, or none does) or shorter than
    /// `recurrences`: it does not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub through_branch: Vec<bool>,
    /// Per recurrence: the lines (first, last) of the IF whose conditional moves make it, for
    /// a chain that exists only when the compiler turns that IF into conditional moves (rule
    /// 14g: its condition then waits for the chain); absent (older files, or none) or shorter
    /// than `recurrences`: a chain of every build. The predictor keeps such a recurrence only
    /// for an optimized build whose machine loop has no conditional jump on those lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub if_converted: Vec<Option<(u32, u32)>>,
    /// Latency counts of the longest chain of dependent statements inside one iteration
    /// (rule 19; absent in older files and when the iteration has no chain).
    #[serde(default, skip_serializing_if = "OpCounts::is_empty")]
    pub longest_chain: OpCounts,
    /// The directive regions the loop lies in (absent in older files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    /// Instructions the loop executes in that run as a system's compiler builds it (rule 17).
    /// The analyzer leaves it out (it depends on the compiler and flags); the predictor fills
    /// it for each machine it predicts for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<u64>,
    /// Of `instructions`, those that load or store (rule 17), filled with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_instructions: Option<u64>,
    /// Division and square-root instructions of that run in an optimized build, from the
    /// machine loop the compiler made of it (filled with `instructions`; absent at -O0,
    /// where rule 17 charges the characterized DR… and SQR… parameters instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divider_instructions: Option<DividerInstructions>,
    /// The loop's logical IFs whose consequent has its own count: (line, runs of the
    /// consequent in that run). The consequent's instructions run that often, not as often as
    /// the line (rule 17; absent in older files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consequent_runs: Vec<(u32, u64)>,
    /// What the loop's array references move each iteration and the data they can touch (the
    /// memory bound; absent in older files and for loops not analysed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traffic: Option<LoopTraffic>,
    /// A loop closed by GO TO whose entries the counting run counted (rule 33: it references
    /// an array at a random start or through an adjustable dummy): how often control fell
    /// into it. Absent for other loops and in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries_counted: Option<u64>,
    /// Of an innermost DO loop whose trip counts the counting run compared (rule 29), the
    /// entries whose trip count differed from the entry before. Absent for loops not compared
    /// and in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trip_changes: Option<u64>,
    /// The units the loop's calls enter, directly or through their own calls, over the run
    /// (dynamic analyses; absent in older files and in loops that call nothing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub callees: Vec<CalleeEntries>,
    /// Whether `instructions` include those of the callees the loop enters (rule 17,
    /// widened): set by the predictor, in builds that do not optimize, when every callee is
    /// straight-line code.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub instructions_include_callees: bool,
    /// Whether `instructions` count the loop as an optimizing compiler built it (rule 17 for
    /// optimized builds), set by the predictor: its machine loop's passes, or one copy of its
    /// lines an entry where it has none (unrolled completely, or replaced by a call that
    /// fills or copies its array). A vector body runs several iterations a pass, so fewer
    /// instructions than iterations is then no sign that its lines were missing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub instructions_as_built: bool,
    /// Rule 31 (optimized builds): the time, ns over the run, of the longest chain the loop's
    /// machine loop carries from one pass into the next, at X-Ray's latencies; set for each
    /// machine by the predictor, None at -O0 or without a machine loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried_chain_ns: Option<f64>,
    /// Rule 29b at optimizing flags: the source iterations one pass of the loop's machine
    /// loop covers (a vector body several, an unrolled one its copies); set for each machine
    /// by the predictor, None at -O0 and for a loop without a machine loop of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations_per_pass: Option<u64>,
    /// Of `instructions`, those the arithmetic ports execute (integer and floating-point
    /// arithmetic, logic, compares, `lea`, conditional jumps), read from the loop's machine
    /// loop at optimizing flags (rule 17c); None at -O0 and for a loop without a machine loop
    /// of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arithmetic_instructions: Option<u64>,
}

/// A unit a loop enters through its calls: how often for the loop, and how often over the
/// whole run (its instructions over the run, times `calls / entries`, are the loop's share).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalleeEntries {
    pub unit: String,
    pub calls: u64,
    pub entries: u64,
}

/// Of `count`, made over a unit's `entries` entries, the part that `calls` of them make
/// (without overflow; no entries count as one).
pub fn share_of(count: u64, calls: u64, entries: u64) -> u64 {
    (count as u128 * calls as u128 / entries.max(1) as u128) as u64
}

impl CalleeEntries {
    /// The loop's share of `run`, a count over all of the unit's entries.
    pub fn share(&self, run: u64) -> u64 {
        share_of(run, self.calls, self.entries)
    }

    /// The loop's share of the unit's entries, as a fraction.
    pub fn fraction(&self) -> f64 {
        self.calls as f64 / self.entries.max(1) as f64
    }
}

/// The memory traffic of an innermost loop, from its source (issue 27, item 4): a loop that
/// streams more data than the last cache holds runs no faster than memory delivers it, however
/// few its operations, so its time is bounded below by the bytes it moves over the memory
/// bandwidth. The references' strides tell whether consecutive iterations share a cache line
/// (a stride below the line size) or each fetch a line of their own; the footprint tells which
/// level of the hierarchy the data comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopTraffic {
    /// One row per distinct array reference in the loop body (the same element referenced
    /// twice counts once; a read and a write of the same element, `A(I) = A(I) + 1`, is one
    /// reference that is both).
    pub references: Vec<ArrayReference>,
    /// Bytes of the arrays the loop references with a subscript that moves from one iteration
    /// to the next, by their declared sizes; None when one size is not known at compile time
    /// (an assumed-size or adjustable dummy array whose bounds are not constants).
    pub footprint_bytes: Option<u64>,
    /// Rule 21b: the loop's step where the source gives it as a variable (a DO loop's step
    /// `DO I = 1, N, K`, or an increment `K = K + L` by a scalar the loop does not change), as
    /// the counting run saw it: the iterations and the sum of the step's magnitude, by the
    /// step's power of two (`[k]`: steps from 2^k to 2^(k+1) - 1, the last open above). None
    /// where the loop has no such step or the run did not measure it, and in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_steps: Option<StepHistogram>,
    /// Rule 21c: the loop's iterations by its entries' trip counts, as the counting run saw
    /// them: in `[k]` the iterations of entries of 2^k to 2^(k+1) - 1 trips, with the sum of
    /// each entry's trips times its trips (so that the bucket's trips, weighted by their
    /// iterations, are the one over the other). None for a loop whose trip count the run did
    /// not evaluate at its entries (a loop closed by GO TO, a variable step), and in older
    /// files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_trips: Option<StepHistogram>,
}

/// Rule 21b: a variable step's iterations by its power of two (see
/// [`LoopTraffic::measured_steps`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepHistogram {
    /// Iterations whose step's magnitude was from 2^k to 2^(k+1) - 1 (a zero step in `[0]`).
    pub iterations: Vec<u64>,
    /// The step's magnitudes over those iterations, summed.
    pub magnitudes: Vec<u64>,
}

impl StepHistogram {
    /// The groups that saw iterations: each one's iterations and its magnitude over them
    /// (their mean, weighted by the iterations).
    pub fn groups(&self) -> impl Iterator<Item = (u64, f64)> + '_ {
        self.iterations
            .iter()
            .zip(&self.magnitudes)
            .filter(|(&n, _)| n > 0)
            .map(|(&n, &sum)| (n, sum as f64 / n as f64))
    }
}

/// One distinct array element reference of a loop's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArrayReference {
    /// The array's name, upper case.
    pub array: String,
    /// Bytes of one element: 4 for REAL, INTEGER and LOGICAL, 8 for DOUBLE PRECISION and
    /// COMPLEX, 16 for DOUBLE COMPLEX, n for CHARACTER*n (0 when the length is not a constant,
    /// `CHARACTER*(*)`).
    pub element_bytes: u32,
    /// The loop reads the element.
    pub read: bool,
    /// The loop writes the element.
    pub written: bool,
    /// Bytes the address moves from one iteration to the next: 0 when no subscript uses the DO
    /// variable (or anything else the loop changes); element_bytes × step × the product of the
    /// leading dimensions' extents × c for the subscript the DO variable is in with coefficient
    /// c. A scalar the body sets once every iteration counts as its value
    /// (`ROW = I + (J-1)*NX`), one it steps by a constant `k` (`K = K + k`, also in a loop
    /// closed by GO TO) as moving `k` each iteration. None when that needs an extent that is
    /// not a compile-time constant, the subscript is not affine in the DO variable (indirect
    /// `A(IX(I))`, `I*I`, ...), the step is not a constant, or it uses another variable the
    /// loop changes.
    pub stride_bytes: Option<i64>,
    /// Bytes the address moves from one iteration of the DO loop around this one to the
    /// next, the inner loop's variable held (rule 21: whether the next entry comes back to
    /// this entry's lines); None as for `stride_bytes`, when no DO loop is around, and in
    /// older files.
    #[serde(default)]
    pub outer_stride_bytes: Option<i64>,
    /// Bytes of the whole array, by its declared extents or those a counting run measured;
    /// None when one is not known (an assumed-size dummy), and in older files.
    #[serde(default)]
    pub array_bytes: Option<u64>,
    /// A subscript takes its value from data the body loads: an array element or an external
    /// function's result, directly (`X(ICOL(K))`) or through a scalar the body assigns from
    /// one (`K = T(J)`, `I = NEXT(I)`). Where its address also moves by no known step, each
    /// access lands at an address no prefetcher follows (rule 33).
    #[serde(default)]
    pub indirect: bool,
    /// Not indirect, but a subscript uses a scalar the unit sets from data outside the loop
    /// (`I = HASH(KEY)` before a probe loop over `TABLE(I)`; the loop's own DO variable
    /// aside): each entry starts at an address no prefetcher follows (rule 33).
    #[serde(default)]
    pub random_start: bool,
    /// Rule 21b: where `stride_bytes` is None only because the loop's step is a variable
    /// (see [`LoopTraffic::measured_steps`]), the bytes the address moves per unit of that
    /// step; None otherwise, and in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stride_per_step_bytes: Option<i64>,
}

/// Instructions of one kind, scalar and packed (SIMD).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScalarPacked {
    pub scalar: u64,
    pub packed: u64,
    /// The packed instructions' vector bits, summed (128 for each `divpd`, 256 for each
    /// `vdivpd` on ymm registers); 0 in files written before it was recorded.
    #[serde(default)]
    pub packed_bits: u64,
}

/// A loop's divisions and square roots by precision and packing: the divider is not
/// pipelined, so these bound a loop that has many (rule 17's busy units, optimized builds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DividerInstructions {
    pub single_divide: ScalarPacked,
    pub double_divide: ScalarPacked,
    pub single_square_root: ScalarPacked,
    pub double_square_root: ScalarPacked,
}

impl DividerInstructions {
    /// Each kind with its X-Ray row name ("double divide", ...).
    pub fn by_name(&self) -> [(&'static str, ScalarPacked); 4] {
        [
            ("single divide", self.single_divide),
            ("double divide", self.double_divide),
            ("single square root", self.single_square_root),
            ("double square root", self.double_square_root),
        ]
    }

    pub fn is_empty(&self) -> bool {
        self.by_name()
            .iter()
            .all(|(_, n)| n.scalar == 0 && n.packed == 0)
    }
}

impl LoopStats {
    /// Whether rule 17 charges the loop by its instructions: no calls left in its body (or
    /// only calls whose callees' instructions it counts), and its instructions known: read
    /// from the loop as built, or counted by line and at least its iterations (fewer means its
    /// lines were not found in the assembly: an iteration is at least a compare and a branch).
    pub fn charged_by_instructions(&self) -> bool {
        let calls = self
            .body_counts
            .as_ref()
            .is_some_and(|b| b.params.contains_key(&crate::Param::PROC));
        let known = match self.instructions {
            Some(n) if self.instructions_as_built => n > 0,
            Some(n) => n >= self.iterations.unwrap_or(u64::MAX),
            None => false,
        };
        (!calls || self.instructions_include_callees) && known
    }

    /// Each recurrence with the iterations it spans (rule 14) and whether it restarts at every
    /// entry (rule 27).
    pub fn recurrences_with_spans(&self) -> impl Iterator<Item = (&OpCounts, u32, bool)> {
        self.recurrences.iter().enumerate().map(|(k, r)| {
            let span = self.recurrence_spans.get(k).copied().unwrap_or(1).max(1);
            (r, span, self.restarted.get(k).copied().unwrap_or(false))
        })
    }

    /// The lines of the IF whose conditional moves make recurrence `k` (rule 14g), if any.
    pub fn if_converted(&self, k: usize) -> Option<(u32, u32)> {
        self.if_converted.get(k).copied().flatten()
    }

    /// Keep the recurrences `keep` says yes to (by index), with their spans and flags.
    pub fn retain_recurrences(&mut self, keep: impl Fn(usize) -> bool) {
        fn filter<T>(v: &mut Vec<T>, keep: &dyn Fn(usize) -> bool) {
            let mut k = 0;
            v.retain(|_| {
                k += 1;
                keep(k - 1)
            });
        }
        filter(&mut self.recurrences, &keep);
        filter(&mut self.recurrence_spans, &keep);
        filter(&mut self.restarted, &keep);
        filter(&mut self.through_branch, &keep);
        filter(&mut self.if_converted, &keep);
    }

    /// Whether recurrence `k` passes through a watched IF of the loop (rule 26).
    pub fn through_branch(&self, k: usize) -> bool {
        self.through_branch.get(k).copied().unwrap_or(false)
    }

    /// How many times the run entered the loop, in a body without calls (a callee's loops
    /// would count theirs too): its DO statement's entries (LOIN, LOIX), or for a loop closed
    /// by `IF (...) GO TO` its iterations that did not jump back (rule 27, widened). None for a
    /// loop closed otherwise, one that calls, or without a dynamic analysis.
    pub fn entries(&self) -> Option<u64> {
        let body = self.body_counts.as_ref()?;
        if body.params.contains_key(&crate::Param::PROC) {
            return None;
        }
        let n = body.get(crate::Param::LOIN) + body.get(crate::Param::LOIX);
        if n > 0 {
            return Some(n);
        }
        let (_, back) = self
            .consequent_runs
            .iter()
            .find(|(line, _)| *line == self.last_line)?;
        self.iterations?.checked_sub(*back).filter(|&e| e > 0)
    }
}

/// One basic block: a run of statements executed together (Saavedra-Barrera's section 5.1, like tcov).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockStats {
    pub unit: String,
    pub file: String,
    /// 1-based source lines of the block's first and last statements.
    pub first_line: u32,
    pub last_line: u32,
    pub static_counts: OpCounts,
    /// How many times the block ran (present after a dynamic analysis).
    pub executions: Option<u64>,
    /// Operation counts of those runs.
    pub dynamic_counts: Option<OpCounts>,
    /// Machine instructions of one execution in an optimized build (one copy of its lines;
    /// rule 22). Like a loop's `instructions`, filled by the predictor for each system.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<u64>,
}

impl BlockStats {
    /// Whether the block lies within `lines` of `file` (a loop's or a region's span).
    pub fn lies_within(&self, file: &str, lines: std::ops::RangeInclusive<u32>) -> bool {
        self.file == file && lines.contains(&self.first_line) && lines.contains(&self.last_line)
    }
}

impl ProgramStats {
    /// A program of one part: `counts` as its dynamic counts, nothing else known (for
    /// predictions from counts alone, and tests).
    pub fn of_counts(program: &str, counts: OpCounts) -> ProgramStats {
        ProgramStats {
            format: <Self as Versioned>::FORMAT.to_string(),
            format_version: <Self as Versioned>::VERSION,
            program: program.to_string(),
            source_files: Vec::new(),
            source_sha256: String::new(),
            total: PartStats {
                name: program.to_string(),
                static_counts: OpCounts::new(),
                dynamic_counts: Some(counts),
                spans: Vec::new(),
            },
            units: Vec::new(),
            regions: Vec::new(),
            skipped_statements: 0,
            blocks: Vec::new(),
            loops: Vec::new(),
            program_flags: Vec::new(),
            simulated_branches: None,
        }
    }

    /// Read a ProgramStats file (from `opcost analyze --json`).
    pub fn load(path: &std::path::Path) -> Result<Self, crate::files::LoadError> {
        crate::files::load_versioned(path, "")
    }
}

impl Versioned for ProgramStats {
    const FORMAT: &'static str = "opcost-program-stats";
    const VERSION: u32 = 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop as files written before `traffic` have it.
    const OLDER_LOOP: &str = r#"{"unit": "MAIN", "file": "p.f", "first_line": 5, "last_line": 7,
        "iterations": 100, "body_counts": null, "recurrences": []}"#;

    #[test]
    fn a_loop_without_traffic_still_loads() {
        let l: LoopStats = serde_json::from_str(OLDER_LOOP).unwrap();
        assert_eq!(l.traffic, None);
        assert_eq!(l.iterations, Some(100));
        // And is written without it.
        assert!(!serde_json::to_string(&l).unwrap().contains("traffic"));
    }

    #[test]
    fn traffic_goes_through_json() {
        let mut l: LoopStats = serde_json::from_str(OLDER_LOOP).unwrap();
        l.traffic = Some(LoopTraffic {
            references: vec![ArrayReference {
                array: "A".into(),
                element_bytes: 8,
                read: true,
                written: false,
                stride_bytes: None,
                outer_stride_bytes: None,
                array_bytes: Some(8000),
                indirect: true,
                random_start: false,
                stride_per_step_bytes: Some(8),
            }],
            footprint_bytes: None,
            measured_trips: None,
            measured_steps: Some(StepHistogram {
                iterations: vec![3, 0, 5],
                magnitudes: vec![3, 0, 21],
            }),
        });
        let text = serde_json::to_string(&l).unwrap();
        assert!(text.contains(r#""stride_bytes":null"#), "{text}");
        assert_eq!(serde_json::from_str::<LoopStats>(&text).unwrap(), l);
    }
}

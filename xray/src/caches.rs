//! Data caches by compact and non-compact sequences (X-Ray): capacity and associativity by
//! figure 6, block size by figure 8, lower levels through sequences of sequences (section 5),
//! hit latencies, main-memory latency, and exclusion (section 8.2).

use crate::bench::{self, Workshop};
use crate::decide::{HitReference, Samples, Verdict};
use crate::sequence::{block_sequence, level_sequence, Geometry, Sequence};
use crate::{Progress, XrayError};
use model::hardware::{CacheMethod, RandomLatency};
use std::path::PathBuf;
use std::time::Duration;

const CHASE_SOURCE: &str = include_str!("fortran/chase.f90");

/// The largest buffer a query may use: far beyond any cache, small next to this machine's
/// memory, and quick to zero.
const MAX_EXTENT_BYTES: u64 = 320 << 20;

/// The generated pointer-chasing program (chase.f90) and the statistics of its runs.
pub struct Chaser {
    exe: PathBuf,
    huge: bool,
    samples: usize,
    target_ns: u64,
    /// Queries run, for the report.
    pub queries: usize,
    /// Largest huge-page shortfall seen: (extent asked, huge-page bytes granted).
    pub huge_shortfall: Option<(u64, u64)>,
}

impl Chaser {
    pub fn build(shop: &Workshop, huge: bool, quick: bool) -> Result<Self, XrayError> {
        // Optimised so the chase loop keeps its index in a register: one load per access.
        let exe = shop.build(
            "chase",
            &[bench::BUFFER_SOURCE, ("chase.f90", CHASE_SOURCE, &["-O2"])],
        )?;
        Ok(Chaser {
            exe,
            huge,
            samples: if quick { 5 } else { 9 },
            target_ns: 500_000,
            queries: 0,
            huge_shortfall: None,
        })
    }

    /// Time each sequence with `factor` times the usual number of samples.
    pub fn time(&mut self, seqs: &[Sequence], factor: usize) -> Result<Vec<Samples>, XrayError> {
        let extent = seqs.iter().map(Sequence::extent_bytes).max().unwrap_or(8);
        let mut input = format!("{extent} {}\n", u8::from(self.huge));
        for s in seqs {
            input.push_str(&s.query_line(self.samples * factor, self.target_ns));
            input.push('\n');
        }
        let out = bench::run(&self.exe, &[], &input, Duration::from_secs(120))?;
        self.queries += seqs.len();
        if self.huge && extent >= 4 << 20 {
            let granted_kb = bench::tagged_numbers(&out, "HUGE")
                .first()
                .and_then(|v| v.first().copied())
                .unwrap_or(-1.0);
            let granted = (granted_kb.max(0.0) * 1024.0) as u64;
            if granted < extent / 2 && self.huge_shortfall.is_none_or(|(e, _)| e < extent) {
                self.huge_shortfall = Some((extent, granted));
            }
        }
        let rows = bench::tagged_numbers(&out, "R");
        if rows.len() != seqs.len() {
            return Err(XrayError::Run(format!(
                "chase program answered {} of {} queries",
                rows.len(),
                seqs.len()
            )));
        }
        Ok(rows
            .into_iter()
            .map(|r| Samples(r.into_iter().skip(1).collect()))
            .collect())
    }

    /// The same program without super pages (the TLB needs ordinary pages, X-Ray section 6).
    pub fn without_huge_pages(&self) -> Chaser {
        Chaser {
            exe: self.exe.clone(),
            huge: false,
            samples: self.samples,
            target_ns: self.target_ns,
            queries: 0,
            huge_shortfall: None,
        }
    }

    pub fn time_one(&mut self, seq: &Sequence, factor: usize) -> Result<Samples, XrayError> {
        Ok(self.time(std::slice::from_ref(seq), factor)?.remove(0))
    }
}

/// One measured level.
#[derive(Debug, Clone)]
pub struct MeasuredLevel {
    /// Associativity and block size are 0 when `method` is EffectiveCapacity.
    pub geometry: Geometry,
    pub hit: HitReference,
    pub method: CacheMethod,
    /// Exclusive of the level above: `geometry` is then the level's own share (X-Ray 8.2).
    pub exclusive: bool,
}

/// The whole hierarchy.
#[derive(Debug, Clone)]
pub struct Hierarchy {
    pub levels: Vec<MeasuredLevel>,
    pub memory_latency_ns: f64,
    pub notes: Vec<String>,
}

/// `is_compact` for one level: the decision rule of [`crate::decide`] on `W*`.
pub(crate) struct Level<'a> {
    chaser: &'a mut Chaser,
    upper: &'a [Geometry],
    hit: HitReference,
}

impl<'a> Level<'a> {
    pub(crate) fn new(chaser: &'a mut Chaser, upper: &'a [Geometry], hit: HitReference) -> Self {
        Level { chaser, upper, hit }
    }

    pub(crate) fn is_compact_seq(
        &mut self,
        seq: &Sequence,
        confirm: bool,
    ) -> Result<bool, XrayError> {
        if seq.extent_bytes() > MAX_EXTENT_BYTES {
            return Err(XrayError::Measurement(format!(
                "a sequence would need {} MiB, more than the {} MiB X-Ray allows itself",
                seq.extent_bytes() >> 20,
                MAX_EXTENT_BYTES >> 20
            )));
        }
        let trace = std::env::var_os("OPCOST_XRAY_TRACE").is_some();
        let mut pooled = Samples(Vec::new());
        // Confirmed decisions always take three rounds; others stop at the first clear verdict.
        let rounds = 3;
        for round in 0..rounds {
            let q = self.chaser.time_one(seq, 1)?;
            if trace {
                eprintln!(
                    "  {}{:?}: min {:.2} ns (hit {:.2}, threshold {:.2})",
                    if round > 0 { "  again " } else { "" },
                    seq.dims,
                    q.min(),
                    self.hit.latency_ns,
                    self.hit.threshold_ns()
                );
            }
            pooled = pooled.pooled(&q);
            match self.hit.verdict(&pooled) {
                Verdict::Compact if !confirm => return Ok(true),
                Verdict::NonCompact if !confirm => return Ok(false),
                _ => {}
            }
        }
        Ok(self.hit.is_compact(&pooled))
    }

    /// `is_compact(<m0, S, N>)` at this level: assumed when the sequence is too short to
    /// reach past the level above (X-Ray section 5.3), measured on W* otherwise.
    fn is_compact(&mut self, stride: u64, count: u64, confirm: bool) -> Result<bool, XrayError> {
        if count <= 1 {
            return Ok(true);
        }
        if let Some(up) = self.upper.last() {
            if (count - 1) * stride < 2 * up.capacity_bytes {
                return Ok(true);
            }
        }
        let seq = level_sequence(self.upper, stride, count);
        self.is_compact_seq(&seq, confirm)
    }

    /// A contiguous interval of `bytes`, one element per `stride`, chased in pseudo-random
    /// order: compact iff it fits (X-Ray lemma 3a).
    fn interval_is_compact(&mut self, bytes: u64, stride: u64) -> Result<bool, XrayError> {
        self.is_compact_seq(&Sequence::strided(stride, (bytes / stride).max(1)), false)
    }

    /// Whether `<m0, S, N>` is compact in any of `rounds` queries spaced apart in time. A
    /// compact verdict is believed at once (noise only slows), so spreading the queries
    /// outwaits a neighbour's burst of work that a confirmed verdict's back-to-back rounds sit
    /// inside.
    fn ever_compact(&mut self, stride: u64, count: u64, rounds: usize) -> Result<bool, XrayError> {
        for round in 0..rounds {
            if round > 0 {
                std::thread::sleep(REFUTATION_SPACING);
            }
            if self.is_compact(stride, count, false)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Seed 002 figure 6 at this level (see [`figure6`]).
    fn capacity_and_associativity(&mut self, s0: u64) -> Result<Option<(u64, u64)>, XrayError> {
        figure6(s0, |stride, count, confirm| {
            self.is_compact(stride, count, confirm)
        })
    }

    /// Seed 002 figure 8: the smallest delta for which <<m0, T, A>, C + delta, 2> is compact.
    /// Every verdict is confirmed (three rounds): one slow round believed would double the
    /// block size. Noise only ever makes a compact sequence look slower, so a compact verdict
    /// stands and a non-compact one may be a busy moment: once a delta is compact, the half
    /// below it is measured once more, and taken if it is compact now (a shared host read a
    /// 64-byte line as 128 bytes in two test runs of three).
    fn block_size(&mut self, g: &Geometry) -> Result<Option<u64>, XrayError> {
        let mut delta = 8u64;
        while delta < g.way_bytes() {
            let seq = block_sequence(g, self.upper, delta);
            if self.is_compact_seq(&seq, true)? {
                while delta > 8
                    && self.is_compact_seq(&block_sequence(g, self.upper, delta / 2), true)?
                {
                    delta /= 2;
                }
                return Ok(Some(delta));
            }
            delta *= 2;
        }
        Ok(None)
    }

    /// The effective capacity: the largest contiguous interval (chased in pseudo-random order)
    /// of which at most one access in eight goes on to the next level. Without control over
    /// the sets (no physical contiguity) a set-associative cache starts to miss before it is
    /// full, and a cache that does not replace in LRU order keeps hitting past it: the rise
    /// is gradual on both sides, so the first stray miss (X-Ray's threshold) lands far below
    /// the capacity and a threshold halfway up lands above it. Doubling from `from` bytes
    /// finds the next level's plateau (twice the first interval past the threshold), then
    /// bisection to 1/32 of the bracket.
    fn effective_capacity(&mut self, from: u64, stride: u64) -> Result<Option<u64>, XrayError> {
        let mut hi = from;
        while self.interval_is_compact(hi, stride)? {
            hi *= 2;
            if hi > MAX_EXTENT_BYTES / 8 {
                return Ok(None);
            }
        }
        let below_bytes = (2 * hi).min(MAX_EXTENT_BYTES / 2);
        let below = self
            .chaser
            .time_one(&Sequence::strided(stride, below_bytes / stride), 1)?
            .min();
        let spill = self.hit.spill_threshold_ns(below);
        if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
            eprintln!(
                "  next level {below:.2} ns at {} KiB: spill threshold {spill:.2} ns",
                below_bytes >> 10
            );
        }
        if spill > self.hit.threshold_ns() {
            self.hit.spill_ns = Some(spill);
        }
        while self.interval_is_compact(hi, stride)? {
            hi *= 2;
            if hi > MAX_EXTENT_BYTES / 8 {
                return Ok(None);
            }
        }
        let mut lo = hi / 2;
        let step = (hi / 32).max(stride);
        while hi - lo > step {
            let mid = (lo + (hi - lo) / 2) / stride * stride;
            if self.interval_is_compact(mid, stride)? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(Some(lo))
    }
}

/// Seed 002 figure 6 from stride `s0`, over any `is_compact(S, N, confirm)`: double N until
/// `<m0, S, N>` is not compact; then double S and find by bisection the smallest N' in
/// [1, N_old] that is not compact, until N stops changing. Some((A, T)) with A = N - 1 and
/// T = S / 2 (C = A T), or None when no non-compact sequence exists within the memory X-Ray
/// allows itself. T = 0 means N never changed (s0 was already past T): start lower.
pub fn figure6(
    s0: u64,
    mut is_compact: impl FnMut(u64, u64, bool) -> Result<bool, XrayError>,
) -> Result<Option<(u64, u64)>, XrayError> {
    let mut stride = s0;
    let mut count = 1u64;
    loop {
        if count * stride > MAX_EXTENT_BYTES / 2 {
            return Ok(None);
        }
        if !is_compact(stride, count, false)? {
            break;
        }
        count *= 2;
    }
    let mut steps = 0;
    loop {
        stride *= 2;
        steps += 1;
        let old = count;
        // `old` is known non-compact: N_nc does not grow with S (theorem 1).
        let (mut lo, mut hi) = (1u64, old);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if is_compact(stride, mid, false)? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        count = hi;
        if count == old {
            // Confirm the pair the answer rests on: A compact and A + 1 not, at S = 2T.
            let a = count - 1;
            if is_compact(stride, a, true)? && !is_compact(stride, a + 1, true)? {
                return Ok(Some((a, if steps == 1 { 0 } else { stride / 2 })));
            }
        }
        if stride * count > MAX_EXTENT_BYTES {
            return Ok(None);
        }
    }
}

/// Latency sequence of a level below `upper`: compact there, non-compact above (W* of the
/// smallest count X-Ray section 5.3 measures). When the level above was measured only by
/// its effective capacity, a contiguous interval twice that size.
fn level_latency_sequence(upper: &[MeasuredLevel]) -> Sequence {
    match upper.last() {
        None => Sequence::strided(8, 1),
        Some(up) if up.method == CacheMethod::EffectiveCapacity => {
            let stride = 64;
            Sequence::strided(stride, 2 * up.geometry.capacity_bytes / stride)
        }
        Some(up) => {
            let g = up.geometry;
            let stride = 2 * g.way_bytes();
            let count = (2 * g.capacity_bytes / stride + 1).next_power_of_two();
            let geoms: Vec<Geometry> = upper.iter().map(|l| l.geometry).collect();
            level_sequence(&geoms, stride, count)
        }
    }
}

/// Measure every data cache level, then main memory.
pub fn measure(chaser: &mut Chaser, progress: &mut Progress) -> Result<Hierarchy, XrayError> {
    let mut levels: Vec<MeasuredLevel> = Vec::new();
    let mut notes = Vec::new();
    progress("main memory latency");
    let memory_latency_ns = measure_memory(chaser)?;
    // Once a level's sets could not be targeted, deeper levels cannot be either.
    let mut sets_reachable = true;
    while levels.len() < 4 {
        let depth = levels.len() + 1;
        progress(&format!("L{depth}: hit latency"));
        let lat_seq = level_latency_sequence(&levels);
        let hit_samples = chaser
            .time_one(&lat_seq, 2)?
            .pooled(&chaser.time_one(&lat_seq, 2)?);
        let hit = HitReference::from_samples(&hit_samples);
        if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
            eprintln!("  L{depth} latency sequence {:?}: {hit:?}", lat_seq.dims);
        }
        let slower_than_above = levels
            .last()
            .is_none_or(|p| hit.latency_ns > p.hit.latency_ns * 1.5);
        if !slower_than_above || hit.latency_ns > 0.6 * memory_latency_ns {
            break; // this "level" is main memory
        }
        let upper: Vec<Geometry> = levels.iter().map(|l| l.geometry).collect();
        let mut level = Level {
            chaser,
            upper: &upper,
            hit: hit.clone(),
        };
        let mut measured = None;
        if sets_reachable {
            progress(&format!(
                "L{depth}: capacity and associativity (hit {:.2} ns)",
                hit.latency_ns
            ));
            measured = by_compact_sequences(&mut level, depth, &mut notes)?;
            sets_reachable = measured.is_some();
        }
        let measured = match measured {
            Some(m) => m,
            None => {
                progress(&format!(
                    "L{depth}: effective capacity (hit {:.2} ns)",
                    hit.latency_ns
                ));
                let (from, stride) = levels.last().map_or((1024, 8), |u| {
                    (
                        2 * u.geometry.capacity_bytes,
                        u.geometry.block_bytes.max(64),
                    )
                });
                match level.effective_capacity(from, stride)? {
                    Some(c) => MeasuredLevel {
                        geometry: Geometry {
                            capacity_bytes: c,
                            associativity: 0,
                            block_bytes: 0,
                        },
                        hit: hit.clone(),
                        method: CacheMethod::EffectiveCapacity,
                        exclusive: false,
                    },
                    None => break,
                }
            }
        };
        levels.push(measured);
    }
    Ok(Hierarchy {
        levels,
        memory_latency_ns,
        notes,
    })
}

/// The time between the queries of a refutation ([`Level::ever_compact`]).
const REFUTATION_SPACING: std::time::Duration = std::time::Duration::from_millis(300);

/// The wait before a third attempt at a level's geometry, once two have disagreed.
const DISAGREEMENT_PAUSE: std::time::Duration = std::time::Duration::from_millis(500);

/// At most this many attempts at one level's geometry by compact sequences.
const MAX_GEOMETRY_ATTEMPTS: usize = 5;

/// Figures 6 and 8 at one level, measured until two attempts agree (at most
/// [`MAX_GEOMETRY_ATTEMPTS`]): a claim of
/// exact geometry must survive a repeat. A neighbour sharing the core (an SMT sibling of a
/// shared host) can evict lines for a whole search, so one attempt's minima are not enough:
/// such a search read this host's 48 KiB 12-way L1 as 1280 KiB 10-way in one run of 15, and
/// an Intel host's 64-byte lines as 128 bytes. None when no two attempts agree, or when two
/// below L1 are inconsistent: the addresses X-Ray controls do not decide the sets (no
/// physical contiguity), or the host is too busy to tell.
fn by_compact_sequences(
    level: &mut Level,
    depth: usize,
    notes: &mut Vec<String>,
) -> Result<Option<MeasuredLevel>, XrayError> {
    let mut answers: Vec<Geometry> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    // L1 is virtually indexed, so an inconsistent attempt there is the host's noise and worth
    // outwaiting; below it, two inconsistent attempts mean the sets cannot be targeted.
    let max_failures = if level.upper.is_empty() { 4 } else { 2 };
    let agreed = loop {
        let attempts = answers.len() + failures.len();
        if failures.len() >= max_failures || attempts >= MAX_GEOMETRY_ATTEMPTS {
            break None;
        }
        if attempts >= 2 {
            // Two attempts that disagree: a neighbour's burst of work is likely still going.
            std::thread::sleep(DISAGREEMENT_PAUSE);
        }
        let attempt = geometry_once(level, depth)?;
        if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
            eprintln!("  L{depth} attempt: {:?}", attempt.as_ref().map(describe));
        }
        match attempt {
            Ok(g) if answers.contains(&g) => break Some(g),
            Ok(g) => answers.push(g),
            Err(why) => failures.push(why),
        }
    };
    let Some(geometry) = agreed else {
        notes.push(match failures.last() {
            Some(why) if answers.is_empty() && !level.upper.is_empty() => why.clone(),
            _ => format!(
                "L{depth}: no two of {} compact-sequence attempts agreed ({}{} inconsistent): \
                 the host was too busy to tell, so only the effective capacity of L{depth} and \
                 below is reported",
                answers.len() + failures.len(),
                answers
                    .iter()
                    .map(|g| describe(g) + ", ")
                    .collect::<String>(),
                failures.len()
            ),
        });
        return Ok(None);
    };
    if answers.len() + failures.len() > 1 {
        notes.push(format!(
            "L{depth}: compact-sequence measurements that disagreed were outvoted ({})",
            answers
                .iter()
                .filter(|g| **g != geometry)
                .map(describe)
                .chain(failures)
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    let mut measured = MeasuredLevel {
        geometry,
        hit: level.hit.clone(),
        method: CacheMethod::CompactSequences,
        exclusive: false,
    };
    if let Some(u) = level.upper.last().copied() {
        if let Some(own) = exclusive_share(level, &u, &geometry)? {
            notes.push(format!(
                "L{depth} is exclusive of L{}: together they behave as {} KiB {}-way; its own \
                 share is {} KiB {}-way",
                depth - 1,
                geometry.capacity_bytes >> 10,
                geometry.associativity,
                own.capacity_bytes >> 10,
                own.associativity
            ));
            measured.geometry = own;
            measured.exclusive = true;
        }
    }
    Ok(Some(measured))
}

fn describe(g: &Geometry) -> String {
    format!(
        "{} KiB {}-way {} B",
        g.capacity_bytes >> 10,
        g.associativity,
        g.block_bytes
    )
}

/// One attempt at figures 6 and 8, checked for consistency with theorem 1 and lemma 3a (an
/// interval of C/2 must fit, one of 2C must not). Err(why) when it gives no answer or an
/// inconsistent one.
fn geometry_once(level: &mut Level, depth: usize) -> Result<Result<Geometry, String>, XrayError> {
    let up = level.upper.last().copied();
    // Level 1 starts at the element size (X-Ray figure 6 starts at 1 byte); lower levels
    // at twice the stride of the level above, where W* is short and cheap.
    let mut s0 = up.map_or(8, |u| 2 * u.way_bytes());
    // A busy machine can derail one search (a run of misjudged counts drives the stride past
    // the memory limit): one more try before giving up on the method.
    let mut tries = 0;
    let found = loop {
        match level.capacity_and_associativity(s0) {
            Ok(Some((_, 0))) if s0 > 8 => s0 = (s0 / 4).max(8),
            Ok(other) => break other,
            Err(XrayError::Measurement(_)) if tries == 0 => tries += 1,
            Err(XrayError::Measurement(why)) => {
                return Ok(Err(format!(
                    "L{depth}: compact sequences gave no answer ({why})"
                )))
            }
            Err(e) => return Err(e),
        }
    };
    let Some((assoc, way)) = found.filter(|f| f.1 > 0) else {
        return Ok(Err(format!(
            "L{depth}: compact sequences found no set conflict within the memory X-Ray uses"
        )));
    };
    // Theorem 1 at the answer, re-measured apart in time: A + 1 lines T apart share one set
    // and must never fit; T / 2 apart they spread over two sets and must fit at least once.
    // A neighbour holding some of the ways reads as fewer ways, never more (this host's L1
    // read 10-way for seconds at a time), and a burst early in the search as a wider stride.
    let rounds = 3;
    if level.ever_compact(way, assoc + 1, rounds)?
        || (way >= 16 && !level.ever_compact(way / 2, assoc + 1, rounds)?)
    {
        return Ok(Err(format!(
            "L{depth}: compact sequences said {} KiB {assoc}-way, but {} lines {} B apart \
             contradicted it when measured again",
            (assoc * way) >> 10,
            assoc + 1,
            way
        )));
    }
    let mut geometry = Geometry {
        capacity_bytes: assoc * way,
        associativity: assoc,
        block_bytes: 0,
    };
    let Some(block) = level.block_size(&geometry)? else {
        return Ok(Err(format!(
            "L{depth}: compact sequences gave no consistent answer (no block size below the \
             cache stride)"
        )));
    };
    geometry.block_bytes = block;
    // Every block of the interval, at the upper level's block size (every element at L1); a
    // block size beyond 512 B (no cache has one) is itself a sign that the sets were not
    // targeted.
    let stride = up.map_or(8, |u| u.block_bytes.max(8));
    let consistent = block <= 512
        && level.interval_is_compact(geometry.capacity_bytes / 2, stride)?
        && !level.interval_is_compact(2 * geometry.capacity_bytes, stride)?;
    if !consistent {
        return Ok(Err(format!(
            "L{depth}: compact sequences said {}, but contiguous intervals contradict it: \
             {}so only the effective capacity of L{depth} and below is reported",
            describe(&geometry),
            if up.is_some() {
                "the super pages are not physically contiguous here (a virtual machine whose \
                 host maps guest memory in small pages?), "
            } else {
                "the host was too busy to tell, "
            }
        )));
    }
    Ok(Ok(geometry))
}

/// Seed 002 section 8.2: an exclusive level holds what the level above evicts, so at a stride
/// that maps every address to one set of both, it shows the ways of both (A = A_own + A_up).
/// When that reading is possible (T_up divides T, A > A_up), a contiguous interval halfway
/// between the two readings' total capacities decides: it fits if the level is inclusive
/// (T * A bytes) and not if it is exclusive (T * (A - A_up) + C_up bytes).
fn exclusive_share(
    level: &mut Level,
    up: &Geometry,
    g: &Geometry,
) -> Result<Option<Geometry>, XrayError> {
    let t = g.way_bytes();
    if g.associativity <= up.associativity || !t.is_multiple_of(up.way_bytes()) {
        return Ok(None);
    }
    let own = Geometry {
        capacity_bytes: t * (g.associativity - up.associativity),
        associativity: g.associativity - up.associativity,
        block_bytes: g.block_bytes,
    };
    let exclusive_total = own.capacity_bytes + up.capacity_bytes;
    let probe_bytes = (exclusive_total + g.capacity_bytes) / 2;
    let stride = up.block_bytes.max(8);
    let seq = Sequence::strided(stride, probe_bytes / stride);
    Ok((!level.is_compact_seq(&seq, true)?).then_some(own))
}

/// Main-memory latency: a pseudo-random chase over 128 MiB (beyond the caches X-Ray expects),
/// one access per 1 KiB + 64 B so a pass stays short and the elements spread over all sets.
fn measure_memory(chaser: &mut Chaser) -> Result<f64, XrayError> {
    let stride = 1024 + 64;
    let s = chaser.time_one(&Sequence::strided(stride, (128 << 20) / stride), 1)?;
    if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
        eprintln!(
            "  memory: {s:?}, huge-page shortfall {:?}",
            chaser.huge_shortfall
        );
    }
    Ok(s.min())
}

/// The smallest and largest buffers of the random-access curve (rule 33): from one that fits
/// any first level to one beyond any last level a 2-core machine shares.
const RANDOM_CURVE_BYTES: (u64, u64) = (16 << 10, 64 << 20);

/// Rule 33: ns per load at a random line of buffers of growing size (doubling; quadrupling
/// when `quick`), on ordinary 4 KiB pages as a program's arrays have them: every load depends
/// on the one before, so each waits its whole latency, TLB misses included.
pub fn random_latencies(chaser: &Chaser, quick: bool) -> Result<Vec<RandomLatency>, XrayError> {
    let mut plain = chaser.without_huge_pages();
    let line = 64;
    let sizes: Vec<u64> = std::iter::successors(Some(RANDOM_CURVE_BYTES.0), |b| {
        Some(b << if quick { 2 } else { 1 })
    })
    .take_while(|&b| b <= RANDOM_CURVE_BYTES.1)
    .collect();
    let seqs: Vec<Sequence> = sizes
        .iter()
        .map(|&b| Sequence::strided(line, b / line))
        .collect();
    let samples = plain.time(&seqs, 1)?;
    Ok(sizes
        .into_iter()
        .zip(samples)
        .map(|(bytes, s)| RandomLatency {
            bytes,
            ns: s.median(),
        })
        .collect())
}

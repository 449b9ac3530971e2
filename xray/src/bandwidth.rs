//! Sustained single-thread bandwidths of each cache level and of main memory (issue 27):
//! read, write and copy streams (stream.f90, the kernels in stream_kernels.f90) over arrays
//! sized to fit the level. X-Ray (Yotov, Pingali & Stodghill) measures latencies by pointer
//! chasing, where every load waits for the last; these streams are the other extreme, loads
//! and stores independent and sequential, so the prefetchers and the vector units run at
//! full rate. As in the rest of X-Ray, each figure is the best of several short timings: other
//! load only ever slows a run.

use crate::bench::{self, Workshop, BUFFER_SOURCE};
use crate::XrayError;
use model::hardware::{Bandwidth, CacheLevel};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const DRIVER: &str = include_str!("fortran/stream.f90");
const KERNELS: &str = include_str!("fortran/stream_kernels.f90");

/// Bytes between the copy's two arrays (stream.f90's `gap_words`): A(I) and B(I) then fall
/// in different L1 sets.
const GAP_BYTES: u64 = 1088;
/// Footprints are whole pages (the kernels need multiples of 512 B).
const PAGE: u64 = 4096;
/// Memory footprints are capped so the memory streams (about twenty passes in all, at a
/// pessimistic 5 GB/s) stay within about two seconds, one with `--quick`.
const MEMORY_CAP_BYTES: u64 = 256 << 20;
const MEMORY_CAP_QUICK_BYTES: u64 = 128 << 20;
/// One timing lasts at least this long: far above the timer's resolution and call overhead,
/// short enough to fit between two preemptions of a busy machine (as cpu.rs's).
const TARGET_NS: u64 = 300_000;

/// What to measure: the footprint of each level's streams, memory (level None) last.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub footprints: Vec<(Option<u8>, u64)>,
    /// The memory footprint is below four times the largest cache (capped).
    pub memory_capped: bool,
}

/// The streams' footprint for each level: half its capacity, so the arrays fit with room for
/// set conflicts (4 KiB pages place them at random in a physically indexed cache), but at
/// least twice what the levels above hold, so they cannot serve the stream. When a level is
/// too small for both (an exclusive level's own share), halfway between the two.
pub fn cache_footprints(caches: &[CacheLevel]) -> Vec<u64> {
    let mut above = 0u64; // bytes the levels above hold
    let mut out = Vec::new();
    for c in caches {
        let reach = if c.exclusive {
            c.capacity_bytes + above
        } else {
            c.capacity_bytes.max(above)
        };
        let mut f = (c.capacity_bytes / 2).max(2 * above);
        if f >= reach {
            f = (above + reach) / 2;
        }
        out.push((f / PAGE * PAGE).max(PAGE));
        above = reach;
    }
    out
}

/// Main memory's footprint: four times the largest cache, capped (see [`MEMORY_CAP_BYTES`]),
/// but always at least twice the last level's footprint. Also whether it was capped below
/// four times the cache.
pub fn memory_footprint(largest_cache: u64, last_footprint: u64, quick: bool) -> (u64, bool) {
    let cap = if quick {
        MEMORY_CAP_QUICK_BYTES
    } else {
        MEMORY_CAP_BYTES
    };
    let wanted = (4 * largest_cache).div_ceil(PAGE) * PAGE;
    let f = wanted.min(cap).max(2 * last_footprint).max(PAGE);
    (f, f < wanted)
}

/// The plan for these levels and the OS's largest cache.
pub fn plan(caches: &[CacheLevel], os_largest_bytes: u64, quick: bool) -> Plan {
    let cache = cache_footprints(caches);
    let largest = model::hardware::largest_cache_bytes(caches, os_largest_bytes).unwrap_or(0);
    let (memory, memory_capped) =
        memory_footprint(largest, cache.last().copied().unwrap_or(0), quick);
    let footprints = caches
        .iter()
        .zip(&cache)
        .map(|(c, f)| (Some(c.level), *f))
        .chain([(None, memory)])
        .collect();
    Plan {
        footprints,
        memory_capped,
    }
}

/// The program's standard input: the buffer, then one query per footprint. Caches get many
/// short timings (cheap); memory, whose pass alone lasts milliseconds, a few.
pub fn input(plan: &Plan, huge: bool, quick: bool) -> String {
    let largest = plan.footprints.iter().map(|f| f.1).max().unwrap_or(PAGE);
    let mut s = format!("{} {}\n", largest + GAP_BYTES, u8::from(huge));
    for (level, f) in &plan.footprints {
        let reps = match (level, quick) {
            (Some(_), false) => 31,
            (Some(_), true) => 11,
            (None, false) => 9,
            (None, true) => 4,
        };
        s.push_str(&format!("{f} {reps} {TARGET_NS}\n"));
    }
    s
}

/// Bytes per ns of (read, write, copy) per footprint, from the program's "BW" lines (best
/// ns per pass; each pass moves the footprint's bytes).
pub fn parse(stdout: &str, footprints: &[u64]) -> Result<Vec<[f64; 3]>, XrayError> {
    let rows = bench::tagged_numbers(stdout, "BW");
    if rows.len() != footprints.len() {
        return Err(XrayError::Run(format!(
            "the bandwidth program answered {} of {} queries",
            rows.len(),
            footprints.len()
        )));
    }
    rows.iter()
        .zip(footprints)
        .map(|(row, &f)| match row.as_slice() {
            [got, r, w, c] if *got == f as f64 => {
                let rate = |ns: f64| f as f64 / ns;
                let rates = [rate(*r), rate(*w), rate(*c)];
                if rates.iter().all(|v| v.is_finite() && *v > 0.0) {
                    Ok(rates)
                } else {
                    Err(XrayError::Measurement(format!(
                        "a stream over {f} B took no measurable time: {row:?}"
                    )))
                }
            }
            _ => Err(XrayError::Run(format!(
                "unexpected bandwidth line for {f} B: {row:?}"
            ))),
        })
        .collect()
}

/// Compile the streams for this machine, tight and vectorized: -O3, and no replacing of the
/// copy loop by a call to memcpy (whose large copies bypass the caches).
fn build(shop: &Workshop) -> Result<PathBuf, XrayError> {
    let driver: &[&str] = &["-O2"];
    let native: &[&str] = &["-O3", "-march=native", "-fno-tree-loop-distribute-patterns"];
    shop.build(
        "stream",
        &[
            BUFFER_SOURCE,
            ("stream_kernels.f90", KERNELS, native),
            ("stream.f90", DRIVER, driver),
        ],
    )
    .or_else(|_| {
        // A compiler without these options: the same, for its default target.
        shop.build(
            "stream",
            &[
                BUFFER_SOURCE,
                ("stream_kernels.f90", KERNELS, &["-O3"]),
                ("stream.f90", DRIVER, driver),
            ],
        )
    })
}

/// Measure the bandwidths of `caches` (X-Ray's levels) and memory; `ghz` converts to bytes
/// per cycle. Notes for the report go to `notes`.
pub fn measure(
    shop: &Workshop,
    caches: &[CacheLevel],
    ghz: f64,
    huge: bool,
    quick: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<Bandwidth>, XrayError> {
    let start = Instant::now();
    let plan = plan(
        caches,
        harness::machine_info().largest_os_cache_bytes(),
        quick,
    );
    let exe = build(shop)?;
    let out = bench::run(
        &exe,
        &[],
        &input(&plan, huge, quick),
        Duration::from_secs(60),
    )?;
    let footprints: Vec<u64> = plan.footprints.iter().map(|f| f.1).collect();
    let rates = parse(&out, &footprints)?;
    if plan.memory_capped {
        let memory = footprints.last().copied().unwrap_or(0);
        notes.push(format!(
            "memory bandwidth measured over {} MiB, less than four times the largest cache: \
             part of it may have come from the cache",
            memory >> 20
        ));
    }
    if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
        eprintln!(
            "  bandwidths in {:.2} s: {:?} B/ns (read, write, copy) over {footprints:?} B",
            start.elapsed().as_secs_f64(),
            rates
        );
    }
    Ok(plan
        .footprints
        .iter()
        .zip(rates)
        .map(|(&(level, footprint_bytes), [r, w, c])| Bandwidth {
            level,
            footprint_bytes,
            read_bytes_per_ns: r,
            write_bytes_per_ns: w,
            copy_bytes_per_ns: c,
            read_bytes_per_cycle: r / ghz,
            write_bytes_per_cycle: w / ghz,
            copy_bytes_per_cycle: c / ghz,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::hardware::CacheMethod;

    fn level(level: u8, capacity_bytes: u64, exclusive: bool) -> CacheLevel {
        CacheLevel {
            level,
            capacity_bytes,
            associativity: None,
            block_bytes: None,
            latency_cycles: 4.0,
            latency_ns: 1.0,
            method: CacheMethod::EffectiveCapacity,
            used_huge_pages: false,
            exclusive,
        }
    }

    #[test]
    fn footprints_are_half_a_level_and_twice_the_levels_above() {
        // This host's X-Ray: 32 KiB, 960 KiB and 9.8 MiB effective.
        let caches = [
            level(1, 32 << 10, false),
            level(2, 960 << 10, false),
            level(3, 10_321_920, false),
        ];
        assert_eq!(
            cache_footprints(&caches),
            [16 << 10, 480 << 10, 10_321_920 / 2 / PAGE * PAGE]
        );
        // A small L2 is filled to twice L1, not half of itself.
        let small = [level(1, 48 << 10, false), level(2, 160 << 10, false)];
        assert_eq!(cache_footprints(&small), [24 << 10, 96 << 10]);
    }

    #[test]
    fn an_exclusive_share_too_small_for_both_rules_gets_the_middle() {
        // L1 64 KiB and an L2 whose own share is 64 KiB: 128 KiB in all.
        let caches = [level(1, 64 << 10, false), level(2, 64 << 10, true)];
        assert_eq!(cache_footprints(&caches), [32 << 10, 96 << 10]);
    }

    #[test]
    fn memory_is_four_times_the_largest_cache_within_the_cap() {
        assert_eq!(
            memory_footprint(32 << 20, 5 << 20, false),
            (128 << 20, false)
        );
        assert_eq!(
            memory_footprint(32 << 20, 5 << 20, true),
            (128 << 20, false)
        );
        assert_eq!(
            memory_footprint(256 << 20, 5 << 20, false),
            (256 << 20, true)
        );
        assert_eq!(
            memory_footprint(256 << 20, 5 << 20, true),
            (128 << 20, true)
        );
        // Never below twice the last level's footprint, even past the cap.
        assert_eq!(memory_footprint(0, 200 << 20, true).0, 400 << 20);
    }

    #[test]
    fn the_plan_takes_the_larger_of_xray_and_the_os() {
        let caches = [level(1, 32 << 10, false), level(2, 10 << 20, false)];
        let p = plan(&caches, 32 << 20, false);
        assert_eq!(
            p.footprints,
            [(Some(1), 16 << 10), (Some(2), 5 << 20), (None, 128 << 20)]
        );
        assert_eq!(plan(&caches, 0, false).footprints[2], (None, 40 << 20));
        // No level found: memory alone, from the OS's cache.
        assert_eq!(plan(&[], 1 << 20, true).footprints, [(None, 4 << 20)]);
        let text = input(&p, true, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("{} 1", (128 << 20) + GAP_BYTES));
        assert_eq!(lines[1], "16384 31 300000");
        assert_eq!(lines[3], format!("{} 9 300000", 128 << 20));
    }

    #[test]
    fn parse_turns_best_pass_times_into_bytes_per_ns() {
        let out =
            "BW 16384 256.000 512.000 1024.000\nBW 1048576 1048.576 2097.152 4194.304\nS 1.5\n";
        let rates = parse(out, &[16384, 1 << 20]).unwrap();
        assert_eq!(rates, [[64.0, 32.0, 16.0], [1000.0, 500.0, 250.0]]);
        assert!(parse(out, &[16384]).is_err());
        assert!(parse(out, &[16384, 1 << 21]).is_err());
        assert!(parse("BW 16384 0.000 1.0 1.0\n", &[16384]).is_err());
    }
}

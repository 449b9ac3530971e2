//! X-Ray (Yotov, Pingali & Stodghill): the memory hierarchy and CPU parameters of the machine, measured
//! by generated micro-benchmarks compiled and run through [`harness`], never read from the
//! operating system (sysfs and lscpu serve only the tests, as ground truth, and the bandwidth
//! streams as a floor under the size of their memory arrays).
//!
//! ```no_run
//! let compiler = harness::Compiler::find(None, &[]).unwrap();
//! let report = xray::measure(&compiler, &xray::XrayOptions { quick: true }, &mut |m| eprintln!("{m}"))
//!     .unwrap();
//! for c in &report.caches {
//!     println!("L{}: {} bytes, {:?}-way, {:?} B blocks", c.level, c.capacity_bytes, c.associativity, c.block_bytes);
//! }
//! ```

pub mod bandwidth;
pub mod bench;
pub mod caches;
pub mod cpu;
pub mod decide;
pub mod loop_exit;
pub mod registers;
pub mod sequence;
pub mod store;
pub mod tlb;
pub mod window;

use model::hardware::{CacheLevel, CpuInfo, HardwareReport};
use registers::RegisterKind;
use std::time::Instant;
use thiserror::Error;

/// Why X-Ray could not finish.
#[derive(Debug, Error)]
pub enum XrayError {
    #[error("{0}")]
    Compiler(#[from] harness::CompilerError),
    #[error("a generated micro-benchmark did not compile: {0}")]
    Compile(String),
    #[error("a generated micro-benchmark failed: {0}")]
    Run(String),
    #[error("X-Ray could not measure: {0}")]
    Measurement(String),
    #[error("{0}")]
    Io(String),
}

/// How thoroughly to measure.
#[derive(Debug, Clone, Default)]
pub struct XrayOptions {
    /// Fewer samples per query (for tests); the algorithms are the same.
    pub quick: bool,
}

/// The progress callback: one short message per step.
pub type Progress<'a> = dyn FnMut(&str) + 'a;

/// Is Linux transparent huge page support available to madvise (X-Ray section 5.3)?
pub fn huge_pages_available() -> Result<(), String> {
    let path = "/sys/kernel/mm/transparent_hugepage/enabled";
    match std::fs::read_to_string(path) {
        Ok(s) if s.contains("[always]") || s.contains("[madvise]") => Ok(()),
        Ok(s) => Err(format!("{path} says `{}`", s.trim())),
        Err(e) => Err(format!("cannot read {path}: {e}")),
    }
}

/// Measure the machine.
pub fn measure(
    compiler: &harness::Compiler,
    opts: &XrayOptions,
    progress: &mut Progress,
) -> Result<HardwareReport, XrayError> {
    let start = Instant::now();
    let shop = bench::Workshop::new(compiler)?;
    let mut notes = Vec::new();
    let huge = match huge_pages_available() {
        Ok(()) => true,
        Err(why) => {
            notes.push(format!(
                "no transparent huge pages ({why}): lower cache levels are measured on 4 KiB \
                 pages and their capacity and associativity may be wrong"
            ));
            false
        }
    };
    progress("CPU: frequency, add, multiply, divide, square root, packed, FMA");
    let timings = cpu::measure(&shop, opts.quick)?;
    notes.extend(timings.notes()?);
    let frequency_mhz = timings.frequency_mhz()?;
    let ghz = frequency_mhz / 1000.0;
    progress("compiling the pointer-chasing benchmark");
    let mut chaser = caches::Chaser::build(&shop, huge, opts.quick)?;
    let hierarchy = caches::measure(&mut chaser, progress)?;
    let tlb = match hierarchy.levels.first() {
        Some(l1) if l1.method == model::hardware::CacheMethod::CompactSequences => {
            progress("TLB");
            let t = tlb::measure(&chaser, &l1.geometry, &l1.hit)?;
            if t.is_none() {
                notes.push("TLB: no consistent answer within the L1 data cache's reach".into());
            }
            t
        }
        _ => None,
    };
    if let Some((asked, got)) = chaser.huge_shortfall {
        notes.push(format!(
            "huge pages could not be had: {} MiB asked, {} MiB granted; lower levels measured \
             on fragmented memory",
            asked >> 20,
            got >> 20
        ));
    }
    notes.extend(hierarchy.notes);
    progress("random-access latency on ordinary pages, 16 KiB to 64 MiB");
    let random_latency = caches::random_latencies(&chaser, opts.quick)?;
    let caches: Vec<CacheLevel> = hierarchy
        .levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let known = |v: u64| (v > 0).then_some(v as u32);
            CacheLevel {
                level: (i + 1) as u8,
                capacity_bytes: l.geometry.capacity_bytes,
                associativity: known(l.geometry.associativity),
                block_bytes: known(l.geometry.block_bytes),
                latency_cycles: l.hit.latency_ns * ghz,
                latency_ns: l.hit.latency_ns,
                method: l.method,
                used_huge_pages: huge && i > 0,
                exclusive: l.exclusive,
            }
        })
        .collect();
    notes.extend(shared_ways_notes(&caches, &harness::host::os_caches()));
    progress("bandwidths: read, write and copy per level and to memory");
    let bandwidths = bandwidth::measure(&shop, &caches, ghz, huge, opts.quick, &mut notes)?;
    let mut regs = Vec::new();
    for kind in [
        RegisterKind::Integer,
        RegisterKind::Double,
        RegisterKind::Simd,
    ] {
        progress(&format!("registers: {}", kind.name()));
        let n = match registers::count(&shop, kind, opts.quick) {
            Ok(n) => n,
            Err(XrayError::Compile(e)) if kind == RegisterKind::Simd => {
                notes.push(format!(
                    "SIMD registers not measured: the C sequence did not compile ({})",
                    e.lines().last().unwrap_or("")
                ));
                None
            }
            Err(e) => return Err(e),
        };
        if n.is_none() && !notes.iter().any(|m| m.contains(kind.name())) {
            notes.push(format!(
                "{} registers: no spill cost visible up to {} variables (out-of-order execution \
                 and memory renaming hide spills on this CPU)",
                kind.name(),
                128
            ));
        }
        regs.push(n);
    }
    progress("the out-of-order window");
    let window_instructions = or_note(
        window::measure(&shop, opts.quick)?,
        "out-of-order window not measured",
        &mut notes,
    );
    progress("the longest DO loop whose exit is foreseen");
    let loop_exit_trips = or_note(
        loop_exit::measure(&shop, opts.quick)?,
        "loop exits",
        &mut notes,
    );
    progress("processors and SMT");
    let (processors, smt) = cpu::processors(&shop, opts.quick)?;
    let cpu = CpuInfo {
        frequency_mhz,
        instructions: timings.instructions()?,
        has_fma: timings.has_fma()?,
        has_fpu: timings.has_fpu()?,
        integer_registers: regs[0],
        float_registers: regs[1],
        simd_registers: regs[2],
        processors,
        smt,
        window_instructions,
        loop_exit_trips,
    };
    Ok(HardwareReport {
        caches,
        memory_latency_ns: hierarchy.memory_latency_ns,
        memory_latency_cycles: hierarchy.memory_latency_ns * ghz,
        tlb,
        cpu: Some(cpu),
        bandwidths,
        random_latency,
        huge_pages: huge && chaser.huge_shortfall.is_none(),
        notes,
        wall_time_s: start.elapsed().as_secs_f64(),
    })
}

/// A measurement's value, or None with `what` and the reason it could not be made noted.
fn or_note(measured: Result<u32, String>, what: &str, notes: &mut Vec<String>) -> Option<u32> {
    measured
        .map_err(|why| notes.push(format!("{what}: {why}")))
        .ok()
}

/// A note for each level whose compact sequences found fewer ways of the operating system's way
/// size (capacity / ways times the OS's ways is the OS's size) than it has: another thread on the
/// core (on a virtual machine, a neighbour's on the sibling hardware thread) held some ways in
/// every set for the whole measurement. X-Ray reports what this process had, and says so.
pub fn shared_ways_notes(
    caches: &[CacheLevel],
    os: &[model::characterization::OsCache],
) -> Vec<String> {
    caches
        .iter()
        .filter(|c| c.method == model::hardware::CacheMethod::CompactSequences)
        .filter_map(|c| {
            let ways = u64::from(c.associativity?);
            let o = os.iter().find(|o| o.level == u32::from(c.level))?;
            let (os_bytes, os_ways) = (o.size_bytes, u64::from(o.ways?));
            let way_bytes = c.capacity_bytes / ways.max(1);
            (ways < os_ways && way_bytes * os_ways == os_bytes).then(|| {
                format!(
                    "L{}: {} KiB {}-way measured where the operating system says {} KiB ({} ways \
                     of the same sets): another thread on this core held {} of its ways \
                     throughout; the rules that use its geometry take what was measured",
                    c.level,
                    c.capacity_bytes >> 10,
                    ways,
                    os_bytes >> 10,
                    os_ways,
                    os_ways - ways
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod shared_ways_tests {
    use super::*;
    use model::characterization::OsCache;
    use model::hardware::CacheMethod;

    fn level(capacity_bytes: u64, ways: u32, method: CacheMethod) -> CacheLevel {
        CacheLevel {
            level: 1,
            capacity_bytes,
            associativity: Some(ways),
            block_bytes: Some(64),
            latency_cycles: 5.0,
            latency_ns: 1.2,
            method,
            used_huge_pages: false,
            exclusive: false,
        }
    }

    #[test]
    fn fewer_ways_of_the_same_sets_than_the_os_says_are_noted() {
        let os = [OsCache {
            level: 1,
            kind: "Data".into(),
            size_bytes: 48 << 10,
            ways: Some(12),
        }];
        let notes = shared_ways_notes(&[level(40 << 10, 10, CacheMethod::CompactSequences)], &os);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("held 2 of its ways"), "{}", notes[0]);
        // The OS's own geometry, another way size, or an effective capacity: no note.
        for c in [
            level(48 << 10, 12, CacheMethod::CompactSequences),
            level(40 << 10, 5, CacheMethod::CompactSequences),
            level(40 << 10, 10, CacheMethod::EffectiveCapacity),
        ] {
            assert!(shared_ways_notes(&[c], &os).is_empty());
        }
    }
}

//! Text renderings shared by several commands (CLI-only: tables and units for people).

use export::Table;
use model::hardware::{CacheMethod, HardwareReport};

fn opt(v: Option<u32>, unit: &str) -> String {
    v.map_or("-".to_string(), |v| format!("{v}{unit}"))
}

fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// The bandwidth table (empty for a report measured before bandwidths were).
fn bandwidths(r: &HardwareReport) -> String {
    if r.bandwidths.is_empty() {
        return String::new();
    }
    let mut t = Table::new(&[
        "level",
        "footprint",
        "read (GB/s)",
        "write (GB/s)",
        "copy (GB/s)",
        "read (B/cycle)",
    ])
    .right_from(1);
    for b in &r.bandwidths {
        t.push(vec![
            b.level.map_or("memory".into(), |l| format!("L{l}")),
            size(b.footprint_bytes),
            format!("{:.1}", b.read_bytes_per_ns),
            format!("{:.1}", b.write_bytes_per_ns),
            format!("{:.1}", b.copy_bytes_per_ns),
            format!("{:.1}", b.read_bytes_per_cycle),
        ]);
    }
    format!(
        "Bandwidths (one thread, streams over the footprint, best of repetitions)\n{}\n",
        t.to_text()
    )
}

/// The report as text: a table of cache levels, then the CPU parameters and the notes.
pub fn hardware_report(r: &HardwareReport) -> String {
    let mut out = String::new();
    let mut t = Table::new(&[
        "level",
        "capacity",
        "assoc.",
        "block",
        "latency (cycles)",
        "latency (ns)",
        "method",
    ])
    .right(&[
        "capacity",
        "assoc.",
        "block",
        "latency (cycles)",
        "latency (ns)",
    ]);
    for c in &r.caches {
        let method = match c.method {
            CacheMethod::CompactSequences => "compact sequences",
            CacheMethod::EffectiveCapacity => "effective capacity",
        };
        t.push(vec![
            format!(
                "L{}{}",
                c.level,
                if c.exclusive { " (exclusive)" } else { "" }
            ),
            size(c.capacity_bytes),
            opt(c.associativity, "-way"),
            opt(c.block_bytes, " B"),
            format!("{:.1}", c.latency_cycles),
            format!("{:.2}", c.latency_ns),
            method.into(),
        ]);
    }
    t.push(vec![
        "memory".into(),
        String::new(),
        String::new(),
        String::new(),
        format!("{:.0}", r.memory_latency_cycles),
        format!("{:.1}", r.memory_latency_ns),
        "pseudo-random chase, 128 MiB".into(),
    ]);
    out.push_str("Memory hierarchy (X-Ray)\n");
    out.push_str(&t.to_text());
    out.push_str(&format!(
        "super pages: {}\n\n",
        if r.huge_pages {
            "yes (transparent huge pages, 2 MiB)"
        } else {
            "no"
        }
    ));
    if !r.random_latency.is_empty() {
        let points: Vec<String> = r
            .random_latency
            .iter()
            .map(|p| format!("{} {:.1}", size(p.bytes), p.ns))
            .collect();
        out.push_str(&format!(
            "Random-access latency on 4 KiB pages, ns (rule 33): {}\n\n",
            points.join(", ")
        ));
    }
    if let Some(tlb) = &r.tlb {
        out.push_str(&format!(
            "TLB (first level, data): {} entries, {} KiB pages, miss penalty {:.1} ns\n\n",
            tlb.entries,
            tlb.page_bytes >> 10,
            tlb.miss_penalty_ns
        ));
    }
    out.push_str(&bandwidths(r));
    if let Some(cpu) = &r.cpu {
        out.push_str("CPU (X-Ray)\n");
        out.push_str(&format!(
            "frequency: {:.0} MHz (dependent integer additions)\n",
            cpu.frequency_mhz
        ));
        // Packed rows: throughput per instruction of the width shown, no latency measured.
        let mut t = Table::new(&[
            "operation",
            "code",
            "latency (cycles)",
            "throughput (cycles)",
        ])
        .right_from(2);
        for i in &cpu.instructions {
            t.push(vec![
                i.name.to_string(),
                i.vector_bits
                    .map_or("scalar".to_string(), |b| format!("packed {b}-bit")),
                i.latency_cycles
                    .map_or("-".to_string(), |l| format!("{l:.2}")),
                format!("{:.2}", i.throughput_cycles),
            ]);
        }
        out.push_str(&t.to_text());
        let yes = |b: bool| if b { "yes" } else { "no" };
        out.push_str(&format!(
            "fused multiply-add: {}   hardware floating point: {}\n",
            yes(cpu.has_fma),
            yes(cpu.has_fpu)
        ));
        let reg = |v: Option<u32>| v.map_or("not measurable".to_string(), |v| v.to_string());
        out.push_str(&format!(
            "usable registers: integer {}, double {}, SIMD {}\n",
            reg(cpu.integer_registers),
            reg(cpu.float_registers),
            reg(cpu.simd_registers)
        ));
        out.push_str(&format!(
            "processors: {}   SMT: {}\n",
            cpu.processors,
            yes(cpu.smt)
        ));
        if let Some(w) = cpu.window_instructions {
            out.push_str(&format!(
                "out-of-order window: {w} instructions in flight\n"
            ));
        }
        if let Some(t) = cpu.loop_exit_trips {
            out.push_str(&format!(
                "DO loop exits foreseen up to {t} trips (longer loops miss their exit)\n"
            ));
        }
    }
    for n in &r.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str(&format!("measured in {:.1} s\n", r.wall_time_s));
    out
}

#[cfg(test)]
mod tests {
    use model::hardware::Bandwidth;

    #[test]
    fn bandwidths_are_a_table_of_levels_then_memory() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/characterizations/amd-epyc-2c--gfortran-O0.json"
        );
        let c: model::Characterization =
            model::parse_versioned(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut r = c.xray.unwrap();
        assert!(r.bandwidths.is_empty(), "an older file reads without them");
        assert!(!super::hardware_report(&r).contains("Bandwidths"));
        let bw = |level, footprint_bytes, read: f64| Bandwidth {
            level,
            footprint_bytes,
            read_bytes_per_ns: read,
            write_bytes_per_ns: read / 2.0,
            copy_bytes_per_ns: read / 3.0,
            read_bytes_per_cycle: read / 3.0,
            write_bytes_per_cycle: read / 6.0,
            copy_bytes_per_cycle: read / 9.0,
        };
        r.bandwidths = vec![bw(Some(1), 16 << 10, 96.0), bw(None, 128 << 20, 12.0)];
        let text = super::hardware_report(&r);
        let table = text.split("Bandwidths").nth(1).unwrap();
        let l1 = table.lines().find(|l| l.starts_with("L1")).unwrap();
        assert!(l1.contains("16 KiB") && l1.contains("96.0") && l1.contains("48.0"));
        let memory = table.lines().find(|l| l.starts_with("memory")).unwrap();
        assert!(memory.contains("128 MiB") && memory.contains("12.0") && memory.contains("4.0"));
    }
}

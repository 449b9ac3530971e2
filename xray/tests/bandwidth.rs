//! The bandwidth streams on the machine that runs the tests, through real gfortran, over the
//! cache levels the OS reports (ground truth stands in for X-Ray's levels, to keep the test
//! short). Invariants only, never absolute figures: the host may be a busy VM.

use model::hardware::{CacheLevel, CacheMethod};

fn have_gfortran() -> bool {
    std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok()
}

/// The OS's data and unified caches as X-Ray levels (32 KiB and 1 MiB when it says nothing).
fn os_levels() -> Vec<CacheLevel> {
    let mut sizes: Vec<u64> = harness::machine_info()
        .os_caches
        .iter()
        .map(|c| c.size_bytes)
        .collect();
    if sizes.is_empty() {
        sizes = vec![32 << 10, 1 << 20];
    }
    sizes
        .iter()
        .enumerate()
        .map(|(i, &capacity_bytes)| CacheLevel {
            level: i as u8 + 1,
            capacity_bytes,
            associativity: None,
            block_bytes: None,
            latency_cycles: 0.0,
            latency_ns: 0.0,
            method: CacheMethod::EffectiveCapacity,
            used_huge_pages: false,
            exclusive: false,
        })
        .collect()
}

#[test]
fn bandwidths_fall_from_l1_to_memory() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let compiler = harness::Compiler::find(None, &[]).unwrap();
    let shop = xray::bench::Workshop::new(&compiler).unwrap();
    let levels = os_levels();
    let mut notes = Vec::new();
    let start = std::time::Instant::now();
    let huge = xray::huge_pages_available().is_ok();
    let bw = xray::bandwidth::measure(&shop, &levels, 2.0, huge, true, &mut notes).unwrap();
    eprintln!("{:.2} s: {bw:#?} {notes:?}", start.elapsed().as_secs_f64());
    assert_eq!(bw.len(), levels.len() + 1, "{bw:?}");
    for b in &bw {
        for v in [
            b.read_bytes_per_ns,
            b.write_bytes_per_ns,
            b.copy_bytes_per_ns,
        ] {
            assert!(v.is_finite() && v > 0.0, "{b:?}");
        }
        assert!((b.read_bytes_per_cycle * 2.0 - b.read_bytes_per_ns).abs() < 1e-9);
    }
    for w in bw.windows(2) {
        assert!(w[1].footprint_bytes > w[0].footprint_bytes, "{bw:?}");
    }
    let memory = bw.last().unwrap();
    assert_eq!(memory.level, None);
    assert_eq!(bw[0].level, Some(1));
    assert!(
        bw[0].read_bytes_per_ns >= 1.5 * memory.read_bytes_per_ns,
        "L1 read no faster than memory: {bw:?}"
    );
}

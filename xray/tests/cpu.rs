//! The CPU nano-benchmarks on the machine that runs the tests, through real gfortran, quick
//! mode. Invariants and ratios only, never absolute figures: the host may be a busy VM.

use model::hardware::{InstructionTiming, ARITHMETIC_ROW};

/// The rows of one scalar instruction, each with a latency: not the packed rows, nor rule
/// 17c's arithmetic rate (a throughput over several instructions).
fn scalar_instructions(rows: &[InstructionTiming]) -> impl Iterator<Item = &InstructionTiming> {
    rows.iter()
        .filter(|r| r.vector_bits.is_none() && r.name != ARITHMETIC_ROW)
}

fn have_gfortran() -> bool {
    std::process::Command::new("gfortran")
        .arg("--version")
        .output()
        .is_ok()
}

fn row<'a>(
    rows: &'a [InstructionTiming],
    name: &str,
    packed: bool,
) -> Option<&'a InstructionTiming> {
    rows.iter()
        .find(|r| r.name == name && r.vector_bits.is_some() == packed)
}

#[test]
fn divide_square_root_and_packed_rows_are_consistent() {
    if !have_gfortran() {
        eprintln!("skipping: gfortran is not installed");
        return;
    }
    let compiler = harness::Compiler::find(None, &[]).unwrap();
    let shop = xray::bench::Workshop::new(&compiler).unwrap();
    let start = std::time::Instant::now();
    let timings = xray::cpu::measure(&shop, true).unwrap();
    let rows = timings.instructions().unwrap();
    let notes = timings.notes().unwrap();
    eprintln!(
        "{:.2} s: {rows:#?} {notes:?}",
        start.elapsed().as_secs_f64()
    );

    for precision in ["single", "double"] {
        let scalar = |op: &str| {
            row(&rows, &format!("{precision} {op}"), false)
                .unwrap_or_else(|| panic!("no scalar {precision} {op}: {rows:?}"))
        };
        // Division and square root are not pipelined like addition (2 % for noise).
        for op in ["divide", "square root"] {
            assert!(
                scalar(op).throughput_cycles > 1.02 * scalar("add").throughput_cycles,
                "{precision} {op} vs add: {rows:?}"
            );
        }
        // A packed instruction does several operations at about a scalar one's cost: within
        // 0.5x..8x of its scalar counterpart's throughput (wide divides are slower per
        // instruction on some CPUs, a shared port can make them slightly faster).
        for (op, scalar_op) in [
            ("add", "add"),
            ("multiply", "multiply"),
            ("fused multiply-add", "multiply"),
            ("divide", "divide"),
            ("square root", "square root"),
        ] {
            let Some(p) = row(&rows, &format!("{precision} {op}"), true) else {
                let missing = format!("packed {precision} {op} not measured");
                assert!(
                    op == "fused multiply-add" || notes.iter().any(|n| n.starts_with(&missing)),
                    "a missing packed row is explained: {notes:?}"
                );
                continue;
            };
            assert!(matches!(p.vector_bits, Some(128 | 256 | 512)), "{p:?}");
            assert_eq!(p.latency_cycles, None, "{p:?}");
            let ratio = p.throughput_cycles / scalar(scalar_op).throughput_cycles;
            assert!(
                (0.5..8.0).contains(&ratio),
                "{p:?}: {ratio:.2}x the scalar {scalar_op}"
            );
        }
    }
    // Every scalar latency is at least its throughput (10 % for noise).
    for r in scalar_instructions(&rows) {
        let lat = r.latency_cycles.expect("a scalar row has a latency");
        assert!(lat >= 0.9 * r.throughput_cycles, "{r:?}");
    }
    // Rule 17c: the additions' loop holds at least its eight additions among its arithmetic
    // instructions, so one of those costs no more than an addition's share of the loop.
    let arithmetic = row(&rows, ARITHMETIC_ROW, false).expect("the arithmetic rate");
    let add = row(&rows, "integer add", false).unwrap();
    assert_eq!(arithmetic.latency_cycles, None);
    assert!(
        arithmetic.throughput_cycles > 0.0
            && arithmetic.throughput_cycles <= 1.0001 * add.throughput_cycles,
        "{arithmetic:?} {add:?}"
    );
    // x86-64 has packed additions at least since SSE2, and gfortran vectorizes the kernel.
    if cfg!(target_arch = "x86_64") {
        assert!(
            row(&rows, "double add", true).is_some(),
            "{rows:?} {notes:?}"
        );
    }
}

/// A latency kernel is a chain no compiler may regroup: LLVM (flang-new) turned eight
/// `a = a * m` into one multiply by m**8, and reported the integer multiply at 0.05 cycles.
/// A dependent operation takes a cycle at least, under every compiler installed here.
#[test]
fn every_scalar_latency_is_a_cycle_at_least_whatever_the_compiler() {
    for name in ["gfortran", "flang-new-19", "flang-new-16", "flang-new"] {
        let Ok(compiler) = harness::Compiler::find(Some(name), &[]) else {
            eprintln!("skipping {name}: not installed");
            continue;
        };
        let shop = xray::bench::Workshop::new(&compiler).unwrap();
        let rows = xray::cpu::measure(&shop, true)
            .unwrap()
            .instructions()
            .unwrap();
        for r in scalar_instructions(&rows) {
            let lat = r.latency_cycles.expect("a scalar row has a latency");
            assert!(lat >= 0.9, "{name}: {r:?}");
        }
    }
}

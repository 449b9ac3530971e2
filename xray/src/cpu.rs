//! CPU parameters (X-Ray): clock frequency from a chain of dependent integer additions,
//! latency and throughput of integer and floating-point add and multiply, fused multiply-add
//! and FPU existence, processors and SMT by concurrent instances.

use crate::bench::{self, Workshop};
use crate::XrayError;
use model::hardware::InstructionTiming;
use std::path::PathBuf;
use std::time::Duration;

const MAIN: &str = include_str!("fortran/cpu_main.f90");
const KERNELS: &str = include_str!("fortran/cpu_kernels.f90");
const FP4: &str = include_str!("fortran/fp_kernels_r4.f90");
const FP8: &str = include_str!("fortran/fp_kernels_r8.f90");
const MADD: &str = include_str!("fortran/madd.f90");
const SPIN: &str = include_str!("fortran/spin.f90");

/// The timings of the nano-benchmarks, nanoseconds per operation (minimum over repetitions).
#[derive(Debug, Clone)]
pub struct CpuTimings {
    pub ns: Vec<(String, f64)>,
}

impl CpuTimings {
    pub fn get(&self, name: &str) -> Result<f64, XrayError> {
        self.ns
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                XrayError::Measurement(format!("the CPU benchmark did not report {name}"))
            })
    }

    /// Seed 000: dependent integer additions run one per cycle.
    pub fn frequency_mhz(&self) -> Result<f64, XrayError> {
        Ok(1000.0 / self.get("int_add_lat")?)
    }

    pub fn instructions(&self) -> Result<Vec<InstructionTiming>, XrayError> {
        let ghz = self.frequency_mhz()? / 1000.0;
        let rows = [
            ("integer add", "int_add"),
            ("integer multiply", "int_mul"),
            ("single add", "r4_add"),
            ("single multiply", "r4_mul"),
            ("double add", "r8_add"),
            ("double multiply", "r8_mul"),
        ];
        rows.iter()
            .map(|(name, key)| {
                Ok(InstructionTiming {
                    name: name.to_string(),
                    latency_cycles: self.get(&format!("{key}_lat"))? * ghz,
                    throughput_cycles: self.get(&format!("{key}_thr"))? * ghz,
                })
            })
            .collect()
    }

    /// Seed 000 compares multiply-add with separate multiply and add; a dependent chain shows
    /// it best: fused, one x*y+z costs one FMA latency, not a multiply's plus an add's.
    pub fn has_fma(&self) -> Result<bool, XrayError> {
        Ok(self.get("madd_fused")? < 0.8 * self.get("madd_separate")?)
    }

    /// Hardware floating point: a double add takes a few cycles; software emulation takes
    /// tens to hundreds (X-Ray).
    pub fn has_fpu(&self) -> Result<bool, XrayError> {
        let cycles = self.get("r8_add_lat")? * self.frequency_mhz()? / 1000.0;
        Ok(cycles < 20.0)
    }
}

/// Build and run the nano-benchmarks.
pub fn measure(shop: &Workshop, quick: bool) -> Result<CpuTimings, XrayError> {
    let fused = MADD.replace("NAME", "madd_fused");
    let separate = MADD.replace("NAME", "madd_separate");
    // -O1: operands in registers, no vectorization of the independent chains. The multiply-add
    // chain is compiled for this machine (-march=native) at -O2, where gfortran contracts
    // x*y+z when the hardware can; the separate version forbids the contraction.
    let plain: &[&str] = &["-O1", "-fno-tree-vectorize"];
    let native: &[&str] = &["-O2", "-march=native"];
    let native_off: &[&str] = &["-O2", "-march=native", "-ffp-contract=off"];
    let exe = shop
        .build(
            "cpu",
            &[
                ("cpu_kernels.f90", KERNELS, plain),
                ("fp_kernels_r4.f90", FP4, plain),
                ("fp_kernels_r8.f90", FP8, plain),
                ("madd_fused.f90", &fused, native),
                ("madd_separate.f90", &separate, native_off),
                ("cpu_main.f90", MAIN, plain),
            ],
        )
        .or_else(|_| {
            // A compiler without -march=native: the same, for its default target.
            shop.build(
                "cpu",
                &[
                    ("cpu_kernels.f90", KERNELS, plain),
                    ("fp_kernels_r4.f90", FP4, plain),
                    ("fp_kernels_r8.f90", FP8, plain),
                    ("madd_fused.f90", &fused, &["-O2"]),
                    (
                        "madd_separate.f90",
                        &separate,
                        &["-O2", "-ffp-contract=off"],
                    ),
                    ("cpu_main.f90", MAIN, plain),
                ],
            )
        })?;
    // Many short runs: one that fits between two preemptions of a busy machine shows the
    // hardware alone, and the minimum keeps it.
    let (reps, target_ns) = if quick { (11, 300_000) } else { (31, 300_000) };
    let input = format!("{reps} {target_ns}\n1 2 3\n1.0 1.25 0.8\n1.0 1.25 0.8\n");
    let out = bench::run(&exe, &[], &input, Duration::from_secs(60))?;
    let ns = out
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some("K")).then_some(())?;
            let name = w.next()?.to_string();
            let min: f64 = w.next()?.parse().ok()?;
            Some((name, min))
        })
        .collect::<Vec<_>>();
    if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
        eprintln!("  CPU nano-benchmarks (ns per operation): {ns:?}");
    }
    Ok(CpuTimings { ns })
}

/// Processors and SMT by concurrent instances (X-Ray). k copies of the same work run at
/// once. Each copy reports its best short run (ns per dependent add: slowed only by hardware
/// shared with a sibling, i.e. SMT) and its total time (slowed also by sharing one processor
/// through time slicing). Processors = the largest k whose copies finish together within
/// 1.4x of one copy's time (best of three tries: other load only ever slows); SMT = k copies
/// on the OS's logical processors slow each other's best runs by more than 1.3x. The OS's
/// count of logical processors bounds k. Returns (processors, smt).
pub fn processors(shop: &Workshop, quick: bool) -> Result<(u32, bool), XrayError> {
    let exe: PathBuf = shop.build("spin", &[("spin.f90", SPIN, &["-O1"])])?;
    let logical = std::thread::available_parallelism().map_or(1, |n| n.get());
    // About 0.2 ms per short run; 100 ms (quick: 40 ms) in all.
    let (iters, reps): (u64, u64) = (70_000, if quick { 200 } else { 500 });
    let run_k = |k: usize| -> Result<(f64, f64), XrayError> {
        let children: Vec<_> = (0..k)
            .map(|_| {
                let exe = exe.clone();
                std::thread::spawn(move || {
                    bench::run(
                        &exe,
                        &[],
                        &format!("{iters} {reps}\n"),
                        Duration::from_secs(60),
                    )
                })
            })
            .collect();
        let (mut best, mut total) = (0.0f64, 0.0f64);
        for c in children {
            let out = c
                .join()
                .map_err(|_| XrayError::Run("an SMP test thread panicked".into()))??;
            let get = |tag: &str| {
                bench::tagged_numbers(&out, tag)
                    .first()
                    .and_then(|v| v.first().copied())
                    .ok_or_else(|| XrayError::Run(format!("the SMP test printed no {tag}")))
            };
            best = best.max(get("T")?);
            total = total.max(get("W")?);
        }
        Ok((best, total))
    };
    let best_of_three = |k: usize| -> Result<(f64, f64), XrayError> {
        let mut r = (f64::INFINITY, f64::INFINITY);
        for _ in 0..3 {
            let (b, t) = run_k(k)?;
            r = (r.0.min(b), r.1.min(t));
        }
        Ok(r)
    };
    let (single_best, single_total) = best_of_three(1)?;
    let mut processors = 1u32;
    let mut smt = false;
    for k in 2..=logical {
        let (best, total) = best_of_three(k)?;
        if best > 1.3 * single_best {
            smt = true;
        }
        if total <= 1.4 * single_total {
            processors = k as u32;
        } else {
            break;
        }
    }
    if std::env::var_os("OPCOST_XRAY_TRACE").is_some() {
        eprintln!("  SMP: {processors} processors of {logical} logical, SMT {smt}");
    }
    Ok((processors, smt))
}

//! CPU parameters (X-Ray): clock frequency from a chain of dependent integer additions,
//! latency and throughput of integer and floating-point add and multiply and of floating-point
//! divide and square root, packed (vector) throughput of the floating-point classes, fused
//! multiply-add and FPU existence, processors and SMT by concurrent instances.
//!
//! X-Ray (Yotov, Pingali & Stodghill, "X-Ray: A Tool for Automatic Measurement of Hardware
//! Parameters") measures latency and throughput of each instruction class with generated
//! nano-benchmarks instead of looking them up; issue 27 item 3 extends that to division,
//! square root and the packed instructions a vectorized loop executes, so the predictor can
//! charge an optimized loop by what this machine does, not by a table.

use crate::bench::{self, Workshop};
use crate::XrayError;
use harness::loops::{innermost_loops, FpOps, MachineLoop, PassCounts};
use model::hardware::{InstructionTiming, ARITHMETIC_ROW};
use std::path::PathBuf;
use std::time::Duration;

const MAIN: &str = include_str!("fortran/cpu_main.f90");
const KERNELS: &str = include_str!("fortran/cpu_kernels.f90");
/// Scalar floating-point kernels for the REAL kind substituted for `WP` (4 and 8).
const FP: &str = include_str!("fortran/fp_kernels.f90");
const MADD: &str = include_str!("fortran/madd.f90");
const VECTOR: &str = include_str!("fortran/vec_kernels.f90");
const SPIN: &str = include_str!("fortran/spin.f90");

/// Elements of each vector kernel's array (`NELEM`): 4 KiB of REAL, 8 KiB of DOUBLE
/// PRECISION, resident in any L1 data cache; a multiple of every vector width's lanes.
const VECTOR_ELEMENTS: u64 = 1024;
/// Dependent operations of the kernel's class per element and pass (vec_kernels.f90).
const VECTOR_OPS_PER_ELEMENT: u64 = 8;

/// An instruction class of a packed measurement, as [`PassCounts`] counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FpClass {
    /// Add, subtract, multiply (arithmetic other than the three below).
    Plain,
    Fma,
    Div,
    Sqrt,
}

impl FpClass {
    /// The class's instructions in one pass.
    fn ops(self, pass: &PassCounts) -> FpOps {
        match self {
            FpClass::Fma => pass.fma.clone(),
            FpClass::Div => pass.div.clone(),
            FpClass::Sqrt => pass.sqrt.clone(),
            FpClass::Plain => {
                let mut plain = pass.fp.clone();
                for special in [&pass.fma, &pass.div, &pass.sqrt] {
                    plain.scalar = plain.scalar.saturating_sub(special.scalar);
                    for (w, n) in &special.packed {
                        let left = plain.packed.entry(*w).or_default();
                        *left = left.saturating_sub(*n);
                    }
                }
                plain.packed.retain(|_, n| *n > 0);
                plain
            }
        }
    }
}

/// Flags of the scalar kernels (cpu_kernels.f90, the FP kernels) and their driver: no
/// vectorization, so each source operation stays one instruction.
const SCALAR_FLAGS: &[&str] = &["-O1", "-fno-tree-vectorize"];

/// Additions of one iteration of `int_add_thr` (cpu_kernels.f90), whose time per operation
/// the benchmark reports.
const INT_ADD_THR_OPS: u64 = 8;

/// The vector kernels: row name, subroutine stem in vec_kernels.f90, class.
const VECTOR_KERNELS: [(&str, &str, FpClass); 5] = [
    ("add", "vadd", FpClass::Plain),
    ("multiply", "vmul", FpClass::Plain),
    ("fused multiply-add", "vfma", FpClass::Fma),
    ("divide", "vdiv", FpClass::Div),
    ("square root", "vsqrt", FpClass::Sqrt),
];

/// The precisions: row prefix, kernel suffix, element bytes.
const PRECISIONS: [(&str, &str, u32); 2] = [("single", "r4", 4), ("double", "r8", 8)];

/// What a vector kernel's listing shows: its loop's packed instructions of the kernel's
/// class are `bits` wide and each does `lanes` of the source's operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packed {
    pub bits: u32,
    pub lanes: u64,
}

/// Read a vector kernel's code: in the innermost loop of `function` (the assembler's name,
/// `vadd_r8_`) with the most packed instructions of `class`, those instructions must be all
/// of the class's, of one width, and do exactly the source's `ops_per_element` operations
/// for each element a pass covers. Anything else (not vectorized, partly scalar, a step not
/// recognized) is refused with the reason: the time would not measure a packed instruction.
pub fn packed_shape(
    asm: &str,
    function: &str,
    class: FpClass,
    element_bytes: u32,
    ops_per_element: u64,
) -> Result<Packed, String> {
    let loops = innermost_loops(asm);
    let timed = loops
        .iter()
        .filter(|l| l.function == function)
        .max_by_key(|l| class.ops(&l.pass).packed.values().sum::<u64>())
        .ok_or_else(|| format!("no loop in {function}"))?;
    let ops = class.ops(&timed.pass);
    let packed: u64 = ops.packed.values().sum();
    let width = match (ops.widest(), ops.packed.len(), ops.scalar) {
        (None, ..) => return Err("not vectorized: no packed instruction in its loop".into()),
        (Some(w), 1, 0) => w,
        _ => {
            return Err(format!(
                "its loop mixes widths or scalar code ({} scalar, packed by bytes {:?})",
                ops.scalar, ops.packed
            ))
        }
    };
    let lanes = u64::from(width / element_bytes);
    let elements = timed
        .iterations_per_pass(&[u64::from(element_bytes)])
        .ok_or("its loop's step per pass is not recognized")?;
    if packed * lanes != ops_per_element * elements {
        return Err(format!(
            "its loop runs {packed} packed instructions of {lanes} lanes for {} operations",
            ops_per_element * elements
        ));
    }
    Ok(Packed {
        bits: width * 8,
        lanes,
    })
}

/// A vector kernel and what its listing says of it.
#[derive(Debug, Clone)]
pub struct VectorKernel {
    /// The row's name, `double add`.
    pub name: String,
    /// The timing's key, `r8_vadd`.
    pub key: String,
    pub class: FpClass,
    /// [`packed_shape`]'s verdict.
    pub shape: Result<Packed, String>,
}

/// The timings of the nano-benchmarks, nanoseconds per operation (minimum over repetitions),
/// and the vector kernels' listings.
#[derive(Debug, Clone)]
pub struct CpuTimings {
    pub ns: Vec<(String, f64)>,
    pub vector: Vec<VectorKernel>,
    /// Rule 17c: the arithmetic instructions ([`PassCounts::arithmetic`]) of one source
    /// iteration of `int_add_thr`'s loop as built; None when its listing shows no loop.
    pub arithmetic_per_iteration: Option<f64>,
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

    /// Scalar rows (latency and throughput), then the packed rows the listings vouch for
    /// (throughput per instruction and width).
    pub fn instructions(&self) -> Result<Vec<InstructionTiming>, XrayError> {
        let ghz = self.frequency_mhz()? / 1000.0;
        let rows = [
            ("integer add", "int_add"),
            ("integer multiply", "int_mul"),
            ("single add", "r4_add"),
            ("single multiply", "r4_mul"),
            ("double add", "r8_add"),
            ("double multiply", "r8_mul"),
            ("single divide", "r4_div"),
            ("double divide", "r8_div"),
            ("single square root", "r4_sqrt"),
            ("double square root", "r8_sqrt"),
        ];
        let mut out = rows
            .iter()
            .map(|(name, key)| {
                let mut latency = self.get(&format!("{key}_lat"))?;
                if let Some(kind) = key.strip_suffix("_sqrt") {
                    // The chain's one multiplication per 8 roots (fp_kernels: sqrt_lat).
                    latency -= self.get(&format!("{kind}_mul_lat"))? / 8.0;
                }
                Ok(InstructionTiming {
                    name: name.to_string(),
                    latency_cycles: Some(latency * ghz),
                    throughput_cycles: self.get(&format!("{key}_thr"))? * ghz,
                    vector_bits: None,
                })
            })
            .collect::<Result<Vec<_>, XrayError>>()?;
        // Rule 17c: the independent additions keep the arithmetic ports busy; their
        // iteration's time over its arithmetic instructions is what one of those costs.
        if let Some(per_iteration) = self.arithmetic_per_iteration.filter(|&n| n > 0.0) {
            let iteration_ns = self.get("int_add_thr")? * INT_ADD_THR_OPS as f64;
            out.push(InstructionTiming {
                name: ARITHMETIC_ROW.to_string(),
                latency_cycles: None,
                throughput_cycles: iteration_ns / per_iteration * ghz,
                vector_bits: None,
            });
        }
        // A pass of a vector kernel's loop does `lanes` operations per packed instruction
        // (packed_shape checked it), so one instruction costs `lanes` operations' time.
        for v in self.vector_rows()? {
            if let Ok(p) = &v.shape {
                out.push(InstructionTiming {
                    name: v.name.clone(),
                    latency_cycles: None,
                    throughput_cycles: self.get(&v.key)? * p.lanes as f64 * ghz,
                    vector_bits: Some(p.bits),
                });
            }
        }
        Ok(out)
    }

    /// Why packed rows are missing: each vector kernel whose listing was refused.
    pub fn notes(&self) -> Result<Vec<String>, XrayError> {
        Ok(self
            .vector_rows()?
            .into_iter()
            .filter_map(|v| {
                let why = v.shape.as_ref().err()?;
                Some(format!("packed {} not measured: {why}", v.name))
            })
            .collect())
    }

    /// The vector kernels to report: fused multiply-add only on a machine that has it.
    fn vector_rows(&self) -> Result<Vec<&VectorKernel>, XrayError> {
        let fma = self.has_fma()?;
        Ok(self
            .vector
            .iter()
            .filter(|v| fma || v.class != FpClass::Fma)
            .collect())
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
    let (exe, vector, arithmetic_per_iteration) = build(shop, &["-march=native"])
        // A compiler without -march=native: the same, for its default target.
        .or_else(|_| build(shop, &[]))?;
    // Many short runs: one that fits between two preemptions of a busy machine shows the
    // hardware alone, and the minimum keeps it.
    let (reps, target_ns) = if quick { (11, 300_000) } else { (31, 300_000) };
    let input =
        format!("{reps} {target_ns}\n1 2 3\n1.0 1.25 0.8\n1.0 1.25 0.8\n1.1 1.3\n1.1 1.3\n");
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
        eprintln!("  vector kernels: {vector:?}");
    }
    Ok(CpuTimings {
        ns,
        vector,
        arithmetic_per_iteration,
    })
}

/// Rule 17c: the arithmetic instructions of one source iteration of `int_add_thr`'s loop in
/// the listing `asm` (a pass over the iterations its counter steps by); None without it.
pub fn arithmetic_per_iteration(asm: &str) -> Option<f64> {
    let timed = int_add_loop(asm)?;
    let iterations = timed.counter_step.map_or(1, |s| s.unsigned_abs().max(1));
    Some(timed.pass.arithmetic() as f64 / iterations as f64)
}

/// The timed loop of `int_add_thr` in the listing `asm`: its innermost loop with the most
/// instructions; None without one.
fn int_add_loop(asm: &str) -> Option<MachineLoop> {
    innermost_loops(asm)
        .into_iter()
        .filter(|l| l.function == "int_add_thr_")
        .max_by_key(|l| l.pass.instructions)
}

/// Compile the nano-benchmarks with `target` (`-march=native`, or nothing) for the code
/// compiled for this machine, and read the vector kernels' listings. -O1: operands in
/// registers, no vectorization of the independent chains. The multiply-add chain is built
/// at -O2, where gfortran contracts x*y+z when the hardware can; the separate version
/// forbids the contraction. The vector kernels are built at -O2 with vectorization, to an
/// assembly listing that is read and then assembled: the code timed is the code read.
fn build(
    shop: &Workshop,
    target: &[&str],
) -> Result<(PathBuf, Vec<VectorKernel>, Option<f64>), XrayError> {
    // The scalar kernels go through a listing too, read for rule 17c's arithmetic rate.
    let scalar_asm = shop.listing("cpu_kernels.f90", KERNELS, SCALAR_FLAGS)?;
    let arithmetic = arithmetic_per_iteration(&scalar_asm);
    let with = |flags: &[&'static str]| [&["-O2"], target, flags].concat();
    let (fused_flags, separate_flags) = (with(&[]), with(&["-ffp-contract=off"]));
    let vector_flags = with(&["-ftree-vectorize"]);
    let fused = MADD.replace("NAME", "madd_fused");
    let separate = MADD.replace("NAME", "madd_separate");
    let elements = VECTOR_ELEMENTS.to_string();
    let main = MAIN.replace("NELEM", &elements);
    let (fp4, fp8) = (FP.replace("WP", "4"), FP.replace("WP", "8"));
    let mut listings = Vec::new();
    let mut kernels = Vec::new();
    for (prefix, kind, bytes) in PRECISIONS {
        let file = format!("vec_kernels_{kind}");
        let text = VECTOR
            .replace("WP", &bytes.to_string())
            .replace("NELEM", &elements);
        let asm = shop.listing(&format!("{file}.f90"), &text, &vector_flags)?;
        for (op, stem, class) in VECTOR_KERNELS {
            let function = format!("{stem}_{kind}_");
            kernels.push(VectorKernel {
                name: format!("{prefix} {op}"),
                key: format!("{kind}_{stem}"),
                class,
                shape: packed_shape(&asm, &function, class, bytes, VECTOR_OPS_PER_ELEMENT),
            });
        }
        listings.push((format!("{file}.s"), asm));
    }
    let mut sources: Vec<(&str, &str, &[&str])> = vec![
        ("cpu_kernels.s", &scalar_asm, &[]),
        ("fp_kernels_r4.f90", &fp4, SCALAR_FLAGS),
        ("fp_kernels_r8.f90", &fp8, SCALAR_FLAGS),
        ("madd_fused.f90", &fused, &fused_flags),
        ("madd_separate.f90", &separate, &separate_flags),
    ];
    sources.extend(
        listings
            .iter()
            .map(|(f, asm)| (f.as_str(), asm.as_str(), &[][..])),
    );
    sources.push(("cpu_main.f90", &main, SCALAR_FLAGS));
    Ok((shop.build("cpu", &sources)?, kernels, arithmetic))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// gfortran 12's `vadd_r8` at -O2 -march=haswell: the timed loop `.L3` runs 8 packed
    /// 256-bit additions per 4 doubles (a step of 32 bytes).
    const PACKED_ADD: &str = "vadd_r8_:
	movq	(%rdi), %rdi
	testq	%rdi, %rdi
	jle	.L7
	vbroadcastsd	(%rdx), %ymm1
	incq	%rdi
	movl	$1, %ecx
	leaq	8192(%rsi), %rdx
.L4:
	movq	%rsi, %rax
.L3:
	vaddpd	(%rax), %ymm1, %ymm0
	addq	$32, %rax
	vsubpd	%ymm1, %ymm0, %ymm0
	vaddpd	%ymm1, %ymm0, %ymm0
	vsubpd	%ymm1, %ymm0, %ymm0
	vaddpd	%ymm1, %ymm0, %ymm0
	vsubpd	%ymm1, %ymm0, %ymm0
	vaddpd	%ymm1, %ymm0, %ymm0
	vsubpd	%ymm1, %ymm0, %ymm0
	vmovupd	%ymm0, -32(%rax)
	cmpq	%rax, %rdx
	jne	.L3
	incq	%rcx
	cmpq	%rcx, %rdi
	jne	.L4
	vzeroupper
.L7:
	ret
";

    /// `vdiv_r8` at -O1 -fno-tree-vectorize: scalar divisions only.
    const SCALAR_DIV: &str = "vdiv_r8_:
	movsd	(%rdx), %xmm0
	leaq	8192(%rsi), %rdx
.L22:
	movq	%rsi, %rax
.L21:
	movapd	%xmm0, %xmm2
	divsd	(%rax), %xmm2
	movapd	%xmm0, %xmm1
	divsd	%xmm2, %xmm1
	movsd	%xmm1, (%rax)
	addq	$8, %rax
	cmpq	%rdx, %rax
	jne	.L21
	addq	$1, %rcx
	cmpq	%rdi, %rcx
	jne	.L22
	ret
";

    /// Rule 17c: gfortran -O1's loop of independent additions, as X-Ray builds it, holds its
    /// eight additions and its loop control among its arithmetic instructions, and no load
    /// or store (the chains stay in registers, so the time is the ports').
    #[test]
    fn the_independent_additions_keep_to_registers_and_arithmetic() {
        let compiler = harness::Compiler::find(None, &[])
            .expect("gfortran is needed (scripts/install-deps.sh installs it)");
        let shop = Workshop::new(&compiler).unwrap();
        let asm = shop
            .listing("cpu_kernels.f90", KERNELS, SCALAR_FLAGS)
            .unwrap();
        let n = arithmetic_per_iteration(&asm).expect("int_add_thr has a loop");
        assert!((10.0..=24.0).contains(&n), "{n} arithmetic instructions");
        let timed = int_add_loop(&asm).unwrap();
        assert_eq!((timed.pass.loads, timed.pass.stores), (0, 0), "{timed:?}");
        // Without the kernel: none.
        assert_eq!(arithmetic_per_iteration(PACKED_ADD), None);
    }

    #[test]
    fn a_vectorized_kernel_gives_its_width_and_lanes() {
        let p = packed_shape(PACKED_ADD, "vadd_r8_", FpClass::Plain, 8, 8).unwrap();
        assert_eq!(
            p,
            Packed {
                bits: 256,
                lanes: 4
            }
        );
    }

    #[test]
    fn a_kernel_without_packed_instructions_of_its_class_is_refused() {
        let why = packed_shape(SCALAR_DIV, "vdiv_r8_", FpClass::Div, 8, 2).unwrap_err();
        assert!(why.contains("not vectorized"), "{why}");
        // Packed, but not of the class asked for.
        let why = packed_shape(PACKED_ADD, "vadd_r8_", FpClass::Sqrt, 8, 8).unwrap_err();
        assert!(why.contains("not vectorized"), "{why}");
        assert!(packed_shape(PACKED_ADD, "vmul_r8_", FpClass::Plain, 8, 8).is_err());
    }

    #[test]
    fn a_loop_that_does_not_do_the_sources_operations_is_refused() {
        // Read as a 4-operation kernel, the 8 additions per pass do not add up.
        let why = packed_shape(PACKED_ADD, "vadd_r8_", FpClass::Plain, 8, 4).unwrap_err();
        assert!(why.contains("8 packed instructions of 4 lanes"), "{why}");
        // A scalar instruction of the class beside the packed ones.
        let mixed = PACKED_ADD.replace(
            "\tvsubpd\t%ymm1, %ymm0, %ymm0\n\tvmovupd",
            "\tsubsd\t%xmm1, %xmm0\n\tvmovupd",
        );
        let why = packed_shape(&mixed, "vadd_r8_", FpClass::Plain, 8, 8).unwrap_err();
        assert!(why.contains("scalar"), "{why}");
    }

    #[test]
    fn the_plain_class_leaves_out_fma_division_and_square_root() {
        let mut pass = PassCounts::default();
        pass.fp.scalar = 3;
        pass.fp.packed.insert(32, 10);
        pass.fma.packed.insert(32, 4);
        pass.sqrt.packed.insert(32, 6);
        pass.div.scalar = 1;
        let plain = FpClass::Plain.ops(&pass);
        assert_eq!(plain.scalar, 2);
        assert!(plain.packed.is_empty(), "{plain:?}");
    }
}

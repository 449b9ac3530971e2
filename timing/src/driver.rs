//! Generation of the Fortran 77 timing driver for one point of a spec (Magee, Yi & Whaley section 4,
//! Whaley & Castaldo sections 2-5). The driver is fixed form; beyond Fortran 77 it uses INTEGER*8,
//! `LOC` (for MemAlign), `SYSTEM_CLOCK` with an INTEGER*8 count (nanosecond wall clock) and
//! `CPU_TIME`, all of which gfortran provides.
//!
//! Operands live in one COMMON pool per array, so nothing is on the stack and every byte is
//! written before timing (Page0Guard). A pool holds `sets` copies of its array for
//! MultiCallFlushLRU; each copy starts at an address with the requested alignment.
//!
//! The one-call method writes the operands again before every sample (so a routine that
//! overwrites its input, like SGEFA, always sees fresh data) and prints the samples only after
//! the last one: a WRITE between timed calls made the next call of SGEFA 1.7 times slower on
//! the development machine. The multi-call method cannot re-initialise inside its timed loop;
//! it suits routines whose inputs survive the call (use `alternate` scalars as RangeGuard for
//! routines that update an operand in place).

use crate::check::{Shape, Signature};
use crate::spec::{Alignment, ArgSpec, ElemType, Init, Spec};

/// How calls are timed (Whaley & Castaldo sections 3 and 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// One call per timed interval; flush by sweeping a flush area (OneCallFlushLRU).
    OneCall,
    /// Many calls per interval over working sets traversed backwards (MultiCallFlushLRU).
    MultiCall,
}

/// Which operands are out of cache when the routine is called.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlushSet {
    None,
    All,
    Operands(Vec<String>),
}

impl FlushSet {
    /// Is `name` flushed, given the spec's own `flush` marks for `All`?
    pub fn flushes(&self, name: &str, marked: bool) -> bool {
        match self {
            FlushSet::None => false,
            FlushSet::All => marked,
            FlushSet::Operands(v) => v.iter().any(|n| n.eq_ignore_ascii_case(name)),
        }
    }
}

/// Settings of one driver.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    pub method: Method,
    pub flush: FlushSet,
    /// Size of the flush area (OneCallFlushLRU) or of all working sets (MultiCallFlushLRU).
    pub flush_kb: u64,
    pub samples: u32,
    /// Shortest timed interval of the multi-call method, seconds (above timer resolution).
    pub min_interval_s: f64,
    /// Override every array's alignment (MemAlign experiments).
    pub align_override: Option<Alignment>,
}

/// Most working sets a multi-call driver allocates.
const MAX_SETS: u64 = 1 << 22;

/// Layout of one operand pool.
#[derive(Debug, Clone)]
pub struct Pool {
    pub name: String,
    pub ty: ElemType,
    pub elems: u64,
    /// Elements from one copy to the next (a multiple of the alignment).
    pub stride: u64,
    pub sets: u64,
    pub align_bytes: u64,
    pub misalign: bool,
    pub flushed: bool,
    pub init: Init,
}

impl Pool {
    /// Total elements, with the padding that lets the first copy be placed.
    pub fn total(&self) -> u64 {
        self.stride * self.sets + self.align_bytes / self.ty.bytes() + 1
    }
}

/// The pools and set count of a point.
pub fn layout(spec: &Spec, shape: &Shape, cfg: &DriverConfig) -> (Vec<Pool>, u64) {
    let mut pools: Vec<Pool> = shape
        .arrays
        .iter()
        .map(|(name, _, elems)| {
            let ArgSpec::Array(a) = &spec.args[name] else {
                unreachable!("shape arrays are spec arrays")
            };
            let align = cfg.align_override.unwrap_or(a.align);
            let (align_bytes, misalign) = match align {
                Alignment::Natural => (a.ty.bytes(), false),
                Alignment::Aligned(b) => (b, false),
                Alignment::Misaligned(b) => (b, true),
            };
            let per = (align_bytes / a.ty.bytes()).max(1);
            Pool {
                name: name.clone(),
                ty: a.ty,
                elems: *elems,
                stride: elems.div_ceil(per) * per,
                sets: 1,
                align_bytes,
                misalign,
                flushed: cfg.flush.flushes(name, a.flush),
                init: a.init.clone(),
            }
        })
        .collect();
    let mut sets = 1;
    if cfg.method == Method::MultiCall {
        let set_bytes: u64 = pools
            .iter()
            .filter(|p| p.flushed)
            .map(|p| p.stride * p.ty.bytes())
            .sum();
        if set_bytes > 0 {
            sets = ((cfg.flush_kb * 1024).div_ceil(set_bytes) + 1).clamp(2, MAX_SETS);
            for p in pools.iter_mut().filter(|p| p.flushed) {
                p.sets = sets;
            }
        }
    }
    (pools, sets)
}

fn literal(v: f64, ty: ElemType) -> String {
    match ty {
        ElemType::Integer => format!("{}", v.round() as i64),
        ElemType::Real => format!("{v:E}").replace('E', "E"),
        ElemType::Double => format!("{v:E}").replace('E', "D"),
    }
}

/// Break a statement into fixed-form lines (columns 7-72, continuation `&` in column 6).
pub(crate) fn emit(out: &mut String, label: Option<u32>, text: &str) {
    let mut rest = text;
    let mut first = true;
    while first || !rest.is_empty() {
        let take = rest.len().min(66);
        let (head, tail) = rest.split_at(take);
        if first {
            match label {
                Some(l) => out.push_str(&format!("{l:<5} {head}\n")),
                None => out.push_str(&format!("      {head}\n")),
            }
        } else {
            out.push_str(&format!("     &{head}\n"));
        }
        rest = tail;
        first = false;
    }
}

/// The name of a pool's COMMON array and its offset variable.
fn pool_var(p: &Pool) -> (String, String, String) {
    (
        format!("OP{}", p.name),
        format!("OF{}", p.name),
        format!("IX{}", p.name),
    )
}

fn init_sub(ty: ElemType) -> &'static str {
    match ty {
        ElemType::Integer => "OPCINI",
        ElemType::Real => "OPCINR",
        ElemType::Double => "OPCIND",
    }
}

/// The driver's source text.
pub fn generate(spec: &Spec, sig: &Signature, shape: &Shape, cfg: &DriverConfig) -> String {
    let (pools, sets) = layout(spec, shape, cfg);
    let one_call_flush = cfg.method == Method::OneCall && pools.iter().any(|p| p.flushed);
    let mut d = Driver {
        cfg,
        sig,
        fl_elems: if one_call_flush {
            (cfg.flush_kb * 1024 / 8).max(1)
        } else {
            1
        },
        one_call_flush,
        pools,
        o: String::new(),
    };
    d.o.push_str(&format!(
        "C     Timing driver for {} written by opcost time\nC     (Whaley & Castaldo; Magee, Yi & Whaley)\n",
        sig.name
    ));
    d.declare_pools(sets);
    let scalars = d.declare_scalars(spec, shape);
    let call = d.call_statement(spec);
    d.place_pools();
    d.write_operands(&scalars, &call);
    d.e("CALL SYSTEM_CLOCK(T0, RATE)");
    match cfg.method {
        Method::OneCall => d.one_call_samples(&scalars, &call),
        Method::MultiCall => d.multi_call_samples(&scalars, &call),
    }
    d.finish()
}

/// The driver being written and what its parts share.
struct Driver<'a> {
    cfg: &'a DriverConfig,
    sig: &'a Signature,
    pools: Vec<Pool>,
    /// Elements of the flush area FL (1 when the driver sweeps none).
    fl_elems: u64,
    /// The one-call method sweeps FL before each sample.
    one_call_flush: bool,
    o: String,
}

/// The actual arguments that are not arrays: their assignments and the `alternate` ones.
struct Scalars {
    init: Vec<String>,
    alternates: Vec<String>,
}

/// `CALL OPCIN<type>(...)` writing `count` elements of pool `p` from element `first`.
fn init_call(p: &Pool, first: &str, count: &str, seed: u64) -> String {
    let (arr, _, _) = pool_var(p);
    let (kind, val) = match p.init {
        Init::Random => (0, 0.0),
        Init::Zero => (1, 0.0),
        Init::Value(v) => (1, v),
    };
    format!(
        "CALL {}({arr}({first}), {count}, {kind}, {}, {seed})",
        init_sub(p.ty),
        literal(val, ElemType::Double)
    )
}

impl Driver<'_> {
    /// An unlabelled statement.
    fn e(&mut self, text: &str) {
        emit(&mut self.o, None, text);
    }

    /// A labelled statement.
    fn l(&mut self, label: u32, text: &str) {
        emit(&mut self.o, Some(label), text);
    }

    /// The program header, the flush area, the pools in COMMON and the driver's variables.
    fn declare_pools(&mut self, sets: u64) {
        self.e("PROGRAM OPCTIM");
        self.e("IMPLICIT NONE");
        self.e("INTEGER NSAMP, NSETS");
        self.e(&format!(
            "PARAMETER (NSAMP = {}, NSETS = {sets})",
            self.cfg.samples
        ));
        self.e(&format!("DOUBLE PRECISION FL({})", self.fl_elems));
        self.e("COMMON /OPCFL/ FL");
        for k in 0..self.pools.len() {
            let p = &self.pools[k];
            let (arr, off, ix) = pool_var(p);
            let decls = [
                format!("{} {arr}({})", p.ty.fortran(), p.total()),
                format!("COMMON /OPC{}/ {arr}", p.name),
                format!("INTEGER {off}, {ix}"),
            ];
            for d in decls {
                self.e(&d);
            }
        }
        self.e("INTEGER*8 T0, T1, RATE");
        self.e("DOUBLE PRECISION C0, C1, CHK, SGN, FSUM, WALL");
        // Samples are kept until the end: no I/O (system calls) between timed calls.
        self.e("DOUBLE PRECISION SWALL(NSAMP), SCPU(NSAMP)");
        self.e("INTEGER IS, IR, NREP, K, I");
        self.e("INTEGER OPCOFF");
        self.e("EXTERNAL OPCOFF");
    }

    /// Declare the scalar arguments; their assignments and alternates are for later.
    fn declare_scalars(&mut self, spec: &Spec, shape: &Shape) -> Scalars {
        let mut s = Scalars {
            init: Vec::new(),
            alternates: Vec::new(),
        };
        for f in &spec.formals {
            if matches!(spec.args[f], ArgSpec::Array(_)) {
                continue;
            }
            let ty = self.sig.types[f];
            self.e(&format!("{} {f}", ty.fortran()));
            s.init
                .push(format!("{f} = {}", literal(shape.scalars[f], ty)));
            if let ArgSpec::Scalar(a) = &spec.args[f] {
                if a.alternate {
                    s.alternates.push(f.clone());
                }
            }
        }
        s
    }

    /// The timed statement: the CALL, or the function reference added into CHK (declared here).
    fn call_statement(&mut self, spec: &Spec) -> String {
        let call_args: Vec<String> = spec
            .formals
            .iter()
            .map(|f| match self.pools.iter().find(|p| &p.name == f) {
                Some(p) => {
                    let (arr, _, ix) = pool_var(p);
                    format!("{arr}({ix})")
                }
                None => f.clone(),
            })
            .collect();
        let sig = self.sig;
        if sig.is_function {
            let rt = sig.result.expect("checked");
            self.e(&format!("{} {}", rt.fortran(), sig.name));
            self.e(&format!("EXTERNAL {}", sig.name));
            format!(
                "CHK = CHK + SGN * DBLE({}({}))",
                sig.name,
                call_args.join(", ")
            )
        } else {
            format!("CALL {}({})", sig.name, call_args.join(", "))
        }
    }

    /// Placement (MemAlign): the first copy of each pool at the requested alignment.
    fn place_pools(&mut self) {
        self.e("CHK = 0.0D0");
        self.e("SGN = 1.0D0");
        self.e("FSUM = 0.0D0");
        for k in 0..self.pools.len() {
            let p = &self.pools[k];
            let (arr, off, ix) = pool_var(p);
            let stmts = [
                format!(
                    "{off} = OPCOFF(LOC({arr}), {}, {}, {})",
                    p.ty.bytes(),
                    p.align_bytes,
                    u8::from(p.misalign)
                ),
                format!("{ix} = {off}"),
                format!(
                    "WRITE (*, *) 'OPCOST ADDR {}', MOD(LOC({arr}({off})), 4096_8)",
                    p.name
                ),
            ];
            for s in stmts {
                self.e(&s);
            }
        }
    }

    /// Page0Guard: write every element of every pool and of the flush area, sets in reverse
    /// order so that set NSETS is the least recently used (Whaley & Castaldo section 4); then
    /// InstLdGuard, one dummy call before any flushing or timing (section 5.4).
    fn write_operands(&mut self, scalars: &Scalars, call: &str) {
        self.e(&format!("DO 10 I = {}, 1, -1", self.fl_elems));
        self.e("   FL(I) = 0.0D0");
        self.l(10, "CONTINUE");
        let whole: Vec<String> = self
            .pools
            .iter()
            .enumerate()
            .map(|(n, p)| init_call(p, "1", &p.total().to_string(), 17 + n as u64))
            .collect();
        for s in whole.iter().chain(&scalars.init) {
            self.e(s);
        }
        self.e(call);
        self.e("SGN = -SGN");
        for n in 0..self.pools.len() {
            let p = &self.pools[n];
            let (_, off, _) = pool_var(p);
            let seed = 101 + n as u64;
            if p.sets > 1 {
                // Re-write the copies from the last to the first.
                let label = 1000 + n as u32;
                let first = format!("{off} + (K - 1) * {}", p.stride);
                let write = init_call(p, &first, &p.elems.to_string(), seed);
                self.e(&format!("DO {label} K = NSETS, 1, -1"));
                self.e(&write);
                self.l(label, "CONTINUE");
            } else {
                let write = init_call(p, &off, &p.elems.to_string(), seed);
                self.e(&write);
            }
        }
    }

    /// OneCallFlushLRU: each sample writes the operands again, sweeps the flush area between
    /// the flushed and the cached ones, and times one call.
    fn one_call_samples(&mut self, scalars: &Scalars, call: &str) {
        self.e("NREP = 1");
        self.e("WRITE (*, *) 'OPCOST REPS', NREP, NSETS, 0.0D0");
        self.e("DO 30 IS = 1, NSAMP");
        let rewrite = |flushed: bool| -> Vec<String> {
            self.pools
                .iter()
                .filter(|p| p.flushed == flushed)
                .map(|p| init_call(p, &pool_var(p).1, &p.elems.to_string(), 200))
                .collect()
        };
        // Operands the call finds in cache are written after the flush (Whaley & Castaldo sec. 3.1).
        let (flushed, cached) = (rewrite(true), rewrite(false));
        for s in &flushed {
            self.e(s);
        }
        if self.one_call_flush {
            self.e(&format!("DO 20 I = 1, {}", self.fl_elems));
            self.e("   FSUM = FSUM + FL(I)");
            self.l(20, "CONTINUE");
        }
        for s in cached.iter().chain(&scalars.init) {
            self.e(s);
        }
        self.e("CALL CPU_TIME(C0)");
        self.e("CALL SYSTEM_CLOCK(T0)");
        self.e(call);
        self.e("CALL SYSTEM_CLOCK(T1)");
        self.e("CALL CPU_TIME(C1)");
        self.e("SGN = -SGN");
        self.e("WALL = DBLE(T1 - T0) / DBLE(RATE)");
        self.e("SWALL(IS) = WALL");
        self.e("SCPU(IS) = C1 - C0");
        self.l(30, "CONTINUE");
    }

    /// MultiCallFlushLRU: calibrate the repetition count until one interval is long enough,
    /// then time NSAMP intervals. Working sets are used from NSETS down to 1 (Whaley & Castaldo
    /// fig. 6).
    fn multi_call_samples(&mut self, scalars: &Scalars, call: &str) {
        self.e("K = NSETS");
        self.e("NREP = 1");
        self.l(40, "CONTINUE");
        self.e("CALL SYSTEM_CLOCK(T0)");
        self.e("DO 41 IR = 1, NREP");
        self.repeated_call(scalars, call, 41);
        self.e("CALL SYSTEM_CLOCK(T1)");
        self.e("WALL = DBLE(T1 - T0) / DBLE(RATE)");
        self.e(&format!(
            "IF (WALL .LT. {} .AND. NREP .LT. 1073741824) THEN",
            literal(self.cfg.min_interval_s, ElemType::Double)
        ));
        self.e("  NREP = NREP * 2");
        self.e("  GO TO 40");
        self.e("END IF");
        self.e("WRITE (*, *) 'OPCOST REPS', NREP, NSETS, WALL");
        self.e("DO 50 IS = 1, NSAMP");
        self.e("CALL CPU_TIME(C0)");
        self.e("CALL SYSTEM_CLOCK(T0)");
        self.e("DO 51 IR = 1, NREP");
        self.repeated_call(scalars, call, 51);
        self.e("CALL SYSTEM_CLOCK(T1)");
        self.e("CALL CPU_TIME(C1)");
        self.e("WALL = DBLE(T1 - T0) / DBLE(RATE)");
        self.e("SWALL(IS) = WALL");
        self.e("SCPU(IS) = C1 - C0");
        self.l(50, "CONTINUE");
    }

    /// The body of a multi-call loop ending at `label`: the call on working set K, the
    /// RangeGuard sign flips, and the step to the previous set.
    fn repeated_call(&mut self, scalars: &Scalars, call: &str, label: u32) {
        let sets: Vec<String> = self
            .pools
            .iter()
            .filter(|p| p.sets > 1)
            .map(|p| {
                let (_, off, ix) = pool_var(p);
                format!("{ix} = {off} + (K - 1) * {}", p.stride)
            })
            .collect();
        for s in &sets {
            self.e(s);
        }
        self.e(call);
        self.e("SGN = -SGN");
        for a in &scalars.alternates {
            self.e(&format!("{a} = -{a}"));
        }
        self.e("K = K - 1");
        self.e("IF (K .LT. 1) K = NSETS");
        self.l(label, "CONTINUE");
    }

    /// Print the samples and the check sum, end the program, and append the support routines.
    fn finish(mut self) -> String {
        self.e("DO 60 IS = 1, NSAMP");
        self.e("   WRITE (*, *) 'OPCOST SAMPLE', SWALL(IS), SCPU(IS)");
        self.l(60, "CONTINUE");
        self.e("WRITE (*, *) 'OPCOST CHECK', CHK, FSUM");
        self.e("END");
        self.o.push_str(SUPPORT);
        for (suffix, decl, random, value) in [
            (
                'D',
                "DOUBLE PRECISION",
                "DBLE(S) / 2147483648.0D0 - 0.5D0",
                "VAL",
            ),
            (
                'R',
                "REAL",
                "REAL(DBLE(S) / 2147483648.0D0 - 0.5D0)",
                "REAL(VAL)",
            ),
            ('I', "INTEGER", "INT(MOD(S / 65536_8, 100_8))", "NINT(VAL)"),
        ] {
            self.o.push_str(&init_routine(suffix, decl, random, value));
        }
        self.o
    }
}

/// The initialisation routine of one element type: OPCIN<suffix>(A, N, KIND, VAL, SEED)
/// fills A from its last element to its first with `random` (KIND 0, from the generator's
/// state S) or with `value`.
fn init_routine(suffix: char, decl: &str, random: &str, value: &str) -> String {
    format!(
        "      SUBROUTINE OPCIN{suffix}(A, N, KIND, VAL, SEED)
      INTEGER N, KIND, I, SEED
      {decl} A(N)
      DOUBLE PRECISION VAL
      INTEGER*8 S
      S = SEED
      DO 10 I = N, 1, -1
         IF (KIND .EQ. 0) THEN
            S = MOD(S * 1103515245_8 + 12345_8, 2147483648_8)
            A(I) = {random}
         ELSE
            A(I) = {value}
         END IF
   10 CONTINUE
      END
"
    )
}

/// The alignment helper of every driver (the initialisation helpers follow it, from
/// `init_routine`). Random values come from a linear
/// congruential generator (values in [-0.5, 0.5), integers in 0..99); arrays are written from
/// the last element to the first.
const SUPPORT: &str = "\
C     First index of ARR whose address is AL-aligned (MIS = 1: one
C     element past it, so never AL-aligned; Whaley & Castaldo 5.5).
      INTEGER FUNCTION OPCOFF(ADDR, ES, AL, MIS)
      INTEGER*8 ADDR, R
      INTEGER ES, AL, MIS
      R = MOD(ADDR, INT(AL, 8))
      OPCOFF = 1
      IF (R .NE. 0) OPCOFF = 1 + INT((INT(AL, 8) - R) / ES)
      IF (MIS .NE. 0) OPCOFF = OPCOFF + 1
      END
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{self, Signature};
    use std::collections::HashMap;
    use std::path::Path;

    fn saxpy() -> (Spec, Signature) {
        let spec = Spec::parse(
            Path::new("s.spec"),
            "file l.f\nroutine SAXPY(N, SA, SX, SY)\nsize N = 100\nscalar SA = 0.5 alternate\n\
array SX real(N) random flush align 32\narray SY real(N) random misalign 16\n",
        )
        .unwrap();
        let types: HashMap<String, ElemType> = [
            ("N", ElemType::Integer),
            ("SA", ElemType::Real),
            ("SX", ElemType::Real),
            ("SY", ElemType::Real),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b))
        .collect();
        let sig = Signature {
            name: "SAXPY".into(),
            is_function: false,
            result: None,
            formals: spec.formals.clone(),
            types,
            arrays: vec!["SX".into(), "SY".into()],
            line: 1,
        };
        (spec, sig)
    }

    fn cfg(method: Method, flush: FlushSet) -> DriverConfig {
        DriverConfig {
            method,
            flush,
            flush_kb: 64,
            samples: 3,
            min_interval_s: 0.01,
            align_override: None,
        }
    }

    #[test]
    fn multi_call_driver_has_the_guards_and_backward_sets() {
        let (spec, sig) = saxpy();
        let shape = check::shape(&spec, &spec.points()[0]).unwrap();
        let c = cfg(Method::MultiCall, FlushSet::All);
        let (pools, sets) = layout(&spec, &shape, &c);
        // Only SX is marked flush: 400 bytes (aligned stride 104 reals = 416 bytes) per set;
        // 64 KiB of sets, plus one.
        assert_eq!(pools[0].stride, 104);
        assert_eq!(sets, (64 * 1024u64).div_ceil(416) + 1);
        assert_eq!(pools[1].sets, 1);
        let text = generate(&spec, &sig, &shape, &c);
        // Every line fits fixed form.
        assert!(text.lines().all(|l| l.len() <= 72), "{text}");
        // InstLdGuard: a call before the timed loops; RangeGuard: SA flips in the loop.
        let first_call = text.find("CALL SAXPY(").unwrap();
        let timed = text.find("DO 41 IR").unwrap();
        assert!(first_call < timed);
        assert!(text[timed..].contains("SA = -SA"));
        // Working sets from the last to the first (Whaley & Castaldo fig. 6).
        assert!(text.contains("K = NSETS\n"));
        assert!(text.contains("K = K - 1"));
        // MemAlign: SY deliberately misaligned to 16 bytes.
        assert!(text.contains("OFSY = OPCOFF(LOC(OPSY), 4, 16, 1)"));
    }

    #[test]
    fn one_call_partial_flush_writes_kept_operands_after_the_sweep() {
        let (spec, sig) = saxpy();
        let shape = check::shape(&spec, &spec.points()[0]).unwrap();
        let c = cfg(Method::OneCall, FlushSet::Operands(vec!["SY".into()]));
        let text = generate(&spec, &sig, &shape, &c);
        let sweep = text.find("FSUM = FSUM + FL(I)").unwrap();
        let sample = text.find("DO 30 IS").unwrap();
        let body = &text[sample..];
        let sy = body.find("CALL OPCINR(OPSY(").unwrap() + sample;
        let sx = body.find("CALL OPCINR(OPSX(").unwrap() + sample;
        // Whaley & Castaldo section 3.1: the flushed operand before the sweep, the cached one after.
        assert!(sy < sweep && sweep < sx);
    }
}

//! The X-Ray section of a characterization: memory hierarchy and CPU parameters measured by
//! micro-benchmarks (X-Ray (Yotov, Pingali & Stodghill)). Filled by the `xray` crate; read by the
//! characterizer (cache capacities size its cache-flush areas) and by `opcost xray`.

use serde::{Deserialize, Serialize};

/// How a cache level's numbers were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheMethod {
    /// Compact / non-compact sequences (X-Ray figures 6 and 8, section 5): capacity,
    /// associativity and block size are exact when the hardware is a set-associative cache
    /// indexed by the addresses X-Ray controls.
    CompactSequences,
    /// The physical addresses behind the super pages were not contiguous (typically a virtual
    /// machine whose host maps guest memory in small pages), so sets could not be targeted:
    /// only the effective capacity (the largest contiguous interval whose pseudo-random chase
    /// stays nearer this level's latency than the next level's) and the latency were measured.
    EffectiveCapacity,
}

/// One data cache level (X-Ray sections 3-5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheLevel {
    pub level: u8,
    pub capacity_bytes: u64,
    /// None when the method could not measure it (see `method`).
    pub associativity: Option<u32>,
    pub block_bytes: Option<u32>,
    /// Load-to-use latency of a hit at this level (pointer chasing, X-Ray fig. 9).
    pub latency_cycles: f64,
    pub latency_ns: f64,
    pub method: CacheMethod,
    /// Measured with super pages (physically indexed levels, X-Ray section 5.3).
    pub used_huge_pages: bool,
    /// Exclusive of the level above (X-Ray section 8.2); `capacity_bytes` and
    /// `associativity` are then the level's own share.
    pub exclusive: bool,
}

/// TLB (X-Ray section 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TlbInfo {
    pub entries: u32,
    pub associativity: u32,
    pub page_bytes: u64,
    pub miss_penalty_ns: f64,
}

/// Latency and throughput of one instruction kind, in cycles, measured on the machine, not
/// looked up (X-Ray; issue 27 item 3). A scalar row has both; a packed row (`vector_bits`)
/// has the throughput of one packed instruction, which does `vector_bits` / element bits
/// source operations: what the predictor charges a vectorized loop's packed instructions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstructionTiming {
    /// e.g. "integer add", "double multiply", "single square root".
    pub name: String,
    /// Cycles from an operation's inputs to its result (a chain of dependent operations);
    /// None when only the throughput was measured (packed rows).
    #[serde(default)]
    pub latency_cycles: Option<f64>,
    /// Cycles between independent instructions (reciprocal throughput).
    pub throughput_cycles: f64,
    /// Width of a packed (SIMD) instruction in bits (128, 256, 512); None for scalar code
    /// (and in files written before packed rows were measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vector_bits: Option<u32>,
}

/// Rule 17c: the row of X-Ray's throughput of one instruction on the arithmetic ports
/// (integer and floating-point arithmetic, compares, conditional jumps), from its independent
/// additions' loop over that loop's arithmetic instructions.
pub const ARITHMETIC_ROW: &str = "arithmetic instruction";

impl CpuInfo {
    /// The latency, ns, of the scalar instruction row `name` ("integer multiply"); None when
    /// it was not measured.
    pub fn latency_ns(&self, name: &str) -> Option<f64> {
        let row = self
            .instructions
            .iter()
            .find(|r| r.name == name && r.vector_bits.is_none())?;
        let cycles = row.latency_cycles?;
        (self.frequency_mhz > 0.0).then(|| cycles * 1000.0 / self.frequency_mhz)
    }

    /// The reciprocal throughput, ns, of the instruction row `name` ("double divide"),
    /// scalar or packed (the widest width measured); None when it was not measured.
    pub fn throughput_ns(&self, name: &str, packed: bool) -> Option<f64> {
        self.widest_throughput_ns(name, packed).map(|(ns, _)| ns)
    }

    /// The throughput, ns, of the widest row measured for `name` (scalar or packed), with
    /// its vector bits (None for the scalar row).
    pub fn widest_throughput_ns(&self, name: &str, packed: bool) -> Option<(f64, Option<u32>)> {
        let row = self
            .instructions
            .iter()
            .filter(|r| r.name == name && r.vector_bits.is_some() == packed)
            .max_by_key(|r| r.vector_bits)?;
        (self.frequency_mhz > 0.0).then(|| {
            (
                row.throughput_cycles * 1000.0 / self.frequency_mhz,
                row.vector_bits,
            )
        })
    }
}

/// CPU parameters (X-Ray (Yotov, Pingali & Stodghill) section 7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuInfo {
    /// From a chain of dependent integer additions, one per cycle (X-Ray).
    pub frequency_mhz: f64,
    pub instructions: Vec<InstructionTiming>,
    /// A multiply-add chain is faster than a multiply then an add (X-Ray).
    pub has_fma: bool,
    /// Floating-point additions take a few cycles, not an emulation library's hundreds.
    pub has_fpu: bool,
    /// Registers the compiler really uses (X-Ray section 7, fig. 11); None if not measured.
    pub integer_registers: Option<u32>,
    pub float_registers: Option<u32>,
    pub simd_registers: Option<u32>,
    /// Concurrent instances that run without slowing each other (X-Ray, SMP).
    pub processors: u32,
    /// Logical processors the OS offers that share a physical one (X-Ray, SMT).
    pub smt: bool,
    /// Instructions the core keeps in flight (its out-of-order window), from two pointer
    /// chases whose misses stop overlapping past it (issue 27, rule 27 at optimizing flags);
    /// None when not measured (other architectures; files written before it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_instructions: Option<u32>,
    /// The longest trip count of a DO loop, entered again with the same trips, whose exit the
    /// branch predictor foresees (rule 29b): past it every entry misses its exit. None when not
    /// measured (files written before it was) or when no limit showed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_exit_trips: Option<u32>,
}

/// The largest cache by any evidence, bytes: X-Ray's measured capacities (`caches`) or the
/// size the operating system reports (`os_largest_bytes`, 0 when it reports none), whichever
/// is larger. X-Ray's *effective* capacity of a shared last level is what other tenants leave
/// free at the time, well below the cache itself. `None` when neither knows a cache.
pub fn largest_cache_bytes(caches: &[CacheLevel], os_largest_bytes: u64) -> Option<u64> {
    caches
        .iter()
        .map(|c| c.capacity_bytes)
        .chain((os_largest_bytes > 0).then_some(os_largest_bytes))
        .max()
}

/// Sustained single-thread bandwidths of one cache level or of main memory (issue 27): three
/// streams over arrays of `footprint_bytes`, best of several timed repetitions. Bytes per ns
/// are GB/s; bytes per cycle use the measured frequency. Write counts the bytes stored (a
/// write-allocate cache also reads them, STREAM's convention); copy counts those read plus
/// those written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bandwidth {
    /// The cache level the arrays fit in; None for main memory.
    pub level: Option<u8>,
    /// Bytes of all the arrays one pass touches.
    pub footprint_bytes: u64,
    /// A sum reduction with independent partial sums.
    pub read_bytes_per_ns: f64,
    /// A value stored into every element.
    pub write_bytes_per_ns: f64,
    /// `B(I) = A(I)`.
    pub copy_bytes_per_ns: f64,
    pub read_bytes_per_cycle: f64,
    pub write_bytes_per_cycle: f64,
    pub copy_bytes_per_cycle: f64,
}

impl Bandwidth {
    /// The time, ns, to move `read` bytes in and `written` bytes out at this level's rate
    /// (rule 21): the copy stream's when a loop does both, else the read or the write
    /// stream's.
    pub fn time_ns(&self, read: f64, written: f64) -> f64 {
        let rate = match (read > 0.0, written > 0.0) {
            (true, true) => self.copy_bytes_per_ns,
            (true, false) => self.read_bytes_per_ns,
            (false, true) => self.write_bytes_per_ns,
            (false, false) => return 0.0,
        };
        if rate > 0.0 {
            (read + written) / rate
        } else {
            0.0
        }
    }
}

/// Everything X-Ray measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HardwareReport {
    pub caches: Vec<CacheLevel>,
    pub memory_latency_ns: f64,
    pub memory_latency_cycles: f64,
    pub tlb: Option<TlbInfo>,
    pub cpu: Option<CpuInfo>,
    /// Per cache level, then memory (files written before bandwidths were measured: empty).
    #[serde(default)]
    pub bandwidths: Vec<Bandwidth>,
    /// Rule 33: the latency of a load at a random address of a buffer, on ordinary pages,
    /// for buffers of growing size (files written before it was measured: empty).
    #[serde(default)]
    pub random_latency: Vec<RandomLatency>,
    /// Transparent huge pages were granted for the lower levels' buffers.
    pub huge_pages: bool,
    /// Notes the user should see (e.g. "huge pages could not be had").
    pub notes: Vec<String>,
    pub wall_time_s: f64,
}

/// The first cache level the cores share (rule 21c): on the x86 and Arm cores opcost runs
/// on, levels 1 and 2 are a core's own and the third is the socket's.
pub const SHARED_LEVEL: u8 = 3;

/// One point of the random-access latency curve (rule 33).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RandomLatency {
    /// The buffer's size.
    pub bytes: u64,
    /// ns per load, each at an address chosen at random among the buffer's lines.
    pub ns: f64,
}

impl HardwareReport {
    /// Rule 33: what a load at a random address of an array of `bytes` waits beyond one in
    /// the first level, ns: the random-access curve interpolated in log(size), held flat
    /// beyond its ends; None without a curve.
    pub fn random_access_excess_ns(&self, bytes: u64) -> Option<f64> {
        let curve = &self.random_latency;
        let first = curve.first()?;
        let last = curve.last()?;
        let at = |b: f64| -> f64 {
            if b <= first.bytes as f64 {
                return first.ns;
            }
            curve
                .windows(2)
                .find(|w| b <= w[1].bytes as f64)
                .map_or(last.ns, |w| {
                    let (x0, x1) = ((w[0].bytes as f64).ln(), (w[1].bytes as f64).ln());
                    let t = (b.ln() - x0) / (x1 - x0).max(f64::MIN_POSITIVE);
                    w[0].ns + t * (w[1].ns - w[0].ns)
                })
        };
        Some((at(bytes as f64) - first.ns).max(0.0))
    }

    /// Rule 28: the first level's sets, ways and line, when X-Ray measured its associativity
    /// and block (compact sequences); None otherwise.
    pub fn l1_geometry(&self) -> Option<crate::rules::CacheGeometry> {
        let l1 = self.caches.iter().find(|c| c.level == 1)?;
        let ways = u64::from(l1.associativity?);
        let line_bytes = u64::from(l1.block_bytes?);
        let sets = l1.capacity_bytes / (ways * line_bytes).max(1);
        (sets > 0).then_some(crate::rules::CacheGeometry {
            sets,
            ways,
            line_bytes,
        })
    }

    /// The load-to-use latency, ns, of a hit in cache `level`; None when it was not measured.
    pub fn latency_ns(&self, level: u8) -> Option<f64> {
        self.caches
            .iter()
            .find(|c| c.level == level)
            .map(|c| c.latency_ns)
            .filter(|ns| ns.is_finite() && *ns > 0.0)
    }

    /// The bandwidths of the level a loop whose data take `footprint_bytes` streams from
    /// (rule 21): the first cache level that holds them, else main memory; None when no
    /// bandwidth was measured. A core's own level (1, 2) holds what the larger of X-Ray's
    /// capacity and the operating system's size for it (`os_sizes`: level, bytes) says: on a
    /// virtual machine X-Ray measures an effective capacity, a lower bound. A level the cores
    /// share (3 and beyond) holds what X-Ray measured where it measured it (rule 21c): the
    /// operating system gives the whole socket's, of which a process gets what its
    /// neighbours leave.
    pub fn bandwidth_for(
        &self,
        footprint_bytes: u64,
        os_sizes: &[(u8, u64)],
    ) -> Option<&Bandwidth> {
        let capacity = |level: u8| {
            let xray = self
                .caches
                .iter()
                .filter(|c| c.level == level)
                .map(|c| c.capacity_bytes)
                .max();
            let os = os_sizes
                .iter()
                .filter(|(l, _)| *l == level)
                .map(|(_, b)| *b)
                .max()
                .unwrap_or(0);
            match xray {
                Some(measured) if level >= SHARED_LEVEL => measured,
                measured => measured.unwrap_or(0).max(os),
            }
        };
        self.bandwidths
            .iter()
            .find(|b| b.level.is_some_and(|l| footprint_bytes <= capacity(l)))
            .or_else(|| self.bandwidths.iter().find(|b| b.level.is_none()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(capacity_bytes: u64) -> CacheLevel {
        CacheLevel {
            level: 3,
            capacity_bytes,
            associativity: None,
            block_bytes: None,
            latency_cycles: 40.0,
            latency_ns: 12.0,
            method: CacheMethod::EffectiveCapacity,
            used_huge_pages: false,
            exclusive: false,
        }
    }

    /// Rule 21c: a private level holds the larger of X-Ray's and the OS's sizes, a shared one
    /// X-Ray's effective capacity where it measured one (the OS's 480 MiB of L3 on a guest
    /// that gets 11 MiB of it), the OS's where it did not.
    #[test]
    fn a_shared_level_holds_what_x_ray_measured_a_private_one_the_larger() {
        let bw = |level: Option<u8>| Bandwidth {
            level,
            footprint_bytes: 0,
            read_bytes_per_ns: 1.0,
            write_bytes_per_ns: 1.0,
            copy_bytes_per_ns: 1.0,
            read_bytes_per_cycle: 1.0,
            write_bytes_per_cycle: 1.0,
            copy_bytes_per_cycle: 1.0,
        };
        let mut l2 = level(1536 << 10);
        l2.level = 2;
        let mut report = HardwareReport {
            caches: vec![l2, level(11 << 20)],
            memory_latency_ns: 90.0,
            memory_latency_cycles: 360.0,
            tlb: None,
            cpu: None,
            bandwidths: vec![bw(Some(2)), bw(Some(3)), bw(None)],
            random_latency: Vec::new(),
            huge_pages: false,
            notes: Vec::new(),
            wall_time_s: 1.0,
        };
        let os = [(2, 2 << 20), (3, 480 << 20)];
        let level_of = |r: &HardwareReport, bytes: u64| r.bandwidth_for(bytes, &os).unwrap().level;
        // 1.8 MiB: beyond X-Ray's L2, within the OS's.
        assert_eq!(level_of(&report, 1843 << 10), Some(2));
        assert_eq!(level_of(&report, 8 << 20), Some(3));
        assert_eq!(level_of(&report, 32 << 20), None);
        // No L3 from X-Ray: the OS's size.
        report.caches.truncate(1);
        assert_eq!(level_of(&report, 32 << 20), Some(3));
    }

    #[test]
    fn the_largest_cache_is_the_larger_of_x_rays_and_the_oss() {
        // An effective capacity below the OS's size: the OS's.
        assert_eq!(
            largest_cache_bytes(&[level(4 << 20)], 32 << 20),
            Some(32 << 20)
        );
        assert_eq!(
            largest_cache_bytes(&[level(64 << 20)], 32 << 20),
            Some(64 << 20)
        );
        assert_eq!(largest_cache_bytes(&[level(4 << 20)], 0), Some(4 << 20));
        assert_eq!(largest_cache_bytes(&[], 0), None);
    }

    #[test]
    fn an_older_instruction_row_reads_as_scalar_and_a_packed_one_round_trips() {
        let old = r#"{"name": "double add", "latency_cycles": 3.0, "throughput_cycles": 0.5}"#;
        let row: InstructionTiming = serde_json::from_str(old).unwrap();
        assert_eq!(row.latency_cycles, Some(3.0));
        assert_eq!(row.vector_bits, None);
        let scalar = serde_json::to_string(&row).unwrap();
        assert!(!scalar.contains("vector_bits"), "{scalar}");
        let packed = InstructionTiming {
            name: "double divide".into(),
            latency_cycles: None,
            throughput_cycles: 5.0,
            vector_bits: Some(256),
        };
        let text = serde_json::to_string(&packed).unwrap();
        assert_eq!(
            serde_json::from_str::<InstructionTiming>(&text).unwrap(),
            packed
        );
    }
}

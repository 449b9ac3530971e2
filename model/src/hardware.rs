//! The X-Ray section of a characterization: memory hierarchy and CPU parameters measured by
//! micro-benchmarks (seeds 002 and 000). Filled by the `xray` crate.

use serde::{Deserialize, Serialize};

/// One data cache level (seed 002 sections 3-5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheLevel {
    pub level: u8,
    pub capacity_bytes: u64,
    pub associativity: u32,
    pub block_bytes: u32,
    pub latency_cycles: f64,
    pub latency_ns: f64,
    /// Measured with super pages (physically indexed levels, seed 002 section 5.3).
    pub used_huge_pages: bool,
    /// Exclusive of the level above (seed 002 section 8.2).
    pub exclusive: bool,
}

/// TLB (seed 002 section 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TlbInfo {
    pub entries: u32,
    pub associativity: u32,
    pub page_bytes: u64,
    pub miss_penalty_ns: f64,
}

/// Latency and throughput of one instruction kind, in cycles (seed 000).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstructionTiming {
    pub name: String,
    pub latency_cycles: f64,
    pub throughput_cycles: f64,
}

/// CPU parameters (seeds 000 and 002 section 7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuInfo {
    pub frequency_mhz: f64,
    pub instructions: Vec<InstructionTiming>,
    pub has_fma: bool,
    pub has_fpu: bool,
    pub integer_registers: u32,
    pub float_registers: u32,
    pub simd_registers: u32,
    pub processors: u32,
    pub smt: bool,
}

/// Everything X-Ray measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HardwareReport {
    pub caches: Vec<CacheLevel>,
    pub memory_latency_ns: f64,
    pub tlb: Option<TlbInfo>,
    pub cpu: Option<CpuInfo>,
    /// Notes the user should see (e.g. "huge pages could not be had").
    pub notes: Vec<String>,
    pub wall_time_s: f64,
}

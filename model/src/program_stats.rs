//! The ProgramStats file: a program decomposed into parameter counts (seed 004 section 5),
//! static and dynamic, per program unit and per region. Written by the analyzer, read by the
//! predictor.

use crate::counts::OpCounts;
use crate::files::Versioned;
use serde::{Deserialize, Serialize};

/// Counts of one part of a program (the whole, a program unit, or a directive region).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartStats {
    pub name: String,
    /// Occurrences in the source text.
    pub static_counts: OpCounts,
    /// Executions in one run (present after a dynamic analysis).
    pub dynamic_counts: Option<OpCounts>,
}

/// A program's statistics (file format `opcost-program-stats`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramStats {
    pub format: String,
    pub format_version: u32,
    pub program: String,
    pub source_files: Vec<String>,
    /// SHA-256 of the source files' contents, concatenated in order.
    pub source_sha256: String,
    pub total: PartStats,
    pub units: Vec<PartStats>,
    pub regions: Vec<PartStats>,
    /// Statements that could not be parsed and were skipped.
    pub skipped_statements: usize,
}

impl Versioned for ProgramStats {
    const FORMAT: &'static str = "opcost-program-stats";
    const VERSION: u32 = 1;
}

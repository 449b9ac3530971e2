//! Context-sensitive timing of one routine (Whaley & Castaldo; Magee, Yi
//! & Whaley). A routine specification ([`spec`], after Magee, Yi & Whaley fig. 4) says how to call the
//! routine; [`check`] holds it against the routine's real signature (read by the analyzer)
//! before anything is compiled; [`driver`] writes a Fortran 77 timing driver with
//! OneCallFlushLRU or MultiCallFlushLRU cache flushing and the guards of Whaley & Castaldo section 5;
//! [`run`] compiles and runs it and reduces the samples (minimum wall time, median CPU time);
//! [`app`] instruments a copy of a whole program to time the routine where the application
//! calls it (Magee, Yi & Whaley section 3.1); [`plot`] draws a sweep like Whaley & Castaldo fig. 1.
//!
//! ```no_run
//! use timing::{spec::Spec, run, driver::{DriverConfig, FlushSet, Method}};
//! let spec = Spec::load("examples/time/ddot.spec".as_ref()).unwrap();
//! let cc = harness::Compiler::find(None, &["-O2".into()]).unwrap();
//! let prep = run::prepare(spec, cc, std::time::Duration::from_secs(60)).unwrap();
//! let shape = &run::shapes(&prep.spec).unwrap()[0];
//! let cfg = DriverConfig { method: Method::OneCall, flush: FlushSet::All, flush_kb: 65536,
//!     samples: 7, min_interval_s: 0.01, align_override: None };
//! let t = prep.time(shape, &cfg, run::Timer::Wall).unwrap();
//! println!("{} s per call", t.seconds);
//! ```

pub mod app;
pub mod check;
pub mod driver;
pub mod plan;
pub mod plot;
pub mod run;
pub mod spec;

use model::hardware::HardwareReport;
use thiserror::Error;

/// Why a timing failed.
#[derive(Debug, Error)]
pub enum TimingError {
    #[error(transparent)]
    Spec(#[from] spec::SpecError),
    #[error("{0}")]
    Compile(harness::CompileError),
    #[error("the generated driver does not compile (a bug in opcost time when the routine compiles):\n{0}\n--- driver ---\n{1}")]
    DriverCompile(harness::CompileError, String),
    #[error(transparent)]
    Run(#[from] harness::RunError),
    #[error("I/O error on {0}: {1}")]
    Io(String, std::io::Error),
    #[error("{0}")]
    Other(String),
}

/// [`model::hardware::largest_cache_bytes`] of an X-Ray report, if there is one.
pub fn largest_cache_bytes(report: Option<&HardwareReport>, os_largest_bytes: u64) -> Option<u64> {
    let caches = report.map_or(&[][..], |r| r.caches.as_slice());
    model::hardware::largest_cache_bytes(caches, os_largest_bytes)
}

/// Flush-area size, KiB: twice [`largest_cache_bytes`] (Whaley & Castaldo section 3 asks for
/// a flush area that overflows the cache; twice its capacity gives LRU and pseudo-random
/// replacement room, and the OS's size keeps an effective X-Ray capacity from leaving
/// operands in cache).
pub fn flush_kb_from(report: Option<&HardwareReport>, os_largest_bytes: u64) -> Option<u64> {
    largest_cache_bytes(report, os_largest_bytes).map(|b| (2 * b).div_ceil(1024))
}

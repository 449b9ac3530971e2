//! The compile-and-run harness shared by the characterizer, X-Ray, the analyzer's dynamic
//! counts and the predictor's validation runs: find the compiler (with an install hint when it
//! is missing), compile separately and link, run a program under a time limit (streaming its
//! output so a long run can be followed and interrupted without losing what it printed),
//! and describe the host (result files are written by the `export` crate).

pub mod assembly;
pub mod calls;
pub mod chain;
pub mod compiler;
pub mod copies;
pub mod host;
pub mod loops;
pub mod run;

pub use assembly::{LineInstructions, Mix};
pub use calls::EmittedCalls;
pub use compiler::{CompileError, Compiler, CompilerError};
pub use copies::OneCopy;
pub use host::{machine_info, machine_slug};
pub use loops::{innermost_loops, loops_of_source_loop, FpOps, MachineLoop, PassCounts};
pub use run::{raise_stack_limit, run_limited, run_streaming, CpuUsage, RunError, RunOutput};

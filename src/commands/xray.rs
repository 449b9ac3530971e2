//! `opcost xray`: measure the memory hierarchy and CPU parameters of this machine (X-Ray,
//! X-Ray (Yotov, Pingali & Stodghill)) and print them, optionally saving them as JSON.

use anyhow::{Context, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Also write the report as JSON to FILE ("-" for standard output)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Fewer samples per measurement (for tests; the algorithms are the same)
    #[arg(long)]
    quick: bool,
    /// The Fortran compiler whose code is measured (default: gfortran on PATH)
    #[arg(long, value_name = "PATH")]
    compiler: Option<String>,
}

/// The steps `xray::measure` reports, for the length of the progress bar.
const EXPECTED_STEPS: u64 = 16;

pub fn run(a: Args) -> Result<()> {
    let compiler = harness::Compiler::find(a.compiler.as_deref(), &[])?;
    let bar = super::progress_bar();
    bar.set_length(EXPECTED_STEPS);
    let report = xray::measure(&compiler, &xray::XrayOptions { quick: a.quick }, &mut |m| {
        if bar.position() + 1 < EXPECTED_STEPS {
            bar.inc(1);
        }
        bar.set_message(m.to_string());
    })
    .context("X-Ray could not finish")?;
    bar.finish_and_clear();
    if let Some(target) = &a.json {
        super::write_json(target, "the X-Ray report", &report)?;
    }
    if a.json.as_deref() != Some("-") {
        crate::say_raw!("{}", crate::render::hardware_report(&report));
    }
    Ok(())
}

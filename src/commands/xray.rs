//! `opcost xray`: measure the memory hierarchy and CPU parameters of this machine (X-Ray,
//! X-Ray (Yotov, Pingali & Stodghill)) and print them, optionally saving them as JSON.

use anyhow::{Context, Result};

#[derive(clap::Args)]
#[command(
    after_help = "The report is kept per host in $OPCOST_CACHE_DIR, else $XDG_CACHE_HOME/opcost, \
else ~/.cache/opcost, and reused for 30 days (a quick report only by --quick).\n\
Examples:\n  opcost xray\n  opcost xray --refresh --json machine.json\n  opcost xray --quick --json - | jq .caches"
)]
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
    /// Measure again even when this host's report is cached
    #[arg(long)]
    refresh: bool,
}

/// The steps `xray::measure` reports, for the length of the progress bar.
const EXPECTED_STEPS: u64 = 17;

pub fn run(a: Args) -> Result<()> {
    let compiler = harness::Compiler::find(a.compiler.as_deref(), &[])?;
    let bar = super::progress_bar();
    bar.set_length(EXPECTED_STEPS);
    let mut notes = Vec::new();
    let (report, source) = xray::store::cached_or_measured(
        &compiler,
        &xray::XrayOptions { quick: a.quick },
        a.refresh,
        &mut |m| {
            if bar.position() + 1 < EXPECTED_STEPS {
                bar.inc(1);
            }
            bar.set_message(m.to_string());
        },
        &mut |m| notes.push(m.to_string()),
    )
    .context("X-Ray could not finish")?;
    bar.finish_and_clear();
    for n in notes {
        eprintln!("{n}");
    }
    if let xray::store::Source::Cached { path, measured } = &source {
        eprintln!(
            "this host's X-Ray report of {measured}, from {} (--refresh to measure again)",
            path.display()
        );
    }
    if let Some(target) = &a.json {
        super::write_json(target, "the X-Ray report", &report)?;
    }
    if a.json.as_deref() != Some("-") {
        crate::say_raw!("{}", crate::render::hardware_report(&report));
    }
    Ok(())
}

//! One module per subcommand: parse-level arguments in, crate calls, printed report out.

pub mod analyze;
pub mod characterize;
pub mod compare;
pub mod predict;
pub mod time;
pub mod validate;
pub mod xray;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};

/// A progress bar on standard error that hides itself when that is not a terminal.
pub fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    if std::io::stderr().is_terminal() {
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} {msg}")
                .expect("valid template"),
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar
}

/// Write an export to a file (atomically) or to standard output for "-".
pub fn write_output(target: &str, bytes: &[u8]) -> Result<()> {
    if target == "-" {
        std::io::stdout().write_all(bytes)?;
        Ok(())
    } else {
        harness::write_atomic(std::path::Path::new(target), bytes)
            .with_context(|| format!("cannot write {target}"))
    }
}

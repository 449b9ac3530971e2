//! One module per subcommand: parse-level arguments in, crate calls, printed report out.

pub mod analyze;
pub mod catalogue;
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

/// Make sure `path` can be written (its folder exists or is made, a file can be created
/// there), so a long run does not fail at its end.
pub fn check_writable(path: &std::path::Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).with_context(|| {
        format!(
            "cannot create the folder {} for {}",
            dir.display(),
            path.display()
        )
    })?;
    tempfile::NamedTempFile::new_in(&dir).with_context(|| {
        format!(
            "cannot write {}: its folder {} is not writable",
            path.display(),
            dir.display()
        )
    })?;
    Ok(())
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

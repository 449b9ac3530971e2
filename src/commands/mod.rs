//! One module per subcommand: parse-level arguments in, crate calls, printed report out.

pub mod analyze;
pub mod catalogue;
pub mod characterize;
pub mod compare;
pub mod fleet;
pub mod predict;
pub mod time;
pub mod validate;
pub mod xray;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

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
/// Each value split on blanks, in order: a program's run arguments (and validate's flags)
/// given as one string, `--run-args "100 3"`, or as several values.
pub fn blank_separated<'a>(values: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    values
        .into_iter()
        .flat_map(|s| s.split_whitespace().map(str::to_string))
        .collect()
}

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
    Ok(export::write_to(target, bytes)?)
}

/// Write a value as JSON (refused if it holds a NaN or an infinity) to a file or "-".
pub fn write_json<T: serde::Serialize + ?Sized>(target: &str, what: &str, value: &T) -> Result<()> {
    Ok(export::write_to(target, &export::json(what, value)?)?)
}

/// Where the human report goes: standard output, unless an export goes there ("-"), when it
/// goes to standard error so that standard output holds only the export.
static HUMAN_TO_STDERR: AtomicBool = AtomicBool::new(false);

/// Route the human report for these export options (name, value); two "-" are an error.
pub fn route_report(targets: &[(&str, Option<&str>)]) -> Result<()> {
    HUMAN_TO_STDERR.store(export::stdout_target(targets)?, Ordering::Relaxed);
    Ok(())
}

/// Whether the human report goes to standard error.
pub fn report_to_stderr() -> bool {
    HUMAN_TO_STDERR.load(Ordering::Relaxed)
}

/// Print a line of the human report (see [`route_report`]).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        if $crate::commands::report_to_stderr() {
            eprintln!($($arg)*)
        } else {
            println!($($arg)*)
        }
    };
}

/// Print text of the human report without a newline.
#[macro_export]
macro_rules! say_raw {
    ($($arg:tt)*) => {
        if $crate::commands::report_to_stderr() {
            eprint!($($arg)*)
        } else {
            print!($($arg)*)
        }
    };
}

/// Print a table of the human report.
pub fn show(t: &export::Table) {
    crate::say_raw!("{}", t.to_text());
}

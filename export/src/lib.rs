//! opcost's one export path. Every result a command exports goes through here:
//! [`Table`] renders rows as aligned text, CSV or Markdown with one column vocabulary
//! ([`columns`]); [`json`] serializes a typed (serde) value and refuses a non-finite number
//! (JSON has none: serde would write `null`, a file no reader can take back); [`emit`] writes
//! to a file atomically ([`write_atomic`]) or to standard output for "-"; [`staged`] keeps a
//! complete result file until its replacement is complete; [`plot`] draws every chart (SVG).
//! No timing, no measurement.

pub mod columns;
mod files;
mod finite;
pub mod plot;
pub mod staged;
mod table;
pub mod time;

pub use files::write_atomic;
pub use finite::{first_non_finite, NonFinite};
pub use table::{Align, Table};

use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ExportError {
    #[error("cannot write {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write to standard output: {0}")]
    Stdout(#[source] std::io::Error),
    #[error("refusing to write {what}: {field} is {value}, not a finite number")]
    NonFinite {
        what: String,
        field: String,
        value: f64,
    },
    #[error("cannot serialize {what}: {detail}")]
    Serialize { what: String, detail: String },
    #[error("cannot render CSV: {0}")]
    Csv(#[from] csv::Error),
    #[error("{0} and {1} both ask for standard output (\"-\"); give a file for one of them")]
    StdoutTwice(String, String),
}

impl ExportError {
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        ExportError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The export formats of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv,
    Markdown,
}

/// A result that can be exported: its JSON is its serde form, its CSV and Markdown its
/// [`Table`]. `what` names it in errors.
pub trait Export: Serialize {
    fn what(&self) -> String;
    fn table(&self) -> Table;
    /// Markdown: the table, with whatever heading a result wants to add.
    fn markdown(&self) -> String {
        self.table().to_markdown()
    }
}

/// A value as pretty JSON (with a final newline), refused if it holds a NaN or an infinity:
/// the error names the field (`parameters[3].estimate.mean_ns`).
pub fn json<T: Serialize + ?Sized>(what: &str, value: &T) -> Result<Vec<u8>, ExportError> {
    if let Some(bad) = first_non_finite(value).map_err(|detail| ExportError::Serialize {
        what: what.to_string(),
        detail,
    })? {
        return Err(ExportError::NonFinite {
            what: what.to_string(),
            field: bad.path,
            value: bad.value,
        });
    }
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| ExportError::Serialize {
        what: what.to_string(),
        detail: e.to_string(),
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A result in one format.
pub fn render<T: Export>(value: &T, format: Format) -> Result<Vec<u8>, ExportError> {
    match format {
        Format::Json => json(&value.what(), value),
        Format::Csv => Ok(value.table().to_csv()?.into_bytes()),
        Format::Markdown => Ok(value.markdown().into_bytes()),
    }
}

/// Write bytes to a file (atomically) or to standard output for "-".
pub fn write_to(target: &str, bytes: &[u8]) -> Result<(), ExportError> {
    if target == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(ExportError::Stdout)
    } else {
        let path = Path::new(target);
        write_atomic(path, bytes).map_err(|e| ExportError::io(path, e))
    }
}

/// Render a result in one format and write it to `target` ("-": standard output).
pub fn emit<T: Export>(value: &T, format: Format, target: &str) -> Result<(), ExportError> {
    write_to(target, &render(value, format)?)
}

/// Whether any of the export targets is standard output ("-"); an error if two are, since
/// two formats on one stream cannot be parsed. `targets` pairs an option's name with its value.
pub fn stdout_target(targets: &[(&str, Option<&str>)]) -> Result<bool, ExportError> {
    let dashes: Vec<&str> = targets
        .iter()
        .filter(|(_, t)| *t == Some("-"))
        .map(|(name, _)| *name)
        .collect();
    match dashes.as_slice() {
        [] => Ok(false),
        [_] => Ok(true),
        [a, b, ..] => Err(ExportError::StdoutTwice(a.to_string(), b.to_string())),
    }
}

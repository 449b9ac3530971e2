//! Versioned file formats. Every file opcost writes names its format and version; reading an
//! older, newer or foreign file fails with an error that says which.

use serde::de::DeserializeOwned;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum FormatError {
    #[error("not a JSON file: {0}")]
    NotJson(String),
    #[error("not an opcost {expected} file (it has no \"format\" field); was it written by another tool?")]
    Untagged { expected: &'static str },
    #[error("this is an opcost {found} file, but a {expected} file is needed here")]
    Foreign {
        expected: &'static str,
        found: String,
    },
    #[error("{expected} format version {found} cannot be read by this opcost, which reads version {supported}; {hint}")]
    Version {
        expected: &'static str,
        found: u64,
        supported: u32,
        hint: &'static str,
    },
    #[error("the {expected} file is damaged: {detail}")]
    Damaged {
        expected: &'static str,
        detail: String,
    },
}

/// A file schema with a name and a version.
pub trait Versioned: DeserializeOwned {
    /// The value of the `format` field.
    const FORMAT: &'static str;
    /// The value of the `format_version` field this build writes and reads.
    const VERSION: u32;

    /// Checks of the parsed document before its fields are read, for errors that name what
    /// is wrong in the reader's terms (the default: none).
    fn check(_value: &serde_json::Value) -> Result<(), String> {
        Ok(())
    }
}

/// Parse a versioned JSON document, checking its format and version before its fields.
pub fn parse_versioned<T: Versioned>(text: &str) -> Result<T, FormatError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| FormatError::NotJson(e.to_string()))?;
    let format = value
        .get("format")
        .and_then(|f| f.as_str())
        .ok_or(FormatError::Untagged {
            expected: T::FORMAT,
        })?;
    if format != T::FORMAT {
        return Err(FormatError::Foreign {
            expected: T::FORMAT,
            found: format.to_string(),
        });
    }
    let version =
        value
            .get("format_version")
            .and_then(|v| v.as_u64())
            .ok_or(FormatError::Damaged {
                expected: T::FORMAT,
                detail: "missing format_version".into(),
            })?;
    if version != T::VERSION as u64 {
        let hint = if version < T::VERSION as u64 {
            "it was written by an older opcost: produce it again with this one"
        } else {
            "it was written by a newer opcost: upgrade this one"
        };
        return Err(FormatError::Version {
            expected: T::FORMAT,
            found: version,
            supported: T::VERSION,
            hint,
        });
    }
    T::check(&value).map_err(|detail| FormatError::Damaged {
        expected: T::FORMAT,
        detail,
    })?;
    serde_json::from_value(value).map_err(|e| {
        // A name this build does not know (a parameter the catalogue gained later) is more
        // likely a newer opcost's file than a damaged one.
        let detail = e.to_string();
        let hint = if detail.starts_with("unknown variant") {
            " (a name this opcost does not know: if a newer opcost wrote the file, upgrade this one)"
        } else {
            ""
        };
        FormatError::Damaged {
            expected: T::FORMAT,
            detail: format!("{detail}{hint}"),
        }
    })
}

/// A versioned file that could not be loaded: unreadable, or not the document wanted.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file cannot be read (`what` names the document, with a trailing blank, or is empty).
    #[error("cannot read {what}{}", path.display())]
    Read {
        what: &'static str,
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file is read but is not a readable document of its format.
    #[error("{}", path.display())]
    Format {
        path: std::path::PathBuf,
        #[source]
        source: FormatError,
    },
}

/// Read and parse a versioned JSON file (`what`: the document's name in the read error,
/// e.g. "characterization ", or "").
pub fn load_versioned<T: Versioned>(
    path: &std::path::Path,
    what: &'static str,
) -> Result<T, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        what,
        path: path.to_path_buf(),
        source,
    })?;
    parse_versioned::<T>(&text).map_err(|source| LoadError::Format {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod load_tests {
    use crate::Characterization;

    #[test]
    fn a_missing_or_foreign_file_is_named_in_the_error() {
        let dir = std::env::temp_dir().join(format!("opcost-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.json");
        let e = Characterization::load(&missing).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("cannot read characterization {}", missing.display())
        );
        let foreign = dir.join("foreign.json");
        std::fs::write(
            &foreign,
            r#"{"format": "opcost-prediction", "format_version": 1}"#,
        )
        .unwrap();
        let e = Characterization::load(&foreign).unwrap_err();
        assert_eq!(e.to_string(), foreign.display().to_string());
        let source = std::error::Error::source(&e).unwrap().to_string();
        assert!(source.contains("opcost-prediction"), "{source}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_parameter_this_build_does_not_know_suggests_a_newer_opcost() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/characterizations/amd-epyc-2c--gfortran-O0.json");
        let text = std::fs::read_to_string(fixture).unwrap();
        let newer = text.replacen("\"SRSL\"", "\"ZZZZ\"", 1);
        assert_ne!(newer, text);
        let e = crate::files::parse_versioned::<Characterization>(&newer).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("ZZZZ") && msg.contains("newer opcost"),
            "{msg}"
        );
    }
}

//! A result file that is replaced only by a complete one. Work in progress is saved to its
//! own partial file beside the result (`x.json` → `x.partial.json`); when the work is
//! complete, an existing result is kept as a dated backup (`x.20261125-150405.bak.json`)
//! and the new one takes its name. An interrupted run never touches the complete file.

use crate::{write_atomic, ExportError};
use std::path::{Path, PathBuf};

const PARTIAL: &str = ".partial";

/// `name` with `infix` before its extension: (`a/x.json`, `.partial`) → `a/x.partial.json`.
fn with_infix(path: &Path, infix: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(e) => format!("{stem}{infix}.{}", e.to_string_lossy()),
        None => format!("{stem}{infix}"),
    };
    path.with_file_name(name)
}

/// The partial file of a result: `x.json` → `x.partial.json`.
pub fn partial_path(result: &Path) -> PathBuf {
    with_infix(result, PARTIAL)
}

/// Whether `path` names a partial file (`x.partial.json`).
pub fn is_partial(path: &Path) -> bool {
    path.file_stem()
        .is_some_and(|s| s.to_string_lossy().ends_with(PARTIAL))
}

/// The result a partial file becomes: `x.partial.json` → `x.json` (any other path: itself).
pub fn result_path(path: &Path) -> PathBuf {
    if !is_partial(path) {
        return path.to_path_buf();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let stem = stem.trim_end_matches(PARTIAL);
    match path.extension() {
        Some(e) => path.with_file_name(format!("{stem}.{}", e.to_string_lossy())),
        None => path.with_file_name(stem),
    }
}

/// The backup of a result replaced at `stamp`: `x.json` → `x.<stamp>.bak.json` (with a
/// counter if that exists already).
pub fn backup_path(result: &Path, stamp: &str) -> PathBuf {
    let first = with_infix(result, &format!(".{stamp}.bak"));
    (1..)
        .map(|n| {
            if n == 1 {
                first.clone()
            } else {
                with_infix(result, &format!(".{stamp}-{n}.bak"))
            }
        })
        .find(|p| !p.exists())
        .unwrap_or(first)
}

/// Save work in progress to the result's partial file (atomically); the result is untouched.
pub fn save_partial(result: &Path, bytes: &[u8]) -> Result<PathBuf, ExportError> {
    let partial = partial_path(result);
    write_atomic(&partial, bytes).map_err(|e| ExportError::io(&partial, e))?;
    Ok(partial)
}

/// Install a complete result: an existing file of that name is kept as a dated backup
/// (returned), the new one is written atomically, and the partial file is removed.
pub fn promote(result: &Path, bytes: &[u8], stamp: &str) -> Result<Option<PathBuf>, ExportError> {
    let backup = if result.exists() {
        let b = backup_path(result, stamp);
        // A second name for the old file, so it exists under one name or the other at
        // every moment; a copy where links are not possible.
        std::fs::hard_link(result, &b)
            .or_else(|_| std::fs::copy(result, &b).map(|_| ()))
            .map_err(|e| ExportError::io(&b, e))?;
        Some(b)
    } else {
        None
    };
    write_atomic(result, bytes).map_err(|e| ExportError::io(result, e))?;
    let partial = partial_path(result);
    match std::fs::remove_file(&partial) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(ExportError::io(&partial, e))
        }
        _ => {}
    }
    Ok(backup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let r = Path::new("results/m--gfortran-O0.json");
        let p = partial_path(r);
        assert_eq!(p, Path::new("results/m--gfortran-O0.partial.json"));
        assert!(is_partial(&p) && !is_partial(r));
        assert_eq!(result_path(&p), r);
        assert_eq!(result_path(r), r);
        assert_eq!(
            backup_path(r, "20261125-150405"),
            Path::new("results/m--gfortran-O0.20261125-150405.bak.json")
        );
    }

    #[test]
    fn a_partial_save_keeps_the_result_and_promotion_backs_it_up() {
        let d = tempfile::tempdir().unwrap();
        let r = d.path().join("m.json");
        std::fs::write(&r, "old complete").unwrap();
        save_partial(&r, b"half").unwrap();
        assert_eq!(std::fs::read_to_string(&r).unwrap(), "old complete");
        let b = promote(&r, b"new complete", "20261125-150405")
            .unwrap()
            .unwrap();
        assert_eq!(std::fs::read_to_string(&r).unwrap(), "new complete");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "old complete");
        assert!(!partial_path(&r).exists());
        // A second promotion in the same second keeps both backups.
        let b2 = promote(&r, b"newer", "20261125-150405").unwrap().unwrap();
        assert_ne!(b, b2);
        assert_eq!(std::fs::read_to_string(&b2).unwrap(), "new complete");
    }
}

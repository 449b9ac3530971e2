//! The shared results folder: one characterization per node type and compiler, partial files
//! of runs under way, and whatever else a folder collects. Reading it never stops at a bad
//! file: each one is reported as a [`Problem`] and the rest is read.

use crate::node::NodeType;
use crate::FleetError;
use model::characterization::Characterization;
use std::path::{Path, PathBuf};

/// The state file's name in the folder (see [`crate::state`]).
pub const STATE_FILE: &str = "fleet-state.json";

/// The result file of a node type characterized with a compiler tag (`gfortran-O0`, with
/// `.quick` for a quick run): `<dir>/<node type>--<tag>.json`.
pub fn result_file(dir: &Path, node: &NodeType, tag: &str) -> PathBuf {
    dir.join(format!("{}--{tag}.json", node.name()))
}

/// The node type's name in a result file's name (`alpha--gfortran-O0.json` → `alpha`).
pub fn node_name_of(path: &Path) -> Option<String> {
    let stem = export::staged::result_path(path);
    let stem = stem.file_stem()?.to_string_lossy().into_owned();
    stem.split_once("--").map(|(n, _)| n.to_string())
}

/// A characterization found in the folder.
#[derive(Debug, Clone)]
pub struct Entry {
    pub path: PathBuf,
    pub characterization: Characterization,
}

impl Entry {
    /// The name a table shows: the result file's stem (`alpha--gfortran-O0`).
    pub fn name(&self) -> String {
        predictor::compare::system_name(&export::staged::result_path(&self.path))
    }
}

/// A file that could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// What the folder holds.
#[derive(Debug, Default)]
pub struct Folder {
    /// Complete characterizations, by file name.
    pub complete: Vec<Entry>,
    /// Runs under way or interrupted (`X.partial.json`, or a file marked incomplete).
    pub partial: Vec<Entry>,
    /// JSON files that are not readable characterizations.
    pub problems: Vec<Problem>,
}

/// Whether a file in the folder is a candidate characterization: JSON, not hidden (a write
/// in progress), not a backup of a replaced result, not the state file.
fn candidate(path: &Path) -> bool {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy()) else {
        return false;
    };
    name.ends_with(".json")
        && !name.starts_with('.')
        && !name.ends_with(".bak.json")
        && name != STATE_FILE
}

/// Read every characterization in `dir` (not its subfolders).
pub fn scan(dir: &Path) -> Result<Folder, FleetError> {
    let folder_error = |source| FleetError::Folder {
        dir: dir.to_path_buf(),
        source,
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(folder_error)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && candidate(p))
        .collect();
    paths.sort();
    let mut folder = Folder::default();
    for path in paths {
        match Characterization::load(&path) {
            Ok(c) if c.complete && !export::staged::is_partial(&path) => {
                folder.complete.push(Entry {
                    path,
                    characterization: c,
                })
            }
            Ok(c) => folder.partial.push(Entry {
                path,
                characterization: c,
            }),
            Err(e) => folder.problems.push(Problem {
                message: problem_message(&e),
                path,
            }),
        }
    }
    Ok(folder)
}

/// What is wrong with a file, without its path (the [`Problem`] carries it).
fn problem_message(e: &model::LoadError) -> String {
    match e {
        model::LoadError::Format { source, .. } => source.to_string(),
        model::LoadError::Read { source, .. } => format!("cannot read it: {source}"),
    }
}

impl Folder {
    /// The complete characterization in `path`, if the folder has it.
    pub fn complete_at(&self, path: &Path) -> Option<&Entry> {
        self.complete.iter().find(|e| e.path == path)
    }

    /// The partial file of the result `path`, if the folder has it.
    pub fn partial_of(&self, path: &Path) -> Option<&Entry> {
        let partial = export::staged::partial_path(path);
        self.partial.iter().find(|e| e.path == partial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Selector;

    #[test]
    fn result_names_carry_node_type_and_tag() {
        let n = NodeType::new(Selector::Partition, "alpha").unwrap();
        let p = result_file(Path::new("/r"), &n, "gfortran-O0.quick");
        assert_eq!(p, Path::new("/r/alpha--gfortran-O0.quick.json"));
        assert_eq!(node_name_of(&p).as_deref(), Some("alpha"));
        let partial = export::staged::partial_path(&p);
        assert_eq!(node_name_of(&partial).as_deref(), Some("alpha"));
        assert_eq!(node_name_of(Path::new("x.json")), None);
    }

    #[test]
    fn a_bad_file_is_a_problem_and_the_rest_is_read() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("broken.json"), "{ not json").unwrap();
        std::fs::write(
            d.path().join("other.json"),
            r#"{"format":"x","format_version":1}"#,
        )
        .unwrap();
        std::fs::write(d.path().join(STATE_FILE), "{}").unwrap();
        std::fs::write(d.path().join("a.20260101-000000.bak.json"), "{").unwrap();
        std::fs::write(d.path().join("notes.txt"), "hello").unwrap();
        let f = scan(d.path()).unwrap();
        assert!(f.complete.is_empty() && f.partial.is_empty());
        let names: Vec<String> = f.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names[0].contains("broken.json") && names[0].contains("not a JSON file"));
        assert!(names[1].contains("other.json") && names[1].contains("opcost x file"));
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_it() {
        let e = scan(Path::new("/nonexistent/fleet")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/fleet"));
    }
}

//! The programs a validation runs: one source file given on the command line, or the
//! entries of a corpus manifest (`corpus/manifest.toml`), each with its set (tune, check,
//! holdout, real), its source files (one program, analyzed as one), and how it is run (standard
//! input, arguments, the extra compiler flags legacy code needs).
//!
//! The sets keep the judgement honest: a rule of the model is adopted on the *check* set as
//! a whole, never on the programs it was developed with (the *tune* set); the *holdout* set,
//! written by others who saw neither the corpus nor the model, is judged the same way.

use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The sets a corpus program may belong to, in report order.
pub const SETS: [&str; 4] = ["tune", "check", "holdout", "real"];

/// What a program outside any corpus set is reported under.
pub const NO_SET: &str = "programs";

/// The name a program's set is reported under.
pub fn set_name(set: &Option<String>) -> String {
    set.clone().unwrap_or_else(|| NO_SET.into())
}

/// Sort set names into report order (the corpus's sets first, in [`SETS`] order) and drop
/// repeats.
pub fn sort_sets(names: &mut Vec<String>) {
    let rank = |s: &String| SETS.iter().position(|x| x == s).unwrap_or(SETS.len());
    names.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
    names.dedup();
}

#[derive(Debug, Error)]
pub enum ManifestError {
    #[error("cannot read the manifest {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a corpus manifest: {message}")]
    Syntax { path: String, message: String },
    #[error("{path}: program {name:?}: {message}")]
    Entry {
        path: String,
        name: String,
        message: String,
    },
}

/// One program to validate.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgramSpec {
    pub name: String,
    /// Its corpus set (tune, check, holdout, real); None for a file named on the command line.
    pub set: Option<String>,
    /// Source files of the one program, in order.
    pub sources: Vec<PathBuf>,
    /// File fed to standard input.
    pub stdin: Option<PathBuf>,
    /// Command-line arguments of its runs.
    pub args: Vec<String>,
    /// Compiler flags the program needs beyond the system's (e.g. `-fallow-argument-mismatch`).
    pub flags: Vec<String>,
    /// Skip statements that cannot be parsed (counted as uncharacterized) instead of
    /// refusing the program (`--keep-going`).
    pub keep_going: bool,
    /// Working directory of its runs (the manifest's folder, so input files are found).
    pub dir: Option<PathBuf>,
}

impl ProgramSpec {
    /// A program of one source file, named after it, run without input.
    pub fn from_file(path: &Path) -> ProgramSpec {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        ProgramSpec {
            name,
            set: None,
            sources: vec![path.to_path_buf()],
            stdin: None,
            args: Vec::new(),
            flags: Vec::new(),
            keep_going: false,
            dir: None,
        }
    }

    /// The first source file (for messages and the CSV's `file` column).
    pub fn main_source(&self) -> &Path {
        &self.sources[0]
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    program: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    name: String,
    set: String,
    sources: Vec<PathBuf>,
    stdin: Option<PathBuf>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    flags: Vec<String>,
}

/// Read a manifest; paths in it are relative to its folder and come back absolute.
pub fn load_manifest(path: &Path) -> Result<Vec<ProgramSpec>, ManifestError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| ManifestError::Read {
        path: shown.clone(),
        source,
    })?;
    let raw: RawManifest = toml::from_str(&text).map_err(|e| ManifestError::Syntax {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    let base = std::fs::canonicalize(path)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("."));
    let mut seen = BTreeSet::new();
    raw.program
        .into_iter()
        .map(|e| {
            let bad = |message: String| ManifestError::Entry {
                path: shown.clone(),
                name: e.name.clone(),
                message,
            };
            if !seen.insert(e.name.clone()) {
                return Err(bad("the name is used twice".into()));
            }
            if !SETS.contains(&e.set.as_str()) {
                return Err(bad(format!(
                    "set {:?} is not one of {}",
                    e.set,
                    SETS.join(", ")
                )));
            }
            if e.sources.is_empty() {
                return Err(bad("no sources".into()));
            }
            let resolve = |p: &Path| -> Result<PathBuf, ManifestError> {
                let full = base.join(p);
                std::fs::canonicalize(&full)
                    .ok()
                    .filter(|f| f.is_file())
                    .ok_or_else(|| bad(format!("{} does not exist", full.display())))
            };
            Ok(ProgramSpec {
                sources: e
                    .sources
                    .iter()
                    .map(|p| resolve(p))
                    .collect::<Result<_, _>>()?,
                stdin: e.stdin.as_deref().map(resolve).transpose()?,
                name: e.name.clone(),
                set: Some(e.set.clone()),
                args: e.args.clone(),
                flags: e.flags.clone(),
                keep_going: false,
                dir: Some(base.clone()),
            })
        })
        .collect()
}

/// The programs of the given manifests that belong to `sets` (all when empty), in
/// manifest order; an unknown set name is an error.
pub fn select(manifests: &[PathBuf], sets: &[String]) -> Result<Vec<ProgramSpec>, ManifestError> {
    if let Some(s) = sets.iter().find(|s| !SETS.contains(&s.as_str())) {
        return Err(ManifestError::Entry {
            path: "--set".into(),
            name: s.clone(),
            message: format!("not a set; the sets are {}", SETS.join(", ")),
        });
    }
    let mut out = Vec::new();
    for m in manifests {
        out.extend(
            load_manifest(m)?
                .into_iter()
                .filter(|p| sets.is_empty() || p.set.as_ref().is_some_and(|s| sets.contains(s))),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn manifest_paths_are_resolved_against_its_folder() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "a.f", "      END\n");
        write(d.path(), "in.dat", "1\n");
        let m = write(
            d.path(),
            "m.toml",
            "[[program]]\nname = \"a\"\nset = \"check\"\nsources = [\"a.f\"]\nstdin = \"in.dat\"\nflags = [\"-std=legacy\"]\n\n[[program]]\nname = \"b\"\nset = \"tune\"\nsources = [\"a.f\"]\n",
        );
        let all = load_manifest(&m).unwrap();
        assert_eq!(all.len(), 2);
        assert!(all[0].sources[0].is_absolute());
        assert_eq!(
            all[0].stdin.as_ref().unwrap().file_name().unwrap(),
            "in.dat"
        );
        assert_eq!(all[0].flags, ["-std=legacy"]);
        let check = select(std::slice::from_ref(&m), &["check".into()]).unwrap();
        assert_eq!(check.len(), 1);
        assert_eq!(check[0].name, "a");
        assert!(select(&[m], &["nonsense".into()]).is_err());
    }

    #[test]
    fn bad_entries_are_named() {
        let d = tempfile::tempdir().unwrap();
        let m = write(
            d.path(),
            "m.toml",
            "[[program]]\nname = \"x\"\nset = \"check\"\nsources = [\"missing.f\"]\n",
        );
        let e = load_manifest(&m).unwrap_err().to_string();
        assert!(e.contains("\"x\"") && e.contains("does not exist"), "{e}");
        let m = write(d.path(), "n.toml", "[[program]]\nname = 3\n");
        let e = load_manifest(&m).unwrap_err().to_string();
        assert!(e.contains("not a corpus manifest"), "{e}");
        let m = write(
            d.path(),
            "o.toml",
            "[[program]]\nname = \"x\"\nset = \"other\"\nsources = [\"m.toml\"]\n",
        );
        let e = load_manifest(&m).unwrap_err().to_string();
        assert!(e.contains("not one of"), "{e}");
    }
}

/// Why the programs to validate cannot be chosen.
#[derive(Debug, Error)]
pub enum ChoiceError {
    #[error("no programs given and {} cannot be read ({error}); name the programs to validate or give --manifest", dir.display())]
    NoSamples { dir: PathBuf, error: std::io::Error },
    #[error("--set chooses programs of a manifest; give --manifest (e.g. corpus/manifest.toml)")]
    SetWithoutManifest,
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    #[error("no programs to validate")]
    NoPrograms,
    #[error("two programs are named {0}; rename one (the results are keyed by name)")]
    Duplicate(String),
}

/// The programs to validate, as given.
#[derive(Debug, Clone, Default)]
pub struct ProgramChoice {
    /// Source files, one program each, run with `stdin`, `run_args` and `flags`.
    pub files: Vec<PathBuf>,
    /// Manifests whose programs (of `sets`, or all) are added.
    pub manifests: Vec<PathBuf>,
    pub sets: Vec<String>,
    pub stdin: Option<PathBuf>,
    pub run_args: Vec<String>,
    pub flags: Vec<String>,
    pub keep_going: bool,
    /// The sample programs taken when neither files nor manifests are given:
    /// `fortran-samples/` here, else this folder.
    pub samples: PathBuf,
}

/// The `.f` files of a folder, in name order.
fn sample_programs(samples: &Path) -> Result<Vec<PathBuf>, ChoiceError> {
    let here = PathBuf::from("fortran-samples");
    let dir = if here.is_dir() {
        here
    } else {
        samples.to_path_buf()
    };
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|error| ChoiceError::NoSamples {
            dir: dir.clone(),
            error,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "f"))
        .collect();
    v.sort();
    Ok(v)
}

/// The programs named on the command line and the manifests' entries of the chosen sets;
/// the samples when neither is given. Names must be unique (the results are keyed by name).
pub fn choose_programs(c: &ProgramChoice) -> Result<Vec<ProgramSpec>, ChoiceError> {
    let files = if c.files.is_empty() && c.manifests.is_empty() {
        sample_programs(&c.samples)?
    } else {
        c.files.clone()
    };
    let mut specs: Vec<ProgramSpec> = files
        .iter()
        .map(|f| {
            let mut s = ProgramSpec::from_file(f);
            s.stdin = c.stdin.clone();
            s.args = c.run_args.clone();
            s.flags = c.flags.clone();
            s
        })
        .collect();
    if !c.sets.is_empty() && c.manifests.is_empty() {
        return Err(ChoiceError::SetWithoutManifest);
    }
    specs.extend(select(&c.manifests, &c.sets)?);
    for s in &mut specs {
        s.keep_going = c.keep_going;
    }
    if specs.is_empty() {
        return Err(ChoiceError::NoPrograms);
    }
    let mut names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(ChoiceError::Duplicate(w[0].to_string()));
    }
    Ok(specs)
}

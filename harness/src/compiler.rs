//! The Fortran compiler of the system being characterized (gfortran by default). The compiler
//! and its flags are part of the system (Saavedra-Barrera's section 3) and are recorded in every result.

use model::characterization::CompilerInfo;
use std::path::{Path, PathBuf};
use std::process::Command;
use thiserror::Error;

/// The compiler could not be found or started.
#[derive(Debug, Error)]
pub enum CompilerError {
    #[error("Fortran compiler `{name}` not found on PATH. Install it with `sudo apt-get install gfortran` (Debian/Ubuntu), or pass --compiler /path/to/compiler")]
    NotFound { name: String },
    #[error("Fortran compiler `{path}` could not be run: {source}")]
    NotRunnable {
        path: String,
        source: std::io::Error,
    },
}

/// A compilation failed; `stderr` is the compiler's message.
#[derive(Debug, Error)]
#[error("{compiler} failed to compile {file}:\n{stderr}")]
pub struct CompileError {
    pub compiler: String,
    pub file: String,
    pub stderr: String,
}

/// A Fortran compiler with the flags of the system being characterized.
#[derive(Debug, Clone)]
pub struct Compiler {
    pub path: PathBuf,
    pub version: String,
    pub flags: Vec<String>,
}

/// Whether a failed link is Debian's flang-new not finding its runtime: it links the
/// runtime by name but does not tell the linker where it is.
fn misses_flang_runtime(stderr: &str) -> bool {
    stderr.contains("cannot find -lFortran")
}

/// The flags a compiler's error output says it does not know: LLVM drivers' "unknown
/// argument: '-X'", GCC's "unrecognized command-line option '-X'" (quoted ‘-X’ in a UTF-8
/// locale).
fn unknown_flags(stderr: &str) -> Vec<std::ffi::OsString> {
    const SAYINGS: [&str; 2] = ["unknown argument: ", "unrecognized command-line option "];
    stderr
        .lines()
        .filter_map(|l| {
            let quoted = SAYINGS.iter().find_map(|s| l.split_once(s))?.1;
            let flag = quoted.trim_start_matches(['\'', '‘']);
            Some(flag.split(['\'', '’']).next()?.into())
        })
        .collect()
}

/// The directory holding flang-new's runtime (`/usr/lib/llvm-N/lib` on Debian), if any.
fn flang_runtime_dir() -> Option<PathBuf> {
    std::fs::read_dir("/usr/lib")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("lib"))
        .find(|d| d.join("libFortranRuntime.a").is_file())
}

/// A compiler's message with what to do about a failure whose remedy is known.
fn with_hint(stderr: String) -> String {
    if !misses_flang_runtime(&stderr) {
        return stderr;
    }
    let hint = match flang_runtime_dir() {
        Some(d) => format!("export LIBRARY_PATH={}", d.display()),
        None => "install its runtime (Debian: libflang-16-dev) and set LIBRARY_PATH to the directory holding libFortranRuntime.a".to_string(),
    };
    format!("{stderr}\nhint: flang-new cannot find its runtime libraries: {hint}")
}

/// `LIBRARY_PATH` with `dir` first.
fn library_path_with(dir: &Path) -> std::ffi::OsString {
    let mut dirs = vec![dir.to_path_buf()];
    if let Some(old) = std::env::var_os("LIBRARY_PATH") {
        dirs.extend(std::env::split_paths(&old));
    }
    std::env::join_paths(dirs).unwrap_or_else(|_| dir.as_os_str().to_os_string())
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

impl Compiler {
    /// Find `name` (default `gfortran`) and ask it for its version.
    pub fn find(name: Option<&str>, flags: &[String]) -> Result<Compiler, CompilerError> {
        let name = name.unwrap_or("gfortran");
        let path = find_on_path(name).ok_or_else(|| CompilerError::NotFound {
            name: name.to_string(),
        })?;
        let out = Command::new(&path)
            .arg("--version")
            .output()
            .map_err(|source| CompilerError::NotRunnable {
                path: path.display().to_string(),
                source,
            })?;
        let version = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("unknown")
            .trim()
            .to_string();
        Ok(Compiler {
            path,
            version,
            flags: flags.to_vec(),
        })
    }

    /// Split a user's `--flags "..."` string.
    pub fn split_flags(flags: &str) -> Vec<String> {
        flags.split_whitespace().map(str::to_string).collect()
    }

    pub fn info(&self) -> CompilerInfo {
        CompilerInfo {
            path: self.path.display().to_string(),
            version: self.version.clone(),
            flags: self.flags.clone(),
        }
    }

    fn run(&self, args: &[&std::ffi::OsStr], what: &Path, cwd: &Path) -> Result<(), CompileError> {
        // The compiler runs in `cwd` (so its by-products land beside the output); paths the
        // caller gave relative to its own directory must not change meaning.
        let here = std::env::current_dir().unwrap_or_default();
        let cwd = here.join(cwd);
        let args: Vec<std::ffi::OsString> = args
            .iter()
            .map(|a| {
                let p = Path::new(a);
                // Every argument the harness passes that is not a flag is a path.
                if !a.to_string_lossy().starts_with('-') && p.is_relative() {
                    here.join(p).into_os_string()
                } else {
                    a.to_os_string()
                }
            })
            .collect();
        let mut args = args;
        let run = |args: &[std::ffi::OsString], library_path: Option<&Path>| {
            let mut cmd = Command::new(&self.path);
            cmd.args(&self.flags).args(args).current_dir(&cwd);
            if let Some(dir) = library_path {
                cmd.env("LIBRARY_PATH", library_path_with(dir));
            }
            cmd.output().map_err(|e| CompileError {
                compiler: self.path.display().to_string(),
                file: what.display().to_string(),
                stderr: e.to_string(),
            })
        };
        let mut out = run(&args, None)?;
        // A tuning flag of the harness's own that this compiler does not know (flang-new 19
        // refuses GCC's -ftree-vectorize, which flang-new 16 ignored): build without it.
        let unknown = unknown_flags(&String::from_utf8_lossy(&out.stderr));
        if !out.status.success() && args.iter().any(|a| unknown.contains(a)) {
            args.retain(|a| !unknown.contains(a));
            out = run(&args, None)?;
        }
        // Debian's flang-new links its runtime by name only: tell the linker where it is.
        if !out.status.success() && misses_flang_runtime(&String::from_utf8_lossy(&out.stderr)) {
            if let Some(dir) = flang_runtime_dir() {
                out = run(&args, Some(&dir))?;
            }
        }
        if out.status.success() {
            Ok(())
        } else {
            Err(CompileError {
                compiler: self.path.display().to_string(),
                file: what.display().to_string(),
                stderr: with_hint(String::from_utf8_lossy(&out.stderr).into_owned()),
            })
        }
    }

    /// Compile one source file to an object file (separate compilation keeps operand
    /// initialisation out of the optimizer's sight, Saavedra-Barrera's section 4.3).
    pub fn compile_object(
        &self,
        source: &Path,
        object: &Path,
        extra: &[&str],
    ) -> Result<(), CompileError> {
        let mut args: Vec<&std::ffi::OsStr> = extra.iter().map(|s| s.as_ref()).collect();
        args.extend([
            "-c".as_ref(),
            source.as_os_str(),
            "-o".as_ref(),
            object.as_os_str(),
        ]);
        let compiled = self.run(&args, source, source.parent().unwrap_or(Path::new(".")));
        match compiled {
            // flang-new's driver has no assembler ("unknown integrated tool '-cc1as'"): an
            // assembly listing it wrote is assembled by the system's, which takes its DWARF 5
            // file entries with --gdwarf-5.
            Err(e) if source.extension().is_some_and(|x| x == "s") => {
                let assembled = Command::new("as")
                    .arg("--gdwarf-5")
                    .arg(source)
                    .arg("-o")
                    .arg(object)
                    .output();
                match assembled {
                    Ok(out) if out.status.success() => Ok(()),
                    _ => Err(e),
                }
            }
            other => other,
        }
    }

    /// Compile one source file to an assembly listing with line directives (`-S -g`), with
    /// `extra` flags after the system's own.
    pub fn assemble(&self, source: &Path, out: &Path, extra: &[&str]) -> Result<(), CompileError> {
        let mut args: Vec<&std::ffi::OsStr> = extra.iter().map(|s| s.as_ref()).collect();
        args.extend::<[&std::ffi::OsStr; 5]>([
            "-S".as_ref(),
            "-g".as_ref(),
            source.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ]);
        self.run(&args, source, out.parent().unwrap_or(Path::new(".")))
    }

    /// Compile and link sources and objects into an executable.
    pub fn build(
        &self,
        inputs: &[PathBuf],
        exe: &Path,
        extra: &[&str],
    ) -> Result<(), CompileError> {
        let mut args: Vec<&std::ffi::OsStr> = extra.iter().map(|s| s.as_ref()).collect();
        args.extend(inputs.iter().map(|p| p.as_os_str()));
        args.extend(["-o".as_ref(), exe.as_os_str()]);
        let first = inputs.first().map(PathBuf::as_path).unwrap_or(exe);
        self.run(&args, first, exe.parent().unwrap_or(Path::new(".")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_compiler_says_how_to_install() {
        let e = Compiler::find(Some("no-such-fortran-compiler-xyz"), &[]).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("apt-get install gfortran"), "{msg}");
    }

    #[test]
    fn flags_split_on_whitespace() {
        assert_eq!(Compiler::split_flags(" -O1  -g "), vec!["-O1", "-g"]);
    }
}

#[cfg(test)]
mod path_tests {
    use super::*;

    /// The system's gfortran, and `text` written to `name` in a fresh folder; None (the test
    /// is skipped) without gfortran.
    fn compiler_and_source(
        name: &str,
        text: &str,
    ) -> Option<(Compiler, tempfile::TempDir, PathBuf)> {
        let Ok(c) = Compiler::find(None, &[]) else {
            eprintln!("skipping: gfortran is not installed");
            return None;
        };
        let d = tempfile::tempdir().unwrap();
        let src = d.path().join(name);
        std::fs::write(&src, text).unwrap();
        Some((c, d, src))
    }

    /// A flag of the harness's own that the compiler refuses (X-Ray's -ftree-vectorize under
    /// flang-new 19) is left out; a flag the user gave is not.
    #[test]
    fn a_tuning_flag_the_compiler_does_not_know_is_left_out_but_not_the_users() {
        let source = "      X = 1.0\n      PRINT *, X\n      END\n";
        let Some((c, d, src)) = compiler_and_source("p.f", source) else {
            return;
        };
        let obj = d.path().join("p.o");
        c.compile_object(&src, &obj, &["-O1", "-fno-such-tuning-flag"])
            .unwrap();
        assert!(obj.exists());
        let theirs = Compiler::find(None, &["-fno-such-tuning-flag".to_string()]).unwrap();
        let e = theirs.compile_object(&src, &obj, &[]).unwrap_err();
        assert!(e.to_string().contains("no-such-tuning-flag"), "{e}");
        assert_eq!(
            unknown_flags("flang-new: error: unknown argument: '-ftree-vectorize'\n"),
            vec![std::ffi::OsString::from("-ftree-vectorize")]
        );
    }

    /// An assembly listing with DWARF 5 file entries (flang-new 19's, which its driver
    /// cannot assemble) is assembled by the system's assembler when the compiler fails.
    #[test]
    fn a_listing_the_compiler_cannot_assemble_is_assembled_by_the_system() {
        let listing = "\t.text\n\t.globl\tseven_\n\t.type\tseven_,@function\nseven_:\n\t.file\t1 \"/tmp\" \"seven.f\"\n\t.loc\t1 1 0\n\tmovl\t$7, %eax\n\tret\n\t.size\tseven_, .-seven_\n\t.section\t\".note.GNU-stack\",\"\",@progbits\n";
        let Some((c, d, src)) = compiler_and_source("seven.s", listing) else {
            return;
        };
        let obj = d.path().join("seven.o");
        c.compile_object(&src, &obj, &[]).unwrap();
        assert!(std::fs::metadata(&obj).unwrap().len() > 0);
        // Not an assembly listing: the compiler's error stands.
        let bad = d.path().join("bad.f");
        std::fs::write(&bad, "      X = (\n      END\n").unwrap();
        assert!(c
            .compile_object(&bad, &d.path().join("bad.o"), &[])
            .is_err());
    }

    /// Regression: a relative source path must not be resolved against the output's folder.
    #[test]
    fn relative_sources_compile_into_another_directory() {
        let Ok(c) = Compiler::find(None, &[]) else {
            eprintln!("skipping: gfortran is not installed");
            return;
        };
        let d = tempfile::tempdir_in(".").unwrap();
        let rel = d
            .path()
            .strip_prefix(std::env::current_dir().unwrap())
            .unwrap()
            .to_path_buf();
        std::fs::write(rel.join("p.f"), "      PRINT *, 'HI'\n      END\n").unwrap();
        let out = tempfile::tempdir().unwrap();
        c.build(&[rel.join("p.f")], &out.path().join("p"), &[])
            .unwrap();
        assert!(out.path().join("p").exists());
    }
}

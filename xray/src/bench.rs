//! Compiling and running X-Ray's generated programs through the shared harness, so they are
//! built by the compiler of the system being characterized (issue 6) and every run has a time
//! limit.

use crate::XrayError;
use harness::Compiler;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A scratch directory holding the generated sources and executables of one X-Ray run.
pub struct Workshop<'c> {
    pub compiler: &'c Compiler,
    dir: tempfile::TempDir,
}

impl<'c> Workshop<'c> {
    pub fn new(compiler: &'c Compiler) -> Result<Self, XrayError> {
        let dir = tempfile::Builder::new()
            .prefix("opcost-xray-")
            .tempdir()
            .map_err(|e| XrayError::Io(format!("cannot create a scratch directory: {e}")))?;
        Ok(Workshop { compiler, dir })
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Write `sources` (file name, text), compile each to an object with its own extra flags,
    /// link them into executable `exe`.
    pub fn build(
        &self,
        exe: &str,
        sources: &[(&str, &str, &[&str])],
    ) -> Result<PathBuf, XrayError> {
        let mut objects = Vec::new();
        for (name, text, flags) in sources {
            let src = self.path(name);
            std::fs::write(&src, text)
                .map_err(|e| XrayError::Io(format!("cannot write {}: {e}", src.display())))?;
            let obj = src.with_extension("o");
            self.compiler
                .compile_object(&src, &obj, flags)
                .map_err(|e| XrayError::Compile(e.to_string()))?;
            objects.push(obj);
        }
        let exe_path = self.path(exe);
        self.compiler
            .build(&objects, &exe_path, &[])
            .map_err(|e| XrayError::Compile(e.to_string()))?;
        Ok(exe_path)
    }

    /// Write source `name` and compile it with `flags` to an assembly listing (`-S -g`),
    /// `<stem>.s` beside it; the listing's text. Building from that `.s` runs the code read.
    pub fn listing(&self, name: &str, text: &str, flags: &[&str]) -> Result<String, XrayError> {
        let src = self.path(name);
        std::fs::write(&src, text)
            .map_err(|e| XrayError::Io(format!("cannot write {}: {e}", src.display())))?;
        self.compiler
            .assembly_listing_with(&src, self.dir.path(), flags)
            .map_err(|e| XrayError::Compile(e.to_string()))
    }
}

/// The aligned, huge-page buffer module the chase and stream programs allocate with
/// (`xray_buffer`): compile it first, before a program that uses it.
pub const BUFFER_SOURCE: (&str, &str, &[&str]) =
    ("buffer.f90", include_str!("fortran/buffer.f90"), &["-O2"]);

/// Run a generated program with `input` on standard input under `limit`; its standard output.
/// Its stack may grow to the hard limit, as the programs' own runs' may: flang-new 16 puts
/// the window program's arrays on the stack, past the usual 8 MB.
pub fn run(exe: &Path, args: &[String], input: &str, limit: Duration) -> Result<String, XrayError> {
    let mut cmd = Command::new(exe);
    cmd.args(args);
    harness::raise_stack_limit(&mut cmd);
    let out = harness::run_limited(&mut cmd, limit, Some(input.as_bytes()))
        .map_err(|e| XrayError::Run(e.to_string()))?;
    if !out.success() {
        return Err(XrayError::Run(format!(
            "{} failed ({}): {}{}",
            exe.display(),
            out.status,
            out.stderr.trim(),
            out.stdout
                .lines()
                .find(|l| l.starts_with("ERROR"))
                .unwrap_or("")
        )));
    }
    Ok(out.stdout)
}

/// Parse the numbers after `tag` on every line that starts with it.
pub fn tagged_numbers(stdout: &str, tag: &str) -> Vec<Vec<f64>> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix(tag).filter(|r| r.starts_with(' ')))
        .map(|rest| {
            rest.split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect()
        })
        .collect()
}

/// The (integer, value) pairs after `tag` on every line that starts with it: a measurement's
/// time at each of the counts it tried, the counts multiplied by `scale`.
pub fn tagged_pairs(stdout: &str, tag: &str, scale: u32) -> Vec<(u32, f64)> {
    tagged_numbers(stdout, tag)
        .iter()
        .filter_map(|v| match v.as_slice() {
            [k, ns] => Some((*k as u32 * scale, *ns)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn tagged_numbers_only_take_their_tag() {
        let out = "R 4 1.5 2.0\nRX 9\nJ 7\nR 2 3\n";
        assert_eq!(
            super::tagged_numbers(out, "R"),
            vec![vec![4.0, 1.5, 2.0], vec![2.0, 3.0]]
        );
    }
}

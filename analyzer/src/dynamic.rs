//! Dynamic counts (Saavedra-Barrera's section 5.2): compile the instrumented copy with the same
//! compiler and flags, run it with the program's arguments and input under a time limit,
//! read the counters back and multiply them by the static counts of each block. The
//! original source is never touched; the copy lives in a temporary directory.

use crate::instrument::{instrument_counters, Instrumented};
use crate::{stats, Analysis, AnalyzeError, AnalyzeOptions, RunSpec};
use harness::Compiler;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The flags of the support routines: without those that select a language standard (they
/// use Fortran 2003/2008 features: GET_ENVIRONMENT_VARIABLE, NEWUNIT) and optimized (-O2),
/// since the simulated branch predictor runs once per evaluation of a watched IF (the counts
/// do not depend on how the support is compiled; at -O0 it tripled some counting runs).
fn support_flags(flags: &[String]) -> Vec<String> {
    flags
        .iter()
        .filter(|f| {
            !f.starts_with("-std=")
                && !f.starts_with("-O")
                && *f != "-pedantic"
                && *f != "-pedantic-errors"
        })
        .cloned()
        .chain(["-O2".to_string()])
        .collect()
}

/// A compiler with the line-length flag the analysis was told about.
pub fn with_line_length(compiler: &Compiler, line_length: usize) -> Compiler {
    let mut c = compiler.clone();
    if line_length > 72 && !c.flags.iter().any(|f| f.starts_with("-ffixed-line-length")) {
        c.flags.push(format!("-ffixed-line-length-{line_length}"));
    }
    c
}

/// Build the instrumented program in `dir`; returns the executable.
pub fn build_instrumented(
    inst: &Instrumented,
    dir: &Path,
    compiler: &Compiler,
) -> Result<PathBuf, AnalyzeError> {
    let io = |what: &str| {
        let what = what.to_string();
        move |source| AnalyzeError::Io { what, source }
    };
    let mut inputs = Vec::new();
    for (i, (orig, text)) in inst.files.iter().enumerate() {
        let stem = Path::new(orig)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "src".into());
        let p = dir.join(format!("{i:02}_{stem}.f"));
        std::fs::write(&p, text).map_err(io("writing the instrumented copy"))?;
        inputs.push(p);
    }
    let support = dir.join("opcost_support.f");
    std::fs::write(&support, &inst.support).map_err(io("writing the counter dump routine"))?;
    let support_obj = dir.join("opcost_support.o");
    let plain = Compiler {
        flags: support_flags(&compiler.flags),
        ..compiler.clone()
    };
    plain
        .compile_object(&support, &support_obj, &[])
        .map_err(AnalyzeError::InstrumentedCompile)?;
    inputs.push(support_obj);
    let exe = dir.join("counted");
    compiler
        .build(&inputs, &exe, &[])
        .map_err(AnalyzeError::InstrumentedCompile)?;
    if !exe.is_file() {
        return Err(AnalyzeError::NoExecutable {
            compiler: compiler.path.display().to_string(),
            exe: exe.display().to_string(),
        });
    }
    Ok(exe)
}

/// Run an executable as the user's program would run, with the largest stack the system
/// allows (`harness::raise_stack_limit`); returns its output.
pub fn run_program(
    exe: &Path,
    run: &RunSpec,
    env: &[(&str, &Path)],
) -> Result<harness::RunOutput, AnalyzeError> {
    let input = match &run.stdin {
        Some(p) => Some(std::fs::read(p).map_err(|source| AnalyzeError::Stdin {
            path: p.display().to_string(),
            source,
        })?),
        None => None,
    };
    let mut cmd = Command::new(exe);
    harness::raise_stack_limit(&mut cmd);
    cmd.args(&run.args);
    if let Some(d) = &run.cwd {
        cmd.current_dir(d);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    Ok(harness::run_limited(
        &mut cmd,
        run.time_limit,
        input.as_deref(),
    )?)
}

/// Why a run may have failed: the program reads standard input and none was given. The text
/// goes after "before writing its counters" (empty when there is nothing to say).
fn stdin_hint(program: &crate::Program, run: &RunSpec) -> String {
    if run.stdin.is_some() {
        return String::new();
    }
    let reads = program.files.iter().find_map(|f| {
        f.statements
            .iter()
            .find(|s| reads_standard_input(&s.text))
            .map(|s| (f.path.clone(), s.first_line() + 1))
    });
    match reads {
        Some((path, line)) => format!(
            " (it reads standard input, at {path}:{line}, and none was given: \
             --stdin FILE feeds it one; the file named below is the instrumented copy, \
             since deleted)"
        ),
        None => String::new(),
    }
}

/// Whether a squeezed statement reads unit 5 or `*` (`READ(*,...)`, `READ(5,...)`,
/// `READ(UNIT=5...`, `READ*,...`, `READ 10,...`), also as a logical IF's consequent.
fn reads_standard_input(text: &str) -> bool {
    let Some(at) = text.find("READ") else {
        return false;
    };
    let rest = &text[at + 4..];
    let unit = rest
        .strip_prefix('(')
        .map(|r| r.strip_prefix("UNIT=").unwrap_or(r));
    match unit {
        Some(u) => {
            u.starts_with('*')
                || (u.starts_with('5') && !u[1..].starts_with(|c: char| c.is_ascii_digit()))
        }
        None => rest.starts_with('*') || rest.starts_with(|c: char| c.is_ascii_digit()),
    }
}

/// Parse the counters file written by the dump routine.
pub fn read_counters(text: &str, expected: usize) -> Result<Vec<u64>, AnalyzeError> {
    let mut it = text.split_whitespace();
    let n: usize = it
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| AnalyzeError::Counters("no counter count on the first line".into()))?;
    if n != expected {
        return Err(AnalyzeError::Counters(format!(
            "{n} counters written, {expected} expected"
        )));
    }
    let v: Vec<u64> = it
        .enumerate()
        .map(|(k, s)| match s.parse::<i64>() {
            Ok(v) if v < 0 => Err(format!(
                "counter {} is negative ({v}): a count wrapped around",
                k + 1
            )),
            Ok(v) => Ok(v as u64),
            Err(e) => Err(format!("counter {}: {e}", k + 1)),
        })
        .collect::<Result<_, _>>()
        .map_err(AnalyzeError::Counters)?;
    if v.len() != n {
        return Err(AnalyzeError::Counters(format!(
            "{} values for {n} counters",
            v.len()
        )));
    }
    Ok(v)
}

/// Whether counter `slot` (0-based) of a counters file is nonzero.
pub fn slot_raised(text: &str, slot: usize) -> bool {
    text.split_whitespace()
        .nth(slot + 1)
        .and_then(|v| v.parse::<i64>().ok())
        .is_some_and(|v| v != 0)
}

/// Dynamic analysis: static counts plus executions of one run (Saavedra-Barrera's table 5.5).
pub fn analyze_dynamic(
    files: &[PathBuf],
    opts: &AnalyzeOptions,
    compiler: &Compiler,
    run: &RunSpec,
) -> Result<Analysis, AnalyzeError> {
    let program = crate::load(files, opts)?;
    if !program
        .units
        .iter()
        .any(|u| u.kind == crate::symbols::UnitKind::Main)
    {
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        return Err(AnalyzeError::NoMain {
            files: names.join(", "),
        });
    }
    let mut compiler = program_compiler(compiler, opts);
    let dir = tempfile::Builder::new()
        .prefix("opcost-analyze-")
        .tempdir()
        .map_err(|source| AnalyzeError::Io {
            what: "creating a temporary directory".into(),
            source,
        })?;
    // The original must compile: otherwise the user's error, not ours.
    let added_flags = legacy_flags(files, dir.path(), &compiler)?;
    compiler.flags.extend(added_flags.iter().cloned());
    let opts = &AnalyzeOptions {
        program_flags: [opts.program_flags.clone(), added_flags.clone()].concat(),
        ..opts.clone()
    };
    if program.probes.is_empty() {
        return Err(AnalyzeError::Empty);
    }
    let work = match &opts.keep_instrumented {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|source| AnalyzeError::Io {
                what: format!("creating {}", d.display()),
                source,
            })?;
            d.clone()
        }
        None => dir.path().to_path_buf(),
    };
    // INCLUDE files are found next to the originals.
    for f in files {
        if let Some(d) = f.parent().filter(|d| !d.as_os_str().is_empty()) {
            let d = std::fs::canonicalize(d).unwrap_or_else(|_| d.to_path_buf());
            compiler.flags.push(format!("-I{}", d.display()));
        }
    }
    // Induction counting first; without it if the copy does not build or a step was zero.
    let mut counters = None;
    for induction in [true, false] {
        if !induction && program.loops.induction.is_empty() {
            break;
        }
        let inst = instrument_counters(
            &program,
            opts.line_length,
            opts.simulate_branches,
            induction,
        );
        let exe = match build_instrumented(&inst, &work, &compiler) {
            Ok(exe) => exe,
            Err(_) if induction && !program.loops.induction.is_empty() => continue,
            Err(e) => return Err(e),
        };
        let counts_file = work.join("counters.txt");
        let _ = std::fs::remove_file(&counts_file);
        let out = run_program(&exe, run, &[("OPCOST_COUNTS", &counts_file)])?;
        let text = match std::fs::read_to_string(&counts_file) {
            Ok(t) => t,
            Err(_) => {
                return Err(AnalyzeError::RunFailed {
                    status: out.status.to_string(),
                    stderr: out.stderr,
                    hint: stdin_hint(&program, run),
                })
            }
        };
        // A zero step also leaves negative counts: look at its flag first.
        if inst.zero_step_flag.is_some_and(|f| slot_raised(&text, f)) {
            continue;
        }
        // Counting a loop by its induction variable fails where the variable wraps around
        // (negative counts): count such a run block by block instead.
        let retry = induction && !program.loops.induction.is_empty();
        let mut values = match read_counters(&text, inst.counters) {
            Ok(v) => v,
            Err(_) if retry => continue,
            Err(e) => return Err(e),
        };
        if inst.fill_derived(&mut values).is_none() {
            if retry {
                continue;
            }
            return Err(AnalyzeError::Counters(
                "a derived loop exit count came out negative".into(),
            ));
        }
        counters = Some(values);
        break;
    }
    let Some(counters) = counters else {
        return Err(AnalyzeError::Counters(
            "no counted copy gave consistent counters".into(),
        ));
    };
    let stats = stats::program_stats(&program, files, opts, Some(&counters))?;
    let mut diagnostics = program.diagnostics.clone();
    for (s, st) in program.stmts.iter().enumerate() {
        for p in &st.parts {
            if stats::eval(&p.mult, &counters).is_none() {
                let src = program.statement(s);
                diagnostics.push(crate::Diagnostic::warning(
                    &program.files[st.file].path,
                    src.first_line() + 1,
                    7,
                    "inconsistent counters for this statement (negative count); counted as 0",
                    "",
                ));
            }
        }
    }
    Ok(Analysis {
        stats,
        diagnostics,
        program,
        counters: Some(counters),
        added_flags,
    })
}

/// The compiler of the program's own builds: the system's, with the line length the analysis
/// was told about and the program's extra flags.
pub fn program_compiler(compiler: &Compiler, opts: &AnalyzeOptions) -> Compiler {
    let mut c = with_line_length(compiler, opts.line_length);
    c.flags.extend(opts.program_flags.iter().cloned());
    c
}

/// gfortran's errors (since version 10) on what Fortran 77 codes did everywhere, with the flag
/// their users build them with: an actual argument of another type or rank than its dummy or
/// than another call's (a COMPLEX array passed as REAL, one work routine for arrays of any
/// type), a BOZ constant outside DATA (`MASK = Z'7F'`).
pub const LEGACY_ERRORS: [(&str, &str); 4] = [
    ("mismatch in argument", "-fallow-argument-mismatch"),
    (
        "mismatch between actual argument",
        "-fallow-argument-mismatch",
    ),
    (
        "Interface mismatch in dummy procedure",
        "-fallow-argument-mismatch",
    ),
    ("-fno-allow-invalid-boz", "-fallow-invalid-boz"),
];

/// The last resort when the flags of [`LEGACY_ERRORS`] are not enough.
pub const LEGACY_STANDARD: &str = "-std=legacy";

/// Check that the original compiles; when gfortran refuses it with [`LEGACY_ERRORS`], retry
/// with the flags they call for (those of each new error, then [`LEGACY_STANDARD`]) and return
/// the flags added. Any other error is the user's, as the first compilation reported it.
pub fn legacy_flags(
    files: &[PathBuf],
    dir: &Path,
    compiler: &Compiler,
) -> Result<Vec<String>, AnalyzeError> {
    let Err(first) = check_original_compiles(files, dir, compiler) else {
        return Ok(Vec::new());
    };
    let mut added: Vec<String> = Vec::new();
    let mut stderr = first.stderr.clone();
    loop {
        let mut next: Vec<String> = LEGACY_ERRORS
            .iter()
            .filter(|(error, flag)| stderr.contains(error) && !added.iter().any(|a| a == flag))
            .map(|(_, flag)| flag.to_string())
            .collect();
        next.dedup();
        if next.is_empty() {
            if added.is_empty() || added.iter().any(|a| a == LEGACY_STANDARD) {
                return Err(AnalyzeError::Compile(first));
            }
            next.push(LEGACY_STANDARD.to_string());
        }
        added.extend(next);
        let mut c = compiler.clone();
        c.flags.extend(added.iter().cloned());
        match check_original_compiles(files, dir, &c) {
            Ok(()) => return Ok(added),
            Err(e) => stderr = e.stderr,
        }
    }
}

fn check_original_compiles(
    files: &[PathBuf],
    dir: &Path,
    compiler: &Compiler,
) -> Result<(), harness::CompileError> {
    for (i, f) in files.iter().enumerate() {
        let obj = dir.join(format!("orig{i}.o"));
        compiler.compile_object(f, &obj, &["-fsyntax-only"])?;
    }
    Ok(())
}

//! Rule 17 on the predictor's side: the instructions each innermost loop of a program executes
//! as the machine's compiler builds it. The count depends on the compiler and its flags, so it
//! is taken here, for each machine, from the program's assembly (`-S -g`), and the analyzer's
//! statistics stay the same for every system.

use harness::{CompileError, Compiler, CompilerError, LineInstructions};
use model::characterization::Characterization;
use model::{rules, ProgramStats};
use std::collections::BTreeMap;
use std::path::Path;
use thiserror::Error;

/// Why a program's loops could not be given their instructions; the prediction then leaves
/// the issue bound out and says so.
#[derive(Debug, Error)]
pub enum IssueError {
    #[error("the machine's compiler is not available here: {0}")]
    Compiler(#[from] CompilerError),
    #[error("source file {0} not found (the issue bound needs the program's source)")]
    MissingSource(String),
    #[error("{0}")]
    Compile(#[from] CompileError),
    #[error("scratch directory: {0}")]
    Io(#[from] std::io::Error),
    #[error(
        "{0}'s assembly has no line directives, so its instructions cannot be told apart by line"
    )]
    NoLineDirectives(String),
}

/// Fill `instructions` and `memory_instructions` of every loop of `stats` that has its
/// iterations (a dynamic analysis), as `machine`'s compiler and flags build the sources. On
/// an error every loop is left without (the prediction then has no issue bound).
pub fn fill_loop_instructions(
    stats: &mut ProgramStats,
    machine: &Characterization,
) -> Result<(), IssueError> {
    for l in &mut stats.loops {
        l.instructions = None;
        l.memory_instructions = None;
    }
    if stats.loops.iter().all(|l| l.iterations.is_none()) {
        return Ok(());
    }
    // The machine's flags plus those the program's builds need (legacy code).
    let flags = [machine.compiler.flags.clone(), stats.program_flags.clone()].concat();
    let compiler = Compiler::find(Some(&machine.compiler.path), &flags)?;
    let dir = tempfile::tempdir()?;
    let mut lines = LineInstructions::default();
    for f in &stats.source_files {
        let path = Path::new(f);
        if !path.is_file() {
            return Err(IssueError::MissingSource(f.clone()));
        }
        lines.extend(compiler.line_instructions(path, dir.path())?);
    }
    if lines.is_empty() {
        return Err(IssueError::NoLineDirectives(machine.compiler.path.clone()));
    }
    // How often each line ran: its basic block's executions.
    let mut runs: BTreeMap<(&str, u32), u64> = BTreeMap::new();
    for b in &stats.blocks {
        if let Some(e) = b.executions {
            for line in b.first_line..=b.last_line {
                runs.insert((b.file.as_str(), line), e);
            }
        }
    }
    let memory = lines.memory_only();
    let count = |l: &model::program_stats::LoopStats, lines: &LineInstructions| {
        let n = l.iterations?;
        Some(rules::loop_instructions(
            l.first_line..=l.last_line,
            n,
            |line| lines.at(&l.file, line),
            |line| lines.set_up_at(&l.file, line),
            |line| runs.get(&(l.file.as_str(), line)).copied(),
            |line| {
                l.consequent_runs
                    .iter()
                    .find(|(at, _)| *at == line)
                    .map(|&(_, taken)| (lines.after_branch_at(&l.file, line), taken))
            },
        ))
    };
    let counted: Vec<_> = stats
        .loops
        .iter()
        .map(|l| (count(l, &lines), count(l, &memory)))
        .collect();
    for (l, (all, memory)) in stats.loops.iter_mut().zip(counted) {
        l.instructions = all;
        l.memory_instructions = memory;
    }
    Ok(())
}

//! Machine instructions the compiler emits for each source line, read from its assembly
//! (`-S -g`: every run of instructions follows a `.loc FILE LINE COLUMN` directive). The
//! characterizer counts a test body's instructions with it and the predictor a loop's, so a
//! loop can be bounded by the rate the CPU issues instructions at (rule 17). Of those, the
//! instructions that access memory are counted apart: the memory pipes bound a loop whose
//! instructions mostly load and store, as -O0 code does (rule 17, MEMO).

use crate::compiler::{CompileError, Compiler};
use std::collections::BTreeMap;
use std::path::Path;

/// A count of instructions, and of those the ones that access memory (a load or a store:
/// an x86 memory operand `...(...)` other than `lea`'s address, a push, pop, call or return;
/// an AArch64 `[...]` operand).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mix {
    pub all: u64,
    pub memory: u64,
}

impl Mix {
    fn one(memory: bool) -> Mix {
        Mix {
            all: 1,
            memory: memory as u64,
        }
    }
    fn add(&mut self, other: Mix) {
        self.all += other.all;
        self.memory += other.memory;
    }
}

/// Instructions by (source file name as the assembly gives it, 1-based line).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineInstructions {
    by_line: LineCounts,
    /// A line's first run of instructions where a label ends it and the line has more code
    /// after it: a DO statement's set-up (its bounds and the first value of its variable,
    /// before the loop's head label), which runs once per entry to the loop.
    set_up: LineCounts,
    /// A line's instructions after its first conditional jump: a logical IF's consequent,
    /// which runs as often as the IF is taken, not as often as the line.
    after_branch: LineCounts,
}

/// The run of consecutive instructions of one line that the parser is in.
struct Run {
    key: (String, u32),
    len: Mix,
    first: bool,
}

impl LineInstructions {
    /// Read an assembly listing. Instructions before the first `.loc` (or in a listing without
    /// line directives) belong to no line.
    pub fn parse(asm: &str) -> LineInstructions {
        let mut position = SourcePosition::default();
        let mut by_line = BTreeMap::new();
        // Each line's first run, and whether a label ended it.
        let mut first_runs: BTreeMap<(String, u32), (Mix, bool)> = BTreeMap::new();
        let mut run: Option<Run> = None;
        let mut after_branch = LineCounts::new();
        for raw in asm.lines() {
            let line = raw.trim();
            if line.ends_with(':') {
                end_run(&mut run, true, &mut first_runs);
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let Some(first) = words.next() else { continue };
            match first {
                ".file" | ".loc" => {
                    position.follow(first, words);
                    if run.as_ref().map(|r| &r.key) != position.at.as_ref() {
                        end_run(&mut run, false, &mut first_runs);
                    }
                }
                d if d.starts_with('.') => {}
                _ => {
                    if let Some(key) = &position.at {
                        let one = Mix::one(accesses_memory(first, line[first.len()..].trim()));
                        by_line
                            .entry(key.clone())
                            .or_insert_with(Mix::default)
                            .add(one);
                        if let Some(n) = after_branch.get_mut(key) {
                            n.add(one);
                        } else if is_conditional_jump(first) {
                            after_branch.insert(key.clone(), Mix::default());
                        }
                        let r = run.get_or_insert_with(|| Run {
                            key: key.clone(),
                            len: Mix::default(),
                            first: !first_runs.contains_key(key),
                        });
                        r.len.add(one);
                    }
                }
            }
        }
        end_run(&mut run, false, &mut first_runs);
        let set_up = first_runs
            .into_iter()
            .filter(|(key, (len, by_label))| {
                *by_label && by_line.get(key).is_some_and(|l: &Mix| l.all > len.all)
            })
            .map(|(key, (len, _))| (key, len))
            .collect();
        LineInstructions {
            by_line,
            set_up,
            after_branch,
        }
    }

    /// Read the assembly listing at `path` ([`LineInstructions::parse`]).
    pub fn read(path: &Path) -> std::io::Result<LineInstructions> {
        Ok(LineInstructions::parse(&std::fs::read_to_string(path)?))
    }

    /// Instructions emitted for `line` of `file` (matched by file name, without directories).
    pub fn at(&self, file: &str, line: u32) -> u64 {
        count_at(&self.by_line, file, line).all
    }

    /// The same listing counting only the instructions that access memory ([`Mix::memory`]):
    /// its `at`, `set_up_at` and `after_branch_at` give memory accesses.
    pub fn memory_only(&self) -> LineInstructions {
        let project = |c: &LineCounts| -> LineCounts {
            c.iter()
                .map(|(k, m)| {
                    let memory = Mix {
                        all: m.memory,
                        memory: m.memory,
                    };
                    (k.clone(), memory)
                })
                .collect()
        };
        LineInstructions {
            by_line: project(&self.by_line),
            set_up: project(&self.set_up),
            after_branch: project(&self.after_branch),
        }
    }

    /// Of [`LineInstructions::at`], the instructions that set a loop up on `line`: the
    /// line's first run when a label ends it and more of the line's code follows (a DO
    /// statement's bounds and first value, before the loop's head). Rule 17 leaves them out
    /// of the loop's iterations (LOIN charges the set-up).
    pub fn set_up_at(&self, file: &str, line: u32) -> u64 {
        count_at(&self.set_up, file, line).all
    }

    /// Of [`LineInstructions::at`], the instructions after the line's first conditional jump
    /// (a logical IF's consequent; rule 17 weights them by the consequent's runs).
    pub fn after_branch_at(&self, file: &str, line: u32) -> u64 {
        count_at(&self.after_branch, file, line).all
    }

    /// Whether the listing had any line information (flang-new 16 writes none).
    pub fn is_empty(&self) -> bool {
        self.by_line.is_empty()
    }

    /// Add another file's listing.
    pub fn extend(&mut self, other: LineInstructions) {
        add_counts(&mut self.by_line, other.by_line);
        add_counts(&mut self.set_up, other.set_up);
        add_counts(&mut self.after_branch, other.after_branch);
    }
}

/// Where a listing's instructions come from, as its `.file` and `.loc` directives say.
#[derive(Default)]
pub(crate) struct SourcePosition {
    /// File names by the numbers `.file` gives them.
    files: BTreeMap<String, String>,
    /// The (file name, 1-based line) of the `.loc` in effect.
    pub(crate) at: Option<(String, u32)>,
}

impl SourcePosition {
    /// Follow a `.file` or `.loc` directive (`directive` its first word, `words` the rest;
    /// other lines are not for it). `.file 1 "name"` or (DWARF 5) `.file 1 "dir" "name"`
    /// numbers a file; `.loc FILE LINE ...` moves to that line: to none for an unknown file
    /// or line 0, nowhere for a `.loc` without both words.
    pub(crate) fn follow<'a>(&mut self, directive: &str, mut words: impl Iterator<Item = &'a str>) {
        match directive {
            ".file" => {
                let rest: Vec<&str> = words.collect();
                if rest.len() >= 2 && rest[0].parse::<u32>().is_ok() {
                    let name = rest[rest.len() - 1].trim_matches('"');
                    self.files.insert(rest[0].to_string(), file_name(name));
                }
            }
            ".loc" => {
                let (Some(f), Some(l)) = (words.next(), words.next()) else {
                    return;
                };
                self.at = match (self.files.get(f), l.parse::<u32>()) {
                    (Some(name), Ok(l)) if l > 0 => Some((name.clone(), l)),
                    _ => None,
                };
            }
            _ => {}
        }
    }
}

/// Close the current run; a line's first run is remembered with whether a label ended it.
fn end_run(
    run: &mut Option<Run>,
    by_label: bool,
    first_runs: &mut BTreeMap<(String, u32), (Mix, bool)>,
) {
    if let Some(r) = run.take() {
        if r.first {
            first_runs.insert(r.key, (r.len, by_label));
        }
    }
}

/// Instructions by (file name, line).
type LineCounts = BTreeMap<(String, u32), Mix>;

/// `counts` at `line` of `file` (matched by file name, without directories); 0 if absent.
fn count_at(counts: &LineCounts, file: &str, line: u32) -> Mix {
    counts
        .get(&(file_name(file), line))
        .copied()
        .unwrap_or_default()
}

/// Add `from`'s counts to `into`'s, line by line.
fn add_counts(into: &mut LineCounts, from: LineCounts) {
    for (k, v) in from {
        into.entry(k).or_default().add(v);
    }
}

/// Whether an instruction loads or stores: an x86 (AT&T) memory operand `disp(base, index)`
/// other than `lea`'s, which only computes the address, or a `nop`'s padding operand; a push,
/// pop, call or return (the stack); an AArch64 `[...]` operand.
pub(crate) fn accesses_memory(mnemonic: &str, operands: &str) -> bool {
    if ["lea", "nop", "prefetch"]
        .iter()
        .any(|m| mnemonic.starts_with(m))
    {
        return false;
    }
    operands.contains('(')
        || operands.contains('[')
        || ["push", "pop", "call", "ret"]
            .iter()
            .any(|m| mnemonic.starts_with(m))
}

/// A conditional branch: x86's `j..` other than `jmp`, AArch64's `b.cond`, `cbz`, `tbz` and
/// their negations.
pub(crate) fn is_conditional_jump(mnemonic: &str) -> bool {
    (mnemonic.starts_with('j') && mnemonic != "jmp" && mnemonic != "jmpq")
        || mnemonic.starts_with("b.")
        || matches!(mnemonic, "cbz" | "cbnz" | "tbz" | "tbnz")
}

pub fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string())
}

impl Compiler {
    /// Compile `source` to assembly with line directives (`-S -g`, after the system's own
    /// flags; -g does not change the code GCC generates) as `<stem>.s` in `dir`, and return
    /// the listing.
    pub fn assembly_listing(&self, source: &Path, dir: &Path) -> Result<String, CompileError> {
        self.assembly_listing_with(source, dir, &[])
    }

    /// [`Compiler::assembly_listing`] with `extra` flags after the system's own (X-Ray's
    /// vector kernels read the code they run, built with their own flags).
    pub fn assembly_listing_with(
        &self,
        source: &Path,
        dir: &Path,
        extra: &[&str],
    ) -> Result<String, CompileError> {
        let stem = source
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "source".into());
        let out = dir.join(format!("{stem}.s"));
        self.assemble(source, &out, extra)?;
        std::fs::read_to_string(&out).map_err(|e| CompileError {
            compiler: self.path.display().to_string(),
            file: source.display().to_string(),
            stderr: format!("cannot read the assembly {}: {e}", out.display()),
        })
    }

    /// [`Compiler::assembly_listing`]'s instructions counted by line.
    pub fn line_instructions(
        &self,
        source: &Path,
        dir: &Path,
    ) -> Result<LineInstructions, CompileError> {
        Ok(LineInstructions::parse(
            &self.assembly_listing(source, dir)?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_are_counted_under_their_line() {
        let asm = "\t.file\t\"p.f\"\n\t.file 0 \"/tmp\" \"p.f\"\n\t.text\nMAIN__:\n\t.file 1 \"p.f\"\n\t.loc 1 3 72\n\tpushq\t%rbp\n\tmovq\t%rsp, %rbp\n.L2:\n\t.loc 1 4 10 is_stmt 0\n\tmovl\t-4(%rbp), %eax\n\t.cfi_def_cfa 7, 8\n\tret\n\t.loc 1 3 72\n\tnop\n";
        let li = LineInstructions::parse(asm);
        assert_eq!(li.at("p.f", 3), 3);
        assert_eq!(li.at("/some/dir/p.f", 4), 2);
        assert_eq!(li.at("p.f", 5), 0);
        assert!(LineInstructions::parse("\tmovl $1, %eax\n").is_empty());
        // Of those, the push and the load and the return access memory; the move between
        // registers and the nop do not.
        let memory = li.memory_only();
        assert_eq!(memory.at("p.f", 3), 1);
        assert_eq!(memory.at("p.f", 4), 2);
    }

    #[test]
    fn memory_operands_are_told_from_addresses_and_registers() {
        for (text, memory) in [
            ("movss -432(%rbp,%rax,4), %xmm0", true),
            ("addss -16(%rbp), %xmm0", true),
            ("movss %xmm0, -432(%rbp,%rax,4)", true),
            ("movss .LC0(%rip), %xmm0", true),
            ("leaq (%rdx,%rdi), %r9", false),
            ("imulq %rax, %rdi", false),
            ("nopw 0(%rax,%rax,1)", false),
            ("call _gfortran_st_write", true),
            ("ldr x0, [sp, 16]", true),
            ("add x0, x0, 1", false),
        ] {
            let (m, ops) = text.split_once(' ').unwrap();
            assert_eq!(accesses_memory(m, ops.trim()), memory, "{text}");
        }
    }

    /// `text` compiled by gfortran -O0 as file `name` and counted by line; None (the test
    /// skipped) without gfortran.
    fn compiled(name: &str, text: &str) -> Option<LineInstructions> {
        let Ok(c) = Compiler::find(None, &["-O0".to_string()]) else {
            eprintln!("skipping: gfortran is not installed");
            return None;
        };
        let d = tempfile::tempdir().unwrap();
        let src = d.path().join(name);
        std::fs::write(&src, text).unwrap();
        Some(c.line_instructions(&src, d.path()).unwrap())
    }

    #[test]
    fn a_real_compilation_is_counted_by_line() {
        let Some(li) = compiled(
            "q.f",
            "      PROGRAM Q\n      INTEGER I, K(10)\n      DO 1 I = 1, 10\n      K(I) = I\n    1 CONTINUE\n      PRINT *, K(3)\n      END\n",
        ) else {
            return;
        };
        // The store through a variable subscript is several instructions at -O0.
        assert!(li.at("q.f", 4) >= 3, "{li:?}");
        assert!(li.at("q.f", 3) >= 1, "{li:?}");
        assert_eq!(li.at("q.f", 99), 0);
        // The DO sets the loop up (I = 1) before the loop's head: a run of its own, less
        // than the whole line (the test and the increment run each iteration).
        let set_up = li.set_up_at("q.f", 3);
        assert!(set_up >= 1 && set_up < li.at("q.f", 3), "{li:?}");
        assert_eq!(li.set_up_at("q.f", 4), 0, "{li:?}");
    }

    #[test]
    fn a_logical_ifs_consequent_is_told_from_its_test() {
        let Some(li) = compiled(
            "r.f",
            "      SUBROUTINE R(K, N)\n      INTEGER K(4), N\n      IF (N .GT. 2) K(N) = K(N) + 1\n      IF (N .GT. 3) RETURN\n      K(1) = N\n      END\n",
        ) else {
            return;
        };
        // The update of a dummy array's element after the compare and its jump: several
        // instructions, fewer than the line's.
        let after = li.after_branch_at("r.f", 3);
        assert!(after >= 4 && after < li.at("r.f", 3), "{li:?}");
        // A plain assignment has no conditional jump.
        assert_eq!(li.after_branch_at("r.f", 5), 0, "{li:?}");
    }

    #[test]
    fn a_do_statements_set_up_is_its_first_run_ended_by_a_label() {
        // gfortran -O0's shape: the DO (line 3) stores the first value, the head label, the
        // test; the body (line 4); the increment back on line 3. Line 4 has one run only.
        let asm = "\t.file 1 \"p.f\"\n\t.loc 1 3 0\n\tmovl $1, -4(%rbp)\n\tmovl $9, %eax\n.L3:\n\t.loc 1 3 0 is_stmt 0\n\tcmpl %eax, -4(%rbp)\n\tjg .L5\n\t.loc 1 4 0\n\tmovl -4(%rbp), %edx\n\tmovl %edx, -8(%rbp)\n\t.loc 1 3 0\n\taddl $1, -4(%rbp)\n\tjmp .L3\n.L5:\n\t.loc 1 4 0\n";
        let li = LineInstructions::parse(asm);
        assert_eq!(li.at("p.f", 3), 6);
        assert_eq!(li.set_up_at("p.f", 3), 2);
        assert_eq!(li.at("p.f", 4), 2);
        assert_eq!(li.set_up_at("p.f", 4), 0);
        // The DO line's test jumps; its increment and jump back come after.
        assert_eq!(li.after_branch_at("p.f", 3), 2);
        // A line whose only run a label ends sets nothing up: it is all the loop's.
        let li = LineInstructions::parse(
            "\t.file 1 \"p.f\"\n\t.loc 1 7 0\n\tcmpl $3, %eax\n\tjg .L9\n.L8:\n",
        );
        assert_eq!(li.set_up_at("p.f", 7), 0);
    }
}
